//! The one pass the command and the editor share for what is drawn as lines: the hexside
//! features (rivers, streams, fortification lines: [`crate::hexsides`] corrected by
//! [`crate::trace`]), the terrain in doubt judged again with the lines' inks masked
//! ([`super::mask_line_inks`]), and the lines drawn *through* the hexes (roads, railways: a
//! map's `overlays` and `paths`), followed as drawn ink by [`crate::trace::trace_through`]
//! from a few crossings the user marked per overlay. A crossing is a hexside the line passes
//! through, from one hex into its neighbour; the crate's `paths` module writes them as paths.

use std::collections::{BTreeMap, BTreeSet};

use bataille_schema::{Grid, HexIndex, Id, Side};

use super::{
    ClassifyError, ClassifyOptions, HexsideSamples, HexsideSuggestion, TerrainSuggestions,
    interior_hexsides, mask_line_inks_with_progress, suggest_and_trace,
};
use crate::colour::Lab;
use crate::mapping::GridMapping;
use crate::scan::{Progress, Scan};
use crate::trace::{Colours, ThroughLine, trace_through};

/// Crossings the user marked: overlay id (a road, a railway) → hexsides it crosses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PathSamples {
    pub lines: BTreeMap<Id, Vec<(HexIndex, Side)>>,
}

impl PathSamples {
    /// Whether no crossing is marked.
    pub fn is_empty(&self) -> bool {
        self.lines.values().all(Vec::is_empty)
    }
}

/// What the pass suggests for one hexside (named canonically): the line crossing it or none.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossingSuggestion {
    pub index: HexIndex,
    pub side: Side,
    /// The overlay whose line crosses it, `None` for none.
    pub line: Option<Id>,
    /// 0 to 1; under [`crate::classify::DOUBTFUL_BELOW`]: for review.
    pub confidence: f32,
    /// Marked by the user.
    pub marked: bool,
}

/// What [`suggest_features`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Features {
    /// Every interior hexside's feature (or plain: all of them when no feature is marked).
    pub hexsides: Vec<HexsideSuggestion>,
    /// Every interior hexside's crossing line (or none); `None` when no crossing was marked
    /// or no line's ink could be read from the marked crossings.
    pub crossings: Option<Vec<CrossingSuggestion>>,
    /// The terrain it started from, the hexes in doubt judged again with the lines' inks
    /// masked.
    pub terrain: TerrainSuggestions,
}

/// The share of the progress bar the hexsides take (the patch model, the hexside trace);
/// the hexes in doubt judged again (a few, re-read) take [`MASK_SHARE`]; the lines through the
/// hexes, when crossings are marked, the rest.
const HEXSIDES_SHARE: f32 = 0.95;
const MASK_SHARE: f32 = 0.05;
/// With crossings marked, the hexsides' share of the bar is this much of it.
const WITH_CROSSINGS: f32 = 0.7;

/// Hexside features, the terrain in doubt judged again, and the lines through the hexes (see
/// the module's documentation): the one pass `bataille digitize` and the editor's "Find
/// hexside features" run. `progress` gets the share done and returns `false` to cancel
/// ([`ClassifyError::Cancelled`]) in every step; 1.0 is reported once, when all is done.
#[allow(
    clippy::too_many_arguments,
    reason = "the pass's inputs, each distinct"
)]
pub fn suggest_features(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    paths: &PathSamples,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<Features, ClassifyError> {
    let through = !paths.is_empty();
    let scale = if through { WITH_CROSSINGS } else { 1.0 };
    let (hexsides_end, mask_end) = (
        scale * HEXSIDES_SHARE,
        scale * (HEXSIDES_SHARE + MASK_SHARE),
    );
    // The hexside pass learns the grid line's ink, which the trace through the hexes tells
    // a road's ink from, even when no hexside feature is marked.
    let (hexsides, inks) =
        suggest_and_trace(scan, grid, mapping, terrain, samples, options, &|f| {
            progress(hexsides_end * f)
        })?;
    let rejudged =
        mask_line_inks_with_progress(scan, grid, mapping, terrain, &inks, options, &|f| {
            progress(hexsides_end + (mask_end - hexsides_end) * f)
        })?;
    let crossings = if through {
        let found = suggest_crossings(scan, grid, mapping, terrain, samples, paths, &inks);
        if !progress(1.0) {
            return Err(ClassifyError::Cancelled);
        }
        found
    } else {
        None
    };
    Ok(Features {
        hexsides,
        crossings,
        terrain: rejudged,
    })
}

/// The lines through the hexes, as [`trace_through`] reads them from the marked crossings.
/// The map's colours it tells a line's ink from: the hexes' (the terrain suggestions), the
/// marked terrain samples', the grid line's (`inks[0]`); the water it keeps a line's ink
/// away from: the water features' inks and the water terrain samples' colours.
fn suggest_crossings(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    paths: &PathSamples,
    inks: &[Lab],
) -> Option<Vec<CrossingSuggestion>> {
    let ids: Vec<&Id> = paths.lines.keys().collect();
    let lines: Vec<ThroughLine> = ids
        .iter()
        .map(|id| ThroughLine {
            crossed: paths.lines[*id]
                .iter()
                .map(|&(i, s)| grid.canonical_hexside(i, s))
                .collect(),
        })
        .collect();
    let hex = |index: HexIndex| terrain.get(grid, index).and_then(|s| s.colour);
    let colours = Colours {
        hex: &hex,
        terrain: terrain
            .hexes
            .iter()
            .filter(|s| s.marked)
            .filter_map(|s| s.colour)
            .collect(),
        grid_ink: inks.first().copied(),
    };
    let mut water: Vec<Lab> = samples
        .features
        .iter()
        .filter(|(id, _)| samples.kinds.get(*id).is_some_and(|k| k.water))
        .filter_map(|(_, marked)| crate::trace::marked_ink(scan, grid, mapping, &colours, marked))
        .collect();
    // One colour per water terrain: its first marked hex's.
    let mut seen = BTreeSet::new();
    for s in terrain.hexes.iter().filter(|s| s.marked) {
        if let (Some(code), Some(colour)) = (&s.code, s.colour)
            && samples.water_terrain.contains(code)
            && seen.insert(code.clone())
        {
            water.push(colour);
        }
    }
    // Every side between two hexes, and the sides on the grid's edge (a road leaving the map).
    let mut hexsides = interior_hexsides(grid);
    hexsides.extend(crate::suggestion::edge_hexsides(grid));
    let found = trace_through(scan, grid, mapping, &lines, &colours, &water, &hexsides)?;
    let marked: BTreeMap<(HexIndex, Side), usize> = lines
        .iter()
        .enumerate()
        .flat_map(|(f, l)| l.crossed.iter().map(move |h| (*h, f)))
        .collect();
    Some(
        hexsides
            .iter()
            .zip(found)
            .map(|(&(index, side), c)| match marked.get(&(index, side)) {
                Some(&f) => CrossingSuggestion {
                    index,
                    side,
                    line: Some(ids[f].clone()),
                    confidence: 1.0,
                    marked: true,
                },
                None => CrossingSuggestion {
                    index,
                    side,
                    line: c.feature.map(|f| ids[f].clone()),
                    confidence: c.confidence,
                    marked: false,
                },
            })
            .collect(),
    )
}
