//! The hex numbers on the table (objectives, entry hexes, the hexes along the table's edges)
//! and each reinforcement group's entry: a marker on the table or an arrow at its edge.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use bataille_schema::{HexIndex, Map, Scenario};

use crate::layout::centre_mm;

use super::esc;

/// Draws the hex numbers of the objectives, the entry hexes and the hexes along the table's
/// edges, and each reinforcement group's entry: a marker on its hex when the hex is on the
/// table, an arrow at the edge pointing to it when it is not, named with its turn and troops.
pub(super) fn hex_numbers_and_entries(
    s: &mut String,
    scenario: &Scenario,
    map: &Map,
    mm_per_grid: f64,
    to: &dyn Fn([f64; 2]) -> [f64; 2],
    size: [f64; 2],
    apothem: f64,
) -> (Vec<String>, Vec<crate::Entry>) {
    let grid = &map.grid;
    let on_table = |p: [f64; 2]| p[0] >= 0.0 && p[1] >= 0.0 && p[0] <= size[0] && p[1] <= size[1];
    // Reinforcement groups: army, turn and entry hexes; their troops' formations and leaders.
    let mut groups: BTreeMap<(usize, u32, Vec<bataille_schema::HexName>), Vec<String>> =
        BTreeMap::new();
    for (a, army) in scenario.armies.iter().enumerate() {
        let mut add = |turn: u32, entry: &[bataille_schema::HexName], name: String| {
            let key = (a, turn, entry.to_vec());
            let names = groups.entry(key).or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        };
        for unit in &army.units {
            if let bataille_schema::scenario::Placement::Reinforcement { turn, entry } =
                &unit.placement
            {
                let name = unit
                    .corps
                    .as_ref()
                    .and_then(|c| army.corps.iter().find(|k| &k.id == c))
                    .map_or_else(|| unit.name.to_string(), |k| k.name.clone());
                add(*turn, entry, name);
            }
        }
        let leaders = army
            .commanders
            .iter()
            .map(|c| (&c.name, &c.placement))
            .chain(
                army.corps
                    .iter()
                    .filter_map(|k| k.leader.as_ref().map(|l| (&l.name, &l.placement))),
            );
        for (name, placement) in leaders {
            if let bataille_schema::scenario::Placement::Reinforcement { turn, entry } = placement {
                add(*turn, entry, name.clone());
            }
        }
    }
    let mut numbered: BTreeMap<HexIndex, bool> = BTreeMap::new(); // hex → emphasised
    for objective in &scenario.victory.objectives {
        if let Some(index) = grid.lookup(&objective.hex) {
            numbered.insert(index, true);
        }
    }
    let mut entries = Vec::new();
    let _ = writeln!(
        s,
        r##"<g id="entries" font-size="6" fill="#7a1010" stroke="#7a1010">"##
    );
    // Labels already placed (their baseline's y and x range), so that two do not overlap.
    let mut placed: Vec<(f64, f64, f64)> = Vec::new();
    for ((_, turn, hexes), names) in &groups {
        let hex_names: Vec<&str> = hexes.iter().map(|h| h.as_str()).collect();
        let mut marks = String::new();
        let mut first: Option<[f64; 2]> = None;
        let mut farthest = 0.0f64;
        let mut group_entries = Vec::new();
        for hex in hexes {
            let Some(index) = grid.lookup(hex) else {
                continue;
            };
            numbered.insert(index, true);
            let c = to(centre_mm(map, index, mm_per_grid));
            let inside = on_table(c);
            // Off the table: the arrow stands at the edge, on the line from the table's middle.
            let at = if inside {
                c
            } else {
                let m = [size[0] / 2.0, size[1] / 2.0];
                let d = [c[0] - m[0], c[1] - m[1]];
                let t = [0, 1]
                    .map(|k| {
                        if d[k].abs() < 1e-9 {
                            f64::INFINITY
                        } else {
                            (size[k] / 2.0 - 12.0) / d[k].abs()
                        }
                    })
                    .into_iter()
                    .fold(f64::INFINITY, f64::min);
                [m[0] + d[0] * t, m[1] + d[1] * t]
            };
            if inside {
                let _ = write!(
                    marks,
                    r##"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="none" stroke-width="1.2" stroke-dasharray="3 1.5"/>"##,
                    c[0],
                    c[1],
                    apothem * 0.8
                );
            } else {
                // An arrow 16 mm long pointing off the table towards the hex.
                let bearing = (c[1] - at[1]).atan2(c[0] - at[0]).to_degrees();
                farthest = farthest.max((c[0] - at[0]).hypot(c[1] - at[1]));
                let _ = write!(
                    marks,
                    r##"<path d="M-16 0L-4 0M-6 -4L0 0L-6 4" fill="none" stroke-width="1.6" transform="translate({:.2} {:.2}) rotate({bearing:.1})"/>"##,
                    at[0], at[1]
                );
            }
            first.get_or_insert(at);
            group_entries.push((hex.as_str().to_owned(), inside, at));
        }
        let Some(at) = first else {
            continue;
        };
        let away = if farthest > 0.0 {
            format!(" ({:.0} cm off the table)", farthest / 10.0)
        } else {
            String::new()
        };
        let label = format!(
            "Turn {turn}: {} enter at {}{away}",
            names.join(", "),
            hex_names.join(" or ")
        );
        // The name beside the first mark, towards the table's middle, clear of other names.
        let width = label.chars().count() as f64 * 6.0 * 0.55;
        let right_half = at[0] > size[0] / 2.0;
        let (anchor, x) = if right_half {
            ("end", (at[0] - 20.0).max(width.min(size[0] - 4.0)))
        } else {
            ("start", (at[0] + 20.0).min((size[0] - width).max(4.0)))
        };
        let span = if right_half {
            (x - width, x)
        } else {
            (x, x + width)
        };
        let step = if at[1] > size[1] / 2.0 { -9.0 } else { 9.0 };
        let mut y = (at[1] + if step < 0.0 { -6.0 } else { 10.0 }).clamp(10.0, size[1] - 4.0);
        while placed
            .iter()
            .any(|(py, a, b)| (py - y).abs() < 8.0 && span.0 < *b && *a < span.1)
        {
            y += step;
        }
        placed.push((y, span.0, span.1));
        let hexes_attr: Vec<&str> = group_entries.iter().map(|(h, ..)| h.as_str()).collect();
        let off = group_entries.iter().any(|(_, inside, _)| !inside);
        let _ = writeln!(
            s,
            r##"<g class="entry" data-hexes="{}"{}>{marks}<text x="{x:.2}" y="{y:.2}" text-anchor="{anchor}" stroke="#ffffff" stroke-width="0.8" paint-order="stroke">{}</text></g>"##,
            hexes_attr.join(" "),
            if off { r#" data-off-table="true""# } else { "" },
            esc(&label)
        );
        for (hex, inside, at) in group_entries {
            entries.push(crate::Entry {
                hex,
                turn: *turn,
                label: label.clone(),
                on_table: inside,
                at,
            });
        }
    }
    let _ = writeln!(s, "</g>");
    // The edges: every hex whose centre is on the table within a hex of its edge.
    for index in grid.indices() {
        let c = to(centre_mm(map, index, mm_per_grid));
        if !on_table(c) {
            continue;
        }
        let edge = c[0].min(c[1]).min(size[0] - c[0]).min(size[1] - c[1]);
        if edge < 2.0 * apothem {
            numbered.entry(index).or_insert(false);
        }
    }
    let number_mm = (apothem * 0.2).clamp(3.0, 10.0);
    let _ = writeln!(
        s,
        r##"<g id="hex-numbers" font-size="{number_mm:.2}" text-anchor="middle" fill="#3a362e" stroke="#f4f1e4" stroke-width="0.6" paint-order="stroke">"##
    );
    let mut printed = Vec::new();
    for (index, emphasised) in &numbered {
        let c = to(centre_mm(map, *index, mm_per_grid));
        if !on_table(c) {
            continue;
        }
        let name = grid.name(*index).to_string();
        let weight = if *emphasised {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}"{weight}>{name}</text>"#,
            c[0],
            c[1] - apothem * 0.62
        );
        printed.push(name);
    }
    let _ = writeln!(s, "</g>");
    (printed, entries)
}
