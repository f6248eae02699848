//! The YAML schema of an ISA spec, as serde types. Every key is documented in
//! docs/spec-language.md; unknown keys are rejected.

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

use crate::yaml::S;

/// One spec file. The root file (named by `isa!`) carries the target-wide keys;
/// the files it lists carry enums, bitsets and instruction tables.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SpecFile {
    /// JSON Schema reference for editors; ignored here.
    #[serde(rename = "$schema")]
    pub schema: Option<S<String>>,
    pub isa: Option<S<String>>,
    pub doc: Option<S<String>>,
    /// Other files of this target, relative to the root file. Listed, not globbed,
    /// so the build depends on exactly these files.
    pub files: Option<Vec<S<String>>>,
    pub generations: Option<Vec<S<GenSpec>>>,
    pub default_gen: Option<S<String>>,
    /// Commas between operands may be left out, written for a space, or
    /// trail the line, when assembling (LLVM's AMDGPU syntax).
    pub optional_commas: Option<S<bool>>,
    /// A number with a leading `0` (`010`) is octal when assembling, as
    /// LLVM's assemblers read it (`09` is then no number).
    pub octal_numbers: Option<S<bool>>,
    /// `0b` and binary digits (`0b101`) are a binary number when
    /// assembling, as LLVM's assemblers read them.
    pub binary_numbers: Option<S<bool>>,
    /// Register names after which the assembler also reads a number in
    /// brackets: with `[v]`, `v[8/2+4]` where a template has `v{N}`.
    pub bracketed_indices: Option<Vec<S<String>>>,
    /// Fields that the assembler reads in any order where a template writes
    /// several of them side by side: Mesa's ir3 flags, `(ss)(sy)` for the
    /// printer's `(sy)(ss)`.
    pub any_order: Option<Vec<S<String>>>,
    pub raw: Option<S<RawSpec>>,
    /// The bitset every instruction extends.
    pub instruction: Option<S<String>>,
    pub sched_classes: Option<IndexMap<S<String>, S<SchedSpec>>>,
    pub flags: Option<IndexMap<S<String>, S<String>>>,
    /// Assembly syntaxes, the default first (`display:` may then give one
    /// template per syntax).
    pub syntaxes: Option<IndexMap<S<String>, S<SyntaxSpec>>>,
    pub enums: Option<IndexMap<S<String>, S<EnumSpec>>>,
    /// Other texts the assembler reads for enum values, by enum and value
    /// (the printer never writes them): `omod: {0: [" mul:1"]}`.
    pub enum_accepts: Option<IndexMap<S<String>, S<EnumAccepts>>>,
    /// Enums whose values are sets of named bits, written as a list of names.
    pub sets: Option<IndexMap<S<String>, S<SetSpec>>>,
    pub bitsets: Option<IndexMap<S<String>, S<BitsetSpec>>>,
    pub instructions: Option<Vec<S<OpcodeTable>>>,
    /// What a compiler backend needs beyond encodings (root file only).
    pub machine: Option<S<crate::machine::MachineSpec>>,
    /// The typed builders' operand types (root file only).
    pub builder: Option<S<crate::builder::BuilderSpec>>,
}

/// An enum: value -> display string.
pub type EnumSpec = IndexMap<S<u64>, S<String>>;

/// Other texts of an enum's values: value -> texts.
pub type EnumAccepts = IndexMap<S<u64>, Vec<S<String>>>;

/// A set of named bits: an enum whose value for each subset of `bits` is
/// written `open`, the names of its bits (lowest first, joined by
/// `separator`), `close`. The assembler reads the names in any order.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SetSpec {
    pub open: S<String>,
    pub separator: S<String>,
    pub close: S<String>,
    /// Bit number -> name.
    pub bits: IndexMap<S<u32>, S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GenSpec {
    pub name: S<String>,
    pub value: S<u32>,
    pub aliases: Option<Vec<S<String>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawSpec {
    pub prefix: S<String>,
    pub uppercase: Option<bool>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SchedSpec {
    pub doc: Option<S<String>>,
    /// Latency in cycles by generation range (`..699: 3`, `700..: 2`).
    pub latency: IndexMap<S<GenRange>, S<u32>>,
    /// Cycles between issues of this class, by generation range.
    pub throughput: Option<IndexMap<S<GenRange>, S<u32>>>,
    /// The execution unit the class issues to.
    pub unit: Option<S<String>>,
}

/// One assembly syntax of a target.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct SyntaxSpec {
    pub doc: Option<S<String>>,
    /// The column `{|}` pads the mnemonic to, when padding.
    pub column: Option<S<u32>>,
    /// Whether the printer pads by default.
    pub pad: Option<S<bool>>,
    /// Encoding key -> the mnemonic `{NAME}` prints in this syntax.
    pub names: Option<IndexMap<S<String>, S<String>>>,
}

/// A display template: one for every syntax, or one per syntax
/// (`{mesa: "...", applegpu: "..."}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisplaySpec {
    One(String),
    PerSyntax(Vec<(String, String)>),
}

impl<'de> Deserialize<'de> for DisplaySpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DisplaySpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a template, or a map from syntax name to template")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DisplaySpec, E> {
                Ok(DisplaySpec::One(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<DisplaySpec, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(ScalarSeed)? {
                    let v: String = map.next_value()?;
                    out.push((k, v));
                }
                if out.is_empty() {
                    return Err(de::Error::custom("a per-syntax `display` needs at least one syntax"));
                }
                Ok(DisplaySpec::PerSyntax(out))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct BitsetSpec {
    /// What `{NAME}` prints; the key by default.
    pub name: Option<S<String>>,
    pub doc: Option<S<String>>,
    pub extends: Option<S<String>>,
    /// Width in bits; required on a bitset that extends nothing.
    pub size: Option<S<u32>>,
    pub r#gen: Option<S<GenRange>>,
    pub fields: Option<IndexMap<S<String>, S<FieldSpec>>>,
    /// A variable-length encoding: its length in bits, and the shortest length
    /// (the identifying bits and everything `expr` reads lie in the shortest form).
    pub length: Option<S<LengthSpec>>,
    /// Values the enclosing field passes in when this bitset is a field type.
    pub params: Option<IndexMap<S<String>, S<ParamSpec>>>,
    /// Fixed bits: `61..63: "010"`, most significant bit first, `x` = don't care.
    pub pattern: Option<IndexMap<S<BitKey>, S<String>>>,
    /// Fields of an ancestor given a constant value here (`OPC: 5`).
    pub fixed: Option<IndexMap<S<String>, S<i64>>>,
    pub display: Option<S<DisplaySpec>>,
    /// A condition the encoding must meet to decode as this bitset.
    pub requires: Option<S<ExprText>>,
    /// Bits the hardware ignores, always or under a condition.
    pub ignore: Option<Vec<S<IgnoreSpec>>>,
    pub cases: Option<Vec<S<CaseSpec>>>,
    /// Other text the assembler accepts for this encoding; never printed.
    pub accepts: Option<Vec<S<AcceptSpec>>>,
    pub rules: Option<Vec<S<RuleSpec>>>,
    pub sched: Option<S<String>>,
    pub flags: Option<Vec<S<String>>>,
    /// Among encodings whose fixed bits overlap, the higher priority decodes.
    pub priority: Option<S<i64>>,
    /// The operand fields the instruction writes (for the typed builders);
    /// inherited, and the `builder:` section's `writes` when no bitset says.
    pub writes: Option<Vec<S<String>>>,
    /// A row of an instruction table (set by the loader, never written): its
    /// `fields:` replace same-named fields of the format it extends.
    #[serde(skip)]
    pub row: bool,
    /// Text the assembler also reads right after the name, which the printer
    /// never writes (LLVM's `_e32` encoding hint on GCN's 32-bit formats).
    /// Inherited: the nearest along the chain.
    #[serde(rename = "name-suffix")]
    pub name_suffix: Option<S<String>>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub bits: Option<S<BitsSpec>>,
    /// A derived field: computed from other fields instead of read from bits.
    pub expr: Option<S<ExprText>>,
    #[serde(rename = "type")]
    pub ty: S<String>,
    /// For `bool`: the text printed when set.
    pub display: Option<S<String>>,
    /// For a bitset-typed field: the values its params take.
    pub params: Option<IndexMap<S<String>, S<ExprText>>>,
    /// For `float`: its IEEE format in bits (16, 32 or 64), when the field's
    /// width does not say it. For `hexlit`: the format of a decimal number
    /// the assembler reads for it (the field keeps the format's high bits).
    pub float: Option<S<ExprText>>,
    /// The value the assembler gives the field when the text leaves out the
    /// optional part of a template that shows it (`{? dst_sel:{DST_SEL}}`).
    pub default: Option<S<i64>>,
    pub doc: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    #[serde(rename = "type")]
    pub ty: S<String>,
    pub display: Option<S<String>>,
    /// As a field's `float:`, read in each encoding of the operand.
    pub float: Option<S<ExprText>>,
    pub doc: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    pub when: S<ExprText>,
    pub display: Option<S<DisplaySpec>>,
    /// The syntaxes this case applies in (all when absent).
    pub syntax: Option<Vec<S<String>>>,
    pub fields: Option<IndexMap<S<String>, S<FieldSpec>>>,
    pub doc: Option<S<String>>,
}

/// An assembler-only template: like a case without `when`, which the printer
/// never picks.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AcceptSpec {
    pub display: S<DisplaySpec>,
    /// The syntaxes that read this text (all when absent).
    pub syntax: Option<Vec<S<String>>>,
    pub fields: Option<IndexMap<S<String>, S<FieldSpec>>>,
    pub doc: Option<S<String>>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct LengthSpec {
    pub expr: S<ExprText>,
    pub min: S<u32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct IgnoreSpec {
    pub bits: S<BitsSpec>,
    pub when: Option<S<ExprText>>,
    /// The syntaxes whose text does not show these bits (all when absent).
    pub syntax: Option<Vec<S<String>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    pub check: S<ExprText>,
    pub message: S<String>,
}

/// A table of instructions that share a format and differ in one field.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct OpcodeTable {
    /// The format every row extends: one bitset, or one per generation
    /// (`{gfx6: ds-gfx6, gfx8: ds-gfx8}`) where a format's layout changes.
    pub extends: S<TableBase>,
    pub field: S<String>,
    pub r#gen: Option<S<GenRange>>,
    pub sched: Option<S<String>>,
    pub flags: Option<Vec<S<String>>>,
    pub doc: Option<S<String>>,
    /// Fields every row adds to its format, such as operand widths, so that
    /// one format serves tables that differ only in derived values.
    pub fields: Option<IndexMap<S<String>, S<FieldSpec>>>,
    /// Further encodings of every row, in other formats whose opcode field holds
    /// the row's opcode plus an offset.
    pub derive: Option<Vec<S<DeriveSpec>>>,
    /// The operand fields every row writes (as a bitset's `writes:`).
    pub writes: Option<Vec<S<String>>>,
    /// Mnemonic -> value of `field`: one number for every generation, or one per
    /// generation (`{gfx6: 3, gfx8: 0}`, each value holding until the next listed
    /// generation; `~` for absent from that generation on).
    pub opcodes: IndexMap<S<String>, S<OpcodeValue>>,
}

/// Another encoding of every row of a table: the row's opcode plus `offset` in
/// `field` of the `extends` format, keyed `mnemonic@tag`. GCN's VOP3 (`_e64`)
/// forms of its VOP1, VOP2 and VOPC instructions are such encodings.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DeriveSpec {
    pub extends: S<TableBase>,
    /// The opcode field of `extends`; the table's `field` when omitted.
    pub field: Option<S<String>>,
    /// Added to the row's opcode: one number, or one per generation (`~` where
    /// the derived encoding does not exist).
    pub offset: S<OpcodeValue>,
    pub tag: S<String>,
    pub doc: Option<S<String>>,
}

/// The bitset an opcode table's rows extend: one for all generations, or one
/// per generation (each holding until the next listed generation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableBase {
    All(String),
    PerGen(Vec<(String, String)>),
}

impl<'de> Deserialize<'de> for TableBase {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TableBase;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a bitset name, or a map from generation to bitset name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TableBase, E> {
                Ok(TableBase::All(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<TableBase, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(ScalarSeed)? {
                    let v: String = map.next_value()?;
                    out.push((k, v));
                }
                if out.is_empty() {
                    return Err(de::Error::custom("a per-generation `extends` needs at least one generation"));
                }
                Ok(TableBase::PerGen(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// An opcode number, for all generations or per generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpcodeValue {
    All(i64),
    PerGen(Vec<(String, Option<i64>)>),
}

impl<'de> Deserialize<'de> for OpcodeValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OpcodeValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an opcode number, or a map from generation to number (or ~ for absent)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<OpcodeValue, E> {
                Ok(OpcodeValue::All(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<OpcodeValue, E> {
                i64::try_from(v).map(OpcodeValue::All).map_err(|_| E::custom("opcode number too large"))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<OpcodeValue, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(ScalarSeed)? {
                    let v: Option<i64> = map.next_value()?;
                    out.push((k, v));
                }
                if out.is_empty() {
                    return Err(de::Error::custom("a per-generation opcode needs at least one generation"));
                }
                Ok(OpcodeValue::PerGen(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A bit range `lo..hi` (inclusive) or a single bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitKey {
    pub lo: u32,
    pub hi: u32,
}

/// A field's bits: one range, or several (most significant part first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitsSpec(pub Vec<BitKey>);

/// A generation range, inclusive: `600..699`, `600..`, `..599`, or `600`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenRange {
    pub min: Option<u32>,
    pub max: Option<u32>,
}

/// An expression, written as a string or a bare number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprText(pub String);

fn parse_bitkey(s: &str) -> Result<BitKey, String> {
    let s = s.trim();
    let err = || format!("`{s}` is not a bit or bit range (write `5` or `0..7`, low bit first)");
    match s.split_once("..") {
        Some((a, b)) => {
            let lo: u32 = a.trim().parse().map_err(|_| err())?;
            let hi: u32 = b.trim().parse().map_err(|_| err())?;
            if hi < lo {
                return Err(format!("bit range `{s}` runs backwards; write the low bit first"));
            }
            Ok(BitKey { lo, hi })
        }
        None => {
            let b: u32 = s.parse().map_err(|_| err())?;
            Ok(BitKey { lo: b, hi: b })
        }
    }
}

fn parse_gen_range(s: &str) -> Result<GenRange, String> {
    let s = s.trim();
    let num = |t: &str| -> Result<Option<u32>, String> {
        let t = t.trim();
        if t.is_empty() {
            Ok(None)
        } else {
            t.parse()
                .map(Some)
                .map_err(|_| format!("`{s}` is not a generation range (write `600..699`, `600..` or `..599`)"))
        }
    };
    match s.split_once("..") {
        Some((a, b)) => Ok(GenRange { min: num(a)?, max: num(b)? }),
        None => {
            let v = num(s)?;
            Ok(GenRange { min: v, max: v })
        }
    }
}

struct ScalarText;

impl<'de> Visitor<'de> for ScalarText {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or a number")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(if v { "1" } else { "0" }.to_string())
    }
}

impl<'de> Deserialize<'de> for ExprText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarText).map(ExprText)
    }
}

impl<'de> Deserialize<'de> for BitKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = d.deserialize_any(ScalarText)?;
        parse_bitkey(&s).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for GenRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = d.deserialize_any(ScalarText)?;
        parse_gen_range(&s).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for BitsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = BitsSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a bit (`5`), a range (`0..7`), or a list of them, most significant part first")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<BitsSpec, E> {
                parse_bitkey(v).map(|k| BitsSpec(vec![k])).map_err(E::custom)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<BitsSpec, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<BitsSpec, E> {
                self.visit_str(&v.to_string())
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<BitsSpec, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element_seed(ScalarSeed)? {
                    out.push(parse_bitkey(&s).map_err(de::Error::custom)?);
                }
                if out.is_empty() {
                    return Err(de::Error::custom("a field needs at least one bit range"));
                }
                Ok(BitsSpec(out))
            }
        }
        d.deserialize_any(V)
    }
}

struct ScalarSeed;

impl<'de> de::DeserializeSeed<'de> for ScalarSeed {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(ScalarText)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_keys_and_gen_ranges() {
        assert_eq!(parse_bitkey("0..7"), Ok(BitKey { lo: 0, hi: 7 }));
        assert_eq!(parse_bitkey("60"), Ok(BitKey { lo: 60, hi: 60 }));
        assert!(parse_bitkey("7..0").unwrap_err().contains("backwards"));
        assert_eq!(parse_gen_range("600.."), Ok(GenRange { min: Some(600), max: None }));
        assert_eq!(parse_gen_range("..599"), Ok(GenRange { min: None, max: Some(599) }));
        assert_eq!(parse_gen_range("700"), Ok(GenRange { min: Some(700), max: Some(700) }));
        assert!(parse_gen_range("a..b").is_err());
    }

    #[test]
    fn field_bits_forms() {
        #[derive(Deserialize)]
        struct T {
            a: BitsSpec,
            b: BitsSpec,
            c: BitsSpec,
        }
        let t: T = serde_saphyr::from_str("a: 5\nb: 0..15\nc: [9..13, 32..39]\n").unwrap();
        assert_eq!(t.a.0, vec![BitKey { lo: 5, hi: 5 }]);
        assert_eq!(t.b.0, vec![BitKey { lo: 0, hi: 15 }]);
        assert_eq!(t.c.0, vec![BitKey { lo: 9, hi: 13 }, BitKey { lo: 32, hi: 39 }]);
    }
}
