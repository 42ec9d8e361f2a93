//! The refinement's local correction (a flatbed's bow, a lens) reaches the classification:
//! terrain and hexsides are read through the one grid-to-image mapping
//! ([`bataille_digitize::GridMapping`]) that `Calibrated::mapping` gives, the same the command
//! and the editor use. On a bowed sheet the global fit alone puts hexes and hexsides a third of
//! a hex radius off in the bow: woods that fill only the middle of their hexes, and a river
//! drawn on the grid line, are then read from the wrong pixels.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::BTreeMap;

use bataille_digitize::calibrate::{Matrix, apply, invert, local_scale};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, interior_hexsides, suggest_hexsides, suggest_terrain,
};
use bataille_digitize::colour::srgb_to_lab;
use bataille_digitize::refine::{RefineOptions, calibrate_on_print};
use bataille_digitize::scan::Scan;
use bataille_digitize::trace::{Colours, Line, trace};
use bataille_digitize::{GridMapping, TerrainSuggestions};
use bataille_schema::map::{ControlPoint, FitKind, HexNaming, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex, Id, Side};

const PAPER: [u8; 3] = [236, 228, 200];
const LINE: [u8; 3] = [60, 55, 50];
const WOODS: [u8; 3] = [60, 140, 60];
const RIVER: [u8; 3] = [40, 90, 210];
const RIVER_COLUMN: u32 = 18;

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 24,
        rows: 17,
        hex_names: HexNaming::default(),
    }
}

/// The grid on the flat paper: 12 px a hex radius.
const FLAT: Matrix = [12.0, 0.0, 25.0, 0.0, 12.0, 25.0, 0.0, 0.0, 1.0];
const SIZE: (u32, u32) = (480, 400);

fn woods(hex: HexIndex) -> bool {
    (hex.col * 5 + hex.row * 3).is_multiple_of(4)
}

/// Whether the side `k` (its outward normal at 30° + 60° k, y down) of `hex` carries the
/// river: the east sides of one column's hexes, a line running down the sheet.
fn river(hex: HexIndex, k: usize) -> bool {
    (hex.col == RIVER_COLUMN && (k == 0 || k == 5))
        || (hex.col == RIVER_COLUMN + 1 && (k == 2 || k == 3))
}

/// The bow: the paper lifted along the middle, up to `amplitude` px (image pixels →
/// displacement), as `realmaps`' bowed sheet.
fn bow(amplitude: f64) -> impl Fn([f64; 2]) -> [f64; 2] {
    let (w, h) = (f64::from(SIZE.0), f64::from(SIZE.1));
    move |p: [f64; 2]| {
        let s = (std::f64::consts::PI * p[1] / h).sin();
        [
            amplitude * s * (p[0] / w - 0.5) * 2.0,
            0.6 * amplitude * (std::f64::consts::PI * p[0] / w).sin() * s,
        ]
    }
}

/// A printed sheet bent by `bend`: cream paper, dark hex outlines, woods as a green blob over
/// the middle of their hexes (half the radius: the paper shows around them, as on printed
/// maps), a blue river drawn over the grid line.
fn sheet(grid: &Grid, bend: &dyn Fn([f64; 2]) -> [f64; 2]) -> Scan {
    let inverse = invert(&FLAT).unwrap();
    let apothem = 3f64.sqrt() / 2.0;
    let scale = local_scale(&FLAT, [0.0, 0.0]);
    let image = image::RgbImage::from_fn(SIZE.0, SIZE.1, |i, j| {
        let x = [f64::from(i) + 0.5, f64::from(j) + 0.5];
        let d = bend(x);
        let g = apply(&inverse, [x[0] - d[0], x[1] - d[1]]);
        let Some(hex) = grid.hex_at([g[0] as f32, g[1] as f32]) else {
            return image::Rgb([120, 110, 100]);
        };
        let [cx, cy] = grid.centre(hex);
        let (dx, dy) = (g[0] - f64::from(cx), g[1] - f64::from(cy));
        let mut nearest = (f64::INFINITY, 0);
        for k in 0..6 {
            let a = (k as f64 * 60.0 + 30.0).to_radians();
            let edge = (apothem - (dx * a.cos() + dy * a.sin())) * scale;
            if edge < nearest.0 {
                nearest = (edge, k);
            }
        }
        if nearest.0 < 2.0 && river(hex, nearest.1) {
            return image::Rgb(RIVER);
        }
        if nearest.0 < 1.0 {
            return image::Rgb(LINE);
        }
        if woods(hex) && dx.hypot(dy) < 0.5 {
            return image::Rgb(WOODS);
        }
        image::Rgb(PAPER)
    });
    Scan::from(image)
}

/// The clicks a user makes: five hexes spread over the sheet, at their centres on the bent
/// sheet (to a tenth of a pixel).
fn clicks(grid: &Grid, bend: &dyn Fn([f64; 2]) -> [f64; 2]) -> Vec<ControlPoint> {
    [(1, 1), (22, 1), (1, 15), (22, 15), (12, 8)]
        .into_iter()
        .map(|(c, r)| {
            let index = HexIndex::new(c, r);
            let [x, y] = grid.centre(index);
            let p = apply(&FLAT, [f64::from(x), f64::from(y)]);
            // The paper point p lands at q = p + bend(q): by fixed point.
            let mut q = p;
            for _ in 0..8 {
                let d = bend(q);
                q = [p[0] + d[0], p[1] + d[1]];
            }
            ControlPoint {
                hex: grid.name(index),
                x: q[0],
                y: q[1],
            }
        })
        .collect()
}

fn terrain_samples() -> BTreeMap<String, Vec<HexIndex>> {
    let grid = grid();
    let (mut clear, mut wooded) = (Vec::new(), Vec::new());
    for index in grid
        .indices()
        .filter(|i| i.row == 8 && i.col != RIVER_COLUMN)
    {
        if woods(index) {
            wooded.push(index);
        } else {
            clear.push(index);
        }
    }
    clear.truncate(3);
    wooded.truncate(3);
    BTreeMap::from([("c".to_owned(), clear), ("w".to_owned(), wooded)])
}

/// How many hexes' terrain is wrong.
fn wrong_terrain(grid: &Grid, terrain: &TerrainSuggestions) -> usize {
    grid.indices()
        .filter(|i| {
            let want = if woods(*i) { "w" } else { "c" };
            terrain.get(grid, *i).and_then(|s| s.code.as_deref()) != Some(want)
        })
        .count()
}

/// The river's hexsides (canonical).
fn river_sides(grid: &Grid) -> Vec<(HexIndex, Side)> {
    let all = bataille_schema::geometry::sides(grid.orientation);
    let mut out = Vec::new();
    for index in grid.indices().filter(|i| i.col == RIVER_COLUMN) {
        for side in all {
            if grid
                .neighbour(index, side)
                .is_some_and(|n| n.col == RIVER_COLUMN + 1)
            {
                out.push(grid.canonical_hexside(index, side));
            }
        }
    }
    out
}

/// The river's unmarked hexsides found with the river, how many there are, and the hexsides
/// given a river that have none.
fn river_found(
    grid: &Grid,
    mapping: &GridMapping,
    scan: &Scan,
    terrain: &TerrainSuggestions,
    trace_lines: bool,
) -> (usize, usize, usize) {
    let truth = river_sides(grid);
    let id = Id::from("river");
    // Marked: three of the river's hexsides near the middle of the sheet.
    let marked: Vec<(HexIndex, Side)> = truth.iter().skip(4).take(3).copied().collect();
    let samples = HexsideSamples {
        features: BTreeMap::from([(id.clone(), marked.clone())]),
        ..HexsideSamples::default()
    };
    let options = ClassifyOptions {
        trace_lines,
        ..ClassifyOptions::default()
    };
    let suggestions = suggest_hexsides(scan, grid, mapping, terrain, &samples, &options).unwrap();
    let (mut found, mut false_found) = (0, 0);
    for s in &suggestions {
        let side = grid.canonical_hexside(s.index, s.side);
        let is_river = truth.contains(&side);
        let said = s.feature.as_ref() == Some(&id);
        if is_river && said && !marked.contains(&side) {
            found += 1;
        }
        if !is_river && said {
            false_found += 1;
        }
    }
    (found, truth.len() - marked.len(), false_found)
}

/// How many of the river's hexsides the trace follows its ink along (covered along most of
/// their length).
fn traced(grid: &Grid, mapping: &GridMapping, scan: &Scan, terrain: &TerrainSuggestions) -> usize {
    let truth = river_sides(grid);
    let lines = [Line {
        marked: truth.iter().skip(4).take(3).copied().collect(),
        water: true,
        bridge: false,
        symbol: None,
    }];
    let hex = |i: HexIndex| terrain.get(grid, i).and_then(|s| s.colour);
    let colours = Colours {
        hex: &hex,
        terrain: terrain
            .hexes
            .iter()
            .filter(|s| s.marked)
            .filter_map(|s| s.colour)
            .collect(),
        grid_ink: Some(srgb_to_lab(LINE)),
    };
    let hexsides = interior_hexsides(grid);
    let trace = trace(scan, grid, mapping, &lines, &colours, &hexsides);
    hexsides
        .iter()
        .zip(&trace.coverage)
        .filter(|(h, c)| truth.contains(h) && c[0] >= 0.6)
        .count()
}

#[test]
fn a_bowed_scan_is_classified_through_the_local_correction() {
    let grid = grid();
    // A bow of up to 20 px over a 480 × 400 px sheet of 12 px hexes: the global fit alone is
    // up to 9 px off in it.
    let bend = bow(20.0);
    let scan = sheet(&grid, &bend);
    let calibrated = calibrate_on_print(
        &scan,
        &grid,
        &clicks(&grid, &bend),
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let refinement = calibrated.refinement.as_ref().unwrap();
    assert!(refinement.mapping.warp.is_some(), "{refinement:?}");
    let mapping = calibrated.mapping();
    let global = GridMapping::global(calibrated.grid_to_image());
    let off = grid
        .indices()
        .map(|i| {
            let [x, y] = grid.centre(i);
            let g = [f64::from(x), f64::from(y)];
            let (a, b) = (mapping.map(g), global.map(g));
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max);
    assert!(off > 6.0, "{off}");
    let options = ClassifyOptions::default();
    let samples = terrain_samples();
    let with = suggest_terrain(&scan, &grid, &mapping, &samples, &options).unwrap();
    let without = suggest_terrain(&scan, &grid, &global, &samples, &options).unwrap();
    // Woods filling the middle of their hexes: the global fit reads some of them off the
    // blob, on the paper.
    let (wrong_with, wrong_without) = (wrong_terrain(&grid, &with), wrong_terrain(&grid, &without));
    assert_eq!(
        wrong_with, 0,
        "{wrong_without} without the local correction"
    );
    assert!(wrong_without >= 3, "{wrong_without}");
    // The river drawn on the grid line: the hexside patches sit across the line only with
    // the local correction, the trace follows it the same (with the patch model alone and
    // with the trace).
    for trace_lines in [false, true] {
        let (found, of, false_found) = river_found(&grid, &mapping, &scan, &with, trace_lines);
        assert_eq!((found, false_found), (of, 0), "trace {trace_lines}");
        let (found, _, _) = river_found(&grid, &global, &scan, &without, trace_lines);
        assert!(found + 3 <= of, "trace {trace_lines}: {found} of {of}");
    }
    let all = river_sides(&grid).len();
    assert_eq!(traced(&grid, &mapping, &scan, &with), all);
    let followed = traced(&grid, &global, &scan, &without);
    assert!(followed + 3 <= all, "{followed} of {all}");
}
