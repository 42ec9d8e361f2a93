//! [`diff`]: the variant that makes an edited scenario from its base.

use super::*;
use crate::common::Code;

/// The variant that makes `edited` from `base`, changing by id only what differs (what the
/// editor saves, and how a variant is made from an edited scenario). Units and leaders are
/// matched by id; a unit of `edited` the base lacks is added, one the base has and `edited`
/// lacks is removed.
pub fn diff(base: &Scenario, edited: &Scenario, name: &str, base_path: &str) -> Variant {
    let mut v = Variant {
        format_version: VARIANT_FORMAT_VERSION,
        name: name.to_owned(),
        base: base_path.to_owned(),
        ..Variant::default()
    };
    if edited.turns != base.turns {
        v.turns = Some(edited.turns);
    }
    let base_units: HashMap<&str, &Unit> = base
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .map(|u| (u.id.as_str(), u))
        .collect();
    let mut seen = HashSet::new();
    for army in &edited.armies {
        for unit in &army.units {
            seen.insert(unit.id.as_str());
            let Some(old) = base_units.get(unit.id.as_str()) else {
                v.add_units.push(AddedUnit {
                    army: army.id.clone(),
                    unit: unit.clone(),
                });
                continue;
            };
            let change = unit_change(old, unit);
            if change != UnitChange::default() {
                v.units.insert(unit.id.clone(), change);
            }
        }
    }
    for army in &base.armies {
        for unit in &army.units {
            if !seen.contains(unit.id.as_str()) {
                v.remove_units.push(unit.id.clone());
            }
        }
    }
    let base_index = counters(base);
    for (a, army) in edited.armies.iter().enumerate() {
        let _ = a;
        for commander in &army.commanders {
            if let Some(Counter::Commander(ba, bc)) = base_index.get(commander.id.as_str()) {
                let old = &base.armies[*ba].commanders[*bc];
                let mut change = LeaderChange::default();
                if old.name != commander.name {
                    change.name = Some(commander.name.clone());
                }
                (change.placement, change.turn, change.entry) =
                    placement_change(&old.placement, &commander.placement);
                if old.radius_hexes != commander.radius_hexes
                    && let Some(r) = commander.radius_hexes
                {
                    change.radius_hexes = Some(r);
                }
                change.allow = added_codes(&old.allow, &commander.allow);
                leader_ratings(base, edited, commander.id.as_str(), &mut change);
                if change != LeaderChange::default() {
                    v.leaders.insert(commander.id.clone(), change);
                }
            }
        }
        for corps in &army.corps {
            let Some(leader) = &corps.leader else {
                continue;
            };
            if let Some(Counter::LineLeader(ba, bc)) = base_index.get(leader.id.as_str())
                && let Some(old) = &base.armies[*ba].corps[*bc].leader
            {
                let mut change = LeaderChange::default();
                if old.name != leader.name {
                    change.name = Some(leader.name.clone());
                }
                (change.placement, change.turn, change.entry) =
                    placement_change(&old.placement, &leader.placement);
                if old.activation != leader.activation {
                    change.activation = Some(leader.activation);
                }
                if old.always_in_command != leader.always_in_command {
                    change.always_in_command = Some(leader.always_in_command);
                }
                if old.radius_hexes != leader.radius_hexes
                    && let Some(r) = leader.radius_hexes
                {
                    change.radius_hexes = Some(r);
                }
                change.allow = added_codes(&old.allow, &leader.allow);
                leader_ratings(base, edited, leader.id.as_str(), &mut change);
                if change != LeaderChange::default() {
                    v.leaders.insert(leader.id.clone(), change);
                }
            }
        }
    }
    for zone in &edited.zones {
        match base.zones.iter().find(|z| z.id == zone.id) {
            None => v.add_zones.push(zone.clone()),
            Some(old) => {
                let mut change = ZoneChange::default();
                if old.name != zone.name {
                    change.name = Some(zone.name.clone());
                }
                if old.owner != zone.owner {
                    change.owner = Some(zone.owner.clone());
                }
                let (mut a, mut b) = (old.hexes.clone(), zone.hexes.clone());
                a.sort();
                b.sort();
                if a != b {
                    change.hexes = Some(zone.hexes.clone());
                }
                if old.shared_with != zone.shared_with {
                    change.shared_with = Some(zone.shared_with.clone());
                }
                if change != ZoneChange::default() {
                    v.zones.insert(zone.id.clone(), change);
                }
            }
        }
    }
    victory_diff(base, edited, &mut v.victory);
    rules_diff(base, edited, &mut v.rules);
    v.canonicalize();
    v
}

/// How a placement changed: a reinforcement that stays one changes its `turn` or `entry`
/// alone; any other change is a whole `placement`.
fn placement_change(
    old: &Placement,
    new: &Placement,
) -> (Option<Placement>, Option<u32>, Option<Vec<HexName>>) {
    match (old, new) {
        _ if old == new => (None, None, None),
        (
            Placement::Reinforcement {
                turn: old_turn,
                entry: old_entry,
            },
            Placement::Reinforcement { turn, entry },
        ) => (
            None,
            (old_turn != turn).then_some(*turn),
            (old_entry != entry).then(|| entry.to_vec()),
        ),
        _ => (Some(new.clone()), None, None),
    }
}

/// The codes of `edited` that `base` lacks (a counter's `allow` added to).
fn added_codes(base: &[Code], edited: &[Code]) -> Vec<Code> {
    edited
        .iter()
        .filter(|c| !base.iter().any(|b| b.eq_ignore_ascii_case(c)))
        .cloned()
        .collect()
}

/// A leader's miniatures ratings that differ from the base's.
fn leader_ratings(base: &Scenario, edited: &Scenario, id: &str, change: &mut LeaderChange) {
    for used in &edited.miniatures {
        let Some(new) = used.leaders.get(id) else {
            continue;
        };
        let old = base
            .miniatures
            .iter()
            .find(|m| m.system == used.system)
            .and_then(|m| m.leaders.get(id));
        for (rating, value) in new {
            if old.and_then(|o| o.get(rating)) != Some(value) {
                change
                    .ratings
                    .entry(used.system.clone())
                    .or_default()
                    .insert(rating.clone(), value.clone());
            }
        }
    }
}

fn victory_diff(base: &Scenario, edited: &Scenario, v: &mut VictoryChange) {
    let (b, e) = (&base.victory, &edited.victory);
    for condition in &e.conditions {
        if !b.conditions.contains(condition) {
            v.conditions.push(condition.clone());
        }
    }
    for condition in &b.conditions {
        let key = ConditionKey::of(condition);
        if !e.conditions.iter().any(|c| ConditionKey::of(c) == key)
            && !v.remove_conditions.contains(&key)
        {
            v.remove_conditions.push(key);
        }
    }
    for objective in &e.objectives {
        if !b.objectives.contains(objective) {
            v.objectives.insert(
                objective.hex.clone(),
                ObjectiveChange {
                    name: objective.name.clone(),
                    points: objective.points,
                },
            );
        }
    }
    for objective in &b.objectives {
        if !e.objectives.iter().any(|o| o.hex == objective.hex) {
            v.remove_objectives.push(objective.hex.clone());
        }
    }
    if e.points_per_enemy_cp_eliminated != b.points_per_enemy_cp_eliminated {
        v.points_per_enemy_cp_eliminated = Some(e.points_per_enemy_cp_eliminated);
    }
    if e.points_per_enemy_unit_routed != b.points_per_enemy_unit_routed {
        v.points_per_enemy_unit_routed = Some(e.points_per_enemy_unit_routed);
    }
    if e.holds != b.holds {
        v.holds = Some(e.holds.clone());
    }
    if e.unit_objectives != b.unit_objectives {
        v.unit_objectives = Some(e.unit_objectives.clone());
    }
    if e.leader_losses != b.leader_losses {
        v.leader_losses = Some(e.leader_losses.clone());
    }
    if e.notes != b.notes
        && let Some(notes) = &e.notes
    {
        v.notes = Some(notes.clone());
    }
}

fn rules_diff(base: &Scenario, edited: &Scenario, r: &mut RuleChanges) {
    let (b, e) = (&base.rules.command, &edited.rules.command);
    if e.commander_radius_hexes != b.commander_radius_hexes {
        r.command.commander_radius_hexes = Some(e.commander_radius_hexes);
    }
    if e.leader_radius_hexes != b.leader_radius_hexes {
        r.command.leader_radius_hexes = Some(e.leader_radius_hexes);
    }
    if e.blocked_by_enemy_front_and_flank != b.blocked_by_enemy_front_and_flank {
        r.command.blocked_by_enemy_front_and_flank = Some(e.blocked_by_enemy_front_and_flank);
    }
    if e.lines_of_battle != b.lines_of_battle {
        r.command.lines_of_battle = Some(e.lines_of_battle);
    }
    if edited.rules.stacking.reinforcements != base.rules.stacking.reinforcements {
        r.reinforcements = Some(edited.rules.stacking.reinforcements);
    }
}

/// The variant `original` saved again after its resolved scenario was edited into `edited`:
/// its own words (name, notes, sources, base) kept, its changes those that make `edited` from
/// `base` (what the editor writes: only the changes).
///
/// A variant's title is its base's, then its name ([`Variant::title_over`]): an edited title
/// gives the name (what follows the base's title and ` — `, or the whole title typed).
pub fn rediff(base: &Scenario, edited: &Scenario, original: &Variant) -> Variant {
    let name = name_from_title(&base.title, &edited.title).unwrap_or(&original.name);
    let mut v = diff(base, edited, name, &original.base);
    v.format_version = original.format_version;
    v.notes = original.notes.clone();
    v.sources = original.sources.clone();
    v
}

fn unit_change(old: &Unit, new: &Unit) -> UnitChange {
    let mut c = UnitChange::default();
    (c.placement, c.turn, c.entry) = placement_change(&old.placement, &new.placement);
    if old.facing != new.facing
        && let Some(f) = new.facing
    {
        c.facing = Some(f);
    }
    if old.corps != new.corps
        && let Some(corps) = &new.corps
    {
        c.corps = Some(corps.clone());
    }
    if old.cp != new.cp {
        c.cp = new.cp;
    }
    if old.mp != new.mp {
        c.mp = new.mp;
    }
    if old.morale != new.morale {
        c.morale = new.morale;
    }
    if old.fire_modifier != new.fire_modifier {
        c.fire_modifier = new.fire_modifier;
    }
    if old.always_in_command != new.always_in_command {
        c.always_in_command = Some(new.always_in_command);
    }
    c.allow = added_codes(&old.allow, &new.allow);
    for (system, values) in &new.ratings {
        for (name, value) in values {
            if old.ratings.get(system).and_then(|r| r.get(name)) != Some(value) {
                c.ratings
                    .entry(system.clone())
                    .or_default()
                    .insert(name.clone(), value.clone());
            }
        }
    }
    c
}

/// The variant's name an edited title gives: what follows the base's title and ` — `, or the
/// whole title when it does not start with the base's; `None` when nothing is left.
pub fn name_from_title<'t>(base_title: &str, title: &'t str) -> Option<&'t str> {
    let name = match title.strip_prefix(base_title) {
        // The base's title alone names nothing.
        Some(rest) if rest.trim().is_empty() => return None,
        Some(rest) => rest.trim_start().strip_prefix('—').unwrap_or(title),
        None => title,
    }
    .trim();
    (!name.is_empty()).then_some(name)
}

/// What of `edited` the variant `written` does not carry: the parts of the scenario that differ
/// once the variant is applied to `base` again (a variant changes units, leaders, zones, the
/// victory conditions, the turns and the rule switches by id; the date, the scenario's notes,
/// the armies' names and colours, the corps stay the base's). Named for a person
/// (`"the date"`); empty when the variant gives `edited` back whole. The title counts only by
/// the name it gives, and the map reference not at all (it is the base's).
pub fn unwritten(base: &Scenario, edited: &Scenario, written: &Variant) -> Vec<&'static str> {
    let resolved = resolve(base, written).scenario;
    let mut out = Vec::new();
    if name_from_title(&base.title, &edited.title).unwrap_or(&written.name) != written.name {
        out.push("the title");
    }
    let sort_units = |s: &Scenario| {
        let mut armies = s.armies.clone();
        for army in &mut armies {
            army.units.sort_by(|a, b| a.id.cmp(&b.id));
        }
        armies
    };
    let parts: [(&'static str, bool); 14] = [
        ("the date", resolved.date == edited.date),
        ("the number of turns", resolved.turns == edited.turns),
        (
            "the turn length",
            resolved.turn_minutes == edited.turn_minutes,
        ),
        ("the start time", resolved.start_time == edited.start_time),
        ("the language", resolved.language == edited.language),
        ("the scenario's notes", resolved.notes == edited.notes),
        ("the codes allowed", resolved.allow == edited.allow),
        ("the rules", resolved.rules == edited.rules),
        (
            "the armies (names, colours, corps, commanders, units)",
            sort_units(&resolved) == sort_units(edited),
        ),
        ("the sides", resolved.sides == edited.sides),
        ("the deployment zones", resolved.zones == edited.zones),
        ("the victory conditions", resolved.victory == edited.victory),
        (
            "the miniatures rules",
            resolved.miniatures == edited.miniatures,
        ),
        (
            "the file format",
            resolved.format_version == edited.format_version,
        ),
    ];
    out.extend(
        parts
            .iter()
            .filter(|(_, same)| !same)
            .map(|(what, _)| *what),
    );
    out
}
