//! Ids followed wherever the scenario names them, when they are renamed or deleted, so that an
//! edit never leaves a reference the validator would then report as an error the user never
//! made (E02xx). The one place that knows every reference:
//! - the victory conditions: a unit objective, a leader's loss and its winner, an army's hold
//!   (Fontenoy 13, Denain 13.3), a condition's `side` when it names an army (Napoleon at
//!   Waterloo 8);
//! - the sides' lists of armies (`sides[].armies`: a side left with no army goes, and the
//!   conditions naming it);
//! - the rules: an army's fire restriction and the corps it exempts (Denain 11.1), the armies a
//!   unit kind may serve (Fontenoy: artillery French only), the army a marker is coloured for
//!   (Denain 9.4's aides de camp, `rules.counters.markers[].army`);
//! - commanders' `commands` lists of corps (8.1); units' `corps` and `kind`;
//! - a unit kind's id: the stacking compositions' terms, the counters' backs by kind
//!   (Fontenoy 9), the conversion rules' kinds ([`follow_kinds_in_rules`] for the rules);
//! - zones' owners and `shared_with` (a deleted corps' zone passes to its army; a deleted
//!   army's zones go), and counters placed free in a zone (a deleted zone's stand on their
//!   chosen hex, or are not placed);
//! - the miniatures entries: conversion rules' lists of units, corps and armies (an emptied list
//!   drops its rule: empty means "any"), and leaders' ratings keyed by id.
//!
//! [`follow_ids`] returns the changes for every item that names a moved id, each item changed
//! once; the caller adds the change of the renamed or deleted item itself.

use bataille_schema::Id;
use bataille_schema::scenario::{Owner, Placement, Rules, Scenario, VictoryCondition};

use crate::model::history::Change;
use crate::model::oob_ops::{edit_conversions, item_change};
use crate::model::scenario_edit::{Item, ItemPath, ScenarioChange, Settings};

/// An id that goes: renamed (`Some(new)`) or deleted (`None`).
pub type Move<'a> = (&'a Id, Option<&'a Id>);

/// The ids an edit renames or deletes, by kind.
#[derive(Debug, Default)]
pub struct IdMoves<'a> {
    /// An army deleted whole: its own items need no bookkeeping.
    pub deleted_army: Option<usize>,
    pub armies: Vec<Move<'a>>,
    pub corps: Vec<Move<'a>>,
    /// Commanders in chief and line leaders.
    pub leaders: Vec<Move<'a>>,
    pub units: Vec<Move<'a>>,
    pub zones: Vec<Move<'a>>,
    /// Unit kinds renamed (the settings dialog): units' `kind`, the stacking terms, the
    /// counters' backs by kind, conversion rules.
    pub kinds: Vec<Move<'a>>,
}

/// Where `id` goes: `None` if it stays, `Some(None)` if deleted, `Some(Some(new))` if renamed.
fn find<'a>(moves: &[Move<'a>], id: &Id) -> Option<Option<&'a Id>> {
    moves
        .iter()
        .find(|(old, _)| *old == id)
        .map(|(_, new)| *new)
}

/// Follows each id of a list: renamed in place, deleted from the list.
fn follow_list(moves: &[Move<'_>], ids: &mut Vec<Id>) {
    ids.retain_mut(|id| match find(moves, id) {
        Some(Some(new)) => {
            *id = new.clone();
            true
        }
        Some(None) => false,
        None => true,
    });
}

/// Follows one id: `false` when it is deleted (the caller drops what holds it).
fn follow_one(moves: &[Move<'_>], id: &mut Id) -> bool {
    match find(moves, id) {
        Some(Some(new)) => {
            *id = new.clone();
            true
        }
        Some(None) => false,
        None => true,
    }
}

impl<'a> IdMoves<'a> {
    fn owner(&self, owner: &mut Owner) -> bool {
        match owner {
            Owner::Army(id) => follow_one(&self.armies, id),
            Owner::Corps(id) => follow_one(&self.corps, id),
        }
    }

    /// A placement following its zone: renamed, or (deleted) on its chosen hex or not placed.
    fn placement(&self, p: &mut Placement) {
        if let Placement::Free { zone, at } = p
            && !follow_one(&self.zones, zone)
        {
            *p = match at.take() {
                Some(hex) => Placement::Hex(hex),
                None => Placement::Unplaced,
            };
        }
    }

    fn settings(&self, s: &Scenario) -> Option<Change> {
        let before = Settings::of(s);
        let mut after = before.clone();
        let victory = &mut after.victory;
        victory
            .unit_objectives
            .retain_mut(|o| follow_one(&self.units, &mut o.unit));
        victory.leader_losses.retain_mut(|l| {
            follow_one(&self.leaders, &mut l.leader) && follow_one(&self.armies, &mut l.winner)
        });
        victory
            .holds
            .retain_mut(|h| follow_one(&self.armies, &mut h.army));
        // A side lists armies; one left with none goes (a side has at least one army), and so
        // does a condition for it, or for a deleted army.
        for side in &mut after.sides {
            follow_list(&self.armies, &mut side.armies);
        }
        let gone: Vec<Id> = after
            .sides
            .iter()
            .filter(|side| side.armies.is_empty())
            .map(|side| side.id.clone())
            .collect();
        after.sides.retain(|side| !side.armies.is_empty());
        victory.conditions.retain_mut(|c| {
            let side = condition_side(c);
            !gone.contains(side) && follow_one(&self.armies, side)
        });
        let rules = &mut after.rules;
        rules
            .fire_restrictions
            .retain_mut(|r| follow_one(&self.armies, &mut r.army));
        for restriction in &mut rules.fire_restrictions {
            follow_list(&self.corps, &mut restriction.except_corps);
        }
        for kind in rules.unit_kinds.values_mut() {
            // An emptied list reads "any army": the kind had no other army to keep it for.
            follow_list(&self.armies, &mut kind.armies);
        }
        follow_kinds_in_rules(rules, &self.kinds);
        // A marker in an army's colour (Denain 9.4's aides de camp) follows its army; a deleted
        // army's markers go with it, as its zones do.
        rules.counters.markers.retain_mut(|m| match &mut m.army {
            Some(army) => follow_one(&self.armies, army),
            None => true,
        });
        (after != before).then(|| {
            Change::Scenario(ScenarioChange::Settings {
                before: Box::new(before),
                after: Box::new(after),
            })
        })
    }

    /// The counters of the armies not deleted: commanders' lists and placements, line leaders'
    /// placements, units' corps and placements.
    fn counters(&self, s: &Scenario, changes: &mut Vec<Change>) {
        for (a, army) in s.armies.iter().enumerate() {
            if self.deleted_army == Some(a) {
                continue;
            }
            for (k, chief) in army.commanders.iter().enumerate() {
                let mut after = chief.clone();
                follow_list(&self.corps, &mut after.commands);
                self.placement(&mut after.placement);
                if after != *chief {
                    changes.push(item_change(
                        ItemPath::Commander(a, k),
                        Some(Item::Commander(Box::new(chief.clone()))),
                        Some(Item::Commander(Box::new(after))),
                    ));
                }
            }
            for (c, corps) in army.corps.iter().enumerate() {
                let mut after = corps.clone();
                if let Some(leader) = after.leader.as_mut() {
                    self.placement(&mut leader.placement);
                }
                if after != *corps {
                    changes.push(item_change(
                        ItemPath::Corps(a, c),
                        Some(Item::Corps(Box::new(corps.clone()))),
                        Some(Item::Corps(Box::new(after))),
                    ));
                }
            }
            for (u, unit) in army.units.iter().enumerate() {
                let mut after = unit.clone();
                if let Some(corps) = after.corps.as_mut()
                    && let Some(Some(new)) = find(&self.corps, corps)
                {
                    // A deleted corps' units are deleted with it by the caller.
                    *corps = new.clone();
                }
                if let Some(Some(new)) = find(&self.kinds, &after.kind) {
                    // A kind in use is never deleted (the dialog does not offer it).
                    after.kind = new.clone();
                }
                self.placement(&mut after.placement);
                if after != *unit {
                    changes.push(item_change(
                        ItemPath::Unit(a, u),
                        Some(Item::Unit(Box::new(unit.clone()))),
                        Some(Item::Unit(Box::new(after))),
                    ));
                }
            }
        }
    }

    /// Zones: owners and `shared_with` followed; a deleted zone, or one whose army is deleted,
    /// goes (last, from the end, so the indices of the other changes hold); a deleted corps'
    /// zone passes to its army.
    fn zones(&self, s: &Scenario, changes: &mut Vec<Change>) {
        let mut deleted = Vec::new();
        for (z, zone) in s.zones.iter().enumerate() {
            if find(&self.zones, &zone.id) == Some(None) {
                deleted.push(z);
                continue;
            }
            let mut after = zone.clone();
            if !self.owner(&mut after.owner) {
                let army = match &zone.owner {
                    Owner::Corps(corps) => s
                        .armies
                        .iter()
                        .find(|army| army.corps.iter().any(|c| &c.id == corps)),
                    Owner::Army(_) => None,
                };
                let mut owner = army.map(|army| Owner::Army(army.id.clone()));
                let kept = owner.as_mut().is_some_and(|owner| self.owner(owner));
                match owner {
                    Some(owner) if kept => after.owner = owner,
                    _ => {
                        deleted.push(z);
                        continue;
                    }
                }
            }
            after.shared_with.retain_mut(|o| self.owner(o));
            if after != *zone {
                changes.push(item_change(
                    ItemPath::Zone(z),
                    Some(Item::Zone(Box::new(zone.clone()))),
                    Some(Item::Zone(Box::new(after))),
                ));
            }
        }
        for z in deleted.into_iter().rev() {
            changes.push(item_change(
                ItemPath::Zone(z),
                Some(Item::Zone(Box::new(s.zones[z].clone()))),
                None,
            ));
        }
    }

    /// The miniatures entries: conversion rules and leaders' ratings.
    fn miniatures(&self, s: &Scenario, changes: &mut Vec<Change>) {
        let convertible: Vec<Move<'_>> = [&self.units, &self.corps, &self.armies]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        changes.extend(edit_conversions(s, |rules| {
            let mut after = Vec::with_capacity(rules.len());
            for rule in rules {
                let mut rule = rule.clone();
                let mut emptied = false;
                for list in [&mut rule.units, &mut rule.corps, &mut rule.armies] {
                    let named = !list.is_empty();
                    follow_list(&convertible, list);
                    emptied |= named && list.is_empty();
                }
                let named = !rule.kinds.is_empty();
                follow_list(&self.kinds, &mut rule.kinds);
                emptied |= named && rule.kinds.is_empty();
                if !emptied {
                    after.push(rule);
                }
            }
            after
        }));
        for (m, used) in s.miniatures.iter().enumerate() {
            for (old, new) in &self.leaders {
                let Some(ratings) = used.leaders.get(*old) else {
                    continue;
                };
                if Some(*old) == *new {
                    continue;
                }
                changes.push(Change::Scenario(ScenarioChange::LeaderRatings {
                    system: m,
                    leader: (*old).clone(),
                    before: Some(ratings.clone()),
                    after: None,
                }));
                if let Some(new) = new {
                    changes.push(Change::Scenario(ScenarioChange::LeaderRatings {
                        system: m,
                        leader: (*new).clone(),
                        before: used.leaders.get(*new).cloned(),
                        after: Some(ratings.clone()),
                    }));
                }
            }
        }
    }
}

/// The side or army a victory condition is for, to follow.
fn condition_side(condition: &mut VictoryCondition) -> &mut Id {
    match condition {
        VictoryCondition::Exit { side, .. }
        | VictoryCondition::FirstToDestroy { side, .. }
        | VictoryCondition::LossThreshold { side, .. }
        | VictoryCondition::PointsPerEnemyStrength { side, .. } => side,
    }
}

/// What in the rules names unit kinds follows `kinds` renamed or deleted: the stacking
/// compositions' terms (a term emptied by a deletion goes, its composition with its last term)
/// and the counters' backs by kind. The kinds themselves (`unit_kinds`) are the caller's.
pub fn follow_kinds_in_rules(rules: &mut Rules, kinds: &[Move<'_>]) {
    if kinds.is_empty() {
        return;
    }
    for composition in &mut rules.stacking.compositions {
        composition.terms.retain_mut(|term| {
            let named = !term.kinds.is_empty();
            follow_list(kinds, &mut term.kinds);
            !(named && term.kinds.is_empty())
        });
    }
    rules
        .stacking
        .compositions
        .retain(|composition| !composition.terms.is_empty());
    let backs = std::mem::take(&mut rules.counters.back_by_kind);
    rules.counters.back_by_kind = backs
        .into_iter()
        .filter_map(|(mut kind, back)| follow_one(kinds, &mut kind).then_some((kind, back)))
        .collect();
}

/// The changes outside the scenario's settings that follow unit kinds renamed (units' `kind`,
/// conversion rules): the settings dialog renames kinds in its own settings change, with
/// [`follow_kinds_in_rules`].
pub fn follow_kind_renames(s: &Scenario, kinds: &[Move<'_>]) -> Vec<Change> {
    let moves = IdMoves {
        kinds: kinds.to_vec(),
        ..IdMoves::default()
    };
    let mut changes = Vec::new();
    moves.counters(s, &mut changes);
    moves.miniatures(s, &mut changes);
    changes
}

/// The changes that make the rest of the scenario follow `moves` (see the module's list), each
/// item changed once; applied before the change of the moved items themselves.
pub fn follow_ids(s: &Scenario, moves: &IdMoves<'_>) -> Vec<Change> {
    let mut changes = Vec::new();
    changes.extend(moves.settings(s));
    moves.counters(s, &mut changes);
    moves.zones(s, &mut changes);
    moves.miniatures(s, &mut changes);
    changes
}
