//! Reading a [`Table`] as jsonschema reads a document (`jsonschema::json`): its values,
//! objects, arrays and numbers.

use std::borrow::Cow;

use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema::types::JsonType;
use serde_json::{Number, Value};

use super::{Item, Table, Tabled};
/// A value of a [`Table`].
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub(super) table: &'a Table,
    pub(super) index: usize,
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
    fn item(&self) -> Item<'a> {
        self.table.item(self.index)
    }

    /// How many items the value and its contents take in the table.
    pub(in crate::json_schema) fn size(&self) -> usize {
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
            Item::Str(text) => Value::String(text.to_owned()),
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
            Item::Str(text) => Some(Cow::Borrowed(text)),
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
            (Item::Str(found), Value::String(text)) => found == text,
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
            Item::Str(text) => text,
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
            Item::Str(text) => Some(text),
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
        buffer.clear();
        buffer.push_str(string);
        f(buffer.root())
    }
}
