//! The scenario on the map, as a map layer: zones, broken rules outlined, a selected (or
//! hovered) leader's command radius, the counters; the pointer on counters (drags from the tree
//! or between hexes, clicks that select or cycle a stack, right clicks that take a counter off,
//! Shift+wheel turning) and the ghost that follows a drag. Handed the read-only context, a
//! painter and the map's rect; it asks for every change by sending a `Command`.

use bataille_schema::{HexIndex, Scenario};
use bataille_validator::Severity;
use egui::{Color32, Pos2, Rect, Stroke};

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::layers::command_view::{CommandKey, CommandView, command_view};
use crate::map::counters::{self, Highlights, hit, stack_order};
use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use crate::tools::Tool;
use crate::tools::zone::ZoneCache;

/// A counter dragged from the tree (or the list of counters not placed) onto the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterDrop(pub CounterAt);

/// A drag of a counter on the map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapDrag {
    pub what: CounterAt,
    pub from: HexIndex,
    /// The press was on a stack whose counter was already selected: a click selects the next.
    pub cycle: bool,
}

/// The layer's own state: the zones' shapes, the drag in progress, the counter under the
/// pointer, the command view and what it was computed from.
#[derive(Default)]
pub struct ScenarioLayer {
    pub zones: ZoneCache,
    pub drag: Option<MapDrag>,
    pub hovered_counter: Option<CounterAt>,
    command_cache: Option<(CommandKey, Option<CommandView>)>,
    /// A leader is selected or hovered this frame: its command view is shown.
    command_shown: bool,
}

/// The pointer's buttons this frame, as the map saw them.
struct Press {
    pressed: bool,
    down_on: bool,
    primary: bool,
    secondary: bool,
    /// Space or Alt held: the press pans or picks, it is not the counters'.
    held_key: bool,
}

impl ScenarioLayer {
    /// Forgets the previous document's drag and command view.
    pub fn reset(&mut self) {
        self.drag = None;
        self.hovered_counter = None;
        self.command_cache = None;
    }

    /// The command view drawn in the last frame (of the hovered or selected leader), if any.
    pub fn command_view(&self) -> Option<&CommandView> {
        self.command_cache
            .as_ref()
            .filter(|_| self.command_shown)
            .and_then(|(_, v)| v.as_ref())
    }

    /// The zones, tinted by owner, and broken rules outlined.
    fn paint_zones(&mut self, ctx: &ViewContext<'_>, painter: &egui::Painter, rect: Rect) {
        let grid = &ctx.doc.map.grid;
        let scenario = ctx.doc.scenario.as_ref().map(|f| &f.scenario);
        self.zones.refresh(ctx.scenario_revision, scenario, grid);
        let view = ctx.view;
        let selected = ctx.selection.item;
        // Zones: all while the zone tool is on (the chosen one stronger), else the selected
        // zone or the selected free unit's.
        let highlight = match (selected, scenario) {
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
        let highlight = if ctx.tools.tool == Tool::Zone {
            ctx.zone_tool.zone.or(highlight)
        } else {
            highlight
        };
        self.zones
            .paint(painter, view, rect, grid, ctx.zone_tool.show, highlight);
        // Broken rules: amber warnings under red errors.
        let visible = view.visible_grid_rect(rect).expand(1.0);
        let mut outlined: Vec<(HexIndex, Severity)> = Vec::new();
        for d in ctx.diagnostics {
            if let Some(hex) = d.hex.as_deref().and_then(|h| grid.lookup(&h.into())) {
                let [x, y] = grid.centre(hex);
                if visible.contains(egui::pos2(x, y)) {
                    outlined.push((hex, d.severity));
                }
            }
        }
        outlined.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        outlined.dedup();
        for (hex, severity) in outlined {
            for stroke in outline_strokes(severity) {
                view.outline_hex(painter, grid, rect, hex, stroke);
            }
        }
    }

    /// The counters, the selected leader's units outlined in and out of command.
    fn paint_counters(&mut self, ctx: &ViewContext<'_>, painter: &egui::Painter, rect: Rect) {
        let grid = &ctx.doc.map.grid;
        let scenario = ctx.doc.scenario.as_ref().map(|f| &f.scenario);
        let view = ctx.view;
        let selected = ctx.selection.item;
        let mut highlights = Highlights {
            selected: selected.and_then(CounterAt::of),
            hovered: self.hovered_counter,
            dragged: self.drag.map(|d| d.what),
            ..Default::default()
        };
        // A leader or commander under the pointer shows its radius; else the selection's.
        let focus = self
            .hovered_counter
            .filter(|c| !matches!(c, CounterAt::Unit(..)))
            .map(Sel::from)
            .or(selected);
        self.command_shown = focus.is_some() && scenario.is_some();
        if let (Some(sel), Some(s)) = (focus, scenario) {
            let key = CommandKey {
                sel,
                revision: ctx.scenario_revision,
                diagnostics: ctx.diagnostics_revision,
            };
            let cached = matches!(&self.command_cache, Some((k, _)) if *k == key);
            if !cached {
                let view = command_view(s, grid, sel, ctx.diagnostics);
                self.command_cache = Some((key, view));
            }
            if let Some((_, Some(command))) = &self.command_cache {
                highlights.in_command = command.in_command.clone();
                highlights.out_of_command = command.out_of_command.clone();
            }
        }
        counters::paint(
            painter,
            view,
            rect,
            grid,
            ctx.counters,
            &highlights,
            scenario,
        );
    }

    /// The selected or hovered leader's command radius (computed with the counters).
    fn paint_command_radius(&self, ctx: &ViewContext<'_>, painter: &egui::Painter, rect: Rect) {
        let view = ctx.view;
        if let Some(command) = self.command_view() {
            // A white line on a dark one: it reads over any terrain and zone colour.
            let mut shapes: Vec<egui::Shape> = Vec::with_capacity(command.ring.len() * 2);
            for (width, colour) in [(5.0, Color32::from_black_alpha(160)), (2.5, Color32::WHITE)] {
                shapes.extend(command.ring.iter().map(|[a, b]| {
                    egui::Shape::line_segment(
                        [view.to_screen(rect, *a), view.to_screen(rect, *b)],
                        Stroke::new(width, colour),
                    )
                }));
            }
            painter.extend(shapes);
        }
    }

    /// Map input for counters (drags from the tree or between hexes, clicks, Shift+wheel).
    /// Returns true when it took the input, so that the tool makes no stroke of it. `tap`: a
    /// click pressed and released within this frame, which acts exactly like a held one.
    pub fn input(
        &mut self,
        ctx: &ViewContext<'_>,
        ui: &egui::Ui,
        response: &egui::Response,
        pointer: Option<Pos2>,
        tap: Option<egui::PointerButton>,
    ) -> bool {
        if ctx.doc.scenario.is_none() {
            self.drag = None;
            return false;
        }
        let rect = response.rect;
        let grid = &ctx.doc.map.grid;
        let hex_under = pointer.and_then(|p| ctx.view.hex_at(grid, rect, p));
        // A counter dropped from the tree or the list of counters not placed.
        if let Some(drop) = response.dnd_release_payload::<CounterDrop>() {
            if let Some(hex) = hex_under {
                ctx.send(AppCommand::PlaceCounter(drop.0, hex));
            }
            return true;
        }
        if egui::DragAndDrop::has_payload_of_type::<CounterDrop>(ui.ctx()) {
            return true;
        }
        let hit_here = if response.hovered() || self.drag.is_some() {
            pointer.and_then(|p| hit(ctx.view, rect, grid, ctx.counters, p))
        } else {
            None
        };
        self.hovered_counter = hit_here.map(|(_, at)| at).filter(|_| response.hovered());
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
            && let Some(sel) = ctx.selection.counter()
            && hit_here.is_some_and(|(_, at)| at == sel)
        {
            ctx.send(if turns < 0.0 {
                UiCommand::RotateClockwise
            } else {
                UiCommand::RotateAnticlockwise
            });
        }
        let tool = ctx.tools.tool;
        if !matches!(tool, Tool::Select | Tool::Units) {
            self.drag = None;
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
        let (pressed, primary, secondary) = match tap {
            Some(b) => (
                true,
                b == egui::PointerButton::Primary,
                b == egui::PointerButton::Secondary,
            ),
            None => (pressed, primary, secondary),
        };
        let press = Press {
            pressed,
            down_on: response.is_pointer_button_down_on() || tap.is_some(),
            primary,
            secondary,
            held_key: space || alt,
        };
        let took = self.counter_press(ctx, hit_here, hex_under, tool, &press);
        if tap.is_some() && self.drag.is_some() {
            // Released in the same frame: the drag ends where it began (a click).
            let up = Press {
                pressed: false,
                down_on: false,
                primary: false,
                secondary: false,
                held_key: false,
            };
            self.counter_press(ctx, None, hex_under, tool, &up);
        }
        took
    }

    /// A press on the map with the select or unit tool: starts a counter drag, selects, takes a
    /// counter off (right click) — or ends the drag when the button is up.
    fn counter_press(
        &mut self,
        ctx: &ViewContext<'_>,
        hit_here: Option<(HexIndex, CounterAt)>,
        hex_under: Option<HexIndex>,
        tool: Tool,
        press: &Press,
    ) -> bool {
        if let Some(drag) = self.drag {
            if !press.down_on {
                self.drag = None;
                match hex_under {
                    Some(hex) if hex != drag.from => {
                        ctx.send(AppCommand::PlaceCounter(drag.what, hex));
                    }
                    _ if drag.cycle => {
                        // A click on a stack whose counter was selected: the next one.
                        let order = stack_order(ctx.counters, drag.from);
                        if let Some(i) = order.iter().position(|a| *a == drag.what) {
                            let next = order[(i + 1) % order.len()];
                            ctx.send(AppCommand::Select(Some(Sel::from(next))));
                        }
                    }
                    _ => {}
                }
            }
            return true;
        }
        if !(press.pressed && press.down_on)
            || press.held_key
            || !(press.primary || press.secondary)
        {
            return false;
        }
        if press.secondary {
            if tool == Tool::Units
                && let Some((_, at)) = hit_here
            {
                ctx.send(AppCommand::Select(Some(Sel::from(at))));
                ctx.send(UiCommand::RemoveFromMap);
                return true;
            }
            return false;
        }
        match hit_here {
            Some((hex, at)) => {
                let order = stack_order(ctx.counters, hex);
                let (what, cycle) = match ctx.selection.counter() {
                    Some(sel) if order.contains(&sel) => (sel, true),
                    _ => (at, false),
                };
                ctx.send(AppCommand::Select(Some(Sel::from(what))));
                self.drag = Some(MapDrag {
                    what,
                    from: hex,
                    cycle,
                });
                true
            }
            None => {
                if tool == Tool::Units
                    && let (Some(at), Some(hex)) = (ctx.selection.counter(), hex_under)
                    && ctx.counter_hex(at) != Some(hex)
                {
                    ctx.send(AppCommand::PlaceCounter(at, hex));
                    return true;
                }
                if tool == Tool::Select && ctx.selection.item.is_some() {
                    ctx.send(AppCommand::Select(None));
                }
                false
            }
        }
    }

    /// What follows the pointer: a counter being dragged and the hex it would land on.
    pub fn paint_drag(
        &self,
        ctx: &ViewContext<'_>,
        painter: &egui::Painter,
        rect: Rect,
        pointer: Option<Pos2>,
    ) {
        let dragged = self
            .drag
            .map(|d| d.what)
            .or_else(|| egui::DragAndDrop::payload::<CounterDrop>(painter.ctx()).map(|p| p.0));
        let (Some(at), Some(pos)) = (dragged, pointer) else {
            return;
        };
        if !rect.contains(pos) {
            return;
        }
        let grid = &ctx.doc.map.grid;
        if let Some(hex) = ctx.view.hex_at(grid, rect, pos) {
            ctx.view.outline_hex(
                painter,
                grid,
                rect,
                hex,
                Stroke::new(3.0, counters::SELECTED),
            );
        }
        let Some(s) = ctx.doc.scenario.as_ref().map(|f| &f.scenario) else {
            return;
        };
        let side = counters::side_px(ctx.view).max(24.0);
        match ghost_look(s, grid, at) {
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

fn ghost_look(s: &Scenario, grid: &bataille_schema::Grid, at: CounterAt) -> Ghost {
    let colour_of = |a: usize, id: Option<&bataille_schema::Id>| {
        s.armies
            .get(a)
            .and_then(|army| army.corps.iter().find(|c| Some(&c.id) == id))
            .map_or(Color32::GRAY, |c| {
                crate::map::view::colour32(&c.colour, Color32::GRAY)
            })
    };
    match at {
        CounterAt::Unit(a, u) => {
            let Some((army, unit)) = s
                .armies
                .get(a)
                .and_then(|army| Some((army, army.units.get(u)?)))
            else {
                return Ghost::None;
            };
            // The counter as it looks on the map (render's one look), without its facing.
            let look = bataille_render::symbology::Looks::new(s, grid.orientation);
            Ghost::Unit(counters::UnitLook {
                at,
                look: bataille_render::symbology::CounterLook {
                    facing: None,
                    ..look.unit(army, unit)
                },
                army_colour: Color32::GRAY,
                shown: counters::shown_values(&s.rules.counters),
            })
        }
        CounterAt::Leader(a, c) => {
            let Some(corps) = s.armies.get(a).and_then(|x| x.corps.get(c)) else {
                return Ghost::None;
            };
            Ghost::Leader(counters::LeaderLook {
                at,
                colour: colour_of(a, Some(&corps.id)),
                army_colour: Color32::GRAY,
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
                army_colour: Color32::GRAY,
                commander: true,
                name: chief.name.clone(),
            })
        }
    }
}

/// A broken rule's outline, bottom first: a pure red (error) or amber (warning) line on a
/// casing, which no zone's thin outline of its owner's colour has, so that a red army's zone
/// and an error never look alike (issue 21).
pub fn outline_strokes(severity: Severity) -> [Stroke; 2] {
    match severity {
        Severity::Error => [
            Stroke::new(6.0, Color32::WHITE),
            Stroke::new(3.0, Color32::from_rgb(225, 0, 0)),
        ],
        Severity::Warning => [
            Stroke::new(6.0, Color32::from_black_alpha(200)),
            Stroke::new(3.0, Color32::from_rgb(255, 170, 0)),
        ],
    }
}

/// The zones and broken rules, as a map layer.
pub struct Zones<'l>(pub &'l mut ScenarioLayer);

impl crate::layers::MapLayer for Zones<'_> {
    fn kind(&self) -> crate::layers::MapLayerKind {
        crate::layers::MapLayerKind::Zones
    }
    fn paint(&mut self, cx: &ViewContext<'_>, map: &crate::layers::MapFrame<'_>) {
        self.0.paint_zones(cx, map.painter, map.rect);
    }
}

/// The counters and their drags, as a map layer.
pub struct Counters<'l>(pub &'l mut ScenarioLayer);

impl crate::layers::MapLayer for Counters<'_> {
    fn kind(&self) -> crate::layers::MapLayerKind {
        crate::layers::MapLayerKind::Counters
    }
    fn paint(&mut self, cx: &ViewContext<'_>, map: &crate::layers::MapFrame<'_>) {
        self.0.paint_counters(cx, map.painter, map.rect);
    }
    fn input(
        &mut self,
        cx: &ViewContext<'_>,
        map: &crate::layers::MapFrame<'_>,
        pointer: &crate::layers::MapPointer<'_>,
    ) -> bool {
        self.0
            .input(cx, pointer.ui, pointer.response, map.pointer, pointer.tap)
    }
}

/// The command radius, as a map layer.
pub struct CommandRadius<'l>(pub &'l ScenarioLayer);

impl crate::layers::MapLayer for CommandRadius<'_> {
    fn kind(&self) -> crate::layers::MapLayerKind {
        crate::layers::MapLayerKind::CommandRadius
    }
    fn paint(&mut self, cx: &ViewContext<'_>, map: &crate::layers::MapFrame<'_>) {
        self.0.paint_command_radius(cx, map.painter, map.rect);
    }
}
