//! The scenario layers: unit counters (corps colour, NATO-style symbol, CP-morale-MP, facing)
//! and leader markers (line leaders round, commanders in chief as stars), where they stand at
//! set-up.
//!
//! What a counter or marker shows (its values, face, marker kinds) is in [`look`]; the leader
//! markers and marker counters are drawn in [`markers`].

mod look;
mod markers;
mod of;

use std::collections::BTreeMap;

use bataille_schema::scenario::{CounterBack, CounterLayout, Symbol};
use bataille_schema::{HexIndex, Map, Scenario};
use tiny_skia::Transform;

use crate::drawing::{Drawing, fill, stroke};
use crate::map::centre_px;
use crate::symbols::{circle, polygon, polyline};
use crate::text::{Anchor, Face, TextStyle};
use crate::{Layout, RenderOptions, luminance, opaque};

const INK: [u8; 4] = [0x14, 0x14, 0x14, 0xff];
const NO_CORPS: [u8; 3] = [0xb0, 0xb0, 0xb0];
const GOLD: [u8; 4] = [0xe8, 0xc3, 0x3a, 0xff];

pub use look::{CounterFace, CounterValues, Leader, MarkerKind, STACK_SHOWN, is_blank};
pub(crate) use markers::{draw_leader, draw_marker_counter};
pub use of::{CounterLook, Looks};

pub(crate) fn draw_scenario(
    d: &mut Drawing,
    scenario: &Scenario,
    map: &Map,
    layout: &Layout,
    options: &RenderOptions,
) {
    let grid = &map.grid;
    let looks = Looks::new(scenario, grid.orientation);
    let stacks = looks.stacks(grid);
    let mut leaders: BTreeMap<HexIndex, Vec<Leader>> = BTreeMap::new();
    for army in &scenario.armies {
        for corps in &army.corps {
            if let Some(leader) = &corps.leader
                && let Some(index) = leader.placement.hex().and_then(|hex| grid.lookup(hex))
            {
                leaders.entry(index).or_default().push(Leader {
                    name: &leader.name,
                    colour: looks.leader(corps),
                    commander: false,
                });
            }
        }
        for commander in &army.commanders {
            if let Some(index) = commander.placement.hex().and_then(|hex| grid.lookup(hex)) {
                leaders.entry(index).or_default().push(Leader {
                    name: &commander.name,
                    colour: looks.commander(army, commander),
                    commander: true,
                });
            }
        }
    }
    let side_px = 0.64 * layout.radius_px * 3f32.sqrt();
    if options.counters {
        for (index, units) in &stacks {
            let c = centre_px(grid, layout, *index);
            let shown = units.len().min(STACK_SHOWN);
            for (k, (_, look)) in units.iter().take(shown).enumerate() {
                let step = 0.1 * side_px * k as f32;
                let transform = Transform::from_translate(c[0] - step, c[1] - step);
                draw_look(
                    d,
                    look,
                    &scenario.rules.counters,
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

/// One unit's counter as it looks ([`CounterLook`]), upright (so its values read), centred at
/// the origin of `t`; its facing shown by a dark wedge on the counter's edge pointing at the
/// front hexside.
pub(crate) fn draw_look(
    d: &mut Drawing,
    look: &CounterLook,
    layout: &CounterLayout,
    s: f32,
    face: CounterFace,
    t: Transform,
) {
    draw_counter_values(
        d,
        look.values,
        layout,
        look.back,
        look.symbol,
        look.colour,
        look.facing,
        s,
        face,
        t,
    );
}

/// A counter from its values (the front side's), symbol, colour and facing bearing (degrees
/// clockwise from north).
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

#[cfg(test)]
mod tests {
    #[test]
    fn long_marker_titles_go_on_two_balanced_lines() {
        assert_eq!(super::markers::title_lines("ROUT"), vec!["ROUT"]);
        assert_eq!(
            super::markers::title_lines("HORS COMMANDEMENT"),
            vec!["HORS", "COMMANDEMENT"]
        );
        assert_eq!(
            super::markers::title_lines("TIR DE BARRAGE"),
            vec!["TIR DE", "BARRAGE"]
        );
    }

    use super::*;
    use bataille_schema::scenario::{CounterValue, MarkerType};

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
