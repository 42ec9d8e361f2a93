//! The module's trays: the counters (a tab per army, a panel per corps, the replacements, the
//! markers) and the reinforcements (a panel per turn, and a variant's own when its schedule
//! differs).

use std::collections::BTreeMap;

use bataille_schema::scenario::Placement;

use super::{Body, Module, Xml, open_panel};
use crate::counters::Counter;
use crate::vassal::image_stem;

/// Opens a tray (VASSAL's `PieceWindow` holding one `TabWidget`); closed by [`close_tray`].
fn open_tray(body: &mut Xml, name: &str, tooltip: &str) {
    body.open(
        "VASSAL.build.module.PieceWindow",
        &[
            ("name", name.to_owned()),
            ("text", name.to_owned()),
            ("tooltip", tooltip.to_owned()),
            ("hidden", "false".to_owned()),
            ("scale", "1.0".to_owned()),
            ("hotkey", String::new()),
            ("icon", String::new()),
        ],
    );
    body.open(
        "VASSAL.build.widget.TabWidget",
        &[("entryName", name.to_owned())],
    );
}

fn close_tray(body: &mut Xml) {
    body.close("VASSAL.build.widget.TabWidget");
    body.close("VASSAL.build.module.PieceWindow");
}

/// The counter tray: a tab per army, a panel per corps (its commanders first), the army's
/// replacement counters; the markers.
pub(super) fn counter_tray(body: &mut Body, m: &Module<'_>) {
    open_tray(&mut body.xml, "Counters", "Counter tray");
    for army in &m.scenario.armies {
        body.xml.open(
            "VASSAL.build.widget.ListWidget",
            &[
                ("entryName", army.name.clone()),
                ("divider", "150".to_owned()),
                ("height", "0".to_owned()),
                ("scale", "1.0".to_owned()),
                ("width", "0".to_owned()),
            ],
        );
        let mut groups: Vec<(String, Option<&str>)> = vec![("Commanders".to_owned(), None)];
        groups.extend(
            army.corps
                .iter()
                .map(|c| (c.name.clone(), Some(c.id.as_str()))),
        );
        for (title, corps) in groups {
            let members: Vec<&Counter> = m
                .all
                .iter()
                .filter(|c| c.army == Some(army.id.as_str()) && c.corps == corps)
                .collect();
            if members.is_empty() {
                continue;
            }
            open_panel(&mut body.xml, title);
            for counter in members {
                body.slot(counter);
            }
            body.xml.close("VASSAL.build.widget.PanelWidget");
        }
        // The replacement counters the rules call for (Denain 1), for this army.
        let spares: Vec<&Counter> = m
            .replacements
            .iter()
            .filter(|c| c.army == Some(army.id.as_str()))
            .collect();
        if !spares.is_empty() {
            open_panel(&mut body.xml, "Replacements".to_owned());
            for counter in spares {
                body.slot(counter);
            }
            body.xml.close("VASSAL.build.widget.PanelWidget");
        }
        body.xml.close("VASSAL.build.widget.ListWidget");
    }
    open_panel(&mut body.xml, "Markers".to_owned());
    let mut seen = std::collections::BTreeSet::new();
    for counter in m.markers {
        if seen.insert(image_stem(counter)) {
            body.slot(counter);
        }
    }
    body.xml.close("VASSAL.build.widget.PanelWidget");
    close_tray(&mut body.xml);
}

/// Reinforcements by turn, with where each enters.
type Schedule<'c> = BTreeMap<u32, Vec<(&'c Counter<'c>, String)>>;

fn schedule<'c>(all: &'c [Counter<'c>]) -> Schedule<'c> {
    let mut by_turn: Schedule<'c> = BTreeMap::new();
    for counter in all {
        if let Some(Placement::Reinforcement { turn, entry }) = counter.placement {
            let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
            by_turn
                .entry(*turn)
                .or_default()
                .push((counter, entry.join(", ")));
        }
    }
    by_turn
}

/// What a schedule says: the turn, counter and entry of each reinforcement.
fn keys(s: &Schedule<'_>) -> Vec<(u32, String, String)> {
    s.iter()
        .flat_map(|(t, v)| v.iter().map(move |(c, e)| (*t, c.id.clone(), e.clone())))
        .collect()
}

/// Reinforcements: a tray with a panel per turn; a variant whose schedule differs has its own
/// panels, named for it.
pub(super) fn reinforcements(body: &mut Body, m: &Module<'_>) {
    let mut trays: Vec<(Option<usize>, Schedule<'_>)> = vec![(None, schedule(m.all))];
    for (n, all_of) in m.setup_counters.iter().enumerate() {
        let own = schedule(all_of);
        if keys(&own) != keys(&trays[0].1) {
            trays.push((Some(n), own));
        }
    }
    if trays.iter().all(|(_, t)| t.is_empty()) {
        return;
    }
    open_tray(&mut body.xml, "Reinforcements", "Reinforcements by turn");
    for (setup, by_turn) in &trays {
        let of = setup.map_or(m.scenario, |n| m.setups[n].scenario);
        for (turn, pieces) in by_turn {
            let panel = format!("Turn {turn} ({})", crate::counters::turn_time(of, *turn));
            open_panel(
                &mut body.xml,
                match setup {
                    Some(n) => format!("{} — {panel}", m.setups[*n].name),
                    None => panel,
                },
            );
            for (counter, entry) in pieces {
                let mut named = (*counter).clone();
                named.name = format!("{} (enters at {entry})", counter.name);
                let stem = match setup {
                    Some(n) => m.setup_stems[*n]
                        .get(&counter.id)
                        .cloned()
                        .unwrap_or_else(|| image_stem(counter)),
                    None => image_stem(counter),
                };
                body.slot_as(&named, &stem);
            }
            body.xml.close("VASSAL.build.widget.PanelWidget");
        }
    }
    close_tray(&mut body.xml);
}
