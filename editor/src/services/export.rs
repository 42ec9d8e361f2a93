//! File ▸ Export: the battle as a VASSAL module, a Tiled map or a print-and-play kit, made by
//! `bataille-export` (the library behind `bataille export --vassal/--tiled` and `bataille print`)
//! from the document **as it is in the editor** — saved or not, what the user sees is what is
//! exported — on a background job ([`crate::services::jobs`]). Nothing here knows egui.

use std::path::{Path, PathBuf};

use bataille_export::print::{Paper, PrintOptions};
use bataille_export::vassal::VassalOptions;
use bataille_schema::{Map, Scenario};

/// The three exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    Vassal,
    Tiled,
    Print,
}

impl ExportKind {
    /// The name in the menu and the dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            ExportKind::Vassal => "VASSAL module",
            ExportKind::Tiled => "Tiled map",
            ExportKind::Print => "Print-and-play kit",
        }
    }

    /// The file extension written (no dot).
    pub fn extension(self) -> &'static str {
        match self {
            ExportKind::Vassal => "vmod",
            ExportKind::Tiled => "tmx",
            ExportKind::Print => "pdf",
        }
    }

    /// Whether it needs a scenario (the counters), not only a map.
    pub fn needs_scenario(self) -> bool {
        !matches!(self, ExportKind::Tiled)
    }

    /// The command line that makes the same file.
    pub fn command_line(self) -> &'static str {
        match self {
            ExportKind::Vassal => "bataille export --vassal SCENARIO --out FILE.vmod",
            ExportKind::Tiled => "bataille export --tiled MAP|SCENARIO --out FILE.tmx",
            ExportKind::Print => {
                "bataille print SCENARIO --out FILE.pdf --paper a4|letter --hex 16mm --counter 1/2in"
            }
        }
    }
}

/// The options of one export, as the command line has them.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportOptions {
    /// `VassalOptions::px_per_hex` and the module's version.
    Vassal { px_per_hex: u32, version: String },
    /// Whether the scenario's units go in an object layer (`--tiled SCENARIO` rather than MAP).
    Tiled { units: bool },
    /// `--paper`, `--hex`, `--counter` (millimetres).
    Print(PrintOptions),
}

impl ExportOptions {
    /// The command line's defaults.
    pub fn default_for(kind: ExportKind) -> ExportOptions {
        match kind {
            ExportKind::Vassal => {
                let d = VassalOptions::default();
                ExportOptions::Vassal {
                    px_per_hex: d.px_per_hex,
                    version: d.version,
                }
            }
            ExportKind::Tiled => ExportOptions::Tiled { units: true },
            ExportKind::Print => ExportOptions::Print(PrintOptions::default()),
        }
    }
}

/// What to export and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRequest {
    pub kind: ExportKind,
    pub options: ExportOptions,
    pub out: PathBuf,
}

/// A copy of the document for the job (the editor goes on while it runs).
#[derive(Debug, Clone)]
pub struct ExportInput {
    pub map: Map,
    pub scenario: Option<Scenario>,
    /// The map's scan, when the editor may read it (confined by the door, or chosen by the
    /// user: `Digitise::trusted_scan`); a scan a stranger's map names outside its root is
    /// never put into a module.
    pub scan: Option<PathBuf>,
}

impl ExportInput {
    /// The map's scan to export.
    fn scan(&self) -> Option<PathBuf> {
        self.map.background.as_ref()?;
        self.scan.clone()
    }
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportEnd {
    /// Written: what, for the toast.
    Written(String),
    /// Cancelled before anything was written.
    Cancelled,
}

impl ExportRequest {
    /// The destination's folder (absolute), remembered for the next export.
    pub fn folder(&self) -> Option<std::path::PathBuf> {
        let folder = self.out.parent().filter(|p| !p.as_os_str().is_empty())?;
        Some(bataille_schema::paths::absolute(folder))
    }
}

/// The largest file an export writes (a VASSAL module of a big scan is tens of MB).
const MAX_EXPORT_BYTES: u64 = 2 << 30;

/// The destination's folder, made when missing (the dialog says it will be), just before the
/// export is written, by the writer's own folder maker: refused, before any folder is made,
/// when it leads through a link outside its repository (as the command's outputs are).
fn make_folder(path: &Path) -> Result<(), String> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) => bataille_schema::files::create_output_folder(folder).map_err(|e| match e {
            bataille_schema::files::WriteError::Io { source, .. } => format!(
                "cannot create the folder {}: {source}",
                bataille_schema::source::display_path(folder)
            ),
            refused => refused.to_string(),
        }),
        None => Ok(()),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    make_folder(path)?;
    bataille_schema::files::write_atomic_bytes(path, bytes, MAX_EXPORT_BYTES)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Makes the export and writes it; `progress` takes a fraction and answers `false` once the
/// user has cancelled (then nothing is written). `Err` says what failed, for the error dialog.
pub fn run(
    request: &ExportRequest,
    input: &ExportInput,
    progress: &dyn Fn(f32) -> bool,
) -> Result<ExportEnd, String> {
    if !progress(0.05) {
        return Ok(ExportEnd::Cancelled);
    }
    let out = &request.out;
    // Refused before any work: a destination that is not a regular file (a FIFO would block
    // the writer, a folder or device is not an export).
    if let Ok(meta) = std::fs::metadata(out)
        && !meta.is_file()
    {
        return Err(format!(
            "{} is {}, not a file an export may replace: choose a file name",
            out.display(),
            bataille_schema::files::kind_of(&meta)
        ));
    }
    let scenario = || {
        input.scenario.as_ref().ok_or_else(|| {
            format!(
                "a {} is made of a scenario (its counters): open a scenario, not a map alone",
                request.kind.title()
            )
        })
    };
    let kib = |n: usize| (n / 1024).max(1);
    match &request.options {
        ExportOptions::Vassal {
            px_per_hex,
            version,
        } => {
            let options = VassalOptions {
                px_per_hex: *px_per_hex,
                version: version.clone(),
                scan: input.scan(),
            };
            let bytes = bataille_export::vassal::export(scenario()?, &input.map, &options)
                .map_err(|e| e.to_string())?;
            if !progress(0.9) {
                return Ok(ExportEnd::Cancelled);
            }
            write(out, &bytes)?;
            progress(1.0);
            Ok(ExportEnd::Written(format!(
                "VASSAL module {} ({} KiB)",
                out.display(),
                kib(bytes.len())
            )))
        }
        ExportOptions::Tiled { units } => {
            let scenario = if *units {
                input.scenario.as_ref()
            } else {
                None
            };
            let stem = bataille_export::tiled::stem_of(out);
            let files = bataille_export::tiled::export(
                &input.map,
                scenario,
                input.scan().as_deref(),
                &stem,
            )
            .map_err(|e| e.to_string())?;
            if !progress(0.9) {
                return Ok(ExportEnd::Cancelled);
            }
            // Each file through the atomic writer (a FIFO or folder at the destination is
            // refused, never opened: `TiledFiles::write` would block on a FIFO forever).
            write(out, files.tmx.as_bytes())?;
            let dir = out.parent().unwrap_or(Path::new("."));
            for (name, bytes) in &files.images {
                write(&dir.join(name), bytes)?;
            }
            progress(1.0);
            Ok(ExportEnd::Written(format!(
                "Tiled map {} and {} image(s) beside it",
                out.display(),
                files.images.len()
            )))
        }
        ExportOptions::Print(options) => {
            let kit = bataille_export::print::kit(scenario()?, &input.map, options)
                .map_err(|e| e.to_string())?;
            if !progress(0.9) {
                return Ok(ExportEnd::Cancelled);
            }
            write(out, &kit.pdf)?;
            progress(1.0);
            Ok(ExportEnd::Written(format!(
                "print-and-play kit {}: {}",
                out.display(),
                kit.summary()
            )))
        }
    }
}

/// The paper sizes offered, as `--paper` names them.
pub const PAPERS: [(Paper, &str); 2] = [(Paper::A4, "A4"), (Paper::Letter, "Letter")];
