//! How the print-and-play kit scales with the map: the kit of generated maps of growing size
//! (default options: A4, 16 mm hexes, 1/2" counters), its wall time and the process's peak
//! memory (VmHWM), and the time per hex, which stays flat when each map sheet draws only its
//! own section.
//!
//! `cargo run --release -p bataille-export --example kit_bench [-- 40 80 120]` (sides of the
//! square maps; default 40 and 80). The budget (issue 19): an 80 × 80 map in 5 s and 300 MB.

use std::time::Instant;

use bataille_export::print::{PrintOptions, kit};
use bataille_schema::stress::{StressSize, generate};

/// The process's peak resident memory so far, MB (Linux), or 0 where unknown.
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let sides: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sides = if sides.is_empty() {
        vec![40, 80]
    } else {
        sides
    };
    println!("map      hexes  pages  sections  time (s)  ms/hex  peak MB  PDF MB");
    for side in sides {
        let size = StressSize {
            columns: side,
            rows: side,
            units: side * 4,
            corps: 8,
        };
        let (map, scenario) = generate(size, "stress-map.ron");
        let start = Instant::now();
        let made = match kit(&scenario, &map, &PrintOptions::default()) {
            Ok(made) => made,
            Err(error) => {
                println!("{side}×{side}: {error}");
                continue;
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let hexes = f64::from(side * side);
        println!(
            "{side:>3}×{side:<3} {hexes:>6} {:>6} {:>5}×{:<3} {seconds:>8.2} {:>7.3} {:>8.0} {:>7.1}",
            made.pages.len(),
            made.sections[0],
            made.sections[1],
            seconds * 1000.0 / hexes,
            peak_mb(),
            made.pdf.len() as f64 / 1e6
        );
    }
}
