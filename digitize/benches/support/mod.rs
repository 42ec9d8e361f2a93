//! A large synthetic scan for the benchmark and the memory example: a 56 × 36 hex map (2,016
//! hexes) rendered onto a 10,000 × 7,000 px canvas and written as JPEG.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bataille_digitize::calibrate::{Matrix, multiply};
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{HexIndex, Map};
use image::{Rgb, RgbImage};

pub const WIDTH: u32 = 10_000;
pub const HEIGHT: u32 = 7_000;

pub fn big_map() -> Map {
    let (mut map, _) = generate(
        StressSize {
            columns: 56,
            rows: 36,
            units: 0,
            corps: 1,
        },
        "big.ron",
    );
    let codes = ['c', 'f', 'm', 'h'];
    map.rows = (0..map.grid.rows)
        .map(|row| {
            (0..map.grid.columns)
                .map(|col| codes[((col / 3 + row / 2 + (col * row) % 5 / 4) % 4) as usize])
                .collect()
        })
        .collect();
    map
}

/// Where the JPEG is kept between runs (it is the same every time).
pub fn scan_path() -> PathBuf {
    std::env::temp_dir().join("bataille-bench-scan-10000x7000.jpg")
}

/// The grid → image matrix of the big scan, the render options and where the render's top
/// left lies on the canvas.
pub fn big_scan_layout(map: &Map) -> (Matrix, RenderOptions, [u32; 2]) {
    let probe = RenderOptions {
        px_per_hex: 100.0,
        margin_px: Some(0.0),
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &probe).expect("layout");
    let px = 100.0
        * ((WIDTH - 200) as f32 / layout.width as f32)
            .min((HEIGHT - 200) as f32 / layout.height as f32);
    let options = RenderOptions {
        px_per_hex: px,
        margin_px: Some(0.0),
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let (ox, oy) = (
        WIDTH.saturating_sub(layout.width) / 2,
        HEIGHT.saturating_sub(layout.height) / 2,
    );
    let shift = [
        1.0,
        0.0,
        f64::from(ox),
        0.0,
        1.0,
        f64::from(oy),
        0.0,
        0.0,
        1.0,
    ];
    (multiply(&shift, &layout.grid_to_image()), options, [ox, oy])
}

/// The grid → image matrix of the big scan.
pub fn big_scan_matrix(map: &Map) -> Matrix {
    big_scan_layout(map).0
}

/// Writes the big scan (when it is not there yet) and returns its path.
pub fn ensure_big_scan(map: &Map) -> PathBuf {
    let path = scan_path();
    if path.exists() {
        return path;
    }
    write_big_scan(map, &path);
    path
}

pub fn write_big_scan(map: &Map, path: &Path) {
    let (_, options, [ox, oy]) = big_scan_layout(map);
    let pixmap = render_map(map, &options).expect("render");
    let mut canvas = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb([250, 248, 240]));
    let w = pixmap.width() as usize;
    for (i, pixel) in pixmap.pixels().iter().enumerate() {
        let c = pixel.demultiply();
        let (x, y) = ((i % w) as u32 + ox, (i / w) as u32 + oy);
        canvas.put_pixel(x, y, Rgb([c.red(), c.green(), c.blue()]));
    }
    drop(pixmap);
    let file = std::fs::File::create(path).expect("create scan");
    let mut out = std::io::BufWriter::new(file);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&canvas)
        .expect("encode scan");
}

/// Two marked hexes per terrain code.
pub fn samples(map: &Map) -> BTreeMap<String, Vec<HexIndex>> {
    let all: Vec<HexIndex> = map.grid.indices().collect();
    let mut samples = BTreeMap::new();
    for code in ['c', 'f', 'm', 'h'] {
        let of: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| map.rows[i.row as usize].chars().nth(i.col as usize) == Some(code))
            .collect();
        samples.insert(code.to_string(), vec![of[0], of[of.len() / 2]]);
    }
    samples
}

/// Six clicks at well-spread hexes of the big scan, each up to a pixel off (as a user's).
pub fn clicks(map: &Map) -> Vec<bataille_schema::map::ControlPoint> {
    let grid = &map.grid;
    let matrix = big_scan_matrix(map);
    let (c, r) = (grid.columns - 1, grid.rows - 1);
    let hexes = [
        (1, 1),
        (c - 1, 1),
        (1, r - 1),
        (c - 1, r - 1),
        (c / 2, r / 2),
        (c / 3, 2),
    ];
    let errors = [
        (0.6, -0.4),
        (-0.9, 0.3),
        (0.2, 0.8),
        (-0.5, -0.7),
        (1.0, 0.1),
        (-0.3, 0.9),
    ];
    hexes
        .iter()
        .zip(errors)
        .map(|(&(col, row), (ex, ey))| {
            let index = HexIndex::new(col, row);
            let [gx, gy] = grid.centre(index);
            let [x, y] =
                bataille_digitize::calibrate::apply(&matrix, [f64::from(gx), f64::from(gy)]);
            bataille_schema::map::ControlPoint {
                hex: grid.name(index),
                x: x + ex,
                y: y + ey,
            }
        })
        .collect()
}

/// Three marked stream hexsides of the big map.
pub fn hexside_samples(map: &Map) -> bataille_digitize::classify::HexsideSamples {
    let streams: Vec<_> = map.hexsides["stream"]
        .iter()
        .take(3)
        .filter_map(|r| map.grid.parse_hexside(r.as_str()).ok())
        .collect();
    bataille_digitize::classify::HexsideSamples {
        features: [(bataille_schema::Id::from("stream"), streams)]
            .into_iter()
            .collect(),
        ..bataille_digitize::classify::HexsideSamples::default()
    }
    .with_legend(&map.hexside_types, &map.terrain)
}

/// What `bataille digitize` runs on a scan once it is read: the clicks fitted and refined on
/// the printed grid lines, the map's shape, the terrain, then the hexsides (the lines traced)
/// and the terrain in doubt judged again with the lines' inks masked. Returns the terrain and
/// the hexsides.
pub fn command_pass(
    scan: &bataille_digitize::Scan,
    map: &Map,
    clicks: &[bataille_schema::map::ControlPoint],
    samples: &BTreeMap<String, Vec<HexIndex>>,
    hexside_samples: &bataille_digitize::classify::HexsideSamples,
) -> (
    bataille_digitize::TerrainSuggestions,
    Vec<bataille_digitize::HexsideSuggestion>,
    bataille_digitize::shape::Shape,
) {
    use bataille_digitize::classify::{
        ClassifyOptions, suggest_hexsides_and_terrain, suggest_terrain,
    };
    use bataille_digitize::refine::{RefineOptions, calibrate_on_print};
    use bataille_digitize::scan::no_progress;
    let grid = &map.grid;
    let calibrated = calibrate_on_print(
        scan,
        grid,
        clicks,
        bataille_schema::map::FitKind::Affine,
        &RefineOptions::default(),
    )
    .expect("calibrate");
    let mapping = calibrated.mapping();
    let shape = match calibrated.refinement.as_ref() {
        Ok(r) => bataille_digitize::shape::from_printed_sides(
            grid,
            &r.printed_sides,
            &|i| r.centre(grid, i),
            scan.width(),
            scan.height(),
        ),
        Err(_) => bataille_digitize::shape::from_scan_bounds(
            grid,
            &mapping.matrix,
            scan.width(),
            scan.height(),
        ),
    };
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(scan, grid, &mapping, samples, &options).expect("terrain");
    let (hexsides, terrain) = suggest_hexsides_and_terrain(
        scan,
        grid,
        &mapping,
        &terrain,
        hexside_samples,
        &options,
        &no_progress,
    )
    .expect("hexsides");
    (terrain, hexsides, shape)
}

/// The big map with roads drawn through the hexes: two from the west edge to the east, two
/// from the north edge to the south, as the map's `paths` and `overlays`.
pub fn big_map_with_roads() -> Map {
    use bataille_schema::Side;
    use bataille_schema::map::{OverlaySymbol, OverlayType};
    let mut map = big_map();
    let grid = map.grid.clone();
    let road = bataille_schema::Id::from("road");
    map.overlay_types.insert(
        road.clone(),
        OverlayType {
            name: "Road".into(),
            symbol: OverlaySymbol::Road,
            colour: None,
            bridge: false,
            effects: Default::default(),
        },
    );
    let walk = |start: HexIndex, steps: &[Side]| {
        let mut hexes = vec![start];
        for s in steps {
            let Some(next) = grid.neighbour(*hexes.last().unwrap(), *s) else {
                break;
            };
            hexes.push(next);
        }
        hexes
    };
    let across: Vec<Side> = (0..grid.columns - 1)
        .map(|c| if c % 4 < 2 { Side::NE } else { Side::SE })
        .collect();
    let down: Vec<Side> = (0..grid.rows - 1)
        .map(|r| if r % 5 == 4 { Side::SE } else { Side::S })
        .collect();
    let roads = [
        walk(HexIndex::new(0, 8), &across),
        walk(HexIndex::new(0, 25), &across),
        walk(HexIndex::new(12, 0), &down),
        walk(HexIndex::new(40, 0), &down),
    ];
    let mut paths = Vec::new();
    for hexes in &roads {
        for h in hexes {
            let list = map.overlays.entry(grid.name(*h)).or_default();
            if !list.contains(&road) {
                list.push(road.clone());
            }
        }
        paths.push(
            hexes
                .iter()
                .map(|h| grid.name(*h).to_string())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    map.paths.insert(road, paths);
    map
}

/// The big scan of [`big_map_with_roads`] (written when missing), kept beside the other.
pub fn ensure_big_roads_scan(map: &Map) -> PathBuf {
    let path = std::env::temp_dir().join("bataille-bench-scan-10000x7000-roads.jpg");
    if !path.exists() {
        write_big_scan(map, &path);
    }
    path
}

/// Three marked crossings of the roads of [`big_map_with_roads`], spread along them.
pub fn road_samples(map: &Map) -> bataille_digitize::classify::PathSamples {
    let road = bataille_schema::Id::from("road");
    let list: Vec<_> = bataille_digitize::paths::crossings_of_paths(&map.grid, &map.paths[&road])
        .into_iter()
        .collect();
    let marked = vec![list[3], list[list.len() / 2], list[list.len() - 4]];
    bataille_digitize::classify::PathSamples {
        lines: [(road, marked)].into_iter().collect(),
    }
}

/// [`command_pass`] with the roads traced too, as `bataille digitize` runs it with marked
/// crossings ([`bataille_digitize::classify::suggest_features`]): returns the terrain, the
/// hexsides and the crossings.
pub fn command_pass_with_roads(
    scan: &bataille_digitize::Scan,
    map: &Map,
    clicks: &[bataille_schema::map::ControlPoint],
    samples: &BTreeMap<String, Vec<HexIndex>>,
    hexside_samples: &bataille_digitize::classify::HexsideSamples,
    paths: &bataille_digitize::classify::PathSamples,
) -> (
    bataille_digitize::TerrainSuggestions,
    Vec<bataille_digitize::HexsideSuggestion>,
    Vec<bataille_digitize::classify::CrossingSuggestion>,
) {
    use bataille_digitize::classify::{ClassifyOptions, suggest_features, suggest_terrain};
    use bataille_digitize::refine::{RefineOptions, calibrate_on_print};
    use bataille_digitize::scan::no_progress;
    let grid = &map.grid;
    let calibrated = calibrate_on_print(
        scan,
        grid,
        clicks,
        bataille_schema::map::FitKind::Affine,
        &RefineOptions::default(),
    )
    .expect("calibrate");
    let mapping = calibrated.mapping();
    if let Ok(r) = calibrated.refinement.as_ref() {
        bataille_digitize::shape::from_printed_sides(
            grid,
            &r.printed_sides,
            &|i| r.centre(grid, i),
            scan.width(),
            scan.height(),
        );
    }
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(scan, grid, &mapping, samples, &options).expect("terrain");
    let found = suggest_features(
        scan,
        grid,
        &mapping,
        &terrain,
        hexside_samples,
        paths,
        &options,
        &no_progress,
    )
    .expect("features");
    (
        found.terrain,
        found.hexsides,
        found.crossings.unwrap_or_default(),
    )
}
