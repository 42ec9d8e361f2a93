//! App commands: what panels, dialogs, tools and map layers ask of the app with the data it
//! needs (a path, an edit, a tool's stroke, a hex), as rerun's `SystemCommand`. They have no
//! label, tooltip or shortcut and are listed nowhere: a user reaches them through a panel, never
//! from a menu, the palette or a key (those read [`super::UiCommand`]).

use std::path::PathBuf;

use bataille_schema::map::Background;
use bataille_schema::{HexIndex, HexName, Id};

use super::Command;
use crate::map::view::Layers;
use crate::model::document::NewMapSettings;
use crate::model::history::Change;
use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use crate::services::export::ExportRequest;
use crate::services::files::PickPurpose;
use crate::tools::ToolOutput;
use crate::tools::zone::ZoneOptions;

/// Something a panel, a dialog, a tool or a map layer asks for, with its data.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// Open this file (a recent file; guarded by the unsaved-changes question).
    OpenPath(PathBuf),
    /// Save the document under this path.
    SaveAsPath(PathBuf),
    /// A document edit: one undo step (or part of the open one).
    Edit {
        label: String,
        changes: Vec<Change>,
    },
    /// What a map tool returned for this frame's pointer input (a stroke's part).
    Stroke(ToolOutput),
    /// The current tool applied to one hex as a click there would (Enter on the map), or as a
    /// right click (`remove`, Shift+Enter): one undo step.
    ApplyTool {
        hex: HexIndex,
        remove: bool,
    },
    /// Select an item of the order of battle (and the hex its counter stands on), or nothing.
    Select(Option<Sel>),
    /// The terrain painted (a palette row): the brush or fill tool takes it.
    PickTerrain(char),
    SetBrushRadius(u32),
    /// The hexside feature the hexside tool draws.
    SetHexsideFeature(Id),
    /// The overlay the overlay tool places.
    SetOverlayType(Id),
    /// The text the label tool sets.
    SetLabelText(String),
    /// The map layers shown.
    SetLayers(Layers),
    /// Import this scan for the map (decoded in the background; its background is set then).
    ImportScanFrom(PathBuf),
    /// Set the map's scan and its fit (`None`: remove the scan): one undo step.
    SetBackground {
        label: String,
        after: Option<Box<Background>>,
    },
    /// Set the map's shape found on the print (`short_lines` or `half_hexes`): one undo step.
    SetShape(bataille_digitize::shape::FileShape),
    /// The terrain the digitise panel's sample clicks mark (the palette's terrain, the tool
    /// unchanged).
    SampleTerrain(char),
    /// Centre the map on a hex and select it; `close`: zoom in enough to judge it (or a
    /// hexside of it) against the scan (200 % at least).
    GoToHex {
        hex: HexName,
        close: bool,
    },
    /// Show (or hide) the digitise panel.
    SetDigitisePanel(bool),
    /// The digitise panel, opened on a tab.
    DigitiseOn(DigitiseTab),
    /// Go to what a diagnostic is about: select its unit, leader, corps or zone, centre its hex.
    GoToDiagnostic(Box<bataille_validator::Diagnostic>),
    /// Put a counter on a hex (one undo step) and select it: a drag from the tree or the map.
    PlaceCounter(CounterAt, HexIndex),
    /// Paint a deployment zone's hexes: the zone tool, on this zone.
    PaintZone(usize),
    /// The zone tool's options (mode, zone painted, objective points, zones shown).
    ZoneOptions(ZoneOptions),
    /// Show a page of the right dock.
    ShowDockTab(DockTab),
    /// The unsaved-changes question answered Save: save (or ask where), then run the command.
    GuardSave(Box<Command>),
    /// …answered Discard: forget the changes, then run the command.
    GuardDiscard(Box<Command>),
    /// Recover the unsaved changes kept in this recovery file.
    Recover(PathBuf),
    /// Delete this recovery file.
    DiscardRecovery(PathBuf),
    /// The path dialog's choice: open it, or save there (then run `then`).
    PathChosen {
        purpose: PickPurpose,
        path: PathBuf,
        then: Option<Box<Command>>,
    },
    /// The path dialog's Browse…: ask the desktop's file chooser.
    Browse,
    /// The new-map dialog's Create: a new document with these settings.
    CreateMap(NewMapSettings),
    /// Tell the user something in a corner for a few seconds.
    Notify(String),
    /// The export dialog's Export: start the job.
    StartExport(Box<ExportRequest>),
    /// A file-safety dialog's answer (replace a file, overwrite one changed on disk, reload).
    File(FileCommand),
}

/// What the file-safety dialogs send (issue 26): saves the user agreed to, and reloading.
#[derive(Debug, Clone, PartialEq)]
pub enum FileCommand {
    /// Save to `path`, then run `then`. `replace`: the user agreed to replace the file there
    /// (Save As); `overwrite`: to overwrite files changed on disk since they were read.
    SaveTo {
        path: PathBuf,
        then: Option<Box<Command>>,
        replace: bool,
        overwrite: bool,
    },
    /// Read the document's files again from disk, dropping the changes made in the editor.
    Reload,
    /// Keep both versions: ask where the document goes (a scenario's map beside it), then
    /// run `then`.
    SaveElsewhere { then: Option<Box<Command>> },
}

/// Which page the right dock shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DockTab {
    #[default]
    Oob,
    Inspector,
    /// The digitising page (shown while digitising).
    Digitise,
}

/// The tabs of the digitise panel.
pub use crate::services::digitise::Tab as DigitiseTab;
