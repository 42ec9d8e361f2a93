//! Imports a scan (decode, tiles, overview) and classifies the terrain of the synthetic big map
//! on it, printing times: run under `/usr/bin/time -v` for the peak memory. Then classifies
//! terrain and hexsides as the benchmark does, five times, printing each run's wall time and
//! the process's CPU time over it (from `/proc/self/stat`, on Linux): on a machine shared with
//! other work the CPU time is what the classification itself costs, and on two idle cores the
//! wall time is about half of it. Last, the whole pass as `bataille digitize` runs it (the
//! clicks refined on the print, the shape, terrain, hexsides, the terrain in doubt again),
//! three times, with the same times and what it found. Then that pass again on the same map
//! with four roads drawn through the hexes (its own 10,000 × 7,000 JPEG) and three crossings
//! marked, as `bataille digitize` runs it with `path_samples`: the roads traced too.
//!
//! `cargo run --release -p bataille-digitize --example import [-- SCAN] [--no-roads]` (no
//! SCAN: the benchmark's 10,000 × 7,000 JPEG, written first when missing).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "../benches/support/mod.rs"]
mod support;

use std::time::Instant;

use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, suggest_hexsides, suggest_terrain,
};
use bataille_digitize::scan::{ImportOptions, import_scan, no_progress};
use bataille_schema::Id;

fn main() -> anyhow::Result<()> {
    let map = support::big_map();
    let path = match std::env::args_os()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with("--"))
    {
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
    let matrix = bataille_digitize::GridMapping::global(support::big_scan_matrix(&map));
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
    let streams: Vec<_> = map.hexsides["stream"]
        .iter()
        .take(3)
        .filter_map(|r| map.grid.parse_hexside(r.as_str()).ok())
        .collect();
    let hexside_samples = HexsideSamples {
        features: [(Id::from("stream"), streams)].into_iter().collect(),
        ..HexsideSamples::default()
    };
    let options = ClassifyOptions::default();
    for run in 1..=5 {
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let terrain = suggest_terrain(
            &imported.scan,
            &map.grid,
            &matrix,
            &support::samples(&map),
            &options,
        )?;
        let (terrain_wall, terrain_cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds());
        suggest_hexsides(
            &imported.scan,
            &map.grid,
            &matrix,
            &terrain,
            &hexside_samples,
            &options,
        )?;
        let (total_wall, total_cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds());
        println!(
            "run {run}: terrain {terrain_wall:.3} s wall, {:.2} s CPU; with the hexsides {total_wall:.3} s wall, {:.2} s CPU",
            terrain_cpu - cpu,
            total_cpu - cpu
        );
    }
    // The whole pass as `bataille digitize` runs it once the scan is read (see
    // `support::command_pass`), from six clicks a pixel off.
    let clicks = support::clicks(&map);
    let samples = support::samples(&map);
    let with_legend = support::hexside_samples(&map);
    let truth: std::collections::BTreeSet<_> = map.hexsides["stream"]
        .iter()
        .filter_map(|r| map.grid.parse_hexside(r.as_str()).ok())
        .map(|(i, s)| map.grid.canonical_hexside(i, s))
        .collect();
    for run in 1..=3 {
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        bataille_digitize::refine::calibrate_on_print(
            &imported.scan,
            &map.grid,
            &clicks,
            bataille_schema::map::FitKind::Affine,
            &bataille_digitize::refine::RefineOptions::default(),
        )?;
        println!(
            "the refinement alone: {:.3} s wall, {:.2} s CPU",
            wall.elapsed().as_secs_f64(),
            cpu_seconds() - cpu
        );
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let (terrain, hexsides, shape) =
            support::command_pass(&imported.scan, &map, &clicks, &samples, &with_legend);
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
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
        let found = hexsides
            .iter()
            .filter(|h| h.feature.is_some() && truth.contains(&(h.index, h.side)))
            .count();
        let false_features = hexsides
            .iter()
            .filter(|h| h.feature.is_some() && !truth.contains(&(h.index, h.side)))
            .count();
        println!(
            "command pass {run} (refine, shape, terrain, hexsides, terrain in doubt again): {wall:.3} s wall, {cpu:.2} s CPU; {right}/{} hexes right, {found}/{} streams found, {false_features} false, shape whole: {}",
            terrain.hexes.len(),
            truth.len(),
            shape.whole()
        );
    }
    // The same with roads drawn through the hexes and three crossings marked: the pass
    // traces them too (`--no-roads` leaves this out).
    if std::env::args().any(|a| a == "--no-roads") {
        return Ok(());
    }
    let map = support::big_map_with_roads();
    let imported = import_scan(
        &support::ensure_big_roads_scan(&map),
        &ImportOptions::default(),
        &no_progress,
    )?;
    let paths = support::road_samples(&map);
    let road = Id::from("road");
    let truth = bataille_digitize::paths::crossings_of_paths(&map.grid, &map.paths[&road]);
    for run in 1..=3 {
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let (_, _, crossings) = support::command_pass_with_roads(
            &imported.scan,
            &map,
            &clicks,
            &samples,
            &with_legend,
            &paths,
        );
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let on =
            |c: &&bataille_digitize::classify::CrossingSuggestion| c.line.as_ref() == Some(&road);
        let found = crossings
            .iter()
            .filter(on)
            .filter(|c| truth.contains(&(c.index, c.side)))
            .count();
        let false_crossings: Vec<f32> = crossings
            .iter()
            .filter(on)
            .filter(|c| !truth.contains(&(c.index, c.side)))
            .map(|c| c.confidence)
            .collect();
        let sure = false_crossings
            .iter()
            .filter(|c| **c >= bataille_digitize::classify::DOUBTFUL_BELOW)
            .count();
        println!(
            "command pass with roads {run} (as above, and the roads from 3 marked crossings): {wall:.3} s wall, {cpu:.2} s CPU; {found}/{} road crossings found, {} false ({sure} not doubtful)",
            truth.len(),
            false_crossings.len()
        );
    }
    Ok(())
}

/// The process's user and system CPU time so far, in seconds (0 where `/proc` is not there).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command's closing parenthesis; utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}
