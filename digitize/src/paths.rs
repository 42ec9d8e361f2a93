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
/// row of a path (a hexside at a path's end stands for its hex), and the hexside at a path's
/// end itself (where the line leaves the map, as [`paths_from_crossings_on`] writes it). Tokens
/// that are no hex of the grid and hexes that are not neighbours are left out.
pub fn crossings_of_paths(grid: &Grid, paths: &[String]) -> BTreeSet<(HexIndex, Side)> {
    let mut out = BTreeSet::new();
    for path in paths {
        let tokens: Vec<&str> = path.split_whitespace().collect();
        let mut previous: Option<HexIndex> = None;
        for (t, token) in tokens.iter().enumerate() {
            let Some(index) = hex_of(grid, token) else {
                previous = None;
                continue;
            };
            if (t == 0 || t + 1 == tokens.len())
                && let Ok((hex, side)) = grid.parse_hexside(token)
            {
                out.insert(grid.canonical_hexside(hex, side));
            }
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
/// (a road crossing another goes on across it). A hexside on the grid's edge is where the line
/// leaves the map, written at a path's end (see [`paths_from_crossings_on`]).
pub fn paths_from_crossings(grid: &Grid, crossings: &BTreeSet<(HexIndex, Side)>) -> Vec<String> {
    paths_from_crossings_on(grid, crossings, &|_| true)
}

/// [`paths_from_crossings`] on a map whose hexes are those `on_map` says are (and the grid
/// holds): a hexside crossed between a hex of the map and one that is not (off the grid, an
/// absent cell, a hex beyond the print's edge) is where the line leaves the map, written at a
/// path's end as that hexside (`"1001/N 1002 1102"`: the road enters hex 1001 by its north
/// side, as the file format has it). A hexside with neither hex on the map is left out.
/// `on_map` is asked only of hexes the grid holds.
pub fn paths_from_crossings_on(
    grid: &Grid,
    crossings: &BTreeSet<(HexIndex, Side)>,
    on_map: &dyn Fn(HexIndex) -> bool,
) -> Vec<String> {
    let on_map = |i: HexIndex| grid.contains(i) && on_map(i);
    // Each hex's crossed sides, not yet walked; and the sides by which the line leaves the
    // map.
    let mut open: BTreeMap<HexIndex, BTreeSet<Side>> = BTreeMap::new();
    let mut exits: BTreeSet<(HexIndex, Side)> = BTreeSet::new();
    for &(index, side) in crossings {
        let other = grid.neighbour(index, side).filter(|n| on_map(*n));
        match (on_map(index), other) {
            (true, Some(other)) => {
                open.entry(index).or_default().insert(side);
                open.entry(other).or_default().insert(opposite(side));
            }
            (true, None) => {
                open.entry(index).or_default().insert(side);
                exits.insert((index, side));
            }
            (false, Some(other)) => {
                open.entry(other).or_default().insert(opposite(side));
                exits.insert((other, opposite(side)));
            }
            (false, None) => {}
        }
    }
    let order = sides(grid.orientation);
    let turn = |from: Side, to: Side| {
        let at = |s: Side| order.iter().position(|x| *x == s).unwrap_or(0) as i32;
        let d = (at(to) - at(from)).rem_euclid(6);
        d.min(6 - d)
    };
    let hexside = |index: HexIndex, side: Side| format!("{}/{}", grid.name(index), side.as_str());
    let mut open = Open::new(open, &exits);
    let mut out = Vec::new();
    // Start at a hex where an odd number of crossings is left (an end or a junction), else
    // anywhere (a loop); where the line comes in from off the map, by that side.
    while let Some(start) = open.start() {
        let entry = open
            .sides(start)
            .iter()
            .find(|side| exits.contains(&(start, **side)))
            .copied();
        let mut names = vec![grid.name(start).to_string()];
        let mut came: Option<Side> = None;
        if let Some(side) = entry {
            open.take(start, side);
            names[0] = hexside(start, side);
            came = Some(side);
        }
        let mut here = start;
        while let Some(left) = Some(open.sides(here)).filter(|s| !s.is_empty()) {
            // Straight on (the side opposite the one it came in by) where it can.
            let side = match came {
                Some(from) => *left
                    .iter()
                    .min_by_key(|s| std::cmp::Reverse(turn(from, **s)))
                    .unwrap_or(&from),
                None => *left.iter().next().unwrap_or(&Side::N),
            };
            open.take(here, side);
            if exits.contains(&(here, side)) {
                // Off the map: the path ends by that side (a path that came in by another
                // side of this one hex names it twice).
                let last = hexside(here, side);
                match names.last_mut() {
                    Some(l) if !l.contains('/') => *l = last,
                    _ => names.push(last),
                }
                break;
            }
            let Some(next) = grid.neighbour(here, side) else {
                break;
            };
            open.take(next, opposite(side));
            names.push(grid.name(next).to_string());
            came = Some(opposite(side));
            here = next;
        }
        out.push(names.join(" "));
    }
    out
}

/// The crossed sides not yet walked, each hex's, with the hexes a path may start at kept
/// sorted as they change (issue 19: the start was found by reading every hex left, and the
/// hexes left were swept after each path, so a scan of thousands of separate short roads
/// took time in the square of their number).
struct Open<'a> {
    sides: BTreeMap<HexIndex, BTreeSet<Side>>,
    exits: &'a BTreeSet<(HexIndex, Side)>,
    /// Hexes with an odd number of sides left, one of them where the line leaves the map.
    odd_exit: BTreeSet<HexIndex>,
    /// Hexes with an odd number of sides left.
    odd: BTreeSet<HexIndex>,
    /// Hexes with any side left.
    left: BTreeSet<HexIndex>,
}

impl<'a> Open<'a> {
    fn new(
        sides: BTreeMap<HexIndex, BTreeSet<Side>>,
        exits: &'a BTreeSet<(HexIndex, Side)>,
    ) -> Self {
        let hexes: Vec<HexIndex> = sides.keys().copied().collect();
        let mut open = Open {
            sides,
            exits,
            odd_exit: BTreeSet::new(),
            odd: BTreeSet::new(),
            left: BTreeSet::new(),
        };
        for hex in hexes {
            open.sort(hex);
        }
        open
    }

    /// The first hex (in order) with an odd number of sides left and one of them leaving the
    /// map, else the first with an odd number, else the first with any.
    fn start(&self) -> Option<HexIndex> {
        let first = |set: &BTreeSet<HexIndex>| set.first().copied();
        first(&self.odd_exit)
            .or_else(|| first(&self.odd))
            .or_else(|| first(&self.left))
    }

    /// The sides of `hex` left.
    fn sides(&self, hex: HexIndex) -> &BTreeSet<Side> {
        static NONE: BTreeSet<Side> = BTreeSet::new();
        self.sides.get(&hex).unwrap_or(&NONE)
    }

    /// `side` of `hex` walked.
    fn take(&mut self, hex: HexIndex, side: Side) {
        if let Some(sides) = self.sides.get_mut(&hex) {
            sides.remove(&side);
        }
        self.sort(hex);
    }

    fn sort(&mut self, hex: HexIndex) {
        let sides = self.sides.get(&hex);
        let count = sides.map_or(0, BTreeSet::len);
        let exit = sides.is_some_and(|s| s.iter().any(|side| self.exits.contains(&(hex, *side))));
        for (set, is) in [
            (&mut self.left, count > 0),
            (&mut self.odd, count % 2 == 1),
            (&mut self.odd_exit, count % 2 == 1 && exit),
        ] {
            if is {
                set.insert(hex);
            } else {
                set.remove(&hex);
            }
        }
    }
}

/// The paths without the crossing of `hexside` (any name of it): each path crossing it is cut
/// there into the two paths either side, a hexside at a path's end that is this one is taken
/// off (the hex stays), and what is left of a path that crosses nothing (one hex) is dropped.
/// Paths not crossing it are kept as they are, in their order.
pub fn without_crossing(grid: &Grid, paths: &[String], hexside: (HexIndex, Side)) -> Vec<String> {
    let target = grid.canonical_hexside(hexside.0, hexside.1);
    let mut out = Vec::new();
    for path in paths {
        let tokens: Vec<&str> = path.split_whitespace().collect();
        let ends_here = |t: usize| {
            (t == 0 || t + 1 == tokens.len())
                && grid
                    .parse_hexside(tokens[t])
                    .is_ok_and(|(i, s)| grid.canonical_hexside(i, s) == target)
        };
        let crosses_here = |t: usize| {
            let (Some(a), Some(b)) = (hex_of(grid, tokens[t]), hex_of(grid, tokens[t + 1])) else {
                return false;
            };
            grid.side_between(a, b)
                .is_some_and(|side| grid.canonical_hexside(a, side) == target)
        };
        let touched = (0..tokens.len()).any(ends_here)
            || (0..tokens.len().saturating_sub(1)).any(crosses_here);
        if !touched {
            out.push(path.clone());
            continue;
        }
        let mut piece: Vec<String> = Vec::new();
        let mut pieces: Vec<Vec<String>> = Vec::new();
        for (t, token) in tokens.iter().enumerate() {
            let token = if ends_here(t) {
                token.split_once('/').map_or(*token, |(hex, _)| hex)
            } else {
                token
            };
            piece.push(token.to_owned());
            if t + 1 < tokens.len() && crosses_here(t) {
                pieces.push(std::mem::take(&mut piece));
            }
        }
        pieces.push(piece);
        for piece in pieces {
            // A piece crosses something when it has two hexes or leaves the map.
            if piece.len() >= 2 || piece.iter().any(|t| t.contains('/')) {
                out.push(piece.join(" "));
            }
        }
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
