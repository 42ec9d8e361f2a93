//! The editor application: owns the document, the undo history, the map view and the tools;
//! turns menu items, shortcuts and tool output into actions and commands, applied in one place
//! (`apply_change`), which records undo, marks the view dirty and re-runs validation. Also the
//! file lifecycle: open, save, save as, the unsaved-changes guard, recovery and recent files.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bataille_schema::io::{DocumentKind, read_source, sniff_kind};
use bataille_schema::{HexIndex, LoadError};
use egui::{Key, KeyboardShortcut, Modifiers, ViewportCommand};

use crate::commands::{Change, History};
use crate::diagnostics::DiagnosticsPanel;
use crate::document::{Document, NewMapSettings, ScenarioFile, Touched};
use crate::files::{
    FilePicker, FoundRecovery, PickPurpose, Recovery, ScriptedPicker, Settings, SystemPicker,
    find_recoveries, format_time, read_recovery, recovery_file_name, unix_now, write_recovery,
};
use crate::legend::LegendEditor;
use crate::map_settings::{MapSettingsDialog, SettingsOutcome, new_map_ui};
use crate::map_view::MapView;
use crate::tools::{MAX_BRUSH_RADIUS, StrokeKind, Tool, ToolOutput, ToolState};

/// Where the editor keeps its files and how it asks for paths.
pub struct EditorConfig {
    /// Settings and recent files; `None` remembers nothing.
    pub config_dir: Option<PathBuf>,
    /// Recovery files; `None` writes none.
    pub recovery_dir: Option<PathBuf>,
    /// The system file chooser.
    pub picker: Box<dyn FilePicker>,
    /// A recovery file is written after this many edits…
    pub recovery_every_edits: u64,
    /// …or this long after the last one while there are unsaved changes.
    pub recovery_interval: Duration,
}

impl EditorConfig {
    /// The user's directories and the desktop's file chooser.
    pub fn from_environment() -> EditorConfig {
        EditorConfig {
            config_dir: crate::files::default_config_dir(),
            recovery_dir: crate::files::default_recovery_dir(),
            picker: Box::new(SystemPicker::detect()),
            recovery_every_edits: 20,
            recovery_interval: Duration::from_secs(30),
        }
    }

    /// Everything under one directory and a scripted picker (for tests).
    pub fn isolated(dir: &Path) -> EditorConfig {
        EditorConfig {
            config_dir: Some(dir.join("config")),
            recovery_dir: Some(dir.join("recovery")),
            picker: Box::new(ScriptedPicker::default()),
            recovery_every_edits: 20,
            recovery_interval: Duration::from_secs(30),
        }
    }
}

/// Something the user asked for, from a menu, a button or a shortcut.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    NewMap,
    Open,
    OpenPath(PathBuf),
    Save,
    SaveAs,
    SaveAsPath(PathBuf),
    Quit,
    Undo,
    Redo,
    FitMap,
    Zoom100,
    ZoomIn,
    ZoomOut,
    ToggleHexNames,
    Tool(Tool),
    BrushBigger,
    BrushSmaller,
    MapSettings,
    Legend,
    ToggleLeftDock,
    ToggleRightDock,
    ToggleDiagnostics,
    NextDiagnostic,
    PreviousDiagnostic,
    ClearSelection,
    About,
    ClearRecent,
    /// Scenario: turn the selected counter, take it off the map, settings, a new scenario.
    RotateClockwise,
    RotateAnticlockwise,
    RemoveFromMap,
    ScenarioSettings,
    NewScenario,
}

/// A modal dialog.
#[derive(Debug)]
pub enum Dialog {
    /// Unsaved changes: Save, Discard or Cancel, then do `then`.
    Guard {
        then: Action,
    },
    /// Something failed: what, and what to do.
    Error {
        title: String,
        message: String,
        hint: String,
    },
    /// Recovery files found at start-up.
    Recover {
        found: Vec<FoundRecovery>,
    },
    /// A typed path (always works), with a Browse… button for the system chooser.
    Path {
        purpose: PickPurpose,
        text: String,
        then: Option<Action>,
    },
    NewMap(NewMapSettings),
    MapSettings(Box<MapSettingsDialog>),
    About,
}

/// A short message shown in a corner for a few seconds.
#[derive(Debug, Clone)]
pub struct Toast {
    pub text: String,
    pub until: f64,
}

/// The editor.
pub struct EditorApp {
    pub doc: Document,
    pub history: History,
    pub view: MapView,
    pub tools: ToolState,
    pub settings: Settings,
    pub diagnostics: DiagnosticsPanel,
    pub legend: LegendEditor,
    pub digitise: crate::digitise::Digitise,
    /// The order of battle, counters, zones and scenario settings.
    pub oob: crate::oob::OobState,
    pub dialog: Option<Dialog>,
    pub toasts: Vec<Toast>,
    /// The hex under the pointer.
    pub hovered: Option<HexIndex>,
    /// Where the map was drawn in the last frame.
    pub map_rect: egui::Rect,
    pub(crate) config: EditorConfig,
    pending: Vec<Action>,
    /// Set once the user agreed to lose unsaved changes (or saved them) for the next action.
    guard_passed: bool,
    /// The window may close now.
    allow_close: bool,
    title: String,
    recovery_written_at: Option<Instant>,
    /// A recovery file being written in the background.
    recovery_writer: Option<std::thread::JoinHandle<()>>,
    recovery_edits: u64,
    last_edit_at: Option<Instant>,
    validated_depth: Option<(u64, usize)>,
    time: f64,
}

impl EditorApp {
    /// A new editor with a blank map, offering any recovery files found.
    pub fn new(config: EditorConfig) -> EditorApp {
        let settings = Settings::load(config.config_dir.as_deref());
        let doc = Document::new_map(&NewMapSettings::default());
        let mut app = EditorApp {
            doc,
            history: History::new(),
            view: MapView::default(),
            tools: ToolState::default(),
            diagnostics: DiagnosticsPanel::default(),
            legend: LegendEditor::default(),
            digitise: Default::default(),
            oob: Default::default(),
            dialog: None,
            toasts: Vec::new(),
            hovered: None,
            map_rect: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0)),
            pending: Vec::new(),
            guard_passed: false,
            allow_close: false,
            title: String::new(),
            recovery_written_at: None,
            recovery_writer: None,
            recovery_edits: 0,
            last_edit_at: None,
            validated_depth: None,
            time: 0.0,
            settings,
            config,
        };
        app.view.layers.hex_names = app.settings.show_hex_names;
        app.tools.sync_with_legend(&app.doc);
        let found = find_recoveries(app.config.recovery_dir.as_deref());
        if !found.is_empty() {
            app.dialog = Some(Dialog::Recover { found });
        }
        app
    }

    /// A new editor opening a file (a map, or a scenario with its map).
    pub fn with_file(config: EditorConfig, path: &Path) -> EditorApp {
        let mut app = EditorApp::new(config);
        let recover = app.dialog.take();
        app.open_path(path);
        // The recovery offer comes first, over the file.
        if let Some(dialog) = recover {
            if let Some(Dialog::Error { .. }) = &app.dialog {
                // Keep the error; the recovery is offered at the next start.
            } else {
                app.dialog = Some(dialog);
            }
        }
        app
    }

    // -----------------------------------------------------------------------------------------
    // The title and state queries.

    /// The window title: file name and an unsaved mark.
    pub fn window_title(&self) -> String {
        let mark = if self.is_dirty() { " ●" } else { "" };
        let mut name = self.doc.display_name();
        if let (Some(_), Some(map)) = (&self.doc.scenario, &self.doc.map_path)
            && let Some(file) = map.file_name()
        {
            name = format!("{name} (map {})", file.to_string_lossy());
        }
        format!("{name}{mark} — Bataille editor")
    }

    /// Whether the window may close (the user saved or discarded the changes).
    pub fn close_allowed(&self) -> bool {
        self.allow_close
    }

    /// The screen point of a grid point in the last frame's map view.
    pub fn screen_of(&self, grid_point: [f32; 2]) -> egui::Pos2 {
        self.view
            .to_screen(self.map_rect, egui::pos2(grid_point[0], grid_point[1]))
    }

    /// The screen point of a hex's centre in the last frame's map view.
    pub fn screen_of_hex(&self, hex: HexIndex) -> egui::Pos2 {
        self.screen_of(self.doc.map.grid.centre(hex))
    }

    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// Queues an action, run at the end of the frame.
    pub fn request(&mut self, action: Action) {
        self.pending.push(action);
    }

    // -----------------------------------------------------------------------------------------
    // Editing: the one place where the document changes.

    /// Applies a change, recording it for undo (in the open group if any).
    pub fn apply_change(&mut self, label: &str, change: Change) {
        let touched = self.history.apply(&mut self.doc, label, change);
        self.after_change(&touched);
    }

    /// Applies several changes as one undo step.
    pub fn apply_edit(&mut self, label: &str, changes: Vec<Change>) {
        let was_open = self.history.group_open();
        self.history.begin_group(label);
        for change in changes {
            self.apply_change(label, change);
        }
        if !was_open {
            self.history.end_group();
        }
        self.after_commit();
    }

    fn after_change(&mut self, touched: &Touched) {
        if touched.is_empty() {
            return;
        }
        self.view.invalidate(&self.doc, touched);
        if touched.scenario {
            self.oob.revision += 1;
        }
        if touched.all {
            self.tools.sync_with_legend(&self.doc);
        }
        self.last_edit_at = Some(Instant::now());
    }

    /// Runs what follows a committed step: validation and periodic recovery.
    fn after_commit(&mut self) {
        let key = (self.history.committed(), self.history.undo_depth());
        if self.validated_depth != Some(key) && !self.history.group_open() {
            self.validated_depth = Some(key);
            self.diagnostics.revalidate(&self.doc);
        }
        self.maybe_write_recovery(false);
    }

    /// Applies what a tool returned.
    pub fn apply_tool_output(&mut self, out: ToolOutput) {
        if let Some(label) = out.begin {
            self.history.begin_group(label);
        }
        for change in out.changes {
            self.apply_change("Edit", change);
        }
        if let Some(code) = out.picked {
            self.tools.terrain = code;
        }
        if out.end {
            self.history.end_group();
            self.after_commit();
        }
    }

    pub fn undo(&mut self) {
        if let Some(touched) = self.history.undo(&mut self.doc) {
            self.after_change(&touched);
            if touched.all {
                self.view.invalidate_all();
            }
            self.after_commit();
        }
    }

    pub fn redo(&mut self) {
        if let Some(touched) = self.history.redo(&mut self.doc) {
            self.after_change(&touched);
            self.after_commit();
        }
    }

    // -----------------------------------------------------------------------------------------
    // Files.

    fn show_error(&mut self, title: &str, message: String, hint: &str) {
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
                self.doc = doc;
                self.history = History::new();
                self.view.reset();
                self.oob.reset();
                self.tools.selection = None;
                if self.doc.scenario.is_some() {
                    // A scenario is opened to place counters first.
                    self.tools.tool = Tool::Select;
                }
                self.tools.sync_with_legend(&self.doc);
                self.settings.add_recent(path);
                self.save_settings();
                self.validated_depth = None;
                self.diagnostics.revalidate(&self.doc);
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
        // With a scenario, the map keeps its own file.
        let map_target = match self.doc.scenario {
            Some(_) => self.doc.map_path.clone(),
            None => Some(path.to_owned()),
        };
        if let Some(map_target) = map_target {
            crate::digitise::relink_scan(&mut self.doc, &map_target);
        }
        let old_recovery = self.recovery_path();
        let result = if self.doc.scenario.is_some() {
            crate::placement::save_with_scenario(&mut self.doc, path)
        } else {
            bataille_schema::save_map(path, &self.doc.map)
        };
        match result {
            Ok(()) => {
                if self.doc.scenario.is_none() {
                    self.doc.map_path = Some(path.to_owned());
                }
                self.history.mark_saved();
                if let Some(old) = old_recovery {
                    let _ = std::fs::remove_file(old);
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
                self.show_error(
                    &format!("Could not save {}", path.display()),
                    error.to_string(),
                    "Check that the folder exists and that you may write there, or use \
                     File › Save As to save elsewhere. Your changes are still here.",
                );
                false
            }
        }
    }

    fn open_path_dialog(&mut self, purpose: PickPurpose, then: Option<Action>) {
        let text = match purpose {
            PickPurpose::Open => self
                .doc
                .document_path()
                .and_then(Path::parent)
                .map(|d| format!("{}/", d.display()))
                .unwrap_or_default(),
            PickPurpose::Save => self
                .doc
                .document_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "map.ron".to_owned()),
        };
        self.dialog = Some(Dialog::Path {
            purpose,
            text,
            then,
        });
    }

    fn save_settings(&mut self) {
        self.settings.show_hex_names = self.view.layers.hex_names;
        let _ = self.settings.save(self.config.config_dir.as_deref());
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
                write_recovery(&path, &recovery).is_ok()
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
            self.recovery_writer = std::thread::Builder::new()
                .name("recovery-writer".into())
                .spawn(move || {
                    let _ = write_recovery(&path, &recovery);
                })
                .ok();
        }
    }

    /// Waits for a background recovery write to finish.
    pub fn finish_recovery_writer(&mut self) {
        if let Some(writer) = self.recovery_writer.take() {
            let _ = writer.join();
        }
    }

    fn maybe_write_recovery(&mut self, timer: bool) {
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

    fn remove_recovery(&mut self) {
        self.finish_recovery_writer();
        if let Some(path) = self.recovery_path() {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Restores a recovery file as the document (with unsaved changes).
    pub fn restore(&mut self, found: &FoundRecovery) -> bool {
        let recovery = match read_recovery(&found.file) {
            Ok(r) => r,
            Err(e) => {
                self.show_error(
                    "Could not read the recovery file",
                    format!("{}: {e}", found.file.display()),
                    "The file is damaged; discard it.",
                );
                return false;
            }
        };
        let (mut doc, _) = Document::from_map(recovery.map, recovery.map_path);
        if let Some(path) = &recovery.scenario_path
            && let Some(scenario) = recovery.scenario.clone().or_else(|| {
                read_source(path)
                    .and_then(|s| bataille_schema::io::parse_scenario(&s))
                    .ok()
            })
        {
            doc.scenario = Some(ScenarioFile {
                scenario,
                path: path.clone(),
            });
        }
        self.doc = doc;
        self.history = History::new();
        self.history.mark_unsaved();
        self.view.reset();
        self.oob.reset();
        self.tools.sync_with_legend(&self.doc);
        let _ = std::fs::remove_file(&found.file);
        self.write_recovery();
        self.diagnostics.revalidate(&self.doc);
        self.toast(format!(
            "Recovered unsaved changes from {}",
            format_time(recovery.written_at)
        ));
        true
    }

    // -----------------------------------------------------------------------------------------
    // Actions.

    fn guarded(&mut self, action: &Action) -> bool {
        if self.guard_passed || !self.is_dirty() {
            self.guard_passed = false;
            return true;
        }
        self.dialog = Some(Dialog::Guard {
            then: action.clone(),
        });
        false
    }

    /// Runs an action now.
    pub fn perform(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::NewMap => {
                if self.guarded(&action) {
                    self.dialog = Some(Dialog::NewMap(NewMapSettings::default()));
                }
            }
            Action::Open => {
                if self.guarded(&action) {
                    self.open_path_dialog(PickPurpose::Open, None);
                }
            }
            Action::OpenPath(ref path) => {
                if self.guarded(&action) {
                    self.open_path(path);
                }
            }
            Action::Save => {
                self.save();
            }
            Action::SaveAs => self.open_path_dialog(PickPurpose::Save, None),
            Action::SaveAsPath(path) => {
                self.save_to(&path);
            }
            Action::Quit => {
                if self.guarded(&action) {
                    self.allow_close = true;
                    self.remove_recovery();
                    ctx.send_viewport_cmd(ViewportCommand::Close);
                }
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::FitMap => self.view.fit_pending = true,
            Action::Zoom100 => {
                let rect = self.map_rect;
                self.view
                    .zoom_to(rect, rect.center(), crate::map_view::ZOOM_100);
            }
            Action::ZoomIn | Action::ZoomOut => {
                let rect = self.map_rect;
                let factor = if action == Action::ZoomIn { 1.25 } else { 0.8 };
                self.view
                    .zoom_to(rect, rect.center(), self.view.zoom * factor);
            }
            Action::ToggleHexNames => {
                self.view.layers.hex_names = !self.view.layers.hex_names;
                self.save_settings();
            }
            Action::Tool(tool) => self.tools.tool = tool,
            Action::BrushBigger => {
                self.tools.brush_radius = (self.tools.brush_radius + 1).min(MAX_BRUSH_RADIUS);
            }
            Action::BrushSmaller => {
                self.tools.brush_radius = self.tools.brush_radius.saturating_sub(1);
            }
            Action::MapSettings => {
                self.dialog = Some(Dialog::MapSettings(Box::new(MapSettingsDialog::new(
                    &self.doc,
                ))));
            }
            Action::Legend => {
                let tab = self.legend.tab;
                self.legend.open_on(&self.doc, tab);
            }
            Action::ToggleLeftDock => {
                self.settings.show_left_dock = !self.settings.show_left_dock;
                self.save_settings();
            }
            Action::ToggleRightDock => {
                self.settings.show_right_dock = !self.settings.show_right_dock;
                self.save_settings();
            }
            Action::ToggleDiagnostics => {
                self.settings.show_diagnostics = !self.settings.show_diagnostics;
                self.save_settings();
            }
            Action::NextDiagnostic | Action::PreviousDiagnostic => {
                if let Some(d) = self.diagnostics.step(action == Action::NextDiagnostic) {
                    self.go_to_diagnostic(ctx, &d);
                }
            }
            Action::ClearSelection => {
                self.tools.selection = None;
                self.oob.selected = None;
            }
            Action::RotateClockwise => self.rotate_selected(true),
            Action::RotateAnticlockwise => self.rotate_selected(false),
            Action::RemoveFromMap => self.remove_selected_from_map(),
            Action::ScenarioSettings => self.open_scenario_settings(),
            Action::NewScenario => self.new_scenario_for_map(),
            Action::About => self.dialog = Some(Dialog::About),
            Action::ClearRecent => {
                self.settings.recent.clear();
                self.save_settings();
            }
        }
    }

    /// Centres the view on a hex and selects it.
    pub fn go_to_hex(&mut self, ctx: &egui::Context, hex: &bataille_schema::HexName) {
        if let Some(index) = self.doc.map.grid.lookup(hex) {
            let [x, y] = self.doc.map.grid.centre(index);
            self.view.centre = egui::pos2(x, y);
            self.tools.selection = Some(index);
            ctx.request_repaint();
        }
    }

    // -----------------------------------------------------------------------------------------
    // The frame.

    /// Shows the whole editor in `ui` (the root of the window, or a test harness).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.time = ui.input(|i| i.time);
        self.handle_close_request(&ctx);
        self.diagnostics.poll(&ctx);
        self.shortcuts(&ctx);
        self.digitise_frame(&ctx);
        self.menu_bar(ui);
        self.tool_bar(ui);
        self.status_bar(ui);
        if self.settings.show_diagnostics {
            egui::Panel::bottom("diagnostics")
                .resizable(true)
                .show(ui, |ui| {
                    if let Some(d) = self.diagnostics.ui(ui) {
                        self.go_to_diagnostic(&ctx, &d);
                    }
                });
        }
        if self.settings.show_left_dock {
            egui::Panel::left("left-dock")
                .resizable(true)
                .default_size(220.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| self.left_dock(ui));
                });
        }
        if self.settings.show_right_dock {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(320.0)
                .show(ui, |ui| self.right_dock(ui));
        }
        self.digitise_panel(ui);
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| self.map_ui(ui));
        if let Some(edit) = self.legend.show(&ctx, &self.doc) {
            self.apply_edit(&edit.label, edit.changes);
        }
        self.scenario_windows(&ctx);
        self.dialogs(&ctx);
        self.toasts_ui(&ctx);
        for action in std::mem::take(&mut self.pending) {
            self.perform(&ctx, action);
        }
        if self.is_dirty() {
            self.maybe_write_recovery(true);
            ctx.request_repaint_after(self.config.recovery_interval);
        }
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) {
            return;
        }
        if self.allow_close {
            return;
        }
        if self.is_dirty() {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::Guard { then: Action::Quit });
        } else {
            self.remove_recovery();
            self.save_settings();
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if self.dialog.is_some() {
            return;
        }
        let command = Modifiers::COMMAND;
        let shift_command = Modifiers::COMMAND | Modifiers::SHIFT;
        let combos: [(Modifiers, Key, Action); 10] = [
            (shift_command, Key::Z, Action::Redo),
            (command, Key::Z, Action::Undo),
            (command, Key::Y, Action::Redo),
            (shift_command, Key::S, Action::SaveAs),
            (command, Key::S, Action::Save),
            (command, Key::O, Action::Open),
            (command, Key::N, Action::NewMap),
            (command, Key::Num0, Action::FitMap),
            (command, Key::Num1, Action::Zoom100),
            (command, Key::Q, Action::Quit),
        ];
        for (modifiers, key, action) in combos {
            if ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(modifiers, key))) {
                self.request(action);
            }
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::F8)) {
            self.request(Action::PreviousDiagnostic);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F8)) {
            self.request(Action::NextDiagnostic);
        }
        if ctx.text_edit_focused() {
            return;
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::R)) {
            self.request(Action::RotateAnticlockwise);
        }
        let mut keys: Vec<(Key, Action)> = Tool::ALL
            .iter()
            .map(|&tool| (tool.key(), Action::Tool(tool)))
            .collect();
        keys.extend([
            (Key::N, Action::ToggleHexNames),
            (Key::OpenBracket, Action::BrushSmaller),
            (Key::CloseBracket, Action::BrushBigger),
            (Key::Escape, Action::ClearSelection),
            (Key::R, Action::RotateClockwise),
            (Key::Delete, Action::RemoveFromMap),
        ]);
        for (key, action) in keys {
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key)) {
                self.request(action);
            }
        }
    }

    fn map_ui(&mut self, ui: &mut egui::Ui) {
        let (response, painter) =
            ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
        let rect = response.rect;
        self.map_rect = rect;
        painter.rect_filled(rect, 0.0, egui::Color32::from_gray(96));
        self.paint_map_with_scan(&painter, rect);
        self.paint_scenario(&painter, rect);

        let (pointer, delta, primary, secondary, middle, space, alt, zoom_delta, wheel) =
            ui.input(|i| {
                let wheel: f32 = i
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::MouseWheel {
                            unit,
                            delta,
                            modifiers,
                            ..
                        } if !modifiers.command && !modifiers.shift => Some(match unit {
                            egui::MouseWheelUnit::Point => delta.y,
                            egui::MouseWheelUnit::Line => delta.y * 40.0,
                            egui::MouseWheelUnit::Page => delta.y * 400.0,
                        }),
                        _ => None,
                    })
                    .sum();
                (
                    i.pointer.latest_pos(),
                    i.pointer.delta(),
                    i.pointer.primary_down(),
                    i.pointer.secondary_down(),
                    i.pointer.middle_down(),
                    i.key_down(Key::Space),
                    i.modifiers.alt,
                    i.zoom_delta(),
                    wheel,
                )
            });
        let grid = &self.doc.map.grid;
        self.hovered = if response.hovered() {
            pointer.and_then(|p| self.view.hex_at(grid, rect, p))
        } else {
            None
        };

        // Zoom to the cursor.
        if response.hovered()
            && let Some(pos) = pointer
        {
            let factor = zoom_delta * (wheel * 0.0025).exp();
            if (factor - 1.0).abs() > 1e-4 {
                self.view.zoom_to(rect, pos, self.view.zoom * factor);
            }
        }

        // Counters take the press first (drags from the tree, between hexes).
        let counters_took =
            self.tools.stroke.is_none() && self.scenario_map_input(ui, &response, rect, pointer);

        // Strokes.
        let pressed_on_map = response.is_pointer_button_down_on();
        let down_on = pressed_on_map && !counters_took;
        if pressed_on_map && !response.has_focus() {
            // Keys go to the map again (not to the last button clicked).
            response.request_focus();
        }
        let digitising = self.digitise_map_input(&response, rect, pointer, space || middle);
        let mut pressed = false;
        if self.tools.stroke.is_none() && down_on {
            let kind = if middle || (space && primary) {
                Some(StrokeKind::Pan)
            } else if digitising {
                None
            } else if secondary {
                Some(StrokeKind::Remove)
            } else if primary {
                Some(StrokeKind::Add)
            } else {
                None
            };
            if let Some(kind) = kind {
                self.tools.stroke = Some(kind);
                pressed = true;
            }
        }
        if let Some(kind) = self.tools.stroke {
            if !down_on {
                let out = self.tools.end_stroke();
                self.apply_tool_output(out);
            } else if kind == StrokeKind::Pan {
                self.view.pan_by(delta);
            } else if let Some(pos) = pointer {
                let g = self.view.to_grid(rect, pos);
                let out = if self.tools.tool == Tool::Zone && !alt {
                    let unit = match self.oob.selected {
                        Some(crate::oob::Sel::Unit(a, u)) => Some((a, u)),
                        _ => None,
                    };
                    self.oob
                        .zone_tool
                        .stroke_input(&self.doc, unit, [g.x, g.y], kind, pressed)
                } else {
                    self.tools
                        .stroke_input(&self.doc, [g.x, g.y], kind, pressed, alt)
                };
                self.apply_tool_output(out);
            }
        }
        self.paint_feedback(&painter, rect, pointer);
        self.paint_scenario_drag(ui, &painter, rect, pointer);
        if response.hovered() {
            let icon = if self.tools.stroke == Some(StrokeKind::Pan) || space {
                egui::CursorIcon::Grabbing
            } else {
                egui::CursorIcon::Crosshair
            };
            ui.ctx().set_cursor_icon(icon);
        }
    }

    fn paint_feedback(
        &self,
        painter: &egui::Painter,
        rect: egui::Rect,
        pointer: Option<egui::Pos2>,
    ) {
        let grid = &self.doc.map.grid;
        if let Some(sel) = self.tools.selection {
            self.view.outline_hex(
                painter,
                grid,
                rect,
                sel,
                egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 200, 0)),
            );
        }
        let Some(hex) = self.hovered else {
            return;
        };
        let hover = egui::Stroke::new(2.0, egui::Color32::WHITE);
        match self.tools.tool {
            Tool::Brush => {
                for h in self.tools.brush_footprint(&self.doc, hex) {
                    self.view.outline_hex(
                        painter,
                        grid,
                        rect,
                        h,
                        egui::Stroke::new(1.5, egui::Color32::from_white_alpha(200)),
                    );
                }
            }
            Tool::Hexside => {
                if let Some(pos) = pointer {
                    let g = self.view.to_grid(rect, pos);
                    if let Some((side, d)) = crate::document::nearest_side(grid, hex, [g.x, g.y])
                        && d <= crate::tools::HEXSIDE_REACH
                    {
                        self.view.highlight_side(
                            painter,
                            grid,
                            rect,
                            hex,
                            side,
                            egui::Stroke::new(4.0, egui::Color32::from_rgb(255, 120, 0)),
                        );
                    }
                }
                self.view.outline_hex(painter, grid, rect, hex, hover);
            }
            _ => self.view.outline_hex(painter, grid, rect, hex, hover),
        }
    }

    fn toasts_ui(&mut self, ctx: &egui::Context) {
        let now = self.time;
        self.toasts.retain(|t| t.until > now);
        if self.toasts.is_empty() {
            return;
        }
        egui::Area::new(egui::Id::unique("toasts"))
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -48.0))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .show(ctx, |ui| {
                for toast in &self.toasts {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.label(&toast.text);
                    });
                }
            });
        if let Some(next) = self.toasts.iter().map(|t| t.until).reduce(f64::min) {
            ctx.request_repaint_after(Duration::from_secs_f64((next - now).max(0.05)));
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        let modal = |id: &str| egui::Modal::new(egui::Id::unique(id));
        let mut keep = true;
        let dialog = match dialog {
            Dialog::Guard { then } => {
                let mut choice = None;
                modal("guard").show(ctx, |ui| {
                    ui.set_max_width(420.0);
                    ui.heading("Unsaved changes");
                    ui.label(format!(
                        "{} has changes that are not saved. Save them first?",
                        self.doc.display_name()
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            choice = Some(0);
                        }
                        if ui.button("Discard").clicked() {
                            choice = Some(1);
                        }
                        if ui.button("Cancel").clicked() {
                            choice = Some(2);
                        }
                    });
                });
                match choice {
                    Some(0) => {
                        keep = false;
                        if self.doc.map_path.is_some() {
                            if self.save() {
                                self.guard_passed = true;
                                self.pending.push(then.clone());
                            }
                        } else {
                            self.open_path_dialog(PickPurpose::Save, Some(then.clone()));
                            return;
                        }
                    }
                    Some(1) => {
                        keep = false;
                        self.remove_recovery();
                        self.history.mark_saved();
                        self.guard_passed = true;
                        self.pending.push(then.clone());
                    }
                    Some(_) => keep = false,
                    None => {}
                }
                Dialog::Guard { then }
            }
            Dialog::Error {
                title,
                message,
                hint,
            } => {
                modal("error").show(ctx, |ui| {
                    ui.set_max_width(560.0);
                    ui.heading(format!("⛔ {title}"));
                    ui.label(egui::RichText::new(&message).monospace());
                    ui.label(&hint);
                    if ui.button("OK").clicked() {
                        keep = false;
                    }
                });
                Dialog::Error {
                    title,
                    message,
                    hint,
                }
            }
            Dialog::Recover { mut found } => {
                let mut choice = None;
                if let Some(first) = found.first() {
                    let what = first.recovery.map_path.as_ref().map_or_else(
                        || format!("“{}” (never saved)", first.recovery.map.name),
                        |p| p.display().to_string(),
                    );
                    modal("recover").show(ctx, |ui| {
                        ui.set_max_width(520.0);
                        ui.heading(format!(
                            "Recover unsaved changes from {}?",
                            format_time(first.recovery.written_at)
                        ));
                        ui.label(format!(
                            "The editor stopped before {what} was saved. The changes were kept \
                             in {}.",
                            first.file.display()
                        ));
                        ui.horizontal(|ui| {
                            if ui.button("Recover").clicked() {
                                choice = Some(0);
                            }
                            if ui.button("Discard recovery").clicked() {
                                choice = Some(1);
                            }
                            if ui.button("Later").clicked() {
                                choice = Some(2);
                            }
                        });
                    });
                }
                match choice {
                    Some(0) => {
                        let first = found.remove(0);
                        keep = !found.is_empty();
                        self.restore(&first);
                        if self.dialog.is_some() {
                            return;
                        }
                    }
                    Some(1) => {
                        let first = found.remove(0);
                        let _ = std::fs::remove_file(&first.file);
                        keep = !found.is_empty();
                    }
                    Some(_) => {
                        found.remove(0);
                        keep = !found.is_empty();
                    }
                    None => keep = !found.is_empty(),
                }
                Dialog::Recover { found }
            }
            Dialog::Path {
                purpose,
                mut text,
                then,
            } => {
                let mut choice = None;
                let title = match purpose {
                    PickPurpose::Open => "Open a map or scenario",
                    PickPurpose::Save if self.doc.scenario.is_some() => "Save the scenario as",
                    PickPurpose::Save => "Save the map as",
                };
                modal("path").show(ctx, |ui| {
                    ui.set_min_width(480.0);
                    ui.heading(title);
                    ui.horizontal(|ui| {
                        let label = ui.label("File path");
                        let edit = ui
                            .add(egui::TextEdit::singleline(&mut text).desired_width(360.0))
                            .labelled_by(label.id);
                        if edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                            choice = Some(0);
                        }
                    });
                    ui.horizontal(|ui| {
                        let ok = match purpose {
                            PickPurpose::Open => "Open",
                            PickPurpose::Save => "Save",
                        };
                        if ui.button(ok).clicked() {
                            choice = Some(0);
                        }
                        if self.config.picker.available()
                            && ui
                                .button("Browse…")
                                .on_hover_text("Choose with the desktop's file chooser")
                                .clicked()
                        {
                            let start = (!text.is_empty()).then(|| PathBuf::from(&text));
                            if let Some(path) = self.config.picker.pick(purpose, start.as_deref()) {
                                text = path.display().to_string();
                                choice = Some(0);
                            }
                        }
                        if ui.button("Cancel").clicked() {
                            choice = Some(1);
                        }
                    });
                    if let Some(recent) = (purpose == PickPurpose::Open)
                        .then_some(&self.settings.recent)
                        .filter(|r| !r.is_empty())
                    {
                        ui.separator();
                        ui.label("Recent:");
                        for path in recent.iter().take(5) {
                            if ui.link(path.display().to_string()).clicked() {
                                text = path.display().to_string();
                            }
                        }
                    }
                });
                match choice {
                    Some(0) if !text.trim().is_empty() => {
                        keep = false;
                        let path = PathBuf::from(text.trim());
                        match purpose {
                            PickPurpose::Open => {
                                self.open_path(&path);
                            }
                            PickPurpose::Save => {
                                let path = if path.extension().is_none() {
                                    path.with_extension("ron")
                                } else {
                                    path
                                };
                                if self.save_to(&path)
                                    && let Some(then) = then.clone()
                                {
                                    self.guard_passed = true;
                                    self.pending.push(then);
                                }
                            }
                        }
                        if self.dialog.is_some() {
                            return;
                        }
                    }
                    Some(1) => keep = false,
                    _ => {}
                }
                Dialog::Path {
                    purpose,
                    text,
                    then,
                }
            }
            Dialog::NewMap(mut settings) => {
                let mut result = None;
                modal("new-map").show(ctx, |ui| {
                    ui.heading("New map");
                    result = new_map_ui(ui, &mut settings);
                });
                match result {
                    Some(true) => {
                        keep = false;
                        self.remove_recovery();
                        self.doc = Document::new_map(&settings);
                        self.history = History::new();
                        self.view.reset();
                        self.oob.reset();
                        self.tools.sync_with_legend(&self.doc);
                        self.diagnostics.revalidate(&self.doc);
                    }
                    Some(false) => keep = false,
                    None => {}
                }
                Dialog::NewMap(settings)
            }
            Dialog::MapSettings(mut dialog) => {
                let mut outcome = SettingsOutcome::Open;
                modal("map-settings").show(ctx, |ui| {
                    ui.set_max_width(480.0);
                    ui.heading("Map settings");
                    outcome = dialog.ui(ui, &self.doc);
                });
                match outcome {
                    SettingsOutcome::Open => {}
                    SettingsOutcome::Cancel => keep = false,
                    SettingsOutcome::Apply(changes, notes) => {
                        keep = false;
                        if !changes.is_empty() {
                            self.apply_edit("Map settings", changes);
                            self.view.fit_pending = true;
                        }
                        if !notes.is_empty() {
                            self.toast(notes.join("; "));
                        }
                    }
                }
                Dialog::MapSettings(dialog)
            }
            Dialog::About => {
                modal("about").show(ctx, |ui| {
                    ui.heading("Bataille editor");
                    ui.label(format!(
                        "Version {} — paints hex maps for lace-wars battle games.",
                        env!("CARGO_PKG_VERSION")
                    ));
                    if ui.button("OK").clicked() {
                        keep = false;
                    }
                });
                Dialog::About
            }
        };
        if keep && self.dialog.is_none() {
            self.dialog = Some(dialog);
        }
    }
}

/// Refuses a grid the editor cannot hold (the schema allows 1 to 999 hexes a side; a file that
/// was never validated could ask for billions).
fn check_grid(
    map: &bataille_schema::Map,
    source: &bataille_schema::SourceFile,
) -> Result<(), LoadError> {
    let grid = &map.grid;
    for (field, value) in [("columns", grid.columns), ("rows", grid.rows)] {
        if !(1..=999).contains(&value) {
            let span =
                bataille_schema::SpanIndex::build(&source.text).resolve(&format!("/grid/{field}"));
            return Err(LoadError::Syntax {
                location: Box::new(source.location(span)),
                message: format!("the grid has {value} {field}; a map has 1 to 999"),
            });
        }
    }
    Ok(())
}

/// Reads a map, or a scenario and its map, into a document; with notes on repairs made.
pub fn load_document(path: &Path) -> Result<(Document, Vec<String>), LoadError> {
    let source = read_source(path)?;
    match sniff_kind(&source)? {
        DocumentKind::Map => {
            let map = bataille_schema::io::parse_map(&source)?;
            check_grid(&map, &source)?;
            Ok(Document::from_map(map, Some(path.to_owned())))
        }
        DocumentKind::Scenario => {
            let loaded = bataille_schema::load_scenario(path)?;
            check_grid(&loaded.map.map, &loaded.map.source)?;
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
        if !self.is_dirty() {
            self.remove_recovery();
        } else {
            self.write_recovery();
        }
        self.save_settings();
    }
}
