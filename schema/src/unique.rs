//! Maps read from files refuse a key given twice. serde fills a `BTreeMap` entry by entry, so a
//! legend naming `"f"` twice would keep the last entry silently, and `bataille fmt` would then
//! delete the first from the file. Every map field of the documents is read through
//! [`deserialize`] (`#[serde(deserialize_with = "crate::unique::deserialize")]`), which fails
//! with a message starting [`DUPLICATE_KEY`]; the loader turns it into a located error.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

/// The start of the error message of a repeated key, followed by the key quoted as in RON.
pub const DUPLICATE_KEY: &str = "the key is given twice: ";

/// Reads a map, refusing a key given twice.
pub fn deserialize<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Borrow<str>,
    V: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueVisitor(PhantomData, |v: V| v))
}

/// [`deserialize`] for a map of lists (a map's `overlays`, `hexsides`, `paths`), each list
/// allocated at its length ([`Fitted`]). serde reads a list growing it from room for four: a
/// one-id list of overlays held room for four ids (96 bytes, 112 with the allocator's header)
/// for 21 bytes of file (issue 19: a map of 285,000 overlays peaked at 16 times the file).
pub fn deserialize_lists<'de, D, K, T>(deserializer: D) -> Result<BTreeMap<K, Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Borrow<str>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_map(UniqueVisitor(PhantomData, |list: Fitted<T>| list.0))
}

/// A list allocated at its length (see [`deserialize_lists`]):
/// `#[serde(deserialize_with = "crate::unique::fitted")]`.
pub fn fitted<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Fitted::deserialize(deserializer).map(|list| list.0)
}

/// A list read into one allocation of its length. Shrinking serde's list afterwards does not
/// do: the allocator keeps the room cut off each small list (80 bytes after a one-id list)
/// where no later list of the same size fits, so the memory stays taken. The first
/// [`FIRST`] elements are read on the stack; a longer list grows, then is moved into a list
/// of its length (freeing the grown one whole, for the next long list to reuse).
pub struct Fitted<T>(pub Vec<T>);

/// How many elements [`Fitted`] reads before allocating.
const FIRST: usize = 4;

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Fitted<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Elements<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Elements<T> {
            type Value = Fitted<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut first: [Option<T>; FIRST] = std::array::from_fn(|_| None);
                let mut read = 0;
                while read < FIRST {
                    match access.next_element::<T>()? {
                        Some(element) => first[read] = Some(element),
                        None => break,
                    }
                    read += 1;
                }
                let Some(more) = (read == FIRST)
                    .then(|| access.next_element::<T>())
                    .transpose()?
                    .flatten()
                else {
                    let mut list = Vec::with_capacity(read);
                    list.extend(first.into_iter().flatten());
                    return Ok(Fitted(list));
                };
                let mut grown = Vec::with_capacity(2 * FIRST);
                grown.extend(first.into_iter().flatten());
                grown.push(more);
                while let Some(element) = access.next_element::<T>()? {
                    grown.push(element);
                }
                let mut list = Vec::with_capacity(grown.len());
                list.append(&mut grown);
                Ok(Fitted(list))
            }
        }
        deserializer.deserialize_seq(Elements(PhantomData))
    }
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
        deserializer.deserialize_map(UniqueVisitor(PhantomData, |v: Unique<K2, V>| v))?;
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
            .deserialize_map(UniqueVisitor(PhantomData, |v: V| v))
            .map(Unique)
    }
}

/// The visitor of a map refusing a key given twice; each value read as `R` and kept as its
/// function makes it (a [`Fitted`] list kept as its `Vec`).
struct UniqueVisitor<K, R, V>(PhantomData<(K, R)>, fn(R) -> V);

impl<'de, K, R, V> Visitor<'de> for UniqueVisitor<K, R, V>
where
    K: Deserialize<'de> + Ord + Borrow<str>,
    R: Deserialize<'de>,
{
    type Value = BTreeMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map: BTreeMap<K, V> = BTreeMap::new();
        // The entries read in increasing key order (as `fmt` writes every map) wait in `run`
        // and join the map together ([`join`]).
        let mut run: Vec<(K, V)> = Vec::new();
        while let Some(key) = access.next_key::<K>()? {
            let after = match run.last() {
                Some((last, _)) => key > *last,
                None => map.last_key_value().is_none_or(|(last, _)| key > *last),
            };
            if !after
                && (map.contains_key::<K>(&key)
                    || run.binary_search_by(|(k, _)| k.cmp(&key)).is_ok())
            {
                return Err(A::Error::custom(format!(
                    "{DUPLICATE_KEY}{:?}",
                    Borrow::<str>::borrow(&key)
                )));
            }
            let value = (self.1)(access.next_value::<R>()?);
            if after {
                run.push((key, value));
                if run.len() >= RUN.max(map.len() / 8) {
                    join(&mut map, &mut run, false);
                }
            } else {
                join(&mut map, &mut run, false);
                map.insert(key, value);
            }
        }
        join(&mut map, &mut run, true);
        Ok(map)
    }
}

/// The fewest entries in order [`UniqueVisitor`] gathers before it adds them to its map.
const RUN: usize = 4096;

/// Adds entries in increasing key order, all after the map's, to the map. A map filled entry
/// by entry in key order keeps its nodes half full (a node that fills is split in two, and
/// only the right one is filled again): the 285,000 overlays of a 5.7 MB map held about 80
/// bytes an entry (issue 19). Built at once, from sorted entries, its nodes are full (about 42
/// bytes). Building costs the whole map (`BTreeMap::append` merges both into a new tree), so
/// it is done only for a run of at least an eighth of the map and the work stays linear; a
/// shorter run cut short by a key out of order is inserted entry by entry. The `last` run is
/// joined by a rebuild whatever its length (once a map, so linear): the whole map is dense.
/// Joining every run whatever its length was quadratic: keys alternating high and low rebuilt
/// the map at each low key (80,000 of them took a minute).
fn join<K: Ord, V>(map: &mut BTreeMap<K, V>, run: &mut Vec<(K, V)>, last: bool) {
    if run.is_empty() {
        return;
    }
    if !last && run.len() < RUN.max(map.len() / 8) {
        map.extend(run.drain(..));
        return;
    }
    #[cfg(test)]
    REBUILDS.with(|n| n.set(n.get() + 1));
    let mut tail: BTreeMap<K, V> = run.drain(..).collect();
    map.append(&mut tail);
}

#[cfg(test)]
thread_local! {
    /// How many times [`join`] built a map again, on this thread.
    static REBUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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

    /// Keys in order and out of order, across the runs gathered before they join the map:
    /// every entry kept once with its value, and a key given twice refused wherever it is.
    #[test]
    fn a_map_keeps_every_entry_and_refuses_a_key_given_twice() {
        #[derive(serde::Deserialize)]
        struct Lists {
            #[serde(deserialize_with = "super::deserialize")]
            map: BTreeMap<String, u32>,
        }
        let n = 3 * super::RUN + 7;
        // In order, then a key between two read before, then in order again.
        let mut keys: Vec<u32> = (0..n as u32).map(|k| 2 * k + 10).collect();
        keys.push(11);
        keys.extend((0..super::RUN as u32).map(|k| 2 * n as u32 + 20 + k));
        let entries = |keys: &[u32]| {
            let entries: Vec<String> = keys.iter().map(|k| format!("\"{k:08}\": {k}")).collect();
            format!("(map: {{{}}})", entries.join(", "))
        };
        let read: Lists = ron::from_str(&entries(&keys)).unwrap();
        assert_eq!(read.map.len(), keys.len());
        assert!(
            read.map
                .iter()
                .all(|(k, v)| k.parse::<u32>().unwrap() == *v)
        );
        for twice in [10, 2 * (n as u32 - 1) + 10, 11, 2 * n as u32 + 20] {
            let mut with = keys.clone();
            with.push(twice);
            let refused = ron::from_str::<Lists>(&entries(&with)).map(|_| ());
            let message = refused.unwrap_err().to_string();
            assert!(
                message.contains(&format!("{}\"{twice:08}\"", super::DUPLICATE_KEY)),
                "{message}"
            );
        }
        // A key given twice in a row, in the run.
        let refused = ron::from_str::<Lists>(&entries(&[10, 12, 12])).map(|_| ());
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .contains(super::DUPLICATE_KEY)
        );
    }

    /// Keys alternating high and low never make a run long enough to build the map again (but
    /// at the end), so reading them stays linear; keys in order build it again only as it grows
    /// by an eighth.
    /// Joining every run rebuilt the map once a low key (20,000 times here).
    #[test]
    fn a_map_is_built_again_only_for_long_runs() {
        #[derive(serde::Deserialize)]
        struct Lists {
            #[serde(deserialize_with = "super::deserialize")]
            map: BTreeMap<String, u32>,
        }
        let read = |keys: &[u32]| {
            let entries: Vec<String> = keys.iter().map(|k| format!("\"{k:08}\": {k}")).collect();
            super::REBUILDS.with(|n| n.set(0));
            let read: Lists = ron::from_str(&format!("(map: {{{}}})", entries.join(", "))).unwrap();
            assert_eq!(read.map.len(), keys.len());
            assert!(
                read.map
                    .iter()
                    .all(|(k, v)| k.parse::<u32>().unwrap() == *v)
            );
            super::REBUILDS.with(std::cell::Cell::get)
        };
        let n = 20_000u32;
        let alternating: Vec<u32> = (0..n).flat_map(|k| [50_000_000 + k, k]).collect();
        assert!(read(&alternating) <= 1);
        let in_order: Vec<u32> = (0..10 * n).collect();
        let rebuilds = read(&in_order);
        assert!((1..=40).contains(&rebuilds), "{rebuilds}");
    }

    /// Each list is held at its length, not with serde's room for four more.
    #[test]
    fn lists_are_held_at_their_length() {
        let read: Lists =
            ron::from_str(r#"(lists: {"a": ["x"], "b": ["x", "y", "z", "w", "v"], "c": ["1", "2", "3", "4"], "d": []}, list: [1])"#)
                .unwrap();
        for list in read.lists.values() {
            assert_eq!(list.capacity(), list.len());
        }
        assert_eq!(read.lists["b"], ["x", "y", "z", "w", "v"]);
        assert_eq!(read.lists["c"], ["1", "2", "3", "4"]);
        assert_eq!(read.list.capacity(), 1);
        let twice: Result<Lists, _> = ron::from_str(r#"(lists: {"a": [], "a": []}, list: [])"#);
        assert!(twice.is_err_and(|e| e.to_string().contains(super::DUPLICATE_KEY)));
    }
}
