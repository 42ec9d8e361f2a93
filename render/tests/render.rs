//! Rendering tests: image size, terrain colour at each hex centre, a river on its hexside,
//! counters on their hexes, deterministic bytes, refused scales, the command on the real files.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::Path;

use bataille_render::{
    Layout, RenderError, RenderOptions, encode_png, render_map, render_scenario,
};
use bataille_schema::io::{parse_map, parse_scenario, source_from_bytes};
use bataille_schema::{Map, Scenario, Side};
use tiny_skia::Pixmap;

const MAP: &str = r##"Map(
    format_version: 1,
    name: "Test",
    grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 6, rows: 5),
    terrain: {
        ".": (name: "Clear", colour: "#e8e2c4"),
        "f": (name: "Forest", colour: "#4e7a3e", pattern: Trees),
        "h": (name: "Hill", colour: "#c9a66b", pattern: Hatch),
        "~": (name: "Water", colour: "#5a8fc8", pattern: Water, water: true),
    },
    hexside_types: {
        "river": (name: "River", symbol: River, colour: "#2a5fa8", water: true),
    },
    rows: [
        "..ff~.",
        ".hff~.",
        ".hh.~.",
        "....~.",
        "f...~h",
    ],
    hexsides: { "river": ["0203/SE", "0303/N"] },
)
"##;

const SCENARIO: &str = r##"Scenario(
    format_version: 1,
    title: "Test",
    map: "test-map.ron",
    date: "1712-07-24",
    turns: 1,
    turn_minutes: 60,
    start_time: "10:00",
    rules: (
        system: "test",
        unit_kinds: {
            "infantry": (name: "Infantry", symbol: Infantry, combat: true, front_hexsides: 2),
        },
        stacking: (compositions: [(name: "one", terms: [(kinds: ["infantry"], max_counters: 1)])]),
        command: (commander_radius_hexes: 5, leader_radius_hexes: 3),
    ),
    armies: [
        (id: "red", name: "Red", corps: [(id: "red-1", name: "First", colour: "#c8102e")],
         units: [(id: "u1", name: "One", kind: "infantry", corps: "red-1", cp: 2, mp: 4, morale: 3, facing: SE, placement: Hex("0402"))]),
    ],
    victory: (),
)
"##;

fn map() -> Map {
    let source = source_from_bytes(Path::new("test-map.ron"), MAP.as_bytes().to_vec()).unwrap();
    parse_map(&source).unwrap()
}

fn scenario() -> Scenario {
    let source =
        source_from_bytes(Path::new("test-scenario.ron"), SCENARIO.as_bytes().to_vec()).unwrap();
    parse_scenario(&source).unwrap()
}

fn no_text() -> RenderOptions {
    RenderOptions {
        hex_names: false,
        labels: false,
        ..RenderOptions::default()
    }
}

fn rgb(pixmap: &Pixmap, p: [f32; 2]) -> [u8; 3] {
    let c = pixmap
        .pixel(p[0].floor() as u32, p[1].floor() as u32)
        .unwrap()
        .demultiply();
    [c.red(), c.green(), c.blue()]
}

#[test]
fn image_has_the_expected_size() {
    let map = map();
    let options = RenderOptions::default();
    let pixmap = render_map(&map, &options).unwrap();
    // Flat hexes: 6 columns span 1.5 × 5 + 2 radii across, 5 rows and a half-shift 5.5 × √3
    // radii down, plus half a hex of margin each side.
    let r = 48.0 / 3f32.sqrt();
    let width = (9.5 * r + 48.0).ceil() as u32;
    let height = (5.5 * 3f32.sqrt() * r + 48.0).ceil() as u32;
    assert_eq!((pixmap.width(), pixmap.height()), (width, height));
    let layout = Layout::new(&map.grid, &options).unwrap();
    assert_eq!((layout.width, layout.height), (width, height));
}

#[test]
fn every_hex_centre_has_its_terrain_colour() {
    let map = map();
    let options = no_text();
    let pixmap = render_map(&map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    for index in map.grid.indices() {
        let code = map.rows[index.row as usize]
            .chars()
            .nth(index.col as usize)
            .unwrap();
        let expected = map.terrain[&code.to_string()].colour.rgb().unwrap();
        let centre = layout.to_image(map.grid.centre(index));
        assert_eq!(
            rgb(&pixmap, centre),
            expected,
            "hex {}",
            map.grid.name(index)
        );
    }
}

#[test]
fn river_is_drawn_on_its_hexside() {
    let map = map();
    let options = no_text();
    let pixmap = render_map(&map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    let river = [0x2a, 0x5f, 0xa8];
    for hexside in ["0203/SE", "0303/N"] {
        let (index, side) = map.grid.parse_hexside(hexside).unwrap();
        let [a, b] = map.grid.side_corners(index, side).unwrap();
        let mid = layout.to_image([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
        assert_eq!(rgb(&pixmap, mid), river, "{hexside}");
    }
    // A side without a feature keeps the grid line's colour, not the river's.
    let (index, side) = map.grid.parse_hexside("0501/SE").unwrap();
    let [a, b] = map.grid.side_corners(index, side).unwrap();
    let mid = layout.to_image([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
    assert_ne!(rgb(&pixmap, mid), river);
}

#[test]
fn counters_are_drawn_where_units_stand() {
    let map = map();
    let scenario = scenario();
    let options = no_text();
    let with = render_scenario(&scenario, &map, &options).unwrap();
    let without = render_map(&map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    let side = 0.64 * 48.0;
    let corps = [0xc8, 0x10, 0x2e];
    let occupied = map.grid.parse("0402").unwrap();
    for index in map.grid.indices() {
        let c = layout.to_image(map.grid.centre(index));
        // Inside the counter, left of its symbol box: the corps colour.
        let probe = [c[0] - 0.42 * side, c[1]];
        if index == occupied {
            assert_eq!(rgb(&with, probe), corps);
            assert_ne!(rgb(&without, probe), corps);
        } else {
            assert_eq!(rgb(&with, probe), rgb(&without, probe), "hex {index:?}");
        }
    }
    // The facing wedge (SE) lies beyond the counter's edge, towards the vertex clockwise of the
    // SE hexside (the files' convention: `geometry::facing_bearing`, 150° on a flat hex).
    let c = layout.to_image(map.grid.centre(occupied));
    let bearing = bataille_schema::geometry::facing_bearing(map.grid.orientation, Side::SE);
    assert_eq!(bearing, 150.0);
    let dir = [bearing.to_radians().sin(), -bearing.to_radians().cos()];
    let len = (dir[0] * dir[0] + dir[1] * dir[1]).sqrt();
    let reach = 0.5 * side / (dir[0].abs().max(dir[1].abs()) / len);
    let probe = [
        c[0] + dir[0] / len * (reach + 2.0),
        c[1] + dir[1] / len * (reach + 2.0),
    ];
    let ink = rgb(&with, probe);
    assert!(ink.iter().all(|&v| v < 60), "facing mark: {ink:?}");
}

#[test]
fn output_is_deterministic() {
    let map = map();
    let scenario = scenario();
    let options = RenderOptions::default();
    let a = encode_png(&render_scenario(&scenario, &map, &options).unwrap()).unwrap();
    let b = encode_png(&render_scenario(&scenario, &map, &options).unwrap()).unwrap();
    assert_eq!(a, b);
    assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn absurd_scales_are_refused() {
    let map = map();
    for scale in [0.0, -3.0, f32::NAN, f32::INFINITY] {
        let options = RenderOptions {
            px_per_hex: scale,
            ..RenderOptions::default()
        };
        assert!(matches!(
            render_map(&map, &options),
            Err(RenderError::BadScale(_))
        ));
    }
    let options = RenderOptions {
        px_per_hex: 100_000.0,
        ..RenderOptions::default()
    };
    assert!(matches!(
        render_map(&map, &options),
        Err(RenderError::TooLarge { .. })
    ));
}

#[test]
fn pointy_grids_render_too() {
    let text = MAP
        .replace("orientation: Flat", "orientation: Pointy")
        .replace(
            "hexsides: { \"river\": [\"0203/SE\", \"0303/N\"] },",
            "hexsides: { \"river\": [\"0203/E\", \"0303/SW\"] },",
        );
    let source = source_from_bytes(Path::new("pointy.ron"), text.into_bytes()).unwrap();
    let map = parse_map(&source).unwrap();
    let options = no_text();
    let pixmap = render_map(&map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    assert_eq!(
        (pixmap.width(), pixmap.height()),
        (layout.width, layout.height)
    );
    for index in map.grid.indices() {
        let code = map.rows[index.row as usize]
            .chars()
            .nth(index.col as usize)
            .unwrap();
        let expected = map.terrain[&code.to_string()].colour.rgb().unwrap();
        let centre = layout.to_image(map.grid.centre(index));
        assert_eq!(
            rgb(&pixmap, centre),
            expected,
            "hex {}",
            map.grid.name(index)
        );
    }
    let (index, side) = map.grid.parse_hexside("0203/E").unwrap();
    let [a, b] = map.grid.side_corners(index, side).unwrap();
    let mid = layout.to_image([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
    assert_eq!(rgb(&pixmap, mid), [0x2a, 0x5f, 0xa8]);
}

/// The texts a drawing prints.
fn texts(drawing: &bataille_render::symbology::Drawing) -> Vec<(String, f32)> {
    drawing
        .items
        .iter()
        .filter_map(|item| match item {
            bataille_render::symbology::Item::Text { text, style, .. } => {
                Some((text.clone(), style.size_px))
            }
            _ => None,
        })
        .collect()
}

/// Denain 10.3: a battery's counter prints its fire modifier ("+2") where infantry prints its
/// combat points and morale: on the PNG (the scenario's drawing), on the kit's and VASSAL's
/// counters (`symbology::counter`) and in the editor (`counter_of_values`).
#[test]
fn artillery_counters_print_their_fire_modifier() {
    use bataille_render::symbology::{self, CounterFace, CounterValues};
    use bataille_render::text::{Face, text_width};
    use bataille_schema::scenario::Symbol;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let loaded =
        bataille_schema::io::load_scenario(&root.join("scenarios/denain-1712.ron")).unwrap();
    let scenario = &loaded.scenario;
    let map = &loaded.map.map;
    let batteries: Vec<_> = scenario
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .filter(|u| u.kind.as_str() == "artillery")
        .collect();
    assert_eq!(batteries.len(), 3);
    let side = 40.0;
    let looks = symbology::Looks::new(scenario, map.grid.orientation);
    for unit in &batteries {
        assert_eq!((unit.cp, unit.morale, unit.mp), (None, None, Some(3)));
        assert_eq!(unit.fire_modifier, Some(2));
        for face in [CounterFace::Front, CounterFace::Reduced] {
            let look = looks.unit_by_id(unit.id.as_str()).unwrap();
            assert_eq!(look.symbol, Symbol::Artillery);
            let printed = texts(&symbology::counter(
                &look,
                &scenario.rules.counters,
                side,
                face,
            ));
            assert_eq!(printed.len(), 1, "{printed:?}");
            let (text, size) = &printed[0];
            assert_eq!(text, "+2 · 3");
            // Inside the counter's edges.
            assert!(text_width(text, Face::Bold, *size) <= 0.9 * side + 1e-3);
        }
        let of_values = texts(&symbology::counter_of_values(
            CounterValues::of(unit),
            &scenario.rules.counters,
            scenario.rules.counters.back,
            Symbol::Artillery,
            [0x20, 0x40, 0xa0],
            None,
            side,
            CounterFace::Front,
        ));
        assert_eq!(of_values[0].0, "+2 · 3");
    }
    // The picture of the scenario: one "+2 · 3" per battery on the map.
    let options = RenderOptions::default();
    let layout = Layout::new(&map.grid, &options).unwrap();
    let drawing = symbology::scenario_drawing(scenario, map, &layout, &options);
    let printed = texts(&drawing);
    assert_eq!(
        printed.iter().filter(|(t, _)| t == "+2 · 3").count(),
        batteries.len()
    );
    // Infantry keeps CP-morale-MP, at the size it always had.
    let infantry = scenario.armies[0]
        .units
        .iter()
        .find(|u| u.kind.as_str() == "infantry" && u.fire_modifier.is_none())
        .unwrap();
    let look = looks.unit_by_id(infantry.id.as_str()).unwrap();
    assert_eq!(look.symbol, Symbol::Infantry);
    let printed = texts(&symbology::counter(
        &look,
        &scenario.rules.counters,
        side,
        CounterFace::Front,
    ));
    let expected = format!(
        "{}-{}-{}",
        infantry.cp.unwrap(),
        infantry.morale.unwrap(),
        infantry.mp.unwrap()
    );
    assert_eq!(printed[0].0, expected);
    assert_eq!(printed[0].1, 0.3 * side);
}

/// The board drawn band by band (`encode_map_png`, for boards too large to hold whole) is the
/// image drawn whole: every shape and name that crosses a band boundary drawn in both bands.
/// tiny-skia anti-aliases an edge a little differently when a band's top clips the shape, so a
/// few edge pixels differ by a few levels; a shape left out of a band would differ by far more.
#[test]
fn a_map_encoded_band_by_band_is_the_map_drawn_whole() {
    use bataille_schema::stress::{StressSize, generate};
    let (map, _) = generate(
        StressSize {
            columns: 14,
            rows: 12,
            units: 0,
            corps: 1,
        },
        "m.ron",
    );
    // Scales at which band boundaries cross hex names, labels, fills and grid lines.
    for px_per_hex in [61.0, 64.0, 70.0, 77.0] {
        band_by_band(&map, px_per_hex);
    }
}

fn band_by_band(map: &bataille_schema::Map, px_per_hex: f32) {
    let options = RenderOptions {
        px_per_hex,
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &options).unwrap();
    assert!(layout.height > 3 * 256, "several bands: {}", layout.height);
    let whole = bataille_render::render_map_at(map, &layout, &options).unwrap();
    let bytes = bataille_render::encode_map_png(map, &layout, &options).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut banded = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut banded).unwrap();
    assert_eq!((info.width, info.height), (whole.width(), whole.height()));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let (mut differ, mut most) = (0usize, 0u8);
    for (pixel, rgb) in whole.pixels().iter().zip(banded.chunks(3)) {
        let c = pixel.demultiply();
        let by = [c.red(), c.green(), c.blue()]
            .iter()
            .zip(rgb)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap_or(0);
        if by > 0 {
            differ += 1;
            most = most.max(by);
        }
    }
    let pixels = whole.pixels().len();
    assert!(
        differ * 1_000 <= pixels && most <= 32,
        "at {px_per_hex} px a hex, {differ} of {pixels} pixels differ, by up to {most} levels"
    );
}

/// A map whose road runs 0102 – 0202 – 0302 (the middle hex, 0202, joins both neighbours),
/// stated by `paths` (each entry one path of the "road" overlay).
fn road_map(paths: &str) -> Map {
    let text = MAP
        .replace(
            "    rows: [",
            "    overlay_types: { \"road\": (name: \"Road\", symbol: Road, colour: \"#8b6f47\") },\n    rows: [",
        )
        .replace(
            "    hexsides: {",
            &format!(
                "    overlays: {{ \"0102\": [\"road\"], \"0202\": [\"road\"], \"0302\": [\"road\"] }},\n    paths: {{ \"road\": [{paths}] }},\n    hexsides: {{"
            ),
        );
    let source = source_from_bytes(Path::new("road.ron"), text.into_bytes()).unwrap();
    parse_map(&source).unwrap()
}

/// The strokes drawn for one hex's road (the road itself, not its casing).
fn road_strokes(map: &Map, hex: &str) -> usize {
    use bataille_render::symbology::{Drawing, part};
    let layout = Layout::new(&map.grid, &no_text()).unwrap();
    let index = map.grid.parse(hex).unwrap();
    let is_road = |i: bataille_schema::HexIndex| map.overlays.contains_key(&map.grid.name(i));
    let paths = part::RoadPaths::of(map);
    let mut d = Drawing::new();
    part::roads(&mut d, map, &layout, index, false, &is_road, &paths);
    d.items.len()
}

#[test]
fn a_stated_road_is_drawn_once_however_many_paths_state_it() {
    // 0202 joins 0102 and 0302: two strokes from its centre.
    let once = road_map("\"0102 0202 0302\"");
    assert_eq!(road_strokes(&once, "0202"), 2);
    // The same road stated again by a second path, and walked back and forth by a third,
    // draws the same two strokes, not one per statement (a doubled stroke darkens its edges,
    // and a path walked back and forth 200,000 times drew 400,000 strokes per page).
    let walked = ["\"0102 0202\""; 500].join(" ").replace("\" \"", " ");
    let again = road_map(&format!("\"0102 0202 0302\", \"0102 0202 0302\", {walked}"));
    assert_eq!(road_strokes(&again, "0202"), 2);
    assert_eq!(road_strokes(&again, "0102"), 1);
    // A hex no path names draws no stated stroke toward hexes the paths do not join.
    let apart = road_map("\"0102 0202\"");
    assert_eq!(road_strokes(&apart, "0202"), 1);
}
