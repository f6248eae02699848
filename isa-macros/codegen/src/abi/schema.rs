//! The YAML schema of an ABI spec, as serde types. Every key is documented in
//! docs/abi-language.md; unknown keys are rejected.

use indexmap::IndexMap;
use serde::Deserialize;

use crate::schema::{BitKey, ExprText, GenSpec};
use crate::yaml::S;

/// One ABI spec file. The root file (named by `abi!`) carries the target-wide
/// keys; any file may carry the others.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AbiFile {
    /// JSON Schema reference for editors; ignored here.
    #[serde(rename = "$schema")]
    pub schema: Option<S<String>>,
    pub abi: Option<S<String>>,
    pub doc: Option<S<String>>,
    /// What the description was taken from, pinned to a version.
    pub source: Option<S<String>>,
    pub files: Option<Vec<S<String>>>,
    pub generations: Option<Vec<S<GenSpec>>>,
    pub default_gen: Option<S<String>>,
    pub params: Option<IndexMap<S<String>, S<ParamSpec>>>,
    pub register_files: Option<IndexMap<S<String>, S<RegFileSpec>>>,
    /// Argument lists several blocks share, pulled in with `- use: NAME`.
    pub arg_groups: Option<IndexMap<S<String>, Vec<S<ArgSpec>>>>,
    pub stages: Option<IndexMap<S<String>, S<StageSpec>>>,
    pub words: Option<IndexMap<S<String>, S<WordSpec>>>,
    pub slot_tables: Option<IndexMap<S<String>, S<SlotTableSpec>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    pub doc: Option<S<String>>,
    /// Allowed values, inclusive: `0..32`, or one value.
    pub range: S<BitKey>,
    pub default: Option<S<i64>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RegFileSpec {
    pub doc: Option<S<String>>,
    pub unit_bits: S<u32>,
    /// Number of units; an expression that may read `gen`.
    pub units: S<ExprText>,
    pub register_units: Option<S<u32>>,
    pub prefix: S<String>,
    pub parts: Option<Vec<S<String>>>,
    pub part_separator: Option<S<String>>,
    /// Value size in bits -> alignment in units.
    pub align: Option<IndexMap<S<u32>, S<u32>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct StageSpec {
    pub doc: Option<S<String>>,
    pub variants: IndexMap<S<String>, S<VariantSpec>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    pub doc: Option<S<String>>,
    pub when: Option<S<ExprText>>,
    /// Parameters this variant fixes.
    pub set: Option<IndexMap<S<String>, S<i64>>>,
    pub blocks: Option<IndexMap<S<String>, S<BlockSpec>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BlockSpec {
    pub doc: Option<S<String>>,
    pub file: S<String>,
    /// First unit (default 0).
    pub start: Option<S<u32>>,
    /// Begin right after this earlier block.
    pub follows: Option<S<String>>,
    pub limit: Option<S<u32>>,
    pub when: Option<S<ExprText>>,
    pub user_data: Option<S<UserDataSpec>>,
    pub args: Vec<S<ArgSpec>>,
    pub invariants: Option<Vec<S<InvariantSpec>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct UserDataSpec {
    /// Register name stem; unit k is written through `NAME_k`.
    pub name: S<String>,
    /// Address of `NAME_0`.
    pub register: S<u32>,
    /// Address step per unit (default 4).
    pub stride: Option<S<u32>>,
}

/// An argument, or `use: GROUP` (and nothing else) to pull in an argument group.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ArgSpec {
    #[serde(rename = "use")]
    pub use_: Option<S<String>>,
    pub name: Option<S<String>>,
    pub doc: Option<S<String>>,
    /// `value` (default), `undefined` or `reserved`.
    pub kind: Option<S<String>>,
    pub bits: Option<S<u32>>,
    /// Position in units from the block's start; may read parameters and `i`.
    pub at: Option<S<ExprText>>,
    pub align: Option<S<u32>>,
    pub count: Option<S<ExprText>>,
    pub when: Option<S<ExprText>>,
    /// The packed word this argument holds.
    pub word: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct InvariantSpec {
    /// Must be non-zero for every parameter value; may read `size`.
    pub check: S<ExprText>,
    pub when: Option<S<ExprText>>,
    pub doc: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WordSpec {
    pub doc: Option<S<String>>,
    pub bits: S<u32>,
    pub registers: Option<IndexMap<S<String>, S<u32>>>,
    pub fields: IndexMap<S<String>, S<WordFieldSpec>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WordFieldSpec {
    /// `lo..hi` inclusive, or one bit.
    pub bits: S<BitKey>,
    pub doc: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SlotTableSpec {
    pub doc: Option<S<String>>,
    pub dwords: Option<S<u32>>,
    pub entries: IndexMap<S<String>, S<SlotEntrySpec>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SlotEntrySpec {
    /// Slot number in units of `dwords`; may read `i`.
    pub slot: S<ExprText>,
    pub dwords: S<u32>,
    pub count: Option<S<u32>>,
    pub doc: Option<S<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn hex_registers_and_ranges_parse() {
        let f: AbiFile = crate::yaml::parse(
            Path::new("x.yaml"),
            b"params: {n: {range: 0..32}}\nwords: {w: {bits: 32, registers: {R: 0x0286CC}, fields: {a: {bits: 8..20}}}}\n",
        )
        .unwrap();
        let params = f.params.unwrap();
        let p = &params[0].value;
        assert_eq!((p.range.value.lo, p.range.value.hi), (0, 32));
        let words = f.words.unwrap();
        assert_eq!(words[0].value.registers.as_ref().unwrap()[0].value, 0x0286CC);
    }
}
