//! Where an item of a scenario is: one address for the validator's diagnostics (a repeated
//! id's place, the item a diagnostic's `subject` id names) and the editor's selection. By
//! position ([`ItemAt`]: indices into the scenario's lists, what a form or the map edits) or by
//! id ([`ItemId`]: what survives a delete, an undo or a reordering).

use super::Scenario;
use crate::Id;

/// An item of the scenario by position: an army, a commander, a corps, a corps' line leader,
/// a unit (each by its army's index and its own) or a deployment zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemAt {
    Army(usize),
    Commander(usize, usize),
    Corps(usize, usize),
    /// A corps' line leader, by the corps.
    Leader(usize, usize),
    Unit(usize, usize),
    Zone(usize),
}

/// An item of the scenario named by ids (its army's and its own; a line leader by its corps).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ItemId {
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

impl ItemAt {
    /// Every item with an id, with that id, in the file's order (an army, its commanders, its
    /// corps each followed by its leader, its units; then the zones).
    pub fn all(s: &Scenario) -> impl Iterator<Item = (ItemAt, &Id)> {
        let armies = s.armies.iter().enumerate().flat_map(|(a, army)| {
            let commanders = army
                .commanders
                .iter()
                .enumerate()
                .map(move |(k, c)| (ItemAt::Commander(a, k), &c.id));
            let corps = army.corps.iter().enumerate().flat_map(move |(c, corps)| {
                let leader = corps.leader.as_ref().map(|l| (ItemAt::Leader(a, c), &l.id));
                std::iter::once((ItemAt::Corps(a, c), &corps.id)).chain(leader)
            });
            let units = army
                .units
                .iter()
                .enumerate()
                .map(move |(u, unit)| (ItemAt::Unit(a, u), &unit.id));
            std::iter::once((ItemAt::Army(a), &army.id))
                .chain(commanders)
                .chain(corps)
                .chain(units)
        });
        let zones = s
            .zones
            .iter()
            .enumerate()
            .map(|(z, zone)| (ItemAt::Zone(z), &zone.id));
        armies.chain(zones)
    }

    /// The item whose own id is `id` (what a diagnostic's `subject` names): the first in
    /// [`ItemAt::all`]'s order.
    pub fn of_id(s: &Scenario, id: &str) -> Option<ItemAt> {
        ItemAt::all(s).find_map(|(at, item)| (item.as_str() == id).then_some(at))
    }

    /// The item's own id in `s` (`None` if the address names nothing there).
    pub fn id(self, s: &Scenario) -> Option<&Id> {
        let army = |a: usize| s.armies.get(a);
        Some(match self {
            ItemAt::Army(a) => &army(a)?.id,
            ItemAt::Commander(a, k) => &army(a)?.commanders.get(k)?.id,
            ItemAt::Corps(a, c) => &army(a)?.corps.get(c)?.id,
            ItemAt::Leader(a, c) => &army(a)?.corps.get(c)?.leader.as_ref()?.id,
            ItemAt::Unit(a, u) => &army(a)?.units.get(u)?.id,
            ItemAt::Zone(z) => &s.zones.get(z)?.id,
        })
    }

    /// Whether it names something in `s`.
    pub fn exists(self, s: &Scenario) -> bool {
        self.id(s).is_some()
    }

    /// The army it belongs to (`None` for a zone).
    pub fn army_index(self) -> Option<usize> {
        match self {
            ItemAt::Army(a)
            | ItemAt::Commander(a, _)
            | ItemAt::Corps(a, _)
            | ItemAt::Leader(a, _)
            | ItemAt::Unit(a, _) => Some(a),
            ItemAt::Zone(_) => None,
        }
    }

    /// The JSON pointer of the item's id in the scenario file (where a diagnostic about the
    /// item points).
    pub fn pointer(self) -> String {
        match self {
            ItemAt::Army(a) => format!("/armies/{a}/id"),
            ItemAt::Commander(a, c) => format!("/armies/{a}/commanders/{c}/id"),
            ItemAt::Corps(a, c) => format!("/armies/{a}/corps/{c}/id"),
            ItemAt::Leader(a, c) => format!("/armies/{a}/corps/{c}/leader/id"),
            ItemAt::Unit(a, u) => format!("/armies/{a}/units/{u}/id"),
            ItemAt::Zone(z) => format!("/zones/{z}/id"),
        }
    }

    /// What the item is, in a sentence ("unit", "line leader").
    pub fn what(self) -> &'static str {
        match self {
            ItemAt::Army(_) => "army",
            ItemAt::Commander(..) => "commander",
            ItemAt::Corps(..) => "corps",
            ItemAt::Leader(..) => "line leader",
            ItemAt::Unit(..) => "unit",
            ItemAt::Zone(_) => "zone",
        }
    }

    /// The ids naming what this address names in `s` (`None` if it names nothing).
    pub fn id_in(self, s: &Scenario) -> Option<ItemId> {
        let army = |a: usize| s.armies.get(a).map(|x| x.id.clone());
        Some(match self {
            ItemAt::Army(a) => ItemId::Army(army(a)?),
            ItemAt::Commander(a, _) => ItemId::Commander {
                army: army(a)?,
                id: self.id(s)?.clone(),
            },
            ItemAt::Corps(a, _) => ItemId::Corps {
                army: army(a)?,
                id: self.id(s)?.clone(),
            },
            ItemAt::Leader(a, c) => {
                self.id(s)?;
                ItemId::Leader {
                    army: army(a)?,
                    corps: s.armies[a].corps.get(c)?.id.clone(),
                }
            }
            ItemAt::Unit(a, _) => ItemId::Unit {
                army: army(a)?,
                id: self.id(s)?.clone(),
            },
            ItemAt::Zone(_) => ItemId::Zone(self.id(s)?.clone()),
        })
    }
}

impl ItemId {
    /// Where the item now is in `s` (`None` if it is gone).
    pub fn resolve(&self, s: &Scenario) -> Option<ItemAt> {
        let army = |id: &Id| s.armies.iter().position(|a| a.id == *id);
        Some(match self {
            ItemId::Army(id) => ItemAt::Army(army(id)?),
            ItemId::Commander { army: a, id } => {
                let a = army(a)?;
                ItemAt::Commander(a, s.armies[a].commanders.iter().position(|k| k.id == *id)?)
            }
            ItemId::Corps { army: a, id } => {
                let a = army(a)?;
                ItemAt::Corps(a, s.armies[a].corps.iter().position(|c| c.id == *id)?)
            }
            ItemId::Leader { army: a, corps } => {
                let a = army(a)?;
                let c = s.armies[a].corps.iter().position(|c| c.id == *corps)?;
                s.armies[a].corps[c].leader.as_ref()?;
                ItemAt::Leader(a, c)
            }
            ItemId::Unit { army: a, id } => {
                let a = army(a)?;
                ItemAt::Unit(a, s.armies[a].units.iter().position(|u| u.id == *id)?)
            }
            ItemId::Zone(id) => ItemAt::Zone(s.zones.iter().position(|z| z.id == *id)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_found_again_by_its_id_and_its_address() {
        let text = include_str!("../../../scenarios/denain-1712.ron");
        let s = crate::io::parse_scenario(&crate::SourceFile::new("denain-1712.ron", text.into()))
            .unwrap();
        let all: Vec<_> = ItemAt::all(&s).collect();
        let units: usize = s.armies.iter().map(|a| a.units.len()).sum();
        assert!(all.len() > units + s.zones.len());
        for (at, id) in all {
            assert_eq!(at.id(&s), Some(id));
            assert_eq!(ItemAt::of_id(&s, id.as_str()), Some(at), "{id}");
            let named = at.id_in(&s).unwrap();
            assert_eq!(named.resolve(&s), Some(at));
            assert!(at.pointer().ends_with("/id"));
        }
        // An address past the end names nothing.
        assert!(!ItemAt::Unit(0, 100_000).exists(&s));
        assert_eq!(ItemAt::Zone(s.zones.len()).id_in(&s), None);
        // A line leader is found by his corps, and points into it.
        let (a, c) = (0, 0);
        let leader = ItemAt::Leader(a, c);
        if s.armies[a].corps[c].leader.is_some() {
            assert_eq!(leader.pointer(), "/armies/0/corps/0/leader/id");
            assert_eq!(
                leader.id_in(&s),
                Some(ItemId::Leader {
                    army: s.armies[a].id.clone(),
                    corps: s.armies[a].corps[c].id.clone()
                })
            );
        }
    }
}
