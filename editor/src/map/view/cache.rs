//! The view's cache: the chunks' meshes, the hexside index and the zoomed-out image, laid out
//! for the grid, marked dirty by what an edit touched and rebuilt for the chunks in view.

use std::collections::HashSet;

use super::*;

/// What the view keeps between frames to draw the map fast: the chunks' meshes (grid-space and
/// their screen copies for the last transform), the hexside index, the zoomed-out image. It is
/// held in a `RefCell` by the view, so that the terrain's map layer paints with the read-only
/// context (`&MapView`) while the cache fills in; pan, zoom and the layers shown change only
/// through `&mut MapView`.
#[derive(Default)]
pub(super) struct Cache {
    pub(super) chunks: Vec<Chunk>,
    pub(super) chunk_cols: u32,
    /// The grid the cache was built for.
    pub(super) grid_key: Option<Grid>,
    /// Hexside features by canonical (hex, side), keyed by chunk for range queries.
    pub(super) side_index: BTreeMap<(usize, HexIndex, Side), Vec<SideFeature>>,
    /// The terrain as one texture, for views zoomed out.
    pub(super) overview: overview::Overview,
}

impl Cache {
    /// Marks what a change touched for rebuilding (the grid unchanged).
    pub(super) fn invalidate(&mut self, doc: &Document, touched: &Touched) {
        let grid = &doc.map.grid;
        let mut dirty = HashSet::new();
        for &hex in &touched.hexes {
            // A hex's roads follow its road neighbours' (and their neighbours'), a bridge the
            // water around it: redraw the chunks within two hexes.
            let (c0, c1) = (
                hex.col.saturating_sub(2),
                (hex.col + 2).min(grid.columns - 1),
            );
            let (r0, r1) = (hex.row.saturating_sub(2), (hex.row + 2).min(grid.rows - 1));
            for (col, row) in [(c0, r0), (c1, r0), (c0, r1), (c1, r1)] {
                dirty.insert(self.chunk_of(HexIndex::new(col, row)));
            }
        }
        for side_ref in &touched.sides {
            let Ok((hex, side)) = grid.parse_hexside(side_ref.as_str()) else {
                continue;
            };
            let (canonical, canonical_side) = grid.canonical_hexside(hex, side);
            let chunk = self.chunk_of(canonical);
            let features: Vec<SideFeature> = doc
                .hexside_features(side_ref)
                .into_iter()
                .map(|id| SideFeature {
                    id: id.clone(),
                    hex,
                    side,
                })
                .collect();
            if features.is_empty() {
                self.side_index.remove(&(chunk, canonical, canonical_side));
            } else {
                self.side_index
                    .insert((chunk, canonical, canonical_side), features);
            }
            dirty.insert(chunk);
        }
        for chunk in dirty {
            if let Some(c) = self.chunks.get_mut(chunk) {
                c.meshes = None;
                c.screen = Default::default();
                self.overview.invalidate(c.bounds);
            }
        }
    }

    fn chunk_of(&self, hex: HexIndex) -> usize {
        (hex.row / CHUNK) as usize * self.chunk_cols as usize + (hex.col / CHUNK) as usize
    }

    /// Lays out the chunks and indexes the document when the grid or legend changed.
    pub(super) fn prepare(&mut self, doc: &Document) {
        if self.grid_key.as_ref() == Some(&doc.map.grid) {
            return;
        }
        let grid = &doc.map.grid;
        self.overview.clear();
        self.chunk_cols = grid.columns.div_ceil(CHUNK);
        let chunk_rows = grid.rows.div_ceil(CHUNK);
        self.chunks.clear();
        for cr in 0..chunk_rows {
            for cc in 0..self.chunk_cols {
                let cols = (cc * CHUNK, ((cc + 1) * CHUNK).min(grid.columns));
                let rows = (cr * CHUNK, ((cr + 1) * CHUNK).min(grid.rows));
                let mut bounds = Rect::NOTHING;
                for (col, row) in [
                    (cols.0, rows.0),
                    (cols.1 - 1, rows.0),
                    (cols.0, rows.1 - 1),
                    (cols.1 - 1, rows.1 - 1),
                    ((cols.0 + 1).min(cols.1 - 1), rows.1 - 1),
                    ((cols.0 + 1).min(cols.1 - 1), rows.0),
                    (cols.0, (rows.0 + 1).min(rows.1 - 1)),
                    (cols.1 - 1, (rows.0 + 1).min(rows.1 - 1)),
                ] {
                    for c in grid.corners(HexIndex::new(col, row)) {
                        bounds.extend_with(p(c));
                    }
                }
                self.chunks.push(Chunk {
                    cols,
                    rows,
                    bounds: bounds.expand(1.0),
                    meshes: None,
                    screen: Default::default(),
                });
            }
        }
        self.side_index.clear();
        for (feature, list) in &doc.map.hexsides {
            for side_ref in list {
                if let Ok((hex, side)) = grid.parse_hexside(side_ref.as_str()) {
                    let (canonical, canonical_side) = grid.canonical_hexside(hex, side);
                    let chunk = self.chunk_of(canonical);
                    self.side_index
                        .entry((chunk, canonical, canonical_side))
                        .or_default()
                        .push(SideFeature {
                            id: feature.clone(),
                            hex,
                            side,
                        });
                }
            }
        }
        self.grid_key = Some(grid.clone());
    }

    pub(super) fn rebuild_dirty(&mut self, doc: &Document, view: Option<Rect>) -> usize {
        self.prepare(doc);
        let mut count = 0;
        // The map's road paths, indexed once for every chunk rebuilt now (and only when one is).
        let mut paths = None;
        for i in 0..self.chunks.len() {
            let chunk = &self.chunks[i];
            if chunk.meshes.is_some() {
                continue;
            }
            if let Some(view) = view
                && !view.intersects(chunk.bounds)
            {
                continue;
            }
            let paths = paths
                .get_or_insert_with(|| bataille_render::symbology::part::RoadPaths::of(&doc.map));
            let meshes = build_chunk(doc, &self.side_index, paths, i, chunk);
            let chunk = &mut self.chunks[i];
            chunk.meshes = Some(meshes.map(Arc::new));
            chunk.screen = Default::default();
            count += 1;
        }
        count
    }
}
