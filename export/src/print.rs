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
mod pdf;
mod words;

use std::collections::HashSet;
use std::fmt::Write as _;

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Anchor, Face, TextStyle, text_width};
use bataille_render::tiny_skia::{PathBuilder, Rect, Transform};
use bataille_render::{Layout, RenderOptions};
use bataille_schema::map::{HexsideType, OverlaySymbol};
use bataille_schema::{HexIndex, Map, Scenario};

use crate::ExportError;
use crate::counters::{Counter, counters, marker_counters, replacement_counters};
use crate::language::fill;
use words::{Words, words};

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

/// How the map is cut into sheets: the paper's way round that needs fewer sheets, and the
/// map centred on the sheets' whole area, so that no sheet is left mostly blank.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetLayout {
    /// The map sheets' paper, mm (portrait or landscape).
    pub paper: [f32; 2],
    /// Sections across and down.
    pub count: [usize; 2],
    /// From one section's origin to the next, mm.
    pub step: [f32; 2],
    /// The overlap between neighbouring sections, mm.
    pub overlap: f32,
    /// Where the first section's printable area starts on the map, mm (negative: the map is
    /// centred, with blank paper before it).
    pub origin: [f32; 2],
    /// The map's size, mm.
    pub map: [f32; 2],
}

impl SheetLayout {
    /// The sheets for a map of `map` mm on paper of `portrait` size.
    pub fn around(map: [f32; 2], portrait: [f32; 2], hex_mm: f32) -> SheetLayout {
        // Overlap: wide enough to hold a column (and a row) of hex centres with their marks.
        let overlap = (1.2 * hex_mm).max(10.0);
        let fit = |paper: [f32; 2]| {
            let area = [paper[0] - 2.0 * MARGIN, paper[1] - 2.0 * MARGIN];
            let step = [area[0] - overlap, area[1] - overlap];
            let count = [0, 1].map(|a| (((map[a] - overlap) / step[a]).ceil() as usize).max(1));
            let origin = [0, 1].map(|a| {
                let covered = step[a] * (count[a] - 1) as f32 + area[a];
                -((covered - map[a]) / 2.0).max(0.0)
            });
            SheetLayout {
                paper,
                count,
                step,
                overlap,
                origin,
                map,
            }
        };
        let upright = fit(portrait);
        let turned = fit([portrait[1], portrait[0]]);
        let sheets = |s: &SheetLayout| s.count[0] * s.count[1];
        if sheets(&turned) < sheets(&upright) {
            turned
        } else {
            upright
        }
    }

    /// The printable area of the paper, mm.
    pub fn area(&self) -> [f32; 2] {
        [self.paper[0] - 2.0 * MARGIN, self.paper[1] - 2.0 * MARGIN]
    }

    /// Where section `[ix, iy]`'s printable area starts on the map, mm.
    pub fn section_origin(&self, [ix, iy]: [usize; 2]) -> [f32; 2] {
        [
            self.origin[0] + ix as f32 * self.step[0],
            self.origin[1] + iy as f32 * self.step[1],
        ]
    }

    /// The sections whose printable area (widened by `reach` mm) holds the point `p` (mm), as
    /// ranges of columns and rows.
    fn sections_at(&self, p: [f32; 2], reach: f32) -> [std::ops::Range<usize>; 2] {
        let area = self.area();
        [0, 1].map(|a| {
            let x = p[a] - self.origin[a];
            let first = ((x - reach - area[a]) / self.step[a]).ceil().max(0.0) as usize;
            let last = ((x + reach) / self.step[a]).floor();
            let end = if last < 0.0 {
                0
            } else {
                (last as usize + 1).min(self.count[a])
            };
            first.min(end)..end
        })
    }
}

fn section_name(ix: usize, iy: usize) -> String {
    let letter = (b'A' + (iy % 26) as u8) as char;
    format!("{letter}{}", ix + 1)
}

fn overview(
    scenario: &Scenario,
    map: &Map,
    layout: &Layout,
    render: &RenderOptions,
    sheets: &SheetLayout,
    [pw, ph]: [f32; 2],
    w: &Words,
) -> Page {
    let mut d = Drawing::new();
    let width = pw - 2.0 * MARGIN;
    let mut y = MARGIN;
    for line in charts::wrap(&scenario.title, Face::Bold, 7.0, width) {
        y += 7.0 * 1.3;
        text(&mut d, &line, 7.0, Face::Bold, [MARGIN, y], LEFT);
    }
    y += 1.5;
    let subtitle = fill(
        w.subtitle,
        &[
            ("date", &scenario.date),
            ("turns", &scenario.turns.to_string()),
            ("minutes", &scenario.turn_minutes.to_string()),
            ("start", &scenario.start_time),
            ("map", &map.name),
        ],
    );
    for line in charts::wrap(&subtitle, Face::Regular, 3.5, width) {
        y += 3.5 * 1.4;
        text(&mut d, &line, 3.5, Face::Regular, [MARGIN, y], LEFT);
    }
    y += 1.5;
    let sections = format!("{}×{}", sheets.count[0], sheets.count[1]);
    let assembly = fill(w.assembly, &[("sections", &sections)]);
    for line in charts::wrap(&assembly, Face::Regular, 3.0, width) {
        y += 3.0 * 1.4;
        text(&mut d, &line, 3.0, Face::Regular, [MARGIN, y], LEFT);
    }
    let top = y + 5.0;
    let [map_w, map_h] = sheets.map;
    let (aw, ah) = (width, ph - top - MARGIN);
    let scale = (aw / map_w).min(ah / map_h);
    let mut body = mm_group(&d);
    // The overview shows the map's shapes; its names would be too small to read.
    let small = RenderOptions {
        hex_names: false,
        labels: false,
        ..render.clone()
    };
    let _ = writeln!(
        body,
        "<g transform=\"translate({} {}) scale({})\">\n{}</g>",
        MARGIN,
        top,
        scale / UNITS,
        symbology::map_drawing(map, layout, &small).to_svg()
    );
    // The sections over the map.
    let mut s = Drawing::new();
    let area = sheets.area();
    for iy in 0..sheets.count[1] {
        for ix in 0..sheets.count[0] {
            let [ox, oy] = sheets.section_origin([ix, iy]);
            let x0 = ox.max(0.0);
            let y0 = oy.max(0.0);
            let x1 = (ox + area[0]).min(map_w);
            let y1 = (oy + area[1]).min(map_h);
            let (x, y) = (MARGIN + x0 * scale, top + y0 * scale);
            s.stroke(
                rect_path(x, y, (x1 - x0) * scale, (y1 - y0) * scale),
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
        size: [pw, ph],
    }
}

/// What each map section draws, gathered once for the whole map: the hexes, hexside
/// features and place names within reach of each section, so that a section draws only its
/// own part of the map (the kit's work grows with the map's area, not with its square).
struct MapParts<'a> {
    options: &'a RenderOptions,
    /// Terrain code of each hex, by row then column.
    codes: Vec<Vec<Option<char>>>,
    roads: HashSet<HexIndex>,
    /// Per section (row-major): its hexes, in the grid's order.
    hexes: Vec<Vec<HexIndex>>,
    /// Per section: its hexside features (drawing order, hex, side, feature).
    hexsides: Vec<Vec<(u8, HexIndex, bataille_schema::Side, &'a HexsideType)>>,
    /// Per section: its place names.
    labels: Vec<Vec<(HexIndex, &'a str)>>,
}

impl<'a> MapParts<'a> {
    fn of(
        map: &'a Map,
        layout: &Layout,
        options: &'a RenderOptions,
        sheets: &SheetLayout,
    ) -> MapParts<'a> {
        let grid = &map.grid;
        let n = sheets.count[0] * sheets.count[1];
        let codes: Vec<Vec<Option<char>>> = (0..grid.rows as usize)
            .map(|row| {
                let mut chars = map.rows.get(row).map(|r| r.chars());
                (0..grid.columns)
                    .map(|_| chars.as_mut().and_then(Iterator::next))
                    .collect()
            })
            .collect();
        let radius = layout.radius_px / UNITS;
        let centre_mm = |index: HexIndex| {
            let c = layout.to_image(grid.centre(index));
            [c[0] / UNITS, c[1] / UNITS]
        };
        let mut parts = MapParts {
            options,
            codes,
            roads: HashSet::new(),
            hexes: vec![Vec::new(); n],
            hexsides: vec![Vec::new(); n],
            labels: vec![Vec::new(); n],
        };
        let each = |p: [f32; 2], reach: f32, f: &mut dyn FnMut(usize)| {
            let [xs, ys] = sheets.sections_at(p, reach);
            for iy in ys {
                for ix in xs.clone() {
                    f(iy * sheets.count[0] + ix);
                }
            }
        };
        for index in map.hexes() {
            let hexes = &mut parts.hexes;
            each(centre_mm(index), radius * 1.3, &mut |s| {
                hexes[s].push(index)
            });
        }
        for (hex, ids) in &map.overlays {
            if let Some(index) = grid.lookup(hex)
                && ids.iter().any(|id| {
                    map.overlay_types
                        .get(id)
                        .is_some_and(|o| o.symbol == OverlaySymbol::Road)
                })
            {
                parts.roads.insert(index);
            }
        }
        for (id, refs) in &map.hexsides {
            let Some(feature) = map.hexside_types.get(id) else {
                continue;
            };
            let order = symbology::part::hexside_order(feature.symbol);
            for hexside in refs {
                let Ok((index, side)) = grid.parse_hexside(hexside.as_str()) else {
                    continue;
                };
                let hexsides = &mut parts.hexsides;
                each(centre_mm(index), radius * 1.3, &mut |s| {
                    hexsides[s].push((order, index, side, feature));
                });
            }
        }
        for list in &mut parts.hexsides {
            // Stable: features of one order keep the file's order, as the renderer draws them.
            list.sort_by_key(|(order, ..)| *order);
        }
        if options.labels {
            for (hex, label) in &map.labels {
                let Some(index) = grid.lookup(hex) else {
                    continue;
                };
                let reach = radius
                    + text_width(label, Face::Bold, (0.34 * radius * UNITS).max(7.0)) / UNITS;
                let labels = &mut parts.labels;
                each(centre_mm(index), reach, &mut |s| {
                    labels[s].push((index, label.as_str()));
                });
            }
        }
        parts
    }

    /// The map's drawing for one section, in the renderer's layer order.
    fn drawing(&self, map: &Map, layout: &Layout, section: usize) -> Drawing {
        use symbology::part;
        let o = self.options;
        let hexes = &self.hexes[section];
        let code_at = |index: HexIndex| {
            self.codes
                .get(index.row as usize)
                .and_then(|row| row.get(index.col as usize))
                .copied()
                .flatten()
        };
        let mut d = Drawing::new();
        for &index in hexes {
            part::terrain(&mut d, map, layout, index, code_at(index));
        }
        if o.patterns {
            for &index in hexes {
                part::pattern(&mut d, map, layout, index, code_at(index));
            }
        }
        if o.grid_lines {
            for &index in hexes {
                part::grid_line(&mut d, map, layout, index);
            }
        }
        if o.hexsides {
            for (_, index, side, feature) in &self.hexsides[section] {
                part::hexside(&mut d, map, layout, *index, *side, feature);
            }
        }
        if o.overlays {
            let is_road = |index: HexIndex| self.roads.contains(&index);
            for casing in [true, false] {
                for &index in hexes.iter().filter(|i| self.roads.contains(i)) {
                    part::roads(&mut d, map, layout, index, casing, &is_road);
                }
            }
            for &index in hexes {
                if map.overlays.contains_key(&map.grid.name(index)) {
                    part::overlays(&mut d, map, layout, index, &code_at);
                }
            }
        }
        if o.hex_names {
            for &index in hexes {
                part::hex_name(&mut d, map, layout, index);
            }
        }
        for (index, label) in &self.labels[section] {
            part::label(&mut d, map, layout, *index, label, o.paper);
        }
        d
    }
}

fn map_section(
    map: &Map,
    layout: &Layout,
    parts: &MapParts<'_>,
    sheets: &SheetLayout,
    [ix, iy]: [usize; 2],
    w: &Words,
) -> Page {
    let [pw, ph] = sheets.paper;
    let [nx, ny] = sheets.count;
    let [aw, ah] = sheets.area();
    let overlap = sheets.overlap;
    let [ox, oy] = sheets.section_origin([ix, iy]);
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<defs><clipPath id=\"area\"><rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{aw}\" height=\"{ah}\"/></clipPath></defs>"
    );
    let section = parts.drawing(map, layout, iy * nx + ix);
    let _ = writeln!(
        body,
        "<g clip-path=\"url(#area)\"><g transform=\"translate({} {}) scale({})\">\n{}</g></g>",
        MARGIN - ox,
        MARGIN - oy,
        1.0 / UNITS,
        pdf::svg_with_text(&section)
    );
    drop(section);
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
    for &index in &parts.hexes[iy * nx + ix] {
        let c = layout.to_image(map.grid.centre(index));
        let p = [c[0] / UNITS - ox + MARGIN, c[1] / UNITS - oy + MARGIN];
        let inside = |b: &[f32; 4]| {
            p[0] >= b[0] + r && p[0] <= b[2] - r && p[1] >= b[1] + r && p[1] <= b[3] - r
        };
        if bands.iter().any(inside) {
            let circle = PathBuilder::from_circle(p[0] * UNITS, p[1] * UNITS, r * UNITS);
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
        &fill(
            w.map_section,
            &[
                ("map", &map.name),
                ("name", &section_name(ix, iy)),
                ("sections", &format!("{nx}×{ny}")),
                ("row", &(iy + 1).to_string()),
                ("column", &(ix + 1).to_string()),
                ("overlap", &format!("{overlap:.0}")),
            ],
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
        size: [pw, ph],
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
    let top = MARGIN + 14.0;
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

/// What the backs of the game's counters show, from its counter layout (`rules.counters`).
fn backs_note(scenario: &Scenario, w: &Words) -> String {
    use bataille_schema::scenario::CounterBack;
    let layout = &scenario.rules.counters;
    let describe = |back: CounterBack| match back {
        CounterBack::Reduced(n) => fill(w.back_reduced, &[("n", &n.to_string())]),
        CounterBack::Blank => w.back_blank.to_owned(),
        CounterBack::Same => w.back_same.to_owned(),
        CounterBack::Fired => w.back_fired.to_owned(),
    };
    let mut parts = vec![describe(layout.back)];
    if let CounterBack::Reduced(n) = layout.back {
        let any_blank =
            scenario.armies.iter().flat_map(|a| &a.units).any(|u| {
                !layout.back_by_kind.contains_key(&u.kind) && u.cp.is_some_and(|cp| cp <= n)
            });
        if any_blank {
            parts.push(fill(w.back_reduced_blank, &[("n", &n.to_string())]));
        }
    }
    for (kind, back) in &layout.back_by_kind {
        let name = scenario
            .rules
            .unit_kinds
            .get(kind)
            .map_or(kind.as_str(), |k| k.name.as_str());
        parts.push(fill(
            w.back_of_kind,
            &[("kind", name), ("back", &describe(*back))],
        ));
    }
    if let Some(n) = layout.replacement_from_cp {
        parts.push(fill(w.back_replacement, &[("n", &n.to_string())]));
    }
    parts.push(w.back_leaders.to_owned());
    for marker in &layout.markers {
        match &marker.marker {
            bataille_schema::scenario::MarkerType::Disorder => {
                parts.push(w.back_disorder.to_owned());
            }
            bataille_schema::scenario::MarkerType::Text {
                front,
                back: Some(back),
            } => parts.push(format!("{front} → {back}")),
            _ => {}
        }
    }
    parts.join(", ")
}

fn counter_sheets(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
    [pw, ph]: [f32; 2],
    w: &Words,
) -> Vec<Page> {
    let grid = sheet_grid(options.paper, options.counter_mm);
    let mut all: Vec<Counter> = counters(scenario, map);
    all.extend(replacement_counters(scenario, map));
    all.extend(marker_counters(scenario));
    for counter in &mut all {
        counter.facing = None;
    }
    let per_sheet = grid.columns * grid.rows;
    let mut pages = Vec::new();
    let sheets = all.len().div_ceil(per_sheet).max(1);
    let width = pw - 2.0 * MARGIN;
    // One line each above the counters: smaller type rather than a line off the page.
    let fitted = |s: &str, size: f32, face: Face| {
        let wide = text_width(s, face, size);
        if wide > width {
            size * width / wide
        } else {
            size
        }
    };
    for (sheet, chunk) in all.chunks(per_sheet).enumerate() {
        for back in [false, true] {
            let mut d = Drawing::new();
            let n = (sheet + 1).to_string();
            let of = sheets.to_string();
            let values = [("title", scenario.title.as_str()), ("n", &n), ("of", &of)];
            let title = fill(if back { w.sheet_backs } else { w.sheet_fronts }, &values);
            let size = fitted(&title, 3.2, Face::Bold);
            text(
                &mut d,
                &title,
                size,
                Face::Bold,
                [MARGIN, MARGIN + 4.0],
                LEFT,
            );
            // A game whose units are printed on one side (`rules.counters.back: Blank`) says so.
            let layout = &scenario.rules.counters;
            let one_sided = layout.back == bataille_schema::scenario::CounterBack::Blank
                && layout.back_by_kind.is_empty();
            let note = if back {
                w.backs_note.to_owned()
            } else {
                fill(
                    if one_sided {
                        w.fronts_note_one_sided
                    } else {
                        w.fronts_note
                    },
                    &[
                        ("size", &format!("{:.1}", options.counter_mm)),
                        ("backs", &backs_note(scenario, w)),
                    ],
                )
            };
            // Two lines at most under the title.
            let lines = charts::wrap(&note, Face::Regular, 2.5, width);
            let size = if lines.len() > 2 {
                2.5 * 2.0 / lines.len() as f32
            } else {
                2.5
            };
            for (i, line) in charts::wrap(&note, Face::Regular, size, width)
                .iter()
                .take(2)
                .enumerate()
            {
                let y = MARGIN + 8.5 + i as f32 * 3.2;
                text(&mut d, line, size, Face::Regular, [MARGIN, y], LEFT);
            }
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
                size: [pw, ph],
            });
        }
    }
    pages
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
