//! The modal dialogs, one at a time: unsaved changes, errors, recovery, paths, new map, map and
//! scenario settings, new scenario, export, the palette, the shortcut sheet, about. Each is
//! handed the frame's `ViewContext` and sends what the user chose as a `Command`; closing itself
//! (OK, Cancel, a choice made) is the dialog's own state.

use std::path::PathBuf;

use crate::context::{AppCommand, Command, ViewContext};
use crate::model::document::NewMapSettings;
use crate::panels::export::ExportForm;
use crate::panels::file_dialog::{FileDialog, FileOutcome};
use crate::panels::map_settings::{MapSettingsDialog, new_map_ui};
use crate::panels::new_scenario::NewScenarioForm;
use crate::panels::palette::PaletteState;
use crate::panels::scenario_settings::SettingsDialog;
use crate::services::files::{FoundRecovery, PickPurpose, format_time};

/// A modal dialog.
#[derive(Debug)]
pub enum Dialog {
    /// Unsaved changes: Save, Discard or Cancel, then do `then`.
    Guard {
        then: Command,
        /// Which files have changes ("The map denain.ron has changes…").
        question: String,
    },
    /// Something failed: what, and what to do.
    Error {
        title: String,
        message: String,
        hint: String,
    },
    /// Recovery files found at start-up.
    Recover {
        found: Vec<FoundRecovery>,
    },
    /// The file dialog (always works), with a Browse… button for the system chooser.
    Path {
        dialog: Box<FileDialog>,
        then: Option<Command>,
    },
    NewMap(NewMapSettings),
    MapSettings(Box<MapSettingsDialog>),
    About,
    /// The command palette: a filter over every command.
    Palette(PaletteState),
    /// The keyboard shortcuts, from the command table.
    Shortcuts,
    /// A new scenario for the map: title, date, rules, file.
    NewScenario(Box<NewScenarioForm>),
    /// File ▸ Export ▸ …: the options and the destination.
    Export(Box<ExportForm>),
    /// Scenario ▸ Settings…: title, date, turns, command radii, stacking, victory.
    ScenarioSettings(Box<SettingsDialog>),
    /// Replace a file? A file changed on disk? (`panels::file_safety`)
    Safety(Box<crate::panels::file_safety::SafetyDialog>),
    /// Scenario ▸ Open variant…: the variants of the open scenario (issue 25).
    Variants(Vec<crate::model::variant::VariantFile>),
}

/// Shows the open dialog, if any; it goes (`None`) when it closed itself. `browse`: the
/// desktop's file chooser can be shown (the path dialog offers Browse…).
pub fn show(cx: &ViewContext<'_>, ctx: &egui::Context, dialog: &mut Option<Dialog>, browse: bool) {
    let Some(open) = dialog.as_mut() else {
        return;
    };
    let modal = crate::panels::widgets::steady_modal;
    let keep = match open {
        Dialog::Guard { then, question } => {
            let mut keep = true;
            modal("guard").show(ctx, |ui| {
                ui.set_max_width(420.0);
                ui.heading("Unsaved changes");
                ui.label(question.as_str());
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        cx.send(AppCommand::GuardSave(Box::new(then.clone())));
                        keep = false;
                    }
                    if ui.button("Discard").clicked() {
                        cx.send(AppCommand::GuardDiscard(Box::new(then.clone())));
                        keep = false;
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
            });
            keep
        }
        Dialog::Error {
            title,
            message,
            hint,
        } => {
            let mut keep = true;
            modal("error").show(ctx, |ui| {
                ui.set_max_width(560.0);
                ui.heading(format!("⛔ {title}"));
                ui.label(egui::RichText::new(message.as_str()).monospace());
                ui.label(hint.as_str());
                if ui.button("OK").clicked() {
                    keep = false;
                }
            });
            keep
        }
        Dialog::Recover { found } => recover_ui(cx, ctx, found),
        Dialog::Path { dialog, then } => path_ui(cx, ctx, dialog, then, browse),
        Dialog::NewMap(settings) => {
            let mut keep = true;
            modal("new-map").show(ctx, |ui| {
                ui.heading("New map");
                keep = new_map_ui(cx, ui, settings);
            });
            keep
        }
        Dialog::MapSettings(dialog) => {
            let mut keep = true;
            modal("map-settings").show(ctx, |ui| {
                ui.set_max_width(480.0);
                ui.heading("Map settings");
                keep = dialog.ui(cx, ui);
            });
            keep
        }
        Dialog::Variants(files) => crate::panels::variant_base::variants_dialog(cx, ctx, files),
        Dialog::About => {
            let mut keep = true;
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
            keep
        }
        Dialog::Palette(state) => {
            let mut keep = true;
            modal("palette").show(ctx, |ui| {
                keep = crate::panels::palette::palette_ui(cx, ui, state);
            });
            keep
        }
        Dialog::NewScenario(form) => {
            let mut keep = true;
            modal("new-scenario").show(ctx, |ui| keep = form.ui(cx, ui));
            keep
        }
        Dialog::Export(form) => {
            let mut keep = true;
            modal("export-dialog").show(ctx, |ui| keep = form.ui(cx, ui));
            keep
        }
        Dialog::ScenarioSettings(dialog) => {
            let mut keep = true;
            modal("scenario-settings").show(ctx, |ui| {
                ui.set_min_width(560.0);
                ui.heading("Scenario settings");
                keep = dialog.ui(cx, ui);
            });
            keep
        }
        Dialog::Safety(question) => crate::panels::file_safety::ui(cx, ctx, question),
        Dialog::Shortcuts => {
            let mut keep = true;
            modal("shortcuts").show(ctx, |ui| {
                keep = !crate::panels::palette::shortcuts_ui(ui);
            });
            keep
        }
    };
    if !keep {
        *dialog = None;
    }
}

/// The recovery offer for the first file found: Recover, Discard recovery or Later (the next
/// file, if any, is offered after). Returns whether files are left to offer.
fn recover_ui(cx: &ViewContext<'_>, ctx: &egui::Context, found: &mut Vec<FoundRecovery>) -> bool {
    let Some(first) = found.first() else {
        return false;
    };
    // Paths as the user knows them: `scenarios/../maps/x.ron` reads `maps/x.ron` (display only;
    // the recovery keeps the path it saves to).
    let shown = |p: &std::path::Path| bataille_schema::files::clean_path(p).display().to_string();
    let map = first.recovery.map_path.as_deref().map_or_else(
        || format!("“{}” (never saved)", first.recovery.map.name),
        shown,
    );
    // The scenario the map was opened through is what the user was editing.
    let what = match &first.recovery.scenario_path {
        Some(scenario) => format!("the scenario {} and its map {map}", shown(scenario)),
        None => map,
    };
    // `Some(None)`: Later.
    let mut choice: Option<Option<Command>> = None;
    crate::panels::widgets::steady_modal("recover").show(ctx, |ui| {
        ui.set_max_width(520.0);
        ui.heading(format!(
            "Recover unsaved changes from {}?",
            format_time(first.recovery.written_at)
        ));
        ui.label(format!(
            "The editor stopped before {what} was saved. The changes were kept in {}.",
            first.file.display()
        ));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                choice = Some(Some(AppCommand::Recover(first.file.clone()).into()));
            }
            if ui.button("Discard recovery").clicked() {
                choice = Some(Some(AppCommand::DiscardRecovery(first.file.clone()).into()));
            }
            if ui.button("Later").clicked() {
                choice = Some(None);
            }
        });
    });
    if let Some(command) = choice {
        found.remove(0);
        if let Some(command) = command {
            cx.send(command);
        }
    }
    !found.is_empty()
}

/// The editor's own file dialog (Open, Save as), the recent files under Open, and Browse… for
/// the desktop's chooser when there is one. Returns whether it stays open.
fn path_ui(
    cx: &ViewContext<'_>,
    ctx: &egui::Context,
    dialog: &mut FileDialog,
    then: &Option<Command>,
    browse: bool,
) -> bool {
    let title = match dialog.purpose {
        PickPurpose::Open => "Open a map or scenario",
        PickPurpose::Save if cx.doc.scenario.is_some() => "Save the scenario as",
        PickPurpose::Save => "Save the map as",
        PickPurpose::SaveElsewhere if cx.doc.scenario.is_some() => {
            "Save elsewhere: the scenario, with its map beside it"
        }
        PickPurpose::SaveElsewhere => "Save the map as",
        PickPurpose::SaveVariant => "Save the changes as a variant of this scenario",
        PickPurpose::NewVariant => "New variant of this scenario",
    };
    let mut outcome = FileOutcome::Open;
    crate::panels::widgets::steady_modal("path").show(ctx, |ui| {
        outcome = dialog.ui(ui, title);
        if browse
            && ui
                .button("Browse…")
                .on_hover_text("Choose with the desktop's file chooser")
                .clicked()
        {
            cx.send(AppCommand::Browse);
        }
        if let Some(recent) = (dialog.purpose == PickPurpose::Open)
            .then_some(&cx.settings.recent)
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
            cx.send(AppCommand::PathChosen {
                purpose: dialog.purpose,
                path,
                then: then.clone().map(Box::new),
            });
            false
        }
        FileOutcome::Cancel => false,
        FileOutcome::Open => true,
    }
}

/// The start of the path dialog's Browse…: what the user typed, as a path.
pub fn typed_path(dialog: &FileDialog) -> PathBuf {
    PathBuf::from(dialog.text.trim())
}
