//! `cargo run -p bataille-render --example render -- FILE OUT.png [SCALE]`: a map or scenario
//! drawn without the rest of the binary (the command is `bataille render`).

use std::path::PathBuf;

use bataille_render::{RenderOptions, render_map, render_scenario, save_png};
use bataille_schema::io::{DocumentKind, load_map, load_scenario, read_source, sniff_kind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: render FILE OUT.png [SCALE]".into());
    };
    let (file, out) = (PathBuf::from(file), PathBuf::from(out));
    let options = RenderOptions {
        px_per_hex: args.next().map_or(Ok(48.0), |s| s.parse())?,
        ..RenderOptions::default()
    };
    let pixmap = match sniff_kind(&read_source(&file)?)? {
        DocumentKind::Map => render_map(&load_map(&file)?.map, &options)?,
        DocumentKind::Scenario => {
            let loaded = load_scenario(&file)?;
            render_scenario(&loaded.scenario, &loaded.map.map, &options)?
        }
        DocumentKind::System => return Err("a miniatures system has no picture".into()),
        DocumentKind::Variant => return Err("render a variant with `bataille render`".into()),
    };
    save_png(&pixmap, &out)?;
    Ok(())
}
