//! The map as one texture for views zoomed out (a hex a few points across): the symbology's
//! terrain fills, hexside features, roads and overlays painted by tiny-skia
//! (`bataille_render::symbology::part`, the same shapes as the meshes and `bataille render`)
//! into an image of at most [`MAX_SIDE`] pixels a side, drawn as one textured rectangle
//! instead of six vertices per hex and a few dozen per feature. With a scan under the grid,
//! only the terrain goes in (the features stay meshes, drawn over the scan).
//! An edit repaints only the pixels of the chunks it touched (`TextureHandle::set_partial`),
//! when the overview is next drawn.
//!
//! The whole image is painted off the UI thread, band by band (issue 26: on the largest map,
//! 999 × 999 hexes, it took most of the first frame, with the chunk meshes the overview makes
//! unneeded): until it is ready the view says how far it is, and a new document cancels it.
//! It is never larger than the GPU allows (`max_texture_side`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use bataille_render::Layout;
use bataille_render::symbology::{Drawing, part};
use bataille_render::tiny_skia::{Pixmap, Transform};
use egui::{Color32, ColorImage, Rect, TextureHandle, TextureOptions, pos2, vec2};

use bataille_schema::map::HexsideType;
use bataille_schema::{HexIndex, Side};

use crate::model::document::Document;

/// The texture's largest side, in pixels.
pub const MAX_SIDE: f32 = 4096.0;
/// At most this many pixels per grid unit (a hex 2 × this across).
const MAX_SCALE: f32 = 6.0;

#[derive(Default)]
pub(super) struct Overview {
    texture: Option<TextureHandle>,
    /// Pixels per grid unit.
    scale: f32,
    /// The grid point at the image's top-left corner.
    origin: egui::Pos2,
    size: [usize; 2],
    /// Grid-space rectangles to repaint.
    dirty: Vec<Rect>,
    /// Whether the features (hexsides, roads, overlays) are in the image.
    pub(super) features: bool,
    /// The image being painted off the UI thread.
    painting: Option<Painting>,
}

/// The whole image painted on its own thread: its progress, and a flag that stops it (set when
/// dropped: a new document, a new grid).
struct Painting {
    handle: Option<std::thread::JoinHandle<Option<ColorImage>>>,
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
}

impl Drop for Painting {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// How many bands the whole image is painted in (progress and cancelling between them).
const BANDS: usize = 16;

impl Overview {
    /// Forgets the image (a new grid or legend).
    pub(super) fn clear(&mut self) {
        *self = Overview::default();
    }

    /// Marks a grid-space rectangle for repainting.
    pub(super) fn invalidate(&mut self, bounds: Rect) {
        if self.texture.is_some() || self.painting.is_some() {
            self.dirty.push(bounds);
        }
    }

    /// The image's largest side on this GPU.
    pub(super) fn max_side(ctx: &egui::Context) -> f32 {
        MAX_SIDE.min(ctx.input(|i| i.max_texture_side) as f32)
    }

    /// Whether the features go into the image: not when a scan lies between the terrain and
    /// them.
    pub(super) fn with_features(doc: &Document) -> bool {
        doc.map.background.is_none()
    }

    /// How far the image being painted is, while it is.
    pub(super) fn painting(&self) -> Option<f32> {
        let painting = self.painting.as_ref()?;
        Some(f32::from_bits(painting.progress.load(Ordering::Relaxed)))
    }

    /// Says how far the image being painted is, over the map, while it is.
    pub(super) fn paint_progress(&self, painter: &egui::Painter, rect: Rect) {
        if let Some(done) = self.painting() {
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                format!("Drawing the map… {:.0} %", done * 100.0),
                egui::FontId::proportional(18.0),
                Color32::from_gray(235),
            );
        }
    }

    /// The scale the overview would have for this grid, its image at most `max_side` a side.
    fn scale_for(doc: &Document, max_side: f32) -> (f32, egui::Pos2, [usize; 2]) {
        let (min, max) = doc.map.grid.bounds();
        let (w, h) = (max[0] - min[0] + 2.0, max[1] - min[1] + 2.0);
        let scale = (max_side / w.max(h)).min(MAX_SCALE);
        let origin = pos2(min[0] - 1.0, min[1] - 1.0);
        let size = [(w * scale).ceil() as usize, (h * scale).ceil() as usize];
        (scale, origin, size)
    }

    /// Whether the overview draws the terrain at this zoom (no texel larger than a point).
    pub(super) fn serves(doc: &Document, zoom: f32, ctx: &egui::Context) -> bool {
        let (scale, _, _) = Overview::scale_for(doc, Overview::max_side(ctx));
        zoom <= scale
    }

    /// Paints the pixels of a grid-space rectangle (all of them for `None`).
    fn paint_region(
        &self,
        doc: &Document,
        region: Option<Rect>,
    ) -> Option<([usize; 2], ColorImage)> {
        let (x0, y0, x1, y1) = match region {
            None => (0, 0, self.size[0], self.size[1]),
            Some(r) => {
                let min = (r.min - self.origin) * self.scale;
                let max = (r.max - self.origin) * self.scale;
                (
                    (min.x.floor().max(0.0) as usize).min(self.size[0]),
                    (min.y.floor().max(0.0) as usize).min(self.size[1]),
                    (max.x.ceil().max(0.0) as usize).min(self.size[0]),
                    (max.y.ceil().max(0.0) as usize).min(self.size[1]),
                )
            }
        };
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        let mut pixmap = Pixmap::new((x1 - x0) as u32, (y1 - y0) as u32)?;
        let layout = Layout {
            radius_px: self.scale,
            offset_px: [
                -self.origin.x * self.scale - x0 as f32,
                -self.origin.y * self.scale - y0 as f32,
            ],
            width: pixmap.width(),
            height: pixmap.height(),
        };
        // The hexes that reach into the region: its grid rectangle grown by a hex.
        let area = Rect::from_min_max(
            self.origin + vec2(x0 as f32, y0 as f32) / self.scale,
            self.origin + vec2(x1 as f32, y1 as f32) / self.scale,
        )
        .expand(1.2);
        let map = &doc.map;
        let grid = &map.grid;
        let inside = |hex: HexIndex| {
            let [x, y] = grid.centre(hex);
            area.contains(pos2(x, y))
        };
        let mut drawing = Drawing::new();
        let mut overlaid = Vec::new();
        for (row, text) in map.rows.iter().enumerate().take(grid.rows as usize) {
            let mut codes = text.chars();
            for col in 0..grid.columns {
                let code = codes.next();
                let hex = HexIndex::new(col, row as u32);
                if inside(hex) && !map.is_absent(hex) {
                    part::terrain(&mut drawing, map, &layout, hex, code);
                    if !doc.overlays_at(hex).is_empty() {
                        overlaid.push(hex);
                    }
                }
            }
        }
        if self.features {
            let mut sides: Vec<(u8, HexIndex, Side, &HexsideType)> = Vec::new();
            for (id, refs) in &map.hexsides {
                let Some(t) = map.hexside_types.get(id) else {
                    continue;
                };
                for side_ref in refs {
                    if let Ok((hex, side)) = grid.parse_hexside(side_ref.as_str())
                        && inside(hex)
                    {
                        sides.push((part::hexside_order(t.symbol), hex, side, t));
                    }
                }
            }
            sides.sort_by_key(|(order, ..)| *order);
            for (_, hex, side, t) in sides {
                part::hexside(&mut drawing, map, &layout, hex, side, t);
            }
            let roads = super::mesh::Roads::new(doc);
            let is_road = |hex: HexIndex| roads.at(hex);
            let code_at = |hex: HexIndex| doc.code(hex);
            let paths = part::RoadPaths::of(map);
            for casing in [true, false] {
                for hex in &overlaid {
                    part::roads(&mut drawing, map, &layout, *hex, casing, &is_road, &paths);
                }
            }
            for hex in &overlaid {
                part::overlays(&mut drawing, map, &layout, *hex, &code_at);
            }
        }
        drawing.paint(&mut pixmap, Transform::identity());
        let image = ColorImage::from_rgba_premultiplied(
            [pixmap.width() as usize, pixmap.height() as usize],
            pixmap.data(),
        );
        Some(([x0, y0], image))
    }

    /// The texture, built or brought up to date; `None` while the whole image is being painted
    /// off the UI thread (started here).
    pub(super) fn texture(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
    ) -> Option<&TextureHandle> {
        if self.texture.is_some() && self.features != Overview::with_features(doc) {
            self.clear(); // A scan came or went: the features move in or out of the image.
        }
        if self.texture.is_none() {
            match &self.painting {
                None => self.start_painting(ctx, doc),
                Some(painting) if painting.handle.as_ref().is_none_or(|h| h.is_finished()) => {
                    let mut done = self.painting.take()?;
                    let image = done.handle.take()?.join().ok().flatten()?;
                    self.texture =
                        Some(ctx.load_texture("map overview", image, TextureOptions::LINEAR));
                }
                Some(_) => {}
            }
            if self.texture.is_none() {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
                return None;
            }
        }
        if !self.dirty.is_empty() {
            let dirty = std::mem::take(&mut self.dirty);
            for region in dirty {
                if let Some((at, image)) = self.paint_region(doc, Some(region))
                    && let Some(texture) = &mut self.texture
                {
                    texture.set_partial(at, image, TextureOptions::LINEAR);
                }
            }
        }
        self.texture.as_ref()
    }

    /// Lays the image out for `doc` and paints it on its own thread, band by band, from a copy
    /// of the document (the editor goes on meanwhile; edits made are repainted after).
    fn start_painting(&mut self, ctx: &egui::Context, doc: &Document) {
        let (scale, origin, size) = Overview::scale_for(doc, Overview::max_side(ctx));
        self.scale = scale;
        self.origin = origin;
        self.size = size;
        self.features = Overview::with_features(doc);
        self.dirty.clear();
        let painter = Overview {
            scale,
            origin,
            size,
            features: self.features,
            ..Overview::default()
        };
        let doc = doc.clone();
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, c, repaint) = (progress.clone(), cancel.clone(), ctx.clone());
        let spawned = std::thread::Builder::new()
            .name("map overview".into())
            .spawn(move || {
                let image = painter.paint_bands(&doc, &|fraction| {
                    p.store(fraction.to_bits(), Ordering::Relaxed);
                    repaint.request_repaint();
                    !c.load(Ordering::Relaxed)
                });
                repaint.request_repaint();
                image
            });
        self.painting = spawned.ok().map(|handle| Painting {
            handle: Some(handle),
            progress,
            cancel,
        });
    }

    /// The whole image, painted in [`BANDS`] bands of rows; `None` when `progress` answers
    /// `false` (cancelled).
    fn paint_bands(&self, doc: &Document, progress: &dyn Fn(f32) -> bool) -> Option<ColorImage> {
        let [w, h] = self.size;
        let mut image = ColorImage::filled([w, h], Color32::TRANSPARENT);
        let band = h.div_ceil(BANDS).max(1);
        for (i, y0) in (0..h).step_by(band).enumerate() {
            let y1 = (y0 + band).min(h);
            let region = Rect::from_min_max(
                self.origin + vec2(0.0, y0 as f32 / self.scale),
                self.origin + vec2(w as f32 / self.scale, y1 as f32 / self.scale),
            );
            if let Some(([x, y], patch)) = self.paint_region(doc, Some(region)) {
                let [pw, ph] = patch.size;
                for row in 0..ph.min(h.saturating_sub(y)) {
                    let to = (y + row) * w + x;
                    let n = pw.min(w - x);
                    image.pixels[to..to + n].copy_from_slice(&patch.pixels[row * pw..row * pw + n]);
                }
            }
            if !progress((i + 1) as f32 * band as f32 / h as f32) {
                return None;
            }
        }
        Some(image)
    }

    /// The image's rectangle in grid space.
    pub(super) fn grid_rect(&self) -> Rect {
        Rect::from_min_size(
            self.origin,
            vec2(self.size[0] as f32, self.size[1] as f32) / self.scale,
        )
    }
}

/// The shape drawing the overview into a screen rectangle.
pub(super) fn image_shape(texture: egui::TextureId, screen: Rect) -> egui::Shape {
    egui::Shape::image(
        texture,
        screen,
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        Color32::WHITE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::stress::{StressSize, generate};

    fn laid_out(doc: &Document) -> Overview {
        let (scale, origin, size) = Overview::scale_for(doc, MAX_SIDE);
        Overview {
            scale,
            origin,
            size,
            ..Overview::default()
        }
    }

    /// The colour at a hex's centre in an image painted from `at` (its top-left pixel).
    fn at_centre(
        o: &Overview,
        doc: &Document,
        hex: HexIndex,
        at: [usize; 2],
        image: &ColorImage,
    ) -> Color32 {
        let [x, y] = doc.map.grid.centre(hex);
        let px = ((x - o.origin.x) * o.scale) as usize - at[0];
        let py = ((y - o.origin.y) * o.scale) as usize - at[1];
        image.pixels[py * image.size[0] + px]
    }

    fn legend_colour(doc: &Document, code: char) -> Color32 {
        let [r, g, b] = doc.map.terrain[&code.to_string()]
            .colour
            .rgb()
            .expect("a colour");
        Color32::from_rgb(r, g, b)
    }

    #[test]
    fn the_overview_paints_the_legend_colours_and_repaints_only_an_edit() {
        let (map, _) = generate(
            StressSize {
                columns: 12,
                rows: 10,
                units: 0,
                corps: 1,
            },
            "m.ron",
        );
        let (mut doc, _) = Document::from_map(map, None);
        let o = laid_out(&doc);
        let hex = HexIndex::new(5, 4);
        let code = doc.code(hex).expect("a code");
        let (at, image) = o.paint_region(&doc, None).expect("an image");
        assert_eq!(
            at_centre(&o, &doc, hex, at, &image),
            legend_colour(&doc, code)
        );
        let other = doc
            .map
            .terrain
            .keys()
            .filter_map(|k| k.chars().next())
            .find(|c| *c != code && legend_colour(&doc, *c) != legend_colour(&doc, code))
            .expect("another terrain");
        doc.set_code(hex, other);
        let [x, y] = doc.map.grid.centre(hex);
        let region = Rect::from_center_size(pos2(x, y), vec2(2.0, 2.0));
        let (at, patch) = o.paint_region(&doc, Some(region)).expect("a patch");
        assert!(patch.size[0] < image.size[0] / 2 && patch.size[1] < image.size[1] / 2);
        assert_eq!(
            at_centre(&o, &doc, hex, at, &patch),
            legend_colour(&doc, other)
        );
    }

    #[test]
    fn the_image_is_never_larger_than_the_gpu_allows() {
        let (map, _) = generate(
            StressSize {
                columns: 400,
                rows: 300,
                units: 0,
                corps: 1,
            },
            "m.ron",
        );
        let (doc, _) = Document::from_map(map, None);
        let ctx = egui::Context::default();
        ctx.begin_pass(egui::RawInput {
            max_texture_side: Some(2048),
            ..Default::default()
        });
        let max = Overview::max_side(&ctx);
        assert_eq!(max, 2048.0);
        let (_, _, [w, h]) = Overview::scale_for(&doc, max);
        assert!(w <= 2048 && h <= 2048, "{w} × {h}");
        let (_, _, [w, h]) = Overview::scale_for(&doc, MAX_SIDE);
        assert!(w.max(h) > 2048, "the map would need more: {w} × {h}");
    }
}
