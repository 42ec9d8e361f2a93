//! `bataille export --json FILE`: a map or scenario as the JSON its schema checks;
//! `--vassal SCENARIO --out battle.vmod` and `--tiled MAP --out map.tmx` (bataille-export).

use bataille_schema::{DocumentKind, io};

use crate::Outcome;
use crate::cli::ExportArgs;

pub fn run(args: &ExportArgs) -> Outcome {
    let result = match (&args.json, &args.vassal, &args.tiled, &args.out) {
        (Some(path), _, _, _) => return json(path),
        (None, Some(scenario), _, Some(out)) => crate::play::run_vassal(scenario, out),
        (None, None, Some(map), Some(out)) => crate::play::run_tiled(map, out),
        _ => {
            eprintln!(
                "error: say what to export: --json FILE, --vassal SCENARIO --out FILE or --tiled MAP --out FILE"
            );
            return Outcome::CouldNotRun;
        }
    };
    crate::report(result.map(|line| println!("{line}")))
}

fn json(path: &std::path::Path) -> Outcome {
    let source = match io::read_source(path) {
        Ok(source) => source,
        Err(error @ io::LoadError::Io { .. }) => {
            eprintln!("error: {error}");
            return Outcome::CouldNotRun;
        }
        Err(error) => {
            eprintln!("error: {error}");
            return Outcome::Failed;
        }
    };
    // Written straight to stdout, fields in the order of the RON file: no JSON tree of the
    // whole document in memory (for a big scenario, several times the file's size).
    let written = match io::sniff_kind(&source) {
        Ok(DocumentKind::Map) => io::parse_map(&source).map(|map| {
            drop(source);
            write_json(&map)
        }),
        Ok(DocumentKind::Scenario) => io::parse_scenario(&source).map(|scenario| {
            drop(source);
            write_json(&scenario)
        }),
        Err(error) => Err(error),
    };
    match written {
        Ok(Ok(())) => Outcome::Clean,
        Ok(Err(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => Outcome::Clean,
        Ok(Err(error)) => {
            eprintln!(
                "error: cannot write the JSON of {}: {error}",
                path.display()
            );
            Outcome::CouldNotRun
        }
        Err(error) => {
            eprintln!("error: {error}");
            Outcome::Failed
        }
    }
}

fn write_json<T: serde::Serialize>(value: &T) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    out.flush()
}
