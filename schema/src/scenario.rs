//! The scenario document: its map, the rules that differ between games (as data), the armies
//! with their commanders, corps and units, deployment zones and victory conditions.
//!
//! The rules that differ between games (charts, counters, stacking, unit kinds, rule numbers,
//! command) are in [`rules`], the victory conditions in [`victory`]; both re-exported here.

mod address;
mod rules;
mod victory;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bounds;
use crate::common::{Colour, HexName, Id, MapEdge, Side, is_false};
use crate::thin::{Thin, ThinEmpty};

pub use address::{ItemAt, ItemId};
pub use rules::{
    Chart, ChartRow, Command, Composition, CounterBack, CounterLayout, CounterValue, Die,
    EntryAllowance, FirePlace, FireRestriction, MarkerType, MarkerUse, ReinforcementEntry,
    RuleNumbers, Rules, StackTerm, Stacking, Symbol, UnitKind,
};
pub use victory::{HoldCondition, LeaderLoss, Objective, UnitObjective, Victory, VictoryCondition};

/// A scenario: one file in `scenarios/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The version of the file format; files from a newer version are refused with a message.
    #[schemars(range(min = 1))]
    pub format_version: u32,
    #[schemars(length(min = 1, max = 200))]
    pub title: String,
    /// The map file, relative to this file (`"../maps/denain-1712.ron"`).
    #[schemars(length(min = 1))]
    pub map: String,
    /// The day of the battle, `YYYY-MM-DD`.
    #[schemars(pattern(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    pub date: String,
    /// Number of game turns.
    #[schemars(range(min = bounds::TURNS.min, max = bounds::TURNS.max))]
    pub turns: u32,
    /// Minutes of real time per turn.
    #[schemars(range(min = bounds::TURN_MINUTES.min, max = bounds::TURN_MINUTES.max))]
    pub turn_minutes: u32,
    /// The time of the first turn, `HH:MM`.
    #[schemars(pattern(r"^[0-2][0-9]:[0-5][0-9]$"))]
    pub start_time: String,
    /// The language of the scenario's names and texts, an IETF tag (`"fr"`, `"en"`): the
    /// print-and-play kit writes its own words in it (English when absent or not one it knows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        length(min = 2, max = 35),
        pattern(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$")
    )]
    pub language: Option<String>,
    /// Where the data comes from and what is reconstructed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// Diagnostic codes allowed in the whole scenario (`["W0601"]`).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
    /// The rules that differ between games.
    pub rules: Rules,
    /// The armies, each with its commanders in chief, corps and units.
    pub armies: Vec<Army>,
    /// The sides of the battle, each grouping allied armies (a nationality is an army): allies
    /// may share hexes and count together for victory, and each army keeps its own losses.
    /// Absent: each army is a side of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Faction>,
    /// Deployment zones: named hex sets owned by a corps or an army.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    pub victory: Victory,
    /// The miniatures rules systems this scenario supports, each with the rules that convert
    /// its counters (`systems/*.ron`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = crate::common::MAX_MINIATURES))]
    pub miniatures: Vec<MiniaturesUse>,
}

/// A side of the battle: the armies fighting together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Faction {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Its armies, by id (each army on one side only).
    #[schemars(length(min = 1))]
    pub armies: Vec<Id>,
}

/// A miniatures rules system a scenario supports, and how its counters convert.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MiniaturesUse {
    /// The system's id (`"louis-xiv"`).
    pub system: Id,
    /// The system file, relative to this file (`"../systems/louis-xiv.ron"`).
    #[schemars(length(min = 1))]
    pub file: String,
    /// Where the conversion comes from and what is reconstructed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// Conversion rules, in order: every rule that matches a unit applies, a later one over an
    /// earlier one; a unit's own `ratings` for this system override them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub convert: Vec<Conversion>,
    /// Leaders' ratings (commanders in chief and line leaders), by leader id.
    #[serde(
        deserialize_with = "crate::unique::deserialize_nested",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub leaders: BTreeMap<Id, BTreeMap<Id, Rating>>,
}

/// A conversion rule: which counters it applies to, and the ratings it gives them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Conversion {
    /// Unit kinds it applies to; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<Id>,
    /// Armies; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armies: Vec<Id>,
    /// Corps; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corps: Vec<Id>,
    /// Units by id; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Id>,
    /// Only counters of at least this morale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_morale: Option<u8>,
    /// Ratings set as they are.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub set: BTreeMap<Id, Rating>,
    /// Ratings set to this many per CP of the counter (`"units": 1`: one battalion a CP).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub per_cp: BTreeMap<Id, i32>,
}

impl Conversion {
    /// Whether the rule applies to this unit of this army.
    pub fn matches(&self, army: &Army, unit: &Unit) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&unit.kind))
            && (self.armies.is_empty() || self.armies.contains(&army.id))
            && (self.corps.is_empty()
                || unit.corps.as_ref().is_some_and(|c| self.corps.contains(c)))
            && (self.units.is_empty() || self.units.contains(&unit.id))
            && self
                .min_morale
                .is_none_or(|min| unit.morale.is_some_and(|m| m >= min))
    }
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

fn is_zero_u32(value: &u32) -> bool {
    *value == 0
}

/// An army (one side).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// The colour of its counters when a unit has no corps (a nationality's colour: French
    /// blue, British red); absent: a corps' colour, else grey.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// Map edges its routed units flee to (12.3), unless a corps says otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub friendly_edges: Vec<MapEdge>,
    /// Commanders in chief (8.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commanders: Vec<Commander>,
    /// Corps or formations (1, 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corps: Vec<Corps>,
    /// Units, one per line, each naming its corps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Unit>,
}

/// A commander in chief (8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Commander {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Command radius in hexes; absent: the rules' default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::RADIUS_HEXES.max))]
    pub radius_hexes: Option<u32>,
    /// The corps it may command (8.1).
    pub commands: Vec<Id>,
    #[serde(default, skip_serializing_if = "Placement::is_unplaced")]
    pub placement: Placement,
    /// Diagnostic codes allowed for this counter.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// A corps (Fontenoy) or formation (Denain): units of one colour acting together (1, 5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Corps {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// The colour of the counters' symbol.
    pub colour: Colour,
    /// The line leader (9); a corps without one is reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<LineLeader>,
    /// Map edges its routed units flee to; empty: the army's (Fontenoy: Dutch south, British east).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub friendly_edges: Vec<MapEdge>,
    /// Diagnostic codes allowed for the corps, its line leader and its units.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// A line leader (9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineLeader {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Activation value, used when out of command (8.3).
    #[schemars(range(min = bounds::ACTIVATION.min, max = bounds::ACTIVATION.max))]
    pub activation: u8,
    /// Command radius over its units in hexes; absent: the rules' default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::RADIUS_HEXES.max))]
    pub radius_hexes: Option<u32>,
    /// Always in command (8.3: Tingry).
    #[serde(default, skip_serializing_if = "is_false")]
    pub always_in_command: bool,
    #[serde(default, skip_serializing_if = "Placement::is_unplaced")]
    pub placement: Placement,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// A unit (counter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Stable id, unique in the scenario.
    pub id: Id,
    /// The name printed on the counter (`"Navarre 1/"`).
    #[schemars(with = "String", length(min = 1, max = 120))]
    pub name: crate::short::ShortStr,
    /// The unit kind, from the rules' `unit_kinds`.
    pub kind: Id,
    /// The corps it belongs to; every combat unit has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<Id>,
    /// Combat points (0.1: one per battalion, or per 3-4 squadrons).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_CP.max))]
    pub cp: Option<u8>,
    /// Movement points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_MP.max))]
    pub mp: Option<u8>,
    /// Morale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = bounds::UNIT_MORALE.max))]
    pub morale: Option<u8>,
    /// Artillery fire modifier (Denain 10.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::FIRE_MODIFIER.min, max = bounds::FIRE_MODIFIER.max))]
    pub fire_modifier: Option<i8>,
    /// Always in command (9.2: Grassin's arquebusiers).
    #[serde(default, skip_serializing_if = "is_false")]
    pub always_in_command: bool,
    /// The side its front faces through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Side>,
    #[serde(default, skip_serializing_if = "Placement::is_unplaced")]
    pub placement: Placement,
    /// Ratings under other rules systems, by system id then rating name
    /// (`"age-of-honor": { "quality": "elite", "stands": 4 }`).
    // Held behind a pointer, absent when empty (`Thin`): few units have any.
    #[serde(
        deserialize_with = "nested_thin",
        default,
        skip_serializing_if = "Thin::is_empty"
    )]
    #[schemars(with = "BTreeMap<Id, BTreeMap<Id, Rating>>")]
    pub ratings: Thin<UnitRatings>,
    /// Diagnostic codes allowed for this unit.
    // Held behind a pointer, absent when empty (`Thin`).
    #[serde(
        default,
        skip_serializing_if = "Thin::is_empty",
        deserialize_with = "allow_list_thin"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Thin<Vec<crate::common::Code>>,
}

/// A unit's ratings under other rules systems, by system id then rating name.
pub type UnitRatings = BTreeMap<Id, BTreeMap<Id, Rating>>;

/// A rating value under another rules system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Rating {
    Number(i32),
    Text(String),
}

/// Where a counter starts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Placement {
    /// Not placed yet.
    #[default]
    Unplaced,
    /// On this hex (13.1: "Villars : 1409").
    Hex(HexName),
    /// Free within a deployment zone (13.1: "placement libre"), optionally at a chosen hex.
    Free {
        zone: Id,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<HexName>,
    },
    /// Enters on this turn by one of these hexes (13.2).
    Reinforcement {
        #[schemars(range(min = bounds::REINFORCEMENT_TURN.min))]
        turn: u32,
        // Behind one pointer (`Thin`): a placement is then 32 bytes, not 40, in every unit.
        #[schemars(with = "Vec<HexName>", length(min = 1))]
        #[serde(deserialize_with = "fitted_thin")]
        entry: Thin<Vec<HexName>>,
    },
}

impl Placement {
    /// True for `Unplaced`.
    pub fn is_unplaced(&self) -> bool {
        matches!(self, Placement::Unplaced)
    }

    /// The hex the counter stands on at set-up, if any.
    pub fn hex(&self) -> Option<&HexName> {
        match self {
            Placement::Hex(hex) => Some(hex),
            Placement::Free { at, .. } => at.as_ref(),
            Placement::Unplaced | Placement::Reinforcement { .. } => None,
        }
    }
}

/// A deployment zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    pub owner: Owner,
    /// A set: a hex given twice is refused (`uniqueItems`, E0105).
    #[schemars(extend("uniqueItems" = true))]
    pub hexes: crate::HexList,
    /// Other corps or armies whose counters may also be placed free in it; otherwise a
    /// counter placed free in another corps' or army's zone breaks the set-up (Fontenoy 0.2,
    /// Denain 13.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_with: Vec<Owner>,
}

/// Who a zone belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Owner {
    Army(Id),
    Corps(Id),
}

/// What a unit and a placement hold thin ([`Thin`]), each with its empty value.
macro_rules! thin_empty {
    ($($ty:ty),*) => {$(
        impl ThinEmpty for $ty {
            fn is_empty_value(&self) -> bool {
                self.is_empty()
            }
            fn empty() -> &'static Self {
                static EMPTY: $ty = <$ty>::new();
                &EMPTY
            }
        }
    )*};
}

thin_empty!(Vec<crate::common::Code>, Vec<HexName>, UnitRatings);

/// A unit's ratings, read as every map of a document is ([`crate::unique`]), held thin.
fn nested_thin<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Thin<UnitRatings>, D::Error> {
    crate::unique::deserialize_nested(deserializer).map(Thin::from)
}

/// A unit's `allow` list ([`crate::common::allow_list`]), held thin.
fn allow_list_thin<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Thin<Vec<crate::common::Code>>, D::Error> {
    crate::common::allow_list(deserializer).map(Thin::from)
}

/// A reinforcement's entry hexes, at their length ([`crate::unique::fitted`]), held thin.
fn fitted_thin<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Thin<Vec<HexName>>, D::Error> {
    crate::unique::fitted(deserializer).map(Thin::from)
}

// Issue 19: a file of the shortest units holds one `Unit` a 40-byte line; it was 208 bytes.
const _: () = assert!(std::mem::size_of::<Placement>() <= 32);
const _: () = assert!(std::mem::size_of::<Unit>() <= 128);
