//! The two image operations the trace needs: a chamfer distance transform and the
//! connected components of a mask (union-find), kept when long.

use std::collections::HashMap;

/// Chamfer (3-4) distance from every pixel to the nearest pixel where `source` is true, in
/// thirds of a pixel (capped).
pub(super) fn chamfer(source: &[bool], w: usize, h: usize) -> Vec<u32> {
    const FAR: u32 = u32::MAX / 4;
    let mut d: Vec<u32> = source.iter().map(|s| if *s { 0 } else { FAR }).collect();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let mut v = d[i];
            if x > 0 {
                v = v.min(d[i - 1] + 3);
            }
            if y > 0 {
                v = v.min(d[i - w] + 3);
                if x > 0 {
                    v = v.min(d[i - w - 1] + 4);
                }
                if x + 1 < w {
                    v = v.min(d[i - w + 1] + 4);
                }
            }
            d[i] = v;
        }
    }
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let i = y * w + x;
            let mut v = d[i];
            if x + 1 < w {
                v = v.min(d[i + 1] + 3);
            }
            if y + 1 < h {
                v = v.min(d[i + w] + 3);
                if x + 1 < w {
                    v = v.min(d[i + w + 1] + 4);
                }
                if x > 0 {
                    v = v.min(d[i + w - 1] + 4);
                }
            }
            d[i] = v;
        }
    }
    d
}

pub(super) fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let next = parent[parent[i as usize] as usize];
        parent[i as usize] = next;
        i = next;
    }
    i
}

/// The 8-connected components of `mask`, as a union-find forest: two pixels of the mask are in
/// one component when [`find`] gives them the same root.
pub(super) fn components(mask: &[bool], w: usize, h: usize) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..(w * h) as u32).collect();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !mask[i] {
                continue;
            }
            let mut join = |j: usize| {
                if mask[j] {
                    let (a, b) = (find(&mut parent, i as u32), find(&mut parent, j as u32));
                    if a != b {
                        parent[a.max(b) as usize] = a.min(b);
                    }
                }
            };
            if x > 0 {
                join(i - 1);
            }
            if y > 0 {
                join(i - w);
                if x > 0 {
                    join(i - w - 1);
                }
                if x + 1 < w {
                    join(i - w + 1);
                }
            }
        }
    }
    parent
}

/// Keeps the pixels of `mask` whose 8-connected component spans at least `min_extent` pixels
/// (its bounding box's diagonal).
pub(super) fn long_components(mask: &[bool], w: usize, h: usize, min_extent: f64) -> Vec<bool> {
    let mut parent = components(mask, w, h);
    let mut boxes: HashMap<u32, [usize; 4]> = HashMap::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if mask[i] {
                let r = find(&mut parent, i as u32);
                let b = boxes.entry(r).or_insert([x, y, x, y]);
                b[0] = b[0].min(x);
                b[1] = b[1].min(y);
                b[2] = b[2].max(x);
                b[3] = b[3].max(y);
            }
        }
    }
    let long: HashMap<u32, bool> = boxes
        .into_iter()
        .map(|(r, b)| {
            let extent = ((b[2] - b[0] + 1) as f64).hypot((b[3] - b[1] + 1) as f64);
            (r, extent >= min_extent)
        })
        .collect();
    (0..w * h)
        .map(|i| mask[i] && long[&find(&mut parent, i as u32)])
        .collect()
}

/// How deep a line's ink is where the user marked it: at each marked place (a cell), the
/// deepest `depth` within `reach` cells of it; the median over the places (`None` without
/// any). A river drawn as a wide band is that deep all along: deeper ink elsewhere is a blob.
pub(super) fn marked_depth(
    depth: &[u32],
    w: usize,
    h: usize,
    places: &[(usize, usize)],
    reach: usize,
) -> Option<u32> {
    let mut deepest: Vec<u32> = places
        .iter()
        .map(|&(x, y)| {
            let mut best = 0;
            for yy in y.saturating_sub(reach)..(y + reach + 1).min(h) {
                for xx in x.saturating_sub(reach)..(x + reach + 1).min(w) {
                    best = best.max(depth[yy * w + xx]);
                }
            }
            best
        })
        .collect();
    if deepest.is_empty() {
        return None;
    }
    let mid = deepest.len() / 2;
    Some(*deepest.select_nth_unstable(mid).1)
}

/// The ink of `mask` connected to one of the `places` (cells: within `reach` of one), its
/// pieces joined across gaps of up to `gap` cells (a bridge, a label or a frame over a line
/// cuts its ink; the pieces of one line lie end to end). What a user marked is a line; ink
/// not joined to it (letters, symbols, other lines) is not this network.
pub(super) fn joined_to(
    mask: &[bool],
    w: usize,
    h: usize,
    places: &[(usize, usize)],
    reach: usize,
    gap: usize,
) -> Vec<bool> {
    // Grown by half the gap: pieces within `gap` of each other touch.
    let distance = chamfer(mask, w, h);
    let grown: Vec<bool> = distance.iter().map(|d| *d <= 3 * gap as u32 / 2).collect();
    let mut parent = components(&grown, w, h);
    let mut marked = std::collections::HashSet::new();
    for &(x, y) in places {
        for yy in y.saturating_sub(reach)..(y + reach + 1).min(h) {
            for xx in x.saturating_sub(reach)..(x + reach + 1).min(w) {
                let i = yy * w + xx;
                if mask[i] {
                    marked.insert(find(&mut parent, i as u32));
                }
            }
        }
    }
    (0..w * h)
        .map(|i| mask[i] && marked.contains(&find(&mut parent, i as u32)))
        .collect()
}

/// The ink of `mask` that is not a blob: further than 3 (a third of a cell each) from every
/// cell deeper than `thick` (`depth`: [`chamfer`] from outside the mask, in thirds of a cell).
/// A blob (a lake, a town's dot, a title's heavy letters) goes with its rim; a line thinner
/// than `thick` stays whole.
pub(super) fn without_blobs(
    mask: &[bool],
    depth: &[u32],
    w: usize,
    h: usize,
    thick: u32,
) -> Vec<bool> {
    let core: Vec<bool> = depth.iter().map(|d| *d > thick).collect();
    let near_core = chamfer(&core, w, h);
    (0..w * h)
        .map(|i| mask[i] && near_core[i] > thick + 3)
        .collect()
}
