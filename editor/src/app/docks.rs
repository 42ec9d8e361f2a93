//! The panels around the map still written on the app: the menu bar and the left dock (tool
//! options, terrain palette, layers). The tool bar, status bar and inspector are panels
//! (`panels::tool_bar`, `panels::status_bar`, `panels::inspector`).

use egui::{Color32, RichText, Ui};

use crate::app::{Command, EditorApp};
use crate::map::view::colour32;
use crate::panels::legend::{LegendTab, labelled_text};
use crate::tools::{MAX_BRUSH_RADIUS, Tool};

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

    /// The left dock: the terrain palette first (it never moves), then the tool's options,
    /// then the layers. The dock has one width whatever the tool, so the map never shifts.
    pub(crate) fn left_dock(&mut self, ui: &mut Ui) {
        ui.strong("Terrain");
        let mut picked = None;
        for (code, t) in &self.doc.map.terrain {
            let Some(c) = code.chars().next() else {
                continue;
            };
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
                ui.painter()
                    .rect_filled(rect, 3.0, colour32(&t.colour, Color32::MAGENTA));
                let selected = self.tools.terrain == c;
                if ui
                    .selectable_label(selected, format!("{code}  {}", t.name))
                    .clicked()
                {
                    picked = Some(c);
                }
            });
        }
        if let Some(c) = picked {
            self.tools.terrain = c;
            if !matches!(self.tools.tool, Tool::Brush | Tool::Fill) {
                self.tools.tool = Tool::Brush;
            }
        }
        if ui.button("Edit legend…").clicked() {
            self.request(Command::Legend);
        }
        ui.separator();
        ui.heading(self.tools.tool.name());
        match self.tools.tool {
            Tool::Brush => {
                ui.horizontal(|ui| {
                    let l = ui.label("Brush radius");
                    ui.add(egui::Slider::new(
                        &mut self.tools.brush_radius,
                        0..=MAX_BRUSH_RADIUS,
                    ))
                    .labelled_by(l.id)
                    .on_hover_text("[ and ] change it");
                });
            }
            Tool::Hexside => {
                ui.label("Feature drawn:");
                if self.doc.map.hexside_types.is_empty() {
                    ui.weak("The legend has no hexside features.");
                    if ui.button("Add hexside features…").clicked() {
                        self.legend.open_on(&self.doc, LegendTab::Hexsides);
                    }
                }
                for (id, t) in &self.doc.map.hexside_types {
                    let selected = self.tools.hexside.as_ref() == Some(id);
                    let text = RichText::new(format!("〰 {}", t.name))
                        .color(colour32(&t.colour, Color32::BLUE));
                    if ui.selectable_label(selected, text).clicked() {
                        self.tools.hexside = Some(id.clone());
                    }
                }
                ui.weak("Drag along edges to add; right-drag removes.");
            }
            Tool::Overlay => {
                ui.label("Overlay placed:");
                if self.doc.map.overlay_types.is_empty() {
                    ui.weak("The legend has no overlays.");
                    if ui.button("Add overlays…").clicked() {
                        self.legend.open_on(&self.doc, LegendTab::Overlays);
                    }
                }
                for (id, t) in &self.doc.map.overlay_types {
                    let selected = self.tools.overlay.as_ref() == Some(id);
                    if ui
                        .selectable_label(selected, format!("{:?}: {}", t.symbol, t.name))
                        .clicked()
                    {
                        self.tools.overlay = Some(id.clone());
                    }
                }
                ui.weak("Click to add; right-click removes.");
            }
            Tool::Label => {
                labelled_text(ui, "Label text", &mut self.tools.label_text);
                ui.weak("Click a hex to give it this label; right-click removes a label.");
            }
            Tool::Select => {
                ui.weak("Click a hex to inspect it.");
            }
            Tool::Zone => self.zone_tool_options(ui),
            Tool::Units => self.units_tool_options(ui),
            Tool::Fill | Tool::Eyedropper => {}
        }
        ui.separator();
        ui.separator();
        ui.strong("Layers");
        let layers = &mut self.view.layers;
        let before = *layers;
        ui.checkbox(&mut layers.terrain, "Terrain");
        ui.checkbox(&mut layers.overlays, "Overlays");
        ui.checkbox(&mut layers.hexsides, "Hexsides");
        ui.checkbox(&mut layers.labels, "Labels");
        ui.checkbox(&mut layers.hex_names, "Hex names");
        ui.checkbox(&mut layers.grid, "Grid");
        if before.hex_names != layers.hex_names {
            self.settings.show_hex_names = layers.hex_names;
        }
    }
}
