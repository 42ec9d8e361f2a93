//! The hexside tool (H): a drag along hex edges draws the chosen feature (rivers, streams,
//! lines) as one continuous chain, never on the map's edge; a right drag removes. By keyboard,
//! R and Shift+R turn to a side of the selected hex (shown in cyan) and Enter draws it,
//! Shift+Enter removes. Its feedback is the hexside under the pointer and the keyboard's side.
//! The chain geometry is in `hexside`.

use bataille_schema::Id;

use super::hexside;
use super::{Feedback, HEXSIDE_REACH, MapTool, Stroke, StrokeKind, Tool, ToolOutput, ToolState};
use crate::model::document::Document;
use crate::model::history::Change;

/// The hexside tool.
pub struct HexsideTool;

impl MapTool for HexsideTool {
    fn id(&self) -> Tool {
        Tool::Hexside
    }
    fn name(&self) -> &'static str {
        "Hexside"
    }
    fn key(&self) -> egui::Key {
        egui::Key::H
    }
    fn icon(&self) -> &'static str {
        "〰"
    }
    fn tooltip(&self) -> &'static str {
        "Drag along hex edges to add the chosen feature; right-drag removes. By keyboard: the \
         arrows choose a hex, R / Shift+R turn to one of its sides, Enter draws, Shift+Enter \
         removes"
    }

    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        let Stroke {
            pointer,
            hex,
            kind,
            pressed,
            ..
        } = stroke;
        let grid = &doc.map.grid;
        let mut out = ToolOutput::default();
        let Some(feature) = state.hexside.clone() else {
            return out;
        };
        if pressed {
            out.begin = Some(if kind == StrokeKind::Add {
                "Draw hexside feature"
            } else {
                "Remove hexside feature"
            });
            state.last_side = None;
            state.stroke_sides.clear();
        }
        let Some(hex) = hex else {
            return out;
        };
        let Some((side, distance)) = grid.nearest_side(hex, pointer) else {
            return out;
        };
        if distance > HEXSIDE_REACH {
            return out;
        }
        let side_key = hexside::key(grid, hex, side);
        if hexside::is_edge(grid, side_key) {
            // Features on the map's edge break E0606: never drawn there.
            return out;
        }
        let last = state.stroke_sides.last().map(|(k, _)| *k);
        if last == Some(side_key) {
            return out;
        }
        // The chain from the last side to this one: no gap when the pointer jumped.
        let path = match last {
            Some(last) => hexside::chain(grid, last, side_key, 12),
            None => vec![side_key],
        };
        for step in path {
            // A corner cut: the side before turned out to be a stray; take it back.
            if let [.., (before, _), (middle, added)] = state.stroke_sides[..]
                && hexside::is_stray(grid, before, middle, step)
            {
                state.stroke_sides.pop();
                if added && kind == StrokeKind::Add {
                    out.changes.push(Change::Hexside {
                        feature: feature.clone(),
                        side: grid.hexside_ref(middle.0, middle.1),
                        present: false,
                    });
                }
            }
            let side_ref = grid.hexside_ref(step.0, step.1);
            let mut added = false;
            match kind {
                StrokeKind::Add => {
                    if !doc.has_hexside(&feature, &side_ref)
                        || out.changes.iter().any(|c| {
                            matches!(c, Change::Hexside { side, present: false, .. } if *side == side_ref)
                        })
                    {
                        out.changes.push(Change::Hexside {
                            feature: feature.clone(),
                            side: side_ref.clone(),
                            present: true,
                        });
                        added = true;
                    }
                }
                StrokeKind::Remove => {
                    let present: Vec<Id> = if doc.has_hexside(&feature, &side_ref) {
                        vec![feature.clone()]
                    } else {
                        doc.hexside_features(&side_ref)
                            .into_iter()
                            .cloned()
                            .collect()
                    };
                    for feature in present {
                        out.changes.push(Change::Hexside {
                            feature,
                            side: side_ref.clone(),
                            present: false,
                        });
                    }
                }
                StrokeKind::Pan => {}
            }
            state.stroke_sides.push((step, added));
            state.last_side = Some(side_ref);
        }
        out
    }

    fn feedback(&self, f: &Feedback<'_>) {
        let grid = &f.doc.map.grid;
        if let Some(pos) = f.pointer {
            let g = f.view.to_grid(f.rect, pos);
            if let Some((side, d)) = grid.nearest_side(f.hover, [g.x, g.y])
                && d <= HEXSIDE_REACH
            {
                f.view.highlight_side(
                    f.painter,
                    grid,
                    f.rect,
                    f.hover,
                    side,
                    egui::Stroke::new(4.0, egui::Color32::from_rgb(255, 120, 0)),
                );
            }
        }
        f.outline_hover();
    }

    /// The keyboard's side: the side of the selected hex Enter draws.
    fn cursor_feedback(&self, f: &Feedback<'_>) {
        let grid = &f.doc.map.grid;
        f.view.highlight_side(
            f.painter,
            grid,
            f.rect,
            f.hover,
            f.state.key_side(grid),
            egui::Stroke::new(5.0, egui::Color32::from_rgb(0, 190, 255)),
        );
    }
}
