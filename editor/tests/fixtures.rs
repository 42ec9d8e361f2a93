//! The checked-in fixtures under tests/fixtures/ are the canonical text of the maps built in
//! `common`; `UPDATE_FIXTURES=1 cargo test -p bataille-editor --test fixtures` rewrites them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::Path;

use common::*;

fn check(path: &Path, text: &str) {
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(path, text).expect("write fixture");
    }
    let on_disk = std::fs::read_to_string(path).expect("fixture (UPDATE_FIXTURES=1 writes it)");
    assert_eq!(on_disk, text, "{} is stale", path.display());
}

#[test]
fn fixtures_are_current_and_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let map = bataille_schema::map_to_string(&demo_map()).expect("map text");
    check(&dir.join("demo-map.ron"), &map);
    let scenario =
        bataille_schema::scenario_to_string(&scenario("demo-map.ron")).expect("scenario text");
    check(&dir.join("demo-scenario.ron"), &scenario);
    let loaded = bataille_schema::load_scenario(&dir.join("demo-scenario.ron")).expect("loads");
    assert_eq!(loaded.map.map.name, "Demo battlefield");
}
