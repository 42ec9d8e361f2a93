//! An opened variant's counters against its base (issue 25): each changed field with its
//! base's value and the edit that puts it back (one undoable step through the command
//! handler), for the inspector and the order-of-battle forms; a deployment zone the variant
//! replaces, with the base's zone and the edit that puts it back.

use std::collections::BTreeMap;

use bataille_schema::scenario::{Commander, LineLeader, Owner, Rating, Unit, Zone};
use bataille_schema::{Id, Scenario};

use crate::model::history::Change;
use crate::model::scenario_edit::{CounterAt, Item, ItemPath, ScenarioChange, describe_placement};
use crate::model::variant::VariantOrigin;

/// A field of a counter that an opened variant changes: its value now, its base's, and the
/// edit that puts the base's back (one undoable step through the command handler).
#[derive(Debug, Clone, PartialEq)]
pub struct BaseValue {
    /// The field as the panels name it (`"CP"`).
    pub field: &'static str,
    pub now: String,
    pub base: String,
    pub reset: Vec<Change>,
}

/// How a counter of an opened variant stands against the base.
#[derive(Debug, Clone, PartialEq)]
pub enum CounterBase {
    /// The base has no counter of this id: the variant adds it.
    Added,
    /// The fields the variant changes (empty: none).
    Changed(Vec<BaseValue>),
}

fn optional<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_owned(), |v| v.to_string())
}

fn ratings_text(r: &BTreeMap<Id, BTreeMap<Id, Rating>>) -> String {
    let parts: Vec<String> = r
        .iter()
        .flat_map(|(system, values)| {
            values
                .iter()
                .map(move |(name, value)| format!("{system} {name} {value}"))
        })
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A field's name, how it reads, and how it is copied from the base (for one kind of item).
type Field<T> = (&'static str, fn(&T) -> String, fn(&mut T, &T));

const UNIT_FIELDS: [Field<Unit>; 10] = [
    (
        "Placement",
        |u| describe_placement(&u.placement),
        |u, b| u.placement = b.placement.clone(),
    ),
    ("Facing", |u| optional(u.facing), |u, b| u.facing = b.facing),
    (
        "Corps",
        |u| optional(u.corps.as_ref()),
        |u, b| u.corps = b.corps.clone(),
    ),
    ("CP", |u| optional(u.cp), |u, b| u.cp = b.cp),
    ("MP", |u| optional(u.mp), |u, b| u.mp = b.mp),
    ("Morale", |u| optional(u.morale), |u, b| u.morale = b.morale),
    (
        "Fire modifier",
        |u| optional(u.fire_modifier),
        |u, b| u.fire_modifier = b.fire_modifier,
    ),
    (
        "Always in command",
        |u| u.always_in_command.to_string(),
        |u, b| u.always_in_command = b.always_in_command,
    ),
    (
        "Ratings",
        |u| ratings_text(&u.ratings),
        |u, b| u.ratings = b.ratings.clone(),
    ),
    (
        "Allowed codes",
        |u| u.allow.join(", "),
        |u, b| u.allow = b.allow.clone(),
    ),
];

const COMMANDER_FIELDS: [Field<Commander>; 4] = [
    ("Name", |c| c.name.clone(), |c, b| c.name = b.name.clone()),
    (
        "Placement",
        |c| describe_placement(&c.placement),
        |c, b| c.placement = b.placement.clone(),
    ),
    (
        "Command radius",
        |c| optional(c.radius_hexes),
        |c, b| c.radius_hexes = b.radius_hexes,
    ),
    (
        "Allowed codes",
        |c| c.allow.join(", "),
        |c, b| c.allow = b.allow.clone(),
    ),
];

const LEADER_FIELDS: [Field<LineLeader>; 6] = [
    ("Name", |l| l.name.clone(), |l, b| l.name = b.name.clone()),
    (
        "Placement",
        |l| describe_placement(&l.placement),
        |l, b| l.placement = b.placement.clone(),
    ),
    (
        "Activation",
        |l| l.activation.to_string(),
        |l, b| l.activation = b.activation,
    ),
    (
        "Command radius",
        |l| optional(l.radius_hexes),
        |l, b| l.radius_hexes = b.radius_hexes,
    ),
    (
        "Always in command",
        |l| l.always_in_command.to_string(),
        |l, b| l.always_in_command = b.always_in_command,
    ),
    (
        "Allowed codes",
        |l| l.allow.join(", "),
        |l, b| l.allow = b.allow.clone(),
    ),
];

/// The fields of `now` that differ from `base`, each with `now` with that one field put back
/// (wrapped into its edit by `wrap`).
fn differences<T: Clone>(
    fields: &[Field<T>],
    now: &T,
    base: &T,
    wrap: impl Fn(T) -> Vec<Change>,
) -> Vec<BaseValue> {
    fields
        .iter()
        .filter_map(|(field, read, copy)| {
            let (n, b) = (read(now), read(base));
            (n != b).then(|| {
                let mut reset = now.clone();
                copy(&mut reset, base);
                BaseValue {
                    field,
                    now: n,
                    base: b,
                    reset: wrap(reset),
                }
            })
        })
        .collect()
}

/// How a deployment zone of an opened variant stands against the base (matched by id).
#[derive(Debug, Clone, PartialEq)]
pub enum ZoneBase {
    /// The base has no zone of this id: the variant adds it.
    Added,
    /// As in the base.
    Same,
    /// Replaced in this variant: the base's zone in words and the edit that puts it back.
    Replaced { base: String, reset: Vec<Change> },
}

fn owner_text(o: &Owner) -> String {
    match o {
        Owner::Army(id) | Owner::Corps(id) => id.to_string(),
    }
}

/// A zone in words, as the forms show the base's: its name, owner and hexes.
pub fn describe_zone(z: &Zone) -> String {
    let hexes: Vec<&str> = z.hexes.texts().collect();
    let mut text = format!(
        "{} ({}), {} hexes: {}",
        z.name,
        owner_text(&z.owner),
        hexes.len(),
        hexes.join(" ")
    );
    if !z.shared_with.is_empty() {
        let shared: Vec<String> = z.shared_with.iter().map(owner_text).collect();
        text.push_str(&format!("; shared with {}", shared.join(", ")));
    }
    text
}

impl VariantOrigin {
    /// How zone `z` of the edited scenario stands against the base's zone of the same id.
    pub fn zone_base(&self, edited: &Scenario, z: usize) -> Option<ZoneBase> {
        let zone = edited.zones.get(z)?;
        let Some(old) = self.base.zones.iter().find(|b| b.id == zone.id) else {
            return Some(ZoneBase::Added);
        };
        let same = |a: &Zone, b: &Zone| {
            let mut ah = a.hexes.clone();
            let mut bh = b.hexes.clone();
            ah.sort();
            bh.sort();
            a.name == b.name && a.owner == b.owner && a.shared_with == b.shared_with && ah == bh
        };
        if same(zone, old) {
            return Some(ZoneBase::Same);
        }
        Some(ZoneBase::Replaced {
            base: describe_zone(old),
            reset: vec![Change::Scenario(ScenarioChange::Item {
                path: ItemPath::Zone(z),
                before: Some(Item::Zone(Box::new(zone.clone()))),
                after: Some(Item::Zone(Box::new(old.clone()))),
            })],
        })
    }

    /// How the counter at `at` of the edited scenario stands against the base: added by the
    /// variant, or the fields it changes with the base's values (matched by id, as a variant
    /// changes them).
    pub fn counter_base(&self, edited: &Scenario, at: CounterAt) -> Option<CounterBase> {
        let base = &self.base;
        match at {
            CounterAt::Unit(a, u) => {
                let unit = edited.armies.get(a)?.units.get(u)?;
                let Some(old) = base
                    .armies
                    .iter()
                    .flat_map(|army| &army.units)
                    .find(|b| b.id == unit.id)
                else {
                    return Some(CounterBase::Added);
                };
                Some(CounterBase::Changed(differences(
                    &UNIT_FIELDS,
                    unit,
                    old,
                    |after| {
                        vec![Change::Scenario(ScenarioChange::Item {
                            path: ItemPath::Unit(a, u),
                            before: Some(Item::Unit(Box::new(unit.clone()))),
                            after: Some(Item::Unit(Box::new(after))),
                        })]
                    },
                )))
            }
            CounterAt::Commander(a, k) => {
                let commander = edited.armies.get(a)?.commanders.get(k)?;
                let Some(old) = base
                    .armies
                    .iter()
                    .flat_map(|army| &army.commanders)
                    .find(|b| b.id == commander.id)
                else {
                    return Some(CounterBase::Added);
                };
                Some(CounterBase::Changed(differences(
                    &COMMANDER_FIELDS,
                    commander,
                    old,
                    |after| {
                        vec![Change::Scenario(ScenarioChange::Item {
                            path: ItemPath::Commander(a, k),
                            before: Some(Item::Commander(Box::new(commander.clone()))),
                            after: Some(Item::Commander(Box::new(after))),
                        })]
                    },
                )))
            }
            CounterAt::Leader(a, c) => {
                let corps = edited.armies.get(a)?.corps.get(c)?;
                let leader = corps.leader.as_ref()?;
                let Some(old) = base
                    .armies
                    .iter()
                    .flat_map(|army| &army.corps)
                    .filter_map(|corps| corps.leader.as_ref())
                    .find(|b| b.id == leader.id)
                else {
                    return Some(CounterBase::Added);
                };
                Some(CounterBase::Changed(differences(
                    &LEADER_FIELDS,
                    leader,
                    old,
                    |after| {
                        let mut new_corps = corps.clone();
                        new_corps.leader = Some(after);
                        vec![Change::Scenario(ScenarioChange::Item {
                            path: ItemPath::Corps(a, c),
                            before: Some(Item::Corps(Box::new(corps.clone()))),
                            after: Some(Item::Corps(Box::new(new_corps))),
                        })]
                    },
                )))
            }
        }
    }
}
