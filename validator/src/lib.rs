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
mod miniatures;
mod references;
pub mod resolve;
mod rules;
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
    /// The miniatures systems the scenario names (`miniatures`), loaded: `validate_file` loads
    /// them from the scenario's `file` paths; in memory, a system not given here is not checked.
    pub systems: Vec<bataille_schema::System>,
    /// The folder a scenario's `map:` must stay in (`--root`); `None`: the scenario's
    /// repository, or the folder above the scenario's (see `bataille_schema::files`).
    pub root: Option<PathBuf>,
}

impl Default for Options {
    /// Every check, nothing allowed.
    fn default() -> Self {
        Self {
            json_schema: true,
            allow: Vec::new(),
            systems: Vec::new(),
            root: None,
        }
    }
}

impl Options {
    /// Every check but the JSON Schema pass: for the editor, after each edit.
    pub fn editor() -> Self {
        Self {
            json_schema: false,
            allow: Vec::new(),
            systems: Vec::new(),
            root: None,
        }
    }
}

/// Validates a scenario and its map in memory: the map's diagnostics (document `Map`) and the
/// scenario's (document `Scenario`), suppressions applied, in a stable order (by document,
/// then pointer, then code). Spans are not filled in: there are no files here.
pub fn validate_documents(scenario: &Scenario, map: &Map, options: &Options) -> Vec<Diagnostic> {
    let mut out = map_diagnostics(map, options);
    out.extend(scenario_diagnostics(scenario, Some(map), options));
    finish(out, Some(scenario), Some(map), options)
}

/// Validates a map alone, in memory.
pub fn validate_map(map: &Map, options: &Options) -> Vec<Diagnostic> {
    finish(map_diagnostics(map, options), None, Some(map), options)
}

/// Validates a scenario whose map is not at hand: checks that need the map (hexes on it,
/// terrain, command paths) are skipped.
pub fn validate_scenario_alone(scenario: &Scenario, options: &Options) -> Vec<Diagnostic> {
    finish(
        scenario_diagnostics(scenario, None, options),
        Some(scenario),
        None,
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
    references::sides_and_layout(&mut ctx);
    rules::charts(&mut ctx);
    corps::corps_membership(&mut ctx);
    stacking::stacking(&mut ctx);
    deployment::deployment(&mut ctx);
    rules::rules_against_map(&mut ctx);
    command::command(&mut ctx);
    miniatures::miniatures(&mut ctx, &options.systems);
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

/// Drops allowed diagnostics, then sorts. A scenario's `allow` covers its diagnostics, a
/// map's `allow` the map's; a counter's covers those whose subject it is, and a corps' those
/// whose subject is the corps, its line leader or one of its units.
fn finish(
    mut out: Vec<Diagnostic>,
    scenario: Option<&Scenario>,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    if out.is_empty() {
        return out;
    }
    let lists_empty = options.allow.is_empty()
        && map.is_none_or(|m| m.allow.is_empty())
        && scenario.is_none_or(|s| {
            s.allow.is_empty()
                && s.armies.iter().all(|a| {
                    a.commanders.iter().all(|c| c.allow.is_empty())
                        && a.corps.iter().all(|c| {
                            c.allow.is_empty()
                                && c.leader.as_ref().is_none_or(|l| l.allow.is_empty())
                        })
                        && a.units.iter().all(|u| u.allow.is_empty())
                })
        });
    if lists_empty {
        // Nothing is allowed anywhere (the usual case): no table of lists to build.
        diagnostic::sort(&mut out);
        return out;
    }
    let mut counters: HashMap<&str, Vec<&[String]>> = HashMap::new();
    if let Some(s) = scenario {
        let corps_allow: HashMap<&str, &[String]> = s
            .armies
            .iter()
            .flat_map(|a| &a.corps)
            .map(|c| (c.id.as_str(), c.allow.as_slice()))
            .collect();
        for army in &s.armies {
            for c in &army.commanders {
                counters.entry(c.id.as_str()).or_default().push(&c.allow);
            }
            for corps in &army.corps {
                counters
                    .entry(corps.id.as_str())
                    .or_default()
                    .push(&corps.allow);
                if let Some(l) = &corps.leader {
                    let lists = counters.entry(l.id.as_str()).or_default();
                    lists.push(&l.allow);
                    lists.push(&corps.allow);
                }
            }
            for u in &army.units {
                let lists = counters.entry(u.id.as_str()).or_default();
                lists.push(&u.allow);
                if let Some(allow) = u.corps.as_ref().and_then(|c| corps_allow.get(c.as_str())) {
                    lists.push(allow);
                }
            }
        }
    }
    out.retain(|d| {
        if matches_code(&options.allow, d.code) {
            return false;
        }
        if d.document == DocumentKind::Map {
            return !map.is_some_and(|m| matches_code(&m.allow, d.code));
        }
        let Some(s) = scenario else { return true };
        if matches_code(&s.allow, d.code) {
            return false;
        }
        !d.subject
            .as_deref()
            .and_then(|id| counters.get(id))
            .is_some_and(|lists| lists.iter().any(|allow| matches_code(allow, d.code)))
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
    // Only a regular file, at most the size limit + 1 byte read (a FIFO, a device, /dev/zero
    // or a /proc file are refused or cut short, never waited on or read to the end).
    let bytes = match io::read_bytes(path) {
        Ok(bytes) => bytes,
        Err(error @ LoadError::TooLarge { .. }) => {
            return Ok(Read::Refused(Box::new((
                refusal(&error, document, path, None),
                None,
            ))));
        }
        Err(error) => return Err(error),
    };
    // A lossy copy of the text only for a file that is not UTF-8 (no second copy of a big file).
    let lossy = std::str::from_utf8(&bytes)
        .is_err()
        .then(|| String::from_utf8_lossy(&bytes).into_owned());
    match io::source_from_bytes(path, bytes) {
        Ok(source) => Ok(Read::Text(source)),
        Err(error) => {
            let lossy = SourceFile::new(path, lossy.unwrap_or_default());
            let diagnostic = refusal(&error, document, path, Some(&lossy));
            Ok(Read::Refused(Box::new((diagnostic, ours(lossy)))))
        }
    }
}

/// The text, when it is a map or scenario of ours (it starts `Map(` or `Scenario(`): only such
/// text is ever shown in a report. Any other file (`/etc/passwd`, `/proc/self/environ`, a
/// stranger's file named `.ron`) is reported by place alone, never quoted, so a report in a
/// public CI log leaks nothing.
fn ours(source: SourceFile) -> Option<SourceFile> {
    io::sniff_kind(&source).is_ok().then_some(source)
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
        LoadError::DuplicateKey { .. } => (
            Code::E0120,
            "keep one entry for this key (merge the two, or rename one); `bataille fmt` refuses the file until then",
        ),
        LoadError::GridLimit { .. } => (
            Code::E0121,
            "correct the grid: hex names have at most three digits for the column and three for the row",
        ),
        LoadError::NotFinite { .. } => (
            Code::E0122,
            "NaN and infinities have no place in a map (JSON cannot hold them): write a number",
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
            // Not a document of ours: reported by place, its text never shown.
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
                    let (systems, system_diagnostics) = load_systems(&source.path, &scenario);
                    let with_systems;
                    let options = if systems.is_empty() {
                        options
                    } else {
                        let mut o = options.clone();
                        o.systems.extend(systems);
                        with_systems = o;
                        &with_systems
                    };
                    let map_path = bataille_schema::files::resolve_map(
                        &source.path,
                        &scenario.map,
                        options.root.as_deref(),
                    )
                    .map(|path| clean_path(&path))
                    .map_err(|refused| Box::new((refused.to_string(), None, None)));
                    let (mut diagnostics, map_source) = match map_path.and_then(|p| load_map_of(&p))
                    {
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
                    diagnostics.extend(system_diagnostics);
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
                    ours(source),
                )))
            }
        },
    }
}

/// Loads the miniatures systems a scenario names (`miniatures[].file`, relative to it); each one
/// that cannot be loaded is an E1001 at its `file`.
fn load_systems(
    scenario_path: &Path,
    scenario: &Scenario,
) -> (Vec<bataille_schema::System>, Vec<Diagnostic>) {
    let mut systems = Vec::new();
    let mut out = Vec::new();
    for (m, used) in scenario.miniatures.iter().enumerate() {
        let path = clean_path(&bataille_schema::system::system_path_of(
            scenario_path,
            used,
        ));
        match bataille_schema::system::load_system(&path) {
            Ok(system) if system.id == used.system => systems.push(system),
            Ok(system) => out.push(
                Diagnostic::new(
                    Code::E1001,
                    DocumentKind::Scenario,
                    format!("/miniatures/{m}/file"),
                    format!(
                        "`{}` holds system `{}`, not `{}`",
                        path.display(),
                        system.id,
                        used.system
                    ),
                )
                .help("name the file of the system, or the system of the file"),
            ),
            Err(error) => out.push(
                Diagnostic::new(
                    Code::E1001,
                    DocumentKind::Scenario,
                    format!("/miniatures/{m}/file"),
                    format!(
                        "miniatures system `{}` cannot be loaded: {error}",
                        used.system
                    ),
                )
                .help("correct the `file` path (relative to this file) or the system file"),
            ),
        }
    }
    (systems, out)
}
