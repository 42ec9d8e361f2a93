//! The panels around the map: the menu bar, the tool bar, the left dock (tool options, terrain
//! palette, layers), the inspector of the selection and the status bar.

use egui::{Color32, RichText, Ui};

use crate::app::{Action, EditorApp};
use crate::legend::{LegendTab, labelled_text};
use crate::map_view::colour32;
use crate::tools::{MAX_BRUSH_RADIUS, Tool};

fn menu_item(ui: &mut Ui, text: &str, shortcut: &str, enabled: bool) -> bool {
    let button = egui::Button::new(text).shortcut_text(shortcut);
    ui.add_enabled(enabled, button).clicked()
}

impl EditorApp {
    pub(crate) fn menu_bar(&mut self, ui: &mut Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    if menu_item(ui, "New map…", "Ctrl+N", true) {
                        self.request(Action::NewMap);
                    }
                    if menu_item(ui, "Open…", "Ctrl+O", true) {
                        self.request(Action::Open);
                    }
                    ui.menu_button("Open recent", |ui| {
                        if self.settings.recent.is_empty() {
                            ui.weak("No recent files");
                        }
                        for path in self.settings.recent.clone() {
                            if ui.button(path.display().to_string()).clicked() {
                                self.request(Action::OpenPath(path));
                            }
                        }
                        ui.separator();
                        if ui.button("Clear recent files").clicked() {
                            self.request(Action::ClearRecent);
                        }
                    });
                    ui.separator();
                    if menu_item(ui, "Save", "Ctrl+S", true) {
                        self.request(Action::Save);
                    }
                    if menu_item(ui, "Save as…", "Ctrl+Shift+S", true) {
                        self.request(Action::SaveAs);
                    }
                    ui.separator();
                    if menu_item(ui, "Quit", "Ctrl+Q", true) {
                        self.request(Action::Quit);
                    }
                });
                ui.menu_button("Edit", |ui| {
                    let undo = self
                        .history
                        .undo_label()
                        .map_or("Undo".to_owned(), |l| format!("Undo {l}"));
                    if menu_item(ui, &undo, "Ctrl+Z", self.history.can_undo()) {
                        self.request(Action::Undo);
                    }
                    let redo = self
                        .history
                        .redo_label()
                        .map_or("Redo".to_owned(), |l| format!("Redo {l}"));
                    if menu_item(ui, &redo, "Ctrl+Shift+Z", self.history.can_redo()) {
                        self.request(Action::Redo);
                    }
                    ui.separator();
                    if menu_item(ui, "Clear selection", "Esc", self.tools.selection.is_some()) {
                        self.request(Action::ClearSelection);
                    }
                    ui.separator();
                    for tool in Tool::ALL {
                        if menu_item(
                            ui,
                            &format!("{} tool", tool.name()),
                            tool.key().name(),
                            true,
                        ) {
                            self.request(Action::Tool(tool));
                        }
                    }
                    if menu_item(ui, "Smaller brush", "[", true) {
                        self.request(Action::BrushSmaller);
                    }
                    if menu_item(ui, "Bigger brush", "]", true) {
                        self.request(Action::BrushBigger);
                    }
                });
                ui.menu_button("View", |ui| {
                    if menu_item(ui, "Fit map", "Ctrl+0", true) {
                        self.request(Action::FitMap);
                    }
                    if menu_item(ui, "Zoom 100 %", "Ctrl+1", true) {
                        self.request(Action::Zoom100);
                    }
                    if menu_item(ui, "Zoom in", "wheel", true) {
                        self.request(Action::ZoomIn);
                    }
                    if menu_item(ui, "Zoom out", "wheel", true) {
                        self.request(Action::ZoomOut);
                    }
                    ui.separator();
                    let mut names = self.view.layers.hex_names;
                    if ui.checkbox(&mut names, "Hex names (N)").changed() {
                        self.request(Action::ToggleHexNames);
                    }
                    let mut left = self.settings.show_left_dock;
                    if ui.checkbox(&mut left, "Tool dock").changed() {
                        self.request(Action::ToggleLeftDock);
                    }
                    let mut right = self.settings.show_right_dock;
                    if ui.checkbox(&mut right, "Inspector").changed() {
                        self.request(Action::ToggleRightDock);
                    }
                    let mut diag = self.settings.show_diagnostics;
                    if ui.checkbox(&mut diag, "Diagnostics").changed() {
                        self.request(Action::ToggleDiagnostics);
                    }
                    ui.separator();
                    if menu_item(ui, "Next diagnostic", "F8", true) {
                        self.request(Action::NextDiagnostic);
                    }
                    if menu_item(ui, "Previous diagnostic", "Shift+F8", true) {
                        self.request(Action::PreviousDiagnostic);
                    }
                });
                ui.menu_button("Map", |ui| {
                    if ui.button("Map settings…").clicked() {
                        self.request(Action::MapSettings);
                    }
                    if ui.button("Legend…").clicked() {
                        self.request(Action::Legend);
                    }
                });
                ui.menu_button("Scenario", |ui| self.scenario_menu(ui));
                ui.menu_button("Digitise", |ui| self.digitise_menu(ui));
                ui.menu_button("Help", |ui| {
                    ui.label("Keys: S select · B brush · F fill · I eyedropper · H hexside");
                    ui.label(
                        "O overlay · L label · Z zone · U units · [ ] brush size · N hex names",
                    );
                    ui.label("R / Shift+R turn the selected counter · Delete takes it off the map");
                    ui.label("Space+drag or middle drag: pan · wheel: zoom");
                    if ui.button("About…").clicked() {
                        self.request(Action::About);
                    }
                });
            });
        });
    }

    fn scenario_menu(&mut self, ui: &mut Ui) {
        match &self.doc.scenario {
            Some(s) => {
                ui.label(format!("{} ({})", s.scenario.title, s.path.display()));
                if ui.button("Settings…").clicked() {
                    self.request(Action::ScenarioSettings);
                }
                if ui.button("Order of battle").clicked() {
                    self.oob.tab = crate::oob::DockTab::Oob;
                    self.settings.show_right_dock = true;
                }
                if menu_item(ui, "Turn counter clockwise", "R", true) {
                    self.request(Action::RotateClockwise);
                }
                if menu_item(ui, "Turn counter anticlockwise", "Shift+R", true) {
                    self.request(Action::RotateAnticlockwise);
                }
                if menu_item(ui, "Take counter off the map", "Delete", true) {
                    self.request(Action::RemoveFromMap);
                }
            }
            None => {
                ui.weak("No scenario open: open a scenario file, or start one for this map.");
                if ui.button("New scenario for this map…").clicked() {
                    self.request(Action::NewScenario);
                }
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
                        self.request(Action::Tool(tool));
                    }
                }
                ui.separator();
                if ui
                    .add_enabled(self.history.can_undo(), egui::Button::new("⟲ Undo"))
                    .on_hover_text("Undo (Ctrl+Z)")
                    .clicked()
                {
                    self.request(Action::Undo);
                }
                if ui
                    .add_enabled(self.history.can_redo(), egui::Button::new("⟳ Redo"))
                    .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
                    .clicked()
                {
                    self.request(Action::Redo);
                }
                if ui
                    .button("💾 Save")
                    .on_hover_text("Save (Ctrl+S)")
                    .clicked()
                {
                    self.request(Action::Save);
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
                } else {
                    ui.label("saved");
                }
            });
        });
    }

    pub(crate) fn left_dock(&mut self, ui: &mut Ui) {
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
            self.request(Action::Legend);
        }
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

    pub(crate) fn inspector(&mut self, ui: &mut Ui) {
        ui.heading("Inspector");
        let Some(hex) = self.tools.selection else {
            ui.weak("Select a hex (S, then click) to see it here.");
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
    }
}
