//! A scenario through the door: its map and its miniatures systems, each confined to the
//! root and opened with its own diagnostics, then the scenario's checks against them.

use std::path::{Path, PathBuf};

use bataille_schema::io;
use bataille_schema::{DocumentKind, Map, Scenario, SourceFile, System};

use super::*;

/// Parses a scenario's text and opens it ([`open_scenario`]), its map read, parsed and checked
/// on rayon's pool while the scenario is parsed (issue 23: the map's share of a validation,
/// off the path that waits for the parse) when the text names it plainly ([`map_ahead`]).
pub(crate) fn parse_and_open(opened: &mut Opened, source: &SourceFile, options: &Options) {
    let (parsed, ahead) = rayon::join(|| io::parse_scenario(source), || map_ahead(source, options));
    match parsed {
        Err(error) => opened.report.diagnostics.push(refusal(
            &error,
            DocumentKind::Scenario,
            &source.path,
            Some(source),
        )),
        Ok(scenario) => open_scenario(opened, source, scenario, options, ahead),
    }
}

/// A scenario's map opened before the scenario was parsed: used only when the parsed
/// scenario's `map` is `written` and its root `root`, so the result is what opening it after
/// the parse gives (the same confinement, the same bounded reader and parser, the same checks).
pub(crate) struct MapAhead {
    written: String,
    root: PathBuf,
    path: PathBuf,
    map: Map,
    source: SourceFile,
    /// The map's own diagnostics (its checks and its JSON Schema pass), unsorted.
    diagnostics: Vec<Diagnostic>,
}

/// Opens the map a scenario's text names, guessed from the text before it is parsed (the
/// first `map: "..."`, a plain string): `None` when there is no such guess or the map does not
/// open cleanly (refused, unreadable, not parsed: then it is opened again after the parse, as
/// always, to report why). A wrong guess costs only the work: [`open_scenario`] drops it.
fn map_ahead(source: &SourceFile, options: &Options) -> Option<MapAhead> {
    let written = written_map(&source.text)?;
    let root = options
        .root
        .clone()
        .unwrap_or_else(|| bataille_schema::files::default_root(&source.path));
    let path = bataille_schema::files::resolve_map(&source.path, written, Some(&root))
        .ok()
        .map(|path| clean_path(&path))?;
    let (path, map, source) = load_map_of(&path).ok()?;
    let diagnostics = crate::map_diagnostics(&map, options);
    Some(MapAhead {
        written: written.to_owned(),
        root,
        path,
        map,
        source,
        diagnostics,
    })
}

/// The string of the first `map: "..."` in a scenario's first 64 KiB (where every writer puts
/// it, near the top), when it holds no escape: a guess, checked against the parsed value.
fn written_map(text: &str) -> Option<&str> {
    let head = &text.as_bytes()[..text.len().min(1 << 16)];
    let mut from = 0;
    while let Some(at) = head[from..].windows(3).position(|w| w == b"map") {
        let at = from + at;
        from = at + 3;
        let before_ok = at == 0 || !(head[at - 1].is_ascii_alphanumeric() || head[at - 1] == b'_');
        let rest = &text[at + 3..];
        let Some(rest) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix('"') else {
            continue;
        };
        if !before_ok {
            continue;
        }
        let end = rest.find(['"', '\\'])?;
        return (rest.as_bytes()[end] == b'"').then(|| &rest[..end]);
    }
    None
}

/// Opens a parsed scenario: its systems and its map (`ahead`: the map opened while it was
/// parsed, used when it is the one the scenario names), then its checks.
pub(crate) fn open_scenario(
    opened: &mut Opened,
    source: &SourceFile,
    scenario: Scenario,
    options: &Options,
    ahead: Option<MapAhead>,
) {
    let scenario_path = source.path.clone();
    // The root every file the scenario names must stay in.
    let root = options
        .root
        .clone()
        .unwrap_or_else(|| bataille_schema::files::default_root(&scenario_path));
    // The map opened during the parse, when it is the one the scenario names.
    let ahead = ahead.filter(|a| a.written == scenario.map && a.root == root);
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
    let (loaded, map_checks) = match ahead {
        Some(a) if map_path.as_ref().is_ok_and(|p| *p == a.path) => {
            (Ok((a.path, a.map, a.source)), Some(a.diagnostics))
        }
        _ => (map_path.and_then(|p| load_map_of(&p)), None),
    };
    let (mut checks, map_document, map_source) = match loaded {
        Ok((path, map, map_source)) => {
            let mut checks = match map_checks {
                Some(map_checks) => crate::unsorted_after_map(&scenario, &map, map_checks, options),
                None => crate::unsorted(Some(&scenario), Some(&map), options),
            };
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
/// diagnostics when it is a system file of ours. A file named twice is read once, and its own
/// diagnostics reported once; the E1001 go through a sink (bounded: [`crate::sink`]).
fn open_systems(
    opened: &mut Opened,
    scenario_path: &Path,
    scenario: &Scenario,
    root: &Path,
    options: &Options,
) -> (Vec<Option<SystemDocument>>, Vec<Diagnostic>) {
    let mut systems = Vec::new();
    let filter = crate::sink::Filter::options(&options.allow);
    let mut out = crate::Sink::new(options.bound, Some(&filter));
    // The system files' own diagnostics, each file once.
    let mut own_out = Vec::new();
    // Each file read: its system when it loaded, else why not.
    let mut read_before: std::collections::HashMap<PathBuf, Result<(System, bool), String>> =
        std::collections::HashMap::new();
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
        let loaded = match read_before.get(&path) {
            Some(loaded) => loaded.clone(),
            None => {
                opened.reads.push(path.clone());
                let loaded = load_system(opened, &path, options, &mut own_out);
                read_before.insert(path.clone(), loaded.clone());
                loaded
            }
        };
        let (system, schema_broken) = match loaded {
            Ok(loaded) => loaded,
            Err(why) => {
                out.push(cannot(why));
                systems.push(None);
                continue;
            }
        };
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
    let mut out = out.finish();
    out.append(&mut own_out);
    (systems, out)
}

/// Reads, parses and checks a system file (its diagnostics into `out`, resolved): the system
/// and whether it has errors, or why it cannot be loaded.
fn load_system(
    opened: &mut Opened,
    path: &Path,
    options: &Options,
    out: &mut Vec<Diagnostic>,
) -> Result<(System, bool), String> {
    let source = match read(path, DocumentKind::System) {
        Err(error) => return Err(error.to_string()),
        Ok(Read::Refused(refused)) => {
            let (d, lossy) = *refused;
            out.push(d);
            opened.report.sources.extend(lossy);
            return Err("the file is refused (see its diagnostic)".into());
        }
        Ok(Read::Text(source)) => source,
    };
    if io::sniff_kind(&source).ok() != Some(DocumentKind::System) {
        // Not a system of ours: said by place, never quoted.
        return Err(format!(
            "{} is not a system file (it does not start with `System(`)",
            path.display()
        ));
    }
    let system = match io::parse_system(&source) {
        Ok(system) => system,
        Err(error) => {
            out.push(refusal(&error, DocumentKind::System, path, Some(&source)));
            opened.report.sources.push(source);
            return Err("the system file has errors (see its diagnostic)".into());
        }
    };
    let mut own = system_diagnostics(&system, options);
    Resolver::new(DocumentKind::System, &source).resolve(&mut own);
    let schema_broken = own.iter().any(|d| d.is_error());
    out.extend(own);
    opened.report.sources.push(source);
    Ok((system, schema_broken))
}

#[cfg(test)]
mod tests {
    use super::written_map;

    #[test]
    fn the_map_is_guessed_from_the_first_plain_map_field() {
        let text =
            "Scenario(\n    format_version: 1,\n    title: \"x\",\n    map: \"../maps/m.ron\",\n)";
        assert_eq!(written_map(text), Some("../maps/m.ron"));
        assert_eq!(written_map("S(map:\"a.ron\")"), Some("a.ron"));
        assert_eq!(written_map("S(map : \"a.ron\")"), Some("a.ron"));
        // Not a field named `map`, not a plain string: no guess (the map is opened after the
        // parse, as always).
        assert_eq!(written_map("S(minimap: \"a.ron\")"), None);
        assert_eq!(written_map("S(map: r\"a.ron\")"), None);
        assert_eq!(written_map("S(map: \"a\\\".ron\")"), None);
        assert_eq!(written_map("S(map: \"a.ron"), None);
        assert_eq!(
            written_map("S(title: \"é\", map: \"b.ron\")"),
            Some("b.ron")
        );
        // A comment or a string before the field is guessed (the guess is checked against
        // the parsed scenario); past the first 64 KiB nothing is.
        assert_eq!(
            written_map("S(// map: \"x.ron\"\n map: \"b.ron\")"),
            Some("x.ron")
        );
        let far = format!("S(notes: \"{}\", map: \"b.ron\")", "a".repeat(1 << 16));
        assert_eq!(written_map(&far), None);
    }
}
