//! The inspector (right dock): the selected counter (from the map or the tree) and its hex, or
//! the selected hex with the counters on it; it follows the selection.

use egui::Ui;

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::model::scenario_edit::{CounterAt, describe_placement, placement_of};
use crate::model::selection::Sel;

/// The inspector (no state of its own: it shows the context's selection).
#[derive(Debug, Default)]
pub struct Inspector;

impl Inspector {
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui) {
        ui.heading("Inspector");
        let doc = ctx.doc;
        let selected_counter = ctx.selection.counter();
        if let Some(at) = selected_counter
            && let Some(s) = doc.scenario.as_ref().map(|f| &f.scenario)
        {
            ui.strong(counter_title(s, at));
            if let Some(p) = placement_of(s, at) {
                ui.label(format!("Placement: {}", describe_placement(p)));
            }
            crate::panels::variant_base::counter_base_ui(ctx, ui, s, at);
            if ui.button("Edit in the order of battle").clicked() {
                ctx.send(UiCommand::ShowOrderOfBattle);
            }
            ui.separator();
        }
        let hex = selected_counter
            .and_then(|at| ctx.counter_hex(at))
            .or(ctx.selection.hex);
        let Some(hex) = hex else {
            ui.weak("Select a hex or a counter (S, then click) to see it here.");
            ui.separator();
            let map = &doc.map;
            ui.label(format!("Map: {}", map.name));
            ui.label(format!(
                "{} × {} hexes, {:?} top",
                map.grid.columns, map.grid.rows, map.grid.orientation
            ));
            if let Some(s) = &doc.scenario {
                ui.label(format!("Scenario: {}", s.scenario.title));
            }
            return;
        };
        let grid = &doc.map.grid;
        let name = grid.name(hex);
        ui.label(format!("Hex {name}"));
        if let Some((code, t)) = doc.terrain_at(hex) {
            ui.label(format!(
                "Terrain: {} (`{code}`)",
                t.map_or("unknown", |t| t.name.as_str())
            ));
        }
        // By name, as the legend and the status bar say them (the id when the legend lacks it).
        for id in doc.overlays_at(hex) {
            let name = doc
                .map
                .overlay_types
                .get(id)
                .map_or(id.as_str(), |t| &t.name);
            ui.label(format!("Overlay: {name}"));
        }
        for (side, _) in grid.neighbours(hex) {
            let side_ref = grid.hexside_ref(hex, side);
            for feature in doc.hexside_features(&side_ref) {
                let name = doc
                    .map
                    .hexside_types
                    .get(feature)
                    .map_or(feature.as_str(), |t| &t.name);
                ui.label(format!("{side}: {name}"));
            }
        }
        if let Some(label) = doc.map.labels.get(&name) {
            ui.label(format!("Label: {label}"));
        }
        let here: Vec<_> = match doc.scenario.as_ref().map(|f| &f.scenario) {
            Some(s) => crate::map::counters::stack_order(ctx.counters, hex)
                .into_iter()
                .map(|at| (at, counter_title(s, at)))
                .collect(),
            None => Vec::new(),
        };
        if !here.is_empty() {
            ui.label(format!("Counters here: {}", here.len()));
            for (at, text) in here {
                if ui
                    .selectable_label(selected_counter == Some(at), text)
                    .clicked()
                {
                    ctx.send(AppCommand::Select(Some(Sel::from(at))));
                }
            }
        }
    }
}

/// A counter's name and id as the inspector shows it.
fn counter_title(s: &bataille_schema::Scenario, at: CounterAt) -> String {
    match at {
        CounterAt::Unit(a, u) => s
            .armies
            .get(a)
            .and_then(|army| army.units.get(u))
            .map_or_else(String::new, |u| {
                format!("{} ({}) — {}", u.name, u.id, u.kind)
            }),
        CounterAt::Leader(a, c) => s
            .armies
            .get(a)
            .and_then(|army| army.corps.get(c))
            .and_then(|corps| corps.leader.as_ref())
            .map_or_else(String::new, |l| {
                format!("{} ({}) — line leader", l.name, l.id)
            }),
        CounterAt::Commander(a, k) => s
            .armies
            .get(a)
            .and_then(|army| army.commanders.get(k))
            .map_or_else(String::new, |c| {
                format!("{} ({}) — commander in chief", c.name, c.id)
            }),
    }
}
