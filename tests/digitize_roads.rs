//! `bataille digitize` writes the roads drawn through the hexes as the map's `paths` and
//! `overlays`, end to end through the real binary: Napoleon at Waterloo's map rendered by
//! `bataille render` (its roads drawn along the paths the file states), digitised from four
//! clicked hex centres, three sample hexes per terrain and three marked road crossings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use bataille_digitize::files::{
    CalibrationFile, SamplesFile, calibration_to_string, samples_to_string,
};
use bataille_digitize::paths::{crossings_of_paths, hexes_of_paths};
use bataille_render::{Layout, RenderOptions};
use bataille_schema::map::{ControlPoint, FitKind};
use bataille_schema::{HexIndex, HexName, Id, Map, load_map};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bataille(args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(root());
    support::output_within(command, std::time::Duration::from_secs(300))
}

fn ok(output: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Renders the map as a scan and writes the calibration and samples files a volunteer would
/// make for it, marking `crossings` of the road; returns the three paths.
fn volunteer(
    dir: &Path,
    map: &Map,
    crossings: &[(HexIndex, bataille_schema::Side)],
) -> [PathBuf; 3] {
    let scan = dir.join("naw.png");
    ok(&bataille(&[
        "render",
        "maps/napoleon-at-waterloo.ron",
        "--out",
        scan.to_str().unwrap(),
        "--scale",
        "48",
        "--no-hex-names",
        "--no-labels",
    ]));
    let grid = &map.grid;
    let layout = Layout::new(
        grid,
        &RenderOptions {
            px_per_hex: 48.0,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    let points = [(1, 1), (21, 1), (1, 14), (21, 14)]
        .map(|(col, row)| {
            let index = HexIndex::new(col, row);
            let [x, y] = layout.to_image(grid.centre(index));
            ControlPoint {
                hex: grid.name(index),
                x: f64::from(x),
                y: f64::from(y),
            }
        })
        .to_vec();
    let calibration = dir.join("calibration.ron");
    std::fs::write(
        &calibration,
        calibration_to_string(&CalibrationFile {
            grid: grid.clone(),
            fit: FitKind::Affine,
            points,
        })
        .unwrap(),
    )
    .unwrap();
    // Three hexes of each terrain with no road in them, spread over the map.
    let roads = hexes_of_paths(grid, &map.paths[&Id::from("road")]);
    let mut samples: BTreeMap<String, Vec<HexName>> = BTreeMap::new();
    for code in map.terrain.keys() {
        let of: Vec<HexIndex> = grid
            .indices()
            .filter(|i| {
                map.rows[i.row as usize].chars().nth(i.col as usize) == code.chars().next()
                    && !roads.contains(i)
                    // Not the last row (the short columns end before it).
                    && i.row + 1 != grid.rows
            })
            .collect();
        if of.is_empty() {
            // Wooded road: every such hex has the road.
            continue;
        }
        let picks: BTreeSet<HexIndex> = [0, of.len() / 2, of.len() - 1]
            .map(|k| of[k])
            .into_iter()
            .collect();
        samples.insert(code.clone(), picks.iter().map(|i| grid.name(*i)).collect());
    }
    let samples_path = dir.join("samples.ron");
    std::fs::write(
        &samples_path,
        samples_to_string(&SamplesFile {
            name: Some("Waterloo, digitised".into()),
            terrain: map.terrain.clone(),
            samples,
            hexside_types: Default::default(),
            hexside_samples: Default::default(),
            plain_hexsides: Vec::new(),
            overlay_types: map.overlay_types.clone(),
            path_samples: BTreeMap::from([(
                Id::from("road"),
                crossings
                    .iter()
                    .map(|(i, s)| grid.hexside_ref(*i, *s))
                    .collect(),
            )]),
        })
        .unwrap(),
    )
    .unwrap();
    [scan, calibration, samples_path]
}

#[test]
fn digitize_gives_back_the_roads_of_a_rendered_map_as_paths() {
    let dir = tempfile::tempdir().unwrap();
    let original = load_map(&root().join("maps/napoleon-at-waterloo.ron"))
        .unwrap()
        .map;
    let grid = &original.grid;
    let road = Id::from("road");
    let truth = crossings_of_paths(grid, &original.paths[&road]);
    let list: Vec<_> = truth.iter().copied().collect();
    let marked = [list[3], list[list.len() / 2], list[list.len() - 4]];
    let [scan, calibration, samples] = volunteer(dir.path(), &original, &marked);
    let out = dir.path().join("digitised.ron");
    let args = |format: &'static str| {
        [
            "digitize",
            scan.to_str().unwrap(),
            "--calibration",
            calibration.to_str().unwrap(),
            "--samples",
            samples.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--format",
            format,
        ]
        .map(str::to_owned)
    };
    let human = ok(&bataille(&args("human").each_ref().map(String::as_str)));
    assert!(human.contains("paths: "), "{human}");
    assert!(human.contains("paths written"), "{human}");

    let json = ok(&bataille(&args("json").each_ref().map(String::as_str)));
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let paths = &report["paths"];
    assert!(paths["doubtful"].is_array(), "{json}");
    assert!(paths["crossed"].as_u64().unwrap() > 40, "{json}");

    let digitised = load_map(&out).unwrap().map;
    let written = &digitised.paths[&road];
    // Where the roads leave the map (`"1001/N 1002 …"`): the paths end by those hexsides.
    let exits = |paths: &[String]| -> BTreeSet<String> {
        paths
            .iter()
            .flat_map(|p| p.split_whitespace())
            .filter(|t| t.contains('/'))
            .map(str::to_owned)
            .collect()
    };
    let (exits_truth, exits_written) = (exits(&original.paths[&road]), exits(written));
    assert_eq!(exits_truth.len(), 5, "{exits_truth:?}");
    assert!(
        exits_written.is_subset(&exits_truth)
            && exits_truth.intersection(&exits_written).count() >= 4,
        "{exits_written:?} of {exits_truth:?}: {written:?}"
    );
    let found = crossings_of_paths(grid, written);
    let hits = truth.intersection(&found).count();
    let wrong = found.difference(&truth).count();
    assert!(
        hits * 100 >= truth.len() * 90 && wrong * 100 <= truth.len() * 3,
        "{hits} of {} road crossings found, {wrong} wrong: {written:?}",
        truth.len()
    );
    // Each hex the paths pass through carries the road, and nothing else does.
    let on_paths: BTreeSet<HexName> = hexes_of_paths(grid, written)
        .iter()
        .map(|i| grid.name(*i))
        .collect();
    let with_road: BTreeSet<HexName> = digitised
        .overlays
        .iter()
        .filter(|(_, list)| list.contains(&road))
        .map(|(hex, _)| hex.clone())
        .collect();
    assert_eq!(with_road, on_paths);
    assert_eq!(digitised.overlay_types, original.overlay_types);
    // The map written passes the validator (its paths are of neighbouring hexes).
    let validated = bataille(&["validate", out.to_str().unwrap()]);
    assert!(
        validated.status.success(),
        "{}{}",
        String::from_utf8_lossy(&validated.stdout),
        String::from_utf8_lossy(&validated.stderr)
    );
}

#[test]
fn crossings_naming_an_overlay_not_in_the_legend_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let original = load_map(&root().join("maps/napoleon-at-waterloo.ron"))
        .unwrap()
        .map;
    let list: Vec<_> = crossings_of_paths(&original.grid, &original.paths[&Id::from("road")])
        .into_iter()
        .collect();
    let mut map = original.clone();
    map.overlay_types.clear();
    let [scan, calibration, samples] = volunteer(dir.path(), &map, &list[..3]);
    let out = dir.path().join("digitised.ron");
    let output = bataille(&[
        "digitize",
        scan.to_str().unwrap(),
        "--calibration",
        calibration.to_str().unwrap(),
        "--samples",
        samples.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("path samples name overlay `road`"),
        "{stderr}"
    );
    assert!(!out.exists());
}
