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
mod stacking;
mod suppressions;
mod system_data;

use std::path::{Path, PathBuf};

use bataille_schema::json_schema;
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile};

pub use codes::{Code, Severity};
pub use diagnostic::{Diagnostic, Related, Span};

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
    let out = match (scenario, map) {
        (Some(scenario), Some(map)) => {
            // The map's and the scenario's passes side by side on rayon's pool (each its
            // checks beside its JSON Schema pass): the work spreads over the cores. The order
            // of the result does not depend on it.
            let (mut out, scenario_out) = rayon::join(
                || map_diagnostics(map, options),
                || scenario_diagnostics(scenario, Some(map), options),
            );
            out.extend(scenario_out);
            out
        }
        (Some(scenario), None) => scenario_diagnostics(scenario, None, options),
        (None, Some(map)) => map_diagnostics(map, options),
        (None, None) => Vec::new(),
    };
    suppressions::suppress(out, scenario, map, options)
}

/// [`unsorted`] of a scenario and its map when the map's own diagnostics
/// ([`map_diagnostics`]) were made beforehand (the door makes them while the scenario is
/// parsed): the same result.
pub(crate) fn unsorted_after_map(
    scenario: &Scenario,
    map: &Map,
    mut out: Vec<Diagnostic>,
    options: &Options,
) -> Vec<Diagnostic> {
    out.extend(scenario_diagnostics(scenario, Some(map), options));
    suppressions::suppress(out, Some(scenario), Some(map), options)
}

/// Validates a map alone, in memory.
pub fn validate_map(map: &Map, options: &Options) -> Vec<Diagnostic> {
    suppressions::finish(map_diagnostics(map, options), None, Some(map), options)
}

/// Validates a scenario whose map is not at hand: checks that need the map (hexes on it,
/// terrain, command paths) are skipped.
pub fn validate_scenario_alone(scenario: &Scenario, options: &Options) -> Vec<Diagnostic> {
    suppressions::finish(
        scenario_diagnostics(scenario, None, options),
        Some(scenario),
        None,
        options,
    )
}

pub(crate) fn map_diagnostics(map: &Map, options: &Options) -> Vec<Diagnostic> {
    beside_the_schema(
        options,
        || schema_diagnostics(DocumentKind::Map, json_schema::check_map(map)),
        || {
            let mut out = Vec::new();
            map_checks::check_map(map, &mut out);
            out
        },
    )
}

/// The JSON Schema pass (the document turned into JSON and checked: the slowest step, and
/// independent of the checks) beside the checks on rayon's pool, its diagnostics first; the
/// checks alone when the options leave it out (the editor).
fn beside_the_schema(
    options: &Options,
    schema: impl FnOnce() -> Vec<Diagnostic> + Send,
    checks: impl FnOnce() -> Vec<Diagnostic> + Send,
) -> Vec<Diagnostic> {
    if !options.json_schema {
        return checks();
    }
    let (mut out, checks) = rayon::join(schema, checks);
    out.extend(checks);
    out
}

/// The scenario's checks, in their order: one function per code or tight family, each in the
/// file of its group (`Code::check` names it).
fn scenario_diagnostics(
    scenario: &Scenario,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    beside_the_schema(
        options,
        || {
            schema_diagnostics(
                DocumentKind::Scenario,
                json_schema::check_scenario(scenario),
            )
        },
        || scenario_checks(scenario, map, options),
    )
}

fn scenario_checks(scenario: &Scenario, map: Option<&Map>, options: &Options) -> Vec<Diagnostic> {
    // The command radii (the longest check, reading the documents only), the deployment
    // checks and the others side by side on rayon's pool, each in its own context (no check
    // writes anything but its diagnostics); their diagnostics are put back in the checks'
    // order, so the result is the same as one after the other. The contexts share one list
    // of counters (200,000 counters were 19 MB in each, issue 19).
    let mut ctx = context::Ctx::new(scenario, map);
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
            references::unique_ids(&mut ctx);
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
    ctx.out.extend(deployed);
    ctx.out.extend(commanded);
    miniatures::miniatures(&mut ctx, &options.systems);
    ctx.out
}

pub(crate) fn schema_diagnostics(
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
