//! Digitising a printed map in the editor: the Digitise menu and panel (scan, calibrate,
//! terrain, hexsides, check), the scan drawn between the terrain and the grid lines, map clicks
//! while calibrating or marking samples, the flicker/blend check, the per-hex "checked" mark
//! (key C) and the count of hexes still to check. Document edits go through
//! `EditorApp::edit` (a `Command::Edit`) as `Change::Digitise`, so each is one undo step.

mod panel;
mod tabs;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bataille_digitize::scan::ScanError;
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{HexIndex, Id};
use egui::{Color32, Key, Modifiers, RichText, Stroke, Ui, pos2};

use crate::app::{Dialog, EditorApp};
use crate::map::scan::{
    LoadedScan, image_point, image_reference, import_scan, new_background, paint_scan,
    resolve_image, screen_point, tile_side,
};
use crate::model::document::nearest_side;
use crate::model::history::Change;
use crate::services::calibration::{Calibration, ClickTarget, kind_name};
use crate::services::jobs::{Job, JobEnd};
use crate::services::suggest::{Overlay, Suggest};
use crate::tools::HEXSIDE_REACH;

pub use crate::model::digitise_change::DigitiseChange;

/// The tabs of the digitise panel (named in the command table: the menu opens them).
pub use crate::context::command::DigitiseTab as Tab;

/// What a primary click on the map does while digitising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The map tools have the clicks.
    Idle,
    /// Clicks add calibration points.
    Calibrate,
    /// Clicks mark sample hexes of the palette's terrain.
    SampleTerrain,
    /// Clicks mark sample hexsides.
    SampleHexside,
}

type ImportJob = Job<Result<LoadedScan, ScanError>>;

/// The digitising state of the editor.
pub struct Digitise {
    /// The panel is shown.
    pub open: bool,
    pub tab: Tab,
    pub mode: Mode,
    /// The scan in memory and on the GPU.
    pub scan: Option<LoadedScan>,
    /// The map's `background.image` and map file the loaded scan answers to.
    loaded_for: Option<(String, Option<PathBuf>)>,
    pub import_job: Option<ImportJob>,
    /// The job imports a new scan (sets the background) rather than reopening the map's.
    import_is_new: bool,
    /// A map's scan that could not be loaded (not retried until the map changes).
    failed: Option<PathBuf>,
    /// The typed path of the import dialog, while it is open.
    pub import_dialog: Option<String>,
    /// The scan's opacity over the terrain (1: only the scan; 0: only the painted map).
    pub opacity: f32,
    pub show_scan: bool,
    pub calibration: Calibration,
    pub suggest: Suggest,
    /// Alternate scan and map every `flicker_ms`.
    pub flicker: bool,
    pub flicker_ms: u32,
    /// Mark checked hexes on the map.
    pub show_checked: bool,
    /// The page was in the right dock last frame.
    shown_in_dock: bool,
}

impl Default for Digitise {
    fn default() -> Self {
        Self {
            open: false,
            tab: Tab::Scan,
            mode: Mode::Idle,
            scan: None,
            loaded_for: None,
            import_job: None,
            import_is_new: false,
            failed: None,
            import_dialog: None,
            opacity: 0.6,
            show_scan: true,
            calibration: Calibration::default(),
            suggest: Suggest::default(),
            flicker: false,
            flicker_ms: 500,
            show_checked: true,
            shown_in_dock: false,
        }
    }
}

impl Digitise {
    /// Opens the panel on a tab (menu items).
    pub fn open_on(&mut self, tab: Tab) {
        self.open = true;
        if self.tab != tab {
            self.mode = Mode::Idle;
        }
        self.tab = tab;
    }

    /// Whether the scan is shown this frame, and its opacity (the flicker alternates).
    fn effective_opacity(&self, time: f64) -> f32 {
        if !self.show_scan {
            return 0.0;
        }
        if self.flicker {
            let phase = (time * 1000.0 / f64::from(self.flicker_ms.max(50))) as u64 % 2;
            return if phase == 0 { 1.0 } else { 0.0 };
        }
        self.opacity
    }
}

impl EditorApp {
    /// Per frame, before the panels: collects finished jobs, reloads the map's scan when it
    /// changed, keeps the tools in step with the document, the C key, the import dialog.
    pub(crate) fn digitise_frame(&mut self, ctx: &egui::Context) {
        if self.digitise.open && !self.digitise.shown_in_dock {
            // Opened from the menu: its page comes up in the right dock.
            self.oob.tab = crate::panels::oob::DockTab::Digitise;
            self.settings.show_right_dock = true;
        }
        self.digitise.shown_in_dock = self.digitise.open;
        self.poll_import();
        self.follow_background(ctx);
        let grid = self.doc.map.grid.clone();
        self.digitise
            .calibration
            .sync(&grid, self.doc.map.background.as_ref());
        self.digitise.suggest.sync(&grid);
        self.digitise.suggest.poll();
        if self.dialog.is_none()
            && !ctx.text_edit_focused()
            && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::C))
            && let Some(hex) = self.hovered.or(self.tools.selection)
        {
            self.toggle_checked(hex);
        }
        if self.digitise.import_job.is_some() || self.digitise.suggest.busy() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if self.digitise.flicker && self.digitise.show_scan && self.digitise.scan.is_some() {
            ctx.request_repaint_after(Duration::from_millis(u64::from(
                self.digitise.flicker_ms.max(50),
            )));
        }
        self.import_dialog_ui(ctx);
    }

    fn poll_import(&mut self) {
        let Some(end) = self.digitise.import_job.as_mut().and_then(Job::poll) else {
            return;
        };
        self.digitise.import_job = None;
        let error = match end {
            JobEnd::Done(Ok(loaded)) => {
                if self.digitise.import_is_new {
                    let image = image_reference(&loaded.path);
                    let before = self.doc.map.background.clone();
                    let after = match &before {
                        Some(b) => Background { image, ..b.clone() },
                        None => new_background(
                            &self.doc.map.grid,
                            image,
                            loaded.width(),
                            loaded.height(),
                        ),
                    };
                    self.edit(
                        "Import scan",
                        vec![Change::Digitise(DigitiseChange::Background {
                            before: before.map(Box::new),
                            after: Some(Box::new(after)),
                        })],
                    );
                    self.view.fit_pending = true;
                }
                self.digitise.loaded_for = self
                    .doc
                    .map
                    .background
                    .as_ref()
                    .map(|b| (b.image.clone(), self.doc.map_path.clone()));
                self.digitise.failed = None;
                self.digitise.scan = Some(loaded);
                None
            }
            JobEnd::Done(Err(ScanError::Cancelled)) => None,
            JobEnd::Done(Err(error)) => Some(error.to_string()),
            JobEnd::Failed(error) => Some(error),
        };
        if let Some(message) = error {
            if !self.digitise.import_is_new {
                self.digitise.failed = self
                    .doc
                    .map
                    .background
                    .as_ref()
                    .map(|b| resolve_image(&b.image, self.doc.map_path.as_deref()));
            }
            self.dialog = Some(Dialog::Error {
                title: "Could not import the scan".into(),
                message,
                hint: "Use a PNG, JPEG or TIFF scan of at most 12,000 × 12,000 pixels (scan \
                       at a lower resolution or crop it), then Digitise › Import scan again."
                    .into(),
            });
        }
    }

    /// Loads the map's scan when the map names one that is not loaded; drops the scan when
    /// the map has none.
    fn follow_background(&mut self, ctx: &egui::Context) {
        if self.digitise.import_job.is_some() {
            return;
        }
        let Some(background) = &self.doc.map.background else {
            self.digitise.scan = None;
            self.digitise.loaded_for = None;
            return;
        };
        let key = (background.image.clone(), self.doc.map_path.clone());
        if self.digitise.loaded_for.as_ref() == Some(&key) {
            return;
        }
        let wanted = resolve_image(&background.image, self.doc.map_path.as_deref());
        let same_file = self.digitise.scan.as_ref().is_some_and(|s| {
            s.path == wanted
                || matches!(
                    (std::fs::canonicalize(&s.path), std::fs::canonicalize(&wanted)),
                    (Ok(a), Ok(b)) if a == b
                )
        });
        if same_file {
            self.digitise.loaded_for = Some(key);
            return;
        }
        if self.digitise.failed.as_ref() == Some(&wanted) {
            return;
        }
        self.start_import(ctx, wanted, false);
    }

    /// Starts decoding a scan in the background.
    pub fn start_import(&mut self, ctx: &egui::Context, path: PathBuf, is_new: bool) {
        if let Some(job) = &self.digitise.import_job {
            job.cancel();
        }
        let side = tile_side(ctx);
        let job_ctx = ctx.clone();
        self.digitise.import_is_new = is_new;
        self.digitise.import_job = Some(Job::spawn("Importing the scan", ctx, move |progress| {
            import_scan(&job_ctx, &path, side, progress)
        }));
        if is_new {
            self.digitise.open = true;
            self.digitise.tab = Tab::Scan;
        }
    }

    fn import_dialog_ui(&mut self, ctx: &egui::Context) {
        let Some(mut text) = self.digitise.import_dialog.take() else {
            return;
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("import-scan")).show(ctx, |ui| {
            ui.set_min_width(480.0);
            ui.heading("Import a scan");
            ui.label("A PNG, JPEG or TIFF of the printed map, at most 12,000 × 12,000 pixels.");
            ui.horizontal(|ui| {
                let label = ui.label("Scan file");
                let edit = ui
                    .add(egui::TextEdit::singleline(&mut text).desired_width(360.0))
                    .labelled_by(label.id);
                if edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                    choice = Some(true);
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Import").clicked() {
                    choice = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    choice = Some(false);
                }
            });
        });
        match choice {
            Some(true) if !text.trim().is_empty() => {
                self.start_import(ctx, PathBuf::from(text.trim()), true);
            }
            Some(_) => {}
            None => self.digitise.import_dialog = Some(text),
        }
    }

    /// Opens the import dialog.
    pub fn open_import_dialog(&mut self) {
        let start = self
            .doc
            .map
            .background
            .as_ref()
            .map(|b| {
                resolve_image(&b.image, self.doc.map_path.as_deref())
                    .display()
                    .to_string()
            })
            .or_else(|| {
                self.doc
                    .map_path
                    .as_deref()
                    .and_then(Path::parent)
                    .map(|d| format!("{}/", d.display()))
            })
            .unwrap_or_default();
        self.digitise.import_dialog = Some(start);
    }

    /// Toggles the "checked" mark of a hex (one undo step).
    pub fn toggle_checked(&mut self, hex: HexIndex) {
        let name = self.doc.map.grid.name(hex);
        let checked = self.doc.map.checked.binary_search(&name).is_err();
        self.edit(
            if checked {
                "Mark checked"
            } else {
                "Unmark checked"
            },
            vec![Change::Digitise(DigitiseChange::Checked {
                hexes: vec![name],
                checked,
            })],
        );
    }

    /// Hexes still to check (not marked; the list is sorted and free of duplicates, and the
    /// validator reports names off the map).
    pub fn hexes_to_check(&self) -> usize {
        self.doc
            .map
            .grid
            .hex_count()
            .saturating_sub(self.doc.map.checked.len())
    }

    fn set_background(&mut self, label: &str, after: Option<Background>) {
        let before = self.doc.map.background.clone();
        if before == after {
            return;
        }
        self.edit(
            label,
            vec![Change::Digitise(DigitiseChange::Background {
                before: before.map(Box::new),
                after: after.map(Box::new),
            })],
        );
    }

    // -----------------------------------------------------------------------------------------
    // The map.

    /// Draws the map with the scan between the terrain and the grid lines, then the
    /// digitising marks (calibration points, samples, suggestions, checked hexes).
    pub(crate) fn paint_map_with_scan(&mut self, painter: &egui::Painter, rect: egui::Rect) {
        let time = painter.ctx().input(|i| i.time);
        let opacity = self.digitise.effective_opacity(time);
        let scan_on_top = self.digitise.flicker && opacity > 0.0;
        let layers = self.view.layers;
        if scan_on_top {
            // The flicker's scan phase shows the scan's own rivers and symbols.
            self.view.layers.hexsides = false;
            self.view.layers.overlays = false;
            self.view.layers.labels = false;
        }
        let scan = self.digitise.scan.as_ref();
        let background = self.doc.map.background.as_ref();
        self.view
            .paint_with(painter, rect, &self.doc, |painter, view| {
                if let (Some(loaded), Some(bg)) = (scan, background) {
                    paint_scan(painter, view, rect, loaded, &bg.grid_to_image, opacity);
                }
            });
        self.view.layers = layers;
        if !self.digitise.open {
            return;
        }
        match self.digitise.tab {
            Tab::Calibrate => self.paint_calibration(painter, rect),
            Tab::Terrain | Tab::Hexsides => {
                self.digitise
                    .suggest
                    .paint(painter, &self.view, rect, &self.doc);
            }
            Tab::Check | Tab::Scan => {}
        }
        if self.digitise.show_checked && self.digitise.tab == Tab::Check {
            self.paint_checked(painter, rect);
        }
    }

    fn paint_calibration(&self, painter: &egui::Painter, rect: egui::Rect) {
        let Some(bg) = &self.doc.map.background else {
            return;
        };
        let grid = &self.doc.map.grid;
        for (i, row) in self.digitise.calibration.points.iter().enumerate() {
            let at = screen_point(&self.view, rect, &bg.grid_to_image, [row.x, row.y]);
            let colour = match self.digitise.calibration.residual(i) {
                Some(r) if r > 5.0 => Color32::from_rgb(255, 60, 0),
                Some(_) => Color32::from_rgb(0, 200, 90),
                None => Color32::from_rgb(255, 220, 0),
            };
            let s = 9.0;
            let stroke = Stroke::new(2.5, colour);
            painter.line_segment([at - egui::vec2(s, 0.0), at + egui::vec2(s, 0.0)], stroke);
            painter.line_segment([at - egui::vec2(0.0, s), at + egui::vec2(0.0, s)], stroke);
            painter.circle_stroke(at, s * 0.6, Stroke::new(1.0, Color32::BLACK));
            let text = if row.hex.trim().is_empty() {
                format!("{}", i + 1)
            } else {
                format!("{} {}", i + 1, row.hex.trim())
            };
            painter.text(
                at + egui::vec2(s, -s),
                egui::Align2::LEFT_BOTTOM,
                text,
                egui::FontId::proportional(13.0),
                colour,
            );
            // Where the fit puts the named hex's centre.
            if let Ok(index) = grid.parse(row.hex.trim()) {
                let [x, y] = grid.centre(index);
                let fitted = self.view.to_screen(rect, pos2(x, y));
                painter.line_segment(
                    [at, fitted],
                    Stroke::new(1.5, Color32::from_rgb(255, 0, 200)),
                );
            }
        }
    }

    fn paint_checked(&self, painter: &egui::Painter, rect: egui::Rect) {
        let grid = &self.doc.map.grid;
        let visible = self.view.visible_grid_rect(rect).expand(1.5);
        let green = Color32::from_rgb(20, 150, 60);
        for name in &self.doc.map.checked {
            let Some(hex) = grid.lookup(name) else {
                continue;
            };
            let [x, y] = grid.centre(hex);
            if !visible.contains(pos2(x, y)) {
                continue;
            }
            let c = self.view.to_screen(rect, pos2(x, y));
            let s = (self.view.zoom * 0.25).clamp(3.0, 12.0);
            painter.add(egui::Shape::line(
                vec![
                    c + egui::vec2(-s, 0.0),
                    c + egui::vec2(-s * 0.3, s * 0.7),
                    c + egui::vec2(s, -s * 0.8),
                ],
                Stroke::new((s * 0.35).max(1.5), green),
            ));
        }
    }

    /// Map clicks while digitising; returns whether the digitise tools have the clicks (the
    /// map tools then do nothing).
    pub(crate) fn digitise_map_input(
        &mut self,
        response: &egui::Response,
        rect: egui::Rect,
        pointer: Option<egui::Pos2>,
        panning: bool,
    ) -> bool {
        if !self.digitise.open || self.digitise.mode == Mode::Idle {
            return false;
        }
        if panning || !response.clicked() {
            return true;
        }
        let Some(pos) = pointer else {
            return true;
        };
        let g = self.view.to_grid(rect, pos);
        let hex = self.doc.map.grid.hex_at([g.x, g.y]);
        match self.digitise.mode {
            Mode::Idle => {}
            Mode::Calibrate => {
                if let Some(bg) = self.doc.map.background.clone() {
                    let px = image_point(&self.view, rect, &bg.grid_to_image, pos);
                    let grid = self.doc.map.grid.clone();
                    if let Some(next) = self.digitise.calibration.click(&grid, &bg, px, hex) {
                        self.set_background("Calibrate", Some(next));
                    }
                }
            }
            Mode::SampleTerrain => {
                if let Some(hex) = hex {
                    let code = self.tools.terrain;
                    self.digitise.suggest.toggle_sample(hex, code);
                }
            }
            Mode::SampleHexside => {
                if let Some(hex) = hex
                    && let Some((side, d)) = nearest_side(&self.doc.map.grid, hex, [g.x, g.y])
                    && d <= HEXSIDE_REACH
                {
                    let grid = self.doc.map.grid.clone();
                    self.digitise.suggest.toggle_side_sample(&grid, hex, side);
                }
            }
        }
        true
    }
}
