//! The rules that differ between games, as data: charts and dice, the counter layout and
//! markers, fire restrictions, unit kinds and their symbols, stacking, reinforcement entry,
//! the rule numbers a diagnostic cites, and command.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::bounds;
use crate::common::{Id, is_false};

use super::{is_true, is_zero_u32, yes};

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
    /// The command structure (rules 1, 5, 8 and 9): corps, line leaders, commanders in chief
    /// and their radii. Absent: the game has none (one unit a hex, no leaders): no unit needs a
    /// corps, no corps a leader or a commander, and nothing is out of command.
    #[serde(default = "Command::none", skip_serializing_if = "Command::is_none")]
    pub command: Command,
    /// The numbers of the rules the validator's checks come from, as this game's rulebook
    /// numbers them, for diagnostics to cite. A check whose rule is not numbered here cites no
    /// rule: never another game's.
    #[serde(default, skip_serializing_if = "RuleNumbers::is_empty")]
    pub rule_numbers: RuleNumbers,
    /// Units that may not fire until they reach a place (Denain 11.1 Note).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire_restrictions: Vec<FireRestriction>,
    /// The game's charts and tables (a combat results table with its die), printed in the kit
    /// and shown in the module.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charts: Vec<Chart>,
    /// How the game's counters are printed: the values a unit shows, its back, the markers.
    /// Absent: the layout of the two bundled Vae Victis games (see [`CounterLayout`]).
    #[serde(default, skip_serializing_if = "CounterLayout::is_default")]
    pub counters: CounterLayout,
}

/// A chart of the rules read by a die roll: a combat results table (columns of odds or
/// differentials, a row per roll), or any table the players consult.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chart {
    pub id: Id,
    /// Its title as printed (`"Combat Results Table"`).
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// The rule that explains it (`"6.0"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub rule: Option<String>,
    /// The die its rows are read with.
    pub die: Die,
    /// What the columns stand for (`"odds, attacker to defender"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 120))]
    pub columns_are: Option<String>,
    /// The column headings, left to right (`["1-5", "1-4", …, "6-1"]`).
    #[schemars(length(min = 1, max = 30))]
    pub columns: Vec<String>,
    /// One row per roll, each with one result per column.
    #[schemars(length(min = 1, max = 40))]
    pub rows: Vec<ChartRow>,
    /// What each result means (`"Ae": "attacker eliminated"`).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub results: BTreeMap<String, String>,
    /// Notes printed under it (odds beyond the table, rounding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
}

/// One row of a chart: the roll that reads it and the result in each column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartRow {
    /// The roll (`1`), or the first of a range of rolls read on this row.
    pub roll: u8,
    /// The last roll of the range; absent: `roll` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
    /// One result per column.
    pub results: Vec<String>,
}

/// The dice a chart is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Die {
    /// One six-sided die: 1-6.
    D6,
    /// Two six-sided dice added: 2-12.
    TwoD6,
    /// One ten-sided die: 0-9 or 1-10, as printed.
    D10,
}

impl Die {
    /// The smallest and largest roll.
    pub fn rolls(self) -> (u8, u8) {
        match self {
            Die::D6 => (1, 6),
            Die::TwoD6 => (2, 12),
            Die::D10 => (0, 10),
        }
    }

    /// The die's name as players write it (`"1d6"`).
    pub fn name(self) -> &'static str {
        match self {
            Die::D6 => "1d6",
            Die::TwoD6 => "2d6",
            Die::D10 => "1d10",
        }
    }
}

/// How a game's counters are printed: which values a unit's counter shows, what its back shows
/// and which markers the game uses. Every field has the Vae Victis default (Denain 2: combat
/// points, movement points and, in red, morale; the back one combat point lower; Disorder/Rout,
/// Out of command and Turn markers), so a file without `counters` prints as before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterLayout {
    /// The values printed under the symbol, in order, joined by `-` (Vae Victis
    /// `[Cp, Morale, Mp]`: `3-2-4`; a game printing combat strength and movement allowance:
    /// `[Cp, Mp]`: `4-4`). A battery's fire modifier (Denain 10.3) is printed before them
    /// whenever a unit has one.
    #[serde(default = "CounterLayout::default_values")]
    #[schemars(length(min = 1, max = 3))]
    pub values: Vec<CounterValue>,
    /// What the back of a unit's counter shows.
    #[serde(default = "CounterLayout::default_back")]
    pub back: CounterBack,
    /// The back by unit kind, over `back` (Fontenoy 9: a battery's back is its fired side).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub back_by_kind: BTreeMap<Id, CounterBack>,
    /// Units of at least this many combat points also have a replacement counter, its front
    /// two points lower than the unit's front, its back three (Denain 2: "le pion de
    /// remplacement pour les unités à trois points de combat qui ont déjà subi un
    /// retournement": `Some(3)`). Absent: no replacement counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 2, max = 12))]
    pub replacement_from_cp: Option<u8>,
    /// The markers the game uses, with how many of each the kit and the module carry.
    #[serde(default = "CounterLayout::default_markers")]
    pub markers: Vec<MarkerUse>,
    /// What the kit's key says the printed values are (`"combat strength - movement
    /// allowance"`); absent: the values' names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 200))]
    pub legend: Option<String>,
}

impl Default for CounterLayout {
    fn default() -> Self {
        Self {
            values: Self::default_values(),
            back: Self::default_back(),
            back_by_kind: BTreeMap::new(),
            replacement_from_cp: None,
            markers: Self::default_markers(),
            legend: None,
        }
    }
}

impl CounterLayout {
    fn default_values() -> Vec<CounterValue> {
        vec![CounterValue::Cp, CounterValue::Morale, CounterValue::Mp]
    }

    fn default_back() -> CounterBack {
        CounterBack::Reduced(1)
    }

    fn default_markers() -> Vec<MarkerUse> {
        vec![
            MarkerUse::new(MarkerType::Disorder, 12),
            MarkerUse::new(MarkerType::OutOfCommand, 6),
            MarkerUse::new(MarkerType::Turn, 1),
        ]
    }

    /// True for the default layout, which is left out of the file.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The back a unit of this kind has.
    pub fn back_of(&self, kind: &str) -> CounterBack {
        self.back_by_kind.get(kind).copied().unwrap_or(self.back)
    }
}

/// A value a unit's counter prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum CounterValue {
    /// Combat points (combat strength): the unit's `cp`.
    Cp,
    /// Morale: the unit's `morale`.
    Morale,
    /// Movement points (movement allowance): the unit's `mp`.
    Mp,
}

/// What the back of a unit's counter shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CounterBack {
    /// Nothing: the counter is printed on one side (a unit that is eliminated, not reduced).
    Blank,
    /// The front's values again.
    Same,
    /// The unit after a step loss: this many combat points less (Denain 2: 1). A unit with no
    /// more combat points than that has a blank back: its first loss eliminates it.
    Reduced(#[schemars(range(min = 1, max = 12))] u8),
    /// Its fired side (Fontenoy 9: a battery is turned over once it has fired).
    Fired,
}

/// A marker the game uses, and how many are printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerUse {
    pub marker: MarkerType,
    /// How many the kit and the module carry.
    #[schemars(range(min = 1, max = 200))]
    pub count: u32,
    /// The army whose colour it takes (an aide de camp); absent: neutral.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<Id>,
}

impl MarkerUse {
    /// `count` markers of a kind, of no army.
    pub fn new(marker: MarkerType, count: u32) -> Self {
        Self {
            marker,
            count,
            army: None,
        }
    }
}

/// A kind of marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum MarkerType {
    /// Disordered on the front, routed on the back (Denain 12.2).
    Disorder,
    /// Out of command (Denain 8.3).
    OutOfCommand,
    /// The game-turn marker.
    Turn,
    /// A battery that has fired (Denain 4 B: "placer un marqueur tir de barrage").
    Fired,
    /// A replacement line leader with this activation value (Denain 9.4: an "aide de camp 1",
    /// identified by a replacement bar).
    AideDeCamp(#[schemars(range(max = 10))] u8),
    /// A marker of the game's own, with the text of each face (`("Demoralized", None)`).
    Text {
        #[schemars(length(min = 1, max = 40))]
        front: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(length(min = 1, max = 40))]
        back: Option<String>,
    },
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
    /// The range of its fire in hexes (an artillery bombardment two hexes away); absent: it
    /// fights only adjacent units, or the rules give no range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 20))]
    pub range_hexes: Option<u8>,
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

/// The numbers of the rules behind the checks, in this game's rulebook (`stacking: "3"` for the
/// Vae Victis games, `"4.4"` for another). Each is cited by the diagnostics of its checks.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleNumbers {
    /// Stacking (E0301-E0303; Vae Victis 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub stacking: Option<String>,
    /// No unit enters or stays in an enemy-held hex (E0304; Fontenoy 7.3, Denain 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub enemy_hexes: Option<String>,
    /// Every combat unit acts with its corps (E0401, E0402; Vae Victis 1, 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub corps: Option<String>,
    /// Each corps has one line leader (E0403; Vae Victis 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub line_leaders: Option<String>,
    /// What each commander in chief commands (E0404, E0405; Vae Victis 8.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub commanders: Option<String>,
    /// A commander's command radius (W0801; Vae Victis 8.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub commander_radius: Option<String>,
    /// A line leader's command of its units (W0901; Vae Victis 9.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub unit_command: Option<String>,
    /// Lines of battle (W0901; Vae Victis 9.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub lines_of_battle: Option<String>,
    /// The set-up: fixed hexes and deployment zones (E0501-E0511; Fontenoy 0.2, Denain 13.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub setup: Option<String>,
    /// Reinforcements: when and where they enter (E0507, E0508, E0512, E0513; Denain 13.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub reinforcements: Option<String>,
    /// Terrain a unit may not enter (E0504, E0511, E0513; Vae Victis 7.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub terrain: Option<String>,
    /// The death of a leader deciding the game (E0205; Fontenoy 8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub leader_deaths: Option<String>,
    /// Victory conditions (E0207, E0509; Fontenoy 13, Denain 13.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub victory: Option<String>,
    /// Fire restrictions (E0701; Denain 11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 40))]
    pub fire: Option<String>,
}

impl RuleNumbers {
    /// True when no rule is numbered (left out of the file).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The command structure (rules 1, 5, 8, 9). Each part the game has is switched on; a file
/// that writes `command` without the switches has all three (the two bundled games).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// Every combat unit belongs to one corps of its army (rules 1, 5).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub corps: bool,
    /// Each corps has one line leader (9), who commands its units within a radius (9.1).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub line_leaders: bool,
    /// Each corps is commanded by a commander in chief of its army (8.1), who commands its line
    /// leader within a radius (8.2).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub commanders: bool,
    /// Default command radius of a commander in chief, in hexes (8.2: Fontenoy 10, Denain 5).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    #[schemars(range(min = bounds::RADIUS_HEXES.min, max = bounds::RADIUS_HEXES.max))]
    pub commander_radius_hexes: u32,
    /// Default command radius of a line leader over its units, in hexes (9.1).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
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

impl Command {
    /// No command structure at all: no corps needed, no leaders, no commanders.
    pub fn none() -> Self {
        Self {
            corps: false,
            line_leaders: false,
            commanders: false,
            commander_radius_hexes: 0,
            leader_radius_hexes: 0,
            blocked_by_enemy_front_and_flank: false,
            lines_of_battle: false,
            leaders_move_as: None,
            commanders_move_as: None,
        }
    }

    /// True for [`Command::none`] (left out of the file).
    pub fn is_none(&self) -> bool {
        *self == Self::none()
    }
}
