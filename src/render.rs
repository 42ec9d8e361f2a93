//! `bataille render FILE --out map.png [--scale PX_PER_HEX]`: a picture of a map or a scenario.

use std::path::PathBuf;

use anyhow::Context as _;
use bataille_schema::io::{DocumentKind, load_map, load_scenario_in, read_source, sniff_kind};

use bataille_render::{RenderOptions, render_map, render_scenario, save_png};

/// Draw a map or a scenario (terrain, hexsides, labels, hex numbers, units) to a PNG.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// A map or scenario file (`.ron`).
    pub file: PathBuf,
    /// The PNG to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Pixels between the centres of neighbouring hexes.
    #[arg(long, default_value_t = 48.0)]
    pub scale: f32,
    /// Leave out the hex numbers.
    #[arg(long)]
    pub no_hex_names: bool,
    /// Leave out the place names.
    #[arg(long)]
    pub no_labels: bool,
    /// Leave out unit counters and leaders (scenarios).
    #[arg(long)]
    pub no_counters: bool,
    /// The folder a scenario's `map:` must stay in (default: the scenario's repository, or the
    /// folder above the scenario's).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Renders the file to the PNG.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let options = RenderOptions {
        px_per_hex: args.scale,
        hex_names: !args.no_hex_names,
        labels: !args.no_labels,
        counters: !args.no_counters,
        leaders: !args.no_counters,
        ..RenderOptions::default()
    };
    let source = read_source(&args.file)?;
    let pixmap = match sniff_kind(&source)? {
        DocumentKind::Map => {
            let loaded = load_map(&args.file)?;
            render_map(&loaded.map, &options)?
        }
        DocumentKind::Scenario => {
            let loaded = load_scenario_in(&args.file, args.root.as_deref())?;
            render_scenario(&loaded.scenario, &loaded.map.map, &options)?
        }
    };
    save_png(&pixmap, &args.out).with_context(|| format!("rendering {}", args.file.display()))?;
    Ok(())
}
