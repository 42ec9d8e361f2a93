//! The document being edited: a map (and the scenario it was opened through), its file paths,
//! and the primitive reads and writes that edit commands are made of.

use std::path::{Path, PathBuf};

use bataille_schema::map::{
    Grid, HexNaming, HexsideType, Orientation, OverlayType, Shifted, TerrainType,
};
use bataille_schema::{Colour, HexIndex, HexName, HexsideRef, Id, Map, Scenario};

/// A scenario opened together with its map (or started for it), and its file.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioFile {
    pub scenario: Scenario,
    pub path: PathBuf,
}

pub use super::variant::VariantOrigin;

/// Most hexes a map may have on a side: the schema's one limit.
pub use bataille_schema::limits::MAX_HEXES_PER_SIDE;

/// What the edited document is.
#[derive(Debug, Clone)]
pub struct Document {
    pub map: Map,
    /// Where the map is saved; `None` for a new map never saved.
    pub map_path: Option<PathBuf>,
    /// The scenario the map was opened through, if any.
    pub scenario: Option<ScenarioFile>,
    /// Set when the scenario was opened from a variant: its base and the variant as read.
    pub variant: Option<VariantOrigin>,
    /// The variants of the open scenario (of the variant's base when a variant is open), found
    /// beside it when it was opened or saved.
    pub variants_beside: Vec<super::variant::VariantFile>,
    /// The `.ron` files beside it that may be variants of it but were not read: the folder's
    /// files passed the byte budget of one look (the door's `variants_beside`).
    pub variants_not_read: Vec<PathBuf>,
}

/// What an applied change touched, for redrawing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Touched {
    /// Hexes whose terrain, overlays or labels changed.
    pub hexes: Vec<HexIndex>,
    /// Hexsides whose features changed.
    pub sides: Vec<HexsideRef>,
    /// Everything must be redrawn (legend or grid change).
    pub all: bool,
    /// The scenario changed (counters, zones, settings).
    pub scenario: bool,
}

impl Touched {
    pub fn hexes(hexes: Vec<HexIndex>) -> Touched {
        Touched {
            hexes,
            ..Default::default()
        }
    }

    pub fn all() -> Touched {
        Touched {
            all: true,
            ..Default::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        !self.all && !self.scenario && self.hexes.is_empty() && self.sides.is_empty()
    }

    /// Both sets of touched things.
    pub fn merge(mut self, other: Touched) -> Touched {
        self.hexes.extend(other.hexes);
        self.sides.extend(other.sides);
        self.all |= other.all;
        self.scenario |= other.scenario;
        self
    }
}

/// The settings of a new map.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMapSettings {
    pub name: String,
    pub columns: u32,
    pub rows: u32,
    pub orientation: Orientation,
    pub shifted: Shifted,
    pub first_column: u32,
    pub first_row: u32,
    /// Where the legend comes from (a bundled game's, another map's, or the starter one).
    pub legend: crate::model::templates::LegendSource,
}

impl Default for NewMapSettings {
    fn default() -> Self {
        Self {
            name: "Untitled".to_owned(),
            columns: 30,
            rows: 20,
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            legend: Default::default(),
        }
    }
}

/// The starter legend of a new map: the usual terrain of a lace-wars battlefield.
pub fn default_legend() -> std::collections::BTreeMap<String, TerrainType> {
    let terrain = |name: &str, colour: &str| TerrainType {
        name: name.to_owned(),
        colour: Colour::from(colour),
        pattern: None,
        water: false,
        effects: Default::default(),
    };
    let mut legend = std::collections::BTreeMap::new();
    legend.insert("c".to_owned(), terrain("Clear", "#e4e8b8"));
    let mut forest = terrain("Forest", "#6f9a55");
    forest.pattern = Some(bataille_schema::map::Pattern::Trees);
    legend.insert("f".to_owned(), forest);
    let mut marsh = terrain("Marsh", "#b9cfb0");
    marsh.pattern = Some(bataille_schema::map::Pattern::Marsh);
    legend.insert("m".to_owned(), marsh);
    let mut water = terrain("Water", "#8fb8d8");
    water.pattern = Some(bataille_schema::map::Pattern::Water);
    water.water = true;
    legend.insert("w".to_owned(), water);
    // A village (issue 21: the starter legend had none; Denain's "Ville", 7.1: 2 MP).
    let mut village = terrain("Village", "#b86b4b");
    village.pattern = Some(bataille_schema::map::Pattern::Buildings);
    village.effects.cost = Some(bataille_schema::map::MoveCost::Mp(2));
    village.effects.protection = 1;
    village.effects.blocks_sight = true;
    village.effects.built_up = true;
    legend.insert("v".to_owned(), village);
    legend
}

/// The starter legend's hexside features: a stream and a river (Denain 6 and 7: no zone of
/// control across them; a stream costs 1 MP more, a river is crossed only by a bridge), so a
/// new map can draw one with the hexside tool at once.
pub fn default_hexside_types() -> std::collections::BTreeMap<Id, HexsideType> {
    use bataille_schema::map::{HexsideSymbol, MoveCost};
    let side = |name: &str, symbol, colour: &str, cost| HexsideType {
        name: name.to_owned(),
        symbol,
        colour: Colour::from(colour),
        water: true,
        bridge: false,
        blocks_zoc: true,
        needs_breach: false,
        cost: Some(cost),
        cost_by_kind: Default::default(),
    };
    let mut types = std::collections::BTreeMap::new();
    types.insert(
        Id::from("stream"),
        side("Stream", HexsideSymbol::Stream, "#5a8fc8", MoveCost::Mp(1)),
    );
    types.insert(
        Id::from("river"),
        side(
            "River",
            HexsideSymbol::River,
            "#2f6fb5",
            MoveCost::Impassable,
        ),
    );
    types
}

impl Document {
    /// A blank map filled with the first code of the default legend.
    pub fn new_map(settings: &NewMapSettings) -> Document {
        let columns = settings.columns.clamp(1, MAX_HEXES_PER_SIDE);
        let rows = settings.rows.clamp(1, MAX_HEXES_PER_SIDE);
        let row: String = "c".repeat(columns as usize);
        let map = Map {
            paths: Default::default(),
            short_lines: None,
            format_version: bataille_schema::FORMAT_VERSION,
            name: if settings.name.trim().is_empty() {
                "Untitled".to_owned()
            } else {
                settings.name.clone()
            },
            notes: None,
            grid: Grid {
                orientation: settings.orientation,
                shifted: settings.shifted,
                first_column: settings.first_column,
                first_row: settings.first_row,
                columns,
                rows,
                hex_names: HexNaming {
                    column_digits: if settings.first_column + columns > 100 {
                        3
                    } else {
                        2
                    },
                    row_digits: if settings.first_row + rows > 100 {
                        3
                    } else {
                        2
                    },
                    separator: String::new(),
                },
            },
            metres_per_hex: None,
            terrain: default_legend(),
            overlay_types: Default::default(),
            hexside_types: default_hexside_types(),
            rows: vec![row; rows as usize],
            overlays: Default::default(),
            hexsides: Default::default(),
            labels: Default::default(),
            friendly_edges: Default::default(),
            checked: Vec::new(),
            background: None,
            half_hexes: Vec::new(),
            allow: Vec::new(),
        };
        Document {
            map,
            map_path: None,
            scenario: None,
            variant: None,
            variants_beside: Vec::new(),
            variants_not_read: Vec::new(),
        }
    }

    /// A document for a map read from a file. Hexside references are put in canonical form
    /// (which does not change what they mean) so that the tools can compare them; the scan's
    /// path is held absolute (written relative to wherever the map is saved).
    pub fn from_map(mut map: Map, map_path: Option<PathBuf>) -> (Document, Vec<String>) {
        map.canonicalize();
        if let (Some(background), Some(dir)) = (
            map.background.as_mut(),
            map_path.as_deref().and_then(std::path::Path::parent),
        ) && !std::path::Path::new(&background.image).is_absolute()
        {
            let on_disk = bataille_schema::paths::absolute(&dir.join(&background.image));
            background.image = bataille_schema::paths::portable(&on_disk);
        }
        let notes = normalise_rows(&mut map);
        (
            Document {
                map,
                map_path,
                scenario: None,
                variant: None,
                variants_beside: Vec::new(),
                variants_not_read: Vec::new(),
            },
            notes,
        )
    }

    /// The file name to show in the title.
    pub fn display_name(&self) -> String {
        let path = self
            .scenario
            .as_ref()
            .map(|s| s.path.as_path())
            .or(self.map_path.as_deref());
        match path {
            Some(path) => path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            None => format!("{} (new map)", self.map.name),
        }
    }

    /// The path the document is saved to (the scenario's when there is one).
    pub fn document_path(&self) -> Option<&Path> {
        self.scenario
            .as_ref()
            .map(|s| s.path.as_path())
            .or(self.map_path.as_deref())
    }

    pub fn grid(&self) -> &Grid {
        &self.map.grid
    }

    /// Hexes still to check against the scan (not marked; the list is sorted and free of
    /// duplicates, and the validator reports names off the map).
    pub fn hexes_to_check(&self) -> usize {
        self.map
            .grid
            .hex_count()
            .saturating_sub(self.map.checked.len())
    }

    /// The terrain code of a hex.
    pub fn code(&self, hex: HexIndex) -> Option<char> {
        self.map
            .rows
            .get(hex.row as usize)?
            .chars()
            .nth(hex.col as usize)
    }

    /// Sets the terrain code of a hex; returns the code it had, or `None` off the map.
    pub fn set_code(&mut self, hex: HexIndex, code: char) -> Option<char> {
        let row = self.map.rows.get_mut(hex.row as usize)?;
        let col = hex.col as usize;
        let (start, old) = if row.is_ascii() {
            let old = *row.as_bytes().get(col)? as char;
            (col, old)
        } else {
            row.char_indices().nth(col)?
        };
        if old != code {
            let mut buf = [0u8; 4];
            row.replace_range(start..start + old.len_utf8(), code.encode_utf8(&mut buf));
        }
        Some(old)
    }

    /// The terrain type of a hex.
    pub fn terrain_at(&self, hex: HexIndex) -> Option<(char, Option<&TerrainType>)> {
        let code = self.code(hex)?;
        let mut buf = [0u8; 4];
        Some((code, self.map.terrain.get(&*code.encode_utf8(&mut buf))))
    }

    /// The overlays of a hex.
    pub fn overlays_at(&self, hex: HexIndex) -> &[Id] {
        let name = self.map.grid.name(hex);
        self.map
            .overlays
            .get(&name)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn has_overlay(&self, hex: &HexName, overlay: &Id) -> bool {
        self.map
            .overlays
            .get(hex)
            .is_some_and(|list| list.contains(overlay))
    }

    /// Adds or removes an overlay; returns whether it was present before.
    pub fn set_overlay(&mut self, hex: &HexName, overlay: &Id, present: bool) -> bool {
        let before = self.has_overlay(hex, overlay);
        if present && !before {
            let list = self.map.overlays.entry(hex.clone()).or_default();
            list.push(overlay.clone());
            list.sort();
        } else if !present
            && before
            && let Some(list) = self.map.overlays.get_mut(hex)
        {
            list.retain(|o| o != overlay);
            if list.is_empty() {
                self.map.overlays.remove(hex);
            }
        }
        before
    }

    pub fn has_hexside(&self, feature: &Id, side: &HexsideRef) -> bool {
        self.map
            .hexsides
            .get(feature)
            .is_some_and(|list| list.contains(side))
    }

    /// Adds or removes a hexside feature; returns whether it was present before.
    pub fn set_hexside(&mut self, feature: &Id, side: &HexsideRef, present: bool) -> bool {
        let before = self.has_hexside(feature, side);
        if present && !before {
            self.map
                .hexsides
                .entry(feature.clone())
                .or_default()
                .push(side.clone());
        } else if !present
            && before
            && let Some(list) = self.map.hexsides.get_mut(feature)
        {
            list.retain(|s| s != side);
            if list.is_empty() {
                self.map.hexsides.remove(feature);
            }
        }
        before
    }

    /// The hexside features on a hexside.
    pub fn hexside_features(&self, side: &HexsideRef) -> Vec<&Id> {
        self.map
            .hexsides
            .iter()
            .filter(|(_, list)| list.contains(side))
            .map(|(id, _)| id)
            .collect()
    }

    /// The hexes touching a hexside reference (for redrawing).
    pub fn hexes_of_side(&self, side: &HexsideRef) -> Vec<HexIndex> {
        match self.map.grid.parse_hexside(side.as_str()) {
            Ok((hex, s)) => {
                let (a, b) = self.map.grid.hexside_hexes(hex, s);
                std::iter::once(a).chain(b).collect()
            }
            Err(_) => Vec::new(),
        }
    }

    /// How many hexes use a terrain code.
    pub fn terrain_uses(&self, code: char) -> usize {
        self.map
            .rows
            .iter()
            .map(|row| row.chars().filter(|&c| c == code).count())
            .sum()
    }

    /// The hexes using a terrain code.
    pub fn hexes_with_code(&self, code: char) -> Vec<HexIndex> {
        let mut hexes = Vec::new();
        for (row, text) in self.map.rows.iter().enumerate() {
            for (col, c) in text.chars().enumerate() {
                if c == code {
                    hexes.push(HexIndex::new(col as u32, row as u32));
                }
            }
        }
        hexes
    }

    /// How many hexes carry an overlay.
    pub fn overlay_uses(&self, overlay: &Id) -> usize {
        self.map
            .overlays
            .values()
            .filter(|list| list.contains(overlay))
            .count()
    }

    /// How many hexsides carry a hexside feature.
    pub fn hexside_uses(&self, feature: &Id) -> usize {
        self.map.hexsides.get(feature).map_or(0, Vec::len)
    }

    pub fn set_terrain_type(&mut self, code: &str, value: Option<TerrainType>) {
        match value {
            Some(t) => {
                self.map.terrain.insert(code.to_owned(), t);
            }
            None => {
                self.map.terrain.remove(code);
            }
        }
    }

    pub fn set_overlay_type(&mut self, id: &Id, value: Option<OverlayType>) {
        match value {
            Some(t) => {
                self.map.overlay_types.insert(id.clone(), t);
            }
            None => {
                self.map.overlay_types.remove(id);
            }
        }
    }

    pub fn set_hexside_type(&mut self, id: &Id, value: Option<HexsideType>) {
        match value {
            Some(t) => {
                self.map.hexside_types.insert(id.clone(), t);
            }
            None => {
                self.map.hexside_types.remove(id);
            }
        }
    }

    /// The first terrain code of the legend (what new hexes are filled with).
    pub fn default_code(&self) -> char {
        self.map
            .terrain
            .keys()
            .find_map(|k| k.chars().next())
            .unwrap_or('c')
    }
}

/// Makes every terrain row exactly as long as the grid is wide and the row count match; returns
/// what was fixed, to tell the user.
pub fn normalise_rows(map: &mut Map) -> Vec<String> {
    let mut notes = Vec::new();
    let fill = map
        .terrain
        .keys()
        .find_map(|k| k.chars().next())
        .unwrap_or('c');
    let columns = map.grid.columns as usize;
    let rows = map.grid.rows as usize;
    if map.rows.len() != rows {
        notes.push(format!(
            "the map has {} terrain rows but its grid has {rows}; {}",
            map.rows.len(),
            if map.rows.len() < rows {
                format!("missing rows were filled with `{fill}`")
            } else {
                "extra rows were dropped".to_owned()
            }
        ));
        map.rows.resize(rows, fill.to_string().repeat(columns));
    }
    for (i, row) in map.rows.iter_mut().enumerate() {
        let len = row.chars().count();
        if len != columns {
            notes.push(format!(
                "terrain row {} has {len} hexes, not {columns}; it was {}",
                i + 1,
                if len < columns {
                    format!("padded with `{fill}`")
                } else {
                    "cut".to_owned()
                }
            ));
            let mut fixed: String = row.chars().take(columns).collect();
            for _ in len..columns {
                fixed.push(fill);
            }
            *row = fixed;
        }
    }
    notes
}

/// The hexes a flood fill from `start` reaches: connected hexes of the same code.
pub fn flood_region(doc: &Document, start: HexIndex) -> Vec<HexIndex> {
    let grid = &doc.map.grid;
    let Some(code) = doc.code(start) else {
        return Vec::new();
    };
    let mut seen = vec![false; grid.hex_count()];
    let slot = |h: HexIndex| h.row as usize * grid.columns as usize + h.col as usize;
    let mut stack = vec![start];
    let mut out = Vec::new();
    seen[slot(start)] = true;
    while let Some(hex) = stack.pop() {
        out.push(hex);
        for (_, n) in grid.neighbours(hex) {
            let s = slot(n);
            if !seen[s] && doc.code(n) == Some(code) {
                seen[s] = true;
                stack.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_code_round_trips() {
        let mut doc = Document::new_map(&NewMapSettings::default());
        let hex = HexIndex::new(3, 2);
        assert_eq!(doc.set_code(hex, 'f'), Some('c'));
        assert_eq!(doc.code(hex), Some('f'));
        assert_eq!(doc.set_code(HexIndex::new(999, 0), 'f'), None);
    }

    #[test]
    fn flood_fills_connected_region() {
        let mut doc = Document::new_map(&NewMapSettings {
            columns: 5,
            rows: 5,
            ..Default::default()
        });
        for row in 0..5 {
            doc.set_code(HexIndex::new(2, row), 'w');
        }
        let region = flood_region(&doc, HexIndex::new(0, 0));
        assert_eq!(region.len(), 10);
    }
}
