//! The export dialog (File ▸ Export ▸ VASSAL module / Tiled map / Print-and-play kit): the
//! options of `bataille export --vassal`, `--tiled` and `bataille print`, and the destination,
//! chosen with the editor's own file dialog. Export sends `AppCommand::StartExport`; the app runs
//! the job.

use std::path::{Path, PathBuf};

use egui::Ui;

use crate::context::{AppCommand, ViewContext};
use crate::panels::file_dialog::{FileDialog, FileOutcome};
use crate::services::export::{ExportKind, ExportOptions, ExportRequest, PAPERS};
use crate::services::files::PickPurpose;

/// The dialog's state.
#[derive(Debug, Clone)]
pub struct ExportForm {
    pub kind: ExportKind,
    pub options: ExportOptions,
    /// The destination, as typed or chosen.
    pub out: String,
    /// `--hex` and `--counter` as typed (`16mm`, `5/8in`).
    pub hex: String,
    pub counter: String,
    /// Whether a scenario is open (the units can go in; VASSAL and print need one).
    pub has_scenario: bool,
    /// The file dialog, while choosing the destination.
    pub browse: Option<Box<FileDialog>>,
}

impl ExportForm {
    /// A form for `kind` with the command line's defaults, the destination beside `document`
    /// (or in the current folder) named after `stem`.
    pub fn new(
        kind: ExportKind,
        document: Option<&Path>,
        stem: &str,
        has_scenario: bool,
    ) -> ExportForm {
        let dir = document
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_owned);
        let name = match kind {
            ExportKind::Print => format!("{stem}-kit.pdf"),
            _ => format!("{stem}.{}", kind.extension()),
        };
        let out = bataille_schema::paths::absolute(&dir.join(name));
        ExportForm {
            kind,
            options: ExportOptions::default_for(kind),
            out: out.display().to_string(),
            hex: "16mm".to_owned(),
            counter: "1/2in".to_owned(),
            has_scenario,
            browse: None,
        }
    }

    /// The destination moved to `folder`, its file name kept.
    pub fn start_in(&mut self, folder: &Path) {
        if let Some(name) = Path::new(self.out.trim()).file_name() {
            self.out = folder.join(name).display().to_string();
        }
    }

    /// A folder of the destination that does not exist yet (the export creates it).
    pub fn missing_folder(&self) -> Option<PathBuf> {
        let path = PathBuf::from(self.out.trim());
        path.parent()
            .filter(|p| !p.as_os_str().is_empty() && !p.is_dir())
            .map(Path::to_owned)
    }

    /// What is wrong with the form, in words (the Export button waits for none).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.kind.needs_scenario() && !self.has_scenario {
            out.push(format!(
                "A {} is made of a scenario's counters: open a scenario (File › Open) first.",
                self.kind.title()
            ));
        }
        let path = PathBuf::from(self.out.trim());
        // A folder that does not exist is made by the export, as Choose… offers (issue 21:
        // VASSAL refused one).
        if self.out.trim().is_empty() || self.out.trim().ends_with('/') || path.is_dir() {
            out.push("Choose the file to write.".to_owned());
        }
        if matches!(self.options, ExportOptions::Print(_)) {
            for (what, text) in [("Hex size", &self.hex), ("Counter size", &self.counter)] {
                if let Err(e) = bataille_export::print::parse_length(text) {
                    out.push(format!("{what}: {e}"));
                }
            }
        }
        out
    }

    /// The request, when the form holds no problem.
    pub fn request(&self) -> Option<ExportRequest> {
        if !self.problems().is_empty() {
            return None;
        }
        let mut options = self.options.clone();
        if let ExportOptions::Print(print) = &mut options {
            print.hex_mm = bataille_export::print::parse_length(&self.hex).ok()?;
            print.counter_mm = bataille_export::print::parse_length(&self.counter).ok()?;
        }
        let mut out = PathBuf::from(self.out.trim());
        if out.extension().is_none() {
            out.set_extension(self.kind.extension());
        }
        Some(ExportRequest {
            kind: self.kind,
            options,
            out,
        })
    }

    /// The dialog's body; Export sends the job to start. Returns whether it stays open.
    pub fn ui(&mut self, cx: &ViewContext<'_>, ui: &mut Ui) -> bool {
        if let Some(browse) = &mut self.browse {
            match browse.ui(ui, &format!("Export the {} to", self.kind.title())) {
                FileOutcome::Open => {}
                FileOutcome::Cancel => self.browse = None,
                FileOutcome::Chosen(path) => {
                    self.out = path.display().to_string();
                    self.browse = None;
                }
            }
            return true;
        }
        let mut open = true;
        ui.set_min_width(520.0);
        ui.heading(format!("Export: {}", self.kind.title()));
        ui.weak(
            "Exports the battle as it is in the editor, unsaved changes included (the files \
             on disk are not read).",
        );
        ui.weak(format!("The same as: {}", self.kind.command_line()));
        ui.separator();
        let has_scenario = self.has_scenario;
        match &mut self.options {
            ExportOptions::Vassal {
                px_per_hex,
                version,
            } => {
                ui.horizontal(|ui| {
                    let l = ui.label("Pixels per hex");
                    ui.add(egui::DragValue::new(px_per_hex).range(16..=256))
                        .labelled_by(l.id)
                        .on_hover_text(
                            "Distance between neighbouring hex centres on the board (even)",
                        );
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Module version");
                    ui.text_edit_singleline(version).labelled_by(l.id);
                });
            }
            ExportOptions::Tiled { units } => {
                ui.add_enabled_ui(has_scenario, |ui| {
                    ui.checkbox(units, "The scenario's units in an object layer");
                });
            }
            ExportOptions::Print(print) => {
                ui.horizontal(|ui| {
                    let l = ui.label("Paper");
                    let current = PAPERS
                        .iter()
                        .find(|(p, _)| *p == print.paper)
                        .map_or("A4", |(_, n)| n);
                    egui::ComboBox::from_id_salt("export-paper")
                        .selected_text(current)
                        .show_ui(ui, |ui| {
                            for (paper, name) in PAPERS {
                                ui.selectable_value(&mut print.paper, paper, name);
                            }
                        })
                        .response
                        .labelled_by(l.id);
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Hex size");
                    ui.add(egui::TextEdit::singleline(&mut self.hex).hint_text("16mm, 5/8in"))
                        .labelled_by(l.id)
                        .on_hover_text("Distance between neighbouring hex centres on paper");
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Counter size");
                    ui.add(egui::TextEdit::singleline(&mut self.counter).hint_text("1/2in, 15mm"))
                        .labelled_by(l.id)
                        .on_hover_text("The side of a counter");
                });
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            let l = ui.label("Destination");
            ui.add(egui::TextEdit::singleline(&mut self.out).desired_width(360.0))
                .labelled_by(l.id);
            if ui.button("Choose…").clicked() {
                let start = PathBuf::from(self.out.trim());
                let mut dialog = FileDialog::new(PickPurpose::Save, Some(&start), &self.out);
                dialog.extensions = vec![self.kind.extension()];
                dialog.default_extension = self.kind.extension();
                self.browse = Some(Box::new(dialog));
            }
        });
        if Path::new(self.out.trim()).is_file() {
            ui.colored_label(
                egui::Color32::from_rgb(220, 160, 40),
                "This file exists and will be replaced.",
            );
        }
        if let Some(folder) = self.missing_folder() {
            ui.colored_label(
                egui::Color32::from_rgb(220, 160, 40),
                format!("The folder {} will be created.", folder.display()),
            );
        }
        let problems = self.problems();
        for problem in &problems {
            ui.colored_label(egui::Color32::from_rgb(230, 80, 70), problem);
        }
        ui.horizontal(|ui| {
            let export = ui.add_enabled(problems.is_empty(), egui::Button::new("Export"));
            if export.clicked()
                && let Some(request) = self.request()
            {
                cx.send(AppCommand::StartExport(Box::new(request)));
                open = false;
            }
            if ui.button("Cancel").clicked() {
                open = false;
            }
        });
        open
    }
}

/// The running export's corner (bottom right, over the map): a spinner, `text` and Cancel;
/// returns whether Cancel was clicked.
pub fn progress_corner(ctx: &egui::Context, text: &str) -> bool {
    let mut cancel = false;
    egui::Area::new(egui::Id::unique("export-progress"))
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -96.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.add(egui::Spinner::new());
                    ui.label(text);
                    cancel = ui
                        .button("Cancel")
                        .on_hover_text("Stop before anything is written")
                        .clicked();
                });
            });
        });
    cancel
}
