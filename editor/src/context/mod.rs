//! What every panel, tool and map layer is handed each frame: [`ViewContext`], a read-only view
//! of the editor (the document, the undo history, the validator's diagnostics, the selection,
//! the map view) and the [`CommandSender`] through which it asks for anything (as rerun's
//! `ViewerContext` and `CommandSender`). The app builds it once per frame, splitting its
//! borrows at the root; nothing here knows the app, and nothing here can change the document:
//! only the app's one handler, draining the commands, does.

pub mod command;
pub mod shortcuts;

use std::cell::RefCell;

use bataille_schema::HexIndex;
use bataille_validator::Diagnostic;

use crate::map::counters::CounterCache;
use crate::map::view::MapView;
use crate::model::document::Document;
use crate::model::history::History;
use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use crate::services::files::Settings;
use crate::tools::ToolState;
use crate::tools::zone::ZoneTool;

pub use command::{AppCommand, Command, UiCommand};

/// The queue of commands panels, tools and layers send; the app drains it once per frame into
/// its one handler. Sending needs only `&self`, so a panel holding the shared context can ask.
#[derive(Debug, Default)]
pub struct CommandSender {
    queue: RefCell<Vec<Command>>,
}

impl CommandSender {
    /// Queues a command (a [`UiCommand`] or an [`AppCommand`]), run at the end of the frame.
    pub fn send(&self, command: impl Into<Command>) {
        self.queue.borrow_mut().push(command.into());
    }

    /// Takes every queued command, oldest first.
    pub fn take(&self) -> Vec<Command> {
        std::mem::take(&mut *self.queue.borrow_mut())
    }
}

/// What is selected: an item of the order of battle (a counter, a corps, a zone…) and a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Selection {
    pub item: Option<Sel>,
    pub hex: Option<HexIndex>,
}

impl Selection {
    /// The counter selected, if the item is one.
    pub fn counter(&self) -> Option<CounterAt> {
        self.item.and_then(CounterAt::of)
    }
}

/// The editor as a panel sees it this frame: everything read-only, plus the command sender.
pub struct ViewContext<'a> {
    /// The document (map, scenario): read it; change it by sending a `AppCommand::Edit`.
    pub doc: &'a Document,
    /// The document's revision: changes whenever the document does (caches compare it).
    pub revision: u64,
    pub history: &'a History,
    /// The validator's own diagnostics of the document, as last checked.
    pub diagnostics: &'a [Diagnostic],
    /// Bumped whenever the diagnostics change.
    pub diagnostics_revision: u64,
    /// A check is running: the diagnostics are older than the document.
    pub checking: bool,
    /// Changes whenever the scenario does (caches of names compare it).
    pub scenario_revision: u64,
    pub selection: Selection,
    /// The map view: pan, zoom, layers shown.
    pub view: &'a MapView,
    /// The hex under the pointer (last frame).
    pub hovered: Option<HexIndex>,
    /// The tools' state: the current tool, its terrain, brush, feature.
    pub tools: &'a ToolState,
    /// The zone tool's state: its mode, the zone it paints, whether zones are shown.
    pub zone_tool: &'a ZoneTool,
    /// The scenario's counters by hex (rebuilt when the scenario changes).
    pub counters: &'a CounterCache,
    /// The editor's settings (docks shown, recent files).
    pub settings: &'a Settings,
    pub commands: &'a CommandSender,
}

impl ViewContext<'_> {
    /// Queues a command for the app's handler (run at the end of the frame).
    pub fn send(&self, command: impl Into<Command>) {
        self.commands.send(command);
    }

    /// The hex a counter stands on at set-up.
    pub fn counter_hex(&self, at: CounterAt) -> Option<HexIndex> {
        let s = &self.doc.scenario.as_ref()?.scenario;
        crate::model::scenario_edit::placement_of(s, at)?
            .hex()
            .and_then(|h| self.doc.map.grid.lookup(h))
    }

    /// Errors and warnings among the diagnostics.
    pub fn diagnostic_counts(&self) -> (usize, usize) {
        // A summary of diagnostics not listed counts as the number it stands for.
        let count = |error: bool| {
            self.diagnostics
                .iter()
                .filter(|d| (d.severity == bataille_validator::Severity::Error) == error)
                .map(bataille_validator::Diagnostic::count)
                .sum()
        };
        (count(true), count(false))
    }
}
