//! The kit's map pages: the overview (the whole map on one page, its sections marked) and the
//! map cut into sheets (each section with its overlap, registration marks and its name), each
//! drawing only its own part of the map.

use std::collections::HashSet;
use std::fmt::Write as _;

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Face, TextStyle, text_width};
use bataille_render::tiny_skia::{PathBuilder, Transform};
use bataille_render::{Layout, RenderOptions};
use bataille_schema::map::{HexsideType, OverlaySymbol};
use bataille_schema::{HexIndex, Map, Scenario};

use super::words::Words;
use super::{
    GREY, INK, LEFT, MARGIN, MARK, Page, PageKind, UNITS, charts, line_mm, mm_group, pdf,
    rect_path, text,
};
use crate::language::fill;

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
    pub(super) fn sections_at(&self, p: [f32; 2], reach: f32) -> [std::ops::Range<usize>; 2] {
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

pub(super) fn section_name(ix: usize, iy: usize) -> String {
    let letter = (b'A' + (iy % 26) as u8) as char;
    format!("{letter}{}", ix + 1)
}

pub(super) fn overview(
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
pub(super) struct MapParts<'a> {
    options: &'a RenderOptions,
    /// Terrain code of each hex, by row then column.
    codes: Vec<Vec<Option<char>>>,
    roads: HashSet<HexIndex>,
    /// The map's road paths, indexed once for every section.
    paths: symbology::part::RoadPaths,
    /// Per section (row-major): its hexes, in the grid's order.
    hexes: Vec<Vec<HexIndex>>,
    /// Per section: its hexside features (drawing order, hex, side, feature).
    hexsides: Vec<Vec<(u8, HexIndex, bataille_schema::Side, &'a HexsideType)>>,
    /// Per section: its place names.
    labels: Vec<Vec<(HexIndex, &'a str)>>,
}

impl<'a> MapParts<'a> {
    pub(super) fn of(
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
            paths: symbology::part::RoadPaths::of(map),
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
                    part::roads(&mut d, map, layout, index, casing, &is_road, &self.paths);
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

pub(super) fn map_section(
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
