//! Property: the validator never panics on arbitrary well-typed maps and scenarios (dangling
//! ids, hexes off the map, malformed hex names, odd grids, empty rows, zero radii, huge stacks),
//! its output is deterministic, and every diagnostic of a map written to text resolves to a
//! line of that text.

use std::collections::BTreeMap;

use bataille_schema::common::{Colour, HexName, HexsideRef, Id, Side};
use bataille_schema::map::{
    Effects, Grid, HexNaming, HexsideSymbol, HexsideType, Map, MoveCost, Orientation,
    OverlaySymbol, OverlayType, Shifted, TerrainType,
};
use bataille_schema::scenario::{
    Army, Command, Commander, Composition, Corps, EntryAllowance, FirePlace, FireRestriction,
    LineLeader, Objective, Owner, Placement, ReinforcementEntry, Rules, Scenario, StackTerm,
    Stacking, Symbol, Unit, UnitKind, Victory, Zone,
};
use bataille_schema::{SourceFile, map_to_string};
use bataille_validator::{Options, validate_documents, validate_map, validate_source};
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;

const IDS: &[&str] = &[
    "a",
    "b",
    "c",
    "fr",
    "al",
    "infantry",
    "cavalry",
    "artillery",
    "z",
    "x-1",
];

fn id() -> impl Strategy<Value = Id> {
    prop::sample::select(IDS).prop_map(Id::from)
}

fn hex_name() -> impl Strategy<Value = HexName> {
    prop_oneof![
        4 => (0u32..9, 0u32..9).prop_map(|(c, r)| HexName::from(format!("{c:02}{r:02}"))),
        1 => "[0-9a-z./-]{0,7}".prop_map(HexName::from),
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop::sample::select(Side::ALL.to_vec())
}

fn cost() -> impl Strategy<Value = MoveCost> {
    prop_oneof![
        (0u8..4).prop_map(MoveCost::Mp),
        Just(MoveCost::AllMp),
        Just(MoveCost::HalfMp),
        Just(MoveCost::Impassable)
    ]
}

fn effects() -> impl Strategy<Value = Effects> {
    (
        option::of(cost()),
        btree_map(id(), cost(), 0..3),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(cost, cost_by_kind, redoubt, built_up, needs_breach)| Effects {
                defence_multiplier: None,
                blocks_fire: false,
                cost,
                cost_by_kind,
                redoubt,
                built_up,
                needs_breach,
                ..Effects::default()
            },
        )
}

fn grid() -> impl Strategy<Value = Grid> {
    (
        any::<bool>(),
        any::<bool>(),
        0u32..3,
        0u32..3,
        1u32..8,
        1u32..8,
        prop_oneof![
            Just(HexNaming::default()),
            Just(HexNaming {
                column_digits: 3,
                row_digits: 2,
                separator: ".".into()
            }),
        ],
    )
        .prop_map(
            |(flat, odd, first_column, first_row, columns, rows, hex_names)| Grid {
                orientation: if flat {
                    Orientation::Flat
                } else {
                    Orientation::Pointy
                },
                shifted: if odd { Shifted::Odd } else { Shifted::Even },
                first_column,
                first_row,
                columns,
                rows,
                hex_names,
            },
        )
}

fn map() -> impl Strategy<Value = Map> {
    let terrain = btree_map(
        prop_oneof![
            Just("c".to_owned()),
            Just("f".to_owned()),
            Just("w".to_owned()),
            Just("hh".to_owned())
        ],
        (any::<bool>(), effects()).prop_map(|(water, effects)| TerrainType {
            name: "t".into(),
            colour: Colour::from("#112233"),
            pattern: None,
            water,
            effects,
        }),
        0..4,
    );
    let overlay_types = btree_map(
        id(),
        (any::<bool>(), effects()).prop_map(|(bridge, effects)| OverlayType {
            name: "o".into(),
            symbol: OverlaySymbol::Marker,
            colour: None,
            bridge,
            effects,
        }),
        0..3,
    );
    let hexside_types = btree_map(
        id(),
        (any::<bool>(), any::<bool>()).prop_map(|(water, bridge)| HexsideType {
            name: "h".into(),
            symbol: HexsideSymbol::River,
            colour: Colour::from("#0000ff"),
            water,
            bridge,
            blocks_zoc: false,
            needs_breach: false,
            cost: None,
            cost_by_kind: BTreeMap::new(),
        }),
        0..3,
    );
    let hexside = prop_oneof![
        (hex_name(), side()).prop_map(|(h, s)| HexsideRef::from(format!("{h}/{s}"))),
        "[0-9/A-Z]{0,8}".prop_map(HexsideRef::from),
    ];
    (
        grid(),
        terrain,
        overlay_types,
        hexside_types,
        vec("[cfw.é]{0,9}", 0..9),
        btree_map(hex_name(), vec(id(), 0..3), 0..3),
        btree_map(id(), vec(hexside, 0..4), 0..3),
        btree_map(hex_name(), Just("label".to_owned()), 0..2),
        vec(hex_name(), 0..2),
        vec(hex_name(), 0..3),
        vec(
            prop_oneof![Just("E0603".to_owned()), Just("nope".to_owned())],
            0..2,
        ),
    )
        .prop_map(
            |(
                grid,
                terrain,
                overlay_types,
                hexside_types,
                rows,
                overlays,
                hexsides,
                labels,
                checked,
                half_hexes,
                allow,
            )| Map {
                paths: Default::default(),
                short_lines: None,
                format_version: 1,
                name: "m".into(),
                notes: None,
                grid,
                metres_per_hex: None,
                terrain,
                overlay_types,
                hexside_types,
                rows,
                overlays,
                hexsides,
                labels,
                friendly_edges: BTreeMap::new(),
                checked,
                background: None,
                half_hexes,
                allow: allow.into_iter().map(Into::into).collect(),
            },
        )
}

fn placement() -> impl Strategy<Value = Placement> {
    prop_oneof![
        1 => Just(Placement::Unplaced),
        4 => hex_name().prop_map(Placement::Hex),
        2 => (id(), option::of(hex_name())).prop_map(|(zone, at)| Placement::Free { zone, at }),
        1 => (0u32..12, vec(hex_name(), 0..3)).prop_map(|(turn, entry)| Placement::Reinforcement { turn, entry: entry.into() }),
    ]
}

fn unit() -> impl Strategy<Value = Unit> {
    (
        id(),
        id(),
        option::of(id()),
        option::of(0u8..5),
        any::<bool>(),
        option::of(side()),
        placement(),
        vec(
            prop_oneof![Just("W0901".to_owned()), Just("nope".to_owned())],
            0..2,
        ),
    )
        .prop_map(
            |(id, kind, corps, cp, always_in_command, facing, placement, allow)| Unit {
                id,
                name: "u".into(),
                kind,
                corps,
                cp,
                mp: None,
                morale: None,
                fire_modifier: None,
                always_in_command,
                facing,
                placement,
                ratings: Default::default(),
                allow: allow.into_iter().map(Into::into).collect(),
            },
        )
}

fn army() -> impl Strategy<Value = Army> {
    let commander = (id(), option::of(0u32..4), vec(id(), 0..3), placement()).prop_map(
        |(id, radius_hexes, commands, placement)| Commander {
            id,
            name: "c".into(),
            radius_hexes,
            commands,
            placement,
            allow: vec![],
        },
    );
    let leader = (id(), option::of(0u32..4), any::<bool>(), placement()).prop_map(
        |(id, radius_hexes, always_in_command, placement)| LineLeader {
            id,
            name: "l".into(),
            activation: 3,
            radius_hexes,
            always_in_command,
            placement,
            allow: vec![],
        },
    );
    let corps = (id(), option::of(leader), any::<bool>()).prop_map(|(id, leader, allow)| Corps {
        id,
        name: "k".into(),
        colour: Colour::from("#ff0000"),
        leader,
        friendly_edges: vec![],
        allow: if allow { vec!["W0901".into()] } else { vec![] },
    });
    (
        id(),
        vec(commander, 0..3),
        vec(corps, 0..3),
        vec(unit(), 0..10),
    )
        .prop_map(|(id, commanders, corps, units)| Army {
            id,
            name: "a".into(),
            colour: None,
            friendly_edges: vec![],
            commanders,
            corps,
            units,
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let kind = (
        any::<bool>(),
        0u8..8,
        0u8..8,
        option::of(id()),
        any::<bool>(),
        vec(id(), 0..2),
    )
        .prop_map(
            |(combat, front_hexsides, flank_hexsides, moves_as, immobile, armies)| UnitKind {
                range_hexes: None,
                name: "K".into(),
                symbol: Symbol::Infantry,
                combat,
                counts_for_stacking: immobile.then_some(combat),
                front_hexsides,
                flank_hexsides,
                moves_as,
                immobile,
                armies,
            },
        );
    let term = (vec(id(), 0..3), option::of(0u32..4), option::of(0u32..5)).prop_map(
        |(kinds, max_counters, max_cp)| StackTerm {
            kinds,
            max_counters,
            max_cp,
        },
    );
    let composition = vec(term, 0..3).prop_map(|terms| Composition {
        name: "s".into(),
        terms,
    });
    let zone = (
        id(),
        any::<bool>(),
        id(),
        vec(hex_name(), 0..4),
        vec(id(), 0..2),
    )
        .prop_map(|(id, by_army, owner, hexes, shared)| Zone {
            id,
            name: "z".into(),
            owner: if by_army {
                Owner::Army(owner)
            } else {
                Owner::Corps(owner)
            },
            hexes: hexes.into(),
            shared_with: shared.into_iter().map(Owner::Corps).collect(),
        });
    (
        btree_map(id(), kind, 0..4),
        vec(composition, 0..3),
        any::<bool>(),
        (0u32..4, 0u32..4, any::<bool>(), any::<bool>()),
        vec(army(), 0..3),
        vec(zone, 0..3),
        vec(hex_name(), 0..2),
        1u32..10,
        (
            0usize..3,
            option::of(id()),
            option::of(id()),
            vec((id(), vec(id(), 0..2), "[~.fx]{0,2}", any::<bool>()), 0..2),
        ),
    )
        .prop_map(
            |(
                unit_kinds,
                compositions,
                stacked,
                (commander_radius_hexes, leader_radius_hexes, blocked, lines),
                armies,
                zones,
                objectives,
                turns,
                (column, leaders_move_as, commanders_move_as, fire),
            )| Scenario {
                sides: Vec::new(),
                format_version: 1,
                title: "t".into(),
                map: "m.ron".into(),
                date: "1745-05-11".into(),
                turns,
                turn_minutes: 60,
                start_time: "05:00".into(),
                language: None,
                notes: None,
                allow: vec![],
                rules: Rules {
                    rule_numbers: Default::default(),
                    charts: Vec::new(),
                    counters: Default::default(),
                    system: "vae-victis".into(),
                    unit_kinds,
                    stacking: Stacking {
                        compositions,
                        reinforcements: if stacked {
                            ReinforcementEntry::Stacked
                        } else {
                            ReinforcementEntry::Column
                        },
                        column_entry: vec![EntryAllowance::AllMp; column],
                    },
                    command: Command {
                        corps: true,
                        line_leaders: true,
                        commanders: true,
                        commander_radius_hexes,
                        leader_radius_hexes,
                        blocked_by_enemy_front_and_flank: blocked,
                        lines_of_battle: lines,
                        leaders_move_as,
                        commanders_move_as,
                    },
                    fire_restrictions: fire
                        .into_iter()
                        .map(|(army, except_corps, code, beyond)| FireRestriction {
                            army,
                            except_corps,
                            fires_only: vec![if beyond {
                                FirePlace::Beyond(code)
                            } else {
                                FirePlace::NextTo(code)
                            }],
                        })
                        .collect(),
                },
                armies,
                zones,
                victory: Victory {
                    conditions: Vec::new(),
                    objectives: objectives
                        .into_iter()
                        .map(|hex| Objective {
                            hex,
                            name: "o".into(),
                            points: 1,
                        })
                        .collect(),
                    ..Victory::default()
                },
                miniatures: Vec::new(),
            },
        )
}

proptest! {
    // A fixed seed: CI draws the same cases every run (issue 19); change it to explore.
    #![proptest_config(ProptestConfig {
        cases: 96,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x19_0004),
        ..ProptestConfig::default()
    })]

    #[test]
    fn validating_documents_never_panics_and_is_deterministic(scenario in scenario(), map in map()) {
        let first = validate_documents(&scenario, &map, &Options::editor());
        let second = validate_documents(&scenario, &map, &Options::editor());
        prop_assert_eq!(&first, &second);
        for d in &first {
            prop_assert!(!d.message.is_empty());
            prop_assert!(d.help.is_some(), "{} has no help", d.code);
            prop_assert!(d.pointer.is_empty() || d.pointer.starts_with('/'));
        }
    }

    #[test]
    fn every_map_diagnostic_resolves_to_a_line_of_the_text(map in map()) {
        let in_memory = validate_map(&map, &Options::default());
        let Ok(text) = map_to_string(&map) else { return Ok(()); };
        let lines = text.lines().count();
        let report = validate_source(SourceFile::new("m.ron", text), &Options::default());
        // Writing canonically may merge equal hexsides, so counts can differ; places cannot.
        prop_assert!(report.diagnostics.len() <= in_memory.len() + 1);
        for d in &report.diagnostics {
            let span = d.span.as_ref();
            prop_assert!(span.is_some_and(|s| s.line >= 1 && s.line <= lines.max(1)), "{:?}", d);
        }
    }
}
