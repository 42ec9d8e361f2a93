//! Finding a document's violations in its table, a part at a time (issue 19). jsonschema
//! gathers every error of a check before handing back the first, each with its own paths and
//! a copy of the value: a zone of half a million hexes that break the pattern was about 1 GB
//! of errors for a 6 MB file. Here a value that takes more than [`SMALL`] items of the table
//! is checked without its contents against its own schema (its `shell`: type, required fields,
//! unknown fields, number of items, `uniqueItems`), then each member or element is checked the
//! same way against the schema that applies to it; a small value is checked whole. The
//! violations are the same as checking the whole document at once: the same pointers, the
//! same words (`tests::split_finds_what_the_whole_check_finds`).
//!
//! A schema this walk does not take apart (`anyOf`, `oneOf`, a tuple, `$ref` beside other
//! keywords) is checked whole at its value; an optional value (`anyOf` of a schema and
//! `null`) that is not null is walked in the schema it has.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use jsonschema::Validator;
use jsonschema::json::{Array, Json, Node, Object};
use serde_json::Value;

use jsonschema::error::ValidationErrorKind;

use super::table::{At, Table, Tabled};
use super::wording::describe;
use super::{Each, SchemaViolation, errors_each, unexpected_key};
use crate::HexList;
use crate::io::DocumentKind;

/// The most items of the table a value may take to be checked whole: its errors are at most
/// about as many.
const SMALL: usize = 1024;

/// Keywords a walked schema may have: they apply to the value alone (its shell) or name the
/// schemas of its contents, which the walk applies itself.
const WALKED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "format",
];

/// Keywords that say nothing of a value.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "description",
    "title",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Checks `at` against the schema at `pointer` in `kind`'s schema (`""`: the document's),
/// each violation handed to `each` with `prefix` before its pointer.
pub(super) fn check(kind: DocumentKind, pointer: &str, at: At<'_>, prefix: &str, each: Each<'_>) {
    let Some(root) = root(kind) else {
        return each(SchemaViolation {
            pointer: String::new(),
            message: "internal error: the built-in schema did not compile".into(),
        });
    };
    let mut walk = Walk {
        kind,
        root,
        path: prefix.to_owned(),
        each,
        key: Table::default(),
    };
    walk.value(pointer.to_owned(), at);
}

/// Checks a list of hex names the document's table left out (a zone's hexes) as the walk
/// checks a list at `pointer` in `kind`'s schema (`prefix`: its instance pointer): whole when
/// it is small, in a table of its own; else its `uniqueItems` in the list itself, and each
/// hex alone, in `table`.
pub(super) fn check_hexes(
    (kind, pointer): (DocumentKind, &str),
    hexes: &HexList,
    prefix: &str,
    table: &mut Table,
    each: Each<'_>,
) {
    if hexes.len() < SMALL {
        if table.fill(hexes) {
            check(kind, pointer, table.root(), prefix, each);
        }
        return;
    }
    let Some(mut walk) = Walk::new(kind, prefix, each) else {
        return;
    };
    table.fill(&[0u8; 0]);
    let (pointer, schema) = walk.resolved(pointer.to_owned(), table.root());
    // The list's own schema without its items' (its shell) says `uniqueItems` and `type`,
    // which a list has (the tests compare with the whole check).
    if schema.get("uniqueItems") == Some(&Value::Bool(true)) && !hexes.is_unique() {
        let message = describe(&ValidationErrorKind::UniqueItems, &Value::Null);
        (walk.each)(SchemaViolation {
            pointer: walk.path.clone(),
            message,
        });
    }
    // Each hex is a text, which the walk checks whole against the items' schema: the schema
    // is found and compiled once, not once a hex.
    let (items, _) = Tabled::with_string_node(table, "", |node| {
        walk.resolved(format!("{pointer}/items"), node)
    });
    let Some(validator) = compiled(kind, walk.root, &items, Part::Whole) else {
        return Tabled::with_string_node(table, "", |node| walk.errors(&items, Part::Whole, node));
    };
    let depth = walk.path.len();
    for (index, text) in hexes.texts().enumerate() {
        Tabled::with_string_node(table, text, |node| {
            if !validator.is_valid(node) {
                walk.path.push('/');
                walk.path.push_str(&index.to_string());
                errors_each(validator, node, &walk.path, walk.each);
                walk.path.truncate(depth);
            }
        });
    }
}

/// Checks the entries of a map the document's table left out (a map's overlays) as the walk
/// checks an object's members at `pointer` in `kind`'s schema (`prefix`: its instance
/// pointer), each value alone in `table`. The object's own schema (its shell) must say
/// nothing of it but its keys (the overlays': a pattern).
pub(super) fn check_members<'v, V: serde::Serialize + 'v>(
    (kind, pointer): (DocumentKind, &str),
    members: impl Iterator<Item = (&'v str, &'v V)>,
    prefix: &str,
    table: &mut Table,
    each: Each<'_>,
) {
    let Some(mut walk) = Walk::new(kind, prefix, each) else {
        return;
    };
    table.fill(&std::collections::BTreeMap::<u8, u8>::new());
    let (pointer, schema) = walk.resolved(pointer.to_owned(), table.root());
    let refuses = schema.as_object().is_some_and(refuses_other_keys);
    let depth = walk.path.len();
    for (name, value) in members {
        if let Some(child) = walk.member_schema(&pointer, schema, name) {
            walk.path.push('/');
            walk.path.push_str(&escape(name));
            if table.fill(value) {
                walk.value(child, table.root());
            } else {
                (walk.each)(SchemaViolation {
                    pointer: walk.path.clone(),
                    message: "internal error: the value is not taken by the schema table".into(),
                });
            }
            walk.path.truncate(depth);
        } else if refuses && schema.get("properties").and_then(|p| p.get(name)).is_none() {
            (walk.each)(unexpected_key(&walk.path, name));
        }
    }
}

/// The schema of a kind, kept for the process.
fn root(kind: DocumentKind) -> Option<&'static Value> {
    static ROOTS: OnceLock<Mutex<HashMap<DocumentKind, &'static Value>>> = OnceLock::new();
    let mut roots = ROOTS.get_or_init(Mutex::default).lock().ok()?;
    Some(
        roots
            .entry(kind)
            .or_insert_with(|| Box::leak(Box::new(super::schema_value(kind)))),
    )
}

/// What a compiled validator checks at a schema's place.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    /// The schema as it is.
    Whole,
    /// The schema without the schemas of the contents.
    Shell,
    /// `{"pattern": …}` of a `patternProperties` key, to match member names.
    Pattern,
}

/// The validator of the schema at `pointer` (a part of it), compiled once for the process: a
/// schema has a few hundred places, and only those a refused document reaches are compiled.
fn compiled(
    kind: DocumentKind,
    root: &Value,
    pointer: &str,
    part: Part,
) -> Option<&'static Validator<Tabled>> {
    type Cache = HashMap<(DocumentKind, String, Part), Option<&'static Validator<Tabled>>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Mutex::default).lock().ok()?;
    *cache
        .entry((kind, pointer.to_owned(), part))
        .or_insert_with(|| {
            let schema = root.pointer(pointer)?;
            let schema = match part {
                Part::Whole => standalone(root, schema.clone()),
                Part::Shell => standalone(root, shell(schema)),
                Part::Pattern => serde_json::json!({ "pattern": schema_key(pointer) }),
            };
            let validator = jsonschema::options_for::<Tabled>()
                .should_validate_formats(true)
                .build(&schema)
                .ok()?;
            Some(&*Box::leak(Box::new(validator)))
        })
}

/// The last key of a pointer, unescaped.
fn schema_key(pointer: &str) -> String {
    let key = pointer.rsplit('/').next().unwrap_or("");
    key.replace("~1", "/").replace("~0", "~")
}

/// A schema taken out of the document's schema: the definitions it may refer to beside it.
fn standalone(root: &Value, schema: Value) -> Value {
    let Value::Object(mut schema) = schema else {
        return schema;
    };
    for key in ["$schema", "$defs"] {
        if let Some(value) = root.get(key) {
            schema.entry(key).or_insert_with(|| value.clone());
        }
    }
    Value::Object(schema)
}

/// A schema without the schemas of its contents (each `true`).
fn shell(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(object) = &mut schema {
        for key in ["properties", "patternProperties"] {
            if let Some(Value::Object(members)) = object.get_mut(key) {
                for value in members.values_mut() {
                    *value = Value::Bool(true);
                }
            }
        }
        for key in ["additionalProperties", "items"] {
            if let Some(value) = object.get_mut(key)
                && value.is_object()
            {
                *value = Value::Bool(true);
            }
        }
        // Keys matching no pattern are the walk's to name, one at a time (`refused_key`):
        // checked here they were one error naming every key (600,000 keys: 300 MB).
        if refuses_other_keys(object) {
            object.remove("additionalProperties");
        }
    }
    schema
}

/// A pointer's key, escaped (`~0`, `~1`).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

struct Walk<'e> {
    kind: DocumentKind,
    root: &'static Value,
    /// The instance pointer of the value being checked.
    path: String,
    each: &'e mut dyn FnMut(SchemaViolation),
    /// A table holding one member name, to match it with a pattern.
    key: Table,
}

impl<'e> Walk<'e> {
    /// A walk of `kind`'s schema, its violations handed to `each` with `prefix` before their
    /// pointers; `None` (and a violation saying so) when the schema did not compile.
    fn new(kind: DocumentKind, prefix: &str, each: Each<'e>) -> Option<Self> {
        let Some(root) = root(kind) else {
            each(SchemaViolation {
                pointer: String::new(),
                message: "internal error: the built-in schema did not compile".into(),
            });
            return None;
        };
        Some(Walk {
            kind,
            root,
            path: prefix.to_owned(),
            each,
            key: Table::default(),
        })
    }

    /// Checks a value against the schema at `pointer`.
    fn value(&mut self, pointer: String, at: At<'_>) {
        let (pointer, schema) = self.resolved(pointer, at);
        if at.size() <= SMALL || !walked(schema) {
            return self.errors(&pointer, Part::Whole, at);
        }
        self.errors(&pointer, Part::Shell, at);
        let depth = self.path.len();
        if let Some(object) = at.as_object() {
            let refuses = schema.as_object().is_some_and(refuses_other_keys);
            for (name, member) in object.members() {
                if let Some(child) = self.member_schema(&pointer, schema, name) {
                    self.path.push('/');
                    self.path.push_str(&escape(name));
                    self.value(child, member);
                    self.path.truncate(depth);
                } else if refuses && schema.get("properties").and_then(|p| p.get(name)).is_none() {
                    (self.each)(unexpected_key(&self.path, name));
                }
            }
        } else if let Some(array) = at.as_array()
            && schema.get("items").is_some_and(Value::is_object)
        {
            for (index, element) in array.elements().enumerate() {
                self.path.push('/');
                self.path.push_str(&index.to_string());
                self.value(format!("{pointer}/items"), element);
                self.path.truncate(depth);
            }
        }
    }

    /// The schema at `pointer` with `$ref`s followed, and an optional value's schema taken
    /// when the value is there.
    fn resolved(&self, mut pointer: String, at: At<'_>) -> (String, &'static Value) {
        for _ in 0..32 {
            let Some(schema) = self.root.pointer(&pointer) else {
                break;
            };
            let Some(object) = schema.as_object() else {
                return (pointer, schema);
            };
            let plain = |key: &str| {
                object
                    .keys()
                    .all(|k| k == key || ANNOTATIONS.contains(&k.as_str()))
            };
            if let Some(Value::String(target)) = object.get("$ref")
                && let Some(target) = target.strip_prefix('#')
                && plain("$ref")
            {
                pointer = target.to_owned();
                continue;
            }
            if let Some(Value::Array(branches)) = object.get("anyOf")
                && plain("anyOf")
                && branches.len() == 2
                && !at.is_null()
                && let Some(null) = branches.iter().position(|b| {
                    b.get("type") == Some(&Value::from("null"))
                        && b.as_object().is_some_and(|o| o.len() == 1)
                })
            {
                pointer = format!("{pointer}/anyOf/{}", 1 - null);
                continue;
            }
            return (pointer, schema);
        }
        (
            pointer.clone(),
            self.root.pointer(&pointer).unwrap_or(&Value::Bool(true)),
        )
    }

    /// The schema of a member: its property's, else that of the pattern its name matches,
    /// else `additionalProperties` when that is a schema (`false` is the shell's to refuse).
    fn member_schema(&mut self, pointer: &str, schema: &Value, name: &str) -> Option<String> {
        if schema.get("properties").and_then(|p| p.get(name)).is_some() {
            return Some(format!("{pointer}/properties/{}", escape(name)));
        }
        if let Some(Value::Object(patterns)) = schema.get("patternProperties") {
            for pattern in patterns.keys() {
                let at = format!("{pointer}/patternProperties/{}", escape(pattern));
                let matches = compiled(self.kind, self.root, &at, Part::Pattern).is_some_and(|v| {
                    Tabled::with_string_node(&mut self.key, name, |node| v.is_valid(node))
                });
                if matches {
                    return Some(at);
                }
            }
        }
        schema
            .get("additionalProperties")
            .filter(|s| s.is_object())
            .map(|_| format!("{pointer}/additionalProperties"))
    }

    /// The violations of a value against (a part of) the schema at `pointer`, each error's own
    /// sorted and without repeats.
    fn errors(&mut self, pointer: &str, part: Part, at: At<'_>) {
        let Some(validator) = compiled(self.kind, self.root, pointer, part) else {
            return (self.each)(SchemaViolation {
                pointer: self.path.clone(),
                message: "internal error: the built-in schema did not compile".into(),
            });
        };
        if validator.is_valid(at) {
            return;
        }
        errors_each(validator, at, &self.path, self.each);
    }
}

/// Whether an object schema refuses the keys its patterns do not match (a map keyed by hex
/// names or ids): the walk names each such key itself.
fn refuses_other_keys(object: &serde_json::Map<String, Value>) -> bool {
    object.contains_key("patternProperties")
        && object.get("additionalProperties") == Some(&Value::Bool(false))
}

/// Whether the walk takes a schema apart (else its value is checked whole).
fn walked(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    object
        .keys()
        .all(|k| WALKED.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()))
        && !(object.contains_key("properties") && object.contains_key("patternProperties"))
        && object.get("items").is_none_or(|items| !items.is_array())
}
