//! The scenario layers: unit counters (corps colour, NATO-style symbol, CP-morale-MP, facing)
//! and leader markers (line leaders round, commanders in chief as stars), where they stand at
//! set-up.

use std::collections::BTreeMap;

use bataille_schema::scenario::{Symbol, Unit};
use bataille_schema::{Grid, HexIndex, Map, Scenario, Side};
use tiny_skia::{Pixmap, Transform};

use crate::map::centre_px;
use crate::symbols::{circle, fill, polygon, polyline, star, stroke};
use crate::text::{Anchor, Face, TextStyle, draw_text};
use crate::{Layout, RenderOptions, luminance, opaque, rgb_of};

const INK: [u8; 4] = [0x14, 0x14, 0x14, 0xff];
const NO_CORPS: [u8; 3] = [0xb0, 0xb0, 0xb0];
const GOLD: [u8; 4] = [0xe8, 0xc3, 0x3a, 0xff];

/// A leader marker to draw.
struct Leader<'a> {
    name: &'a str,
    colour: [u8; 3],
    commander: bool,
}

pub(crate) fn draw_scenario(
    pixmap: &mut Pixmap,
    scenario: &Scenario,
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
) {
    let grid = &map.grid;
    let mut corps_colour: BTreeMap<&str, [u8; 3]> = BTreeMap::new();
    for army in &scenario.armies {
        for corps in &army.corps {
            corps_colour.insert(corps.id.as_str(), rgb_of(&corps.colour));
        }
    }
    let mut stacks: BTreeMap<HexIndex, Vec<&Unit>> = BTreeMap::new();
    let mut leaders: BTreeMap<HexIndex, Vec<Leader>> = BTreeMap::new();
    for army in &scenario.armies {
        for unit in &army.units {
            if let Some(index) = unit.placement.hex().and_then(|hex| grid.lookup(hex)) {
                stacks.entry(index).or_default().push(unit);
            }
        }
        for corps in &army.corps {
            if let Some(leader) = &corps.leader
                && let Some(index) = leader.placement.hex().and_then(|hex| grid.lookup(hex))
            {
                leaders.entry(index).or_default().push(Leader {
                    name: &leader.name,
                    colour: rgb_of(&corps.colour),
                    commander: false,
                });
            }
        }
        for commander in &army.commanders {
            if let Some(index) = commander.placement.hex().and_then(|hex| grid.lookup(hex)) {
                let colour = commander
                    .commands
                    .first()
                    .and_then(|id| corps_colour.get(id.as_str()).copied())
                    .unwrap_or(NO_CORPS);
                leaders.entry(index).or_default().push(Leader {
                    name: &commander.name,
                    colour,
                    commander: true,
                });
            }
        }
    }
    let side_px = 0.64 * layout.radius_px * 3f32.sqrt();
    if options.counters {
        for (index, units) in &stacks {
            let c = centre_px(grid, layout, *index);
            // At most four counters show; each one up and left of the one below.
            let shown = units.len().min(4);
            for (k, unit) in units.iter().take(shown).enumerate() {
                let step = 0.1 * side_px * k as f32;
                let colour = unit
                    .corps
                    .as_ref()
                    .and_then(|id| corps_colour.get(id.as_str()).copied())
                    .unwrap_or(NO_CORPS);
                let symbol = scenario
                    .rules
                    .unit_kinds
                    .get(&unit.kind)
                    .map_or(Symbol::Other, |kind| kind.symbol);
                let facing = unit
                    .facing
                    .and_then(|side| facing_degrees(grid, *index, side));
                let transform = Transform::from_translate(c[0] - step, c[1] - step);
                draw_counter(pixmap, unit, symbol, colour, facing, side_px, transform);
            }
        }
    }
    if options.leaders {
        for (index, markers) in &leaders {
            let c = centre_px(grid, layout, *index);
            let has_units = options.counters && stacks.contains_key(index);
            for (k, leader) in markers.iter().enumerate() {
                let shift = 0.28 * side_px * k as f32;
                let pos = if has_units {
                    [c[0] + 0.42 * side_px + shift, c[1] - 0.42 * side_px + shift]
                } else {
                    [c[0] + shift, c[1] + shift]
                };
                draw_leader(pixmap, leader, pos, side_px);
            }
        }
    }
}

/// The bearing in degrees (clockwise from north) a facing points to, by the files' convention
/// (the same as the editor's and the validator's: `geometry::facing_bearing`).
fn facing_degrees(grid: &Grid, _index: HexIndex, side: Side) -> Option<f32> {
    Some(bataille_schema::geometry::facing_bearing(
        grid.orientation,
        side,
    ))
}

/// One counter, upright (so its values read), centred at the origin of `t`; its facing shown
/// by a dark wedge on the counter's edge pointing at the front hexside (bearing in degrees
/// clockwise from north).
fn draw_counter(
    pixmap: &mut Pixmap,
    unit: &Unit,
    symbol: Symbol,
    colour: [u8; 3],
    facing: Option<f32>,
    s: f32,
    t: Transform,
) {
    let h = s / 2.0;
    let square = [[-h, -h], [h, -h], [h, h], [-h, h]];
    // A drop shadow, the counter, its edge.
    let shadow = square.map(|[x, y]| [x + 0.06 * s, y + 0.06 * s]);
    fill(pixmap, polygon(&shadow), [0, 0, 0, 0x50], t);
    fill(pixmap, polygon(&square), opaque(colour), t);
    stroke(pixmap, polygon(&square), INK, (0.035 * s).max(0.8), t);
    if let Some(bearing) = facing {
        // Where the ray towards the front leaves the square, a wedge pointing out of it.
        let rad = bearing.to_radians();
        let dir = [rad.sin(), -rad.cos()];
        let reach = h / dir[0].abs().max(dir[1].abs());
        let base = [dir[0] * reach, dir[1] * reach];
        let normal = [-dir[1], dir[0]];
        let (w, len) = (0.16 * s, 0.2 * s);
        let wedge = [
            [
                base[0] - normal[0] * w - dir[0] * 0.04 * s,
                base[1] - normal[1] * w - dir[1] * 0.04 * s,
            ],
            [base[0] + dir[0] * len, base[1] + dir[1] * len],
            [
                base[0] + normal[0] * w - dir[0] * 0.04 * s,
                base[1] + normal[1] * w - dir[1] * 0.04 * s,
            ],
        ];
        fill(pixmap, polygon(&wedge), INK, t);
    }
    // The symbol box.
    let (bw, bh, by) = (0.31 * s, 0.19 * s, -0.08 * s);
    let frame = [[-bw, by - bh], [bw, by - bh], [bw, by + bh], [-bw, by + bh]];
    fill(pixmap, polygon(&frame), [0xff, 0xff, 0xff, 0xff], t);
    let lw = (0.04 * s).max(0.8);
    stroke(pixmap, polygon(&frame), INK, lw, t);
    let (tl, tr, bl, br) = ([-bw, by - bh], [bw, by - bh], [-bw, by + bh], [bw, by + bh]);
    let mid = [0.0, by];
    match symbol {
        Symbol::Infantry => {
            stroke(pixmap, polyline(&[tl, br]), INK, lw, t);
            stroke(pixmap, polyline(&[bl, tr]), INK, lw, t);
        }
        Symbol::Cavalry => stroke(pixmap, polyline(&[bl, tr]), INK, lw, t),
        Symbol::Dragoons => {
            stroke(pixmap, polyline(&[bl, tr]), INK, lw, t);
            stroke(pixmap, polyline(&[[-bw, by], [bw, by]]), INK, lw, t);
        }
        Symbol::Light => {
            stroke(pixmap, polyline(&[tl, br]), INK, lw, t);
            fill(pixmap, circle(mid, 0.05 * s), INK, t);
        }
        Symbol::Artillery => fill(pixmap, circle(mid, 0.09 * s), INK, t),
        Symbol::Baggage => {
            stroke(
                pixmap,
                polyline(&[[-0.18 * s, by - 0.03 * s], [0.18 * s, by - 0.03 * s]]),
                INK,
                lw,
                t,
            );
            for x in [-0.12 * s, 0.12 * s] {
                stroke(pixmap, circle([x, by + 0.06 * s], 0.055 * s), INK, lw, t);
            }
        }
        Symbol::Other => {}
    }
    let values = [unit.cp, unit.morale, unit.mp];
    if values.iter().any(Option::is_some) {
        let text: Vec<String> = values
            .iter()
            .map(|v| v.map_or_else(|| "–".to_owned(), |v| v.to_string()))
            .collect();
        let ink = if luminance(colour) > 0.3 {
            INK
        } else {
            [0xff, 0xff, 0xff, 0xff]
        };
        let style = TextStyle {
            face: Face::Bold,
            size_px: 0.3 * s,
            colour: ink,
            halo: None,
        };
        draw_text(
            pixmap,
            &text.join("-"),
            &style,
            [0.0, 0.3 * s],
            Anchor::CENTRE,
            t,
        );
    }
}

fn draw_leader(pixmap: &mut Pixmap, leader: &Leader, pos: [f32; 2], s: f32) {
    let t = Transform::identity();
    let ink = if luminance(leader.colour) > 0.3 {
        INK
    } else {
        [0xff, 0xff, 0xff, 0xff]
    };
    if leader.commander {
        let path = star(pos, 0.3 * s, 0.14 * s, 5);
        fill(pixmap, path.clone(), GOLD, t);
        stroke(pixmap, path, INK, (0.035 * s).max(0.8), t);
        fill(pixmap, circle(pos, 0.08 * s), opaque(leader.colour), t);
    } else {
        let r = 0.2 * s;
        fill(pixmap, circle(pos, r), opaque(leader.colour), t);
        stroke(
            pixmap,
            circle(pos, r),
            [0xff, 0xff, 0xff, 0xff],
            (0.05 * s).max(1.0),
            t,
        );
        stroke(
            pixmap,
            circle(pos, r + 0.03 * s),
            INK,
            (0.025 * s).max(0.6),
            t,
        );
        let initial: String = leader
            .name
            .split_whitespace()
            .last()
            .and_then(|word| word.chars().next())
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        let style = TextStyle {
            face: Face::Bold,
            size_px: 0.26 * s,
            colour: ink,
            halo: None,
        };
        draw_text(pixmap, &initial, &style, pos, Anchor::CENTRE, t);
    }
}
