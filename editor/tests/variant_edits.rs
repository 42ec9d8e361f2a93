//! Issue 25: every kind of change a variant holds, made in the editor on an opened variant
//! through the one command handler, is in the variant's file after Save and back after opening
//! it again — a deleted victory condition and an edited title were lost before. What a variant
//! cannot hold (the date) is said at Save and kept here, unsaved.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::PathBuf;

use bataille_editor::model::history::Change;
use bataille_editor::model::scenario_edit::{Item, ItemPath, ScenarioChange, Settings};
use bataille_editor::{AppCommand, UiCommand};
use bataille_schema::Scenario;
use bataille_schema::scenario::{LeaderLoss, Placement, VictoryCondition};

use common::*;

/// An empty variant of Denain, whose base (unlike the published one) has two victory
/// conditions of the vocabulary, so that one can be changed and one deleted.
const VARIANT: &str =
    "Variant(\n    format_version: 1,\n    name: \"Essai\",\n    base: \"denain-1712.ron\",\n)\n";

pub fn denain_variant_files() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = denain_files();
    let base = dir.path().join("scenarios/denain-1712.ron");
    let text = std::fs::read_to_string(&base).expect("base");
    let text = text.replacen(
        "        points_per_enemy_cp_eliminated: 2,\n",
        "        points_per_enemy_cp_eliminated: 2,\n        conditions: [\n            \
         FirstToDestroy(side: \"allies\", strength: 20, result: \"Allied victory\"),\n            \
         LossThreshold(side: \"french\", strength: 15, effect: \"demoralised\"),\n        ],\n",
        1,
    );
    assert!(text.contains("LossThreshold"), "the conditions inserted");
    std::fs::write(&base, text).expect("base");
    let variant = dir.path().join("scenarios/essai.ron");
    std::fs::write(&variant, VARIANT).expect("variant");
    (dir, base, variant)
}

fn find_unit(s: &Scenario, id: &str) -> (usize, usize) {
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

/// A unit replaced by `f` of itself.
fn unit_edit(
    s: &Scenario,
    id: &str,
    f: impl FnOnce(&mut bataille_schema::scenario::Unit),
) -> Vec<Change> {
    let (a, u) = find_unit(s, id);
    let before = s.armies[a].units[u].clone();
    let mut after = before.clone();
    f(&mut after);
    vec![Change::Scenario(ScenarioChange::Item {
        path: ItemPath::Unit(a, u),
        before: Some(Item::Unit(Box::new(before))),
        after: Some(Item::Unit(Box::new(after))),
    })]
}

/// The settings replaced by `f` of them (the scenario settings dialog's one step).
fn settings_edit(s: &Scenario, f: impl FnOnce(&mut Settings)) -> Vec<Change> {
    let before = Settings::of(s);
    let mut after = before.clone();
    f(&mut after);
    vec![Change::Scenario(ScenarioChange::Settings {
        before: Box::new(before),
        after: Box::new(after),
    })]
}

/// Opens the variant, makes the edit through the command handler, saves, and opens the saved
/// variant again: the scenario is the edited one. Returns the saved text.
fn round_trip(edit: impl FnOnce(&Scenario) -> Vec<Change>) -> String {
    let (dir, base_path, variant_path) = denain_variant_files();
    let base_before = std::fs::read(&base_path).expect("base");
    let mut h = harness(app_with_file(dir.path(), &variant_path));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(h.state().doc.variant.is_some(), "opened as a variant");
    let changes = edit(scenario_of(&h));
    command(
        &mut h,
        AppCommand::Edit {
            label: "edit".into(),
            changes,
        },
    );
    assert!(h.state().is_dirty());
    let edited = scenario_of(&h).clone();
    command(&mut h, UiCommand::Save);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(!h.state().is_dirty(), "saved whole");
    assert_eq!(std::fs::read(&base_path).expect("base"), base_before);
    let saved = std::fs::read_to_string(&variant_path).expect("saved");
    assert!(saved.starts_with("Variant(\n"), "{saved}");
    let mut again = harness(app_with_file(dir.path(), &variant_path));
    again.run();
    assert!(
        again.state().ui.dialog.is_none(),
        "{:?}",
        again.state().ui.dialog
    );
    assert!(
        scenario_of(&again) == &edited,
        "reopened differs from the edited scenario; saved:\n{saved}"
    );
    saved
}

#[test]
fn moving_a_unit_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        unit_edit(s, "al-douglas", |u| {
            u.placement = Placement::Hex("1913".into())
        })
    });
    assert!(
        saved.contains("\"al-douglas\": (placement: Hex(\"1913\"))"),
        "{saved}"
    );
}

#[test]
fn re_placing_a_commander_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        let before = s.armies[0].commanders[0].clone();
        let mut after = before.clone();
        after.placement = Placement::Hex("1410".into());
        vec![Change::Scenario(ScenarioChange::Item {
            path: ItemPath::Commander(0, 0),
            before: Some(Item::Commander(Box::new(before))),
            after: Some(Item::Commander(Box::new(after))),
        })]
    });
    assert!(
        saved.contains("\"fr-villars\": (placement: Hex(\"1410\"))"),
        "{saved}"
    );
}

#[test]
fn a_line_leaders_arrival_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        let c = s.armies[0]
            .corps
            .iter()
            .position(|c| c.id.as_str() == "fr-garnison-valenciennes")
            .expect("corps");
        let before = s.armies[0].corps[c].clone();
        let mut after = before.clone();
        if let Some(l) = after.leader.as_mut() {
            l.placement = Placement::Reinforcement {
                turn: 3,
                entry: vec!["3211".into()].into(),
            };
        }
        vec![Change::Scenario(ScenarioChange::Item {
            path: ItemPath::Corps(0, c),
            before: Some(Item::Corps(Box::new(before))),
            after: Some(Item::Corps(Box::new(after))),
        })]
    });
    assert!(
        saved.contains("\"fr-tingry\": (turn: 3, entry: [\"3211\"])"),
        "{saved}"
    );
}

#[test]
fn strength_and_ratings_survive_save_and_reopen() {
    let saved = round_trip(|s| {
        unit_edit(s, "al-douglas", |u| {
            u.cp = Some(3);
            u.morale = Some(2);
            u.ratings.entry("age-of-honor".into()).or_default().insert(
                "stands".into(),
                bataille_schema::scenario::Rating::Number(4),
            );
        })
    });
    assert!(saved.contains("cp: 3"), "{saved}");
    assert!(saved.contains("\"stands\": Number(4)"), "{saved}");
}

#[test]
fn a_reinforcements_turn_and_entry_survive_save_and_reopen() {
    let saved = round_trip(|s| {
        unit_edit(s, "al-wurtemberg", |u| {
            u.placement = Placement::Reinforcement {
                turn: 2,
                entry: vec!["2719".into()].into(),
            }
        })
    });
    assert!(
        saved.contains("\"al-wurtemberg\": (turn: 2, entry: [\"2719\"])"),
        "{saved}"
    );
}

#[test]
fn an_added_unit_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        let (a, u) = find_unit(s, "al-douglas");
        let mut unit = s.armies[a].units[u].clone();
        unit.id = "al-new".into();
        unit.name = "Nouveau".into();
        unit.placement = Placement::Hex("2111".into());
        vec![Change::Scenario(ScenarioChange::Item {
            path: ItemPath::Unit(a, s.armies[a].units.len()),
            before: None,
            after: Some(Item::Unit(Box::new(unit))),
        })]
    });
    assert!(saved.contains("add_units: ["), "{saved}");
}

#[test]
fn a_removed_unit_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        let (a, u) = find_unit(s, "al-douglas");
        vec![Change::Scenario(ScenarioChange::Item {
            path: ItemPath::Unit(a, u),
            before: Some(Item::Unit(Box::new(s.armies[a].units[u].clone()))),
            after: None,
        })]
    });
    assert!(
        saved.contains("remove_units: [\n        \"al-douglas\",\n    ],"),
        "{saved}"
    );
}

#[test]
fn a_replaced_zone_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        let z = s
            .zones
            .iter()
            .position(|z| z.id.as_str() == "al-zone-holstein-beck")
            .expect("zone");
        vec![Change::Scenario(ScenarioChange::ZoneHexes {
            zone: z,
            hexes: vec!["2416".into()],
            present: true,
        })]
    });
    assert!(
        saved.contains("\"al-zone-holstein-beck\": (hexes: ["),
        "{saved}"
    );
}

#[test]
fn changed_added_and_deleted_victory_conditions_survive_save_and_reopen() {
    let saved = round_trip(|s| {
        settings_edit(s, |set| {
            // Delete the loss threshold, change the first, add one.
            set.victory.conditions.remove(1);
            set.victory.conditions[0] = VictoryCondition::FirstToDestroy {
                side: "allies".into(),
                strength: 25,
                result: "Allied victory".into(),
            };
            set.victory
                .conditions
                .push(VictoryCondition::PointsPerEnemyStrength {
                    side: "french".into(),
                    points: 1,
                });
        })
    });
    assert!(
        saved.contains("remove_conditions: [\n            (kind: LossThreshold, side: \"french\")"),
        "{saved}"
    );
}

#[test]
fn a_deleted_victory_condition_alone_survives_save_and_reopen() {
    let saved = round_trip(|s| settings_edit(s, |set| set.victory.conditions.clear()));
    assert!(saved.contains("kind: FirstToDestroy"), "{saved}");
}

#[test]
fn victory_hexes_and_leader_losses_survive_save_and_reopen() {
    round_trip(|s| {
        settings_edit(s, |set| {
            set.victory.objectives.remove(4);
            set.victory.points_per_enemy_cp_eliminated = 3;
            set.victory.leader_losses = vec![LeaderLoss {
                leader: "fr-villars".into(),
                winner: "allies".into(),
            }];
            set.victory.unit_objectives.clear();
        })
    });
}

#[test]
fn turns_and_rule_switches_survive_save_and_reopen() {
    let saved = round_trip(|s| {
        settings_edit(s, |set| {
            set.turns = 12;
            set.rules.command.lines_of_battle = false;
            set.rules.command.commander_radius_hexes = 6;
        })
    });
    assert!(saved.contains("turns: 12"), "{saved}");
    assert!(saved.contains("lines_of_battle: false"), "{saved}");
}

#[test]
fn an_edited_title_survives_save_and_reopen() {
    let saved = round_trip(|s| {
        settings_edit(s, |set| {
            set.title = set.title.replace("— Essai", "— Eugène à midi");
        })
    });
    assert!(saved.contains("name: \"Eugène à midi\""), "{saved}");
}

/// An edit a variant cannot hold (the date) is named at Save; the rest is written, and the
/// window stays unsaved so that closing still asks.
#[test]
fn what_a_variant_cannot_hold_is_said_and_kept_unsaved() {
    let (dir, _base, variant_path) = denain_variant_files();
    let mut h = harness(app_with_file(dir.path(), &variant_path));
    h.run();
    let s = scenario_of(&h).clone();
    let mut changes = settings_edit(&s, |set| set.date = "1712-07-25".into());
    changes.extend(unit_edit(&s, "al-douglas", |u| u.cp = Some(3)));
    command(
        &mut h,
        AppCommand::Edit {
            label: "edit".into(),
            changes,
        },
    );
    command(&mut h, UiCommand::Save);
    let Some(bataille_editor::panels::dialogs::Dialog::Error { title, message, .. }) =
        &h.state().ui.dialog
    else {
        panic!("a dialog: {:?}", h.state().ui.dialog);
    };
    assert!(title.contains("a variant cannot hold"), "{title}");
    assert!(message.contains("Not written: the date."), "{message}");
    assert!(h.state().is_dirty(), "kept unsaved");
    assert_eq!(scenario_of(&h).date, "1712-07-25", "the edit is still here");
    let saved = std::fs::read_to_string(&variant_path).expect("saved");
    assert!(saved.contains("\"al-douglas\": (cp: 3)"), "{saved}");
}
