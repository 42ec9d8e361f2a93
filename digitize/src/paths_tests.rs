//! Crossings to paths and back ([`super::paths_from_crossings`], [`super::crossings_of_paths`]).

use std::collections::BTreeSet;

use bataille_schema::map::{HexNaming, Orientation, Shifted};
use proptest::prelude::*;

use super::*;
use crate::classify::interior_hexsides;

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Even,
        first_column: 1,
        first_row: 1,
        columns: 9,
        rows: 7,
        hex_names: HexNaming::default(),
    }
}

/// The hexes from `start` stepping by `steps`.
fn walk(grid: &Grid, start: HexIndex, steps: &[Side]) -> Vec<HexIndex> {
    let mut out = vec![start];
    for s in steps {
        out.push(grid.neighbour(*out.last().unwrap(), *s).unwrap());
    }
    out
}

fn crossed(grid: &Grid, hexes: &[HexIndex]) -> BTreeSet<(HexIndex, Side)> {
    hexes
        .windows(2)
        .map(|w| grid.canonical_hexside(w[0], grid.side_between(w[0], w[1]).unwrap()))
        .collect()
}

#[test]
fn a_road_is_one_path_of_its_hexes_in_order() {
    let grid = grid();
    let hexes = walk(
        &grid,
        HexIndex::new(1, 1),
        &[Side::SE, Side::SE, Side::S, Side::NE, Side::NE, Side::SE],
    );
    let paths = paths_from_crossings(&grid, &crossed(&grid, &hexes));
    assert_eq!(paths.len(), 1, "{paths:?}");
    let names: Vec<String> = hexes.iter().map(|i| grid.name(*i).to_string()).collect();
    let forward = names.join(" ");
    let backward = names.iter().rev().cloned().collect::<Vec<_>>().join(" ");
    assert!(paths[0] == forward || paths[0] == backward, "{paths:?}");
}

#[test]
fn two_roads_crossing_go_on_straight_through_the_crossing() {
    let grid = grid();
    let centre = HexIndex::new(4, 3);
    let north_south = walk(
        &grid,
        grid.neighbour(grid.neighbour(centre, Side::N).unwrap(), Side::N)
            .unwrap(),
        &[Side::S, Side::S, Side::S, Side::S],
    );
    let slant = walk(
        &grid,
        grid.neighbour(centre, Side::SW).unwrap(),
        &[Side::NE, Side::NE],
    );
    let all: BTreeSet<_> = crossed(&grid, &north_south)
        .union(&crossed(&grid, &slant))
        .copied()
        .collect();
    let paths = paths_from_crossings(&grid, &all);
    assert_eq!(paths.len(), 2, "{paths:?}");
    let centre_name = grid.name(centre).to_string();
    for path in &paths {
        let tokens: Vec<&str> = path.split_whitespace().collect();
        let at = tokens.iter().position(|t| *t == centre_name).unwrap();
        // Through the crossing, not turning at it.
        assert!(at > 0 && at + 1 < tokens.len(), "{path}");
        let before = grid.parse(tokens[at - 1]).unwrap();
        let after = grid.parse(tokens[at + 1]).unwrap();
        let into = grid.side_between(centre, before).unwrap();
        let out = grid.side_between(centre, after).unwrap();
        assert_eq!(out, opposite(into), "{path}");
    }
}

#[test]
fn a_path_leaving_the_map_crosses_from_its_hex_and_strange_tokens_cross_nothing() {
    let grid = grid();
    let paths = vec![
        "0101/N 0101 0102 zz 0103 0104".to_owned(),
        "0505 0507".to_owned(),
    ];
    let crossings = crossings_of_paths(&grid, &paths);
    // The hexside at the start stands for its hex (the road leaves the map there), and is
    // crossed itself.
    let expected: BTreeSet<_> = [
        grid.canonical_hexside(HexIndex::new(0, 0), Side::N),
        grid.canonical_hexside(HexIndex::new(0, 0), Side::S),
        grid.canonical_hexside(HexIndex::new(0, 2), Side::S),
    ]
    .into_iter()
    .collect();
    assert_eq!(crossings, expected);
    let hexes: Vec<String> = hexes_of_paths(&grid, &paths)
        .iter()
        .map(|i| grid.name(*i).to_string())
        .collect();
    assert_eq!(hexes, ["0101", "0102", "0103", "0104", "0505", "0507"]);
}

/// A road running in from the map's north edge, through three hexes, out by an absent cell
/// (not on the map): one path, its ends the hexsides it leaves the map by.
#[test]
fn a_road_leaving_the_map_ends_with_the_hexside_it_leaves_by() {
    let grid = grid();
    let top = HexIndex::new(4, 0);
    let hexes = walk(&grid, top, &[Side::S, Side::S, Side::S]);
    let absent = *hexes.last().unwrap();
    let mut crossings = crossed(&grid, &hexes);
    crossings.insert(grid.canonical_hexside(top, Side::N));
    let on_map = |i: HexIndex| i != absent;
    let paths = paths_from_crossings_on(&grid, &crossings, &on_map);
    let name = |i: HexIndex| grid.name(i).to_string();
    let forward = format!(
        "{}/N {} {}/S",
        name(hexes[0]),
        name(hexes[1]),
        name(hexes[2])
    );
    let backward = format!(
        "{}/S {} {}/N",
        name(hexes[2]),
        name(hexes[1]),
        name(hexes[0])
    );
    assert!(
        paths == [forward.clone()] || paths == [backward.clone()],
        "{paths:?}, expected {forward}"
    );
    // Read back, the same crossings.
    assert_eq!(crossings_of_paths(&grid, &paths), crossings);
    // Every hex of the grid on the map: the road leaves it only by the grid's edge.
    let whole = paths_from_crossings(&grid, &crossings);
    let name3 = name(hexes[3]);
    assert!(
        whole
            == [format!(
                "{}/N {} {} {name3}",
                name(hexes[0]),
                name(hexes[1]),
                name(hexes[2])
            )]
            || whole
                == [format!(
                    "{name3} {} {} {}/N",
                    name(hexes[2]),
                    name(hexes[1]),
                    name(hexes[0])
                )],
        "{whole:?}"
    );
}

/// A road through one hex from edge to edge of the map is that hex's two hexsides.
#[test]
fn a_road_through_one_hex_of_the_map_names_both_its_hexsides() {
    let grid = grid();
    let hex = HexIndex::new(4, 3);
    let crossings: BTreeSet<_> = [
        grid.canonical_hexside(hex, Side::N),
        grid.canonical_hexside(hex, Side::S),
    ]
    .into_iter()
    .collect();
    let on_map = |i: HexIndex| i == hex;
    let paths = paths_from_crossings_on(&grid, &crossings, &on_map);
    let name = grid.name(hex);
    assert!(
        paths == [format!("{name}/N {name}/S")] || paths == [format!("{name}/S {name}/N")],
        "{paths:?}"
    );
}

/// Removing a crossing cuts the path there; its ends and the other paths stay.
#[test]
fn a_crossing_removed_cuts_its_path_in_two() {
    let grid = grid();
    let hexes = walk(
        &grid,
        HexIndex::new(2, 0),
        &[Side::S, Side::S, Side::S, Side::S],
    );
    let name = |i: HexIndex| grid.name(i).to_string();
    let line: Vec<String> = hexes.iter().map(|i| name(*i)).collect();
    let paths = vec![
        format!("{}/N {}", line[0], line[1..].join(" ")),
        "0707 0708".to_owned(),
    ];
    let before = crossings_of_paths(&grid, &paths);
    // The middle crossing, named from the lower hex.
    let cut = (hexes[3], Side::N);
    let after = without_crossing(&grid, &paths, cut);
    assert_eq!(
        after,
        [
            format!("{}/N {} {}", line[0], line[1], line[2]),
            format!("{} {}", line[3], line[4]),
            "0707 0708".to_owned(),
        ]
    );
    let mut expected = before.clone();
    expected.remove(&grid.canonical_hexside(cut.0, cut.1));
    assert_eq!(crossings_of_paths(&grid, &after), expected);
    // The exit at the path's end: the hexside comes off, the hex stays.
    let exit = without_crossing(&grid, &after, (hexes[0], Side::N));
    assert_eq!(exit[0], format!("{} {} {}", line[0], line[1], line[2]));
    // A cut next to a path's end leaves one hex, which crosses nothing: dropped.
    let first = without_crossing(&grid, &exit, (hexes[0], Side::S));
    assert_eq!(first[0], format!("{} {}", line[1], line[2]));
    // A crossing no path makes changes nothing.
    assert_eq!(
        without_crossing(&grid, &paths, (HexIndex::new(8, 6), Side::N)),
        paths
    );
}

/// Thousands of separate short roads (a scan of them, each crossing one hexside; or exits
/// all round a map) are as many paths, each found in time that does not grow with how many
/// others there are (issue 19: each path's start was found by reading every hex left, and
/// the hexes were swept after each, so 40,000 separate crossings took ~10^10 steps). The
/// work runs on a thread given 120 s, as every process a test runs has a limit: a hang fails.
#[test]
fn thousands_of_separate_roads_are_as_many_paths_in_linear_time() {
    let grid = Grid {
        columns: 600,
        rows: 600,
        hex_names: HexNaming {
            column_digits: 3,
            row_digits: 3,
            ..HexNaming::default()
        },
        ..grid()
    };
    let mut crossings = BTreeSet::new();
    for col in (0..600).step_by(3) {
        for row in (0..599).step_by(3) {
            crossings.insert(grid.canonical_hexside(HexIndex::new(col, row), Side::S));
        }
    }
    // And every hex of the first row leaving the map by its north side.
    for col in (1..600).step_by(3) {
        crossings.insert(grid.canonical_hexside(HexIndex::new(col, 0), Side::N));
    }
    let count = crossings.len();
    let (sender, receiver) = std::sync::mpsc::channel();
    let given = crossings.clone();
    let on = grid.clone();
    std::thread::spawn(move || {
        let _ = sender.send(paths_from_crossings(&on, &given));
    });
    let paths = receiver
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("paths written within 120 s");
    assert_eq!(paths.len(), count);
    // The exits first (where the line comes in from off the map), then the others in order.
    assert_eq!(paths[0], "002001/N");
    assert_eq!(paths[200], "001001 001002");
    assert_eq!(crossings_of_paths(&grid, &paths), crossings);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any set of crossed hexsides is written as paths of neighbours that cross exactly those
    /// hexsides, each once.
    #[test]
    fn paths_cross_exactly_the_crossings_each_once(picks in proptest::collection::vec(any::<bool>(), 0..140)) {
        let grid = grid();
        let all = interior_hexsides(&grid);
        let set: BTreeSet<(HexIndex, Side)> = all
            .iter()
            .zip(picks.iter().chain(std::iter::repeat(&false)))
            .filter(|(_, p)| **p)
            .map(|(h, _)| *h)
            .collect();
        let paths = paths_from_crossings(&grid, &set);
        let mut count = 0;
        for path in &paths {
            let hexes: Vec<HexIndex> = path.split_whitespace().map(|t| grid.parse(t).unwrap()).collect();
            prop_assert!(hexes.len() >= 2, "{}", path);
            for w in hexes.windows(2) {
                prop_assert!(grid.side_between(w[0], w[1]).is_some(), "{}", path);
                count += 1;
            }
        }
        prop_assert_eq!(count, set.len());
        prop_assert_eq!(crossings_of_paths(&grid, &paths), set);
    }
}
