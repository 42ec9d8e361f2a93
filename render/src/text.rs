//! Text as vector paths: glyph outlines of the bundled DejaVu Sans (through `ab_glyph`) turned
//! into tiny-skia paths, so text is anti-aliased, transformable and byte-for-byte deterministic.

use std::sync::OnceLock;

mod glyphs;

use ab_glyph::{Font as _, FontRef, GlyphId, OutlineCurve};
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Stroke, Transform};

/// The two faces the renderer uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    Regular,
    Bold,
}

struct Fonts {
    regular: Option<FontRef<'static>>,
    bold: Option<FontRef<'static>>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        regular: FontRef::try_from_slice(font_data(Face::Regular)).ok(),
        bold: FontRef::try_from_slice(font_data(Face::Bold)).ok(),
    })
}

/// The font file of a face (DejaVu Sans, bundled): for a viewer that lays text out itself,
/// so that it draws the same letters (the editor installs it in egui).
pub fn font_data(face: Face) -> &'static [u8] {
    match face {
        Face::Regular => dejavu::sans::regular(),
        Face::Bold => dejavu::sans::bold(),
    }
}

/// The height of DejaVu Sans's capitals, as a share of the font size (the em): where
/// [`Anchor`]'s `y` measures from.
pub const CAP_HEIGHT: f32 = 0.729;

fn font(face: Face) -> Option<&'static FontRef<'static>> {
    let fonts = fonts();
    match face {
        Face::Regular => fonts.regular.as_ref(),
        Face::Bold => fonts.bold.as_ref().or(fonts.regular.as_ref()),
    }
}

/// Where the anchor point sits on the text's box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anchor {
    /// 0 = left edge, 0.5 = centre, 1 = right edge.
    pub x: f32,
    /// 0 = top of the capitals, 0.5 = middle of the capitals, 1 = baseline.
    pub y: f32,
}

impl Anchor {
    pub const CENTRE: Anchor = Anchor { x: 0.5, y: 0.5 };
}

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    pub face: Face,
    /// Font size in pixels (the em square).
    pub size_px: f32,
    pub colour: [u8; 4],
    /// A halo around the glyphs for legibility over busy terrain: colour and width in pixels.
    pub halo: Option<([u8; 4], f32)>,
}

/// The width in pixels of `text` at `size_px`.
pub fn text_width(text: &str, face: Face, size_px: f32) -> f32 {
    let Some(font) = font(face) else {
        return 0.0;
    };
    let scale = size_px / font.units_per_em().unwrap_or(2048.0);
    let mut width = 0.0;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = previous {
            width += font.kern_unscaled(prev, id);
        }
        width += font.h_advance_unscaled(id);
        previous = Some(id);
    }
    width * scale
}

/// The text as one path in pixels, the anchor at `pos`.
pub fn text_path(
    text: &str,
    face: Face,
    size_px: f32,
    pos: [f32; 2],
    anchor: Anchor,
) -> Option<Path> {
    let font = font(face)?;
    let units = font.units_per_em().unwrap_or(2048.0);
    let scale = size_px / units;
    let cap_height = CAP_HEIGHT * size_px;
    let width = text_width(text, face, size_px);
    let origin_x = pos[0] - anchor.x * width;
    let baseline = pos[1] + (1.0 - anchor.y) * cap_height;
    let mut builder = PathBuilder::new();
    let mut pen_x = 0.0f32;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = previous {
            pen_x += font.kern_unscaled(prev, id);
        }
        if let Some(outline) = font.outline(id) {
            add_outline(&mut builder, &outline, |p| {
                (origin_x + (pen_x + p.x) * scale, baseline - p.y * scale)
            });
        }
        pen_x += font.h_advance_unscaled(id);
        previous = Some(id);
    }
    builder.finish()
}

/// A glyph's outline into a path, each point placed by `map`.
fn add_outline(
    builder: &mut PathBuilder,
    outline: &ab_glyph::Outline,
    map: impl Fn(ab_glyph::Point) -> (f32, f32),
) {
    let mut last: Option<(f32, f32)> = None;
    for curve in &outline.curves {
        let (start, end) = match curve {
            OutlineCurve::Line(a, b) => (map(*a), map(*b)),
            OutlineCurve::Quad(a, _, c) => (map(*a), map(*c)),
            OutlineCurve::Cubic(a, _, _, d) => (map(*a), map(*d)),
        };
        let joined =
            last.is_some_and(|(lx, ly)| (lx - start.0).abs() < 1e-4 && (ly - start.1).abs() < 1e-4);
        if !joined {
            if last.is_some() {
                builder.close();
            }
            builder.move_to(start.0, start.1);
        }
        match curve {
            OutlineCurve::Line(_, _) => builder.line_to(end.0, end.1),
            OutlineCurve::Quad(_, b, _) => {
                let b = map(*b);
                builder.quad_to(b.0, b.1, end.0, end.1);
            }
            OutlineCurve::Cubic(_, b, c, _) => {
                let (b, c) = (map(*b), map(*c));
                builder.cubic_to(b.0, b.1, c.0, c.1, end.0, end.1);
            }
        }
        last = Some(end);
    }
    if last.is_some() {
        builder.close();
    }
}

/// Draws text with its anchor at `pos` (in the coordinates of `transform`).
pub fn draw_text(
    pixmap: &mut Pixmap,
    text: &str,
    style: &TextStyle,
    pos: [f32; 2],
    anchor: Anchor,
    transform: Transform,
) {
    if text.is_empty() || style.size_px < 1.0 {
        return;
    }
    if style.halo.is_none() && is_translation(&transform) && style.size_px <= glyphs::LARGEST {
        glyphs::draw(
            pixmap,
            text,
            style,
            [pos[0] + transform.tx, pos[1] + transform.ty],
            anchor,
        );
        return;
    }
    let Some(path) = text_path(text, style.face, style.size_px, pos, anchor) else {
        return;
    };
    if let Some((halo, width)) = style.halo {
        let paint = paint(halo);
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, transform, None);
    }
    pixmap.fill_path(
        &path,
        &paint(style.colour),
        FillRule::Winding,
        transform,
        None,
    );
}

/// A transform that only moves.
fn is_translation(t: &Transform) -> bool {
    t.sx == 1.0 && t.sy == 1.0 && t.kx == 0.0 && t.ky == 0.0
}

/// An anti-aliased solid paint.
pub fn paint(colour: [u8; 4]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(colour[0], colour[1], colour[2], colour[3]);
    paint.anti_alias = true;
    paint
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_load_and_measure() {
        assert!(font(Face::Regular).is_some());
        assert!(font(Face::Bold).is_some());
        let w = text_width("0101", Face::Regular, 10.0);
        assert!(w > 20.0 && w < 30.0, "{w}");
        assert!(text_path("Denain", Face::Regular, 12.0, [0.0, 0.0], Anchor::CENTRE).is_some());
        assert!(text_path(" ", Face::Regular, 12.0, [0.0, 0.0], Anchor::CENTRE).is_none());
    }
}
