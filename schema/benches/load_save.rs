//! Loading and saving a 200×200-hex map with a 5,000-unit, 100-corps scenario (the issue's
//! budget: ≤ 50 ms each). Baseline beside it: serde_json on the same values.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::hint::black_box;

use bataille_schema::io::{parse_map, parse_scenario};
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

criterion_group!(benches, load_save);
criterion_main!(benches);
