//! The plan as SVG in millimetres: terrain areas (each terrain's hexes as one path with its
//! outer outline), rivers, streams and roads as lines, towns and redoubts as footprints, place
//! names, every base at true size and facing, a 30 cm (or 1 ft) grid, a scale bar and a legend.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use bataille_schema::geometry::sides;
use bataille_schema::map::{HexsideSymbol, OverlaySymbol};
use bataille_schema::scenario::MiniaturesUse;
use bataille_schema::system::{FigureScale, System};
use bataille_schema::{HexIndex, Map, Scenario};

use crate::layout::{Laid, centre_mm};
use crate::{Plan, PlanError, PlanRequest};

mod hex_labels;

use crate::window::{best_window, deployed_bounds};
use hex_labels::hex_numbers_and_entries;

/// Margin around the deployed bases when no table is given, mm.
const MARGIN_MM: f64 = 100.0;

/// XML-escapes text: the one escaping function ([`bataille_schema::markup::xml`]), for names
/// and colours alike (a colour is file text too).
pub(crate) fn esc(text: &str) -> String {
    bataille_schema::markup::xml(text).into_owned()
}

fn round_up(mm: f64, step: f64) -> f64 {
    (mm / step).ceil() * step
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn draw(
    scenario: &Scenario,
    map: &Map,
    system: &System,
    _used: &MiniaturesUse,
    scale: &FigureScale,
    request: &PlanRequest,
    mm_per_grid: f64,
    laid: Laid,
) -> Result<Plan, PlanError> {
    let Laid { mut units, later } = laid;
    // A turned table: the map is turned the other way under it (table millimetres of the
    // whole map, about the first hex's centre), and every position below goes through `rot`.
    let turn = request.turn_degrees;
    let (ts, tc) = (-turn).to_radians().sin_cos();
    let rot = move |p: [f64; 2]| [p[0] * tc - p[1] * ts, p[0] * ts + p[1] * tc];
    for u in &mut units {
        u.centre = rot(u.centre);
        u.hex_centre = rot(u.hex_centre);
        u.bearing -= turn;
    }
    let (lo, hi) = if units.is_empty() {
        // No unit: the turned map's bounds.
        let (min, max) = map.grid.bounds();
        let corners = [
            [min[0], min[1]],
            [max[0], min[1]],
            [min[0], max[1]],
            [max[0], max[1]],
        ]
        .map(|[x, y]| rot([f64::from(x) * mm_per_grid, f64::from(y) * mm_per_grid]));
        let lo = corners
            .iter()
            .fold([f64::INFINITY; 2], |a, c| [a[0].min(c[0]), a[1].min(c[1])]);
        let hi = corners.iter().fold([f64::NEG_INFINITY; 2], |a, c| {
            [a[0].max(c[0]), a[1].max(c[1])]
        });
        (lo, hi)
    } else {
        deployed_bounds(&units, map, mm_per_grid)
    };
    let needed = [
        round_up(hi[0] - lo[0] + 2.0 * MARGIN_MM, 100.0),
        round_up(hi[1] - lo[1] + 2.0 * MARGIN_MM, 100.0),
    ];
    let (size, origin) = match request.table {
        None => {
            let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
            (needed, [mid[0] - needed[0] / 2.0, mid[1] - needed[1] / 2.0])
        }
        Some(table) => {
            let size = [table.width_mm, table.height_mm];
            (size, best_window(&units, size, lo, hi))
        }
    };
    let inside = |p: [f64; 2]| {
        p[0] >= origin[0] - 0.01
            && p[1] >= origin[1] - 0.01
            && p[0] <= origin[0] + size[0] + 0.01
            && p[1] <= origin[1] + size[1] + 0.01
    };
    let mut outside = Vec::new();
    let mut outside_places = Vec::new();
    for u in &units {
        if !crate::Layout::on_table(u, origin, size) {
            outside.push(format!("{} ({})", u.name, u.hex));
        }
    }
    for (hex, label) in &map.labels {
        if let Some(index) = map.grid.lookup(hex)
            && !inside(rot(centre_mm(map, index, mm_per_grid)))
        {
            outside_places.push(format!("{label} ({hex})"));
        }
    }
    // Into drawing coordinates.
    for u in &mut units {
        u.centre = [u.centre[0] - origin[0], u.centre[1] - origin[1]];
        u.hex_centre = [u.hex_centre[0] - origin[0], u.hex_centre[1] - origin[1]];
    }
    let to = |p: [f64; 2]| {
        let p = rot(p);
        [p[0] - origin[0], p[1] - origin[1]]
    };
    let grid_pt = |p: [f32; 2]| to([f64::from(p[0]) * mm_per_grid, f64::from(p[1]) * mm_per_grid]);

    let mut s = String::new();
    let [w, h] = size;
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}mm" height="{h:.2}mm" viewBox="0 0 {w:.2} {h:.2}" font-family="DejaVu Sans">"#
    );
    let _ = writeln!(
        s,
        "<title>{} — {} at {} (1 mm = {} m)</title>",
        esc(&scenario.title),
        esc(&system.name),
        esc(&request.figures),
        fmt_num(scale.metres_per_mm)
    );
    let _ = writeln!(
        s,
        r##"<rect id="table" x="0" y="0" width="{w:.2}" height="{h:.2}" fill="#f4f1e4"/>"##
    );
    let _ = writeln!(s, r#"<g id="terrain" stroke-linejoin="round">"#);
    // Terrain: each code's hexes as one area, and its outline where it meets another terrain.
    let grid = &map.grid;
    let mut by_code: BTreeMap<char, Vec<HexIndex>> = BTreeMap::new();
    let mut code_at = std::collections::HashMap::new();
    for index in grid.indices() {
        let code = map
            .rows
            .get(index.row as usize)
            .and_then(|row| row.chars().nth(index.col as usize));
        if let Some(code) = code {
            by_code.entry(code).or_default().push(index);
            code_at.insert(index, code);
        }
    }
    // The commonest terrain is the table's cloth.
    let cloth = by_code
        .iter()
        .max_by_key(|(_, hexes)| hexes.len())
        .map(|(c, _)| *c);
    for (code, hexes) in &by_code {
        let key = code.to_string();
        let Some(terrain) = map.terrain.get(&key) else {
            continue;
        };
        let colour = esc(&terrain.colour.0);
        let mut area = String::new();
        let mut outline = String::new();
        for &index in hexes {
            let corners = grid.corners(index).map(grid_pt);
            let _ = write!(area, "M{:.2} {:.2}", corners[0][0], corners[0][1]);
            for c in &corners[1..] {
                let _ = write!(area, "L{:.2} {:.2}", c[0], c[1]);
            }
            area.push('Z');
            for side in sides(grid.orientation) {
                let same = grid
                    .neighbour(index, side)
                    .is_some_and(|n| code_at.get(&n) == Some(code));
                if !same && let Some([a, b]) = grid.side_corners(index, side) {
                    let (a, b) = (grid_pt(a), grid_pt(b));
                    let _ = write!(outline, "M{:.2} {:.2}L{:.2} {:.2}", a[0], a[1], b[0], b[1]);
                }
            }
        }
        let id = format!("terrain-{}", code_id(*code));
        let _ = writeln!(
            s,
            r#"<path id="{id}" d="{area}" fill="{colour}" stroke="{colour}" stroke-width="0.4"><title>{}</title></path>"#,
            esc(&terrain.name)
        );
        if Some(*code) != cloth {
            let _ = writeln!(
                s,
                r##"<path id="{id}-outline" d="{outline}" fill="none" stroke="#3b3b2f" stroke-width="0.6" stroke-opacity="0.7"/>"##
            );
        }
    }
    let _ = writeln!(s, "</g>");
    // Rivers, streams, roads and fortification lines on hexsides.
    let _ = writeln!(s, r#"<g id="hexsides" stroke-linecap="round" fill="none">"#);
    for (type_id, refs) in &map.hexsides {
        let Some(kind) = map.hexside_types.get(type_id) else {
            continue;
        };
        let (width, dash) = match kind.symbol {
            HexsideSymbol::River => (3.0, ""),
            HexsideSymbol::Stream => (1.5, ""),
            HexsideSymbol::Road => (1.2, r#" stroke-dasharray="4 2""#),
            HexsideSymbol::Bridge => (2.5, ""),
            HexsideSymbol::Fortification => (2.0, ""),
        };
        let mut d = String::new();
        for r in refs {
            if let Ok((index, side)) = grid.parse_hexside(r.as_str())
                && let Some([a, b]) = grid.side_corners(index, side)
            {
                let (a, b) = (grid_pt(a), grid_pt(b));
                if kind.symbol == HexsideSymbol::Bridge {
                    // A bridge crosses the water: a short bar across the side's middle.
                    let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
                    let c = centre_mm(map, index, mm_per_grid);
                    let c = to(c);
                    // A bar a quarter of the centre-to-side distance each way.
                    let half = [(m[0] - c[0]) * 0.25, (m[1] - c[1]) * 0.25];
                    let _ = write!(
                        d,
                        "M{:.2} {:.2}L{:.2} {:.2}",
                        m[0] - half[0],
                        m[1] - half[1],
                        m[0] + half[0],
                        m[1] + half[1]
                    );
                } else {
                    let _ = write!(d, "M{:.2} {:.2}L{:.2} {:.2}", a[0], a[1], b[0], b[1]);
                }
            }
        }
        let _ = writeln!(
            s,
            r#"<path id="hexside-{}" d="{d}" stroke="{}" stroke-width="{width}"{dash}><title>{}</title></path>"#,
            esc(type_id.as_str()),
            esc(&kind.colour.0),
            esc(&kind.name)
        );
    }
    let _ = writeln!(s, "</g>");
    // Overlays: roads as lines between neighbouring road hexes, towns and redoubts as footprints.
    let _ = writeln!(s, r#"<g id="overlays">"#);
    // A hex's apothem (centre to the middle of a side), mm.
    let apothem = mm_per_grid * 3f64.sqrt() / 2.0;
    let mut road_hexes: HashSet<HexIndex> = HashSet::new();
    for (hex, ids) in &map.overlays {
        let Some(index) = grid.lookup(hex) else {
            continue;
        };
        for id in ids {
            if map
                .overlay_types
                .get(id)
                .is_some_and(|o| o.symbol == OverlaySymbol::Road)
            {
                road_hexes.insert(index);
            }
        }
    }
    let mut road = String::new();
    let mut road_list: Vec<&HexIndex> = road_hexes.iter().collect();
    road_list.sort_by_key(|i| (i.row, i.col));
    for &index in &road_list {
        let a = to(centre_mm(map, *index, mm_per_grid));
        for (_, n) in grid.neighbours(*index) {
            if road_hexes.contains(&n) && (n.row, n.col) > (index.row, index.col) {
                let b = to(centre_mm(map, n, mm_per_grid));
                let _ = write!(road, "M{:.2} {:.2}L{:.2} {:.2}", a[0], a[1], b[0], b[1]);
            }
        }
    }
    if !road.is_empty() {
        let _ = writeln!(
            s,
            r##"<path id="roads" d="{road}" fill="none" stroke="#8b6f47" stroke-width="1.6" stroke-dasharray="5 2"/>"##
        );
    }
    for (hex, ids) in &map.overlays {
        let Some(index) = grid.lookup(hex) else {
            continue;
        };
        let c = to(centre_mm(map, index, mm_per_grid));
        for id in ids {
            let Some(o) = map.overlay_types.get(id) else {
                continue;
            };
            let colour = esc(o.colour.as_ref().map_or("#6b3a2a", |c| c.0.as_str()));
            let r = apothem * 0.45;
            match o.symbol {
                OverlaySymbol::Town => {
                    let _ = writeln!(
                        s,
                        r##"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{colour}" fill-opacity="0.8" stroke="#222" stroke-width="0.4"><title>{}</title></rect>"##,
                        c[0] - r,
                        c[1] - r * 0.7,
                        2.0 * r,
                        1.4 * r,
                        esc(&o.name)
                    );
                }
                OverlaySymbol::Redoubt | OverlaySymbol::Fortification => {
                    let r = r * 0.8;
                    let _ = writeln!(
                        s,
                        r##"<path d="M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z" fill="none" stroke="{colour}" stroke-width="1.5"><title>{}</title></path>"##,
                        c[0],
                        c[1] - r,
                        c[0] + r,
                        c[1],
                        c[0],
                        c[1] + r,
                        c[0] - r,
                        c[1],
                        esc(&o.name)
                    );
                }
                _ => {}
            }
        }
    }
    let _ = writeln!(s, "</g>");
    // Place names.
    let text_mm = (apothem * 0.22).clamp(3.0, 12.0);
    let _ = writeln!(
        s,
        r##"<g id="labels" font-size="{text_mm:.2}" fill="#2b2b2b" text-anchor="middle" font-style="italic">"##
    );
    for (hex, label) in &map.labels {
        if let Some(index) = grid.lookup(hex) {
            let c = to(centre_mm(map, index, mm_per_grid));
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}">{}</text>"#,
                c[0],
                c[1] - apothem * 0.55,
                esc(label)
            );
        }
    }
    let _ = writeln!(s, "</g>");
    // Hex numbers where players need them: the objectives, the entry hexes and the hexes
    // along the table's edges (to lay the map out from); entries drawn and named.
    let (hex_numbers, entries) =
        hex_numbers_and_entries(&mut s, scenario, map, mm_per_grid, &to, size, apothem);
    // The layout grid: 30 cm squares (1 ft if the table was given in inches or feet).
    let imperial = request.table.is_some_and(|t| t.imperial);
    let step = if imperial { 304.8 } else { 300.0 };
    let _ = writeln!(
        s,
        r##"<g id="grid" stroke="#1c3f8c" stroke-width="0.5" stroke-opacity="0.6" fill="#1c3f8c" font-size="6">"##
    );
    let mut x = step;
    let mut n = 1;
    while x < w {
        let _ = writeln!(
            s,
            r#"<line x1="{x:.2}" y1="0" x2="{x:.2}" y2="{h:.2}"/><text x="{:.2}" y="8" stroke="none">{}</text>"#,
            x + 2.0,
            grid_label(n, imperial)
        );
        x += step;
        n += 1;
    }
    let mut y = step;
    let mut n = 1;
    while y < h {
        let _ = writeln!(
            s,
            r#"<line x1="0" y1="{y:.2}" x2="{w:.2}" y2="{y:.2}"/><text x="2" y="{:.2}" stroke="none">{}</text>"#,
            y - 2.0,
            grid_label(n, imperial)
        );
        y += step;
        n += 1;
    }
    let _ = writeln!(s, "</g>");
    // Every counter as its bases.
    let _ = writeln!(s, r#"<g id="units">"#);
    let label_mm = (units
        .iter()
        .map(|u| u.base[1])
        .fold(f64::INFINITY, f64::min)
        * 0.3)
        .clamp(2.5, 8.0);
    for u in &units {
        let fill = if u.army == 0 { "#ffffff" } else { "#f0e0c8" };
        let _ = writeln!(
            s,
            r#"<g id="unit-{}" data-hex="{}"><title>{}</title>"#,
            esc(&u.id),
            esc(&u.hex),
            esc(&u.name)
        );
        for (i, b) in u.bases().iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<rect id="base-{}-{i}" x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" transform="translate({:.3} {:.3}) rotate({:.2})" fill="{fill}" stroke="{}" stroke-width="{}"/>"#,
                esc(&u.id),
                -b.frontage_mm / 2.0,
                -b.depth_mm / 2.0,
                b.frontage_mm,
                b.depth_mm,
                b.centre[0],
                b.centre[1],
                u.bearing,
                esc(&u.colour),
                if u.leader { 1.2 } else { 0.8 }
            );
        }
        // The front edge of the block, thick, in the corps colour.
        let (sn, cs) = u.bearing.to_radians().sin_cos();
        let half = u.block[0] / 2.0;
        let front = -u.block[1] / 2.0;
        let p = |x: f64, y: f64| [u.centre[0] + x * cs - y * sn, u.centre[1] + x * sn + y * cs];
        let (a, b) = (p(-half, front), p(half, front));
        let _ = writeln!(
            s,
            r#"<line x1="{:.3}" y1="{:.3}" x2="{:.3}" y2="{:.3}" stroke="{}" stroke-width="1.6"/>"#,
            a[0],
            a[1],
            b[0],
            b[1],
            esc(&u.colour)
        );
        let t = p(0.0, front - 1.5);
        let _ = writeln!(
            s,
            r##"<text x="{:.2}" y="{:.2}" font-size="{label_mm:.2}" text-anchor="middle" fill="#111" stroke="#ffffff" stroke-width="0.6" paint-order="stroke">{}</text>"##,
            t[0],
            t[1],
            esc(&u.name)
        );
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</g>");
    // Scale bar: the longest round length up to a quarter of the table.
    let metres_per_mm = scale.metres_per_mm;
    let bar_m = [50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0]
        .into_iter()
        .rfind(|m| m / metres_per_mm <= w * 0.25)
        .unwrap_or(50.0);
    let bar_mm = bar_m / metres_per_mm;
    let (bx, by) = (20.0, h - 25.0);
    let _ = writeln!(
        s,
        r##"<g id="scale"><rect x="{:.2}" y="{:.2}" width="{:.2}" height="14" fill="#ffffff" fill-opacity="0.85"/><rect id="scale-bar-{}m" x="{bx:.3}" y="{by:.3}" width="{bar_mm:.3}" height="4" fill="#111"/><text x="{bx:.2}" y="{:.2}" font-size="6" fill="#111">{} m = {:.0} mm (1 mm = {} m)</text></g>"##,
        bx - 4.0,
        by - 8.0,
        bar_mm + 8.0,
        bar_m,
        by - 2.0,
        bar_m,
        bar_mm,
        fmt_num(metres_per_mm)
    );
    // Legend.
    let grid_text = if imperial { "1 ft" } else { "30 cm" };
    let mut legend = vec![
        format!("{} — {}", scenario.title, system.name),
        format!(
            "{} figures: 1 mm of table = {} m of ground; grid {grid_text}",
            request.figures,
            fmt_num(metres_per_mm)
        ),
        format!(
            "table {:.0} × {:.0} cm; the deployed armies need {:.0} × {:.0} cm",
            w / 10.0,
            h / 10.0,
            needed[0] / 10.0,
            needed[1] / 10.0
        ),
    ];
    if turn != 0.0 {
        legend.push(format!(
            "the table is turned {} degrees clockwise over the map: north is {} degrees anticlockwise from the plan's top",
            fmt_num(turn),
            fmt_num(turn)
        ));
    }
    if !outside.is_empty() {
        legend.push(format!("outside the table: {}", outside.join(", ")));
    }
    if !outside_places.is_empty() {
        legend.push(format!(
            "places off the table: {}",
            outside_places.join(", ")
        ));
    }
    if !later.is_empty() {
        legend.push(format!("enter later: {}", later.join(", ")));
    }
    let _ = writeln!(s, r##"<g id="legend" font-size="6" fill="#111">"##);
    let lw = (w - 40.0).min(420.0);
    let lines: Vec<String> = legend
        .iter()
        .flat_map(|l| wrap(l, (lw / 3.2) as usize))
        .collect();
    let _ = writeln!(
        s,
        r##"<rect x="16" y="14" width="{lw:.2}" height="{:.2}" fill="#ffffff" fill-opacity="0.85"/>"##,
        lines.len() as f64 * 8.0 + 6.0
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="20" y="{:.2}">{}</text>"#,
            22.0 + 8.0 * i as f64,
            esc(line)
        );
    }
    let _ = writeln!(s, "</g>\n</svg>");
    Ok(Plan {
        svg: s,
        size_mm: size,
        needed_mm: needed,
        origin_mm: origin,
        metres_per_mm,
        mm_per_grid,
        outside,
        outside_places,
        later,
        units,
        scale_bar_metres: bar_m,
        hex_numbers,
        entries,
    })
}

fn grid_label(n: usize, imperial: bool) -> String {
    if imperial {
        format!("{n} ft")
    } else {
        format!("{} cm", n * 30)
    }
}

/// A number without needless decimals (2, 3.6, 1.333).
pub fn fmt_num(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn code_id(code: char) -> String {
    if code.is_ascii_alphanumeric() {
        code.to_string()
    } else {
        format!("u{:04x}", code as u32)
    }
}

/// Splits a line into lines of at most `width` characters at spaces.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(20);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}
