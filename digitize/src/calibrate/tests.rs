//! The fits and the check ([`super`]).

use super::*;

fn points(m: &Matrix) -> Vec<([f64; 2], [f64; 2])> {
    let grid = [
        [0.0, 0.0],
        [9.0, 1.0],
        [1.5, 12.0],
        [14.0, 10.0],
        [6.0, 5.0],
        [3.0, 8.0],
    ];
    grid.iter().map(|g| (*g, apply(m, *g))).collect()
}

#[test]
fn recovers_exact_maps() {
    let (s, c) = (
        30f64.to_radians().sin() * 40.0,
        30f64.to_radians().cos() * 40.0,
    );
    let similarity = [c, -s, 100.0, s, c, 50.0, 0.0, 0.0, 1.0];
    let affine = [31.0, 4.0, 12.0, -3.0, 29.0, 80.0, 0.0, 0.0, 1.0];
    let projective = [31.0, 4.0, 12.0, -3.0, 29.0, 80.0, 0.002, -0.001, 1.0];
    for (kind, m) in [
        (FitKind::Similarity, similarity),
        (FitKind::Affine, affine),
        (FitKind::Projective, projective),
    ] {
        let fit = fit(kind, &points(&m)).unwrap();
        assert!(fit.rms_px < 1e-6, "{kind:?}: {}", fit.rms_px);
        for (a, b) in fit.grid_to_image.iter().zip(&m) {
            assert!(
                (a - b).abs() < 1e-6 * b.abs().max(1.0),
                "{kind:?}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn residuals_show_a_bad_point() {
    let m = [30.0, 0.0, 10.0, 0.0, 30.0, 20.0, 0.0, 0.0, 1.0];
    let mut pairs: Vec<([f64; 2], [f64; 2])> = (0..12)
        .map(|i| {
            let g = [f64::from(i % 4) * 4.0, f64::from(i / 4) * 5.0];
            (g, apply(&m, g))
        })
        .collect();
    pairs[2].1[0] += 20.0;
    pairs[2].1[1] -= 10.0;
    let fit = fit(FitKind::Affine, &pairs).unwrap();
    let worst = (0..pairs.len())
        .max_by(|&a, &b| fit.residuals_px[a].total_cmp(&fit.residuals_px[b]))
        .unwrap();
    assert_eq!(worst, 2);
    pairs.remove(2);
    assert!(super::fit(FitKind::Affine, &pairs).unwrap().rms_px < 1e-6);
}

/// Six clicks spread over a 32 × 20 map at about 40 px per hex radius, each jittered by
/// under a pixel.
fn clicks(m: &Matrix) -> Vec<([f64; 2], [f64; 2])> {
    let grid = [
        [1.5, 2.6],
        [45.0, 2.6],
        [1.5, 33.0],
        [45.0, 33.0],
        [24.0, 17.3],
        [15.0, 28.6],
    ];
    let jitter = [
        [0.4, -0.3],
        [-0.5, 0.2],
        [0.3, 0.6],
        [-0.2, -0.5],
        [0.6, 0.1],
        [-0.4, 0.4],
    ];
    grid.iter()
        .zip(jitter)
        .map(|(g, j)| {
            let p = apply(m, *g);
            (*g, [p[0] + j[0], p[1] + j[1]])
        })
        .collect()
}

fn names() -> Vec<String> {
    ["0102", "3102", "0120", "3120", "1610", "1117"]
        .map(str::to_owned)
        .to_vec()
}

#[test]
fn a_wrong_click_among_six_is_named_for_affine_and_projective_fits() {
    let affine = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, 0.0, 1.0];
    let keystoned = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, -0.0012, 1.0];
    for (kind, m) in [(FitKind::Affine, affine), (FitKind::Projective, keystoned)] {
        for bad in 0..6 {
            let mut pairs = clicks(&m);
            pairs[bad].1[0] += 7.0;
            pairs[bad].1[1] -= 7.0;
            let checked = check_pairs(kind, &names(), &pairs);
            let suspect = checked
                .suspect
                .as_ref()
                .unwrap_or_else(|| panic!("{kind:?}, point {bad}: none named"));
            assert_eq!(suspect.index, bad, "{kind:?}");
            assert!(suspect.distance_px > 3.0, "{suspect:?}");
            let message = suspect.message();
            assert!(
                message.starts_with(&format!("{} is ", names()[bad]))
                    && message
                        .ends_with("from where the other five put it: re-click it or drop it"),
                "{message}"
            );
        }
        // All six right: nothing to say.
        assert_eq!(
            check_pairs(kind, &names(), &clicks(&m)),
            CalibrationCheck::default(),
            "{kind:?}"
        );
    }
}

#[test]
fn leave_one_out_from_one_fit_agrees_with_refitting() {
    // Forty clicks with sub-pixel jitter and one 9 px off: the linear-time residuals and
    // RMS without each point match refitting without it (exactly for the linear fits, to
    // first order for the projective one), and the check names the same point.
    let keystoned = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, -0.0012, 1.0];
    // Deterministic jitter in [-0.7, 0.7] px (no generator: the tests of the fits use no
    // other module).
    let jitter = |k: f64| 0.7 * (k * 12.9898).sin();
    let mut pairs: Vec<([f64; 2], [f64; 2])> = (0..40)
        .map(|i| {
            let g = [f64::from(i % 8) * 6.0 + 0.5, f64::from(i / 8) * 7.0 + 0.3];
            let p = apply(&keystoned, g);
            (
                g,
                [
                    p[0] + jitter(2.0 * f64::from(i)),
                    p[1] + jitter(2.0 * f64::from(i) + 1.0),
                ],
            )
        })
        .collect();
    pairs[13].1[0] += 9.0;
    for (kind, tolerance) in [
        (FitKind::Similarity, 1e-6),
        (FitKind::Affine, 1e-6),
        (FitKind::Projective, 0.05),
    ] {
        let exact = leave_one_out_exact(kind, &pairs);
        let fast = leave_one_out(kind, &pairs);
        assert_eq!(exact.len(), fast.len(), "{kind:?}");
        for (a, b) in exact.iter().zip(&fast) {
            assert_eq!(a.0, b.0);
            assert!(
                (a.1 - b.1).abs() < tolerance * a.1.max(1.0),
                "{kind:?}: {a:?} {b:?}"
            );
            assert!(
                (a.2 - b.2).abs() < tolerance * a.2.max(1.0),
                "{kind:?}: {a:?} {b:?}"
            );
        }
    }
    let names: Vec<String> = (0..40).map(|i| format!("{i}")).collect();
    let checked = check_pairs(FitKind::Projective, &names, &pairs);
    assert_eq!(checked.suspect.map(|s| s.index), Some(13));
}

#[test]
fn a_keystoned_scan_fitted_affine_is_told_to_use_the_projective_fit() {
    // The far edge 6 % narrower: a photographed sheet.
    let keystoned = [40.0, 0.0, 90.0, 0.0, 39.0, 70.0, 0.0, -0.0017, 1.0];
    let checked = check_pairs(FitKind::Affine, &names(), &clicks(&keystoned));
    assert_eq!(checked.suspect, None);
    let advice = checked.kind_advice.expect("advice");
    assert_eq!(advice.better, FitKind::Projective);
    assert!(
        advice.message().contains("use the projective fit"),
        "{}",
        advice.message()
    );
    let checked = check_pairs(FitKind::Projective, &names(), &clicks(&keystoned));
    assert_eq!(checked, CalibrationCheck::default());
}

#[test]
fn too_few_or_degenerate_points_are_refused() {
    let pairs = [
        ([0.0, 0.0], [1.0, 1.0]),
        ([1.0, 0.0], [2.0, 1.0]),
        ([2.0, 0.0], [3.0, 1.0]),
    ];
    assert!(matches!(
        fit(FitKind::Projective, &pairs),
        Err(CalibrationError::TooFewPoints {
            needed: 4,
            got: 3,
            ..
        })
    ));
    // Three points on a line do not fix an affine map.
    assert!(matches!(
        fit(FitKind::Affine, &pairs),
        Err(CalibrationError::Degenerate(_))
    ));
    let same = [([1.0, 1.0], [5.0, 5.0]); 4];
    assert!(fit(FitKind::Similarity, &same).is_err());
}

#[test]
fn two_clicks_and_hex_size() {
    let m = from_first_centre_and_size([10.0, 20.0], 3f64.sqrt() * 30.0).unwrap();
    assert_eq!(apply(&m, [0.0, 0.0]), [10.0, 20.0]);
    assert!((apply(&m, [1.0, 0.0])[0] - 40.0).abs() < 1e-9);
    assert!(from_first_centre_and_size([0.0, 0.0], -1.0).is_err());
}

#[test]
fn the_check_refuses_a_pixel_that_is_not_a_number_as_the_fit_does() {
    // One reading of the clicks for the fit and its check: the check used to take a NaN pixel
    // into its consensus, where the fit refused it with the point's place.
    let grid = bataille_schema::Grid {
        orientation: bataille_schema::map::Orientation::Flat,
        shifted: bataille_schema::map::Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 14,
        rows: 10,
        hex_names: bataille_schema::map::HexNaming::default(),
    };
    let mut points: Vec<ControlPoint> = [(0, 0), (13, 0), (0, 9), (13, 9), (6, 4), (3, 7)]
        .iter()
        .map(|&(col, row)| {
            let [x, y] = grid.centre(HexIndex::new(col, row));
            ControlPoint {
                hex: grid.name(HexIndex::new(col, row)),
                x: f64::from(x) * 2.0 + 10.0,
                y: f64::from(y) * 2.0 + 5.0,
            }
        })
        .collect();
    assert!(check(&grid, &points, FitKind::Affine).is_ok());
    points[4].y = f64::NAN;
    for result in [
        check(&grid, &points, FitKind::Affine).map(|_| ()),
        calibrate(&grid, &points, FitKind::Affine).map(|_| ()),
    ] {
        assert!(
            matches!(result, Err(CalibrationError::BadPoint { index: 4, .. })),
            "{result:?}"
        );
    }
}
