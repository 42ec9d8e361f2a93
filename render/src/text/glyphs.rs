//! Text drawn from cached glyph masks: each glyph is rasterised once per face, size and place
//! within the pixel (a quarter pixel each way), and its coverage blended where the text puts
//! it. Text that repeats glyphs at one size — the 40,000 hex names of a 200 × 200 board, the
//! values of 10,000 counters — costs a blend per glyph instead of an outline read, a path
//! built and an anti-aliased fill. The glyphs land within an eighth of a pixel of where the
//! path would put them, with the same anti-aliasing; the result depends only on where the text
//! is, so it is the same whether an image is drawn whole or in bands.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use ab_glyph::{Font as _, GlyphId};
use tiny_skia::{FillRule, Mask, PathBuilder, Pixmap, PremultipliedColorU8, Transform};

use super::{Anchor, CAP_HEIGHT, Face, TextStyle, add_outline, font, text_width};

/// The largest text size drawn from cached glyphs, px (larger text is filled as a path).
pub(super) const LARGEST: f32 = 96.0;
/// Places within a pixel, each way.
const PHASES: f32 = 4.0;
/// Glyphs kept per thread before the cache starts again.
const KEPT: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    face: Face,
    size_bits: u32,
    glyph: u16,
    phase: (u8, u8),
}

/// A glyph's coverage, placed relative to the whole pixel its pen position falls in.
struct Glyph {
    left: i64,
    top: i64,
    width: usize,
    coverage: Vec<u8>,
}

thread_local! {
    static GLYPHS: RefCell<HashMap<Key, Option<Rc<Glyph>>>> = RefCell::new(HashMap::new());
}

/// Draws `text` (no halo) with its anchor at `pos`, in the pixmap's pixels.
pub(super) fn draw(
    pixmap: &mut Pixmap,
    text: &str,
    style: &TextStyle,
    pos: [f32; 2],
    anchor: Anchor,
) {
    let Some(font) = font(style.face) else {
        return;
    };
    let units = font.units_per_em().unwrap_or(2048.0);
    let scale = style.size_px / units;
    let width = text_width(text, style.face, style.size_px);
    let origin_x = pos[0] - anchor.x * width;
    let baseline = pos[1] + (1.0 - anchor.y) * CAP_HEIGHT * style.size_px;
    if !(origin_x.is_finite() && baseline.is_finite()) {
        return;
    }
    let mut pen_x = 0.0f32;
    let mut previous: Option<GlyphId> = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = previous {
            pen_x += font.kern_unscaled(prev, id);
        }
        let (x, y) = (origin_x + pen_x * scale, baseline);
        // The pen's place in quarter pixels: the whole pixel and the quarter within it.
        let (qx, qy) = (
            (f64::from(x) * f64::from(PHASES)).round() as i64,
            (f64::from(y) * f64::from(PHASES)).round() as i64,
        );
        let phase = (qx.rem_euclid(4) as u8, qy.rem_euclid(4) as u8);
        let key = Key {
            face: style.face,
            size_bits: style.size_px.to_bits(),
            glyph: id.0,
            phase,
        };
        let glyph = GLYPHS.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.len() >= KEPT && !cache.contains_key(&key) {
                cache.clear();
            }
            cache
                .entry(key)
                .or_insert_with(|| rasterise(font, id, scale, phase).map(Rc::new))
                .clone()
        });
        if let Some(glyph) = glyph {
            blend(
                pixmap,
                &glyph,
                [qx.div_euclid(4), qy.div_euclid(4)],
                style.colour,
            );
        }
        pen_x += font.h_advance_unscaled(id);
        previous = Some(id);
    }
}

/// A glyph's coverage with its pen position at `phase` quarters into a pixel.
fn rasterise(
    font: &ab_glyph::FontRef<'static>,
    id: GlyphId,
    scale: f32,
    phase: (u8, u8),
) -> Option<Glyph> {
    let outline = font.outline(id)?;
    let (px, py) = (f32::from(phase.0) / PHASES, f32::from(phase.1) / PHASES);
    let mut builder = PathBuilder::new();
    add_outline(&mut builder, &outline, |p| {
        (px + p.x * scale, py - p.y * scale)
    });
    let path = builder.finish()?;
    let bounds = path.bounds();
    let left = bounds.left().floor() as i64 - 1;
    let top = bounds.top().floor() as i64 - 1;
    let width = (bounds.right().ceil() as i64 + 1 - left).max(1) as u32;
    let height = (bounds.bottom().ceil() as i64 + 1 - top).max(1) as u32;
    let mut mask = Mask::new(width, height)?;
    mask.fill_path(
        &path,
        FillRule::Winding,
        true,
        Transform::from_translate(-(left as f32), -(top as f32)),
    );
    Some(Glyph {
        left,
        top,
        width: width as usize,
        coverage: mask.data().to_vec(),
    })
}

/// `a × b / 255`, rounded.
fn mul(a: u32, b: u32) -> u32 {
    let t = a * b + 128;
    (t + (t >> 8)) >> 8
}

/// The glyph's coverage of `colour` over the pixmap (source over), its pen in pixel `at`.
fn blend(pixmap: &mut Pixmap, glyph: &Glyph, at: [i64; 2], [r, g, b, a]: [u8; 4]) {
    let (w, h) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let pixels = pixmap.pixels_mut();
    for (j, row) in glyph.coverage.chunks_exact(glyph.width).enumerate() {
        let y = at[1] + glyph.top + j as i64;
        if y < 0 || y >= h {
            continue;
        }
        for (i, &cover) in row.iter().enumerate() {
            let x = at[0] + glyph.left + i as i64;
            if cover == 0 || x < 0 || x >= w {
                continue;
            }
            let sa = mul(u32::from(a), u32::from(cover));
            let dst = &mut pixels[(y * w + x) as usize];
            let keep = 255 - sa;
            let out_a = sa + mul(u32::from(dst.alpha()), keep);
            let channel =
                |s: u8, d: u8| (mul(u32::from(s), sa) + mul(u32::from(d), keep)).min(out_a);
            let blended = PremultipliedColorU8::from_rgba(
                channel(r, dst.red()) as u8,
                channel(g, dst.green()) as u8,
                channel(b, dst.blue()) as u8,
                out_a.min(255) as u8,
            );
            if let Some(c) = blended {
                *dst = c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tiny_skia::Color;

    use super::*;
    use crate::text::{paint, text_path};

    /// The ink of an image (how much darker than white it is, summed) and its centre.
    fn ink(pixmap: &Pixmap) -> (f64, [f64; 2]) {
        let (mut total, mut x, mut y) = (0.0, 0.0, 0.0);
        for (n, p) in pixmap.pixels().iter().enumerate() {
            let c = p.demultiply();
            let dark = 765.0 - f64::from(c.red()) - f64::from(c.green()) - f64::from(c.blue());
            total += dark;
            x += dark * (n % pixmap.width() as usize) as f64;
            y += dark * (n / pixmap.width() as usize) as f64;
        }
        (total, [x / total, y / total])
    }

    /// Text from cached glyphs puts the same ink in the same place as the text's path filled,
    /// at positions inside and across pixels, the second time (from the cache) as the first.
    /// (tiny-skia samples a pixel in quarters, so a glyph's ink changes by a few percent as it
    /// moves within a pixel — a stem under a pixel wide, at 7 px, by a third; a glyph left out,
    /// doubled or misplaced changes it by far more.)
    #[test]
    fn cached_glyphs_draw_what_the_path_draws() {
        for (pos, size) in [
            ([60.3, 30.7], 10.0),
            ([61.0, 28.25], 18.5),
            ([59.9, 31.4], 14.0),
        ] {
            let style = TextStyle {
                face: Face::Regular,
                size_px: size,
                colour: [0x3a, 0x36, 0x2e, 0xe0],
                halo: None,
            };
            let mut filled = Pixmap::new(120, 60).expect("pixmap");
            filled.fill(Color::WHITE);
            let mut cached = filled.clone();
            let path =
                text_path("0101 Denain", Face::Regular, size, pos, Anchor::CENTRE).expect("a path");
            filled.fill_path(
                &path,
                &paint(style.colour),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            draw(&mut cached, "0101 Denain", &style, pos, Anchor::CENTRE);
            let mut again = Pixmap::new(120, 60).expect("pixmap");
            again.fill(Color::WHITE);
            draw(&mut again, "0101 Denain", &style, pos, Anchor::CENTRE);
            assert_eq!(
                again.data(),
                cached.data(),
                "the cache draws as the first time"
            );
            let ((a, ca), (b, cb)) = (ink(&filled), ink(&cached));
            assert!(a > 1000.0, "the path draws ink: {a}");
            assert!(
                (a - b).abs() <= 0.08 * a,
                "{size} px: ink {b} from glyphs, {a} filled"
            );
            assert!(
                (ca[0] - cb[0]).abs() <= 0.2 && (ca[1] - cb[1]).abs() <= 0.2,
                "{size} px: centre {cb:?} from glyphs, {ca:?} filled"
            );
        }
    }
}
