//! References of the sides, the victory conditions and the counter layout: the armies, sides,
//! leaders, units and unit kinds they name exist (E0205, E0206, E0207); an army fights on one
//! side only (E0209).

use foldhash::{HashMap, HashMapExt};

use bataille_schema::scenario::VictoryCondition;

use super::{LazyIds, known_list};
use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::Diagnostic;

pub(super) fn victory(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let v = &s.victory;
    let known_armies = || known_list(s.armies.iter().map(|a| a.id.as_str()));
    let counters = std::sync::Arc::clone(&ctx.counters);
    let (units, leaders) = (LazyIds::units(&counters), LazyIds::leaders(&counters));
    for (i, objective) in v.unit_objectives.iter().enumerate() {
        if !units.contains(objective.unit.as_str()) {
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
            ctx.push_about(
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
                hold.army.is_refused(),
            );
        }
    }
    for (i, loss) in v.leader_losses.iter().enumerate() {
        if !leaders.contains(loss.leader.as_str()) {
            ctx.push_about(
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
                loss.leader.is_refused(),
            );
        }
        if !ctx.armies.contains_key(loss.winner.as_str()) {
            ctx.push_about(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/victory/leader_losses/{i}/winner"),
                    format!("winner `{}` is not an army of the scenario", loss.winner),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
                loss.winner.is_refused(),
            );
        }
    }
}

/// Sides, victory conditions and the counter layout name armies, sides and unit kinds that
/// exist; an army fights on one side only.
pub(crate) fn sides_and_layout(ctx: &mut Ctx<'_>) {
    let s = ctx.scenario;
    let known_armies = || known_list(s.armies.iter().map(|a| a.id.as_str()));
    let mut found = ctx.out.beside();
    let mut side_of: HashMap<&str, &str> = HashMap::new();
    for (i, side) in s.sides.iter().enumerate() {
        for (k, army) in side.armies.iter().enumerate() {
            let pointer = format!("/sides/{i}/armies/{k}");
            if !ctx.armies.contains_key(army.as_str()) {
                found.push_about(
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
                    army.is_refused(),
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
            found.push_about(
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
                side.is_refused(),
            );
        }
    }
    let layout = &s.rules.counters;
    for (i, marker) in layout.markers.iter().enumerate() {
        if let Some(army) = &marker.army
            && !ctx.armies.contains_key(army.as_str())
        {
            found.push_about(
                Diagnostic::new(
                    Code::E0206,
                    SCENARIO,
                    format!("/rules/counters/markers/{i}/army"),
                    format!("a marker names army `{army}`, which does not exist"),
                )
                .help(format!("name an army of the scenario ({})", known_armies())),
                army.is_refused(),
            );
        }
    }
    for kind in layout.back_by_kind.keys() {
        if ctx.kind(kind.as_str()).is_none() {
            found.push_about(
                Diagnostic::new(
                    Code::E0204,
                    SCENARIO,
                    crate::context::key_pointer("/rules/counters/back_by_kind", kind.as_str()),
                    format!("the counters' `back_by_kind` names unit kind `{kind}`, which does not exist"),
                )
                .help("name a kind of `rules.unit_kinds`"),
                kind.is_refused(),
            );
        }
    }
    ctx.out.merge(found);
}
