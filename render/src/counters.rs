//! The scenario layers: unit counters (corps colour, NATO-style symbol, CP-morale-MP, facing)
//! and leader markers (line leaders round, commanders in chief as stars), where they stand at
//! set-up.

use std::collections::BTreeMap;

use bataille_schema::scenario::{Symbol, Unit};
use bataille_schema::{Grid, HexIndex, Map, Scenario, Side};
use tiny_skia::Transform;

use crate::map::centre_px;
use crate::symbology::Drawing;
use crate::symbols::{circle, fill, polygon, polyline, star, stroke};
use crate::text::{Anchor, Face, TextStyle};
use crate::{Layout, RenderOptions, luminance, opaque, rgb_of};

const INK: [u8; 4] = [0x14, 0x14, 0x14, 0xff];
const NO_CORPS: [u8; 3] = [0xb0, 0xb0, 0xb0];
const GOLD: [u8; 4] = [0xe8, 0xc3, 0x3a, 0xff];

/// A leader marker to draw.
#[derive(Debug, Clone, Copy)]
pub struct Leader<'a> {
    pub name: &'a str,
    /// The corps colour (a commander: the first corps he commands).
    pub colour: [u8; 3],
    /// A commander in chief (a gold star) rather than a line leader (a disc).
    pub commander: bool,
}

/// Which side of a unit's counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterFace {
    /// Full strength.
    Front,
    /// The back: one combat point less after losses (Denain 2: "on utilise le verso du pion"),
    /// marked by a pale band; a battery's back is its fired side (Fontenoy 9: turned over once it
    /// has fired).
    Reduced,
}

/// What a unit's counter prints under its symbol: combat points, morale and movement points,
/// and a battery's fire modifier (Denain 10.3: "modificateur de tir", printed where infantry
/// prints its combat points and morale).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CounterValues {
    pub cp: Option<u8>,
    pub morale: Option<u8>,
    pub mp: Option<u8>,
    pub fire_modifier: Option<i8>,
}

impl CounterValues {
    /// The values of a unit (its front side).
    pub fn of(unit: &Unit) -> CounterValues {
        CounterValues {
            cp: unit.cp,
            morale: unit.morale,
            mp: unit.mp,
            fire_modifier: unit.fire_modifier,
        }
    }

    /// The printed line: `CP-morale-MP` (`3-2-4`, a dash for a value the unit lacks); with a
    /// fire modifier, the modifier first (`+2 · 3` for a battery, which has no CP or morale;
    /// `+1 · 3-2-4` otherwise). `None` when there is nothing to print. The reduced side shows
    /// one combat point less (Denain 2).
    pub fn text(&self, face: CounterFace) -> Option<String> {
        let cp = match face {
            CounterFace::Front => self.cp,
            CounterFace::Reduced => self.cp.map(|cp| cp.saturating_sub(1)),
        };
        let show = |v: Option<u8>| v.map_or_else(|| "–".to_owned(), |v| v.to_string());
        let full = || format!("{}-{}-{}", show(cp), show(self.morale), show(self.mp));
        match self.fire_modifier {
            Some(fire) if cp.is_none() && self.morale.is_none() => {
                Some(format!("{fire:+} · {}", show(self.mp)))
            }
            Some(fire) => Some(format!("{fire:+} · {}", full())),
            None if cp.is_none() && self.morale.is_none() && self.mp.is_none() => None,
            None => Some(full()),
        }
    }
}

/// A counter that is not a unit: leaders and the game's markers.
#[derive(Debug, Clone, PartialEq)]
pub enum MarkerKind {
    /// A line leader or commander in chief: front ready, back activated (Denain 5: "on retourne
    /// le pion chef de formation").
    Leader {
        name: String,
        colour: [u8; 3],
        commander: bool,
        /// The activation value, printed on the counter.
        activation: Option<u8>,
    },
    /// Disordered on the front, routed on the back (Denain 12.2: "le marqueur Désorganisation
    /// est alors retourné pour faire apparaître sa face Déroute").
    Disorder,
    /// Out of command (Denain 8).
    OutOfCommand,
    /// The game-turn marker.
    Turn,
}

pub(crate) fn draw_scenario(
    d: &mut Drawing,
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
                draw_counter(
                    d,
                    unit,
                    symbol,
                    colour,
                    facing,
                    side_px,
                    CounterFace::Front,
                    transform,
                );
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
                draw_leader(d, leader, pos, side_px);
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
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_counter(
    d: &mut Drawing,
    unit: &Unit,
    symbol: Symbol,
    colour: [u8; 3],
    facing: Option<f32>,
    s: f32,
    face: CounterFace,
    t: Transform,
) {
    draw_counter_values(
        d,
        CounterValues::of(unit),
        symbol,
        colour,
        facing,
        s,
        face,
        t,
    );
}

/// [`draw_counter`] from the unit's values (the front side's).
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_counter_values(
    d: &mut Drawing,
    values: CounterValues,
    symbol: Symbol,
    colour: [u8; 3],
    facing: Option<f32>,
    s: f32,
    face: CounterFace,
    t: Transform,
) {
    let h = s / 2.0;
    let square = [[-h, -h], [h, -h], [h, h], [-h, h]];
    // A drop shadow, the counter, its edge.
    let shadow = square.map(|[x, y]| [x + 0.06 * s, y + 0.06 * s]);
    fill(d, polygon(&shadow), [0, 0, 0, 0x50], t);
    fill(d, polygon(&square), opaque(colour), t);
    if face == CounterFace::Reduced {
        let band = [[-h, -h], [h, -h], [h, -0.72 * h], [-h, -0.72 * h]];
        fill(d, polygon(&band), [0xff, 0xff, 0xff, 0xb0], t);
    }
    stroke(d, polygon(&square), INK, (0.035 * s).max(0.8), t);
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
        fill(d, polygon(&wedge), INK, t);
    }
    // The symbol box.
    let (bw, bh, by) = (0.31 * s, 0.19 * s, -0.08 * s);
    let frame = [[-bw, by - bh], [bw, by - bh], [bw, by + bh], [-bw, by + bh]];
    fill(d, polygon(&frame), [0xff, 0xff, 0xff, 0xff], t);
    let lw = (0.04 * s).max(0.8);
    stroke(d, polygon(&frame), INK, lw, t);
    let (tl, tr, bl, br) = ([-bw, by - bh], [bw, by - bh], [-bw, by + bh], [bw, by + bh]);
    let mid = [0.0, by];
    match symbol {
        Symbol::Infantry => {
            stroke(d, polyline(&[tl, br]), INK, lw, t);
            stroke(d, polyline(&[bl, tr]), INK, lw, t);
        }
        Symbol::Cavalry => stroke(d, polyline(&[bl, tr]), INK, lw, t),
        Symbol::Dragoons => {
            stroke(d, polyline(&[bl, tr]), INK, lw, t);
            stroke(d, polyline(&[[-bw, by], [bw, by]]), INK, lw, t);
        }
        Symbol::Light => {
            stroke(d, polyline(&[tl, br]), INK, lw, t);
            fill(d, circle(mid, 0.05 * s), INK, t);
        }
        Symbol::Artillery => fill(d, circle(mid, 0.09 * s), INK, t),
        Symbol::Baggage => {
            stroke(
                d,
                polyline(&[[-0.18 * s, by - 0.03 * s], [0.18 * s, by - 0.03 * s]]),
                INK,
                lw,
                t,
            );
            for x in [-0.12 * s, 0.12 * s] {
                stroke(d, circle([x, by + 0.06 * s], 0.055 * s), INK, lw, t);
            }
        }
        Symbol::Other => {}
    }
    if let Some(text) = values.text(face) {
        let ink = if luminance(colour) > 0.3 {
            INK
        } else {
            [0xff, 0xff, 0xff, 0xff]
        };
        // At most 0.3 of the side, smaller when a long line (a battery's `+2 · 3`) would
        // reach past the counter's edges.
        let width_per_px = crate::text::text_width(&text, Face::Bold, 1.0);
        let size_px = if width_per_px > 0.0 {
            (0.3 * s).min(0.9 * s / width_per_px)
        } else {
            0.3 * s
        };
        let style = TextStyle {
            face: Face::Bold,
            size_px,
            colour: ink,
            halo: None,
        };
        d.text(&text, &style, [0.0, 0.3 * s], Anchor::CENTRE, t);
    }
}

pub(crate) fn draw_leader(d: &mut Drawing, leader: &Leader, pos: [f32; 2], s: f32) {
    let t = Transform::identity();
    let ink = if luminance(leader.colour) > 0.3 {
        INK
    } else {
        [0xff, 0xff, 0xff, 0xff]
    };
    if leader.commander {
        let path = star(pos, 0.3 * s, 0.14 * s, 5);
        fill(d, path.clone(), GOLD, t);
        stroke(d, path, INK, (0.035 * s).max(0.8), t);
        fill(d, circle(pos, 0.08 * s), opaque(leader.colour), t);
    } else {
        let r = 0.2 * s;
        fill(d, circle(pos, r), opaque(leader.colour), t);
        stroke(
            d,
            circle(pos, r),
            [0xff, 0xff, 0xff, 0xff],
            (0.05 * s).max(1.0),
            t,
        );
        stroke(d, circle(pos, r + 0.03 * s), INK, (0.025 * s).max(0.6), t);
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
        d.text(&initial, &style, pos, Anchor::CENTRE, t);
    }
}

/// A leader or marker as a square counter centred at the origin, `s` across.
pub(crate) fn draw_marker_counter(d: &mut Drawing, kind: &MarkerKind, s: f32, back: bool) {
    let t = Transform::identity();
    let h = s / 2.0;
    let square = [[-h, -h], [h, -h], [h, h], [-h, h]];
    let (background, title): ([u8; 3], String) = match kind {
        MarkerKind::Leader { colour, name, .. } => (*colour, surname(name)),
        MarkerKind::Disorder if back => ([0xc0, 0x20, 0x20], "ROUT".to_owned()),
        MarkerKind::Disorder => ([0xf0, 0xc0, 0x30], "DISORDER".to_owned()),
        MarkerKind::OutOfCommand => ([0xe0, 0xe0, 0xe0], "NO CMD".to_owned()),
        MarkerKind::Turn => ([0xf7, 0xf3, 0xe8], "TURN".to_owned()),
    };
    let background = if back && matches!(kind, MarkerKind::Leader { .. }) {
        crate::shade(background, 0.55)
    } else {
        background
    };
    fill(d, polygon(&square), opaque(background), t);
    stroke(d, polygon(&square), INK, (0.035 * s).max(0.8), t);
    let ink = if luminance(background) > 0.3 {
        INK
    } else {
        [0xff, 0xff, 0xff, 0xff]
    };
    if let MarkerKind::Leader {
        name,
        colour,
        commander,
        activation,
    } = kind
    {
        let leader = Leader {
            name,
            colour: *colour,
            commander: *commander,
        };
        draw_leader(d, &leader, [0.0, -0.08 * s], s);
        if let Some(value) = activation {
            let style = TextStyle {
                face: Face::Bold,
                size_px: 0.22 * s,
                colour: ink,
                halo: None,
            };
            d.text(
                &value.to_string(),
                &style,
                [0.36 * s, -0.36 * s],
                Anchor::CENTRE,
                t,
            );
        }
        if back {
            let style = TextStyle {
                face: Face::Bold,
                size_px: 0.13 * s,
                colour: ink,
                halo: None,
            };
            d.text("ACTIVATED", &style, [0.0, -0.39 * s], Anchor::CENTRE, t);
        }
    }
    let size = (0.8 * s / title.chars().count().max(1) as f32).min(0.2 * s);
    let style = TextStyle {
        face: Face::Bold,
        size_px: size,
        colour: ink,
        halo: None,
    };
    let y = if matches!(kind, MarkerKind::Leader { .. }) {
        0.33 * s
    } else {
        0.0
    };
    d.text(&title, &style, [0.0, y], Anchor::CENTRE, t);
}

/// The last word of a name (`"Maréchal de Villars"` → `"Villars"`).
fn surname(name: &str) -> String {
    name.split_whitespace().last().unwrap_or(name).to_owned()
}
