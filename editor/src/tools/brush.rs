//! The terrain brush (B): paints the chosen terrain on the hexes under the brush, the gap filled
//! when the pointer jumps; `[` `]` size the brush. Its feedback is the brush's footprint.

use bataille_schema::HexIndex;

use super::{Feedback, MapTool, Stroke, StrokeKind, Tool, ToolOutput, ToolState};
use crate::model::document::Document;

/// The brush tool.
pub struct BrushTool;

impl MapTool for BrushTool {
    fn id(&self) -> Tool {
        Tool::Brush
    }
    fn name(&self) -> &'static str {
        "Brush"
    }
    fn key(&self) -> egui::Key {
        egui::Key::B
    }
    fn icon(&self) -> &'static str {
        "✏"
    }
    fn tooltip(&self) -> &'static str {
        "Paint terrain; [ and ] change the brush size"
    }

    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        let Stroke {
            hex, kind, pressed, ..
        } = stroke;
        let grid = &doc.map.grid;
        let mut out = ToolOutput::default();
        if pressed {
            out.begin = Some("Paint terrain");
        }
        if let Some(hex) = hex
            && kind == StrokeKind::Add
        {
            // Fill the gap when the pointer jumped several hexes in one frame.
            let path: Vec<HexIndex> = match state.last_hex {
                Some(last) if last != hex && !pressed => {
                    let a = grid.hex(last);
                    let b = grid.hex(hex);
                    a.line_to(b).filter_map(|h| grid.index(h)).skip(1).collect()
                }
                Some(last) if last == hex && !pressed => Vec::new(),
                _ => vec![hex],
            };
            for h in path {
                if let Some(change) = state.paint_at(doc, h) {
                    out.changes.push(change);
                }
            }
            state.last_hex = Some(hex);
        }
        out
    }

    fn feedback(&self, f: &Feedback<'_>) {
        for h in f.state.brush_footprint(f.doc, f.hover) {
            f.view.outline_hex(
                f.painter,
                &f.doc.map.grid,
                f.rect,
                h,
                egui::Stroke::new(1.5, egui::Color32::from_white_alpha(200)),
            );
        }
    }
}
