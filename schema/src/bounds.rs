//! The bounds of the files' bounded numbers, named once: the schema's `range` attributes (so the
//! JSON Schema and the validator) and the editor's form fields both read them here, so a form
//! refuses exactly what the validator would.

/// An inclusive range a number field may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds<T> {
    pub min: T,
    pub max: T,
}

impl<T: PartialOrd + Copy> Bounds<T> {
    /// Whether `value` is within the bounds.
    pub fn contains(&self, value: T) -> bool {
        self.min <= value && value <= self.max
    }
}

/// A unit's combat points (`Unit::cp`).
pub const UNIT_CP: Bounds<u8> = Bounds { min: 0, max: 12 };
/// A unit's movement points (`Unit::mp`).
pub const UNIT_MP: Bounds<u8> = Bounds { min: 0, max: 20 };
/// A unit's morale (`Unit::morale`).
pub const UNIT_MORALE: Bounds<u8> = Bounds { min: 0, max: 10 };
/// An artillery fire modifier (`Unit::fire_modifier`, Denain 10.3).
pub const FIRE_MODIFIER: Bounds<i8> = Bounds { min: -5, max: 5 };
/// A line leader's activation value (`LineLeader::activation`, 8.3).
pub const ACTIVATION: Bounds<u8> = Bounds { min: 0, max: 10 };
/// A command radius in hexes: a commander's or a leader's own, or the rules' defaults (8.2, 9.1).
pub const RADIUS_HEXES: Bounds<u32> = Bounds { min: 0, max: 50 };
/// The number of game turns (`Scenario::turns`).
pub const TURNS: Bounds<u32> = Bounds { min: 1, max: 200 };
/// Minutes of real time per turn (`Scenario::turn_minutes`).
pub const TURN_MINUTES: Bounds<u32> = Bounds { min: 1, max: 1440 };
/// The turn a reinforcement enters (`Placement::Reinforcement::turn`, 13.2).
pub const REINFORCEMENT_TURN: Bounds<u32> = Bounds {
    min: 1,
    max: u32::MAX,
};
