//! The label tool (L): a click sets the hex's place name to the text in the dock; a right click
//! removes it.

use super::{MapTool, Stroke, StrokeKind, Tool, ToolOutput, ToolState};
use crate::model::document::Document;
use crate::model::history::Change;

/// The label tool.
pub struct LabelTool;

impl MapTool for LabelTool {
    fn id(&self) -> Tool {
        Tool::Label
    }
    fn name(&self) -> &'static str {
        "Label"
    }
    fn key(&self) -> egui::Key {
        egui::Key::L
    }
    fn icon(&self) -> &'static str {
        "🔤"
    }
    fn tooltip(&self) -> &'static str {
        "Click a hex to set its label; right-click removes it"
    }

    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        let Stroke {
            hex, kind, pressed, ..
        } = stroke;
        let grid = &doc.map.grid;
        let mut out = ToolOutput::default();
        if !pressed {
            return out;
        }
        let Some(hex) = hex else {
            return out;
        };
        let name = grid.name(hex);
        let before = doc.map.labels.get(&name).cloned();
        let text = state.label_text.trim();
        let after = match kind {
            StrokeKind::Add if !text.is_empty() => Some(text.to_owned()),
            _ => None,
        };
        if before != after {
            out.changes.push(Change::Label {
                hex: name,
                before,
                after,
            });
        }
        out
    }
}
