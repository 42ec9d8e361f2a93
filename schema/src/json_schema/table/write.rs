//! Serde's serializer into a [`Table`]: each value pushed as one item, containers closed when
//! serde ends them (a struct, a map, a sequence, an enum variant as a one-member object, as
//! `serde_json` writes it).

use serde::Serialize;
use serde::ser;

use super::{Item, Table};

/// Something the table does not take: the caller converts with `serde_json` instead.
#[derive(Debug)]
pub struct Unsupported;

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not taken by the schema table")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

type Done = Result<(), Unsupported>;

impl<'t> ser::Serializer for &'t mut Table {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = &'t mut Table;
    type SerializeTuple = &'t mut Table;
    type SerializeTupleStruct = &'t mut Table;
    type SerializeTupleVariant = &'t mut Table;
    type SerializeMap = &'t mut Table;
    type SerializeStruct = &'t mut Table;
    type SerializeStructVariant = &'t mut Table;

    fn serialize_bool(self, v: bool) -> Done {
        self.push(Item::Bool(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Done {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Done {
        self.push(match u64::try_from(v) {
            Ok(u) => Item::U64(u),
            Err(_) => Item::I64(v),
        });
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Done {
        if let Ok(u) = u64::try_from(v) {
            self.serialize_u64(u)
        } else {
            self.serialize_i64(i64::try_from(v).map_err(|_| Unsupported)?)
        }
    }
    fn serialize_u8(self, v: u8) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Done {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Done {
        self.push(Item::U64(v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Done {
        self.serialize_u64(u64::try_from(v).map_err(|_| Unsupported)?)
    }
    fn serialize_f32(self, _: f32) -> Done {
        // serde_json widens an f32 in its own way: left to it.
        Err(Unsupported)
    }
    fn serialize_f64(self, v: f64) -> Done {
        // As `serde_json::Value::from(f64)`: no number for NaN or an infinity.
        self.push(if v.is_finite() {
            Item::F64(v)
        } else {
            Item::Null
        });
        Ok(())
    }
    fn serialize_char(self, v: char) -> Done {
        self.push_str(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Done {
        self.push_str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Done {
        self.open(false, None);
        for &byte in v {
            self.count();
            self.push(Item::U64(u64::from(byte)));
        }
        self.close()
    }
    fn serialize_none(self) -> Done {
        self.push(Item::Null);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        self.push(Item::Null);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Done {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Done {
        self.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Done {
        let at = self.items.len();
        self.push(Item::Object { len: 1, end: 0 });
        self.push_str(variant);
        value.serialize(&mut *self)?;
        let end = super::position(self.items.len(), &mut self.too_big);
        self.set(at, Item::Object { len: 1, end });
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Unsupported> {
        self.open(false, None);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Unsupported> {
        self.open(false, None);
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        self.open(false, None);
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        self.open(false, Some(variant));
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Unsupported> {
        self.open(true, None);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        self.open(true, None);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        self.open(true, Some(variant));
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        self.count();
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeTuple for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        self.count();
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeTupleStruct for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        self.count();
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeTupleVariant for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        self.count();
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeMap for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Done {
        self.count();
        key.serialize(Key(self))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeStruct for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        if let Some(skip) = self.skips(key) {
            if skip.empty {
                self.count();
                self.push_str(key);
                self.open(false, None);
                self.close()?;
            }
            return Ok(());
        }
        self.count();
        self.push_str(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

impl ser::SerializeStructVariant for &mut Table {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        self.count();
        self.push_str(key);
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.close()
    }
}

/// A map's key: text, or an integer written as text (as `serde_json` writes keys); anything
/// else is left to `serde_json`.
struct Key<'t>(&'t mut Table);

impl Key<'_> {
    fn text(self, text: &str) -> Done {
        self.0.push_str(text);
        Ok(())
    }
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Done {
        self.text(v)
    }
    fn serialize_char(self, v: char) -> Done {
        self.text(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Done {
        self.text(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_i8(self, v: i8) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Done {
        self.text(&v.to_string())
    }
    fn serialize_bool(self, _: bool) -> Done {
        Err(Unsupported)
    }
    fn serialize_f32(self, _: f32) -> Done {
        Err(Unsupported)
    }
    fn serialize_f64(self, _: f64) -> Done {
        Err(Unsupported)
    }
    fn serialize_bytes(self, _: &[u8]) -> Done {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Done {
        Err(Unsupported)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Done {
        Err(Unsupported)
    }
    fn serialize_unit(self) -> Done {
        Err(Unsupported)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Done {
        Err(Unsupported)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Done {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(Unsupported)
    }
}
