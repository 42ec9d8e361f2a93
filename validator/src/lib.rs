//! The Bataille validator: checks maps and scenarios far beyond their schema (structure,
//! references, corps membership, stacking, deployment, the map, command at set-up) and returns
//! **all** diagnostics, each with a stable code.
//!
//! Checks work on the typed documents and say where a problem is as a JSON pointer into the
//! document (plus, for a hex of a terrain row, the character inside the row string), with the
//! hex and the id concerned: the editor can use them without files. [`validate_file`] then
//! resolves pointers to file, line and column.
//!
//! ```
//! use bataille_validator::{Options, validate_documents};
//! # fn demo(scenario: &bataille_schema::Scenario, map: &bataille_schema::Map) {
//! // In the editor, after each edit: no JSON Schema pass (the slow part).
//! let diagnostics = validate_documents(scenario, map, &Options::editor());
//! for d in &diagnostics {
//!     println!("{} {} at {} (hex {:?})", d.code, d.message, d.pointer, d.hex);
//! }
//! # }
//! ```

pub mod codes;
mod command;
mod context;
mod corps;
mod deployment;
pub mod diagnostic;
mod map_checks;
mod references;
pub mod resolve;
mod stacking;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bataille_schema::io::{self, LoadError};
use bataille_schema::json_schema;
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile};

pub use codes::{Code, Severity};
pub use diagnostic::{Diagnostic, Related, Span};

use crate::resolve::{Resolver, span_of};

/// What to check and what to leave out.
#[derive(Debug, Clone)]
pub struct Options {
    /// Check the documents against their JSON Schemas (converts them to JSON: the slowest
    /// step; the command does it, the editor need not).
    pub json_schema: bool,
    /// Codes allowed everywhere (`--allow W0901`).
    pub allow: Vec<String>,
}

impl Default for Options {
    /// Every check, nothing allowed.
    fn default() -> Self {
        Self {
            json_schema: true,
            allow: Vec::new(),
        }
    }
}

impl Options {
    /// Every check but the JSON Schema pass: for the editor, after each edit.
    pub fn editor() -> Self {
        Self {
            json_schema: false,
            allow: Vec::new(),
        }
    }
}

/// Validates a scenario and its map in memory: the map's diagnostics (document `Map`) and the
/// scenario's (document `Scenario`), suppressions applied, in a stable order (by document,
/// then pointer, then code). Spans are not filled in: there are no files here.
pub fn validate_documents(scenario: &Scenario, map: &Map, options: &Options) -> Vec<Diagnostic> {
    let mut out = map_diagnostics(map, options);
    out.extend(scenario_diagnostics(scenario, Some(map), options));
    finish(out, Some(scenario), options)
}

/// Validates a map alone, in memory.
pub fn validate_map(map: &Map, options: &Options) -> Vec<Diagnostic> {
    finish(map_diagnostics(map, options), None, options)
}

/// Validates a scenario whose map is not at hand: checks that need the map (hexes on it,
/// terrain, command paths) are skipped.
pub fn validate_scenario_alone(scenario: &Scenario, options: &Options) -> Vec<Diagnostic> {
    finish(
        scenario_diagnostics(scenario, None, options),
        Some(scenario),
        options,
    )
}

fn map_diagnostics(map: &Map, options: &Options) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if options.json_schema {
        out.extend(schema_diagnostics(
            DocumentKind::Map,
            json_schema::check_map(map),
        ));
    }
    map_checks::check_map(map, &mut out);
    out
}

fn scenario_diagnostics(
    scenario: &Scenario,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    let mut ctx = context::Ctx::new(scenario, map);
    if options.json_schema {
        ctx.out.extend(schema_diagnostics(
            DocumentKind::Scenario,
            json_schema::check_scenario(scenario),
        ));
    }
    references::unique_ids(&mut ctx);
    references::references(&mut ctx);
    references::allow_lists(&mut ctx);
    corps::corps_membership(&mut ctx);
    stacking::stacking(&mut ctx);
    deployment::deployment(&mut ctx);
    command::command(&mut ctx);
    ctx.out
}

fn schema_diagnostics(
    kind: DocumentKind,
    violations: Vec<json_schema::SchemaViolation>,
) -> Vec<Diagnostic> {
    violations
        .into_iter()
        .map(|v| {
            let place = if v.pointer.is_empty() {
                "the document".to_owned()
            } else {
                format!("`{}`", v.pointer)
            };
            Diagnostic::new(
                Code::E0105,
                kind,
                v.pointer.clone(),
                format!("{place}: {}", v.message),
            )
            .help(format!(
                "correct the value so it fits {}.schema.json (`bataille schema` prints it)",
                json_schema::file_stem(kind)
            ))
        })
        .collect()
}

fn matches_code(list: &[String], code: Code) -> bool {
    list.iter()
        .any(|c| c.trim().eq_ignore_ascii_case(code.as_str()))
}

/// Drops allowed diagnostics, then sorts.
fn finish(
    mut out: Vec<Diagnostic>,
    scenario: Option<&Scenario>,
    options: &Options,
) -> Vec<Diagnostic> {
    let mut counters: HashMap<&str, &[String]> = HashMap::new();
    if let Some(s) = scenario {
        for army in &s.armies {
            for c in &army.commanders {
                counters.insert(c.id.as_str(), &c.allow);
            }
            for corps in &army.corps {
                if let Some(l) = &corps.leader {
                    counters.insert(l.id.as_str(), &l.allow);
                }
            }
            for u in &army.units {
                counters.insert(u.id.as_str(), &u.allow);
            }
        }
    }
    out.retain(|d| {
        if matches_code(&options.allow, d.code) {
            return false;
        }
        let Some(s) = scenario else { return true };
        if d.document != DocumentKind::Scenario {
            return true;
        }
        if matches_code(&s.allow, d.code) {
            return false;
        }
        !d.subject
            .as_deref()
            .and_then(|id| counters.get(id))
            .is_some_and(|allow| matches_code(allow, d.code))
    });
    diagnostic::sort(&mut out);
    out
}

/// The result of validating one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The file as given.
    pub path: PathBuf,
    /// What it holds, when that could be told.
    pub kind: Option<DocumentKind>,
    /// Every diagnostic, spans filled in, sorted by file, line, column, code. A scenario's
    /// report holds its map's diagnostics too (in the map's file).
    pub diagnostics: Vec<Diagnostic>,
    /// The texts the diagnostics point into (the file, and a scenario's map), for rendering.
    pub sources: Vec<SourceFile>,
    /// Set when the file could not be read at all (missing, a folder, no permission): the
    /// command cannot run on it.
    pub unreadable: Option<String>,
}

impl FileReport {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }

    /// The source text of a file the diagnostics point into.
    pub fn source(&self, file: &Path) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.path == file)
    }
}

/// Reads a file's bytes with the loader's size limit. `Err` when it cannot be read at all.
enum Read {
    Text(SourceFile),
    /// Readable, but refused (too large, not UTF-8): a located diagnostic, and a lossy copy of
    /// the text to show when there is one.
    Refused(Box<(Diagnostic, Option<SourceFile>)>),
}

fn read(path: &Path, document: DocumentKind) -> Result<Read, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io_error)?;
    if meta.is_dir() {
        return Err(io_error(std::io::Error::other("it is a folder")));
    }
    if meta.len() > io::MAX_FILE_BYTES {
        let error = LoadError::TooLarge {
            path: path.to_owned(),
            bytes: meta.len(),
        };
        return Ok(Read::Refused(Box::new((
            refusal(&error, document, path, None),
            None,
        ))));
    }
    let bytes = std::fs::read(path).map_err(io_error)?;
    let lossy = String::from_utf8_lossy(&bytes).into_owned();
    match io::source_from_bytes(path, bytes) {
        Ok(source) => Ok(Read::Text(source)),
        Err(error) => {
            let lossy = SourceFile::new(path, lossy);
            Ok(Read::Refused(Box::new((
                refusal(&error, document, path, Some(&lossy)),
                Some(lossy),
            ))))
        }
    }
}

/// The diagnostic of a load error, located where the loader says.
fn refusal(
    error: &LoadError,
    document: DocumentKind,
    path: &Path,
    source: Option<&SourceFile>,
) -> Diagnostic {
    let (code, help) = match error {
        LoadError::NotUtf8 { .. } => (Code::E0102, "save the file as UTF-8 text"),
        LoadError::UnknownKind { .. } | LoadError::WrongKind { .. } => (
            Code::E0103,
            "a map file starts with `Map(`, a scenario file with `Scenario(`",
        ),
        LoadError::NewerVersion { .. } => (
            Code::E0104,
            "update bataille, or write the file for this version",
        ),
        LoadError::TooLarge { .. } => (
            Code::E0106,
            "a map or scenario is far smaller: check that this is the right file",
        ),
        LoadError::Syntax { .. } | LoadError::Io { .. } | LoadError::Map { .. } => (
            Code::E0101,
            "correct the RON syntax here (brackets, commas, quotes, field names)",
        ),
    };
    let mut d = Diagnostic::new(code, document, "", error.message()).help(help);
    d.span = Some(match (error.location(), source) {
        (Some(location), Some(source)) => span_of(source, location.span.clone()),
        (Some(location), None) => Span {
            file: path.to_owned(),
            line: location.line,
            column: location.column,
            end_line: location.end_line,
            end_column: location.end_column,
            bytes: location.span.clone(),
        },
        (None, _) => Span {
            file: path.to_owned(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            bytes: 0..0,
        },
    });
    d
}

/// Validates a file: tells a map from a scenario; a scenario also loads and validates its map
/// (its path relative to the scenario file). Never panics on bad input: every problem becomes
/// a located diagnostic, except a file that cannot be read at all (`unreadable`).
pub fn validate_file(path: &Path, options: &Options) -> FileReport {
    let mut report = FileReport {
        path: path.to_owned(),
        kind: None,
        diagnostics: Vec::new(),
        sources: Vec::new(),
        unreadable: None,
    };
    match read(path, DocumentKind::Scenario) {
        Err(error) => report.unreadable = Some(error.to_string()),
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            report.diagnostics.push(d);
            report.sources.extend(lossy);
        }
        Ok(Read::Text(source)) => {
            validate_text(&mut report, source, options);
        }
    }
    report
        .diagnostics
        .retain(|d| !matches_code(&options.allow, d.code));
    report.diagnostics.sort_by(Diagnostic::order);
    report.diagnostics.dedup();
    report
}

/// Validates a file's text (its path used for messages and to find a scenario's map).
pub fn validate_source(source: SourceFile, options: &Options) -> FileReport {
    let mut report = FileReport {
        path: source.path.clone(),
        kind: None,
        diagnostics: Vec::new(),
        sources: Vec::new(),
        unreadable: None,
    };
    validate_text(&mut report, source, options);
    report
        .diagnostics
        .retain(|d| !matches_code(&options.allow, d.code));
    report.diagnostics.sort_by(Diagnostic::order);
    report.diagnostics.dedup();
    report
}

fn validate_text(report: &mut FileReport, source: SourceFile, options: &Options) {
    let kind = match io::sniff_kind(&source) {
        Ok(kind) => kind,
        Err(error) => {
            report.diagnostics.push(refusal(
                &error,
                DocumentKind::Scenario,
                &source.path,
                Some(&source),
            ));
            report.sources.push(source);
            return;
        }
    };
    report.kind = Some(kind);
    match kind {
        DocumentKind::Map => match io::parse_map(&source) {
            Err(error) => {
                report
                    .diagnostics
                    .push(refusal(&error, kind, &source.path, Some(&source)))
            }
            Ok(map) => {
                let mut diagnostics = validate_map(&map, options);
                Resolver::new(kind, &source).resolve(&mut diagnostics);
                report.diagnostics.extend(diagnostics);
            }
        },
        DocumentKind::Scenario => {
            match io::parse_scenario(&source) {
                Err(error) => {
                    report
                        .diagnostics
                        .push(refusal(&error, kind, &source.path, Some(&source)))
                }
                Ok(scenario) => {
                    let map_path = clean_path(&io::map_path_of(&source.path, &scenario));
                    let (mut diagnostics, map_source) = match load_map_of(&map_path) {
                        Ok((map, map_source)) => (
                            validate_documents(&scenario, &map, options),
                            Some(map_source),
                        ),
                        Err(failure) => {
                            let (error, map_diagnostic, map_source) = *failure;
                            let mut diagnostics = validate_scenario_alone(&scenario, options);
                            diagnostics.push(
                            Diagnostic::new(
                                Code::E0208,
                                DocumentKind::Scenario,
                                "/map",
                                format!("the scenario's map `{}` cannot be loaded: {error}", scenario.map),
                            )
                            .help("correct the `map` path (relative to this file) or the map file"),
                        );
                            diagnostics.extend(map_diagnostic);
                            (diagnostics, map_source)
                        }
                    };
                    Resolver::new(kind, &source).resolve(&mut diagnostics);
                    if let Some(map_source) = &map_source {
                        Resolver::new(DocumentKind::Map, map_source).resolve(&mut diagnostics);
                    }
                    report.diagnostics.extend(diagnostics);
                    report.sources.extend(map_source);
                }
            }
        }
    }
    report.sources.insert(0, source);
}

/// Removes `.` and `name/..` from a path without touching the file system, so a map reached
/// from `scenarios/x.ron` as `../maps/m.ron` is reported as `maps/m.ron`.
pub fn clean_path(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

type MapFailure = Box<(String, Option<Diagnostic>, Option<SourceFile>)>;

/// Loads a scenario's map; on failure, why in short, the map's own located diagnostic, and its
/// text when readable.
fn load_map_of(path: &Path) -> Result<(Map, SourceFile), MapFailure> {
    match read(path, DocumentKind::Map) {
        Err(error) => Err(Box::new((error.to_string(), None, None))),
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            Err(Box::new((
                "the map file is refused (see its diagnostic)".into(),
                Some(d),
                lossy,
            )))
        }
        Ok(Read::Text(source)) => match io::parse_map(&source) {
            Ok(map) => Ok((map, source)),
            Err(error) => {
                let d = refusal(&error, DocumentKind::Map, path, Some(&source));
                Err(Box::new((
                    "the map file has errors (see its diagnostic)".into(),
                    Some(d),
                    Some(source),
                )))
            }
        },
    }
}
