//! The map layers: terrain fills and patterns, hex outlines, hexside features, overlays, hex
//! names and place names.
//!
//! The hexside features are drawn in [`hexsides`], the overlays and roads in [`overlays`], the
//! terrain patterns in [`patterns`].

mod hexsides;
mod overlays;
mod patterns;

use bataille_schema::map::Pattern;
use bataille_schema::{Grid, HexIndex, Map};
use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, stroke};
use crate::symbols::{add, polygon, scale, sub};
use crate::text::{Anchor, Face, TextStyle};
use crate::{Layout, RenderOptions, opaque, rgb_of};

const GRID_LINE: [u8; 4] = [0x5b, 0x55, 0x48, 0xff];
const UNKNOWN: [u8; 3] = [0xff, 0x00, 0xff];

use hexsides::draw_hexsides;
pub(crate) use hexsides::{draw_hexside, hexside_priority};
pub use overlays::RoadPaths;
use overlays::draw_overlays;
pub(crate) use overlays::{draw_hex_overlays, draw_roads, road_linked};
use patterns::draw_pattern;

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
    // Under the grid, the terrain's edges are covered by the lines: sharp fills cost a quarter.
    for index in map.hexes() {
        draw_terrain_fill(d, map, layout, index, code_at(index), options.grid_lines);
    }
    if options.patterns {
        for index in map.hexes() {
            draw_terrain_pattern(d, map, layout, index, code_at(index));
        }
    }
    if options.grid_lines {
        draw_grid_lines(d, map, layout);
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

/// One hex's terrain colour, grown by half a pixel so neighbours leave no anti-aliased seam;
/// `crisp`: with sharp edges, for a hex whose edges the grid lines cover.
pub(crate) fn draw_terrain_fill(
    d: &mut Drawing,
    map: &Map,
    layout: &Layout,
    index: HexIndex,
    code: Option<char>,
    crisp: bool,
) {
    let grid = &map.grid;
    let r = layout.radius_px;
    let (colour, _) = terrain_colour(map, code);
    let c = centre_px(grid, layout, index);
    let grow = (r + 0.5) / r;
    let corners = corners_px(grid, layout, index).map(|p| add(c, scale(sub(p, c), grow)));
    let path = polygon(&corners);
    if crisp {
        d.fill_crisp(path, opaque(colour), Transform::identity());
    } else {
        fill(d, path, opaque(colour), Transform::identity());
    }
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

/// The width of the hex outlines.
fn grid_line_width(layout: &Layout) -> f32 {
    (0.035 * layout.radius_px).max(1.0)
}

/// Every hex's outline, each edge between two hexes drawn once: a path per row of hexes holding
/// the edges no hex before it drew, chained where they meet. The lines look as an outline per
/// hex ([`draw_grid_line`], which the editor draws per hex) at half the painting: an outline
/// per hex strokes every inner edge twice, which darkens its anti-aliased sides as much as a
/// line a quarter wider, so the edge drawn once is a quarter wider. A row's path reaches only
/// that row's pixels, so a board drawn in bands paints each row's lines in its own bands.
fn draw_grid_lines(d: &mut Drawing, map: &Map, layout: &Layout) {
    let width = 1.25 * grid_line_width(layout);
    // Corners as 1/64 px (neighbours compute a shared corner to within rounding).
    let key = |p: [f32; 2]| ((p[0] * 64.0).round() as i64, (p[1] * 64.0).round() as i64);
    let mut drawn = std::collections::HashSet::new();
    let mut row_path: Option<(u32, tiny_skia::PathBuilder)> = None;
    let mut end: Option<(i64, i64)> = None;
    let finish = |d: &mut Drawing, path: tiny_skia::PathBuilder| {
        stroke(d, path.finish(), GRID_LINE, width, Transform::identity());
    };
    for index in map.hexes() {
        if row_path.as_ref().is_none_or(|(row, _)| *row != index.row) {
            if let Some((_, path)) = row_path.take() {
                finish(d, path);
            }
            row_path = Some((index.row, tiny_skia::PathBuilder::new()));
            end = None;
        }
        let Some((_, path)) = row_path.as_mut() else {
            continue;
        };
        let corners = corners_px(&map.grid, layout, index);
        for k in 0..6 {
            let (a, b) = (corners[k], corners[(k + 1) % 6]);
            let (ka, kb) = (key(a), key(b));
            if !drawn.insert(if ka <= kb { (ka, kb) } else { (kb, ka) }) {
                continue;
            }
            if end != Some(ka) {
                path.move_to(a[0], a[1]);
            }
            path.line_to(b[0], b[1]);
            end = Some(kb);
        }
    }
    if let Some((_, path)) = row_path {
        finish(d, path);
    }
}

/// One hex's outline.
pub(crate) fn draw_grid_line(d: &mut Drawing, map: &Map, layout: &Layout, index: HexIndex) {
    let width = grid_line_width(layout);
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
