//! Issue 25, end to end: a variant opened in the real editor (its app state driven by
//! egui_kittest), edited through its command handler (a unit moved, a victory condition
//! deleted, the title changed) and saved, is a file the real `bataille` binary validates clean
//! and formats unchanged; the base is never written.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use bataille_editor::model::history::Change;
use bataille_editor::model::scenario_edit::{Item, ItemPath, ScenarioChange, Settings};
use bataille_editor::{EditorApp, EditorConfig};
use bataille_schema::scenario::Placement;

type H = egui_kittest::Harness<'static, EditorApp>;

fn harness(dir: &Path, file: &Path) -> H {
    let mut app = EditorApp::with_file(EditorConfig::isolated(dir), file);
    app.services.diagnostics.live.mode = bataille_editor::services::validation::Mode::Inline;
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run();
    h
}

fn send(h: &mut H, command: impl Into<bataille_editor::Command>) {
    h.state_mut().request(command);
    h.run();
    h.step();
    h.run();
}

#[test]
fn a_variant_saved_by_the_editor_validates_with_the_command() {
    let dir = tempfile::tempdir().expect("dir");
    let repo = dir.path().join("repo");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in [".git", "scenarios", "maps", "systems"] {
        std::fs::create_dir_all(repo.join(sub)).expect("mkdir");
    }
    for file in [
        "maps/denain-1712.ron",
        "scenarios/denain-1712.ron",
        "systems/age-of-honor.ron",
        "systems/louis-xiv.ron",
    ] {
        std::fs::copy(source.join(file), repo.join(file)).expect("copy");
    }
    // The base with a victory condition of the vocabulary, for the variant to delete.
    let base = repo.join("scenarios/denain-1712.ron");
    let text = std::fs::read_to_string(&base).expect("base").replacen(
        "        points_per_enemy_cp_eliminated: 2,\n",
        "        points_per_enemy_cp_eliminated: 2,\n        conditions: [\n            \
             LossThreshold(side: \"french\", strength: 15, effect: \"demoralised\"),\n        ],\n",
        1,
    );
    std::fs::write(&base, &text).expect("base");
    let base_before = std::fs::read(&base).expect("base");
    let variant = repo.join("scenarios/essai.ron");
    std::fs::write(
        &variant,
        "Variant(\n    format_version: 1,\n    name: \"Essai\",\n    base: \"denain-1712.ron\",\n)\n",
    )
    .expect("variant");

    let mut h = harness(&repo, &variant);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let s = h
        .state()
        .doc
        .scenario
        .as_ref()
        .expect("opened")
        .scenario
        .clone();
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
    after.placement = Placement::Hex("1913".into());
    let settings = Settings::of(&s);
    let mut new_settings = settings.clone();
    new_settings.victory.conditions.clear();
    new_settings.title = new_settings.title.replace("— Essai", "— Douglas avance");
    send(
        &mut h,
        bataille_editor::AppCommand::Edit {
            label: "variant".into(),
            changes: vec![
                Change::Scenario(ScenarioChange::Item {
                    path: ItemPath::Unit(a, u),
                    before: Some(Item::Unit(Box::new(before))),
                    after: Some(Item::Unit(Box::new(after))),
                }),
                Change::Scenario(ScenarioChange::Settings {
                    before: Box::new(settings),
                    after: Box::new(new_settings),
                }),
            ],
        },
    );
    send(&mut h, bataille_editor::UiCommand::Save);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(!h.state().is_dirty());
    assert_eq!(
        std::fs::read(&base).expect("base"),
        base_before,
        "base untouched"
    );
    let saved = std::fs::read_to_string(&variant).expect("saved");
    assert!(saved.contains("name: \"Douglas avance\""), "{saved}");
    assert!(
        saved.contains("(kind: LossThreshold, side: \"french\")"),
        "{saved}"
    );

    let run = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
        command.args(args).current_dir(&repo).env("NO_COLOR", "1");
        support::output_within(command, Duration::from_secs(120))
    };
    let out = run(&["validate", "--format", "json", "scenarios/essai.ron"]);
    let report: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).expect("a JSON report");
    let codes: Vec<&str> = report.iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(
        !codes
            .iter()
            .any(|c| c.starts_with("E11") || c.starts_with("W11")),
        "no variant problem: {codes:?}"
    );
    assert_eq!(out.status.code(), Some(0), "{report:?}");
    let fmt = run(&["fmt", "--check", "scenarios/essai.ron"]);
    assert_eq!(
        fmt.status.code(),
        Some(0),
        "saved in canonical form: {saved}"
    );
    // The binary reads the variant as the editor wrote it: the condition gone, Douglas moved.
    let json = run(&["export", "--json", "scenarios/essai.ron"]);
    let exported: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(
        exported["victory"]["remove_conditions"][0]["kind"], "LossThreshold",
        "{exported}"
    );
}
