//! What the readers of RON text share below the parser: the blanks (whitespace, comments) at
//! the front of a fragment, and the first comment of a file (strings and characters skipped).

use std::ops::Range;

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

/// Where a document's leading struct name starts, and the name, after blanks, comments and
/// `#![enable(...)]` attributes (the one reading of a document's kind: the loader's and the
/// writer's, which keeps a document from being replaced by another kind).
pub(crate) fn leading_name(text: &str) -> (usize, &str) {
    let mut start = skip_blanks(text);
    while text[start..].starts_with("#!") {
        let end = text[start..]
            .find(']')
            .map_or(text.len(), |i| start + i + 1);
        start = end + skip_blanks(&text[end..]);
    }
    let rest = &text[start..];
    let len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (start, &rest[..len])
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
