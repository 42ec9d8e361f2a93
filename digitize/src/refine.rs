//! The print calibrates the grid: a fit from a few clicks is refined against the grid lines
//! printed on the sheet. Each hexside's printed line is looked for across the side where the
//! current fit puts it (a colour ridge: the line differs from the paper on both sides of it),
//! at sub-pixel precision, over the whole sheet; the fit (affine, or projective for a
//! photographed sheet) is then the one that puts every side on its printed line, by robust
//! least squares (lines hidden by a river, a label or a symbol are outvoted). Where the paper
//! is not flat (a scan's bow, a lens) a smooth correction field — bilinear over a coarse lattice
//! of the grid, kept only when it predicts held-out lines better — takes up what is left.
//!
//! The clicks only start it: the search grows from the clicked hexes outwards (so a start that
//! is good only near the clicks still finds the right line everywhere), and the result does not
//! depend on which pixel of a hex centre the user clicked. A click is then judged against the
//! print, not against the other clicks. A sheet with no printed lines (a dots-only grid, a photo
//! too blurred to show them) is told apart: [`refine`] returns [`RefineError::NoPrintedLines`]
//! and the clicks' fit stands.
//!
//! Here the model, the options and the steps of a refinement; finding each side's printed line
//! is [`probe`], fitting the model to the lines found (the global fit and the local
//! correction) is [`solve`].

use bataille_schema::geometry::sides;
use bataille_schema::map::FitKind;
use bataille_schema::{Grid, HexIndex};

use crate::calibrate::{Matrix, apply, invert, least_squares, local_scale, multiply};
use crate::colour::{Lab, delta_e, median_lab, srgb_to_lab};
pub use crate::mapping::{GridMapping, Warp};
use crate::scan::Scan;

mod centres;
mod edges;
mod probe;
mod solve;
use probe::*;
use solve::*;

/// Half the profile read across a side on the first rounds, in hex radii (the line is looked
/// for within it but the paper `gap` from its ends): a neighbouring parallel line is over 1.5
/// radii away in the middle of the side.
const FIRST_WINDOW: f64 = 0.42;
/// On the final rounds a side's line is also looked for this many times as far as the last
/// fit moved the grid there (when that moved it by [`MOVED_MIN`] px or more): the grid may
/// still be off by about what it just moved.
const MOVED_REACH: f64 = 2.0;
const MOVED_MIN: f64 = 0.5;
/// Half the stretch of the side sampled along it (hex radii; a side is 1 long): its middle,
/// clear of the corners where other lines meet.
const HALF_ALONG: f64 = 0.25;
/// A line is found when its ridge is at least this share of the map's typical ridge.
const WEAK: f32 = 0.35;
/// …and at least this ΔE from the paper on both sides.
const MIN_RIDGE: f32 = 4.0;
/// The share of the sides probed that must show a line for the sheet to count as printed.
const PRINTED_SHARE: f64 = 0.3;
/// The most sides measured in a round while the search grows from the clicks (they fix an
/// affine start for the rounds over the whole sheet: 1,000 spread over the reach do it as
/// well as 3,000 on every real and synthetic map measured, for a quarter less of the time).
const GROWING_SIDES: usize = 1000;
/// The most rounds over the whole sheet, and the largest move (px) of the grid between two of
/// them under which it has settled.
const MAX_FINALS: usize = 6;
const SETTLED: f64 = 0.05;
/// Tukey's biweight constant, in robust standard deviations.
const TUKEY: f64 = 4.685;

/// How far from the fit a side's line is looked for on the final rounds (px): `near` (from
/// the lines' scatter), but at least [`MOVED_REACH`] times as far as the last fit moved the
/// grid at that side when it moved by [`MOVED_MIN`] px or more, and never wider than the
/// first rounds' `wide`. (A search of a fraction of a pixel only reads the flank of a line
/// where the fit already puts it, so smaller moves do not widen it.)
fn final_search(wide: f64, near: f64, moved_here: f64) -> f64 {
    if moved_here < MOVED_MIN {
        return near;
    }
    near.max((MOVED_REACH * moved_here).min(wide))
}

/// Why the print could not refine the fit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RefineError {
    #[error(
        "no printed grid lines found ({found} of {probed} hexsides show one): the clicks' fit is kept"
    )]
    NoPrintedLines { found: usize, probed: usize },
    #[error("the grid could not be fitted to the printed lines")]
    Degenerate,
}

/// A fit refined on the print: a global matrix and, where the paper is not flat, a smooth
/// correction.
#[derive(Debug, Clone, PartialEq)]
pub struct Refinement {
    /// The kind of the global fit (affine at least: the print fixes it from two clicks).
    pub kind: FitKind,
    /// The global fit over the printed lines (`mapping.matrix`) and the local correction,
    /// when the paper is not flat enough for the global fit alone (`mapping.warp`).
    pub mapping: GridMapping,
    /// Hexsides whose printed line was found and agrees with the fit, and hexsides probed.
    pub lines_found: usize,
    pub sides_probed: usize,
    /// The RMS distance (px) of the found lines from where the refined grid puts them.
    pub rms_px: f64,
    /// The same for the global fit alone.
    pub global_rms_px: f64,
    /// Per hex (row-major, as `Grid::indices`): how many of its sides show a printed line
    /// near where the refined grid puts it, and how many were probed (on the scan).
    pub printed_sides: Vec<PrintedSides>,
}

/// How many of a hex's sides show a printed line near where the refined grid puts them, of
/// those probed on the scan; and the same for its *outward* sides (those with no neighbour on
/// the grid: the grid's edge).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PrintedSides {
    pub found: u8,
    pub probed: u8,
    pub outward_found: u8,
    pub outward_probed: u8,
    /// Sides where the print ends by its colours with this hex on the print: the colour
    /// across the side is the one beyond the print, this hex's is not (when the print itself
    /// is not of that colour).
    pub edge_inside: u8,
    /// Sides between this hex and a neighbour where the print ends the other way: this hex's
    /// side is the colour beyond the print, the neighbour's is not.
    pub edge_outside: u8,
}

impl PrintedSides {
    /// Every side probed and printed (a hex inside a printed sheet).
    pub const ALL: Self = Self {
        found: 6,
        probed: 6,
        outward_found: 0,
        outward_probed: 0,
        edge_inside: 0,
        edge_outside: 0,
    };
}

impl Refinement {
    /// Where the refined grid puts a grid point, in image pixels.
    pub fn map(&self, p: [f64; 2]) -> [f64; 2] {
        self.mapping.map(p)
    }

    /// Where the refined grid puts a hex's centre.
    pub fn centre(&self, grid: &Grid, index: HexIndex) -> [f64; 2] {
        let [x, y] = grid.centre(index);
        self.map([f64::from(x), f64::from(y)])
    }
}

/// How a click compares with the print.
#[derive(Debug, Clone, PartialEq)]
pub struct ClickCheck {
    pub hex: String,
    /// Its distance in pixels from where the print puts its hex's centre.
    pub distance_px: f64,
    /// Whether it disagrees with the print (over [`suspect_px`]).
    pub suspect: bool,
}

impl ClickCheck {
    /// "0120 is 9.8 px from the centre the printed grid lines give it: re-click it or drop it".
    pub fn message(&self) -> String {
        format!(
            "{} is {:.1} px from the centre the printed grid lines give it: re-click it or drop it",
            self.hex, self.distance_px
        )
    }
}

/// The distance from the printed centre over which a click is suspect: 4 px, or an eighth of
/// the hex radius on large scans (a click is good to a pixel or two).
pub fn suspect_px(px_per_radius: f64) -> f64 {
    (0.125 * px_per_radius).max(4.0)
}

/// Compares clicks `(hex name, grid point, pixel)` with the refined grid.
pub fn check_clicks(
    refinement: &Refinement,
    clicks: &[(String, [f64; 2], [f64; 2])],
) -> Vec<ClickCheck> {
    clicks
        .iter()
        .map(|(hex, g, px)| {
            let p = refinement.map(*g);
            let distance_px = (p[0] - px[0]).hypot(p[1] - px[1]);
            let scale = local_scale(&refinement.mapping.matrix, *g);
            ClickCheck {
                hex: hex.clone(),
                distance_px,
                suspect: distance_px > suspect_px(scale),
            }
        })
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    values.select_nth_unstable_by(mid, f64::total_cmp);
    values[mid]
}

/// Options of [`refine`].
#[derive(Debug, Clone, PartialEq)]
pub struct RefineOptions {
    /// Allow the smooth local correction (a scan's bow, a lens).
    pub local: bool,
}

impl Default for RefineOptions {
    fn default() -> Self {
        Self { local: true }
    }
}

/// Refines a fit against the printed grid lines. `start` is the clicks' fit (two clicks are
/// enough), `clicked` the grid points of the clicked hexes (the search grows from them),
/// `kind` the fit wanted (affine at least is used: the print fixes it).
pub fn refine(
    scan: &Scan,
    grid: &Grid,
    start: &Matrix,
    clicked: &[[f64; 2]],
    kind: FitKind,
    options: &RefineOptions,
) -> Result<Refinement, RefineError> {
    let kind = match kind {
        FitKind::Similarity => FitKind::Affine,
        other => other,
    };
    let geometry = side_geometry(grid);
    let (bmin, bmax) = grid.bounds();
    let bounds = (
        [f64::from(bmin[0]), f64::from(bmin[1])],
        [f64::from(bmax[0]), f64::from(bmax[1])],
    );
    let diagonal = (bounds.1[0] - bounds.0[0]).hypot(bounds.1[1] - bounds.0[1]);
    let seeds: Vec<[f64; 2]> = if clicked.is_empty() {
        vec![[
            (bounds.0[0] + bounds.1[0]) / 2.0,
            (bounds.0[1] + bounds.1[1]) / 2.0,
        ]]
    } else {
        clicked.to_vec()
    };
    let reach: Vec<f64> = geometry
        .iter()
        .map(|g| {
            seeds
                .iter()
                .map(|s| (g.mid[0] - s[0]).hypot(g.mid[1] - s[1]))
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    let mut model = GridMapping::global(*start);
    // Grow from the clicks: each round doubles the reach, fitting affine until the whole map
    // is in, then two rounds over everything with the kind wanted and narrower windows.
    let mut radius = 6.0f64;
    let mut sigma = f64::INFINITY;
    let mut last: Option<(Vec<Observation>, Vec<f64>, usize)> = None;
    let mut finals = 0;
    // The final rounds go on (up to MAX_FINALS) until the grid moves by under SETTLED px
    // anywhere: on a bent sheet the correction found first depends on where the search had
    // grown, i.e. on the clicks, and a few more rounds over the whole sheet forget it.
    let probes: Vec<[f64; 2]> = (0..=4)
        .flat_map(|i| {
            (0..=4).map(move |j| {
                [
                    bounds.0[0] + (bounds.1[0] - bounds.0[0]) * f64::from(i) / 4.0,
                    bounds.0[1] + (bounds.1[1] - bounds.0[1]) * f64::from(j) / 4.0,
                ]
            })
        })
        .collect();
    let mut moved = f64::INFINITY;
    // The model before the last fit.
    let mut previous: Option<GridMapping> = None;
    while finals < 3 || finals < MAX_FINALS && moved > SETTLED {
        let whole = radius >= diagonal + 2.0;
        let mut chosen: Vec<usize> = (0..geometry.len())
            .filter(|&s| reach[s] <= radius)
            .collect();
        // While growing, a thousand sides spread over the reach fix an affine map as well
        // as all of them (a large sheet has tens of thousands).
        if !whole && chosen.len() > GROWING_SIDES {
            let step = chosen.len().div_ceil(GROWING_SIDES);
            chosen = chosen.into_iter().step_by(step).collect();
        }
        let narrow = finals > 0 && sigma.is_finite();
        // Where each side's line is looked for: on the first rounds all of a side's stretch
        // but the paper gap at its ends; then within 6σ + 2 px of the fit less the gap (what
        // the real prints measured best: searching wider takes in what lies beside the lines),
        // and at least twice as far as the last fit moved the grid at that side (when it moved
        // by half a pixel or more). A part of the sheet the earlier rounds left off (a corner
        // of a photographed sheet 2 px off after the first projective fit) is then found
        // again, while the grid settles everywhere else (Fontenoy's worst synthetic scan:
        // 1.72 -> 0.07 px).
        let search = |side: usize, length: f64| {
            let wide = FIRST_WINDOW * length - gap_px(length);
            if !narrow {
                return wide;
            }
            let near = (6.0 * sigma + 2.0).clamp(3.0, FIRST_WINDOW * length) - gap_px(length);
            let moved_here = previous.as_ref().map_or(0.0, |p: &GridMapping| {
                let mid = geometry[side].mid;
                let (a, b) = (model.map(mid), p.map(mid));
                (a[0] - b[0]).hypot(a[1] - b[1])
            });
            final_search(wide, near, moved_here)
        };
        let (obs, probed) = measure(scan, &geometry, &chosen, &model, search);
        let typical = median(obs.iter().map(|o| f64::from(o.ridge)).collect());
        let strong: Vec<Observation> = obs
            .into_iter()
            .filter(|o| f64::from(o.ridge) >= f64::from(WEAK) * typical && o.ridge >= MIN_RIDGE)
            .collect();
        if whole
            && finals == 0
            && (strong.len() < 12 || (strong.len() as f64) < PRINTED_SHARE * probed as f64)
        {
            return Err(RefineError::NoPrintedLines {
                found: strong.len(),
                probed,
            });
        }
        let round_kind = if whole { kind } else { FitKind::Affine };
        if strong.len() >= 12 {
            if let Some((next, weights, s)) =
                fit_model(round_kind, &strong, &model, whole && options.local, bounds)
            {
                moved = probes
                    .iter()
                    .map(|p| {
                        let (a, b) = (model.map(*p), next.map(*p));
                        (a[0] - b[0]).hypot(a[1] - b[1])
                    })
                    .fold(0.0, f64::max);
                previous = Some(std::mem::replace(&mut model, next));
                sigma = s;
                last = Some((strong, weights, probed));
            } else if whole {
                return Err(RefineError::Degenerate);
            }
        }
        if whole {
            finals += 1;
        }
        radius *= 2.0;
    }
    let Some((obs, weights, probed)) = last else {
        return Err(RefineError::Degenerate);
    };
    let global = line_residuals(&obs, &model.matrix, None);
    let residuals = line_residuals(&obs, &model.matrix, model.warp.as_ref());
    let inlier: Vec<f64> = weights
        .iter()
        .map(|w| if *w > 0.0 { 1.0 } else { 0.0 })
        .collect();
    let found_limit = (3.0 * sigma).max(1.5);
    let mut printed = vec![PrintedSides::default(); grid.hex_count()];
    // A side agrees with the fit when its line is where the refined grid puts it; it shows
    // a printed line (for the map's shape) when a clear one is within the last window at all
    // (a river drawn over the grid line a few pixels off still shows the side is printed).
    let mut found_sides = vec![false; geometry.len()];
    let mut inked_sides = vec![false; geometry.len()];
    for (o, r) in obs.iter().zip(&residuals) {
        inked_sides[o.side] = true;
        if r.abs() <= found_limit {
            found_sides[o.side] = true;
        }
    }
    // Which sides were on the scan: the strip read across the side (with the last window)
    // wholly on it. An outward side shows the print's edge by a line, or by an edge: the
    // colours on its two sides differ, and the hex's is not the colour beyond the print (the
    // median of what lies beyond the outward sides whose two sides differ), as it is in a cell
    // beyond the print whose far side meets a track or a title band.
    let columns = grid.columns as usize;
    // Each side on the scan, its line found, the colours on its two sides (the first towards
    // its hex): the outward sides' first, the inner sides' only when there is a colour beyond
    // the print to tell its edge by.
    use rayon::prelude::*;
    let read = |s: usize, inner: bool| -> Option<OnScan> {
        let g = &geometry[s];
        let a = model.map([g.mid[0] - g.along[0] * 0.5, g.mid[1] - g.along[1] * 0.5]);
        let b = model.map([g.mid[0] + g.along[0] * 0.5, g.mid[1] + g.along[1] * 0.5]);
        let c = model.map(g.mid);
        let length = (b[0] - a[0]).hypot(b[1] - a[1]);
        if !(length.is_finite() && length > 2.0) {
            return None;
        }
        let tangent = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
        let reach = (6.0 * sigma + 2.0).clamp(3.0, FIRST_WINDOW * length) + gap_px(length) + 1.0;
        if !strip_on_scan(scan, c, tangent, HALF_ALONG * length, reach) {
            return None;
        }
        let colours = (inner || g.other.is_none())
            .then(|| {
                let index = HexIndex::new((g.hex % columns) as u32, (g.hex / columns) as u32);
                let [x, y] = grid.centre(index);
                let centre = model.map([f64::from(x), f64::from(y)]);
                side_colours(
                    scan,
                    c,
                    tangent,
                    HALF_ALONG * length,
                    gap_px(length),
                    centre,
                )
            })
            .flatten();
        Some((s, inked_sides[s], colours))
    };
    let mut on_scan: Vec<OnScan> = (0..geometry.len())
        .into_par_iter()
        .filter_map(|s| read(s, false))
        .collect();
    // An outward side with no line that shows an edge: its colours.
    let edge_colours = |(s, inked, colours): &OnScan| {
        colours.filter(|(inward, outward)| {
            geometry[*s].other.is_none() && !inked && delta_e(*inward, *outward) >= EDGE
        })
    };
    // The colour beyond the print: what lies beyond the outward sides whose two sides differ,
    // a line drawn on them or not (a print outlined in a line, with a margin up to its frame:
    // Napoleon at Waterloo's, whose notches the scan cuts show only the margin).
    let mut outside: Vec<Lab> = on_scan
        .iter()
        .filter_map(|(s, _, colours)| {
            colours.filter(|(inward, outward)| {
                geometry[*s].other.is_none() && delta_e(*inward, *outward) >= EDGE
            })
        })
        .map(|c| c.1)
        .collect();
    let beyond = median_lab(&mut outside);
    if beyond.is_some() {
        on_scan
            .par_iter_mut()
            .filter(|side| geometry[side.0].other.is_some())
            .for_each(|side| side.2 = read(side.0, true).and_then(|r| r.2));
    }
    edges::tally(&geometry, &on_scan, beyond, &mut printed);
    for side in &on_scan {
        let g = &geometry[side.0];
        let edge = edge_colours(side)
            .zip(beyond)
            .is_some_and(|((inward, _), beyond)| delta_e(inward, beyond) >= EDGE);
        let shown = side.1 || edge;
        for hex in std::iter::once(g.hex).chain(g.other) {
            let p = &mut printed[hex];
            p.probed = p.probed.saturating_add(1);
            p.found = p.found.saturating_add(u8::from(shown));
            if g.other.is_none() {
                p.outward_probed = p.outward_probed.saturating_add(1);
                p.outward_found = p.outward_found.saturating_add(u8::from(shown));
            }
        }
    }
    // Each hex's centre from its own sides, where they are read clearly.
    model.hex_shifts = centres::hex_shifts(scan, grid, &model);
    Ok(Refinement {
        kind,
        mapping: model,
        lines_found: found_sides.iter().filter(|f| **f).count(),
        sides_probed: probed,
        rms_px: weighted_rms(&residuals, &inlier),
        global_rms_px: weighted_rms(&global, &inlier),
        printed_sides: printed,
    })
}

/// A side read on the scan: its index, its line found, the colours on its two sides
/// `(towards its hex, across)`.
pub(crate) type OnScan = (usize, bool, Option<(Lab, Lab)>);

/// A calibration from clicks, refined on the print when it shows grid lines.
#[derive(Debug, Clone)]
pub struct Calibrated {
    /// The clicks' own fit (without a click the others outvote), as today.
    pub clicks_fit: crate::calibrate::Fit,
    /// The refinement on the print, or why there is none (then the clicks' fit stands).
    pub refinement: Result<Refinement, RefineError>,
    /// Each click against the print (empty without a refinement).
    pub clicks: Vec<ClickCheck>,
}

impl Calibrated {
    /// The global matrix (what the map file keeps): the print's when there is one, the
    /// clicks' otherwise. To read the scan, [`Calibrated::mapping`].
    pub fn grid_to_image(&self) -> Matrix {
        match &self.refinement {
            Ok(r) => r.mapping.matrix,
            Err(_) => self.clicks_fit.grid_to_image,
        }
    }

    /// The mapping to read the scan with: the print's with its local correction when there is
    /// one, the clicks' fit otherwise.
    pub fn mapping(&self) -> GridMapping {
        match &self.refinement {
            Ok(r) => r.mapping.clone(),
            Err(_) => GridMapping::global(self.clicks_fit.grid_to_image),
        }
    }

    /// The kind of the matrix used.
    pub fn kind(&self) -> FitKind {
        match &self.refinement {
            Ok(r) => r.kind,
            Err(_) => self.clicks_fit.kind,
        }
    }
}

/// Fits the clicks (`kind`, or the richest kind they allow: two clicks make a similarity), a
/// click the others outvote left out of that start ([`crate::calibrate::check`]), then refines
/// on the print and judges each click against it.
pub fn calibrate_on_print(
    scan: &Scan,
    grid: &Grid,
    points: &[bataille_schema::map::ControlPoint],
    kind: FitKind,
    options: &RefineOptions,
) -> Result<Calibrated, crate::calibrate::CalibrationError> {
    use crate::calibrate::{calibrate, calibrate_without, check};
    let start_kind = crate::calibrate::start_kind(kind, points.len());
    let checked = check(grid, points, start_kind)?;
    let clicks_fit = match &checked.suspect {
        Some(s) => calibrate_without(grid, points, start_kind, s.index)?,
        None => calibrate(grid, points, start_kind)?,
    };
    let clicked: Vec<(String, [f64; 2], [f64; 2])> = points
        .iter()
        .filter_map(|p| {
            let index = grid.parse(p.hex.as_str()).ok()?;
            let [x, y] = grid.centre(index);
            Some((
                p.hex.as_str().to_owned(),
                [f64::from(x), f64::from(y)],
                [p.x, p.y],
            ))
        })
        .collect();
    let seeds: Vec<[f64; 2]> = clicked.iter().map(|c| c.1).collect();
    let refinement = refine(scan, grid, &clicks_fit.grid_to_image, &seeds, kind, options);
    let clicks = match &refinement {
        Ok(r) => check_clicks(r, &clicked),
        Err(_) => Vec::new(),
    };
    Ok(Calibrated {
        clicks_fit,
        refinement,
        clicks,
    })
}

#[cfg(test)]
mod tests;
