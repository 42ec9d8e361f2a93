//! A fifth round of hostile inputs (issue 19, `tests/hostile/round5.py`): the holes it found,
//! each kept shut on the real `bataille` binary, every run under an address-space and a time
//! limit, inside the 0/1/2 contract with no panic or abort.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use club::Club;

const GRID: &str = "(orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2))";
const SAMPLES: &str = "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]}";

/// A club with a plain 100 × 100 scan and a calibration of four clicks.
fn digitizing() -> Club {
    let club = Club::new();
    let scan = image::RgbImage::from_pixel(100, 100, image::Rgb([200, 180, 140]));
    scan.save(club.path("x.png")).expect("the scan");
    club.write("c.ron", calibration("(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0401\", x: 70.0, y: 20.0), (hex: \"0104\", x: 10.0, y: 70.0), (hex: \"0404\", x: 70.0, y: 80.0)"));
    club
}

fn calibration(points: &str) -> String {
    format!("Calibration(grid: {GRID}, fit: Affine, points: [{points}])")
}

fn digitize(club: &Club) -> club::Run {
    club.run(&[
        "digitize",
        "x.png",
        "--calibration",
        "c.ron",
        "--samples",
        "s.ron",
        "--out",
        "m.ron",
    ])
}

/// The run failed with one error line located in `file` (`file:line:column:`), at most
/// `bytes` long, and wrote no map.
#[track_caller]
fn refused_at(club: &Club, run: &club::Run, file: &str, bytes: usize) {
    assert_eq!(run.code, 1, "{}", run.all());
    let said = run.stderr.trim();
    assert!(
        said.starts_with(&format!("error: {file}:"))
            && said[format!("error: {file}:").len()..]
                .split(':')
                .take(2)
                .all(|n| n.trim().parse::<usize>().is_ok()),
        "not located in {file}: {}",
        &said[..said.len().min(400)]
    );
    assert!(
        said.len() <= bytes,
        "{} bytes: {}",
        said.len(),
        &said[..400]
    );
    assert!(!club.path("m.ron").exists(), "a map was written");
}

/// `path_samples` naming an overlay the legend does not have was refused as `s.ron: path
/// samples name overlay …` with no line or column; every check of the samples file's keys
/// (terrain codes, sampled codes, hexside features, lines) is now located at the key.
#[test]
fn a_samples_key_not_in_its_legend_is_refused_at_its_place() {
    let club = digitizing();
    club.write(
        "s.ron",
        format!("{SAMPLES},\n    overlay_types: {{\"road\": (name: \"Road\", symbol: Road, colour: \"#8b6f47\")}},\n    path_samples: {{\"rail\": [\"0202/S\"]}})"),
    );
    let run = digitize(&club);
    refused_at(&club, &run, "s.ron", 300);
    assert!(
        run.stderr.starts_with("error: s.ron:3:28:"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("overlay `rail`"), "{}", run.stderr);
    club.write(
        "s.ron",
        "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")},\n  samples: {\"c\": [\"0101\"], \"q\": [\"0102\"]})",
    );
    let run = digitize(&club);
    refused_at(&club, &run, "s.ron", 300);
    assert!(
        run.stderr.starts_with("error: s.ron:2:33:"),
        "{}",
        run.stderr
    );
}

/// A hex name of a megabyte in the samples or the calibration (files no JSON Schema bounds)
/// was quoted whole in the error, a megabyte on the terminal; a click on a hex of another
/// grid was refused by the fit with no place. Each is now refused at its place, the name cut
/// to 40 characters and a count.
#[test]
fn a_hex_name_of_a_megabyte_is_refused_at_its_place_and_quoted_cut() {
    let club = digitizing();
    let long = "7".repeat(1_000_000);
    club.write(
        "s.ron",
        format!("{SAMPLES}, path_samples: {{}})")
            .replace("[\"0101\"]", &format!("[\"0101\", \"{long}\"]")),
    );
    let run = digitize(&club);
    refused_at(&club, &run, "s.ron", 300);
    assert!(
        run.stderr.contains("(999960 more characters)"),
        "{}",
        run.stderr
    );

    club.write("s.ron", format!("{SAMPLES})"));
    club.write(
        "c.ron",
        calibration(&format!(
            "(hex: \"0101\", x: 10.0, y: 10.0),\n (hex: \"{long}\", x: 70.0, y: 80.0)"
        )),
    );
    let run = digitize(&club);
    refused_at(&club, &run, "c.ron", 300);
    assert!(
        run.stderr.starts_with("error: c.ron:2:8:"),
        "{}",
        run.stderr
    );
    club.write(
        "c.ron",
        calibration("(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0505\", x: 70.0, y: 80.0)"),
    );
    let run = digitize(&club);
    refused_at(&club, &run, "c.ron", 300);
    assert!(
        run.stderr.contains("point 2: hex 0505 is off the map"),
        "{}",
        run.stderr
    );
}

/// A samples or calibration file with a field name of a megabyte: the parser's message quoted
/// it whole (a megabyte of error). Clipped where the file is read, and the command's error line
/// is bounded whatever a cause quotes.
#[test]
fn a_parser_message_quoting_a_megabyte_field_is_cut() {
    let club = digitizing();
    club.write("s.ron", format!("Samples({}: 1)", "z".repeat(1_000_000)));
    let run = digitize(&club);
    refused_at(&club, &run, "s.ron", 1_000);
    club.write("s.ron", format!("{SAMPLES})"));
    club.write(
        "c.ron",
        format!("Calibration(grid: {GRID}, {}: 1)", "q".repeat(1_000_000)),
    );
    let run = digitize(&club);
    refused_at(&club, &run, "c.ron", 1_000);
}
