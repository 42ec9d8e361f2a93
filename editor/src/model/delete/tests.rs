//! The deletions and their bookkeeping, on the bundled battles.

use super::*;
use crate::model::scenario_edit::ScenarioChange;
use bataille_schema::scenario::{Conversion, Owner, Placement};

/// The changes that follow units renamed or deleted.
fn follow_in_conversions(s: &Scenario, units: &[Move<'_>]) -> Vec<Change> {
    follow_ids(
        s,
        &IdMoves {
            units: units.to_vec(),
            ..IdMoves::default()
        },
    )
}

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
    let s = denain();
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

/// The bundled battles as shipped, with their names.
fn bundled() -> Vec<(&'static str, Scenario)> {
    crate::model::templates::BUNDLED_SCENARIOS
        .iter()
        .map(|(name, text)| {
            let file = bataille_schema::SourceFile::new(name, (*text).to_owned());
            let s = bataille_schema::io::parse_scenario(&file).expect("a bundled scenario parses");
            (*name, s)
        })
        .collect()
}

/// Denain as shipped.
fn denain() -> Scenario {
    bundled().swap_remove(0).1
}

/// The conversion rules after `changes`, system by system (as they were where unchanged).
fn rules_after(s: &Scenario, changes: &[Change]) -> Vec<Vec<Conversion>> {
    let mut rules: Vec<Vec<Conversion>> = s.miniatures.iter().map(|m| m.convert.clone()).collect();
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
    assert!(rules.iter().flatten().all(
        |r| !r.units.is_empty() || s.miniatures.iter().flat_map(|m| &m.convert).any(|b| b == r)
    ));
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

/// The E02xx references of a scenario (ids it names that do not exist), as the validator
/// reports them.
fn dangling(s: &Scenario) -> Vec<String> {
    let options = bataille_validator::Options::editor();
    bataille_validator::validate_scenario_alone(s, &options)
        .into_iter()
        .filter(|d| d.code.as_str().starts_with("E02"))
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

/// A document holding `s`, with `changes` applied.
fn document_after(s: &Scenario, changes: &[Change]) -> crate::model::document::Document {
    use crate::model::document::{Document, NewMapSettings, ScenarioFile};
    let mut doc = Document::new_map(&NewMapSettings::default());
    doc.scenario = Some(ScenarioFile {
        scenario: s.clone(),
        path: "s.ron".into(),
    });
    for change in changes {
        change.apply(&mut doc, true);
    }
    doc
}

/// Applies a deletion's changes to a document holding `s`, checks what is left, undoes
/// them in reverse and checks the scenario is back as it was.
fn delete_and_undo(s: &Scenario, what: &str, changes: &[Change]) -> Scenario {
    let mut doc = document_after(s, changes);
    let after = doc.scenario.as_ref().expect("a scenario").scenario.clone();
    for change in changes.iter().rev() {
        change.apply(&mut doc, false);
    }
    assert_eq!(
        &doc.scenario.as_ref().expect("a scenario").scenario,
        s,
        "undoing '{what}' gives the scenario back"
    );
    after
}

/// Every army, commander, corps, unit and zone of both bundled battles deleted in turn:
/// nothing the validator reports as an unknown id is left behind (Fontenoy 13 and Denain 13.3
/// name units, leaders and armies in the victory conditions; 8.1 names corps in the
/// commanders' lists; zones name their owners), and undo restores the scenario exactly.
#[test]
fn no_deletion_leaves_a_dangling_reference_and_undo_restores_all() {
    for (name, s) in bundled() {
        assert_eq!(dangling(&s), Vec::<String>::new(), "{name} as shipped");
        let mut deletions: Vec<(String, Vec<Change>)> = Vec::new();
        for (a, army) in s.armies.iter().enumerate() {
            deletions.push(delete_army(&s, a));
            for k in 0..army.commanders.len() {
                deletions.push(delete_commander(&s, a, k));
            }
            for c in 0..army.corps.len() {
                deletions.push(delete_corps(&s, a, c));
            }
            for u in 0..army.units.len() {
                deletions.push(delete_unit(&s, a, u));
            }
        }
        for z in 0..s.zones.len() {
            deletions.push(delete_zone(&s, z));
        }
        for (i, (label, changes)) in deletions.iter().enumerate() {
            let after = delete_and_undo(&s, label, changes);
            assert_eq!(
                dangling(&after),
                Vec::<String>::new(),
                "{name}: deletion #{i} ({label})"
            );
        }
    }
}

#[test]
fn deleting_what_the_victory_conditions_name_drops_those_conditions() {
    let s = denain();
    // Denain 13.3: the garrison's baggage is worth 10 points; 8.4: Villars's loss.
    let (a, u) = crate::model::scenario_edit::find_unit(&s, "al-bagages").expect("baggage");
    let after = delete_and_undo(&s, "baggage", &delete_unit(&s, a, u).1);
    assert!(after.victory.unit_objectives.is_empty());
    assert_eq!(after.victory.leader_losses, s.victory.leader_losses);
    let (a, k) = s
        .armies
        .iter()
        .enumerate()
        .find_map(|(a, army)| {
            let k = army
                .commanders
                .iter()
                .position(|k| k.id.as_str() == "fr-villars")?;
            Some((a, k))
        })
        .expect("Villars");
    let after = delete_and_undo(&s, "Villars", &delete_commander(&s, a, k).1);
    let losses: Vec<&str> = after
        .victory
        .leader_losses
        .iter()
        .map(|l| l.leader.as_str())
        .collect();
    assert_eq!(losses, ["al-eugene"]);
    // Deleting the French army drops Eugène's loss too (the French were its winner).
    let after = delete_and_undo(&s, "French", &delete_army(&s, a).1);
    assert!(after.victory.leader_losses.is_empty());
    // Its zones go with it (Denain's French zones are its corps').
    let french: Vec<&Id> = std::iter::once(&s.armies[a].id)
        .chain(s.armies[a].corps.iter().map(|c| &c.id))
        .collect();
    let owned = |z: &bataille_schema::scenario::Zone| match &z.owner {
        Owner::Army(id) | Owner::Corps(id) => french.contains(&id),
    };
    assert!(s.zones.iter().any(owned));
    assert!(!after.zones.iter().any(owned));
    assert_eq!(
        after.zones.len(),
        s.zones.iter().filter(|z| !owned(z)).count()
    );
}

#[test]
fn a_deleted_corps_zones_pass_to_its_army_and_free_counters_keep_their_hex() {
    let s = denain();
    let Some((z, zone)) = s
        .zones
        .iter()
        .enumerate()
        .find(|(_, z)| matches!(z.owner, Owner::Corps(_)))
    else {
        panic!("Denain has a corps' zone");
    };
    let Owner::Corps(corps) = &zone.owner else {
        unreachable!()
    };
    let (a, c) = s
        .armies
        .iter()
        .enumerate()
        .find_map(|(a, army)| Some((a, army.corps.iter().position(|c| &c.id == corps)?)))
        .expect("the zone's corps");
    let after = delete_and_undo(&s, "corps", &delete_corps(&s, a, c).1);
    assert_eq!(after.zones[z].owner, Owner::Army(s.armies[a].id.clone()));
    assert_eq!(after.zones[z].hexes, zone.hexes);
    // The zone deleted: whoever was free in it stands where it was, or is not placed.
    let after = delete_and_undo(&s, "zone", &delete_zone(&s, z).1);
    assert_eq!(after.zones.len(), s.zones.len() - 1);
    for (before, now) in s
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .zip(after.armies.iter().flat_map(|a| &a.units))
    {
        match &before.placement {
            Placement::Free { zone: id, at } if *id == zone.id => {
                let expected = at.clone().map_or(Placement::Unplaced, Placement::Hex);
                assert_eq!(now.placement, expected, "{}", before.id);
            }
            other => assert_eq!(&now.placement, other),
        }
    }
}

/// Applies changes to a document holding `s` and gives the scenario after them.
fn applied(s: &Scenario, changes: &[Change]) -> Scenario {
    document_after(s, changes)
        .scenario
        .expect("a scenario")
        .scenario
}

/// Every army, corps, commander, line leader, unit and zone of both bundled battles renamed in
/// turn: once the item itself has its new id, nothing names the old one (the validator reports
/// no unknown id) and the new id is named wherever the old one was.
#[test]
fn every_rename_is_followed_wherever_the_id_is_named() {
    for (name, s) in bundled() {
        let text_of = |s: &Scenario| bataille_schema::io::scenario_to_string(s).expect("writes");
        let mut ids: Vec<(&'static str, Id)> = Vec::new();
        for army in &s.armies {
            ids.push(("army", army.id.clone()));
            ids.extend(army.commanders.iter().map(|k| ("leader", k.id.clone())));
            for corps in &army.corps {
                ids.push(("corps", corps.id.clone()));
                ids.extend(corps.leader.iter().map(|l| ("leader", l.id.clone())));
            }
            ids.extend(army.units.iter().map(|u| ("unit", u.id.clone())));
        }
        ids.extend(s.zones.iter().map(|z| ("zone", z.id.clone())));
        for (kind, old) in ids {
            let new = Id::from(format!("{}-renamed", old.as_str()));
            let mut moves = IdMoves::default();
            let list = match kind {
                "army" => &mut moves.armies,
                "corps" => &mut moves.corps,
                "leader" => &mut moves.leaders,
                "unit" => &mut moves.units,
                _ => &mut moves.zones,
            };
            list.push((&old, Some(&new)));
            let mut after = applied(&s, &follow_ids(&s, &moves));
            // The item itself, as the form's change does.
            let rename = |id: &mut Id| {
                if *id == old {
                    *id = new.clone();
                }
            };
            for army in &mut after.armies {
                rename(&mut army.id);
                army.commanders.iter_mut().for_each(|k| rename(&mut k.id));
                for corps in &mut army.corps {
                    rename(&mut corps.id);
                    corps.leader.iter_mut().for_each(|l| rename(&mut l.id));
                }
                army.units.iter_mut().for_each(|u| rename(&mut u.id));
            }
            for zone in &mut after.zones {
                if zone.id == old {
                    zone.id = new.clone();
                }
            }
            assert_eq!(
                dangling(&after),
                Vec::<String>::new(),
                "{name}: {kind} {old} renamed"
            );
            // Every mention moved: the old id, quoted, appears as often as the new one now
            // (a rating's text that happens to read like an id, `Text("french")`, is no id).
            let count = |text: &str, id: &Id| {
                let quoted = format!("\"{}\"", id.as_str());
                text.matches(&quoted).count() - text.matches(&format!("Text({quoted})")).count()
            };
            let (before_text, after_text) = (text_of(&s), text_of(&after));
            assert_eq!(
                count(&after_text, &old),
                0,
                "{name}: {kind} {old} still named"
            );
            assert_eq!(
                count(&after_text, &new),
                count(&before_text, &old),
                "{name}: {kind} {old}"
            );
        }
    }
}

/// Napoleon at Waterloo 8 as shipped, with one more condition naming an army, not a side (a
/// condition's `side` may name either): the Prussians' own loss threshold.
fn waterloo() -> Scenario {
    let text = include_str!("../../../../scenarios/napoleon-at-waterloo.ron");
    let file = bataille_schema::SourceFile::new("napoleon-at-waterloo.ron", text.to_owned());
    let mut s = bataille_schema::io::parse_scenario(&file).expect("Waterloo parses");
    s.victory
        .conditions
        .push(bataille_schema::scenario::VictoryCondition::LossThreshold {
            side: Id::from("prussian"),
            strength: 20,
            effect: "The Prussians withdraw".to_owned(),
        });
    assert_eq!(dangling(&s), Vec::<String>::new(), "Waterloo as set up");
    s
}

fn sides_of(s: &Scenario) -> Vec<(String, Vec<String>)> {
    s.sides
        .iter()
        .map(|side| {
            let armies = side.armies.iter().map(|a| a.as_str().to_owned()).collect();
            (side.id.as_str().to_owned(), armies)
        })
        .collect()
}

fn condition_sides(s: &Scenario) -> Vec<String> {
    s.victory
        .conditions
        .iter()
        .map(|c| c.side().as_str().to_owned())
        .collect()
}

/// An army renamed or deleted: the sides' lists of armies and the victory conditions naming
/// the army follow (Napoleon at Waterloo 8: the Allies are the Anglo-Allied and Prussian
/// armies), and undo gives everything back.
#[test]
fn sides_and_victory_conditions_follow_an_army_renamed_or_deleted() {
    let s = waterloo();
    let p = s
        .armies
        .iter()
        .position(|a| a.id.as_str() == "prussian")
        .expect("the Prussians");
    // Renamed: the side lists the new id, the condition names it.
    let (old, new) = (Id::from("prussian"), Id::from("preussen"));
    let moves = IdMoves {
        armies: vec![(&old, Some(&new))],
        ..IdMoves::default()
    };
    let mut after = applied(&s, &follow_ids(&s, &moves));
    after.armies[p].id = new.clone();
    assert_eq!(dangling(&after), Vec::<String>::new());
    assert_eq!(
        sides_of(&after),
        [
            ("france".to_owned(), vec!["french".to_owned()]),
            (
                "allies".to_owned(),
                vec!["anglo-allied".to_owned(), "preussen".to_owned()]
            )
        ]
    );
    assert_eq!(
        condition_sides(&after),
        ["allies", "allies", "france", "preussen"]
    );
    // Deleted: it leaves its side, and the condition for it goes.
    let after = delete_and_undo(&s, "Prussians", &delete_army(&s, p).1);
    assert_eq!(dangling(&after), Vec::<String>::new());
    assert_eq!(sides_of(&after)[1].1, ["anglo-allied"]);
    assert_eq!(condition_sides(&after), ["allies", "allies", "france"]);
    // The French deleted: their side is left with no army and goes, with its conditions.
    let f = s
        .armies
        .iter()
        .position(|a| a.id.as_str() == "french")
        .expect("the French");
    let after = delete_and_undo(&s, "French", &delete_army(&s, f).1);
    assert_eq!(dangling(&after), Vec::<String>::new());
    assert_eq!(
        sides_of(&after),
        [(
            "allies".to_owned(),
            vec!["anglo-allied".to_owned(), "prussian".to_owned()]
        )]
    );
    assert_eq!(condition_sides(&after), ["allies", "allies", "prussian"]);
}
