//! What every document must be whatever its type says, checked on the RON text itself before
//! it is read into a type: no key given twice in a `{ ... }` map (serde keeps the last entry
//! of a `BTreeMap` silently), no number that is not finite (NaN, `inf`) and no text holding a
//! character that no markup or terminal should receive ([`crate::markup::unprintable`]: XML 1.0
//! cannot hold U+0001 or U+FFFE; C1 controls are obeyed by terminals). A document type
//! that reads its maps through [`crate::unique`] and checks its own numbers (maps, scenarios)
//! needs none of this; one that does not (a miniatures system) gets both from here, so a new
//! document kind is safe without remembering to be.

use std::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};

use crate::unique::DUPLICATE_KEY;

/// What the walk found wrong, at a JSON pointer.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// A number that is not finite.
    NonFinite { pointer: String, value: f64 },
    /// Text (a value or a key) holding a character no document should.
    Unprintable { pointer: String, character: char },
}

/// Walks the text: `Err` is ron's error (a syntax error, or a key given twice with a message
/// starting [`DUPLICATE_KEY`], located by ron where the key was read); `Ok` holds the first
/// finding, if any.
pub fn walk(text: &str) -> Result<Option<Finding>, ron::error::SpannedError> {
    let mut found = None;
    let mut pointer = String::new();
    crate::limits::ron_options().from_str_seed(
        text,
        Walker {
            pointer: &mut pointer,
            found: &mut found,
        },
    )?;
    Ok(found)
}

/// Whether the walk could find anything in this text but a key given twice: `false` when the
/// text holds no backslash (so every string's characters are the text's own), no character
/// [`crate::markup::unprintable`] anywhere, and no number ron could read as not finite — no
/// `inf`/`NaN` identifier (nor `inff32`, `NaNf64`…), no exponent after a digit or a point,
/// no run of 39 digits or more (an `f32` overflows from there). A conservative scan of the
/// bytes (a false `true` only costs the walk): a document type that refuses every key given
/// twice in its typed read (every map through [`crate::unique`], every struct and struct
/// variant derived with `deny_unknown_fields`) may skip the walk when this is `false` and
/// its typed read succeeds, and must walk before reporting a failed typed read (the walk's
/// findings come first).
pub fn may_find(text: &str) -> bool {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut digits = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' | b'_' => {
                digits += 1;
                if digits >= 39 {
                    return true;
                }
                continue;
            }
            b'\\' => return true,
            b'e' | b'E' if i > 0 && matches!(bytes[i - 1], b'0'..=b'9' | b'.' | b'_') => {
                // An exponent if the digits before it start a token: not a colour's
                // `"#c8102e"`, a word's `column_entry` or a string's first characters.
                let run = bytes[..i]
                    .iter()
                    .rposition(|&c| !matches!(c, b'0'..=b'9' | b'.' | b'_'));
                if run.is_none_or(|j| !(ident(bytes[j]) || matches!(bytes[j], b'#' | b'"'))) {
                    return true;
                }
            }
            b'i' | b'N' => {
                let word = if b == b'i' { &b"inf"[..] } else { &b"NaN"[..] };
                let starts = i == 0 || !ident(bytes[i - 1]);
                if starts && bytes[i..].starts_with(word) {
                    let rest = &bytes[i + 3..];
                    let rest = if rest.starts_with(b"f32") || rest.starts_with(b"f64") {
                        &rest[3..]
                    } else {
                        rest
                    };
                    if rest.first().is_none_or(|&next| !ident(next)) {
                        return true;
                    }
                }
            }
            0x80..
                if b & 0xC0 != 0x80
                    && text
                        .get(i..)
                        .and_then(|rest| rest.chars().next())
                        .is_none_or(crate::markup::unprintable) =>
            {
                return true;
            }
            _ if (b < 0x20 || b == 0x7F) && crate::markup::unprintable(char::from(b)) => {
                return true;
            }
            _ => {}
        }
        digits = 0;
    }
    false
}

/// The walk of one value. The pointer is one buffer for the whole walk: a value's segment is
/// appended before it is walked and cut off after, and the pointer is copied only into a
/// finding (the walk reads every value of the document before its typed read: a string per
/// value would cost more than the read itself).
struct Walker<'a> {
    pointer: &'a mut String,
    found: &'a mut Option<Finding>,
}

impl Walker<'_> {
    fn float(self, value: f64) {
        if !value.is_finite() && self.found.is_none() {
            *self.found = Some(Finding::NonFinite {
                pointer: self.pointer.clone(),
                value,
            });
        }
    }

    fn text(self, text: &str) {
        text_finding(self.pointer, text, self.found);
    }
}

/// Appends `/segment` to a pointer, escaped as JSON pointers are (`~0`, `~1`).
fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if segment.contains(['~', '/']) {
        pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        pointer.push_str(segment);
    }
}

fn text_finding(pointer: &str, text: &str, found: &mut Option<Finding>) {
    if found.is_none()
        && let Some(character) = text.chars().find(|c| crate::markup::unprintable(*c))
    {
        *found = Some(Finding::Unprintable {
            pointer: pointer.to_owned(),
            character,
        });
    }
}

impl<'de> DeserializeSeed<'de> for Walker<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A map key as text (strings, numbers, identifiers), for duplicate detection and pointers.
struct Key(String);

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(Key(v.to_owned()))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_char<E: serde::de::Error>(self, v: char) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Key, E> {
                Ok(Key("()".into()))
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

impl<'de> Visitor<'de> for Walker<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a RON value")
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
    fn visit_f32<E>(self, v: f32) -> Result<(), E> {
        self.float(f64::from(v));
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.float(v);
        Ok(())
    }
    fn visit_char<E>(self, c: char) -> Result<(), E> {
        self.text(c.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.text(v);
        Ok(())
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let base = self.pointer.len();
        let mut i = 0usize;
        loop {
            use std::fmt::Write as _;
            let _ = write!(self.pointer, "/{i}");
            let seed = Walker {
                pointer: &mut *self.pointer,
                found: &mut *self.found,
            };
            let more = seq.next_element_seed(seed)?.is_some();
            self.pointer.truncate(base);
            if !more {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let base = self.pointer.len();
        let mut seen = std::collections::HashSet::new();
        while let Some(Key(key)) = map.next_key::<Key>()? {
            push_segment(self.pointer, &key);
            text_finding(self.pointer, &key, self.found);
            if seen.contains(&key) {
                // Quoted as `crate::unique` does, so the loader finds it in the text.
                return Err(A::Error::custom(format!("{DUPLICATE_KEY}{key:?}")));
            }
            let seed = Walker {
                pointer: &mut *self.pointer,
                found: &mut *self.found,
            };
            map.next_value_seed(seed)?;
            self.pointer.truncate(base);
            seen.insert(key);
        }
        Ok(())
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess as _;
        let (_, variant): (Key, _) = data.variant()?;
        variant.newtype_variant_seed(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_key_given_twice_and_numbers_that_are_not_finite() {
        assert_eq!(walk("S(a: {\"x\": 1, \"y\": 2}, b: [1.5])").unwrap(), None);
        let error = walk("S(a: {\"x\": 1, \"x\": 2})").unwrap_err();
        assert!(error.code.to_string().contains(DUPLICATE_KEY), "{error}");
        let found = walk("S(a: {\"x\": (f: [1.0, NaN])})").unwrap().unwrap();
        assert!(
            matches!(found, Finding::NonFinite { ref pointer, value } if pointer == "/a/x/f/1" && value.is_nan())
        );
        let found = walk("S(b: Some(-inf))").unwrap().unwrap();
        assert_eq!(
            found,
            Finding::NonFinite {
                pointer: "/b".into(),
                value: f64::NEG_INFINITY
            }
        );
        let found = walk("S(n: [\"ok\", \"a\\u{1}b\"])").unwrap().unwrap();
        assert_eq!(
            found,
            Finding::Unprintable {
                pointer: "/n/1".into(),
                character: '\u{1}'
            }
        );
        let found = walk("S(m: {\"k\u{9b}\": 1})").unwrap().unwrap();
        assert!(matches!(
            found,
            Finding::Unprintable {
                character: '\u{9b}',
                ..
            }
        ));
        // The pointer is one buffer: after siblings, long keys and lists it names the value
        // found, keys escaped as JSON pointers are.
        let found = walk(
            "S(a: [1.0, (x: 2.0)], long_name: {\"k\": 1}, b: {\"p/q~\": [\"x\", \"y\\u{1}\"]})",
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            found,
            Finding::Unprintable {
                pointer: "/b/p~1q~0/1".into(),
                character: '\u{1}'
            }
        );
        // Enum values and unit variants walk through.
        assert_eq!(walk("S(v: Range(min: 1, max: 2), w: Inch)").unwrap(), None);
    }

    #[test]
    fn the_scan_sends_to_the_walk_what_only_the_walk_finds() {
        for text in [
            "S(a: NaN)",
            "S(a: -inf)",
            "S(a: +inff32)",
            "S(a: [1.0,NaNf64])",
            "S(a: 1e999)",
            "S(a: 2.5E+400)",
            "S(a:/**/1e999)",
            "S(a: 100000000000000000000000000000000000000000.0f32)",
            "S(a: \"x\\u{1}\")",
            "S(a: \"x\u{1}\")",
            "S(a: \"x\u{7f}\")",
            "S(a: \"x\u{85}\")",
            "S(a: \"x\u{fffe}\")",
        ] {
            assert!(may_find(text), "{text:?}");
        }
        for text in [
            "S(a: 1.5, b: \"infantry\", c: \"#c8102e\", d: \"#1e5aa8\", column_entry: 3)",
            "S(info: Nancy, a: 12345678901234567890, b: \"é ü 漢\")",
        ] {
            assert!(!may_find(text), "{text:?}");
        }
        // The stress battle the benchmarks read takes the fast path.
        let size = crate::stress::StressSize {
            columns: 20,
            rows: 20,
            units: 50,
            corps: 5,
        };
        let (map, scenario) = crate::stress::generate(size, "stress-map.ron");
        assert!(!may_find(
            &crate::io::scenario_to_string(&scenario).unwrap()
        ));
        assert!(!may_find(&crate::io::map_to_string(&map).unwrap()));
    }
}
