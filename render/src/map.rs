//! The map layers: terrain fills and patterns, hex outlines, hexside features, overlays, hex
//! names and place names.

use std::collections::BTreeSet;

use bataille_schema::geometry::sides;
use bataille_schema::map::{HexsideSymbol, HexsideType, OverlaySymbol, OverlayType, Pattern};
use bataille_schema::{Grid, HexIndex, Map, Side};
use tiny_skia::{LineCap, Transform};

use crate::drawing::{Drawing, fill, line, stroke, stroke_with};
use crate::symbols::{add, circle, lerp, normalise, polygon, polyline, scale, star, sub};
use crate::text::{Anchor, Face, TextStyle};
use crate::{Layout, RenderOptions, opaque, rgb_of, shade};

const GRID_LINE: [u8; 4] = [0x5b, 0x55, 0x48, 0xff];
const UNKNOWN: [u8; 3] = [0xff, 0x00, 0xff];

/// The terrain code of each hex, row by row (`None` past the end of a short row).
pub(crate) fn terrain_codes(map: &Map) -> Vec<Vec<Option<char>>> {
    (0..map.grid.rows as usize)
        .map(|row| {
            let text = map.rows.get(row).map(String::as_str).unwrap_or("");
            let mut chars = text.chars();
            (0..map.grid.columns).map(|_| chars.next()).collect()
        })
        .collect()
}

fn terrain_colour(map: &Map, code: Option<char>) -> ([u8; 3], Option<Pattern>) {
    let Some(code) = code else {
        return (UNKNOWN, None);
    };
    let mut key = [0u8; 4];
    match map.terrain.get(&*code.encode_utf8(&mut key)) {
        Some(terrain) => (rgb_of(&terrain.colour), terrain.pattern),
        None => (UNKNOWN, None),
    }
}

fn is_water(map: &Map, code: Option<char>) -> bool {
    code.is_some_and(|code| {
        let mut key = [0u8; 4];
        map.terrain
            .get(&*code.encode_utf8(&mut key))
            .is_some_and(|t| t.water)
    })
}

/// Image-space centre of a hex.
pub(crate) fn centre_px(grid: &Grid, layout: &Layout, index: HexIndex) -> [f32; 2] {
    layout.to_image(grid.centre(index))
}

fn corners_px(grid: &Grid, layout: &Layout, index: HexIndex) -> [[f32; 2]; 6] {
    grid.corners(index).map(|c| layout.to_image(c))
}

/// Terrain, patterns, outlines, hexsides, overlays and hex names.
pub(crate) fn draw_map(d: &mut Drawing, map: &Map, layout: &Layout, options: &RenderOptions) {
    let codes = terrain_codes(map);
    let code_at = |index: HexIndex| codes[index.row as usize][index.col as usize];
    for index in map.hexes() {
        draw_terrain_fill(d, map, layout, index, code_at(index));
    }
    if options.patterns {
        for index in map.hexes() {
            draw_terrain_pattern(d, map, layout, index, code_at(index));
        }
    }
    if options.grid_lines {
        for index in map.hexes() {
            draw_grid_line(d, map, layout, index);
        }
    }
    if options.hexsides {
        draw_hexsides(d, map, layout);
    }
    if options.overlays {
        draw_overlays(d, map, layout, &codes);
    }
    if options.hex_names {
        for index in map.hexes() {
            draw_hex_name(d, map, layout, index);
        }
    }
}

/// A hex's name (`0101`) at the top of the hex.
pub(crate) fn draw_hex_name(d: &mut Drawing, map: &Map, layout: &Layout, index: HexIndex) {
    let grid = &map.grid;
    let r = layout.radius_px;
    let style = TextStyle {
        face: Face::Regular,
        size_px: (0.27 * r).max(6.0),
        colour: [0x3a, 0x36, 0x2e, 0xe0],
        halo: None,
    };
    let dy = match grid.orientation {
        bataille_schema::map::Orientation::Flat => -0.64 * r,
        bataille_schema::map::Orientation::Pointy => -0.58 * r,
    };
    let c = centre_px(grid, layout, index);
    d.text(
        grid.name(index).as_str(),
        &style,
        [c[0], c[1] + dy],
        Anchor::CENTRE,
        Transform::identity(),
    );
}

/// One hex's terrain colour, grown by half a pixel so neighbours leave no anti-aliased seam.
pub(crate) fn draw_terrain_fill(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    code: Option<char>,
) {
    let grid = &map.grid;
    let r = layout.radius_px;
    let (colour, _) = terrain_colour(map, code);
    let c = centre_px(grid, layout, index);
    let grow = (r + 0.5) / r;
    let corners = corners_px(grid, layout, index).map(|p| add(c, scale(sub(p, c), grow)));
    fill(d, polygon(&corners), opaque(colour), Transform::identity());
}

/// One hex's terrain pattern (nothing for a terrain without one).
pub(crate) fn draw_terrain_pattern(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    code: Option<char>,
) {
    if let (colour, Some(pattern)) = terrain_colour(map, code) {
        draw_pattern(
            d,
            centre_px(&map.grid, layout, index),
            layout.radius_px,
            colour,
            pattern,
        );
    }
}

/// One hex's outline.
pub(crate) fn draw_grid_line(d: &mut Drawing, map: &Map, layout: &Layout, index: HexIndex) {
    let width = (0.035 * layout.radius_px).max(1.0);
    let corners = corners_px(&map.grid, layout, index);
    stroke(
        d,
        polygon(&corners),
        GRID_LINE,
        width,
        Transform::identity(),
    );
}

/// Place names, under the hex centre, with a halo of paper colour.
pub(crate) fn draw_labels(d: &mut Drawing, map: &Map, layout: &Layout, options: &RenderOptions) {
    if !options.labels {
        return;
    }
    for (hex, text) in &map.labels {
        if let Some(index) = map.grid.lookup(hex) {
            draw_label(d, map, layout, index, text, options.paper);
        }
    }
}

/// A place name half a radius under the hex's centre, with a halo of the paper's colour.
pub(crate) fn draw_label(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    text: &str,
    [pr, pg, pb]: [u8; 3],
) {
    let r = layout.radius_px;
    let style = TextStyle {
        face: Face::Bold,
        size_px: (0.34 * r).max(7.0),
        colour: [0x1d, 0x1b, 0x18, 0xff],
        halo: Some(([pr, pg, pb, 0xd0], (0.1 * r).max(2.0))),
    };
    let c = centre_px(&map.grid, layout, index);
    d.text(
        text,
        &style,
        [c[0], c[1] + 0.5 * r],
        Anchor::CENTRE,
        Transform::identity(),
    );
}

/// One hex of a terrain at the origin (circumradius `r`): its colour and pattern.
pub(crate) fn draw_terrain_hex(
    d: &mut Drawing,
    orientation: bataille_schema::map::Orientation,
    terrain: &bataille_schema::map::TerrainType,
    r: f32,
) {
    let first = match orientation {
        bataille_schema::map::Orientation::Flat => 0.0f32,
        bataille_schema::map::Orientation::Pointy => 30.0,
    };
    let corners: Vec<[f32; 2]> = (0..6)
        .map(|i| {
            let a = (first + 60.0 * i as f32).to_radians();
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    let colour = rgb_of(&terrain.colour);
    fill(d, polygon(&corners), opaque(colour), Transform::identity());
    if let Some(pattern) = terrain.pattern {
        draw_pattern(d, [0.0, 0.0], r, colour, pattern);
    }
}

fn draw_pattern(d: &mut Drawing, c: [f32; 2], r: f32, colour: [u8; 3], pattern: Pattern) {
    let dark = opaque(shade(colour, -0.35));
    let ring = |count: usize, radius: f32, phase_deg: f32| -> Vec<[f32; 2]> {
        (0..count)
            .map(|i| {
                let a = (phase_deg + 360.0 * i as f32 / count as f32).to_radians();
                [c[0] + radius * a.cos(), c[1] + radius * a.sin()]
            })
            .collect()
    };
    match pattern {
        Pattern::Trees => {
            for p in ring(4, 0.48 * r, 45.0) {
                // A round crown on a short trunk.
                line(d, p, [p[0], p[1] + 0.2 * r], dark, 0.06 * r);
                fill(
                    d,
                    circle([p[0], p[1] - 0.02 * r], 0.14 * r),
                    dark,
                    Transform::identity(),
                );
            }
        }
        Pattern::Buildings => {
            for p in ring(5, 0.48 * r, -90.0) {
                let s = 0.1 * r;
                let rect = [
                    [p[0] - s, p[1] - s],
                    [p[0] + s, p[1] - s],
                    [p[0] + s, p[1] + s],
                    [p[0] - s, p[1] + s],
                ];
                fill(d, polygon(&rect), dark, Transform::identity());
            }
        }
        Pattern::Hatch => {
            let colour = opaque(shade(colour, -0.25));
            let (inner, outer) = (0.25 * r, 0.72 * r);
            let spacing = 0.2 * r;
            let dir = normalise([1.0, -1.0]);
            let normal = [dir[1], -dir[0]];
            let mut k = -3.0f32;
            while k <= 3.0 {
                let dist = k * spacing;
                if dist.abs() < outer {
                    let half_outer = (outer * outer - dist * dist).sqrt();
                    let base = add(c, scale(normal, dist));
                    if dist.abs() < inner {
                        let half_inner = (inner * inner - dist * dist).sqrt();
                        for (a, b) in [(-half_outer, -half_inner), (half_inner, half_outer)] {
                            line(
                                d,
                                add(base, scale(dir, a)),
                                add(base, scale(dir, b)),
                                colour,
                                0.05 * r,
                            );
                        }
                    } else {
                        line(
                            d,
                            add(base, scale(dir, -half_outer)),
                            add(base, scale(dir, half_outer)),
                            colour,
                            0.05 * r,
                        );
                    }
                }
                k += 1.0;
            }
        }
        Pattern::Water => {
            let light = opaque(shade(colour, 0.35));
            for dy in [-0.45, 0.45] {
                let y = c[1] + dy * r;
                let points: Vec<[f32; 2]> = (0..=6)
                    .map(|i| {
                        let x = c[0] - 0.45 * r + 0.15 * r * i as f32;
                        let wave = if i % 2 == 0 { -0.05 } else { 0.05 };
                        [x, y + wave * r]
                    })
                    .collect();
                stroke(d, polyline(&points), light, 0.06 * r, Transform::identity());
            }
        }
        Pattern::Marsh => {
            for p in ring(5, 0.5 * r, -90.0) {
                line(
                    d,
                    [p[0] - 0.13 * r, p[1]],
                    [p[0] + 0.13 * r, p[1]],
                    dark,
                    0.04 * r,
                );
                for dx in [-0.07, 0.0, 0.07] {
                    line(
                        d,
                        [p[0] + dx * r, p[1]],
                        [p[0] + dx * 1.6 * r, p[1] - 0.12 * r],
                        dark,
                        0.035 * r,
                    );
                }
            }
        }
        Pattern::Dots => {
            let step = 0.2 * r;
            for i in -4i32..=4 {
                for j in -4i32..=4 {
                    let p = [
                        i as f32 * step + (j % 2) as f32 * step * 0.5,
                        j as f32 * step * 0.87,
                    ];
                    let dist = (p[0] * p[0] + p[1] * p[1]).sqrt();
                    if dist > 0.25 * r && dist < 0.7 * r {
                        fill(d, circle(add(c, p), 0.035 * r), dark, Transform::identity());
                    }
                }
            }
        }
    }
}

/// The order hexside features are drawn in: rivers first, bridges last.
pub(crate) fn hexside_priority(symbol: HexsideSymbol) -> u8 {
    match symbol {
        HexsideSymbol::River => 0,
        HexsideSymbol::Stream => 1,
        HexsideSymbol::Fortification => 2,
        HexsideSymbol::Road => 3,
        HexsideSymbol::Bridge => 4,
    }
}

fn draw_hexsides(d: &mut Drawing, map: &Map, layout: &Layout) {
    let grid = &map.grid;
    let mut features: Vec<_> = map
        .hexsides
        .iter()
        .filter_map(|(id, refs)| map.hexside_types.get(id).map(|t| (t, refs)))
        .collect();
    features.sort_by_key(|(t, _)| hexside_priority(t.symbol));
    for (feature, refs) in features {
        for hexside in refs {
            let Ok((index, side)) = grid.parse_hexside(hexside.as_str()) else {
                continue;
            };
            draw_hexside(d, grid, layout, index, side, feature);
        }
    }
}

/// One hexside feature on the side `side` of the hex `index` (the fortification's teeth point
/// towards the neighbour across it).
pub(crate) fn draw_hexside(
    d: &mut Drawing,
    grid: &Grid,
    layout: &Layout,
    index: HexIndex,
    side: Side,
    feature: &HexsideType,
) {
    let r = layout.radius_px;
    let colour = opaque(rgb_of(&feature.colour));
    let Some([a, b]) = grid.side_corners(index, side) else {
        return;
    };
    let (a, b) = (layout.to_image(a), layout.to_image(b));
    let c = centre_px(grid, layout, index);
    let mid = lerp(a, b, 0.5);
    // From this hex's centre towards the neighbour's across the side.
    let across = normalise(sub(mid, c));
    let along = normalise(sub(b, a));
    match feature.symbol {
        HexsideSymbol::River => line(d, a, b, colour, 0.2 * r),
        HexsideSymbol::Stream => line(d, a, b, colour, 0.11 * r),
        HexsideSymbol::Fortification => {
            stroke_with(
                d,
                polyline(&[a, b]),
                colour,
                0.08 * r,
                LineCap::Butt,
                Transform::identity(),
            );
            // Teeth towards the named side's neighbour.
            for t in [0.2f32, 0.4, 0.6, 0.8] {
                let p = lerp(a, b, t);
                let tip = add(p, scale(across, 0.16 * r));
                let w = scale(along, 0.07 * r);
                fill(
                    d,
                    polygon(&[sub(p, w), add(p, w), tip]),
                    colour,
                    Transform::identity(),
                );
            }
        }
        HexsideSymbol::Road => {
            let half = scale(across, 0.4 * r);
            line(d, sub(mid, half), add(mid, half), colour, 0.12 * r);
        }
        HexsideSymbol::Bridge => {
            // Two rails across the side with flared ends.
            let half = scale(across, 0.3 * r);
            let gap = scale(along, 0.1 * r);
            let flare = scale(along, 0.08 * r);
            for sign in [-1.0f32, 1.0] {
                let o = scale(gap, sign);
                let f = scale(flare, sign);
                let points = [
                    add(add(sub(mid, half), o), add(f, scale(across, -0.08 * r))),
                    add(sub(mid, half), o),
                    add(add(mid, half), o),
                    add(add(add(mid, half), o), add(f, scale(across, 0.08 * r))),
                ];
                stroke(
                    d,
                    polyline(&points),
                    colour,
                    0.06 * r,
                    Transform::identity(),
                );
            }
            // The deck, in paper colour between the rails.
            let deck = [
                add(sub(mid, half), scale(gap, -0.6)),
                add(add(mid, half), scale(gap, -0.6)),
                add(add(mid, half), scale(gap, 0.6)),
                add(sub(mid, half), scale(gap, 0.6)),
            ];
            fill(
                d,
                polygon(&deck),
                [0xe8, 0xdc, 0xc0, 0xff],
                Transform::identity(),
            );
        }
    }
}

fn draw_overlays(d: &mut Drawing, map: &Map, layout: &Layout, codes: &[Vec<Option<char>>]) {
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
    for casing in [true, false] {
        for index in &road_hexes {
            draw_roads(d, map, layout, *index, casing, &is_road);
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
/// from the centre to each linked road neighbour (`is_road` tells which hexes have a road).
pub(crate) fn draw_roads(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    casing: bool,
    is_road: &dyn Fn(HexIndex) -> bool,
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
        let stated = stated_links(map, index);
        if let Some(links) = &stated {
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

/// The links the map's `paths` state for a hex of a road overlay, or `None` when no path of
/// the hex's road overlays names it (its roads are then guessed from its road neighbours).
pub(crate) fn stated_links(map: &Map, index: HexIndex) -> Option<Vec<Link>> {
    if map.paths.is_empty() {
        return None;
    }
    let grid = &map.grid;
    let name = grid.name(index);
    let ids = map.overlays.get(&name)?;
    let mut links: Vec<Link> = Vec::new();
    let mut named = false;
    for id in ids {
        let Some(paths) = map.paths.get(id) else {
            continue;
        };
        for path in paths {
            let tokens: Vec<&str> = path.split_whitespace().collect();
            for (t, token) in tokens.iter().enumerate() {
                let (hex, side) = match token.split_once('/') {
                    Some((hex, side)) => (hex, bataille_schema::Side::parse(side)),
                    None => (*token, None),
                };
                if hex != name.as_str() {
                    continue;
                }
                named = true;
                if let Some(side) = side {
                    links.push(Link::Side(side));
                }
                for other in [t.checked_sub(1), Some(t + 1)].into_iter().flatten() {
                    let Some(next) = tokens.get(other) else {
                        continue;
                    };
                    let next_hex = next.split_once('/').map_or(*next, |(h, _)| h);
                    if next_hex == name.as_str() {
                        continue;
                    }
                    if let Some(n) = grid.lookup(&bataille_schema::HexName::from(next_hex))
                        && grid.side_between(index, n).is_some()
                    {
                        links.push(Link::Hex(n));
                    }
                }
            }
        }
    }
    links.dedup();
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
