//! Validating a big scenario: a generated 200×200 map with 5,000 units in 100 corps
//! (`bataille_schema::stress`), every check, single thread. Budget: ≤ 100 ms for a file,
//! parse included.
//!
//! - `file/all-checks`: `validate_file` on the scenario as written on disk (read, parse both
//!   files, JSON Schema pass, every check, span resolution) — what `bataille validate` does.
//! - `documents/editor`: `validate_documents` in memory without the JSON Schema pass — what
//!   the editor runs after an edit.
//! - `documents/with-schema`: the same with the JSON Schema pass.
//! - `parse-only`: the baseline: reading and parsing the two files, no checks (issue 23: the
//!   whole validation within 1.5× of it).
//!
//! Then validation and parsing alone, interleaved (31 of each in turn: medians and bests), and
//! validation on a one-thread rayon pool (what a single core gives). Then, in the same run, the
//! peer: when `check-jsonschema` is on the PATH (`pip install
//! check-jsonschema`), it validates the same scenario's JSON (as `bataille export --json`
//! writes it) against `schema/scenario.schema.json` (3 runs, median wall time, whole process),
//! and the figures are printed with the ratios (issue 23: ≥ 50× faster).

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

    let median = |runs: usize, f: &mut dyn FnMut()| {
        let mut times: Vec<std::time::Duration> = (0..runs)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed()
            })
            .collect();
        times.sort();
        times[runs / 2]
    };
    // Validation and parsing interleaved, one of each in turn, so a change of load on the
    // machine touches both alike: the medians, and the best of each (the nearest a loaded
    // machine comes to a quiet one).
    let timed = |f: &mut dyn FnMut()| {
        let start = std::time::Instant::now();
        f();
        start.elapsed()
    };
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build();
    let (mut ours, mut parse, mut single) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..31 {
        ours.push(timed(&mut || {
            black_box(validate_file(&path, &Options::default()));
        }));
        parse.push(timed(&mut || {
            let _ = black_box(load_scenario(&path));
        }));
        if let Ok(pool) = &one_thread {
            single.push(timed(&mut || {
                pool.install(|| black_box(validate_file(&path, &Options::default())));
            }));
        }
    }
    for times in [&mut ours, &mut parse, &mut single] {
        times.sort();
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let (ours, best_ours, parse, best_parse) = (ours[15], ours[0], parse[15], parse[0]);
    eprintln!(
        "validate {:.1} ms, parse only {:.1} ms: {:.2}x parsing (medians of 31, interleaved); \
         best {:.1} vs {:.1} ms: {:.2}x",
        ms(ours),
        ms(parse),
        ms(ours) / ms(parse),
        ms(best_ours),
        ms(best_parse),
        ms(best_ours) / ms(best_parse)
    );
    // CPU time (user + system, every thread of the process, from /proc/self/stat), which a
    // loaded machine changes far less than wall time: the work, whatever the cores.
    let cpu = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: f64 =
            fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some(ticks * 10.0) // ms, at Linux's 100 ticks a second
    };
    let cpu_of = |f: &mut dyn FnMut()| -> Option<f64> {
        let start = cpu()?;
        for _ in 0..40 {
            f();
        }
        Some((cpu()? - start) / 40.0)
    };
    let cpu_validate = cpu_of(&mut || {
        black_box(validate_file(&path, &Options::default()));
    });
    let cpu_parse = cpu_of(&mut || {
        let _ = black_box(load_scenario(&path));
    });
    if let (Some(v), Some(p)) = (cpu_validate, cpu_parse) {
        eprintln!(
            "CPU time: validate {v:.1} ms, parse only {p:.1} ms: {:.2}x",
            v / p
        );
    }
    if let (Some(median), Some(best)) = (single.get(15), single.first()) {
        eprintln!(
            "validate on one rayon thread {:.1} ms ({:.2}x parsing), best {:.1} ms ({:.2}x)",
            ms(*median),
            ms(*median) / ms(parse),
            ms(*best),
            ms(*best) / ms(best_parse)
        );
    }
    let json = dir.join("stress.json");
    let schema =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/scenario.schema.json");
    let peer = |json: &std::path::Path| {
        std::process::Command::new("check-jsonschema")
            .arg("--schemafile")
            .arg(&schema)
            .arg(json)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
    };
    let written = serde_json::to_string(&scenario).map(|text| std::fs::write(&json, text));
    match (written, peer(&json)) {
        (Ok(Ok(())), Ok(status)) if status.success() => {
            let theirs = median(3, &mut || {
                let _ = peer(&json);
            });
            eprintln!(
                "check-jsonschema {:.0} ms (whole process, schema only): bataille validate is \
                 {:.0}x faster (in process, every check)",
                theirs.as_secs_f64() * 1e3,
                theirs.as_secs_f64() / ours.as_secs_f64()
            );
        }
        (_, Ok(status)) => eprintln!("check-jsonschema did not pass the stress scenario: {status}"),
        (_, Err(error)) => {
            eprintln!("check-jsonschema not run ({error}): pip install check-jsonschema")
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, big);
criterion_main!(benches);
