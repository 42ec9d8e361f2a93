//! Reinforcements (Denain 13.2): each arrives by the last turn, by entry hexes on the map it
//! can enter, and those entering together can all enter in column by the last turn.

use bataille_schema::map::MoveCost;
use bataille_schema::scenario::{Placement, ReinforcementEntry};
use bataille_schema::{HexName, Id};

use super::off_map_text;
use crate::codes::Code;
use crate::context::{Counter, CounterRole, Ctx, SCENARIO, describe_hexes};
use crate::diagnostic::Diagnostic;
use crate::sink::Sink;

/// E0507, E0508, E0513: a reinforcement arrives by the last turn, by entry hexes on the map
/// that it can enter (Denain 13.2).
pub(super) fn reinforcement(
    ctx: &Ctx<'_>,
    counter: &Counter<'_>,
    turn: u32,
    entry: &[HexName],
    found: &mut Sink<'_>,
) {
    let s = ctx.scenario;
    let noun = counter.role().noun();
    let id = counter.id().as_str();
    if turn > s.turns {
        let d = Diagnostic::new(
            Code::E0508,
            SCENARIO,
            format!("{}/placement/Reinforcement/turn", counter.pointer()),
            format!(
                "{noun} `{id}` arrives on turn {turn}, but the game has {} turns",
                s.turns
            ),
        )
        .help(format!(
            "make it arrive on turn {} or earlier{}",
            s.turns,
            ctx.cite(&ctx.numbers().reinforcements)
        ))
        .subject(id);
        // One entry hex: that is the hex concerned.
        let d = match entry {
            [hex] => d.hex(hex.as_str()),
            _ => d,
        };
        found.push(d);
    }
    for (k, hex) in entry.iter().enumerate() {
        if let Some(no) = off_map_text(ctx, hex) {
            if let Some(why) = no.why() {
                found.push(
                    Diagnostic::new(
                        Code::E0507,
                        SCENARIO,
                        format!("{}/placement/Reinforcement/entry/{k}", counter.pointer()),
                        format!("{noun} `{id}` enters at {hex}: {why}"),
                    )
                    .help(format!(
                        "name an entry hex on the map{}",
                        ctx.cite(&ctx.numbers().reinforcements)
                    ))
                    .hex(hex.as_str())
                    .subject(id),
                );
            }
            continue;
        }
        // The entry hex is the first hex it enters: terrain its kind (or, for a
        // leader, its movement class) cannot enter is no entry (E0513).
        let class = match (counter.role(), counter.unit()) {
            (CounterRole::Unit, Some(unit)) => Some(ctx.movement_class(&unit.kind)),
            (CounterRole::Leader, _) => s.rules.command.leaders_move_as.as_ref().map(Id::as_str),
            (CounterRole::Commander, _) => {
                s.rules.command.commanders_move_as.as_ref().map(Id::as_str)
            }
            _ => None,
        };
        if let (Some(class), Some(view), Some(index)) = (class, ctx.map.as_ref(), ctx.lookup(hex))
            && let Some((MoveCost::Impassable, what)) = view.entry_cost(index, class)
        {
            found.push(
                Diagnostic::new(
                    Code::E0513,
                    SCENARIO,
                    format!("{}/placement/Reinforcement/entry/{k}", counter.pointer()),
                    format!("{noun} `{id}` enters at {hex}, on {what}, which {class} cannot enter"),
                )
                .help(format!(
                    "name an entry hex its kind can enter, or change the terrain's cost{}",
                    ctx.cite(&ctx.numbers().reinforcements)
                ))
                .hex(hex.as_str())
                .subject(id),
            );
        }
    }
}

/// Above this many (subset, group) pairs, the column check tries only the units' own entry
/// sets and all entry hexes together, so a hostile file cannot make it run for long.
const COLUMN_BUDGET: usize = 4_000_000;

/// Reinforcements entering in column (Denain 13.2 N.B.: the first with all its MP, the second
/// with 1, the third waits for the next turn): at most `column_entry.len()` units a turn by
/// each entry hex, so every unit must find a turn by the last (E0512). By Hall's theorem they
/// all can when, for every set H of entry hexes and every turn t, the units arriving on turn t
/// or later whose entry hexes all lie in H are at most `column_entry.len()` × |H| × the turns
/// left from t. Reported once per smallest failing set of hexes, at the last of its units.
pub(super) fn column_entry(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let per_turn = s.rules.stacking.column_entry.len();
    if s.rules.stacking.reinforcements != ReinforcementEntry::Column || per_turn == 0 {
        return;
    }
    // Distinct entry hexes (by their map name), and each reinforcement unit's set of them.
    let mut hexes: Vec<HexName> = Vec::new();
    let mut arrivals: Vec<(usize, u32, Vec<usize>)> = Vec::new();
    for (i, counter) in ctx.counters.iter().enumerate() {
        let (CounterRole::Unit, Placement::Reinforcement { turn, entry }) =
            (counter.role(), counter.placement())
        else {
            continue;
        };
        if *turn > s.turns || *turn == 0 {
            continue; // E0508, or the JSON Schema's minimum
        }
        let mut set: Vec<usize> = Vec::new();
        for hex in entry {
            let name = match (ctx.map.as_ref(), ctx.lookup(hex)) {
                (Some(view), Some(index)) => view.grid.name(index),
                (Some(_), None) => continue, // off the map: E0507
                (None, _) => hex.clone(),
            };
            let k = match hexes.iter().position(|h| *h == name) {
                Some(k) => k,
                None => {
                    hexes.push(name);
                    hexes.len() - 1
                }
            };
            set.push(k);
        }
        set.sort_unstable();
        set.dedup();
        if !set.is_empty() {
            arrivals.push((i, *turn, set));
        }
    }
    if arrivals.is_empty() {
        return;
    }
    // Candidate sets of hexes: every subset when affordable, else the units' own sets and all.
    let mut sets: Vec<Vec<usize>> = arrivals.iter().map(|(_, _, set)| set.clone()).collect();
    sets.sort();
    sets.dedup();
    let n = hexes.len();
    let candidates: Vec<Vec<usize>> = if n <= 16 && (1usize << n) * sets.len() <= COLUMN_BUDGET {
        (1usize..(1 << n))
            .map(|mask| (0..n).filter(|k| mask & (1 << k) != 0).collect())
            .collect()
    } else {
        let mut c: Vec<Vec<usize>> = sets.into_iter().take(256).collect();
        c.push((0..n).collect());
        c
    };
    // Smallest sets first, so a failing set's supersets are not reported again.
    let mut candidates = candidates;
    candidates.sort_by_key(Vec::len);
    let mut reported: Vec<Vec<usize>> = Vec::new();
    let mut found = ctx.out.beside();
    for set in candidates {
        if reported
            .iter()
            .any(|r| r.iter().all(|k| set.binary_search(k).is_ok()))
        {
            continue;
        }
        let inside: Vec<&(usize, u32, Vec<usize>)> = arrivals
            .iter()
            .filter(|(_, _, own)| own.iter().all(|k| set.binary_search(k).is_ok()))
            .collect();
        let mut turns: Vec<u32> = inside.iter().map(|(_, t, _)| *t).collect();
        turns.sort_unstable();
        turns.dedup();
        // The turn from which the most units are over what the column can bring in.
        let worst = turns
            .iter()
            .map(|&t| {
                let count = inside.iter().filter(|(_, u, _)| *u >= t).count() as u64;
                let left = u64::from(s.turns - t + 1);
                let capacity = (per_turn as u64) * (set.len() as u64) * left;
                (count.saturating_sub(capacity), t, count, capacity)
            })
            .max_by_key(|(excess, t, _, _)| (*excess, std::cmp::Reverse(*t)));
        let Some((excess, t, count, capacity)) = worst else {
            continue;
        };
        if excess == 0 {
            continue;
        }
        let Some(&&(last, _, _)) = inside.iter().rev().find(|(_, u, _)| *u >= t) else {
            continue;
        };
        let counter = &ctx.counters[last];
        let names: Vec<HexName> = set.iter().map(|&k| hexes[k].clone()).collect();
        let grid = ctx.map.as_ref().map(|v| v.grid);
        let by = if names.len() == 1 {
            format!("entry hex {}", names[0])
        } else {
            format!("entry hexes {}", describe_hexes(grid, &names))
        };
        let mut d = Diagnostic::new(
            Code::E0512,
            SCENARIO,
            format!("{}/placement/Reinforcement/turn", counter.pointer()),
            format!(
                "{count} units arrive by {by} from turn {t}, but in column only {per_turn} a turn enter by each hex (13.2), {capacity} by the last turn ({}): {excess} cannot enter",
                s.turns,
            ),
        )
        .help("bring some of them in earlier or by another entry hex, or let more enter a turn (rules.stacking.column_entry)")
        .subject(counter.id().as_str());
        if let [hex] = names.as_slice() {
            d = d.hex(hex.as_str());
        }
        found.push(d);
        reported.push(set);
    }
    ctx.out.merge(found);
}
