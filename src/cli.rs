//! The command line, as clap types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Validate, format and export Bataille maps and scenarios.
#[derive(Debug, Parser)]
#[command(name = "bataille", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check files and folders (recursing into *.ron): every problem in every file. Exit 0 when
    /// no errors, 1 when any error, 2 when it could not run.
    Validate(ValidateArgs),
    /// Print the JSON Schemas of maps and scenarios, or write them to a folder.
    Schema(SchemaArgs),
    /// Print a file's content as JSON (the JSON that the schema checks).
    Export(ExportArgs),
    /// Rewrite files in canonical form (or, with --check, list those that would change).
    Fmt(FmtArgs),
    /// Draw a map or a scenario to a PNG with no window and no GPU, for review and docs.
    Render(bataille_render::cli::Args),
    /// Write a map from a scanned printed map: fit the grid, suggest terrain and hexsides.
    Digitize(bataille_digitize::cli::Args),
}

/// Output formats of `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-like: code, message, file:line:col, the source line underlined.
    Human,
    /// One JSON array of diagnostics.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files or folders (folders are searched for *.ron files).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Allow (suppress) a diagnostic code everywhere; repeatable.
    #[arg(long = "allow", value_name = "CODE")]
    pub allow: Vec<String>,
    /// Skip the JSON Schema pass.
    #[arg(long)]
    pub no_schema: bool,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Write map.schema.json and scenario.schema.json into this folder. Without it, both are
    /// printed as one JSON object keyed by file name.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The map or scenario file to print as JSON.
    #[arg(long = "json", value_name = "FILE")]
    pub json: PathBuf,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Files or folders (folders are searched for *.ron files).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Change nothing: list the files that are not in canonical form and exit 1 if any.
    #[arg(long)]
    pub check: bool,
}
