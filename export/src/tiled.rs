//! A hexagonal Tiled map (`.tmx`, Tiled 1.8's format) of a map, or of a scenario's map with its
//! units: a generated tileset (one tile per terrain of the legend, in its colour and pattern,
//! drawn by the one symbology), the terrain layer, hexside features as polylines whose type (the
//! class in Tiled's interface) is the feature's id, roads as polylines from hex centre to hex
//! centre (joined as the map draws them), other overlays as points, labels as text objects kept
//! inside the map, units as points whose values are integer properties, and the digitised
//! scan, when there is one, as an image layer.
//!
//! Tiled's hexagonal renderer (libtiled `HexagonalRenderer`) works in whole pixels and rounds
//! odd tile sizes down to even. The tiles here are 64 × 56 with a 32-pixel side on flat maps
//! (56 × 64 on pointy ones): columns 48 px apart, rows 56 px apart, staggered ones 28 px lower —
//! all exact. Tiled's hexes are thus 1% taller than regular ones; the objects are placed by the
//! same affine map from the grid's space (circumradius 1) to Tiled's pixels, and the scan is
//! resampled through it, so nothing drifts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bataille_render::symbology;
use bataille_render::tiny_skia::{Pixmap, Transform};
use bataille_schema::map::OverlaySymbol;
use bataille_schema::scenario::Placement;
use bataille_schema::{HexIndex, Map, Scenario};

use crate::{ExportError, xml};

mod geometry;
mod roads;
mod scan;

pub use geometry::TiledGeometry;
pub use roads::road_chains;
use scan::resample_scan;
pub use scan::{resample, resample_into};

/// Tile width, height and side length on a flat map (swap width and height when pointy).
pub const TILE_LONG: u32 = 64;
pub const TILE_SHORT: u32 = 56;
pub const SIDE: u32 = 32;

/// The files of a Tiled export: the `.tmx` text and the images it refers to (by file name, in
/// the same folder).
#[derive(Debug, Clone)]
pub struct TiledFiles {
    pub tmx: String,
    pub images: Vec<(String, Vec<u8>)>,
}

impl TiledFiles {
    /// Writes the `.tmx` and its images beside it, all or none (see
    /// [`bataille_schema::files::Outputs`]).
    pub fn write(&self, tmx_path: &Path) -> Result<(), bataille_schema::files::WriteError> {
        let mut outputs = bataille_schema::files::Outputs::new();
        self.stage(tmx_path, &mut outputs)?;
        outputs.commit()
    }

    /// Stages the `.tmx` and its images beside it in `outputs` (which refuses to write over
    /// a file the command reads, such as the map's own scan).
    pub fn stage(
        &self,
        tmx_path: &Path,
        outputs: &mut bataille_schema::files::Outputs,
    ) -> Result<(), bataille_schema::files::WriteError> {
        let dir = tmx_path.parent().unwrap_or(Path::new(""));
        outputs.stage(tmx_path, self.tmx.as_bytes())?;
        for (name, bytes) in &self.images {
            outputs.stage(&dir.join(name), bytes)?;
        }
        Ok(())
    }

    /// The files an export of `map` with `scan` writes at `tmx_path` (the `.tmx` first), known
    /// before the export is made: a command refuses them before any work.
    pub fn planned(map: &Map, scan: Option<&Path>, tmx_path: &Path) -> Vec<PathBuf> {
        let stem = stem_of(tmx_path);
        let dir = tmx_path.parent().unwrap_or(Path::new(""));
        let mut paths = vec![tmx_path.to_path_buf(), dir.join(terrain_image(&stem))];
        if map.background.is_some() && scan.is_some() {
            paths.push(dir.join(scan_image(&stem)));
        }
        paths
    }

    /// The files this export writes beside `tmx_path`, the `.tmx` first.
    pub fn paths(&self, tmx_path: &Path) -> Vec<PathBuf> {
        let dir = tmx_path.parent().unwrap_or(Path::new(""));
        std::iter::once(tmx_path.to_path_buf())
            .chain(self.images.iter().map(|(name, _)| dir.join(name)))
            .collect()
    }
}

/// The tileset's picture beside the `.tmx`.
fn terrain_image(stem: &str) -> String {
    format!("{stem}-terrain.png")
}

/// The scan's picture beside the `.tmx`.
fn scan_image(stem: &str) -> String {
    format!("{stem}-scan.png")
}

fn n(value: f64) -> String {
    bataille_render::symbology::num(value as f32)
}

/// The export of a map (and the units of a scenario on it). `scan` is the map's background
/// scan as the door confined it (`bataille_validator::door::MapDocument::background`; `None`:
/// no scan layer); `stem` names the images (`STEM-terrain.png`, `STEM-scan.png`).
pub fn export(
    map: &Map,
    scenario: Option<&Scenario>,
    scan: Option<&Path>,
    stem: &str,
) -> Result<TiledFiles, ExportError> {
    let geometry = TiledGeometry::of(map);
    let grid = &map.grid;
    let codes: Vec<(&String, &bataille_schema::map::TerrainType)> = map.terrain.iter().collect();
    let count = codes.len().max(1) as u32;
    let (tw, th) = (geometry.tile_width, geometry.tile_height);
    // The tileset image: one tile per terrain, in a row.
    let mut atlas = Pixmap::new(tw * count, th).ok_or_else(|| {
        ExportError::Invalid("the legend has too many terrains for a tileset".to_owned())
    })?;
    for (i, (code, _)) in codes.iter().enumerate() {
        let Some(c) = code.chars().next() else {
            continue;
        };
        // Drawn at the tile's pixel size (the symbology's line widths are in pixels), then
        // stretched to Tiled's hex.
        let radius = geometry.scale[0].min(geometry.scale[1]);
        if let Some(drawing) = symbology::terrain_hex(map, c, radius as f32) {
            let t = Transform::from_row(
                (geometry.scale[0] / radius) as f32,
                0.0,
                0.0,
                (geometry.scale[1] / radius) as f32,
                (i as u32 * tw) as f32 + tw as f32 / 2.0,
                th as f32 / 2.0,
            );
            drawing.paint(&mut atlas, t);
        }
    }
    let terrain_png_name = terrain_image(stem);
    let mut images = vec![(
        terrain_png_name.clone(),
        bataille_render::encode_png(&atlas)?,
    )];
    let gid_of: BTreeMap<char, usize> = codes
        .iter()
        .enumerate()
        .filter_map(|(i, (code, _))| code.chars().next().map(|c| (c, i + 1)))
        .collect();
    // The map element names the next free layer and object ids, known once the layers are
    // written: it is put in front of them at the end (never by replacing a placeholder in the
    // whole text, which turned a name holding `{NEXT}` into a number).
    let map_element = |next_layer: usize, next_object: u32| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{}" height="{}" tilewidth="{tw}" tileheight="{th}" infinite="0" hexsidelength="{SIDE}" staggeraxis="{}" staggerindex="{}" nextlayerid="{next_layer}" nextobjectid="{next_object}">
"#,
            grid.columns,
            grid.rows,
            if geometry.stagger_x { "x" } else { "y" },
            if geometry.stagger_even { "even" } else { "odd" },
        )
    };
    let mut out = String::new();
    let _ = writeln!(out, " <properties>");
    let _ = writeln!(
        out,
        r#"  <property name="name" value="{}"/>"#,
        xml(&map.name)
    );
    let _ = writeln!(
        out,
        r#"  <property name="first_column" type="int" value="{}"/>"#,
        grid.first_column
    );
    let _ = writeln!(
        out,
        r#"  <property name="first_row" type="int" value="{}"/>"#,
        grid.first_row
    );
    let _ = writeln!(out, " </properties>");
    let _ = writeln!(
        out,
        r#" <tileset firstgid="1" name="terrain" tilewidth="{tw}" tileheight="{th}" tilecount="{}" columns="{}">"#,
        codes.len(),
        count
    );
    let _ = writeln!(
        out,
        r#"  <image source="{}" width="{}" height="{th}"/>"#,
        xml(&terrain_png_name),
        tw * count
    );
    for (i, (code, terrain)) in codes.iter().enumerate() {
        let _ = writeln!(out, r#"  <tile id="{i}" type="terrain">"#);
        let _ = writeln!(out, "   <properties>");
        let _ = writeln!(out, r#"    <property name="code" value="{}"/>"#, xml(code));
        let _ = writeln!(
            out,
            r#"    <property name="name" value="{}"/>"#,
            xml(&terrain.name)
        );
        let _ = writeln!(out, "   </properties>");
        let _ = writeln!(out, "  </tile>");
    }
    let _ = writeln!(out, " </tileset>");
    let mut layer_id = 1;
    // The scan under everything, resampled into Tiled's pixels.
    let scanned = map.background.as_ref().zip(scan);
    if let Some((background, scan)) = scanned {
        let scan_name = scan_image(stem);
        let png = resample_scan(map, background, scan, &geometry)?;
        images.push((scan_name.clone(), png));
        let _ = writeln!(out, r#" <imagelayer id="{layer_id}" name="scan">"#);
        let _ = writeln!(
            out,
            r#"  <image source="{}" width="{}" height="{}"/>"#,
            xml(&scan_name),
            geometry.width_px,
            geometry.height_px
        );
        let _ = writeln!(out, " </imagelayer>");
        layer_id += 1;
    }
    let _ = writeln!(
        out,
        r#" <layer id="{layer_id}" name="terrain" width="{}" height="{}"{}>"#,
        grid.columns,
        grid.rows,
        if scanned.is_some() {
            r#" opacity="0.6""#
        } else {
            ""
        }
    );
    layer_id += 1;
    let _ = writeln!(out, r#"  <data encoding="csv">"#);
    let rows = map
        .rows
        .iter()
        .map(String::as_str)
        .chain(std::iter::repeat(""));
    let mut lines = Vec::new();
    for text in rows.take(grid.rows as usize) {
        let mut chars = text.chars();
        let cells: Vec<String> = (0..grid.columns)
            .map(|_| {
                chars
                    .next()
                    .and_then(|c| gid_of.get(&c))
                    .map_or_else(|| "0".to_owned(), |g| g.to_string())
            })
            .collect();
        lines.push(cells.join(","));
    }
    let _ = writeln!(out, "{}", lines.join(",\n"));
    let _ = writeln!(out, "  </data>");
    let _ = writeln!(out, " </layer>");
    let mut object_id = 1u32;
    // Hexside features.
    let _ = writeln!(out, r#" <objectgroup id="{layer_id}" name="hexsides">"#);
    layer_id += 1;
    for (feature, refs) in &map.hexsides {
        let Some(kind) = map.hexside_types.get(feature) else {
            continue;
        };
        for hexside in refs {
            let Ok((index, side)) = grid.parse_hexside(hexside.as_str()) else {
                continue;
            };
            let Some([a, b]) = grid.side_corners(index, side) else {
                continue;
            };
            let (a, b) = (geometry.to_tiled(a), geometry.to_tiled(b));
            let _ = writeln!(
                out,
                r#"  <object id="{object_id}" name="{}" type="{}" x="{}" y="{}">"#,
                xml(hexside.as_str()),
                xml(feature.as_str()),
                n(a[0]),
                n(a[1])
            );
            let _ = writeln!(out, "   <properties>");
            let _ = writeln!(
                out,
                r#"    <property name="symbol" value="{:?}"/>"#,
                kind.symbol
            );
            let _ = writeln!(
                out,
                r#"    <property name="colour" type="color" value="{}"/>"#,
                argb(crate::counters::rgb(&kind.colour))
            );
            let _ = writeln!(out, "   </properties>");
            let _ = writeln!(
                out,
                r#"   <polyline points="0,0 {},{}"/>"#,
                n(b[0] - a[0]),
                n(b[1] - a[1])
            );
            let _ = writeln!(out, "  </object>");
            object_id += 1;
        }
    }
    let _ = writeln!(out, " </objectgroup>");
    // Roads: each road overlay's network as polylines from hex centre to hex centre, joined as
    // the renderer joins them (a bend is a bend, not a triangle).
    let _ = writeln!(out, r#" <objectgroup id="{layer_id}" name="roads">"#);
    layer_id += 1;
    let is_road_type = |id: &bataille_schema::Id| {
        map.overlay_types
            .get(id)
            .is_some_and(|o| o.symbol == OverlaySymbol::Road)
    };
    for (id, overlay) in map
        .overlay_types
        .iter()
        .filter(|(_, o)| o.symbol == OverlaySymbol::Road)
    {
        let mut hexes: BTreeSet<HexIndex> = map
            .overlays
            .iter()
            .filter(|(_, ids)| ids.contains(id))
            .filter_map(|(hex, _)| grid.lookup(hex))
            .collect();
        // The paths the map states (`paths`) as they are written; the road hexes no path
        // names joined as the renderer joins them.
        let mut lines: Vec<(Vec<HexIndex>, Vec<[f64; 2]>)> = Vec::new();
        for path in map.paths.get(id).into_iter().flatten() {
            let tokens: Vec<&str> = path.split_whitespace().collect();
            let mut chain = Vec::new();
            let mut points = Vec::new();
            for (t, token) in tokens.iter().enumerate() {
                let (hex, side) = match token.split_once('/') {
                    Some((hex, side)) => (hex, bataille_schema::Side::parse(side)),
                    None => (*token, None),
                };
                let Some(index) = grid.lookup(&hex.into()) else {
                    continue;
                };
                let centre = geometry.to_tiled(grid.centre(index));
                let exit = side
                    .and_then(|side| grid.side_corners(index, side))
                    .map(|[a, b]| {
                        let (a, b) = (geometry.to_tiled(a), geometry.to_tiled(b));
                        [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
                    });
                match exit {
                    Some(exit) if t == 0 => points.extend([exit, centre]),
                    Some(exit) => points.extend([centre, exit]),
                    None => points.push(centre),
                }
                chain.push(index);
                hexes.remove(&index);
            }
            if !chain.is_empty() {
                lines.push((chain, points));
            }
        }
        for chain in road_chains(grid, &hexes) {
            let points = chain
                .iter()
                .map(|index| geometry.to_tiled(grid.centre(*index)))
                .collect();
            lines.push((chain, points));
        }
        for (chain, points) in lines {
            let first = points[0];
            let _ = writeln!(
                out,
                r#"  <object id="{object_id}" name="{}" type="{}" x="{}" y="{}">"#,
                xml(&overlay.name),
                xml(id.as_str()),
                n(first[0]),
                n(first[1])
            );
            let _ = writeln!(out, "   <properties>");
            let hexes: Vec<String> = chain.iter().map(|i| grid.name(*i).to_string()).collect();
            let _ = writeln!(
                out,
                r#"    <property name="hexes" value="{}"/>"#,
                xml(&hexes.join(" "))
            );
            let _ = writeln!(out, "   </properties>");
            if points.len() == 1 {
                let _ = writeln!(out, "   <point/>");
            } else {
                let relative: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", n(p[0] - first[0]), n(p[1] - first[1])))
                    .collect();
                let _ = writeln!(out, r#"   <polyline points="{}"/>"#, relative.join(" "));
            }
            let _ = writeln!(out, "  </object>");
            object_id += 1;
        }
    }
    let _ = writeln!(out, " </objectgroup>");
    // Overlays other than roads.
    let _ = writeln!(out, r#" <objectgroup id="{layer_id}" name="overlays">"#);
    layer_id += 1;
    for (hex, ids) in &map.overlays {
        let Some(index) = grid.lookup(hex) else {
            continue;
        };
        let c = geometry.to_tiled(grid.centre(index));
        for id in ids.iter().filter(|id| !is_road_type(id)) {
            let _ = writeln!(
                out,
                r#"  <object id="{object_id}" name="{}" type="{}" x="{}" y="{}">"#,
                xml(hex.as_str()),
                xml(id.as_str()),
                n(c[0]),
                n(c[1])
            );
            let _ = writeln!(out, "   <point/>");
            let _ = writeln!(out, "  </object>");
            object_id += 1;
        }
    }
    let _ = writeln!(out, " </objectgroup>");
    // Labels.
    let _ = writeln!(out, r#" <objectgroup id="{layer_id}" name="labels">"#);
    layer_id += 1;
    for (hex, text) in &map.labels {
        let Some(index) = grid.lookup(hex) else {
            continue;
        };
        let c = geometry.to_tiled(grid.centre(index));
        let (w, h) = (160.0, 20.0);
        // Inside the map: a name at the edge is moved in rather than cut by it.
        let x = (c[0] - w / 2.0).clamp(0.0, (f64::from(geometry.width_px) - w).max(0.0));
        let y = (c[1] + 0.25 * f64::from(th) - h / 2.0)
            .clamp(0.0, (f64::from(geometry.height_px) - h).max(0.0));
        let _ = writeln!(
            out,
            r#"  <object id="{object_id}" name="{}" type="label" x="{}" y="{}" width="{w}" height="{h}">"#,
            xml(hex.as_str()),
            n(x),
            n(y)
        );
        let _ = writeln!(
            out,
            r#"   <text pixelsize="13" wrap="1" bold="1" halign="center" valign="center">{}</text>"#,
            xml(text)
        );
        let _ = writeln!(out, "  </object>");
        object_id += 1;
    }
    let _ = writeln!(out, " </objectgroup>");
    // Units of a scenario.
    if let Some(scenario) = scenario {
        let _ = writeln!(out, r#" <objectgroup id="{layer_id}" name="units">"#);
        for army in &scenario.armies {
            for unit in &army.units {
                let Some(index) = unit.placement.hex().and_then(|hex| grid.lookup(hex)) else {
                    continue;
                };
                let c = geometry.to_tiled(grid.centre(index));
                let _ = writeln!(
                    out,
                    r#"  <object id="{object_id}" name="{}" type="unit" x="{}" y="{}">"#,
                    xml(&unit.name),
                    n(c[0]),
                    n(c[1])
                );
                let _ = writeln!(out, "   <properties>");
                let mut numbers = Vec::new();
                let mut property = |name: &str, value: String| {
                    let _ = writeln!(
                        out,
                        r#"    <property name="{name}" value="{}"/>"#,
                        xml(&value)
                    );
                };
                property("id", unit.id.as_str().to_owned());
                property("army", army.id.as_str().to_owned());
                property("kind", unit.kind.as_str().to_owned());
                if let Some(corps) = &unit.corps {
                    property("corps", corps.as_str().to_owned());
                }
                if let Some(facing) = unit.facing {
                    property("facing", facing.to_string());
                }
                for (name, value) in [("cp", unit.cp), ("mp", unit.mp), ("morale", unit.morale)] {
                    if let Some(value) = value {
                        numbers.push((name, u32::from(value)));
                    }
                }
                if let Placement::Free { zone, .. } = &unit.placement {
                    property("zone", zone.as_str().to_owned());
                }
                // Values as Tiled's integers, not strings.
                for (name, value) in numbers {
                    let _ = writeln!(
                        out,
                        r#"    <property name="{name}" type="int" value="{value}"/>"#
                    );
                }
                let _ = writeln!(out, "   </properties>");
                let _ = writeln!(out, "   <point/>");
                let _ = writeln!(out, "  </object>");
                object_id += 1;
            }
        }
        let _ = writeln!(out, " </objectgroup>");
    }
    let _ = writeln!(out, "</map>");
    let mut tmx = map_element(layer_id + 1, object_id);
    tmx.push_str(&out);
    Ok(TiledFiles { tmx, images })
}

fn argb([r, g, b]: [u8; 3]) -> String {
    format!("#ff{r:02x}{g:02x}{b:02x}")
}

/// The stem for the export's image files: the `.tmx` file's stem, letters, digits, `-` and
/// `_` kept, anything else `_` (one name chosen by the user: nothing to tell apart).
pub fn stem_of(tmx_path: &Path) -> String {
    let stem: String = tmx_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".to_owned())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if stem.is_empty() {
        "map".to_owned()
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::map::{Orientation, Shifted};
    use bataille_schema::stress::{StressSize, generate};

    /// Every hex centre placed by the affine map is Tiled's own cell centre
    /// (`HexagonalRenderer::tileToScreenCoords` + half a tile), for both orientations and both
    /// staggers, so objects and the scan land on the tiles.
    #[test]
    fn the_affine_map_is_tileds_layout() {
        let (mut map, _) = generate(
            StressSize {
                columns: 7,
                rows: 6,
                units: 0,
                corps: 1,
            },
            "m.ron",
        );
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            for shifted in [Shifted::Odd, Shifted::Even] {
                for first in [0, 1] {
                    map.grid.orientation = orientation;
                    map.grid.shifted = shifted;
                    map.grid.first_column = first;
                    map.grid.first_row = first;
                    let g = TiledGeometry::of(&map);
                    for index in map.grid.indices() {
                        let a = g.to_tiled(map.grid.centre(index));
                        let b = g.tiled_centre(index.col, index.row);
                        assert!(
                            (a[0] - b[0]).abs() < 0.01 && (a[1] - b[1]).abs() < 0.01,
                            "{orientation:?} {shifted:?} first {first}: {index:?} at {a:?}, Tiled {b:?}"
                        );
                    }
                    let last = g.tiled_centre(map.grid.columns - 1, map.grid.rows - 1);
                    assert!(last[0] < f64::from(g.width_px) && last[1] < f64::from(g.height_px));
                }
            }
        }
    }
}
