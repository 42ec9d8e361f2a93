//! The table overlay run by the app: View ▸ Table overlay toggles it; a small window chooses
//! the system (among the scenario's `miniatures`), the figure scale and the table, and lists
//! the counters that fall off the table; the map draws it (`map::table_overlay`) and its tag
//! takes the pointer before the tools.

use bataille_schema::Id;

use crate::app::EditorApp;
use crate::services::systems::Loaded;

impl EditorApp {
    /// The systems the open scenario names, loaded (empty without a scenario).
    pub fn scenario_systems(&mut self) -> Vec<(Id, Loaded)> {
        match &self.doc.scenario {
            Some(file) => self.systems.systems_of(&file.path, &file.scenario),
            None => Vec::new(),
        }
    }

    /// Gives the live validator the systems the scenario names (checked again when one is
    /// loaded, reloaded or no longer named), so the `miniatures` checks run in the editor.
    pub(crate) fn sync_validation_systems(&mut self) {
        let loaded: Vec<Loaded> = self
            .scenario_systems()
            .into_iter()
            .map(|(_, loaded)| loaded)
            .collect();
        let same = loaded.len() == self.systems.synced.len()
            && loaded.iter().zip(&self.systems.synced).all(|(a, b)| {
                std::sync::Arc::ptr_eq(a, b) || matches!((&**a, &**b), (Err(x), Err(y)) if x == y)
            });
        if same {
            return;
        }
        let systems: Vec<bataille_schema::System> = loaded
            .iter()
            .filter_map(|l| l.as_ref().as_ref().ok().cloned())
            .collect();
        self.systems.synced = loaded;
        self.diagnostics.live.systems = std::sync::Arc::new(systems);
        self.validation_due = true;
    }

    /// View ▸ Table overlay.
    pub(crate) fn toggle_table_overlay(&mut self) {
        self.table.shown = !self.table.shown;
        if self.table.shown && self.doc.scenario.is_none() {
            self.toast(
                "The table overlay lays a scenario's units out: open a scenario with \
                 `miniatures` systems."
                    .into(),
            );
        }
    }

    /// Each frame while shown: the layout kept current and the overlay's window.
    pub(crate) fn table_frame(&mut self, ctx: &egui::Context) {
        if !self.table.shown {
            return;
        }
        let systems = self.scenario_systems();
        // The chosen system, or the first that loads.
        if !systems
            .iter()
            .any(|(id, s)| Some(id) == self.table.system.as_ref() && s.is_ok())
        {
            self.table.system = systems
                .iter()
                .find(|(_, s)| s.is_ok())
                .map(|(id, _)| id.clone());
        }
        let chosen = systems
            .iter()
            .find(|(id, _)| Some(id) == self.table.system.as_ref())
            .map(|(_, s)| s.clone());
        if let Some(Ok(system)) = chosen.as_deref() {
            if !system
                .figure_scales
                .contains_key(self.table.figures.as_str())
            {
                self.table.figures = system
                    .figure_scales
                    .keys()
                    .next()
                    .map(|k| k.to_string())
                    .unwrap_or_default();
            }
            if let Some(file) = &self.doc.scenario {
                self.table
                    .refresh(self.doc.revision(), &file.scenario, &self.doc.map, system);
            }
        }
        let mut open = true;
        egui::Window::new("Table overlay")
            .id(egui::Id::unique("table-overlay-window"))
            .open(&mut open)
            .default_pos(self.map_rect.left_bottom() + egui::vec2(12.0, -300.0))
            .default_width(300.0)
            .resizable(false)
            .show(ctx, |ui| self.table_window(ui, &systems));
        if !open {
            self.table.shown = false;
        }
    }

    fn table_window(&mut self, ui: &mut egui::Ui, systems: &[(Id, Loaded)]) {
        if self.doc.scenario.is_none() {
            ui.label("Open a scenario: the overlay lays its units out on a table.");
            return;
        }
        if systems.is_empty() {
            ui.label(
                "This scenario names no miniatures system (`miniatures`): add one \
                 (systems/age-of-honor.ron, systems/louis-xiv.ron) to lay it out on a table.",
            );
            return;
        }
        ui.horizontal(|ui| {
            let l = ui.label("System");
            let current = self
                .table
                .system
                .as_ref()
                .and_then(|id| systems.iter().find(|(s, _)| s == id))
                .map_or_else(|| "—".to_owned(), |(id, s)| system_name(id, s));
            egui::ComboBox::from_id_salt("table-system")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (id, loaded) in systems {
                        let enabled = loaded.is_ok();
                        let selected = self.table.system.as_ref() == Some(id);
                        if ui
                            .add_enabled(
                                enabled,
                                egui::Button::selectable(selected, system_name(id, loaded)),
                            )
                            .clicked()
                        {
                            self.table.system = Some(id.clone());
                        }
                    }
                })
                .response
                .labelled_by(l.id);
        });
        for (id, loaded) in systems {
            if let Err(e) = &**loaded {
                ui.colored_label(egui::Color32::from_rgb(230, 80, 70), format!("{id}: {e}"));
            }
        }
        let system = self
            .table
            .system
            .as_ref()
            .and_then(|id| systems.iter().find(|(s, _)| s == id))
            .map(|(_, s)| s.clone());
        if let Some(Ok(system)) = system.as_deref() {
            ui.horizontal(|ui| {
                let l = ui.label("Figures");
                egui::ComboBox::from_id_salt("table-figures")
                    .selected_text(self.table.figures.clone())
                    .show_ui(ui, |ui| {
                        for scale in system.figure_scales.keys() {
                            if ui
                                .selectable_label(
                                    self.table.figures == scale.as_str(),
                                    scale.as_str(),
                                )
                                .clicked()
                            {
                                self.table.figures = scale.to_string();
                            }
                        }
                    })
                    .response
                    .labelled_by(l.id);
            });
        }
        ui.horizontal(|ui| {
            let l = ui.label("Table");
            ui.add(
                egui::TextEdit::singleline(&mut self.table.table_text)
                    .hint_text("180x120cm, 6x4ft")
                    .desired_width(120.0),
            )
            .labelled_by(l.id);
            ui.checkbox(&mut self.table.turned, "Turned");
        });
        if let Err(e) = self.table.size_mm() {
            ui.colored_label(egui::Color32::from_rgb(230, 80, 70), e);
        }
        if ui
            .button("Best place")
            .on_hover_text(
                "Where the table holds the most units whole (as `bataille table --table`)",
            )
            .clicked()
        {
            self.table.best_place(&self.doc.map);
        }
        match self.table.layout() {
            Some(Ok(layout)) => {
                ui.weak(format!(
                    "1 mm of table = {} m of ground; a hex is {:.0} mm across. Drag the \
                     table by its tag.",
                    (layout.metres_per_mm * 100.0).round() / 100.0,
                    layout.mm_per_grid * 3f64.sqrt()
                ));
                let outside = self.table.outside_names();
                if outside.is_empty() {
                    ui.label("Every unit on the map fits on the table.");
                } else {
                    ui.colored_label(
                        egui::Color32::from_rgb(220, 30, 30),
                        format!("{} off the table (ringed in red):", outside.len()),
                    );
                    egui::ScrollArea::vertical()
                        .max_height(140.0)
                        .show(ui, |ui| {
                            for name in outside {
                                ui.label(name);
                            }
                        });
                }
            }
            Some(Err(e)) => {
                ui.colored_label(egui::Color32::from_rgb(230, 80, 70), e.clone());
            }
            None => {}
        }
    }

    /// Draws the overlay over the map.
    pub(crate) fn paint_table_overlay(&self, painter: &egui::Painter, rect: egui::Rect) {
        if !self.table.shown {
            return;
        }
        let to_screen = |p: egui::Pos2| self.view.to_screen(rect, p);
        self.table.paint(painter, &to_screen, rect);
    }

    /// The table's tag takes the pointer before the tools and counters; returns whether it did.
    pub(crate) fn table_overlay_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        pointer: Option<egui::Pos2>,
    ) -> bool {
        let rect = response.rect;
        if !self.table.shown || !self.no_modal_open() {
            return false;
        }
        let (pressed, down) = ui.input(|i| (i.pointer.primary_pressed(), i.pointer.primary_down()));
        let view = &self.view;
        let to_screen = |p: egui::Pos2| view.to_screen(rect, p);
        let to_grid = |p: egui::Pos2| view.to_grid(rect, p);
        let pointer = pointer.filter(|p| rect.contains(*p) || self.table.dragging());
        let hovered = response.contains_pointer();
        let state = crate::map::table_overlay::PointerState {
            pos: pointer,
            pressed,
            down,
            hovered,
        };
        self.table.input(&to_screen, &to_grid, rect, state)
    }

    /// The tag's rectangle on screen (tests drag it).
    pub fn table_overlay_handle(&self) -> Option<egui::Rect> {
        let rect = self.map_rect;
        let to_screen = |p: egui::Pos2| self.view.to_screen(rect, p);
        self.table
            .handle(&to_screen, rect, &egui::FontId::proportional(13.0))
    }
}

fn system_name(id: &Id, loaded: &Loaded) -> String {
    match &**loaded {
        Ok(system) => system.name.clone(),
        Err(_) => format!("{id} (cannot be read)"),
    }
}
