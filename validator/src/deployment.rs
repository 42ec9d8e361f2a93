//! Deployment (Fontenoy 0.2, Denain 13.1, 13.2): counters on the map and on terrain they can
//! enter, free placements inside their zone, zones on the map and not shared with the enemy,
//! reinforcements entering on the map within the game's turns, victory hexes on the map.

use std::collections::{HashMap, HashSet};

use bataille_schema::map::MoveCost;
use bataille_schema::scenario::{Owner, Placement};
use bataille_schema::{HexIndex, HexName};

use crate::codes::Code;
use crate::context::{CounterRole, Ctx, SCENARIO, describe_hexes};
use crate::diagnostic::{Diagnostic, Related};

/// The army a zone belongs to (through its corps for a corps zone).
fn zone_army(ctx: &Ctx<'_>, owner: &Owner) -> Option<usize> {
    match owner {
        Owner::Army(id) => ctx.armies.get(id.as_str()).copied(),
        Owner::Corps(id) => ctx.army_of_corps(id.as_str()),
    }
}

fn off_map_text(ctx: &Ctx<'_>, hex: &HexName) -> Option<String> {
    let view = ctx.map.as_ref()?;
    match view.grid.parse(hex.as_str()) {
        Ok(_) => None,
        Err(error) => Some(error.to_string()),
    }
}

pub(crate) fn deployment(ctx: &mut Ctx<'_>) {
    placements(ctx);
    zones(ctx);
    victory_hexes(ctx);
}

fn placements(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let mut found = Vec::new();
    // Each zone's map hexes, looked up once.
    let zone_hexes: Vec<HashSet<HexIndex>> = s
        .zones
        .iter()
        .map(|zone| zone.hexes.iter().filter_map(|h| ctx.lookup(h)).collect())
        .collect();
    for counter in &ctx.counters {
        let noun = counter.role.noun();
        let id = counter.id.as_str();
        if let Some(hex) = counter.placement.hex() {
            if let Some(why) = off_map_text(ctx, hex) {
                found.push(
                    Diagnostic::new(
                        Code::E0503,
                        SCENARIO,
                        counter.hex_pointer(),
                        format!("{noun} `{id}` is placed at {hex}: {why}"),
                    )
                    .help("place it on a hex of the map")
                    .hex(hex.as_str())
                    .subject(id),
                );
                continue;
            }
            // Terrain its kind cannot enter (Terrain Table; Denain 7).
            if let (Some(unit), Some(view), Some(index)) =
                (counter.unit, ctx.map.as_ref(), ctx.lookup(hex))
                && ctx.kind(unit.kind.as_str()).is_some()
            {
                let class = ctx.movement_class(&unit.kind);
                if let Some((MoveCost::Impassable, what)) = view.entry_cost(index, class) {
                    found.push(
                        Diagnostic::new(
                            Code::E0504,
                            SCENARIO,
                            counter.hex_pointer(),
                            format!(
                                "unit `{id}` ({}) is placed at {hex} on {what}, which {class} cannot enter",
                                ctx.kind_name(unit.kind.as_str())
                            ),
                        )
                        .help("place it on a hex its kind can enter, or change the terrain's cost")
                        .hex(hex.as_str())
                        .subject(id),
                    );
                }
            }
        }
        match counter.placement {
            Placement::Free { zone, at } => {
                let Some(&z) = ctx.zones.get(zone.as_str()) else {
                    continue; // E0203
                };
                let zone_def = &s.zones[z];
                if let Some(at) = at
                    && off_map_text(ctx, at).is_none()
                {
                    let inside = match ctx.lookup(at) {
                        Some(index) => zone_hexes.get(z).is_some_and(|set| set.contains(&index)),
                        None => zone_def.hexes.contains(at),
                    };
                    if !inside {
                        let grid = ctx.map.as_ref().map(|v| v.grid);
                        found.push(
                            Diagnostic::new(
                                Code::E0501,
                                SCENARIO,
                                counter.hex_pointer(),
                                format!(
                                    "{noun} `{id}` is placed at {at}, outside its zone `{zone}` ({})",
                                    describe_hexes(grid, &zone_def.hexes)
                                ),
                            )
                            .help("move it into the zone or change its placement")
                            .hex(at.as_str())
                            .subject(id)
                            .related(Related::new(SCENARIO, format!("/zones/{z}/hexes"), format!("zone `{zone}` is defined here"))),
                        );
                    }
                }
                // A zone belongs to a corps or an army: another's zone is suspicious.
                let own_corps: Option<&str> = match counter.role {
                    CounterRole::Unit => counter
                        .unit
                        .and_then(|u| u.corps.as_ref())
                        .map(|c| c.as_str()),
                    CounterRole::Leader => counter
                        .corps_index
                        .and_then(|c| s.armies.get(counter.army)?.corps.get(c))
                        .map(|c| c.id.as_str()),
                    CounterRole::Commander => None,
                };
                let owner_army = zone_army(ctx, &zone_def.owner);
                let mismatch = match &zone_def.owner {
                    Owner::Corps(corps) => match own_corps {
                        Some(own) if own != corps.as_str() => {
                            Some(format!("corps `{corps}`, not to its corps `{own}`"))
                        }
                        None if owner_army.is_some_and(|a| a != counter.army) => Some(format!(
                            "corps `{corps}` of army `{}`",
                            ctx.army_id(owner_army.unwrap_or_default())
                        )),
                        _ => None,
                    },
                    Owner::Army(army) => match owner_army {
                        Some(a) if a != counter.army => Some(format!(
                            "army `{army}`, not to its army `{}`",
                            ctx.army_id(counter.army)
                        )),
                        _ => None,
                    },
                };
                if let Some(mismatch) = mismatch {
                    found.push(
                        Diagnostic::new(
                            Code::W0502,
                            SCENARIO,
                            format!("{}/placement/Free/zone", counter.pointer),
                            format!("{noun} `{id}` is placed free in zone `{zone}`, which belongs to {mismatch}"),
                        )
                        .help("place it in a zone of its own corps or army")
                        .subject(id)
                        .related(Related::new(SCENARIO, format!("/zones/{z}/owner"), "the zone's owner is given here")),
                    );
                }
            }
            Placement::Reinforcement { turn, entry } => {
                if *turn > s.turns {
                    found.push(
                        Diagnostic::new(
                            Code::E0508,
                            SCENARIO,
                            format!("{}/placement/Reinforcement/turn", counter.pointer),
                            format!(
                                "{noun} `{id}` arrives on turn {turn}, but the game has {} turns",
                                s.turns
                            ),
                        )
                        .help(format!(
                            "make it arrive on turn {} or earlier (13.2)",
                            s.turns
                        ))
                        .subject(id),
                    );
                }
                for (k, hex) in entry.iter().enumerate() {
                    if let Some(why) = off_map_text(ctx, hex) {
                        found.push(
                            Diagnostic::new(
                                Code::E0507,
                                SCENARIO,
                                format!("{}/placement/Reinforcement/entry/{k}", counter.pointer),
                                format!("{noun} `{id}` enters at {hex}: {why}"),
                            )
                            .help("name an entry hex on the map (13.2)")
                            .hex(hex.as_str())
                            .subject(id),
                        );
                    }
                }
            }
            Placement::Unplaced | Placement::Hex(_) => {}
        }
    }
    ctx.out.extend(found);
}

fn zones(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let mut found = Vec::new();
    // Map hex → the first zone hex there, per army.
    let mut claimed: HashMap<HexIndex, Vec<(usize, usize, usize)>> = HashMap::new();
    for (z, zone) in s.zones.iter().enumerate() {
        let army = zone_army(ctx, &zone.owner);
        for (k, hex) in zone.hexes.iter().enumerate() {
            if let Some(why) = off_map_text(ctx, hex) {
                found.push(
                    Diagnostic::new(
                        Code::E0505,
                        SCENARIO,
                        format!("/zones/{z}/hexes/{k}"),
                        format!("zone `{}` includes {hex}: {why}", zone.id),
                    )
                    .help("remove the hex from the zone or correct its name")
                    .hex(hex.as_str())
                    .subject(zone.id.as_str()),
                );
                continue;
            }
            let (Some(index), Some(army)) = (ctx.lookup(hex), army) else {
                continue;
            };
            let entries = claimed.entry(index).or_default();
            if let Some(&(oz, ok, oa)) = entries.iter().find(|(_, _, oa)| *oa != army) {
                let other = &s.zones[oz];
                found.push(
                    Diagnostic::new(
                        Code::W0506,
                        SCENARIO,
                        format!("/zones/{z}/hexes/{k}"),
                        format!(
                            "hex {hex} is in zone `{}` of army `{}` and in zone `{}` of army `{}`",
                            zone.id,
                            ctx.army_id(army),
                            other.id,
                            ctx.army_id(oa)
                        ),
                    )
                    .help(
                        "opposing armies should deploy apart: remove the hex from one of the zones",
                    )
                    .hex(hex.as_str())
                    .subject(zone.id.as_str())
                    .related(
                        Related::new(
                            SCENARIO,
                            format!("/zones/{oz}/hexes/{ok}"),
                            format!("also in zone `{}` here", other.id),
                        )
                        .hex(hex.as_str()),
                    ),
                );
            }
            entries.push((z, k, army));
        }
    }
    ctx.out.extend(found);
}

fn victory_hexes(ctx: &mut Ctx<'_>) {
    let v = &ctx.scenario.victory;
    let mut found = Vec::new();
    let mut check = |pointer: String, hex: &HexName, what: &str| {
        if let Some(why) = off_map_text(ctx, hex) {
            found.push(
                Diagnostic::new(
                    Code::E0509,
                    SCENARIO,
                    pointer,
                    format!("{what} {hex}: {why}"),
                )
                .help("name a hex of the map")
                .hex(hex.as_str()),
            );
        }
    };
    for (i, objective) in v.objectives.iter().enumerate() {
        check(
            format!("/victory/objectives/{i}/hex"),
            &objective.hex,
            &format!("objective `{}` is at", objective.name),
        );
    }
    for (i, hold) in v.holds.iter().enumerate() {
        for (k, hex) in hold.hexes.iter().enumerate() {
            check(
                format!("/victory/holds/{i}/hexes/{k}"),
                hex,
                &format!("victory condition `{}` names", hold.result),
            );
        }
    }
    ctx.out.extend(found);
}
