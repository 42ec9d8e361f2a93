//! A scenario variant: a what-if over a published set-up (an earlier arrival, a camp reinforced,
//! a redoubt never built), written as the changes it makes to its base scenario, each naming
//! what it changes by **id**, never by list position, so a fix to the base reaches every
//! variant and a change to the base that removes what a variant names is reported, not
//! silently applied to something else.
//!
//! ```ron
//! Variant(
//!     format_version: 1,
//!     name: "Eugène arrives at noon",
//!     base: "denain-1712.ron",
//!     turns: 11,
//!     units: {"al-eugene-dragons": (placement: Reinforcement(turn: 1, entry: ["2719"]))},
//!     leaders: {"al-eugene": (placement: Hex("2918"))},
//!     remove_units: ["fr-baggage-2"],
//! )
//! ```
//!
//! [`resolve`] applies a variant to its base and gives the resolved [`Scenario`], the
//! [`Problem`]s of the changes themselves (an id the base lacks, a change that changes
//! nothing, two changes that contradict each other, a change that does not fit what it names)
//! and a [`Trace`] from every place of the resolved scenario to the change it comes from (or
//! to its place in the base), so a diagnostic about a changed counter points at the change.

use std::collections::{BTreeMap, HashMap, HashSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bounds;
use crate::common::{HexName, Id, Side};
use crate::scenario::{
    HoldCondition, LeaderLoss, Objective, Owner, Placement, Rating, ReinforcementEntry, Scenario,
    Unit, UnitObjective, VictoryCondition, Zone,
};
use crate::source::push_pointer;

/// The newest variant format this build reads and writes.
pub const VARIANT_FORMAT_VERSION: u32 = 1;

/// A variant: one file in `scenarios/` beside its base, starting `Variant(`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The version of the file format; files from a newer version are refused with a message.
    #[schemars(range(min = 1))]
    pub format_version: u32,
    /// The variant's name, shown after the base's title (`"Eugène arrives at noon"`).
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// The base scenario, relative to this file (`"denain-1712.ron"`), inside the repository.
    #[schemars(length(min = 1, max = 400))]
    pub base: String,
    /// What the variant supposes and why (printed in the kit, shown in the module).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// What the what-if rests on: books, letters, orders of battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 100))]
    pub sources: Vec<String>,
    /// The number of game turns, when the variant changes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::TURNS.min, max = bounds::TURNS.max))]
    pub turns: Option<u32>,
    /// Changes to units, by unit id.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub units: BTreeMap<Id, UnitChange>,
    /// Changes to leaders (commanders in chief and line leaders), by leader id.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub leaders: BTreeMap<Id, LeaderChange>,
    /// Units the base does not have, each with the army it joins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_units: Vec<AddedUnit>,
    /// Units of the base left out, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_units: Vec<Id>,
    /// Deployment zones replaced, by zone id.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub zones: BTreeMap<Id, ZoneChange>,
    /// Deployment zones the base does not have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_zones: Vec<Zone>,
    /// Changes to the victory conditions.
    #[serde(default, skip_serializing_if = "VictoryChange::is_empty")]
    pub victory: VictoryChange,
    /// Changes to the rule switches the scenario already has.
    #[serde(default, skip_serializing_if = "RuleChanges::is_empty")]
    pub rules: RuleChanges,
}

/// A change to a unit: each field given replaces the base's value.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitChange {
    /// Where it starts (a hex, free in a zone, or as a reinforcement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// A reinforcement's turn of arrival (its entry hexes kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::REINFORCEMENT_TURN.min))]
    pub turn: Option<u32>,
    /// A reinforcement's entry hexes (its turn kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub entry: Option<Vec<HexName>>,
    /// The side its front faces through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Side>,
    /// The corps it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_CP.max))]
    pub cp: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_MP.max))]
    pub mp: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_MORALE.max))]
    pub morale: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::FIRE_MODIFIER.min, max = bounds::FIRE_MODIFIER.max))]
    pub fire_modifier: Option<i8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always_in_command: Option<bool>,
    /// Ratings under other rules systems, by system then rating: each one given replaces the
    /// base's (the others are kept).
    #[serde(
        deserialize_with = "crate::unique::deserialize_nested",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub ratings: BTreeMap<Id, BTreeMap<Id, Rating>>,
    /// Diagnostic codes allowed for this counter in the variant, added to the base's.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// A change to a leader (a commander in chief or a line leader).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderChange {
    /// Its name (a commander replaced by another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 120))]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// A reinforcement's turn of arrival.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::REINFORCEMENT_TURN.min))]
    pub turn: Option<u32>,
    /// A reinforcement's entry hexes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub entry: Option<Vec<HexName>>,
    /// A line leader's activation value (8.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::ACTIVATION.min, max = bounds::ACTIVATION.max))]
    pub activation: Option<u8>,
    /// Command radius in hexes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::RADIUS_HEXES.max))]
    pub radius_hexes: Option<u32>,
    /// A line leader always in command (8.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always_in_command: Option<bool>,
    /// Ratings under a miniatures system the scenario supports, by system then rating.
    #[serde(
        deserialize_with = "crate::unique::deserialize_nested",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub ratings: BTreeMap<Id, BTreeMap<Id, Rating>>,
    /// Diagnostic codes allowed for this counter in the variant, added to the base's.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// A unit the base does not have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddedUnit {
    /// The army it joins.
    pub army: Id,
    pub unit: Unit,
}

/// A deployment zone replaced: each field given replaces the base's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 120))]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hexes: Option<crate::HexList>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_with: Option<Vec<Owner>>,
}

/// Changes to the victory conditions.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictoryChange {
    /// Conditions, each replacing the base's condition of the same kind for the same side
    /// (its id), or added when the base has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<VictoryCondition>,
    /// Conditions of the base left out, each named by its kind and side
    /// (`(kind: Exit, side: "allies")`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_conditions: Vec<ConditionKey>,
    /// Victory hexes by hex: each replaces the base's objective on that hex, or is added.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub objectives: BTreeMap<HexName, ObjectiveChange>,
    /// Victory hexes of the base left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_objectives: Vec<HexName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_per_enemy_cp_eliminated: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_per_enemy_unit_routed: Option<u32>,
    /// The results won by holding hexes, replacing the base's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<Vec<HoldCondition>>,
    /// The units worth victory points, replacing the base's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_objectives: Option<Vec<UnitObjective>>,
    /// The leaders whose loss decides the game, replacing the base's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_losses: Option<Vec<LeaderLoss>>,
    /// The victory notes, replacing the base's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
}

impl VictoryChange {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The kind of a victory condition.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum ConditionKind {
    Exit,
    FirstToDestroy,
    LossThreshold,
    PointsPerEnemyStrength,
}

impl ConditionKind {
    /// The kind of a condition.
    pub fn of(condition: &VictoryCondition) -> ConditionKind {
        match condition {
            VictoryCondition::Exit { .. } => ConditionKind::Exit,
            VictoryCondition::FirstToDestroy { .. } => ConditionKind::FirstToDestroy,
            VictoryCondition::LossThreshold { .. } => ConditionKind::LossThreshold,
            VictoryCondition::PointsPerEnemyStrength { .. } => {
                ConditionKind::PointsPerEnemyStrength
            }
        }
    }

    /// Its name as written in a file.
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionKind::Exit => "Exit",
            ConditionKind::FirstToDestroy => "FirstToDestroy",
            ConditionKind::LossThreshold => "LossThreshold",
            ConditionKind::PointsPerEnemyStrength => "PointsPerEnemyStrength",
        }
    }
}

/// A victory condition named by its kind and its side (what identifies it in a variant).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct ConditionKey {
    pub kind: ConditionKind,
    /// The side or army it is for.
    pub side: Id,
}

impl ConditionKey {
    /// The key of a condition.
    pub fn of(condition: &VictoryCondition) -> ConditionKey {
        ConditionKey {
            kind: ConditionKind::of(condition),
            side: condition.side().clone(),
        }
    }
}

/// A victory hex as a variant gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveChange {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    pub points: u32,
}

/// Changes to the rule switches a scenario already has (its command structure, how
/// reinforcements enter).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleChanges {
    #[serde(default, skip_serializing_if = "CommandChange::is_empty")]
    pub command: CommandChange,
    /// How reinforcements enter (Denain 13.2: in column).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reinforcements: Option<ReinforcementEntry>,
}

impl RuleChanges {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Changes to the command rules: each field given replaces the base's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::RADIUS_HEXES.min, max = bounds::RADIUS_HEXES.max))]
    pub commander_radius_hexes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::RADIUS_HEXES.min, max = bounds::RADIUS_HEXES.max))]
    pub leader_radius_hexes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked_by_enemy_front_and_flank: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_of_battle: Option<bool>,
}

impl CommandChange {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl Variant {
    /// Puts the variant in canonical form: the zones' hexes sorted without repeats, the
    /// removal lists sorted (repeats kept: the checks report them).
    pub fn canonicalize(&mut self) {
        self.remove_units.sort();
        self.victory.remove_objectives.sort();
        self.victory.remove_conditions.sort();
        for zone in self.zones.values_mut() {
            if let Some(hexes) = &mut zone.hexes {
                hexes.sort();
                hexes.dedup();
            }
        }
        for zone in &mut self.add_zones {
            zone.hexes.sort();
            zone.hexes.dedup();
        }
    }

    /// The resolved scenario's title: the base's, then the variant's name.
    pub fn title_over(&self, base_title: &str) -> String {
        format!("{base_title} — {}", self.name)
    }
}

/// What is wrong with a change itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// It names an id (or a hex, a system) the base lacks.
    UnknownId,
    /// It gives what the base already has.
    NoChange,
    /// Two changes contradict each other.
    Contradiction,
    /// It does not fit what it names (a turn of arrival for a counter that is no reinforcement,
    /// an activation value for a commander in chief).
    DoesNotFit,
}

/// A problem of a change, at its place in the variant (a JSON pointer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub pointer: String,
    pub message: String,
    /// The other change, for a contradiction.
    pub other: Option<String>,
    /// The id concerned.
    pub subject: Option<String>,
}

/// Where a value of the resolved scenario comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The change in the variant that made it (pointer into the variant).
    pub variant: Option<String>,
    /// Its place in the base (pointer into the base); `None` for a value the variant added.
    pub base: Option<String>,
}

/// From places of the resolved scenario (JSON pointers) to the variant's changes and the base.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// By pointer prefix of the resolved scenario.
    places: HashMap<String, Origin>,
    /// By id: the change that concerns it (a unit, leader or zone changed, added or removed).
    ids: HashMap<String, String>,
}

impl Trace {
    fn entry<'a>(&'a self, pointer: &'a str) -> Option<(&'a Origin, &'a str)> {
        let mut prefix = pointer;
        loop {
            if let Some(origin) = self.places.get(prefix) {
                return Some((origin, &pointer[prefix.len()..]));
            }
            match prefix.rfind('/') {
                Some(cut) => prefix = &prefix[..cut],
                None => return None,
            }
        }
    }

    /// The change a place of the resolved scenario comes from, as a pointer into the variant
    /// (the rest of the path kept: it resolves to the nearest part of the change written).
    pub fn to_variant(&self, pointer: &str) -> Option<String> {
        let (origin, rest) = self.entry(pointer)?;
        origin.variant.as_ref().map(|v| format!("{v}{rest}"))
    }

    /// The same place in the base; `None` for a value the variant added.
    pub fn to_base(&self, pointer: &str) -> Option<String> {
        match self.entry(pointer) {
            None => Some(pointer.to_owned()),
            Some((origin, rest)) => origin.base.as_ref().map(|b| format!("{b}{rest}")),
        }
    }

    /// The change concerning an id (a unit, leader or zone), as a pointer into the variant.
    pub fn change_of(&self, id: &str) -> Option<&str> {
        self.ids.get(id).map(String::as_str)
    }

    /// Every id the variant changes, adds or removes.
    pub fn changed_ids(&self) -> impl Iterator<Item = &str> {
        self.ids.keys().map(String::as_str)
    }

    fn place(&mut self, resolved: String, variant: Option<String>, base: Option<String>) {
        self.places.insert(resolved, Origin { variant, base });
    }
}

/// A variant applied to its base.
#[derive(Debug, Clone)]
pub struct Resolution {
    pub scenario: Scenario,
    pub problems: Vec<Problem>,
    pub trace: Trace,
}

/// Where a counter is in a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counter {
    Unit(usize, usize),
    Commander(usize, usize),
    LineLeader(usize, usize),
}

fn counters(scenario: &Scenario) -> HashMap<&str, Counter> {
    let mut out = HashMap::new();
    for (a, army) in scenario.armies.iter().enumerate() {
        for (c, commander) in army.commanders.iter().enumerate() {
            out.entry(commander.id.as_str())
                .or_insert(Counter::Commander(a, c));
        }
        for (c, corps) in army.corps.iter().enumerate() {
            if let Some(leader) = &corps.leader {
                out.entry(leader.id.as_str())
                    .or_insert(Counter::LineLeader(a, c));
            }
        }
        for (u, unit) in army.units.iter().enumerate() {
            out.entry(unit.id.as_str()).or_insert(Counter::Unit(a, u));
        }
    }
    out
}

struct Resolver<'v> {
    problems: Vec<Problem>,
    variant: &'v Variant,
}

impl Resolver<'_> {
    fn problem(&mut self, kind: ProblemKind, pointer: String, message: String) -> &mut Problem {
        let at = self.problems.len();
        self.problems.push(Problem {
            kind,
            pointer,
            message,
            other: None,
            subject: None,
        });
        &mut self.problems[at]
    }

    fn unchanged(&mut self, pointer: String, what: &str) {
        self.problem(
            ProblemKind::NoChange,
            pointer,
            format!("{what} is already so in the base: this changes nothing"),
        );
    }

    /// Sets `slot` to `value`, or reports that it changes nothing.
    fn set<T: PartialEq>(&mut self, slot: &mut T, value: T, pointer: String, what: &str) {
        if *slot == value {
            self.unchanged(pointer, what);
        } else {
            *slot = value;
        }
    }
}

mod changes;
mod diff;
mod resolve;

pub use diff::{diff, name_from_title, rediff, unwritten};
pub use resolve::resolve;
