//! A map's lines drawn through the hexes (roads, railways) as the file writes them: `paths`
//! of neighbouring hexes, two hexes in a row sharing the hexside the line crosses. The
//! digitiser finds crossings (`classify::suggest_features`); [`paths_from_crossings`] writes
//! them as paths, [`crossings_of_paths`] reads a map's paths back as crossings.

use std::collections::{BTreeMap, BTreeSet};

use bataille_schema::geometry::{opposite, sides};
use bataille_schema::{Grid, HexIndex, Side};

/// The hex of a path's token: a hex name, or a hexside at a path's end (`"1001/N"`: the
/// road leaves hex 1001 by its north side).
fn hex_of(grid: &Grid, token: &str) -> Option<HexIndex> {
    let hex = token.split_once('/').map_or(token, |(hex, _)| hex);
    grid.parse(hex).ok()
}

/// The hexsides (canonical) that paths of neighbouring hexes cross: each pair of hexes in a
/// row of a path (a hexside at a path's end stands for its hex). Tokens that are no hex of
/// the grid and hexes that are not neighbours are left out.
pub fn crossings_of_paths(grid: &Grid, paths: &[String]) -> BTreeSet<(HexIndex, Side)> {
    let mut out = BTreeSet::new();
    for path in paths {
        let mut previous: Option<HexIndex> = None;
        for token in path.split_whitespace() {
            let Some(index) = hex_of(grid, token) else {
                previous = None;
                continue;
            };
            if let Some(before) = previous
                && let Some(side) = grid.side_between(before, index)
            {
                out.insert(grid.canonical_hexside(before, side));
            }
            previous = Some(index);
        }
    }
    out
}

/// Paths of neighbouring hexes (`"0901 1002 1102"`, as a map file's `paths`) that cross
/// exactly the given hexsides, each once: the crossings' graph cut into as few paths as a walk
/// from each odd junction gives, each path going on straight through a hex where it can
/// (a road crossing another goes on across it). Hexsides with a hex off the grid are left out.
pub fn paths_from_crossings(grid: &Grid, crossings: &BTreeSet<(HexIndex, Side)>) -> Vec<String> {
    // Each hex's crossed sides, not yet walked.
    let mut open: BTreeMap<HexIndex, BTreeSet<Side>> = BTreeMap::new();
    for &(index, side) in crossings {
        if !grid.contains(index) {
            continue;
        }
        let Some(other) = grid.neighbour(index, side) else {
            continue;
        };
        open.entry(index).or_default().insert(side);
        open.entry(other).or_default().insert(opposite(side));
    }
    let order = sides(grid.orientation);
    let turn = |from: Side, to: Side| {
        let at = |s: Side| order.iter().position(|x| *x == s).unwrap_or(0) as i32;
        let d = (at(to) - at(from)).rem_euclid(6);
        d.min(6 - d)
    };
    let mut out = Vec::new();
    loop {
        // Start at a hex where an odd number of crossings is left (an end or a junction),
        // else anywhere (a loop).
        let start = open
            .iter()
            .find(|(_, s)| s.len() % 2 == 1)
            .or_else(|| open.iter().find(|(_, s)| !s.is_empty()))
            .map(|(i, _)| *i);
        let Some(start) = start else { break };
        let mut names = vec![grid.name(start).to_string()];
        let mut here = start;
        let mut came: Option<Side> = None;
        while let Some(left) = open.get(&here).filter(|s| !s.is_empty()) {
            // Straight on (the side opposite the one it came in by) where it can.
            let side = match came {
                Some(from) => *left
                    .iter()
                    .min_by_key(|s| std::cmp::Reverse(turn(from, **s)))
                    .unwrap_or(&from),
                None => *left.iter().next().unwrap_or(&Side::N),
            };
            let Some(next) = grid.neighbour(here, side) else {
                break;
            };
            if let Some(s) = open.get_mut(&here) {
                s.remove(&side);
            }
            if let Some(s) = open.get_mut(&next) {
                s.remove(&opposite(side));
            }
            names.push(grid.name(next).to_string());
            came = Some(opposite(side));
            here = next;
        }
        open.retain(|_, s| !s.is_empty());
        out.push(names.join(" "));
    }
    out
}

/// The hexes the paths pass through: where the overlay stands.
pub fn hexes_of_paths(grid: &Grid, paths: &[String]) -> BTreeSet<HexIndex> {
    paths
        .iter()
        .flat_map(|p| p.split_whitespace())
        .filter_map(|t| hex_of(grid, t))
        .collect()
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
