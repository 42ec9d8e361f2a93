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
use crate::refine::PrintedSides;

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

/// The share of the grid's outward sides (those on its edge) that must show a line for the
/// print to count as *outlining* its edge hexes (as a renderer does, and many printed maps).
const OUTLINED_EDGE: f64 = 0.5;

/// The shape from the printed lines: per hex, its sides showing the line and those probed on
/// the scan ([`PrintedSides`]), and where the refined grid puts each centre.
///
/// A hex is unprinted when off the scan or when fewer than four of its sides show the line
/// (a short column's end cell that sticks out of the print: three of its sides are the
/// neighbours'), or, when the scan's edge cuts it, fewer than two thirds of the sides probed
/// on the scan. When the print outlines its edge (most of the grid's outward sides show a
/// line), an edge hex none of whose outward sides shows one is unprinted too: a short column's
/// end cell set *into* the print (a notch: five of its sides are its neighbours', only the
/// outward one is its own) is told apart this way, and so is the print's edge in a scan with
/// paper round it. Where the print ends by its colours (the colour beyond the print against
/// the print's own, [`PrintedSides::edge_inside`] and `edge_outside`), they decide whatever
/// lines are drawn there: a hex beyond that edge on two sides or more (and on more sides than
/// inside it) is unprinted — a notch filled with the colour beyond, where a track band's rules
/// fall on its outward sides —; one inside it on two sides or more and beyond it on none is
/// printed — a hex cut by the scan's edge whose other sides a river hides.
pub fn from_printed_sides(
    grid: &Grid,
    printed_sides: &[PrintedSides],
    centre_px: &dyn Fn(HexIndex) -> [f64; 2],
    width: u32,
    height: u32,
) -> Shape {
    let (w, h) = (f64::from(width), f64::from(height));
    let columns = grid.columns as usize;
    let slot = |i: HexIndex| i.row as usize * columns + i.col as usize;
    let sides_of = |i: HexIndex| {
        printed_sides
            .get(slot(i))
            .copied()
            .unwrap_or(PrintedSides::ALL)
    };
    let on_scan = |p: [f64; 2]| p[0] >= 0.0 && p[1] >= 0.0 && p[0] < w && p[1] < h;
    let (edge_found, edge_probed) = printed_sides.iter().fold((0usize, 0usize), |a, p| {
        (
            a.0 + usize::from(p.outward_found),
            a.1 + usize::from(p.outward_probed),
        )
    });
    let outlined = edge_probed >= 6 && edge_found as f64 >= OUTLINED_EDGE * edge_probed as f64;
    let unprinted: Vec<bool> = grid
        .indices()
        .map(|index| {
            if !on_scan(centre_px(index)) {
                return true;
            }
            let p = sides_of(index);
            // Four of six, or two thirds of the sides probed when the scan's edge cuts the
            // hex (its sides beyond the scan tell nothing: the print may go on there).
            let few = p.probed >= 4 && 3 * p.found < 2 * p.probed || p.probed < 4 && p.found == 0;
            let open_edge = outlined && p.outward_probed > 0 && p.outward_found == 0;
            // The print's edge told by its colours, whatever lines are drawn there: beyond it
            // on two sides or more (more than inside it), or inside it on two sides or more
            // and beyond it on none.
            let beyond = p.edge_outside >= 2 && p.edge_outside > p.edge_inside;
            let inside = p.edge_inside >= 2 && p.edge_outside == 0;
            beyond || (few || open_edge) && !inside
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
            } else if on_edge(grid, index)
                // A half hex still has printed sides (the frame cuts it), and its centre on
                // the scan.
                && sides_of(index).found > 0
                && on_scan(centre_px(index))
            {
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
        let sides_of = |found: u8| PrintedSides {
            found,
            probed: 6,
            outward_found: 0,
            outward_probed: 0,
            ..PrintedSides::default()
        };
        let mut sides = vec![sides_of(6); grid.hex_count()];
        let at = |c: u32, r: u32| (r * 6 + c) as usize;
        // The short columns' last row: three sides printed (towards the map).
        for c in [1, 3, 5] {
            sides[at(c, 4)] = sides_of(3);
        }
        // A hex inside whose lines a river hides: still on the print.
        sides[at(2, 2)] = sides_of(1);
        // Edge hexes the scan's edge cuts (two sides beyond it, not probed): three of the four
        // probed sides printed is on the print, two is not.
        let cut = |found: u8| PrintedSides {
            found,
            probed: 4,
            outward_found: 0,
            outward_probed: 0,
            ..PrintedSides::default()
        };
        sides[at(0, 1)] = cut(3);
        sides[at(0, 3)] = cut(2);
        let shape = from_printed_sides(&grid, &sides, &centre, 1000, 1000);
        let half: Vec<String> = shape
            .hexes(&grid, Place::Half)
            .iter()
            .map(|i| grid.name(*i).to_string())
            .collect();
        assert_eq!(half, ["0104", "0205", "0405", "0605"]);
        assert_eq!(shape.place(&grid, HexIndex::new(2, 2)), Place::On);
        assert!(shape.hexes(&grid, Place::Off).is_empty());
        // A scan too small for the grid: the hexes off it are off the print.
        let shape = from_printed_sides(&grid, &[PrintedSides::ALL; 30], &centre, 200, 1000);
        assert!(shape.place(&grid, HexIndex::new(5, 0)) == Place::Off);
        assert!(shape.place(&grid, HexIndex::new(0, 0)) == Place::On);
        let bounds = from_scan_bounds(&grid, &m, 200, 1000);
        assert_eq!(bounds.place(&grid, HexIndex::new(5, 0)), Place::Off);
        assert_eq!(bounds.place(&grid, HexIndex::new(0, 0)), Place::On);
    }
}
