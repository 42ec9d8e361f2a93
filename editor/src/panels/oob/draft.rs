//! The forms' drafts: the item being edited with the text of its typed fields; reading the
//! texts back (a field that does not read is reset) and the changes a commit makes.

use super::*;

/// Reads a field typed in: its value when the text reads, `None` when it was not typed in —
/// or when it does not read, and then its text goes back to `shown` (the value as it is). The
/// one place the forms parse and revert.
fn read_field<T>(
    before: &BTreeMap<&'static str, String>,
    texts: &mut BTreeMap<&'static str, String>,
    key: &'static str,
    parse: impl FnOnce(&str) -> Result<T, ()>,
    shown: String,
) -> Option<T> {
    let now = texts.get(key)?;
    if before.get(key) == Some(now) {
        return None;
    }
    let typed = now.trim().to_owned();
    match parse(&typed) {
        Ok(value) => Some(value),
        Err(()) => {
            texts.insert(key, shown);
            None
        }
    }
}

impl Draft {
    /// Reads the text fields into the value; a field that does not parse is reset.
    pub(super) fn read_texts(&mut self, grid: &Grid) {
        let before = &self.texts_before;
        let texts = &mut self.texts;
        // Only the fields typed in change the value: a value the file holds in a form the
        // fields would not write (a clamped number, a free leader's hex) stays as it is.
        let edited = |texts: &BTreeMap<&str, String>, k: &str| -> Option<String> {
            let now = texts.get(k)?;
            (before.get(k) != Some(now)).then(|| now.trim().to_owned())
        };
        let hex_of = |t: &str| -> Result<Option<HexName>, ()> {
            if t.is_empty() {
                return Ok(None);
            }
            grid.parse(t).map(|h| Some(grid.name(h))).map_err(|_| ())
        };
        let kind_changed = self.placement_kind != self.placement_kind_before;
        match &mut self.value {
            DraftValue::Army(_) => {}
            DraftValue::Commander(c) => {
                if let Some(id) = edited(texts, "id") {
                    c.id = Id(id);
                }
                if let Some(name) = edited(texts, "name").filter(|n| !n.is_empty()) {
                    c.name = name;
                }
                let shown = opt_text(c.radius_hexes);
                if let Some(r) = read_field(before, texts, "radius", parse_opt::<u32>, shown) {
                    c.radius_hexes = r.map(|r| r.min(50));
                }
                let shown = opt_text(c.placement.hex());
                if let Some(hex) = read_field(before, texts, "hex", hex_of, shown) {
                    c.placement = match hex {
                        Some(h) => placement_dropped_on(&c.placement, h),
                        None => placement_removed(&c.placement),
                    };
                }
            }
            DraftValue::Corps(corps) => {
                if let Some(id) = edited(texts, "id") {
                    corps.id = Id(id);
                }
                if let Some(name) = edited(texts, "name").filter(|n| !n.is_empty()) {
                    corps.name = name;
                }
                let colour_of = |t: &str| Colour::from(t).rgb().ok_or(());
                let shown = corps.colour.to_string();
                if let Some(rgb) = read_field(before, texts, "colour", colour_of, shown) {
                    corps.colour = Colour::from_rgb(rgb);
                }
                if let Some(l) = &mut corps.leader {
                    if let Some(id) = edited(texts, "leader-id") {
                        l.id = Id(id);
                    }
                    if let Some(name) = edited(texts, "leader-name").filter(|n| !n.is_empty()) {
                        l.name = name;
                    }
                    let number = |t: &str| t.parse::<u8>().map_err(|_| ());
                    let shown = l.activation.to_string();
                    if let Some(v) = read_field(before, texts, "activation", number, shown) {
                        l.activation = v.min(10);
                    }
                    let shown = opt_text(l.radius_hexes);
                    if let Some(r) =
                        read_field(before, texts, "leader-radius", parse_opt::<u32>, shown)
                    {
                        l.radius_hexes = r.map(|r| r.min(50));
                    }
                    let shown = opt_text(l.placement.hex());
                    if let Some(hex) = read_field(before, texts, "leader-hex", hex_of, shown) {
                        l.placement = match hex {
                            Some(h) => placement_dropped_on(&l.placement, h),
                            None => placement_removed(&l.placement),
                        };
                    }
                }
            }
            DraftValue::Unit(unit) => {
                if let Some(id) = edited(texts, "id") {
                    unit.id = Id(id);
                }
                if let Some(name) = edited(texts, "name").filter(|n| !n.is_empty()) {
                    unit.name = name;
                }
                for (key, slot, max) in [
                    ("cp", &mut unit.cp, 12u8),
                    ("mp", &mut unit.mp, 20),
                    ("morale", &mut unit.morale, 10),
                ] {
                    let shown = opt_text(*slot);
                    if let Some(v) = read_field(before, texts, key, parse_opt::<u8>, shown) {
                        *slot = v.map(|v| v.min(max));
                    }
                }
                let shown = opt_text(unit.fire_modifier);
                if let Some(v) = read_field(before, texts, "fire", parse_opt::<i8>, shown) {
                    unit.fire_modifier = v.map(|v| v.clamp(-5, 5));
                }
                match self.placement_kind {
                    0 if kind_changed => unit.placement = Placement::Unplaced,
                    1 => {
                        let typed = edited(texts, "hex")
                            .or_else(|| kind_changed.then(|| texts.get("hex").cloned()).flatten());
                        if let Some(t) = typed {
                            match hex_of(t.trim()) {
                                Ok(Some(h)) => unit.placement = Placement::Hex(h),
                                Ok(None) => {}
                                Err(()) => {
                                    texts.insert("hex", opt_text(unit.placement.hex()));
                                }
                            }
                        }
                    }
                    2 => {
                        if let Some(t) = edited(texts, "at")
                            && let Placement::Free { zone, .. } = &unit.placement
                        {
                            let zone = zone.clone();
                            match hex_of(&t) {
                                Ok(at) => unit.placement = Placement::Free { zone, at },
                                Err(()) => {
                                    texts.insert("at", opt_text(unit.placement.hex()));
                                }
                            }
                        }
                    }
                    3 => {
                        let typed = edited(texts, "entry").is_some()
                            || edited(texts, "turn").is_some()
                            || kind_changed;
                        let entry_text = texts.get("entry").cloned().unwrap_or_default();
                        let entry = parse_hex_list(grid, &entry_text);
                        let turn = texts
                            .get("turn")
                            .and_then(|t| t.trim().parse::<u32>().ok())
                            .filter(|t| *t >= 1);
                        match (typed, turn, entry.is_empty()) {
                            (true, Some(turn), false) => {
                                unit.placement = Placement::Reinforcement { turn, entry };
                            }
                            (true, None, false) => {
                                unit.placement = Placement::Reinforcement { turn: 1, entry };
                                texts.insert("turn", "1".to_owned());
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            DraftValue::Zone(zone) => {
                if let Some(id) = edited(texts, "id") {
                    zone.id = Id(id);
                }
                if let Some(name) = edited(texts, "name").filter(|n| !n.is_empty()) {
                    zone.name = name;
                }
            }
        }
        // What was read is the new starting point.
        self.texts_before = self.texts.clone();
        self.placement_kind_before = self.placement_kind;
    }

    /// The edit that stores the draft, with ids kept unique and renamed where referenced; and
    /// the selection afterwards when it moves.
    pub(super) fn changes(&self, s: &Scenario) -> Option<(NamedEdit, Option<Sel>)> {
        let mut taken = ids_in_use(s);
        let mut fix_id = |old: &Id, new: &Id| -> Id {
            if new == old {
                return new.clone();
            }
            taken.remove(old.as_str());
            let id = unique_id(&taken, new.as_str());
            taken.insert(id.0.clone());
            id
        };
        let mut changes = Vec::new();
        let mut select = None;
        let label;
        match (&self.original, &self.value, self.sel) {
            (DraftValue::Army(before), DraftValue::Army(after), Sel::Army(a)) => {
                label = "Edit army";
                let mut after = after.clone();
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    for (z, zone) in s.zones.iter().enumerate() {
                        if zone.owner == Owner::Army(before.id.clone()) {
                            let mut z2 = zone.clone();
                            z2.owner = Owner::Army(after.id.clone());
                            changes.push(item_change(
                                ItemPath::Zone(z),
                                Some(Item::Zone(Box::new(zone.clone()))),
                                Some(Item::Zone(Box::new(z2))),
                            ));
                        }
                    }
                    if let Some(c) = rename_in_victory(s, before.id.as_str(), &after.id) {
                        changes.push(c);
                    }
                }
                changes.push(Change::Scenario(ScenarioChange::ArmyHeader {
                    army: a,
                    before: Box::new(before.clone()),
                    after: Box::new(after),
                }));
            }
            (DraftValue::Commander(before), DraftValue::Commander(after), Sel::Commander(a, k)) => {
                label = "Edit commander";
                let mut after = after.clone();
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id
                    && let Some(c) = rename_in_victory(s, before.id.as_str(), &after.id)
                {
                    changes.push(c);
                }
                changes.extend(rename_leader_ratings(s, &before.id, &after.id));
                changes.push(item_change(
                    ItemPath::Commander(a, k),
                    Some(Item::Commander(Box::new(before.clone()))),
                    Some(Item::Commander(Box::new(after))),
                ));
            }
            (
                DraftValue::Corps(before),
                DraftValue::Corps(after),
                Sel::Corps(a, c) | Sel::Leader(a, c),
            ) => {
                label = "Edit corps";
                let mut after = after.clone();
                after.id = fix_id(&before.id, &after.id);
                if let (Some(bl), Some(al)) = (&before.leader, &mut after.leader) {
                    al.id = fix_id(&bl.id, &al.id);
                    if al.id != bl.id
                        && let Some(ch) = rename_in_victory(s, bl.id.as_str(), &al.id)
                    {
                        changes.push(ch);
                    }
                    changes.extend(rename_leader_ratings(s, &bl.id, &al.id));
                } else if let (None, Some(al)) = (&before.leader, &mut after.leader)
                    && taken.contains(al.id.as_str())
                {
                    al.id = unique_id(&taken, al.id.as_str());
                }
                if after.id != before.id {
                    let army = &s.armies[a];
                    for (u, unit) in army.units.iter().enumerate() {
                        if unit.corps.as_ref() == Some(&before.id) {
                            let mut u2 = unit.clone();
                            u2.corps = Some(after.id.clone());
                            changes.push(item_change(
                                ItemPath::Unit(a, u),
                                Some(Item::Unit(Box::new(unit.clone()))),
                                Some(Item::Unit(Box::new(u2))),
                            ));
                        }
                    }
                    for (k, chief) in army.commanders.iter().enumerate() {
                        if chief.commands.contains(&before.id) {
                            let mut c2 = chief.clone();
                            for id in &mut c2.commands {
                                if *id == before.id {
                                    *id = after.id.clone();
                                }
                            }
                            changes.push(item_change(
                                ItemPath::Commander(a, k),
                                Some(Item::Commander(Box::new(chief.clone()))),
                                Some(Item::Commander(Box::new(c2))),
                            ));
                        }
                    }
                    for (z, zone) in s.zones.iter().enumerate() {
                        if zone.owner == Owner::Corps(before.id.clone()) {
                            let mut z2 = zone.clone();
                            z2.owner = Owner::Corps(after.id.clone());
                            changes.push(item_change(
                                ItemPath::Zone(z),
                                Some(Item::Zone(Box::new(zone.clone()))),
                                Some(Item::Zone(Box::new(z2))),
                            ));
                        }
                    }
                }
                if after.leader.is_none() && matches!(self.sel, Sel::Leader(..)) {
                    select = Some(Sel::Corps(a, c));
                }
                changes.push(item_change(
                    ItemPath::Corps(a, c),
                    Some(Item::Corps(Box::new(before.clone()))),
                    Some(Item::Corps(Box::new(after))),
                ));
            }
            (DraftValue::Unit(before), DraftValue::Unit(after), Sel::Unit(a, u)) => {
                label = "Edit unit";
                let mut after = after.clone();
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id
                    && let Some(c) = rename_in_victory(s, before.id.as_str(), &after.id)
                {
                    changes.push(c);
                }
                // A corps of another army moves the unit to that army.
                let home = after.corps.as_ref().and_then(|id| {
                    s.armies
                        .iter()
                        .position(|army| army.corps.iter().any(|c| &c.id == id))
                });
                match home {
                    Some(b) if b != a => {
                        let slot = unit_slot(&s.armies[b], after.corps.as_ref());
                        changes.push(item_change(
                            ItemPath::Unit(a, u),
                            Some(Item::Unit(Box::new(before.clone()))),
                            None,
                        ));
                        changes.push(item_change(
                            ItemPath::Unit(b, slot),
                            None,
                            Some(Item::Unit(Box::new(after))),
                        ));
                        select = Some(Sel::Unit(b, slot));
                    }
                    _ => changes.push(item_change(
                        ItemPath::Unit(a, u),
                        Some(Item::Unit(Box::new(before.clone()))),
                        Some(Item::Unit(Box::new(after))),
                    )),
                }
            }
            (DraftValue::Zone(before), DraftValue::Zone(after), Sel::Zone(z)) => {
                label = "Edit zone";
                let mut after = after.clone();
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    changes.extend(rename_zone_references(s, &before.id, &after.id));
                }
                changes.push(item_change(
                    ItemPath::Zone(z),
                    Some(Item::Zone(Box::new(before.clone()))),
                    Some(Item::Zone(Box::new(after))),
                ));
            }
            _ => return None,
        }
        Some(((label.to_owned(), changes), select))
    }
}

pub(super) fn corps_fields(
    ui: &mut Ui,
    corps: &mut Corps,
    texts: &mut BTreeMap<&'static str, String>,
    focus: bool,
) -> bool {
    let mut commit = false;
    ui.heading("Corps");
    commit |= text_row(ui, "Id", texts.entry("id").or_default(), false);
    commit |= text_row(ui, "Name", texts.entry("name").or_default(), focus);
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new("Colour"));
        let text = texts.entry("colour").or_default();
        let r = ui
            .add(egui::TextEdit::singleline(text).desired_width(80.0))
            .labelled_by(l.id);
        commit |= r.lost_focus();
        let mut rgb = Colour::from(text.as_str()).rgb().unwrap_or([128, 128, 128]);
        if ui.color_edit_button_srgb(&mut rgb).changed() {
            *text = Colour::from_rgb(rgb).to_string();
            commit = true;
        }
    });
    commit |= edge_checks(ui, &mut corps.friendly_edges, "Corps ");
    commit
}

pub(super) fn leader_fields(
    ui: &mut Ui,
    s: &Scenario,
    corps: &mut Corps,
    texts: &mut BTreeMap<&'static str, String>,
    focus: bool,
    (a, c): (usize, usize),
    out: &mut OobOutput,
) -> bool {
    let mut commit = false;
    ui.heading("Line leader");
    let corps_id = corps.id.clone();
    match &mut corps.leader {
        None => {
            ui.weak("This corps has no line leader (rule 9 needs one).");
            if ui.button("Add line leader").clicked() {
                let taken = ids_in_use(s);
                let leader = LineLeader {
                    id: unique_id(&taken, &format!("{corps_id}-leader")),
                    name: "Line leader".to_owned(),
                    activation: 3,
                    radius_hexes: None,
                    always_in_command: false,
                    placement: Placement::Unplaced,
                    allow: Vec::new(),
                };
                texts.insert("leader-id", leader.id.to_string());
                texts.insert("leader-name", leader.name.clone());
                texts.insert("activation", "3".to_owned());
                texts.insert("leader-radius", String::new());
                texts.insert("leader-hex", String::new());
                corps.leader = Some(leader);
                commit = true;
                out.select = Some(Some(Sel::Leader(a, c)));
            }
        }
        Some(leader) => {
            commit |= text_row(
                ui,
                "Leader id",
                texts.entry("leader-id").or_default(),
                false,
            );
            commit |= text_row(
                ui,
                "Leader name",
                texts.entry("leader-name").or_default(),
                focus,
            );
            commit |= text_row(
                ui,
                "Activation",
                texts.entry("activation").or_default(),
                false,
            );
            let default = s.rules.command.leader_radius_hexes;
            commit |= text_row_hint(
                ui,
                "Leader radius",
                &format!("default {default} hexes"),
                texts.entry("leader-radius").or_default(),
                false,
            );
            commit |= check_row(
                ui,
                "Leader always in command",
                &mut leader.always_in_command,
            );
            commit |= text_row(
                ui,
                "Leader hex",
                texts.entry("leader-hex").or_default(),
                false,
            );
            let mut remove = false;
            ui.horizontal(|ui| {
                if ui.button("Take leader off the map").clicked() {
                    texts.insert("leader-hex", String::new());
                    commit = true;
                }
                if ui.button("Remove line leader").clicked() {
                    remove = true;
                }
            });
            if remove {
                corps.leader = None;
                commit = true;
                out.select = Some(Some(Sel::Corps(a, c)));
            }
        }
    }
    commit
}
