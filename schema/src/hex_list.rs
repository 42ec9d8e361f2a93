//! A list of hex names held in 8 bytes a hex: a zone's hexes (issue 19). A zone of hexes
//! written `"x",` is 4 bytes of file a hex; as a `Vec<HexName>` it held 16 bytes a hex, and
//! a 6 MB file of them peaked at 10.9 times its size. Every hex name the schema accepts has
//! at most 7 bytes and is held in its 8 bytes; a longer text (which the schema refuses, E0105)
//! is kept beside, in the list, and its 8 bytes say where.
//!
//! It reads and writes as a list of texts, and its JSON Schema is that of a `Vec<HexName>`.
//! The hexes are handed out by value ([`HexList::iter`], [`HexList::get`]): a `HexName` of up
//! to 14 bytes is made in place, without the heap.

use std::borrow::Cow;
use std::fmt;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::common::HexName;

/// A list of hex names, 8 bytes a hex (see the module's documentation).
#[derive(Clone, Default)]
pub struct HexList {
    /// Each hex: its text's bytes then, in the last byte, their count (at most [`INLINE`]);
    /// or [`BESIDE`] in the last byte and the text's index in `beside` in the first four.
    packed: Vec<[u8; 8]>,
    /// The texts longer than [`INLINE`] bytes. One a hex removed from the list stays here
    /// until the list is built again (a clone keeps it too): only a refused name is ever here.
    beside: Vec<HexName>,
}

/// The longest text held in a hex's 8 bytes.
const INLINE: usize = 7;
/// The last byte of a hex whose text is kept beside.
const BESIDE: u8 = u8::MAX;

/// A hex's text, from its 8 bytes.
fn text_of<'a>(packed: &'a [u8; 8], beside: &'a [HexName]) -> &'a str {
    let [a, b, c, d, .., len] = *packed;
    if len == BESIDE {
        let index = u32::from_le_bytes([a, b, c, d]) as usize;
        return beside.get(index).map_or("", HexName::as_str);
    }
    packed
        .get(..usize::from(len))
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .unwrap_or("")
}

/// A text's 8 bytes when it is held in them.
fn inline(text: &str) -> Option<[u8; 8]> {
    let len = u8::try_from(text.len())
        .ok()
        .filter(|&l| usize::from(l) <= INLINE)?;
    let mut packed = [0; 8];
    packed[..text.len()].copy_from_slice(text.as_bytes());
    packed[INLINE] = len;
    Some(packed)
}

impl HexList {
    /// An empty list.
    pub const fn new() -> Self {
        Self {
            packed: Vec::new(),
            beside: Vec::new(),
        }
    }

    /// How many hexes.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// Whether the list has no hex.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// A hex's 8 bytes; a long text is put beside.
    fn pack(&mut self, hex: HexName) -> [u8; 8] {
        if let Some(packed) = inline(hex.as_str()) {
            return packed;
        }
        // Past `u32::MAX` texts beside (never: a list of that many is far past the file
        // cap), the last index is reused and reads as the last text.
        let index = u32::try_from(self.beside.len()).unwrap_or(u32::MAX);
        self.beside.push(hex);
        let [a, b, c, d] = index.to_le_bytes();
        [a, b, c, d, 0, 0, 0, BESIDE]
    }

    /// The text of the hex at `index`.
    pub fn text(&self, index: usize) -> Option<&str> {
        self.packed.get(index).map(|p| text_of(p, &self.beside))
    }

    /// The hex at `index`.
    pub fn get(&self, index: usize) -> Option<HexName> {
        self.text(index).map(HexName::from)
    }

    /// The hexes, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.texts())
    }

    /// The hexes' texts, in order.
    pub fn texts(&self) -> Texts<'_> {
        Texts {
            packed: self.packed.iter(),
            beside: &self.beside,
        }
    }

    /// The hexes as a list of names.
    pub fn to_vec(&self) -> Vec<HexName> {
        self.iter().collect()
    }

    /// Adds a hex at the end.
    pub fn push(&mut self, hex: HexName) {
        let packed = self.pack(hex);
        self.packed.push(packed);
    }

    /// Puts a hex at `index`, moving the later ones.
    pub fn insert(&mut self, index: usize, hex: HexName) {
        let packed = self.pack(hex);
        self.packed.insert(index.min(self.packed.len()), packed);
    }

    /// Takes out the last hex.
    pub fn pop(&mut self) -> Option<HexName> {
        self.remove(self.len().checked_sub(1)?)
    }

    /// Takes out the hex at `index`.
    pub fn remove(&mut self, index: usize) -> Option<HexName> {
        let hex = self.get(index)?;
        self.packed.remove(index);
        Some(hex)
    }

    /// Keeps the hexes for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&HexName) -> bool) {
        let beside = &self.beside;
        self.packed
            .retain(|p| keep(&HexName::from(text_of(p, beside))));
    }

    /// Whether a hex is in the list.
    pub fn contains(&self, hex: &HexName) -> bool {
        match inline(hex.as_str()) {
            Some(packed) => self.packed.contains(&packed),
            None => self.texts().any(|t| t == hex.as_str()),
        }
    }

    /// Where a hex is in a list sorted by name, or where it would go.
    pub fn binary_search(&self, hex: &HexName) -> Result<usize, usize> {
        self.packed
            .binary_search_by(|p| text_of(p, &self.beside).cmp(hex.as_str()))
    }

    /// Sorts the hexes by name.
    pub fn sort(&mut self) {
        let beside = &self.beside;
        self.packed
            .sort_by(|a, b| text_of(a, beside).cmp(text_of(b, beside)));
    }

    /// Drops each hex equal to the one before it.
    pub fn dedup(&mut self) {
        let beside = &self.beside;
        self.packed
            .dedup_by(|a, b| text_of(a, beside) == text_of(b, beside));
    }

    /// Whether no hex is given twice (the schema's `uniqueItems`): the hexes' places sorted
    /// by name, 4 bytes a hex.
    pub fn is_unique(&self) -> bool {
        let Ok(len) = u32::try_from(self.packed.len()) else {
            let mut texts: Vec<&str> = self.texts().collect();
            texts.sort_unstable();
            return texts.windows(2).all(|pair| pair[0] != pair[1]);
        };
        let text = |index: &u32| self.text(*index as usize).unwrap_or("");
        let mut order: Vec<u32> = (0..len).collect();
        order.sort_unstable_by(|a, b| text(a).cmp(text(b)));
        order
            .windows(2)
            .all(|pair| text(&pair[0]) != text(&pair[1]))
    }
}

impl From<Vec<HexName>> for HexList {
    fn from(hexes: Vec<HexName>) -> Self {
        hexes.into_iter().collect()
    }
}

impl From<&[HexName]> for HexList {
    fn from(hexes: &[HexName]) -> Self {
        hexes.iter().cloned().collect()
    }
}

impl<const N: usize> From<[HexName; N]> for HexList {
    fn from(hexes: [HexName; N]) -> Self {
        hexes.into_iter().collect()
    }
}

impl FromIterator<HexName> for HexList {
    fn from_iter<I: IntoIterator<Item = HexName>>(hexes: I) -> Self {
        let mut list = HexList::new();
        list.extend(hexes);
        list
    }
}

impl Extend<HexName> for HexList {
    fn extend<I: IntoIterator<Item = HexName>>(&mut self, hexes: I) {
        let hexes = hexes.into_iter();
        self.packed.reserve(hexes.size_hint().0);
        for hex in hexes {
            self.push(hex);
        }
    }
}

impl PartialEq for HexList {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.texts().eq(other.texts())
    }
}

impl Eq for HexList {}

impl PartialEq<Vec<HexName>> for HexList {
    fn eq(&self, other: &Vec<HexName>) -> bool {
        self.len() == other.len() && self.texts().eq(other.iter().map(HexName::as_str))
    }
}

impl PartialEq<[HexName]> for HexList {
    fn eq(&self, other: &[HexName]) -> bool {
        self.len() == other.len() && self.texts().eq(other.iter().map(HexName::as_str))
    }
}

impl fmt::Debug for HexList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.texts()).finish()
    }
}

impl Serialize for HexList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.texts())
    }
}

impl<'de> Deserialize<'de> for HexList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Hexes;
        impl<'de> Visitor<'de> for Hexes {
            type Value = HexList;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of hex names")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<HexList, A::Error> {
                let mut list = HexList::new();
                while let Some(hex) = access.next_element::<HexName>()? {
                    list.push(hex);
                }
                list.packed.shrink_to_fit();
                list.beside.shrink_to_fit();
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Hexes)
    }
}

impl schemars::JsonSchema for HexList {
    fn inline_schema() -> bool {
        <Vec<HexName> as schemars::JsonSchema>::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        <Vec<HexName> as schemars::JsonSchema>::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        <Vec<HexName> as schemars::JsonSchema>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<HexName> as schemars::JsonSchema>::json_schema(generator)
    }
}

/// The texts of a [`HexList`]'s hexes ([`HexList::texts`]).
#[derive(Clone)]
pub struct Texts<'a> {
    packed: std::slice::Iter<'a, [u8; 8]>,
    beside: &'a [HexName],
}

impl<'a> Iterator for Texts<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.packed.next().map(|p| text_of(p, self.beside))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.packed.size_hint()
    }
}

impl DoubleEndedIterator for Texts<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.packed.next_back().map(|p| text_of(p, self.beside))
    }
}

impl ExactSizeIterator for Texts<'_> {}

/// The hexes of a [`HexList`] ([`HexList::iter`]).
#[derive(Clone)]
pub struct Iter<'a>(Texts<'a>);

impl Iterator for Iter<'_> {
    type Item = HexName;

    fn next(&mut self) -> Option<HexName> {
        self.0.next().map(HexName::from)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<HexName> {
        self.0.next_back().map(HexName::from)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a HexList {
    type Item = HexName;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(texts: &[&str]) -> Vec<HexName> {
        texts.iter().map(|t| HexName::from(*t)).collect()
    }

    /// Every text reads back as written, short or long, ASCII or not, through every change.
    #[test]
    fn texts_read_back_as_written() {
        let texts = [
            "0101", "x", "", "1234567", "12345678", "é1é", "éééé", "0102",
        ];
        let mut list = HexList::from(names(&texts));
        assert_eq!(std::mem::size_of_val(&list.packed[0]), 8);
        assert_eq!(list.beside.len(), 2, "the 8-byte texts are kept beside");
        assert_eq!(list.texts().collect::<Vec<_>>(), texts);
        assert_eq!(list, names(&texts));
        assert!(list.contains(&HexName::from("12345678")) && list.contains(&"x".into()));
        assert!(!list.contains(&HexName::from("0103")) && !list.contains(&"123456789".into()));
        assert!(list.is_unique());
        list.push("x".into());
        assert!(!list.is_unique());
        list.sort();
        list.dedup();
        let mut sorted = texts.to_vec();
        sorted.sort_unstable();
        assert_eq!(list.texts().collect::<Vec<_>>(), sorted);
        assert_eq!(list.binary_search(&"0102".into()), Ok(2));
        assert_eq!(list.binary_search(&"0103".into()), Err(3));
        list.insert(3, "0103".into());
        list.retain(|h| h.as_str() != "x");
        assert_eq!(list.remove(0).as_ref().map(HexName::as_str), Some(""));
        assert_eq!(
            list.texts().collect::<Vec<_>>(),
            ["0101", "0102", "0103", "1234567", "12345678", "é1é", "éééé"]
        );
    }

    /// Read and written as a list of texts, with the schema of a list of hex names.
    #[test]
    fn reads_writes_and_describes_itself_as_a_list_of_hex_names() {
        let text = r#"["0101","x","0102030405"]"#;
        let list: HexList = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&list).unwrap(), text);
        let ron_text = ron::to_string(&list).unwrap();
        assert_eq!(ron_text, ron::to_string(&list.to_vec()).unwrap());
        assert_eq!(ron::from_str::<HexList>(&ron_text).unwrap(), list);
        assert_eq!(
            schemars::schema_for!(HexList),
            schemars::schema_for!(Vec<HexName>)
        );
    }
}
