//! Source text and locations: byte offsets → line and column, and an index from a document
//! path (a JSON pointer such as `/armies/0/units/3/cp`) to the span of that value in the RON
//! text, built with ron's own parser so diagnostics can point at the exact thing concerned.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// A file's text with a table of line starts.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<usize>,
}

/// A place in a file: 1-based line and column (columns in characters), and the byte span.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    #[serde(skip)]
    pub span: Range<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and character column of a byte offset (clamped to the text).
    pub fn line_column(&self, byte: usize) -> (usize, usize) {
        let byte = self.floor_char_boundary(byte.min(self.text.len()));
        let line = self.line_starts.partition_point(|&start| start <= byte);
        let start = self.line_starts[line - 1];
        let column = self.text[start..byte].chars().count() + 1;
        (line, column)
    }

    fn floor_char_boundary(&self, mut byte: usize) -> usize {
        while byte > 0 && !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }

    /// The byte offset of a 1-based line and character column (clamped).
    pub fn byte_of(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let end = self.line_end(start);
        self.text[start..end]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    fn line_end(&self, start: usize) -> usize {
        self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i)
    }

    /// The location of a byte span.
    pub fn location(&self, span: Range<usize>) -> Location {
        let (line, column) = self.line_column(span.start);
        let (end_line, end_column) = self.line_column(span.end.max(span.start));
        Location {
            path: self.path.clone(),
            line,
            column,
            end_line,
            end_column,
            span,
        }
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return "";
        };
        self.text[start..self.line_end(start)].trim_end_matches('\r')
    }
}

/// A path into a document, written as a JSON pointer (`/armies/0/units/3`).
pub type Pointer = String;

/// Appends a segment to a JSON pointer, escaping `~` and `/`.
pub fn push_pointer(pointer: &str, segment: &str) -> String {
    let escaped = segment.replace('~', "~0").replace('/', "~1");
    format!("{pointer}/{escaped}")
}

/// Where each value of a RON document lies: JSON pointer → byte span of the value (for a map
/// entry or struct field, the value).
#[derive(Debug, Default, Clone)]
pub struct SpanIndex {
    spans: HashMap<Pointer, Range<usize>>,
}

impl SpanIndex {
    /// Builds the index of a document that parses. A text that does not parse gives an index
    /// holding what was read before the error.
    pub fn build(text: &str) -> Self {
        let mut index = SpanIndex::default();
        index.spans.insert(String::new(), 0..text.len());
        let options = crate::io::ron_options();
        let result = options.from_str_seed(
            text,
            Walker {
                whole: text,
                pointer: String::new(),
                index: &mut index,
            },
        );
        // A text that does not parse keeps what was indexed before the error.
        drop(result);
        index
    }

    /// The span of the value at the pointer, or of its nearest ancestor that was indexed.
    pub fn resolve(&self, pointer: &str) -> Range<usize> {
        let mut pointer = pointer;
        loop {
            if let Some(span) = self.spans.get(pointer) {
                return span.clone();
            }
            match pointer.rfind('/') {
                Some(cut) => pointer = &pointer[..cut],
                None => return self.spans.get("").cloned().unwrap_or(0..0),
            }
        }
    }

    /// The exact span at the pointer, when indexed.
    pub fn get(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(pointer).cloned()
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

struct Walker<'i, 'a> {
    whole: &'a str,
    pointer: String,
    index: &'i mut SpanIndex,
}

/// The span of a raw value inside the whole text, with leading blanks and comments skipped.
fn span_in(whole: &str, raw: &str) -> Range<usize> {
    let start = (raw.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize);
    let skipped = skip_blanks(raw);
    let trimmed = raw[skipped..].trim_end();
    let start = (start + skipped).min(whole.len());
    start..(start + trimmed.len()).min(whole.len())
}

/// Bytes of whitespace and comments at the front of a RON fragment.
pub(crate) fn skip_blanks(text: &str) -> usize {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            return text.len() - trimmed.len();
        }
    }
}

impl<'de, 'i, 'a> DeserializeSeed<'de> for Walker<'i, 'a>
where
    'de: 'a,
{
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, 'i, 'a> Walker<'i, 'a> {
    fn descend(&mut self, pointer: String, raw: &'de ron::value::RawValue) {
        let span = span_in(self.whole, raw.get_ron());
        self.index.spans.insert(pointer.clone(), span);
        let text = raw.get_ron();
        // Only structures hold further values worth indexing.
        let body = text[skip_blanks(text)..].trim_start();
        let first = body.chars().next().unwrap_or(' ');
        // An enum variant with content (`Free(zone: "a")`, `Hex("1518")`) is one level deeper
        // in JSON (`{"Free": {"zone": "a"}}`): index it under the variant's name too.
        let ident: String = body
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let pointer = if !ident.is_empty()
            && ident != "Some"
            && body[ident.len()..].trim_start().starts_with('(')
        {
            // The variant's content: what lies between its parentheses.
            let open = text.find('(').map_or(0, |i| i + 1);
            let close = text.rfind(')').unwrap_or(text.len()).max(open);
            let span = span_in(self.whole, &text[open..close]);
            let inner = push_pointer(&pointer, &ident);
            self.index.spans.insert(inner.clone(), span);
            inner
        } else {
            pointer
        };
        if matches!(first, '(' | '[' | '{') || first.is_alphabetic() && body.contains('(') {
            let options = crate::io::ron_options();
            let _ = options.from_str_seed(
                text,
                Walker {
                    whole: self.whole,
                    pointer,
                    index: self.index,
                },
            );
        }
    }
}

impl<'de, 'i, 'a> Visitor<'de> for Walker<'i, 'a>
where
    'de: 'a,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any RON value")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            let pointer = push_pointer(&self.pointer, &name);
            let value = map.next_value::<&'de ron::value::RawValue>()?;
            self.descend(pointer, value);
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while let Some(value) = seq.next_element::<&'de ron::value::RawValue>()? {
            let pointer = push_pointer(&self.pointer, &i.to_string());
            self.descend(pointer, value);
            i += 1;
        }
        Ok(())
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        Ok(())
    }
    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_char<E>(self, _: char) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<(), E> {
        Ok(())
    }
}

/// The display form of a path for messages.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}
