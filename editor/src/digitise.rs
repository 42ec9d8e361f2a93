//! Digitising a printed map in the editor: the Digitise menu and panel (scan, calibrate,
//! terrain, hexsides, check), the scan drawn between the terrain and the grid lines, map clicks
//! while calibrating or marking samples, the flicker/blend check, the per-hex "checked" mark
//! (key C) and the count of hexes still to check. Document edits go through
//! `EditorApp::apply_edit` as `Change::Digitise`, so each is one undo step.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bataille_digitize::scan::ScanError;
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{HexIndex, HexName, Id};
use egui::{Color32, Key, Modifiers, RichText, Stroke, Ui, pos2};

use crate::app::{Dialog, EditorApp};
use crate::calibration::{Calibration, ClickTarget, kind_name};
use crate::commands::Change;
use crate::document::{Document, Touched, nearest_side};
use crate::jobs::{Job, JobEnd, progress_ui};
use crate::scan::{
    LoadedScan, image_point, image_reference, import_scan, new_background, paint_scan,
    resolve_image, screen_point, tile_side,
};
use crate::suggest::{Overlay, Suggest};
use crate::tools::HEXSIDE_REACH;

/// A reversible digitising edit.
#[derive(Debug, Clone, PartialEq)]
pub enum DigitiseChange {
    /// The scan under the map and its fit, set, changed or removed.
    Background {
        before: Option<Box<Background>>,
        after: Option<Box<Background>>,
    },
    /// Hexes marked as checked against the scan (`checked: true`) or unmarked.
    Checked { hexes: Vec<HexName>, checked: bool },
}

impl DigitiseChange {
    pub fn apply(&self, doc: &mut Document, forward: bool) -> Touched {
        match self {
            DigitiseChange::Background { before, after } => {
                let value = if forward { after } else { before };
                doc.map.background = value.as_deref().cloned();
                Touched::default()
            }
            DigitiseChange::Checked { hexes, checked } => {
                let on = *checked == forward;
                for hex in hexes {
                    set_checked(&mut doc.map.checked, hex, on);
                }
                Touched::hexes(
                    hexes
                        .iter()
                        .filter_map(|h| doc.map.grid.lookup(h))
                        .collect(),
                )
            }
        }
    }

    pub fn is_noop(&self) -> bool {
        match self {
            DigitiseChange::Background { before, after } => before == after,
            DigitiseChange::Checked { hexes, .. } => hexes.is_empty(),
        }
    }
}

/// Adds or removes a hex in the sorted list of checked hexes.
fn set_checked(list: &mut Vec<HexName>, hex: &HexName, on: bool) {
    match (list.binary_search(hex), on) {
        (Err(at), true) => list.insert(at, hex.clone()),
        (Ok(at), false) => {
            list.remove(at);
        }
        _ => {}
    }
}

/// The tabs of the digitise panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Scan,
    Calibrate,
    Terrain,
    Hexsides,
    Check,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Scan,
        Tab::Calibrate,
        Tab::Terrain,
        Tab::Hexsides,
        Tab::Check,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Scan => "Scan",
            Tab::Calibrate => "Calibrate",
            Tab::Terrain => "Terrain",
            Tab::Hexsides => "Hexsides",
            Tab::Check => "Check",
        }
    }
}

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

/// Points the saved map's `background.image` at the scan relative to the file the map is
/// being saved to (the map may be saved somewhere new).
pub fn relink_scan(doc: &mut Document, target: &Path) {
    let old_map = doc.map_path.clone();
    if let Some(background) = &mut doc.map.background {
        let on_disk = resolve_image(&background.image, old_map.as_deref());
        if on_disk.exists() {
            background.image = image_reference(&on_disk, Some(target));
        }
    }
}

impl EditorApp {
    /// Per frame, before the panels: collects finished jobs, reloads the map's scan when it
    /// changed, keeps the tools in step with the document, the C key, the import dialog.
    pub(crate) fn digitise_frame(&mut self, ctx: &egui::Context) {
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
                    let image = image_reference(&loaded.path, self.doc.map_path.as_deref());
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
                    self.apply_edit(
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
        self.apply_edit(
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
        self.apply_edit(
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

    // -----------------------------------------------------------------------------------------
    // Menu, panel, status.

    /// The Digitise menu.
    pub(crate) fn digitise_menu(&mut self, ui: &mut Ui) {
        if ui.button("Import scan…").clicked() {
            self.open_import_dialog();
        }
        let mut open = self.digitise.open;
        if ui.checkbox(&mut open, "Digitise panel").changed() {
            self.digitise.open = open;
        }
        ui.separator();
        for (tab, text) in [
            (Tab::Calibrate, "Calibrate the grid…"),
            (Tab::Terrain, "Suggest terrain…"),
            (Tab::Hexsides, "Suggest hexsides…"),
            (Tab::Check, "Check the work…"),
        ] {
            if ui.button(text).clicked() {
                self.digitise.open_on(tab);
            }
        }
        ui.separator();
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

    /// The status bar's count of hexes to check (when digitising).
    pub(crate) fn digitise_status(&mut self, ui: &mut Ui) {
        if let Some(job) = &self.digitise.import_job {
            ui.label(format!("loading the scan… {:.0} %", job.progress() * 100.0));
            ui.separator();
        }
        if self.doc.map.background.is_none() && self.doc.map.checked.is_empty() {
            return;
        }
        let total = self.doc.map.grid.hex_count();
        let left = self.hexes_to_check();
        ui.label(format!(
            "✔ {}/{total} checked · {left} to check",
            total - left
        ))
        .on_hover_text("C marks the hex under the pointer as checked against the scan");
        ui.separator();
    }

    /// The digitise panel (right side), when open.
    pub(crate) fn digitise_panel(&mut self, ui: &mut Ui) {
        if !self.digitise.open {
            return;
        }
        let ctx = ui.ctx().clone();
        egui::Panel::right("digitise")
            .resizable(true)
            .default_size(300.0)
            .size_range(220.0..=480.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.heading("Digitising");
                    if ui
                        .small_button("✖")
                        .on_hover_text("Close the panel")
                        .clicked()
                    {
                        self.digitise.open = false;
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
                if let Some(job) = &self.digitise.import_job
                    && progress_ui(ui, job)
                {
                    job.cancel();
                }
                egui::ScrollArea::vertical().show(ui, |ui| match self.digitise.tab {
                    Tab::Scan => self.scan_tab(ui),
                    Tab::Calibrate => self.calibrate_tab(ui),
                    Tab::Terrain => self.terrain_tab(ui, &ctx),
                    Tab::Hexsides => self.hexsides_tab(ui, &ctx),
                    Tab::Check => self.check_tab(ui, &ctx),
                });
            });
    }

    fn scan_tab(&mut self, ui: &mut Ui) {
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

    fn calibrate_tab(&mut self, ui: &mut Ui) {
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

    fn terrain_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
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
                .color(crate::map_view::colour32(&t.colour, Color32::MAGENTA).gamma_multiply(1.0));
            if ui.selectable_label(self.tools.terrain == c, text).clicked() {
                picked = Some(c);
            }
        }
        if let Some(c) = picked {
            self.tools.terrain = c;
            self.digitise.mode = Mode::SampleTerrain;
        }
        ui.horizontal(|ui| {
            let ready = self.digitise.scan.is_some() && self.doc.map.background.is_some();
            if ui
                .add_enabled(
                    ready && self.digitise.suggest.terrain_job.is_none(),
                    egui::Button::new("Classify hexes"),
                )
                .clicked()
                && let (Some(scan), Some(bg)) = (&self.digitise.scan, &self.doc.map.background)
            {
                let (scan, matrix) = (scan.scan.clone(), bg.grid_to_image);
                let grid = self.doc.map.grid.clone();
                self.digitise
                    .suggest
                    .start_terrain(ctx, scan, &grid, matrix);
            }
            if !counts.is_empty() && ui.button("Clear samples").clicked() {
                self.digitise.suggest.samples.clear();
            }
        });
        if let Some(job) = &self.digitise.suggest.terrain_job
            && progress_ui(ui, job)
        {
            job.cancel();
        }
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
            self.apply_edit("Accept terrain suggestions", vec![Change::Terrain(cells)]);
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
                ui.label(format!(
                    "{name}: `{now}` on the map, `{code}` suggested ({:.0} %)",
                    confidence * 100.0
                ));
            }
            ui.horizontal(|ui| {
                if ui.button("Accept").clicked() {
                    if let Some(change) = self.digitise.suggest.accept_reviewed(&self.doc) {
                        self.apply_edit("Accept terrain suggestion", vec![change]);
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
        }
    }

    fn overlay_choice(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Show");
            let o = &mut self.digitise.suggest.overlay;
            ui.radio_value(o, Overlay::Tint, "Suggestions");
            ui.radio_value(o, Overlay::Confidence, "Confidence");
            ui.radio_value(o, Overlay::Off, "Nothing");
        });
    }

    fn hexsides_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
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
        let ready = self.digitise.scan.is_some() && self.doc.map.background.is_some();
        if ui
            .add_enabled(
                ready && self.digitise.suggest.hexside_job.is_none(),
                egui::Button::new("Find hexside features"),
            )
            .clicked()
            && let (Some(scan), Some(bg)) = (&self.digitise.scan, &self.doc.map.background)
        {
            let (scan, matrix) = (scan.scan.clone(), bg.grid_to_image);
            let grid = self.doc.map.grid.clone();
            self.digitise
                .suggest
                .start_hexsides(ctx, scan, &grid, matrix);
        }
        if let Some(job) = &self.digitise.suggest.hexside_job
            && progress_ui(ui, job)
        {
            job.cancel();
        }
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
            self.apply_edit("Accept hexside suggestions", changes);
        }
    }

    fn check_tab(&mut self, ui: &mut Ui, ctx: &egui::Context) {
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
