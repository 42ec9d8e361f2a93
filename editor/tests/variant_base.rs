//! Issue 25: an opened variant shows its base beside its changes. The inspector lists a
//! changed counter's fields with the base's values and puts one back with "Reset … to base"
//! (one undoable edit through the command handler); an added counter says so; the scenario
//! settings show the base's turns and switches beside the fields and reset them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::PathBuf;

use bataille_editor::model::scenario_edit::CounterAt;
use bataille_editor::model::selection::Sel;
use bataille_editor::{AppCommand, UiCommand};
use egui_kittest::kittest::Queryable;

use common::*;

const VARIANT: &str = "Variant(\n    format_version: 1,\n    name: \"Essai\",\n    base: \"denain-1712.ron\",\n    turns: 12,\n    units: {\n        \"al-douglas\": (cp: 3, morale: 2),\n    },\n    add_units: [\n        (\n            army: \"allies\",\n            unit: (id: \"al-new\", name: \"Nouveau\", kind: \"infantry\", corps: \"al-garnison-denain\", cp: 1, mp: 4, morale: 3, placement: Hex(\"2111\")),\n        ),\n    ],\n    rules: (\n        command: (\n            lines_of_battle: false,\n        ),\n    ),\n)\n";

fn files() -> (tempfile::TempDir, PathBuf) {
    let dir = denain_files();
    let variant = dir.path().join("scenarios/essai.ron");
    std::fs::write(&variant, VARIANT).expect("variant");
    (dir, variant)
}

fn unit_at(h: &H, id: &str) -> CounterAt {
    let s = scenario_of(h);
    s.armies
        .iter()
        .enumerate()
        .find_map(|(a, army)| {
            army.units
                .iter()
                .position(|u| u.id.as_str() == id)
                .map(|u| CounterAt::Unit(a, u))
        })
        .expect("the unit")
}

fn cp_of(h: &H, id: &str) -> Option<u8> {
    let CounterAt::Unit(a, u) = unit_at(h, id) else {
        unreachable!()
    };
    scenario_of(h).armies[a].units[u].cp
}

fn shows(h: &H, text: &str) -> bool {
    h.query_all_by(|n| {
        n.label().is_some_and(|l| l.contains(text)) || n.value().is_some_and(|v| v.contains(text))
    })
    .next()
    .is_some()
}

#[test]
fn the_inspector_shows_the_bases_values_and_resets_one() {
    let (dir, variant) = files();
    let mut h = harness(app_with_file(dir.path(), &variant));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let at = unit_at(&h, "al-douglas");
    command(&mut h, AppCommand::Select(Some(Sel::from(at))));
    click(&mut h, "Inspector");
    assert!(h.state().doc.variant.is_some());
    assert!(shows(&h, "Changed from the base"));
    assert!(shows(&h, "CP: 3"), "the variant's value");
    assert!(shows(&h, "base: 2"), "the base's CP beside it");
    assert!(shows(&h, "Morale: 2"));
    assert!(shows(&h, "base: 4"), "the base's morale");
    assert!(!shows(&h, "MP: "), "an unchanged field is not listed");

    click(&mut h, "Reset CP to base");
    assert_eq!(cp_of(&h, "al-douglas"), Some(2), "the base's CP back");
    assert!(h.state().is_dirty());
    assert!(!shows(&h, "CP: 3"));
    assert!(shows(&h, "Morale: 2"), "the other change kept");
    command(&mut h, UiCommand::Undo);
    assert_eq!(cp_of(&h, "al-douglas"), Some(3), "one undoable edit");

    // A unit the variant adds, and one it leaves as in the base.
    let added = unit_at(&h, "al-new");
    command(&mut h, AppCommand::Select(Some(Sel::from(added))));
    assert!(shows(&h, "Added by this variant"));
    let same = unit_at(&h, "al-fechenbach-2");
    command(&mut h, AppCommand::Select(Some(Sel::from(same))));
    assert!(shows(&h, "As in the base scenario."));
}

#[test]
fn the_scenario_settings_show_the_bases_values_and_reset_them() {
    let (dir, variant) = files();
    let mut h = harness(app_with_file(dir.path(), &variant));
    h.run();
    command(&mut h, UiCommand::ScenarioSettings);
    assert!(shows(&h, "base: 10"), "the base's turns beside the field");
    assert!(shows(&h, "base: on"), "the base's lines of battle");
    click(&mut h, "Reset Turns to base");
    click(
        &mut h,
        "Reset Lines of battle keep units in command (9.3) to base",
    );
    click(&mut h, "Apply");
    assert_eq!(scenario_of(&h).turns, 10);
    assert!(scenario_of(&h).rules.command.lines_of_battle);
    command(&mut h, UiCommand::Save);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let saved = std::fs::read_to_string(&variant).expect("saved");
    assert!(!saved.contains("turns:"), "{saved}");
    assert!(!saved.contains("lines_of_battle"), "{saved}");
    assert!(
        saved.contains("\"al-douglas\": (cp: 3, morale: 2)"),
        "{saved}"
    );
}

/// A scenario that is no variant shows no base.
#[test]
fn a_plain_scenario_shows_no_base() {
    let (dir, _variant) = files();
    let base = dir.path().join("scenarios/denain-1712.ron");
    let mut h = harness(app_with_file(dir.path(), &base));
    h.run();
    let at = unit_at(&h, "al-douglas");
    command(&mut h, AppCommand::Select(Some(Sel::from(at))));
    click(&mut h, "Inspector");
    assert!(!shows(&h, "base:"));
    assert!(!shows(&h, "As in the base"));
    command(&mut h, UiCommand::ScenarioSettings);
    assert!(!shows(&h, "base: "));
}

/// Selects an item; the tree scrolls to it, which takes a few frames.
fn select_scrolling(h: &mut H, sel: Sel) {
    h.state_mut().request(AppCommand::Select(Some(sel)));
    h.run_steps(20);
}

fn zone_hexes(h: &H, id: &str) -> Vec<String> {
    let s = scenario_of(h);
    let zone = s.zones.iter().find(|z| z.id.as_str() == id).expect("zone");
    zone.hexes.iter().map(|x| x.as_str().to_owned()).collect()
}

/// The order-of-battle forms show the base's values as the inspector does and reset them
/// with the same edit; a zone the variant replaces says so, shows the base's zone and puts
/// it back (one undoable edit).
#[test]
fn the_order_of_battle_forms_show_the_base_and_reset_a_replaced_zone() {
    let (dir, variant) = files();
    let text = VARIANT.replace(
        "    turns: 12,\n",
        "    turns: 12,\n    zones: {\n        \"fr-zone-aile-droite\": (hexes: [\"1312\", \"1313\", \"1314\", \"1315\", \"1316\", \"1317\"]),\n    },\n",
    );
    std::fs::write(&variant, text).expect("variant");
    let mut h = harness(app_with_file(dir.path(), &variant));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    h.state_mut().panels.right_dock.tab = bataille_editor::panels::oob::DockTab::Oob;
    let at = unit_at(&h, "al-douglas");
    command(&mut h, AppCommand::Select(Some(Sel::from(at))));
    assert!(shows(&h, "Changed from the base"), "in the unit's form");
    assert!(shows(&h, "base: 2"), "the base's CP beside it");
    click(&mut h, "Reset CP to base");
    assert_eq!(cp_of(&h, "al-douglas"), Some(2));
    command(&mut h, UiCommand::Undo);
    assert_eq!(cp_of(&h, "al-douglas"), Some(3), "one undoable edit");

    let z = scenario_of(&h)
        .zones
        .iter()
        .position(|z| z.id.as_str() == "fr-zone-aile-droite")
        .expect("zone");
    select_scrolling(&mut h, Sel::Zone(z));
    assert!(shows(&h, "Replaced in this variant"));
    assert!(
        shows(&h, "5 hexes: 1312 1313 1314 1315 1316"),
        "the base's zone beside it"
    );
    assert_eq!(zone_hexes(&h, "fr-zone-aile-droite").len(), 6);
    click(&mut h, "Reset zone to base");
    assert_eq!(
        zone_hexes(&h, "fr-zone-aile-droite"),
        ["1312", "1313", "1314", "1315", "1316"]
    );
    assert!(!shows(&h, "Replaced in this variant"));
    assert!(shows(&h, "As in the base scenario."));
    command(&mut h, UiCommand::Undo);
    assert_eq!(zone_hexes(&h, "fr-zone-aile-droite").len(), 6, "undone");
    command(&mut h, UiCommand::Redo);
    // Saved, the variant no longer replaces the zone.
    command(&mut h, UiCommand::Save);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let saved = std::fs::read_to_string(&variant).expect("saved");
    assert!(!saved.contains("fr-zone-aile-droite"), "{saved}");

    // A zone the variant leaves alone.
    let other = scenario_of(&h)
        .zones
        .iter()
        .position(|z| z.id.as_str() == "fr-zone-centre")
        .expect("zone");
    select_scrolling(&mut h, Sel::Zone(other));
    assert!(!shows(&h, "Replaced in this variant"));
}
