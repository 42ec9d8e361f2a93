//! The scenario document: its map, the rules that differ between games (as data), the armies
//! with their commanders, corps and units, deployment zones and victory conditions.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bounds;
use crate::common::{Colour, HexName, Id, MapEdge, Side, is_false};

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
    pub notes: Option<String>,
    /// Diagnostic codes allowed in the whole scenario (`["W0601"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// The rules that differ between games.
    pub rules: Rules,
    /// The armies, each with its commanders in chief, corps and units.
    pub armies: Vec<Army>,
    /// Deployment zones: named hex sets owned by a corps or an army.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    pub victory: Victory,
    /// The miniatures rules systems this scenario supports, each with the rules that convert
    /// its counters (`systems/*.ron`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub miniatures: Vec<MiniaturesUse>,
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
    pub notes: Option<String>,
    /// Conversion rules, in order: every rule that matches a unit applies, a later one over an
    /// earlier one; a unit's own `ratings` for this system override them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub convert: Vec<Conversion>,
    /// Leaders' ratings (commanders in chief and line leaders), by leader id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
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
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<Id, Rating>,
    /// Ratings set to this many per CP of the counter (`"units": 1`: one battalion a CP).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
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

/// The rules that differ between games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules system whose ratings the units carry (`"vae-victis"`). Other systems (figures
    /// and stands, troop quality, fire type) put their ratings in each unit's `ratings`.
    pub system: Id,
    /// Unit kinds by id.
    #[serde(deserialize_with = "crate::unique::deserialize")]
    pub unit_kinds: BTreeMap<Id, UnitKind>,
    /// Stacking (rule 3).
    pub stacking: Stacking,
    /// Command (rules 8 and 9).
    pub command: Command,
    /// Units that may not fire until they reach a place (Denain 11.1 Note).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire_restrictions: Vec<FireRestriction>,
}

/// Units of an army that may fire only in some places (Denain 11.1 Note: the French units, but
/// for the Valenciennes garrison, are to carry the camp with the bayonet and may not fire until
/// they stand next to a hex of the Escaut, or on its far bank).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireRestriction {
    /// The army whose units are restricted.
    pub army: Id,
    /// Its corps that are not (Denain: the Garnison de Valenciennes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_corps: Vec<Id>,
    /// Where a restricted unit may fire: any of these places.
    #[schemars(length(min = 1))]
    pub fires_only: Vec<FirePlace>,
}

/// A place where restricted units may fire, by a terrain code of the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum FirePlace {
    /// Next to a hex of this terrain (Denain 11.1: `"~"`, the Escaut).
    NextTo(String),
    /// Beyond this terrain: on a hex from which every path to the army's friendly map edges
    /// (12.3) crosses a hex of it (Denain 11.1: on the far bank of the Escaut).
    Beyond(String),
}

/// The NATO-style symbol a counter carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Symbol {
    Infantry,
    Cavalry,
    Dragoons,
    Light,
    Artillery,
    Baggage,
    Other,
}

/// A kind of unit (rule 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitKind {
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    pub symbol: Symbol,
    /// A combat unit: it belongs to exactly one corps of its army (rules 1, 5).
    pub combat: bool,
    /// Whether its counters count for stacking (rule 3); absent: combat units count and
    /// non-combat counters (baggage) do not. Fontenoy's batteries stand outside the corps system
    /// (`combat: false`) yet count: "or one battery".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_for_stacking: Option<bool>,
    /// Front hexsides of its facing (rule 2: infantry 2, cavalry 4, artillery 6).
    #[schemars(range(max = 6))]
    pub front_hexsides: u8,
    /// Flank hexsides (rule 2: infantry 2, cavalry 0); the rest are rear.
    #[serde(default)]
    #[schemars(range(max = 6))]
    pub flank_hexsides: u8,
    /// The terrain cost class it moves as (dragoons move as `"cavalry"`); absent: its own id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_as: Option<Id>,
    /// It never moves (Fontenoy 10: artillery).
    #[serde(default, skip_serializing_if = "is_false")]
    pub immobile: bool,
    /// Only these armies may field it (Fontenoy: artillery French only); empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub armies: Vec<Id>,
}

impl UnitKind {
    /// Whether its counters count for stacking (rule 3).
    pub fn stacks(&self) -> bool {
        self.counts_for_stacking.unwrap_or(self.combat)
    }
}

/// Stacking (rule 3): a hex's stack is legal when it fits one of the compositions. Leaders never
/// count (they are not units).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stacking {
    /// The allowed compositions.
    pub compositions: Vec<Composition>,
    /// How reinforcements arriving on the same turn at the same entry hex are checked.
    #[serde(default)]
    pub reinforcements: ReinforcementEntry,
    /// With `Column`: the movement left to each unit entering by one hex in one turn, in
    /// order; the units beyond wait for the next turn (Denain 13.2 N.B.: `[AllMp, Mp(1)]`, the
    /// first with all its MP, the second with 1, the third the next turn). Empty: no limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub column_entry: Vec<EntryAllowance>,
}

/// The movement a reinforcement has on the turn it enters (Denain 13.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum EntryAllowance {
    /// All its movement points.
    AllMp,
    /// This many movement points.
    Mp(#[schemars(range(max = 20))] u8),
}

/// How reinforcements enter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub enum ReinforcementEntry {
    /// They enter in column, one after another (Denain 13.2), so they never stack at entry.
    #[default]
    Column,
    /// They are placed together on the entry hex, which must hold a legal stack.
    Stacked,
}

/// One allowed stack: every counter in the hex matches a term, and each term's limits hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Composition {
    /// A name for messages (`"infantry"`, `"infantry with a battery"`).
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    #[schemars(length(min = 1))]
    pub terms: Vec<StackTerm>,
}

/// A term of a composition: counters of these kinds, at most so many counters and/or CP.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackTerm {
    #[schemars(length(min = 1))]
    pub kinds: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_counters: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cp: Option<u32>,
}

/// Command (rules 8, 9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// Default command radius of a commander in chief, in hexes (8.2: Fontenoy 10, Denain 5).
    #[schemars(range(min = bounds::RADIUS_HEXES.min, max = bounds::RADIUS_HEXES.max))]
    pub commander_radius_hexes: u32,
    /// Default command radius of a line leader over its units, in hexes (9.1).
    #[schemars(range(min = bounds::RADIUS_HEXES.min, max = bounds::RADIUS_HEXES.max))]
    pub leader_radius_hexes: u32,
    /// The path may not pass enemy front or flank hexes not occupied by a friendly unit (8.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocked_by_enemy_front_and_flank: bool,
    /// A unit out of radius is commanded when it is part of a line of battle (9.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub lines_of_battle: bool,
    /// The terrain cost class line leaders move as (9: "a line leader moves as a cavalry
    /// unit": `"cavalry"`); absent: they are not checked against terrain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaders_move_as: Option<Id>,
    /// The terrain cost class commanders in chief move as (7.4); absent: not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commanders_move_as: Option<Id>,
}

/// An army (one side).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub id: Id,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
}

/// A unit (counter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Stable id, unique in the scenario.
    pub id: Id,
    /// The name printed on the counter (`"Navarre 1/"`).
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
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
    #[serde(
        deserialize_with = "crate::unique::deserialize_nested",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub ratings: BTreeMap<Id, BTreeMap<Id, Rating>>,
    /// Diagnostic codes allowed for this unit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
}

/// A rating value under another rules system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Rating {
    Number(i32),
    Text(String),
}

/// Where a counter starts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
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
        #[schemars(length(min = 1))]
        entry: Vec<HexName>,
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
    pub hexes: Vec<HexName>,
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

/// Victory conditions (Fontenoy 13, Denain 13.3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// Hexes worth points to whoever holds them at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<Objective>,
    /// Units worth points to whoever controls them (Denain 13.3: the garrison's baggage).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unit_objectives: Vec<UnitObjective>,
    /// Points per enemy combat point eliminated (Denain 13.3: 2).
    #[serde(default)]
    pub points_per_enemy_cp_eliminated: u32,
    /// Points per enemy unit in rout at the end (Denain 13.3: 1).
    #[serde(default)]
    pub points_per_enemy_unit_routed: u32,
    /// Results decided by holding hexes (Fontenoy 13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds: Vec<HoldCondition>,
    /// Leaders whose loss decides the game (Fontenoy 13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leader_losses: Vec<LeaderLoss>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A victory hex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub hex: HexName,
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    pub points: u32,
}

/// A unit worth victory points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitObjective {
    pub unit: Id,
    pub points: u32,
}

/// A result won by holding hexes at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HoldCondition {
    /// The army that must hold them.
    pub army: Id,
    pub hexes: Vec<HexName>,
    /// How many of them; absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<u32>,
    /// The result (`"Allied victory"`, `"marginal Allied victory"`).
    #[schemars(length(min = 1, max = 120))]
    pub result: String,
}

/// A leader whose loss decides the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderLoss {
    /// A commander or line leader id.
    pub leader: Id,
    /// The army that wins when that leader is lost.
    pub winner: Id,
}
