//! The summary of what a sink or a report does not show, and the report's last bound.

use std::path::{Path, PathBuf};

use foldhash::{HashMap, HashMapExt, HashSet};

use bataille_schema::DocumentKind;

use super::{Bound, MAX_PER_CODE, MAX_PER_FILE};
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Span};

/// The summary of a code's diagnostics in a document beyond those kept: a diagnostic of that
/// code, at the document's start (pointer `""`; its span is the file's first character), its
/// [`Diagnostic::omitted`] the number not shown.
pub fn summary(
    document: DocumentKind,
    code: Code,
    kept: usize,
    all: usize,
    per_code: usize,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        code,
        document,
        "",
        format!(
            "{} {code} in this file: {} shown, {} not shown",
            thousands(all),
            thousands(kept),
            thousands(all - kept)
        ),
    )
    .help(format!(
        "a file's report shows at most {per_code} diagnostics of one code and {} in all (`--max-per-code` changes it); many of one code are often one mistake repeated: correct those shown and validate again",
        thousands(per_code.saturating_mul(MAX_PER_FILE / MAX_PER_CODE))
    ));
    d.omitted = all - kept;
    d
}

/// The report's last bound, in the door once its spans are resolved and it is sorted: per
/// file, document and code at most `bound.per_code` shown (the first in the report's order),
/// at most `bound.per_file` in all; the summaries the sinks made and what is beyond them
/// merged into one summary per file and code, at the file's start. It bounds what reaches a
/// report by any path (the door's own diagnostics about the files a document names too).
pub(crate) fn bound_report(diagnostics: &mut Vec<Diagnostic>, bound: Bound) {
    if bound == Bound::NONE && !diagnostics.iter().any(Diagnostic::is_summary) {
        return;
    }
    #[derive(Default)]
    struct Group {
        kept: usize,
        omitted: usize,
        place: Option<Box<Span>>,
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let mut groups: HashMap<(Option<usize>, DocumentKind, Code), Group> = HashMap::new();
    let mut total = 0;
    diagnostics.retain(|d| {
        let file = d.span.as_ref().map(|s| {
            files.iter().position(|f| *f == s.file).unwrap_or_else(|| {
                files.push(s.file.clone());
                files.len() - 1
            })
        });
        let group = groups.entry((file, d.document, d.code)).or_default();
        if d.is_summary() {
            group.omitted += d.omitted;
            group.place = group.place.take().or_else(|| d.span.clone());
            false
        } else if group.kept < bound.per_code && total < bound.per_file {
            group.kept += 1;
            total += 1;
            true
        } else {
            group.omitted += 1;
            false
        }
    });
    let mut more: Vec<_> = groups.into_iter().filter(|(_, g)| g.omitted > 0).collect();
    if more.is_empty() {
        return;
    }
    more.sort_by_key(|((file, document, code), _)| (*file, *document, *code));
    for ((file, document, code), group) in more {
        let mut d = summary(
            document,
            code,
            group.kept,
            group.kept + group.omitted,
            bound.per_code,
        );
        d.span = group.place.or_else(|| {
            let file = files.get(file?)?.clone();
            Some(Box::new(Span {
                file,
                line: 1,
                column: 1,
                end_line: 1,
                end_column: 1,
                bytes: 0..0,
            }))
        });
        diagnostics.push(d);
    }
    diagnostics.sort_by(Diagnostic::order);
}

/// Drops what a rule says about a value the JSON Schema refused: a diagnostic of another code
/// at exactly the place of an E0105 (the same file, document and pointer) follows from the
/// refusal (`at: "nope-x"` was an E0105 and an E0503 "not a hex name"; an empty
/// `background.image` an E0105 and an E0210). Only the same place: what lies inside a refused
/// list or record is still reported. Summaries and the E01xx codes stay.
pub(crate) fn drop_refused_values(diagnostics: &mut Vec<Diagnostic>) {
    let refused: Vec<(Option<PathBuf>, DocumentKind, String)> = diagnostics
        .iter()
        .filter(|d| d.code == Code::E0105 && !d.is_summary() && !d.pointer.is_empty())
        .map(|d| {
            let file = d.span.as_ref().map(|s| s.file.clone());
            (file, d.document, d.pointer.clone())
        })
        .collect();
    if refused.is_empty() {
        return;
    }
    let places: HashSet<(Option<&Path>, DocumentKind, &str)> = refused
        .iter()
        .map(|(file, document, pointer)| (file.as_deref(), *document, pointer.as_str()))
        .collect();
    diagnostics.retain(|d| {
        d.is_summary()
            || d.code.as_str().starts_with("E01")
            || !places.contains(&(
                d.span.as_ref().map(|s| s.file.as_path()),
                d.document,
                d.pointer.as_str(),
            ))
    });
}

/// `499,900`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
