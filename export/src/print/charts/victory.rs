//! The victory conditions: each side's objectives, points and sudden-death conditions.

use bataille_schema::scenario::VictoryCondition;
use bataille_schema::{Map, Scenario};

use super::Flow;
use crate::counters::counters;
use crate::language::fill;
use crate::print::words::Words;

pub(super) fn victory(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
    let all = counters(scenario, map);
    let v = &scenario.victory;
    let name_of = |id: &str| {
        all.iter()
            .find(|c| c.id == id)
            .map_or_else(|| id.to_owned(), |c| c.name.clone())
    };
    let army_name = |id: &str| {
        scenario
            .armies
            .iter()
            .find(|a| a.id.as_str() == id)
            .map_or_else(|| id.to_owned(), |a| a.name.clone())
    };
    flow.heading(w.victory, 6.0);
    for objective in &v.objectives {
        flow.paragraph(
            &fill(
                w.points,
                &[
                    ("name", &objective.name),
                    ("hex", objective.hex.as_str()),
                    ("points", &objective.points.to_string()),
                ],
            ),
            3.0,
            3.0,
        );
    }
    for objective in &v.unit_objectives {
        flow.paragraph(
            &fill(
                w.unit_objective,
                &[
                    ("name", &name_of(objective.unit.as_str())),
                    ("points", &objective.points.to_string()),
                ],
            ),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_cp_eliminated > 0 {
        flow.paragraph(
            &fill(
                w.per_cp,
                &[("points", &v.points_per_enemy_cp_eliminated.to_string())],
            ),
            3.0,
            3.0,
        );
    }
    if v.points_per_enemy_unit_routed > 0 {
        flow.paragraph(
            &fill(
                w.per_rout,
                &[("points", &v.points_per_enemy_unit_routed.to_string())],
            ),
            3.0,
            3.0,
        );
    }
    for hold in &v.holds {
        let hexes: Vec<&str> = hold.hexes.iter().map(|h| h.as_str()).collect();
        // The result opens the line: a capital ("Marginal Allied victory: …").
        let mut chars = hold.result.chars();
        let result: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let army = army_name(hold.army.as_str());
        let hexes = hexes.join(", ");
        let line = match hold.at_least {
            Some(n) => fill(
                w.holds_some,
                &[
                    ("army", &army),
                    ("n", &n.to_string()),
                    ("hexes", &hexes),
                    ("result", &result),
                ],
            ),
            None => fill(
                w.holds_all,
                &[("army", &army), ("hexes", &hexes), ("result", &result)],
            ),
        };
        flow.paragraph(&line, 3.0, 3.0);
    }
    let side_name = |id: &str| {
        scenario
            .sides
            .iter()
            .find(|s| s.id.as_str() == id)
            .map_or_else(|| army_name(id), |s| s.name.clone())
    };
    let capital = |text: &str| {
        let mut chars = text.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    for condition in &v.conditions {
        let line = match condition {
            VictoryCondition::Exit {
                side,
                hexes,
                units,
                strength,
                by_turn,
                result,
            } => {
                let hexes: Vec<&str> = hexes.iter().map(|h| h.as_str()).collect();
                let by = by_turn.map_or_else(String::new, |t| {
                    fill(w.by_turn, &[("turn", &t.to_string())])
                });
                let (template, n) = match (units, strength) {
                    (Some(n), _) => (w.exit_units, *n),
                    (None, Some(n)) => (w.exit_strength, *n),
                    (None, None) => (w.exit_units, 1),
                };
                fill(
                    template,
                    &[
                        ("result", &capital(result)),
                        ("n", &n.to_string()),
                        ("side", &side_name(side.as_str())),
                        ("hexes", &hexes.join(", ")),
                        ("by", &by),
                    ],
                )
            }
            VictoryCondition::FirstToDestroy {
                side,
                strength,
                result,
            } => fill(
                w.first_to_destroy,
                &[
                    ("result", &capital(result)),
                    ("side", &side_name(side.as_str())),
                    ("n", &strength.to_string()),
                ],
            ),
            VictoryCondition::LossThreshold {
                side,
                strength,
                effect,
            } => fill(
                w.loss_threshold,
                &[
                    ("side", &side_name(side.as_str())),
                    ("n", &strength.to_string()),
                    ("effect", effect),
                ],
            ),
            VictoryCondition::PointsPerEnemyStrength { side, points } => fill(
                w.per_strength,
                &[
                    ("side", &side_name(side.as_str())),
                    ("points", &points.to_string()),
                ],
            ),
        };
        flow.paragraph(&line, 3.0, 3.0);
    }
    for loss in &v.leader_losses {
        flow.paragraph(
            &fill(
                w.leader_loss,
                &[
                    ("leader", &name_of(loss.leader.as_str())),
                    ("winner", &army_name(loss.winner.as_str())),
                ],
            ),
            3.0,
            3.0,
        );
    }
}
