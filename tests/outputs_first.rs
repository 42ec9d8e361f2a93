//! An output is refused before the work that would fill it (issue 19): `render` drew its
//! picture and `print` made its kit before they found that `--out` names a file they read;
//! `export` always refused first. A picture too large to draw shows the order: the refusal
//! of the output comes first, not the size.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
#![cfg(unix)]

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[test]
fn render_refuses_an_output_naming_its_input_before_drawing() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for folder in ["scenarios", "maps", "systems"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
    }
    for name in [
        "scenarios/denain-1712.ron",
        "maps/denain-1712.ron",
        "systems/age-of-honor.ron",
        "systems/louis-xiv.ron",
    ] {
        std::fs::copy(root.join(name), dir.path().join(name)).unwrap();
    }
    let scenario = std::fs::read(dir.path().join("scenarios/denain-1712.ron")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.current_dir(dir.path()).args([
        "render",
        "scenarios/denain-1712.ron",
        "--scale",
        "100000",
        "--out",
        "scenarios/denain-1712.ron",
    ]);
    let output = support::output_within(command, Duration::from_secs(60));
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("the command reads that file"), "{said}");
    assert!(!said.contains("px"), "the picture was sized first: {said}");
    assert_eq!(
        std::fs::read(dir.path().join("scenarios/denain-1712.ron")).unwrap(),
        scenario
    );
}

/// A map too large for one VASSAL board: the refusal says so, and offers no `--scale`, which
/// `export --vassal` does not have (the renderer's message advised "a smaller scale").
#[test]
fn a_board_too_large_is_refused_without_advice_the_export_cannot_take() {
    use bataille_schema::stress::{StressSize, generate};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let size = StressSize {
        columns: 500,
        rows: 500,
        units: 20,
        corps: 2,
    };
    let (map, scenario) = generate(size, "stress-map.ron");
    bataille_schema::save_map(&dir.path().join("stress-map.ron"), &map).unwrap();
    bataille_schema::save_scenario(&dir.path().join("stress.ron"), &scenario).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.current_dir(dir.path()).args([
        "export",
        "--vassal",
        "stress.ron",
        "--out",
        "stress.vmod",
    ]);
    let output = support::output_within(command, Duration::from_secs(120));
    let said = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("px"), "{said}");
    assert!(!said.contains("scale"), "{said}");
    assert!(!dir.path().join("stress.vmod").exists());
}

/// `export --tiled` refuses its outputs (the `.tmx`, the tileset and the scan's picture)
/// before resampling the scan, the long part: a map whose resampled scan would be too large
/// is refused for the output first. And the outputs it plans are those it writes.
#[test]
fn tiled_refuses_its_outputs_before_resampling_the_scan() {
    use bataille_schema::map::{Background, FitKind};
    use bataille_schema::stress::{StressSize, generate};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let scan = dir.path().join("scan.png");
    image::RgbImage::from_pixel(40, 30, image::Rgb([200, 180, 140]))
        .save(&scan)
        .unwrap();
    let background = |map: &mut bataille_schema::Map| {
        map.background = Some(Background {
            image: "scan.png".into(),
            fit: FitKind::Affine,
            grid_to_image: [10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0],
            control_points: Vec::new(),
        });
    };
    let (mut big, _) = generate(
        StressSize {
            columns: 500,
            rows: 500,
            units: 0,
            corps: 1,
        },
        "m.ron",
    );
    background(&mut big);
    bataille_schema::save_map(&dir.path().join("big.ron"), &big).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command
        .current_dir(dir.path())
        .args(["export", "--tiled", "big.ron", "--out", "big.ron"]);
    let output = support::output_within(command, Duration::from_secs(120));
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("the command reads that file"), "{said}");
    assert!(!said.contains("px"), "the scan was resampled first: {said}");

    let (mut small, _) = generate(
        StressSize {
            columns: 6,
            rows: 5,
            units: 0,
            corps: 1,
        },
        "m.ron",
    );
    background(&mut small);
    let out = dir.path().join("small.tmx");
    let files = bataille_export::tiled::export(&small, None, Some(&scan), "small").unwrap();
    assert_eq!(
        bataille_export::tiled::TiledFiles::planned(&small, Some(&scan), &out),
        files.paths(&out)
    );
    assert_eq!(files.paths(&out).len(), 3);
}
