//! Source text and locations: byte offsets → line and column (line starts computed once per
//! file, looked up by binary search), and an index from a document path (a JSON pointer such as
//! `/armies/0/units/3/cp`) to the span of that value in the RON text, built in one pass over the
//! text so diagnostics can point at the exact thing concerned.
//!
//! The index lives in [`span_index`] (`source/span_index.rs`), the RON text scanning both use
//! (blanks, comments, strings) in [`ron_text`].

mod ron_text;
mod span_index;

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

pub use ron_text::first_comment;
pub(crate) use ron_text::{leading_name, skip_blanks};
pub use span_index::{Pointer, SpanIndex, push_pointer};

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
    /// Each line's first byte: 4 bytes a line (a document is at most 64 MiB; a text past
    /// 4 GiB would count its later lines as one).
    line_starts: Vec<u32>,
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
        // A line ends at LF, CRLF, or a CR alone (a file saved on an old Mac: it was one line
        // of the whole file in every report).
        let bytes = text.as_bytes();
        let line_starts = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|&(i, &b)| b == b'\n' || b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
                    .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
            )
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
        let (byte, line, start) = self.line_of(byte);
        let column = self.text[start..byte].chars().count() + 1;
        (line, column)
    }

    /// The byte offset clamped to the text and to a character's start, its 1-based line and
    /// that line's first byte: what [`line_column`](Self::line_column) counts the column
    /// from, for a caller counting many columns on one line in order.
    pub fn line_of(&self, byte: usize) -> (usize, usize, usize) {
        let byte = self.floor_char_boundary(byte.min(self.text.len()));
        let line = self
            .line_starts
            .partition_point(|&start| start as usize <= byte);
        (byte, line, self.line_start(line))
    }

    /// The bytes of the whole line holding `byte` (its newline included), and its 1-based
    /// number, from the line index: no scan of the line (a report of many places on one
    /// 64 MiB line scanned it once for each, issue 19).
    pub fn line_bytes(&self, byte: usize) -> (Range<usize>, usize) {
        let (_, line, start) = self.line_of(byte);
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&start| {
                (start as usize).min(self.text.len())
            });
        (start..end, line)
    }

    /// The first byte of a 1-based line (the first line's for 0).
    fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .map_or(0, |&start| (start as usize).min(self.text.len()))
    }

    fn floor_char_boundary(&self, mut byte: usize) -> usize {
        while byte > 0 && !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }

    /// The byte offset of a 1-based line and character column (clamped), as the RON parser
    /// counts them: its lines end at LF only.
    pub fn byte_of(&self, line: usize, column: usize) -> usize {
        let start = if line <= 1 {
            0
        } else {
            match self.text.match_indices('\n').nth(line - 2) {
                Some((i, _)) => i + 1,
                None => return self.text.len(),
            }
        };
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        self.text[start..end]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    /// Where the line starting at `start` ends, before its line ending.
    fn line_end(&self, start: usize) -> usize {
        self.text[start..]
            .find(['\n', '\r'])
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
        let start = (start as usize).min(self.text.len());
        self.text[start..self.line_end(start)].trim_end_matches('\r')
    }
}

/// The display form of a path for messages.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::SourceFile;

    /// A file saved on an old Mac ends its lines with CR alone: each is a line (it was one
    /// line of the whole file), and RON's positions (lines of LF only) still find their byte.
    #[test]
    fn a_cr_alone_ends_a_line() {
        let source = SourceFile::new("x.ron", "ab\rcd\r\nef\ng\r".to_owned());
        assert_eq!(source.line_column(3), (2, 1));
        assert_eq!(source.line_column(7), (3, 1));
        assert_eq!(source.line_column(10), (4, 1));
        assert_eq!(source.line_text(1), "ab");
        assert_eq!(source.line_text(2), "cd");
        assert_eq!(source.line_text(4), "g");
        // RON says line 1 column 4 for `c` (it counts lines by LF), line 2 column 1 for `e`.
        assert_eq!(source.byte_of(1, 4), 3);
        assert_eq!(source.byte_of(2, 1), 7);
        assert_eq!(source.byte_of(3, 1), 10);
        assert_eq!(source.byte_of(9, 1), source.text.len());
    }

    #[test]
    fn line_bytes_are_the_whole_line_with_its_newline() {
        let source = SourceFile::new("x.ron", "ab\ncdé\n\nf".to_owned());
        assert_eq!(source.line_bytes(0), (0..3, 1));
        assert_eq!(source.line_bytes(2), (0..3, 1));
        assert_eq!(source.line_bytes(3), (3..8, 2));
        assert_eq!(source.line_bytes(6), (3..8, 2), "inside a character");
        assert_eq!(source.line_bytes(8), (8..9, 3));
        assert_eq!(source.line_bytes(9), (9..10, 4));
        assert_eq!(source.line_bytes(99), (9..10, 4), "clamped to the text");
    }
}
