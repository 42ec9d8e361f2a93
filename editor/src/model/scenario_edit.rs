//! Scenario edits as reversible changes: an item of the order of battle (army, commander, corps,
//! unit, zone, victory objective) inserted, replaced or removed at its index; an army's own
//! fields; hexes added to or removed from a zone (as a list of the hexes that changed); the
//! scenario's settings; a leader's miniatures ratings. Each records only what it changes, never
//! the whole scenario. Also the small queries the panels share: ids in use, unique ids, where a
//! counter stands. Longer than 600 lines (612): every kind of scenario change and the way it is
//! applied stay in one place, so that undo has one definition to read.

use std::collections::{BTreeMap, HashSet};

use bataille_schema::scenario::{
    Army, Command, Commander, Corps, Faction, Objective, Placement, Rules, Stacking, Unit, Victory,
    Zone,
};
use bataille_schema::scenario::{Conversion, Rating};
use bataille_schema::{HexName, Id, MapEdge, Scenario};

use crate::model::document::{Document, Touched};

/// Where an item lives in the scenario, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemPath {
    Army(usize),
    Commander(usize, usize),
    Corps(usize, usize),
    Unit(usize, usize),
    Zone(usize),
    Objective(usize),
}

/// An item of the scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Army(Box<Army>),
    Commander(Box<Commander>),
    Corps(Box<Corps>),
    Unit(Box<Unit>),
    Zone(Box<Zone>),
    Objective(Box<Objective>),
}

/// An army's own fields (not its commanders, corps and units).
#[derive(Debug, Clone, PartialEq)]
pub struct ArmyHeader {
    pub id: Id,
    pub name: String,
    pub friendly_edges: Vec<MapEdge>,
}

impl ArmyHeader {
    pub fn of(army: &Army) -> ArmyHeader {
        ArmyHeader {
            id: army.id.clone(),
            name: army.name.clone(),
            friendly_edges: army.friendly_edges.clone(),
        }
    }
}

/// The scenario's settings: everything but the armies, zones and miniatures entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub title: String,
    pub date: String,
    pub turns: u32,
    pub turn_minutes: u32,
    pub start_time: String,
    pub notes: Option<String>,
    pub rules: Rules,
    pub victory: Victory,
    /// The sides: each lists armies by id, and victory conditions name them.
    pub sides: Vec<Faction>,
}

impl Settings {
    pub fn of(s: &Scenario) -> Settings {
        Settings {
            title: s.title.clone(),
            date: s.date.clone(),
            turns: s.turns,
            turn_minutes: s.turn_minutes,
            start_time: s.start_time.clone(),
            notes: s.notes.clone(),
            rules: s.rules.clone(),
            victory: s.victory.clone(),
            sides: s.sides.clone(),
        }
    }

    fn store(&self, s: &mut Scenario) {
        s.title = self.title.clone();
        s.date = self.date.clone();
        s.turns = self.turns;
        s.turn_minutes = self.turn_minutes;
        s.start_time = self.start_time.clone();
        s.notes = self.notes.clone();
        s.rules = self.rules.clone();
        s.victory = self.victory.clone();
        s.sides = self.sides.clone();
    }
}

/// One reversible change to the scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioChange {
    /// An item inserted (`before: None`), removed (`after: None`) or replaced, at `path`.
    Item {
        path: ItemPath,
        before: Option<Item>,
        after: Option<Item>,
    },
    /// An army's id, name or friendly edges.
    ArmyHeader {
        army: usize,
        before: Box<ArmyHeader>,
        after: Box<ArmyHeader>,
    },
    /// Hexes added to (`present: true`) or removed from a zone: only those that changed.
    ZoneHexes {
        zone: usize,
        hexes: Vec<HexName>,
        present: bool,
    },
    /// Title, date, turns, rules, victory conditions.
    Settings {
        before: Box<Settings>,
        after: Box<Settings>,
    },
    /// A leader's ratings under one miniatures system (`miniatures[system].leaders[leader]`;
    /// `None`: no entry).
    LeaderRatings {
        system: usize,
        leader: Id,
        before: Option<BTreeMap<Id, Rating>>,
        after: Option<BTreeMap<Id, Rating>>,
    },
    /// One miniatures system's conversion rules (`miniatures[system].convert`), whole: they name
    /// units, corps and armies by id, and follow a rename or a deletion.
    Conversions {
        system: usize,
        before: Vec<Conversion>,
        after: Vec<Conversion>,
    },
}

fn insert_at<T>(list: &mut Vec<T>, index: usize, value: T) {
    let index = index.min(list.len());
    list.insert(index, value);
}

fn remove_at<T>(list: &mut Vec<T>, index: usize) {
    if index < list.len() {
        list.remove(index);
    }
}

fn set_at<T>(list: &mut [T], index: usize, value: T) {
    if let Some(slot) = list.get_mut(index) {
        *slot = value;
    }
}

/// Puts `value` (or removes what is there when `None`) at `path`; `insert` says whether the
/// slot is new.
fn put(s: &mut Scenario, path: ItemPath, value: Option<&Item>, insert: bool) {
    macro_rules! place {
        ($list:expr, $index:expr, $variant:ident) => {{
            match value {
                Some(Item::$variant(v)) => {
                    let v = v.as_ref().clone();
                    if insert {
                        insert_at($list, $index, v);
                    } else {
                        set_at($list, $index, v);
                    }
                }
                None => remove_at($list, $index),
                Some(_) => {}
            }
        }};
    }
    match path {
        ItemPath::Army(a) => place!(&mut s.armies, a, Army),
        ItemPath::Commander(a, k) => {
            if let Some(army) = s.armies.get_mut(a) {
                place!(&mut army.commanders, k, Commander)
            }
        }
        ItemPath::Corps(a, c) => {
            if let Some(army) = s.armies.get_mut(a) {
                place!(&mut army.corps, c, Corps)
            }
        }
        ItemPath::Unit(a, u) => {
            if let Some(army) = s.armies.get_mut(a) {
                place!(&mut army.units, u, Unit)
            }
        }
        ItemPath::Zone(z) => place!(&mut s.zones, z, Zone),
        ItemPath::Objective(o) => place!(&mut s.victory.objectives, o, Objective),
    }
}

impl ScenarioChange {
    /// Applies the change forwards or backwards. Indices out of range change nothing.
    pub fn apply(&self, doc: &mut Document, forward: bool) -> Touched {
        let touched = Touched {
            scenario: true,
            ..Default::default()
        };
        let Some(file) = doc.scenario.as_mut() else {
            return Touched::default();
        };
        let s = &mut file.scenario;
        match self {
            ScenarioChange::Item {
                path,
                before,
                after,
            } => {
                let (from, to) = if forward {
                    (before, after)
                } else {
                    (after, before)
                };
                match (from, to) {
                    (None, Some(_)) => put(s, *path, to.as_ref(), true),
                    (Some(_), None) => put(s, *path, None, false),
                    (Some(_), Some(_)) => put(s, *path, to.as_ref(), false),
                    (None, None) => {}
                }
            }
            ScenarioChange::ArmyHeader {
                army,
                before,
                after,
            } => {
                let value = if forward { after } else { before };
                if let Some(a) = s.armies.get_mut(*army) {
                    a.id = value.id.clone();
                    a.name = value.name.clone();
                    a.friendly_edges = value.friendly_edges.clone();
                }
            }
            ScenarioChange::ZoneHexes {
                zone,
                hexes,
                present,
            } => {
                if let Some(z) = s.zones.get_mut(*zone) {
                    if *present == forward {
                        for hex in hexes {
                            if let Err(at) = z.hexes.binary_search(hex) {
                                z.hexes.insert(at, hex.clone());
                            }
                        }
                    } else {
                        let gone: HashSet<&HexName> = hexes.iter().collect();
                        z.hexes.retain(|h| !gone.contains(h));
                    }
                }
            }
            ScenarioChange::Settings { before, after } => {
                if forward { after } else { before }.store(s);
            }
            ScenarioChange::LeaderRatings {
                system,
                leader,
                before,
                after,
            } => {
                if let Some(used) = s.miniatures.get_mut(*system) {
                    match if forward { after } else { before } {
                        Some(ratings) => {
                            used.leaders.insert(leader.clone(), ratings.clone());
                        }
                        None => {
                            used.leaders.remove(leader);
                        }
                    }
                }
            }
            ScenarioChange::Conversions {
                system,
                before,
                after,
            } => {
                if let Some(used) = s.miniatures.get_mut(*system) {
                    used.convert = if forward { after } else { before }.clone();
                }
            }
        }
        touched
    }

    pub fn is_noop(&self) -> bool {
        match self {
            ScenarioChange::Item { before, after, .. } => before == after,
            ScenarioChange::ArmyHeader { before, after, .. } => before == after,
            ScenarioChange::ZoneHexes { hexes, .. } => hexes.is_empty(),
            ScenarioChange::Settings { before, after } => before == after,
            ScenarioChange::LeaderRatings { before, after, .. } => before == after,
            ScenarioChange::Conversions { before, after, .. } => before == after,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Queries shared by the panels and the map.

/// Every id defined in the scenario (they share one namespace: armies, commanders, corps, line
/// leaders, units, zones).
pub fn ids_in_use(s: &Scenario) -> HashSet<String> {
    let mut ids = HashSet::new();
    for army in &s.armies {
        ids.insert(army.id.0.to_string());
        for c in &army.commanders {
            ids.insert(c.id.0.to_string());
        }
        for corps in &army.corps {
            ids.insert(corps.id.0.to_string());
            if let Some(l) = &corps.leader {
                ids.insert(l.id.0.to_string());
            }
        }
        for u in &army.units {
            ids.insert(u.id.0.to_string());
        }
    }
    for z in &s.zones {
        ids.insert(z.id.0.to_string());
    }
    ids
}

/// `text` made into a valid id (the schema's grammar): from a name, or `item` when nothing is
/// left.
pub fn sanitise_id(text: &str) -> String {
    let id = bataille_schema::ids::id_from_name(text);
    if id.is_empty() { "item".to_owned() } else { id }
}

/// Whether an id is still the one the editor made, from the item's name or from one of the
/// editor's defaults (`army-1-corps`), maybe numbered (`-2`): such an id follows the name when
/// the name changes; an id the user typed stays (issue 21: `unit-1` stayed on Normandie).
pub fn id_follows_name(id: &Id, name: &str, defaults: &[String]) -> bool {
    let id = id.as_str();
    let stem = match id.rsplit_once('-') {
        Some((stem, n)) if !stem.is_empty() && n.parse::<u32>().is_ok() => stem,
        _ => id,
    };
    let from_name = sanitise_id(name);
    [id, stem]
        .iter()
        .any(|candidate| *candidate == from_name || defaults.iter().any(|d| d == candidate))
}

/// `base` made valid, suffixed `-2`, `-3`… until it is not in `taken`.
pub fn unique_id(taken: &HashSet<String>, base: &str) -> Id {
    let base = sanitise_id(base);
    if !taken.contains(&base) {
        return Id::from(base);
    }
    // Strip a numeric suffix so that duplicating `navarre-2` gives `navarre-3`.
    let stem = match base.rsplit_once('-') {
        Some((stem, n)) if !stem.is_empty() && n.parse::<u32>().is_ok() => stem.to_owned(),
        _ => base.clone(),
    };
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|candidate| !taken.contains(candidate))
        .map(Id::from)
        .unwrap_or(Id::from(base))
}

/// The unit's index in its army, by id.
pub fn find_unit(s: &Scenario, id: &str) -> Option<(usize, usize)> {
    s.armies.iter().enumerate().find_map(|(a, army)| {
        army.units
            .iter()
            .position(|u| u.id.as_str() == id)
            .map(|u| (a, u))
    })
}

/// A commander, a line leader (by its corps) or a unit, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterAt {
    Unit(usize, usize),
    Leader(usize, usize),
    Commander(usize, usize),
}

impl CounterAt {
    /// The index of the army the counter belongs to.
    pub fn army(self) -> usize {
        match self {
            CounterAt::Unit(a, _) | CounterAt::Leader(a, _) | CounterAt::Commander(a, _) => a,
        }
    }
}

/// Finds the counter (unit, line leader or commander) with this id.
pub fn find_counter(s: &Scenario, id: &str) -> Option<CounterAt> {
    if let Some((a, u)) = find_unit(s, id) {
        return Some(CounterAt::Unit(a, u));
    }
    for (a, army) in s.armies.iter().enumerate() {
        if let Some(k) = army.commanders.iter().position(|c| c.id.as_str() == id) {
            return Some(CounterAt::Commander(a, k));
        }
        if let Some(c) = army
            .corps
            .iter()
            .position(|c| c.leader.as_ref().is_some_and(|l| l.id.as_str() == id))
        {
            return Some(CounterAt::Leader(a, c));
        }
    }
    None
}

/// The placement of a counter.
pub fn placement_of(s: &Scenario, at: CounterAt) -> Option<&Placement> {
    match at {
        CounterAt::Unit(a, u) => s.armies.get(a)?.units.get(u).map(|u| &u.placement),
        CounterAt::Leader(a, c) => s
            .armies
            .get(a)?
            .corps
            .get(c)?
            .leader
            .as_ref()
            .map(|l| &l.placement),
        CounterAt::Commander(a, k) => s.armies.get(a)?.commanders.get(k).map(|c| &c.placement),
    }
}

/// Where a counter goes when dropped on `hex`: a free unit keeps its zone and takes the hex as
/// `at`; anything else stands on the hex.
pub fn placement_dropped_on(current: &Placement, hex: HexName) -> Placement {
    match current {
        Placement::Free { zone, .. } => Placement::Free {
            zone: zone.clone(),
            at: Some(hex),
        },
        _ => Placement::Hex(hex),
    }
}

/// The placement after the counter is taken off the map: a free unit keeps its zone without a
/// hex; a reinforcement is unchanged; anything else is not placed.
pub fn placement_removed(current: &Placement) -> Placement {
    match current {
        Placement::Free { zone, .. } => Placement::Free {
            zone: zone.clone(),
            at: None,
        },
        Placement::Reinforcement { .. } => current.clone(),
        _ => Placement::Unplaced,
    }
}

/// A short description of a placement for the tree and the forms.
pub fn describe_placement(p: &Placement) -> String {
    match p {
        Placement::Unplaced => "not placed".to_owned(),
        Placement::Hex(h) => format!("at {h}"),
        Placement::Free { zone, at: Some(h) } => format!("free in {zone}, at {h}"),
        Placement::Free { zone, at: None } => format!("free in {zone}, not placed"),
        Placement::Reinforcement { turn, entry } => {
            let entry: Vec<&str> = entry.iter().map(HexName::as_str).collect();
            format!("turn {turn} by {}", entry.join(", "))
        }
    }
}

/// Whether a counter still waits to be put on the map at set-up.
pub fn needs_placing(p: &Placement) -> bool {
    matches!(p, Placement::Unplaced | Placement::Free { at: None, .. })
}

/// A scenario for a map that has none: the Vae Victis unit kinds, Denain-like stacking
/// (one unit a hex, or infantry with a battery) and command radii, no armies yet.
pub fn new_scenario(title: &str, map_file: &str) -> Scenario {
    use bataille_schema::scenario::{Composition, StackTerm, Symbol, UnitKind};
    let mut unit_kinds = std::collections::BTreeMap::new();
    let kind = |name: &str, symbol, combat, front, flank, immobile| UnitKind {
        range_hexes: None,
        name: name.to_owned(),
        symbol,
        combat,
        counts_for_stacking: None,
        front_hexsides: front,
        flank_hexsides: flank,
        moves_as: None,
        immobile,
        armies: Vec::new(),
    };
    unit_kinds.insert(
        Id::from("infantry"),
        kind("Infantry", Symbol::Infantry, true, 2, 2, false),
    );
    unit_kinds.insert(
        Id::from("cavalry"),
        kind("Cavalry", Symbol::Cavalry, true, 4, 0, false),
    );
    let mut dragoons = kind("Dragoons", Symbol::Dragoons, true, 2, 2, false);
    dragoons.moves_as = Some(Id::from("cavalry"));
    unit_kinds.insert(Id::from("dragoons"), dragoons);
    unit_kinds.insert(
        Id::from("light"),
        kind("Light troops", Symbol::Light, true, 2, 2, false),
    );
    unit_kinds.insert(
        Id::from("artillery"),
        kind("Artillery", Symbol::Artillery, true, 6, 0, false),
    );
    let term = |kinds: &[&str], max_counters| StackTerm {
        kinds: kinds.iter().map(|k| Id::from(*k)).collect(),
        max_counters: Some(max_counters),
        max_cp: None,
    };
    Scenario {
        sides: Vec::new(),
        format_version: bataille_schema::FORMAT_VERSION,
        title: title.to_owned(),
        map: map_file.to_owned(),
        date: "1712-07-24".to_owned(),
        turns: 10,
        turn_minutes: 60,
        start_time: "11:00".to_owned(),
        language: None,
        notes: None,
        allow: Vec::new(),
        rules: Rules {
            rule_numbers: Default::default(),
            charts: Vec::new(),
            counters: Default::default(),
            system: Id::from("vae-victis"),
            unit_kinds,
            stacking: Stacking {
                compositions: vec![
                    Composition {
                        name: "one unit".to_owned(),
                        terms: vec![term(
                            &["infantry", "cavalry", "dragoons", "light", "artillery"],
                            1,
                        )],
                    },
                    Composition {
                        name: "infantry with a battery".to_owned(),
                        terms: vec![term(&["infantry", "dragoons"], 1), term(&["artillery"], 1)],
                    },
                ],
                reinforcements: Default::default(),
                column_entry: Vec::new(),
            },
            command: Command {
                corps: true,
                line_leaders: true,
                commanders: true,
                commander_radius_hexes: 5,
                leader_radius_hexes: 4,
                blocked_by_enemy_front_and_flank: false,
                lines_of_battle: false,
                leaders_move_as: None,
                commanders_move_as: None,
            },
            fire_restrictions: Vec::new(),
        },
        armies: Vec::new(),
        zones: Vec::new(),
        victory: Victory::default(),
        miniatures: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::{NewMapSettings, ScenarioFile};

    fn doc() -> Document {
        let mut doc = Document::new_map(&NewMapSettings::default());
        doc.scenario = Some(ScenarioFile {
            scenario: new_scenario("T", "m.ron"),
            path: "s.ron".into(),
        });
        doc
    }

    fn army(id: &str) -> Army {
        Army {
            id: Id::from(id),
            name: id.to_owned(),
            colour: None,
            friendly_edges: Vec::new(),
            commanders: Vec::new(),
            corps: Vec::new(),
            units: Vec::new(),
        }
    }

    #[test]
    fn insert_replace_remove_and_undo() {
        let mut doc = doc();
        let add = ScenarioChange::Item {
            path: ItemPath::Army(0),
            before: None,
            after: Some(Item::Army(Box::new(army("fr")))),
        };
        add.apply(&mut doc, true);
        let s = |d: &Document| d.scenario.as_ref().map(|s| s.scenario.clone()).unwrap();
        assert_eq!(s(&doc).armies.len(), 1);
        let rename = ScenarioChange::ArmyHeader {
            army: 0,
            before: Box::new(ArmyHeader::of(&army("fr"))),
            after: Box::new(ArmyHeader {
                id: Id::from("french"),
                name: "French".into(),
                friendly_edges: vec![MapEdge::West],
            }),
        };
        rename.apply(&mut doc, true);
        assert_eq!(s(&doc).armies[0].id.as_str(), "french");
        rename.apply(&mut doc, false);
        assert_eq!(s(&doc).armies[0].id.as_str(), "fr");
        add.apply(&mut doc, false);
        assert!(s(&doc).armies.is_empty());
    }

    #[test]
    fn zone_hexes_add_and_remove_only_what_changed() {
        let mut doc = doc();
        doc.scenario.as_mut().unwrap().scenario.zones.push(Zone {
            id: Id::from("z"),
            name: "Z".into(),
            owner: bataille_schema::scenario::Owner::Army(Id::from("fr")),
            hexes: vec![HexName::from("0102")].into(),
            shared_with: Vec::new(),
        });
        let change = ScenarioChange::ZoneHexes {
            zone: 0,
            hexes: vec![HexName::from("0101"), HexName::from("0103")],
            present: true,
        };
        change.apply(&mut doc, true);
        let hexes = |d: &Document| d.scenario.as_ref().unwrap().scenario.zones[0].hexes.clone();
        assert_eq!(hexes(&doc).len(), 3);
        assert_eq!(hexes(&doc).text(0), Some("0101"));
        change.apply(&mut doc, false);
        assert_eq!(hexes(&doc), vec![HexName::from("0102")]);
    }

    #[test]
    fn unique_ids_are_suffixed() {
        let taken: HashSet<String> = ["navarre-1", "navarre-2", "x"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(unique_id(&taken, "navarre-2").as_str(), "navarre-3");
        assert_eq!(unique_id(&taken, "x").as_str(), "x-2");
        assert_eq!(
            unique_id(&taken, "Régiment Du Roi").as_str(),
            "regiment-du-roi"
        );
        assert_eq!(unique_id(&taken, "  ").as_str(), "item");
    }
}
