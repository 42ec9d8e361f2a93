//! Loading and saving a 200×200-hex map with a 5,000-unit, 100-corps scenario (the issue's
//! budget: ≤ 50 ms each). Baseline beside it: serde_json on the same values.
//!
//! And a 999×999 map loaded from its file and saved to another (issue 23: ≥ 10× faster than
//! Tiled's `tiled --export-map` on a map of the same size). When `BATAILLE_PEER_TMX` names a
//! TMX of that size (`bataille export --tiled MAP --out map.tmx`) and `tiled` is on the PATH,
//! the same run times Tiled loading and saving it (3 runs, median wall time, whole process) and
//! prints both and the ratio.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::hint::black_box;

use bataille_schema::io::{load_map, parse_map, parse_scenario, save_map};
use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{SourceFile, map_to_string, scenario_to_string};
use criterion::{Criterion, criterion_group, criterion_main};

fn load_save(c: &mut Criterion) {
    let size = StressSize {
        columns: 200,
        rows: 200,
        units: 5000,
        corps: 100,
    };
    let (map, scenario) = generate(size, "stress-map.ron");
    let map_text = map_to_string(&map).unwrap();
    let scenario_text = scenario_to_string(&scenario).unwrap();
    let map_source = SourceFile::new("stress-map.ron", map_text);
    let scenario_source = SourceFile::new("stress.ron", scenario_text);
    eprintln!(
        "map {} bytes, scenario {} bytes",
        map_source.text.len(),
        scenario_source.text.len()
    );

    let mut group = c.benchmark_group("stress 200x200, 5000 units");
    group.sample_size(20);
    group.bench_function("load map (parse RON)", |b| {
        b.iter(|| parse_map(black_box(&map_source)).unwrap())
    });
    group.bench_function("load scenario (parse RON)", |b| {
        b.iter(|| parse_scenario(black_box(&scenario_source)).unwrap())
    });
    group.bench_function("save map (canonical RON)", |b| {
        b.iter(|| map_to_string(black_box(&map)).unwrap())
    });
    group.bench_function("save scenario (canonical RON)", |b| {
        b.iter(|| scenario_to_string(black_box(&scenario)).unwrap())
    });
    let json = serde_json::to_string(&scenario).unwrap();
    group.bench_function("baseline: scenario from JSON (serde_json)", |b| {
        b.iter(|| serde_json::from_str::<bataille_schema::Scenario>(black_box(&json)).unwrap())
    });
    group.finish();
}

/// The median of `runs` wall times of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> std::time::Duration {
    let mut times: Vec<std::time::Duration> = (0..runs)
        .map(|_| {
            let start = std::time::Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn big_map(c: &mut Criterion) {
    let size = StressSize {
        columns: 999,
        rows: 999,
        units: 0,
        corps: 1,
    };
    let (map, _) = generate(size, "big-map.ron");
    let dir = std::env::temp_dir().join(format!("bataille-bench-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("big-map.ron"), dir.join("saved.ron"));
    save_map(&input, &map).unwrap();
    let load_and_save = || {
        let loaded = load_map(&input).unwrap();
        save_map(&output, &loaded.map).unwrap();
    };
    let mut group = c.benchmark_group("map 999x999");
    group.sample_size(10);
    group.bench_function("load + save (file to file)", |b| b.iter(load_and_save));
    group.finish();

    if let Some(tmx) = std::env::var_os("BATAILLE_PEER_TMX") {
        let ours = median(5, load_and_save);
        let tiled_out = dir.join("tiled-out.tmx");
        let tiled = || {
            let status = std::process::Command::new("tiled")
                .arg("--export-map")
                .arg(&tmx)
                .arg(&tiled_out)
                .env("QT_QPA_PLATFORM", "offscreen")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            assert!(
                status.is_ok_and(|s| s.success()),
                "tiled --export-map failed"
            );
        };
        let theirs = median(3, tiled);
        eprintln!(
            "999x999 map, load + save: bataille {:.1} ms (in process), tiled --export-map {:.0} ms \
             (whole process): {:.1}x",
            ours.as_secs_f64() * 1e3,
            theirs.as_secs_f64() * 1e3,
            theirs.as_secs_f64() / ours.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, load_save, big_map);
criterion_main!(benches);
