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
    /// Print the JSON Schemas of maps, scenarios and miniatures systems, or write them to a
    /// folder.
    Schema(SchemaArgs),
    /// Print a file's content as JSON (the JSON that the schema checks), or export a battle to
    /// VASSAL (`--vassal SCENARIO --out battle.vmod`) or Tiled (`--tiled MAP --out map.tmx`).
    Export(ExportArgs),
    /// Rewrite files in canonical form (or, with --check, list those that would change).
    Fmt(FmtArgs),
    /// Draw a map or a scenario to a PNG with no window and no GPU, for review and docs.
    Render(crate::render::Args),
    /// Write a map from a scanned printed map: fit the grid, suggest terrain and hexsides.
    Digitize(crate::digitize::Args),
    /// Make a print-and-play PDF kit of a scenario: the map at a physical hex size over pages,
    /// counter sheets (fronts and mirrored backs), terrain effects chart, set-up, victory.
    Print(crate::play::PrintArgs),
    /// Lay a scenario out on a miniatures table for one of its systems (Age of Honor, the
    /// Louis XIV rules): SVG or PDF at true scale, the table it needs, rosters.
    Table(crate::table::Args),
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
    /// The folder a scenario's `map:` must stay in (after following links). Default: the
    /// scenario's repository (the nearest folder above it holding `.git`), or without one the
    /// folder above the scenario's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Show at most N diagnostics of one code per file (and ten times N in all); the others
    /// are counted in one summary per code, so the totals and the exit code stay true. 0
    /// shows them all (memory then grows with their number).
    #[arg(long, value_name = "N", default_value_t = bataille_validator::sink::MAX_PER_CODE)]
    pub max_per_code: usize,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Write map.schema.json, scenario.schema.json and system.schema.json into this folder.
    /// Without it, all three are printed as one JSON object keyed by file name.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The map or scenario file to print as JSON.
    #[arg(long = "json", value_name = "FILE", required_unless_present_any = ["vassal", "tiled"], conflicts_with_all = ["vassal", "tiled", "out"])]
    pub json: Option<PathBuf>,
    /// A scenario to export as a VASSAL module (`.vmod`, with --out).
    #[arg(
        long,
        value_name = "SCENARIO",
        requires = "out",
        conflicts_with = "tiled"
    )]
    pub vassal: Option<PathBuf>,
    /// A map (or a scenario, for its units too) to export as a hexagonal Tiled map (`.tmx`,
    /// with --out; its tileset and scan images are written beside it).
    #[arg(long, value_name = "MAP", requires = "out")]
    pub tiled: Option<PathBuf>,
    /// The file to write (VASSAL and Tiled exports).
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The folder the documents' references (`map:`, miniatures systems, the map's scan) must
    /// stay in, after following links. Default: the file's repository (the nearest folder above
    /// it holding `.git`), or without one the folder above the file's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
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
