//! Map text in the symbology's font: `bataille render` draws its text as DejaVu Sans glyph
//! outlines (`bataille_render::text`); the editor installs the same font files in egui and lays
//! the map's text (hex names, place names, counter values) out with them, at the symbology's
//! sizes and anchors, so the map in the editor reads as the printed one. Glyph outlines are
//! not tessellated: egui's font atlas gives anti-aliased text at a fraction of the cost.

use bataille_render::text::{Anchor, CAP_HEIGHT, Face, TextStyle, font_data};
use egui::epaint::text::{FontData, FontDefinitions, FontFamily, FontId};
use egui::{Color32, Pos2, Shape, pos2, vec2};

use crate::map::tessellate::colour;

/// The egui font names of the two faces.
const REGULAR: &str = "dejavu-sans";
const BOLD: &str = "dejavu-sans-bold";

/// The egui family of a face of the symbology's font.
pub fn family(face: Face) -> FontFamily {
    FontFamily::Name(
        match face {
            Face::Regular => REGULAR,
            Face::Bold => BOLD,
        }
        .into(),
    )
}

/// egui's fonts with DejaVu Sans and DejaVu Sans Bold added as two families (each falling back
/// on egui's proportional fonts for characters DejaVu lacks).
pub fn font_definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    let fallbacks = fonts
        .families
        .get(&FontFamily::Proportional)
        .cloned()
        .unwrap_or_default();
    for (name, face) in [(REGULAR, Face::Regular), (BOLD, Face::Bold)] {
        fonts.font_data.insert(
            name.to_owned(),
            std::sync::Arc::new(FontData::from_static(font_data(face))),
        );
        let mut chain = vec![name.to_owned()];
        chain.extend(fallbacks.iter().cloned());
        fonts.families.insert(family(face), chain);
    }
    fonts
}

/// Installs the map font in `ctx` (once: egui compares the definitions, which costs a copy of
/// the fonts, so callers keep a flag).
pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(font_definitions());
}

/// Whether the map font is installed in this context (the first frame of a context that has
/// not had [`install`] yet lays text out in egui's own font rather than failing).
pub fn installed(ctx: &egui::Context) -> bool {
    ctx.fonts(|f| f.definitions().families.contains_key(&family(Face::Bold)))
}

/// The font of a style at `size` screen points.
pub fn font_id(face: Face, size: f32, installed: bool) -> FontId {
    if installed {
        FontId::new(size, family(face))
    } else {
        FontId::proportional(size)
    }
}

/// A text item of the symbology as egui shapes: laid out in DejaVu Sans at `size` points (the
/// em, as the symbology's `size_px`), its anchor at `pos` as the symbology places it (x across
/// the advance width, y from the top of the capitals to the baseline), with its halo.
#[allow(clippy::too_many_arguments)]
pub fn text_shapes(
    shapes: &mut Vec<Shape>,
    painter: &egui::Painter,
    text: &str,
    style: &TextStyle,
    pos: Pos2,
    anchor: Anchor,
    size: f32,
    installed: bool,
) {
    if text.is_empty() || size < 1.0 {
        return;
    }
    let ink = colour(style.colour);
    let galley = painter.layout_no_wrap(text.to_owned(), font_id(style.face, size, installed), ink);
    // The first row's baseline, from the galley's top.
    let baseline = galley
        .rows
        .first()
        .and_then(|row| row.row.glyphs.first().map(|g| row.pos.y + g.pos.y))
        .unwrap_or(0.93 * size);
    let x = pos.x - anchor.x * galley.size().x;
    let y = pos.y + (1.0 - anchor.y) * CAP_HEIGHT * size - baseline;
    let at = pos2(x, y);
    if let Some((halo, width_px)) = style.halo {
        // A halo of the stroke's half width around the glyphs: the same galley in the halo's
        // colour, offset around a circle.
        let r = width_px * size / style.size_px.max(1e-3) / 2.0;
        let halo = colour(halo);
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            shapes.push(Shape::galley_with_override_text_color(
                at + vec2(a.cos(), a.sin()) * r,
                galley.clone(),
                halo,
            ));
        }
    }
    shapes.push(Shape::galley(at, galley, Color32::PLACEHOLDER));
}
