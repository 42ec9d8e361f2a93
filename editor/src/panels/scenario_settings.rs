//! The scenario settings dialog: title, date, turns, turn length, start time, notes; command
//! radii and options; stacking compositions and their terms (kinds, max counters, max CP);
//! victory objectives and points. Edits a copy; Apply returns one `Settings` change (one undo
//! step), refused with a message while a field does not read.

use bataille_schema::bounds::{self, Bounds};
use bataille_schema::scenario::{Composition, Objective, ReinforcementEntry, Scenario, StackTerm};
use bataille_schema::{Grid, HexName, Id};
use egui::Ui;

use crate::context::{AppCommand, ViewContext};
use crate::model::history::Change;
use crate::model::scenario_edit::{ScenarioChange, Settings};
use crate::panels::field::{number, optional_number};

/// Victory points and stacking limits: the schema bounds them by their type only; the form
/// asks for at most this.
const POINTS: Bounds<u32> = Bounds { min: 0, max: 1000 };

/// The dialog's state.
#[derive(Debug, Clone)]
pub struct SettingsDialog {
    original: Settings,
    draft: Settings,
    turns: String,
    turn_minutes: String,
    commander_radius: String,
    leader_radius: String,
    per_cp: String,
    per_routed: String,
    /// Per composition, per term: max counters and max CP as typed.
    limits: Vec<Vec<(String, String)>>,
    /// Per objective: hex and points as typed.
    objectives: Vec<(String, String)>,
    notes: String,
    /// The unit kinds some unit has (they cannot be removed).
    used_kinds: std::collections::HashSet<Id>,
    /// The armies (id, name) a unit kind may be restricted to.
    armies: Vec<(Id, String)>,
    /// Each kind's id as typed or followed from its name, by its key in the draft.
    kind_ids: std::collections::BTreeMap<Id, crate::panels::unit_kinds::KindId>,
    pub error: Option<String>,
}

/// The settings read from the dialog, and the unit kinds renamed (old id, new id).
type Read = (Settings, Vec<(Id, Id)>);

fn field(ui: &mut Ui, label: &str, text: &mut String, width: f32) {
    ui.horizontal(|ui| {
        let l = ui.add_sized([150.0, 18.0], egui::Label::new(label));
        ui.add(egui::TextEdit::singleline(text).desired_width(width))
            .labelled_by(l.id);
    });
}

/// [`field`], with an opened variant's base value beside it when it differs
/// ([`crate::panels::variant_base::setting_base_ui`]).
fn field_with_base(
    ui: &mut Ui,
    label: &str,
    text: &mut String,
    width: f32,
    base: Option<&Scenario>,
    of_base: impl Fn(&Scenario) -> String,
) {
    ui.horizontal(|ui| {
        let l = ui.add_sized([150.0, 18.0], egui::Label::new(label));
        ui.add(egui::TextEdit::singleline(text).desired_width(width))
            .labelled_by(l.id);
        crate::panels::variant_base::setting_base_ui(ui, base, label, text, of_base);
    });
}

/// A switch with an opened variant's base value beside it when it differs.
fn switch_with_base(ui: &mut Ui, on: &mut bool, label: &str, base: Option<bool>) {
    ui.horizontal(|ui| {
        ui.checkbox(on, label);
        if let Some(b) = base.filter(|b| b != on) {
            ui.weak(format!("base: {}", if b { "on" } else { "off" }));
            if ui.small_button(format!("Reset {label} to base")).clicked() {
                *on = b;
            }
        }
    });
}

fn opt(v: Option<u32>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

impl SettingsDialog {
    pub fn new(s: &Scenario) -> SettingsDialog {
        let settings = Settings::of(s);
        let used_kinds = s
            .armies
            .iter()
            .flat_map(|a| &a.units)
            .map(|u| u.kind.clone())
            .collect();
        SettingsDialog {
            kind_ids: settings
                .rules
                .unit_kinds
                .keys()
                .map(|id| (id.clone(), crate::panels::unit_kinds::KindId::of(id)))
                .collect(),
            used_kinds,
            armies: s
                .armies
                .iter()
                .map(|a| (a.id.clone(), a.name.clone()))
                .collect(),
            turns: settings.turns.to_string(),
            turn_minutes: settings.turn_minutes.to_string(),
            commander_radius: settings.rules.command.commander_radius_hexes.to_string(),
            leader_radius: settings.rules.command.leader_radius_hexes.to_string(),
            per_cp: settings.victory.points_per_enemy_cp_eliminated.to_string(),
            per_routed: settings.victory.points_per_enemy_unit_routed.to_string(),
            limits: settings
                .rules
                .stacking
                .compositions
                .iter()
                .map(|c| {
                    c.terms
                        .iter()
                        .map(|t| (opt(t.max_counters), opt(t.max_cp)))
                        .collect()
                })
                .collect(),
            objectives: settings
                .victory
                .objectives
                .iter()
                .map(|o| (o.hex.to_string(), o.points.to_string()))
                .collect(),
            notes: settings.notes.clone().unwrap_or_default(),
            original: settings.clone(),
            draft: settings,
            error: None,
        }
    }

    /// Reads the typed fields into the draft; the first field that does not read is the error.
    /// Unit kinds whose id changed are renamed in the settings (stacking terms, backs by kind);
    /// a renamed kind keeps moving as its old id did (`moves_as`: the map's terrain costs name
    /// it), and the renames are returned for the units and conversion rules to follow.
    fn read(&mut self, grid: &Grid) -> Result<Read, String> {
        let mut s = self.draft.clone();
        let optional = |text: &str, what: &str| optional_number(text, POINTS, what);
        if s.title.trim().is_empty() {
            return Err("Title: it may not be empty".into());
        }
        let date_ok = s.date.len() == 10
            && s.date.chars().enumerate().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            });
        if !date_ok {
            return Err("Date: write it YYYY-MM-DD".into());
        }
        let time_ok = s.start_time.len() == 5
            && s.start_time.as_bytes().get(2) == Some(&b':')
            && s.start_time
                .split(':')
                .map(|p| p.parse::<u32>().ok())
                .collect::<Vec<_>>()
                .as_slice()
                .iter()
                .zip([23u32, 59])
                .all(|(v, max)| v.is_some_and(|v| v <= max));
        if !time_ok {
            return Err("Start time: write it HH:MM".into());
        }
        s.turns = number(&self.turns, bounds::TURNS, "Turns")?;
        s.turn_minutes = number(&self.turn_minutes, bounds::TURN_MINUTES, "Turn minutes")?;
        let radius = |text: &str, what: &str| number(text, bounds::RADIUS_HEXES, what);
        s.rules.command.commander_radius_hexes =
            radius(&self.commander_radius, "Commander radius")?;
        s.rules.command.leader_radius_hexes = radius(&self.leader_radius, "Leader radius")?;
        s.victory.points_per_enemy_cp_eliminated =
            number(&self.per_cp, POINTS, "Points per CP eliminated")?;
        s.victory.points_per_enemy_unit_routed =
            number(&self.per_routed, POINTS, "Points per unit routed")?;
        for (c, comp) in s.rules.stacking.compositions.iter_mut().enumerate() {
            if comp.name.trim().is_empty() {
                return Err(format!("Stack {}: give it a name", c + 1));
            }
            for (t, term) in comp.terms.iter_mut().enumerate() {
                let (counters, cp) = self
                    .limits
                    .get(c)
                    .and_then(|l| l.get(t))
                    .cloned()
                    .unwrap_or_default();
                term.max_counters = optional(&counters, "Max counters")?;
                term.max_cp = optional(&cp, "Max CP")?;
                if term.kinds.is_empty() {
                    return Err(format!("{}: each term needs at least one kind", comp.name));
                }
            }
            if comp.terms.is_empty() {
                return Err(format!("{}: a stack needs at least one term", comp.name));
            }
        }
        for (o, objective) in s.victory.objectives.iter_mut().enumerate() {
            let (hex, points) = self.objectives.get(o).cloned().unwrap_or_default();
            let index = grid
                .parse(hex.trim())
                .map_err(|e| format!("Objective {}: {e}", o + 1))?;
            objective.hex = grid.name(index);
            objective.points = number(&points, POINTS, "Objective points")?;
            if objective.name.trim().is_empty() {
                return Err(format!("Objective {}: give it a name", o + 1));
            }
        }
        s.notes = (!self.notes.trim().is_empty()).then(|| self.notes.clone());
        let renames = self.rename_kinds(&mut s)?;
        Ok((s, renames))
    }

    /// Renames the kinds whose id was typed or followed a new name; refused when an id would
    /// be empty or two kinds would share one.
    fn rename_kinds(&self, s: &mut Settings) -> Result<Vec<(Id, Id)>, String> {
        let mut renames = Vec::new();
        let mut kinds = std::collections::BTreeMap::new();
        for (key, mut kind) in std::mem::take(&mut s.rules.unit_kinds) {
            let text = self
                .kind_ids
                .get(&key)
                .map_or_else(|| key.to_string(), |k| k.text.trim().to_owned());
            if text.is_empty() {
                return Err(format!(
                    "Unit kind “{}”: its id may not be empty",
                    kind.name
                ));
            }
            let id = if text == key.as_str() {
                key.clone()
            } else {
                Id::from(crate::model::scenario_edit::sanitise_id(&text))
            };
            if id != key {
                if self.original.rules.unit_kinds.contains_key(&key) && kind.moves_as.is_none() {
                    kind.moves_as = Some(key.clone());
                }
                renames.push((key.clone(), id.clone()));
            }
            if kinds.contains_key(&id) {
                return Err(format!(
                    "Unit kinds: two kinds would have the id `{id}`; give each its own"
                ));
            }
            kinds.insert(id, kind);
        }
        // A kind that moves as itself needs no `moves_as`.
        for (id, kind) in &mut kinds {
            if kind.moves_as.as_ref() == Some(id) {
                kind.moves_as = None;
            }
        }
        s.rules.unit_kinds = kinds;
        let moves: Vec<(&Id, Option<&Id>)> = renames.iter().map(|(a, b)| (a, Some(b))).collect();
        crate::model::references::follow_kinds_in_rules(&mut s.rules, &moves);
        Ok(renames)
    }

    /// The dialog's body; Apply sends the edit (one undo step). Returns whether it stays open.
    pub fn ui(&mut self, cx: &ViewContext<'_>, ui: &mut Ui) -> bool {
        let grid = &cx.doc.map.grid;
        // An opened variant's base: its values beside the fields the variant changes.
        let base = cx.doc.variant.as_ref().map(|v| &v.base);
        let mut open = true;
        let kinds: Vec<(Id, String)> = self
            .draft
            .rules
            .unit_kinds
            .iter()
            .map(|(id, k)| (id.clone(), k.name.clone()))
            .collect();
        egui::ScrollArea::vertical()
            .max_height(560.0)
            .show(ui, |ui| {
                ui.strong("Scenario");
                field(ui, "Title", &mut self.draft.title, 320.0);
                if let Some(base) = base {
                    ui.weak(format!(
                        "A variant's title is its base's (“{}”), then “ — ” and its name.",
                        base.title
                    ));
                }
                field(ui, "Date", &mut self.draft.date, 100.0);
                field_with_base(ui, "Turns", &mut self.turns, 60.0, base, |b| {
                    b.turns.to_string()
                });
                field(ui, "Turn minutes", &mut self.turn_minutes, 60.0);
                field(ui, "Start time", &mut self.draft.start_time, 60.0);
                ui.horizontal(|ui| {
                    let l = ui.add_sized([150.0, 18.0], egui::Label::new("Notes"));
                    // A few lines that scroll: the bundled scenarios' notes run to 30 lines,
                    // which pushed the rules below a long scroll.
                    egui::ScrollArea::vertical()
                        .id_salt("scenario-notes")
                        .max_height(120.0)
                        .show(ui, |ui| {
                            ui.add(
                                egui::TextEdit::multiline(&mut self.notes)
                                    .desired_rows(2)
                                    .desired_width(320.0),
                            )
                            .labelled_by(l.id);
                        });
                });
                ui.separator();
                ui.strong("Command (rules 8, 9)");
                field_with_base(
                    ui,
                    "Commander radius",
                    &mut self.commander_radius,
                    60.0,
                    base,
                    |b| b.rules.command.commander_radius_hexes.to_string(),
                );
                field_with_base(
                    ui,
                    "Leader radius",
                    &mut self.leader_radius,
                    60.0,
                    base,
                    |b| b.rules.command.leader_radius_hexes.to_string(),
                );
                switch_with_base(
                    ui,
                    &mut self.draft.rules.command.blocked_by_enemy_front_and_flank,
                    "Command paths blocked by enemy front and flank hexes",
                    base.map(|b| b.rules.command.blocked_by_enemy_front_and_flank),
                );
                switch_with_base(
                    ui,
                    &mut self.draft.rules.command.lines_of_battle,
                    "Lines of battle keep units in command (9.3)",
                    base.map(|b| b.rules.command.lines_of_battle),
                );
                ui.separator();
                crate::panels::unit_kinds::unit_kinds_ui(
                    ui,
                    &mut self.draft.rules.unit_kinds,
                    &mut self.kind_ids,
                    &self.used_kinds,
                    &self.armies,
                );
                ui.separator();
                ui.strong("Stacking (rule 3): a stack is legal when it fits one of these");
                let mut remove_comp = None;
                for (c, comp) in self
                    .draft
                    .rules
                    .stacking
                    .compositions
                    .iter_mut()
                    .enumerate()
                {
                    let limits = loop {
                        match self.limits.get_mut(c) {
                            Some(l) => break l,
                            None => self.limits.push(Vec::new()),
                        }
                    };
                    ui.push_id(("composition", c), |ui| {
                        egui::Frame::group(ui.style()).show(ui, |ui| {
                            field(ui, &format!("Stack {} name", c + 1), &mut comp.name, 240.0);
                            let mut remove_term = None;
                            for (t, term) in comp.terms.iter_mut().enumerate() {
                                while limits.len() <= t {
                                    limits.push(Default::default());
                                }
                                ui.push_id(("term", t), |ui| {
                                    ui.horizontal_wrapped(|ui| {
                                        ui.label(format!("Term {}:", t + 1));
                                        for (id, name) in &kinds {
                                            let mut on = term.kinds.contains(id);
                                            if ui.checkbox(&mut on, name).changed() {
                                                if on {
                                                    term.kinds.push(id.clone());
                                                } else {
                                                    term.kinds.retain(|k| k != id);
                                                }
                                            }
                                        }
                                    });
                                    ui.horizontal(|ui| {
                                        let (counters, cp) = &mut limits[t];
                                        let l = ui.label("Max counters");
                                        ui.add(
                                            egui::TextEdit::singleline(counters)
                                                .desired_width(40.0),
                                        )
                                        .labelled_by(l.id);
                                        let l = ui.label("Max CP");
                                        ui.add(egui::TextEdit::singleline(cp).desired_width(40.0))
                                            .labelled_by(l.id);
                                        if ui.small_button("Remove term").clicked() {
                                            remove_term = Some(t);
                                        }
                                    });
                                });
                            }
                            if let Some(t) = remove_term {
                                comp.terms.remove(t);
                                if t < limits.len() {
                                    limits.remove(t);
                                }
                            }
                            ui.horizontal(|ui| {
                                if ui.button("Add term").clicked() {
                                    comp.terms.push(StackTerm {
                                        kinds: kinds
                                            .first()
                                            .map(|k| vec![k.0.clone()])
                                            .unwrap_or_default(),
                                        max_counters: Some(1),
                                        max_cp: None,
                                    });
                                    limits.push(("1".to_owned(), String::new()));
                                }
                                if ui.button("Remove stack").clicked() {
                                    remove_comp = Some(c);
                                }
                            });
                        });
                    });
                }
                if let Some(c) = remove_comp {
                    self.draft.rules.stacking.compositions.remove(c);
                    if c < self.limits.len() {
                        self.limits.remove(c);
                    }
                }
                if ui.button("Add stack").clicked() {
                    self.draft.rules.stacking.compositions.push(Composition {
                        name: format!("stack {}", self.draft.rules.stacking.compositions.len() + 1),
                        terms: vec![StackTerm {
                            kinds: kinds.first().map(|k| vec![k.0.clone()]).unwrap_or_default(),
                            max_counters: Some(1),
                            max_cp: None,
                        }],
                    });
                    self.limits.push(vec![("1".to_owned(), String::new())]);
                }
                let mut stacked =
                    self.draft.rules.stacking.reinforcements == ReinforcementEntry::Stacked;
                if ui
                    .checkbox(
                        &mut stacked,
                        "Reinforcements entering together must stack legally",
                    )
                    .changed()
                {
                    self.draft.rules.stacking.reinforcements = if stacked {
                        ReinforcementEntry::Stacked
                    } else {
                        ReinforcementEntry::Column
                    };
                }
                ui.separator();
                ui.strong("Victory");
                let mut remove_obj = None;
                for (o, objective) in self.draft.victory.objectives.iter_mut().enumerate() {
                    while self.objectives.len() <= o {
                        self.objectives.push(Default::default());
                    }
                    ui.push_id(("objective", o), |ui| {
                        ui.horizontal(|ui| {
                            let (hex, points) = &mut self.objectives[o];
                            let l = ui.label(format!("Objective {} hex", o + 1));
                            ui.add(egui::TextEdit::singleline(hex).desired_width(50.0))
                                .labelled_by(l.id);
                            let l = ui.label("name");
                            ui.add(
                                egui::TextEdit::singleline(&mut objective.name)
                                    .desired_width(140.0),
                            )
                            .labelled_by(l.id);
                            let l = ui.label("points");
                            ui.add(egui::TextEdit::singleline(points).desired_width(40.0))
                                .labelled_by(l.id);
                            if ui.small_button("Remove").clicked() {
                                remove_obj = Some(o);
                            }
                        });
                    });
                }
                if let Some(o) = remove_obj {
                    self.draft.victory.objectives.remove(o);
                    if o < self.objectives.len() {
                        self.objectives.remove(o);
                    }
                }
                if ui.button("Add objective").clicked() {
                    self.draft.victory.objectives.push(Objective {
                        hex: HexName::from(
                            grid.name(bataille_schema::HexIndex::new(0, 0)).as_str(),
                        ),
                        name: "Objective".to_owned(),
                        points: 10,
                    });
                    self.objectives.push((
                        grid.name(bataille_schema::HexIndex::new(0, 0)).to_string(),
                        "10".to_owned(),
                    ));
                }
                field_with_base(
                    ui,
                    "Points per CP eliminated",
                    &mut self.per_cp,
                    60.0,
                    base,
                    |b| b.victory.points_per_enemy_cp_eliminated.to_string(),
                );
                field_with_base(
                    ui,
                    "Points per unit routed",
                    &mut self.per_routed,
                    60.0,
                    base,
                    |b| b.victory.points_per_enemy_unit_routed.to_string(),
                );
            });
        ui.separator();
        if let Some(error) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(230, 80, 70), format!("⛔ {error}"));
        }
        ui.horizontal(|ui| {
            if ui.button("Apply").clicked() {
                match self.read(grid) {
                    Ok((after, renames)) => {
                        self.error = None;
                        open = false;
                        if after != self.original {
                            // The units and conversion rules naming a renamed kind follow it,
                            // in the same undo step.
                            let moves: Vec<(&Id, Option<&Id>)> =
                                renames.iter().map(|(a, b)| (a, Some(b))).collect();
                            let mut changes = cx
                                .doc
                                .scenario
                                .as_ref()
                                .map(|file| {
                                    crate::model::references::follow_kind_renames(
                                        &file.scenario,
                                        &moves,
                                    )
                                })
                                .unwrap_or_default();
                            changes.push(Change::Scenario(ScenarioChange::Settings {
                                before: Box::new(self.original.clone()),
                                after: Box::new(after),
                            }));
                            let label = match renames.as_slice() {
                                [(old, new)] => format!("Unit kind {old} → {new}"),
                                _ => "Scenario settings".to_owned(),
                            };
                            cx.send(AppCommand::Edit { label, changes });
                        }
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            if ui.button("Cancel").clicked() {
                open = false;
            }
        });
        open
    }
}
