//! Deleting from the order of battle, and the bookkeeping that follows a leader's id: its
//! miniatures ratings (`miniatures[].leaders`, keyed by id) go with a deleted leader and follow
//! a renamed one, in the same undo step.

use bataille_schema::Id;
use bataille_schema::scenario::Scenario;

use crate::model::history::Change;
use crate::model::oob_ops::item_change;
use crate::model::scenario_edit::{Item, ItemPath, ScenarioChange};

/// Deletes an army, and the miniatures ratings of its commanders and line leaders.
pub fn delete_army(s: &Scenario, a: usize) -> (String, Vec<Change>) {
    let Some(army) = s.armies.get(a) else {
        return ("Delete army".to_owned(), Vec::new());
    };
    let leaders = army.commanders.iter().map(|k| &k.id).chain(
        army.corps
            .iter()
            .filter_map(|c| c.leader.as_ref().map(|l| &l.id)),
    );
    let mut changes = forget_leader_ratings(s, leaders);
    changes.push(item_change(
        ItemPath::Army(a),
        Some(Item::Army(Box::new(army.clone()))),
        None,
    ));
    ("Delete army".to_owned(), changes)
}

/// Deletes a commander, and its miniatures ratings.
pub fn delete_commander(s: &Scenario, a: usize, k: usize) -> (String, Vec<Change>) {
    let Some(chief) = s.armies.get(a).and_then(|army| army.commanders.get(k)) else {
        return ("Delete commander".to_owned(), Vec::new());
    };
    let mut changes = forget_leader_ratings(s, [&chief.id]);
    changes.push(item_change(
        ItemPath::Commander(a, k),
        Some(Item::Commander(Box::new(chief.clone()))),
        None,
    ));
    ("Delete commander".to_owned(), changes)
}

/// Deletes a corps with its units, and its line leader's miniatures ratings.
pub fn delete_corps(s: &Scenario, a: usize, c: usize) -> (String, Vec<Change>) {
    let Some((army, corps)) = s
        .armies
        .get(a)
        .and_then(|army| Some((army, army.corps.get(c)?)))
    else {
        return ("Delete corps".to_owned(), Vec::new());
    };
    let mut changes: Vec<Change> = army
        .units
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, u)| u.corps.as_ref() == Some(&corps.id))
        .map(|(u, unit)| {
            item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                None,
            )
        })
        .collect();
    changes.extend(forget_leader_ratings(
        s,
        corps.leader.as_ref().map(|l| &l.id),
    ));
    changes.push(item_change(
        ItemPath::Corps(a, c),
        Some(Item::Corps(Box::new(corps.clone()))),
        None,
    ));
    ("Delete corps".to_owned(), changes)
}

/// A leader's ratings follow its id when it is renamed (`miniatures[].leaders` is keyed by id):
/// the changes that move them, none when the id is the same.
pub fn rename_leader_ratings(s: &Scenario, old: &Id, new: &Id) -> Vec<Change> {
    if old == new {
        return Vec::new();
    }
    let mut changes = Vec::new();
    for (m, used) in s.miniatures.iter().enumerate() {
        let Some(ratings) = used.leaders.get(old) else {
            continue;
        };
        changes.push(Change::Scenario(ScenarioChange::LeaderRatings {
            system: m,
            leader: old.clone(),
            before: Some(ratings.clone()),
            after: None,
        }));
        changes.push(Change::Scenario(ScenarioChange::LeaderRatings {
            system: m,
            leader: new.clone(),
            before: used.leaders.get(new).cloned(),
            after: Some(ratings.clone()),
        }));
    }
    changes
}

/// A deleted commander or line leader takes its ratings with it (`miniatures[].leaders` is keyed
/// by id; an entry left behind would be an E0205 the user never caused): the changes that
/// remove them, in the same undo step as the deletion.
pub fn forget_leader_ratings<'a>(
    s: &Scenario,
    ids: impl IntoIterator<Item = &'a Id>,
) -> Vec<Change> {
    let ids: Vec<&Id> = ids.into_iter().collect();
    let mut changes = Vec::new();
    for (m, used) in s.miniatures.iter().enumerate() {
        for id in &ids {
            if let Some(ratings) = used.leaders.get(*id) {
                changes.push(Change::Scenario(ScenarioChange::LeaderRatings {
                    system: m,
                    leader: (*id).clone(),
                    before: Some(ratings.clone()),
                    after: None,
                }));
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The leaders whose miniatures ratings a deletion removes.
    fn ratings_forgotten(changes: &[Change]) -> Vec<String> {
        changes
            .iter()
            .filter_map(|c| match c {
                Change::Scenario(ScenarioChange::LeaderRatings {
                    leader,
                    after: None,
                    ..
                }) => Some(leader.as_str().to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn deleting_a_leader_takes_its_miniatures_ratings_with_it() {
        let (_, text) = crate::model::templates::BUNDLED_SCENARIOS[0];
        let s = bataille_schema::io::parse_scenario(&bataille_schema::SourceFile::new(
            "denain-1712.ron",
            text.to_owned(),
        ))
        .expect("Denain parses");
        let a = s
            .armies
            .iter()
            .position(|army| {
                army.commanders
                    .iter()
                    .any(|k| k.id.as_str() == "fr-villars")
            })
            .expect("Villars's army");
        let k = s.armies[a]
            .commanders
            .iter()
            .position(|k| k.id.as_str() == "fr-villars")
            .expect("Villars");
        // Denain's Age of Honor entry rates Villars and Montesquiou (reserve modifiers); the
        // Louis XIV entry may rate them too: every system's entry goes.
        let forgotten = ratings_forgotten(&delete_commander(&s, a, k).1);
        assert!(!forgotten.is_empty());
        assert!(forgotten.iter().all(|l| l == "fr-villars"), "{forgotten:?}");
        let forgotten = ratings_forgotten(&delete_army(&s, a).1);
        assert!(forgotten.iter().any(|l| l == "fr-villars"), "{forgotten:?}");
        assert!(
            forgotten.iter().any(|l| l == "fr-montesquiou"),
            "{forgotten:?}"
        );
        assert!(
            !forgotten.iter().any(|l| l.starts_with("al-")),
            "{forgotten:?}"
        );
        // A corps takes its units with it, and its leader's ratings when it has any.
        let c = 0;
        let (_, changes) = delete_corps(&s, a, c);
        let units = s.armies[a]
            .units
            .iter()
            .filter(|u| u.corps.as_ref() == Some(&s.armies[a].corps[c].id))
            .count();
        let removed = changes
            .iter()
            .filter(|c| {
                matches!(
                    c,
                    Change::Scenario(ScenarioChange::Item {
                        path: ItemPath::Unit(..),
                        after: None,
                        ..
                    })
                )
            })
            .count();
        assert_eq!(removed, units);
    }
}
