//! Source text and locations: byte offsets → line and column (line starts computed once per
//! file, looked up by binary search), and an index from a document path (a JSON pointer such as
//! `/armies/0/units/3/cp`) to the span of that value in the RON text, built in one pass over the
//! text so diagnostics can point at the exact thing concerned.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

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
            while wanted.insert(p) {
                match p.rfind('/') {
                    Some(cut) => p = &p[..cut],
                    None => break,
                }
            }
        }
        Self::walk(text, Some(&wanted))
    }

    fn walk(text: &str, wanted: Option<&HashSet<&str>>) -> Self {
        let mut index = SpanIndex::default();
        // Every wanted pointer that is in the text, and the variants' contents: sized once.
        index
            .spans
            .reserve(wanted.map_or(0, |w| w.len() + w.len() / 2));
        index.spans.insert(String::new(), 0..text.len());
        let mut scan = Scan {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            spans: &mut index.spans,
            wanted,
            depth: 0,
        };
        // A text that does not parse keeps what was indexed before the error.
        let _ = scan.document();
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

/// How deep the scanner follows brackets before it gives up (the loader refuses documents
/// nested deeper than [`crate::limits::MAX_DEPTH`] long before this).
const SCAN_DEPTH: usize = 4 * crate::limits::MAX_DEPTH;

/// The text does not parse here: the scan stops, keeping what it indexed.
struct Stop;

type Step = Result<(), Stop>;

/// What the scanner does with a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Passes over it, indexing nothing (a value no wanted pointer lies in).
    Skip,
    /// Indexes its contents under the pointer (the document, or what `Some(…)` holds).
    Contents,
    /// Indexes the value itself at the pointer, then its contents; an enum variant with
    /// content (`Free(zone: "a")`, `Hex("1518")`) is one level deeper in JSON
    /// (`{"Free": {"zone": "a"}}`), so its content is indexed under the variant's name too.
    Value,
}

/// One pass over a RON text, indexing the span of each value (or of each wanted value) by its
/// JSON pointer: linear in the size of the text whatever the number of pointers. It knows
/// RON's structure only (brackets, strings, comments, struct fields, map keys), which is all a
/// span needs; the text has been parsed by ron before, and on text that does not parse it
/// stops where it can no longer follow.
struct Scan<'t, 'w> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    spans: &'w mut HashMap<Pointer, Range<usize>>,
    wanted: Option<&'w HashSet<&'w str>>,
    depth: usize,
}

impl<'t> Scan<'t, '_> {
    fn document(&mut self) -> Step {
        self.blanks()?;
        // `#![enable(...)]` attributes.
        while self.rest().starts_with(b"#!") || self.rest().starts_with(b"#[") {
            let close = self.rest().iter().position(|b| *b == b']').ok_or(Stop)?;
            self.pos += close + 1;
            self.blanks()?;
        }
        let mut pointer = String::new();
        self.value(&mut pointer, Mode::Contents)
    }

    fn rest(&self) -> &[u8] {
        &self.bytes[self.pos.min(self.bytes.len())..]
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn wants(&self, pointer: &str) -> bool {
        self.wanted.is_none_or(|wanted| wanted.contains(pointer))
    }

    fn record(&mut self, pointer: &str, span: Range<usize>) {
        self.spans.insert(pointer.to_owned(), span);
    }

    /// Whitespace and comments (block comments nest, as in ron).
    fn blanks(&mut self) -> Step {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = self
                        .rest()
                        .iter()
                        .position(|b| *b == b'\n')
                        .map_or(self.bytes.len(), |i| self.pos + i);
                }
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'*') => {
                    let mut depth = 0usize;
                    loop {
                        match self.rest() {
                            [b'/', b'*', ..] => {
                                depth += 1;
                                self.pos += 2;
                            }
                            [b'*', b'/', ..] => {
                                depth -= 1;
                                self.pos += 2;
                                if depth == 0 {
                                    break;
                                }
                            }
                            [] => return Err(Stop),
                            _ => self.pos += 1,
                        }
                    }
                }
                Some(b) if b >= 0x80 => {
                    match self.text.get(self.pos..).and_then(|t| t.chars().next()) {
                        Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                        _ => return Ok(()),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Consumes `byte` (after blanks) or stops.
    fn expect(&mut self, byte: u8) -> Step {
        self.blanks()?;
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Stop)
        }
    }

    /// After an element: a comma (then `true`: more may follow) or the closing bracket.
    fn separator(&mut self, close: u8) -> Result<bool, Stop> {
        self.blanks()?;
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.blanks()?;
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return Ok(false);
                }
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(Stop),
        }
    }

    /// A value at `pos` (blanks skipped before it), and the blanks after it.
    fn value(&mut self, pointer: &mut String, mode: Mode) -> Step {
        self.depth += 1;
        if self.depth > SCAN_DEPTH {
            return Err(Stop);
        }
        let mode = if mode == Mode::Value && !self.wants(pointer) {
            Mode::Skip
        } else {
            mode
        };
        let children = if mode == Mode::Skip {
            Mode::Skip
        } else {
            Mode::Value
        };
        let start = self.pos;
        match self.peek().ok_or(Stop)? {
            b'(' => self.parens(pointer, children)?,
            b'[' => self.seq(pointer, children)?,
            b'{' => self.map(pointer, children)?,
            b'"' => self.quoted(b'"')?,
            b'\'' => self.quoted(b'\'')?,
            b'b' if matches!(self.bytes.get(self.pos + 1), Some(b'"' | b'\'')) => {
                self.pos += 1;
                let quote = self.peek().unwrap_or(b'"');
                self.quoted(quote)?;
            }
            b'b' if self.raw_string_at(self.pos + 1) => {
                self.pos += 1;
                self.raw_string()?;
            }
            b'r' if self.raw_string_at(self.pos) => self.raw_string()?,
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                let len = self
                    .rest()
                    .iter()
                    .position(|b| {
                        !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'+' | b'-'))
                    })
                    .unwrap_or(self.rest().len());
                self.pos += len;
            }
            _ => {
                let (name, raw) = self.ident().ok_or(Stop)?;
                let after_name = self.pos;
                self.blanks()?;
                if self.peek() == Some(b'(') {
                    if name == "Some" && !raw {
                        self.pos += 1;
                        self.blanks()?;
                        let inner = if mode == Mode::Skip {
                            Mode::Skip
                        } else {
                            Mode::Contents
                        };
                        self.value(pointer, inner)?;
                        // `Some(x,)`
                        if self.peek() == Some(b',') {
                            self.pos += 1;
                        }
                        self.expect(b')')?;
                    } else if mode == Mode::Value && !raw {
                        let len = pointer.len();
                        push_segment(pointer, name);
                        let open = self.pos;
                        let result = self.parens(pointer, Mode::Value);
                        if result.is_ok() {
                            let close = self.pos - 1;
                            let inner = skip_blanks(&self.text[open + 1..close]);
                            let content = open + 1 + inner;
                            let end = content + self.text[content..close].trim_end().len();
                            self.record(pointer, content..end);
                        }
                        pointer.truncate(len);
                        result?;
                    } else {
                        self.parens(pointer, children)?;
                    }
                } else {
                    // A unit variant, `true`, `None`, `inf`: nothing inside.
                    self.pos = after_name;
                }
            }
        }
        let end = self.pos;
        self.blanks()?;
        if mode == Mode::Value {
            // The span reaches over comments after the value (as ron's raw values do), not
            // over blanks.
            let end = end.max(start + self.text[start..self.pos].trim_end().len());
            self.record(pointer, start..end);
        }
        self.depth -= 1;
        Ok(())
    }

    /// An identifier (`r#name` is `name`, raw), or `None` when there is none here.
    fn ident(&mut self) -> Option<(&'t str, bool)> {
        let raw = self.rest().starts_with(b"r#");
        let from = if raw { self.pos + 2 } else { self.pos };
        let text = self.text.get(from..)?;
        let first = text.chars().next()?;
        if !(first.is_alphabetic() || first == '_') {
            return None;
        }
        let len = text
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(text.len(), |(i, _)| i);
        self.pos = from + len;
        Some((&self.text[from..from + len], raw))
    }

    /// `r"…"`, `r#"…"#` at `at`.
    fn raw_string_at(&self, at: usize) -> bool {
        if self.bytes.get(at) != Some(&b'r') {
            return false;
        }
        let hashes = self.bytes[at + 1..]
            .iter()
            .take_while(|b| **b == b'#')
            .count();
        self.bytes.get(at + 1 + hashes) == Some(&b'"')
    }

    fn raw_string(&mut self) -> Step {
        let hashes = self.bytes[self.pos + 1..]
            .iter()
            .take_while(|b| **b == b'#')
            .count();
        self.pos += 1 + hashes + 1;
        loop {
            let quote = self.rest().iter().position(|b| *b == b'"').ok_or(Stop)?;
            self.pos += quote + 1;
            if self.rest().len() >= hashes && self.rest()[..hashes].iter().all(|b| *b == b'#') {
                self.pos += hashes;
                return Ok(());
            }
        }
    }

    /// A quoted string or character at `pos` (escapes skipped).
    fn quoted(&mut self, quote: u8) -> Step {
        self.pos += 1;
        loop {
            match self.peek().ok_or(Stop)? {
                b'\\' => self.pos += 2,
                b if b == quote => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => self.pos += 1,
            }
        }
    }

    /// `( … )` at `pos`: a struct's fields (`(name: value, …)`) or a tuple's elements.
    fn parens(&mut self, pointer: &mut String, children: Mode) -> Step {
        self.pos += 1;
        self.blanks()?;
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(());
        }
        let at = self.pos;
        let is_struct = self.ident().is_some() && {
            let _ = self.blanks();
            self.peek() == Some(b':') && self.bytes.get(self.pos + 1) != Some(&b':')
        };
        self.pos = at;
        let len = pointer.len();
        let mut i = 0usize;
        loop {
            if is_struct {
                let (name, _) = self.ident().ok_or(Stop)?;
                if children != Mode::Skip {
                    push_segment(pointer, name);
                }
                self.expect(b':')?;
                self.blanks()?;
            } else if children != Mode::Skip {
                push_index(pointer, i);
            }
            let result = self.value(pointer, children);
            pointer.truncate(len);
            result?;
            i += 1;
            if !self.separator(b')')? {
                return Ok(());
            }
        }
    }

    fn seq(&mut self, pointer: &mut String, children: Mode) -> Step {
        self.pos += 1;
        self.blanks()?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        let len = pointer.len();
        let mut i = 0usize;
        loop {
            if children != Mode::Skip {
                push_index(pointer, i);
            }
            let result = self.value(pointer, children);
            pointer.truncate(len);
            result?;
            i += 1;
            if !self.separator(b']')? {
                return Ok(());
            }
        }
    }

    /// `{ key: value, … }`: string keys are pointer segments; after a key of another kind the
    /// rest of the map is passed over (a JSON pointer names string keys only).
    fn map(&mut self, pointer: &mut String, mut children: Mode) -> Step {
        self.pos += 1;
        self.blanks()?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        let len = pointer.len();
        loop {
            let key_start = self.pos;
            let mut key_pointer = String::new();
            self.value(&mut key_pointer, Mode::Skip)?;
            if children != Mode::Skip {
                match string_value(self.text[key_start..self.pos].trim_end()) {
                    Some(key) => push_segment(pointer, &key),
                    None => children = Mode::Skip,
                }
            }
            self.expect(b':')?;
            self.blanks()?;
            let result = self.value(pointer, children);
            pointer.truncate(len);
            result?;
            if !self.separator(b'}')? {
                return Ok(());
            }
        }
    }
}

/// Appends a segment to a JSON pointer in place, escaping `~` and `/`.
fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if segment.contains(['~', '/']) {
        pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        pointer.push_str(segment);
    }
}

fn push_index(pointer: &mut String, i: usize) {
    use std::fmt::Write as _;
    pointer.push('/');
    let _ = write!(pointer, "{i}");
}

/// The value of a RON string literal (`"a\"b"`, `r#"…"#`), escapes resolved; `None` for
/// anything else.
fn string_value(literal: &str) -> Option<String> {
    if let Some(body) = literal.strip_prefix('r') {
        let hashes = body.len() - body.trim_start_matches('#').len();
        let body = body.get(hashes..body.len().checked_sub(hashes)?)?;
        return Some(body.strip_prefix('"')?.strip_suffix('"')?.to_owned());
    }
    let body = literal.strip_prefix('"')?.strip_suffix('"')?;
    if !body.contains('\\') {
        return Some(body.to_owned());
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                let rest = chars.as_str().strip_prefix('{')?;
                let close = rest.find('}')?;
                let code = u32::from_str_radix(&rest[..close], 16).ok()?;
                out.push(char::from_u32(code)?);
                chars = rest[close + 1..].chars();
            }
            other => out.push(other),
        }
    }
    Some(out)
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

/// The index as it was built before the one-pass scanner: ron's own parser re-run on every
/// value (`RawValue`), depth × size. Kept as the oracle the scanner is compared with.
#[cfg(test)]
mod oracle {
    use std::collections::HashSet;
    use std::fmt;
    use std::ops::Range;

    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

    use super::{SpanIndex, push_pointer, skip_blanks};

    pub fn walk(text: &str, wanted: Option<&HashSet<String>>) -> SpanIndex {
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
        drop(result);
        index
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
}

#[cfg(test)]
mod scan_tests {
    use std::path::{Path, PathBuf};

    use super::{SpanIndex, oracle};

    fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    ron_files(&path, out);
                }
            } else if name.ends_with(".ron") {
                out.push(path);
            }
        }
    }

    fn sorted(index: &SpanIndex) -> Vec<(String, std::ops::Range<usize>)> {
        let mut spans: Vec<_> = index
            .spans
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        spans.sort_by(|a, b| a.0.cmp(&b.0));
        spans
    }

    #[track_caller]
    fn same_as_the_oracle(text: &str) {
        let scanned = SpanIndex::build(text);
        let oracle = oracle::walk(text, None);
        assert_eq!(sorted(&scanned), sorted(&oracle), "index of {text:?}");
        // A few wanted pointers: the same answers as the whole index.
        let pointers: Vec<&str> = oracle.pointers().step_by(7).collect();
        let some = SpanIndex::build_for(text, pointers.iter().copied());
        let some_oracle = oracle::walk(
            text,
            Some(
                &pointers
                    .iter()
                    .flat_map(|p| {
                        let mut all = vec![p.to_string()];
                        let mut q = *p;
                        while let Some(cut) = q.rfind('/') {
                            q = &q[..cut];
                            all.push(q.to_owned());
                        }
                        all
                    })
                    .collect(),
            ),
        );
        assert_eq!(
            sorted(&some),
            sorted(&some_oracle),
            "index for {pointers:?}"
        );
        for p in pointers {
            assert_eq!(some.resolve(p), scanned.resolve(p), "{p}");
        }
    }

    #[test]
    fn the_scanner_indexes_every_file_of_the_repository_as_ron_does() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        ron_files(&root, &mut files);
        assert!(files.len() > 50, "{} files", files.len());
        let mut compared = 0;
        for file in files {
            // Files that are not UTF-8 are fixtures of that error.
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let text = text.trim_start_matches('\u{feff}');
            // Only texts that ron reads (others are syntax-error fixtures).
            let parsed: Result<ron::Value, _> = crate::io::ron_options().from_str(text);
            if parsed.is_err() {
                continue;
            }
            same_as_the_oracle(text);
            compared += 1;
        }
        assert!(compared > 50, "{compared} compared");
    }

    #[test]
    fn the_scanner_follows_every_kind_of_ron_value() {
        for text in [
            "Scenario(a: Hex(\"1518\"), b: (1), c: Foo(1, 2), d: Some(Hex(\"x\")), e: {\"k\": 1, \"a/b\": [3], \"t~\": 2}, f: [1,2], g: (x: 1), h: Some((x: 1)), i: Free(zone: \"z\"), j: Some(5), k: Bar, l: (1, (y: 2)), m: Baz((q: 1)), n: Foo(1, 2) /* c */ , o: // hi\n 4, p: [], q: Foo(), r: ())",
            "Scenario(r#a: 1, b: r#Foo(x: 1), c: {\"a\\\"b\": 1, \"\\u{e9}\": 2, r\"raw\": 3, r#\"r\"aw\"#: 4})",
            "#![enable(implicit_some)]\nScenario(a: 1)",
            "Scenario(a: [1,2,],)",
            "Scenario(a: (b: 1,), c: 0x1F, d: -inf, e: 'x', f: b\"x(\", g: (1, 2,), h: '\\'', i: \"(\\\"\", j: 1.5e-3, k: NaN)",
            "Scenario(a: {1: (x: 2), \"b\": 3}, c: {\"d\": 4})",
            "Scenario(a: Some((x: 1),), b: Some(Some(3)), c: [Hex(\"a\"), Free(zone: \"z\")])",
            "Map(\n  // the legend\n  legend: {\n    \"c\": (name: \"Clear\", colour: \"#fff\"), // clear\n  },\n  rows: [\"cc\", \"cé\"],\n)\n",
            "Scenario(a: \"é\", b: 1)",
        ] {
            let parsed: Result<ron::Value, _> = crate::io::ron_options().from_str(text);
            assert!(parsed.is_ok(), "{text}: {parsed:?}");
            same_as_the_oracle(text);
        }
    }

    #[test]
    fn broken_text_neither_panics_nor_hangs() {
        let text = "Scenario(a: [1, (b: \"x\", c: {\"k\": r#\"y\"#}), /* z */ Hex(\"0101\")], d: 'q', e: b\"w\")";
        for cut in 0..=text.len() {
            let _ = SpanIndex::build(&text[..cut]);
        }
        for bad in [
            "Scenario(a: /* open",
            "(((((",
            "Scenario(a: \"open",
            "Scenario(a: r##\"x\"#)",
            "Scenario(a: 'x",
            "{\"a\": }",
            "Scenario(a: Some(1 2))",
            "Scenario(a: ~)",
        ] {
            let _ = SpanIndex::build(bad);
        }
        let deep = "[".repeat(10_000);
        assert!(!SpanIndex::build(&deep).is_empty());
    }
}
