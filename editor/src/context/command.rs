//! Everything a user can ask the editor, as data: the `Command` enum with each command's label,
//! tooltip and shortcuts defined once (as rerun's `UICommand` does). Menus, the tool bar, the
//! command palette, the shortcut sheet and the key handler all read them from here; panels and
//! tools queue commands and `EditorApp::execute` (in `handler`) is the one place they run.

use std::path::PathBuf;

use egui::{Key, KeyboardShortcut, Modifiers};

use bataille_schema::map::Background;
use bataille_schema::{HexIndex, HexName, Id};

use crate::map::view::Layers;
use crate::model::document::NewMapSettings;
use crate::model::history::Change;
use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use crate::services::export::ExportRequest;
use crate::services::files::PickPurpose;
use crate::tools::zone::ZoneOptions;
use crate::tools::{Tool, ToolOutput};

/// Something the user asked for, from a menu, a button, a shortcut, the palette or a tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
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
    /// Hide both docks and the diagnostics (or show them again): the map takes the window.
    ToggleDocks,
    NextDiagnostic,
    PreviousDiagnostic,
    /// Escape: closes the top dialog, else leaves a digitise click mode, else clears the
    /// selection.
    Escape,
    About,
    ClearRecent,
    RotateClockwise,
    RotateAnticlockwise,
    RemoveFromMap,
    ScenarioSettings,
    NewScenario,
    CommandPalette,
    ShortcutSheet,
    /// File ▸ Export ▸ VASSAL module / Tiled map / Print-and-play kit.
    ExportVassal,
    ExportTiled,
    ExportPrint,
    /// View ▸ Table overlay: a miniatures table over the map at a system's ground scale.
    ToggleTableOverlay,
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
    /// Show the order of battle in the right dock, scrolled to the selection.
    ShowOrderOfBattle,
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
    /// The legend editor, on its hexside (overlay) page.
    LegendHexsides,
    LegendOverlays,
    /// Digitise ▸ Import scan…: the dialog asking for the scan's file.
    ImportScan,
    /// Import this scan for the map (decoded in the background; its background is set then).
    ImportScanFrom(PathBuf),
    /// Set the map's scan and its fit (`None`: remove the scan): one undo step.
    SetBackground {
        label: String,
        after: Option<Box<Background>>,
    },
    /// Mark the hex under the pointer (or the selected one) as checked against the scan, or
    /// unmark it.
    ToggleChecked,
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
    DigitisePanel(bool),
    /// The digitise panel, opened on a tab.
    DigitiseOn(DigitiseTab),
    /// Go to what a diagnostic is about: select its unit, leader, corps or zone, centre its hex.
    GoToDiagnostic(Box<bataille_validator::Diagnostic>),
    /// Centre the map on the selected counter.
    GoToSelection,
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

/// What the pointer does, for the shortcut sheet (not commands: they act where the pointer is).
pub const POINTER_GESTURES: &[(&str, &str)] = &[
    ("Alt+click", "Pick the terrain under the cursor"),
    ("Right-drag", "Remove (hexside, overlay, label, zone tools)"),
    ("Space+drag, middle drag", "Pan"),
    ("Wheel, pinch", "Zoom to the cursor"),
    ("Shift+wheel", "Turn the selected counter"),
];

/// The map's keys while it has the keyboard focus (`layers::keys`), for the shortcut sheet.
pub const MAP_KEYS: &[(&str, &str)] = &[
    (
        "Arrows (map focused)",
        "Move the selected hex, the keyboard's cursor",
    ),
    ("Enter", "The current tool on the selected hex, as a click"),
    ("Shift+Enter", "Remove there, as a right click"),
    (
        "R, Shift+R (hexside tool)",
        "Turn to the next side of the selected hex, the one Enter draws",
    ),
];

const fn key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}
const fn cmd(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}
const fn shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::SHIFT, key)
}
const fn cmd_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(
        Modifiers {
            alt: false,
            ctrl: false,
            shift: true,
            mac_cmd: false,
            command: true,
        },
        key,
    )
}

impl Command {
    /// The commands the palette lists and the key handler knows (those without a payload).
    pub fn all() -> Vec<Command> {
        use Command::*;
        let mut all = vec![
            NewMap,
            Open,
            Save,
            SaveAs,
            ExportVassal,
            ExportTiled,
            ExportPrint,
            Quit,
            Undo,
            Redo,
            Escape,
        ];
        all.extend(crate::tools::Tool::ALL.iter().map(|&t| Command::Tool(t)));
        all.extend([
            BrushSmaller,
            BrushBigger,
            FitMap,
            Zoom100,
            ZoomIn,
            ZoomOut,
            ToggleHexNames,
            ToggleTableOverlay,
            ToggleChecked,
            ToggleDocks,
            ToggleLeftDock,
            ToggleRightDock,
            ToggleDiagnostics,
            ShowOrderOfBattle,
            ShowDockTab(DockTab::Inspector),
            NextDiagnostic,
            PreviousDiagnostic,
            GoToSelection,
            MapSettings,
            Legend,
            LegendHexsides,
            LegendOverlays,
            NewScenario,
            ScenarioSettings,
            RotateClockwise,
            RotateAnticlockwise,
            RemoveFromMap,
            CommandPalette,
            ShortcutSheet,
            ClearRecent,
            About,
            ImportScan,
            DigitisePanel(true),
        ]);
        all
    }

    /// The name in menus and the palette.
    pub fn label(&self) -> String {
        use Command::*;
        let text = match self {
            NewMap => "New map…",
            Open => "Open…",
            OpenPath(path) => return format!("Open {}", path.display()),
            Save => "Save",
            SaveAs => "Save as…",
            SaveAsPath(path) => return format!("Save as {}", path.display()),
            Quit => "Quit",
            Undo => "Undo",
            Redo => "Redo",
            FitMap => "Fit map",
            Zoom100 => "Zoom 100 %",
            ZoomIn => "Zoom in",
            ZoomOut => "Zoom out",
            ToggleHexNames => "Hex names",
            Tool(tool) => return format!("{} tool", tool.name()),
            BrushBigger => "Bigger brush",
            BrushSmaller => "Smaller brush",
            MapSettings => "Map settings…",
            Legend => "Legend…",
            ToggleLeftDock => "Tool dock",
            ToggleRightDock => "Inspector dock",
            ToggleDiagnostics => "Diagnostics",
            ToggleDocks => "Hide or show the docks",
            NextDiagnostic => "Next diagnostic",
            PreviousDiagnostic => "Previous diagnostic",
            Escape => "Close dialog / clear selection",
            About => "About…",
            ClearRecent => "Clear recent files",
            RotateClockwise => "Turn counter clockwise",
            RotateAnticlockwise => "Turn counter anticlockwise",
            RemoveFromMap => "Take counter off the map",
            ScenarioSettings => "Scenario settings…",
            NewScenario => "New scenario for this map…",
            CommandPalette => "Command palette…",
            ShortcutSheet => "Keyboard shortcuts",
            ExportVassal => "Export VASSAL module…",
            ExportTiled => "Export Tiled map…",
            ExportPrint => "Export print-and-play kit…",
            ToggleTableOverlay => "Table overlay",
            Edit { label, .. } => return label.clone(),
            Stroke(_) => "Stroke",
            ApplyTool { .. } => "Apply the tool",
            Select(_) => "Select",
            ShowOrderOfBattle => "Order of battle",
            PickTerrain(code) => return format!("Terrain {code}"),
            SetBrushRadius(r) => return format!("Brush radius {r}"),
            SetHexsideFeature(id) => return format!("Hexside feature {id}"),
            SetOverlayType(id) => return format!("Overlay {id}"),
            SetLabelText(_) => "Label text",
            SetLayers(_) => "Layers",
            LegendHexsides => "Add hexside features…",
            LegendOverlays => "Add overlays…",
            ImportScan => "Import scan…",
            ImportScanFrom(path) => return format!("Import the scan {}", path.display()),
            SetBackground { label, .. } => return label.clone(),
            ToggleChecked => "Mark the hex checked",
            SampleTerrain(code) => return format!("Sample terrain {code}"),
            GoToHex { hex, .. } => return format!("Go to {hex}"),
            DigitisePanel(_) => "Digitise panel",
            DigitiseOn(tab) => return format!("Digitise: {}", tab.name()),
            GoToDiagnostic(d) => return format!("Go to {}", d.code),
            GoToSelection => "Go to the selection",
            PlaceCounter(..) => "Place counter",
            PaintZone(_) => "Paint the zone",
            ZoneOptions(_) => "Zone tool options",
            ShowDockTab(DockTab::Oob) => "Order of battle",
            ShowDockTab(DockTab::Inspector) => "Inspector",
            ShowDockTab(DockTab::Digitise) => "Digitise",
            GuardSave(_) => "Save the changes",
            GuardDiscard(_) => "Discard the changes",
            Recover(_) => "Recover",
            DiscardRecovery(_) => "Discard recovery",
            PathChosen { path, .. } => return format!("Use {}", path.display()),
            Browse => "Browse…",
            CreateMap(_) => "Create map",
            Notify(text) => return text.clone(),
            StartExport(request) => return format!("Export the {}", request.kind.title()),
            File(FileCommand::SaveTo { path, .. }) => return format!("Save {}", path.display()),
            File(FileCommand::Reload) => "Reload from disk",
            File(FileCommand::SaveElsewhere { .. }) => "Save elsewhere…",
        };
        text.to_owned()
    }

    /// What it does, in a sentence (hover text, the palette).
    pub fn tooltip(&self) -> String {
        use Command::*;
        let text = match self {
            NewMap => "Start a new map (asks for its size and legend)",
            Open | OpenPath(_) => "Open a map, or a scenario with its map",
            Save => "Save the map (and the scenario) to their files",
            SaveAs | SaveAsPath(_) => "Save under another name or in another folder",
            Quit => "Close the editor (asks about unsaved changes)",
            Undo => "Undo the last edit",
            Redo => "Redo the last undone edit",
            FitMap => "Show the whole map",
            Zoom100 => "One hex at its natural size",
            ZoomIn | ZoomOut => "Zoom around the centre of the view",
            ToggleHexNames => "Show or hide the hexes' names",
            Tool(tool) => return tool.tooltip(),
            BrushBigger | BrushSmaller => "Brush radius, 0 to 5 hexes",
            MapSettings => "Size, orientation, numbering of the grid",
            Legend => "Terrain, overlay and hexside types and their effects",
            ToggleLeftDock => "Show or hide the tool dock",
            ToggleRightDock => "Show or hide the inspector and order of battle",
            ToggleDiagnostics => "Show or hide the diagnostics list",
            ToggleDocks => "Give the whole window to the map, or bring the docks back",
            NextDiagnostic | PreviousDiagnostic => "Go to the hex or unit of a diagnostic",
            Escape => "Close the top dialog, leave a click mode, or clear the selection",
            About => "Version and licence",
            ClearRecent => "Forget the recent files",
            RotateClockwise | RotateAnticlockwise => {
                "Turn the selected counter one hexside (with the hexside tool: the side Enter draws)"
            }
            RemoveFromMap => "The selected unit goes back to “not placed”",
            ScenarioSettings => "Title, date, turns, command radii, stacking, victory",
            NewScenario => "Start a scenario on this map (asks title, date, rules, file)",
            CommandPalette => "Find any command by name",
            ShortcutSheet => "Every key of the editor",
            ExportVassal => "A VASSAL module (.vmod) of the battle as it is in the editor",
            ExportTiled => "A hexagonal Tiled map (.tmx) of the map, and the scenario's units",
            ExportPrint => "A print-and-play PDF: map pages, counter sheets, charts",
            ToggleTableOverlay => {
                "Show a miniatures table (180 × 120 cm…) on the map at a system's ground scale"
            }
            Edit { .. } | Stroke(_) => "An edit of the document",
            ApplyTool { .. } => "The current tool on the selected hex, as a click there",
            Select(_) => "Select an item of the order of battle",
            ShowOrderOfBattle => "Show the order of battle in the right dock",
            PickTerrain(_) => "Paint this terrain (brush or fill)",
            SetBrushRadius(_) => "Brush radius, 0 to 5 hexes",
            SetHexsideFeature(_) => "The feature the hexside tool draws",
            SetOverlayType(_) => "The overlay the overlay tool places",
            SetLabelText(_) => "The text the label tool sets",
            SetLayers(_) => "Which layers of the map are shown",
            LegendHexsides | LegendOverlays => "Open the legend editor on this page",
            ImportScan | ImportScanFrom(_) => "Load a scanned map to digitise under the grid",
            SetBackground { .. } => "Set the scan under the map and its fit",
            ToggleChecked => "Mark the hex under the pointer as checked against the scan",
            SampleTerrain(_) => "The terrain the digitise panel's sample clicks mark",
            GoToHex { .. } => "Centre the map on the hex and select it",
            DigitisePanel(_) | DigitiseOn(_) => "Calibrate, suggest terrain and hexsides, check",
            GoToDiagnostic(_) => "Select what the diagnostic is about and centre its hex",
            GoToSelection => "Centre the map on the selected counter",
            PlaceCounter(..) => "Put the counter on the hex",
            PaintZone(_) => "The zone tool, adding hexes to this zone",
            ZoneOptions(_) => "What the zone tool paints, and whether zones are shown",
            ShowDockTab(_) => "Show this page of the right dock",
            GuardSave(_) => "Save the changes, then go on",
            GuardDiscard(_) => "Lose the changes, then go on",
            Recover(_) => "Open the unsaved changes kept in the recovery file",
            DiscardRecovery(_) => "Delete the recovery file",
            PathChosen { .. } => "Open or save the chosen file",
            Browse => "Choose with the desktop's file chooser",
            CreateMap(_) => "Start the new map",
            Notify(_) => "A message",
            StartExport(_) => "Write the export in the background",
            File(FileCommand::SaveTo { .. }) => "Save, as chosen in the dialog",
            File(FileCommand::Reload) => "Read the files again, dropping the editor's changes",
            File(FileCommand::SaveElsewhere { .. }) => {
                "Keep both: save under another name, a scenario's map beside it"
            }
        };
        text.to_owned()
    }

    /// Its keys, the first one shown in menus.
    pub fn shortcuts(&self) -> Vec<KeyboardShortcut> {
        use Command::*;
        match self {
            NewMap => vec![cmd(Key::N)],
            Open => vec![cmd(Key::O)],
            Save => vec![cmd(Key::S)],
            SaveAs => vec![cmd_shift(Key::S)],
            Quit => vec![cmd(Key::Q)],
            Undo => vec![cmd(Key::Z)],
            Redo => vec![cmd_shift(Key::Z), cmd(Key::Y)],
            FitMap => vec![cmd(Key::Num0)],
            Zoom100 => vec![cmd(Key::Num1)],
            ToggleHexNames => vec![key(Key::N)],
            Tool(tool) => vec![key(tool.key())],
            BrushSmaller => vec![key(Key::OpenBracket)],
            BrushBigger => vec![key(Key::CloseBracket)],
            // Not Tab: Tab moves the keyboard focus from widget to widget (issue 21).
            ToggleDocks => vec![key(Key::F11), cmd_shift(Key::H)],
            NextDiagnostic => vec![key(Key::F8)],
            PreviousDiagnostic => vec![shift(Key::F8)],
            Escape => vec![key(Key::Escape)],
            RotateClockwise => vec![key(Key::R)],
            RotateAnticlockwise => vec![shift(Key::R)],
            RemoveFromMap => vec![key(Key::Delete)],
            CommandPalette => vec![cmd_shift(Key::P)],
            ShortcutSheet => vec![key(Key::F1)],
            ToggleChecked => vec![key(Key::C)],
            _ => Vec::new(),
        }
    }

    /// The first shortcut as text for a menu (`Ctrl+Shift+Z`), or `""`.
    pub fn shortcut_text(&self, ctx: &egui::Context) -> String {
        self.shortcuts()
            .first()
            .map(|s| shortcut_label(ctx, s))
            .unwrap_or_default()
    }

    /// Whether its shortcuts work while a text field has the keyboard (plain letters do not).
    pub fn works_while_typing(shortcut: &KeyboardShortcut) -> bool {
        shortcut.modifiers.command
            || shortcut.modifiers.ctrl
            || is_function_key(shortcut.logical_key)
    }

    /// Whether it opens a dialog or an editor window (refused while another is open).
    pub fn opens_modal(&self) -> bool {
        use Command::*;
        matches!(
            self,
            NewMap
                | Open
                | SaveAs
                | MapSettings
                | Legend
                | ScenarioSettings
                | NewScenario
                | About
                | CommandPalette
                | ShortcutSheet
                | ExportVassal
                | ExportTiled
                | ExportPrint
        )
    }

    /// Whether it may run while a dialog is open (the dialog keeps the keyboard otherwise).
    pub fn works_over_dialogs(&self) -> bool {
        matches!(self, Command::Escape)
    }
}

/// A shortcut as text (`Ctrl+Shift+Z`), with a punctuation key as printed on it (`[`, not
/// egui's `OpenBracket`).
pub fn shortcut_label(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    let text = ctx.format_shortcut(shortcut);
    let key = shortcut.logical_key;
    let symbol = key.symbol_or_name();
    if symbol.len() == 1
        && symbol.chars().all(|c| c.is_ascii_punctuation())
        && let Some(modifiers) = text.strip_suffix(key.name())
    {
        return format!("{modifiers}{symbol}");
    }
    text
}

fn is_function_key(key: Key) -> bool {
    matches!(key, Key::F1 | Key::F8 | Key::F11 | Key::Escape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_commands_share_a_shortcut() {
        let mut seen = std::collections::HashMap::new();
        for c in Command::all() {
            for s in c.shortcuts() {
                let key = (
                    s.modifiers.shift,
                    s.modifiers.command,
                    s.modifiers.alt,
                    s.logical_key,
                );
                if let Some(other) = seen.insert(key, c.label()) {
                    panic!("{} and {} share a shortcut", other, c.label());
                }
            }
        }
    }

    #[test]
    fn every_command_has_a_label_and_a_tooltip() {
        for c in Command::all() {
            assert!(!c.label().is_empty());
            assert!(!c.tooltip().is_empty(), "{}", c.label());
        }
    }
}
