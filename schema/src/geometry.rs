//! Hex geometry for a map's grid, through hexx: hex names ↔ coordinates for the map's naming
//! and offset, neighbours, the six hexsides and which neighbour each faces, distance, ranges,
//! and grid coordinates ↔ hex for drawing.
//!
//! Grid space: the hex circumradius is 1, the first hex (first column, first row) is centred
//! at the origin, x grows east and y grows south (screen convention).

use std::sync::OnceLock;

use hexx::{EdgeDirection, Hex, HexLayout, HexOrientation, OffsetHexMode, Vec2};

use crate::common::{HexName, HexsideRef, Side};
use crate::map::{Grid, Map, Orientation, Shifted};

/// A hex of the map by zero-based column and row index (not the printed numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexIndex {
    pub col: u32,
    pub row: u32,
}

impl HexIndex {
    pub const fn new(col: u32, row: u32) -> Self {
        Self { col, row }
    }
}

/// Why a hex or hexside name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("`{0}` is not a hex name of this map (expected {1})")]
    BadHexName(String, String),
    #[error("hex {0} is off the map")]
    OffMap(String),
    #[error("`{0}` is not a hexside (expected a hex name, `/`, and a side such as `2213/SE`)")]
    BadHexside(String),
    #[error("`{side}` is not a side of a {orientation} hex (sides: {sides})")]
    BadSide {
        side: String,
        orientation: &'static str,
        sides: String,
    },
}

/// `name` as a [`NameError`] quotes it: a hex name is seven characters at most, and a file
/// read by no JSON Schema (digitize's calibration and samples) may hold a megabyte one, which
/// every message quoting it printed whole (hostile round 5).
fn quoted(name: &str) -> String {
    crate::limits::clipped(name, crate::limits::QUOTED_CHARS)
}

fn hexx_orientation(orientation: Orientation) -> HexOrientation {
    match orientation {
        Orientation::Flat => HexOrientation::Flat,
        Orientation::Pointy => HexOrientation::Pointy,
    }
}

fn layout(orientation: Orientation) -> HexLayout {
    // hexx's offset coordinates grow rows along +y, which with its default layout is the
    // screen's downward y: no axis flip is needed for rows to run top to bottom.
    match orientation {
        Orientation::Flat => HexLayout::flat(),
        Orientation::Pointy => HexLayout::pointy(),
    }
}

/// The six sides of a hex of this orientation, clockwise from north.
pub fn sides(orientation: Orientation) -> [Side; 6] {
    match orientation {
        Orientation::Flat => [Side::N, Side::NE, Side::SE, Side::S, Side::SW, Side::NW],
        Orientation::Pointy => [Side::NE, Side::E, Side::SE, Side::SW, Side::W, Side::NW],
    }
}

/// The true bearing of a side of a hex of this orientation, in degrees clockwise from north
/// (flat: N 0, NE 60, SE 120…; pointy: NE 30, E 90…). A name that is a vertex of this
/// orientation (E of a flat hex) gets the bearing of that vertex (90).
pub fn side_bearing(orientation: Orientation, side: Side) -> f32 {
    let six = sides(orientation);
    let first = match orientation {
        Orientation::Flat => 0.0,
        Orientation::Pointy => 30.0,
    };
    match six.iter().position(|s| *s == side) {
        Some(i) => first + 60.0 * i as f32,
        None => side.bearing_degrees(),
    }
}

/// The bearing a unit's facing points to, in degrees clockwise from north, by the files'
/// convention (scenarios/SOURCES.md, docs/diagnostics.md): a side of the orientation faces the
/// vertex between it and the next side clockwise (two front hexsides, rule 2); a name that is a
/// vertex of this orientation (E or W of a flat hex) faces that vertex.
pub fn facing_bearing(orientation: Orientation, side: Side) -> f32 {
    let bearing = side_bearing(orientation, side);
    if sides(orientation).contains(&side) {
        (bearing + 30.0) % 360.0
    } else {
        bearing
    }
}

/// The side opposite.
pub fn opposite(side: Side) -> Side {
    match side {
        Side::N => Side::S,
        Side::NE => Side::SW,
        Side::E => Side::W,
        Side::SE => Side::NW,
        Side::S => Side::N,
        Side::SW => Side::NE,
        Side::W => Side::E,
        Side::NW => Side::SE,
    }
}

/// For each orientation, the hexx edge direction that faces each compass side (computed once
/// from hexx's own geometry, so it cannot drift from the drawing).
fn direction_table(orientation: Orientation) -> &'static [(Side, EdgeDirection); 6] {
    static FLAT: OnceLock<[(Side, EdgeDirection); 6]> = OnceLock::new();
    static POINTY: OnceLock<[(Side, EdgeDirection); 6]> = OnceLock::new();
    let cell = match orientation {
        Orientation::Flat => &FLAT,
        Orientation::Pointy => &POINTY,
    };
    cell.get_or_init(|| {
        let layout = layout(orientation);
        let centre = layout.hex_to_world_pos(Hex::ZERO);
        let sides = sides(orientation);
        let mut table = [(Side::N, EdgeDirection::ALL_DIRECTIONS[0]); 6];
        for (slot, side) in table.iter_mut().zip(sides) {
            let best = EdgeDirection::ALL_DIRECTIONS
                .into_iter()
                .min_by(|a, b| {
                    let da = bearing_error(&layout, centre, *a, side);
                    let db = bearing_error(&layout, centre, *b, side);
                    da.total_cmp(&db)
                })
                .unwrap_or(EdgeDirection::ALL_DIRECTIONS[0]);
            *slot = (side, best);
        }
        table
    })
}

fn bearing_error(layout: &HexLayout, centre: Vec2, direction: EdgeDirection, side: Side) -> f32 {
    let delta = layout.hex_to_world_pos(Hex::ZERO.neighbor(direction)) - centre;
    // Bearing clockwise from north with y pointing down.
    let bearing = delta.x.atan2(-delta.y).to_degrees().rem_euclid(360.0);
    let diff = (bearing - side_bearing(layout_orientation(layout), side)).rem_euclid(360.0);
    diff.min(360.0 - diff)
}

impl Grid {
    /// Whether a cell is the last of a line (column of a flat grid, row of a pointy one) of
    /// the printed parity `parity`: the cell a map's `short_lines: Some(parity)` leaves out.
    pub fn is_short_line_end(&self, index: HexIndex, parity: Shifted) -> bool {
        let (line_number, cell, last) = match self.orientation {
            Orientation::Flat => (self.first_column + index.col, index.row, self.rows),
            Orientation::Pointy => (self.first_row + index.row, index.col, self.columns),
        };
        let odd = line_number % 2 == 1;
        cell + 1 == last && odd == matches!(parity, Shifted::Odd)
    }
}

/// Which cells of a map's grid are hexes.
impl Map {
    /// Whether a cell of the grid is not a hex: the last cell of a short line
    /// (`short_lines`).
    pub fn is_absent(&self, index: HexIndex) -> bool {
        self.short_lines
            .is_some_and(|parity| self.grid.is_short_line_end(index, parity))
    }

    /// The map hex of a name: on the grid and not an absent cell.
    pub fn hex(&self, name: &HexName) -> Option<HexIndex> {
        self.grid
            .lookup(name)
            .filter(|index| !self.is_absent(*index))
    }

    /// Every hex of the map (absent cells left out), row by row.
    pub fn hexes(&self) -> impl Iterator<Item = HexIndex> + '_ {
        self.grid.indices().filter(|index| !self.is_absent(*index))
    }
}

impl Grid {
    fn offset_mode(&self) -> OffsetHexMode {
        // hexx counts parity on zero-based offset coordinates; ours on printed numbers.
        let first = match self.orientation {
            Orientation::Flat => self.first_column,
            Orientation::Pointy => self.first_row,
        };
        let first_is_odd = first % 2 == 1;
        let shifted_odd = matches!(self.shifted, Shifted::Odd);
        // Index 0 is shifted exactly when the first printed number has the shifted parity.
        let index_zero_shifted = first_is_odd == shifted_odd;
        if index_zero_shifted {
            OffsetHexMode::Even
        } else {
            OffsetHexMode::Odd
        }
    }

    fn shift_origin(&self) -> Hex {
        Hex::from_offset_coordinates(
            [0, 0],
            self.offset_mode(),
            hexx_orientation(self.orientation),
        )
    }

    /// The hexx coordinate of a map hex.
    pub fn hex(&self, index: HexIndex) -> Hex {
        Hex::from_offset_coordinates(
            [index.col as i32, index.row as i32],
            self.offset_mode(),
            hexx_orientation(self.orientation),
        )
    }

    /// The map hex at a hexx coordinate, or `None` off the map.
    pub fn index(&self, hex: Hex) -> Option<HexIndex> {
        let [col, row] =
            hex.to_offset_coordinates(self.offset_mode(), hexx_orientation(self.orientation));
        self.index_from_signed(col, row)
    }

    fn index_from_signed(&self, col: i32, row: i32) -> Option<HexIndex> {
        let col = u32::try_from(col).ok()?;
        let row = u32::try_from(row).ok()?;
        (col < self.columns && row < self.rows).then_some(HexIndex { col, row })
    }

    /// Whether the index lies on the map.
    pub fn contains(&self, index: HexIndex) -> bool {
        index.col < self.columns && index.row < self.rows
    }

    /// Number of hexes.
    pub fn hex_count(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// Every hex of the map, row by row.
    pub fn indices(&self) -> impl Iterator<Item = HexIndex> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.columns).map(move |col| HexIndex { col, row }))
    }

    /// The printed name of a map hex (`1518`).
    pub fn name(&self, index: HexIndex) -> HexName {
        let naming = &self.hex_names;
        let col = self.first_column + index.col;
        let row = self.first_row + index.row;
        HexName(crate::short::ShortStr::format(format_args!(
            "{col:0cw$}{sep}{row:0rw$}",
            cw = naming.column_digits as usize,
            sep = naming.separator,
            rw = naming.row_digits as usize
        )))
    }

    /// A description of the expected hex name form (`CCRR, e.g. 0101`).
    pub fn naming_hint(&self) -> String {
        let naming = &self.hex_names;
        format!(
            "{}{}{}, e.g. {}",
            "C".repeat(naming.column_digits as usize),
            naming.separator,
            "R".repeat(naming.row_digits as usize),
            self.name(HexIndex::new(0, 0))
        )
    }

    /// Reads a hex name into printed (column, row) numbers without checking the map's bounds.
    pub fn parse_numbers(&self, name: &str) -> Option<(u32, u32)> {
        let naming = &self.hex_names;
        let cw = naming.column_digits as usize;
        let rw = naming.row_digits as usize;
        let sep = naming.separator.as_bytes();
        let bytes = name.as_bytes();
        if bytes.len() != cw + sep.len() + rw || !name.is_ascii() {
            return None;
        }
        // By hand: every check looks hexes up by name (a zone's, a stack's), and `str::parse`
        // with its signs and a separator's comparison cost a fifth of the checks' time.
        let number = |digits: &[u8]| -> Option<u32> {
            if digits.is_empty() {
                return None;
            }
            digits.iter().try_fold(0u32, |n, &d| {
                d.is_ascii_digit()
                    .then(|| n.checked_mul(10)?.checked_add(u32::from(d - b'0')))
                    .flatten()
            })
        };
        if !sep.is_empty() && &bytes[cw..cw + sep.len()] != sep {
            return None;
        }
        Some((number(&bytes[..cw])?, number(&bytes[cw + sep.len()..])?))
    }

    /// The map hex of a name, with why not.
    pub fn parse(&self, name: &str) -> Result<HexIndex, NameError> {
        let (col, row) = self
            .parse_numbers(name)
            .ok_or_else(|| NameError::BadHexName(quoted(name), self.naming_hint()))?;
        let col = col.checked_sub(self.first_column);
        let row = row.checked_sub(self.first_row);
        match (col, row) {
            (Some(col), Some(row)) if col < self.columns && row < self.rows => {
                Ok(HexIndex { col, row })
            }
            _ => Err(NameError::OffMap(quoted(name))),
        }
    }

    /// The map hex of a name, or `None` when it is malformed or off the map.
    pub fn lookup(&self, name: &HexName) -> Option<HexIndex> {
        self.parse(name.as_str()).ok()
    }

    /// The neighbour through a side, or `None` when off the map or not a side of this
    /// orientation.
    pub fn neighbour(&self, index: HexIndex, side: Side) -> Option<HexIndex> {
        let direction = self.direction(side)?;
        self.index(self.hex(index).neighbor(direction))
    }

    /// The neighbours on the map with the side each is through.
    pub fn neighbours(&self, index: HexIndex) -> impl Iterator<Item = (Side, HexIndex)> + '_ {
        // The hex converted once and the directions read from their table in side order (the
        // command radii's searches step through every hex's neighbours).
        let hex = self.hex(index);
        direction_table(self.orientation)
            .iter()
            .filter_map(move |&(side, direction)| {
                self.index(hex.neighbor(direction)).map(|n| (side, n))
            })
    }

    fn direction(&self, side: Side) -> Option<EdgeDirection> {
        direction_table(self.orientation)
            .iter()
            .find(|(s, _)| *s == side)
            .map(|(_, d)| *d)
    }

    /// The side of `from` that faces `to`, when they are neighbours.
    pub fn side_between(&self, from: HexIndex, to: HexIndex) -> Option<Side> {
        let direction = self.hex(from).neighbor_direction(self.hex(to))?;
        direction_table(self.orientation)
            .iter()
            .find(|(_, d)| *d == direction)
            .map(|(s, _)| *s)
    }

    /// Distance in hexes.
    pub fn distance(&self, a: HexIndex, b: HexIndex) -> u32 {
        self.hex(a).unsigned_distance_to(self.hex(b))
    }

    /// The map hexes within `radius` of `centre` (the centre included).
    pub fn range(&self, centre: HexIndex, radius: u32) -> impl Iterator<Item = HexIndex> + '_ {
        self.hex(centre)
            .range(radius)
            .filter_map(|hex| self.index(hex))
    }

    /// Reads a hexside reference (`2213/SE`) into a hex and one of its sides. The hex must be on
    /// the map; the side must be one of the orientation's six.
    pub fn parse_hexside(&self, text: &str) -> Result<(HexIndex, Side), NameError> {
        let (hex, side) = text
            .split_once('/')
            .ok_or_else(|| NameError::BadHexside(quoted(text)))?;
        let index = self.parse(hex)?;
        let side = Side::parse(side).ok_or_else(|| NameError::BadHexside(quoted(text)))?;
        if !sides(self.orientation).contains(&side) {
            return Err(NameError::BadSide {
                side: side.to_string(),
                orientation: match self.orientation {
                    Orientation::Flat => "flat-topped",
                    Orientation::Pointy => "pointy-topped",
                },
                sides: sides(self.orientation).map(|s| s.as_str()).join(", "),
            });
        }
        Ok((index, side))
    }

    /// The canonical name of a hexside: each hexside between two map hexes has two names
    /// (`2213/SE` is `2314/NW`); the canonical one uses the first three sides clockwise from
    /// north (N, NE, SE flat; NE, E, SE pointy). A side on the map's edge keeps its hex.
    pub fn canonical_hexside(&self, index: HexIndex, side: Side) -> (HexIndex, Side) {
        let forward = &sides(self.orientation)[..3];
        if forward.contains(&side) {
            return (index, side);
        }
        match self.neighbour(index, side) {
            Some(other) => (other, opposite(side)),
            None => (index, side),
        }
    }

    /// The reference text of a hexside, in canonical form.
    pub fn hexside_ref(&self, index: HexIndex, side: Side) -> HexsideRef {
        let (index, side) = self.canonical_hexside(index, side);
        HexsideRef(crate::short::ShortStr::format(format_args!(
            "{}/{}",
            self.name(index),
            side
        )))
    }

    /// The two hexes a hexside lies between (the second `None` on the map's edge).
    pub fn hexside_hexes(&self, index: HexIndex, side: Side) -> (HexIndex, Option<HexIndex>) {
        (index, self.neighbour(index, side))
    }

    /// The centre of a hex in grid space.
    pub fn centre(&self, index: HexIndex) -> [f32; 2] {
        let layout = layout(self.orientation);
        let origin = layout.hex_to_world_pos(self.shift_origin());
        let pos = layout.hex_to_world_pos(self.hex(index)) - origin;
        [pos.x, pos.y]
    }

    /// The six corners of a hex in grid space.
    pub fn corners(&self, index: HexIndex) -> [[f32; 2]; 6] {
        let layout = layout(self.orientation);
        let origin = layout.hex_to_world_pos(self.shift_origin());
        layout
            .hex_corners(self.hex(index))
            .map(|corner| [corner.x - origin.x, corner.y - origin.y])
    }

    /// The two ends of a hexside in grid space.
    pub fn side_corners(&self, index: HexIndex, side: Side) -> Option<[[f32; 2]; 2]> {
        let [cx, cy] = self.centre(index);
        let bearing = side_bearing(self.orientation, side).to_radians();
        // The side's midpoint lies towards the side's bearing; its ends are the two corners
        // nearest that midpoint.
        let apothem = 3f32.sqrt() / 2.0;
        let mid = [cx + apothem * bearing.sin(), cy - apothem * bearing.cos()];
        if !sides(self.orientation).contains(&side) {
            return None;
        }
        let mut corners = self.corners(index);
        corners.sort_by(|a, b| dist2(*a, mid).total_cmp(&dist2(*b, mid)));
        Some([corners[0], corners[1]])
    }

    /// The side of a hex nearest a point of grid space, and how far the point is from that
    /// side's midpoint (in hex radii): the hexside a click or a traced line means.
    pub fn nearest_side(&self, index: HexIndex, point: [f32; 2]) -> Option<(Side, f32)> {
        sides(self.orientation)
            .into_iter()
            .filter_map(|side| {
                let [a, b] = self.side_corners(index, side)?;
                let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
                Some((side, dist2(mid, point).sqrt()))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The outline of a set of hexes in grid space: the sides whose neighbour is not in the set
    /// (or off the map), each end pulled towards its hex's centre to `inset` of the way out
    /// (1.0 on the side; a little less lets two neighbouring areas' outlines both show).
    pub fn outline(
        &self,
        hexes: &std::collections::HashSet<HexIndex>,
        inset: f32,
    ) -> Vec<[[f32; 2]; 2]> {
        let mut out = Vec::new();
        for &hex in hexes {
            let [cx, cy] = self.centre(hex);
            let pull = |[x, y]: [f32; 2]| [cx + (x - cx) * inset, cy + (y - cy) * inset];
            for side in sides(self.orientation) {
                let outside = self
                    .neighbour(hex, side)
                    .is_none_or(|n| !hexes.contains(&n));
                if outside && let Some([a, b]) = self.side_corners(hex, side) {
                    out.push([pull(a), pull(b)]);
                }
            }
        }
        out
    }

    /// The outline ([`Grid::outline`]) of the hexes within `radius` of a hex: a leader's
    /// command radius as the editor shows it (who is in command is the validator's answer).
    pub fn range_outline(&self, centre: HexIndex, radius: u32, inset: f32) -> Vec<[[f32; 2]; 2]> {
        let hexes = self.range(centre, radius).collect();
        self.outline(&hexes, inset)
    }

    /// The map hex under a point of grid space, or `None` off the map.
    pub fn hex_at(&self, point: [f32; 2]) -> Option<HexIndex> {
        let layout = layout(self.orientation);
        let origin = layout.hex_to_world_pos(self.shift_origin());
        let world = Vec2::new(point[0] + origin.x, point[1] + origin.y);
        self.index(layout.world_pos_to_hex(world))
    }

    /// The grid-space bounding box of the whole map: (min, max).
    pub fn bounds(&self) -> ([f32; 2], [f32; 2]) {
        let mut min = [f32::INFINITY; 2];
        let mut max = [f32::NEG_INFINITY; 2];
        let last_col = self.columns.saturating_sub(1);
        let last_row = self.rows.saturating_sub(1);
        let probes = [
            HexIndex::new(0, 0),
            HexIndex::new(last_col, 0),
            HexIndex::new(0, last_row),
            HexIndex::new(last_col, last_row),
            HexIndex::new(1.min(last_col), 0),
            HexIndex::new(1.min(last_col), last_row),
            HexIndex::new(0, 1.min(last_row)),
            HexIndex::new(last_col, 1.min(last_row)),
            HexIndex::new(last_col.saturating_sub(1), 0),
            HexIndex::new(last_col.saturating_sub(1), last_row),
            HexIndex::new(0, last_row.saturating_sub(1)),
            HexIndex::new(last_col, last_row.saturating_sub(1)),
        ];
        for index in probes {
            for [x, y] in self.corners(index) {
                min = [min[0].min(x), min[1].min(y)];
                max = [max[0].max(x), max[1].max(y)];
            }
        }
        (min, max)
    }
}

fn layout_orientation(layout: &HexLayout) -> Orientation {
    if layout.orientation == HexOrientation::Flat {
        Orientation::Flat
    } else {
        Orientation::Pointy
    }
}

fn dist2(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)
}
