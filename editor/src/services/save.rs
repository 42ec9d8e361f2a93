//! Writing the document: the map alone, or a scenario and its map, in canonical form, each file
//! only when its text changed. Paths inside the files (the scenario's `map`, the map's
//! `background.image`) are written relative to where each file goes; in memory the scan's path
//! is absolute, so moving a file (Save As) never leaves a stale relative path behind — nor in
//! the undo history.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use bataille_schema::Map;
use bataille_schema::paths::reference_from;

use bataille_schema::io::DocumentKind;

use crate::model::document::Document;
use crate::services::safety::{DiskStamps, Target, check_targets};

/// Where the document lives after a save.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// The map's file (changed only when a map alone was saved somewhere).
    pub map_path: Option<PathBuf>,
    /// The scenario's file and its `map` field as written.
    pub scenario: Option<(PathBuf, String)>,
    /// What of an opened variant's edits its file cannot hold (`"the date"`): a variant
    /// changes its base by id, and these stay the base's when it is opened again.
    pub unwritten: Vec<&'static str>,
}

/// The map as written to `target`: `background.image` relative to `target`'s folder.
pub fn map_for_file<'m>(map: &'m Map, target: &Path) -> Cow<'m, Map> {
    match &map.background {
        Some(background) if Path::new(&background.image).is_absolute() => {
            let mut copy = map.clone();
            if let Some(b) = copy.background.as_mut() {
                b.image = reference_from(target, Path::new(&background.image));
            }
            Cow::Owned(copy)
        }
        _ => Cow::Borrowed(map),
    }
}

/// Why the map's scan, as written in `map_file`, will not be read when that file is opened
/// again: the door confines `background.image` to the map's repository (E0210), so a map saved
/// far from its scan loses it at the next open. `None` when the scan will be found (or there is
/// none).
pub fn scan_left_outside(map: &Map, map_file: &Path) -> Option<String> {
    // The reference as `map_for_file` writes it, without copying the map.
    let image = &map.background.as_ref()?.image;
    let image = if Path::new(image).is_absolute() {
        reference_from(map_file, Path::new(image))
    } else {
        image.clone()
    };
    bataille_schema::files::resolve_reference(map_file, &image, None)
        .err()
        .map(|error| format!("its scan `{image}` is refused: {error}"))
}

/// A save worked out before anything is written: each file with its text and what the disk
/// holds there now (read once), and where the document will live.
#[derive(Debug)]
pub struct Plan {
    pub targets: Vec<Target>,
    pub saved: Saved,
}

/// A save refused because of what is at its place (`AlreadyExists`: a file that must not be
/// replaced is there).
fn refused(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::AlreadyExists, message)
}

/// Works out a save of the document to `path` (a map alone goes there; with a scenario, the
/// scenario goes there, its `map` re-pointed when it moves, and the map to its own file), and
/// refuses one that would write over what it must not ([`crate::services::safety`]). Nothing
/// is written.
pub fn plan_save(doc: &Document, path: &Path) -> std::io::Result<Plan> {
    plan_save_moving(doc, path, None)
}

/// [`plan_save`], the scenario's map written to `map_to` instead of its own file (Save
/// elsewhere: the scenario and its map go to a new place together, so neither file that
/// changed on disk is written over). Without a scenario, `map_to` is ignored.
pub fn plan_save_moving(
    doc: &Document,
    path: &Path,
    map_to: Option<&Path>,
) -> std::io::Result<Plan> {
    let map_target = |map_path: &Path| -> std::io::Result<Target> {
        let map = map_for_file(&doc.map, map_path);
        let text = bataille_schema::map_to_string(&map).map_err(std::io::Error::other)?;
        Target::new(map_path, DocumentKind::Map, "the map", text).map_err(refused)
    };
    let plan = match &doc.scenario {
        None => Plan {
            targets: vec![map_target(path)?],
            saved: Saved {
                map_path: Some(path.to_owned()),
                scenario: None,
                unwritten: Vec::new(),
            },
        },
        Some(file) => {
            let Some(map_path) = map_to.map(Path::to_owned).or_else(|| doc.map_path.clone()) else {
                return Err(std::io::Error::other(
                    "the map has never been saved: save the map first",
                ));
            };
            let moved = map_to.is_some();
            let mut scenario = file.scenario.clone();
            if file.path != path || moved {
                scenario.map = reference_from(path, &map_path);
                check_map_reference(path, &scenario.map)?;
            }
            let mut unwritten = Vec::new();
            let scenario_target = match &doc.variant {
                // A variant: only what differs from its base, by id, its base named from
                // where it goes.
                Some(origin) => {
                    let mut variant = origin.changes(&scenario);
                    unwritten =
                        bataille_schema::variant::unwritten(&origin.base, &scenario, &variant);
                    if file.path != path {
                        variant.base = reference_from(path, &origin.base_path);
                    }
                    let text = bataille_schema::io::variant_to_string(&variant)
                        .map_err(std::io::Error::other)?;
                    Target::new(path, DocumentKind::Variant, "the variant", text)
                        .map_err(refused)?
                }
                None => {
                    let scenario_text = bataille_schema::scenario_to_string(&scenario)
                        .map_err(std::io::Error::other)?;
                    Target::new(path, DocumentKind::Scenario, "the scenario", scenario_text)
                        .map_err(refused)?
                }
            };
            Plan {
                targets: vec![map_target(&map_path)?, scenario_target],
                saved: Saved {
                    map_path: moved.then_some(map_path),
                    scenario: Some((path.to_owned(), scenario.map)),
                    unwritten,
                },
            }
        }
    };
    check_targets(&plan.targets).map_err(refused)?;
    Ok(plan)
}

/// Writes a plan's files (each only when its text changed) all or none, through the writer
/// every command uses ([`bataille_schema::files::Outputs`]): each staged in a temporary file
/// beside its place, then all renamed. A scenario and its map were written one after the
/// other, so a scenario that could not be written (its folder gone, a full disk) left the map
/// replaced and the scenario old. Returns what the disk holds afterwards, to remember.
pub fn write_plan(plan: &Plan) -> std::io::Result<DiskStamps> {
    use bataille_schema::files::WriteError;
    let mut outputs = bataille_schema::files::Outputs::new();
    for target in plan.targets.iter().filter(|t| !t.unchanged()) {
        let limit = bataille_schema::io::MAX_FILE_BYTES;
        if target.text.len() as u64 > limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "{} would be {} bytes; the largest file the readers accept is {limit} bytes, so nothing was saved",
                    target.path.display(),
                    target.text.len()
                ),
            ));
        }
        outputs
            .stage(&target.path, target.text.as_bytes())
            .map_err(WriteError::into_io)?;
    }
    outputs.commit().map_err(WriteError::into_io)?;
    let mut stamps = DiskStamps::default();
    for target in &plan.targets {
        stamps.record(&target.path, target.text.as_bytes());
    }
    Ok(stamps)
}

/// Saves the document to `path` ([`plan_save`], then [`write_plan`]), whatever changed on disk.
pub fn save_document(doc: &Document, path: &Path) -> std::io::Result<Saved> {
    let plan = plan_save(doc, path)?;
    write_plan(&plan)?;
    Ok(plan.saved)
}

/// Refuses a Save As whose scenario would name its map outside the scenario's root (issue 10:
/// `map:` is relative and stays inside the scenario's repository, or the folder above the
/// scenario's without one): such a file would be refused by `bataille validate` and by the
/// editor itself when opened again. Nothing is written.
pub fn check_map_reference(scenario_path: &Path, map_field: &str) -> std::io::Result<()> {
    use bataille_schema::files::{MapPathError, default_root, resolve_map};
    match resolve_map(scenario_path, map_field, None) {
        Ok(_) => Ok(()),
        Err(error) => {
            let root = match &error {
                MapPathError::OutsideRoot { root } => root.clone(),
                _ => default_root(scenario_path),
            };
            Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "Nothing was saved: the scenario would name its map as `{map_field}`, which \
                 leads outside {root} ({why}). A scenario's `map` must be a relative path that \
                 stays inside the scenario's repository (or, without one, the folder above the \
                 scenario's folder), or the scenario could not be opened again. Save the \
                 scenario in a folder under {root}, or copy the map into the new place first.",
                    root = root.display(),
                    why = match error {
                        MapPathError::Absolute =>
                            "the map is on another drive, so the path is absolute",
                        MapPathError::Empty => "the path is empty",
                        MapPathError::OutsideRoot { .. } =>
                            "the new place is outside the map's tree",
                    },
                ),
            ))
        }
    }
}

/// Where Save elsewhere puts a scenario's map: beside the new scenario, named after it
/// (`battle.ron` → `battle-map.ron`, then `battle-map-2.ron`, …), never over a file that is
/// there.
pub fn map_beside(scenario_path: &Path) -> PathBuf {
    let dir = scenario_path.parent().unwrap_or(Path::new(""));
    let stem = scenario_path
        .file_stem()
        .map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    (1..)
        .map(|n| {
            let name = if n == 1 {
                format!("{stem}-map.ron")
            } else {
                format!("{stem}-map-{n}.ron")
            };
            dir.join(name)
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| dir.join(format!("{stem}-map.ron")))
}

/// Removes a file; one already gone is not an error.
pub fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// The files whose text on disk differs from the document's (what a save would write), named
/// for the unsaved-changes question: "the new map “Denain”", "denain-1712.ron".
pub fn unsaved_files(doc: &Document) -> Vec<String> {
    let differs = |path: &Path, text: Result<String, String>| {
        text.map_or(true, |text| {
            bataille_schema::files::read_text_limited(path, bataille_schema::io::MAX_FILE_BYTES)
                .map_or(true, |old| old != text)
        })
    };
    let name = |path: &Path| {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let mut out = Vec::new();
    if let Some(file) = &doc.scenario {
        let text = bataille_schema::scenario_to_string(&file.scenario).map_err(|e| e.to_string());
        if differs(&file.path, text) {
            out.push(format!("The scenario {}", name(&file.path)));
        }
    }
    match &doc.map_path {
        Some(path) => {
            let map = map_for_file(&doc.map, path);
            let text = bataille_schema::map_to_string(&map).map_err(|e| e.to_string());
            if differs(path, text) {
                out.push(format!("the map {}", name(path)));
            }
        }
        None => out.push(format!("the new map “{}”", doc.map.name)),
    }
    out
}

/// "X has changes…" for one file, "X and Y have changes…" for two; capitalised.
pub fn unsaved_sentence(files: &[String]) -> String {
    let mut text = match files {
        [] => "The document has".to_owned(),
        [one] => format!("{one} has"),
        [first @ .., last] => format!("{} and {last} have", first.join(", ")),
    };
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    format!("{text} changes that are not saved. Save them first?")
}

#[cfg(test)]
mod all_or_none {
    use super::*;

    /// A scenario that cannot be written (its folder is gone) leaves its map as it was: the
    /// map was written first and stayed replaced.
    #[test]
    fn a_save_that_fails_leaves_every_file_as_it_was() {
        let dir = tempfile::tempdir().expect("a folder");
        let map = dir.path().join("m.ron");
        std::fs::write(&map, "Map(old)").expect("written");
        let scenario = dir.path().join("gone").join("s.ron");
        let target = |path: &Path, kind, role, text: &str| {
            Target::new(path, kind, role, text.to_owned()).expect("readable")
        };
        let plan = Plan {
            targets: vec![
                target(&map, DocumentKind::Map, "the map", "Map(new)"),
                target(
                    &scenario,
                    DocumentKind::Scenario,
                    "the scenario",
                    "Scenario()",
                ),
            ],
            saved: Saved {
                map_path: None,
                scenario: None,
                unwritten: Vec::new(),
            },
        };
        assert!(write_plan(&plan).is_err());
        assert_eq!(std::fs::read_to_string(&map).expect("read"), "Map(old)");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("listed").collect();
        assert_eq!(left.len(), 1, "no temporary left beside the map");

        std::fs::create_dir(dir.path().join("gone")).expect("made");
        write_plan(&plan).expect("saved");
        assert_eq!(std::fs::read_to_string(&map).expect("read"), "Map(new)");
        assert_eq!(
            std::fs::read_to_string(&scenario).expect("read"),
            "Scenario()"
        );
    }
}
