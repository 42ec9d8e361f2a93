//! Writes small scenarios that make very many diagnostics (issue 19), beside the test map they
//! name: `cargo run --example flood -- --allow-codes 500000 --code-len 7 --out DIR` writes
//! `DIR/allow-codes.ron` (units allowing 500,000 unknown codes, 128 to a list: 5.9 MB, 500,000
//! W0107; `--one-list` puts them in one list, which the loader refuses at its 129th entry);
//! `--faulty-units 200000` writes `DIR/faulty-units.ron` (200,000 units with three faults
//! each). Both name `DIR/small.ron`, written too.

use std::path::PathBuf;
use std::process::ExitCode;

use bataille_schema::flood::{allow_codes, faulty_units, one_allow_list};
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
