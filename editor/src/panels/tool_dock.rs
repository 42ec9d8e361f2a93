//! The left dock: the terrain palette first (it never moves), then the current tool's options,
//! then the layers shown. The dock has one width whatever the tool, so the map never shifts.
//! Every choice is an `AppCommand` (the tools' state is changed by the app's handler).

use bataille_schema::scenario::Owner;
use egui::{Color32, RichText, Ui};

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::map::view::colour32;
use crate::model::scenario_edit::{CounterAt, needs_placing};
use crate::model::selection::Sel;
use crate::panels::oob::CounterDrop;
use crate::panels::widgets::labelled_text;
use crate::tools::{MAX_BRUSH_RADIUS, Tool};

/// The left dock (no state of its own: the tools hold theirs).
#[derive(Debug, Default)]
pub struct ToolDock;

impl ToolDock {
    /// The dock; the zone tool's options edit that tool's own state.
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui) {
        let doc = ctx.doc;
        let tools = ctx.tools;
        ui.strong("Terrain");
        for (code, t) in &doc.map.terrain {
            let Some(c) = code.chars().next() else {
                continue;
            };
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
                ui.painter()
                    .rect_filled(rect, 3.0, colour32(&t.colour, Color32::MAGENTA));
                let selected = tools.terrain == c;
                if ui
                    .selectable_label(selected, format!("{code}  {}", t.name))
                    .clicked()
                {
                    ctx.send(AppCommand::PickTerrain(c));
                }
            });
        }
        if ui.button("Edit legend…").clicked() {
            ctx.send(UiCommand::Legend);
        }
        ui.separator();
        ui.heading(tools.tool.name());
        match tools.tool {
            Tool::Brush => {
                ui.horizontal(|ui| {
                    let l = ui.label("Brush radius");
                    let mut radius = tools.brush_radius;
                    if ui
                        .add(egui::Slider::new(&mut radius, 0..=MAX_BRUSH_RADIUS))
                        .labelled_by(l.id)
                        .on_hover_text("[ and ] change it")
                        .changed()
                    {
                        ctx.send(AppCommand::SetBrushRadius(radius));
                    }
                });
            }
            Tool::Hexside => {
                ui.label("Feature drawn:");
                if doc.map.hexside_types.is_empty() {
                    ui.weak("The legend has no hexside features.");
                    if ui.button("Add hexside features…").clicked() {
                        ctx.send(UiCommand::LegendHexsides);
                    }
                }
                for (id, t) in &doc.map.hexside_types {
                    let selected = tools.hexside.as_ref() == Some(id);
                    let text = RichText::new(format!("〰 {}", t.name))
                        .color(colour32(&t.colour, Color32::BLUE));
                    if ui.selectable_label(selected, text).clicked() {
                        ctx.send(AppCommand::SetHexsideFeature(id.clone()));
                    }
                }
                ui.weak("Drag along edges to add; right-drag removes.");
            }
            Tool::Overlay => {
                ui.label("Overlay placed:");
                if doc.map.overlay_types.is_empty() {
                    ui.weak("The legend has no overlays.");
                    if ui.button("Add overlays…").clicked() {
                        ctx.send(UiCommand::LegendOverlays);
                    }
                }
                for (id, t) in &doc.map.overlay_types {
                    let selected = tools.overlay.as_ref() == Some(id);
                    if ui
                        .selectable_label(selected, format!("{:?}: {}", t.symbol, t.name))
                        .clicked()
                    {
                        ctx.send(AppCommand::SetOverlayType(id.clone()));
                    }
                }
                ui.weak("Click to add; right-click removes.");
            }
            Tool::Label => {
                let mut text = tools.label_text.clone();
                if labelled_text(ui, "Label text", &mut text).changed() {
                    ctx.send(AppCommand::SetLabelText(text));
                }
                ui.weak("Click a hex to give it this label; right-click removes a label.");
            }
            Tool::Select => {
                ui.weak("Click a hex to inspect it.");
            }
            Tool::Zone => zone_tool_options(ctx, ui),
            Tool::Units => units_tool_options(ctx, ui),
            Tool::Fill | Tool::Eyedropper => {}
        }
        ui.separator();
        ui.separator();
        ui.strong("Layers");
        let mut layers = ctx.view.layers;
        ui.checkbox(&mut layers.terrain, "Terrain");
        ui.checkbox(&mut layers.overlays, "Overlays");
        ui.checkbox(&mut layers.hexsides, "Hexsides");
        ui.checkbox(&mut layers.labels, "Labels");
        ui.checkbox(&mut layers.hex_names, "Hex names");
        ui.checkbox(&mut layers.grid, "Grid");
        if layers != ctx.view.layers {
            ctx.send(AppCommand::SetLayers(layers));
        }
    }
}

/// The zone tool's options: what the selection owns, the zone being painted. The options are
/// shown on a copy of the tool; what the user changed is sent (`AppCommand::ZoneOptions`), after
/// the new zone the options made, if any.
fn zone_tool_options(ctx: &ViewContext<'_>, ui: &mut Ui) {
    let mut zone_tool = ctx.zone_tool.clone();
    let selected = ctx.selection.item;
    let unit = match selected {
        Some(Sel::Unit(a, u)) => Some((a, u)),
        _ => None,
    };
    let owner = match (selected, &ctx.doc.scenario) {
        (Some(Sel::Corps(a, c) | Sel::Leader(a, c)), Some(f)) => f
            .scenario
            .armies
            .get(a)
            .and_then(|army| army.corps.get(c))
            .map(|c| Owner::Corps(c.id.clone())),
        (Some(sel), Some(f)) => sel
            .army_index()
            .and_then(|a| f.scenario.armies.get(a))
            .map(|a| Owner::Army(a.id.clone())),
        _ => None,
    };
    if let Some((label, changes)) = zone_tool.options_ui(ui, ctx.doc, unit, owner) {
        ctx.send(AppCommand::Edit { label, changes });
    }
    if zone_tool.options() != ctx.zone_tool.options() {
        ctx.send(AppCommand::ZoneOptions(zone_tool.options()));
    }
}

/// The unit tool's options: the counters not placed yet, to drag onto the map.
fn units_tool_options(ctx: &ViewContext<'_>, ui: &mut Ui) {
    let Some(file) = &ctx.doc.scenario else {
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
                        rows.push((CounterAt::Unit(a, u), unit.name.to_string()));
                    }
                }
                if rows.is_empty() {
                    continue;
                }
                any = true;
                ui.label(RichText::new(&army.name).strong());
                for (at, text) in rows {
                    let selected = ctx.selection.item == Some(Sel::from(at));
                    let resp = ui
                        .push_id(("unplaced", at_key(at)), |ui| {
                            ui.add(egui::Button::selectable(selected, text).truncate())
                        })
                        .inner
                        .interact(egui::Sense::click_and_drag());
                    resp.dnd_set_drag_payload(CounterDrop(at));
                    if resp.clicked() || resp.drag_started() {
                        select = Some(Sel::from(at));
                    }
                }
            }
        });
    if !any {
        ui.weak("Every counter is placed.");
    }
    if select.is_some() {
        ctx.send(AppCommand::Select(select));
    }
}

/// A counter's key for egui ids.
fn at_key(at: CounterAt) -> (u8, usize, usize) {
    match at {
        CounterAt::Unit(a, u) => (0, a, u),
        CounterAt::Leader(a, c) => (1, a, c),
        CounterAt::Commander(a, k) => (2, a, k),
    }
}
