//! Stacking (rule 3): every army's stack in a hex at set-up, and (when reinforcements enter
//! stacked) every group of an army arriving together at one entry hex, must fit one of the
//! scenario's allowed compositions. Leaders never count; counters whose kind does not count for
//! stacking (`UnitKind::stacks`: by default the non-combat ones, such as baggage) do not count
//! either, and a lone counter is always legal. Stacking is between friendly counters: opposing
//! counters in one hex are an error of their own (E0304).

use foldhash::{HashMap, HashMapExt};

use bataille_schema::scenario::{Composition, Placement, ReinforcementEntry};
use bataille_schema::{HexIndex, HexName};

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO, placement_hex_pointer};
use crate::diagnostic::{Diagnostic, MAX_RELATED, Related};

/// A counter that counts for stacking.
#[derive(Clone)]
struct Piece<'a> {
    kind: &'a str,
    cp: u32,
    id: &'a str,
    /// Army and unit index, and whether it is placed by its entry hex (a reinforcement).
    at: (usize, usize, bool),
    placement: &'a Placement,
}

impl Piece<'_> {
    /// Pointer of the value that places it (its hex, or its entry hex).
    fn pointer(&self) -> String {
        let (a, u, entry) = self.at;
        let base = format!("/armies/{a}/units/{u}");
        if entry {
            format!("{base}/placement/Reinforcement/entry/0")
        } else {
            placement_hex_pointer(&base, self.placement)
        }
    }
}

/// Tries to fit pieces into a composition: each piece to a term naming its kind, every term's
/// limits held. Small stacks, so a depth-first search with a step budget (a hostile file with
/// thousands of counters in a hex cannot make it run for ever; out of budget counts as fitting,
/// so nothing false is reported).
fn fits(composition: &Composition, pieces: &[Piece<'_>]) -> bool {
    if pieces.iter().any(|p| {
        !composition
            .terms
            .iter()
            .any(|t| t.kinds.iter().any(|k| k.as_str() == p.kind))
    }) {
        return false;
    }
    if pieces.len() > MAX_SEARCHED {
        // No rules set stacks this many counters: the first term naming each kind decides,
        // and the recursion stays shallow whatever the file holds.
        return greedy_breaks(composition, pieces) == 0;
    }
    let mut counters = vec![0u32; composition.terms.len()];
    let mut cps = vec![0u32; composition.terms.len()];
    let mut budget = 20_000u32;
    search(composition, pieces, 0, &mut counters, &mut cps, &mut budget)
}

/// Stacks larger than this are judged by the first-term assignment alone.
const MAX_SEARCHED: usize = 32;

/// How many limits break when each piece takes the first term naming its kind.
fn greedy_breaks(composition: &Composition, pieces: &[Piece<'_>]) -> usize {
    let mut counters = vec![0u32; composition.terms.len()];
    let mut cps = vec![0u32; composition.terms.len()];
    for piece in pieces {
        if let Some(t) = composition
            .terms
            .iter()
            .position(|t| t.kinds.iter().any(|k| k.as_str() == piece.kind))
        {
            counters[t] = counters[t].saturating_add(1);
            cps[t] = cps[t].saturating_add(piece.cp);
        }
    }
    composition
        .terms
        .iter()
        .enumerate()
        .filter(|(t, term)| {
            term.max_counters.is_some_and(|max| counters[*t] > max)
                || term.max_cp.is_some_and(|max| cps[*t] > max)
        })
        .count()
}

fn search(
    composition: &Composition,
    pieces: &[Piece<'_>],
    next: usize,
    counters: &mut [u32],
    cps: &mut [u32],
    budget: &mut u32,
) -> bool {
    let Some(piece) = pieces.get(next) else {
        return true;
    };
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    for (t, term) in composition.terms.iter().enumerate() {
        if !term.kinds.iter().any(|k| k.as_str() == piece.kind) {
            continue;
        }
        let count = counters[t] + 1;
        let cp = cps[t].saturating_add(piece.cp);
        if term.max_counters.is_some_and(|max| count > max)
            || term.max_cp.is_some_and(|max| cp > max)
        {
            continue;
        }
        counters[t] = count;
        cps[t] = cp;
        let found = search(composition, pieces, next + 1, counters, cps, budget);
        counters[t] -= 1;
        cps[t] -= piece.cp;
        if found {
            return true;
        }
    }
    false
}

/// The limits a composition breaks when each piece takes the first term naming its kind.
fn broken_limits(ctx: &Ctx<'_>, composition: &Composition, pieces: &[Piece<'_>]) -> Vec<String> {
    let mut counters = vec![0u32; composition.terms.len()];
    let mut cps = vec![0u32; composition.terms.len()];
    let mut kinds: Vec<Vec<&str>> = vec![Vec::new(); composition.terms.len()];
    for piece in pieces {
        if let Some(t) = composition
            .terms
            .iter()
            .position(|t| t.kinds.iter().any(|k| k.as_str() == piece.kind))
        {
            counters[t] += 1;
            cps[t] = cps[t].saturating_add(piece.cp);
            if !kinds[t].contains(&piece.kind) {
                kinds[t].push(piece.kind);
            }
        }
    }
    let mut broken = Vec::new();
    for (t, term) in composition.terms.iter().enumerate() {
        let what = describe_kinds(ctx, &kinds[t], " and ");
        if let Some(max) = term.max_cp
            && cps[t] > max
        {
            broken.push(format!("{} CP of {what}, at most {max}", cps[t]));
        }
        if let Some(max) = term.max_counters
            && counters[t] > max
        {
            let noun = if counters[t] == 1 {
                "counter"
            } else {
                "counters"
            };
            broken.push(format!("{} {noun} of {what}, at most {max}", counters[t]));
        }
    }
    broken
}

fn describe_kinds(ctx: &Ctx<'_>, kinds: &[&str], join: &str) -> String {
    let names: Vec<String> = kinds.iter().map(|k| ctx.kind_name(k)).collect();
    names.join(join)
}

/// The message for an illegal stack, and its code (E0301 a limit broken, E0302 a mix no
/// composition allows).
fn describe(ctx: &Ctx<'_>, pieces: &[Piece<'_>]) -> (Code, String) {
    let mut kinds: Vec<&str> = Vec::new();
    for piece in pieces {
        if !kinds.contains(&piece.kind) {
            kinds.push(piece.kind);
        }
    }
    let compositions = &ctx.scenario.rules.stacking.compositions;
    let covering = compositions.iter().filter(|c| {
        kinds.iter().all(|kind| {
            c.terms
                .iter()
                .any(|t| t.kinds.iter().any(|k| k.as_str() == *kind))
        })
    });
    let best = covering
        .map(|c| broken_limits(ctx, c, pieces))
        .filter(|broken| !broken.is_empty())
        .min_by_key(Vec::len);
    match best {
        Some(broken) => (Code::E0301, broken.join(", ")),
        None => {
            let text = match kinds.split_first() {
                Some((first, rest)) if !rest.is_empty() => format!(
                    "{} with {}: no allowed stack mixes them",
                    ctx.kind_name(first),
                    describe_kinds(ctx, rest, " and ")
                ),
                _ => format!(
                    "{} counters of {}: no allowed stack holds them",
                    pieces.len(),
                    describe_kinds(ctx, &kinds, " and ")
                ),
            };
            (Code::E0302, text)
        }
    }
}

fn allowed_stacks(ctx: &Ctx<'_>) -> String {
    let names: Vec<&str> = ctx
        .scenario
        .rules
        .stacking
        .compositions
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    if names.is_empty() {
        "no stack is allowed (rules.stacking.compositions is empty)".into()
    } else {
        format!("allowed stacks: {}", names.join("; "))
    }
}

/// Checks one group of pieces; `place` is how messages name it (`hex 1518`).
fn check_group(
    ctx: &mut Ctx<'_>,
    code_override: Option<Code>,
    place: &str,
    hex: &str,
    pieces: &[Piece<'_>],
) {
    if pieces.len() < 2 {
        return;
    }
    if ctx
        .scenario
        .rules
        .stacking
        .compositions
        .iter()
        .any(|c| fits(c, pieces))
    {
        return;
    }
    let (code, text) = describe(ctx, pieces);
    let code = code_override.unwrap_or(code);
    let Some((last, others)) = pieces.split_last() else {
        return;
    };
    let mut d = Diagnostic::new(code, SCENARIO, last.pointer(), format!("{place}: {text}"))
        .help(format!(
            "move `{}` or another counter elsewhere ({}{})",
            last.id,
            ctx.numbers()
                .stacking
                .as_deref()
                .map_or_else(String::new, |n| format!(
                    "{}; ",
                    crate::context::rule_ref(n)
                )),
            allowed_stacks(ctx)
        ))
        .hex(hex)
        .subject(last.id);
    let (named, unnamed) = others.split_at(others.len().min(MAX_RELATED));
    d.related
        .reserve_exact(named.len() + usize::from(!unnamed.is_empty()));
    for other in named {
        let cp = if other.cp > 0 {
            format!(", {} CP", other.cp)
        } else {
            String::new()
        };
        d = d.related(
            Related::new(
                SCENARIO,
                other.pointer(),
                format!(
                    "`{}` ({}{cp}) is also here",
                    other.id,
                    ctx.kind_name(other.kind)
                ),
            )
            .hex(hex)
            .subject(other.id),
        );
    }
    if let Some(next) = unnamed.first() {
        d = d.related(
            Related::new(
                SCENARIO,
                next.pointer(),
                format!(
                    "and {} more counters are here, from `{}` on",
                    unnamed.len(),
                    next.id
                ),
            )
            .hex(hex),
        );
    }
    ctx.push(d);
}

/// A hex of the map, or a hex name when there is no map to place it on.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key<'a> {
    Index(HexIndex),
    Name(&'a str),
}

fn key_of<'h>(ctx: &Ctx<'_>, hex: &'h HexName) -> Option<Key<'h>> {
    match ctx.lookup(hex) {
        Some(index) => Some(Key::Index(index)),
        None if ctx.map.is_some() => None, // off the map: E0503 / E0507
        None => Some(Key::Name(hex.as_str())),
    }
}

pub(crate) fn stacking(ctx: &mut Ctx<'_>) {
    opposing(ctx);
    let s = ctx.scenario;
    // A composition naming a kind that does not exist (E0204 says so once) may have meant any
    // kind: which stacks the rules allow is not known, and no stack is judged by them.
    if s.rules.stacking.compositions.iter().any(|c| {
        c.terms
            .iter()
            .flat_map(|t| &t.kinds)
            .any(|k| ctx.kind(k.as_str()).is_none())
    }) {
        return;
    }
    // Set-up stacks, grouped by side and hex (stacking is between friendly units, 3, allies'
    // included; opposing counters in one hex are E0304), in file order so the last unit placed
    // is the last piece.
    // Each piece with its (side, hex), grouped below by a stable sort (no table of lists: a
    // list allocated for every hex of a big battle was a fifth of this check, issue 23).
    type Placed<'p> = ((usize, Key<'p>), &'p HexName, Piece<'p>);
    let mut placed: Vec<Placed<'_>> =
        Vec::with_capacity(s.armies.iter().map(|a| a.units.len()).sum());
    let mut arrivals: Vec<(usize, u32, Key<'_>)> = Vec::new();
    let mut arriving: HashMap<(usize, u32, Key<'_>), (&HexName, Vec<Piece<'_>>)> = HashMap::new();
    let stacked = s.rules.stacking.reinforcements == ReinforcementEntry::Stacked;
    for (a, army) in s.armies.iter().enumerate() {
        for (u, unit) in army.units.iter().enumerate() {
            let Some(kind) = ctx.kind(unit.kind.as_str()) else {
                continue;
            };
            if !kind.stacks() {
                continue;
            }
            let cp = u32::from(unit.cp.unwrap_or(0));
            if let Some(hex) = unit.placement.hex() {
                let Some(key) = key_of(ctx, hex) else {
                    continue;
                };
                let piece = Piece {
                    kind: unit.kind.as_str(),
                    cp,
                    id: unit.id.as_str(),
                    at: (a, u, false),
                    placement: &unit.placement,
                };
                placed.push(((ctx.side_key(a), key), hex, piece));
            } else if let Placement::Reinforcement { turn, entry } = &unit.placement
                && stacked
                && let [hex] = entry.as_slice()
            {
                let Some(key) = key_of(ctx, hex) else {
                    continue;
                };
                let piece = Piece {
                    kind: unit.kind.as_str(),
                    cp,
                    id: unit.id.as_str(),
                    at: (a, u, true),
                    placement: &unit.placement,
                };
                let key = (ctx.side_key(a), *turn, key);
                arriving
                    .entry(key.clone())
                    .or_insert_with(|| {
                        arrivals.push(key);
                        (hex, Vec::new())
                    })
                    .1
                    .push(piece);
            }
        }
    }
    // Stable: each stack's pieces stay in file order; the stacks are then taken in the order
    // of their first piece.
    placed.sort_by(|x, y| x.0.cmp(&y.0));
    let mut stacks: Vec<&[Placed<'_>]> = placed
        .chunk_by(|x, y| x.0 == y.0)
        .filter(|stack| stack.len() > 1)
        .collect();
    stacks.sort_by_key(|stack| stack.first().map(|(_, _, p)| (p.at.0, p.at.1)));
    for stack in stacks {
        let Some(&(_, hex, _)) = stack.first() else {
            continue;
        };
        let pieces: Vec<Piece<'_>> = stack.iter().map(|(_, _, p)| p.clone()).collect();
        check_group(ctx, None, &format!("hex {hex}"), hex.as_str(), &pieces);
    }
    for key in arrivals {
        if let Some((hex, pieces)) = arriving.get(&key)
            && pieces.len() > 1
        {
            let place = format!("turn {}, entry hex {hex}, arriving together", key.1);
            check_group(ctx, Some(Code::E0303), &place, hex.as_str(), pieces);
        }
    }
}

/// Opposing counters never share a hex (E0304): stacking is between friendly units (3), no
/// move may enter a hex held by the enemy (Fontenoy 7.3, Denain 7), an artillery counter is
/// destroyed with the infantry stacked with it (Denain 10.4) and retreats must be free of
/// enemy units (11.6). Every placed counter counts: units of every kind (the baggage too),
/// line leaders and commanders in chief. One diagnostic per hex, at the first counter (in file
/// order) of an army other than the hex's first counter's; related: the other armies' counters
/// there.
fn opposing(ctx: &mut Ctx<'_>) {
    // Each placed counter with its hex, grouped by a stable sort; hexes of one counter
    // dropped; the others taken in the order of their first counter.
    let mut placed: Vec<(Key<'_>, usize, &HexName)> = Vec::with_capacity(ctx.counters.len());
    for (i, counter) in ctx.counters.iter().enumerate() {
        let Some(hex) = counter.placement().hex() else {
            continue;
        };
        let Some(key) = key_of(ctx, hex) else {
            continue;
        };
        placed.push((key, i, hex));
    }
    placed.sort_by(|x, y| x.0.cmp(&y.0));
    let mut shared: Vec<&[(Key<'_>, usize, &HexName)]> = placed
        .chunk_by(|x, y| x.0 == y.0)
        .filter(|counters| counters.len() > 1)
        .collect();
    shared.sort_by_key(|counters| counters.first().map(|(_, i, _)| *i));
    let mut found = ctx.out.beside();
    for counters in shared {
        let Some(&(_, _, hex)) = counters.first() else {
            continue;
        };
        // File order: armies in order, each army's commanders, line leaders, then units.
        let mut members: Vec<usize> = counters.iter().map(|(_, i, _)| *i).collect();
        members.sort_by_key(|&i| (ctx.counters[i].army(), i));
        let Some(&first) = members.first() else {
            continue;
        };
        let first_army = ctx.counters[first].army();
        // Allies (`sides`) share hexes: only another side's counter is an enemy.
        let Some(&second) = members
            .iter()
            .find(|&&i| !ctx.allied(ctx.counters[i].army(), first_army))
        else {
            continue;
        };
        let subject = &ctx.counters[second];
        let enemies: Vec<&str> = members
            .iter()
            .filter(|&&i| !ctx.allied(ctx.counters[i].army(), subject.army()))
            .map(|&i| ctx.counters[i].id().as_str())
            .collect();
        let mut d = Diagnostic::new(
            Code::E0304,
            SCENARIO,
            subject.hex_pointer(),
            format!(
                "hex {hex}: {} `{}` of army `{}` stands with {} of army `{}`",
                subject.role().noun(),
                subject.id(),
                ctx.army_id(subject.army()),
                describe_ids(&enemies),
                ctx.army_id(first_army)
            ),
        )
        .help(format!(
            "move `{}` or the enemy elsewhere: only friendly counters stack{}, and no move \
             may enter a hex the enemy holds{}",
            subject.id(),
            ctx.cite(&ctx.numbers().stacking),
            ctx.cite(&ctx.numbers().enemy_hexes)
        ))
        .hex(hex.as_str())
        .subject(subject.id().as_str());
        let named = enemies.len().min(MAX_RELATED);
        d.related
            .reserve_exact(named + usize::from(enemies.len() > named));
        let mut listed = 0;
        for &i in &members {
            let other = &ctx.counters[i];
            if ctx.allied(other.army(), subject.army()) {
                continue;
            }
            if listed == named {
                d = d.related(
                    Related::new(
                        SCENARIO,
                        other.hex_pointer(),
                        format!(
                            "and {} more enemy counters are here, from `{}` on",
                            enemies.len() - named,
                            other.id()
                        ),
                    )
                    .hex(hex.as_str()),
                );
                break;
            }
            listed += 1;
            d = d.related(
                Related::new(
                    SCENARIO,
                    other.hex_pointer(),
                    format!(
                        "{} `{}` of army `{}` is here",
                        other.role().noun(),
                        other.id(),
                        ctx.army_id(other.army())
                    ),
                )
                .hex(hex.as_str())
                .subject(other.id().as_str()),
            );
        }
        found.push(d);
    }
    ctx.out.merge(found);
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b`, `c` and 3 more ``.
fn describe_ids(ids: &[&str]) -> String {
    let mut quoted: Vec<String> = ids.iter().take(3).map(|id| format!("`{id}`")).collect();
    let more = ids.len().saturating_sub(3);
    if more > 0 {
        return format!("{} and {more} more", quoted.join(", "));
    }
    match quoted.pop() {
        None => "no counter".into(),
        Some(last) if quoted.is_empty() => last,
        Some(last) => format!("{} and {last}", quoted.join(", ")),
    }
}
