//! The eyedropper (I, or Alt with any tool): picks the terrain under the pointer as the terrain
//! painted.

use super::{MapTool, Stroke, Tool, ToolOutput, ToolState};
use crate::model::document::Document;

/// The eyedropper.
pub struct EyedropperTool;

impl MapTool for EyedropperTool {
    fn id(&self) -> Tool {
        Tool::Eyedropper
    }
    fn name(&self) -> &'static str {
        "Eyedropper"
    }
    fn key(&self) -> egui::Key {
        egui::Key::I
    }
    fn icon(&self) -> &'static str {
        "💧"
    }
    fn tooltip(&self) -> &'static str {
        "Pick the terrain under the cursor (or Alt-click with any tool)"
    }

    fn stroke(&self, _state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput {
        ToolOutput {
            picked: stroke.hex.and_then(|hex| doc.code(hex)),
            ..ToolOutput::default()
        }
    }
}
