//! The menu bar: File, Edit, View, Map, Scenario, Digitise and Help. Every item is a
//! `UiCommand` (its label, shortcut and tooltip from the UI command table), sent to the app; the
//! items that carry data (a recent file, the digitise panel's tabs) send an `AppCommand`.

use egui::Ui;

use crate::context::command::DigitiseTab;
use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::tools::Tool;

/// What the menus show that is not in the context: the table overlay and the digitise panel.
#[derive(Debug, Clone, Copy, Default)]
pub struct MenuState {
    pub table_shown: bool,
    pub digitise_open: bool,
}

/// A menu item for a command: its label, first shortcut and tooltip from the `UiCommand` table.
fn item(ui: &mut Ui, command: UiCommand, enabled: bool) -> bool {
    labelled_item(ui, &command.label(), command, enabled)
}

fn labelled_item(ui: &mut Ui, text: &str, command: UiCommand, enabled: bool) -> bool {
    let button = egui::Button::new(text).shortcut_text(command.shortcut_text(ui.ctx()));
    ui.add_enabled(enabled, button)
        .on_hover_text(command.tooltip())
        .clicked()
}

/// A menu item that sends its command when clicked.
fn command_item(ctx: &ViewContext<'_>, ui: &mut Ui, command: UiCommand, enabled: bool) {
    if item(ui, command, enabled) {
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
                    command_item(ctx, ui, UiCommand::NewMap, true);
                    command_item(ctx, ui, UiCommand::Open, true);
                    ui.menu_button("Open recent", |ui| {
                        if ctx.settings.recent.is_empty() {
                            ui.weak("No recent files");
                        }
                        for path in ctx.settings.recent.iter().cloned() {
                            if ui.button(path.display().to_string()).clicked() {
                                ctx.send(AppCommand::OpenPath(path));
                            }
                        }
                        ui.separator();
                        command_item(ctx, ui, UiCommand::ClearRecent, true);
                    });
                    ui.separator();
                    command_item(ctx, ui, UiCommand::Save, true);
                    command_item(ctx, ui, UiCommand::SaveAs, true);
                    ui.menu_button("Export", |ui| {
                        let scenario = ctx.doc.scenario.is_some();
                        for (command, text, enabled) in [
                            (UiCommand::ExportVassal, "VASSAL module…", scenario),
                            (UiCommand::ExportTiled, "Tiled map…", true),
                            (UiCommand::ExportPrint, "Print-and-play kit…", scenario),
                        ] {
                            if labelled_item(ui, text, command, enabled) {
                                ctx.send(command);
                            }
                        }
                    });
                    ui.separator();
                    command_item(ctx, ui, UiCommand::Quit, true);
                });
                ui.menu_button("Edit", |ui| {
                    let undo = ctx
                        .history
                        .undo_label()
                        .map_or("Undo".to_owned(), |l| format!("Undo {l}"));
                    if labelled_item(ui, &undo, UiCommand::Undo, ctx.history.can_undo()) {
                        ctx.send(UiCommand::Undo);
                    }
                    let redo = ctx
                        .history
                        .redo_label()
                        .map_or("Redo".to_owned(), |l| format!("Redo {l}"));
                    if labelled_item(ui, &redo, UiCommand::Redo, ctx.history.can_redo()) {
                        ctx.send(UiCommand::Redo);
                    }
                    ui.separator();
                    command_item(ctx, ui, UiCommand::Escape, ctx.selection.hex.is_some());
                    ui.separator();
                    for tool in Tool::ALL {
                        command_item(ctx, ui, UiCommand::Tool(tool), true);
                    }
                    command_item(ctx, ui, UiCommand::BrushSmaller, true);
                    command_item(ctx, ui, UiCommand::BrushBigger, true);
                });
                ui.menu_button("View", |ui| {
                    command_item(ctx, ui, UiCommand::FitMap, true);
                    command_item(ctx, ui, UiCommand::Zoom100, true);
                    command_item(ctx, ui, UiCommand::ZoomIn, true);
                    command_item(ctx, ui, UiCommand::ZoomOut, true);
                    ui.separator();
                    let mut names = ctx.view.layers.hex_names;
                    if ui.checkbox(&mut names, "Hex names (N)").changed() {
                        ctx.send(UiCommand::ToggleHexNames);
                    }
                    let mut left = ctx.settings.show_left_dock;
                    if ui.checkbox(&mut left, "Tool dock").changed() {
                        ctx.send(UiCommand::ToggleLeftDock);
                    }
                    let mut right = ctx.settings.show_right_dock;
                    if ui.checkbox(&mut right, "Inspector").changed() {
                        ctx.send(UiCommand::ToggleRightDock);
                    }
                    let mut diag = ctx.settings.show_diagnostics;
                    if ui.checkbox(&mut diag, "Diagnostics").changed() {
                        ctx.send(UiCommand::ToggleDiagnostics);
                    }
                    let mut table = state.table_shown;
                    if ui
                        .checkbox(&mut table, "Table overlay")
                        .on_hover_text(UiCommand::ToggleTableOverlay.tooltip())
                        .changed()
                    {
                        ctx.send(UiCommand::ToggleTableOverlay);
                    }
                    command_item(ctx, ui, UiCommand::ToggleDocks, true);
                    ui.separator();
                    command_item(ctx, ui, UiCommand::NextDiagnostic, true);
                    command_item(ctx, ui, UiCommand::PreviousDiagnostic, true);
                });
                ui.menu_button("Map", |ui| {
                    command_item(ctx, ui, UiCommand::MapSettings, true);
                    command_item(ctx, ui, UiCommand::Legend, true);
                });
                ui.menu_button("Scenario", |ui| scenario_menu(ctx, ui));
                ui.menu_button("Digitise", |ui| digitise_menu(ctx, ui, state));
                ui.menu_button("Help", |ui| {
                    command_item(ctx, ui, UiCommand::ShortcutSheet, true);
                    command_item(ctx, ui, UiCommand::CommandPalette, true);
                    command_item(ctx, ui, UiCommand::About, true);
                });
            });
        });
    }
}

fn scenario_menu(ctx: &ViewContext<'_>, ui: &mut Ui) {
    match &ctx.doc.scenario {
        Some(s) => {
            ui.label(format!("{} ({})", s.scenario.title, s.path.display()));
            command_item(ctx, ui, UiCommand::ScenarioSettings, true);
            command_item(ctx, ui, UiCommand::ShowOrderOfBattle, true);
            command_item(ctx, ui, UiCommand::RotateClockwise, true);
            command_item(ctx, ui, UiCommand::RotateAnticlockwise, true);
            command_item(ctx, ui, UiCommand::RemoveFromMap, true);
            crate::panels::variant_base::variant_menu(ctx, ui);
        }
        None => {
            ui.weak("No scenario open: open a scenario file, or start one for this map.");
            command_item(ctx, ui, UiCommand::NewScenario, true);
        }
    }
}

/// The Digitise menu.
fn digitise_menu(ctx: &ViewContext<'_>, ui: &mut Ui, state: MenuState) {
    let import = UiCommand::ImportScan;
    if ui
        .button(import.label())
        .on_hover_text(import.tooltip())
        .clicked()
    {
        ctx.send(import);
    }
    let mut open = state.digitise_open;
    if ui.checkbox(&mut open, "Digitise panel").changed() {
        ctx.send(AppCommand::SetDigitisePanel(open));
    }
    ui.separator();
    for (tab, text) in [
        (DigitiseTab::Calibrate, "Calibrate the grid…"),
        (DigitiseTab::Terrain, "Suggest terrain…"),
        (DigitiseTab::Hexsides, "Suggest hexsides…"),
        (DigitiseTab::Check, "Check the work…"),
    ] {
        if ui.button(text).clicked() {
            ctx.send(AppCommand::DigitiseOn(tab));
        }
    }
    ui.separator();
    crate::panels::digitise::remove_scan_button(ctx, ui);
}
