//! Suggestions from the scan's colours. Terrain: each hex's pixels within 0.6 of the hex radius
//! of its mapped centre, summarised by their per-channel median in CIELAB, given the code of the
//! nearest marked sample hex; confidence `1 − d₁/d₂` from the distances to the nearest and
//! second-nearest class. Hexsides: a thin band across the middle of each hexside, cut into
//! cross-sections; a feature's ink colour is learnt from its marked samples (in each
//! cross-section the pixel that stands out most from the two hexes' colours, their median), and
//! a hexside gets the feature when enough of its cross-sections hold that ink (the threshold
//! halfway between the marked samples and the plain hexsides).

use std::collections::{BTreeMap, BTreeSet};

use bataille_schema::geometry::sides;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::calibrate::{Matrix, apply, local_scale};
use crate::colour::{Lab, delta_e, median_lab, srgb_to_lab};
use crate::scan::{Progress, Scan, no_progress};

/// How pixels are sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassifyOptions {
    /// Radius of the disc sampled in each hex, as a fraction of the hex circumradius.
    pub sample_radius: f32,
    /// At most this many pixels per hex (a sparser lattice on large scans).
    pub max_samples_per_hex: usize,
    /// Half the width of the band sampled across a hexside, in hex radii.
    pub band_half_width: f32,
    /// The length of hexside sampled, centred on its middle, as a fraction of the side.
    pub band_length: f32,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        Self {
            sample_radius: 0.6,
            max_samples_per_hex: 1024,
            band_half_width: 0.12,
            band_length: 0.6,
        }
    }
}

/// Why a classification could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClassifyError {
    #[error("no sample hexes lie on the scan: mark at least one hex per terrain type")]
    NoSamples,
    #[error("cancelled")]
    Cancelled,
}

/// Hexes (or hexsides) handled between two progress reports.
const PROGRESS_BATCH: usize = 512;

/// Maps `items` in parallel, in batches, reporting the share done after each; `None` when the
/// callback cancels.
fn map_with_progress<T: Sync, U: Send>(
    items: &[T],
    progress: Progress,
    f: impl Fn(&T) -> U + Sync + Send,
) -> Option<Vec<U>> {
    let mut out = Vec::with_capacity(items.len());
    for batch in items.chunks(PROGRESS_BATCH) {
        out.extend(batch.par_iter().map(&f).collect::<Vec<U>>());
        if !progress(out.len() as f32 / items.len().max(1) as f32) {
            return None;
        }
    }
    Some(out)
}

/// The suggestion for one hex.
#[derive(Debug, Clone, PartialEq)]
pub struct HexSuggestion {
    pub index: HexIndex,
    /// The suggested terrain code; `None` when the hex is off the scan.
    pub code: Option<String>,
    /// 0 (a toss-up between two codes) to 1 (no doubt).
    pub confidence: f32,
    /// The hex's colour statistic (median CIELAB), `None` off the scan.
    pub colour: Option<Lab>,
    /// A sample the user marked (its code is the one marked).
    pub marked: bool,
}

/// Suggestions for every hex of the grid, row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainSuggestions {
    pub hexes: Vec<HexSuggestion>,
}

impl TerrainSuggestions {
    /// The suggestion of a hex.
    pub fn get(&self, grid: &Grid, index: HexIndex) -> Option<&HexSuggestion> {
        grid.contains(index)
            .then(|| {
                self.hexes
                    .get(index.row as usize * grid.columns as usize + index.col as usize)
            })
            .flatten()
    }

    /// The map's terrain rows, `fallback` where there is no suggestion.
    pub fn rows(&self, grid: &Grid, fallback: char) -> Vec<String> {
        (0..grid.rows)
            .map(|row| {
                (0..grid.columns)
                    .map(|col| {
                        self.get(grid, HexIndex::new(col, row))
                            .and_then(|s| s.code.as_deref())
                            .and_then(|code| code.chars().next())
                            .unwrap_or(fallback)
                    })
                    .collect()
            })
            .collect()
    }
}

/// The median CIELAB colour of a hex's pixels within `sample_radius` of its mapped centre, or
/// `None` when the disc is off the scan.
pub fn hex_colour(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    options: &ClassifyOptions,
) -> Option<Lab> {
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
    median_lab(&mut values)
}

/// Nearest class by the distance to its nearest sample; confidence `1 − d₁/d₂`.
fn nearest<K: Clone>(feature: Lab, classes: &[(K, Vec<Lab>)]) -> Option<(&K, f32)> {
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
    Some((&classes[i].0, confidence))
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
    let colours: Vec<Option<Lab>> = map_with_progress(&indices, progress, |index| {
        hex_colour(scan, grid, grid_to_image, *index, options)
    })
    .ok_or(ClassifyError::Cancelled)?;
    let colour_of = |index: HexIndex| -> Option<Lab> {
        colours
            .get(index.row as usize * grid.columns as usize + index.col as usize)
            .copied()
            .flatten()
    };
    let mut marked: BTreeMap<HexIndex, &str> = BTreeMap::new();
    let mut classes: Vec<(String, Vec<Lab>)> = Vec::new();
    for (code, hexes) in samples {
        let mut features = Vec::new();
        for index in hexes {
            if !grid.contains(*index) {
                continue;
            }
            marked.insert(*index, code);
            if let Some(colour) = colour_of(*index) {
                features.push(colour);
            }
        }
        if !features.is_empty() {
            classes.push((code.clone(), features));
        }
    }
    if classes.is_empty() {
        return Err(ClassifyError::NoSamples);
    }
    let hexes = indices
        .iter()
        .zip(&colours)
        .map(|(index, colour)| {
            if let Some(code) = marked.get(index) {
                return HexSuggestion {
                    index: *index,
                    code: Some((*code).to_owned()),
                    confidence: 1.0,
                    colour: *colour,
                    marked: true,
                };
            }
            let found = colour.and_then(|c| nearest(c, &classes));
            HexSuggestion {
                index: *index,
                code: found.map(|(code, _)| code.clone()),
                confidence: found.map_or(0.0, |(_, c)| c),
                colour: *colour,
                marked: false,
            }
        })
        .collect();
    Ok(TerrainSuggestions { hexes })
}

/// Marked hexsides: feature id → hexsides, and hexsides with no feature.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HexsideSamples {
    pub features: BTreeMap<Id, Vec<(HexIndex, Side)>>,
    pub plain: Vec<(HexIndex, Side)>,
}

/// The suggestion for one hexside (named canonically: the first three sides clockwise from
/// north).
#[derive(Debug, Clone, PartialEq)]
pub struct HexsideSuggestion {
    pub index: HexIndex,
    pub side: Side,
    /// The suggested feature, `None` for a plain hexside.
    pub feature: Option<Id>,
    pub confidence: f32,
    pub marked: bool,
}

/// Every hexside between two map hexes, canonically named, row by row.
pub fn interior_hexsides(grid: &Grid) -> Vec<(HexIndex, Side)> {
    let forward: Vec<Side> = sides(grid.orientation)[..3].to_vec();
    grid.indices()
        .flat_map(|index| {
            forward
                .iter()
                .filter(move |side| grid.neighbour(index, **side).is_some())
                .map(move |side| (index, *side))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The pixels of a thin band across the middle of a hexside, as cross-sections (each a short
/// line of samples across the side), or `None` when it is mostly off the scan.
pub fn hexside_band(
    scan: &Scan,
    grid: &Grid,
    grid_to_image: &Matrix,
    index: HexIndex,
    side: Side,
    options: &ClassifyOptions,
) -> Option<Vec<Vec<Lab>>> {
    let [a, b] = grid.side_corners(index, side)?;
    let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
    let c = grid.centre(index);
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let along = [b[0] - a[0], b[1] - a[1]];
    let across = {
        let v = [mid[0] - f64::from(c[0]), mid[1] - f64::from(c[1])];
        let l = (v[0] * v[0] + v[1] * v[1]).sqrt().max(1e-9);
        [v[0] / l, v[1] / l]
    };
    let px_per_unit = local_scale(grid_to_image, mid);
    if !(px_per_unit.is_finite() && px_per_unit > 0.0) {
        return None;
    }
    let half_len = f64::from(options.band_length) / 2.0;
    let half_width = f64::from(options.band_half_width);
    // About one sample per pixel, at most 24 cross-sections of at most 31 samples.
    let sections = ((2.0 * half_len * px_per_unit).ceil() as usize).clamp(3, 24);
    let per_section = ((2.0 * half_width * px_per_unit).ceil() as usize).clamp(3, 31) | 1;
    let mut out = Vec::with_capacity(sections);
    for s in 0..sections {
        let u = -half_len + 2.0 * half_len * (s as f64 + 0.5) / sections as f64;
        let base = [mid[0] + along[0] * u, mid[1] + along[1] * u];
        let section: Vec<Lab> = (0..per_section)
            .filter_map(|k| {
                let t = -half_width + 2.0 * half_width * k as f64 / (per_section - 1) as f64;
                let [x, y] = apply(
                    grid_to_image,
                    [base[0] + across[0] * t, base[1] + across[1] * t],
                );
                scan.pixel_at(x, y).map(srgb_to_lab)
            })
            .collect();
        if !section.is_empty() {
            out.push(section);
        }
    }
    (out.len() * 2 >= sections).then_some(out)
}

/// The share of cross-sections in which some pixel is within `tolerance` (ΔE) of the ink
/// `colour` and also stands out from the hexes' own colour `background` (so a feature's ink is
/// not confused with terrain of a similar colour).
fn coverage(band: &[Vec<Lab>], colour: Lab, tolerance: f32, background: Lab) -> f32 {
    if band.is_empty() {
        return 0.0;
    }
    let contrast = (0.5 * delta_e(colour, background)).max(tolerance);
    let hits = band
        .iter()
        .filter(|section| {
            section
                .iter()
                .any(|p| delta_e(*p, colour) <= tolerance && delta_e(*p, background) >= contrast)
        })
        .count();
    hits as f32 / band.len() as f32
}

/// What a hexside feature looks like on the scan, learnt from its marked samples.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureModel {
    pub id: Id,
    /// The feature's ink: in each cross-section of each sample, the pixel that stands out most
    /// from the two hexes' colours; their median.
    pub colour: Lab,
    /// How far (ΔE) a pixel may be from `colour` and still count as the feature's ink.
    pub tolerance: f32,
    /// The share of cross-sections that must hold the ink for the feature to be suggested:
    /// halfway between the samples' share and the plain hexsides' share.
    pub threshold: f32,
}

/// Suggests a feature (or none) for every interior hexside, from marked samples. `terrain`
/// supplies each hex's colour (from [`suggest_terrain`]). Plain hexsides set the threshold
/// between feature and no feature; when none are marked, hexsides between two adjacent terrain
/// samples that are not marked as features serve.
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
    let canonical = |(index, side): (HexIndex, Side)| grid.canonical_hexside(index, side);
    let background = |index: HexIndex, side: Side| -> Option<Lab> {
        let a = terrain.get(grid, index)?.colour?;
        let b = grid
            .neighbour(index, side)
            .and_then(|n| terrain.get(grid, n))
            .and_then(|s| s.colour)
            .unwrap_or(a);
        Some([
            (a[0] + b[0]) / 2.0,
            (a[1] + b[1]) / 2.0,
            (a[2] + b[2]) / 2.0,
        ])
    };
    let band_of = |(index, side): (HexIndex, Side)| -> Option<(Vec<Vec<Lab>>, Lab)> {
        Some((
            hexside_band(scan, grid, grid_to_image, index, side, options)?,
            background(index, side)?,
        ))
    };
    let mut marked: BTreeMap<(HexIndex, Side), Option<Id>> = BTreeMap::new();
    for (id, list) in &samples.features {
        for hexside in list {
            marked.insert(canonical(*hexside), Some(id.clone()));
        }
    }
    let mut plain: Vec<(HexIndex, Side)> = samples.plain.iter().map(|h| canonical(*h)).collect();
    if plain.is_empty() {
        let sample_hexes: BTreeSet<HexIndex> = terrain
            .hexes
            .iter()
            .filter(|s| s.marked)
            .map(|s| s.index)
            .collect();
        for hexside in interior_hexsides(grid) {
            let other = grid.neighbour(hexside.0, hexside.1);
            if sample_hexes.contains(&hexside.0)
                && other.is_some_and(|o| sample_hexes.contains(&o))
                && !marked.contains_key(&hexside)
            {
                plain.push(hexside);
            }
        }
    }
    for hexside in &plain {
        marked.entry(*hexside).or_insert(None);
    }
    let plain_bands: Vec<(Vec<Vec<Lab>>, Lab)> = plain.iter().filter_map(|h| band_of(*h)).collect();
    let mut models = Vec::new();
    for (id, list) in &samples.features {
        let bands: Vec<(Vec<Vec<Lab>>, Lab)> =
            list.iter().filter_map(|h| band_of(canonical(*h))).collect();
        let mut picks: Vec<Lab> = bands
            .iter()
            .flat_map(|(band, bg)| {
                band.iter().filter_map(move |section| {
                    section
                        .iter()
                        .copied()
                        .max_by(|a, b| delta_e(*a, *bg).total_cmp(&delta_e(*b, *bg)))
                })
            })
            .collect();
        let Some(colour) = median_lab(&mut picks) else {
            continue;
        };
        let mut spread: Vec<f32> = picks.iter().map(|p| delta_e(*p, colour)).collect();
        let mid = spread.len() / 2;
        spread.select_nth_unstable_by(mid, f32::total_cmp);
        let tolerance = (2.5 * spread[mid] + 5.0).clamp(8.0, 30.0);
        let mean = |bands: &[(Vec<Vec<Lab>>, Lab)]| -> Option<f32> {
            let values: Vec<f32> = bands
                .iter()
                .map(|(b, bg)| coverage(b, colour, tolerance, *bg))
                .collect();
            (!values.is_empty()).then(|| values.iter().sum::<f32>() / values.len() as f32)
        };
        let on = mean(&bands).unwrap_or(1.0);
        let off = mean(&plain_bands).unwrap_or(0.0);
        let threshold = ((on + off) / 2.0).clamp(0.2, 0.8);
        models.push(FeatureModel {
            id: id.clone(),
            colour,
            tolerance,
            threshold,
        });
    }
    let all = interior_hexsides(grid);
    let suggestions = map_with_progress(&all, progress, |&(index, side)| {
        if let Some(class) = marked.get(&(index, side)) {
            return HexsideSuggestion {
                index,
                side,
                feature: class.clone(),
                confidence: 1.0,
                marked: true,
            };
        }
        let Some((band, bg)) = band_of((index, side)) else {
            return HexsideSuggestion {
                index,
                side,
                feature: None,
                confidence: 0.0,
                marked: false,
            };
        };
        // The feature whose ink covers the band furthest past its threshold.
        let best = models
            .iter()
            .map(|m| {
                let c = coverage(&band, m.colour, m.tolerance, bg);
                let margin = c - m.threshold;
                let room = if margin > 0.0 {
                    1.0 - m.threshold
                } else {
                    m.threshold
                };
                (m, margin, (margin.abs() / room.max(1e-3)).min(1.0))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match best {
            Some((model, margin, confidence)) if margin > 0.0 => HexsideSuggestion {
                index,
                side,
                feature: Some(model.id.clone()),
                confidence,
                marked: false,
            },
            Some((_, _, confidence)) => HexsideSuggestion {
                index,
                side,
                feature: None,
                confidence,
                marked: false,
            },
            None => HexsideSuggestion {
                index,
                side,
                feature: None,
                confidence: 0.0,
                marked: false,
            },
        }
    })
    .ok_or(ClassifyError::Cancelled)?;
    Ok(suggestions)
}
