//! The counters of a scenario, listed once for every export: each unit (corps colour, kind
//! symbol, facing), each leader and commander, the game's markers, grouped by army and corps,
//! and the reinforcements by turn.

use bataille_render::symbology::{
    self, CounterFace, CounterLook, Drawing, Item, Looks, MarkerKind,
};
use bataille_render::tiny_skia::{Pixmap, Transform};
use bataille_schema::scenario::{CounterBack, CounterLayout, Placement, Unit};
use bataille_schema::{Map, Scenario};

/// A counter of the kit or the module.
#[derive(Debug, Clone)]
pub struct Counter<'a> {
    /// A unique id (a unit's, leader's or commander's id; `marker-…` for markers).
    pub id: String,
    pub name: String,
    pub army: Option<&'a str>,
    pub corps: Option<&'a str>,
    pub kind: CounterKind<'a>,
    /// Where it starts: a hex name, a reinforcement turn with its entry hexes, or nowhere.
    pub placement: Option<&'a Placement>,
    /// The bearing its facing points to, degrees clockwise from north (units with a facing).
    pub facing: Option<f32>,
    /// How the game prints its counters (the scenario's `rules.counters`).
    pub layout: &'a CounterLayout,
}

/// What a counter shows.
#[derive(Debug, Clone)]
pub enum CounterKind<'a> {
    /// A unit, as it looks everywhere ([`Looks::unit`]).
    Unit {
        unit: &'a Unit,
        look: CounterLook,
    },
    Marker(MarkerKind),
    /// A unit's replacement counter (Denain 1: "le pion de remplacement pour les unités à trois
    /// points de combat qui ont déjà subi un retournement"): the unit two combat points down on
    /// its front, three on its back (blank when that is nothing).
    Replacement {
        unit: &'a Unit,
        look: CounterLook,
    },
}

impl Counter<'_> {
    /// The counter's front or back, upright, centred at the origin, `side` across. A unit's
    /// facing wedge is drawn pointing up (north) when it has a facing: an export that turns
    /// counters (VASSAL) rotates the whole counter by [`Counter::facing`].
    pub fn drawing(&self, side: f32, back: bool) -> Drawing {
        let face = if back {
            CounterFace::Reduced
        } else {
            CounterFace::Front
        };
        // The wedge points up; the counter is turned by the export, not drawn turned.
        let upright = |look: &CounterLook| CounterLook {
            facing: self.facing.map(|_| 0.0),
            ..*look
        };
        match &self.kind {
            CounterKind::Unit { look, .. } => {
                symbology::counter(&upright(look), self.layout, side, face)
            }
            CounterKind::Marker(kind) => symbology::marker_counter(kind, side, back),
            CounterKind::Replacement { look, .. } => {
                let mut look = upright(look);
                look.values.cp = look.values.cp.map(|cp| cp.saturating_sub(2));
                look.back = CounterBack::Reduced(1);
                symbology::counter(&look, self.layout, side, face)
            }
        }
    }

    /// Whether the counter's back prints something (a unit whose first loss eliminates it has
    /// a blank back: the kit prints it blank, the module gives it no other side).
    pub fn has_back(&self) -> bool {
        match &self.kind {
            CounterKind::Unit { look, .. } => !symbology::is_blank(look.values, look.back),
            CounterKind::Replacement { unit, .. } => unit.cp.is_some_and(|cp| cp > 3),
            CounterKind::Marker(_) => true,
        }
    }

    /// The counter as a transparent PNG image `canvas` pixels square, the counter `side` pixels
    /// across in its middle.
    pub fn png(&self, side: f32, canvas: u32, back: bool) -> Result<Vec<u8>, crate::ExportError> {
        let mut pixmap = Pixmap::new(canvas, canvas).ok_or_else(|| {
            crate::ExportError::Invalid(format!("a counter image of {canvas} px cannot be made"))
        })?;
        let c = canvas as f32 / 2.0;
        self.drawing(side, back)
            .paint(&mut pixmap, Transform::from_translate(c, c));
        Ok(bataille_render::encode_png_fast(&pixmap)?)
    }
}

/// The markers the game uses (`rules.counters.markers`), with how many of each: the kit and
/// the module carry these and no others.
pub fn markers(scenario: &Scenario) -> Vec<(MarkerKind, usize)> {
    scenario
        .rules
        .counters
        .markers
        .iter()
        .map(|m| {
            let colour = m.army.as_ref().and_then(|id| {
                let army = scenario.armies.iter().find(|a| &a.id == id)?;
                army.colour
                    .as_ref()
                    .map(rgb)
                    .or_else(|| army.corps.first().map(|c| rgb(&c.colour)))
            });
            (MarkerKind::of(&m.marker, colour), m.count as usize)
        })
        .collect()
}

/// Whether a unit's counter has a back that prints something (not a blank back).
pub fn has_back(scenario: &Scenario, unit: &Unit) -> bool {
    let back = scenario.rules.counters.back_of(unit.kind.as_str());
    !symbology::is_blank(symbology::CounterValues::of(unit), back)
}

/// Every counter of the scenario: for each army its commanders, then each corps' leader and
/// units, then the units of no corps.
pub fn counters<'a>(scenario: &'a Scenario, map: &Map) -> Vec<Counter<'a>> {
    let looks = Looks::new(scenario, map.grid.orientation);
    let mut out = Vec::new();
    for army in &scenario.armies {
        for commander in &army.commanders {
            let colour = looks.commander(army, commander);
            out.push(Counter {
                id: commander.id.as_str().to_owned(),
                name: commander.name.clone(),
                army: Some(army.id.as_str()),
                corps: None,
                kind: CounterKind::Marker(MarkerKind::Leader {
                    name: commander.name.clone(),
                    colour,
                    commander: true,
                    activation: None,
                }),
                placement: Some(&commander.placement),
                facing: None,
                layout: &scenario.rules.counters,
            });
        }
        let mut corps_ids: Vec<Option<&str>> =
            army.corps.iter().map(|c| Some(c.id.as_str())).collect();
        corps_ids.push(None);
        for corps_id in corps_ids {
            if let Some(corps) = army.corps.iter().find(|c| Some(c.id.as_str()) == corps_id)
                && let Some(leader) = &corps.leader
            {
                out.push(Counter {
                    id: leader.id.as_str().to_owned(),
                    name: leader.name.clone(),
                    army: Some(army.id.as_str()),
                    corps: corps_id,
                    kind: CounterKind::Marker(MarkerKind::Leader {
                        name: leader.name.clone(),
                        colour: looks.leader(corps),
                        commander: false,
                        activation: Some(leader.activation),
                    }),
                    placement: Some(&leader.placement),
                    facing: None,
                    layout: &scenario.rules.counters,
                });
            }
            for unit in army
                .units
                .iter()
                .filter(|u| u.corps.as_ref().map(|c| c.as_str()) == corps_id)
            {
                let look = looks.unit(army, unit);
                out.push(Counter {
                    id: unit.id.as_str().to_owned(),
                    name: unit.name.to_string(),
                    army: Some(army.id.as_str()),
                    corps: corps_id,
                    kind: CounterKind::Unit { unit, look },
                    placement: Some(&unit.placement),
                    facing: look.facing,
                    layout: &scenario.rules.counters,
                });
            }
        }
    }
    out
}

/// The replacement counters the game calls for (`rules.counters.replacement_from_cp`): one for
/// each unit of at least that many combat points, named `replacement:ID` (a `:` no id holds,
/// so never a unit's own id), not placed.
pub fn replacement_counters<'a>(scenario: &'a Scenario, map: &Map) -> Vec<Counter<'a>> {
    let Some(from) = scenario.rules.counters.replacement_from_cp else {
        return Vec::new();
    };
    counters(scenario, map)
        .into_iter()
        .filter_map(|counter| match counter.kind {
            CounterKind::Unit { unit, look } if unit.cp.is_some_and(|cp| cp >= from) => {
                Some(Counter {
                    id: format!("replacement:{}", counter.id),
                    name: format!("{} (replacement)", counter.name),
                    placement: None,
                    kind: CounterKind::Replacement { unit, look },
                    ..counter
                })
            }
            _ => None,
        })
        .collect()
}

/// The marker counters (not placed), `count` copies each named `marker:KIND:N` (a `:` no id
/// holds, so never a unit's own id).
pub fn marker_counters(scenario: &Scenario) -> Vec<Counter<'_>> {
    let mut out = Vec::new();
    for (kind, count) in markers(scenario) {
        let label = kind.slug();
        for n in 1..=count {
            out.push(Counter {
                id: format!("marker:{label}:{n}"),
                name: kind.title(),
                army: None,
                corps: None,
                kind: CounterKind::Marker(kind.clone()),
                placement: None,
                facing: None,
                layout: &scenario.rules.counters,
            });
        }
    }
    out
}

/// A colour's bytes (magenta when unreadable, as the renderer shows it).
pub fn rgb(colour: &bataille_schema::Colour) -> [u8; 3] {
    colour.rgb().unwrap_or([0xff, 0x00, 0xff])
}

/// The start time of turn `turn` (1-based): the scenario's start plus the turns before it.
pub fn turn_time(scenario: &Scenario, turn: u32) -> String {
    let (h, m) = scenario
        .start_time
        .split_once(':')
        .and_then(|(h, m)| Some((h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
        .unwrap_or((0, 0));
    let minutes = h * 60 + m + turn.saturating_sub(1) * scenario.turn_minutes;
    format!("{:02}:{:02}", (minutes / 60) % 24, minutes % 60)
}

/// Counters' images drawn together, each as [`Counter::png`] draws it (`(counter, back)`: its
/// front, or back), on every thread. A counter's shapes before its first text (shadow, colour,
/// edge, band, wedge, symbol) repeat across thousands of counters in a few hundred kinds: each
/// kind is painted once and copied, then each counter's own text is painted over its copy.
/// The same operations on the same pixels, so the same images.
pub fn pngs(
    wanted: &[(&Counter<'_>, bool)],
    side: f32,
    canvas: u32,
) -> Result<Vec<Vec<u8>>, crate::ExportError> {
    use rayon::prelude::*;
    let blank = || {
        Pixmap::new(canvas, canvas).ok_or_else(|| {
            crate::ExportError::Invalid(format!("a counter image of {canvas} px cannot be made"))
        })
    };
    let c = canvas as f32 / 2.0;
    let base = Transform::from_translate(c, c);
    let drawings: Vec<Drawing> = wanted
        .par_iter()
        .map(|(counter, back)| counter.drawing(side, *back))
        .collect();
    // Each drawing's kind (its shapes before the first text) and how many items those are;
    // each kind's first drawing.
    let mut kinds: std::collections::HashMap<Vec<u32>, usize> = Default::default();
    let mut firsts: Vec<(usize, usize)> = Vec::new();
    let mut kind_of: Vec<(usize, usize)> = Vec::with_capacity(drawings.len());
    let mut key = Vec::new();
    for (i, drawing) in drawings.iter().enumerate() {
        let shapes = drawing
            .items
            .iter()
            .position(|item| matches!(item, Item::Text { .. }))
            .unwrap_or(drawing.items.len());
        key.clear();
        for item in &drawing.items[..shapes] {
            shape_key(item, &mut key);
        }
        let next = kinds.len();
        let kind = *kinds.entry(key.clone()).or_insert_with(|| {
            firsts.push((i, shapes));
            next
        });
        kind_of.push((kind, shapes));
    }
    let painted: Vec<Pixmap> = firsts
        .par_iter()
        .map(|&(i, shapes)| {
            let mut pixmap = blank()?;
            for item in &drawings[i].items[..shapes] {
                item.paint(&mut pixmap, base);
            }
            Ok(pixmap)
        })
        .collect::<Result<_, crate::ExportError>>()?;
    drawings
        .par_iter()
        .zip(&kind_of)
        .map(|(drawing, &(kind, shapes))| {
            let mut pixmap = painted[kind].clone();
            for item in &drawing.items[shapes..] {
                item.paint(&mut pixmap, base);
            }
            Ok(bataille_render::encode_png_fast(&pixmap)?)
        })
        .collect()
}

/// What a fill or stroke paints, as numbers (equal numbers paint equal pixels): its kind,
/// colour, width, cap, transform and path. Text gives its kind only.
fn shape_key(item: &Item, key: &mut Vec<u32>) {
    let transform = |key: &mut Vec<u32>, t: &Transform| {
        key.extend([t.sx, t.kx, t.ky, t.sy, t.tx, t.ty].map(f32::to_bits));
    };
    let path = |key: &mut Vec<u32>, path: &bataille_render::tiny_skia::Path| {
        key.push(path.verbs().len() as u32);
        key.extend(path.verbs().iter().map(|verb| *verb as u32));
        key.extend(
            path.points()
                .iter()
                .flat_map(|p| [p.x.to_bits(), p.y.to_bits()]),
        );
    };
    match item {
        Item::Fill {
            path: p,
            colour,
            transform: t,
            crisp,
        } => {
            key.extend([0, u32::from_le_bytes(*colour), u32::from(*crisp)]);
            transform(key, t);
            path(key, p);
        }
        Item::Stroke {
            path: p,
            colour,
            width,
            cap,
            transform: t,
        } => {
            key.extend([1, u32::from_le_bytes(*colour), width.to_bits(), *cap as u32]);
            transform(key, t);
            path(key, p);
        }
        Item::Text { .. } => key.push(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(scenario: &str, map: &str) -> (Scenario, Map) {
        use bataille_schema::io::{parse_map, parse_scenario};
        use bataille_schema::source::SourceFile;
        let read = |path: &str| {
            let text = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
                .expect("a bundled battle");
            SourceFile::new(path, text)
        };
        (
            parse_scenario(&read(scenario)).expect("the scenario"),
            parse_map(&read(map)).expect("the map"),
        )
    }

    /// The images drawn together (shapes painted once per kind, then each counter's text) are
    /// byte for byte those each counter draws alone: every counter of three battles (units of
    /// every symbol, facings, blank and printed backs, leaders, markers, replacements), front
    /// and back, at two sizes.
    #[test]
    fn counters_drawn_together_are_those_drawn_alone() {
        for (scenario, map) in [
            ("scenarios/denain-1712.ron", "maps/denain-1712.ron"),
            ("scenarios/fontenoy-1745.ron", "maps/fontenoy-1745.ron"),
            (
                "scenarios/napoleon-at-waterloo.ron",
                "maps/napoleon-at-waterloo.ron",
            ),
        ] {
            let (scenario, map) = parsed(scenario, map);
            let all = counters(&scenario, &map);
            let markers = marker_counters(&scenario);
            let replacements = replacement_counters(&scenario, &map);
            let wanted: Vec<(&Counter, bool)> = all
                .iter()
                .chain(&markers)
                .chain(&replacements)
                .flat_map(|c| [(c, false), (c, true)])
                .collect();
            assert!(wanted.len() > 100, "{}: {}", scenario.title, wanted.len());
            for (side, canvas) in [(46.0, 70), (29.0, 44)] {
                let together = pngs(&wanted, side, canvas).expect("drawn together");
                assert_eq!(together.len(), wanted.len());
                for ((counter, back), png) in wanted.iter().zip(&together) {
                    assert!(
                        *png == counter.png(side, canvas, *back).expect("drawn alone"),
                        "{}: {} (back {back}) at {side}",
                        scenario.title,
                        counter.id
                    );
                }
            }
        }
    }
}
