//! The whole digitising path on a known map: render it, distort it like a scan, calibrate from
//! a few clicked hex centres, classify terrain and hexsides, compare with the truth.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

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
    let terrain = suggest_terrain(
        &scan,
        &map.grid,
        &fit.grid_to_image.into(),
        &samples,
        &options,
    )
    .unwrap();
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
        &fit.grid_to_image.into(),
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

/// Three marked hexes per terrain code, spread over the map.
fn terrain_samples(map: &Map) -> BTreeMap<String, Vec<HexIndex>> {
    let all: Vec<HexIndex> = map.grid.indices().collect();
    let mut samples = BTreeMap::new();
    for code in ['c', 'f', 'm', 'h'] {
        let of_code: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| code_at(map, *i) == code && !map.overlays.contains_key(&map.grid.name(*i)))
            .collect();
        let picks = [0, of_code.len() / 2, of_code.len() - 1].map(|k| of_code[k]);
        samples.insert(code.to_string(), picks.to_vec());
    }
    samples
}

#[test]
fn a_plain_hexside_in_a_gap_of_a_chain_is_doubtful() {
    // The stream runs down the map; one of its hexsides is left out of the print, so the scan
    // shows a plain hexside where the chain says a stream: that one is for review, not the
    // other plain hexsides.
    let mut map = known_map();
    // One unbroken chain: the north-east and south-east sides of column 12, top to bottom.
    let grid = map.grid.clone();
    let chain: Vec<bataille_schema::HexsideRef> = (0..grid.rows)
        .flat_map(|row| {
            let index = HexIndex::new(12, row);
            [bataille_schema::Side::NE, bataille_schema::Side::SE]
                .into_iter()
                .filter(|side| grid.neighbour(index, *side).is_some())
                .map(|side| grid.hexside_ref(index, side))
                .collect::<Vec<_>>()
        })
        .collect();
    map.hexsides
        .insert(bataille_schema::Id::from("stream"), chain);
    let streams: Vec<(HexIndex, bataille_schema::Side)> = map.hexsides["stream"]
        .iter()
        .map(|r| map.grid.canonical_hexside_of(r))
        .collect();
    let gap = streams[9];
    let mut printed = map.clone();
    printed.hexsides.get_mut("stream").unwrap().remove(9);
    let (image, layout) = rendered(&printed, 40.0);
    let scan = bataille_digitize::Scan::from(image);
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain_samples(&map),
        &options,
    )
    .unwrap();
    let hexside_samples = HexsideSamples {
        features: BTreeMap::from([(
            bataille_schema::Id::from("stream"),
            vec![streams[2], streams[12], streams[20]],
        )]),
        ..HexsideSamples::default()
    };
    let suggestions = suggest_hexsides(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain,
        &hexside_samples,
        &options,
    )
    .unwrap();
    let at = |h: (HexIndex, bataille_schema::Side)| {
        suggestions.iter().find(|s| (s.index, s.side) == h).unwrap()
    };
    let s = at(gap);
    assert_eq!(s.feature, None, "the scan shows nothing there");
    assert!(
        s.confidence < bataille_digitize::classify::DOUBTFUL_BELOW,
        "a gap in the stream is doubtful, not {:.2}",
        s.confidence
    );
    // The rest of the stream is found, and plain hexsides away from it are not in doubt.
    for h in streams.iter().filter(|h| **h != gap) {
        assert!(at(*h).feature.is_some(), "{h:?} not found");
    }
    let doubtful_plain = suggestions
        .iter()
        .filter(|s| {
            s.feature.is_none()
                && (s.index, s.side) != gap
                && s.confidence < bataille_digitize::classify::DOUBTFUL_BELOW
        })
        .count();
    assert!(
        doubtful_plain * 100 <= suggestions.len() * 3,
        "{doubtful_plain} of {} other plain hexsides in doubt",
        suggestions.len()
    );
}

#[test]
fn a_hex_crowded_by_a_line_ink_is_judged_from_what_is_left() {
    // A clear hex three fifths covered by a brown line's ink: its dominant colour is the ink, so
    // it is wrong or doubtful; with the learnt ink masked, what is left says clear, surely.
    let map = known_map();
    let (mut image, layout) = rendered(&map, 40.0);
    let samples = terrain_samples(&map);
    let marked: Vec<HexIndex> = samples.values().flatten().copied().collect();
    let hex = map
        .grid
        .indices()
        .find(|i| {
            code_at(&map, *i) == 'c'
                && !marked.contains(i)
                && !map.overlays.contains_key(&map.grid.name(*i))
                && !map.labels.contains_key(&map.grid.name(*i))
                && i.col > 2
                && i.row > 2
        })
        .unwrap();
    let ink = [107u8, 58, 31];
    let [gx, gy] = map.grid.centre(hex);
    let [cx, cy] = apply(&layout, [f64::from(gx), f64::from(gy)]);
    let radius =
        0.8 * bataille_digitize::calibrate::local_scale(&layout, [f64::from(gx), f64::from(gy)]);
    for (x, y, p) in image.enumerate_pixels_mut() {
        let (dx, dy) = (f64::from(x) + 0.5 - cx, f64::from(y) + 0.5 - cy);
        if dx * dx + dy * dy <= radius * radius && (x / 2) % 20 < 12 {
            *p = image::Rgb(ink);
        }
    }
    let scan = bataille_digitize::Scan::from(image);
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(&scan, &map.grid, &layout.into(), &samples, &options).unwrap();
    let doubtful = bataille_digitize::classify::DOUBTFUL_BELOW;
    let before = terrain.get(&map.grid, hex).unwrap().clone();
    assert!(
        before.code.as_deref() != Some("c") || before.confidence < doubtful,
        "crowded: {before:?}"
    );
    let masked = bataille_digitize::classify::mask_line_inks(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain,
        &[bataille_digitize::colour::srgb_to_lab(ink)],
        &options,
    );
    let after = masked.get(&map.grid, hex).unwrap();
    assert_eq!(after.code.as_deref(), Some("c"), "{after:?}");
    assert!(after.confidence >= doubtful, "{after:?}");
    // An ink that is a terrain's own colour is not masked: the same as with no ink given
    // (where only a hex's own colour far from every sample's is masked, as the brown here).
    let forest = samples["f"][0];
    let unchanged = bataille_digitize::classify::mask_line_inks(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain,
        &[terrain.get(&map.grid, forest).unwrap().colour.unwrap()],
        &options,
    );
    let no_ink = bataille_digitize::classify::mask_line_inks(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain,
        &[],
        &options,
    );
    assert_eq!(unchanged, no_ink);
    assert!(
        unchanged
            .hexes
            .iter()
            .zip(&terrain.hexes)
            .all(|(a, b)| a == b || a.index == hex),
        "only the crowded hex is judged again"
    );
}

#[test]
fn a_stream_beside_a_water_hex_is_doubtful() {
    // A stream's ink is a water hex's colour, so a bank a little off the fitted grid looks like
    // a stream: one found beside a water hex goes to the review queue, the rest of it does not.
    let mut map = known_map();
    let grid = map.grid.clone();
    let chain: Vec<bataille_schema::HexsideRef> = (0..grid.rows)
        .flat_map(|row| {
            let index = HexIndex::new(12, row);
            [bataille_schema::Side::NE, bataille_schema::Side::SE]
                .into_iter()
                .filter(|side| grid.neighbour(index, *side).is_some())
                .map(|side| grid.hexside_ref(index, side))
                .collect::<Vec<_>>()
        })
        .collect();
    map.hexsides
        .insert(bataille_schema::Id::from("stream"), chain);
    // Marsh is water here; column 12 is clear, column 13 marsh in the top rows.
    map.terrain.get_mut("m").unwrap().water = true;
    for (row, line) in map.rows.iter_mut().enumerate() {
        let mut chars: Vec<char> = line.chars().collect();
        chars[12] = 'c';
        chars[13] = if row < 5 { 'm' } else { 'c' };
        *line = chars.into_iter().collect();
    }
    let streams: Vec<(HexIndex, bataille_schema::Side)> = map.hexsides["stream"]
        .iter()
        .map(|r| map.grid.canonical_hexside_of(r))
        .collect();
    let (image, layout) = rendered(&map, 40.0);
    let scan = bataille_digitize::Scan::from(image);
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain_samples(&map),
        &options,
    )
    .unwrap();
    let hexside_samples = HexsideSamples {
        features: BTreeMap::from([(
            bataille_schema::Id::from("stream"),
            vec![streams[12], streams[16], streams[20]],
        )]),
        ..HexsideSamples::default()
    }
    .with_legend(&map.hexside_types, &map.terrain);
    let suggestions = suggest_hexsides(
        &scan,
        &map.grid,
        &layout.into(),
        &terrain,
        &hexside_samples,
        &options,
    )
    .unwrap();
    let doubtful = bataille_digitize::classify::DOUBTFUL_BELOW;
    let (mut beside, mut away) = (0, 0);
    for s in suggestions
        .iter()
        .filter(|s| streams.contains(&(s.index, s.side)) && !s.marked)
    {
        assert!(s.feature.is_some(), "{:?} not found", (s.index, s.side));
        let wet = [Some(s.index), map.grid.neighbour(s.index, s.side)]
            .into_iter()
            .flatten()
            .any(|i| code_at(&map, i) == 'm');
        if wet {
            beside += 1;
            assert!(s.confidence < doubtful, "{s:?} beside water, not doubtful");
        } else if s.confidence >= doubtful {
            away += 1;
        }
    }
    assert!(beside >= 4, "{beside} stream hexsides beside water");
    assert!(
        away >= 3,
        "only {away} stream hexsides away from water are sure"
    );
}
