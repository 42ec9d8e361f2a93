//! What is selected in the scenario: an army, commander, corps, line leader, unit or zone (by
//! its place in the scenario's lists).

use bataille_schema::scenario::Scenario;

use crate::model::scenario_edit::CounterAt;

/// What is selected in the order of battle (by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sel {
    Army(usize),
    Commander(usize, usize),
    Corps(usize, usize),
    Leader(usize, usize),
    Unit(usize, usize),
    Zone(usize),
}

impl Sel {
    /// The counter selected, if it is one.
    pub fn counter(self) -> Option<CounterAt> {
        match self {
            Sel::Unit(a, u) => Some(CounterAt::Unit(a, u)),
            Sel::Leader(a, c) => Some(CounterAt::Leader(a, c)),
            Sel::Commander(a, k) => Some(CounterAt::Commander(a, k)),
            _ => None,
        }
    }

    pub fn of_counter(at: CounterAt) -> Sel {
        match at {
            CounterAt::Unit(a, u) => Sel::Unit(a, u),
            CounterAt::Leader(a, c) => Sel::Leader(a, c),
            CounterAt::Commander(a, k) => Sel::Commander(a, k),
        }
    }

    /// The army it belongs to.
    pub fn army_index(self) -> Option<usize> {
        match self {
            Sel::Army(a)
            | Sel::Commander(a, _)
            | Sel::Corps(a, _)
            | Sel::Leader(a, _)
            | Sel::Unit(a, _) => Some(a),
            Sel::Zone(_) => None,
        }
    }

    /// Whether it still names something in the scenario.
    pub fn exists(self, s: &Scenario) -> bool {
        let army = |a: usize| s.armies.get(a);
        match self {
            Sel::Army(a) => army(a).is_some(),
            Sel::Commander(a, k) => army(a).is_some_and(|x| k < x.commanders.len()),
            Sel::Corps(a, c) => army(a).is_some_and(|x| c < x.corps.len()),
            Sel::Leader(a, c) => {
                army(a).is_some_and(|x| x.corps.get(c).is_some_and(|c| c.leader.is_some()))
            }
            Sel::Unit(a, u) => army(a).is_some_and(|x| u < x.units.len()),
            Sel::Zone(z) => z < s.zones.len(),
        }
    }
}
