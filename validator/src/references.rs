//! References: ids unique across the scenario, and every corps, zone, leader, army, unit and
//! unit kind that is named exists (zones' owners and `shared_with`, fire restrictions, the
//! leaders' movement classes, miniatures conversions too); the sides, victory conditions and
//! counter layout in [`sides`].

mod sides;

pub(crate) use sides::sides_and_layout;

use foldhash::HashSet;

use bataille_schema::scenario::{ItemAt, Owner, Placement, Zone};
use bataille_schema::{Id, Scenario};

use crate::codes::Code;
use crate::context::{Counter, CounterRole, Ctx, SCENARIO, key_pointer};
use crate::diagnostic::{Diagnostic, Related};
use crate::sink::Sink;

/// Every id of the scenario lives in one namespace (armies, commanders, corps, line leaders,
/// units, zones): a repeat is reported at the second definition, with the first as related.
pub(crate) fn unique_ids(s: &Scenario, out: &mut Sink<'_>) {
    // Each id with its item's number in `ItemAt::all`'s order, sorted by id: a repeat is next
    // to its first definition. 16 bytes an item, where a table of first definitions by id was
    // 40 bytes a slot (200,000 ids made an 11 MB table, held beside the schema pass and the
    // other checks: 10.7 MB of a file of 158,000 of the shortest units' 57 MB, issue 19).
    let mut ids: Vec<(&Id, u32)> = ItemAt::all(s)
        .zip(0u32..)
        .map(|((_, id), n)| (id, n))
        .collect();
    ids.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()).then(a.1.cmp(&b.1)));
    // (the repeat, its first definition), by number, in the order of the file's items.
    let mut numbered = Vec::new();
    for group in ids.chunk_by(|a, b| a.0 == b.0) {
        if let Some((&(_, earliest), rest)) = group.split_first() {
            numbered.extend(rest.iter().map(|&(_, n)| (n, earliest)));
        }
    }
    drop(ids);
    numbered.sort_unstable();
    // The first definitions' addresses, found in one more walk of the items.
    let mut earliest: Vec<(u32, ItemAt)> = numbered
        .iter()
        .map(|&(_, e)| (e, ItemAt::Army(0)))
        .collect();
    earliest.sort_unstable_by_key(|&(n, _)| n);
    earliest.dedup_by_key(|&mut (n, _)| n);
    let mut pairs = Vec::with_capacity(numbered.len());
    let mut repeats = numbered.iter().peekable();
    let mut firsts = 0;
    for ((at, id), n) in ItemAt::all(s).zip(0u32..) {
        if let Some(first) = earliest.get_mut(firsts).filter(|(e, _)| *e == n) {
            first.1 = at;
            firsts += 1;
        }
        if let Some(&(_, e)) = repeats.next_if(|&&(r, _)| r == n) {
            pairs.push((at, e, id));
        }
    }
    let pairs: Vec<_> = pairs
        .into_iter()
        .filter_map(|(at, e, id)| {
            let i = earliest.binary_search_by_key(&e, |&(n, _)| n).ok()?;
            Some((at, earliest.get(i)?.1, id))
        })
        .collect();
    for (at, earlier, id) in pairs {
        // One copy of the id, shared by the diagnostic and its related place.
        let subject: std::sync::Arc<str> = id.as_str().into();
        let id = id.as_str();
        let d = Diagnostic::new(
            Code::E0201,
            SCENARIO,
            at.pointer(),
            format!(
                "id `{id}` of this {} is already the id of a {}",
                at.what(),
                earlier.what()
            ),
        )
        .help("give every army, commander, corps, line leader, unit and zone its own id")
        .subject(subject.clone())
        .related(
            Related::new(SCENARIO, earlier.pointer(), first_defined_as(earlier)).subject(subject),
        );
        out.push(d);
    }
}

/// `first defined here, as a …`: a fixed text per kind of item, not a copy in each of
/// 100,000 related places.
fn first_defined_as(at: ItemAt) -> &'static str {
    match at {
        ItemAt::Army(_) => "first defined here, as a army",
        ItemAt::Commander(..) => "first defined here, as a commander",
        ItemAt::Corps(..) => "first defined here, as a corps",
        ItemAt::Leader(..) => "first defined here, as a line leader",
        ItemAt::Unit(..) => "first defined here, as a unit",
        ItemAt::Zone(_) => "first defined here, as a zone",
    }
}

fn known_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return "none are defined".into();
    }
    let shown: Vec<String> = names.iter().take(12).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("known: {} and {more} more", shown.join(", "))
    } else {
        format!("known: {}", shown.join(", "))
    }
}

/// Unit kinds, corps, zones, armies, leaders and units that are named must exist.
/// Every name the scenario uses names something it has: one check per kind of name.
pub(crate) fn references(ctx: &mut Ctx<'_>) {
    unit_kinds_named(ctx);
    armies_named(ctx);
    corps_named(ctx);
    zones_named(ctx);
    zone_owners(ctx);
    sides::victory(ctx);
    conversions(ctx);
}

fn known_corps(ctx: &Ctx<'_>) -> String {
    known_list(
        ctx.scenario
            .armies
            .iter()
            .flat_map(|a| a.corps.iter().map(|c| c.id.as_str())),
    )
}

fn known_armies(ctx: &Ctx<'_>) -> String {
    known_list(ctx.scenario.armies.iter().map(|a| a.id.as_str()))
}

fn known_kinds(ctx: &Ctx<'_>) -> String {
    known_list(ctx.scenario.rules.unit_kinds.keys().map(|k| k.as_str()))
}

/// E0204: a unit's kind, a stacking term's kinds and the leaders' movement classes (9: "a line
/// leader moves as a cavalry unit": a kind's id or a kind's `moves_as`) are unit kinds.
fn unit_kinds_named(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let kinds = &s.rules.unit_kinds;
    for (c, composition) in s.rules.stacking.compositions.iter().enumerate() {
        for (t, term) in composition.terms.iter().enumerate() {
            for (k, kind) in term.kinds.iter().enumerate() {
                if !kinds.contains_key(kind) {
                    let d = Diagnostic::new(
                        Code::E0204,
                        SCENARIO,
                        format!("/rules/stacking/compositions/{c}/terms/{t}/kinds/{k}"),
                        format!("stacking composition `{}` names unit kind `{kind}`, which is not in rules.unit_kinds", composition.name),
                    )
                    .help(format!("name a unit kind of rules.unit_kinds ({})", known_kinds(ctx)));
                    ctx.push_about(d, kind.is_refused());
                }
            }
        }
    }
    for (a, army) in s.armies.iter().enumerate() {
        for (u, unit) in army.units.iter().enumerate() {
            if !kinds.contains_key(&unit.kind) {
                let d = Diagnostic::new(
                    Code::E0204,
                    SCENARIO,
                    format!("/armies/{a}/units/{u}/kind"),
                    format!(
                        "unit `{}` is of kind `{}`, which is not in rules.unit_kinds",
                        unit.id, unit.kind
                    ),
                )
                .help(format!(
                    "use a kind of rules.unit_kinds ({}) or add this one",
                    known_kinds(ctx)
                ))
                .subject(unit.id.as_str());
                ctx.push_about(d, unit.kind.is_refused());
            }
        }
    }
    let command = &s.rules.command;
    for (field, class) in [
        ("leaders_move_as", &command.leaders_move_as),
        ("commanders_move_as", &command.commanders_move_as),
    ] {
        let Some(class) = class else { continue };
        let known =
            kinds.contains_key(class) || kinds.values().any(|k| k.moves_as.as_ref() == Some(class));
        if !known {
            let d = Diagnostic::new(
                Code::E0204,
                SCENARIO,
                format!("/rules/command/{field}"),
                format!("{field} names movement class `{class}`, which is no unit kind and no kind's moves_as"),
            )
            .help(format!(
                "name a unit kind of rules.unit_kinds ({}){}",
                known_kinds(ctx),
                ctx.cite(&ctx.numbers().line_leaders)
            ));
            ctx.push_about(d, class.is_refused());
        }
    }
}

/// E0206: a unit kind's `armies` and a fire restriction (Denain 11.1) name armies of the
/// scenario (zone owners: [`zone_owners`]).
fn armies_named(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    for (kind_id, kind) in &s.rules.unit_kinds {
        for (i, army) in kind.armies.iter().enumerate() {
            if !ctx.armies.contains_key(army.as_str()) {
                let pointer = format!(
                    "{}/armies/{i}",
                    key_pointer("/rules/unit_kinds", kind_id.as_str())
                );
                let d = Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    pointer,
                    format!(
                        "unit kind `{kind_id}` is restricted to army `{army}`, which does not exist"
                    ),
                )
                .help(format!(
                    "name an army of the scenario ({})",
                    known_armies(ctx)
                ));
                ctx.push_about(d, army.is_refused());
            }
        }
    }
    for (f, restriction) in s.rules.fire_restrictions.iter().enumerate() {
        if !ctx.armies.contains_key(restriction.army.as_str()) {
            let d = Diagnostic::new(
                Code::E0206,
                SCENARIO,
                format!("/rules/fire_restrictions/{f}/army"),
                format!(
                    "a fire restriction names army `{}`, which does not exist",
                    restriction.army
                ),
            )
            .help(format!(
                "name an army of the scenario ({})",
                known_armies(ctx)
            ));
            ctx.push_about(d, restriction.army.is_refused());
        }
    }
}

/// E0202: a commander's `commands`, a unit's `corps` and a fire restriction's `except_corps`
/// (a corps of the restricted army) name corps of the scenario. A commander naming another
/// army's corps is the corps group's E0405.
fn corps_named(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    for (a, army) in s.armies.iter().enumerate() {
        for (c, commander) in army.commanders.iter().enumerate() {
            for (k, corps) in commander.commands.iter().enumerate() {
                if !ctx.corps.contains_key(corps.as_str()) {
                    let d = Diagnostic::new(
                        Code::E0202,
                        SCENARIO,
                        format!("/armies/{a}/commanders/{c}/commands/{k}"),
                        format!(
                            "commander `{}` commands corps `{corps}`, which does not exist",
                            commander.id
                        ),
                    )
                    .help(format!(
                        "name a corps of army `{}` ({})",
                        army.id,
                        known_corps(ctx)
                    ))
                    .subject(commander.id.as_str());
                    ctx.push_about(d, corps.is_refused());
                }
            }
        }
        for (u, unit) in army.units.iter().enumerate() {
            if let Some(corps) = &unit.corps
                && !ctx.corps.contains_key(corps.as_str())
            {
                let d = Diagnostic::new(
                    Code::E0202,
                    SCENARIO,
                    format!("/armies/{a}/units/{u}/corps"),
                    format!(
                        "unit `{}` belongs to corps `{corps}`, which does not exist",
                        unit.id
                    ),
                )
                .help(format!(
                    "name a corps of army `{}` ({})",
                    army.id,
                    known_corps(ctx)
                ))
                .subject(unit.id.as_str());
                ctx.push_about(d, corps.is_refused());
            }
        }
    }
    for (f, restriction) in s.rules.fire_restrictions.iter().enumerate() {
        let army = ctx.armies.get(restriction.army.as_str()).copied();
        for (k, corps) in restriction.except_corps.iter().enumerate() {
            let pointer = format!("/rules/fire_restrictions/{f}/except_corps/{k}");
            let d = match ctx.corps.get(corps.as_str()).copied() {
                None => Diagnostic::new(
                    Code::E0202,
                    SCENARIO,
                    pointer,
                    format!("a fire restriction exempts corps `{corps}`, which does not exist"),
                )
                .help(format!(
                    "name a corps of army `{}` ({})",
                    restriction.army,
                    known_corps(ctx)
                )),
                Some((other, _)) if army.is_some_and(|a| a != other) => Diagnostic::new(
                    Code::E0202,
                    SCENARIO,
                    pointer,
                    format!(
                        "a fire restriction on army `{}` exempts corps `{corps}` of army `{}`",
                        restriction.army,
                        ctx.army_id(other)
                    ),
                )
                .help(format!("name a corps of army `{}`", restriction.army)),
                Some(_) => continue,
            };
            ctx.push_about(d, corps.is_refused());
        }
    }
}

/// E0203: a counter placed `Free` names a zone of the scenario.
fn zones_named(ctx: &mut Ctx<'_>) {
    let known = || known_list(ctx.scenario.zones.iter().map(|z| z.id.as_str()));
    for counter in ctx.counters.iter() {
        if let Placement::Free { zone, .. } = counter.placement()
            && !ctx.zones.contains_key(zone.as_str())
        {
            ctx.out.push_about(
                Diagnostic::new(
                    Code::E0203,
                    SCENARIO,
                    format!("{}/placement/Free/zone", counter.pointer()),
                    format!(
                        "{} `{}` is placed free in zone `{zone}`, which does not exist",
                        counter.role().noun(),
                        counter.id()
                    ),
                )
                .help(format!("name a zone of the scenario's zones ({})", known()))
                .subject(counter.id().as_str()),
                zone.is_refused(),
            );
        }
    }
}

/// E0206 and E0202: a zone's owner and each army or corps it is `shared_with` exist.
fn zone_owners(ctx: &mut Ctx<'_>) {
    for (z, zone) in ctx.scenario.zones.iter().enumerate() {
        owner(
            ctx,
            zone,
            format!("/zones/{z}/owner"),
            &zone.owner,
            "belongs to",
        );
        for (k, shared) in zone.shared_with.iter().enumerate() {
            let pointer = format!("/zones/{z}/shared_with/{k}");
            owner(ctx, zone, pointer, shared, "is shared with");
        }
    }
}

/// The one owner check: an army (E0206) or a corps (E0202) of the scenario.
fn owner(ctx: &mut Ctx<'_>, zone: &Zone, pointer: String, owner: &Owner, verb: &str) {
    let d = match owner {
        Owner::Army(army) if !ctx.armies.contains_key(army.as_str()) => Diagnostic::new(
            Code::E0206,
            SCENARIO,
            format!("{pointer}/Army"),
            format!(
                "zone `{}` {verb} army `{army}`, which does not exist",
                zone.id
            ),
        )
        .help(format!(
            "name an army of the scenario ({})",
            known_armies(ctx)
        )),
        Owner::Corps(corps) if !ctx.corps.contains_key(corps.as_str()) => Diagnostic::new(
            Code::E0202,
            SCENARIO,
            format!("{pointer}/Corps"),
            format!(
                "zone `{}` {verb} corps `{corps}`, which does not exist",
                zone.id
            ),
        )
        .help(format!(
            "name a corps of the scenario ({})",
            known_corps(ctx)
        )),
        _ => return,
    };
    let refused = match owner {
        Owner::Army(id) | Owner::Corps(id) => id.is_refused(),
    };
    ctx.push_about(d.subject(zone.id.as_str()), refused);
}

/// The ids of one role of counter (units; or commanders and line leaders), hashed when a
/// check first asks: only victory conditions and conversion rules name them, and a big
/// battle's 5,000 units were hashed on every validation (issue 23).
pub(super) struct LazyIds<'c, 'a> {
    counters: &'c [Counter<'a>],
    wanted: fn(CounterRole) -> bool,
    set: std::cell::OnceCell<HashSet<&'a str>>,
}

impl<'c, 'a> LazyIds<'c, 'a> {
    pub(super) fn units(counters: &'c [Counter<'a>]) -> Self {
        Self::new(counters, |role| role == CounterRole::Unit)
    }

    pub(super) fn leaders(counters: &'c [Counter<'a>]) -> Self {
        Self::new(counters, |role| role != CounterRole::Unit)
    }

    fn new(counters: &'c [Counter<'a>], wanted: fn(CounterRole) -> bool) -> Self {
        Self {
            counters,
            wanted,
            set: std::cell::OnceCell::new(),
        }
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        self.set
            .get_or_init(|| {
                self.counters
                    .iter()
                    .filter(|c| (self.wanted)(c.role()))
                    .map(|c| c.id().as_str())
                    .collect()
            })
            .contains(id)
    }
}

/// The miniatures conversion rules (`miniatures[].convert[]`) name unit kinds, units, corps and
/// armies: a name that is none of them makes the rule reach fewer counters than written, in silence.
fn conversions(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let counters = std::sync::Arc::clone(&ctx.counters);
    let units = LazyIds::units(&counters);
    for (m, used) in s.miniatures.iter().enumerate() {
        for (r, rule) in used.convert.iter().enumerate() {
            let base = format!("/miniatures/{m}/convert/{r}");
            let rule_name = format!("conversion rule {} of `{}`", r + 1, used.system);
            for (i, kind) in rule.kinds.iter().enumerate() {
                if ctx.kind(kind.as_str()).is_none() {
                    let help = format!(
                        "name a unit kind of rules.unit_kinds ({}), or take it off the list",
                        known_kinds(ctx)
                    );
                    ctx.push_about(
                        Diagnostic::new(
                            Code::E0204,
                            SCENARIO,
                            format!("{base}/kinds/{i}"),
                            format!("{rule_name} names unit kind `{kind}`, which is not in rules.unit_kinds"),
                        )
                        .help(help),
                        kind.is_refused(),
                    );
                }
            }
            for (i, id) in rule.units.iter().enumerate() {
                if !units.contains(id.as_str()) {
                    ctx.push_about(
                        Diagnostic::new(
                            Code::E0207,
                            SCENARIO,
                            format!("{base}/units/{i}"),
                            format!("{rule_name} names unit `{id}`, which does not exist"),
                        )
                        .subject(id.to_string())
                        .help("name a unit of one of the armies, or take it off the list"),
                        id.is_refused(),
                    );
                }
            }
            for (i, id) in rule.corps.iter().enumerate() {
                if !ctx.corps.contains_key(id.as_str()) {
                    ctx.push_about(
                        Diagnostic::new(
                            Code::E0202,
                            SCENARIO,
                            format!("{base}/corps/{i}"),
                            format!("{rule_name} names corps `{id}`, which does not exist"),
                        )
                        .help("name a corps of one of the armies, or take it off the list"),
                        id.is_refused(),
                    );
                }
            }
            for (i, id) in rule.armies.iter().enumerate() {
                if !ctx.armies.contains_key(id.as_str()) {
                    ctx.push_about(
                        Diagnostic::new(
                            Code::E0206,
                            SCENARIO,
                            format!("{base}/armies/{i}"),
                            format!("{rule_name} names army `{id}`, which does not exist"),
                        )
                        .help("name an army of the scenario, or take it off the list"),
                        id.is_refused(),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed texts say what the formatted one said, for every kind of item (the reports'
    /// bytes stay the same).
    #[test]
    fn first_defined_as_reads_as_the_item_it_names() {
        for at in [
            ItemAt::Army(0),
            ItemAt::Commander(0, 1),
            ItemAt::Corps(0, 1),
            ItemAt::Leader(0, 1),
            ItemAt::Unit(0, 1),
            ItemAt::Zone(1),
        ] {
            assert_eq!(
                first_defined_as(at),
                format!("first defined here, as a {}", at.what())
            );
        }
    }
}
