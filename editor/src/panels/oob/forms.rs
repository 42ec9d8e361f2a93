//! The forms of the selected item (army, commander, corps, unit, zone): every field of the
//! model, edited through a draft and committed by Enter, focus lost or a choice.

use super::draft::*;
use super::*;
use crate::panels::ratings::leader_ratings_ui;

impl OobPanel {
    // -----------------------------------------------------------------------------------------
    // Forms.

    pub(super) fn draft_of(s: &Scenario, grid: &Grid, sel: Sel) -> Option<Draft> {
        let _ = grid;
        let mut texts = BTreeMap::new();
        let mut placement_kind = 0;
        let mut leader_placed = false;
        let value = match sel {
            Sel::Army(a) => {
                let army = s.armies.get(a)?;
                texts.insert("id", army.id.to_string());
                texts.insert("name", army.name.clone());
                DraftValue::Army(ArmyHeader::of(army))
            }
            Sel::Commander(a, k) => {
                let c = s.armies.get(a)?.commanders.get(k)?;
                texts.insert("id", c.id.to_string());
                texts.insert("name", c.name.clone());
                texts.insert("radius", opt_text(c.radius_hexes));
                texts.insert("hex", opt_text(c.placement.hex()));
                DraftValue::Commander(c.clone())
            }
            Sel::Corps(a, c) | Sel::Leader(a, c) => {
                let corps = s.armies.get(a)?.corps.get(c)?;
                texts.insert("id", corps.id.to_string());
                texts.insert("name", corps.name.clone());
                texts.insert("colour", corps.colour.to_string());
                if let Some(l) = &corps.leader {
                    texts.insert("leader-id", l.id.to_string());
                    texts.insert("leader-name", l.name.clone());
                    texts.insert("activation", l.activation.to_string());
                    texts.insert("leader-radius", opt_text(l.radius_hexes));
                    texts.insert("leader-hex", opt_text(l.placement.hex()));
                    leader_placed = l.placement.hex().is_some();
                }
                DraftValue::Corps(corps.clone())
            }
            Sel::Unit(a, u) => {
                let unit = s.armies.get(a)?.units.get(u)?;
                texts.insert("id", unit.id.to_string());
                texts.insert("name", unit.name.to_string());
                texts.insert("cp", opt_text(unit.cp));
                texts.insert("mp", opt_text(unit.mp));
                texts.insert("morale", opt_text(unit.morale));
                texts.insert("fire", opt_text(unit.fire_modifier));
                let (kind, hex, at, turn, entry) = match &unit.placement {
                    Placement::Unplaced => (
                        0,
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                    ),
                    Placement::Hex(h) => (
                        1,
                        h.to_string(),
                        String::new(),
                        String::new(),
                        String::new(),
                    ),
                    Placement::Free { at, .. } => (
                        2,
                        String::new(),
                        opt_text(at.as_ref()),
                        String::new(),
                        String::new(),
                    ),
                    Placement::Reinforcement { turn, entry } => (
                        3,
                        String::new(),
                        String::new(),
                        turn.to_string(),
                        entry
                            .iter()
                            .map(HexName::as_str)
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                };
                placement_kind = kind;
                texts.insert("hex", hex);
                texts.insert("at", at);
                texts.insert("turn", turn);
                texts.insert("entry", entry);
                DraftValue::Unit(unit.clone())
            }
            Sel::Zone(z) => {
                let zone = s.zones.get(z)?;
                texts.insert("id", zone.id.to_string());
                texts.insert("name", zone.name.clone());
                DraftValue::Zone(zone.clone())
            }
        };
        Some(Draft {
            sel,
            original: value.clone(),
            value,
            texts: texts
                .into_iter()
                .map(|(key, text)| (key, Field::new(text)))
                .collect(),
            placement_kind,
            placement_kind_before: placement_kind,
            leader_placed,
            ratings: Default::default(),
        })
    }

    pub(super) fn form_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        s: &Scenario,
        cx: &ViewContext<'_>,
    ) {
        let grid = &doc.map.grid;
        let Some(sel) = self.selected else {
            self.draft = None;
            ui.weak("Select a row to edit it; drag a unit, leader or commander onto the map to place it.");
            ui.weak("Up and Down move in the tree, Left and Right fold, Enter edits; R / Shift+R turn the selected counter, Delete takes it off the map.");
            return;
        };
        let fresh = Self::draft_of(s, grid, sel);
        let reset = match (&self.draft, &fresh) {
            (Some(d), Some(f)) => d.sel != sel || d.original != f.original,
            _ => true,
        };
        if reset {
            // A field still being typed in when another row was chosen is kept, not lost.
            if let Some(mut old) = self.draft.take()
                && old.sel != sel
                && Self::draft_of(s, grid, old.sel).is_some_and(|f| f.original == old.original)
            {
                old.read_texts(grid);
                if old.value != old.original
                    && let Some((edit, _)) = old.changes(s)
                {
                    send_edit(cx, edit);
                }
            }
            self.draft = fresh;
        }
        let Some(mut draft) = self.draft.take() else {
            return;
        };
        let focus = std::mem::take(&mut self.focus_form);
        // An opened variant: the base's values beside the changed fields (issue 25), as in
        // the inspector.
        match sel {
            Sel::Zone(z) => crate::panels::variant_base::zone_base_ui(cx, ui, s, z),
            sel => {
                if let Some(at) = CounterAt::of(sel) {
                    crate::panels::variant_base::counter_base_ui(cx, ui, s, at);
                }
            }
        }
        let commit = match &mut draft.value {
            DraftValue::Army(_) => self.army_form(ui, s, &mut draft, cx),
            DraftValue::Commander(_) => self.commander_form(ui, s, &mut draft, cx, focus),
            DraftValue::Corps(_) => self.corps_form(ui, s, &mut draft, cx, focus),
            DraftValue::Unit(_) => self.unit_form(ui, s, grid, &mut draft, cx, focus),
            DraftValue::Zone(_) => self.zone_form(ui, s, &mut draft, cx, focus),
        };
        if commit {
            draft.read_texts(grid);
            if draft.value != draft.original
                && let Some(edit) = draft.changes(s)
            {
                send_edit(cx, edit.0);
                if let Some(sel) = edit.1 {
                    select(cx, Some(sel));
                }
            }
        }
        self.draft = Some(draft);
    }

    pub(super) fn army_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        cx: &ViewContext<'_>,
    ) -> bool {
        let Sel::Army(a) = draft.sel else {
            return false;
        };
        let Draft { value, texts, .. } = draft;
        let DraftValue::Army(header) = value else {
            return false;
        };
        ui.heading("Army");
        let mut commit = false;
        commit |= field(texts, "id").ui(ui, "Id", "", false);
        commit |= field(texts, "name").ui(ui, "Name", "", false);
        commit |= edge_checks(ui, &mut header.friendly_edges, "");
        ui.horizontal_wrapped(|ui| {
            if ui.button("Add corps").clicked() {
                send_edit(cx, add_corps(s, a));
                select(cx, Some(Sel::Corps(a, s.armies[a].corps.len())));
            }
            if ui.button("Add commander").clicked() {
                send_edit(cx, add_commander(s, a));
                select(cx, Some(Sel::Commander(a, s.armies[a].commanders.len())));
            }
            if ui.button("Delete army").clicked() {
                send_edit(cx, delete_army(s, a));
                select(cx, None);
            }
        });
        commit
    }

    pub(super) fn commander_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        cx: &ViewContext<'_>,
        focus: bool,
    ) -> bool {
        let Sel::Commander(a, k) = draft.sel else {
            return false;
        };
        let Draft {
            value,
            texts,
            ratings,
            ..
        } = draft;
        let DraftValue::Commander(chief) = value else {
            return false;
        };
        ui.heading("Commander in chief");
        let mut commit = false;
        commit |= field(texts, "id").ui(ui, "Id", "", false);
        commit |= field(texts, "name").ui(ui, "Name", "", focus);
        let default = s.rules.command.commander_radius_hexes;
        let hint = format!("default {default} hexes");
        commit |= field(texts, "radius").ui(ui, "Radius", &hint, false);
        commit |= field(texts, "hex").ui(ui, "Hex", "", false);
        ui.label("Commands:");
        if let Some(army) = s.armies.get(a) {
            for corps in &army.corps {
                let mut on = chief.commands.contains(&corps.id);
                if ui.checkbox(&mut on, &corps.name).changed() {
                    if on {
                        chief.commands.push(corps.id.clone());
                    } else {
                        chief.commands.retain(|c| c != &corps.id);
                    }
                    commit = true;
                }
            }
        }
        let chief = s.armies.get(a).and_then(|army| army.commanders.get(k));
        let chief = chief.map(|c| (&c.id, c.name.as_str(), true));
        send_edits(
            cx,
            chief.and_then(|c| leader_ratings_ui(ui, s, c, &self.systems, ratings)),
        );
        ui.horizontal(|ui| {
            let placed = !field(texts, "hex").text.trim().is_empty();
            if ui
                .add_enabled(placed, egui::Button::new("Take off the map"))
                .clicked()
            {
                field(texts, "hex").text.clear();
                commit = true;
            }
            if ui.button("Delete").clicked() {
                send_edit(cx, delete_commander(s, a, k));
                select(cx, None);
            }
        });
        commit
    }

    pub(super) fn corps_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        cx: &ViewContext<'_>,
        focus: bool,
    ) -> bool {
        let (Sel::Corps(a, c) | Sel::Leader(a, c)) = draft.sel else {
            return false;
        };
        let leader_first = matches!(draft.sel, Sel::Leader(..));
        let Draft {
            value,
            texts,
            leader_placed,
            ratings,
            ..
        } = draft;
        let DraftValue::Corps(corps) = value else {
            return false;
        };
        let _ = leader_placed;
        // The actions first: "Add unit" never needs scrolling to.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Add unit").clicked()
                && let Some((edit, sel)) = add_unit(s, a, Some(c))
            {
                send_edit(cx, edit);
                select(cx, Some(sel));
            }
            let units: Vec<usize> = s.armies[a]
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.corps.as_ref() == Some(&s.armies[a].corps[c].id))
                .map(|(i, _)| i)
                .collect();
            let label = if units.is_empty() {
                "Delete corps".to_owned()
            } else {
                format!(
                    "Delete corps and its {}",
                    crate::panels::widgets::count(units.len(), "unit")
                )
            };
            if ui.button(label).clicked() {
                send_edit(cx, delete_corps(s, a, c));
                select(cx, None);
            }
        });
        ui.separator();
        let mut commit = false;
        if leader_first {
            commit |= leader_fields(ui, s, corps, texts, focus, (a, c), cx);
            ui.separator();
            commit |= corps_fields(ui, corps, texts, false);
        } else {
            commit |= corps_fields(ui, corps, texts, focus);
            ui.separator();
            commit |= leader_fields(ui, s, corps, texts, false, (a, c), cx);
        }
        let leader = s.armies[a].corps[c].leader.as_ref();
        let leader = leader.map(|l| (&l.id, l.name.as_str(), false));
        send_edits(
            cx,
            leader.and_then(|l| leader_ratings_ui(ui, s, l, &self.systems, ratings)),
        );
        commit
    }

    pub(super) fn unit_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        grid: &Grid,
        draft: &mut Draft,
        cx: &ViewContext<'_>,
        focus: bool,
    ) -> bool {
        let Sel::Unit(a, u) = draft.sel else {
            return false;
        };
        let Draft {
            value,
            texts,
            placement_kind,
            ratings,
            ..
        } = draft;
        let DraftValue::Unit(unit) = value else {
            return false;
        };
        ui.heading("Unit");
        // The actions first: they never need scrolling to.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Duplicate").clicked()
                && let Some((edit, sel)) = duplicate_unit(s, a, u)
            {
                send_edit(cx, edit);
                select(cx, Some(sel));
            }
            // Offered only for a unit on the map (it would do nothing otherwise).
            let take_off = remove_from_map(s, CounterAt::Unit(a, u));
            if ui
                .add_enabled(take_off.is_some(), egui::Button::new("Take off the map"))
                .clicked()
                && let Some(edit) = take_off
            {
                send_edit(cx, edit);
            }
            if ui.button("Delete").clicked() {
                send_edit(cx, delete_unit(s, a, u));
                select(cx, None);
            }
        });
        ui.separator();
        let mut commit = false;
        commit |= field(texts, "id").ui(ui, "Id", "", false);
        commit |= field(texts, "name").ui(ui, "Name", "", focus);
        let kinds: Vec<(Id, String)> = s
            .rules
            .unit_kinds
            .iter()
            .map(|(id, k)| (id.clone(), k.name.clone()))
            .collect();
        commit |= combo_row(ui, "Kind", &mut unit.kind, &kinds);
        // Corps of every army: choosing another army's corps moves the unit to that army.
        let mut corps_choices: Vec<(Option<Id>, String)> = vec![(None, "(none)".to_owned())];
        for (b, army) in s.armies.iter().enumerate() {
            for corps in &army.corps {
                let text = if b == a {
                    corps.name.clone()
                } else {
                    format!("{} › {}", army.name, corps.name)
                };
                corps_choices.push((Some(corps.id.clone()), text));
            }
        }
        commit |= combo_row(ui, "Corps", &mut unit.corps, &corps_choices);
        for (key, label) in [
            ("cp", "CP"),
            ("morale", "Morale"),
            ("mp", "MP"),
            ("fire", "Fire modifier"),
        ] {
            commit |= field(texts, key).ui(ui, label, "", false);
        }
        commit |= check_row(ui, "Always in command", &mut unit.always_in_command);
        let mut facings: Vec<(Option<Side>, String)> = vec![(None, "(none)".to_owned())];
        for side in sides(grid.orientation) {
            facings.push((Some(side), side.to_string()));
        }
        if let Some(f) = unit.facing
            && !facings.iter().any(|(v, _)| *v == Some(f))
        {
            facings.push((Some(f), f.to_string()));
        }
        commit |= combo_row(ui, "Facing", &mut unit.facing, &facings);
        ui.separator();
        let kinds = [
            (0u8, "Not placed".to_owned()),
            (1, "Fixed hex".to_owned()),
            (2, "Free in a zone".to_owned()),
            (3, "Reinforcement".to_owned()),
        ];
        if combo_row(ui, "Placement", placement_kind, &kinds) {
            commit = true;
            if *placement_kind == 2
                && !matches!(unit.placement, Placement::Free { .. })
                && let Some(zone) =
                    crate::model::defaults::own_zone(s, a, unit).or_else(|| s.zones.first())
            {
                unit.placement = Placement::Free {
                    zone: zone.id.clone(),
                    at: unit.placement.hex().cloned(),
                };
            }
        }
        match *placement_kind {
            1 => {
                commit |= field(texts, "hex").ui(ui, "Hex", "", false);
            }
            2 => {
                let zones: Vec<(Id, String)> = s
                    .zones
                    .iter()
                    .map(|z| {
                        (
                            z.id.clone(),
                            format!("{} ({})", z.name, owner_name(s, &z.owner)),
                        )
                    })
                    .collect();
                if zones.is_empty() {
                    ui.weak("No deployment zone yet: make one with the zone tool (Z).");
                } else {
                    let mut zone = match &unit.placement {
                        Placement::Free { zone, .. } => zone.clone(),
                        _ => crate::model::defaults::own_zone(s, a, unit)
                            .map_or_else(|| zones[0].0.clone(), |z| z.id.clone()),
                    };
                    if combo_row(ui, "Zone", &mut zone, &zones) {
                        commit = true;
                    }
                    let at = match &unit.placement {
                        Placement::Free { at, .. } => at.clone(),
                        _ => None,
                    };
                    unit.placement = Placement::Free { zone, at };
                    commit |= field(texts, "at").ui(ui, "At hex", "", false);
                }
            }
            3 => {
                commit |= field(texts, "turn").ui(ui, "Turn", "", false);
                commit |= field(texts, "entry").ui(ui, "Entry hexes", "", false);
                ui.weak("Entry hexes: names separated by commas, or click them with the zone tool (Z, Entry hexes).");
            }
            _ => {}
        }
        ui.weak(describe_placement(&unit.placement));
        commit |= crate::panels::ratings::ratings_ui(ui, s, a, unit, &self.systems, ratings);
        commit
    }

    pub(super) fn zone_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        cx: &ViewContext<'_>,
        focus: bool,
    ) -> bool {
        let Sel::Zone(z) = draft.sel else {
            return false;
        };
        let Draft { value, texts, .. } = draft;
        let DraftValue::Zone(zone) = value else {
            return false;
        };
        ui.heading("Deployment zone");
        let mut commit = false;
        commit |= field(texts, "id").ui(ui, "Id", "", false);
        commit |= field(texts, "name").ui(ui, "Name", "", focus);
        let mut owners: Vec<(Owner, String)> = Vec::new();
        for army in &s.armies {
            owners.push((Owner::Army(army.id.clone()), format!("⚑ {}", army.name)));
            for corps in &army.corps {
                owners.push((Owner::Corps(corps.id.clone()), format!("   {}", corps.name)));
            }
        }
        commit |= combo_row(ui, "Owner", &mut zone.owner, &owners);
        ui.label(format!("{} hexes", zone.hexes.len()));
        ui.horizontal(|ui| {
            if ui.button("Paint hexes (Z)").clicked() {
                cx.send(AppCommand::PaintZone(z));
            }
            if ui.button("Delete zone").clicked() {
                // Counters free in it keep their hex (model::delete).
                send_edit(cx, crate::model::delete::delete_zone(s, z));
                select(cx, None);
            }
        });
        commit
    }
}
