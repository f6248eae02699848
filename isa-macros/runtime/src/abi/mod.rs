//! Shader ABIs as data: where every shader input and output lives.
//!
//! `abi!` turns a target's ABI YAML (docs/abi-language.md) into one static
//! [`Abi`] plus thin typed accessors. Everything that acts on a layout — placing
//! arguments for given parameters, checking overlap, alignment and limits,
//! packing words, printing a stage's table — is written once here, so drivers
//! and backends read the same numbers and a fix serves every target.

mod error;
mod eval;
mod layout;
mod slots;
mod table;
mod word;

pub use error::AbiError;
pub use eval::Env;
pub use layout::{Entry, Layout, Place};
pub use slots::Slot;

use crate::{Expr, Gen};

/// A target's shader ABI.
#[derive(Debug)]
pub struct Abi {
    /// Target name as used on the command line.
    pub name: &'static str,
    pub doc: &'static str,
    /// What the description was taken from (driver and version), as pinned in the YAML.
    pub source: &'static str,
    /// Generations, oldest first; empty when nothing depends on one.
    pub gens: &'static [Gen],
    pub default_gen: u32,
    /// Parameters layouts depend on (counts, switches). Expressions read them
    /// by index; the element index `i` and a block's `size` follow them.
    pub params: &'static [Param],
    pub files: &'static [RegFile],
    pub stages: &'static [Stage],
    /// Packed words (bitfields).
    pub words: &'static [Word],
    /// Descriptor slot tables.
    pub slot_tables: &'static [SlotTable],
}

/// A layout parameter with its allowed range (inclusive) and default.
#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub doc: &'static str,
    pub min: i64,
    pub max: i64,
    pub default: i64,
}

/// A register file, counted in allocation units (`unit_bits` each).
#[derive(Debug)]
pub struct RegFile {
    pub name: &'static str,
    pub doc: &'static str,
    pub unit_bits: u32,
    /// Number of units; may depend on the generation.
    pub units: Expr,
    /// Units per named register (`r3` covers `register_units` units).
    pub register_units: u32,
    /// Register name prefix (`r`, `s`, `u`).
    pub prefix: &'static str,
    /// Names of the units inside one register (`l`, `h`; `x`..`w`), printed after `part_sep`.
    pub parts: &'static [&'static str],
    pub part_sep: &'static str,
    /// Natural alignment in units by value size in bits; other sizes align to one unit.
    pub align: &'static [(u32, u32)],
}

/// A shader stage (API or hardware) and its variants.
#[derive(Debug)]
pub struct Stage {
    pub name: &'static str,
    pub doc: &'static str,
    pub variants: &'static [Variant],
}

/// One way a stage runs (as which hardware stage, which part), with its blocks.
#[derive(Debug)]
pub struct Variant {
    pub name: &'static str,
    pub doc: &'static str,
    /// The parameter values this variant exists for.
    pub when: Option<Expr>,
    /// Parameters this variant fixes: `(param, value)`.
    pub set: &'static [(u16, i64)],
    /// The parameters its layout depends on and the caller chooses, in ABI order.
    pub free: &'static [u16],
    pub blocks: &'static [Block],
}

/// Consecutive arguments in one register file.
#[derive(Debug)]
pub struct Block {
    pub name: &'static str,
    pub doc: &'static str,
    pub file: u16,
    pub start: Start,
    /// Most units the block may span (16 user SGPRs).
    pub limit: Option<u32>,
    pub when: Option<Expr>,
    /// Registers the driver writes the block's units to, one per unit.
    pub user_data: Option<UserData>,
    pub args: &'static [Arg],
    pub invariants: &'static [Invariant],
}

/// Where a block begins.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    Unit(u32),
    /// Right after the end of another block of the same variant.
    Follows(u16),
}

/// Memory-mapped registers a block's unit `k` is written through: `base + k * stride`.
#[derive(Debug)]
pub struct UserData {
    pub name: &'static str,
    pub base: u32,
    pub stride: u32,
}

/// What an argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A value passed in.
    Value,
    /// Units the callee must not rely on (a prolog's temporaries).
    Undefined,
    /// Units kept free (padding).
    Reserved,
}

/// One argument (or an array of `count` of them, indexed by `i`).
#[derive(Debug)]
pub struct Arg {
    pub name: &'static str,
    pub doc: &'static str,
    pub kind: ArgKind,
    pub bits: u32,
    /// Fixed position in units from the file's unit 0; else after the previous argument.
    pub at: Option<Expr>,
    /// Alignment in units; the file's rule for `bits` when absent.
    pub align: Option<u32>,
    pub count: Option<Expr>,
    pub when: Option<Expr>,
    /// The packed word this argument holds, by index in [`Abi::words`].
    pub word: Option<u16>,
}

/// A statement about a block that must hold for every parameter value.
#[derive(Debug)]
pub struct Invariant {
    pub check: Expr,
    pub text: &'static str,
    pub when: Option<Expr>,
}

/// A packed word: named bit fields.
#[derive(Debug)]
pub struct Word {
    pub name: &'static str,
    pub doc: &'static str,
    pub bits: u32,
    /// Hardware registers holding this layout, by name and address.
    pub registers: &'static [(&'static str, u32)],
    pub fields: &'static [WordField],
}

#[derive(Debug)]
pub struct WordField {
    pub name: &'static str,
    pub doc: &'static str,
    pub lo: u32,
    pub width: u32,
}

/// A table of descriptor slots.
#[derive(Debug)]
pub struct SlotTable {
    pub name: &'static str,
    pub doc: &'static str,
    /// The table's size in dwords, when the source states it.
    pub dwords: Option<u32>,
    pub entries: &'static [SlotEntry],
}

/// One named slot, or `count` of them indexed by `i`.
#[derive(Debug)]
pub struct SlotEntry {
    pub name: &'static str,
    pub doc: &'static str,
    /// Slot number, in units of `dwords`.
    pub slot: Expr,
    pub dwords: u32,
    pub count: Option<u32>,
}

impl Abi {
    /// A generation by name, alias or number.
    pub fn gen_by_name(&self, s: &str) -> Option<u32> {
        let s = s.trim();
        let named = self
            .gens
            .iter()
            .find(|g| g.name.eq_ignore_ascii_case(s) || g.aliases.iter().any(|a| a.eq_ignore_ascii_case(s)));
        named.map(|g| g.value).or_else(|| s.parse().ok().filter(|n| self.gens.iter().any(|g| g.value == *n)))
    }

    pub fn stage(&self, name: &str) -> Result<&Stage, AbiError> {
        self.stages.iter().find(|s| s.name == name).ok_or_else(|| AbiError::NoSuch {
            what: "stage",
            name: name.to_string(),
            known: self.stages.iter().map(|s| s.name).collect(),
        })
    }

    pub fn word(&self, name: &str) -> Option<&Word> {
        self.words.iter().find(|w| w.name == name)
    }

    pub fn slot_table(&self, name: &str) -> Option<&SlotTable> {
        self.slot_tables.iter().find(|t| t.name == name)
    }
}

impl Stage {
    /// The named variant; the only one when `name` is `None` and there is one.
    pub fn variant(&self, name: Option<&str>) -> Result<&Variant, AbiError> {
        let found = match name {
            Some(n) => self.variants.iter().find(|v| v.name == n),
            None if self.variants.len() == 1 => self.variants.first(),
            None => None,
        };
        found.ok_or_else(|| AbiError::NoSuch {
            what: "variant",
            name: name.unwrap_or("").to_string(),
            known: self.variants.iter().map(|v| v.name).collect(),
        })
    }
}

impl RegFile {
    /// Units in this file for `gen`.
    pub fn units_in(&self, gen_: u32) -> u32 {
        Env::new(gen_, &[]).eval(self.units).clamp(0, u32::MAX as i64) as u32
    }

    /// Natural alignment of a `bits`-wide value, in units.
    pub fn align_of(&self, bits: u32) -> u32 {
        self.align.iter().find(|(b, _)| *b == bits).map_or(1, |(_, a)| *a)
    }

    /// Name of units `unit..unit + units`: `r2`, `r8..r11`, `r3h`, `r0.x..r0.z`.
    pub fn name_of(&self, unit: u32, units: u32) -> String {
        let ru = self.register_units.max(1);
        let last = unit + units.max(1) - 1;
        if unit.is_multiple_of(ru) && (last + 1).is_multiple_of(ru) {
            let (a, b) = (unit / ru, last / ru);
            return if a == b {
                format!("{}{a}", self.prefix)
            } else {
                format!("{}{a}..{}{b}", self.prefix, self.prefix)
            };
        }
        let one = |u: u32| {
            let part = self.parts.get((u % ru) as usize).copied().unwrap_or("?");
            format!("{}{}{}{part}", self.prefix, u / ru, self.part_sep)
        };
        if units <= 1 { one(unit) } else { format!("{}..{}", one(unit), one(last)) }
    }
}
