//! Fuzz target: arbitrary bytes through load + validate + `fmt`'s round trip. A file that loads
//! is validated, written in canonical form, and that text must load again to the same value
//! (the canonical form of what was read) and format to the very same bytes. A file that does
//! not load must be refused with an error, never a panic.
//!
//! Run: `cd fuzz && cargo +nightly fuzz run fmt_roundtrip -- -max_total_time=600`
#![no_main]

use std::path::Path;

use bataille_schema::{DocumentKind, SourceFile, io};
use bataille_validator::{Options, validate_map, validate_scenario_alone};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = io::source_from_bytes(Path::new("fuzz.ron"), data.to_vec()) else {
        return;
    };
    let options = Options::default();
    match io::sniff_kind(&source) {
        Ok(DocumentKind::Map) => {
            let Ok(map) = io::parse_map(&source) else {
                return;
            };
            let _ = validate_map(&map, &options);
            let text = io::map_to_string(&map).expect("a map that loads can be written");
            let again = io::parse_map(&SourceFile::new("fmt.ron", text.clone()))
                .unwrap_or_else(|e| panic!("formatted map does not load: {e}\n{text}"));
            let mut canonical = map.clone();
            canonical.canonicalize();
            assert_eq!(again, canonical, "formatted map loads to another value");
            let twice = io::map_to_string(&again).expect("written again");
            assert_eq!(twice, text, "formatting twice changes bytes");
        }
        Ok(DocumentKind::Scenario) => {
            let Ok(scenario) = io::parse_scenario(&source) else {
                return;
            };
            let _ = validate_scenario_alone(&scenario, &options);
            let text = io::scenario_to_string(&scenario).expect("a scenario that loads can be written");
            let again = io::parse_scenario(&SourceFile::new("fmt.ron", text.clone()))
                .unwrap_or_else(|e| panic!("formatted scenario does not load: {e}\n{text}"));
            let mut canonical = scenario.clone();
            canonical.canonicalize();
            assert_eq!(again, canonical, "formatted scenario loads to another value");
            let twice = io::scenario_to_string(&again).expect("written again");
            assert_eq!(twice, text, "formatting twice changes bytes");
        }
        Err(_) => {}
    }
});
