//! Both seed games can be written in the format: Fontenoy's and Denain's stacking rules, their
//! corps and commanders (8.1), and Denain's 13.1 placements, fixed and free.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::Path;

use bataille_schema::io::{parse_scenario, read_source};
use bataille_schema::scenario::{Placement, ReinforcementEntry, Scenario};

fn excerpt(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let source = read_source(&path).unwrap();
    let scenario = parse_scenario(&source).unwrap_or_else(|e| panic!("{e}"));
    assert!(bataille_schema::json_schema::check_scenario(&scenario).is_empty());
    scenario
}

fn commands(scenario: &Scenario, commander: &str) -> Vec<String> {
    let mut list: Vec<String> = scenario
        .armies
        .iter()
        .flat_map(|a| &a.commanders)
        .find(|c| c.id.as_str() == commander)
        .unwrap()
        .commands
        .iter()
        .map(|id| id.to_string())
        .collect();
    list.sort();
    list
}

fn placement(scenario: &Scenario, unit: &str) -> Placement {
    let army = scenario.armies.iter();
    army.flat_map(|a| {
        a.units
            .iter()
            .map(|u| (u.id.to_string(), u.placement.clone()))
            .chain(
                a.commanders
                    .iter()
                    .map(|c| (c.id.to_string(), c.placement.clone())),
            )
            .chain(
                a.corps
                    .iter()
                    .filter_map(|c| c.leader.as_ref())
                    .map(|l| (l.id.to_string(), l.placement.clone())),
            )
            .collect::<Vec<_>>()
    })
    .find(|(id, _)| id == unit)
    .unwrap()
    .1
}

#[test]
fn fontenoy_stacking_is_data() {
    let scenario = excerpt("fontenoy-excerpt.ron");
    let compositions = &scenario.rules.stacking.compositions;
    let infantry = &compositions[0].terms[0];
    assert_eq!(infantry.max_cp, Some(3));
    assert!(infantry.kinds.iter().any(|k| k.as_str() == "infantry"));
    assert_eq!(compositions[1].terms[0].max_cp, Some(2));
    assert_eq!(compositions[2].terms[0].max_counters, Some(1));
    let with_battery = &compositions[3].terms;
    assert_eq!(with_battery.len(), 2);
    assert_eq!(with_battery[0].max_counters, Some(1));
    assert_eq!(with_battery[0].max_cp, None, "whatever its CP");
    assert_eq!(scenario.rules.command.commander_radius_hexes, 10);
    let artillery = &scenario.rules.unit_kinds[&bataille_schema::Id::from("artillery")];
    assert!(artillery.immobile);
    assert_eq!(artillery.armies, [bataille_schema::Id::from("french")]);
}

#[test]
fn fontenoy_corps_and_commanders_follow_8_1() {
    let scenario = excerpt("fontenoy-excerpt.ron");
    assert_eq!(
        scenario.armies.iter().map(|a| a.corps.len()).sum::<usize>(),
        10
    );
    assert_eq!(
        commands(&scenario, "louis-xv"),
        ["maison-du-roi", "reserve-cavalerie"]
    );
    assert!(!commands(&scenario, "saxe").contains(&"maison-du-roi".to_owned()));
    assert_eq!(commands(&scenario, "saxe").len(), 4);
    assert_eq!(
        commands(&scenario, "cumberland"),
        [
            "anglo-hanoverian-cavalry",
            "anglo-hanoverian-infantry",
            "austrian-cavalry"
        ]
    );
    assert_eq!(
        commands(&scenario, "waldeck"),
        ["dutch-cavalry", "dutch-infantry"]
    );
    let dutch = scenario.armies[1]
        .corps
        .iter()
        .find(|c| c.id.as_str() == "dutch-infantry")
        .unwrap();
    assert_eq!(
        dutch.friendly_edges,
        [bataille_schema::MapEdge::South],
        "per corps, not per army"
    );
    assert!(
        scenario.armies[0].units[0].always_in_command,
        "Grassin, 9.2"
    );
    assert_eq!(scenario.victory.leader_losses.len(), 3);
}

#[test]
fn denain_stacking_is_data() {
    let scenario = excerpt("denain-excerpt.ron");
    let compositions = &scenario.rules.stacking.compositions;
    assert_eq!(compositions.len(), 2);
    assert_eq!(compositions[0].terms[0].max_counters, Some(1));
    assert_eq!(compositions[1].terms.len(), 2);
    assert_eq!(
        scenario.rules.stacking.reinforcements,
        ReinforcementEntry::Column
    );
    assert_eq!(scenario.rules.command.commander_radius_hexes, 5);
}

#[test]
fn denain_commanders_follow_8_1() {
    let scenario = excerpt("denain-excerpt.ron");
    let villars = commands(&scenario, "villars");
    let montesquiou = commands(&scenario, "montesquiou");
    assert_eq!(villars.len(), 6);
    assert_eq!(montesquiou.len(), 5);
    assert!(villars.contains(&"maison-du-roi".to_owned()));
    assert!(!montesquiou.contains(&"maison-du-roi".to_owned()));
    assert_eq!(commands(&scenario, "albermarle"), ["garnison-denain"]);
    assert!(!commands(&scenario, "eugene").contains(&"garnison-denain".to_owned()));
    let tingry = scenario.armies[0]
        .corps
        .iter()
        .find_map(|c| c.leader.as_ref().filter(|l| l.id.as_str() == "tingry"));
    assert!(tingry.unwrap().always_in_command, "8.3");
}

#[test]
fn denain_13_1_placements_fixed_and_free() {
    let scenario = excerpt("denain-excerpt.ron");
    assert_eq!(
        placement(&scenario, "villars"),
        Placement::Hex("1409".into())
    );
    assert_eq!(placement(&scenario, "dreux"), Placement::Hex("1510".into()));
    assert_eq!(
        placement(&scenario, "artillerie-2"),
        Placement::Hex("1314".into())
    );
    assert_eq!(
        placement(&scenario, "bagages"),
        Placement::Hex("2112".into())
    );
    assert_eq!(
        placement(&scenario, "navarre"),
        Placement::Free {
            zone: "aile-droite".into(),
            at: Some("1314".into())
        }
    );
    assert_eq!(
        placement(&scenario, "champagne"),
        Placement::Free {
            zone: "centre".into(),
            at: None
        }
    );
    let zone = scenario
        .zones
        .iter()
        .find(|z| z.id.as_str() == "centre")
        .unwrap();
    let hexes: Vec<&str> = zone.hexes.texts().collect();
    assert_eq!(hexes, ["1311", "1411", "1510", "1610", "1709"]);
    assert_eq!(
        placement(&scenario, "bearn"),
        Placement::Reinforcement {
            turn: 1,
            entry: vec!["3211".into(), "3212".into()].into()
        }
    );
    // Fechenbach 1/ and the allied artillery share 1812 (infantry + battery).
    assert_eq!(
        placement(&scenario, "fechenbach-1"),
        placement(&scenario, "artillerie-alliee")
    );
    assert_eq!(scenario.victory.objectives.len(), 5);
    assert_eq!(scenario.victory.unit_objectives[0].points, 10);
}
