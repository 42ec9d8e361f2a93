//! Deployment zones, reinforcement entry hexes and victory objectives on the map: the zone tool
//! (Z) and its three modes (left-drag adds hexes, right-drag removes), its options in the left
//! dock, and drawing zones as tinted areas with outlines, entry hexes and objectives as markers.
//! Longer than 600 lines: the zone tool's three modes and the zone meshes they redraw are kept
//! together so that an edit and its redraw are read in one place.

use std::collections::{BTreeMap, HashMap, HashSet};

use bataille_schema::scenario::{Objective, Owner, Placement, Scenario, Zone};
use bataille_schema::{Grid, HexIndex, HexName, Id};
use egui::epaint::Mesh;
use egui::{Color32, Pos2, Rect, Shape, Stroke, pos2};

use crate::map::view::{MapView, colour32};
use crate::model::document::Document;
use crate::model::history::Change;
use crate::model::scenario_edit::{
    Item, ItemPath, ScenarioChange, describe_placement, ids_in_use, unique_id,
};
use crate::tools::{StrokeKind, ToolOutput};

/// What the zone tool paints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZoneMode {
    /// Hexes of the chosen deployment zone.
    #[default]
    Zone,
    /// Entry hexes of the selected reinforcement.
    Entry,
    /// Victory objectives.
    Objective,
}

/// The zone tool's options and stroke state.
#[derive(Debug, Clone)]
pub struct ZoneTool {
    pub mode: ZoneMode,
    /// The zone painted, by index.
    pub zone: Option<usize>,
    /// Points of a new objective.
    pub objective_points: u32,
    /// Draw zones on the map.
    pub show: bool,
    last_hex: Option<HexIndex>,
}

/// The zone tool's options, as the left dock sets them (by `AppCommand::ZoneOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneOptions {
    pub mode: ZoneMode,
    pub zone: Option<usize>,
    pub objective_points: u32,
    pub show: bool,
}

impl ZoneTool {
    /// Its options.
    pub fn options(&self) -> ZoneOptions {
        ZoneOptions {
            mode: self.mode,
            zone: self.zone,
            objective_points: self.objective_points,
            show: self.show,
        }
    }

    /// Takes these options (the stroke in progress is kept).
    pub fn set_options(&mut self, options: ZoneOptions) {
        self.mode = options.mode;
        self.zone = options.zone;
        self.objective_points = options.objective_points;
        self.show = options.show;
    }
}

impl Default for ZoneTool {
    fn default() -> Self {
        Self {
            mode: ZoneMode::Zone,
            zone: None,
            objective_points: 10,
            show: true,
            last_hex: None,
        }
    }
}

/// The zone tool (Z) as a map tool: its strokes go to [`ZoneTool::stroke_input`], which holds the
/// mode and the zone painted (in the scenario's state, with the selected unit for entry hexes).
pub struct ZoneMapTool;

impl super::MapTool for ZoneMapTool {
    fn id(&self) -> super::Tool {
        super::Tool::Zone
    }
    fn name(&self) -> &'static str {
        "Zone"
    }
    fn key(&self) -> egui::Key {
        egui::Key::Z
    }
    fn icon(&self) -> &'static str {
        "🚩"
    }
    fn tooltip(&self) -> &'static str {
        "Drag to add hexes to a deployment zone (or entry hexes, objectives); right-drag removes"
    }

    fn stroke(
        &self,
        _state: &mut super::ToolState,
        _doc: &Document,
        _stroke: super::Stroke,
    ) -> super::ToolOutput {
        super::ToolOutput::default()
    }
}

/// The colour of a zone: its corps' colour, or its army's first corps' colour.
pub fn zone_colour(s: &Scenario, zone: &Zone) -> Color32 {
    let fallback = Color32::from_rgb(120, 120, 200);
    match &zone.owner {
        Owner::Corps(id) => s
            .armies
            .iter()
            .flat_map(|a| &a.corps)
            .find(|c| &c.id == id)
            .map_or(fallback, |c| colour32(&c.colour, fallback)),
        // An army's zone takes its first corps' colour, or its family's (issue 21: two armies'
        // zones never share a tint).
        Owner::Army(id) => s
            .armies
            .iter()
            .position(|a| &a.id == id)
            .map_or(fallback, |a| match s.armies[a].corps.first() {
                Some(c) => colour32(&c.colour, fallback),
                None => colour32(&crate::model::defaults::corps_colour(a, 0), fallback),
            }),
    }
}

/// The owner's name for lists.
pub fn owner_name(s: &Scenario, owner: &Owner) -> String {
    match owner {
        Owner::Army(id) => s
            .armies
            .iter()
            .find(|a| &a.id == id)
            .map_or_else(|| format!("army {id}?"), |a| a.name.clone()),
        Owner::Corps(id) => s
            .armies
            .iter()
            .flat_map(|a| &a.corps)
            .find(|c| &c.id == id)
            .map_or_else(|| format!("corps {id}?"), |c| c.name.clone()),
    }
}

/// A new zone owned by `owner`, with a unique id.
pub fn new_zone(s: &Scenario, owner: Owner, name: &str) -> Zone {
    let taken = ids_in_use(s);
    let base = match &owner {
        Owner::Army(id) | Owner::Corps(id) => format!("{id}-zone"),
    };
    Zone {
        id: unique_id(&taken, &base),
        name: name.to_owned(),
        owner,
        hexes: bataille_schema::HexList::new(),
        shared_with: Vec::new(),
    }
}

impl ZoneTool {
    /// One frame of map input with a button down, in zone-tool mode. `unit` is the selected unit
    /// (army, index) for the entry mode.
    pub fn stroke_input(
        &mut self,
        doc: &Document,
        unit: Option<(usize, usize)>,
        pointer: [f32; 2],
        kind: StrokeKind,
        pressed: bool,
    ) -> ToolOutput {
        let mut out = ToolOutput::default();
        let Some(s) = doc.scenario.as_ref().map(|f| &f.scenario) else {
            return out;
        };
        if kind == StrokeKind::Pan {
            return out;
        }
        let grid = &doc.map.grid;
        let add = kind == StrokeKind::Add;
        if pressed {
            self.last_hex = None;
            out.begin = Some(match (self.mode, add) {
                (ZoneMode::Zone, true) => "Add hexes to zone",
                (ZoneMode::Zone, false) => "Remove hexes from zone",
                (ZoneMode::Entry, _) => "Entry hexes",
                (ZoneMode::Objective, _) => "Victory objectives",
            });
        }
        let Some(hex) = grid.hex_at(pointer) else {
            return out;
        };
        if self.last_hex == Some(hex) {
            return out;
        }
        self.last_hex = Some(hex);
        let name = grid.name(hex);
        match self.mode {
            ZoneMode::Zone => {
                let Some(z) = self.zone.and_then(|z| s.zones.get(z).map(|zone| (z, zone))) else {
                    return out;
                };
                let inside = z.1.hexes.contains(&name);
                if inside != add {
                    out.changes
                        .push(Change::Scenario(ScenarioChange::ZoneHexes {
                            zone: z.0,
                            hexes: vec![name],
                            present: add,
                        }));
                }
            }
            ZoneMode::Entry => {
                let Some((a, u)) = unit else {
                    return out;
                };
                let Some(before) = s.armies.get(a).and_then(|army| army.units.get(u)) else {
                    return out;
                };
                let mut after = before.clone();
                let (turn, mut entry) = match &before.placement {
                    Placement::Reinforcement { turn, entry } => (*turn, entry.to_vec()),
                    _ => (1, Vec::new()),
                };
                if add && !entry.contains(&name) {
                    entry.push(name);
                } else if !add {
                    entry.retain(|h| h != &name);
                }
                after.placement = if entry.is_empty() {
                    Placement::Unplaced
                } else {
                    Placement::Reinforcement {
                        turn,
                        entry: entry.into(),
                    }
                };
                if after != *before {
                    out.changes.push(Change::Scenario(ScenarioChange::Item {
                        path: ItemPath::Unit(a, u),
                        before: Some(Item::Unit(Box::new(before.clone()))),
                        after: Some(Item::Unit(Box::new(after))),
                    }));
                }
            }
            ZoneMode::Objective => {
                let existing = s.victory.objectives.iter().position(|o| o.hex == name);
                match (existing, add) {
                    (None, true) => {
                        let label = doc
                            .map
                            .labels
                            .get(&name)
                            .cloned()
                            .unwrap_or_else(|| format!("Hex {name}"));
                        out.changes.push(Change::Scenario(ScenarioChange::Item {
                            path: ItemPath::Objective(s.victory.objectives.len()),
                            before: None,
                            after: Some(Item::Objective(Box::new(Objective {
                                hex: name,
                                name: label,
                                points: self.objective_points,
                            }))),
                        }));
                    }
                    (Some(o), false) => {
                        out.changes.push(Change::Scenario(ScenarioChange::Item {
                            path: ItemPath::Objective(o),
                            before: Some(Item::Objective(Box::new(
                                s.victory.objectives[o].clone(),
                            ))),
                            after: None,
                        }));
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The options in the left dock. Returns edits to apply (a new zone).
    pub fn options_ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        selected_unit: Option<(usize, usize)>,
        selected_owner: Option<Owner>,
    ) -> Option<(String, Vec<Change>)> {
        let Some(s) = doc.scenario.as_ref().map(|f| &f.scenario) else {
            ui.weak("Open a scenario to edit its deployment zones.");
            return None;
        };
        let mut edit = None;
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.mode, ZoneMode::Zone, "Zone");
            ui.selectable_value(&mut self.mode, ZoneMode::Entry, "Entry hexes");
            ui.selectable_value(&mut self.mode, ZoneMode::Objective, "Objectives");
        });
        ui.checkbox(&mut self.show, "Show zones on the map");
        ui.separator();
        match self.mode {
            ZoneMode::Zone => {
                if self.zone.is_some_and(|z| z >= s.zones.len()) {
                    self.zone = None;
                }
                if s.zones.is_empty() {
                    ui.weak("No deployment zone yet.");
                }
                for (z, zone) in s.zones.iter().enumerate() {
                    let colour = zone_colour(s, zone);
                    ui.horizontal(|ui| {
                        let (r, _) =
                            ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                        ui.painter().rect_filled(r, 2.0, colour);
                        let text = format!(
                            "{} — {} ({} hexes)",
                            zone.name,
                            owner_name(s, &zone.owner),
                            zone.hexes.len()
                        );
                        // Truncated to the dock (a row wider than it would widen the dock's
                        // content and cut off every hint below); the whole row on hover.
                        let row = egui::Button::selectable(self.zone == Some(z), text.as_str());
                        if ui.add(row.truncate()).on_hover_text(&text).clicked() {
                            self.zone = Some(z);
                        }
                    });
                }
                let owner =
                    selected_owner.or_else(|| s.armies.first().map(|a| Owner::Army(a.id.clone())));
                if let Some(owner) = owner {
                    let label = format!("New zone for {}", owner_name(s, &owner));
                    let button = egui::Button::new(label.as_str()).truncate();
                    if ui.add(button).on_hover_text(&label).clicked() {
                        let name = crate::model::defaults::zone_name(s, &owner_name(s, &owner));
                        let zone = new_zone(s, owner, &name);
                        self.zone = Some(s.zones.len());
                        edit = Some((
                            "New zone".to_owned(),
                            vec![Change::Scenario(ScenarioChange::Item {
                                path: ItemPath::Zone(s.zones.len()),
                                before: None,
                                after: Some(Item::Zone(Box::new(zone))),
                            })],
                        ));
                    }
                    ui.weak("Select a corps or army in the order of battle to choose the owner.");
                } else {
                    ui.weak("Add an army first.");
                }
                ui.weak("Drag to add hexes to the zone; right-drag removes them.");
            }
            ZoneMode::Entry => {
                match selected_unit.and_then(|(a, u)| s.armies.get(a)?.units.get(u)) {
                    Some(unit) => {
                        ui.label(format!(
                            "{}: {}",
                            unit.name,
                            describe_placement(&unit.placement)
                        ));
                    }
                    None => {
                        ui.weak("Select a unit in the order of battle.");
                    }
                }
                ui.weak("Click hexes to add them to the unit's entry hexes (it becomes a reinforcement); right-click removes.");
            }
            ZoneMode::Objective => {
                ui.horizontal(|ui| {
                    let l = ui.label("Points");
                    ui.add(egui::DragValue::new(&mut self.objective_points).range(0..=1000))
                        .labelled_by(l.id);
                });
                for o in &s.victory.objectives {
                    ui.label(format!("★ {} ({}) — {} points", o.name, o.hex, o.points));
                }
                ui.weak("Click a hex to make it an objective; right-click removes one. Names and points: Scenario › Settings.");
            }
        }
        edit
    }
}

/// Cached grid-space meshes of the zones.
#[derive(Default)]
pub struct ZoneCache {
    key: Option<(u64, Grid)>,
    /// One mesh per zone: tint and outline.
    meshes: Vec<(usize, std::sync::Arc<Mesh>)>,
    bounds: Vec<Rect>,
    /// Entry hexes: the turns arriving there.
    pub entries: BTreeMap<HexIndex, Vec<u32>>,
    pub objectives: Vec<(HexIndex, u32)>,
    /// The zones and colours the meshes were built from (most scenario edits leave them be).
    built_from: Option<(Vec<Zone>, Vec<Color32>)>,
    /// The zone meshes on screen, and the view they were made for.
    screen: Option<ScreenMeshes>,
}

type ScreenMeshes = ((f32, Pos2, Rect, Option<usize>), Vec<std::sync::Arc<Mesh>>);

fn add_poly(mesh: &mut Mesh, points: &[Pos2], colour: Color32) {
    let base = mesh.vertices.len() as u32;
    for p in points {
        mesh.colored_vertex(*p, colour);
    }
    for i in 1..points.len().saturating_sub(1) as u32 {
        mesh.add_triangle(base, base + i, base + i + 1);
    }
}

fn add_line(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let d = b - a;
    let len = d.length();
    if len <= f32::EPSILON {
        return;
    }
    let n = egui::vec2(-d.y, d.x) / len * (width / 2.0);
    add_poly(mesh, &[a + n, b + n, b - n, a - n], colour);
}

/// How far out a zone's outline is drawn: a little inside its hexes, so that neighbouring
/// zones' outlines both show.
pub const OUTLINE_INSET: f32 = 0.94;

/// An outline in grid space ([`Grid::outline`]) as points of the map's painter.
pub fn outline_points(segments: Vec<[[f32; 2]; 2]>) -> Vec<[Pos2; 2]> {
    segments
        .into_iter()
        .map(|[a, b]| [pos2(a[0], a[1]), pos2(b[0], b[1])])
        .collect()
}

impl ZoneCache {
    pub fn refresh(&mut self, revision: u64, s: Option<&Scenario>, grid: &Grid) {
        if self
            .key
            .as_ref()
            .is_some_and(|(r, g)| *r == revision && g == grid)
        {
            return;
        }
        let same_grid = self.key.as_ref().is_some_and(|(_, g)| g == grid);
        self.key = Some((revision, grid.clone()));
        self.entries.clear();
        self.objectives.clear();
        let Some(s) = s else {
            self.meshes.clear();
            self.bounds.clear();
            self.screen = None;
            self.built_from = None;
            return;
        };
        self.refresh_markers(s, grid);
        let colours: Vec<Color32> = s.zones.iter().map(|z| zone_colour(s, z)).collect();
        if same_grid
            && self
                .built_from
                .as_ref()
                .is_some_and(|(zones, c)| *zones == s.zones && *c == colours)
        {
            return;
        }
        self.meshes.clear();
        self.bounds.clear();
        self.screen = None;
        self.built_from = Some((s.zones.clone(), colours));
        for (z, zone) in s.zones.iter().enumerate() {
            let colour = zone_colour(s, zone);
            let hexes: HashSet<HexIndex> =
                zone.hexes.iter().filter_map(|h| grid.lookup(&h)).collect();
            let mut mesh = Mesh::default();
            let mut bounds = Rect::NOTHING;
            let tint = Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 70);
            for &hex in &hexes {
                let corners: Vec<Pos2> =
                    grid.corners(hex).iter().map(|c| pos2(c[0], c[1])).collect();
                for p in &corners {
                    bounds.extend_with(*p);
                }
                add_poly(&mut mesh, &corners, tint);
            }
            for [a, b] in outline_points(grid.outline(&hexes, OUTLINE_INSET)) {
                add_line(&mut mesh, a, b, 0.12, colour);
            }
            self.meshes.push((z, std::sync::Arc::new(mesh)));
            self.bounds.push(bounds);
        }
    }

    fn refresh_markers(&mut self, s: &Scenario, grid: &Grid) {
        for army in &s.armies {
            for unit in &army.units {
                if let Placement::Reinforcement { turn, entry } = &unit.placement {
                    for h in entry {
                        if let Some(hex) = grid.lookup(h) {
                            let turns = self.entries.entry(hex).or_default();
                            if !turns.contains(turn) {
                                turns.push(*turn);
                                turns.sort_unstable();
                            }
                        }
                    }
                }
            }
        }
        self.objectives = s
            .victory
            .objectives
            .iter()
            .filter_map(|o| Some((grid.lookup(&o.hex)?, o.points)))
            .collect();
    }

    /// Draws the zones (the highlighted one stronger), entry hexes and objectives in view.
    pub fn paint(
        &mut self,
        painter: &egui::Painter,
        view: &MapView,
        rect: Rect,
        grid: &Grid,
        show_zones: bool,
        highlight: Option<usize>,
    ) {
        let visible = view.visible_grid_rect(rect);
        let mut shapes = Vec::new();
        if show_zones {
            // Screen-space meshes are kept while the view, the zones and the highlight stay.
            let key = (view.zoom, view.centre, rect, highlight);
            let cached = matches!(&self.screen, Some((k, _)) if *k == key);
            if !cached {
                let mut meshes = Vec::new();
                for ((z, mesh), bounds) in self.meshes.iter().zip(&self.bounds) {
                    if !visible.intersects(bounds.expand(1.0)) || mesh.is_empty() {
                        continue;
                    }
                    let mut screen = Mesh::clone(mesh);
                    let strong = highlight == Some(*z);
                    for v in &mut screen.vertices {
                        v.pos = view.to_screen(rect, v.pos);
                        if !strong && highlight.is_some() {
                            v.color = v.color.gamma_multiply(0.6);
                        }
                    }
                    meshes.push(std::sync::Arc::new(screen));
                }
                self.screen = Some((key, meshes));
            }
            if let Some((_, meshes)) = &self.screen {
                shapes.extend(meshes.iter().map(|m| Shape::Mesh(m.clone())));
            }
        }
        let size = (view.zoom * 0.35).clamp(8.0, 18.0);
        // Map text in the symbology's font.
        let font = crate::map::text::font_id(
            bataille_render::text::Face::Bold,
            size,
            crate::map::text::installed(painter.ctx()),
        );
        let blue = Color32::from_rgb(30, 90, 200);
        for (hex, turns) in &self.entries {
            let [x, y] = grid.centre(*hex);
            if !visible.expand(1.0).contains(pos2(x, y)) {
                continue;
            }
            let c = view.to_screen(rect, pos2(x, y));
            let outline: Vec<Pos2> = grid
                .corners(*hex)
                .iter()
                .map(|p| view.to_screen(rect, pos2(p[0], p[1])))
                .collect();
            shapes.extend(Shape::dashed_line(
                &[outline.clone(), vec![outline[0]]].concat(),
                Stroke::new(2.0, blue),
                6.0,
                4.0,
            ));
            if view.zoom >= 12.0 {
                let text: Vec<String> = turns.iter().map(|t| format!("T{t}")).collect();
                let at = c + egui::vec2(0.0, view.zoom * 0.62);
                let text = format!("⮊ {}", text.join(","));
                badge(
                    &mut shapes,
                    painter,
                    (text, &font),
                    at,
                    (blue, Color32::WHITE),
                );
            }
        }
        let gold = Color32::from_rgb(200, 150, 20);
        for (hex, points) in &self.objectives {
            let [x, y] = grid.centre(*hex);
            if !visible.expand(1.0).contains(pos2(x, y)) {
                continue;
            }
            let outline: Vec<Pos2> = grid
                .corners(*hex)
                .iter()
                .map(|p| {
                    let c = pos2(x, y);
                    view.to_screen(rect, c + (pos2(p[0], p[1]) - c) * 0.85)
                })
                .collect();
            shapes.push(Shape::closed_line(outline, Stroke::new(3.0, gold)));
            if view.zoom >= 12.0 {
                let at = view.to_screen(rect, pos2(x, y - 0.55));
                let text = format!("★{points}");
                badge(
                    &mut shapes,
                    painter,
                    (text, &font),
                    at,
                    (gold, Color32::BLACK),
                );
            }
        }
        painter.extend(shapes);
    }
}

/// The zone ids and names, for combo boxes.
pub fn zone_choices(s: &Scenario) -> Vec<(Id, String)> {
    s.zones
        .iter()
        .map(|z| (z.id.clone(), z.name.clone()))
        .collect()
}

/// Hex names parsed from a list typed by the user (`3211, 3212`); unknown names are dropped.
pub fn parse_hex_list(grid: &Grid, text: &str) -> Vec<HexName> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .filter_map(|t| grid.parse(t).ok().map(|h| grid.name(h)))
        .collect()
}

/// Counts hexes by zone id, for the tree.
pub fn zone_sizes(s: &Scenario) -> HashMap<&str, usize> {
    s.zones
        .iter()
        .map(|z| (z.id.as_str(), z.hexes.len()))
        .collect()
}

/// A label on a filled rounded box centred at `at`: `(fill, text colour)`.
fn badge(
    shapes: &mut Vec<Shape>,
    painter: &egui::Painter,
    (text, font): (String, &egui::FontId),
    at: Pos2,
    (fill, ink): (Color32, Color32),
) {
    let galley = painter.layout_no_wrap(text, font.clone(), ink);
    let r = egui::Align2::CENTER_CENTER
        .anchor_size(at, galley.size())
        .expand(2.0);
    shapes.push(Shape::rect_filled(r, 3.0, fill));
    shapes.push(Shape::galley(r.min + egui::vec2(2.0, 2.0), galley, ink));
}
