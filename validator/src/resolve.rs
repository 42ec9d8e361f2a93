//! Resolving diagnostics' JSON pointers to file, line and column with the schema crate's
//! `SpanIndex`, built once per document, only when that document has diagnostics, and only
//! for the values they point at.

use std::ops::Range;

use bataille_schema::{DocumentKind, SourceFile, SpanIndex};

use crate::diagnostic::{Diagnostic, Span};

/// A document's text, with its span index built on first use.
pub struct Resolver<'a> {
    pub kind: DocumentKind,
    pub source: &'a SourceFile,
    index: Option<SpanIndex>,
}

impl<'a> Resolver<'a> {
    pub fn new(kind: DocumentKind, source: &'a SourceFile) -> Self {
        Self {
            kind,
            source,
            index: None,
        }
    }

    /// The span of a pointer (and of a character range inside the string value there).
    pub fn span(&mut self, pointer: &str, chars: Option<&Range<u32>>) -> Span {
        let bytes = self.bytes(pointer, chars);
        span_of(self.source, bytes)
    }

    /// Fills in the spans of the diagnostics (and their related places) in this document.
    pub fn resolve(&mut self, diagnostics: &mut [Diagnostic]) {
        if self.index.is_none() {
            // Index only the values these diagnostics point at (and their ancestors).
            let kind = self.kind;
            let mut pointers = Vec::new();
            for d in diagnostics.iter() {
                if d.span.is_none() && d.document == kind && !d.is_summary() {
                    pointers.push(d.pointer.as_str());
                }
                for r in &d.related {
                    if r.span.is_none() && r.document == kind {
                        pointers.push(r.pointer.as_str());
                    }
                }
            }
            if pointers.is_empty() {
                return;
            }
            self.index = Some(SpanIndex::build_for(&self.source.text, pointers));
        }
        // Each new span's bytes first, with its line and column when they are near its line's
        // start; the others (line 0) counted in one pass over their offsets in order: counted
        // from each line's start, 500,000 places on one line (an `allow` list) were
        // quadratic, minutes for a 4 MB file (issue 19).
        for d in diagnostics.iter_mut() {
            if d.span.is_none() && d.document == self.kind {
                // A summary of diagnostics not shown stands at the file's start.
                d.span = Some(Box::new(if d.is_summary() {
                    span_of(self.source, 0..0)
                } else {
                    self.unplaced(&d.pointer, d.chars.as_ref())
                }));
            }
            for r in d.related.iter_mut() {
                if r.span.is_none() && r.document == self.kind {
                    r.span = Some(Box::new(self.unplaced(&r.pointer, r.chars.as_ref())));
                }
            }
        }
        let file = &self.source.path;
        let unplaced = |span: &&mut Box<Span>| span.line == 0 && span.file == *file;
        let places = Places::of(
            self.source,
            diagnostics.iter_mut().flat_map(|d| {
                let own = d.span.as_mut().filter(unplaced).map(|s| s.bytes.clone());
                let related = d
                    .related
                    .iter_mut()
                    .filter_map(|r| r.span.as_mut().filter(unplaced).map(|s| s.bytes.clone()));
                own.into_iter().chain(related)
            }),
        );
        for d in diagnostics.iter_mut() {
            let own = d.span.as_mut().filter(unplaced);
            let related = d
                .related
                .iter_mut()
                .filter_map(|r| r.span.as_mut().filter(unplaced));
            for span in own.into_iter().chain(related) {
                places.place(span);
            }
        }
    }

    /// The span of a pointer, counted at once when both its ends are near their line's
    /// start; else its line and column are left to count with the others far along a long
    /// line (line 0: not placed yet).
    fn unplaced(&mut self, pointer: &str, chars: Option<&Range<u32>>) -> Span {
        /// How far into a line a column is counted from the line's start.
        const NEAR: usize = 4096;
        let bytes = self.bytes(pointer, chars);
        let near = |offset: usize| {
            let (byte, _, start) = self.source.line_of(offset);
            byte - start <= NEAR
        };
        if near(bytes.start) && near(bytes.end.max(bytes.start)) {
            return span_of(self.source, bytes);
        }
        Span {
            file: self.source.path.clone(),
            line: 0,
            column: 0,
            end_line: 0,
            end_column: 0,
            bytes,
        }
    }

    /// The bytes of a pointer (and of a character range inside the string value there).
    fn bytes(&mut self, pointer: &str, chars: Option<&Range<u32>>) -> Range<usize> {
        let text = &self.source.text;
        let index = self.index.get_or_insert_with(|| SpanIndex::build(text));
        let bytes = index.resolve(pointer);
        chars
            .and_then(|chars| {
                let chars = chars.start as usize..chars.end as usize;
                chars_in_string(text, bytes.clone(), &chars)
            })
            .unwrap_or(bytes)
    }
}

/// The line and column of every offset some ranges start or end at, counted in one pass in
/// the offsets' order: each column from the offset before it on the same line.
struct Places {
    /// (offset, line, column), sorted by offset.
    at: Vec<(usize, u32, u32)>,
}

impl Places {
    fn of(source: &SourceFile, ranges: impl Iterator<Item = Range<usize>>) -> Self {
        let mut at: Vec<(usize, u32, u32)> = ranges
            .flat_map(|r| [(r.start, 0, 0), (r.end.max(r.start), 0, 0)])
            .collect();
        at.sort_unstable();
        at.dedup();
        // The offset counted last: its line's first byte, its own byte and its column.
        let mut last: Option<(usize, usize, usize)> = None;
        let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        for (offset, line_out, column_out) in &mut at {
            let (byte, line, start) = source.line_of(*offset);
            let column = match last {
                Some((last_start, last_byte, last_column))
                    if last_start == start && last_byte <= byte =>
                {
                    last_column + source.text[last_byte..byte].chars().count()
                }
                _ => source.text[start..byte].chars().count() + 1,
            };
            last = Some((start, byte, column));
            (*line_out, *column_out) = (number(line), number(column));
        }
        Self { at }
    }

    fn line_column(&self, offset: usize) -> (usize, usize) {
        self.at
            .binary_search_by_key(&offset, |&(o, _, _)| o)
            .ok()
            .and_then(|i| self.at.get(i))
            .map_or((1, 1), |&(_, line, column)| {
                (line as usize, column as usize)
            })
    }

    /// Fills in the line and column of a span whose two ends were counted.
    fn place(&self, span: &mut Span) {
        (span.line, span.column) = self.line_column(span.bytes.start);
        (span.end_line, span.end_column) = self.line_column(span.bytes.end.max(span.bytes.start));
    }
}

/// A `Span` from a byte range of a source.
pub fn span_of(source: &SourceFile, bytes: Range<usize>) -> Span {
    let location = source.location(bytes.clone());
    Span {
        file: source.path.clone(),
        line: location.line,
        column: location.column,
        end_line: location.end_line,
        end_column: location.end_column,
        bytes,
    }
}

/// The bytes of a character range inside a RON string literal (`"ccff…"`) spanning `literal`.
/// `None` when the literal is not a plain quoted string (escapes, raw strings).
fn chars_in_string(
    text: &str,
    literal: Range<usize>,
    chars: &Range<usize>,
) -> Option<Range<usize>> {
    let raw = text.get(literal.clone())?;
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        return None;
    }
    let start_of = |n: usize| inner.char_indices().nth(n).map_or(inner.len(), |(i, _)| i);
    let base = literal.start + 1;
    let start = base + start_of(chars.start);
    let end = base + start_of(chars.end.max(chars.start));
    Some(start..end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many places on one long line (beyond the columns counted at once), resolved out of
    /// order, get the columns a place alone gets: the one pass counts each column from the
    /// place before it on the line.
    #[test]
    fn places_on_one_long_line_resolve_as_each_alone() {
        let codes: Vec<String> = (0..2000)
            .map(|i| format!("\"{}{i}\"", if i % 3 == 0 { "é" } else { "E" }))
            .collect();
        let text = format!(
            "Map(\n    allow: [{}],\n    rows: [\"x\"],\n)\n",
            codes.join(", ")
        );
        let source = SourceFile::new("m.ron", text.clone());
        let pointers = [
            "/allow/1500",
            "/rows/0",
            "/allow/3",
            "/allow/1999",
            "/allow/700",
            "/allow/1500",
        ];
        let mut diagnostics: Vec<Diagnostic> = pointers
            .iter()
            .map(|p| {
                Diagnostic::new(crate::Code::E0105, DocumentKind::Map, *p, "m").related(
                    crate::diagnostic::Related::new(DocumentKind::Map, "/allow/1200", "r"),
                )
            })
            .collect();
        Resolver::new(DocumentKind::Map, &source).resolve(&mut diagnostics);
        let mut alone = Resolver::new(DocumentKind::Map, &source);
        for (d, p) in diagnostics.iter().zip(pointers) {
            assert_eq!(d.span.as_deref(), Some(&alone.span(p, None)), "{p}");
            assert_eq!(
                d.related[0].span.as_deref(),
                Some(&alone.span("/allow/1200", None))
            );
        }
        let last = diagnostics[3].span.as_deref().expect("resolved");
        assert_eq!(&text[last.bytes.clone()], "\"E1999\"");
        assert!(last.bytes.start > 4096 && last.line == 2);
        let before = text[..last.bytes.start].rfind('\n').expect("line 2") + 1;
        assert_eq!(
            last.column,
            text[before..last.bytes.start].chars().count() + 1
        );
    }

    #[test]
    fn a_char_range_resolves_inside_the_row_string() {
        let text = "Map(\n    rows: [\n        \"ccfé\",\n        \"ccxc\",\n    ],\n)\n";
        let source = SourceFile::new("m.ron", text.to_owned());
        let mut resolver = Resolver::new(DocumentKind::Map, &source);
        let span = resolver.span("/rows/1", Some(&(2..3)));
        assert_eq!((span.line, span.column), (4, 12));
        assert_eq!(&text[span.bytes.clone()], "x");
        let span = resolver.span("/rows/0", Some(&(3..4)));
        assert_eq!(&text[span.bytes.clone()], "é");
    }
}
