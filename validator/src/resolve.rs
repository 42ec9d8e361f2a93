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
        let text = &self.source.text;
        let index = self.index.get_or_insert_with(|| SpanIndex::build(text));
        let mut bytes = index.resolve(pointer);
        if let Some(chars) = chars
            && let Some(inner) = chars_in_string(
                text,
                bytes.clone(),
                &(chars.start as usize..chars.end as usize),
            )
        {
            bytes = inner;
        }
        span_of(self.source, bytes)
    }

    /// Fills in the spans of the diagnostics (and their related places) in this document.
    pub fn resolve(&mut self, diagnostics: &mut [Diagnostic]) {
        if self.index.is_none() {
            // Index only the values these diagnostics point at (and their ancestors).
            let kind = self.kind;
            let mut pointers = Vec::new();
            for d in diagnostics.iter() {
                if d.span.is_none() && d.document == kind {
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
        for d in diagnostics.iter_mut() {
            if d.span.is_none() && d.document == self.kind {
                d.span = Some(Box::new(self.span(&d.pointer, d.chars.as_ref())));
            }
            for r in d.related.iter_mut() {
                if r.span.is_none() && r.document == self.kind {
                    r.span = Some(Box::new(self.span(&r.pointer, r.chars.as_ref())));
                }
            }
        }
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
