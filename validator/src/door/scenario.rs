//! A scenario through the door: its map and its miniatures systems, each confined to the
//! root and opened with its own diagnostics, then the scenario's checks against them.

use std::path::{Path, PathBuf};

use bataille_schema::io;
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile};

use super::*;

pub(crate) fn open_scenario(
    opened: &mut Opened,
    source: &SourceFile,
    scenario: Scenario,
    options: &Options,
) {
    let scenario_path = source.path.clone();
    // The root every file the scenario names must stay in.
    let root = options
        .root
        .clone()
        .unwrap_or_else(|| bataille_schema::files::default_root(&scenario_path));
    let (systems, mut diagnostics) =
        open_systems(opened, &scenario_path, &scenario, &root, options);
    let with_systems;
    let options = if systems.iter().all(Option::is_none) {
        options
    } else {
        let mut o = options.clone();
        o.systems
            .extend(systems.iter().flatten().map(|s| s.system.clone()));
        with_systems = o;
        &with_systems
    };
    let map_path = bataille_schema::files::resolve_map(&scenario_path, &scenario.map, Some(&root))
        .map(|path| clean_path(&path))
        .map_err(|refused| Box::new((refused.to_string(), None, None)));
    if let Ok(path) = &map_path {
        opened.reads.push(path.clone());
    }
    let (mut checks, map_document, map_source) = match map_path.and_then(|p| load_map_of(&p)) {
        Ok((path, map, map_source)) => {
            let mut checks = crate::unsorted(Some(&scenario), Some(&map), options);
            let background = background_of(&path, &map, Some(&root), &mut checks);
            opened.reads.extend(background.clone());
            (
                checks,
                Some(MapDocument {
                    path,
                    map,
                    background,
                }),
                Some(map_source),
            )
        }
        Err(failure) => {
            let (error, map_diagnostic, map_source) = *failure;
            let mut checks = crate::unsorted(Some(&scenario), None, options);
            checks.push(
                Diagnostic::new(
                    Code::E0208,
                    DocumentKind::Scenario,
                    "/map",
                    format!(
                        "the scenario's map `{}` cannot be loaded: {error}",
                        scenario.map
                    ),
                )
                .help("correct the `map` path (relative to this file) or the map file"),
            );
            checks.extend(map_diagnostic);
            (checks, None, map_source)
        }
    };
    checks.append(&mut diagnostics);
    let document = Document::Scenario(Box::new(ScenarioDocument {
        path: scenario_path,
        scenario,
        map: map_document,
        systems,
        variant: None,
    }));
    // Kept only when wanted, and dropped before the span index is built when not: the units
    // of 200,000 repeated ids were 42 MB beside the index at the report's peak (issue 19).
    if opened.keep_document {
        opened.document = Some(document);
    } else {
        drop(document);
    }
    Resolver::new(DocumentKind::Scenario, source).resolve(&mut checks);
    if let Some(map_source) = &map_source {
        Resolver::new(DocumentKind::Map, map_source).resolve(&mut checks);
    }
    // Moved, not copied, when the report has none yet (a copy held both: 27 MB twice for
    // 100,000 diagnostics).
    if opened.report.diagnostics.is_empty() {
        opened.report.diagnostics = checks;
    } else {
        opened.report.diagnostics.extend(checks);
    }
    opened.report.sources.extend(map_source);
}

type MapFailure = Box<(String, Option<Diagnostic>, Option<SourceFile>)>;

/// Loads a scenario's map; on failure, why in short, the map's own located diagnostic, and its
/// text when it is a document of ours.
fn load_map_of(path: &Path) -> Result<(PathBuf, Map, SourceFile), MapFailure> {
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
            Ok(map) => Ok((path.to_owned(), map, source)),
            Err(error) => {
                let source = ours(source);
                let d = refusal(&error, DocumentKind::Map, path, source.as_ref());
                Err(Box::new((
                    "the map file has errors (see its diagnostic)".into(),
                    Some(d),
                    source,
                )))
            }
        },
    }
}

/// Opens the miniatures systems a scenario names (`miniatures[].file`, relative to it, inside
/// the root): each one refused is an E1001 at its `file`, with the system file's own located
/// diagnostics when it is a system file of ours.
fn open_systems(
    opened: &mut Opened,
    scenario_path: &Path,
    scenario: &Scenario,
    root: &Path,
    options: &Options,
) -> (Vec<Option<SystemDocument>>, Vec<Diagnostic>) {
    let mut systems = Vec::new();
    let mut out = Vec::new();
    for (m, used) in scenario.miniatures.iter().enumerate() {
        let e1001 = |message: String, help: &str| {
            Diagnostic::new(
                Code::E1001,
                DocumentKind::Scenario,
                format!("/miniatures/{m}/file"),
                message,
            )
            .help(help.to_owned())
        };
        let cannot = |why: String| {
            e1001(
                format!(
                    "miniatures system `{}` cannot be loaded: {why}",
                    used.system
                ),
                "correct the `file` path (relative to this file, inside the repository) or the system file",
            )
        };
        let path = match bataille_schema::files::resolve_reference(
            scenario_path,
            &used.file,
            Some(root),
        ) {
            Ok(path) => clean_path(&path),
            Err(error) => {
                out.push(cannot(error.to_string()));
                systems.push(None);
                continue;
            }
        };
        opened.reads.push(path.clone());
        let source = match read(&path, DocumentKind::System) {
            Err(error) => {
                out.push(cannot(error.to_string()));
                systems.push(None);
                continue;
            }
            Ok(Read::Refused(refused)) => {
                let (d, lossy) = *refused;
                out.push(cannot("the file is refused (see its diagnostic)".into()));
                out.push(d);
                opened.report.sources.extend(lossy);
                systems.push(None);
                continue;
            }
            Ok(Read::Text(source)) => source,
        };
        if io::sniff_kind(&source).ok() != Some(DocumentKind::System) {
            // Not a system of ours: said by place, never quoted.
            out.push(cannot(format!(
                "{} is not a system file (it does not start with `System(`)",
                path.display()
            )));
            systems.push(None);
            continue;
        }
        let system = match io::parse_system(&source) {
            Ok(system) => system,
            Err(error) => {
                out.push(cannot(
                    "the system file has errors (see its diagnostic)".into(),
                ));
                out.push(refusal(&error, DocumentKind::System, &path, Some(&source)));
                opened.report.sources.push(source);
                systems.push(None);
                continue;
            }
        };
        let mut own = system_diagnostics(&system, options);
        Resolver::new(DocumentKind::System, &source).resolve(&mut own);
        let schema_broken = own.iter().any(|d| d.is_error());
        out.extend(own);
        opened.report.sources.push(source);
        if system.id != used.system {
            out.push(e1001(
                format!(
                    "`{}` holds system `{}`, not `{}`",
                    path.display(),
                    system.id,
                    used.system
                ),
                "name the file of the system, or the system of the file",
            ));
            systems.push(None);
        } else if schema_broken {
            out.push(cannot(
                "the system file has errors (see its diagnostics)".into(),
            ));
            systems.push(None);
        } else {
            systems.push(Some(SystemDocument { path, system }));
        }
    }
    (systems, out)
}
