//! The hex overlays: roads as a network (stated paths or guessed from road neighbours),
//! towns, redoubts, bridges and the other overlay symbols.

use std::collections::{BTreeSet, HashMap};

use bataille_schema::geometry::sides;
use bataille_schema::map::{OverlaySymbol, OverlayType};
use bataille_schema::{Grid, HexIndex, Id, Map};
use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, line, stroke};
use crate::symbols::{add, lerp, polygon, polyline, scale, star, sub};
use crate::{Layout, opaque, rgb_of, shade};

use super::{centre_px, is_water};

pub(super) fn draw_overlays(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    codes: &[Vec<Option<char>>],
) {
    let grid = &map.grid;
    // Roads first, as a network: each road hex joins its road neighbours.
    let mut roads: BTreeSet<HexIndex> = BTreeSet::new();
    let mut road_hexes: Vec<HexIndex> = Vec::new();
    for hex in map.overlays.keys() {
        let Some(index) = grid.lookup(hex) else {
            continue;
        };
        if road_colours(map, index).next().is_some() {
            roads.insert(index);
            road_hexes.push(index);
        }
    }
    let is_road = |index: HexIndex| roads.contains(&index);
    let paths = RoadPaths::of(map);
    for casing in [true, false] {
        for index in &road_hexes {
            draw_roads(d, map, layout, *index, casing, &is_road, &paths);
        }
    }
    let code_at = |index: HexIndex| codes[index.row as usize][index.col as usize];
    for hex in map.overlays.keys() {
        if let Some(index) = grid.lookup(hex) {
            draw_hex_overlays(d, map, layout, index, &code_at);
        }
    }
}

/// The colours of the road overlays on a hex.
fn road_colours(map: &Map, index: HexIndex) -> impl Iterator<Item = [u8; 4]> + '_ {
    overlay_types(map, index)
        .filter(|t| t.symbol == OverlaySymbol::Road)
        .map(|t| opaque(t.colour.as_ref().map(rgb_of).unwrap_or([0x8b, 0x6f, 0x47])))
}

/// The overlay types on a hex, in the file's order (unknown ids skipped).
fn overlay_types(map: &Map, index: HexIndex) -> impl Iterator<Item = &OverlayType> + '_ {
    map.overlays
        .get(&map.grid.name(index))
        .into_iter()
        .flatten()
        .filter_map(|id| map.overlay_types.get(id))
}

/// The roads of one hex: its casing (`casing`, drawn under every road) or the road itself,
/// from the centre to each linked road neighbour (`is_road` tells which hexes have a road,
/// `paths` the map's stated paths, indexed once).
pub(crate) fn draw_roads(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    casing: bool,
    is_road: &dyn Fn(HexIndex) -> bool,
    paths: &RoadPaths,
) {
    let grid = &map.grid;
    let r = layout.radius_px;
    for colour in road_colours(map, index) {
        let c = centre_px(grid, layout, index);
        let (col, width) = if casing {
            (
                opaque(shade([colour[0], colour[1], colour[2]], -0.35)),
                0.2 * r,
            )
        } else {
            (colour, 0.12 * r)
        };
        let mut ends = Vec::new();
        let stated = paths.links.get(&index);
        if let Some(links) = stated {
            // The file states where the road runs: from hex to hex along its paths.
            for link in links {
                match link {
                    Link::Hex(n) => ends.push(lerp(c, centre_px(grid, layout, *n), 0.5)),
                    Link::Side(side) => {
                        if let Some([a, b]) = grid.side_corners(index, *side) {
                            ends.push(lerp(layout.to_image(a), layout.to_image(b), 0.5));
                        }
                    }
                }
            }
        } else {
            for (_, n) in grid.neighbours(index) {
                if road_linked(grid, is_road, index, n) {
                    ends.push(lerp(c, centre_px(grid, layout, n), 0.5));
                }
            }
        }
        if ends.is_empty() && stated.is_none() {
            // A lone road hex: towards the map's edge when it lies on it, else a stub.
            for side in sides(grid.orientation) {
                if grid.neighbour(index, side).is_none()
                    && let Some([a, b]) = grid.side_corners(index, side)
                {
                    ends.push(lerp(layout.to_image(a), layout.to_image(b), 0.5));
                }
            }
            if ends.is_empty() {
                ends.push([c[0] - 0.5 * r, c[1]]);
                ends.push([c[0] + 0.5 * r, c[1]]);
            }
        }
        for end in ends {
            line(d, c, end, col, width);
        }
    }
}

/// The overlays of one hex other than roads (redoubts, towns, bridges, fortifications,
/// markers); `code_at` gives the terrain codes around it (a bridge runs across the water).
pub(crate) fn draw_hex_overlays(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    code_at: &dyn Fn(HexIndex) -> Option<char>,
) {
    let grid = &map.grid;
    let r = layout.radius_px;
    let c = centre_px(grid, layout, index);
    for t in overlay_types(map, index) {
        let default = match t.symbol {
            OverlaySymbol::Redoubt => [0x7a, 0x3b, 0x1d],
            OverlaySymbol::Town => [0x8c, 0x3b, 0x2a],
            OverlaySymbol::Bridge => [0x5c, 0x40, 0x33],
            OverlaySymbol::Road => [0x8b, 0x6f, 0x47],
            OverlaySymbol::Fortification => [0x6b, 0x4a, 0x2b],
            OverlaySymbol::Marker => [0xc0, 0x20, 0x20],
        };
        let colour = opaque(t.colour.as_ref().map(rgb_of).unwrap_or(default));
        match t.symbol {
            OverlaySymbol::Road => {}
            OverlaySymbol::Redoubt => {
                // A star fort: four bastions.
                let path = star(c, 0.42 * r, 0.24 * r, 4);
                fill(
                    d,
                    path.clone(),
                    [0xff, 0xff, 0xff, 0x70],
                    Transform::identity(),
                );
                stroke(d, path, colour, 0.09 * r, Transform::identity());
            }
            OverlaySymbol::Town => {
                let s = 0.11 * r;
                for (dx, dy) in [(-0.2, -0.14), (0.12, -0.2), (-0.05, 0.12), (0.26, 0.1)] {
                    let p = [c[0] + dx * r, c[1] + dy * r];
                    let rect = [
                        [p[0] - s, p[1] - s * 0.8],
                        [p[0] + s, p[1] - s * 0.8],
                        [p[0] + s, p[1] + s * 0.8],
                        [p[0] - s, p[1] + s * 0.8],
                    ];
                    fill(d, polygon(&rect), colour, Transform::identity());
                }
            }
            OverlaySymbol::Bridge => {
                let axis = bridge_axis(map, index, code_at);
                draw_bridge(d, c, axis, r, colour);
            }
            OverlaySymbol::Fortification => {
                let mut points = Vec::new();
                for i in 0..=24 {
                    let a = (i as f32 * 15.0).to_radians();
                    let rr = if i % 2 == 0 { 0.5 * r } else { 0.4 * r };
                    points.push([c[0] + rr * a.cos(), c[1] + rr * a.sin()]);
                }
                stroke(
                    d,
                    polyline(&points),
                    colour,
                    0.06 * r,
                    Transform::identity(),
                );
            }
            OverlaySymbol::Marker => {
                let half = 0.2 * r;
                let diamond = [
                    [c[0], c[1] - half],
                    [c[0] + half, c[1]],
                    [c[0], c[1] + half],
                    [c[0] - half, c[1]],
                ];
                fill(d, polygon(&diamond), colour, Transform::identity());
            }
        }
    }
}

/// Where a stated road runs from a hex: to a neighbouring hex, or out through a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Link {
    Hex(HexIndex),
    Side(bataille_schema::Side),
}

/// The links the map's `paths` state, worked out once for every hex they name. Drawing a hex's
/// roads then looks its links up instead of reading every path of the map: a print kit draws
/// its road hexes once per page and the editor once per chunk, so reading the paths each time
/// was the paths' length times the road hexes drawn (hostile round 5: a path of 400,000 hexes
/// kept `print` past two minutes).
pub struct RoadPaths {
    /// Per hex a path of one of its overlays names (by its own name), the links stated there.
    links: HashMap<HexIndex, Vec<Link>>,
}

impl RoadPaths {
    /// Reads the map's paths once (every overlay's; a hex's links come from the paths of the
    /// overlays it has).
    pub fn of(map: &Map) -> RoadPaths {
        let grid = &map.grid;
        let mut paths: Vec<(&Id, Vec<&str>)> = Vec::new();
        // For each hex name a token holds (before any `/side`), its (path, token) places.
        let mut at: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (id, list) in &map.paths {
            for path in list {
                let tokens: Vec<&str> = path.split_whitespace().collect();
                for (t, token) in tokens.iter().enumerate() {
                    let hex = token.split_once('/').map_or(*token, |(hex, _)| hex);
                    at.entry(hex).or_default().push((paths.len(), t));
                }
                paths.push((id, tokens));
            }
        }
        let mut links = HashMap::new();
        for (name, places) in at {
            let Ok(index) = grid.parse(name) else {
                continue;
            };
            let canonical = grid.name(index);
            if canonical.as_str() != name {
                continue;
            }
            let Some(ids) = map.overlays.get(&canonical) else {
                continue;
            };
            if let Some(stated) = stated_links(grid, index, name, ids, &places, &paths) {
                links.insert(index, stated);
            }
        }
        RoadPaths { links }
    }
}

/// The links the paths of a hex's overlays (`ids`) state at the hex `name` (its `places` in
/// `paths`), or `None` when none of them names it (its roads are then guessed from its road
/// neighbours). A link is listed once however many paths state it (at most the hex's six
/// neighbours and six sides), in the order the paths first state it.
fn stated_links(
    grid: &Grid,
    index: HexIndex,
    name: &str,
    ids: &[Id],
    places: &[(usize, usize)],
    paths: &[(&Id, Vec<&str>)],
) -> Option<Vec<Link>> {
    let mut links: Vec<Link> = Vec::new();
    let mut push = |link: Link| {
        if !links.contains(&link) {
            links.push(link);
        }
    };
    let mut named = false;
    for id in ids {
        for &(p, t) in places {
            let (path_id, tokens) = &paths[p];
            if *path_id != id {
                continue;
            }
            named = true;
            if let Some(side) = tokens[t]
                .split_once('/')
                .and_then(|(_, side)| bataille_schema::Side::parse(side))
            {
                push(Link::Side(side));
            }
            for other in [t.checked_sub(1), Some(t + 1)].into_iter().flatten() {
                let Some(next) = tokens.get(other) else {
                    continue;
                };
                let next_hex = next.split_once('/').map_or(*next, |(h, _)| h);
                if next_hex == name {
                    continue;
                }
                if let Some(n) = grid.lookup(&bataille_schema::HexName::from(next_hex))
                    && grid.side_between(index, n).is_some()
                {
                    push(Link::Hex(n));
                }
            }
        }
    }
    named.then_some(links)
}

/// Whether the road of hex `a` runs to its neighbour `b` (both must have a road; `is_road` tells
/// which hexes have one). Where three road hexes touch each other, the road turns through the
/// one with the fewest road neighbours: the shortcut between the other two is dropped, so a
/// bend is drawn as a bend and not as a triangle. It reads only the hexes within two of `a`, so
/// a viewer that redraws part of the map redraws a road hex's neighbours with it.
pub(crate) fn road_linked(
    grid: &Grid,
    is_road: &dyn Fn(HexIndex) -> bool,
    a: HexIndex,
    b: HexIndex,
) -> bool {
    if a == b || !is_road(a) || !is_road(b) || !grid.neighbours(a).any(|(_, n)| n == b) {
        return false;
    }
    let degree = |h: HexIndex| grid.neighbours(h).filter(|(_, n)| is_road(*n)).count();
    // Dropped when a third road hex touches both and is the triangle's corner.
    !grid.neighbours(a).any(|(_, c)| {
        c != b
            && is_road(c)
            && grid.neighbours(b).any(|(_, n)| n == c)
            && [a, b, c]
                .into_iter()
                .min_by_key(|h| (degree(*h), *h))
                .is_some_and(|corner| corner == c)
    })
}

/// The direction a bridge in this hex runs: across the water (the water hexes around it give
/// the course), east-west when nothing tells.
fn bridge_axis(map: &Map, index: HexIndex, code_at: &dyn Fn(HexIndex) -> Option<char>) -> [f32; 2] {
    let grid = &map.grid;
    let c = grid.centre(index);
    // Average the course's axis with doubled angles, so opposite neighbours agree.
    let (mut sx, mut sy) = (0.0f32, 0.0f32);
    for (_, n) in grid.neighbours(index) {
        if is_water(map, code_at(n)) {
            let p = grid.centre(n);
            let angle = (p[1] - c[1]).atan2(p[0] - c[0]);
            sx += (2.0 * angle).cos();
            sy += (2.0 * angle).sin();
        }
    }
    if sx.abs() + sy.abs() < 1e-3 {
        return [1.0, 0.0];
    }
    let course = sy.atan2(sx) / 2.0;
    let across = course + std::f32::consts::FRAC_PI_2;
    [across.cos(), across.sin()]
}

fn draw_bridge(d: &mut Drawing, c: [f32; 2], axis: [f32; 2], r: f32, colour: [u8; 4]) {
    let half = scale(axis, 0.55 * r);
    let side = scale([-axis[1], axis[0]], 0.13 * r);
    let deck = [
        add(sub(c, half), side),
        add(add(c, half), side),
        sub(add(c, half), side),
        sub(sub(c, half), side),
    ];
    fill(
        d,
        polygon(&deck),
        [0xe8, 0xdc, 0xc0, 0xff],
        Transform::identity(),
    );
    for sign in [-1.0f32, 1.0] {
        let o = scale(side, sign);
        let flare = scale(side, sign * 0.8);
        let points = [
            add(add(sub(c, half), o), add(flare, scale(axis, -0.12 * r))),
            add(sub(c, half), o),
            add(add(c, half), o),
            add(add(add(c, half), o), add(flare, scale(axis, 0.12 * r))),
        ];
        stroke(
            d,
            polyline(&points),
            colour,
            0.08 * r,
            Transform::identity(),
        );
    }
}
