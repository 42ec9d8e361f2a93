//! The editor's side of importing a big scan, timed: decode (bataille-digitize, with limits),
//! tiles built into egui textures (at most 2048 px a side) and handed to the renderer in one
//! frame, then the terrain of its 2,016 hexes classified. Run under `/usr/bin/time -v` for the
//! peak memory.
//!
//! `cargo run --release -p bataille-editor --example scan_import [-- SCAN]` (no SCAN: the
//! digitize benchmark's 10,000 × 7,000 JPEG of a 56 × 36 map, written first when missing).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "../../digitize/benches/support/mod.rs"]
mod support;

use std::time::Instant;

use bataille_digitize::classify::{ClassifyOptions, suggest_terrain_with_progress};
use bataille_editor::map::scan::{MAX_TILE_SIDE, import_scan};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let map = support::big_map();
    let path = match std::env::args_os().nth(1) {
        Some(path) => path.into(),
        None => support::ensure_big_scan(&map),
    };
    let ctx = egui::Context::default();
    let start = Instant::now();
    let loaded = import_scan(&ctx, &path, MAX_TILE_SIDE, &|_| true)?;
    let import = start.elapsed();
    // One frame hands the new textures to the renderer (what eframe uploads to the GPU).
    let start = Instant::now();
    let output = ctx.run_ui(egui::RawInput::default(), |_| {});
    let handed = start.elapsed();
    let bytes: usize = output
        .textures_delta
        .set
        .values()
        .flatten()
        .map(|delta| delta.image.width() * delta.image.height() * 4)
        .sum();
    println!(
        "import {}×{}: {:.2} s (decode {:.2} s, {} tiles + overview into textures {:.2} s); \
         first frame with {} texture uploads ({} MB) {:.3} s",
        loaded.width(),
        loaded.height(),
        import.as_secs_f64(),
        loaded.timings.decode.as_secs_f64(),
        loaded.tiles.len(),
        loaded.timings.textures.as_secs_f64(),
        output.textures_delta.set.len(),
        bytes / 1_000_000,
        handed.as_secs_f64()
    );
    drop(output);
    let matrix = bataille_digitize::GridMapping::global(support::big_scan_matrix(&map));
    let start = Instant::now();
    let terrain = suggest_terrain_with_progress(
        &loaded.scan,
        &map.grid,
        &matrix,
        &support::samples(&map),
        &ClassifyOptions::default(),
        &|_| true,
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
