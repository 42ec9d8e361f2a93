//! Issue 25: between a base and its variants in the editor. The variants beside an open
//! scenario (its folder and the repository's scenarios/, those whose `base` is that file) are
//! offered in the Scenario menu and the "Open variant…" dialog; from a variant, "Open base
//! scenario"; both through the unsaved-changes guard. "Save as variant…" writes the changes
//! made since the scenario was saved as a variant of it and keeps it open as that variant; "New
//! variant of this scenario…" writes an empty one and opens it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::{Path, PathBuf};

use bataille_editor::model::history::Change;
use bataille_editor::model::scenario_edit::{Item, ItemPath, ScenarioChange};
use bataille_editor::{AppCommand, Dialog, UiCommand};
use egui_kittest::kittest::Queryable;

use common::*;

const TINGRY: &str = "Variant(\n    format_version: 1,\n    name: \"Tingry late\",\n    base: \"denain-1712.ron\",\n    units: {\n        \"fr-valenciennes-1\": (turn: 4),\n    },\n)\n";
const ELSEWHERE: &str =
    "Variant(\n    format_version: 1,\n    name: \"Another base\",\n    base: \"other.ron\",\n)\n";

/// Denain in a repository, a variant of it beside it, a variant of another file, and a
/// variant in a sub-folder (not looked at).
fn repo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = denain_files();
    std::fs::create_dir_all(dir.path().join(".git")).expect("git");
    let scenarios = dir.path().join("scenarios");
    std::fs::write(scenarios.join("tingry-late.ron"), TINGRY).expect("variant");
    std::fs::write(scenarios.join("elsewhere.ron"), ELSEWHERE).expect("variant");
    (
        dir,
        scenarios.join("denain-1712.ron"),
        scenarios.join("tingry-late.ron"),
    )
}

fn douglas_cp(h: &mut H, cp: u8) {
    let s = scenario_of(h);
    let (a, u) = s
        .armies
        .iter()
        .enumerate()
        .find_map(|(a, army)| {
            army.units
                .iter()
                .position(|u| u.id.as_str() == "al-douglas")
                .map(|u| (a, u))
        })
        .expect("Douglas");
    let before = s.armies[a].units[u].clone();
    let mut after = before.clone();
    after.cp = Some(cp);
    command(
        h,
        AppCommand::Edit {
            label: "Douglas".into(),
            changes: vec![Change::Scenario(ScenarioChange::Item {
                path: ItemPath::Unit(a, u),
                before: Some(Item::Unit(Box::new(before))),
                after: Some(Item::Unit(Box::new(after))),
            })],
        },
    );
}

fn scenario_path(h: &H) -> PathBuf {
    h.state()
        .doc
        .scenario
        .as_ref()
        .expect("scenario")
        .path
        .clone()
}

fn same(a: &Path, b: &Path) -> bool {
    std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
}

#[test]
fn the_base_offers_its_variants_and_a_variant_its_base() {
    let (dir, base, tingry) = repo();
    let mut h = harness(app_with_file(dir.path(), &base));
    h.run();
    let found: Vec<String> = h
        .state()
        .doc
        .variants_beside
        .iter()
        .map(|v| v.name.clone())
        .collect();
    assert_eq!(
        found,
        vec!["Tingry late".to_owned()],
        "only the base's variants"
    );

    // Scenario ▸ Open variant ▸ Tingry late.
    click(&mut h, "Scenario");
    h.get_by_label("Open variant").hover();
    h.run();
    click(&mut h, "Tingry late (tingry-late.ron)");
    h.run();
    assert!(h.state().doc.variant.is_some(), "the variant is open");
    assert!(same(&scenario_path(&h), &tingry));

    // From the variant, its base; with an edit, the guard asks first.
    douglas_cp(&mut h, 3);
    command(&mut h, UiCommand::OpenBaseScenario);
    assert!(
        matches!(h.state().ui.dialog, Some(Dialog::Guard { .. })),
        "{:?}",
        h.state().ui.dialog
    );
    click(&mut h, "Discard");
    h.run();
    assert!(h.state().doc.variant.is_none(), "the base is open");
    assert!(same(&scenario_path(&h), &base));

    // The palette's "Open variant…" lists them too.
    command(&mut h, UiCommand::OpenVariant);
    let Some(Dialog::Variants(files)) = &h.state().ui.dialog else {
        panic!("{:?}", h.state().ui.dialog);
    };
    assert_eq!(files.len(), 1);
    click(&mut h, "Tingry late (tingry-late.ron)");
    h.run();
    assert!(h.state().doc.variant.is_some());
}

#[test]
fn save_as_variant_writes_the_changes_and_keeps_the_variant_open() {
    let (dir, base, _tingry) = repo();
    let base_before = std::fs::read(&base).expect("base");
    let mut h = harness(app_with_file(dir.path(), &base));
    h.run();
    douglas_cp(&mut h, 3);
    command(&mut h, UiCommand::SaveAsVariant);
    assert!(matches!(h.state().ui.dialog, Some(Dialog::Path { .. })));
    let target = dir.path().join("scenarios/douglas-fort.ron");
    type_text_into(&mut h, "File path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    h.step();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert_eq!(
        std::fs::read(&base).expect("base"),
        base_before,
        "the base is not written"
    );
    let saved = std::fs::read_to_string(&target).expect("the variant");
    assert!(saved.starts_with("Variant(\n"), "{saved}");
    assert!(saved.contains("name: \"douglas fort\""), "{saved}");
    assert!(saved.contains("base: \"denain-1712.ron\""), "{saved}");
    assert!(saved.contains("\"al-douglas\": (cp: 3)"), "{saved}");
    assert!(same(&scenario_path(&h), &target), "the variant is open");
    assert!(h.state().doc.variant.is_some());
    assert!(!h.state().is_dirty());
    assert!(
        h.state()
            .doc
            .variants_beside
            .iter()
            .any(|v| same(&v.path, &target)),
        "and offered beside the base"
    );
    // A second Save writes the variant, never the base.
    douglas_cp(&mut h, 1);
    command(&mut h, UiCommand::Save);
    assert_eq!(std::fs::read(&base).expect("base"), base_before);
    assert!(
        std::fs::read_to_string(&target)
            .expect("variant")
            .contains("\"al-douglas\": (cp: 1)")
    );
}

#[test]
fn a_variant_never_replaces_a_file() {
    let (dir, base, tingry) = repo();
    let before = std::fs::read(&tingry).expect("variant");
    let mut h = harness(app_with_file(dir.path(), &base));
    h.run();
    douglas_cp(&mut h, 3);
    command(&mut h, UiCommand::SaveAsVariant);
    type_text_into(&mut h, "File path", &tingry.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    let Some(Dialog::Error { message, .. }) = &h.state().ui.dialog else {
        panic!("{:?}", h.state().ui.dialog);
    };
    assert!(message.contains("already there"), "{message}");
    assert_eq!(std::fs::read(&tingry).expect("variant"), before);
    assert!(h.state().doc.variant.is_none(), "still the base, unsaved");
    assert!(h.state().is_dirty());
}

#[test]
fn new_variant_starts_an_empty_one() {
    let (dir, base, _tingry) = repo();
    let mut h = harness(app_with_file(dir.path(), &base));
    h.run();
    command(&mut h, UiCommand::NewVariant);
    // A free name beside the base is offered (the base's own would be refused).
    let Some(Dialog::Path { dialog, .. }) = &h.state().ui.dialog else {
        panic!("{:?}", h.state().ui.dialog);
    };
    assert!(
        dialog.text.ends_with("scenarios/denain-1712-variant.ron"),
        "{}",
        dialog.text
    );
    let target = dir.path().join("scenarios/essai.ron");
    type_text_into(&mut h, "File path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    h.step();
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let text = std::fs::read_to_string(&target).expect("written");
    assert_eq!(
        text,
        "Variant(\n    format_version: 1,\n    name: \"essai\",\n    base: \"denain-1712.ron\",\n)\n"
    );
    assert!(h.state().doc.variant.is_some(), "opened");
    assert!(same(&scenario_path(&h), &target));
}

/// The editor looks for a scenario's variants off the UI thread (a folder of large files
/// costs up to 64 MiB of reading, which froze the window at every open and save): the open
/// returns at once, and the variants are offered once the look ends.
#[test]
fn variants_are_looked_for_off_the_ui_thread() {
    let (dir, base, tingry) = repo();
    let mut config = bataille_editor::EditorConfig::isolated(dir.path());
    config.variants_off_thread = true;
    let app = bataille_editor::EditorApp::with_file(config, &base);
    assert!(
        app.services.variant_scan.is_some() && app.doc.variants_beside.is_empty(),
        "the open returned with the look running beside the UI"
    );
    let mut h = harness(app);
    let start = std::time::Instant::now();
    while h.state().services.variant_scan.is_some() {
        h.step();
        assert!(start.elapsed().as_secs() < 60, "the look never ended");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let found: Vec<PathBuf> = h
        .state()
        .doc
        .variants_beside
        .iter()
        .map(|v| v.path.clone())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(same(&found[0], &tingry));
}
