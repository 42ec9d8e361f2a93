//! Lines drawn *through* the hexes — roads and railways, a map file's `paths` — followed as
//! drawn: the line's ink, connected over the sheet, and the hexsides where it passes from one
//! hex into the next.
//!
//! 1. each line's ink is read from the hexsides the user marked it crossing (as a hexside
//!    feature's: what is neither the two hexes' colours nor the grid line's ink);
//! 2. the scan at the working scale, each cell given to the line whose ink it is
//!    ([`super::cells`]); blobs (a town's dot, a station's square, a title's heavy letters)
//!    dropped with their rim, and connected ink spanning under [`MIN_LINE`] hex radii (the
//!    letters and words of place names) dropped: a road runs on over hexes;
//! 3. the line crosses a hexside where two touching cells of its ink lie in the two hexes of
//!    that side: the place (ten bins along the side) is recorded;
//! 4. where the line's ink is cut at a side (a label, a bridge's box or another line drawn
//!    over it), its ink on both sides within [`NEAR`] hex radius, facing each other along the
//!    side, is the same crossing, less sure.
//!
//! A hexside crossed along its middle carries the line; crossed near an end only (the line
//! passes through the corner, where three hexes meet: which two the path joins is not for the
//! ink to say), or crossed so often that the line runs along it, it is for review; so is a
//! crossing by two lines whose inks both claim it.

use bataille_schema::geometry::sides;
use bataille_schema::map::Orientation;
use bataille_schema::{Grid, HexIndex, Side};
use rayon::prelude::*;
use std::collections::HashMap;

use super::along::{Placed, along_the_line};
use super::cells::{Cells, ink_cells_many};
use super::ink::feature_ink;
use super::morphology::{chamfer, grown_by_one, line_components, without_blobs};
use super::pattern::{NOVEL, Pattern, TYPE_MARGIN, distance, pattern};
use super::{BINS, Colours, THICK};
use crate::colour::{Lab, delta_e};
use crate::mapping::GridMapping;
use crate::scan::Scan;

/// A line drawn through the hexes (a road, a railway).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThroughLine {
    /// Hexsides the user marked it crossing.
    pub crossed: Vec<(HexIndex, Side)>,
}

/// What the trace suggests for one hexside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// The line crossing it (index into the lines), `None` for none.
    pub feature: Option<usize>,
    /// In [0, 1]; under [`crate::classify::DOUBTFUL_BELOW`] for review.
    pub confidence: f32,
}

/// Connected ink spanning under this (hex radii) is a letter, a word or a symbol.
const MIN_LINE: f64 = 2.0;
/// A piece of line ending at water at both ends (a road between two bridges) is a line when
/// it spans this much (hex radii)...
const BRIDGED_LINE: f64 = 1.2;
/// ... and its ends at water lie this far apart.
const BRIDGED_APART: f64 = 1.0;
/// Half a bridge's length (hex radii): a line's ink stops this far beyond the water's shore.
const BRIDGE_HALF: f64 = 0.2;
/// The grid line's ink counts this many times its distance: a road or a railway drawn a
/// pixel wide is mixed with the paper, and its middle may lie nearer the grid line's ink than
/// its own.
const GRID_WEIGHT: f32 = 2.0;
/// Ink this close to a hexside (hex radii) is the grid line's, at least a cell.
const GRID_BAND: f32 = 0.06;
/// Inks this close (ΔE) are one ink.
const SAME_INK: f32 = 8.0;
/// A line's ink this close to water (hex radii) is the water's edge.
const SHORE: f64 = 0.12;
/// The pattern of a line is read within this (hex radii) of where it crosses a side.
const PATTERN_REACH: f64 = 0.35;

/// Ink within this (hex radii) of a side, on both sides of it, faces across it.
const NEAR: f32 = 0.4;
/// The bins of the side's middle (a crossing there joins the side's two hexes).
const MIDDLE: u16 = 0b01_1111_1110;
/// The bins of the side's core.
const CORE: u16 = 0b00_1111_1100;
/// Near the side along this many bins or more on one side, the line runs along it.
const ALONG: u32 = 8;
/// A crossing through the side's core.
const SURE: f32 = 0.7;
/// A crossing off the core, but inside the middle; or a line cut at the side.
const LESS_SURE: f32 = 0.35;
/// For review.
const REVIEW: f32 = 0.15;

/// Per hexside and line, what the ink does there.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    /// Bins where the line crosses the side.
    crossed: u16,
    /// How many touching cell pairs cross it.
    pairs: u32,
    /// Bins where its ink lies near the side, on the canonical hex's side and the other's.
    near: [u16; 2],
}

/// Follows the lines over the scan and suggests, for each of `hexsides`, the line crossing it
/// or none (see the module's documentation). `None` when no line's ink could be read.
pub fn trace_through(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    lines: &[ThroughLine],
    colours: &Colours,
    water: &[Lab],
    hexsides: &[(HexIndex, Side)],
) -> Option<Vec<Crossing>> {
    let count = lines.len();
    if count == 0 || count + water.len() > 250 {
        return None;
    }
    let inks: Vec<_> = lines
        .iter()
        .map(|line| feature_ink(scan, grid, mapping, colours, &line.crossed))
        .collect();
    // Lines of one ink (a road and a railway both printed black) are traced as one and told
    // apart by how they are drawn: `same[f]` is the first line of `f`'s ink.
    let same: Vec<usize> = (0..count)
        .map(|f| {
            (0..f)
                .find(|g| match (inks[*g], inks[f]) {
                    (Some(a), Some(b)) => delta_e(a, b) < SAME_INK,
                    _ => false,
                })
                .unwrap_or(f)
        })
        .collect();
    let inverse = mapping.inverse()?;
    let mut wanted: Vec<Option<Lab>> = (0..count)
        .map(|f| if same[f] == f { inks[f] } else { None })
        .collect();
    wanted.extend(water.iter().copied().map(Some));
    // Every line's ink and the grid line's, as one (nothing the grid's colour is dropped by
    // colour): what is drawn as a line but traced as none of the lines (a railway printed in
    // the grid's grey, its rail cut by its own ties) still crosses the sides, and a side it
    // crosses is not surely crossed by nothing. Both classifications in one reading of the
    // scan.
    let mut loose_inks: Vec<Option<Lab>> = (0..count)
        .filter(|f| same[*f] == *f)
        .map(|f| inks[f])
        .collect();
    loose_inks.extend(colours.grid_ink.map(Some));
    let loose_colours = Colours {
        hex: colours.hex,
        terrain: colours.terrain.clone(),
        grid_ink: None,
    };
    let mut both = ink_cells_many(
        scan,
        grid,
        mapping,
        &[
            (&wanted, colours, GRID_WEIGHT),
            (&loose_inks, &loose_colours, 1.0),
        ],
    )?;
    let loose_cells = both.pop().flatten().map(|c| c.cells);
    let Cells {
        cells,
        w,
        h,
        k,
        unit,
    } = both.pop().flatten()?;
    // A line's ink beside water is the water's edge (a river drawn with a dark edge), not a
    // road: crossing it, a road's ink is cut there, as by a bridge.
    let wet: Vec<bool> = cells.iter().map(|c| usize::from(*c) > count).collect();
    let from_water = chamfer(&wet, w, h);
    let shore = (3.0 * (SHORE * unit).max(1.0)).round() as u32;
    // Each line's ink, without blobs and without short pieces: 0 none, f + 1 line f.
    let mut line = vec![0u8; w * h];
    // The grid line is not a line through the hexes, whatever its colour: ink on it is
    // dropped (a line crossing it is cut there, and joined again below).
    let cell_at = |p: [f32; 2]| -> Option<usize> {
        let [x, y] = mapping.map([f64::from(p[0]), f64::from(p[1])]);
        let (x, y) = ((x / k as f64).floor(), (y / k as f64).floor());
        (x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h)
            .then(|| y as usize * w + x as usize)
    };
    let reach_across = band(unit) + (1.5 / unit) as f32;
    // Per cell on the grid line (`None` off it): the two cells just beyond the line's band
    // either side of it, straight across the side.
    let across: Vec<Option<(u32, u32)>> = (0..w * h)
        .into_par_iter()
        .map(|i| {
            let loose = loose_cells.as_ref().is_some_and(|l| l[i] != 0);
            if (cells[i] == 0 || usize::from(cells[i]) > count) && !loose {
                // Paper or water: no line's ink to drop or join here.
                return None;
            }
            let p = inverse.map([
                ((i % w) as f64 + 0.5) * k as f64,
                ((i / w) as f64 + 0.5) * k as f64,
            ]);
            let p = [p[0] as f32, p[1] as f32];
            let index = grid.hex_at(p)?;
            let c = grid.centre(index);
            let (inside, normal) = to_boundary(grid, [p[0] - c[0], p[1] - c[1]]);
            if inside > band(unit) {
                return None;
            }
            // The side lies `inside` beyond p along the normal; the band's far edges lie
            // `reach_across` from the side either way.
            let at = |t: f32| [p[0] + normal[0] * t, p[1] + normal[1] * t];
            let beyond = cell_at(at(inside + reach_across))?;
            let within = cell_at(at(inside - reach_across))?;
            Some((beyond as u32, within as u32))
        })
        .collect();
    // Where a line's ink stops at water: within the shore and a bridge's half length of it.
    let at_water_reach = (3.0 * ((SHORE + BRIDGE_HALF) * unit).max(1.0)).round() as u32;
    let at_water: Vec<bool> = from_water.iter().map(|d| *d <= at_water_reach).collect();
    // A line's cells, from the cells of its ink (`mask`): what is kept as a line.
    // Only cells of the traced inks on the band are bridged (`band_ink`).
    let trace_mask = |mask: &[bool], band_ink: &dyn Fn(usize) -> bool| -> Vec<bool> {
        let outside: Vec<bool> = mask.iter().map(|v| !v).collect();
        let depth = chamfer(&outside, w, h);
        let thick = (3.0 * (THICK * unit).max(1.5)).round() as u32;
        let thin = without_blobs(mask, &depth, w, h, thick);
        // Pieces a cell apart are one line: a line a pixel wide, mixed with the paper, is
        // ink only every other pixel in places.
        // And pieces either side of the grid line, cut by it, too; and pieces either side
        // of a blob on the line (a town's dot), measured with the blob.
        // The grid line's band is bridged where the line's ink lies just beyond it on both
        // sides, straight across.
        let near_ink = grown_by_one(mask, w, h);
        let bridged: Vec<bool> = (0..w * h)
            .map(|i| {
                mask[i]
                    || (band_ink(i)
                        && across[i]
                            .is_some_and(|(a, b)| near_ink[a as usize] && near_ink[b as usize]))
            })
            .collect();
        let grown = grown_by_one(&bridged, w, h);
        // A shorter piece whose both ends stop at water is a line between two bridges (the
        // water's edge cuts its ink at each): a word or a symbol does not reach water twice.
        let long = line_components(
            &grown,
            Some(&at_water),
            w,
            h,
            MIN_LINE * unit,
            BRIDGED_LINE * unit,
            BRIDGED_APART * unit,
        );
        (0..w * h)
            .map(|i| long[i] && (thin[i] || (!mask[i] && bridged[i])))
            .collect()
    };
    for f in (0..count).filter(|f| same[*f] == *f && inks[*f].is_some()) {
        let mask: Vec<bool> = (0..w * h)
            .map(|i| usize::from(cells[i]) == f + 1 && from_water[i] > shore && across[i].is_none())
            .collect();
        let band_ink = |i: usize| cells[i] != 0 && usize::from(cells[i]) <= count;
        for (l, keep) in line.iter_mut().zip(trace_mask(&mask, &band_ink)) {
            if keep {
                *l = (f + 1) as u8;
            }
        }
    }
    // The loose lines: traced as every line's ink and the grid's together, where no line is.
    let loose: Vec<bool> = loose_cells.map_or_else(Vec::new, |loose_cells| {
        let mask: Vec<bool> = (0..w * h)
            .map(|i| loose_cells[i] != 0 && from_water[i] > shore && across[i].is_none())
            .collect();
        trace_mask(&mask, &|i| loose_cells[i] != 0)
            .into_iter()
            .zip(&line)
            .map(|(keep, l)| keep && *l == 0)
            .collect()
    });

    let position: HashMap<(HexIndex, Side), usize> = hexsides
        .iter()
        .enumerate()
        .map(|(i, &(index, side))| (grid.canonical_hexside(index, side), i))
        .collect();
    let all_sides = sides(grid.orientation);
    let mut seen = vec![vec![Seen::default(); count]; hexsides.len()];
    let grid_point = |x: usize, y: usize| {
        let p = inverse.map([(x as f64 + 0.5) * k as f64, (y as f64 + 0.5) * k as f64]);
        [p[0] as f32, p[1] as f32]
    };
    // Where along the canonical side `(a, b)` of `index` a point lies, in [0, 1], and how far
    // from it (hex radii).
    let along = |index: HexIndex, side: Side, p: [f32; 2]| -> Option<(usize, f32, f32)> {
        let canonical = grid.canonical_hexside(index, side);
        let s = *position.get(&canonical)?;
        let [a, b] = grid.side_corners(canonical.0, canonical.1)?;
        let d = [b[0] - a[0], b[1] - a[1]];
        let len2 = (d[0] * d[0] + d[1] * d[1]).max(1e-9);
        let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
        let q = [a[0] + t * d[0], a[1] + t * d[1]];
        Some((s, t, (p[0] - q[0]).hypot(p[1] - q[1])))
    };
    let bin = |t: f32| 1u16 << ((t * BINS as f32) as u32).min(BINS - 1);
    // Per cell of a line's ink: its hex, `None` off the grid (beyond the map's edge).
    let hex_row = |y: usize| -> Vec<Option<Option<HexIndex>>> {
        (0..w)
            .map(|x| (line[y * w + x] > 0).then(|| grid.hex_at(grid_point(x, y))))
            .collect()
    };
    // Ink this near a side on the grid's edge reaches it (the band and a cell).
    let edge_reach = reach_across + (1.0 / unit) as f32;
    // The side of `a` on the grid's edge nearest to `p`, where its ink runs off the grid.
    let edge_side = |a: HexIndex, p: [f32; 2]| -> Option<(usize, f32)> {
        all_sides
            .into_iter()
            .filter(|side| grid.neighbour(a, *side).is_none())
            .filter_map(|side| along(a, side, p))
            .min_by(|x, y| x.2.total_cmp(&y.2))
            .map(|(s, t, _)| (s, t))
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
            let Some(cell) = here[x] else { continue };
            let f = usize::from(line[y * w + x]) - 1;
            let p = grid_point(x, y);
            // Ink near a side of its hex, on which side of it.
            if let Some(a) = cell {
                for side in all_sides {
                    if let Some((s, t, dist)) = along(a, side, p)
                        && dist <= NEAR
                    {
                        let canonical = grid.canonical_hexside(a, side);
                        let which = usize::from(canonical.0 != a);
                        seen[s][f].near[which] |= bin(t);
                        // At the grid's edge the grid line's band cuts the line's ink with
                        // nothing beyond to join: ink reaching the band there is the line
                        // leaving the map.
                        if dist <= edge_reach && grid.neighbour(a, side).is_none() {
                            seen[s][f].crossed |= bin(t);
                            seen[s][f].pairs += 1;
                        }
                    }
                }
            }
            // Touching ink in the next hex: the line crosses their side; touching ink off the
            // grid: the line leaves the map by the side of the grid's edge there.
            let touching = [
                (x + 1 < w).then(|| (here[x + 1], x + 1, y)),
                (x > 0 && y + 1 < h).then(|| (next[x - 1], x - 1, y + 1)),
                (y + 1 < h).then(|| (next[x], x, y + 1)),
                (x + 1 < w && y + 1 < h).then(|| (next[x + 1], x + 1, y + 1)),
            ];
            for (other, ox, oy) in touching.into_iter().flatten() {
                let Some(other) = other else { continue };
                let (s, t, f) = match (cell, other) {
                    (Some(a), Some(b)) if a != b => {
                        let Some(side) = all_sides
                            .into_iter()
                            .find(|s| grid.neighbour(a, *s) == Some(b))
                        else {
                            continue;
                        };
                        let Some((s, t, _)) = along(a, side, p) else {
                            continue;
                        };
                        (s, t, f)
                    }
                    (Some(a), None) => {
                        let Some((s, t)) = edge_side(a, p) else {
                            continue;
                        };
                        (s, t, f)
                    }
                    (None, Some(b)) => {
                        let Some((s, t)) = edge_side(b, grid_point(ox, oy)) else {
                            continue;
                        };
                        (s, t, usize::from(line[oy * w + ox]) - 1)
                    }
                    _ => continue,
                };
                seen[s][f].crossed |= bin(t);
                seen[s][f].pairs += 1;
            }
        }
    }
    let mut decided: Vec<Crossing> = seen.iter().map(|per_line| decide(per_line)).collect();
    // Lines of one ink, told apart by how they are drawn where they cross (one line or two,
    // ties across a railway): each crossing goes to the line whose marked crossings it is
    // drawn most like.
    let reach = PATTERN_REACH * unit;
    // The pattern of line `f`'s ink where it crosses hexside `s`: around the middle of the
    // bins it crosses in.
    let pattern_at = |s: usize, f: usize| -> Option<Pattern> {
        let bins = crossed(&seen[s][f]);
        let set: Vec<u32> = (0..BINS).filter(|b| bins & 1 << b != 0).collect();
        let middle = *set.get(set.len() / 2)?;
        let t = (middle as f32 + 0.5) / BINS as f32;
        let (index, side) = grid.canonical_hexside(hexsides[s].0, hexsides[s].1);
        let [a, b] = grid.side_corners(index, side)?;
        let p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        let [x, y] = mapping.map([f64::from(p[0]), f64::from(p[1])]);
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (x, y) = (x as usize / k, y as usize / k);
        let mine = |i: usize| usize::from(line[i]) == f + 1;
        (x < w && y < h).then(|| pattern(&mine, w, h, x, y, reach, unit))?
    };
    // Each marked crossing's own pattern (in its line's ink): a road marked where it is drawn
    // with one line and where with two is known by both.
    let learnt: Vec<(usize, Pattern)> = (0..count)
        .flat_map(|f| {
            let (position, pattern_at, same) = (&position, &pattern_at, &same);
            lines[f].crossed.iter().filter_map(move |h| {
                let s = position.get(&grid.canonical_hexside(h.0, h.1))?;
                Some((f, pattern_at(*s, same[f])?))
            })
        })
        .collect();
    let members: Vec<usize> = (0..count).collect();
    let mut novel: Vec<(usize, usize)> = Vec::new();
    for g in (0..count).filter(|g| same[*g] == *g) {
        // Each marked crossing's own pattern: a road marked where it is drawn with one line
        // and where with two is known by both.
        for (s, d) in decided.iter_mut().enumerate() {
            if d.feature != Some(g) {
                continue;
            }
            let Some(here) = pattern_at(s, g) else {
                d.confidence = d.confidence.min(REVIEW);
                continue;
            };
            // The nearest marked crossing of each line.
            let mut by: Vec<(f32, usize)> = members
                .iter()
                .filter_map(|&f| {
                    learnt
                        .iter()
                        .filter(|(l, _)| *l == f)
                        .map(|(_, p)| distance(&here, p))
                        .min_by(f32::total_cmp)
                        .map(|d| (d, f))
                })
                .collect();
            by.sort_by(|a, b| a.0.total_cmp(&b.0));
            let Some(&(d1, best)) = by.first() else {
                continue;
            };
            // Drawn like no marked crossing (a place name's letters across the side, a
            // town's streets): what it is, is for the user to say.
            if d1 > NOVEL {
                d.feature = None;
                d.confidence = REVIEW;
                novel.push((s, g));
                continue;
            }
            d.feature = Some(best);
            let d2 = by.get(1).map_or(f32::INFINITY, |b| b.0);
            // Near the middle between two patterns: which line is not sure.
            if d2 - d1 < TYPE_MARGIN * (d1 + d2) {
                d.confidence = d.confidence.min(REVIEW);
            }
        }
    }
    // The line as a whole: a crossing drawn like no marked crossing (a junction, a label or
    // a town beside it changes how the line looks there) takes the type of the next crossing
    // along the same connected line whose type is sure; it stays for review.
    let place = |s: usize, g: usize| -> Option<(usize, [f32; 2])> {
        let bins = crossed(&seen[s][g]);
        let set: Vec<u32> = (0..BINS).filter(|b| bins & 1 << b != 0).collect();
        let middle = *set.get(set.len() / 2)?;
        let t = (middle as f32 + 0.5) / BINS as f32;
        let (index, side) = grid.canonical_hexside(hexsides[s].0, hexsides[s].1);
        let [a, b] = grid.side_corners(index, side)?;
        let p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        let [x, y] = mapping.map([f64::from(p[0]), f64::from(p[1])]);
        let (x, y) = ((x / k as f64).floor(), (y / k as f64).floor());
        (x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h)
            .then(|| (y as usize * w + x as usize, p))
    };
    let typed: Vec<Placed> = decided
        .iter()
        .enumerate()
        .filter(|(_, d)| d.confidence > REVIEW)
        .filter_map(|(s, d)| {
            let f = d.feature?;
            let (cell, at) = place(s, same[f])?;
            Some(Placed {
                cell,
                at,
                line: f,
                ink: same[f],
            })
        })
        .collect();
    let unsure: Vec<(usize, Placed)> = novel
        .iter()
        .filter_map(|&(s, g)| {
            let (cell, at) = place(s, g)?;
            Some((
                s,
                Placed {
                    cell,
                    at,
                    line: g,
                    ink: g,
                },
            ))
        })
        .collect();
    let placed: Vec<Placed> = unsure.iter().map(|(_, p)| *p).collect();
    let lines = along_the_line(&line, w, h, &typed, &placed, NEXT_CROSSING);
    for ((s, _), f) in unsure.iter().zip(lines) {
        if let Some(f) = f {
            decided[*s].feature = Some(f);
            decided[*s].confidence = REVIEW;
        }
    }
    alone_for_review(grid, hexsides, &mut decided, &same);
    // A side a loose line crosses in its core, surely crossed by nothing: for review.
    if !loose.is_empty() {
        let line_near: Vec<[u16; 2]> = seen
            .iter()
            .map(|per_line| {
                per_line
                    .iter()
                    .fold([0, 0], |a, s| [a[0] | s.near[0], a[1] | s.near[1]])
            })
            .collect();
        loose_for_review(
            grid,
            &loose,
            &line_near,
            w,
            &mut decided,
            &grid_point,
            &along,
        );
    }
    Some(decided)
}

/// The next crossing along a line lies this far (hex radii) at most: one hex on (neighbouring
/// sides' middles are 1.5-1.7 apart).
const NEXT_CROSSING: f32 = 2.0;

/// How far the grid line's band reaches from a side (hex radii; at least a cell of `unit`).
fn band(unit: f64) -> f32 {
    GRID_BAND.max((1.0 / unit) as f32)
}

/// How far (hex radii) a point `v` from its hex's centre lies inside the hex, and the
/// outward normal of the side it is nearest.
fn to_boundary(grid: &Grid, v: [f32; 2]) -> (f32, [f32; 2]) {
    // The sides' outward normals: flat-topped hexes have a side facing north.
    const H: f32 = 0.866_025_4;
    const FLAT: [[f32; 2]; 6] = [
        [H, 0.5],
        [0.0, 1.0],
        [-H, 0.5],
        [-H, -0.5],
        [0.0, -1.0],
        [H, -0.5],
    ];
    const POINTY: [[f32; 2]; 6] = [
        [1.0, 0.0],
        [0.5, H],
        [-0.5, H],
        [-1.0, 0.0],
        [-0.5, -H],
        [0.5, -H],
    ];
    let normals = match grid.orientation {
        Orientation::Flat => &FLAT,
        Orientation::Pointy => &POINTY,
    };
    let (reach, normal) = normals
        .iter()
        .map(|n| (v[0] * n[0] + v[1] * n[1], *n))
        .fold((f32::NEG_INFINITY, [0.0, 0.0]), |best, x| {
            if x.0 > best.0 { x } else { best }
        });
    (H - reach, normal)
}

mod decide;
use decide::{alone_for_review, crossed, decide, loose_for_review};

#[cfg(test)]
#[path = "../through_tests.rs"]
mod tests;
