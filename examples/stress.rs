//! Writes a large map and scenario for benchmarks and stress tests:
//! `cargo run --release --example stress -- --size 200x200 --units 5000 --corps 100 --out DIR`
//! writes `DIR/stress-map.ron` and `DIR/stress.ron`, which validate clean.

use std::path::PathBuf;
use std::process::ExitCode;

use bataille_schema::stress::{StressSize, generate, parse_size};
use clap::Parser;

#[derive(Parser)]
#[command(about = "Write a large Bataille map and scenario for benchmarks")]
struct Args {
    /// Map size as COLUMNSxROWS.
    #[arg(long, default_value = "200x200")]
    size: String,
    /// Number of units.
    #[arg(long, default_value_t = 5000)]
    units: u32,
    /// Number of corps.
    #[arg(long, default_value_t = 100)]
    corps: u32,
    /// Output folder (created if missing).
    #[arg(long)]
    out: PathBuf,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let Some((columns, rows)) = parse_size(&args.size) else {
        eprintln!("error: --size must be COLUMNSxROWS, e.g. 200x200");
        return ExitCode::from(2);
    };
    let size = StressSize {
        columns,
        rows,
        units: args.units,
        corps: args.corps,
    };
    let (map, scenario) = generate(size, "stress-map.ron");
    let result = std::fs::create_dir_all(&args.out)
        .and_then(|()| bataille_schema::save_map(&args.out.join("stress-map.ron"), &map))
        .and_then(|()| bataille_schema::save_scenario(&args.out.join("stress.ron"), &scenario));
    if let Err(error) = result {
        eprintln!("error: cannot write to {}: {error}", args.out.display());
        return ExitCode::from(1);
    }
    let units: usize = scenario.armies.iter().map(|a| a.units.len()).sum();
    let corps: usize = scenario.armies.iter().map(|a| a.corps.len()).sum();
    println!(
        "wrote {} ({}x{} hexes) and {} ({units} units, {corps} corps)",
        args.out.join("stress-map.ron").display(),
        columns,
        rows,
        args.out.join("stress.ron").display(),
    );
    ExitCode::SUCCESS
}
