//! What is selected in the scenario: an army, commander, corps, line leader, unit or zone.
//! [`SelId`] names it by id; [`Sel`] is where it is now (indices into the scenario's lists, for
//! drawing and the forms), resolved again from the id after every change ([`carry_across`]).

use bataille_schema::scenario::Scenario;

use crate::model::scenario_edit::CounterAt;

/// What is selected: the scenario's one address for its items (the validator's too), by
/// position ([`Sel`]) and by id ([`SelId`]).
pub use bataille_schema::scenario::{ItemAt as Sel, ItemId as SelId};

/// A counter on the map is an item of the scenario.
impl From<CounterAt> for Sel {
    fn from(at: CounterAt) -> Sel {
        match at {
            CounterAt::Unit(a, u) => Sel::Unit(a, u),
            CounterAt::Leader(a, c) => Sel::Leader(a, c),
            CounterAt::Commander(a, k) => Sel::Commander(a, k),
        }
    }
}

impl CounterAt {
    /// The counter an item is, if it is one (a unit, a line leader, a commander).
    pub fn of(sel: Sel) -> Option<CounterAt> {
        match sel {
            Sel::Unit(a, u) => Some(CounterAt::Unit(a, u)),
            Sel::Leader(a, c) => Some(CounterAt::Leader(a, c)),
            Sel::Commander(a, k) => Some(CounterAt::Commander(a, k)),
            _ => None,
        }
    }
}

/// The selection taken before a change of the scenario, to find it again after:
/// [`Anchor::resolve`] names the same item afterwards (by id), or nothing if it is gone. An
/// item whose own id the change rewrote (a rename in its form) is found at the same place when
/// its list kept its length.
#[derive(Debug, Clone)]
pub struct Anchor {
    sel: Sel,
    id: Option<SelId>,
    len: Option<(usize, usize)>,
}

impl Anchor {
    pub fn new(sel: Option<Sel>, before: &Scenario) -> Option<Anchor> {
        let sel = sel?;
        Some(Anchor {
            sel,
            id: sel.id_in(before),
            len: list_len(sel, before),
        })
    }

    /// Where the item is after the change.
    pub fn resolve(&self, after: &Scenario) -> Option<Sel> {
        let Some(id) = &self.id else {
            return self.sel.exists(after).then_some(self.sel);
        };
        if self.sel.id_in(after).as_ref() == Some(id) {
            return Some(self.sel); // Still where it was (most changes).
        }
        if let Some(found) = id.resolve(after) {
            return Some(found);
        }
        // Renamed in place: the same list, the same length, the item at the same index.
        (self.len == list_len(self.sel, after) && self.sel.exists(after)).then_some(self.sel)
    }
}

/// The selection carried across a change from `before` to `after` (see [`Anchor`]).
pub fn carry_across(sel: Option<Sel>, before: &Scenario, after: &Scenario) -> Option<Sel> {
    Anchor::new(sel, before)?.resolve(after)
}

/// The length of the list the selected item is in (and of the armies above it).
fn list_len(sel: Sel, s: &Scenario) -> Option<(usize, usize)> {
    let army = |a: usize| s.armies.get(a);
    Some(match sel {
        Sel::Army(_) => (s.armies.len(), 0),
        Sel::Commander(a, _) => (s.armies.len(), army(a)?.commanders.len()),
        Sel::Corps(a, _) | Sel::Leader(a, _) => (s.armies.len(), army(a)?.corps.len()),
        Sel::Unit(a, _) => (s.armies.len(), army(a)?.units.len()),
        Sel::Zone(_) => (s.zones.len(), 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::Id;

    fn scenario() -> Scenario {
        let (_, text) = crate::model::templates::BUNDLED_SCENARIOS[0];
        bataille_schema::io::parse_scenario(&bataille_schema::SourceFile::new(
            "denain-1712.ron",
            text.to_owned(),
        ))
        .expect("Denain parses")
    }

    #[test]
    fn a_unit_is_found_by_id_after_one_listed_before_it_goes() {
        let before = scenario();
        let mut after = before.clone();
        let third = before.armies[0].units[2].id.clone();
        after.armies[0].units.remove(0);
        let sel = carry_across(Some(Sel::Unit(0, 2)), &before, &after);
        assert_eq!(sel, Some(Sel::Unit(0, 1)));
        assert_eq!(after.armies[0].units[1].id, third);
        // The item itself gone: nothing selected (not its neighbour).
        let mut gone = before.clone();
        gone.armies[0].units.remove(2);
        assert_eq!(carry_across(Some(Sel::Unit(0, 2)), &before, &gone), None);
        // Its id rewritten in its form: still selected, at its place.
        let mut renamed = before.clone();
        renamed.armies[0].units[2].id = Id::from("renamed");
        assert_eq!(
            carry_across(Some(Sel::Unit(0, 2)), &before, &renamed),
            Some(Sel::Unit(0, 2))
        );
    }
}
