//! Issue 21: a unit kind's id is edited in the scenario settings. An id the editor made follows
//! the kind's name until the user types one; a kind renamed is renamed wherever the scenario
//! names it (units, stacking terms, conversion rules), in one undo step through the one
//! command handler, and keeps moving as its old id did (the map's terrain costs name it).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_schema::Id;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{By, Queryable};

use common::*;

/// Replaces the text of the (last) field labelled `label` that holds `value`.
fn replace(h: &mut H, label: &str, value: &str, text: &str) {
    fn last<'h>(h: &'h H, label: &'h str, value: &'h str) -> egui_kittest::Node<'h> {
        h.get_all(By::new().label(label).value(value))
            .last()
            .expect("the field")
    }
    for _ in 0..2 {
        last(h, label, value).scroll_to_me();
        h.run();
    }
    last(h, label, value).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    last(h, label, value).type_text(text);
    h.run();
}

fn apply(h: &mut H) {
    for _ in 0..2 {
        h.get_by_label("Apply").scroll_to_me();
        h.run();
    }
    h.get_by_label("Apply").click();
    h.run();
}

fn errors(h: &H) -> Vec<String> {
    h.state()
        .services
        .diagnostics
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect()
}

fn open_settings(h: &mut H) {
    h.get_by_label("⚙ Settings…").click();
    h.run();
    h.get_by_label("Scenario settings");
}

/// Denain's cavalry renamed `horse` in the settings: the kind, every cavalry unit, the stacking
/// compositions and the miniatures conversion rules name `horse`; it still moves as `cavalry`
/// (the map's forest is impassable to `cavalry`); no error appears; one undo puts it all back.
#[test]
fn a_unit_kinds_id_is_edited_and_followed_everywhere_in_one_undo_step() {
    let (_dir, _path, mut h) = open_denain();
    let before = scenario_of(&h).clone();
    let errors_before = errors(&h);
    let cavalry = Id::from("cavalry");
    let count = |s: &bataille_schema::Scenario, id: &Id| {
        s.armies
            .iter()
            .flat_map(|a| &a.units)
            .filter(|u| &u.kind == id)
            .count()
    };
    let units = count(&before, &cavalry);
    assert!(units > 0, "Denain has cavalry");
    open_settings(&mut h);
    replace(&mut h, "id", "cavalry", "horse");
    apply(&mut h);
    let after = scenario_of(&h).clone();
    let horse = Id::from("horse");
    assert!(!after.rules.unit_kinds.contains_key(&cavalry));
    let kind = &after.rules.unit_kinds[&horse];
    assert_eq!(kind.name, "Cavalerie");
    assert_eq!(kind.moves_as.as_ref(), Some(&cavalry), "moves as before");
    assert_eq!(count(&after, &horse), units, "every cavalry unit follows");
    assert_eq!(count(&after, &cavalry), 0);
    let named_in_stacks = |s: &bataille_schema::Scenario, id: &Id| {
        s.rules
            .stacking
            .compositions
            .iter()
            .flat_map(|c| &c.terms)
            .filter(|t| t.kinds.contains(id))
            .count()
    };
    assert_eq!(
        named_in_stacks(&after, &horse),
        named_in_stacks(&before, &cavalry)
    );
    let named_in_conversions = |s: &bataille_schema::Scenario, id: &Id| {
        s.miniatures
            .iter()
            .flat_map(|m| &m.convert)
            .filter(|r| r.kinds.contains(id))
            .count()
    };
    assert!(named_in_conversions(&before, &cavalry) > 0);
    assert_eq!(
        named_in_conversions(&after, &horse),
        named_in_conversions(&before, &cavalry)
    );
    assert_eq!(errors(&h), errors_before, "no error made by the rename");
    // One undo step, named after what it did.
    assert_eq!(
        h.state().doc.history().undo_label(),
        Some("Unit kind cavalry → horse")
    );
    h.state_mut().execute(bataille_editor::UiCommand::Undo);
    h.run();
    assert_eq!(scenario_of(&h), &before);
}

/// A kind added in the settings takes its id from its name, and follows the name until an id
/// is typed; two kinds may not share an id.
#[test]
fn a_new_kinds_id_follows_its_name_until_one_is_typed() {
    let (_dir, _path, mut h) = open_denain();
    open_settings(&mut h);
    for _ in 0..2 {
        h.get_by_label("Add unit kind").scroll_to_me();
        h.run();
    }
    h.get_by_label("Add unit kind").click();
    h.run();
    // "Kind 6" (kind-6), named Hussards: its id follows.
    h.get(By::new().label("id").value("kind-6"));
    replace(&mut h, "name", "Kind 6", "Hussards");
    h.get(By::new().label("id").value("hussards"));
    // An id typed the same as another kind's is refused with a message.
    replace(&mut h, "id", "hussards", "dragoons");
    apply(&mut h);
    h.get_by_label_contains("two kinds would have the id `dragoons`");
    // A typed id stays when the name changes again.
    replace(&mut h, "id", "dragoons", "hussars");
    replace(&mut h, "name", "Hussards", "Husars");
    h.get(By::new().label("id").value("hussars"));
    apply(&mut h);
    let kinds = &scenario_of(&h).rules.unit_kinds;
    assert_eq!(kinds[&Id::from("hussars")].name, "Husars");
    assert_eq!(
        kinds[&Id::from("hussars")].moves_as,
        None,
        "a new kind moves as itself"
    );
}
