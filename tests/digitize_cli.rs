//! `bataille digitize` end to end: a rendered scan, a calibration file and a samples file in,
//! a map file out whose rows match the map that was rendered.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "../digitize/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bataille_digitize::calibrate::{apply, multiply};
use bataille_digitize::files::{
    CalibrationFile, SamplesFile, calibration_to_string, parse, read_samples, samples_to_string,
};
use bataille_schema::map::{ControlPoint, FitKind};
use bataille_schema::{HexIndex, HexName, HexsideRef, Id};
use common::{code_at, known_map, rendered, scan_like};

#[test]
fn digitize_writes_a_map_from_a_scan() {
    let map = known_map();
    let (image, layout) = rendered(&map, 30.0);
    let (jpeg, to_scan) = scan_like(&image, -3.0, 1.05, 16, 6.0, 80);
    let truth = multiply(&to_scan, &layout);
    let dir = tempfile::tempdir().unwrap();
    let scan_path = dir.path().join("scan.jpg");
    std::fs::write(&scan_path, &jpeg).unwrap();

    let points = [(0, 0), (15, 0), (0, 11), (15, 11)]
        .iter()
        .map(|&(c, r)| {
            let index = HexIndex::new(c, r);
            let [gx, gy] = map.grid.centre(index);
            let [x, y] = apply(&truth, [f64::from(gx), f64::from(gy)]);
            ControlPoint {
                hex: map.grid.name(index),
                x: (x * 10.0).round() / 10.0,
                y: (y * 10.0).round() / 10.0,
            }
        })
        .collect();
    let calibration = CalibrationFile {
        grid: map.grid.clone(),
        fit: FitKind::Affine,
        points,
    };
    let calibration_path = dir.path().join("calibration.ron");
    let text = calibration_to_string(&calibration).unwrap();
    assert_eq!(parse::<CalibrationFile>("c", &text).unwrap(), calibration);
    std::fs::write(&calibration_path, text).unwrap();

    let all: Vec<HexIndex> = map.grid.indices().collect();
    let samples_of = |code: char| -> Vec<HexName> {
        let of: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| code_at(&map, *i) == code)
            .collect();
        vec![map.grid.name(of[0]), map.grid.name(of[of.len() / 2])]
    };
    let streams = &map.hexsides["stream"];
    let samples = SamplesFile {
        name: Some("Known map".into()),
        terrain: map.terrain.clone(),
        samples: ['c', 'f', 'm', 'h']
            .iter()
            .map(|c| (c.to_string(), samples_of(*c)))
            .collect(),
        hexside_types: map.hexside_types.clone(),
        hexside_samples: [(
            Id::from("stream"),
            vec![streams[2].clone(), streams[7].clone()],
        )]
        .into_iter()
        .collect(),
        plain_hexsides: vec![HexsideRef::from("0303/SE"), HexsideRef::from("0808/N")],
        overlay_types: Default::default(),
        path_samples: Default::default(),
    };
    let samples_path = dir.path().join("samples.ron");
    std::fs::write(&samples_path, samples_to_string(&samples).unwrap()).unwrap();
    assert_eq!(read_samples(&samples_path).unwrap(), samples);

    let out = dir.path().join("maps").join("known.ron");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let args = [
        "digitize".as_ref(),
        scan_path.as_os_str(),
        "--calibration".as_ref(),
        calibration_path.as_os_str(),
        "--samples".as_ref(),
        samples_path.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--doubtful-below".as_ref(),
        "0.25".as_ref(),
    ];
    let (code, _, stderr) = bataille(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let written = bataille_schema::load_map(&out).unwrap().map;
    assert_eq!(written.name, "Known map");
    assert_eq!(written.grid, map.grid);
    let right = all
        .iter()
        .filter(|i| {
            written.rows[i.row as usize].chars().nth(i.col as usize) == Some(code_at(&map, **i))
        })
        .count();
    assert!(right * 100 >= all.len() * 95, "{right}/{}", all.len());
    let background = written.background.unwrap();
    assert_eq!(background.image, "../scan.jpg");
    assert_eq!(background.fit, FitKind::Affine);
    assert_eq!(background.control_points.len(), 4);
    let found = written.hexsides.get("stream").map_or(0, Vec::len);
    assert!(
        found + 2 >= streams.len() && found <= streams.len() + 2,
        "{found} streams"
    );

    // Errors are reported, not panicked: a sample code missing from the legend.
    std::fs::write(
        &samples_path,
        "Samples(terrain: {\".\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"x\": [\"0101\"]})",
    )
    .unwrap();
    let (code, _, error) = bataille(dir.path(), &args);
    assert_eq!(code, 1, "{error}");
    assert!(error.contains("`x`"), "{error}");
    std::fs::write(&samples_path, "Samples(terrain: {").unwrap();
    let (code, _, error) = bataille(dir.path(), &args);
    assert_eq!(code, 1, "{error}");
    assert!(error.contains("samples.ron:1:"), "{error}");
}

/// Runs the real binary in `dir` with a time limit: exit code, standard output and error (read
/// while it runs: a long report does not fill the pipe and block it).
fn bataille(dir: &Path, args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("stdout")));
    let stderr = read(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("bataille {args:?} ran over 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code().unwrap_or(-1),
        stdout.join().expect("stdout read"),
        stderr.join().expect("stderr read"),
    )
}

/// The known map's scan, calibration and samples files written into `dir`: their paths.
fn known_files(dir: &Path) -> [std::path::PathBuf; 3] {
    let map = known_map();
    let (image, layout) = rendered(&map, 30.0);
    let (jpeg, to_scan) = scan_like(&image, -3.0, 1.05, 16, 6.0, 80);
    let truth = multiply(&to_scan, &layout);
    let scan_path = dir.join("scan.jpg");
    std::fs::write(&scan_path, &jpeg).unwrap();
    let points = [(0, 0), (15, 0), (0, 11), (15, 11)]
        .iter()
        .map(|&(c, r)| {
            let index = HexIndex::new(c, r);
            let [gx, gy] = map.grid.centre(index);
            let [x, y] = apply(&truth, [f64::from(gx), f64::from(gy)]);
            ControlPoint {
                hex: map.grid.name(index),
                x,
                y,
            }
        })
        .collect();
    let calibration_path = dir.join("calibration.ron");
    let calibration = CalibrationFile {
        grid: map.grid.clone(),
        fit: FitKind::Affine,
        points,
    };
    std::fs::write(
        &calibration_path,
        calibration_to_string(&calibration).unwrap(),
    )
    .unwrap();
    let all: Vec<HexIndex> = map.grid.indices().collect();
    let samples_of = |code: char| -> Vec<HexName> {
        let of: Vec<HexIndex> = all
            .iter()
            .copied()
            .filter(|i| code_at(&map, *i) == code)
            .collect();
        vec![map.grid.name(of[0]), map.grid.name(of[of.len() / 2])]
    };
    let streams = &map.hexsides["stream"];
    let samples = SamplesFile {
        name: Some("Known map".into()),
        terrain: map.terrain.clone(),
        samples: ['c', 'f', 'm', 'h']
            .iter()
            .map(|c| (c.to_string(), samples_of(*c)))
            .collect(),
        hexside_types: map.hexside_types.clone(),
        hexside_samples: [(
            Id::from("stream"),
            vec![streams[2].clone(), streams[7].clone()],
        )]
        .into_iter()
        .collect(),
        plain_hexsides: Vec::new(),
        overlay_types: Default::default(),
        path_samples: Default::default(),
    };
    let samples_path = dir.join("samples.ron");
    std::fs::write(&samples_path, samples_to_string(&samples).unwrap()).unwrap();
    [scan_path, calibration_path, samples_path]
}

#[test]
fn the_doubtful_lists_are_never_cut_silently_and_json_gives_all_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let [scan, calibration, samples] = known_files(dir.path());
    let out = dir.path().join("out.ron");
    // Everything under confidence 1.01 is doubtful: every hex and hexside is listed.
    let args = |format: &str| -> Vec<std::ffi::OsString> {
        [
            "digitize".as_ref(),
            scan.as_os_str(),
            "--calibration".as_ref(),
            calibration.as_os_str(),
            "--samples".as_ref(),
            samples.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--doubtful-below".as_ref(),
            "1.01".as_ref(),
            "--format".as_ref(),
            format.as_ref(),
        ]
        .iter()
        .map(|a| a.to_os_string())
        .collect()
    };
    let human = args("human");
    let refs: Vec<&std::ffi::OsStr> = human.iter().map(|a| a.as_os_str()).collect();
    let (code, stdout, stderr) = bataille(dir.path(), &refs);
    assert_eq!(code, 0, "{stderr}");
    let line = |prefix: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} line:\n{stdout}"))
            .to_owned()
    };
    // The known map is 16 × 12: 192 hexes, all doubtful here; 40 named, then how many more.
    let terrain = line("terrain:");
    assert!(
        terrain.starts_with("terrain: 192 hexes, 192 with confidence below 1.01: "),
        "{terrain}"
    );
    assert!(
        terrain.ends_with(" … and 152 more (--format json lists them all)"),
        "{terrain}"
    );
    let hexsides = line("hexsides:");
    let listed: usize = hexsides
        .split(", ")
        .nth(2)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{hexsides}"));
    assert!(listed > 40, "{hexsides}");
    assert!(
        hexsides.ends_with(&format!(
            " … and {} more (--format json lists them all)",
            listed - 40
        )),
        "{hexsides}"
    );

    let json = args("json");
    let refs: Vec<&std::ffi::OsStr> = json.iter().map(|a| a.as_os_str()).collect();
    let (code, stdout, stderr) = bataille(dir.path(), &refs);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(report["terrain"]["doubtful"].as_array().unwrap().len(), 192);
    assert_eq!(
        report["hexsides"]["doubtful"].as_array().unwrap().len(),
        listed
    );
    let first = &report["hexsides"]["doubtful"][0];
    assert!(
        first["hexside"].is_string() && first["confidence"].is_number(),
        "{first}"
    );
    assert_eq!(report["fit"]["points"].as_array().unwrap().len(), 4);
    assert!(
        report["refinement"]["sides_with_a_line"].as_u64().unwrap() > 0,
        "{report}"
    );
    // A print drawn on its lattice: no hex takes a centre of its own (reading noise).
    assert_eq!(report["refinement"]["own_centres"], 0, "{report}");
    assert!(report["wrote"].as_str().unwrap().ends_with("out.ron"));
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let [scan, calibration, samples] = known_files(dir.path());
    let out = dir.path().join("out.ron");
    for format in ["human", "json"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bataille"))
            .args(["digitize".as_ref(), scan.as_os_str()])
            .args(["--calibration".as_ref(), calibration.as_os_str()])
            .args(["--samples".as_ref(), samples.as_os_str()])
            .args(["--out".as_ref(), out.as_os_str()])
            .args(["--doubtful-below", "1.01", "--format", format])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        // The reader closes the pipe before anything is written (`| head -0`).
        drop(child.stdout.take());
        let start = Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if start.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
                panic!("bataille digitize ran over 120 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child.wait_with_output().expect("output");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{format}: {stderr}");
        assert!(stderr.is_empty(), "{format}: {stderr}");
        // The map was written before the report.
        assert!(bataille_schema::load_map(&out).is_ok());
    }
}

#[test]
fn the_maps_shape_is_suggested_and_written_only_when_asked() {
    // Napoleon at Waterloo's even columns are one hex shorter (short_lines: Even): the
    // renderer leaves those cells out. The calibration's grid is the full rectangle.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = bataille_schema::load_map(&root.join("maps/napoleon-at-waterloo.ron"))
        .unwrap()
        .map;
    let absent: Vec<String> = map
        .grid
        .indices()
        .filter(|i| map.is_absent(*i))
        .map(|i| map.grid.name(i).to_string())
        .collect();
    assert!(absent.len() >= 10);
    let (image, layout) = rendered(&map, 40.0);
    let dir = tempfile::tempdir().unwrap();
    let scan = dir.path().join("scan.png");
    std::fs::write(&scan, common::png_bytes(&image)).unwrap();
    let last = map.grid.columns - 1;
    let points = [(0, 0), (last, 0), (0, 15), (last, 15)]
        .iter()
        .map(|&(c, r)| {
            let index = HexIndex::new(c, r);
            let [gx, gy] = map.grid.centre(index);
            let [x, y] = apply(&layout, [f64::from(gx), f64::from(gy)]);
            ControlPoint {
                hex: map.grid.name(index),
                x,
                y,
            }
        })
        .collect();
    let calibration = dir.path().join("calibration.ron");
    std::fs::write(
        &calibration,
        calibration_to_string(&CalibrationFile {
            grid: map.grid.clone(),
            fit: FitKind::Affine,
            points,
        })
        .unwrap(),
    )
    .unwrap();
    let of = |code: char| -> Vec<HexName> {
        map.grid
            .indices()
            .filter(|i| !map.is_absent(*i) && code_at(&map, *i) == code)
            .take(2)
            .map(|i| map.grid.name(i))
            .collect()
    };
    let samples = dir.path().join("samples.ron");
    std::fs::write(
        &samples,
        samples_to_string(&SamplesFile {
            name: None,
            terrain: map.terrain.clone(),
            samples: ['.', 'w'].iter().map(|c| (c.to_string(), of(*c))).collect(),
            hexside_types: Default::default(),
            hexside_samples: Default::default(),
            plain_hexsides: Vec::new(),
            overlay_types: Default::default(),
            path_samples: Default::default(),
        })
        .unwrap(),
    )
    .unwrap();
    let out = dir.path().join("out.ron");
    let run = |more: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "digitize".as_ref(),
            scan.as_os_str(),
            "--calibration".as_ref(),
            calibration.as_os_str(),
            "--samples".as_ref(),
            samples.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--doubtful-below".as_ref(),
            "1.01".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
        ];
        args.extend(more.iter().map(|a| std::ffi::OsStr::new(*a)));
        let (code, stdout, stderr) = bataille(dir.path(), &args);
        assert_eq!(code, 0, "{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        (report, bataille_schema::load_map(&out).unwrap().map)
    };
    // Suggested, not written: the absent cells are found, and left out of the doubtful list.
    let (report, written) = run(&[]);
    let shape = &report["shape"];
    let mut missing: Vec<String> = ["half", "off"]
        .iter()
        .flat_map(|k| shape[*k].as_array().unwrap().iter())
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    missing.sort();
    let mut expected = absent.clone();
    expected.sort();
    assert_eq!(missing, expected, "{shape}");
    assert_eq!(shape["short_lines"], "Even");
    assert_eq!(shape["written"], false);
    let doubtful: Vec<&str> = report["terrain"]["doubtful"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["hex"].as_str().unwrap())
        .collect();
    assert_eq!(
        doubtful.len() + absent.len(),
        map.grid.hex_count(),
        "every hex on the print listed (threshold over 1), none of the absent"
    );
    assert!(absent.iter().all(|a| !doubtful.contains(&a.as_str())));
    assert_eq!(written.short_lines, None);
    assert!(written.half_hexes.is_empty());
    // Written when asked.
    let (_, written) = run(&["--apply-shape"]);
    assert_eq!(
        written.short_lines,
        Some(bataille_schema::map::Shifted::Even)
    );
    assert!(written.grid.indices().all(|i| !written.is_absent(i) || {
        written.rows[i.row as usize].chars().nth(i.col as usize) == Some(' ')
    }));
}
