//! The file lifecycle through the real app: the unsaved-changes guard on close and open, crash
//! recovery in a new app instance, opening a scenario with its map, and load errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::model::history::{CellChange, Change};
use bataille_editor::{AppCommand, Dialog, EditorApp, EditorConfig};
use bataille_schema::HexIndex;
use egui::{Key, Modifiers, ViewportCommand, ViewportEvent, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use common::*;

fn paint(app: &mut EditorApp, col: u32, row: u32, code: char) {
    let hex = HexIndex::new(col, row);
    let before = app.doc.code(hex).unwrap_or('c');
    app.execute(AppCommand::Edit {
        label: "Paint terrain".into(),
        changes: vec![Change::Terrain(vec![CellChange {
            hex,
            before,
            after: code,
        }])],
    });
}

fn request_close(h: &mut Harness<'_, EditorApp>) {
    h.input_mut()
        .viewports
        .entry(ViewportId::ROOT)
        .or_default()
        .events
        .push(ViewportEvent::Close);
}

fn sent_commands(h: &Harness<'_, EditorApp>) -> Vec<ViewportCommand> {
    h.output()
        .viewport_output
        .get(&ViewportId::ROOT)
        .map(|v| v.commands.clone())
        .unwrap_or_default()
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "guard.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();

    // Without changes the window just closes.
    request_close(&mut h);
    h.step();
    assert!(!sent_commands(&h).contains(&ViewportCommand::CancelClose));
    assert!(h.state().ui.dialog.is_none());

    // With changes, the close is cancelled and the guard appears.
    paint(h.state_mut(), 2, 2, 'f');
    h.run();
    request_close(&mut h);
    h.step();
    assert!(sent_commands(&h).contains(&ViewportCommand::CancelClose));
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Guard { .. })));
    h.get_by_label("Unsaved changes");
    h.get_by_label_contains("has changes that are not saved");
    h.get_by_label("Save");
    h.get_by_label("Discard");

    // Cancel keeps everything.
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().ui.dialog.is_none());
    assert!(h.state().is_dirty());
    assert!(!h.state().close_allowed());

    // Discard lets the window close without saving.
    request_close(&mut h);
    h.run();
    h.get_by_label("Discard").click();
    h.step();
    assert!(h.state().close_allowed());
    assert!(sent_commands(&h).contains(&ViewportCommand::Close));
    let recovery = h.state().recovery_path().expect("a recovery path");
    std::fs::write(&recovery, "left by the background writer").expect("recovery");
    eframe::App::on_exit(h.state_mut(), None);
    assert!(
        !recovery.exists(),
        "the changes discarded leave no recovery"
    );
    let text = std::fs::read_to_string(&path).expect("file");
    assert_eq!(
        text,
        bataille_schema::map_to_string(&blank_map(10, 8)).expect("text"),
        "the file was not touched"
    );
}

#[test]
fn guard_save_saves_then_closes() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "guard-save.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 3, 3, 'w');
    request_close(&mut h);
    h.run();
    h.get_by_label("Save").click();
    h.step();
    h.step();
    assert!(h.state().close_allowed());
    let saved = bataille_schema::load_map(&path).expect("saved").map;
    assert_eq!(saved.rows[3].chars().nth(3), Some('w'));
}

#[test]
fn opening_another_file_with_unsaved_changes_asks_first() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "first.ron");
    let other = dir.path().join("second.ron");
    write_map(&other, &blank_map(6, 5));
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 1, 1, 'f');
    h.state_mut().request(AppCommand::OpenPath(other.clone()));
    h.run();
    h.get_by_label("Unsaved changes");
    h.get_by_label("Discard").click();
    h.run();
    assert_eq!(h.state().doc.map.grid.columns, 6);
    assert_eq!(h.state().doc.map_path.as_deref(), Some(other.as_path()));
    assert!(!h.state().is_dirty());
    // Ctrl+O without changes shows the path dialog directly.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    h.get_by_label("Open a map or scenario");
    h.get_by_label("File path");
}

/// Seen under Xvfb: Ctrl+N with changes, Discard, then Cancel in the New map dialog: the map
/// was still the edited one, but it said "saved", the quit guard let it go and the recovery file
/// was gone. Discard means "go on without saving"; until something replaces the document, its
/// changes are still unsaved.
#[test]
fn discarding_then_cancelling_keeps_the_changes_unsaved() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "discard-cancel.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 2, 2, 'f');
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    h.get_by_label("Discard").click();
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::NewMap(_))));
    h.key_press(Key::Escape);
    h.run();
    assert!(h.state().ui.dialog.is_none());
    assert_eq!(h.state().doc.code(HexIndex::new(2, 2)), Some('f'));
    assert!(h.state().is_dirty(), "the edit is still not saved");
    // The quit guard still asks.
    request_close(&mut h);
    h.step();
    assert!(sent_commands(&h).contains(&ViewportCommand::CancelClose));
}

#[test]
fn crash_leaves_a_recovery_file_that_a_new_instance_restores() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "crash.ron");
    let mut config = EditorConfig::isolated(dir.path());
    config.recovery_every_edits = 3;
    let mut h = harness(EditorApp::with_file(config, &path));
    h.run();
    for col in 0..4 {
        paint(h.state_mut(), col, 5, 'm');
    }
    h.run();
    h.state_mut().finish_recovery_writer();
    let recovery = h.state().recovery_path().expect("a recovery path");
    assert!(recovery.exists(), "written after the third edit");
    let expected = h.state().doc.map.clone();
    // A fourth edit made the recovery file stale; the periodic write would catch it up. Write now
    // as the 30 s timer would.
    assert!(h.state_mut().write_recovery());
    // The crash: the app is dropped without saving or closing.
    drop(h);
    assert!(recovery.exists());
    let on_disk = bataille_schema::load_map(&path).expect("file").map;
    assert_eq!(
        on_disk.rows[5], "cccccccccc",
        "the file itself was not saved"
    );

    // A new instance offers the recovery.
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    h.get_by_label_contains("Recover unsaved changes from");
    h.get_by_label("Recover").click();
    h.run();
    assert!(h.state().ui.dialog.is_none());
    assert_eq!(h.state().doc.map, expected);
    assert_eq!(h.state().doc.map_path.as_deref(), Some(path.as_path()));
    assert!(h.state().is_dirty(), "recovered changes are unsaved");
    assert!(h.state().window_title().contains('●'));

    // Saving writes the file and removes the recovery file.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!recovery.exists());
    let saved = bataille_schema::load_map(&path).expect("saved").map;
    assert_eq!(saved.rows[5], "mmmmcccccc");
    // The next start offers nothing.
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(h.state().ui.dialog.is_none());
}

#[test]
fn discarding_a_recovery_deletes_it() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "gone.ron");
    let mut app = EditorApp::with_file(EditorConfig::isolated(dir.path()), &path);
    paint(&mut app, 1, 1, 'f');
    assert!(app.write_recovery());
    let recovery = app.recovery_path().expect("path");
    drop(app);
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    h.get_by_label("Discard recovery").click();
    h.run();
    assert!(!recovery.exists());
    assert!(h.state().ui.dialog.is_none());
}

/// Seen under Xvfb: a scenario's recovery offer named only its map, as
/// `…/scenarios/../maps/….ron`; it names the scenario, and the map's path without the `..`.
#[test]
fn the_recovery_offer_names_the_scenario_and_a_clean_map_path() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("maps")).expect("maps");
    std::fs::create_dir_all(dir.path().join("scenarios")).expect("scenarios");
    write_map(&dir.path().join("maps/demo.ron"), &demo_map());
    let scenario_path = dir.path().join("scenarios/demo-1712.ron");
    std::fs::write(
        &scenario_path,
        bataille_schema::scenario_to_string(&scenario("../maps/demo.ron")).expect("text"),
    )
    .expect("write");
    let mut app = EditorApp::with_file(EditorConfig::isolated(dir.path()), &scenario_path);
    paint(&mut app, 1, 1, 'f');
    assert!(app.write_recovery());
    drop(app);
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    h.get_by_label_contains("The editor stopped before");
    let map = dir.path().join("maps/demo.ron");
    h.get_by_label_contains(&format!(
        "the scenario {} and its map {}",
        scenario_path.display(),
        map.display()
    ));
    assert!(h.query_by_label_contains("..").is_none());
}

#[test]
fn scenario_opens_with_its_map() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("maps")).expect("maps");
    std::fs::create_dir_all(dir.path().join("scenarios")).expect("scenarios");
    let map_path = dir.path().join("maps/demo.ron");
    write_map(&map_path, &demo_map());
    let scenario_path = dir.path().join("scenarios/demo-1712.ron");
    std::fs::write(
        &scenario_path,
        bataille_schema::scenario_to_string(&scenario("../maps/demo.ron")).expect("text"),
    )
    .expect("write");
    let mut h = harness(app_with_file(dir.path(), &scenario_path));
    h.run();
    let app = h.state();
    assert!(app.ui.dialog.is_none(), "{:?}", app.ui.dialog);
    assert_eq!(app.doc.map.name, "Demo battlefield");
    assert_eq!(
        app.doc.scenario.as_ref().map(|s| s.scenario.title.as_str()),
        Some("Test scenario")
    );
    assert!(
        app.window_title()
            .starts_with("demo-1712.ron (map demo.ron)")
    );
    // Saving writes the map, and leaves the scenario alone.
    let scenario_text = std::fs::read_to_string(&scenario_path).expect("read");
    paint(h.state_mut(), 0, 0, 'w');
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = bataille_schema::load_map(&map_path).expect("map").map;
    assert_eq!(saved.rows[0].chars().next(), Some('w'));
    assert_eq!(
        std::fs::read_to_string(&scenario_path).expect("read"),
        scenario_text
    );
}

#[test]
fn a_file_that_does_not_parse_shows_where() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("broken.ron");
    std::fs::write(&path, "Map(\n    format_version: 1,\n    name: 42,\n)\n").expect("write");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Error { .. })));
    h.get_by_label_contains("Could not open");
    h.get_by_label_contains("broken.ron:3:");
    h.get_by_label_contains("Fix the file at that line and column");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().ui.dialog.is_none());
}

#[test]
fn save_as_through_the_typed_path_dialog() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "orig.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 2, 2, 'v');
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    h.get_by_label("Save the map as");
    let target = dir.path().join("copy.ron");
    type_text_into(&mut h, "File path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert!(target.exists());
    assert_eq!(h.state().doc.map_path.as_deref(), Some(target.as_path()));
    assert!(!h.state().is_dirty());
    assert!(
        h.state()
            .ui
            .settings
            .recent
            .iter()
            .any(|p| p.ends_with("copy.ron"))
    );
}

#[test]
fn a_grid_too_big_is_refused_with_its_place() {
    let mut map = blank_map(4, 3);
    map.grid.columns = 4_000_000;
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("huge.ron");
    write_map(&path, &map);
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.get_by_label_contains("huge.ron:4:");
    h.get_by_label_contains("1 to 999");
    assert_eq!(h.state().doc.map.grid.columns, 30, "the blank map stays");
}
