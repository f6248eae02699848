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
//!   form, each form's own bits in a second unit (see [`Unit`]). A value
//!   too wide for a bitmap (a GCN literal) that the spec only compares with
//!   constants is tabulated by its *cut points*: the constants split its
//!   range into intervals on each of which the answer is the same. A part
//!   still too wide is marked `Slow`: the reference code evaluates it. A
//!   variable-length encoding's length is tabulated the same way: a constant,
//!   or one of two values chosen by a check (`L ? 64 : 48`, `SRC0 == 255 ? 64 :
//!   32`), so decoding evaluates no expression.
//!
//! In front of both sits the direct decoder ([`crate::Direct`]): the tree
//! again, per class, ending in a copy of each leaf's plan that fits a
//! fixed shape. It takes most words in four loads; the rest come here.
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
    /// Per generation class and leaf, at `class * leaves + leaf`: a class's
    /// plans are contiguous, so decoding one generation touches one block.
    pub plans: &'static [Plan],
    /// The parts plans refer to.
    pub units: &'static [Unit],
    /// Bit ranges of the parts, referred to by [`Unit::range_start`].
    pub ranges: &'static [Range],
    /// Bitmaps of the parts: bit `i` set when the part holds for value `i`.
    pub bitmaps: &'static [u64],
    /// Per value of a part with [`Unit::sub`], the unit that answers for it
    /// (or [`NO_ASK`]).
    pub subs: &'static [u32],
    /// Cut points of the units read by intervals ([`Unit::CUTS`]): at a
    /// unit's `range_start`, their count, then the first value of each
    /// interval in increasing order (the first is 0).
    pub cuts: &'static [u64],
    /// The first try, for the leaves whose checks fit a fixed shape.
    pub direct: crate::Direct,
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

/// How a leaf is recognised and checked in one generation class: everything
/// decoding reads about a candidate, in 32 bytes (two per cache line), so
/// that it need not touch the leaf's full description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Plan {
    /// The leaf's identifying bits among the word's first 64 (all of them
    /// unless [`Plan::WIDE`]).
    pub mask: u64,
    pub value: u64,
    /// Its parts, from `units[units]`: `requires` conditions, then operand
    /// checks, then the length's choice.
    pub units: u32,
    pub requires: u8,
    pub operands: u8,
    pub choice: u8,
    /// [`Plan::ABSENT`] and the others.
    pub flags: u8,
    /// The length in bits: fixed, or when [`Plan::CHOICE`], `then` when
    /// the choice's parts hold and `otherwise` when not.
    pub then: u16,
    pub otherwise: u16,
}

impl Plan {
    /// The leaf does not exist in this generation class.
    pub const ABSENT: u8 = 1;
    /// Identifying bits past the first 64, or past the shortest form of a
    /// variable-length leaf: compared with the leaf's own mask.
    pub const WIDE: u8 = 2;
    /// `requires` is left to the reference code.
    pub const REQUIRES_SLOW: u8 = 4;
    /// The operand checks are left to the reference code.
    pub const OPERANDS_SLOW: u8 = 8;
    /// The length is chosen by the `choice` parts.
    pub const CHOICE: u8 = 16;
    /// The length is left to the reference code.
    pub const LENGTH_SLOW: u8 = 32;
    /// Some part may leave a value to a second unit or the reference code
    /// (without it, every part answers from its own bitmap).
    pub const ASKS: u8 = 64;
    /// With [`Plan::WIDE`]: some identifying bits lie past the first 64,
    /// where `mask` does not reach (without it, `mask` holds them all).
    pub const PAST_64: u8 = 128;

    /// Its `requires` conditions.
    pub fn requires(&self) -> Check {
        match self.flags & Plan::REQUIRES_SLOW {
            0 => Check::Table { start: self.units, len: self.requires as u16 },
            _ => Check::Slow,
        }
    }

    /// Its case's enum fields and operand sub-encodings.
    pub fn operands(&self) -> Check {
        match self.flags & Plan::OPERANDS_SLOW {
            0 => Check::Table { start: self.units + self.requires as u32, len: self.operands as u16 },
            _ => Check::Slow,
        }
    }

    /// Its length.
    pub fn length(&self) -> Length {
        if self.flags & Plan::LENGTH_SLOW != 0 {
            Length::Slow
        } else if self.flags & Plan::CHOICE != 0 {
            let start = self.units + self.requires as u32 + self.operands as u32;
            Length::Choice { start, len: self.choice as u16, then: self.then, otherwise: self.otherwise }
        } else {
            Length::Fixed(self.then)
        }
    }
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
///
/// A unit read by intervals ([`Unit::CUTS`] in `range_len`) reads the bits
/// `lo..lo + width` as one number and answers per interval of it: bit `k` of
/// its bitmap for the `k`-th interval of the cut points at
/// `cuts[range_start]`. The generator makes one only for a value that every
/// condition compares with constants, and only as a second unit (a literal
/// that may not hold an inline constant's value, once the form bits say it
/// is a literal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// The one range read, when `range_len` is 1 (read without `ranges`).
    pub lo: u8,
    pub width: u8,
    pub range_start: u32,
    pub range_len: u8,
    pub bitmap: u32,
    /// [`NO_ASK`] when every value is answered.
    pub ask: u32,
    /// Where the units answering the `ask` values start in `subs`;
    /// [`NO_ASK`] when the reference code answers them all.
    pub sub: u32,
    /// For an operand check: the case and field the reference code checks
    /// for a value left to it (the others are answered); [`NO_FIELD`] for a
    /// part it cannot check alone.
    pub case: u16,
    pub field: u16,
}

impl Unit {
    /// `range_len` of a unit read by intervals.
    pub const CUTS: u8 = u8::MAX;
}

/// A [`Unit`] whose part the reference code cannot check alone.
pub const NO_FIELD: u16 = u16::MAX;

/// A [`Unit`] that answers for every value (in `ask`), or a value no unit
/// answers (in `sub` and `subs`).
pub const NO_ASK: u32 = u32::MAX;

impl Dispatch {
    /// The class of generation `gen_`.
    #[inline]
    pub fn class_of(&self, gen_: u32) -> usize {
        self.gen_bounds.iter().take_while(|&&b| b <= gen_).count()
    }

    /// The plans of generation `gen_`'s class, by leaf.
    #[inline]
    pub fn plans_for(&self, gen_: u32) -> &'static [Plan] {
        let classes = self.gen_bounds.len() + 1;
        let leaves = self.plans.len() / classes;
        let class = self.class_of(gen_);
        self.plans.get(class * leaves..(class + 1) * leaves).unwrap_or(&[])
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
        match self.answer(start, len, bits)? {
            Answer::Holds => Some(true),
            Answer::Fails => Some(false),
            Answer::Ask(_) => None,
        }
    }

    /// Whether every part of a check none of whose parts asks holds for
    /// `bits`: one bitmap lookup per part, with no early exit to mispredict.
    #[inline]
    fn all_hold(&self, start: u32, len: u8, bits: Bits) -> bool {
        let units = self.units.get(start as usize..start as usize + len as usize).unwrap_or(&[]);
        let mut ok = true;
        for u in units {
            ok &= self.index(u, bits).is_some_and(|i| self.bit(u.bitmap, i));
        }
        ok
    }

    /// [`Dispatch::holds`], saying which part is left to the reference code
    /// when only one is.
    #[inline]
    fn answer(&self, start: u32, len: u16, bits: Bits) -> Option<Answer<'_>> {
        let units = self.units.get(start as usize..start as usize + len as usize)?;
        let mut asked: Option<&Unit> = None;
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
                        if !self.bit(s.bitmap, self.sub_index(s, bits)?) {
                            return Some(Answer::Fails);
                        }
                    }
                    None => {
                        // A second part left to the engine: it checks all.
                        ask |= asked.is_some() || u.field == NO_FIELD;
                        asked = Some(u);
                    }
                }
            } else if !self.bit(u.bitmap, i) {
                return Some(Answer::Fails);
            }
        }
        Some(match asked {
            _ if ask => return None,
            Some(u) => Answer::Ask(u),
            None => Answer::Holds,
        })
    }

    /// The value of the bits unit `u` reads.
    #[inline]
    fn index(&self, u: &Unit, bits: Bits) -> Option<usize> {
        if u.range_len == 1 {
            return Some(((bits >> u.lo) as u64 & low_mask(u.width)) as usize);
        }
        let r = self.ranges.get(u.range_start as usize..u.range_start as usize + u.range_len as usize)?;
        Some(crate::bits::extract(bits, 0, r) as usize)
    }

    /// [`Dispatch::index`] of a unit that answers for a value another unit
    /// asks about: it may read its bits by intervals ([`Unit::CUTS`]).
    #[inline]
    fn sub_index(&self, u: &Unit, bits: Bits) -> Option<usize> {
        if u.range_len != Unit::CUTS {
            return self.index(u, bits);
        }
        let x = (bits >> u.lo) as u64 & low_mask(u.width);
        let at = u.range_start as usize;
        let n = *self.cuts.get(at)? as usize;
        let starts = self.cuts.get(at + 1..at + 1 + n)?;
        starts.partition_point(|&s| s <= x).checked_sub(1)
    }

    /// Bit `i` of the bitmap at `at`.
    #[inline]
    fn bit(&self, at: u32, i: usize) -> bool {
        self.bitmaps.get(at as usize + i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }
}

/// What the tables say of a check.
enum Answer<'a> {
    Holds,
    Fails,
    /// Every part holds but this one, which the reference code decides.
    Ask(&'a Unit),
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
    /// `plans` are those of `gen_`'s class.
    #[inline]
    pub(crate) fn decode_fast(&self, d: &Dispatch, plans: &[Plan], bits: Bits, gen_: u32) -> Option<Inst> {
        for &l in d.candidates(0, bits) {
            let p = plans.get(l as usize)?;
            if p.flags & (Plan::ABSENT | Plan::CHOICE | Plan::LENGTH_SLOW | Plan::WIDE) != 0 {
                if p.flags & Plan::ABSENT != 0 {
                    continue;
                }
                match self.decode_unusual(d, p, l, bits, gen_)? {
                    Some(inst) => return Some(inst),
                    None => continue,
                }
            }
            // The common case: a fixed length and identifying bits among
            // the first 64.
            let own = bits & mask_of(0, p.then as u32);
            if (own as u64) & p.mask != p.value {
                continue;
            }
            match self.checks_hold(d, p, l, own, gen_) {
                Some(true) => return Some(Inst { leaf: l, len: (p.then / 8) as u8, bits: own }),
                Some(false) => continue,
                None => return None,
            }
        }
        None
    }

    /// [`Isa::decode_fast`] for a leaf whose length is chosen or evaluated,
    /// or whose identifying bits reach past the first 64: `Some(None)` when
    /// the word is not this leaf (the next candidate may be it).
    fn decode_unusual(&self, d: &Dispatch, p: &Plan, l: u16, bits: Bits, gen_: u32) -> Option<Option<Inst>> {
        if p.flags & (Plan::WIDE | Plan::LENGTH_SLOW) == 0 {
            // A length chosen by tabulated parts (a GCN source that is a
            // literal), identifying bits in the plan.
            let Length::Choice { start, len, then, otherwise } = p.length() else { return None };
            let len_bits = if d.holds(start, len, bits)? { then } else { otherwise };
            let own = bits & mask_of(0, len_bits as u32);
            if (own as u64) & p.mask != p.value {
                return Some(None);
            }
            let inst = Inst { leaf: l, len: (len_bits / 8) as u8, bits: own };
            return Some(self.checks_hold(d, p, l, own, gen_)?.then_some(inst));
        }
        let leaf = &self.leaves[l as usize];
        if !leaf.exists_in(gen_) {
            return Some(None);
        }
        let len_bits = match p.length() {
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
            return Some(None);
        }
        Some(self.checks_hold(d, p, l, own, gen_)?.then_some(Inst { leaf: l, len: (len_bits / 8) as u8, bits: own }))
    }

    /// Whether the `requires` conditions and then the operand checks of
    /// leaf `l` hold for its own bits `own`: `Some(false)` when a condition
    /// fails (the next candidate may match), `None` when an operand fails or
    /// the tables leave it to the reference code.
    #[inline]
    fn checks_hold(&self, d: &Dispatch, p: &Plan, l: u16, own: Bits, gen_: u32) -> Option<bool> {
        if p.flags & (Plan::ASKS | Plan::REQUIRES_SLOW | Plan::OPERANDS_SLOW) == 0 {
            // The common case: every part answers from its bitmap.
            if !d.all_hold(p.units, p.requires, own) {
                return Some(false);
            }
            return d.all_hold(p.units + p.requires as u32, p.operands, own).then_some(true);
        }
        let required = match p.flags & Plan::REQUIRES_SLOW {
            0 => d.holds(p.units, p.requires as u16, own)?,
            _ => self.requires_hold(l, own, gen_),
        };
        if !required {
            return Some(false);
        }
        let ok = match p.flags & Plan::OPERANDS_SLOW {
            0 => match d.answer(p.units + p.requires as u32, p.operands as u16, own) {
                Some(Answer::Holds) => true,
                Some(Answer::Fails) => false,
                // A GCN literal: its own check only.
                Some(Answer::Ask(u)) => self.operand_holds(l, u.case, u.field as usize, own, gen_),
                None => self.operands_hold(l, own, gen_),
            },
            _ => self.operands_hold(l, own, gen_),
        };
        ok.then_some(true)
    }
}
