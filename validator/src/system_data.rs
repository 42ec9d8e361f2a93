//! A miniatures system's own data held together (E1011): what a system file says of itself
//! must be usable by the scenarios that name it, whatever the scenario. A rating whose values
//! no number or word can take (`Range(min: 5, max: 1)`, `OneOf([])`), a troop type that needs
//! a rating the system does not define or stands on a base a figure scale lacks, brigade bounds
//! upside down, movement or national-table lines for troop types that do not exist, a named
//! modifier for a leader rating that does not exist: each is refused where it is written, as a
//! map's legend is checked against its rows. Without it `validate systems/` passes a file that
//! the table then cannot lay out, or that refuses every unit for a reason it does not say. A
//! name the JSON Schema refuses (`"BAD X"`, not an id) is told by its E0105 alone
//! ([`Sink::push_about`]): it was counted again as an E1011 beyond the bound.

use bataille_schema::DocumentKind;
use bataille_schema::system::{System, Values};

use crate::codes::Code;
use crate::context::key_pointer;
use crate::diagnostic::Diagnostic;
use crate::sink::Sink;

const SYSTEM: DocumentKind = DocumentKind::System;

/// Every contradiction in the system's own tables, located.
pub(crate) fn system_data(system: &System, out: &mut Sink<'_>) {
    let e1011 = |pointer: String, message: String, help: &'static str| {
        Diagnostic::new(Code::E1011, SYSTEM, pointer, message).help(help)
    };
    for (field, ratings) in [
        ("/ratings", &system.ratings),
        ("/leader_ratings", &system.leader_ratings),
    ] {
        for (name, spec) in ratings {
            let at = format!("{}/values", key_pointer(field, name.as_str()));
            match &spec.values {
                Values::Range { min, max } if min > max => out.push(e1011(
                    at,
                    format!(
                        "rating `{name}` takes whole numbers from {min} to {max}: none is both"
                    ),
                    "write the smaller bound as `min`",
                )),
                Values::OneOf(words) if words.is_empty() => out.push(e1011(
                    at,
                    format!("rating `{name}` takes one of no words: no unit can carry it"),
                    "list the words the rules give for it",
                )),
                Values::OneOf(words) => {
                    for (k, word) in words.iter().enumerate() {
                        if words[..k].contains(word) {
                            out.push(e1011(
                                format!("{at}/OneOf/{k}"),
                                format!("rating `{name}` lists the word `{word}` twice"),
                                "list each word once",
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    for (id, troop) in &system.troop_types {
        let at = key_pointer("/troop_types", id.as_str());
        for (k, need) in troop.needs.iter().enumerate() {
            if !system.ratings.contains_key(need) {
                out.push_about(
                    e1011(
                        format!("{at}/needs/{k}"),
                        format!(
                            "troop type `{id}` needs rating `{need}`, which the system does not define in `ratings`"
                        ),
                        "define the rating in `ratings`, or correct its name",
                    ),
                    need.is_refused(),
                );
            }
        }
        for (scale, figure_scale) in &system.figure_scales {
            if !figure_scale.bases.contains_key(&troop.base) {
                out.push_about(e1011(
                    format!("{at}/base"),
                    format!(
                        "troop type `{id}` stands on base `{}`, which figure scale `{scale}` does not size",
                        troop.base
                    ),
                    "give the base a frontage and depth in every figure scale's `bases`",
                ), troop.base.is_refused());
            }
        }
        if let Some(stands) = troop.stands
            && stands.min > stands.max
        {
            out.push(e1011(
                format!("{at}/stands"),
                format!(
                    "troop type `{id}` takes from {} to {} stands: no unit can",
                    stands.min, stands.max
                ),
                "write the smaller bound as `min`",
            ));
        }
    }
    for (scale, figure_scale) in &system.figure_scales {
        let scale_at = key_pointer("/figure_scales", scale.as_str());
        for id in figure_scale.movement.keys() {
            if !system.troop_types.contains_key(id) {
                out.push_about(e1011(
                    key_pointer(&format!("{scale_at}/movement"), id.as_str()),
                    format!("figure scale `{scale}` moves troop type `{id}`, which the system does not have"),
                    "name a troop type of `troop_types`",
                ), id.is_refused());
            }
        }
    }
    for (nation, table) in &system.national_tables {
        let table_at = key_pointer("/national_tables", nation.as_str());
        for id in table.entries.keys() {
            if !system.troop_types.contains_key(id) {
                out.push_about(e1011(
                    key_pointer(&format!("{table_at}/entries"), id.as_str()),
                    format!("national table `{nation}` has a line for troop type `{id}`, which the system does not have"),
                    "name a troop type of `troop_types`",
                ), id.is_refused());
            }
        }
    }
    for (k, modifier) in system.named_modifiers.iter().enumerate() {
        if !system.leader_ratings.contains_key(&modifier.rating) {
            out.push_about(e1011(
                format!("/named_modifiers/{k}/rating"),
                format!(
                    "a named modifier sets leader rating `{}`, which the system does not define in `leader_ratings`",
                    modifier.rating
                ),
                "define the rating in `leader_ratings`, or correct its name",
            ), modifier.rating.is_refused());
        }
    }
}
