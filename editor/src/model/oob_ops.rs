//! Operations on the scenario's order of battle, with no UI: adding armies, corps, commanders
//! and units (ids kept unique), duplicating, deleting, placing, taking off and turning
//! counters, renaming ids where they are referenced. Each returns the `Change`s to apply.

use bataille_schema::geometry::{facing_bearing, sides};
use bataille_schema::map::Orientation;
use bataille_schema::scenario::{
    Army, Commander, Conversion, Corps, LineLeader, Placement, Scenario, Symbol, Unit,
};
use bataille_schema::{Grid, Id, Side};

use crate::model::history::Change;
use crate::model::scenario_edit::{
    CounterAt, Item, ItemPath, ScenarioChange, ids_in_use, unique_id,
};
use crate::model::selection::Sel;

pub fn item_change(path: ItemPath, before: Option<Item>, after: Option<Item>) -> Change {
    Change::Scenario(ScenarioChange::Item {
        path,
        before,
        after,
    })
}

/// Where a new unit of corps `corps` goes in its army's list: after the corps' last unit.
pub fn unit_slot(army: &Army, corps: Option<&Id>) -> usize {
    army.units
        .iter()
        .rposition(|u| u.corps.as_ref() == corps && corps.is_some())
        .map_or(army.units.len(), |i| i + 1)
}

pub fn add_army(s: &Scenario) -> (String, Vec<Change>) {
    let taken = ids_in_use(s);
    // The id from the name, as a unit's is ("Army 2" → `army-2`).
    let name = format!("Army {}", s.armies.len() + 1);
    let army = Army {
        id: unique_id(&taken, &name),
        name,
        colour: None,
        friendly_edges: Vec::new(),
        commanders: Vec::new(),
        corps: Vec::new(),
        units: Vec::new(),
    };
    (
        "Add army".to_owned(),
        vec![item_change(
            ItemPath::Army(s.armies.len()),
            None,
            Some(Item::Army(Box::new(army))),
        )],
    )
}

/// A new corps' line leader: not placed, activation 3, the rules' radius.
pub fn new_line_leader(id: Id) -> LineLeader {
    LineLeader {
        id,
        name: "Line leader".to_owned(),
        activation: 3,
        radius_hexes: None,
        always_in_command: false,
        placement: Placement::Unplaced,
        allow: Vec::new(),
    }
}

pub fn add_corps(s: &Scenario, a: usize) -> (String, Vec<Change>) {
    let taken = ids_in_use(s);
    let Some(army) = s.armies.get(a) else {
        return ("Add corps".to_owned(), Vec::new());
    };
    let id = unique_id(&taken, &format!("{}-corps", army.id));
    let colour = crate::model::defaults::corps_colour(a, army.corps.len());
    let mut leader_id_taken = taken.clone();
    leader_id_taken.insert(id.0.to_string());
    let corps = Corps {
        leader: Some(new_line_leader(unique_id(
            &leader_id_taken,
            &format!("{id}-leader"),
        ))),
        id,
        name: format!("Corps {}", army.corps.len() + 1),
        colour,
        friendly_edges: Vec::new(),
        allow: Vec::new(),
    };
    let mut changes = vec![item_change(
        ItemPath::Corps(a, army.corps.len()),
        None,
        Some(Item::Corps(Box::new(corps.clone()))),
    )];
    // Every commander of the army commands it, as a start (8.1).
    for (k, chief) in army.commanders.iter().enumerate() {
        let mut after = chief.clone();
        after.commands.push(corps.id.clone());
        changes.push(item_change(
            ItemPath::Commander(a, k),
            Some(Item::Commander(Box::new(chief.clone()))),
            Some(Item::Commander(Box::new(after))),
        ));
    }
    ("Add corps".to_owned(), changes)
}

pub fn add_commander(s: &Scenario, a: usize) -> (String, Vec<Change>) {
    let taken = ids_in_use(s);
    let Some(army) = s.armies.get(a) else {
        return ("Add commander".to_owned(), Vec::new());
    };
    let chief = Commander {
        id: unique_id(&taken, &format!("{}-chief", army.id)),
        name: "Commander in chief".to_owned(),
        radius_hexes: None,
        commands: army.corps.iter().map(|c| c.id.clone()).collect(),
        placement: Placement::Unplaced,
        allow: Vec::new(),
    };
    (
        "Add commander".to_owned(),
        vec![item_change(
            ItemPath::Commander(a, army.commanders.len()),
            None,
            Some(Item::Commander(Box::new(chief))),
        )],
    )
}

pub fn add_unit(
    s: &Scenario,
    a: usize,
    corps: Option<usize>,
) -> Option<((String, Vec<Change>), Sel)> {
    let army = s.armies.get(a)?;
    let corps_id = corps.and_then(|c| army.corps.get(c)).map(|c| c.id.clone());
    let taken = ids_in_use(s);
    let kind = s
        .rules
        .unit_kinds
        .iter()
        .find(|(_, k)| k.symbol == Symbol::Infantry)
        .or_else(|| s.rules.unit_kinds.iter().next())
        .map_or_else(|| Id::from("infantry"), |(id, _)| id.clone());
    let n = army.units.iter().filter(|u| u.corps == corps_id).count() + 1;
    let name = format!("Unit {n}");
    let unit = Unit {
        // Made from the name (and again when the name is first typed: see the unit form).
        id: unique_id(&taken, &name),
        name: name.into(),
        kind,
        corps: corps_id.clone(),
        cp: Some(1),
        mp: Some(4),
        morale: Some(2),
        fire_modifier: None,
        always_in_command: false,
        facing: None,
        placement: Placement::Unplaced,
        ratings: Default::default(),
        allow: Default::default(),
    };
    let slot = unit_slot(army, corps_id.as_ref());
    Some((
        (
            "Add unit".to_owned(),
            vec![item_change(
                ItemPath::Unit(a, slot),
                None,
                Some(Item::Unit(Box::new(unit))),
            )],
        ),
        Sel::Unit(a, slot),
    ))
}

/// A name split into its stem and its battalion number, as the games print them:
/// `"Fechenbach 2/"` → `("Fechenbach", Some(2))`, `"Fechenbach"` → `("Fechenbach", None)`.
pub fn numbered_name(name: &str) -> (&str, Option<u32>) {
    let trimmed = name.trim_end();
    if let Some(rest) = trimmed.strip_suffix('/')
        && let Some((stem, n)) = rest.rsplit_once(' ')
        && let Ok(n) = n.parse::<u32>()
        && !stem.trim().is_empty()
    {
        return (stem.trim_end(), Some(n));
    }
    (trimmed, None)
}

/// A name ending in a plain number, as a new unit's: `"Unit 3"` → `("Unit", 3)`.
fn plain_numbered(name: &str) -> Option<(&str, u32)> {
    let (stem, n) = name.trim_end().rsplit_once(' ')?;
    let n = n.parse::<u32>().ok()?;
    (!stem.trim().is_empty()).then_some((stem.trim_end(), n))
}

/// Duplicates a unit (not placed) right after it. Copies are numbered as the games do: the
/// copy of "Fechenbach" is "Fechenbach 2/" (and the original becomes "Fechenbach 1/", in the
/// same step), the copy of "Fechenbach 2/" the next free number; the copy's id is made from its
/// name, and the miniatures conversion rules that name the original name the copy too. A name
/// ending in a plain number ("Unit 1", a new unit's) is copied with the next free number
/// ("Unit 2").
pub fn duplicate_unit(s: &Scenario, a: usize, u: usize) -> Option<((String, Vec<Change>), Sel)> {
    let army = s.armies.get(a)?;
    let unit = army.units.get(u)?;
    let mut changes = Vec::new();
    let mut copy = unit.clone();
    let (stem, number) = numbered_name(&unit.name);
    if let (None, Some((stem, _))) = (number, plain_numbered(&unit.name)) {
        // "Unit 1" (a new unit's name) is copied as "Unit 2", the next free number.
        let highest = army
            .units
            .iter()
            .filter_map(|other| plain_numbered(&other.name).filter(|(s, _)| *s == stem))
            .map(|(_, n)| n)
            .max()
            .unwrap_or(1);
        copy.name = format!("{stem} {}", highest.saturating_add(1)).into();
    } else {
        let highest = army
            .units
            .iter()
            .filter_map(|other| match numbered_name(&other.name) {
                (other_stem, n) if other_stem == stem => Some(n.unwrap_or(1)),
                _ => None,
            })
            .max()
            .unwrap_or(1);
        if number.is_none() {
            let mut renamed = unit.clone();
            renamed.name = format!("{stem} 1/").into();
            changes.push(item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                Some(Item::Unit(Box::new(renamed))),
            ));
        }
        copy.name = format!("{stem} {}/", highest.saturating_add(1)).into();
    }
    copy.id = unique_id(&ids_in_use(s), &copy.name);
    copy.placement = crate::model::scenario_edit::placement_removed(&unit.placement);
    changes.extend(copy_in_conversions(s, &unit.id, &copy.id));
    changes.push(item_change(
        ItemPath::Unit(a, u + 1),
        None,
        Some(Item::Unit(Box::new(copy))),
    ));
    Some((("Duplicate unit".to_owned(), changes), Sel::Unit(a, u + 1)))
}

/// One change per miniatures system whose conversion rules (`miniatures[].convert`) `edit`
/// changes; none for the others.
pub fn edit_conversions(
    s: &Scenario,
    mut edit: impl FnMut(&[Conversion]) -> Vec<Conversion>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for (m, used) in s.miniatures.iter().enumerate() {
        let after = edit(&used.convert);
        if after != used.convert {
            changes.push(Change::Scenario(ScenarioChange::Conversions {
                system: m,
                before: used.convert.clone(),
                after,
            }));
        }
    }
    changes
}

/// A duplicated unit converts as its original does: every conversion rule whose `units` list
/// names the original names the copy too, right after it.
pub fn copy_in_conversions(s: &Scenario, original: &Id, copy: &Id) -> Vec<Change> {
    edit_conversions(s, |rules| {
        let mut after = rules.to_vec();
        for rule in &mut after {
            if let Some(at) = rule.units.iter().position(|id| id == original) {
                rule.units.insert(at + 1, copy.clone());
            }
        }
        after
    })
}

/// The change that gives a counter a new placement.
pub fn set_placement(s: &Scenario, at: CounterAt, placement: Placement) -> Option<Change> {
    Some(match at {
        CounterAt::Unit(a, u) => {
            let unit = s.armies.get(a)?.units.get(u)?;
            if unit.placement == placement {
                return None;
            }
            let mut after = unit.clone();
            after.placement = placement;
            item_change(
                ItemPath::Unit(a, u),
                Some(Item::Unit(Box::new(unit.clone()))),
                Some(Item::Unit(Box::new(after))),
            )
        }
        CounterAt::Leader(a, c) => {
            let corps = s.armies.get(a)?.corps.get(c)?;
            let mut after = corps.clone();
            let leader = after.leader.as_mut()?;
            if leader.placement == placement {
                return None;
            }
            leader.placement = placement;
            item_change(
                ItemPath::Corps(a, c),
                Some(Item::Corps(Box::new(corps.clone()))),
                Some(Item::Corps(Box::new(after))),
            )
        }
        CounterAt::Commander(a, k) => {
            let chief = s.armies.get(a)?.commanders.get(k)?;
            if chief.placement == placement {
                return None;
            }
            let mut after = chief.clone();
            after.placement = placement;
            item_change(
                ItemPath::Commander(a, k),
                Some(Item::Commander(Box::new(chief.clone()))),
                Some(Item::Commander(Box::new(after))),
            )
        }
    })
}

/// Puts a counter on a hex: a unit free in a zone keeps its zone and takes the hex as `at`;
/// anything else stands on the hex. `None` when it is already there (or is no counter).
pub fn place_on(s: &Scenario, at: CounterAt, hex: bataille_schema::HexName) -> Option<Change> {
    let current = crate::model::scenario_edit::placement_of(s, at)?;
    let after = crate::model::scenario_edit::placement_dropped_on(current, hex);
    set_placement(s, at, after)
}

/// Takes a counter off the map (a unit goes back to "not placed"; a free unit keeps its zone).
pub fn remove_from_map(s: &Scenario, at: CounterAt) -> Option<(String, Vec<Change>)> {
    let current = crate::model::scenario_edit::placement_of(s, at)?;
    let after = crate::model::scenario_edit::placement_removed(current);
    let change = set_placement(s, at, after)?;
    Some(("Take off the map".to_owned(), vec![change]))
}

/// Turns a unit's facing one hexside.
pub fn rotate(
    s: &Scenario,
    grid: &Grid,
    at: CounterAt,
    clockwise: bool,
) -> Option<(String, Vec<Change>)> {
    let CounterAt::Unit(a, u) = at else {
        return None;
    };
    let unit = s.armies.get(a)?.units.get(u)?;
    let mut after = unit.clone();
    after.facing = Some(rotate_facing(grid.orientation, unit.facing, clockwise));
    Some((
        "Turn unit".to_owned(),
        vec![item_change(
            ItemPath::Unit(a, u),
            Some(Item::Unit(Box::new(unit.clone()))),
            Some(Item::Unit(Box::new(after))),
        )],
    ))
}

/// The facing after turning one hexside clockwise (or anticlockwise); a unit without a facing
/// takes the first side.
pub fn rotate_facing(orientation: Orientation, facing: Option<Side>, clockwise: bool) -> Side {
    let all = sides(orientation);
    let Some(current) = facing else {
        return all[0];
    };
    let i = match all.iter().position(|s| *s == current) {
        Some(i) => i,
        None => {
            // A side this orientation lacks: start from the nearest one.
            let b = facing_bearing(orientation, current);
            (0..6)
                .min_by(|&x, &y| {
                    let d = |k: usize| {
                        let diff = (facing_bearing(orientation, all[k]) - b).rem_euclid(360.0);
                        diff.min(360.0 - diff)
                    };
                    d(x).total_cmp(&d(y))
                })
                .unwrap_or(0)
        }
    };
    let next = if clockwise { (i + 1) % 6 } else { (i + 5) % 6 };
    all[next]
}

/// The names of everything with an id in the scenario (armies, commanders, corps, line
/// leaders, units, zones), for showing names where the validator wrote ids.
pub fn names_by_id(s: &Scenario) -> std::collections::HashMap<String, String> {
    let mut names = std::collections::HashMap::new();
    for army in &s.armies {
        names.insert(army.id.to_string(), army.name.clone());
        for c in &army.commanders {
            names.insert(c.id.to_string(), c.name.clone());
        }
        for corps in &army.corps {
            names.insert(corps.id.to_string(), corps.name.clone());
            if let Some(l) = &corps.leader {
                names.insert(l.id.to_string(), l.name.clone());
            }
        }
        for u in &army.units {
            names.insert(u.id.to_string(), u.name.to_string());
        }
    }
    for z in &s.zones {
        names.insert(z.id.to_string(), z.name.clone());
    }
    names
}

/// A validator message with each `` `id` `` that names something replaced by “its name”.
pub fn with_names(message: &str, names: &std::collections::HashMap<String, String>) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find('`') {
        let Some(len) = rest[start + 1..].find('`') else {
            break;
        };
        let token = &rest[start + 1..start + 1 + len];
        out.push_str(&rest[..start]);
        match names.get(token) {
            Some(name) if !name.is_empty() => out.push_str(&format!("“{name}”")),
            _ => out.push_str(&rest[start..start + len + 2]),
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A duplicated unit is converted for the miniatures systems as its original is: Denain's
    /// rules name Fechenbach 1/ (both systems), so they name its copy too.
    #[test]
    fn a_duplicate_is_named_where_its_original_is_in_the_conversion_rules() {
        let (name, text) = crate::model::templates::BUNDLED_SCENARIOS[0];
        let s = bataille_schema::io::parse_scenario(&bataille_schema::SourceFile::new(
            name,
            text.to_owned(),
        ))
        .expect("Denain parses");
        let (a, u) =
            crate::model::scenario_edit::find_unit(&s, "al-fechenbach-1").expect("Fechenbach 1/");
        let ((_, changes), _) = duplicate_unit(&s, a, u).expect("duplicated");
        let copy = changes
            .iter()
            .find_map(|c| match c {
                Change::Scenario(ScenarioChange::Item {
                    before: None,
                    after: Some(Item::Unit(unit)),
                    ..
                }) => Some(unit.id.clone()),
                _ => None,
            })
            .expect("the copy");
        let mut systems = 0;
        for change in &changes {
            if let Change::Scenario(ScenarioChange::Conversions { system, after, .. }) = change {
                systems += 1;
                for (before, after) in s.miniatures[*system].convert.iter().zip(after) {
                    let names = |ids: &[Id], id: &Id| ids.contains(id);
                    assert_eq!(
                        names(&before.units, &Id::from("al-fechenbach-1")),
                        names(&after.units, &copy),
                        "the copy {copy} is named where its original is"
                    );
                }
            }
        }
        assert_eq!(systems, 2, "both systems name Fechenbach 1/");
    }

    #[test]
    fn battalion_numbers_read_as_printed() {
        assert_eq!(numbered_name("Fechenbach 2/"), ("Fechenbach", Some(2)));
        assert_eq!(numbered_name("Fechenbach"), ("Fechenbach", None));
        assert_eq!(
            numbered_name("Régiment du Roi 12/"),
            ("Régiment du Roi", Some(12))
        );
        assert_eq!(numbered_name("2/"), ("2/", None));
    }

    /// A new unit's name, "Unit 1", is copied as "Unit 2" (then "Unit 3"), not "Unit 1 2/".
    #[test]
    fn a_plainly_numbered_name_is_copied_with_the_next_number() {
        use crate::model::document::{Document, ScenarioFile};
        let mut doc = Document::new_map(&Default::default());
        doc.scenario = Some(ScenarioFile {
            scenario: crate::model::scenario_edit::new_scenario("T", "m.ron"),
            path: "s.ron".into(),
        });
        let scenario = |doc: &Document| doc.scenario.as_ref().expect("s").scenario.clone();
        for change in add_army(&scenario(&doc)).1 {
            change.apply(&mut doc, true);
        }
        let ((_, changes), _) = add_unit(&scenario(&doc), 0, None).expect("a unit");
        for change in changes {
            change.apply(&mut doc, true);
        }
        let mut s = scenario(&doc);
        assert_eq!(s.armies[0].units[0].name, "Unit 1");
        let names = |s: &Scenario, changes: &[Change]| -> Vec<String> {
            changes
                .iter()
                .filter_map(|c| match c {
                    Change::Scenario(ScenarioChange::Item {
                        after: Some(Item::Unit(u)),
                        ..
                    }) => Some(u.name.to_string()),
                    _ => None,
                })
                .chain(std::iter::once(format!("{}", s.armies[0].units.len())))
                .collect()
        };
        let ((_, changes), _) = duplicate_unit(&s, 0, 0).expect("copied");
        assert_eq!(
            names(&s, &changes),
            ["Unit 2", "1"],
            "the original keeps its name"
        );
        let mut two = s.armies[0].units[0].clone();
        two.name = "Unit 2".into();
        two.id = Id::from("unit-2");
        s.armies[0].units.push(two);
        let ((_, changes), _) = duplicate_unit(&s, 0, 0).expect("copied");
        assert_eq!(names(&s, &changes), ["Unit 3", "2"]);
        // A battalion keeps the games' numbering.
        s.armies[0].units[0].name = "Navarre".into();
        let ((_, changes), _) = duplicate_unit(&s, 0, 0).expect("copied");
        assert_eq!(names(&s, &changes), ["Navarre 1/", "Navarre 2/", "2"]);
    }

    #[test]
    fn messages_name_what_has_a_name() {
        let names =
            std::collections::HashMap::from([("navarre-1".to_owned(), "Navarre 1/".to_owned())]);
        assert_eq!(
            with_names("unit `navarre-1` at 1518 is out of command: `x`", &names),
            "unit “Navarre 1/” at 1518 is out of command: `x`"
        );
        assert_eq!(with_names("odd ` tick", &names), "odd ` tick");
    }
}
