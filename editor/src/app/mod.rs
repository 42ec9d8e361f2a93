//! The editor application: `EditorApp` owns the document (in a [`DocSlot`]), the undo history,
//! the map view, the tools and the panels. Menus, shortcuts, panels and tools send [`Command`]s;
//! `handler` runs them (the only code that changes the document); `frame` draws the window;
//! `lifecycle` opens, saves and recovers files. The panels, dialogs and map layers it shows
//! are handed a read-only `ViewContext` and send commands.

pub use crate::context::command;
mod export_job;
mod frame;
mod handler;
mod lifecycle;
mod recovery;
mod state;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bataille_schema::HexIndex;

use crate::context::command::DockTab;
use crate::model::document::{Document, NewMapSettings};
use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use crate::panels::legend::LegendEditor;
use crate::services::files::{FilePicker, ScriptedPicker, Settings, SystemPicker};

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
    /// A file bigger than this is opened off the UI thread, with a modal and Cancel.
    pub open_in_background_bytes: u64,
    /// Look for a scenario's variants beside it off the UI thread (a folder of large files
    /// costs up to 64 MiB of reading); tests look on the UI thread, as their checks run inline.
    pub variants_off_thread: bool,
}

impl EditorConfig {
    /// The user's directories and the desktop's file chooser.
    pub fn from_environment() -> EditorConfig {
        EditorConfig {
            config_dir: crate::services::files::default_config_dir(),
            recovery_dir: crate::services::files::default_recovery_dir(),
            picker: Box::new(SystemPicker::detect()),
            recovery_every_edits: 20,
            recovery_interval: Duration::from_secs(30),
            open_in_background_bytes: 4 * 1024 * 1024,
            variants_off_thread: true,
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
            open_in_background_bytes: 4 * 1024 * 1024,
            variants_off_thread: false,
        }
    }
}

pub use command::{AppCommand, Command, UiCommand};
pub use handler::DocSlot;
use state::Bookkeeping;
pub use state::{Services, UiState};

pub use crate::panels::dialogs::Dialog;
pub use crate::panels::palette::PaletteState;

/// A short message shown in a corner for a few seconds.
#[derive(Debug, Clone)]
pub struct Toast {
    pub text: String,
    pub until: f64,
}

/// The panels moved out of the app: each its own state and a `ui(&mut self, ctx, ui)`; and the
/// map layers, each its own state, painting and taking the pointer handed the context.
#[derive(Default)]
pub struct Panels {
    pub tool_bar: crate::panels::tool_bar::ToolBar,
    pub status_bar: crate::panels::status_bar::StatusBar,
    /// The order of battle and the inspector, under their tab strip.
    pub right_dock: crate::panels::right_dock::RightDock,
    /// The scenario on the map: counters, zones, command radii, drags.
    pub scenario_layer: crate::layers::scenario::ScenarioLayer,
    pub tool_dock: crate::panels::tool_dock::ToolDock,
    pub menu_bar: crate::panels::menu_bar::MenuBar,
    pub table_window: crate::panels::table_window::TableWindow,
    pub diagnostics: crate::panels::diagnostics::DiagnosticsList,
    pub digitise: crate::panels::digitise::DigitisePanel,
    /// The digitising marks and clicks on the map.
    pub scan_layer: crate::layers::scan::ScanLayer,
    /// The legend editor (a window beside the map).
    pub legend: LegendEditor,
}

/// The editor: its state grouped by owner.
pub struct EditorApp {
    /// The document with its undo history: read it freely; only the handler changes it.
    pub doc: DocSlot,
    /// What the user sees and has chosen, with the one selection.
    pub ui: UiState,
    /// The work done for the document.
    pub services: Services,
    /// The panels and the map layers, each its own state.
    pub panels: Panels,
    own: Bookkeeping,
}

impl EditorApp {
    /// A new editor with a blank map, offering any recovery files found.
    pub fn new(config: EditorConfig) -> EditorApp {
        let (settings, broken_settings) = Settings::load_reporting(config.config_dir.as_deref());
        let doc = Document::new_map(&NewMapSettings::default());
        let mut app = EditorApp {
            doc: DocSlot::new(doc),
            ui: UiState::new(settings),
            services: Services::default(),
            panels: Panels::default(),
            own: Bookkeeping {
                commands: Default::default(),
                guard_passed: false,
                allow_close: false,
                title: String::new(),
                recovery_written_at: None,
                recovery_writer: None,
                recovery_lock: None,
                instance: crate::services::files::editor_instance(),
                recovery_edits: 0,
                last_edit_at: None,
                validated_depth: None,
                time: 0.0,
                validation_due: false,
                egui_ctx: egui::Context::default(),
                config,
            },
        };
        app.ui.tools.sync_with_legend(&app.doc);
        let (found, broken) = crate::services::recovery::find_recoveries_reporting(
            app.own.config.recovery_dir.as_deref(),
        );
        for text in broken_settings.into_iter().chain(broken) {
            app.services.io_errors.push(text.clone());
            app.toast(text);
        }
        if !found.is_empty() {
            app.ui.dialog = Some(Dialog::Recover { found });
        }
        app
    }

    /// A new editor opening a file (a map, or a scenario with its map).
    pub fn with_file(config: EditorConfig, path: &Path) -> EditorApp {
        let mut app = EditorApp::new(config);
        let recover = app.ui.dialog.take();
        app.open_path(path);
        // The recovery offer comes first, over the file.
        if let Some(dialog) = recover {
            if let Some(Dialog::Error { .. }) = &app.ui.dialog {
                // Keep the error; the recovery is offered at the next start.
            } else {
                app.ui.dialog = Some(dialog);
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
        if let Some(origin) = &self.doc.variant
            && let Some(file) = origin.base_path.file_name()
        {
            name = format!("{name}, a variant of {}", file.to_string_lossy());
        }
        format!("{name}{mark} — Bataille editor")
    }

    /// Whether the window may close (the user saved or discarded the changes).
    pub fn close_allowed(&self) -> bool {
        self.own.allow_close
    }

    /// The screen point of a grid point in the last frame's map view.
    pub fn screen_of(&self, grid_point: [f32; 2]) -> egui::Pos2 {
        self.ui
            .view
            .to_screen(self.ui.map_rect, egui::pos2(grid_point[0], grid_point[1]))
    }

    /// The screen point of a hex's centre in the last frame's map view.
    pub fn screen_of_hex(&self, hex: HexIndex) -> egui::Pos2 {
        self.screen_of(self.doc.map.grid.centre(hex))
    }

    pub fn is_dirty(&self) -> bool {
        self.doc.history().is_dirty()
    }

    /// Runs `f` with this frame's read-only context and the panels' own state: the borrows
    /// split at the root (as rerun's `app_state.rs` does), so no panel gets the app.
    pub(crate) fn with_context<R>(
        &mut self,
        f: impl FnOnce(&crate::context::ViewContext<'_>, &mut Panels) -> R,
    ) -> R {
        self.with_digitise(|cx, panels, _| f(cx, panels))
    }

    /// [`EditorApp::with_context`], lending the digitising session too (to the digitise panel
    /// and the scan's map layer, which both change it).
    pub(crate) fn with_digitise<R>(
        &mut self,
        f: impl FnOnce(
            &crate::context::ViewContext<'_>,
            &mut Panels,
            &mut crate::services::digitise::Digitise,
        ) -> R,
    ) -> R {
        self.with_lent(|cx, panels, digitise, _| f(cx, panels, digitise))
    }

    /// Runs `f` with this frame's context and the map layer `kind`, its state lent (the
    /// scenario layer, the digitising session, the legend's eyedropper, the table overlay).
    /// Every kind of [`crate::layers::MapLayerKind::ORDER`] is a layer here.
    pub(crate) fn with_layer<R>(
        &mut self,
        kind: crate::layers::MapLayerKind,
        f: impl FnOnce(&crate::context::ViewContext<'_>, &mut dyn crate::layers::MapLayer) -> R,
    ) -> R {
        use crate::layers::MapLayerKind as K;
        use crate::layers::{feedback, scan, scenario, table, terrain};
        self.with_lent(|cx, panels, digitise, overlay| match kind {
            K::Scan => {
                let legend = &mut panels.legend;
                f(cx, &mut terrain::Scan { legend, digitise })
            }
            K::Terrain => f(cx, &mut terrain::Terrain { digitise }),
            K::Zones => f(cx, &mut scenario::Zones(&mut panels.scenario_layer)),
            K::Counters => f(cx, &mut scenario::Counters(&mut panels.scenario_layer)),
            K::CommandRadius => f(cx, &mut scenario::CommandRadius(&panels.scenario_layer)),
            K::Suggestions => {
                let layer = &mut panels.scan_layer;
                f(cx, &mut scan::Suggestions { layer, digitise })
            }
            K::TableOverlay => f(cx, &mut table::TableLayer(overlay)),
            K::ToolFeedback => f(cx, &mut feedback::ToolFeedback(&panels.scenario_layer)),
        })
    }

    /// The context, the panels, and the state lent beside them: the digitising session and the
    /// table overlay.
    fn with_lent<R>(
        &mut self,
        f: impl FnOnce(
            &crate::context::ViewContext<'_>,
            &mut Panels,
            &mut crate::services::digitise::Digitise,
            &mut crate::map::table_overlay::TableOverlay,
        ) -> R,
    ) -> R {
        let EditorApp {
            doc,
            ui,
            services,
            panels,
            own,
        } = self;
        let UiState {
            view,
            tools,
            zone_tool,
            selection,
            hovered,
            table,
            settings,
            ..
        } = ui;
        let Services {
            diagnostics,
            digitise,
            counters,
            ..
        } = services;
        let ctx = crate::context::ViewContext {
            revision: doc.revision(),
            history: doc.history(),
            doc,
            diagnostics: &diagnostics.diagnostics,
            diagnostics_revision: diagnostics.revision,
            checking: diagnostics.pending(),
            scenario_revision: doc.scenario_revision(),
            selection: *selection,
            view,
            hovered: *hovered,
            tools,
            zone_tool,
            counters,
            settings,
            commands: &own.commands,
        };
        f(&ctx, panels, digitise, table)
    }

    /// Queues a command (UI or app), run at the end of the frame.
    pub fn request(&mut self, command: impl Into<Command>) {
        self.own.commands.send(command);
    }

    // -----------------------------------------------------------------------------------------
    // Dialogs and Escape.

    /// Escape: the top dialog closes; else a digitise click mode ends; else the selection clears.
    pub(crate) fn escape(&mut self) {
        if self.ui.dialog.is_some() {
            // The top dialog goes; a guard's pending command is dropped (Cancel).
            self.ui.dialog = None;
        } else if self.panels.legend.picking.is_some() {
            // The eyedropper first: the legend stays open.
            self.panels.legend.picking = None;
        } else if self.panels.legend.open {
            self.panels.legend.open = false;
        } else if self.panels.digitise.import_dialog.is_some() {
            self.panels.digitise.import_dialog = None;
        } else if self.services.digitise.mode != crate::services::digitise::Mode::Idle {
            self.services.digitise.mode = crate::services::digitise::Mode::Idle;
        } else {
            self.ui.selection.hex = None;
            self.ui.selection.item = None;
        }
    }

    /// The unsaved-changes question for what changed (the map, the scenario or both).
    pub(crate) fn guard_dialog(&self, then: impl Into<Command>) -> Dialog {
        let files = crate::services::save::unsaved_files(&self.doc);
        Dialog::Guard {
            then: then.into(),
            question: crate::services::save::unsaved_sentence(&files),
        }
    }

    /// Whether no dialog or editor window is open (a new one may open).
    pub(crate) fn no_modal_open(&self) -> bool {
        self.ui.dialog.is_none()
            && !self.panels.legend.open
            && self.panels.digitise.import_dialog.is_none()
    }

    // -----------------------------------------------------------------------------------------
    // The selection, and going to things.

    /// Selects an item of the order of battle (and the hex its counter stands on).
    pub fn select(&mut self, sel: Option<Sel>) {
        self.ui.selection.item = sel;
        if let Some(at) = sel.and_then(CounterAt::of)
            && let Some(hex) = self.counter_hex(at)
        {
            self.ui.selection.hex = Some(hex);
        }
    }

    /// The hex a counter stands on at set-up.
    pub fn counter_hex(&self, at: CounterAt) -> Option<bataille_schema::HexIndex> {
        let s = &self.doc.scenario.as_ref()?.scenario;
        crate::model::scenario_edit::placement_of(s, at)?
            .hex()
            .and_then(|h| self.doc.map.grid.lookup(h))
    }

    /// The counter selected, if any.
    pub fn selected_counter(&self) -> Option<CounterAt> {
        self.ui.selection.item.and_then(CounterAt::of)
    }

    /// Goes to what a diagnostic is about: selects its unit, leader, corps or zone (the right
    /// dock shows it) and centres its hex.
    pub fn go_to_diagnostic(&mut self, ctx: &egui::Context, d: &bataille_validator::Diagnostic) {
        let sel = match (&d.subject, &self.doc.scenario) {
            (Some(subject), Some(file)) => Sel::of_id(&file.scenario, subject),
            _ => None,
        };
        if sel.is_some() {
            self.select(sel);
            self.panels.right_dock.tab = DockTab::Oob;
        }
        if let Some(hex) = d.hex.as_deref() {
            self.go_to_hex(ctx, &bataille_schema::HexName::from(hex));
        }
    }

    /// Centres the view on the selected counter.
    pub fn go_to_selection(&mut self, ctx: &egui::Context) {
        if let Some(hex) = self.selected_counter().and_then(|at| self.counter_hex(at)) {
            let name = self.doc.map.grid.name(hex);
            self.go_to_hex(ctx, &name);
        }
    }

    /// Centres the view on a hex and selects it; a hex already wholly on screen stays where
    /// it is (issue 21: F8 moved the map under the pointer for a hex in plain sight).
    pub fn go_to_hex(&mut self, ctx: &egui::Context, hex: &bataille_schema::HexName) {
        if let Some(index) = self.doc.map.grid.lookup(hex) {
            let [x, y] = self.doc.map.grid.centre(index);
            let centre = egui::pos2(x, y);
            let in_sight = self
                .ui
                .view
                .visible_grid_rect(self.ui.map_rect)
                .shrink(1.0)
                .contains(centre);
            if !in_sight {
                self.ui.view.centre = centre;
            }
            self.ui.selection.hex = Some(index);
            ctx.request_repaint();
        }
    }

    // -----------------------------------------------------------------------------------------
    // The scenario: selection, counters.

    /// Turns the selected unit one hexside (R / Shift+R).
    fn rotate_selected(&mut self, clockwise: bool) {
        let (Some(at), Some(file)) = (self.selected_counter(), &self.doc.scenario) else {
            return;
        };
        let turned =
            crate::model::oob_ops::rotate(&file.scenario, &self.doc.map.grid, at, clockwise);
        if let Some((label, changes)) = turned {
            self.edit(&label, changes);
        }
    }

    /// Takes the selected counter off the map (Delete).
    pub(crate) fn remove_selected_from_map(&mut self) {
        let (Some(at), Some(file)) = (self.selected_counter(), &self.doc.scenario) else {
            return;
        };
        if let Some((label, changes)) = crate::model::oob_ops::remove_from_map(&file.scenario, at) {
            self.edit(&label, changes);
        }
    }

    /// Moves a counter onto a hex (one undo step) and selects it.
    pub fn move_counter(&mut self, at: CounterAt, hex: bataille_schema::HexIndex) {
        let Some(file) = &self.doc.scenario else {
            return;
        };
        let name = self.doc.map.grid.name(hex);
        if let Some(change) = crate::model::oob_ops::place_on(&file.scenario, at, name) {
            self.edit("Place counter", vec![change]);
        }
        self.select(Some(Sel::from(at)));
        self.ui.selection.hex = Some(hex);
    }

    /// File ▸ Export ▸ …: opens the dialog for `kind`.
    pub(crate) fn open_export(&mut self, kind: crate::services::export::ExportKind) {
        let stem = lifecycle::file_stem_of(
            &self
                .doc
                .scenario
                .as_ref()
                .map_or_else(|| self.doc.map.name.clone(), |s| s.scenario.title.clone()),
        );
        let mut form = crate::panels::export::ExportForm::new(
            kind,
            self.doc.document_path(),
            &stem,
            self.doc.scenario.is_some(),
        );
        // The folder of the last export, when it is still there (issue 21: every export
        // started beside the scenario again).
        if let Some(folder) = self
            .ui
            .settings
            .export_folder
            .as_deref()
            .filter(|f| f.is_dir())
        {
            form.start_in(folder);
        }
        self.ui.dialog = Some(Dialog::Export(Box::new(form)));
    }

    /// The current tool applied to one hex, as a click there would (`remove`: a right click),
    /// one undo step: the map by keyboard (`layers::keys`).
    pub fn apply_tool_at(&mut self, hex: HexIndex, remove: bool) {
        use crate::tools::{StrokeKind, Tool};
        let grid = &self.doc.map.grid;
        // The hexside tool draws the side chosen by R / Shift+R; the others act on the hex.
        let [x, y] = match self.ui.tools.tool {
            Tool::Hexside => grid
                .side_corners(hex, self.ui.tools.key_side(grid))
                .map_or_else(
                    || grid.centre(hex),
                    |[a, b]| [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0],
                ),
            _ => grid.centre(hex),
        };
        let kind = if remove {
            StrokeKind::Remove
        } else {
            StrokeKind::Add
        };
        self.ui.selection.hex = Some(hex);
        let out = match self.ui.tools.tool {
            Tool::Units => {
                match (self.selected_counter(), remove) {
                    (Some(at), false) => self.move_counter(at, hex),
                    (Some(_), true) => self.remove_selected_from_map(),
                    (None, _) => {}
                }
                return;
            }
            Tool::Zone => {
                let unit = match self.ui.selection.item {
                    Some(Sel::Unit(a, u)) => Some((a, u)),
                    _ => None,
                };
                let zone = &mut self.ui.zone_tool;
                zone.stroke_input(&self.doc, unit, [x, y], kind, true)
            }
            _ => {
                self.ui.tools.stroke = Some(kind);
                self.ui
                    .tools
                    .stroke_input(&self.doc, [x, y], kind, true, false)
            }
        };
        self.apply_tool_output(out);
        let end = self.ui.tools.end_stroke();
        self.apply_tool_output(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::MapLayerKind;

    /// One map canvas (issue 21): every layer of the listed order is a `MapLayer` handed the
    /// context, the scan and the terrain too, so none is painted or offered the pointer beside
    /// the list.
    #[test]
    fn every_listed_layer_is_a_map_layer_of_its_kind() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut app = EditorApp::new(EditorConfig::isolated(dir.path()));
        for kind in MapLayerKind::ORDER {
            assert_eq!(app.with_layer(kind, |_, layer| layer.kind()), kind);
        }
    }
}
