//! The map view: pan and zoom, and drawing the map from cached meshes per chunk of hexes
//! (terrain fill, patterns, outlines, hexside features, road casings, roads, overlays — the
//! shapes of `bataille render`'s symbology, see [`mesh`]), rebuilt only for the chunks an edit
//! touched and culled to the view; hex names and labels as text above a zoom threshold.

pub mod mesh;
mod overview;
mod placing;

use mesh::*;
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
    chunks: Vec<Chunk>,
    chunk_cols: u32,
    /// The grid the cache was built for.
    grid_key: Option<Grid>,
    /// Hexside features by canonical (hex, side), keyed by chunk for range queries.
    side_index: BTreeMap<(usize, HexIndex, Side), Vec<SideFeature>>,
    /// Chunks rebuilt since the counter was last read (for tests and benchmarks).
    pub rebuilt_chunks: usize,
    /// The terrain as one texture, for views zoomed out.
    overview: overview::Overview,
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
            chunks: Vec::new(),
            chunk_cols: 0,
            grid_key: None,
            side_index: BTreeMap::new(),
            rebuilt_chunks: 0,
            overview: overview::Overview::default(),
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
        self.overview.painting()
    }

    /// Drops every cached mesh (legend, grid or document change).
    pub fn invalidate_all(&mut self) {
        self.grid_key = None;
        self.overview.clear();
    }

    /// Marks what a change touched for rebuilding.
    pub fn invalidate(&mut self, doc: &Document, touched: &Touched) {
        if touched.all || self.grid_key.as_ref() != Some(&doc.map.grid) {
            self.invalidate_all();
            return;
        }
        let grid = &doc.map.grid;
        let mut dirty = HashSet::new();
        for &hex in &touched.hexes {
            // A hex's roads follow its road neighbours' (and their neighbours'), a bridge the
            // water around it: redraw the chunks within two hexes.
            let (c0, c1) = (
                hex.col.saturating_sub(2),
                (hex.col + 2).min(grid.columns - 1),
            );
            let (r0, r1) = (hex.row.saturating_sub(2), (hex.row + 2).min(grid.rows - 1));
            for (col, row) in [(c0, r0), (c1, r0), (c0, r1), (c1, r1)] {
                dirty.insert(self.chunk_of(HexIndex::new(col, row)));
            }
        }
        for side_ref in &touched.sides {
            let Ok((hex, side)) = grid.parse_hexside(side_ref.as_str()) else {
                continue;
            };
            let (canonical, canonical_side) = grid.canonical_hexside(hex, side);
            let chunk = self.chunk_of(canonical);
            let features: Vec<SideFeature> = doc
                .hexside_features(side_ref)
                .into_iter()
                .map(|id| SideFeature {
                    id: id.clone(),
                    hex,
                    side,
                })
                .collect();
            if features.is_empty() {
                self.side_index.remove(&(chunk, canonical, canonical_side));
            } else {
                self.side_index
                    .insert((chunk, canonical, canonical_side), features);
            }
            dirty.insert(chunk);
        }
        for chunk in dirty {
            if let Some(c) = self.chunks.get_mut(chunk) {
                c.meshes = None;
                c.screen = Default::default();
                self.overview.invalidate(c.bounds);
            }
        }
    }

    fn chunk_of(&self, hex: HexIndex) -> usize {
        (hex.row / CHUNK) as usize * self.chunk_cols as usize + (hex.col / CHUNK) as usize
    }

    /// Lays out the chunks and indexes the document when the grid or legend changed.
    fn prepare(&mut self, doc: &Document) {
        if self.grid_key.as_ref() == Some(&doc.map.grid) {
            return;
        }
        let grid = &doc.map.grid;
        self.overview.clear();
        self.chunk_cols = grid.columns.div_ceil(CHUNK);
        let chunk_rows = grid.rows.div_ceil(CHUNK);
        self.chunks.clear();
        for cr in 0..chunk_rows {
            for cc in 0..self.chunk_cols {
                let cols = (cc * CHUNK, ((cc + 1) * CHUNK).min(grid.columns));
                let rows = (cr * CHUNK, ((cr + 1) * CHUNK).min(grid.rows));
                let mut bounds = Rect::NOTHING;
                for (col, row) in [
                    (cols.0, rows.0),
                    (cols.1 - 1, rows.0),
                    (cols.0, rows.1 - 1),
                    (cols.1 - 1, rows.1 - 1),
                    ((cols.0 + 1).min(cols.1 - 1), rows.1 - 1),
                    ((cols.0 + 1).min(cols.1 - 1), rows.0),
                    (cols.0, (rows.0 + 1).min(rows.1 - 1)),
                    (cols.1 - 1, (rows.0 + 1).min(rows.1 - 1)),
                ] {
                    for c in grid.corners(HexIndex::new(col, row)) {
                        bounds.extend_with(p(c));
                    }
                }
                self.chunks.push(Chunk {
                    cols,
                    rows,
                    bounds: bounds.expand(1.0),
                    meshes: None,
                    screen: Default::default(),
                });
            }
        }
        self.side_index.clear();
        for (feature, list) in &doc.map.hexsides {
            for side_ref in list {
                if let Ok((hex, side)) = grid.parse_hexside(side_ref.as_str()) {
                    let (canonical, canonical_side) = grid.canonical_hexside(hex, side);
                    let chunk = self.chunk_of(canonical);
                    self.side_index
                        .entry((chunk, canonical, canonical_side))
                        .or_default()
                        .push(SideFeature {
                            id: feature.clone(),
                            hex,
                            side,
                        });
                }
            }
        }
        self.grid_key = Some(grid.clone());
    }

    /// Rebuilds the meshes of dirty chunks in view (or of all dirty chunks when `rect` is
    /// `None`). Returns how many were rebuilt.
    pub fn rebuild_dirty(&mut self, doc: &Document, view: Option<Rect>) -> usize {
        self.prepare(doc);
        let mut count = 0;
        for i in 0..self.chunks.len() {
            let chunk = &self.chunks[i];
            if chunk.meshes.is_some() {
                continue;
            }
            if let Some(view) = view
                && !view.intersects(chunk.bounds)
            {
                continue;
            }
            let meshes = build_chunk(doc, &self.side_index, i, chunk);
            let chunk = &mut self.chunks[i];
            chunk.meshes = Some(meshes.map(Arc::new));
            chunk.screen = Default::default();
            count += 1;
        }
        self.rebuilt_chunks += count;
        count
    }

    /// Draws the map into `rect`.
    pub fn paint(&mut self, painter: &egui::Painter, rect: Rect, doc: &Document) {
        self.paint_with(painter, rect, doc, |_, _| {});
    }

    /// Draws the map into `rect`, calling `under_lines` after the terrain (fill and patterns)
    /// and before the grid lines, hexsides and overlays: where the scan goes.
    pub fn paint_with(
        &mut self,
        painter: &egui::Painter,
        rect: Rect,
        doc: &Document,
        under_lines: impl FnOnce(&egui::Painter, &MapView),
    ) {
        let mut under_lines = Some(under_lines);
        self.place(&doc.map.grid, rect);
        let view = self.visible_grid_rect(rect);
        let key = ScreenKey {
            zoom: self.zoom,
            offset: rect.center().to_vec2() - self.centre.to_vec2() * self.zoom,
        };
        let detail = self.zoom >= DETAIL_ZOOM;
        let wanted = [
            self.layers.terrain,
            self.layers.terrain && detail,
            self.layers.grid && detail,
            self.layers.hexsides,
            self.layers.overlays,
            self.layers.overlays,
            self.layers.overlays,
        ];
        // Zoomed out, the terrain is one texture rather than six vertices per hex.
        let use_overview = wanted[FILL]
            && self.layers.hexsides
            && self.layers.overlays
            && !detail
            && overview::Overview::serves(doc, self.zoom, painter.ctx());
        // The overview holds everything drawn zoomed out (unless a scan lies between the
        // terrain and the features): no chunk mesh is needed then.
        self.prepare(doc);
        if !(use_overview && overview::Overview::with_features(doc)) {
            self.rebuild_dirty(doc, Some(view));
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
            if use_overview && self.overview.features && layer > OUTLINE {
                continue;
            }
            if layer == FILL && use_overview {
                let texture = self.overview.texture(painter.ctx(), doc).map(|t| t.id());
                if let Some(texture) = texture {
                    let grid_rect = self.overview.grid_rect();
                    let screen = Rect::from_min_max(
                        self.to_screen(rect, grid_rect.min),
                        self.to_screen(rect, grid_rect.max),
                    );
                    shapes.push(overview::image_shape(texture, screen));
                    continue;
                }
            }
            for chunk in &mut self.chunks {
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
            self.overview.paint_progress(painter, rect);
        }
        self.paint_text(painter, rect, doc, view);
    }

    /// Hex names and place names as `bataille render` prints them (the symbology's text items,
    /// in its font: [`crate::map::text`]); place names keep at least [`LABEL_MIN_POINTS`] when
    /// zoomed out.
    fn paint_text(&self, painter: &egui::Painter, rect: Rect, doc: &Document, view: Rect) {
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
        if self.layers.hex_names && self.zoom >= NAMES_ZOOM {
            for chunk in &self.chunks {
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
        if self.layers.labels && self.zoom >= LABELS_ZOOM {
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
        for layer in 0..MESHES {
            for chunk in &self.chunks {
                if let Some(meshes) = &chunk.meshes {
                    out.push((layer, meshes[layer].clone()));
                }
            }
        }
        out
    }

    /// Total vertices cached (for benchmarks).
    pub fn cached_vertices(&self) -> usize {
        self.chunks
            .iter()
            .filter_map(|c| c.meshes.as_ref())
            .map(|m| m.iter().map(|m| m.vertices.len()).sum::<usize>())
            .sum()
    }
}
