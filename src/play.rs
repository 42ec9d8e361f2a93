//! The command line of the exports: `bataille export --vassal SCENARIO --out battle.vmod`,
//! `bataille export --tiled MAP|SCENARIO --out map.tmx`, and
//! `bataille print SCENARIO --out kit.pdf [--paper a4|letter] [--hex 16mm] [--counter 1/2in]`.
//! Each opens its document through the door (a refused document is not exported) and writes
//! through the writer (never over a file it read; all its files or none).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use bataille_export::print::{Paper, PrintOptions, parse_length};
use bataille_export::vassal::VassalOptions;
use bataille_validator::door::Document;

use crate::door;
use crate::files::display;

/// Writes a VASSAL module of a scenario.
pub fn run_vassal(scenario_path: &Path, out: &Path, root: Option<&Path>) -> anyhow::Result<String> {
    let admitted = door::admit(scenario_path, root)?;
    let (scenario, map) = door::battle(&admitted, "export --vassal")?;
    let options = VassalOptions {
        scan: map.background.clone(),
        ..VassalOptions::default()
    };
    note_scan_profile(map);
    let (variants, variant_reads) = variants_of(scenario_path, &scenario.path, root);
    let setups: Vec<bataille_export::variants::Setup<'_>> = variants
        .iter()
        .map(|v| bataille_export::variants::Setup {
            name: &v.name,
            scenario: &v.scenario,
        })
        .collect();
    let mut reads = admitted.reads.clone();
    reads.extend(variant_reads);
    let mut outputs = bataille_schema::files::Outputs::guarding(&reads);
    // The module goes straight into its temporary file as it is made (a failure on the way
    // drops it: the file that was there stays).
    let mut staging = outputs.begin(out)?;
    bataille_export::vassal::write_with_setups(
        &scenario.scenario,
        &map.map,
        &options,
        &setups,
        &mut staging,
    )
    .with_context(|| format!("exporting {} to VASSAL", display(scenario_path)))?;
    let bytes = staging.finish()?;
    outputs.commit()?;
    let with = match setups.len() {
        0 => String::new(),
        n => format!(
            ", with {n} variant{} as predefined setups",
            if n == 1 { "" } else { "s" }
        ),
    };
    Ok(format!(
        "wrote {} ({} KiB{with})",
        display(out),
        bytes / 1024
    ))
}

/// Says that the map's scan carries a colour profile the export does not apply (the export
/// reads the scan through `bataille_digitize::scan::load_scan`, which applies none).
fn note_scan_profile(map: &bataille_validator::door::MapDocument) {
    if map.map.background.is_none() {
        return;
    }
    let Some(scan) = &map.background else {
        return;
    };
    if let Some(profile) = bataille_digitize::scan::profile_of(scan) {
        tell!("note: {}: {}", display(scan), profile.note());
    }
}

/// A variant kept for its predefined setup: its name and the scenario it makes.
struct Variant {
    name: String,
    scenario: bataille_schema::Scenario,
}

/// The variants of a scenario: the `Variant(` files beside it (same folder, `*.ron`, in name
/// order) whose base is this scenario, each opened through the door, and every file they read
/// (the writer guards them). A variant the door refuses is left out, with a warning:
/// `bataille validate` says why. Only files that begin `Variant(` are opened (the others
/// beside it, scenarios with their maps, were each opened in full), and of each variant only
/// its name and scenario are kept: the base, map, systems and texts the door loaded with it
/// are dropped at once (1,000 variants of 1.4 KB held 466 MB).
fn variants_of(
    scenario_path: &Path,
    opened_path: &Path,
    root: Option<&Path>,
) -> (Vec<Variant>, Vec<PathBuf>) {
    let mut out = Vec::new();
    let mut reads = Vec::new();
    let Some(dir) = scenario_path.parent() else {
        return (out, reads);
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (out, reads);
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
        .collect();
    files.sort();
    let this = std::fs::canonicalize(opened_path).ok();
    for file in files {
        if std::fs::canonicalize(&file).ok() == this
            || bataille_schema::reading::existing_kind(&file)
                != Some(bataille_schema::DocumentKind::Variant)
        {
            continue;
        }
        let opened = bataille_validator::door::open(&file, &door::options(root));
        let base_is_this = match &opened.document {
            Some(Document::Scenario(s)) => s.variant.as_ref().is_some_and(|v| {
                std::fs::canonicalize(&v.base.path).ok() == this && this.is_some()
            }),
            _ => false,
        };
        if !base_is_this {
            continue;
        }
        match opened.admit() {
            Ok(admitted) => {
                reads.extend(admitted.reads);
                if let Document::Scenario(s) = admitted.document
                    && let Some(v) = s.variant
                {
                    out.push(Variant {
                        name: v.variant.name,
                        scenario: s.scenario,
                    });
                }
            }
            Err(_) => tell!(
                "warning: {}: a variant of this scenario left out of the module: it is refused (`bataille validate` says why)",
                display(&file)
            ),
        }
    }
    (out, reads)
}

/// Writes a Tiled map of a map, or of a scenario's map with its units.
pub fn run_tiled(path: &Path, out: &Path, root: Option<&Path>) -> anyhow::Result<String> {
    let admitted = door::admit(path, root)?;
    let stem = bataille_export::tiled::stem_of(out);
    let map = door::map_of(&admitted, "export --tiled")?;
    let scenario = match &admitted.document {
        Document::Scenario(scenario) => Some(&scenario.scenario),
        _ => None,
    };
    // Every output refused before any work (the scan's resampling is the long part), as
    // `export --vassal` does.
    let mut outputs = door::outputs(&admitted);
    let planned =
        bataille_export::tiled::TiledFiles::planned(&map.map, map.background.as_deref(), out);
    for output in &planned {
        outputs.admits(output)?;
    }
    note_scan_profile(map);
    let files =
        bataille_export::tiled::export(&map.map, scenario, map.background.as_deref(), &stem)
            .with_context(|| format!("exporting {} to Tiled", display(path)))?;
    files.stage(out, &mut outputs)?;
    outputs.commit()?;
    Ok(format!(
        "wrote {} and {} image(s) beside it",
        display(out),
        files.images.len()
    ))
}

/// The paper sizes, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PaperArg {
    A4,
    Letter,
}

impl From<PaperArg> for Paper {
    fn from(value: PaperArg) -> Self {
        match value {
            PaperArg::A4 => Paper::A4,
            PaperArg::Letter => Paper::Letter,
        }
    }
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
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// Distance between neighbouring hex centres on paper: 16mm, 5/8in…
    #[arg(long, default_value = "16mm", value_parser = parse_length)]
    pub hex: f32,
    /// Counter side: 1/2in, 5/8in, 15mm…
    #[arg(long, default_value = "1/2in", value_parser = parse_length)]
    pub counter: f32,
    /// The folder the documents' references (`map:`, miniatures systems, the map's scan) must
    /// stay in, after following links. Default: the file's repository (the nearest folder above
    /// it holding `.git`), or without one the folder above the file's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Writes the kit.
pub fn run_print(args: &PrintArgs) -> anyhow::Result<String> {
    let admitted = door::admit(&args.scenario, args.root.as_deref())?;
    let (scenario, map) = door::battle(&admitted, "print")?;
    // The output refused before the kit is made, as `export` does.
    let mut outputs = door::outputs(&admitted);
    let mut staging = outputs.begin(&args.out)?;
    let options = PrintOptions {
        paper: args.paper.into(),
        hex_mm: args.hex,
        counter_mm: args.counter,
    };
    // A variant's kit says what it changes, on a page before its set-up.
    let note = scenario
        .variant
        .as_ref()
        .map(|v| bataille_export::variants::VariantNote::of(&v.variant, &v.base.scenario));
    let kit = bataille_export::print::kit_of(&scenario.scenario, &map.map, &options, note.as_ref())
        .with_context(|| format!("printing {}", display(&args.scenario)))?;
    staging
        .write_all(&kit.pdf)
        .with_context(|| format!("cannot write {}", display(&args.out)))?;
    staging.finish()?;
    outputs.commit()?;
    for warning in &kit.warnings {
        tell!("warning: {warning}");
    }
    Ok(format!("wrote {}: {}", display(&args.out), kit.summary()))
}
