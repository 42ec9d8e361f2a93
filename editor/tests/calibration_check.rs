//! The Calibrate tab checks itself (issue 12) as `bataille digitize` does: six hex centres
//! clicked on a generated scan, one of them 10 px off, and the tab names that click ("0605 is
//! 10.0 px from where the other five put it…") and marks its row, for an affine and a
//! projective fit; a scan photographed at an angle and fitted affine gets the advice to use
//! the projective fit, with a button that does. The table of a large scan fits the dock.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::services::calibration::kind_name;
use bataille_schema::HexIndex;
use bataille_schema::map::FitKind;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::scan::*;
use common::*;

/// Six hexes spread over the 12 × 9 map, with their names.
const SIX: [((u32, u32), &str); 6] = [
    ((0, 0), "0101"),
    ((11, 0), "1201"),
    ((0, 8), "0109"),
    ((11, 8), "1209"),
    ((5, 4), "0605"),
    ((8, 2), "0903"),
];

/// Imports the scan, turns on "Click hex centres" with the fit `kind`, and clicks the six hex
/// centres where `truth` puts them, the one at `off` that many pixels to the right, naming each.
fn calibrate_six(
    h: &mut H,
    scan: &std::path::Path,
    truth: &[f64; 9],
    kind: FitKind,
    off: (usize, f64),
) {
    import(h, scan);
    h.get_by_label("Calibrate").click();
    h.run();
    h.get_by_label(kind_name(kind)).click();
    settle(h);
    h.get_by_label("✚ Click hex centres").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    for (i, ((col, row), name)) in SIX.iter().enumerate() {
        let error = if i == off.0 { off.1 } else { 0.0 };
        let at = screen_of_scan_hex(h, truth, HexIndex::new(*col, *row), error);
        click_at(h, at);
        assert_eq!(h.state().services.digitise.calibration.points.len(), i + 1);
        type_text_into(h, &format!("Hex of point {}", i + 1), name);
    }
    let app = h.state();
    assert_eq!(app.services.digitise.calibration.points.len(), 6);
    let bg = app.doc.map.background.as_ref().expect("a background");
    assert_eq!(bg.fit, kind);
    assert_eq!(bg.control_points.len(), 6, "every point named");
}

#[test]
fn a_click_the_others_disagree_with_is_named_and_its_row_marked() {
    for kind in [FitKind::Affine, FitKind::Projective] {
        let (dir, map_path, scan, truth) = setup(None);
        let mut h = harness(app_with_file(dir.path(), &map_path));
        h.run();
        let width = h.state().ui.map_rect.width();
        calibrate_six(&mut h, &scan, &truth, kind, (4, 10.0));
        // The table and the messages fit the dock: the map keeps its width (issue 11, trip 8).
        assert_eq!(h.state().ui.map_rect.width(), width, "{kind:?}");
        assert_eq!(
            h.state().services.digitise.calibration.suspect_row(),
            Some(4),
            "{kind:?}"
        );
        h.get_by_label_contains("0605 is ");
        h.get_by_label_contains("px from where the other five put it: re-click it or drop it");
        // Where the others put it: about the 10 px the click was off.
        let distance = h
            .state()
            .services
            .digitise
            .calibration
            .check
            .suspect
            .as_ref()
            .map(|s| s.distance_px)
            .unwrap_or_default();
        assert!((8.0..12.0).contains(&distance), "{kind:?}: {distance} px");
        // Its row is marked, and only its row.
        h.get_by_label("⚠ 5");
        for other in ["⚠ 1", "⚠ 2", "⚠ 3", "⚠ 4", "⚠ 6"] {
            assert!(h.query_by_label(other).is_none(), "{kind:?}: {other}");
        }
        // A fit kind right for the scan: no advice.
        assert!(
            h.query_by_label_contains("use the projective fit")
                .is_none()
        );
        // Dropping it: the others agree, nothing is named.
        let drops: Vec<_> = h.query_all_by_label("Drop").collect();
        drops[4].click();
        h.run();
        assert_eq!(h.state().services.digitise.calibration.suspect_row(), None);
        assert!(h.query_by_label_contains("0605 is ").is_none(), "{kind:?}");
        assert!(h.query_by_label("⚠ 5").is_none(), "{kind:?}");
    }
}

#[test]
fn a_keystoned_scan_fitted_affine_is_advised_the_projective_fit() {
    let (dir, map_path, scan, truth) = setup_with(None, |dir| write_keystoned_scan(dir, 0.1));
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    calibrate_six(&mut h, &scan, &truth, FitKind::Affine, (0, 0.0));
    let advice = h
        .state()
        .services
        .digitise
        .calibration
        .check
        .kind_advice
        .clone()
        .expect("advice");
    assert_eq!(advice.better, FitKind::Projective);
    h.get_by_label_contains("⚠ The affine fit leaves");
    h.get_by_label_contains("use the projective fit");
    // A keystone is not a bad click.
    assert_eq!(h.state().services.digitise.calibration.suspect_row(), None);
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label("Use projective").click();
    h.run();
    let app = h.state();
    let bg = app.doc.map.background.as_ref().expect("a background");
    assert_eq!(bg.fit, FitKind::Projective);
    assert_eq!(app.doc.history().undo_depth(), depth + 1, "one undo step");
    let fit = app
        .services
        .digitise
        .calibration
        .fit
        .clone()
        .expect("a fit")
        .expect("fitted");
    assert!(fit.rms_px < 0.5, "RMS {}", fit.rms_px);
    assert!(
        app.services
            .digitise
            .calibration
            .check
            .kind_advice
            .is_none()
    );
    assert!(
        h.query_by_label_contains("use the projective fit")
            .is_none()
    );
}

/// Issue 11, trip 8 with a real scan's numbers: the Calibrate tab of a 2,400 × 1,800 px scan
/// (pixels of four digits in the table) fits the right dock, so the map keeps its width.
#[test]
fn the_table_of_a_large_scan_fits_the_dock() {
    use bataille_digitize::calibrate::apply;
    use bataille_editor::services::digitise::Tab;
    use bataille_schema::map::{Background, ControlPoint};
    let dir = tempfile::tempdir().expect("dir");
    let scans = dir.path().join("scans");
    std::fs::create_dir_all(&scans).expect("scans dir");
    image::RgbImage::from_pixel(2400, 1800, image::Rgb([236, 228, 206]))
        .save(scans.join("big.png"))
        .expect("a scan");
    let mut map = blank_map(12, 9);
    let matrix = [58.3, 1.1, 131.7, -0.9, 57.9, 142.3, 0.0, 0.0, 1.0];
    let control_points = SIX
        .iter()
        .map(|&((col, row), name)| {
            let [x, y] = map.grid.centre(HexIndex::new(col, row));
            let [px, py] = apply(&matrix, [f64::from(x), f64::from(y)]);
            ControlPoint {
                hex: name.into(),
                x: px + 0.37,
                y: py - 0.41,
            }
        })
        .collect();
    map.background = Some(Background {
        image: "../scans/big.png".into(),
        fit: FitKind::Affine,
        grid_to_image: matrix,
        control_points,
    });
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(&maps).expect("maps dir");
    let map_path = maps.join("map.ron");
    write_map(&map_path, &map);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    let width = h.state().ui.map_rect.width();
    command(
        &mut h,
        bataille_editor::AppCommand::DigitiseOn(Tab::Calibrate),
    );
    h.get_by_label("Hex of point 6");
    assert!(
        h.state().services.digitise.scan.is_some(),
        "the map's scan is loaded"
    );
    assert_eq!(
        h.state().ui.map_rect.width(),
        width,
        "the map keeps its width"
    );
}
