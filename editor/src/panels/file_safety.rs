//! The file-safety dialogs (issue 26): Save As onto an existing file asks before replacing it;
//! a file changed on disk since the editor read it is named before a save overwrites it, with
//! Reload from disk, Overwrite, Save elsewhere… and Cancel (as Tiled and VS Code do).

use std::path::{Path, PathBuf};

use crate::context::command::FileCommand;
use crate::context::{AppCommand, Command, ViewContext};

/// A file-safety question.
#[derive(Debug, Clone, PartialEq)]
pub enum SafetyDialog {
    /// Save As chose a file that exists: replace it?
    Replace {
        path: PathBuf,
        then: Option<Box<Command>>,
    },
    /// The save to `path` would overwrite `files`, changed on disk since the editor read them.
    ChangedOnDisk {
        files: Vec<PathBuf>,
        path: PathBuf,
        then: Option<Box<Command>>,
        /// The file `path` exists and the user already agreed to replace it (Save As).
        replace: bool,
    },
}

fn name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Shows the dialog; returns whether it stays open.
pub fn ui(cx: &ViewContext<'_>, ctx: &egui::Context, dialog: &SafetyDialog) -> bool {
    let mut keep = true;
    egui::Modal::new(egui::Id::unique("file-safety")).show(ctx, |ui| {
        ui.set_max_width(520.0);
        match dialog {
            SafetyDialog::Replace { path, then } => {
                ui.heading(format!("Replace {}?", name(path)));
                ui.label(format!(
                    "{} already exists. Saving here replaces what it holds.",
                    path.display()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Replace").clicked() {
                        cx.send(AppCommand::File(FileCommand::SaveTo {
                            path: path.clone(),
                            then: then.clone(),
                            replace: true,
                            overwrite: false,
                        }));
                        keep = false;
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
            }
            SafetyDialog::ChangedOnDisk {
                files,
                path,
                then,
                replace,
            } => {
                ui.heading("Changed on disk");
                let list: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                ui.label(format!(
                    "{} changed on disk since the editor read {}: another editor or program \
                     wrote {}. Saving now would overwrite that work.",
                    list.join(" and "),
                    if files.len() > 1 { "them" } else { "it" },
                    if files.len() > 1 { "them" } else { "it" },
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button("Reload from disk")
                        .on_hover_text("Read the files again; the editor's changes are dropped")
                        .clicked()
                    {
                        cx.send(AppCommand::File(FileCommand::Reload));
                        keep = false;
                    }
                    if ui
                        .button("Overwrite")
                        .on_hover_text("Save the editor's version over the files on disk")
                        .clicked()
                    {
                        cx.send(AppCommand::File(FileCommand::SaveTo {
                            path: path.clone(),
                            then: then.clone(),
                            replace: *replace,
                            overwrite: true,
                        }));
                        keep = false;
                    }
                    if ui
                        .button("Save elsewhere…")
                        .on_hover_text(
                            "Keep both: save the editor's version under another name (a \
                             scenario's map goes beside it, the files on disk stay as they are)",
                        )
                        .clicked()
                    {
                        cx.send(AppCommand::File(FileCommand::SaveElsewhere {
                            then: then.clone(),
                        }));
                        keep = false;
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
            }
        }
    });
    keep
}

/// The modal shown while a big file is read off the UI thread: what and how long, and Cancel.
/// Returns whether Cancel was clicked.
pub fn opening_ui(ctx: &egui::Context, text: &str) -> bool {
    let mut cancel = false;
    egui::Modal::new(egui::Id::unique("opening")).show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(text);
        });
        ui.label("The file is large: it is read and checked in the background.");
        if ui.button("Cancel").clicked() {
            cancel = true;
        }
    });
    cancel
}
