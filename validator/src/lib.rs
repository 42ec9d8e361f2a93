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
pub mod door;
mod map_checks;
mod miniatures;
mod references;
pub mod resolve;
mod rules;
pub mod sink;
mod stacking;
mod suppressions;
mod system_data;

use std::path::{Path, PathBuf};

use bataille_schema::json_schema;
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile};
const MAP: DocumentKind = DocumentKind::Map;

pub use codes::{Code, Severity};
pub use diagnostic::{Diagnostic, Related, Span};
pub use sink::{Bound, Sink};

use sink::Filter;

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
    /// How many diagnostics a file's report keeps (the others are counted in summaries:
    /// [`sink`]); `--max-per-code`.
    pub bound: Bound,
    /// The base scenarios variants were resolved over, each opened once while these options
    /// (and their clones) live: one run of a command. 1,000 variants of one battle opened
    /// and validated their base 1,000 times.
    pub bases: door::Bases,
}

impl Default for Options {
    /// Every check, nothing allowed.
    fn default() -> Self {
        Self {
            json_schema: true,
            allow: Vec::new(),
            systems: Vec::new(),
            root: None,
            bound: Bound::default(),
            bases: door::Bases::default(),
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
            bound: Bound::default(),
            bases: door::Bases::default(),
        }
    }
}

/// Validates a scenario and its map in memory: the map's diagnostics (document `Map`) and the
/// scenario's (document `Scenario`), suppressions applied, bounded ([`sink`]: at most
/// `options.bound` of a code, the others counted in a summary), in a stable order (by
/// document, then pointer, then code). Spans are not filled in: there are no files here.
pub fn validate_documents(scenario: &Scenario, map: &Map, options: &Options) -> Vec<Diagnostic> {
    let mut out = unsorted(Some(scenario), Some(map), options);
    diagnostic::sort(&mut out);
    out
}

/// [`validate_documents`], [`validate_map`] and [`validate_scenario_alone`] unsorted: the door
/// sorts once, by file and line, when the spans are resolved (sorting here as well sorted
/// 100,000 diagnostics twice, each time with a scratch half their size).
pub(crate) fn unsorted(
    scenario: Option<&Scenario>,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    let filter = Filter::new(scenario, map, &options.allow);
    let sink = match (scenario, map) {
        (Some(scenario), Some(map)) => {
            // The map's and the scenario's passes side by side on rayon's pool (each its
            // checks beside its JSON Schema pass): the work spreads over the cores. The order
            // of the result does not depend on it.
            let (mut out, scenario_out) = rayon::join(
                || map_sink(map, options, &filter),
                || scenario_sink(scenario, Some(map), options, &filter),
            );
            out.merge(scenario_out);
            out
        }
        (Some(scenario), None) => scenario_sink(scenario, None, options, &filter),
        (None, Some(map)) => map_sink(map, options, &filter),
        (None, None) => Sink::new(options.bound, Some(&filter)),
    };
    sink.finish()
}

/// [`unsorted`] of a scenario and its map when the map's own diagnostics
/// ([`map_diagnostics`]) were made beforehand (the door makes them while the scenario is
/// parsed): the same result.
pub(crate) fn unsorted_after_map(
    scenario: &Scenario,
    map: &Map,
    map_out: Vec<Diagnostic>,
    options: &Options,
) -> Vec<Diagnostic> {
    let filter = Filter::new(Some(scenario), Some(map), &options.allow);
    let mut sink = Sink::new(options.bound, Some(&filter));
    for d in map_out {
        sink.push(d);
    }
    sink.merge(scenario_sink(scenario, Some(map), options, &filter));
    sink.finish()
}

/// Validates a map alone, in memory.
pub fn validate_map(map: &Map, options: &Options) -> Vec<Diagnostic> {
    let mut out = unsorted(None, Some(map), options);
    diagnostic::sort(&mut out);
    out
}

/// Validates a scenario whose map is not at hand: checks that need the map (hexes on it,
/// terrain, command paths) are skipped.
pub fn validate_scenario_alone(scenario: &Scenario, options: &Options) -> Vec<Diagnostic> {
    let mut out = unsorted(Some(scenario), None, options);
    diagnostic::sort(&mut out);
    out
}

/// A map's own diagnostics (its checks and its JSON Schema pass), its `allow` applied,
/// bounded, unsorted.
pub(crate) fn map_diagnostics(map: &Map, options: &Options) -> Vec<Diagnostic> {
    let filter = Filter::new(None, Some(map), &options.allow);
    map_sink(map, options, &filter).finish()
}

fn map_sink<'f>(map: &Map, options: &Options, filter: &'f Filter<'f>) -> Sink<'f> {
    beside_the_schema(
        options,
        filter,
        |out| json_schema::check_map_each(map, &mut |v| out.push(schema_diagnostic(MAP, v))),
        |out| map_checks::check_map(map, out),
    )
}

/// The JSON Schema pass (the document turned into JSON and checked: the slowest step, and
/// independent of the checks) beside the checks on rayon's pool, its diagnostics first; the
/// checks alone when the options leave it out (the editor).
fn beside_the_schema<'f>(
    options: &Options,
    filter: &'f Filter<'f>,
    schema: impl FnOnce(&mut Sink<'f>) + Send,
    checks: impl FnOnce(&mut Sink<'f>) + Send,
) -> Sink<'f> {
    let mut out = Sink::new(options.bound, Some(filter));
    if !options.json_schema {
        checks(&mut out);
        return out;
    }
    let mut beside = out.beside();
    rayon::join(|| schema(&mut out), || checks(&mut beside));
    out.merge(beside);
    out
}

/// The scenario's checks, in their order: one function per code or tight family, each in the
/// file of its group (`Code::check` names it).
fn scenario_sink<'f>(
    scenario: &'f Scenario,
    map: Option<&'f Map>,
    options: &Options,
    filter: &'f Filter<'f>,
) -> Sink<'f> {
    beside_the_schema(
        options,
        filter,
        |out| {
            json_schema::check_scenario_each(scenario, &mut |v| {
                out.push(schema_diagnostic(DocumentKind::Scenario, v))
            })
        },
        |out| {
            let fresh = out.beside();
            let sink = std::mem::replace(out, fresh);
            *out = scenario_checks(scenario, map, options, sink);
        },
    )
}

fn scenario_checks<'f>(
    scenario: &'f Scenario,
    map: Option<&'f Map>,
    options: &Options,
    out: Sink<'f>,
) -> Sink<'f> {
    // The command radii (the longest check, reading the documents only), the deployment
    // checks and the others side by side on rayon's pool, each in its own context (no check
    // writes anything but its diagnostics); their diagnostics are put back in the checks'
    // order, so the result is the same as one after the other. The contexts share one list
    // of counters (200,000 counters were 19 MB in each, issue 19).
    // The repeated ids first, their table dropped before the list of counters is made (issue
    // 19: the two side by side were 6 MB of a file of 158,000 of the shortest units' peak); its
    // diagnostics come first in the checks' order, as when it ran first beside the others.
    let mut out = out;
    references::unique_ids(scenario, &mut out);
    let mut ctx = context::Ctx::new(scenario, map, out);
    let mut for_command = ctx.beside();
    let mut for_deployment = ctx.beside();
    let ((commanded, deployed), mut ctx) = rayon::join(
        move || {
            rayon::join(
                move || {
                    command::command(&mut for_command);
                    for_command.out
                },
                move || {
                    deployment::deployment(&mut for_deployment);
                    rules::rules_against_map(&mut for_deployment);
                    for_deployment.out
                },
            )
        },
        move || {
            references::references(&mut ctx);
            suppressions::allow_lists(&mut ctx);
            references::sides_and_layout(&mut ctx);
            rules::charts(&mut ctx);
            corps::corps_membership(&mut ctx);
            corps::commanders_own_corps(&mut ctx);
            stacking::stacking(&mut ctx);
            ctx
        },
    );
    ctx.out.merge(deployed);
    ctx.out.merge(commanded);
    miniatures::miniatures(&mut ctx, &options.systems);
    ctx.out
}

/// A violation of a document's JSON Schema as an E0105 (each goes into the sink as it is
/// found: [`json_schema::Each`]).
pub(crate) fn schema_diagnostic(kind: DocumentKind, v: json_schema::SchemaViolation) -> Diagnostic {
    let place = if v.pointer.is_empty() {
        "the document".to_owned()
    } else {
        format!("`{}`", v.pointer)
    };
    let message = format!("{place}: {}", v.message);
    Diagnostic::new(Code::E0105, kind, v.pointer, message).help(format!(
        "correct the value so it fits {}.schema.json (`bataille schema` prints it)",
        json_schema::file_stem(kind)
    ))
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
    /// The errors found, those a summary stands for included.
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(Diagnostic::count)
            .sum()
    }

    /// The warnings found, those a summary stands for included.
    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .map(Diagnostic::count)
            .sum()
    }

    /// The source text of a file the diagnostics point into.
    pub fn source(&self, file: &Path) -> Option<&SourceFile> {
        self.sources.iter().find(|s| s.path == file)
    }
}

/// Validates a file through the door ([`door::open`]): tells a map, a scenario or a system
/// apart; a scenario also opens and validates its map and its systems. Never panics on bad
/// input: every problem becomes a located diagnostic, except a file that cannot be read at all
/// (`unreadable`).
pub fn validate_file(path: &Path, options: &Options) -> FileReport {
    door::open_keeping(path, options, false).report
}

/// Validates a file's text (its path used for messages and to find the files it names).
pub fn validate_source(source: SourceFile, options: &Options) -> FileReport {
    door::open_source_keeping(source, options, false).report
}

pub use door::clean_path;
