//! The canonical writer: a top-level struct written `Name(` with each field pretty-printed at
//! its own depth (so each part of a file gets the line structure that keeps its diffs small),
//! without the escapes RON does not need.

use std::fmt::Write as _;

use serde::Serialize;
use serde::ser::{Impossible, SerializeStruct};

use crate::limits::ron_options;

pub(crate) fn pretty(depth: usize) -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .new_line("\n")
        .indentor("    ")
        .depth_limit(depth)
        .struct_names(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Writes a top-level struct as `Name(` with each field serialised at its own depth, so each
/// part of the file gets the line structure that makes its diffs small.
pub(crate) fn write_document<T: Serialize>(
    value: &T,
    depth_of: impl Fn(&str) -> usize,
) -> Result<String, ron::Error> {
    write_document_with(value, |field| pretty(depth_of(field)))
}

/// [`write_document`] with the whole pretty-printing configuration of each field (a depth and
/// whether lists stay on one line, say).
pub(crate) fn write_document_with<T: Serialize>(
    value: &T,
    config_of: impl Fn(&str) -> ron::ser::PrettyConfig,
) -> Result<String, ron::Error> {
    let mut capture = Capture {
        out: String::new(),
        config_of: &config_of,
    };
    value.serialize(&mut capture)?;
    // `Name(` was written when the struct began: no copy of the whole text here.
    let mut text = capture.out;
    text.push_str(")\n");
    Ok(without_needless_escapes(text))
}

/// ron escapes strings with `char::escape_debug`, which writes an apostrophe as `\'` although
/// a double-quoted string needs no escape for it (`"Braine-l\'Alleud"`). Escapes come in
/// pairs, so walking them pairwise finds every `\'` and nothing else; the text reads back to
/// the same value.
fn without_needless_escapes(text: String) -> String {
    if !text.contains("\\'") {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\'') => out.push('\''),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

struct Capture<'a> {
    out: String,
    config_of: &'a dyn Fn(&str) -> ron::ser::PrettyConfig,
}

fn unsupported() -> ron::Error {
    ron::Error::Message("only a struct can be written as a document".into())
}

impl<'c, 'a> serde::Serializer for &'c mut Capture<'a> {
    type Ok = ();
    type Error = ron::Error;
    type SerializeSeq = Impossible<(), ron::Error>;
    type SerializeTuple = Impossible<(), ron::Error>;
    type SerializeTupleStruct = Impossible<(), ron::Error>;
    type SerializeTupleVariant = Impossible<(), ron::Error>;
    type SerializeMap = Impossible<(), ron::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), ron::Error>;

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self, ron::Error> {
        let _ = writeln!(self.out, "{name}(");
        Ok(self)
    }

    fn serialize_bool(self, _: bool) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i8(self, _: i8) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i16(self, _: i16) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i32(self, _: i32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_i64(self, _: i64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u8(self, _: u8) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u16(self, _: u16) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u32(self, _: u32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_u64(self, _: u64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_f32(self, _: f32) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_f64(self, _: f64) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_char(self, _: char) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_str(self, _: &str) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_none(self) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit(self) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), ron::Error> {
        Err(unsupported())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, ron::Error> {
        Err(unsupported())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, ron::Error> {
        Err(unsupported())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, ron::Error> {
        Err(unsupported())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, ron::Error> {
        Err(unsupported())
    }
}

impl<'c, 'a> SerializeStruct for &'c mut Capture<'a> {
    type Ok = ();
    type Error = ron::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ron::Error> {
        let text = ron_options().to_string_pretty(value, (self.config_of)(key))?;
        let _ = write!(self.out, "    {key}: ");
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                if !line.is_empty() {
                    self.out.push_str("    ");
                }
            }
            self.out.push_str(line);
        }
        self.out.push_str(",\n");
        Ok(())
    }

    fn end(self) -> Result<(), ron::Error> {
        Ok(())
    }
}
