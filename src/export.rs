//! `bataille export --json FILE`: a map or scenario as the JSON its schema checks.

use bataille_schema::{DocumentKind, io};

use crate::Outcome;
use crate::cli::ExportArgs;

pub fn run(args: &ExportArgs) -> Outcome {
    let path = &args.json;
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
    let value = io::sniff_kind(&source).and_then(|kind| match kind {
        DocumentKind::Map => io::parse_map(&source).map(serde_json::to_value),
        DocumentKind::Scenario => io::parse_scenario(&source).map(serde_json::to_value),
    });
    match value {
        Ok(Ok(value)) => match serde_json::to_string_pretty(&value) {
            Ok(text) => {
                println!("{text}");
                Outcome::Clean
            }
            Err(error) => {
                eprintln!("error: {error}");
                Outcome::Failed
            }
        },
        Ok(Err(error)) => {
            eprintln!("error: {}: cannot convert to JSON: {error}", path.display());
            Outcome::Failed
        }
        Err(error) => {
            eprintln!("error: {error}");
            Outcome::Failed
        }
    }
}
