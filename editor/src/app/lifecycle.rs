//! The file lifecycle: open (through the door, `services::door`), save, save as, save
//! elsewhere, recovery files and the unsaved-changes guard. File ▸ Export is in
//! `app/export_job.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::context::command::FileCommand;
use crate::model::document::{Document, NewMapSettings};
use crate::panels::file_safety::SafetyDialog;
use crate::services::door::{OpenRefused, OpenedDocument};
use crate::services::files::PickPurpose;

use crate::app::*;
use crate::services::jobs::{Job, JobEnd};
use crate::services::save::remove_if_present;
use crate::services::systems::Loaded;
use bataille_schema::Id;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Files.

    /// The error dialog, the one way a message reaches it: the title and the message are
    /// clipped ([`crate::services::files::dialog_text`]), as they may quote a file's text (a
    /// path, a parser's error, one repair note per row of a map), and the dialog must keep its
    /// OK button on the screen.
    pub(crate) fn show_error(&mut self, title: &str, message: String, hint: &str) {
        use crate::services::files::{MESSAGE_CHARS, clipped, dialog_text};
        self.ui.dialog = Some(Dialog::Error {
            title: clipped(title, MESSAGE_CHARS),
            message: dialog_text(&message),
            hint: hint.to_owned(),
        });
    }

    pub(crate) fn toast(&mut self, text: String) {
        self.ui.toasts.push(Toast {
            // A toast is a line or two: a message quoting a file's text whole is clipped.
            text: crate::services::files::clipped(&text, 4 * crate::services::files::MESSAGE_CHARS),
            until: self.own.time + 4.0,
        });
    }

    /// Opens a map or a scenario (with its map), replacing the document. Reports failure in an
    /// error dialog and keeps the current document. A file bigger than
    /// `EditorConfig::open_in_background_bytes` is read off the UI thread: a modal says how long
    /// it has taken, with Cancel ([`EditorApp::open_frame`]).
    pub fn open_path(&mut self, path: &Path) -> bool {
        let big = std::fs::metadata(path)
            .is_ok_and(|m| m.len() > self.own.config.open_in_background_bytes);
        if big {
            let owned = path.to_owned();
            let label = format!("Opening {}", path.display());
            let job = Job::spawn(&label, &self.own.egui_ctx, move |_| {
                crate::services::door::open_document(&owned)
            });
            self.services.opening = Some(Opening {
                path: path.to_owned(),
                revision: self.doc.revision(),
                job,
            });
            return true;
        }
        let result = crate::services::door::open_document(path);
        self.opened(path, result)
    }

    /// Cancel on the opening modal: the file being read is dropped, the document stays.
    pub fn cancel_open(&mut self) {
        if let Some(opening) = self.services.opening.take() {
            opening.job.cancel();
            self.toast(format!(
                "Opening {} cancelled: nothing changed",
                opening.path.display()
            ));
        }
    }

    /// Each frame: the file being read in the background, its modal (time taken, Cancel), and
    /// the document it gives once read. Edits made meanwhile are never dropped: the
    /// unsaved-changes question comes back first.
    pub(crate) fn open_frame(&mut self, ctx: &egui::Context) {
        let Some(opening) = &mut self.services.opening else {
            return;
        };
        let Some(end) = opening.job.poll() else {
            let text = format!(
                "{}… {:.0} s",
                opening.job.label,
                opening.job.elapsed().as_secs_f32()
            );
            if crate::panels::file_safety::opening_ui(ctx, &text) {
                self.cancel_open();
            }
            ctx.request_repaint_after(Duration::from_millis(100));
            return;
        };
        let Some(opening) = self.services.opening.take() else {
            return;
        };
        if self.doc.revision() != opening.revision && self.is_dirty() {
            self.ui.dialog = Some(self.guard_dialog(AppCommand::OpenPath(opening.path)));
            return;
        }
        match end {
            JobEnd::Done(result) => {
                self.opened(&opening.path, result);
            }
            JobEnd::Failed(error) => self.show_error(
                &format!("Could not open {}", opening.path.display()),
                error,
                "Nothing changed.",
            ),
        }
    }

    /// A file read: the document it holds replaces the current one, or its error is shown
    /// with its place. What the door alone found (a background scan refused) is shown once the
    /// document is open.
    fn opened(&mut self, path: &Path, result: Result<OpenedDocument, OpenRefused>) -> bool {
        match result {
            Ok(opened) => {
                self.remove_recovery();
                self.services.digitise.forget_scans();
                self.services.digitise.trust_scan(opened.scan.as_deref());
                self.replace_document(opened.doc, false);
                self.doc.disk = opened.disk;
                self.refresh_variants();
                self.ui.settings.add_recent(path);
                self.save_settings();
                if !opened.notes.is_empty() {
                    self.mark_saved(false);
                    self.show_error(
                        "The map was repaired",
                        opened.notes.join("\n"),
                        "Check the edges of the map, then save to keep the repair.",
                    );
                } else {
                    self.toast(format!("Opened {}", self.doc.display_name()));
                }
                if !opened.warnings.is_empty() {
                    self.services
                        .io_errors
                        .extend(opened.warnings.iter().cloned());
                    if self.no_modal_open() {
                        self.show_error(
                            "The map's background scan was not read",
                            opened.warnings.join("\n"),
                            "A map's scan must be inside its repository, named relative to the \
                             map's folder. Import the scan from Digitise › Scan if you trust it.",
                        );
                    }
                }
                true
            }
            Err(error) => {
                self.show_error(
                    &format!("Could not open {}", path.display()),
                    error.message,
                    error.hint,
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
    /// scenario to the path and the map to its own file (each only when it changed). A save
    /// that would write over a file of another kind, or one file for both, is refused; one that
    /// would overwrite a file changed on disk asks first. Returns whether it was saved.
    pub fn save_to(&mut self, path: &Path) -> bool {
        self.save_checked(path, None, false)
    }

    /// [`EditorApp::save_to`], then `then` once saved; `overwrite`: the user agreed to overwrite
    /// files changed on disk.
    pub(crate) fn save_checked(
        &mut self,
        path: &Path,
        then: Option<Command>,
        overwrite: bool,
    ) -> bool {
        self.close_undo_group();
        let plan = crate::services::save::plan_save(&self.doc, path);
        self.save_planned(path, plan, then, overwrite)
    }

    /// Writes a save worked out by `plan_save*` (see [`EditorApp::save_checked`]).
    fn save_planned(
        &mut self,
        path: &Path,
        plan: std::io::Result<crate::services::save::Plan>,
        then: Option<Command>,
        overwrite: bool,
    ) -> bool {
        self.close_undo_group();
        let old_recovery = self.recovery_path();
        let result = plan.and_then(|plan| {
            let changed = crate::services::safety::changed_on_disk(&plan.targets, &self.doc.disk);
            if !overwrite && !changed.is_empty() {
                return Ok(Err(changed));
            }
            let stamps = crate::services::save::write_plan(&plan)?;
            Ok(Ok((plan.saved, stamps)))
        });
        match result {
            Ok(Err(files)) => {
                let replace = std::fs::symlink_metadata(path).is_ok();
                self.ui.dialog = Some(Dialog::Safety(Box::new(SafetyDialog::ChangedOnDisk {
                    files,
                    path: path.to_owned(),
                    then: then.map(Box::new),
                    replace,
                })));
                false
            }
            Ok(Ok((saved, stamps))) => {
                let unwritten = saved.unwritten;
                self.relocate(saved.map_path, saved.scenario);
                self.doc.disk = stamps;
                self.refresh_variants();
                if !unwritten.is_empty() {
                    // An opened variant's edits its file cannot hold: written as far as it
                    // can, the rest kept here, unsaved, and said (issue 25).
                    return self.variant_partly_saved(path, &unwritten);
                }
                self.mark_saved(true);
                if let Some(old) = old_recovery {
                    self.report_io("remove the old recovery file", remove_if_present(&old));
                }
                self.remove_recovery();
                self.ui.settings.add_recent(path);
                self.save_settings();
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                self.toast(format!("Saved {name}"));
                // A map saved far from its scan (another repository) would lose it at the next
                // open, silently (issue 26): said now, while the scan is still at hand.
                let lost_scan = self.doc.map_path.as_deref().and_then(|map_file| {
                    crate::services::save::scan_left_outside(&self.doc.map, map_file)
                });
                if let Some(why) = lost_scan {
                    self.show_error(
                        &format!("Saved {name}, but its scan will not be read when it is opened"),
                        why,
                        "Copy the scan into the map's folder or repository and import it \
                         again, or save the map inside the scan's repository.",
                    );
                }
                if let Some(then) = then {
                    self.own.guard_passed = true;
                    self.own.commands.send(then);
                }
                true
            }
            Err(error) => {
                let what = if error.kind() == std::io::ErrorKind::InvalidInput {
                    // The scenario's `map` would leave its root (issue 10), not a folder error.
                    "Use File › Save As with a place under that root."
                } else if error.kind() == std::io::ErrorKind::AlreadyExists {
                    // A file the save must not replace is there (issue 26).
                    "Use File › Save As and choose another name."
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

    /// A variant saved without some of its edits, which a variant cannot hold: the document
    /// stays unsaved (the close guard still asks) and the dialog names what was not written.
    fn variant_partly_saved(&mut self, path: &Path, unwritten: &[&str]) -> bool {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        self.show_error(
            &format!("Saved {name}, but a variant cannot hold all of these edits"),
            format!(
                "Not written: {}. A variant changes its base's units, leaders, zones, victory \
                 conditions, turns and rule switches by id; the rest stays the base's when the \
                 variant is opened again.",
                unwritten.join(", ")
            ),
            "Undo these edits here and make them in the base scenario (File › Open base \
             scenario); they are still in this window, unsaved.",
        );
        false
    }

    /// Save As chose `path`: refused at once when the save may not write there; asked first
    /// when a file is there; else saved (then `then`).
    pub(crate) fn save_as_chosen(&mut self, path: &Path, then: Option<Command>) {
        if std::fs::symlink_metadata(path).is_err() {
            self.save_checked(path, then, false);
            return;
        }
        if crate::services::save::plan_save(&self.doc, path).is_err() {
            // Refused with its reason, as the save itself says it.
            self.save_checked(path, then, false);
            return;
        }
        self.ui.dialog = Some(Dialog::Safety(Box::new(SafetyDialog::Replace {
            path: path.to_owned(),
            then: then.map(Box::new),
        })));
    }

    /// What a file-safety dialog chose.
    pub(crate) fn file_command(&mut self, command: FileCommand) {
        match command {
            FileCommand::SaveTo {
                path,
                then,
                overwrite,
                ..
            } => {
                self.save_checked(&path, then.map(|t| *t), overwrite);
            }
            FileCommand::SaveElsewhere { then } => {
                self.open_path_dialog(PickPurpose::SaveElsewhere, then.map(|t| *t));
            }
            FileCommand::Reload => {
                if let Some(path) = self.doc.document_path().map(Path::to_owned) {
                    self.open_path(&path);
                }
            }
        }
    }

    pub(crate) fn open_path_dialog(&mut self, purpose: PickPurpose, then: Option<Command>) {
        let start = self.doc.document_path().map(Path::to_owned).or_else(|| {
            let name = format!("{}.ron", file_stem_of(&self.doc.map.name));
            crate::panels::file_dialog::start_for_unsaved(
                &self.doc,
                &self.ui.settings.recent,
                &name,
            )
        });
        let dialog = crate::panels::file_dialog::FileDialog::new(
            purpose,
            start.as_deref(),
            &format!("{}.ron", file_stem_of(&self.doc.map.name)),
        );
        self.ui.dialog = Some(Dialog::Path {
            dialog: Box::new(dialog),
            then,
        });
    }

    pub(crate) fn save_settings(&mut self) {
        self.ui.settings.show_hex_names = self.ui.view.layers.hex_names;
        self.ui.settings.table = self.ui.table.settings();
        let saved = self.ui.settings.save(self.own.config.config_dir.as_deref());
        self.report_io("save the editor's settings", saved);
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // Quitting through the guard's Discard leaves the document dirty: its changes go too.
        if !self.is_dirty() || self.own.allow_close {
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

/// A file being read off the UI thread (`EditorApp::open_path`).
pub struct Opening {
    pub path: PathBuf,
    /// The document's revision when it started: an edit made meanwhile is not dropped.
    revision: u64,
    job: Job<Result<OpenedDocument, OpenRefused>>,
}

impl EditorApp {
    /// Starts a scenario for the map being edited: the dialog asking its title, date, rules and
    /// file. The scenario names the map's file: a map never saved is saved first (the file
    /// dialog), then the scenario's dialog follows.
    pub(crate) fn new_scenario_for_map(&mut self) {
        if self.doc.scenario.is_some() {
            return;
        }
        let Some(map_path) = self.doc.map_path.clone() else {
            self.open_path_dialog(PickPurpose::Save, Some(UiCommand::NewScenario.into()));
            return;
        };
        let form = crate::panels::new_scenario::NewScenarioForm::new(&map_path, &self.doc.map.name);
        self.ui.dialog = Some(Dialog::NewScenario(Box::new(form)));
    }

    // -----------------------------------------------------------------------------------------
    // Miniatures systems and the table overlay.

    /// The systems the open scenario names, loaded (empty without a scenario).
    pub fn scenario_systems(&mut self) -> Vec<(Id, Loaded)> {
        match &self.doc.scenario {
            Some(file) => self.services.systems.systems_of(&file.path, &file.scenario),
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
        let same = loaded.len() == self.services.systems.synced.len()
            && loaded
                .iter()
                .zip(&self.services.systems.synced)
                .all(|(a, b)| {
                    std::sync::Arc::ptr_eq(a, b)
                        || matches!((&**a, &**b), (Err(x), Err(y)) if x == y)
                });
        if same {
            return;
        }
        let systems: Vec<bataille_schema::System> = loaded
            .iter()
            .filter_map(|l| l.as_ref().as_ref().ok().cloned())
            .collect();
        self.services.systems.synced = loaded;
        self.services.diagnostics.live.systems = std::sync::Arc::new(systems);
        self.own.validation_due = true;
    }

    /// View ▸ Table overlay.
    pub(crate) fn toggle_table_overlay(&mut self) {
        self.ui.table.shown = !self.ui.table.shown;
        if self.ui.table.shown && self.doc.scenario.is_none() {
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
            PickPurpose::Save => self.save_as_chosen(path, then),
            PickPurpose::SaveElsewhere => self.save_elsewhere_chosen(path, then),
            PickPurpose::SaveVariant => self.save_as_variant_chosen(path),
            PickPurpose::NewVariant => self.new_variant_chosen(path),
        }
    }

    /// Save elsewhere chose `path` (the changed-on-disk question's "keep both"). A map alone
    /// is saved there as Save As does. A scenario goes there with its map beside it
    /// (`<name>-map.ron`, a free name), so neither file that changed on disk is written over;
    /// a file already at `path` is never replaced (keeping both is the point).
    pub(crate) fn save_elsewhere_chosen(&mut self, path: &Path, then: Option<Command>) {
        if self.doc.scenario.is_none() {
            self.save_as_chosen(path, then);
            return;
        }
        if std::fs::symlink_metadata(path).is_ok() {
            self.show_error(
                &format!("Could not save {}", path.display()),
                format!(
                    "{} already exists: Save elsewhere keeps both versions, so it never \
                     replaces a file.",
                    path.display()
                ),
                "Use Save elsewhere again with a new name. Your changes are still here.",
            );
            return;
        }
        let map_to = crate::services::save::map_beside(path);
        self.save_planned(
            path,
            crate::services::save::plan_save_moving(&self.doc, path, Some(&map_to)),
            then,
            false,
        );
    }

    /// The path dialog's Browse…: the desktop's chooser, starting at what was typed; a path
    /// chosen there is used as if typed and confirmed.
    pub(crate) fn browse(&mut self) {
        let Some(Dialog::Path { dialog, then }) = &self.ui.dialog else {
            return;
        };
        let (purpose, then) = (dialog.purpose, then.clone());
        let start = crate::panels::dialogs::typed_path(dialog);
        if let Some(path) = self.own.config.picker.pick(purpose, Some(&start)) {
            self.ui.dialog = None;
            self.path_chosen(purpose, &path, then);
        }
    }

    /// The new-map dialog's Create: a new document with its legend (the unsaved changes were
    /// saved or discarded before the dialog opened).
    pub(crate) fn create_map(&mut self, settings: &NewMapSettings) {
        self.remove_recovery();
        match crate::model::templates::legend(&settings.legend, crate::services::door::open_map) {
            Ok(legend) => {
                let mut doc = Document::new_map(settings);
                if let Some(legend) = legend {
                    legend.apply_to(&mut doc.map);
                }
                self.services.digitise.forget_scans();
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
