//! The one way file text goes into markup (VASSAL's `buildFile.xml`, Tiled's `.tmx`, the SVG
//! of table plans, rosters and print kits): [`xml`] escapes the five characters markup gives a
//! meaning to and replaces what XML 1.0 cannot hold at all, so whatever a name holds the
//! output stays well-formed and the name cannot become markup (`"/><script>` stays text).
//! The loader refuses such characters in a document in the first place ([`unprintable`],
//! E0123); the replacement here is for text from elsewhere (the editor's unsaved state, file
//! names).

use std::borrow::Cow;

/// Whether XML 1.0 can hold a character (its `Char` production: tab, line feed, carriage
/// return, U+0020-U+D7FF, U+E000-U+FFFD, U+10000 and above).
pub fn xml_can_hold(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// A character no document's text should hold: what XML 1.0 cannot hold, DEL and the C1
/// controls (which XML allows but a terminal obeys).
pub fn unprintable(c: char) -> bool {
    !xml_can_hold(c) || c == '\u{7F}' || ('\u{80}'..='\u{9F}').contains(&c)
}

/// Text for an XML (SVG, TMX) element body or attribute value, quoted with `"` or `'`: `&`,
/// `<`, `>`, `"` and `'` escaped, a character XML 1.0 cannot hold replaced by U+FFFD, and tab,
/// line feed and carriage return written as character references (an attribute's value would
/// otherwise turn them into spaces).
pub fn xml(text: &str) -> Cow<'_, str> {
    let needs = |c: char| {
        matches!(c, '&' | '<' | '>' | '"' | '\'' | '\t' | '\n' | '\r') || !xml_can_hold(c)
    };
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if !xml_can_hold(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_stays_text_and_xml_stays_well_formed() {
        assert_eq!(xml("Prouvy"), "Prouvy");
        assert_eq!(
            xml("#cc0000\"/><script>x</script>"),
            "#cc0000&quot;/&gt;&lt;script&gt;x&lt;/script&gt;"
        );
        assert_eq!(xml("a\u{1}b\u{FFFE}c"), "a\u{FFFD}b\u{FFFD}c");
        assert_eq!(xml("l'a\n"), "l&apos;a&#10;");
        assert!(unprintable('\u{9B}') && unprintable('\u{1B}') && !unprintable('é'));
        assert!(!unprintable('\n') && !unprintable('\u{202E}'));
    }
}
