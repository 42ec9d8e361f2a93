//! The file lifecycle: open, save, save as, recovery files, the unsaved-changes guard, and
//! File ▸ Export: the command opens the export dialog; Export copies the document (as it is in
//! memory, unsaved changes included) into a background job; its progress shows in a corner with
//! Cancel (`panels::export::progress_corner`); its end is a toast, and a failure also an error
//! dialog and a line in `io_errors` — never dropped silently.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bataille_schema::LoadError;
use bataille_schema::io::{DocumentKind, read_source, sniff_kind};

use crate::model::document::{Document, NewMapSettings, ScenarioFile};
use crate::services::files::{
    PickPurpose, Recovery, format_time, read_recovery, recovery_file_name, unix_now, write_recovery,
};

use crate::app::*;
use crate::panels::export::ExportForm;
use crate::services::export::{ExportEnd, ExportInput, ExportKind, ExportRequest};
use crate::services::jobs::{Job, JobEnd};
use crate::services::save::remove_if_present;
use crate::services::systems::Loaded;
use bataille_schema::Id;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Files.

    pub(crate) fn show_error(&mut self, title: &str, message: String, hint: &str) {
        self.dialog = Some(Dialog::Error {
            title: title.to_owned(),
            message,
            hint: hint.to_owned(),
        });
    }

    pub(crate) fn toast(&mut self, text: String) {
        self.toasts.push(Toast {
            text,
            until: self.time + 4.0,
        });
    }

    /// Opens a map or a scenario (with its map), replacing the document. Reports failure in an
    /// error dialog and keeps the current document.
    pub fn open_path(&mut self, path: &Path) -> bool {
        match load_document(path) {
            Ok((doc, notes)) => {
                self.remove_recovery();
                self.replace_document(doc, false);
                self.settings.add_recent(path);
                self.save_settings();
                if !notes.is_empty() {
                    self.history.mark_unsaved();
                    self.show_error(
                        "The map was repaired",
                        notes.join("\n"),
                        "Check the edges of the map, then save to keep the repair.",
                    );
                } else {
                    self.toast(format!("Opened {}", self.doc.display_name()));
                }
                true
            }
            Err(error) => {
                let hint = match &error {
                    LoadError::Io { .. } => {
                        "Check that the path is right and that you may read the file."
                    }
                    LoadError::TooLarge { .. } => "This is not a Bataille file.",
                    LoadError::NewerVersion { .. } => {
                        "The file was written by a newer Bataille: update the editor."
                    }
                    LoadError::Map { .. } => {
                        "Fix the scenario's `map` path or the map file, then open it again."
                    }
                    _ => {
                        "Fix the file at that line and column in a text editor, then open it again."
                    }
                };
                self.show_error(
                    &format!("Could not open {}", path.display()),
                    error.to_string(),
                    hint,
                );
                false
            }
        }
    }

    /// Saves the map to its file (Save As when it has none). Returns whether it was saved.
    pub fn save(&mut self) -> bool {
        match self.doc.document_path().map(Path::to_owned) {
            Some(path) => self.save_to(&path),
            None => {
                self.open_path_dialog(PickPurpose::Save, None);
                false
            }
        }
    }

    /// Saves the map to a path (atomically, in canonical form); with a scenario open, saves the
    /// scenario to the path and the map to its own file (each only when it changed).
    pub fn save_to(&mut self, path: &Path) -> bool {
        self.history.end_group();
        let old_recovery = self.recovery_path();
        let result = crate::services::save::save_document(&self.doc, path);
        match result {
            Ok(saved) => {
                self.relocate(saved.map_path, saved.scenario);
                self.history.mark_saved();
                if let Some(old) = old_recovery {
                    self.report_io("remove the old recovery file", remove_if_present(&old));
                }
                self.remove_recovery();
                self.settings.add_recent(path);
                self.save_settings();
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                self.toast(format!("Saved {name}"));
                true
            }
            Err(error) => {
                let what = if error.kind() == std::io::ErrorKind::InvalidInput {
                    // The scenario's `map` would leave its root (issue 10), not a folder error.
                    "Use File › Save As with a place under that root."
                } else {
                    "Check that the folder exists and that you may write there, or use \
                     File › Save As to save elsewhere."
                };
                let kept = self.is_dirty().then_some(" Your changes are still here.");
                let hint = format!("{what}{}", kept.unwrap_or_default());
                self.show_error(
                    &format!("Could not save {}", path.display()),
                    error.to_string(),
                    &hint,
                );
                false
            }
        }
    }

    pub(crate) fn open_path_dialog(&mut self, purpose: PickPurpose, then: Option<Command>) {
        let start = self.doc.document_path().map(Path::to_owned);
        let dialog = crate::panels::file_dialog::FileDialog::new(
            purpose,
            start.as_deref(),
            &format!("{}.ron", file_stem_of(&self.doc.map.name)),
        );
        self.dialog = Some(Dialog::Path {
            dialog: Box::new(dialog),
            then,
        });
    }

    pub(crate) fn save_settings(&mut self) {
        self.settings.show_hex_names = self.view.layers.hex_names;
        self.settings.table = self.table.settings();
        let saved = self.settings.save(self.config.config_dir.as_deref());
        self.report_io("save the editor's settings", saved);
    }

    // -----------------------------------------------------------------------------------------
    // Recovery.

    /// The recovery file of the current document.
    pub fn recovery_path(&self) -> Option<PathBuf> {
        let dir = self.config.recovery_dir.as_ref()?;
        Some(dir.join(recovery_file_name(self.doc.document_path())))
    }

    /// Writes the recovery file now (when there are unsaved changes).
    pub fn write_recovery(&mut self) -> bool {
        match self.recovery_snapshot() {
            Some((path, recovery)) => {
                self.finish_recovery_writer();
                let written = write_recovery(&path, &recovery);
                let ok = written.is_ok();
                self.report_io("write the recovery file", written);
                ok
            }
            None => false,
        }
    }

    /// What a recovery file would hold now, and where it goes (`None` when not needed).
    fn recovery_snapshot(&mut self) -> Option<(PathBuf, Recovery)> {
        let path = self.recovery_path()?;
        if !self.is_dirty() {
            return None;
        }
        let recovery = Recovery {
            written_at: unix_now(),
            map_path: self.doc.map_path.clone(),
            scenario_path: self.doc.scenario.as_ref().map(|s| s.path.clone()),
            map: self.doc.map.clone(),
            scenario: self.doc.scenario.as_ref().map(|s| s.scenario.clone()),
        };
        self.recovery_written_at = Some(Instant::now());
        self.recovery_edits = self.history.committed();
        Some((path, recovery))
    }

    /// Writes the recovery file on a background thread, so a big map never stalls a frame.
    fn write_recovery_in_background(&mut self) {
        if self
            .recovery_writer
            .as_ref()
            .is_some_and(|w| !w.is_finished())
        {
            return; // The next trigger will catch up.
        }
        self.finish_recovery_writer();
        if let Some((path, recovery)) = self.recovery_snapshot() {
            let spawned = std::thread::Builder::new()
                .name("recovery-writer".into())
                .spawn(move || write_recovery(&path, &recovery));
            match spawned {
                Ok(writer) => self.recovery_writer = Some(writer),
                Err(error) => self.report_io("start the recovery writer", Err(error)),
            }
        }
    }

    /// Waits for a background recovery write to finish, and reports its failure.
    pub fn finish_recovery_writer(&mut self) {
        if let Some(writer) = self.recovery_writer.take() {
            let result = writer
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the writer thread stopped")));
            self.report_io("write the recovery file", result);
        }
    }

    /// Collects a background recovery write that has finished (each frame).
    pub(crate) fn poll_recovery_writer(&mut self) {
        if self
            .recovery_writer
            .as_ref()
            .is_some_and(std::thread::JoinHandle::is_finished)
        {
            self.finish_recovery_writer();
        }
    }

    /// Shows a failed file operation in a toast (the editor goes on); the last one is kept for
    /// tests in `io_errors`.
    pub(crate) fn report_io(&mut self, what: &str, result: std::io::Result<()>) {
        if let Err(error) = result {
            let text = format!("Could not {what}: {error}");
            self.io_errors.push(text.clone());
            self.toast(text);
        }
    }

    pub(crate) fn maybe_write_recovery(&mut self, timer: bool) {
        if !self.is_dirty() {
            return;
        }
        let by_edits =
            self.history.committed() >= self.recovery_edits + self.config.recovery_every_edits;
        let by_time = timer
            && self.last_edit_at.is_some_and(|edit| {
                self.recovery_written_at.is_none_or(|w| w < edit)
                    && edit.elapsed() >= Duration::ZERO
                    && self
                        .recovery_written_at
                        .is_none_or(|w| w.elapsed() >= self.config.recovery_interval)
            });
        if by_edits || by_time {
            self.write_recovery_in_background();
        }
    }

    pub(crate) fn remove_recovery(&mut self) {
        self.finish_recovery_writer();
        if let Some(path) = self.recovery_path() {
            self.report_io("remove the recovery file", remove_if_present(&path));
        }
    }

    /// Restores a recovery file as the document (with unsaved changes).
    pub fn restore(&mut self, file: &Path) -> bool {
        let recovery = match read_recovery(file) {
            Ok(r) => r,
            Err(e) => {
                self.show_error(
                    "Could not read the recovery file",
                    format!("{}: {e}", file.display()),
                    "The file is damaged; discard it.",
                );
                return false;
            }
        };
        let (mut doc, _) = Document::from_map(recovery.map, recovery.map_path);
        if let Some(path) = &recovery.scenario_path {
            let scenario = match recovery.scenario.clone() {
                Some(scenario) => Some(scenario),
                None => {
                    match read_source(path).and_then(|s| bataille_schema::io::parse_scenario(&s)) {
                        Ok(scenario) => Some(scenario),
                        Err(error) => {
                            self.io_errors.push(error.to_string());
                            self.toast(format!(
                                "The map was recovered without its scenario: {error}"
                            ));
                            None
                        }
                    }
                }
            };
            if let Some(scenario) = scenario {
                doc.scenario = Some(ScenarioFile {
                    scenario,
                    path: path.clone(),
                });
            }
        }
        self.replace_document(doc, true);
        self.report_io("remove the recovery file", remove_if_present(file));
        self.write_recovery();
        self.toast(format!(
            "Recovered unsaved changes from {}",
            format_time(recovery.written_at)
        ));
        true
    }
}

/// Reads a map, or a scenario and its map, into a document; with notes on repairs made.
pub fn load_document(path: &Path) -> Result<(Document, Vec<String>), LoadError> {
    let source = read_source(path)?;
    match sniff_kind(&source)? {
        DocumentKind::Map => {
            // The schema refuses a grid beyond its limit as it reads (E0121).
            let map = bataille_schema::io::parse_map(&source)?;
            Ok(Document::from_map(map, Some(path.to_owned())))
        }
        DocumentKind::Scenario => {
            let loaded = bataille_schema::load_scenario(path)?;
            let map_path = loaded.map.source.path.clone();
            let (mut doc, notes) = Document::from_map(loaded.map.map, Some(map_path));
            doc.scenario = Some(ScenarioFile {
                scenario: loaded.scenario,
                path: path.to_owned(),
            });
            Ok((doc, notes))
        }
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // Quitting through the guard's Discard leaves the document dirty: its changes go too.
        if !self.is_dirty() || self.allow_close {
            self.remove_recovery();
        } else {
            self.write_recovery();
        }
        self.save_settings();
    }
}

/// A file name made from a title ("Denain 1712" → "denain-1712").
pub fn file_stem_of(title: &str) -> String {
    let stem = bataille_schema::ids::id_from_name(title);
    if stem.is_empty() {
        "map".to_owned()
    } else {
        stem
    }
}

/// The export running, if any, and what it writes.
#[derive(Default)]
pub struct Exports {
    pub job: Option<(ExportRequest, Job<Result<ExportEnd, String>>)>,
    /// How the last export ended (for tests): `Ok` with the toast's text, or the error.
    pub last: Option<Result<String, String>>,
}

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // File ▸ Export: the dialog, the job, its end reported (never dropped silently).

    /// File ▸ Export ▸ …: opens the dialog for `kind`.
    pub(crate) fn open_export(&mut self, kind: ExportKind) {
        let stem = crate::app::lifecycle::file_stem_of(
            &self
                .doc
                .scenario
                .as_ref()
                .map_or_else(|| self.doc.map.name.clone(), |s| s.scenario.title.clone()),
        );
        let form = ExportForm::new(
            kind,
            self.doc.document_path(),
            &stem,
            self.doc.scenario.is_some(),
        );
        self.dialog = Some(Dialog::Export(Box::new(form)));
    }

    /// Starts an export of the document as it is now.
    pub fn start_export(&mut self, request: ExportRequest) {
        if self.exports.job.is_some() {
            self.toast("An export is already running: wait for it or cancel it.".into());
            return;
        }
        let map_dir = self
            .doc
            .map_path
            .as_deref()
            .and_then(std::path::Path::parent)
            .map_or_else(|| PathBuf::from("."), std::path::Path::to_owned);
        let input = ExportInput {
            map: self.doc.map.clone(),
            scenario: self.doc.scenario.as_ref().map(|s| s.scenario.clone()),
            map_dir,
        };
        let label = format!("Exporting the {}", request.kind.title());
        let job_request = request.clone();
        let job = Job::spawn(&label, &self.egui_ctx, move |progress| {
            crate::services::export::run(&job_request, &input, progress)
        });
        self.exports.job = Some((request, job));
    }

    /// Each frame: the running export's progress (with Cancel), and its end reported.
    pub(crate) fn export_frame(&mut self, ctx: &egui::Context) {
        let Some((request, job)) = &mut self.exports.job else {
            return;
        };
        let end = job.poll();
        let Some(end) = end else {
            let text = if job.is_cancelled() {
                format!("{}: cancelling…", job.label)
            } else {
                format!("{} to {}…", job.label, request.out.display())
            };
            if crate::panels::export::progress_corner(ctx, &text) {
                job.cancel();
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let what = request.kind.title();
        let out = request.out.clone();
        self.exports.job = None;
        let result = match end {
            JobEnd::Done(Ok(ExportEnd::Written(text))) => Ok(format!("Exported the {text}")),
            JobEnd::Done(Ok(ExportEnd::Cancelled)) => Ok(format!(
                "Export cancelled: {} was not written",
                out.display()
            )),
            JobEnd::Done(Err(error)) | JobEnd::Failed(error) => Err(error),
        };
        match &result {
            Ok(text) => self.toast(text.clone()),
            Err(error) => {
                let text = format!("Could not export the {what} to {}: {error}", out.display());
                self.io_errors.push(text.clone());
                self.toast(text);
                if self.no_modal_open() {
                    self.show_error(
                        &format!("Could not export the {what}"),
                        error.clone(),
                        "Nothing was written. Check the destination folder and the options, \
                         then export again (File › Export).",
                    );
                }
            }
        }
        self.exports.last = Some(result);
    }

    /// Starts a scenario for the map being edited: the dialog asking its title, date, rules and
    /// file. The scenario names the map's file: a map never saved is saved first (the file
    /// dialog), then the scenario's dialog follows.
    pub(crate) fn new_scenario_for_map(&mut self) {
        if self.doc.scenario.is_some() {
            return;
        }
        let Some(map_path) = self.doc.map_path.clone() else {
            self.open_path_dialog(PickPurpose::Save, Some(Command::NewScenario));
            return;
        };
        let form = crate::panels::new_scenario::NewScenarioForm::new(&map_path, &self.doc.map.name);
        self.dialog = Some(Dialog::NewScenario(Box::new(form)));
    }

    // -----------------------------------------------------------------------------------------
    // Miniatures systems and the table overlay.

    /// The systems the open scenario names, loaded (empty without a scenario).
    pub fn scenario_systems(&mut self) -> Vec<(Id, Loaded)> {
        match &self.doc.scenario {
            Some(file) => self.systems.systems_of(&file.path, &file.scenario),
            None => Vec::new(),
        }
    }

    /// Gives the live validator the systems the scenario names (checked again when one is
    /// loaded, reloaded or no longer named), so the `miniatures` checks run in the editor.
    pub(crate) fn sync_validation_systems(&mut self) {
        let loaded: Vec<Loaded> = self
            .scenario_systems()
            .into_iter()
            .map(|(_, loaded)| loaded)
            .collect();
        let same = loaded.len() == self.systems.synced.len()
            && loaded.iter().zip(&self.systems.synced).all(|(a, b)| {
                std::sync::Arc::ptr_eq(a, b) || matches!((&**a, &**b), (Err(x), Err(y)) if x == y)
            });
        if same {
            return;
        }
        let systems: Vec<bataille_schema::System> = loaded
            .iter()
            .filter_map(|l| l.as_ref().as_ref().ok().cloned())
            .collect();
        self.systems.synced = loaded;
        self.diagnostics.live.systems = std::sync::Arc::new(systems);
        self.validation_due = true;
    }

    /// View ▸ Table overlay.
    pub(crate) fn toggle_table_overlay(&mut self) {
        self.table.shown = !self.table.shown;
        if self.table.shown && self.doc.scenario.is_none() {
            self.toast(
                "The table overlay lays a scenario's units out: open a scenario with \
                 `miniatures` systems."
                    .into(),
            );
        }
    }

    // -----------------------------------------------------------------------------------------
    // What the dialogs chose.

    /// The path dialog's choice: open the file, or save there and run what waited for it.
    pub(crate) fn path_chosen(&mut self, purpose: PickPurpose, path: &Path, then: Option<Command>) {
        match purpose {
            PickPurpose::Open => {
                self.open_path(path);
            }
            PickPurpose::Save => {
                if self.save_to(path)
                    && let Some(then) = then
                {
                    self.guard_passed = true;
                    self.commands.send(then);
                }
            }
        }
    }

    /// The path dialog's Browse…: the desktop's chooser, starting at what was typed; a path
    /// chosen there is used as if typed and confirmed.
    pub(crate) fn browse(&mut self) {
        let Some(Dialog::Path { dialog, then }) = &self.dialog else {
            return;
        };
        let (purpose, then) = (dialog.purpose, then.clone());
        let start = crate::panels::dialogs::typed_path(dialog);
        if let Some(path) = self.config.picker.pick(purpose, Some(&start)) {
            self.dialog = None;
            self.path_chosen(purpose, &path, then);
        }
    }

    /// The new-map dialog's Create: a new document with its legend (the unsaved changes were
    /// saved or discarded before the dialog opened).
    pub(crate) fn create_map(&mut self, settings: &NewMapSettings) {
        self.remove_recovery();
        match crate::model::templates::legend(&settings.legend) {
            Ok(legend) => {
                let mut doc = Document::new_map(settings);
                if let Some(legend) = legend {
                    legend.apply_to(&mut doc.map);
                }
                self.replace_document(doc, false);
            }
            Err(error) => self.show_error(
                "Could not read the legend",
                error,
                "Choose another map file, or a bundled legend.",
            ),
        }
    }
}
