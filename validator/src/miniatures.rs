//! Miniatures systems (group 10): each unit of a scenario, expanded under every system the
//! scenario supports (`miniatures`), carries the ratings its troop type needs, within the
//! system's ranges and tables, in a composition the system allows (Louis XIV: 2 figures a
//! base, a battalion 5 bases, a cavalry regiment 3 squadrons; Age of Honor: brigades of so many
//! stands), and commanders carry the modifiers the system's named table gives them (Age of
//! Honor's reserve movement modifiers: Villars and Eugène +2, Cumberland −2).

use bataille_schema::Id;
use bataille_schema::scenario::{MiniaturesUse, Rating};
use bataille_schema::system::{
    Arm, Expanded, RatingSpec, System, TableName, Values, expand_leader, expand_unit,
    named_modifier,
};

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO, key_pointer};
use crate::diagnostic::Diagnostic;

mod conversion;

use conversion::{Rules, Source};

/// Runs the checks of every system the scenario names and `systems` holds. A system the
/// scenario names but `systems` lacks (the editor validating without files) is skipped.
pub(crate) fn miniatures(ctx: &mut Ctx<'_>, systems: &[System]) {
    let scenario = ctx.scenario;
    for (m, used) in scenario.miniatures.iter().enumerate() {
        let Some(system) = systems.iter().find(|s| s.id == used.system) else {
            continue;
        };
        let rules = Rules::check(ctx, m, used, system);
        units(ctx, used, system, &rules);
        leaders(ctx, m, used, system);
    }
}

fn units(ctx: &mut Ctx<'_>, used: &MiniaturesUse, system: &System, rules: &Rules<'_>) {
    let scenario = ctx.scenario;
    for (a, army) in scenario.armies.iter().enumerate() {
        for (u, unit) in army.units.iter().enumerate() {
            // A unit of an unknown kind is reported once (E0204): nothing that follows from it
            // (no conversion rule matches it) is said again.
            let Some(kind) = ctx.kind(unit.kind.as_str()) else {
                continue;
            };
            // Baggage and other counters that neither fight nor stack have no table troops.
            if !kind.combat && !kind.stacks() {
                continue;
            }
            let expanded = expand_unit(army, unit, used, Some(system));
            let base = format!("/armies/{a}/units/{u}");
            let at = |name: &str| -> String {
                if expanded.overridden.iter().any(|o| o.as_str() == name) {
                    key_pointer(
                        &key_pointer(&format!("{base}/ratings"), used.system.as_str()),
                        name,
                    )
                } else {
                    base.clone()
                }
            };
            let check = Check {
                system,
                unit: unit.id.as_str(),
                expanded: &expanded,
            };
            // Every rating given must be one the system defines, with an allowed value. What
            // a rule sets is judged once, at the rule ([`Rules::check`]).
            for (name, value) in &expanded.ratings {
                let source = rules.source(army, unit, name, &expanded.overridden);
                if source == Source::Set {
                    continue;
                }
                match system.ratings.get(name) {
                    // A rule's `per_cp` naming it is told at the rule; a derived one no one wrote.
                    None if source != Source::Own => {}
                    // A name the schema refuses (E0105 at the same key) is not told again.
                    None => ctx.push_about(
                        Diagnostic::new(
                            Code::W1010,
                            SCENARIO,
                            at(name.as_str()),
                            format!(
                                "unit `{}` carries rating `{name}`, which {} does not define",
                                unit.id, system.name
                            ),
                        )
                        .help(format!(
                            "{} defines: {}",
                            system.id,
                            list(system.ratings.keys())
                        ))
                        .subject(unit.id.as_str()),
                        name.is_refused(),
                    ),
                    Some(spec) => {
                        if name.as_str() == "troop_type"
                            && let Some(t) = value.text()
                            && !system.troop_types.contains_key(t)
                        {
                            {
                                ctx.push(
                                    Diagnostic::new(
                                        Code::E1004,
                                        SCENARIO,
                                        at("troop_type"),
                                        format!(
                                            "unit `{}` is of troop type `{t}`, which {} does not have",
                                            unit.id, system.name
                                        ),
                                    )
                                    .help(format!(
                                        "use one of {}",
                                        list(system.troop_types.keys())
                                    ))
                                    .subject(unit.id.as_str()),
                                );
                                continue;
                            }
                        }
                        if let Some(why) = value_problem(system, spec, value) {
                            ctx.push(
                                Diagnostic::new(
                                    Code::E1003,
                                    SCENARIO,
                                    at(name.as_str()),
                                    format!(
                                        "unit `{}`: {} `{name}` is {value}: {why}",
                                        unit.id, system.name
                                    ),
                                )
                                .help(format!("{}: {}", spec.description, allowed(system, spec)))
                                .subject(unit.id.as_str()),
                            );
                        }
                    }
                }
            }
            let Some(troop_id) = expanded.text("troop_type") else {
                if !rules.may_give(army, unit, "troop_type") {
                    ctx.push(
                        Diagnostic::new(
                            Code::E1002,
                            SCENARIO,
                            base.clone(),
                            format!(
                                "unit `{}` has no {} troop type: no conversion rule of `miniatures` gives it one",
                                unit.id, system.name
                            ),
                        )
                        .help(format!(
                            "add a conversion rule for kind `{}` (or `ratings: {{\"{}\": {{\"troop_type\": Text(\"…\")}}}}` on the unit)",
                            unit.kind, used.system
                        ))
                        .subject(unit.id.as_str()),
                    );
                }
                continue;
            };
            let Some(troop) = system.troop_types.get(troop_id) else {
                continue;
            };
            for need in &troop.needs {
                if !expanded.ratings.contains_key(need)
                    && !rules.may_give(army, unit, need.as_str())
                {
                    ctx.push(
                        Diagnostic::new(
                            Code::E1002,
                            SCENARIO,
                            base.clone(),
                            format!(
                                "unit `{}` ({}) lacks `{need}`, which {} needs for it",
                                unit.id, troop.name, system.name
                            ),
                        )
                        .help(format!(
                            "give `{need}` in a conversion rule or in the unit's `ratings` for `{}`",
                            used.system
                        ))
                        .subject(unit.id.as_str()),
                    );
                }
            }
            check.composition(ctx, troop_id, &at);
        }
    }
}

struct Check<'a> {
    system: &'a System,
    unit: &'a str,
    expanded: &'a Expanded,
}

impl Check<'_> {
    fn composition(&self, ctx: &mut Ctx<'_>, troop_id: &str, at: &dyn Fn(&str) -> String) {
        let system = self.system;
        let Some(troop) = system.troop_types.get(troop_id) else {
            return;
        };
        let e = self.expanded;
        let unit = self.unit;
        // Louis XIV: "a typical battalion uses 10 figures, mounted on 5 card blocks".
        if let (Some(figures), Some(bases)) = (
            e.number("figures"),
            e.number("bases").or_else(|| e.number("stands")),
        ) {
            let per = i64::from(troop.figures_per_base);
            if i64::from(figures) != i64::from(bases) * per {
                let whole = per > 0 && i64::from(figures) % per == 0;
                ctx.push(
                    Diagnostic::new(
                        Code::E1005,
                        SCENARIO,
                        at("figures"),
                        format!(
                            "unit `{unit}`: {figures} figures on {bases} bases, but a {} base carries {per} figures{}",
                            troop.name,
                            if whole { "" } else { " (not a whole number of bases)" }
                        ),
                    )
                    .help(format!("{} ({}): {per} figures a base", system.name, troop.name))
                    .subject(unit),
                );
            }
        }
        if let (Some(per), Some(units), Some(bases)) =
            (troop.bases_per_unit, e.number("units"), e.number("bases"))
            && i64::from(bases) != i64::from(units) * i64::from(per)
        {
            ctx.push(
                Diagnostic::new(
                    Code::E1006,
                    SCENARIO,
                    at("bases"),
                    format!(
                        "unit `{unit}`: {units} {}{} on {bases} bases; {} puts a {} on {per} bases",
                        troop.unit_name,
                        if units == 1 { "" } else { "s" },
                        system.name,
                        troop.unit_name
                    ),
                )
                .help(format!(
                    "set `bases` to {} or change `units`",
                    i64::from(units) * i64::from(per)
                ))
                .subject(unit),
            );
        }
        if let (Some(bounds), Some(stands)) = (troop.stands, e.number("stands"))
            && (i64::from(stands) < i64::from(bounds.min)
                || i64::from(stands) > i64::from(bounds.max))
        {
            ctx.push(
                Diagnostic::new(
                    Code::E1007,
                    SCENARIO,
                    at("stands"),
                    format!(
                        "unit `{unit}`: a {} {} of {stands} stands; {} allows {} to {}",
                        troop.name, troop.unit_name, system.name, bounds.min, bounds.max
                    ),
                )
                .help("split the counter's stands into brigades of the allowed size, or change its conversion")
                .subject(unit),
            );
        }
        // Louis XIV: each nation's table gives every troop type it fields.
        if let Some(nation) = e.text("nation")
            && let Some(table) = system.national_tables.get(nation)
            && troop.arm != Arm::Leader
            && !table.entries.contains_key(troop_id)
        {
            ctx.push(
                Diagnostic::new(
                    Code::E1009,
                    SCENARIO,
                    at("nation"),
                    format!(
                        "unit `{unit}`: {}'s table (`{nation}`) has no line for {} in {}",
                        table.name, troop.name, system.name
                    ),
                )
                .help(format!(
                    "`{nation}` fields: {}; change the troop type or the nation",
                    list(table.entries.keys())
                ))
                .subject(unit),
            );
        }
    }
}

fn leaders(ctx: &mut Ctx<'_>, m: usize, used: &MiniaturesUse, system: &System) {
    let scenario = ctx.scenario;
    let mut known: Vec<(&Id, &str, bool)> = Vec::new();
    for army in &scenario.armies {
        for c in &army.commanders {
            known.push((&c.id, c.name.as_str(), true));
        }
        for corps in &army.corps {
            if let Some(l) = &corps.leader {
                known.push((&l.id, l.name.as_str(), false));
            }
        }
    }
    let base = format!("/miniatures/{m}/leaders");
    for id in used.leaders.keys() {
        if !known.iter().any(|(k, _, _)| *k == id) {
            ctx.push(
                Diagnostic::new(
                    Code::E0205,
                    SCENARIO,
                    key_pointer(&base, id.as_str()),
                    format!("`miniatures` rates leader `{id}`, who is no commander or line leader of the scenario"),
                )
                .help("name a commander's or line leader's id")
                .subject(id.as_str()),
            );
        }
    }
    for (id, name, commander) in known {
        let given = used.leaders.get(id);
        let ratings = expand_leader(id, name, commander, used, Some(system));
        for (rating, value) in &ratings {
            let pointer = key_pointer(&key_pointer(&base, id.as_str()), rating.as_str());
            let Some(spec) = system.leader_ratings.get(rating) else {
                ctx.push(
                    Diagnostic::new(
                        Code::W1010,
                        SCENARIO,
                        pointer,
                        format!("leader `{id}` carries rating `{rating}`, which {} does not define for leaders", system.name),
                    )
                    .help(format!("{} defines for leaders: {}", system.id, list(system.leader_ratings.keys())))
                    .subject(id.as_str()),
                );
                continue;
            };
            if let Some(why) = value_problem(system, spec, value) {
                ctx.push(
                    Diagnostic::new(
                        Code::E1003,
                        SCENARIO,
                        pointer.clone(),
                        format!(
                            "leader `{id}`: {} `{rating}` is {value}: {why}",
                            system.name
                        ),
                    )
                    .help(format!("{}: {}", spec.description, allowed(system, spec)))
                    .subject(id.as_str()),
                );
            }
            // Age of Honor's reserve movement modifiers name army commanders.
            if commander
                && given.is_some_and(|g| g.contains_key(rating))
                && let Some(named) = named_modifier(system, rating.as_str(), name)
                && value.number() != Some(named.value)
            {
                ctx.push(
                    Diagnostic::new(
                        Code::E1008,
                        SCENARIO,
                        pointer,
                        format!(
                            "{name} (`{id}`) has {rating} {value}; {}'s table gives {} {:+}",
                            system.name,
                            named.names.join(", "),
                            named.value
                        ),
                    )
                    .help(format!(
                        "set it to {} or leave it out (the table's value is used)",
                        named.value
                    ))
                    .subject(id.as_str()),
                );
            }
        }
    }
}

/// Why a value is not allowed, if it is not.
fn value_problem(system: &System, spec: &RatingSpec, value: &Rating) -> Option<String> {
    match (&spec.values, value) {
        (Values::Range { min, max }, Rating::Number(n)) => {
            (n < min || n > max).then(|| format!("out of range {min} to {max}"))
        }
        (Values::Range { .. }, Rating::Text(_)) => Some("a number is expected".into()),
        (Values::OneOf(words), Rating::Text(t)) => {
            (!words.iter().any(|w| w == t)).then(|| "not one of the allowed values".into())
        }
        (Values::Table(table), Rating::Text(t)) => (!table_ids(system, *table).any(|id| id == t))
            .then(|| "not in the system's table".into()),
        (Values::OneOf(_) | Values::Table(_), Rating::Number(_)) => {
            Some("a word is expected".into())
        }
    }
}

fn table_ids(system: &System, table: TableName) -> Box<dyn Iterator<Item = &str> + '_> {
    match table {
        TableName::TroopTypes => Box::new(system.troop_types.keys().map(Id::as_str)),
        TableName::FireTypes => Box::new(system.fire_types.keys().map(Id::as_str)),
        TableName::ArtilleryClasses => Box::new(system.artillery_classes.keys().map(Id::as_str)),
        TableName::CavalryTypes => Box::new(system.cavalry_types.keys().map(Id::as_str)),
        TableName::NationalTables => Box::new(system.national_tables.keys().map(Id::as_str)),
    }
}

fn allowed(system: &System, spec: &RatingSpec) -> String {
    match &spec.values {
        Values::Range { min, max } => format!("a number from {min} to {max}"),
        Values::OneOf(words) => format!("one of {}", words.join(", ")),
        Values::Table(table) => format!(
            "one of {}",
            table_ids(system, *table).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn list<'a>(ids: impl Iterator<Item = &'a Id>) -> String {
    ids.map(|id| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
