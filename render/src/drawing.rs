//! The drawing every backend reads: a list of shapes (fills, strokes, text) in order, painted
//! with tiny-skia, written as SVG, or tessellated by the editor. Leaf of the crate's drawing code:
//! the map's and counters' drawing functions add to a [`Drawing`]; [`crate::symbology`] is
//! their public face.

use std::fmt::Write as _;

use tiny_skia::{FillRule, LineCap, LineJoin, Path, PathSegment, Pixmap, Stroke, Transform};

use crate::text::{Anchor, TextStyle, paint, text_path};

/// A list of shapes, painted in order. Coordinates are in the drawing's own units (pixels for
/// the renderer, anything for SVG: the caller scales).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drawing {
    pub items: Vec<Item>,
}

/// One shape of a drawing. The path is a geometry value (tiny-skia's `Path`: move, line, quad,
/// cubic, close segments); every backend reads it through `Path::segments`.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A filled path (non-zero winding).
    Fill {
        path: Path,
        colour: [u8; 4],
        transform: Transform,
        /// Edges left sharp (not anti-aliased) where a raster backend paints it: for fills
        /// whose edges lie under lines drawn over them (the terrain under the grid), which
        /// then cost a quarter of an anti-aliased fill. Vector backends ignore it.
        crisp: bool,
    },
    /// A stroked path (round joins).
    Stroke {
        path: Path,
        colour: [u8; 4],
        width: f32,
        cap: LineCap,
        transform: Transform,
    },
    /// Text in the bundled DejaVu Sans, with its anchor at `pos`.
    Text {
        text: String,
        style: TextStyle,
        pos: [f32; 2],
        anchor: Anchor,
        transform: Transform,
    },
}

impl Drawing {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills a path (nothing when `None`).
    pub fn fill(&mut self, path: Option<Path>, colour: [u8; 4], transform: Transform) {
        if let Some(path) = path {
            self.items.push(Item::Fill {
                path,
                colour,
                transform,
                crisp: false,
            });
        }
    }

    /// Fills a path with sharp edges in raster backends (see [`Item::Fill`]'s `crisp`): only
    /// for a fill whose edges lines drawn later cover.
    pub fn fill_crisp(&mut self, path: Option<Path>, colour: [u8; 4], transform: Transform) {
        if let Some(path) = path {
            self.items.push(Item::Fill {
                path,
                colour,
                transform,
                crisp: true,
            });
        }
    }

    /// Strokes a path with round caps.
    pub fn stroke(
        &mut self,
        path: Option<Path>,
        colour: [u8; 4],
        width: f32,
        transform: Transform,
    ) {
        self.stroke_with(path, colour, width, LineCap::Round, transform);
    }

    /// Strokes a path with the given caps (widths under half a unit are drawn at half a unit).
    pub fn stroke_with(
        &mut self,
        path: Option<Path>,
        colour: [u8; 4],
        width: f32,
        cap: LineCap,
        transform: Transform,
    ) {
        if let Some(path) = path {
            self.items.push(Item::Stroke {
                path,
                colour,
                width: width.max(0.5),
                cap,
                transform,
            });
        }
    }

    /// A straight line with round caps.
    pub fn line(&mut self, a: [f32; 2], b: [f32; 2], colour: [u8; 4], width: f32) {
        self.stroke(
            crate::symbols::polyline(&[a, b]),
            colour,
            width,
            Transform::identity(),
        );
    }

    /// Text with its anchor at `pos`.
    pub fn text(
        &mut self,
        text: &str,
        style: &TextStyle,
        pos: [f32; 2],
        anchor: Anchor,
        transform: Transform,
    ) {
        if text.is_empty() || style.size_px < 1.0 {
            return;
        }
        self.items.push(Item::Text {
            text: text.to_owned(),
            style: *style,
            pos,
            anchor,
            transform,
        });
    }

    /// Appends another drawing.
    pub fn extend(&mut self, other: Drawing) {
        self.items.extend(other.items);
    }

    /// The tiny-skia backend: paints every item on the pixmap, after `base`.
    pub fn paint(&self, pixmap: &mut Pixmap, base: Transform) {
        for item in &self.items {
            item.paint(pixmap, base);
        }
    }
}

impl Item {
    /// Paints this item on the pixmap, after `base`.
    pub fn paint(&self, pixmap: &mut Pixmap, base: Transform) {
        match self {
            Item::Fill {
                path,
                colour,
                transform,
                crisp,
            } => {
                let mut paint = paint(*colour);
                paint.anti_alias = !crisp;
                pixmap.fill_path(
                    path,
                    &paint,
                    FillRule::Winding,
                    transform.post_concat(base),
                    None,
                );
            }
            Item::Stroke {
                path,
                colour,
                width,
                cap,
                transform,
            } => {
                let stroke = Stroke {
                    width: *width,
                    line_cap: *cap,
                    line_join: LineJoin::Round,
                    ..Stroke::default()
                };
                pixmap.stroke_path(
                    path,
                    &paint(*colour),
                    &stroke,
                    transform.post_concat(base),
                    None,
                );
            }
            Item::Text {
                text,
                style,
                pos,
                anchor,
                transform,
            } => crate::text::draw_text(
                pixmap,
                text,
                style,
                *pos,
                *anchor,
                transform.post_concat(base),
            ),
        }
    }
}

impl Drawing {
    /// The SVG backend: the items as SVG elements (`<path>`), text as glyph outlines so no font
    /// is needed to read it. Wrap it in `<svg>` or a `<g transform=…>`.
    pub fn to_svg(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            match item {
                Item::Fill {
                    path,
                    colour,
                    transform,
                    ..
                } => {
                    let _ = writeln!(
                        out,
                        r#"<path d="{}"{}{}/>"#,
                        svg_path_data(path),
                        svg_transform(transform),
                        svg_fill(*colour)
                    );
                }
                Item::Stroke {
                    path,
                    colour,
                    width,
                    cap,
                    transform,
                } => {
                    let _ = writeln!(
                        out,
                        r#"<path d="{}"{} fill="none"{} stroke-width="{}" stroke-linecap="{}" stroke-linejoin="round"/>"#,
                        svg_path_data(path),
                        svg_transform(transform),
                        svg_paint("stroke", *colour),
                        num(*width),
                        match cap {
                            LineCap::Butt => "butt",
                            LineCap::Round => "round",
                            LineCap::Square => "square",
                        }
                    );
                }
                Item::Text {
                    text,
                    style,
                    pos,
                    anchor,
                    transform,
                } => {
                    let Some(path) = text_path(text, style.face, style.size_px, *pos, *anchor)
                    else {
                        continue;
                    };
                    let data = svg_path_data(&path);
                    if let Some((halo, width)) = style.halo {
                        let _ = writeln!(
                            out,
                            r#"<path d="{data}"{} fill="none"{} stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                            svg_transform(transform),
                            svg_paint("stroke", halo),
                            num(width)
                        );
                    }
                    let _ = writeln!(
                        out,
                        r#"<path d="{data}"{}{}/>"#,
                        svg_transform(transform),
                        svg_fill(style.colour)
                    );
                }
            }
        }
        out
    }
}

/// A number for SVG: at most three decimals, no trailing zeros.
pub fn num(value: f32) -> String {
    let value = if value.is_finite() { value } else { 0.0 };
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// The `d` attribute of a path.
pub fn svg_path_data(path: &Path) -> String {
    let mut d = String::new();
    for segment in path.segments() {
        match segment {
            PathSegment::MoveTo(p) => {
                let _ = write!(d, "M{} {}", num(p.x), num(p.y));
            }
            PathSegment::LineTo(p) => {
                let _ = write!(d, "L{} {}", num(p.x), num(p.y));
            }
            PathSegment::QuadTo(a, p) => {
                let _ = write!(d, "Q{} {} {} {}", num(a.x), num(a.y), num(p.x), num(p.y));
            }
            PathSegment::CubicTo(a, b, p) => {
                let _ = write!(
                    d,
                    "C{} {} {} {} {} {}",
                    num(a.x),
                    num(a.y),
                    num(b.x),
                    num(b.y),
                    num(p.x),
                    num(p.y)
                );
            }
            PathSegment::Close => d.push('Z'),
        }
    }
    d
}

fn svg_transform(t: &Transform) -> String {
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

fn svg_fill(colour: [u8; 4]) -> String {
    svg_paint("fill", colour)
}

fn svg_paint(attribute: &str, [r, g, b, a]: [u8; 4]) -> String {
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

/// Free-function forms of the drawing's methods, as the map's and counters' code calls them.
pub fn fill(d: &mut Drawing, path: Option<Path>, colour: [u8; 4], transform: Transform) {
    d.fill(path, colour, transform);
}

pub fn stroke(
    d: &mut Drawing,
    path: Option<Path>,
    colour: [u8; 4],
    width: f32,
    transform: Transform,
) {
    d.stroke(path, colour, width, transform);
}

pub fn stroke_with(
    d: &mut Drawing,
    path: Option<Path>,
    colour: [u8; 4],
    width: f32,
    cap: LineCap,
    transform: Transform,
) {
    d.stroke_with(path, colour, width, cap, transform);
}

pub fn line(d: &mut Drawing, a: [f32; 2], b: [f32; 2], colour: [u8; 4], width: f32) {
    d.line(a, b, colour, width);
}
