//! The generic engine behind every generated target.
//!
//! `isa!` turns a YAML spec into static [`Isa`] tables; everything that acts on
//! instructions (decoding, printing, assembling, packing, validating) is written
//! once here and driven by those tables. Keeping the per-target output as data
//! keeps compile times flat as targets grow (one `match` arm per opcode compiles
//! an order of magnitude slower than a table) and means one fix serves all targets.

pub mod abi;
mod any_order;
mod assembler;
mod bits;
pub mod build;
mod canonical;
mod decode;
pub mod digits;
mod direct;
mod dispatch;
mod encode;
mod error;
mod eval;
mod expr_text;
mod float;
mod form_starts;
mod forms;
mod ignorable;
mod int_expr;
pub mod intervals;
mod inverse;
mod kept;
mod lessons;
mod logic;
pub mod machine;
mod memo;
mod mnemonics;
mod openings;
mod padded;
mod parse;
mod place;
mod print;
mod print_plan;
mod recall;
mod sample;
mod shape;
mod short_text;
mod tables;
mod wide;

pub use assembler::Assembler;
pub use bits::{Bits, extract, insert, mask_of, width_of};
pub use decode::Decoder;
pub use direct::{
    Ask, BUCKET_BITS, Direct, DirectTables, Further, Key, MorePart, NO_PROBE, NOTHING, Part, Probe, Trusted,
    bucket_words, cut_buckets, gather, scatter,
};
pub use dispatch::{Check, Dispatch, Length, NO_ASK, NO_FIELD, NODE, Node, Plan, Tree, Unit};
pub use encode::Builder;
pub use error::{AsmError, DecodeError, FieldError};
pub use eval::{MAX_STACK, binop as apply_binop, stack_depth, value as postfix_value};
pub use expr_text::{binop_symbol, expr_text, infix};
pub use ignorable::Walked;
pub use intervals::Intervals;
pub use lessons::Lessons;
pub use machine::Machine;
pub use parse::{conjuncts, disjuncts, select_operands};
pub use place::Step;
pub use print::Printer;
pub use sample::TestRng;
pub use tables::*;

/// A decoded or assembled instruction: which encoding it is, its length and its
/// bits.
///
/// The bits are the whole truth: every operand is read back from them through the
/// tables, so `encode(decode(x)) == x` holds by construction and nothing is lost,
/// don't-care bits included. Bits past `len` are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Index into [`Isa::leaves`].
    pub leaf: u16,
    /// Length in bytes (fixed for most encodings; see `length:` in the spec).
    pub len: u8,
    /// The encoding, bit 0 = least significant bit of the first byte in memory.
    pub bits: Bits,
}

impl Inst {
    /// Length of this instruction in bytes.
    pub fn len_bytes(&self) -> usize {
        self.len as usize
    }

    /// The instruction's bytes in memory order.
    pub fn bytes(&self) -> Vec<u8> {
        self.bits.to_le_bytes()[..self.len as usize].to_vec()
    }
}
