//! The flood fill (F): the connected area of one terrain under the click takes the chosen
//! terrain, in one step.

use super::{MapTool, Stroke, StrokeKind, Tool, ToolOutput, ToolState};
use crate::model::document::{Document, flood_region};
use crate::model::history::{CellChange, Change};

/// The fill tool.
pub struct FillTool;

impl MapTool for FillTool {
    fn id(&self) -> Tool {
        Tool::Fill
    }
    fn name(&self) -> &'static str {
        "Fill"
    }
    fn key(&self) -> egui::Key {
        egui::Key::F
    }
    fn icon(&self) -> &'static str {
        "🎨"
    }
    fn tooltip(&self) -> &'static str {
        "Fill the connected area of one terrain"
    }

    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        let Stroke {
            hex, kind, pressed, ..
        } = stroke;
        let mut out = ToolOutput::default();
        if pressed
            && kind == StrokeKind::Add
            && let Some(hex) = hex
        {
            let cells: Vec<CellChange> = flood_region(doc, hex)
                .into_iter()
                .filter_map(|h| {
                    let before = doc.code(h)?;
                    (before != state.terrain).then_some(CellChange {
                        hex: h,
                        before,
                        after: state.terrain,
                    })
                })
                .collect();
            if !cells.is_empty() {
                out.begin = Some("Fill");
                out.changes.push(Change::Terrain(cells));
            }
        }
        out
    }
}
