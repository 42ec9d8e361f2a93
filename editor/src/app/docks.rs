//! The menu bar, still written on the app. The tool bar, status bar, left dock and inspector
//! are panels (`panels::tool_bar`, `status_bar`, `tool_dock`, `inspector`).

use egui::Ui;

use crate::app::{Command, EditorApp};
use crate::tools::Tool;

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

impl EditorApp {
    /// A menu item that queues its command when clicked.
    fn command_item(&mut self, ui: &mut Ui, command: Command, enabled: bool) {
        if item(ui, &command, enabled) {
            self.request(command);
        }
    }

    pub(crate) fn menu_bar(&mut self, ui: &mut Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    self.command_item(ui, Command::NewMap, true);
                    self.command_item(ui, Command::Open, true);
                    ui.menu_button("Open recent", |ui| {
                        if self.settings.recent.is_empty() {
                            ui.weak("No recent files");
                        }
                        for path in self.settings.recent.clone() {
                            if ui.button(path.display().to_string()).clicked() {
                                self.request(Command::OpenPath(path));
                            }
                        }
                        ui.separator();
                        self.command_item(ui, Command::ClearRecent, true);
                    });
                    ui.separator();
                    self.command_item(ui, Command::Save, true);
                    self.command_item(ui, Command::SaveAs, true);
                    ui.menu_button("Export", |ui| {
                        let scenario = self.doc.scenario.is_some();
                        for (command, text, enabled) in [
                            (Command::ExportVassal, "VASSAL module…", scenario),
                            (Command::ExportTiled, "Tiled map…", true),
                            (Command::ExportPrint, "Print-and-play kit…", scenario),
                        ] {
                            if labelled_item(ui, text, &command, enabled) {
                                self.request(command);
                            }
                        }
                    });
                    ui.separator();
                    self.command_item(ui, Command::Quit, true);
                });
                ui.menu_button("Edit", |ui| {
                    let undo = self
                        .history
                        .undo_label()
                        .map_or("Undo".to_owned(), |l| format!("Undo {l}"));
                    if labelled_item(ui, &undo, &Command::Undo, self.history.can_undo()) {
                        self.request(Command::Undo);
                    }
                    let redo = self
                        .history
                        .redo_label()
                        .map_or("Redo".to_owned(), |l| format!("Redo {l}"));
                    if labelled_item(ui, &redo, &Command::Redo, self.history.can_redo()) {
                        self.request(Command::Redo);
                    }
                    ui.separator();
                    self.command_item(ui, Command::Escape, self.tools.selection.is_some());
                    ui.separator();
                    for tool in Tool::ALL {
                        self.command_item(ui, Command::Tool(tool), true);
                    }
                    self.command_item(ui, Command::BrushSmaller, true);
                    self.command_item(ui, Command::BrushBigger, true);
                });
                ui.menu_button("View", |ui| {
                    self.command_item(ui, Command::FitMap, true);
                    self.command_item(ui, Command::Zoom100, true);
                    self.command_item(ui, Command::ZoomIn, true);
                    self.command_item(ui, Command::ZoomOut, true);
                    ui.separator();
                    let mut names = self.view.layers.hex_names;
                    if ui.checkbox(&mut names, "Hex names (N)").changed() {
                        self.request(Command::ToggleHexNames);
                    }
                    let mut left = self.settings.show_left_dock;
                    if ui.checkbox(&mut left, "Tool dock").changed() {
                        self.request(Command::ToggleLeftDock);
                    }
                    let mut right = self.settings.show_right_dock;
                    if ui.checkbox(&mut right, "Inspector").changed() {
                        self.request(Command::ToggleRightDock);
                    }
                    let mut diag = self.settings.show_diagnostics;
                    if ui.checkbox(&mut diag, "Diagnostics").changed() {
                        self.request(Command::ToggleDiagnostics);
                    }
                    let mut table = self.table.shown;
                    if ui
                        .checkbox(&mut table, "Table overlay")
                        .on_hover_text(Command::ToggleTableOverlay.tooltip())
                        .changed()
                    {
                        self.request(Command::ToggleTableOverlay);
                    }
                    self.command_item(ui, Command::ToggleDocks, true);
                    ui.separator();
                    self.command_item(ui, Command::NextDiagnostic, true);
                    self.command_item(ui, Command::PreviousDiagnostic, true);
                });
                ui.menu_button("Map", |ui| {
                    self.command_item(ui, Command::MapSettings, true);
                    self.command_item(ui, Command::Legend, true);
                });
                ui.menu_button("Scenario", |ui| self.scenario_menu(ui));
                ui.menu_button("Digitise", |ui| self.digitise_menu(ui));
                ui.menu_button("Help", |ui| {
                    self.command_item(ui, Command::ShortcutSheet, true);
                    self.command_item(ui, Command::CommandPalette, true);
                    self.command_item(ui, Command::About, true);
                });
            });
        });
    }

    fn scenario_menu(&mut self, ui: &mut Ui) {
        match &self.doc.scenario {
            Some(s) => {
                ui.label(format!("{} ({})", s.scenario.title, s.path.display()));
                self.command_item(ui, Command::ScenarioSettings, true);
                self.command_item(ui, Command::ShowOrderOfBattle, true);
                self.command_item(ui, Command::RotateClockwise, true);
                self.command_item(ui, Command::RotateAnticlockwise, true);
                self.command_item(ui, Command::RemoveFromMap, true);
            }
            None => {
                ui.weak("No scenario open: open a scenario file, or start one for this map.");
                self.command_item(ui, Command::NewScenario, true);
            }
        }
    }
}
