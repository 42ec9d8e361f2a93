//! The panels around the map: the menu bar, the tool bar, the left dock (tool options, terrain
//! palette, layers), the inspector of the selection and the status bar.

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
                if ui.button("Order of battle").clicked() {
                    self.oob.tab = crate::panels::oob::DockTab::Oob;
                    self.settings.show_right_dock = true;
                }
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

    pub(crate) fn tool_bar(&mut self, ui: &mut Ui) {
        egui::Panel::top("tool-bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                for tool in Tool::ALL {
                    let text = format!("{} {}", tool.icon(), tool.name());
                    if ui
                        .selectable_label(self.tools.tool == tool, text)
                        .on_hover_text(tool.tooltip())
                        .clicked()
                    {
                        self.request(Command::Tool(tool));
                    }
                }
                ui.separator();
                if ui
                    .add_enabled(self.history.can_undo(), egui::Button::new("⟲ Undo"))
                    .on_hover_text("Undo (Ctrl+Z)")
                    .clicked()
                {
                    self.request(Command::Undo);
                }
                if ui
                    .add_enabled(self.history.can_redo(), egui::Button::new("⟳ Redo"))
                    .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
                    .clicked()
                {
                    self.request(Command::Redo);
                }
                if ui
                    .button("💾 Save")
                    .on_hover_text("Save (Ctrl+S)")
                    .clicked()
                {
                    self.request(Command::Save);
                }
            });
        });
    }

    pub(crate) fn status_bar(&mut self, ui: &mut Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                match self.hovered {
                    Some(hex) => {
                        let grid = &self.doc.map.grid;
                        let name = grid.name(hex);
                        let terrain = match self.doc.terrain_at(hex) {
                            Some((_, Some(t))) => t.name.clone(),
                            Some((code, None)) => format!("unknown terrain `{code}`"),
                            None => "?".to_owned(),
                        };
                        let overlays: Vec<String> = self
                            .doc
                            .overlays_at(hex)
                            .iter()
                            .map(|id| {
                                self.doc
                                    .map
                                    .overlay_types
                                    .get(id)
                                    .map_or_else(|| id.to_string(), |o| o.name.clone())
                            })
                            .collect();
                        let mut text = format!("hex {name} · {terrain}");
                        if !overlays.is_empty() {
                            text.push_str(&format!(" ({})", overlays.join(", ")));
                        }
                        if let Some(label) = self.doc.map.labels.get(&name) {
                            text.push_str(&format!(" · “{label}”"));
                        }
                        let (units, leaders) = self.oob.counters.count_at(hex);
                        if units + leaders > 0 {
                            let plural = |n: usize, what: &str| {
                                format!("{n} {what}{}", if n == 1 { "" } else { "s" })
                            };
                            text.push_str(&format!(
                                " · {}, {}",
                                plural(units, "unit"),
                                plural(leaders, "leader")
                            ));
                        }
                        ui.label(text);
                    }
                    None => {
                        ui.weak("hex —");
                    }
                }
                ui.separator();
                ui.label(format!("zoom {:.0}%", self.view.zoom_percent()));
                ui.separator();
                let (errors, warnings) = self.diagnostics.counts();
                ui.label(format!("⛔{errors} ⚠{warnings}"));
                ui.separator();
                self.digitise_status(ui);
                if self.is_dirty() {
                    let orange = Color32::from_rgb(230, 150, 40);
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 4.5, orange);
                    ui.label(RichText::new("unsaved").color(orange));
                } else if self.doc.map_path.is_none() {
                    // A new map is not on disk yet, even with nothing done to it.
                    ui.weak("not saved yet");
                } else {
                    ui.label("saved");
                }
            });
        });
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

    /// The inspector: the selected counter (from the map or the tree) and its hex, or the
    /// selected hex with the counters on it; it follows the selection.
    pub(crate) fn inspector(&mut self, ui: &mut Ui) {
        ui.heading("Inspector");
        if let Some(at) = self.selected_counter()
            && let Some(s) = self.doc.scenario.as_ref().map(|f| &f.scenario)
        {
            ui.strong(counter_title(s, at));
            if let Some(p) = crate::model::scenario_edit::placement_of(s, at) {
                ui.label(format!(
                    "Placement: {}",
                    crate::model::scenario_edit::describe_placement(p)
                ));
            }
            if ui.button("Edit in the order of battle").clicked() {
                self.oob.tab = crate::panels::oob::DockTab::Oob;
                self.oob.scroll_to_selection();
            }
            ui.separator();
        }
        let hex = self
            .selected_counter()
            .and_then(|at| self.counter_hex(at))
            .or(self.tools.selection);
        let Some(hex) = hex else {
            ui.weak("Select a hex or a counter (S, then click) to see it here.");
            ui.separator();
            let map = &self.doc.map;
            ui.label(format!("Map: {}", map.name));
            ui.label(format!(
                "{} × {} hexes, {:?} top",
                map.grid.columns, map.grid.rows, map.grid.orientation
            ));
            if let Some(s) = &self.doc.scenario {
                ui.label(format!("Scenario: {}", s.scenario.title));
            }
            return;
        };
        let grid = &self.doc.map.grid;
        let name = grid.name(hex);
        ui.label(format!("Hex {name}"));
        if let Some((code, t)) = self.doc.terrain_at(hex) {
            ui.label(format!(
                "Terrain: {} (`{code}`)",
                t.map_or("unknown", |t| t.name.as_str())
            ));
        }
        for id in self.doc.overlays_at(hex) {
            ui.label(format!("Overlay: {id}"));
        }
        for (side, _) in grid.neighbours(hex) {
            let side_ref = grid.hexside_ref(hex, side);
            for feature in self.doc.hexside_features(&side_ref) {
                ui.label(format!("{side}: {feature}"));
            }
        }
        if let Some(label) = self.doc.map.labels.get(&name) {
            ui.label(format!("Label: {label}"));
        }
        let here: Vec<_> = match self.doc.scenario.as_ref().map(|f| &f.scenario) {
            Some(s) => crate::map::counters::stack_order(&self.oob.counters, hex)
                .into_iter()
                .map(|at| (at, counter_title(s, at)))
                .collect(),
            None => Vec::new(),
        };
        {
            if !here.is_empty() {
                ui.label(format!("Counters here: {}", here.len()));
                for (at, text) in here {
                    if ui
                        .selectable_label(self.selected_counter() == Some(at), text)
                        .clicked()
                    {
                        self.select(Some(crate::panels::oob::Sel::of_counter(at)));
                    }
                }
            }
        }
    }
}

/// A counter's name and id as the inspector shows it.
fn counter_title(
    s: &bataille_schema::Scenario,
    at: crate::model::scenario_edit::CounterAt,
) -> String {
    use crate::model::scenario_edit::CounterAt;
    match at {
        CounterAt::Unit(a, u) => s
            .armies
            .get(a)
            .and_then(|army| army.units.get(u))
            .map_or_else(String::new, |u| {
                format!("{} ({}) — {}", u.name, u.id, u.kind)
            }),
        CounterAt::Leader(a, c) => s
            .armies
            .get(a)
            .and_then(|army| army.corps.get(c))
            .and_then(|corps| corps.leader.as_ref())
            .map_or_else(String::new, |l| {
                format!("{} ({}) — line leader", l.name, l.id)
            }),
        CounterAt::Commander(a, k) => s
            .armies
            .get(a)
            .and_then(|army| army.commanders.get(k))
            .map_or_else(String::new, |c| {
                format!("{} ({}) — commander in chief", c.name, c.id)
            }),
    }
}
