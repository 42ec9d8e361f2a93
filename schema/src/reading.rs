//! Reading a document: its bytes within the size limit, its UTF-8 text, its kind from its
//! leading struct name, and the located [`LoadError`] every refusal is (a syntax error, a key
//! given twice, a newer format, a number that is not finite, an unprintable character). The
//! typed parses ([`crate::io`], [`crate::system`]) build on it.

use std::path::{Path, PathBuf};

use crate::limits::{MAX_DEPTH, MAX_FILE_BYTES};
use crate::source::{Location, SourceFile};

/// The newest file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// What kind of document a file holds, told by its leading struct name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum DocumentKind {
    Map,
    Scenario,
    /// A miniatures rules system (`systems/*.ron`).
    System,
    /// A scenario variant: changes to a base scenario (`scenarios/*.ron`).
    Variant,
}

impl DocumentKind {
    /// The kind a document's leading struct name gives (`Map(`, `Scenario(`, ...).
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "Map" => Some(DocumentKind::Map),
            "Scenario" => Some(DocumentKind::Scenario),
            "System" => Some(DocumentKind::System),
            "Variant" => Some(DocumentKind::Variant),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Map => "Map",
            DocumentKind::Scenario => "Scenario",
            DocumentKind::System => "System",
            DocumentKind::Variant => "Variant",
        }
    }
}

/// Why a file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is {bytes} bytes; the largest file accepted is {MAX_FILE_BYTES} bytes", path.display())]
    TooLarge { path: PathBuf, bytes: u64 },
    #[error("{location}: the file is not UTF-8 text (invalid byte here); save it as UTF-8")]
    NotUtf8 { location: Box<Location> },
    #[error("{location}: {message}")]
    Syntax {
        location: Box<Location>,
        message: String,
    },
    #[error(
        "{location}: the file does not say what it is; start it with `Map(`, `Scenario(`, `System(` or `Variant(`"
    )]
    UnknownKind { location: Box<Location> },
    #[error("{location}: expected a {expected} file, found a {found} file")]
    WrongKind {
        location: Box<Location>,
        expected: &'static str,
        found: &'static str,
    },
    #[error(
        "{location}: format_version {found} is newer than this build reads ({FORMAT_VERSION}); update bataille"
    )]
    NewerVersion { location: Box<Location>, found: u64 },
    #[error(
        "{location}: the key {key} is given twice in this map; only one entry per key can be kept, so the other would be lost"
    )]
    DuplicateKey {
        location: Box<Location>,
        key: String,
    },
    #[error("{location}: {what} is {value}; write a finite number")]
    NotFinite {
        location: Box<Location>,
        what: String,
        value: String,
    },
    #[error(
        "{location}: {what} holds the character U+{:04X}, which no name or text may hold (XML cannot, and terminals obey it); remove it",
        u32::from(*character)
    )]
    Unprintable {
        location: Box<Location>,
        what: String,
        character: char,
    },
    #[error("{location}: {error}")]
    GridLimit {
        location: Box<Location>,
        error: crate::limits::GridLimitError,
    },
    /// A list longer than its limit ([`crate::common::TOO_MANY`]), located at its first entry
    /// too many.
    #[error("{location}: {message}")]
    TooMany {
        location: Box<Location>,
        message: String,
    },
    #[error("{location}: the scenario's map {} could not be loaded: {source}", map_path.display())]
    Map {
        location: Box<Location>,
        map_path: PathBuf,
        #[source]
        source: Box<LoadError>,
    },
}

impl LoadError {
    /// Where the problem is, when the file could be read.
    pub fn location(&self) -> Option<&Location> {
        match self {
            LoadError::Io { .. } | LoadError::TooLarge { .. } => None,
            LoadError::NotUtf8 { location }
            | LoadError::Syntax { location, .. }
            | LoadError::UnknownKind { location }
            | LoadError::WrongKind { location, .. }
            | LoadError::NewerVersion { location, .. }
            | LoadError::DuplicateKey { location, .. }
            | LoadError::NotFinite { location, .. }
            | LoadError::Unprintable { location, .. }
            | LoadError::GridLimit { location, .. }
            | LoadError::TooMany { location, .. }
            | LoadError::Map { location, .. } => Some(location),
        }
    }

    /// The message without the location prefix.
    pub fn message(&self) -> String {
        let full = self.to_string();
        match self.location() {
            Some(location) => full
                .strip_prefix(&format!("{location}: "))
                .map(str::to_owned)
                .unwrap_or(full),
            None => full,
        }
    }
}

/// Reads a file as UTF-8 text, with located errors. Only a regular file is read (see
/// [`crate::files::read_limited`]), and never more than [`MAX_FILE_BYTES`] + 1 bytes of it.
pub fn read_source(path: &Path) -> Result<SourceFile, LoadError> {
    let bytes = read_bytes(path)?;
    source_from_bytes(path, bytes)
}

/// A file's bytes, at most [`MAX_FILE_BYTES`]: `Io` when it cannot be read or is not a regular
/// file, `TooLarge` beyond the limit.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, LoadError> {
    crate::files::read_limited(path, MAX_FILE_BYTES).map_err(|error| match error {
        crate::files::ReadError::TooLarge { bytes, .. } => LoadError::TooLarge {
            path: path.to_owned(),
            bytes,
        },
        other => LoadError::Io {
            path: path.to_owned(),
            source: other.into_io(),
        },
    })
}

/// Makes a source from bytes, refusing non-UTF-8 with the place of the first bad byte.
pub fn source_from_bytes(path: &Path, bytes: Vec<u8>) -> Result<SourceFile, LoadError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(path, text)),
        Err(error) => {
            let valid = error.utf8_error().valid_up_to();
            let bytes = error.into_bytes();
            let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            let source = SourceFile::new(path, prefix);
            // The offset in the text, which has no byte-order mark.
            let at = if source.bom { valid - 3 } else { valid };
            Err(LoadError::NotUtf8 {
                location: Box::new(source.location(at..at)),
            })
        }
    }
}

/// The kind of document an existing file is, from its leading struct name in its first
/// 64 KiB (a regular file only); `None` for anything else.
pub fn existing_kind(path: &Path) -> Option<DocumentKind> {
    use std::io::Read as _;
    let (file, _) = crate::files::open_regular(path).ok()?;
    let mut head = Vec::with_capacity(64 << 10);
    file.take(64 << 10).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    DocumentKind::from_name(crate::source::leading_name(text.trim_start_matches('\u{feff}')).1)
}

/// The kind of document, from its leading struct name.
pub fn sniff_kind(source: &SourceFile) -> Result<DocumentKind, LoadError> {
    let (start, name) = crate::source::leading_name(&source.text);
    DocumentKind::from_name(name).ok_or_else(|| LoadError::UnknownKind {
        location: Box::new(source.location(start..start + name.len())),
    })
}

pub(crate) fn syntax_error(source: &SourceFile, error: &ron::error::SpannedError) -> LoadError {
    let span = syntax_span(source, error);
    let mut message = error.code.to_string();
    if matches!(error.code, ron::Error::ExceededRecursionLimit) {
        message = format!("brackets nested deeper than {MAX_DEPTH} levels");
    }
    LoadError::Syntax {
        location: Box::new(source.location(span)),
        message,
    }
}

/// Finds `format_version: N` near the top of a file that did not parse, so that a file from a
/// newer version is reported as such rather than as unknown fields.
pub(crate) fn probe_version(source: &SourceFile) -> Option<(u64, std::ops::Range<usize>)> {
    let text = &source.text;
    let at = text.find("format_version")?;
    let after = &text[at + "format_version".len()..];
    let colon = after.find(':')?;
    if !after[..colon].trim().is_empty() {
        return None;
    }
    let value = &after[colon + 1..];
    let skipped = value.len() - value.trim_start().len();
    let digits: String = value
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let number = digits.parse().ok()?;
    let start = at + "format_version".len() + colon + 1 + skipped;
    Some((number, start..start + digits.len()))
}

pub(crate) fn check_version(source: &SourceFile, version: u32) -> Result<(), LoadError> {
    if version > FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: version.into(),
        });
    }
    Ok(())
}

pub(crate) fn parse_error(source: &SourceFile, error: &ron::error::SpannedError) -> LoadError {
    if let ron::Error::Message(message) = &error.code
        && let Some(key) = message.strip_prefix(crate::unique::DUPLICATE_KEY)
    {
        return duplicate_key(source, error, key);
    }
    if let ron::Error::Message(message) = &error.code
        && message.starts_with(crate::common::TOO_MANY)
    {
        return LoadError::TooMany {
            location: Box::new(source.location(syntax_span(source, error))),
            message: message.clone(),
        };
    }
    if let Some((found, span)) = probe_version(source)
        && found > u64::from(FORMAT_VERSION)
    {
        return LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found,
        };
    }
    syntax_error(source, error)
}

pub(crate) fn expect_kind(source: &SourceFile, expected: DocumentKind) -> Result<(), LoadError> {
    let found = sniff_kind(source)?;
    if found != expected {
        let start = crate::source::skip_blanks(&source.text);
        return Err(LoadError::WrongKind {
            location: Box::new(source.location(start..start + found.as_str().len())),
            expected: expected.as_str(),
            found: found.as_str(),
        });
    }
    Ok(())
}

/// A key given twice, located at its second occurrence: ron stops just after reading it, so
/// the key's text is the last occurrence of it before the place ron stopped.
fn duplicate_key(source: &SourceFile, error: &ron::error::SpannedError, key: &str) -> LoadError {
    let stop = source.byte_of(error.span.end.line, error.span.end.col);
    let before = &source.text[..stop.min(source.text.len())];
    let span = match before.rfind(key) {
        Some(start) => start..start + key.len(),
        None => syntax_span(source, error),
    };
    LoadError::DuplicateKey {
        location: Box::new(source.location(span)),
        key: key.to_owned(),
    }
}

fn syntax_span(source: &SourceFile, error: &ron::error::SpannedError) -> std::ops::Range<usize> {
    let start = source.byte_of(error.span.start.line, error.span.start.col);
    let end = source
        .byte_of(error.span.end.line, error.span.end.col)
        .max(start);
    start..end
}

/// The span of the value at a pointer, from a span index built for this error only.
pub(crate) fn locate(source: &SourceFile, pointer: &str) -> Box<Location> {
    let index = crate::source::SpanIndex::build(&source.text);
    Box::new(source.location(index.resolve(pointer)))
}

/// What every document must be whatever its type (see [`crate::sanity`]): no key given twice,
/// no number that is not finite, no unprintable character in any text. A syntax error is left
/// to the typed parse, which reports it. Public for the RON files that are not documents
/// (digitize's calibration and samples), which must be the same.
pub fn sanity(source: &SourceFile) -> Result<(), LoadError> {
    match crate::sanity::walk(&source.text) {
        Err(error) => match &error.code {
            ron::Error::Message(message) if message.starts_with(crate::unique::DUPLICATE_KEY) => {
                Err(parse_error(source, &error))
            }
            _ => Ok(()),
        },
        Ok(Some(crate::sanity::Finding::NonFinite { pointer, value })) => {
            Err(LoadError::NotFinite {
                location: locate(source, &pointer),
                what: format!("`{}`", pointer.trim_start_matches('/')),
                value: non_finite_words(value),
            })
        }
        Ok(Some(crate::sanity::Finding::Unprintable { pointer, character })) => {
            Err(LoadError::Unprintable {
                location: locate(source, &pointer),
                what: format!("`{}`", pointer.trim_start_matches('/')),
                character,
            })
        }
        Ok(None) => Ok(()),
    }
}

/// The typed read of a document whose type refuses every key given twice itself (maps and
/// scenarios: every map through [`crate::unique`], every struct and struct variant with
/// `deny_unknown_fields`), with [`sanity`]'s refusals exactly as if it had walked first: the
/// walk (which reads the whole text a second time, most of a big scenario's parse) runs only
/// when the text could hold what it alone finds ([`crate::sanity::may_find`]: an escape, an
/// unprintable character, a number that may not be finite) or when the typed read fails (a
/// key given twice, and whatever the walk would have found before the typed read's error).
pub(crate) fn read_typed<T: serde::de::DeserializeOwned>(
    source: &SourceFile,
) -> Result<T, LoadError> {
    let walked = crate::sanity::may_find(&source.text);
    if walked {
        sanity(source)?;
    }
    crate::limits::ron_options()
        .from_str(&source.text)
        .or_else(|error| {
            if !walked {
                sanity(source)?;
            }
            Err(parse_error(source, &error))
        })
}

pub(crate) fn non_finite_words(value: f64) -> String {
    match value {
        v if v.is_nan() => "not a number (NaN)".to_owned(),
        v if v > 0.0 => "infinite".to_owned(),
        _ => "minus infinity".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// What an existing file is, as a kind (`export --vassal` told a variant beside its
    /// scenario by comparing the kind's words).
    #[test]
    fn an_existing_document_is_told_by_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        for (text, kind) in [
            ("Map(", Some(DocumentKind::Map)),
            ("\u{feff}  Scenario(", Some(DocumentKind::Scenario)),
            ("System(", Some(DocumentKind::System)),
            ("Variant(", Some(DocumentKind::Variant)),
            ("PK\u{3}\u{4}", None),
        ] {
            let path = dir.path().join("f.ron");
            std::fs::write(&path, text).unwrap();
            assert_eq!(existing_kind(&path), kind, "{text:?}");
        }
        assert_eq!(existing_kind(dir.path()), None);
    }

    /// What every scenario got before the walk could be skipped: the walk first, then the
    /// typed read.
    fn walk_then_read(source: &SourceFile) -> Result<Scenario, LoadError> {
        sanity(source)?;
        crate::limits::ron_options()
            .from_str(&source.text)
            .map_err(|error| parse_error(source, &error))
    }

    fn outcome(result: Result<Scenario, LoadError>) -> String {
        match result {
            Ok(_) => "read".to_owned(),
            Err(error) => format!("{error:?}"),
        }
    }

    #[test]
    fn a_documents_kind_is_read_after_blanks_comments_and_attributes() {
        let text = "// a map\n/* of Denain */ #![enable(implicit_some)]\n  Map(name: \"x\")";
        let (start, name) = crate::source::leading_name(text);
        assert_eq!((name, &text[start..start + 3]), ("Map", "Map"));
        assert_eq!(DocumentKind::from_name(name), Some(DocumentKind::Map));
        assert_eq!(crate::source::leading_name("Variant(").1, "Variant");
        assert_eq!(
            DocumentKind::from_name(crate::source::leading_name("Mapping(").1),
            None
        );
        assert_eq!(crate::source::leading_name("").1, "");
    }

    #[test]
    fn skipping_the_walk_changes_no_refusal_nor_its_place() {
        // Denain without its one escaped quote: a text the walk may be skipped for.
        let base = include_str!("../../scenarios/denain-1712.ron").replace("\\\"", "'");
        assert!(
            !crate::sanity::may_find(&base),
            "the base text must take the fast path"
        );
        let unit = "cp: 3, mp: 4, morale: 5, facing: SE, placement: Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")";
        let later = "cp: 2, mp: 4, morale: 4, facing: NE, placement: Free(zone: \"fr-zone-aile-droite\", at: \"1312\")";
        let cases: Vec<(&str, String, &str)> = vec![
            ("untouched", base.clone(), "read"),
            ("a unit's field twice", base.replacen("cp: 3, mp: 4", "cp: 3, cp: 3, mp: 4", 1), "DuplicateKey"),
            ("a placement's field twice", base.replacen("Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")", "Free(zone: \"x\", zone: \"fr-zone-maison-du-roi\", at: \"1608\")", 1), "DuplicateKey"),
            ("a unit's ratings system twice", base.replacen(unit, &format!("{unit}, ratings: {{\"a\": {{}}, \"a\": {{}}}}"), 1), "DuplicateKey"),
            ("a unit's rating twice", base.replacen(unit, &format!("{unit}, ratings: {{\"a\": {{\"x\": Number(1), \"x\": Number(2)}}}}"), 1), "DuplicateKey"),
            ("a conversion's rating twice", base.replacen("set: {\"fire_type\": Text(\"platoon-fire\")}", "set: {\"fire_type\": Text(\"platoon-fire\"), \"fire_type\": Text(\"x\")}", 1), "DuplicateKey"),
            ("a per-CP rating twice", base.replacen("per_cp: {\"units\": 1}", "per_cp: {\"units\": 1, \"units\": 2}", 1), "DuplicateKey"),
            ("a leader twice", base.replacen("\"al-eugene\": {\"reserve_modifier\": Number(2)},", "\"al-eugene\": {\"reserve_modifier\": Number(2)}, \"al-eugene\": {},", 1), "DuplicateKey"),
            ("a leader's rating twice", base.replacen("\"al-eugene\": {\"reserve_modifier\": Number(2)},", "\"al-eugene\": {\"reserve_modifier\": Number(2), \"reserve_modifier\": Number(1)},", 1), "DuplicateKey"),
            ("a unit kind twice", base.replacen("unit_kinds: {", "unit_kinds: {\"artillery\": (name: \"A\", symbol: Artillery),", 1), "DuplicateKey"),
            ("an unknown field in a placement", base.replacen("Free(zone: \"fr-zone-maison-du-roi\"", "Free(bogus: {\"k\": 1, \"k\": 2}, zone: \"fr-zone-maison-du-roi\"", 1), "DuplicateKey"),
            ("a type error before a key twice", base.replacen("cp: 3, mp: 4", "cp: \"3\", mp: 4", 1).replacen(later, &later.replacen("cp: 2", "cp: 2, cp: 2", 1), 1), "DuplicateKey"),
            ("a type error alone", base.replacen("cp: 3, mp: 4", "cp: \"3\", mp: 4", 1), "Syntax"),
            ("a syntax error before a key twice", base.replacen("cp: 3, mp: 4", "cp: 3,, mp: 4", 1).replacen(later, &later.replacen("cp: 2", "cp: 2, cp: 2", 1), 1), "Syntax"),
            ("NaN", base.replacen("activation: 4", "activation: NaN", 1), "NotFinite"),
            ("inf", base.replacen("activation: 4", "activation: -inf", 1), "NotFinite"),
            ("an overflowing exponent", base.replacen("activation: 4", "activation: 1e999", 1), "NotFinite"),
            ("an overflowing f32", base.replacen("activation: 4", &format!("activation: 1{}.0f32", "0".repeat(39)), 1), "NotFinite"),
            ("a type error before NaN", base.replacen("cp: 3, mp: 4", "cp: \"3\", mp: 4", 1).replacen(later, &later.replacen("cp: 2", "cp: NaN", 1), 1), "NotFinite"),
            ("a control character", base.replacen("Gardes françaises", "Gardes\u{1}françaises", 1), "Unprintable"),
            ("a C1 control", base.replacen("Gardes françaises", "Gardes\u{9b}françaises", 1), "Unprintable"),
            ("an escaped control", base.replacen("Gardes françaises", "Gardes\\u{7f}françaises", 1), "Unprintable"),
            ("words that look like numbers", base.replacen("Gardes françaises", "inf NaN infantry 1e5", 1), "read"),
        ];
        for (what, text, expected) in cases {
            let source = SourceFile::new("s.ron", text);
            let fast = crate::io::parse_scenario(&source).map(|mut s| {
                // parse_scenario trims the units' lists; compare what was read.
                s.armies.iter_mut().for_each(|a| a.units.shrink_to_fit());
                s
            });
            let old = walk_then_read(&source).and_then(|scenario| {
                check_version(&source, scenario.format_version).map(|()| scenario)
            });
            let (fast, old) = (outcome(fast), outcome(old));
            assert_eq!(fast, old, "{what}");
            assert!(fast.starts_with(expected), "{what}: {fast}");
        }
    }
}
