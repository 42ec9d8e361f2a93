//! Suggestions from the scan's colours. Terrain: each hex's pixels within 0.6 of the hex radius
//! of its mapped centre, summarised by their dominant colour in CIELAB (the densest cluster, so
//! symbols, lines and names drawn over the hex do not pull it), given the code of the nearest
//! marked sample hex; confidence `1 − d₁/d₂` from the distances to the nearest and
//! second-nearest class, lowered when the hex is crowded by symbols or its colour is far from
//! every sample. Hexsides: see [`crate::hexsides`] (the printed line modelled over the grid
//! line and the two hexes' colours).

use std::collections::BTreeMap;

use bataille_schema::{Grid, HexIndex};
use rayon::prelude::*;

use crate::calibrate::{Matrix, apply, local_scale};
pub use crate::colour::dominant;
use crate::colour::{Lab, MODE_RADIUS, delta_e, srgb_to_lab};
use crate::scan::{Progress, Scan, no_progress};
pub(crate) use crate::suggestion::map_with_progress;
pub use crate::suggestion::{
    ClassifyError, ClassifyOptions, DOUBTFUL_BELOW, FeatureKind, HexSuggestion, HexsideSamples,
    HexsideSuggestion, TerrainSuggestions, interior_hexsides,
};

mod traced;
use traced::suggest_and_trace;

/// The dominant CIELAB colour of a hex's pixels within `sample_radius` of its mapped centre
/// (see [`dominant`]), or `None` when the disc is off the scan.
pub fn hex_colour(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Lab> {
    hex_statistic(scan, grid, grid_to_image, index, options).map(|(lab, _)| lab)
}

/// The CIELAB colours of a hex's pixels within `sample_radius` of its mapped centre (one per
/// pixel, or a lattice of at most `max_samples_per_hex`), `None` when the disc is mostly off
/// the scan.
fn disc_pixels(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Vec<Lab>> {
    let [cx, cy] = grid.centre(index);
    let centre = [f64::from(cx), f64::from(cy)];
    let radius = f64::from(options.sample_radius);
    let px_per_unit = local_scale(grid_to_image, centre);
    if !(px_per_unit.is_finite() && px_per_unit > 0.0) {
        return None;
    }
    // One sample per pixel, or a sparser lattice when that would exceed the cap.
    let disc_px = std::f64::consts::PI * (radius * px_per_unit).powi(2);
    let max = options.max_samples_per_hex.max(16) as f64;
    let step = if disc_px <= max {
        1.0 / px_per_unit
    } else {
        (std::f64::consts::PI * radius * radius / max).sqrt()
    };
    let n = (radius / step).floor() as i64;
    let mut values = Vec::with_capacity(((2 * n + 1) * (2 * n + 1)) as usize);
    let mut outside = 0usize;
    for j in -n..=n {
        for i in -n..=n {
            let (dx, dy) = (i as f64 * step, j as f64 * step);
            if dx * dx + dy * dy > radius * radius {
                continue;
            }
            let [x, y] = apply(grid_to_image, [centre[0] + dx, centre[1] + dy]);
            match scan.pixel_at(x, y) {
                Some(rgb) => values.push(srgb_to_lab(rgb)),
                None => outside += 1,
            }
        }
    }
    // A hex mostly off the scan gets no colour.
    if values.len() < outside || values.is_empty() {
        return None;
    }
    Some(values)
}

/// [`hex_colour`] and the share of the disc's pixels near it (low: a hex crowded by symbols).
pub fn hex_statistic(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<(Lab, f32)> {
    dominant(&mut disc_pixels(scan, grid, grid_to_image, index, options)?)
}

/// A hex's dominant colour, its share, and what is drawn over it: the mean over the disc of
/// each pixel's offset from the dominant colour, counting only pixels over twice
/// [`MODE_RADIUS`] from it (a town's blocks on the paper: their colour times their share).
type Features = (Lab, f32, Lab);

fn hex_features(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Features> {
    let mut pixels = disc_pixels(scan, grid, grid_to_image, index, options)?;
    let (lab, share) = dominant(&mut pixels)?;
    Some((lab, share, drawn_over(&pixels, lab)))
}

fn drawn_over(pixels: &[Lab], dominant: Lab) -> Lab {
    let mut sum = [0.0f32; 3];
    for p in pixels {
        if delta_e(*p, dominant) > 2.0 * MODE_RADIUS {
            for c in 0..3 {
                sum[c] += p[c] - dominant[c];
            }
        }
    }
    sum.map(|v| v / pixels.len().max(1) as f32)
}

/// Codes whose marked hexes share a colour (samples within [`MODE_RADIUS`] of each other: a
/// village's or a town's blocks on the paper, marked as their own code) cannot be told apart
/// by the colour; between them a hex is judged by what is drawn over it too.
fn twins(classes: &[(String, Vec<Lab>)]) -> Vec<Vec<usize>> {
    (0..classes.len())
        .map(|i| {
            (0..classes.len())
                .filter(|&j| {
                    j != i
                        && classes[i]
                            .1
                            .iter()
                            .any(|a| classes[j].1.iter().any(|b| delta_e(*a, *b) < MODE_RADIUS))
                })
                .collect()
        })
        .collect()
}

/// A hex whose dominant colour covers at least this share of its disc is not crowded.
const CLEAR_SUPPORT: f32 = 0.45;

/// Nearest class by the distance to its nearest sample; confidence `1 − d₁/d₂`, and `d₁`.
fn nearest<K: Clone>(feature: Lab, classes: &[(K, Vec<Lab>)]) -> Option<(&K, f32, f32)> {
    let mut best: Option<(usize, f32)> = None;
    let mut second = f32::INFINITY;
    for (i, (_, samples)) in classes.iter().enumerate() {
        let d = samples
            .iter()
            .map(|s| delta_e(feature, *s))
            .fold(f32::INFINITY, f32::min);
        match best {
            Some((_, bd)) if d >= bd => second = second.min(d),
            _ => {
                if let Some((_, bd)) = best {
                    second = second.min(bd);
                }
                best = Some((i, d));
            }
        }
    }
    let (i, d1) = best?;
    let confidence = if second.is_infinite() {
        1.0
    } else if second <= 0.0 {
        0.0
    } else {
        (1.0 - d1 / second).clamp(0.0, 1.0)
    };
    Some((&classes[i].0, confidence, d1))
}

/// Suggests a terrain code for every hex from marked samples (code → sample hexes).
pub fn suggest_terrain(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    samples: &BTreeMap<String, Vec<HexIndex>>,
    options: &ClassifyOptions,
) -> Result<TerrainSuggestions, ClassifyError> {
    suggest_terrain_with_progress(scan, grid, grid_to_image, samples, options, &no_progress)
}

/// [`suggest_terrain`] reporting the share of hexes done (for a progress bar); the callback
/// returns `false` to cancel ([`ClassifyError::Cancelled`]).
pub fn suggest_terrain_with_progress(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    samples: &BTreeMap<String, Vec<HexIndex>>,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<TerrainSuggestions, ClassifyError> {
    let indices: Vec<HexIndex> = grid.indices().collect();
    let statistics: Vec<Option<Features>> = map_with_progress(&indices, progress, |index| {
        hex_features(scan, grid, grid_to_image, *index, options)
    })
    .ok_or(ClassifyError::Cancelled)?;
    let colours: Vec<Option<Lab>> = statistics.iter().map(|s| s.map(|(lab, ..)| lab)).collect();
    let over_of = |index: HexIndex| -> Option<Lab> {
        statistics
            .get(index.row as usize * grid.columns as usize + index.col as usize)
            .copied()
            .flatten()
            .map(|(.., over)| over)
    };
    let colour_of = |index: HexIndex| -> Option<Lab> {
        colours
            .get(index.row as usize * grid.columns as usize + index.col as usize)
            .copied()
            .flatten()
    };
    let mut marked: BTreeMap<HexIndex, &str> = BTreeMap::new();
    let mut classes: Vec<(String, Vec<Lab>)> = Vec::new();
    let mut overs: Vec<Vec<Lab>> = Vec::new();
    for (code, hexes) in samples {
        let (mut features, mut over) = (Vec::new(), Vec::new());
        for index in hexes {
            if !grid.contains(*index) {
                continue;
            }
            marked.insert(*index, code);
            if let (Some(colour), Some(o)) = (colour_of(*index), over_of(*index)) {
                features.push(colour);
                over.push(o);
            }
        }
        if !features.is_empty() {
            classes.push((code.clone(), features));
            overs.push(over);
        }
    }
    if classes.is_empty() {
        return Err(ClassifyError::NoSamples);
    }
    let twins = twins(&classes);
    let hexes = indices
        .iter()
        .zip(&colours)
        .zip(&statistics)
        .map(|((index, colour), statistic)| {
            if let Some(code) = marked.get(index) {
                return HexSuggestion {
                    index: *index,
                    code: Some((*code).to_owned()),
                    confidence: 1.0,
                    colour: *colour,
                    marked: true,
                };
            }
            let mut suggestion = judge(*index, statistic.map(|(l, s, _)| (l, s)), &classes);
            if let Some(features) = statistic {
                between_twins(&mut suggestion, *features, &classes, &overs, &twins);
            }
            suggestion
        })
        .collect();
    Ok(TerrainSuggestions { hexes })
}

/// The suggestion for an unmarked hex from its statistic (dominant colour, share of the disc
/// near it) and the classes' sample colours.
fn judge(
    index: HexIndex,
    statistic: Option<(Lab, f32)>,
    classes: &[(String, Vec<Lab>)],
) -> HexSuggestion {
    let colour = statistic.map(|(lab, _)| lab);
    let found = colour.and_then(|c| nearest(c, classes));
    // A hex crowded by symbols (its own colour covers little of the disc) or whose colour is
    // far from every sample is less sure than the two nearest codes say.
    let support = statistic.map_or(0.0, |(_, s)| s);
    let crowding = (support / CLEAR_SUPPORT).clamp(0.0, 1.0);
    let strangeness = found
        .map(|(_, _, d)| (1.5 - d / (2.0 * MODE_RADIUS)).clamp(0.0, 1.0))
        .unwrap_or(0.0);
    HexSuggestion {
        index,
        code: found.map(|(code, _, _)| code.clone()),
        confidence: found.map_or(0.0, |(_, c, _)| c * crowding * strangeness),
        colour,
        marked: false,
    }
}

/// When the code found has twins (see [`twins`]), the choice among them by the colour and
/// what is drawn over it together (the distance to a sample is the sum of the two ΔE). The
/// confidence is the lower of that choice's `1 − D₁/D₂` and the colour's own against the
/// other codes, lowered as [`judge`] lowers it for a crowded or strange hex.
fn between_twins(
    s: &mut HexSuggestion,
    (colour, share, over): Features,
    classes: &[(String, Vec<Lab>)],
    overs: &[Vec<Lab>],
    twins: &[Vec<usize>],
) {
    let Some(winner) = classes.iter().position(|(c, _)| Some(c) == s.code.as_ref()) else {
        return;
    };
    if twins[winner].is_empty() {
        return;
    }
    let group: Vec<usize> = std::iter::once(winner)
        .chain(twins[winner].iter().copied())
        .collect();
    let by_colour = |k: usize| {
        classes[k]
            .1
            .iter()
            .map(|c| delta_e(colour, *c))
            .fold(f32::INFINITY, f32::min)
    };
    let d1c = group
        .iter()
        .map(|&k| by_colour(k))
        .fold(f32::INFINITY, f32::min);
    let d2c = (0..classes.len())
        .filter(|k| !group.contains(k))
        .map(by_colour)
        .fold(f32::INFINITY, f32::min);
    let colour_confidence = if d2c.is_finite() && d2c > 0.0 {
        (1.0 - d1c / d2c).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let mut scored: Vec<(usize, f32)> = group
        .iter()
        .map(|&k| {
            let d = classes[k]
                .1
                .iter()
                .zip(&overs[k])
                .map(|(c, o)| delta_e(colour, *c) + delta_e(over, *o))
                .fold(f32::INFINITY, f32::min);
            (k, d)
        })
        .collect();
    scored.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (best, d1) = scored[0];
    let d2 = scored.get(1).map_or(f32::INFINITY, |x| x.1);
    let among = if d2 > 0.0 {
        (1.0 - d1 / d2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let crowding = (share / CLEAR_SUPPORT).clamp(0.0, 1.0);
    let strangeness = (1.5 - d1c / (2.0 * MODE_RADIUS)).clamp(0.0, 1.0);
    s.code = Some(classes[best].0.clone());
    s.confidence = among.min(colour_confidence) * crowding * strangeness;
}

/// How close (ΔE) a pixel must be to a line's ink to be masked.
const INK_RADIUS: f32 = 12.0;
/// The least share of a disc left after masking for the rest to be judged alone.
const LEFT_AT_LEAST: f32 = 0.3;

/// Terrain again for the hexes in doubt (crowded by lines and symbols, or coloured by them far
/// from every sample), from what is left once the pixels of the printed lines' inks are masked:
/// the inks learnt by [`suggest_hexsides_with_inks`] (the grid line's and each feature's),
/// those far (over 2 × 12 ΔE) from every terrain sample only, so a stream's ink does not mask a
/// river hex. The dominant colour and its share are then taken over the pixels left, so a hex
/// covered by a fortification ring, a road and a line is judged from its own colour and not
/// flagged for the ink over it; a hex still crowded stays doubtful. Marked and confident
/// hexes, and hexes with under 30 % of the disc left, are kept as they were.
pub fn mask_line_inks(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    terrain: &TerrainSuggestions,
    inks: &[Lab],
    options: &ClassifyOptions,
) -> TerrainSuggestions {
    let mut classes: Vec<(String, Vec<Lab>)> = Vec::new();
    for s in terrain.hexes.iter().filter(|s| s.marked) {
        let (Some(code), Some(colour)) = (&s.code, s.colour) else {
            continue;
        };
        match classes.iter_mut().find(|(c, _)| c == code) {
            Some((_, list)) => list.push(colour),
            None => classes.push((code.clone(), vec![colour])),
        }
    }
    let inks: Vec<Lab> = inks
        .iter()
        .copied()
        .filter(|k| {
            classes
                .iter()
                .flat_map(|(_, l)| l)
                .all(|c| delta_e(*k, *c) > 2.0 * INK_RADIUS)
        })
        .collect();
    if classes.is_empty() || inks.is_empty() {
        return terrain.clone();
    }
    // Twins were told apart by what is drawn over the colour, which masking would take away.
    let twins = twins(&classes);
    let has_twins = |code: &Option<String>| {
        classes
            .iter()
            .position(|(c, _)| Some(c) == code.as_ref())
            .is_some_and(|k| !twins[k].is_empty())
    };
    let hexes = terrain
        .hexes
        .par_iter()
        .map(|s| {
            if s.marked || s.confidence >= DOUBTFUL_BELOW || has_twins(&s.code) {
                return s.clone();
            }
            let Some(mut pixels) = disc_pixels(scan, grid, grid_to_image, s.index, options) else {
                return s.clone();
            };
            let all = pixels.len();
            pixels.retain(|p| inks.iter().all(|k| delta_e(*p, *k) > INK_RADIUS));
            if (pixels.len() as f32) < LEFT_AT_LEAST * all as f32 {
                return s.clone();
            }
            let Some((lab, support)) = dominant(&mut pixels) else {
                return s.clone();
            };
            judge(s.index, Some((lab, support)), &classes)
        })
        .collect();
    TerrainSuggestions { hexes }
}

/// Suggests a feature (or none) for every interior hexside, from marked samples (two or three
/// per feature), each with a confidence (under [`DOUBTFUL_BELOW`]: for review). `terrain`
/// gives the water hexes (with `samples.water_terrain`). The plain grid line is learnt from the
/// scan itself; marked plain hexsides are kept as marked.
pub fn suggest_hexsides(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
) -> Result<Vec<HexsideSuggestion>, ClassifyError> {
    suggest_hexsides_with_progress(
        scan,
        grid,
        grid_to_image,
        terrain,
        samples,
        options,
        &no_progress,
    )
}

/// [`suggest_hexsides`] reporting the share of hexsides done; the callback returns `false` to
/// cancel ([`ClassifyError::Cancelled`]).
pub fn suggest_hexsides_with_progress(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<Vec<HexsideSuggestion>, ClassifyError> {
    suggest_and_trace(
        scan,
        grid,
        grid_to_image,
        terrain,
        samples,
        options,
        progress,
    )
    .map(|(suggestions, _)| suggestions)
}

/// [`suggest_hexsides`] and the inks it learnt (the grid line's, then each feature's), for
/// [`mask_line_inks`].
pub fn suggest_hexsides_with_inks(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
) -> Result<(Vec<HexsideSuggestion>, Vec<Lab>), ClassifyError> {
    suggest_and_trace(
        scan,
        grid,
        grid_to_image,
        terrain,
        samples,
        options,
        &no_progress,
    )
}
