//! The map settings dialog (size on each side, orientation, offset, naming format, title) and
//! the new-map dialog.

use bataille_schema::map::{HexNaming, Orientation, Shifted};
use egui::Ui;

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::model::document::MAX_HEXES_PER_SIDE;
use crate::model::document::{Document, NewMapSettings};
use crate::model::history::Change;
use crate::model::resize::{Resize, resized_map};
use crate::model::templates::{BUNDLED_MAPS, LegendSource};
use crate::panels::legend::{labelled_number, labelled_text};

/// The map settings dialog's draft.
#[derive(Debug, Clone)]
pub struct MapSettingsDialog {
    pub name: String,
    pub resize: Resize,
    pub error: Option<String>,
}

fn orientation_ui(ui: &mut Ui, orientation: &mut Orientation, shifted: &mut Shifted) {
    egui::ComboBox::from_label("Orientation")
        .selected_text(match orientation {
            Orientation::Flat => "flat top",
            Orientation::Pointy => "pointy top",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(orientation, Orientation::Flat, "flat top");
            ui.selectable_value(orientation, Orientation::Pointy, "pointy top");
        });
    let what = match orientation {
        Orientation::Flat => "columns",
        Orientation::Pointy => "rows",
    };
    egui::ComboBox::from_label("Shifted half a hex")
        .selected_text(match shifted {
            Shifted::Odd => format!("odd {what}"),
            Shifted::Even => format!("even {what}"),
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(shifted, Shifted::Odd, format!("odd {what}"));
            ui.selectable_value(shifted, Shifted::Even, format!("even {what}"));
        });
}

fn naming_ui(ui: &mut Ui, naming: &mut HexNaming) {
    labelled_number(ui, "Column digits", &mut naming.column_digits, 2..=3);
    labelled_number(ui, "Row digits", &mut naming.row_digits, 2..=3);
    egui::ComboBox::from_label("Separator")
        .selected_text(match naming.separator.as_str() {
            "" => "none (1518)",
            "." => "dot (15.18)",
            _ => "dash (15-18)",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut naming.separator, String::new(), "none (1518)");
            ui.selectable_value(&mut naming.separator, ".".to_owned(), "dot (15.18)");
            ui.selectable_value(&mut naming.separator, "-".to_owned(), "dash (15-18)");
        });
}

impl MapSettingsDialog {
    pub fn new(doc: &Document) -> Self {
        Self {
            name: doc.map.name.clone(),
            resize: Resize::none(&doc.map.grid),
            error: None,
        }
    }

    /// The dialog's body; Apply sends the edit (one undo step), fits the map and tells what a
    /// resize did. Returns whether it stays open.
    pub fn ui(&mut self, cx: &ViewContext<'_>, ui: &mut Ui) -> bool {
        let doc = cx.doc;
        let grid = &doc.map.grid;
        labelled_text(ui, "Map title", &mut self.name);
        ui.separator();
        ui.label(format!(
            "Now {} × {} hexes, columns {}–{}, rows {}–{}. Add (or remove, with a negative \
             number) hexes on each side; existing hexes keep their names.",
            grid.columns,
            grid.rows,
            grid.first_column,
            grid.first_column + grid.columns.saturating_sub(1),
            grid.first_row,
            grid.first_row + grid.rows.saturating_sub(1),
        ));
        let r = &mut self.resize;
        let max_cols = grid.columns as i32 - 1;
        let max_rows = grid.rows as i32 - 1;
        labelled_number(ui, "West (columns)", &mut r.west, -max_cols..=500);
        labelled_number(ui, "East (columns)", &mut r.east, -max_cols..=500);
        labelled_number(ui, "North (rows)", &mut r.north, -max_rows..=500);
        labelled_number(ui, "South (rows)", &mut r.south, -max_rows..=500);
        ui.separator();
        orientation_ui(ui, &mut r.orientation, &mut r.shifted);
        naming_ui(ui, &mut r.hex_names);
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        let mut open = true;
        ui.horizontal(|ui| {
            if ui.button("Apply settings").clicked() {
                let mut changes = Vec::new();
                let mut notes = Vec::new();
                if self.resize != Resize::none(grid) {
                    match resized_map(&doc.map, &self.resize) {
                        Ok((map, n)) => {
                            notes = n;
                            changes.push(Change::Grid {
                                before: Box::new(doc.map.clone()),
                                after: Box::new(map),
                            });
                        }
                        Err(e) => {
                            self.error = Some(e);
                            return;
                        }
                    }
                }
                let name = self.name.trim().to_owned();
                if name.is_empty() {
                    self.error = Some("the map needs a title".into());
                    return;
                }
                if name != doc.map.name {
                    changes.push(Change::MapName {
                        before: doc.map.name.clone(),
                        after: name,
                    });
                }
                open = false;
                if !changes.is_empty() {
                    cx.send(AppCommand::Edit {
                        label: "Map settings".to_owned(),
                        changes,
                    });
                    cx.send(UiCommand::FitMap);
                }
                if !notes.is_empty() {
                    cx.send(AppCommand::Notify(notes.join("; ")));
                }
            }
            if ui.button("Cancel").clicked() {
                open = false;
            }
        });
        open
    }
}

/// The new-map dialog's body: Create map sends the settings. Returns whether it stays open.
pub fn new_map_ui(cx: &ViewContext<'_>, ui: &mut Ui, settings: &mut NewMapSettings) -> bool {
    labelled_text(ui, "Map title", &mut settings.name);
    labelled_number(ui, "Columns", &mut settings.columns, 1..=MAX_HEXES_PER_SIDE);
    labelled_number(ui, "Rows", &mut settings.rows, 1..=MAX_HEXES_PER_SIDE);
    labelled_number(
        ui,
        "First column number",
        &mut settings.first_column,
        0..=99,
    );
    labelled_number(ui, "First row number", &mut settings.first_row, 0..=99);
    orientation_ui(ui, &mut settings.orientation, &mut settings.shifted);
    legend_source_ui(ui, &mut settings.legend);
    let mut open = true;
    ui.horizontal(|ui| {
        if ui.button("Create map").clicked() {
            cx.send(AppCommand::CreateMap(settings.clone()));
            open = false;
        }
        if ui.button("Cancel").clicked() {
            open = false;
        }
    });
    open
}

/// The choice of a new map's legend: a bundled game's (terrain, overlays, rivers and roads
/// ready to draw), another map file's, or the starter terrain.
fn legend_source_ui(ui: &mut Ui, source: &mut LegendSource) {
    let name = |source: &LegendSource| match source {
        LegendSource::Basic => "Starter terrain only".to_owned(),
        LegendSource::Bundled(i) => BUNDLED_MAPS
            .get(*i)
            .map_or_else(String::new, |(title, _)| format!("{title}'s legend")),
        LegendSource::File(_) => "Another map's legend".to_owned(),
    };
    ui.horizontal(|ui| {
        let label = ui.label("Legend");
        egui::ComboBox::from_id_salt("new-map-legend")
            .selected_text(name(source))
            .show_ui(ui, |ui| {
                let mut choices = vec![LegendSource::Basic];
                choices.extend((0..BUNDLED_MAPS.len()).map(LegendSource::Bundled));
                choices.push(LegendSource::File(String::new()));
                for choice in choices {
                    let selected = std::mem::discriminant(source)
                        == std::mem::discriminant(&choice)
                        && (!matches!(choice, LegendSource::Bundled(_)) || *source == choice);
                    if ui.selectable_label(selected, name(&choice)).clicked() {
                        *source = choice;
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
    if let LegendSource::File(path) = source {
        labelled_text(ui, "Map file", path);
    }
}
