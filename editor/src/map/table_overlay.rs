//! The table overlay (View ▸ Table overlay): a miniatures table of a chosen size (180 × 120 cm)
//! drawn over the hex map at a rules system's ground scale, with every counter's bases at true
//! size, draggable by its tag, the counters that do not fit wholly on it marked. The scale, the
//! bases and the "on the table" test are `bataille-table`'s ([`bataille_table::layout`],
//! [`Layout::on_table`]), the very computations of `bataille table --table`: nothing is copied.
//!
//! Positions are table millimetres of the whole map, as `bataille-table` has them: the first
//! hex's centre is the origin and a grid point `p` is at `p × mm_per_grid`.

use bataille_schema::system::System;
use bataille_schema::{Id, Map, Scenario};
use bataille_table::{Layout, TableSize};
use egui::{Color32, Pos2, Rect, Shape, Stroke, pos2, vec2};
use serde::{Deserialize, Serialize};

/// What the layout was computed from.
#[derive(Debug, Clone, PartialEq)]
struct LayoutKey {
    revision: u64,
    system: Id,
    figures: String,
}

/// The table overlay's choices, remembered between runs (its place on the map is the
/// document's, and is not).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TableSettings {
    /// The miniatures system chosen (`age-of-honor`), used when the scenario names it.
    pub system: Option<String>,
    /// The figure scale (`15mm`), used when the system has it.
    pub figures: String,
    /// The table as typed (`180x120cm`, `6x4ft`); empty: the default.
    pub table: String,
    /// Width and height swapped.
    pub turned: bool,
}

/// The overlay's state.
#[derive(Debug, Default)]
pub struct TableOverlay {
    pub shown: bool,
    /// The system chosen among the scenario's `miniatures`.
    pub system: Option<Id>,
    /// The figure scale chosen among the system's (`15mm`).
    pub figures: String,
    /// The table as typed (`180x120cm`, `6x4ft`).
    pub table_text: String,
    /// Width and height swapped.
    pub turned: bool,
    /// The table's top-left corner, in table millimetres of the whole map; `None`: placed where
    /// it holds the most units when the layout is next made.
    pub origin_mm: Option<[f64; 2]>,
    /// The table size (mm) the best place was found for; `None` once the table was dragged by
    /// hand, which keeps it where the user put it.
    placed_for: Option<[f64; 2]>,
    layout: Option<(LayoutKey, Result<Layout, String>)>,
    /// While dragging: the grab point's offset from the corner, in millimetres.
    drag: Option<[f64; 2]>,
}

/// The pointer over the map this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointerState {
    pub pos: Option<Pos2>,
    /// The primary button went down this frame.
    pub pressed: bool,
    /// The primary button is down.
    pub down: bool,
    /// The map has the pointer (no window over it).
    pub hovered: bool,
}

/// The table the overlay starts with.
pub const DEFAULT_TABLE: &str = "180x120cm";

impl TableOverlay {
    pub fn new() -> TableOverlay {
        TableOverlay::from_settings(&TableSettings::default())
    }

    /// The table's size in millimetres (width along the map's x), or why the text does not read.
    pub fn size_mm(&self) -> Result<[f64; 2], String> {
        let text = if self.table_text.trim().is_empty() {
            DEFAULT_TABLE
        } else {
            self.table_text.trim()
        };
        let size: TableSize = text.parse()?;
        Ok(if self.turned {
            [size.height_mm, size.width_mm]
        } else {
            [size.width_mm, size.height_mm]
        })
    }

    /// Lays the scenario out again when the document, the system or the figure scale changed
    /// (`revision` is the document's). A first layout places the table where it holds the most
    /// units, as `bataille table --table` does.
    /// A table not moved by hand also goes to its best place again when its size changes
    /// (another table typed, or turned).
    pub fn refresh(&mut self, revision: u64, scenario: &Scenario, map: &Map, system: &System) {
        let key = LayoutKey {
            revision,
            system: system.id.clone(),
            figures: self.figures.clone(),
        };
        if self.layout.as_ref().is_some_and(|(k, _)| *k == key) {
            let resized = self
                .placed_for
                .is_some_and(|placed| self.size_mm().is_ok_and(|size| size != placed));
            if resized {
                self.best_place(map);
            }
            return;
        }
        let layout =
            bataille_table::layout(scenario, map, system, &self.figures).map_err(|e| e.to_string());
        let rescaled = self
            .layout
            .as_ref()
            .is_some_and(|(k, _)| k.system != key.system || k.figures != key.figures);
        let place = self.origin_mm.is_none() || rescaled;
        self.layout = Some((key, layout));
        if place {
            self.best_place(map);
        }
    }

    /// The overlay with the choices remembered from another run.
    pub fn from_settings(settings: &TableSettings) -> TableOverlay {
        let table_text = if settings.table.trim().is_empty() {
            DEFAULT_TABLE.to_owned()
        } else {
            settings.table.clone()
        };
        TableOverlay {
            system: settings.system.as_deref().map(Id::from),
            figures: settings.figures.clone(),
            table_text,
            turned: settings.turned,
            ..TableOverlay::default()
        }
    }

    /// The choices to remember for the next run.
    pub fn settings(&self) -> TableSettings {
        TableSettings {
            system: self.system.as_ref().map(|id| id.to_string()),
            figures: self.figures.clone(),
            table: self.table_text.clone(),
            turned: self.turned,
        }
    }

    /// Forgets the layout and the table's place (another document); the choices stay (the
    /// system falls back to one the new scenario names when it does not name this one).
    pub fn reset(&mut self) {
        self.layout = None;
        self.origin_mm = None;
        self.placed_for = None;
        self.drag = None;
    }

    /// Places the table where it holds the most units (and keeps it there as its size changes,
    /// until it is dragged).
    pub fn best_place(&mut self, map: &Map) {
        if let (Some((_, Ok(layout))), Ok(size)) = (&self.layout, self.size_mm()) {
            self.origin_mm = Some(layout.best_window(map, size));
            self.placed_for = Some(size);
        }
    }

    /// The layout, or why there is none.
    pub fn layout(&self) -> Option<&Result<Layout, String>> {
        self.layout.as_ref().map(|(_, l)| l)
    }

    fn ready(&self) -> Option<(&Layout, [f64; 2], [f64; 2])> {
        let (_, Ok(layout)) = self.layout.as_ref()? else {
            return None;
        };
        Some((layout, self.origin_mm?, self.size_mm().ok()?))
    }

    /// The table's rectangle in grid units (map coordinates).
    pub fn grid_rect(&self) -> Option<Rect> {
        let (layout, origin, size) = self.ready()?;
        let k = layout.mm_per_grid;
        let min = pos2((origin[0] / k) as f32, (origin[1] / k) as f32);
        Some(Rect::from_min_size(
            min,
            vec2((size[0] / k) as f32, (size[1] / k) as f32),
        ))
    }

    /// The indices (in the layout's `units`) of the counters not wholly on the table.
    pub fn outside(&self) -> Vec<usize> {
        let Some((layout, origin, size)) = self.ready() else {
            return Vec::new();
        };
        layout
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| !Layout::on_table(u, origin, size))
            .map(|(i, _)| i)
            .collect()
    }

    /// The names (and hexes) of the counters not wholly on the table.
    pub fn outside_names(&self) -> Vec<String> {
        let Some((layout, _, _)) = self.ready() else {
            return Vec::new();
        };
        self.outside()
            .into_iter()
            .filter_map(|i| layout.units.get(i))
            .map(|u| format!("{} ({})", u.name, u.hex))
            .collect()
    }

    /// The tag's rectangle on screen (the handle the table is dragged by): in the table's
    /// top-left corner, kept inside the map's view (`view`) while the table is in it.
    pub fn handle(
        &self,
        to_screen: &dyn Fn(Pos2) -> Pos2,
        view: Rect,
        font: &egui::FontId,
    ) -> Option<Rect> {
        let r = self.grid_rect()?;
        let table = Rect::from_min_max(to_screen(r.min), to_screen(r.max));
        let width = 1.0 * font.size + 0.55 * font.size * self.tag_text().chars().count() as f32;
        let size = vec2(width.min(640.0), font.size * 1.8);
        let shown = table.intersect(view.shrink(3.0));
        let at = if shown.is_positive() {
            let max = (shown.max - size).max(shown.min);
            (table.min + vec2(3.0, 3.0)).clamp(shown.min, max)
        } else {
            table.min + vec2(3.0, 3.0)
        };
        Some(Rect::from_min_size(at, size))
    }

    fn tag_text(&self) -> String {
        let Some((layout, _, size)) = self.ready() else {
            return String::new();
        };
        format!(
            "Table {:.0} × {:.0} cm · {} · 1 mm = {} m",
            size[0] / 10.0,
            size[1] / 10.0,
            self.figures,
            (layout.metres_per_mm * 100.0).round() / 100.0
        )
    }

    /// Draws the table, its 30 cm grid, every counter's bases, the counters off the table
    /// (a red ring at their hex) and the tag.
    pub fn paint(&self, painter: &egui::Painter, to_screen: &dyn Fn(Pos2) -> Pos2, view: Rect) {
        let Some((layout, origin, size)) = self.ready() else {
            return;
        };
        let Some(r) = self.grid_rect() else {
            return;
        };
        let k = layout.mm_per_grid;
        let screen = Rect::from_min_max(to_screen(r.min), to_screen(r.max));
        let felt = Color32::from_rgba_unmultiplied(40, 110, 60, 38);
        let edge = Color32::from_rgb(20, 90, 40);
        painter.rect_filled(screen, 0.0, felt);
        // A 30 cm grid (1 ft when the table was given in feet or inches).
        let imperial = self.table_text.contains("in") || self.table_text.contains("ft");
        let step = if imperial { 304.8 } else { 300.0 };
        let grid_stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(20, 90, 40, 110));
        let mut x = step;
        while x < size[0] - 1.0 {
            let gx = ((origin[0] + x) / k) as f32;
            painter.line_segment(
                [to_screen(pos2(gx, r.min.y)), to_screen(pos2(gx, r.max.y))],
                grid_stroke,
            );
            x += step;
        }
        let mut y = step;
        while y < size[1] - 1.0 {
            let gy = ((origin[1] + y) / k) as f32;
            painter.line_segment(
                [to_screen(pos2(r.min.x, gy)), to_screen(pos2(r.max.x, gy))],
                grid_stroke,
            );
            y += step;
        }
        painter.rect_stroke(
            screen,
            0.0,
            Stroke::new(3.0, edge),
            egui::StrokeKind::Middle,
        );
        // Bases at true size.
        let outside = self.outside();
        let grid_of = |p: [f64; 2]| to_screen(pos2((p[0] / k) as f32, (p[1] / k) as f32));
        let mut shapes = Vec::new();
        for (i, unit) in layout.units.iter().enumerate() {
            let off = outside.binary_search(&i).is_ok();
            let (s, c) = unit.bearing.to_radians().sin_cos();
            let colour = if off {
                Color32::from_rgb(200, 30, 30)
            } else {
                Color32::from_rgb(30, 30, 30)
            };
            for base in unit.bases() {
                let (hw, hd) = (base.frontage_mm / 2.0, base.depth_mm / 2.0);
                let corners = [[-hw, -hd], [hw, -hd], [hw, hd], [-hw, hd]].map(|[x, y]| {
                    grid_of([
                        base.centre[0] + x * c - y * s,
                        base.centre[1] + x * s + y * c,
                    ])
                });
                shapes.push(Shape::closed_line(
                    corners.to_vec(),
                    Stroke::new(1.0, colour),
                ));
            }
            if off {
                let centre = grid_of(unit.hex_centre);
                let radius = (to_screen(pos2(1.0, 0.0)).x - to_screen(pos2(0.0, 0.0)).x)
                    .abs()
                    .clamp(6.0, 60.0);
                shapes.push(Shape::circle_stroke(
                    centre,
                    radius * 0.9,
                    Stroke::new(3.0, Color32::from_rgb(220, 30, 30)),
                ));
            }
        }
        painter.extend(shapes);
        // The tag.
        let font = egui::FontId::proportional(13.0);
        if let Some(tag) = self.handle(to_screen, view, &font) {
            painter.rect_filled(tag, 3.0, edge);
            painter.text(
                tag.left_center() + vec2(6.0, 0.0),
                egui::Align2::LEFT_CENTER,
                self.tag_text(),
                font,
                Color32::WHITE,
            );
        }
    }

    /// Pointer input: a press on the tag (`hovered`: the map, not a window over it, has the
    /// pointer) starts a drag, moving the pointer moves the table, releasing ends it. Returns
    /// whether the overlay took the pointer this frame.
    pub fn input(
        &mut self,
        to_screen: &dyn Fn(Pos2) -> Pos2,
        to_grid: &dyn Fn(Pos2) -> Pos2,
        view: Rect,
        pointer: PointerState,
    ) -> bool {
        let PointerState {
            pos: pointer,
            pressed,
            down,
            hovered,
        } = pointer;
        let Some(pointer) = pointer else {
            return self.drag.is_some();
        };
        let Some((layout, origin, _)) = self.ready() else {
            self.drag = None;
            return false;
        };
        let k = layout.mm_per_grid;
        let g = to_grid(pointer);
        let at_mm = [f64::from(g.x) * k, f64::from(g.y) * k];
        if let Some(offset) = self.drag {
            self.origin_mm = Some([at_mm[0] - offset[0], at_mm[1] - offset[1]]);
            self.placed_for = None;
            if !down {
                self.drag = None;
            }
            return true;
        }
        let font = egui::FontId::proportional(13.0);
        if pressed
            && hovered
            && self
                .handle(to_screen, view, &font)
                .is_some_and(|h| h.contains(pointer))
        {
            self.drag = Some([at_mm[0] - origin[0], at_mm[1] - origin[1]]);
            return true;
        }
        false
    }

    /// Whether the table is being dragged.
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }
}
