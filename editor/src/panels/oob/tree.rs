//! The order-of-battle tree: rows (army → commanders → corps → line leader and units) with a
//! filter, folding, keyboard navigation, drag sources and a context menu.

use super::*;

impl OobPanel {
    pub(super) fn rows(&self, s: &Scenario) -> Vec<Row> {
        let filter = self.filter.trim().to_lowercase();
        let filtering = !filter.is_empty() || self.only_unplaced;
        let total: usize = s.armies.iter().map(|a| a.units.len()).sum();
        let mut rows = Vec::new();
        for (a, army) in s.armies.iter().enumerate() {
            let mut army_rows = Vec::new();
            let corps_ids: HashSet<&str> = army.corps.iter().map(|c| c.id.as_str()).collect();
            let mut members: HashMap<&str, Vec<usize>> = HashMap::new();
            let mut loose = Vec::new();
            for (u, unit) in army.units.iter().enumerate() {
                match unit
                    .corps
                    .as_ref()
                    .filter(|c| corps_ids.contains(c.as_str()))
                {
                    Some(c) => members.entry(c.as_str()).or_default().push(u),
                    None => loose.push(u),
                }
            }
            let unit_ok = |u: &usize| {
                let unit = &army.units[*u];
                matches(&filter, &unit.name, unit.id.as_str())
                    && (!self.only_unplaced || needs_placing(&unit.placement))
            };
            for (k, chief) in army.commanders.iter().enumerate() {
                let ok = if self.only_unplaced {
                    needs_placing(&chief.placement)
                        && matches(&filter, &chief.name, chief.id.as_str())
                } else {
                    matches(&filter, &chief.name, chief.id.as_str())
                };
                if ok {
                    army_rows.push(Row::Commander(a, k));
                }
            }
            for (c, corps) in army.corps.iter().enumerate() {
                let units: Vec<usize> = members
                    .get(corps.id.as_str())
                    .map(|m| m.iter().copied().filter(unit_ok).collect())
                    .unwrap_or_default();
                let leader_ok = corps.leader.as_ref().is_some_and(|l| {
                    matches(&filter, &l.name, l.id.as_str())
                        && (!self.only_unplaced || needs_placing(&l.placement))
                });
                let corps_ok = !filtering
                    || matches(&filter, &corps.name, corps.id.as_str()) && !self.only_unplaced;
                if filtering && units.is_empty() && !leader_ok && !corps_ok {
                    continue;
                }
                army_rows.push(Row::Corps(a, c));
                if filtering || self.is_open(Node::Corps(a, c), total) {
                    if corps.leader.is_some() && (!filtering || leader_ok || corps_ok) {
                        army_rows.push(Row::Leader(a, c));
                    }
                    army_rows.extend(units.into_iter().map(|u| Row::Unit(a, u)));
                }
            }
            let loose: Vec<usize> = loose.into_iter().filter(unit_ok).collect();
            if !loose.is_empty() {
                army_rows.push(Row::NoCorps(a));
                if filtering || self.is_open(Node::NoCorps(a), total) {
                    army_rows.extend(loose.into_iter().map(|u| Row::Unit(a, u)));
                }
            }
            if filtering && army_rows.is_empty() && !matches(&filter, &army.name, army.id.as_str())
            {
                continue;
            }
            rows.push(Row::Army(a));
            if filtering || self.is_open(Node::Army(a), total) {
                rows.extend(army_rows);
            }
        }
        if !filtering {
            rows.push(Row::Zones);
            if self.is_open(Node::Zones, total) {
                rows.extend((0..s.zones.len()).map(Row::Zone));
            }
        }
        rows
    }

    pub(super) fn row_text(s: &Scenario, sizes: &CorpsSizes, row: Row) -> (String, Swatch) {
        let missing = ("?".to_owned(), Swatch::None);
        match row {
            Row::Army(a) => {
                let Some(army) = s.armies.get(a) else {
                    return missing;
                };
                (
                    format!(
                        "⚑ {} ({})",
                        army.name,
                        crate::panels::widgets::count(army.units.len(), "unit")
                    ),
                    Swatch::None,
                )
            }
            Row::Commander(a, k) => {
                let Some(c) = s.armies.get(a).and_then(|x| x.commanders.get(k)) else {
                    return missing;
                };
                let radius = c
                    .radius_hexes
                    .unwrap_or(s.rules.command.commander_radius_hexes);
                (
                    format!(
                        "★ {} · radius {radius} · {}",
                        c.name,
                        place_short(&c.placement)
                    ),
                    Swatch::None,
                )
            }
            Row::Corps(a, c) => {
                let Some(corps) = s.armies.get(a).and_then(|x| x.corps.get(c)) else {
                    return missing;
                };
                let n = sizes
                    .get(a)
                    .and_then(|m| m.get(corps.id.as_str()))
                    .copied()
                    .unwrap_or(0);
                (
                    format!("{} ({n})", corps.name),
                    Swatch::Colour(colour32(&corps.colour, Color32::GRAY)),
                )
            }
            Row::NoCorps(_) => (
                "Units without a corps".to_owned(),
                Swatch::Colour(Color32::GRAY),
            ),
            Row::Leader(a, c) => {
                let Some(corps) = s.armies.get(a).and_then(|x| x.corps.get(c)) else {
                    return missing;
                };
                match &corps.leader {
                    Some(l) => (
                        format!("◎ {} (line leader) · {}", l.name, place_short(&l.placement)),
                        Swatch::None,
                    ),
                    None => (String::new(), Swatch::None),
                }
            }
            Row::Unit(a, u) => {
                let Some((army, unit)) = s
                    .armies
                    .get(a)
                    .and_then(|army| Some((army, army.units.get(u)?)))
                else {
                    return missing;
                };
                // The swatch shows no facing: any orientation will do.
                let look = Looks::new(s, Orientation::Flat).unit(army, unit);
                (
                    format!(
                        "{}  {} · {}",
                        unit.name,
                        unit_values(unit, &s.rules.counters),
                        place_short(&unit.placement)
                    ),
                    Swatch::Counter(look),
                )
            }
            Row::Zones => (
                format!("Deployment zones ({})", s.zones.len()),
                Swatch::None,
            ),
            Row::Zone(z) => {
                let Some(zone) = s.zones.get(z) else {
                    return missing;
                };
                (
                    format!(
                        "{} — {} ({} hexes)",
                        zone.name,
                        owner_name(s, &zone.owner),
                        zone.hexes.len()
                    ),
                    Swatch::Colour(crate::tools::zone::zone_colour(s, zone)),
                )
            }
        }
    }

    /// The right dock's order-of-battle page.
    pub(super) fn tree_ui(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        grid: &Grid,
        rows: &[Row],
        cx: &ViewContext<'_>,
    ) {
        let total: usize = s.armies.iter().map(|a| a.units.len()).sum();
        let _ = grid;
        // Units per corps, counted once per scenario revision.
        if self.corps_sizes.0 != self.revision {
            let sizes: CorpsSizes = s
                .armies
                .iter()
                .map(|army| {
                    let mut counts: HashMap<String, usize> = HashMap::new();
                    for unit in &army.units {
                        if let Some(c) = &unit.corps {
                            *counts.entry(c.as_str().to_owned()).or_default() += 1;
                        }
                    }
                    counts
                })
                .collect();
            self.corps_sizes = (self.revision, std::sync::Arc::new(sizes));
        }
        let sizes = self.corps_sizes.1.clone();
        // Keys while a row has the focus: ↑ ↓ move, ← → fold and unfold, Enter edits.
        let current = self
            .selected
            .and_then(|sel| rows.iter().position(|r| r.sel() == Some(sel)));
        let mut focus_selected = false;
        if self.tree_focused {
            let (up, down, left, right) = ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
                )
            });
            let step = |from: Option<usize>, forward: bool| -> Option<usize> {
                let mut i = from.map_or(if forward { 0 } else { rows.len() }, |c| {
                    if forward { c + 1 } else { c }
                });
                loop {
                    if forward {
                        let r = rows.get(i)?;
                        if r.sel().is_some() {
                            return Some(i);
                        }
                        i += 1;
                    } else {
                        i = i.checked_sub(1)?;
                        if rows[i].sel().is_some() {
                            return Some(i);
                        }
                    }
                }
            };
            let target = if down {
                step(current, true)
            } else if up {
                step(current, false)
            } else {
                None
            };
            if let Some(t) = target.and_then(|t| rows.get(t)).and_then(|r| r.sel()) {
                self.selected = Some(t);
                select(cx, Some(t));
                self.scroll_to_selected = true;
                focus_selected = true;
            }
            if (left || right)
                && let Some(row) = current.and_then(|c| rows.get(c))
            {
                let node = match row {
                    Row::Army(a) => Some(Node::Army(*a)),
                    Row::Corps(a, c) => Some(Node::Corps(*a, *c)),
                    _ => None,
                };
                if let Some(node) = node {
                    self.open.insert(node, right);
                    self.open_version += 1;
                }
            }
        }
        let row_height = ui.spacing().interact_size.y;
        let spacing = ui.spacing().item_spacing.y;
        let mut scroll = egui::ScrollArea::vertical()
            .id_salt("oob-tree")
            .max_height((ui.available_height() * 0.5).max(120.0))
            .auto_shrink([false, true]);
        if self.scroll_to_selected
            && let Some(i) = self
                .selected
                .and_then(|sel| rows.iter().position(|r| r.sel() == Some(sel)))
        {
            let want = (i as f32 * (row_height + spacing) - 60.0).max(0.0);
            let state = egui::scroll_area::State::load(ui.ctx(), ui.make_persistent_id("oob-tree"));
            let visible = state.map_or(0.0, |st| st.clamped_offset().y);
            let height = (ui.available_height() * 0.55).max(120.0);
            let y = i as f32 * (row_height + spacing);
            if y < visible || y + row_height > visible + height {
                scroll = scroll.vertical_scroll_offset(want);
            }
        }
        self.scroll_to_selected = false;
        let mut any_focus = false;
        let mut toggles = Vec::new();
        scroll.show_rows(ui, row_height, rows.len(), |ui, range| {
            for i in range {
                let Some(&row) = rows.get(i) else {
                    continue;
                };
                ui.horizontal(|ui| {
                    ui.set_height(row_height);
                    ui.add_space(14.0 * row.depth() as f32);
                    if let Some(node) = row.node() {
                        let open = self.is_open(node, total);
                        let icon = if open { "⏷" } else { "⏵" };
                        if ui
                            .small_button(icon)
                            .on_hover_text("Fold or unfold")
                            .clicked()
                        {
                            toggles.push((node, !open));
                        }
                    }
                    let (mut text, swatch) = Self::row_text(s, &sizes, row);
                    let changed = self
                        .changed
                        .as_ref()
                        .is_some_and(|(_, ids)| row_id(s, row).is_some_and(|id| ids.contains(id)));
                    if changed {
                        // A variant's change from its base scenario.
                        text.push_str(" · changed");
                    }
                    swatch.ui(ui);
                    let sel = row.sel();
                    let selected = sel.is_some() && sel == self.selected;
                    let text = if matches!(row, Row::Army(_) | Row::Corps(..) | Row::Zones) {
                        RichText::new(text).strong()
                    } else {
                        RichText::new(text)
                    };
                    let resp = ui
                        .push_id(("oob-row", row), |ui| {
                            ui.add(egui::Button::selectable(selected, text).truncate())
                        })
                        .inner;
                    let resp = resp.interact(egui::Sense::click_and_drag());
                    if resp.has_focus() {
                        any_focus = true;
                        ui.memory_mut(|m| {
                            m.set_focus_lock_filter(
                                resp.id,
                                egui::EventFilter {
                                    horizontal_arrows: true,
                                    vertical_arrows: true,
                                    ..Default::default()
                                },
                            )
                        });
                        if !selected && sel.is_some() && resp.gained_focus() {
                            self.selected = sel;
                            select(cx, sel);
                        }
                    }
                    let first_focusable = sel.is_some() && self.selected.is_none();
                    if self.focus_tree && (selected || first_focusable) {
                        self.focus_tree = false;
                        resp.request_focus();
                        any_focus = true;
                    }
                    if selected && focus_selected {
                        // The keys moved the selection: the focus follows it.
                        resp.request_focus();
                        any_focus = true;
                    }
                    if resp.clicked() {
                        if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                            self.focus_form = true;
                            cx.send(UiCommand::GoToSelection);
                        } else if row.node().is_some() && sel.is_none() {
                            toggles.push((
                                row.node().unwrap_or(Node::Zones),
                                !self.is_open(row.node().unwrap_or(Node::Zones), total),
                            ));
                        }
                        if sel.is_some() {
                            self.selected = sel;
                            select(cx, sel);
                            if resp.double_clicked() {
                                cx.send(UiCommand::GoToSelection);
                            }
                        }
                        resp.request_focus();
                        any_focus = true;
                    }
                    if let Some(at) = sel.and_then(CounterAt::of) {
                        resp.dnd_set_drag_payload(CounterDrop(at));
                        if resp.drag_started() {
                            self.selected = sel;
                            select(cx, sel);
                        }
                    }
                    if let Some(sel) = sel {
                        resp.context_menu(|ui| self.context_menu(ui, s, sel, cx));
                    }
                });
            }
        });
        for (node, open) in toggles {
            self.open.insert(node, open);
            self.open_version += 1;
        }
        self.tree_focused = any_focus;
    }

    pub(super) fn context_menu(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        sel: Sel,
        cx: &ViewContext<'_>,
    ) {
        match sel {
            Sel::Army(a) => {
                if ui.button("Add corps").clicked() {
                    send_edit(cx, add_corps(s, a));
                    let n = s.armies.get(a).map_or(0, |x| x.corps.len());
                    select(cx, Some(Sel::Corps(a, n)));
                    ui.close();
                }
                if ui.button("Add commander").clicked() {
                    send_edit(cx, add_commander(s, a));
                    let n = s.armies.get(a).map_or(0, |x| x.commanders.len());
                    select(cx, Some(Sel::Commander(a, n)));
                    ui.close();
                }
            }
            Sel::Corps(a, c) => {
                if ui.button("Add unit").clicked() {
                    if let Some((edit, sel)) = add_unit(s, a, Some(c)) {
                        send_edit(cx, edit);
                        select(cx, Some(sel));
                    }
                    ui.close();
                }
            }
            Sel::Unit(a, u) => {
                if ui.button("Duplicate").clicked() {
                    if let Some((edit, sel)) = duplicate_unit(s, a, u) {
                        send_edit(cx, edit);
                        select(cx, Some(sel));
                    }
                    ui.close();
                }
                if ui.button("Delete").clicked() {
                    send_edit(cx, delete_unit(s, a, u));
                    select(cx, None);
                    ui.close();
                }
            }
            _ => {
                ui.weak("Edit it in the form below.");
            }
        }
    }
}

/// The id of a row's counter or zone (what a variant changes by).
fn row_id(s: &Scenario, row: Row) -> Option<&str> {
    match row {
        Row::Commander(a, k) => s.armies.get(a)?.commanders.get(k).map(|c| c.id.as_str()),
        Row::Leader(a, c) => s
            .armies
            .get(a)?
            .corps
            .get(c)?
            .leader
            .as_ref()
            .map(|l| l.id.as_str()),
        Row::Unit(a, u) => s.armies.get(a)?.units.get(u).map(|u| u.id.as_str()),
        Row::Zone(z) => s.zones.get(z).map(|z| z.id.as_str()),
        Row::Army(_) | Row::Corps(..) | Row::NoCorps(_) | Row::Zones => None,
    }
}
