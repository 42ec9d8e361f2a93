//! The JSON Schema pass's fast path: a document serialized by serde into one flat table (no
//! tree of `serde_json::Value`s, no string allocated per key or value) that jsonschema checks
//! through its representation traits (`jsonschema::json`). Converting each of 5,000 units to a
//! `Value` tree and dropping it was two thirds of the pass (issue 23).
//!
//! Only the verdict is taken from here: a document (or unit) this path does not pass is
//! converted to `serde_json::Value` again and checked the usual way, so every violation is
//! found and worded exactly as before. Anything this serializer does not take (an `f32`, a map
//! key that is not text or an integer, a 128-bit integer out of range) also goes the usual way.

use serde::Serialize;

mod read;
mod write;
pub use read::{At, Num};
use write::Unsupported;

/// The representation: a [`Table`] read through [`At`].
pub struct Tabled;

/// One value of the table, as read (see [`Slot`] for how it is kept).
#[derive(Debug, Clone, Copy)]
enum Item<'t> {
    Null,
    Bool(bool),
    U64(u64),
    /// A negative integer (a positive one is a `U64`, as in `serde_json`).
    I64(i64),
    F64(f64),
    Str(&'t str),
    /// `len` elements, the last item of the array's contents before `end`.
    Array {
        len: u32,
        end: u32,
    },
    /// `len` members, each a `Str` key followed by its value, before `end`.
    Object {
        len: u32,
        end: u32,
    },
}

/// One value of the table as kept, in document order (a container is followed by its
/// contents): 8 bytes an item (issue 19: a file of short strings is mostly items; at 16 bytes
/// a zone of 1.5 million hexes written `"x",` made a table four times the file). What does
/// not fit in 8 bytes is kept beside, by index: numbers (few in a big document: its lists are
/// of names), containers' sizes, texts of 64 KiB or more.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Null,
    Bool(bool),
    /// A number: its index in [`Table::numbers`].
    Number(u32),
    /// Text of at most [`INLINE`] bytes (a hex name, a code, a side), held in the item: its
    /// length and bytes.
    Inline(u8, [u8; INLINE]),
    /// Longer text, shorter than 64 KiB: its start in [`Table::text`] and its length.
    Text(u32, u16),
    /// Longer text: its index in [`Table::long`] (start, end).
    Long(u32),
    /// An array: its index in [`Table::containers`] (len, end).
    Array(u32),
    /// An object: its index in [`Table::containers`] (len, end).
    Object(u32),
}

const _: () = assert!(std::mem::size_of::<Slot>() == 8);

/// The longest text an item holds itself (a six-digit hex name: no copy of a zone's hexes).
const INLINE: usize = 6;

/// A position as the table keeps it; past `u32` the table is marked too big.
fn position(n: usize, too_big: &mut bool) -> u32 {
    u32::try_from(n).unwrap_or_else(|_| {
        *too_big = true;
        0
    })
}

/// A document as a flat table, reused from one document to the next (cleared, not freed).
#[derive(Debug, Default)]
pub struct Table {
    items: Vec<Slot>,
    text: String,
    /// The numbers, by [`Slot::Number`].
    numbers: Vec<Num>,
    /// Each container's (len, end), by [`Slot::Array`] and [`Slot::Object`].
    containers: Vec<(u32, u32)>,
    /// Each text of 64 KiB or more's (start, end), by [`Slot::Long`].
    long: Vec<(u32, u32)>,
    /// Containers being written: (item, members so far, the variant object around it).
    open: Vec<(usize, usize, Option<usize>)>,
    /// A position went past `u32`: the table is not used.
    too_big: bool,
    /// The struct fields left out as the table is filled (see [`Table::fill_without`]).
    skip: &'static [Skip],
    /// The document's field being filled (a field of the root).
    top: &'static str,
}

/// A struct field [`Table::fill_without`] leaves out: a big part of a document that is checked
/// apart, one piece at a time (a scenario's units, a zone's hexes, a map's overlays).
#[derive(Debug)]
pub struct Skip {
    /// The field's name.
    pub field: &'static str,
    /// How many containers are open around it (a scenario's armies' `units`: 3).
    pub depth: usize,
    /// The document's field it lies in (`zones`), or its own name at depth 1.
    pub top: &'static str,
    /// Whether it is written as an empty list (a field the schema requires), else left out.
    pub empty: bool,
}

impl Table {
    /// Serializes a value into the table (what it held before is dropped); `false` when the
    /// value holds something the table does not take (the caller then uses `serde_json`).
    pub fn fill<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.skip = &[];
        self.filled(value)
    }

    /// [`Table::fill`] leaving out the struct fields of `skip` (as if each were absent, or an
    /// empty list), with no copy of the rest of the value.
    pub fn fill_without<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
        skip: &'static [Skip],
    ) -> bool {
        self.skip = skip;
        let filled = self.filled(value);
        self.skip = &[];
        filled
    }

    fn filled<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.clear();
        value.serialize(&mut *self).is_ok()
            && self.open.is_empty()
            && !self.items.is_empty()
            && !self.too_big
    }

    /// The field of [`Table::skip`] that a struct field is here, if any (`field` is being
    /// filled: the document's field it lies in is noted).
    fn skips(&mut self, field: &'static str) -> Option<&'static Skip> {
        let depth = self.open.len();
        if depth == 1 {
            self.top = field;
        }
        self.skip
            .iter()
            .find(|s| s.field == field && s.depth == depth && s.top == self.top)
    }

    /// The document's root.
    pub fn root(&self) -> At<'_> {
        At {
            table: self,
            index: 0,
        }
    }

    /// Empties the table, keeping its allocations.
    fn clear(&mut self) {
        self.items.clear();
        self.text.clear();
        self.numbers.clear();
        self.containers.clear();
        self.long.clear();
        self.open.clear();
        self.too_big = false;
        self.top = "";
    }

    fn push_str(&mut self, text: &str) {
        if let Ok(len) = u8::try_from(text.len())
            && usize::from(len) <= INLINE
        {
            let mut inline = [0; INLINE];
            inline[..text.len()].copy_from_slice(text.as_bytes());
            self.items.push(Slot::Inline(len, inline));
            return;
        }
        let start = position(self.text.len(), &mut self.too_big);
        self.text.push_str(text);
        let end = position(self.text.len(), &mut self.too_big);
        let slot = match u16::try_from(text.len()) {
            Ok(len) => Slot::Text(start, len),
            Err(_) => {
                let at = position(self.long.len(), &mut self.too_big);
                self.long.push((start, end));
                Slot::Long(at)
            }
        };
        self.items.push(slot);
    }

    /// The slot that keeps `item` (not a text: see [`Table::push_str`]), what does not fit in
    /// it pushed beside.
    fn slot(&mut self, item: Item<'_>) -> Slot {
        let mut index = |n: usize| position(n, &mut self.too_big);
        match item {
            Item::Null => Slot::Null,
            Item::Bool(b) => Slot::Bool(b),
            Item::U64(_) | Item::I64(_) | Item::F64(_) => {
                let at = index(self.numbers.len());
                self.numbers.push(match item {
                    Item::U64(u) => Num::U(u),
                    Item::I64(i) => Num::I(i),
                    Item::F64(f) => Num::F(f),
                    _ => Num::U(0),
                });
                Slot::Number(at)
            }
            Item::Str(_) => Slot::Null,
            Item::Array { len, end } | Item::Object { len, end } => {
                let at = index(self.containers.len());
                self.containers.push((len, end));
                if matches!(item, Item::Array { .. }) {
                    Slot::Array(at)
                } else {
                    Slot::Object(at)
                }
            }
        }
    }

    /// Pushes an item at the end.
    fn push(&mut self, item: Item<'_>) {
        if let Item::Str(text) = item {
            return self.push_str(text);
        }
        let slot = self.slot(item);
        self.items.push(slot);
    }

    /// Sets the container at `at` (pushed as a placeholder when it was opened) to its size.
    fn set(&mut self, at: usize, item: Item<'_>) {
        let (Item::Array { len, end } | Item::Object { len, end }) = item else {
            return;
        };
        if let Some(Slot::Array(c) | Slot::Object(c)) = self.items.get(at).copied()
            && let Some(size) = self.containers.get_mut(c as usize)
        {
            *size = (len, end);
        }
    }

    fn count(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.1 += 1;
        }
    }

    /// Opens a container (`object`: an object, else an array), inside a one-member object
    /// named `variant` when given (serde's externally tagged enum variants).
    fn open(&mut self, object: bool, variant: Option<&str>) {
        let outer = variant.map(|name| {
            let at = self.items.len();
            self.push(Item::Object { len: 1, end: 0 });
            self.push_str(name);
            at
        });
        let at = self.items.len();
        self.push(if object {
            Item::Object { len: 0, end: 0 }
        } else {
            Item::Array { len: 0, end: 0 }
        });
        self.open.push((at, 0, outer));
    }

    fn close(&mut self) -> Result<(), Unsupported> {
        let (at, len, outer) = self.open.pop().ok_or(Unsupported)?;
        let end = position(self.items.len(), &mut self.too_big);
        let len = position(len, &mut self.too_big);
        // Array or object alike: `set` keeps the slot's kind and writes its size.
        self.set(at, Item::Array { len, end });
        if let Some(outer) = outer {
            self.set(outer, Item::Object { len: 1, end });
        }
        Ok(())
    }

    fn item(&self, index: usize) -> Item<'_> {
        let size = |c: u32| self.containers.get(c as usize).copied().unwrap_or((0, 0));
        let Some(slot) = self.items.get(index) else {
            return Item::Null;
        };
        match *slot {
            Slot::Null => Item::Null,
            Slot::Bool(b) => Item::Bool(b),
            Slot::Number(n) => match self.numbers.get(n as usize) {
                Some(Num::U(u)) => Item::U64(*u),
                Some(Num::I(i)) => Item::I64(*i),
                Some(Num::F(f)) => Item::F64(*f),
                None => Item::Null,
            },
            Slot::Inline(len, ref bytes) => Item::Str(
                bytes
                    .get(..usize::from(len))
                    .and_then(|b| std::str::from_utf8(b).ok())
                    .unwrap_or(""),
            ),
            Slot::Text(start, len) => {
                Item::Str(self.str_at(start, start.saturating_add(u32::from(len))))
            }
            Slot::Long(l) => {
                let (start, end) = self.long.get(l as usize).copied().unwrap_or((0, 0));
                Item::Str(self.str_at(start, end))
            }
            Slot::Array(c) => {
                let (len, end) = size(c);
                Item::Array { len, end }
            }
            Slot::Object(c) => {
                let (len, end) = size(c);
                Item::Object { len, end }
            }
        }
    }

    /// The index after an item and its contents.
    fn after(&self, index: usize) -> usize {
        match self.item(index) {
            Item::Array { end, .. } | Item::Object { end, .. } => end as usize,
            _ => index + 1,
        }
    }

    fn str_at(&self, start: u32, end: u32) -> &str {
        self.text.get(start as usize..end as usize).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonschema::json::Node;

    fn check(schema: serde_json::Value, value: &serde_json::Value) -> (bool, bool) {
        let slow = jsonschema::options().build(&schema).unwrap();
        let fast = jsonschema::options_for::<Tabled>().build(&schema).unwrap();
        let mut table = Table::default();
        assert!(table.fill(value));
        (slow.is_valid(value), fast.is_valid(table.root()))
    }

    #[test]
    fn the_table_reads_as_serde_json_does() {
        let value = serde_json::json!({
            "name": "Régiment", "cp": 3, "fire": -2, "ratio": 1.5, "facing": "NE",
            "entry": ["0101", "0102"], "nested": {"a": [1, {"b": null}], "t": true}
        });
        let mut table = Table::default();
        assert!(table.fill(&value));
        assert_eq!(table.root().to_value().into_owned(), value);
    }

    /// What an item keeps beside it (numbers, containers' sizes, texts of 64 KiB or more)
    /// reads back as written, next to short texts on either side.
    #[test]
    fn items_kept_beside_read_back() {
        let long = "é".repeat(40_000);
        let value = serde_json::json!([
            "a", long, "b", u64::MAX, i64::MIN, -0.5, [[], {}], {"k": [long, 7, "z"]}, ""
        ]);
        let mut table = Table::default();
        assert!(table.fill(&value));
        assert_eq!(std::mem::size_of_val(&table.items[0]), 8);
        assert_eq!(table.long.len(), 2, "the two long texts are kept beside");
        assert_eq!(table.root().to_value().into_owned(), value);
        // Texts of up to six bytes (hex names) are held in their items: none is copied.
        let hexes = serde_json::json!(["100100", "x", "", "é", "0101", "k", {"k": "01.01"}]);
        assert!(table.fill(&hexes));
        assert!(table.text.is_empty());
        assert_eq!(table.root().to_value().into_owned(), hexes);
    }

    #[test]
    fn verdicts_agree_with_serde_json() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 5},
                "cp": {"type": "integer", "minimum": 0, "maximum": 9},
                "fire": {"type": "integer", "minimum": -3},
                "facing": {"enum": ["N", "NE"]},
                "entry": {"type": "array", "minItems": 1, "items": {"pattern": "^[0-9]{4}$"}}
            },
            "required": ["name"],
            "additionalProperties": false
        });
        for value in [
            serde_json::json!({"name": "ab", "cp": 3, "fire": -2, "facing": "NE", "entry": ["0101"]}),
            serde_json::json!({"name": "abcdef"}),
            serde_json::json!({"name": ""}),
            serde_json::json!({"name": "a", "cp": 10}),
            serde_json::json!({"name": "a", "cp": 1.5}),
            serde_json::json!({"name": "a", "fire": -4}),
            serde_json::json!({"name": "a", "facing": "S"}),
            serde_json::json!({"name": "a", "entry": []}),
            serde_json::json!({"name": "a", "entry": ["01x1"]}),
            serde_json::json!({"name": "a", "other": 1}),
            serde_json::json!({"cp": 1}),
        ] {
            let (slow, fast) = check(schema.clone(), &value);
            assert_eq!(slow, fast, "{value}");
        }
    }
}
