//! A print-and-play kit of a scenario as a PDF: an overview page, the map at a physical hex
//! size split over pages (with overlap, trim marks, and red alignment marks on the hex centres
//! of the overlap so neighbouring pages line up), counter sheets (fronts, then backs mirrored
//! left to right on the next page for double-sided printing flipped on the long edge), the
//! terrain effects chart generated from the legend, the set-up and reinforcement schedule, and
//! the victory conditions.
//!
//! Every page is an SVG in millimetres drawn from the one symbology
//! (`bataille_render::symbology`, text as glyph outlines), converted by `svg2pdf` and assembled
//! into one document with `pdf-writer`. Drawings are made in tenths of a millimetre (the
//! symbology's minimum line widths and text sizes are in its own units), then scaled.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Anchor, Face, TextStyle, text_width};
use bataille_render::tiny_skia::{PathBuilder, Rect, Transform};
use bataille_render::{Layout, RenderOptions};
use bataille_schema::map::{Effects, MoveCost};
use bataille_schema::scenario::Placement;
use bataille_schema::{Map, Scenario};

use crate::ExportError;
use crate::counters::{Counter, counters, marker_counters};

/// Drawing units per millimetre.
const UNITS: f32 = 10.0;
const MARGIN: f32 = 10.0;
const INK: [u8; 4] = [0x14, 0x14, 0x14, 0xff];
const GREY: [u8; 4] = [0x80, 0x80, 0x80, 0xff];
/// The alignment marks' colour: pure red, found by the tests.
pub const MARK: [u8; 4] = [0xff, 0x00, 0x00, 0xff];

/// The paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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
fn text(d: &mut Drawing, s: &str, size_mm: f32, face: Face, at_mm: [f32; 2], anchor: Anchor) {
    d.text(
        s,
        &style(size_mm, face, INK),
        [at_mm[0] * UNITS, at_mm[1] * UNITS],
        anchor,
        Transform::identity(),
    );
}

const LEFT: Anchor = Anchor { x: 0.0, y: 1.0 };

fn rect_path(x: f32, y: f32, w: f32, h: f32) -> Option<bataille_render::tiny_skia::Path> {
    Rect::from_xywh(x * UNITS, y * UNITS, w * UNITS, h * UNITS).map(PathBuilder::from_rect)
}

fn line_mm(d: &mut Drawing, a: [f32; 2], b: [f32; 2], colour: [u8; 4], width_mm: f32) {
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

/// A drawing (in drawing units) as SVG in millimetres.
fn mm_group(d: &Drawing) -> String {
    format!(
        "<g transform=\"scale({})\">\n{}</g>\n",
        1.0 / UNITS,
        d.to_svg()
    )
}

/// The kit of a scenario on its map.
pub fn kit(scenario: &Scenario, map: &Map, options: &PrintOptions) -> Result<Kit, ExportError> {
    if !(5.0..=60.0).contains(&options.hex_mm) || !(5.0..=60.0).contains(&options.counter_mm) {
        return Err(ExportError::Invalid(
            "hex and counter sizes must be from 5 to 60 mm".to_owned(),
        ));
    }
    let [pw, ph] = options.paper.size_mm();
    let (aw, ah) = (pw - 2.0 * MARGIN, ph - 2.0 * MARGIN);
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
    let map_svg = symbology::map_drawing(map, &layout, &render).to_svg();
    let (map_w, map_h) = (layout.width as f32 / UNITS, layout.height as f32 / UNITS);
    // Overlap: wide enough to hold a column (and a row) of hex centres with their marks.
    let overlap = (1.2 * options.hex_mm).max(10.0);
    let (step_x, step_y) = (aw - overlap, ah - overlap);
    let nx = (((map_w - overlap) / step_x).ceil() as usize).max(1);
    let ny = (((map_h - overlap) / step_y).ceil() as usize).max(1);
    let mut pages = vec![overview(
        scenario,
        map,
        &map_svg,
        [map_w, map_h],
        [nx, ny],
        [step_x, step_y],
        [pw, ph],
    )];
    for iy in 0..ny {
        for ix in 0..nx {
            pages.push(map_section(
                map,
                &layout,
                &map_svg,
                [ix, iy],
                [nx, ny],
                [step_x, step_y],
                overlap,
                [pw, ph],
            ));
        }
    }
    pages.extend(counter_sheets(scenario, map, options, [pw, ph]));
    pages.extend(charts(scenario, map, [pw, ph]));
    let pdf = assemble(&pages, [pw, ph])?;
    Ok(Kit {
        pdf,
        pages: pages.into_iter().map(|p| p.kind).collect(),
        sections: [nx, ny],
    })
}

fn section_name(ix: usize, iy: usize) -> String {
    let letter = (b'A' + (iy % 26) as u8) as char;
    format!("{letter}{}", ix + 1)
}

#[allow(clippy::too_many_arguments)]
fn overview(
    scenario: &Scenario,
    map: &Map,
    map_svg: &str,
    [map_w, map_h]: [f32; 2],
    [nx, ny]: [usize; 2],
    [step_x, step_y]: [f32; 2],
    [pw, ph]: [f32; 2],
) -> Page {
    let mut d = Drawing::new();
    text(
        &mut d,
        &scenario.title,
        7.0,
        Face::Bold,
        [MARGIN, MARGIN + 7.0],
        LEFT,
    );
    text(
        &mut d,
        &format!(
            "{} · {} turns of {} minutes from {} · map {}",
            scenario.date, scenario.turns, scenario.turn_minutes, scenario.start_time, map.name
        ),
        3.5,
        Face::Regular,
        [MARGIN, MARGIN + 14.0],
        LEFT,
    );
    text(
        &mut d,
        &format!(
            "Print at 100% (no scaling). The map is {nx}×{ny} sections: trim each along its trim marks, overlap neighbours until the red marks coincide, and tape."
        ),
        3.0,
        Face::Regular,
        [MARGIN, MARGIN + 20.0],
        LEFT,
    );
    let top = MARGIN + 26.0;
    let (aw, ah) = (pw - 2.0 * MARGIN, ph - top - MARGIN);
    let scale = (aw / map_w).min(ah / map_h);
    let mut body = mm_group(&d);
    let _ = writeln!(
        body,
        "<g transform=\"translate({} {}) scale({})\">\n{map_svg}</g>",
        MARGIN,
        top,
        scale / UNITS
    );
    // The sections over the map.
    let mut s = Drawing::new();
    for iy in 0..ny {
        for ix in 0..nx {
            let x = MARGIN + ix as f32 * step_x * scale;
            let y = top + iy as f32 * step_y * scale;
            let w =
                ((map_w - ix as f32 * step_x).min(step_x + (pw - 2.0 * MARGIN - step_x))) * scale;
            let h =
                ((map_h - iy as f32 * step_y).min(step_y + (ph - 2.0 * MARGIN - step_y))) * scale;
            s.stroke(
                rect_path(x, y, w, h),
                [0x20, 0x40, 0xc0, 0xff],
                0.4 * UNITS,
                Transform::identity(),
            );
            let label = TextStyle {
                face: Face::Bold,
                size_px: 6.0 * UNITS,
                colour: [0x20, 0x40, 0xc0, 0xc0],
                halo: Some(([0xff, 0xff, 0xff, 0xc0], 0.8 * UNITS)),
            };
            s.text(
                &section_name(ix, iy),
                &label,
                [(x + 4.0) * UNITS, (y + 8.0) * UNITS],
                LEFT,
                Transform::identity(),
            );
        }
    }
    body.push_str(&mm_group(&s));
    Page {
        kind: PageKind::Overview,
        body,
    }
}

#[allow(clippy::too_many_arguments)]
fn map_section(
    map: &Map,
    layout: &Layout,
    map_svg: &str,
    [ix, iy]: [usize; 2],
    [nx, ny]: [usize; 2],
    [step_x, step_y]: [f32; 2],
    overlap: f32,
    [pw, ph]: [f32; 2],
) -> Page {
    let (aw, ah) = (pw - 2.0 * MARGIN, ph - 2.0 * MARGIN);
    let (ox, oy) = (ix as f32 * step_x, iy as f32 * step_y);
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<defs><clipPath id=\"area\"><rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{aw}\" height=\"{ah}\"/></clipPath></defs>"
    );
    let _ = writeln!(
        body,
        "<g clip-path=\"url(#area)\"><g transform=\"translate({} {}) scale({})\">\n{map_svg}</g></g>",
        MARGIN - ox,
        MARGIN - oy,
        1.0 / UNITS
    );
    let mut d = Drawing::new();
    // Trim marks at the printable area's corners, outside it.
    for (x, y) in [
        (MARGIN, MARGIN),
        (MARGIN + aw, MARGIN),
        (MARGIN, MARGIN + ah),
        (MARGIN + aw, MARGIN + ah),
    ] {
        let sx = if x < pw / 2.0 { -1.0 } else { 1.0 };
        let sy = if y < ph / 2.0 { -1.0 } else { 1.0 };
        line_mm(&mut d, [x + sx * 1.5, y], [x + sx * 8.0, y], INK, 0.2);
        line_mm(&mut d, [x, y + sy * 1.5], [x, y + sy * 8.0], INK, 0.2);
    }
    // The overlap bands: dashed edges where the neighbour's section begins.
    let mut bands: Vec<[f32; 4]> = Vec::new(); // x0, y0, x1, y1 on the page, mm
    if ix + 1 < nx {
        bands.push([MARGIN + aw - overlap, MARGIN, MARGIN + aw, MARGIN + ah]);
    }
    if ix > 0 {
        bands.push([MARGIN, MARGIN, MARGIN + overlap, MARGIN + ah]);
    }
    if iy + 1 < ny {
        bands.push([MARGIN, MARGIN + ah - overlap, MARGIN + aw, MARGIN + ah]);
    }
    if iy > 0 {
        bands.push([MARGIN, MARGIN, MARGIN + aw, MARGIN + overlap]);
    }
    for band in &bands {
        let [x0, y0, x1, y1] = *band;
        // The inner edge of the band (the neighbour's section edge), dashed.
        let vertical = (y1 - y0) > (x1 - x0);
        let (a, b) = if vertical {
            let x = if x0 <= MARGIN { x1 } else { x0 };
            ([x, y0], [x, y1])
        } else {
            let y = if y0 <= MARGIN { y1 } else { y0 };
            ([x0, y], [x1, y])
        };
        let length = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let dashes = (length / 4.0) as usize;
        for k in 0..dashes {
            let t0 = k as f32 * 4.0 / length;
            let t1 = (k as f32 * 4.0 + 2.0) / length;
            let p = |t: f32| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            line_mm(&mut d, p(t0), p(t1.min(1.0)), GREY, 0.15);
        }
    }
    // Alignment marks on the hex centres inside the overlap bands.
    let r = 1.4;
    for index in map.grid.indices() {
        let c = layout.to_image(map.grid.centre(index));
        let p = [c[0] / UNITS - ox + MARGIN, c[1] / UNITS - oy + MARGIN];
        let inside = |b: &[f32; 4]| {
            p[0] >= b[0] + r && p[0] <= b[2] - r && p[1] >= b[1] + r && p[1] <= b[3] - r
        };
        if bands.iter().any(inside) {
            let circle = bataille_render::tiny_skia::PathBuilder::from_circle(
                p[0] * UNITS,
                p[1] * UNITS,
                r * UNITS,
            );
            d.stroke(circle, MARK, 0.2 * UNITS, Transform::identity());
            line_mm(
                &mut d,
                [p[0] - r * 1.4, p[1]],
                [p[0] + r * 1.4, p[1]],
                MARK,
                0.15,
            );
            line_mm(
                &mut d,
                [p[0], p[1] - r * 1.4],
                [p[0], p[1] + r * 1.4],
                MARK,
                0.15,
            );
        }
    }
    text(
        &mut d,
        &format!(
            "{} — map section {} of {}×{} (row {}, column {}) · overlap {:.0} mm",
            map.name,
            section_name(ix, iy),
            nx,
            ny,
            iy + 1,
            ix + 1,
            overlap
        ),
        2.8,
        Face::Regular,
        [MARGIN + 10.0, ph - 3.5],
        LEFT,
    );
    body.push_str(&mm_group(&d));
    Page {
        kind: PageKind::Map {
            column: ix,
            row: iy,
        },
        body,
    }
}

/// Where the counters go on a sheet: columns and rows, the pitch, the first counter's top-left.
pub struct SheetGrid {
    pub columns: usize,
    pub rows: usize,
    pub pitch: f32,
    pub left: f32,
    pub top: f32,
    pub size: f32,
}

/// The counter sheet's grid for a paper and a counter size; symmetric about the page's
/// vertical middle, so the mirrored backs fall on the same places.
pub fn sheet_grid(paper: Paper, counter_mm: f32) -> SheetGrid {
    let [pw, ph] = paper.size_mm();
    let gap = 1.5;
    let pitch = counter_mm + gap;
    let top = MARGIN + 12.0;
    let columns = (((pw - 2.0 * MARGIN + gap) / pitch).floor() as usize).max(1);
    let rows = (((ph - top - MARGIN + gap) / pitch).floor() as usize).max(1);
    let width = columns as f32 * pitch - gap;
    SheetGrid {
        columns,
        rows,
        pitch,
        left: (pw - width) / 2.0,
        top,
        size: counter_mm,
    }
}

fn counter_sheets(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
    [pw, ph]: [f32; 2],
) -> Vec<Page> {
    let grid = sheet_grid(options.paper, options.counter_mm);
    let mut all: Vec<Counter> = counters(scenario, map);
    all.extend(marker_counters());
    for counter in &mut all {
        counter.facing = None;
    }
    let per_sheet = grid.columns * grid.rows;
    let mut pages = Vec::new();
    let sheets = all.len().div_ceil(per_sheet).max(1);
    for (sheet, chunk) in all.chunks(per_sheet).enumerate() {
        for back in [false, true] {
            let mut d = Drawing::new();
            let title = if back {
                format!(
                    "{} — counter sheet {} of {}: BACKS",
                    scenario.title,
                    sheet + 1,
                    sheets
                )
            } else {
                format!(
                    "{} — counter sheet {} of {}: fronts",
                    scenario.title,
                    sheet + 1,
                    sheets
                )
            };
            text(
                &mut d,
                &title,
                3.2,
                Face::Bold,
                [MARGIN, MARGIN + 4.0],
                LEFT,
            );
            text(
                &mut d,
                &if back {
                    "Print on the back of the fronts page, flipped on the long edge: each back lands on its front.".to_owned()
                } else {
                    format!(
                        "Counters {:.1} mm. Backs: units one combat point less, batteries fired, leaders activated, Disorder → Rout.",
                        options.counter_mm
                    )
                },
                2.6,
                Face::Regular,
                [MARGIN, MARGIN + 9.0],
                LEFT,
            );
            for (i, counter) in chunk.iter().enumerate() {
                let (col, row) = (i % grid.columns, i / grid.columns);
                let col = if back { grid.columns - 1 - col } else { col };
                let x = grid.left + col as f32 * grid.pitch + grid.size / 2.0;
                let y = grid.top + row as f32 * grid.pitch + grid.size / 2.0;
                let drawing = counter.drawing(grid.size * UNITS, back);
                for item in drawing.items {
                    d.items.push(translate(item, x * UNITS, y * UNITS));
                }
            }
            pages.push(Page {
                kind: if back {
                    PageKind::CounterBacks(sheet)
                } else {
                    PageKind::CounterFronts(sheet)
                },
                body: mm_group(&d),
            });
        }
    }
    let _ = (pw, ph);
    pages
}

fn translate(item: symbology::Item, dx: f32, dy: f32) -> symbology::Item {
    use symbology::Item;
    let t = |transform: Transform| transform.post_translate(dx, dy);
    match item {
        Item::Fill {
            path,
            colour,
            transform,
        } => Item::Fill {
            path,
            colour,
            transform: t(transform),
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

/// A flow of lines over pages: headings, text wrapped to the width, table rows.
struct Flow {
    pages: Vec<Drawing>,
    y: f32,
    width: f32,
    height: f32,
}

impl Flow {
    fn new([pw, ph]: [f32; 2]) -> Self {
        Flow {
            pages: vec![Drawing::new()],
            y: MARGIN,
            width: pw - 2.0 * MARGIN,
            height: ph - MARGIN,
        }
    }

    fn need(&mut self, mm: f32) {
        if self.y + mm > self.height {
            self.pages.push(Drawing::new());
            self.y = MARGIN;
        }
    }

    fn page(&mut self) -> &mut Drawing {
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn heading(&mut self, s: &str, size: f32) {
        self.need(size * 2.5 + 6.0);
        self.y += size * 1.6;
        let y = self.y;
        text(self.page(), s, size, Face::Bold, [MARGIN, y], LEFT);
        self.y += size * 0.6;
    }

    fn paragraph(&mut self, s: &str, size: f32, indent: f32) {
        for line in wrap(s, size, self.width - indent) {
            self.need(size * 1.45);
            self.y += size * 1.45;
            let y = self.y;
            text(
                self.page(),
                &line,
                size,
                Face::Regular,
                [MARGIN + indent, y],
                LEFT,
            );
        }
    }

    /// A table row: cells at column offsets (mm), an optional swatch drawing in the first
    /// column (drawn in units, centred in a `row_h` square).
    fn row(
        &mut self,
        cells: &[(f32, String, Face)],
        swatch: Option<Drawing>,
        row_h: f32,
        size: f32,
    ) {
        self.need(row_h);
        let y = self.y;
        if let Some(swatch) = swatch {
            for item in swatch.items {
                self.page().items.push(translate(
                    item,
                    (MARGIN + row_h / 2.0) * UNITS,
                    (y + row_h / 2.0) * UNITS,
                ));
            }
        }
        for (x, s, face) in cells {
            text(
                self.page(),
                s,
                size,
                *face,
                [MARGIN + x, y + row_h / 2.0],
                Anchor { x: 0.0, y: 0.5 },
            );
        }
        self.y += row_h;
        let (y, width) = (self.y, self.width);
        line_mm(
            self.page(),
            [MARGIN, y],
            [MARGIN + width, y],
            [0xc0, 0xc0, 0xc0, 0xff],
            0.15,
        );
    }

    fn gap(&mut self, mm: f32) {
        self.y += mm;
    }
}

/// Words wrapped to lines no wider than `width` mm.
fn wrap(s: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, Face::Regular, size) > width {
            lines.push(std::mem::take(&mut line));
            line = word.to_owned();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn cost_text(cost: Option<MoveCost>, default: &str) -> String {
    match cost {
        None => default.to_owned(),
        Some(MoveCost::Mp(n)) => n.to_string(),
        Some(MoveCost::AllMp) => "all".to_owned(),
        Some(MoveCost::HalfMp) => "½".to_owned(),
        Some(MoveCost::Impassable) => "—".to_owned(),
    }
}

/// The cost for a unit kind: its movement class's (`moves_as`, else its id), else the default.
fn cost_for(
    cost: Option<MoveCost>,
    by_kind: &BTreeMap<bataille_schema::Id, MoveCost>,
    kind_id: &bataille_schema::Id,
    moves_as: Option<&bataille_schema::Id>,
) -> Option<MoveCost> {
    by_kind
        .get(moves_as.unwrap_or(kind_id))
        .or_else(|| by_kind.get(kind_id))
        .copied()
        .or(cost)
}

fn effects_notes(e: &Effects) -> String {
    let mut notes = Vec::new();
    if e.built_up {
        notes.push("built-up".to_owned());
    }
    if e.elevated {
        notes.push("elevated".to_owned());
    }
    if e.redoubt {
        notes.push("redoubt".to_owned());
    }
    if e.road_bonus_mp > 0 {
        notes.push(format!("+{} MP on road", e.road_bonus_mp));
    }
    notes.join(", ")
}

fn charts(scenario: &Scenario, map: &Map, paper: [f32; 2]) -> Vec<Page> {
    let mut flow = Flow::new(paper);
    let kinds: Vec<(&bataille_schema::Id, &bataille_schema::scenario::UnitKind)> = scenario
        .rules
        .unit_kinds
        .iter()
        .filter(|(_, k)| !k.immobile)
        .collect();
    flow.heading(&format!("Terrain effects chart — {}", map.name), 6.0);
    flow.paragraph(
        "Movement points to enter a hex (— impassable, all: the whole move), protection added to fire against a unit there, whether it blocks line of sight and zones of control. Generated from the map's legend.",
        3.0,
        0.0,
    );
    flow.gap(2.0);
    let size = 2.8;
    let kind_w = 15.0;
    let name_w = 52.0;
    let swatch_w = 12.0;
    let mut header: Vec<(f32, String, Face)> = vec![(swatch_w, "Terrain".to_owned(), Face::Bold)];
    for (i, (_, kind)) in kinds.iter().enumerate() {
        let name: String = kind.name.chars().take(9).collect();
        header.push((swatch_w + name_w + i as f32 * kind_w, name, Face::Bold));
    }
    let after = swatch_w + name_w + kinds.len() as f32 * kind_w;
    header.push((after, "Prot.".to_owned(), Face::Bold));
    header.push((after + 10.0, "LOS".to_owned(), Face::Bold));
    header.push((after + 20.0, "ZOC".to_owned(), Face::Bold));
    header.push((after + 30.0, "Other".to_owned(), Face::Bold));
    flow.row(&header, None, 7.0, size);
    let radius = 4.6 * UNITS;
    for (code, terrain) in &map.terrain {
        let Some(c) = code.chars().next() else {
            continue;
        };
        let e = &terrain.effects;
        let mut cells = vec![(
            swatch_w,
            terrain.name.chars().take(34).collect(),
            Face::Regular,
        )];
        for (i, (id, kind)) in kinds.iter().enumerate() {
            cells.push((
                swatch_w + name_w + i as f32 * kind_w,
                cost_text(
                    cost_for(e.cost, &e.cost_by_kind, id, kind.moves_as.as_ref()),
                    "1",
                ),
                Face::Regular,
            ));
        }
        cells.push((
            after,
            if e.protection > 0 {
                format!("+{}", e.protection)
            } else {
                String::new()
            },
            Face::Regular,
        ));
        cells.push((
            after + 10.0,
            if e.blocks_sight {
                "blocks".to_owned()
            } else {
                String::new()
            },
            Face::Regular,
        ));
        cells.push((
            after + 20.0,
            if e.blocks_zoc {
                "blocks".to_owned()
            } else {
                String::new()
            },
            Face::Regular,
        ));
        cells.push((after + 30.0, effects_notes(e), Face::Regular));
        flow.row(&cells, symbology::terrain_hex(map, c, radius), 10.0, size);
    }
    if !map.overlay_types.is_empty() {
        flow.gap(4.0);
        let mut header = header.clone();
        header[0].1 = "Overlay".to_owned();
        flow.row(&header, None, 7.0, size);
        for overlay in map.overlay_types.values() {
            let e = &overlay.effects;
            let mut cells = vec![(0.0, overlay.name.chars().take(40).collect(), Face::Regular)];
            for (i, (id, kind)) in kinds.iter().enumerate() {
                cells.push((
                    swatch_w + name_w + i as f32 * kind_w,
                    cost_text(
                        cost_for(e.cost, &e.cost_by_kind, id, kind.moves_as.as_ref()),
                        "",
                    ),
                    Face::Regular,
                ));
            }
            cells.push((
                after,
                if e.protection > 0 {
                    format!("+{}", e.protection)
                } else {
                    String::new()
                },
                Face::Regular,
            ));
            cells.push((
                after + 10.0,
                if e.blocks_sight {
                    "blocks".to_owned()
                } else {
                    String::new()
                },
                Face::Regular,
            ));
            cells.push((
                after + 20.0,
                if e.blocks_zoc {
                    "blocks".to_owned()
                } else {
                    String::new()
                },
                Face::Regular,
            ));
            cells.push((after + 30.0, effects_notes(e), Face::Regular));
            // Overlay names are long: the name spans the swatch column.
            flow.row(&cells, None, 8.0, size);
        }
    }
    if !map.hexside_types.is_empty() {
        flow.gap(4.0);
        let mut header: Vec<(f32, String, Face)> =
            vec![(swatch_w, "Hexside (cost to cross)".to_owned(), Face::Bold)];
        for (i, (_, kind)) in kinds.iter().enumerate() {
            let name: String = kind.name.chars().take(9).collect();
            header.push((swatch_w + name_w + i as f32 * kind_w, name, Face::Bold));
        }
        header.push((after, "ZOC".to_owned(), Face::Bold));
        header.push((after + 10.0, "Other".to_owned(), Face::Bold));
        flow.row(&header, None, 7.0, size);
        for hexside in map.hexside_types.values() {
            let mut cells = vec![(
                swatch_w,
                hexside.name.chars().take(34).collect(),
                Face::Regular,
            )];
            for (i, (id, kind)) in kinds.iter().enumerate() {
                cells.push((
                    swatch_w + name_w + i as f32 * kind_w,
                    cost_text(
                        cost_for(
                            hexside.cost,
                            &hexside.cost_by_kind,
                            id,
                            kind.moves_as.as_ref(),
                        ),
                        "",
                    ),
                    Face::Regular,
                ));
            }
            cells.push((
                after,
                if hexside.blocks_zoc {
                    "blocks".to_owned()
                } else {
                    String::new()
                },
                Face::Regular,
            ));
            let mut other = Vec::new();
            if hexside.needs_breach {
                other.push("breach needed");
            }
            if hexside.bridge {
                other.push("bridge");
            }
            if hexside.water {
                other.push("water");
            }
            cells.push((after + 10.0, other.join(", "), Face::Regular));
            let mut swatch = Drawing::new();
            let colour = crate::counters::rgb(&hexside.colour);
            let mut pb = PathBuilder::new();
            pb.move_to(-4.0 * UNITS, 0.0);
            pb.line_to(4.0 * UNITS, 0.0);
            let width = match hexside.symbol {
                bataille_schema::map::HexsideSymbol::River => 1.6,
                bataille_schema::map::HexsideSymbol::Stream => 0.9,
                _ => 0.7,
            };
            swatch.stroke(
                pb.finish(),
                [colour[0], colour[1], colour[2], 255],
                width * UNITS,
                Transform::identity(),
            );
            flow.row(&cells, Some(swatch), 8.0, size);
        }
    }
    // Set-up and reinforcements.
    flow.heading(&format!("Set-up — {}", scenario.title), 6.0);
    let zone_names: HashMap<&str, &str> = scenario
        .zones
        .iter()
        .map(|z| (z.id.as_str(), z.name.as_str()))
        .collect();
    let all = counters(scenario, map);
    for army in &scenario.armies {
        flow.heading(&army.name, 4.2);
        for counter in all.iter().filter(|c| c.army == Some(army.id.as_str())) {
            let Some(placement) = counter.placement else {
                continue;
            };
            let facing = match &counter.kind {
                crate::counters::CounterKind::Unit { unit, .. } => unit
                    .facing
                    .map(|f| format!(", facing {f}"))
                    .unwrap_or_default(),
                crate::counters::CounterKind::Marker(_) => String::new(),
            };
            let line = match placement {
                Placement::Hex(hex) => format!("{} — {}{facing}", hex.as_str(), counter.name),
                Placement::Free { zone, at } => format!(
                    "{} — {}{facing} (free set-up in {})",
                    at.as_ref().map_or("anywhere", |h| h.as_str()),
                    counter.name,
                    zone_names
                        .get(zone.as_str())
                        .copied()
                        .unwrap_or(zone.as_str())
                ),
                Placement::Reinforcement { .. } | Placement::Unplaced => continue,
            };
            flow.paragraph(&line, 2.9, 3.0);
        }
    }
    let mut by_turn: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for counter in &all {
        if let Some(Placement::Reinforcement { turn, entry }) = counter.placement {
            let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
            let army = scenario
                .armies
                .iter()
                .find(|a| Some(a.id.as_str()) == counter.army)
                .map_or("", |a| a.name.as_str());
            by_turn.entry(*turn).or_default().push(format!(
                "{} ({army}) enters at {}",
                counter.name,
                entry.join(" or ")
            ));
        }
    }
    if !by_turn.is_empty() {
        flow.heading("Reinforcement schedule", 4.8);
        for (turn, lines) in &by_turn {
            flow.heading(
                &format!(
                    "Turn {turn} — {}",
                    crate::counters::turn_time(scenario, *turn)
                ),
                3.6,
            );
            for line in lines {
                flow.paragraph(line, 2.9, 3.0);
            }
        }
    }
    // Victory.
    let v = &scenario.victory;
    flow.heading("Victory conditions", 6.0);
    for objective in &v.objectives {
        flow.paragraph(
            &format!(
                "{} ({}): {} points",
                objective.name,
                objective.hex.as_str(),
                objective.points
            ),
            3.0,
            3.0,
        );
    }
    for objective in &v.unit_objectives {
        let name = all
            .iter()
            .find(|c| c.id == objective.unit.as_str())
            .map_or(objective.unit.as_str(), |c| c.name.as_str());
        flow.paragraph(
            &format!("Eliminating or routing {name}: {} points", objective.points),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_cp_eliminated > 0 {
        flow.paragraph(
            &format!(
                "Each enemy combat point eliminated: {} points",
                v.points_per_enemy_cp_eliminated
            ),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_unit_routed > 0 {
        flow.paragraph(
            &format!(
                "Each enemy unit routed: {} points",
                v.points_per_enemy_unit_routed
            ),
            3.0,
            3.0,
        );
    }
    for hold in &v.holds {
        let army = scenario
            .armies
            .iter()
            .find(|a| a.id == hold.army)
            .map_or(hold.army.as_str(), |a| a.name.as_str());
        let hexes: Vec<&str> = hold.hexes.iter().map(|h| h.as_str()).collect();
        let count = hold
            .at_least
            .map_or_else(|| "all of".to_owned(), |n| format!("at least {n} of"));
        flow.paragraph(
            &format!("{army} holds {count} {}: {}", hexes.join(", "), hold.result),
            3.0,
            3.0,
        );
    }
    for loss in &v.leader_losses {
        let leader = all
            .iter()
            .find(|c| c.id == loss.leader.as_str())
            .map_or(loss.leader.as_str(), |c| c.name.as_str());
        let winner = scenario
            .armies
            .iter()
            .find(|a| a.id == loss.winner)
            .map_or(loss.winner.as_str(), |a| a.name.as_str());
        flow.paragraph(&format!("If {leader} is lost: {winner} wins"), 3.0, 3.0);
    }
    if let Some(notes) = &v.notes {
        flow.gap(2.0);
        flow.paragraph(notes, 3.0, 0.0);
    }
    flow.pages
        .into_iter()
        .map(|d| Page {
            kind: PageKind::Chart,
            body: mm_group(&d),
        })
        .collect()
}

/// The pages as one PDF: each page's SVG converted by svg2pdf into a form XObject, drawn over
/// the whole page.
fn assemble(pages: &[Page], [pw, ph]: [f32; 2]) -> Result<Vec<u8>, ExportError> {
    use pdf_writer::{Content, Finish, Name, Pdf, Ref};
    let pt = 72.0 / 25.4;
    let (wpt, hpt) = (pw * pt, ph * pt);
    let mut alloc = Ref::new(1);
    let catalog_id = alloc.bump();
    let tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::new();
    let options = svg2pdf::usvg::Options::default();
    for page in pages {
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}mm\" height=\"{ph}mm\" viewBox=\"0 0 {pw} {ph}\">\n<rect width=\"{pw}\" height=\"{ph}\" fill=\"#ffffff\"/>\n{}</svg>\n",
            page.body
        );
        let tree = svg2pdf::usvg::Tree::from_str(&svg, &options)
            .map_err(|error| ExportError::Pdf(error.to_string()))?;
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|error| ExportError::Pdf(error.to_string()))?;
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
    let count = page_ids.len() as i32;
    pdf.pages(tree_id).kids(page_ids).count(count);
    Ok(pdf.finish())
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
    fn wrapping() {
        let lines = wrap("one two three four five six seven", 3.0, 20.0);
        assert!(lines.len() > 1);
        assert!(
            lines
                .iter()
                .all(|l| text_width(l, Face::Regular, 3.0) <= 20.0 || !l.contains(' '))
        );
    }
}
