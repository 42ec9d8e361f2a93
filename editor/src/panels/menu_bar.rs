//! The menu bar: File, Edit, View, Map, Scenario, Digitise and Help. Every item is a
//! `Command` (its label, shortcut and tooltip from the command table), sent to the app.

use egui::Ui;

use crate::context::command::DigitiseTab;
use crate::context::{Command, ViewContext};
use crate::tools::Tool;

/// What the menus show that is not in the context: the table overlay and the digitise panel.
#[derive(Debug, Clone, Copy, Default)]
pub struct MenuState {
    pub table_shown: bool,
    pub digitise_open: bool,
}

/// A menu item for a command: its label, first shortcut and tooltip from the `Command` table.
fn item(ui: &mut Ui, command: &Command, enabled: bool) -> bool {
    labelled_item(ui, &command.label(), command, enabled)
}

fn labelled_item(ui: &mut Ui, text: &str, command: &Command, enabled: bool) -> bool {
    let button = egui::Button::new(text).shortcut_text(command.shortcut_text(ui.ctx()));
    ui.add_enabled(enabled, button)
        .on_hover_text(command.tooltip())
        .clicked()
}

/// A menu item that sends its command when clicked.
fn command_item(ctx: &ViewContext<'_>, ui: &mut Ui, command: Command, enabled: bool) {
    if item(ui, &command, enabled) {
        ctx.send(command);
    }
}

/// The menu bar (no state of its own).
#[derive(Debug, Default)]
pub struct MenuBar;

impl MenuBar {
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui, state: MenuState) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    command_item(ctx, ui, Command::NewMap, true);
                    command_item(ctx, ui, Command::Open, true);
                    ui.menu_button("Open recent", |ui| {
                        if ctx.settings.recent.is_empty() {
                            ui.weak("No recent files");
                        }
                        for path in ctx.settings.recent.iter().cloned() {
                            if ui.button(path.display().to_string()).clicked() {
                                ctx.send(Command::OpenPath(path));
                            }
                        }
                        ui.separator();
                        command_item(ctx, ui, Command::ClearRecent, true);
                    });
                    ui.separator();
                    command_item(ctx, ui, Command::Save, true);
                    command_item(ctx, ui, Command::SaveAs, true);
                    ui.menu_button("Export", |ui| {
                        let scenario = ctx.doc.scenario.is_some();
                        for (command, text, enabled) in [
                            (Command::ExportVassal, "VASSAL module…", scenario),
                            (Command::ExportTiled, "Tiled map…", true),
                            (Command::ExportPrint, "Print-and-play kit…", scenario),
                        ] {
                            if labelled_item(ui, text, &command, enabled) {
                                ctx.send(command);
                            }
                        }
                    });
                    ui.separator();
                    command_item(ctx, ui, Command::Quit, true);
                });
                ui.menu_button("Edit", |ui| {
                    let undo = ctx
                        .history
                        .undo_label()
                        .map_or("Undo".to_owned(), |l| format!("Undo {l}"));
                    if labelled_item(ui, &undo, &Command::Undo, ctx.history.can_undo()) {
                        ctx.send(Command::Undo);
                    }
                    let redo = ctx
                        .history
                        .redo_label()
                        .map_or("Redo".to_owned(), |l| format!("Redo {l}"));
                    if labelled_item(ui, &redo, &Command::Redo, ctx.history.can_redo()) {
                        ctx.send(Command::Redo);
                    }
                    ui.separator();
                    command_item(ctx, ui, Command::Escape, ctx.tools.selection.is_some());
                    ui.separator();
                    for tool in Tool::ALL {
                        command_item(ctx, ui, Command::Tool(tool), true);
                    }
                    command_item(ctx, ui, Command::BrushSmaller, true);
                    command_item(ctx, ui, Command::BrushBigger, true);
                });
                ui.menu_button("View", |ui| {
                    command_item(ctx, ui, Command::FitMap, true);
                    command_item(ctx, ui, Command::Zoom100, true);
                    command_item(ctx, ui, Command::ZoomIn, true);
                    command_item(ctx, ui, Command::ZoomOut, true);
                    ui.separator();
                    let mut names = ctx.view.layers.hex_names;
                    if ui.checkbox(&mut names, "Hex names (N)").changed() {
                        ctx.send(Command::ToggleHexNames);
                    }
                    let mut left = ctx.settings.show_left_dock;
                    if ui.checkbox(&mut left, "Tool dock").changed() {
                        ctx.send(Command::ToggleLeftDock);
                    }
                    let mut right = ctx.settings.show_right_dock;
                    if ui.checkbox(&mut right, "Inspector").changed() {
                        ctx.send(Command::ToggleRightDock);
                    }
                    let mut diag = ctx.settings.show_diagnostics;
                    if ui.checkbox(&mut diag, "Diagnostics").changed() {
                        ctx.send(Command::ToggleDiagnostics);
                    }
                    let mut table = state.table_shown;
                    if ui
                        .checkbox(&mut table, "Table overlay")
                        .on_hover_text(Command::ToggleTableOverlay.tooltip())
                        .changed()
                    {
                        ctx.send(Command::ToggleTableOverlay);
                    }
                    command_item(ctx, ui, Command::ToggleDocks, true);
                    ui.separator();
                    command_item(ctx, ui, Command::NextDiagnostic, true);
                    command_item(ctx, ui, Command::PreviousDiagnostic, true);
                });
                ui.menu_button("Map", |ui| {
                    command_item(ctx, ui, Command::MapSettings, true);
                    command_item(ctx, ui, Command::Legend, true);
                });
                ui.menu_button("Scenario", |ui| scenario_menu(ctx, ui));
                ui.menu_button("Digitise", |ui| digitise_menu(ctx, ui, state));
                ui.menu_button("Help", |ui| {
                    command_item(ctx, ui, Command::ShortcutSheet, true);
                    command_item(ctx, ui, Command::CommandPalette, true);
                    command_item(ctx, ui, Command::About, true);
                });
            });
        });
    }
}

fn scenario_menu(ctx: &ViewContext<'_>, ui: &mut Ui) {
    match &ctx.doc.scenario {
        Some(s) => {
            ui.label(format!("{} ({})", s.scenario.title, s.path.display()));
            command_item(ctx, ui, Command::ScenarioSettings, true);
            command_item(ctx, ui, Command::ShowOrderOfBattle, true);
            command_item(ctx, ui, Command::RotateClockwise, true);
            command_item(ctx, ui, Command::RotateAnticlockwise, true);
            command_item(ctx, ui, Command::RemoveFromMap, true);
        }
        None => {
            ui.weak("No scenario open: open a scenario file, or start one for this map.");
            command_item(ctx, ui, Command::NewScenario, true);
        }
    }
}

/// The Digitise menu.
fn digitise_menu(ctx: &ViewContext<'_>, ui: &mut Ui, state: MenuState) {
    if ui.button("Import scan…").clicked() {
        ctx.send(Command::ImportScan);
    }
    let mut open = state.digitise_open;
    if ui.checkbox(&mut open, "Digitise panel").changed() {
        ctx.send(Command::DigitisePanel(open));
    }
    ui.separator();
    for (tab, text) in [
        (DigitiseTab::Calibrate, "Calibrate the grid…"),
        (DigitiseTab::Terrain, "Suggest terrain…"),
        (DigitiseTab::Hexsides, "Suggest hexsides…"),
        (DigitiseTab::Check, "Check the work…"),
    ] {
        if ui.button(text).clicked() {
            ctx.send(Command::DigitiseOn(tab));
        }
    }
    ui.separator();
    crate::panels::digitise::remove_scan_button(ctx, ui);
}
