//! The unit form's ratings under each miniatures system the scenario supports (issue 13): one
//! section per system of `miniatures`, one row per rating the system file defines (its name,
//! description and allowed values come from the file: a range, a list of words, or one of the
//! system's own tables — nothing here knows Age of Honor or the Louis XIV rules). A row shows
//! the value the scenario's conversion rules derive for the unit and lets the user override it
//! (`Unit::ratings[system][rating]`) or go back to the derived value. The form edits the unit's
//! draft: the change goes through the order-of-battle panel's one edit, undoable like the rest.

use std::collections::BTreeMap;

use bataille_schema::bounds::Bounds;
use bataille_schema::scenario::{Army, MiniaturesUse, Rating, Unit};
use bataille_schema::system::{RatingSpec, System, TableName, Values, expand_unit};
use bataille_schema::{Id, Scenario};
use egui::Ui;

use crate::panels::field::{Field, LABEL_WIDTH, optional_number};
use crate::services::systems::Loaded;

/// The number fields, by (system, rating), each with its last value refused.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RatingTexts {
    pub fields: BTreeMap<(Id, Id), Field>,
}

/// The ids (and names) of one of the system's tables.
pub fn table_choices(system: &System, table: TableName) -> Vec<(String, String)> {
    fn named<T>(map: &BTreeMap<Id, T>, name: impl Fn(&T) -> &str) -> Vec<(String, String)> {
        map.iter()
            .map(|(id, t)| (id.to_string(), format!("{} ({id})", name(t))))
            .collect()
    }
    match table {
        TableName::TroopTypes => named(&system.troop_types, |t| &t.name),
        TableName::FireTypes => named(&system.fire_types, |t| &t.name),
        TableName::ArtilleryClasses => named(&system.artillery_classes, |t| &t.name),
        TableName::CavalryTypes => named(&system.cavalry_types, |t| &t.name),
        TableName::NationalTables => named(&system.national_tables, |t| &t.name),
    }
}

/// The words a rating may take, or the ids (and names) of the system's table it names; none
/// for a range.
fn word_choices(values: &Values, system: &System) -> Vec<(String, String)> {
    match values {
        Values::OneOf(words) => words.iter().map(|w| (w.clone(), w.clone())).collect(),
        Values::Table(table) => table_choices(system, *table),
        Values::Range { .. } => Vec::new(),
    }
}

/// The unit's own value of a rating, if it sets one.
fn own<'u>(unit: &'u Unit, system: &Id, rating: &Id) -> Option<&'u Rating> {
    unit.ratings.get(system).and_then(|r| r.get(rating))
}

/// Sets (or, with `None`, removes) the unit's own value of a rating.
pub fn set_own(unit: &mut Unit, system: &Id, rating: &Id, value: Option<Rating>) {
    match value {
        Some(value) => {
            unit.ratings
                .entry(system.clone())
                .or_default()
                .insert(rating.clone(), value);
        }
        None => {
            if let Some(map) = unit.ratings.get_mut(system) {
                map.remove(rating);
                if map.is_empty() {
                    unit.ratings.remove(system);
                }
            }
        }
    }
}

/// The value the scenario's conversion rules give the unit, without its own override.
fn derived(
    army: &Army,
    unit: &Unit,
    used: &MiniaturesUse,
    system: &System,
    rating: &Id,
) -> Option<Rating> {
    let mut bare = unit.clone();
    set_own(&mut bare, &used.system, rating, None);
    expand_unit(army, &bare, used, Some(system))
        .ratings
        .get(rating)
        .cloned()
}

/// The rows in order: the troop type, what the unit's troop type needs, then the rest.
fn rows<'s>(system: &'s System, troop: Option<&str>) -> Vec<(&'s Id, &'s RatingSpec)> {
    let needs: Vec<&Id> = troop
        .and_then(|t| system.troop_types.get(t))
        .map(|t| t.needs.iter().collect())
        .unwrap_or_default();
    let rank = |id: &Id| {
        if id.as_str() == "troop_type" {
            0
        } else if needs.contains(&id) {
            1
        } else {
            2
        }
    };
    let mut rows: Vec<(&Id, &RatingSpec)> = system.ratings.iter().collect();
    rows.sort_by_key(|(id, _)| rank(id));
    rows
}

/// The ratings sections of a unit's form; returns whether the unit changed (commit it).
pub fn ratings_ui(
    ui: &mut Ui,
    s: &Scenario,
    army: usize,
    unit: &mut Unit,
    systems: &[(Id, Loaded)],
    state: &mut RatingTexts,
) -> bool {
    if s.miniatures.is_empty() {
        return false;
    }
    let Some(army) = s.armies.get(army) else {
        return false;
    };
    let mut changed = false;
    for used in &s.miniatures {
        let loaded = systems.iter().find(|(id, _)| *id == used.system);
        ui.separator();
        let system = match loaded.map(|(_, l)| &**l) {
            Some(Ok(system)) => system,
            Some(Err(e)) => {
                ui.strong(format!("{} ratings", used.system));
                ui.colored_label(egui::Color32::from_rgb(230, 80, 70), e);
                continue;
            }
            None => {
                ui.strong(format!("{} ratings", used.system));
                ui.weak("Loading the system…");
                continue;
            }
        };
        let expanded = expand_unit(army, unit, used, Some(system));
        egui::CollapsingHeader::new(format!("{} ratings", system.name))
            .id_salt(("ratings", used.system.as_str()))
            .default_open(true)
            .show(ui, |ui| {
                let troop = expanded.text("troop_type").map(str::to_owned);
                let summary = [
                    troop
                        .as_deref()
                        .and_then(|t| system.troop_types.get(t))
                        .map(|t| t.name.clone()),
                    expanded.number("units").map(|n| format!("{n} units")),
                    expanded.number("stands").map(|n| format!("{n} stands")),
                    expanded.number("bases").map(|n| format!("{n} bases")),
                    expanded.number("figures").map(|n| format!("{n} figures")),
                ];
                let summary: Vec<String> = summary.into_iter().flatten().collect();
                if !summary.is_empty() {
                    ui.weak(summary.join(" · "));
                }
                ui.weak("Empty or “derived”: the scenario's conversion rules decide.");
                for (rating, spec) in rows(system, troop.as_deref()) {
                    let derived = derived(army, unit, used, system, rating);
                    let current = own(unit, &used.system, rating).cloned();
                    if let Some(value) = rating_row(
                        ui,
                        current,
                        &used.system,
                        rating,
                        spec,
                        system,
                        derived,
                        state,
                    ) {
                        set_own(unit, &used.system, rating, value);
                        changed = true;
                    }
                }
            });
    }
    changed
}

/// One rating's row: `current` is the value set (an override), `derived` the one the rules
/// give. Returns the new value set (`Some(None)`: back to derived) when the user changed it.
#[allow(clippy::too_many_arguments)]
fn rating_row(
    ui: &mut Ui,
    current: Option<Rating>,
    system_id: &Id,
    rating: &Id,
    spec: &RatingSpec,
    system: &System,
    derived: Option<Rating>,
    state: &mut RatingTexts,
) -> Option<Option<Rating>> {
    let mut changed = None;
    let derived_text = derived
        .as_ref()
        .map_or_else(|| "none".to_owned(), ToString::to_string);
    ui.horizontal(|ui| {
        let l = ui
            .add_sized(
                [LABEL_WIDTH, 18.0],
                egui::Label::new(rating.as_str()).truncate(),
            )
            .on_hover_text(&spec.description);
        match &spec.values {
            Values::Range { min, max } => {
                let key = (system_id.clone(), rating.clone());
                let field = state.fields.entry(key.clone()).or_insert_with(|| {
                    Field::new(
                        current
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                    )
                });
                let hint = format!("derived {derived_text} ({min}–{max})");
                let hover = format!("{} — {min} to {max}", spec.description);
                if field.edit(ui, &hint, (l.id, &hover), false) {
                    let range = Bounds {
                        min: *min,
                        max: *max,
                    };
                    let read = |t: &str| optional_number(t, range, rating.as_str());
                    if let Some(value) = field.read(read) {
                        field.settle();
                        let value = value.map(Rating::Number);
                        // (Focus is reported lost in two frames: the second reads nothing.)
                        if value != current {
                            changed = Some(value);
                        }
                    }
                }
            }
            values @ (Values::OneOf(_) | Values::Table(_)) => {
                let choices = word_choices(values, system);
                changed = choice(
                    ui,
                    system_id,
                    rating,
                    &choices,
                    &current,
                    &derived_text,
                    l.id,
                );
            }
        }
    });
    if let Some(field) = state.fields.get(&(system_id.clone(), rating.clone())) {
        field.error_ui(ui);
    }
    changed
}

/// A list of words or table ids, with "derived" first; returns the new choice, if changed.
fn choice(
    ui: &mut Ui,
    system_id: &Id,
    rating: &Id,
    choices: &[(String, String)],
    current: &Option<Rating>,
    derived_text: &str,
    label: egui::Id,
) -> Option<Option<Rating>> {
    let current_text = current.as_ref().and_then(Rating::text).map(str::to_owned);
    let shown = match &current_text {
        Some(v) => choices
            .iter()
            .find(|(id, _)| id == v)
            .map_or_else(|| format!("{v} (unknown)"), |(_, name)| name.clone()),
        None => format!("derived: {derived_text}"),
    };
    let mut pick: Option<Option<String>> = None;
    egui::ComboBox::from_id_salt(("rating", system_id.as_str(), rating.as_str()))
        .selected_text(shown)
        .width(ui.available_width().max(80.0) - 8.0)
        .truncate()
        .show_ui(ui, |ui| {
            if ui
                .selectable_label(current_text.is_none(), format!("derived: {derived_text}"))
                .clicked()
            {
                pick = Some(None);
            }
            for (id, name) in choices {
                if ui
                    .selectable_label(current_text.as_deref() == Some(id.as_str()), name)
                    .clicked()
                {
                    pick = Some(Some(id.clone()));
                }
            }
        })
        .response
        .labelled_by(label);
    pick.filter(|p| *p != current_text)
        .map(|p| p.map(Rating::Text))
}

/// A leader's ratings under each system (`miniatures[].leaders[id]`, the system's
/// `leader_ratings`): the value set, or the one the system's named table gives a commander in
/// chief. Returns the edit when one was made (one undo step).
pub fn leader_ratings_ui(
    ui: &mut Ui,
    s: &Scenario,
    leader: (&Id, &str, bool),
    systems: &[(Id, Loaded)],
    state: &mut RatingTexts,
) -> Option<(String, Vec<crate::model::history::Change>)> {
    let (id, name, commander) = leader;
    let mut edit = None;
    for (m, used) in s.miniatures.iter().enumerate() {
        let Some(Ok(system)) = systems
            .iter()
            .find(|(sid, _)| *sid == used.system)
            .map(|(_, l)| &**l)
        else {
            continue;
        };
        if system.leader_ratings.is_empty() {
            continue;
        }
        ui.separator();
        let own = used.leaders.get(id);
        let mut bare = used.clone();
        bare.leaders.remove(id);
        let derived =
            bataille_schema::system::expand_leader(id, name, commander, &bare, Some(system));
        egui::CollapsingHeader::new(format!("{} ratings", system.name))
            .id_salt(("leader-ratings", used.system.as_str()))
            .default_open(true)
            .show(ui, |ui| {
                ui.weak("Empty or “derived”: the system's named table decides (commanders).");
                for (rating, spec) in &system.leader_ratings {
                    let current = own.and_then(|r| r.get(rating)).cloned();
                    let value = rating_row(
                        ui,
                        current,
                        &used.system,
                        rating,
                        spec,
                        system,
                        derived.get(rating).cloned(),
                        state,
                    );
                    if let Some(value) = value {
                        let mut after = own.cloned().unwrap_or_default();
                        match value {
                            Some(v) => {
                                after.insert(rating.clone(), v);
                            }
                            None => {
                                after.remove(rating);
                            }
                        }
                        let change = crate::model::scenario_edit::ScenarioChange::LeaderRatings {
                            system: m,
                            leader: id.clone(),
                            before: own.cloned(),
                            after: (!after.is_empty()).then_some(after),
                        };
                        edit = Some((
                            format!("{} rating of {name}", system.name),
                            vec![crate::model::history::Change::Scenario(change)],
                        ));
                    }
                }
            });
    }
    edit
}
