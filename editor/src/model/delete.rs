//! Deleting from the order of battle: each deletion is the item's removal plus what
//! [`follow_ids`] says the rest of the scenario needs (victory conditions, rules, commanders'
//! lists, zones, counters free in a deleted zone, the miniatures entries), in one undo step.

use bataille_schema::Id;
use bataille_schema::scenario::Scenario;

use crate::model::history::Change;
use crate::model::oob_ops::item_change;
use crate::model::references::{IdMoves, Move, follow_ids};
use crate::model::scenario_edit::{Item, ItemPath};

fn deleted(id: &Id) -> Move<'_> {
    (id, None)
}

/// Deletes an army with its commanders, corps and units, and the zones of the army and of its
/// corps.
pub fn delete_army(s: &Scenario, a: usize) -> (String, Vec<Change>) {
    let label = "Delete army".to_owned();
    let Some(army) = s.armies.get(a) else {
        return (label, Vec::new());
    };
    let leaders = army.commanders.iter().map(|k| &k.id).chain(
        army.corps
            .iter()
            .filter_map(|c| c.leader.as_ref().map(|l| &l.id)),
    );
    let moves = IdMoves {
        deleted_army: Some(a),
        armies: vec![deleted(&army.id)],
        corps: army.corps.iter().map(|c| deleted(&c.id)).collect(),
        leaders: leaders.map(deleted).collect(),
        units: army.units.iter().map(|u| deleted(&u.id)).collect(),
        zones: Vec::new(),
        kinds: Vec::new(),
    };
    let mut changes = follow_ids(s, &moves);
    changes.push(item_change(
        ItemPath::Army(a),
        Some(Item::Army(Box::new(army.clone()))),
        None,
    ));
    (label, changes)
}

/// Deletes a commander in chief.
pub fn delete_commander(s: &Scenario, a: usize, k: usize) -> (String, Vec<Change>) {
    let label = "Delete commander".to_owned();
    let Some(chief) = s.armies.get(a).and_then(|army| army.commanders.get(k)) else {
        return (label, Vec::new());
    };
    let moves = IdMoves {
        leaders: vec![deleted(&chief.id)],
        ..IdMoves::default()
    };
    let mut changes = follow_ids(s, &moves);
    changes.push(item_change(
        ItemPath::Commander(a, k),
        Some(Item::Commander(Box::new(chief.clone()))),
        None,
    ));
    (label, changes)
}

/// Deletes a corps with its line leader and its units; its zones pass to its army.
pub fn delete_corps(s: &Scenario, a: usize, c: usize) -> (String, Vec<Change>) {
    let label = "Delete corps".to_owned();
    let Some((army, corps)) = s
        .armies
        .get(a)
        .and_then(|army| Some((army, army.corps.get(c)?)))
    else {
        return (label, Vec::new());
    };
    let in_corps = |u: &&bataille_schema::scenario::Unit| u.corps.as_ref() == Some(&corps.id);
    let moves = IdMoves {
        corps: vec![deleted(&corps.id)],
        leaders: corps.leader.iter().map(|l| deleted(&l.id)).collect(),
        units: army
            .units
            .iter()
            .filter(in_corps)
            .map(|u| deleted(&u.id))
            .collect(),
        ..IdMoves::default()
    };
    let mut changes = follow_ids(s, &moves);
    // The units from the end, so the indices still hold; then the corps.
    for (u, unit) in army.units.iter().enumerate().rev() {
        if in_corps(&unit) {
            changes.push(item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                None,
            ));
        }
    }
    changes.push(item_change(
        ItemPath::Corps(a, c),
        Some(Item::Corps(Box::new(corps.clone()))),
        None,
    ));
    (label, changes)
}

/// Deletes a unit.
pub fn delete_unit(s: &Scenario, a: usize, u: usize) -> (String, Vec<Change>) {
    let label = "Delete unit".to_owned();
    let Some(unit) = s.armies.get(a).and_then(|army| army.units.get(u)) else {
        return (label, Vec::new());
    };
    let moves = IdMoves {
        units: vec![deleted(&unit.id)],
        ..IdMoves::default()
    };
    let mut changes = follow_ids(s, &moves);
    changes.push(item_change(
        ItemPath::Unit(a, u),
        Some(Item::Unit(Box::new(unit.clone()))),
        None,
    ));
    (label, changes)
}

/// Deletes a zone: counters free in it stand on their chosen hex (or are not placed).
pub fn delete_zone(s: &Scenario, z: usize) -> (String, Vec<Change>) {
    let label = "Delete zone".to_owned();
    let Some(zone) = s.zones.get(z) else {
        return (label, Vec::new());
    };
    // `follow_ids` deletes a deleted zone itself, after the counters' changes.
    let moves = IdMoves {
        zones: vec![deleted(&zone.id)],
        ..IdMoves::default()
    };
    (label, follow_ids(s, &moves))
}

#[cfg(test)]
mod tests;
