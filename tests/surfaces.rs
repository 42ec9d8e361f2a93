//! The classes of issue 19 that `tests/doors.rs` does not take through the real binary yet,
//! one test each, every run under a time limit: `--root` on every command that reads a
//! document; `fmt` on a miniatures system; a report bounded however many counters share a hex;
//! `{NEXT}` in a name through the Tiled export; characters XML cannot hold refused before any
//! export; a megabyte place name refused at the door, not drawn; ids differing by `.` and `_`
//! given their own VASSAL counter images.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
#![cfg(unix)]

mod support;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Runs the binary with `args` in `dir`, killed after 240 s.
fn run(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    let output = support::output_within(command, Duration::from_secs(240));
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[track_caller]
fn expect(run: &Run, code: i32, says: &[&str]) {
    assert_eq!(run.code, code, "exit code\n{}", run.all());
    for text in says {
        assert!(
            run.all().contains(text),
            "should say {text:?}:\n{}",
            run.all()
        );
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("bataille-surfaces-")
        .tempdir()
        .expect("a temporary folder")
}

/// The small test map's text with its name replaced.
fn small_map(name: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests/fixtures/maps/small.ron")).unwrap();
    text.replacen(
        "name: \"Small test map\"",
        &format!("name: {}", ron_string(name)),
        1,
    )
}

/// A RON string literal (escapes for `"` and `\` only: other characters are written as they
/// are, as a user's editor would).
fn ron_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A scenario on `small.ron` whose units are given as RON lines.
fn scenario(units: &str) -> String {
    format!(
        r##"Scenario(
    format_version: 1,
    title: "Surfaces",
    map: "small.ron",
    date: "1745-05-11",
    turns: 10,
    turn_minutes: 60,
    start_time: "05:00",
    rules: (
        system: "vae-victis",
        unit_kinds: {{"infantry": (name: "Infantry", symbol: Infantry, combat: true, front_hexsides: 2, flank_hexsides: 2)}},
        stacking: (compositions: [(name: "one unit", terms: [(kinds: ["infantry"], max_counters: 1)])]),
        command: (commander_radius_hexes: 5, leader_radius_hexes: 4),
    ),
    armies: [
        (
            id: "french",
            name: "French",
            commanders: [(id: "saxe", name: "Saxe", commands: ["centre"], placement: Hex("0303"))],
            corps: [(id: "centre", name: "Centre", colour: "#cc0000", leader: (id: "noailles", name: "Noailles", activation: 3, placement: Hex("0304")))],
            units: [
{units}            ],
        ),
    ],
    victory: (),
)
"##
    )
}

fn unit(id: &str, name: &str, hex: &str) -> String {
    format!(
        "                (id: {}, name: {}, kind: \"infantry\", corps: \"centre\", cp: 1, mp: 4, morale: 2, facing: NE, placement: Hex(\"{hex}\")),\n",
        ron_string(id),
        ron_string(name)
    )
}

/// Denain one folder deeper than its map and systems: `scenarios/deep/denain.ron` naming
/// `../../maps/…` and `../../systems/…`. No `.git`: the default root is the folder above the
/// scenario's (`scenarios/`), which the map is outside of.
fn deep_denain(dir: &Path) -> PathBuf {
    for folder in ["maps", "systems", "scenarios/deep"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::copy(
        root().join("maps/denain-1712.ron"),
        dir.join("maps/denain-1712.ron"),
    )
    .unwrap();
    for system in ["age-of-honor.ron", "louis-xiv.ron"] {
        std::fs::copy(
            root().join("systems").join(system),
            dir.join("systems").join(system),
        )
        .unwrap();
    }
    let text = std::fs::read_to_string(root().join("scenarios/denain-1712.ron")).unwrap();
    let text = text
        .replace("map: \"../maps/", "map: \"../../maps/")
        .replace("file: \"../systems/", "file: \"../../systems/");
    assert!(
        text.contains("../../systems/age-of-honor.ron"),
        "Denain names Age of Honor"
    );
    let path = dir.join("scenarios/deep/denain.ron");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn every_command_that_reads_a_document_takes_root() {
    let dir = tempdir();
    let dir = dir.path();
    deep_denain(dir);
    let scenario = "scenarios/deep/denain.ron";
    // Each command, with what it writes (none for export --json).
    let commands: [(&[&str], Option<&str>); 7] = [
        (&["validate", scenario], None),
        (&["export", "--json", scenario], None),
        (
            &["export", "--vassal", scenario, "--out", "out/denain.vmod"],
            Some("out/denain.vmod"),
        ),
        (
            &["export", "--tiled", scenario, "--out", "out/denain.tmx"],
            Some("out/denain.tmx"),
        ),
        (
            &["render", scenario, "--out", "out/denain.png"],
            Some("out/denain.png"),
        ),
        (
            &[
                "table",
                scenario,
                "--system",
                "age-of-honor",
                "--out",
                "out/plan.svg",
            ],
            Some("out/plan.svg"),
        ),
        (
            &["print", scenario, "--out", "out/kit.pdf"],
            Some("out/kit.pdf"),
        ),
    ];
    std::fs::create_dir_all(dir.join("out")).unwrap();
    for (args, writes) in commands {
        // Without --root the map is outside the default root: refused, nothing written.
        let refused = run(dir, args);
        expect(&refused, 1, &["E0208"]);
        if let Some(out) = writes {
            assert!(
                !dir.join(out).exists(),
                "{args:?} wrote {out} from a refused scenario"
            );
        }
        // With --root the folder holding all three, the same command does its work.
        let mut with_root = args.to_vec();
        with_root.extend(["--root", "."]);
        let done = run(dir, &with_root);
        assert_eq!(done.code, 0, "bataille {with_root:?}\n{}", done.all());
        if let Some(out) = writes {
            assert!(dir.join(out).is_file(), "{with_root:?} did not write {out}");
        }
        if args[..2] == ["export", "--json"] {
            let json: serde_json::Value =
                serde_json::from_str(&done.stdout).expect("export --json prints JSON");
            assert_eq!(json["map"], "../../maps/denain-1712.ron");
        }
        // A root that is not a folder is said, not taken for the default.
        let mut bad_root = args.to_vec();
        bad_root.extend(["--root", "no-such-folder"]);
        let bad = run(dir, &bad_root);
        assert_ne!(bad.code, 0, "{bad_root:?}\n{}", bad.all());
        assert!(
            bad.stderr.contains("--root no-such-folder: not a folder"),
            "{bad_root:?}\n{}",
            bad.all()
        );
    }
}

#[test]
fn fmt_gives_a_miniatures_system_its_canonical_form() {
    let dir = tempdir();
    let dir = dir.path();
    let canonical = std::fs::read_to_string(root().join("systems/louis-xiv.ron")).unwrap();
    // The repository's systems are canonical: `fmt --check systems/` lists nothing.
    expect(&run(&root(), &["fmt", "--check", "systems/"]), 0, &[]);
    // The same system laid out by hand: tables in another order, `Some(…)` spelt out.
    let mut lines: Vec<&str> = canonical.lines().collect();
    let troops = lines
        .iter()
        .position(|l| l.contains("troop_types: {"))
        .unwrap();
    lines[troops + 1..troops + 4].reverse();
    let by_hand = lines
        .join("\n")
        .replace("bases_per_unit: 3,", "bases_per_unit: Some(3),");
    let system = dir.join("louis-xiv.ron");
    std::fs::write(&system, &by_hand).unwrap();
    let check = run(dir, &["fmt", "--check", "."]);
    expect(&check, 1, &[]);
    assert_eq!(check.stdout.trim(), "./louis-xiv.ron", "{}", check.all());
    assert_eq!(
        std::fs::read_to_string(&system).unwrap(),
        by_hand,
        "--check wrote"
    );
    expect(
        &run(dir, &["fmt", "louis-xiv.ron"]),
        0,
        &["formatted louis-xiv.ron"],
    );
    assert_eq!(std::fs::read_to_string(&system).unwrap(), canonical);
    expect(&run(dir, &["fmt", "--check", "louis-xiv.ron"]), 0, &[]);
    // A comment would be lost: the system is left as it is, with the comment's place.
    let commented = canonical.replacen("    id:", "    // the id\n    id:", 1);
    std::fs::write(&system, &commented).unwrap();
    expect(
        &run(dir, &["fmt", "louis-xiv.ron"]),
        1,
        &["louis-xiv.ron:3:5", "no comments"],
    );
    assert_eq!(std::fs::read_to_string(&system).unwrap(), commented);
    // A system that does not parse is refused with its place, as a map or a scenario is.
    std::fs::write(
        dir.join("twice.ron"),
        "System(\n    format_version: 1,\n    id: \"a\",\n    id: \"b\",\n)\n",
    )
    .unwrap();
    expect(
        &run(dir, &["fmt", "--check", "twice.ron"]),
        1,
        &["twice.ron:4:5", "given twice"],
    );
}

#[test]
fn a_report_stays_bounded_however_many_counters_share_a_hex() {
    let dir = tempdir();
    let dir = dir.path();
    std::fs::write(dir.join("small.ron"), small_map("Small test map")).unwrap();
    let units: String = (0..300)
        .map(|i| unit(&format!("u{i}"), &format!("Regiment {i}"), "0505"))
        .collect();
    std::fs::write(dir.join("stack.ron"), scenario(&units)).unwrap();

    let json = run(dir, &["validate", "--format", "json", "stack.ron"]);
    assert_eq!(json.code, 1, "{}", json.all());
    let diagnostics: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let stack = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "E0301")
        .expect("the stack is reported");
    assert!(
        stack["message"].as_str().unwrap().contains("300 counters"),
        "{stack}"
    );
    let related = stack["related"].as_array().unwrap();
    assert_eq!(
        related.len(),
        21,
        "20 counters named and one place for the rest"
    );
    assert_eq!(related[0]["message"], "`u0` (infantry, 1 CP) is also here");
    assert_eq!(
        related[20]["message"],
        "and 279 more counters are here, from `u20` on"
    );
    assert_eq!(
        related[20]["line"],
        related[19]["line"].as_u64().unwrap() + 1
    );

    let sarif = run(dir, &["validate", "--format", "sarif", "stack.ron"]);
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("SARIF is JSON");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "E0301");
    assert_eq!(result["relatedLocations"].as_array().unwrap().len(), 21);

    let human = run(dir, &["validate", "stack.ron"]);
    assert_eq!(human.code, 1);
    assert!(
        human
            .stdout
            .contains("and 279 more counters are here, from `u20` on")
    );
    assert!(
        human.stdout.lines().count() < 80,
        "the report of one stack is a screen, not a line per counter:\n{}",
        human.stdout
    );
}

#[test]
fn a_name_holding_next_stays_text_in_the_tiled_export() {
    let dir = tempdir();
    let dir = dir.path();
    std::fs::write(dir.join("small.ron"), small_map("{NEXT} and {NEXTLAYER}")).unwrap();
    std::fs::write(
        dir.join("next.ron"),
        scenario(&unit("u1", "{NEXT} regiment", "0505")),
    )
    .unwrap();
    let done = run(dir, &["export", "--tiled", "next.ron", "--out", "next.tmx"]);
    assert_eq!(done.code, 0, "{}", done.all());
    let tmx = std::fs::read_to_string(dir.join("next.tmx")).unwrap();
    let doc = roxmltree::Document::parse(&tmx).expect("the .tmx is XML");
    let values: Vec<&str> = doc
        .descendants()
        .flat_map(|n| n.attributes().map(|a| a.value()))
        .collect();
    assert!(values.contains(&"{NEXT} and {NEXTLAYER}"), "the map's name");
    assert!(values.contains(&"{NEXT} regiment"), "the unit's name");
    let map = doc.root_element();
    let next: u32 = map.attribute("nextobjectid").unwrap().parse().unwrap();
    let ids: Vec<u32> = doc
        .descendants()
        .filter(|n| n.has_tag_name("object"))
        .map(|n| n.attribute("id").unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        next,
        ids.iter().max().unwrap() + 1,
        "nextobjectid follows the objects"
    );
}

#[test]
fn characters_xml_cannot_hold_are_refused_before_any_export() {
    for bad in ["a\u{1}b", "a\u{FFFE}b", "a\u{9B}b"] {
        let dir = tempdir();
        let dir = dir.path();
        std::fs::write(dir.join("small.ron"), small_map("Small test map")).unwrap();
        std::fs::write(dir.join("bad.ron"), scenario(&unit("u1", bad, "0505"))).unwrap();
        // validate says where, with the character shown, not obeyed.
        let checked = run(dir, &["validate", "bad.ron"]);
        expect(&checked, 1, &["E0123", "bad.ron:"]);
        for (args, out) in [
            (
                &["export", "--vassal", "bad.ron", "--out", "bad.vmod"][..],
                "bad.vmod",
            ),
            (
                &["export", "--tiled", "bad.ron", "--out", "bad.tmx"][..],
                "bad.tmx",
            ),
            (&["print", "bad.ron", "--out", "bad.pdf"][..], "bad.pdf"),
            (&["render", "bad.ron", "--out", "bad.png"][..], "bad.png"),
        ] {
            let refused = run(dir, args);
            expect(&refused, 1, &["E0123", "is refused"]);
            assert!(!dir.join(out).exists(), "{args:?} wrote {out} for {bad:?}");
        }
    }
}

#[test]
fn a_megabyte_place_name_is_refused_at_the_door_not_drawn() {
    let dir = tempdir();
    let dir = dir.path();
    let map = small_map("Small test map");
    let long = "Prouvy ".repeat(150_000);
    // The first label of the map, a megabyte long.
    let at = map.find("labels: {").expect("the small map has labels") + "labels: {".len();
    let map = format!(
        "{}\n        \"0101\": \"{long}\",{}",
        &map[..at],
        &map[at..]
    );
    std::fs::write(dir.join("long.ron"), map).unwrap();
    let started = Instant::now();
    let refused = run(dir, &["render", "long.ron", "--out", "long.png"]);
    expect(&refused, 1, &["E0105", "long.ron:"]);
    assert!(!dir.join("long.png").exists());
    // Not a timed test: a minute is far beyond what the check takes, far below the drawing.
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn ids_that_differ_by_dot_and_underscore_get_their_own_counter_images() {
    let dir = tempdir();
    let dir = dir.path();
    std::fs::write(dir.join("small.ron"), small_map("Small test map")).unwrap();
    let units = unit("a.b", "Dot", "0505") + &unit("a_b", "Underscore", "0606");
    std::fs::write(dir.join("ids.ron"), scenario(&units)).unwrap();
    let done = run(dir, &["export", "--vassal", "ids.ron", "--out", "ids.vmod"]);
    assert_eq!(done.code, 0, "{}", done.all());
    let file = std::fs::File::open(dir.join("ids.vmod")).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut build = String::new();
    zip.by_name("buildFile.xml")
        .unwrap()
        .read_to_string(&mut build)
        .unwrap();
    let doc = roxmltree::Document::parse(&build).unwrap();
    let image_of = |name: &str| -> String {
        let slot = doc
            .descendants()
            .find(|n| n.attribute("entryName") == Some(name))
            .unwrap_or_else(|| panic!("a piece slot for {name}"));
        let definition = slot.text().unwrap_or_default();
        definition
            .split([';', '\t', '\\', ','])
            .find(|part| part.ends_with(".png") && !part.contains("-back"))
            .unwrap_or_else(|| panic!("an image in {definition}"))
            .to_owned()
    };
    let (dot, underscore) = (image_of("Dot"), image_of("Underscore"));
    assert_ne!(dot, underscore, "one image for two counters");
    for image in [&dot, &underscore] {
        let mut bytes = Vec::new();
        zip.by_name(&format!("images/{image}"))
            .unwrap_or_else(|_| panic!("images/{image} in the module"))
            .read_to_end(&mut bytes)
            .unwrap();
        image::load_from_memory(&bytes).expect("a picture");
    }
}

#[test]
fn notes_beyond_the_shared_limit_are_refused_at_load_with_their_place() {
    let dir = tempdir();
    let dir = dir.path();
    std::fs::write(dir.join("small.ron"), small_map("Small test map")).unwrap();
    let limit = bataille_schema::limits::MAX_NOTES_CHARS as usize;
    let with_notes = |chars: usize| {
        scenario(&unit("u1", "Regiment", "0505")).replacen(
            "    victory: (),",
            &format!("    victory: (notes: {}),", ron_string(&"n".repeat(chars))),
            1,
        )
    };
    // At the limit: clean. One character more: refused, with the file, line and column of
    // the notes, by every command that loads the scenario.
    std::fs::write(dir.join("at.ron"), with_notes(limit)).unwrap();
    expect(&run(dir, &["validate", "at.ron"]), 0, &[]);
    std::fs::write(dir.join("over.ron"), with_notes(limit + 1)).unwrap();
    let line = with_notes(limit + 1)
        .lines()
        .position(|l| l.contains("victory: (notes"))
        .unwrap()
        + 1;
    let place = format!("over.ron:{line}:");
    expect(&run(dir, &["validate", "over.ron"]), 1, &["E0105", &place]);
    let exported = run(
        dir,
        &["export", "--vassal", "over.ron", "--out", "over.vmod"],
    );
    expect(&exported, 1, &["E0105", &place]);
    assert!(!dir.join("over.vmod").exists());
}
