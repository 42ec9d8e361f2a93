//! Imports a scan (decode, tiles, overview) and classifies the terrain of the synthetic big map
//! on it, printing times: run under `/usr/bin/time -v` for the peak memory.
//!
//! `cargo run --release -p bataille-digitize --example import [-- SCAN]` (no SCAN: the
//! benchmark's 10,000 × 7,000 JPEG, written first when missing).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "../benches/support/mod.rs"]
mod support;

use std::time::Instant;

use bataille_digitize::classify::{ClassifyOptions, suggest_terrain};
use bataille_digitize::scan::{ImportOptions, import_scan, no_progress};

fn main() -> anyhow::Result<()> {
    let map = support::big_map();
    let path = match std::env::args_os().nth(1) {
        Some(path) => path.into(),
        None => support::ensure_big_scan(&map),
    };
    let start = Instant::now();
    let imported = import_scan(&path, &ImportOptions::default(), &no_progress)?;
    println!(
        "import {}×{}: {} tiles, overview {}×{}, {:.2} s",
        imported.scan.width(),
        imported.scan.height(),
        imported.tiles.len(),
        imported.overview.width,
        imported.overview.height,
        start.elapsed().as_secs_f64()
    );
    let matrix = support::big_scan_matrix(&map);
    let start = Instant::now();
    let terrain = suggest_terrain(
        &imported.scan,
        &map.grid,
        &matrix,
        &support::samples(&map),
        &ClassifyOptions::default(),
    )?;
    let right = terrain
        .hexes
        .iter()
        .filter(|s| {
            s.code.as_deref().and_then(|c| c.chars().next())
                == map.rows[s.index.row as usize]
                    .chars()
                    .nth(s.index.col as usize)
        })
        .count();
    println!(
        "classify {} hexes: {:.2} s, {right} right",
        terrain.hexes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
