//! Issue 25: a scenario variant opened in the editor. Through the real app and real files: a
//! `Variant(` file opens as the scenario it resolves to (its base's values, its changes
//! applied), the title says whose variant it is, the order of battle marks what the variant
//! changes, and saving writes only the changes, by id, into the variant's file (the base is
//! never written).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::PathBuf;

use bataille_editor::model::history::Change;
use bataille_editor::model::scenario_edit::{Item, ItemPath, ScenarioChange};
use bataille_editor::{AppCommand, UiCommand};
use bataille_schema::scenario::Placement;
use egui_kittest::kittest::Queryable;

use common::*;

const VARIANT: &str = "Variant(\n    format_version: 1,\n    name: \"Tingry late\",\n    base: \"denain-1712.ron\",\n    notes: \"Tingry waits for the attack to succeed.\",\n    units: {\n        \"fr-valenciennes-1\": (turn: 4),\n    },\n    leaders: {\n        \"fr-tingry\": (turn: 4),\n    },\n)\n";

/// Denain and its files copied as in the repository, with the variant beside the scenario.
fn denain_with_variant() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = denain_files();
    let variant = dir.path().join("scenarios/tingry-late.ron");
    std::fs::write(&variant, VARIANT).expect("variant");
    let base = dir.path().join("scenarios/denain-1712.ron");
    (dir, base, variant)
}

fn unit_index(h: &H, id: &str) -> (usize, usize) {
    let s = scenario_of(h);
    s.armies
        .iter()
        .enumerate()
        .find_map(|(a, army)| {
            army.units
                .iter()
                .position(|u| u.id.as_str() == id)
                .map(|u| (a, u))
        })
        .expect("the unit")
}

#[test]
fn a_variant_opens_as_its_scenario_and_saves_only_its_changes() {
    let (dir, base_path, variant_path) = denain_with_variant();
    let base_before = std::fs::read(&base_path).expect("base");
    let mut h = harness(app_with_file(dir.path(), &variant_path));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let origin = h.state().doc.variant.clone().expect("opened as a variant");
    assert_eq!(origin.variant.name, "Tingry late");
    assert!(
        h.state()
            .window_title()
            .contains("tingry-late.ron (map denain-1712.ron), a variant of denain-1712.ron"),
        "{}",
        h.state().window_title()
    );
    // The variant's change applied over the base's values.
    let (a, u) = unit_index(&h, "fr-valenciennes-1");
    let valenciennes = scenario_of(&h).armies[a].units[u].clone();
    assert_eq!(
        valenciennes.placement,
        Placement::Reinforcement {
            turn: 4,
            entry: vec!["3211".into(), "3212".into()].into()
        }
    );
    assert_eq!(valenciennes.cp, Some(2), "the base's value");

    // The order of battle marks the changed counters, and only them.
    click(&mut h, "Order of battle");
    type_into(&mut h, "Filter", "valenciennes");
    h.run();
    let row = |h: &H, name: &str, marked: bool| {
        h.query_by(|n| {
            n.label()
                .is_some_and(|l| l.contains(name) && l.contains("· changed") == marked)
        })
        .is_some()
    };
    assert!(row(&h, "Valenciennes 1/", true), "marked as changed");
    assert!(
        row(&h, "Valenciennes 2/", false),
        "the base's counters unmarked"
    );
    assert!(!row(&h, "Valenciennes 2/", true));

    // An edit through the command handler: Douglas gets 3 CP.
    let (a, u) = unit_index(&h, "al-douglas");
    let before = scenario_of(&h).armies[a].units[u].clone();
    let mut after = before.clone();
    after.cp = Some(3);
    command(
        &mut h,
        AppCommand::Edit {
            label: "Douglas 3 CP".into(),
            changes: vec![Change::Scenario(ScenarioChange::Item {
                path: ItemPath::Unit(a, u),
                before: Some(Item::Unit(Box::new(before))),
                after: Some(Item::Unit(Box::new(after))),
            })],
        },
    );
    assert!(h.state().is_dirty());
    command(&mut h, UiCommand::Save);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(!h.state().is_dirty());

    let saved = std::fs::read_to_string(&variant_path).expect("saved");
    assert!(saved.starts_with("Variant(\n"), "{saved}");
    assert!(saved.contains("name: \"Tingry late\""), "{saved}");
    assert!(
        saved.contains("notes: \"Tingry waits for the attack to succeed.\""),
        "{saved}"
    );
    assert!(saved.contains("\"al-douglas\": (cp: 3),"), "{saved}");
    assert!(
        saved.contains("\"fr-valenciennes-1\": (turn: 4),"),
        "{saved}"
    );
    assert!(saved.contains("\"fr-tingry\": (turn: 4),"), "{saved}");
    assert!(!saved.contains("armies"), "only the changes: {saved}");
    assert_eq!(
        std::fs::read(&base_path).expect("base"),
        base_before,
        "the base is never written"
    );
    // What was saved opens again to the same scenario.
    let edited = scenario_of(&h).clone();
    let mut again = harness(app_with_file(dir.path(), &variant_path));
    again.run();
    assert_eq!(scenario_of(&again), &edited);
}
