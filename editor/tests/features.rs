//! Issues 13, 14 and 10 in the editor, through the real app driven by egui_kittest:
//! File ▸ Export ▸ VASSAL module / Tiled map / Print-and-play kit (the document as it is in
//! memory, a background job, its end in a toast, its failure in an error dialog); the unit
//! form's ratings under the scenario's miniatures systems (fields and ranges from the system
//! file, undoable); the table overlay (bataille-table's scale, dragged by its tag, the units
//! off the table listed); Save As refusing a scenario whose `map` would leave its root.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bataille_editor::panels::oob::Sel;
use bataille_editor::{AppCommand, Dialog, UiCommand};
use bataille_schema::scenario::{
    Army, Conversion, Corps, MiniaturesUse, Placement, Rating, Scenario, Unit,
};
use bataille_schema::{HexIndex, HexName, Id};
use egui::{Key, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;

use common::*;

const AGE_OF_HONOR: &str = include_str!("../../systems/age-of-honor.ron");

/// An infantry unit of the corps `droite`, 2 CP, morale 3, on `hex`.
fn unit(id: &str, name: &str, hex: &str) -> Unit {
    Unit {
        cp: Some(2),
        morale: Some(3),
        ..common::unit(id, name, "droite", Some(hex))
    }
}

/// A scenario of two units at opposite corners of a 12 × 10 map (400 m a hex), supporting Age
/// of Honor with one conversion rule for infantry.
fn battle() -> Scenario {
    let mut s = bataille_editor::model::scenario_edit::new_scenario("Features", "map.ron");
    s.armies.push(Army {
        id: Id::from("fr"),
        name: "French".into(),
        colour: None,
        friendly_edges: Vec::new(),
        commanders: Vec::new(),
        corps: vec![Corps {
            id: Id::from("droite"),
            name: "Aile droite".into(),
            colour: "#2e6bd1".into(),
            leader: None,
            friendly_edges: Vec::new(),
            allow: Vec::new(),
        }],
        units: vec![
            unit("navarre", "Navarre", "0101"),
            unit("far", "Far", "1210"),
        ],
    });
    let mut rule = Conversion {
        kinds: vec![Id::from("infantry")],
        ..Conversion::default()
    };
    for (k, v) in [
        ("troop_type", "non-cadenced-infantry"),
        ("fire_type", "fire-by-rank"),
        ("quality", "regular"),
        ("state", "fresh"),
    ] {
        rule.set.insert(Id::from(k), Rating::Text(v.into()));
    }
    rule.per_cp.insert(Id::from("stands"), 2);
    s.miniatures.push(MiniaturesUse {
        system: Id::from("age-of-honor"),
        file: "systems/age-of-honor.ron".into(),
        notes: None,
        convert: vec![rule],
        leaders: Default::default(),
    });
    s
}

/// Writes the map, the scenario and the system file (`system_text`) into `dir`; opens the
/// scenario.
fn open_in(dir: &Path, scenario: &Scenario, system_text: &str) -> (PathBuf, H) {
    write_map(&dir.join("map.ron"), &blank_map(12, 10));
    std::fs::create_dir_all(dir.join("systems")).expect("mkdir");
    std::fs::write(dir.join("systems/age-of-honor.ron"), system_text).expect("system");
    let path = dir.join("scenario.ron");
    std::fs::write(
        &path,
        bataille_schema::scenario_to_string(scenario).expect("scenario text"),
    )
    .expect("write scenario");
    let mut h = harness(app_with_file(dir, &path));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    (path, h)
}

fn open(system_text: &str) -> (tempfile::TempDir, PathBuf, H) {
    let dir = tempfile::tempdir().expect("dir");
    let (path, h) = open_in(dir.path(), &battle(), system_text);
    (dir, path, h)
}

fn the_unit(h: &H, u: usize) -> &Unit {
    &h.state()
        .doc
        .scenario
        .as_ref()
        .expect("scenario")
        .scenario
        .armies[0]
        .units[u]
}

/// Runs frames until the export job has ended.
fn wait_for_export(h: &mut H) {
    let start = Instant::now();
    loop {
        h.step();
        if h.state().services.exports.job.is_none() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the export did not finish"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for _ in 0..10 {
        h.step();
    }
}

fn export_form(h: &H) -> &bataille_editor::panels::export::ExportForm {
    match &h.state().ui.dialog {
        Some(Dialog::Export(form)) => form,
        other => panic!("no export dialog: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 14: File ▸ Export.

#[test]
fn exports_are_commands_in_the_palette_and_the_file_menu() {
    let (_dir, _path, mut h) = open(AGE_OF_HONOR);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::P);
    h.run();
    h.get_by_label("Find a command").type_text("export");
    h.run();
    h.get_by_label_contains("Export VASSAL module…");
    h.get_by_label_contains("Export Tiled map…");
    h.get_by_label_contains("Export print-and-play kit…");
    h.key_press(Key::Escape);
    h.run();
    click(&mut h, "File");
    h.get_by_label("Export").hover();
    h.run();
    h.get_by_label_contains("Print-and-play kit…").click();
    h.run();
    let form = export_form(&h);
    assert_eq!(
        form.kind,
        bataille_editor::services::export::ExportKind::Print
    );
    h.get_by_label("Paper");
    h.get_by_label("Hex size");
    h.get_by_label("Counter size");
    h.get_by_label("Destination");
}

#[test]
fn a_tiled_export_is_made_from_the_unsaved_document_off_the_ui_thread() {
    let (dir, _path, mut h) = open(AGE_OF_HONOR);
    // An unsaved rename: the export shows it, the file on disk does not have it.
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    type_into(&mut h, "Name", "Navarre renamed");
    assert_eq!(the_unit(&h, 0).name, "Navarre renamed");
    assert!(h.state().is_dirty());
    command(&mut h, UiCommand::ExportTiled);
    let out = dir.path().join("out/battle.tmx");
    std::fs::create_dir(dir.path().join("out")).expect("mkdir");
    type_into(&mut h, "Destination", &out.display().to_string());
    h.get_by_label("Export").click();
    h.step();
    assert!(h.state().ui.dialog.is_none(), "the dialog closes");
    wait_for_export(&mut h);
    let last = h.state().services.exports.last.clone().expect("an end");
    let text = last.expect("exported");
    assert!(text.contains("Tiled map"), "{text}");
    h.get_by_label_contains("Exported the Tiled map");
    let tmx = std::fs::read_to_string(&out).expect("the tmx");
    assert!(
        tmx.contains("Navarre renamed"),
        "the in-memory name is exported"
    );
    assert!(dir.path().join("out/battle-terrain.png").is_file());
    assert!(h.state().is_dirty(), "exporting does not save");
    let on_disk = std::fs::read_to_string(dir.path().join("scenario.ron")).expect("scenario");
    assert!(!on_disk.contains("Navarre renamed"));
}

#[test]
fn vassal_and_print_exports_take_the_command_line_options() {
    let (dir, _path, mut h) = open(AGE_OF_HONOR);
    command(&mut h, UiCommand::ExportVassal);
    let vmod = dir.path().join("battle.vmod");
    type_into(&mut h, "Destination", &vmod.display().to_string());
    h.get_by_label("Export").click();
    h.step();
    wait_for_export(&mut h);
    assert!(
        matches!(h.state().services.exports.last, Some(Ok(_))),
        "{:?}",
        h.state().services.exports.last
    );
    let bytes = std::fs::read(&vmod).expect("the module");
    assert_eq!(&bytes[..2], b"PK", "a zip");

    command(&mut h, UiCommand::ExportPrint);
    let pdf = dir.path().join("kit");
    type_into(&mut h, "Destination", &pdf.display().to_string());
    type_into(&mut h, "Hex size", "5/8in");
    // A size the command line refuses is refused here with its words.
    type_into(&mut h, "Counter size", "3in");
    h.get_by_label_contains("use a size from 5 to 60 mm");
    type_into(&mut h, "Counter size", "15mm");
    click(&mut h, "Paper");
    click(&mut h, "Letter");
    let request = export_form(&h).request().expect("a request");
    match &request.options {
        bataille_editor::services::export::ExportOptions::Print(p) => {
            assert!((p.hex_mm - 15.875).abs() < 1e-3);
            assert!((p.counter_mm - 15.0).abs() < 1e-3);
            assert_eq!(p.paper, bataille_export::print::Paper::Letter);
        }
        other => panic!("{other:?}"),
    }
    h.get_by_label("Export").click();
    h.step();
    wait_for_export(&mut h);
    assert!(
        matches!(h.state().services.exports.last, Some(Ok(_))),
        "{:?}",
        h.state().services.exports.last
    );
    let written = dir.path().join("kit.pdf");
    let bytes = std::fs::read(&written).expect("the kit, .pdf added");
    assert!(bytes.starts_with(b"%PDF"));
    // The same kit as `bataille print --paper letter --hex 5/8in --counter 15mm`.
    let scenario = &h.state().doc.scenario.as_ref().expect("scenario").scenario;
    let kit = bataille_export::print::kit(
        scenario,
        &h.state().doc.map,
        &bataille_export::print::PrintOptions {
            paper: bataille_export::print::Paper::Letter,
            hex_mm: 15.875,
            counter_mm: 15.0,
        },
    )
    .expect("kit");
    assert_eq!(bytes.len(), kit.pdf.len());
}

#[test]
fn a_failed_export_is_shown_not_dropped() {
    let (dir, _path, mut h) = open(AGE_OF_HONOR);
    // A destination that cannot be written: a file where its folder should be.
    std::fs::write(dir.path().join("blocker"), "x").expect("write");
    command(&mut h, UiCommand::ExportVassal);
    let out = dir.path().join("blocker/battle.vmod");
    type_into(&mut h, "Destination", &out.display().to_string());
    // The dialog says the folder will be made (issue 21: made by the export, not refused).
    h.get_by_label_contains("will be created");
    // Started anyway (as a script would), the job's failure reaches the user.
    let request = bataille_editor::services::export::ExportRequest {
        kind: bataille_editor::services::export::ExportKind::Vassal,
        options: bataille_editor::services::export::ExportOptions::default_for(
            bataille_editor::services::export::ExportKind::Vassal,
        ),
        out: out.clone(),
    };
    h.key_press(Key::Escape);
    h.run();
    h.state_mut().start_export(request);
    wait_for_export(&mut h);
    assert!(matches!(h.state().services.exports.last, Some(Err(_))));
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .any(|e| e.contains("Could not export")),
        "{:?}",
        h.state().services.io_errors
    );
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Error { .. })));
    assert!(
        h.query_all_by_label_contains("Could not export the VASSAL module")
            .next()
            .is_some()
    );
    assert!(!out.exists());
}

#[test]
fn a_cancelled_export_writes_nothing() {
    let (dir, _path, mut h) = open(AGE_OF_HONOR);
    let out = dir.path().join("cancelled.vmod");
    let kind = bataille_editor::services::export::ExportKind::Vassal;
    h.state_mut()
        .start_export(bataille_editor::services::export::ExportRequest {
            kind,
            options: bataille_editor::services::export::ExportOptions::default_for(kind),
            out: out.clone(),
        });
    // Cancel as the corner's button does: the job stops at its next step, before writing.
    h.state()
        .services
        .exports
        .job
        .as_ref()
        .expect("running")
        .1
        .cancel();
    wait_for_export(&mut h);
    let last = h
        .state()
        .services
        .exports
        .last
        .clone()
        .expect("an end")
        .expect("no error");
    assert!(last.contains("cancelled"), "{last}");
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------------------
// Issue 13: the ratings form.

#[test]
fn the_unit_form_edits_each_systems_ratings_with_undo() {
    let (_dir, path, mut h) = open(AGE_OF_HONOR);
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    h.get_by_label("Age of Honor ratings");
    // Derived from the conversion rule: 2 CP × 2 stands.
    h.get_by_label_contains("4 stands");
    // A word of the system's list.
    click(&mut h, "quality");
    click(&mut h, "elite");
    let own = |h: &H, r: &str| {
        the_unit(h, 0)
            .ratings
            .get("age-of-honor")
            .and_then(|m| m.get(r))
            .cloned()
    };
    assert_eq!(own(&h, "quality"), Some(Rating::Text("elite".into())));
    // An id of one of the system's tables.
    click(&mut h, "fire_type");
    h.get_by_label("Platoon fire / linear foot (platoon-fire)")
        .click();
    h.run();
    assert_eq!(
        own(&h, "fire_type"),
        Some(Rating::Text("platoon-fire".into()))
    );
    // A number outside the system's range (stands 1–24) is refused and kept out.
    type_into(&mut h, "stands", "30");
    h.get_by_label_contains("not a whole number from 1 to 24");
    assert_eq!(own(&h, "stands"), None);
    type_into(&mut h, "stands", "6");
    assert_eq!(own(&h, "stands"), Some(Rating::Number(6)));
    h.get_by_label_contains("6 stands");
    // Each change is one undo step.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(own(&h, "stands"), None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(own(&h, "fire_type"), None);
    assert_eq!(own(&h, "quality"), Some(Rating::Text("elite".into())));
    // Back to the derived value.
    click(&mut h, "quality");
    click(&mut h, "derived: regular");
    assert_eq!(own(&h, "quality"), None);
    click(&mut h, "quality");
    click(&mut h, "irregular");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert!(
        saved.contains("\"quality\": Text(\"irregular\")"),
        "{saved}"
    );
}

#[test]
fn the_ratings_ranges_come_from_the_system_file() {
    // The same system with brigades of up to 40 stands: 30 is now taken.
    let wider = AGE_OF_HONOR.replace(
        "values: Range(min: 1, max: 24)",
        "values: Range(min: 1, max: 40)",
    );
    assert_ne!(wider, AGE_OF_HONOR);
    let (_dir, _path, mut h) = open(&wider);
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    type_into(&mut h, "stands", "30");
    assert_eq!(
        the_unit(&h, 0)
            .ratings
            .get("age-of-honor")
            .and_then(|m| m.get("stands")),
        Some(&Rating::Number(30))
    );
    // A system that cannot be read says so in the form.
    let dir = tempfile::tempdir().expect("dir");
    let (_path, mut h) = open_in(dir.path(), &battle(), "System(");
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    h.get_by_label_contains("age-of-honor.ron");
}

// ---------------------------------------------------------------------------------------------
// Issue 13: the table overlay.

/// `bataille-table`'s layout of the open scenario for Age of Honor at 15 mm (what the overlay
/// must agree with).
fn age_of_honor_layout(h: &H) -> bataille_table::Layout {
    let scenario = h.state().doc.scenario.as_ref().expect("s").scenario.clone();
    let system = bataille_schema::system::parse_system(&bataille_schema::source::SourceFile::new(
        "age-of-honor.ron",
        AGE_OF_HONOR.to_owned(),
    ))
    .expect("system");
    bataille_table::layout(&scenario, &h.state().doc.map, &system, "15mm").expect("layout")
}

#[test]
fn the_table_overlay_is_at_the_systems_scale_draggable_and_marks_units_off_it() {
    let (_dir, _path, mut h) = open(AGE_OF_HONOR);
    command(&mut h, UiCommand::ToggleTableOverlay);
    assert!(h.state().ui.table.shown);
    h.get_by_label("Table overlay");
    type_into(&mut h, "Table", "60x40cm");
    h.run();
    // bataille-table's scale: 400 m a hex, 3.6 m a mm at 15 mm.
    let expected = age_of_honor_layout(&h);
    assert!((expected.mm_per_grid - 400.0 / 3f64.sqrt() / 3.6).abs() < 1e-9);
    let rect = h.state().ui.table.grid_rect().expect("the table is laid");
    let k = expected.mm_per_grid as f32;
    assert!(
        (rect.width() * k - 600.0).abs() < 0.5,
        "{}",
        rect.width() * k
    );
    assert!((rect.height() * k - 400.0).abs() < 0.5);
    // The map is about 1.1 m wide: a 60 cm table holds one corner's unit, not both.
    let off = h.state().ui.table.outside_names();
    assert_eq!(off.len(), 1, "{off:?}");
    let was_off = off[0].clone();
    h.get_by_label_contains("1 off the table");
    h.get_by_label(&was_off);
    // Drag the table by its tag from the unit on it to the unit off it.
    let (on, off_hex) = if was_off.contains("1210") {
        (HexIndex::new(0, 0), HexIndex::new(11, 9))
    } else {
        (HexIndex::new(11, 9), HexIndex::new(0, 0))
    };
    let delta = h.state().screen_of_hex(off_hex) - h.state().screen_of_hex(on);
    let before = h.state().ui.table.origin_mm.expect("placed");
    let handle = h.state().table_overlay_handle().expect("a tag");
    let from = handle.center();
    let to = from + delta;
    h.hover_at(from);
    h.drag_at(from);
    for i in 1..=8 {
        h.hover_at(from + delta * (i as f32 / 8.0));
    }
    h.drop_at(to);
    h.run();
    let after = h.state().ui.table.origin_mm.expect("placed");
    let zoom = h.state().ui.view.zoom;
    let moved = [(after[0] - before[0]) as f32, (after[1] - before[1]) as f32];
    assert!(
        (moved[0] - delta.x / zoom * k).abs() < 1.0,
        "{moved:?} {delta:?}"
    );
    assert!(
        (moved[1] - delta.y / zoom * k).abs() < 1.0,
        "{moved:?} {delta:?}"
    );
    let now_off = h.state().ui.table.outside_names();
    assert_eq!(now_off.len(), 1, "{now_off:?}");
    assert_ne!(now_off[0], was_off, "the other unit is now off the table");
    // Nothing in the document moved: the drag was the table's, not a counter's.
    assert!(!h.state().is_dirty());
    assert_eq!(
        the_unit(&h, 0).placement,
        Placement::Hex(HexName::from("0101"))
    );
    // A tap (press and release in one frame) on the overlay's window, over the map, goes to
    // the window only: the brush under it paints nothing.
    command(&mut h, UiCommand::Tool(bataille_editor::tools::Tool::Brush));
    h.state_mut().ui.tools.terrain = 'f';
    let turned = h.state().ui.table.turned;
    let check_box = h.get_by_label("Turned").rect().center();
    assert!(
        h.state().ui.map_rect.contains(check_box),
        "the window lies over the map"
    );
    tap(&mut h, check_box, egui::PointerButton::Primary);
    h.run();
    assert_ne!(
        h.state().ui.table.turned,
        turned,
        "the check box took the click"
    );
    assert!(!h.state().is_dirty(), "nothing painted under the window");
    // Off again from the View menu's command.
    command(&mut h, UiCommand::ToggleTableOverlay);
    assert!(!h.state().ui.table.shown);
    let _ = Pos2::ZERO;
}

/// A table not moved by hand goes to its best place again when another size is typed (as
/// `bataille table --table` places it); once dragged by its tag, it stays where it was put.
#[test]
fn the_table_follows_its_best_place_until_it_is_dragged() {
    let (_dir, _path, mut h) = open(AGE_OF_HONOR);
    command(&mut h, UiCommand::ToggleTableOverlay);
    h.run();
    let first = h.state().ui.table.origin_mm.expect("placed");
    type_into(&mut h, "Table", "60x40cm");
    h.run();
    let layout = age_of_honor_layout(&h);
    let best = layout.best_window(&h.state().doc.map, [600.0, 400.0]);
    assert_ne!(best, first, "the small table's best place is elsewhere");
    assert_eq!(h.state().ui.table.origin_mm, Some(best));
    // Dragged by its tag, then another size: it stays where the user put it.
    let from = h.state().table_overlay_handle().expect("a tag").center();
    let to = from + egui::vec2(40.0, 30.0);
    h.hover_at(from);
    h.drag_at(from);
    for i in 1..=4 {
        h.hover_at(from + (to - from) * (i as f32 / 4.0));
    }
    h.drop_at(to);
    h.run();
    let dragged = h.state().ui.table.origin_mm.expect("placed");
    assert_ne!(dragged, best, "the drag moved it");
    type_into(&mut h, "Table", "50x40cm");
    h.run();
    assert_eq!(h.state().ui.table.origin_mm, Some(dragged));
    // "Best place" takes it back, and it follows the size again.
    click(&mut h, "Best place");
    type_into(&mut h, "Table", "60x40cm");
    h.run();
    assert_eq!(h.state().ui.table.origin_mm, Some(best));
}

/// The overlay's choices (system, figures, table, turned) come back in the next run on the same
/// config dir; a settings file that does not read is still reported and kept aside.
#[test]
fn the_table_overlays_choices_are_remembered_between_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let (path, mut h) = open_in(dir.path(), &battle(), AGE_OF_HONOR);
    command(&mut h, UiCommand::ToggleTableOverlay);
    type_into(&mut h, "Table", "6x4ft");
    h.get_by_label("Turned").click();
    h.run();
    click(&mut h, "Figures");
    click(&mut h, "25mm");
    let chosen = h.state().ui.table.settings();
    assert_eq!(
        (
            chosen.table.as_str(),
            chosen.figures.as_str(),
            chosen.turned
        ),
        ("6x4ft", "25mm", true)
    );
    assert_eq!(chosen.system.as_deref(), Some("age-of-honor"));
    // The window closes (eframe's last call), and the editor runs again.
    eframe::App::on_exit(h.state_mut(), None);
    drop(h);
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    assert_eq!(h.state().ui.table.settings(), chosen);
    command(&mut h, UiCommand::ToggleTableOverlay);
    assert_eq!(
        h.state().ui.table.figures,
        "25mm",
        "kept: the system has it"
    );
    let size = h.state().ui.table.size_mm().expect("6x4ft reads");
    assert!(size[0] < size[1], "turned: {size:?}");
    drop(h);
    // A settings file that does not read: reported, kept aside, the defaults used.
    let settings = dir.path().join("config/settings.ron");
    std::fs::write(&settings, "(table: (turned: maybe").expect("written");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.get_by_label_contains("settings.ron.broken");
    assert!(dir.path().join("config/settings.ron.broken").exists());
    assert!(!h.state().ui.table.turned);
    assert_eq!(h.state().ui.table.table_text, "180x120cm");
}

// ---------------------------------------------------------------------------------------------
// Issue 10: Save As keeps `map:` inside the scenario's root.

#[test]
fn save_as_refuses_a_map_path_that_leaves_the_root() {
    let dir = tempfile::tempdir().expect("dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    std::fs::create_dir_all(repo.join("scenarios")).expect("mkdir");
    let mut s = battle();
    s.miniatures.clear();
    s.map = "map.ron".into();
    let (_path, mut h) = open_in(&repo.join("scenarios"), &s, AGE_OF_HONOR);
    // Where the map is outside the new place's root (no repository there: the folder above
    // the scenario's): refused, nothing written, the scenario stays where it was.
    let outside = dir.path().join("elsewhere/deeper/copy.ron");
    std::fs::create_dir_all(outside.parent().expect("parent")).expect("mkdir");
    command(&mut h, AppCommand::SaveAsPath(outside.clone()));
    assert!(!outside.exists(), "nothing written");
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Error { .. })));
    h.get_by_label_contains("leads outside");
    h.get_by_label_contains("with a place under that root");
    assert!(
        h.query_all_by_label_contains(&dir.path().join("elsewhere").display().to_string())
            .next()
            .is_some()
    );
    // Nothing was changed: no "changes" are said to be kept.
    assert!(
        h.query_all_by_label_contains("still here").next().is_none(),
        "a clean document has no changes to keep"
    );
    h.key_press(Key::Escape);
    h.run();
    // With a change made, the same refusal says it is kept.
    use bataille_editor::model::scenario_edit::{ScenarioChange, Settings};
    let before = Settings::of(scenario_of(&h));
    let after = Settings {
        title: format!("{} (copy)", before.title),
        ..before.clone()
    };
    let changes = vec![bataille_editor::model::history::Change::Scenario(
        ScenarioChange::Settings {
            before: Box::new(before),
            after: Box::new(after),
        },
    )];
    let label = "Title".to_owned();
    command(&mut h, AppCommand::Edit { label, changes });
    assert!(h.state().is_dirty());
    command(&mut h, AppCommand::SaveAsPath(outside.clone()));
    assert!(!outside.exists(), "nothing written");
    h.get_by_label_contains("Your changes are still here");
    h.key_press(Key::Escape);
    h.run();
    // Inside it (another folder): saved, `map` relative.
    let inside = repo.join("other/copy.ron");
    std::fs::create_dir_all(inside.parent().expect("parent")).expect("mkdir");
    command(&mut h, AppCommand::SaveAsPath(inside.clone()));
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let text = std::fs::read_to_string(&inside).expect("saved");
    assert!(text.contains("map: \"../scenarios/map.ron\""), "{text}");
    // And the saved file opens again.
    bataille_schema::load_scenario(&inside).expect("it loads");
}

#[test]
fn the_live_validator_runs_the_miniatures_checks_with_the_scenarios_systems() {
    // A rating out of the system's range in the file: `bataille validate` says E1003, and so
    // does the editor, live.
    let mut s = battle();
    s.armies[0].units[1]
        .ratings
        .entry(Id::from("age-of-honor"))
        .or_default()
        .insert(Id::from("stands"), Rating::Number(30));
    let dir = tempfile::tempdir().expect("dir");
    let (_path, mut h) = open_in(dir.path(), &s, AGE_OF_HONOR);
    h.run();
    let codes = |h: &H| -> Vec<String> {
        h.state()
            .services
            .diagnostics
            .diagnostics
            .iter()
            .map(|d| d.code.as_str().to_owned())
            .collect()
    };
    assert!(codes(&h).contains(&"E1003".to_owned()), "{:?}", codes(&h));
    // Fixed in the form: the diagnostic goes.
    h.state_mut().select(Some(Sel::Unit(0, 1)));
    h.run();
    h.get_by_label("stands").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.key_press(Key::Backspace);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(
        the_unit(&h, 1).ratings.get("age-of-honor"),
        None,
        "back to the derived value"
    );
    assert!(!codes(&h).contains(&"E1003".to_owned()), "{:?}", codes(&h));
}

#[test]
fn a_commanders_ratings_are_edited_with_undo() {
    let mut s = battle();
    s.armies[0]
        .commanders
        .push(bataille_schema::scenario::Commander {
            id: Id::from("villars"),
            name: "Maréchal de Villars".into(),
            radius_hexes: None,
            commands: vec![Id::from("droite")],
            placement: Placement::Hex(HexName::from("0505")),
            allow: Vec::new(),
        });
    let dir = tempfile::tempdir().expect("dir");
    let (_path, mut h) = open_in(dir.path(), &s, AGE_OF_HONOR);
    h.state_mut().select(Some(Sel::Commander(0, 0)));
    h.run();
    h.get_by_label("Age of Honor ratings");
    let leaders = |h: &H| {
        h.state()
            .doc
            .scenario
            .as_ref()
            .expect("s")
            .scenario
            .miniatures[0]
            .leaders
            .get("villars")
            .cloned()
    };
    assert_eq!(leaders(&h), None, "nothing set: the named table decides");
    type_into(&mut h, "reserve_modifier", "3");
    assert_eq!(
        leaders(&h).and_then(|r| r.get("reserve_modifier").cloned()),
        Some(Rating::Number(3))
    );
    type_into(&mut h, "charismatic", "5");
    h.get_by_label_contains("not a whole number from 0 to 1");
    assert_eq!(leaders(&h).map(|r| r.len()), Some(1));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(leaders(&h), None, "one undo step");
    // Renamed, the commander keeps its ratings (`leaders` is keyed by id).
    type_into(&mut h, "reserve_modifier", "1");
    type_into(&mut h, "Id", "villars-2");
    let miniatures = &h
        .state()
        .doc
        .scenario
        .as_ref()
        .expect("s")
        .scenario
        .miniatures[0];
    assert_eq!(miniatures.leaders.get("villars"), None);
    assert_eq!(
        miniatures
            .leaders
            .get("villars-2")
            .and_then(|r| r.get("reserve_modifier")),
        Some(&Rating::Number(1))
    );
    // Deleted, it takes its ratings with it (no E0205 left behind), in one undo step.
    h.get_by_label("Delete").click();
    h.run();
    let scenario = &h.state().doc.scenario.as_ref().expect("s").scenario;
    assert!(scenario.armies[0].commanders.is_empty());
    assert_eq!(scenario.miniatures[0].leaders.get("villars-2"), None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let scenario = &h.state().doc.scenario.as_ref().expect("s").scenario;
    assert_eq!(scenario.armies[0].commanders.len(), 1, "undone");
    assert!(
        scenario.miniatures[0].leaders.contains_key("villars-2"),
        "the ratings come back with it"
    );
}
