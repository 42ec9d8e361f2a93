//! The two image operations the trace needs: a chamfer distance transform and the
//! connected components of a mask (union-find), kept when long.

use std::collections::HashMap;

/// Chamfer (3-4) distance from every pixel to the nearest pixel where `source` is true, in
/// thirds of a pixel (capped).
///
/// Row by row: in each pass a row first takes the row before it (straight 3, diagonal 4: no
/// dependence along the row, so the loop runs without the pixel-by-pixel chain), then sweeps
/// along itself (3). The same distances as the textbook pixel-by-pixel passes, a few times
/// faster: on a 5,340 x 5,024 sheet the trace takes several of these.
pub(super) fn chamfer(source: &[bool], w: usize, h: usize) -> Vec<u32> {
    const FAR: u32 = u32::MAX / 4;
    let mut d: Vec<u32> = source.iter().map(|s| if *s { 0 } else { FAR }).collect();
    if w == 0 || h == 0 {
        return d;
    }
    // From the row before (`before`) into `row`.
    let take = |row: &mut [u32], before: &[u32]| {
        let (row, before) = (&mut row[..w], &before[..w]);
        row[0] = row[0].min(before[0] + 3);
        if w > 1 {
            row[0] = row[0].min(before[1] + 4);
            row[w - 1] = row[w - 1].min(before[w - 1] + 3).min(before[w - 2] + 4);
        }
        for x in 1..w.saturating_sub(1) {
            let straight = before[x] + 3;
            let diagonal = before[x - 1].min(before[x + 1]) + 4;
            row[x] = row[x].min(straight.min(diagonal));
        }
    };
    for y in 0..h {
        let (done, rest) = d.split_at_mut(y * w);
        let row = &mut rest[..w];
        if y > 0 {
            take(row, &done[(y - 1) * w..]);
        }
        for x in 1..w {
            row[x] = row[x].min(row[x - 1] + 3);
        }
    }
    for y in (0..h).rev() {
        let (row, after) = d[y * w..].split_at_mut(w);
        if y + 1 < h {
            take(row, after);
        }
        for x in (0..w - 1).rev() {
            row[x] = row[x].min(row[x + 1] + 3);
        }
    }
    d
}

/// The pixels within one step (the 8 neighbours) of a pixel of `mask`: `chamfer(mask) <= 4`,
/// without the distances.
pub(super) fn grown_by_one(mask: &[bool], w: usize, h: usize) -> Vec<bool> {
    use rayon::prelude::*;
    if w == 0 || h == 0 {
        return vec![false; w * h];
    }
    // Along the rows, then across them; rows in parallel.
    let mut along = vec![false; w * h];
    along
        .par_chunks_mut(w)
        .zip(mask.par_chunks(w))
        .for_each(|(out, row)| {
            for x in 0..w {
                out[x] = row[x] || (x > 0 && row[x - 1]) || (x + 1 < w && row[x + 1]);
            }
        });
    let mut out = vec![false; w * h];
    out.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        row.copy_from_slice(&along[y * w..(y + 1) * w]);
        if y > 0 {
            for (o, a) in row.iter_mut().zip(&along[(y - 1) * w..y * w]) {
                *o |= *a;
            }
        }
        if y + 1 < h {
            for (o, a) in row.iter_mut().zip(&along[(y + 1) * w..(y + 2) * w]) {
                *o |= *a;
            }
        }
    });
    out
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
    line_components(mask, None, w, h, min_extent, f64::INFINITY, f64::INFINITY)
}

/// Keeps the pixels of `mask` whose 8-connected component spans at least `min_extent` pixels,
/// or at least `short_extent` with its pixels where `touch` is set spanning at least `apart`
/// (all as bounding boxes' diagonals): a line, or a shorter piece of line cut at both its
/// ends by what `touch` marks. One labelling for both.
pub(super) fn line_components(
    mask: &[bool],
    touch: Option<&[bool]>,
    w: usize,
    h: usize,
    min_extent: f64,
    short_extent: f64,
    apart: f64,
) -> Vec<bool> {
    let mut parent = components(mask, w, h);
    let grow = |b: &mut [usize; 4], x: usize, y: usize| {
        b[0] = b[0].min(x);
        b[1] = b[1].min(y);
        b[2] = b[2].max(x);
        b[3] = b[3].max(y);
    };
    let mut boxes: HashMap<u32, ([usize; 4], Option<[usize; 4]>)> = HashMap::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if mask[i] {
                let r = find(&mut parent, i as u32);
                let (all, touching) = boxes.entry(r).or_insert(([x, y, x, y], None));
                grow(all, x, y);
                if touch.is_some_and(|t| t[i]) {
                    grow(touching.get_or_insert([x, y, x, y]), x, y);
                }
            }
        }
    }
    let extent = |b: [usize; 4]| ((b[2] - b[0] + 1) as f64).hypot((b[3] - b[1] + 1) as f64);
    let kept: HashMap<u32, bool> = boxes
        .into_iter()
        .map(|(r, (all, touching))| {
            let e = extent(all);
            let between = e >= short_extent && touching.is_some_and(|t| extent(t) >= apart);
            (r, e >= min_extent || between)
        })
        .collect();
    (0..w * h)
        .map(|i| mask[i] && kept[&find(&mut parent, i as u32)])
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
    let reach = thick + 3;
    // Few cores (a line's sheet has a town's dot here and there): the cells within `reach`
    // of each stamped around it (from one cell the chamfer distance is 3 × the larger offset
    // + the smaller), the same cells as a distance transform over the whole sheet finds. The
    // cores are listed only up to the number where stamping stops paying (a sheet all ink
    // would list every cell).
    let r = (reach / 3) as usize;
    let few = (w * h / 8) / ((2 * r + 1) * (2 * r + 1));
    let core: Vec<usize> = (0..w * h)
        .filter(|i| depth[*i] > thick)
        .take(few + 1)
        .collect();
    if core.len() <= few {
        let mut near = vec![false; w * h];
        for &c in &core {
            let (cx, cy) = (c % w, c / w);
            for y in cy.saturating_sub(r)..(cy + r + 1).min(h) {
                for x in cx.saturating_sub(r)..(cx + r + 1).min(w) {
                    let (dx, dy) = (x.abs_diff(cx) as u32, y.abs_diff(cy) as u32);
                    if 3 * dx.max(dy) + dx.min(dy) <= reach {
                        near[y * w + x] = true;
                    }
                }
            }
        }
        return (0..w * h).map(|i| mask[i] && !near[i]).collect();
    }
    let is_core: Vec<bool> = depth.iter().map(|d| *d > thick).collect();
    let near_core = chamfer(&is_core, w, h);
    (0..w * h)
        .map(|i| mask[i] && near_core[i] > reach)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook passes, pixel by pixel.
    fn chamfer_by_pixel(source: &[bool], w: usize, h: usize) -> Vec<u32> {
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

    /// Blobs dropped by stamping round few cores: the same cells as by the distance
    /// transform over the whole sheet.
    #[test]
    fn blobs_dropped_by_stamping_match_the_distance_transform() {
        let mut seed = 777u32;
        let mut stamped = 0;
        for (w, h) in [(1usize, 1usize), (9, 4), (60, 45), (120, 90), (400, 300)] {
            for density in [2u32, 20, 60, 95] {
                let mut mask: Vec<bool> = (0..w * h)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        (seed >> 16) % 100 < density
                    })
                    .collect();
                // A few solid dots (a town's): few cores, stamped.
                for (cx, cy) in [(10usize, 10usize), (50, 30), (100, 70)] {
                    for y in 0..h {
                        for x in 0..w {
                            if x.abs_diff(cx).pow(2) + y.abs_diff(cy).pow(2) <= 49 {
                                mask[y * w + x] = true;
                            }
                        }
                    }
                }
                let outside: Vec<bool> = mask.iter().map(|v| !v).collect();
                let depth = chamfer(&outside, w, h);
                for thick in [3u32, 6, 12] {
                    let core: Vec<bool> = depth.iter().map(|d| *d > thick).collect();
                    stamped += usize::from(
                        core.iter().any(|c| *c)
                            && core.iter().filter(|c| **c).count() * 121 < w * h / 8,
                    );
                    let near_core = chamfer(&core, w, h);
                    let want: Vec<bool> = (0..w * h)
                        .map(|i| mask[i] && near_core[i] > thick + 3)
                        .collect();
                    assert_eq!(
                        without_blobs(&mask, &depth, w, h, thick),
                        want,
                        "{w} x {h}, {density} %, thick {thick}"
                    );
                }
            }
        }
        assert!(stamped > 0, "no case had few cores");
    }

    /// Row-wise passes and the one-step growth give exactly what the pixel-by-pixel passes
    /// give, on masks of every size from one pixel up (a fixed pseudo-random fill).
    #[test]
    fn row_wise_chamfer_and_growth_match_the_pixel_passes() {
        let mut seed = 12345u32;
        for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (13, 9), (40, 31)] {
            for density in [1u32, 5, 30] {
                let mask: Vec<bool> = (0..w * h)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        (seed >> 16) % 100 < density
                    })
                    .collect();
                let slow = chamfer_by_pixel(&mask, w, h);
                assert_eq!(chamfer(&mask, w, h), slow, "{w} x {h}, {density} %");
                let near: Vec<bool> = slow.iter().map(|d| *d <= 4).collect();
                assert_eq!(grown_by_one(&mask, w, h), near, "{w} x {h}, {density} %");
            }
        }
    }
}
