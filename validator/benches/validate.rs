//! Validating a big scenario: a generated 200×200 map with 5,000 units in 100 corps
//! (`bataille_schema::stress`), every check, single thread. Budget: ≤ 100 ms for a file,
//! parse included.
//!
//! - `file/all-checks`: `validate_file` on the scenario as written on disk (read, parse both
//!   files, JSON Schema pass, every check, span resolution) — what `bataille validate` does.
//! - `documents/editor`: `validate_documents` in memory without the JSON Schema pass — what
//!   the editor runs after an edit.
//! - `documents/with-schema`: the same with the JSON Schema pass.
//! - `parse-only`: the baseline: reading and parsing the two files, no checks.

use std::hint::black_box;

use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{load_scenario, map_to_string, scenario_to_string};
use bataille_validator::{Options, validate_documents, validate_file};
use criterion::{Criterion, criterion_group, criterion_main};

fn big(c: &mut Criterion) {
    let size = StressSize {
        columns: 200,
        rows: 200,
        units: 5_000,
        corps: 100,
    };
    let (map, scenario) = generate(size, "stress-map.ron");
    let dir = std::env::temp_dir().join(format!("bataille-bench-{}", std::process::id()));
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let map_text = map_to_string(&map).map_err(std::io::Error::other)?;
        let scenario_text = scenario_to_string(&scenario).map_err(std::io::Error::other)?;
        std::fs::write(dir.join("stress-map.ron"), map_text)?;
        std::fs::write(dir.join("stress.ron"), scenario_text)
    });
    if let Err(error) = written {
        eprintln!("cannot write the stress files: {error}");
        return;
    }
    let path = dir.join("stress.ron");
    let report = validate_file(&path, &Options::default());
    eprintln!(
        "stress scenario: {} errors, {} warnings",
        report.errors(),
        report.warnings()
    );

    let mut group = c.benchmark_group("validate 200x200, 5000 units, 100 corps");
    group.sample_size(20);
    group.bench_function("file/all-checks", |b| {
        b.iter(|| validate_file(black_box(&path), &Options::default()))
    });
    group.bench_function("parse-only", |b| b.iter(|| load_scenario(black_box(&path))));
    group.bench_function("documents/editor", |b| {
        b.iter(|| validate_documents(black_box(&scenario), black_box(&map), &Options::editor()))
    });
    group.bench_function("documents/with-schema", |b| {
        b.iter(|| validate_documents(black_box(&scenario), black_box(&map), &Options::default()))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, big);
criterion_main!(benches);
