//! UI commands: what a user can ask from a menu, the tool bar, the palette or a key, without
//! data (as rerun's `UICommand`): each one's label, tooltip and shortcuts are defined once here.
//! Menus, the tool bar, the command palette, the shortcut sheet and the key handler read them
//! from here and nothing else; what each one does is decided in one place, the app's handler.

use egui::{Key, KeyboardShortcut, Modifiers};

use crate::tools::Tool;

/// Something the user asked for from a menu, a button, a shortcut or the palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UiCommand {
    NewMap,
    Open,
    Save,
    SaveAs,
    Quit,
    Undo,
    Redo,
    FitMap,
    Zoom100,
    ZoomIn,
    ZoomOut,
    ToggleHexNames,
    /// A map tool (one value per tool: `Tool::ALL`).
    Tool(Tool),
    BrushBigger,
    BrushSmaller,
    MapSettings,
    Legend,
    /// The legend editor, on its hexside (overlay) page.
    LegendHexsides,
    LegendOverlays,
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
    /// Show the order of battle in the right dock, scrolled to the selection.
    ShowOrderOfBattle,
    /// Show the inspector page of the right dock.
    ShowInspector,
    /// Digitise ▸ Import scan…: the dialog asking for the scan's file.
    ImportScan,
    /// Mark the hex under the pointer (or the selected one) as checked against the scan, or
    /// unmark it.
    ToggleChecked,
    /// Centre the map on the selected counter.
    GoToSelection,
    /// Show the digitise panel.
    DigitisePanel,
    /// Scenario ▸ Open variant…: the variants of the open scenario, to open one (issue 25).
    OpenVariant,
    /// Scenario ▸ Open base scenario: from an opened variant, its base.
    OpenBaseScenario,
    /// Scenario ▸ Save as variant…: the open scenario's changes from its saved file, written
    /// as a variant of it, which stays open.
    SaveAsVariant,
    /// Scenario ▸ New variant of this scenario…: an empty variant, opened.
    NewVariant,
}

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

impl UiCommand {
    /// Every UI command: the palette lists them, the key handler and the shortcut sheet know
    /// them.
    pub fn all() -> Vec<UiCommand> {
        use UiCommand::*;
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
        all.extend(crate::tools::Tool::ALL.iter().map(|&t| UiCommand::Tool(t)));
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
            ShowInspector,
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
            DigitisePanel,
            OpenVariant,
            OpenBaseScenario,
            SaveAsVariant,
            NewVariant,
        ]);
        all
    }

    /// The name in menus and the palette.
    pub fn label(&self) -> String {
        use UiCommand::*;
        let text = match self {
            NewMap => "New map…",
            Open => "Open…",
            Save => "Save",
            SaveAs => "Save as…",
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
            ShowOrderOfBattle => "Order of battle",
            LegendHexsides => "Add hexside features…",
            LegendOverlays => "Add overlays…",
            ImportScan => "Import scan…",
            ToggleChecked => "Mark the hex checked",
            GoToSelection => "Go to the selection",
            ShowInspector => "Inspector",
            DigitisePanel => "Digitise panel",
            OpenVariant => "Open variant…",
            OpenBaseScenario => "Open base scenario",
            SaveAsVariant => "Save as variant…",
            NewVariant => "New variant of this scenario…",
        };
        text.to_owned()
    }

    /// What it does, in a sentence (hover text, the palette).
    pub fn tooltip(&self) -> String {
        use UiCommand::*;
        let text = match self {
            NewMap => "Start a new map (asks for its size and legend)",
            Open => "Open a map, or a scenario with its map",
            Save => "Save the map (and the scenario) to their files",
            SaveAs => "Save under another name or in another folder",
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
            ShowOrderOfBattle => "Show the order of battle in the right dock",
            LegendHexsides | LegendOverlays => "Open the legend editor on this page",
            ImportScan => "Load a scanned map to digitise under the grid",
            ToggleChecked => "Mark the hex under the pointer as checked against the scan",
            GoToSelection => "Centre the map on the selected counter",
            ShowInspector => "Show this page of the right dock",
            DigitisePanel => "Calibrate, suggest terrain and hexsides, check",
            OpenVariant => "Open one of the variants found beside this scenario",
            OpenBaseScenario => "Open the scenario this variant changes",
            SaveAsVariant => {
                "Write the changes made since the scenario was saved as a variant of it, and go on editing the variant"
            }
            NewVariant => "Start a variant of this scenario (a what-if that changes it by id)",
        };
        text.to_owned()
    }

    /// Its keys, the first one shown in menus.
    pub fn shortcuts(&self) -> Vec<KeyboardShortcut> {
        use UiCommand::*;
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
        use UiCommand::*;
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
                | OpenVariant
                | SaveAsVariant
                | NewVariant
        )
    }

    /// Whether it may run while a dialog is open (the dialog keeps the keyboard otherwise).
    pub fn works_over_dialogs(&self) -> bool {
        matches!(self, UiCommand::Escape)
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
        for c in UiCommand::all() {
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
        for c in UiCommand::all() {
            assert!(!c.label().is_empty());
            assert!(!c.tooltip().is_empty(), "{}", c.label());
        }
    }
}
