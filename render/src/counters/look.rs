//! What a counter shows, whatever draws it: its values (strength, morale, movement, command)
//! in the scenario's counter layout, its face, whether its back is blank, the leader markers and
//! the kinds of marker counters.

use bataille_schema::scenario::{CounterBack, CounterLayout, CounterValue, MarkerType, Unit};

use super::NO_CORPS;

/// At most this many counters of a stack are drawn, each up and left of the one below (the
/// PNG renderer, the exports and the editor alike; the editor adds a badge with the count).
pub const STACK_SHOWN: usize = 4;

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
