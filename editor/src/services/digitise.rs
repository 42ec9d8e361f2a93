//! The digitising session: the scan in memory and on the GPU, the job decoding it, the
//! calibration and suggestion tools with their jobs, the click mode and the view options
//! (opacity, flicker, checked marks). The app owns one [`Digitise`] and lends it to the
//! digitise panel (`panels::digitise`) and the scan's map layer (`layers::scan`) at the root
//! split; it polls the jobs once a frame ([`Digitise::frame`]) and applies what a finished
//! import asks for. Nothing here writes the document: a new scan's background comes back as a
//! [`DigitiseChange`] for the app to apply as one undo step.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bataille_digitize::scan::ScanError;
use bataille_schema::map::Background;

use crate::map::scan::{LoadedScan, image_reference, import_scan, new_background, resolve_image};
use crate::model::digitise_change::DigitiseChange;
use crate::model::document::Document;
use crate::services::calibration::Calibration;
use crate::services::jobs::{Job, JobEnd};
use crate::services::print_refine::PrintRefine;
use crate::services::suggest::Suggest;

/// The tabs of the digitise panel (the menu opens them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Scan,
    Calibrate,
    Terrain,
    Hexsides,
    Check,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Scan,
        Tab::Calibrate,
        Tab::Terrain,
        Tab::Hexsides,
        Tab::Check,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Scan => "Scan",
            Tab::Calibrate => "Calibrate",
            Tab::Terrain => "Terrain",
            Tab::Hexsides => "Hexsides",
            Tab::Check => "Check",
        }
    }
}

/// What a primary click on the map does while digitising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The map tools have the clicks.
    Idle,
    /// Clicks add calibration points.
    Calibrate,
    /// Clicks mark sample hexes of the palette's terrain.
    SampleTerrain,
    /// Clicks mark sample hexsides.
    SampleHexside,
}

type ImportJob = Job<Result<LoadedScan, ScanError>>;

/// How an import ended, for the app to act on.
#[derive(Debug)]
pub enum ImportEnd {
    /// A new scan was imported: the map's background to set (one undo step; none when the map
    /// already had it), then fit the view.
    Imported(Option<DigitiseChange>),
    /// The scan could not be read: what went wrong.
    Failed(String),
}

/// The digitising state of the editor, shared by the digitise panel and the scan's map layer.
pub struct Digitise {
    /// The panel is shown.
    pub open: bool,
    pub tab: Tab,
    pub mode: Mode,
    /// The scan in memory and on the GPU.
    pub scan: Option<LoadedScan>,
    /// The map's `background.image` and map file the loaded scan answers to.
    loaded_for: Option<(String, Option<PathBuf>)>,
    pub import_job: Option<ImportJob>,
    /// The job imports a new scan (sets the background) rather than reopening the map's.
    import_is_new: bool,
    /// A map's scan that could not be loaded (not retried until the map changes).
    failed: Option<PathBuf>,
    /// The scans the editor may read (absolute, clean): the one the door confined for the
    /// document opened (a map's `background.image` inside its root) and those the user chose
    /// in the import dialog. A map from a stranger naming `/etc/passwd` or
    /// `../../secret.png` as its background is never read.
    trusted: BTreeSet<PathBuf>,
    /// The scan's opacity over the terrain (1: only the scan; 0: only the painted map).
    pub opacity: f32,
    pub show_scan: bool,
    pub calibration: Calibration,
    /// Refining the calibration on the printed grid lines.
    pub print_refine: PrintRefine,
    pub suggest: Suggest,
    /// Alternate scan and map every `flicker_ms`.
    pub flicker: bool,
    pub flicker_ms: u32,
    /// Mark checked hexes on the map.
    pub show_checked: bool,
    /// The panel was open last frame (opening it brings its page up in the right dock).
    was_open: bool,
    /// What a finished import has to say (a colour profile it does not apply), for the app to
    /// show once (a toast); the Scan tab keeps saying it while the scan is loaded.
    pub notes: Vec<String>,
}

impl Default for Digitise {
    fn default() -> Self {
        Self {
            open: false,
            tab: Tab::Scan,
            mode: Mode::Idle,
            scan: None,
            loaded_for: None,
            import_job: None,
            import_is_new: false,
            failed: None,
            notes: Vec::new(),
            trusted: BTreeSet::new(),
            opacity: 0.6,
            show_scan: true,
            calibration: Calibration::default(),
            print_refine: PrintRefine::default(),
            suggest: Suggest::default(),
            flicker: false,
            flicker_ms: 500,
            show_checked: true,
            was_open: false,
        }
    }
}

impl Digitise {
    /// Opens the panel on a tab (menu items); a click mode of another tab ends.
    pub fn open_on(&mut self, tab: Tab) {
        self.open = true;
        if self.tab != tab {
            self.mode = Mode::Idle;
        }
        self.tab = tab;
    }

    /// Shows or hides the panel; hiding it ends the click mode.
    pub fn set_open(&mut self, open: bool) {
        self.open = open;
        if !open {
            self.mode = Mode::Idle;
        }
    }

    /// Whether the panel was opened since the last call (its page then comes up in the dock).
    pub fn just_opened(&mut self) -> bool {
        let opened = self.open && !self.was_open;
        self.was_open = self.open;
        opened
    }

    /// The scan's opacity this frame (the flicker alternates 1 and 0), and whether the scan
    /// shows alone over the terrain (the flicker's scan phase hides the map's own symbols).
    pub fn scan_opacity(&self, time: f64) -> (f32, bool) {
        if !self.show_scan {
            return (0.0, false);
        }
        if self.flicker {
            let phase = (time * 1000.0 / f64::from(self.flicker_ms.max(50))) as u64 % 2;
            return if phase == 0 {
                (1.0, true)
            } else {
                (0.0, false)
            };
        }
        (self.opacity, false)
    }

    /// A new document: no scan is trusted until the door confines one or the user chooses one.
    pub fn forget_scans(&mut self) {
        self.trusted.clear();
    }

    /// The editor may read this scan (the door confined it, or the user chose it).
    pub fn trust_scan(&mut self, scan: Option<&Path>) {
        if let Some(scan) = scan {
            self.trusted.insert(scan_key(scan));
        }
    }

    /// Whether the editor may read this scan.
    pub fn is_trusted(&self, scan: &Path) -> bool {
        self.trusted.contains(&scan_key(scan))
    }

    /// The map's scan on disk, when the editor may read it (for exports).
    pub fn trusted_scan(&self, doc: &Document) -> Option<PathBuf> {
        let background = doc.map.background.as_ref()?;
        let path = resolve_image(&background.image, doc.map_path.as_deref());
        self.is_trusted(&path).then_some(path)
    }

    /// Whether a scan is loaded for the map's background (what the eyedropper and the
    /// classifications need).
    pub fn scan_ready(&self, doc: &Document) -> bool {
        self.scan.is_some() && doc.map.background.is_some()
    }

    /// A scan decoding: its progress, 0 to 1.
    pub fn loading(&self) -> Option<f32> {
        self.import_job.as_ref().map(Job::progress)
    }

    /// Per frame, before the panels: keeps the tools in step with the document, collects
    /// finished jobs, reloads the map's scan when the map names another, and asks for the
    /// repaints the jobs and the flicker need. Returns how an import ended, if one did.
    pub fn frame(&mut self, ctx: &egui::Context, doc: &Document) -> Option<ImportEnd> {
        let end = self.poll_import(doc);
        if end.is_none() {
            // Else the document is the one before the import's edit: next frame.
            self.follow_background(ctx, doc);
        }
        let grid = &doc.map.grid;
        self.calibration.sync(grid, doc.map.background.as_ref());
        self.suggest.sync(grid);
        self.suggest.poll();
        if self.import_job.is_some() || self.suggest.busy() || self.print_refine.busy() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if self.flicker && self.show_scan && self.scan.is_some() {
            ctx.request_repaint_after(Duration::from_millis(u64::from(self.flicker_ms.max(50))));
        }
        end
    }

    fn poll_import(&mut self, doc: &Document) -> Option<ImportEnd> {
        let end = self.import_job.as_mut().and_then(Job::poll)?;
        self.import_job = None;
        let message = match end {
            JobEnd::Done(Ok(loaded)) => {
                if let Some(note) = loaded.profile_note() {
                    self.notes.push(note);
                }
                let mut set = None;
                let is_new = self.import_is_new;
                let image = if self.import_is_new {
                    let image = image_reference(&loaded.path);
                    let before = doc.map.background.clone();
                    let after = match &before {
                        Some(b) => Background {
                            image: image.clone(),
                            ..b.clone()
                        },
                        None => new_background(
                            &doc.map.grid,
                            image.clone(),
                            loaded.width(),
                            loaded.height(),
                        ),
                    };
                    set = DigitiseChange::set_background(before, Some(after));
                    Some(image)
                } else {
                    doc.map.background.as_ref().map(|b| b.image.clone())
                };
                // The background the map has once the import's edit is applied.
                self.loaded_for = image.map(|image| (image, doc.map_path.clone()));
                self.failed = None;
                self.scan = Some(loaded);
                return is_new.then_some(ImportEnd::Imported(set));
            }
            JobEnd::Done(Err(ScanError::Cancelled)) => return None,
            JobEnd::Done(Err(error)) => error.to_string(),
            JobEnd::Failed(error) => error,
        };
        if !self.import_is_new {
            self.failed = doc
                .map
                .background
                .as_ref()
                .map(|b| resolve_image(&b.image, doc.map_path.as_deref()));
        }
        Some(ImportEnd::Failed(message))
    }

    /// Loads the map's scan when the map names one that is not loaded; drops the scan when
    /// the map has none.
    fn follow_background(&mut self, ctx: &egui::Context, doc: &Document) {
        if self.import_job.is_some() {
            return;
        }
        let Some(background) = &doc.map.background else {
            self.scan = None;
            self.loaded_for = None;
            return;
        };
        let key = (background.image.clone(), doc.map_path.clone());
        if self.loaded_for.as_ref() == Some(&key) {
            return;
        }
        let wanted = resolve_image(&background.image, doc.map_path.as_deref());
        let same_file = self.scan.as_ref().is_some_and(|s| {
            s.path == wanted
                || matches!(
                    (std::fs::canonicalize(&s.path), std::fs::canonicalize(&wanted)),
                    (Ok(a), Ok(b)) if a == b
                )
        });
        if same_file {
            self.loaded_for = Some(key);
            return;
        }
        if self.failed.as_ref() == Some(&wanted) {
            return;
        }
        if !self.is_trusted(&wanted) {
            // Named by a file, not confined by the door (absolute, outside the root): never
            // read. The door's E0210 said why when the map was opened.
            self.scan = None;
            self.failed = Some(wanted);
            return;
        }
        self.start_import(ctx, wanted, false);
    }

    /// Starts decoding a scan in the background: a new one for the map (`is_new`: its
    /// background is set when it is decoded, and the panel shows the Scan tab), or the map's.
    pub fn start_import(&mut self, ctx: &egui::Context, path: PathBuf, is_new: bool) {
        if let Some(job) = &self.import_job {
            job.cancel();
        }
        if is_new {
            // The user chose this file.
            self.trust_scan(Some(&path));
        } else if !self.is_trusted(&path) {
            return;
        }
        let side = crate::map::scan::tile_side(ctx);
        let job_ctx = ctx.clone();
        self.import_is_new = is_new;
        self.import_job = Some(Job::spawn("Importing the scan", ctx, move |progress| {
            import_scan(&job_ctx, &path, side, progress)
        }));
        if is_new {
            self.open = true;
            self.tab = Tab::Scan;
        }
    }
}

/// A scan's path as trusted: absolute and clean.
fn scan_key(path: &Path) -> PathBuf {
    bataille_schema::files::clean_path(&bataille_schema::paths::absolute(path))
}

/// Where the import dialog starts: the map's scan, or the map's folder.
pub fn import_start_path(doc: &Document) -> String {
    doc.map
        .background
        .as_ref()
        .map(|b| {
            resolve_image(&b.image, doc.map_path.as_deref())
                .display()
                .to_string()
        })
        .or_else(|| {
            doc.map_path
                .as_deref()
                .and_then(Path::parent)
                .map(|d| format!("{}/", d.display()))
        })
        .unwrap_or_default()
}
