//! Loading and saving maps and scenarios: RON in, typed values out, errors with file, line and
//! column; canonical, deterministic pretty output; atomic writes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::ser::{Impossible, SerializeStruct};

use crate::map::Map;
use crate::scenario::Scenario;
use crate::source::{Location, SourceFile};

/// The newest file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

pub use crate::limits::{MAX_DEPTH, MAX_FILE_BYTES};

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

/// The ron options every file is read and written with: `Some` may be left out, and nesting
/// is limited so hostile input cannot overflow the stack.
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(MAX_DEPTH)
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

/// The kind of document, from its leading struct name.
pub fn sniff_kind(source: &SourceFile) -> Result<DocumentKind, LoadError> {
    let text = &source.text;
    let mut start = crate::source::skip_blanks(text);
    // Skip `#![enable(...)]` attributes.
    while text[start..].starts_with("#!") {
        let end = text[start..]
            .find(']')
            .map_or(text.len(), |i| start + i + 1);
        start = end + crate::source::skip_blanks(&text[end..]);
    }
    let rest = &text[start..];
    let ident: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    match ident.as_str() {
        "Map" => Ok(DocumentKind::Map),
        "Scenario" => Ok(DocumentKind::Scenario),
        "System" => Ok(DocumentKind::System),
        "Variant" => Ok(DocumentKind::Variant),
        _ => Err(LoadError::UnknownKind {
            location: Box::new(source.location(start..start + ident.len())),
        }),
    }
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
fn probe_version(source: &SourceFile) -> Option<(u64, std::ops::Range<usize>)> {
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

fn check_version(source: &SourceFile, version: u32) -> Result<(), LoadError> {
    if version > FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: version.into(),
        });
    }
    Ok(())
}

fn parse_error(source: &SourceFile, error: &ron::error::SpannedError) -> LoadError {
    if let ron::Error::Message(message) = &error.code
        && let Some(key) = message.strip_prefix(crate::unique::DUPLICATE_KEY)
    {
        return duplicate_key(source, error, key);
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

fn expect_kind(source: &SourceFile, expected: DocumentKind) -> Result<(), LoadError> {
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
fn locate(source: &SourceFile, pointer: &str) -> Box<Location> {
    let index = crate::source::SpanIndex::build(&source.text);
    Box::new(source.location(index.resolve(pointer)))
}

/// What the schema cannot hold safely, refused at load so no reader goes further: a grid
/// beyond the limits (every reader allocates per hex) and numbers that are not finite (JSON
/// has no NaN or infinity; geometry with them is meaningless).
fn check_map_values(source: &SourceFile, map: &Map) -> Result<(), LoadError> {
    if let Err(error) = crate::limits::check_grid(&map.grid) {
        return Err(LoadError::GridLimit {
            location: locate(source, &format!("/grid/{}", error.field)),
            error,
        });
    }
    if let Some((pointer, value)) = map.non_finite() {
        let what = format!("`{}`", pointer.trim_start_matches('/'));
        return Err(LoadError::NotFinite {
            location: locate(source, &pointer),
            what,
            value: non_finite_words(value),
        });
    }
    Ok(())
}

/// Parses a map from source text.
pub fn parse_map(source: &SourceFile) -> Result<Map, LoadError> {
    expect_kind(source, DocumentKind::Map)?;
    sanity(source)?;
    let map: Map = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    check_version(source, map.format_version)?;
    check_map_values(source, &map)?;
    Ok(map)
}

/// Parses a scenario (without its map) from source text.
pub fn parse_scenario(source: &SourceFile) -> Result<Scenario, LoadError> {
    expect_kind(source, DocumentKind::Scenario)?;
    sanity(source)?;
    let scenario: Scenario = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    check_version(source, scenario.format_version)?;
    Ok(scenario)
}

/// Parses a miniatures system from source text: the same refusals as maps and scenarios (a
/// key given twice, a number that is not finite, a newer format), located.
pub fn parse_system(source: &SourceFile) -> Result<crate::system::System, LoadError> {
    expect_kind(source, DocumentKind::System)?;
    sanity(source)?;
    let system: crate::system::System = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    if system.format_version > crate::system::SYSTEM_FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: system.format_version.into(),
        });
    }
    Ok(system)
}

/// Parses a scenario variant from source text: the same refusals as the other documents.
pub fn parse_variant(source: &SourceFile) -> Result<crate::variant::Variant, LoadError> {
    expect_kind(source, DocumentKind::Variant)?;
    sanity(source)?;
    let variant: crate::variant::Variant = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    if variant.format_version > crate::variant::VARIANT_FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: variant.format_version.into(),
        });
    }
    Ok(variant)
}

/// What every document must be whatever its type (see [`crate::sanity`]): no key given twice,
/// no number that is not finite, no unprintable character in any text. A syntax error is left
/// to the typed parse, which reports it.
fn sanity(source: &SourceFile) -> Result<(), LoadError> {
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

fn non_finite_words(value: f64) -> String {
    match value {
        v if v.is_nan() => "not a number (NaN)".to_owned(),
        v if v > 0.0 => "infinite".to_owned(),
        _ => "minus infinity".to_owned(),
    }
}

/// A map with the text it was read from.
#[derive(Debug, Clone)]
pub struct LoadedMap {
    pub map: Map,
    pub source: SourceFile,
}

/// A scenario with its text and its map.
#[derive(Debug, Clone)]
pub struct LoadedScenario {
    pub scenario: Scenario,
    pub source: SourceFile,
    pub map: LoadedMap,
}

/// Loads a map file.
pub fn load_map(path: &Path) -> Result<LoadedMap, LoadError> {
    let source = read_source(path)?;
    let map = parse_map(&source)?;
    Ok(LoadedMap { map, source })
}

/// The path of a scenario's map: its `map` field, relative to the scenario file (as written,
/// unchecked; [`crate::files::resolve_map`] checks it stays under the root).
pub fn map_path_of(scenario_path: &Path, scenario: &Scenario) -> PathBuf {
    scenario_path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(&scenario.map)
}

/// Loads a scenario file and the map it names (which must lie under the default root, see
/// [`crate::files::default_root`]).
pub fn load_scenario(path: &Path) -> Result<LoadedScenario, LoadError> {
    load_scenario_in(path, None)
}

/// Loads a scenario file and the map it names, which must lie under `root` (`None`: the
/// default root).
pub fn load_scenario_in(path: &Path, root: Option<&Path>) -> Result<LoadedScenario, LoadError> {
    let source = read_source(path)?;
    let scenario = parse_scenario(&source)?;
    let map_path = map_path_of(path, &scenario);
    let map = crate::files::resolve_map(path, &scenario.map, root)
        .map_err(|refused| LoadError::Io {
            path: map_path.clone(),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, refused),
        })
        .and_then(|map_path| load_map(&map_path))
        .map_err(|error| {
            let index = crate::source::SpanIndex::build(&source.text);
            LoadError::Map {
                location: Box::new(source.location(index.resolve("/map"))),
                map_path: map_path.clone(),
                source: Box::new(error),
            }
        })?;
    Ok(LoadedScenario {
        scenario,
        source,
        map,
    })
}

/// Writes text to a file atomically (see [`crate::files::write_atomic_limited`]), refusing
/// text over [`MAX_FILE_BYTES`]: a crash leaves the old file or the new one, never half of one;
/// a link is written through; the file keeps its permissions.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    crate::files::write_atomic_limited(path, text, MAX_FILE_BYTES)
}

/// Saves a map canonically and atomically.
pub fn save_map(path: &Path, map: &Map) -> std::io::Result<()> {
    let text = map_to_string(map).map_err(std::io::Error::other)?;
    write_atomic(path, &text)
}

/// Saves a scenario canonically and atomically.
pub fn save_scenario(path: &Path, scenario: &Scenario) -> std::io::Result<()> {
    let text = scenario_to_string(scenario).map_err(std::io::Error::other)?;
    write_atomic(path, &text)
}

/// The canonical text of a map: terrain one row per line, one legend entry per line, one
/// overlay hex, label or hexside per line.
pub fn map_to_string(map: &Map) -> Result<String, ron::Error> {
    map_into_string(map.clone())
}

/// [`map_to_string`] without a copy of the map (for a big file, half the memory).
pub fn map_into_string(mut map: Map) -> Result<String, ron::Error> {
    map.canonicalize();
    write_document(&map, |field| match field {
        "hexsides" => 2,
        "grid" | "format_version" | "name" | "notes" | "metres_per_hex" | "half_hexes"
        | "allow" => 0,
        _ => 1,
    })
}

/// The canonical text of a scenario: one unit, commander, corps, zone or objective per line.
pub fn scenario_to_string(scenario: &Scenario) -> Result<String, ron::Error> {
    scenario_into_string(scenario.clone())
}

/// [`scenario_to_string`] without a copy of the scenario (for a big file, half the memory).
pub fn scenario_into_string(mut scenario: Scenario) -> Result<String, ron::Error> {
    scenario.canonicalize();
    write_document(&scenario, |field| match field {
        "armies" | "rules" | "miniatures" => 3,
        "zones" | "victory" => 2,
        "allow" => 0,
        _ => 0,
    })
}

/// The canonical text of a variant: one change per line (a unit's, a leader's, a zone's), the
/// victory and rule changes one field per line.
pub fn variant_to_string(variant: &crate::variant::Variant) -> Result<String, ron::Error> {
    let mut variant = variant.clone();
    variant.canonicalize();
    write_document(&variant, |field| match field {
        "units" | "leaders" | "zones" | "remove_units" | "sources" => 1,
        "add_units" | "add_zones" => 1,
        "victory" | "rules" => 2,
        _ => 0,
    })
}

fn pretty(depth: usize) -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .new_line("\n")
        .indentor("    ")
        .depth_limit(depth)
        .struct_names(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Writes a top-level struct as `Name(` with each field serialised at its own depth, so each
/// part of the file gets the line structure that makes its diffs small.
fn write_document<T: Serialize>(
    value: &T,
    depth_of: impl Fn(&str) -> usize,
) -> Result<String, ron::Error> {
    let mut capture = Capture {
        out: String::new(),
        depth_of: &depth_of,
    };
    value.serialize(&mut capture)?;
    // `Name(` was written when the struct began: no copy of the whole text here.
    let mut text = capture.out;
    text.push_str(")\n");
    Ok(without_needless_escapes(text))
}

/// ron escapes strings with `char::escape_debug`, which writes an apostrophe as `\'` although
/// a double-quoted string needs no escape for it (`"Braine-l\'Alleud"`). Escapes come in
/// pairs, so walking them pairwise finds every `\'` and nothing else; the text reads back to
/// the same value.
fn without_needless_escapes(text: String) -> String {
    if !text.contains("\\'") {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\'') => out.push('\''),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

struct Capture<'a> {
    out: String,
    depth_of: &'a dyn Fn(&str) -> usize,
}

fn unsupported() -> ron::Error {
    ron::Error::Message("only a struct can be written as a document".into())
}

impl<'c, 'a> serde::Serializer for &'c mut Capture<'a> {
    type Ok = ();
    type Error = ron::Error;
    type SerializeSeq = Impossible<(), ron::Error>;
    type SerializeTuple = Impossible<(), ron::Error>;
    type SerializeTupleStruct = Impossible<(), ron::Error>;
    type SerializeTupleVariant = Impossible<(), ron::Error>;
    type SerializeMap = Impossible<(), ron::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), ron::Error>;

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self, ron::Error> {
        let _ = writeln!(self.out, "{name}(");
        Ok(self)
    }

    fn serialize_bool(self, _: bool) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i8(self, _: i8) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i16(self, _: i16) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i32(self, _: i32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i64(self, _: i64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u8(self, _: u8) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u16(self, _: u16) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u32(self, _: u32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u64(self, _: u64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_f32(self, _: f32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_f64(self, _: f64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_char(self, _: char) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_str(self, _: &str) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_none(self) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit(self) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, ron::Error> {
        Err(unsupported())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, ron::Error> {
        Err(unsupported())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, ron::Error> {
        Err(unsupported())
    }
}

impl<'c, 'a> SerializeStruct for &'c mut Capture<'a> {
    type Ok = ();
    type Error = ron::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ron::Error> {
        let depth = (self.depth_of)(key);
        let text = ron_options().to_string_pretty(value, pretty(depth))?;
        let _ = write!(self.out, "    {key}: ");
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                if !line.is_empty() {
                    self.out.push_str("    ");
                }
            }
            self.out.push_str(line);
        }
        self.out.push_str(",\n");
        Ok(())
    }

    fn end(self) -> Result<(), ron::Error> {
        Ok(())
    }
}
