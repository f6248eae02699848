//! JSON Schemas of the spec files, derived from the loader's own serde types.
//!
//! Editors (through `# yaml-language-server: $schema=...`) complete and check
//! spec files against these schemas. They are not written by hand: a tracing
//! deserializer walks [`SpecFile`](crate::schema::SpecFile) and
//! [`AbiFile`](crate::abi::schema::AbiFile) the way the YAML loader does and
//! records every key serde asks for, so the schemas list exactly the keys the
//! loader accepts (renames, kebab-case and all) and cannot drift from it.
//!
//! Types with a hand-written `Deserialize` (an expression, a bit range, ...)
//! cannot be traced; each has an entry in `custom` saying what YAML it takes.
//! Tracing a type missing from that list is an error, so a new one cannot be
//! forgotten.

use std::cell::RefCell;
use std::fmt::{self, Write};

use indexmap::IndexMap;
use serde::de::value::{MapDeserializer, StrDeserializer, UnitDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value, as much as a schema needs; objects keep their key order so
/// the output is stable.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn obj(pairs: &[(&str, Json)]) -> Json {
        Json::Object(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    fn s(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    /// Two-space indented text with a final newline.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Json::Str(s) => write_str(out, s),
            Json::Array(items) if items.iter().all(|i| !matches!(i, Json::Array(_) | Json::Object(_))) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, depth);
                }
                out.push(']');
            }
            Json::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(depth + 1));
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(depth));
                out.push(']');
            }
            Json::Object(pairs) if pairs.is_empty() => out.push_str("{}"),
            Json::Object(pairs) => {
                out.push_str("{\n");
                for (i, (k, v)) in pairs.iter().enumerate() {
                    out.push_str(&pad(depth + 1));
                    write_str(out, k);
                    out.push_str(": ");
                    v.write(out, depth + 1);
                    out.push_str(if i + 1 < pairs.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(depth));
                out.push('}');
            }
        }
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The schema of ISA spec files (`isa-specs/<target>/*.yaml`).
pub fn isa() -> Result<Json, String> {
    schema::<crate::schema::SpecFile>(
        "isagen ISA spec",
        "One file of an instruction set description (docs/spec-language.md).",
    )
}

/// The schema of ABI spec files (`abi-specs/<target>/*.yaml`).
pub fn abi() -> Result<Json, String> {
    schema::<crate::abi::schema::AbiFile>(
        "isagen ABI spec",
        "One file of a shader ABI description (docs/abi-language.md).",
    )
}

/// What a traced value looks like.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Bool,
    Uint,
    Int,
    Float,
    Str,
    Opt(Box<Shape>),
    Seq(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    /// A struct, by its Rust type name (a key of [`Registry::defs`]).
    Struct(&'static str),
    /// A type with a hand-written `Deserialize`, by its short name.
    Custom(&'static str),
}

/// A type whose `Deserialize` is written by hand: what YAML it accepts, and a
/// value to hand it while tracing so that the walk can go on.
struct Custom {
    name: &'static str,
    schema: fn() -> Json,
    sample: Sample,
}

enum Sample {
    Str(&'static str),
    U64(u64),
}

const BIT_RANGE: &str = r"^\s*[0-9]+\s*(\.\.\s*[0-9]+\s*)?$";
const GEN_RANGE: &str = r"^\s*[0-9]*\s*(\.\.\s*[0-9]*\s*)?$";
const NUMBER_KEY: &str = r"^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)$";

/// Every hand-deserialized type the spec files use.
fn custom(short: &str) -> Option<&'static Custom> {
    const LIST: &[Custom] = &[
        Custom {
            name: "ExprText",
            schema: || {
                Json::obj(&[
                    ("type", Json::Array(vec![Json::s("string"), Json::s("integer"), Json::s("boolean")])),
                    ("description", Json::s("an expression over fields, params and `gen`")),
                ])
            },
            sample: Sample::Str("0"),
        },
        Custom {
            name: "BitKey",
            schema: || {
                Json::obj(&[
                    ("type", Json::Array(vec![Json::s("string"), Json::s("integer")])),
                    ("pattern", Json::s(BIT_RANGE)),
                    ("description", Json::s("a bit (`5`) or an inclusive range, low first (`0..7`)")),
                ])
            },
            sample: Sample::U64(0),
        },
        Custom {
            name: "GenRange",
            schema: || {
                Json::obj(&[
                    ("type", Json::Array(vec![Json::s("string"), Json::s("integer")])),
                    ("pattern", Json::s(GEN_RANGE)),
                    ("description", Json::s("a generation range: `600..699`, `600..`, `..599` or `700`")),
                ])
            },
            sample: Sample::U64(0),
        },
        Custom {
            name: "BitsSpec",
            schema: || {
                let one = Json::obj(&[
                    ("type", Json::Array(vec![Json::s("string"), Json::s("integer")])),
                    ("pattern", Json::s(BIT_RANGE)),
                ]);
                Json::obj(&[
                    ("anyOf", Json::Array(vec![one.clone(), Json::obj(&[("type", Json::s("array")), ("items", one)])])),
                    ("description", Json::s("a bit, a range, or a list of them, most significant part first")),
                ])
            },
            sample: Sample::U64(0),
        },
        Custom {
            name: "TableBase",
            schema: || string_or_map("a bitset, or a map from generation to bitset"),
            sample: Sample::Str("x"),
        },
        Custom {
            name: "DisplaySpec",
            schema: || string_or_map("a display template, or a map from syntax name to template"),
            sample: Sample::Str(""),
        },
        Custom {
            name: "OpcodeValue",
            schema: || {
                let map = Json::obj(&[
                    ("type", Json::s("object")),
                    (
                        "additionalProperties",
                        Json::obj(&[("type", Json::Array(vec![Json::s("integer"), Json::s("null")]))]),
                    ),
                ]);
                Json::obj(&[
                    ("anyOf", Json::Array(vec![Json::obj(&[("type", Json::s("integer"))]), map])),
                    ("description", Json::s("an opcode number, or one per generation (`~`: absent from then on)")),
                ])
            },
            sample: Sample::U64(0),
        },
        Custom {
            name: "GenValues",
            schema: || {
                let map = Json::obj(&[
                    ("type", Json::s("object")),
                    ("additionalProperties", Json::obj(&[("type", Json::s("integer"))])),
                ]);
                Json::obj(&[
                    ("anyOf", Json::Array(vec![Json::obj(&[("type", Json::s("integer"))]), map])),
                    ("description", Json::s("a number, or one per generation range (`{..699: 3, 700..: 2}`)")),
                ])
            },
            sample: Sample::U64(0),
        },
    ];
    LIST.iter().find(|c| c.name == short)
}

/// A string, or a map from names to strings.
fn string_or_map(description: &str) -> Json {
    let string = Json::obj(&[("type", Json::s("string"))]);
    let map = Json::obj(&[("type", Json::s("object")), ("additionalProperties", string.clone())]);
    Json::obj(&[("anyOf", Json::Array(vec![string, map])), ("description", Json::s(description))])
}

/// The last segment of a type's path, without generics: `a::b::C<D>` -> `C`.
fn short_name(ty: &str) -> &str {
    let base = ty.split('<').next().unwrap_or(ty);
    base.rsplit("::").next().unwrap_or(base)
}

/// `core::option::Option<T>` -> `T` (for tracing through `Option`, whose
/// `Deserialize` does not say what it holds).
fn option_inner(ty: &'static str) -> &'static str {
    ty.strip_prefix("core::option::Option<").and_then(|t| t.strip_suffix('>')).unwrap_or(ty)
}

/// A traced struct: its short name, and its keys with their shapes.
type Def = (&'static str, Vec<(&'static str, Shape)>);

#[derive(Default)]
struct Registry {
    /// Struct Rust type name -> its definition.
    defs: IndexMap<&'static str, Def>,
    in_progress: Vec<&'static str>,
    /// The shape of the value traced last (each `deserialize_*` sets it).
    last: Option<Shape>,
}

type Reg = RefCell<Registry>;

fn set_last(reg: &Reg, s: Shape) {
    reg.borrow_mut().last = Some(s);
}

fn take_last(reg: &Reg) -> Result<Shape, Error> {
    reg.borrow_mut().last.take().ok_or_else(|| Error("a value was read without a shape".into()))
}

/// Traces `T` and renders its JSON Schema.
fn schema<T: de::DeserializeOwned>(title: &str, description: &str) -> Result<Json, String> {
    let reg = Reg::default();
    T::deserialize(Tracer { reg: &reg, ty: std::any::type_name::<T>() }).map_err(|e| e.0)?;
    let reg = reg.into_inner();
    let root = std::any::type_name::<T>();
    let mut seen = std::collections::HashMap::new();
    for (ty, (name, _)) in &reg.defs {
        if let Some(other) = seen.insert(*name, *ty) {
            return Err(format!("two traced types are both named `{name}`: `{other}` and `{ty}`"));
        }
    }
    let def_name = |ty: &str| reg.defs.get(ty).map_or("?", |d| d.0);
    let mut defs = Vec::new();
    for (name, keys) in reg.defs.values() {
        let mut props = Vec::new();
        let mut required = Vec::new();
        for (k, shape) in keys {
            if !matches!(shape, Shape::Opt(_)) {
                required.push(Json::s(k));
            }
            props.push((k.to_string(), to_json(shape, &def_name)?));
        }
        let mut obj = vec![
            ("type".to_string(), Json::s("object")),
            ("additionalProperties".to_string(), Json::Bool(false)),
            ("properties".to_string(), Json::Object(props)),
        ];
        if !required.is_empty() {
            obj.push(("required".to_string(), Json::Array(required)));
        }
        defs.push((name.to_string(), Json::Object(obj)));
    }
    Ok(Json::Object(vec![
        ("$schema".into(), Json::s("http://json-schema.org/draft-07/schema#")),
        ("title".into(), Json::s(title)),
        ("description".into(), Json::s(description)),
        ("$ref".into(), Json::Str(format!("#/definitions/{}", def_name(root)))),
        ("definitions".into(), Json::Object(defs)),
    ]))
}

fn to_json(shape: &Shape, def_name: &dyn Fn(&str) -> &'static str) -> Result<Json, String> {
    Ok(match shape {
        Shape::Bool => Json::obj(&[("type", Json::s("boolean"))]),
        Shape::Uint => Json::obj(&[("type", Json::s("integer")), ("minimum", Json::Int(0))]),
        Shape::Int => Json::obj(&[("type", Json::s("integer"))]),
        Shape::Float => Json::obj(&[("type", Json::s("number"))]),
        Shape::Str => Json::obj(&[("type", Json::s("string"))]),
        Shape::Opt(s) => to_json(s, def_name)?,
        Shape::Seq(s) => Json::obj(&[("type", Json::s("array")), ("items", to_json(s, def_name)?)]),
        Shape::Map(k, v) => {
            let mut obj = vec![
                ("type".to_string(), Json::s("object")),
                ("additionalProperties".to_string(), to_json(v, def_name)?),
            ];
            let key_pattern = match k.as_ref() {
                Shape::Str => None,
                Shape::Uint | Shape::Int => Some(NUMBER_KEY),
                Shape::Custom("BitKey") => Some(BIT_RANGE),
                Shape::Custom("GenRange") => Some(GEN_RANGE),
                other => return Err(format!("no JSON form for map keys of shape {other:?}")),
            };
            if let Some(p) = key_pattern {
                obj.push(("propertyNames".to_string(), Json::obj(&[("pattern", Json::s(p))])));
            }
            Json::Object(obj)
        }
        Shape::Struct(ty) => Json::Object(vec![("$ref".into(), Json::Str(format!("#/definitions/{}", def_name(ty))))]),
        Shape::Custom(name) => (custom(name).ok_or_else(|| format!("unknown custom type {name}"))?.schema)(),
    })
}

#[derive(Debug)]
struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// A deserializer that answers every request with a placeholder value and
/// records what was requested.
#[derive(Clone, Copy)]
struct Tracer<'r> {
    reg: &'r Reg,
    /// The Rust type being deserialized (from the seed that asked for it).
    ty: &'static str,
}

/// The name serde-saphyr's `Spanned<T>` asks for, and the key that marks its
/// located form; a test below fails if the library changes them.
const SPANNED_NEWTYPE: &str = "__yaml_spanned";
const SPANNED_MARKER: &str = "__serde_saphyr_private_spanned";

macro_rules! scalar {
    ($($method:ident => $shape:expr, $visit:ident($val:expr);)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            let out = v.$visit($val)?;
            set_last(self.reg, $shape);
            Ok(out)
        }
    )*};
}

impl<'de> Deserializer<'de> for Tracer<'_> {
    type Error = Error;

    scalar! {
        deserialize_bool => Shape::Bool, visit_bool(false);
        deserialize_u8 => Shape::Uint, visit_u8(0);
        deserialize_u16 => Shape::Uint, visit_u16(0);
        deserialize_u32 => Shape::Uint, visit_u32(0);
        deserialize_u64 => Shape::Uint, visit_u64(0);
        deserialize_i8 => Shape::Int, visit_i8(0);
        deserialize_i16 => Shape::Int, visit_i16(0);
        deserialize_i32 => Shape::Int, visit_i32(0);
        deserialize_i64 => Shape::Int, visit_i64(0);
        deserialize_f32 => Shape::Float, visit_f32(0.0);
        deserialize_f64 => Shape::Float, visit_f64(0.0);
        deserialize_char => Shape::Str, visit_char('x');
        deserialize_str => Shape::Str, visit_str("");
        deserialize_string => Shape::Str, visit_str("");
        deserialize_identifier => Shape::Str, visit_str("");
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let out = v.visit_unit()?;
        set_last(self.reg, Shape::Str);
        Ok(out)
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let short = short_name(self.ty);
        let Some(c) = custom(short) else {
            return Err(Error(format!(
                "`{}` deserializes itself by hand; describe it in json_schema::custom",
                self.ty
            )));
        };
        let out = match c.sample {
            Sample::Str(s) => v.visit_str(s)?,
            Sample::U64(n) => v.visit_u64(n)?,
        };
        set_last(self.reg, Shape::Custom(c.name));
        Ok(out)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let out = v.visit_some(Tracer { reg: self.reg, ty: option_inner(self.ty) })?;
        let inner = take_last(self.reg)?;
        set_last(self.reg, Shape::Opt(Box::new(inner)));
        Ok(out)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> Result<V::Value, Error> {
        if name == SPANNED_NEWTYPE {
            // Transparent: the shape is the wrapped value's.
            return v.visit_newtype_struct(SpannedDe { reg: self.reg });
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let slot = RefCell::new(None);
        let out = v.visit_seq(OneSeq { reg: self.reg, slot: &slot, done: false })?;
        let elem = slot.into_inner().ok_or_else(|| Error("a sequence read no element".into()))?;
        set_last(self.reg, Shape::Seq(Box::new(elem)));
        Ok(out)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let slots = RefCell::new((None, None));
        let out = v.visit_map(OneEntry { reg: self.reg, slots: &slots, done: false })?;
        let (k, val) = slots.into_inner();
        let (Some(k), Some(val)) = (k, val) else { return Err(Error("a map read no entry".into())) };
        set_last(self.reg, Shape::Map(Box::new(k), Box::new(val)));
        Ok(out)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        if self.reg.borrow().in_progress.contains(&self.ty) {
            return Err(Error(format!("`{}` contains itself; recursive spec types are not traced", self.ty)));
        }
        self.reg.borrow_mut().in_progress.push(self.ty);
        let slots: Vec<RefCell<Option<Shape>>> = fields.iter().map(|_| RefCell::new(None)).collect();
        let out = v.visit_map(StructFields { reg: self.reg, fields, slots: &slots, next: 0 });
        self.reg.borrow_mut().in_progress.pop();
        let out = out?;
        let mut keys = Vec::new();
        for (k, s) in fields.iter().zip(slots) {
            let s = s.into_inner().ok_or_else(|| Error(format!("`{name}.{k}` was not read")))?;
            keys.push((*k, s));
        }
        self.reg.borrow_mut().defs.entry(self.ty).or_insert((name, keys));
        set_last(self.reg, Shape::Struct(self.ty));
        Ok(out)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(Error(format!("`{}`: unit values have no YAML form here", self.ty)))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value, Error> {
        self.deserialize_unit(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(Error(format!("`{}`: bytes have no YAML form here", self.ty)))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, Error> {
        Err(Error(format!("`{}`: tuples are not traced", self.ty)))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, n: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_tuple(n, v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Error> {
        Err(Error(format!("`{}`: enums are not traced", self.ty)))
    }
}

/// One element, traced.
struct OneSeq<'r> {
    reg: &'r Reg,
    slot: &'r RefCell<Option<Shape>>,
    done: bool,
}

impl<'de> SeqAccess<'de> for OneSeq<'_> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(None);
        }
        let out = seed.deserialize(Tracer { reg: self.reg, ty: std::any::type_name::<T::Value>() })?;
        *self.slot.borrow_mut() = Some(take_last(self.reg)?);
        Ok(Some(out))
    }
}

/// One map entry, key and value traced.
struct OneEntry<'r> {
    reg: &'r Reg,
    slots: &'r RefCell<(Option<Shape>, Option<Shape>)>,
    done: bool,
}

impl<'de> MapAccess<'de> for OneEntry<'_> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(None);
        }
        let out = seed.deserialize(Tracer { reg: self.reg, ty: std::any::type_name::<K::Value>() })?;
        self.slots.borrow_mut().0 = Some(take_last(self.reg)?);
        Ok(Some(out))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let out = seed.deserialize(Tracer { reg: self.reg, ty: std::any::type_name::<V::Value>() })?;
        self.slots.borrow_mut().1 = Some(take_last(self.reg)?);
        Ok(out)
    }
}

/// Every field of a struct, in declaration order, each value traced.
struct StructFields<'r> {
    reg: &'r Reg,
    fields: &'static [&'static str],
    slots: &'r [RefCell<Option<Shape>>],
    next: usize,
}

impl<'de> MapAccess<'de> for StructFields<'_> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.fields.get(self.next) {
            Some(k) => seed.deserialize(StrDeserializer::<Error>::new(k)).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let out = seed.deserialize(Tracer { reg: self.reg, ty: std::any::type_name::<V::Value>() })?;
        *self.slots[self.next].borrow_mut() = Some(take_last(self.reg)?);
        self.next += 1;
        Ok(out)
    }
}

/// serde-saphyr's `Spanned<T>`: answered in its located form (marker, value,
/// two locations), with only the value traced.
struct SpannedDe<'r> {
    reg: &'r Reg,
}

impl<'de> Deserializer<'de> for SpannedDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_map(SpannedParts { reg: self.reg, next: 0 })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct SpannedParts<'r> {
    reg: &'r Reg,
    next: usize,
}

const SPANNED_KEYS: [&str; 4] = [SPANNED_MARKER, "value", "referenced", "defined"];

impl<'de> MapAccess<'de> for SpannedParts<'_> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match SPANNED_KEYS.get(self.next) {
            Some(k) => seed.deserialize(StrDeserializer::<Error>::new(k)).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let i = self.next;
        self.next += 1;
        match i {
            0 => seed.deserialize(UnitDeserializer::<Error>::new()),
            1 => seed.deserialize(Tracer { reg: self.reg, ty: std::any::type_name::<V::Value>() }),
            _ => {
                let at = [("line", 1u32), ("column", 1u32)].into_iter().map(|(k, v)| (k, v.into_deserializer()));
                seed.deserialize(MapDeserializer::<_, Error>::new(at))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition<'a>(schema: &'a Json, name: &str) -> &'a Json {
        let Json::Object(top) = schema else { panic!("not an object") };
        let defs = &top.iter().find(|(k, _)| k == "definitions").expect("definitions").1;
        let Json::Object(defs) = defs else { panic!("definitions is not an object") };
        &defs.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no definition {name}")).1
    }

    fn keys(def: &Json) -> Vec<String> {
        let Json::Object(d) = def else { panic!() };
        let Json::Object(props) = &d.iter().find(|(k, _)| k == "properties").unwrap().1 else { panic!() };
        props.iter().map(|(k, _)| k.clone()).collect()
    }

    #[test]
    fn isa_schema_lists_the_loaders_keys() {
        let s = isa().unwrap();
        let root = keys(definition(&s, "SpecFile"));
        // kebab-case renames and raw identifiers come out as the loader reads them.
        for k in ["isa", "default-gen", "sched-classes", "instructions", "bitsets", "$schema"] {
            assert!(root.contains(&k.to_string()), "{k} missing from {root:?}");
        }
        let bitset = keys(definition(&s, "BitsetSpec"));
        assert!(bitset.contains(&"gen".to_string()) && bitset.contains(&"accepts".to_string()), "{bitset:?}");
        let field = definition(&s, "FieldSpec");
        assert!(keys(field).contains(&"type".to_string()));
        let Json::Object(f) = field else { panic!() };
        let req = &f.iter().find(|(k, _)| k == "required").unwrap().1;
        assert_eq!(req, &Json::Array(vec![Json::s("type")]), "only `type` is required of a field");
    }

    #[test]
    fn every_key_of_the_schema_is_accepted_by_the_loader() {
        // A key the schema lists but the loader refused would be an editor lie.
        let s = isa().unwrap();
        for k in keys(definition(&s, "BitsetSpec")) {
            let yaml = format!("bitsets: {{b: {{{k}: ~}}}}\n");
            if let Err(e) =
                crate::yaml::parse::<crate::schema::SpecFile>(std::path::Path::new("x.yaml"), yaml.as_bytes())
            {
                assert!(!e.message.contains("unknown field"), "{k}: {}", e.message);
            }
        }
    }

    #[test]
    fn abi_schema_lists_the_loaders_keys() {
        let s = abi().unwrap();
        let root = keys(definition(&s, "AbiFile"));
        for k in ["abi", "register-files", "arg-groups", "slot-tables", "stages"] {
            assert!(root.contains(&k.to_string()), "{k} missing from {root:?}");
        }
        assert!(keys(definition(&s, "ArgSpec")).contains(&"use".to_string()));
        assert!(keys(definition(&s, "BlockSpec")).contains(&"user-data".to_string()));
    }

    #[test]
    fn spanned_values_are_traced_through() {
        // If serde-saphyr changed how `Spanned` deserializes, tracing would stop
        // at the wrapper; this keeps the schema honest.
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct T {
            a: crate::yaml::S<u32>,
            b: Option<crate::yaml::S<Vec<crate::yaml::S<String>>>>,
        }
        let s = schema::<T>("t", "t").unwrap();
        let Json::Object(d) = definition(&s, "T") else { panic!() };
        let props = &d.iter().find(|(k, _)| k == "properties").unwrap().1;
        assert_eq!(
            props,
            &Json::Object(vec![
                ("a".into(), Json::obj(&[("type", Json::s("integer")), ("minimum", Json::Int(0))])),
                (
                    "b".into(),
                    Json::obj(&[("type", Json::s("array")), ("items", Json::obj(&[("type", Json::s("string"))]))])
                ),
            ])
        );
        // And the real loader still reads a located value the way the tracer answers.
        let t: T = serde_saphyr::from_str("a: 3\nb: [x]\n").unwrap();
        assert_eq!(t.a.value, 3);
    }

    #[test]
    fn an_undescribed_hand_written_type_is_an_error() {
        struct Opaque;
        impl<'de> serde::Deserialize<'de> for Opaque {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = Opaque;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("anything")
                    }
                }
                d.deserialize_any(V)
            }
        }
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct T {
            a: Opaque,
        }
        let e = schema::<T>("t", "t").unwrap_err();
        assert!(e.contains("Opaque") && e.contains("json_schema::custom"), "{e}");
    }

    #[test]
    fn json_text_is_escaped_and_indented() {
        let j = Json::obj(&[("a\"b", Json::Array(vec![Json::Int(1), Json::Null])), ("c", Json::obj(&[]))]);
        assert_eq!(j.pretty(), "{\n  \"a\\\"b\": [1, null],\n  \"c\": {}\n}\n");
    }
}
