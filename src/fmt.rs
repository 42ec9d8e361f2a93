//! `bataille fmt [--check]`: canonical formatting of maps and scenarios.

use bataille_schema::{DocumentKind, io};

use crate::Outcome;
use crate::cli::FmtArgs;
use crate::files;

pub fn run(args: &FmtArgs) -> Outcome {
    let paths = match files::collect(&args.paths) {
        Ok(paths) => paths,
        Err(error) => {
            eprintln!("error: {error}");
            return Outcome::CouldNotRun;
        }
    };
    let mut outcome = Outcome::Clean;
    for path in paths {
        let source = match io::read_source(&path) {
            Ok(source) => source,
            Err(error @ io::LoadError::Io { .. }) => {
                eprintln!("error: {error}");
                outcome = outcome.max(Outcome::CouldNotRun);
                continue;
            }
            Err(error) => {
                eprintln!("error: {error}");
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        let canonical = io::sniff_kind(&source).and_then(|kind| match kind {
            DocumentKind::Map => io::parse_map(&source).map(|m| io::map_to_string(&m)),
            DocumentKind::Scenario => {
                io::parse_scenario(&source).map(|s| io::scenario_to_string(&s))
            }
        });
        let text = match canonical {
            Ok(Ok(text)) => text,
            Ok(Err(error)) => {
                eprintln!(
                    "error: {}: cannot write canonically: {error}",
                    files::display(&path)
                );
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
            Err(error) => {
                eprintln!("error: {error}");
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        if text == source.text {
            continue;
        }
        if args.check {
            println!("{}", files::display(&path));
            outcome = outcome.max(Outcome::Failed);
        } else if let Err(error) = io::write_atomic(&path, &text) {
            eprintln!("error: cannot write {}: {error}", files::display(&path));
            outcome = outcome.max(Outcome::CouldNotRun);
        } else {
            eprintln!("formatted {}", files::display(&path));
        }
    }
    outcome
}
