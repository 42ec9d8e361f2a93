//! Hex math through hexx, for both orientations and both offset parities: names, neighbours,
//! hexsides, distance, ranges and grid space.

use bataille_schema::geometry::{opposite, sides};
use bataille_schema::map::{HexNaming, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex, Side};

fn grid(orientation: Orientation, shifted: Shifted, first: u32) -> Grid {
    Grid {
        orientation,
        shifted,
        first_column: first,
        first_row: first,
        columns: 40,
        rows: 30,
        hex_names: HexNaming::default(),
    }
}

fn all_grids() -> Vec<Grid> {
    let mut grids = Vec::new();
    for orientation in [Orientation::Flat, Orientation::Pointy] {
        for shifted in [Shifted::Odd, Shifted::Even] {
            for first in [0, 1] {
                grids.push(grid(orientation, shifted, first));
            }
        }
    }
    grids
}

#[test]
fn every_hex_name_of_a_40_by_30_map_round_trips() {
    for grid in all_grids() {
        let mut seen = std::collections::HashSet::new();
        for index in grid.indices() {
            let name = grid.name(index);
            assert_eq!(grid.parse(name.as_str()), Ok(index), "{grid:?} {name}");
            assert!(seen.insert(name), "names are unique");
        }
        assert_eq!(seen.len(), 40 * 30);
    }
}

#[test]
fn names_read_column_then_row() {
    let grid = grid(Orientation::Flat, Shifted::Odd, 1);
    assert_eq!(grid.parse("1518"), Ok(HexIndex::new(14, 17)));
    assert_eq!(grid.name(HexIndex::new(0, 0)).as_str(), "0101");
    assert!(
        grid.parse("4101").is_err(),
        "column 41 is off a 40-column map"
    );
    assert!(grid.parse("0131").is_err(), "row 31 is off a 30-row map");
    assert!(grid.parse("15a8").is_err());
    assert!(grid.parse("151").is_err());
    let mut wide = grid.clone();
    wide.hex_names = HexNaming {
        column_digits: 3,
        row_digits: 3,
        separator: ".".into(),
    };
    assert_eq!(wide.parse("015.018"), Ok(HexIndex::new(14, 17)));
    assert_eq!(wide.name(HexIndex::new(14, 17)).as_str(), "015.018");
    // Malformed names, read by hand (issue 23): a wrong separator, a sign, a non-ASCII digit
    // or separator, a digit count of nothing.
    for bad in [
        "015-018",
        "015.+18",
        "+15.018",
        "０15.018",
        "015\u{2024}18",
        "",
        "015.01",
    ] {
        assert_eq!(wide.parse_numbers(bad), None, "{bad:?}");
    }
    assert_eq!(wide.parse_numbers("999.000"), Some((999, 0)));
    let mut none = grid.clone();
    none.hex_names = HexNaming {
        column_digits: 0,
        row_digits: 4,
        separator: String::new(),
    };
    assert_eq!(
        none.parse_numbers("0101"),
        None,
        "no column digits: no name"
    );
    assert!(grid.parse("-101").is_err() && grid.parse("1 01").is_err());
}

#[test]
fn shifted_columns_sit_half_a_hex_lower_by_printed_number() {
    // Flat, odd columns shifted, numbered from 1: columns 1, 3, 5 are lower than 2, 4.
    let grid = grid(Orientation::Flat, Shifted::Odd, 1);
    let y = |name: &str| grid.centre(grid.parse(name).unwrap())[1];
    assert!(y("0101") > y("0201"));
    assert!(y("0301") > y("0201"));
    assert!(y("0102") > y("0101"), "rows run down the screen");
    let even = self::grid(Orientation::Flat, Shifted::Even, 1);
    let y = |name: &str| even.centre(even.parse(name).unwrap())[1];
    assert!(y("0201") > y("0101"));
    // Pointy: odd rows shifted right.
    let pointy = self::grid(Orientation::Pointy, Shifted::Odd, 1);
    let x = |name: &str| pointy.centre(pointy.parse(name).unwrap())[0];
    assert!(x("0101") > x("0102"));
    assert!(x("0102") < x("0103"));
}

#[test]
fn neighbours_of_a_flat_odd_map_are_the_printed_ones() {
    // Vae Victis maps: flat tops, odd columns low. 0202's neighbours as printed.
    let grid = grid(Orientation::Flat, Shifted::Odd, 1);
    let hex = grid.parse("0202").unwrap();
    let names: Vec<String> = grid
        .neighbours(hex)
        .map(|(side, n)| format!("{side}:{}", grid.name(n)))
        .collect();
    assert_eq!(
        names,
        [
            "N:0201", "NE:0301", "SE:0302", "S:0203", "SW:0102", "NW:0101"
        ]
    );
    // An odd (low) column: 0302's neighbours.
    let hex = grid.parse("0302").unwrap();
    let names: Vec<String> = grid
        .neighbours(hex)
        .map(|(side, n)| format!("{side}:{}", grid.name(n)))
        .collect();
    assert_eq!(
        names,
        [
            "N:0301", "NE:0402", "SE:0403", "S:0303", "SW:0203", "NW:0202"
        ]
    );
}

#[test]
fn each_pair_of_neighbours_shares_one_hexside() {
    for grid in all_grids() {
        for index in grid.indices() {
            for side in sides(grid.orientation) {
                let Some(other) = grid.neighbour(index, side) else {
                    continue;
                };
                assert_eq!(grid.neighbour(other, opposite(side)), Some(index));
                assert_eq!(grid.side_between(index, other), Some(side));
                assert_eq!(grid.distance(index, other), 1);
                // Both names of the hexside canonicalise to the same one.
                assert_eq!(
                    grid.canonical_hexside(index, side),
                    grid.canonical_hexside(other, opposite(side)),
                    "{grid:?} {} {side}",
                    grid.name(index)
                );
                let text = grid.hexside_ref(index, side);
                let (h, s) = grid.parse_hexside(text.as_str()).unwrap();
                assert_eq!(
                    grid.canonical_hexside(h, s),
                    grid.canonical_hexside(index, side)
                );
                // The hexside's ends are two corners shared by both hexes.
                let ends = grid.side_corners(index, side).unwrap();
                let theirs = grid.side_corners(other, opposite(side)).unwrap();
                for end in ends {
                    assert!(
                        theirs
                            .iter()
                            .any(|t| (t[0] - end[0]).abs() < 1e-4 && (t[1] - end[1]).abs() < 1e-4),
                        "hexside ends agree"
                    );
                }
            }
        }
    }
}

#[test]
fn side_bearings_are_true_to_the_orientation() {
    use bataille_schema::geometry::side_bearing;
    for grid in all_grids() {
        let centre = HexIndex::new(20, 15);
        let [cx, cy] = grid.centre(centre);
        for side in sides(grid.orientation) {
            let [nx, ny] = grid.centre(grid.neighbour(centre, side).unwrap());
            let bearing = (nx - cx).atan2(-(ny - cy)).to_degrees().rem_euclid(360.0);
            assert!(
                (bearing - side_bearing(grid.orientation, side)).abs() < 0.01,
                "{side}"
            );
        }
    }
    assert_eq!(side_bearing(Orientation::Flat, Side::NE), 60.0);
    assert_eq!(side_bearing(Orientation::Flat, Side::E), 90.0);
}

#[test]
fn a_facing_points_at_the_vertex_clockwise_of_its_side() {
    use bataille_schema::geometry::facing_bearing;
    // Flat: NE faces the vertex between NE and SE, due east; E names that vertex itself.
    assert_eq!(facing_bearing(Orientation::Flat, Side::NE), 90.0);
    assert_eq!(facing_bearing(Orientation::Flat, Side::E), 90.0);
    assert_eq!(facing_bearing(Orientation::Flat, Side::NW), 330.0);
    // Pointy: E faces the vertex between E and SE.
    assert_eq!(facing_bearing(Orientation::Pointy, Side::E), 120.0);
    assert_eq!(facing_bearing(Orientation::Pointy, Side::N), 0.0);
}

#[test]
fn sides_of_the_other_orientation_are_refused() {
    let flat = grid(Orientation::Flat, Shifted::Odd, 1);
    assert!(flat.parse_hexside("0202/E").is_err());
    assert!(flat.parse_hexside("0202/N").is_ok());
    let pointy = grid(Orientation::Pointy, Shifted::Odd, 1);
    assert!(pointy.parse_hexside("0202/N").is_err());
    assert!(pointy.parse_hexside("0202/E").is_ok());
    assert!(flat.parse_hexside("0202").is_err());
    assert!(flat.parse_hexside("9999/N").is_err());
    assert_eq!(Side::parse("se"), Some(Side::SE));
}

#[test]
fn distance_and_ranges() {
    for grid in all_grids() {
        let centre = grid
            .parse(grid.name(HexIndex::new(20, 15)).as_str())
            .unwrap();
        let within: Vec<HexIndex> = grid.range(centre, 2).collect();
        assert_eq!(within.len(), 19, "a radius-2 range holds 19 hexes");
        assert!(within.iter().all(|h| grid.distance(centre, *h) <= 2));
        let corner: Vec<HexIndex> = grid.range(HexIndex::new(0, 0), 1).collect();
        assert!(corner.len() < 7, "ranges are clipped to the map");
        assert_eq!(grid.distance(HexIndex::new(0, 0), HexIndex::new(0, 10)), 10);
    }
}

#[test]
fn grid_space_round_trips_through_centres_and_points_near_them() {
    for grid in all_grids() {
        for index in grid.indices() {
            let [x, y] = grid.centre(index);
            assert_eq!(grid.hex_at([x, y]), Some(index));
            assert_eq!(grid.hex_at([x + 0.4, y - 0.3]), Some(index));
        }
        let (min, max) = grid.bounds();
        assert_eq!(grid.hex_at([min[0] - 5.0, min[1] - 5.0]), None);
        assert!(max[0] > min[0] && max[1] > min[1]);
    }
}

/// The editor's hexside tool and the trace take the side nearest a point: a point just inside
/// each side's midpoint gives that side, at the distance from the midpoint.
#[test]
fn the_nearest_side_is_the_one_whose_middle_is_closest() {
    for orientation in [Orientation::Flat, Orientation::Pointy] {
        let grid = grid(orientation, Shifted::Odd, 1);
        let hex = grid.parse("0303").unwrap();
        let [cx, cy] = grid.centre(hex);
        for side in sides(orientation) {
            let [a, b] = grid.side_corners(hex, side).unwrap();
            let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
            let point = [cx + 0.9 * (mid[0] - cx), cy + 0.9 * (mid[1] - cy)];
            let (found, d) = grid.nearest_side(hex, point).unwrap();
            assert_eq!(found, side, "{orientation:?}");
            assert!((d - 0.1 * 3f32.sqrt() / 2.0).abs() < 1e-4, "{d}");
        }
    }
}

/// A zone's or a command radius's outline: one segment per side facing out of the area, none
/// between two of its hexes; pulled in by `inset`.
#[test]
fn an_area_is_outlined_by_its_outward_sides() {
    let grid = grid(Orientation::Flat, Shifted::Odd, 1);
    let centre = grid.parse("0505").unwrap();
    // One hex: its six sides; the hex and its six neighbours: 18 sides out.
    assert_eq!(grid.range_outline(centre, 0, 1.0).len(), 6);
    assert_eq!(grid.range_outline(centre, 1, 1.0).len(), 18);
    // Every end of the full outline is a corner of a hex of the area, 1 from its centre; pulled
    // in to 0.94 of the way.
    let hexes: std::collections::HashSet<_> = grid.range(centre, 1).collect();
    let ring = grid.outline(&hexes, 1.0);
    let pulled = grid.outline(&hexes, 0.94);
    for ([a, _], [p, _]) in ring.iter().zip(&pulled) {
        let near = hexes.iter().any(|h| {
            let [x, y] = grid.centre(*h);
            let r = ((a[0] - x).powi(2) + (a[1] - y).powi(2)).sqrt();
            let rp = ((p[0] - x).powi(2) + (p[1] - y).powi(2)).sqrt();
            (r - 1.0).abs() < 1e-4 && (rp - 0.94).abs() < 1e-4
        });
        assert!(near, "{a:?} {p:?}");
    }
}
