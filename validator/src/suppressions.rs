//! Suppressions: an `allow` list (scenario, map, corps, unit, commander, line leader) names
//! codes that exist, or it silently suppresses nothing (W0107); the lists applied to the
//! diagnostics ([`finish`]).

use foldhash::{HashMap, HashMapExt};

use bataille_schema::{Map, Scenario};

use crate::{Options, diagnostic};

use bataille_schema::DocumentKind;

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::Diagnostic;

/// Suppression lists must name codes that exist, or they silently suppress nothing.
pub(crate) fn allow_lists(ctx: &mut Ctx<'_>) {
    // Only the lists that hold something (most counters have none: no pointer written).
    let mut lists: Vec<(String, &[String])> = vec![("/allow".into(), &ctx.scenario.allow)];
    for counter in ctx.counters.iter().filter(|c| !c.allow.is_empty()) {
        lists.push((format!("{}/allow", counter.pointer()), counter.allow));
    }
    for (a, army) in ctx.scenario.armies.iter().enumerate() {
        for (c, corps) in army.corps.iter().enumerate() {
            if !corps.allow.is_empty() {
                lists.push((format!("/armies/{a}/corps/{c}/allow"), &corps.allow));
            }
        }
    }
    for (pointer, list) in lists {
        for (i, code) in list.iter().enumerate() {
            if code.parse::<Code>().is_err() {
                ctx.push(unknown_code(SCENARIO, format!("{pointer}/{i}"), code));
            }
        }
    }
}

/// W0107 for an `allow` entry that is no code (naming the code that replaced a retired one).
pub(crate) fn unknown_code(document: DocumentKind, pointer: String, code: &str) -> Diagnostic {
    let retired = crate::codes::RETIRED
        .iter()
        .find(|(old, _)| old.eq_ignore_ascii_case(code.trim()));
    match retired {
        Some((_, now)) => Diagnostic::new(
            Code::W0107,
            document,
            pointer,
            format!("`{code}` is a retired code, replaced by {now}, so it allows nothing"),
        )
        .help(format!(
            "allow {} instead",
            now.split(':').next().unwrap_or(now)
        )),
        None => Diagnostic::new(
            Code::W0107,
            document,
            pointer,
            format!("`{code}` is not a diagnostic code, so it allows nothing"),
        )
        .help("write a code of docs/diagnostics.md, such as `W0901`"),
    }
}

/// Drops each diagnostic that follows from an unknown name reported about the same subject
/// ([`Code::follows_from`]), or from a field the JSON Schema refused that its check reads
/// ([`Code::reads`]): one report per cause, whichever check would repeat it.
fn without_cascades(out: &mut Vec<Diagnostic>) {
    without_refused_fields(out);
    let causes: std::collections::HashSet<(std::sync::Arc<str>, Code)> = out
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                Code::E0202 | Code::E0203 | Code::E0204 | Code::E0206
            )
        })
        .filter_map(|d| d.subject.clone().map(|s| (s, d.code)))
        .collect();
    if causes.is_empty() {
        return;
    }
    out.retain(|d| {
        let Some(subject) = &d.subject else {
            return true;
        };
        !d.code
            .follows_from()
            .iter()
            .any(|cause| causes.contains(&(std::sync::Arc::clone(subject), *cause)))
    });
}

/// Drops each diagnostic whose check reads a field the JSON Schema refused ([`Code::reads`]).
/// Linear: each E0105 is tested against the few fields the codes read, then each diagnostic
/// against the fields found refused.
fn without_refused_fields(out: &mut Vec<Diagnostic>) {
    let inside = |pointer: &str, field: &str| {
        pointer
            .strip_prefix(field)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    let mut read: Vec<(DocumentKind, &'static str)> = Code::ALL
        .iter()
        .flat_map(|code| code.reads())
        .copied()
        .collect();
    read.sort_unstable();
    read.dedup();
    let mut refused: Vec<(DocumentKind, &'static str)> = Vec::new();
    for d in out.iter().filter(|d| d.code == Code::E0105) {
        for &(document, field) in &read {
            if d.document == document
                && inside(&d.pointer, field)
                && !refused.contains(&(document, field))
            {
                refused.push((document, field));
            }
        }
    }
    if refused.is_empty() {
        return;
    }
    out.retain(|d| !d.code.reads().iter().any(|field| refused.contains(field)));
}

pub(crate) fn matches_code(list: &[String], code: Code) -> bool {
    list.iter()
        .any(|c| c.trim().eq_ignore_ascii_case(code.as_str()))
}

/// Drops allowed diagnostics ([`suppress`]), then sorts.
pub(crate) fn finish(
    out: Vec<Diagnostic>,
    scenario: Option<&Scenario>,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    let mut out = suppress(out, scenario, map, options);
    diagnostic::sort(&mut out);
    out
}

/// Drops allowed diagnostics, unsorted (the door sorts once, when the spans are known). A
/// scenario's `allow` covers its diagnostics, a map's `allow` the map's; a counter's covers
/// those whose subject it is, and a corps' those whose subject is the corps, its line leader
/// or one of its units.
pub(crate) fn suppress(
    mut out: Vec<Diagnostic>,
    scenario: Option<&Scenario>,
    map: Option<&Map>,
    options: &Options,
) -> Vec<Diagnostic> {
    if out.is_empty() {
        return out;
    }
    without_cascades(&mut out);
    let lists_empty = options.allow.is_empty()
        && map.is_none_or(|m| m.allow.is_empty())
        && scenario.is_none_or(|s| {
            s.allow.is_empty()
                && s.armies.iter().all(|a| {
                    a.commanders.iter().all(|c| c.allow.is_empty())
                        && a.corps.iter().all(|c| {
                            c.allow.is_empty()
                                && c.leader.as_ref().is_none_or(|l| l.allow.is_empty())
                        })
                        && a.units.iter().all(|u| u.allow.is_empty())
                })
        });
    if lists_empty {
        // Nothing is allowed anywhere (the usual case): no table of lists to build.
        return out;
    }
    let mut counters: HashMap<&str, Vec<&[String]>> = HashMap::new();
    if let Some(s) = scenario {
        let corps_allow: HashMap<&str, &[String]> = s
            .armies
            .iter()
            .flat_map(|a| &a.corps)
            .map(|c| (c.id.as_str(), c.allow.as_slice()))
            .collect();
        for army in &s.armies {
            for c in &army.commanders {
                counters.entry(c.id.as_str()).or_default().push(&c.allow);
            }
            for corps in &army.corps {
                counters
                    .entry(corps.id.as_str())
                    .or_default()
                    .push(&corps.allow);
                if let Some(l) = &corps.leader {
                    let lists = counters.entry(l.id.as_str()).or_default();
                    lists.push(&l.allow);
                    lists.push(&corps.allow);
                }
            }
            for u in &army.units {
                let lists = counters.entry(u.id.as_str()).or_default();
                lists.push(&u.allow);
                if let Some(allow) = u.corps.as_ref().and_then(|c| corps_allow.get(c.as_str())) {
                    lists.push(allow);
                }
            }
        }
    }
    out.retain(|d| {
        if matches_code(&options.allow, d.code) {
            return false;
        }
        if d.document == DocumentKind::Map {
            return !map.is_some_and(|m| matches_code(&m.allow, d.code));
        }
        let Some(s) = scenario else { return true };
        if matches_code(&s.allow, d.code) {
            return false;
        }
        !d.subject
            .as_deref()
            .and_then(|id| counters.get(id))
            .is_some_and(|lists| lists.iter().any(|allow| matches_code(allow, d.code)))
    });
    out
}
