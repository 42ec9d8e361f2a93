//! The scenario's rules data against its map (group 07): the terrain a fire restriction names
//! (Denain 11.1 Note: the Escaut) is a code of the map's terrain legend.

use bataille_schema::scenario::{Die, FirePlace};

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::{Diagnostic, Related};

pub(crate) fn rules_against_map(ctx: &mut Ctx<'_>) {
    let Some(view) = ctx.map.as_ref() else {
        return;
    };
    let map = view.map;
    let mut found = ctx.out.beside();
    for (f, restriction) in ctx.scenario.rules.fire_restrictions.iter().enumerate() {
        for (k, place) in restriction.fires_only.iter().enumerate() {
            let (variant, code) = match place {
                FirePlace::NextTo(code) => ("NextTo", code),
                FirePlace::Beyond(code) => ("Beyond", code),
            };
            if map.terrain.contains_key(code) {
                continue;
            }
            let mut legend: Vec<String> = map.terrain.keys().map(|k| format!("`{k}`")).collect();
            legend.truncate(20);
            found.push(
                Diagnostic::new(
                    Code::E0701,
                    SCENARIO,
                    format!("/rules/fire_restrictions/{f}/fires_only/{k}/{variant}"),
                    format!(
                        "the fire restriction on army `{}` names terrain `{}`, which the map's terrain legend lacks, so its units could never fire",
                        restriction.army,
                        code.escape_debug()
                    ),
                )
                .help(format!(
                    "name a terrain code of the map ({}){}",
                    legend.join(", "),
                    ctx.cite(&ctx.numbers().fire)
                ))
                .related(Related::new(
                    crate::context::MAP,
                    "/terrain",
                    "the map's terrain legend",
                )),
            );
        }
    }
    ctx.out.merge(found);
}

/// The charts (a combat results table): one result per column on every row (E0702), and rows
/// that read every roll of the die exactly once (E0703).
pub(crate) fn charts(ctx: &mut Ctx<'_>) {
    let mut found = ctx.out.beside();
    for (c, chart) in ctx.scenario.rules.charts.iter().enumerate() {
        let columns = chart.columns.len();
        let (low, high) = chart.die.rolls();
        let mut read = vec![0u32; usize::from(high) + 1];
        let mut outside = Vec::new();
        for (r, row) in chart.rows.iter().enumerate() {
            if row.results.len() != columns {
                found.push(
                    Diagnostic::new(
                        Code::E0702,
                        SCENARIO,
                        format!("/rules/charts/{c}/rows/{r}/results"),
                        format!(
                            "chart `{}`: the row of roll {} has {} results for {columns} columns",
                            chart.id,
                            row.roll,
                            row.results.len()
                        ),
                    )
                    .help("give one result per column, left to right"),
                );
            }
            let to = row.to.unwrap_or(row.roll);
            for roll in row.roll..=to.max(row.roll) {
                match read.get_mut(usize::from(roll)) {
                    Some(n) if roll >= low => *n += 1,
                    _ => outside.push(roll),
                }
            }
        }
        let missing: Vec<String> = (low..=high)
            .filter(|roll| {
                read[usize::from(*roll)] == 0
                    && !(chart.die == Die::D10 && (*roll == 0 || *roll == 10))
            })
            .map(|r| r.to_string())
            .collect();
        let twice: Vec<String> = (low..=high)
            .filter(|roll| read[usize::from(*roll)] > 1)
            .map(|r| r.to_string())
            .collect();
        // A ten-sided die reads 0-9 or 1-10: one of 0 and 10 may be left out, not both.
        let d10_gap = chart.die == Die::D10 && read[0] == 0 && read[10] == 0;
        if !missing.is_empty() || !twice.is_empty() || !outside.is_empty() || d10_gap {
            let mut parts = Vec::new();
            if !missing.is_empty() || d10_gap {
                let mut m = missing.clone();
                if d10_gap {
                    m.insert(0, "0 or 10".into());
                }
                parts.push(format!("no row reads {}", m.join(", ")));
            }
            if !twice.is_empty() {
                parts.push(format!("{} read twice", twice.join(", ")));
            }
            if !outside.is_empty() {
                let list: Vec<String> = outside.iter().map(u8::to_string).collect();
                parts.push(format!("{} beyond the die", list.join(", ")));
            }
            found.push(
                Diagnostic::new(
                    Code::E0703,
                    SCENARIO,
                    format!("/rules/charts/{c}/rows"),
                    format!(
                        "chart `{}` is read with {}: {}",
                        chart.id,
                        chart.die.name(),
                        parts.join("; ")
                    ),
                )
                .help(format!(
                    "give one row per roll of {} ({low}-{high}), or a range with `to`",
                    chart.die.name()
                )),
            );
        }
    }
    ctx.out.merge(found);
}
