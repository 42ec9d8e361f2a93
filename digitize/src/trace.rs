//! Features followed as drawn lines. On a real map a river, a stream or a fortification line is
//! a hand-drawn line that runs a few pixels beside the grid line, wiggles and cuts corners, with
//! labels and bridges over it; a model of what one hexside patch looks like (the `hexsides`
//! module) only matches the hexsides drawn like its samples. Here the line is followed as ink:
//!
//! 1. each feature's ink is read from its marked hexsides (the dominant colour of what is
//!    neither the two hexes' colours nor the grid line's ink);
//! 2. every pixel of the scan is given to the nearest of the map's colours (the terrain
//!    samples', the grid line's, each feature's ink) and, when that is a feature's ink close
//!    enough, it is ink of that feature, at a working scale of about 24 px a hex radius;
//! 3. blobs are not lines: ink further than 0.11 hex radius from any other colour (a water
//!    hex, a lake) is dropped with its rim (an opening by a distance transform);
//! 4. connected ink shorter than 1.2 hex radii across is a letter or a symbol (a marsh's
//!    waves, a hex number) and dropped: a line runs on over two hexsides at least;
//! 5. each pixel left is given to the hexside nearest to it (in grid space, within 0.36 hex
//!    radius), at its position along it, and a hexside is covered along the share of its
//!    length (ten bins) where that feature's ink runs beside it. A line running beside the
//!    side and cutting its corners covers most of it; a road crossing it, a line through the
//!    hex or a label covers a bin or two.
//!
//! The trace is trusted for a feature only when it finds that feature along the user's own
//! marked hexsides (most of their length, on average) and not along most hexsides of the map.
//! Then a hexside it covers along most of its length (or along some of it when the line runs
//! on at both ends: a bridge or a label over it) carries the feature; a hexside it covers in
//! part is for review; and a feature the patch model suggested where the traced ink never
//! comes near, with no traced line at either end, is for review too.
//!
//! The distance transform (chamfer 3-4) and the labelling (union-find) are a few lines here:
//! `imageproc`, which has both, is not a dependency and would bring `nalgebra`, `rand` and
//! `ab_glyph` with it.

use std::collections::HashMap;

use bataille_schema::geometry::sides;
use bataille_schema::map::HexsideSymbol;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::calibrate::{Matrix, apply, invert, local_scale};
use crate::classify::{
    DOUBTFUL_BELOW, HexsideSamples, HexsideSuggestion, TerrainSuggestions, dominant,
};
use crate::colour::{Lab, delta_e, srgb_to_lab};
use crate::scan::Scan;

/// The working scale: about this many pixels a hex radius.
const WORK_RADIUS_PX: f64 = 24.0;
/// Ink within this distance of a side (hex radii) runs beside it.
const NEAR_SIDE: f32 = 0.36;
/// Ink further than this from any other colour (hex radii) is a blob, not a line.
const THICK: f64 = 0.11;
/// Connected ink whose extent is under this (hex radii) is a letter or a symbol.
const MIN_LENGTH: f64 = 1.2;
/// Bins along a side.
const BINS: u32 = 10;
/// A side covered along this share of its length carries the feature.
const FOUND: f32 = 0.6;
/// A side covered along this share, with the line going on at both ends, carries it (a bridge,
/// a label over the line); alone it is for review.
const PART: f32 = 0.3;
/// The trace is trusted for a feature when the marked hexsides are covered this much on
/// average...
const RELIABLE: f32 = 0.6;
/// ... and under this share of all hexsides is covered (else its ink is the grid line's).
const CROWDED: f32 = 0.25;
/// The confidence at most of what the trace puts up for review.
const REVIEW: f32 = 0.2;

/// What the trace found: per hexside (in the order of the suggestions), per feature, the share
/// of the side's length its ink runs beside; and which features it can be trusted for.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// `coverage[hexside][feature]` in [0, 1], pooled over the features drawn alike.
    pub coverage: Vec<Vec<f32>>,
    /// The same, of each feature's own ink only (which shade of a line).
    pub own: Vec<Vec<f32>>,
    /// Per feature (in the order of `samples.features`): the trace found it along its marked
    /// hexsides and not everywhere.
    pub reliable: Vec<bool>,
    /// Per feature, the ink read from its marked hexsides.
    pub inks: Vec<Option<Lab>>,
}

/// The ink of a feature: over the pixels near its marked hexsides (the middle 70 % of each,
/// ±0.3 hex radius across), those over ΔE 15 from both hexes' colours and from the grid line's
/// ink; their dominant colour.
fn feature_ink(
    scan: &Scan,
    grid: &Grid,
    m: &Matrix,
    terrain: &TerrainSuggestions,
    hexsides: &[(HexIndex, Side)],
    grid_ink: Option<Lab>,
) -> Option<Lab> {
    let mut pixels = Vec::new();
    for &(index, side) in hexsides {
        let Some([a, b]) = grid.side_corners(index, side) else {
            continue;
        };
        let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
        let c = grid.centre(index);
        let c = [f64::from(c[0]), f64::from(c[1])];
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        let out = [mid[0] - c[0], mid[1] - c[1]];
        let l = out[0].hypot(out[1]).max(1e-9);
        let out = [out[0] / l, out[1] / l];
        let scale = local_scale(m, mid).max(1.0);
        let steps = (0.7 * scale).ceil().max(4.0) as usize;
        let across = (0.6 * scale).ceil().max(4.0) as usize;
        let mut hexes: Vec<Lab> = Vec::new();
        for h in [Some(index), grid.neighbour(index, side)]
            .into_iter()
            .flatten()
        {
            if let Some(colour) = terrain.get(grid, h).and_then(|s| s.colour) {
                hexes.push(colour);
            }
        }
        for u in 0..=steps {
            let f = 0.15 + 0.7 * u as f64 / steps as f64;
            let p = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
            for k in 0..=across {
                let t = -0.3 + 0.6 * k as f64 / across as f64;
                let q = apply(m, [p[0] + t * out[0], p[1] + t * out[1]]);
                let Some(rgb) = scan.pixel_at(q[0], q[1]) else {
                    continue;
                };
                let lab = srgb_to_lab(rgb);
                if hexes.iter().all(|h| delta_e(lab, *h) > 15.0)
                    && grid_ink.is_none_or(|g| delta_e(lab, g) > 15.0)
                {
                    pixels.push(lab);
                }
            }
        }
    }
    if pixels.len() < 8 {
        return None;
    }
    dominant(&mut pixels).map(|(lab, _)| lab)
}

/// Chamfer (3-4) distance from every pixel to the nearest pixel where `source` is true, in
/// thirds of a pixel (capped).
fn chamfer(source: &[bool], w: usize, h: usize) -> Vec<u32> {
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

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let next = parent[parent[i as usize] as usize];
        parent[i as usize] = next;
        i = next;
    }
    i
}

/// Keeps the pixels of `mask` whose 8-connected component spans at least `min_extent` pixels
/// (its bounding box's diagonal).
fn long_components(mask: &[bool], w: usize, h: usize, min_extent: f64) -> Vec<bool> {
    let mut parent: Vec<u32> = (0..(w * h) as u32).collect();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !mask[i] {
                continue;
            }
            let join = |j: usize, parent: &mut Vec<u32>| {
                if mask[j] {
                    let (a, b) = (find(parent, i as u32), find(parent, j as u32));
                    if a != b {
                        parent[a.max(b) as usize] = a.min(b);
                    }
                }
            };
            if x > 0 {
                join(i - 1, &mut parent);
            }
            if y > 0 {
                join(i - w, &mut parent);
                if x > 0 {
                    join(i - w - 1, &mut parent);
                }
                if x + 1 < w {
                    join(i - w + 1, &mut parent);
                }
            }
        }
    }
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

/// Follows the features' inks over the scan (see the module's documentation). `suggestions`
/// give the hexsides (in their order); `grid_ink` is the grid line's learnt ink.
pub fn trace(
    scan: &Scan,
    grid: &Grid,
    m: &Matrix,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    grid_ink: Option<Lab>,
    hexsides: &[(HexIndex, Side)],
) -> Trace {
    let ids: Vec<&Id> = samples.features.keys().collect();
    let traced: Vec<bool> = ids
        .iter()
        .map(|id| !samples.kinds.get(*id).is_some_and(|k| k.bridge))
        .collect();
    let inks: Vec<Option<Lab>> = ids
        .iter()
        .zip(&traced)
        .map(|(id, t)| {
            t.then(|| feature_ink(scan, grid, m, terrain, &samples.features[*id], grid_ink))
                .flatten()
        })
        .collect();
    let empty = Trace {
        coverage: vec![vec![0.0; ids.len()]; hexsides.len()],
        own: vec![vec![0.0; ids.len()]; hexsides.len()],
        reliable: vec![false; ids.len()],
        inks: inks.clone(),
    };
    let Some(inverse) = invert(m) else {
        return empty;
    };
    if inks.iter().all(Option::is_none) || ids.len() > 250 {
        return empty;
    }
    // The map's other colours: the marked hexes' (else every hex's) and the grid line's.
    let mut others: Vec<Lab> = terrain
        .hexes
        .iter()
        .filter(|s| s.marked)
        .filter_map(|s| s.colour)
        .collect();
    if others.is_empty() {
        others = terrain.hexes.iter().filter_map(|s| s.colour).collect();
    }
    others.extend(grid_ink);
    // How close to its ink a pixel must be: half the way to the nearest other colour.
    let radius: Vec<f32> = inks
        .iter()
        .map(|k| {
            k.map_or(0.0, |k| {
                let nearest = others
                    .iter()
                    .map(|o| delta_e(k, *o))
                    .fold(f32::INFINITY, f32::min);
                (0.5 * nearest).clamp(8.0, 30.0)
            })
        })
        .collect();
    // A look-up table over 6 bits a channel: 0 none, f + 1 feature f's ink.
    let table: Vec<u8> = (0..1usize << 18)
        .into_par_iter()
        .map(|code| {
            let level = |shift: usize| (((code >> shift) & 63) as u8) << 2 | 2;
            let lab = srgb_to_lab([level(12), level(6), level(0)]);
            let (mut best, mut best_d) = (None, f32::INFINITY);
            for (f, k) in inks.iter().enumerate() {
                if let Some(k) = k {
                    let d = delta_e(lab, *k);
                    if d < best_d {
                        (best, best_d) = (Some(f), d);
                    }
                }
            }
            let Some(f) = best else { return 0 };
            if best_d > radius[f] || others.iter().any(|o| delta_e(lab, *o) < best_d) {
                return 0;
            }
            (f + 1) as u8
        })
        .collect();

    // The working image: each cell the feature most of its pixels are ink of.
    let middle = grid.centre(HexIndex::new(grid.columns / 2, grid.rows / 2));
    let scale = local_scale(m, [f64::from(middle[0]), f64::from(middle[1])]);
    if !(scale.is_finite() && scale > 2.0) {
        return empty;
    }
    let k = ((scale / WORK_RADIUS_PX).floor() as usize).max(1);
    let (sw, sh) = (scan.width() as usize, scan.height() as usize);
    let (w, h) = (sw.div_ceil(k), sh.div_ceil(k));
    let raw = scan.image.as_raw();
    let mut cells = vec![0u8; w * h];
    cells.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        let mut counts = vec![0u32; ids.len() + 1];
        for (x, cell) in row.iter_mut().enumerate() {
            counts.iter_mut().for_each(|c| *c = 0);
            for py in y * k..((y + 1) * k).min(sh) {
                for px in x * k..((x + 1) * k).min(sw) {
                    let o = 3 * (py * sw + px);
                    let code = (usize::from(raw[o]) >> 2) << 12
                        | (usize::from(raw[o + 1]) >> 2) << 6
                        | usize::from(raw[o + 2]) >> 2;
                    counts[usize::from(table[code])] += 1;
                }
            }
            *cell = (1..counts.len())
                .filter(|f| counts[*f] > 0)
                .max_by_key(|f| counts[*f])
                .map_or(0, |f| f as u8);
        }
    });
    let unit = scale / k as f64;
    // Features drawn alike (shades of one line) are one line here: which shade is the patch
    // model's to say.
    let symbol: Vec<Option<HexsideSymbol>> = ids
        .iter()
        .map(|id| samples.kinds.get(*id).and_then(|k| k.symbol))
        .collect();
    let group: Vec<usize> = (0..ids.len())
        .map(|f| {
            (0..f)
                .find(|g| symbol[f].is_some() && symbol[*g] == symbol[f])
                .unwrap_or(f)
        })
        .collect();
    let mut lines = vec![false; w * h];
    for g in (0..ids.len()).filter(|g| group[*g] == *g && inks[*g].is_some()) {
        let mask: Vec<bool> = cells
            .iter()
            .map(|c| *c > 0 && group[usize::from(*c) - 1] == g)
            .collect();
        let outside: Vec<bool> = mask.iter().map(|v| !v).collect();
        let depth = chamfer(&outside, w, h);
        let thick = (3.0 * (THICK * unit).max(1.5)).round() as u32;
        let core: Vec<bool> = depth.iter().map(|d| *d > thick).collect();
        let near_core = chamfer(&core, w, h);
        let thin: Vec<bool> = (0..w * h)
            .map(|i| mask[i] && near_core[i] > thick + 3)
            .collect();
        let long = long_components(&thin, w, h, MIN_LENGTH * unit);
        for (l, keep) in lines.iter_mut().zip(long) {
            *l |= keep;
        }
    }

    // Each line pixel to the hexside nearest it, at its place along it.
    let position: HashMap<(HexIndex, Side), usize> = hexsides
        .iter()
        .enumerate()
        .map(|(i, &(index, side))| (grid.canonical_hexside(index, side), i))
        .collect();
    let all_sides = sides(grid.orientation);
    let mut bins = vec![vec![0u16; ids.len()]; hexsides.len()];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !lines[i] {
                continue;
            }
            let f = usize::from(cells[i]) - 1;
            let p = apply(
                &inverse,
                [(x as f64 + 0.5) * k as f64, (y as f64 + 0.5) * k as f64],
            );
            let p = [p[0] as f32, p[1] as f32];
            let Some(index) = grid.hex_at(p) else {
                continue;
            };
            let mut best: Option<(f32, f32, Side)> = None;
            for side in all_sides {
                let Some([a, b]) = grid.side_corners(index, side) else {
                    continue;
                };
                let d = [b[0] - a[0], b[1] - a[1]];
                let len2 = (d[0] * d[0] + d[1] * d[1]).max(1e-9);
                let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
                let q = [a[0] + t * d[0], a[1] + t * d[1]];
                let dist = (p[0] - q[0]).hypot(p[1] - q[1]);
                if best.is_none_or(|b| dist < b.0) {
                    best = Some((dist, t, side));
                }
            }
            let Some((dist, t, side)) = best else {
                continue;
            };
            if dist > NEAR_SIDE {
                continue;
            }
            let canonical = grid.canonical_hexside(index, side);
            let Some(&s) = position.get(&canonical) else {
                continue;
            };
            // Along the canonical hexside's own direction (the neighbour sees it reversed;
            // a bin is a bin either way, mirrored).
            let t = if canonical.0 == index { t } else { 1.0 - t };
            let bin = ((t * BINS as f32) as u32).min(BINS - 1);
            bins[s][f] |= 1 << bin;
        }
    }
    // Coverage per feature, then pooled over the features drawn alike.
    let coverage: Vec<Vec<f32>> = bins
        .iter()
        .map(|b| {
            (0..ids.len())
                .map(|f| {
                    let pooled = (0..ids.len())
                        .filter(|g| group[*g] == group[f])
                        .fold(0u16, |acc, g| acc | b[g]);
                    pooled.count_ones() as f32 / BINS as f32
                })
                .collect()
        })
        .collect();
    let own: Vec<Vec<f32>> = bins
        .iter()
        .map(|b| {
            b.iter()
                .map(|v| v.count_ones() as f32 / BINS as f32)
                .collect()
        })
        .collect();
    let reliable: Vec<bool> = (0..ids.len())
        .map(|f| {
            if inks[group[f]].is_none() || !traced[f] {
                return false;
            }
            let marked: Vec<f32> = samples.features[ids[f]]
                .iter()
                .filter_map(|h| position.get(&grid.canonical_hexside(h.0, h.1)))
                .map(|&s| coverage[s][f])
                .collect();
            let mean = marked.iter().sum::<f32>() / marked.len().max(1) as f32;
            let crowded = coverage.iter().filter(|c| c[f] >= FOUND).count() as f32
                / coverage.len().max(1) as f32;
            !marked.is_empty() && mean >= RELIABLE && crowded < CROWDED
        })
        .collect();
    Trace {
        coverage,
        own,
        reliable,
        inks,
    }
}

/// Corrects the patch model's suggestions with the trace (see the module's documentation).
/// `water_hex` tells the hexes of water terrain: a water feature beside one is for review (its
/// ink is that hex's colour).
pub fn apply_trace(
    grid: &Grid,
    samples: &HexsideSamples,
    trace: &Trace,
    suggestions: &mut [HexsideSuggestion],
    water_hex: &dyn Fn(HexIndex) -> bool,
) {
    let ids: Vec<&Id> = samples.features.keys().collect();
    if !trace.reliable.iter().any(|r| *r) {
        return;
    }
    // The hexsides meeting at each corner.
    let key = |p: [f32; 2]| ((p[0] * 64.0).round() as i64, (p[1] * 64.0).round() as i64);
    let mut at_corner: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    let mut ends: Vec<[(i64, i64); 2]> = Vec::with_capacity(suggestions.len());
    for (i, s) in suggestions.iter().enumerate() {
        let [a, b] = grid
            .side_corners(s.index, s.side)
            .unwrap_or([[0.0, 0.0], [0.0, 0.0]]);
        let e = [key(a), key(b)];
        for c in e {
            at_corner.entry(c).or_default().push(i);
        }
        ends.push(e);
    }
    let before: Vec<(Option<usize>, f32)> = suggestions
        .iter()
        .map(|s| {
            (
                s.feature
                    .as_ref()
                    .and_then(|id| ids.iter().position(|i| *i == id)),
                s.confidence,
            )
        })
        .collect();
    let carries = |j: usize, f: usize| -> bool {
        trace.coverage[j][f] >= FOUND
            || before[j].0.is_some_and(|g| {
                trace.coverage[j][g] > 0.0 && trace.coverage[j][f] > 0.0 && before[j].1 >= 0.25
            })
    };
    let links = |i: usize, f: usize| -> usize {
        ends[i]
            .iter()
            .filter(|c| at_corner[*c].iter().any(|&j| j != i && carries(j, f)))
            .count()
    };
    for i in 0..suggestions.len() {
        if suggestions[i].marked {
            continue;
        }
        let s = &suggestions[i];
        let wet = water_hex(s.index) || grid.neighbour(s.index, s.side).is_some_and(water_hex);
        match before[i].0 {
            None => {
                // The best traced feature here.
                let best = (0..ids.len())
                    .filter(|f| trace.reliable[*f])
                    .max_by(|a, b| trace.coverage[i][*a].total_cmp(&trace.coverage[i][*b]));
                let Some(f) = best else { continue };
                let c = trace.coverage[i][f];
                let linked = links(i, f);
                let water = samples.kinds.get(ids[f]).is_some_and(|k| k.water);
                if c >= FOUND || (c >= PART && linked == 2) {
                    let sure = (0.3 + (c - PART) / (1.0 - PART)).clamp(0.3, 1.0);
                    let confidence = if water && wet { REVIEW } else { sure };
                    // Which of the features drawn alike: the one whose own ink covers most.
                    let shade = (0..ids.len())
                        .filter(|g| trace.reliable[*g] && trace.coverage[i][*g] == c)
                        .max_by(|a, b| trace.own[i][*a].total_cmp(&trace.own[i][*b]))
                        .unwrap_or(f);
                    suggestions[i].feature = Some(ids[shade].clone());
                    suggestions[i].confidence = confidence;
                } else if c >= PART {
                    suggestions[i].confidence = suggestions[i].confidence.min(REVIEW);
                }
            }
            Some(f) => {
                if !trace.reliable[f] {
                    continue;
                }
                let c = trace.coverage[i][f];
                if c < 0.15 && links(i, f) == 0 && before[i].1 >= DOUBTFUL_BELOW {
                    suggestions[i].confidence = suggestions[i].confidence.min(REVIEW);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{ClassifyOptions, FeatureKind, suggest_terrain};
    use bataille_schema::map::{HexNaming, Orientation, Shifted};
    use std::collections::BTreeMap;

    const PAPER: [u8; 3] = [236, 230, 205];
    const LINE: [u8; 3] = [90, 90, 90];
    const BLUE: [u8; 3] = [40, 90, 200];

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            first_column: 1,
            first_row: 1,
            columns: 9,
            rows: 7,
            hex_names: HexNaming::default(),
        }
    }

    fn dot(img: &mut image::RgbImage, p: [f64; 2], r: f64, colour: [u8; 3]) {
        let (x0, y0) = (
            (p[0] - r).floor().max(0.0) as u32,
            (p[1] - r).floor().max(0.0) as u32,
        );
        for y in y0..=(p[1] + r).ceil() as u32 {
            for x in x0..=(p[0] + r).ceil() as u32 {
                if x < img.width()
                    && y < img.height()
                    && (f64::from(x) + 0.5 - p[0]).hypot(f64::from(y) + 0.5 - p[1]) <= r
                {
                    img.put_pixel(x, y, image::Rgb(colour));
                }
            }
        }
    }

    /// A printed sheet: grey grid lines, a blue river hugging four sides of hex 0403 a few
    /// pixels inside them (wiggling, cutting the corners, a bridge gap on one side), a blue
    /// label (letters) beside another hexside and a blue lake filling hex 0806.
    fn sheet(m: &Matrix) -> Scan {
        let grid = grid();
        let mut img = image::RgbImage::from_pixel(420, 330, image::Rgb(PAPER));
        let at = |p: [f64; 2]| apply(m, p);
        let lake = HexIndex::new(7, 5);
        let [cx, cy] = grid.centre(lake);
        for y in 0..330u32 {
            for x in 0..420u32 {
                let p = apply(
                    &invert(m).unwrap(),
                    [f64::from(x) + 0.5, f64::from(y) + 0.5],
                );
                if grid.hex_at([p[0] as f32, p[1] as f32]) == Some(lake)
                    && (p[0] - f64::from(cx)).hypot(p[1] - f64::from(cy)) < 2.0
                {
                    img.put_pixel(x, y, image::Rgb(BLUE));
                }
            }
        }
        for index in grid.indices() {
            for side in sides(grid.orientation) {
                let [a, b] = grid.side_corners(index, side).unwrap();
                for s in 0..=60 {
                    let t = f64::from(s) / 60.0;
                    let p = [
                        f64::from(a[0]) + t * f64::from(b[0] - a[0]),
                        f64::from(a[1]) + t * f64::from(b[1] - a[1]),
                    ];
                    dot(&mut img, at(p), 0.6, LINE);
                }
            }
        }
        // The river: around hex 0403 (index 3, 2) at 0.68 of its radius, wiggling.
        let river = HexIndex::new(3, 2);
        let [cx, cy] = grid.centre(river);
        let (cx, cy) = (f64::from(cx), f64::from(cy));
        for s in 0..=400 {
            // From the north-west corner's angle through north, north-east, south-east, south.
            let angle = (-120.0 + 240.0 * f64::from(s) / 400.0f64).to_radians();
            let wiggle = 0.04 * (f64::from(s) * 0.3).sin();
            let r = 0.68 + wiggle;
            let p = [cx + r * angle.cos(), cy + r * angle.sin()];
            // A bridge: a gap a fifth of the way along the north-east side.
            if (130..=142).contains(&s) {
                continue;
            }
            dot(&mut img, at(p), 1.6, BLUE);
        }
        // A label: letters beside hexside 0206/N.
        let [lx, ly] = grid.centre(HexIndex::new(1, 5));
        for letter in 0..5 {
            let p = at([
                f64::from(lx) - 0.5 + 0.22 * f64::from(letter),
                f64::from(ly) - 0.7,
            ]);
            for k in 0..4 {
                dot(&mut img, [p[0], p[1] + f64::from(k)], 1.0, BLUE);
            }
        }
        Scan { image: img }
    }

    #[test]
    fn a_river_drawn_beside_the_sides_is_followed_across_a_bridge_and_labels_and_lakes_are_not_lines()
     {
        let grid = grid();
        let m = [30.0, 0.0, 30.0, 0.0, 30.0, 30.0, 0.0, 0.0, 1.0];
        let scan = sheet(&m);
        let river = HexIndex::new(3, 2);
        let side = |name: &str| grid.parse_hexside(name).unwrap();
        let terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::from([
            (
                ".".to_owned(),
                vec![HexIndex::new(0, 0), HexIndex::new(5, 1)],
            ),
            ("~".to_owned(), vec![HexIndex::new(7, 5)]),
        ]);
        let options = ClassifyOptions::default();
        let terrain = suggest_terrain(&scan, &grid, &m, &terrain_samples, &options).unwrap();
        let n = grid.canonical_hexside(river, Side::N);
        let s = grid.canonical_hexside(river, Side::S);
        let mut samples = HexsideSamples::default();
        samples.features.insert(Id::from("river"), vec![n, s]);
        samples.kinds.insert(
            Id::from("river"),
            FeatureKind {
                water: true,
                bridge: false,
                symbol: Some(HexsideSymbol::River),
            },
        );
        samples.water_terrain.insert("~".to_owned());
        let hexsides = crate::classify::interior_hexsides(&grid);
        let trace = trace(
            &scan,
            &grid,
            &m,
            &terrain,
            &samples,
            Some(srgb_to_lab(LINE)),
            &hexsides,
        );
        assert_eq!(trace.reliable, [true]);
        let coverage = |h: (HexIndex, Side)| {
            let h = grid.canonical_hexside(h.0, h.1);
            trace.coverage[hexsides.iter().position(|x| *x == h).unwrap()][0]
        };
        // Along the river: most of each side, the bridged one too.
        for side in [Side::N, Side::NE, Side::SE, Side::S] {
            assert!(
                coverage((river, side)) >= FOUND,
                "{side:?}: {}",
                coverage((river, side))
            );
        }
        // Not along the other sides, the label's, or the lake's.
        assert!(coverage((river, Side::SW)) < PART);
        assert!(coverage((river, Side::NW)) < PART);
        assert_eq!(coverage(side("0206/N")), 0.0);
        for side in sides(grid.orientation) {
            assert_eq!(
                coverage((HexIndex::new(7, 5), side)),
                0.0,
                "the lake's {side:?}"
            );
        }
        // As suggestions: the two unmarked river sides carry it, nothing else.
        let mut suggestions: Vec<HexsideSuggestion> = hexsides
            .iter()
            .map(|&(index, side)| HexsideSuggestion {
                index,
                side,
                feature: None,
                confidence: 0.9,
                marked: samples
                    .features
                    .values()
                    .flatten()
                    .any(|h| *h == (index, side)),
            })
            .collect();
        apply_trace(&grid, &samples, &trace, &mut suggestions, &|_| false);
        let found: Vec<String> = suggestions
            .iter()
            .filter(|s| s.feature.is_some() && !s.marked)
            .map(|s| grid.hexside_ref(s.index, s.side).to_string())
            .collect();
        let expected: Vec<String> = [Side::NE, Side::SE]
            .iter()
            .map(|s| grid.hexside_ref(river, *s).to_string())
            .collect();
        assert_eq!(found, expected);
    }
}
