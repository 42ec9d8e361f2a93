//! How `bataille validate` scales with the number of diagnostics and the size of the input:
//! time of human and JSON reports of 10,000 to 100,000 errors, and peak memory (max RSS, from
//! `/usr/bin/time`) of `validate`, `export` and `fmt` on a generated big scenario.
//!
//! `cargo bench -p bataille-benches --bench report_scale` (a bench binary, not criterion: each run is a
//! whole process). `-- --units 500000` (the default, 64.8 MB) sets the size of the big scenario, `-- --quick` skips it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const MAP: &str = include_str!("../tests/fixtures/maps/small.ron");

/// A scenario on the small test map whose `units` each stand on a hex off the map: one E0503
/// per unit, one unit per line.
fn scenario_with_errors(units: usize) -> String {
    let mut text = String::from(
        r##"Scenario(
    format_version: 1,
    title: "Many errors",
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
"##,
    );
    for i in 0..units {
        text.push_str(&format!(
            "                (id: \"u{i}\", name: \"Regiment {i}\", kind: \"infantry\", corps: \"centre\", cp: 1, placement: Hex(\"9999\")),\n"
        ));
    }
    text.push_str("            ],\n        ),\n    ],\n    victory: (),\n)\n");
    text
}

/// Wall and CPU (user + system) time of the best of `runs` runs, by CPU time: on a machine
/// shared with other work, the wall time says more about the others than about the command.
fn best_of(runs: usize, mut run: impl FnMut() -> (Duration, Duration)) -> (Duration, Duration) {
    (0..runs)
        .map(|_| run())
        .min_by_key(|(_, cpu)| *cpu)
        .unwrap_or_default()
}

/// The time of a human or JSON report, and the number of lines it printed.
fn time_report(dir: &Path, format: &str) -> ((Duration, Duration), usize) {
    let mut lines = 0;
    let time = best_of(3, || {
        let start = Instant::now();
        // `/usr/bin/time` reports the CPU time to stderr, after the command's own stderr.
        let output = Command::new("/usr/bin/time")
            .args(["-f", "CPU %U %S"])
            .arg(bataille_benches::bataille())
            // Every diagnostic listed: the report's scale, which the bound would hide.
            .args([
                "validate",
                "--max-per-code",
                "0",
                "--format",
                format,
                "many.ron",
            ])
            .env("NO_COLOR", "1")
            .env("RAYON_NUM_THREADS", "1")
            .current_dir(dir)
            .output()
            .expect("/usr/bin/time runs bataille (apt-get install time)");
        let elapsed = start.elapsed();
        assert_eq!(output.status.code(), Some(1), "the errors are reported");
        lines = output.stdout.iter().filter(|b| **b == b'\n').count();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let cpu: f64 = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("CPU "))
            .next_back()
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|n| n.parse::<f64>().ok())
                    .sum()
            })
            .expect("the CPU time");
        (elapsed, Duration::from_secs_f64(cpu))
    });
    (time, lines)
}

/// Peak resident memory of a command in kilobytes, through `/usr/bin/time -f %M`.
fn peak_kb(args: &[&str], dir: &Path) -> Option<u64> {
    let output = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("PEAK %M")
        .arg(bataille_benches::bataille())
        .args(args)
        .current_dir(dir)
        .env("RAYON_NUM_THREADS", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?
        .wait_with_output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("PEAK "))
        .next_back()?
        .trim()
        .parse()
        .ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let units: u32 = args
        .iter()
        .position(|a| a == "--units")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(500_000);
    let dir = tempdir();
    std::fs::write(dir.join("small.ron"), MAP).expect("write the map");

    println!("report of N errors (best of 3 by CPU time, one thread, whole process):");
    println!(
        "{:>8}  {:>16}  {:>16}",
        "errors", "human cpu (wall)", "json cpu (wall)"
    );
    for n in [10_000, 30_000, 100_000] {
        std::fs::write(dir.join("many.ron"), scenario_with_errors(n)).expect("write");
        let ((human_wall, human_cpu), lines) = time_report(&dir, "human");
        let ((json_wall, json_cpu), _) = time_report(&dir, "json");
        assert!(
            lines >= n * 5,
            "{lines} lines of human output for {n} errors"
        );
        println!(
            "{n:>8}  {:>6.2} s ({:>4.2} s)  {:>6.2} s ({:>4.2} s)",
            human_cpu.as_secs_f64(),
            human_wall.as_secs_f64(),
            json_cpu.as_secs_f64(),
            json_wall.as_secs_f64()
        );
    }

    if quick {
        return;
    }
    // The same head as above, with units that validate clean (not placed).
    let mut text = scenario_with_errors(0);
    let at = text.find("            ],").expect("the units list");
    let mut units_text = String::with_capacity(units as usize * 130);
    for i in 0..units {
        units_text.push_str(&format!(
            "                (id: \"u{i}\", name: \"Regiment {i}\", kind: \"infantry\", corps: \"centre\", cp: 1, mp: 4, morale: 2, facing: NE),\n"
        ));
    }
    text.insert_str(at, &units_text);
    drop(units_text);
    let big = dir.join("big");
    std::fs::create_dir_all(&big).expect("dir");
    std::fs::write(big.join("small.ron"), MAP).expect("write the map");
    std::fs::write(big.join("stress.ron"), text).expect("write the scenario");
    let bytes = std::fs::metadata(big.join("stress.ron")).map_or(0, |m| m.len());
    println!(
        "\npeak memory on a scenario of {units} units, {:.1} MB (max RSS, /usr/bin/time):",
        bytes as f64 / 1e6
    );
    for (what, command) in [
        ("validate", vec!["validate", "stress.ron"]),
        ("export", vec!["export", "--json", "stress.ron"]),
        ("fmt --check", vec!["fmt", "--check", "stress.ron"]),
    ] {
        match peak_kb(&command, &big) {
            Some(kb) => println!(
                "{what:>12}: {:>7.1} MB = {:.2} × the file",
                kb as f64 / 1e3,
                kb as f64 * 1e3 / bytes as f64
            ),
            None => println!("{what:>12}: /usr/bin/time is missing (apt-get install time)"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bataille-report-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
