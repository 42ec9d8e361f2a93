//! Suppressions: an `allow` list (scenario, map, corps, unit, commander, line leader) names
//! codes that exist, or it silently suppresses nothing (W0107). The lists are applied to the
//! diagnostics where they are pushed ([`crate::sink::Filter`]).

use bataille_schema::DocumentKind;
use bataille_schema::common::Code as AllowCode;

use crate::codes::Code;
use crate::context::{Ctx, SCENARIO};
use crate::diagnostic::Diagnostic;

/// Suppression lists must name codes that exist, or they silently suppress nothing.
pub(crate) fn allow_lists(ctx: &mut Ctx<'_>) {
    // Only the lists that hold something (most counters have none: no pointer written).
    let mut lists: Vec<(String, &[AllowCode])> = vec![("/allow".into(), &ctx.scenario.allow)];
    for counter in ctx.counters.iter().filter(|c| !c.allow().is_empty()) {
        lists.push((format!("{}/allow", counter.pointer()), counter.allow()));
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

pub(crate) fn matches_code<S: AsRef<str>>(list: &[S], code: Code) -> bool {
    list.iter()
        .any(|c| c.as_ref().trim().eq_ignore_ascii_case(code.as_str()))
}
