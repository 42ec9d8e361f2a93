//! The command's side of the two doors. Documents come in through
//! [`bataille_validator::door`] only ([`admit`]: a refusal is printed as `validate` prints it,
//! on standard error, and the command stops); every file goes out through
//! [`bataille_schema::files::Outputs`] ([`outputs`]), guarded against the files the command
//! read. `tests/doors.rs` fails when a command reads or writes a file another way.

use std::io::IsTerminal as _;
use std::path::Path;

use bataille_schema::files::Outputs;
use bataille_validator::door::{Admitted, Document, MapDocument, Refused, ScenarioDocument};
use bataille_validator::{FileReport, Options};

use crate::Outcome;

/// An error already printed (a refusal's report): the command ends with this outcome and says
/// nothing more.
#[derive(Debug)]
pub struct Reported(pub Outcome);

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused (see above)")
    }
}

impl std::error::Error for Reported {}

/// The door's options for a command: every check (the JSON Schema pass included), references
/// confined to `root` (default: the file's repository).
pub fn options(root: Option<&Path>) -> Options {
    Options {
        root: root.map(Path::to_path_buf),
        ..Options::default()
    }
}

/// Opens a document for a command, or prints why the door refused it.
pub fn admit(path: &Path, root: Option<&Path>) -> anyhow::Result<Admitted> {
    if let Some(root) = root
        && !root.is_dir()
    {
        anyhow::bail!("--root {}: not a folder", crate::files::display(root));
    }
    bataille_validator::door::admit(path, &options(root))
        .map_err(|refused| anyhow::Error::new(Reported(print_refusal(&refused))))
}

/// A scenario and its map, from an admitted document; an error naming what the file is
/// otherwise.
pub fn battle<'a>(
    admitted: &'a Admitted,
    command: &str,
) -> anyhow::Result<(&'a ScenarioDocument, &'a MapDocument)> {
    match &admitted.document {
        Document::Scenario(scenario) => match &scenario.map {
            Some(map) => Ok((scenario, map)),
            // The door refuses a scenario whose map it could not open (E0208).
            None => anyhow::bail!(
                "{}: the scenario's map could not be opened",
                crate::files::display(&scenario.path)
            ),
        },
        other => anyhow::bail!(
            "{}: `bataille {command}` takes a scenario; this file is a {}",
            crate::files::display(&admitted.report.path),
            kind_name(other)
        ),
    }
}

/// A map (the file's, or a scenario's), from an admitted document.
pub fn map_of<'a>(admitted: &'a Admitted, command: &str) -> anyhow::Result<&'a MapDocument> {
    match &admitted.document {
        Document::Map(map) => Ok(map),
        Document::Scenario(_) => Ok(battle(admitted, command)?.1),
        other => anyhow::bail!(
            "{}: `bataille {command}` takes a map or a scenario; this file is a {}",
            crate::files::display(&admitted.report.path),
            kind_name(other)
        ),
    }
}

fn kind_name(document: &Document) -> &'static str {
    match document {
        Document::Map(_) => "map",
        Document::Scenario(_) => "scenario",
        Document::System(_) => "miniatures system",
    }
}

/// The outputs of a command that read `admitted`: none may replace a file it read.
pub fn outputs(admitted: &Admitted) -> Outputs {
    Outputs::guarding(&admitted.reads)
}

/// Prints a refusal on standard error (the report of its structural errors, rustc-like, file
/// text escaped) and gives the command's outcome: 2 when the file could not be read at all, 1
/// when it was read and refused.
pub fn print_refusal(refused: &Refused) -> Outcome {
    if let Some(why) = &refused.report.unreadable {
        tell!("error: {why}");
        return Outcome::CouldNotRun;
    }
    let results = results_of(&refused.report);
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let _ = crate::output::human::write(&mut std::io::stderr().lock(), &results, colour);
    let errors = results.errors();
    tell!(
        "error: {} is refused: {errors} error{} above must be corrected first (`bataille validate` lists every problem)",
        crate::files::display(&refused.report.path),
        if errors == 1 { "" } else { "s" }
    );
    Outcome::Failed
}

fn results_of(report: &FileReport) -> crate::results::Results {
    crate::results::Results {
        diagnostics: report.diagnostics.clone(),
        sources: report
            .sources
            .iter()
            .map(|s| (s.path.clone(), s.clone()))
            .collect(),
        files: 1,
    }
}
