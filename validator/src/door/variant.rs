//! Scenario variants through the door: a `Variant(` file opens its base scenario (confined as
//! a scenario's `map:` is), is resolved over it ([`bataille_schema::variant::resolve`]) and the
//! resolved scenario is validated like any other. Each diagnostic is placed where its cause is
//! written:
//!
//! - the variant's own problems (an id the base lacks, a change that changes nothing, two
//!   changes that contradict each other, a change that does not fit): at the change (E11xx);
//! - a diagnostic the base raises by itself: at the base's place, as the base's own report
//!   says it (so `bataille validate scenarios/` reports it once);
//! - a diagnostic the variant causes, about a counter, zone or rule it changes: at that change
//!   in the variant file, the base's place as a related note;
//! - one the variant causes about something it does not change (a base unit now overstacked
//!   by a moved one): at the variant's `base:`, the base's place as a related note.

use foldhash::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bataille_schema::io;
use bataille_schema::variant::{ProblemKind, Trace, Variant, resolve};
use bataille_schema::{DocumentKind, Scenario, SourceFile};

use super::{
    Document, Opened, Read, ScenarioDocument, clean_path, open_scenario, ours, read, refusal,
};
use crate::resolve::Resolver;
use crate::{Code, Diagnostic, FileReport, Options, Related};

/// A variant as the door opened it: the file, and its base as the door opened that.
#[derive(Debug, Clone)]
pub struct VariantDocument {
    /// The variant file.
    pub path: PathBuf,
    pub variant: Variant,
    /// The base scenario, opened from the variant's `base`.
    pub base: Box<ScenarioDocument>,
}

fn e1104(message: String) -> Diagnostic {
    Diagnostic::new(Code::E1104, DocumentKind::Variant, "/base", message).help(
        "name the base scenario relative to this file, inside the repository (`\"denain-1712.ron\"`), and correct it if it has errors",
    )
}

/// The diagnostic of a problem of a change.
fn problem_diagnostic(p: &bataille_schema::variant::Problem) -> Diagnostic {
    let (code, help) = match p.kind {
        ProblemKind::UnknownId => (
            Code::E1101,
            "name an id of the base scenario (it may have been renamed or removed there)",
        ),
        ProblemKind::NoChange => (
            Code::W1102,
            "remove this change, or give the value the variant means",
        ),
        ProblemKind::Contradiction => (Code::E1103, "keep one of the two changes"),
        ProblemKind::DoesNotFit => (
            Code::E1105,
            "change what this counter or rule has in the base, or give a whole `placement`",
        ),
    };
    let mut d =
        Diagnostic::new(code, DocumentKind::Variant, p.pointer.clone(), &p.message).help(help);
    if let Some(subject) = &p.subject {
        d = d.subject(subject.clone());
    }
    if let Some(other) = &p.other {
        d = d.related(Related::new(
            DocumentKind::Variant,
            other.clone(),
            "the other change",
        ));
    }
    d
}

/// The change in the variant a place of the resolved scenario comes from: by its pointer, then
/// by the id concerned.
fn change_of(trace: &Trace, pointer: &str, subject: Option<&str>) -> Option<String> {
    trace.to_variant(pointer).or_else(|| {
        subject
            .and_then(|id| trace.change_of(id))
            .map(str::to_owned)
    })
}

type Key = (Code, String, String);

/// Maps one diagnostic of the resolved scenario to the files: see the module's documentation.
fn place(d: Diagnostic, trace: &Trace, base: &HashMap<Key, &Diagnostic>) -> Option<Diagnostic> {
    let base_pointer = trace.to_base(&d.pointer);
    if let Some(p) = &base_pointer
        && let Some(known) = base.get(&(d.code, p.clone(), d.message.clone()))
    {
        return Some((*known).clone());
    }
    let own = change_of(trace, &d.pointer, d.subject.as_deref());
    if d.code == Code::E0105 && own.is_some() {
        // A value the variant wrote: its own JSON Schema pass reports it at its place.
        return None;
    }
    let by_related = || {
        d.related
            .iter()
            .filter(|r| r.document == DocumentKind::Scenario)
            .find_map(|r| change_of(trace, &r.pointer, r.subject.as_deref()))
    };
    let mut out = d.clone();
    out.document = DocumentKind::Variant;
    out.chars = None;
    out.span = None;
    match own.or_else(by_related) {
        Some(pointer) => out.pointer = pointer,
        None => {
            out.pointer = "/base".into();
            out.message = format!("with this variant's changes, {}", d.message);
        }
    }
    for r in &mut out.related {
        if r.document != DocumentKind::Scenario {
            continue;
        }
        r.span = None;
        if let Some(pointer) = change_of(trace, &r.pointer, r.subject.as_deref()) {
            r.document = DocumentKind::Variant;
            r.pointer = pointer;
            r.chars = None;
        } else if let Some(pointer) = trace.to_base(&r.pointer) {
            r.pointer = pointer;
        } else {
            r.document = DocumentKind::Variant;
            r.pointer = "/base".into();
        }
    }
    if let Some(pointer) = base_pointer {
        let mut related = Related::new(
            DocumentKind::Scenario,
            pointer,
            "this is the place in the base scenario",
        );
        related.chars = d.chars.clone();
        related.hex = d.hex.clone();
        related.subject = d.subject.clone();
        out.related.insert(0, related);
    }
    Some(out)
}

/// The resolved scenario's map and systems paths, written relative to the variant's folder
/// (the base may be in another folder).
fn rebase(written: &str, base: &str) -> String {
    let dir = Path::new(base).parent().unwrap_or(Path::new(""));
    if dir.as_os_str().is_empty() {
        return written.to_owned();
    }
    clean_path(&dir.join(written))
        .to_string_lossy()
        .replace('\\', "/")
}

/// Opens a variant: see the module's documentation. Its diagnostics go in `opened.report`, the
/// resolved scenario (with the variant and its base) in `opened.document`.
pub(crate) fn open_variant(
    opened: &mut Opened,
    source: &SourceFile,
    variant: Variant,
    options: &Options,
) {
    let path = source.path.clone();
    let root = options
        .root
        .clone()
        .unwrap_or_else(|| bataille_schema::files::default_root(&path));
    // Bounded, `--allow` applied (the checks' own lists apply in `validate_documents`).
    let filter = crate::sink::Filter::options(&options.allow);
    let mut out = crate::Sink::new(options.bound, Some(&filter));
    if options.json_schema {
        bataille_schema::json_schema::check_variant_each(&variant, &mut |v| {
            out.push(crate::schema_diagnostic(DocumentKind::Variant, v))
        });
    }
    let variant_side = |out: crate::Sink<'_>, opened: &mut Opened| {
        let mut out = out.finish();
        Resolver::new(DocumentKind::Variant, source).resolve(&mut out);
        opened.report.diagnostics.append(&mut out);
    };
    let base_path =
        match bataille_schema::files::resolve_reference(&path, &variant.base, Some(&root)) {
            Ok(p) => clean_path(&p),
            Err(error) => {
                out.push(e1104(format!(
                    "the base scenario `{}` is refused: {error}",
                    variant.base
                )));
                variant_side(out, opened);
                return;
            }
        };
    opened.reads.push(base_path.clone());
    let base_source = match read(&base_path, DocumentKind::Scenario) {
        Err(error) => {
            out.push(e1104(format!(
                "the base scenario `{}` cannot be read: {error}",
                variant.base
            )));
            variant_side(out, opened);
            return;
        }
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            out.push(e1104(format!(
                "the base scenario `{}` is refused (see its diagnostic)",
                variant.base
            )));
            variant_side(out, opened);
            opened.report.diagnostics.push(d);
            opened.report.sources.extend(lossy);
            return;
        }
        Ok(Read::Text(text)) => text,
    };
    match io::sniff_kind(&base_source) {
        Ok(DocumentKind::Scenario) => {}
        Ok(DocumentKind::Variant) => {
            out.push(e1104(format!(
                "the base `{}` is itself a variant: a variant's base is a scenario (name that variant's base, and give both variants' changes here)",
                variant.base
            )));
            variant_side(out, opened);
            return;
        }
        _ => {
            // Not a scenario of ours: said by place, never quoted.
            out.push(e1104(format!(
                "{} is not a scenario file (it does not start with `Scenario(`)",
                base_path.display()
            )));
            variant_side(out, opened);
            return;
        }
    }
    let base_options = Options {
        root: Some(root.clone()),
        ..options.clone()
    };
    let base = match options.bases.get(&base_path, &base_source.text) {
        Some(base) => base,
        None => {
            let scenario: Scenario = match io::parse_scenario(&base_source) {
                Ok(scenario) => scenario,
                Err(error) => {
                    out.push(e1104(format!(
                        "the base scenario `{}` has errors (see its diagnostic)",
                        variant.base
                    )));
                    variant_side(out, opened);
                    let source = ours(base_source);
                    opened.report.diagnostics.push(refusal(
                        &error,
                        DocumentKind::Scenario,
                        &base_path,
                        source.as_ref(),
                    ));
                    opened.report.sources.extend(source);
                    return;
                }
            };
            // The base, opened as the door opens any scenario (its map, systems, scan; its
            // checks), once a run.
            let mut sub = Opened {
                document: None,
                report: FileReport {
                    path: base_path.clone(),
                    kind: Some(DocumentKind::Scenario),
                    diagnostics: Vec::new(),
                    sources: Vec::new(),
                    unreadable: None,
                },
                reads: Vec::new(),
                keep_document: true,
            };
            open_scenario(
                &mut sub,
                &base_source,
                scenario.clone(),
                &base_options,
                None,
            );
            let base = Arc::new(Base {
                text: base_source.text.clone(),
                scenario,
                opened: sub,
            });
            options.bases.keep(base_path.clone(), Arc::clone(&base));
            base
        }
    };
    let sub = &base.opened;
    opened.reads.extend(sub.reads.iter().cloned());
    let Some(Document::Scenario(base_document)) = &sub.document else {
        return;
    };

    let resolution = resolve(&base.scenario, &variant);
    for problem in &resolution.problems {
        out.push(problem_diagnostic(problem));
    }

    let mut checks_options = options.clone();
    checks_options.systems.extend(
        base_document
            .systems
            .iter()
            .flatten()
            .map(|s| s.system.clone()),
    );
    // The map's own diagnostics are the base's (the variant changes no map): only what the
    // schema refused of it is handed on, so that what follows from it is not said.
    let checks = match &base_document.map {
        Some(map) => {
            let refused = sub
                .report
                .diagnostics
                .iter()
                .filter(|d| {
                    d.document == DocumentKind::Map && d.code == Code::E0105 && !d.is_summary()
                })
                .cloned()
                .collect();
            crate::unsorted_after_map(&resolution.scenario, &map.map, refused, &checks_options)
        }
        None => crate::validate_scenario_alone(&resolution.scenario, &checks_options),
    };
    let known: HashMap<Key, &Diagnostic> = sub
        .report
        .diagnostics
        .iter()
        .filter(|d| d.document == DocumentKind::Scenario)
        .map(|d| ((d.code, d.pointer.clone(), d.message.clone()), d))
        .collect();
    let mut placed: Vec<Diagnostic> = checks
        .into_iter()
        .filter(|d| d.document == DocumentKind::Scenario)
        .filter_map(|d| place(d, &resolution.trace, &known))
        .collect();
    // What the door says about the base's files (its map, systems, scan) and the map's checks:
    // as the base's own report says it.
    placed.extend(
        sub.report
            .diagnostics
            .iter()
            .filter(|d| {
                d.document != DocumentKind::Scenario
                    || matches!(d.code, Code::E0208 | Code::E0210 | Code::E1001)
            })
            .cloned(),
    );
    for d in placed {
        out.push(d);
    }
    let mut out = out.finish();
    Resolver::new(DocumentKind::Variant, source).resolve(&mut out);
    Resolver::new(DocumentKind::Scenario, &base_source).resolve(&mut out);
    for s in &sub.report.sources {
        if let Some(kind) = io::sniff_kind(s)
            .ok()
            .filter(|k| *k != DocumentKind::Scenario)
        {
            Resolver::new(kind, s).resolve(&mut out);
        }
    }
    // The texts the report points into (for a command, every text read: it may show them).
    let keep = opened.keep_document;
    let wanted = |source: &SourceFile| keep || out.iter().any(|d| points_into(d, &source.path));
    if wanted(&base_source) {
        opened.report.sources.push(base_source);
    }
    opened
        .report
        .sources
        .extend(sub.report.sources.iter().filter(|s| wanted(s)).cloned());
    opened.report.diagnostics.extend(out);
    if !keep {
        return;
    }

    let mut scenario = resolution.scenario;
    scenario.map = rebase(&scenario.map, &variant.base);
    for used in &mut scenario.miniatures {
        used.file = rebase(&used.file, &variant.base);
    }
    opened.document = Some(Document::Scenario(Box::new(ScenarioDocument {
        path: path.clone(),
        scenario,
        map: base_document.map.clone(),
        systems: base_document.systems.clone(),
        variant: Some(Box::new(VariantDocument {
            path,
            variant,
            base: base_document.clone(),
        })),
    })));
}

/// Whether a diagnostic or one of its related places is in the file at `path`.
fn points_into(d: &Diagnostic, path: &Path) -> bool {
    d.span.as_ref().is_some_and(|s| s.file == path)
        || d.related
            .iter()
            .any(|r| r.span.as_ref().is_some_and(|s| s.file == path))
}

/// The base scenarios of one run's variants, each opened (read, parsed, its map and systems
/// loaded, validated) once: [`Options::bases`]. A base is found again by its path and its
/// text (an edited base is opened again); the files it names are taken as they were when it
/// was first opened, so a value of [`Options`] is for one run of a command, not kept across
/// edits.
#[derive(Clone, Default)]
pub struct Bases(Arc<Mutex<HashMap<PathBuf, Arc<Base>>>>);

impl std::fmt::Debug for Bases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known = self.0.lock().map_or(0, |bases| bases.len());
        write!(f, "Bases({known} opened)")
    }
}

/// A base scenario as the door opened it for its variants.
struct Base {
    text: String,
    scenario: Scenario,
    opened: Opened,
}

impl Bases {
    fn get(&self, path: &Path, text: &str) -> Option<Arc<Base>> {
        let bases = self.0.lock().ok()?;
        bases.get(path).filter(|b| b.text == text).cloned()
    }

    fn keep(&self, path: PathBuf, base: Arc<Base>) {
        if let Ok(mut bases) = self.0.lock() {
            bases.insert(path, base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_paths_are_rebased_to_the_variants_folder() {
        assert_eq!(rebase("../maps/m.ron", "denain-1712.ron"), "../maps/m.ron");
        assert_eq!(rebase("../maps/m.ron", "../other/x.ron"), "../maps/m.ron");
        assert_eq!(rebase("m.ron", "sub/x.ron"), "sub/m.ron");
    }
}
