//! `bataille render` and `bataille digitize` end to end through the real binary: render a real
//! map to a PNG, then digitise that picture back into a map as a volunteer would (clicked hex
//! centres, a few sample hexes per terrain) and compare with the original.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use bataille_render::{Layout, RenderOptions};
use bataille_schema::{HexIndex, load_map};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bataille(args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(root());
    support::output_within(command, std::time::Duration::from_secs(120))
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[test]
fn render_draws_a_real_scenario_to_a_png() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("denain.png");
    let output = bataille(&[
        "render",
        "scenarios/denain-1712.ron",
        "--out",
        out.to_str().unwrap(),
        "--scale",
        "30",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (width, height) = png_size(&out);
    // 32 flat columns 1.5 radii apart (26 px at 30 px between neighbours' centres) plus
    // margins; 20 rows of 30 px.
    assert!((820..920).contains(&width), "{width}");
    assert!((600..700).contains(&height), "{height}");
}

#[test]
fn render_of_a_broken_file_names_its_line_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "Map(\n    format_version: 1,\n    name: 12,\n)\n").unwrap();
    let out = dir.path().join("bad.png");
    let output = bataille(&[
        "render",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.ron:3:"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn digitize_turns_a_rendered_map_back_into_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let scan = dir.path().join("scan.png");
    let scale = 36.0;
    let output = bataille(&[
        "render",
        "maps/denain-1712.ron",
        "--out",
        scan.to_str().unwrap(),
        "--scale",
        "36",
        "--no-hex-names",
        "--no-labels",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let original = load_map(&root().join("maps/denain-1712.ron")).unwrap().map;
    let grid = &original.grid;
    let options = RenderOptions {
        px_per_hex: scale,
        ..RenderOptions::default()
    };
    let layout = Layout::new(grid, &options).unwrap();
    // The volunteer clicks four hex centres near the corners.
    let (last_col, last_row) = (grid.columns - 1, grid.rows - 1);
    let points: Vec<String> = [
        (1, 1),
        (last_col - 1, 1),
        (1, last_row - 1),
        (last_col - 1, last_row - 1),
    ]
    .into_iter()
    .map(|(col, row)| {
        let index = HexIndex::new(col, row);
        let [x, y] = layout.to_image(grid.centre(index));
        format!("(hex: \"{}\", x: {x}, y: {y})", grid.name(index))
    })
    .collect();
    let grid_text = format!(
        "(orientation: Flat, shifted: Odd, first_column: {}, first_row: {}, columns: {}, rows: {}, hex_names: (column_digits: 2, row_digits: 2))",
        grid.first_column, grid.first_row, grid.columns, grid.rows
    );
    let calibration = dir.path().join("calibration.ron");
    std::fs::write(
        &calibration,
        format!(
            "Calibration(grid: {grid_text}, fit: Affine, points: [{}])",
            points.join(", ")
        ),
    )
    .unwrap();
    // …and marks three hexes of each terrain, spread along the map's rows.
    let mut samples: BTreeMap<char, Vec<String>> = BTreeMap::new();
    for index in grid.indices() {
        let code = original.rows[index.row as usize]
            .chars()
            .nth(index.col as usize)
            .unwrap();
        let list = samples.entry(code).or_default();
        if list.len() < 3 && (index.col + index.row * 7) % 5 == 0 {
            list.push(format!("\"{}\"", grid.name(index)));
        }
    }
    let legend: Vec<String> = original
        .terrain
        .iter()
        .map(|(code, t)| format!("{code:?}: (name: {:?}, colour: \"{}\")", t.name, t.colour))
        .collect();
    let marked: Vec<String> = samples
        .iter()
        .filter(|(_, hexes)| !hexes.is_empty())
        .map(|(code, hexes)| format!("\"{code}\": [{}]", hexes.join(", ")))
        .collect();
    let samples_path = dir.path().join("samples.ron");
    std::fs::write(
        &samples_path,
        format!(
            "Samples(terrain: {{{}}}, samples: {{{}}})",
            legend.join(", "),
            marked.join(", ")
        ),
    )
    .unwrap();

    let out = dir.path().join("digitised.ron");
    let output = bataille(&[
        "digitize",
        scan.to_str().unwrap(),
        "--calibration",
        calibration.to_str().unwrap(),
        "--samples",
        samples_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("RMS"), "{stdout}");

    let digitised = load_map(&out).unwrap().map;
    assert_eq!(digitised.grid.columns, grid.columns);
    let background = digitised
        .background
        .as_ref()
        .expect("the scan under the grid");
    assert_eq!(background.image, "scan.png");
    let total = grid.hex_count();
    let right = grid
        .indices()
        .filter(|i| {
            let at =
                |map: &bataille_schema::Map| map.rows[i.row as usize].chars().nth(i.col as usize);
            at(&digitised) == at(&original)
        })
        .count();
    assert!(right * 100 >= total * 95, "{right} of {total} hexes right");
}
