//! The app's state grouped by owner, beside the document (`DocSlot`, the document and its undo
//! history) and the panels (`Panels`): what the user sees and has chosen ([`UiState`], with the
//! one selection), the work done for the document ([`Services`]), and the app's own bookkeeping.

use std::time::Instant;

use bataille_schema::HexIndex;

use crate::app::{Dialog, EditorConfig, Toast, export_job, lifecycle};
use crate::map::view::MapView;
use crate::model::document::Document;
use crate::panels::diagnostics::DiagnosticsPanel;
use crate::services::files::Settings;
use crate::tools::ToolState;

/// What the user sees and has chosen, kept between frames: the map view, the tools, the one
/// selection, the dialog and the notices, the table overlay, the editor's settings. The panels
/// read it in the context; the handler changes it.
pub struct UiState {
    pub view: MapView,
    pub tools: ToolState,
    /// The zone tool: its mode, the zone it paints, whether zones are shown.
    pub zone_tool: crate::tools::zone::ZoneTool,
    /// The selection: an item of the order of battle and a hex (the keyboard's cursor).
    pub selection: crate::context::Selection,
    /// The hex under the pointer.
    pub hovered: Option<HexIndex>,
    /// Where the map was drawn in the last frame.
    pub map_rect: egui::Rect,
    pub dialog: Option<Dialog>,
    pub toasts: Vec<Toast>,
    /// View ▸ Table overlay.
    pub table: crate::map::table_overlay::TableOverlay,
    /// The editor's settings (docks shown, recent files), saved between sessions.
    pub settings: Settings,
}

impl UiState {
    pub(super) fn new(settings: Settings) -> UiState {
        let mut view = MapView::default();
        view.layers.hex_names = settings.show_hex_names;
        UiState {
            view,
            tools: ToolState::default(),
            zone_tool: Default::default(),
            selection: Default::default(),
            hovered: None,
            map_rect: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0)),
            dialog: None,
            toasts: Vec::new(),
            table: crate::map::table_overlay::TableOverlay::from_settings(&settings.table),
            settings,
        }
    }

    /// Forgets the previous document's selection and zone tool (whether zones are shown stays).
    pub fn reset_document(&mut self) {
        let show = self.zone_tool.show;
        self.zone_tool = Default::default();
        self.zone_tool.show = show;
        self.selection = Default::default();
    }

    /// Drops a selected item that no longer exists.
    pub fn check_selection(&mut self, doc: &Document) {
        match (self.selection.item, doc.scenario.as_ref()) {
            (Some(sel), Some(s)) if sel.exists(&s.scenario) => {}
            (Some(_), _) => self.selection.item = None,
            _ => {}
        }
    }
}

/// The work done for the document, off or beside the UI: its checks, the digitising session,
/// exports, opening files, the miniatures systems, the counters by hex.
#[derive(Default)]
pub struct Services {
    /// The validator's diagnostics of the document, checked inline or on a worker.
    pub diagnostics: DiagnosticsPanel,
    /// The digitising session (the scan, its jobs, the calibration and suggestion tools), lent
    /// to the digitise panel and the scan's map layer.
    pub digitise: crate::services::digitise::Digitise,
    /// File ▸ Export's running job.
    pub exports: export_job::Exports,
    /// The miniatures systems scenarios name, loaded.
    pub systems: crate::services::systems::SystemCache,
    /// The scenario's counters by hex (rebuilt when the scenario changes).
    pub counters: crate::map::counters::CounterCache,
    /// A file being opened off the UI thread.
    pub opening: Option<lifecycle::Opening>,
    /// The look for the open scenario's variants beside it, off the UI thread (a folder of
    /// large files costs up to 64 MiB of reading): the base it is for, and the job.
    pub variant_scan: Option<(
        std::path::PathBuf,
        crate::services::jobs::Job<crate::services::door::VariantsBeside>,
    )>,

    /// File operations that failed (each also shown in a toast).
    pub io_errors: Vec<String>,
}

/// The app's own bookkeeping, seen by nobody else: the command queue, the unsaved-changes
/// guard, recovery, when to check.
pub(super) struct Bookkeeping {
    pub(super) config: EditorConfig,
    /// Commands queued by menus, panels and tools, drained by the handler each frame.
    pub(super) commands: crate::context::CommandSender,
    /// Set once the user agreed to lose unsaved changes (or saved them) for the next action.
    pub(super) guard_passed: bool,
    /// The window may close now.
    pub(super) allow_close: bool,
    pub(super) title: String,
    pub(super) recovery_written_at: Option<Instant>,
    /// A recovery file being written in the background.
    pub(super) recovery_writer: Option<std::thread::JoinHandle<std::io::Result<()>>>,
    /// The lock on this editor's recovery file (another editor never offers or deletes it).
    pub(super) recovery_lock: Option<crate::services::recovery::RecoveryLock>,
    /// This editor's name in its recovery files' names.
    pub(super) instance: String,
    pub(super) recovery_edits: u64,
    pub(super) last_edit_at: Option<Instant>,
    pub(super) validated_depth: Option<(u64, usize)>,
    pub(super) time: f64,
    /// A committed step asked for a check (run once per frame).
    pub(super) validation_due: bool,
    /// The egui context of the last frame (commands that repaint or close the window).
    pub(super) egui_ctx: egui::Context,
}
