//! The one pass the command and the editor run after the terrain (hexsides, the lines traced,
//! the hexes in doubt judged again with the lines' inks masked) reports its progress to the
//! end and can be cancelled in every step: 100 % means done.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;

use bataille_digitize::classify::{
    ClassifyError, ClassifyOptions, HexsideSamples, mask_line_inks, suggest_hexsides_and_terrain,
    suggest_hexsides_with_inks, suggest_hexsides_with_progress, suggest_terrain,
};
use bataille_schema::{HexIndex, Id, Side};

use common::{code_at, known_map, rendered};

#[test]
fn the_hexside_and_terrain_pass_reports_to_the_end_and_cancels_in_every_step() {
    let mut map = known_map();
    let grid = map.grid.clone();
    // A stream down column 12, so the hexside pass has a feature to learn and trace.
    let chain: Vec<bataille_schema::HexsideRef> = (0..grid.rows)
        .flat_map(|row| {
            let index = HexIndex::new(12, row);
            [Side::NE, Side::SE]
                .into_iter()
                .filter(|side| grid.neighbour(index, *side).is_some())
                .map(|side| grid.hexside_ref(index, side))
                .collect::<Vec<_>>()
        })
        .collect();
    map.hexsides.insert(Id::from("stream"), chain);
    let streams: Vec<(HexIndex, Side)> = map.hexsides["stream"]
        .iter()
        .map(|r| {
            let (index, side) = grid.parse_hexside(r.as_str()).unwrap();
            grid.canonical_hexside(index, side)
        })
        .collect();
    let (mut image, layout) = rendered(&map, 40.0);
    // A clear hex half covered by a brown ink (the lines' inks are masked for such hexes).
    let hex = grid
        .indices()
        .find(|i| code_at(&map, *i) == 'c' && i.col > 2 && i.row > 2 && i.col < 10)
        .unwrap();
    let [gx, gy] = grid.centre(hex);
    let [cx, cy] = bataille_digitize::calibrate::apply(&layout, [f64::from(gx), f64::from(gy)]);
    for (x, y, p) in image.enumerate_pixels_mut() {
        let (dx, dy) = (f64::from(x) + 0.5 - cx, f64::from(y) + 0.5 - cy);
        if dx * dx + dy * dy <= 24.0 * 24.0 && (x / 2) % 20 < 12 {
            *p = image::Rgb([107, 58, 31]);
        }
    }
    let scan = bataille_digitize::Scan::from(image);
    let mapping: bataille_digitize::GridMapping = layout.into();
    let options = ClassifyOptions::default();
    let mut samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for code in ['c', 'f', 'm', 'h'] {
        let of: Vec<HexIndex> = grid
            .indices()
            .filter(|i| code_at(&map, *i) == code)
            .collect();
        samples.insert(code.to_string(), vec![of[0], of[of.len() / 2]]);
    }
    let terrain = suggest_terrain(&scan, &grid, &mapping, &samples, &options).unwrap();
    let hexside_samples = HexsideSamples {
        features: BTreeMap::from([(
            Id::from("stream"),
            vec![streams[2], streams[12], streams[20]],
        )]),
        ..HexsideSamples::default()
    }
    .with_legend(&map.hexside_types, &map.terrain);

    let run = |cancel_at: Option<usize>| {
        let reports = RefCell::new(Vec::new());
        let progress = |f: f32| {
            let mut r = reports.borrow_mut();
            r.push(f);
            cancel_at != Some(r.len() - 1)
        };
        let result = suggest_hexsides_and_terrain(
            &scan,
            &grid,
            &mapping,
            &terrain,
            &hexside_samples,
            &options,
            &progress,
        );
        (result, reports.into_inner())
    };

    // The hexside step alone reports so many times.
    let alone = RefCell::new(0usize);
    suggest_hexsides_with_progress(
        &scan,
        &grid,
        &mapping,
        &terrain,
        &hexside_samples,
        &options,
        &|_| {
            *alone.borrow_mut() += 1;
            true
        },
    )
    .unwrap();
    let alone = alone.into_inner();

    let (result, reports) = run(None);
    let (_, rejudged) = result.unwrap();
    assert!(
        reports.windows(2).all(|w| w[0] <= w[1]) && reports.iter().all(|f| (0.0..=1.0).contains(f)),
        "{reports:?}"
    );
    assert_eq!(reports.last(), Some(&1.0), "{reports:?}");
    assert_eq!(
        reports.iter().filter(|f| **f >= 1.0).count(),
        1,
        "100 % reported before the end: {reports:?}"
    );
    // The terrain judged again is a step of its own, after the hexsides' reports.
    assert!(
        reports.len() > alone,
        "{} reports, the hexsides alone {alone}: the terrain judged again reports nothing",
        reports.len()
    );
    // Its result is the library's two steps run one after the other.
    let (_, inks) =
        suggest_hexsides_with_inks(&scan, &grid, &mapping, &terrain, &hexside_samples, &options)
            .unwrap();
    assert_eq!(
        rejudged,
        mask_line_inks(&scan, &grid, &mapping, &terrain, &inks, &options)
    );
    assert_ne!(
        rejudged.get(&grid, hex),
        terrain.get(&grid, hex),
        "the crowded hex is judged again"
    );

    // Cancelled at the first report after the hexsides' (the terrain step) and at the last
    // one before it (the lines traced): nothing is returned.
    for at in [alone, alone - 1] {
        let (result, reports) = run(Some(at));
        assert!(
            matches!(result, Err(ClassifyError::Cancelled)),
            "not cancelled at report {at}: {reports:?}"
        );
        assert_eq!(
            reports.len(),
            at + 1,
            "reports after the cancel: {reports:?}"
        );
    }
}
