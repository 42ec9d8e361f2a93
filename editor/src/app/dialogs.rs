//! The modal dialogs: unsaved changes, errors, recovery, paths, new map, map settings, about.

use std::path::PathBuf;

use crate::model::document::Document;
use crate::panels::map_settings::{SettingsOutcome, new_map_ui};
use crate::services::files::{PickPurpose, format_time};

use crate::app::*;
use crate::panels::file_dialog::FileOutcome;

impl EditorApp {
    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        let modal = |id: &str| egui::Modal::new(egui::Id::unique(id));
        let mut keep = true;
        let dialog = match dialog {
            Dialog::Guard { then, question } => {
                let mut choice = None;
                modal("guard").show(ctx, |ui| {
                    ui.set_max_width(420.0);
                    ui.heading("Unsaved changes");
                    ui.label(&question);
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            choice = Some(0);
                        }
                        if ui.button("Discard").clicked() {
                            choice = Some(1);
                        }
                        if ui.button("Cancel").clicked() {
                            choice = Some(2);
                        }
                    });
                });
                match choice {
                    Some(0) => {
                        keep = false;
                        if self.doc.map_path.is_some() {
                            if self.save() {
                                self.guard_passed = true;
                                self.commands.send(then.clone());
                            }
                        } else {
                            self.open_path_dialog(PickPurpose::Save, Some(then.clone()));
                            return;
                        }
                    }
                    Some(1) => {
                        keep = false;
                        self.remove_recovery();
                        self.history.mark_saved();
                        self.guard_passed = true;
                        self.commands.send(then.clone());
                    }
                    Some(_) => keep = false,
                    None => {}
                }
                Dialog::Guard { then, question }
            }
            Dialog::Error {
                title,
                message,
                hint,
            } => {
                modal("error").show(ctx, |ui| {
                    ui.set_max_width(560.0);
                    ui.heading(format!("⛔ {title}"));
                    ui.label(egui::RichText::new(&message).monospace());
                    ui.label(&hint);
                    if ui.button("OK").clicked() {
                        keep = false;
                    }
                });
                Dialog::Error {
                    title,
                    message,
                    hint,
                }
            }
            Dialog::Recover { mut found } => {
                let mut choice = None;
                if let Some(first) = found.first() {
                    let what = first.recovery.map_path.as_ref().map_or_else(
                        || format!("“{}” (never saved)", first.recovery.map.name),
                        |p| p.display().to_string(),
                    );
                    modal("recover").show(ctx, |ui| {
                        ui.set_max_width(520.0);
                        ui.heading(format!(
                            "Recover unsaved changes from {}?",
                            format_time(first.recovery.written_at)
                        ));
                        ui.label(format!(
                            "The editor stopped before {what} was saved. The changes were kept \
                             in {}.",
                            first.file.display()
                        ));
                        ui.horizontal(|ui| {
                            if ui.button("Recover").clicked() {
                                choice = Some(0);
                            }
                            if ui.button("Discard recovery").clicked() {
                                choice = Some(1);
                            }
                            if ui.button("Later").clicked() {
                                choice = Some(2);
                            }
                        });
                    });
                }
                match choice {
                    Some(0) => {
                        let first = found.remove(0);
                        keep = !found.is_empty();
                        self.restore(&first);
                        if self.dialog.is_some() {
                            return;
                        }
                    }
                    Some(1) => {
                        let first = found.remove(0);
                        let removed = crate::services::save::remove_if_present(&first.file);
                        self.report_io("remove the recovery file", removed);
                        keep = !found.is_empty();
                    }
                    Some(_) => {
                        found.remove(0);
                        keep = !found.is_empty();
                    }
                    None => keep = !found.is_empty(),
                }
                Dialog::Recover { found }
            }
            Dialog::Path { mut dialog, then } => {
                let title = match dialog.purpose {
                    PickPurpose::Open => "Open a map or scenario",
                    PickPurpose::Save if self.doc.scenario.is_some() => "Save the scenario as",
                    PickPurpose::Save => "Save the map as",
                };
                let mut outcome = FileOutcome::Open;
                modal("path").show(ctx, |ui| {
                    outcome = dialog.ui(ui, title);
                    if self.config.picker.available()
                        && ui
                            .button("Browse…")
                            .on_hover_text("Choose with the desktop's file chooser")
                            .clicked()
                    {
                        let start = PathBuf::from(dialog.text.trim());
                        if let Some(path) = self.config.picker.pick(dialog.purpose, Some(&start)) {
                            outcome = FileOutcome::Chosen(path);
                        }
                    }
                    if let Some(recent) = (dialog.purpose == PickPurpose::Open)
                        .then_some(&self.settings.recent)
                        .filter(|r| !r.is_empty())
                    {
                        ui.separator();
                        ui.label("Recent:");
                        for path in recent.iter().take(5) {
                            if ui.link(path.display().to_string()).clicked() {
                                dialog.text = path.display().to_string();
                            }
                        }
                    }
                });
                match outcome {
                    FileOutcome::Chosen(path) => {
                        keep = false;
                        match dialog.purpose {
                            PickPurpose::Open => {
                                self.open_path(&path);
                            }
                            PickPurpose::Save => {
                                if self.save_to(&path)
                                    && let Some(then) = then.clone()
                                {
                                    self.guard_passed = true;
                                    self.commands.send(then);
                                }
                            }
                        }
                        if self.dialog.is_some() {
                            return;
                        }
                    }
                    FileOutcome::Cancel => keep = false,
                    FileOutcome::Open => {}
                }
                Dialog::Path { dialog, then }
            }
            Dialog::NewMap(mut settings) => {
                let mut result = None;
                modal("new-map").show(ctx, |ui| {
                    ui.heading("New map");
                    result = new_map_ui(ui, &mut settings);
                });
                match result {
                    Some(true) => {
                        keep = false;
                        self.remove_recovery();
                        match crate::model::templates::legend(&settings.legend) {
                            Ok(legend) => {
                                let mut doc = Document::new_map(&settings);
                                if let Some(legend) = legend {
                                    legend.apply_to(&mut doc.map);
                                }
                                self.replace_document(doc, false);
                            }
                            Err(error) => {
                                self.show_error(
                                    "Could not read the legend",
                                    error,
                                    "Choose another map file, or a bundled legend.",
                                );
                                return;
                            }
                        }
                    }
                    Some(false) => keep = false,
                    None => {}
                }
                Dialog::NewMap(settings)
            }
            Dialog::MapSettings(mut dialog) => {
                let mut outcome = SettingsOutcome::Open;
                modal("map-settings").show(ctx, |ui| {
                    ui.set_max_width(480.0);
                    ui.heading("Map settings");
                    outcome = dialog.ui(ui, &self.doc);
                });
                match outcome {
                    SettingsOutcome::Open => {}
                    SettingsOutcome::Cancel => keep = false,
                    SettingsOutcome::Apply(changes, notes) => {
                        keep = false;
                        if !changes.is_empty() {
                            self.edit("Map settings", changes);
                            self.view.fit_pending = true;
                        }
                        if !notes.is_empty() {
                            self.toast(notes.join("; "));
                        }
                    }
                }
                Dialog::MapSettings(dialog)
            }
            Dialog::About => {
                modal("about").show(ctx, |ui| {
                    ui.heading("Bataille editor");
                    ui.label(format!(
                        "Version {} — paints hex maps for lace-wars battle games.",
                        env!("CARGO_PKG_VERSION")
                    ));
                    if ui.button("OK").clicked() {
                        keep = false;
                    }
                });
                Dialog::About
            }
            Dialog::Palette(mut state) => {
                let mut chosen = None;
                modal("palette").show(ctx, |ui| {
                    let (command, close) = crate::app::palette::palette_ui(ui, &mut state);
                    chosen = command;
                    keep = !close;
                });
                if let Some(command) = chosen {
                    self.request(command);
                }
                Dialog::Palette(state)
            }
            Dialog::NewScenario(mut form) => {
                let mut result = None;
                modal("new-scenario").show(ctx, |ui| result = form.ui(ui));
                match result {
                    Some(true) => match self.create_scenario(&form) {
                        Ok(()) => keep = false,
                        Err(error) => form.error = Some(error),
                    },
                    Some(false) => keep = false,
                    None => {}
                }
                Dialog::NewScenario(form)
            }
            Dialog::Export(mut form) => {
                keep = self.export_dialog(ctx, &mut form);
                Dialog::Export(form)
            }
            Dialog::Shortcuts => {
                modal("shortcuts").show(ctx, |ui| {
                    keep = !crate::app::palette::shortcuts_ui(ui);
                });
                Dialog::Shortcuts
            }
        };
        if keep && self.dialog.is_none() {
            self.dialog = Some(dialog);
        }
    }
}
