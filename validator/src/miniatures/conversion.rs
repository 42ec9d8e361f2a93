//! A miniatures system's conversion rules (`miniatures[].convert[]`) as the unit checks read
//! them. A value a rule sets is judged once, at the rule (W1010 a rating the system does not
//! define, E1004 a troop type it lacks, E1003 a value out of its range or tables), not again
//! at every unit the rule reaches. A rule that names an army, corps, unit or kind that does
//! not exist (E0206, E0202, E0207, E0204 at the rule) or sets a rating the system does not
//! define may be why a unit lacks a rating: the unit is then not said to lack it (E1002), as
//! correcting the rule may give it.

use foldhash::HashSet;

use bataille_schema::Id;
use bataille_schema::scenario::{Army, Conversion, MiniaturesUse, Unit};
use bataille_schema::system::System;

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO, key_pointer};
use crate::diagnostic::Diagnostic;

use super::{list, value_problem};

/// The ratings `expand_unit` derives from others a rule gives.
const DERIVED: [&str; 2] = ["bases", "figures"];

/// Where a unit's rating comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// The unit's own `ratings` for the system.
    Own,
    /// A rule's `set`: judged at the rule.
    Set,
    /// A rule's `per_cp`: the value depends on the unit's CP.
    PerCp,
    /// Computed from others (`bases` from `units`, `figures` from bases): no one wrote it.
    Derived,
}

/// What is wrong with a rule, for the units it may reach.
#[derive(Debug, Default, Clone, Copy)]
struct Faults {
    /// Each list (kinds, armies, corps, units) names something that does not exist.
    unknown: [bool; 4],
    /// It sets a rating the system does not define.
    undefined: bool,
}

/// The rules of one system's `miniatures` entry, checked.
pub(super) struct Rules<'a> {
    used: &'a MiniaturesUse,
    faults: Vec<Faults>,
}

impl<'a> Rules<'a> {
    /// Checks the values each rule sets (pushing what is wrong, once per rule) and notes
    /// each rule's faults.
    pub fn check(ctx: &mut Ctx<'_>, m: usize, used: &'a MiniaturesUse, system: &System) -> Self {
        let units: HashSet<&str> = if used.convert.iter().any(|r| !r.units.is_empty()) {
            ctx.scenario
                .armies
                .iter()
                .flat_map(|a| a.units.iter().map(|u| u.id.as_str()))
                .collect()
        } else {
            HashSet::default()
        };
        let mut faults = Vec::with_capacity(used.convert.len());
        for (r, rule) in used.convert.iter().enumerate() {
            let unknown = |names: &[Id], known: &dyn Fn(&str) -> bool| {
                names.iter().any(|n| !known(n.as_str()))
            };
            let mut fault = Faults {
                unknown: [
                    unknown(&rule.kinds, &|k| ctx.kind(k).is_some()),
                    unknown(&rule.armies, &|a| ctx.armies.contains_key(a)),
                    unknown(&rule.corps, &|c| ctx.corps.contains_key(c)),
                    unknown(&rule.units, &|u| units.contains(u)),
                ],
                undefined: false,
            };
            let base = format!("/miniatures/{m}/convert/{r}");
            let rule_name = format!("conversion rule {} of `{}`", r + 1, used.system);
            for (name, value) in &rule.set {
                let at = key_pointer(&format!("{base}/set"), name.as_str());
                let Some(spec) = system.ratings.get(name) else {
                    fault.undefined = true;
                    ctx.push_about(undefined(system, at, &rule_name, name), name.is_refused());
                    continue;
                };
                if name.as_str() == "troop_type"
                    && let Some(t) = value.text()
                    && !system.troop_types.contains_key(t)
                {
                    ctx.push(
                        Diagnostic::new(
                            Code::E1004,
                            SCENARIO,
                            at,
                            format!(
                                "{rule_name} gives troop type `{t}`, which {} does not have",
                                system.name
                            ),
                        )
                        .help(format!("use one of {}", list(system.troop_types.keys()))),
                    );
                    continue;
                }
                if let Some(why) = value_problem(system, spec, value) {
                    ctx.push(
                        Diagnostic::new(
                            Code::E1003,
                            SCENARIO,
                            at,
                            format!(
                                "{rule_name} sets {} `{name}` to {value}: {why}",
                                system.name
                            ),
                        )
                        .help(format!(
                            "{}: {}",
                            spec.description,
                            super::allowed(system, spec)
                        )),
                    );
                }
            }
            for name in rule.per_cp.keys() {
                if !system.ratings.contains_key(name) {
                    fault.undefined = true;
                    let at = key_pointer(&format!("{base}/per_cp"), name.as_str());
                    ctx.push_about(undefined(system, at, &rule_name, name), name.is_refused());
                }
            }
            faults.push(fault);
        }
        Self { used, faults }
    }

    /// Where a unit's rating comes from: its own ratings, else the last rule reaching it that
    /// gives it (`per_cp` after `set`, as `expand_unit` applies them), else derived.
    pub fn source(&self, army: &Army, unit: &Unit, name: &Id, overridden: &[Id]) -> Source {
        if overridden.contains(name) {
            return Source::Own;
        }
        for rule in self.used.convert.iter().rev() {
            if !rule.matches(army, unit) {
                continue;
            }
            if rule.per_cp.contains_key(name) {
                return Source::PerCp;
            }
            if rule.set.contains_key(name) {
                return Source::Set;
            }
        }
        Source::Derived
    }

    /// Whether a faulty rule may be why the unit lacks `name`: a rule naming something that
    /// does not exist, which would reach the unit if that name were the unit's, and gives
    /// `name`; or a rule reaching it that sets a rating the system does not define (perhaps
    /// `name` misspelt).
    pub fn may_give(&self, army: &Army, unit: &Unit, name: &str) -> bool {
        self.used
            .convert
            .iter()
            .zip(&self.faults)
            .any(|(rule, fault)| {
                // `bases` and `figures` are derived from what a rule gives (`units`, `stands`).
                let gives = rule.set.contains_key(name)
                    || rule.per_cp.contains_key(name)
                    || DERIVED.contains(&name) && !(rule.set.is_empty() && rule.per_cp.is_empty());
                (fault.undefined || fault.unknown.contains(&true) && gives)
                    && may_reach(rule, fault, army, unit)
            })
    }
}

/// Whether the rule reaches the unit, counting a list that names something that does not
/// exist as one that may have meant the unit's.
fn may_reach(rule: &Conversion, fault: &Faults, army: &Army, unit: &Unit) -> bool {
    let fits = |list: &[Id], own: Option<&Id>, unknown: bool| {
        list.is_empty() || unknown || own.is_some_and(|o| list.contains(o))
    };
    fits(&rule.kinds, Some(&unit.kind), fault.unknown[0])
        && fits(&rule.armies, Some(&army.id), fault.unknown[1])
        && fits(&rule.corps, unit.corps.as_ref(), fault.unknown[2])
        && fits(&rule.units, Some(&unit.id), fault.unknown[3])
        && rule
            .min_morale
            .is_none_or(|min| unit.morale.is_some_and(|m| m >= min))
}

/// W1010 at a rule: it sets a rating the system does not define.
fn undefined(system: &System, at: String, rule_name: &str, name: &Id) -> Diagnostic {
    Diagnostic::new(
        Code::W1010,
        SCENARIO,
        at,
        format!(
            "{rule_name} sets rating `{name}`, which {} does not define",
            system.name
        ),
    )
    .help(format!(
        "{} defines: {}",
        system.id,
        list(system.ratings.keys())
    ))
}
