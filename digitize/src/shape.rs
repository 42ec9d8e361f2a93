//! The map's shape: which hexes of the grid are on the print. A grid is a rectangle of hexes;
//! a printed map is often not (a flat grid's short columns end half a hex early, a frame cuts
//! the edge hexes, a scan shows the scanner's bed or the table beside the sheet). Hexes that are
//! not on the print must not be given terrain: they are offered to the user as half hexes (on
//! the grid's edge, the file's `half_hexes`) or as off the print (the grid may be too large).
//!
//! With printed grid lines ([`crate::refine::Refinement::printed_sides`]) a hex is on the print
//! when most of its sides show the line; the hexes that do not, and that connect to the
//! grid's edge through such hexes (the print is one piece: a hex inside it whose lines a river
//! or a town hides is still on it), are not. Without lines only the scan's edges tell: a hex
//! whose centre is off the scan is off the print.

use std::collections::BTreeSet;

use bataille_schema::map::Shifted;
use bataille_schema::{Grid, HexIndex, HexName};

use crate::calibrate::{Matrix, apply};

/// Where a hex lies relative to the print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On the print: suggest its terrain.
    On,
    /// On the grid's edge and not (wholly) printed: a half hex, to confirm.
    Half,
    /// Not on the print (off the scan, or a region of unprinted hexes): to confirm.
    Off,
}

/// The shape found: a place per hex, row-major as `Grid::indices`.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub places: Vec<Place>,
}

impl Shape {
    pub fn place(&self, grid: &Grid, index: HexIndex) -> Place {
        self.places
            .get(index.row as usize * grid.columns as usize + index.col as usize)
            .copied()
            .unwrap_or(Place::On)
    }

    /// The hexes in a place, in grid order.
    pub fn hexes(&self, grid: &Grid, place: Place) -> Vec<HexIndex> {
        grid.indices()
            .filter(|i| self.place(grid, *i) == place)
            .collect()
    }

    /// Whether every hex is on the print.
    pub fn whole(&self) -> bool {
        self.places.iter().all(|p| *p == Place::On)
    }

    /// How a map file writes this shape: `short_lines` when the hexes not on the print (half
    /// or off) are exactly the last cells of the lines of one parity (a flat grid's short
    /// columns); else the half hexes as `half_hexes` (the hexes off the print are not written:
    /// the grid may be larger than the map, which is the user's to resize).
    pub fn for_file(&self, grid: &Grid) -> FileShape {
        let missing: BTreeSet<HexIndex> = grid
            .indices()
            .filter(|i| self.place(grid, *i) != Place::On)
            .collect();
        if missing.is_empty() {
            return FileShape::default();
        }
        let short_lines = [Shifted::Odd, Shifted::Even].into_iter().find(|parity| {
            let ends: BTreeSet<HexIndex> = grid
                .indices()
                .filter(|i| grid.is_short_line_end(*i, *parity))
                .collect();
            ends == missing
        });
        FileShape {
            short_lines,
            half_hexes: if short_lines.is_some() {
                Vec::new()
            } else {
                self.hexes(grid, Place::Half)
                    .into_iter()
                    .map(|i| grid.name(i))
                    .collect()
            },
        }
    }
}

/// A map's shape as its file writes it (`Map::short_lines`, `Map::half_hexes`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileShape {
    pub short_lines: Option<Shifted>,
    pub half_hexes: Vec<HexName>,
}

fn on_edge(grid: &Grid, index: HexIndex) -> bool {
    index.col == 0 || index.row == 0 || index.col + 1 == grid.columns || index.row + 1 == grid.rows
}

/// The shape from the scan's size alone: a hex whose centre is off the scan is off the print
/// (a half hex when on the grid's edge with its centre within half a hex of the scan).
pub fn from_scan_bounds(grid: &Grid, m: &Matrix, width: u32, height: u32) -> Shape {
    let (w, h) = (f64::from(width), f64::from(height));
    let places = grid
        .indices()
        .map(|index| {
            let [x, y] = grid.centre(index);
            let p = apply(m, [f64::from(x), f64::from(y)]);
            let inside = p[0] >= 0.0 && p[1] >= 0.0 && p[0] < w && p[1] < h;
            if inside { Place::On } else { Place::Off }
        })
        .collect();
    Shape { places }
}

/// The shape from the printed lines: `printed_sides` per hex (sides showing the line, sides
/// probed on the scan) and where the refined grid puts each centre.
pub fn from_printed_sides(
    grid: &Grid,
    printed_sides: &[(u8, u8)],
    centre_px: &dyn Fn(HexIndex) -> [f64; 2],
    width: u32,
    height: u32,
) -> Shape {
    let (w, h) = (f64::from(width), f64::from(height));
    let columns = grid.columns as usize;
    let slot = |i: HexIndex| i.row as usize * columns + i.col as usize;
    // Unprinted: off the scan, or fewer than four of its sides show the line.
    let unprinted: Vec<bool> = grid
        .indices()
        .map(|index| {
            let p = centre_px(index);
            if !(p[0] >= 0.0 && p[1] >= 0.0 && p[0] < w && p[1] < h) {
                return true;
            }
            let (found, probed) = printed_sides.get(slot(index)).copied().unwrap_or((6, 6));
            probed >= 4 && found < 4 || probed < 4 && found == 0
        })
        .collect();
    // Only unprinted hexes connected to the grid's edge through unprinted hexes leave the
    // print.
    let mut off = vec![false; grid.hex_count()];
    let mut stack: Vec<HexIndex> = grid
        .indices()
        .filter(|i| on_edge(grid, *i) && unprinted[slot(*i)])
        .collect();
    while let Some(index) = stack.pop() {
        if off[slot(index)] {
            continue;
        }
        off[slot(index)] = true;
        for (_, next) in grid.neighbours(index) {
            if unprinted[slot(next)] && !off[slot(next)] {
                stack.push(next);
            }
        }
    }
    let places = grid
        .indices()
        .map(|index| {
            if !off[slot(index)] {
                Place::On
            } else if on_edge(grid, index) && {
                // A half hex still has printed sides (the frame cuts it), and its centre on
                // the scan.
                let p = centre_px(index);
                let (found, _) = printed_sides.get(slot(index)).copied().unwrap_or((0, 0));
                found > 0 && p[0] >= 0.0 && p[1] >= 0.0 && p[0] < w && p[1] < h
            } {
                Place::Half
            } else {
                Place::Off
            }
        })
        .collect();
    Shape { places }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            first_column: 1,
            first_row: 1,
            columns: 6,
            rows: 5,
            hex_names: HexNaming::default(),
        }
    }

    #[test]
    fn unprinted_hexes_reaching_the_edge_leave_the_print_and_hidden_ones_inside_stay() {
        let grid = grid();
        let m = [30.0, 0.0, 50.0, 0.0, 30.0, 50.0, 0.0, 0.0, 1.0];
        let centre = |i: HexIndex| {
            let [x, y] = grid.centre(i);
            apply(&m, [f64::from(x), f64::from(y)])
        };
        let mut sides = vec![(6u8, 6u8); grid.hex_count()];
        let at = |c: u32, r: u32| (r * 6 + c) as usize;
        // The short columns' last row: three sides printed (towards the map).
        for c in [1, 3, 5] {
            sides[at(c, 4)] = (3, 6);
        }
        // A hex inside whose lines a river hides: still on the print.
        sides[at(2, 2)] = (1, 6);
        let shape = from_printed_sides(&grid, &sides, &centre, 1000, 1000);
        let half: Vec<String> = shape
            .hexes(&grid, Place::Half)
            .iter()
            .map(|i| grid.name(*i).to_string())
            .collect();
        assert_eq!(half, ["0205", "0405", "0605"]);
        assert_eq!(shape.place(&grid, HexIndex::new(2, 2)), Place::On);
        assert!(shape.hexes(&grid, Place::Off).is_empty());
        // A scan too small for the grid: the hexes off it are off the print.
        let shape = from_printed_sides(&grid, &[(6, 6); 30], &centre, 200, 1000);
        assert!(shape.place(&grid, HexIndex::new(5, 0)) == Place::Off);
        assert!(shape.place(&grid, HexIndex::new(0, 0)) == Place::On);
        let bounds = from_scan_bounds(&grid, &m, 200, 1000);
        assert_eq!(bounds.place(&grid, HexIndex::new(5, 0)), Place::Off);
        assert_eq!(bounds.place(&grid, HexIndex::new(0, 0)), Place::On);
    }
}
