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
#[derive(Debug, Clone, Copy)]
enum Item {
    Null,
    Bool(bool),
    U64(u64),
    /// A negative integer (a positive one is a `U64`, as in `serde_json`).
    I64(i64),
    F64(f64),
    /// Text: its byte range in [`Table::text`].
    Str(usize, usize),
    /// `len` elements, the last item of the array's contents before `end`.
    Array {
        len: usize,
        end: usize,
    },
    /// `len` members, each a `Str` key followed by its value, before `end`.
    Object {
        len: usize,
        end: usize,
    },
}

/// A document as a flat table, reused from one document to the next (cleared, not freed).
#[derive(Debug, Default)]
pub struct Table {
    items: Vec<Item>,
    text: String,
    /// Containers being written: (item, members so far, the variant object around it).
    open: Vec<(usize, usize, Option<usize>)>,
}

impl Table {
    /// Serializes a value into the table (what it held before is dropped); `false` when the
    /// value holds something the table does not take (the caller then uses `serde_json`).
    pub fn fill<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.items.clear();
        self.text.clear();
        self.open.clear();
        value.serialize(&mut *self).is_ok() && self.open.is_empty() && !self.items.is_empty()
    }

    /// The document's root.
    pub fn root(&self) -> At<'_> {
        At {
            table: self,
            index: 0,
        }
    }

    fn push_str(&mut self, text: &str) {
        let start = self.text.len();
        self.text.push_str(text);
        self.items.push(Item::Str(start, self.text.len()));
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
        let end = self.items.len();
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
            Item::Array { end, .. } | Item::Object { end, .. } => end,
            _ => index + 1,
        }
    }

    fn str_at(&self, start: usize, end: usize) -> &str {
        self.text.get(start..end).unwrap_or("")
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

impl<'a> At<'a> {
    fn item(&self) -> Item {
        self.table.item(self.index)
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
            _ => jsonschema::json::cmp::equal(&self.to_value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(match self.item() {
            Item::Null => Value::Null,
            Item::Bool(b) => Value::Bool(b),
            Item::U64(u) => Value::Number(Number::from(u)),
            Item::I64(i) => Value::Number(Number::from(i)),
            Item::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Item::Str(start, end) => Value::String(self.table.str_at(start, end).to_owned()),
            Item::Array { .. } => Value::Array(
                ArrayAt(*self)
                    .elements()
                    .map(|e| e.to_value().into_owned())
                    .collect(),
            ),
            Item::Object { .. } => Value::Object(
                ObjectAt(*self)
                    .members()
                    .map(|(k, v)| (k.to_owned(), v.to_value().into_owned()))
                    .collect(),
            ),
        })
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
        Item::Array { len, .. } | Item::Object { len, .. } => len,
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
