//! The scenario on the map and the app's scenario actions: drawing zones, counters, broken-rule
//! outlines and a selected leader's command radius; placing counters by dragging them from the
//! tree or between hexes; turning them (R, Shift+R, Shift+wheel) and taking them off (Delete);
//! selecting what a diagnostic is about; the right dock; saving a scenario with its map.

mod on_map;

use bataille_schema::{HexIndex, Scenario};
use egui::{Color32, Pos2, Rect, Stroke};

use crate::app::{Command, EditorApp};
use crate::map::counters::{self, Highlights, hit, stack_order};
use crate::model::document::ScenarioFile;
use crate::model::history::Change;
use crate::model::scenario_edit::{CounterAt, find_counter, placement_dropped_on, placement_of};
use crate::panels::diagnostics::{Diagnostic, Severity};
use crate::panels::oob::{
    CounterDrop, DockTab, MapDrag, OobOutput, Sel, remove_from_map, rotate, set_placement,
};
use crate::panels::scenario_settings::{SettingsDialog, SettingsOutcome};
use crate::tools::Tool;

pub use crate::panels::command_view::{CommandKey, CommandView, command_view};

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // Selection.

    /// Selects an item of the order of battle (and the hex its counter stands on).
    pub fn select(&mut self, sel: Option<Sel>) {
        self.oob.selected = sel;
        if let Some(at) = sel.and_then(Sel::counter)
            && let Some(hex) = self.counter_hex(at)
        {
            self.tools.selection = Some(hex);
        }
    }

    /// The hex a counter stands on at set-up.
    pub fn counter_hex(&self, at: CounterAt) -> Option<HexIndex> {
        let s = &self.doc.scenario.as_ref()?.scenario;
        placement_of(s, at)?
            .hex()
            .and_then(|h| self.doc.map.grid.lookup(h))
    }

    /// The counter selected, if any.
    pub fn selected_counter(&self) -> Option<CounterAt> {
        self.oob.selected.and_then(Sel::counter)
    }

    /// Goes to what a diagnostic is about: selects its unit, leader, corps or zone and centres
    /// its hex.
    pub fn go_to_diagnostic(&mut self, ctx: &egui::Context, d: &Diagnostic) {
        if let (Some(subject), Some(file)) = (&d.subject, &self.doc.scenario) {
            let s = &file.scenario;
            let sel = find_counter(s, subject).map(Sel::of_counter).or_else(|| {
                s.armies.iter().enumerate().find_map(|(a, army)| {
                    if army.id.as_str() == subject {
                        return Some(Sel::Army(a));
                    }
                    army.corps
                        .iter()
                        .position(|c| c.id.as_str() == subject)
                        .map(|c| Sel::Corps(a, c))
                })
            });
            let sel = sel.or_else(|| {
                s.zones
                    .iter()
                    .position(|z| z.id.as_str() == subject)
                    .map(Sel::Zone)
            });
            if sel.is_some() {
                self.select(sel);
                self.oob.tab = DockTab::Oob;
                self.oob.scroll_to_selection();
            }
        }
        if let Some(hex) = &d.hex {
            self.go_to_hex(ctx, &bataille_schema::HexName::from(hex.as_str()));
        }
    }

    /// Centres the view on the selected counter.
    pub fn go_to_selection(&mut self, ctx: &egui::Context) {
        if let Some(hex) = self.selected_counter().and_then(|at| self.counter_hex(at)) {
            let name = self.doc.map.grid.name(hex);
            self.go_to_hex(ctx, &name);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Edits from the keyboard and the map.

    /// Turns the selected unit one hexside (R / Shift+R).
    pub fn rotate_selected(&mut self, clockwise: bool) {
        let Some(at) = self.selected_counter() else {
            return;
        };
        let Some(s) = self.doc.scenario.as_ref().map(|f| &f.scenario) else {
            return;
        };
        if let Some((label, changes)) = rotate(s, &self.doc.map.grid, at, clockwise) {
            self.edit(&label, changes);
        }
    }

    /// Takes the selected counter off the map (Delete).
    pub fn remove_selected_from_map(&mut self) {
        let Some(at) = self.selected_counter() else {
            return;
        };
        let Some(s) = self.doc.scenario.as_ref().map(|f| &f.scenario) else {
            return;
        };
        if let Some((label, changes)) = remove_from_map(s, at) {
            self.edit(&label, changes);
        }
    }

    /// Moves a counter onto a hex (one undo step).
    pub fn move_counter(&mut self, at: CounterAt, hex: HexIndex) {
        let Some(s) = self.doc.scenario.as_ref().map(|f| &f.scenario) else {
            return;
        };
        let Some(current) = placement_of(s, at) else {
            return;
        };
        let name = self.doc.map.grid.name(hex);
        let after = placement_dropped_on(current, name);
        if let Some(change) = set_placement(s, at, after) {
            self.edit("Place counter", vec![change]);
        }
        self.select(Some(Sel::of_counter(at)));
        self.tools.selection = Some(hex);
    }

    /// Applies what the order-of-battle panel returned.
    pub(crate) fn apply_oob_output(&mut self, ctx: &egui::Context, out: OobOutput) {
        for (label, changes) in out.edits {
            if !changes.is_empty() {
                self.edit(&label, changes);
            }
        }
        if let Some(sel) = out.select {
            self.select(sel);
            self.oob.scroll_to_selection();
        }
        if out.go_to_selection {
            self.go_to_selection(ctx);
        }
        if out.zone_tool {
            self.tools.tool = Tool::Zone;
        }
        if out.open_settings {
            self.request(Command::ScenarioSettings);
        }
        if out.new_scenario {
            self.request(Command::NewScenario);
        }
        self.oob.check_selection(&self.doc);
    }

    /// Opens the scenario settings dialog.
    pub fn open_scenario_settings(&mut self) {
        if let Some(file) = &self.doc.scenario {
            self.oob.settings_dialog = Some(SettingsDialog::new(&file.scenario));
        }
    }

    /// Starts a scenario for the map being edited (saved beside it), with the usual unit kinds
    /// and stacking; it is unsaved until the next save.
    pub fn new_scenario_for_map(&mut self) {
        if self.doc.scenario.is_some() {
            return;
        }
        let Some(map_path) = self.doc.map_path.clone() else {
            self.toast("Save the map first: the scenario names the map's file.".into());
            return;
        };
        let form = crate::panels::new_scenario::NewScenarioForm::new(&map_path, &self.doc.map.name);
        self.dialog = Some(crate::app::Dialog::NewScenario(Box::new(form)));
    }

    /// Creates the scenario the dialog describes (one undo step); `Err` says what to fix.
    pub(crate) fn create_scenario(
        &mut self,
        form: &crate::panels::new_scenario::NewScenarioForm,
    ) -> Result<(), String> {
        let path = form.check()?;
        let rules = crate::model::templates::rules(&form.rules)?;
        let Some(map_path) = self.doc.map_path.clone() else {
            return Err("Save the map first: the scenario names the map's file.".into());
        };
        let map_field = bataille_schema::paths::reference_from(&path, &map_path);
        crate::services::save::check_map_reference(&path, &map_field).map_err(|e| e.to_string())?;
        let mut scenario = crate::model::scenario_edit::new_scenario(form.title.trim(), &map_field);
        scenario.date = form.date.trim().to_owned();
        scenario.rules = rules;
        let file = ScenarioFile { scenario, path };
        self.edit(
            "New scenario",
            vec![Change::AttachScenario {
                before: None,
                after: Some(Box::new(file)),
            }],
        );
        self.oob.reset();
        self.oob.tab = DockTab::Oob;
        Ok(())
    }

    /// The scenario windows (settings dialog).
    pub(crate) fn scenario_windows(&mut self, ctx: &egui::Context) {
        let Some(mut dialog) = self.oob.settings_dialog.take() else {
            return;
        };
        let mut outcome = SettingsOutcome::Open;
        egui::Modal::new(egui::Id::unique("scenario-settings")).show(ctx, |ui| {
            ui.set_min_width(560.0);
            ui.heading("Scenario settings");
            outcome = dialog.ui(ui, &self.doc.map.grid);
        });
        match outcome {
            SettingsOutcome::Open => self.oob.settings_dialog = Some(dialog),
            SettingsOutcome::Cancel => {}
            SettingsOutcome::Apply(changes) => {
                if !changes.is_empty() {
                    self.edit("Scenario settings", changes);
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Docks.

    /// The right dock: the order of battle, or the inspector of the selected hex.
    pub(crate) fn right_dock(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.oob.tab, DockTab::Oob, "Order of battle");
            ui.selectable_value(&mut self.oob.tab, DockTab::Inspector, "Inspector");
            if self.digitise.open {
                ui.selectable_value(&mut self.oob.tab, DockTab::Digitise, "Digitise");
            }
        });
        ui.separator();
        if self.oob.tab == DockTab::Digitise && !self.digitise.open {
            self.oob.tab = DockTab::Inspector;
        }
        match self.oob.tab {
            DockTab::Inspector => self.with_context(|cx, panels| panels.inspector.ui(cx, ui)),
            DockTab::Digitise => self.digitise_dock(ui),
            DockTab::Oob => {
                let before = self.oob.selected;
                self.oob.systems = self.scenario_systems();
                let out = self.oob.dock_ui(ui, &self.doc);
                let ctx = ui.ctx().clone();
                if self.oob.selected != before {
                    // A row chosen in the tree: the inspector and the map follow.
                    self.select(self.oob.selected);
                }
                self.apply_oob_output(&ctx, out);
            }
        }
    }
}
