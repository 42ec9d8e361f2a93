//! The map document: grid geometry, terrain legend, terrain rows, overlays, hexside features,
//! labels, friendly edges and an optional background scan.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Colour, HexName, HexsideRef, Id, MapEdge, is_false, is_zero_u8};

/// A hex map: one file in `maps/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Map {
    /// The version of the file format; files from a newer version are refused with a message.
    #[schemars(range(min = 1))]
    pub format_version: u32,
    /// The map's title (`"Denain 1712"`).
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Free text: where the map comes from, what is reconstructed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// The hex grid: orientation, offset, numbering, size.
    pub grid: Grid,
    /// Metres on the ground per hex (Fontenoy 200, Denain 400), for other rules systems that
    /// measure in inches or metres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1.0, max = 100000.0))]
    pub metres_per_hex: Option<f64>,
    /// The terrain legend: one-character code → terrain type.
    #[serde(deserialize_with = "crate::unique::deserialize")]
    pub terrain: BTreeMap<String, TerrainType>,
    /// The overlay legend: id → overlay type (redoubt, town, bridge, road…).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub overlay_types: BTreeMap<Id, OverlayType>,
    /// The hexside legend: id → hexside feature type (stream, river, fortification line…).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub hexside_types: BTreeMap<Id, HexsideType>,
    /// Terrain, one string per hex row from the first row down, one code per hex from the first
    /// column. Painting one hex changes one line of the file.
    pub rows: Vec<String>,
    /// Where linear overlays run (roads), by overlay id: each entry a path of neighbouring hexes
    /// written as their names separated by spaces (`"0901 1002 1102"`), so a road is drawn
    /// from hex to hex along the paths the file states, not guessed from which hexes have a
    /// road. A path may start or end with a hexside (`"1001/N"`): the road leaves the map (or
    /// the hex) through it. Hexes of the overlay that no path names are drawn as before.
    #[serde(
        deserialize_with = "crate::unique::deserialize_lists",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub paths: BTreeMap<Id, Vec<String>>,
    /// Overlays present in a hex, by hex name.
    #[serde(
        deserialize_with = "crate::unique::deserialize_lists",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    #[schemars(transform = lists_are_sets)]
    pub overlays: BTreeMap<HexName, Vec<Id>>,
    /// Hexside features: feature id → the hexsides it lies on.
    #[serde(
        deserialize_with = "crate::unique::deserialize_lists",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    #[schemars(transform = lists_are_sets)]
    pub hexsides: BTreeMap<Id, Vec<HexsideRef>>,
    /// Place names printed on the map, by hex (each 1 to 80 characters).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    #[schemars(transform = place_names_capped)]
    pub labels: BTreeMap<HexName, String>,
    /// Friendly map edges printed on the map, by side name (`"French": [West, North]`).
    /// Scenarios name a side's edges per army or corps; these are the map's defaults.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    #[schemars(transform = lists_are_sets)]
    pub friendly_edges: BTreeMap<String, Vec<MapEdge>>,
    /// Hexes a digitiser has checked against the scan.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checked: Vec<HexName>,
    /// A scanned printed map under the grid, with the fit from grid to image pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Background>,
    /// Hexes the printed map's frame cuts in half (a flat grid's shifted columns end in half a
    /// hex at the bottom frame). They are ordinary, playable hexes in the data; the list says
    /// how they are printed. Each must lie on the edge of the map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("uniqueItems" = true))]
    pub half_hexes: Vec<HexName>,
    /// Lines of unequal length: the columns (flat grid) or rows (pointy grid) of this printed
    /// parity have no hex in the grid's last row (column). A printed map whose even columns,
    /// printed half a hex lower, are one hex shorter (17 rows in odd columns, 16 in even) is
    /// `short_lines: Some(Even)`. The missing cells are not hexes (unlike `half_hexes`, which
    /// are cut by the frame but playable): nothing may stand on them, the renderer and the
    /// exports leave them out, and their character in the terrain rows is ignored (write a
    /// space).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_lines: Option<Shifted>,
    /// Diagnostic codes allowed for the whole map (`["W0601"]`), as a scenario's `allow`.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::common::allow_list"
    )]
    #[schemars(with = "Vec<String>", length(max = crate::common::MAX_ALLOW_CODES))]
    pub allow: Vec<crate::common::Code>,
}

/// The lists of a map keyed by hex, feature or side are sets: an item given twice is refused
/// (`uniqueItems`, E0105), not drawn twice. 400,000 copies of one overlay in one hex (a 3.6 MB
/// map) passed `validate` and cost the print kit 1.65 GB and 43 s; of one hexside, 1.85 GB
/// before the PDF gave up. With each list a set, what is drawn is bounded by the grid.
fn lists_are_sets(schema: &mut schemars::Schema) {
    for key in ["patternProperties", "additionalProperties"] {
        let lists: Vec<&mut serde_json::Value> = match schema.get_mut(key) {
            Some(serde_json::Value::Object(patterns)) if key == "patternProperties" => {
                patterns.values_mut().collect()
            }
            Some(value) => vec![value],
            None => Vec::new(),
        };
        for list in lists {
            if let serde_json::Value::Object(list) = list {
                list.insert("uniqueItems".into(), true.into());
            }
        }
    }
}

/// The schema of `labels`: each place name 1 to 80 characters, as a terrain's name. Without a
/// cap a megabyte place name passed the door and reached the renderer (render: 9 s, 1.2 GB).
fn place_names_capped(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Object(patterns)) = schema.get_mut("patternProperties") {
        for value in patterns.values_mut() {
            if let serde_json::Value::Object(value) = value {
                value.insert("minLength".into(), 1.into());
                value.insert("maxLength".into(), 80.into());
            }
        }
    }
}

impl Map {
    /// The first number of the map that is not finite (NaN, an infinity), by JSON pointer.
    pub fn non_finite(&self) -> Option<(String, f64)> {
        let mut numbers: Vec<(String, f64)> = Vec::new();
        if let Some(m) = self.metres_per_hex {
            numbers.push(("/metres_per_hex".into(), m));
        }
        if let Some(background) = &self.background {
            for (i, v) in background.grid_to_image.iter().enumerate() {
                numbers.push((format!("/background/grid_to_image/{i}"), *v));
            }
            for (i, point) in background.control_points.iter().enumerate() {
                numbers.push((format!("/background/control_points/{i}/x"), point.x));
                numbers.push((format!("/background/control_points/{i}/y"), point.y));
            }
        }
        numbers.into_iter().find(|(_, v)| !v.is_finite())
    }
}

/// Flat-topped or pointy-topped hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Orientation {
    /// Flat top and bottom; hexes form vertical columns, every other column shifted down.
    Flat,
    /// Pointed top; hexes form horizontal rows, every other row shifted right.
    Pointy,
}

/// Which columns (flat) or rows (pointy) are shifted by half a hex, counted by their printed
/// number: with `Odd` and first column 1, columns 1, 3, 5… sit half a hex lower (flat) or half
/// a hex further right (pointy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Shifted {
    Odd,
    Even,
}

/// How hexes are named: the column number then the row number, zero-padded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexNaming {
    /// Digits of the column number (2 for `XXYY`).
    #[schemars(range(min = 2, max = 3))]
    pub column_digits: u8,
    /// Digits of the row number (2 for `XXYY`).
    #[schemars(range(min = 2, max = 3))]
    pub row_digits: u8,
    /// Text between column and row (`""`, `"."` or `"-"`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[schemars(length(max = 1), pattern(r"^[.\-]?$"))]
    pub separator: String,
}

impl Default for HexNaming {
    fn default() -> Self {
        Self {
            column_digits: 2,
            row_digits: 2,
            separator: String::new(),
        }
    }
}

/// Most hexes a map may have on a side (columns, rows), and the largest printed number of its
/// first column or row: hex names have at most three digits a part. Beside the grid it bounds
/// (its schema's ranges name it); listed with the other shared limits in [`crate::limits`].
pub const MAX_HEXES_PER_SIDE: u32 = 999;

/// The grid's geometry and numbering.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    pub orientation: Orientation,
    pub shifted: Shifted,
    /// The printed number of the first (westmost) column.
    #[schemars(range(max = MAX_HEXES_PER_SIDE))]
    pub first_column: u32,
    /// The printed number of the first (northmost) row.
    #[schemars(range(max = MAX_HEXES_PER_SIDE))]
    pub first_row: u32,
    /// Number of columns.
    #[schemars(range(min = 1, max = MAX_HEXES_PER_SIDE))]
    pub columns: u32,
    /// Number of rows.
    #[schemars(range(min = 1, max = MAX_HEXES_PER_SIDE))]
    pub rows: u32,
    /// How hexes are named.
    #[serde(default)]
    pub hex_names: HexNaming,
}

/// The cost to enter a hex (or cross a hexside) for one kind of unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum MoveCost {
    /// This many movement points.
    Mp(#[schemars(range(max = 20))] u8),
    /// All of the unit's movement for the turn (Denain 7.5: crossing a bridge).
    AllMp,
    /// Half of the unit's movement points (Denain 7.6: a redoubt that is not part of the camp,
    /// entered while no enemy defends it).
    HalfMp,
    /// The unit may not enter (and cavalry may not attack into it: Denain 11.2).
    Impassable,
}

/// What a terrain type or overlay does in the rules (Terrain Table; Denain 6, 7, 10.2, 11.1, 11.4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effects {
    /// Movement cost for every kind not listed in `cost_by_kind` (absent: 1 MP for terrain, no
    /// change for an overlay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<MoveCost>,
    /// Movement cost by unit movement class (`"cavalry": Impassable`).
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub cost_by_kind: BTreeMap<Id, MoveCost>,
    /// Protection value added to fire against a unit here (Denain 11.1: redoubt 2, town 1).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    #[schemars(range(max = 5))]
    pub protection: u8,
    /// A unit defending here has its combat strength multiplied by this ("2× defence": 2),
    /// beside any additive `protection`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 2, max = 4))]
    pub defence_multiplier: Option<u8>,
    /// Artillery may not fire through or into it (a wood that "blocks artillery").
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_fire: bool,
    /// Blocks line of sight (Denain 10.2: town, forest, elevation, fortifications, redoubts).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_sight: bool,
    /// No zone of control extends into it (Denain 6: forest, redoubt, town).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_zoc: bool,
    /// Built-up: cavalry attacking into it shifts one column left (Denain 11.4).
    #[serde(default, skip_serializing_if = "is_false")]
    pub built_up: bool,
    /// An elevated position: sight from it is blocked only next to the target (Denain 10.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub elevated: bool,
    /// Counts as a redoubt: infantry here has six front hexsides and a ZOC all round (2, 6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub redoubt: bool,
    /// Movement points gained when a whole move is on this (Denain 7: roads +1).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    #[schemars(range(max = 5))]
    pub road_bonus_mp: u8,
    /// A unit may enter only through a breach it has made first (Denain 7.6: the redoubts of
    /// the camp, 2313, 2109 and 1613); `cost` applies once it is breached. Without it a
    /// redoubt is entered for its cost (Denain 7.6's other redoubts: `HalfMp`; Fontenoy's, and
    /// Fontenoy village, 0.2, for their Terrain Table cost).
    #[serde(default, skip_serializing_if = "is_false")]
    pub needs_breach: bool,
}

impl Effects {
    /// True when the effects are all absent (the default), so they are left out of the file.
    pub fn is_none(&self) -> bool {
        *self == Effects::default()
    }
}

/// A fill pattern drawn over the colour where colour alone is not enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Pattern {
    Trees,
    Marsh,
    Dots,
    Hatch,
    Buildings,
    Water,
}

/// A terrain type of the legend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    pub colour: Colour,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
    /// Water terrain (a river hex): a bridge overlay may stand on it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub water: bool,
    /// What it does in the rules.
    #[serde(default, skip_serializing_if = "Effects::is_none")]
    pub effects: Effects,
}

/// How an overlay is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum OverlaySymbol {
    Redoubt,
    Town,
    Bridge,
    Road,
    Fortification,
    Marker,
}

/// An overlay type of the legend: something placed on a hex over its terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverlayType {
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    pub symbol: OverlaySymbol,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// A bridge: it must stand where water is (a water hex or a hex with a water hexside).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bridge: bool,
    /// What it does in the rules.
    #[serde(default, skip_serializing_if = "Effects::is_none")]
    pub effects: Effects,
}

/// How a hexside feature is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexsideSymbol {
    River,
    Stream,
    Road,
    Bridge,
    Fortification,
}

/// A hexside feature type of the legend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexsideType {
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    pub symbol: HexsideSymbol,
    pub colour: Colour,
    /// Water (river, stream): blocks zones of control (Denain 6) and carries bridges.
    #[serde(default, skip_serializing_if = "is_false")]
    pub water: bool,
    /// A bridge: it must lie on a water hexside.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bridge: bool,
    /// No zone of control extends across it (Denain 6: stream or river).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_zoc: bool,
    /// Must be breached before it can be crossed (Denain 7.6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub needs_breach: bool,
    /// Extra cost to cross, for every kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<MoveCost>,
    /// Extra cost to cross, by unit movement class.
    #[serde(
        deserialize_with = "crate::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub cost_by_kind: BTreeMap<Id, MoveCost>,
}

/// The model of a fit from grid to image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum FitKind {
    /// Rotation, uniform scale, translation (4 parameters).
    Similarity,
    /// Any linear map plus translation (6 parameters).
    Affine,
    /// A homography, for scans photographed at an angle (8 parameters).
    Projective,
}

/// A calibration point: the centre of a named hex, clicked on the image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControlPoint {
    pub hex: HexName,
    /// Image pixel x, from the left.
    pub x: f64,
    /// Image pixel y, from the top.
    pub y: f64,
}

/// A scanned map under the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Background {
    /// The image, relative to the map file.
    #[schemars(length(min = 1))]
    pub image: String,
    pub fit: FitKind,
    /// Row-major 3×3 matrix taking grid coordinates (see `Grid::centre`) to image pixels.
    pub grid_to_image: [f64; 9],
    /// The points the fit was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub control_points: Vec<ControlPoint>,
}
