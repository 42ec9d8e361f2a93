//! Resizing the grid without renaming hexes: hexes added or removed on each side, a new
//! orientation or offset, every reference (overlays, labels, hexsides, checked hexes, the scan's
//! control points) carried over or reported as dropped.

use bataille_schema::map::{Grid, HexNaming, Orientation, Shifted};
use bataille_schema::{HexIndex, HexName, Map};

use crate::model::document::MAX_HEXES_PER_SIDE;

/// The changes of a map-settings edit: a new grid, with hexes added or removed on each side.
#[derive(Debug, Clone, PartialEq)]
pub struct Resize {
    pub west: i32,
    pub east: i32,
    pub north: i32,
    pub south: i32,
    pub orientation: Orientation,
    pub shifted: Shifted,
    pub hex_names: HexNaming,
}

impl Resize {
    /// No change to the map's grid.
    pub fn none(grid: &Grid) -> Resize {
        Resize {
            west: 0,
            east: 0,
            north: 0,
            south: 0,
            orientation: grid.orientation,
            shifted: grid.shifted,
            hex_names: grid.hex_names.clone(),
        }
    }
}

/// The map after a grid change. Hexes keep their printed names: adding columns on the west
/// lowers `first_column`, and so on. What falls off the map is dropped, with a note.
pub fn resized_map(map: &Map, resize: &Resize) -> Result<(Map, Vec<String>), String> {
    let old = &map.grid;
    let columns = old.columns as i64 + resize.west as i64 + resize.east as i64;
    let rows = old.rows as i64 + resize.north as i64 + resize.south as i64;
    let limit = 1..=i64::from(MAX_HEXES_PER_SIDE);
    if !limit.contains(&columns) || !limit.contains(&rows) {
        return Err(format!(
            "the map would be {columns} × {rows} hexes; each side must be 1 to {MAX_HEXES_PER_SIDE}"
        ));
    }
    let first_column = old.first_column as i64 - resize.west as i64;
    let first_row = old.first_row as i64 - resize.north as i64;
    if first_column < 0 || first_row < 0 {
        return Err(format!(
            "the first column or row number would be below 0 ({first_column}, {first_row}); \
             add fewer hexes on the west or north"
        ));
    }
    let naming = &resize.hex_names;
    let max_col = first_column + columns - 1;
    let max_row = first_row + rows - 1;
    if max_col >= 10i64.pow(naming.column_digits as u32)
        || max_row >= 10i64.pow(naming.row_digits as u32)
    {
        return Err(format!(
            "column {max_col} or row {max_row} does not fit the naming format's digits; \
             use 3 digits"
        ));
    }
    let new_grid = Grid {
        orientation: resize.orientation,
        shifted: resize.shifted,
        first_column: first_column as u32,
        first_row: first_row as u32,
        columns: columns as u32,
        rows: rows as u32,
        hex_names: naming.clone(),
    };
    let fill = map
        .terrain
        .keys()
        .find_map(|k| k.chars().next())
        .unwrap_or('c');
    let old_rows: Vec<Vec<char>> = map.rows.iter().map(|r| r.chars().collect()).collect();
    let mut new_rows = Vec::with_capacity(rows as usize);
    for row in 0..rows {
        let old_row = row - resize.north as i64;
        let mut text = String::with_capacity(columns as usize);
        for col in 0..columns {
            let old_col = col - resize.west as i64;
            let code = if old_row >= 0 && old_col >= 0 {
                old_rows
                    .get(old_row as usize)
                    .and_then(|r| r.get(old_col as usize))
                    .copied()
                    .unwrap_or(fill)
            } else {
                fill
            };
            text.push(code);
        }
        new_rows.push(text);
    }
    let mut notes = Vec::new();
    // Name-keyed data: translate old name → printed numbers → new name.
    let rename = |name: &HexName| -> Option<HexName> {
        let index = old.lookup(name)?;
        let col = old.first_column + index.col;
        let row = old.first_row + index.row;
        let new_index = HexIndex::new(
            col.checked_sub(new_grid.first_column)?,
            row.checked_sub(new_grid.first_row)?,
        );
        new_grid
            .contains(new_index)
            .then(|| new_grid.name(new_index))
    };
    let mut new_map = map.clone();
    new_map.grid = new_grid.clone();
    new_map.rows = new_rows;
    let mut dropped = 0usize;
    new_map.overlays = map
        .overlays
        .iter()
        .filter_map(|(hex, list)| match rename(hex) {
            Some(n) => Some((n, list.clone())),
            None => {
                dropped += 1;
                None
            }
        })
        .collect();
    new_map.labels = map
        .labels
        .iter()
        .filter_map(|(hex, text)| match rename(hex) {
            Some(n) => Some((n, text.clone())),
            None => {
                dropped += 1;
                None
            }
        })
        .collect();
    new_map.checked = map.checked.iter().filter_map(rename).collect();
    let mut dropped_sides = 0usize;
    for (feature, list) in new_map.hexsides.iter_mut() {
        let Some(old_list) = map.hexsides.get(feature) else {
            continue;
        };
        *list = old_list
            .iter()
            .filter_map(|side_ref| {
                let (hex, side) = old.parse_hexside(side_ref.as_str()).ok()?;
                let new_name = rename(&old.name(hex))?;
                let new_hex = new_grid.lookup(&new_name)?;
                if !bataille_schema::geometry::sides(new_grid.orientation).contains(&side) {
                    return None;
                }
                Some(new_grid.hexside_ref(new_hex, side))
            })
            .collect();
        dropped_sides += old_list.len() - list.len();
    }
    new_map.hexsides.retain(|_, l| !l.is_empty());
    if let Some(background) = &mut new_map.background
        && (resize.west != 0 || resize.north != 0 || resize.orientation != old.orientation)
    {
        notes.push(format!(
            "the background fit ({}) was made for the old grid; refit it",
            background.image
        ));
        background
            .control_points
            .retain(|p| rename(&p.hex).is_some());
    }
    if dropped > 0 {
        notes.push(format!(
            "{dropped} overlay or label entries fell off the map"
        ));
    }
    if dropped_sides > 0 {
        notes.push(format!("{dropped_sides} hexside entries fell off the map"));
    }
    new_map.canonicalize();
    Ok((new_map, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::{Document, NewMapSettings};

    #[test]
    fn growing_west_keeps_names() {
        let settings = NewMapSettings {
            first_column: 5,
            ..Default::default()
        };
        let mut doc = Document::new_map(&settings);
        let hex = HexIndex::new(0, 0);
        doc.set_code(hex, 'f');
        let name = doc.map.grid.name(hex);
        doc.map.labels.insert(name.clone(), "Denain".into());
        let mut resize = Resize::none(&doc.map.grid);
        resize.west = 2;
        let (map, _) = resized_map(&doc.map, &resize).expect("resize");
        assert_eq!(map.grid.first_column, 3);
        assert_eq!(map.grid.columns, 32);
        let new_index = map.grid.lookup(&name).expect("still on the map");
        assert_eq!(new_index, HexIndex::new(2, 0));
        assert_eq!(map.rows[0].chars().nth(2), Some('f'));
        assert_eq!(map.labels.get(&name).map(String::as_str), Some("Denain"));
    }

    #[test]
    fn shrinking_drops_what_falls_off() {
        let mut doc = Document::new_map(&NewMapSettings::default());
        let name = doc.map.grid.name(HexIndex::new(0, 0));
        doc.map.labels.insert(name, "Gone".into());
        let mut resize = Resize::none(&doc.map.grid);
        resize.west = -1;
        let (map, notes) = resized_map(&doc.map, &resize).expect("resize");
        assert_eq!(map.grid.first_column, 2);
        assert!(map.labels.is_empty());
        assert!(!notes.is_empty());
    }
}
