//! Linear work (issue 19): the budgets that keep a small accepted file from costing unbounded
//! time or memory, measured on the release binary as a user runs it (each run a whole process,
//! one thread) and, for the calibration check and the door's full validation, in process.
//!
//! - the human report of 100,000 diagnostics each with a related place 100,000 lines away
//!   (every unit given twice: E0201 and where the id was first defined), and of 100,000
//!   counters in one hex (one E0301 naming the 99,999 others): ≤ 3 × the JSON report's time;
//! - the peak memory of the JSON and SARIF reports on those files: ≤ 8 × the file (one thread,
//!   and the JSON report again on every core, as a user runs it);
//! - `export --vassal` of the 200 × 200, 5,000-unit stress battle: ≤ 3 s, ≤ 300 MB; the same
//!   on a map with a scan (the board the scan resampled, never held whole);
//! - what the door's full validation (`admit`, which every command but `validate` and `fmt`
//!   runs) costs beside parsing alone, on the stress battle;
//! - the calibration check at 1,000 to 64,000 control points: time per point flat;
//! - the peak memory of a report bounded as a user gets it (at most 100 of a code per file,
//!   the others counted in a summary) on small files that make very many diagnostics
//!   (`bataille_schema::flood`: 500,000 and 2,000,000 unknown codes, 128 to an `allow` list,
//!   6 and 25 MB; 200,000 units with three faults each, 25 MB) and on the shapes with the most
//!   items for their size (the shortest units, two-character codes, a zone of bad or of
//!   distinct hexes, a map of overlays, about 6 MB each), in every format: ≤ 8 × the file.
//!
//! `cargo bench -p bataille-benches --bench linear` (a bench binary, not criterion: most runs are whole
//! processes; `/usr/bin/time` gives their CPU time and peak memory). `-- --quick` runs only the
//! reports at 10,000; `-- --reports`, `-- --vassal`, `-- --calibration`, `-- --bounds` only
//! those parts. The reports of 100,000 diagnostics are made with `--max-per-code 0` (every
//! diagnostic listed): they measure the printers' linear work, which the bound would hide.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bataille_schema::stress::{StressSize, generate};

const MAP: &str = include_str!("../tests/fixtures/maps/small.ron");

const HEAD: &str = r##"Scenario(
    format_version: 1,
    title: "Linear work",
    map: "small.ron",
    date: "1745-05-11",
    turns: 10,
    turn_minutes: 60,
    start_time: "05:00",
    rules: (
        system: "vae-victis",
        unit_kinds: {"infantry": (name: "Infantry", symbol: Infantry, combat: true, front_hexsides: 2, flank_hexsides: 2)},
        stacking: (compositions: [(name: "one unit", terms: [(kinds: ["infantry"], max_counters: 1)])]),
        command: (commander_radius_hexes: 5, leader_radius_hexes: 4),
    ),
    armies: [
        (
            id: "french",
            name: "French",
            commanders: [(id: "saxe", name: "Saxe", commands: ["centre"], placement: Hex("0303"))],
            corps: [(id: "centre", name: "Centre", colour: "#cc0000", leader: (id: "noailles", name: "Noailles", activation: 3, placement: Hex("0304")))],
            units: [
"##;
const TAIL: &str = "            ],\n        ),\n    ],\n    victory: (),\n)\n";

/// `n` units, then the same `n` ids again: `n` E0201, each related to the place `n` lines
/// above where the id was first defined.
fn far_related(n: usize) -> String {
    let mut text = String::from(HEAD);
    for _ in 0..2 {
        for i in 0..n {
            text.push_str(&format!(
                "                (id: \"u{i}\", name: \"Regiment {i}\", kind: \"infantry\", corps: \"centre\", cp: 1, mp: 4, morale: 2, facing: NE),\n"
            ));
        }
    }
    text.push_str(TAIL);
    text
}

/// `n` units in one hex: one E0301 whose related places are the `n - 1` others.
fn one_hex(n: usize) -> String {
    let mut text = String::from(HEAD);
    for i in 0..n {
        text.push_str(&format!(
            "                (id: \"u{i}\", name: \"Regiment {i}\", kind: \"infantry\", corps: \"centre\", cp: 1, mp: 4, morale: 2, facing: NE, placement: Hex(\"0505\")),\n"
        ));
    }
    text.push_str(TAIL);
    text
}

/// CPU time (user + system), wall time, peak resident memory (kB) and standard output's
/// length of one run of the release binary, one thread.
struct Run {
    cpu: Duration,
    wall: Duration,
    peak_kb: u64,
    code: Option<i32>,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_on(dir, args, Some(1))
}

/// [`run`] on `threads` rayon threads (`None`: every core, as a user runs it).
fn run_on(dir: &Path, args: &[&str], threads: Option<usize>) -> Run {
    let start = Instant::now();
    let mut command = Command::new("/usr/bin/time");
    if let Some(threads) = threads {
        command.env("RAYON_NUM_THREADS", threads.to_string());
    } else {
        command.env_remove("RAYON_NUM_THREADS");
    }
    let output = command
        .args(["-f", "BENCH %U %S %M"])
        .arg(bataille_benches::bataille())
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("/usr/bin/time runs bataille (apt-get install time)");
    let wall = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let fields: Vec<f64> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("BENCH "))
        .next_back()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let [user, system, peak] = fields[..] else {
        panic!("no figures from /usr/bin/time: {stderr}");
    };
    Run {
        cpu: Duration::from_secs_f64(user + system),
        wall,
        peak_kb: peak as u64,
        code: output.status.code(),
    }
}

/// The run of `runs` with the least CPU time: on a machine shared with other work, the wall
/// time says more about the others than about the command.
fn best(runs: usize, dir: &Path, args: &[&str]) -> Run {
    (0..runs)
        .map(|_| run(dir, args))
        .min_by_key(|r| r.cpu)
        .expect("at least one run")
}

fn reports(dir: &Path, sizes: &[usize]) {
    println!(
        "validate reports (best of 3 by CPU time, one thread, whole process; peak = max RSS):"
    );
    println!(
        "{:<28} {:>8} {:>15} {:>15} {:>6} {:>17} {:>17} {:>17} {:>17}",
        "file",
        "MB",
        "human cpu",
        "json cpu",
        "×json",
        "human peak",
        "json peak",
        "sarif peak",
        "json, all cores"
    );
    for &n in sizes {
        for (what, text) in [
            (format!("{n} E0201, related far"), far_related(n)),
            (format!("{n} counters in one hex"), one_hex(n)),
        ] {
            std::fs::write(dir.join("case.ron"), &text).expect("write the case");
            let mb = text.len() as f64 / 1e6;
            drop(text);
            let all = ["--max-per-code", "0"];
            let human = best(3, dir, &["validate", all[0], all[1], "case.ron"]);
            let json = best(
                3,
                dir,
                &["validate", all[0], all[1], "--format", "json", "case.ron"],
            );
            let sarif = best(
                1,
                dir,
                &["validate", all[0], all[1], "--format", "sarif", "case.ron"],
            );
            // Every core, as a user runs it: the checks' threads each hold their own
            // allocations (two lists of counters were 38 MB at once, issue 19).
            let all_cores = run_on(
                dir,
                &["validate", all[0], all[1], "--format", "json", "case.ron"],
                None,
            );
            for r in [&human, &json, &sarif, &all_cores] {
                assert_eq!(r.code, Some(1), "{what}: the errors are reported");
            }
            let peak = |r: &Run| {
                format!(
                    "{:.0} MB ({:.1}×)",
                    r.peak_kb as f64 / 1e3,
                    r.peak_kb as f64 / 1e3 / mb
                )
            };
            println!(
                "{what:<28} {mb:>8.1} {:>8.2} s ({:>3.1}) {:>8.2} s ({:>3.1}) {:>6.2} {:>17} {:>17} {:>17} {:>17}",
                human.cpu.as_secs_f64(),
                human.wall.as_secs_f64(),
                json.cpu.as_secs_f64(),
                json.wall.as_secs_f64(),
                human.cpu.as_secs_f64() / json.cpu.as_secs_f64(),
                peak(&human),
                peak(&json),
                peak(&sarif),
                peak(&all_cores),
            );
        }
    }
}

/// Peak memory of the bounded report, every format, one thread and every core, on the files
/// of `bataille_schema::flood`: the flood of unknown codes and of faulty units, and the shapes
/// that hold the most items for their size (the shortest units, two-character codes, a zone
/// of hexes that each break the pattern or of distinct hexes, a map of overlays). Each ratio is
/// given whole and above the floor: what validating the small test map costs, the process's
/// own (its code, its threads, the compiled schemas).
fn bounds(dir: &Path) {
    let floor = run_on(dir, &["validate", "--format", "json", "small.ron"], None);
    let floor_mb = floor.peak_kb as f64 / 1e3;
    println!(
        "bounded reports (peak = max RSS, one thread / every core; ratio to the file, whole and above the floor of {floor_mb:.1} MB):"
    );
    let map = |n| ("map.ron", bataille_schema::flood::map_overlays(MAP, n));
    let scenario = |text| ("case.ron", text);
    let files = [
        (
            "500,000 unknown codes",
            scenario(bataille_schema::flood::allow_codes("small.ron", 500_000, 7)),
        ),
        (
            "2,000,000 unknown codes",
            scenario(bataille_schema::flood::allow_codes(
                "small.ron",
                2_000_000,
                7,
            )),
        ),
        (
            "200,000 units, three faults",
            scenario(bataille_schema::flood::faulty_units("small.ron", 200_000)),
        ),
        (
            "158,000 shortest units",
            scenario(bataille_schema::flood::short_units("small.ron", 158_000)),
        ),
        (
            "9,000 units of 128 short codes",
            scenario(bataille_schema::flood::short_codes("small.ron", 9_000)),
        ),
        (
            "zone of 1,500,000 bad hexes",
            scenario(bataille_schema::flood::zone_hexes(
                "small.ron",
                1_500_000,
                true,
            )),
        ),
        (
            "zone of 666,000 hexes",
            scenario(bataille_schema::flood::zone_hexes(
                "small.ron",
                666_000,
                false,
            )),
        ),
        ("map of 285,000 overlays", map(285_000)),
    ];
    for (what, (name, text)) in files {
        std::fs::write(dir.join(name), &text).expect("write the case");
        let mb = text.len() as f64 / 1e6;
        drop(text);
        print!("{what:<34} {mb:>6.1} MB");
        for format in ["human", "json", "sarif", "github"] {
            let args = ["validate", "--format", format, name];
            let one = run(dir, &args);
            let every = run_on(dir, &args, None);
            assert!(
                one.code.is_some_and(|c| c < 2),
                "{what}: the file is validated"
            );
            let peak = every.peak_kb.max(one.peak_kb) as f64 / 1e3;
            print!(
                "  {format} {:.0}/{:.0} MB ({:.1}×, {:.1}× above the floor) {:.2} s",
                one.peak_kb as f64 / 1e3,
                every.peak_kb as f64 / 1e3,
                peak / mb,
                (peak - floor_mb) / mb,
                one.cpu.as_secs_f64()
            );
        }
        println!();
    }
}

fn stress(dir: &Path) {
    let size = StressSize {
        columns: 200,
        rows: 200,
        units: 5000,
        corps: 100,
    };
    let (map, scenario) = generate(size, "stress-map.ron");
    let map_path = dir.join("stress-map.ron");
    let scenario_path = dir.join("stress.ron");
    bataille_schema::save_map(&map_path, &map).expect("write the map");
    bataille_schema::save_scenario(&scenario_path, &scenario).expect("write the scenario");
    drop((map, scenario));

    let vassal = best(
        3,
        dir,
        &["export", "--vassal", "stress.ron", "--out", "stress.vmod"],
    );
    assert_eq!(vassal.code, Some(0), "the stress battle exports");
    println!(
        "\nexport --vassal of the 200 × 200, 5,000-unit stress battle (best of 3): {:.2} s CPU ({:.2} s wall), peak {:.0} MB; module {:.1} MB",
        vassal.cpu.as_secs_f64(),
        vassal.wall.as_secs_f64(),
        vassal.peak_kb as f64 / 1e3,
        std::fs::metadata(dir.join("stress.vmod")).map_or(0.0, |m| m.len() as f64 / 1e6)
    );

    // The same battle on its map with a scan (a 3,000 px square picture, fitted 10 px a grid
    // unit): the board is the scan resampled, a band at a time into the module.
    let scan = image::RgbImage::from_fn(3000, 3000, |x, y| {
        image::Rgb([(x / 12) as u8, (y / 12) as u8, ((x + y) / 24) as u8])
    });
    scan.save(dir.join("scan.png")).expect("write the scan");
    let text = std::fs::read_to_string(&map_path).expect("the map");
    let text = text.replacen(
        "    rows: [",
        "    background: (image: \"scan.png\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    rows: [",
        1,
    );
    std::fs::write(dir.join("stress-scan-map.ron"), text).expect("write the map");
    let scenario_text = std::fs::read_to_string(&scenario_path).expect("the scenario");
    std::fs::write(
        dir.join("stress-scan.ron"),
        scenario_text.replacen("stress-map.ron", "stress-scan-map.ron", 1),
    )
    .expect("write the scenario");
    let scanned = best(
        3,
        dir,
        &[
            "export",
            "--vassal",
            "stress-scan.ron",
            "--out",
            "stress-scan.vmod",
            "--root",
            ".",
        ],
    );
    assert_eq!(scanned.code, Some(0), "the stress battle on a scan exports");
    println!(
        "export --vassal of the same battle on a scanned map (best of 3): {:.2} s CPU ({:.2} s wall), peak {:.0} MB",
        scanned.cpu.as_secs_f64(),
        scanned.wall.as_secs_f64(),
        scanned.peak_kb as f64 / 1e3,
    );

    // The door as every command but validate and fmt takes a document: bounded read, parse,
    // JSON Schema, every check, references confined; beside the parse alone.
    let options = bataille_validator::Options {
        root: Some(dir.to_path_buf()),
        ..bataille_validator::Options::default()
    };
    let time = |f: &mut dyn FnMut()| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let admit = time(&mut || {
        let admitted = bataille_validator::door::admit(&scenario_path, &options);
        assert!(admitted.is_ok(), "the stress battle is admitted");
    });
    let no_schema = bataille_validator::Options {
        json_schema: false,
        ..options.clone()
    };
    let admit_no_schema = time(&mut || {
        let admitted = bataille_validator::door::admit(&scenario_path, &no_schema);
        assert!(admitted.is_ok(), "the stress battle is admitted");
    });
    let parse = time(&mut || {
        let read = bataille_validator::door::read_document(&scenario_path);
        assert!(read.is_ok(), "the stress battle parses");
        let read = bataille_validator::door::read_document(&map_path);
        assert!(read.is_ok(), "the stress map parses");
    });
    println!(
        "door::admit of the stress battle (best of 5, in process): {:.1} ms; without the JSON Schema pass {:.1} ms; parsing the scenario and its map alone {:.1} ms",
        admit.as_secs_f64() * 1e3,
        admit_no_schema.as_secs_f64() * 1e3,
        parse.as_secs_f64() * 1e3
    );
}

fn calibration() {
    use bataille_digitize::calibrate::check_pairs;
    use bataille_schema::map::FitKind;
    println!("\ncalibration check (in process, best of 3):");
    println!("{:>8} {:>12} {:>12}", "points", "time", "µs/point");
    for n in [1_000usize, 8_000, 64_000] {
        // A grid of points, fitted exactly but for a slight wobble, and one bad click.
        let side = (n as f64).sqrt().ceil() as usize;
        let mut pairs: Vec<([f64; 2], [f64; 2])> = (0..n)
            .map(|i| {
                let g = [(i % side) as f64 * 1.5, (i / side) as f64 * 1.732];
                let wobble = ((i * 7919) % 13) as f64 * 0.01;
                (g, [40.0 * g[0] + 3.0 + wobble, 40.0 * g[1] + 5.0 - wobble])
            })
            .collect();
        pairs[n / 2].1[0] += 25.0;
        let names: Vec<String> = (0..n).map(|i| format!("#{i}")).collect();
        let elapsed = (0..3)
            .map(|_| {
                let start = Instant::now();
                let checked = check_pairs(FitKind::Affine, &names, &pairs);
                assert_eq!(
                    checked.suspect.map(|s| s.index),
                    Some(n / 2),
                    "the bad click is found"
                );
                start.elapsed()
            })
            .min()
            .unwrap_or_default();
        println!(
            "{n:>8} {:>10.1} ms {:>12.2}",
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e6 / n as f64
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    // `--reports`, `--vassal`, `--calibration`: only those parts (all when none is named).
    let parts = ["--reports", "--vassal", "--calibration", "--bounds"];
    let all = !parts.iter().any(|p| has(p));
    let dir = tempdir();
    std::fs::write(dir.join("small.ron"), MAP).expect("write the map");
    if has("--quick") {
        reports(&dir, &[10_000]);
    } else {
        if all || has("--reports") {
            reports(&dir, &[10_000, 100_000]);
        }
        if all || has("--vassal") {
            stress(&dir);
        }
        if all || has("--calibration") {
            calibration();
        }
        if all || has("--bounds") {
            bounds(&dir);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bataille-linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
