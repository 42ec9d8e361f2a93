//! What is selected in the scenario: an army, commander, corps, line leader, unit or zone.
//! [`SelId`] names it by id; [`Sel`] is where it is now (indices into the scenario's lists, for
//! drawing and the forms), resolved again from the id after every change ([`carry_across`]).

use bataille_schema::Id;
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

    /// What a diagnostic's subject (an id) names: a unit, leader or commander, an army, a
    /// corps or a zone.
    pub fn of_subject(s: &Scenario, subject: &str) -> Option<Sel> {
        if let Some(at) = crate::model::scenario_edit::find_counter(s, subject) {
            return Some(Sel::of_counter(at));
        }
        let army_or_corps = s.armies.iter().enumerate().find_map(|(a, army)| {
            if army.id.as_str() == subject {
                return Some(Sel::Army(a));
            }
            army.corps
                .iter()
                .position(|c| c.id.as_str() == subject)
                .map(|c| Sel::Corps(a, c))
        });
        army_or_corps.or_else(|| {
            s.zones
                .iter()
                .position(|z| z.id.as_str() == subject)
                .map(Sel::Zone)
        })
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

/// What is selected, named by id (the army's and the item's): it survives a delete, an undo or
/// a reordering that moves the item in its list, where an index would point at its neighbour.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SelId {
    Army(Id),
    Commander {
        army: Id,
        id: Id,
    },
    Corps {
        army: Id,
        id: Id,
    },
    /// A corps' line leader, named by the corps.
    Leader {
        army: Id,
        corps: Id,
    },
    Unit {
        army: Id,
        id: Id,
    },
    Zone(Id),
}

impl Sel {
    /// The ids naming what this index selects in `s` (`None` if it names nothing).
    pub fn id_in(self, s: &Scenario) -> Option<SelId> {
        let army = |a: usize| s.armies.get(a);
        Some(match self {
            Sel::Army(a) => SelId::Army(army(a)?.id.clone()),
            Sel::Commander(a, k) => {
                let x = army(a)?;
                SelId::Commander {
                    army: x.id.clone(),
                    id: x.commanders.get(k)?.id.clone(),
                }
            }
            Sel::Corps(a, c) => {
                let x = army(a)?;
                SelId::Corps {
                    army: x.id.clone(),
                    id: x.corps.get(c)?.id.clone(),
                }
            }
            Sel::Leader(a, c) => {
                let x = army(a)?;
                let corps = x.corps.get(c)?;
                corps.leader.as_ref()?;
                SelId::Leader {
                    army: x.id.clone(),
                    corps: corps.id.clone(),
                }
            }
            Sel::Unit(a, u) => {
                let x = army(a)?;
                SelId::Unit {
                    army: x.id.clone(),
                    id: x.units.get(u)?.id.clone(),
                }
            }
            Sel::Zone(z) => SelId::Zone(s.zones.get(z)?.id.clone()),
        })
    }
}

impl SelId {
    /// Where the item now is in `s`, for drawing and the forms (`None` if it is gone).
    pub fn resolve(&self, s: &Scenario) -> Option<Sel> {
        let army = |id: &Id| s.armies.iter().position(|a| a.id == *id);
        Some(match self {
            SelId::Army(id) => Sel::Army(army(id)?),
            SelId::Commander { army: a, id } => {
                let a = army(a)?;
                Sel::Commander(a, s.armies[a].commanders.iter().position(|k| k.id == *id)?)
            }
            SelId::Corps { army: a, id } => {
                let a = army(a)?;
                Sel::Corps(a, s.armies[a].corps.iter().position(|c| c.id == *id)?)
            }
            SelId::Leader { army: a, corps } => {
                let a = army(a)?;
                let c = s.armies[a].corps.iter().position(|c| c.id == *corps)?;
                s.armies[a].corps[c].leader.as_ref()?;
                Sel::Leader(a, c)
            }
            SelId::Unit { army: a, id } => {
                let a = army(a)?;
                Sel::Unit(a, s.armies[a].units.iter().position(|u| u.id == *id)?)
            }
            SelId::Zone(id) => Sel::Zone(s.zones.iter().position(|z| z.id == *id)?),
        })
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
