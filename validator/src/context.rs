//! What every scenario check needs to look up: indexes of armies, corps and zones by id, the
//! counters on the map with their pointers, and a view of the map (terrain and overlays by hex).

use std::sync::Arc;

use foldhash::{HashMap, HashMapExt};

use bataille_schema::map::{Effects, MoveCost, TerrainType};
use bataille_schema::scenario::{Commander, LineLeader, Placement, Unit, UnitKind};
use bataille_schema::source::push_pointer;
use bataille_schema::{DocumentKind, Grid, HexIndex, HexName, Id, Map, Scenario};

use crate::diagnostic::Diagnostic;
use crate::sink::Sink;

/// A map with its terrain codes split by hex, and overlays by hex.
#[derive(Clone)]
pub(crate) struct MapView<'a> {
    pub map: &'a Map,
    pub grid: &'a Grid,
    codes: Vec<Vec<char>>,
    /// The legend's one-character codes: a legend is a few dozen codes, read by a scan rather
    /// than the legend's string-keyed map (a string comparison per step, for every hex a
    /// check asks about).
    legend: Vec<(char, &'a String, &'a TerrainType)>,
    overlays: HashMap<HexIndex, &'a [Id]>,
}

impl<'a> MapView<'a> {
    pub fn new(map: &'a Map) -> Self {
        let codes = map.rows.iter().map(|row| row.chars().collect()).collect();
        let legend = map
            .terrain
            .iter()
            .filter_map(|(code, terrain)| {
                let mut chars = code.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some((c, code, terrain)),
                    _ => None, // E0610: no hex can use it
                }
            })
            .collect();
        let overlays = map
            .overlays
            .iter()
            .filter_map(|(name, ids)| Some((map.grid.lookup(name)?, ids.as_slice())))
            .collect();
        Self {
            map,
            grid: &map.grid,
            codes,
            legend,
            overlays,
        }
    }

    /// The terrain code written for a hex, when its row has one.
    pub fn code_at(&self, hex: HexIndex) -> Option<char> {
        self.codes
            .get(hex.row as usize)?
            .get(hex.col as usize)
            .copied()
    }

    /// The terrain of a hex, when its code is in the legend.
    pub fn terrain_at(&self, hex: HexIndex) -> Option<(&'a String, &'a TerrainType)> {
        let code = self.code_at(hex)?;
        self.legend
            .iter()
            .find(|(c, _, _)| *c == code)
            .map(|&(_, name, terrain)| (name, terrain))
    }

    /// The overlays of a hex.
    pub fn overlays_at(&self, hex: HexIndex) -> &'a [Id] {
        self.overlays.get(&hex).copied().unwrap_or(&[])
    }

    /// The cost for a movement class to enter a hex: the terrain's, then each overlay that
    /// sets one overrides it (a bridge overlay on a river hex). `None` when the terrain is
    /// unknown. The name returned is what decided it (terrain or overlay name).
    pub fn entry_cost(&self, hex: HexIndex, class: &str) -> Option<(MoveCost, &'a str)> {
        let (_, terrain) = self.terrain_at(hex)?;
        let mut cost = (
            cost_of(&terrain.effects, class).unwrap_or(MoveCost::Mp(1)),
            terrain.name.as_str(),
        );
        for id in self.overlays_at(hex) {
            if let Some(overlay) = self.map.overlay_types.get(id)
                && let Some(c) = cost_of(&overlay.effects, class)
            {
                cost = (c, overlay.name.as_str());
            }
        }
        Some(cost)
    }

    /// Whether the hex counts as a redoubt or built-up area (rule 2: infantry there has six
    /// front hexsides).
    pub fn is_fortified(&self, hex: HexIndex) -> bool {
        let fortified = |e: &Effects| e.redoubt || e.built_up;
        self.terrain_at(hex)
            .is_some_and(|(_, t)| fortified(&t.effects))
            || self.overlays_at(hex).iter().any(|id| {
                self.map
                    .overlay_types
                    .get(id)
                    .is_some_and(|o| fortified(&o.effects))
            })
    }
}

fn cost_of(effects: &Effects, class: &str) -> Option<MoveCost> {
    effects.cost_by_kind.get(class).copied().or(effects.cost)
}

/// What sort of counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CounterRole {
    Unit,
    Commander,
    Leader,
}

impl CounterRole {
    pub fn noun(self) -> &'static str {
        match self {
            CounterRole::Unit => "unit",
            CounterRole::Commander => "commander",
            CounterRole::Leader => "line leader",
        }
    }
}

/// A counter of the scenario with where it is written: 24 bytes (issue 19: a big battle
/// holds one `Counter` per counter while its checks run; with its fields borrowed one by one
/// it was 64 bytes, a sixth of the file for a file of the shortest units).
#[derive(Clone, Copy)]
pub(crate) struct Counter<'a> {
    who: Who<'a>,
    army: u32,
    index: u32,
}

/// The counter itself, by role.
#[derive(Clone, Copy)]
enum Who<'a> {
    Unit(&'a Unit),
    Commander(&'a Commander),
    Leader(&'a LineLeader),
}

const _: () = assert!(std::mem::size_of::<Counter<'static>>() == 24);

/// An index as a counter keeps it: a file's lists are far shorter than `u32::MAX` (the file
/// size limit is 64 MiB).
fn index_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'a> Counter<'a> {
    pub fn role(&self) -> CounterRole {
        match self.who {
            Who::Unit(_) => CounterRole::Unit,
            Who::Commander(_) => CounterRole::Commander,
            Who::Leader(_) => CounterRole::Leader,
        }
    }

    /// Its army's index.
    pub fn army(&self) -> usize {
        self.army as usize
    }

    /// Its index in its army's list (commanders, units; a line leader: its corps').
    pub fn index(&self) -> usize {
        self.index as usize
    }

    pub fn id(&self) -> &'a Id {
        match self.who {
            Who::Unit(u) => &u.id,
            Who::Commander(c) => &c.id,
            Who::Leader(l) => &l.id,
        }
    }

    pub fn placement(&self) -> &'a Placement {
        match self.who {
            Who::Unit(u) => &u.placement,
            Who::Commander(c) => &c.placement,
            Who::Leader(l) => &l.placement,
        }
    }

    pub fn allow(&self) -> &'a [bataille_schema::common::Code] {
        match self.who {
            Who::Unit(u) => &u.allow,
            Who::Commander(c) => &c.allow,
            Who::Leader(l) => &l.allow,
        }
    }

    pub fn unit(&self) -> Option<&'a Unit> {
        match self.who {
            Who::Unit(u) => Some(u),
            _ => None,
        }
    }

    /// For a commander in chief, the corps he commands (8.1); empty for the others.
    pub fn commands(&self) -> &'a [Id] {
        match self.who {
            Who::Commander(c) => &c.commands,
            _ => &[],
        }
    }
}

impl Counter<'_> {
    /// JSON pointer of the counter: written when a diagnostic needs it, not for every counter
    /// of a big battle (5,000 strings formatted for each validation, issue 23).
    pub fn pointer(&self) -> String {
        let a = self.army;
        let i = self.index;
        match self.role() {
            CounterRole::Commander => format!("/armies/{a}/commanders/{i}"),
            CounterRole::Leader => format!("/armies/{a}/corps/{i}/leader"),
            CounterRole::Unit => format!("/armies/{a}/units/{i}"),
        }
    }

    /// The pointer of the hex it stands on at set-up (its `Hex` or `Free.at` value).
    pub fn hex_pointer(&self) -> String {
        placement_hex_pointer(&self.pointer(), self.placement())
    }
}

/// The pointer of a placement's hex (`…/placement/Hex`, `…/placement/Free/at`).
pub(crate) fn placement_hex_pointer(base: &str, placement: &Placement) -> String {
    match placement {
        Placement::Hex(_) => format!("{base}/placement/Hex"),
        Placement::Free { at: Some(_), .. } => format!("{base}/placement/Free/at"),
        _ => format!("{base}/placement"),
    }
}

/// The scenario and its indexes, shared by the checks, with the diagnostics found so far.
pub(crate) struct Ctx<'a> {
    pub scenario: &'a Scenario,
    pub map: Option<MapView<'a>>,
    /// Army id → index (first definition).
    pub armies: HashMap<&'a str, usize>,
    /// Corps id → (army index, corps index) (first definition).
    pub corps: HashMap<&'a str, (usize, usize)>,
    /// Zone id → index (first definition).
    pub zones: HashMap<&'a str, usize>,
    /// Shared by the contexts the checks run in side by side ([`Ctx::beside`]): one list of
    /// 200,000 counters, not one per thread.
    pub counters: Arc<Vec<Counter<'a>>>,
    /// The side of each army: the index of the `sides` entry listing it, else a side of its
    /// own (beyond the listed sides).
    pub side_of: Vec<usize>,
    /// Where the checks' diagnostics go (bounded, `allow` lists applied: [`crate::sink`]).
    pub out: Sink<'a>,
}

impl<'a> Ctx<'a> {
    pub fn new(scenario: &'a Scenario, map: Option<&'a Map>, out: Sink<'a>) -> Self {
        let mut armies = HashMap::new();
        let mut corps = HashMap::new();
        // Sized once: a big battle's counters with no growth slack.
        let mut counters = Vec::with_capacity(
            scenario
                .armies
                .iter()
                .map(|a| a.commanders.len() + a.corps.len() + a.units.len())
                .sum(),
        );
        for (a, army) in scenario.armies.iter().enumerate() {
            armies.entry(army.id.as_str()).or_insert(a);
            for (c, commander) in army.commanders.iter().enumerate() {
                counters.push(Counter {
                    who: Who::Commander(commander),
                    army: index_of(a),
                    index: index_of(c),
                });
            }
            for (c, body) in army.corps.iter().enumerate() {
                corps.entry(body.id.as_str()).or_insert((a, c));
                if let Some(leader) = &body.leader {
                    counters.push(Counter {
                        who: Who::Leader(leader),
                        army: index_of(a),
                        index: index_of(c),
                    });
                }
            }
            for (u, unit) in army.units.iter().enumerate() {
                counters.push(Counter {
                    who: Who::Unit(unit),
                    army: index_of(a),
                    index: index_of(u),
                });
            }
        }
        let mut zones = HashMap::new();
        for (z, zone) in scenario.zones.iter().enumerate() {
            zones.entry(zone.id.as_str()).or_insert(z);
        }
        let side_of = scenario
            .armies
            .iter()
            .enumerate()
            .map(|(a, army)| {
                scenario
                    .sides
                    .iter()
                    .position(|side| side.armies.contains(&army.id))
                    .unwrap_or(scenario.sides.len() + a)
            })
            .collect();
        Self {
            scenario,
            map: map.map(MapView::new),
            armies,
            corps,
            zones,
            counters: Arc::new(counters),
            side_of,
            out,
        }
    }

    /// Another context on the same scenario, sharing this one's counters, with no
    /// diagnostics yet: for checks run beside this context's on another thread.
    pub fn beside(&self) -> Self {
        Self {
            scenario: self.scenario,
            map: self.map.clone(),
            armies: self.armies.clone(),
            corps: self.corps.clone(),
            zones: self.zones.clone(),
            counters: Arc::clone(&self.counters),
            side_of: self.side_of.clone(),
            out: self.out.beside(),
        }
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.out.push(diagnostic);
    }

    /// [`Sink::push_about`]: a diagnostic about a name, not told when the schema refuses it.
    pub fn push_about(&mut self, diagnostic: Diagnostic, refused: bool) {
        self.out.push_about(diagnostic, refused);
    }

    pub fn kind(&self, id: &str) -> Option<&'a UnitKind> {
        self.scenario.rules.unit_kinds.get(id)
    }

    /// The id of an army by index.
    pub fn army_id(&self, army: usize) -> &'a str {
        self.scenario.armies.get(army).map_or("", |a| a.id.as_str())
    }

    /// The army a corps belongs to.
    pub fn army_of_corps(&self, corps: &str) -> Option<usize> {
        self.corps.get(corps).map(|(a, _)| *a)
    }

    /// The map hex of a name, when there is a map and the name is one of its hexes (not an
    /// absent cell of a short line).
    pub fn lookup(&self, name: &HexName) -> Option<HexIndex> {
        self.map.as_ref()?.map.hex(name)
    }

    /// Whether two armies fight on the same side (the same army, or allies in `sides`).
    pub fn allied(&self, a: usize, b: usize) -> bool {
        self.side_of.get(a) == self.side_of.get(b)
    }

    /// The side key of an army for grouping (allies share it).
    pub fn side_key(&self, army: usize) -> usize {
        self.side_of.get(army).copied().unwrap_or(usize::MAX)
    }

    /// `" (4.4)"` when the scenario numbers the rule, `""` otherwise: a help cites only the
    /// scenario's own rule numbers, never another game's.
    pub fn cite(&self, number: &Option<String>) -> String {
        match number {
            Some(n) => format!(" ({n})"),
            None => String::new(),
        }
    }

    /// `"rule 4.4: "` when the scenario numbers the rule, `""` otherwise, to begin a
    /// parenthesis that explains the rule.
    pub fn cite_prefix(&self, number: &Option<String>) -> String {
        match number {
            Some(n) => format!("{}: ", rule_ref(n)),
            None => String::new(),
        }
    }

    /// The scenario's rule numbers.
    pub fn numbers(&self) -> &'a bataille_schema::scenario::RuleNumbers {
        &self.scenario.rules.rule_numbers
    }

    /// The movement class of a kind: its `moves_as`, else its own id.
    pub fn movement_class(&self, kind_id: &'a Id) -> &'a str {
        self.kind(kind_id.as_str())
            .and_then(|k| k.moves_as.as_ref())
            .unwrap_or(kind_id)
            .as_str()
    }

    /// The name of a kind for messages, in lower case (`infantry`).
    pub fn kind_name(&self, kind_id: &str) -> String {
        self.kind(kind_id)
            .map_or_else(|| kind_id.to_owned(), |k| k.name.to_lowercase())
    }
}

/// `rule 3`, `rules 1, 5` (several numbers), as a help cites a rule.
pub(crate) fn rule_ref(number: &str) -> String {
    if number.contains([',', ';', ' ']) {
        format!("rules {number}")
    } else {
        format!("rule {number}")
    }
}

pub(crate) const SCENARIO: DocumentKind = DocumentKind::Scenario;
pub(crate) const MAP: DocumentKind = DocumentKind::Map;

/// A JSON pointer with a map key appended (escaped).
pub(crate) fn key_pointer(base: &str, key: &str) -> String {
    push_pointer(base, key)
}

/// Describes a list of hexes compactly: runs of one column written `1312-1316`.
pub(crate) fn describe_hexes(grid: Option<&Grid>, hexes: &[HexName]) -> String {
    const MAX: usize = 8;
    let mut parsed: Vec<(u32, u32, &HexName)> = Vec::new();
    let mut others: Vec<&HexName> = Vec::new();
    for hex in hexes {
        match grid.and_then(|g| g.parse_numbers(hex.as_str())) {
            Some((c, r)) => parsed.push((c, r, hex)),
            None => others.push(hex),
        }
    }
    parsed.sort();
    parsed.dedup_by_key(|(c, r, _)| (*c, *r));
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parsed.len() {
        let mut j = i;
        while j + 1 < parsed.len()
            && parsed[j + 1].0 == parsed[i].0
            && parsed[j + 1].1 == parsed[j].1 + 1
        {
            j += 1;
        }
        if j > i {
            parts.push(format!("{}-{}", parsed[i].2, parsed[j].2));
        } else {
            parts.push(parsed[i].2.to_string());
        }
        i = j + 1;
    }
    parts.extend(others.iter().map(|h| h.to_string()));
    if parts.is_empty() {
        return "no hexes".into();
    }
    if parts.len() > MAX {
        let more = parts.len() - MAX;
        parts.truncate(MAX);
        return format!("{}, … {more} more", parts.join(", "));
    }
    parts.join(", ")
}
