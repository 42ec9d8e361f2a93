//! The shipped games, Fontenoy 1745 and Denain 1712, against their rules texts: every set-up
//! hex and zone of Denain 13.1, the 13.2 entry hexes, the 13.3 victory hexes, every 8.1 command
//! relationship of both games, the hexes the rules name on the maps; the files canonical and
//! valid against the JSON Schemas.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use bataille_schema::map::{Map, MoveCost};
use bataille_schema::scenario::{Army, Owner, Placement, Scenario, Unit};
use bataille_schema::{
    Grid, LoadedScenario, json_schema, load_scenario, map_to_string, scenario_to_string,
};

const DENAIN: &str = "scenarios/denain-1712.ron";
const FONTENOY: &str = "scenarios/fontenoy-1745.ron";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(relative: &str) -> LoadedScenario {
    let path = root().join(relative);
    load_scenario(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn set<T: Ord + Clone>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    items.into_iter().collect()
}

fn strs(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn army<'a>(s: &'a Scenario, id: &str) -> &'a Army {
    s.armies
        .iter()
        .find(|a| a.id.as_str() == id)
        .unwrap_or_else(|| panic!("no army {id}"))
}

fn unit<'a>(s: &'a Scenario, id: &str) -> &'a Unit {
    s.armies
        .iter()
        .flat_map(|a| &a.units)
        .find(|u| u.id.as_str() == id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// Every counter's placement by id: commanders, line leaders, units.
fn placements(s: &Scenario) -> BTreeMap<String, Placement> {
    let mut out = BTreeMap::new();
    for a in &s.armies {
        for c in &a.commanders {
            out.insert(c.id.to_string(), c.placement.clone());
        }
        for corps in &a.corps {
            if let Some(l) = &corps.leader {
                out.insert(l.id.to_string(), l.placement.clone());
            }
        }
        for u in &a.units {
            out.insert(u.id.to_string(), u.placement.clone());
        }
    }
    out
}

fn hex(h: &str) -> Placement {
    Placement::Hex(h.into())
}

/// The corps a commander in chief may command (8.1).
fn commands(s: &Scenario, commander: &str) -> BTreeSet<String> {
    s.armies
        .iter()
        .flat_map(|a| &a.commanders)
        .find(|c| c.id.as_str() == commander)
        .unwrap_or_else(|| panic!("no commander {commander}"))
        .commands
        .iter()
        .map(|c| c.to_string())
        .collect()
}

fn corps_ids(s: &Scenario, army_id: &str) -> BTreeSet<String> {
    army(s, army_id)
        .corps
        .iter()
        .map(|c| c.id.to_string())
        .collect()
}

fn terrain_code(map: &Map, h: &str) -> String {
    let i = map.grid.parse(h).unwrap_or_else(|e| panic!("{h}: {e}"));
    map.rows[i.row as usize]
        .chars()
        .nth(i.col as usize)
        .unwrap_or_else(|| panic!("row too short at {h}"))
        .to_string()
}

fn overlays<'a>(map: &'a Map, h: &str) -> Vec<&'a bataille_schema::map::OverlayType> {
    map.overlays
        .get(h)
        .map(|ids| ids.iter().map(|id| &map.overlay_types[id]).collect())
        .unwrap_or_default()
}

fn is_redoubt(map: &Map, h: &str) -> bool {
    overlays(map, h).iter().any(|o| o.effects.redoubt)
}

/// The canonical names of the water hexsides of a map.
fn water_hexsides(map: &Map) -> BTreeSet<String> {
    map.hexsides
        .iter()
        .filter(|(t, _)| map.hexside_types[*t].water)
        .flat_map(|(_, sides)| sides.iter().map(|s| canonical_side(&map.grid, s.as_str())))
        .collect()
}

fn canonical_side(grid: &Grid, text: &str) -> String {
    let (i, side) = grid
        .parse_hexside(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    grid.hexside_ref(i, side).to_string()
}

/// A bridge overlay stands on water terrain or next to a water hexside.
fn bridge_at_water(map: &Map, h: &str) -> bool {
    assert!(
        overlays(map, h).iter().any(|o| o.bridge),
        "no bridge overlay on {h}"
    );
    let on_water = map.terrain[&terrain_code(map, h)].water;
    let i = map.grid.parse(h).unwrap();
    let water = water_hexsides(map);
    let by_water = map
        .grid
        .neighbours(i)
        .any(|(side, _)| water.contains(map.grid.hexside_ref(i, side).as_str()));
    on_water || by_water
}

// ---------------------------------------------------------------------------------------------
// Both games: canonical files, JSON Schema, set-up stacking.

#[test]
fn files_are_canonical() {
    for scenario in [DENAIN, FONTENOY] {
        let loaded = load(scenario);
        assert_eq!(
            scenario_to_string(&loaded.scenario).unwrap(),
            loaded.source.text,
            "{scenario} is not in canonical form"
        );
        assert_eq!(
            map_to_string(&loaded.map.map).unwrap(),
            loaded.map.source.text,
            "{} is not in canonical form",
            loaded.map.source.path.display()
        );
    }
}

#[test]
fn files_match_the_json_schemas() {
    for scenario in [DENAIN, FONTENOY] {
        let loaded = load(scenario);
        assert_eq!(
            json_schema::check_scenario(&loaded.scenario),
            vec![],
            "{scenario}"
        );
        assert_eq!(
            json_schema::check_map(&loaded.map.map),
            vec![],
            "map of {scenario}"
        );
    }
}

/// An independent reading of rule 3 against the set-up: every counter of a hex matches a term
/// of one composition and each term's limits hold.
fn stack_is_legal(s: &Scenario, units: &[&Unit]) -> bool {
    s.rules.stacking.compositions.iter().any(|comp| {
        let mut counts = vec![(0u32, 0u32); comp.terms.len()];
        for u in units {
            let Some(t) = comp.terms.iter().position(|t| t.kinds.contains(&u.kind)) else {
                return false;
            };
            counts[t].0 += 1;
            counts[t].1 += u32::from(u.cp.unwrap_or(0));
        }
        comp.terms.iter().zip(&counts).all(|(t, (n, cp))| {
            t.max_counters.is_none_or(|m| *n <= m) && t.max_cp.is_none_or(|m| *cp <= m)
        })
    })
}

#[test]
fn set_up_stacks_are_legal_and_on_enterable_terrain() {
    for scenario in [DENAIN, FONTENOY] {
        let loaded = load(scenario);
        let (s, map) = (&loaded.scenario, &loaded.map.map);
        let mut stacks: BTreeMap<String, Vec<&Unit>> = BTreeMap::new();
        for u in s.armies.iter().flat_map(|a| &a.units) {
            if let Some(h) = u.placement.hex() {
                stacks.entry(h.to_string()).or_default().push(u);
                let kind = &s.rules.unit_kinds[&u.kind];
                let class = kind.moves_as.clone().unwrap_or_else(|| u.kind.clone());
                let effects = &map.terrain[&terrain_code(map, h.as_str())].effects;
                let cost = effects.cost_by_kind.get(&class).copied().or(effects.cost);
                let bridged = overlays(map, h.as_str()).iter().any(|o| o.bridge);
                assert!(
                    bridged || cost != Some(MoveCost::Impassable),
                    "{scenario}: {} starts on terrain it cannot enter ({h})",
                    u.id
                );
            }
        }
        for (h, units) in &stacks {
            assert!(
                stack_is_legal(s, units),
                "{scenario}: hex {h} overstacked: {:?}",
                units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn free_placements_lie_in_a_zone_of_their_own_corps() {
    for scenario in [DENAIN, FONTENOY] {
        let s = load(scenario).scenario;
        let zones: BTreeMap<_, _> = s.zones.iter().map(|z| (z.id.to_string(), z)).collect();
        for a in &s.armies {
            let own: BTreeSet<_> = a.corps.iter().map(|c| c.id.clone()).collect();
            for u in &a.units {
                if let Some(corps) = &u.corps {
                    assert!(
                        own.contains(corps),
                        "{scenario}: {} in a corps of another army",
                        u.id
                    );
                }
                if let Placement::Free { zone, at } = &u.placement {
                    let z = zones[zone.as_str()];
                    assert_eq!(z.owner, Owner::Corps(u.corps.clone().unwrap()), "{}", u.id);
                    let at = at
                        .as_ref()
                        .unwrap_or_else(|| panic!("{} has no chosen hex", u.id));
                    assert!(
                        z.hexes.contains(at),
                        "{scenario}: {} at {at} outside {zone}",
                        u.id
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Denain 1712.

/// 13.1, every line with a hex, by counter id.
const DENAIN_13_1_FIXED: &[(&str, &str)] = &[
    ("fr-villars", "1409"),
    ("fr-montesquiou", "1213"),
    ("fr-artillerie-2", "1314"),
    ("fr-dreux", "1510"),
    ("fr-artillerie-1", "1610"),
    ("fr-albergotti", "1808"),
    ("fr-broglie", "1906"),
    ("al-eugene", "3019"),
    ("al-albermarle", "2012"),
    ("al-bagages", "2112"),
    ("al-artillerie", "1812"),
    ("al-kettler-1", "1614"),
    ("al-kettler-2", "1615"),
    ("al-albermarle-1", "1712"),
    ("al-albermarle-2", "1613"),
    ("al-fechenbach-1", "1812"),
    ("al-fechenbach-2", "1911"),
    ("al-douglas", "2011"),
    ("al-cuirassiers", "2306"),
    ("al-alt-savoie", "2307"),
    ("al-alt-savoie-dragons", "2308"),
    ("al-derfflinger-dragons", "2309"),
];

/// 13.1, every "placement libre": formation and its hexes.
const DENAIN_13_1_ZONES: &[(&str, &[&str])] = &[
    ("fr-aile-droite", &["1312", "1313", "1314", "1315", "1316"]),
    ("fr-centre", &["1311", "1411", "1510", "1610", "1709"]),
    ("fr-aile-gauche", &["1908", "1809", "1808"]),
    ("fr-cavalerie", &["2005", "2006", "2007", "2008"]),
    ("fr-maison-du-roi", &["1508", "1608", "1707"]),
    ("al-holstein-beck", &["2315", "2316"]),
];

#[test]
fn denain_13_1_fixed_placements() {
    let s = load(DENAIN).scenario;
    let p = placements(&s);
    for (id, h) in DENAIN_13_1_FIXED {
        assert_eq!(p.get(*id), Some(&hex(h)), "13.1: {id} at {h}");
    }
    // The names printed in 13.1.
    for (id, name) in [
        ("al-kettler-1", "Kettler 1/"),
        ("al-kettler-2", "Kettler 2/"),
        ("al-albermarle-1", "Albermarle 1/"),
        ("al-albermarle-2", "Albermarle 2/"),
        ("al-fechenbach-1", "Fechenbach 1/"),
        ("al-fechenbach-2", "Fechenbach 2/"),
        ("al-douglas", "Douglas"),
        ("al-cuirassiers", "Cuirassiers"),
        ("al-alt-savoie", "Alt-Savoie"),
        ("al-alt-savoie-dragons", "Alt-Savoie dragons"),
        ("al-derfflinger-dragons", "Derfflinger dragons"),
        ("al-bagages", "Bagages"),
        ("fr-artillerie-1", "Artillerie 1/"),
        ("fr-artillerie-2", "Artillerie 2/"),
    ] {
        assert_eq!(unit(&s, id).name, name);
    }
    // The batteries are listed under their formation (Artillerie 2/ after the Aile droite,
    // Artillerie 1/ after the Centre, the allied one with the garrison).
    assert_eq!(
        unit(&s, "fr-artillerie-2").corps.as_ref().unwrap().as_str(),
        "fr-aile-droite"
    );
    assert_eq!(
        unit(&s, "fr-artillerie-1").corps.as_ref().unwrap().as_str(),
        "fr-centre"
    );
    assert_eq!(
        unit(&s, "al-artillerie").corps.as_ref().unwrap().as_str(),
        "al-garnison-denain"
    );
    // Every counter of the garrison is placed by 13.1 at a fixed hex.
    for u in army(&s, "allies").units.iter() {
        if u.corps
            .as_ref()
            .is_some_and(|c| c.as_str() == "al-garnison-denain")
        {
            assert!(
                DENAIN_13_1_FIXED.iter().any(|(id, _)| *id == u.id.as_str()),
                "{} is not in 13.1",
                u.id
            );
        }
    }
}

#[test]
fn denain_13_1_zones() {
    let s = load(DENAIN).scenario;
    let fixed: BTreeSet<&str> = DENAIN_13_1_FIXED.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        s.zones.len(),
        DENAIN_13_1_ZONES.len(),
        "one zone per placement-libre line"
    );
    for (corps, hexes) in DENAIN_13_1_ZONES {
        let zones: Vec<_> = s
            .zones
            .iter()
            .filter(|z| z.owner == Owner::Corps((*corps).into()))
            .collect();
        assert_eq!(zones.len(), 1, "one zone for {corps}");
        let zone = zones[0];
        assert_eq!(
            set(zone.hexes.iter().map(|h| h.to_string())),
            strs(hexes),
            "13.1: the hexes of {corps}"
        );
        // Every unit of the formation not fixed by 13.1 is free in the zone, one per hex
        // (the batteries at fixed hexes share a hex with one infantry counter).
        let units: Vec<_> = s
            .armies
            .iter()
            .flat_map(|a| &a.units)
            .filter(|u| u.corps.as_ref().is_some_and(|c| c.as_str() == *corps))
            .collect();
        assert!(!units.is_empty(), "{corps} has units");
        let mut used = BTreeSet::new();
        for u in units {
            if fixed.contains(u.id.as_str()) {
                continue;
            }
            match &u.placement {
                Placement::Free {
                    zone: z,
                    at: Some(at),
                } => {
                    assert_eq!(z, &zone.id, "{}", u.id);
                    assert!(hexes.contains(&at.as_str()), "{} at {at}", u.id);
                    assert!(used.insert(at.to_string()), "two units of {corps} at {at}");
                }
                other => panic!(
                    "{} of {corps} should be free in its zone, is {other:?}",
                    u.id
                ),
            }
        }
    }
    // Leaders of placement-libre formations stand in their zone or where 13.1 puts them.
    let p = placements(&s);
    assert!(
        matches!(&p["al-holstein-beck-chef"], Placement::Free { zone, at: Some(at) }
        if zone.as_str() == "al-zone-holstein-beck" && ["2315", "2316"].contains(&at.as_str()))
    );
}

#[test]
fn denain_13_2_reinforcements() {
    let s = load(DENAIN).scenario;
    let fixed: BTreeSet<&str> = DENAIN_13_1_FIXED.iter().map(|(id, _)| *id).collect();
    let zoned: BTreeSet<&str> = DENAIN_13_1_ZONES.iter().map(|(c, _)| *c).collect();
    let entry = |p: &Placement| match p {
        Placement::Reinforcement { turn: 1, entry } => set(entry.iter().map(|h| h.to_string())),
        other => panic!("not a turn-1 reinforcement: {other:?}"),
    };
    let mut allied = BTreeMap::<BTreeSet<String>, usize>::new();
    for a in &s.armies {
        for u in &a.units {
            let corps = u.corps.as_ref().map(|c| c.as_str()).unwrap_or("");
            if fixed.contains(u.id.as_str()) || zoned.contains(corps) {
                continue;
            }
            // "Tous les unités ... non citées ci-dessus, entrent en jeu dès le tour 1."
            let e = entry(&u.placement);
            if a.id.as_str() == "french" {
                assert_eq!(e, strs(&["3211", "3212"]), "{}", u.id);
            } else {
                assert!(
                    e == strs(&["2719"]) || e == strs(&["2820"]),
                    "{}: {e:?}",
                    u.id
                );
                *allied.entry(e).or_default() += 1;
            }
        }
    }
    // "avec dans chacun la moitié des forces de renforts"
    assert_eq!(allied.len(), 2);
    assert_eq!(allied[&strs(&["2719"])], allied[&strs(&["2820"])]);
    // Fagel goes with either group; Tingry with the French reinforcements.
    let p = placements(&s);
    assert_eq!(entry(&p["al-fagel-chef"]), strs(&["2719", "2820"]));
    assert_eq!(entry(&p["fr-tingry"]), strs(&["3211", "3212"]));
    // The Garnison de Valenciennes (not cited in 13.1) and Fagel's troops come in on turn 1.
    for u in s.armies.iter().flat_map(|a| &a.units) {
        let corps = u.corps.as_ref().map(|c| c.as_str());
        if matches!(corps, Some("fr-garnison-valenciennes" | "al-fagel")) {
            entry(&u.placement);
        }
    }
    // N.B.: they enter in column.
    assert_eq!(
        s.rules.stacking.reinforcements,
        bataille_schema::scenario::ReinforcementEntry::Column
    );
}

#[test]
fn denain_formations_and_8_1_commands() {
    let s = load(DENAIN).scenario;
    let formations: BTreeMap<String, (String, String)> = s
        .armies
        .iter()
        .flat_map(|a| &a.corps)
        .map(|c| (c.id.to_string(), (c.name.clone(), c.colour.to_string())))
        .collect();
    // Rule 5: the nine formations and their colours.
    let expected = [
        ("fr-maison-du-roi", "Maison du roi", "#c8102e"),
        ("fr-aile-droite", "Aile droite", "#1f4fa0"),
        ("fr-aile-gauche", "Aile gauche", "#f2c500"),
        ("fr-centre", "Centre", "#ef7d00"),
        ("fr-cavalerie", "Corps de cavalerie", "#2e8b3d"),
        (
            "fr-garnison-valenciennes",
            "Garnison de Valenciennes",
            "#1a1a1a",
        ),
        (
            "al-garnison-denain",
            "Garnison de Denain et sa cavalerie",
            "#b22222",
        ),
        (
            "al-fagel",
            "Troupes de renforts du général Fagel",
            "#1e5aa8",
        ),
        (
            "al-holstein-beck",
            "Troupes du général Holstein-Beck",
            "#2f7d32",
        ),
    ];
    assert_eq!(formations.len(), expected.len());
    for (id, name, colour) in expected {
        assert_eq!(formations[id], (name.to_owned(), colour.to_owned()), "{id}");
    }
    let french = corps_ids(&s, "french");
    let allied = corps_ids(&s, "allies");
    assert_eq!(french.len(), 6);
    assert_eq!(allied.len(), 3);
    // 8.1, each commander in chief and the formations he may command.
    assert_eq!(
        commands(&s, "fr-villars"),
        french,
        "Villars: la Maison du Roi et tout le reste"
    );
    let mut no_maison = french.clone();
    no_maison.remove("fr-maison-du-roi");
    assert_eq!(
        commands(&s, "fr-montesquiou"),
        no_maison,
        "Montesquiou: tout sauf la Maison"
    );
    assert_eq!(commands(&s, "al-albermarle"), strs(&["al-garnison-denain"]));
    let mut no_garrison = allied.clone();
    no_garrison.remove("al-garnison-denain");
    assert_eq!(
        commands(&s, "al-eugene"),
        no_garrison,
        "Eugène: tout sauf la garnison"
    );
    assert_eq!(army(&s, "french").commanders.len(), 2);
    assert_eq!(army(&s, "allies").commanders.len(), 2);
    // 8.2 radius 5; 8.3 Tingry always in command, and nobody else.
    assert_eq!(s.rules.command.commander_radius_hexes, 5);
    let always: Vec<_> = s
        .armies
        .iter()
        .flat_map(|a| &a.corps)
        .filter_map(|c| c.leader.as_ref())
        .filter(|l| l.always_in_command)
        .map(|l| (l.id.to_string(), l.name.clone()))
        .collect();
    assert_eq!(
        always,
        vec![("fr-tingry".to_owned(), "Prince de Tingry".to_owned())]
    );
    // Every formation has a line leader (9).
    assert!(
        s.armies
            .iter()
            .flat_map(|a| &a.corps)
            .all(|c| c.leader.is_some())
    );
    assert_eq!((s.turns, s.turn_minutes), (10, 60));
}

#[test]
fn denain_stacking_is_one_unit_or_infantry_with_a_battery() {
    let s = load(DENAIN).scenario;
    let comps = &s.rules.stacking.compositions;
    assert_eq!(comps.len(), 2);
    let kinds = |i: usize, t: usize| set(comps[i].terms[t].kinds.iter().map(|k| k.to_string()));
    assert_eq!(comps[0].terms.len(), 1);
    assert_eq!(comps[0].terms[0].max_counters, Some(1));
    assert_eq!(
        kinds(0, 0),
        set(s.rules.unit_kinds.keys().map(|k| k.to_string()))
    );
    assert_eq!(kinds(1, 0), strs(&["infantry", "dragoons"]));
    assert_eq!(kinds(1, 1), strs(&["artillery"]));
    assert!(comps[1].terms.iter().all(|t| t.max_counters == Some(1)));
    // Fechenbach 1/ and the allied battery share 1812 (legal); two units in a hex are not.
    let u = |id| unit(&s, id);
    assert!(stack_is_legal(
        &s,
        &[u("al-fechenbach-1"), u("al-artillerie")]
    ));
    assert!(!stack_is_legal(&s, &[u("al-kettler-1"), u("al-kettler-2")]));
    assert!(!stack_is_legal(
        &s,
        &[u("al-cuirassiers"), u("al-artillerie")]
    ));
}

#[test]
fn denain_13_3_victory() {
    let s = load(DENAIN).scenario;
    let v = &s.victory;
    let objectives: BTreeMap<String, u32> = v
        .objectives
        .iter()
        .map(|o| (o.hex.to_string(), o.points))
        .collect();
    let expected: BTreeMap<String, u32> = ["2012", "2111", "2112", "2313", "3115"]
        .into_iter()
        .map(|h| (h.to_owned(), 10))
        .collect();
    assert_eq!(objectives, expected);
    assert_eq!(v.unit_objectives.len(), 1);
    assert_eq!(v.unit_objectives[0].unit.as_str(), "al-bagages");
    assert_eq!(v.unit_objectives[0].points, 10);
    assert_eq!(v.points_per_enemy_unit_routed, 1);
    assert_eq!(v.points_per_enemy_cp_eliminated, 2);
    // The baggage: a counter of a non-combat kind, in no formation.
    let baggage = unit(&s, "al-bagages");
    assert!(baggage.corps.is_none());
    assert!(!s.rules.unit_kinds[&baggage.kind].combat);
}

#[test]
fn denain_map_carries_the_hexes_the_rules_name() {
    let loaded = load(DENAIN);
    let map = &loaded.map.map;
    assert_eq!(map.metres_per_hex, Some(400.0));
    // Denain town (13.3).
    for h in ["2012", "2111", "2112"] {
        let t = &map.terrain[&terrain_code(map, h)];
        assert!(
            t.effects.built_up && t.effects.blocks_zoc && t.effects.blocks_sight,
            "{h} is town"
        );
        assert_eq!(t.effects.protection, 1, "11.1: ville 1");
    }
    // The redoubts of 7.6, which need a breach: protection 2 (11.1), and each is walled off by
    // fortification hexsides that need a breach.
    let breach: BTreeSet<String> = map
        .hexsides
        .iter()
        .filter(|(t, _)| map.hexside_types[*t].needs_breach)
        .flat_map(|(_, v)| v.iter().map(|s| canonical_side(&map.grid, s.as_str())))
        .collect();
    for h in ["2313", "2109", "1613"] {
        assert!(is_redoubt(map, h), "{h} is a redoubt");
        assert!(overlays(map, h).iter().any(|o| o.effects.protection == 2));
        let i = map.grid.parse(h).unwrap();
        assert!(
            map.grid
                .neighbours(i)
                .any(|(side, _)| breach.contains(map.grid.hexside_ref(i, side).as_str())),
            "{h} has a fortified side"
        );
    }
    // The bridges of 13.3, at water.
    for h in ["2313", "3115"] {
        assert!(bridge_at_water(map, h), "bridge {h} at water");
    }
    // Every bridge hexside lies on a water hexside.
    let water = water_hexsides(map);
    for (t, sides) in &map.hexsides {
        if map.hexside_types[t].bridge {
            for side in sides {
                assert!(
                    water.contains(&canonical_side(&map.grid, side.as_str())),
                    "{side}"
                );
            }
        }
    }
    // Entry hexes (13.2) on the map edges they come in by.
    let grid = &map.grid;
    for h in ["3211", "3212"] {
        assert_eq!(
            grid.parse(h).unwrap().col,
            grid.columns - 1,
            "{h} on the east edge"
        );
    }
    assert_eq!(
        grid.parse("2820").unwrap().row,
        grid.rows - 1,
        "2820 on the south edge"
    );
    grid.parse("2719").unwrap();
    // Every hex of 13.1 is on the map and enterable.
    let s = &loaded.scenario;
    for (_, h) in DENAIN_13_1_FIXED {
        grid.parse(h).unwrap();
    }
    for z in &s.zones {
        for h in &z.hexes {
            let code = terrain_code(map, h.as_str());
            assert_ne!(
                map.terrain[&code].effects.cost,
                Some(MoveCost::Impassable),
                "{h}"
            );
        }
    }
    // Friendly edges (12.3): French west or north, Allies east or south.
    use bataille_schema::MapEdge::*;
    assert_eq!(army(s, "french").friendly_edges, vec![North, West]);
    assert_eq!(army(s, "allies").friendly_edges, vec![East, South]);
    assert_eq!(map.labels.get("2111").map(String::as_str), Some("Denain"));
}

// ---------------------------------------------------------------------------------------------
// Fontenoy 1745.

#[test]
fn fontenoy_corps_and_8_1_commands() {
    let s = load(FONTENOY).scenario;
    let expected = [
        ("french", "fr-maison-du-roi", "House of the King", "#c8102e"),
        (
            "french",
            "fr-aile-droite",
            "Right wing, infantry and dragoons",
            "#1f4fa0",
        ),
        ("french", "fr-aile-gauche", "Left wing, infantry", "#f2c500"),
        (
            "french",
            "fr-seconde-ligne",
            "Second line, infantry, cavalry and reinforcements",
            "#ef7d00",
        ),
        (
            "french",
            "fr-reserve-cavalerie",
            "Reserve of cavalry",
            "#2e8b3d",
        ),
        (
            "allies",
            "al-anglo-hanoverian-infantry",
            "Anglo-Hanoverian infantry",
            "#b22222",
        ),
        ("allies", "al-dutch-infantry", "Dutch infantry", "#f28c28"),
        (
            "allies",
            "al-anglo-hanoverian-cavalry",
            "Anglo-Hanoverian cavalry",
            "#1e5aa8",
        ),
        ("allies", "al-dutch-cavalry", "Dutch cavalry", "#7b4a1e"),
        (
            "allies",
            "al-austrian-cavalry",
            "Austrian cavalry",
            "#2f7d32",
        ),
    ];
    let found: BTreeSet<_> = s
        .armies
        .iter()
        .flat_map(|a| {
            a.corps.iter().map(move |c| {
                (
                    a.id.to_string(),
                    c.id.to_string(),
                    c.name.clone(),
                    c.colour.to_string(),
                )
            })
        })
        .collect();
    let expected: BTreeSet<_> = expected
        .iter()
        .map(|(a, c, n, col)| (a.to_string(), c.to_string(), n.to_string(), col.to_string()))
        .collect();
    assert_eq!(found, expected);
    assert!(
        s.armies
            .iter()
            .flat_map(|a| &a.corps)
            .all(|c| c.leader.is_some()),
        "9: a line leader each"
    );
    // 8.1
    assert_eq!(
        commands(&s, "fr-louis-xv"),
        strs(&["fr-maison-du-roi", "fr-reserve-cavalerie"])
    );
    let mut no_house = corps_ids(&s, "french");
    no_house.remove("fr-maison-du-roi");
    assert_eq!(commands(&s, "fr-saxe"), no_house);
    assert_eq!(
        commands(&s, "al-cumberland"),
        strs(&[
            "al-anglo-hanoverian-infantry",
            "al-anglo-hanoverian-cavalry",
            "al-austrian-cavalry"
        ])
    );
    assert_eq!(
        commands(&s, "al-waldeck"),
        strs(&["al-dutch-infantry", "al-dutch-cavalry"])
    );
    assert_eq!(s.rules.command.commander_radius_hexes, 10);
    assert_eq!((s.turns, s.turn_minutes), (7, 60));
    // 9.2: Grassin's arquebusiers (light troops) always in command, and no other unit.
    let always: Vec<_> = s
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .filter(|u| u.always_in_command)
        .map(|u| (u.id.to_string(), u.kind.to_string()))
        .collect();
    assert_eq!(
        always,
        vec![("fr-arquebusiers-de-grassin".to_owned(), "light".to_owned())]
    );
    assert!(
        s.armies
            .iter()
            .flat_map(|a| &a.corps)
            .filter_map(|c| c.leader.as_ref())
            .all(|l| !l.always_in_command)
    );
}

#[test]
fn fontenoy_artillery_french_only_and_immobile() {
    let s = load(FONTENOY).scenario;
    let artillery = &s.rules.unit_kinds["artillery"];
    assert!(artillery.immobile);
    assert_eq!(artillery.armies, vec!["french".into()]);
    assert!(
        army(&s, "allies")
            .units
            .iter()
            .all(|u| u.kind.as_str() != "artillery")
    );
    let batteries: Vec<_> = army(&s, "french")
        .units
        .iter()
        .filter(|u| u.kind.as_str() == "artillery")
        .collect();
    assert!(!batteries.is_empty());
    for b in batteries {
        assert!(matches!(b.placement, Placement::Hex(_)), "{}", b.id);
    }
}

#[test]
fn fontenoy_stacking_rule_3() {
    let s = load(FONTENOY).scenario;
    let comps = &s.rules.stacking.compositions;
    /// A term: its kinds, its counter limit, its CP limit.
    type Term = (BTreeSet<String>, Option<u32>, Option<u32>);
    let shape: Vec<Vec<Term>> = comps
        .iter()
        .map(|c| {
            c.terms
                .iter()
                .map(|t| {
                    (
                        set(t.kinds.iter().map(|k| k.to_string())),
                        t.max_counters,
                        t.max_cp,
                    )
                })
                .collect()
        })
        .collect();
    assert_eq!(
        shape,
        vec![
            vec![(strs(&["infantry", "light"]), None, Some(3))],
            vec![(strs(&["cavalry", "dragoons"]), None, Some(2))],
            vec![(strs(&["artillery"]), Some(1), None)],
            vec![
                (strs(&["infantry", "light", "dragoons"]), Some(1), None),
                (strs(&["artillery"]), Some(1), None)
            ],
        ]
    );
    let u = |id| unit(&s, id);
    // Dauphin 1/ (3 CP) with the Fontenoy battery: legal; two infantry counters of 4 CP: not;
    // cavalry with infantry: not; dragoons with a battery: legal.
    assert!(stack_is_legal(
        &s,
        &[u("fr-dauphin-1"), u("fr-batterie-fontenoy")]
    ));
    assert!(!stack_is_legal(&s, &[u("fr-dauphin-1"), u("fr-dauphin-2")]));
    assert!(stack_is_legal(&s, &[u("fr-roi-1"), u("fr-dauphin-2")]));
    assert!(!stack_is_legal(
        &s,
        &[u("fr-roi-1"), u("fr-gardes-du-corps-1")]
    ));
    assert!(stack_is_legal(
        &s,
        &[u("fr-dragons-1"), u("fr-batterie-redoute-dragons")]
    ));
    assert!(!stack_is_legal(&s, &[u("fr-dragons-1"), u("fr-dragons-2")]));
}

#[test]
fn fontenoy_placements() {
    let s = load(FONTENOY).scenario;
    // 0.2: the French placement is printed on the map (here: the historical deployment).
    let french = army(&s, "french");
    for u in &french.units {
        assert!(
            matches!(u.placement, Placement::Hex(_)),
            "{} placed on a hex",
            u.id
        );
    }
    for c in &french.commanders {
        assert!(matches!(c.placement, Placement::Hex(_)), "{}", c.id);
    }
    for corps in &french.corps {
        assert!(
            matches!(corps.leader.as_ref().unwrap().placement, Placement::Hex(_)),
            "{}",
            corps.id
        );
    }
    // Fontenoy is held: a French unit stands on 1518.
    assert!(
        french
            .units
            .iter()
            .any(|u| u.placement.hex().is_some_and(|h| h.as_str() == "1518"))
    );
    // 0.2: the Allies are free, within the limits of each corps: one zone per corps.
    let allies = army(&s, "allies");
    for corps in &allies.corps {
        let zones: Vec<_> = s
            .zones
            .iter()
            .filter(|z| z.owner == Owner::Corps(corps.id.clone()))
            .collect();
        assert_eq!(zones.len(), 1, "one zone for {}", corps.id);
        let units: Vec<_> = allies
            .units
            .iter()
            .filter(|u| u.corps.as_ref() == Some(&corps.id))
            .collect();
        assert!(!units.is_empty());
        for u in units {
            assert!(
                matches!(&u.placement, Placement::Free { zone, at: Some(_) } if *zone == zones[0].id),
                "{} free in its corps' zone",
                u.id
            );
        }
        assert!(
            matches!(&corps.leader.as_ref().unwrap().placement, Placement::Free { zone, at: Some(_) } if *zone == zones[0].id),
            "leader of {}",
            corps.id
        );
    }
    // 12.3: French west, Anglo-Hanoverians east, Dutch south.
    use bataille_schema::MapEdge::*;
    assert_eq!(french.friendly_edges, vec![West]);
    assert_eq!(allies.friendly_edges, vec![East]);
    for corps in &allies.corps {
        let expected = if corps.id.as_str().starts_with("al-dutch") {
            vec![South]
        } else {
            vec![]
        };
        assert_eq!(corps.friendly_edges, expected, "{}", corps.id);
    }
}

#[test]
fn fontenoy_13_victory() {
    let s = load(FONTENOY).scenario;
    let v = &s.victory;
    let holds: Vec<_> = v
        .holds
        .iter()
        .map(|h| {
            (
                h.army.to_string(),
                set(h.hexes.iter().map(|x| x.to_string())),
                h.at_least,
                h.result.clone(),
            )
        })
        .collect();
    assert_eq!(
        holds,
        vec![
            (
                "allies".to_owned(),
                strs(&["1518", "0209", "0211"]),
                None,
                "Allied victory".to_owned()
            ),
            (
                "allies".to_owned(),
                strs(&["1518", "0209"]),
                None,
                "marginal Allied victory".to_owned()
            ),
            (
                "allies".to_owned(),
                strs(&["1518", "0211"]),
                None,
                "marginal Allied victory".to_owned()
            ),
        ]
    );
    let losses: BTreeSet<_> = v
        .leader_losses
        .iter()
        .map(|l| (l.leader.to_string(), l.winner.to_string()))
        .collect();
    assert_eq!(
        losses,
        set([
            ("fr-louis-xv".to_owned(), "allies".to_owned()),
            ("fr-saxe".to_owned(), "allies".to_owned()),
            ("al-cumberland".to_owned(), "french".to_owned()),
        ])
    );
}

#[test]
fn fontenoy_map_carries_the_hexes_the_rules_name() {
    let loaded = load(FONTENOY);
    let map = &loaded.map.map;
    assert_eq!(map.metres_per_hex, Some(200.0));
    // 0.2: Fontenoy (1518) counts as a redoubt, exclusively.
    assert!(is_redoubt(map, "1518"));
    assert!(
        !map.terrain[&terrain_code(map, "1518")].effects.built_up,
        "not a city"
    );
    assert_eq!(map.labels.get("1518").map(String::as_str), Some("Fontenoy"));
    // The redoubts and the Bois de Barry on the French left.
    for h in ["1713", "1813", "1419"] {
        assert!(is_redoubt(map, h), "{h}");
    }
    let forest = map
        .terrain
        .iter()
        .find(|(_, t)| t.name.contains("Bois de Barry"))
        .map(|(code, _)| code.clone())
        .expect("a Bois de Barry terrain");
    assert_eq!(terrain_code(map, "1712"), forest, "Grassin's wood corner");
    let wood = map
        .rows
        .iter()
        .map(|r| r.matches(forest.as_str()).count())
        .sum::<usize>();
    assert!(wood > 50, "the Bois de Barry is a real wood ({wood} hexes)");
    // The two bridges over the Escaut, on the French rear (west), at water (13).
    for h in ["0209", "0211"] {
        assert!(bridge_at_water(map, h), "{h}");
        assert!(map.grid.parse(h).unwrap().col < map.grid.parse("1518").unwrap().col);
    }
    let water = water_hexsides(map);
    for (t, sides) in &map.hexsides {
        if map.hexside_types[t].bridge {
            for side in sides {
                assert!(
                    water.contains(&canonical_side(&map.grid, side.as_str())),
                    "{side}"
                );
            }
        }
    }
    // Friendly edges printed on the map.
    use bataille_schema::MapEdge::*;
    let edges: BTreeSet<_> = map.friendly_edges.values().cloned().collect();
    assert_eq!(edges, set([vec![West], vec![East], vec![South]]));
}

/// Keeps the helper honest: the path joins used by copies below resolve.
#[test]
fn scenarios_name_their_maps_relatively() {
    for (scenario, map) in [
        (DENAIN, "maps/denain-1712.ron"),
        (FONTENOY, "maps/fontenoy-1745.ron"),
    ] {
        let loaded = load(scenario);
        let resolved = bataille_schema::io::map_path_of(&root().join(scenario), &loaded.scenario);
        assert_eq!(
            std::fs::canonicalize(resolved).unwrap(),
            std::fs::canonicalize(root().join(map)).unwrap()
        );
        let _ = Path::new(map);
    }
}

// ---------------------------------------------------------------------------------------------
// The validator on the shipped files, and on copies broken on purpose.

use bataille_validator::{Diagnostic, FileReport, Options, validate_file};

fn validate(path: &Path) -> FileReport {
    let report = validate_file(path, &Options::default());
    assert!(
        report.unreadable.is_none(),
        "{}: {:?}",
        path.display(),
        report.unreadable
    );
    report
}

fn codes(report: &FileReport) -> Vec<(String, Option<String>)> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code.as_str().to_owned(),
                d.subject.as_deref().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn shipped_files_validate_with_only_the_explained_warning() {
    // Denain: Holstein-Beck (2315, 13.1) is 7 hexes from Eugène (3019, 13.1): out of command at
    // set-up, as the rules have it (explained in the scenario's notes).
    let denain = validate(&root().join(DENAIN));
    assert_eq!(
        codes(&denain),
        vec![("W0801".to_owned(), Some("al-holstein-beck-chef".to_owned()))],
        "{:#?}",
        denain.diagnostics
    );
    let fontenoy = validate(&root().join(FONTENOY));
    assert_eq!(codes(&fontenoy), vec![], "{:#?}", fontenoy.diagnostics);
    for map in ["maps/denain-1712.ron", "maps/fontenoy-1745.ron"] {
        let report = validate(&root().join(map));
        assert_eq!(codes(&report), vec![], "{map}: {:#?}", report.diagnostics);
    }
}

/// A copy of a shipped scenario (and its map, so that `../maps/…` resolves) in a fresh folder,
/// with its text changed by `edit`. Returns the copy's path and text; the folder is removed by
/// the guard.
struct Copy {
    dir: PathBuf,
    scenario: PathBuf,
    text: String,
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn broken_copy(test: &str, scenario: &str, edit: impl Fn(&str) -> String) -> Copy {
    let dir = std::env::temp_dir().join(format!("bataille-games-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    let original = std::fs::read_to_string(root().join(scenario)).unwrap();
    let map_name = load(scenario).scenario.map.clone();
    let map_file = Path::new(&map_name).file_name().unwrap().to_owned();
    std::fs::copy(
        root().join("maps").join(&map_file),
        dir.join("maps").join(&map_file),
    )
    .unwrap();
    // The miniatures systems the scenario names (`../systems/*.ron`).
    std::fs::create_dir_all(dir.join("systems")).unwrap();
    for entry in std::fs::read_dir(root().join("systems")).unwrap() {
        let from = entry.unwrap().path();
        std::fs::copy(&from, dir.join("systems").join(from.file_name().unwrap())).unwrap();
    }
    let text = edit(&original);
    assert_ne!(text, original, "the edit changed nothing");
    let path = dir.join(scenario);
    std::fs::write(&path, &text).unwrap();
    Copy {
        dir,
        scenario: path,
        text,
    }
}

/// The text with one line changed: the line holding `anchor`, `from` replaced by `to` there.
fn edit_line(text: &str, anchor: &str, from: &str, to: &str) -> String {
    let mut hits = 0;
    let out: Vec<String> = text
        .split('\n')
        .map(|line| {
            if line.contains(anchor) {
                hits += 1;
                assert!(
                    line.contains(from),
                    "`{from}` not on the line of `{anchor}`"
                );
                line.replacen(from, to, 1)
            } else {
                line.to_owned()
            }
        })
        .collect();
    assert_eq!(hits, 1, "`{anchor}` is on {hits} lines");
    out.join("\n")
}

/// 1-based line of the text holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not found"))
        + 1
}

/// The one error of `code` in the report, checked to be in the copy's scenario file.
fn the_error<'a>(copy: &Copy, report: &'a FileReport, code: &str) -> &'a Diagnostic {
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == code)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one {code} expected: {:#?}",
        report.diagnostics
    );
    let d = found[0];
    assert!(d.is_error(), "{code} is an error");
    let span = d.span.as_ref().expect("a located diagnostic");
    assert_eq!(
        std::fs::canonicalize(&span.file).unwrap(),
        std::fs::canonicalize(&copy.scenario).unwrap()
    );
    d
}

#[test]
fn validator_reports_an_overstacked_fontenoy_hex() {
    // Roi 2/ (2 CP) moved onto Roi 1/ (2 CP) at 1517: 4 CP of infantry, at most 3 (rule 3).
    let copy = broken_copy("overstack", FONTENOY, |t| {
        edit_line(t, "id: \"fr-roi-2\"", "Hex(\"1516\")", "Hex(\"1517\")")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0301");
    assert_eq!(d.hex.as_deref(), Some("1517"));
    let lines = [
        line_of(&copy.text, "id: \"fr-roi-1\""),
        line_of(&copy.text, "id: \"fr-roi-2\""),
    ];
    assert!(
        lines.contains(&d.span.as_ref().unwrap().line),
        "{d:#?} not on {lines:?}"
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_two_fontenoy_batteries_in_one_hex() {
    // Batteries stand outside the corps system but count for stacking: "or one battery" (3).
    let copy = broken_copy("two-batteries", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"fr-batterie-rive-gauche-2\"",
            "Hex(\"0219\")",
            "Hex(\"0216\")",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0301");
    assert_eq!(d.hex.as_deref(), Some("0216"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"fr-batterie-rive-gauche-2\"")
    );
}

#[test]
fn validator_reports_two_units_in_a_denain_hex() {
    // Kettler 2/ moved from 1615 onto Kettler 1/ at 1614: one unit per hex (rule 3).
    let copy = broken_copy("two-units", DENAIN, |t| {
        edit_line(t, "id: \"al-kettler-2\"", "Hex(\"1615\")", "Hex(\"1614\")")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0301");
    assert_eq!(d.hex.as_deref(), Some("1614"));
    let lines = [
        line_of(&copy.text, "id: \"al-kettler-1\""),
        line_of(&copy.text, "id: \"al-kettler-2\""),
    ];
    assert!(
        lines.contains(&d.span.as_ref().unwrap().line),
        "{d:#?} not on {lines:?}"
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_a_free_placement_out_of_its_zone() {
    // Navarre 1/ is free in 1312-1316 (13.1); 1412 is outside.
    let copy = broken_copy("out-of-zone", DENAIN, |t| {
        edit_line(t, "id: \"fr-navarre-1\"", "at: \"1312\"", "at: \"1412\"")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0501");
    assert_eq!(d.hex.as_deref(), Some("1412"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"fr-navarre-1\"")
    );
    assert_eq!(d.subject.as_deref(), Some("fr-navarre-1"));
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
    // The same in Fontenoy: an Allied unit outside its corps' limits (0.2).
    let copy = broken_copy("out-of-zone-fontenoy", FONTENOY, |t| {
        edit_line(t, "id: \"al-guards-1\"", "at: \"2113\"", "at: \"2013\"")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0501");
    assert_eq!(d.hex.as_deref(), Some("2013"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"al-guards-1\"")
    );
}

#[test]
fn validator_reports_a_unit_in_another_armys_corps() {
    // Douglas (Allied garrison, 2011) put in the French Centre.
    let copy = broken_copy("other-army", DENAIN, |t| {
        edit_line(
            t,
            "id: \"al-douglas\"",
            "corps: \"al-garnison-denain\"",
            "corps: \"fr-centre\"",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0402");
    let line = line_of(&copy.text, "id: \"al-douglas\"");
    let span = d.span.as_ref().unwrap();
    assert_eq!(span.line, line);
    // The span starts at the corps named, on that line.
    let text = copy.text.lines().nth(line - 1).unwrap();
    let column = text[..text.find("\"fr-centre\"").unwrap()].chars().count() + 1;
    assert_eq!(span.column, column, "{d:#?}");
    assert_eq!(d.subject.as_deref(), Some("al-douglas"));
    // The same in Fontenoy: a Dutch regiment in the French Left wing.
    let copy = broken_copy("other-army-fontenoy", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"al-salis\"",
            "corps: \"al-dutch-infantry\"",
            "corps: \"fr-aile-gauche\"",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0402");
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"al-salis\"")
    );
}

#[test]
fn validator_reports_allied_artillery_and_cavalry_in_the_wood() {
    // Fontenoy 10: only the French have artillery. A Dutch regiment turned into a battery.
    let copy = broken_copy("allied-battery", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"al-salis\"",
            "kind: \"infantry\"",
            "kind: \"artillery\"",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0406");
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"al-salis\"")
    );
    // Cavalry cannot enter the Bois de Barry: the Carabiniers moved into it at 1710.
    let copy = broken_copy("cavalry-in-wood", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"fr-carabiniers-1\"",
            "Hex(\"0711\")",
            "Hex(\"1710\")",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0504");
    assert_eq!(d.hex.as_deref(), Some("1710"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"fr-carabiniers-1\"")
    );
}

// ---------------------------------------------------------------------------------------------
// Set-up rules the validator must catch (issue 10): opposing counters, leaders' terrain, zones of
// other corps, the 13.2 column, and the gaps of the data model, on copies broken on purpose.

/// All the diagnostics of `code` in the report.
fn all_of<'a>(report: &'a FileReport, code: &str) -> Vec<&'a Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == code)
        .collect()
}

#[test]
fn validator_reports_an_allied_battery_on_a_french_infantry_counter_in_denain() {
    // Denain 3, 7, 10.4: the Allied battery (1812) moved onto Picardie 2/ (1411). Stacking
    // grouped by hex alone took it for "one infantry counter with a battery".
    let copy = broken_copy("enemy-battery", DENAIN, |t| {
        edit_line(t, "id: \"al-artillerie\"", "Hex(\"1812\")", "Hex(\"1411\")")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0304");
    assert_eq!(d.hex.as_deref(), Some("1411"));
    assert_eq!(d.subject.as_deref(), Some("al-artillerie"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"al-artillerie\"")
    );
    assert_eq!(d.related.len(), 1, "{d:#?}");
    assert_eq!(d.related[0].subject.as_deref(), Some("fr-picardie-2"));
    assert!(
        all_of(&report, "E0301").is_empty(),
        "{:#?}",
        report.diagnostics
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_an_allied_cp_on_french_cps_in_fontenoy() {
    // Fontenoy 3, 7.3: Guards 2/ (1 CP) put on Roi 1/ (2 CP) at 1517: not "3 CP of infantry".
    let copy = broken_copy("enemy-cp", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"al-guards-2\"",
            "Free(zone: \"al-zone-anglo-hanoverian-infantry\", at: \"2114\")",
            "Hex(\"1517\")",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0304");
    assert_eq!(d.hex.as_deref(), Some("1517"));
    assert_eq!(d.subject.as_deref(), Some("al-guards-2"));
    assert!(d.message.contains("`fr-roi-1`"), "{}", d.message);
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_a_leader_where_cavalry_cannot_go() {
    // Fontenoy 9: "a line leader moves as a cavalry unit"; cavalry cannot enter the Bois de
    // Barry. Clermont-Tonnerre moved from 1515 into it at 1710.
    let copy = broken_copy("leader-in-wood", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"fr-clermont-tonnerre\"",
            "Hex(\"1515\")",
            "Hex(\"1710\")",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0511");
    assert_eq!(d.hex.as_deref(), Some("1710"));
    assert_eq!(d.subject.as_deref(), Some("fr-clermont-tonnerre"));
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
    // Denain: Villars (commanders move as cavalry, 7.4) moved from 1409 into the Escaut at 1420.
    let copy = broken_copy("commander-in-river", DENAIN, |t| {
        edit_line(t, "id: \"fr-villars\"", "Hex(\"1409\")", "Hex(\"1420\")")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0511");
    assert_eq!(d.hex.as_deref(), Some("1420"));
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"fr-villars\"")
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_a_counter_free_in_another_formations_zone_unless_shared() {
    // Denain 13.1: each formation's placement libre has its own hexes. Guiche (Maison du roi)
    // moved into the Centre's zone at 1709.
    let to_centre = |t: &str| {
        edit_line(
            t,
            "id: \"fr-guiche\"",
            "Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")",
            "Free(zone: \"fr-zone-centre\", at: \"1709\")",
        )
    };
    let copy = broken_copy("other-zone", DENAIN, to_centre);
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0510");
    assert_eq!(
        d.hex.as_deref(),
        Some("1709"),
        "the placement names its hex"
    );
    assert_eq!(d.subject.as_deref(), Some("fr-guiche"));
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
    // The same zone declared shared with the Maison du roi: legal.
    let copy = broken_copy("shared-zone", DENAIN, |t| {
        edit_line(
            &to_centre(t),
            "hexes: [\"1311\", \"1411\", \"1510\", \"1610\", \"1709\"]",
            "hexes: [\"1311\", \"1411\", \"1510\", \"1610\", \"1709\"]",
            "hexes: [\"1311\", \"1411\", \"1510\", \"1610\", \"1709\"],\n            shared_with: [Corps(\"fr-maison-du-roi\")]",
        )
    });
    let report = validate(&copy.scenario);
    assert_eq!(report.errors(), 0, "{:#?}", report.diagnostics);
    // Fontenoy 0.2: "free, to the limits defined for each corps". Guards 1/ (Anglo-Hanoverian
    // infantry) in the Dutch infantry's zone.
    let copy = broken_copy("other-zone-fontenoy", FONTENOY, |t| {
        edit_line(
            t,
            "id: \"al-guards-1\"",
            "Free(zone: \"al-zone-anglo-hanoverian-infantry\", at: \"2113\")",
            "Free(zone: \"al-zone-dutch-infantry\", at: \"0623\")",
        )
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0510");
    assert_eq!(d.hex.as_deref(), Some("0623"));
    assert!(
        d.message.contains("corps `al-dutch-infantry`"),
        "{}",
        d.message
    );
}

#[test]
fn validator_reports_reinforcements_that_cannot_all_enter_in_column() {
    // Denain 13.2 N.B.: two units a turn by each entry hex. Fagel's four at 2719 arriving on
    // the last turn: two cannot enter.
    let copy = broken_copy("column", DENAIN, |t| {
        let mut t = t.to_owned();
        for id in [
            "al-gardes-hollandaises-1",
            "al-gardes-hollandaises-2",
            "al-hesse-cassel",
            "al-dragons-hollandais",
        ] {
            t = edit_line(&t, &format!("id: \"{id}\""), "turn: 1,", "turn: 10,");
        }
        t
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0512");
    assert_eq!(d.hex.as_deref(), Some("2719"));
    assert!(d.message.contains("4 units"), "{}", d.message);
    assert!(d.message.contains("2 cannot enter"), "{}", d.message);
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "id: \"al-dragons-hollandais\"")
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_a_fire_restriction_on_terrain_the_map_lacks() {
    // Denain 11.1 Note names the Escaut, `~` on the map; a restriction naming `≈` could never
    // be lifted.
    let copy = broken_copy("fire", DENAIN, |t| {
        edit_line(t, "fires_only: [", "NextTo(\"~\")", "NextTo(\"≈\")")
    });
    let report = validate(&copy.scenario);
    let d = the_error(&copy, &report, "E0701");
    assert_eq!(
        d.span.as_ref().unwrap().line,
        line_of(&copy.text, "fires_only: [")
    );
    assert_eq!(report.errors(), 1, "{:#?}", report.diagnostics);
}

#[test]
fn a_corps_allow_silences_its_leader_and_units() {
    // Holstein-Beck's formation starts out of command (13.1, W0801): an `allow` on the corps
    // covers its line leader.
    let copy = broken_copy("corps-allow", DENAIN, |t| {
        edit_line(
            t,
            "id: \"al-holstein-beck\", name:",
            "colour: \"#2f7d32\",",
            "colour: \"#2f7d32\", allow: [\"W0801\"],",
        )
    });
    let report = validate(&copy.scenario);
    assert_eq!(codes(&report), vec![], "{:#?}", report.diagnostics);
}

#[test]
fn validator_reports_a_half_hex_inside_the_map() {
    // The frame cuts only edge hexes: 1510 is in the middle of Denain's map.
    // The scenario copy is only retitled; the map beside it is the one broken.
    let copy = broken_copy("half-hex", DENAIN, |t| {
        t.replacen("title: \"", "title: \"(copy) ", 1)
    });
    let map_path = copy.dir.join("maps/denain-1712.ron");
    let map = std::fs::read_to_string(&map_path).unwrap();
    let broken = map.replace("half_hexes: [\"0120\",", "half_hexes: [\"0120\", \"1510\",");
    assert_ne!(broken, map);
    std::fs::write(&map_path, &broken).unwrap();
    let report = validate(&copy.scenario);
    let found = all_of(&report, "E0611");
    assert_eq!(found.len(), 1, "{:#?}", report.diagnostics);
    assert_eq!(found[0].hex.as_deref(), Some("1510"));
    assert_eq!(
        std::fs::canonicalize(&found[0].span.as_ref().unwrap().file).unwrap(),
        std::fs::canonicalize(&map_path).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// The gaps of the data model, expressed in the bundled data where the rules state them.

#[test]
fn both_games_line_leaders_move_as_cavalry_and_stand_where_it_can() {
    for scenario in [DENAIN, FONTENOY] {
        let loaded = load(scenario);
        let (s, map) = (&loaded.scenario, &loaded.map.map);
        // 9: "a line leader moves as a cavalry unit"; 7.4 commanders, read as mounted too.
        assert_eq!(
            s.rules.command.leaders_move_as.as_ref().map(|c| c.as_str()),
            Some("cavalry")
        );
        assert_eq!(
            s.rules
                .command
                .commanders_move_as
                .as_ref()
                .map(|c| c.as_str()),
            Some("cavalry")
        );
        let leaders = s.armies.iter().flat_map(|a| {
            a.commanders.iter().map(|c| (&c.id, &c.placement)).chain(
                a.corps
                    .iter()
                    .filter_map(|c| c.leader.as_ref().map(|l| (&l.id, &l.placement))),
            )
        });
        for (id, placement) in leaders {
            let Some(h) = placement.hex() else { continue };
            let effects = &map.terrain[&terrain_code(map, h.as_str())].effects;
            let cost = effects
                .cost_by_kind
                .get("cavalry")
                .copied()
                .or(effects.cost);
            let bridged = overlays(map, h.as_str()).iter().any(|o| o.bridge);
            assert!(
                bridged || cost != Some(MoveCost::Impassable),
                "{scenario}: {id} at {h}"
            );
        }
    }
}

#[test]
fn denain_7_6_camp_redoubts_need_a_breach_the_others_cost_half_the_mp() {
    let map = load(DENAIN).map.map;
    for h in ["2313", "2109", "1613"] {
        let camp = overlays(&map, h);
        assert!(
            camp.iter()
                .any(|o| o.effects.redoubt && o.effects.needs_breach),
            "{h}: a camp redoubt needs a breach (7.6)"
        );
    }
    let others = &map.overlay_types["redoute"];
    assert!(others.effects.redoubt && !others.effects.needs_breach);
    assert_eq!(
        others.effects.cost,
        Some(MoveCost::HalfMp),
        "7.6: moitié des PM"
    );
    for (h, ids) in &map.overlays {
        let breach = ids
            .iter()
            .any(|id| map.overlay_types[id].effects.needs_breach);
        assert_eq!(
            breach,
            ["2313", "2109", "1613"].contains(&h.as_str()),
            "{h}: only the three camp redoubts of 7.6 need a breach"
        );
    }
}

#[test]
fn fontenoy_0_2_the_village_is_exclusively_a_redoubt() {
    let map = load(FONTENOY).map.map;
    // Clear terrain under it, and exactly a redoubt's effects: nothing of a village (city).
    assert_eq!(terrain_code(&map, "1518"), ".");
    assert!(map.terrain["."].effects.is_none());
    assert_eq!(
        map.overlay_types["fontenoy"].effects,
        map.overlay_types["redoubt"].effects
    );
    assert!(is_redoubt(&map, "1518"));
    // No breach rule in Fontenoy.
    assert!(map.overlay_types.values().all(|o| !o.effects.needs_breach));
    assert!(map.hexside_types.values().all(|h| !h.needs_breach));
}

#[test]
fn denain_13_2_units_enter_in_column() {
    use bataille_schema::scenario::{EntryAllowance, ReinforcementEntry};
    let s = load(DENAIN).scenario;
    assert_eq!(s.rules.stacking.reinforcements, ReinforcementEntry::Column);
    // "la 1ère avec tous ses PM, la seconde avec 1 PM, la 3ème attend le tour suivant".
    assert_eq!(
        s.rules.stacking.column_entry,
        vec![EntryAllowance::AllMp, EntryAllowance::Mp(1)]
    );
    // Fontenoy has no reinforcements rule.
    assert!(
        load(FONTENOY)
            .scenario
            .rules
            .stacking
            .column_entry
            .is_empty()
    );
}

/// Hexes from which every path to the army's friendly edges crosses a hex of `code`: an
/// independent reading of `FirePlace::Beyond`, by a flood from the edges around that terrain.
fn beyond(map: &Map, edges: &[bataille_schema::MapEdge], code: &str) -> BTreeSet<String> {
    use bataille_schema::{HexIndex, MapEdge};
    let g = &map.grid;
    let is_code = |i: HexIndex| terrain_code(map, g.name(i).as_str()) == code;
    let on_edge = |i: HexIndex| {
        edges.iter().any(|e| match e {
            MapEdge::North => i.row == 0,
            MapEdge::South => i.row == g.rows - 1,
            MapEdge::West => i.col == 0,
            MapEdge::East => i.col == g.columns - 1,
        })
    };
    let mut reached: BTreeSet<(u32, u32)> = BTreeSet::new();
    let mut todo: Vec<HexIndex> = g.indices().filter(|&i| on_edge(i) && !is_code(i)).collect();
    while let Some(i) = todo.pop() {
        if !reached.insert((i.col, i.row)) {
            continue;
        }
        for (_, n) in g.neighbours(i) {
            if !is_code(n) && !reached.contains(&(n.col, n.row)) {
                todo.push(n);
            }
        }
    }
    g.indices()
        .filter(|&i| !is_code(i) && !reached.contains(&(i.col, i.row)))
        .map(|i| g.name(i).to_string())
        .collect()
}

#[test]
fn denain_11_1_the_french_fire_only_by_the_escaut_or_beyond_it() {
    use bataille_schema::scenario::FirePlace;
    let loaded = load(DENAIN);
    let (s, map) = (&loaded.scenario, &loaded.map.map);
    let [restriction] = s.rules.fire_restrictions.as_slice() else {
        panic!("one restriction: {:?}", s.rules.fire_restrictions)
    };
    assert_eq!(restriction.army.as_str(), "french");
    assert_eq!(
        restriction.except_corps,
        vec![bataille_schema::Id::from("fr-garnison-valenciennes")]
    );
    assert_eq!(
        restriction.fires_only,
        vec![FirePlace::NextTo("~".into()), FirePlace::Beyond("~".into())]
    );
    // `~` is the Escaut, and "the far bank" is a real place: Eugène's post (3019), the
    // elevation 2917 and Douchy (2218) are beyond it from the French edges (north, west); the
    // camp, Denain and Prouvy (3013) are not.
    assert_eq!(map.terrain["~"].name, "Escaut (rivière)");
    let far = beyond(map, &army(s, "french").friendly_edges, "~");
    for h in ["3019", "2917", "2218"] {
        assert!(far.contains(h), "{h} is beyond the Escaut");
    }
    for h in ["1409", "2012", "2111", "2112", "1812", "3013", "3211"] {
        assert!(!far.contains(h), "{h} is on the French bank");
    }
}

#[test]
fn the_printed_frames_cut_the_odd_columns_last_hex() {
    for scenario in [DENAIN, FONTENOY] {
        let map = load(scenario).map.map;
        let g = &map.grid;
        let expected: Vec<String> = (1..=g.columns)
            .step_by(2)
            .map(|c| format!("{c:02}{:02}", g.rows))
            .collect();
        let listed: Vec<String> = map.half_hexes.iter().map(|h| h.to_string()).collect();
        assert_eq!(listed, expected, "{scenario}");
    }
}
