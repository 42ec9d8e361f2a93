//! The editor's side of the workspace's one door in (`bataille_validator::door`, issue 19 and
//! 26): every document the editor reads — a map, a scenario and the files it names, a system,
//! a template's legend or rules, what a recovery file holds — is opened by
//! [`bataille_validator::door::open`] (or [`bataille_validator::door::open_source`] for text in
//! memory) with the JSON Schema pass, so the editor gets exactly what the commands get: the
//! bounded reader (regular files only, at most `MAX_FILE_BYTES`), the kind told, the parse with
//! the grid's limits, finite numbers, no control characters, the format version, string lengths
//! capped by the schema, and every reference (`map:`, `miniatures[].file`, `background.image`)
//! confined to the root.
//!
//! The editor may open a document with rule errors (to fix them): it uses `open`, not `admit`.
//! It refuses what it could not show or save back: a file that did not read or parse, a
//! structural error (E01xx: the file format and its JSON Schema), a scenario whose map was
//! refused. The first error is shown with its place (`file:line:column`).
//!
//! Files that are not documents (settings, recovery files' envelopes, scans the user chose)
//! are read with `bataille_schema::files::read_limited` / `read_text_limited`; scans with
//! `bataille_digitize::scan::load_scan`, and only a scan the door confined or the user chose
//! ([`crate::services::digitise::Digitise::trust_scan`]).

use std::path::{Path, PathBuf};

use bataille_schema::{Map, Scenario, SourceFile, System};
use bataille_validator::door::{self, Document as DoorDocument, Opened};
use bataille_validator::{Code, Diagnostic, Options};

use crate::model::document::{Document, ScenarioFile};
use crate::services::safety::DiskStamps;

/// The options every document is opened with: every check the command makes, the JSON Schema
/// pass included (it caps string lengths).
pub fn options() -> Options {
    Options {
        json_schema: true,
        ..Options::editor()
    }
}

/// The bytes a source was read from (its text, and the byte-order mark it started with).
fn source_bytes(source: &SourceFile) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(source.text.len() + 3);
    if source.bom {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(source.text.as_bytes());
    bytes
}

/// A document opened through the door.
#[derive(Debug)]
pub struct OpenedDocument {
    pub doc: Document,
    /// Repairs made while reading (rows of the wrong length).
    pub notes: Vec<String>,
    /// What each file read held (to notice a change on disk before a save overwrites it).
    pub disk: DiskStamps,
    /// The map's background scan, confined by the door (it may not exist): the only scan the
    /// editor reads for this document until the user chooses another.
    pub scan: Option<PathBuf>,
    /// What the door found that the editor's live checks do not say again (a background scan
    /// refused, E0210), each with its place: shown once the document is open.
    pub warnings: Vec<String>,
}

/// Why a file was not opened: the first error with its place, and what to do.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenRefused {
    pub message: String,
    pub hint: &'static str,
}

impl std::fmt::Display for OpenRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The longest message shown for one diagnostic (a message never quotes a whole value, but a
/// path may be long).
const MAX_SHOWN: usize = 600;

/// `file:line:column: CODE: message (help)`, bounded.
pub fn placed(d: &Diagnostic) -> String {
    let mut text = match &d.span {
        Some(span) => format!(
            "{}:{}:{}: {}: {}",
            span.file.display(),
            span.line,
            span.column,
            d.code.as_str(),
            d.message
        ),
        None => format!("{}: {}", d.code.as_str(), d.message),
    };
    if let Some(help) = &d.help {
        text.push_str(&format!("\nHelp: {help}"));
    }
    if text.len() > MAX_SHOWN {
        let mut end = MAX_SHOWN;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// A structural error: the file format or its JSON Schema (E01xx). The editor refuses such a
/// document as the commands do: it could not be shown safely or saved back into a file that
/// opens.
fn structural(d: &Diagnostic) -> bool {
    d.is_error() && d.code.group() == "structure"
}

/// A structural error of the map or scenario opened (a miniatures system's own errors do not
/// stop its scenario from opening: the ratings form says why that system is not loaded).
fn structural_here(d: &Diagnostic) -> bool {
    structural(d) && d.document != bataille_schema::DocumentKind::System
}

/// The refusal of an opened file: unreadable, not a document, a structural error, or (for a
/// scenario) its map refused. `None`: the document may be edited.
fn refusal(opened: &Opened) -> Option<OpenRefused> {
    if let Some(why) = &opened.report.unreadable {
        return Some(OpenRefused {
            message: why.clone(),
            hint: "Check that the path is right and that you may read the file.",
        });
    }
    let first = |keep: &dyn Fn(&Diagnostic) -> bool| {
        opened
            .report
            .diagnostics
            .iter()
            .find(|d| keep(d))
            .map(placed)
    };
    let map_refused = matches!(
        &opened.document,
        Some(DoorDocument::Scenario(s)) if s.map.is_none()
    );
    if let Some(message) = first(&structural_here) {
        let newer = opened
            .report
            .diagnostics
            .iter()
            .any(|d| d.code == Code::E0104);
        return Some(OpenRefused {
            message,
            hint: if newer {
                "The file was written by a newer Bataille: update the editor."
            } else {
                "Fix the file at that line and column in a text editor, then open it again."
            },
        });
    }
    if opened.document.is_none() {
        return Some(OpenRefused {
            message: first(&|d| d.is_error())
                .unwrap_or_else(|| format!("{} could not be read", opened.report.path.display())),
            hint: "Fix the file at that line and column in a text editor, then open it again.",
        });
    }
    if map_refused {
        let message = first(&|d| d.code == Code::E0208)
            .into_iter()
            .chain(first(&|d| {
                d.document == bataille_schema::DocumentKind::Map && d.is_error()
            }))
            .collect::<Vec<_>>()
            .join("\n");
        return Some(OpenRefused {
            message,
            hint: "Fix the scenario's `map` path or the map file, then open it again.",
        });
    }
    None
}

/// What the door alone says about a document opened (the live checks do not say it again).
fn warnings(opened: &Opened) -> Vec<String> {
    opened
        .report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::E0210)
        .map(placed)
        .collect()
}

/// The background scan the door confined, as the document holds it in memory (absolute).
fn confined_scan(map: &mut Map, scan: Option<&PathBuf>) -> Option<PathBuf> {
    let scan = bataille_schema::paths::absolute(scan?);
    if let Some(background) = map.background.as_mut() {
        background.image = bataille_schema::paths::portable(&scan);
    }
    Some(scan)
}

/// Reads a map, or a scenario and its map, into a document through the door; refused with the
/// first error and its place (see the module's documentation).
pub fn open_document(path: &Path) -> Result<OpenedDocument, OpenRefused> {
    let mut opened = door::open(path, &options());
    if let Some(refused) = refusal(&opened) {
        return Err(refused);
    }
    let warnings = warnings(&opened);
    let document = opened.document.take();
    let mut disk = DiskStamps::default();
    let mut stamp = |file: &Path| {
        if let Some(source) = opened.source(file) {
            disk.record(file, &source_bytes(source));
        }
    };
    match document {
        Some(DoorDocument::Map(m)) => {
            let mut m = *m;
            stamp(path);
            let scan = confined_scan(&mut m.map, m.background.as_ref());
            let (doc, notes) = Document::from_map(m.map, Some(path.to_owned()));
            Ok(OpenedDocument {
                doc,
                notes,
                disk,
                scan,
                warnings,
            })
        }
        Some(DoorDocument::Scenario(s)) => {
            let s = *s;
            let Some(mut map) = s.map else {
                unreachable_refusal()?
            };
            stamp(path);
            stamp(&map.path);
            let scan = confined_scan(&mut map.map, map.background.as_ref());
            let (mut doc, notes) = Document::from_map(map.map, Some(map.path));
            doc.scenario = Some(ScenarioFile {
                scenario: s.scenario,
                path: path.to_owned(),
            });
            // A variant is edited as the scenario it resolves to; its base is kept to save
            // only the changes.
            doc.variant = s.variant.map(|v| crate::model::document::VariantOrigin {
                variant: v.variant,
                base: v.base.scenario,
                base_path: v.base.path,
            });
            // The variants beside it are looked for by the editor once it is open, off the
            // UI thread (`EditorApp::refresh_variants`).
            Ok(OpenedDocument {
                doc,
                notes,
                disk,
                scan,
                warnings,
            })
        }
        Some(DoorDocument::System(_)) => Err(OpenRefused {
            message: format!(
                "{} is a miniatures system, not a map or a scenario",
                path.display()
            ),
            hint: "Open the scenario that names it (its `miniatures`), or a map.",
        }),
        None => unreachable_refusal(),
    }
}

/// A refusal [`refusal`] already made (no document, or a scenario without its map): never
/// reached, but never a panic either.
fn unreachable_refusal<T>() -> Result<T, OpenRefused> {
    Err(OpenRefused {
        message: "the file could not be read as a document".into(),
        hint: "Fix the file in a text editor, then open it again.",
    })
}

/// A map file through the door (a template's legend, a map chosen for a new scenario).
pub fn open_map(path: &Path) -> Result<Map, String> {
    let opened = door::open(path, &options());
    if let Some(refused) = refusal(&opened) {
        return Err(refused.message);
    }
    match opened.document {
        Some(DoorDocument::Map(m)) => Ok(m.map),
        _ => Err(format!("{} is not a map file", path.display())),
    }
}

/// A scenario file through the door, the scenario alone (a template's rules): its map need not
/// open.
pub fn open_scenario_alone(path: &Path) -> Result<Scenario, String> {
    let opened = door::open(path, &options());
    if let Some(why) = &opened.report.unreadable {
        return Err(why.clone());
    }
    if let Some(d) = opened.report.diagnostics.iter().find(|d| structural(d)) {
        return Err(placed(d));
    }
    match opened.document {
        Some(DoorDocument::Scenario(s)) => Ok(s.scenario),
        _ => Err(format!("{} is not a scenario file", path.display())),
    }
}

/// The miniatures system a scenario names (`file`, relative to the scenario's folder), confined
/// to the scenario's root as the door confines it (relative, inside the root, links followed),
/// then opened through the door: a scenario from a stranger cannot make the editor read any
/// file on the disk. The path it was read from, or why not.
pub fn open_system(scenario_path: &Path, file: &str) -> Result<(PathBuf, System), String> {
    let path = bataille_schema::files::resolve_reference(scenario_path, file, None)
        .map(|p| bataille_schema::files::clean_path(&p))
        .map_err(|error| {
            format!(
                "the system file `{file}` is refused: {error} (a scenario's files stay inside {})",
                bataille_schema::files::default_root(scenario_path).display()
            )
        })?;
    let opened = door::open(&path, &options());
    if let Some(why) = &opened.report.unreadable {
        return Err(format!("{}: {why}", path.display()));
    }
    if let Some(d) = opened.report.diagnostics.iter().find(|d| structural(d)) {
        return Err(placed(d));
    }
    match opened.document {
        Some(DoorDocument::System(s)) => Ok((path, s.system)),
        _ => Err(format!(
            "{} is not a system file (it does not start with `System(`)",
            path.display()
        )),
    }
}

/// What a recovery held, checked as a file opened from disk is checked.
#[derive(Debug)]
pub struct Recovered {
    /// The map's background scan, confined by the door (relative to the map's file).
    pub scan: Option<PathBuf>,
}

/// Checks a map and scenario recovered from a recovery file through the door, as a file opened
/// from disk is checked: the grid within the limits (before anything is allocated per hex),
/// then the canonical text a save would write (to `map_path`, `scenario_path`) opened by
/// [`door::open_source`] — finite numbers, no control characters, the format, the JSON Schema
/// (string lengths) — so it opens again. Refused with the first error and its place.
pub fn check_recovered(
    map: &Map,
    map_path: Option<&Path>,
    scenario: Option<(&Scenario, &Path)>,
) -> Result<Recovered, String> {
    bataille_schema::limits::check_grid(&map.grid).map_err(|e| format!("its map: {e}"))?;
    let target = map_path.unwrap_or(Path::new("recovered-map.ron"));
    let written = crate::services::save::map_for_file(map, target);
    let text = bataille_schema::map_to_string(&written).map_err(|e| format!("its map: {e}"))?;
    let opened = door::open_source(SourceFile::new(target, text), &options());
    if let Some(d) = opened.report.diagnostics.iter().find(|d| structural(d)) {
        return Err(format!("its map: {}", placed(d)));
    }
    let scan = match opened.document {
        Some(DoorDocument::Map(m)) if map_path.is_some() => m.background,
        Some(DoorDocument::Map(_)) => None,
        _ => return Err("its map could not be read back".into()),
    };
    if let Some((scenario, path)) = scenario {
        let text = bataille_schema::scenario_to_string(scenario)
            .map_err(|e| format!("its scenario: {e}"))?;
        let opened = door::open_source(SourceFile::new(path, text), &options());
        if let Some(d) = opened.report.diagnostics.iter().find(|d| structural(d)) {
            return Err(format!("its scenario: {}", placed(d)));
        }
        if !matches!(opened.document, Some(DoorDocument::Scenario(_))) {
            return Err("its scenario could not be read back".into());
        }
    }
    Ok(Recovered { scan })
}

/// At most this many files are looked at in each folder looked at for variants.
const VARIANT_SCAN_FILES: usize = 256;

/// At most this many bytes are read in each folder looked at for variants, heads and whole
/// files together: a folder of large files costs one look of 64 MiB, not 256 of 64 MiB each.
const VARIANT_SCAN_BYTES: u64 = 64 << 20;

/// What one look for a scenario's variants found: the variants, and the files that may be
/// variants but were not read (the folder's byte budget was spent), to be named.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VariantsBeside {
    pub found: Vec<crate::model::variant::VariantFile>,
    pub not_read: Vec<PathBuf>,
}

/// The variants of the scenario at `base_path`: the `Variant(` files in its folder and in its
/// repository's `scenarios/` whose `base` (confined to that root) is that file, each read
/// through the door's bounded reader and parser (nothing they name is opened), in path order.
/// Only a file whose first 64 KiB begin `Variant(`, or are all blanks and comments (a long
/// licence before the name), is read in full: the other files of a large folder (maps,
/// scenarios, strangers' files) cost a small head each. Each folder's reads stop at
/// `VARIANT_SCAN_BYTES`; a candidate beyond it is named in `not_read`, never silently missed.
pub fn variants_beside(base_path: &Path) -> VariantsBeside {
    variants_beside_with(base_path, VARIANT_SCAN_BYTES, door::read_document)
}

/// [`variants_beside`] with a byte budget per folder, each candidate read in full by `read`
/// (the door's reader; a test counts).
fn variants_beside_with(
    base_path: &Path,
    budget: u64,
    mut read: impl FnMut(&Path) -> Result<(door::Parsed, SourceFile), Box<door::Refused>>,
) -> VariantsBeside {
    use bataille_schema::files::{Head, document_head};
    let mut out = VariantsBeside::default();
    let Ok(this) = std::fs::canonicalize(base_path) else {
        return out;
    };
    let root = bataille_schema::files::default_root(base_path);
    let mut folders = vec![this.parent().map(Path::to_path_buf).unwrap_or_default()];
    if let Ok(scenarios) = std::fs::canonicalize(root.join("scenarios"))
        && !folders.contains(&scenarios)
    {
        folders.push(scenarios);
    }
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        files.truncate(VARIANT_SCAN_FILES);
        let mut spent: u64 = 0;
        for file in files {
            if std::fs::canonicalize(&file).ok().as_ref() == Some(&this) {
                continue;
            }
            let Some((head, size)) = document_head(&file) else {
                continue;
            };
            spent = spent.saturating_add(size.min(64 << 10));
            if !matches!(head, Head::Kind("scenario variant") | Head::Undecided) {
                continue;
            }
            if spent.saturating_add(size) > budget {
                if !out.not_read.contains(&file) {
                    out.not_read.push(file);
                }
                continue;
            }
            spent += size;
            let Ok((door::Parsed::Variant(v), _)) = read(&file) else {
                continue;
            };
            let names_this = bataille_schema::files::resolve_reference(&file, &v.base, Some(&root))
                .ok()
                .and_then(|b| std::fs::canonicalize(b).ok())
                .is_some_and(|b| b == this);
            if names_this && !out.found.iter().any(|f| f.path == file) {
                out.found.push(crate::model::variant::VariantFile {
                    path: file,
                    name: v.name,
                });
            }
        }
    }
    out
}

/// The scenario saved at `path`, through the door, for a variant to be made of: refused when
/// it does not open or is itself a variant (a variant of a variant is not supported).
pub fn variant_base(path: &Path) -> Result<Scenario, String> {
    let opened = door::open(path, &options());
    if let Some(refused) = refusal(&opened) {
        return Err(refused.message);
    }
    match opened.document {
        Some(DoorDocument::Scenario(s)) if s.variant.is_none() => Ok(s.scenario),
        Some(DoorDocument::Scenario(_)) => Err(format!(
            "{} is a variant: a variant is made of a scenario, not of another variant",
            path.display()
        )),
        _ => Err(format!("{} is not a scenario file", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the `Variant(` files of a folder are read in full: a large map or scenario beside
    /// the base costs its head, and the variant naming the base is still found.
    #[test]
    fn variants_beside_reads_in_full_only_variants() {
        let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("denain-1712.ron");
        std::fs::copy(scenarios.join("denain-1712.ron"), &base).unwrap();
        let variant = dir.path().join("denain-1712-tingry-tard.ron");
        std::fs::copy(scenarios.join("denain-1712-tingry-tard.ron"), &variant).unwrap();
        let big = format!("Map(\n{}\n)\n", " ".repeat(1 << 20));
        std::fs::write(dir.path().join("big-map.ron"), big).unwrap();
        std::fs::copy(
            scenarios.join("fontenoy-1745.ron"),
            dir.path().join("other-scenario.ron"),
        )
        .unwrap();
        let mut read = Vec::new();
        let found = variants_beside_with(&base, VARIANT_SCAN_BYTES, |p| {
            read.push(p.to_path_buf());
            door::read_document(p)
        });
        assert_eq!(
            read,
            vec![variant.clone()],
            "only the variant is read in full"
        );
        assert_eq!(found.found.len(), 1);
        assert_eq!(found.found[0].path, variant);
        assert_eq!(found.found[0].name, "Tingry sort trop tard");
        assert!(found.not_read.is_empty());
        assert_eq!(variants_beside(&base), found);
    }

    /// A variant whose leading comments pass the 64 KiB head was never found (its kind was
    /// not in the head); it is read and found. Past the folder's byte budget a candidate is
    /// not read, and named (hostile round 5).
    #[test]
    fn a_variant_behind_long_comments_is_found_and_one_past_the_budget_named() {
        let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("denain-1712.ron");
        std::fs::copy(scenarios.join("denain-1712.ron"), &base).unwrap();
        let text = std::fs::read_to_string(scenarios.join("denain-1712-tingry-tard.ron")).unwrap();
        let licence = "// A licence line of the club's files, long enough.\n".repeat(2_000);
        assert!(licence.len() > 64 << 10);
        let commented = dir.path().join("a-commented.ron");
        std::fs::write(&commented, format!("{licence}{text}")).unwrap();
        let later = dir.path().join("b-later.ron");
        std::fs::write(&later, format!("{licence}{text}")).unwrap();
        let found = variants_beside(&base);
        let paths: Vec<_> = found.found.iter().map(|f| f.path.clone()).collect();
        assert_eq!(paths, vec![commented.clone(), later.clone()]);
        assert!(found.not_read.is_empty());

        // A budget for one of them: the first is read, the second named.
        let one = std::fs::metadata(&commented).unwrap().len() + (64 << 10);
        let found = variants_beside_with(&base, one + (64 << 10), door::read_document);
        let paths: Vec<_> = found.found.iter().map(|f| f.path.clone()).collect();
        assert_eq!(paths, vec![commented]);
        assert_eq!(found.not_read, vec![later]);
    }
}
