//! `bataille fmt [--check]`: canonical formatting of maps, scenarios, variants and miniatures
//! systems. It never writes a file
//! that would lose content: a file that does not load (a syntax error, a key given twice, a
//! number that is not finite, a grid beyond the limits) or that holds a comment (the canonical
//! form has none) is left as it is, with a located message saying why. Files are read through
//! the door ([`bataille_validator::door::read_document`]) and written through the writer.

use bataille_schema::io;
use bataille_schema::source::first_comment;
use bataille_validator::door::{self, Parsed};

use crate::Outcome;
use crate::cli::FmtArgs;
use crate::files;

const NEVER_LOSES: &str =
    "fmt never writes a file that would lose content: the file is left as it is";

pub fn run(args: &FmtArgs) -> Outcome {
    let paths = match files::collect(&args.paths) {
        Ok(paths) => paths,
        Err(error) => {
            tell!("error: {error}");
            return Outcome::CouldNotRun;
        }
    };
    let mut outcome = Outcome::Clean;
    for path in paths {
        let (parsed, source) = match door::read_document(&path) {
            Ok(read) => read,
            Err(refused) if refused.unreadable() => {
                crate::door::print_refusal(&refused);
                outcome = outcome.max(Outcome::CouldNotRun);
                continue;
            }
            Err(refused) => {
                // One line per reason, `file:line:column: message`: `fmt --check` lists files.
                for d in &refused.report.diagnostics {
                    let place = d.span.as_deref().map_or_else(
                        || files::display(&refused.report.path),
                        crate::output::place,
                    );
                    tell!("error: {place}: {}", d.message);
                    tell!("  = note: {NEVER_LOSES}");
                }
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        let text = match canonical(parsed, &source) {
            Ok(text) => text,
            Err(why) => {
                tell!("error: {why}");
                tell!("  = note: {NEVER_LOSES}");
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        // A byte-order mark is dropped: the canonical form has none.
        if text == source.text && !source.bom {
            continue;
        }
        if args.check {
            say!("{}", files::display(&path));
            outcome = outcome.max(Outcome::Failed);
        } else if let Err(error) = io::write_atomic(&path, &text) {
            tell!("error: cannot write {}: {}", files::display(&path), error);
            outcome = outcome.max(Outcome::CouldNotRun);
        } else {
            tell!("formatted {}", files::display(&path));
        }
    }
    outcome
}

/// The canonical text of a file, or why it cannot be written without losing content.
fn canonical(parsed: Parsed, source: &bataille_schema::SourceFile) -> Result<String, String> {
    let text = match parsed {
        Parsed::Map(map) => io::map_into_string(*map),
        Parsed::Scenario(scenario) => io::scenario_into_string(*scenario),
        Parsed::Variant(variant) => io::variant_to_string(&variant),
        Parsed::System(system) => io::system_to_string(&system),
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
