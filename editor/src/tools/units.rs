//! The unit placement tool (U): counters are dragged onto hexes and between them, a click on a
//! hex places the selected counter, a right click takes one off. The counters are the scenario
//! layer's (`layers::scenario`), which takes these clicks before any stroke; the tool itself
//! makes no stroke.

use super::{MapTool, Stroke, Tool, ToolOutput, ToolState};
use crate::model::document::Document;

/// The unit placement tool.
pub struct UnitsTool;

impl MapTool for UnitsTool {
    fn id(&self) -> Tool {
        Tool::Units
    }
    fn name(&self) -> &'static str {
        "Units"
    }
    fn key(&self) -> egui::Key {
        egui::Key::U
    }
    fn icon(&self) -> &'static str {
        "♟"
    }
    fn tooltip(&self) -> &'static str {
        "Drag counters onto hexes and between them; click a hex to place the selected \
         counter; right-click takes one off"
    }

    fn stroke(&self, _state: &mut ToolState, _doc: &Document, _stroke: Stroke) -> ToolOutput {
        ToolOutput::default()
    }
}
