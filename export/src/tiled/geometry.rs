//! Where Tiled puts things: the affine map from the grid's space to Tiled's pixels, its tile
//! sizes and stagger, and its own cell centres (libtiled's `HexagonalRenderer`).

use bataille_render::tiny_skia::Transform;
use bataille_schema::map::Orientation;
use bataille_schema::{HexIndex, Map};

use super::{SIDE, TILE_LONG, TILE_SHORT};

/// The affine map from the grid's space (`Grid::centre`) to Tiled's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TiledGeometry {
    pub scale: [f64; 2],
    pub offset: [f64; 2],
    pub tile_width: u32,
    pub tile_height: u32,
    pub stagger_x: bool,
    pub stagger_even: bool,
    /// The map's size in pixels as Tiled computes it.
    pub width_px: u32,
    pub height_px: u32,
}

impl TiledGeometry {
    pub fn of(map: &Map) -> TiledGeometry {
        let grid = &map.grid;
        let k = f64::from(TILE_SHORT) / 3f64.sqrt();
        let half = f64::from(SIDE);
        match grid.orientation {
            Orientation::Flat => {
                let even = grid.columns > 1
                    && grid.centre(HexIndex::new(1, 0))[1] < grid.centre(HexIndex::new(0, 0))[1];
                let column_width = (TILE_LONG - SIDE) / 2 + SIDE;
                TiledGeometry {
                    scale: [half, k],
                    offset: [
                        f64::from(TILE_LONG) / 2.0,
                        f64::from(TILE_SHORT) / 2.0
                            + if even { f64::from(TILE_SHORT / 2) } else { 0.0 },
                    ],
                    tile_width: TILE_LONG,
                    tile_height: TILE_SHORT,
                    stagger_x: true,
                    stagger_even: even,
                    width_px: grid.columns * column_width + (TILE_LONG - SIDE) / 2,
                    height_px: grid.rows * TILE_SHORT
                        + if grid.columns > 1 { TILE_SHORT / 2 } else { 0 },
                }
            }
            Orientation::Pointy => {
                let even = grid.rows > 1
                    && grid.centre(HexIndex::new(0, 1))[0] < grid.centre(HexIndex::new(0, 0))[0];
                let row_height = (TILE_LONG - SIDE) / 2 + SIDE;
                TiledGeometry {
                    scale: [k, half],
                    offset: [
                        f64::from(TILE_SHORT) / 2.0
                            + if even { f64::from(TILE_SHORT / 2) } else { 0.0 },
                        f64::from(TILE_LONG) / 2.0,
                    ],
                    tile_width: TILE_SHORT,
                    tile_height: TILE_LONG,
                    stagger_x: false,
                    stagger_even: even,
                    width_px: grid.columns * TILE_SHORT
                        + if grid.rows > 1 { TILE_SHORT / 2 } else { 0 },
                    height_px: grid.rows * row_height + (TILE_LONG - SIDE) / 2,
                }
            }
        }
    }

    /// A point of the grid's space in Tiled's pixels.
    pub fn to_tiled(&self, p: [f32; 2]) -> [f64; 2] {
        [
            f64::from(p[0]) * self.scale[0] + self.offset[0],
            f64::from(p[1]) * self.scale[1] + self.offset[1],
        ]
    }

    /// The transform drawing grid space into Tiled's pixels.
    pub fn transform(&self) -> Transform {
        Transform::from_row(
            self.scale[0] as f32,
            0.0,
            0.0,
            self.scale[1] as f32,
            self.offset[0] as f32,
            self.offset[1] as f32,
        )
    }

    /// Tiled's own centre of a cell (`HexagonalRenderer::tileToScreenCoords` plus half a tile).
    pub fn tiled_centre(&self, col: u32, row: u32) -> [f64; 2] {
        let (w, h) = (self.tile_width, self.tile_height);
        if self.stagger_x {
            let staggered = (col % 2 == 1) != self.stagger_even;
            let x = col * ((w - SIDE) / 2 + SIDE);
            let y = row * h + if staggered { h / 2 } else { 0 };
            [f64::from(x + w / 2), f64::from(y + h / 2)]
        } else {
            let staggered = (row % 2 == 1) != self.stagger_even;
            let y = row * ((h - SIDE) / 2 + SIDE);
            let x = col * w + if staggered { w / 2 } else { 0 };
            [f64::from(x + w / 2), f64::from(y + h / 2)]
        }
    }
}
