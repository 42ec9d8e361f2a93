//! The digitising marks over the map: the calibration points (with a line to where the fit
//! puts their hex, the one the check doubts circled), the suggestions' tint or confidence, the
//! checked hexes; and the map clicks of the digitise modes (a calibration point, a sample hex,
//! a sample hexside). The scan itself is painted under the grid lines with the map (the app's
//! frame, which holds the map view's meshes). The session it reads and marks, [`Digitise`],
//! is the app's, lent for the call; a new calibration goes out as `AppCommand::SetBackground`.

use egui::{Color32, Painter, Pos2, Rect, Stroke, pos2, vec2};

use crate::context::{AppCommand, ViewContext};
use crate::layers::ModeClick;
use crate::map::scan::{image_point, screen_point};
use crate::services::digitise::{Digitise, Mode, Tab};
use crate::tools::HEXSIDE_REACH;

/// A point's residual above this many pixels is shown in red (the panel's table too).
pub const RESIDUAL_WARN_PX: f64 = 5.0;

/// The scan's map layer: it keeps no state of its own (the points, samples and modes it shows
/// are the digitise session's, which the panel changes too).
#[derive(Debug, Default)]
pub struct ScanLayer;

impl ScanLayer {
    /// Paints the marks of the open tab over the map.
    pub fn paint(&self, ctx: &ViewContext<'_>, digitise: &Digitise, painter: &Painter, rect: Rect) {
        if !digitise.open {
            return;
        }
        match digitise.tab {
            Tab::Calibrate => paint_calibration(ctx, digitise, painter, rect),
            Tab::Terrain | Tab::Hexsides => {
                digitise.suggest.paint(painter, ctx.view, rect, ctx.doc);
            }
            Tab::Check if digitise.show_checked => paint_checked(ctx, painter, rect),
            Tab::Check | Tab::Scan => {}
        }
    }

    /// This frame's pointer on the map in a digitise mode; returns whether the mode holds the
    /// pointer (the map's tools then do nothing).
    pub fn input(
        &mut self,
        ctx: &ViewContext<'_>,
        digitise: &mut Digitise,
        response: &egui::Response,
        rect: Rect,
        pointer: Option<Pos2>,
        panning: bool,
    ) -> bool {
        let on = digitise.open && digitise.mode != Mode::Idle;
        let click = ModeClick::read(on, response, pointer, panning);
        let ModeClick::Click(pos) = click else {
            return click.held();
        };
        let map = &ctx.doc.map;
        let g = ctx.view.to_grid(rect, pos);
        let hex = map.grid.hex_at([g.x, g.y]);
        match digitise.mode {
            Mode::Idle => {}
            Mode::Calibrate => {
                if let Some(bg) = &map.background {
                    let px = image_point(ctx.view, rect, &bg.grid_to_image, pos);
                    // A click added after refining does not move the grid the print placed.
                    if let Some(next) = digitise
                        .calibration
                        .click(&map.grid, bg, px, hex)
                        .and_then(|next| digitise.print_refine.keep_refined(bg, next))
                    {
                        ctx.send(AppCommand::SetBackground {
                            label: "Calibrate".into(),
                            after: Some(Box::new(next)),
                        });
                    }
                }
            }
            Mode::SampleTerrain => {
                if let Some(hex) = hex {
                    digitise.suggest.toggle_sample(hex, ctx.tools.terrain);
                }
            }
            Mode::SampleHexside => {
                if let Some(hex) = hex
                    && let Some((side, d)) = map.grid.nearest_side(hex, [g.x, g.y])
                    && d <= HEXSIDE_REACH
                {
                    digitise.suggest.toggle_side_sample(&map.grid, hex, side);
                }
            }
        }
        true
    }
}

/// The clicked points: a cross coloured by residual, the number and hex name, a line to where
/// the fit puts the hex's centre; the point the check doubts circled in red.
fn paint_calibration(ctx: &ViewContext<'_>, digitise: &Digitise, painter: &Painter, rect: Rect) {
    let Some(bg) = &ctx.doc.map.background else {
        return;
    };
    let grid = &ctx.doc.map.grid;
    let calibration = &digitise.calibration;
    let suspect = calibration.suspect_row();
    for (i, row) in calibration.points.iter().enumerate() {
        let at = screen_point(ctx.view, rect, &bg.grid_to_image, [row.x, row.y]);
        let colour = match calibration.residual(i) {
            Some(r) if r > RESIDUAL_WARN_PX => Color32::from_rgb(255, 60, 0),
            Some(_) => Color32::from_rgb(0, 200, 90),
            None => Color32::from_rgb(255, 220, 0),
        };
        let s = 9.0;
        let stroke = Stroke::new(2.5, colour);
        painter.line_segment([at - vec2(s, 0.0), at + vec2(s, 0.0)], stroke);
        painter.line_segment([at - vec2(0.0, s), at + vec2(0.0, s)], stroke);
        painter.circle_stroke(at, s * 0.6, Stroke::new(1.0, Color32::BLACK));
        if suspect == Some(i) {
            painter.circle_stroke(at, s * 1.8, Stroke::new(2.5, Color32::from_rgb(255, 0, 0)));
        }
        let text = if row.hex.trim().is_empty() {
            format!("{}", i + 1)
        } else {
            format!("{} {}", i + 1, row.hex.trim())
        };
        painter.text(
            at + vec2(s, -s),
            egui::Align2::LEFT_BOTTOM,
            text,
            egui::FontId::proportional(13.0),
            colour,
        );
        // Where the fit puts the named hex's centre.
        if let Ok(index) = grid.parse(row.hex.trim()) {
            let [x, y] = grid.centre(index);
            let fitted = ctx.view.to_screen(rect, pos2(x, y));
            painter.line_segment(
                [at, fitted],
                Stroke::new(1.5, Color32::from_rgb(255, 0, 200)),
            );
        }
    }
}

/// A green tick on each hex in view marked as checked against the scan.
fn paint_checked(ctx: &ViewContext<'_>, painter: &Painter, rect: Rect) {
    let grid = &ctx.doc.map.grid;
    let view = ctx.view;
    let visible = view.visible_grid_rect(rect).expand(1.5);
    let green = Color32::from_rgb(20, 150, 60);
    let s = (view.zoom * 0.25).clamp(3.0, 12.0);
    for name in &ctx.doc.map.checked {
        let Some(hex) = grid.lookup(name) else {
            continue;
        };
        let [x, y] = grid.centre(hex);
        if !visible.contains(pos2(x, y)) {
            continue;
        }
        let c = view.to_screen(rect, pos2(x, y));
        painter.add(egui::Shape::line(
            vec![
                c + vec2(-s, 0.0),
                c + vec2(-s * 0.3, s * 0.7),
                c + vec2(s, -s * 0.8),
            ],
            Stroke::new((s * 0.35).max(1.5), green),
        ));
    }
}

/// The digitising marks and clicks as a map layer: the scan's layer with the session lent.
pub struct Suggestions<'l> {
    pub layer: &'l mut ScanLayer,
    pub digitise: &'l mut Digitise,
}

impl crate::layers::MapLayer for Suggestions<'_> {
    fn kind(&self) -> crate::layers::MapLayerKind {
        crate::layers::MapLayerKind::Suggestions
    }
    fn paint(&mut self, cx: &ViewContext<'_>, map: &crate::layers::MapFrame<'_>) {
        self.layer.paint(cx, self.digitise, map.painter, map.rect);
    }
    fn input(
        &mut self,
        cx: &ViewContext<'_>,
        map: &crate::layers::MapFrame<'_>,
        pointer: &crate::layers::MapPointer<'_>,
    ) -> bool {
        let (response, panning) = (pointer.response, pointer.panning);
        self.layer
            .input(cx, self.digitise, response, map.rect, map.pointer, panning)
    }
}
