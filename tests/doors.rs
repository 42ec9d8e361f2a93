//! The two doors (issue 19), against the real `bataille` binary: one class of hostile input per
//! test, each run under a time limit. And a scan of the sources that fails when a command reads
//! a document, writes a file or prints other than through the doors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
#![cfg(unix)]

mod support;

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

impl Run {
    fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Runs `sh -c SCRIPT` (the binary is `$B`) in `dir`, killed after 60 s.
fn shell(dir: &Path, script: &str) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .env("B", env!("CARGO_BIN_EXE_bataille"))
        .current_dir(dir);
    let output = support::output_within(command, Duration::from_secs(60));
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs the binary with `args` in `dir`.
fn run(dir: &Path, args: &[&str]) -> Run {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    shell(dir, &format!("exec \"$B\" {}", quoted.join(" ")))
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

/// A repository: `.git`, `maps/small.ron`, `systems/` (the two bundled systems) and
/// `scenarios/s.ron` (the miniatures fixture: clean under both systems), inside a folder that
/// holds a secret outside the repository.
struct Repo {
    _dir: tempfile::TempDir,
    outside: PathBuf,
    root: PathBuf,
}

const SECRET: &str = "SECRET-MARKER-4b1e";

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let outside = dir.path().to_path_buf();
        let root = outside.join("repo");
        for sub in [".git", "scenarios", "maps", "systems"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        let copy = |from: &str, to: &str| {
            std::fs::copy(self::root().join(from), root.join(to)).expect("copy");
        };
        // A ground scale, so the table has one.
        let map = std::fs::read_to_string(self::root().join("tests/fixtures/maps/small.ron"))
            .expect("map")
            .replacen(
                "    terrain: {",
                "    metres_per_hex: 200.0,\n    terrain: {",
                1,
            );
        std::fs::write(root.join("maps/small.ron"), map).expect("write");
        copy("systems/age-of-honor.ron", "systems/age-of-honor.ron");
        copy("systems/louis-xiv.ron", "systems/louis-xiv.ron");
        let scenario =
            std::fs::read_to_string(self::root().join("tests/fixtures/valid/miniatures.ron"))
                .expect("fixture")
                .replace("../../../systems/", "../systems/");
        std::fs::write(root.join("scenarios/s.ron"), scenario).expect("write");
        std::fs::write(
            outside.join("secret.ron"),
            format!("{SECRET}(password: \"{SECRET}\")\n"),
        )
        .expect("secret");
        Repo {
            _dir: dir,
            outside,
            root,
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).expect("read")
    }

    fn write(&self, relative: &str, text: &str) {
        std::fs::write(self.path(relative), text).expect("write");
    }

    /// The scenario with `from` replaced by `to` (which must be there).
    fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert!(text.contains(from), "{relative} holds {from:?}");
        self.write(relative, &text.replacen(from, to, 1));
    }

    fn run(&self, args: &[&str]) -> Run {
        run(&self.root, args)
    }
}

#[test]
fn the_repository_is_clean_before_anything_is_done_to_it() {
    let repo = Repo::new();
    expect(
        &repo.run(&["validate", "scenarios", "maps", "systems"]),
        0,
        &[],
    );
    expect(
        &repo.run(&[
            "table",
            "scenarios/s.ron",
            "--system",
            "louis-xiv",
            "--out",
            "plan.svg",
        ]),
        0,
        &[],
    );
}

/// Script in a shared file: a corps colour that closes the attribute. The table plan is never
/// drawn from a scenario the door refused, and nothing is written.
#[test]
fn a_colour_that_would_be_markup_is_refused_before_any_plan_is_drawn() {
    let repo = Repo::new();
    repo.edit(
        "scenarios/s.ron",
        "colour: \"#cc0000\"",
        "colour: \"#cc0000\\\"/><script>alert(1)</script><rect x=\\\"0\"",
    );
    for args in [
        &[
            "table",
            "scenarios/s.ron",
            "--system",
            "louis-xiv",
            "--out",
            "plan.svg",
        ][..],
        &[
            "export",
            "--vassal",
            "scenarios/s.ron",
            "--out",
            "plan.vmod",
        ],
        &["print", "scenarios/s.ron", "--out", "plan.pdf"],
        &["render", "scenarios/s.ron", "--out", "plan.png"],
    ] {
        let run = repo.run(args);
        expect(&run, 1, &["E0105", "is refused"]);
    }
    let written: Vec<_> = std::fs::read_dir(&repo.root)
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("plan"))
        .collect();
    assert!(written.is_empty(), "nothing written: {written:?}");
}

/// Files outside the repository: a system file and a background scan are confined as `map:`
/// is, and a file that is not ours is never quoted.
#[test]
fn references_to_files_outside_the_repository_are_refused_and_never_quoted() {
    let repo = Repo::new();
    let absolute = repo.outside.join("secret.ron");
    for file in ["../../secret.ron", absolute.to_str().expect("utf-8")] {
        repo.edit(
            "scenarios/s.ron",
            "file: \"../systems/louis-xiv.ron\"",
            &format!("file: {}", serde_json::to_string(file).expect("quote")),
        );
        let run = repo.run(&["validate", "scenarios/s.ron"]);
        expect(&run, 1, &["E1001"]);
        assert!(!run.all().contains(SECRET), "leaked: {}", run.all());
        let run = repo.run(&[
            "table",
            "scenarios/s.ron",
            "--system",
            "age-of-honor",
            "--out",
            "p.svg",
        ]);
        expect(&run, 1, &["E1001"]);
        assert!(!run.all().contains(SECRET), "leaked: {}", run.all());
        repo.edit(
            "scenarios/s.ron",
            &format!("file: {}", serde_json::to_string(file).expect("quote")),
            "file: \"../systems/louis-xiv.ron\"",
        );
    }
    // Inside the repository but not a system: named by place, not quoted.
    std::fs::copy(repo.outside.join("secret.ron"), repo.path("systems/x.ron")).expect("copy");
    repo.edit(
        "scenarios/s.ron",
        "file: \"../systems/louis-xiv.ron\"",
        "file: \"../systems/x.ron\"",
    );
    let run = repo.run(&["validate", "scenarios/s.ron"]);
    expect(&run, 1, &["E1001", "not a system file"]);
    assert!(!run.all().contains(SECRET), "leaked: {}", run.all());

    // A map's background scan outside the repository: E0210, and no export reads it.
    std::fs::write(repo.outside.join("secret.png"), SECRET).expect("write");
    repo.edit(
        "maps/small.ron",
        "    rows: [",
        "    background: (image: \"../../secret.png\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    rows: [",
    );
    expect(
        &repo.run(&["validate", "maps/small.ron"]),
        1,
        &["E0210", "leads outside"],
    );
    let run = repo.run(&["export", "--tiled", "maps/small.ron", "--out", "m.tmx"]);
    expect(&run, 1, &["E0210"]);
    assert!(
        !repo.path("m.tmx").exists(),
        "no Tiled map of a refused map"
    );
}

/// Rules files are documents: NaN, bounds, a key given twice, control characters; and
/// `bataille schema` writes the system schema.
#[test]
fn system_files_get_every_check_a_document_gets() {
    let repo = Repo::new();
    let good = repo.read("systems/louis-xiv.ron");
    for (from, to, code) in [
        ("metres_per_mm: 2.0", "metres_per_mm: NaN", "E0122"),
        ("metres_per_mm: 2.0", "metres_per_mm: -2", "E0105"),
        ("metres_per_mm: 2.0", "metres_per_mm: 0", "E0105"),
        (
            "name: \"Louis XIV rules\"",
            "name: \"Louis\\u{9b}2J XIV\"",
            "E0123",
        ),
        (
            "troop_types: {",
            "troop_types: {\n        \"artillery\": (name: \"Twice\", arm: Artillery, unit_name: \"battery\", base: \"gun\", figures_per_base: 1),",
            "E0120",
        ),
    ] {
        repo.write("systems/louis-xiv.ron", &good);
        repo.edit("systems/louis-xiv.ron", from, to);
        let run = repo.run(&["validate", "systems/"]);
        expect(&run, 1, &[code, "systems/louis-xiv.ron"]);
        // The scenario naming it is refused for the table, with the system's own diagnostic.
        let run = repo.run(&[
            "table",
            "scenarios/s.ron",
            "--system",
            "louis-xiv",
            "--out",
            "p.svg",
        ]);
        expect(&run, 1, &["E1001", code]);
    }
    let run = repo.run(&["schema", "--out", "schemas"]);
    expect(&run, 0, &["system.schema.json"]);
    let schema: serde_json::Value =
        serde_json::from_str(&repo.read("schemas/system.schema.json")).expect("json");
    assert_eq!(schema["$id"], "system.schema.json");
}

/// Outputs that would destroy what was there: an output naming a file the command reads.
#[test]
fn no_output_replaces_a_file_the_command_reads() {
    let repo = Repo::new();
    let scenario = repo.read("scenarios/s.ron");
    let map = repo.read("maps/small.ron");
    let system = repo.read("systems/louis-xiv.ron");
    // The roster named through a link to the system file it reads.
    std::os::unix::fs::symlink("systems/louis-xiv.ron", repo.path("roster.svg")).expect("link");
    for args in [
        &[
            "export",
            "--vassal",
            "scenarios/s.ron",
            "--out",
            "scenarios/s.ron",
        ][..],
        &[
            "export",
            "--vassal",
            "scenarios/s.ron",
            "--out",
            "maps/small.ron",
        ],
        &["print", "scenarios/s.ron", "--out", "scenarios/s.ron"],
        &["render", "scenarios/s.ron", "--out", "maps/small.ron"],
        &[
            "table",
            "scenarios/s.ron",
            "--system",
            "louis-xiv",
            "--out",
            "p.svg",
            "--roster",
            "roster.svg",
        ],
        &[
            "export",
            "--tiled",
            "maps/small.ron",
            "--out",
            "maps/small.ron",
        ],
    ] {
        expect(
            &repo.run(args),
            2,
            &["will not write", "the command reads that file"],
        );
    }
    assert_eq!(repo.read("scenarios/s.ron"), scenario);
    assert_eq!(repo.read("maps/small.ron"), map);
    assert_eq!(repo.read("systems/louis-xiv.ron"), system);
    assert!(
        !repo.path("p.svg").exists(),
        "the plan is not written without its roster"
    );
    // Through a link too.
    std::os::unix::fs::symlink("scenarios/s.ron", repo.path("link.vmod")).expect("link");
    expect(
        &repo.run(&[
            "export",
            "--vassal",
            "scenarios/s.ron",
            "--out",
            "link.vmod",
        ]),
        2,
        &["will not write"],
    );
    assert_eq!(repo.read("scenarios/s.ron"), scenario);
}

/// A module is written into its temporary file as it is made (never held whole): when the
/// disk refuses it half-way (here the shell's file-size limit, its signal ignored, so writes
/// fail as on a full disk), the module that was there stays byte for byte and no temporary
/// file is left; with room, the new module replaces it.
#[test]
fn a_module_that_fails_half_written_leaves_the_old_one() {
    let repo = Repo::new();
    let export = "\"$B\" export --vassal scenarios/s.ron --out battle.vmod";
    expect(&shell(&repo.root, export), 0, &["wrote battle.vmod"]);
    let old = std::fs::read(repo.path("battle.vmod")).expect("the module");
    assert!(
        old.len() > 64 << 10,
        "the module is larger than the limit below"
    );
    std::fs::write(repo.path("battle.vmod"), b"the old module").expect("write");
    let run = shell(
        &repo.root,
        &format!("trap '' XFSZ; ulimit -f 64 && exec {export}"),
    );
    assert_ne!(run.code, 0, "the write failed\n{}", run.all());
    assert!(
        run.all().contains("File too large"),
        "says why:\n{}",
        run.all()
    );
    assert_eq!(
        std::fs::read(repo.path("battle.vmod")).expect("read"),
        b"the old module"
    );
    let left: Vec<_> = std::fs::read_dir(&repo.root)
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "no temporary file left: {left:?}");
    expect(&shell(&repo.root, export), 0, &["wrote battle.vmod"]);
    assert_eq!(
        std::fs::read(repo.path("battle.vmod")).expect("read"),
        old,
        "the same module as before"
    );
}

/// Terminal escapes: file text reaches the terminal escaped, in every format and command.
#[test]
fn file_text_reaches_the_terminal_escaped() {
    let repo = Repo::new();
    // A file name with an escape sequence, and a C1 CSI and a zero-width joiner inside.
    let name = "scenarios/bad\u{1b}[2J\u{9b}31m\u{200d}.ron";
    repo.write(name, "Scenario(format_version: 1, title: 12)");
    for format in ["human", "json", "github", "sarif"] {
        let run = repo.run(&["validate", "--format", format, "scenarios/"]);
        expect(&run, 1, &[]);
        for raw in ['\u{1b}', '\u{9b}', '\u{200d}'] {
            assert!(
                !run.all().contains(raw),
                "{format}: U+{:04X} raw in {:?}",
                u32::from(raw),
                run.all()
            );
        }
    }
    let run = repo.run(&["validate", "scenarios/"]);
    assert!(
        run.all().contains("\\u{1b}[2J\\u{9b}31m\\u{200d}"),
        "{}",
        run.all()
    );
    // A bidi override in a name the schema refuses: shown, not obeyed.
    repo.edit("scenarios/s.ron", "title: \"", "title: \"\u{202e}gnp.exe ");
    let run = repo.run(&["validate", "scenarios/s.ron"]);
    assert!(!run.all().contains('\u{202e}'), "{}", run.all());
    for args in [
        &[
            "render",
            "nowhere/\u{1b}]0;owned\u{7}.ron",
            "--out",
            "x.png",
        ][..],
        &["export", "--json", "scenarios/s.ron"],
        &[
            "table",
            "scenarios/s.ron",
            "--system",
            "no\u{1b}[31m",
            "--out",
            "p.svg",
        ],
    ] {
        let run = repo.run(args);
        assert!(
            !run.all().contains('\u{1b}') && !run.all().contains('\u{202e}'),
            "{:?}",
            run.all()
        );
    }
}

/// A reader that stops early ends any command quietly.
#[test]
fn a_broken_pipe_ends_a_command_quietly() {
    let repo = Repo::new();
    for command in [
        "schema",
        "export --json scenarios/s.ron",
        "validate --format json scenarios",
    ] {
        let run = shell(
            &repo.root,
            &format!("\"$B\" {command} | head -c 1 >/dev/null; exit 0"),
        );
        assert!(
            !run.stderr.contains("panicked") && !run.stderr.contains("Broken pipe"),
            "{command}: {}",
            run.stderr
        );
    }
}

// ------------------------------------------------------------------------- the source scan

/// Every `.rs` file under `dir`, with its text up to its first `#[cfg(test)]` (tests may write
/// their fixtures as they like).
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("read");
            let code: Vec<&str> = text
                .split("#[cfg(test)]")
                .next()
                .unwrap_or("")
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect();
            let code = code.join("\n");
            out.push((path, code));
        }
    }
}

/// A command or the editor reads a document, writes a file or prints only through the doors:
/// no other file of the command, the editor or a library they use opens, reads or writes files
/// itself, and no file of the command prints but through `say!`/`tell!`.
#[test]
fn commands_read_and_write_files_only_through_the_two_doors() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "src",
        "schema/src",
        "validator/src",
        "render/src",
        "export/src",
        "table/src",
        "digitize/src",
        // The editor opens, imports, saves and recovers files as the commands do: through
        // `door::open`, `files::read_limited`, `load_scan` and `Outputs` (issue 19).
        "editor/src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 40, "the sources were found");
    // What a file may do beside the doors, and why: the editor's recovery lock is an empty
    // file opened to be locked, never read or written.
    let allowed = [("editor/src/services/recovery.rs", "OpenOptions::new(")];
    // The doors themselves (the door in and out's own unit tests make files), and what only
    // lists folders.
    let doors = [
        "schema/src/files.rs",
        "schema/src/files/tests.rs",
        "src/terminal.rs",
    ];
    let io = [
        "fs::read(",
        "fs::read_to_string(",
        "fs::write(",
        "File::open(",
        "File::create(",
        "OpenOptions::new(",
        "image::open(",
    ];
    let print = [
        "println!(",
        "eprintln!(",
        "print!(",
        "eprint!(",
        "stdout()",
        "stderr()",
    ];
    let mut wrong = Vec::new();
    for (path, code) in &files {
        let relative = path.strip_prefix(&root).expect("under the root");
        let name = relative.to_string_lossy();
        if doors.iter().any(|d| name == *d) {
            continue;
        }
        for pattern in io {
            if code.contains(pattern) && !allowed.contains(&(name.as_ref(), pattern)) {
                wrong.push(format!("{name}: {pattern}"));
            }
        }
        // The command's own printing (the report writers hold a locked stdout through
        // `terminal::write_json` and `human::write`, which escape what they write).
        let printers = [
            "src/output/human.rs",
            "src/output/json.rs",
            "src/output/sarif.rs",
            "src/output/github.rs",
            "src/export.rs",
            "src/door.rs",
        ];
        if name.starts_with("src/") && !printers.contains(&name.as_ref()) {
            for pattern in print {
                if code.contains(pattern) {
                    wrong.push(format!("{name}: {pattern}"));
                }
            }
        }
        if name.starts_with("src/") && (code.contains("println!(") || code.contains("eprintln!(")) {
            wrong.push(format!("{name}: prints without escaping"));
        }
        // One way to escape a path: `files::display` escapes already.
        for pattern in ["escape(&files::display(", "escape(&crate::files::display("] {
            if name.starts_with("src/") && code.contains(pattern) {
                wrong.push(format!("{name}: escapes twice: {pattern}"));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "files read, written or printed outside the doors:\n{}",
        wrong.join("\n")
    );
}

/// No cascades: a unit of an unknown kind is reported once (E0204), not again by the
/// miniatures checks (E1002) of each system.
#[test]
fn an_unknown_unit_kind_is_reported_once() {
    let repo = Repo::new();
    repo.edit(
        "scenarios/s.ron",
        "(id: \"gardes-1\", name: \"Gardes-1\", kind: \"infantry\"",
        "(id: \"gardes-1\", name: \"Gardes-1\", kind: \"hussars\"",
    );
    let run = repo.run(&["validate", "--format", "json", "scenarios/s.ron"]);
    expect(&run, 1, &["E0204"]);
    let diagnostics: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let about: Vec<&str> = diagnostics
        .as_array()
        .expect("array")
        .iter()
        .filter(|d| {
            d["subject"] == "gardes-1"
                || d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("gardes-1"))
        })
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(about, ["E0204"], "{}", run.stdout);
}

/// Sizes are checked before anything is allocated: a system whose sub-unit has 4 billion
/// bases does not abort the table.
#[test]
fn a_huge_bases_per_unit_does_not_abort_the_table() {
    let repo = Repo::new();
    let text = repo.read("systems/louis-xiv.ron");
    assert!(
        text.contains("bases_per_unit: "),
        "the system has sub-units"
    );
    let mut huge = text.clone();
    for per in ["1", "3", "5"] {
        huge = huge.replace(
            &format!("bases_per_unit: {per},"),
            "bases_per_unit: 4000000000,",
        );
    }
    assert_ne!(huge, text);
    repo.write("systems/louis-xiv.ron", &huge);
    let run = repo.run(&[
        "table",
        "scenarios/s.ron",
        "--system",
        "louis-xiv",
        "--out",
        "p.svg",
    ]);
    assert!(
        run.code == 0 || run.code == 1,
        "ended by a signal or could not run: {}",
        run.all()
    );
    assert!(!run.all().contains("memory allocation"), "{}", run.all());
}
