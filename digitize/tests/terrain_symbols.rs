//! Terrain drawn as symbols over the paper (a village's blocks, a town's), as on real printed
//! maps: the hex's dominant colour is the paper's, so a village marked as a sample teaches the
//! paper's colour. Found on the Arnhem paper scan, where 19 clear hexes of one quadrant were
//! suggested "village" with confidence 0.55-0.78.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::BTreeMap;

use bataille_digitize::Scan;
use bataille_digitize::calibrate::apply;
use bataille_digitize::classify::{ClassifyOptions, DOUBTFUL_BELOW, suggest_terrain};
use bataille_schema::map::{HexNaming, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex};
use image::{Rgb, RgbImage};

const RADIUS_PX: f64 = 40.0;

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 10,
        rows: 8,
        hex_names: HexNaming::default(),
    }
}

/// Villages: grey-blue blocks over a quarter of the hex; forest: a green fill.
fn kind(index: HexIndex) -> char {
    match (index.col, index.row) {
        (2, 2) | (5, 3) | (7, 5) | (3, 6) | (8, 1) => 'v',
        (0, 7) | (1, 7) | (9, 0) => 'f',
        _ => '.',
    }
}

/// The paper is shaded across the sheet (as a scanner's lamp does), a few ΔE from one side to
/// the other, with a fine mottling.
fn scan(grid: &Grid, layout: &[f64; 9]) -> Scan {
    let (w, h) = (700u32, 680u32);
    let mut image = RgbImage::new(w, h);
    let inverse = bataille_digitize::calibrate::invert(layout).unwrap();
    for (x, y, p) in image.enumerate_pixels_mut() {
        let shade = (f64::from(x) / f64::from(w) * 10.0) as u8;
        let mottle = ((x * 7 + y * 13) % 5) as u8;
        let mut rgb = [
            246 - shade - mottle,
            242 - shade - mottle,
            236 - shade - mottle,
        ];
        let g = apply(&inverse, [f64::from(x) + 0.5, f64::from(y) + 0.5]);
        if let Some(index) = grid.hex_at([g[0] as f32, g[1] as f32]) {
            let [cx, cy] = grid.centre(index);
            let local = [g[0] - f64::from(cx), g[1] - f64::from(cy)];
            match kind(index) {
                'f' => rgb = [78, 122, 62],
                'v' => {
                    // Blocks 0.3 across on a 0.45 pitch, within 0.6 of the centre.
                    let (u, v) = (local[0].rem_euclid(0.45), local[1].rem_euclid(0.45));
                    if local[0].hypot(local[1]) < 0.6 && u < 0.25 && v < 0.25 {
                        rgb = [128, 150, 165];
                    }
                }
                _ => {}
            }
        }
        *p = Rgb(rgb);
    }
    Scan::from(image)
}

#[test]
fn a_village_drawn_over_the_paper_is_told_from_the_paper() {
    let grid = grid();
    let layout = [
        RADIUS_PX,
        0.0,
        2.0 * RADIUS_PX,
        0.0,
        RADIUS_PX,
        2.0 * RADIUS_PX,
        0.0,
        0.0,
        1.0,
    ];
    let scan = scan(&grid, &layout);
    // Clear marked at the sheet's shaded sides; the one village marked in the middle, where
    // the paper's shade is between them: by the paper's colour alone, the hexes round it are
    // nearer the village's sample than any clear one.
    let samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::from([
        (
            ".".to_owned(),
            vec![
                HexIndex::new(0, 0),
                HexIndex::new(9, 7),
                HexIndex::new(0, 4),
            ],
        ),
        ("v".to_owned(), vec![HexIndex::new(5, 3)]),
        ("f".to_owned(), vec![HexIndex::new(0, 7)]),
    ]);
    let terrain =
        suggest_terrain(&scan, &grid, &layout, &samples, &ClassifyOptions::default()).unwrap();
    let mut wrong = Vec::new();
    for index in grid.indices() {
        let s = terrain.get(&grid, index).unwrap();
        if s.marked {
            continue;
        }
        let want = kind(index).to_string();
        if s.code.as_deref() != Some(want.as_str()) {
            wrong.push(format!(
                "{} {want}: {:?} {:.2}",
                grid.name(index),
                s.code,
                s.confidence
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
    // The villages found are sure of it: they are not left for review.
    for index in grid.indices().filter(|i| kind(*i) == 'v') {
        let s = terrain.get(&grid, index).unwrap();
        assert!(
            s.confidence >= DOUBTFUL_BELOW,
            "{}: {s:?}",
            grid.name(index)
        );
    }
}
