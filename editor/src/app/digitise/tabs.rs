//! The Digitise panel's Terrain, Hexsides and Check tabs: samples, classification and review.

use super::*;

use std::sync::Arc;

use bataille_digitize::calibrate::Matrix;
use bataille_digitize::scan::Scan;
use bataille_schema::Grid;

use crate::services::jobs::progress_row;

impl EditorApp {
    /// A button starting a classification of the calibrated scan (off while one runs): the
    /// terrain tab's and the hexsides tab's, with their job's start function.
    fn classify_button(
        &mut self,
        ui: &mut Ui,
        ctx: &egui::Context,
        label: &str,
        running: bool,
        start: fn(&mut Suggest, &egui::Context, Arc<Scan>, &Grid, Matrix),
    ) {
        let ready = self.digitise.scan.is_some() && self.doc.map.background.is_some();
        if ui
            .add_enabled(ready && !running, egui::Button::new(label))
            .clicked()
            && let (Some(scan), Some(bg)) = (&self.digitise.scan, &self.doc.map.background)
        {
            let (scan, matrix) = (scan.scan.clone(), bg.grid_to_image);
            let grid = self.doc.map.grid.clone();
            start(&mut self.digitise.suggest, ctx, scan, &grid, matrix);
        }
    }

    pub(super) fn terrain_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
        let mut marking = self.digitise.mode == Mode::SampleTerrain;
        if ui
            .toggle_value(&mut marking, "✚ Mark samples")
            .on_hover_text("Click hexes to mark them as samples of the terrain chosen below")
            .clicked()
        {
            self.digitise.mode = if marking {
                Mode::SampleTerrain
            } else {
                Mode::Idle
            };
        }
        let counts = self.digitise.suggest.sample_counts();
        let mut picked = None;
        for (code, t) in &self.doc.map.terrain {
            let Some(c) = code.chars().next() else {
                continue;
            };
            let n = counts.get(&c).copied().unwrap_or(0);
            let text = RichText::new(format!("Sample {}: {n}", t.name))
                .color(crate::map::view::colour32(&t.colour, Color32::MAGENTA).gamma_multiply(1.0));
            if ui.selectable_label(self.tools.terrain == c, text).clicked() {
                picked = Some(c);
            }
        }
        if let Some(c) = picked {
            self.tools.terrain = c;
            self.digitise.mode = Mode::SampleTerrain;
        }
        ui.horizontal(|ui| {
            let running = self.digitise.suggest.terrain_job.is_some();
            self.classify_button(ui, ctx, "Classify hexes", running, Suggest::start_terrain);
            if !counts.is_empty() && ui.button("Clear samples").clicked() {
                self.digitise.suggest.samples.clear();
            }
        });
        progress_row(ui, self.digitise.suggest.terrain_job.as_ref());
        if let Some(e) = &self.digitise.suggest.error {
            ui.colored_label(Color32::from_rgb(200, 80, 40), e);
        }
        let Some(terrain) = &self.digitise.suggest.terrain else {
            return;
        };
        let total = terrain.hexes.len();
        let differ = self.digitise.suggest.accept_terrain(&self.doc, 0.0).len();
        let doubtful = self.digitise.suggest.doubtful(&self.doc).len();
        ui.label(format!(
            "{total} hexes classified: {differ} differ from the map, {doubtful} doubtful"
        ));
        self.overlay_choice(ui);
        ui.horizontal(|ui| {
            let label = ui.label("Confidence threshold");
            ui.add(egui::Slider::new(
                &mut self.digitise.suggest.threshold,
                0.0..=1.0,
            ))
            .labelled_by(label.id);
        });
        let above = self
            .digitise
            .suggest
            .accept_terrain(&self.doc, self.digitise.suggest.threshold);
        let mut accept = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(differ > 0, egui::Button::new("Accept all"))
                .clicked()
            {
                accept = Some(self.digitise.suggest.accept_terrain(&self.doc, 0.0));
            }
            if ui
                .add_enabled(
                    !above.is_empty(),
                    egui::Button::new(format!("Accept above threshold ({})", above.len())),
                )
                .clicked()
            {
                accept = Some(above.clone());
            }
        });
        if let Some(cells) = accept
            && !cells.is_empty()
        {
            self.edit("Accept terrain suggestions", vec![Change::Terrain(cells)]);
        }
        ui.separator();
        ui.strong("Review the doubtful hexes");
        let mut go = None;
        ui.horizontal(|ui| {
            if ui.button("◀ Previous doubtful").clicked() {
                go = self.digitise.suggest.step_review(&self.doc, false);
            }
            if ui.button("Next doubtful ▶").clicked() {
                go = self.digitise.suggest.step_review(&self.doc, true);
            }
        });
        if let Some(hex) = self.digitise.suggest.review {
            let name = self.doc.map.grid.name(hex);
            if let Some((code, confidence)) = self.digitise.suggest.suggestion(&self.doc, hex) {
                let now = self.doc.code(hex).unwrap_or('?');
                let terrain = |c: char| {
                    self.doc
                        .map
                        .terrain
                        .get(&c.to_string())
                        .map_or_else(|| format!("`{c}`"), |t| t.name.clone())
                };
                ui.label(format!(
                    "{name}: {} on the map, {} suggested ({:.0} %)",
                    terrain(now),
                    terrain(code),
                    confidence * 100.0
                ));
            }
            ui.horizontal(|ui| {
                if ui.button("Accept").clicked() {
                    if let Some(change) = self.digitise.suggest.accept_reviewed(&self.doc) {
                        self.edit("Accept terrain suggestion", vec![change]);
                    }
                    go = self.digitise.suggest.step_review(&self.doc, true);
                }
                if ui.button("Skip").clicked() {
                    self.digitise.suggest.skipped.insert(hex);
                    go = self.digitise.suggest.step_review(&self.doc, true);
                }
            });
        }
        if let Some(hex) = go {
            let name = self.doc.map.grid.name(hex);
            self.go_to_hex(ctx, &name);
            // Close enough to judge the hex against the scan.
            self.view.zoom = self.view.zoom.max(crate::map::view::ZOOM_100 * 2.0);
        }
    }

    pub(super) fn overlay_choice(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Show");
            let o = &mut self.digitise.suggest.overlay;
            ui.radio_value(o, Overlay::Tint, "Suggestions");
            ui.radio_value(o, Overlay::Confidence, "Confidence");
            ui.radio_value(o, Overlay::Off, "Nothing");
        });
    }

    pub(super) fn hexsides_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
        let mut marking = self.digitise.mode == Mode::SampleHexside;
        if ui
            .toggle_value(&mut marking, "✚ Mark hexsides")
            .on_hover_text("Click hexsides to mark them as samples of the feature chosen below")
            .clicked()
        {
            self.digitise.mode = if marking {
                Mode::SampleHexside
            } else {
                Mode::Idle
            };
        }
        let mut picked: Option<Option<Id>> = None;
        for (id, t) in &self.doc.map.hexside_types {
            let n = self
                .digitise
                .suggest
                .side_samples
                .values()
                .filter(|f| f.as_ref() == Some(id))
                .count();
            let selected = self.digitise.suggest.side_feature.as_ref() == Some(id);
            if ui
                .selectable_label(selected, format!("Sample {}: {n}", t.name))
                .clicked()
            {
                picked = Some(Some(id.clone()));
            }
        }
        let plain = self
            .digitise
            .suggest
            .side_samples
            .values()
            .filter(|f| f.is_none())
            .count();
        if ui
            .selectable_label(
                self.digitise.suggest.side_feature.is_none(),
                format!("Sample plain hexsides: {plain}"),
            )
            .clicked()
        {
            picked = Some(None);
        }
        if let Some(feature) = picked {
            self.digitise.suggest.side_feature = feature;
            self.digitise.mode = Mode::SampleHexside;
        }
        let running = self.digitise.suggest.hexside_job.is_some();
        self.classify_button(
            ui,
            ctx,
            "Find hexside features",
            running,
            Suggest::start_hexsides,
        );
        progress_row(ui, self.digitise.suggest.hexside_job.as_ref());
        if let Some(e) = &self.digitise.suggest.error {
            ui.colored_label(Color32::from_rgb(200, 80, 40), e);
        }
        if self.digitise.suggest.hexsides.is_none() {
            return;
        }
        self.overlay_choice(ui);
        ui.horizontal(|ui| {
            let label = ui.label("Confidence threshold");
            ui.add(egui::Slider::new(
                &mut self.digitise.suggest.threshold,
                0.0..=1.0,
            ))
            .labelled_by(label.id);
        });
        let above = self
            .digitise
            .suggest
            .accept_hexsides(&self.doc, self.digitise.suggest.threshold);
        let all = self.digitise.suggest.accept_hexsides(&self.doc, 0.0);
        ui.label(format!(
            "{} hexside features suggested that the map lacks, {} above the threshold",
            all.len(),
            above.len()
        ));
        let mut accept = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!all.is_empty(), egui::Button::new("Accept all hexsides"))
                .clicked()
            {
                accept = Some(all.clone());
            }
            if ui
                .add_enabled(
                    !above.is_empty(),
                    egui::Button::new(format!("Accept hexsides above threshold ({})", above.len())),
                )
                .clicked()
            {
                accept = Some(above.clone());
            }
        });
        if let Some(changes) = accept {
            self.edit("Accept hexside suggestions", changes);
        }
        self.hexside_review(ui, ctx);
    }

    /// The review queue of doubtful hexsides: previous/next (zooming to the hexside), accept
    /// the suggested feature, or skip.
    fn hexside_review(&mut self, ui: &mut Ui, ctx: &egui::Context) {
        ui.separator();
        let doubtful = self.digitise.suggest.doubtful_hexsides(&self.doc).len();
        ui.strong(format!("Review the doubtful hexsides ({doubtful})"));
        let mut go = None;
        ui.horizontal(|ui| {
            if ui.button("◀ Previous doubtful hexside").clicked() {
                go = self.digitise.suggest.step_side_review(&self.doc, false);
            }
            if ui.button("Next doubtful hexside ▶").clicked() {
                go = self.digitise.suggest.step_side_review(&self.doc, true);
            }
        });
        if let Some(hexside) = self.digitise.suggest.side_review {
            let grid = &self.doc.map.grid;
            let name = grid.hexside_ref(hexside.0, hexside.1);
            let feature_name = |f: &Option<bataille_schema::Id>| {
                f.as_ref().map_or_else(
                    || "plain".to_owned(),
                    |f| {
                        self.doc
                            .map
                            .hexside_types
                            .get(f)
                            .map_or_else(|| f.to_string(), |t| t.name.clone())
                    },
                )
            };
            if let Some((feature, confidence)) = self.digitise.suggest.side_suggestion(hexside) {
                let on_map: Vec<String> = self
                    .doc
                    .map
                    .hexsides
                    .iter()
                    .filter(|(_, list)| list.contains(&name))
                    .map(|(f, _)| feature_name(&Some(f.clone())))
                    .collect();
                let on_map = if on_map.is_empty() {
                    "plain".to_owned()
                } else {
                    on_map.join(", ")
                };
                ui.label(format!(
                    "{name}: {on_map} on the map, {} suggested ({:.0} %)",
                    feature_name(&feature),
                    confidence * 100.0
                ));
            }
            ui.horizontal(|ui| {
                if ui.button("Accept hexside").clicked() {
                    let changes = self.digitise.suggest.accept_side_reviewed(&self.doc);
                    if !changes.is_empty() {
                        self.edit("Accept hexside suggestion", changes);
                    }
                    go = self.digitise.suggest.step_side_review(&self.doc, true);
                }
                if ui.button("Skip hexside").clicked() {
                    self.digitise.suggest.side_skipped.insert(hexside);
                    go = self.digitise.suggest.step_side_review(&self.doc, true);
                }
            });
        }
        if let Some((hex, _)) = go {
            let name = self.doc.map.grid.name(hex);
            self.go_to_hex(ctx, &name);
            // Close enough to judge the hexside against the scan.
            self.view.zoom = self.view.zoom.max(crate::map::view::ZOOM_100 * 2.0);
        }
    }

    pub(super) fn check_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
        ui.checkbox(&mut self.digitise.flicker, "Flicker between map and scan");
        ui.horizontal(|ui| {
            let label = ui.label("Flicker period (ms)");
            ui.add(egui::Slider::new(&mut self.digitise.flicker_ms, 100..=2000))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("Blend (scan over map)");
            ui.add(egui::Slider::new(&mut self.digitise.opacity, 0.0..=1.0))
                .labelled_by(label.id);
        });
        ui.checkbox(&mut self.digitise.show_checked, "Show checked marks");
        let total = self.doc.map.grid.hex_count();
        let left = self.hexes_to_check();
        ui.label(format!(
            "{} of {total} hexes checked; {left} to check",
            total - left
        ));
        ui.weak("C marks (or unmarks) the hex under the pointer as checked.");
        if ui.button("Next hex to check").clicked() {
            let grid = &self.doc.map.grid;
            let start = self.tools.selection;
            let next = grid
                .indices()
                .filter(|h| start.is_none_or(|s| *h > s))
                .chain(grid.indices())
                .find(|h| self.doc.map.checked.binary_search(&grid.name(*h)).is_err());
            if let Some(hex) = next {
                let name = grid.name(hex);
                self.go_to_hex(ctx, &name);
            }
        }
    }
}
