//! The one handler: [`EditorApp::execute`] runs every [`Command`], a `UiCommand` (here and only
//! here mapped to what the app does) or an `AppCommand`; a document edit is applied, recorded for
//! undo, the view invalidated, the revision bumped, the document revalidated and
//! recovery scheduled, all here. The document lives in a [`DocSlot`], which gives everybody
//! `&Document` and only this module `&mut Document`: a panel, tool or other part of the app
//! cannot change the document except by sending a command.
//!
//! ```
//! # let dir = std::env::temp_dir();
//! let app = bataille_editor::EditorApp::new(bataille_editor::EditorConfig::isolated(&dir));
//! let name: &str = &app.doc.map.name; // everybody reads
//! # let _ = name;
//! ```
//!
//! ```compile_fail
//! # let dir = std::env::temp_dir();
//! let mut app = bataille_editor::EditorApp::new(bataille_editor::EditorConfig::isolated(&dir));
//! app.doc.map.name = String::new(); // nobody writes but the handler
//! ```
//!
//! ```compile_fail
//! # let dir = std::env::temp_dir();
//! let mut app = bataille_editor::EditorApp::new(bataille_editor::EditorConfig::isolated(&dir));
//! let doc: &mut bataille_editor::model::document::Document = &mut app.doc;
//! ```
//!
//! The undo history is the document's: everybody reads it, nobody else records or rewrites it.
//!
//! ```
//! # let dir = std::env::temp_dir();
//! let app = bataille_editor::EditorApp::new(bataille_editor::EditorConfig::isolated(&dir));
//! assert!(!app.doc.history().can_undo());
//! ```
//!
//! ```compile_fail
//! # let dir = std::env::temp_dir();
//! let mut app = bataille_editor::EditorApp::new(bataille_editor::EditorConfig::isolated(&dir));
//! app.doc.history.mark_saved();
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use egui::ViewportCommand;

use crate::app::{Dialog, EditorApp};
use crate::context::command::DockTab;
use crate::context::{AppCommand, Command, UiCommand};
use crate::model::digitise_change::DigitiseChange;
use crate::model::document::{Document, NewMapSettings, Touched};
use crate::model::history::{Change, History};
use crate::model::selection::Anchor;
use crate::panels::map_settings::MapSettingsDialog;
use crate::services::digitise::import_start_path;
use crate::services::files::PickPurpose;
use crate::tools::{MAX_BRUSH_RADIUS, Tool, ToolOutput};

mod doc_slot;
mod variants;

/// From this many hexes a document's first check runs on the validation worker.
const BIG_MAP_HEXES: usize = 40_000;
pub use doc_slot::DocSlot;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Editing: the one place where the document changes.

    /// Applies a change, recording it for undo (in the open group if any).
    fn apply_change(&mut self, label: &str, change: Change) {
        let scenario = matches!(change, Change::Scenario(_) | Change::AttachScenario { .. });
        if !scenario {
            self.doc.map_revision += 1;
        }
        let anchor = if scenario {
            self.selection_anchor()
        } else {
            None
        };
        let (doc, history) = self.doc.write_with_history();
        let touched = history.apply(doc, label, change);
        self.after_change(&touched);
        self.carry_selection(anchor, &touched);
    }

    /// The selection by id, before a change.
    fn selection_anchor(&self) -> Option<Anchor> {
        Anchor::new(
            self.ui.selection.item,
            &self.doc.scenario.as_ref()?.scenario,
        )
    }

    /// After a change: the selection names the same item as before (by id), or nothing if it is
    /// gone, never the neighbour that took its index.
    fn carry_selection(&mut self, anchor: Option<Anchor>, touched: &Touched) {
        if !(touched.scenario || touched.all) {
            return;
        }
        if let Some(anchor) = anchor {
            self.ui.selection.item = self
                .doc
                .scenario
                .as_ref()
                .and_then(|f| anchor.resolve(&f.scenario));
        }
    }

    /// Applies several changes as one undo step.
    fn apply_edit(&mut self, label: &str, changes: Vec<Change>) {
        let was_open = self.doc.history.group_open();
        self.doc.history.begin_group(label);
        for change in changes {
            self.apply_change(label, change);
        }
        if !was_open {
            self.doc.history.end_group();
        }
        self.after_commit();
    }

    fn after_change(&mut self, touched: &Touched) {
        if touched.is_empty() {
            return;
        }
        if touched.scenario || touched.all {
            self.doc.scenario_revision += 1;
        }
        self.ui.view.invalidate(&self.doc, touched);
        if touched.all {
            self.ui.tools.sync_with_legend(&self.doc);
        }
        self.own.last_edit_at = Some(Instant::now());
    }

    /// Runs what follows a committed step: validation and periodic recovery.
    fn after_commit(&mut self) {
        let key = (self.doc.history.committed(), self.doc.history.undo_depth());
        if self.own.validated_depth != Some(key) && !self.doc.history.group_open() {
            self.own.validated_depth = Some(key);
            // Checked once per frame (`validate_now`), not once per command: a frame that
            // commits several steps checks once, and an edit costs what it touched.
            self.own.validation_due = true;
            self.own.egui_ctx.request_repaint();
        }
        self.maybe_write_recovery(false);
    }

    /// Applies what a tool returned.
    pub(crate) fn apply_tool_output(&mut self, out: ToolOutput) {
        if let Some(label) = out.begin {
            self.doc.history.begin_group(label);
        }
        for change in out.changes {
            self.apply_change("Edit", change);
        }
        if let Some(hex) = out.select {
            self.ui.selection.hex = hex;
        }
        if let Some(code) = out.picked {
            self.ui.tools.terrain = code;
        }
        if out.end {
            self.doc.history.end_group();
            self.after_commit();
        }
    }

    fn undo(&mut self) {
        self.doc.map_revision += 1;
        let anchor = self.selection_anchor();
        let (doc, history) = self.doc.write_with_history();
        if let Some(touched) = history.undo(doc) {
            self.after_change(&touched);
            self.carry_selection(anchor, &touched);
            if touched.all {
                self.ui.view.invalidate_all();
            }
            self.after_commit();
        }
    }

    fn redo(&mut self) {
        self.doc.map_revision += 1;
        let anchor = self.selection_anchor();
        let (doc, history) = self.doc.write_with_history();
        if let Some(touched) = history.redo(doc) {
            self.after_change(&touched);
            self.carry_selection(anchor, &touched);
            self.after_commit();
        }
    }

    // -----------------------------------------------------------------------------------------
    // Actions.

    fn guarded(&mut self, command: impl Into<Command>) -> bool {
        if self.own.guard_passed || !self.is_dirty() {
            self.own.guard_passed = false;
            return true;
        }
        self.ui.dialog = Some(self.guard_dialog(command.into()));
        false
    }

    /// Runs a command now: the one handler. Menus, panels and tools queue commands with
    /// [`EditorApp::request`]; the frame drains the queue here.
    pub fn execute(&mut self, command: impl Into<Command>) {
        // A guard's pass (Save or Discard answered) is for the one command after it, guarded
        // or not: one that is not (New scenario after the map's Save As) must not leave it to
        // a later New map or Quit.
        let passing = self.own.guard_passed;
        self.execute_one(command.into());
        if passing {
            self.own.guard_passed = false;
        }
    }

    fn execute_one(&mut self, command: Command) {
        match command {
            Command::Ui(command) => self.run_ui_command(command),
            Command::App(command) => self.run_app_command(command),
        }
    }

    /// What each UI command does: the one place a menu item, a key or the palette's row becomes
    /// the app's behaviour (some by running an app command).
    fn run_ui_command(&mut self, command: UiCommand) {
        let ctx = self.own.egui_ctx.clone();
        let ctx = &ctx;
        if command.opens_modal() && !self.no_modal_open() {
            return; // One modal at a time: Escape closes the open one first.
        }
        match command {
            UiCommand::ShowInspector => {
                self.run_app_command(AppCommand::ShowDockTab(DockTab::Inspector));
            }
            UiCommand::DigitisePanel => self.run_app_command(AppCommand::SetDigitisePanel(true)),
            UiCommand::NewMap => {
                if self.guarded(command) {
                    self.ui.dialog = Some(Dialog::NewMap(NewMapSettings::default()));
                }
            }
            UiCommand::Open => {
                if self.guarded(command) {
                    self.open_path_dialog(PickPurpose::Open, None);
                }
            }
            UiCommand::Save => {
                self.save();
            }
            UiCommand::SaveAs => self.open_path_dialog(PickPurpose::Save, None),
            UiCommand::OpenVariant => self.open_variant_list(),
            UiCommand::OpenBaseScenario => self.open_base_scenario(),
            UiCommand::SaveAsVariant => self.variant_path_dialog(PickPurpose::SaveVariant),
            UiCommand::NewVariant => {
                if self.guarded(command) {
                    self.variant_path_dialog(PickPurpose::NewVariant);
                }
            }
            UiCommand::Quit => {
                if self.guarded(command) {
                    self.own.allow_close = true;
                    self.remove_recovery();
                    ctx.send_viewport_cmd(ViewportCommand::Close);
                }
            }
            UiCommand::Undo => self.undo(),
            UiCommand::Redo => self.redo(),
            UiCommand::FitMap => self.ui.view.fit_pending = true,
            UiCommand::Zoom100 => {
                let rect = self.ui.map_rect;
                self.ui
                    .view
                    .zoom_to(rect, rect.center(), crate::map::view::ZOOM_100);
            }
            UiCommand::ZoomIn | UiCommand::ZoomOut => {
                let rect = self.ui.map_rect;
                let factor = if command == UiCommand::ZoomIn {
                    1.25
                } else {
                    0.8
                };
                self.ui
                    .view
                    .zoom_to(rect, rect.center(), self.ui.view.zoom * factor);
            }
            UiCommand::ToggleHexNames => {
                self.ui.view.layers.hex_names = !self.ui.view.layers.hex_names;
                self.save_settings();
            }
            UiCommand::Tool(tool) => self.ui.tools.tool = tool,
            UiCommand::BrushBigger => {
                self.ui.tools.brush_radius = (self.ui.tools.brush_radius + 1).min(MAX_BRUSH_RADIUS);
            }
            UiCommand::BrushSmaller => {
                self.ui.tools.brush_radius = self.ui.tools.brush_radius.saturating_sub(1);
            }
            UiCommand::MapSettings => {
                self.ui.dialog = Some(Dialog::MapSettings(Box::new(MapSettingsDialog::new(
                    &self.doc,
                ))));
            }
            UiCommand::Legend => {
                let tab = self.panels.legend.tab;
                self.panels.legend.open_on(&self.doc, tab);
            }
            UiCommand::ToggleLeftDock => {
                self.ui.settings.show_left_dock = !self.ui.settings.show_left_dock;
                self.ui.view.refit_if_untouched();
                self.save_settings();
            }
            UiCommand::ToggleRightDock => {
                self.ui.settings.show_right_dock = !self.ui.settings.show_right_dock;
                self.ui.view.refit_if_untouched();
                self.save_settings();
            }
            UiCommand::ToggleDiagnostics => {
                self.ui.settings.show_diagnostics = !self.ui.settings.show_diagnostics;
                self.save_settings();
            }
            UiCommand::NextDiagnostic | UiCommand::PreviousDiagnostic => {
                let forward = command == UiCommand::NextDiagnostic;
                let rows = &self.services.diagnostics.diagnostics;
                let revision = self.services.diagnostics.revision;
                if let Some(d) = self.panels.diagnostics.step(rows, revision, forward) {
                    self.go_to_diagnostic(ctx, &d);
                }
            }
            UiCommand::Escape => self.escape(),
            UiCommand::ToggleDocks => {
                let shown = self.ui.settings.show_left_dock
                    || self.ui.settings.show_right_dock
                    || self.ui.settings.show_diagnostics;
                self.ui.settings.show_left_dock = !shown;
                self.ui.settings.show_right_dock = !shown;
                self.ui.settings.show_diagnostics = !shown;
                self.ui.view.refit_if_untouched();
                self.save_settings();
            }
            UiCommand::CommandPalette => {
                if self.no_modal_open() {
                    self.ui.dialog = Some(Dialog::Palette(Default::default()));
                }
            }
            UiCommand::ShortcutSheet => {
                if self.no_modal_open() {
                    self.ui.dialog = Some(Dialog::Shortcuts);
                }
            }
            UiCommand::LegendHexsides => {
                self.panels
                    .legend
                    .open_on(&self.doc, crate::panels::legend::LegendTab::Hexsides);
            }
            UiCommand::LegendOverlays => {
                self.panels
                    .legend
                    .open_on(&self.doc, crate::panels::legend::LegendTab::Overlays);
            }
            UiCommand::ImportScan => {
                let start = import_start_path(&self.doc);
                self.panels.digitise.open_import(&start);
            }
            UiCommand::ToggleChecked => {
                if let Some(hex) = self.ui.hovered.or(self.ui.selection.hex) {
                    let (label, change) = DigitiseChange::toggle_checked(&self.doc, hex);
                    self.apply_edit(label, vec![Change::Digitise(change)]);
                }
            }
            UiCommand::ShowOrderOfBattle => {
                self.panels.right_dock.tab = DockTab::Oob;
                self.panels.right_dock.oob.focus_tree = true;
                self.ui.settings.show_right_dock = true;
            }
            // With the hexside tool, R turns the side Enter draws; else the selected counter.
            UiCommand::RotateClockwise if self.ui.tools.tool == Tool::Hexside => {
                self.ui.tools.turn_key_side(true);
            }
            UiCommand::RotateAnticlockwise if self.ui.tools.tool == Tool::Hexside => {
                self.ui.tools.turn_key_side(false);
            }
            UiCommand::RotateClockwise => self.rotate_selected(true),
            UiCommand::RotateAnticlockwise => self.rotate_selected(false),
            UiCommand::RemoveFromMap => self.remove_selected_from_map(),
            UiCommand::GoToSelection => self.go_to_selection(ctx),
            UiCommand::ScenarioSettings => {
                if let Some(file) = &self.doc.scenario {
                    let form =
                        crate::panels::scenario_settings::SettingsDialog::new(&file.scenario);
                    self.ui.dialog = Some(Dialog::ScenarioSettings(Box::new(form)));
                }
            }
            UiCommand::NewScenario => self.new_scenario_for_map(),
            UiCommand::About => self.ui.dialog = Some(Dialog::About),
            UiCommand::ExportVassal => {
                self.open_export(crate::services::export::ExportKind::Vassal);
            }
            UiCommand::ExportTiled => self.open_export(crate::services::export::ExportKind::Tiled),
            UiCommand::ExportPrint => self.open_export(crate::services::export::ExportKind::Print),
            UiCommand::ToggleTableOverlay => self.toggle_table_overlay(),
            UiCommand::ClearRecent => {
                self.ui.settings.recent.clear();
                self.save_settings();
            }
        }
    }

    /// Runs an app command: what a panel, dialog, tool or layer asked for, with its data.
    fn run_app_command(&mut self, command: AppCommand) {
        let ctx = self.own.egui_ctx.clone();
        let ctx = &ctx;
        match command {
            AppCommand::OpenPath(ref path) => {
                if self.guarded(command.clone()) {
                    self.open_path(path);
                }
            }
            AppCommand::SaveAsPath(path) => self.save_as_chosen(&path, None),
            AppCommand::Edit { label, changes } => self.apply_edit(&label, changes),
            AppCommand::Stroke(out) => self.apply_tool_output(out),
            AppCommand::ApplyTool { hex, remove } => self.apply_tool_at(hex, remove),
            AppCommand::Select(sel) => {
                self.select(sel);
                ctx.request_repaint();
            }
            AppCommand::PickTerrain(code) => {
                self.ui.tools.terrain = code;
                if !matches!(self.ui.tools.tool, Tool::Brush | Tool::Fill) {
                    self.ui.tools.tool = Tool::Brush;
                }
            }
            AppCommand::SetBrushRadius(radius) => {
                self.ui.tools.brush_radius = radius.min(MAX_BRUSH_RADIUS);
            }
            AppCommand::SetHexsideFeature(id) => self.ui.tools.hexside = Some(id),
            AppCommand::SetOverlayType(id) => self.ui.tools.overlay = Some(id),
            AppCommand::SetLabelText(text) => self.ui.tools.label_text = text,
            AppCommand::SetLayers(layers) => {
                if layers.hex_names != self.ui.view.layers.hex_names {
                    self.ui.settings.show_hex_names = layers.hex_names;
                }
                self.ui.view.layers = layers;
            }
            AppCommand::ImportScanFrom(path) => {
                self.services.digitise.start_import(ctx, path, true)
            }
            AppCommand::SetBackground { label, after } => {
                let before = self.doc.map.background.clone();
                if let Some(change) = DigitiseChange::set_background(before, after.map(|b| *b)) {
                    self.apply_edit(&label, vec![Change::Digitise(change)]);
                }
            }
            AppCommand::SetShape(shape) => {
                let change = DigitiseChange::set_shape(&self.doc, shape).map(Change::Digitise);
                self.apply_edit("Apply the map's shape", Vec::from_iter(change));
            }
            AppCommand::SampleTerrain(code) => self.ui.tools.terrain = code,
            AppCommand::GoToHex { hex, close } => {
                // Zoomed first, so that a hex the zoom takes out of sight is centred.
                if close {
                    self.ui.view.zoom = self.ui.view.zoom.max(crate::map::view::ZOOM_100 * 2.0);
                }
                self.go_to_hex(ctx, &hex);
            }
            AppCommand::GoToDiagnostic(d) => self.go_to_diagnostic(ctx, &d),
            AppCommand::SetDigitisePanel(open) => self.services.digitise.set_open(open),
            AppCommand::DigitiseOn(tab) => self.services.digitise.open_on(tab),
            AppCommand::ShowDockTab(tab) => {
                self.panels.right_dock.tab = tab;
                self.ui.settings.show_right_dock = true;
            }
            AppCommand::PlaceCounter(at, hex) => self.move_counter(at, hex),
            AppCommand::ZoneOptions(options) => self.ui.zone_tool.set_options(options),
            AppCommand::PaintZone(zone) => {
                self.ui.zone_tool.zone = Some(zone);
                self.ui.zone_tool.mode = crate::tools::zone::ZoneMode::Zone;
                self.ui.tools.tool = Tool::Zone;
            }
            AppCommand::GuardSave(then) => match self.doc.document_path().map(Path::to_owned) {
                None => self.open_path_dialog(PickPurpose::Save, Some(*then)),
                Some(path) => {
                    self.save_checked(&path, Some(*then), false);
                }
            },
            AppCommand::GuardDiscard(then) => {
                // Go on without saving; the changes stay unsaved (and recoverable) until what
                // waited replaces the document or quits, each of which removes the recovery file.
                // Cancelling it brings the user back to them.
                self.own.guard_passed = true;
                self.own.commands.send(*then);
            }
            AppCommand::Recover(file) => {
                self.restore(&file);
            }
            AppCommand::DiscardRecovery(file) => self.discard_recovery(&file),
            AppCommand::PathChosen {
                purpose,
                path,
                then,
            } => self.path_chosen(purpose, &path, then.map(|t| *t)),
            AppCommand::Browse => self.browse(),
            AppCommand::CreateMap(settings) => self.create_map(&settings),
            AppCommand::Notify(text) => self.toast(text),
            AppCommand::StartExport(request) => self.start_export(*request),
            AppCommand::File(command) => self.file_command(command),
        }
    }

    /// Runs the validation the last commands asked for (the frame calls it once).
    pub fn validate_now(&mut self) {
        if std::mem::take(&mut self.own.validation_due) {
            let revisions = (self.doc.map_revision, self.doc.scenario_revision);
            self.services
                .diagnostics
                .revalidate_at(&self.doc, revisions);
        }
    }

    /// Runs a document edit now through the handler (one undo step, or part of the open one).
    pub(crate) fn edit(&mut self, label: &str, changes: Vec<Change>) {
        self.execute(AppCommand::Edit {
            label: label.to_owned(),
            changes,
        });
    }

    /// Closes the undo group open, if any (a save writes whole steps).
    pub(crate) fn close_undo_group(&mut self) {
        self.doc.history.end_group();
    }

    /// Marks the document saved (a save wrote it) or not (a repair or a recovery to save).
    pub(crate) fn mark_saved(&mut self, saved: bool) {
        if saved {
            self.doc.history.mark_saved();
        } else {
            self.doc.history.mark_unsaved();
        }
    }

    /// Replaces the whole document (open, new map, recovery): the one place that does. The
    /// history starts again; `unsaved` marks the new document as not saved (a recovery).
    pub fn replace_document(&mut self, doc: Document, unsaved: bool) {
        let scenario_revision = self.doc.scenario_revision + 1;
        let map_revision = self.doc.map_revision + 1;
        let revision = self.doc.revision + 1;
        self.doc = DocSlot {
            doc,
            revision,
            scenario_revision,
            map_revision,
            disk: Default::default(),
            history: History::new(),
        };
        if unsaved {
            self.doc.history.mark_unsaved();
        }
        self.ui.view.reset();
        self.ui.reset_document();
        self.services.counters = Default::default();
        self.panels.right_dock.oob.reset();
        self.panels.scenario_layer.reset();
        self.ui.table.reset();
        self.ui.selection.hex = None;
        if self.doc.scenario.is_some() {
            // A scenario is opened to place counters first.
            self.ui.tools.tool = Tool::Select;
        }
        self.ui.tools.sync_with_legend(&self.doc);
        self.own.validated_depth = None;
        self.own.validation_due = true;
        if self.doc.map.grid.hex_count() >= BIG_MAP_HEXES {
            // A big map's first check goes to the worker (the 200 x 200 stress map's takes
            // 20 ms in release, the largest map's a second or more): the window never waits.
            self.services.diagnostics.live.last_duration = self.services.diagnostics.live.budget;
        }
        self.validate_now();
    }

    /// Records where the document now lives after a save: the map's file, and the scenario's
    /// file with its `map` field. Where a file lives is not undoable state.
    pub(crate) fn relocate(
        &mut self,
        map_path: Option<PathBuf>,
        scenario: Option<(PathBuf, String)>,
    ) {
        self.doc.scenario_revision += 1;
        let doc = self.doc.write();
        if let Some(path) = map_path {
            doc.map_path = Some(path);
        }
        if let (Some((path, map_field)), Some(file)) = (scenario, doc.scenario.as_mut()) {
            file.path = path;
            file.scenario.map = map_field;
        }
    }
}
