//! Where a new user tripped (issue 11), each driven through the real app with egui_kittest: a
//! click pressed and released within one frame, hexside drags that jump or touch the map's edge,
//! a left dock that moved with the tool, the file dialog, Escape and one modal at a time, the
//! docks hidden by a key, "saved" on a never-saved map, the guard naming the file that changed,
//! diagnostics naming counters, the inspector following the selection, duplicated units
//! numbered, the command palette and the shortcut sheet.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::panels::oob::Sel;
use bataille_editor::tools::Tool;
use bataille_editor::{AppCommand, Dialog, EditorApp, EditorConfig, UiCommand};
use bataille_schema::scenario::Unit;
use bataille_schema::{HexIndex, Id, Side};
use egui::{Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use common::*;

/// The map canvas (not the Map menu).
fn map_rect(h: &Harness<'_, EditorApp>) -> egui::Rect {
    h.state().ui.map_rect
}

fn map_app(columns: u32, rows: u32) -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let (dir, path) = temp_with_map(&blank_map(columns, rows), "map.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    (dir, h)
}

// 1. A click whose button goes down and up in the same frame acts like a held click.
#[test]
fn a_tap_paints_and_selects_like_a_held_click() {
    let (_dir, mut h) = map_app(12, 10);
    h.state_mut().ui.tools.tool = Tool::Brush;
    h.state_mut().ui.tools.terrain = 'f';
    h.state_mut().ui.tools.brush_radius = 0;
    let p = h.state().screen_of_hex(HexIndex::new(5, 5));
    tap(&mut h, p, PointerButton::Primary);
    h.run();
    assert_eq!(h.state().doc.code(HexIndex::new(5, 5)), Some('f'));
    assert_eq!(h.state().doc.history().undo_depth(), 1, "one tap, one step");
    assert!(
        h.state().ui.tools.stroke.is_none(),
        "the stroke ended with the tap"
    );

    h.state_mut().ui.tools.tool = Tool::Select;
    let q = h.state().screen_of_hex(HexIndex::new(7, 3));
    tap(&mut h, q, PointerButton::Primary);
    assert_eq!(h.state().ui.selection.hex, Some(HexIndex::new(7, 3)));
}

#[test]
fn a_tap_on_a_counter_selects_it() {
    let (_dir, mut h) = scenario_app(vec![unit("navarre", "Navarre", "aile", Some("0405"))]);
    h.state_mut().ui.tools.tool = Tool::Select;
    let hex = h
        .state()
        .doc
        .map
        .grid
        .lookup(&"0405".into())
        .expect("on the map");
    let p = h.state().screen_of_hex(hex);
    tap(&mut h, p, PointerButton::Primary);
    assert_eq!(h.state().ui.selection.item, Some(Sel::Unit(0, 0)));
}

/// A 12 × 10 map with the hexside tool drawing rivers.
fn river_app() -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let (dir, mut h) = map_app(12, 10);
    h.state_mut().ui.tools.tool = Tool::Hexside;
    h.state_mut().ui.tools.hexside = Some(Id::from("river"));
    (dir, h)
}

/// Where on the screen the middle of a hex's side is.
fn side_point(h: &Harness<'_, EditorApp>, col: u32, row: u32, side: Side) -> Pos2 {
    let grid = &h.state().doc.map.grid;
    h.state()
        .screen_of(side_midpoint(grid, HexIndex::new(col, row), side))
}

// 2. A hexside drag snaps to a continuous chain and refuses the map's edge.
#[test]
fn a_hexside_drag_that_jumps_leaves_no_gap_and_the_edge_is_refused() {
    let (_dir, mut h) = river_app();
    // From the south side of 4,2 straight to the south side of 4,5 in one move.
    let a = side_point(&h, 4, 2, Side::S);
    let b = side_point(&h, 4, 5, Side::S);
    h.hover_at(a);
    h.drag_at(a);
    h.run();
    h.hover_at(b);
    h.run();
    h.drop_at(b);
    h.run();
    let river = hexsides_of(&h, "river");
    assert!(river.len() >= 4, "a chain, not two lone sides: {river:?}");
    assert_eq!(h.state().doc.history().undo_depth(), 1);

    // The north side of the first row is the map's edge: nothing is drawn there.
    let edge = side_point(&h, 3, 0, Side::N);
    h.hover_at(edge);
    h.drag_at(edge);
    h.run();
    h.drop_at(edge);
    h.run();
    let grid = h.state().doc.map.grid.clone();
    let edge_ref = grid.hexside_ref(HexIndex::new(3, 0), Side::N);
    assert!(!h.state().doc.has_hexside(&Id::from("river"), &edge_ref));
    assert_eq!(
        h.state().doc.history().undo_depth(),
        1,
        "no step for a refused side"
    );
}

// 2. Tracing a corner: the pointer crosses the third hexside at the corner on its way from one
// side to the next; that stray side is dropped, the two traced ones are drawn.
#[test]
fn tracing_a_corner_leaves_no_stray_side() {
    let (_dir, mut h) = river_app();
    let grid = h.state().doc.map.grid.clone();
    let hex = HexIndex::new(4, 4);
    let above = grid.neighbour(hex, Side::N).expect("a hex above");
    // The north and north-east sides of 4,4 meet at a corner with the south-east side of the
    // hex above.
    let first = side_point(&h, hex.col, hex.row, Side::N);
    let stray = side_point(&h, above.col, above.row, Side::SE);
    let last = side_point(&h, hex.col, hex.row, Side::NE);
    h.hover_at(first);
    h.drag_at(first);
    h.run();
    for p in [stray, last] {
        h.hover_at(p);
        h.run();
    }
    h.drop_at(last);
    h.run();
    let has = |h: &Harness<'_, EditorApp>, at: HexIndex, side: Side| {
        h.state()
            .doc
            .has_hexside(&Id::from("river"), &grid.hexside_ref(at, side))
    };
    assert!(has(&h, hex, Side::N), "the first traced side");
    assert!(has(&h, hex, Side::NE), "the last traced side");
    assert!(!has(&h, above, Side::SE), "the stray side at the corner");
    assert_eq!(h.state().doc.history().undo_depth(), 1);
}

// 3. The palette and the map stay where they are whatever the tool.
#[test]
fn the_left_dock_keeps_its_place_across_tools() {
    let (_dir, mut h) = map_app(12, 10);
    let mut places = Vec::new();
    for tool in Tool::ALL {
        h.state_mut().ui.tools.tool = tool;
        h.run();
        let terrain = h.get_by_label("f  Forest").rect();
        let map = map_rect(&h);
        places.push((tool, terrain.min, map.min.x));
    }
    let first = places[0];
    for place in &places {
        assert_eq!(
            (place.1, place.2),
            (first.1, first.2),
            "{:?} moved things",
            place.0
        );
    }
}

// 4. The file dialog starts in the document's folder and makes missing folders.
#[test]
fn save_as_into_a_new_folder_from_the_file_dialog() {
    let (dir, mut h) = map_app(8, 6);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    let Some(Dialog::Path { dialog, .. }) = &h.state().ui.dialog else {
        panic!("no file dialog: {:?}", h.state().ui.dialog);
    };
    let start = dialog.folder();
    assert_eq!(
        std::fs::canonicalize(&start).ok(),
        std::fs::canonicalize(dir.path()).ok(),
        "starts in the document's folder"
    );
    h.get_by_label("🗋 map.ron");
    let target = dir.path().join("campaign/maps/copy.ron");
    type_text_into(&mut h, "File path", &target.display().to_string());
    h.get_by_label_contains("does not exist yet");
    h.get_by_label("Create folder and save").click();
    h.run();
    assert!(target.exists(), "saved into the folder it made");
    assert!(h.state().ui.dialog.is_none());
}

// 7. Escape closes the top dialog and leaves the digitise click modes; one modal at a time.
#[test]
fn escape_closes_the_dialog_and_one_modal_at_a_time() {
    let (_dir, mut h) = map_app(8, 6);
    h.key_press(Key::F1);
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Shortcuts)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    assert!(
        matches!(h.state().ui.dialog, Some(Dialog::Shortcuts)),
        "Ctrl+N opens nothing over another dialog"
    );
    h.key_press(Key::Escape);
    h.run();
    assert!(h.state().ui.dialog.is_none(), "Escape closed it");

    h.state_mut().services.digitise.mode = bataille_editor::services::digitise::Mode::Calibrate;
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(
        h.state().services.digitise.mode,
        bataille_editor::services::digitise::Mode::Idle
    );
}

// 7, seen under Xvfb: Escape closes an open menu (the menu is the top thing), and does
// nothing else: the selection stays.
#[test]
fn escape_closes_an_open_menu() {
    let (_dir, mut h) = map_app(8, 6);
    h.state_mut().ui.selection.hex = Some(HexIndex::new(3, 3));
    h.get_by_label("Edit").click();
    h.run();
    assert!(
        h.query_by_label_contains("Brush tool").is_some(),
        "the Edit menu is open"
    );
    h.key_press(Key::Escape);
    h.run();
    assert!(
        h.query_by_label_contains("Brush tool").is_none(),
        "Escape closed the menu"
    );
    assert_eq!(
        h.state().ui.selection.hex,
        Some(HexIndex::new(3, 3)),
        "the Escape was the menu's: the selection stays"
    );
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(
        h.state().ui.selection.hex,
        None,
        "the next Escape is the map's"
    );
}

// 3, seen under Xvfb: the map stays still when a panel beside it grows or shrinks. A fill that
// broke rules grew the diagnostics list by two rows and the whole map jumped 21 px up (the view
// kept its centre in a shorter map area).
#[test]
fn the_map_stays_still_when_a_panel_beside_it_changes() {
    let (_dir, mut h) = map_app(12, 10);
    h.set_size(egui::vec2(1400.0, 900.0));
    h.run();
    let hex = HexIndex::new(6, 5);
    let before = h.state().screen_of_hex(hex);
    let area = map_rect(&h);
    command(&mut h, UiCommand::ToggleDiagnostics);
    assert_ne!(map_rect(&h), area, "the map area changed");
    let after = h.state().screen_of_hex(hex);
    assert!(
        (after - before).length() < 0.5,
        "the hex moved from {before:?} to {after:?}"
    );
}

// …and a map just opened is fitted in its area as the panels around it settle, not in the
// first frame's area (seen under Xvfb: the demo map opened 17 px off-centre).
#[test]
fn a_map_just_opened_is_centred_in_its_settled_area() {
    let (_dir, path) = temp_with_map(&blank_map(12, 10), "map.ron");
    let mut h = harness(app_with_file(path.parent().expect("folder"), &path));
    h.run();
    let grid = h.state().doc.map.grid.clone();
    let (min, max) = grid.bounds();
    let centre = h
        .state()
        .screen_of([(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0]);
    let area = map_rect(&h).center();
    assert!(
        (centre - area).length() < 1.0,
        "the map's centre at {centre:?}, its area's at {area:?}"
    );
}

// 10. A key gives the whole window to the map (Ctrl+Shift+H or F11; issue 21: not Tab, which
// moves the keyboard focus).
#[test]
fn a_key_hides_and_shows_the_docks() {
    let (_dir, mut h) = map_app(12, 10);
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run();
    let before = map_rect(&h).width();
    command(&mut h, UiCommand::FitMap);
    h.run();
    let zoom = h.state().ui.view.zoom;
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(map_rect(&h).width(), before, "Tab moves the focus");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::H);
    h.run();
    h.run();
    let after = map_rect(&h).width();
    assert!(after > 1000.0 && after > before, "{before} → {after}");
    // The fitted map takes the room it was given (it stayed small until Ctrl+0).
    assert!(
        h.state().ui.view.zoom > zoom * 1.1,
        "{zoom} → {}",
        h.state().ui.view.zoom
    );
    h.key_press(Key::F11);
    h.run();
    h.run();
    assert_eq!(map_rect(&h).width(), before);
    assert!((h.state().ui.view.zoom - zoom).abs() < 1e-3);
    // Zoomed by the user, the map stays as it is when the docks go.
    command(&mut h, UiCommand::ZoomIn);
    let chosen = h.state().ui.view.zoom;
    assert!(chosen > zoom);
    h.key_press(Key::F11);
    h.run();
    h.run();
    assert_eq!(h.state().ui.view.zoom, chosen);
}

// 11. A never-saved map does not say "saved"; the guard names the file that changed.
#[test]
fn a_new_map_is_not_saved_and_the_guard_names_the_map() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    assert!(
        h.query_by_label("saved").is_none(),
        "a new map is not saved"
    );
    h.get_by_label("not saved yet");

    let (_dir, mut h) = scenario_app(vec![unit("navarre", "Navarre", "aile", None)]);
    let hex = HexIndex::new(2, 2);
    let before = h.state().doc.code(hex).unwrap_or('c');
    h.state_mut().execute(AppCommand::Edit {
        label: "Paint".into(),
        changes: vec![bataille_editor::model::history::Change::Terrain(vec![
            bataille_editor::model::history::CellChange {
                hex,
                before,
                after: 'f',
            },
        ])],
    });
    h.state_mut().request(UiCommand::NewMap);
    h.run();
    h.get_by_label_contains("map map.ron has changes");
    let Some(Dialog::Guard { question, .. }) = &h.state().ui.dialog else {
        panic!("no guard: {:?}", h.state().ui.dialog);
    };
    assert!(
        !question.contains("scenario"),
        "the scenario did not change: {question}"
    );
}

#[test]
fn diagnostics_name_counters_by_name() {
    let (_dir, mut h) = scenario_app(vec![
        unit("navarre", "Navarre", "aile", Some("0405")),
        unit("piemont", "Piémont", "aile", Some("0405")),
        unit("picardie", "Picardie", "aile", Some("0405")),
    ]);
    h.run();
    let rows: Vec<String> = h
        .state()
        .services
        .diagnostics
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(!rows.is_empty(), "three units on a hex break something");
    // The panel's row reads the unit's name where the validator wrote its id.
    assert!(
        h.query_by_label_contains("unit “Navarre” is of kind")
            .is_some(),
        "a row names the unit: {rows:?}"
    );
    assert!(
        h.query_by_label_contains("`navarre`").is_none(),
        "no row shows a bare id where a name exists: {rows:?}"
    );
}

// 12. The inspector follows the selection.
#[test]
fn the_inspector_follows_the_selection() {
    let (_dir, mut h) = scenario_app(vec![
        unit("navarre", "Navarre", "aile", Some("0405")),
        unit("piemont", "Piémont", "aile", Some("0708")),
    ]);
    h.state_mut().panels.right_dock.tab = bataille_editor::panels::oob::DockTab::Oob;
    h.run();
    h.get_all_by_label_contains("Piémont")
        .next()
        .expect("the tree row")
        .click();
    h.run();
    h.state_mut().panels.right_dock.tab = bataille_editor::panels::oob::DockTab::Inspector;
    h.run();
    assert!(h.query_all_by_label_contains("Piémont (piemont)").count() >= 1);
    h.get_by_label("Hex 0708");
}

// 11, seen under Xvfb: the inspector named a hex's overlays and hexside features by id
// ("Overlay: fortifications", "N: ligne-du-camp") where the status bar and the legend use names.
#[test]
fn the_inspector_names_overlays_and_hexside_features() {
    let mut map = blank_map(8, 6);
    let hex = HexIndex::new(3, 3);
    map.overlays
        .insert(map.grid.name(hex), vec![Id::from("town")]);
    let side = map.grid.hexside_ref(hex, Side::N);
    map.hexsides.insert(Id::from("river"), vec![side]);
    let (dir, path) = temp_with_map(&map, "map.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.state_mut().ui.selection.hex = Some(hex);
    h.state_mut().panels.right_dock.tab = bataille_editor::panels::oob::DockTab::Inspector;
    h.run();
    h.get_by_label("Overlay: Town");
    h.get_by_label_contains(": River");
    assert!(h.query_by_label_contains("town").is_none());
    assert!(h.query_by_label_contains(": river").is_none());
}

// 6. Duplicates are numbered as the games print them, with ids from their names.
#[test]
fn duplicating_numbers_the_battalions() {
    let (_dir, mut h) = scenario_app(vec![unit("fechenbach", "Fechenbach", "aile", None)]);
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    h.get_by_label("Duplicate").click();
    h.run();
    h.state_mut().select(Some(Sel::Unit(0, 1)));
    h.run();
    h.get_by_label("Duplicate").click();
    h.run();
    let s = scenario_of(&h);
    let names: Vec<&str> = s.armies[0].units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["Fechenbach 1/", "Fechenbach 2/", "Fechenbach 3/"]);
    let ids: Vec<&str> = s.armies[0].units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["fechenbach", "fechenbach-2", "fechenbach-3"]);
    // The form fits: adding a unit needs no scrolling.
    h.state_mut().select(Some(Sel::Corps(0, 0)));
    h.run();
    let add = h.get_by_label("Add unit").rect();
    assert!(add.max.y <= 800.0, "Add unit is on screen: {add:?}");
}

// The command palette and the shortcut sheet come from the command table.
#[test]
fn the_palette_finds_and_runs_a_command() {
    let (_dir, mut h) = map_app(8, 6);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Palette(_))));
    h.get_by_label("Find a command").type_text("hex names");
    h.run();
    let shown = h.state().ui.view.layers.hex_names;
    h.key_press(Key::Enter);
    h.run();
    assert!(h.state().ui.dialog.is_none());
    assert_ne!(
        h.state().ui.view.layers.hex_names,
        shown,
        "Hex names toggled"
    );

    h.key_press(Key::F1);
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Shortcuts)));
    h.get_by_label("Command palette…");
    h.get_by_label("Hide or show the docks");
    // Seen under Xvfb: the brush keys read "OpenBracket" and "CloseBracket" (egui's key names);
    // the sheet and the menus show the keys as printed on them.
    h.get_by_label("[");
    h.get_by_label("]");
    assert!(h.query_by_label_contains("Bracket").is_none());
}

// The undo-after-Save-As case: the scan's path stays right after Save As and undo.
#[test]
fn undoing_a_calibration_after_save_as_keeps_the_scan_path_right() {
    use bataille_schema::map::{Background, FitKind};
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("scans")).expect("mkdir");
    std::fs::create_dir(dir.path().join("maps")).expect("mkdir");
    std::fs::write(dir.path().join("scans/scan.png"), b"not read here").expect("write");
    let mut map = blank_map(8, 6);
    map.background = Some(Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        control_points: Vec::new(),
    });
    let path = dir.path().join("maps/map.ron");
    write_map(&path, &map);
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let before = h.state().doc.map.background.clone().map(Box::new);
    let mut moved = before.clone();
    if let Some(b) = moved.as_mut() {
        b.grid_to_image[2] = 12.0;
    }
    h.state_mut().execute(AppCommand::Edit {
        label: "Calibrate".into(),
        changes: vec![bataille_editor::model::history::Change::Digitise(
            bataille_editor::model::digitise_change::DigitiseChange::Background {
                before,
                after: moved,
            },
        )],
    });
    let copy = dir.path().join("copy.ron");
    h.state_mut().execute(AppCommand::SaveAsPath(copy.clone()));
    h.state_mut().execute(UiCommand::Undo);
    h.state_mut().execute(UiCommand::Save);
    let saved = bataille_schema::load_map(&copy).expect("saved").map;
    assert_eq!(
        saved.background.map(|b| b.image),
        Some("scans/scan.png".to_owned()),
        "relative to the new file, after the undo"
    );
}

// 9. A new map starts from a legend template: a river can be drawn at once.
#[test]
fn a_new_map_starts_from_a_bundled_legend() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    h.get_by_label("Legend").click();
    h.run();
    h.get_by_label("Denain 1712's legend").click();
    h.run();
    h.get_by_label("Create map").click();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let map = &h.state().doc.map;
    assert!(!map.hexside_types.is_empty(), "hexside features to draw");
    assert!(!map.overlay_types.is_empty(), "overlays to place");
    let code = map.rows[0].chars().next().expect("a hex");
    assert!(
        map.terrain.contains_key(&code.to_string()),
        "every hex has a known code"
    );
}

// 8. Digitising shares the right dock: the map keeps its width.
#[test]
fn digitising_shares_the_right_dock() {
    let (_dir, mut h) = map_app(12, 10);
    let before = map_rect(&h).width();
    h.state_mut()
        .services
        .digitise
        .open_on(bataille_editor::services::digitise::Tab::Calibrate);
    h.run();
    h.run();
    assert_eq!(
        h.state().panels.right_dock.tab,
        bataille_editor::panels::oob::DockTab::Digitise
    );
    h.get_by_label("Digitising");
    assert_eq!(map_rect(&h).width(), before, "no third column");
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(
        h.state().services.digitise.mode,
        bataille_editor::services::digitise::Mode::Idle
    );
}

// 12. A stack's count badge is big enough for its number at every zoom, and drawn at every
// zoom: painted from tiny counters (under 5 points, one mesh) to large ones.
#[test]
fn the_stack_badge_holds_its_number_at_every_zoom() {
    for side in [4.0_f32, 8.0, 14.0, 30.0, 80.0] {
        assert!(
            bataille_editor::map::counters::badge_radius(side) >= 7.0,
            "side {side}"
        );
    }
    use bataille_editor::map::counters::{self, CounterCache, Highlights};
    use bataille_editor::map::view::MapView;
    let map = blank_map(12, 10);
    let mut s = scenario("map.ron");
    let units: Vec<Unit> = (1..=5)
        .map(|k| unit(&format!("u{k}"), &format!("Unit {k}"), "aile", Some("0505")))
        .collect();
    s.armies.push(france(units));
    let mut cache = CounterCache::default();
    cache.refresh(1, Some(&s), &map.grid);
    let hex = map.grid.lookup(&"0505".into()).expect("0505");
    assert_eq!(cache.count_at(hex).0, 5);
    let ctx = egui::Context::default();
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    // Points per grid unit: counters from 2 to 110 points across.
    for zoom in [2.0_f32, 4.0, 10.0, 24.0, 60.0, 100.0] {
        let mut view = MapView::default();
        view.zoom = zoom;
        let [x, y] = map.grid.centre(hex);
        view.centre = egui::pos2(x, y);
        let mut output = ctx.run_ui(
            egui::RawInput {
                screen_rect: Some(rect),
                ..Default::default()
            },
            |ui| {
                let painter = ui.painter().clone();
                counters::paint(
                    &painter,
                    &view,
                    rect,
                    &map.grid,
                    &cache,
                    &Highlights::default(),
                    Some(&s),
                );
            },
        );
        let badge = output.shapes.iter().any(|clipped| {
            matches!(&clipped.shape, egui::Shape::Text(text) if text.galley.text() == "5")
        });
        output.textures_delta.clear();
        assert!(badge, "no count badge at zoom {zoom}");
    }
}

// 5. Unit kinds are editable in the scenario settings (an undoable step).
#[test]
fn unit_kinds_are_edited_in_the_settings() {
    let (_dir, mut h) = scenario_app(vec![unit("navarre", "Navarre", "aile", None)]);
    let kinds = |h: &Harness<'_, EditorApp>| {
        h.state()
            .doc
            .scenario
            .as_ref()
            .map_or(0, |f| f.scenario.rules.unit_kinds.len())
    };
    let before = kinds(&h);
    h.state_mut().request(UiCommand::ScenarioSettings);
    h.run();
    h.run();
    assert!(
        matches!(h.state().ui.dialog, Some(Dialog::ScenarioSettings(_))),
        "the settings dialog is open"
    );
    for label in ["Add unit kind", "Apply"] {
        for _ in 0..2 {
            h.get_by_label(label).scroll_to_me();
            h.run();
        }
        h.get_by_label(label).click();
        h.run();
    }
    assert_eq!(kinds(&h), before + 1);
    h.state_mut().execute(UiCommand::Undo);
    assert_eq!(kinds(&h), before);
}
