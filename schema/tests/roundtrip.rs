//! Property tests: any generated map and scenario round-trips RON → types → RON byte for byte
//! after one canonicalisation, and through JSON; and its JSON conforms to the JSON Schema.

use std::collections::BTreeMap;

use bataille_schema::common::{Colour, HexName, Id, MapEdge, Side};
use bataille_schema::geometry::sides;
use bataille_schema::io::{parse_map, parse_scenario};
use bataille_schema::map::*;
use bataille_schema::scenario::*;
use bataille_schema::source::first_comment;
use bataille_schema::{
    HexIndex, SourceFile, SpanIndex, json_schema, map_to_string, scenario_to_string,
};
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    // Quotes, backslashes, newlines and accents exercise the string escaping.
    "[A-Za-z0-9 éèçÉ'\"\\\\\n/-]{1,24}"
}

fn id() -> impl Strategy<Value = Id> {
    "[a-z][a-z0-9-]{0,10}".prop_map(Id::from)
}

fn colour() -> impl Strategy<Value = Colour> {
    any::<[u8; 3]>().prop_map(Colour::from_rgb)
}

fn move_cost() -> impl Strategy<Value = MoveCost> {
    prop_oneof![
        (0u8..=20).prop_map(MoveCost::Mp),
        Just(MoveCost::AllMp),
        Just(MoveCost::HalfMp),
        Just(MoveCost::Impassable)
    ]
}

fn effects() -> impl Strategy<Value = Effects> {
    (
        option::of(move_cost()),
        btree_map(id(), move_cost(), 0..3),
        0u8..=5,
        any::<[bool; 6]>(),
        0u8..=5,
    )
        .prop_map(
            |(cost, cost_by_kind, protection, flags, road_bonus_mp)| Effects {
                defence_multiplier: None,
                blocks_fire: false,
                cost,
                cost_by_kind,
                protection,
                blocks_sight: flags[0],
                blocks_zoc: flags[1],
                built_up: flags[2],
                elevated: flags[3],
                redoubt: flags[4],
                road_bonus_mp,
                needs_breach: flags[5],
            },
        )
}

fn pattern() -> impl Strategy<Value = Pattern> {
    prop_oneof![
        Just(Pattern::Trees),
        Just(Pattern::Marsh),
        Just(Pattern::Dots),
        Just(Pattern::Hatch),
        Just(Pattern::Buildings),
        Just(Pattern::Water)
    ]
}

fn grid() -> impl Strategy<Value = Grid> {
    (
        prop_oneof![Just(Orientation::Flat), Just(Orientation::Pointy)],
        prop_oneof![Just(Shifted::Odd), Just(Shifted::Even)],
        0u32..3,
        0u32..3,
        1u32..12,
        1u32..12,
        prop_oneof![Just(""), Just("."), Just("-")],
    )
        .prop_map(
            |(orientation, shifted, first_column, first_row, columns, rows, sep)| Grid {
                orientation,
                shifted,
                first_column,
                first_row,
                columns,
                rows,
                hex_names: HexNaming {
                    column_digits: 2,
                    row_digits: 2,
                    separator: sep.into(),
                },
            },
        )
}

fn hex_of(grid: &Grid, pick: (u32, u32)) -> HexName {
    grid.name(HexIndex::new(pick.0 % grid.columns, pick.1 % grid.rows))
}

prop_compose! {
    fn map()(
        grid in grid(),
        legend in btree_map("[a-z#.~^]", (text(), colour(), option::of(pattern()), any::<bool>(), effects()), 1..5),
        cells in vec(any::<u32>(), 144),
        overlay_types in btree_map(id(), (text(), option::of(colour()), any::<bool>(), effects()), 0..3),
        overlay_picks in vec(((any::<u32>(), any::<u32>()), any::<u32>()), 0..6),
        hexside_picks in vec(((any::<u32>(), any::<u32>()), 0usize..6), 0..8),
        label_picks in vec(((any::<u32>(), any::<u32>()), text()), 0..4),
        checked_picks in vec((any::<u32>(), any::<u32>()), 0..4),
        notes in option::of(text()),
        metres in option::of(1u32..2000),
        background in option::of((text(), vec(-1000i32..1000, 9), vec(((any::<u32>(), any::<u32>()), 0i32..5000, 0i32..5000), 0..4))),
    ) -> Map {
        let codes: Vec<char> = legend.keys().filter_map(|k| k.chars().next()).collect();
        let rows = (0..grid.rows)
            .map(|r| (0..grid.columns).map(|c| codes[cells[((r * 12 + c) as usize) % cells.len()] as usize % codes.len()]).collect())
            .collect();
        let terrain = legend.into_iter().map(|(code, (name, colour, pattern, water, effects))| {
            (code, TerrainType { name, colour, pattern, water, effects })
        }).collect();
        let overlay_ids: Vec<Id> = overlay_types.keys().cloned().collect();
        let overlay_types: BTreeMap<Id, OverlayType> = overlay_types.into_iter().map(|(id, (name, colour, bridge, effects))| {
            (id, OverlayType { name, symbol: OverlaySymbol::Town, colour, bridge, effects })
        }).collect();
        let mut overlays = BTreeMap::new();
        if !overlay_ids.is_empty() {
            for (pick, which) in overlay_picks {
                overlays.entry(hex_of(&grid, pick)).or_insert_with(Vec::new)
                    .push(overlay_ids[which as usize % overlay_ids.len()].clone());
            }
        }
        let mut hexside_types = BTreeMap::new();
        hexside_types.insert(Id::from("river"), HexsideType {
            name: "River".into(), symbol: HexsideSymbol::River, colour: Colour::from("#3060c0"),
            water: true, bridge: false, blocks_zoc: true, needs_breach: false, cost: None, cost_by_kind: BTreeMap::new(),
        });
        let mut river = Vec::new();
        for (pick, side) in hexside_picks {
            let hex = hex_of(&grid, pick);
            // Written in either of its two names: the canonical form must pick one.
            let side: Side = sides(grid.orientation)[side];
            river.push(bataille_schema::HexsideRef::from(format!("{hex}/{side}")));
        }
        let mut hexsides = BTreeMap::new();
        hexsides.insert(Id::from("river"), river);
        let labels = label_picks.into_iter().map(|(pick, name)| (hex_of(&grid, pick), name)).collect();
        let checked: Vec<HexName> = checked_picks.into_iter().map(|pick| hex_of(&grid, pick)).collect();
        // Written unsorted and with repeats: the canonical form sorts them.
        let half_hexes = checked.iter().rev().chain(checked.first()).cloned().collect();
        let background = background.map(|(image, matrix, points)| Background {
            image,
            fit: FitKind::Affine,
            grid_to_image: std::array::from_fn(|i| f64::from(matrix[i]) / 8.0),
            control_points: points.into_iter().map(|(pick, x, y)| ControlPoint {
                hex: hex_of(&grid, pick), x: f64::from(x) / 4.0, y: f64::from(y) / 4.0,
            }).collect(),
        });
        let mut friendly_edges = BTreeMap::new();
        friendly_edges.insert("French".to_owned(), vec![MapEdge::West, MapEdge::North]);
        Map {
            paths: Default::default(),
            short_lines: None,
            format_version: 1,
            name: "Generated".into(),
            notes,
            grid,
            metres_per_hex: metres.map(f64::from),
            terrain,
            overlay_types,
            hexside_types,
            rows,
            overlays,
            hexsides,
            labels,
            friendly_edges,
            checked,
            background,
            half_hexes,
            allow: vec!["W0601".into(), "E0603".into()],
        }
    }
}

fn placement(zones: &[Id]) -> impl Strategy<Value = Placement> + use<> {
    let zones = zones.to_vec();
    prop_oneof![
        Just(Placement::Unplaced),
        (1u32..40, 1u32..40)
            .prop_map(|(c, r)| Placement::Hex(HexName::from(format!("{c:02}{r:02}")))),
        (any::<usize>(), option::of((1u32..40, 1u32..40))).prop_map(move |(z, at)| {
            Placement::Free {
                zone: zones[z % zones.len()].clone(),
                at: at.map(|(c, r)| HexName::from(format!("{c:02}{r:02}"))),
            }
        }),
        (1u32..10, vec((1u32..40, 1u32..40), 1..3)).prop_map(|(turn, entry)| {
            Placement::Reinforcement {
                turn,
                entry: entry
                    .into_iter()
                    .map(|(c, r)| HexName::from(format!("{c:02}{r:02}")))
                    .collect(),
            }
        }),
    ]
}

fn unit(zones: &[Id]) -> impl Strategy<Value = Unit> + use<> {
    (
        id(),
        text(),
        prop_oneof![Just("infantry"), Just("cavalry"), Just("artillery")],
        option::of(id()),
        (
            option::of(0u8..=12),
            option::of(0u8..=20),
            option::of(0u8..=10),
        ),
        option::of(-5i8..=5),
        any::<bool>(),
        option::of(prop_oneof![Just(Side::N), Just(Side::NE), Just(Side::SW)]),
        placement(zones),
        btree_map(
            id(),
            btree_map(
                id(),
                prop_oneof![
                    any::<i32>().prop_map(Rating::Number),
                    text().prop_map(Rating::Text)
                ],
                0..2,
            ),
            0..2,
        ),
        vec("[EW][0-9]{4}", 0..2),
    )
        .prop_map(
            |(
                id,
                name,
                kind,
                corps,
                (cp, mp, morale),
                fire_modifier,
                always,
                facing,
                placement,
                ratings,
                allow,
            )| Unit {
                id,
                name: name.into(),
                kind: Id::from(kind),
                corps,
                cp,
                mp,
                morale,
                fire_modifier,
                always_in_command: always,
                facing,
                placement,
                ratings: ratings.into(),
                allow: allow.into_iter().map(Into::into).collect(),
            },
        )
}

fn army(zones: Vec<Id>) -> impl Strategy<Value = Army> {
    (
        id(),
        text(),
        vec(
            prop_oneof![
                Just(MapEdge::West),
                Just(MapEdge::North),
                Just(MapEdge::East)
            ],
            0..3,
        ),
        vec(
            (
                id(),
                text(),
                option::of(0u32..=50),
                vec(id(), 0..3),
                placement(&zones),
            ),
            0..3,
        ),
        vec(
            (
                id(),
                text(),
                colour(),
                option::of((
                    id(),
                    text(),
                    0u8..=10,
                    option::of(0u32..=50),
                    any::<bool>(),
                    placement(&zones),
                )),
            ),
            0..3,
        ),
        vec(unit(&zones), 0..6),
    )
        .prop_map(
            |(id, name, friendly_edges, commanders, corps, units)| Army {
                id,
                name,
                colour: None,
                friendly_edges,
                commanders: commanders
                    .into_iter()
                    .map(|(id, name, radius_hexes, commands, placement)| Commander {
                        id,
                        name,
                        radius_hexes,
                        commands,
                        placement,
                        allow: Vec::new(),
                    })
                    .collect(),
                corps: corps
                    .into_iter()
                    .map(|(id, name, colour, leader)| Corps {
                        id,
                        name,
                        colour,
                        leader: leader.map(
                            |(id, name, activation, radius_hexes, always_in_command, placement)| {
                                LineLeader {
                                    id,
                                    name,
                                    activation,
                                    radius_hexes,
                                    always_in_command,
                                    placement,
                                    allow: Vec::new(),
                                }
                            },
                        ),
                        friendly_edges: Vec::new(),
                        allow: vec!["W0901".into()],
                    })
                    .collect(),
                units,
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let zones = vec![Id::from("zone-a"), Id::from("zone-b")];
    (
        text(),
        1u32..=200,
        1u32..=1440,
        option::of(text()),
        vec(army(zones.clone()), 1..3),
        vec((1u32..40, 1u32..40), 0..5),
        vec(((1u32..40, 1u32..40), text(), 0u32..100), 0..3),
        (0u32..5, 0u32..5),
        any::<bool>(),
    )
        .prop_map(
            move |(
                title,
                turns,
                turn_minutes,
                notes,
                armies,
                zone_hexes,
                objectives,
                points,
                stacked,
            )| {
                let mut kinds = BTreeMap::new();
                for (kind, symbol, front) in [
                    ("infantry", Symbol::Infantry, 2),
                    ("cavalry", Symbol::Cavalry, 4),
                    ("artillery", Symbol::Artillery, 6),
                ] {
                    kinds.insert(
                        Id::from(kind),
                        UnitKind {
                            range_hexes: None,
                            name: kind.into(),
                            symbol,
                            combat: true,
                            counts_for_stacking: (kind == "artillery").then_some(true),
                            front_hexsides: front,
                            flank_hexsides: 0,
                            moves_as: None,
                            immobile: kind == "artillery",
                            armies: Vec::new(),
                        },
                    );
                }
                Scenario {
                    sides: Vec::new(),
                    format_version: 1,
                    title,
                    map: "../maps/m.ron".into(),
                    date: "1712-07-24".into(),
                    turns,
                    turn_minutes,
                    start_time: "11:00".into(),
                    language: None,
                    notes,
                    allow: vec!["W0601".into()],
                    rules: Rules {
                        rule_numbers: Default::default(),
                        charts: Vec::new(),
                        counters: Default::default(),
                        system: Id::from("vae-victis"),
                        unit_kinds: kinds,
                        stacking: Stacking {
                            compositions: vec![Composition {
                                name: "infantry".into(),
                                terms: vec![StackTerm {
                                    kinds: vec![Id::from("infantry")],
                                    max_counters: None,
                                    max_cp: Some(3),
                                }],
                            }],
                            reinforcements: if stacked {
                                ReinforcementEntry::Stacked
                            } else {
                                ReinforcementEntry::Column
                            },
                            column_entry: if stacked {
                                Vec::new()
                            } else {
                                vec![EntryAllowance::AllMp, EntryAllowance::Mp(1)]
                            },
                        },
                        command: Command {
                            corps: true,
                            line_leaders: true,
                            commanders: true,
                            commander_radius_hexes: 10,
                            leader_radius_hexes: 4,
                            blocked_by_enemy_front_and_flank: stacked,
                            lines_of_battle: true,
                            leaders_move_as: stacked.then(|| Id::from("cavalry")),
                            commanders_move_as: None,
                        },
                        fire_restrictions: vec![FireRestriction {
                            army: Id::from("french"),
                            except_corps: vec![Id::from("c")],
                            fires_only: vec![
                                FirePlace::NextTo("~".into()),
                                FirePlace::Beyond("~".into()),
                            ],
                        }],
                    },
                    armies,
                    zones: zones
                        .iter()
                        .map(|id| Zone {
                            id: id.clone(),
                            name: format!("Zone {id}"),
                            owner: Owner::Army(Id::from("french")),
                            hexes: zone_hexes
                                .iter()
                                .map(|(c, r)| HexName::from(format!("{c:02}{r:02}")))
                                .collect(),
                            shared_with: if stacked {
                                vec![Owner::Corps(Id::from("c")), Owner::Army(Id::from("allies"))]
                            } else {
                                Vec::new()
                            },
                        })
                        .collect(),
                    victory: Victory {
                        conditions: Vec::new(),
                        objectives: objectives
                            .into_iter()
                            .map(|((c, r), name, points)| Objective {
                                hex: HexName::from(format!("{c:02}{r:02}")),
                                name,
                                points,
                            })
                            .collect(),
                        unit_objectives: vec![UnitObjective {
                            unit: Id::from("baggage"),
                            points: 10,
                        }],
                        points_per_enemy_cp_eliminated: points.0,
                        points_per_enemy_unit_routed: points.1,
                        holds: vec![HoldCondition {
                            army: Id::from("allies"),
                            hexes: vec![HexName::from("1518")],
                            at_least: Some(1),
                            result: "marginal".into(),
                        }],
                        leader_losses: vec![LeaderLoss {
                            leader: Id::from("saxe"),
                            winner: Id::from("allies"),
                        }],
                        notes: None,
                    },
                    miniatures: Vec::new(),
                }
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
    fn maps_round_trip_through_ron_byte_for_byte(map in map()) {
        let text = map_to_string(&map).unwrap();
        let parsed = parse_map(&SourceFile::new("m.ron", text.clone())).unwrap();
        let mut canonical = map.clone();
        canonical.canonicalize();
        prop_assert_eq!(&parsed, &canonical);
        prop_assert_eq!(map_to_string(&parsed).unwrap(), text);
    }

    #[test]
    fn maps_round_trip_through_json_and_conform_to_the_schema(mut map in map()) {
        // In canonical form: a generated map repeats items of its sets (half hexes, a river's
        // hexsides), which the canonical form drops and the schema refuses (`uniqueItems`).
        map.canonicalize();
        let value = serde_json::to_value(&map).unwrap();
        let back: Map = serde_json::from_value(value.clone()).unwrap();
        prop_assert_eq!(&back, &map);
        prop_assert_eq!(json_schema::check(bataille_schema::DocumentKind::Map, &value), vec![]);
    }

    #[test]
    fn scenarios_round_trip_through_ron_byte_for_byte(scenario in scenario()) {
        let text = scenario_to_string(&scenario).unwrap();
        let parsed = parse_scenario(&SourceFile::new("s.ron", text.clone())).unwrap();
        let mut canonical = scenario.clone();
        canonical.canonicalize();
        prop_assert_eq!(&parsed, &canonical);
        prop_assert_eq!(scenario_to_string(&parsed).unwrap(), text);
    }

    #[test]
    fn formatted_text_has_no_comment_and_loads_the_same_with_a_byte_order_mark(map in map()) {
        let text = map_to_string(&map).unwrap();
        prop_assert_eq!(first_comment(&text), None);
        let source = SourceFile::new("m.ron", format!("\u{feff}{text}"));
        prop_assert!(source.bom);
        let parsed = parse_map(&source).unwrap();
        prop_assert_eq!(map_to_string(&parsed).unwrap(), text);
    }

    #[test]
    fn a_key_given_twice_is_refused_at_its_second_line(map in map(), pick in any::<prop::sample::Index>()) {
        // Repeat one line of the legend (one entry per line in the canonical form).
        let text = map_to_string(&map).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let start = lines.iter().position(|l| *l == "    terrain: {").unwrap() + 1;
        let end = start + lines[start..].iter().position(|l| *l == "    },").unwrap();
        let repeated = pick.index(end - start) + start;
        let mut edited: Vec<&str> = lines.clone();
        edited.insert(repeated + 1, lines[repeated]);
        let edited = edited.join("\n");
        let error = parse_map(&SourceFile::new("m.ron", edited)).unwrap_err();
        let bataille_schema::LoadError::DuplicateKey { location, .. } = &error else {
            panic!("{error}");
        };
        prop_assert_eq!(location.line, repeated + 2, "{}", error);
        prop_assert_eq!(location.column, 9);
    }

    #[test]
    fn a_partial_span_index_resolves_as_the_whole_one(
        scenario in scenario(),
        picks in vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let text = scenario_to_string(&scenario).unwrap();
        let whole = SpanIndex::build(&text);
        let mut all: Vec<&str> = whole.pointers().collect();
        all.sort();
        let mut wanted: Vec<String> = picks.iter().map(|i| all[i.index(all.len())].to_owned()).collect();
        // And pointers below what the file holds, resolved to their nearest ancestor.
        wanted.push(format!("{}/nowhere/3", wanted[0]));
        let partial = SpanIndex::build_for(&text, wanted.iter().map(String::as_str));
        prop_assert!(partial.len() < whole.len() || whole.len() < 40);
        for pointer in &wanted {
            prop_assert_eq!(partial.resolve(pointer), whole.resolve(pointer), "{}", pointer);
        }
    }

    #[test]
    fn units_checked_one_by_one_break_the_schema_as_the_whole_document_does(
        mut scenario in scenario(),
        picks in vec((any::<prop::sample::Index>(), 0..7u8), 1..4),
    ) {
        let units: Vec<(usize, usize)> = scenario.armies.iter().enumerate()
            .flat_map(|(a, army)| (0..army.units.len()).map(move |u| (a, u)))
            .collect();
        prop_assume!(!units.is_empty());
        for (pick, how) in picks {
            let (a, u) = units[pick.index(units.len())];
            let unit = &mut scenario.armies[a].units[u];
            match how {
                0 => unit.cp = Some(200),
                1 => unit.name = "".into(),
                2 => unit.placement = Placement::Hex(HexName::from("x")),
                // Past the schema's length, bounds and item counts (the fast path's verdict
                // must agree with the `serde_json` one for each).
                3 => unit.name = "n".repeat(121).into(),
                4 => unit.fire_modifier = Some(i8::MIN),
                5 => unit.placement = Placement::Reinforcement { turn: 0, entry: Vec::new().into() },
                _ => unit.id = Id::from("Not An Id"),
            }
        }
        let chunked = json_schema::check_scenario(&scenario);
        prop_assert!(!chunked.is_empty());
        prop_assert_eq!(chunked, json_schema::check_whole(&scenario));
    }

    #[test]
    fn scenarios_round_trip_through_json_and_conform_to_the_schema(mut scenario in scenario()) {
        // In canonical form (its zones' hexes a set: see the maps' test).
        scenario.canonicalize();
        let value = serde_json::to_value(&scenario).unwrap();
        let back: Scenario = serde_json::from_value(value.clone()).unwrap();
        prop_assert_eq!(&back, &scenario);
        prop_assert_eq!(json_schema::check(bataille_schema::DocumentKind::Scenario, &value), vec![]);
    }
}

#[test]
fn painting_one_hex_changes_one_line() {
    let (mut map, _) = bataille_schema::stress::generate(
        bataille_schema::stress::StressSize {
            columns: 30,
            rows: 20,
            units: 10,
            corps: 2,
        },
        "m.ron",
    );
    let before = map_to_string(&map).unwrap();
    let row = &mut map.rows[7];
    let mut chars: Vec<char> = row.chars().collect();
    chars[12] = if chars[12] == 'f' { 'c' } else { 'f' };
    *row = chars.into_iter().collect();
    let after = map_to_string(&map).unwrap();
    let changed = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(changed, 1);
}

/// fmt writes an apostrophe as it is (`"Braine-l'Alleud"`, not `"Braine-l\'Alleud"`), keeps the
/// escapes a double-quoted string needs, and reads back to the same value.
#[test]
fn strings_are_written_without_needless_escapes() {
    let (mut map, _) = bataille_schema::stress::generate(
        bataille_schema::stress::StressSize {
            columns: 4,
            rows: 4,
            units: 0,
            corps: 1,
        },
        "m.ron",
    );
    map.labels
        .insert(HexName::from("0101"), "Braine-l'Alleud".to_owned());
    map.notes = Some("a \"quote\", a back\\slash then ' and \\' and a\nline".to_owned());
    let text = map_to_string(&map).unwrap();
    assert!(text.contains(r#""Braine-l'Alleud""#), "{text}");
    assert!(!text.contains(r"l\'Alleud"), "{text}");
    assert!(
        text.contains(r#""a \"quote\", a back\\slash then ' and \\' and a\nline""#),
        "{text}"
    );
    let back = parse_map(&SourceFile::new("m.ron", text.clone())).unwrap();
    assert_eq!(back.labels, map.labels);
    assert_eq!(back.notes, map.notes);
}
