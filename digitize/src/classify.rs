//! Suggestions from the scan's colours. Terrain: each hex's pixels within 0.6 of the hex radius
//! of its mapped centre, summarised by their dominant colour in CIELAB (the densest cluster, so
//! symbols, lines and names drawn over the hex do not pull it), given the code of the nearest
//! marked sample hex; confidence `1 − d₁/d₂` from the distances to the nearest and
//! second-nearest class, lowered when the hex is crowded by symbols or its colour is far from
//! every sample. Hexsides: see [`crate::hexsides`] (the printed line modelled over the grid
//! line and the two hexes' colours).

use std::collections::{BTreeMap, BTreeSet};

use bataille_schema::geometry::sides;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::calibrate::{Matrix, apply, local_scale};
pub use crate::colour::dominant;
use crate::colour::{Lab, MODE_RADIUS, delta_e, srgb_to_lab};
pub use crate::hexsides::FeatureKind;
use crate::scan::{Progress, Scan, no_progress};

mod traced;
use traced::suggest_and_trace;

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
    /// Follow the hexside features as drawn lines over the whole sheet (the `trace` module)
    /// and correct the patch model's suggestions with them.
    pub trace_lines: bool,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        Self {
            sample_radius: 0.6,
            max_samples_per_hex: 1024,
            band_half_width: 0.12,
            band_length: 0.6,
            trace_lines: true,
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

/// Suggestions less sure than this go in the doubtful list (the review queue).
pub const DOUBTFUL_BELOW: f32 = 0.25;

/// Hexes (or hexsides) handled between two progress reports.
const PROGRESS_BATCH: usize = 512;

/// Maps `items` in parallel, in batches, reporting the share done after each; `None` when the
/// callback cancels.
pub(crate) fn map_with_progress<T: Sync, U: Send>(
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
    let statistics: Vec<Option<(Lab, f32)>> = map_with_progress(&indices, progress, |index| {
        hex_statistic(scan, grid, grid_to_image, *index, options)
    })
    .ok_or(ClassifyError::Cancelled)?;
    let colours: Vec<Option<Lab>> = statistics.iter().map(|s| s.map(|(lab, _)| lab)).collect();
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
            judge(*index, *statistic, &classes)
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
    let hexes = terrain
        .hexes
        .par_iter()
        .map(|s| {
            if s.marked || s.confidence >= DOUBTFUL_BELOW {
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

/// Marked hexsides: feature id → hexsides, and hexsides with no feature; and what the legend
/// says of the features and terrain (for the map's structure: a bridge sits on water, a water
/// feature does not run between two water hexes). Without `kinds` those rules are not used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HexsideSamples {
    pub features: BTreeMap<Id, Vec<(HexIndex, Side)>>,
    pub plain: Vec<(HexIndex, Side)>,
    /// Water and bridge features, from the legend.
    pub kinds: BTreeMap<Id, FeatureKind>,
    /// The terrain codes that are water.
    pub water_terrain: BTreeSet<String>,
}

impl HexsideSamples {
    /// Fills `kinds` and `water_terrain` from a map's legend.
    pub fn with_legend(
        mut self,
        hexside_types: &BTreeMap<Id, bataille_schema::map::HexsideType>,
        terrain: &BTreeMap<String, bataille_schema::map::TerrainType>,
    ) -> Self {
        self.kinds = hexside_types
            .iter()
            .map(|(id, t)| {
                (
                    id.clone(),
                    FeatureKind {
                        water: t.water,
                        bridge: t.bridge,
                        symbol: Some(t.symbol),
                    },
                )
            })
            .collect();
        self.water_terrain = terrain
            .iter()
            .filter(|(_, t)| t.water)
            .map(|(code, _)| code.clone())
            .collect();
        self
    }
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
