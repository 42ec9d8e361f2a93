//! The order-of-battle panel (right dock): the tree army → commanders in chief → corps → line
//! leader and units, with a filter and keyboard navigation (Up/Down move, Left/Right fold, Enter edits);
//! rows drag onto the map; the form of the selected item for every field of the model. The
//! panel edits a draft and, when a field is committed (Enter, focus lost, a choice made), emits
//! `Change`s — ids kept unique (suffixed) and renamed everywhere they are referenced. Also the
//! state the scenario tools share: the selection, the counter and zone caches, the zone tool.

use std::collections::{BTreeMap, HashMap, HashSet};

use bataille_schema::geometry::sides;
use bataille_schema::scenario::{
    Army, Commander, Corps, LineLeader, Owner, Placement, Scenario, Symbol, Unit, Victory, Zone,
};
use bataille_schema::{Colour, Grid, HexName, Id, MapEdge, Side};
use egui::{Color32, RichText, Ui};

use crate::commands::Change;
use crate::counters::CounterCache;
use crate::document::Document;
use crate::map_view::colour32;
use crate::scenario_edit::{
    ArmyHeader, CounterAt, Item, ItemPath, ScenarioChange, Settings, describe_placement,
    ids_in_use, needs_placing, placement_dropped_on, placement_removed, unique_id,
};
use crate::zones::{ZoneCache, ZoneTool, owner_name, parse_hex_list, rename_zone_references};

/// What is selected in the order of battle (by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sel {
    Army(usize),
    Commander(usize, usize),
    Corps(usize, usize),
    Leader(usize, usize),
    Unit(usize, usize),
    Zone(usize),
}

impl Sel {
    /// The counter selected, if it is one.
    pub fn counter(self) -> Option<CounterAt> {
        match self {
            Sel::Unit(a, u) => Some(CounterAt::Unit(a, u)),
            Sel::Leader(a, c) => Some(CounterAt::Leader(a, c)),
            Sel::Commander(a, k) => Some(CounterAt::Commander(a, k)),
            _ => None,
        }
    }

    pub fn of_counter(at: CounterAt) -> Sel {
        match at {
            CounterAt::Unit(a, u) => Sel::Unit(a, u),
            CounterAt::Leader(a, c) => Sel::Leader(a, c),
            CounterAt::Commander(a, k) => Sel::Commander(a, k),
        }
    }

    /// The army it belongs to.
    pub fn army_index(self) -> Option<usize> {
        match self {
            Sel::Army(a)
            | Sel::Commander(a, _)
            | Sel::Corps(a, _)
            | Sel::Leader(a, _)
            | Sel::Unit(a, _) => Some(a),
            Sel::Zone(_) => None,
        }
    }

    /// Whether it still names something in the scenario.
    pub fn exists(self, s: &Scenario) -> bool {
        let army = |a: usize| s.armies.get(a);
        match self {
            Sel::Army(a) => army(a).is_some(),
            Sel::Commander(a, k) => army(a).is_some_and(|x| k < x.commanders.len()),
            Sel::Corps(a, c) => army(a).is_some_and(|x| c < x.corps.len()),
            Sel::Leader(a, c) => {
                army(a).is_some_and(|x| x.corps.get(c).is_some_and(|c| c.leader.is_some()))
            }
            Sel::Unit(a, u) => army(a).is_some_and(|x| u < x.units.len()),
            Sel::Zone(z) => z < s.zones.len(),
        }
    }
}

/// Which page the right dock shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DockTab {
    #[default]
    Oob,
    Inspector,
}

/// A foldable node of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Node {
    Army(usize),
    Corps(usize, usize),
    NoCorps(usize),
    Zones,
}

/// One row of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Row {
    Army(usize),
    Commander(usize, usize),
    Corps(usize, usize),
    NoCorps(usize),
    Leader(usize, usize),
    Unit(usize, usize),
    Zones,
    Zone(usize),
}

impl Row {
    fn sel(self) -> Option<Sel> {
        Some(match self {
            Row::Army(a) => Sel::Army(a),
            Row::Commander(a, k) => Sel::Commander(a, k),
            Row::Corps(a, c) => Sel::Corps(a, c),
            Row::Leader(a, c) => Sel::Leader(a, c),
            Row::Unit(a, u) => Sel::Unit(a, u),
            Row::Zone(z) => Sel::Zone(z),
            Row::NoCorps(_) | Row::Zones => return None,
        })
    }

    fn node(self) -> Option<Node> {
        match self {
            Row::Army(a) => Some(Node::Army(a)),
            Row::Corps(a, c) => Some(Node::Corps(a, c)),
            Row::NoCorps(a) => Some(Node::NoCorps(a)),
            Row::Zones => Some(Node::Zones),
            _ => None,
        }
    }

    fn depth(self) -> usize {
        match self {
            Row::Army(_) | Row::Zones => 0,
            Row::Commander(..) | Row::Corps(..) | Row::NoCorps(_) | Row::Zone(_) => 1,
            Row::Leader(..) | Row::Unit(..) => 2,
        }
    }
}

/// An undo step: its label and its changes.
pub type NamedEdit = (String, Vec<Change>);

/// The little picture before a row's text.
enum Swatch {
    None,
    Colour(Color32),
    /// A small counter: corps colour and symbol.
    Counter(Color32, Symbol),
}

impl Swatch {
    fn ui(&self, ui: &mut Ui) {
        match self {
            Swatch::None => {}
            Swatch::Colour(colour) => {
                let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().rect_filled(r, 2.0, *colour);
                ui.painter().rect_stroke(
                    r,
                    2.0,
                    egui::Stroke::new(1.0, Color32::from_gray(40)),
                    egui::StrokeKind::Inside,
                );
            }
            Swatch::Counter(colour, symbol) => {
                let (r, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
                let look = crate::counters::UnitLook {
                    at: CounterAt::Unit(0, 0),
                    colour: *colour,
                    symbol: *symbol,
                    values: [None; 3],
                    fire: None,
                    facing_degrees: None,
                };
                let mut shapes = Vec::new();
                crate::counters::unit_shapes(&mut shapes, &look, r, false);
                ui.painter().extend(shapes);
            }
        }
    }
}

/// What the tree's rows depend on: the scenario's revision, the filter, the folds.
type RowsKey = (u64, String, bool, u64);

/// A counter dragged from the tree onto the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterDrop(pub CounterAt);

/// The item a form edits, as a draft.
#[derive(Debug, Clone, PartialEq)]
enum DraftValue {
    Army(ArmyHeader),
    Commander(Commander),
    Corps(Corps),
    Unit(Unit),
    Zone(Zone),
}

#[derive(Debug, Clone)]
struct Draft {
    sel: Sel,
    original: DraftValue,
    value: DraftValue,
    /// Text of the fields typed as text (numbers, hexes).
    texts: BTreeMap<&'static str, String>,
    /// The texts as they were when the draft was made (or last read).
    texts_before: BTreeMap<&'static str, String>,
    /// The placement kind chosen (0 not placed, 1 hex, 2 free, 3 reinforcement).
    placement_kind: u8,
    placement_kind_before: u8,
    leader_placed: bool,
}

/// What the panel asks the app to do.
#[derive(Default)]
pub struct OobOutput {
    pub edits: Vec<(String, Vec<Change>)>,
    /// Select this after the edits.
    pub select: Option<Option<Sel>>,
    /// Centre the map on the selection.
    pub go_to_selection: bool,
    /// Switch to the zone tool.
    pub zone_tool: bool,
    pub open_settings: bool,
    pub new_scenario: bool,
}

/// A drag of a counter on the map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapDrag {
    pub what: CounterAt,
    pub from: bataille_schema::HexIndex,
    /// The press was on a stack whose counter was already selected: a click selects the next.
    pub cycle: bool,
}

/// The scenario tools' state.
pub struct OobState {
    pub selected: Option<Sel>,
    pub filter: String,
    pub only_unplaced: bool,
    pub tab: DockTab,
    open: HashMap<Node, bool>,
    draft: Option<Draft>,
    /// Bumped on every scenario change (caches compare it).
    pub revision: u64,
    pub counters: CounterCache,
    pub zones: ZoneCache,
    pub zone_tool: ZoneTool,
    pub settings_dialog: Option<crate::scenario_settings::SettingsDialog>,
    pub drag: Option<MapDrag>,
    pub hovered_counter: Option<CounterAt>,
    /// The selected leader's command view, and what it was computed from.
    pub command_cache: Option<(
        crate::placement::CommandKey,
        Option<crate::placement::CommandView>,
    )>,
    tree_focused: bool,
    /// Bumped when a node is folded or unfolded.
    open_version: u64,
    /// The tree's rows and what they were computed from.
    rows_cache: Option<(RowsKey, Vec<Row>)>,
    scroll_to_selected: bool,
    focus_form: bool,
}

impl Default for OobState {
    fn default() -> Self {
        Self {
            selected: None,
            filter: String::new(),
            only_unplaced: false,
            tab: DockTab::Oob,
            open: HashMap::new(),
            draft: None,
            revision: 1,
            counters: CounterCache::default(),
            zones: ZoneCache::default(),
            zone_tool: ZoneTool::default(),
            settings_dialog: None,
            drag: None,
            hovered_counter: None,
            command_cache: None,
            tree_focused: false,
            open_version: 0,
            rows_cache: None,
            scroll_to_selected: false,
            focus_form: false,
        }
    }
}

fn place_short(p: &Placement) -> String {
    match p {
        Placement::Unplaced => "not placed".to_owned(),
        Placement::Hex(h) => h.to_string(),
        Placement::Free { at: Some(h), .. } => format!("{h} (free)"),
        Placement::Free { at: None, .. } => "free, not placed".to_owned(),
        Placement::Reinforcement { turn, .. } => format!("turn {turn}"),
    }
}

fn unit_values(u: &Unit) -> String {
    crate::counters::values_text([u.cp, u.morale, u.mp], u.fire_modifier)
}

fn matches(filter: &str, name: &str, id: &str) -> bool {
    filter.is_empty() || name.to_lowercase().contains(filter) || id.to_lowercase().contains(filter)
}

/// The changes renaming an id in the victory conditions, when it appears there.
fn rename_in_victory(s: &Scenario, old: &str, new: &Id) -> Option<Change> {
    let mut victory: Victory = s.victory.clone();
    let mut changed = false;
    for o in &mut victory.unit_objectives {
        if o.unit.as_str() == old {
            o.unit = new.clone();
            changed = true;
        }
    }
    for l in &mut victory.leader_losses {
        if l.leader.as_str() == old {
            l.leader = new.clone();
            changed = true;
        }
        if l.winner.as_str() == old {
            l.winner = new.clone();
            changed = true;
        }
    }
    for h in &mut victory.holds {
        if h.army.as_str() == old {
            h.army = new.clone();
            changed = true;
        }
    }
    changed.then(|| {
        let before = Settings::of(s);
        let mut after = before.clone();
        after.victory = victory;
        Change::Scenario(ScenarioChange::Settings {
            before: Box::new(before),
            after: Box::new(after),
        })
    })
}

fn item_change(path: ItemPath, before: Option<Item>, after: Option<Item>) -> Change {
    Change::Scenario(ScenarioChange::Item {
        path,
        before,
        after,
    })
}

/// Where a new unit of corps `corps` goes in its army's list: after the corps' last unit.
fn unit_slot(army: &Army, corps: Option<&Id>) -> usize {
    army.units
        .iter()
        .rposition(|u| u.corps.as_ref() == corps && corps.is_some())
        .map_or(army.units.len(), |i| i + 1)
}

/// The width of the forms' label column.
const LABEL_WIDTH: f32 = 108.0;

/// A labelled single-line text field; returns whether it was committed (Enter or focus lost).
fn text_row(ui: &mut Ui, label: &str, text: &mut String, focus: bool) -> bool {
    text_row_hint(ui, label, "", text, focus)
}

/// A labelled single-line text field with a hint shown while it is empty.
fn text_row_hint(ui: &mut Ui, label: &str, hint: &str, text: &mut String, focus: bool) -> bool {
    let mut committed = false;
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new(label).truncate());
        let r = ui
            .add(
                egui::TextEdit::singleline(text)
                    .hint_text(hint)
                    .desired_width(ui.available_width().max(60.0)),
            )
            .labelled_by(l.id);
        if focus {
            r.request_focus();
        }
        committed = r.lost_focus();
    });
    committed
}

/// A labelled check box; returns whether it changed.
fn check_row(ui: &mut Ui, label: &str, value: &mut bool) -> bool {
    ui.checkbox(value, label).changed()
}

/// A labelled combo box over `choices`; returns whether the choice changed.
fn combo_row<T: PartialEq + Clone>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    choices: &[(T, String)],
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new(label).truncate());
        let current = choices
            .iter()
            .find(|(v, _)| v == value)
            .map_or_else(|| "—".to_owned(), |(_, t)| t.clone());
        let r = egui::ComboBox::from_id_salt(("oob-combo", label))
            .selected_text(current)
            .width(ui.available_width().max(80.0) - 8.0)
            .show_ui(ui, |ui| {
                for (v, text) in choices {
                    if ui.selectable_label(v == value, text).clicked() && v != value {
                        *value = v.clone();
                        changed = true;
                    }
                }
            });
        r.response.labelled_by(l.id);
    });
    changed
}

fn edge_checks(ui: &mut Ui, edges: &mut Vec<MapEdge>, prefix: &str) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{prefix}friendly edges:"));
        for (edge, name) in [
            (MapEdge::North, "North"),
            (MapEdge::East, "East"),
            (MapEdge::South, "South"),
            (MapEdge::West, "West"),
        ] {
            let mut on = edges.contains(&edge);
            if ui.checkbox(&mut on, name).changed() {
                if on {
                    edges.push(edge);
                    edges.sort();
                } else {
                    edges.retain(|e| *e != edge);
                }
                changed = true;
            }
        }
    });
    changed
}

fn opt_text<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// Parses an optional number; `Err` when the text is not one (the field is then reset).
fn parse_opt<T: std::str::FromStr>(text: &str) -> Result<Option<T>, ()> {
    let t = text.trim();
    if t.is_empty() {
        Ok(None)
    } else {
        t.parse().map(Some).map_err(|_| ())
    }
}

impl OobState {
    /// Forgets everything about the previous document.
    pub fn reset(&mut self) {
        let tab = self.tab;
        let show = self.zone_tool.show;
        *self = OobState {
            tab,
            ..OobState::default()
        };
        self.zone_tool.show = show;
        self.revision += 1;
    }

    /// Scrolls the tree to the selection on the next frame.
    pub fn scroll_to_selection(&mut self) {
        self.scroll_to_selected = true;
    }

    /// Drops a selection that no longer exists (after undo, delete).
    pub fn check_selection(&mut self, doc: &Document) {
        match (self.selected, doc.scenario.as_ref()) {
            (Some(sel), Some(s)) if sel.exists(&s.scenario) => {}
            (Some(_), _) => self.selected = None,
            _ => {}
        }
    }

    fn is_open(&self, node: Node, total_units: usize) -> bool {
        self.open.get(&node).copied().unwrap_or(match node {
            Node::Army(_) | Node::Zones | Node::NoCorps(_) => true,
            Node::Corps(..) => total_units <= 250,
        })
    }

    fn rows(&self, s: &Scenario) -> Vec<Row> {
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

    fn row_text(s: &Scenario, sizes: &HashMap<(usize, &str), usize>, row: Row) -> (String, Swatch) {
        let colour_of = |a: usize, id: Option<&Id>| {
            s.armies.get(a).and_then(|army| {
                army.corps
                    .iter()
                    .find(|c| Some(&c.id) == id)
                    .map(|c| colour32(&c.colour, Color32::GRAY))
            })
        };
        let missing = ("?".to_owned(), Swatch::None);
        match row {
            Row::Army(a) => {
                let Some(army) = s.armies.get(a) else {
                    return missing;
                };
                (
                    format!("⚑ {} ({} units)", army.name, army.units.len()),
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
                let n = sizes.get(&(a, corps.id.as_str())).copied().unwrap_or(0);
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
                let Some(unit) = s.armies.get(a).and_then(|x| x.units.get(u)) else {
                    return missing;
                };
                let symbol = s
                    .rules
                    .unit_kinds
                    .get(&unit.kind)
                    .map_or(Symbol::Other, |k| k.symbol);
                (
                    format!(
                        "{}  {} · {}",
                        unit.name,
                        unit_values(unit),
                        place_short(&unit.placement)
                    ),
                    Swatch::Counter(
                        colour_of(a, unit.corps.as_ref()).unwrap_or(Color32::GRAY),
                        symbol,
                    ),
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
                    Swatch::Colour(crate::zones::zone_colour(s, zone)),
                )
            }
        }
    }

    /// The right dock's order-of-battle page.
    pub fn dock_ui(&mut self, ui: &mut Ui, doc: &Document) -> OobOutput {
        let mut out = OobOutput::default();
        let Some(file) = doc.scenario.as_ref() else {
            ui.weak("No scenario is open: the order of battle belongs to a scenario.");
            if ui.button("New scenario for this map…").clicked() {
                out.new_scenario = true;
            }
            return out;
        };
        let s = &file.scenario;
        self.check_selection(doc);
        let units: usize = s.armies.iter().map(|a| a.units.len()).sum();
        let waiting = s
            .armies
            .iter()
            .flat_map(|a| &a.units)
            .filter(|u| needs_placing(&u.placement))
            .count();
        ui.horizontal(|ui| {
            ui.strong(&s.title);
            if ui.small_button("⚙ Settings…").clicked() {
                out.open_settings = true;
            }
        });
        ui.weak(format!("{units} units, {waiting} not placed yet"));
        ui.horizontal(|ui| {
            let l = ui.label("Filter");
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("name or id")
                    .desired_width(ui.available_width() - 4.0),
            )
            .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.only_unplaced, "Only not placed");
            if ui.button("Add army").clicked() {
                out.edits.push(self.add_army(s));
                out.select = Some(Some(Sel::Army(s.armies.len())));
            }
        });
        ui.separator();
        let key = (
            self.revision,
            self.filter.clone(),
            self.only_unplaced,
            self.open_version,
        );
        let rows = match &self.rows_cache {
            Some((k, rows)) if *k == key => rows.clone(),
            _ => {
                let rows = self.rows(s);
                self.rows_cache = Some((key, rows.clone()));
                rows
            }
        };
        self.tree_ui(ui, s, &doc.map.grid, &rows, &mut out);
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("oob-form")
            .auto_shrink([false, false])
            .show(ui, |ui| self.form_ui(ui, doc, s, &mut out));
        out
    }

    fn tree_ui(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        grid: &Grid,
        rows: &[Row],
        out: &mut OobOutput,
    ) {
        let total: usize = s.armies.iter().map(|a| a.units.len()).sum();
        let _ = grid;
        // Units per corps, counted once a frame.
        let mut sizes: HashMap<(usize, &str), usize> = HashMap::new();
        for (a, army) in s.armies.iter().enumerate() {
            for unit in &army.units {
                if let Some(c) = &unit.corps {
                    *sizes.entry((a, c.as_str())).or_default() += 1;
                }
            }
        }
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
                out.select = Some(Some(t));
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
            .max_height((ui.available_height() * 0.55).max(120.0))
            .auto_shrink([false, false]);
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
                    let (text, swatch) = Self::row_text(s, &sizes, row);
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
                            out.select = Some(sel);
                        }
                    }
                    if selected && focus_selected {
                        // The keys moved the selection: the focus follows it.
                        resp.request_focus();
                        any_focus = true;
                    }
                    if resp.clicked() {
                        if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                            self.focus_form = true;
                            out.go_to_selection = true;
                        } else if row.node().is_some() && sel.is_none() {
                            toggles.push((
                                row.node().unwrap_or(Node::Zones),
                                !self.is_open(row.node().unwrap_or(Node::Zones), total),
                            ));
                        }
                        if sel.is_some() {
                            self.selected = sel;
                            out.select = Some(sel);
                            if resp.double_clicked() {
                                out.go_to_selection = true;
                            }
                        }
                        resp.request_focus();
                        any_focus = true;
                    }
                    if let Some(at) = sel.and_then(Sel::counter) {
                        resp.dnd_set_drag_payload(CounterDrop(at));
                        if resp.drag_started() {
                            self.selected = sel;
                            out.select = Some(sel);
                        }
                    }
                    if let Some(sel) = sel {
                        resp.context_menu(|ui| self.context_menu(ui, s, sel, out));
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

    fn context_menu(&mut self, ui: &mut Ui, s: &Scenario, sel: Sel, out: &mut OobOutput) {
        match sel {
            Sel::Army(a) => {
                if ui.button("Add corps").clicked() {
                    out.edits.push(self.add_corps(s, a));
                    let n = s.armies.get(a).map_or(0, |x| x.corps.len());
                    out.select = Some(Some(Sel::Corps(a, n)));
                    ui.close();
                }
                if ui.button("Add commander").clicked() {
                    out.edits.push(self.add_commander(s, a));
                    let n = s.armies.get(a).map_or(0, |x| x.commanders.len());
                    out.select = Some(Some(Sel::Commander(a, n)));
                    ui.close();
                }
            }
            Sel::Corps(a, c) => {
                if ui.button("Add unit").clicked() {
                    if let Some((edit, sel)) = self.add_unit(s, a, Some(c)) {
                        out.edits.push(edit);
                        out.select = Some(Some(sel));
                    }
                    ui.close();
                }
            }
            Sel::Unit(a, u) => {
                if ui.button("Duplicate").clicked() {
                    if let Some((edit, sel)) = duplicate_unit(s, a, u) {
                        out.edits.push(edit);
                        out.select = Some(Some(sel));
                    }
                    ui.close();
                }
                if ui.button("Delete").clicked() {
                    out.edits.push(delete_unit(s, a, u));
                    out.select = Some(None);
                    ui.close();
                }
            }
            _ => {
                ui.weak("Edit it in the form below.");
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Adding items.

    fn add_army(&self, s: &Scenario) -> (String, Vec<Change>) {
        let taken = ids_in_use(s);
        let id = unique_id(&taken, "army");
        let army = Army {
            name: format!("Army {}", s.armies.len() + 1),
            id,
            friendly_edges: Vec::new(),
            commanders: Vec::new(),
            corps: Vec::new(),
            units: Vec::new(),
        };
        (
            "Add army".to_owned(),
            vec![item_change(
                ItemPath::Army(s.armies.len()),
                None,
                Some(Item::Army(Box::new(army))),
            )],
        )
    }

    fn add_corps(&self, s: &Scenario, a: usize) -> (String, Vec<Change>) {
        let taken = ids_in_use(s);
        let Some(army) = s.armies.get(a) else {
            return ("Add corps".to_owned(), Vec::new());
        };
        let id = unique_id(&taken, &format!("{}-corps", army.id));
        const PALETTE: [&str; 8] = [
            "#c0392b", "#2e6bd1", "#e5c22f", "#e67e22", "#27ae60", "#8e44ad", "#7f8c8d", "#6d4c2f",
        ];
        let colour = PALETTE[army.corps.len() % PALETTE.len()];
        let mut leader_id_taken = taken.clone();
        leader_id_taken.insert(id.0.clone());
        let corps = Corps {
            leader: Some(LineLeader {
                id: unique_id(&leader_id_taken, &format!("{id}-leader")),
                name: "Line leader".to_owned(),
                activation: 3,
                radius_hexes: None,
                always_in_command: false,
                placement: Placement::Unplaced,
                allow: Vec::new(),
            }),
            id,
            name: format!("Corps {}", army.corps.len() + 1),
            colour: Colour::from(colour),
            friendly_edges: Vec::new(),
        };
        let mut changes = vec![item_change(
            ItemPath::Corps(a, army.corps.len()),
            None,
            Some(Item::Corps(Box::new(corps.clone()))),
        )];
        // Every commander of the army commands it, as a start (8.1).
        for (k, chief) in army.commanders.iter().enumerate() {
            let mut after = chief.clone();
            after.commands.push(corps.id.clone());
            changes.push(item_change(
                ItemPath::Commander(a, k),
                Some(Item::Commander(Box::new(chief.clone()))),
                Some(Item::Commander(Box::new(after))),
            ));
        }
        ("Add corps".to_owned(), changes)
    }

    fn add_commander(&self, s: &Scenario, a: usize) -> (String, Vec<Change>) {
        let taken = ids_in_use(s);
        let Some(army) = s.armies.get(a) else {
            return ("Add commander".to_owned(), Vec::new());
        };
        let chief = Commander {
            id: unique_id(&taken, &format!("{}-chief", army.id)),
            name: "Commander in chief".to_owned(),
            radius_hexes: None,
            commands: army.corps.iter().map(|c| c.id.clone()).collect(),
            placement: Placement::Unplaced,
            allow: Vec::new(),
        };
        (
            "Add commander".to_owned(),
            vec![item_change(
                ItemPath::Commander(a, army.commanders.len()),
                None,
                Some(Item::Commander(Box::new(chief))),
            )],
        )
    }

    fn add_unit(
        &self,
        s: &Scenario,
        a: usize,
        corps: Option<usize>,
    ) -> Option<((String, Vec<Change>), Sel)> {
        let army = s.armies.get(a)?;
        let corps_id = corps.and_then(|c| army.corps.get(c)).map(|c| c.id.clone());
        let taken = ids_in_use(s);
        let base = corps_id
            .as_ref()
            .map_or_else(|| format!("{}-unit", army.id), |c| format!("{c}-1"));
        let kind = s
            .rules
            .unit_kinds
            .iter()
            .find(|(_, k)| k.symbol == Symbol::Infantry)
            .or_else(|| s.rules.unit_kinds.iter().next())
            .map_or_else(|| Id::from("infantry"), |(id, _)| id.clone());
        let n = army.units.iter().filter(|u| u.corps == corps_id).count() + 1;
        let unit = Unit {
            id: unique_id(&taken, &base),
            name: format!("Unit {n}"),
            kind,
            corps: corps_id.clone(),
            cp: Some(1),
            mp: Some(4),
            morale: Some(2),
            fire_modifier: None,
            always_in_command: false,
            facing: None,
            placement: Placement::Unplaced,
            ratings: Default::default(),
            allow: Vec::new(),
        };
        let slot = unit_slot(army, corps_id.as_ref());
        Some((
            (
                "Add unit".to_owned(),
                vec![item_change(
                    ItemPath::Unit(a, slot),
                    None,
                    Some(Item::Unit(Box::new(unit))),
                )],
            ),
            Sel::Unit(a, slot),
        ))
    }

    // -----------------------------------------------------------------------------------------
    // Forms.

    fn draft_of(s: &Scenario, grid: &Grid, sel: Sel) -> Option<Draft> {
        let _ = grid;
        let mut texts = BTreeMap::new();
        let mut placement_kind = 0;
        let mut leader_placed = false;
        let value = match sel {
            Sel::Army(a) => DraftValue::Army(ArmyHeader::of(s.armies.get(a)?)),
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
                texts.insert("name", unit.name.clone());
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
            texts_before: texts.clone(),
            texts,
            placement_kind,
            placement_kind_before: placement_kind,
            leader_placed,
        })
    }

    fn form_ui(&mut self, ui: &mut Ui, doc: &Document, s: &Scenario, out: &mut OobOutput) {
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
                    out.edits.push(edit);
                }
            }
            self.draft = fresh;
        }
        let Some(mut draft) = self.draft.take() else {
            return;
        };
        let focus = std::mem::take(&mut self.focus_form);
        let commit = match &mut draft.value {
            DraftValue::Army(_) => self.army_form(ui, s, &mut draft, out),
            DraftValue::Commander(_) => self.commander_form(ui, s, &mut draft, out, focus),
            DraftValue::Corps(_) => self.corps_form(ui, s, &mut draft, out, focus),
            DraftValue::Unit(_) => self.unit_form(ui, s, grid, &mut draft, out, focus),
            DraftValue::Zone(_) => self.zone_form(ui, s, &mut draft, out, focus),
        };
        if commit {
            draft.read_texts(grid);
            if draft.value != draft.original
                && let Some(edit) = draft.changes(s)
            {
                out.edits.push(edit.0);
                if let Some(sel) = edit.1 {
                    out.select = Some(Some(sel));
                }
            }
        }
        self.draft = Some(draft);
    }

    fn army_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        out: &mut OobOutput,
    ) -> bool {
        let Sel::Army(a) = draft.sel else {
            return false;
        };
        let DraftValue::Army(header) = &mut draft.value else {
            return false;
        };
        ui.heading("Army");
        let mut commit = false;
        let mut id = header.id.to_string();
        commit |= text_row(ui, "Id", &mut id, false);
        header.id = Id(id);
        commit |= text_row(ui, "Name", &mut header.name, false);
        commit |= edge_checks(ui, &mut header.friendly_edges, "");
        ui.horizontal_wrapped(|ui| {
            if ui.button("Add corps").clicked() {
                out.edits.push(self.add_corps(s, a));
                out.select = Some(Some(Sel::Corps(a, s.armies[a].corps.len())));
            }
            if ui.button("Add commander").clicked() {
                out.edits.push(self.add_commander(s, a));
                out.select = Some(Some(Sel::Commander(a, s.armies[a].commanders.len())));
            }
            if ui.button("Delete army").clicked() {
                out.edits.push((
                    "Delete army".to_owned(),
                    vec![item_change(
                        ItemPath::Army(a),
                        Some(Item::Army(Box::new(s.armies[a].clone()))),
                        None,
                    )],
                ));
                out.select = Some(None);
            }
        });
        commit
    }

    fn commander_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        out: &mut OobOutput,
        focus: bool,
    ) -> bool {
        let Sel::Commander(a, k) = draft.sel else {
            return false;
        };
        let Draft { value, texts, .. } = draft;
        let DraftValue::Commander(chief) = value else {
            return false;
        };
        ui.heading("Commander in chief");
        let mut commit = false;
        for (key, label) in [("id", "Id"), ("name", "Name")] {
            let text = texts.entry(key).or_default();
            commit |= text_row(ui, label, text, focus && key == "name");
        }
        let default = s.rules.command.commander_radius_hexes;
        commit |= text_row_hint(
            ui,
            "Radius",
            &format!("default {default} hexes"),
            texts.entry("radius").or_default(),
            false,
        );
        commit |= text_row(ui, "Hex", texts.entry("hex").or_default(), false);
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
        ui.horizontal(|ui| {
            if ui.button("Take off the map").clicked() {
                texts.insert("hex", String::new());
                commit = true;
            }
            if ui.button("Delete").clicked() {
                out.edits.push((
                    "Delete commander".to_owned(),
                    vec![item_change(
                        ItemPath::Commander(a, k),
                        Some(Item::Commander(Box::new(s.armies[a].commanders[k].clone()))),
                        None,
                    )],
                ));
                out.select = Some(None);
            }
        });
        commit
    }

    fn corps_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        out: &mut OobOutput,
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
            ..
        } = draft;
        let DraftValue::Corps(corps) = value else {
            return false;
        };
        let _ = leader_placed;
        let mut commit = false;
        if leader_first {
            commit |= leader_fields(ui, s, corps, texts, focus, (a, c), out);
            ui.separator();
            commit |= corps_fields(ui, corps, texts, false);
        } else {
            commit |= corps_fields(ui, corps, texts, focus);
            ui.separator();
            commit |= leader_fields(ui, s, corps, texts, false, (a, c), out);
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if ui.button("Add unit").clicked()
                && let Some((edit, sel)) = self.add_unit(s, a, Some(c))
            {
                out.edits.push(edit);
                out.select = Some(Some(sel));
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
                format!("Delete corps and its {} units", units.len())
            };
            if ui.button(label).clicked() {
                let mut changes: Vec<Change> = units
                    .iter()
                    .rev()
                    .map(|&u| {
                        item_change(
                            ItemPath::Unit(a, u),
                            Some(Item::Unit(Box::new(s.armies[a].units[u].clone()))),
                            None,
                        )
                    })
                    .collect();
                changes.push(item_change(
                    ItemPath::Corps(a, c),
                    Some(Item::Corps(Box::new(s.armies[a].corps[c].clone()))),
                    None,
                ));
                out.edits.push(("Delete corps".to_owned(), changes));
                out.select = Some(None);
            }
        });
        commit
    }

    fn unit_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        grid: &Grid,
        draft: &mut Draft,
        out: &mut OobOutput,
        focus: bool,
    ) -> bool {
        let Sel::Unit(a, u) = draft.sel else {
            return false;
        };
        let Draft {
            value,
            texts,
            placement_kind,
            ..
        } = draft;
        let DraftValue::Unit(unit) = value else {
            return false;
        };
        ui.heading("Unit");
        let mut commit = false;
        commit |= text_row(ui, "Id", texts.entry("id").or_default(), false);
        commit |= text_row(ui, "Name", texts.entry("name").or_default(), focus);
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
            commit |= text_row(ui, label, texts.entry(key).or_default(), false);
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
                && let Some(zone) = s.zones.first()
            {
                unit.placement = Placement::Free {
                    zone: zone.id.clone(),
                    at: unit.placement.hex().cloned(),
                };
            }
        }
        match *placement_kind {
            1 => {
                commit |= text_row(ui, "Hex", texts.entry("hex").or_default(), false);
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
                        _ => zones[0].0.clone(),
                    };
                    if combo_row(ui, "Zone", &mut zone, &zones) {
                        commit = true;
                    }
                    let at = match &unit.placement {
                        Placement::Free { at, .. } => at.clone(),
                        _ => None,
                    };
                    unit.placement = Placement::Free { zone, at };
                    commit |= text_row(ui, "At hex", texts.entry("at").or_default(), false);
                }
            }
            3 => {
                commit |= text_row(ui, "Turn", texts.entry("turn").or_default(), false);
                commit |= text_row(ui, "Entry hexes", texts.entry("entry").or_default(), false);
                ui.weak("Entry hexes: names separated by commas, or click them with the zone tool (Z, Entry hexes).");
            }
            _ => {}
        }
        ui.weak(describe_placement(&unit.placement));
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if ui.button("Duplicate").clicked()
                && let Some((edit, sel)) = duplicate_unit(s, a, u)
            {
                out.edits.push(edit);
                out.select = Some(Some(sel));
            }
            if ui.button("Take off the map").clicked()
                && let Some(edit) = remove_from_map(s, CounterAt::Unit(a, u))
            {
                out.edits.push(edit);
            }
            if ui.button("Delete").clicked() {
                out.edits.push(delete_unit(s, a, u));
                out.select = Some(None);
            }
        });
        commit
    }

    fn zone_form(
        &mut self,
        ui: &mut Ui,
        s: &Scenario,
        draft: &mut Draft,
        out: &mut OobOutput,
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
        commit |= text_row(ui, "Id", texts.entry("id").or_default(), false);
        commit |= text_row(ui, "Name", texts.entry("name").or_default(), focus);
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
                self.zone_tool.zone = Some(z);
                self.zone_tool.mode = crate::zones::ZoneMode::Zone;
                out.zone_tool = true;
            }
            if ui.button("Delete zone").clicked() {
                out.edits.push((
                    "Delete zone".to_owned(),
                    vec![item_change(
                        ItemPath::Zone(z),
                        Some(Item::Zone(Box::new(s.zones[z].clone()))),
                        None,
                    )],
                ));
                out.select = Some(None);
            }
        });
        commit
    }
}

impl Draft {
    /// Reads the text fields into the value; a field that does not parse is reset.
    fn read_texts(&mut self, grid: &Grid) {
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
                if let Some(t) = edited(texts, "radius") {
                    match parse_opt::<u32>(&t) {
                        Ok(r) => c.radius_hexes = r.map(|r| r.min(50)),
                        Err(()) => {
                            texts.insert("radius", opt_text(c.radius_hexes));
                        }
                    }
                }
                if let Some(t) = edited(texts, "hex") {
                    match hex_of(&t) {
                        Ok(Some(h)) => c.placement = placement_dropped_on(&c.placement, h),
                        Ok(None) => c.placement = placement_removed(&c.placement),
                        Err(()) => {
                            texts.insert("hex", opt_text(c.placement.hex()));
                        }
                    }
                }
            }
            DraftValue::Corps(corps) => {
                if let Some(id) = edited(texts, "id") {
                    corps.id = Id(id);
                }
                if let Some(name) = edited(texts, "name").filter(|n| !n.is_empty()) {
                    corps.name = name;
                }
                if let Some(t) = edited(texts, "colour") {
                    match Colour::from(t.as_str()).rgb() {
                        Some(rgb) => corps.colour = Colour::from_rgb(rgb),
                        None => {
                            texts.insert("colour", corps.colour.to_string());
                        }
                    }
                }
                if let Some(l) = &mut corps.leader {
                    if let Some(id) = edited(texts, "leader-id") {
                        l.id = Id(id);
                    }
                    if let Some(name) = edited(texts, "leader-name").filter(|n| !n.is_empty()) {
                        l.name = name;
                    }
                    if let Some(t) = edited(texts, "activation") {
                        match t.parse::<u8>() {
                            Ok(v) => l.activation = v.min(10),
                            Err(_) => {
                                texts.insert("activation", l.activation.to_string());
                            }
                        }
                    }
                    if let Some(t) = edited(texts, "leader-radius") {
                        match parse_opt::<u32>(&t) {
                            Ok(r) => l.radius_hexes = r.map(|r| r.min(50)),
                            Err(()) => {
                                texts.insert("leader-radius", opt_text(l.radius_hexes));
                            }
                        }
                    }
                    if let Some(t) = edited(texts, "leader-hex") {
                        match hex_of(&t) {
                            Ok(Some(h)) => l.placement = placement_dropped_on(&l.placement, h),
                            Ok(None) => l.placement = placement_removed(&l.placement),
                            Err(()) => {
                                texts.insert("leader-hex", opt_text(l.placement.hex()));
                            }
                        }
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
                    if let Some(t) = edited(texts, key) {
                        match parse_opt::<u8>(&t) {
                            Ok(v) => *slot = v.map(|v| v.min(max)),
                            Err(()) => {
                                texts.insert(key, opt_text(*slot));
                            }
                        }
                    }
                }
                if let Some(t) = edited(texts, "fire") {
                    match parse_opt::<i8>(&t) {
                        Ok(v) => unit.fire_modifier = v.map(|v| v.clamp(-5, 5)),
                        Err(()) => {
                            texts.insert("fire", opt_text(unit.fire_modifier));
                        }
                    }
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
    fn changes(&self, s: &Scenario) -> Option<(NamedEdit, Option<Sel>)> {
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

fn corps_fields(
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

fn leader_fields(
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

/// Duplicates a unit (not placed, a new id) right after it.
pub fn duplicate_unit(s: &Scenario, a: usize, u: usize) -> Option<((String, Vec<Change>), Sel)> {
    let unit = s.armies.get(a)?.units.get(u)?;
    let mut copy = unit.clone();
    copy.id = unique_id(&ids_in_use(s), unit.id.as_str());
    copy.placement = crate::scenario_edit::placement_removed(&unit.placement);
    Some((
        (
            "Duplicate unit".to_owned(),
            vec![item_change(
                ItemPath::Unit(a, u + 1),
                None,
                Some(Item::Unit(Box::new(copy))),
            )],
        ),
        Sel::Unit(a, u + 1),
    ))
}

/// Deletes a unit.
pub fn delete_unit(s: &Scenario, a: usize, u: usize) -> (String, Vec<Change>) {
    let changes = s
        .armies
        .get(a)
        .and_then(|army| army.units.get(u))
        .map(|unit| {
            vec![item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                None,
            )]
        })
        .unwrap_or_default();
    ("Delete unit".to_owned(), changes)
}

/// The change that gives a counter a new placement.
pub fn set_placement(s: &Scenario, at: CounterAt, placement: Placement) -> Option<Change> {
    Some(match at {
        CounterAt::Unit(a, u) => {
            let unit = s.armies.get(a)?.units.get(u)?;
            if unit.placement == placement {
                return None;
            }
            let mut after = unit.clone();
            after.placement = placement;
            item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                Some(Item::Unit(Box::new(after))),
            )
        }
        CounterAt::Leader(a, c) => {
            let corps = s.armies.get(a)?.corps.get(c)?;
            let mut after = corps.clone();
            let leader = after.leader.as_mut()?;
            if leader.placement == placement {
                return None;
            }
            leader.placement = placement;
            item_change(
                ItemPath::Corps(a, c),
                Some(Item::Corps(Box::new(corps.clone()))),
                Some(Item::Corps(Box::new(after))),
            )
        }
        CounterAt::Commander(a, k) => {
            let chief = s.armies.get(a)?.commanders.get(k)?;
            if chief.placement == placement {
                return None;
            }
            let mut after = chief.clone();
            after.placement = placement;
            item_change(
                ItemPath::Commander(a, k),
                Some(Item::Commander(Box::new(chief.clone()))),
                Some(Item::Commander(Box::new(after))),
            )
        }
    })
}

/// Takes a counter off the map (a unit goes back to "not placed"; a free unit keeps its zone).
pub fn remove_from_map(s: &Scenario, at: CounterAt) -> Option<(String, Vec<Change>)> {
    let current = crate::scenario_edit::placement_of(s, at)?;
    let after = crate::scenario_edit::placement_removed(current);
    let change = set_placement(s, at, after)?;
    Some(("Take off the map".to_owned(), vec![change]))
}

/// Turns a unit's facing one hexside.
pub fn rotate(
    s: &Scenario,
    grid: &Grid,
    at: CounterAt,
    clockwise: bool,
) -> Option<(String, Vec<Change>)> {
    let CounterAt::Unit(a, u) = at else {
        return None;
    };
    let unit = s.armies.get(a)?.units.get(u)?;
    let mut after = unit.clone();
    after.facing = Some(crate::counters::rotate_facing(
        grid.orientation,
        unit.facing,
        clockwise,
    ));
    Some((
        "Turn unit".to_owned(),
        vec![item_change(
            ItemPath::Unit(a, u),
            Some(Item::Unit(Box::new(unit.clone()))),
            Some(Item::Unit(Box::new(after))),
        )],
    ))
}
