//! Deleting from the order of battle, and the bookkeeping that follows ids into the miniatures
//! entries, in the same undo step: a leader's ratings (`miniatures[].leaders`, keyed by id) go
//! with a deleted leader and follow a renamed one; the conversion rules' lists of units, corps
//! and armies (`miniatures[].convert[]`) follow a renamed id and drop a deleted one.

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
    let gone: Vec<(&Id, Option<&Id>)> = std::iter::once(&army.id)
        .chain(army.corps.iter().map(|c| &c.id))
        .chain(army.units.iter().map(|u| &u.id))
        .map(|id| (id, None))
        .collect();
    changes.extend(follow_in_conversions(s, &gone));
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
    let gone: Vec<(&Id, Option<&Id>)> = std::iter::once(&corps.id)
        .chain(
            army.units
                .iter()
                .filter(|u| u.corps.as_ref() == Some(&corps.id))
                .map(|u| &u.id),
        )
        .map(|id| (id, None))
        .collect();
    changes.extend(follow_in_conversions(s, &gone));
    changes.push(item_change(
        ItemPath::Corps(a, c),
        Some(Item::Corps(Box::new(corps.clone()))),
        None,
    ));
    ("Delete corps".to_owned(), changes)
}

/// Deletes a unit, and drops it from the conversion rules that name it.
pub fn delete_unit(s: &Scenario, a: usize, u: usize) -> (String, Vec<Change>) {
    let Some(unit) = s.armies.get(a).and_then(|army| army.units.get(u)) else {
        return ("Delete unit".to_owned(), Vec::new());
    };
    let mut changes = follow_in_conversions(s, &[(&unit.id, None)]);
    changes.push(item_change(
        ItemPath::Unit(a, u),
        Some(Item::Unit(Box::new(unit.clone()))),
        None,
    ));
    ("Delete unit".to_owned(), changes)
}

/// The conversion rules (`miniatures[].convert[]`) name units, corps and armies by id: each id
/// of `ids` follows its rename (`Some(new)`) or, deleted (`None`), leaves the lists; a rule
/// whose list that empties goes too (an empty list means "any": the rule would reach every
/// counter). One change per system whose rules changed; none when no rule names the ids.
pub fn follow_in_conversions(s: &Scenario, ids: &[(&Id, Option<&Id>)]) -> Vec<Change> {
    let mut changes = Vec::new();
    for (m, used) in s.miniatures.iter().enumerate() {
        let mut after = Vec::with_capacity(used.convert.len());
        for rule in &used.convert {
            let mut rule = rule.clone();
            let mut emptied = false;
            for list in [&mut rule.units, &mut rule.corps, &mut rule.armies] {
                let named = !list.is_empty();
                list.retain_mut(|id| match ids.iter().find(|(old, _)| *old == id) {
                    Some((_, Some(new))) => {
                        *id = (*new).clone();
                        true
                    }
                    Some((_, None)) => false,
                    None => true,
                });
                emptied |= named && list.is_empty();
            }
            if !emptied {
                after.push(rule);
            }
        }
        if after != used.convert {
            changes.push(Change::Scenario(ScenarioChange::Conversions {
                system: m,
                before: used.convert.clone(),
                after,
            }));
        }
    }
    changes
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
    use bataille_schema::scenario::Conversion;

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

    /// Denain as shipped.
    fn denain() -> Scenario {
        let (_, text) = crate::model::templates::BUNDLED_SCENARIOS[0];
        bataille_schema::io::parse_scenario(&bataille_schema::SourceFile::new(
            "denain-1712.ron",
            text.to_owned(),
        ))
        .expect("Denain parses")
    }

    /// The conversion rules after `changes`, system by system (as they were where unchanged).
    fn rules_after(s: &Scenario, changes: &[Change]) -> Vec<Vec<Conversion>> {
        let mut rules: Vec<Vec<Conversion>> =
            s.miniatures.iter().map(|m| m.convert.clone()).collect();
        for change in changes {
            if let Change::Scenario(ScenarioChange::Conversions { system, after, .. }) = change {
                rules[*system] = after.clone();
            }
        }
        rules
    }

    fn naming<'r>(rules: &'r [Conversion], id: &str) -> Vec<&'r Conversion> {
        rules
            .iter()
            .filter(|r| r.units.iter().any(|u| u.as_str() == id))
            .collect()
    }

    #[test]
    fn conversion_rules_follow_a_renamed_unit_and_drop_a_deleted_one() {
        let s = denain();
        // Both systems name Fechenbach 1/ (Age of Honor's fire by rank, Louis XIV's nation).
        let old = Id::from("al-fechenbach-1");
        let new = Id::from("al-fechenbach-i");
        let changes = follow_in_conversions(&s, &[(&old, Some(&new))]);
        assert_eq!(changes.len(), 2, "one change per system");
        for (before, after) in s.miniatures.iter().zip(rules_after(&s, &changes)) {
            assert_eq!(naming(&after, "al-fechenbach-1").len(), 0);
            assert_eq!(
                naming(&after, "al-fechenbach-i").len(),
                naming(&before.convert, "al-fechenbach-1").len()
            );
            assert_eq!(after.len(), before.convert.len(), "no rule lost");
        }
        assert!(follow_in_conversions(&s, &[(&Id::from("fr-navarre"), None)]).is_empty());

        // Deleted, it leaves the lists; the rules for its neighbours stay.
        let (a, u) = crate::model::scenario_edit::find_unit(&s, "al-fechenbach-1").expect("unit");
        let (_, changes) = delete_unit(&s, a, u);
        let rules = rules_after(&s, &changes);
        for (before, after) in s.miniatures.iter().zip(&rules) {
            assert!(naming(after, "al-fechenbach-1").is_empty());
            assert_eq!(after.len(), before.convert.len());
        }
        assert!(!naming(&rules[0], "al-fechenbach-2").is_empty());
        // A rule for that unit alone goes with it: left empty, it would convert every counter.
        let (a, u) =
            crate::model::scenario_edit::find_unit(&s, "al-derfflinger-dragons").expect("unit");
        let (_, changes) = delete_unit(&s, a, u);
        let rules = rules_after(&s, &changes);
        assert_eq!(rules[1].len(), s.miniatures[1].convert.len() - 1);
        assert!(
            rules.iter().flatten().all(|r| !r.units.is_empty()
                || s.miniatures.iter().flat_map(|m| &m.convert).any(|b| b == r))
        );
        // A deleted corps takes its units out of the lists too.
        let (_, changes) = delete_corps(
            &s,
            a,
            s.armies[a]
                .corps
                .iter()
                .position(|c| s.armies[a].units[u].corps.as_ref() == Some(&c.id))
                .expect("its corps"),
        );
        let rules = rules_after(&s, &changes);
        assert!(rules.iter().flatten().all(|r| {
            !r.units
                .iter()
                .any(|id| ["al-fechenbach-1", "al-derfflinger-dragons"].contains(&id.as_str()))
        }));
    }
}
