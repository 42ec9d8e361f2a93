//! Variants resolved over the bundled Denain scenario: changes applied by id, the trace back to
//! the changes and the base, the problems of the changes, and the diff that gives them back.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use bataille_schema::Scenario;
use bataille_schema::scenario::{Placement, Unit};
use bataille_schema::source::SourceFile;
use bataille_schema::variant::{ProblemKind, Variant, diff, resolve};

fn denain() -> Scenario {
    let text = include_str!("../../scenarios/denain-1712.ron");
    bataille_schema::io::parse_scenario(&SourceFile::new("denain-1712.ron", text.to_owned()))
        .expect("Denain parses")
}

fn variant(text: &str) -> Variant {
    bataille_schema::io::parse_variant(&SourceFile::new("v.ron", text.to_owned())).expect("parses")
}

fn unit<'s>(s: &'s Scenario, id: &str) -> &'s Unit {
    s.armies
        .iter()
        .flat_map(|a| &a.units)
        .find(|u| u.id.as_str() == id)
        .expect("unit")
}

#[test]
fn changes_apply_by_id_and_the_trace_follows_units_that_moved_up() {
    let base = denain();
    let v = variant(
        r#"Variant(format_version: 1, name: "V", base: "denain-1712.ron", turns: 12,
            units: {"al-douglas": (placement: Hex("1913"), cp: 3), "al-wurtemberg": (turn: 2)},
            remove_units: ["al-kettler-2"])"#,
    );
    let r = resolve(&base, &v);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(r.scenario.turns, 12);
    assert_eq!(r.scenario.title, format!("{} — V", base.title));
    let douglas = unit(&r.scenario, "al-douglas");
    assert_eq!(douglas.placement, Placement::Hex("1913".into()));
    assert_eq!(douglas.cp, Some(3));
    assert_eq!(
        unit(&r.scenario, "al-wurtemberg").placement,
        Placement::Reinforcement {
            turn: 2,
            entry: vec!["2820".into()].into()
        }
    );
    assert!(
        !r.scenario
            .armies
            .iter()
            .flat_map(|a| &a.units)
            .any(|u| u.id.as_str() == "al-kettler-2")
    );
    // Allies are army 1; Kettler 2/ was unit 3, Douglas unit 8: now unit 7.
    let allies = &r.scenario.armies[1];
    assert_eq!(allies.units[7].id.as_str(), "al-douglas");
    assert_eq!(
        r.trace
            .to_variant("/armies/1/units/7/placement/Hex")
            .as_deref(),
        Some("/units/al-douglas/placement/Hex")
    );
    assert_eq!(
        r.trace.to_base("/armies/1/units/7/cp").as_deref(),
        Some("/armies/1/units/8/cp")
    );
    // A unit after the removed one, unchanged: its base place, and no change.
    assert_eq!(allies.units[3].id.as_str(), "al-albermarle-1");
    assert_eq!(
        r.trace.to_base("/armies/1/units/3").as_deref(),
        Some("/armies/1/units/4")
    );
    assert_eq!(r.trace.to_variant("/armies/1/units/3"), None);
    assert_eq!(r.trace.change_of("al-kettler-2"), Some("/remove_units/0"));
    assert_eq!(r.trace.to_variant("/turns").as_deref(), Some("/turns"));
}

#[test]
fn problems_name_the_change() {
    let base = denain();
    let v = variant(
        r#"Variant(format_version: 1, name: "V", base: "b.ron", turns: 10,
            units: {"ghost": (cp: 1), "al-douglas": (cp: 2), "al-kettler-1": (placement: Hex("1614"), turn: 3),
                    "al-kettler-2": (turn: 3)},
            leaders: {"fr-villars": (activation: 2)},
            remove_units: ["al-douglas"])"#,
    );
    let r = resolve(&base, &v);
    let found: Vec<(ProblemKind, &str)> = r
        .problems
        .iter()
        .map(|p| (p.kind, p.pointer.as_str()))
        .collect();
    for expected in [
        (ProblemKind::NoChange, "/turns"),
        (ProblemKind::UnknownId, "/units/ghost"),
        (ProblemKind::Contradiction, "/units/al-douglas"),
        (ProblemKind::Contradiction, "/units/al-kettler-1/turn"),
        (ProblemKind::DoesNotFit, "/units/al-kettler-2/turn"),
        (ProblemKind::DoesNotFit, "/leaders/fr-villars/activation"),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:?}");
    }
}

#[test]
fn the_diff_of_a_resolved_variant_gives_its_changes_back() {
    let base = denain();
    let v = variant(
        r#"Variant(format_version: 1, name: "V", base: "denain-1712.ron", turns: 11,
            units: {"al-douglas": (placement: Hex("1913"), cp: 3)},
            leaders: {"fr-tingry": (turn: 4)},
            add_units: [(army: "allies", unit: (id: "al-new", name: "New", kind: "infantry", corps: "al-fagel", cp: 1, placement: Reinforcement(turn: 3, entry: ["2719"])))],
            remove_units: ["al-kettler-2"])"#,
    );
    let r = resolve(&base, &v);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let back = diff(&base, &r.scenario, "V", "denain-1712.ron");
    assert_eq!(back, v);
    assert_eq!(resolve(&base, &back).scenario, r.scenario);
}

/// Every bundled variant, resolved and diffed against its base, gives its own changes back:
/// what the editor saves of an opened variant left as it was is the variant.
#[test]
fn every_bundled_variant_survives_a_resolve_and_diff() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).expect("scenarios") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        if !text.starts_with("Variant(") {
            continue;
        }
        seen += 1;
        let v = bataille_schema::io::parse_variant(&SourceFile::new(&path, text)).expect("parses");
        let base_path = root.join(&v.base);
        let base = bataille_schema::io::parse_scenario(&SourceFile::new(
            &base_path,
            std::fs::read_to_string(&base_path).expect("base"),
        ))
        .expect("base parses");
        let r = resolve(&base, &v);
        assert!(
            r.problems.is_empty(),
            "{}: {:?}",
            path.display(),
            r.problems
        );
        let mut canonical = v.clone();
        canonical.canonicalize();
        let back = bataille_schema::variant::rediff(&base, &r.scenario, &v);
        assert_eq!(back, canonical, "{}", path.display());
    }
    assert!(seen >= 4, "the four bundled variants");
}

#[test]
fn victory_and_rule_changes_survive_a_resolve_and_diff() {
    let base = denain();
    let v = variant(
        r#"Variant(format_version: 1, name: "V", base: "denain-1712.ron",
            units: {"al-douglas": (cp: 3, allow: ["W0901"])},
            leaders: {"al-eugene": (ratings: {"age-of-honor": {"reserve_modifier": Number(1)}})},
            victory: (objectives: {"2012": (name: "Denain", points: 20)}, remove_objectives: ["3115"],
                      points_per_enemy_unit_routed: 2, notes: "More for Denain."),
            rules: (command: (commander_radius_hexes: 6, lines_of_battle: false), reinforcements: Stacked))"#,
    );
    let r = resolve(&base, &v);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(bataille_schema::variant::rediff(&base, &r.scenario, &v), v);
}

fn unit_mut<'s>(s: &'s mut Scenario, id: &str) -> &'s mut Unit {
    s.armies
        .iter_mut()
        .flat_map(|a| &mut a.units)
        .find(|u| u.id.as_str() == id)
        .expect("unit")
}

/// Denain with two victory conditions of the vocabulary (Denain itself has none).
fn denain_with_conditions() -> Scenario {
    use bataille_schema::scenario::VictoryCondition;
    let mut base = denain();
    base.victory.conditions = vec![
        VictoryCondition::FirstToDestroy {
            side: "allies".into(),
            strength: 20,
            result: "Allied victory".into(),
        },
        VictoryCondition::LossThreshold {
            side: "french".into(),
            strength: 15,
            effect: "demoralised".into(),
        },
    ];
    base
}

/// Each kind of change the variant format holds, made on the resolved scenario as the editor
/// makes it, is written by the diff and read back whole: nothing the variant can say is lost
/// on save (issue 25: a deleted victory condition, a title edit were lost).
#[test]
fn every_kind_of_change_survives_a_diff_and_resolve() {
    use bataille_schema::scenario::{LeaderLoss, UnitObjective, VictoryCondition};
    use bataille_schema::variant::unwritten;
    type Edit = fn(&mut Scenario);
    let edits: Vec<(&str, Edit)> = vec![
        ("move a unit", |s| {
            unit_mut(s, "al-douglas").placement = Placement::Hex("1913".into())
        }),
        ("unplace a unit", |s| {
            unit_mut(s, "al-douglas").placement = Placement::Unplaced
        }),
        ("strength", |s| unit_mut(s, "al-douglas").cp = Some(1)),
        ("morale and facing", |s| {
            let u = unit_mut(s, "al-douglas");
            u.morale = Some(1);
            u.facing = Some(bataille_schema::Side::S);
        }),
        ("reinforcement turn and entry", |s| {
            unit_mut(s, "al-wurtemberg").placement = Placement::Reinforcement {
                turn: 2,
                entry: vec!["2719".into()].into(),
            }
        }),
        ("move a leader", |s| {
            s.armies[0].commanders[0].placement = Placement::Hex("1410".into())
        }),
        ("add a unit", |s| {
            let mut u = s.armies[1].units[0].clone();
            u.id = "al-new".into();
            u.name = "New".into();
            s.armies[1].units.push(u);
        }),
        ("remove a unit", |s| {
            s.armies[1].units.remove(3);
        }),
        ("replace a zone", |s| {
            s.zones[0].hexes.pop();
        }),
        ("add a zone", |s| {
            let mut z = s.zones[0].clone();
            z.id = "new-zone".into();
            s.zones.push(z);
        }),
        ("turns", |s| s.turns += 2),
        ("rule switches", |s| {
            s.rules.command.lines_of_battle = !s.rules.command.lines_of_battle;
            s.rules.command.leader_radius_hexes += 1;
        }),
        ("change a victory condition", |s| {
            s.victory.conditions[0] = VictoryCondition::FirstToDestroy {
                side: "allies".into(),
                strength: 30,
                result: "Allied victory".into(),
            }
        }),
        ("add a victory condition", |s| {
            s.victory
                .conditions
                .push(VictoryCondition::PointsPerEnemyStrength {
                    side: "french".into(),
                    points: 1,
                })
        }),
        ("delete a victory condition", |s| {
            s.victory.conditions.remove(0);
        }),
        ("delete every victory condition", |s| {
            s.victory.conditions.clear()
        }),
        ("victory hexes and points", |s| {
            s.victory.objectives.remove(4);
            s.victory.objectives[0].points = 30;
            s.victory.points_per_enemy_cp_eliminated = 3;
        }),
        ("units and leaders worth victory", |s| {
            s.victory.unit_objectives.clear();
            s.victory.leader_losses = vec![LeaderLoss {
                leader: "fr-villars".into(),
                winner: "allies".into(),
            }];
            s.victory.unit_objectives.push(UnitObjective {
                unit: "al-douglas".into(),
                points: 5,
            });
        }),
        ("the title", |s| {
            s.title = format!("{} — Eugène at noon", s.title)
        }),
    ];
    let base = denain_with_conditions();
    let original = Variant {
        format_version: 1,
        name: "V".into(),
        base: "denain-1712.ron".into(),
        ..Variant::default()
    };
    let opened = resolve(&base, &original).scenario;
    for (what, edit) in edits {
        let mut edited = opened.clone();
        edit(&mut edited);
        assert!(edited != opened, "{what}: the edit changes something");
        let written = bataille_schema::variant::rediff(&base, &edited, &original);
        let r = resolve(&base, &written);
        assert!(r.problems.is_empty(), "{what}: {:?}", r.problems);
        assert_eq!(
            unwritten(&base, &edited, &written),
            Vec::<&str>::new(),
            "{what}"
        );
        let mut back = r.scenario;
        let mut expected = edited.clone();
        for s in [&mut back, &mut expected] {
            for army in &mut s.armies {
                army.units.sort_by(|a, b| a.id.cmp(&b.id));
            }
        }
        assert!(back == expected, "{what}: {written:?}");
    }
}

#[test]
fn a_title_gives_the_variants_name() {
    use bataille_schema::variant::name_from_title;
    assert_eq!(
        name_from_title("Denain 1712", "Denain 1712 — Eugène at noon"),
        Some("Eugène at noon")
    );
    assert_eq!(
        name_from_title("Denain 1712", "Eugène at noon"),
        Some("Eugène at noon")
    );
    assert_eq!(name_from_title("Denain 1712", "Denain 1712 — "), None);
    assert_eq!(
        name_from_title("Denain 1712", "Denain 1712"),
        None,
        "the base's title"
    );
}

/// What a variant cannot hold (the date, the armies' names) is named, so the editor can say so
/// rather than lose it silently.
#[test]
fn what_a_variant_cannot_hold_is_named() {
    use bataille_schema::variant::unwritten;
    let base = denain();
    let original = variant(r#"Variant(format_version: 1, name: "V", base: "denain-1712.ron")"#);
    let mut edited = resolve(&base, &original).scenario;
    edited.date = "1712-07-25".into();
    edited.armies[0].name = "Les Français".into();
    unit_mut(&mut edited, "al-douglas").cp = Some(1);
    let written = bataille_schema::variant::rediff(&base, &edited, &original);
    assert_eq!(
        unwritten(&base, &edited, &written),
        vec![
            "the date",
            "the armies (names, colours, corps, commanders, units)"
        ]
    );
}

#[test]
fn removed_conditions_are_checked() {
    let base = denain_with_conditions();
    let v = variant(
        r#"Variant(format_version: 1, name: "V", base: "denain-1712.ron",
            victory: (conditions: [FirstToDestroy(side: "allies", strength: 9, result: "x")],
                      remove_conditions: [(kind: FirstToDestroy, side: "allies"), (kind: Exit, side: "allies"),
                                          (kind: LossThreshold, side: "french"), (kind: LossThreshold, side: "french")]))"#,
    );
    let r = resolve(&base, &v);
    let found: Vec<(ProblemKind, &str)> = r
        .problems
        .iter()
        .map(|p| (p.kind, p.pointer.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (ProblemKind::Contradiction, "/victory/remove_conditions/0"),
            (ProblemKind::UnknownId, "/victory/remove_conditions/1"),
            (ProblemKind::NoChange, "/victory/remove_conditions/3"),
        ]
    );
    assert_eq!(
        r.scenario.victory.conditions.len(),
        1,
        "the loss threshold removed"
    );
}
