//! Source text and locations: byte offsets → line and column, and an index from a document
//! path (a JSON pointer such as `/armies/0/units/3/cp`) to the span of that value in the RON
//! text, built with ron's own parser so diagnostics can point at the exact thing concerned.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// A file's text with a table of line starts.
///
/// A UTF-8 byte-order mark at the start is not part of the text: it is dropped (and `bom`
/// set), so the file reads as any other, columns on the first line count as editors count
/// them, and `bataille fmt` writes the file without it (the canonical form has none).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    /// The file started with a byte-order mark, which is not in `text`.
    pub bom: bool,
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
    pub fn new(path: impl Into<PathBuf>, mut text: String) -> Self {
        let bom = text.starts_with('\u{feff}');
        if bom {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            path: path.into(),
            text,
            bom,
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
        Self::walk(text, None)
    }

    /// Builds the index of only the values these pointers need (each pointer and its
    /// ancestors): values elsewhere are skipped, not indexed or descended into. For a big
    /// document with a few diagnostics, a small fraction of the time and memory of [`build`];
    /// [`resolve`] gives the same answer for these pointers.
    ///
    /// [`build`]: SpanIndex::build
    /// [`resolve`]: SpanIndex::resolve
    pub fn build_for<'p>(text: &str, pointers: impl IntoIterator<Item = &'p str>) -> Self {
        let mut wanted = HashSet::new();
        for pointer in pointers {
            let mut p = pointer;
            while wanted.insert(p.to_owned()) {
                match p.rfind('/') {
                    Some(cut) => p = &p[..cut],
                    None => break,
                }
            }
        }
        Self::walk(text, Some(&wanted))
    }

    fn walk(text: &str, wanted: Option<&HashSet<String>>) -> Self {
        let mut index = SpanIndex::default();
        index.spans.insert(String::new(), 0..text.len());
        let options = crate::io::ron_options();
        let result = options.from_str_seed(
            text,
            Walker {
                whole: text,
                pointer: String::new(),
                index: &mut index,
                wanted,
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

    /// Every pointer indexed.
    pub fn pointers(&self) -> impl Iterator<Item = &str> {
        self.spans.keys().map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

struct Walker<'i, 'a> {
    whole: &'a str,
    pointer: String,
    index: &'i mut SpanIndex,
    /// Only these pointers are indexed (and only they are descended into); `None`: all.
    wanted: Option<&'i HashSet<String>>,
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
    fn wants(&self, pointer: &str) -> bool {
        self.wanted.is_none_or(|wanted| wanted.contains(pointer))
    }

    fn descend(&mut self, pointer: String, raw: &'de ron::value::RawValue) {
        if !self.wants(&pointer) {
            return;
        }
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
                    wanted: self.wanted,
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

/// The byte span of the first comment (`// …` or `/* … */`) of a RON text, strings and
/// characters skipped. The canonical form has no comments, so `bataille fmt` would drop it.
pub fn first_comment(text: &str) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_quoted(bytes, i, b'"'),
            b'\'' => i = skip_quoted(bytes, i, b'\''),
            b'r' if is_raw_string_start(bytes, i) => i = skip_raw_string(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                return Some(i..end);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(text.len(), |n| i + 2 + n + 2);
                return Some(i..end);
            }
            _ => i += 1,
        }
    }
    None
}

/// The index after a quoted string or character starting at `start` (escapes skipped).
fn skip_quoted(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// `r"…"` or `r#"…"#` starts here (and `r` is not the end of an identifier).
fn is_raw_string_start(bytes: &[u8], i: usize) -> bool {
    let after_ident = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    if after_ident {
        return false;
    }
    let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
    bytes.get(i + 1 + hashes) == Some(&b'"')
}

fn skip_raw_string(bytes: &[u8], start: usize) -> usize {
    let hashes = bytes[start + 1..]
        .iter()
        .take_while(|b| **b == b'#')
        .count();
    let body = start + 1 + hashes + 1;
    let mut i = body;
    while i < bytes.len() {
        if bytes[i] == b'"'
            && bytes.len() - (i + 1) >= hashes
            && bytes[i + 1..i + 1 + hashes].iter().all(|b| *b == b'#')
        {
            return i + 1 + hashes;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod comment_tests {
    use super::first_comment;

    #[test]
    fn comments_are_found_outside_strings_only() {
        assert_eq!(first_comment("Map(a: 1)"), None);
        assert_eq!(first_comment(r#"Map(a: "http://x/*y*/")"#), None);
        assert_eq!(first_comment(r#"Map(a: "q\"//", b: '/')"#), None);
        assert_eq!(first_comment(r##"Map(a: r#"x"//"#)"##), None);
        let text = "Map(\n    // the legend\n    a: 1,\n)";
        let span = first_comment(text).unwrap();
        assert_eq!(&text[span], "// the legend");
        let text = "Map(a: 1 /* two\nlines */)";
        assert_eq!(&text[first_comment(text).unwrap()], "/* two\nlines */");
        assert_eq!(first_comment("Map(a: \"unterminated //"), None);
        assert!(first_comment("Map(a: 1) /* open").is_some());
        assert_eq!(first_comment("var: 1 //"), Some(7..9));
    }
}
