//! The overlay tool (O): a click or drag places the chosen overlay (village, redoubt, road…) on
//! each hex once; a right click removes it (or every overlay there).

use bataille_schema::{HexName, Id};

use super::{MapTool, Stroke, StrokeKind, Tool, ToolOutput, ToolState};
use crate::model::document::Document;
use crate::model::history::Change;

/// The overlay tool.
pub struct OverlayTool;

impl MapTool for OverlayTool {
    fn id(&self) -> Tool {
        Tool::Overlay
    }
    fn name(&self) -> &'static str {
        "Overlay"
    }
    fn key(&self) -> egui::Key {
        egui::Key::O
    }
    fn icon(&self) -> &'static str {
        "🏰"
    }
    fn tooltip(&self) -> &'static str {
        "Click or drag to add the chosen overlay; right-click removes"
    }

    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        let Stroke {
            hex, kind, pressed, ..
        } = stroke;
        let grid = &doc.map.grid;
        let mut out = ToolOutput::default();
        let Some(overlay) = state.overlay.clone() else {
            return out;
        };
        if pressed {
            out.begin = Some(if kind == StrokeKind::Add {
                "Place overlay"
            } else {
                "Remove overlay"
            });
            state.last_hex = None;
        }
        let Some(hex) = hex else {
            return out;
        };
        if state.last_hex == Some(hex) {
            return out;
        }
        state.last_hex = Some(hex);
        let name: HexName = grid.name(hex);
        match kind {
            StrokeKind::Add => {
                if !doc.has_overlay(&name, &overlay) {
                    out.changes.push(Change::Overlay {
                        hex: name,
                        overlay,
                        present: true,
                    });
                }
            }
            StrokeKind::Remove => {
                let present: Vec<Id> = if doc.has_overlay(&name, &overlay) {
                    vec![overlay]
                } else {
                    doc.overlays_at(hex).to_vec()
                };
                for overlay in present {
                    out.changes.push(Change::Overlay {
                        hex: name.clone(),
                        overlay,
                        present: false,
                    });
                }
            }
            StrokeKind::Pan => {}
        }
        out
    }
}
