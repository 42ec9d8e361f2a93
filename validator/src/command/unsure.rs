//! The corps whose command at set-up cannot be judged (8.2, 9.1, 9.3): a chain of command
//! runs through a counter that cannot be placed (a unit of the corps on no hex of the map or
//! of an unknown kind, a commander in chief on no hex: E0503, E0105, E0204), or a unit or
//! commander names a corps that does not exist (E0202), which may have been meant for any
//! corps of its army. Who is out of command then follows from that mistake and is not said.

use foldhash::{HashSet, HashSetExt};

use bataille_schema::scenario::Corps;
use bataille_schema::{Grid, HexName};

use crate::context::Ctx;

/// The corps whose command cannot be judged.
pub(super) struct Unsure<'a> {
    /// Per army: a unit or commander names a corps that does not exist.
    unknown_corps: Vec<bool>,
    /// (army, corps) with a unit not on the map's hexes or of an unknown kind.
    unplaced: HashSet<(usize, &'a str)>,
    /// Per army: the corps a commander not on the map's hexes commands.
    chiefs_unplaced: HashSet<(usize, &'a str)>,
}

impl<'a> Unsure<'a> {
    pub(super) fn of(ctx: &Ctx<'a>, grid: &Grid) -> Self {
        let s = ctx.scenario;
        let off = |hex: Option<&HexName>| hex.is_some_and(|h| grid.lookup(h).is_none());
        let mut unsure = Self {
            unknown_corps: vec![false; s.armies.len()],
            unplaced: HashSet::new(),
            chiefs_unplaced: HashSet::new(),
        };
        for (a, army) in s.armies.iter().enumerate() {
            for unit in &army.units {
                let Some(corps) = &unit.corps else { continue };
                if !ctx.corps.contains_key(corps.as_str()) {
                    unsure.unknown_corps[a] = true;
                } else if off(unit.placement.hex()) || ctx.kind(unit.kind.as_str()).is_none() {
                    unsure.unplaced.insert((a, corps.as_str()));
                }
            }
            for chief in &army.commanders {
                for corps in &chief.commands {
                    if !ctx.corps.contains_key(corps.as_str()) {
                        unsure.unknown_corps[a] = true;
                    } else if off(chief.placement.hex()) {
                        unsure.chiefs_unplaced.insert((a, corps.as_str()));
                    }
                }
            }
        }
        unsure
    }

    /// Whether a line leader's commanders in chief are not known well enough to judge (8.2).
    pub(super) fn chiefs(&self, a: usize, corps: &Corps) -> bool {
        self.unknown_corps.get(a).copied().unwrap_or(false)
            || self.chiefs_unplaced.contains(&(a, corps.id.as_str()))
    }

    /// Whether a corps' chain of units is not known well enough to judge (9.1, 9.3).
    pub(super) fn members(&self, a: usize, corps: &Corps) -> bool {
        self.unknown_corps.get(a).copied().unwrap_or(false)
            || self.unplaced.contains(&(a, corps.id.as_str()))
    }
}
