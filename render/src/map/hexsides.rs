//! Hexside features (rivers, streams, fortification lines, roads and bridges across a side),
//! drawn in their priority order.

use bataille_schema::map::{HexsideSymbol, HexsideType};
use bataille_schema::{Grid, HexIndex, Map, Side};
use tiny_skia::{LineCap, Transform};

use crate::drawing::{Drawing, fill, line, stroke, stroke_with};
use crate::symbols::{add, lerp, normalise, polygon, polyline, scale, sub};
use crate::{Layout, opaque, rgb_of};

use super::centre_px;

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

pub(super) fn draw_hexsides(d: &mut Drawing, map: &Map, layout: &Layout) {
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
