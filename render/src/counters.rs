//! The scenario layers: unit counters (corps colour, NATO-style symbol, CP-morale-MP, facing)
//! and leader markers (line leaders round, commanders in chief as stars), where they stand at
//! set-up.

use std::collections::BTreeMap;

use bataille_schema::scenario::{
    CounterBack, CounterLayout, CounterValue, MarkerType, Symbol, Unit,
};
use bataille_schema::{Grid, HexIndex, Map, Scenario, Side};
use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, stroke};
use crate::map::centre_px;
use crate::symbols::{circle, polygon, polyline, star};
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

    /// The printed line in the default (Vae Victis) layout: see [`CounterValues::text_in`].
    pub fn text(&self, face: CounterFace) -> Option<String> {
        let layout = CounterLayout::default();
        self.text_in(&layout, layout.back, face)
    }

    /// The printed line of one face in a game's layout: its `values` joined by `-` (`3-2-4`,
    /// `4-4`; a dash for a value the unit lacks); with a fire modifier, the modifier first
    /// (`+2 · 3` for a battery with nothing but movement points, `+1 · 3-2-4` otherwise).
    /// `None` when there is nothing to print, and for a blank back: a `Blank` back, or a
    /// `Reduced(n)` back of a unit with no more than `n` combat points (its first loss
    /// eliminates it). A `Reduced(n)` back shows `n` combat points less.
    pub fn text_in(
        &self,
        layout: &CounterLayout,
        back: CounterBack,
        face: CounterFace,
    ) -> Option<String> {
        if face == CounterFace::Reduced && is_blank(*self, back) {
            return None;
        }
        let cp = match (face, back) {
            (CounterFace::Reduced, CounterBack::Reduced(loss)) => {
                self.cp.map(|cp| cp.saturating_sub(loss))
            }
            _ => self.cp,
        };
        let value = |v: CounterValue| match v {
            CounterValue::Cp => cp,
            CounterValue::Morale => self.morale,
            CounterValue::Mp => self.mp,
        };
        let show = |v: Option<u8>| v.map_or_else(|| "–".to_owned(), |v| v.to_string());
        let full = || {
            layout
                .values
                .iter()
                .map(|v| show(value(*v)))
                .collect::<Vec<_>>()
                .join("-")
        };
        let only_mp = layout
            .values
            .iter()
            .all(|v| *v == CounterValue::Mp || value(*v).is_none());
        match self.fire_modifier {
            Some(fire) if only_mp => Some(format!("{fire:+} · {}", show(self.mp))),
            Some(fire) => Some(format!("{fire:+} · {}", full())),
            None if layout.values.iter().all(|v| value(*v).is_none()) => None,
            None => Some(full()),
        }
    }
}

/// Whether a unit's back is blank: a one-sided counter, or a step-loss back of a unit that
/// has no more combat points than the loss (Denain: a 1-CP unit has no reduced side).
pub fn is_blank(values: CounterValues, back: CounterBack) -> bool {
    match back {
        CounterBack::Blank => true,
        CounterBack::Reduced(loss) => values.cp.is_some_and(|cp| cp <= loss),
        CounterBack::Same | CounterBack::Fired => false,
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
    /// A battery that has fired (Denain 4 B).
    Fired,
    /// A replacement line leader (Denain 9.4: an "aide de camp 1" with a replacement bar),
    /// in its army's colour.
    AideDeCamp { colour: [u8; 3], activation: u8 },
    /// A marker of the game's own: the text of each face.
    Text { front: String, back: Option<String> },
}

impl MarkerKind {
    /// The marker a game's layout names (`army_colour`: the colour of the army it belongs to).
    pub fn of(marker: &MarkerType, army_colour: Option<[u8; 3]>) -> MarkerKind {
        match marker {
            MarkerType::Disorder => MarkerKind::Disorder,
            MarkerType::OutOfCommand => MarkerKind::OutOfCommand,
            MarkerType::Turn => MarkerKind::Turn,
            MarkerType::Fired => MarkerKind::Fired,
            MarkerType::AideDeCamp(activation) => MarkerKind::AideDeCamp {
                colour: army_colour.unwrap_or(NO_CORPS),
                activation: *activation,
            },
            MarkerType::Text { front, back } => MarkerKind::Text {
                front: front.clone(),
                back: back.clone(),
            },
        }
    }

    /// A short name for ids and file names (`"disorder"`, `"text-demoralized"`).
    pub fn slug(&self) -> String {
        match self {
            MarkerKind::Leader { .. } => "leader".to_owned(),
            MarkerKind::Disorder => "disorder".to_owned(),
            MarkerKind::OutOfCommand => "out-of-command".to_owned(),
            MarkerKind::Turn => "turn".to_owned(),
            MarkerKind::Fired => "fired".to_owned(),
            MarkerKind::AideDeCamp { activation, .. } => format!("aide-de-camp-{activation}"),
            MarkerKind::Text { front, .. } => {
                let slug: String = front
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() {
                            c.to_ascii_lowercase()
                        } else {
                            '-'
                        }
                    })
                    .collect();
                format!("text-{}", slug.trim_matches('-'))
            }
        }
    }

    /// The name of the marker as a player reads it (`"Disorder / Rout"`).
    pub fn title(&self) -> String {
        match self {
            MarkerKind::Leader { name, .. } => name.clone(),
            MarkerKind::Disorder => "Disorder / Rout".to_owned(),
            MarkerKind::OutOfCommand => "Out of command".to_owned(),
            MarkerKind::Turn => "Game turn".to_owned(),
            MarkerKind::Fired => "Fired".to_owned(),
            MarkerKind::AideDeCamp { activation, .. } => format!("Aide de camp {activation}"),
            MarkerKind::Text { front, back } => match back {
                Some(back) => format!("{front} / {back}"),
                None => front.clone(),
            },
        }
    }
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
    let mut stacks: BTreeMap<HexIndex, Vec<(&Unit, [u8; 3])>> = BTreeMap::new();
    let mut leaders: BTreeMap<HexIndex, Vec<Leader>> = BTreeMap::new();
    for army in &scenario.armies {
        let army_colour = army.colour.as_ref().map(rgb_of).unwrap_or(NO_CORPS);
        for unit in &army.units {
            if let Some(index) = unit.placement.hex().and_then(|hex| grid.lookup(hex)) {
                let colour = unit
                    .corps
                    .as_ref()
                    .and_then(|id| corps_colour.get(id.as_str()).copied())
                    .unwrap_or(army_colour);
                stacks.entry(index).or_default().push((unit, colour));
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
            for (k, (unit, colour)) in units.iter().take(shown).enumerate() {
                let (unit, colour) = (*unit, *colour);
                let step = 0.1 * side_px * k as f32;
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
                    &scenario.rules.counters,
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
    layout: &CounterLayout,
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
        layout,
        layout.back_of(unit.kind.as_str()),
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
    layout: &CounterLayout,
    back: CounterBack,
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
    if face == CounterFace::Reduced && is_blank(values, back) {
        // A blank back: the counter's colour and edge, nothing printed.
        stroke(d, polygon(&square), INK, (0.035 * s).max(0.8), t);
        return;
    }
    if face == CounterFace::Reduced && back != CounterBack::Same {
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
    if let Some(text) = values.text_in(layout, back, face) {
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
    let back_face = back;
    let h = s / 2.0;
    let square = [[-h, -h], [h, -h], [h, h], [-h, h]];
    let (background, title): ([u8; 3], String) = match kind {
        MarkerKind::Leader { colour, name, .. } => (*colour, surname(name)),
        MarkerKind::Disorder if back => ([0xc0, 0x20, 0x20], "ROUT".to_owned()),
        MarkerKind::Disorder => ([0xf0, 0xc0, 0x30], "DISORDER".to_owned()),
        MarkerKind::OutOfCommand => ([0xe0, 0xe0, 0xe0], "NO CMD".to_owned()),
        MarkerKind::Turn => ([0xf7, 0xf3, 0xe8], "TURN".to_owned()),
        MarkerKind::Fired => ([0xd8, 0xd8, 0xd8], "FIRED".to_owned()),
        MarkerKind::AideDeCamp { colour, .. } => (*colour, "ADC".to_owned()),
        MarkerKind::Text { front, back } => match back {
            Some(back) if back_face => ([0xd0, 0xd0, 0xd0], back.to_uppercase()),
            _ => ([0xf7, 0xf3, 0xe8], front.to_uppercase()),
        },
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
        // The back (activated, Denain 4 C: "on retourne ensuite le ou les pions chef") is the
        // darker side: no word on it, so nothing overprints the activation value and nothing
        // is in another language than the game's.
    }
    if let MarkerKind::AideDeCamp { activation, .. } = kind {
        // The replacement bar across the top, and the activation value.
        let bar = [[-h, -h], [h, -h], [h, -0.7 * h], [-h, -0.7 * h]];
        fill(d, polygon(&bar), INK, t);
        let style = TextStyle {
            face: Face::Bold,
            size_px: 0.3 * s,
            colour: ink,
            halo: None,
        };
        d.text(
            &activation.to_string(),
            &style,
            [0.0, 0.3 * s],
            Anchor::CENTRE,
            t,
        );
    }
    // A long title of several words on two lines, in larger type than on one
    // ("HORS COMMANDEMENT").
    let lines = title_lines(&title);
    // As large as the widest line allows (its width measured, not guessed from its letters).
    let widest = lines
        .iter()
        .map(|l| crate::text::text_width(l, Face::Bold, 1.0))
        .fold(0.0f32, f32::max);
    let size = if widest > 0.0 {
        (0.84 * s / widest).min(0.2 * s)
    } else {
        0.2 * s
    };
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
    let pitch = 1.15 * size;
    let first = y - pitch * (lines.len() as f32 - 1.0) / 2.0;
    for (i, line) in lines.iter().enumerate() {
        d.text(
            line,
            &style,
            [0.0, first + pitch * i as f32],
            Anchor::CENTRE,
            t,
        );
    }
}

/// A marker's title on one line, or on two at the space that balances them best when it is
/// longer than 8 characters.
fn title_lines(title: &str) -> Vec<String> {
    let count = title.chars().count();
    if count <= 8 || !title.contains(' ') {
        return vec![title.to_owned()];
    }
    let best = title
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| {
            let (a, b) = (&title[..i], &title[i + 1..]);
            (a.chars().count().max(b.chars().count()), i)
        })
        .min();
    match best {
        Some((_, i)) => vec![title[..i].to_owned(), title[i + 1..].to_owned()],
        None => vec![title.to_owned()],
    }
}

/// The last word of a name (`"Maréchal de Villars"` → `"Villars"`).
fn surname(name: &str) -> String {
    name.split_whitespace().last().unwrap_or(name).to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_marker_titles_go_on_two_balanced_lines() {
        assert_eq!(super::title_lines("ROUT"), vec!["ROUT"]);
        assert_eq!(
            super::title_lines("HORS COMMANDEMENT"),
            vec!["HORS", "COMMANDEMENT"]
        );
        assert_eq!(
            super::title_lines("TIR DE BARRAGE"),
            vec!["TIR DE", "BARRAGE"]
        );
    }

    use super::*;

    fn values(cp: Option<u8>, morale: Option<u8>, mp: Option<u8>) -> CounterValues {
        CounterValues {
            cp,
            morale,
            mp,
            fire_modifier: None,
        }
    }

    #[test]
    fn the_layout_decides_what_a_counter_prints() {
        // Vae Victis (the default): CP-morale-MP, the back one CP lower.
        let vae = CounterLayout::default();
        let unit = values(Some(3), Some(2), Some(4));
        assert_eq!(
            unit.text_in(&vae, vae.back, CounterFace::Front).as_deref(),
            Some("3-2-4")
        );
        assert_eq!(
            unit.text_in(&vae, vae.back, CounterFace::Reduced)
                .as_deref(),
            Some("2-2-4")
        );
        // Denain 2: a 1-CP unit has no reduced side (its first loss eliminates it).
        let one = values(Some(1), Some(3), Some(5));
        assert_eq!(one.text_in(&vae, vae.back, CounterFace::Reduced), None);
        assert!(is_blank(one, vae.back));
        // A game printing combat strength and movement allowance on one-sided counters.
        let naw = CounterLayout {
            values: vec![CounterValue::Cp, CounterValue::Mp],
            back: CounterBack::Blank,
            ..CounterLayout::default()
        };
        let division = values(Some(7), None, Some(4));
        assert_eq!(
            division
                .text_in(&naw, naw.back, CounterFace::Front)
                .as_deref(),
            Some("7-4")
        );
        assert_eq!(division.text_in(&naw, naw.back, CounterFace::Reduced), None);
        // The same back repeats the front; the default text keeps the old behaviour.
        assert_eq!(
            unit.text_in(&vae, CounterBack::Same, CounterFace::Reduced)
                .as_deref(),
            Some("3-2-4")
        );
        assert_eq!(unit.text(CounterFace::Front).as_deref(), Some("3-2-4"));
    }

    #[test]
    fn a_blank_back_draws_no_value_and_no_symbol() {
        let naw = CounterLayout {
            values: vec![CounterValue::Cp, CounterValue::Mp],
            back: CounterBack::Blank,
            ..CounterLayout::default()
        };
        let division = values(Some(7), None, Some(4));
        let count = |face| {
            let mut d = Drawing::new();
            draw_counter_values(
                &mut d,
                division,
                &naw,
                naw.back,
                Symbol::Infantry,
                [0x3e, 0x6f, 0xc2],
                None,
                40.0,
                face,
                Transform::identity(),
            );
            d.items.len()
        };
        // The front: shadow, body, edge, symbol box and strokes, the values; the back: the
        // body and its edge after the shadow.
        assert!(count(CounterFace::Front) > 6);
        assert_eq!(count(CounterFace::Reduced), 3);
    }

    #[test]
    fn markers_come_from_the_layout() {
        let kind = MarkerKind::of(&MarkerType::AideDeCamp(1), Some([1, 2, 3]));
        assert_eq!(kind.slug(), "aide-de-camp-1");
        assert_eq!(kind.title(), "Aide de camp 1");
        let text = MarkerKind::of(
            &MarkerType::Text {
                front: "Demoralized".into(),
                back: None,
            },
            None,
        );
        assert_eq!(text.slug(), "text-demoralized");
        assert_eq!(MarkerKind::Disorder.slug(), "disorder");
    }
}
