//! `--format json`: one JSON array; each diagnostic an object with `severity`, `code`,
//! `message`, `file`, `line`, `column`, `end_line`, `end_column`, `hex` when one hex is
//! concerned, `help`, `subject`, `document`, `pointer` and `related` places; a summary of the
//! diagnostics of a code not listed (beyond `--max-per-code` in a file) has `omitted`, their
//! number, and stands at the file's first line.

use std::io::Write;

use bataille_validator::{Diagnostic, Related};
use serde::Serialize;

use crate::files;
use crate::results::Results;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subject: Option<&'a str>,
    document: &'static str,
    pointer: &'a str,
    related: Vec<JsonRelated<'a>>,
    /// On a summary only: how many diagnostics of its code in its file it stands for, not
    /// listed (a file's report lists at most `--max-per-code` of a code).
    #[serde(skip_serializing_if = "Option::is_none")]
    omitted: Option<usize>,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    message: &'a str,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subject: Option<&'a str>,
    pointer: &'a str,
}

fn related(r: &Related) -> JsonRelated<'_> {
    JsonRelated {
        message: &r.message,
        file: r.span.as_ref().map(|s| files::portable(&s.file)),
        line: r.span.as_ref().map(|s| s.line),
        column: r.span.as_ref().map(|s| s.column),
        hex: r.hex.as_deref(),
        subject: r.subject.as_deref(),
        pointer: &r.pointer,
    }
}

fn diagnostic(d: &Diagnostic) -> JsonDiagnostic<'_> {
    let span = d.span.as_ref();
    JsonDiagnostic {
        severity: d.severity.as_str(),
        code: d.code.as_str(),
        message: &d.message,
        help: d.help.as_deref(),
        file: span.map(|s| files::portable(&s.file)),
        line: span.map(|s| s.line),
        column: span.map(|s| s.column),
        end_line: span.map(|s| s.end_line),
        end_column: span.map(|s| s.end_column),
        hex: d.hex.as_deref(),
        subject: d.subject.as_deref(),
        document: d.document.as_str(),
        pointer: &d.pointer,
        related: d.related.iter().map(related).collect(),
        omitted: d.is_summary().then_some(d.omitted),
    }
}

/// The diagnostics one at a time: no copy of them all, as JSON values or as text, in memory.
struct All<'a>(&'a [Diagnostic]);

impl Serialize for All<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(diagnostic))
    }
}

pub fn print(results: &Results) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    crate::terminal::write_json(&mut out, &All(&results.diagnostics))?;
    out.flush()
}
