//! A generator of large, valid documents for benchmarks and the `stress` example: a map of any
//! size with varied terrain, rivers and towns, and a two-army scenario whose units, leaders and
//! commanders are placed so that the scenario validates clean.

use std::collections::BTreeMap;

use crate::common::{Colour, Id, MapEdge, Side};
use crate::geometry::HexIndex;
use crate::map::{
    Effects, Grid, HexNaming, HexsideSymbol, HexsideType, Map, MoveCost, Orientation,
    OverlaySymbol, OverlayType, Pattern, Shifted, TerrainType,
};
use crate::scenario::{
    Army, Command, Commander, Composition, Corps, LineLeader, Objective, Owner, Placement,
    ReinforcementEntry, Rules, Scenario, StackTerm, Stacking, Symbol, Unit, UnitKind, Victory,
    Zone,
};

/// A small deterministic pseudo-random sequence (so generated files are reproducible).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
}

fn terrain_type(
    name: &str,
    colour: &str,
    pattern: Option<Pattern>,
    effects: Effects,
) -> TerrainType {
    TerrainType {
        name: name.into(),
        colour: Colour::from(colour),
        pattern,
        water: false,
        effects,
    }
}

/// The size of a stress document set.
#[derive(Debug, Clone, Copy)]
pub struct StressSize {
    pub columns: u32,
    pub rows: u32,
    pub units: u32,
    pub corps: u32,
}

/// Generates a map and a scenario (whose `map` field is `map_file`).
pub fn generate(size: StressSize, map_file: &str) -> (Map, Scenario) {
    let map = generate_map(size.columns.max(4), size.rows.max(4));
    let scenario = generate_scenario(&map, size, map_file);
    (map, scenario)
}

fn generate_map(columns: u32, rows: u32) -> Map {
    let grid = Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns,
        rows,
        hex_names: HexNaming {
            column_digits: if columns + 1 > 99 { 3 } else { 2 },
            row_digits: if rows + 1 > 99 { 3 } else { 2 },
            separator: String::new(),
        },
    };
    let mut terrain = BTreeMap::new();
    terrain.insert(
        "c".to_owned(),
        terrain_type("Clear", "#dfe6b0", None, Effects::default()),
    );
    terrain.insert(
        "f".to_owned(),
        terrain_type(
            "Forest",
            "#5d8a4a",
            Some(Pattern::Trees),
            Effects {
                defence_multiplier: None,
                blocks_fire: false,
                cost: Some(MoveCost::Mp(2)),
                protection: 1,
                blocks_sight: true,
                blocks_zoc: true,
                ..Effects::default()
            },
        ),
    );
    terrain.insert(
        "m".to_owned(),
        terrain_type(
            "Marsh",
            "#9fc2b8",
            Some(Pattern::Marsh),
            Effects {
                defence_multiplier: None,
                blocks_fire: false,
                cost: Some(MoveCost::Mp(3)),
                ..Effects::default()
            },
        ),
    );
    terrain.insert(
        "h".to_owned(),
        terrain_type(
            "Hill",
            "#c9b27c",
            Some(Pattern::Dots),
            Effects {
                defence_multiplier: None,
                blocks_fire: false,
                cost: Some(MoveCost::Mp(2)),
                blocks_sight: true,
                elevated: true,
                ..Effects::default()
            },
        ),
    );
    let mut random = Lcg(0x5eed_ba7a_111e);
    let mut codes = vec![b'c'; (columns * rows) as usize];
    // Blobs of forest, marsh and hills.
    let blobs = (columns * rows / 60).max(1);
    for _ in 0..blobs {
        let code = [b'f', b'f', b'm', b'h'][random.below(4) as usize];
        let centre = HexIndex::new(
            random.below(columns.into()) as u32,
            random.below(rows.into()) as u32,
        );
        let radius = random.below(3) as u32;
        let hexes: Vec<HexIndex> = grid.range(centre, radius).collect();
        for hex in hexes {
            codes[(hex.row * columns + hex.col) as usize] = code;
        }
    }
    let rows_text = codes
        .chunks(columns as usize)
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect();

    let mut overlay_types = BTreeMap::new();
    overlay_types.insert(
        Id::from("town"),
        OverlayType {
            name: "Town".into(),
            symbol: OverlaySymbol::Town,
            colour: None,
            bridge: false,
            effects: Effects {
                defence_multiplier: None,
                blocks_fire: false,
                protection: 1,
                blocks_sight: true,
                blocks_zoc: true,
                built_up: true,
                ..Effects::default()
            },
        },
    );
    let mut overlays = BTreeMap::new();
    let mut labels = BTreeMap::new();
    for i in 0..(columns * rows / 400).max(1) {
        let hex = HexIndex::new(
            random.below(columns.into()) as u32,
            random.below(rows.into()) as u32,
        );
        overlays.insert(grid.name(hex), vec![Id::from("town")]);
        labels.insert(grid.name(hex), format!("Town {i}"));
    }

    let mut hexside_types = BTreeMap::new();
    hexside_types.insert(
        Id::from("stream"),
        HexsideType {
            name: "Stream".into(),
            symbol: HexsideSymbol::Stream,
            colour: Colour::from("#3b6fb6"),
            water: true,
            bridge: false,
            blocks_zoc: true,
            needs_breach: false,
            cost: Some(MoveCost::Mp(1)),
            cost_by_kind: BTreeMap::new(),
        },
    );
    // Streams wander south along a few columns.
    let mut streams = Vec::new();
    for k in 0..(columns / 25).max(1) {
        let col = (k * 25 + 12).min(columns - 1);
        for row in 0..rows {
            let side = if row % 2 == 0 { Side::SE } else { Side::NE };
            let hex = HexIndex::new(col, row);
            // A hexside on the map's edge is not between two hexes (E0606): at odd sizes the
            // last row's SE side and the last column's sides are left out.
            if grid.neighbour(hex, side).is_some() {
                streams.push(grid.hexside_ref(hex, side));
            }
        }
    }
    let mut hexsides = BTreeMap::new();
    hexsides.insert(Id::from("stream"), streams);
    let mut friendly_edges = BTreeMap::new();
    friendly_edges.insert("Blue".to_owned(), vec![MapEdge::West]);
    friendly_edges.insert("Red".to_owned(), vec![MapEdge::East]);

    let mut map = Map {
        paths: Default::default(),
        short_lines: None,
        format_version: crate::io::FORMAT_VERSION,
        name: format!("Stress {columns}x{rows}"),
        notes: Some("Generated by bataille_schema::stress for benchmarks.".into()),
        grid,
        metres_per_hex: Some(200.0),
        terrain,
        overlay_types,
        hexside_types,
        rows: rows_text,
        overlays,
        hexsides,
        labels,
        friendly_edges,
        checked: Vec::new(),
        background: None,
        half_hexes: Vec::new(),
        allow: Vec::new(),
    };
    map.canonicalize();
    map
}

fn kinds() -> BTreeMap<Id, UnitKind> {
    let kind = |name: &str, symbol, front, flank| UnitKind {
        range_hexes: None,
        name: name.into(),
        symbol,
        combat: true,
        counts_for_stacking: None,
        front_hexsides: front,
        flank_hexsides: flank,
        moves_as: None,
        immobile: false,
        armies: Vec::new(),
    };
    let mut kinds = BTreeMap::new();
    kinds.insert(
        Id::from("infantry"),
        kind("Infantry", Symbol::Infantry, 2, 2),
    );
    kinds.insert(Id::from("cavalry"), kind("Cavalry", Symbol::Cavalry, 4, 0));
    kinds.insert(
        Id::from("artillery"),
        kind("Artillery", Symbol::Artillery, 6, 0),
    );
    kinds
}

fn generate_scenario(map: &Map, size: StressSize, map_file: &str) -> Scenario {
    let grid = &map.grid;
    let corps_count = size.corps.max(2);
    let units_per_corps = (size.units / corps_count).max(1);
    let side = (f64::from(units_per_corps).sqrt().ceil() as u32).max(2);
    // Corps blocks: a grid of square blocks two hexes apart, alternately Blue and Red. All
    // terrain is passable, so any hex is a legal place.
    let block = side + 2;
    let blocks_across = (grid.columns / block).max(1);
    let mut armies = vec![
        Army {
            id: Id::from("blue"),
            name: "Blue army".into(),
            colour: None,
            friendly_edges: vec![MapEdge::West],
            commanders: Vec::new(),
            corps: Vec::new(),
            units: Vec::new(),
        },
        Army {
            id: Id::from("red"),
            name: "Red army".into(),
            colour: None,
            friendly_edges: vec![MapEdge::East],
            commanders: Vec::new(),
            corps: Vec::new(),
            units: Vec::new(),
        },
    ];
    let mut zones = Vec::new();
    let mut objectives = Vec::new();
    let mut next_unit = 0u32;
    for corps_index in 0..corps_count {
        let army_index = usize::from(corps_index % 2 == 1);
        let bx = corps_index % blocks_across;
        let by = corps_index / blocks_across;
        let origin = HexIndex::new(bx * block + 1, by * block + 1);
        let corps_id = Id::from(format!("corps-{corps_index:03}"));
        let mut placed = Vec::new();
        for dy in 0..side {
            for dx in 0..side {
                let hex = HexIndex::new(origin.col + dx, origin.row + dy);
                if grid.contains(hex) {
                    placed.push(hex);
                }
            }
        }
        let centre = placed.get(placed.len() / 2).copied().unwrap_or(origin);
        let zone_id = Id::from(format!("zone-{corps_index:03}"));
        zones.push(Zone {
            id: zone_id.clone(),
            name: format!("Deployment of corps {corps_index}"),
            owner: Owner::Corps(corps_id.clone()),
            hexes: placed.iter().map(|h| grid.name(*h)).collect(),
            shared_with: Vec::new(),
        });
        let army = &mut armies[army_index];
        army.corps.push(Corps {
            id: corps_id.clone(),
            name: format!("Corps {corps_index}"),
            colour: Colour::from_rgb([
                (corps_index * 37 % 200 + 40) as u8,
                (corps_index * 91 % 200 + 40) as u8,
                (corps_index * 53 % 200 + 40) as u8,
            ]),
            leader: Some(LineLeader {
                id: Id::from(format!("leader-{corps_index:03}")),
                name: format!("General {corps_index}"),
                activation: 3,
                // A corps block wider than the schema's bound (a huge battle) keeps the bound:
                // its far corners are then out of command, never an out-of-range radius (E0105).
                radius_hexes: Some((side + 2).min(crate::bounds::RADIUS_HEXES.max)),
                always_in_command: false,
                placement: Placement::Hex(grid.name(centre)),
                allow: Default::default(),
            }),
            friendly_edges: Vec::new(),
            allow: Vec::new(),
        });
        // Each corps also gets a commander in chief standing with it, so every line leader is
        // within its commander's radius whatever the map size.
        army.commanders.push(Commander {
            id: Id::from(format!("chief-{corps_index:03}")),
            name: format!("Marshal {corps_index}"),
            radius_hexes: Some(5),
            commands: vec![corps_id.clone()],
            placement: Placement::Hex(grid.name(centre)),
            allow: Vec::new(),
        });
        for (i, hex) in placed.iter().enumerate().take(units_per_corps as usize) {
            let kind = match i % 10 {
                0 => "artillery",
                1 | 2 => "cavalry",
                _ => "infantry",
            };
            let placement = if i % 3 == 0 {
                Placement::Free {
                    zone: zone_id.clone(),
                    at: Some(grid.name(*hex)),
                }
            } else {
                Placement::Hex(grid.name(*hex))
            };
            army.units.push(Unit {
                id: Id::from(format!("unit-{next_unit:05}")),
                name: format!("Regiment {next_unit}").into(),
                kind: Id::from(kind),
                corps: Some(corps_id.clone()),
                cp: Some(if kind == "artillery" {
                    1
                } else {
                    1 + (i % 3) as u8
                }),
                mp: Some(if kind == "cavalry" { 6 } else { 4 }),
                morale: Some(1 + (i % 3) as u8),
                fire_modifier: None,
                always_in_command: false,
                facing: Some(if army_index == 0 { Side::NE } else { Side::SW }),
                placement,
                ratings: Default::default(),
                allow: Default::default(),
            });
            next_unit += 1;
        }
        if corps_index % 10 == 0 {
            objectives.push(Objective {
                hex: grid.name(centre),
                name: format!("Objective {corps_index}"),
                points: 10,
            });
        }
    }
    Scenario {
        sides: Vec::new(),
        format_version: crate::io::FORMAT_VERSION,
        title: format!("Stress: {} units in {} corps", next_unit, corps_count),
        map: map_file.to_owned(),
        date: "1745-05-11".into(),
        turns: 10,
        turn_minutes: 60,
        start_time: "08:00".into(),
        language: None,
        notes: Some("Generated by bataille_schema::stress for benchmarks.".into()),
        allow: Vec::new(),
        rules: Rules {
            rule_numbers: Default::default(),
            charts: Vec::new(),
            counters: Default::default(),
            system: Id::from("vae-victis"),
            unit_kinds: kinds(),
            stacking: Stacking {
                compositions: vec![
                    Composition {
                        name: "one unit".into(),
                        terms: vec![StackTerm {
                            kinds: vec![
                                Id::from("infantry"),
                                Id::from("cavalry"),
                                Id::from("artillery"),
                            ],
                            max_counters: Some(1),
                            max_cp: None,
                        }],
                    },
                    Composition {
                        name: "infantry with a battery".into(),
                        terms: vec![
                            StackTerm {
                                kinds: vec![Id::from("infantry")],
                                max_counters: Some(1),
                                max_cp: None,
                            },
                            StackTerm {
                                kinds: vec![Id::from("artillery")],
                                max_counters: Some(1),
                                max_cp: None,
                            },
                        ],
                    },
                ],
                reinforcements: ReinforcementEntry::Column,
                column_entry: Vec::new(),
            },
            command: Command {
                corps: true,
                line_leaders: true,
                commanders: true,
                commander_radius_hexes: 10,
                leader_radius_hexes: 5,
                blocked_by_enemy_front_and_flank: true,
                lines_of_battle: true,
                leaders_move_as: None,
                commanders_move_as: None,
            },
            fire_restrictions: Vec::new(),
        },
        armies,
        zones,
        victory: Victory {
            conditions: Vec::new(),
            objectives,
            points_per_enemy_cp_eliminated: 2,
            points_per_enemy_unit_routed: 1,
            ..Victory::default()
        },
        miniatures: Vec::new(),
    }
}

/// Parses `200x200` into (columns, rows).
pub fn parse_size(text: &str) -> Option<(u32, u32)> {
    let (columns, rows) = text.split_once(['x', 'X'])?;
    Some((columns.trim().parse().ok()?, rows.trim().parse().ok()?))
}
