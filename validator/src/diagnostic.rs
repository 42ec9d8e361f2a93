//! The `Diagnostic` every check produces: a code, a message, the place in the document (a JSON
//! pointer, so the editor can use it without files) and, once resolved against the file's text,
//! the file, line and column.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use bataille_schema::DocumentKind;
use serde::Serialize;

use crate::codes::{Code, Severity};

/// The most places a diagnostic names as related; beyond, one more place (the next of them)
/// says how many others there are. 200,000 counters in one hex made one error naming 199,999
/// places: 50 MB of related places and 60 MB of span index for one diagnostic, and a report of
/// 200,000 lines.
pub const MAX_RELATED: usize = 20;

/// A place in a file, 1-based, columns in characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// Byte range in the file's text.
    #[serde(skip)]
    pub bytes: Range<usize>,
}

/// Another place that explains a diagnostic: the other unit in an overstacked hex, the first
/// definition of a duplicate id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// What the place is: most are fixed texts (`first defined here, as a unit`), borrowed
    /// rather than copied into each related place.
    pub message: Cow<'static, str>,
    pub document: DocumentKind,
    /// JSON pointer of the value concerned (`/armies/0/units/3/placement/Hex`).
    pub pointer: String,
    /// A range of characters inside the string value at `pointer` (a hex's code in a row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chars: Option<Range<u32>>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared")]
    pub hex: Option<Arc<str>>,
    /// The id of the counter, corps or zone concerned: the item's own id, which
    /// `bataille_schema::scenario::ItemAt::of_id` turns into the scenario's address for it
    /// (the editor's selection; the validator's places of repeated ids).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared")]
    pub subject: Option<Arc<str>>,
    /// Filled in by `resolve` when the document's text is known; boxed, as in [`Diagnostic`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Box<Span>>,
}

/// One problem found in a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What is wrong (`hex 1518: 4 CP of infantry, at most 3`).
    pub message: String,
    /// What would fix it: most helps are fixed texts, borrowed rather than copied into each
    /// diagnostic (100,000 repeated ids held 8 MB of copies of one help).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<Cow<'static, str>>,
    /// The document the pointer is in.
    pub document: DocumentKind,
    /// JSON pointer of the value concerned; `""` is the whole document.
    pub pointer: String,
    /// A range of characters inside the string value at `pointer` (a hex's code in a row):
    /// `u32`, as a document is far smaller than 4 GiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chars: Option<Range<u32>>,
    /// The hex concerned, when one is. Shared (`Arc`) rather than copied: a diagnostic and
    /// its related places often name the same hex or subject, and a short string copied is a
    /// whole allocation each (100,000 repeated ids held 200,000 copies of their ids).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared")]
    pub hex: Option<Arc<str>>,
    /// The id of the counter (unit, line leader, commander), corps, zone or army concerned
    /// (its address: `bataille_schema::scenario::ItemAt::of_id`). A counter's `allow` list
    /// suppresses diagnostics whose subject it is. An id rather than an address: it is what
    /// the file's author writes in an `allow` list and reads in a report, and it outlives an
    /// edit that moves the item in its list.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "shared")]
    pub subject: Option<Arc<str>>,
    pub related: Vec<Related>,
    /// Set on a summary ([`crate::sink::summary`]): how many diagnostics of its code in its
    /// document it stands for, not shown (a file's report keeps at most
    /// [`crate::sink::MAX_PER_CODE`] of a code); 0 on every other diagnostic.
    #[serde(skip_serializing_if = "is_zero")]
    pub omitted: usize,
    /// Filled in by `resolve` (or by the loader for syntax errors) when the text is known.
    /// Boxed: the checks make every diagnostic without it, and a `Span` held in place was 72
    /// of each diagnostic's bytes and of each related place's at the checks' peak (100,000
    /// repeated ids, issue 19); it is filled in after the document is dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Box<Span>>,
}

impl Diagnostic {
    /// A diagnostic of `code` about the value at `pointer`.
    pub fn new(
        code: Code,
        document: DocumentKind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code,
            severity: code.severity(),
            message: exact(message.into()),
            help: None,
            document,
            pointer: exact(pointer.into()),
            chars: None,
            hex: None,
            subject: None,
            related: Vec::new(),
            omitted: 0,
            span: None,
        }
    }

    /// How many diagnostics it counts for: one, or for a summary the number it stands for.
    pub fn count(&self) -> usize {
        if self.omitted > 0 { self.omitted } else { 1 }
    }

    /// Whether it is a summary of diagnostics not shown ([`Diagnostic::omitted`]).
    pub fn is_summary(&self) -> bool {
        self.omitted > 0
    }

    pub fn help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn hex(mut self, hex: impl Into<Arc<str>>) -> Self {
        self.hex = Some(hex.into());
        self
    }

    pub fn subject(mut self, subject: impl Into<Arc<str>>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    pub fn chars(mut self, chars: Range<usize>) -> Self {
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.chars = Some(at(chars.start)..at(chars.end));
        self
    }

    pub fn related(mut self, related: Related) -> Self {
        // Most diagnostics have one related place: room for exactly one, not the four a
        // vector's first push makes room for (100,000 such diagnostics held 60 MB of empty
        // room); more places grow it as usual.
        if self.related.capacity() == 0 {
            self.related.reserve_exact(1);
        }
        self.related.push(related);
        self
    }

    /// The message followed by the help, for outputs with one text field (GitHub, SARIF).
    pub fn full_message(&self) -> String {
        match &self.help {
            Some(help) => format!("{}; {help}", self.message),
            None => self.message.clone(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The order of diagnostics in a report: by file, line, column, code (then the rest, so
    /// the order never depends on the order checks ran in). Unresolved diagnostics sort by
    /// document and pointer, numbers in pointers compared as numbers.
    pub fn order(&self, other: &Self) -> Ordering {
        fn place(d: &Diagnostic) -> Option<(&std::path::Path, usize, usize)> {
            d.span
                .as_ref()
                .map(|s| (s.file.as_path(), s.line, s.column))
        }
        place(self)
            .cmp(&place(other))
            .then_with(|| self.document.cmp(&other.document))
            .then_with(|| compare_pointers(&self.pointer, &other.pointer))
            .then_with(|| {
                let start = |d: &Diagnostic| d.chars.as_ref().map(|c| c.start);
                start(self).cmp(&start(other))
            })
            .then_with(|| self.code.cmp(&other.code))
            .then_with(|| self.message.cmp(&other.message))
    }
}

impl Related {
    pub fn new(
        document: DocumentKind,
        pointer: impl Into<String>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            message: message.into(),
            document,
            pointer: exact(pointer.into()),
            chars: None,
            hex: None,
            subject: None,
            span: None,
        }
    }

    pub fn hex(mut self, hex: impl Into<Arc<str>>) -> Self {
        self.hex = Some(hex.into());
        self
    }

    pub fn subject(mut self, subject: impl Into<Arc<str>>) -> Self {
        self.subject = Some(subject.into());
        self
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A shared text serialised as the text (serde's `rc` feature is off in the workspace).
fn shared<S: serde::Serializer>(text: &Option<Arc<str>>, serializer: S) -> Result<S::Ok, S::Error> {
    text.as_deref().serialize(serializer)
}

/// A string without room to grow: a `format!`ted message or pointer has some, and 100,000
/// diagnostics hold theirs until the report is written.
fn exact(mut text: String) -> String {
    text.shrink_to_fit();
    text
}

/// Compares JSON pointers segment by segment, numbers as numbers (`/units/2` before
/// `/units/10`).
pub fn compare_pointers(a: &str, b: &str) -> Ordering {
    let mut left = a.split('/');
    let mut right = b.split('/');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// Sorts diagnostics into their report order and drops exact repeats.
pub fn sort(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(Diagnostic::order);
    diagnostics.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_compare_numbers_as_numbers() {
        assert_eq!(compare_pointers("/a/2", "/a/10"), Ordering::Less);
        assert_eq!(compare_pointers("/a/10/b", "/a/10"), Ordering::Greater);
        assert_eq!(compare_pointers("/a/b", "/a/c"), Ordering::Less);
    }

    /// A report held one `Diagnostic` and one `Related` per problem until it was written
    /// (100,000 repeated ids: issue 19's budget of 8x the file). They were 248 and 200 bytes;
    /// a field added in place of a boxed or shared one should be a choice, not an accident.
    /// `omitted` (8 bytes) was one: a report now keeps at most `sink::MAX_PER_FILE` of them.
    #[test]
    fn diagnostics_stay_small() {
        assert!(std::mem::size_of::<Diagnostic>() <= 160);
        assert!(std::mem::size_of::<Related>() <= 104);
        assert_eq!(
            std::mem::size_of::<Option<Box<Span>>>(),
            std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn full_message_joins_help() {
        let d = Diagnostic::new(
            Code::E0301,
            DocumentKind::Scenario,
            "",
            "hex 1518: too many",
        )
        .help("move a unit");
        assert_eq!(d.full_message(), "hex 1518: too many; move a unit");
        assert_eq!(d.severity, Severity::Error);
    }
}
