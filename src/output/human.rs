//! rustc-like output through annotate-snippets (rustc's own renderer): `error[E0301]: …`, the
//! place, the source line underlined, related places labelled, `= help: …`. A summary line goes
//! to stderr.

use std::io::{IsTerminal, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use bataille_schema::SourceFile;
use bataille_validator::{Diagnostic, Severity, Span};
use rayon::prelude::*;

use crate::files;
use crate::output::place;
use crate::results::Results;
use crate::terminal::{Escaped, escape};

/// The longest excerpt shown under a diagnostic: a longer line (a 14 MB string on one line)
/// is reported by place alone, so the report stays linear in what it shows.
const MAX_EXCERPT_BYTES: usize = 16 * 1024;

/// The length of the lines a span touches.
fn line_bytes(source: &SourceFile, span: &std::ops::Range<usize>) -> usize {
    excerpt(source, span, std::iter::empty()).0.len()
}

/// The most related places shown under one diagnostic; the others are counted in a last note
/// (`--format json` and `sarif` list them all). The checks name at most
/// [`bataille_validator::diagnostic::MAX_RELATED`] places and one more that counts the others
/// (100,000 counters in one hex made one error of 100,000 lines); this bounds the report of
/// any other.
const MAX_RELATED_SHOWN: usize = bataille_validator::diagnostic::MAX_RELATED + 1;

/// Diagnostics rendered at once, in parallel, before they are written.
const RENDER_CHUNK: usize = 4096;

pub fn print(results: &Results) -> std::io::Result<()> {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    write(&mut std::io::stdout().lock(), results, colour)?;
    tell!("{}", summary(results));
    Ok(())
}

/// The report to any writer (standard error for a command's refusal), without the summary.
pub fn write(out: &mut dyn Write, results: &Results, colour: bool) -> std::io::Result<()> {
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    // Each diagnostic renders on its own, so chunks of them render on every core (rayon) and
    // are written in order; a chunk bounds what is held in memory at once.
    for chunk in results.diagnostics.chunks(RENDER_CHUNK) {
        let rendered: Vec<String> = chunk
            .par_iter()
            .map(|d| render(&renderer, results, d))
            .collect();
        for text in rendered {
            writeln!(out, "{text}\n")?;
        }
    }
    out.flush()
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
    let title = escape(&d.message);
    // The source lines as a terminal may show them (declared before the group that borrows it).
    let escaped: Escaped;
    let mut group = Group::with_title(level.primary_title(title).id(d.code.as_str()));
    let mut notes: Vec<String> = Vec::new();
    let related = &d.related[..d.related.len().min(MAX_RELATED_SHOWN)];
    match &d.span {
        Some(span) => match results.sources.get(&span.file) {
            Some(source)
                if span.bytes.end <= source.text.len()
                    && span.bytes.len() <= MAX_EXCERPT_BYTES
                    && line_bytes(source, &span.bytes) <= MAX_EXCERPT_BYTES =>
            {
                let len = source.text.len();
                // A related place far from the primary one (another corner of the file) is a
                // note with its place, not part of the excerpt: the excerpt stays small.
                let in_text = |rs: &&Span| {
                    rs.file == span.file
                        && rs.bytes.end <= len
                        && rs.bytes.start + MAX_EXCERPT_BYTES >= span.bytes.start
                        && rs.bytes.end <= span.bytes.end + MAX_EXCERPT_BYTES
                };
                // Only the lines the diagnostic concerns go to the renderer, which reads all
                // of the text it is given: with the whole file, a report was quadratic.
                let shown = related
                    .iter()
                    .filter_map(|r| r.span.as_deref().filter(in_text));
                let (lines, first_line) = excerpt(source, &span.bytes, shown);
                let shift = |bytes: &std::ops::Range<usize>| {
                    bytes.start - lines.start..bytes.end - lines.start
                };
                // The lines as a terminal may show them: hidden characters escaped, the spans
                // moved onto the escaped text.
                escaped = Escaped::new(&source.text[lines.clone()]);
                let shift = |bytes: &std::ops::Range<usize>| escaped.map(&shift(bytes));
                let mut snippet = Snippet::source(&escaped.text)
                    .line_start(first_line)
                    .path(files::display(&span.file))
                    .annotation(AnnotationKind::Primary.span(shift(&span.bytes)));
                for r in related {
                    match r.span.as_deref() {
                        Some(rs) if in_text(&rs) => {
                            snippet = snippet.annotation(
                                AnnotationKind::Context
                                    .span(shift(&rs.bytes))
                                    .label(escape(&r.message)),
                            );
                        }
                        Some(rs) => notes.push(format!("{}: {}", r.message, place(rs))),
                        None => notes.push(r.message.to_string()),
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
                for r in related {
                    match &r.span {
                        Some(rs) => notes.push(format!("{}: {}", r.message, place(rs))),
                        None => notes.push(r.message.to_string()),
                    }
                }
            }
        },
        None => notes.extend(related.iter().map(|r| r.message.to_string())),
    }
    let more = d.related.len() - related.len();
    if more > 0 {
        notes.push(format!(
            "and {more} more related place{} (`--format json` lists them all)",
            if more == 1 { "" } else { "s" }
        ));
    }
    for note in notes {
        group = group.element(Level::NOTE.message(escape(&note)));
    }
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(escape(help)));
    }
    let report: &[Group<'_>] = &[group];
    renderer.render(report)
}

/// The bytes of the whole lines that the spans touch (the last line's newline included) and
/// the number of the first of them.
fn excerpt<'a>(
    source: &SourceFile,
    primary: &std::ops::Range<usize>,
    others: impl Iterator<Item = &'a Span>,
) -> (std::ops::Range<usize>, usize) {
    let text = &source.text;
    let (mut start, mut end) = (primary.start, primary.end);
    for span in others {
        start = start.min(span.bytes.start);
        end = end.max(span.bytes.end);
    }
    let start = start.min(text.len());
    let end = end.clamp(start, text.len());
    // The lines from the line index, never scanned for (a report of 100 places on one
    // 64 MiB line scanned it 100 times, issue 19). A span at the very end of the text belongs
    // to the last line, as the renderer places it when given the whole text.
    let (first, first_line) = source.line_bytes(start.min(text.len().saturating_sub(1)));
    let line_start = first.start;
    let line_end = if end >= first.end {
        source.line_bytes(end).0.end
    } else {
        first.end
    };
    (line_start..line_end, first_line)
}
