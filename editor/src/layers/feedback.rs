//! The top of the map: the selected hex (the keyboard's cursor too) with what the tool shows
//! there (`MapTool::cursor_feedback`: the hexside Enter draws), the current tool's feedback
//! under the pointer (`MapTool::feedback`: the brush's footprint, the hexside to be
//! drawn, the hovered hex) and the ghost of a counter being dragged.

use crate::context::ViewContext;
use crate::layers::scenario::ScenarioLayer;
use crate::layers::{MapFrame, MapLayer, MapLayerKind};

/// The tool's feedback; the scenario layer's drag is read for the ghost.
pub struct ToolFeedback<'l>(pub &'l ScenarioLayer);

impl MapLayer for ToolFeedback<'_> {
    fn kind(&self) -> MapLayerKind {
        MapLayerKind::ToolFeedback
    }

    fn paint(&mut self, cx: &ViewContext<'_>, map: &MapFrame<'_>) {
        let grid = &cx.doc.map.grid;
        if let Some(sel) = cx.selection.hex {
            let stroke = egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 200, 0));
            cx.view
                .outline_hex(map.painter, grid, map.rect, sel, stroke);
            cx.tools
                .tool
                .imp()
                .cursor_feedback(&crate::tools::Feedback {
                    state: cx.tools,
                    doc: cx.doc,
                    view: cx.view,
                    painter: map.painter,
                    rect: map.rect,
                    hover: sel,
                    pointer: None,
                });
        }
        if let Some(hover) = cx.hovered {
            cx.tools.tool.imp().feedback(&crate::tools::Feedback {
                state: cx.tools,
                doc: cx.doc,
                view: cx.view,
                painter: map.painter,
                rect: map.rect,
                hover,
                pointer: map.pointer,
            });
        }
        self.0.paint_drag(cx, map.painter, map.rect, map.pointer);
    }
}
