//! One symbology for every output: terrain patterns, hexside features, overlays, labels,
//! counters, leaders and markers are built here as backend-neutral shapes (paths with fills,
//! strokes, colours, and text), which the PNG renderer paints with tiny-skia, the exports write
//! as SVG (then PDF) or as tiles, and the editor's map view can tessellate — so what a designer
//! sees is what is printed and played.
//!
//! ```
//! use bataille_render::symbology::{Drawing, map_drawing};
//! use bataille_render::{Layout, RenderOptions};
//! use bataille_schema::stress::{StressSize, generate};
//! let (map, _) = generate(StressSize { columns: 4, rows: 3, units: 0, corps: 1 }, "m.ron");
//! let options = RenderOptions::default();
//! let layout = Layout::new(&map.grid, &options).unwrap();
//! let drawing: Drawing = map_drawing(&map, &layout, &options);
//! assert!(drawing.items.len() > 12);
//! assert!(drawing.to_svg().starts_with("<path"));
//! ```

use bataille_schema::scenario::{CounterBack, CounterLayout, Symbol};
use bataille_schema::{Map, Scenario};
use tiny_skia::Transform;

pub use crate::counters::{
    CounterFace, CounterLook, CounterValues, Leader, Looks, MarkerKind, STACK_SHOWN, is_blank,
};
pub use crate::drawing::{Drawing, Item, num, svg_path_data};
use crate::text::{Anchor, TextStyle};
use crate::{Layout, RenderOptions};

/// The map's layers: terrain fills and patterns, hex outlines, hexside features, overlays, hex
/// names and place names, as the options ask.
pub fn map_drawing(map: &Map, layout: &Layout, options: &RenderOptions) -> Drawing {
    let mut d = Drawing::new();
    crate::map::draw_map(&mut d, map, layout, options);
    crate::map::draw_labels(&mut d, map, layout, options);
    d
}

/// The scenario's layers over its map: unit counters and leaders where they stand at set-up.
pub fn scenario_drawing(
    scenario: &Scenario,
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
) -> Drawing {
    let mut d = Drawing::new();
    crate::counters::draw_scenario(&mut d, scenario, map, layout, options);
    d
}

/// One hex of a terrain of the legend (its colour and pattern), centred at the origin, of
/// circumradius `radius`, in the map's orientation; `None` when the code is not in the legend.
pub fn terrain_hex(map: &Map, code: char, radius: f32) -> Option<Drawing> {
    let mut key = [0u8; 4];
    let terrain = map.terrain.get(&*code.encode_utf8(&mut key))?;
    let mut d = Drawing::new();
    crate::map::draw_terrain_hex(&mut d, map.grid.orientation, terrain, radius);
    Some(d)
}

/// A unit's counter, upright, centred at the origin, `side` units across, as it looks
/// ([`Looks::unit`]): corps colour, the kind's symbol, its values (the reduced side one combat
/// point less, Denain 2.x: "on utilise le verso du pion"), and the facing wedge when the look
/// has a facing (a bearing in degrees).
pub fn counter(
    look: &CounterLook,
    layout: &CounterLayout,
    side: f32,
    face: CounterFace,
) -> Drawing {
    let mut d = Drawing::new();
    crate::counters::draw_look(&mut d, look, layout, side, face, Transform::identity());
    d
}

/// A unit's counter as [`counter`] draws it, from its values (CP, morale, MP: `None` is drawn
/// as a dash; a battery's fire modifier) rather than the unit.
#[allow(clippy::too_many_arguments)]
pub fn counter_of_values(
    values: CounterValues,
    layout: &CounterLayout,
    back: CounterBack,
    symbol: Symbol,
    colour: [u8; 3],
    facing: Option<f32>,
    side: f32,
    face: CounterFace,
) -> Drawing {
    let mut d = Drawing::new();
    crate::counters::draw_counter_values(
        &mut d,
        values,
        layout,
        back,
        symbol,
        colour,
        facing,
        side,
        face,
        Transform::identity(),
    );
    d
}

/// A leader's marker centred at `pos` (`side` is the counter size it goes with).
pub fn leader(leader: &Leader, pos: [f32; 2], side: f32) -> Drawing {
    let mut d = Drawing::new();
    crate::counters::draw_leader(&mut d, leader, pos, side);
    d
}

/// A leader or marker as a square counter (for trays and counter sheets), centred at the
/// origin, `side` units across; `back` draws its other side (activated leader, routed…).
pub fn marker_counter(kind: &MarkerKind, side: f32, back: bool) -> Drawing {
    let mut d = Drawing::new();
    crate::counters::draw_marker_counter(&mut d, kind, side, back);
    d
}

/// The map's layers one hex at a time, for a viewer that draws part of the map and redraws
/// only what an edit touched (the editor caches them per chunk of hexes). [`map_drawing`]
/// draws the whole map through these same functions, layer after layer in this order: terrain,
/// pattern, grid line, hexsides (by [`part::hexside_order`]), road casings, roads, overlays;
/// but the grid lines it draws as the same lines with each edge between two hexes once.
pub mod part {
    use bataille_schema::map::{HexsideSymbol, HexsideType};
    use bataille_schema::{HexIndex, Map, Side};

    use super::Drawing;
    use crate::Layout;
    pub use crate::map::RoadPaths;

    /// The hex's terrain colour (`code` is its terrain code; `None` or a code missing from the
    /// legend draws magenta), grown by half a unit so neighbours leave no seam.
    pub fn terrain(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        code: Option<char>,
    ) {
        crate::map::draw_terrain_fill(d, map, layout, index, code, false);
    }

    /// The hex's terrain pattern, if its terrain has one.
    pub fn pattern(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        code: Option<char>,
    ) {
        crate::map::draw_terrain_pattern(d, map, layout, index, code);
    }

    /// The hex's outline.
    pub fn grid_line(d: &mut Drawing, map: &Map, layout: &Layout, index: HexIndex) {
        crate::map::draw_grid_line(d, map, layout, index);
    }

    /// A hexside feature on side `side` of hex `index`, as the file names it (a fortification's
    /// teeth point at the neighbour across it).
    pub fn hexside(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        side: Side,
        feature: &HexsideType,
    ) {
        crate::map::draw_hexside(d, &map.grid, layout, index, side, feature);
    }

    /// The hex's name at the top of the hex, as `bataille render` prints it.
    pub fn hex_name(d: &mut Drawing, map: &Map, layout: &Layout, index: HexIndex) {
        crate::map::draw_hex_name(d, map, layout, index);
    }

    /// A place name (`map.labels`) on its hex, with a halo of the `paper` colour.
    pub fn label(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        text: &str,
        paper: [u8; 3],
    ) {
        crate::map::draw_label(d, map, layout, index, text, paper);
    }

    /// Where a hexside feature goes in the drawing order (smaller first).
    pub fn hexside_order(symbol: HexsideSymbol) -> u8 {
        crate::map::hexside_priority(symbol)
    }

    /// The hex's road overlays: their dark casing (`casing`, drawn under every road) or the
    /// roads themselves, towards each linked road neighbour. `is_road` tells which hexes have a
    /// road overlay; a hex's roads depend on the hexes within two of it. `paths` is the map's
    /// `paths` indexed once ([`RoadPaths::of`]) for all the hexes drawn.
    pub fn roads(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        casing: bool,
        is_road: &dyn Fn(HexIndex) -> bool,
        paths: &RoadPaths,
    ) {
        crate::map::draw_roads(d, map, layout, index, casing, is_road, paths);
    }

    /// Whether the roads of neighbouring hexes `a` and `b` are drawn joined: both roads, and
    /// not the shortcut of a triangle of road hexes (exports that carry roads as lines join
    /// them as the map shows them).
    pub fn road_linked(
        grid: &bataille_schema::Grid,
        is_road: &dyn Fn(HexIndex) -> bool,
        a: HexIndex,
        b: HexIndex,
    ) -> bool {
        crate::map::road_linked(grid, is_road, a, b)
    }

    /// The hex's other overlays (redoubt, town, bridge, fortification, marker); `code_at` gives
    /// the terrain codes of its neighbours (a bridge spans the water).
    pub fn overlays(
        d: &mut Drawing,
        map: &Map,
        layout: &Layout,
        index: HexIndex,
        code_at: &dyn Fn(HexIndex) -> Option<char>,
    ) {
        crate::map::draw_hex_overlays(d, map, layout, index, code_at);
    }
}

/// A chart of the rules (`rules.charts`: a combat results table) as a table, `size` pixels a
/// line: its title, a header row (the die, then the columns), a row per roll, then what each
/// result means and the chart's notes. Returns the drawing and its width and height, its top
/// left corner at the origin (for the VASSAL module's chart window).
pub fn chart(chart: &bataille_schema::scenario::Chart, size: f32) -> (Drawing, [f32; 2]) {
    use crate::text::{Face, text_width};
    const LEFT_MIDDLE: Anchor = Anchor { x: 0.0, y: 0.5 };
    let ink = [0x14, 0x14, 0x14, 0xff];
    let style = |face, size_px| TextStyle {
        face,
        size_px,
        colour: ink,
        halo: None,
    };
    let pad = 0.6 * size;
    let line = 1.6 * size;
    let die = format!("Die ({})", chart.die.name());
    let rolls: Vec<String> = chart
        .rows
        .iter()
        .map(|row| match row.to {
            Some(to) if to != row.roll => format!("{}-{to}", row.roll),
            _ => row.roll.to_string(),
        })
        .collect();
    let first = rolls
        .iter()
        .map(|r| text_width(r, Face::Regular, size))
        .fold(text_width(&die, Face::Bold, size), f32::max)
        + 2.0 * pad;
    let cell = chart
        .rows
        .iter()
        .flat_map(|row| row.results.iter())
        .map(|r| text_width(r, Face::Regular, size))
        .chain(
            chart
                .columns
                .iter()
                .map(|c| text_width(c, Face::Bold, size)),
        )
        .fold(0.0, f32::max)
        + 2.0 * pad;
    let table_w = first + cell * chart.columns.len() as f32;
    let title = match &chart.rule {
        Some(rule) => format!("[{rule}] {}", chart.name),
        None => chart.name.clone(),
    };
    let mut notes: Vec<String> = chart
        .results
        .iter()
        .map(|(code, meaning)| format!("{code}: {meaning}"))
        .collect();
    notes.extend(chart.notes.iter().cloned());
    let width = notes
        .iter()
        .map(|n| text_width(n, Face::Regular, 0.85 * size))
        .fold(
            table_w.max(text_width(&title, Face::Bold, 1.2 * size)),
            f32::max,
        )
        + 2.0 * pad;
    let mut d = Drawing::new();
    let t = Transform::identity();
    let mut y = pad + 1.2 * size;
    d.text(
        &title,
        &style(Face::Bold, 1.2 * size),
        [pad, y],
        LEFT_MIDDLE,
        t,
    );
    y += 0.6 * line;
    if let Some(what) = &chart.columns_are {
        y += line * 0.8;
        d.text(
            what,
            &style(Face::Regular, 0.9 * size),
            [pad, y],
            LEFT_MIDDLE,
            t,
        );
    }
    y += 0.4 * line;
    let top = y;
    let mut row_y = top;
    let mut rows: Vec<(String, Vec<String>, Face)> = vec![(die, chart.columns.clone(), Face::Bold)];
    for (roll, row) in rolls.into_iter().zip(&chart.rows) {
        rows.push((roll, row.results.clone(), Face::Regular));
    }
    for (k, (head, cells, face)) in rows.iter().enumerate() {
        if k % 2 == 1 {
            let band = crate::symbols::polygon(&[
                [pad, row_y],
                [pad + table_w, row_y],
                [pad + table_w, row_y + line],
                [pad, row_y + line],
            ]);
            d.fill(band, [0xee, 0xe8, 0xd8, 0xff], t);
        }
        let baseline = row_y + 0.5 * line;
        d.text(
            head,
            &style(Face::Bold, size),
            [pad + pad, baseline],
            LEFT_MIDDLE,
            t,
        );
        for (c, text) in cells.iter().enumerate() {
            let x = pad + first + (c as f32 + 0.5) * cell;
            d.text(text, &style(*face, size), [x, baseline], Anchor::CENTRE, t);
        }
        row_y += line;
    }
    d.line(
        [pad, top + line],
        [pad + table_w, top + line],
        ink,
        0.08 * size,
    );
    d.line([pad + first, top], [pad + first, row_y], ink, 0.08 * size);
    let mut y = row_y + 0.4 * line;
    for note in &notes {
        y += 0.9 * line;
        d.text(
            note,
            &style(Face::Regular, 0.85 * size),
            [pad, y],
            LEFT_MIDDLE,
            t,
        );
    }
    (d, [width, y + pad])
}
