//! Fixtures for the editor's tests: maps and a scenario built with the schema's types and
//! written with its canonical writer, and a harness around the real `EditorApp`.
#![allow(dead_code)]

pub mod scan;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bataille_editor::{EditorApp, EditorConfig};
use bataille_schema::map::{
    Effects, Grid, HexNaming, HexsideSymbol, HexsideType, MoveCost, Orientation, OverlaySymbol,
    OverlayType, Pattern, Shifted, TerrainType,
};
use bataille_schema::scenario::{Army, Command, Corps, Placement, Rules, Stacking, Unit, Victory};
use bataille_schema::{Colour, HexIndex, Id, Map, Scenario};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The editor under test.
pub type H = Harness<'static, EditorApp>;

fn terrain(name: &str, colour: &str, pattern: Option<Pattern>) -> TerrainType {
    TerrainType {
        name: name.into(),
        colour: Colour::from(colour),
        pattern,
        water: false,
        effects: Effects::default(),
    }
}

/// A map of `columns × rows` clear hexes with a small legend (terrain c f m w v, rivers,
/// streams, roads, redoubts, towns).
pub fn blank_map(columns: u32, rows: u32) -> Map {
    let mut legend = BTreeMap::new();
    legend.insert("c".to_owned(), terrain("Clear", "#e4e8b8", None));
    let mut forest = terrain("Forest", "#6f9a55", Some(Pattern::Trees));
    forest.effects.blocks_sight = true;
    forest.effects.blocks_zoc = true;
    forest
        .effects
        .cost_by_kind
        .insert(Id::from("cavalry"), MoveCost::Impassable);
    legend.insert("f".to_owned(), forest);
    legend.insert(
        "m".to_owned(),
        terrain("Marsh", "#b9cfb0", Some(Pattern::Marsh)),
    );
    let mut water = terrain("Water", "#8fb8d8", Some(Pattern::Water));
    water.water = true;
    legend.insert("w".to_owned(), water);
    let mut village = terrain("Village", "#d9c7a0", Some(Pattern::Buildings));
    village.effects.built_up = true;
    village.effects.protection = 1;
    legend.insert("v".to_owned(), village);
    let mut hexside_types = BTreeMap::new();
    hexside_types.insert(
        Id::from("river"),
        HexsideType {
            name: "River".into(),
            symbol: HexsideSymbol::River,
            colour: Colour::from("#2f6fb5"),
            water: true,
            bridge: false,
            blocks_zoc: true,
            needs_breach: false,
            cost: Some(MoveCost::Impassable),
            cost_by_kind: BTreeMap::new(),
        },
    );
    hexside_types.insert(
        Id::from("stream"),
        HexsideType {
            name: "Stream".into(),
            symbol: HexsideSymbol::Stream,
            colour: Colour::from("#4f8fd5"),
            water: true,
            bridge: false,
            blocks_zoc: true,
            needs_breach: false,
            cost: Some(MoveCost::Mp(1)),
            cost_by_kind: BTreeMap::new(),
        },
    );
    let mut overlay_types = BTreeMap::new();
    let overlay = |name: &str, symbol| OverlayType {
        name: name.into(),
        symbol,
        colour: None,
        bridge: false,
        effects: Effects::default(),
    };
    overlay_types.insert(
        Id::from("redoubt"),
        overlay("Redoubt", OverlaySymbol::Redoubt),
    );
    overlay_types.insert(Id::from("town"), overlay("Town", OverlaySymbol::Town));
    overlay_types.insert(Id::from("road"), overlay("Road", OverlaySymbol::Road));
    overlay_types.insert(Id::from("bridge"), {
        let mut b = overlay("Bridge", OverlaySymbol::Bridge);
        b.bridge = true;
        b
    });
    let digits = |n: u32| if n >= 100 { 3 } else { 2 };
    Map {
        paths: Default::default(),
        short_lines: None,
        format_version: 1,
        name: format!("Test map {columns}x{rows}"),
        notes: None,
        grid: Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns,
            rows,
            hex_names: HexNaming {
                column_digits: digits(columns + 1),
                row_digits: digits(rows + 1),
                separator: String::new(),
            },
        },
        metres_per_hex: Some(400.0),
        terrain: legend,
        overlay_types,
        hexside_types,
        rows: vec!["c".repeat(columns as usize); rows as usize],
        overlays: BTreeMap::new(),
        hexsides: BTreeMap::new(),
        labels: BTreeMap::new(),
        friendly_edges: BTreeMap::new(),
        checked: Vec::new(),
        background: None,
        half_hexes: Vec::new(),
        allow: Vec::new(),
    }
}

fn set(map: &mut Map, col: u32, row: u32, code: char) {
    if let Some(text) = map.rows.get_mut(row as usize) {
        let mut chars: Vec<char> = text.chars().collect();
        if let Some(c) = chars.get_mut(col as usize) {
            *c = code;
        }
        *text = chars.into_iter().collect();
    }
}

/// A 34 × 24 map that looks like a battlefield: woods, marsh, a river with a bridge, villages,
/// redoubts, a road and labels (for the screenshot and manual testing).
pub fn demo_map() -> Map {
    let mut map = blank_map(34, 24);
    map.name = "Demo battlefield".into();
    let grid = map.grid.clone();
    // Woods.
    for (centre, radius) in [((6, 5), 3), ((26, 18), 2), ((28, 4), 2), ((4, 19), 2)] {
        for hex in grid.range(HexIndex::new(centre.0, centre.1), radius) {
            set(&mut map, hex.col, hex.row, 'f');
        }
    }
    // Marsh along the river.
    for hex in grid.range(HexIndex::new(17, 14), 2) {
        set(&mut map, hex.col, hex.row, 'm');
    }
    // A river running north to south along hexsides, wandering.
    let mut river = Vec::new();
    let mut col = 15;
    for row in 0..24 {
        let hex = HexIndex::new(col, row);
        river.push(grid.hexside_ref(hex, bataille_schema::Side::SE));
        river.push(grid.hexside_ref(hex, bataille_schema::Side::NE));
        if row % 6 == 5 {
            col += 1;
        }
    }
    map.hexsides.insert(Id::from("river"), river);
    let stream: Vec<_> = (20..30)
        .map(|c| grid.hexside_ref(HexIndex::new(c, 9), bataille_schema::Side::S))
        .collect();
    map.hexsides.insert(Id::from("stream"), stream);
    // Villages and works.
    for (c, r, label) in [(10, 10, "Denain"), (22, 6, "Prouvy"), (24, 15, "Neuville")] {
        set(&mut map, c, r, 'v');
        let name = grid.name(HexIndex::new(c, r));
        map.overlays.insert(name.clone(), vec![Id::from("town")]);
        map.labels.insert(name, label.into());
    }
    for (c, r) in [(12, 12), (13, 8), (20, 11)] {
        map.overlays
            .insert(grid.name(HexIndex::new(c, r)), vec![Id::from("redoubt")]);
    }
    for c in 2..33 {
        let name = grid.name(HexIndex::new(c, 12));
        map.overlays.entry(name).or_default().push(Id::from("road"));
    }
    map.labels
        .insert(grid.name(HexIndex::new(15, 2)), "L'Escaut".into());
    map
}

/// A minimal scenario naming a map file.
pub fn scenario(map_file: &str) -> Scenario {
    Scenario {
        sides: Vec::new(),
        format_version: 1,
        title: "Test scenario".into(),
        map: map_file.into(),
        date: "1712-07-24".into(),
        turns: 10,
        turn_minutes: 30,
        start_time: "10:00".into(),
        language: None,
        notes: None,
        allow: Vec::new(),
        rules: Rules {
            rule_numbers: Default::default(),
            charts: Vec::new(),
            counters: Default::default(),
            system: Id::from("vae-victis"),
            unit_kinds: BTreeMap::new(),
            stacking: Stacking {
                compositions: Vec::new(),
                reinforcements: Default::default(),
                column_entry: Vec::new(),
            },
            command: Command {
                corps: true,
                line_leaders: true,
                commanders: true,
                commander_radius_hexes: 4,
                leader_radius_hexes: 2,
                blocked_by_enemy_front_and_flank: false,
                lines_of_battle: false,
                leaders_move_as: None,
                commanders_move_as: None,
            },
            fire_restrictions: Vec::new(),
        },
        armies: Vec::new(),
        zones: Vec::new(),
        victory: Victory::default(),
        miniatures: Vec::new(),
    }
}

/// Writes a map canonically.
pub fn write_map(path: &Path, map: &Map) {
    let text = bataille_schema::map_to_string(map).expect("serialise map");
    std::fs::write(path, text).expect("write map");
}

/// A temporary directory with a map file in it.
pub fn temp_with_map(map: &Map, name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    write_map(&path, map);
    (dir, path)
}

/// The editor around the real app state, in a 1280 × 800 window. Validation runs inline so a
/// test step never races the worker thread (whose repaints would make `Harness::run` exceed its
/// steps on a loaded machine); the worker has its own test in `validation.rs`.
pub fn harness(mut app: EditorApp) -> Harness<'static, EditorApp> {
    app.services.diagnostics.live.mode = bataille_editor::services::validation::Mode::Inline;
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app)
}

/// An editor with its files in `dir`, opening `file`.
pub fn app_with_file(dir: &Path, file: &Path) -> EditorApp {
    EditorApp::with_file(EditorConfig::isolated(dir), file)
}

pub fn unit(id: &str, name: &str, corps: &str, at: Option<&str>) -> Unit {
    Unit {
        id: Id::from(id),
        name: name.into(),
        kind: Id::from("infantry"),
        corps: Some(Id::from(corps)),
        cp: Some(1),
        mp: Some(4),
        morale: Some(2),
        fire_modifier: None,
        always_in_command: false,
        facing: None,
        placement: at.map_or(Placement::Unplaced, |h| Placement::Hex(h.into())),
        ratings: Default::default(),
        allow: Default::default(),
    }
}

/// The army `france` with one corps, `aile` (no line leader), and `units`.
pub fn france(units: Vec<Unit>) -> Army {
    Army {
        id: Id::from("france"),
        name: "France".into(),
        colour: None,
        friendly_edges: Vec::new(),
        commanders: Vec::new(),
        units,
        corps: vec![Corps {
            id: Id::from("aile"),
            name: "Aile droite".into(),
            colour: "#2040a0".into(),
            leader: None,
            friendly_edges: Vec::new(),
            allow: Vec::new(),
        }],
    }
}

/// A map and a scenario with one army, one corps and `units` (placed where given).
pub fn scenario_app(units: Vec<Unit>) -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let map_path = dir.path().join("map.ron");
    write_map(&map_path, &blank_map(12, 10));
    let mut s = scenario("map.ron");
    s.armies.push(france(units));
    let path = dir.path().join("scenario.ron");
    std::fs::write(
        &path,
        bataille_schema::scenario_to_string(&s).expect("text"),
    )
    .expect("write");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    (dir, h)
}

/// The open scenario.
pub fn scenario_of(h: &H) -> &Scenario {
    &h.state()
        .doc
        .scenario
        .as_ref()
        .expect("a scenario")
        .scenario
}

/// Runs a command as the menus do (queued, run at the end of the frame), and the frames after.
pub fn command(h: &mut H, command: impl Into<bataille_editor::Command>) {
    h.state_mut().request(command);
    h.run();
    h.step();
    h.run();
}

/// Scrolls a labelled widget into view (twice: a dialog opened in the last frame is still
/// sizing itself).
fn scroll_to(h: &mut H, label: &str) {
    for _ in 0..2 {
        h.get_by_label(label).scroll_to_me();
        h.run();
    }
}

/// Scrolls a labelled button into view and clicks it.
/// A press and a release in the same frame (a touchpad tap, a remote desktop), at a point: a
/// real pointer event, unlike kittest's `click` on a node (an AccessKit action, which no widget
/// under the node ever sees).
pub fn tap(h: &mut H, at: egui::Pos2, button: egui::PointerButton) {
    let events = &mut h.input_mut().events;
    events.push(egui::Event::PointerMoved(at));
    for pressed in [true, false] {
        events.push(egui::Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
}

pub fn click(h: &mut H, label: &str) {
    scroll_to(h, label);
    h.get_by_label(label).click();
    h.run();
}

/// Replaces the text of a labelled field (scrolled into view), without committing it.
pub fn type_text_into(h: &mut H, label: &str, text: &str) {
    scroll_to(h, label);
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Replaces the text of a labelled field and commits it with Enter.
pub fn type_into(h: &mut H, label: &str, text: &str) {
    type_text_into(h, label, text);
    h.key_press(Key::Enter);
    h.run();
}

/// A folder holding copies of Denain, its map and its miniatures systems, laid out as in the
/// repository.
pub fn denain_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for file in [
        "scenarios/denain-1712.ron",
        "maps/denain-1712.ron",
        "systems/age-of-honor.ron",
        "systems/louis-xiv.ron",
    ] {
        let target = dir.path().join(file);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("dirs");
        std::fs::copy(root.join(file), &target).expect("copy");
    }
    dir
}

/// A copy of Denain beside copies of its map and miniatures systems, as in the repository,
/// opened.
pub fn open_denain() -> (tempfile::TempDir, PathBuf, H) {
    let dir = denain_files();
    let path = dir.path().join("scenarios/denain-1712.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    (dir, path, h)
}

/// The map's hexsides of a type, sorted.
pub fn hexsides_of(h: &H, id: &str) -> Vec<bataille_schema::HexsideRef> {
    let mut sides = h
        .state()
        .doc
        .map
        .hexsides
        .get(&Id::from(id))
        .cloned()
        .unwrap_or_default();
    sides.sort();
    sides
}

/// The middle of a hexside, in grid units.
pub fn side_midpoint(grid: &Grid, hex: HexIndex, side: bataille_schema::Side) -> [f32; 2] {
    let [a, b] = grid.side_corners(hex, side).expect("a side");
    [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
}
