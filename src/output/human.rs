//! rustc-like output through annotate-snippets (rustc's own renderer): `error[E0301]: …`, the
//! place, the source line underlined, related places labelled, `= help: …`. A summary line goes
//! to stderr.

use std::io::{IsTerminal, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use bataille_validator::{Diagnostic, Severity};

use crate::files;
use crate::output::place;
use crate::validate::Results;

pub fn print(results: &Results) -> std::io::Result<()> {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = std::io::stdout().lock();
    for d in &results.diagnostics {
        writeln!(out, "{}\n", render(&renderer, results, d))?;
    }
    out.flush()?;
    eprintln!("{}", summary(results));
    Ok(())
}

/// `2 errors, 1 warning in 3 files`.
pub fn summary(results: &Results) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {} in {}",
        plural(results.errors(), "error", "errors"),
        plural(results.warnings(), "warning", "warnings"),
        plural(results.files, "file", "files")
    )
}

fn render(renderer: &Renderer, results: &Results, d: &Diagnostic) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = annotate_snippets::normalize_untrusted_str(&d.message);
    let mut group = Group::with_title(level.primary_title(title).id(d.code.as_str()));
    let mut notes: Vec<String> = Vec::new();
    match &d.span {
        Some(span) => match results.sources.get(&span.file) {
            Some(source) if span.bytes.end <= source.text.len() => {
                let mut snippet = Snippet::source(source.text.as_str())
                    .path(files::display(&span.file))
                    .annotation(AnnotationKind::Primary.span(span.bytes.clone()));
                for r in &d.related {
                    match &r.span {
                        Some(rs) if rs.file == span.file && rs.bytes.end <= source.text.len() => {
                            snippet = snippet.annotation(
                                AnnotationKind::Context
                                    .span(rs.bytes.clone())
                                    .label(annotate_snippets::normalize_untrusted_str(&r.message)),
                            );
                        }
                        Some(rs) => notes.push(format!("{}: {}", r.message, place(rs))),
                        None => notes.push(r.message.clone()),
                    }
                }
                group = group.element(snippet);
            }
            _ => {
                group = group.element(
                    Origin::path(files::display(&span.file))
                        .line(span.line)
                        .char_column(span.column),
                );
                for r in &d.related {
                    match &r.span {
                        Some(rs) => notes.push(format!("{}: {}", r.message, place(rs))),
                        None => notes.push(r.message.clone()),
                    }
                }
            }
        },
        None => notes.extend(d.related.iter().map(|r| r.message.clone())),
    }
    for note in notes {
        group =
            group.element(Level::NOTE.message(annotate_snippets::normalize_untrusted_str(&note)));
    }
    if let Some(help) = &d.help {
        group =
            group.element(Level::HELP.message(annotate_snippets::normalize_untrusted_str(help)));
    }
    let report: &[Group<'_>] = &[group];
    renderer.render(report)
}
