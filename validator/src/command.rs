//! Command at set-up (warnings): line leaders within their commander in chief's radius (8.2),
//! units within their line leader's radius or in a commanded line of battle (9.1, 9.3).
//!
//! Radii are traced as 8.2 says: a path of at most N hexes over the map, which (when
//! `rules.command.blocked_by_enemy_front_and_flank`) does not pass through an enemy unit's
//! front or flank hexes (nor its hex) unless a friendly unit stands there. The path may end in
//! such a hex.
//!
//! Facing: a unit facing side F has its front hexsides taken in the order F, the next side
//! clockwise, the previous side, … — so two front hexsides face the vertex between F and the
//! next side clockwise (rule 2: infantry 2 front, 2 flank, 2 rear; cavalry 4 front, 2 rear).
//! Its flank hexsides follow in the same order. A unit without a facing has front hexes only
//! when all six hexsides are front (artillery). Infantry (a kind with flank hexsides) in a
//! redoubt or built-up hex has six front hexsides (rule 2).

use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use bataille_schema::geometry::sides;
use bataille_schema::scenario::{Army, Corps, LineLeader, Unit, UnitKind};
use bataille_schema::{Grid, HexIndex, Side};

use crate::codes::Code;
use crate::context::{Counter, CounterRole, Ctx, MapView, SCENARIO};
use crate::diagnostic::{Diagnostic, Related};
use crate::sink::Sink;

mod trace;
mod unsure;
use trace::{HexSet, Six, Tracer};
use unsure::Unsure;

/// The order in which a facing's hexsides become front, then flank, then rear: relative
/// positions clockwise from the facing side.
const CLOSENESS: [usize; 6] = [0, 1, 5, 2, 4, 3];

#[derive(Clone, Copy, PartialEq, Eq)]
enum SideClass {
    Front,
    Flank,
    Rear,
}

/// Front/flank/rear of each of the six sides (in `sides(orientation)` order), or `None` when
/// the facing is unknown and not all sides are front.
fn classify(
    grid: &Grid,
    kind: &UnitKind,
    facing: Option<Side>,
    fortified: bool,
) -> Option<[SideClass; 6]> {
    let front = if fortified && kind.flank_hexsides > 0 {
        6
    } else {
        kind.front_hexsides.min(6) as usize
    };
    if front == 6 {
        return Some([SideClass::Front; 6]);
    }
    let all = sides(grid.orientation);
    let f = all.iter().position(|s| Some(*s) == facing)?;
    let flank = (kind.flank_hexsides as usize).min(6 - front);
    let mut classes = [SideClass::Rear; 6];
    for (rank, relative) in CLOSENESS.iter().enumerate() {
        let slot = (f + relative) % 6;
        classes[slot] = if rank < front {
            SideClass::Front
        } else if rank < front + flank {
            SideClass::Flank
        } else {
            SideClass::Rear
        };
    }
    Some(classes)
}

/// A unit on the map with what command needs.
struct Placed<'a> {
    army: usize,
    unit: &'a Unit,
    kind: &'a UnitKind,
    hex: HexIndex,
    /// The counter (its pointer is written only for a diagnostic).
    counter: &'a Counter<'a>,
    classes: Option<[SideClass; 6]>,
}

impl Placed<'_> {
    /// The neighbour hexes through its sides of a class (no allocation: this runs for every
    /// unit on the map).
    fn hexes_of<'g>(
        &self,
        grid: &'g Grid,
        class: SideClass,
    ) -> impl Iterator<Item = HexIndex> + use<'g> {
        let hex = self.hex;
        self.classes
            .into_iter()
            .flat_map(move |classes| sides(grid.orientation).into_iter().zip(classes))
            .filter(move |(_, c)| *c == class)
            .filter_map(move |(side, _)| grid.neighbour(hex, side))
    }

    /// Its neighbour hexes through its sides of a class, as a small set.
    fn six_of(&self, grid: &Grid, class: SideClass) -> Six {
        let mut six = Six::default();
        for hex in self.hexes_of(grid, class) {
            if let Some(slot) = six.hexes.get_mut(six.len) {
                *slot = hex;
                six.len += 1;
            }
        }
        six
    }
}

/// W0801 and W0901: each corps' line leader in command of a commander in chief (8.2), each of
/// its units in command of the leader (9.1, 9.3), on paths the enemy does not block.
pub(crate) fn command(ctx: &mut Ctx<'_>) {
    let Some(view) = ctx.map.as_ref() else {
        return;
    };
    let grid = view.grid;
    let s = ctx.scenario;
    let rules = &s.rules.command;
    // A game without line leaders commands no unit through one (and no leader is out of a
    // commander's radius).
    if !rules.line_leaders {
        return;
    }
    let placed = placed_units(ctx, view);
    let blocked = blocked_hexes(ctx, grid, &placed);
    // Units of each corps, by (army, corps id); commanders' reach, computed once each.
    let mut members_of: HashMap<(usize, &str), Vec<usize>> = HashMap::new();
    for (i, p) in placed.iter().enumerate() {
        if let Some(corps) = &p.unit.corps {
            members_of
                .entry((p.army, corps.as_str()))
                .or_default()
                .push(i);
        }
    }
    // What a chain of command runs through but cannot be placed (a unit of a corps on no hex
    // of the map or of an unknown kind: E0503, E0105, E0204), or may have been meant for a
    // corps of its army (a unit's or a commander's unknown corps: E0202): who is out of
    // command may follow from it, and is not said (one mistake, one report).
    let unsure = Unsure::of(ctx, grid);
    // Each commander's reach, traced once (sorted hexes), and the scratch of every trace.
    let mut chief_reach: HashMap<(usize, usize), Vec<HexIndex>> = HashMap::new();
    let mut tracer = Tracer::new(grid);
    let mut found = ctx.out.beside();
    for (a, army) in s.armies.iter().enumerate() {
        for (c, corps) in army.corps.iter().enumerate() {
            let Some(leader) = &corps.leader else {
                continue;
            };
            let Some(hex) = leader.placement.hex().and_then(|h| grid.lookup(h)) else {
                continue;
            };
            let at = LeaderAt {
                a,
                army,
                corps,
                leader,
                hex,
                pointer: crate::context::placement_hex_pointer(
                    &format!("/armies/{a}/corps/{c}/leader"),
                    &leader.placement,
                ),
                blocked: blocked.get(a),
            };
            if rules.commanders && !leader.always_in_command && !unsure.chiefs(a, corps) {
                found.extend(leader_out_of_command(
                    ctx,
                    grid,
                    &at,
                    &mut chief_reach,
                    &mut tracer,
                ));
            }
            let members: Vec<&Placed<'_>> = members_of
                .get(&(a, corps.id.as_str()))
                .into_iter()
                .flatten()
                .filter_map(|&i| placed.get(i))
                .collect();
            if !unsure.members(a, corps) {
                units_out_of_command(ctx, grid, &at, &members, &mut tracer, &mut found);
            }
        }
    }
    ctx.out.merge(found);
}

/// A corps' line leader on the map, for the command checks.
struct LeaderAt<'a> {
    a: usize,
    army: &'a Army,
    corps: &'a Corps,
    leader: &'a LineLeader,
    hex: HexIndex,
    pointer: String,
    /// The hexes the army's paths may not pass ([`blocked_hexes`]).
    blocked: Option<&'a HexSet>,
}

/// The units on the map, with their hexes and the classes of their sides.
fn placed_units<'a>(ctx: &'a Ctx<'a>, view: &MapView<'a>) -> Vec<Placed<'a>> {
    let grid = view.grid;
    // Units on the map.
    let mut placed: Vec<Placed<'_>> = Vec::new();
    for counter in ctx
        .counters
        .iter()
        .filter(|c| c.role() == CounterRole::Unit)
    {
        let (Some(unit), Some(hex)) = (counter.unit(), counter.placement().hex()) else {
            continue;
        };
        let (Some(kind), Some(index)) = (ctx.kind(unit.kind.as_str()), grid.lookup(hex)) else {
            continue;
        };
        let classes = classify(grid, kind, unit.facing, view.is_fortified(index));
        placed.push(Placed {
            army: counter.army(),
            unit,
            kind,
            hex: index,
            counter,
            classes,
        });
    }
    placed
}

/// Per army: hexes its path may not pass (enemy units, their front and flank hexes, where no
/// friendly unit stands); none when `rules.command.blocked_by_enemy_front_and_flank` is off.
fn blocked_hexes(ctx: &Ctx<'_>, grid: &Grid, placed: &[Placed<'_>]) -> Vec<HexSet> {
    let rules = &ctx.scenario.rules.command;
    let armies = ctx.scenario.armies.len();
    // no friendly unit stands).
    let mut blocked: Vec<HexSet> = Vec::new();
    if rules.blocked_by_enemy_front_and_flank {
        blocked = vec![HexSet::new(grid); armies];
        let mut friendly: Vec<HexSet> = vec![HexSet::new(grid); armies];
        for p in placed {
            // Allies' units are friendly too (`sides`).
            for (army, set) in friendly.iter_mut().enumerate() {
                if ctx.allied(army, p.army) {
                    set.insert(p.hex);
                }
            }
        }
        for p in placed {
            let zone = std::iter::once(p.hex)
                .chain(p.hexes_of(grid, SideClass::Front))
                .chain(p.hexes_of(grid, SideClass::Flank));
            for hex in zone {
                for (army, set) in blocked.iter_mut().enumerate() {
                    if !ctx.allied(army, p.army) && !friendly[army].contains(hex) {
                        set.insert(hex);
                    }
                }
            }
        }
    }
    blocked
}

/// W0801 (8.2): the line leader within the radius of a commander in chief commanding his corps.
fn leader_out_of_command(
    ctx: &Ctx<'_>,
    grid: &Grid,
    at: &LeaderAt<'_>,
    chief_reach: &mut HashMap<(usize, usize), Vec<HexIndex>>,
    tracer: &mut Tracer,
) -> Option<Diagnostic> {
    let rules = &ctx.scenario.rules.command;
    let numbers = ctx.numbers();
    let LeaderAt {
        a,
        army,
        corps,
        leader,
        hex: leader_hex,
        ..
    } = *at;
    let leader_pointer = &at.pointer;
    let chiefs: Vec<(usize, HexIndex, u32)> = army
        .commanders
        .iter()
        .enumerate()
        .filter(|(_, chief)| chief.commands.contains(&corps.id))
        .filter_map(|(k, chief)| {
            let hex = chief.placement.hex().and_then(|h| grid.lookup(h))?;
            Some((
                k,
                hex,
                chief.radius_hexes.unwrap_or(rules.commander_radius_hexes),
            ))
        })
        .collect();
    let in_command = chiefs.iter().any(|(k, hex, radius)| {
        chief_reach
            .entry((a, *k))
            .or_insert_with(|| {
                tracer.trace(grid, *hex, *radius, at.blocked);
                let mut reached = tracer.reached.clone();
                reached.sort_unstable();
                reached
            })
            .binary_search(&leader_hex)
            .is_ok()
    });
    if !chiefs.is_empty() && !in_command {
        let leader_name = grid.name(leader_hex);
        let nearest = chiefs
            .iter()
            .min_by_key(|(k, hex, _)| (grid.distance(*hex, leader_hex), *k));
        let why = match nearest {
            Some((k, hex, radius)) => {
                let distance = grid.distance(*hex, leader_hex);
                let chief = &army.commanders[*k];
                if distance > *radius {
                    format!(
                        "{distance} hexes from commander `{}` at {} (radius {radius})",
                        chief.id,
                        grid.name(*hex)
                    )
                } else {
                    format!(
                        "every path of at most {radius} hexes from commander `{}` at {} crosses enemy front or flank hexes",
                        chief.id,
                        grid.name(*hex)
                    )
                }
            }
            None => String::new(),
        };
        let mut d = Diagnostic::new(
                Code::W0801,
                SCENARIO,
                leader_pointer.clone(),
                format!("line leader `{}` of `{}` at {leader_name} is out of command: {why}", leader.id, corps.id),
            )
            .help(format!(
                "move `{}` or a commander closer, or add `allow: [\"W0801\"]` to the leader if intended{}",
                leader.id,
                ctx.cite(&numbers.commander_radius)
            ))
            .hex(leader_name.as_str())
            .subject(leader.id.as_str());
        for (k, hex, radius) in &chiefs {
            let chief = &army.commanders[*k];
            let distance = grid.distance(*hex, leader_hex);
            d = d.related(
                Related::new(
                    SCENARIO,
                    crate::context::placement_hex_pointer(
                        &format!("/armies/{a}/commanders/{k}"),
                        &chief.placement,
                    ),
                    format!(
                        "commander `{}` at {} ({distance} hexes away, radius {radius})",
                        chief.id,
                        grid.name(*hex)
                    ),
                )
                .hex(grid.name(*hex).as_str())
                .subject(chief.id.as_str()),
            );
        }
        return Some(d);
    }
    None
}

/// W0901 (9.1, 9.3): the corps' units within the leader's radius or in a commanded line.
fn units_out_of_command(
    ctx: &Ctx<'_>,
    grid: &Grid,
    at: &LeaderAt<'_>,
    members: &[&Placed<'_>],
    tracer: &mut Tracer,
    found: &mut Sink<'_>,
) {
    let rules = &ctx.scenario.rules.command;
    let numbers = ctx.numbers();
    let LeaderAt {
        corps,
        leader,
        hex: leader_hex,
        ..
    } = *at;
    let leader_pointer = &at.pointer;
    let radius = leader.radius_hexes.unwrap_or(rules.leader_radius_hexes);
    tracer.trace(grid, leader_hex, radius, at.blocked);
    let mut commanded: Vec<bool> = members
        .iter()
        .map(|p| p.unit.always_in_command || tracer.contains(p.hex))
        .collect();
    // Lines of battle only carry command to units out of the radius: none, nothing to trace.
    if rules.lines_of_battle && commanded.contains(&false) {
        lines_of_battle(grid, members, &mut commanded);
    }
    for (p, ok) in members.iter().zip(&commanded) {
        // 9.2 (Grassin) always in command; Fontenoy 10: immobile artillery ignores command.
        if *ok || p.kind.immobile {
            continue;
        }
        let here = grid.name(p.hex);
        let distance = grid.distance(leader_hex, p.hex);
        let line = if rules.lines_of_battle {
            format!(
                " and in no line of battle with a commanded unit of `{}`",
                corps.id
            )
        } else {
            String::new()
        };
        let why = if distance > radius {
            format!(
                "{distance} hexes from its line leader `{}` at {} (radius {radius})",
                leader.id,
                grid.name(leader_hex)
            )
        } else {
            format!(
                "every path of at most {radius} hexes from its line leader `{}` at {} crosses enemy front or flank hexes",
                leader.id,
                grid.name(leader_hex)
            )
        };
        found.push(
            Diagnostic::new(
                Code::W0901,
                SCENARIO,
                p.counter.hex_pointer(),
                format!("unit `{}` at {here} is out of command: {why}{line}", p.unit.id),
            )
            .help(format!(
                "move it within {radius} hexes of `{}`{}, or add `allow: [\"W0901\"]` to the unit if intended{}",
                leader.id,
                if rules.lines_of_battle {
                    format!(" or beside a commanded unit of its corps on a flank hex{}", ctx.cite(&numbers.lines_of_battle))
                } else {
                    String::new()
                },
                ctx.cite(&numbers.unit_command)
            ))
            .hex(here.as_str())
            .subject(p.unit.id.as_str())
            .related(
                Related::new(SCENARIO, leader_pointer.clone(), format!("line leader `{}` is here", leader.id))
                    .hex(grid.name(leader_hex).as_str())
                    .subject(leader.id.as_str()),
            ),
        );
    }
}

/// 9.3: a unit out of radius is commanded when it is adjacent to a unit of its corps placed on
/// one of its flank hexes (or it on the other's), in a chain that reaches a commanded unit;
/// units with no flank hexsides and fewer than six front ones (cavalry) need only be adjacent.
fn lines_of_battle(grid: &Grid, members: &[&Placed<'_>], commanded: &mut [bool]) {
    let mut by_hex: HashMap<HexIndex, Vec<usize>> = HashMap::new();
    for (i, p) in members.iter().enumerate() {
        by_hex.entry(p.hex).or_default().push(i);
    }
    let flanks: Vec<Six> = members
        .iter()
        .map(|p| p.six_of(grid, SideClass::Flank))
        .collect();
    let cavalry = |p: &Placed<'_>| p.kind.flank_hexsides == 0 && p.kind.front_hexsides < 6;
    let mut queue: VecDeque<usize> = (0..members.len()).filter(|i| commanded[*i]).collect();
    let mut stacks_done: HashSet<HexIndex> = HashSet::new();
    while let Some(v) = queue.pop_front() {
        let pv = members[v];
        // Stacked with a commanded unit: same hex, same distance (each stack taken once).
        let mut candidates: Vec<usize> = Vec::new();
        if stacks_done.insert(pv.hex) {
            candidates.extend(by_hex.get(&pv.hex).into_iter().flatten().copied());
        }
        for (_, next) in grid.neighbours(pv.hex) {
            if let Some(units) = by_hex.get(&next) {
                for &u in units {
                    if commanded[u] {
                        continue;
                    }
                    let pu = members[u];
                    let linked = flanks[u].contains(pv.hex)
                        || flanks[v].contains(pu.hex)
                        || (cavalry(pu) && cavalry(pv));
                    if linked {
                        candidates.push(u);
                    }
                }
            }
        }
        for u in candidates {
            if !commanded[u] {
                commanded[u] = true;
                queue.push_back(u);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};
    use bataille_schema::scenario::Symbol;

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns: 10,
            rows: 10,
            hex_names: HexNaming::default(),
        }
    }

    fn kind(front: u8, flank: u8) -> UnitKind {
        UnitKind {
            range_hexes: None,
            name: "k".into(),
            symbol: Symbol::Infantry,
            combat: true,
            counts_for_stacking: None,
            front_hexsides: front,
            flank_hexsides: flank,
            moves_as: None,
            immobile: false,
            armies: vec![],
        }
    }

    #[test]
    fn infantry_facing_north_has_front_north_and_north_east() {
        let classes = classify(&grid(), &kind(2, 2), Some(Side::N), false).unwrap();
        // Flat sides: N, NE, SE, S, SW, NW.
        assert!(classes[0] == SideClass::Front && classes[1] == SideClass::Front);
        assert!(classes[5] == SideClass::Flank && classes[2] == SideClass::Flank);
        assert!(classes[3] == SideClass::Rear && classes[4] == SideClass::Rear);
    }

    #[test]
    fn infantry_in_a_redoubt_is_all_front_and_cavalry_is_not() {
        assert!(
            classify(&grid(), &kind(2, 2), None, true)
                .is_some_and(|c| c.iter().all(|c| *c == SideClass::Front))
        );
        assert!(classify(&grid(), &kind(4, 0), None, true).is_none());
    }

    #[test]
    fn blocked_hexes_end_paths_but_do_not_carry_them() {
        let g = grid();
        let start = HexIndex::new(0, 0);
        let mut wall = HexSet::new(&g);
        (0..10).for_each(|r| wall.insert(HexIndex::new(1, r)));
        let mut tracer = Tracer::new(&g);
        tracer.trace(&g, start, 5, Some(&wall));
        assert!(
            tracer.contains(HexIndex::new(1, 0)),
            "a blocked hex can be reached"
        );
        assert!(!tracer.contains(HexIndex::new(2, 0)), "but not passed");
        tracer.trace(&g, start, 5, None);
        assert!(tracer.contains(HexIndex::new(2, 0)), "free: two steps away");
        tracer.trace(&g, start, 1, None);
        assert!(
            !tracer.contains(HexIndex::new(2, 0)),
            "a later trace forgets the earlier one's hexes"
        );
        assert_eq!(
            tracer.reached.len(),
            1 + g.neighbours(start).count(),
            "radius 1: the start and its neighbours"
        );
    }
}
