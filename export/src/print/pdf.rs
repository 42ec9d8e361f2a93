//! The kit's pages as PDF with real text: every text of a drawing is written as an SVG
//! `<text>` in DejaVu Sans (the renderer's font), which `svg2pdf` embeds as a font subset, so a
//! reader can search, select and read the kit aloud; shapes are the symbology's paths.

use std::collections::HashMap;
use std::fmt::Write as _;

use bataille_render::symbology::{Drawing, Item, num};
use bataille_render::text::{Anchor, CAP_HEIGHT, Face, font_data, text_width};
use bataille_render::tiny_skia::Transform;

use crate::ExportError;

/// One page: its size in millimetres and its SVG body (millimetres).
pub(crate) struct Sheet<'a> {
    pub size: [f32; 2],
    pub body: &'a str,
}

/// XML-escapes text (the body of a `<text>`).
fn escape(text: &str) -> String {
    crate::xml(text)
}

fn matrix(t: &Transform) -> String {
    if t.is_identity() {
        String::new()
    } else {
        format!(
            r#" transform="matrix({} {} {} {} {} {})""#,
            num(t.sx),
            num(t.ky),
            num(t.kx),
            num(t.sy),
            num(t.tx),
            num(t.ty)
        )
    }
}

fn paint(attribute: &str, [r, g, b, a]: [u8; 4]) -> String {
    let mut out = format!(r##" {attribute}="#{r:02x}{g:02x}{b:02x}""##);
    if a != 255 {
        let _ = write!(
            out,
            r#" {attribute}-opacity="{}""#,
            num(f32::from(a) / 255.0)
        );
    }
    out
}

/// A drawing as SVG with its texts as `<text>` elements: the same place, size and anchor as
/// the renderer's glyph outlines (the anchor's `y` measured on DejaVu's capitals).
pub(crate) fn svg_with_text(d: &Drawing) -> String {
    let mut out = String::new();
    let mut shapes = Drawing::new();
    let flush = |shapes: &mut Drawing, out: &mut String| {
        if !shapes.items.is_empty() {
            out.push_str(&shapes.to_svg());
            shapes.items.clear();
        }
    };
    for item in &d.items {
        match item {
            Item::Text {
                text,
                style,
                pos,
                anchor,
                transform,
            } => {
                flush(&mut shapes, &mut out);
                if text.trim().is_empty() {
                    continue;
                }
                text_element(&mut out, text, style, *pos, *anchor, transform);
            }
            other => shapes.items.push(other.clone()),
        }
    }
    flush(&mut shapes, &mut out);
    out
}

fn text_element(
    out: &mut String,
    text: &str,
    style: &bataille_render::text::TextStyle,
    pos: [f32; 2],
    anchor: Anchor,
    transform: &Transform,
) {
    let size = style.size_px;
    let baseline = pos[1] + (1.0 - anchor.y) * CAP_HEIGHT * size;
    let (x, text_anchor) = if anchor.x == 0.0 {
        (pos[0], "start")
    } else if (anchor.x - 0.5).abs() < 1e-6 {
        (pos[0], "middle")
    } else if (anchor.x - 1.0).abs() < 1e-6 {
        (pos[0], "end")
    } else {
        (
            pos[0] - anchor.x * text_width(text, style.face, size),
            "start",
        )
    };
    let weight = match style.face {
        Face::Bold => r#" font-weight="bold""#,
        Face::Regular => "",
    };
    let halo = style.halo.map_or_else(String::new, |(colour, width)| {
        format!(
            r#"{} stroke-width="{}" stroke-linejoin="round" paint-order="stroke""#,
            paint("stroke", colour),
            num(width)
        )
    });
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-family="DejaVu Sans" font-size="{}"{weight} text-anchor="{text_anchor}"{}{halo}{} xml:space="preserve">{}</text>"#,
        num(x),
        num(baseline),
        num(size),
        paint("fill", style.colour),
        matrix(transform),
        escape(text)
    );
}

/// usvg's options with the bundled DejaVu Sans as the only fonts.
fn options() -> svg2pdf::usvg::Options<'static> {
    let mut options = svg2pdf::usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(font_data(Face::Regular).to_vec());
    db.load_font_data(font_data(Face::Bold).to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    options
}

/// A page as an SVG document: its size in millimetres, one user unit a millimetre, on white.
pub(crate) fn page_svg([pw, ph]: [f32; 2], body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}mm\" height=\"{ph}mm\" viewBox=\"0 0 {pw} {ph}\">\n<rect width=\"{pw}\" height=\"{ph}\" fill=\"#ffffff\"/>\n{body}</svg>\n"
    )
}

/// The pages as one PDF: each page's SVG converted by svg2pdf into a form XObject (fonts
/// embedded), drawn over its whole page.
pub(crate) fn assemble(pages: &[Sheet<'_>]) -> Result<Vec<u8>, ExportError> {
    use pdf_writer::{Content, Finish, Name, Pdf, Ref};
    let pt = 72.0 / 25.4;
    let mut alloc = Ref::new(1);
    let catalog_id = alloc.bump();
    let tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::new();
    let options = options();
    for page in pages {
        let [pw, ph] = page.size;
        let (wpt, hpt) = (pw * pt, ph * pt);
        let svg = page_svg(page.size, page.body);
        let tree = svg2pdf::usvg::Tree::from_str(&svg, &options)
            .map_err(|error| ExportError::Pdf(error.to_string()))?;
        drop(svg);
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|error| ExportError::Pdf(error.to_string()))?;
        drop(tree);
        let mut renumbered = HashMap::new();
        let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| alloc.bump()));
        let svg_id = renumbered
            .get(&svg_id)
            .copied()
            .ok_or_else(|| ExportError::Pdf("the page's drawing was lost".to_owned()))?;
        let page_id = alloc.bump();
        let content_id = alloc.bump();
        page_ids.push(page_id);
        let name = Name(b"S1");
        let mut p = pdf.page(page_id);
        p.media_box(pdf_writer::Rect::new(0.0, 0.0, wpt, hpt));
        p.parent(tree_id);
        p.contents(content_id);
        p.resources().x_objects().pair(name, svg_id);
        p.finish();
        let mut content = Content::new();
        content
            .transform([wpt, 0.0, 0.0, hpt, 0.0, 0.0])
            .x_object(name);
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
    }
    pdf.catalog(catalog_id).pages(tree_id);
    let count = i32::try_from(page_ids.len()).unwrap_or(i32::MAX);
    pdf.pages(tree_id).kids(page_ids).count(count);
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_render::text::TextStyle;

    #[test]
    fn texts_become_text_elements_and_shapes_stay_paths() {
        let mut d = Drawing::new();
        d.line([0.0, 0.0], [10.0, 0.0], [0, 0, 0, 255], 1.0);
        d.text(
            "Villars & <Montesquiou>",
            &TextStyle {
                face: Face::Bold,
                size_px: 10.0,
                colour: [0x14, 0x14, 0x14, 0xff],
                halo: None,
            },
            [5.0, 20.0],
            Anchor::CENTRE,
            Transform::identity(),
        );
        let svg = svg_with_text(&d);
        assert!(svg.contains("<path"), "{svg}");
        assert!(
            svg.contains(r#"text-anchor="middle""#) && svg.contains(r#"font-weight="bold""#),
            "{svg}"
        );
        assert!(
            svg.contains("Villars &amp; &lt;Montesquiou&gt;</text>"),
            "{svg}"
        );
        // The anchor is the middle of the capitals: the baseline half a cap height lower.
        assert!(svg.contains(&format!(r#"y="{}""#, num(20.0 + 0.5 * CAP_HEIGHT * 10.0))));
    }
}
