//! The whole editor by keyboard (issue 21): a small battle authored without the pointer — a
//! new map, terrain painted, a scenario with two armies, a unit placed, a zone, saved — with
//! Tab moving the focus, Enter pressing what has it, shortcuts and the command palette, and
//! the arrows and Enter on the map.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::{EditorApp, EditorConfig};
use bataille_schema::HexIndex;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::*;

/// Presses Tab until the widget labelled `label` has the keyboard (at most `max` times); "Map"
/// is the map's canvas (not the menu).
fn tab_to(h: &mut H, label: &str, max: usize) {
    for _ in 0..max {
        let by = egui_kittest::kittest::by().label(label);
        let by = if label == "Map" {
            by.role(egui::accesskit::Role::Canvas)
        } else {
            by
        };
        if h.query_all(by).any(|node| node.is_focused()) {
            return;
        }
        h.key_press(Key::Tab);
        h.run();
    }
    let focused: Vec<String> = h
        .query_all(egui_kittest::kittest::by())
        .filter(|node| node.is_focused())
        .map(|node| format!("{node:?}"))
        .collect();
    panic!("Tab never reached {label}; the focus is on {focused:?}");
}

/// Types text into the focused field, replacing what it held.
fn type_keys(h: &mut H, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.event(egui::Event::Text(text.to_owned()));
    h.run();
}

fn press(h: &mut H, key: Key) {
    h.key_press(key);
    h.run();
}

/// Runs a command by the palette: Ctrl+Shift+P, its name, Enter.
fn palette(h: &mut H, name: &str) {
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.run();
    h.event(egui::Event::Text(name.to_owned()));
    h.run();
    press(h, Key::Enter);
    h.run();
}

#[test]
fn a_small_battle_authored_without_the_pointer() {
    let dir = tempfile::tempdir().expect("dir");
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();

    // F1 lists the map's keys too (the arrows, Enter, R for the hexside tool's side).
    press(&mut h, Key::F1);
    h.get_by_label("Shift+Enter");
    h.get_by_label("R, Shift+R (hexside tool)");
    press(&mut h, Key::Escape);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);

    // A new map: Ctrl+N, its title typed, Create map by Tab and Enter.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    tab_to(&mut h, "Map title", 150);
    type_keys(&mut h, "Keyboard field");
    tab_to(&mut h, "Create map", 150);
    press(&mut h, Key::Enter);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert_eq!(h.state().doc.map.name, "Keyboard field");

    // Terrain: the forest from the palette of the left dock, the map focused, a hex painted.
    press(&mut h, Key::B);
    tab_to(&mut h, "f  Forest", 150);
    press(&mut h, Key::Enter);
    assert_eq!(h.state().ui.tools.terrain, 'f');
    tab_to(&mut h, "Map", 150);
    press(&mut h, Key::ArrowRight);
    let cursor = h.state().ui.selection.hex.expect("the arrows select a hex");
    press(&mut h, Key::Enter);
    assert_eq!(h.state().doc.code(cursor), Some('f'), "painted by Enter");
    press(&mut h, Key::ArrowDown);
    let below = h.state().ui.selection.hex.expect("a hex");
    assert_eq!(
        (below.col, below.row),
        (cursor.col, cursor.row + 1),
        "Down moves a row"
    );
    press(&mut h, Key::Enter);
    assert_eq!(h.state().doc.code(below), Some('f'));

    // A river by keyboard: the hexside tool (H), R turns to a side of the selected hex (shown
    // in cyan), Enter draws it, Shift+Enter removes it.
    press(&mut h, Key::H);
    assert_eq!(
        h.state().ui.tools.tool,
        bataille_editor::tools::Tool::Hexside
    );
    let feature = h
        .state()
        .ui
        .tools
        .hexside
        .clone()
        .expect("a feature to draw");
    let grid = h.state().doc.map.grid.clone();
    let first = h.state().ui.tools.key_side(&grid);
    press(&mut h, Key::R);
    press(&mut h, Key::R);
    let side = h.state().ui.tools.key_side(&grid);
    assert_ne!(side, first, "R turns the side");
    let river = grid.hexside_ref(below, side);
    press(&mut h, Key::Enter);
    assert!(
        h.state().doc.has_hexside(&feature, &river),
        "drawn by Enter"
    );
    assert_eq!(h.state().ui.selection.hex, Some(below), "the cursor stays");
    h.key_press_modifiers(Modifiers::SHIFT, Key::Enter);
    h.run();
    assert!(
        !h.state().doc.has_hexside(&feature, &river),
        "removed by Shift+Enter"
    );
    h.key_press_modifiers(Modifiers::SHIFT, Key::R);
    h.run();
    press(&mut h, Key::Enter);
    let stream = grid.hexside_ref(below, h.state().ui.tools.key_side(&grid));
    assert_ne!(stream, river, "Shift+R turns back");
    assert!(h.state().doc.has_hexside(&feature, &stream));

    // Saved first (a scenario names its map's file): the path typed in the file dialog.
    let map_path = dir.path().join("field.ron");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    assert!(h.get_by_label("File path").is_focused());
    type_keys(&mut h, &map_path.display().to_string());
    press(&mut h, Key::Enter);
    h.run();
    assert!(map_path.is_file(), "the map is saved");

    // A scenario, from the palette.
    palette(&mut h, "New scenario");
    tab_to(&mut h, "Title", 150);
    type_keys(&mut h, "Keyboard skirmish");
    tab_to(&mut h, "Date", 150);
    type_keys(&mut h, "1712-07-24");
    tab_to(&mut h, "Create scenario", 150);
    press(&mut h, Key::Enter);
    h.run();
    assert_eq!(scenario_of(&h).title, "Keyboard skirmish");

    // Two armies, each with a corps and a unit, in the order of battle.
    palette(&mut h, "Order of battle");
    for (army, unit) in [("France", "Navarre"), ("Autriche", "Daun")] {
        tab_to(&mut h, "Add army", 150);
        press(&mut h, Key::Enter);
        tab_to(&mut h, "Name", 150);
        type_keys(&mut h, army);
        press(&mut h, Key::Enter);
        tab_to(&mut h, "Add corps", 150);
        press(&mut h, Key::Enter);
        tab_to(&mut h, "Add unit", 150);
        press(&mut h, Key::Enter);
        tab_to(&mut h, "Name", 150);
        type_keys(&mut h, unit);
        press(&mut h, Key::Enter);
    }
    {
        let s = scenario_of(&h);
        let names: Vec<(&str, &str)> = s
            .armies
            .iter()
            .map(|a| (a.name.as_str(), a.units[0].name.as_str()))
            .collect();
        assert_eq!(names, [("France", "Navarre"), ("Autriche", "Daun")]);
    }

    // Daun (selected) placed with the unit tool: the map focused, a hex chosen, Enter.
    let daun = bataille_editor::panels::oob::Sel::Unit(1, 0);
    assert_eq!(
        h.state().ui.selection.item,
        Some(daun),
        "the last unit stays selected"
    );
    tab_to(&mut h, "Map", 150);
    press(&mut h, Key::U);
    press(&mut h, Key::ArrowLeft);
    let hex = h.state().ui.selection.hex.expect("a hex");
    press(&mut h, Key::Enter);
    assert_eq!(
        scenario_of(&h).armies[1].units[0]
            .placement
            .hex()
            .map(|n| n.to_string()),
        Some(h.state().doc.map.grid.name(hex).to_string()),
        "Daun stands on the chosen hex"
    );

    // A zone for Autriche: the zone tool, New zone by Tab, two hexes by the arrows and Enter.
    press(&mut h, Key::Z);
    tab_to(&mut h, "New zone for Autriche", 150);
    press(&mut h, Key::Enter);
    tab_to(&mut h, "Map", 150);
    press(&mut h, Key::Enter);
    press(&mut h, Key::ArrowUp);
    press(&mut h, Key::Enter);
    {
        let s = scenario_of(&h);
        assert_eq!(s.zones.len(), 1);
        assert_eq!(s.zones[0].name, "Autriche's deployment zone");
        assert_eq!(s.zones[0].hexes.len(), 2, "{:?}", s.zones[0].hexes);
    }

    // Saved by Ctrl+S: the scenario and its map on disk, as in the editor.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().is_dirty());
    let path = h
        .state()
        .doc
        .scenario
        .as_ref()
        .map(|f| f.path.clone())
        .expect("the scenario's file");
    let loaded = bataille_schema::load_scenario(&path).expect("the scenario loads");
    assert_eq!(loaded.scenario.armies.len(), 2);
    assert_eq!(loaded.scenario.zones.len(), 1);
    let map = bataille_schema::load_map(&map_path)
        .expect("the map loads")
        .map;
    let index = |hex: HexIndex| (hex.row as usize, hex.col as usize);
    let (row, col) = index(cursor);
    assert_eq!(map.rows[row].chars().nth(col), Some('f'));
    assert!(
        map.hexsides
            .get(&feature)
            .is_some_and(|sides| sides.contains(&stream)),
        "the hexside drawn by keyboard is saved"
    );
}
