//! The hexside tool's geometry: which hexsides a drag draws. A drag snaps to a continuous chain
//! of hexsides (a pointer that jumped leaves no gap: the shortest chain between the last side
//! and the new one is drawn), a corner cut short drops the side it touched on the way (three
//! sides meeting at one corner: the middle one was a stray), and hexsides on the map's edge are
//! refused (a feature there breaks E0606).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bataille_schema::geometry::sides;
use bataille_schema::{Grid, HexIndex, Side};

/// A hexside in canonical form (its hex and one of the first three sides, or an edge side).
pub type SideKey = (HexIndex, Side);

/// The canonical key of a hexside.
pub fn key(grid: &Grid, hex: HexIndex, side: Side) -> SideKey {
    grid.canonical_hexside(hex, side)
}

/// Whether a hexside is on the map's edge (no hex beyond it).
pub fn is_edge(grid: &Grid, side: SideKey) -> bool {
    grid.neighbour(side.0, side.1).is_none()
}

fn point_key(p: [f32; 2]) -> (i64, i64) {
    (
        (p[0] * 1000.0).round() as i64,
        (p[1] * 1000.0).round() as i64,
    )
}

/// The two ends of a hexside, as comparable keys.
fn ends(grid: &Grid, side: SideKey) -> Vec<(i64, i64)> {
    grid.side_corners(side.0, side.1)
        .map(|c| c.iter().map(|p| point_key(*p)).collect())
        .unwrap_or_default()
}

/// The interior hexsides that touch a corner of `side` (the chain's next steps).
fn touching(grid: &Grid, side: SideKey) -> Vec<SideKey> {
    let corners = ends(grid, side);
    let mut hexes = vec![side.0];
    hexes.extend(grid.neighbours(side.0).map(|(_, h)| h));
    let mut out = BTreeSet::new();
    for hex in hexes {
        for s in sides(grid.orientation) {
            let k = key(grid, hex, s);
            if k == side || is_edge(grid, k) {
                continue;
            }
            if ends(grid, k).iter().any(|e| corners.contains(e)) {
                out.insert(k);
            }
        }
    }
    out.into_iter().collect()
}

/// The corner two hexsides share, if they touch.
fn shared_corner(grid: &Grid, a: SideKey, b: SideKey) -> Option<(i64, i64)> {
    let eb = ends(grid, b);
    ends(grid, a).into_iter().find(|e| eb.contains(e))
}

/// The hexsides from `from` (excluded) to `to` (included) along the shortest continuous chain
/// of interior hexsides; just `to` when no chain of at most `max_steps` joins them.
pub fn chain(grid: &Grid, from: SideKey, to: SideKey, max_steps: usize) -> Vec<SideKey> {
    if from == to {
        return Vec::new();
    }
    let mut came_from: BTreeMap<SideKey, SideKey> = BTreeMap::new();
    let mut queue = VecDeque::from([(from, 0usize)]);
    let mut seen = BTreeSet::from([from]);
    while let Some((side, steps)) = queue.pop_front() {
        if side == to {
            let mut path = vec![to];
            let mut at = to;
            while let Some(&prev) = came_from.get(&at) {
                if prev == from {
                    break;
                }
                path.push(prev);
                at = prev;
            }
            path.reverse();
            return path;
        }
        if steps >= max_steps {
            continue;
        }
        for next in touching(grid, side) {
            if seen.insert(next) {
                came_from.insert(next, side);
                queue.push_back((next, steps + 1));
            }
        }
    }
    vec![to]
}

/// Whether `middle` is a stray between `before` and `after`: all three meet at one corner, so
/// the chain turned there and `middle` leads nowhere.
pub fn is_stray(grid: &Grid, before: SideKey, middle: SideKey, after: SideKey) -> bool {
    match (
        shared_corner(grid, before, middle),
        shared_corner(grid, middle, after),
        shared_corner(grid, before, after),
    ) {
        (Some(a), Some(b), Some(c)) => a == b && b == c,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns: 10,
            rows: 10,
            hex_names: HexNaming {
                column_digits: 2,
                row_digits: 2,
                separator: String::new(),
            },
        }
    }

    #[test]
    fn a_jump_is_filled_with_a_continuous_chain() {
        let g = grid();
        let a = key(&g, HexIndex::new(4, 2), Side::S);
        let b = key(&g, HexIndex::new(4, 5), Side::S);
        let path = chain(&g, a, b, 8);
        assert!(path.len() >= 3, "{path:?}");
        let mut prev = a;
        for side in &path {
            assert!(
                shared_corner(&g, prev, *side).is_some(),
                "{prev:?} → {side:?}"
            );
            prev = *side;
        }
        assert_eq!(path.last(), Some(&b));
    }

    #[test]
    fn edges_are_edges() {
        let g = grid();
        assert!(is_edge(&g, key(&g, HexIndex::new(0, 0), Side::N)));
        assert!(!is_edge(&g, key(&g, HexIndex::new(4, 4), Side::N)));
    }
}
