//! A sixth round of hostile inputs (issue 19, `tests/hostile/round6.py`), aimed at what the
//! last sessions added: the 16-byte `ShortStr` every id, name and code now is, what a unit
//! holds behind one pointer (`Thin`), road paths ending by the hexside a road leaves by, and
//! `digitize --format json`. Each class kept on the real `bataille` binary, every run under an
//! address-space and a time limit, inside the 0/1/2 contract with no panic or abort.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use club::{Club, MAP, SCENARIO};

const GARDES: &str = "(id: \"fr-gardes-francaises\", name: \"Gardes françaises\", kind: \"infantry\", corps: \"fr-maison-du-roi\", cp: 3, mp: 4, morale: 5, facing: SE, placement: Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")),\n";

/// Units beside the Gardes françaises, each `(id, name, more fields)`, placed free in their
/// zone with no hex (so no stack grows).
fn add_units(club: &Club, units: &[(&str, &str, &str)]) {
    let lines: String = units
        .iter()
        .map(|(id, name, more)| {
            format!(
                "                (id: \"{id}\", name: {}, kind: \"infantry\", corps: \"fr-maison-du-roi\", cp: 1, mp: 4, morale: 3, facing: SE, placement: Free(zone: \"fr-zone-maison-du-roi\"){more}),\n",
                serde_json::to_string(name).unwrap()
            )
        })
        .collect();
    club.edit(SCENARIO, GARDES, &format!("{GARDES}{lines}"));
}

/// No C0 (but the line feed), C1, bidi or zero-width character reached the terminal.
#[track_caller]
fn no_raw_controls(run: &club::Run) {
    let raw = run.all().chars().find(|c| {
        (c.is_control() && *c != '\n')
            || matches!(*c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    });
    assert_eq!(raw, None, "{}", run.all());
}

/// Names of 13 to 17 bytes, a two- or four-byte character across the 14 bytes held inline,
/// come back literally from the JSON export, the VASSAL module and `fmt`, which leaves them
/// as they were.
#[test]
fn names_across_the_inline_boundary_come_back_literally() {
    let club = Club::new();
    let names = [
        "aaaaaaaaaaaaaé",
        "aaaaaaaaaaaaé",
        "aaaaaaaaaaa😀",
        "aaaaaaaaaa😀",
        "aaaaaaaaaaaaa😀",
        "éééééééé",
        "aaaaaaaaaaaaaaaa",
        "aaaaaaaaaaaaae\u{301}",
    ];
    let ids: Vec<String> = (0..names.len()).map(|i| format!("fr-n{i}")).collect();
    let units: Vec<(&str, &str, &str)> = ids
        .iter()
        .zip(names)
        .map(|(id, name)| (id.as_str(), name, ""))
        .collect();
    add_units(&club, &units);
    let run = club.run(&["validate", SCENARIO]);
    assert_eq!(run.code, 0, "{}", run.all());
    let run = club.run(&["export", "--json", SCENARIO]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let back: std::collections::BTreeMap<&str, &str> = doc["armies"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["units"].as_array().unwrap())
        .map(|u| (u["id"].as_str().unwrap(), u["name"].as_str().unwrap()))
        .collect();
    for (id, name) in ids.iter().zip(names) {
        assert_eq!(back.get(id.as_str()), Some(&name), "{id}");
    }
    let run = club.run(&["export", "--vassal", SCENARIO, "--out", "out.vmod"]);
    assert_eq!(run.code, 0, "{}", run.all());
    let module = std::fs::File::open(club.path("out.vmod")).unwrap();
    let mut zip = zip::ZipArchive::new(module).unwrap();
    let mut build = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("buildFile.xml").unwrap(), &mut build).unwrap();
    for name in names {
        assert!(build.contains(name), "{name} not in buildFile.xml");
    }
    let before = club.read(SCENARIO);
    club.run(&["fmt", SCENARIO]);
    let run = club.run(&["fmt", "--check", SCENARIO]);
    assert_eq!(run.code, 0, "{}", run.all());
    let after = club.run(&["export", "--json", SCENARIO]).stdout;
    club.write(SCENARIO, before);
    assert_eq!(club.run(&["export", "--json", SCENARIO]).stdout, after);
}

/// Ids of 14, 15 and 16 bytes that agree in their first 14 bytes (the inline ones and those on
/// the heap), each given twice: each repeat is reported once, naming its id; given once each,
/// none is taken for another.
#[test]
fn ids_equal_in_their_inline_bytes_are_told_apart() {
    let ids = [
        "fr-abcdefghijk",
        "fr-abcdefghijkl",
        "fr-abcdefghijkm",
        "fr-abcdefghijklm",
    ];
    let club = Club::new();
    let once: Vec<(&str, &str, &str)> = ids.iter().map(|id| (*id, "U", "")).collect();
    add_units(&club, &once);
    let about = |club: &Club| -> Vec<String> {
        club.diagnostics(&[SCENARIO])
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_owned())
            .filter(|m| m.contains("fr-abcdefghijk"))
            .collect()
    };
    assert_eq!(about(&club), Vec::<String>::new());
    let twice: Vec<(&str, &str, &str)> = once.iter().chain(&once).copied().collect();
    let club = Club::new();
    add_units(&club, &twice);
    let said = about(&club);
    assert_eq!(said.len(), ids.len(), "{said:#?}");
    for id in ids {
        assert!(
            said.iter().any(|m| m.contains(&format!("`{id}`"))),
            "{id}: {said:#?}"
        );
    }
}

/// `allow: []` and `ratings: {}` (held as nothing: `Thin`) are accepted and `fmt` drops them
/// without changing the battle; a reinforcement's `entry: []` is refused at its place, and
/// no command draws or exports it.
#[test]
fn empty_thin_lists_read_as_absent_and_an_empty_entry_is_refused() {
    let club = Club::new();
    add_units(
        &club,
        &[
            ("fr-t1", "U", ", allow: []"),
            ("fr-t2", "U", ", ratings: {}"),
        ],
    );
    assert_eq!(club.run(&["validate", SCENARIO]).code, 0);
    let before = club.run(&["export", "--json", SCENARIO]).stdout;
    club.run(&["fmt", SCENARIO]);
    assert!(!club.read(SCENARIO).contains("allow: []"));
    assert_eq!(club.run(&["fmt", "--check", SCENARIO]).code, 0);
    assert_eq!(club.run(&["export", "--json", SCENARIO]).stdout, before);

    let club = Club::new();
    club.edit(SCENARIO, "entry: [\"3211\", \"3212\"]", "entry: []");
    let run = club.run(&["validate", SCENARIO]);
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(run.stdout.contains("denain-1712.ron:"), "{}", run.all());
    for args in [
        ["render", SCENARIO, "--out", "r.png"].as_slice(),
        &["print", SCENARIO, "--out", "k.pdf"],
        &["export", "--vassal", SCENARIO, "--out", "o.vmod"],
    ] {
        let run = club.run(args);
        assert_ne!(run.code, 0, "{args:?} went on: {}", run.all());
    }
}

/// Road paths ending by a hexside (`"0101/N 0102"`) on every side of every edge hex, sides of
/// the other orientation among them: validate refuses those (E0612) and only those, and
/// render, print and both exports draw the rest, well within their limits.
#[test]
fn exits_on_every_side_of_the_edge_hexes_pass_through_every_command() {
    let club = Club::new();
    let mut edge: Vec<String> = (1..=32)
        .flat_map(|c| [format!("{c:02}01"), format!("{c:02}20")])
        .chain((1..=20).flat_map(|r| [format!("01{r:02}"), format!("32{r:02}")]))
        .collect();
    edge.sort();
    edge.dedup();
    let flat = ["N", "NE", "SE", "S", "SW", "NW"];
    let paths: Vec<String> = edge
        .iter()
        .flat_map(|h| flat.iter().map(move |s| format!("\"{h}/{s}\"")))
        .collect();
    let text = club.read(MAP);
    let overlays: String = edge
        .iter()
        .filter(|h| !text.contains(&format!("        \"{h}\": [")))
        .map(|h| format!("        \"{h}\": [\"route\"],\n"))
        .collect();
    club.edit(
        MAP,
        "    rows: [",
        &format!(
            "    paths: {{\n        \"route\": [{}],\n    }},\n    rows: [",
            paths.join(", ")
        ),
    );
    club.edit(
        MAP,
        "    overlays: {\n",
        &format!("    overlays: {{\n{overlays}"),
    );
    let run = club.run(&["validate", MAP]);
    assert_eq!(run.code, 0, "{}", run.all());
    for args in [
        ["render", MAP, "--out", "r.png"].as_slice(),
        &["print", SCENARIO, "--out", "k.pdf"],
        &["export", "--tiled", MAP, "--out", "t.tmx"],
        &["export", "--vassal", SCENARIO, "--out", "o.vmod"],
    ] {
        let run = club.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.all());
    }
    // Sides of a pointy grid on this flat one: refused, at the path.
    club.edit(MAP, "\"0101/N\"", "\"0101/E\", \"0101/W 0102\"");
    let codes: Vec<String> = club
        .diagnostics(&[MAP])
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(codes, ["E0612", "E0612"]);
}

/// `digitize --format json` with a scan, calibration and map named with ESC, a C1 control and a
/// bidi override: the map is refused (its background would name such a file) or written with
/// one JSON object on standard output, and nothing raw reaches the terminal, nor when the scan
/// is missing.
#[test]
fn digitize_json_names_hostile_files_escaped() {
    let club = Club::new();
    let grid = "(orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2))";
    let calibration = format!(
        "Calibration(grid: {grid}, fit: Affine, points: [(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0401\", x: 70.0, y: 20.0), (hex: \"0104\", x: 10.0, y: 70.0), (hex: \"0404\", x: 70.0, y: 80.0)])"
    );
    club.write(
        "s.ron",
        "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})",
    );
    for stem in ["plain", "x\u{1b}[2Jy", "x\u{9b}31mz", "x\u{202e}y"] {
        let scan = format!("{stem}.png");
        image::RgbImage::from_pixel(100, 100, image::Rgb([200, 180, 140]))
            .save(club.path(&scan))
            .unwrap();
        let cal = format!("c{stem}.ron");
        club.write(&cal, &calibration);
        let out = format!("m{stem}.ron");
        let args = [
            "digitize",
            scan.as_str(),
            "--calibration",
            cal.as_str(),
            "--samples",
            "s.ron",
            "--out",
            out.as_str(),
            "--format",
            "json",
        ];
        let run = club.run(&args);
        if stem == "plain" || run.code == 0 {
            assert_eq!(run.code, 0, "{}", run.all());
            let report: serde_json::Value =
                serde_json::from_str(&run.stdout).expect("one JSON object");
            assert!(report["wrote"].as_str().is_some_and(|w| w.starts_with('m')));
        } else {
            assert_eq!(run.code, 1, "{}", run.all());
            assert!(!club.path(&out).exists());
        }
        no_raw_controls(&run);
        let missing = format!("no{scan}");
        let mut args = args;
        args[1] = missing.as_str();
        let run = club.run(&args);
        assert_eq!(run.code, 2, "{}", run.all());
        no_raw_controls(&run);
    }
}

/// A map whose overlay keys alternate high and low (160,000 of them, 4.6 MB) is refused with
/// its located E0105s within the run's time limit. Reading a map built it again at every low
/// key (`bataille_schema::unique`): over 300 s for this file, where it now takes about 3 s in
/// a debug build.
#[test]
fn overlay_keys_alternating_high_and_low_are_read_in_linear_time() {
    let club = Club::new();
    let entries: String = (0..80_000)
        .map(|k| format!("        \"z{k:06}\": [\"route\"],\n        \"a{k:06}\": [\"route\"],\n"))
        .collect();
    club.edit(
        MAP,
        "    overlays: {\n",
        &format!("    overlays: {{\n{entries}"),
    );
    let run = club.run(&["validate", MAP, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.all());
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let codes: Vec<&str> = report
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"E0105"), "{}", run.stdout);
}
