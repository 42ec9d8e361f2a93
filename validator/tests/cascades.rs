//! No cascades (issue 19): one mistake is reported once, where it is, not again by every check
//! that follows from it. The harness breaks each kind of name of the bundled files once (the
//! first string of each shape: an army's id, a unit's corps, a zone's hex, a conversion rule's
//! army, a system's table entry, a map's overlay key…), renaming it `nope-x`, validates the
//! scenario through the door, and asks of every diagnostic the unbroken files did not have that
//! it be about the broken name: at the renamed place itself, or, when a definition was
//! renamed, at a place that still names the old name (each reference is its own mistake). A
//! diagnostic anywhere else (26 units lacking `nation` after an army was renamed that a
//! conversion rule names; every unit of a kind restricted to a renamed army; a unit outside a
//! zone one of whose hexes is refused) is a cascade.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::HashSet;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use bataille_validator::{Diagnostic, Options, validate_file};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A club's repository: the bundled scenarios, maps and systems.
fn club() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    for folder in ["scenarios", "maps", "systems"] {
        fs::create_dir(dir.path().join(folder)).unwrap();
        for entry in fs::read_dir(root().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                fs::copy(
                    &path,
                    dir.path().join(folder).join(path.file_name().unwrap()),
                )
                .unwrap();
            }
        }
    }
    dir
}

/// The keys whose strings are prose, dates or paths, never a name another place uses.
const NOT_NAMES: &[&str] = &[
    "name",
    "title",
    "notes",
    "language",
    "date",
    "start_time",
    "colour",
    "source",
    "map",
    "file",
    "base",
    "image",
    "description",
    "unit_name",
    "sources",
];

/// A string of the file that could be a name: its byte range (quotes included), its text and
/// whether it is a definition (an `id`, a map's key, a word a rating may take) rather than a
/// use.
struct Token {
    range: Range<usize>,
    text: String,
    defines: bool,
    shape: String,
}

/// The strings of a RON text, each with its shape: its line with every string blanked and
/// every digit dropped, the string itself marked, cut 40 characters after the mark (a unit's
/// `corps`, a zone's `hexes` and a commander's `commands` each have one shape).
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i + 1;
        while j < bytes.len() && bytes[j] != b'"' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        let end = (j + 1).min(bytes.len());
        i = end;
        let inner = &text[start + 1..end - 1];
        if inner.is_empty()
            || inner.len() > 40
            || !inner
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.~".contains(c))
        {
            continue;
        }
        let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |p| end + p);
        let before = &text[line_start..start];
        let key = before
            .trim_end_matches([' ', '[', '{', '('])
            .trim_end_matches(':')
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        let last_key = before
            .rsplit(':')
            .nth(1)
            .and_then(|k| {
                k.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
            })
            .unwrap_or("");
        if NOT_NAMES.contains(&key) || NOT_NAMES.contains(&last_key) {
            continue;
        }
        let is_key = text[end..].trim_start().starts_with(':');
        let blank = |s: &str| {
            let mut out = String::new();
            let mut quoted = false;
            for c in s.chars() {
                if c == '"' {
                    quoted = !quoted;
                    out.push('"');
                } else if !quoted && !c.is_ascii_digit() {
                    out.push(c);
                }
            }
            out
        };
        let after: String = blank(&text[end..line_end]).chars().take(40).collect();
        out.push(Token {
            range: start..end,
            text: inner.to_owned(),
            // A system's words a rating may take are defined there too.
            defines: key == "id" || is_key || before.contains("OneOf(["),
            shape: format!("{}@{after}", blank(before).trim_start()),
        });
    }
    out
}

/// Where a diagnostic is: its file and byte range, or its file's first byte.
fn place(d: &Diagnostic) -> Option<(PathBuf, Range<usize>)> {
    d.span.as_ref().map(|s| (s.file.clone(), s.bytes.clone()))
}

fn key(d: &Diagnostic) -> (String, Option<PathBuf>, String) {
    (
        d.code.as_str().to_owned(),
        d.span.as_ref().map(|s| s.file.clone()),
        d.pointer.clone(),
    )
}

/// Breaks each shape of name of `broken` once and validates `validated`: the diagnostics not
/// about the broken name, as lines naming the break.
fn cascades(dir: &Path, broken: &str, validated: &str) -> Vec<String> {
    let options = Options::default();
    let path = dir.join(broken);
    let original = fs::read_to_string(&path).unwrap();
    let baseline: HashSet<_> = validate_file(&dir.join(validated), &options)
        .diagnostics
        .iter()
        .map(key)
        .collect();
    let mut shapes = HashSet::new();
    let mut found = Vec::new();
    for token in tokens(&original) {
        if !shapes.insert(token.shape.clone()) {
            continue;
        }
        let new = "\"nope-x\"";
        let text = format!(
            "{}{new}{}",
            &original[..token.range.start],
            &original[token.range.end..]
        );
        fs::write(&path, &text).unwrap();
        let renamed = token.range.start..token.range.start + new.len();
        let report = validate_file(&dir.join(validated), &options);
        let old = format!("\"{}\"", token.text);
        for d in &report.diagnostics {
            if baseline.contains(&key(d)) {
                continue;
            }
            let about_it = place(d).is_some_and(|(file, bytes)| {
                let text_of = |file: &Path| {
                    if file.ends_with(broken) {
                        Some(text.clone())
                    } else {
                        fs::read_to_string(dir.join(file))
                            .or_else(|_| fs::read_to_string(file))
                            .ok()
                    }
                };
                let here = file.ends_with(broken)
                    && bytes.start < renamed.end
                    && renamed.start < bytes.end.max(bytes.start + 1);
                let names_old = token.defines
                    && text_of(&file)
                        .and_then(|t| t.get(bytes.clone()).map(|s| s.contains(&old)))
                        .unwrap_or(false);
                here || names_old
            }) || d.pointer.ends_with("/nope-x")
                // A key that still names the old name (a national table's line for a
                // troop type renamed).
                || (token.defines && d.pointer.ends_with(&format!("/{}", token.text)))
                // What a report does not list of a code is counted in one summary: the
                // listed ones are checked.
                || d.omitted > 0
                // The scenario says where its system's own report is: the system's
                // diagnostics are the mistake's.
                || (broken.starts_with("systems/") && d.code.as_str() == "E1001");
            if !about_it {
                found.push(format!(
                    "{broken}: `{}` ({}) renamed: {} at {} {:?}: {}",
                    token.text,
                    token.shape,
                    d.code,
                    d.pointer,
                    d.span.as_ref().map(|s| s.line),
                    d.message
                ));
            }
        }
    }
    fs::write(&path, &original).unwrap();
    eprintln!("{broken}: {} names broken", shapes.len());
    found
}

fn assert_no_cascades(broken: &str, validated: &str) {
    let dir = club();
    let found = cascades(dir.path(), broken, validated);
    assert!(
        found.is_empty(),
        "{} diagnostics follow from another:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn denain_scenario() {
    assert_no_cascades("scenarios/denain-1712.ron", "scenarios/denain-1712.ron");
}

#[test]
fn fontenoy_scenario() {
    assert_no_cascades("scenarios/fontenoy-1745.ron", "scenarios/fontenoy-1745.ron");
}

#[test]
fn napoleon_at_waterloo_scenario() {
    assert_no_cascades(
        "scenarios/napoleon-at-waterloo.ron",
        "scenarios/napoleon-at-waterloo.ron",
    );
}

#[test]
fn maps() {
    assert_no_cascades("maps/denain-1712.ron", "scenarios/denain-1712.ron");
    assert_no_cascades("maps/fontenoy-1745.ron", "scenarios/fontenoy-1745.ron");
}

#[test]
fn systems() {
    assert_no_cascades("systems/louis-xiv.ron", "scenarios/denain-1712.ron");
    assert_no_cascades("systems/age-of-honor.ron", "scenarios/fontenoy-1745.ron");
}

#[test]
fn variants() {
    assert_no_cascades(
        "scenarios/denain-1712-tingry-tard.ron",
        "scenarios/denain-1712-tingry-tard.ron",
    );
    assert_no_cascades(
        "scenarios/fontenoy-1745-hollandais.ron",
        "scenarios/fontenoy-1745-hollandais.ron",
    );
}

/// The strings the harness renames: ids and keys define, the others use; prose is left.
#[test]
fn the_harness_tells_definitions_from_uses() {
    let found =
        tokens("(id: \"a\", name: \"A\", corps: \"b\", hexes: [\"0101\", \"0102\"]), \"k\": 1");
    let shapes: Vec<_> = found.iter().map(|t| (t.text.as_str(), t.defines)).collect();
    assert_eq!(
        shapes,
        [
            ("a", true),
            ("b", false),
            ("0101", false),
            ("0102", false),
            ("k", true)
        ]
    );
}

/// Edits a file of the club: each `(from, to)` once, as written.
fn edit(dir: &Path, file: &str, edits: &[(&str, &str)]) {
    let path = dir.join(file);
    let mut text = fs::read_to_string(&path).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{from} not in {file}");
        text = text.replacen(from, to, 1);
    }
    fs::write(&path, text).unwrap();
}

/// `(code, pointer, message)` of a file's report.
fn report(dir: &Path, file: &str) -> Vec<(String, String, String)> {
    validate_file(&dir.join(file), &Options::default())
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code.as_str().to_owned(),
                d.pointer.clone(),
                d.message.clone(),
            )
        })
        .collect()
}

/// The army a Louis XIV conversion rule names is renamed (Denain): one E0206 at the rule,
/// not an E1002 "lacks `nation`" for each of the 26 French units the rule gave it to. A
/// fault of the same code the rule cannot explain is still reported: the dragoons' rule
/// without its `units`, each dragoon regiment lacking `units`.
#[test]
fn a_conversion_naming_no_army_is_one_error_and_other_faults_of_its_code_stay() {
    let dir = club();
    let scenario = "scenarios/denain-1712.ron";
    edit(
        dir.path(),
        scenario,
        &[
            (
                "(armies: [\"french\"], set: {\"nation\"",
                "(armies: [\"francais\"], set: {\"nation\"",
            ),
            (
                "(kinds: [\"dragoons\"], set: {\"troop_type\": Text(\"dragoons\")}, per_cp: {\"units\": 1}),",
                "(kinds: [\"dragoons\"], set: {\"troop_type\": Text(\"dragoons\")}),",
            ),
        ],
    );
    let found = report(dir.path(), scenario);
    let codes = |code: &str, what: &str| {
        found
            .iter()
            .filter(|(c, _, m)| c == code && m.contains(what))
            .count()
    };
    assert_eq!(codes("E0206", "`francais`"), 1, "{found:#?}");
    assert_eq!(codes("E1002", "lacks `nation`"), 0, "{found:#?}");
    let dragoons = fs::read_to_string(dir.path().join(scenario))
        .unwrap()
        .matches("kind: \"dragoons\"")
        .count();
    assert!(dragoons >= 2);
    assert_eq!(codes("E1002", "lacks `units`"), dragoons, "{found:#?}");
}

/// A zone's hex is no hex name (Fontenoy, E0105): the unit placed where that hex was meant
/// is not also said to be outside its zone (E0501). The check is per zone: a unit placed
/// outside another zone is still reported.
#[test]
fn a_zone_with_a_refused_hex_hides_only_its_own_placements() {
    let dir = club();
    let scenario = "scenarios/fontenoy-1745.ron";
    edit(
        dir.path(),
        scenario,
        &[
            (
                "hexes: [\"2111\", \"2112\", \"2113\"",
                "hexes: [\"nope-x\", \"2112\", \"2113\"",
            ),
            (
                "placement: Free(zone: \"al-zone-dutch-infantry\", at: \"0823\")",
                "placement: Free(zone: \"al-zone-dutch-infantry\", at: \"2112\")",
            ),
        ],
    );
    let found = report(dir.path(), scenario);
    let e0501: Vec<_> = found.iter().filter(|(c, _, _)| c == "E0501").collect();
    assert_eq!(e0501.len(), 1, "{found:#?}");
    assert!(e0501[0].2.contains("al-waldeck-1"), "{e0501:?}");
    assert!(
        found
            .iter()
            .any(|(c, p, _)| c == "E0105" && p == "/zones/0/hexes/0"),
        "{found:#?}"
    );
}
