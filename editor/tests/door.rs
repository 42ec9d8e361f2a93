//! Issue 26: the editor reads every document through the workspace's one door in
//! (`bataille_validator::door`), so what it loads is bounded, checked and confined exactly as
//! the commands' files are. Through the real app and real files: a map naming a background
//! scan outside its root is opened but its scan never read (the user is told why, E0210); a
//! scenario the command refuses for its JSON Schema (a 1 MB unit name) is refused at open with
//! the place; a recovery holding what the schema refuses is kept aside with its reason; and
//! Save elsewhere of a scenario puts its map beside the new scenario, never over the file that
//! changed on disk.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::{Path, PathBuf};

use bataille_editor::Dialog;
use bataille_editor::model::history::{CellChange, Change};
use bataille_editor::services::files::{Recovery, write_recovery};
use bataille_editor::{AppCommand, EditorApp, EditorConfig};
use bataille_schema::HexIndex;
use bataille_schema::map::{Background, FitKind};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::scan::{wait_for_jobs, write_scan};
use common::*;

/// A repository (`repo/.git`) with `repo/maps/map.ron` naming `image` as its background, and
/// the scan written to `scans/scan.png` beside the repository (outside it) and to
/// `repo/scans/scan.png` (inside it).
fn repo_with_background(image: &dyn Fn(&Path) -> String) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    std::fs::create_dir_all(repo.join("maps")).expect("maps");
    let (outside, truth) = write_scan(dir.path());
    write_scan(&repo);
    let mut map = blank_map(12, 9);
    map.background = Some(Background {
        image: image(&outside),
        fit: FitKind::Similarity,
        grid_to_image: truth,
        control_points: Vec::new(),
    });
    let path = repo.join("maps/map.ron");
    write_map(&path, &map);
    (dir, path)
}

fn error_message(h: &H) -> String {
    match &h.state().ui.dialog {
        Some(Dialog::Error { message, .. }) => message.clone(),
        other => panic!("an error dialog, not {other:?}"),
    }
}

/// A stranger's map naming `../../scans/scan.png` (outside the repository) or an absolute path
/// as its background: the map opens, the scan is never read (no import, nothing on the scan
/// layer, nothing to export), and the user sees the door's E0210 with its place. The same scan
/// inside the repository is read.
#[test]
fn a_background_scan_outside_the_root_is_never_read_and_the_user_sees_why() {
    let relative = |_: &Path| "../../scans/scan.png".to_owned();
    let absolute = |p: &Path| p.display().to_string();
    for (what, image) in [
        ("relative", &relative as &dyn Fn(&Path) -> String),
        ("absolute", &absolute),
    ] {
        let (dir, path) = repo_with_background(image);
        let mut h = harness(app_with_file(dir.path(), &path));
        h.run();
        wait_for_jobs(&mut h);
        assert_eq!(h.state().doc.map_path.as_deref(), Some(path.as_path()));
        let message = error_message(&h);
        assert!(message.contains("E0210"), "{what}: {message}");
        assert!(
            message.contains(&format!("{}:", path.display())),
            "{what}: the place: {message}"
        );
        h.get_by_label_contains("The map's background scan was not read");
        let app = h.state();
        assert!(
            app.services.digitise.scan.is_none(),
            "{what}: the scan layer is empty"
        );
        assert!(
            app.services.digitise.import_job.is_none(),
            "{what}: nothing decoded"
        );
        assert_eq!(app.services.digitise.trusted_scan(&app.doc), None, "{what}");
        assert!(
            app.services.io_errors.iter().any(|e| e.contains("E0210")),
            "{what}: {:?}",
            app.services.io_errors
        );
        // The background's fit is kept (saving does not lose it); only the file is not read.
        assert!(app.doc.map.background.is_some());
    }
    // Inside the repository, the same scan is read.
    let (dir, path) = repo_with_background(&|_| "../scans/scan.png".to_owned());
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    wait_for_jobs(&mut h);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(
        h.state().services.digitise.scan.is_some(),
        "the confined scan loads"
    );
    let scan = h.state().services.digitise.trusted_scan(&h.state().doc);
    assert_eq!(
        scan.map(|p| p.canonicalize().expect("there")),
        Some(
            dir.path()
                .join("repo/scans/scan.png")
                .canonicalize()
                .expect("there")
        )
    );
}

/// A scenario the command refuses (a unit's name of 1 MB breaks the JSON Schema's 120
/// characters) is refused at open as the command refuses it, with the place, and the
/// document stays.
#[test]
fn a_scenario_with_a_huge_unit_name_is_refused_at_open_as_the_command_does() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("maps")).expect("maps");
    std::fs::create_dir_all(dir.path().join("scenarios")).expect("scenarios");
    write_map(&dir.path().join("maps/demo.ron"), &demo_map());
    let mut s = scenario("../maps/demo.ron");
    s.armies = vec![france(vec![unit(
        "navarre",
        &"N".repeat(1 << 20),
        "corps",
        None,
    )])];
    let path = dir.path().join("scenarios/huge.ron");
    std::fs::write(
        &path,
        bataille_schema::scenario_to_string(&s).expect("text"),
    )
    .expect("write");
    // The command refuses it.
    let refused = bataille_validator::door::admit(&path, &bataille_validator::Options::default())
        .expect_err("the command refuses it");
    assert!(refused.to_string().contains("E0105"), "{refused}");
    // So does the editor, at open.
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let message = error_message(&h);
    assert!(message.contains("E0105"), "{message}");
    assert!(
        message.contains(&format!("{}:", path.display())),
        "{message}"
    );
    assert!(message.len() < 2_000, "the message is bounded");
    h.get_by_label_contains("Could not open");
    assert!(h.state().doc.scenario.is_none(), "the document stays");
}

fn recovery_of(map: bataille_schema::Map, map_path: PathBuf) -> Recovery {
    Recovery {
        written_at: 1_700_000_000,
        map_path: Some(map_path),
        scenario_path: None,
        map,
        scenario: None,
        root: None,
        disk: Default::default(),
        pid: 1,
    }
}

/// A recovery holding what no file on disk may hold (a map name of 1 MB, over the schema's
/// 200 characters) goes through the same door as a file: not offered, kept aside with the
/// reason, and refused when restored by hand.
#[test]
fn a_recovery_with_an_oversized_string_is_refused_with_a_reason() {
    let (dir, path) = temp_with_map(&blank_map(6, 5), "long.ron");
    let canonical = path.canonicalize().expect("canonical");
    let mut map = blank_map(6, 5);
    map.name = "L".repeat(1 << 20);
    let recovery_dir = dir.path().join("recovery");
    let file = recovery_dir.join("long-1.recovery.ron");
    write_recovery(&file, &recovery_of(map.clone(), canonical.clone())).expect("written");
    let mut h = harness(EditorApp::new(EditorConfig::isolated(dir.path())));
    h.run();
    assert!(!matches!(h.state().ui.dialog, Some(Dialog::Recover { .. })));
    assert!(!file.exists(), "not offered again");
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .any(|e| e.contains("E0105") && e.contains("/name")),
        "{:?}",
        h.state().services.io_errors
    );
    // Restored by hand (a stale dialog): refused, the map untouched.
    let again = recovery_dir.join("long-2.recovery.ron");
    write_recovery(&again, &recovery_of(map, canonical)).expect("written");
    let before = std::fs::read(&path).expect("read");
    assert!(!h.state_mut().restore(&again));
    assert_ne!(h.state().doc.map.name.len(), 1 << 20);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(std::fs::read(&path).expect("read"), before);
}

/// Save elsewhere, chosen when a scenario's map changed on disk, keeps both: the scenario goes
/// where the user says with its map beside it, and the map that changed on disk keeps the
/// other program's text (as Tiled's and VS Code's Save As leave the original alone).
#[test]
fn save_elsewhere_of_a_scenario_writes_its_map_beside_it_not_over_the_changed_map() {
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
    let mut h = harness(app_with_file(dir.path(), &scenario_path));
    h.run();
    let hex = HexIndex::new(1, 1);
    let before = h.state().doc.code(hex).unwrap_or('c');
    h.state_mut().execute(AppCommand::Edit {
        label: "Paint terrain".into(),
        changes: vec![Change::Terrain(vec![CellChange {
            hex,
            before,
            after: 'f',
        }])],
    });
    // Another program writes the map meanwhile.
    let mut theirs = bataille_schema::load_map(&map).expect("map").map;
    theirs.name = "Changed elsewhere".into();
    write_map(&map, &theirs);
    let theirs = std::fs::read(&map).expect("read");
    let scenario_before = std::fs::read(&scenario_path).expect("read");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Changed on disk");
    h.get_by_label("Save elsewhere…").click();
    h.run();
    h.get_by_label_contains("with its map beside it");
    let copy = dir.path().join("scenarios/mine.ron");
    type_text_into(&mut h, "File path", &copy.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert_eq!(std::fs::read(&map).expect("read"), theirs, "theirs kept");
    assert_eq!(
        std::fs::read(&scenario_path).expect("read"),
        scenario_before
    );
    let beside = dir.path().join("scenarios/mine-map.ron");
    // (The fixture's map has rule errors of its own; the door opens it.)
    let opened = bataille_validator::door::open(&copy, &bataille_validator::Options::default());
    let Some(bataille_validator::door::Document::Scenario(s)) = opened.document else {
        panic!("a scenario");
    };
    assert_eq!(s.scenario.map, "mine-map.ron");
    let mine = s.map.expect("its map");
    assert_eq!(mine.path.canonicalize().ok(), beside.canonicalize().ok());
    assert_eq!(mine.map.rows[1].chars().nth(1), Some('f'));
    assert!(!h.state().is_dirty());
    assert_eq!(h.state().doc.map_path.as_deref(), Some(beside.as_path()));
    // The next save goes to the new files, asking nothing.
    let before = h.state().doc.code(HexIndex::new(2, 2)).unwrap_or('c');
    h.state_mut().execute(AppCommand::Edit {
        label: "Paint terrain".into(),
        changes: vec![Change::Terrain(vec![CellChange {
            hex: HexIndex::new(2, 2),
            before,
            after: 'm',
        }])],
    });
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert_eq!(std::fs::read(&map).expect("read"), theirs);
}

/// Save As of a map into another repository, far from its scan: the map is saved, and the
/// user is told at once that its scan will not be read when it is opened again (the door
/// confines `background.image`, E0210), instead of finding out later. Saved inside the same
/// repository, nothing is said.
#[test]
fn saving_a_map_far_from_its_scan_says_the_scan_will_be_lost() {
    let (dir, path) = repo_with_background(&|_| "../scans/scan.png".to_owned());
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    wait_for_jobs(&mut h);
    assert!(
        h.state().services.digitise.scan.is_some(),
        "the confined scan loads"
    );

    let beside = dir.path().join("repo/maps/copy.ron");
    assert!(h.state_mut().save_to(&beside));
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);

    let elsewhere = dir.path().join("other");
    std::fs::create_dir_all(elsewhere.join(".git")).expect("another repository");
    let far = elsewhere.join("map.ron");
    assert!(h.state_mut().save_to(&far));
    assert!(far.exists(), "the map is saved");
    match &h.state().ui.dialog {
        Some(Dialog::Error { title, message, .. }) => {
            assert!(title.contains("scan will not be read"), "{title}");
            assert!(message.contains("scan.png"), "{message}");
        }
        other => panic!("a warning, not {other:?}"),
    }
}

/// A map's scan carrying a colour profile (an iCCP chunk): the editor does not apply it and
/// says so when it reads the scan — a toast with the scan's path, and a line in the Scan tab —
/// rather than dropping it silently. The same scan without a profile says nothing.
#[test]
fn a_scans_colour_profile_is_said_not_applied_when_the_editor_reads_it() {
    use image::ImageEncoder as _;
    for profiled in [true, false] {
        let (dir, path) = repo_with_background(&|_| "../scans/scan.png".to_owned());
        let scan = dir.path().join("repo/scans/scan.png");
        let pixels = image::open(&scan).expect("the scan").to_rgb8();
        let mut bytes = Vec::new();
        let mut encoder = image::codecs::png::PngEncoder::new(&mut bytes);
        if profiled {
            encoder.set_icc_profile(vec![7; 3000]).expect("a profile");
        }
        encoder
            .write_image(
                pixels.as_raw(),
                pixels.width(),
                pixels.height(),
                image::ExtendedColorType::Rgb8,
            )
            .expect("png");
        std::fs::write(&scan, bytes).expect("write");
        let mut h = harness(app_with_file(dir.path(), &path));
        h.run();
        wait_for_jobs(&mut h);
        h.run();
        assert!(h.state().services.digitise.scan.is_some(), "the scan loads");
        let toasts: Vec<String> = h.state().ui.toasts.iter().map(|t| t.text.clone()).collect();
        let said = toasts.iter().any(|t| {
            t.contains("scan.png: the scan's colour profile (ICC, 3000 bytes) is not applied")
        });
        assert_eq!(said, profiled, "{toasts:?}");
        if profiled {
            h.get_by_label_contains("colour profile (ICC, 3000 bytes) is not applied");
            // The Scan tab keeps saying it.
            h.state_mut().services.digitise.open = true;
            h.run();
            h.run();
            assert!(
                h.query_all_by_label_contains("is not applied").count() >= 1,
                "the Scan tab says it"
            );
        }
    }
}
