//! The whole digitising path on a known map: render it, distort it like a scan, calibrate from
//! a few clicked hex centres, classify terrain and hexsides, compare with the truth.

mod common;

use std::collections::BTreeMap;

use bataille_digitize::calibrate::{apply, calibrate, calibrate_without, multiply};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, interior_hexsides, suggest_hexsides, suggest_terrain,
};
use bataille_digitize::scan::{ScanLimits, decode_scan, no_progress};
use bataille_schema::map::{ControlPoint, FitKind};
use bataille_schema::{HexIndex, Map};

use common::{code_at, known_map, rendered, scan_like};

fn control_points(map: &Map, grid_to_image: &[f64; 9], jitter: f64) -> Vec<ControlPoint> {
    let (c, r) = (map.grid.columns - 1, map.grid.rows - 1);
    let hexes = [(0, 0), (c, 0), (0, r), (c, r), (c / 2, r / 2)];
    hexes
        .iter()
        .enumerate()
        .map(|(i, &(col, row))| {
            let index = HexIndex::new(col, row);
            let [gx, gy] = map.grid.centre(index);
            let [x, y] = apply(grid_to_image, [f64::from(gx), f64::from(gy)]);
            // A deterministic "click" error.
            let e = jitter * if i % 2 == 0 { 1.0 } else { -1.0 };
            ControlPoint {
                hex: map.grid.name(index),
                x: x + e,
                y: y - e * 0.5,
            }
        })
        .collect()
}

fn max_error(map: &Map, fitted: &[f64; 9], truth: &[f64; 9]) -> f64 {
    map.grid
        .indices()
        .map(|index| {
            let [gx, gy] = map.grid.centre(index);
            let g = [f64::from(gx), f64::from(gy)];
            let (a, b) = (apply(fitted, g), apply(truth, g));
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max)
}

#[test]
fn fit_is_exact_on_the_undistorted_render() {
    let map = known_map();
    let (_, layout) = rendered(&map, 30.0);
    let points = control_points(&map, &layout, 0.0);
    for kind in [FitKind::Similarity, FitKind::Affine, FitKind::Projective] {
        let fit = calibrate(&map.grid, &points, kind).unwrap();
        assert!(fit.rms_px < 1.0, "{kind:?}: RMS {}", fit.rms_px);
        assert!(fit.residuals_px.iter().all(|r| *r < 1.0));
        assert!(max_error(&map, &fit.grid_to_image, &layout) < 1.0);
    }
}

#[test]
fn a_distorted_scan_is_calibrated_and_classified() {
    let map = known_map();
    let (image, layout) = rendered(&map, 30.0);
    let (jpeg, to_scan) = scan_like(&image, 4.0, 0.93, 24, 10.0, 70);
    let truth = multiply(&to_scan, &layout);
    let scan = decode_scan(&jpeg, &ScanLimits::default(), &no_progress).unwrap();
    if let Ok(dir) = std::env::var("DIGITIZE_TEST_OUT") {
        std::fs::write(format!("{dir}/scan.jpg"), &jpeg).unwrap();
    }

    // Calibration from five clicks, each off by up to 0.4 px.
    let points = control_points(&map, &truth, 0.4);
    for kind in [FitKind::Similarity, FitKind::Affine, FitKind::Projective] {
        let fit = calibrate(&map.grid, &points, kind).unwrap();
        assert!(fit.rms_px < 1.0, "{kind:?}: RMS {}", fit.rms_px);
        eprintln!("{kind:?}: RMS {:.3} px", fit.rms_px);
        let error = max_error(&map, &fit.grid_to_image, &truth);
        assert!(error < 1.5, "{kind:?}: {error} px off somewhere");
    }
    // Dropping a point refits without it.
    let fit4 = calibrate_without(&map.grid, &points, FitKind::Affine, 4).unwrap();
    assert_eq!(fit4.residuals_px.len(), 4);
    let fit = calibrate(&map.grid, &points, FitKind::Affine).unwrap();

    // Terrain: three marked hexes per code, spread over the map.
    let mut samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    let all: Vec<HexIndex> = map.grid.indices().collect();
    for code in ['c', 'f', 'm', 'h'] {
        let of_code: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| code_at(&map, *i) == code)
            .collect();
        let picks = [0, of_code.len() / 2, of_code.len() - 1].map(|k| of_code[k]);
        samples.insert(code.to_string(), picks.to_vec());
    }
    let options = ClassifyOptions::default();
    let terrain =
        suggest_terrain(&scan, &map.grid, &fit.grid_to_image, &samples, &options).unwrap();
    let unmarked: Vec<_> = terrain.hexes.iter().filter(|s| !s.marked).collect();
    let right = unmarked
        .iter()
        .filter(|s| {
            s.code.as_deref().and_then(|c| c.chars().next()) == Some(code_at(&map, s.index))
        })
        .count();
    let share = right as f64 / unmarked.len() as f64;
    let wrong: Vec<String> = unmarked
        .iter()
        .filter(|s| {
            s.code.as_deref().and_then(|c| c.chars().next()) != Some(code_at(&map, s.index))
        })
        .map(|s| {
            format!(
                "{}:{:?}->{:?} ({:.2})",
                map.grid.name(s.index),
                code_at(&map, s.index),
                s.code,
                s.confidence
            )
        })
        .collect();
    eprintln!(
        "terrain right for {right}/{} unmarked hexes",
        unmarked.len()
    );
    assert!(
        share >= 0.95,
        "terrain right for {right}/{} hexes: {wrong:?}",
        unmarked.len()
    );
    let rows = terrain.rows(&map.grid, '?');
    assert_eq!(rows.len(), map.rows.len());

    // Hexsides: three marked stream hexsides; plain ones from the terrain samples.
    let streams: Vec<(HexIndex, bataille_schema::Side)> = map.hexsides["stream"]
        .iter()
        .map(|r| map.grid.canonical_hexside_of(r))
        .collect();
    let hexside_samples = HexsideSamples {
        features: BTreeMap::from([(
            bataille_schema::Id::from("stream"),
            vec![
                streams[1],
                streams[streams.len() / 2],
                streams[streams.len() - 2],
            ],
        )]),
        plain: Vec::new(),
        ..HexsideSamples::default()
    };
    let suggestions = suggest_hexsides(
        &scan,
        &map.grid,
        &fit.grid_to_image,
        &terrain,
        &hexside_samples,
        &options,
    )
    .unwrap();
    assert_eq!(suggestions.len(), interior_hexsides(&map.grid).len());
    let mut right = 0;
    let mut wrong = Vec::new();
    for s in &suggestions {
        let truth = streams.contains(&(s.index, s.side));
        if s.feature.is_some() == truth {
            right += 1;
        } else {
            wrong.push(map.grid.hexside_ref(s.index, s.side).to_string());
        }
    }
    let share = right as f64 / suggestions.len() as f64;
    eprintln!("hexsides right for {right}/{}", suggestions.len());
    assert!(
        share >= 0.95,
        "hexsides right {right}/{}: {wrong:?}",
        suggestions.len()
    );
}

trait CanonicalOf {
    fn canonical_hexside_of(
        &self,
        r: &bataille_schema::HexsideRef,
    ) -> (HexIndex, bataille_schema::Side);
}

impl CanonicalOf for bataille_schema::Grid {
    fn canonical_hexside_of(
        &self,
        r: &bataille_schema::HexsideRef,
    ) -> (HexIndex, bataille_schema::Side) {
        let (index, side) = self.parse_hexside(r.as_str()).unwrap();
        self.canonical_hexside(index, side)
    }
}
