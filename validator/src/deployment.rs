//! Deployment (Fontenoy 0.2, Denain 13.1, 13.2): counters on the map and on terrain they can
//! enter, free placements inside their zone, zones on the map and not shared with the enemy,
//! reinforcements entering on the map within the game's turns, victory hexes on the map.

use foldhash::{HashMap, HashMapExt};

use bataille_schema::map::MoveCost;
use bataille_schema::scenario::{Owner, Placement, VictoryCondition, Zone};
use bataille_schema::{HexIndex, HexName, Id};

use crate::codes::Code;
use crate::context::{Counter, CounterRole, Ctx, SCENARIO, describe_hexes};
use crate::diagnostic::{Diagnostic, Related};
use crate::sink::Sink;

mod reinforcements;

use reinforcements::{column_entry, reinforcement};

/// The army a zone belongs to (through its corps for a corps zone).
fn zone_army(ctx: &Ctx<'_>, owner: &Owner) -> Option<usize> {
    match owner {
        Owner::Army(id) => ctx.armies.get(id.as_str()).copied(),
        Owner::Corps(id) => ctx.army_of_corps(id.as_str()),
    }
}

/// Why a hex name names no hex of the map, when it does not (`None` without a map).
enum NoHex {
    /// The JSON Schema refuses the name itself (`Hex("nope-x")`): its E0105 says so at this
    /// place, and the check says nothing, so that nothing is counted for it either (issue 19:
    /// dropped after the report's bound, 23 such placements still left "13 E0503 not shown").
    Refused,
    /// Off the grid, of another form than the map's, or an absent cell: why.
    Off(String),
}

impl NoHex {
    /// What the check says, if anything.
    fn why(self) -> Option<String> {
        match self {
            NoHex::Refused => None,
            NoHex::Off(why) => Some(why),
        }
    }
}

fn off_map_text(ctx: &Ctx<'_>, hex: &HexName) -> Option<NoHex> {
    let view = ctx.map.as_ref()?;
    if hex.is_refused() {
        return Some(NoHex::Refused);
    }
    match view.grid.parse(hex.as_str()) {
        Ok(index) if view.map.is_absent(index) => Some(NoHex::Off(format!(
            "{hex} is not a hex: the map's short lines (`short_lines`) have no hex there"
        ))),
        Ok(_) => None,
        Err(error) => Some(NoHex::Off(error.to_string())),
    }
}

pub(crate) fn deployment(ctx: &mut Ctx<'_>) {
    placements(ctx);
    zones(ctx);
    column_entry(ctx);
    victory_hexes(ctx);
}

/// Why a counter may not be placed free in a zone (E0510): the zone belongs to another corps
/// or army and is not shared with the counter's (`shared_with`). A unit or line leader belongs
/// to its corps and its army; a commander in chief to his army and to the corps he commands
/// (8.1); a unit without a corps (the baggage) to its army only. `None` when the placement is
/// allowed, or when the owner is unknown (E0202, E0206 say so).
fn foreign_zone(ctx: &Ctx<'_>, counter: &Counter<'_>, zone: &Zone) -> Option<String> {
    let s = ctx.scenario;
    let own_corps: Vec<&str> = match counter.role() {
        CounterRole::Unit => counter
            .unit()
            .and_then(|u| u.corps.as_ref())
            .map(|c| c.as_str())
            .into_iter()
            .collect(),
        CounterRole::Leader => s
            .armies
            .get(counter.army())
            .and_then(|a| a.corps.get(counter.index()))
            .map(|c| c.id.as_str())
            .into_iter()
            .collect(),
        CounterRole::Commander => counter.commands().iter().map(|c| c.as_str()).collect(),
    };
    let admits = |owner: &Owner| match owner {
        Owner::Army(army) => ctx.armies.get(army.as_str()) == Some(&counter.army()),
        Owner::Corps(corps) => own_corps.contains(&corps.as_str()),
    };
    if admits(&zone.owner) || zone.shared_with.iter().any(admits) {
        return None;
    }
    let owner_army = zone_army(ctx, &zone.owner)?;
    let id = counter.id();
    Some(match &zone.owner {
        Owner::Corps(corps) if owner_army == counter.army() => {
            match (counter.role(), own_corps.first()) {
                (CounterRole::Commander, _) => {
                    format!("corps `{corps}`, which `{id}` does not command (8.1)")
                }
                (_, Some(own)) => format!("corps `{corps}`, not to its corps `{own}`"),
                (_, None) => format!("corps `{corps}`, and `{id}` belongs to no corps"),
            }
        }
        Owner::Corps(corps) => format!("corps `{corps}` of army `{}`", ctx.army_id(owner_army)),
        Owner::Army(army) => format!(
            "army `{army}`, not to its army `{}`",
            ctx.army_id(counter.army())
        ),
    })
}

/// Where each counter is placed: on the map ([`placed_on_the_map`]), free in a zone
/// ([`free_in_zone`]) or arriving as a reinforcement ([`reinforcement`]).
fn placements(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let mut found = ctx.out.beside();
    // Each zone's map hexes, looked up once.
    // Sorted lists searched by halves: hashing every hex of a big battle's zones was a
    // quarter of this check (issue 23).
    let zone_hexes: Vec<Vec<HexIndex>> = s
        .zones
        .iter()
        .map(|zone| {
            let mut hexes: Vec<HexIndex> =
                zone.hexes.iter().filter_map(|h| ctx.lookup(&h)).collect();
            hexes.sort_unstable();
            hexes
        })
        .collect();
    for counter in ctx.counters.iter() {
        if let Some(hex) = counter.placement().hex()
            && !placed_on_the_map(ctx, counter, hex, &mut found)
        {
            continue;
        }
        match counter.placement() {
            Placement::Free { zone, at } => {
                free_in_zone(ctx, counter, zone, at.as_ref(), &zone_hexes, &mut found)
            }
            Placement::Reinforcement { turn, entry } => {
                reinforcement(ctx, counter, *turn, entry, &mut found)
            }
            Placement::Unplaced | Placement::Hex(_) => {}
        }
    }
    ctx.out.merge(found);
}

/// E0503, E0504, E0511: a counter's hex is on the map, on terrain its kind (a leader: his
/// movement class, 9: "a line leader moves as a cavalry unit") can enter. False when the hex
/// is off the map (nothing more is said of the counter).
fn placed_on_the_map(
    ctx: &Ctx<'_>,
    counter: &Counter<'_>,
    hex: &HexName,
    found: &mut Sink<'_>,
) -> bool {
    let s = ctx.scenario;
    let noun = counter.role().noun();
    let id = counter.id().as_str();
    if let Some(no) = off_map_text(ctx, hex) {
        if let Some(why) = no.why() {
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
        }
        return false;
    }
    // Terrain its kind cannot enter (Terrain Table; Denain 7).
    if let (Some(unit), Some(view), Some(index)) =
        (counter.unit(), ctx.map.as_ref(), ctx.lookup(hex))
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
    // Leaders move as a class of unit (9: "a line leader moves as a cavalry unit"; the
    // commanders in chief as `commanders_move_as`), so they stand where it can enter.
    let class = match counter.role() {
        CounterRole::Unit => None,
        CounterRole::Leader => s.rules.command.leaders_move_as.as_ref(),
        CounterRole::Commander => s.rules.command.commanders_move_as.as_ref(),
    };
    if let (Some(class), Some(view), Some(index)) = (class, ctx.map.as_ref(), ctx.lookup(hex))
        && let Some((MoveCost::Impassable, what)) = view.entry_cost(index, class.as_str())
    {
        let setting = match counter.role() {
            CounterRole::Commander => "commanders_move_as",
            _ => "leaders_move_as",
        };
        found.push(
            Diagnostic::new(
                Code::E0511,
                SCENARIO,
                counter.hex_pointer(),
                format!(
                    "{noun} `{id}` is placed at {hex} on {what}, which {class} cannot enter ({noun}s move as {class}: rules.command.{setting})"
                ),
            )
            .help(format!(
                "place it on a hex its movement class can enter{}",
                ctx.cite(&ctx.numbers().terrain)
            ))
            .hex(hex.as_str())
            .subject(id),
        );
    }
    true
}

/// E0501, E0510: a counter placed free stands in its zone, a zone of its own corps or army
/// (Fontenoy 0.2, Denain 13.1) or one shared with it.
fn free_in_zone(
    ctx: &Ctx<'_>,
    counter: &Counter<'_>,
    zone: &Id,
    at: Option<&HexName>,
    zone_hexes: &[Vec<HexIndex>],
    found: &mut Sink<'_>,
) {
    let s = ctx.scenario;
    let noun = counter.role().noun();
    let id = counter.id().as_str();
    let Some(&z) = ctx.zones.get(zone.as_str()) else {
        return; // E0203
    };
    let zone_def = &s.zones[z];
    if let Some(at) = at
        && off_map_text(ctx, at).is_none()
    {
        let inside = match ctx.lookup(at) {
            Some(index) => zone_hexes
                .get(z)
                .is_some_and(|hexes| hexes.binary_search(&index).is_ok()),
            None => zone_def.hexes.contains(at),
        };
        // A zone one of whose hexes is no hex of the map (E0505, or E0105 for a name of no
        // hex) may have meant this one: the placement follows from that mistake and is not
        // said to be outside (one mistake, one report; the zones of others still are).
        let whole = ctx.map.is_none()
            || zone_hexes
                .get(z)
                .is_some_and(|hexes| hexes.len() == zone_def.hexes.len());
        if !inside && whole {
            let grid = ctx.map.as_ref().map(|v| v.grid);
            found.push(
                Diagnostic::new(
                    Code::E0501,
                    SCENARIO,
                    counter.hex_pointer(),
                    format!(
                        "{noun} `{id}` is placed at {at}, outside its zone `{zone}` ({})",
                        describe_hexes(grid, &zone_def.hexes.to_vec())
                    ),
                )
                .help("move it into the zone or change its placement")
                .hex(at.as_str())
                .subject(id)
                .related(Related::new(
                    SCENARIO,
                    format!("/zones/{z}/hexes"),
                    format!("zone `{zone}` is defined here"),
                )),
            );
        }
    }
    // A zone belongs to a corps or an army (Fontenoy 0.2: "to the limits defined
    // for each corps"; Denain 13.1: hexes per formation): another's is forbidden
    // unless the zone is shared with the counter's corps or army.
    if let Some(mismatch) = foreign_zone(ctx, counter, zone_def) {
        let mut d = Diagnostic::new(
                        Code::E0510,
                        SCENARIO,
                        format!("{}/placement/Free/zone", counter.pointer()),
                        format!("{noun} `{id}` is placed free in zone `{zone}`, which belongs to {mismatch}"),
                    )
                    .help("place it in a zone of its own corps or army, or list its corps or army in the zone's `shared_with`")
                    .subject(id)
                    .related(Related::new(SCENARIO, format!("/zones/{z}/owner"), "the zone's owner is given here"));
        if let Some(at) = at {
            d = d.hex(at.as_str());
        }
        found.push(d);
    }
}

fn zones(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let mut found = ctx.out.beside();
    // Map hex → the zone hexes there (zone, index, army), in file order: the first held
    // inline, the others in a list (most hexes are in one zone: no list allocated for them).
    // Only a side's first claim of a hex is kept: a later claim of the same side finds no
    // other opponent there than the first did, and with at most one claim per side the first
    // claim not of the new one's side is one of the first two. One hex listed 20,000 times
    // (or in 20,000 zones) was scanned again for each, 9 s; 400,000 times, an hour.
    type Claim = (usize, usize, usize);
    // Sized once, for at most the map's hexes (only a map hex is claimed): a zone listing
    // 1.5 million names off the map reserved a table of 136 MB for none (issue 19).
    let most = ctx.map.as_ref().map_or(0, |m| m.grid.hex_count());
    let mut claimed: HashMap<HexIndex, (Option<Claim>, Vec<Claim>)> = HashMap::with_capacity(
        s.zones
            .iter()
            .map(|z| z.hexes.len())
            .sum::<usize>()
            .min(most),
    );
    let mut sides_there: foldhash::HashSet<(HexIndex, usize)> = foldhash::HashSet::default();
    for (z, zone) in s.zones.iter().enumerate() {
        let army = zone_army(ctx, &zone.owner);
        for (k, hex) in zone.hexes.iter().enumerate() {
            let hex = &hex;
            if let Some(no) = off_map_text(ctx, hex) {
                if let Some(why) = no.why() {
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
                }
                continue;
            }
            let (Some(index), Some(army)) = (ctx.lookup(hex), army) else {
                continue;
            };
            let (first, more) = claimed.entry(index).or_default();
            if let Some(&(oz, ok, oa)) = first
                .iter()
                .chain(more.iter())
                .find(|(_, _, oa)| !ctx.allied(*oa, army))
            {
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
            if !sides_there.insert((index, ctx.side_key(army))) {
                continue;
            }
            if first.is_none() {
                *first = Some((z, k, army));
            } else {
                more.push((z, k, army));
            }
        }
    }
    ctx.out.merge(found);
}

fn victory_hexes(ctx: &mut Ctx<'_>) {
    let v = &ctx.scenario.victory;
    let mut found = ctx.out.beside();
    let mut check = |pointer: String, hex: &HexName, what: &str| {
        if let Some(why) = off_map_text(ctx, hex).and_then(NoHex::why) {
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
    for (i, condition) in v.conditions.iter().enumerate() {
        if let VictoryCondition::Exit { hexes, result, .. } = condition {
            for (k, hex) in hexes.iter().enumerate() {
                check(
                    format!("/victory/conditions/{i}/Exit/hexes/{k}"),
                    hex,
                    &format!("exit hex of `{result}`:"),
                );
            }
        }
    }
    ctx.out.merge(found);
    exits_on_the_edge(ctx);
}

/// Units exit the map through its edge: an exit hex of a victory condition that is not on the
/// map's edge (all six neighbours are hexes of the map) is reported (E0514).
fn exits_on_the_edge(ctx: &mut Ctx<'_>) {
    let Some(view) = ctx.map.as_ref() else {
        return;
    };
    let mut found = ctx.out.beside();
    for (i, condition) in ctx.scenario.victory.conditions.iter().enumerate() {
        let VictoryCondition::Exit { hexes, result, .. } = condition else {
            continue;
        };
        for (k, hex) in hexes.iter().enumerate() {
            let Some(index) = ctx.lookup(hex) else {
                continue;
            };
            let inner = view
                .grid
                .neighbours(index)
                .filter(|(_, n)| !view.map.is_absent(*n))
                .count()
                == 6;
            if inner {
                found.push(
                    Diagnostic::new(
                        Code::E0514,
                        SCENARIO,
                        format!("/victory/conditions/{i}/Exit/hexes/{k}"),
                        format!(
                            "exit hex {hex} of `{result}` is not on the map's edge: no unit can leave the map from it"
                        ),
                    )
                    .help(format!(
                        "name a hex on the edge the units leave by{}",
                        ctx.cite(&ctx.numbers().victory)
                    ))
                    .hex(hex.as_str()),
                );
            }
        }
    }
    ctx.out.merge(found);
}
