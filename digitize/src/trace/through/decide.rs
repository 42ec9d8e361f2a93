//! How the trace decides a hexside's crossing from what each line's ink does there, and what
//! it puts up for review once decided: a crossing whose line goes on in neither of its hexes,
//! a side a loose line crosses where no line was found.

#[allow(clippy::wildcard_imports, reason = "the trace's types and constants")]
use super::*;

/// A line runs on from hex to hex: a crossing sure of its line whose two hexes the line
/// crosses no other side of (the ink went in and stopped on both sides: a place name's letters
/// across the side, read as a railway's ties) is for review.
pub(super) fn alone_for_review(
    grid: &Grid,
    hexsides: &[(HexIndex, Side)],
    decided: &mut [Crossing],
    same: &[usize],
) {
    let mut at: HashMap<HexIndex, Vec<usize>> = HashMap::new();
    for (s, d) in decided.iter().enumerate() {
        if let Some(f) = d.feature {
            let (index, side) = hexsides[s];
            for hex in [Some(index), grid.neighbour(index, side)]
                .into_iter()
                .flatten()
            {
                at.entry(hex).or_default().push(same[f]);
            }
        }
    }
    for (s, d) in decided.iter_mut().enumerate() {
        let Some(f) = d.feature else { continue };
        let (index, side) = hexsides[s];
        // This crossing counts once in each of its hexes.
        let goes_on = [Some(index), grid.neighbour(index, side)]
            .into_iter()
            .flatten()
            .any(|hex| {
                at.get(&hex)
                    .is_some_and(|l| l.iter().filter(|g| **g == same[f]).count() > 1)
            });
        if !goes_on {
            d.confidence = d.confidence.min(REVIEW);
        }
    }
}

/// A side a *loose* line (every line's ink and the grid line's traced as one, where no line
/// is: a railway printed in the grid's grey) crosses in its core, surely crossed by nothing,
/// is for review: the trace cannot say what crosses it, but something does. It crosses where
/// its cells touch across the side, or where its ink lies within [`NEAR`] of the side facing
/// (in the same bin) its own ink or a traced line's on the other side: a bridge's box over it
/// cuts it at the side. `loose` is `w` cells a row; `line_near` per side, the bins where the
/// traced lines' ink lies near it on the canonical hex's side and the other's; `grid_point` a
/// cell's middle in grid space; `along` where a point lies along a side (its index among the
/// hexsides, the share of its length, the distance).
pub(super) fn loose_for_review(
    grid: &Grid,
    loose: &[bool],
    line_near: &[[u16; 2]],
    w: usize,
    decided: &mut [Crossing],
    grid_point: &dyn Fn(usize, usize) -> [f32; 2],
    along: &dyn Fn(HexIndex, Side, [f32; 2]) -> Option<(usize, f32, f32)>,
) {
    let all_sides = sides(grid.orientation);
    let h = loose.len().checked_div(w).unwrap_or(0);
    let bin = |t: f32| 1u16 << ((t * BINS as f32) as u32).min(BINS - 1);
    let mut crossed = vec![0u16; decided.len()];
    let mut near = vec![[0u16; 2]; decided.len()];
    // Per loose cell its hex (`None` off the grid), a row at a time: each is read once.
    let hex_row = |y: usize| -> Vec<Option<HexIndex>> {
        (0..w)
            .map(|x| {
                loose[y * w + x]
                    .then(|| grid.hex_at(grid_point(x, y)))
                    .flatten()
            })
            .collect()
    };
    let mut next = if h > 0 { hex_row(0) } else { Vec::new() };
    for y in 0..h {
        let here = std::mem::take(&mut next);
        next = if y + 1 < h {
            hex_row(y + 1)
        } else {
            Vec::new()
        };
        for x in 0..w {
            let Some(a) = here[x] else { continue };
            let p = grid_point(x, y);
            // Near a side of its hex, on which side of it: a loose line cut at the side
            // (a bridge's box over it) faces its other part, or a traced line, across it.
            for side in all_sides {
                if let Some((s, t, dist)) = along(a, side, p)
                    && dist <= NEAR
                {
                    let canonical = grid.canonical_hexside(a, side);
                    near[s][usize::from(canonical.0 != a)] |= bin(t);
                }
            }
            // Touching cells in another hex: the loose line crosses their side.
            let touching = [
                (x + 1 < w).then(|| here[x + 1]),
                (x > 0 && y + 1 < h).then(|| next[x - 1]),
                (y + 1 < h).then(|| next[x]),
                (x + 1 < w && y + 1 < h).then(|| next[x + 1]),
            ];
            for b in touching.into_iter().flatten().flatten() {
                if b == a {
                    continue;
                }
                let Some(side) = all_sides
                    .into_iter()
                    .find(|s| grid.neighbour(a, *s) == Some(b))
                else {
                    continue;
                };
                if let Some((s, t, _)) = along(a, side, p) {
                    crossed[s] |= bin(t);
                }
            }
        }
    }
    for (((d, bins), n), l) in decided.iter_mut().zip(crossed).zip(near).zip(line_near) {
        // Facing across the side within a bin: the loose line's ink on both sides, or on one
        // and a traced line's on the other.
        let faced = n[0] & (n[1] | l[1]) | n[1] & l[0];
        let bins = bins | faced;
        if d.feature.is_none() && bins & CORE != 0 {
            d.confidence = d.confidence.min(REVIEW);
        }
    }
}

/// The bins where a line crosses a side: touching ink in the two hexes, or its ink on both
/// sides facing each other (within a bin): cut by the grid line, a label, a bridge's box.
pub(super) fn crossed(s: &Seen) -> u16 {
    let spread = |v: u16| v | v << 1 | v >> 1;
    s.crossed | (spread(s.near[0]) & s.near[1])
}

/// The suggestion for one hexside from what each line's ink does there.
pub(super) fn decide(per_line: &[Seen]) -> Crossing {
    let mut order: Vec<usize> = (0..per_line.len())
        .filter(|f| crossed(&per_line[*f]) != 0)
        .collect();
    order.sort_by_key(|f| {
        let s = &per_line[*f];
        std::cmp::Reverse((crossed(s) & CORE).count_ones() * 64 + crossed(s).count_ones())
    });
    let Some(&f) = order.first() else {
        return Crossing {
            feature: None,
            confidence: 1.0,
        };
    };
    let s = per_line[f];
    let bins = crossed(&s);
    let confidence = if s.near.iter().any(|v| v.count_ones() >= ALONG) {
        REVIEW
    } else if bins & CORE != 0 {
        SURE
    } else if bins & MIDDLE != 0 {
        LESS_SURE
    } else {
        REVIEW
    };
    // Two lines both crossing here: which one is not sure.
    let contested = order
        .get(1)
        .is_some_and(|g| crossed(&per_line[*g]) & CORE & bins != 0);
    Crossing {
        feature: Some(f),
        confidence: if contested {
            confidence.min(REVIEW)
        } else {
            confidence
        },
    }
}
