//! [`resolve`]: a variant applied to its base, by id, with the problems of its changes and the
//! trace from the resolved scenario back to the changes and the base.

use super::changes::{allow, ratings, reinforcement, rules, victory};
use super::*;

/// Applies a variant to its base scenario. Never panics: every change that cannot be applied
/// is a [`Problem`], and the rest are applied.
pub fn resolve(base: &Scenario, variant: &Variant) -> Resolution {
    let mut s = base.clone();
    let mut r = Resolver {
        problems: Vec::new(),
        variant,
    };
    let mut trace = Trace::default();
    let index = counters(base);
    s.title = variant.title_over(&base.title);
    trace.place("/title".into(), Some("/name".into()), Some("/title".into()));

    // Removals first checked, applied at the end (changes to removed units contradict them).
    let mut removed: HashMap<&str, usize> = HashMap::new();
    for (i, id) in variant.remove_units.iter().enumerate() {
        let at = format!("/remove_units/{i}");
        match index.get(id.as_str()) {
            Some(Counter::Unit(..)) => {
                if let Some(first) = removed.get(id.as_str()) {
                    let p = r.problem(
                        ProblemKind::NoChange,
                        at,
                        format!("unit `{id}` is already removed above: this changes nothing"),
                    );
                    p.other = Some(format!("/remove_units/{first}"));
                    p.subject = Some(id.to_string());
                } else {
                    removed.insert(id.as_str(), i);
                    trace.ids.insert(id.to_string(), at);
                }
            }
            Some(_) => {
                let p = r.problem(
                    ProblemKind::DoesNotFit,
                    at,
                    format!(
                        "`{id}` is a leader, not a unit: a variant removes units only (change the leader's placement instead)"
                    ),
                );
                p.subject = Some(id.to_string());
            }
            None => {
                let p = r.problem(
                    ProblemKind::UnknownId,
                    at,
                    format!("the base has no unit `{id}` to remove"),
                );
                p.subject = Some(id.to_string());
            }
        }
    }

    for (id, change) in &variant.units {
        let at = push_pointer("/units", id.as_str());
        let Some(&Counter::Unit(a, u)) = index.get(id.as_str()) else {
            let message = match index.get(id.as_str()) {
                Some(_) => format!("`{id}` is a leader, not a unit: change it under `leaders`"),
                None => format!("the base has no unit `{id}`"),
            };
            let kind = if index.contains_key(id.as_str()) {
                ProblemKind::DoesNotFit
            } else {
                ProblemKind::UnknownId
            };
            r.problem(kind, at, message).subject = Some(id.to_string());
            continue;
        };
        if let Some(i) = removed.get(id.as_str()) {
            let p = r.problem(
                ProblemKind::Contradiction,
                at,
                format!("unit `{id}` is changed here and removed by `remove_units`"),
            );
            p.other = Some(format!("/remove_units/{i}"));
            p.subject = Some(id.to_string());
            continue;
        }
        trace.ids.insert(id.to_string(), at.clone());
        trace.place(
            format!("/armies/{a}/units/{u}"),
            Some(at.clone()),
            Some(format!("/armies/{a}/units/{u}")),
        );
        if *change == UnitChange::default() {
            r.unchanged(at.clone(), &format!("an empty change of `{id}`"));
        }
        let unit = &mut s.armies[a].units[u];
        let who = id.as_str();
        if let Some(placement) = &change.placement {
            r.set(
                &mut unit.placement,
                placement.clone(),
                push_pointer(&at, "placement"),
                &format!("`{who}`'s placement"),
            );
        }
        reinforcement(
            &mut r,
            &mut unit.placement,
            change.placement.is_some(),
            change.turn,
            change.entry.as_ref(),
            &at,
            who,
        );
        if let Some(v) = change.facing {
            r.set(
                &mut unit.facing,
                Some(v),
                push_pointer(&at, "facing"),
                &format!("`{who}`'s facing"),
            );
        }
        if let Some(v) = &change.corps {
            r.set(
                &mut unit.corps,
                Some(v.clone()),
                push_pointer(&at, "corps"),
                &format!("`{who}`'s corps"),
            );
        }
        if let Some(v) = change.cp {
            r.set(
                &mut unit.cp,
                Some(v),
                push_pointer(&at, "cp"),
                &format!("`{who}`'s CP"),
            );
        }
        if let Some(v) = change.mp {
            r.set(
                &mut unit.mp,
                Some(v),
                push_pointer(&at, "mp"),
                &format!("`{who}`'s MP"),
            );
        }
        if let Some(v) = change.morale {
            r.set(
                &mut unit.morale,
                Some(v),
                push_pointer(&at, "morale"),
                &format!("`{who}`'s morale"),
            );
        }
        if let Some(v) = change.fire_modifier {
            r.set(
                &mut unit.fire_modifier,
                Some(v),
                push_pointer(&at, "fire_modifier"),
                &format!("`{who}`'s fire modifier"),
            );
        }
        if let Some(v) = change.always_in_command {
            r.set(
                &mut unit.always_in_command,
                v,
                push_pointer(&at, "always_in_command"),
                &format!("`{who}` always in command"),
            );
        }
        ratings(&mut r, &mut unit.ratings, &change.ratings, &at, who);
        allow(&mut r, &mut unit.allow, &change.allow, &at, who);
    }

    for (id, change) in &variant.leaders {
        let at = push_pointer("/leaders", id.as_str());
        let who = id.as_str();
        let counter = match index.get(who) {
            Some(&Counter::Unit(..)) => {
                r.problem(
                    ProblemKind::DoesNotFit,
                    at,
                    format!("`{id}` is a unit, not a leader: change it under `units`"),
                )
                .subject = Some(id.to_string());
                continue;
            }
            None => {
                r.problem(
                    ProblemKind::UnknownId,
                    at,
                    format!("the base has no leader `{id}`"),
                )
                .subject = Some(id.to_string());
                continue;
            }
            Some(&counter) => counter,
        };
        trace.ids.insert(id.to_string(), at.clone());
        if *change == LeaderChange::default() {
            r.unchanged(at.clone(), &format!("an empty change of `{id}`"));
        }
        let (name, placement, radius, allowed, resolved_at) = match counter {
            Counter::Commander(a, c) => {
                let commander = &mut s.armies[a].commanders[c];
                for (field, given) in [
                    ("activation", change.activation.is_some()),
                    ("always_in_command", change.always_in_command.is_some()),
                ] {
                    if given {
                        r.problem(
                            ProblemKind::DoesNotFit,
                            push_pointer(&at, field),
                            format!(
                                "`{id}` is a commander in chief: `{field}` is a line leader's (8.3)"
                            ),
                        )
                        .subject = Some(id.to_string());
                    }
                }
                (
                    &mut commander.name,
                    &mut commander.placement,
                    &mut commander.radius_hexes,
                    &mut commander.allow,
                    format!("/armies/{a}/commanders/{c}"),
                )
            }
            Counter::LineLeader(a, c) => {
                let Some(leader) = s.armies[a].corps[c].leader.as_mut() else {
                    continue;
                };
                if let Some(v) = change.activation {
                    r.set(
                        &mut leader.activation,
                        v,
                        push_pointer(&at, "activation"),
                        &format!("`{who}`'s activation"),
                    );
                }
                if let Some(v) = change.always_in_command {
                    r.set(
                        &mut leader.always_in_command,
                        v,
                        push_pointer(&at, "always_in_command"),
                        &format!("`{who}` always in command"),
                    );
                }
                (
                    &mut leader.name,
                    &mut leader.placement,
                    &mut leader.radius_hexes,
                    &mut leader.allow,
                    format!("/armies/{a}/corps/{c}/leader"),
                )
            }
            Counter::Unit(..) => continue,
        };
        trace.place(resolved_at.clone(), Some(at.clone()), Some(resolved_at));
        if let Some(v) = &change.name {
            r.set(
                name,
                v.clone(),
                push_pointer(&at, "name"),
                &format!("`{who}`'s name"),
            );
        }
        if let Some(v) = &change.placement {
            r.set(
                placement,
                v.clone(),
                push_pointer(&at, "placement"),
                &format!("`{who}`'s placement"),
            );
        }
        allow(&mut r, allowed, &change.allow, &at, who);
        reinforcement(
            &mut r,
            placement,
            change.placement.is_some(),
            change.turn,
            change.entry.as_ref(),
            &at,
            who,
        );
        if let Some(v) = change.radius_hexes {
            r.set(
                radius,
                Some(v),
                push_pointer(&at, "radius_hexes"),
                &format!("`{who}`'s command radius"),
            );
        }
        for (system, values) in &change.ratings {
            let at_system = push_pointer(&push_pointer(&at, "ratings"), system.as_str());
            let Some((m, used)) = s
                .miniatures
                .iter_mut()
                .enumerate()
                .find(|(_, m)| m.system == *system)
            else {
                r.problem(
                    ProblemKind::UnknownId,
                    at_system,
                    format!("the base supports no miniatures system `{system}`"),
                )
                .subject = Some(id.to_string());
                continue;
            };
            trace.place(
                format!("/miniatures/{m}/leaders/{}", id.as_str()),
                Some(at_system.clone()),
                Some(format!("/miniatures/{m}/leaders/{}", id.as_str())),
            );
            let current = used.leaders.entry(id.clone()).or_default();
            for (rating, value) in values {
                let pointer = push_pointer(&at_system, rating.as_str());
                if current.get(rating) == Some(value) {
                    r.unchanged(pointer, &format!("`{who}`'s {system} rating `{rating}`"));
                } else {
                    current.insert(rating.clone(), value.clone());
                }
            }
        }
    }

    // Units added, each at the end of its army.
    let mut added: HashMap<&str, usize> = HashMap::new();
    for (i, add) in variant.add_units.iter().enumerate() {
        let at = format!("/add_units/{i}");
        let id = add.unit.id.as_str();
        let Some(a) = s.armies.iter().position(|army| army.id == add.army) else {
            r.problem(
                ProblemKind::UnknownId,
                format!("{at}/army"),
                format!("the base has no army `{}`", add.army),
            )
            .subject = Some(id.to_owned());
            continue;
        };
        if let Some(first) = added.get(id) {
            let p = r.problem(
                ProblemKind::Contradiction,
                format!("{at}/unit/id"),
                format!("unit `{id}` is added twice"),
            );
            p.other = Some(format!("/add_units/{first}/unit/id"));
            p.subject = Some(id.to_owned());
            continue;
        }
        if index.contains_key(id) {
            let other = if let Some(i) = removed.get(id) {
                Some(format!("/remove_units/{i}"))
            } else {
                variant
                    .units
                    .contains_key(id)
                    .then(|| push_pointer("/units", id))
            };
            let p = r.problem(
                if other.is_some() {
                    ProblemKind::Contradiction
                } else {
                    ProblemKind::DoesNotFit
                },
                format!("{at}/unit/id"),
                format!(
                    "the base already has `{id}`: change it under `units` rather than add it again"
                ),
            );
            p.other = other;
            p.subject = Some(id.to_owned());
            continue;
        }
        added.insert(id, i);
        let u = s.armies[a].units.len();
        s.armies[a].units.push(add.unit.clone());
        trace.ids.insert(id.to_owned(), format!("{at}/unit"));
        trace.place(
            format!("/armies/{a}/units/{u}"),
            Some(format!("{at}/unit")),
            None,
        );
    }

    // Zones replaced, then added.
    for (id, change) in &variant.zones {
        let at = push_pointer("/zones", id.as_str());
        let Some(z) = base.zones.iter().position(|zone| zone.id == *id) else {
            r.problem(
                ProblemKind::UnknownId,
                at,
                format!("the base has no deployment zone `{id}` (add one under `add_zones`)"),
            )
            .subject = Some(id.to_string());
            continue;
        };
        trace.ids.insert(id.to_string(), at.clone());
        trace.place(
            format!("/zones/{z}"),
            Some(at.clone()),
            Some(format!("/zones/{z}")),
        );
        if *change == ZoneChange::default() {
            r.unchanged(at.clone(), &format!("an empty change of zone `{id}`"));
        }
        let zone = &mut s.zones[z];
        if let Some(v) = &change.name {
            r.set(
                &mut zone.name,
                v.clone(),
                push_pointer(&at, "name"),
                &format!("zone `{id}`'s name"),
            );
        }
        if let Some(v) = &change.owner {
            r.set(
                &mut zone.owner,
                v.clone(),
                push_pointer(&at, "owner"),
                &format!("zone `{id}`'s owner"),
            );
        }
        if let Some(v) = &change.hexes {
            let mut old = zone.hexes.clone();
            old.sort();
            old.dedup();
            let mut new = v.clone();
            new.sort();
            new.dedup();
            if old == new {
                r.unchanged(push_pointer(&at, "hexes"), &format!("zone `{id}`'s hexes"));
            }
            zone.hexes = v.clone();
        }
        if let Some(v) = &change.shared_with {
            r.set(
                &mut zone.shared_with,
                v.clone(),
                push_pointer(&at, "shared_with"),
                &format!("zone `{id}`'s sharing"),
            );
        }
    }
    for (i, zone) in variant.add_zones.iter().enumerate() {
        let at = format!("/add_zones/{i}");
        if variant.zones.contains_key(zone.id.as_str()) {
            let p = r.problem(
                ProblemKind::Contradiction,
                format!("{at}/id"),
                format!("zone `{}` is both replaced and added", zone.id),
            );
            p.other = Some(push_pointer("/zones", zone.id.as_str()));
            p.subject = Some(zone.id.to_string());
            continue;
        }
        let z = s.zones.len();
        s.zones.push(zone.clone());
        trace.ids.entry(zone.id.to_string()).or_insert(at.clone());
        trace.place(format!("/zones/{z}"), Some(at), None);
    }

    if let Some(turns) = variant.turns {
        r.set(
            &mut s.turns,
            turns,
            "/turns".into(),
            &format!("{turns} turns"),
        );
        trace.place(
            "/turns".into(),
            Some("/turns".into()),
            Some("/turns".into()),
        );
    }

    victory(&mut r, &mut s, base, &mut trace);
    rules(&mut r, &mut s, &mut trace);

    // Removals applied last; the units after a removed one move up in the resolved scenario.
    if !removed.is_empty() {
        for (a, army) in s.armies.iter_mut().enumerate() {
            let before = army.units.len();
            let mut old_places: Vec<(usize, Origin)> = Vec::new();
            for u in 0..before {
                let key = format!("/armies/{a}/units/{u}");
                let origin = trace.places.remove(&key).unwrap_or(Origin {
                    variant: None,
                    base: Some(key.clone()),
                });
                old_places.push((u, origin));
            }
            let mut kept = 0;
            let mut units = std::mem::take(&mut army.units);
            let mut keep = Vec::with_capacity(units.len());
            for (unit, (_, origin)) in units.drain(..).zip(old_places) {
                if removed.contains_key(unit.id.as_str()) {
                    continue;
                }
                let key = format!("/armies/{a}/units/{kept}");
                if origin.variant.is_some() || origin.base.as_deref() != Some(key.as_str()) {
                    trace.places.insert(key, origin);
                }
                keep.push(unit);
                kept += 1;
            }
            army.units = keep;
        }
    }
    let Resolver { problems, .. } = r;
    Resolution {
        scenario: s,
        problems,
        trace,
    }
}
