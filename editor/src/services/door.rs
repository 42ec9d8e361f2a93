//! The editor's one door in, until the workspace's (`bataille_validator::door`, issue 19)
//! replaces this module: every file the editor reads goes through here, bounded and checked as
//! the command's files are, so nothing it loads can abort it or be saved back into a file that
//! will not open.
//!
//! - documents ([`open_document`]): the schema's bounded reader (regular files only, at most
//!   `MAX_FILE_BYTES`), the kind told, parsed with the grid's limits, finite numbers and the
//!   format version checked; a scenario's map confined to its root;
//! - what a scenario names ([`system_path`]): a miniatures system file confined to the
//!   scenario's root like its map (relative, inside the root, links followed);
//! - what a recovery file holds ([`check_recovered`]): the grid's limits before anything is
//!   allocated per hex, then the canonical text a save would write parsed back by the same
//!   parsers, so it opens again;
//! - settings: `services::files` reads them within `MAX_SETTINGS_BYTES` with the same parser
//!   options (depth limit), the lists bounded;
//! - the background scan: `bataille_digitize::scan::load_scan`, with the scan's limits (its
//!   header within 16 MiB).

use std::path::{Path, PathBuf};

use bataille_schema::io::{DocumentKind, read_source, sniff_kind};
use bataille_schema::{LoadError, Map, Scenario};

use crate::model::document::{Document, ScenarioFile};
use crate::services::safety::DiskStamps;

/// The bytes a source was read from (its text, and the byte-order mark it started with).
fn source_bytes(source: &bataille_schema::SourceFile) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(source.text.len() + 3);
    if source.bom {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(source.text.as_bytes());
    bytes
}

/// A document read: the document, notes on repairs made, what each file read held.
pub type OpenedDocument = (Document, Vec<String>, DiskStamps);

/// Reads a map, or a scenario and its map, into a document; with notes on repairs made, and
/// what each file read held (to notice a change on disk before a save overwrites it).
pub fn open_document(path: &Path) -> Result<OpenedDocument, LoadError> {
    let source = read_source(path)?;
    let mut stamps = DiskStamps::default();
    match sniff_kind(&source)? {
        DocumentKind::Map => {
            // The schema refuses a grid beyond its limit as it reads (E0121).
            let map = bataille_schema::io::parse_map(&source)?;
            stamps.record(path, &source_bytes(&source));
            let (doc, notes) = Document::from_map(map, Some(path.to_owned()));
            Ok((doc, notes, stamps))
        }
        // A miniatures system is refused by the scenario's loader ("expected a Scenario file").
        DocumentKind::Scenario | DocumentKind::System | DocumentKind::Variant => {
            let loaded = bataille_schema::load_scenario(path)?;
            stamps.record(path, &source_bytes(&loaded.source));
            let map_path = loaded.map.source.path.clone();
            stamps.record(&map_path, &source_bytes(&loaded.map.source));
            let (mut doc, notes) = Document::from_map(loaded.map.map, Some(map_path));
            doc.scenario = Some(ScenarioFile {
                scenario: loaded.scenario,
                path: path.to_owned(),
            });
            Ok((doc, notes, stamps))
        }
    }
}

/// The file of a miniatures system a scenario names (`file`, relative to the scenario's
/// folder), refused when absolute or when it leads outside the scenario's root, as its `map`
/// is: a scenario from a stranger cannot make the editor read any file on the disk.
pub fn system_path(scenario_path: &Path, file: &str) -> Result<PathBuf, String> {
    bataille_schema::files::resolve_map(scenario_path, file, None).map_err(|error| {
        format!(
            "the system file `{file}` is refused: {error} (a scenario's files stay inside {})",
            bataille_schema::files::default_root(scenario_path).display()
        )
    })
}

/// Checks a map and scenario recovered from a recovery file as a file opened from disk is
/// checked: the grid within the limits (before anything is allocated per hex), then the text a
/// save would write parsed back (finite numbers, the format), so it opens again.
pub fn check_recovered(map: &Map, scenario: Option<&Scenario>) -> Result<(), String> {
    bataille_schema::limits::check_grid(&map.grid).map_err(|e| format!("its map: {e}"))?;
    let text = bataille_schema::map_to_string(map).map_err(|e| format!("its map: {e}"))?;
    let source = bataille_schema::SourceFile::new("the recovered map", text);
    bataille_schema::io::parse_map(&source).map_err(|e| format!("its map: {}", e.message()))?;
    if let Some(scenario) = scenario {
        let text = bataille_schema::scenario_to_string(scenario)
            .map_err(|e| format!("its scenario: {e}"))?;
        let source = bataille_schema::SourceFile::new("the recovered scenario", text);
        bataille_schema::io::parse_scenario(&source)
            .map_err(|e| format!("its scenario: {}", e.message()))?;
    }
    Ok(())
}
