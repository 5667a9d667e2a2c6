//! A compact binary form of serde values, for passing results between the web app's worker and
//! its page (both built from the same code, so both sides know every type).
//!
//! Why not JSON: each type read from JSON compiles a field-name matcher and both a map and a
//! sequence reader over serde_json's parser, and each type written compiles serde_json's
//! formatter. This form reads and writes fields by position only (no names, whitespace or
//! number text): the app's wasm was 9.5 KB (gzipped) smaller with the worker's results sent
//! this way. It also keeps every `f64` exactly (JSON has no NaN or infinities).
//!
//! The encoding, for the serde data model:
//! - `bool`, `u8`: one byte; other integers: LEB128 varints (signed ones zigzag-encoded);
//!   `f32`/`f64`: the 8 little-endian bytes of the `f64`; `char`: its code as a varint.
//! - strings and bytes: a varint length, then the bytes (UTF-8 is checked on reading).
//! - `Option`: a byte 0 (none) or 1 followed by the value; unit and unit structs: nothing.
//! - sequences and maps: a varint count, then the elements (keys and values in turn).
//! - tuples, tuple structs and structs: their fields in order, without names; newtypes: the
//!   inner value.
//! - enum variants: the variant's index (a varint), then its content as above.
//!
//! A struct field left out by `#[serde(skip_serializing_if = ...)]` is written as one zero
//! byte, which reads back as the empty value of the field's type: `None`, an empty string,
//! sequence or map, `0` or `false`. So such a predicate must hold only for that empty value
//! (`Option::is_none`, `Vec::is_empty`, `String::is_empty`, ...), which is how every type sent
//! this way uses it (the tests round-trip them on real files).
//!
//! Not supported (an error, never a wrong value): self-describing reads (`deserialize_any`,
//! so `#[serde(untagged)]`, internally tagged enums and `flatten`), and sequences of unknown
//! length. Use JSON for such types.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::fmt;

/// A value that could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

#[cold]
#[inline(never)]
fn unsupported(what: &str) -> Error {
    Error(format!(
        "the binary form cannot hold {what}: send this type as JSON"
    ))
}

/// Writes `value` in the binary form.
///
/// # Errors
/// For a sequence or map of unknown length, or a value's own serialization error.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Writer(Vec::new());
    value.serialize(&mut out)?;
    Ok(out.0)
}

/// Reads a `T` written by [`to_bytes`].
///
/// # Errors
/// When the bytes end early, hold a value `T` does not allow (a bad variant, invalid UTF-8, a
/// missing field without a default), or are followed by more bytes.
pub fn from_bytes<T: de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let mut reader = Reader { bytes, pos: 0 };
    let value = T::deserialize(&mut reader)?;
    if reader.pos != bytes.len() {
        return Err(Error(format!(
            "{} bytes left over after the value (at byte {})",
            bytes.len() - reader.pos,
            reader.pos
        )));
    }
    Ok(value)
}

// ---------------------------------------------------------------------------------------------
// Writing

struct Writer(Vec<u8>);

impl Writer {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn len(&mut self, len: Option<usize>) -> Result<(), Error> {
        let n = len.ok_or_else(|| unsupported("a sequence of unknown length"))?;
        self.varint(n as u64);
        Ok(())
    }

    fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
    }
}

impl ser::Serializer for &mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.0.push(u8::from(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.signed(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.0.push(v);
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.varint(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.0.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.varint(u64::from(u32::from(v)));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.0.push(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.0.push(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), Error> {
        self.varint(index.into());
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.varint(index.into());
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.varint(index.into());
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Error> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.varint(index.into());
        Ok(self)
    }
}

/// The compound serializers whose parts are written one after the other with nothing around
/// them (the count, if any, was written when they started).
macro_rules! in_order {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Writer {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}

in_order!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

/// Struct fields in order, without names; a field left out is one zero byte, the empty value
/// of its type (see the module docs).
macro_rules! fields_in_order {
    ($($trait:ident),*) => {$(
        impl ser::$trait for &mut Writer {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                value.serialize(&mut **self)
            }
            fn skip_field(&mut self, _: &'static str) -> Result<(), Error> {
                self.0.push(0);
                Ok(())
            }
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}

fields_in_order!(SerializeStruct, SerializeStructVariant);

// ---------------------------------------------------------------------------------------------
// Reading

struct Reader<'de> {
    bytes: &'de [u8],
    pos: usize,
}

impl<'de> Reader<'de> {
    #[inline(never)]
    fn eof(&self) -> Error {
        Error(format!("the value ends early (at byte {})", self.pos))
    }

    #[inline(never)]
    fn byte(&mut self) -> Result<u8, Error> {
        let b = *self.bytes.get(self.pos).ok_or_else(|| self.eof())?;
        self.pos += 1;
        Ok(b)
    }

    #[inline(never)]
    fn take(&mut self, n: usize) -> Result<&'de [u8], Error> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| self.eof())?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    #[inline(never)]
    fn varint(&mut self) -> Result<u64, Error> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Error(format!(
            "an integer is too long (at byte {})",
            self.pos
        )))
    }

    #[inline(never)]
    fn signed(&mut self) -> Result<i64, Error> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    #[inline(never)]
    fn len(&mut self) -> Result<usize, Error> {
        let n = self.varint()?;
        // Every element takes at least one byte, except units: a count beyond the bytes left is
        // refused before anything is allocated for it.
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len() - self.pos)
            .ok_or_else(|| {
                Error(format!(
                    "a length of {n} is longer than the value (at byte {})",
                    self.pos
                ))
            })
    }

    #[inline(never)]
    fn str(&mut self) -> Result<&'de str, Error> {
        let n = self.len()?;
        let at = self.pos;
        std::str::from_utf8(self.take(n)?)
            .map_err(|_| Error(format!("a string is not UTF-8 (at byte {at})")))
    }

    #[inline(never)]
    fn f64(&mut self) -> Result<f64, Error> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(f64::from_le_bytes(a))
    }

    #[inline(never)]
    fn bool(&mut self) -> Result<bool, Error> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(Error(format!(
                "expected 0 or 1, found {b} (at byte {})",
                self.pos - 1
            ))),
        }
    }
}

#[inline(never)]
fn narrow<T: TryFrom<i64>>(v: i64) -> Result<T, Error> {
    T::try_from(v).map_err(|_| Error(format!("{v} is out of range")))
}

#[inline(never)]
fn narrow_u<T: TryFrom<u64>>(v: u64) -> Result<T, Error> {
    T::try_from(v).map_err(|_| Error(format!("{v} is out of range")))
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(unsupported("a value of unknown type"))
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_bool(self.bool()?)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i8(narrow(self.signed()?)?)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i16(narrow(self.signed()?)?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i32(narrow(self.signed()?)?)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i64(self.signed()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u8(self.byte()?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u16(narrow_u(self.varint()?)?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u32(narrow_u(self.varint()?)?)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u64(self.varint()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_f64(v)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_f64(self.f64()?)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let n = self.varint()?;
        let c = u32::try_from(n).ok().and_then(char::from_u32);
        v.visit_char(c.ok_or_else(|| Error(format!("{n} is not a character")))?)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.str()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.str()?)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let n = self.len()?;
        v.visit_borrowed_bytes(self.take(n)?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.bool()? {
            v.visit_some(self)
        } else {
            v.visit_none()
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let left = self.len()?;
        v.visit_seq(Items { r: self, left })
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let left = self.len()?;
        v.visit_map(Items { r: self, left })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_seq(Items {
            r: self,
            left: fields.len(),
        })
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_enum(self)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u64(self.varint()?)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(unsupported("a value to skip"))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a sequence, tuple or map.
struct Items<'a, 'de> {
    r: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.r)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::EnumAccess<'de> for &mut Reader<'de> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let index = self.varint()?;
        let value = seed.deserialize(index.into_deserializer())?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_seq(Items {
            r: self,
            left: fields.len(),
        })
    }
}

#[doc(hidden)]
pub fn to_str<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    to_bytes(value).map(|b| String::from_utf8_lossy(&b).into_owned())
}
