//! The forms' drafts: the item being edited with the text of its typed fields; reading the
//! texts back (a field that does not read is reset) and the changes a commit makes.

use super::*;

/// A hex name of the map, or nothing for an empty text.
fn hex_of(grid: &Grid, text: &str, what: &str) -> Result<Option<HexName>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    grid.parse(text)
        .map(|h| Some(grid.name(h)))
        .map_err(|e| format!("{what}: `{text}` is not a hex of this map ({e})"))
}

/// Reads a placement's hex typed in `field` (or, with `anyway`, its text as it is): `None`
/// when not typed; a text that is no hex of the map goes back to `now`, the counter's hex.
fn read_hex(
    field: &mut Field,
    grid: &Grid,
    what: &str,
    anyway: bool,
    now: Option<&HexName>,
) -> Option<Option<HexName>> {
    let typed = field
        .edited()
        .or_else(|| anyway.then(|| field.text.trim().to_owned()))?;
    match hex_of(grid, &typed, what) {
        Ok(hex) => {
            field.error = None;
            Some(hex)
        }
        Err(e) => {
            field.shown = opt_text(now);
            field.refuse(e);
            None
        }
    }
}

/// A name: anything but empty (the schema asks for one character at least).
fn name_of(text: &str, what: &str) -> Result<String, String> {
    if text.is_empty() {
        Err(format!("{what}: it may not be empty"))
    } else {
        Ok(text.to_owned())
    }
}

/// An id as typed: made unique and renamed where referenced when the draft is stored.
fn id_of(text: &str) -> Result<Id, String> {
    Ok(Id::from(text))
}

impl Draft {
    /// Reads the text fields into the value; a field that does not read goes back to the value
    /// and says why (`Field::read`).
    pub(super) fn read_texts(&mut self, grid: &Grid) {
        let texts = &mut self.texts;
        // Only the fields typed in change the value: a value the file holds in a form the
        // fields would not write (a free leader's hex) stays as it is.
        let kind_changed = self.placement_kind != self.placement_kind_before;
        match &mut self.value {
            DraftValue::Army(header) => {
                if let Some(id) = field(texts, "id").read(id_of) {
                    header.id = id;
                }
                if let Some(name) = field(texts, "name").read(|t| name_of(t, "Name")) {
                    header.name = name;
                }
            }
            DraftValue::Commander(c) => {
                if let Some(id) = field(texts, "id").read(id_of) {
                    c.id = id;
                }
                if let Some(name) = field(texts, "name").read(|t| name_of(t, "Name")) {
                    c.name = name;
                }
                let radius = |t: &str| optional_number(t, bounds::RADIUS_HEXES, "Radius");
                if let Some(r) = field(texts, "radius").read(radius) {
                    c.radius_hexes = r;
                }
                if let Some(hex) = field(texts, "hex").read(|t| hex_of(grid, t, "Hex")) {
                    c.placement = match hex {
                        Some(h) => placement_dropped_on(&c.placement, h),
                        None => placement_removed(&c.placement),
                    };
                }
            }
            DraftValue::Corps(corps) => {
                if let Some(id) = field(texts, "id").read(id_of) {
                    corps.id = id;
                }
                if let Some(name) = field(texts, "name").read(|t| name_of(t, "Name")) {
                    corps.name = name;
                }
                let colour_of = |t: &str| {
                    Colour::from(t)
                        .rgb()
                        .ok_or_else(|| format!("Colour: `{t}` is not a #rrggbb colour"))
                };
                if let Some(rgb) = field(texts, "colour").read(colour_of) {
                    corps.colour = Colour::from_rgb(rgb);
                }
                if let Some(l) = &mut corps.leader {
                    if let Some(id) = field(texts, "leader-id").read(id_of) {
                        l.id = id;
                    }
                    let name = |t: &str| name_of(t, "Leader name");
                    if let Some(name) = field(texts, "leader-name").read(name) {
                        l.name = name;
                    }
                    let activation = |t: &str| number(t, bounds::ACTIVATION, "Activation");
                    if let Some(v) = field(texts, "activation").read(activation) {
                        l.activation = v;
                    }
                    let radius =
                        |t: &str| optional_number(t, bounds::RADIUS_HEXES, "Leader radius");
                    if let Some(r) = field(texts, "leader-radius").read(radius) {
                        l.radius_hexes = r;
                    }
                    let hex = |t: &str| hex_of(grid, t, "Leader hex");
                    if let Some(hex) = field(texts, "leader-hex").read(hex) {
                        l.placement = match hex {
                            Some(h) => placement_dropped_on(&l.placement, h),
                            None => placement_removed(&l.placement),
                        };
                    }
                }
            }
            DraftValue::Unit(unit) => {
                if let Some(id) = field(texts, "id").read(id_of) {
                    unit.id = id;
                }
                if let Some(name) = field(texts, "name").read(|t| name_of(t, "Name")) {
                    unit.name = name.into();
                }
                for (key, slot, range, what) in [
                    ("cp", &mut unit.cp, bounds::UNIT_CP, "CP"),
                    ("mp", &mut unit.mp, bounds::UNIT_MP, "MP"),
                    ("morale", &mut unit.morale, bounds::UNIT_MORALE, "Morale"),
                ] {
                    if let Some(v) = field(texts, key).read(|t| optional_number(t, range, what)) {
                        *slot = v;
                    }
                }
                let fire = |t: &str| optional_number(t, bounds::FIRE_MODIFIER, "Fire modifier");
                if let Some(v) = field(texts, "fire").read(fire) {
                    unit.fire_modifier = v;
                }
                match self.placement_kind {
                    0 if kind_changed => unit.placement = Placement::Unplaced,
                    1 => {
                        let hex = field(texts, "hex");
                        let now = unit.placement.hex();
                        if let Some(Some(h)) = read_hex(hex, grid, "Hex", kind_changed, now) {
                            unit.placement = Placement::Hex(h);
                        }
                    }
                    2 => {
                        if let Placement::Free { zone, .. } = &unit.placement {
                            let zone = zone.clone();
                            let at = field(texts, "at");
                            let now = unit.placement.hex();
                            if let Some(at) = read_hex(at, grid, "At hex", false, now) {
                                unit.placement = Placement::Free { zone, at };
                            }
                        }
                    }
                    3 => {
                        let typed = field(texts, "entry").edited().is_some()
                            || field(texts, "turn").edited().is_some()
                            || kind_changed;
                        let entry = parse_hex_list(grid, &field(texts, "entry").text);
                        let turn_text = field(texts, "turn").text.clone();
                        let turn = number(&turn_text, bounds::REINFORCEMENT_TURN, "Turn").ok();
                        match (typed, turn, entry.is_empty()) {
                            (true, Some(turn), false) => {
                                unit.placement = Placement::Reinforcement {
                                    turn,
                                    entry: entry.into(),
                                };
                            }
                            (true, None, false) => {
                                unit.placement = Placement::Reinforcement {
                                    turn: 1,
                                    entry: entry.into(),
                                };
                                field(texts, "turn").text = "1".to_owned();
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            DraftValue::Zone(zone) => {
                if let Some(id) = field(texts, "id").read(id_of) {
                    zone.id = id;
                }
                if let Some(name) = field(texts, "name").read(|t| name_of(t, "Name")) {
                    zone.name = name;
                }
            }
        }
        // What was read is the new starting point.
        for field in self.texts.values_mut() {
            field.settle();
        }
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
            taken.insert(id.0.to_string());
            id
        };
        // An id the editor made follows a new name, unless the id was typed too.
        let follow = |id: &mut Id, before: (&Id, &str), name: &str, defaults: &[String]| {
            if id == before.0 && name != before.1 && id_follows_name(before.0, before.1, defaults) {
                *id = Id::from(sanitise_id(name));
            }
        };
        let mut changes = Vec::new();
        let mut select = None;
        let label: String;
        match (&self.original, &self.value, self.sel) {
            (DraftValue::Army(before), DraftValue::Army(after), Sel::Army(a)) => {
                label = edit_label("army", &before.name, &after.name);
                let mut after = after.clone();
                follow(
                    &mut after.id,
                    (&before.id, &before.name),
                    &after.name.clone(),
                    &[],
                );
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    let moves = IdMoves {
                        armies: vec![(&before.id, Some(&after.id))],
                        ..IdMoves::default()
                    };
                    changes.extend(follow_ids(s, &moves));
                }
                changes.push(Change::Scenario(ScenarioChange::ArmyHeader {
                    army: a,
                    before: Box::new(before.clone()),
                    after: Box::new(after),
                }));
            }
            (DraftValue::Commander(before), DraftValue::Commander(after), Sel::Commander(a, k)) => {
                label = edit_label("commander", &before.name, &after.name);
                let mut after = after.clone();
                follow(
                    &mut after.id,
                    (&before.id, &before.name),
                    &after.name.clone(),
                    &[],
                );
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    let moves = IdMoves {
                        leaders: vec![(&before.id, Some(&after.id))],
                        ..IdMoves::default()
                    };
                    changes.extend(follow_ids(s, &moves));
                }
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
                label = edit_label("corps", &before.name, &after.name);
                let mut after = after.clone();
                let army_id = s.armies.get(a).map(|army| army.id.to_string());
                let defaults: Vec<String> =
                    army_id.iter().map(|id| format!("{id}-corps")).collect();
                follow(
                    &mut after.id,
                    (&before.id, &before.name),
                    &after.name.clone(),
                    &defaults,
                );
                if let (Some(bl), Some(al)) = (&before.leader, &mut after.leader) {
                    let defaults = [format!("{}-leader", before.id)];
                    follow(&mut al.id, (&bl.id, &bl.name), &al.name.clone(), &defaults);
                }
                after.id = fix_id(&before.id, &after.id);
                if let (Some(bl), Some(al)) = (&before.leader, &mut after.leader) {
                    al.id = fix_id(&bl.id, &al.id);
                } else if let (None, Some(al)) = (&before.leader, &mut after.leader)
                    && taken.contains(al.id.as_str())
                {
                    al.id = unique_id(&taken, al.id.as_str());
                }
                // The corps and its leader renamed in one go (one settings change, not two).
                let mut moves = IdMoves::default();
                if after.id != before.id {
                    moves.corps.push((&before.id, Some(&after.id)));
                }
                if let (Some(bl), Some(al)) = (&before.leader, &after.leader)
                    && al.id != bl.id
                {
                    moves.leaders.push((&bl.id, Some(&al.id)));
                }
                changes.extend(follow_ids(s, &moves));
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
                label = edit_label("unit", &before.name, &after.name);
                let mut after = after.clone();
                follow(
                    &mut after.id,
                    (&before.id, &before.name),
                    &after.name.clone(),
                    &[],
                );
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    let moves = IdMoves {
                        units: vec![(&before.id, Some(&after.id))],
                        ..IdMoves::default()
                    };
                    changes.extend(follow_ids(s, &moves));
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
                label = edit_label("zone", &before.name, &after.name);
                let mut after = after.clone();
                let defaults = [match &before.owner {
                    bataille_schema::scenario::Owner::Army(id)
                    | bataille_schema::scenario::Owner::Corps(id) => format!("{id}-zone"),
                }];
                follow(
                    &mut after.id,
                    (&before.id, &before.name),
                    &after.name.clone(),
                    &defaults,
                );
                after.id = fix_id(&before.id, &after.id);
                if after.id != before.id {
                    let moves = IdMoves {
                        zones: vec![(&before.id, Some(&after.id))],
                        ..IdMoves::default()
                    };
                    changes.extend(follow_ids(s, &moves));
                }
                changes.push(item_change(
                    ItemPath::Zone(z),
                    Some(Item::Zone(Box::new(before.clone()))),
                    Some(Item::Zone(Box::new(after))),
                ));
            }
            _ => return None,
        }
        Some(((label, changes), select))
    }
}

pub(super) fn corps_fields(
    ui: &mut Ui,
    corps: &mut Corps,
    texts: &mut BTreeMap<&'static str, Field>,
    focus: bool,
) -> bool {
    let mut commit = false;
    ui.heading("Corps");
    commit |= field(texts, "id").ui(ui, "Id", "", false);
    commit |= field(texts, "name").ui(ui, "Name", "", focus);
    let colour = field(texts, "colour");
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new("Colour"));
        ui.scope(|ui| {
            ui.set_max_width(80.0);
            commit |= colour.edit(ui, "", (l.id, ""), false);
        });
        let mut rgb = Colour::from(colour.text.as_str())
            .rgb()
            .unwrap_or([128, 128, 128]);
        if ui.color_edit_button_srgb(&mut rgb).changed() {
            colour.text = Colour::from_rgb(rgb).to_string();
            commit = true;
        }
    });
    colour.error_ui(ui);
    commit |= edge_checks(ui, &mut corps.friendly_edges, "Corps ");
    commit
}

pub(super) fn leader_fields(
    ui: &mut Ui,
    s: &Scenario,
    corps: &mut Corps,
    texts: &mut BTreeMap<&'static str, Field>,
    focus: bool,
    (a, c): (usize, usize),
    cx: &ViewContext<'_>,
) -> bool {
    let mut commit = false;
    ui.heading("Line leader");
    let corps_id = corps.id.clone();
    match &mut corps.leader {
        None => {
            ui.weak("This corps has no line leader (rule 9 needs one).");
            if ui.button("Add line leader").clicked() {
                let taken = ids_in_use(s);
                let leader = new_line_leader(unique_id(&taken, &format!("{corps_id}-leader")));
                texts.insert("leader-id", Field::new(leader.id.to_string()));
                texts.insert("leader-name", Field::new(leader.name.clone()));
                texts.insert("activation", Field::new(leader.activation.to_string()));
                texts.insert("leader-radius", Field::default());
                texts.insert("leader-hex", Field::default());
                corps.leader = Some(leader);
                commit = true;
                select(cx, Some(Sel::Leader(a, c)));
            }
        }
        Some(leader) => {
            commit |= field(texts, "leader-id").ui(ui, "Leader id", "", false);
            commit |= field(texts, "leader-name").ui(ui, "Leader name", "", focus);
            commit |= field(texts, "activation").ui(ui, "Activation", "", false);
            let default = s.rules.command.leader_radius_hexes;
            let hint = format!("default {default} hexes");
            commit |= field(texts, "leader-radius").ui(ui, "Leader radius", &hint, false);
            commit |= check_row(
                ui,
                "Leader always in command",
                &mut leader.always_in_command,
            );
            commit |= field(texts, "leader-hex").ui(ui, "Leader hex", "", false);
            let mut remove = false;
            ui.horizontal(|ui| {
                let placed = !field(texts, "leader-hex").text.trim().is_empty();
                let take_off = egui::Button::new("Take leader off the map");
                if ui.add_enabled(placed, take_off).clicked() {
                    field(texts, "leader-hex").text.clear();
                    commit = true;
                }
                if ui.button("Remove line leader").clicked() {
                    remove = true;
                }
            });
            if remove {
                corps.leader = None;
                commit = true;
                select(cx, Some(Sel::Corps(a, c)));
            }
        }
    }
    commit
}

/// An edit's name in Undo and Redo: "Rename unit Unit 1 to Normandie", or "Edit unit Normandie".
fn edit_label(what: &str, before: &str, after: &str) -> String {
    if before == after {
        format!("Edit {what} {after}")
    } else {
        format!("Rename {what} {before} to {after}")
    }
}
