//! A third round of hostile inputs (issue 19), replayed against the doors as a stranger would:
//! new fields, commands and formats for each class of the issue, on the real `bataille`
//! binary, every run under an address-space limit (`ulimit -v`, 3 GB) and a time limit, every
//! run inside the 0/1/2 contract with no panic or abort. Each test is one class; the round's
//! tally is in the README ("Untrusted files").

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use std::process::Command;
use std::time::Duration;

use club::{Club, MAP, Run, SCENARIO, SYSTEM};

/// No line a command prints starts with what a file's text forged.
#[track_caller]
fn no_forged_line(run: &Run, forged: &str) {
    for line in run.all().lines() {
        assert!(
            !line.starts_with(forged),
            "a line feed from a file started a line of its own:\n{}",
            run.all()
        );
    }
}

/// A line feed in a name (which E0123 lets through: names may hold one) or in a file name
/// reaches the terminal escaped, whatever prints it: `table`'s summary (the system's name),
/// `fmt --check`'s list of files, the `wrote` line of `print` and `export`. Before, `say!` and
/// `tell!` kept the line feeds of the file text they printed, so a system named
/// `Age\nerror: …` printed a line `error: …` of its own.
#[test]
fn a_line_feed_from_a_file_never_starts_a_line_on_the_terminal() {
    let club = Club::new();
    club.edit(
        SYSTEM,
        "name: \"Age of Honor\"",
        "name: \"Age\\nerror: FORGED by the system\"",
    );
    let table = club.run(&[
        "table",
        SCENARIO,
        "--system",
        "age-of-honor",
        "--figures",
        "15mm",
        "--out",
        "plan.svg",
    ]);
    assert_eq!(table.code, 0, "{}", table.all());
    assert!(
        table.stdout.contains("Age\\u{a}error: FORGED"),
        "{}",
        table.all()
    );
    no_forged_line(&table, "error: FORGED");

    let named = "scenarios/odd\nerror: FORGED by a file name.ron";
    let text = club.read(SCENARIO);
    club.write(named, text.replacen("    turns: 10", "turns: 10", 1));
    let check = club.run(&["fmt", "--check", named]);
    assert_eq!(check.code, 1, "{}", check.all());
    assert!(check.stdout.contains("odd\\u{a}error"), "{}", check.all());
    no_forged_line(&check, "error: FORGED");

    let out = "kit\nerror: FORGED by --out.pdf";
    let print = club.run(&["print", SCENARIO, "--out", out]);
    assert_eq!(print.code, 0, "{}", print.all());
    no_forged_line(&print, "error: FORGED");
    let vassal = club.run(&["export", "--vassal", SCENARIO, "--out", out]);
    assert!(vassal.code != 0 || !vassal.all().is_empty());
    no_forged_line(&vassal, "error: FORGED");
}

/// One refused value is one diagnostic: a field the JSON Schema refuses (E0105) is not then
/// blamed again by every check that reads it. `turns: 0` gave an E0508 for each of 19
/// reinforcements; hex names of zero digits gave 345 errors (every hex, zone, entry and
/// placement "off the map") after the map's one E0105.
#[test]
fn a_refused_field_is_reported_once_not_by_every_check_reading_it() {
    let club = Club::new();
    club.edit(SCENARIO, "turns: 10,", "turns: 0,");
    let diagnostics = club.diagnostics(&[SCENARIO]);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "E0105" && d["line"] == 6),
        "{codes:?}"
    );
    assert!(!codes.contains(&"E0508"), "{codes:?}");

    let club = Club::new();
    club.edit(MAP, "column_digits: 2", "column_digits: 0");
    let diagnostics = club.diagnostics(&[SCENARIO]);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes.iter().filter(|c| c.starts_with("E01")).count(),
        1,
        "{codes:?}"
    );
    assert!(
        codes.len() <= 2,
        "one E0105 (and the known W0801), not every hex off the map: {codes:?}"
    );
    // The checks still run where the refused field does not reach: a unit of an unknown kind
    // is still reported beside the refused grid.
    club.edit(
        SCENARIO,
        "kind: \"infantry\", corps: \"fr-maison-du-roi\"",
        "kind: \"nope\", corps: \"fr-maison-du-roi\"",
    );
    let codes: Vec<String> = club
        .diagnostics(&[SCENARIO])
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    assert!(codes.iter().any(|c| c == "E0204"), "{codes:?}");
}

/// A value the schema refuses is not blamed again by a rule at the same place: a commander at
/// `Hex("nope-x")` was an E0105 (the hex name's pattern) and an E0503 ("not a hex name of
/// this map") on the same column.
#[test]
fn a_refused_value_is_not_blamed_again_by_a_rule_at_its_place() {
    let club = Club::new();
    club.edit(
        SCENARIO,
        "placement: Hex(\"1409\")",
        "placement: Hex(\"nope-x\")",
    );
    let diagnostics = club.diagnostics(&[SCENARIO]);
    let at_line = |code: &str| {
        diagnostics
            .iter()
            .filter(|d| d["code"] == code && d["pointer"] == "/armies/0/commanders/0/placement/Hex")
            .count()
    };
    assert_eq!(at_line("E0105"), 1, "{diagnostics:?}");
    assert_eq!(at_line("E0503"), 0, "{diagnostics:?}");
}

/// A 100 × 100 px PNG of one colour.
fn plain_png() -> Vec<u8> {
    let picture = image::RgbImage::from_pixel(100, 100, image::Rgb([200, 180, 140]));
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(picture)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("png");
    bytes
}

const CALIBRATION: &str = "Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0401\", x: 70.0, y: 20.0), (hex: \"0104\", x: 10.0, y: 70.0), (hex: \"0404\", x: 70.0, y: 80.0)])";

/// The samples file gives a digitised map its legend (terrain names and colours) and its
/// name: what the door would refuse there is refused by digitize, located in the samples
/// file, and no map is written. Before, a terrain named with an ESC, a colour
/// `"/><script>…` or a 300-character name went into a map that `validate` then refused, and
/// digitize exited 0.
#[test]
fn digitize_writes_no_map_the_door_would_refuse_for_its_legend() {
    let club = Club::new();
    club.write("scan.png", plain_png());
    club.write("c.ron", CALIBRATION);
    let long = "x".repeat(300);
    for (samples, line) in [
        (
            "Samples(terrain: {\"c\": (name: \"Cl\\u{1b}[2Jear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})".to_owned(),
            1,
        ),
        (
            "Samples(\n  terrain: {\"c\": (name: \"Clear\",\n    colour: \"\\\"/><script>x</script>\")},\n  samples: {\"c\": [\"0101\"]})".to_owned(),
            3,
        ),
        (
            format!("Samples(name: \"{long}\", terrain: {{\"c\": (name: \"Clear\", colour: \"#ffffff\")}}, samples: {{\"c\": [\"0101\"]}})"),
            1,
        ),
    ] {
        club.write("s.ron", &samples);
        let run = club.run(&[
            "digitize",
            "scan.png",
            "--calibration",
            "c.ron",
            "--samples",
            "s.ron",
            "--out",
            "maps/digitised.ron",
        ]);
        assert_eq!(run.code, 1, "{samples}\n{}", run.all());
        assert!(
            run.stderr.contains(&format!("s.ron:{line}:")),
            "located in the samples file: {}",
            run.all()
        );
        assert!(!club.path("maps/digitised.ron").exists(), "{samples}");
    }
    // The legend corrected, the map is written and the door takes it.
    club.write(
        "s.ron",
        "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})",
    );
    let run = club.run(&[
        "digitize",
        "scan.png",
        "--calibration",
        "c.ron",
        "--samples",
        "s.ron",
        "--out",
        "maps/digitised.ron",
    ]);
    assert_eq!(run.code, 0, "{}", run.all());
    let validate = club.run(&["validate", "maps/digitised.ron"]);
    assert_eq!(validate.code, 0, "{}", validate.all());
    // Without a name in the samples, the scan's file name gives it: one of 250 characters
    // (a legal file name, past the 200 a map's name may have) is cut, not refused.
    let scan = format!("{}.png", "y".repeat(250));
    club.write(&scan, plain_png());
    let run = club.run(&[
        "digitize",
        &scan,
        "--calibration",
        "c.ron",
        "--samples",
        "s.ron",
        "--out",
        "maps/long.ron",
    ]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        club.read("maps/long.ron")
            .contains(&format!("name: \"{}\"", "y".repeat(200))),
        "{}",
        club.read("maps/long.ron")
    );
    let validate = club.run(&["validate", "maps/long.ron"]);
    assert_eq!(validate.code, 0, "{}", validate.all());
}

/// An output of the longest name a file system allows is written like any other (its
/// temporary file beside it got a name 12 bytes longer, past the 255 allowed, so `fmt` and
/// every export failed on a legal name), and an output in a folder that does not exist says
/// so, without the temporary file's random name.
#[test]
fn an_output_of_a_long_name_or_in_a_missing_folder_is_handled_by_the_writer() {
    let club = Club::new();
    let long = format!("scenarios/{}.ron", "k".repeat(251));
    let text = club.read(SCENARIO);
    club.write(&long, text.replacen("    turns: 10", "turns: 10", 1));
    let run = club.run(&["fmt", &long]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert_eq!(club.read(&long), text, "formatted in place");
    let kit = format!("{}.pdf", "k".repeat(251));
    let run = club.run(&["print", SCENARIO, "--out", &kit]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(club.path(&kit).is_file());

    let run = club.run(&["print", SCENARIO, "--out", "missing/folder/kit.pdf"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr
            .contains("the folder missing/folder does not exist"),
        "{}",
        run.all()
    );
    assert!(!run.stderr.contains(".tmp"), "{}", run.all());
}

/// A value that fits no form of an optional field (a free placement's `at` that is no hex
/// name) is described in words, as every other refusal is: it was the JSON Schema library's
/// debug dump of the branches (`AnyOf { context: [[ValidationError { repr: …`), cut short.
#[test]
fn a_value_fitting_no_form_of_a_field_is_described_in_words() {
    let club = Club::new();
    club.edit(SCENARIO, "at: \"1608\"", "at: \"nope-x\"");
    let refusals: Vec<String> = club
        .diagnostics(&[SCENARIO])
        .iter()
        .filter(|d| d["code"] == "E0105")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert!(
        refusals[0].contains("\"nope-x\" does not match the pattern"),
        "{refusals:?}"
    );
    assert!(
        !refusals[0].contains("AnyOf") && !refusals[0].contains("ValidationError"),
        "{refusals:?}"
    );
}

/// A map's `background.image` naming a file that is no picture (the map itself, a system) is
/// refused at the door (E0210, located), as one naming a folder is: it passed `validate` and
/// failed only when an export decoded it.
#[test]
fn a_background_that_is_no_picture_is_refused_at_the_door() {
    for image in ["denain-1712.ron", "../systems/louis-xiv.ron"] {
        let club = Club::new();
        club.edit(
            MAP,
            "    grid:",
            &format!("    background: (image: \"{image}\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:"),
        );
        let diagnostics = club.diagnostics(&[MAP]);
        assert!(
            diagnostics
                .iter()
                .any(|d| d["code"] == "E0210" && d["line"] == 5),
            "{image}: {diagnostics:?}"
        );
        let run = club.run(&["export", "--vassal", SCENARIO, "--out", "out.vmod"]);
        assert_eq!(run.code, 1, "{image}: {}", run.all());
        assert!(run.stderr.contains("E0210"), "{image}: {}", run.all());
        assert!(!club.path("out.vmod").exists());
    }
}

/// A file saved on Windows (CRLF line endings) is reported with its lines as they read, not
/// with `\u{d}` at the end of every line shown; a lone carriage return is still shown.
#[test]
fn a_windows_file_is_reported_without_a_return_shown_on_every_line() {
    let club = Club::new();
    let text = club.read(SCENARIO).replacen("turns: 10,", "turns: 0,", 1);
    club.write(SCENARIO, text.replace('\n', "\r\n"));
    let run = club.run(&["validate", SCENARIO]);
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.stdout.contains("6 |     turns: 0,\n"),
        "the line as it reads:\n{}",
        run.all()
    );
    assert!(!run.stdout.contains("\\u{d}"), "{}", run.all());
}

/// A value the command line refuses is quoted in its error through the terminal sink: clap
/// strips ESC sequences, but the one-character C1 CSI (U+009B) reached the terminal raw.
#[test]
fn a_refused_option_value_reaches_the_terminal_escaped() {
    let club = Club::new();
    let hostile = "\u{1b}]0;pwn\u{7}\u{1b}[2J\u{9b}31m";
    for args in [
        vec!["render", SCENARIO, "--scale", hostile, "--out", "r.png"],
        vec!["print", SCENARIO, "--hex", hostile, "--out", "k.pdf"],
        vec!["validate", "--format", hostile, SCENARIO],
        vec![
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--figures",
            "15mm",
            "--table",
            hostile,
            "--out",
            "p.svg",
        ],
    ] {
        let run = club.run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.all());
        assert!(
            run.stderr.contains("error: invalid value"),
            "{args:?}: {}",
            run.all()
        );
        assert!(
            !run.all()
                .chars()
                .any(|c| c == '\u{9b}' || c == '\u{1b}' || c == '\u{7}'),
            "{args:?}: a raw control reached the terminal: {:?}",
            run.all()
        );
    }
}

/// `schema --out` through a link leading outside the repository makes no folder there: the
/// folders were made before the writer refused the files in them.
#[cfg(unix)]
#[test]
fn schema_makes_no_folder_outside_the_repository_through_a_link() {
    let club = Club::new();
    let elsewhere = club.root.parent().expect("above").join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    std::os::unix::fs::symlink(&elsewhere, club.path("schemas")).expect("link");
    let run = club.run(&["schema", "--out", "schemas/a/b"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr.contains("outside its repository"),
        "{}",
        run.all()
    );
    assert_eq!(
        std::fs::read_dir(&elsewhere).expect("list").count(),
        0,
        "nothing made outside"
    );
    // A folder inside the repository is made as before.
    let run = club.run(&["schema", "--out", "docs/schemas"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(club.path("docs/schemas/map.schema.json").is_file());
}

/// A file whose name is not UTF-8 is named in SARIF by its own bytes, percent-encoded: it was
/// its display, U+FFFD for each byte, a file no code-scanning consumer could find.
#[cfg(target_os = "linux")]
#[test]
fn sarif_names_a_file_by_its_own_bytes() {
    use std::os::unix::ffi::OsStrExt as _;
    let club = Club::new();
    let text = club.read(SCENARIO).replacen("turns: 10,", "turns: 0,", 1);
    let name = std::ffi::OsStr::from_bytes(b"scenarios/bad\xff\xfe.ron");
    std::fs::write(club.root.join(name), text).expect("write");
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command
        .args(["validate", "--format", "sarif"])
        .arg(name)
        .current_dir(&club.root);
    let output = support::output_within(command, Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&output.stdout).expect("SARIF");
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "scenarios/bad%FF%FE.ron"
    );
}

/// A list that is a set holds each item once: a zone's hexes, a hex's overlays, a feature's
/// hexsides, the half hexes and a side's edges are refused (E0105) with an item given twice
/// (the canonical form drops repeats), so no command draws it again and again (400,000 copies
/// of one overlay, a 3.6 MB map: the print kit took 1.65 GB and 43 s).
#[test]
fn a_set_holds_each_item_once() {
    let club = Club::new();
    club.edit(
        SCENARIO,
        "hexes: [\"1312\", \"1313\"",
        &format!("hexes: [\"1312\", {}\"1313\"", "\"1313\", ".repeat(100_000)),
    );
    let diagnostics = club.diagnostics(&[SCENARIO]);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "E0105"
            && d["pointer"] == "/zones/0/hexes"
            && d["message"]
                .as_str()
                .unwrap()
                .contains("the same item more than once")),
        "{diagnostics:?}"
    );
    let run = club.run(&["print", SCENARIO, "--out", "kit.pdf"]);
    assert_eq!(run.code, 1, "refused: {}", run.all());

    let club = Club::new();
    club.edit(
        MAP,
        "\"0110\": [\"route\"]",
        &format!("\"0110\": [{}\"route\"]", "\"route\", ".repeat(100_000)),
    );
    let run = club.run(&["render", MAP, "--out", "map.png"]);
    assert_eq!(run.code, 1, "refused: {}", run.all());
    assert!(run.stderr.contains("/overlays/0110"), "{}", run.all());
}

/// The zones' check is linear in their hexes however many claims one hex has: each claim of a
/// hex was compared with every claim before it (one zone listing a hex 400,000 times: an
/// hour, debug; 40,000 zones of one corps on one hex: minutes). Only a side's first claim of a
/// hex is kept now, the same warnings said.
#[test]
fn many_claims_of_one_hex_cost_linear_work() {
    let club = Club::new();
    let zones: String = (0..40_000)
        .map(|i| {
            format!("        (id: \"z{i}\", name: \"Z\", owner: Corps(\"fr-aile-droite\"), hexes: [\"1313\"]),\n")
        })
        .collect();
    club.edit(
        SCENARIO,
        "    zones: [\n",
        &format!("    zones: [\n{zones}"),
    );
    let diagnostics = club.diagnostics(&[SCENARIO]);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "E0105"),
        "a valid set-up: {diagnostics:?}"
    );
    // A zone of the other army on that hex is still warned about (W0506), once per claim of
    // the first army's side it meets.
    club.edit(
        SCENARIO,
        "    zones: [\n",
        "    zones: [\n        (id: \"enemy\", name: \"E\", owner: Army(\"allies\"), hexes: [\"1313\"]),\n",
    );
    let warned = club
        .diagnostics(&[SCENARIO])
        .iter()
        .filter(|d| d["code"] == "W0506")
        .count();
    assert!(warned >= 1, "W0506 still said");
}
