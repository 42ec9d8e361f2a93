//! The one door in: how every command and the editor obtain a document (a map, a scenario, a
//! miniatures system) and every file it names (a scenario's map and systems, a map's
//! background scan).
//!
//! [`open`] reads the file with the bounded reader (regular files only, at most
//! [`bataille_schema::limits::MAX_FILE_BYTES`]), tells its kind, parses it (a key given twice, a
//! number that is not finite, a grid beyond the limits, a newer format: each refused with its
//! place), checks it against its JSON Schema (so no string longer than the schema allows
//! reaches a renderer) and runs the validator. Every file the document names is confined as a
//! scenario's `map:` always was: relative to the naming file's folder, inside the root
//! (`--root`, default: the repository of the file opened), a regular file, and never quoted in
//! a report unless it is a document of ours (it starts `Map(`, `Scenario(` or `System(`).
//!
//! [`open`] never refuses: it returns whatever could be read with every diagnostic, as the
//! validator and the editor need. A command that draws, exports or tables a document calls
//! [`Opened::admit`], which refuses a document with any structural error (file format, JSON
//! Schema, references, the map's own structure, a system file that cannot be loaded): nothing
//! is drawn from a document the door refused.

use std::path::{Path, PathBuf};

use bataille_schema::io::{self, LoadError};
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile, System};

use crate::resolve::{Resolver, span_of};
use crate::suppressions::matches_code;
mod background;
mod scenario;
mod variant;
use crate::{Code, Diagnostic, FileReport, Options, Span};
use background::background_of;
pub(crate) use scenario::open_scenario;
pub use variant::{Bases, VariantDocument};

/// A map as the door opened it.
#[derive(Debug, Clone)]
pub struct MapDocument {
    /// The file, as reached (a scenario's map: joined to the scenario's folder, cleaned).
    pub path: PathBuf,
    pub map: Map,
    /// The background scan the map names, confined to the root (it may not exist: scans are
    /// often kept out of repositories). `None` when the map names none or it was refused.
    pub background: Option<PathBuf>,
}

/// A miniatures system as the door opened it.
#[derive(Debug, Clone)]
pub struct SystemDocument {
    pub path: PathBuf,
    pub system: System,
}

/// A scenario as the door opened it, with the files it names.
#[derive(Debug, Clone)]
pub struct ScenarioDocument {
    pub path: PathBuf,
    pub scenario: Scenario,
    /// Its map, `None` when the map was refused (an E0208 says why).
    pub map: Option<MapDocument>,
    /// One per `miniatures` entry, in order: `None` when that system was refused (an E1001 says
    /// why).
    pub systems: Vec<Option<SystemDocument>>,
    /// Set when the file opened is a variant (`Variant(`): `scenario` is then the variant
    /// resolved over its base, `path` the variant file's, `map` and `systems` the base's.
    pub variant: Option<Box<VariantDocument>>,
}

impl ScenarioDocument {
    /// The system of the `miniatures` entry naming `id`, when it was loaded.
    pub fn system(&self, id: &str) -> Option<&SystemDocument> {
        self.scenario
            .miniatures
            .iter()
            .zip(&self.systems)
            .find(|(used, _)| used.system.as_str() == id)
            .and_then(|(_, system)| system.as_ref())
    }
}

/// What a file held.
#[derive(Debug, Clone)]
pub enum Document {
    Map(Box<MapDocument>),
    Scenario(Box<ScenarioDocument>),
    System(Box<SystemDocument>),
}

impl Document {
    pub fn kind(&self) -> DocumentKind {
        match self {
            Document::Map(_) => DocumentKind::Map,
            Document::Scenario(s) if s.variant.is_some() => DocumentKind::Variant,
            Document::Scenario(_) => DocumentKind::Scenario,
            Document::System(_) => DocumentKind::System,
        }
    }
}

/// Everything the door found about a file.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The document, when the file (and, for a scenario, at least the scenario itself) parsed.
    pub document: Option<Document>,
    /// Every diagnostic with its place, and the texts they point into (only documents of ours).
    pub report: FileReport,
    /// Every file read or named: the file, a scenario's map and systems, the map's background
    /// scan. A command never writes over one of them (see
    /// [`bataille_schema::files::Outputs::guarding`]).
    pub reads: Vec<PathBuf>,
    /// Whether `document` is kept: `false` when only the report is wanted
    /// ([`crate::validate_file`]), so a scenario's units are dropped before the spans are
    /// resolved (issue 19: 42 MB of units beside the span index for 200,000 units).
    keep_document: bool,
}

/// A document the door admitted: no structural error. `diagnostics` holds what the validator
/// still says (stacking, command, ...), which does not stop a command.
#[derive(Debug, Clone)]
pub struct Admitted {
    pub document: Document,
    pub reads: Vec<PathBuf>,
    pub report: FileReport,
}

impl Admitted {
    /// The source text of a document read (the file, its map, its systems).
    pub fn source(&self, path: &Path) -> Option<&SourceFile> {
        self.report.source(path)
    }
}

/// A document the door refused: the report holds the diagnostics that refuse it (or
/// `unreadable` when the file could not be read at all).
#[derive(Debug, Clone)]
pub struct Refused {
    pub report: FileReport,
}

impl Refused {
    /// The file could not be read at all (missing, a folder, no permission): the command could
    /// not run, rather than found the file wrong.
    pub fn unreadable(&self) -> bool {
        self.report.unreadable.is_some()
    }
}

impl std::fmt::Display for Refused {
    /// The reasons in one line each (`file:line:column: code: message`), for callers without a
    /// report printer.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(why) = &self.report.unreadable {
            return f.write_str(why);
        }
        let mut first = true;
        for d in &self.report.diagnostics {
            if !first {
                f.write_str("\n")?;
            }
            first = false;
            match &d.span {
                Some(span) => write!(
                    f,
                    "{}:{}:{}: {}: {}",
                    span.file.display(),
                    span.line,
                    span.column,
                    d.code.as_str(),
                    d.message
                )?,
                None => write!(f, "{}: {}", d.code.as_str(), d.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Refused {}

/// Whether an error stops a command from drawing, exporting or tabling the document: the file
/// format and its JSON Schema (E01xx), references (E02xx, the map file included), the map's own
/// structure (E06xx) and a system file that cannot be loaded (E1001). Rule checks (stacking,
/// deployment, command, a unit's miniatures ratings) do not: a battle being designed is drawn
/// with its mistakes.
pub fn refuses(code: Code) -> bool {
    code.severity() == crate::Severity::Error
        && (matches!(code.group(), "structure" | "references" | "map" | "variant")
            || code == Code::E1001)
}

impl Opened {
    /// The source text of a document read.
    pub fn source(&self, path: &Path) -> Option<&SourceFile> {
        self.report.source(path)
    }

    /// Whether the door refuses the document for a command (see [`refuses`]).
    pub fn is_refused(&self) -> bool {
        self.document.is_none()
            || self.report.unreadable.is_some()
            || self.report.diagnostics.iter().any(|d| refuses(d.code))
    }

    /// The document for a command, or why not: the structural errors only (the rule checks'
    /// diagnostics are left in the admitted report).
    pub fn admit(self) -> Result<Admitted, Box<Refused>> {
        if self.is_refused() {
            let mut report = self.report;
            report.diagnostics.retain(|d| refuses(d.code));
            if report.diagnostics.is_empty() && report.unreadable.is_none() {
                // Cannot happen (no document means a refusal was reported), but never admit.
                report.unreadable = Some(format!(
                    "cannot open {}: it could not be read as a document",
                    report.path.display()
                ));
            }
            return Err(Box::new(Refused { report }));
        }
        match self.document {
            Some(document) => Ok(Admitted {
                document,
                reads: self.reads,
                report: self.report,
            }),
            None => Err(Box::new(Refused {
                report: self.report,
            })),
        }
    }
}

/// Opens a file through the door: see the module's documentation. Never panics on bad input.
pub fn open(path: &Path, options: &Options) -> Opened {
    open_keeping(path, options, true)
}

/// [`open`], the document kept or not (only the report is wanted).
pub(crate) fn open_keeping(path: &Path, options: &Options, keep_document: bool) -> Opened {
    let mut opened = Opened {
        document: None,
        report: FileReport {
            path: path.to_owned(),
            kind: None,
            diagnostics: Vec::new(),
            sources: Vec::new(),
            unreadable: None,
        },
        reads: vec![path.to_owned()],
        keep_document,
    };
    match read(path, DocumentKind::Scenario) {
        Err(error) => opened.report.unreadable = Some(error.to_string()),
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            opened.report.diagnostics.push(d);
            opened.report.sources.extend(lossy);
        }
        Ok(Read::Text(source)) => open_text(&mut opened, source, options),
    }
    finish(&mut opened.report, options);
    opened
}

/// Opens a document from text already in memory (its path used for messages and to find the
/// files it names), as [`open`] does.
pub fn open_source(source: SourceFile, options: &Options) -> Opened {
    open_source_keeping(source, options, true)
}

/// [`open_source`], the document kept or not (only the report is wanted).
pub(crate) fn open_source_keeping(
    source: SourceFile,
    options: &Options,
    keep_document: bool,
) -> Opened {
    let mut opened = Opened {
        document: None,
        report: FileReport {
            path: source.path.clone(),
            kind: None,
            diagnostics: Vec::new(),
            sources: Vec::new(),
            unreadable: None,
        },
        reads: vec![source.path.clone()],
        keep_document,
    };
    open_text(&mut opened, source, options);
    finish(&mut opened.report, options);
    opened
}

/// Opens a document and admits it for a command: [`open`] then [`Opened::admit`].
pub fn admit(path: &Path, options: &Options) -> Result<Admitted, Box<Refused>> {
    open(path, options).admit()
}

/// A document read and parsed, nothing it names opened: for `fmt`, which rewrites a file's
/// text and needs only to know that it parses.
#[derive(Debug, Clone)]
pub enum Parsed {
    Map(Box<Map>),
    Scenario(Box<Scenario>),
    System(Box<System>),
    Variant(Box<bataille_schema::Variant>),
}

/// Reads and parses a document through the door's bounded reader and parsers, without opening
/// what it names or running the checks; refused (with the located diagnostic) when it does not
/// read or parse.
pub fn read_document(path: &Path) -> Result<(Parsed, SourceFile), Box<Refused>> {
    let mut report = FileReport {
        path: path.to_owned(),
        kind: None,
        diagnostics: Vec::new(),
        sources: Vec::new(),
        unreadable: None,
    };
    let source = match read(path, DocumentKind::Scenario) {
        Err(error) => {
            report.unreadable = Some(error.to_string());
            return Err(Box::new(Refused { report }));
        }
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            report.diagnostics.push(d);
            report.sources.extend(lossy);
            return Err(Box::new(Refused { report }));
        }
        Ok(Read::Text(source)) => source,
    };
    let parsed = io::sniff_kind(&source).and_then(|kind| match kind {
        DocumentKind::Map => io::parse_map(&source).map(|m| Parsed::Map(Box::new(m))),
        DocumentKind::Scenario => {
            io::parse_scenario(&source).map(|s| Parsed::Scenario(Box::new(s)))
        }
        DocumentKind::System => io::parse_system(&source).map(|s| Parsed::System(Box::new(s))),
        DocumentKind::Variant => io::parse_variant(&source).map(|v| Parsed::Variant(Box::new(v))),
    });
    match parsed {
        Ok(parsed) => Ok((parsed, source)),
        Err(error) => {
            let kind = io::sniff_kind(&source).unwrap_or(DocumentKind::Scenario);
            let source = ours(source);
            report
                .diagnostics
                .push(refusal(&error, kind, path, source.as_ref()));
            report.sources.extend(source);
            Err(Box::new(Refused { report }))
        }
    }
}

fn finish(report: &mut FileReport, options: &Options) {
    report
        .diagnostics
        .retain(|d| !matches_code(&options.allow, d.code));
    report.diagnostics.sort_by(Diagnostic::order);
    report.diagnostics.dedup();
    crate::sink::drop_refused_values(&mut report.diagnostics);
    crate::sink::bound_report(&mut report.diagnostics, options.bound);
}

/// Reads a file's bytes with the loader's size limit. `Err` when it cannot be read at all.
pub(crate) enum Read {
    Text(SourceFile),
    /// Readable, but refused (too large, not UTF-8): a located diagnostic, and a lossy copy of
    /// the text to show when it is a document of ours.
    Refused(Box<(Diagnostic, Option<SourceFile>)>),
}

pub(crate) fn read(path: &Path, document: DocumentKind) -> Result<Read, LoadError> {
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

/// The text, when it is a document of ours (it starts `Map(`, `Scenario(` or `System(`): only
/// such text is ever shown in a report. Any other file (`/etc/passwd`, `/proc/self/environ`, a
/// stranger's file named `.ron`) is reported by place alone, never quoted, so a report in a
/// public CI log leaks nothing.
pub(crate) fn ours(source: SourceFile) -> Option<SourceFile> {
    io::sniff_kind(&source).is_ok().then_some(source)
}

/// The diagnostic of a load error, located where the loader says.
pub(crate) fn refusal(
    error: &LoadError,
    document: DocumentKind,
    path: &Path,
    source: Option<&SourceFile>,
) -> Diagnostic {
    let (code, help) = match error {
        LoadError::NotUtf8 { .. } => (Code::E0102, "save the file as UTF-8 text"),
        LoadError::UnknownKind { .. } | LoadError::WrongKind { .. } => (
            Code::E0103,
            "a map file starts with `Map(`, a scenario file with `Scenario(`, a miniatures system with `System(`, a scenario variant with `Variant(`",
        ),
        LoadError::NewerVersion { .. } => (
            Code::E0104,
            "update bataille, or write the file for this version",
        ),
        LoadError::TooLarge { .. } => (
            Code::E0106,
            "a map, scenario or system is far smaller: check that this is the right file",
        ),
        LoadError::DuplicateKey { .. } => (
            Code::E0120,
            "keep one entry for this key (merge the two, or rename one); `bataille fmt` refuses the file until then",
        ),
        LoadError::TooMany { .. } => (
            Code::E0105,
            "keep the list within its limit (the JSON Schema's maxItems); the file is refused there, before anything else is read",
        ),
        LoadError::GridLimit { .. } => (
            Code::E0121,
            "correct the grid: hex names have at most three digits for the column and three for the row",
        ),
        LoadError::NotFinite { .. } => (
            Code::E0122,
            "NaN and infinities have no place in a document (JSON cannot hold them): write a number",
        ),
        LoadError::Unprintable { .. } => (
            Code::E0123,
            "remove the character: no name or text holds a control character (XML cannot hold it, a terminal obeys it)",
        ),
        LoadError::Syntax { .. } | LoadError::Io { .. } | LoadError::Map { .. } => (
            Code::E0101,
            "correct the RON syntax here (brackets, commas, quotes, field names)",
        ),
    };
    let mut d = Diagnostic::new(code, document, "", error.message()).help(help);
    d.span = Some(Box::new(match (error.location(), source) {
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
    }));
    d
}

fn open_text(opened: &mut Opened, source: SourceFile, options: &Options) {
    let report = &mut opened.report;
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
    let path = source.path.clone();
    match kind {
        DocumentKind::Map => match io::parse_map(&source) {
            Err(error) => {
                report
                    .diagnostics
                    .push(refusal(&error, kind, &source.path, Some(&source)))
            }
            Ok(map) => {
                let root = options.root.clone();
                let mut diagnostics = crate::unsorted(None, Some(&map), options);
                let background = background_of(&path, &map, root.as_deref(), &mut diagnostics);
                Resolver::new(kind, &source).resolve(&mut diagnostics);
                report.diagnostics.extend(diagnostics);
                opened.reads.extend(background.clone());
                opened.document = Some(Document::Map(Box::new(MapDocument {
                    path: path.clone(),
                    map,
                    background,
                })));
            }
        },
        DocumentKind::System => match io::parse_system(&source) {
            Err(error) => {
                report
                    .diagnostics
                    .push(refusal(&error, kind, &source.path, Some(&source)))
            }
            Ok(system) => {
                let mut diagnostics = system_diagnostics(&system, options);
                Resolver::new(kind, &source).resolve(&mut diagnostics);
                report.diagnostics.extend(diagnostics);
                opened.document = Some(Document::System(Box::new(SystemDocument {
                    path: path.clone(),
                    system,
                })));
            }
        },
        DocumentKind::Scenario => scenario::parse_and_open(opened, &source, options),
        DocumentKind::Variant => match io::parse_variant(&source) {
            Err(error) => {
                report
                    .diagnostics
                    .push(refusal(&error, kind, &source.path, Some(&source)))
            }
            Ok(variant) => variant::open_variant(opened, &source, variant, options),
        },
    }
    opened.report.sources.insert(0, source);
}

/// A system's own tables held together (E1011), and the JSON Schema pass (when asked for):
/// `--allow` applied, bounded ([`crate::sink`]).
fn system_diagnostics(system: &System, options: &Options) -> Vec<Diagnostic> {
    let filter = crate::sink::Filter::options(&options.allow);
    let mut out = crate::Sink::new(options.bound, Some(&filter));
    crate::system_data::system_data(system, &mut out);
    if options.json_schema {
        bataille_schema::json_schema::check_system_each(system, &mut |v| {
            out.push(crate::schema_diagnostic(DocumentKind::System, v))
        });
    }
    out.finish()
}

/// Removes `.` and `name/..` from a path without touching the file system, so a map reached
/// from `scenarios/x.ron` as `../maps/m.ron` is reported as `maps/m.ron` (one home, in the
/// schema's files).
pub use bataille_schema::files::clean_path;
