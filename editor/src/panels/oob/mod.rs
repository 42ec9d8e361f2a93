//! The order-of-battle panel (right dock): the tree army → commanders in chief → corps → line
//! leader and units, with a filter and keyboard navigation (Up/Down move, Left/Right fold, Enter edits);
//! rows drag onto the map; the form of the selected item for every field of the model. The
//! panel is handed the frame's `ViewContext`, edits a draft and, when a field is committed
//! (Enter, focus lost, a choice made), sends a `AppCommand::Edit` — ids kept unique (suffixed) and
//! renamed everywhere they are referenced; choosing a row sends `AppCommand::Select`.

mod draft;
mod forms;
mod tree;
mod widgets;

use std::collections::{BTreeMap, HashMap, HashSet};

use bataille_render::symbology::{CounterLook, Looks};
use bataille_schema::geometry::sides;
use bataille_schema::map::Orientation;
use bataille_schema::scenario::{Commander, Corps, Owner, Placement, Scenario, Unit, Zone};
use bataille_schema::{Colour, Grid, HexName, Id, MapEdge, Side, bounds};
use egui::{Color32, RichText, Ui};

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::map::view::colour32;
use crate::model::document::Document;
use crate::model::history::Change;
use crate::model::scenario_edit::{
    ArmyHeader, CounterAt, Item, ItemPath, ScenarioChange, describe_placement, id_follows_name,
    ids_in_use, needs_placing, placement_dropped_on, placement_removed, sanitise_id, unique_id,
};
use crate::panels::field::{Field, LABEL_WIDTH, number, optional_number};
use crate::tools::zone::{owner_name, parse_hex_list};

pub use crate::context::command::DockTab;
pub use crate::layers::scenario::CounterDrop;
pub use crate::model::delete::*;
pub use crate::model::oob_ops::*;
pub use crate::model::references::{IdMoves, follow_ids};
pub use crate::model::selection::Sel;
use widgets::*;

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
    /// A small counter: the unit's colour and symbol.
    Counter(CounterLook),
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
            Swatch::Counter(counter) => {
                let (r, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
                let look = crate::map::counters::UnitLook {
                    at: CounterAt::Unit(0, 0),
                    // Colour and symbol: its values are in the row's text.
                    look: CounterLook {
                        values: Default::default(),
                        facing: None,
                        ..*counter
                    },
                    army_colour: Color32::GRAY,
                    shown: crate::map::counters::shown_values(&Default::default()),
                };
                let mut shapes = Vec::new();
                crate::map::counters::unit_shapes(&mut shapes, &look, r, false);
                ui.painter().extend(shapes);
            }
        }
    }
}

/// What the tree's rows depend on: the scenario's revision, the filter, the folds.
type RowsKey = (u64, String, bool, u64);

/// Units per corps id, army by army.
pub(super) type CorpsSizes = Vec<HashMap<String, usize>>;

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
    /// The fields typed as text (ids, names, numbers, hexes), by key.
    texts: BTreeMap<&'static str, Field>,
    /// The placement kind chosen (0 not placed, 1 hex, 2 free, 3 reinforcement).
    placement_kind: u8,
    placement_kind_before: u8,
    leader_placed: bool,
    /// The unit's ratings fields under the scenario's miniatures systems.
    ratings: crate::panels::ratings::RatingTexts,
}

/// The order-of-battle panel's own state: the filter, the folds, the draft of the form, the
/// caches of the tree's rows and of the corps' sizes.
#[derive(Default)]
pub struct OobPanel {
    /// This frame's selection: the context's, as the tree changed it during the frame (the
    /// `AppCommand::Select` it sent runs at the end of the frame).
    selected: Option<Sel>,
    /// The selection last seen in the context: when it changes, the tree scrolls to it.
    seen_selection: Option<Sel>,
    /// The document's scenario revision (caches compare it).
    revision: u64,
    pub filter: String,
    pub only_unplaced: bool,
    open: HashMap<Node, bool>,
    draft: Option<Draft>,
    tree_focused: bool,
    /// The tree takes the keyboard in its next frame (Order of battle from the palette or a
    /// key: the arrows work at once, no click first).
    pub focus_tree: bool,
    /// Bumped when a node is folded or unfolded.
    open_version: u64,
    /// The tree's rows and what they were computed from.
    rows_cache: Option<(RowsKey, Vec<Row>)>,
    /// Units per corps id, army by army, for the scenario revision it was counted at.
    corps_sizes: (u64, std::sync::Arc<CorpsSizes>),
    scroll_to_selected: bool,
    focus_form: bool,
    /// The miniatures systems the scenario names, loaded (handed in each frame).
    systems: Vec<(Id, crate::services::systems::Loaded)>,
    /// A variant's changed counters and zones (their ids), for the scenario revision they were
    /// worked out at: their rows are marked.
    changed: Option<(u64, std::sync::Arc<std::collections::HashSet<String>>)>,
}

/// Sends an edit (one undo step) to the app's handler.
fn send_edit(cx: &ViewContext<'_>, (label, changes): NamedEdit) {
    if !changes.is_empty() {
        cx.send(AppCommand::Edit { label, changes });
    }
}

/// Sends each of these edits.
fn send_edits(cx: &ViewContext<'_>, edits: impl IntoIterator<Item = NamedEdit>) {
    for edit in edits {
        send_edit(cx, edit);
    }
}

/// Asks for a selection (after the edits sent before it).
fn select(cx: &ViewContext<'_>, sel: Option<Sel>) {
    cx.send(AppCommand::Select(sel));
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

fn unit_values(u: &Unit, layout: &bataille_schema::scenario::CounterLayout) -> String {
    crate::map::counters::values_text(bataille_render::symbology::CounterValues::of(u), layout)
}

fn matches(filter: &str, name: &str, id: &str) -> bool {
    filter.is_empty() || name.to_lowercase().contains(filter) || id.to_lowercase().contains(filter)
}

impl OobPanel {
    /// Forgets everything about the previous document (its filter and folds too).
    pub fn reset(&mut self) {
        *self = OobPanel::default();
    }

    fn is_open(&self, node: Node, total_units: usize) -> bool {
        self.open.get(&node).copied().unwrap_or(match node {
            Node::Army(_) | Node::Zones | Node::NoCorps(_) => true,
            Node::Corps(..) => total_units <= 250,
        })
    }

    /// The page: the scenario's title, the filter, the tree and the form of the selection.
    /// `systems`: the miniatures systems the scenario names, loaded (their ratings' fields).
    pub fn ui(
        &mut self,
        cx: &ViewContext<'_>,
        ui: &mut Ui,
        systems: Vec<(Id, crate::services::systems::Loaded)>,
    ) {
        self.systems = systems;
        self.revision = cx.scenario_revision;
        if cx.selection.item != self.seen_selection {
            // Chosen here, on the map or by a diagnostic: the tree shows it.
            self.seen_selection = cx.selection.item;
            self.scroll_to_selected = true;
        }
        self.selected = cx.selection.item;
        let doc = cx.doc;
        let Some(file) = doc.scenario.as_ref() else {
            ui.weak("No scenario is open: the order of battle belongs to a scenario.");
            if ui.button("New scenario for this map…").clicked() {
                cx.send(UiCommand::NewScenario);
            }
            return;
        };
        let s = &file.scenario;
        match &doc.variant {
            Some(origin) if self.changed.as_ref().is_none_or(|c| c.0 != self.revision) => {
                self.changed = Some((self.revision, std::sync::Arc::new(origin.changed_ids(s))));
            }
            Some(_) => {}
            None => self.changed = None,
        }
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
                cx.send(UiCommand::ScenarioSettings);
            }
        });
        ui.weak(format!(
            "{}, {waiting} not placed yet",
            crate::panels::widgets::count(units, "unit")
        ));
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
                send_edit(cx, add_army(s));
                select(cx, Some(Sel::Army(s.armies.len())));
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
        self.tree_ui(ui, s, &doc.map.grid, &rows, cx);
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("oob-form")
            .auto_shrink([false, false])
            .show(ui, |ui| self.form_ui(ui, doc, s, cx));
    }
}
