//! The changes a variant makes that are not one counter's: a reinforcement's turn and entry,
//! ratings and `allow` lists (shared by units and leaders), the victory conditions and the
//! rule switches.

use super::*;

/// Applies the turn and entry of a change to a placement (after its own `placement`, if any).
pub(super) fn reinforcement(
    r: &mut Resolver<'_>,
    placement: &mut Placement,
    new_placement: bool,
    turn: Option<u32>,
    entry: Option<&Vec<HexName>>,
    at: &str,
    who: &str,
) {
    if turn.is_none() && entry.is_none() {
        return;
    }
    let field = if turn.is_some() { "turn" } else { "entry" };
    if new_placement {
        let p = r.problem(
            ProblemKind::Contradiction,
            push_pointer(at, field),
            format!(
                "`{who}`: `{field}` and `placement` both say when or where it starts; give one"
            ),
        );
        p.other = Some(push_pointer(at, "placement"));
        p.subject = Some(who.to_owned());
        return;
    }
    match placement {
        Placement::Reinforcement {
            turn: old_turn,
            entry: old_entry,
        } => {
            if let Some(turn) = turn {
                if *old_turn == turn {
                    r.unchanged(
                        push_pointer(at, "turn"),
                        &format!("{who} arriving on turn {turn}"),
                    );
                }
                *old_turn = turn;
            }
            if let Some(entry) = entry {
                if old_entry == entry {
                    r.unchanged(push_pointer(at, "entry"), &format!("{who}'s entry hexes"));
                }
                *old_entry = entry.clone().into();
            }
        }
        _ => {
            let p = r.problem(
                ProblemKind::DoesNotFit,
                push_pointer(at, field),
                format!(
                    "`{who}` is not a reinforcement in the base, so it has no {}",
                    if field == "turn" {
                        "turn of arrival"
                    } else {
                        "entry hexes"
                    }
                ),
            );
            p.subject = Some(who.to_owned());
        }
    }
}

pub(super) fn ratings(
    r: &mut Resolver<'_>,
    slot: &mut BTreeMap<Id, BTreeMap<Id, Rating>>,
    change: &BTreeMap<Id, BTreeMap<Id, Rating>>,
    at: &str,
    who: &str,
) {
    for (system, values) in change {
        let at_system = push_pointer(&push_pointer(at, "ratings"), system.as_str());
        let current = slot.entry(system.clone()).or_default();
        for (name, value) in values {
            let pointer = push_pointer(&at_system, name.as_str());
            if current.get(name) == Some(value) {
                r.unchanged(pointer, &format!("{who}'s {system} rating `{name}`"));
            } else {
                current.insert(name.clone(), value.clone());
            }
        }
    }
}

/// Adds codes to a counter's `allow` list.
pub(super) fn allow(
    r: &mut Resolver<'_>,
    slot: &mut Vec<crate::common::Code>,
    codes: &[crate::common::Code],
    at: &str,
    who: &str,
) {
    for (i, code) in codes.iter().enumerate() {
        if slot.iter().any(|c| c.eq_ignore_ascii_case(code)) {
            r.unchanged(
                format!("{}/{i}", push_pointer(at, "allow")),
                &format!("`{code}` allowed for `{who}`"),
            );
        } else {
            slot.push(code.clone());
        }
    }
}

pub(super) fn victory(r: &mut Resolver<'_>, s: &mut Scenario, base: &Scenario, trace: &mut Trace) {
    let change = &r.variant.victory;
    let mut given: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, condition) in change.conditions.iter().enumerate() {
        let at = format!("/victory/conditions/{i}");
        let key = (
            ConditionKind::of(condition).as_str(),
            condition.side().as_str(),
        );
        if let Some(first) = given.get(&key) {
            let p = r.problem(
                ProblemKind::Contradiction,
                at,
                format!(
                    "two `{}` conditions for `{}`: a variant gives one per kind and side",
                    key.0, key.1
                ),
            );
            p.other = Some(format!("/victory/conditions/{first}"));
            continue;
        }
        given.insert(key, i);
        let same: Vec<usize> = base
            .victory
            .conditions
            .iter()
            .enumerate()
            .filter(|(_, c)| ConditionKind::of(c).as_str() == key.0 && c.side().as_str() == key.1)
            .map(|(n, _)| n)
            .collect();
        match same.as_slice() {
            [] => {
                let n = s.victory.conditions.len();
                s.victory.conditions.push(condition.clone());
                trace.place(format!("/victory/conditions/{n}"), Some(at), None);
            }
            [n] => {
                if s.victory.conditions[*n] == *condition {
                    r.unchanged(
                        at.clone(),
                        &format!("the `{}` condition for `{}`", key.0, key.1),
                    );
                }
                s.victory.conditions[*n] = condition.clone();
                trace.place(
                    format!("/victory/conditions/{n}"),
                    Some(at),
                    Some(format!("/victory/conditions/{n}")),
                );
            }
            _ => {
                r.problem(
                    ProblemKind::DoesNotFit,
                    at,
                    format!(
                        "the base has {} `{}` conditions for `{}`: which one this replaces cannot be told",
                        same.len(),
                        key.0,
                        key.1
                    ),
                );
            }
        }
    }
    remove_conditions(r, s, base, trace, &given);
    let removed: HashSet<&HexName> = change.remove_objectives.iter().collect();
    for (i, hex) in change.remove_objectives.iter().enumerate() {
        let at = format!("/victory/remove_objectives/{i}");
        if !base.victory.objectives.iter().any(|o| o.hex == *hex) {
            r.problem(
                ProblemKind::UnknownId,
                at,
                format!("the base has no victory hex {hex} to remove"),
            );
        } else if change.objectives.contains_key(hex.as_str()) {
            r.problem(
                ProblemKind::Contradiction,
                at,
                format!("victory hex {hex} is both changed and removed"),
            )
            .other = Some(push_pointer("/victory/objectives", hex.as_str()));
        }
    }
    for (hex, objective) in &change.objectives {
        let at = push_pointer("/victory/objectives", hex.as_str());
        let new = Objective {
            hex: hex.clone(),
            name: objective.name.clone(),
            points: objective.points,
        };
        match s.victory.objectives.iter().position(|o| o.hex == *hex) {
            Some(n) => {
                if s.victory.objectives[n] == new {
                    r.unchanged(at.clone(), &format!("victory hex {hex}"));
                }
                s.victory.objectives[n] = new;
                trace.place(
                    format!("/victory/objectives/{n}"),
                    Some(at),
                    Some(format!("/victory/objectives/{n}")),
                );
            }
            None => {
                let n = s.victory.objectives.len();
                s.victory.objectives.push(new);
                trace.place(format!("/victory/objectives/{n}"), Some(at), None);
            }
        }
    }
    if !removed.is_empty() {
        // Objectives after a removed one move up.
        let before = std::mem::take(&mut s.victory.objectives);
        let mut kept = Vec::new();
        for (n, o) in before.into_iter().enumerate() {
            if removed.contains(&o.hex) && !change.objectives.contains_key(o.hex.as_str()) {
                continue;
            }
            let old = format!("/victory/objectives/{n}");
            let origin = trace.places.remove(&old).unwrap_or(Origin {
                variant: None,
                base: Some(old),
            });
            trace
                .places
                .insert(format!("/victory/objectives/{}", kept.len()), origin);
            kept.push(o);
        }
        s.victory.objectives = kept;
    }
    if let Some(v) = change.points_per_enemy_cp_eliminated {
        let at = "/victory/points_per_enemy_cp_eliminated".to_owned();
        r.set(
            &mut s.victory.points_per_enemy_cp_eliminated,
            v,
            at.clone(),
            "the points per enemy CP eliminated",
        );
        trace.place(at.clone(), Some(at.clone()), Some(at));
    }
    if let Some(v) = change.points_per_enemy_unit_routed {
        let at = "/victory/points_per_enemy_unit_routed".to_owned();
        r.set(
            &mut s.victory.points_per_enemy_unit_routed,
            v,
            at.clone(),
            "the points per enemy unit routed",
        );
        trace.place(at.clone(), Some(at.clone()), Some(at));
    }
    if let Some(v) = &change.holds {
        let at = "/victory/holds".to_owned();
        r.set(
            &mut s.victory.holds,
            v.clone(),
            at.clone(),
            "the hold conditions",
        );
        trace.place(at.clone(), Some(at), None);
    }
    if let Some(v) = &change.unit_objectives {
        let at = "/victory/unit_objectives".to_owned();
        r.set(
            &mut s.victory.unit_objectives,
            v.clone(),
            at.clone(),
            "the units worth victory points",
        );
        trace.place(at.clone(), Some(at), None);
    }
    if let Some(v) = &change.leader_losses {
        let at = "/victory/leader_losses".to_owned();
        r.set(
            &mut s.victory.leader_losses,
            v.clone(),
            at.clone(),
            "the leaders whose loss decides the game",
        );
        trace.place(at.clone(), Some(at), None);
    }
    if let Some(v) = &change.notes {
        let at = "/victory/notes".to_owned();
        r.set(
            &mut s.victory.notes,
            Some(v.clone()),
            at.clone(),
            "the victory notes",
        );
        trace.place(at.clone(), Some(at.clone()), Some(at));
    }
}

/// The base's conditions a variant leaves out, by kind and side; the conditions after a removed
/// one move up in the resolved scenario.
fn remove_conditions(
    r: &mut Resolver<'_>,
    s: &mut Scenario,
    base: &Scenario,
    trace: &mut Trace,
    given: &HashMap<(&str, &str), usize>,
) {
    let keys = &r.variant.victory.remove_conditions;
    let mut removed: HashMap<&ConditionKey, usize> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        let at = format!("/victory/remove_conditions/{i}");
        let what = format!("`{}` condition for `{}`", key.kind.as_str(), key.side);
        if let Some(first) = removed.get(key) {
            r.problem(
                ProblemKind::NoChange,
                at,
                format!("the {what} is already removed above: this changes nothing"),
            )
            .other = Some(format!("/victory/remove_conditions/{first}"));
        } else if let Some(other) = given.get(&(key.kind.as_str(), key.side.as_str())) {
            r.problem(
                ProblemKind::Contradiction,
                at,
                format!("the {what} is both given and removed"),
            )
            .other = Some(format!("/victory/conditions/{other}"));
        } else if !base
            .victory
            .conditions
            .iter()
            .any(|c| ConditionKey::of(c) == *key)
        {
            r.problem(
                ProblemKind::UnknownId,
                at,
                format!("the base has no {what} to remove"),
            );
        } else {
            removed.insert(key, i);
        }
    }
    if removed.is_empty() {
        return;
    }
    let before = std::mem::take(&mut s.victory.conditions);
    let mut kept = Vec::new();
    for (n, c) in before.into_iter().enumerate() {
        let old = format!("/victory/conditions/{n}");
        let origin = trace.places.remove(&old).unwrap_or(Origin {
            variant: None,
            base: Some(old),
        });
        if removed.contains_key(&ConditionKey::of(&c)) {
            continue;
        }
        trace
            .places
            .insert(format!("/victory/conditions/{}", kept.len()), origin);
        kept.push(c);
    }
    s.victory.conditions = kept;
}

pub(super) fn rules(r: &mut Resolver<'_>, s: &mut Scenario, trace: &mut Trace) {
    let change = &r.variant.rules;
    let command = &mut s.rules.command;
    let fields: [(&str, Option<u32>, &mut u32); 2] = [
        (
            "commander_radius_hexes",
            change.command.commander_radius_hexes,
            &mut command.commander_radius_hexes,
        ),
        (
            "leader_radius_hexes",
            change.command.leader_radius_hexes,
            &mut command.leader_radius_hexes,
        ),
    ];
    let mut touched = Vec::new();
    for (field, value, slot) in fields {
        if let Some(v) = value {
            touched.push(field);
            if *slot == v {
                r.problems.push(Problem {
                    kind: ProblemKind::NoChange,
                    pointer: format!("/rules/command/{field}"),
                    message: format!(
                        "`{field}` {v} is already so in the base: this changes nothing"
                    ),
                    other: None,
                    subject: None,
                });
            }
            *slot = v;
        }
    }
    let switches: [(&str, Option<bool>, &mut bool); 2] = [
        (
            "blocked_by_enemy_front_and_flank",
            change.command.blocked_by_enemy_front_and_flank,
            &mut command.blocked_by_enemy_front_and_flank,
        ),
        (
            "lines_of_battle",
            change.command.lines_of_battle,
            &mut command.lines_of_battle,
        ),
    ];
    for (field, value, slot) in switches {
        if let Some(v) = value {
            touched.push(field);
            if *slot == v {
                r.problems.push(Problem {
                    kind: ProblemKind::NoChange,
                    pointer: format!("/rules/command/{field}"),
                    message: format!(
                        "`{field}: {v}` is already so in the base: this changes nothing"
                    ),
                    other: None,
                    subject: None,
                });
            }
            *slot = v;
        }
    }
    for field in touched {
        let at = format!("/rules/command/{field}");
        trace.place(at.clone(), Some(at.clone()), Some(at));
    }
    if let Some(v) = change.reinforcements {
        r.set(
            &mut s.rules.stacking.reinforcements,
            v,
            "/rules/reinforcements".into(),
            "the way reinforcements enter",
        );
        trace.place(
            "/rules/stacking/reinforcements".into(),
            Some("/rules/reinforcements".into()),
            Some("/rules/stacking/reinforcements".into()),
        );
    }
}
