//! A print-and-play kit of a scenario as a PDF: an overview page, the map at a physical hex
//! size split over pages (with overlap, trim marks, and red alignment marks on the hex centres
//! of the overlap so neighbouring pages line up), counter sheets (fronts, then backs mirrored
//! left to right on the next page for double-sided printing flipped on the long edge), the
//! terrain effects chart generated from the legend, the set-up and reinforcement schedule, and
//! the victory conditions.
//!
//! Every page is an SVG in millimetres drawn from the one symbology
//! (`bataille_render::symbology`), its texts written as text in the bundled DejaVu Sans so the
//! PDF can be searched and read aloud (`pdf`), converted by `svg2pdf` and assembled into one
//! document with `pdf-writer`. Drawings are made in tenths of a millimetre (the symbology's
//! minimum line widths and text sizes are in its own units), then scaled. The kit speaks the
//! scenario's language (`words`). Map sheets are laid around the map (the paper turned when
//! that needs fewer sheets, the map centred on them) and each draws only its own part of the
//! map.

mod charts;
mod map_pages;
mod pdf;
mod sheets;
mod words;

pub use map_pages::SheetLayout;
use map_pages::{MapParts, map_section, overview};
use sheets::counter_sheets;
pub use sheets::{SheetGrid, sheet_grid};

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Anchor, Face, TextStyle};
use bataille_render::tiny_skia::{PathBuilder, Rect, Transform};
use bataille_render::{Layout, RenderOptions};
use bataille_schema::{Map, Scenario};

use crate::ExportError;
use words::words;

/// Drawing units per millimetre.
const UNITS: f32 = 10.0;
const MARGIN: f32 = 10.0;
const INK: [u8; 4] = [0x14, 0x14, 0x14, 0xff];
const GREY: [u8; 4] = [0x80, 0x80, 0x80, 0xff];
/// The alignment marks' colour: pure red, found by the tests.
pub const MARK: [u8; 4] = [0xff, 0x00, 0x00, 0xff];

/// The paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    /// Width and height in millimetres (portrait).
    pub fn size_mm(self) -> [f32; 2] {
        match self {
            Paper::A4 => [210.0, 297.0],
            Paper::Letter => [215.9, 279.4],
        }
    }
}

/// How the kit is printed.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintOptions {
    pub paper: Paper,
    /// The distance between the centres of neighbouring hexes (across the flats), mm.
    pub hex_mm: f32,
    /// The side of a counter, mm.
    pub counter_mm: f32,
}

impl Default for PrintOptions {
    fn default() -> Self {
        Self {
            paper: Paper::A4,
            hex_mm: 16.0,
            counter_mm: 12.7,
        }
    }
}

/// Reads a length: `16mm`, `1.6cm`, `5/8in`, `0.625in`, `1/2in`.
pub fn parse_length(text: &str) -> Result<f32, String> {
    let text = text.trim();
    let (number, unit) = if let Some(n) = text.strip_suffix("mm") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix("cm") {
        (n, 10.0)
    } else if let Some(n) = text.strip_suffix("in") {
        (n, 25.4)
    } else if let Some(n) = text.strip_suffix('"') {
        (n, 25.4)
    } else {
        return Err(format!(
            "`{text}` is not a length: write a number and a unit, e.g. 16mm, 1.6cm, 5/8in"
        ));
    };
    let number = number.trim();
    let value = match number.split_once('/') {
        Some((a, b)) => {
            let a: f32 = a
                .trim()
                .parse()
                .map_err(|_| format!("`{text}`: bad fraction"))?;
            let b: f32 = b
                .trim()
                .parse()
                .map_err(|_| format!("`{text}`: bad fraction"))?;
            if b == 0.0 {
                return Err(format!("`{text}`: division by zero"));
            }
            a / b
        }
        None => number
            .parse()
            .map_err(|_| format!("`{text}` is not a number and a unit"))?,
    };
    let mm = value * unit;
    if !(mm.is_finite() && (5.0..=60.0).contains(&mm)) {
        return Err(format!(
            "`{text}` is {mm:.1} mm; use a size from 5 to 60 mm"
        ));
    }
    Ok(mm)
}

/// What each page of the kit is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageKind {
    Overview,
    /// A map section: its column and row among the sections.
    Map {
        column: usize,
        row: usize,
    },
    CounterFronts(usize),
    CounterBacks(usize),
    /// Charts and tables (terrain effects, set-up, victory).
    Chart,
}

/// A kit: the PDF and what its pages are.
#[derive(Debug, Clone)]
pub struct Kit {
    pub pdf: Vec<u8>,
    pub pages: Vec<PageKind>,
    /// Map sections across and down.
    pub sections: [usize; 2],
    /// The map sheets' paper, mm: the paper's size, turned to landscape when that needs fewer
    /// sheets (every other page is portrait).
    pub map_paper: [f32; 2],
    /// What the player should know before printing (counters wider than the hexes).
    pub warnings: Vec<String>,
}

impl Kit {
    /// One line saying what the kit holds.
    pub fn summary(&self) -> String {
        let count = |f: fn(&PageKind) -> bool| self.pages.iter().filter(|p| f(p)).count();
        let s = |n: usize| if n == 1 { "" } else { "s" };
        let sheets = count(|p| matches!(p, PageKind::CounterFronts(_)));
        let charts = count(|p| matches!(p, PageKind::Chart));
        format!(
            "{} pages: 1 overview, {} map ({}×{}), {sheets} counter sheet{} (fronts and backs), \
             {charts} chart{}",
            self.pages.len(),
            count(|p| matches!(p, PageKind::Map { .. })),
            self.sections[0],
            self.sections[1],
            s(sheets),
            s(charts),
        )
    }
}

struct Page {
    kind: PageKind,
    /// SVG elements in millimetres.
    body: String,
    /// Width and height, mm.
    size: [f32; 2],
}

fn style(size_mm: f32, face: Face, colour: [u8; 4]) -> TextStyle {
    TextStyle {
        face,
        size_px: size_mm * UNITS,
        colour,
        halo: None,
    }
}

/// Text in a drawing in drawing units, at a position in millimetres.
pub(crate) fn text(
    d: &mut Drawing,
    s: &str,
    size_mm: f32,
    face: Face,
    at_mm: [f32; 2],
    anchor: Anchor,
) {
    d.text(
        s,
        &style(size_mm, face, INK),
        [at_mm[0] * UNITS, at_mm[1] * UNITS],
        anchor,
        Transform::identity(),
    );
}

pub(crate) const LEFT: Anchor = Anchor { x: 0.0, y: 1.0 };

fn rect_path(x: f32, y: f32, w: f32, h: f32) -> Option<bataille_render::tiny_skia::Path> {
    Rect::from_xywh(x * UNITS, y * UNITS, w * UNITS, h * UNITS).map(PathBuilder::from_rect)
}

pub(crate) fn line_mm(d: &mut Drawing, a: [f32; 2], b: [f32; 2], colour: [u8; 4], width_mm: f32) {
    let mut pb = PathBuilder::new();
    pb.move_to(a[0] * UNITS, a[1] * UNITS);
    pb.line_to(b[0] * UNITS, b[1] * UNITS);
    d.stroke_with(
        pb.finish(),
        colour,
        width_mm * UNITS,
        bataille_render::tiny_skia::LineCap::Butt,
        Transform::identity(),
    );
}

/// A drawing (in drawing units) as SVG in millimetres, its texts as text.
fn mm_group(d: &Drawing) -> String {
    format!(
        "<g transform=\"scale({})\">\n{}</g>\n",
        1.0 / UNITS,
        pdf::svg_with_text(d)
    )
}

/// The kit of a scenario on its map.
pub fn kit(scenario: &Scenario, map: &Map, options: &PrintOptions) -> Result<Kit, ExportError> {
    kit_of(scenario, map, options, None)
}

/// The kit of a scenario that is a variant (`variant`: what it changes, printed on its own page
/// before the set-up, which is the variant's), or of a scenario (`None`: as [`kit`]).
pub fn kit_of(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
    variant: Option<&crate::variants::VariantNote>,
) -> Result<Kit, ExportError> {
    let drawn = draw(scenario, map, options, variant)?;
    let pdf = pdf::assemble(
        &drawn
            .pages
            .iter()
            .map(|p| pdf::Sheet {
                size: p.size,
                body: &p.body,
            })
            .collect::<Vec<_>>(),
    )?;
    Ok(Kit {
        pdf,
        pages: drawn.pages.into_iter().map(|p| p.kind).collect(),
        sections: drawn.sections,
        map_paper: drawn.map_paper,
        warnings: drawn.warnings,
    })
}

/// The kit's pages as the SVG documents (one user unit a millimetre) that [`kit`] converts to
/// PDF, each with what it is: for checking what the pages say without a PDF reader.
pub fn kit_pages(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
) -> Result<Vec<(PageKind, String)>, ExportError> {
    Ok(draw(scenario, map, options, None)?
        .pages
        .into_iter()
        .map(|p| {
            let svg = pdf::page_svg(p.size, &p.body);
            (p.kind, svg)
        })
        .collect())
}

/// A kit's pages, drawn, before they are converted.
struct Drawn {
    pages: Vec<Page>,
    sections: [usize; 2],
    map_paper: [f32; 2],
    warnings: Vec<String>,
}

fn draw(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
    variant: Option<&crate::variants::VariantNote>,
) -> Result<Drawn, ExportError> {
    if !(5.0..=60.0).contains(&options.hex_mm) || !(5.0..=60.0).contains(&options.counter_mm) {
        return Err(ExportError::Invalid(
            "hex and counter sizes must be from 5 to 60 mm".to_owned(),
        ));
    }
    let w = words(scenario.language.as_deref());
    let mut warnings = Vec::new();
    if options.counter_mm > options.hex_mm + 0.05 {
        warnings.push(format!(
            "counters of {:.1} mm are wider than the {:.1} mm hexes: a counter covers its neighbours' hexes (choose a larger --hex or a smaller --counter)",
            options.counter_mm, options.hex_mm
        ));
    }
    let portrait = options.paper.size_mm();
    let render = RenderOptions {
        px_per_hex: options.hex_mm * UNITS,
        margin_px: Some(0.3 * options.hex_mm * UNITS),
        counters: false,
        leaders: false,
        paper: [0xff, 0xff, 0xff],
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &render).map_err(|error| match error {
        bataille_render::RenderError::TooLarge { width, height } => ExportError::Invalid(format!(
            "the map at {:.1} mm per hex would be {} × {} mm; the kit prints maps up to 2 m a side and 1.5 m² (choose a smaller --hex)",
            options.hex_mm,
            width / 10,
            height / 10
        )),
        other => ExportError::Render(other),
    })?;
    let map_size = [layout.width as f32 / UNITS, layout.height as f32 / UNITS];
    let sheets = SheetLayout::around(map_size, portrait, options.hex_mm);
    let mut pages = vec![overview(
        scenario, map, &layout, &render, &sheets, portrait, w,
    )];
    let parts = MapParts::of(map, &layout, &render, &sheets);
    for iy in 0..sheets.count[1] {
        for ix in 0..sheets.count[0] {
            pages.push(map_section(map, &layout, &parts, &sheets, [ix, iy], w));
        }
    }
    drop(parts);
    pages.extend(counter_sheets(scenario, map, options, portrait, w));
    pages.extend(
        charts::charts(scenario, map, portrait, w, variant)
            .into_iter()
            .map(|d| Page {
                kind: PageKind::Chart,
                body: mm_group(&d),
                size: portrait,
            }),
    );
    Ok(Drawn {
        pages,
        sections: sheets.count,
        map_paper: sheets.paper,
        warnings,
    })
}

pub(crate) fn translate(item: symbology::Item, dx: f32, dy: f32) -> symbology::Item {
    use symbology::Item;
    let t = |transform: Transform| transform.post_translate(dx, dy);
    match item {
        Item::Fill {
            path,
            colour,
            transform,
            crisp,
        } => Item::Fill {
            path,
            colour,
            transform: t(transform),
            crisp,
        },
        Item::Stroke {
            path,
            colour,
            width,
            cap,
            transform,
        } => Item::Stroke {
            path,
            colour,
            width,
            cap,
            transform: t(transform),
        },
        Item::Text {
            text,
            style,
            pos,
            anchor,
            transform,
        } => Item::Text {
            text,
            style,
            pos,
            anchor,
            transform: t(transform),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_in_english() {
        let kit = |pages: Vec<PageKind>| Kit {
            pdf: Vec::new(),
            pages,
            sections: [2, 1],
            map_paper: [210.0, 297.0],
            warnings: Vec::new(),
        };
        let map = |column| PageKind::Map { column, row: 0 };
        let one = kit(vec![
            PageKind::Overview,
            map(0),
            map(1),
            PageKind::CounterFronts(0),
            PageKind::CounterBacks(0),
            PageKind::Chart,
        ]);
        assert_eq!(
            one.summary(),
            "6 pages: 1 overview, 2 map (2×1), 1 counter sheet (fronts and backs), 1 chart"
        );
        let two = kit(vec![
            PageKind::Overview,
            map(0),
            map(1),
            PageKind::CounterFronts(0),
            PageKind::CounterBacks(0),
            PageKind::CounterFronts(1),
            PageKind::CounterBacks(1),
            PageKind::Chart,
            PageKind::Chart,
        ]);
        assert!(
            two.summary()
                .ends_with("2 counter sheets (fronts and backs), 2 charts"),
            "{}",
            two.summary()
        );
    }

    #[test]
    fn lengths() {
        assert_eq!(parse_length("16mm"), Ok(16.0));
        assert!((parse_length("5/8in").unwrap() - 15.875).abs() < 1e-4);
        assert!((parse_length("1/2in").unwrap() - 12.7).abs() < 1e-4);
        assert_eq!(parse_length("1.5cm"), Ok(15.0));
        assert!(parse_length("16").is_err());
        assert!(parse_length("1/0in").is_err());
        assert!(parse_length("200mm").is_err());
        assert!(parse_length("NaNmm").is_err());
    }

    #[test]
    fn sheets_are_symmetric() {
        for paper in [Paper::A4, Paper::Letter] {
            let g = sheet_grid(paper, 12.7);
            let [pw, _] = paper.size_mm();
            let right = g.left + (g.columns - 1) as f32 * g.pitch + g.size;
            assert!((pw - right - g.left).abs() < 1e-3);
        }
    }

    #[test]
    fn sheets_go_around_the_map() {
        // Denain at 16 mm on A4: 6 portrait sheets (3×2, the lower row mostly blank) or 4
        // landscape ones; the map is centred on them.
        let a4 = Paper::A4.size_mm();
        let s = SheetLayout::around([450.0, 336.0], a4, 16.0);
        assert_eq!(s.count, [2, 2]);
        assert_eq!(s.paper, [297.0, 210.0]);
        let area = s.area();
        let right = s.section_origin([1, 0])[0] + area[0];
        assert!((-s.origin[0] - (right - 450.0)).abs() < 1e-3, "{s:?}");
        // A tall map keeps the paper upright.
        let tall = SheetLayout::around([180.0, 500.0], a4, 16.0);
        assert_eq!(tall.paper, a4);
        assert_eq!(tall.count, [1, 2]);
        // Every hex is in the sections that show it.
        let [xs, ys] = s.sections_at([230.0, 10.0], 5.0);
        assert_eq!((xs, ys), (0..2, 0..1));
    }
}
