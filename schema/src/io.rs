//! Loading and saving maps and scenarios: RON in, typed values out, errors with file, line and
//! column; canonical, deterministic pretty output; atomic writes.
//! Reading and the located errors are in [`crate::reading`]; the canonical writer in
//! [`crate::write`].

use std::path::{Path, PathBuf};

use crate::map::Map;
use crate::reading::{
    check_version, expect_kind, locate, non_finite_words, parse_error, probe_version, read_typed,
    sanity,
};
use crate::scenario::Scenario;
use crate::source::SourceFile;
use crate::write::write_document;

pub use crate::limits::{MAX_DEPTH, MAX_FILE_BYTES, ron_options};
pub use crate::reading::{
    DocumentKind, FORMAT_VERSION, LoadError, read_bytes, read_source, sniff_kind, source_from_bytes,
};
pub use crate::system::parse_system;

/// What the schema cannot hold safely, refused at load so no reader goes further: a grid
/// beyond the limits (every reader allocates per hex) and numbers that are not finite (JSON
/// has no NaN or infinity; geometry with them is meaningless).
fn check_map_values(source: &SourceFile, map: &Map) -> Result<(), LoadError> {
    if let Err(error) = crate::limits::check_grid(&map.grid) {
        return Err(LoadError::GridLimit {
            location: locate(source, &format!("/grid/{}", error.field)),
            error,
        });
    }
    if let Some((pointer, value)) = map.non_finite() {
        let what = format!("`{}`", pointer.trim_start_matches('/'));
        return Err(LoadError::NotFinite {
            location: locate(source, &pointer),
            what,
            value: non_finite_words(value),
        });
    }
    Ok(())
}

/// Parses a map from source text.
pub fn parse_map(source: &SourceFile) -> Result<Map, LoadError> {
    expect_kind(source, DocumentKind::Map)?;
    let map: Map = read_typed(source)?;
    check_version(source, map.format_version)?;
    check_map_values(source, &map)?;
    Ok(map)
}

/// Parses a scenario (without its map) from source text.
pub fn parse_scenario(source: &SourceFile) -> Result<Scenario, LoadError> {
    expect_kind(source, DocumentKind::Scenario)?;
    let mut scenario: Scenario = read_typed(source)?;
    check_version(source, scenario.format_version)?;
    // serde grows a list by doubling (ron gives no length beforehand): the units of a big
    // battle would be held with up to half as much again unused for the whole run.
    for army in &mut scenario.armies {
        army.units.shrink_to_fit();
    }
    Ok(scenario)
}

/// Parses a scenario variant from source text: the same refusals as the other documents.
pub fn parse_variant(source: &SourceFile) -> Result<crate::variant::Variant, LoadError> {
    expect_kind(source, DocumentKind::Variant)?;
    sanity(source)?;
    let variant: crate::variant::Variant = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    if variant.format_version > crate::variant::VARIANT_FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: variant.format_version.into(),
        });
    }
    Ok(variant)
}

/// A map with the text it was read from.
#[derive(Debug, Clone)]
pub struct LoadedMap {
    pub map: Map,
    pub source: SourceFile,
}

/// A scenario with its text and its map.
#[derive(Debug, Clone)]
pub struct LoadedScenario {
    pub scenario: Scenario,
    pub source: SourceFile,
    pub map: LoadedMap,
}

/// Loads a map file.
pub fn load_map(path: &Path) -> Result<LoadedMap, LoadError> {
    let source = read_source(path)?;
    let map = parse_map(&source)?;
    Ok(LoadedMap { map, source })
}

/// The path of a scenario's map: its `map` field, relative to the scenario file (as written,
/// unchecked; [`crate::files::resolve_map`] checks it stays under the root).
pub fn map_path_of(scenario_path: &Path, scenario: &Scenario) -> PathBuf {
    scenario_path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(&scenario.map)
}

/// Loads a scenario file and the map it names (which must lie under the default root, see
/// [`crate::files::default_root`]).
pub fn load_scenario(path: &Path) -> Result<LoadedScenario, LoadError> {
    load_scenario_in(path, None)
}

/// Loads a scenario file and the map it names, which must lie under `root` (`None`: the
/// default root).
pub fn load_scenario_in(path: &Path, root: Option<&Path>) -> Result<LoadedScenario, LoadError> {
    let source = read_source(path)?;
    let scenario = parse_scenario(&source)?;
    let map_path = map_path_of(path, &scenario);
    let map = crate::files::resolve_map(path, &scenario.map, root)
        .map_err(|refused| LoadError::Io {
            path: map_path.clone(),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, refused),
        })
        .and_then(|map_path| load_map(&map_path))
        .map_err(|error| {
            let index = crate::source::SpanIndex::build(&source.text);
            LoadError::Map {
                location: Box::new(source.location(index.resolve("/map"))),
                map_path: map_path.clone(),
                source: Box::new(error),
            }
        })?;
    Ok(LoadedScenario {
        scenario,
        source,
        map,
    })
}

/// Writes text to a file atomically (see [`crate::files::write_atomic_limited`]), refusing
/// text over [`MAX_FILE_BYTES`]: a crash leaves the old file or the new one, never half of one;
/// a link is written through; the file keeps its permissions.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    crate::files::write_atomic_limited(path, text, MAX_FILE_BYTES)
}

/// Saves a map canonically and atomically.
pub fn save_map(path: &Path, map: &Map) -> std::io::Result<()> {
    let text = map_to_string(map).map_err(std::io::Error::other)?;
    write_atomic(path, &text)
}

/// Saves a scenario canonically and atomically.
pub fn save_scenario(path: &Path, scenario: &Scenario) -> std::io::Result<()> {
    let text = scenario_to_string(scenario).map_err(std::io::Error::other)?;
    write_atomic(path, &text)
}

/// The canonical text of a map: terrain one row per line, one legend entry per line, one
/// overlay hex, label or hexside per line.
pub fn map_to_string(map: &Map) -> Result<String, ron::Error> {
    map_into_string(map.clone())
}

/// [`map_to_string`] without a copy of the map (for a big file, half the memory).
pub fn map_into_string(mut map: Map) -> Result<String, ron::Error> {
    map.canonicalize();
    write_document(&map, |field| match field {
        "hexsides" => 2,
        "grid" | "format_version" | "name" | "notes" | "metres_per_hex" | "half_hexes"
        | "allow" => 0,
        _ => 1,
    })
}

/// The canonical text of a scenario: one unit, commander, corps, zone or objective per line.
pub fn scenario_to_string(scenario: &Scenario) -> Result<String, ron::Error> {
    scenario_into_string(scenario.clone())
}

/// [`scenario_to_string`] without a copy of the scenario (for a big file, half the memory).
pub fn scenario_into_string(mut scenario: Scenario) -> Result<String, ron::Error> {
    scenario.canonicalize();
    write_document(&scenario, |field| match field {
        "armies" | "rules" | "miniatures" => 3,
        "zones" | "victory" => 2,
        "allow" => 0,
        _ => 0,
    })
}

/// The canonical text of a variant: one change per line (a unit's, a leader's, a zone's), the
/// victory and rule changes one field per line.
pub fn variant_to_string(variant: &crate::variant::Variant) -> Result<String, ron::Error> {
    let mut variant = variant.clone();
    variant.canonicalize();
    write_document(&variant, |field| match field {
        "units" | "leaders" | "zones" | "remove_units" | "sources" => 1,
        "add_units" | "add_zones" => 1,
        "victory" | "rules" => 2,
        _ => 0,
    })
}

/// The canonical text of a miniatures system: one rating, troop type, fire type, artillery
/// class, cavalry type or named modifier per line; each figure scale and national table opened
/// to one base, movement or table line per line. Tables keyed by id come out sorted by id
/// (they are maps: the order written never meant anything); lists keep their order.
/// A figure scale's `artillery_ranges` stay on one line.
pub fn system_to_string(system: &crate::system::System) -> Result<String, ron::Error> {
    crate::write::write_document_with(system, |field| match field {
        "ratings" | "leader_ratings" | "troop_types" | "fire_types" | "artillery_classes"
        | "cavalry_types" | "named_modifiers" => crate::write::pretty(1),
        "figure_scales" | "national_tables" => crate::write::pretty(3).compact_arrays(true),
        _ => crate::write::pretty(0),
    })
}
