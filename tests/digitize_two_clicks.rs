//! `bataille digitize` from two clicks (issue 20: "two should be enough to start"): whatever
//! fit kind the calibration file asks, two named clicks start the grid as a similarity, the
//! print's grid lines refine it, and the kind asked is fitted there. The scan here is stretched
//! (not a similarity), so the two clicks' own fit is several pixels off at the far corners and
//! only the refinement on the print puts the grid right.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "../digitize/tests/common/mod.rs"]
mod common;
mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use bataille_digitize::calibrate::{Matrix, apply, calibrate, multiply};
use bataille_digitize::files::{
    CalibrationFile, SamplesFile, calibration_to_string, samples_to_string,
};
use bataille_schema::map::{ControlPoint, FitKind, Map};
use bataille_schema::{HexIndex, HexName};
use common::{code_at, known_map, rendered, scan_like};

/// The known map rendered, stretched 6 % across (an affine scan, not a similarity), scanned;
/// the scan's path and the grid → scan matrix that made it.
fn stretched_scan(map: &Map, dir: &Path) -> (std::path::PathBuf, Matrix) {
    let (image, layout) = rendered(map, 30.0);
    let stretch = 1.06;
    let wide = image::imageops::resize(
        &image,
        (f64::from(image.width()) * stretch).round() as u32,
        image.height(),
        image::imageops::FilterType::Triangle,
    );
    let sx = f64::from(wide.width()) / f64::from(image.width());
    let (jpeg, to_scan) = scan_like(&wide, -2.0, 1.0, 16, 4.0, 85);
    // The resize maps pixel centres: x' + 0.5 = sx (x + 0.5).
    let widen = [sx, 0.0, 0.5 * (sx - 1.0), 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let truth = multiply(&to_scan, &multiply(&widen, &layout));
    let path = dir.join("scan.jpg");
    std::fs::write(&path, &jpeg).unwrap();
    (path, truth)
}

fn files(map: &Map, dir: &Path, truth: &Matrix, kind: FitKind) -> [std::path::PathBuf; 2] {
    // Two clicks, on opposite corners, to a tenth of a pixel as a user's zoomed clicks.
    let last = (map.grid.columns - 1, map.grid.rows - 1);
    let points = [(0, 0), last]
        .iter()
        .map(|&(c, r)| {
            let index = HexIndex::new(c, r);
            let [gx, gy] = map.grid.centre(index);
            let [x, y] = apply(truth, [f64::from(gx), f64::from(gy)]);
            ControlPoint {
                hex: map.grid.name(index),
                x: (x * 10.0).round() / 10.0,
                y: (y * 10.0).round() / 10.0,
            }
        })
        .collect();
    let calibration = dir.join("calibration.ron");
    let text = calibration_to_string(&CalibrationFile {
        grid: map.grid.clone(),
        fit: kind,
        points,
    })
    .unwrap();
    std::fs::write(&calibration, text).unwrap();
    let of = |code: char| -> Vec<HexName> {
        let all: Vec<HexIndex> = map
            .grid
            .indices()
            .filter(|i| code_at(map, *i) == code)
            .collect();
        vec![map.grid.name(all[0]), map.grid.name(all[all.len() / 2])]
    };
    let samples = dir.join("samples.ron");
    let text = samples_to_string(&SamplesFile {
        name: None,
        terrain: map.terrain.clone(),
        samples: ['c', 'f', 'm', 'h']
            .iter()
            .map(|c| (c.to_string(), of(*c)))
            .collect(),
        hexside_types: Default::default(),
        hexside_samples: Default::default(),
        plain_hexsides: Vec::new(),
        overlay_types: Default::default(),
        path_samples: Default::default(),
    })
    .unwrap();
    std::fs::write(&samples, text).unwrap();
    [calibration, samples]
}

/// Runs `bataille digitize` in `dir`: exit code, standard output and error.
fn digitize(
    dir: &Path,
    scan: &Path,
    files: &[std::path::PathBuf; 2],
    more: &[&str],
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command
        .current_dir(dir)
        .arg("digitize")
        .arg(scan)
        .arg("--calibration")
        .arg(&files[0])
        .arg("--samples")
        .arg(&files[1])
        .arg("--out")
        .arg(dir.join("out.ron"))
        .args(["--format", "json"])
        .args(more);
    let out = support::output_within(command, Duration::from_secs(120));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The largest distance in pixels between where `fitted` and `truth` put the grid's hex centres.
fn worst_px(map: &Map, fitted: &Matrix, truth: &Matrix) -> f64 {
    map.grid
        .indices()
        .map(|i| {
            let [gx, gy] = map.grid.centre(i);
            let g = [f64::from(gx), f64::from(gy)];
            let (a, b) = (apply(fitted, g), apply(truth, g));
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max)
}

#[test]
fn two_clicks_start_an_affine_or_projective_fit_refined_on_the_print() {
    let map = known_map();
    let dir = tempfile::tempdir().unwrap();
    let (scan, truth) = stretched_scan(&map, dir.path());
    for kind in [FitKind::Affine, FitKind::Projective] {
        let files = files(&map, dir.path(), &truth, kind);
        // The two clicks alone: a similarity, pixels off where the scan is stretched.
        let calibration: CalibrationFile =
            bataille_digitize::files::read_calibration(&files[0]).unwrap();
        let similarity = calibrate(&map.grid, &calibration.points, FitKind::Similarity).unwrap();
        let off = worst_px(&map, &similarity.grid_to_image, &truth);
        assert!(
            off > 5.0,
            "the clicks' similarity is already {off:.2} px from the truth"
        );

        let (code, stdout, stderr) = digitize(dir.path(), &scan, &files, &[]);
        assert_eq!(code, 0, "{kind:?}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["fit"]["kind"], "Similarity", "{report}");
        assert_eq!(
            report["refinement"]["kind"],
            format!("{kind:?}"),
            "{report}"
        );
        let written = bataille_schema::load_map(&dir.path().join("out.ron"))
            .unwrap()
            .map;
        let background = written.background.as_ref().unwrap();
        assert_eq!(background.fit, kind);
        assert_eq!(background.control_points.len(), 2);
        let worst = worst_px(&map, &background.grid_to_image, &truth);
        assert!(
            worst < 1.0,
            "{kind:?}: the print's fit is {worst:.2} px off"
        );
        let all: Vec<HexIndex> = map.grid.indices().collect();
        let right = all
            .iter()
            .filter(|i| {
                written.rows[i.row as usize].chars().nth(i.col as usize) == Some(code_at(&map, **i))
            })
            .count();
        assert!(
            right * 100 >= all.len() * 95,
            "{kind:?}: {right}/{}",
            all.len()
        );
    }

    // Without the print, the clicks must fix the kind asked: the error says two are enough
    // when refined.
    let files = files(&map, dir.path(), &truth, FitKind::Affine);
    let (code, _, stderr) = digitize(dir.path(), &scan, &files, &["--no-refine"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the affine fit needs at least 3 control points (got 2)")
            && stderr.contains("two are enough when the grid is refined on the print"),
        "{stderr}"
    );
}

#[test]
fn two_clicks_on_a_scan_without_printed_lines_keep_the_similarity_and_say_so() {
    // A blank sheet: nothing printed to refine on. The two clicks' similarity stands, written
    // as what it is, with a word on how many more clicks the kind asked needs.
    let map = known_map();
    let dir = tempfile::tempdir().unwrap();
    let (_, truth) = stretched_scan(&map, dir.path());
    let blank = image::RgbImage::from_pixel(700, 600, image::Rgb([250, 248, 240]));
    let scan = dir.path().join("blank.png");
    blank.save(&scan).unwrap();
    let files = files(&map, dir.path(), &truth, FitKind::Projective);
    let (code, stdout, stderr) = digitize(dir.path(), &scan, &files, &[]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(report["refinement"].is_null(), "{report}");
    let warnings = report["warnings"].to_string();
    assert!(
        warnings.contains("the clicks' fit is similarity (2 clicks): click 2 more hex centres for the projective fit"),
        "{warnings}"
    );
    let written = bataille_schema::load_map(&dir.path().join("out.ron"))
        .unwrap()
        .map;
    assert_eq!(written.background.unwrap().fit, FitKind::Similarity);
}
