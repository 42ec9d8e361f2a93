//! The terrain effects chart: every effect the legend holds (costs per unit kind, protection,
//! sight, zones of control, notes), the terrains, overlays and hexsides, each with its swatch.

use std::collections::BTreeMap;

use bataille_render::symbology::{self, Drawing};
use bataille_render::text::{Face, text_width};
use bataille_render::tiny_skia::{PathBuilder, Transform};
use bataille_schema::map::{Effects, MoveCost};
use bataille_schema::{Map, Scenario};

use super::{Flow, Table, UNITS, widest_word};
use crate::language::fill;
use crate::print::words::Words;

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

pub(super) fn terrain_effects(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
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
    // The cells a terrain's row and an overlay's row share: the name, the cost for each kind
    // (`default` where the effects name none), protection, sight and ZOC.
    let effect_cells = |name: &str, e: &Effects, default: &str| -> Vec<String> {
        let mut cells = vec![String::new(), name.to_owned()];
        for (id, kind) in &kinds {
            cells.push(cost_text(
                cost_for(e.cost, &e.cost_by_kind, id, kind.moves_as.as_ref()),
                default,
                false,
                w,
            ));
        }
        cells.extend([
            protection(e.protection),
            yes(e.blocks_sight, w),
            yes(e.blocks_zoc, w),
        ]);
        cells
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
        let mut cells = effect_cells(&terrain.name, e, "1");
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
            let mut cells = effect_cells(&overlay.name, e, "");
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
