//! The miniatures checks (group 10) on in-memory documents, as the editor would call them: the
//! systems given in `Options::systems`, the scenario edited, validated again.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::PathBuf;

use bataille_schema::scenario::Rating;
use bataille_schema::system::load_system;
use bataille_schema::{Id, load_scenario};
use bataille_validator::{Code, Options, validate_documents};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn options() -> Options {
    Options {
        systems: ["age-of-honor", "louis-xiv"]
            .iter()
            .map(|id| load_system(&root().join(format!("systems/{id}.ron"))).unwrap())
            .collect(),
        ..Options::editor()
    }
}

fn group_10(d: &[bataille_validator::Diagnostic]) -> Vec<Code> {
    d.iter()
        .map(|d| d.code)
        .filter(|c| c.as_str()[1..].starts_with("10"))
        .collect()
}

#[test]
fn both_bundled_battles_are_clean_under_both_systems() {
    for name in ["fontenoy-1745.ron", "denain-1712.ron"] {
        let loaded = load_scenario(&root().join("scenarios").join(name)).unwrap();
        assert_eq!(
            loaded.scenario.miniatures.len(),
            2,
            "{name} supports both systems"
        );
        let d = validate_documents(&loaded.scenario, &loaded.map.map, &options());
        assert_eq!(group_10(&d), [], "{name}: {d:#?}");
    }
}

#[test]
fn edits_that_break_a_system_are_reported_and_without_systems_nothing_is() {
    let loaded = load_scenario(&root().join("scenarios/fontenoy-1745.ron")).unwrap();
    let map = loaded.map.map;
    let mut scenario = loaded.scenario;
    // Age of Honor: the Duke of Cumberland is -2 in the reserve movement table.
    let aoh = scenario
        .miniatures
        .iter_mut()
        .find(|m| m.system.as_str() == "age-of-honor")
        .unwrap();
    aoh.leaders
        .get_mut("al-cumberland")
        .unwrap()
        .insert(Id::from("reserve_modifier"), Rating::Number(1));
    // Louis XIV: a battalion on 4 bases; a guard battalion of a nation without guards.
    let unit = scenario.armies[0]
        .units
        .iter_mut()
        .find(|u| u.id.as_str() == "fr-roi-1")
        .unwrap();
    unit.ratings.insert(
        Id::from("louis-xiv"),
        [(Id::from("bases"), Rating::Number(4))]
            .into_iter()
            .collect(),
    );
    let d = validate_documents(&scenario, &map, &options());
    let codes = group_10(&d);
    assert!(codes.contains(&Code::E1008), "{d:#?}");
    assert!(codes.contains(&Code::E1006), "{d:#?}");
    let e1006 = d.iter().find(|d| d.code == Code::E1006).unwrap();
    assert_eq!(e1006.pointer, "/armies/0/units/17/ratings/louis-xiv/bases");
    assert_eq!(e1006.subject.as_deref(), Some("fr-roi-1"));
    // The editor without the system files: the checks that need them are skipped.
    assert_eq!(
        group_10(&validate_documents(&scenario, &map, &Options::editor())),
        []
    );
}

#[test]
fn a_third_system_is_a_file_not_code() {
    // A copy of the Louis XIV system under another id, with its battalions of 4 bases: the
    // same checks now want 4 bases, with no code change.
    let mut third = load_system(&root().join("systems/louis-xiv.ron")).unwrap();
    third.id = Id::from("louis-xiv-variant");
    for troop in third.troop_types.values_mut() {
        if troop.unit_name == "battalion" {
            troop.bases_per_unit = Some(4);
        }
    }
    let loaded = load_scenario(&root().join("scenarios/fontenoy-1745.ron")).unwrap();
    let mut scenario = loaded.scenario;
    let mut used = scenario
        .miniatures
        .iter()
        .find(|m| m.system.as_str() == "louis-xiv")
        .unwrap()
        .clone();
    used.system = third.id.clone();
    scenario.miniatures = vec![used];
    let options = Options {
        systems: vec![third],
        ..Options::editor()
    };
    let d = validate_documents(&scenario, &loaded.map.map, &options);
    assert_eq!(group_10(&d), [], "derived bases follow the system: {d:#?}");
    scenario.armies[0].units[0].ratings.insert(
        Id::from("louis-xiv-variant"),
        [(Id::from("bases"), Rating::Number(10))]
            .into_iter()
            .collect(),
    );
    let d = validate_documents(&scenario, &loaded.map.map, &options);
    assert_eq!(group_10(&d), [Code::E1006], "{d:#?}");
}

/// The conversion rules' lists name units, corps and armies that must exist (E0207, E0202,
/// E0206): a unit renamed without them would leave its rule reaching nothing, in silence.
#[test]
fn conversion_rules_naming_nothing_are_reported() {
    let loaded = load_scenario(&root().join("scenarios/denain-1712.ron")).unwrap();
    let map = loaded.map.map;
    let mut scenario = loaded.scenario;
    let unknown = |d: &[bataille_validator::Diagnostic]| -> Vec<(Code, String)> {
        d.iter()
            .filter(|d| d.pointer.starts_with("/miniatures/"))
            .map(|d| (d.code, d.pointer.clone()))
            .collect()
    };
    assert_eq!(
        unknown(&validate_documents(&scenario, &map, &options())),
        []
    );
    for unit in scenario.armies.iter_mut().flat_map(|a| &mut a.units) {
        if unit.id.as_str() == "al-fechenbach-1" {
            unit.id = Id::from("al-fechenbach-i");
        }
    }
    let rule = &mut scenario.miniatures[1].convert[0];
    rule.corps.push(Id::from("no-such-corps"));
    rule.armies.push(Id::from("no-such-army"));
    let found = unknown(&validate_documents(&scenario, &map, &options()));
    assert!(
        found.contains(&(Code::E0207, "/miniatures/0/convert/2/units/0".to_owned())),
        "{found:?}"
    );
    assert!(
        found.contains(&(Code::E0207, "/miniatures/1/convert/8/units/0".to_owned())),
        "{found:?}"
    );
    assert!(found.contains(&(Code::E0202, "/miniatures/1/convert/0/corps/0".to_owned())));
    assert!(found.contains(&(Code::E0206, "/miniatures/1/convert/0/armies/0".to_owned())));
    assert_eq!(found.len(), 4, "{found:?}");
}
