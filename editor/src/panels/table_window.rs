//! View ▸ Table overlay's window: choose the system (among the scenario's `miniatures`), the
//! figure scale and the table; the counters that fall off the table are listed. The overlay
//! itself (its state, drawing and the tag's drag) is `map::table_overlay`; this panel edits that
//! state, which changes nothing in the document.

use bataille_schema::Id;

use crate::context::ViewContext;
use crate::map::table_overlay::TableOverlay;
use crate::services::systems::Loaded;

/// The table overlay's window (its state is the overlay's).
#[derive(Debug, Default)]
pub struct TableWindow;

impl TableWindow {
    /// Each frame while the overlay is shown: the layout kept current and the window.
    pub fn show(
        &mut self,
        ctx: &ViewContext<'_>,
        egui_ctx: &egui::Context,
        table: &mut TableOverlay,
        systems: &[(Id, Loaded)],
        map_rect: egui::Rect,
    ) {
        if !table.shown {
            return;
        }
        // The chosen system, or the first that loads.
        if !systems
            .iter()
            .any(|(id, s)| Some(id) == table.system.as_ref() && s.is_ok())
        {
            table.system = systems
                .iter()
                .find(|(_, s)| s.is_ok())
                .map(|(id, _)| id.clone());
        }
        let chosen = systems
            .iter()
            .find(|(id, _)| Some(id) == table.system.as_ref())
            .map(|(_, s)| s.clone());
        if let Some(Ok(system)) = chosen.as_deref() {
            if !system.figure_scales.contains_key(table.figures.as_str()) {
                table.figures = system
                    .figure_scales
                    .keys()
                    .next()
                    .map(|k| k.to_string())
                    .unwrap_or_default();
            }
            if let Some(file) = &ctx.doc.scenario {
                table.refresh(ctx.revision, &file.scenario, &ctx.doc.map, system);
            }
        }
        let mut open = true;
        egui::Window::new("Table overlay")
            .id(egui::Id::unique("table-overlay-window"))
            .open(&mut open)
            .default_pos(map_rect.left_bottom() + egui::vec2(12.0, -300.0))
            .default_width(300.0)
            .resizable(false)
            .show(egui_ctx, |ui| window_ui(ctx, ui, table, systems));
        if !open {
            table.shown = false;
        }
    }
}

fn window_ui(
    ctx: &ViewContext<'_>,
    ui: &mut egui::Ui,
    table: &mut TableOverlay,
    systems: &[(Id, Loaded)],
) {
    if ctx.doc.scenario.is_none() {
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
        let current = table
            .system
            .as_ref()
            .and_then(|id| systems.iter().find(|(s, _)| s == id))
            .map_or_else(|| "—".to_owned(), |(id, s)| system_name(id, s));
        egui::ComboBox::from_id_salt("table-system")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (id, loaded) in systems {
                    let enabled = loaded.is_ok();
                    let selected = table.system.as_ref() == Some(id);
                    if ui
                        .add_enabled(
                            enabled,
                            egui::Button::selectable(selected, system_name(id, loaded)),
                        )
                        .clicked()
                    {
                        table.system = Some(id.clone());
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
    let system = table
        .system
        .as_ref()
        .and_then(|id| systems.iter().find(|(s, _)| s == id))
        .map(|(_, s)| s.clone());
    if let Some(Ok(system)) = system.as_deref() {
        ui.horizontal(|ui| {
            let l = ui.label("Figures");
            egui::ComboBox::from_id_salt("table-figures")
                .selected_text(table.figures.clone())
                .show_ui(ui, |ui| {
                    for scale in system.figure_scales.keys() {
                        if ui
                            .selectable_label(table.figures == scale.as_str(), scale.as_str())
                            .clicked()
                        {
                            table.figures = scale.to_string();
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
            egui::TextEdit::singleline(&mut table.table_text)
                .hint_text("180x120cm, 6x4ft")
                .desired_width(120.0),
        )
        .labelled_by(l.id);
        ui.checkbox(&mut table.turned, "Turned");
    });
    if let Err(e) = table.size_mm() {
        ui.colored_label(egui::Color32::from_rgb(230, 80, 70), e);
    }
    if ui
        .button("Best place")
        .on_hover_text("Where the table holds the most units whole (as `bataille table --table`)")
        .clicked()
    {
        table.best_place(&ctx.doc.map);
    }
    match table.layout() {
        Some(Ok(layout)) => {
            ui.weak(format!(
                "1 mm of table = {} m of ground; a hex is {:.0} mm across. Drag the \
                 table by its tag.",
                (layout.metres_per_mm * 100.0).round() / 100.0,
                layout.mm_per_grid * 3f64.sqrt()
            ));
            let outside = table.outside_names();
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

fn system_name(id: &Id, loaded: &Loaded) -> String {
    match &**loaded {
        Ok(system) => system.name.clone(),
        Err(_) => format!("{id} (cannot be read)"),
    }
}
