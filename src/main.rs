//! The `bataille` command: validate, format, export (JSON, VASSAL, Tiled), render, print, digitise and print the schemas of
//! Bataille maps and scenarios. A thin layer over `bataille-validator` and `bataille-schema`: parse the command
//! line, run, print, and exit 0 (fine), 1 (errors found) or 2 (could not run).

#[macro_use]
mod terminal;

mod cli;
mod digitize;
mod door;
mod export;
mod files;
mod fmt;
mod output;
mod play;
mod render;
mod results;
mod schema;
mod table;
mod validate;

use std::process::ExitCode;

use clap::Parser;

/// How a command ended, as the exit code CI scripts read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// 0: nothing wrong.
    Clean = 0,
    /// 1: errors found in the files (or warnings with `--deny-warnings`, or files to format).
    Failed = 1,
    /// 2: could not run (bad flag, missing or unreadable path).
    CouldNotRun = 2,
}

/// Ends a command that either works or fails with one error: the error (with its causes, each
/// said once, naming the file and, for a bad file, its line and column) on standard error, and
/// the contract's exit code: 2 when it could not run (an input missing, unreadable or not a
/// regular file, a bad option, an output that cannot be written), 1 when an input has errors.
fn report(result: anyhow::Result<()>) -> Outcome {
    match result {
        Ok(()) => Outcome::Clean,
        Err(error) => {
            if let Some(door::Reported(outcome)) = error.downcast_ref::<door::Reported>() {
                // Already printed (the door's refusal, with its report).
                return *outcome;
            }
            // Clipped: a cause may quote a file's text no schema bounded (the sink's bound; the
            // readers clip their own quotes first).
            tell!(
                "error: {}",
                bataille_schema::limits::clipped(
                    &causes_once(&error),
                    4 * bataille_schema::limits::MESSAGE_CHARS
                )
            );
            outcome_of(&error)
        }
    }
}

/// The error and its causes joined by `: `, leaving out a cause the text already says (an
/// error whose message includes its source's would otherwise say it twice).
fn causes_once(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// The exit code of a failed `render` or `digitize`, from the first cause it knows.
fn outcome_of(error: &anyhow::Error) -> Outcome {
    use bataille_digitize::files::FileError;
    use bataille_digitize::scan::ScanError;
    use bataille_render::RenderError;
    use bataille_schema::LoadError;
    for cause in error.chain() {
        if let Some(load) = cause.downcast_ref::<LoadError>() {
            return match load {
                // The file named on the command line cannot be read at all.
                LoadError::Io { .. } => Outcome::CouldNotRun,
                // The file was read and is wrong (a scenario's unloadable map included).
                _ => Outcome::Failed,
            };
        }
        if cause.downcast_ref::<RenderError>().is_some() {
            // A bad --scale, a picture too large for it, an output not written.
            return Outcome::CouldNotRun;
        }
        if let Some(file) = cause.downcast_ref::<FileError>() {
            return match file {
                FileError::Io { .. } => Outcome::CouldNotRun,
                _ => Outcome::Failed,
            };
        }
        if let Some(scan) = cause.downcast_ref::<ScanError>() {
            return match scan {
                ScanError::Io { .. } => Outcome::CouldNotRun,
                _ => Outcome::Failed,
            };
        }
        if cause
            .downcast_ref::<bataille_schema::files::WriteError>()
            .is_some()
        {
            // An output not written (the disk, a folder, an output naming an input).
            return Outcome::CouldNotRun;
        }
        if cause.downcast_ref::<std::io::Error>().is_some() {
            return Outcome::CouldNotRun;
        }
    }
    Outcome::Failed
}

/// The command line, or clap's message through the terminal sink and clap's exit code: a bad
/// value is quoted in clap's error, and clap strips ESC sequences but not the one-character
/// C1 CSI (U+009B), which reached the terminal raw (`--table $'\u{9b}31m'`). Help and the
/// version (ours, on standard output) are printed as clap prints them.
fn parse_command_line() -> cli::Cli {
    match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                error.exit();
            }
            for line in error.render().to_string().lines() {
                tell!("{line}");
            }
            std::process::exit(error.exit_code());
        }
    }
}

fn main() -> ExitCode {
    let cli = parse_command_line();
    let outcome = match cli.command {
        cli::Command::Validate(args) => validate::run(&args),
        cli::Command::Schema(args) => schema::run(&args),
        cli::Command::Export(args) => export::run(&args),
        cli::Command::Fmt(args) => fmt::run(&args),
        cli::Command::Render(args) => report(render::run(&args)),
        cli::Command::Digitize(args) => report(digitize::run(&args)),
        cli::Command::Print(args) => report(play::run_print(&args).map(|line| say!("{line}"))),
        cli::Command::Table(args) => report(table::run(&args)),
    };
    ExitCode::from(outcome as u8)
}
