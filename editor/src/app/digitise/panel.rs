//! The digitise status line and the panel with its Scan and Calibrate tabs (the Digitise menu
//! is in `panels::menu_bar`).

use super::*;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Menu, panel, status.

    /// What the status bar says about digitising: a scan loading, the hexes to check.
    pub(crate) fn digitise_status(&self) -> crate::panels::status_bar::DigitiseStatus {
        let digitising = self.doc.map.background.is_some() || !self.doc.map.checked.is_empty();
        crate::panels::status_bar::DigitiseStatus {
            loading: self.digitise.import_job.as_ref().map(|job| job.progress()),
            to_check: digitising.then(|| (self.doc.map.grid.hex_count(), self.hexes_to_check())),
        }
    }

    /// The digitise panel (right side), when open.
    /// The digitising page of the right dock (it shares the dock with the order of battle
    /// and the inspector, so the map keeps its width).
    pub(crate) fn digitise_dock(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        ui.horizontal(|ui| {
            ui.heading("Digitising");
            if ui
                .small_button("✖")
                .on_hover_text("Close digitising")
                .clicked()
            {
                self.digitise.open = false;
                self.digitise.mode = Mode::Idle;
                self.oob.tab = crate::panels::oob::DockTab::Inspector;
            }
        });
        ui.horizontal_wrapped(|ui| {
            for tab in Tab::ALL {
                if ui
                    .selectable_label(self.digitise.tab == tab, tab.name())
                    .clicked()
                    && self.digitise.tab != tab
                {
                    self.digitise.tab = tab;
                    self.digitise.mode = Mode::Idle;
                }
            }
        });
        ui.separator();
        crate::services::jobs::progress_row(ui, self.digitise.import_job.as_ref());
        egui::ScrollArea::vertical()
            .id_salt("digitise-dock")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // The dock's width, not the table's: the map never shifts while clicking.
                ui.set_max_width(ui.available_width());
                match self.digitise.tab {
                    Tab::Scan => self.scan_tab(ui),
                    Tab::Calibrate => self.calibrate_tab(ui),
                    Tab::Terrain => self.terrain_tab(ui, &ctx),
                    Tab::Hexsides => self.hexsides_tab(ui, &ctx),
                    Tab::Check => self.check_tab(ui, &ctx),
                }
            });
    }

    pub(super) fn scan_tab(&mut self, ui: &mut Ui) {
        if ui.button("Import a scan…").clicked() {
            self.open_import_dialog();
        }
        match (&self.digitise.scan, &self.doc.map.background) {
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
            }
            (None, Some(bg)) if self.digitise.import_job.is_none() => {
                ui.colored_label(
                    Color32::from_rgb(200, 80, 40),
                    format!("The scan {} is not loaded.", bg.image),
                );
            }
            (_, None) => {
                ui.weak("No scan: import one to trace the map over it.");
            }
            _ => {}
        }
        ui.checkbox(&mut self.digitise.show_scan, "Show the scan");
        ui.horizontal(|ui| {
            let label = ui.label("Scan opacity");
            ui.add(egui::Slider::new(&mut self.digitise.opacity, 0.0..=1.0))
                .labelled_by(label.id)
                .on_hover_text("0: the painted map only; 1: the scan over the terrain");
        });
        if ui
            .add_enabled(
                self.doc.map.background.is_some(),
                egui::Button::new("Remove the scan"),
            )
            .clicked()
        {
            self.set_background("Remove scan", None);
        }
    }

    pub(super) fn calibrate_tab(&mut self, ui: &mut Ui) {
        let Some(current) = self.doc.map.background.clone() else {
            ui.weak("Import a scan first.");
            return;
        };
        let grid = self.doc.map.grid.clone();
        let mut changed = false;
        let mut adding = self.digitise.mode == Mode::Calibrate
            && self.digitise.calibration.target == ClickTarget::AddPoint;
        if ui
            .toggle_value(&mut adding, "✚ Click hex centres")
            .on_hover_text("Click the centre of a hex on the scan, then type its name")
            .clicked()
        {
            self.digitise.mode = if adding { Mode::Calibrate } else { Mode::Idle };
            self.digitise.calibration.target = ClickTarget::AddPoint;
        }
        ui.label("Fit");
        for kind in [FitKind::Similarity, FitKind::Affine, FitKind::Projective] {
            if ui
                .radio_value(&mut self.digitise.calibration.kind, kind, kind_name(kind))
                .changed()
            {
                changed = true;
            }
        }
        let mut dropped = None;
        egui::Grid::new("control-points")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                ui.strong("#");
                ui.strong("Hex");
                ui.strong("Pixel");
                ui.strong("Residual");
                ui.label("");
                ui.end_row();
                let count = self.digitise.calibration.points.len();
                for i in 0..count {
                    let problem = self.digitise.calibration.name_problem(&grid, i);
                    let residual = self.digitise.calibration.residual(i);
                    let Some(row) = self.digitise.calibration.points.get_mut(i) else {
                        continue;
                    };
                    ui.label(format!("{}", i + 1));
                    let hint = row.guess.as_ref().map_or("hex".into(), |g| g.to_string());
                    let edit = ui.add_sized(
                        [64.0, ui.spacing().interact_size.y],
                        egui::TextEdit::singleline(&mut row.hex)
                            .hint_text(hint)
                            .font(egui::TextStyle::Monospace),
                    );
                    let edit = edit.on_hover_text(problem.clone().unwrap_or_default());
                    edit.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::Role::TextInput,
                            true,
                            format!("Hex of point {}", i + 1),
                        )
                    });
                    if edit.changed() {
                        changed = true;
                    }
                    ui.label(format!("{:.1}, {:.1}", row.x, row.y));
                    match (residual, problem) {
                        (_, Some(_)) => {
                            ui.colored_label(Color32::from_rgb(220, 60, 40), "not a hex");
                        }
                        (Some(r), None) => {
                            let colour = if r > 5.0 {
                                Color32::from_rgb(220, 60, 40)
                            } else {
                                ui.visuals().text_color()
                            };
                            ui.colored_label(colour, format!("{r:.2} px"));
                        }
                        (None, None) => {
                            ui.weak("—");
                        }
                    }
                    if ui
                        .button("Drop")
                        .on_hover_text("Drop this point and refit")
                        .clicked()
                    {
                        dropped = Some(i);
                    }
                    ui.end_row();
                }
            });
        let mut next = None;
        if let Some(i) = dropped {
            next = self.digitise.calibration.drop_point(&grid, &current, i);
        } else if changed {
            next = self.digitise.calibration.refit(&grid, &current);
        }
        match &self.digitise.calibration.fit {
            Some(Ok(fit)) => {
                ui.label(format!(
                    "RMS {:.2} px over {} points",
                    fit.rms_px,
                    fit.residuals_px.len()
                ));
            }
            Some(Err(e)) => {
                ui.colored_label(Color32::from_rgb(200, 80, 40), e);
            }
            None => {
                ui.weak("Click at least three hex centres spread over the map and name them.");
            }
        }
        ui.separator();
        ui.strong("No printed hex numbers?");
        let first = grid.name(HexIndex::new(0, 0));
        let below = grid.name(HexIndex::new(0, 1.min(grid.rows.saturating_sub(1))));
        let waiting = match (self.digitise.mode, self.digitise.calibration.target) {
            (Mode::Calibrate, ClickTarget::FirstCentre) => {
                Some(format!("Click the centre of the first hex ({first})."))
            }
            (Mode::Calibrate, ClickTarget::Neighbour) => Some(format!(
                "Click the centre of the hex below it ({below}), or type the hex width."
            )),
            _ => None,
        };
        if ui
            .button("Click the first hex's centre")
            .on_hover_text("Then the centre of the hex below it: the grid is placed from the two")
            .clicked()
        {
            self.digitise.mode = Mode::Calibrate;
            self.digitise.calibration.target = ClickTarget::FirstCentre;
        }
        if let Some(text) = waiting {
            ui.label(RichText::new(text).color(Color32::from_rgb(230, 150, 40)));
        }
        ui.horizontal(|ui| {
            let label = ui.label("Hex width (px)");
            ui.add(
                egui::TextEdit::singleline(&mut self.digitise.calibration.hex_size_text)
                    .desired_width(60.0),
            )
            .labelled_by(label.id)
            .on_hover_text("The distance between the centres of two neighbouring hexes");
            if ui.button("Place grid").clicked() {
                match self.digitise.calibration.from_hex_size(&grid, &current) {
                    Ok(bg) => {
                        next = Some(bg);
                        self.digitise.mode = Mode::Idle;
                    }
                    Err(e) => self.digitise.calibration.fit = Some(Err(e)),
                }
            }
        });
        if let Some(bg) = next {
            self.set_background("Calibrate", Some(bg));
        }
    }
}
