//! Maps read from files refuse a key given twice. serde fills a `BTreeMap` entry by entry, so a
//! legend naming `"f"` twice would keep the last entry silently, and `bataille fmt` would then
//! delete the first from the file. Every map field of the documents is read through
//! [`deserialize`] (`#[serde(deserialize_with = "crate::unique::deserialize")]`), which fails
//! with a message starting [`DUPLICATE_KEY`]; the loader turns it into a located error.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, Visitor};

/// The start of the error message of a repeated key, followed by the key quoted as in RON.
pub const DUPLICATE_KEY: &str = "the key is given twice: ";

/// Reads a map, refusing a key given twice.
pub fn deserialize<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Borrow<str>,
    V: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueVisitor(PhantomData, |_| {}))
}

/// [`deserialize`] for a map of lists (a map's `overlays`, `hexsides`, `paths`), each list
/// held at its length. serde reads a list growing it from room for four: a one-id list of
/// overlays held room for four ids (96 bytes, 112 with the allocator's header), for 21 bytes
/// of file (issue 19: a map of 285,000 overlays peaked at 16 times the file).
pub fn deserialize_lists<'de, D, K, T>(deserializer: D) -> Result<BTreeMap<K, Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Borrow<str>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueVisitor(PhantomData, Vec::shrink_to_fit))
}

/// A list held at its length (see [`deserialize_lists`]):
/// `#[serde(deserialize_with = "crate::unique::fitted")]`.
pub fn fitted<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let mut list = Vec::<T>::deserialize(deserializer)?;
    list.shrink_to_fit();
    Ok(list)
}

/// Reads a map of maps (a unit's `ratings`), refusing a key given twice at either level.
pub fn deserialize_nested<'de, D, K, K2, V>(
    deserializer: D,
) -> Result<BTreeMap<K, BTreeMap<K2, V>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Borrow<str>,
    K2: Deserialize<'de> + Ord + Borrow<str>,
    V: Deserialize<'de>,
{
    let outer: BTreeMap<K, Unique<K2, V>> =
        deserializer.deserialize_map(UniqueVisitor(PhantomData, |_| {}))?;
    Ok(outer.into_iter().map(|(k, v)| (k, v.0)).collect())
}

struct Unique<K, V>(BTreeMap<K, V>);

impl<'de, K, V> Deserialize<'de> for Unique<K, V>
where
    K: Deserialize<'de> + Ord + Borrow<str>,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(UniqueVisitor(PhantomData, |_| {}))
            .map(Unique)
    }
}

/// The visitor of a map refusing a key given twice; each value handed to its function once
/// read (a list shrunk to its length).
struct UniqueVisitor<K, V>(PhantomData<(K, V)>, fn(&mut V));

impl<'de, K, V> Visitor<'de> for UniqueVisitor<K, V>
where
    K: Deserialize<'de> + Ord + Borrow<str>,
    V: Deserialize<'de>,
{
    type Value = BTreeMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = BTreeMap::new();
        while let Some(key) = access.next_key::<K>()? {
            if map.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "{DUPLICATE_KEY}{:?}",
                    Borrow::<str>::borrow(&key)
                )));
            }
            let mut value = access.next_value::<V>()?;
            (self.1)(&mut value);
            map.insert(key, value);
        }
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize)]
    struct Lists {
        #[serde(deserialize_with = "super::deserialize_lists")]
        lists: BTreeMap<String, Vec<String>>,
        #[serde(deserialize_with = "super::fitted")]
        list: Vec<u8>,
    }

    /// Each list is held at its length, not with serde's room for four more.
    #[test]
    fn lists_are_held_at_their_length() {
        let read: Lists =
            ron::from_str(r#"(lists: {"a": ["x"], "b": ["x", "y", "z", "w", "v"]}, list: [1])"#)
                .unwrap();
        for list in read.lists.values() {
            assert_eq!(list.capacity(), list.len());
        }
        assert_eq!(read.list.capacity(), 1);
        let twice: Result<Lists, _> = ron::from_str(r#"(lists: {"a": [], "a": []}, list: [])"#);
        assert!(twice.is_err_and(|e| e.to_string().contains(super::DUPLICATE_KEY)));
    }
}
