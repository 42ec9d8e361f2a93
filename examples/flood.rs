//! Writes small scenarios that make very many diagnostics (issue 19), beside the test map they
//! name: `cargo run --example flood -- --allow-codes 500000 --code-len 7 --out DIR` writes
//! `DIR/allow-codes.ron` (units allowing 500,000 unknown codes, 128 to a list: 5.9 MB, 500,000
//! W0107; `--one-list` puts them in one list, which the loader refuses at its 129th entry);
//! `--faulty-units 200000` writes `DIR/faulty-units.ron` (200,000 units with three faults
//! each). Both name `DIR/small.ron`, written too. The shapes with the most items for their
//! size: `--short-units N` (`short-units.ron`), `--short-codes N` (N units of 128 two-character
//! codes, `short-codes.ron`), `--zone-hexes N [--bad-hexes]` (`zone-hexes.ron`),
//! `--map-overlays N` (the small map with N more overlays, `map-overlays.ron`).

use std::path::PathBuf;
use std::process::ExitCode;

use bataille_schema::flood::{
    allow_codes, faulty_units, map_overlays, one_allow_list, short_codes, short_units, zone_hexes,
};
use clap::Parser;

#[derive(Parser)]
#[command(about = "Write Bataille scenarios that make very many diagnostics")]
struct Args {
    /// Unknown codes in one unit's `allow` list (`allow-codes.ron`).
    #[arg(long)]
    allow_codes: Option<usize>,
    /// All those codes in one list (refused at its 129th entry).
    #[arg(long)]
    one_list: bool,
    /// Characters of each of those codes.
    #[arg(long, default_value_t = 7)]
    code_len: usize,
    /// Units each with three faults (`faulty-units.ron`).
    #[arg(long)]
    faulty_units: Option<usize>,
    /// The shortest units (`short-units.ron`).
    #[arg(long)]
    short_units: Option<usize>,
    /// Units of 128 two-character codes (`short-codes.ron`).
    #[arg(long)]
    short_codes: Option<usize>,
    /// One zone of this many hexes (`zone-hexes.ron`).
    #[arg(long)]
    zone_hexes: Option<usize>,
    /// Those hexes each `"x"` (a pattern violation each).
    #[arg(long)]
    bad_hexes: bool,
    /// The small map with this many more overlays (`map-overlays.ron`).
    #[arg(long)]
    map_overlays: Option<usize>,
    /// Output folder (created if missing).
    #[arg(long)]
    out: PathBuf,
}

const MAP: &str = include_str!("../tests/fixtures/maps/small.ron");

fn main() -> ExitCode {
    let args = Args::parse();
    let mut files = vec![("small.ron", MAP.to_owned())];
    if let Some(n) = args.allow_codes {
        let text = if args.one_list {
            one_allow_list("small.ron", n, args.code_len)
        } else {
            allow_codes("small.ron", n, args.code_len)
        };
        files.push(("allow-codes.ron", text));
    }
    if let Some(n) = args.faulty_units {
        files.push(("faulty-units.ron", faulty_units("small.ron", n)));
    }
    if let Some(n) = args.short_units {
        files.push(("short-units.ron", short_units("small.ron", n)));
    }
    if let Some(n) = args.short_codes {
        files.push(("short-codes.ron", short_codes("small.ron", n)));
    }
    if let Some(n) = args.zone_hexes {
        files.push(("zone-hexes.ron", zone_hexes("small.ron", n, args.bad_hexes)));
    }
    if let Some(n) = args.map_overlays {
        files.push(("map-overlays.ron", map_overlays(MAP, n)));
    }
    for (name, text) in files {
        let path = args.out.join(name);
        let written =
            std::fs::create_dir_all(&args.out).and_then(|()| std::fs::write(&path, &text));
        if let Err(error) = written {
            eprintln!("error: cannot write {}: {error}", path.display());
            return ExitCode::from(1);
        }
        println!(
            "wrote {} ({:.1} MB)",
            path.display(),
            text.len() as f64 / 1e6
        );
    }
    ExitCode::SUCCESS
}
