//! The one way text reaches a person's terminal. Whatever a command prints (reports, errors,
//! summaries, lists of names) may hold text from a file: a name, a path, a file name. A
//! terminal obeys some of those characters instead of showing them: C0 controls (ESC starts a
//! sequence that can rewrite the screen or the window title; CR returns over what was written),
//! C1 controls (U+009B is a one-character CSI), bidirectional overrides and isolates (which
//! reorder what is shown, so `gnp.exe` reads as `exe.png`), and zero-width characters (which
//! make a refused id look like a valid one). [`escape`] shows each of them as `\u{…}`; the
//! `say!` and `tell!` macros print through it. `tests/doors.rs` fails when `src/` prints
//! another way.

/// Whether a character is shown escaped: controls (C0 but the line feed, DEL, C1), the
/// bidirectional formatting characters, zero-width and other invisible format characters, and
/// line and paragraph separators.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{FFFE}'
                | '\u{FFFF}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// The text with every [`hidden`] character shown as `\u{…}` (a line feed too: one message is
/// one line, so a name cannot fake a line of the report).
pub fn escape(text: &str) -> String {
    escape_with(text, false)
}

/// [`escape`], keeping line feeds (a multi-line message the command wrote itself, with file
/// text inside).
pub fn escape_lines(text: &str) -> String {
    escape_with(text, true)
}

fn escape_with(text: &str, keep_newlines: bool) -> String {
    if !text
        .chars()
        .any(|c| hidden(c) && !(keep_newlines && c == '\n'))
    {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) && !(keep_newlines && c == '\n') {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A text escaped as [`escape`] does, with a map from each byte offset of the original (on a
/// character boundary) to the offset of the same place in the escaped text: a report
/// underlines the escaped line where the original span was.
pub struct Escaped {
    pub text: String,
    /// `offsets[i]` = offset in `text` of the original's byte `i` (one entry per original
    /// byte, plus one for the end).
    offsets: Vec<usize>,
}

impl Escaped {
    pub fn new(original: &str) -> Escaped {
        let mut text = String::with_capacity(original.len());
        let mut offsets = Vec::with_capacity(original.len() + 1);
        let mut chars = original.chars().peekable();
        while let Some(c) = chars.next() {
            let at = text.len();
            for _ in 0..c.len_utf8() {
                offsets.push(at);
            }
            if c == '\r' && chars.peek() == Some(&'\n') {
                // A line ending of a file saved on Windows is a line ending, not a hidden
                // character: every line of its report ended `\u{d}`.
                continue;
            }
            if c == '\r' {
                // A file saved on an old Mac ends its lines with CR alone: a line ending too
                // (one byte for one: the spans' offsets stay as they are).
                text.push('\n');
                continue;
            }
            if hidden(c) && c != '\n' {
                text.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            } else {
                text.push(c);
            }
        }
        offsets.push(text.len());
        Escaped { text, offsets }
    }

    /// The escaped range of an original byte range (clamped to the text).
    pub fn map(&self, range: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        let last = self.offsets.len() - 1;
        let start = self.offsets[range.start.min(last)];
        let end = self.offsets[range.end.min(last)].max(start);
        start..end
    }
}

/// Prints one line on standard output, escaped ([`escape`]: a line feed too, whether the
/// format or a file's text holds it, so a name or a file name holding `\nerror: …` cannot
/// fake a line); a closed pipe (`| head`) ends the command quietly. A message of several lines
/// is several calls.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::terminal::write_out(&format!($($arg)*))
    };
}

/// Prints one line on standard error, escaped ([`escape`], line feeds too, as [`say!`]).
macro_rules! tell {
    ($($arg:tt)*) => {
        $crate::terminal::write_err(&format!($($arg)*))
    };
}

/// Writes a line to standard output through [`escape`]. A reader that went away
/// (`| head`) ends the process quietly with success, as `cat` and `grep` do, instead of a
/// panic ("failed printing to stdout: Broken pipe").
pub fn write_out(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{}", escape(line)).and_then(|()| out.flush());
    if let Err(error) = written {
        quit_on_closed_pipe(&error);
    }
}

/// Writes a line to standard error through [`escape`].
pub fn write_err(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{}", escape(line));
}

/// Ends the process quietly when standard output was closed by its reader; otherwise nothing.
pub fn quit_on_closed_pipe(error: &std::io::Error) {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
}

/// JSON for a terminal or a log: pretty, and every [`hidden`] character written as a `\uXXXX`
/// escape (serde_json writes C1 controls, bidirectional and zero-width characters raw, which is
/// valid JSON but reaches a terminal as is). The JSON's value is unchanged.
pub struct JsonOut(serde_json::ser::PrettyFormatter<'static>);

impl JsonOut {
    pub fn new() -> Self {
        JsonOut(serde_json::ser::PrettyFormatter::new())
    }
}

/// Writes `value` as escaped pretty JSON on standard output ([`write_json`]); a reader that
/// went away ends the process quietly, as [`write_out`] does.
pub fn say_json<T: serde::Serialize + ?Sized>(value: &T) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = write_json(&mut out, value).and_then(|()| std::io::Write::flush(&mut out));
    if let Err(error) = &written {
        quit_on_closed_pipe(error);
    }
    written
}

/// Writes `value` as escaped pretty JSON ([`JsonOut`]) and a line feed, straight to `out` (no
/// copy of the whole text in memory).
pub fn write_json<T: serde::Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
) -> std::io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, JsonOut::new());
    // An I/O error keeps its kind (a closed pipe is still `BrokenPipe` for
    // [`quit_on_closed_pipe`]).
    value
        .serialize(&mut serializer)
        .map_err(|error| match error.io_error_kind() {
            Some(kind) => std::io::Error::new(kind, error),
            None => std::io::Error::other(error),
        })?;
    out.write_all(b"\n")
}

impl serde_json::ser::Formatter for JsonOut {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if hidden(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_and_old_mac_line_endings_are_line_endings() {
        // CRLF (Windows) and a CR alone (an old Mac) end a line, as the line index counts
        // them: the excerpt's lines are the report's lines, never a returned cursor.
        let e = Escaped::new("ab\r\ncd\re");
        assert_eq!(e.text, "ab\ncd\ne");
        // The spans move with the text: `cd` is at 4..6 in the original, 3..5 shown.
        assert_eq!(e.map(&(4..6)), 3..5);
        assert_eq!(e.map(&(2..4)), 2..3);
        assert_eq!(&e.text[e.map(&(7..8))], "e");
    }

    #[test]
    fn shows_controls_bidi_and_zero_width_visibly() {
        assert_eq!(escape("plain é ü 1518"), "plain é ü 1518");
        assert_eq!(escape("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(escape("x\u{202e}gnp"), "x\\u{202e}gnp");
        assert_eq!(escape("al\u{200d}-1"), "al\\u{200d}-1");
        assert_eq!(escape("a\rb\nc"), "a\\u{d}b\\u{a}c");
        assert_eq!(escape_lines("a\nb\u{7}"), "a\nb\\u{7}");
        assert_eq!(
            escape("\u{feff}\u{2066}\u{e0041}"),
            "\\u{feff}\\u{2066}\\u{e0041}"
        );
    }

    #[test]
    fn json_keeps_its_value_and_shows_nothing_raw() {
        let name = "a\u{9b}2J\u{202e}b\u{200d}c\u{e0041}\"\u{1b}";
        let mut out = Vec::new();
        write_json(&mut out, &serde_json::json!({ "name": name })).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.chars().any(hidden_but_newline), "{text:?}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["name"], name);
    }

    fn hidden_but_newline(c: char) -> bool {
        hidden(c) && c != '\n'
    }

    #[test]
    fn maps_spans_onto_the_escaped_text() {
        let e = Escaped::new("ab\u{1b}cd");
        assert_eq!(e.text, "ab\\u{1b}cd");
        assert_eq!(&e.text[e.map(&(3..5))], "cd");
        assert_eq!(&e.text[e.map(&(2..3))], "\\u{1b}");
        assert_eq!(e.map(&(0..100)), 0..e.text.len());
    }
}
