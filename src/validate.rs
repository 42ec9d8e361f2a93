//! `bataille validate`: every file checked in parallel, diagnostics merged (a map reached from
//! several scenarios is reported once), printed in the chosen format.

use std::collections::HashMap;

use bataille_validator::{Diagnostic, Options, validate_file};
use rayon::prelude::*;

use crate::Outcome;
use crate::cli::{Format, ValidateArgs};
use crate::results::Results;
use crate::{files, output};

pub fn run(args: &ValidateArgs) -> Outcome {
    let paths = match files::collect(&args.paths) {
        Ok(paths) => paths,
        Err(error) => {
            tell!("error: {error}");
            return Outcome::CouldNotRun;
        }
    };
    if let Some(unknown) = args
        .allow
        .iter()
        .find(|code| code.parse::<bataille_validator::Code>().is_err())
    {
        tell!(
            "error: --allow {}: not a diagnostic code (see docs/diagnostics.md)",
            unknown
        );
        return Outcome::CouldNotRun;
    }
    if let Some(root) = &args.root
        && !root.is_dir()
    {
        tell!("error: --root {}: not a folder", files::display(root));
        return Outcome::CouldNotRun;
    }
    let options = Options {
        json_schema: !args.no_schema,
        allow: args.allow.clone(),
        root: args.root.clone(),
        bound: bataille_validator::Bound::per_code(args.max_per_code),
        ..Options::default()
    };
    let reports: Vec<_> = paths
        .par_iter()
        .map(|path| validate_file(path, &options))
        .collect();

    let mut outcome = Outcome::Clean;
    // Each file's report is sorted already (the door sorts once): only several files' reports
    // are merged and sorted again (a map two scenarios share is reported once).
    let several = reports.len() > 1;
    let mut diagnostics = Vec::new();
    let mut sources = HashMap::new();
    for report in reports {
        if let Some(why) = &report.unreadable {
            tell!("error: {why}");
            outcome = Outcome::CouldNotRun;
        }
        // Moved, not copied, for the first file (a copy held both lists at once).
        if diagnostics.is_empty() {
            diagnostics = report.diagnostics;
        } else {
            diagnostics.extend(report.diagnostics);
        }
        for source in report.sources {
            sources.entry(source.path.clone()).or_insert(source);
        }
    }
    if several {
        diagnostics.sort_by(Diagnostic::order);
        diagnostics.dedup();
    }
    let results = Results {
        diagnostics,
        sources,
        files: paths.len(),
    };

    let printed = match args.format {
        Format::Human => output::human::print(&results),
        Format::Json => output::json::print(&results),
        Format::Github => output::github::print(&results),
        Format::Sarif => output::sarif::print(&results),
    };
    if let Err(error) = printed {
        // A reader that stopped early (`| head`) is not an error worth a message.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            tell!("error: cannot write the output: {error}");
            return Outcome::CouldNotRun;
        }
    }
    if outcome == Outcome::CouldNotRun {
        return outcome;
    }
    if results.errors() > 0 || (args.deny_warnings && results.warnings() > 0) {
        Outcome::Failed
    } else {
        Outcome::Clean
    }
}
