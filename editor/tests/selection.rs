//! The selection names things by id: after a delete, an undo or a redo that shifts the items
//! listed before it, the selected unit is still the same unit (its form, the inspector), not
//! its neighbour that took its index.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::AppCommand;
use bataille_editor::model::delete::delete_unit;
use bataille_editor::panels::oob::{DockTab, Sel};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::*;

/// A 12 × 10 map and a scenario with Navarre, Far away and Reserve, in that order.
fn open() -> (tempfile::TempDir, H) {
    scenario_app(vec![
        unit("navarre", "Navarre", "aile", Some("0505")),
        unit("far", "Far away", "aile", Some("1109")),
        unit("reserve", "Reserve", "aile", None),
    ])
}

/// The text of the form's Name field.
fn form_name(h: &H) -> String {
    h.get_by_label("Name").value().unwrap_or_default()
}

/// The inspector's title of the selected counter is shown.
fn inspector_shows(h: &mut H, title: &str) -> bool {
    h.state_mut().panels.right_dock.tab = DockTab::Inspector;
    h.run();
    let shown = h.query_by_label_contains(title).is_some();
    h.state_mut().panels.right_dock.tab = DockTab::Oob;
    h.run();
    shown
}

#[test]
fn undoing_the_creation_of_a_unit_listed_before_keeps_the_selected_unit() {
    let (_dir, mut h) = open();
    // A copy of Navarre, inserted after it: the reserve moves from 2 to 3.
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    h.get_by_label("Duplicate").click();
    h.run();
    assert_eq!(scenario_of(&h).armies[0].units.len(), 4);
    h.state_mut().select(Some(Sel::Unit(0, 3)));
    h.run();
    assert_eq!(form_name(&h), "Reserve");

    // Undo takes the copy away: the reserve is back at 2, and still selected.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(scenario_of(&h).armies[0].units.len(), 3);
    assert_eq!(h.state().ui.selection.item, Some(Sel::Unit(0, 2)));
    assert_eq!(form_name(&h), "Reserve");
    assert!(inspector_shows(&mut h, "Reserve (reserve)"));

    // Redo brings the copy back: the reserve follows to 3.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(scenario_of(&h).armies[0].units.len(), 4);
    assert_eq!(h.state().ui.selection.item, Some(Sel::Unit(0, 3)));
    assert_eq!(form_name(&h), "Reserve");
}

#[test]
fn deleting_a_unit_listed_before_keeps_the_selected_unit_and_deleting_it_selects_nothing() {
    let (_dir, mut h) = open();
    h.state_mut().select(Some(Sel::Unit(0, 2)));
    h.run();
    assert_eq!(form_name(&h), "Reserve");
    let (label, changes) = delete_unit(scenario_of(&h), 0, 0);
    h.state_mut().request(AppCommand::Edit { label, changes });
    h.run();
    assert_eq!(scenario_of(&h).armies[0].units.len(), 2);
    assert_eq!(h.state().ui.selection.item, Some(Sel::Unit(0, 1)));
    assert_eq!(form_name(&h), "Reserve");
    assert!(inspector_shows(&mut h, "Reserve (reserve)"));

    // The selected unit itself deleted: nothing is selected, not the unit after it.
    h.state_mut().select(Some(Sel::Unit(0, 0)));
    h.run();
    assert_eq!(form_name(&h), "Far away");
    let (label, changes) = delete_unit(scenario_of(&h), 0, 0);
    h.state_mut().request(AppCommand::Edit { label, changes });
    h.run();
    assert_eq!(h.state().ui.selection.item, None);
    assert!(!inspector_shows(&mut h, "Reserve (reserve)"));
}
