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

use crate::calibrate::{apply, local_scale};
pub use crate::colour::dominant;
use crate::colour::{Lab, MODE_RADIUS, delta_e, srgb_to_lab};
use crate::mapping::GridMapping;
use crate::scan::{Progress, Scan, no_progress};
pub(crate) use crate::suggestion::map_with_progress;
pub use crate::suggestion::{
    ClassifyError, ClassifyOptions, DOUBTFUL_BELOW, FeatureKind, HexSuggestion, HexsideSamples,
    HexsideSuggestion, TerrainSuggestions, edge_hexsides, interior_hexsides,
};

mod features;
mod traced;
mod twins;
pub use features::{CrossingSuggestion, Features, PathSamples, suggest_features};
use traced::suggest_and_trace;
use twins::{
    between_twins, drop_mixed, ground_under_symbols, symbol_colours, symbol_shares, twins,
};

/// The dominant CIELAB colour of a hex's pixels within `sample_radius` of its mapped centre
/// (see [`dominant`]), or `None` when the disc is off the scan.
pub fn hex_colour(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Lab> {
    hex_statistic(scan, grid, mapping, index, options).map(|(lab, _)| lab)
}

/// The CIELAB colours of a hex's pixels within `sample_radius` of its mapped centre (one per
/// pixel, or a lattice of at most `max_samples_per_hex`), `None` when the disc is mostly off
/// the scan.
fn disc_pixels(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Vec<Lab>> {
    let [cx, cy] = grid.centre(index);
    let centre = [f64::from(cx), f64::from(cy)];
    let radius = f64::from(options.sample_radius);
    // The local correction is a shift over one hex; the hex's own shift, when its printed
    // sides gave one.
    let matrix = &mapping.hex(grid, index);
    let px_per_unit = local_scale(matrix, centre);
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
            let [x, y] = apply(matrix, [centre[0] + dx, centre[1] + dy]);
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
    mapping: &GridMapping,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<(Lab, f32)> {
    dominant(&mut disc_pixels(scan, grid, mapping, index, options)?)
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
    mapping: &GridMapping,
    samples: &BTreeMap<String, Vec<HexIndex>>,
    options: &ClassifyOptions,
) -> Result<TerrainSuggestions, ClassifyError> {
    suggest_terrain_with_progress(scan, grid, mapping, samples, options, &no_progress)
}

/// [`suggest_terrain`] reporting the share of hexes done (for a progress bar); the callback
/// returns `false` to cancel ([`ClassifyError::Cancelled`]).
pub fn suggest_terrain_with_progress(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    samples: &BTreeMap<String, Vec<HexIndex>>,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<TerrainSuggestions, ClassifyError> {
    let pixels_of = |index: HexIndex| disc_pixels(scan, grid, mapping, index, options);
    // The marked hexes first (a few): the classes every other hex is judged by.
    let mut marked: BTreeMap<HexIndex, &str> = BTreeMap::new();
    for (code, hexes) in samples {
        for index in hexes.iter().filter(|i| grid.contains(**i)) {
            marked.insert(*index, code);
        }
    }
    let marked_hexes: Vec<HexIndex> = marked.keys().copied().collect();
    let marked_colours: BTreeMap<HexIndex, Option<Lab>> = marked_hexes
        .par_iter()
        .map(|i| {
            (
                *i,
                pixels_of(*i)
                    .and_then(|mut p| dominant(&mut p))
                    .map(|s| s.0),
            )
        })
        .collect();
    let colour_of = |i: HexIndex| marked_colours.get(&i).copied().flatten();
    let (classes, sample_hexes) = sample_classes(grid, samples, &colour_of, &pixels_of);
    if classes.is_empty() {
        return Err(ClassifyError::NoSamples);
    }
    let twins = twins(&classes);
    // The colours drawn over the twins' marked hexes (their symbols), and how much of each is
    // drawn over every marked hex (their pixels are not kept beyond that).
    let (symbols, sample_shares) = {
        let sample_pixels: Vec<Vec<(Vec<Lab>, Lab)>> = sample_hexes
            .iter()
            .zip(&classes)
            .enumerate()
            .map(|(k, (hexes, (_, colours)))| {
                if twins[k].is_empty() {
                    return Vec::new();
                }
                hexes
                    .iter()
                    .zip(colours)
                    .filter_map(|(h, c)| Some((pixels_of(*h)?, *c)))
                    .collect()
            })
            .collect();
        let mut symbols: Vec<Lab> = Vec::new();
        for s in sample_pixels.iter().flat_map(|p| symbol_colours(p)) {
            if symbols.iter().all(|o| delta_e(*o, s) > MODE_RADIUS) {
                symbols.push(s);
            }
        }
        let shares: Vec<Vec<Vec<f32>>> = sample_pixels
            .iter()
            .map(|list| {
                list.iter()
                    .map(|(p, c)| symbol_shares(p, *c, &symbols))
                    .collect()
            })
            .collect();
        (symbols, shares)
    };
    // Every hex, its disc read once: its colour, and between twins what is drawn over it.
    let indices: Vec<HexIndex> = grid.indices().collect();
    let hexes = map_with_progress(&indices, progress, |index| {
        if let Some(code) = marked.get(index) {
            return HexSuggestion {
                index: *index,
                code: Some((*code).to_owned()),
                confidence: 1.0,
                colour: colour_of(*index),
                marked: true,
            };
        }
        let mut pixels = pixels_of(*index);
        let statistic = pixels.as_deref_mut().and_then(dominant);
        let mut suggestion = judge(*index, statistic, &classes);
        let has_twins = classes
            .iter()
            .position(|(c, _)| Some(c) == suggestion.code.as_ref())
            .is_some_and(|k| !twins[k].is_empty() && !sample_shares[k].is_empty());
        if let (Some(statistic), Some(pixels), true) = (statistic, &pixels, has_twins) {
            let shares = symbol_shares(pixels, statistic.0, &symbols);
            between_twins(
                &mut suggestion,
                statistic,
                &shares,
                &classes,
                &sample_shares,
                &twins,
            );
        }
        suggestion
    })
    .ok_or(ClassifyError::Cancelled)?;
    Ok(TerrainSuggestions { hexes })
}

/// Per code, its samples' colours.
type Classes = Vec<(String, Vec<Lab>)>;

/// The classes hexes are judged by, and per class the hexes kept (in the same order): per code
/// (in code order) its marked hexes' colours (`colour_of`; a hex off the scan is left out), a
/// marked symbol whose blocks outweigh the paper taken at its ground's colour, a marked hex
/// mostly another code's colour left out (see [`ground_under_symbols`], [`drop_mixed`]; the
/// disc of a marked hex is `pixels_of`). The first pass and the one with the lines' inks masked
/// ([`mask_line_inks`]) judge by the same classes.
fn sample_classes(
    grid: &Grid,
    samples: &BTreeMap<String, Vec<HexIndex>>,
    colour_of: &dyn Fn(HexIndex) -> Option<Lab>,
    pixels_of: &dyn Fn(HexIndex) -> Option<Vec<Lab>>,
) -> (Classes, Vec<Vec<HexIndex>>) {
    let mut classes: Classes = Vec::new();
    let mut sample_hexes: Vec<Vec<HexIndex>> = Vec::new();
    for (code, hexes) in samples {
        let (mut colours, mut kept) = (Vec::new(), Vec::new());
        for index in hexes.iter().filter(|i| grid.contains(**i)) {
            if let Some(colour) = colour_of(*index) {
                colours.push(colour);
                kept.push(*index);
            }
        }
        if !colours.is_empty() {
            classes.push((code.clone(), colours));
            sample_hexes.push(kept);
        }
    }
    ground_under_symbols(&mut classes, &|k, j| pixels_of(sample_hexes[k][j]));
    drop_mixed(&mut classes, &mut sample_hexes);
    (classes, sample_hexes)
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
/// flagged for the ink over it; a hex still crowded stays doubtful. When the colour left
/// dominant is itself far (over 2 × 12 ΔE) from every sample's, it is no terrain's either (a
/// title's giant letters over the hex): it is masked too, and the rest judged. Marked and
/// confident hexes, and hexes with under 30 % of the disc left, are kept as they were.
pub fn mask_line_inks(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    inks: &[Lab],
    options: &ClassifyOptions,
) -> TerrainSuggestions {
    mask_line_inks_with_progress(scan, grid, mapping, terrain, inks, options, &no_progress)
        .unwrap_or_else(|_| terrain.clone())
}

/// [`mask_line_inks`] reporting the share of hexes done; the callback returns `false` to
/// cancel ([`ClassifyError::Cancelled`]).
pub fn mask_line_inks_with_progress(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    inks: &[Lab],
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<TerrainSuggestions, ClassifyError> {
    let pixels_of = |index: HexIndex| disc_pixels(scan, grid, mapping, index, options);
    let mut samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for s in terrain.hexes.iter().filter(|s| s.marked) {
        if let Some(code) = &s.code {
            samples.entry(code.clone()).or_default().push(s.index);
        }
    }
    let colour_of = |index: HexIndex| terrain.get(grid, index).and_then(|s| s.colour);
    let (classes, _) = sample_classes(grid, &samples, &colour_of, &pixels_of);
    if classes.is_empty() {
        return if progress(1.0) {
            Ok(terrain.clone())
        } else {
            Err(ClassifyError::Cancelled)
        };
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
    // Twins were told apart by what is drawn over the colour, which masking would take away.
    let twins = twins(&classes);
    let has_twins = |code: &Option<String>| {
        classes
            .iter()
            .position(|(c, _)| Some(c) == code.as_ref())
            .is_some_and(|k| !twins[k].is_empty())
    };
    let hexes = map_with_progress(&terrain.hexes, progress, |s| {
        if s.marked || s.confidence >= DOUBTFUL_BELOW || has_twins(&s.code) {
            return s.clone();
        }
        let Some(mut pixels) = pixels_of(s.index) else {
            return s.clone();
        };
        let all = pixels.len();
        pixels.retain(|p| inks.iter().all(|k| delta_e(*p, *k) > INK_RADIUS));
        if (pixels.len() as f32) < LEFT_AT_LEAST * all as f32 {
            return s.clone();
        }
        let Some((mut lab, mut support)) = dominant(&mut pixels) else {
            return s.clone();
        };
        // A colour far from every sample's is no terrain's: ink over the hex (a title's
        // giant letters), masked too when enough is left.
        let strange = |c: Lab| {
            classes
                .iter()
                .flat_map(|(_, l)| l)
                .all(|k| delta_e(c, *k) > 2.0 * INK_RADIUS)
        };
        if strange(lab) {
            pixels.retain(|p| delta_e(*p, lab) > INK_RADIUS);
            if (pixels.len() as f32) < LEFT_AT_LEAST * all as f32 {
                return s.clone();
            }
            let Some(rest) = dominant(&mut pixels) else {
                return s.clone();
            };
            (lab, support) = rest;
        }
        judge(s.index, Some((lab, support)), &classes)
    })
    .ok_or(ClassifyError::Cancelled)?;
    Ok(TerrainSuggestions { hexes })
}

/// Suggests a feature (or none) for every interior hexside, from marked samples (two or three
/// per feature), each with a confidence (under [`DOUBTFUL_BELOW`]: for review). `terrain`
/// gives the water hexes (with `samples.water_terrain`). The plain grid line is learnt from the
/// scan itself; marked plain hexsides are kept as marked.
pub fn suggest_hexsides(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
) -> Result<Vec<HexsideSuggestion>, ClassifyError> {
    suggest_hexsides_with_progress(scan, grid, mapping, terrain, samples, options, &no_progress)
}

/// [`suggest_hexsides`] reporting the share of hexsides done; the callback returns `false` to
/// cancel ([`ClassifyError::Cancelled`]).
pub fn suggest_hexsides_with_progress(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<Vec<HexsideSuggestion>, ClassifyError> {
    suggest_and_trace(scan, grid, mapping, terrain, samples, options, progress)
        .map(|(suggestions, _)| suggestions)
}

/// [`suggest_hexsides`] and the inks it learnt (the grid line's, then each feature's), for
/// [`mask_line_inks`].
pub fn suggest_hexsides_with_inks(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
) -> Result<(Vec<HexsideSuggestion>, Vec<Lab>), ClassifyError> {
    suggest_and_trace(scan, grid, mapping, terrain, samples, options, &no_progress)
}

/// Hexside features ([`suggest_hexsides_with_progress`]) and the terrain in doubt judged
/// again with the lines' inks masked ([`mask_line_inks`]): [`suggest_features`] with no line
/// through the hexes marked, the one pass the command and the editor both run, so a scan's
/// doubtful hexes get the same terrain in either. Both steps report progress and can be
/// cancelled: 1.0 is reported once all is done.
pub fn suggest_hexsides_and_terrain(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<(Vec<HexsideSuggestion>, TerrainSuggestions), ClassifyError> {
    let found = suggest_features(
        scan,
        grid,
        mapping,
        terrain,
        samples,
        &PathSamples::default(),
        options,
        progress,
    )?;
    Ok((found.hexsides, found.terrain))
}
