//! The scenario on the map: zones, broken rules outlined, a selected leader's command radius,
//! counters; counter drags (tree → hex, hex → hex) and their ghost.

use super::*;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // The map.

    /// Draws the scenario's layers over the terrain.
    pub(crate) fn paint_scenario(&mut self, painter: &egui::Painter, rect: Rect) {
        let grid = &self.doc.map.grid;
        let scenario = self.doc.scenario.as_ref().map(|f| &f.scenario);
        self.oob
            .counters
            .refresh(self.doc.scenario_revision(), scenario, grid);
        self.oob
            .zones
            .refresh(self.doc.scenario_revision(), scenario, grid);
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
                revision: self.doc.scenario_revision(),
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
        tap: Option<egui::PointerButton>,
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
        let (pressed, primary, secondary) = match tap {
            Some(b) => (
                true,
                b == egui::PointerButton::Primary,
                b == egui::PointerButton::Secondary,
            ),
            None => (pressed, primary, secondary),
        };
        let down_on = response.is_pointer_button_down_on() || tap.is_some();
        let took = self.counter_press(
            hit_here,
            hex_under,
            tool,
            pressed,
            down_on,
            primary,
            secondary,
            space || alt,
        );
        if tap.is_some() && self.oob.drag.is_some() {
            // Released in the same frame: the drag ends where it began (a click).
            self.counter_press(None, hex_under, tool, false, false, false, false, false);
        }
        took
    }

    /// A press on the map with the select or unit tool: starts a counter drag, selects, takes a
    /// counter off (right click) — or ends the drag when the button is up.
    #[allow(clippy::too_many_arguments)]
    fn counter_press(
        &mut self,
        hit_here: Option<(bataille_schema::HexIndex, CounterAt)>,
        hex_under: Option<bataille_schema::HexIndex>,
        tool: Tool,
        pressed: bool,
        down_on: bool,
        primary: bool,
        secondary: bool,
        held_key: bool,
    ) -> bool {
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
        if !(pressed && down_on) || held_key || !(primary || secondary) {
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
                crate::map::view::colour32(&c.colour, Color32::GRAY)
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
