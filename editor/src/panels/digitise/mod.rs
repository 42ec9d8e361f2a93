//! The digitise page of the right dock (it shares the dock with the order of battle and the
//! inspector, so the map keeps its width): the Scan, Calibrate, Terrain, Hexsides and Check
//! tabs, and the import dialog. [`DigitisePanel`] keeps the dialog's typed path; the session it
//! shows and sets (the scan, the tools, the click mode, the view options) is the app's
//! [`Digitise`], lent for the call. Document edits go out as `AppCommand`s.

mod calibrate;
mod suggest;

use egui::{Color32, Ui};

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::panels::file_dialog::{FileDialog, FileOutcome};
use crate::services::digitise::{Digitise, Mode, Tab};
use crate::services::files::PickPurpose;
use crate::services::jobs::progress_row;

/// The colour of a problem stated in the panel.
const PROBLEM: Color32 = Color32::from_rgb(200, 80, 40);

/// The digitise panel's own state: the import dialog while it is open.
#[derive(Debug, Default)]
pub struct DigitisePanel {
    /// The import dialog, while it is open (`UiCommand::ImportScan` opens it on the map's scan,
    /// or in the map's folder): the editor's file dialog, listing images.
    pub import_dialog: Option<Box<FileDialog>>,
}

/// The scans the import dialog lists (what `image` decodes for the digitiser).
const SCAN_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "tif", "tiff"];

impl DigitisePanel {
    /// Opens the import dialog at `start` (a scan, or a folder ending in `/`).
    pub fn open_import(&mut self, start: &str) {
        let start = (!start.is_empty()).then(|| std::path::Path::new(start));
        let mut dialog = FileDialog::new(PickPurpose::Open, start, "");
        dialog.extensions = SCAN_EXTENSIONS.to_vec();
        self.import_dialog = Some(Box::new(dialog));
    }

    /// The page: a heading with Close, the tabs, the import's progress and the tab's content.
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
        ui.horizontal(|ui| {
            ui.heading("Digitising");
            if ui
                .small_button("✖")
                .on_hover_text("Close digitising")
                .clicked()
            {
                ctx.send(AppCommand::SetDigitisePanel(false));
            }
        });
        ui.horizontal_wrapped(|ui| {
            for tab in Tab::ALL {
                if ui
                    .selectable_label(digitise.tab == tab, tab.name())
                    .clicked()
                    && digitise.tab != tab
                {
                    digitise.tab = tab;
                    digitise.mode = Mode::Idle;
                }
            }
        });
        ui.separator();
        progress_row(ui, digitise.import_job.as_ref());
        egui::ScrollArea::vertical()
            .id_salt("digitise-dock")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // The dock's width, not the table's: the map never shifts while clicking.
                ui.set_max_width(ui.available_width());
                match digitise.tab {
                    Tab::Scan => self.scan_tab(ctx, ui, digitise),
                    Tab::Calibrate => calibrate::calibrate_tab(ctx, ui, digitise),
                    Tab::Terrain => suggest::terrain_tab(ctx, ui, digitise),
                    Tab::Hexsides => suggest::hexsides_tab(ctx, ui, digitise),
                    Tab::Check => check_tab(ctx, ui, digitise),
                }
            });
    }

    /// The import dialog, while it is open: Import sends `AppCommand::ImportScanFrom`.
    pub fn import_dialog_ui(&mut self, ctx: &ViewContext<'_>, egui_ctx: &egui::Context) {
        let Some(mut dialog) = self.import_dialog.take() else {
            return;
        };
        let mut outcome = FileOutcome::Open;
        crate::panels::widgets::steady_modal("import-scan").show(egui_ctx, |ui| {
            outcome = dialog.ui(ui, "Import a scan");
            ui.weak("A PNG, JPEG or TIFF of the printed map, at most 12,000 × 12,000 pixels.");
        });
        match outcome {
            FileOutcome::Chosen(path) => ctx.send(AppCommand::ImportScanFrom(path)),
            FileOutcome::Cancel => {}
            FileOutcome::Open => self.import_dialog = Some(dialog),
        }
    }

    fn scan_tab(&self, ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
        if ui.button("Import a scan…").clicked() {
            ctx.send(UiCommand::ImportScan);
        }
        match (&digitise.scan, &ctx.doc.map.background) {
            (Some(scan), Some(bg)) => {
                let tiles = match scan.tiles.len() {
                    1 => "one texture".to_owned(),
                    n => format!("{n} tiles of at most {} px", scan.tile_side),
                };
                ui.label(format!(
                    "{} — {} × {} px in {tiles}",
                    bg.image,
                    scan.width(),
                    scan.height(),
                ));
                ui.weak(format!(
                    "Decoded in {:.2} s, textures in {:.2} s",
                    scan.timings.decode.as_secs_f32(),
                    scan.timings.textures.as_secs_f32()
                ));
                if let Some(note) = scan.profile_note() {
                    ui.colored_label(PROBLEM, note);
                }
            }
            (None, Some(bg)) if digitise.import_job.is_none() => {
                ui.colored_label(PROBLEM, format!("The scan {} is not loaded.", bg.image));
            }
            (_, None) => {
                ui.weak("No scan: import one to trace the map over it.");
            }
            _ => {}
        }
        ui.checkbox(&mut digitise.show_scan, "Show the scan");
        opacity_slider(ui, digitise, "Scan opacity")
            .on_hover_text("0: the painted map only; 1: the scan over the terrain");
        remove_scan_button(ctx, ui);
    }
}

/// "Remove the scan" (the Scan tab's and the Digitise menu's): one undo step.
pub fn remove_scan_button(ctx: &ViewContext<'_>, ui: &mut Ui) {
    let has_scan = ctx.doc.map.background.is_some();
    if ui
        .add_enabled(has_scan, egui::Button::new("Remove the scan"))
        .clicked()
    {
        ctx.send(AppCommand::SetBackground {
            label: "Remove scan".into(),
            after: None,
        });
    }
}

/// The scan's opacity over the map, labelled.
fn opacity_slider(ui: &mut Ui, digitise: &mut Digitise, label: &str) -> egui::Response {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        ui.add(egui::Slider::new(&mut digitise.opacity, 0.0..=1.0))
            .labelled_by(label.id)
    })
    .inner
}

fn check_tab(ctx: &ViewContext<'_>, ui: &mut Ui, digitise: &mut Digitise) {
    ui.checkbox(&mut digitise.flicker, "Flicker between map and scan");
    ui.horizontal(|ui| {
        let label = ui.label("Flicker period (ms)");
        ui.add(egui::Slider::new(&mut digitise.flicker_ms, 100..=2000))
            .labelled_by(label.id);
    });
    opacity_slider(ui, digitise, "Blend (scan over map)");
    ui.checkbox(&mut digitise.show_checked, "Show checked marks");
    let grid = &ctx.doc.map.grid;
    let total = grid.hex_count();
    let left = ctx.doc.hexes_to_check();
    ui.label(format!(
        "{} of {total} hexes checked; {left} to check",
        total - left
    ));
    ui.weak("C marks (or unmarks) the hex under the pointer as checked.");
    if ui.button("Next hex to check").clicked() {
        let start = ctx.selection.hex;
        let checked = &ctx.doc.map.checked;
        let next = grid
            .indices()
            .filter(|h| start.is_none_or(|s| *h > s))
            .chain(grid.indices())
            .find(|h| checked.binary_search(&grid.name(*h)).is_err());
        if let Some(hex) = next {
            ctx.send(AppCommand::GoToHex {
                hex: grid.name(hex),
                close: false,
            });
        }
    }
}
