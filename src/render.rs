//! `bataille render FILE --out map.png [--scale PX_PER_HEX]`: a picture of a map or a scenario.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;

use bataille_render::{RenderError, RenderOptions, encode_png, render_map, render_scenario};
use bataille_validator::door::Document;

use crate::door;

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

/// Renders the file to the PNG: the document through the door, the PNG through the writer.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let options = RenderOptions {
        px_per_hex: args.scale,
        hex_names: !args.no_hex_names,
        labels: !args.no_labels,
        counters: !args.no_counters,
        leaders: !args.no_counters,
        ..RenderOptions::default()
    };
    let admitted = door::admit(&args.file, args.root.as_deref())?;
    // The output refused before any work (over a file the command reads, through a link
    // leading outside, a folder), as `export` does: the picture is written into its
    // temporary file once drawn.
    let mut outputs = door::outputs(&admitted);
    let mut staging = outputs.begin(&args.out)?;
    let pixmap = match &admitted.document {
        Document::Map(map) => render_map(&map.map, &options).map_err(advised)?,
        _ => {
            let (scenario, map) = door::battle(&admitted, "render")?;
            render_scenario(&scenario.scenario, &map.map, &options).map_err(advised)?
        }
    };
    let png = encode_png(&pixmap)?;
    drop(pixmap);
    staging
        .write_all(&png)
        .with_context(|| format!("cannot write {}", crate::files::display(&args.out)))?;
    staging.finish()?;
    outputs.commit()?;
    Ok(())
}

/// A render error with what can be done about it here: the picture's size is this command's
/// `--scale` (the exports, which draw the same way, have none to offer).
fn advised(error: RenderError) -> anyhow::Error {
    match error {
        RenderError::TooLarge { .. } => anyhow::anyhow!("{error} (use a smaller --scale)"),
        other => other.into(),
    }
}
