//! Where VASSAL puts hexes: the parameters of its `HexGrid` and `HexGridNumbering` for a
//! map's board, and the board's layout that makes VASSAL's centres the image's.

use bataille_render::{Layout, RenderOptions};
use bataille_schema::map::Orientation;
use bataille_schema::{Grid, HexIndex, Map};

use super::VassalOptions;
use crate::ExportError;

/// The parameters of VASSAL's `HexGrid` and `HexGridNumbering` for a map's board.
#[derive(Debug, Clone, PartialEq)]
pub struct VassalGrid {
    pub x0: i32,
    pub y0: i32,
    pub dx: f64,
    pub dy: f64,
    pub sideways: bool,
    /// The raw VASSAL column of the map's first column (flat) or row (pointy): 0 or 1, so
    /// VASSAL's shifted raw columns (the odd ones) are the map's shifted ones.
    pub raw_shift: u32,
    /// `H` (column name first) or `V`.
    pub first: char,
    pub h_off: i64,
    pub v_off: i64,
    pub h_leading: u32,
    pub v_leading: u32,
    pub sep: String,
}

impl VassalGrid {
    /// The VASSAL raw column and row of a map hex.
    pub fn raw(&self, grid: &Grid, index: HexIndex) -> (i64, i64) {
        let _ = grid;
        if self.sideways {
            (
                i64::from(index.row) + i64::from(self.raw_shift),
                i64::from(index.col),
            )
        } else {
            (
                i64::from(index.col) + i64::from(self.raw_shift),
                i64::from(index.row),
            )
        }
    }

    /// Where VASSAL puts the centre of raw column `col`, raw row `row`
    /// (`HexGridNumbering.getCenterPoint` with no stagger and no descending numbering).
    pub fn centre(&self, col: i64, row: i64) -> (i64, i64) {
        let x = (col as f64 * self.dx) as i64 + i64::from(self.x0);
        let y = if col % 2 == 0 {
            (row as f64 * self.dy) as i64
        } else {
            (row as f64 * self.dy + self.dy / 2.0) as i64
        } + i64::from(self.y0);
        if self.sideways { (y, x) } else { (x, y) }
    }
}

/// The board's layout (where the map is drawn on the board image) and the grid VASSAL is told.
pub fn board_layout(
    map: &Map,
    options: &VassalOptions,
) -> Result<(Layout, VassalGrid), ExportError> {
    let px = (options.px_per_hex.clamp(8, 512) / 2 * 2) as f32;
    let render = RenderOptions {
        px_per_hex: px,
        ..RenderOptions::default()
    };
    let grid = &map.grid;
    let mut layout = Layout::new(grid, &render)?;
    let sideways = grid.orientation == Orientation::Pointy;
    let r = f64::from(px) / 3f64.sqrt();
    // Along VASSAL's columns (x unless sideways): 1.5 r between columns; across: px.
    let dx = 1.5 * r;
    let dy = f64::from(px);
    layout.radius_px = r as f32;
    // Is the map's first column (row) one of the shifted ones?
    let first_shifted = if sideways {
        grid.rows > 1 && grid.centre(HexIndex::new(0, 1))[0] < grid.centre(HexIndex::new(0, 0))[0]
    } else {
        grid.columns > 1
            && grid.centre(HexIndex::new(1, 0))[1] < grid.centre(HexIndex::new(0, 0))[1]
    };
    let k = u32::from(first_shifted);
    // The image position of the first hex, along VASSAL's x and y (swapped when sideways).
    let (ox, oy) = if sideways {
        (layout.offset_px[1], layout.offset_px[0])
    } else {
        (layout.offset_px[0], layout.offset_px[1])
    };
    let kf = f64::from(k);
    let x0 = (f64::from(ox) - kf * dx + 0.5).ceil();
    let y0 = (f64::from(oy) - kf * dy / 2.0).ceil();
    let new_ox = (x0 + kf * dx - 0.5) as f32;
    let new_oy = (y0 + kf * dy / 2.0) as f32;
    layout.offset_px = if sideways {
        [new_oy, new_ox]
    } else {
        [new_ox, new_oy]
    };
    layout.width += 2;
    layout.height += 2;
    let naming = &grid.hex_names;
    let (first_along, first_across) = if sideways {
        (grid.first_row, grid.first_column)
    } else {
        (grid.first_column, grid.first_row)
    };
    let (digits_along, digits_across) = if sideways {
        (naming.row_digits, naming.column_digits)
    } else {
        (naming.column_digits, naming.row_digits)
    };
    let vg = VassalGrid {
        x0: x0 as i32,
        y0: y0 as i32,
        dx,
        dy,
        sideways,
        raw_shift: k,
        first: if sideways { 'V' } else { 'H' },
        h_off: i64::from(first_along) - i64::from(k),
        v_off: i64::from(first_across),
        h_leading: u32::from(digits_along.saturating_sub(1)),
        v_leading: u32::from(digits_across.saturating_sub(1)),
        sep: naming.separator.clone(),
    };
    Ok((layout, vg))
}
