//! The span index: JSON pointer → byte span of the value in a RON text, built in one pass
//! over the text (the scanner), with the oracle it was checked against in its tests.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::ron_text::skip_blanks;

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
        // Every wanted pointer that is in the text, and the variants' contents: sized once,
        // with an eighth to spare (half to spare made the table of 400,000 pointers twice the
        // size: the table rounds up to a power of two).
        index
            .spans
            .reserve(wanted.map_or(0, |w| w.len() + w.len() / 8));
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

#[cfg(test)]
mod tests;
