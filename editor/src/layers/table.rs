//! View ▸ Table overlay as a map layer: the miniatures table drawn over the map at its ground
//! scale (the counters off it ringed), and its tag, which takes the pointer to drag the table.
//! The overlay's state and geometry are `map::table_overlay`'s; the document is not changed.

use crate::context::ViewContext;
use crate::layers::{MapFrame, MapLayer, MapLayerKind, MapPointer};
use crate::map::table_overlay::{PointerState, TableOverlay};

/// The table overlay, lent for the frame.
pub struct TableLayer<'t>(pub &'t mut TableOverlay);

impl MapLayer for TableLayer<'_> {
    fn kind(&self) -> MapLayerKind {
        MapLayerKind::TableOverlay
    }

    fn paint(&mut self, cx: &ViewContext<'_>, map: &MapFrame<'_>) {
        if !self.0.shown {
            return;
        }
        let to_screen = |p: egui::Pos2| cx.view.to_screen(map.rect, p);
        self.0.paint(map.painter, &to_screen, map.rect);
    }

    /// The table's tag takes the pointer before the counters and the tools.
    fn input(
        &mut self,
        cx: &ViewContext<'_>,
        map: &MapFrame<'_>,
        pointer: &MapPointer<'_>,
    ) -> bool {
        let table = &mut *self.0;
        if !table.shown || pointer.modal_open {
            return false;
        }
        let rect = map.rect;
        let (pressed, down) = pointer
            .ui
            .input(|i| (i.pointer.primary_pressed(), i.pointer.primary_down()));
        let to_screen = |p: egui::Pos2| cx.view.to_screen(rect, p);
        let to_grid = |p: egui::Pos2| cx.view.to_grid(rect, p);
        let pos = map
            .pointer
            .filter(|p| rect.contains(*p) || table.dragging());
        let state = PointerState {
            pos,
            pressed,
            down,
            hovered: pointer.response.contains_pointer(),
        };
        table.input(&to_screen, &to_grid, rect, state)
    }
}
