//! Corps membership (rules 1, 5, 8.1, 9): every combat unit in exactly one corps of its own
//! army, one line leader per corps, every corps under a commander in chief of its army, unit
//! kinds fielded only by the armies allowed them.

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::{Diagnostic, Related};

pub(crate) fn corps_membership(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    for (a, army) in s.armies.iter().enumerate() {
        for (u, unit) in army.units.iter().enumerate() {
            let base = || format!("/armies/{a}/units/{u}");
            let Some(kind) = ctx.kind(unit.kind.as_str()) else {
                continue;
            };
            // Fontenoy 10 / games.md: a kind may be restricted to some armies. A restriction
            // naming an army that does not exist (E0206 says so once) may have meant this one:
            // its units are not then each said to be fielded by the wrong army.
            if !kind.armies.is_empty()
                && !kind.armies.contains(&army.id)
                && kind
                    .armies
                    .iter()
                    .all(|a| ctx.armies.contains_key(a.as_str()))
            {
                let allowed: Vec<String> = kind.armies.iter().map(|a| format!("`{a}`")).collect();
                ctx.push(
                    Diagnostic::new(
                        Code::E0406,
                        SCENARIO,
                        format!("{}/kind", base()),
                        format!(
                            "unit `{}` of army `{}` is {}, which only {} may field",
                            unit.id,
                            army.id,
                            ctx.kind_name(unit.kind.as_str()),
                            allowed.join(", ")
                        ),
                    )
                    .help("move the unit to an army allowed the kind, or change its kind or the kind's `armies`")
                    .subject(unit.id.as_str()),
                );
            }
            // A game without corps (`rules.command.corps: false`) asks none of its units.
            if !kind.combat || !s.rules.command.corps && unit.corps.is_none() {
                continue;
            }
            // Rules 1 and 5: every combat unit belongs to one corps of its own army.
            match &unit.corps {
                None => ctx.push(
                    Diagnostic::new(
                        Code::E0401,
                        SCENARIO,
                        base(),
                        format!("combat unit `{}` belongs to no corps", unit.id),
                    )
                    .help(format!(
                        "add `corps: \"…\"` naming a corps of army `{}` ({}every combat unit acts with its corps)",
                        army.id,
                        ctx.cite_prefix(&ctx.numbers().corps)
                    ))
                    .subject(unit.id.as_str()),
                ),
                Some(corps) => {
                    if let Some(&(other, c)) = ctx.corps.get(corps.as_str())
                        && other != a
                    {
                        ctx.push(
                            Diagnostic::new(
                                Code::E0402,
                                SCENARIO,
                                format!("{}/corps", base()),
                                format!(
                                    "unit `{}` of army `{}` belongs to corps `{corps}` of army `{}`",
                                    unit.id,
                                    army.id,
                                    ctx.army_id(other)
                                ),
                            )
                            .help(format!("name a corps of army `{}`, or move the unit to army `{}`", army.id, ctx.army_id(other)))
                            .subject(unit.id.as_str())
                            .related(Related::new(
                                SCENARIO,
                                format!("/armies/{other}/corps/{c}/id"),
                                format!("corps `{corps}` is defined in army `{}` here", ctx.army_id(other)),
                            )),
                        );
                    }
                }
            }
        }
        let command = &s.rules.command;
        // A commander naming a corps that does not exist (E0202 says so once) may have meant
        // any corps of his army: none of them is then said to be commanded by no one.
        let commands_unknown = army
            .commanders
            .iter()
            .flat_map(|commander| &commander.commands)
            .any(|corps| !ctx.corps.contains_key(corps.as_str()));
        for (c, corps) in army.corps.iter().enumerate() {
            // Rule 9: a corps has one line leader, when the game has line leaders.
            if command.line_leaders && corps.leader.is_none() {
                ctx.push(
                    Diagnostic::new(
                        Code::E0403,
                        SCENARIO,
                        format!("/armies/{a}/corps/{c}"),
                        format!("corps `{}` has no line leader", corps.id),
                    )
                    .help(format!(
                        "add `leader: (id: …, name: …, activation: …)` ({}each corps has one line leader)",
                        ctx.cite_prefix(&ctx.numbers().line_leaders)
                    ))
                    .subject(corps.id.as_str()),
                );
            }
            // 8.1: every corps is commanded by at least one commander in chief of its army,
            // when the game has commanders in chief.
            if !command.commanders || commands_unknown {
                continue;
            }
            let commanders_rule = ctx.cite(&ctx.numbers().commanders);
            let commanded = army
                .commanders
                .iter()
                .any(|commander| commander.commands.contains(&corps.id));
            if !commanded {
                let mut d = Diagnostic::new(
                    Code::E0404,
                    SCENARIO,
                    format!("/armies/{a}/corps/{c}/id"),
                    format!(
                        "corps `{}` is commanded by no commander in chief of army `{}`",
                        corps.id, army.id
                    ),
                )
                .help(format!(
                    "add `{}` to the `commands` of a commander of army `{}`{commanders_rule}",
                    corps.id, army.id
                ))
                .subject(corps.id.as_str());
                if army.commanders.is_empty() {
                    d.help = Some(format!(
                        "army `{}` has no commander in chief: add one whose `commands` lists `{}`{commanders_rule}",
                        army.id, corps.id
                    ).into());
                }
                ctx.push(d);
            }
        }
    }
}

/// E0405 (8.1): each commander in chief commands corps of his own army (a corps of no army is
/// the references' E0202).
pub(crate) fn commanders_own_corps(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    for (a, army) in s.armies.iter().enumerate() {
        for (c, commander) in army.commanders.iter().enumerate() {
            for (k, corps) in commander.commands.iter().enumerate() {
                let Some((other, oc)) = ctx.corps.get(corps.as_str()).copied() else {
                    continue;
                };
                if other == a {
                    continue;
                }
                let d = Diagnostic::new(
                    Code::E0405,
                    SCENARIO,
                    format!("/armies/{a}/commanders/{c}/commands/{k}"),
                    format!(
                        "commander `{}` of army `{}` commands corps `{corps}` of army `{}`",
                        commander.id,
                        army.id,
                        ctx.army_id(other)
                    ),
                )
                .help(format!(
                    "a commander in chief commands only corps of his own army{}; remove it from the list",
                    ctx.cite(&ctx.numbers().commanders)
                ))
                .subject(commander.id.as_str())
                .related(Related::new(
                    SCENARIO,
                    format!("/armies/{other}/corps/{oc}/id"),
                    "the corps is defined here",
                ));
                ctx.push(d);
            }
        }
    }
}
