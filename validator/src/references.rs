//! References: ids unique across the scenario, and every corps, zone, leader, army, unit and
//! unit kind that is named exists (zones' owners and `shared_with`, fire restrictions, the
//! leaders' movement classes too); suppression lists name known codes.

use std::collections::HashMap;

use bataille_schema::DocumentKind;
use bataille_schema::scenario::{ItemAt, Owner, Placement, VictoryCondition};

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO, key_pointer};
use crate::diagnostic::{Diagnostic, Related};

/// Every id of the scenario lives in one namespace (armies, commanders, corps, line leaders,
/// units, zones): a repeat is reported at the second definition, with the first as related.
pub(crate) fn unique_ids(ctx: &mut Ctx<'_>) {
    // Where an id is defined, by the scenario's one address for its items (pointers are
    // written only for repeats).
    let s = ctx.scenario;
    let defined: Vec<(&str, ItemAt)> = ItemAt::all(s).map(|(at, id)| (id.as_str(), at)).collect();
    let mut first: HashMap<&str, ItemAt> = HashMap::with_capacity(defined.len());
    for (id, at) in defined {
        match first.get(id) {
            Some(&earlier) => {
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
                .subject(id)
                .related(
                    Related::new(
                        SCENARIO,
                        earlier.pointer(),
                        format!("first defined here, as a {}", earlier.what()),
                    )
                    .subject(id),
                );
                ctx.push(d);
            }
            None => {
                first.insert(id, at);
            }
        }
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
pub(crate) fn references(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let kinds = &s.rules.unit_kinds;
    let known_corps = || {
        known_list(
            s.armies
                .iter()
                .flat_map(|a| a.corps.iter().map(|c| c.id.as_str())),
        )
    };
    let known_armies = || known_list(s.armies.iter().map(|a| a.id.as_str()));
    let known_kinds = || known_list(kinds.keys().map(|k| k.as_str()));
    let known_zones = || known_list(s.zones.iter().map(|z| z.id.as_str()));

    for (kind_id, kind) in kinds {
        for (i, army) in kind.armies.iter().enumerate() {
            if !ctx.armies.contains_key(army.as_str()) {
                let pointer = format!(
                    "{}/armies/{i}",
                    key_pointer("/rules/unit_kinds", kind_id.as_str())
                );
                ctx.push(
                    Diagnostic::new(
                        Code::E0206,
                        SCENARIO,
                        pointer,
                        format!("unit kind `{kind_id}` is restricted to army `{army}`, which does not exist"),
                    )
                    .help(format!("name an army of the scenario ({})", known_armies())),
                );
            }
        }
    }
    for (c, composition) in s.rules.stacking.compositions.iter().enumerate() {
        for (t, term) in composition.terms.iter().enumerate() {
            for (k, kind) in term.kinds.iter().enumerate() {
                if !kinds.contains_key(kind) {
                    ctx.push(
                        Diagnostic::new(
                            Code::E0204,
                            SCENARIO,
                            format!("/rules/stacking/compositions/{c}/terms/{t}/kinds/{k}"),
                            format!("stacking composition `{}` names unit kind `{kind}`, which is not in rules.unit_kinds", composition.name),
                        )
                        .help(format!("name a unit kind of rules.unit_kinds ({})", known_kinds())),
                    );
                }
            }
        }
    }

    for (a, army) in s.armies.iter().enumerate() {
        for (c, commander) in army.commanders.iter().enumerate() {
            for (k, corps) in commander.commands.iter().enumerate() {
                let pointer = format!("/armies/{a}/commanders/{c}/commands/{k}");
                match ctx.corps.get(corps.as_str()).copied() {
                    None => ctx.push(
                        Diagnostic::new(
                            Code::E0202,
                            SCENARIO,
                            pointer,
                            format!("commander `{}` commands corps `{corps}`, which does not exist", commander.id),
                        )
                        .help(format!("name a corps of army `{}` ({})", army.id, known_corps()))
                        .subject(commander.id.as_str()),
                    ),
                    // 8.1: each commander in chief commands corps of his own army.
                    Some((other, oc)) if other != a => ctx.push(
                        Diagnostic::new(
                            Code::E0405,
                            SCENARIO,
                            pointer,
                            format!(
                                "commander `{}` of army `{}` commands corps `{corps}` of army `{}`",
                                commander.id, army.id, ctx.army_id(other)
                            ),
                        )
                        .help(format!(
                            "a commander in chief commands only corps of his own army{}; remove it from the list",
                            ctx.cite(&ctx.numbers().commanders)
                        ))
                        .subject(commander.id.as_str())
                        .related(Related::new(SCENARIO, format!("/armies/{other}/corps/{oc}/id"), "the corps is defined here")),
                    ),
                    Some(_) => {}
                }
            }
        }
        for (u, unit) in army.units.iter().enumerate() {
            let base = || format!("/armies/{a}/units/{u}");
            if !kinds.contains_key(&unit.kind) {
                ctx.push(
                    Diagnostic::new(
                        Code::E0204,
                        SCENARIO,
                        format!("{}/kind", base()),
                        format!(
                            "unit `{}` is of kind `{}`, which is not in rules.unit_kinds",
                            unit.id, unit.kind
                        ),
                    )
                    .help(format!(
                        "use a kind of rules.unit_kinds ({}) or add this one",
                        known_kinds()
                    ))
                    .subject(unit.id.as_str()),
                );
            }
            if let Some(corps) = &unit.corps
                && !ctx.corps.contains_key(corps.as_str())
            {
                ctx.push(
                    Diagnostic::new(
                        Code::E0202,
                        SCENARIO,
                        format!("{}/corps", base()),
                        format!(
                            "unit `{}` belongs to corps `{corps}`, which does not exist",
                            unit.id
                        ),
                    )
                    .help(format!(
                        "name a corps of army `{}` ({})",
                        army.id,
                        known_corps()
                    ))
                    .subject(unit.id.as_str()),
                );
            }
        }
    }

    for counter in &ctx.counters {
        if let Placement::Free { zone, .. } = counter.placement
            && !ctx.zones.contains_key(zone.as_str())
        {
            ctx.out.push(
                Diagnostic::new(
                    Code::E0203,
                    SCENARIO,
                    format!("{}/placement/Free/zone", counter.pointer),
                    format!(
                        "{} `{}` is placed free in zone `{zone}`, which does not exist",
                        counter.role.noun(),
                        counter.id
                    ),
                )
                .help(format!(
                    "name a zone of the scenario's zones ({})",
                    known_zones()
                ))
                .subject(counter.id.as_str()),
            );
        }
    }

    for (z, zone) in s.zones.iter().enumerate() {
        match &zone.owner {
            Owner::Army(army) if !ctx.armies.contains_key(army.as_str()) => ctx.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/zones/{z}/owner/Army"),
                    format!(
                        "zone `{}` belongs to army `{army}`, which does not exist",
                        zone.id
                    ),
                )
                .help(format!("name an army of the scenario ({})", known_armies()))
                .subject(zone.id.as_str()),
            ),
            Owner::Corps(corps) if !ctx.corps.contains_key(corps.as_str()) => ctx.push(
                Diagnostic::new(
                    Code::E0202,
                    SCENARIO,
                    format!("/zones/{z}/owner/Corps"),
                    format!(
                        "zone `{}` belongs to corps `{corps}`, which does not exist",
                        zone.id
                    ),
                )
                .help(format!("name a corps of the scenario ({})", known_corps()))
                .subject(zone.id.as_str()),
            ),
            _ => {}
        }
        for (k, owner) in zone.shared_with.iter().enumerate() {
            let pointer = format!("/zones/{z}/shared_with/{k}");
            match owner {
                Owner::Army(army) if !ctx.armies.contains_key(army.as_str()) => ctx.push(
                    Diagnostic::new(
                        Code::E0206,
                        SCENARIO,
                        format!("{pointer}/Army"),
                        format!(
                            "zone `{}` is shared with army `{army}`, which does not exist",
                            zone.id
                        ),
                    )
                    .help(format!("name an army of the scenario ({})", known_armies()))
                    .subject(zone.id.as_str()),
                ),
                Owner::Corps(corps) if !ctx.corps.contains_key(corps.as_str()) => ctx.push(
                    Diagnostic::new(
                        Code::E0202,
                        SCENARIO,
                        format!("{pointer}/Corps"),
                        format!(
                            "zone `{}` is shared with corps `{corps}`, which does not exist",
                            zone.id
                        ),
                    )
                    .help(format!("name a corps of the scenario ({})", known_corps()))
                    .subject(zone.id.as_str()),
                ),
                _ => {}
            }
        }
    }

    // Fire restrictions (Denain 11.1) name an army and corps of it.
    for (f, restriction) in s.rules.fire_restrictions.iter().enumerate() {
        let base = format!("/rules/fire_restrictions/{f}");
        let army = ctx.armies.get(restriction.army.as_str()).copied();
        if army.is_none() {
            ctx.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("{base}/army"),
                    format!(
                        "a fire restriction names army `{}`, which does not exist",
                        restriction.army
                    ),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
            );
        }
        for (k, corps) in restriction.except_corps.iter().enumerate() {
            match ctx.corps.get(corps.as_str()).copied() {
                None => ctx.push(
                    Diagnostic::new(
                        Code::E0202,
                        SCENARIO,
                        format!("{base}/except_corps/{k}"),
                        format!("a fire restriction exempts corps `{corps}`, which does not exist"),
                    )
                    .help(format!(
                        "name a corps of army `{}` ({})",
                        restriction.army,
                        known_corps()
                    )),
                ),
                Some((other, _)) if army.is_some_and(|a| a != other) => ctx.push(
                    Diagnostic::new(
                        Code::E0202,
                        SCENARIO,
                        format!("{base}/except_corps/{k}"),
                        format!(
                            "a fire restriction on army `{}` exempts corps `{corps}` of army `{}`",
                            restriction.army,
                            ctx.army_id(other)
                        ),
                    )
                    .help(format!("name a corps of army `{}`", restriction.army)),
                ),
                Some(_) => {}
            }
        }
    }

    // The leaders' movement classes (9: "a line leader moves as a cavalry unit") are classes
    // the unit kinds use: a kind's id or a kind's `moves_as`.
    let command = &s.rules.command;
    for (field, class) in [
        ("leaders_move_as", &command.leaders_move_as),
        ("commanders_move_as", &command.commanders_move_as),
    ] {
        let Some(class) = class else { continue };
        let known =
            kinds.contains_key(class) || kinds.values().any(|k| k.moves_as.as_ref() == Some(class));
        if !known {
            ctx.push(
                Diagnostic::new(
                    Code::E0204,
                    SCENARIO,
                    format!("/rules/command/{field}"),
                    format!("{field} names movement class `{class}`, which is no unit kind and no kind's moves_as"),
                )
                .help(format!(
                    "name a unit kind of rules.unit_kinds ({}){}",
                    known_kinds(),
                    ctx.cite(&ctx.numbers().line_leaders)
                )),
            );
        }
    }

    victory(ctx);
    conversions(ctx);
}

/// The miniatures conversion rules (`miniatures[].convert[]`) name units, corps and armies: a
/// name that is none of them makes the rule reach fewer counters than written, in silence.
fn conversions(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let units: HashMap<&str, ()> = s
        .armies
        .iter()
        .flat_map(|a| a.units.iter().map(|u| (u.id.as_str(), ())))
        .collect();
    for (m, used) in s.miniatures.iter().enumerate() {
        for (r, rule) in used.convert.iter().enumerate() {
            let base = format!("/miniatures/{m}/convert/{r}");
            let rule_name = format!("conversion rule {} of `{}`", r + 1, used.system);
            for (i, id) in rule.units.iter().enumerate() {
                if !units.contains_key(id.as_str()) {
                    ctx.push(
                        Diagnostic::new(
                            Code::E0207,
                            SCENARIO,
                            format!("{base}/units/{i}"),
                            format!("{rule_name} names unit `{id}`, which does not exist"),
                        )
                        .subject(id.to_string())
                        .help("name a unit of one of the armies, or take it off the list"),
                    );
                }
            }
            for (i, id) in rule.corps.iter().enumerate() {
                if !ctx.corps.contains_key(id.as_str()) {
                    ctx.push(
                        Diagnostic::new(
                            Code::E0202,
                            SCENARIO,
                            format!("{base}/corps/{i}"),
                            format!("{rule_name} names corps `{id}`, which does not exist"),
                        )
                        .help("name a corps of one of the armies, or take it off the list"),
                    );
                }
            }
            for (i, id) in rule.armies.iter().enumerate() {
                if !ctx.armies.contains_key(id.as_str()) {
                    ctx.push(
                        Diagnostic::new(
                            Code::E0206,
                            SCENARIO,
                            format!("{base}/armies/{i}"),
                            format!("{rule_name} names army `{id}`, which does not exist"),
                        )
                        .help("name an army of the scenario, or take it off the list"),
                    );
                }
            }
        }
    }
}

fn victory(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let v = &s.victory;
    let known_armies = || known_list(s.armies.iter().map(|a| a.id.as_str()));
    let units: HashMap<&str, ()> = s
        .armies
        .iter()
        .flat_map(|a| a.units.iter().map(|u| (u.id.as_str(), ())))
        .collect();
    let leaders: HashMap<&str, ()> = s
        .armies
        .iter()
        .flat_map(|a| {
            a.commanders.iter().map(|c| c.id.as_str()).chain(
                a.corps
                    .iter()
                    .filter_map(|c| c.leader.as_ref().map(|l| l.id.as_str())),
            )
        })
        .map(|id| (id, ()))
        .collect();
    for (i, objective) in v.unit_objectives.iter().enumerate() {
        if !units.contains_key(objective.unit.as_str()) {
            ctx.push(
                Diagnostic::new(
                    Code::E0207,
                    SCENARIO,
                    format!("/victory/unit_objectives/{i}/unit"),
                    format!("victory unit `{}` does not exist", objective.unit),
                )
                .subject(objective.unit.to_string())
                .help(format!(
                    "name a unit of one of the armies{}",
                    ctx.cite(&ctx.numbers().victory)
                )),
            );
        }
    }
    for (i, hold) in v.holds.iter().enumerate() {
        if !ctx.armies.contains_key(hold.army.as_str()) {
            ctx.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/victory/holds/{i}/army"),
                    format!(
                        "victory condition `{}` names army `{}`, which does not exist",
                        hold.result, hold.army
                    ),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
            );
        }
    }
    for (i, loss) in v.leader_losses.iter().enumerate() {
        if !leaders.contains_key(loss.leader.as_str()) {
            ctx.push(
                Diagnostic::new(
                    Code::E0205,
                    SCENARIO,
                    format!("/victory/leader_losses/{i}/leader"),
                    format!("leader `{}` does not exist", loss.leader),
                )
                .help(format!(
                    "name a commander in chief or line leader of the scenario{}",
                    ctx.cite(&ctx.numbers().leader_deaths)
                )),
            );
        }
        if !ctx.armies.contains_key(loss.winner.as_str()) {
            ctx.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/victory/leader_losses/{i}/winner"),
                    format!("winner `{}` is not an army of the scenario", loss.winner),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
            );
        }
    }
}

/// Sides, victory conditions and the counter layout name armies, sides and unit kinds that
/// exist; an army fights on one side only.
pub(crate) fn sides_and_layout(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let known_armies = || known_list(s.armies.iter().map(|a| a.id.as_str()));
    let mut found = Vec::new();
    let mut side_of: HashMap<&str, &str> = HashMap::new();
    for (i, side) in s.sides.iter().enumerate() {
        for (k, army) in side.armies.iter().enumerate() {
            let pointer = format!("/sides/{i}/armies/{k}");
            if !ctx.armies.contains_key(army.as_str()) {
                found.push(
                    Diagnostic::new(
                        Code::E0206,
                        SCENARIO,
                        pointer,
                        format!(
                            "side `{}` lists army `{army}`, which does not exist",
                            side.id
                        ),
                    )
                    .help(format!("name an army of the scenario ({})", known_armies())),
                );
            } else if let Some(other) = side_of.insert(army.as_str(), side.id.as_str())
                && other != side.id.as_str()
            {
                found.push(
                    Diagnostic::new(
                        Code::E0209,
                        SCENARIO,
                        pointer,
                        format!(
                            "army `{army}` is on side `{other}` and on side `{}`",
                            side.id
                        ),
                    )
                    .help("list each army on one side only")
                    .subject(army.as_str()),
                );
            }
        }
    }
    let known_sides = || {
        known_list(
            s.sides
                .iter()
                .map(|side| side.id.as_str())
                .chain(s.armies.iter().map(|a| a.id.as_str())),
        )
    };
    for (i, condition) in s.victory.conditions.iter().enumerate() {
        let side = condition.side();
        let is_side = s.sides.iter().any(|x| &x.id == side);
        if !is_side && !ctx.armies.contains_key(side.as_str()) {
            let variant = match condition {
                VictoryCondition::Exit { .. } => "Exit",
                VictoryCondition::FirstToDestroy { .. } => "FirstToDestroy",
                VictoryCondition::LossThreshold { .. } => "LossThreshold",
                VictoryCondition::PointsPerEnemyStrength { .. } => "PointsPerEnemyStrength",
            };
            found.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/victory/conditions/{i}/{variant}/side"),
                    format!(
                        "victory condition names side `{side}`, which is neither a side nor an army"
                    ),
                )
                .help(format!(
                    "name a side or an army of the scenario ({})",
                    known_sides()
                )),
            );
        }
    }
    let layout = &s.rules.counters;
    for (i, marker) in layout.markers.iter().enumerate() {
        if let Some(army) = &marker.army
            && !ctx.armies.contains_key(army.as_str())
        {
            found.push(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/rules/counters/markers/{i}/army"),
                    format!("a marker names army `{army}`, which does not exist"),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
            );
        }
    }
    for kind in layout.back_by_kind.keys() {
        if ctx.kind(kind.as_str()).is_none() {
            found.push(
                Diagnostic::new(
                    Code::E0204,
                    SCENARIO,
                    crate::context::key_pointer("/rules/counters/back_by_kind", kind.as_str()),
                    format!("the counters' `back_by_kind` names unit kind `{kind}`, which does not exist"),
                )
                .help("name a kind of `rules.unit_kinds`"),
            );
        }
    }
    ctx.out.extend(found);
}

/// Suppression lists must name codes that exist, or they silently suppress nothing.
pub(crate) fn allow_lists(ctx: &mut Ctx<'_>) {
    let mut lists: Vec<(String, &[String])> = vec![("/allow".into(), &ctx.scenario.allow)];
    for counter in &ctx.counters {
        lists.push((format!("{}/allow", counter.pointer), counter.allow));
    }
    for (a, army) in ctx.scenario.armies.iter().enumerate() {
        for (c, corps) in army.corps.iter().enumerate() {
            lists.push((format!("/armies/{a}/corps/{c}/allow"), &corps.allow));
        }
    }
    for (pointer, list) in lists {
        for (i, code) in list.iter().enumerate() {
            if code.parse::<Code>().is_err() {
                ctx.push(unknown_code(SCENARIO, format!("{pointer}/{i}"), code));
            }
        }
    }
}

/// W0107 for an `allow` entry that is no code (naming the code that replaced a retired one).
pub(crate) fn unknown_code(document: DocumentKind, pointer: String, code: &str) -> Diagnostic {
    let retired = crate::codes::RETIRED
        .iter()
        .find(|(old, _)| old.eq_ignore_ascii_case(code.trim()));
    match retired {
        Some((_, now)) => Diagnostic::new(
            Code::W0107,
            document,
            pointer,
            format!("`{code}` is a retired code, replaced by {now}, so it allows nothing"),
        )
        .help(format!(
            "allow {} instead",
            now.split(':').next().unwrap_or(now)
        )),
        None => Diagnostic::new(
            Code::W0107,
            document,
            pointer,
            format!("`{code}` is not a diagnostic code, so it allows nothing"),
        )
        .help("write a code of docs/diagnostics.md, such as `W0901`"),
    }
}
