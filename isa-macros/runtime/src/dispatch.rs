//! Precomputed decoding: what the generator works out once so that decoding a
//! word is a few table lookups instead of a scan over every encoding.
//!
//! Two kinds of table, both built by the generator from the same leaves the
//! reference decoder reads (so they cannot disagree with the spec):
//!
//! - A decision tree per group over identifying bits: each node switches on a
//!   run of bits; each final slot lists the leaves (in priority order) whose
//!   identifying bits can still match. Selection then checks only those.
//! - Per instruction leaf and *generation class* (a range of generations in
//!   which no condition of the spec changes value), the leaf's `requires`
//!   conditions and its operand checks split into independent parts over
//!   disjoint bits, each tabulated as a bitmap over its bits. A part too wide
//!   to tabulate whole is tabulated over the bits that choose its operand's
//!   form, each form's own bits in a second unit (see [`Unit`]); one still
//!   too wide is marked `Slow`: the reference code evaluates it. A
//!   variable-length encoding's length is tabulated the same way: a constant,
//!   or one of two values chosen by a check (`L ? 64 : 48`, `SRC0 == 255 ? 64 :
//!   32`), so decoding evaluates no expression.
//!
//! Decoding through these tables gives exactly what the reference decoder
//! gives (`tests/decode_tables.rs` checks both on random words and on every
//! opcode); a word they reject is decoded again by the reference code, so
//! errors are the same too.

use crate::Inst;
use crate::bits::{Bits, mask_of};
use crate::tables::{Isa, Range};

/// The precomputed decoder of a target.
#[derive(Debug)]
pub struct Dispatch {
    /// First generation of each generation class after the first: a
    /// generation's class is how many of these are `<=` it.
    pub gen_bounds: &'static [u32],
    /// One tree per group, by group index.
    pub trees: &'static [Tree],
    /// Per leaf and generation class, at `leaf * classes + class`, where
    /// `classes = gen_bounds.len() + 1`.
    pub plans: &'static [Plan],
    /// The parts plans refer to.
    pub units: &'static [Unit],
    /// Bit ranges of the parts, referred to by [`Unit::ranges`].
    pub ranges: &'static [Range],
    /// Bitmaps of the parts: bit `i` set when the part holds for value `i`.
    pub bitmaps: &'static [u64],
    /// Per value of a part with [`Unit::sub`], the unit that answers for it
    /// (or [`NO_ASK`]).
    pub subs: &'static [u32],
}

/// A decision tree over the identifying bits of one group's leaves.
#[derive(Debug)]
pub struct Tree {
    /// Where to start: a node or a list (see [`NODE`]).
    pub root: u32,
    pub nodes: &'static [Node],
    /// Child slots of the nodes: `NODE | index` for a node, otherwise the
    /// offset of a list in `lists`.
    pub slots: &'static [u32],
    /// Candidate lists, each its length followed by leaf indices in priority order.
    pub lists: &'static [u16],
}

/// Marks a slot that refers to a node rather than a list.
pub const NODE: u32 = 1 << 31;

/// Switches on `width` bits starting at `lo`: child `v` is `slots[first + v]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    pub lo: u8,
    pub width: u8,
    pub first: u32,
}

/// How a leaf's conditions and operands are checked in one generation class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Its `requires` conditions.
    pub requires: Check,
    /// Its case's enum fields and operand sub-encodings.
    pub operands: Check,
    /// Its length.
    pub length: Length,
}

/// An instruction's length in bits, as its plan knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Length {
    /// The same for every word.
    Fixed(u16),
    /// `then` bits when all of `units[start..start + len]` hold, else `otherwise`.
    Choice { start: u32, len: u16, then: u16, otherwise: u16 },
    /// Evaluated by the reference code.
    Slow,
}

/// A check as tabulated parts, or evaluated by the reference code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// All of `units[start..start + len]` must hold.
    Table {
        start: u32,
        len: u16,
    },
    Slow,
}

/// One tabulated part: the bits `ranges` select (most significant first),
/// looked up in a bitmap starting at `bitmaps[bitmap]`.
///
/// A part too wide to tabulate whole is tabulated over the bits that choose
/// what it reads next (an operand's form), with an `ask` bitmap for the
/// values that need more: for each of those, `subs[sub + value]` is a unit
/// over the bits that value reads (an ir3 source's float-table index once
/// its form bits say it is one), or [`NO_ASK`] where even that is too wide
/// (a GCN literal's 32-bit value) and the reference code decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    pub range_start: u32,
    pub range_len: u8,
    pub bitmap: u32,
    /// [`NO_ASK`] when every value is answered.
    pub ask: u32,
    /// Where the units answering the `ask` values start in `subs`;
    /// [`NO_ASK`] when the reference code answers them all.
    pub sub: u32,
}

/// A [`Unit`] that answers for every value (in `ask`), or a value no unit
/// answers (in `sub` and `subs`).
pub const NO_ASK: u32 = u32::MAX;

impl Dispatch {
    /// The class of generation `gen_`.
    #[inline]
    pub fn class_of(&self, gen_: u32) -> usize {
        self.gen_bounds.iter().take_while(|&&b| b <= gen_).count()
    }

    fn plan(&self, leaf: u16, class: usize) -> Option<&Plan> {
        self.plans.get(leaf as usize * (self.gen_bounds.len() + 1) + class)
    }

    /// The leaves of `group` whose identifying bits may match `word`, in
    /// priority order (a superset: callers still compare mask and value).
    #[inline]
    pub fn candidates(&self, group: u16, word: Bits) -> &'static [u16] {
        let Some(tree) = self.trees.get(group as usize) else { return &[] };
        let mut slot = tree.root;
        while slot & NODE != 0 {
            let Some(node) = tree.nodes.get((slot & !NODE) as usize) else { return &[] };
            let v = ((word >> node.lo) as u64 & low_mask(node.width)) as usize;
            match tree.slots.get(node.first as usize + v) {
                Some(&s) => slot = s,
                None => return &[],
            }
        }
        let start = slot as usize;
        let Some(&len) = tree.lists.get(start) else { return &[] };
        tree.lists.get(start + 1..start + 1 + len as usize).unwrap_or(&[])
    }

    /// Whether every part of a tabulated check holds for `bits`; `None` when
    /// a part leaves it to the reference code.
    #[inline]
    fn holds(&self, start: u32, len: u16, bits: Bits) -> Option<bool> {
        let units = self.units.get(start as usize..start as usize + len as usize)?;
        let mut ask = false;
        for u in units {
            let i = self.index(u, bits)?;
            if u.ask != NO_ASK && self.bit(u.ask, i) {
                let sub = match u.sub {
                    NO_ASK => NO_ASK,
                    at => *self.subs.get(at as usize + i)?,
                };
                match self.units.get(sub as usize) {
                    // A unit that answers: it has no `ask` of its own.
                    Some(s) => {
                        if !self.bit(s.bitmap, self.index(s, bits)?) {
                            return Some(false);
                        }
                    }
                    None => ask = true,
                }
            } else if !self.bit(u.bitmap, i) {
                return Some(false);
            }
        }
        (!ask).then_some(true)
    }

    /// The value of the bits unit `u` reads.
    #[inline]
    fn index(&self, u: &Unit, bits: Bits) -> Option<usize> {
        let r = self.ranges.get(u.range_start as usize..u.range_start as usize + u.range_len as usize)?;
        Some(match r {
            [one] => ((bits >> one.lo) as u64 & low_mask(one.width)) as usize,
            r => crate::bits::extract(bits, 0, r) as usize,
        })
    }

    /// Bit `i` of the bitmap at `at`.
    #[inline]
    fn bit(&self, at: u32, i: usize) -> bool {
        self.bitmaps.get(at as usize + i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }
}

/// The low `width` bits set.
#[inline]
fn low_mask(width: u8) -> u64 {
    if width >= 64 { !0 } else { (1u64 << width) - 1 }
}

impl Isa {
    /// Decodes through the precomputed tables: `Some` only for a word the
    /// reference decoder accepts, with the same result; `None` means "ask the
    /// reference decoder" (the word is invalid, or a check was not tabulated).
    #[inline]
    pub(crate) fn decode_fast(&self, d: &Dispatch, bits: Bits, gen_: u32) -> Option<Inst> {
        let width = self.groups[0].bits;
        let bits = bits & mask_of(0, width);
        let class = d.class_of(gen_);
        for &l in d.candidates(0, bits) {
            let leaf = &self.leaves[l as usize];
            if !leaf.exists_in(gen_) {
                continue;
            }
            let plan = d.plan(l, class)?;
            let len_bits = match plan.length {
                Length::Fixed(n) => n as u32,
                Length::Choice { start, len, then, otherwise } => {
                    if d.holds(start, len, bits)? {
                        then as u32
                    } else {
                        otherwise as u32
                    }
                }
                Length::Slow => match leaf.length {
                    None => leaf.bits,
                    Some(_) => self.length_of(l, bits, gen_).ok()?,
                },
            };
            // The instruction's own bits (see `Isa::masked_to_length`).
            let own = bits & mask_of(0, len_bits);
            if own & leaf.mask != leaf.value {
                continue;
            }
            let required = match plan.requires {
                Check::Table { start, len } => d.holds(start, len, own)?,
                Check::Slow => self.requires_hold(l, own, gen_),
            };
            if !required {
                continue;
            }
            let inst = Inst { leaf: l, len: (len_bits / 8) as u8, bits: own };
            let ok = match plan.operands {
                Check::Table { start, len } => match d.holds(start, len, inst.bits) {
                    Some(ok) => ok,
                    None => self.operands_hold(l, inst.bits, gen_),
                },
                Check::Slow => self.operands_hold(l, inst.bits, gen_),
            };
            return ok.then_some(inst);
        }
        None
    }
}
