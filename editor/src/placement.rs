//! The scenario on the map and the app's scenario actions: drawing zones, counters, broken-rule
//! outlines and a selected leader's command radius; placing counters by dragging them from the
//! tree or between hexes; turning them (R, Shift+R, Shift+wheel) and taking them off (Delete);
//! selecting what a diagnostic is about; the right dock; saving a scenario with its map.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use bataille_schema::{HexIndex, Scenario};
use egui::{Color32, Pos2, Rect, Stroke};

use crate::app::EditorApp;
use crate::counters::{self, Highlights, hit, stack_order};
use crate::diagnostics::{Diagnostic, Severity};
use crate::document::{Document, ScenarioFile};
use crate::oob::{
    CounterDrop, DockTab, MapDrag, OobOutput, Sel, remove_from_map, rotate, set_placement,
};
use crate::scenario_edit::{
    CounterAt, find_counter, needs_placing, placement_dropped_on, placement_of,
};
use crate::scenario_settings::{SettingsDialog, SettingsOutcome};
use crate::tools::Tool;

/// A selected leader's command: the outline of its radius (grid space) and which counters the
/// validator found in or out of command.
#[derive(Debug, Clone, Default)]
pub struct CommandView {
    pub ring: Vec<[Pos2; 2]>,
    pub in_command: Vec<CounterAt>,
    pub out_of_command: Vec<CounterAt>,
}

/// What the command view was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandKey {
    sel: Sel,
    revision: u64,
    diagnostics: u64,
}

/// The command view of a selected line leader, corps or commander in chief: the radius is
/// geometry (`Grid::range` of the radius the data gives); who is out of command is what the
/// validator reported (W0901 for units, W0801 for line leaders), everyone else placed is in.
pub fn command_view(
    s: &Scenario,
    grid: &bataille_schema::Grid,
    sel: Sel,
    diagnostics: &[Diagnostic],
) -> Option<CommandView> {
    let out_ids = |code: &str| -> HashSet<&str> {
        diagnostics
            .iter()
            .filter(|d| d.code == code)
            .filter_map(|d| d.subject.as_deref())
            .collect()
    };
    let on_map = |p: &bataille_schema::scenario::Placement| p.hex().and_then(|h| grid.lookup(h));
    let mut view = CommandView::default();
    match sel {
        Sel::Leader(a, c) | Sel::Corps(a, c) => {
            let army = s.armies.get(a)?;
            let corps = army.corps.get(c)?;
            let leader = corps.leader.as_ref()?;
            let centre = on_map(&leader.placement)?;
            let radius = leader
                .radius_hexes
                .unwrap_or(s.rules.command.leader_radius_hexes);
            view.ring = crate::zones::radius_outline(grid, centre, radius);
            let out = out_ids("W0901");
            for (u, unit) in army.units.iter().enumerate() {
                if unit.corps.as_ref() == Some(&corps.id) && on_map(&unit.placement).is_some() {
                    if out.contains(unit.id.as_str()) {
                        view.out_of_command.push(CounterAt::Unit(a, u));
                    } else {
                        view.in_command.push(CounterAt::Unit(a, u));
                    }
                }
            }
        }
        Sel::Commander(a, k) => {
            let army = s.armies.get(a)?;
            let chief = army.commanders.get(k)?;
            let centre = on_map(&chief.placement)?;
            let radius = chief
                .radius_hexes
                .unwrap_or(s.rules.command.commander_radius_hexes);
            view.ring = crate::zones::radius_outline(grid, centre, radius);
            let out = out_ids("W0801");
            for (c, corps) in army.corps.iter().enumerate() {
                if !chief.commands.contains(&corps.id) {
                    continue;
                }
                if let Some(leader) = &corps.leader
                    && on_map(&leader.placement).is_some()
                {
                    if out.contains(leader.id.as_str()) {
                        view.out_of_command.push(CounterAt::Leader(a, c));
                    } else {
                        view.in_command.push(CounterAt::Leader(a, c));
                    }
                }
            }
        }
        _ => return None,
    }
    Some(view)
}

/// `to` relative to the directory `from` (both made absolute against the current directory).
pub fn relative_path(from_dir: &Path, to: &Path) -> PathBuf {
    let absolute = |p: &Path| -> PathBuf {
        let p = if p.is_absolute() {
            p.to_owned()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        };
        // Drop `.` and resolve `..` textually.
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    };
    let from = absolute(from_dir);
    let to = absolute(to);
    let from_parts: Vec<Component> = from.components().collect();
    let to_parts: Vec<Component> = to.components().collect();
    let common = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in common..from_parts.len() {
        rel.push("..");
    }
    for part in &to_parts[common..] {
        rel.push(part);
    }
    rel
}

/// Writes `text` to `path` unless the file already holds exactly that.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(false);
    }
    bataille_schema::io::write_atomic(path, text)?;
    Ok(true)
}

/// Saves the scenario to `path` (canonical, atomic; its `map` re-pointed when it moves) and
/// its map to the map's file, each only when its text changed.
pub fn save_with_scenario(doc: &mut Document, path: &Path) -> std::io::Result<()> {
    let Some(map_path) = doc.map_path.clone() else {
        return Err(std::io::Error::other(
            "the map has never been saved: save the map first",
        ));
    };
    let Some(file) = doc.scenario.as_mut() else {
        return Err(std::io::Error::other("no scenario is open"));
    };
    let mut scenario = file.scenario.clone();
    if file.path != path {
        let dir = path.parent().unwrap_or(Path::new(""));
        let rel = relative_path(dir, &map_path);
        scenario.map = rel.to_string_lossy().replace('\\', "/");
    }
    let map_text = bataille_schema::map_to_string(&doc.map).map_err(std::io::Error::other)?;
    let scenario_text =
        bataille_schema::scenario_to_string(&scenario).map_err(std::io::Error::other)?;
    write_if_changed(&map_path, &map_text)?;
    write_if_changed(path, &scenario_text)?;
    file.scenario = scenario;
    file.path = path.to_owned();
    Ok(())
}

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
            self.go_to_hex(ctx, hex);
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
            self.apply_edit(&label, changes);
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
            self.apply_edit(&label, changes);
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
            self.apply_edit("Place counter", vec![change]);
        }
        self.select(Some(Sel::of_counter(at)));
        self.tools.selection = Some(hex);
    }

    /// Applies what the order-of-battle panel returned.
    pub(crate) fn apply_oob_output(&mut self, ctx: &egui::Context, out: OobOutput) {
        for (label, changes) in out.edits {
            if !changes.is_empty() {
                self.apply_edit(&label, changes);
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
            self.open_scenario_settings();
        }
        if out.new_scenario {
            self.new_scenario_for_map();
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
        let stem = map_path
            .file_stem()
            .map_or_else(|| "map".to_owned(), |s| s.to_string_lossy().into_owned());
        let file = map_path.file_name().map_or_else(
            || "map.ron".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let path = map_path.with_file_name(format!("{stem}-scenario.ron"));
        self.doc.scenario = Some(ScenarioFile {
            scenario: crate::scenario_edit::new_scenario(&self.doc.map.name, &file),
            path,
        });
        self.history.mark_unsaved();
        self.oob.reset();
        self.oob.tab = DockTab::Oob;
        self.diagnostics.revalidate(&self.doc);
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
                    self.apply_edit("Scenario settings", changes);
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
        });
        ui.separator();
        match self.oob.tab {
            DockTab::Inspector => self.inspector(ui),
            DockTab::Oob => {
                let out = self.oob.dock_ui(ui, &self.doc);
                let ctx = ui.ctx().clone();
                self.apply_oob_output(&ctx, out);
            }
        }
    }

    /// The zone tool's options in the left dock.
    pub(crate) fn zone_tool_options(&mut self, ui: &mut egui::Ui) {
        let unit = match self.oob.selected {
            Some(Sel::Unit(a, u)) => Some((a, u)),
            _ => None,
        };
        let owner = match (self.oob.selected, &self.doc.scenario) {
            (Some(Sel::Corps(a, c) | Sel::Leader(a, c)), Some(f)) => f
                .scenario
                .armies
                .get(a)
                .and_then(|army| army.corps.get(c))
                .map(|c| bataille_schema::scenario::Owner::Corps(c.id.clone())),
            (Some(sel), Some(f)) => sel
                .army_index()
                .and_then(|a| f.scenario.armies.get(a))
                .map(|a| bataille_schema::scenario::Owner::Army(a.id.clone())),
            _ => None,
        };
        if let Some((label, changes)) = self.oob.zone_tool.options_ui(ui, &self.doc, unit, owner) {
            self.apply_edit(&label, changes);
        }
    }

    /// The unit tool's options: the counters not placed yet, to drag onto the map.
    pub(crate) fn units_tool_options(&mut self, ui: &mut egui::Ui) {
        let Some(file) = &self.doc.scenario else {
            ui.weak("Open a scenario to place its counters.");
            return;
        };
        let s = &file.scenario;
        ui.weak("Drag a counter onto a hex, or select one and click a hex. Drag counters between hexes; right-click takes one off the map.");
        ui.strong("Not placed yet");
        let mut select = None;
        let mut any = false;
        egui::ScrollArea::vertical()
            .id_salt("unplaced")
            .max_height(360.0)
            .show(ui, |ui| {
                for (a, army) in s.armies.iter().enumerate() {
                    let mut rows: Vec<(CounterAt, String)> = Vec::new();
                    for (k, chief) in army.commanders.iter().enumerate() {
                        if needs_placing(&chief.placement) {
                            rows.push((CounterAt::Commander(a, k), format!("★ {}", chief.name)));
                        }
                    }
                    for (c, corps) in army.corps.iter().enumerate() {
                        if let Some(l) = &corps.leader
                            && needs_placing(&l.placement)
                        {
                            rows.push((CounterAt::Leader(a, c), format!("◎ {}", l.name)));
                        }
                    }
                    for (u, unit) in army.units.iter().enumerate() {
                        if needs_placing(&unit.placement) {
                            rows.push((CounterAt::Unit(a, u), unit.name.clone()));
                        }
                    }
                    if rows.is_empty() {
                        continue;
                    }
                    any = true;
                    ui.label(egui::RichText::new(&army.name).strong());
                    for (at, text) in rows {
                        let selected = self.oob.selected == Some(Sel::of_counter(at));
                        let resp = ui
                            .push_id(("unplaced", at_key(at)), |ui| {
                                ui.add(egui::Button::selectable(selected, text).truncate())
                            })
                            .inner
                            .interact(egui::Sense::click_and_drag());
                        resp.dnd_set_drag_payload(CounterDrop(at));
                        if resp.clicked() || resp.drag_started() {
                            select = Some(Sel::of_counter(at));
                        }
                    }
                }
            });
        if !any {
            ui.weak("Every counter is placed.");
        }
        if select.is_some() {
            self.select(select);
        }
    }

    // -----------------------------------------------------------------------------------------
    // The map.

    /// Draws the scenario's layers over the terrain.
    pub(crate) fn paint_scenario(&mut self, painter: &egui::Painter, rect: Rect) {
        let grid = &self.doc.map.grid;
        let scenario = self.doc.scenario.as_ref().map(|f| &f.scenario);
        self.oob.counters.refresh(self.oob.revision, scenario, grid);
        self.oob.zones.refresh(self.oob.revision, scenario, grid);
        let view = &self.view;
        // Zones: all while the zone tool is on (the chosen one stronger), else the selected
        // zone or the selected free unit's.
        let highlight = match (self.oob.selected, scenario) {
            (Some(Sel::Zone(z)), _) => Some(z),
            (Some(Sel::Unit(a, u)), Some(s)) => s
                .armies
                .get(a)
                .and_then(|army| army.units.get(u))
                .and_then(|unit| match &unit.placement {
                    bataille_schema::scenario::Placement::Free { zone, .. } => {
                        s.zones.iter().position(|z| &z.id == zone)
                    }
                    _ => None,
                }),
            _ => None,
        };
        let zone_tool = self.tools.tool == Tool::Zone;
        let highlight = if zone_tool {
            self.oob.zone_tool.zone.or(highlight)
        } else {
            highlight
        };
        self.oob.zones.paint(
            painter,
            view,
            rect,
            grid,
            self.oob.zone_tool.show,
            highlight,
        );
        // Broken rules: amber warnings under red errors.
        let visible = view.visible_grid_rect(rect).expand(1.0);
        let mut outlined: Vec<(HexIndex, Severity)> = Vec::new();
        for d in &self.diagnostics.diagnostics {
            if let Some(hex) = d.hex.as_ref().and_then(|h| grid.lookup(h)) {
                let [x, y] = grid.centre(hex);
                if visible.contains(egui::pos2(x, y)) {
                    outlined.push((hex, d.severity));
                }
            }
        }
        outlined.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        outlined.dedup();
        for (hex, severity) in outlined {
            let colour = match severity {
                Severity::Error => Color32::from_rgb(225, 30, 30),
                Severity::Warning => Color32::from_rgb(245, 160, 0),
            };
            view.outline_hex(painter, grid, rect, hex, Stroke::new(3.0, colour));
        }
        // The selected leader's command radius.
        let mut highlights = Highlights {
            selected: self.oob.selected.and_then(Sel::counter),
            hovered: self.oob.hovered_counter,
            dragged: self.oob.drag.map(|d| d.what),
            ..Default::default()
        };
        // A leader or commander under the pointer shows its radius; else the selection's.
        let focus = self
            .oob
            .hovered_counter
            .filter(|c| !matches!(c, CounterAt::Unit(..)))
            .map(Sel::of_counter)
            .or(self.oob.selected);
        if let (Some(sel), Some(s)) = (focus, scenario) {
            let key = CommandKey {
                sel,
                revision: self.oob.revision,
                diagnostics: self.diagnostics.revision,
            };
            let cached = matches!(&self.oob.command_cache, Some((k, _)) if *k == key);
            if !cached {
                let view = command_view(s, grid, sel, &self.diagnostics.diagnostics);
                self.oob.command_cache = Some((key, view));
            }
            if let Some((_, Some(command))) = &self.oob.command_cache {
                // A white line on a dark one: it reads over any terrain and zone colour.
                let mut shapes: Vec<egui::Shape> = Vec::with_capacity(command.ring.len() * 2);
                for (width, colour) in
                    [(5.0, Color32::from_black_alpha(160)), (2.5, Color32::WHITE)]
                {
                    shapes.extend(command.ring.iter().map(|[a, b]| {
                        egui::Shape::line_segment(
                            [view.to_screen(rect, *a), view.to_screen(rect, *b)],
                            Stroke::new(width, colour),
                        )
                    }));
                }
                painter.extend(shapes);
                highlights.in_command = command.in_command.clone();
                highlights.out_of_command = command.out_of_command.clone();
            }
        }
        counters::paint(
            painter,
            view,
            rect,
            grid,
            &self.oob.counters,
            &highlights,
            scenario,
        );
    }

    /// Map input for counters (drags from the tree or between hexes, clicks, Shift+wheel).
    /// Returns true when it took the input, so that the tool makes no stroke of it.
    pub(crate) fn scenario_map_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        pointer: Option<Pos2>,
    ) -> bool {
        if self.doc.scenario.is_none() {
            self.oob.drag = None;
            return false;
        }
        let grid = self.doc.map.grid.clone();
        let hex_under = pointer.and_then(|p| self.view.hex_at(&grid, rect, p));
        // A counter dropped from the tree or the list of counters not placed.
        if let Some(drop) = response.dnd_release_payload::<CounterDrop>() {
            if let Some(hex) = hex_under {
                self.move_counter(drop.0, hex);
            }
            return true;
        }
        if egui::DragAndDrop::has_payload_of_type::<CounterDrop>(ui.ctx()) {
            return true;
        }
        let hit_here = if response.hovered() || self.oob.drag.is_some() {
            pointer.and_then(|p| hit(&self.view, rect, &grid, &self.oob.counters, p))
        } else {
            None
        };
        self.oob.hovered_counter = hit_here.map(|(_, at)| at).filter(|_| response.hovered());
        // Shift+wheel over the selected counter turns it.
        let turns: f32 = ui.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::MouseWheel {
                        delta, modifiers, ..
                    } if modifiers.shift && !modifiers.command => Some(delta.y + delta.x),
                    _ => None,
                })
                .sum()
        });
        if turns != 0.0
            && response.hovered()
            && let Some(sel) = self.selected_counter()
            && hit_here.is_some_and(|(_, at)| at == sel)
        {
            self.rotate_selected(turns < 0.0);
        }
        let tool = self.tools.tool;
        if !matches!(tool, Tool::Select | Tool::Units) {
            self.oob.drag = None;
            return false;
        }
        let (pressed, primary, secondary, space, alt) = ui.input(|i| {
            (
                i.pointer.any_pressed(),
                i.pointer.primary_down(),
                i.pointer.secondary_down(),
                i.key_down(egui::Key::Space),
                i.modifiers.alt,
            )
        });
        let down_on = response.is_pointer_button_down_on();
        if let Some(drag) = self.oob.drag {
            if !down_on {
                self.oob.drag = None;
                match hex_under {
                    Some(hex) if hex != drag.from => self.move_counter(drag.what, hex),
                    _ if drag.cycle => {
                        // A click on a stack whose counter was selected: the next one.
                        let order = stack_order(&self.oob.counters, drag.from);
                        if let Some(i) = order.iter().position(|a| *a == drag.what) {
                            let next = order[(i + 1) % order.len()];
                            self.select(Some(Sel::of_counter(next)));
                        }
                    }
                    _ => {}
                }
            }
            return true;
        }
        if !(pressed && down_on) || space || alt || !(primary || secondary) {
            return false;
        }
        if secondary {
            if tool == Tool::Units
                && let Some((_, at)) = hit_here
            {
                self.select(Some(Sel::of_counter(at)));
                self.remove_selected_from_map();
                return true;
            }
            return false;
        }
        match hit_here {
            Some((hex, at)) => {
                let selected = self.selected_counter();
                let order = stack_order(&self.oob.counters, hex);
                let (what, cycle) = match selected {
                    Some(sel) if order.contains(&sel) => (sel, true),
                    _ => (at, false),
                };
                self.select(Some(Sel::of_counter(what)));
                self.tools.selection = Some(hex);
                self.oob.drag = Some(MapDrag {
                    what,
                    from: hex,
                    cycle,
                });
                true
            }
            None => {
                if tool == Tool::Units
                    && let (Some(at), Some(hex)) = (self.selected_counter(), hex_under)
                    && self.counter_hex(at) != Some(hex)
                {
                    self.move_counter(at, hex);
                    return true;
                }
                if tool == Tool::Select {
                    self.oob.selected = None;
                }
                false
            }
        }
    }

    /// What follows the pointer: a counter being dragged and the hex it would land on.
    pub(crate) fn paint_scenario_drag(
        &self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        rect: Rect,
        pointer: Option<Pos2>,
    ) {
        let dragged = self
            .oob
            .drag
            .map(|d| d.what)
            .or_else(|| egui::DragAndDrop::payload::<CounterDrop>(ui.ctx()).map(|p| p.0));
        let (Some(at), Some(pos)) = (dragged, pointer) else {
            return;
        };
        if !rect.contains(pos) {
            return;
        }
        let grid = &self.doc.map.grid;
        if let Some(hex) = self.view.hex_at(grid, rect, pos) {
            self.view.outline_hex(
                painter,
                grid,
                rect,
                hex,
                Stroke::new(3.0, counters::SELECTED),
            );
        }
        let Some(s) = self.doc.scenario.as_ref().map(|f| &f.scenario) else {
            return;
        };
        let side = counters::side_px(&self.view).max(24.0);
        let look = ghost_look(s, at);
        match look {
            Ghost::Unit(u) => counters::paint_ghost(painter, pos, side, Some(&u), None),
            Ghost::Leader(l) => counters::paint_ghost(painter, pos, side, None, Some(&l)),
            Ghost::None => {}
        }
    }
}

enum Ghost {
    Unit(counters::UnitLook),
    Leader(counters::LeaderLook),
    None,
}

fn ghost_look(s: &Scenario, at: CounterAt) -> Ghost {
    let colour_of = |a: usize, id: Option<&bataille_schema::Id>| {
        s.armies
            .get(a)
            .and_then(|army| army.corps.iter().find(|c| Some(&c.id) == id))
            .map_or(Color32::GRAY, |c| {
                crate::map_view::colour32(&c.colour, Color32::GRAY)
            })
    };
    match at {
        CounterAt::Unit(a, u) => {
            let Some(unit) = s.armies.get(a).and_then(|x| x.units.get(u)) else {
                return Ghost::None;
            };
            Ghost::Unit(counters::UnitLook {
                at,
                colour: colour_of(a, unit.corps.as_ref()),
                symbol: s
                    .rules
                    .unit_kinds
                    .get(&unit.kind)
                    .map_or(bataille_schema::scenario::Symbol::Other, |k| k.symbol),
                values: [None; 3],
                fire: None,
                facing_degrees: None,
            })
        }
        CounterAt::Leader(a, c) => {
            let Some(corps) = s.armies.get(a).and_then(|x| x.corps.get(c)) else {
                return Ghost::None;
            };
            Ghost::Leader(counters::LeaderLook {
                at,
                colour: colour_of(a, Some(&corps.id)),
                commander: false,
                name: corps
                    .leader
                    .as_ref()
                    .map_or_else(String::new, |l| l.name.clone()),
            })
        }
        CounterAt::Commander(a, k) => {
            let Some(chief) = s.armies.get(a).and_then(|x| x.commanders.get(k)) else {
                return Ghost::None;
            };
            Ghost::Leader(counters::LeaderLook {
                at,
                colour: colour_of(a, chief.commands.first()),
                commander: true,
                name: chief.name.clone(),
            })
        }
    }
}

fn at_key(at: CounterAt) -> (u8, usize, usize) {
    match at {
        CounterAt::Unit(a, u) => (0, a, u),
        CounterAt::Leader(a, c) => (1, a, c),
        CounterAt::Commander(a, k) => (2, a, k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        assert_eq!(
            relative_path(Path::new("/a/scenarios"), Path::new("/a/maps/m.ron")),
            PathBuf::from("../maps/m.ron")
        );
        assert_eq!(
            relative_path(Path::new("/a/maps"), Path::new("/a/maps/m.ron")),
            PathBuf::from("m.ron")
        );
    }
}
