//! Issue 26: the editor never loses or misplaces a user's work. Through the real app and real
//! files: Save As never writes over the scenario's own map nor over a file of another kind and
//! asks before replacing a file; a file changed on disk is noticed before a save overwrites it;
//! two editors on the same files keep their own recovery files and never offer or delete a live
//! one; recovery files hold absolute paths and are restored only where their work came from,
//! and only when what they hold opens again; the settings file is bounded; a Tiled export to a
//! FIFO is refused instead of hanging.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bataille_editor::model::history::{CellChange, Change};
use bataille_editor::panels::file_safety::SafetyDialog;
use bataille_editor::services::files::{Recovery, write_recovery};
use bataille_editor::{AppCommand, Dialog, EditorApp, EditorConfig, UiCommand};
use bataille_schema::HexIndex;
use egui::{Key, Modifiers};
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

/// A folder with `maps/demo.ron` and `scenarios/demo-1712.ron` naming it.
fn scenario_files() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("maps")).expect("maps");
    std::fs::create_dir_all(dir.path().join("scenarios")).expect("scenarios");
    let map = dir.path().join("maps/demo.ron");
    write_map(&map, &demo_map());
    let scenario_path = dir.path().join("scenarios/demo-1712.ron");
    std::fs::write(
        &scenario_path,
        bataille_schema::scenario_to_string(&scenario("../maps/demo.ron")).expect("text"),
    )
    .expect("write");
    (dir, map, scenario_path)
}

fn save_as_typed(h: &mut H, target: &Path) {
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    type_text_into(h, "File path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run();
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("readable")
}

// ---------------------------------------------------------------------------------------------
// Save As.

#[test]
fn save_as_onto_the_scenarios_own_map_is_refused_and_nothing_is_written() {
    let (dir, map, scenario_path) = scenario_files();
    let mut h = harness(app_with_file(dir.path(), &scenario_path));
    h.run();
    paint(h.state_mut(), 1, 1, 'f');
    let (map_before, scenario_before) = (read(&map), read(&scenario_path));
    // One click in the dialog's listing: the map's file.
    save_as_typed(&mut h, &map);
    assert!(
        matches!(&h.state().ui.dialog, Some(Dialog::Error { message, .. }) if message.contains("map's file")),
        "{:?}",
        h.state().ui.dialog
    );
    h.get_by_label_contains("Nothing was saved");
    assert_eq!(read(&map), map_before, "the map keeps its text");
    assert_eq!(read(&scenario_path), scenario_before);
    assert!(bataille_schema::load_scenario(&scenario_path).is_ok());
    assert!(h.state().is_dirty(), "the changes are still unsaved");
    assert_eq!(h.state().doc.document_path(), Some(scenario_path.as_path()));
}

#[test]
fn save_as_never_replaces_a_file_of_another_kind() {
    let (dir, map, scenario_path) = scenario_files();
    let notes = dir.path().join("maps/notes.ron");
    std::fs::write(&notes, "my notes on the battle\n").expect("write");
    // A map alone, saved over a scenario or over a file that is not Bataille's.
    let mut h = harness(app_with_file(dir.path(), &map));
    h.run();
    paint(h.state_mut(), 2, 2, 'w');
    for target in [&scenario_path, &notes] {
        let before = read(target);
        save_as_typed(&mut h, target);
        assert!(
            matches!(&h.state().ui.dialog, Some(Dialog::Error { .. })),
            "{}: {:?}",
            target.display(),
            h.state().ui.dialog
        );
        assert_eq!(&read(target), &before, "{} untouched", target.display());
        h.get_by_label("OK").click();
        h.run();
    }
    assert!(h.state().is_dirty());
    assert_eq!(h.state().doc.map_path.as_deref(), Some(map.as_path()));
}

#[test]
fn save_as_onto_an_existing_map_asks_before_replacing_it() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "mine.ron");
    let other = dir.path().join("other.ron");
    write_map(&other, &demo_map());
    let before = read(&other);
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 3, 3, 'v');
    save_as_typed(&mut h, &other);
    assert!(matches!(
        &h.state().ui.dialog,
        Some(Dialog::Safety(question)) if matches!(**question, SafetyDialog::Replace { .. })
    ));
    h.get_by_label("Replace other.ron?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(read(&other), before, "Cancel replaced nothing");
    assert!(h.state().is_dirty());
    save_as_typed(&mut h, &other);
    h.get_by_label("Replace").click();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let saved = bataille_schema::load_map(&other).expect("a map").map;
    assert_eq!(saved.rows[3].chars().nth(3), Some('v'));
    assert_eq!(h.state().doc.map_path.as_deref(), Some(other.as_path()));
    assert!(!h.state().is_dirty());
}

// ---------------------------------------------------------------------------------------------
// Changed on disk.

/// Another program (another editor, `git pull`) writes the map while it is open.
fn changed_elsewhere(path: &Path) {
    let mut map = bataille_schema::load_map(path).expect("map").map;
    map.name = "Changed elsewhere".into();
    write_map(path, &map);
}

#[test]
fn a_file_changed_on_disk_is_noticed_before_save_overwrites_it() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "shared.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 1, 1, 'f');
    changed_elsewhere(&path);
    let theirs = read(&path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Changed on disk");
    h.get_by_label_contains(&format!("{} changed on disk", path.display()));
    assert_eq!(read(&path), theirs, "their work is not overwritten unasked");
    // Cancel keeps both.
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(read(&path), theirs);
    assert!(h.state().is_dirty());
    // Overwrite, chosen, saves ours.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Overwrite").click();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let saved = bataille_schema::load_map(&path).expect("map").map;
    assert_eq!(saved.rows[1].chars().nth(1), Some('f'));
    assert_eq!(saved.name, blank_map(8, 6).name);
    assert!(!h.state().is_dirty());
    // Saved by us, the file is ours again: the next save asks nothing.
    paint(h.state_mut(), 2, 2, 'm');
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
}

#[test]
fn reload_takes_the_disks_version_and_save_elsewhere_keeps_both() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "shared.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 1, 1, 'f');
    changed_elsewhere(&path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Save elsewhere…").click();
    h.run();
    h.get_by_label("Save the map as");
    let copy = dir.path().join("mine.ron");
    type_text_into(&mut h, "File path", &copy.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(
        bataille_schema::load_map(&path).expect("map").map.name,
        "Changed elsewhere"
    );
    let mine = bataille_schema::load_map(&copy).expect("ours").map;
    assert_eq!(mine.rows[1].chars().nth(1), Some('f'));

    // Reload: the disk's version replaces the editor's.
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    paint(h.state_mut(), 4, 4, 'w');
    let mut map = bataille_schema::load_map(&path).expect("map").map;
    map.name = "Changed again".into();
    write_map(&path, &map);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Reload from disk").click();
    h.run();
    assert_eq!(h.state().doc.map.name, "Changed again");
    assert!(!h.state().is_dirty());
}

#[test]
fn a_scenarios_map_changed_on_disk_is_noticed_too() {
    let (dir, map, scenario_path) = scenario_files();
    let mut h = harness(app_with_file(dir.path(), &scenario_path));
    h.run();
    paint(h.state_mut(), 1, 1, 'f');
    changed_elsewhere(&map);
    let theirs = read(&map);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Changed on disk");
    assert_eq!(read(&map), theirs);
}

// ---------------------------------------------------------------------------------------------
// Two editors.

#[test]
fn two_editors_keep_their_own_recovery_and_never_offer_or_delete_a_live_one() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "both.ron");
    let mut first = harness(app_with_file(dir.path(), &path));
    first.run();
    paint(first.state_mut(), 1, 1, 'f');
    assert!(first.state_mut().write_recovery());
    let first_recovery = first.state().recovery_path().expect("path");
    assert!(first_recovery.exists());

    // A second editor on the same file: it does not offer the first's live recovery.
    let mut second = harness(app_with_file(dir.path(), &path));
    second.run();
    assert!(
        !matches!(second.state().ui.dialog, Some(Dialog::Recover { .. })),
        "a running editor's recovery is not a crash"
    );
    paint(second.state_mut(), 2, 2, 'w');
    assert!(second.state_mut().write_recovery());
    let second_recovery = second.state().recovery_path().expect("path");
    assert_ne!(first_recovery, second_recovery);
    // The second saves: its own recovery goes, the first's stays.
    second.key_press_modifiers(Modifiers::COMMAND, Key::S);
    second.run();
    assert!(
        second.state().ui.dialog.is_none(),
        "{:?}",
        second.state().ui.dialog
    );
    assert!(!second_recovery.exists());
    assert!(
        first_recovery.exists(),
        "the first editor's recovery is kept"
    );
    // Discarding a live recovery (a stale dialog) keeps it.
    second
        .state_mut()
        .execute(AppCommand::DiscardRecovery(first_recovery.clone()));
    assert!(first_recovery.exists());
    assert!(!second.state_mut().restore(&first_recovery));
    assert!(first_recovery.exists());

    // The first saves after the second: the change on disk is noticed, not overwritten.
    let theirs = read(&path);
    first.key_press_modifiers(Modifiers::COMMAND, Key::S);
    first.run();
    first.get_by_label("Changed on disk");
    assert_eq!(read(&path), theirs);

    // The first editor stops without saving (a crash): now its recovery is offered.
    drop(first);
    drop(second);
    let mut third = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    third.run();
    assert!(matches!(
        third.state().ui.dialog,
        Some(Dialog::Recover { .. })
    ));
    third.get_by_label("Recover").click();
    third.run();
    assert_eq!(third.state().doc.code(HexIndex::new(1, 1)), Some('f'));
    // Recovered over a file the second editor saved since: still noticed.
    third.key_press_modifiers(Modifiers::COMMAND, Key::S);
    third.run();
    third.get_by_label("Changed on disk");
}

// ---------------------------------------------------------------------------------------------
// Recovery files.

fn recovery_dir(dir: &Path) -> PathBuf {
    dir.join("recovery")
}

fn plant(dir: &Path, name: &str, recovery: &Recovery) -> PathBuf {
    let file = recovery_dir(dir).join(name);
    write_recovery(&file, recovery).expect("written");
    file
}

fn recovery_of(map: bataille_schema::Map, map_path: Option<PathBuf>) -> Recovery {
    Recovery {
        written_at: 1_700_000_000,
        map_path,
        scenario_path: None,
        map,
        scenario: None,
        root: None,
        disk: Default::default(),
        pid: 1,
    }
}

#[cfg(unix)]
#[test]
fn a_recovery_remembers_absolute_canonical_paths() {
    let (dir, path) = temp_with_map(&blank_map(8, 6), "real.ron");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(dir.path(), &link).expect("a link to the folder");
    let through_link = link.join("real.ron");
    let mut app = app_with_file(dir.path(), &through_link);
    paint(&mut app, 1, 1, 'f');
    assert!(app.write_recovery());
    let file = app.recovery_path().expect("path");
    let kept = bataille_editor::services::files::read_recovery(&file).expect("readable");
    let canonical = std::fs::canonicalize(&path).expect("canonical");
    assert_eq!(kept.map_path.as_deref(), Some(canonical.as_path()));
    assert!(kept.map_path.expect("path").is_absolute());
}

#[test]
fn a_recovery_with_a_relative_path_is_not_restored_to_another_folder() {
    let dir = tempfile::tempdir().expect("dir");
    // Written by an older editor that ran in some other folder.
    let file = plant(
        dir.path(),
        "old-1.recovery.ron",
        &recovery_of(blank_map(6, 5), Some(PathBuf::from("maps/denain.ron"))),
    );
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    assert!(!file.exists());
    let aside = recovery_dir(dir.path()).join("old-1.recovery.ron.broken");
    assert!(aside.exists(), "kept aside, not lost");
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .any(|e| e.contains("relative")),
        "{:?}",
        h.state().services.io_errors
    );
}

#[test]
fn a_recovery_naming_a_file_that_is_not_a_map_is_not_offered() {
    let dir = tempfile::tempdir().expect("dir");
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not a map").expect("write");
    plant(
        dir.path(),
        "notes-1.recovery.ron",
        &recovery_of(blank_map(6, 5), Some(notes.clone())),
    );
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    assert_eq!(read(&notes), b"not a map");
}

#[test]
fn a_recovered_scenario_must_name_its_own_map_inside_its_root() {
    let (dir, map, scenario_path) = scenario_files();
    let elsewhere = tempfile::tempdir().expect("another folder");
    let outside = elsewhere.path().join("outside.ron");
    write_map(&outside, &demo_map());
    let mut recovery = recovery_of(demo_map(), Some(outside.clone()));
    recovery.scenario_path = Some(scenario_path.clone());
    recovery.scenario = Some(scenario("../maps/demo.ron"));
    plant(dir.path(), "s-1.recovery.ron", &recovery);
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    // The same recovery naming the scenario's own map is offered.
    recovery.map_path = Some(map.canonicalize().expect("canonical"));
    plant(dir.path(), "s-2.recovery.ron", &recovery);
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
}

#[test]
fn a_recovery_holding_a_nan_is_kept_aside_not_saved_into_a_map() {
    let (dir, path) = temp_with_map(&blank_map(6, 5), "nan.ron");
    let mut map = blank_map(6, 5);
    map.metres_per_hex = Some(f64::NAN);
    let file = plant(
        dir.path(),
        "nan-1.recovery.ron",
        &recovery_of(map, Some(path.canonicalize().expect("canonical"))),
    );
    let before = read(&path);
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    assert!(!file.exists());
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .any(|e| e.contains("metres_per_hex")),
        "{:?}",
        h.state().services.io_errors
    );
    // Restored by hand anyway (a stale dialog), it is refused: nothing reaches the map.
    let again = plant(
        dir.path(),
        "nan-2.recovery.ron",
        &recovery_of(
            {
                let mut m = blank_map(6, 5);
                m.metres_per_hex = Some(f64::INFINITY);
                m
            },
            Some(path.canonicalize().expect("canonical")),
        ),
    );
    assert!(!h.state_mut().restore(&again));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(read(&path), before);
    assert!(bataille_schema::load_map(&path).is_ok());
}

#[test]
fn a_small_recovery_claiming_a_huge_grid_is_refused_before_allocating() {
    let dir = tempfile::tempdir().expect("dir");
    let mut map = blank_map(4, 3);
    map.grid.columns = 4_000_000;
    map.grid.rows = 4_000_000;
    let file = plant(dir.path(), "huge-1.recovery.ron", &recovery_of(map, None));
    assert!(std::fs::metadata(&file).expect("meta").len() < 12 * 1024);
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    assert!(!file.exists(), "not offered again at the next start");
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .any(|e| e.contains("columns")),
        "{:?}",
        h.state().services.io_errors
    );
}

// ---------------------------------------------------------------------------------------------
// Settings.

#[test]
fn a_settings_file_with_a_huge_recent_list_is_bounded() {
    let dir = tempfile::tempdir().expect("dir");
    let config = dir.path().join("config");
    std::fs::create_dir_all(&config).expect("config");
    // Just under the limit: many short paths, kept to the ten the menu shows.
    let many: Vec<String> = (0..3000).map(|i| format!("\"/m/{i}.ron\"")).collect();
    std::fs::write(
        config.join("settings.ron"),
        format!("(recent: [{}])", many.join(",")),
    )
    .expect("write");
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert_eq!(h.state().ui.settings.recent.len(), 10);
    // Far over: not read at all, kept aside, defaults used.
    let many: Vec<String> = (0..200_000).map(|i| format!("\"/m/{i}.ron\"")).collect();
    std::fs::write(
        config.join("settings.ron"),
        format!("(recent: [{}])", many.join(",")),
    )
    .expect("write");
    let h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    assert!(h.state().ui.settings.recent.is_empty());
    assert!(config.join("settings.ron.broken").exists());
}

// ---------------------------------------------------------------------------------------------
// Exports.

#[cfg(unix)]
#[test]
fn a_tiled_export_to_a_fifo_is_refused_not_hung() {
    let (dir, path) = temp_with_map(&blank_map(6, 5), "piped.ron");
    let fifo = dir.path().join("out.tmx");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()));
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let kind = bataille_editor::services::export::ExportKind::Tiled;
    h.state_mut()
        .start_export(bataille_editor::services::export::ExportRequest {
            kind,
            options: bataille_editor::services::export::ExportOptions::default_for(kind),
            out: fifo.clone(),
        });
    let start = Instant::now();
    while h.state().services.exports.job.is_some() {
        h.step();
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the export to a FIFO never ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let end = h.state().services.exports.last.clone().expect("an end");
    let error = end.expect_err("refused");
    assert!(error.contains("FIFO"), "{error}");
}

/// An export's missing folder is made by the writer's folder maker: a folder of the repository
/// that is a link to a folder elsewhere is refused before anything is made there (the editor
/// made `sub/` beyond the link with `create_dir_all` before the writer refused the file).
#[cfg(unix)]
#[test]
fn an_export_folder_through_a_link_outside_the_repository_is_refused_before_it_is_made() {
    let (dir, path) = temp_with_map(&blank_map(6, 5), "linked.ron");
    std::fs::create_dir(dir.path().join(".git")).expect("a repository");
    let elsewhere = tempfile::tempdir().expect("a folder outside");
    let link = dir.path().join("out");
    std::os::unix::fs::symlink(elsewhere.path(), &link).expect("a link");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let kind = bataille_editor::services::export::ExportKind::Tiled;
    h.state_mut()
        .start_export(bataille_editor::services::export::ExportRequest {
            kind,
            options: bataille_editor::services::export::ExportOptions::default_for(kind),
            out: link.join("sub").join("linked.tmx"),
        });
    let start = Instant::now();
    while h.state().services.exports.job.is_some() {
        h.step();
        assert!(start.elapsed() < Duration::from_secs(60), "never ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    let end = h.state().services.exports.last.clone().expect("an end");
    let error = end.expect_err("refused");
    assert!(error.contains("outside its repository"), "{error}");
    assert!(
        !elsewhere.path().join("sub").exists(),
        "made beyond the link"
    );
}

// ---------------------------------------------------------------------------------------------
// The largest map.

/// The largest map allowed (999 × 999 hexes, with the stress generator's rivers, roads and
/// towns) opens without building a mesh per hex in the first frame: zoomed out, the map is one
/// image painted off the UI thread (with its progress shown), no larger than the GPU allows
/// (kittest's 2048 px: a 4096 px image aborted the first frame).
#[test]
fn the_largest_map_opens_at_once_and_is_drawn_off_the_ui_thread() {
    let (map, _) = bataille_schema::stress::generate(
        bataille_schema::stress::StressSize {
            columns: 999,
            rows: 999,
            units: 0,
            corps: 1,
        },
        "big.ron",
    );
    let (dir, path) = temp_with_map(&map, "big.ron");
    drop(map);
    let mut h = harness(app_with_file(dir.path(), &path));
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    h.step();
    assert_eq!(
        h.state().ui.view.rebuilt_chunks(),
        0,
        "no chunk mesh is built for a map drawn as one image"
    );
    assert!(
        h.state().ui.view.overview_painting().is_some(),
        "the image is painted off the UI thread"
    );
    // Zoomed in, only the chunks in view are built.
    h.state_mut().execute(UiCommand::Zoom100);
    h.step();
    let built = h.state().ui.view.rebuilt_chunks();
    assert!(built > 0 && built < 200, "{built} chunks built");
    // Another file opened meanwhile: the painting stops.
    h.state_mut().execute(UiCommand::ZoomOut);
    let (_small_dir, small) = temp_with_map(&blank_map(8, 6), "small.ron");
    h.state_mut().execute(AppCommand::OpenPath(small));
    h.step();
    assert_eq!(h.state().doc.map.grid.columns, 8);
    assert!(h.state().ui.view.overview_painting().is_none());
}

// ---------------------------------------------------------------------------------------------
// What a scenario names.

/// A scenario's miniatures system is confined to its root as its map is: a stranger's scenario
/// naming a file elsewhere on the disk is refused, not read.
#[test]
fn a_system_file_outside_the_scenarios_root_is_not_read() {
    let dir = tempfile::tempdir().expect("dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    std::fs::create_dir_all(repo.join("scenarios")).expect("scenarios");
    std::fs::create_dir_all(dir.path().join("outside")).expect("outside");
    let system = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../systems/age-of-honor.ron"),
    )
    .expect("the bundled system");
    std::fs::write(dir.path().join("outside/age.ron"), &system).expect("write");
    std::fs::write(repo.join("scenarios/age.ron"), &system).expect("write");
    write_map(&repo.join("scenarios/map.ron"), &demo_map());
    let text = bataille_schema::scenario_to_string(&scenario("map.ron")).expect("text");
    let with = |file: &str| {
        text.replacen(
            "Scenario(\n",
            &format!(
                "Scenario(\n    miniatures: [(system: \"age-of-honor\", file: \"{file}\")],\n"
            ),
            1,
        )
    };
    let path = repo.join("scenarios/battle.ron");
    std::fs::write(&path, with("../../outside/age.ron")).expect("write");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let systems = h.state_mut().scenario_systems();
    assert_eq!(systems.len(), 1);
    let error = systems[0].1.as_ref().as_ref().expect_err("refused");
    assert!(error.contains("refused"), "{error}");
    // The same system inside the root is read.
    std::fs::write(&path, with("age.ron")).expect("write");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let systems = h.state_mut().scenario_systems();
    assert!(systems[0].1.is_ok(), "{:?}", systems[0].1);
}

// ---------------------------------------------------------------------------------------------
// Opening a big file.

fn opening_app(dir: &Path) -> H {
    let mut config = EditorConfig::isolated(dir);
    config.open_in_background_bytes = 0; // every file is "big" here
    harness(EditorApp::new(config))
}

fn wait_opened(h: &mut H) {
    let start = Instant::now();
    while h.state().services.opening.is_some() {
        h.step();
        assert!(start.elapsed() < Duration::from_secs(60), "never opened");
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

#[test]
fn a_big_file_is_read_off_the_ui_thread_and_cancel_keeps_the_document() {
    let (dir, path) = temp_with_map(&demo_map(), "big.ron");
    let mut h = opening_app(dir.path());
    let before = h.state().doc.map.name.clone();
    h.state_mut().execute(AppCommand::OpenPath(path.clone()));
    assert!(
        h.state().services.opening.is_some(),
        "read in the background"
    );
    assert_eq!(h.state().doc.map.name, before, "not yet replaced");
    // Cancel: the file read is dropped, whenever it ends.
    h.state_mut().cancel_open();
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(h.state().doc.map.name, before);
    assert!(h.state().services.opening.is_none());
    // Not cancelled: it replaces the document, its files remembered.
    h.state_mut().execute(AppCommand::OpenPath(path.clone()));
    wait_opened(&mut h);
    assert_eq!(h.state().doc.map.name, demo_map().name);
    assert_eq!(h.state().doc.map_path.as_deref(), Some(path.as_path()));
    assert!(h.state().doc.disk().get(&path).is_some());
}

#[test]
fn an_edit_made_while_a_big_file_is_read_is_not_dropped() {
    let (dir, path) = temp_with_map(&demo_map(), "big.ron");
    let mut h = opening_app(dir.path());
    h.state_mut().execute(AppCommand::OpenPath(path));
    paint(h.state_mut(), 1, 1, 'f');
    wait_opened(&mut h);
    assert!(
        matches!(h.state().ui.dialog, Some(Dialog::Guard { .. })),
        "{:?}",
        h.state().ui.dialog
    );
    assert_eq!(h.state().doc.code(HexIndex::new(1, 1)), Some('f'));
}
