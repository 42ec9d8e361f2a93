//! Features followed as drawn lines. On a real map a river, a stream or a fortification line is
//! a hand-drawn line that runs a few pixels beside the grid line, wiggles and cuts corners, with
//! labels and bridges over it; a model of what one hexside patch looks like (the `hexsides`
//! module) only matches the hexsides drawn like its samples. Here the line is followed as ink:
//!
//! 1. each feature's ink is read from its marked hexsides (the dominant colour of what is
//!    neither the two hexes' colours nor the grid line's ink);
//! 2. every pixel of the scan is given to the nearest of the map's colours (the terrain
//!    samples', the grid line's, each feature's ink) and, when that is a feature's ink close
//!    enough, it is ink of that feature, at a working scale of 24-48 px a hex radius;
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
//! 6. the ink joined to the user's marked hexsides (pieces end to end across gaps of up to
//!    half a hex radius: a bridge, a label or a frame cuts a line's ink) is the line the user
//!    marked, followed from there; ink of the same colour apart from it may be another line,
//!    or letters and symbols (a title in the rivers' blue).
//!
//! The trace is trusted for a feature only when it finds that feature along the user's own
//! marked hexsides (most of their length, on average) and not along most hexsides of the map.
//! Then a hexside it covers along most of its length (or along some of it when the line runs
//! on at both ends: a bridge or a label over it) carries the feature; a hexside it covers in
//! part is for review; and a feature the patch model suggested where the traced ink never
//! comes near, with no traced line at either end, is for review too. Where the patch model is
//! sure of plain, only a water line joined to the marked hexsides, or running on at both ends
//! to hexsides the patch model found carrying it, is painted; other traced ink is for review.
//!
//! The distance transform (chamfer 3-4) and the labelling (union-find) are a few lines here:
//! `imageproc`, which has both, is not a dependency and would bring `nalgebra`, `rand` and
//! `ab_glyph` with it.

use std::collections::HashMap;

use bataille_schema::geometry::sides;
use bataille_schema::map::HexsideSymbol;
use bataille_schema::{Grid, HexIndex, Side};

use crate::colour::Lab;
use crate::mapping::GridMapping;
use crate::scan::Scan;

mod along;
mod cells;
mod chain;
mod ink;
mod morphology;
mod pattern;
mod through;
use cells::{Cells, ink_cells};
use chain::{agrees_with, goes_on};
use ink::feature_ink;
use morphology::{chamfer, joined_to, long_components, marked_depth, without_blobs};
pub use through::{Crossing, ThroughLine, trace_through};

/// The ink of a line read from the hexsides the user marked it on (see [`ink::feature_ink`]).
pub(crate) fn marked_ink(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    colours: &Colours,
    marked: &[(HexIndex, Side)],
) -> Option<Lab> {
    feature_ink(scan, grid, mapping, colours, marked)
}

/// A hexside feature of the legend with its marked hexsides.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Line {
    /// The hexsides the user marked with it.
    pub marked: Vec<(HexIndex, Side)>,
    /// Water (its ink may be a water hex's colour).
    pub water: bool,
    /// A bridge: not traced.
    pub bridge: bool,
    /// How it is drawn: features drawn alike are one line here.
    pub symbol: Option<HexsideSymbol>,
}

/// What the map's colours are, for telling a feature's ink from everything else.
pub struct Colours<'a> {
    /// The colour of a hex (its terrain statistic), `None` off the scan.
    pub hex: &'a dyn Fn(HexIndex) -> Option<Lab>,
    /// The terrain samples' colours.
    pub terrain: Vec<Lab>,
    /// The grid line's ink.
    pub grid_ink: Option<Lab>,
}

/// One hexside's suggestion, as the trace reads and corrects it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// The feature (index into the lines), `None` plain.
    pub feature: Option<usize>,
    pub confidence: f32,
    /// Marked by the user: never changed.
    pub marked: bool,
}

/// The working scale: at least this many pixels a hex radius (scans are reduced by a whole
/// factor down to it).
const WORK_RADIUS_PX: f64 = 24.0;
/// Ink within this distance of a side (hex radii) runs beside it.
const NEAR_SIDE: f32 = 0.36;
/// Ink further than this from any other colour (hex radii) is a blob, not a line.
const THICK: f64 = 0.11;
/// Connected ink whose extent is under this (hex radii) is a letter or a symbol.
const MIN_LENGTH: f64 = 1.2;
/// Pieces of a line this close (hex radii) are one line: a bridge, a label or a frame over
/// it cuts its ink.
const GAP: f64 = 0.5;
/// Bins along a side.
const BINS: u32 = 10;
/// All the bins.
const ALL: u16 = (1 << BINS) - 1;
/// The middle of the side: near its ends a line that turns at the corner (two rivers
/// meeting, a line cutting the corner) spills onto the other sides of that corner.
const MIDDLE: u16 = 0b00_1111_1100;

/// The share of the bins of `counted` that are set.
fn share(bins: u16, counted: u16) -> f32 {
    (bins & counted).count_ones() as f32 / counted.count_ones() as f32
}
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
/// A plain suggestion this sure is not overturned by the trace alone.
const SURE_PLAIN: f32 = 0.5;
/// The confidence at most of what the trace puts up for review.
const REVIEW: f32 = 0.2;
/// The confidence at most of a line (not water) the trace alone assigns.
const LINE_SURE: f32 = 0.5;
/// A side whose middle carries no ink and is covered along at most this share (ink near its
/// ends only: a line turning at a corner, a river meeting it) carries no line: the trace
/// agrees it is plain.
const AGREE_PLAIN: f32 = 0.5;

/// What the trace found: per hexside (in the order of the suggestions), per feature, the share
/// of the side's length its ink runs beside; and which features it can be trusted for.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// `coverage[hexside][feature]` in [0, 1], pooled over the features drawn alike.
    pub coverage: Vec<Vec<f32>>,
    /// The same along the middle 60 % of the side only.
    pub middle: Vec<Vec<f32>>,
    /// The same, of each feature's own ink only (which shade of a line).
    pub own: Vec<Vec<f32>>,
    /// The same as `coverage`, of the ink joined to the feature's marked hexsides (one line
    /// with them, across gaps of a bridge or a label).
    pub joined: Vec<Vec<f32>>,
    /// Per feature (in the order of `samples.features`): the trace found it along its marked
    /// hexsides and not everywhere.
    pub reliable: Vec<bool>,
    /// Per feature, the ink read from its marked hexsides.
    pub inks: Vec<Option<Lab>>,
}

/// Follows the features' inks over the scan (see the module's documentation), for the
/// `hexsides` given (their order is the trace's).
pub fn trace(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    lines: &[Line],
    colours: &Colours,
    hexsides: &[(HexIndex, Side)],
) -> Trace {
    let count = lines.len();
    let traced: Vec<bool> = lines.iter().map(|l| !l.bridge).collect();
    let inks: Vec<Option<Lab>> = lines
        .iter()
        .zip(&traced)
        .map(|(line, t)| {
            t.then(|| feature_ink(scan, grid, mapping, colours, &line.marked))
                .flatten()
        })
        .collect();
    let empty = Trace {
        coverage: vec![vec![0.0; count]; hexsides.len()],
        middle: vec![vec![0.0; count]; hexsides.len()],
        own: vec![vec![0.0; count]; hexsides.len()],
        joined: vec![vec![0.0; count]; hexsides.len()],
        reliable: vec![false; count],
        inks: inks.clone(),
    };
    let Some(inverse) = mapping.inverse() else {
        return empty;
    };
    if inks.iter().all(Option::is_none) || count > 250 {
        return empty;
    }
    let Some(Cells {
        cells,
        w,
        h,
        k,
        unit,
    }) = ink_cells(scan, grid, mapping, &inks, colours, 1.0)
    else {
        return empty;
    };
    // Features drawn alike (shades of one line) are one line here: which shade is the patch
    // model's to say.
    let symbol: Vec<Option<HexsideSymbol>> = lines.iter().map(|l| l.symbol).collect();
    let group: Vec<usize> = (0..count)
        .map(|f| {
            (0..f)
                .find(|g| symbol[f].is_some() && symbol[*g] == symbol[f])
                .unwrap_or(f)
        })
        .collect();
    let mut kept = vec![false; w * h];
    let mut network = vec![false; w * h];
    for g in (0..count).filter(|g| group[*g] == *g && inks[*g].is_some()) {
        let mask: Vec<bool> = cells
            .iter()
            .map(|c| *c > 0 && group[usize::from(*c) - 1] == g)
            .collect();
        let outside: Vec<bool> = mask.iter().map(|v| !v).collect();
        let depth = chamfer(&outside, w, h);
        // A blob is ink deeper than a line: than 0.11 hex radius, or than half again the
        // line's own depth along its marked hexsides (a river drawn as a wide band).
        let places: Vec<(usize, usize)> = (0..count)
            .filter(|f| group[*f] == g)
            .flat_map(|f| lines[f].marked.iter())
            .filter_map(|&(index, side)| {
                let [a, b] = grid.side_corners(index, side)?;
                let mid = [f64::from(a[0] + b[0]) / 2.0, f64::from(a[1] + b[1]) / 2.0];
                let [x, y] = mapping.map(mid);
                (x >= 0.0 && y >= 0.0)
                    .then(|| ((x as usize / k).min(w - 1), (y as usize / k).min(h - 1)))
            })
            .collect();
        let own = marked_depth(&depth, w, h, &places, (0.3 * unit).ceil() as usize).unwrap_or(0);
        let thick = ((3.0 * (THICK * unit).max(1.5)).round() as u32).max(own * 3 / 2);
        let thin = without_blobs(&mask, &depth, w, h, thick);
        let long = long_components(&thin, w, h, MIN_LENGTH * unit);
        let reach = (0.3 * unit).ceil() as usize;
        let joined = joined_to(&long, w, h, &places, reach, (GAP * unit).round() as usize);
        for (n, j) in network.iter_mut().zip(joined) {
            *n |= j;
        }
        for (l, keep) in kept.iter_mut().zip(long) {
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
    let mut bins = vec![vec![0u16; count]; hexsides.len()];
    let mut joined_bins = vec![vec![0u16; count]; hexsides.len()];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !kept[i] {
                continue;
            }
            let f = usize::from(cells[i]) - 1;
            let p = inverse.map([(x as f64 + 0.5) * k as f64, (y as f64 + 0.5) * k as f64]);
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
            if network[i] {
                joined_bins[s][f] |= 1 << bin;
            }
        }
    }
    // Coverage per feature, pooled over the features drawn alike: along the whole side, and
    // along its middle.
    let pooled = |b: &[u16], f: usize| {
        (0..count)
            .filter(|g| group[*g] == group[f])
            .fold(0u16, |acc, g| acc | b[g])
    };
    let coverage: Vec<Vec<f32>> = bins
        .iter()
        .map(|b| (0..count).map(|f| share(pooled(b, f), ALL)).collect())
        .collect();
    let middle: Vec<Vec<f32>> = bins
        .iter()
        .map(|b| (0..count).map(|f| share(pooled(b, f), MIDDLE)).collect())
        .collect();
    let joined: Vec<Vec<f32>> = joined_bins
        .iter()
        .map(|b| (0..count).map(|f| share(pooled(b, f), ALL)).collect())
        .collect();
    let own: Vec<Vec<f32>> = bins
        .iter()
        .map(|b| b.iter().map(|v| share(*v, ALL)).collect())
        .collect();
    let reliable: Vec<bool> = (0..count)
        .map(|f| {
            if inks[group[f]].is_none() || !traced[f] {
                return false;
            }
            let marked: Vec<f32> = lines[f]
                .marked
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
        middle,
        own,
        joined,
        reliable,
        inks,
    }
}

/// Corrects the patch model's decisions (for the trace's hexsides, in its order) with the
/// trace (see the module's documentation). `water_hex` tells the hexes of water terrain: a
/// water feature beside one is for review (its ink is that hex's colour); `doubtful_below` is
/// the review queue's threshold.
pub fn apply_trace(
    grid: &Grid,
    lines: &[Line],
    trace: &Trace,
    hexsides: &[(HexIndex, Side)],
    decisions: &mut [Decision],
    water_hex: &dyn Fn(HexIndex) -> bool,
    doubtful_below: f32,
) {
    let count = lines.len();
    if !trace.reliable.iter().any(|r| *r) {
        return;
    }
    // The hexsides meeting at each corner.
    let key = |p: [f32; 2]| ((p[0] * 64.0).round() as i64, (p[1] * 64.0).round() as i64);
    let mut at_corner: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    let mut ends: Vec<[(i64, i64); 2]> = Vec::with_capacity(hexsides.len());
    for (i, &(index, side)) in hexsides.iter().enumerate() {
        let [a, b] = grid
            .side_corners(index, side)
            .unwrap_or([[0.0, 0.0], [0.0, 0.0]]);
        let e = [key(a), key(b)];
        for c in e {
            at_corner.entry(c).or_default().push(i);
        }
        ends.push(e);
    }
    let before: Vec<(Option<usize>, f32)> = decisions
        .iter()
        .map(|d| (d.feature, d.confidence))
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
    // The ends of hexside `i` from which the line drawn like `f` goes on to a hexside the
    // patch model found carrying such a feature (not in doubt), along at most three more
    // hexsides the trace covers with it (a gap of a few hexsides in the line).
    let alike = |g: usize, f: usize| lines[g].symbol == lines[f].symbol;
    let chained = |i: usize, f: usize| -> usize {
        let found =
            |j: usize| before[j].1 >= doubtful_below && before[j].0.is_some_and(|g| alike(g, f));
        let traced = |j: usize| {
            before[j].0.is_none() && trace.coverage[j][f] >= FOUND && trace.middle[j][f] >= 0.5
        };
        ends[i]
            .iter()
            .filter(|&&c| goes_on(i, c, 3, &found, &traced, &at_corner, &ends))
            .count()
    };
    let agrees = |i: usize, suggested: Option<usize>, wet: bool| {
        agrees_with(trace, i, suggested, wet, &links)
    };
    for i in 0..decisions.len().min(hexsides.len()) {
        if decisions[i].marked {
            continue;
        }
        let (index, side) = hexsides[i];
        let wet = water_hex(index) || grid.neighbour(index, side).is_some_and(water_hex);
        match before[i].0 {
            None => {
                // The best traced feature here.
                let best = (0..count)
                    .filter(|f| trace.reliable[*f])
                    .max_by(|a, b| trace.coverage[i][*a].total_cmp(&trace.coverage[i][*b]));
                let Some(f) = best else { continue };
                let c = trace.coverage[i][f];
                let linked = links(i, f);
                // Which of the features drawn alike: the one whose own ink covers most.
                let shade = (0..count)
                    .filter(|g| trace.reliable[*g] && trace.coverage[i][*g] == c)
                    .max_by(|a, b| trace.own[i][*a].total_cmp(&trace.own[i][*b]))
                    .unwrap_or(f);
                let water = lines[shade].water;
                // Ink only near the ends is a line turning at the corner, not along this side.
                let along = trace.middle[i][f] >= 0.5;
                let traced = c >= FOUND || (c >= PART && along && linked == 2);
                // A line as drawn: its own ink (not a shade drawn alike) along most of the
                // side, its middle included, and the same line found on at both ends (the
                // patch model's features drawn alike, not in doubt): a gap in a line, under a
                // label, a bridge or a road crossing it. A fortification line or a road is
                // assigned only so: their brown is also the brown of roads through hexes,
                // rings and towns, which can cover a stretch of a side and link to traced ink.
                let drawn_line =
                    c >= FOUND && along && trace.own[i][shade] >= FOUND && chained(i, shade) == 2;
                // The trace paints only where the patch model is not sure the hexside is
                // plain. Else, and for what is not clearly a line, it is for review.
                // A water line drawn as such, going on at both ends to hexsides the patch
                // model found carrying it, overrules even a sure plain: the patch model learnt
                // the line from a few hexsides and misses it where it is drawn otherwise.
                // A water line joined to the user's marked hexsides (one line with them,
                // across bridges and labels) along most of the side, its middle included.
                let joined_line = trace.joined[i][f] >= FOUND && along;
                let sure_plain =
                    before[i].1 >= SURE_PLAIN && !(water && (drawn_line || joined_line));
                if traced && (sure_plain || !(water || drawn_line)) {
                    decisions[i].confidence = decisions[i].confidence.min(REVIEW);
                } else if traced {
                    let sure = (0.3 + (c - PART) / (1.0 - PART)).clamp(0.3, 1.0);
                    decisions[i].feature = Some(shade);
                    decisions[i].confidence = if wet {
                        REVIEW
                    } else if water {
                        sure
                    } else {
                        sure.min(LINE_SURE)
                    };
                } else if c >= PART && trace.middle[i][f] > 0.3 {
                    decisions[i].confidence = decisions[i].confidence.min(REVIEW);
                }
            }
            Some(f) => {
                if !trace.reliable[f] {
                    continue;
                }
                let c = trace.coverage[i][f];
                if c < 0.15 && links(i, f) == 0 && before[i].1 >= doubtful_below {
                    decisions[i].confidence = decisions[i].confidence.min(REVIEW);
                }
            }
        }
        // Two readings that agree: the patch model left the hexside in doubt (a crowded or
        // textured stretch of the sheet, a wiggling line) and the trace, which follows the
        // line as a whole, clearly says the same. It leaves the review queue.
        let unchanged =
            decisions[i].feature == before[i].0 && decisions[i].confidence == before[i].1;
        if unchanged && before[i].1 < doubtful_below && agrees(i, before[i].0, wet) {
            decisions[i].confidence = doubtful_below;
        }
    }
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
