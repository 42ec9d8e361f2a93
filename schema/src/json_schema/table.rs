//! The JSON Schema pass's fast path: a document serialized by serde into one flat table (no
//! tree of `serde_json::Value`s, no string allocated per key or value) that jsonschema checks
//! through its representation traits (`jsonschema::json`). Converting each of 5,000 units to a
//! `Value` tree and dropping it was two thirds of the pass (issue 23).
//!
//! Only the verdict is taken from here: a document (or unit) this path does not pass is
//! converted to `serde_json::Value` again and checked the usual way, so every violation is
//! found and worded exactly as before. Anything this serializer does not take (an `f32`, a map
//! key that is not text or an integer, a 128-bit integer out of range) also goes the usual way.

use std::borrow::Cow;

use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema::types::JsonType;
use serde::Serialize;
use serde_json::{Number, Value};

mod write;
use write::Unsupported;

/// The representation: a [`Table`] read through [`At`].
pub struct Tabled;

/// One value of the table, in document order (a container is followed by its contents).
/// Positions are `u32` (16 bytes an item, not 24: a file of short strings is mostly items);
/// a table that would need more is not filled ([`Table::fill`] says `false`).
#[derive(Debug, Clone, Copy)]
enum Item {
    Null,
    Bool(bool),
    U64(u64),
    /// A negative integer (a positive one is a `U64`, as in `serde_json`).
    I64(i64),
    F64(f64),
    /// Text: its byte range in [`Table::text`].
    Str(u32, u32),
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

const _: () = assert!(std::mem::size_of::<Item>() == 16);

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
    items: Vec<Item>,
    text: String,
    /// Containers being written: (item, members so far, the variant object around it).
    open: Vec<(usize, usize, Option<usize>)>,
    /// A position went past `u32`: the table is not used.
    too_big: bool,
    /// A struct field left out as the table is filled (see [`Table::fill_without`]): its
    /// name, at this depth of open containers.
    skip: Option<(&'static str, usize)>,
}

impl Table {
    /// Serializes a value into the table (what it held before is dropped); `false` when the
    /// value holds something the table does not take (the caller then uses `serde_json`).
    pub fn fill<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.skip = None;
        self.filled(value)
    }

    /// [`Table::fill`] leaving out every struct field named `field` found `depth` containers
    /// down (a scenario's armies' `units`: 3), as if it were empty and skipped, with no copy
    /// of the rest of the value.
    pub fn fill_without<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
        field: &'static str,
        depth: usize,
    ) -> bool {
        self.skip = Some((field, depth));
        let filled = self.filled(value);
        self.skip = None;
        filled
    }

    fn filled<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.items.clear();
        self.text.clear();
        self.open.clear();
        self.too_big = false;
        value.serialize(&mut *self).is_ok()
            && self.open.is_empty()
            && !self.items.is_empty()
            && !self.too_big
    }

    /// Whether a struct field is left out here.
    fn skips(&self, field: &str) -> bool {
        self.skip
            .is_some_and(|(name, depth)| name == field && depth == self.open.len())
    }

    /// The document's root.
    pub fn root(&self) -> At<'_> {
        At {
            table: self,
            index: 0,
        }
    }

    fn push_str(&mut self, text: &str) {
        let start = position(self.text.len(), &mut self.too_big);
        self.text.push_str(text);
        let end = position(self.text.len(), &mut self.too_big);
        self.items.push(Item::Str(start, end));
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
            self.items.push(Item::Object { len: 1, end: 0 });
            self.push_str(name);
            at
        });
        let at = self.items.len();
        self.items.push(if object {
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
        if let Some(item) = self.items.get_mut(at) {
            *item = match item {
                Item::Object { .. } => Item::Object { len, end },
                _ => Item::Array { len, end },
            };
        }
        if let Some(outer) = outer
            && let Some(item) = self.items.get_mut(outer)
        {
            *item = Item::Object { len: 1, end };
        }
        Ok(())
    }

    fn item(&self, index: usize) -> Item {
        self.items.get(index).copied().unwrap_or(Item::Null)
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

/// A value of a [`Table`].
#[derive(Clone, Copy)]
pub struct At<'a> {
    table: &'a Table,
    index: usize,
}

/// An object of a [`Table`].
#[derive(Clone, Copy)]
pub struct ObjectAt<'a>(At<'a>);

/// An array of a [`Table`].
#[derive(Clone, Copy)]
pub struct ArrayAt<'a>(At<'a>);

/// A number of a [`Table`], read as `serde_json::Number` reads its own.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl Num {
    fn number(self) -> Number {
        match self {
            Num::U(u) => Number::from(u),
            Num::I(i) => Number::from(i),
            Num::F(f) => Number::from_f64(f).unwrap_or_else(|| Number::from(0u8)),
        }
    }
}

impl JsonNumber for Num {
    fn as_u64(&self) -> Option<u64> {
        match *self {
            Num::U(u) => Some(u),
            _ => None,
        }
    }
    fn as_i64(&self) -> Option<i64> {
        match *self {
            Num::U(u) => i64::try_from(u).ok(),
            Num::I(i) => Some(i),
            Num::F(_) => None,
        }
    }
    #[allow(
        clippy::cast_precision_loss,
        reason = "as serde_json::Number::as_f64 reads an integer"
    )]
    fn as_f64(&self) -> Option<f64> {
        Some(match *self {
            Num::U(u) => u as f64,
            Num::I(i) => i as f64,
            Num::F(f) => f,
        })
    }
    fn as_str(&self) -> Cow<'_, str> {
        Cow::Owned(self.number().to_string())
    }
    fn to_number(&self) -> Cow<'_, Number> {
        Cow::Owned(self.number())
    }
    fn is_written_as_integer(&self) -> bool {
        !matches!(self, Num::F(_))
    }
}

/// How many elements or members of a container a violation's instance keeps: each writes at
/// least one character and a comma, so the first 40 characters are those of the whole.
const SHOWN: usize = 41;

impl<'a> At<'a> {
    fn item(&self) -> Item {
        self.table.item(self.index)
    }

    /// How many items the value and its contents take in the table.
    pub(super) fn size(&self) -> usize {
        self.table.after(self.index) - self.index
    }

    /// The value as `serde_json` holds it, each container cut to its first `most` elements or
    /// members (members in key order, as `serde_json` keeps them).
    fn value(&self, most: usize) -> Value {
        match self.item() {
            Item::Null => Value::Null,
            Item::Bool(b) => Value::Bool(b),
            Item::U64(u) => Value::Number(Number::from(u)),
            Item::I64(i) => Value::Number(Number::from(i)),
            Item::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Item::Str(start, end) => Value::String(self.table.str_at(start, end).to_owned()),
            Item::Array { .. } => Value::Array(
                ArrayAt(*self)
                    .elements()
                    .take(most)
                    .map(|e| e.value(most))
                    .collect(),
            ),
            Item::Object { .. } => {
                let mut members: Vec<(&str, At<'_>)> = ObjectAt(*self).members().collect();
                if members.len() > most {
                    members.select_nth_unstable_by(most, |a, b| a.0.cmp(b.0));
                    members.truncate(most);
                }
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v.value(most)))
                        .collect(),
                )
            }
        }
    }

    fn at(&self, index: usize) -> At<'a> {
        At {
            table: self.table,
            index,
        }
    }
}

impl<'a> Node<'a, Tabled> for At<'a> {
    type Object = ObjectAt<'a>;
    type Array = ArrayAt<'a>;
    type Number = Num;

    fn as_object(&self) -> Option<ObjectAt<'a>> {
        matches!(self.item(), Item::Object { .. }).then_some(ObjectAt(*self))
    }

    fn as_array(&self) -> Option<ArrayAt<'a>> {
        matches!(self.item(), Item::Array { .. }).then_some(ArrayAt(*self))
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.item() {
            Item::Str(start, end) => Some(Cow::Borrowed(self.table.str_at(start, end))),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<Num> {
        match self.item() {
            Item::U64(u) => Some(Num::U(u)),
            Item::I64(i) => Some(Num::I(i)),
            Item::F64(f) => Some(Num::F(f)),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.item() {
            Item::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.item(), Item::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.item() {
            Item::Null => JsonType::Null,
            Item::Bool(_) => JsonType::Boolean,
            Item::U64(_) | Item::I64(_) | Item::F64(_) => JsonType::Number,
            Item::Str(..) => JsonType::String,
            Item::Array { .. } => JsonType::Array,
            Item::Object { .. } => JsonType::Object,
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        // Text, booleans and null directly (enum and const keywords compare every facing and
        // symbol this way); numbers and containers as `serde_json` values.
        match (self.item(), expected) {
            (Item::Str(start, end), Value::String(text)) => self.table.str_at(start, end) == text,
            (Item::Str(..), _) => false,
            (Item::Bool(b), Value::Bool(e)) => b == *e,
            (Item::Null, Value::Null) => true,
            (Item::Bool(_) | Item::Null, _) => false,
            _ => jsonschema::json::cmp::equal(&self.value(usize::MAX), expected),
        }
    }

    /// The instance a violation shows, which its message quotes at most 40 characters of
    /// (`short`): a big container is cut to its first [`SHOWN`] elements or members (those
    /// the whole one would write first), each cut the same way, so the message is the same
    /// and a list of a million hexes is not copied for one `uniqueItems` refusal. Every
    /// other use compares in the table ([`At::equals_value`], [`ArrayAt::is_unique`]).
    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.value(SHOWN))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        // Each item's own address: distinct for every value alive in one check.
        self.table
            .items
            .get(self.index)
            .map(|item| NodeIdentity::new(std::ptr::from_ref(item) as usize))
    }
}

/// The members of an object, in the order written.
pub struct Members<'a> {
    at: At<'a>,
    next: usize,
    left: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, At<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let table = self.at.table;
        let name = match table.item(self.next) {
            Item::Str(start, end) => table.str_at(start, end),
            _ => "",
        };
        let value = self.at.at(self.next + 1);
        self.next = table.after(self.next + 1);
        Some((name, value))
    }
}

/// The elements of an array.
pub struct Elements<'a> {
    at: At<'a>,
    next: usize,
    left: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = At<'a>;

    fn next(&mut self) -> Option<At<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let element = self.at.at(self.next);
        self.next = self.at.table.after(self.next);
        Some(element)
    }
}

fn length(at: &At<'_>) -> usize {
    match at.item() {
        Item::Array { len, .. } | Item::Object { len, .. } => len as usize,
        _ => 0,
    }
}

impl<'a> Object<'a, Tabled> for ObjectAt<'a> {
    type Node = At<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        length(&self.0)
    }

    fn get(&self, key: &String) -> Option<At<'a>> {
        self.members()
            .find(|(name, _)| *name == key.as_str())
            .map(|(_, value)| value)
    }

    fn members(&self) -> Members<'a> {
        Members {
            at: self.0,
            next: self.0.index + 1,
            left: length(&self.0),
        }
    }
}

impl<'a> Array<'a, Tabled> for ArrayAt<'a> {
    type Node = At<'a>;
    type ElementsIter = Elements<'a>;

    fn len(&self) -> usize {
        length(&self.0)
    }

    fn elements(&self) -> Elements<'a> {
        Elements {
            at: self.0,
            next: self.0.index + 1,
            left: length(&self.0),
        }
    }

    /// Texts (hex names, ids: what sets hold) compared in the table, their items sorted by
    /// text, 4 bytes an element; anything else as `serde_json` values. The default made a
    /// `Value` of every element (a set of a million hexes: over 60 MB).
    fn is_unique(&self) -> bool {
        let table = self.0.table;
        let text = |index: &u32| match table.item(*index as usize) {
            Item::Str(start, end) => Some(table.str_at(start, end)),
            _ => None,
        };
        let mut texts = Vec::with_capacity(self.len());
        for element in self.elements() {
            match (u32::try_from(element.index), element.item()) {
                (Ok(index), Item::Str(..)) => texts.push(index),
                _ => {
                    let values: Vec<Value> = self.elements().map(|e| e.value(usize::MAX)).collect();
                    return jsonschema::json::unique::is_unique(&values);
                }
            }
        }
        texts.sort_unstable_by(|a, b| text(a).cmp(&text(b)));
        texts
            .windows(2)
            .all(|pair| text(&pair[0]) != text(&pair[1]))
    }
}

impl Json for Tabled {
    type Node<'a> = At<'a>;
    type PreparedKey = String;
    type StringBuffer = Table;

    // A lookup scans the members: a pass over them pays off from a couple of lookups.
    const KEYS_PER_LOOKUP: usize = 2;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(buffer: &mut Table, string: &str, f: impl FnOnce(At<'_>) -> T) -> T {
        buffer.items.clear();
        buffer.text.clear();
        buffer.open.clear();
        buffer.push_str(string);
        f(buffer.root())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
