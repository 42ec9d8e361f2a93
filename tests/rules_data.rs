//! The rules system as data (#24), end to end on the real `bataille` binary: a third game of
//! another publisher (Napoleon at Waterloo: one unit a hex, no corps or leaders, three
//! nationalities on two sides, victory by exiting units and a loss threshold, a combat
//! results table, "2x defence" terrain, columns of unequal length, roads along stated paths)
//! validates clean with no `allow`, and each capability is shown to work by breaking it in a
//! copy of the game's files. Every process runs with a time limit.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::{Path, PathBuf};
mod support;

use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary in `dir` with a time limit (killed past it).
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    support::output_within(command, Duration::from_secs(180))
}

/// `validate --format json`: the diagnostics and the exit code.
fn validate(dir: &Path, file: &str) -> (Vec<Value>, i32) {
    let output = run(dir, &["validate", "--format", "json", file]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (
        value.as_array().cloned().unwrap_or_default(),
        output.status.code().unwrap_or(-1),
    )
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    let mut codes: Vec<String> = diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str().map(str::to_owned))
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

const SCENARIO: &str = "scenarios/napoleon-at-waterloo.ron";
const MAP: &str = "maps/napoleon-at-waterloo.ron";

/// A copy of the game's scenario and map in a temporary folder, each edited by a replacement.
struct Copy {
    dir: tempfile::TempDir,
}

impl Copy {
    fn new(scenario_edits: &[(&str, &str)], map_edits: &[(&str, &str)]) -> Copy {
        let dir = tempfile::tempdir().expect("temporary folder");
        for (file, edits) in [(SCENARIO, scenario_edits), (MAP, map_edits)] {
            let mut text = std::fs::read_to_string(root().join(file)).expect("the game's file");
            for (from, to) in edits {
                assert!(text.contains(from), "{file} has no `{from}`");
                text = text.replacen(from, to, 1);
            }
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Copy { dir }
    }

    fn validate(&self) -> (Vec<Value>, i32) {
        validate(self.dir.path(), SCENARIO)
    }
}

#[test]
fn the_third_game_validates_clean_with_no_allow() {
    for file in [SCENARIO, MAP] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(!text.contains("allow:"), "{file} silences nothing");
        let (diagnostics, exit) = validate(&root(), file);
        assert_eq!(diagnostics, Vec::<Value>::new(), "{file}");
        assert_eq!(exit, 0, "{file}");
    }
    // Canonical as written, apostrophes unescaped.
    let output = run(&root(), &["fmt", "--check", SCENARIO, MAP]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let map = std::fs::read_to_string(root().join(MAP)).unwrap();
    assert!(map.contains(r#""Braine-l'Alleud""#));
}

#[test]
fn helps_cite_the_games_own_rule_numbers() {
    // Two units on one hex (4.4: one unit a hex).
    let copy = Copy::new(
        &[("placement: Hex(\"0509\")", "placement: Hex(\"0310\")")],
        &[],
    );
    let (diagnostics, exit) = copy.validate();
    assert_eq!(exit, 1);
    assert_eq!(codes(&diagnostics), ["E0301"]);
    let help = with_code(&diagnostics, "E0301")[0]["message"]
        .as_str()
        .unwrap()
        .to_owned()
        + with_code(&diagnostics, "E0301")[0]["help"]
            .as_str()
            .unwrap();
    assert!(help.contains("rule 4.4"), "{help}");
    for other in ["rule 3", "Fontenoy", "Denain", "8.1", "rule 9"] {
        assert!(!help.contains(other), "{other} in {help}");
    }
}

#[test]
fn allies_share_hexes_and_enemies_do_not() {
    // A Prussian placed with a British unit: allies (one side) break only the one-unit stacking.
    let prussian = "placement: Reinforcement(turn: 3, entry: [\"2303\", \"2307\", \"2308\", \"2309\", \"2311\", \"2312\", \"2313\", \"2316\"])";
    let copy = Copy::new(&[(prussian, "placement: Hex(\"1707\")")], &[]);
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0301"], "{diagnostics:?}");
    // The Prussians taken off the Allied side: now an enemy in the hex.
    let copy = Copy::new(
        &[
            (prussian, "placement: Hex(\"1707\")"),
            (
                "armies: [\"anglo-allied\", \"prussian\"]",
                "armies: [\"anglo-allied\"]",
            ),
        ],
        &[],
    );
    let (diagnostics, _) = copy.validate();
    let opposing = with_code(&diagnostics, "E0304");
    assert_eq!(opposing.len(), 1, "{diagnostics:?}");
    let help = opposing[0]["help"].as_str().unwrap();
    assert!(help.contains("(4.4)") && !help.contains("Denain"), "{help}");
    // An army on both sides.
    let copy = Copy::new(
        &[(
            "armies: [\"anglo-allied\", \"prussian\"]",
            "armies: [\"anglo-allied\", \"prussian\", \"french\"]",
        )],
        &[],
    );
    assert_eq!(codes(&copy.validate().0), ["E0209"]);
}

#[test]
fn command_is_asked_only_when_the_rules_have_it() {
    // The game states no command: 53 combat units without a corps, no E0401.
    let text = std::fs::read_to_string(root().join(SCENARIO)).unwrap();
    assert!(!text.contains("command:") && !text.contains("corps:"));
    // Give it a command structure with corps: now every unit needs one.
    let copy = Copy::new(
        &[(
            "        stacking: (",
            "        command: (line_leaders: false, commanders: false),\n        stacking: (",
        )],
        &[],
    );
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0401"]);
    assert_eq!(with_code(&diagnostics, "E0401").len(), 53);
    let help = with_code(&diagnostics, "E0401")[0]["help"]
        .as_str()
        .unwrap();
    assert!(!help.contains("rules 1, 5"), "{help}");
}

#[test]
fn victory_conditions_are_checked() {
    let exits = "hexes: [\"0101\", \"0201\"";
    let copy = Copy::new(&[(exits, "hexes: [\"1005\", \"3001\"")], &[]);
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0509", "E0514"], "{diagnostics:?}");
    assert_eq!(with_code(&diagnostics, "E0514")[0]["hex"], "1005");
    let copy = Copy::new(
        &[("side: \"france\", hexes", "side: \"nobody\", hexes")],
        &[],
    );
    assert_eq!(codes(&copy.validate().0), ["E0206"]);
}

#[test]
fn the_combat_results_table_is_checked() {
    let copy = Copy::new(
        &[(
            "(roll: 6, results: [\"Ae\", ",
            "(roll: 5, results: [\"Ae\", ",
        )],
        &[],
    );
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0703"]);
    let message = diagnostics[0]["message"].as_str().unwrap();
    assert!(
        message.contains("no row reads 6") && message.contains("5 read twice"),
        "{message}"
    );
    let copy = Copy::new(&[("\"Ae\", \"Ar\", \"Ar\", ", "\"Ae\", \"Ar\", ")], &[]);
    assert_eq!(codes(&copy.validate().0), ["E0702"]);
}

#[test]
fn absent_cells_are_not_hexes_and_entry_hexes_are_checked_against_terrain() {
    // 0217: even columns have 16 hexes.
    let copy = Copy::new(
        &[("placement: Hex(\"0514\")", "placement: Hex(\"0217\")")],
        &[],
    );
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0503"]);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("not a hex")
    );
    // 0117: odd columns have 17.
    let copy = Copy::new(
        &[("placement: Hex(\"0514\")", "placement: Hex(\"0117\")")],
        &[],
    );
    assert_eq!(copy.validate().0, Vec::<Value>::new());
    // A Prussian entering by a wood (no movement).
    let copy = Copy::new(&[("entry: [\"2303\"", "entry: [\"2301\"")], &[]);
    let (diagnostics, _) = copy.validate();
    assert_eq!(codes(&diagnostics), ["E0513"]);
    assert_eq!(diagnostics[0]["hex"], "2301");
}

#[test]
fn roads_run_along_the_paths_the_map_states() {
    let copy = Copy::new(&[], &[("\"0813 0914\"", "\"0813 1014\"")]);
    let (diagnostics, _) = validate(copy.dir.path(), MAP);
    assert_eq!(codes(&diagnostics), ["E0612"]);
    // The picture: the road leaves 1701 through its NE side, as the path says, so the hexside's
    // middle is road-coloured; the N side's middle is not.
    let out = copy.dir.path().join("map.png");
    let output = run(
        &root(),
        &[
            "render",
            MAP,
            "--out",
            out.to_str().unwrap(),
            "--scale",
            "48",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let image = image::open(&out).unwrap().to_rgb8();
    let road = [0xf3, 0xe9, 0xb5];
    let road_near = |[x, y]: [f32; 2]| {
        let (w, h) = image.dimensions();
        let mut hits = 0;
        for dy in -2i32..=2 {
            for dx in -2i32..=2 {
                let (px, py) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
                if px < w
                    && py < h
                    && image
                        .get_pixel(px, py)
                        .0
                        .iter()
                        .zip(road)
                        .all(|(a, b)| a.abs_diff(b) < 24)
                {
                    hits += 1;
                }
            }
        }
        hits > 3
    };
    // Where the renderer puts hex 1701 and the middles of its sides (its own layout).
    let map = bataille_schema::load_map(&root().join(MAP)).unwrap().map;
    let options = bataille_render::RenderOptions {
        px_per_hex: 48.0,
        ..bataille_render::RenderOptions::default()
    };
    let layout = bataille_render::Layout::new(&map.grid, &options).unwrap();
    let hex = map.grid.parse("1701").unwrap();
    let middle = |side| {
        let [a, b] = map.grid.side_corners(hex, side).unwrap();
        let (a, b) = (layout.to_image(a), layout.to_image(b));
        // A little inside the hex, on the way from the side's middle to the centre.
        let c = layout.to_image(map.grid.centre(hex));
        let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        [m[0] + (c[0] - m[0]) * 0.2, m[1] + (c[1] - m[1]) * 0.2]
    };
    use bataille_schema::Side;
    assert!(
        road_near(middle(Side::NE)),
        "no road towards 1701's NE side"
    );
    assert!(!road_near(middle(Side::N)), "a road towards 1701's N side");
    // The road from 1601 comes in through 1701's SW side.
    assert!(road_near(middle(Side::SW)), "no road from 1601");
}

#[test]
fn the_kit_and_the_module_print_the_games_counters_and_chart() {
    let dir = tempfile::tempdir().unwrap();
    let vmod = dir.path().join("naw.vmod");
    let output = run(
        &root(),
        &[
            "export",
            "--vassal",
            SCENARIO,
            "--out",
            vmod.to_str().unwrap(),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let file = std::fs::File::open(&vmod).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut entries: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut bytes).unwrap();
        entries.insert(entry.name().unwrap().into_owned(), bytes);
    }
    let names: Vec<&String> = entries.keys().collect();
    // The game's one marker, the turn marker; none of the Vae Victis markers.
    assert!(
        names.iter().any(|n| n.as_str() == "images/marker-turn.png"),
        "{names:?}"
    );
    for absent in ["disorder", "out-of-command"] {
        assert!(
            !names.iter().any(|n| n.contains(absent)),
            "{absent}: {names:?}"
        );
    }
    let build = String::from_utf8_lossy(&entries["buildFile.xml"]).into_owned();
    assert!(build.contains("Grenadiers of the Guard"));
    assert!(!build.contains("Disorder"));
    // The combat results table in a chart window, drawn as an image; the die it is read with.
    let xml = roxmltree::Document::parse(&build).unwrap();
    let chart = xml
        .descendants()
        .find(|n| n.tag_name().name() == "VASSAL.build.widget.Chart")
        .expect("a chart");
    assert_eq!(chart.attribute("chartName"), Some("Combat Results Table"));
    assert_eq!(
        chart.parent().unwrap().tag_name().name(),
        "VASSAL.build.module.ChartWindow"
    );
    let image = &entries[&format!("images/{}", chart.attribute("fileName").unwrap())];
    let picture = image::load_from_memory(image).unwrap();
    assert!(picture.width() > 300 && picture.height() > 150);
    let dice = xml
        .descendants()
        .find(|n| n.tag_name().name() == "VASSAL.build.module.DiceButton")
        .unwrap();
    assert_eq!(
        (dice.attribute("nDice"), dice.attribute("nSides")),
        (Some("1"), Some("6"))
    );
    // The kit: a page more for the chart; its text is in the PDF's page streams, compressed, so
    // the page count and the summary say it.
    let kit = dir.path().join("kit.pdf");
    let output = run(
        &root(),
        &["print", SCENARIO, "--out", kit.to_str().unwrap()],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(summary.contains("1 counter sheet"), "{summary}");
    assert!(summary.contains("charts"), "{summary}");
}
