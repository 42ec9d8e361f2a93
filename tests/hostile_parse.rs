//! Hostile input to the parser, run through the real `bataille` binary, each run under a
//! timeout: grids beyond the limits (given directly, through a scenario, to `render` and
//! `digitize`), keys given twice (and `fmt` never losing content), numbers that are not
//! finite, a byte-order mark, comments that `fmt` would drop.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SMALL_MAP: &str = include_str!("fixtures/maps/small.ron");
const FONTENOY: &str = include_str!("fixtures/valid/fontenoy.ron");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `dir` and kills it if it runs over 20 seconds (a hang is a failure).
fn bataille(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bataille binary runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bataille {args:?} ran over 20 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("dir");
        }
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn diagnostics(dir: &Path, file: &str) -> (Vec<Value>, i32) {
    let run = bataille(dir, &["validate", "--format", "json", file]);
    let value: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    (value.as_array().cloned().unwrap_or_default(), run.code)
}

fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> &'a Value {
    diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {diagnostics:#?}"))
}

fn line_of(text: &str, needle: &str) -> u64 {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle in text") as u64
        + 1
}

fn column_of(text: &str, needle: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .expect("needle in text");
    line[..line.find(needle).unwrap_or(0)].chars().count() as u64 + 1
}

fn huge_map(field: &str, value: &str) -> String {
    let pattern = format!("{field}: ");
    let start = SMALL_MAP.find(&pattern).expect("field") + pattern.len();
    let end = start
        + SMALL_MAP[start..]
            .find(|c: char| !c.is_ascii_digit())
            .expect("digits end");
    format!("{}{value}{}", &SMALL_MAP[..start], &SMALL_MAP[end..])
}

fn scenario_on(map: &str) -> String {
    FONTENOY.replacen("map: \"../maps/small.ron\"", &format!("map: \"{map}\""), 1)
}

#[test]
fn a_grid_beyond_the_limit_is_refused_where_it_is_written() {
    for (field, value) in [
        ("columns", "4000000000"),
        ("rows", "1000"),
        ("columns", "0"),
        ("first_row", "4294967295"),
    ] {
        let map = huge_map(field, value);
        let dir = dir_with(&[("huge.ron", &map), ("s.ron", &scenario_on("huge.ron"))]);
        // The map given directly.
        let (d, code) = diagnostics(dir.path(), "huge.ron");
        assert_eq!(code, 1, "{field}: {value}");
        let e = with_code(&d, "E0121");
        assert_eq!(e["line"], line_of(&map, "grid:"), "{e}");
        assert_eq!(
            e["column"],
            column_of(&map, &format!("{field}: {value}")) + field.len() as u64 + 2
        );
        assert!(e["message"].as_str().unwrap().contains(value), "{e}");
        // Through a scenario: the scenario says its map cannot be loaded, the map says why.
        let (d, code) = diagnostics(dir.path(), "s.ron");
        assert_eq!(code, 1);
        with_code(&d, "E0208");
        assert_eq!(with_code(&d, "E0121")["file"], "huge.ron");
        // Every other reader refuses it too, with the place.
        for args in [
            vec!["render", "huge.ron", "--out", "m.png"],
            vec!["render", "s.ron", "--out", "s.png"],
            vec!["export", "--json", "huge.ron"],
            vec!["fmt", "--check", "huge.ron"],
        ] {
            let run = bataille(dir.path(), &args);
            assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("huge.ron:{}:", line_of(&map, "grid:"))),
                "{args:?}: {}",
                run.stderr
            );
            assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        }
        assert!(!dir.path().join("m.png").exists());
    }
}

#[test]
fn digitize_refuses_a_calibration_grid_beyond_the_limit_before_reading_the_scan() {
    let calibration = "Calibration(\n    grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1,\n        columns: 100000, rows: 100000),\n    fit: Similarity,\n    points: [],\n)\n";
    let dir = dir_with(&[
        ("calibration.ron", calibration),
        ("samples.ron", "Samples(terrain: {}, samples: {})\n"),
        ("scan.png", "not read"),
    ]);
    let run = bataille(
        dir.path(),
        &[
            "digitize",
            "scan.png",
            "--calibration",
            "calibration.ron",
            "--samples",
            "samples.ron",
            "--out",
            "map.ron",
        ],
    );
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("calibration.ron:3:") && run.stderr.contains("100000"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("map.ron").exists());
}

#[test]
fn a_key_given_twice_is_refused_and_fmt_keeps_the_file() {
    let cases = [
        (
            "terrain",
            SMALL_MAP.replacen(
                "        \"w\": (",
                "        \"c\": (name: \"Cornfield\", colour: \"#e8d890\"),\n        \"w\": (",
                1,
            ),
            "\"c\": (name: \"Cornfield\"",
        ),
        (
            "labels",
            SMALL_MAP.replacen(
                "        \"0505\": \"Village\",",
                "        \"0303\": \"Mill\",\n        \"0303\": \"Farm\",",
                1,
            ),
            "\"0303\": \"Farm\"",
        ),
        (
            "overlays",
            SMALL_MAP.replacen(
                "        \"0707\": [\"redoubt\"],",
                "        \"0707\": [\"redoubt\"],\n        \"0506\": [\"redoubt\"],",
                1,
            ),
            "\"0506\": [\"redoubt\"]",
        ),
        (
            "cost_by_kind",
            SMALL_MAP.replacen(
                "cost_by_kind: {\"cavalry\": Impassable}",
                "cost_by_kind: {\"cavalry\": Impassable, \"cavalry\": Mp(3)}",
                1,
            ),
            "\"cavalry\": Mp(3)",
        ),
    ];
    for (what, map, second) in cases {
        assert_ne!(map, SMALL_MAP, "{what}");
        let dir = dir_with(&[("m.ron", &map)]);
        let (d, code) = diagnostics(dir.path(), "m.ron");
        assert_eq!(code, 1, "{what}");
        let e = with_code(&d, "E0120");
        assert_eq!(e["line"], line_of(&map, second), "{what}: {e}");
        assert_eq!(e["column"], column_of(&map, second), "{what}: {e}");
        for args in [vec!["fmt", "m.ron"], vec!["fmt", "--check", "m.ron"]] {
            let run = bataille(dir.path(), &args);
            assert_eq!(run.code, 1, "{what}: {args:?}");
            assert!(
                run.stderr.contains("given twice")
                    && run
                        .stderr
                        .contains("never writes a file that would lose content"),
                "{}",
                run.stderr
            );
            let after = std::fs::read_to_string(dir.path().join("m.ron")).expect("read");
            assert_eq!(after, map, "{what}: fmt changed the file");
        }
    }
}

#[test]
fn a_unit_kind_or_rating_given_twice_is_refused() {
    let kinds = FONTENOY.replacen(
        "            \"infantry\": (",
        "            \"cavalry\": (name: \"Hussars\", symbol: Cavalry, combat: true, front_hexsides: 4),\n            \"infantry\": (",
        1,
    );
    assert_ne!(kinds, FONTENOY);
    let dir = dir_with(&[("maps/small.ron", SMALL_MAP), ("s/s.ron", &kinds)]);
    let (d, code) = diagnostics(dir.path(), "s/s.ron");
    assert_eq!(code, 1);
    assert_eq!(
        with_code(&d, "E0120")["line"],
        line_of(&kinds, "\"cavalry\": (name: \"Hussars\"")
    );
}

#[test]
fn numbers_that_are_not_finite_are_refused_and_never_exported_as_null() {
    for value in ["NaN", "inf", "-inf"] {
        let map = SMALL_MAP.replacen(
            "    terrain: {",
            &format!("    metres_per_hex: {value},\n    terrain: {{"),
            1,
        );
        let dir = dir_with(&[("m.ron", &map)]);
        let (d, code) = diagnostics(dir.path(), "m.ron");
        assert_eq!(code, 1, "{value}");
        let e = with_code(&d, "E0122");
        assert_eq!(e["line"], line_of(&map, "metres_per_hex"), "{e}");
        assert_eq!(e["column"], column_of(&map, value), "{e}");
        let export = bataille(dir.path(), &["export", "--json", "m.ron"]);
        assert_eq!(export.code, 1, "{value}");
        assert!(!export.stdout.contains("null"), "{}", export.stdout);
        assert!(
            export.stderr.contains("metres_per_hex"),
            "{}",
            export.stderr
        );
    }
}

#[test]
fn a_byte_order_mark_is_accepted_and_fmt_drops_it() {
    let with_bom = format!("\u{feff}{SMALL_MAP}");
    let dir = dir_with(&[("m.ron", &with_bom)]);
    let (d, _) = diagnostics(dir.path(), "m.ron");
    assert!(
        d.iter()
            .all(|d| d["code"] != "E0103" && d["code"] != "E0101"),
        "{d:#?}"
    );
    // The same diagnostics as without the mark, at the same lines and columns.
    let plain = dir_with(&[("m.ron", SMALL_MAP)]);
    let (without, _) = diagnostics(plain.path(), "m.ron");
    assert_eq!(d, without);

    let check = bataille(dir.path(), &["fmt", "--check", "m.ron"]);
    assert_eq!(check.code, 1, "a file with a mark is not canonical");
    let run = bataille(dir.path(), &["fmt", "m.ron"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let after = std::fs::read(dir.path().join("m.ron")).expect("read");
    assert!(!after.starts_with(b"\xef\xbb\xbf"));
    let run = bataille(plain.path(), &["fmt", "m.ron"]);
    assert_eq!(run.code, 0);
    let plain_after = std::fs::read(plain.path().join("m.ron")).expect("read");
    assert_eq!(after, plain_after, "only the mark differs");

    // A mark before a scenario too, and an error on its first line is placed as editors do.
    let scenario = "\u{feff}Scenario(format_version: 1, title: 7)\n".to_owned();
    let dir = dir_with(&[("s.ron", &scenario)]);
    let (d, _) = diagnostics(dir.path(), "s.ron");
    assert_eq!(d[0]["code"], "E0101", "{d:#?}");
    assert_eq!(d[0]["line"], 1);
    assert_eq!(d[0]["column"], 35, "{d:#?}");
}

#[test]
fn fmt_refuses_to_drop_a_comment() {
    let map = SMALL_MAP.replacen(
        "    rows: [",
        "    // Row 3 is the forest the rules call the bois de Barry.\n    rows: [",
        1,
    );
    let dir = dir_with(&[("m.ron", &map)]);
    let run = bataille(dir.path(), &["fmt", "m.ron"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains(&format!("m.ron:{}:5:", line_of(&map, "bois de Barry")))
            && run
                .stderr
                .contains("never writes a file that would lose content"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("m.ron")).expect("read"),
        map
    );
    // `validate` has nothing against comments.
    let (d, _) = diagnostics(dir.path(), "m.ron");
    let plain = dir_with(&[("m.ron", SMALL_MAP)]);
    assert_eq!(d.len(), diagnostics(plain.path(), "m.ron").0.len());
}

#[test]
fn a_large_report_renders_only_the_lines_concerned() {
    // 3,000 units off the map: 3,000 errors, each showing its own line only.
    let mut units = String::new();
    for i in 0..3000 {
        units.push_str(&format!(
            "                (id: \"u{i}\", name: \"U{i}\", kind: \"infantry\", corps: \"c\", cp: 1, placement: Hex(\"9999\")),\n"
        ));
    }
    let scenario = format!(
        "Scenario(\n    format_version: 1,\n    title: \"t\",\n    map: \"m.ron\",\n    date: \"1745-05-11\",\n    turns: 1,\n    turn_minutes: 60,\n    start_time: \"05:00\",\n    rules: (\n        system: \"vae-victis\",\n        unit_kinds: {{\"infantry\": (name: \"I\", symbol: Infantry, combat: true, front_hexsides: 2)}},\n        stacking: (compositions: [(name: \"one\", terms: [(kinds: [\"infantry\"], max_counters: 1)])]),\n        command: (commander_radius_hexes: 5, leader_radius_hexes: 4),\n    ),\n    armies: [\n        (\n            id: \"a\",\n            name: \"A\",\n            commanders: [(id: \"k\", name: \"K\", commands: [\"c\"])],\n            corps: [(id: \"c\", name: \"C\", colour: \"#cc0000\", leader: (id: \"l\", name: \"L\", activation: 3))],\n            units: [\n{units}            ],\n        ),\n    ],\n    victory: (),\n)\n"
    );
    let dir = dir_with(&[("m.ron", SMALL_MAP), ("s.ron", &scenario)]);
    // Every diagnostic listed (by default a file's report lists 100 of a code: tests/report_bound.rs).
    let run = bataille(dir.path(), &["validate", "--max-per-code", "0", "s.ron"]);
    assert_eq!(run.code, 1);
    let errors = run.stdout.matches("error[E0503]").count();
    assert_eq!(
        errors,
        3000,
        "{}",
        &run.stdout[..2000.min(run.stdout.len())]
    );
    let line = line_of(&scenario, "id: \"u1234\"");
    assert!(
        run.stdout.contains(&format!("--> s.ron:{line}:")),
        "the 1235th unit is reported at its line"
    );
}
