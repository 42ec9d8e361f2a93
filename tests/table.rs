//! End-to-end: `bataille table` and the miniatures checks through the real binary, on the
//! bundled battles and systems, each run with a timeout.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::PathBuf;
mod support;

use std::process::{Command, Output};
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary from the repository root; fails the test after 120 s.
fn bataille(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(root()).env("NO_COLOR", "1");
    support::output_within(command, Duration::from_secs(120))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn both_battles_validate_clean_under_both_systems() {
    for scenario in ["scenarios/fontenoy-1745.ron", "scenarios/denain-1712.ron"] {
        let out = bataille(&["validate", "--format", "json", scenario]);
        let diagnostics: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let miniatures: Vec<&serde_json::Value> = diagnostics
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"].as_str().is_some_and(|c| c[1..].starts_with("10")))
            .collect();
        assert!(miniatures.is_empty(), "{scenario}: {miniatures:#?}");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{scenario}: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn table_writes_svg_and_pdf_and_says_what_table_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("fontenoy.svg");
    let out = bataille(&[
        "table",
        "scenarios/fontenoy-1745.ron",
        "--system",
        "louis-xiv",
        "--figures",
        "15mm",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("1 mm = 2 m") && said.contains("need a table of"),
        "{said}"
    );
    let written = std::fs::read_to_string(&svg).unwrap();
    assert!(written.starts_with("<svg") && written.contains("mm\" height=\""));

    let pdf = dir.path().join("fontenoy.pdf");
    let roster = dir.path().join("roster.pdf");
    let out = bataille(&[
        "table",
        "scenarios/fontenoy-1745.ron",
        "--system",
        "age-of-honor",
        "--figures",
        "25mm",
        "--table",
        "72x48in",
        "--out",
        pdf.to_str().unwrap(),
        "--roster",
        roster.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("table 183 × 122 cm"), "{said}");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    assert!(std::fs::read(&roster).unwrap().starts_with(b"%PDF"));
}

#[test]
fn table_refuses_what_it_cannot_draw_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("x.svg");
    let out = bataille(&[
        "table",
        "scenarios/denain-1712.ron",
        "--system",
        "warhammer",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("supports `age-of-honor`, `louis-xiv`"),
        "{}",
        text(&out.stderr)
    );
    let out = bataille(&[
        "table",
        "scenarios/denain-1712.ron",
        "--system",
        "louis-xiv",
        "--figures",
        "6mm",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no figure scale `6mm`"),
        "{}",
        text(&out.stderr)
    );
    let out = bataille(&[
        "table",
        "scenarios/denain-1712.ron",
        "--system",
        "louis-xiv",
        "--out",
        dir.path().join("x.png").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("write a .svg or a .pdf"));
    assert!(!out_path.exists());
}

/// The text pdftotext finds in a PDF (None when poppler's tools are missing).
fn pdf_text(pdf: &std::path::Path) -> Option<String> {
    let mut command = Command::new("pdftotext");
    command.args(["-layout"]).arg(pdf).arg("-");
    let out = support::try_output_within(command, Duration::from_secs(60)).ok()?;
    out.status.success().then(|| text(&out.stdout))
}

#[test]
fn denain_plan_names_its_entries_and_numbers_the_hexes_players_need() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("denain.svg");
    let out = bataille(&[
        "table",
        "scenarios/denain-1712.ron",
        "--system",
        "louis-xiv",
        "--figures",
        "15mm",
        "--table",
        "180x120cm",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&written).unwrap();
    // Denain 13.2: the French enter by 3211 or 3212, the Allies by 2719 or 2820.
    let entries: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("entry"))
        .collect();
    for hex in ["3211", "3212", "2719", "2820"] {
        let entry = entries
            .iter()
            .find(|n| {
                n.attribute("data-hexes")
                    .is_some_and(|h| h.split(' ').any(|h| h == hex))
            })
            .unwrap_or_else(|| panic!("no entry drawn at {hex}"));
        let label: String = entry
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        assert!(
            label.contains("Turn 1") && label.contains(hex),
            "{hex}: {label}"
        );
        // An entry off the table is an arrow at its edge, saying how far the hex is; the
        // names are on the table.
        let text = entry.children().find(|n| n.has_tag_name("text")).unwrap();
        let x: f64 = text.attribute("x").unwrap().parse().unwrap();
        assert!((0.0..=1800.0).contains(&x), "{label} at x = {x}");
        if entry.attribute("data-off-table") == Some("true") {
            assert!(label.contains("off the table"), "{label}");
            assert!(entry.children().any(|n| n.has_tag_name("path")));
        }
    }
    assert!(
        entries
            .iter()
            .any(|n| n.attribute("data-off-table") == Some("true")),
        "on a 180 × 120 cm table some of Denain's entries lie off it"
    );
    // The Valenciennes garrison and Fagel's troops are named at their entries.
    assert!(
        written.contains("Garnison de Valenciennes"),
        "French entry unnamed"
    );
    assert!(written.contains("Fagel"), "Allied entry unnamed");
    // Hex numbers: the victory hexes on the table, and the hexes along the edges.
    let numbers: Vec<&str> = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("hex-numbers"))
        .expect("a hex-numbers layer")
        .children()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(numbers.len() > 20, "{numbers:?}");
    assert!(numbers.contains(&"2111"), "Denain's hex 2111 numbered");
}

#[test]
fn rosters_read_as_a_players_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.svg");
    let roster = dir.path().join("roster.pdf");
    for (system, scenario) in [
        ("louis-xiv", "scenarios/denain-1712.ron"),
        ("age-of-honor", "scenarios/fontenoy-1745.ron"),
    ] {
        let out = bataille(&[
            "table",
            scenario,
            "--system",
            system,
            "--out",
            plan.to_str().unwrap(),
            "--roster",
            roster.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let Some(sheet) = pdf_text(&roster) else {
            eprintln!("\n!!! SKIPPED the roster text checks: no pdftotext on PATH !!!\n");
            return;
        };
        // English plurals, and no heading with nothing under it (Denain's baggage, outside
        // the formations, has no troop type under the systems).
        assert!(!sheet.contains("batterys"), "{sheet}");
        if scenario.contains("denain") {
            assert!(!sheet.contains("Outside the corps"), "{scenario}: {sheet}");
        }
        // Names, not ids: the tables' names of what the ratings say.
        for id in [
            "platoon-fire",
            "fire-by-rank",
            "french-austrian",
            "line-infantry",
        ] {
            assert!(!sheet.contains(id), "{scenario}: the id {id} on the roster");
        }
        if system == "louis-xiv" {
            assert!(sheet.contains("2 batteries"), "{sheet}");
            assert!(sheet.contains("Armies of Louis XIV: France"), "{sheet}");
        } else {
            assert!(sheet.contains("Platoon fire / linear foot"), "{sheet}");
        }
    }
}

#[test]
fn the_best_turn_puts_at_least_as_many_units_on_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("denain.svg");
    let outside = |said: &str| -> usize {
        said.lines()
            .find_map(|l| l.split_once("outside: "))
            .map_or(0, |(_, list)| list.matches(" (").count())
    };
    let run = |turn: &str| {
        let out = bataille(&[
            "table",
            "scenarios/denain-1712.ron",
            "--system",
            "louis-xiv",
            "--table",
            "180x120cm",
            "--turn",
            turn,
            "--out",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let flat = run("0");
    let best = run("best");
    assert!(best.contains("clockwise over the map"), "{best}");
    assert!(outside(&best) <= outside(&flat), "{best}\n{flat}");
    assert!(outside(&flat) > 0, "{flat}");
    // The plan says how it is turned.
    let turn: f64 = best
        .split("turned ")
        .nth(1)
        .and_then(|r| r.split('°').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let written = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(
        turn == 0.0,
        !written.contains("clockwise over the map"),
        "{turn}"
    );
    // Best needs a table to fit.
    let out = bataille(&[
        "table",
        "scenarios/denain-1712.ron",
        "--system",
        "louis-xiv",
        "--turn",
        "best",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("needs a `--table`"));
}
