//! The bottom of the map: the scan being digitised and the painted terrain, as map layers
//! handed the read-only context like the others. The terrain is the map view's cached chunk
//! meshes (`map::view`: fills, patterns, grid lines, hexsides, roads, overlays, names), whose
//! cache fills in behind the view's `RefCell` as it paints. The scan is drawn by the terrain
//! layer between the terrain's fills and its grid lines (`MapView::paint_with`), so that the
//! grid and the map's features read over it and the flicker shows the scan's own rivers; the
//! scan's layer holds the click of the legend's eyedropper, which takes the scan's colour.

use crate::context::CommandSender;
use crate::context::ViewContext;
use crate::layers::{MapFrame, MapLayer, MapLayerKind, MapPointer, ModeClick};
use crate::map::scan::{image_point, paint_scan, patch_colour};
use crate::model::document::Document;
use crate::services::digitise::Digitise;

/// What the eyedropper changes: the legend editor's colour (a panel, which the layers come
/// before; `panels::legend` implements it).
pub trait Eyedropper {
    /// Whether the next click on the map takes the scan's colour.
    fn picking(&self) -> bool;
    /// The scan's colour under the click: the legend's colour takes it (one edit, sent).
    fn take_colour(&mut self, doc: &Document, rgb: [u8; 3], commands: &CommandSender);
    /// The click missed the scan: why, shown in the legend editor.
    fn missed(&mut self, message: String);
}

/// The scan's layer: painted by [`Terrain`] under the grid lines; its input is the legend's
/// eyedropper (issue 11, trip 9): while it is on, a click on the map takes the scan's colour
/// under the pointer (the median of a small patch, so halftone dots and JPEG noise do not
/// decide) for the legend's colour, applied as one edit.
pub struct Scan<'l> {
    pub legend: &'l mut dyn Eyedropper,
    pub digitise: &'l Digitise,
}

impl MapLayer for Scan<'_> {
    fn kind(&self) -> MapLayerKind {
        MapLayerKind::Scan
    }

    /// Nothing of its own: the terrain layer draws the scan between its fills and its lines.
    fn paint(&mut self, _cx: &ViewContext<'_>, _map: &MapFrame<'_>) {}

    /// The eyedropper is a click mode: while it is on it holds every click (the tools and the
    /// layers above leave the map alone).
    fn mode_input(
        &mut self,
        cx: &ViewContext<'_>,
        map: &MapFrame<'_>,
        pointer: &MapPointer<'_>,
    ) -> bool {
        let on = self.legend.picking();
        let click = ModeClick::read(on, pointer.response, map.pointer, pointer.panning);
        let ModeClick::Click(pos) = click else {
            return click.held();
        };
        let (Some(scan), Some(bg)) = (self.digitise.scan.as_ref(), cx.doc.map.background.as_ref())
        else {
            return true;
        };
        let px = image_point(cx.view, map.rect, &bg.grid_to_image, pos);
        match patch_colour(&scan.scan, px) {
            Some(rgb) => self.legend.take_colour(cx.doc, rgb, cx.commands),
            None => {
                self.legend.missed(format!(
                    "no scan at that point (pixel {:.0}, {:.0}): click on the scan",
                    px[0], px[1]
                ));
            }
        }
        true
    }
}

/// The painted map, with the scan between the terrain and the grid lines (the flicker's scan
/// phase shows the scan's own rivers and symbols, not the map's).
pub struct Terrain<'l> {
    pub digitise: &'l Digitise,
}

impl MapLayer for Terrain<'_> {
    fn kind(&self) -> MapLayerKind {
        MapLayerKind::Terrain
    }

    fn paint(&mut self, cx: &ViewContext<'_>, map: &MapFrame<'_>) {
        let time = map.painter.ctx().input(|i| i.time);
        let (opacity, scan_alone) = self.digitise.scan_opacity(time);
        let mut layers = cx.view.layers;
        if scan_alone {
            layers.hexsides = false;
            layers.overlays = false;
            layers.labels = false;
        }
        let scan = self.digitise.scan.as_ref();
        let background = cx.doc.map.background.as_ref();
        let rect = map.rect;
        cx.view
            .paint_with(map.painter, rect, cx.doc, layers, |painter, view| {
                if let (Some(loaded), Some(bg)) = (scan, background) {
                    let matrix = &bg.grid_to_image;
                    paint_scan(painter, view, rect, loaded, matrix, opacity);
                }
            });
    }
}
