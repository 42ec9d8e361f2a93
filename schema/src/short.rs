//! A short text of 16 bytes, for the strings a document holds by the hundred thousand: ids, hex
//! names, hexside references, colours and `allow` codes (issue 19: as a `SmolStr` each took 24
//! bytes, as a heap `String` 56; a file of the shortest units held 208 bytes a unit, twelve
//! times the file).
//!
//! Up to [`INLINE`] bytes are held inline (a hex name is at most 7, a colour 7, a code 5, most
//! ids); a longer text on the heap, shared by its clones. A long text read from a file that
//! was read just before (every unit naming its kind and corps) shares the earlier one's copy
//! ([`ShortStr::read`]): a file of units of one long kind holds that kind once, not once a
//! unit.

use std::sync::Arc;

/// A text of 16 bytes: up to [`INLINE`] bytes inline, a longer one on the heap. It reads,
/// compares, sorts, hashes and writes as the string it is; its JSON Schema is a string's.
#[derive(Clone)]
pub struct ShortStr(Repr);

#[derive(Clone)]
enum Repr {
    /// Length and bytes.
    Inline(u8, [u8; INLINE]),
    Heap(Arc<Box<str>>),
}

/// The longest text held inline.
pub const INLINE: usize = 14;

const _: () = assert!(std::mem::size_of::<ShortStr>() == 16);
const _: () = assert!(std::mem::size_of::<Option<ShortStr>>() == 16);

/// The longest text [`ShortStr::read`] shares with an earlier copy (an id is at most 64).
const SHARED_MAX: usize = 64;
/// How many recent long texts [`ShortStr::read`] remembers, per thread.
const RECENT: usize = 64;

thread_local! {
    /// The long texts read last, by a hash of their text: a file names a unit's kind and corps
    /// on every line, so a copy of each is shared, not made once a unit.
    static RECENT_TEXTS: std::cell::RefCell<Vec<Option<Arc<Box<str>>>>> =
        std::cell::RefCell::new(vec![None; RECENT]);
}

impl ShortStr {
    /// The empty text.
    pub const EMPTY: ShortStr = ShortStr(Repr::Inline(0, [0; INLINE]));

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline(len, bytes) => bytes
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or(""),
            Repr::Heap(text) => text,
        }
    }

    fn inline(text: &str) -> Option<Self> {
        let len = u8::try_from(text.len())
            .ok()
            .filter(|&l| usize::from(l) <= INLINE)?;
        let mut bytes = [0; INLINE];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(ShortStr(Repr::Inline(len, bytes)))
    }

    /// A formatted text, written in place when it is short (`ShortStr::format(format_args!(…))`):
    /// no heap string made for a hex name.
    pub fn format(args: std::fmt::Arguments<'_>) -> Self {
        struct Buffer {
            len: usize,
            bytes: [u8; INLINE],
            long: Option<String>,
        }
        impl std::fmt::Write for Buffer {
            fn write_str(&mut self, text: &str) -> std::fmt::Result {
                if let Some(long) = &mut self.long {
                    long.push_str(text);
                } else if let Some(room) = self.bytes.get_mut(self.len..self.len + text.len()) {
                    room.copy_from_slice(text.as_bytes());
                    self.len += text.len();
                } else {
                    let mut long = String::from_utf8_lossy(&self.bytes[..self.len]).into_owned();
                    long.push_str(text);
                    self.long = Some(long);
                }
                Ok(())
            }
        }
        let mut buffer = Buffer {
            len: 0,
            bytes: [0; INLINE],
            long: None,
        };
        let _ = std::fmt::Write::write_fmt(&mut buffer, args);
        match buffer.long {
            Some(long) => ShortStr::from(long),
            None => ShortStr(Repr::Inline(buffer.len as u8, buffer.bytes)),
        }
    }

    /// A text read from a file: a long one equal to one read shortly before on this thread
    /// shares its copy (see the module's comment). The same value as [`ShortStr::from`].
    pub fn read(text: &str) -> Self {
        if let Some(short) = Self::inline(text) {
            return short;
        }
        if text.len() > SHARED_MAX {
            return ShortStr(Repr::Heap(Arc::new(text.into())));
        }
        let slot = {
            use std::hash::{BuildHasher, BuildHasherDefault};
            let hasher = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
            (hasher.hash_one(text) % RECENT as u64) as usize
        };
        RECENT_TEXTS.with(|recent| {
            let mut recent = recent.borrow_mut();
            match recent.get_mut(slot) {
                Some(Some(seen)) if ***seen == *text => ShortStr(Repr::Heap(seen.clone())),
                Some(entry) => {
                    let shared: Arc<Box<str>> = Arc::new(text.into());
                    *entry = Some(shared.clone());
                    ShortStr(Repr::Heap(shared))
                }
                None => ShortStr(Repr::Heap(Arc::new(text.into()))),
            }
        })
    }
}

impl Default for ShortStr {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl From<&str> for ShortStr {
    fn from(text: &str) -> Self {
        Self::inline(text).unwrap_or_else(|| ShortStr(Repr::Heap(Arc::new(text.into()))))
    }
}

impl From<String> for ShortStr {
    fn from(text: String) -> Self {
        Self::inline(&text).unwrap_or_else(|| ShortStr(Repr::Heap(Arc::new(text.into_boxed_str()))))
    }
}

impl From<&String> for ShortStr {
    fn from(text: &String) -> Self {
        ShortStr::from(text.as_str())
    }
}

impl From<ShortStr> for String {
    fn from(text: ShortStr) -> Self {
        text.as_str().to_owned()
    }
}

impl std::ops::Deref for ShortStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for ShortStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for ShortStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for ShortStr {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for ShortStr {}

impl PartialEq<str> for ShortStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ShortStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for ShortStr {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ShortStr {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for ShortStr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl std::fmt::Debug for ShortStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for ShortStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ShortStr {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ShortStr {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = ShortStr;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<ShortStr, E> {
                Ok(ShortStr::read(text))
            }
            // Bytes that are UTF-8 are taken as text, as `SmolStr` (what ids and codes were)
            // takes them: a file's `b"W0601"` reads as it did.
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<ShortStr, E> {
                std::str::from_utf8(bytes)
                    .map(ShortStr::read)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Bytes(bytes), &self))
            }
        }
        deserializer.deserialize_str(Text)
    }
}

impl schemars::JsonSchema for ShortStr {
    fn inline_schema() -> bool {
        String::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
mod tests {
    use super::ShortStr;

    /// A short text reads, compares, sorts, hashes and writes as its text, inline or on the
    /// heap, made or read.
    #[test]
    fn a_short_text_is_its_text() {
        let texts = [
            "",
            "W0601",
            "é",
            "fourteen bytes",
            "fifteen bytes!!",
            "a much longer code",
        ];
        let made: Vec<ShortStr> = texts.iter().map(|t| ShortStr::from(*t)).collect();
        let read: Vec<ShortStr> = texts.iter().map(|t| ShortStr::read(t)).collect();
        assert_eq!(made, read);
        for (text, short) in texts.iter().zip(&made) {
            assert_eq!(short.as_str(), *text);
            assert_eq!(short, text);
            assert_eq!(ShortStr::from(text.to_string()), *short);
            assert_eq!(format!("{short:?}"), format!("{text:?}"));
            assert_eq!(short.to_string(), *text);
            let written = ron::to_string(short).unwrap();
            assert_eq!(written, ron::to_string(text).unwrap());
            assert_eq!(ron::from_str::<ShortStr>(&written).unwrap(), *short);
        }
        let mut sorted = made.clone();
        sorted.sort();
        let mut by_text = texts.to_vec();
        by_text.sort();
        assert_eq!(
            sorted.iter().map(ShortStr::as_str).collect::<Vec<_>>(),
            by_text
        );
        let set: std::collections::HashSet<&str> =
            made.iter().map(std::borrow::Borrow::borrow).collect();
        assert!(set.contains("fifteen bytes!!"));
        // A byte string is read as `SmolStr` (what ids were) reads it.
        assert_eq!(
            ron::from_str::<ShortStr>(r#"b"W0601""#).map_err(|e| e.to_string()),
            ron::from_str::<smol_str::SmolStr>(r#"b"W0601""#)
                .map(|_| ShortStr::from(""))
                .map_err(|e| e.to_string())
        );
    }

    /// A long text read twice in a row is held once; texts that differ stay apart.
    #[test]
    fn a_long_text_read_again_shares_its_copy() {
        let one = ShortStr::read("regiment-de-navarre");
        let again = ShortStr::read("regiment-de-navarre");
        let other = ShortStr::read("regiment-de-picardie");
        match (&one.0, &again.0, &other.0) {
            (super::Repr::Heap(a), super::Repr::Heap(b), super::Repr::Heap(c)) => {
                assert!(std::sync::Arc::ptr_eq(a, b));
                assert!(!std::sync::Arc::ptr_eq(a, c));
            }
            _ => panic!("texts of 19 and 20 bytes are on the heap"),
        }
        assert_eq!(other, "regiment-de-picardie");
        assert_eq!(ShortStr::format(format_args!("{:03}{}", 7, "x")), "007x");
        let formatted = ShortStr::format(format_args!("{}-{}", "fourteen bytes", "and more"));
        assert_eq!(formatted, "fourteen bytes-and more");
        let long = "x".repeat(65);
        assert_eq!(ShortStr::read(&long), long.as_str());
    }
}
