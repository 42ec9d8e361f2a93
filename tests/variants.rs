//! Scenario variants (issue 25) against the real `bataille` binary, each run under a time
//! limit: the bundled variants validate clean; a change naming an id the base lacks, a change
//! that changes nothing and two contradicting changes are reported at the variant's line; a
//! change to the base that breaks a variant fails with the variant's line; `fmt`, `schema`,
//! `export --json`, `render` and `table` take a variant.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod support;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `dir`, killed after 120 s.
fn run(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    let output = support::output_within(command, Duration::from_secs(120));
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A repository holding Denain (map, scenario, systems) to change at will.
struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("repo");
        for sub in [".git", "scenarios", "maps", "systems"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        for file in [
            "maps/denain-1712.ron",
            "scenarios/denain-1712.ron",
            "systems/age-of-honor.ron",
            "systems/louis-xiv.ron",
        ] {
            std::fs::copy(self::root().join(file), root.join(file)).expect("copy");
        }
        Repo { _dir: dir, root }
    }

    fn write(&self, path: &str, text: &str) {
        std::fs::write(self.root.join(path), text).expect("write");
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.root.join(path)).expect("read")
    }

    fn run(&self, args: &[&str]) -> Run {
        run(&self.root, args)
    }
}

fn json(run: &Run) -> Vec<serde_json::Value> {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", run.stdout, run.stderr))
}

/// (code, file, line) of each diagnostic of a JSON report.
fn places(diagnostics: &[serde_json::Value]) -> Vec<(String, String, u64)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_owned(),
                d["file"].as_str().unwrap_or("").to_owned(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> u64 {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    text[..at].matches('\n').count() as u64 + 1
}

#[test]
fn the_bundled_variants_validate_clean_and_are_canonical() {
    let variants = [
        "scenarios/denain-1712-camp-renforce.ron",
        "scenarios/denain-1712-tingry-tard.ron",
        "scenarios/fontenoy-1745-redoute-eu.ron",
        "scenarios/fontenoy-1745-hollandais.ron",
    ];
    for variant in variants {
        let text = std::fs::read_to_string(root().join(variant)).expect("variant");
        assert!(text.starts_with("Variant("), "{variant}");
        let report = run(&root(), &["validate", "--format", "json", variant]);
        let diagnostics = json(&report);
        assert_eq!(report.code, 0, "{variant}: {diagnostics:#?}");
        // Only the base's own expected warning (Denain: Holstein-Beck out of command, 13.1),
        // in the base file: nothing in the variant.
        for d in &diagnostics {
            assert_ne!(d["file"].as_str(), Some(variant), "{variant}: {d:#}");
            assert_eq!(d["severity"], "warning", "{variant}: {d:#}");
        }
    }
    let check = run(&root(), &["fmt", "--check", "scenarios/"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    // The whole folder, as CI runs it: base and variants, one warning (the base's, once).
    let all = run(&root(), &["validate", "--format", "json", "scenarios/"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let codes: Vec<_> = places(&json(&all)).into_iter().map(|p| p.0).collect();
    assert_eq!(codes, ["W0801"]);
}

#[test]
fn each_problem_of_a_change_is_reported_at_its_line() {
    let repo = Repo::new();
    let text = r#"Variant(
    format_version: 1,
    name: "Broken",
    base: "denain-1712.ron",
    turns: 10,
    units: {
        "al-douglas": (cp: 3),
        "fr-navarre-1": (placement: Hex("1312"), turn: 2),
        "no-such-unit": (cp: 1),
    },
    leaders: {
        "fr-villars": (activation: 3),
    },
    remove_units: ["al-douglas"],
)
"#;
    repo.write("scenarios/broken.ron", text);
    let report = repo.run(&["validate", "--format", "json", "scenarios/broken.ron"]);
    assert_eq!(report.code, 1, "{}", report.stderr);
    let found = places(&json(&report));
    let at = |code: &str, needle: &str| {
        (
            code.to_owned(),
            "scenarios/broken.ron".to_owned(),
            line_of(text, needle),
        )
    };
    for expected in [
        at("W1102", "turns: 10"),
        at("E1103", "\"al-douglas\": (cp: 3)"),
        at("E1103", "\"fr-navarre-1\""),
        at("E1101", "\"no-such-unit\""),
        at("E1105", "\"fr-villars\""),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:#?}");
    }
    // The door refuses it for the commands that draw.
    let render = repo.run(&["render", "scenarios/broken.ron", "--out", "x.png"]);
    assert_eq!(render.code, 1, "{}", render.stderr);
    assert!(render.stderr.contains("E1101"), "{}", render.stderr);
    assert!(!repo.root.join("x.png").exists());
}

#[test]
fn a_change_to_the_base_that_breaks_a_variant_fails_with_the_variants_line() {
    let repo = Repo::new();
    let text = r#"Variant(
    format_version: 1,
    name: "Douglas forward",
    base: "denain-1712.ron",
    units: {
        "al-douglas": (placement: Hex("1913")),
    },
)
"#;
    repo.write("scenarios/forward.ron", text);
    let clean = repo.run(&["validate", "--format", "json", "scenarios/forward.ron"]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);

    // The base renames the unit the variant moves: the variant's change names nothing.
    let base = repo.read("scenarios/denain-1712.ron");
    repo.write(
        "scenarios/denain-1712.ron",
        &base.replace("\"al-douglas\"", "\"al-douglas-regiment\""),
    );
    let broken = repo.run(&["validate", "--format", "json", "scenarios/"]);
    assert_eq!(broken.code, 1, "{}", broken.stdout);
    let found = places(&json(&broken));
    let expected = (
        "E1101".to_owned(),
        "scenarios/forward.ron".to_owned(),
        line_of(text, "\"al-douglas\""),
    );
    assert!(found.contains(&expected), "{found:#?}");

    // The base puts another unit on the hex the variant moves Douglas to: overstacked, at the
    // variant's change (the base alone is clean there).
    repo.write(
        "scenarios/denain-1712.ron",
        &base.replace(
            "(id: \"al-kettler-2\", name: \"Kettler 2/\", kind: \"infantry\", corps: \"al-garnison-denain\", cp: 1, mp: 4, morale: 3, facing: SW, placement: Hex(\"1615\"))",
            "(id: \"al-kettler-2\", name: \"Kettler 2/\", kind: \"infantry\", corps: \"al-garnison-denain\", cp: 1, mp: 4, morale: 3, facing: SW, placement: Hex(\"1913\"))",
        ),
    );
    let base_alone = repo.run(&["validate", "--format", "json", "scenarios/denain-1712.ron"]);
    assert!(
        !places(&json(&base_alone)).iter().any(|p| p.0 == "E0301"),
        "{}",
        base_alone.stdout
    );
    let stacked = repo.run(&["validate", "--format", "json", "scenarios/forward.ron"]);
    assert_eq!(stacked.code, 1, "{}", stacked.stdout);
    let diagnostics = json(&stacked);
    let stack = diagnostics
        .iter()
        .find(|d| d["code"] == "E0301")
        .unwrap_or_else(|| panic!("no E0301: {diagnostics:#?}"));
    assert_eq!(stack["file"], "scenarios/forward.ron", "{stack:#}");
    assert_eq!(
        stack["line"].as_u64(),
        Some(line_of(text, "Hex(\"1913\")")),
        "{stack:#}"
    );
}

#[test]
fn a_variant_names_its_base_inside_the_repository_only() {
    let repo = Repo::new();
    std::fs::write(
        repo.root.parent().expect("outside").join("outside.ron"),
        "SECRET-7f3(password: \"SECRET-7f3\")\n",
    )
    .expect("write");
    repo.write(
        "scenarios/escape.ron",
        "Variant(format_version: 1, name: \"Escape\", base: \"../../outside.ron\")\n",
    );
    repo.write(
        "scenarios/stranger.ron",
        "Variant(format_version: 1, name: \"Stranger\", base: \"../maps/notes.txt\")\n",
    );
    repo.write("maps/notes.txt", "SECRET-7f3 not a document\n");
    for file in ["scenarios/escape.ron", "scenarios/stranger.ron"] {
        let report = repo.run(&["validate", file]);
        assert_eq!(report.code, 1, "{file}: {}", report.stderr);
        let all = format!("{}{}", report.stdout, report.stderr);
        assert!(all.contains("E1104"), "{file}: {all}");
        assert!(
            !all.contains("SECRET-7f3"),
            "{file} quoted a file not ours: {all}"
        );
    }
}

#[test]
fn fmt_schema_export_render_and_table_take_a_variant() {
    let repo = Repo::new();
    // Written by hand, out of canonical order and spacing.
    repo.write(
        "scenarios/v.ron",
        "Variant(name: \"Late\", format_version: 1, base: \"denain-1712.ron\",\n  units: {\"fr-valenciennes-2\": (turn: 3), \"fr-valenciennes-1\": (turn: 3)})\n",
    );
    let fmt = repo.run(&["fmt", "scenarios/v.ron"]);
    assert_eq!(fmt.code, 0, "{}", fmt.stderr);
    let formatted = repo.read("scenarios/v.ron");
    assert!(
        formatted.starts_with("Variant(\n    format_version: 1,\n    name: \"Late\",\n    base: \"denain-1712.ron\",\n"),
        "{formatted}"
    );
    // One change per line, ids in order.
    let one = formatted
        .find("\"fr-valenciennes-1\": (turn: 3),")
        .expect("one");
    let two = formatted
        .find("\"fr-valenciennes-2\": (turn: 3),")
        .expect("two");
    assert!(one < two, "{formatted}");
    let again = repo.run(&["fmt", "--check", "scenarios/v.ron"]);
    assert_eq!(again.code, 0, "{}", again.stdout);

    let schema = repo.run(&["schema"]);
    let schemas: serde_json::Value = serde_json::from_str(&schema.stdout).expect("json");
    assert_eq!(
        schemas["variant.schema.json"]["$id"],
        "variant.schema.json",
        "{schema:?}",
        schema = schemas.get("variant.schema.json")
    );
    assert_eq!(
        schemas["variant.schema.json"],
        serde_json::from_str::<serde_json::Value>(
            &std::fs::read_to_string(root().join("schema/variant.schema.json"))
                .expect("checked in")
        )
        .expect("json")
    );

    let export = repo.run(&["export", "--json", "scenarios/v.ron"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let value: serde_json::Value = serde_json::from_str(&export.stdout).expect("json");
    assert_eq!(value["base"], "denain-1712.ron");
    assert_eq!(value["units"]["fr-valenciennes-1"]["turn"], 3);

    let render = repo.run(&["render", "scenarios/v.ron", "--out", "v.png"]);
    assert_eq!(render.code, 0, "{}", render.stderr);
    let png = std::fs::read(repo.root.join("v.png")).expect("png");
    assert!(png.starts_with(b"\x89PNG"));

    let table = repo.run(&[
        "table",
        "scenarios/v.ron",
        "--system",
        "louis-xiv",
        "--figures",
        "15mm",
        "--out",
        "plan.svg",
    ]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let svg = repo.read("plan.svg");
    assert!(svg.contains("Late"), "the table names the variant");
}

fn pdftotext(pdf: &Path) -> Option<String> {
    let mut command = Command::new("pdftotext");
    command.arg(pdf).arg("-");
    let output = support::try_output_within(command, Duration::from_secs(60)).ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn the_kit_of_a_variant_says_what_it_changes_and_prints_its_set_up() {
    let repo = Repo::new();
    repo.write(
        "scenarios/late.ron",
        "Variant(format_version: 1, name: \"Late\", base: \"denain-1712.ron\", notes: \"Tingry waits.\", sources: [\"Denain 13.2\"], turns: 11,\n  units: {\"fr-valenciennes-1\": (turn: 4)}, leaders: {\"fr-tingry\": (turn: 4)}, remove_units: [\"al-kettler-2\"])\n",
    );
    let print = repo.run(&["print", "scenarios/late.ron", "--out", "kit.pdf"]);
    assert_eq!(print.code, 0, "{}", print.stderr);
    let Some(text) = pdftotext(&repo.root.join("kit.pdf")) else {
        eprintln!(
            "\n!!! SKIPPED the kit's text checks: no pdftotext on PATH (./run installs poppler-utils) !!!\n"
        );
        return;
    };
    // Denain's kit is in French: the page's words are, and so are the change sentences (they
    // were English in a French kit); each change says the published value.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!flat.contains("(published:"), "no English sentence: {flat}");
    for expected in [
        "Variante — Late",
        "Tingry waits.",
        "La partie dure 11 tours (publié : 10).",
        "Valenciennes 1/ : entre au tour 4 par 3211 ou 3212 (publié : entre au tour 1 par 3211 ou 3212).",
        "Prince de Tingry : entre au tour 4 par 3211 ou 3212 (publié : entre au tour 1 par 3211 ou 3212).",
        "Retiré : Kettler 2/.",
        "Denain 13.2",
    ] {
        assert!(
            flat.contains(expected),
            "`{expected}` not in the kit:\n{flat}"
        );
    }
    // The set-up is the variant's: the reinforcement schedule has a turn 4 the base lacks.
    let base = repo.run(&["print", "scenarios/denain-1712.ron", "--out", "base.pdf"]);
    assert_eq!(base.code, 0, "{}", base.stderr);
    let base_text = pdftotext(&repo.root.join("base.pdf")).unwrap_or_default();
    assert!(
        !base_text.contains("Variante"),
        "the base's kit is no variant's"
    );
    let turn_4 = |t: &str| t.contains("Tour 4 — ");
    assert!(turn_4(&text) && !turn_4(&base_text), "{flat}");
}

#[test]
fn a_variant_exports_to_vassal_as_its_own_module() {
    let repo = Repo::new();
    repo.write(
        "scenarios/late.ron",
        "Variant(format_version: 1, name: \"Late\", base: \"denain-1712.ron\",\n  units: {\"fr-valenciennes-1\": (turn: 4)})\n",
    );
    let export = repo.run(&[
        "export",
        "--vassal",
        "scenarios/late.ron",
        "--out",
        "late.vmod",
    ]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let bytes = std::fs::read(repo.root.join("late.vmod")).expect("module");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
    let mut build = String::new();
    zip.by_name("buildFile.xml")
        .expect("buildFile.xml")
        .read_to_string(&mut build)
        .expect("read");
    assert!(
        build.contains("— Late"),
        "the module is named for the variant"
    );
    // Valenciennes 1/ waits in the reinforcements' turn 4 panel.
    let turn_4 = build.find("entryName=\"Turn 4 (").expect("a turn 4 panel");
    let panel_end = build[turn_4..]
        .find("</VASSAL.build.widget.PanelWidget>")
        .expect("panel end");
    assert!(
        build[turn_4..turn_4 + panel_end].contains("Valenciennes 1/"),
        "{}",
        &build[turn_4..turn_4 + panel_end]
    );
}

#[test]
fn removing_a_unit_the_base_s_victory_names_is_reported_at_the_removal() {
    let repo = Repo::new();
    let text = "Variant(\n    format_version: 1,\n    name: \"No baggage\",\n    base: \"denain-1712.ron\",\n    remove_units: [\n        \"al-bagages\",\n    ],\n)\n";
    repo.write("scenarios/nb.ron", text);
    let report = repo.run(&["validate", "--format", "json", "scenarios/nb.ron"]);
    assert_eq!(report.code, 1, "{}", report.stdout);
    let found = places(&json(&report));
    let expected = (
        "E0207".to_owned(),
        "scenarios/nb.ron".to_owned(),
        line_of(text, "\"al-bagages\""),
    );
    assert!(found.contains(&expected), "{found:#?}");
}

/// The commands of a saved game in a module (`savedGame`, deobfuscated), split at VASSAL's
/// command separator.
fn saved_game_commands(module: &[u8], file: &str) -> Vec<String> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(module)).expect("module");
    let mut save = Vec::new();
    zip.by_name(file)
        .unwrap_or_else(|_| panic!("{file} in the module"))
        .read_to_end(&mut save)
        .expect("read");
    let mut inner = zip::ZipArchive::new(std::io::Cursor::new(save)).expect("a saved game");
    let mut text = String::new();
    inner
        .by_name("savedGame")
        .expect("savedGame")
        .read_to_string(&mut text)
        .expect("read");
    bataille_export::variants::deobfuscate(&text)
        .expect("VASSAL's obfuscation")
        .split('\u{1b}')
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_module_of_a_base_offers_each_variant_as_a_predefined_setup() {
    let repo = Repo::new();
    // Douglas (2011) and Fechenbach 2/ (1911) change places; Valenciennes 1/ comes on turn 4.
    repo.write(
        "scenarios/swap.ron",
        "Variant(format_version: 1, name: \"Swap\", base: \"denain-1712.ron\",\n  units: {\"al-douglas\": (placement: Hex(\"1911\"), cp: 3), \"al-fechenbach-2\": (placement: Hex(\"2011\")), \"fr-valenciennes-1\": (turn: 4)})\n",
    );
    // Not a variant of this base: left out.
    repo.write(
        "scenarios/other.ron",
        "Variant(format_version: 1, name: \"Other\", base: \"elsewhere.ron\")\n",
    );
    let export = repo.run(&[
        "export",
        "--vassal",
        "scenarios/denain-1712.ron",
        "--out",
        "d.vmod",
    ]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert!(
        export
            .stdout
            .contains("with 1 variant as predefined setups"),
        "{}",
        export.stdout
    );
    let module = std::fs::read(repo.root.join("d.vmod")).expect("module");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(module.clone())).expect("zip");
    let mut build = String::new();
    zip.by_name("buildFile.xml")
        .expect("buildFile.xml")
        .read_to_string(&mut build)
        .expect("read");
    // The published set-up stays (the at-start stacks, "New Game"), then the variant's file.
    assert!(
        build.contains("<VASSAL.build.module.PredefinedSetup name=\"Denain 1712 — scénario historique\" description=\"The published set-up\" isMenu=\"false\" useFile=\"false\" file=\"\"/>"),
        "{build}"
    );
    assert!(
        build.contains("<VASSAL.build.module.PredefinedSetup name=\"Swap\" description=\"A variant of Denain 1712 — scénario historique\" isMenu=\"false\" useFile=\"true\" file=\"setup-1.vsav\"/>"),
        "{build}"
    );
    assert!(!build.contains("name=\"Other\""));
    // The variant's reinforcement schedule, in a panel of its own.
    let panel = build
        .find("entryName=\"Swap — Turn 4 (14:00)\"")
        .expect("the variant's turn 4 panel");
    let panel_end = panel
        + build[panel..]
            .find("</VASSAL.build.widget.PanelWidget>")
            .expect("panel end");
    assert!(build[panel..panel_end].contains("Valenciennes 1/ (enters at 3211, 3212)"));

    let commands = saved_game_commands(&module, "setup-1.vsav");
    assert_eq!(commands.first().map(String::as_str), Some("begin_save"));
    assert_eq!(commands.get(1).map(String::as_str), Some("SETUP_STACK\t"));
    assert_eq!(commands.last().map(String::as_str), Some("end_save"));
    // Where the module's at-start stack of a hex stands.
    let stack_at = |hex: &str| -> (String, String) {
        let at = build
            .find(&format!("SetupStack name=\"{hex}\""))
            .unwrap_or_else(|| panic!("a stack at {hex}"));
        let attr = |name: &str| {
            let from =
                build[at..].find(&format!(" {name}=\"")).expect("attribute") + at + name.len() + 3;
            build[from..from + build[from..].find('"').expect("quote")].to_owned()
        };
        (attr("x"), attr("y"))
    };
    let piece = |name: &str| {
        commands
            .iter()
            .find(|c| c.contains(&format!(";{name}.png;")))
            .unwrap_or_else(|| panic!("{name} in the saved game"))
            .clone()
    };
    let (x, y) = stack_at("1911");
    let douglas = piece("c-al-douglas.setup-1");
    assert!(douglas.contains(&format!("Main Map;{x};{y};")), "{douglas}");
    // Douglas's CP changed: drawn from an image of the setup's own, in the module.
    assert!(douglas.contains("c-al-douglas.setup-1.png"), "{douglas}");
    assert!(zip.by_name("images/c-al-douglas.setup-1.png").is_ok());
    let (x2, y2) = stack_at("2011");
    let fechenbach = piece("c-al-fechenbach-2");
    assert!(
        fechenbach.contains(&format!("Main Map;{x2};{y2};")),
        "{fechenbach}"
    );
    // Fechenbach's values did not change: the module's image.
    assert!(fechenbach.contains("c-al-fechenbach-2.png"), "{fechenbach}");
    // The piece's traits are the module's slot's, its state placed on the main map.
    let slot_start = build
        .find("entryName=\"Fechenbach 2/\"")
        .expect("Fechenbach's slot");
    let slot = &build[slot_start..slot_start + build[slot_start..].find("</VASSAL").expect("end")];
    let slot_type = slot
        .split_once("+/null/")
        .map(|(_, rest)| rest.replace("&#9;", "\t"))
        .expect("slot definition");
    let slot_type = slot_type
        .rsplit_once('/')
        .map(|(t, _)| t.to_owned())
        .expect("type");
    assert!(fechenbach.contains(&slot_type), "{fechenbach}\n{slot_type}");
    // Valenciennes 1/ is a reinforcement: not on the map at the start.
    assert!(!commands.iter().any(
        |c| c.contains("c-fr-valenciennes-1.png;") || c.contains("c-fr-valenciennes-1.setup-")
    ));
    // Hexes holding two counters or more are stacks of those pieces.
    let stacks: Vec<&String> = commands.iter().filter(|c| c.contains("/stack/")).collect();
    assert!(!stacks.is_empty());
    for stack in stacks {
        let state = stack.rsplit_once("/stack/").expect("state").1;
        let ids: Vec<&str> = state.split(';').skip(3).collect();
        assert!(ids.len() >= 2, "{stack}");
        for id in ids {
            assert!(
                commands.iter().any(|c| c.starts_with(&format!("+/{id}/"))),
                "stack {stack} names {id}, which the saved game does not add"
            );
        }
    }
}
