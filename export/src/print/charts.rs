//! The kit's charts: the terrain effects chart (every effect the legend holds, each cell
//! wrapped in its column, never cut), the set-up, the reinforcement schedule and the victory
//! conditions, flowed over as many pages as they need.

use std::collections::{BTreeMap, HashMap};

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Face, text_width};
use bataille_render::tiny_skia::{PathBuilder, Transform};
use bataille_schema::map::{Effects, MoveCost};
use bataille_schema::scenario::{Placement, VictoryCondition};
use bataille_schema::{Map, Scenario};

use super::words::Words;
use super::{LEFT, MARGIN, UNITS, line_mm, text, translate};
use crate::counters::counters;
use crate::language::fill;

/// Line height as a share of the font size.
const LEADING: f32 = 1.4;

/// A flow of lines over pages: headings, text wrapped to the width, table rows.
pub(crate) struct Flow {
    pub pages: Vec<Drawing>,
    y: f32,
    width: f32,
    height: f32,
}

impl Flow {
    pub fn new([pw, ph]: [f32; 2]) -> Self {
        Flow {
            pages: vec![Drawing::new()],
            y: MARGIN,
            width: pw - 2.0 * MARGIN,
            height: ph - MARGIN,
        }
    }

    /// Starts a new page unless `mm` more fit on this one; true when a page was started.
    fn need(&mut self, mm: f32) -> bool {
        if self.y + mm > self.height && self.y > MARGIN {
            self.pages.push(Drawing::new());
            self.y = MARGIN;
            true
        } else {
            false
        }
    }

    fn page(&mut self) -> &mut Drawing {
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    pub fn heading(&mut self, s: &str, size: f32) {
        let lines = wrap(s, Face::Bold, size, self.width);
        // A heading keeps a sub-heading and two lines of what follows with it.
        self.need(size * (0.6 + LEADING * lines.len() as f32) + 22.0);
        self.y += size * 0.6;
        for line in lines {
            self.y += size * LEADING;
            let y = self.y;
            text(self.page(), &line, size, Face::Bold, [MARGIN, y], LEFT);
        }
        self.y += size * 0.5;
    }

    pub fn paragraph(&mut self, s: &str, size: f32, indent: f32) {
        for line in wrap(s, Face::Regular, size, self.width - indent) {
            self.need(size * LEADING);
            self.y += size * LEADING;
            let y = self.y;
            text(
                self.page(),
                &line,
                size,
                Face::Regular,
                [MARGIN + indent, y],
                LEFT,
            );
        }
    }

    pub fn gap(&mut self, mm: f32) {
        self.y += mm;
    }
}

/// A table: columns (left edge and width, mm from the margin) and a header row drawn again at
/// the top of each page the table continues on.
struct Table {
    columns: Vec<(f32, f32)>,
    header: Vec<String>,
    size: f32,
}

impl Table {
    /// The cells' lines, each cell wrapped to its column.
    fn lines(&self, cells: &[String], face: Face) -> Vec<Vec<String>> {
        cells
            .iter()
            .zip(&self.columns)
            .map(|(s, (_, w))| wrap(s, face, self.size, *w - 1.5))
            .collect()
    }

    fn height(&self, lines: &[Vec<String>], min: f32) -> f32 {
        let most = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
        (most as f32 * self.size * LEADING + 2.2).max(min)
    }

    fn draw(&self, flow: &mut Flow, lines: &[Vec<String>], face: Face, h: f32) {
        let y = flow.y;
        let size = self.size;
        for (cell, (x, _)) in lines.iter().zip(&self.columns) {
            let block = cell.len() as f32 * size * LEADING;
            let mut baseline = y + (h - block) / 2.0 + size * LEADING * 0.78;
            for line in cell {
                text(flow.page(), line, size, face, [MARGIN + x, baseline], LEFT);
                baseline += size * LEADING;
            }
        }
        flow.y += h;
        let (y, width) = (flow.y, flow.width);
        line_mm(
            flow.page(),
            [MARGIN, y],
            [MARGIN + width, y],
            [0xa0, 0xa0, 0xa0, 0xff],
            0.15,
        );
    }

    fn header(&self, flow: &mut Flow) {
        let lines = self.lines(&self.header, Face::Bold);
        let h = self.height(&lines, 6.0);
        flow.need(h + 10.0);
        self.draw(flow, &lines, Face::Bold, h);
    }

    /// A row; `swatch` (drawing units, centred at the origin) goes in the first column.
    fn row(&self, flow: &mut Flow, cells: &[String], swatch: Option<Drawing>, min: f32) {
        let lines = self.lines(cells, Face::Regular);
        let h = self.height(&lines, min);
        if flow.need(h) {
            self.header(flow);
        }
        if let Some(swatch) = swatch {
            let (x, w) = self.columns[0];
            let y = flow.y;
            for item in swatch.items {
                flow.page().items.push(translate(
                    item,
                    (MARGIN + x + w / 2.0 - 0.5) * UNITS,
                    (y + h / 2.0) * UNITS,
                ));
            }
        }
        self.draw(flow, &lines, Face::Regular, h);
    }
}

/// Words wrapped to lines no wider than `width` mm (a word wider than the width has a line to
/// itself: columns are made as wide as their widest word).
pub(crate) fn wrap(s: &str, face: Face, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, face, size) > width {
            lines.push(std::mem::take(&mut line));
            line = word.to_owned();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The widest word of a text, mm.
fn widest_word(s: &str, face: Face, size: f32) -> f32 {
    s.split_whitespace()
        .map(|w| text_width(w, face, size))
        .fold(0.0, f32::max)
}

fn cost_text(cost: Option<MoveCost>, default: &str, extra: bool, w: &Words) -> String {
    match cost {
        None => default.to_owned(),
        Some(MoveCost::Mp(n)) if extra => format!("+{n}"),
        Some(MoveCost::Mp(n)) => n.to_string(),
        Some(MoveCost::AllMp) => w.all.to_owned(),
        Some(MoveCost::HalfMp) => "½".to_owned(),
        Some(MoveCost::Impassable) => "—".to_owned(),
    }
}

/// The cost for a unit kind: its movement class's (`moves_as`, else its id), else the default.
fn cost_for(
    cost: Option<MoveCost>,
    by_kind: &BTreeMap<bataille_schema::Id, MoveCost>,
    kind_id: &bataille_schema::Id,
    moves_as: Option<&bataille_schema::Id>,
) -> Option<MoveCost> {
    by_kind
        .get(moves_as.unwrap_or(kind_id))
        .or_else(|| by_kind.get(kind_id))
        .copied()
        .or(cost)
}

/// Every effect of `e` not in a column of its own.
fn effects_notes(e: &Effects, w: &Words) -> Vec<String> {
    let mut notes = Vec::new();
    if e.needs_breach {
        notes.push(w.breach.to_owned());
    }
    if e.redoubt {
        notes.push(w.redoubt.to_owned());
    }
    if e.built_up {
        notes.push(w.built_up.to_owned());
    }
    if e.elevated {
        notes.push(w.elevated.to_owned());
    }
    if e.road_bonus_mp > 0 {
        notes.push(fill(w.road_bonus, &[("n", &e.road_bonus_mp.to_string())]));
    }
    if let Some(n) = e.defence_multiplier {
        notes.push(fill(w.defence_multiplier, &[("n", &n.to_string())]));
    }
    if e.blocks_fire {
        notes.push(w.blocks_fire.to_owned());
    }
    notes
}

fn yes(flag: bool, w: &Words) -> String {
    if flag {
        w.blocks.to_owned()
    } else {
        String::new()
    }
}

fn protection(p: u8) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        String::new()
    }
}

/// The terrain effects chart, set-up, reinforcements and victory, on pages of `paper`.
pub(crate) fn charts(
    scenario: &Scenario,
    map: &Map,
    paper: [f32; 2],
    w: &Words,
    variant: Option<&crate::variants::VariantNote>,
) -> Vec<Drawing> {
    let mut flow = Flow::new(paper);
    if let Some(note) = variant {
        variant_page(&mut flow, note, w);
    }
    terrain_effects(&mut flow, scenario, map, w);
    setup(&mut flow, scenario, map, w);
    victory(&mut flow, scenario, map, w);
    rule_charts(&mut flow, scenario, w);
    flow.pages
}

/// A variant's page: what it is a variant of, its notes, what it changes (one line a change,
/// with the published value) and what it rests on.
fn variant_page(flow: &mut Flow, note: &crate::variants::VariantNote, w: &Words) {
    flow.heading(&fill(w.variant, &[("name", &note.name)]), 6.0);
    flow.paragraph(
        &fill(w.variant_of, &[("title", &note.base_title)]),
        3.2,
        0.0,
    );
    if let Some(notes) = &note.notes {
        flow.gap(2.0);
        flow.paragraph(notes, 3.0, 0.0);
    }
    if !note.changes.is_empty() {
        flow.heading(w.variant_changes, 4.2);
        for change in &note.changes {
            flow.paragraph(&format!("• {change}"), 2.9, 3.0);
        }
    }
    if !note.sources.is_empty() {
        flow.heading(w.variant_sources, 4.2);
        for source in &note.sources {
            flow.paragraph(&format!("• {source}"), 2.9, 3.0);
        }
    }
    flow.gap(4.0);
}

/// The rules' charts (`rules.charts`: a combat results table): a row per roll of its die, a
/// column per heading, what each result means and the chart's notes.
fn rule_charts(flow: &mut Flow, scenario: &Scenario, w: &Words) {
    for chart in &scenario.rules.charts {
        let title = match &chart.rule {
            Some(rule) => format!("[{rule}] {}", chart.name),
            None => chart.name.clone(),
        };
        flow.heading(&title, 6.0);
        if let Some(what) = &chart.columns_are {
            flow.paragraph(what, 3.0, 0.0);
        }
        flow.gap(1.0);
        let size = 3.0;
        let first = (widest_word(&fill(w.die, &[("die", chart.die.name())]), Face::Bold, size)
            + 3.0)
            .max(12.0);
        let each = ((flow.width - first) / chart.columns.len().max(1) as f32).min(18.0);
        let mut columns = vec![(0.0, first)];
        for k in 0..chart.columns.len() {
            columns.push((first + k as f32 * each, each));
        }
        let mut header = vec![fill(w.die, &[("die", chart.die.name())])];
        header.extend(chart.columns.iter().cloned());
        let table = Table {
            columns,
            header,
            size,
        };
        table.header(flow);
        for row in &chart.rows {
            let roll = match row.to {
                Some(to) if to != row.roll => format!("{}-{to}", row.roll),
                _ => row.roll.to_string(),
            };
            let mut cells = vec![roll];
            cells.extend(row.results.iter().cloned());
            table.row(flow, &cells, None, 6.0);
        }
        flow.gap(2.0);
        for (result, meaning) in &chart.results {
            flow.paragraph(&format!("{result}: {meaning}"), 2.9, 3.0);
        }
        if let Some(notes) = &chart.notes {
            flow.paragraph(notes, 2.9, 3.0);
        }
        flow.gap(3.0);
    }
}

fn terrain_effects(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
    let kinds: Vec<(&bataille_schema::Id, &bataille_schema::scenario::UnitKind)> = scenario
        .rules
        .unit_kinds
        .iter()
        .filter(|(_, k)| !k.immobile)
        .collect();
    flow.heading(&fill(w.tec, &[("map", &map.name)]), 6.0);
    flow.paragraph(w.tec_note, 3.0, 0.0);
    flow.gap(2.0);
    let size = 2.8;
    let pad = 2.5;
    let swatch_w = 11.0;
    let narrow = |header: &str, values: &[&str]| {
        values
            .iter()
            .map(|v| text_width(v, Face::Regular, size))
            .fold(widest_word(header, Face::Bold, size), f32::max)
            + pad
    };
    let mut widths: Vec<f32> = kinds
        .iter()
        .map(|(_, k)| narrow(&k.name, &["+2", w.all]).max(10.0))
        .collect();
    let prot_w = narrow(w.protection, &["+2"]);
    let sight_w = narrow(w.sight, &[w.blocks]);
    let zoc_w = narrow(w.zoc, &[w.blocks]);
    widths.extend([prot_w, sight_w, zoc_w]);
    let fixed: f32 = swatch_w + widths.iter().sum::<f32>();
    let free = (flow.width - fixed).max(40.0);
    let (name_w, other_w) = (free * 0.6, free * 0.4);
    let mut columns = vec![(0.0, swatch_w), (swatch_w, name_w)];
    let mut x = swatch_w + name_w;
    for width in &widths {
        columns.push((x, *width));
        x += width;
    }
    columns.push((x, other_w));
    // The first column holds the swatch only: the name's column is the second.
    let header = |first: &str, effects: bool| -> Vec<String> {
        let mut h = vec![String::new(), first.to_owned()];
        h.extend(kinds.iter().map(|(_, k)| k.name.clone()));
        if effects {
            h.extend([w.protection.into(), w.sight.into(), w.zoc.into()]);
        } else {
            h.extend([String::new(), String::new(), w.zoc.into()]);
        }
        h.push(w.other.to_owned());
        h
    };
    let radius = 4.4 * UNITS;
    let table = Table {
        columns: columns.clone(),
        header: header(w.terrain, true),
        size,
    };
    table.header(flow);
    for (code, terrain) in &map.terrain {
        let Some(c) = code.chars().next() else {
            continue;
        };
        let e = &terrain.effects;
        let mut cells = vec![String::new(), terrain.name.clone()];
        for (id, kind) in &kinds {
            cells.push(cost_text(
                cost_for(e.cost, &e.cost_by_kind, id, kind.moves_as.as_ref()),
                "1",
                false,
                w,
            ));
        }
        cells.extend([
            protection(e.protection),
            yes(e.blocks_sight, w),
            yes(e.blocks_zoc, w),
        ]);
        let mut notes = effects_notes(e, w);
        if terrain.water {
            notes.push(w.water.to_owned());
        }
        cells.push(notes.join(", "));
        table.row(flow, &cells, symbology::terrain_hex(map, c, radius), 10.0);
    }
    if !map.overlay_types.is_empty() {
        flow.gap(4.0);
        // No swatch for what stands on a hex: its name takes the swatch's room too.
        let mut wide = columns.clone();
        wide[0] = (0.0, 0.0);
        wide[1] = (0.0, swatch_w + name_w);
        let table = Table {
            columns: wide,
            header: header(w.overlay, true),
            size,
        };
        table.header(flow);
        for overlay in map.overlay_types.values() {
            let e = &overlay.effects;
            let mut cells = vec![String::new(), overlay.name.clone()];
            for (id, kind) in &kinds {
                cells.push(cost_text(
                    cost_for(e.cost, &e.cost_by_kind, id, kind.moves_as.as_ref()),
                    "",
                    false,
                    w,
                ));
            }
            cells.extend([
                protection(e.protection),
                yes(e.blocks_sight, w),
                yes(e.blocks_zoc, w),
            ]);
            let mut notes = effects_notes(e, w);
            if overlay.bridge {
                notes.push(w.bridge.to_owned());
            }
            cells.push(notes.join(", "));
            table.row(flow, &cells, None, 7.0);
        }
    }
    if !map.hexside_types.is_empty() {
        flow.gap(4.0);
        let table = Table {
            columns,
            header: header(w.hexside, false),
            size,
        };
        table.header(flow);
        for hexside in map.hexside_types.values() {
            let mut cells = vec![String::new(), hexside.name.clone()];
            for (id, kind) in &kinds {
                cells.push(cost_text(
                    cost_for(
                        hexside.cost,
                        &hexside.cost_by_kind,
                        id,
                        kind.moves_as.as_ref(),
                    ),
                    "",
                    true,
                    w,
                ));
            }
            cells.extend([String::new(), String::new(), yes(hexside.blocks_zoc, w)]);
            let mut other = Vec::new();
            if hexside.needs_breach {
                other.push(w.breach);
            }
            if hexside.bridge {
                other.push(w.bridge);
            }
            if hexside.water {
                other.push(w.water);
            }
            cells.push(other.join(", "));
            let mut swatch = Drawing::new();
            let colour = crate::counters::rgb(&hexside.colour);
            let mut pb = PathBuilder::new();
            pb.move_to(-4.0 * UNITS, 0.0);
            pb.line_to(4.0 * UNITS, 0.0);
            let width = match hexside.symbol {
                bataille_schema::map::HexsideSymbol::River => 1.6,
                bataille_schema::map::HexsideSymbol::Stream => 0.9,
                _ => 0.7,
            };
            swatch.stroke(
                pb.finish(),
                [colour[0], colour[1], colour[2], 255],
                width * UNITS,
                Transform::identity(),
            );
            table.row(flow, &cells, Some(swatch), 7.0);
        }
    }
}

fn setup(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
    flow.heading(&fill(w.setup, &[("title", &scenario.title)]), 6.0);
    let zone_names: HashMap<&str, &str> = scenario
        .zones
        .iter()
        .map(|z| (z.id.as_str(), z.name.as_str()))
        .collect();
    let all = counters(scenario, map);
    for army in &scenario.armies {
        flow.heading(&army.name, 4.2);
        for counter in all.iter().filter(|c| c.army == Some(army.id.as_str())) {
            let Some(placement) = counter.placement else {
                continue;
            };
            let facing = match &counter.kind {
                crate::counters::CounterKind::Unit { unit, .. } => unit
                    .facing
                    .map(|f| format!(", {}", fill(w.facing, &[("facing", w.side(f))])))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let line = match placement {
                Placement::Hex(hex) => format!("{} — {}{facing}", hex.as_str(), counter.name),
                Placement::Free { zone, at } => format!(
                    "{} — {}{facing} ({})",
                    at.as_ref().map_or(w.anywhere, |h| h.as_str()),
                    counter.name,
                    fill(
                        w.free_in,
                        &[(
                            "zone",
                            zone_names
                                .get(zone.as_str())
                                .copied()
                                .unwrap_or(zone.as_str())
                        )]
                    )
                ),
                Placement::Reinforcement { .. } | Placement::Unplaced => continue,
            };
            flow.paragraph(&line, 2.9, 3.0);
        }
    }
    let mut by_turn: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for counter in &all {
        if let Some(Placement::Reinforcement { turn, entry }) = counter.placement {
            let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
            let army = scenario
                .armies
                .iter()
                .find(|a| Some(a.id.as_str()) == counter.army)
                .map_or("", |a| a.name.as_str());
            by_turn.entry(*turn).or_default().push(fill(
                w.enters,
                &[
                    ("name", &counter.name),
                    ("army", army),
                    ("hexes", &entry.join(w.or)),
                ],
            ));
        }
    }
    if !by_turn.is_empty() {
        flow.heading(w.reinforcements, 4.8);
        for (turn, lines) in &by_turn {
            flow.heading(
                &fill(
                    w.turn,
                    &[
                        ("turn", &turn.to_string()),
                        ("time", &crate::counters::turn_time(scenario, *turn)),
                    ],
                ),
                3.6,
            );
            for line in lines {
                flow.paragraph(line, 2.9, 3.0);
            }
        }
    }
}

fn victory(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
    let all = counters(scenario, map);
    let v = &scenario.victory;
    let name_of = |id: &str| {
        all.iter()
            .find(|c| c.id == id)
            .map_or_else(|| id.to_owned(), |c| c.name.clone())
    };
    let army_name = |id: &str| {
        scenario
            .armies
            .iter()
            .find(|a| a.id.as_str() == id)
            .map_or_else(|| id.to_owned(), |a| a.name.clone())
    };
    flow.heading(w.victory, 6.0);
    for objective in &v.objectives {
        flow.paragraph(
            &fill(
                w.points,
                &[
                    ("name", &objective.name),
                    ("hex", objective.hex.as_str()),
                    ("points", &objective.points.to_string()),
                ],
            ),
            3.0,
            3.0,
        );
    }
    for objective in &v.unit_objectives {
        flow.paragraph(
            &fill(
                w.unit_objective,
                &[
                    ("name", &name_of(objective.unit.as_str())),
                    ("points", &objective.points.to_string()),
                ],
            ),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_cp_eliminated > 0 {
        flow.paragraph(
            &fill(
                w.per_cp,
                &[("points", &v.points_per_enemy_cp_eliminated.to_string())],
            ),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_unit_routed > 0 {
        flow.paragraph(
            &fill(
                w.per_rout,
                &[("points", &v.points_per_enemy_unit_routed.to_string())],
            ),
            3.0,
            3.0,
        );
    }
    for hold in &v.holds {
        let hexes: Vec<&str> = hold.hexes.iter().map(|h| h.as_str()).collect();
        // The result opens the line: a capital ("Marginal Allied victory: …").
        let mut chars = hold.result.chars();
        let result: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let army = army_name(hold.army.as_str());
        let hexes = hexes.join(", ");
        let line = match hold.at_least {
            Some(n) => fill(
                w.holds_some,
                &[
                    ("army", &army),
                    ("n", &n.to_string()),
                    ("hexes", &hexes),
                    ("result", &result),
                ],
            ),
            None => fill(
                w.holds_all,
                &[("army", &army), ("hexes", &hexes), ("result", &result)],
            ),
        };
        flow.paragraph(&line, 3.0, 3.0);
    }
    let side_name = |id: &str| {
        scenario
            .sides
            .iter()
            .find(|s| s.id.as_str() == id)
            .map_or_else(|| army_name(id), |s| s.name.clone())
    };
    let capital = |text: &str| {
        let mut chars = text.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    for condition in &v.conditions {
        let line = match condition {
            VictoryCondition::Exit {
                side,
                hexes,
                units,
                strength,
                by_turn,
                result,
            } => {
                let hexes: Vec<&str> = hexes.iter().map(|h| h.as_str()).collect();
                let by = by_turn.map_or_else(String::new, |t| {
                    fill(w.by_turn, &[("turn", &t.to_string())])
                });
                let (template, n) = match (units, strength) {
                    (Some(n), _) => (w.exit_units, *n),
                    (None, Some(n)) => (w.exit_strength, *n),
                    (None, None) => (w.exit_units, 1),
                };
                fill(
                    template,
                    &[
                        ("result", &capital(result)),
                        ("n", &n.to_string()),
                        ("side", &side_name(side.as_str())),
                        ("hexes", &hexes.join(", ")),
                        ("by", &by),
                    ],
                )
            }
            VictoryCondition::FirstToDestroy {
                side,
                strength,
                result,
            } => fill(
                w.first_to_destroy,
                &[
                    ("result", &capital(result)),
                    ("side", &side_name(side.as_str())),
                    ("n", &strength.to_string()),
                ],
            ),
            VictoryCondition::LossThreshold {
                side,
                strength,
                effect,
            } => fill(
                w.loss_threshold,
                &[
                    ("side", &side_name(side.as_str())),
                    ("n", &strength.to_string()),
                    ("effect", effect),
                ],
            ),
            VictoryCondition::PointsPerEnemyStrength { side, points } => fill(
                w.per_strength,
                &[
                    ("side", &side_name(side.as_str())),
                    ("points", &points.to_string()),
                ],
            ),
        };
        flow.paragraph(&line, 3.0, 3.0);
    }
    for loss in &v.leader_losses {
        flow.paragraph(
            &fill(
                w.leader_loss,
                &[
                    ("leader", &name_of(loss.leader.as_str())),
                    ("winner", &army_name(loss.winner.as_str())),
                ],
            ),
            3.0,
            3.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_word_and_fits_the_width() {
        let s = "Redoute du camp de Denain (brèche obligatoire, 7.6)";
        let lines = wrap(s, Face::Regular, 2.8, 20.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), s);
        assert!(
            lines
                .iter()
                .all(|l| text_width(l, Face::Regular, 2.8) <= 20.0 || !l.contains(' '))
        );
    }
}
