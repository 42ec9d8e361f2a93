//! [`diff`]: the variant that makes an edited scenario from its base.

use super::*;

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
                if old.placement != commander.placement {
                    change.placement = Some(commander.placement.clone());
                }
                if old.radius_hexes != commander.radius_hexes
                    && let Some(r) = commander.radius_hexes
                {
                    change.radius_hexes = Some(r);
                }
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
                if old.placement != leader.placement {
                    change.placement = Some(leader.placement.clone());
                }
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
    v
}

fn unit_change(old: &Unit, new: &Unit) -> UnitChange {
    let mut c = UnitChange::default();
    if old.placement != new.placement {
        c.placement = Some(new.placement.clone());
    }
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
