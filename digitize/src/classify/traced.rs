//! The hexside suggestions: the patch model's ([`crate::hexsides`]), corrected by the features
//! followed as drawn lines ([`crate::trace`]).

use bataille_schema::{Grid, HexIndex, Id, Side};

use super::{
    ClassifyError, ClassifyOptions, DOUBTFUL_BELOW, HexsideSamples, HexsideSuggestion,
    TerrainSuggestions,
};
use crate::colour::Lab;
use crate::mapping::GridMapping;
use crate::scan::{Progress, Scan};

/// The patch model's share of the progress when the lines are traced after it.
const PATCH_SHARE: f32 = 0.4;

/// The patch model's suggestions, corrected by the features followed as drawn lines
/// ([`crate::trace`]) when `options.trace_lines`.
pub(super) fn suggest_and_trace(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    options: &ClassifyOptions,
    progress: Progress,
) -> Result<(Vec<HexsideSuggestion>, Vec<Lab>), ClassifyError> {
    // The patch model's share of the progress bar when the lines are traced after it (on the
    // benchmark's 10,000 × 7,000 scan the trace takes about two thirds of the time).
    let patch_share = if options.trace_lines {
        PATCH_SHARE
    } else {
        1.0
    };
    let (mut suggestions, inks) =
        crate::hexsides::suggest(scan, grid, mapping, terrain, samples, options, &|f| {
            progress(patch_share * f)
        })?;
    if options.trace_lines {
        let ids: Vec<&Id> = samples.features.keys().collect();
        let lines: Vec<crate::trace::Line> = ids
            .iter()
            .map(|id| {
                let kind = samples.kinds.get(*id).copied().unwrap_or_default();
                crate::trace::Line {
                    marked: samples.features[*id].clone(),
                    water: kind.water,
                    bridge: kind.bridge,
                    symbol: kind.symbol,
                }
            })
            .collect();
        let hex = |index: HexIndex| terrain.get(grid, index).and_then(|s| s.colour);
        let colours = crate::trace::Colours {
            hex: &hex,
            terrain: terrain
                .hexes
                .iter()
                .filter(|s| s.marked)
                .filter_map(|s| s.colour)
                .collect(),
            grid_ink: inks.first().copied(),
        };
        let hexsides: Vec<(HexIndex, Side)> =
            suggestions.iter().map(|s| (s.index, s.side)).collect();
        let trace = crate::trace::trace(scan, grid, mapping, &lines, &colours, &hexsides);
        let water_hex = |index: HexIndex| {
            terrain
                .get(grid, index)
                .and_then(|s| s.code.as_ref())
                .is_some_and(|c| samples.water_terrain.contains(c))
        };
        let mut decisions: Vec<crate::trace::Decision> = suggestions
            .iter()
            .map(|s| crate::trace::Decision {
                feature: s
                    .feature
                    .as_ref()
                    .and_then(|f| ids.iter().position(|id| *id == f)),
                confidence: s.confidence,
                marked: s.marked,
            })
            .collect();
        crate::trace::apply_trace(
            grid,
            &lines,
            &trace,
            &hexsides,
            &mut decisions,
            &water_hex,
            DOUBTFUL_BELOW,
        );
        for (s, d) in suggestions.iter_mut().zip(decisions) {
            s.feature = d.feature.map(|f| ids[f].clone());
            s.confidence = d.confidence;
        }
        if !progress(1.0) {
            return Err(ClassifyError::Cancelled);
        }
    }
    Ok((suggestions, inks))
}
