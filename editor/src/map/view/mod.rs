//! The map view: pan and zoom, and drawing the map from cached meshes per chunk of hexes
//! (terrain fill, patterns, outlines, hexside features, road casings, roads, overlays — the
//! shapes of `bataille render`'s symbology, see [`mesh`]), rebuilt only for the chunks an edit
//! touched and culled to the view; hex names and labels as text above a zoom threshold.

mod cache;
pub mod mesh;
mod overview;
mod placing;

use cache::Cache;
use mesh::*;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use bataille_schema::map::{Grid, OverlaySymbol};
use bataille_schema::{Colour, HexIndex, Id, Side};
use egui::epaint::Mesh;
use egui::{Color32, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};

use crate::model::document::{Document, Touched};

/// Hexes per chunk side: a chunk is `CHUNK × CHUNK` hexes.
pub const CHUNK: u32 = 16;
/// Screen points per grid unit (hex circumradius) at 100 % zoom.
pub const ZOOM_100: f32 = 24.0;
/// Smallest and largest zoom, in points per grid unit.
pub const ZOOM_MIN: f32 = 0.5;
pub const ZOOM_MAX: f32 = 400.0;
/// Patterns and outlines are drawn from this zoom up (points per grid unit).
pub const DETAIL_ZOOM: f32 = 7.0;
/// Hex names are drawn from this zoom up.
pub const NAMES_ZOOM: f32 = 26.0;
/// Labels are drawn from this zoom up.
pub const LABELS_ZOOM: f32 = 3.0;
/// Place names are never drawn smaller than this (points), so that a zoomed-out map still
/// names its places.
pub const LABEL_MIN_POINTS: f32 = 9.0;

/// Which layers are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    pub terrain: bool,
    pub overlays: bool,
    pub hexsides: bool,
    pub labels: bool,
    pub hex_names: bool,
    pub grid: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            terrain: true,
            overlays: true,
            hexsides: true,
            labels: true,
            hex_names: true,
            grid: true,
        }
    }
}

/// The view's layers, bottom first (the scan goes between `PATTERN` and `OUTLINE`).
pub const FILL: usize = 0;
pub const PATTERN: usize = 1;
pub const OUTLINE: usize = 2;
pub const HEXSIDES: usize = 3;
pub const ROAD_CASING: usize = 4;
pub const ROADS: usize = 5;
pub const OVERLAYS: usize = 6;
pub const MESHES: usize = 7;

/// A hexside feature of a chunk, on the side the file names it by.
#[derive(Debug, Clone, PartialEq)]
pub struct SideFeature {
    pub id: Id,
    pub hex: HexIndex,
    pub side: Side,
}

struct Chunk {
    cols: (u32, u32),
    rows: (u32, u32),
    /// Grid-space bounds, with room for what is drawn past the hexes' edges.
    bounds: Rect,
    /// Grid-space meshes; `None` when dirty.
    meshes: Option<[Arc<Mesh>; MESHES]>,
    /// Screen-space copies for the last transform.
    screen: [Option<(ScreenKey, Arc<Mesh>)>; MESHES],
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct ScreenKey {
    zoom: f32,
    offset: Vec2,
}

/// A colour from the file, or a fallback when it is malformed.
pub fn colour32(colour: &Colour, fallback: Color32) -> Color32 {
    colour
        .rgb()
        .map_or(fallback, |[r, g, b]| Color32::from_rgb(r, g, b))
}

/// The drawing state of the map: where the view is, the layers shown, the mesh cache.
pub struct MapView {
    /// Screen points per grid unit.
    pub zoom: f32,
    /// The grid point shown at the centre of the view.
    pub centre: Pos2,
    pub layers: Layers,
    /// Fit the map to the view on the next frame.
    pub fit_pending: bool,
    /// The screen rectangle of the last frame: when a panel beside the map grows or shrinks,
    /// the map stays where it was on screen.
    shown_in: Option<Rect>,
    /// The centre and zoom the last fit gave, and whether that fit was made in a rectangle
    /// still settling (then it is made again until the rectangle settles or the view moves).
    fitted: Option<(Pos2, f32)>,
    settling: bool,
    cache: RefCell<Cache>,
    /// Chunks rebuilt so far (for tests and benchmarks).
    rebuilt_chunks: Cell<usize>,
}

impl Default for MapView {
    fn default() -> Self {
        Self {
            zoom: ZOOM_100,
            centre: Pos2::ZERO,
            layers: Layers::default(),
            fit_pending: true,
            shown_in: None,
            fitted: None,
            settling: false,
            cache: RefCell::default(),
            rebuilt_chunks: Cell::new(0),
        }
    }
}

fn p(xy: [f32; 2]) -> Pos2 {
    pos2(xy[0], xy[1])
}

impl MapView {
    /// Forgets the view and the cache for a new document, keeping the layers shown.
    pub fn reset(&mut self) {
        *self = MapView {
            layers: self.layers,
            ..MapView::default()
        };
    }

    /// The zoom as a percentage of 100 %.
    pub fn zoom_percent(&self) -> f32 {
        self.zoom / ZOOM_100 * 100.0
    }

    /// Grid point → screen point.
    pub fn to_screen(&self, rect: Rect, point: Pos2) -> Pos2 {
        rect.center() + (point - self.centre) * self.zoom
    }

    /// Screen point → grid point.
    pub fn to_grid(&self, rect: Rect, pos: Pos2) -> Pos2 {
        self.centre + (pos - rect.center()) / self.zoom
    }

    /// The grid-space rectangle shown.
    pub fn visible_grid_rect(&self, rect: Rect) -> Rect {
        Rect::from_min_max(self.to_grid(rect, rect.min), self.to_grid(rect, rect.max))
    }

    /// The hex under a screen point.
    pub fn hex_at(&self, grid: &Grid, rect: Rect, pos: Pos2) -> Option<HexIndex> {
        let g = self.to_grid(rect, pos);
        grid.hex_at([g.x, g.y])
    }

    /// Shows the whole map.
    pub fn fit(&mut self, grid: &Grid, rect: Rect) {
        let (min, max) = grid.bounds();
        let size = vec2(max[0] - min[0], max[1] - min[1]).max(vec2(1.0, 1.0));
        let margin = 16.0;
        let avail = (rect.size() - vec2(margin, margin) * 2.0).max(vec2(10.0, 10.0));
        self.zoom = (avail.x / size.x)
            .min(avail.y / size.y)
            .clamp(ZOOM_MIN, ZOOM_MAX);
        self.centre = pos2((min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0);
        self.fit_pending = false;
        self.fitted = Some((self.centre, self.zoom));
    }

    /// Sets the zoom keeping the grid point under `anchor` (a screen point) in place.
    pub fn zoom_to(&mut self, rect: Rect, anchor: Pos2, zoom: f32) {
        let zoom = zoom.clamp(ZOOM_MIN, ZOOM_MAX);
        let under = self.to_grid(rect, anchor);
        self.zoom = zoom;
        // Keep `under` at `anchor`.
        self.centre = under - (anchor - rect.center()) / self.zoom;
    }

    /// Moves the view by a screen-space delta (the map follows the pointer).
    pub fn pan_by(&mut self, delta: Vec2) {
        self.centre -= delta / self.zoom;
    }

    /// How far the zoomed-out image of the map is, while it is painted off the UI thread.
    pub fn overview_painting(&self) -> Option<f32> {
        self.cache.borrow().overview.painting()
    }

    /// Chunks whose meshes were built since the view was made (for tests and benchmarks).
    pub fn rebuilt_chunks(&self) -> usize {
        self.rebuilt_chunks.get()
    }

    /// Drops every cached mesh (legend, grid or document change).
    pub fn invalidate_all(&mut self) {
        let cache = self.cache.get_mut();
        cache.grid_key = None;
        cache.overview.clear();
    }

    /// Marks what a change touched for rebuilding.
    pub fn invalidate(&mut self, doc: &Document, touched: &Touched) {
        if touched.all || self.cache.get_mut().grid_key.as_ref() != Some(&doc.map.grid) {
            self.invalidate_all();
            return;
        }
        self.cache.get_mut().invalidate(doc, touched);
    }

    /// Rebuilds the meshes of dirty chunks in view (or of all dirty chunks when `rect` is
    /// `None`). Returns how many were rebuilt.
    pub fn rebuild_dirty(&self, doc: &Document, view: Option<Rect>) -> usize {
        let count = self.cache.borrow_mut().rebuild_dirty(doc, view);
        self.rebuilt_chunks.set(self.rebuilt_chunks.get() + count);
        count
    }
}

impl MapView {
    /// Places the view in `rect` (see [`MapView::place`]) and draws the map there.
    pub fn paint(&mut self, painter: &egui::Painter, rect: Rect, doc: &Document) {
        self.place(&doc.map.grid, rect);
        let layers = self.layers;
        self.paint_with(painter, rect, doc, layers, |_, _| {});
    }

    /// Draws the map into `rect` with the `layers` shown (the view already placed there this
    /// frame: [`MapView::place`]), calling `under_lines` after the terrain (fill and patterns)
    /// and before the grid lines, hexsides and overlays: where the scan goes. Only the cache
    /// changes (chunks built, screen copies, the zoomed-out image), behind its `RefCell`.
    pub fn paint_with(
        &self,
        painter: &egui::Painter,
        rect: Rect,
        doc: &Document,
        layers: Layers,
        under_lines: impl FnOnce(&egui::Painter, &MapView),
    ) {
        let mut under_lines = Some(under_lines);
        let view = self.visible_grid_rect(rect);
        let key = ScreenKey {
            zoom: self.zoom,
            offset: rect.center().to_vec2() - self.centre.to_vec2() * self.zoom,
        };
        let detail = self.zoom >= DETAIL_ZOOM;
        let wanted = [
            layers.terrain,
            layers.terrain && detail,
            layers.grid && detail,
            layers.hexsides,
            layers.overlays,
            layers.overlays,
            layers.overlays,
        ];
        // Zoomed out, the terrain is one texture rather than six vertices per hex.
        let use_overview = wanted[FILL]
            && layers.hexsides
            && layers.overlays
            && !detail
            && overview::Overview::serves(doc, self.zoom, painter.ctx());
        // The overview holds everything drawn zoomed out (unless a scan lies between the
        // terrain and the features): no chunk mesh is needed then.
        let mut cache = self.cache.borrow_mut();
        let cache = &mut *cache;
        cache.prepare(doc);
        if !(use_overview && overview::Overview::with_features(doc)) {
            let count = cache.rebuild_dirty(doc, Some(view));
            self.rebuilt_chunks.set(self.rebuilt_chunks.get() + count);
        }
        let mut shapes = Vec::new();
        for (layer, &show) in wanted.iter().enumerate() {
            if layer == OUTLINE
                && let Some(f) = under_lines.take()
            {
                painter.extend(std::mem::take(&mut shapes));
                f(painter, self);
            }
            if !show {
                continue;
            }
            // The features are in the overview's image too (unless a scan lies between).
            if use_overview && cache.overview.features && layer > OUTLINE {
                continue;
            }
            if layer == FILL && use_overview {
                let texture = cache.overview.texture(painter.ctx(), doc).map(|t| t.id());
                if let Some(texture) = texture {
                    let grid_rect = cache.overview.grid_rect();
                    let screen = Rect::from_min_max(
                        self.to_screen(rect, grid_rect.min),
                        self.to_screen(rect, grid_rect.max),
                    );
                    shapes.push(overview::image_shape(texture, screen));
                    continue;
                }
            }
            for chunk in &mut cache.chunks {
                if !view.intersects(chunk.bounds) {
                    continue;
                }
                let Some(meshes) = &chunk.meshes else {
                    continue;
                };
                let source = &meshes[layer];
                if source.is_empty() {
                    continue;
                }
                let slot = &mut chunk.screen[layer];
                let mesh = match slot {
                    Some((k, mesh)) if *k == key => mesh.clone(),
                    _ => {
                        let mut mesh = Mesh::clone(source);
                        for v in &mut mesh.vertices {
                            v.pos = pos2(
                                v.pos.x * key.zoom + key.offset.x,
                                v.pos.y * key.zoom + key.offset.y,
                            );
                        }
                        let mesh = Arc::new(mesh);
                        *slot = Some((key, mesh.clone()));
                        mesh
                    }
                };
                shapes.push(Shape::Mesh(mesh));
            }
        }
        painter.extend(shapes);
        if use_overview {
            cache.overview.paint_progress(painter, rect);
        }
        self.paint_text(painter, rect, doc, view, layers, &cache.chunks);
    }

    /// Hex names and place names as `bataille render` prints them (the symbology's text items,
    /// in its font: [`crate::map::text`]); place names keep at least [`LABEL_MIN_POINTS`] when
    /// zoomed out.
    fn paint_text(
        &self,
        painter: &egui::Painter,
        rect: Rect,
        doc: &Document,
        view: Rect,
        layers: Layers,
        chunks: &[Chunk],
    ) {
        let grid = &doc.map.grid;
        let layout = symbology_layout();
        let installed = crate::map::text::installed(painter.ctx());
        let mut shapes = Vec::new();
        let mut draw = |d: &bataille_render::symbology::Drawing, min_size: f32| {
            let mut scratch = Mesh::default();
            for text in crate::map::tessellate::append(&mut scratch, d, to_grid()) {
                crate::map::text::text_shapes(
                    &mut shapes,
                    painter,
                    &text.text,
                    &text.style,
                    self.to_screen(rect, text.pos),
                    text.anchor,
                    (text.size * self.zoom).max(min_size),
                    installed,
                );
            }
        };
        if layers.hex_names && self.zoom >= NAMES_ZOOM {
            for chunk in chunks {
                if !view.intersects(chunk.bounds) {
                    continue;
                }
                for row in chunk.rows.0..chunk.rows.1 {
                    for col in chunk.cols.0..chunk.cols.1 {
                        let hex = HexIndex::new(col, row);
                        if !view.expand(1.0).contains(p(grid.centre(hex))) {
                            continue;
                        }
                        let mut d = bataille_render::symbology::Drawing::new();
                        bataille_render::symbology::part::hex_name(&mut d, &doc.map, &layout, hex);
                        draw(&d, 0.0);
                    }
                }
            }
        }
        if layers.labels && self.zoom >= LABELS_ZOOM {
            let paper = bataille_render::RenderOptions::default().paper;
            for (hex, text) in &doc.map.labels {
                let Some(index) = grid.lookup(hex) else {
                    continue;
                };
                if !view.expand(4.0).contains(p(grid.centre(index))) {
                    continue;
                }
                let mut d = bataille_render::symbology::Drawing::new();
                bataille_render::symbology::part::label(
                    &mut d, &doc.map, &layout, index, text, paper,
                );
                draw(&d, LABEL_MIN_POINTS);
            }
        }
        painter.extend(shapes);
    }

    /// The hex's outline on screen.
    pub fn hex_outline(&self, grid: &Grid, rect: Rect, hex: HexIndex) -> Vec<Pos2> {
        grid.corners(hex)
            .iter()
            .map(|&c| self.to_screen(rect, p(c)))
            .collect()
    }

    /// Outlines a hex (hover, brush footprint).
    pub fn outline_hex(
        &self,
        painter: &egui::Painter,
        grid: &Grid,
        rect: Rect,
        hex: HexIndex,
        stroke: Stroke,
    ) {
        painter.add(Shape::closed_line(
            self.hex_outline(grid, rect, hex),
            stroke,
        ));
    }

    /// Highlights a hexside.
    pub fn highlight_side(
        &self,
        painter: &egui::Painter,
        grid: &Grid,
        rect: Rect,
        hex: HexIndex,
        side: Side,
        stroke: Stroke,
    ) {
        if let Some([a, b]) = grid.side_corners(hex, side) {
            painter.line_segment(
                [self.to_screen(rect, p(a)), self.to_screen(rect, p(b))],
                stroke,
            );
        }
    }

    /// The cached grid-space meshes, layer by layer (bottom first) and chunk by chunk within a
    /// layer, as [`MapView::paint`] draws them (for tests comparing with `bataille render`).
    pub fn grid_meshes(&self) -> Vec<(usize, Arc<Mesh>)> {
        let mut out = Vec::new();
        let cache = self.cache.borrow();
        for layer in 0..MESHES {
            for chunk in &cache.chunks {
                if let Some(meshes) = &chunk.meshes {
                    out.push((layer, meshes[layer].clone()));
                }
            }
        }
        out
    }

    /// Total vertices cached (for benchmarks).
    pub fn cached_vertices(&self) -> usize {
        self.cache
            .borrow()
            .chunks
            .iter()
            .filter_map(|c| c.meshes.as_ref())
            .map(|m| m.iter().map(|m| m.vertices.len()).sum::<usize>())
            .sum()
    }
}
