//! `bataille fmt [--check]`: canonical formatting of maps and scenarios. It never writes a file
//! that would lose content: a file that does not load (a syntax error, a key given twice, a
//! number that is not finite, a grid beyond the limits) or that holds a comment (the canonical
//! form has none) is left as it is, with a located message saying why.

use bataille_schema::source::first_comment;
use bataille_schema::{DocumentKind, SourceFile, io};

use crate::Outcome;
use crate::cli::FmtArgs;
use crate::files;

const NEVER_LOSES: &str =
    "fmt never writes a file that would lose content: the file is left as it is";

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
                eprintln!("error: {error}\n  = note: {NEVER_LOSES}");
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        let text = match canonical(&source) {
            Ok(text) => text,
            Err(why) => {
                eprintln!("error: {why}\n  = note: {NEVER_LOSES}");
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        // A byte-order mark is dropped: the canonical form has none.
        if text == source.text && !source.bom {
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

/// The canonical text of a file, or why it cannot be written without losing content.
fn canonical(source: &SourceFile) -> Result<String, String> {
    let kind = io::sniff_kind(source).map_err(|e| e.to_string())?;
    let text = match kind {
        DocumentKind::Map => {
            let map = io::parse_map(source).map_err(|e| e.to_string())?;
            io::map_into_string(map)
        }
        DocumentKind::Scenario => {
            let scenario = io::parse_scenario(source).map_err(|e| e.to_string())?;
            io::scenario_into_string(scenario)
        }
    };
    let text = text.map_err(|error| {
        format!(
            "{}: cannot write canonically: {error}",
            files::display(&source.path)
        )
    })?;
    if let Some(span) = first_comment(&source.text) {
        let location = source.location(span);
        return Err(format!(
            "{location}: the canonical form has no comments, so formatting would delete this one; move what it says into a `notes` field, or remove it"
        ));
    }
    Ok(text)
}
