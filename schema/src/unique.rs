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
    deserializer.deserialize_map(UniqueVisitor(PhantomData))
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
        deserializer.deserialize_map(UniqueVisitor(PhantomData))?;
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
            .deserialize_map(UniqueVisitor(PhantomData))
            .map(Unique)
    }
}

struct UniqueVisitor<K, V>(PhantomData<(K, V)>);

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
            let value = access.next_value::<V>()?;
            map.insert(key, value);
        }
        Ok(map)
    }
}
