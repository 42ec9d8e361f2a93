//! Chunk meshes in grid space, drawn by the symbology every output shares
//! (`bataille_render::symbology::part`: terrain, pattern, grid line, hexside features, road
//! casings, roads, overlays, hex by hex) and turned into triangles by [`crate::map::tessellate`].

use bataille_render::symbology::{Drawing, part};
use bataille_render::{Layout, RenderOptions};

use super::*;
use crate::map::tessellate::{Place, append};

/// The symbology's drawing units per grid unit: the hex circumradius of `bataille render` at its
/// default scale (48 px between hex centres), so minimum line widths land where they do there.
pub fn symbology_radius() -> f32 {
    RenderOptions::default().px_per_hex / 3f32.sqrt()
}

/// The layout the symbology draws the editor's chunks on: grid space scaled by
/// [`symbology_radius`], the first hex's centre at the origin.
pub fn symbology_layout() -> Layout {
    Layout {
        radius_px: symbology_radius(),
        offset_px: [0.0, 0.0],
        width: 1,
        height: 1,
    }
}

/// The place that brings the symbology's drawings back to grid space.
pub fn to_grid() -> Place {
    Place {
        scale: 1.0 / symbology_radius(),
        offset: Vec2::ZERO,
    }
}

/// Which hexes have a road overlay (a road joins its road neighbours).
pub struct Roads<'a> {
    doc: &'a Document,
    types: HashSet<&'a Id>,
}

impl<'a> Roads<'a> {
    pub fn new(doc: &'a Document) -> Roads<'a> {
        let types = doc
            .map
            .overlay_types
            .iter()
            .filter(|(_, t)| t.symbol == OverlaySymbol::Road)
            .map(|(id, _)| id)
            .collect();
        Roads { doc, types }
    }

    /// Whether the hex has a road.
    pub fn at(&self, hex: HexIndex) -> bool {
        self.doc
            .overlays_at(hex)
            .iter()
            .any(|id| self.types.contains(id))
    }
}

/// The drawings of one chunk's hexes, layer by layer (indexed like the view's meshes).
pub fn chunk_drawings(
    doc: &Document,
    side_index: &BTreeMap<(usize, HexIndex, Side), Vec<SideFeature>>,
    paths: &part::RoadPaths,
    index: usize,
    cols: (u32, u32),
    rows: (u32, u32),
) -> [Drawing; MESHES] {
    let map = &doc.map;
    let layout = symbology_layout();
    let mut d: [Drawing; MESHES] = Default::default();
    let roads = Roads::new(doc);
    let is_road = |hex: HexIndex| roads.at(hex);
    let code_at = |hex: HexIndex| doc.code(hex);
    for row in rows.0..rows.1 {
        let text = map.rows.get(row as usize);
        let mut codes = text.map(|t| t.chars().skip(cols.0 as usize));
        for col in cols.0..cols.1 {
            let hex = HexIndex::new(col, row);
            let code = codes.as_mut().and_then(Iterator::next);
            // A cell the map says is not a hex (`short_lines`: columns of unequal length) is
            // not drawn, as `bataille render` leaves it out.
            if map.is_absent(hex) {
                continue;
            }
            part::terrain(&mut d[FILL], map, &layout, hex, code);
            part::pattern(&mut d[PATTERN], map, &layout, hex, code);
            part::grid_line(&mut d[OUTLINE], map, &layout, hex);
            if !doc.overlays_at(hex).is_empty() {
                part::roads(
                    &mut d[ROAD_CASING],
                    map,
                    &layout,
                    hex,
                    true,
                    &is_road,
                    paths,
                );
                part::roads(&mut d[ROADS], map, &layout, hex, false, &is_road, paths);
                part::overlays(&mut d[OVERLAYS], map, &layout, hex, &code_at);
            }
        }
    }
    // The chunk's hexside features in the symbology's order (rivers under roads and bridges).
    let first = (index, HexIndex::new(0, 0), Side::N);
    let mut sides: Vec<(u8, &SideFeature)> = Vec::new();
    for ((chunk_id, _, _), features) in side_index.range(first..) {
        if *chunk_id != index {
            break;
        }
        for feature in features {
            if let Some(t) = map.hexside_types.get(&feature.id) {
                sides.push((part::hexside_order(t.symbol), feature));
            }
        }
    }
    sides.sort_by_key(|(order, _)| *order);
    for (_, feature) in sides {
        if let Some(t) = map.hexside_types.get(&feature.id) {
            part::hexside(&mut d[HEXSIDES], map, &layout, feature.hex, feature.side, t);
        }
    }
    d
}

pub(super) fn build_chunk(
    doc: &Document,
    side_index: &BTreeMap<(usize, HexIndex, Side), Vec<SideFeature>>,
    paths: &part::RoadPaths,
    index: usize,
    chunk: &Chunk,
) -> [Mesh; MESHES] {
    let drawings = chunk_drawings(doc, side_index, paths, index, chunk.cols, chunk.rows);
    let place = to_grid();
    drawings.map(|drawing| {
        let mut mesh = Mesh::default();
        append(&mut mesh, &drawing, place);
        mesh
    })
}
