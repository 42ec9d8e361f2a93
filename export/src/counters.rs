//! The counters of a scenario, listed once for every export: each unit (corps colour, kind
//! symbol, facing), each leader and commander, the game's markers, grouped by army and corps,
//! and the reinforcements by turn.

use bataille_render::symbology::{self, CounterFace, CounterLook, Drawing, Looks, MarkerKind};
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
                    name: unit.name.clone(),
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
/// each unit of at least that many combat points, named `replacement-ID`, not placed.
pub fn replacement_counters<'a>(scenario: &'a Scenario, map: &Map) -> Vec<Counter<'a>> {
    let Some(from) = scenario.rules.counters.replacement_from_cp else {
        return Vec::new();
    };
    counters(scenario, map)
        .into_iter()
        .filter_map(|counter| match counter.kind {
            CounterKind::Unit { unit, look } if unit.cp.is_some_and(|cp| cp >= from) => {
                Some(Counter {
                    id: format!("replacement-{}", counter.id),
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

/// The marker counters (not placed), `count` copies each named `marker-KIND-N`.
pub fn marker_counters(scenario: &Scenario) -> Vec<Counter<'_>> {
    let mut out = Vec::new();
    for (kind, count) in markers(scenario) {
        let label = kind.slug();
        for n in 1..=count {
            out.push(Counter {
                id: format!("marker-{label}-{n}"),
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
