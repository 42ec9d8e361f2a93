//! [`describe`]: what a variant changes, in sentences for the kit's "Variant" page, in the
//! base scenario's language (`words`).

use std::collections::HashMap;

use bataille_schema::Scenario;
use bataille_schema::scenario::{Owner, Placement, VictoryCondition};
use bataille_schema::variant::Variant;

use super::words::{Phrases, phrases};
use crate::language::fill;

fn placement_text(p: &Placement, zones: &HashMap<&str, &str>, w: &Phrases) -> String {
    match p {
        Placement::Unplaced => w.not_placed.to_owned(),
        Placement::Hex(hex) => fill(w.starts_at, &[("hex", hex.as_str())]),
        Placement::Free { zone, at } => {
            let zone = zones.get(zone.as_str()).copied().unwrap_or(zone.as_str());
            match at {
                Some(at) => fill(w.starts_at_free, &[("at", at.as_str()), ("zone", zone)]),
                None => fill(w.starts_free, &[("zone", zone)]),
            }
        }
        Placement::Reinforcement { turn, entry } => {
            let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
            fill(
                w.enters,
                &[("turn", &turn.to_string()), ("entry", &entry.join(w.or))],
            )
        }
    }
}

fn optional<T: std::fmt::Display>(value: Option<T>, w: &Phrases) -> String {
    value.map_or_else(|| w.none.to_owned(), |v| v.to_string())
}

/// `new` beside the published `old`.
fn published(new: &str, old: &str, w: &Phrases) -> String {
    fill(w.published, &[("new", new), ("old", old)])
}

fn condition_text(c: &VictoryCondition, w: &Phrases) -> String {
    match c {
        VictoryCondition::Exit {
            side,
            hexes,
            units,
            strength,
            by_turn,
            result,
        } => {
            let hexes: Vec<&str> = hexes.iter().map(|h| h.as_str()).collect();
            let mut what = Vec::new();
            if let Some(u) = units {
                what.push(fill(w.exit_units, &[("units", &u.to_string())]));
            }
            if let Some(s) = strength {
                what.push(fill(w.exit_strength, &[("strength", &s.to_string())]));
            }
            let by = by_turn.map_or(String::new(), |t| {
                fill(w.by_turn, &[("turn", &t.to_string())])
            });
            fill(
                w.exit,
                &[
                    ("side", side.as_str()),
                    ("what", &what.join(w.or)),
                    ("hexes", &hexes.join(", ")),
                    ("by", &by),
                    ("result", result),
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
                ("side", side.as_str()),
                ("strength", &strength.to_string()),
                ("result", result),
            ],
        ),
        VictoryCondition::LossThreshold {
            side,
            strength,
            effect,
        } => fill(
            w.loss_threshold,
            &[
                ("side", side.as_str()),
                ("strength", &strength.to_string()),
                ("effect", effect),
            ],
        ),
        VictoryCondition::PointsPerEnemyStrength { side, points } => fill(
            w.points_per_strength,
            &[("side", side.as_str()), ("points", &points.to_string())],
        ),
    }
}

/// A reinforcement's placement after a change of its `turn` or `entry` alone.
fn arrival(
    placement: &Placement,
    turn: Option<u32>,
    entry: Option<&Vec<bataille_schema::HexName>>,
) -> Placement {
    let mut p = placement.clone();
    if let Placement::Reinforcement { turn: t, entry: e } = &mut p {
        if let Some(turn) = turn {
            *t = turn;
        }
        if let Some(entry) = entry {
            *e = entry.clone().into();
        }
    }
    p
}

fn in_command(always: bool, w: &Phrases) -> String {
    if always {
        w.always_in_command
    } else {
        w.no_longer_always_in_command
    }
    .to_owned()
}

/// What a variant changes, one sentence a change, with the published value beside the new one,
/// in the base scenario's language (`Scenario::language`; English when it names none the kit
/// knows), as the kit's own words are.
pub fn describe(variant: &Variant, base: &Scenario) -> Vec<String> {
    let w = phrases(base.language.as_deref());
    let mut out = Vec::new();
    let zones: HashMap<&str, &str> = base
        .zones
        .iter()
        .chain(&variant.add_zones)
        .map(|z| (z.id.as_str(), z.name.as_str()))
        .collect();
    let units: HashMap<&str, &bataille_schema::scenario::Unit> = base
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .map(|u| (u.id.as_str(), u))
        .collect();
    let mut leaders: HashMap<&str, (&str, &Placement)> = HashMap::new();
    for army in &base.armies {
        for c in &army.commanders {
            leaders.insert(c.id.as_str(), (c.name.as_str(), &c.placement));
        }
        for corps in &army.corps {
            if let Some(l) = &corps.leader {
                leaders.insert(l.id.as_str(), (l.name.as_str(), &l.placement));
            }
        }
    }
    let place = |p: &Placement| placement_text(p, &zones, w);
    if let Some(turns) = variant.turns {
        out.push(fill(
            w.turns,
            &[
                ("turns", &turns.to_string()),
                ("old", &base.turns.to_string()),
            ],
        ));
    }
    for (id, change) in &variant.units {
        let Some(unit) = units.get(id.as_str()) else {
            continue;
        };
        let mut parts = Vec::new();
        if let Some(p) = &change.placement {
            parts.push(published(&place(p), &place(&unit.placement), w));
        }
        if change.turn.is_some() || change.entry.is_some() {
            let p = arrival(&unit.placement, change.turn, change.entry.as_ref());
            parts.push(published(&place(&p), &place(&unit.placement), w));
        }
        for (what, new, old) in [
            (w.cp, change.cp, unit.cp),
            (w.mp, change.mp, unit.mp),
            (w.morale, change.morale, unit.morale),
        ] {
            if let Some(new) = new {
                parts.push(published(&format!("{what} {new}"), &optional(old, w), w));
            }
        }
        if let Some(f) = change.fire_modifier {
            parts.push(published(
                &fill(w.fire_modifier, &[("value", &format!("{f:+}"))]),
                &optional(unit.fire_modifier, w),
                w,
            ));
        }
        if let Some(corps) = &change.corps {
            parts.push(fill(w.in_corps, &[("corps", corps.as_str())]));
        }
        if let Some(always) = change.always_in_command {
            parts.push(in_command(always, w));
        }
        for (system, ratings) in &change.ratings {
            for (name, value) in ratings {
                parts.push(format!("{system} {name} {value:?}"));
            }
        }
        if !parts.is_empty() {
            out.push(fill(
                w.counter,
                &[("name", &unit.name), ("parts", &parts.join("; "))],
            ));
        }
    }
    for (id, change) in &variant.leaders {
        let Some((name, placement)) = leaders.get(id.as_str()) else {
            continue;
        };
        let mut parts = Vec::new();
        if let Some(n) = &change.name {
            parts.push(fill(w.replaced_by, &[("name", n)]));
        }
        if let Some(p) = &change.placement {
            parts.push(published(&place(p), &place(placement), w));
        }
        if change.turn.is_some() || change.entry.is_some() {
            let p = arrival(placement, change.turn, change.entry.as_ref());
            parts.push(published(&place(&p), &place(placement), w));
        }
        if let Some(a) = change.activation {
            parts.push(fill(w.activation, &[("value", &a.to_string())]));
        }
        if let Some(r) = change.radius_hexes {
            parts.push(fill(w.radius, &[("value", &r.to_string())]));
        }
        if let Some(always) = change.always_in_command {
            parts.push(in_command(always, w));
        }
        for (system, ratings) in &change.ratings {
            for (rating, value) in ratings {
                parts.push(format!("{system} {rating} {value:?}"));
            }
        }
        if !parts.is_empty() {
            out.push(fill(
                w.counter,
                &[("name", name), ("parts", &parts.join("; "))],
            ));
        }
    }
    for add in &variant.add_units {
        let army = base
            .armies
            .iter()
            .find(|a| a.id == add.army)
            .map_or(add.army.as_str(), |a| a.name.as_str());
        out.push(fill(
            w.added,
            &[
                ("army", army),
                ("name", &add.unit.name),
                ("kind", add.unit.kind.as_str()),
                ("placement", &place(&add.unit.placement)),
            ],
        ));
    }
    for id in &variant.remove_units {
        if let Some(unit) = units.get(id.as_str()) {
            out.push(fill(w.removed, &[("name", &unit.name)]));
        }
    }
    for (id, change) in &variant.zones {
        let name = change
            .name
            .as_deref()
            .or_else(|| zones.get(id.as_str()).copied())
            .unwrap_or(id.as_str());
        if let Some(hexes) = &change.hexes {
            let hexes: Vec<&str> = hexes.texts().collect();
            out.push(fill(
                w.zone_hexes,
                &[("name", name), ("hexes", &hexes.join(", "))],
            ));
        } else {
            out.push(fill(w.zone_changed, &[("name", name)]));
        }
    }
    for zone in &variant.add_zones {
        let hexes: Vec<&str> = zone.hexes.texts().collect();
        let owner = match &zone.owner {
            Owner::Army(a) | Owner::Corps(a) => a.as_str(),
        };
        out.push(fill(
            w.new_zone,
            &[
                ("name", &zone.name),
                ("owner", owner),
                ("hexes", &hexes.join(", ")),
            ],
        ));
    }
    let victory = &variant.victory;
    for c in &victory.conditions {
        out.push(fill(w.victory, &[("text", &condition_text(c, w))]));
    }
    for key in &victory.remove_conditions {
        out.push(fill(
            w.no_condition,
            &[("kind", key.kind.as_str()), ("side", key.side.as_str())],
        ));
    }
    for (hex, o) in &victory.objectives {
        out.push(fill(
            w.victory_hex,
            &[
                ("hex", hex.as_str()),
                ("name", &o.name),
                ("points", &o.points.to_string()),
            ],
        ));
    }
    for hex in &victory.remove_objectives {
        out.push(fill(w.victory_hex_removed, &[("hex", hex.as_str())]));
    }
    if let Some(p) = victory.points_per_enemy_cp_eliminated {
        out.push(fill(
            w.per_cp,
            &[
                ("points", &p.to_string()),
                (
                    "old",
                    &base.victory.points_per_enemy_cp_eliminated.to_string(),
                ),
            ],
        ));
    }
    if let Some(p) = victory.points_per_enemy_unit_routed {
        out.push(fill(
            w.per_routed,
            &[
                ("points", &p.to_string()),
                (
                    "old",
                    &base.victory.points_per_enemy_unit_routed.to_string(),
                ),
            ],
        ));
    }
    if victory.holds.is_some() {
        out.push(w.holds.to_owned());
    }
    if let Some(list) = &victory.unit_objectives {
        let items: Vec<String> = list
            .iter()
            .map(|o| {
                let name = units
                    .get(o.unit.as_str())
                    .map_or(o.unit.as_str(), |u| u.name.as_str());
                fill(
                    w.unit_points,
                    &[("name", name), ("points", &o.points.to_string())],
                )
            })
            .collect();
        out.push(if items.is_empty() {
            w.no_unit_worth.to_owned()
        } else {
            fill(w.units_worth, &[("list", &items.join(", "))])
        });
    }
    if let Some(list) = &victory.leader_losses {
        let items: Vec<String> = list
            .iter()
            .map(|l| {
                let name = leaders
                    .get(l.leader.as_str())
                    .map_or(l.leader.as_str(), |(n, _)| n);
                fill(
                    w.leader_lost,
                    &[("name", name), ("winner", l.winner.as_str())],
                )
            })
            .collect();
        out.push(if items.is_empty() {
            w.no_leader_loss.to_owned()
        } else {
            fill(w.leader_losses, &[("list", &items.join("; "))])
        });
    }
    if let Some(notes) = &victory.notes {
        out.push(fill(w.victory_notes, &[("notes", notes)]));
    }
    let command = &variant.rules.command;
    if let Some(r) = command.commander_radius_hexes {
        out.push(fill(
            w.commander_radius,
            &[
                ("radius", &r.to_string()),
                (
                    "old",
                    &base.rules.command.commander_radius_hexes.to_string(),
                ),
            ],
        ));
    }
    if let Some(r) = command.leader_radius_hexes {
        out.push(fill(
            w.leader_radius,
            &[
                ("radius", &r.to_string()),
                ("old", &base.rules.command.leader_radius_hexes.to_string()),
            ],
        ));
    }
    if let Some(b) = command.blocked_by_enemy_front_and_flank {
        out.push(if b { w.blocked } else { w.not_blocked }.to_owned());
    }
    if let Some(l) = command.lines_of_battle {
        out.push(if l { w.lines } else { w.no_lines }.to_owned());
    }
    if let Some(r) = variant.rules.reinforcements {
        let how = |e: bataille_schema::scenario::ReinforcementEntry| match e {
            bataille_schema::scenario::ReinforcementEntry::Column => w.in_column,
            bataille_schema::scenario::ReinforcementEntry::Stacked => w.stacked,
        };
        out.push(fill(
            w.reinforcements,
            &[
                ("how", how(r)),
                ("old", how(base.rules.stacking.reinforcements)),
            ],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The victory changes a variant may make each have their sentence on the kit's "Variant"
    /// page (a removed condition, the units and leaders worth victory replaced).
    #[test]
    fn removed_conditions_and_victory_lists_are_described() {
        use bataille_schema::scenario::{LeaderLoss, UnitObjective};
        use bataille_schema::variant::{ConditionKey, ConditionKind};
        let text = include_str!("../../../scenarios/denain-1712.ron");
        let base = bataille_schema::io::parse_scenario(&bataille_schema::source::SourceFile::new(
            "denain-1712.ron",
            text.to_owned(),
        ))
        .expect("Denain");
        let mut v = Variant::default();
        v.victory.remove_conditions = vec![ConditionKey {
            kind: ConditionKind::Exit,
            side: "allies".into(),
        }];
        v.victory.unit_objectives = Some(vec![UnitObjective {
            unit: "al-douglas".into(),
            points: 5,
        }]);
        v.victory.leader_losses = Some(vec![LeaderLoss {
            leader: "fr-villars".into(),
            winner: "allies".into(),
        }]);
        // Denain is in French: so are the sentences of its variants' changes.
        assert_eq!(base.language.as_deref(), Some("fr"));
        let out = describe(&v, &base);
        for expected in [
            "Victoire : plus de condition Exit pour allies.",
            "Victoire : unités valant des points : Douglas 5 points.",
            "Victoire : Maréchal de Villars perdu, allies gagne.",
        ] {
            assert!(
                out.iter().any(|s| s == expected),
                "{expected} not in {out:?}"
            );
        }
        // With no language (or one the kit does not know), English.
        let mut english = base.clone();
        english.language = None;
        v.turns = Some(12);
        let out = describe(&v, &english);
        for expected in [
            "The game lasts 12 turns (published: 10).",
            "Victory: no Exit condition for allies.",
            "Victory: units worth points: Douglas 5 points.",
            "Victory: Maréchal de Villars lost, allies wins.",
        ] {
            assert!(
                out.iter().any(|s| s == expected),
                "{expected} not in {out:?}"
            );
        }
    }
}
