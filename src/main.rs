//! The `bataille` command: validate, format, export, render, digitise and print the schemas of
//! Bataille maps and scenarios. A thin layer over `bataille-validator` and `bataille-schema`: parse the command
//! line, run, print, and exit 0 (fine), 1 (errors found) or 2 (could not run).

mod cli;
mod export;
mod files;
mod fmt;
mod output;
mod schema;
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
/// naming the file and, for a bad file, its line and column) on standard error, exit 1.
fn report(result: anyhow::Result<()>) -> Outcome {
    match result {
        Ok(()) => Outcome::Clean,
        Err(error) => {
            eprintln!("error: {error:#}");
            Outcome::Failed
        }
    }
}

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let outcome = match cli.command {
        cli::Command::Validate(args) => validate::run(&args),
        cli::Command::Schema(args) => schema::run(&args),
        cli::Command::Export(args) => export::run(&args),
        cli::Command::Fmt(args) => fmt::run(&args),
        cli::Command::Render(args) => report(bataille_render::cli::run(&args)),
        cli::Command::Digitize(args) => report(bataille_digitize::cli::run(&args)),
    };
    ExitCode::from(outcome as u8)
}
