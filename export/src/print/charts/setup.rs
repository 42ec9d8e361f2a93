//! The set-up: where each army's counters stand at the start, and the reinforcement schedule.

use std::collections::{BTreeMap, HashMap};

use bataille_schema::scenario::Placement;
use bataille_schema::{Map, Scenario};

use super::Flow;
use crate::counters::counters;
use crate::language::fill;
use crate::print::words::Words;

pub(super) fn setup(flow: &mut Flow, scenario: &Scenario, map: &Map, w: &Words) {
    flow.heading(&fill(w.setup, &[("title", &scenario.title)]), 6.0);
    let zone_names: HashMap<&str, &str> = scenario
        .zones
        .iter()
        .map(|z| (z.id.as_str(), z.name.as_str()))
        .collect();
    let all = counters(scenario, map);
    for army in &scenario.armies {
        flow.heading(&army.name, 4.2);
        for counter in all.iter().filter(|c| c.army == Some(army.id.as_str())) {
            let Some(placement) = counter.placement else {
                continue;
            };
            let facing = match &counter.kind {
                crate::counters::CounterKind::Unit { unit, .. } => unit
                    .facing
                    .map(|f| format!(", {}", fill(w.facing, &[("facing", w.side(f))])))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let line = match placement {
                Placement::Hex(hex) => format!("{} — {}{facing}", hex.as_str(), counter.name),
                Placement::Free { zone, at } => format!(
                    "{} — {}{facing} ({})",
                    at.as_ref().map_or(w.anywhere, |h| h.as_str()),
                    counter.name,
                    fill(
                        w.free_in,
                        &[(
                            "zone",
                            zone_names
                                .get(zone.as_str())
                                .copied()
                                .unwrap_or(zone.as_str())
                        )]
                    )
                ),
                Placement::Reinforcement { .. } | Placement::Unplaced => continue,
            };
            flow.paragraph(&line, 2.9, 3.0);
        }
    }
    let mut by_turn: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for counter in &all {
        if let Some(Placement::Reinforcement { turn, entry }) = counter.placement {
            let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
            let army = scenario
                .armies
                .iter()
                .find(|a| Some(a.id.as_str()) == counter.army)
                .map_or("", |a| a.name.as_str());
            by_turn.entry(*turn).or_default().push(fill(
                w.enters,
                &[
                    ("name", &counter.name),
                    ("army", army),
                    ("hexes", &entry.join(w.or)),
                ],
            ));
        }
    }
    if !by_turn.is_empty() {
        flow.heading(w.reinforcements, 4.8);
        for (turn, lines) in &by_turn {
            flow.heading(
                &fill(
                    w.turn,
                    &[
                        ("turn", &turn.to_string()),
                        ("time", &crate::counters::turn_time(scenario, *turn)),
                    ],
                ),
                3.6,
            );
            for line in lines {
                flow.paragraph(line, 2.9, 3.0);
            }
        }
    }
}
