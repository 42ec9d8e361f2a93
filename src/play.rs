//! The command line of the exports: `bataille export --vassal SCENARIO --out battle.vmod`,
//! `bataille export --tiled MAP|SCENARIO --out map.tmx`, and
//! `bataille print SCENARIO --out kit.pdf [--paper a4|letter] [--hex 16mm] [--counter 1/2in]`.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use bataille_schema::io::{DocumentKind, load_map, load_scenario, read_source, sniff_kind};

use bataille_export::print::{Paper, PrintOptions, parse_length};
use bataille_export::vassal::VassalOptions;

/// Writes a VASSAL module of a scenario.
pub fn run_vassal(scenario_path: &Path, out: &Path) -> anyhow::Result<String> {
    let loaded = load_scenario(scenario_path)?;
    let map_path = bataille_schema::io::map_path_of(scenario_path, &loaded.scenario);
    let options = VassalOptions {
        map_dir: Some(bataille_export::tiled::dir_of(&map_path)),
        ..VassalOptions::default()
    };
    let bytes = bataille_export::vassal::export(&loaded.scenario, &loaded.map.map, &options)
        .with_context(|| format!("exporting {} to VASSAL", scenario_path.display()))?;
    write(out, &bytes)?;
    Ok(format!(
        "wrote {} ({} KiB)",
        out.display(),
        bytes.len() / 1024
    ))
}

/// Writes a Tiled map of a map, or of a scenario's map with its units.
pub fn run_tiled(path: &Path, out: &Path) -> anyhow::Result<String> {
    let source = read_source(path)?;
    let stem = bataille_export::tiled::stem_of(out);
    let files = match sniff_kind(&source)? {
        DocumentKind::Map => {
            let loaded = load_map(path)?;
            bataille_export::tiled::export(&loaded.map, None, &bataille_export::tiled::dir_of(path), &stem)
        }
        DocumentKind::Scenario => {
            let loaded = load_scenario(path)?;
            let map_path = bataille_schema::io::map_path_of(path, &loaded.scenario);
            bataille_export::tiled::export(
                &loaded.map.map,
                Some(&loaded.scenario),
                &bataille_export::tiled::dir_of(&map_path),
                &stem,
            )
        }
    }
    .with_context(|| format!("exporting {} to Tiled", path.display()))?;
    files.write(out)?;
    Ok(format!(
        "wrote {} and {} image(s) beside it",
        out.display(),
        files.images.len()
    ))
}

/// `bataille print`: a print-and-play kit of a scenario.
#[derive(Debug, Clone, clap::Args)]
pub struct PrintArgs {
    /// The scenario (`.ron`).
    pub scenario: PathBuf,
    /// The PDF to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Paper size.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub paper: Paper,
    /// Distance between neighbouring hex centres on paper: 16mm, 5/8in…
    #[arg(long, default_value = "16mm", value_parser = parse_length)]
    pub hex: f32,
    /// Counter side: 1/2in, 5/8in, 15mm…
    #[arg(long, default_value = "1/2in", value_parser = parse_length)]
    pub counter: f32,
}

/// Writes the kit.
pub fn run_print(args: &PrintArgs) -> anyhow::Result<String> {
    let loaded = load_scenario(&args.scenario)?;
    let options = PrintOptions {
        paper: args.paper,
        hex_mm: args.hex,
        counter_mm: args.counter,
    };
    let kit = bataille_export::print::kit(&loaded.scenario, &loaded.map.map, &options)
        .with_context(|| format!("printing {}", args.scenario.display()))?;
    write(&args.out, &kit.pdf)?;
    for warning in &kit.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(format!("wrote {}: {}", args.out.display(), kit.summary()))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
