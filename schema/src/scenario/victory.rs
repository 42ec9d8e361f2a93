//! Victory conditions: objective hexes, units to exit or destroy, holding conditions and
//! losses (Fontenoy 13, Denain 13.3, Napoleon at Waterloo).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{HexName, Id};

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
    /// Other conditions, from a small vocabulary: exiting units, the first to destroy so many
    /// enemy strength points, a side's loss threshold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<VictoryCondition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
}

/// A victory condition. `side` names a side of `sides` or an army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum VictoryCondition {
    /// Units of `side` leaving the map through given hexes during their movement: at least
    /// `units` of them, or units worth at least `strength` combat points, by turn `by_turn`
    /// (absent: the end).
    Exit {
        side: Id,
        #[schemars(length(min = 1))]
        hexes: Vec<HexName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        units: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strength: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by_turn: Option<u32>,
        #[schemars(length(min = 1, max = 200))]
        result: String,
    },
    /// The first side to destroy this many enemy combat points (before losing as many).
    FirstToDestroy {
        side: Id,
        #[schemars(range(min = 1))]
        strength: u32,
        #[schemars(length(min = 1, max = 200))]
        result: String,
    },
    /// A side's or army's loss threshold: once it has lost this many combat points, the
    /// effect applies (demoralisation).
    LossThreshold {
        side: Id,
        #[schemars(range(min = 1))]
        strength: u32,
        #[schemars(length(min = 1, max = 200))]
        effect: String,
    },
    /// Victory points per enemy combat point destroyed, for this side.
    PointsPerEnemyStrength {
        side: Id,
        #[schemars(range(min = 1))]
        points: u32,
    },
}

impl VictoryCondition {
    /// The side or army it is for.
    pub fn side(&self) -> &Id {
        match self {
            VictoryCondition::Exit { side, .. }
            | VictoryCondition::FirstToDestroy { side, .. }
            | VictoryCondition::LossThreshold { side, .. }
            | VictoryCondition::PointsPerEnemyStrength { side, .. } => side,
        }
    }
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
