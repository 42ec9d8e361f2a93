//! What the classifiers take and give: the options, the suggestions for hexes and hexsides,
//! the marked hexside samples and what the legend says of each feature, the doubtful
//! threshold; shared by [`crate::classify`] (terrain, and the hexsides' entry points),
//! [`crate::hexsides`] (the patch model) and the line tracing.

use std::collections::{BTreeMap, BTreeSet};

use bataille_schema::geometry::sides;
use bataille_schema::map::HexsideSymbol;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::colour::Lab;
use crate::scan::Progress;

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

/// Every side of a map hex on the grid's edge (no hex beyond it), row by row: where a road
/// leaves the map.
pub fn edge_hexsides(grid: &Grid) -> Vec<(HexIndex, Side)> {
    let all = sides(grid.orientation);
    grid.indices()
        .flat_map(|index| {
            all.iter()
                .filter(move |side| grid.neighbour(index, **side).is_none())
                .map(move |side| (index, *side))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What the legend says of a feature, for the map's structure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeatureKind {
    /// Water (river, stream): never between two water hexes.
    pub water: bool,
    /// A bridge: only on water.
    pub bridge: bool,
    /// How it is drawn: features drawn alike (two fortification lines, a line and its
    /// road-crossing variant) continue each other's chains.
    pub symbol: Option<HexsideSymbol>,
}
