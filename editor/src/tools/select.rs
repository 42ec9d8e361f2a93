//! The select tool (S): a click selects the hex under it (the inspector shows it; Esc clears
//! the selection). Counters under it are the scenario layer's to select and drag.

use super::{MapTool, Stroke, Tool, ToolOutput, ToolState};
use crate::model::document::Document;

/// The select tool.
pub struct SelectTool;

impl MapTool for SelectTool {
    fn id(&self) -> Tool {
        Tool::Select
    }
    fn name(&self) -> &'static str {
        "Select"
    }
    fn key(&self) -> egui::Key {
        egui::Key::S
    }
    fn icon(&self) -> &'static str {
        "⛶"
    }
    fn tooltip(&self) -> &'static str {
        "Select a hex to inspect it; Esc clears the selection"
    }

    fn stroke(&self, _state: &mut ToolState, _doc: &Document, stroke: Stroke) -> ToolOutput {
        ToolOutput {
            select: stroke.pressed.then_some(stroke.hex),
            ..ToolOutput::default()
        }
    }
}
