//! Fuzz target: arbitrary bytes through the loader and every check. Bytes become a source file
//! (as `validate_file` reads it: UTF-8 or a located refusal), then are parsed as a map or a
//! scenario; a scenario is validated against a small fixed map, a map alone and as the map of a
//! small fixed scenario. Any panic is a bug.
//!
//! Run: `cd fuzz && cargo +nightly fuzz run load_validate -- -max_total_time=300`
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use bataille_schema::{DocumentKind, Map, Scenario, io};
use bataille_validator::{Options, validate_documents, validate_map, validate_scenario_alone};
use libfuzzer_sys::fuzz_target;

const MAP: &str = include_str!("../../tests/fixtures/maps/small.ron");
const SCENARIO: &str = include_str!("../../tests/fixtures/valid/fontenoy.ron");

fn fixed() -> &'static Option<(Map, Scenario)> {
    static FIXED: OnceLock<Option<(Map, Scenario)>> = OnceLock::new();
    FIXED.get_or_init(|| {
        let map = io::parse_map(&bataille_schema::SourceFile::new("m.ron", MAP.into())).ok()?;
        let scenario =
            io::parse_scenario(&bataille_schema::SourceFile::new("s.ron", SCENARIO.into())).ok()?;
        Some((map, scenario))
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = io::source_from_bytes(Path::new("fuzz.ron"), data.to_vec()) else {
        return;
    };
    let options = Options::default();
    match io::sniff_kind(&source) {
        Ok(DocumentKind::Map) => {
            if let Ok(map) = io::parse_map(&source) {
                let _ = validate_map(&map, &options);
                if let Some((_, scenario)) = fixed() {
                    let _ = validate_documents(scenario, &map, &options);
                }
            }
        }
        Ok(DocumentKind::Scenario) => {
            if let Ok(scenario) = io::parse_scenario(&source) {
                let _ = validate_scenario_alone(&scenario, &options);
                if let Some((map, _)) = fixed() {
                    let _ = validate_documents(&scenario, map, &options);
                }
            }
        }
        Err(_) => {}
    }
    // The path the command takes, spans and all (no map file next to it: E0208).
    let _ = bataille_validator::validate_source(source, &options);
});
