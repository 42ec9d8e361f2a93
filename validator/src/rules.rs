//! The scenario's rules data against its map (group 07): the terrain a fire restriction names
//! (Denain 11.1 Note: the Escaut) is a code of the map's terrain legend.

use bataille_schema::scenario::FirePlace;

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::{Diagnostic, Related};

pub(crate) fn rules_against_map(ctx: &mut Ctx<'_>) {
    let Some(view) = ctx.map.as_ref() else {
        return;
    };
    let map = view.map;
    let mut found = Vec::new();
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
                    "name a terrain code of the map ({}) — Denain 11.1: the Escaut",
                    legend.join(", ")
                ))
                .related(Related::new(
                    crate::context::MAP,
                    "/terrain",
                    "the map's terrain legend",
                )),
            );
        }
    }
    ctx.out.extend(found);
}
