//! The decoder's first try: per generation class, a flat copy of the
//! decision tree whose ends name the first two leaves of their candidate
//! list as *probes*, each a leaf's identifying bits, the keys to its checks
//! and its length in half a cache line. Where no word can pass both, the
//! likelier is tried first (the generator's `direct` module says when the
//! order changes no answer).
//!
//! The general tables ([`crate::Dispatch`]) describe every leaf, whatever its
//! shape: a plan says which of several kinds of check to run, and decoding
//! branches on it per candidate, then reads the parts it refers to. Most
//! leaves need none of that generality: identifying bits and a few lookups
//! over the first 64 bits, perhaps a length chosen by one of them. A probe
//! holds exactly that, so decoding a word is a chain of loads (the tree's
//! levels, the probe, a byte per key) and a little arithmetic.
//!
//! A probe's checks are read by *key*: a run of the word's bits that indexes
//! a table of verdict bytes, each byte saying, for that value of the run,
//! whether a condition fails, an operand is invalid, the length is not the
//! one its choice names, and whether a further table must be asked. Every
//! check a leaf makes of one run of bits (a GCN source's code says whether
//! it is valid, whether it makes the instruction 8 bytes long, whether it
//! reads a literal) is one key, so one load: the verdicts of a probe are its
//! keys' bytes or-ed together (each verdict composes by or: a condition
//! fails when any of its parts fails, and so on). Its rarer checks (parts
//! of several runs, values read through a second table) sit behind one
//! test.
//!
//! A word the probes do not accept (a leaf of another shape, a value a part
//! leaves to a second table, an invalid word) is decoded by the general
//! tables, so results are the same by construction: a probe accepts a word
//! only where the general tables would answer the same leaf and length
//! (`tests/decode_tables.rs` checks both on every opcode and random words).

use std::ops::Deref;
use std::sync::OnceLock;

use crate::Inst;
use crate::bits::Bits;

/// The direct decoder of a target's first instruction group (see the module
/// documentation): its tables, checked once before a [`crate::Decoder`]
/// walks them without bounds checks (see [`Direct::trusted`]). Built by the
/// generator from the [`crate::Dispatch`] tables it sits beside; its tables
/// are read through [`Deref`], and cannot be changed once checked.
#[derive(Debug)]
pub struct Direct {
    tables: DirectTables,
    /// Whether every index the walk and the probes' keys follow lies within
    /// its table: found once, the first time a decoder asks.
    checked: OnceLock<bool>,
}

impl Deref for Direct {
    type Target = DirectTables;

    fn deref(&self) -> &DirectTables {
        &self.tables
    }
}

/// The tables of a [`Direct`] decoder.
#[derive(Debug, Clone, Copy)]
pub struct DirectTables {
    /// Where the walk starts: an entry (see [`DirectTables::entries`]).
    pub root: u64,
    /// The tree per generation class, `entries_per_class` entries each: a
    /// node ([`Direct::node`]) switches on some bits of the word, the child
    /// for value `v` at `first + v` in the class's block; any other entry
    /// ends the walk with the probes to try, `first | second << 16`
    /// (indices into `probes`, [`NO_PROBE`] where a leaf has no probe, and
    /// after it).
    ///
    /// A node holds its bits' mask, not their width, and so takes 64 bits:
    /// a level of the walk is then a shift, a mask and a load, where
    /// unpacking a width cost as much again (a GCN word walks two levels).
    pub entries: &'static [u64],
    pub entries_per_class: u32,
    pub probes: &'static [Probe],
    /// By probe, where its further parts and asks lie: what a word reads
    /// only when its keys say so, kept out of the probe so that two probes
    /// share a cache line.
    pub further: &'static [Further],
    /// The probes' parts that are not keys: reading more than one run of
    /// bits, past the shorter of their lengths, or past three keys.
    pub more: &'static [MorePart],
    /// The keys' tables of verdicts (see [`Key`]); bytes 0 and 1 are 0,
    /// what an unused key reads.
    pub verdicts: &'static [u8],
    /// The bitmaps of the further parts and asks (and of the parts the
    /// keys were tabulated from, which the builder keeps beside them).
    pub bitmaps: &'static [u64],
    /// The probes' checks of values read through a second table (see
    /// [`Ask`]).
    pub asks: &'static [Ask],
    /// The cut points of the asks' values, each ask's increasing from 0
    /// and followed by its buckets (see [`cut_buckets`]).
    pub cuts: &'static [u64],
}

/// The probe that matches no word: what an end of the walk holds after its
/// last leaf with a probe.
pub const NO_PROBE: u16 = 0;

/// One leaf as the direct decoder checks it, in one generation class: its
/// identifying bits, the keys to its checks, and its length, all within the
/// word's first 64 bits.
///
/// Checking one reads its three keys (an unused one reads bytes 0 and 1,
/// which say nothing; a probe whose first key is unused has none and reads
/// none) and or-s their verdicts; only when they say so, or `always` does,
/// are the rarer checks made, behind one test, from the probe's
/// [`Further`].
///
/// Half a cache line: a GCN corpus touching every opcode of three
/// generations walks some 5,000 probes, which at a whole line each (their
/// further checks' places inline) filled 334 KiB and, with the tree and the
/// code, spilled a 512 KiB second-level cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Probe {
    pub mask: u64,
    pub value: u64,
    /// The runs of bits its checks read, each with the verdicts of its
    /// values. Keys and `mask` read only bits within the shorter length, so
    /// that they are read on the word as it comes, before the length is
    /// known (which would put the length's lookup in front of every other);
    /// parts reading further are the probe's [`Further`] checks.
    pub keys: [Key; 3],
    pub leaf: u16,
    /// Its length in bytes in the low four bits, and in the high four the
    /// length when a key says [`Key::OTHERWISE`] (the same for a fixed
    /// length): see [`Probe::lens`].
    pub lens: u8,
    /// [`Key::ASKS`] when the further checks are made whatever the keys
    /// say (it has further parts, or asks whose asking values no key
    /// tells), else 0: or-ed into what they say, so that the usual word
    /// is told by one test.
    pub always: u8,
}

impl Probe {
    /// Most bytes a length of a probe may be.
    pub const MAX_LEN: u8 = 15;

    /// [`Probe::lens`] of a probe `then` bytes long, or `otherwise` when a
    /// key says [`Key::OTHERWISE`]; `None` past [`Probe::MAX_LEN`].
    pub const fn lens(then: u8, otherwise: u8) -> Option<u8> {
        match then <= Probe::MAX_LEN && otherwise <= Probe::MAX_LEN {
            true => Some(then | otherwise << 4),
            false => None,
        }
    }

    /// Its length in bytes when its keys say `said`: a shift by
    /// [`Key::OTHERWISE`]'s bit, four when it is set, not a branch.
    #[inline(always)]
    pub const fn len(&self, said: u8) -> u8 {
        const { assert!(Key::OTHERWISE == 4, "the shift picks the high four bits") };
        (self.lens >> (said & Key::OTHERWISE)) & 15
    }

    /// Its length when no key says [`Key::OTHERWISE`].
    pub const fn then(&self) -> u8 {
        self.lens & 15
    }

    /// Its length when one does.
    pub const fn otherwise(&self) -> u8 {
        self.lens >> 4
    }
}

/// Where a probe's rarer checks lie: `more_len` further parts from
/// [`DirectTables::more`]`[more]`, and `asks_len` checks of values read
/// through a second table from [`DirectTables::asks`]`[asks]`, made only
/// when a key says [`Key::ASKS`] (or the probe's `always` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Further {
    pub more: u32,
    pub asks: u16,
    pub more_len: u8,
    pub asks_len: u8,
}

impl Further {
    /// No further checks.
    pub const NONE: Further = Further { more: 0, asks: 0, more_len: 0, asks_len: 0 };
}

/// A run of bits of the word, at most [`Key::MAX_BITS`] of them from `lo`,
/// whose value indexes the verdicts at byte `at` of
/// [`DirectTables::verdicts`]: a byte of [`Key::FAILS`], [`Key::INVALID`],
/// [`Key::OTHERWISE`] and [`Key::ASKS`] per value.
///
/// Four bytes: bits 0 to 5 hold `64 - lo - width`, bits 6 to 11 `64 -
/// width`, the rest `at`. The run's value is the word shifted left by the
/// first, which drops the bits above it, then right by the second, which
/// drops those below: two shifts by amounts read straight from the key
/// (a shift uses the low six bits of its amount), where a mask would need
/// bits of its own.
///
/// One run only: a key is read on every word, and gathering up to three
/// runs (a GCN VOP3 source's check reads its code, its abs bit and its neg
/// bit) cost every word more than reading such parts further costs the
/// words that have them (GCN, in a decode loop: 16.3 ns a word with one
/// run, 19.9 ns with three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Key(pub u32);

impl Key {
    /// A `requires` condition fails: the next candidate may match.
    pub const FAILS: u8 = 1;
    /// An operand check fails: the word is the leaf's, but the general
    /// tables must say how it is invalid.
    pub const INVALID: u8 = 2;
    /// A part choosing the length fails: the probe's other length.
    pub const OTHERWISE: u8 = 4;
    /// An operand's value reads further bits: the probe's asks judge them.
    pub const ASKS: u8 = 8;

    /// The key read by no probe: the top bit, its verdicts bytes 0 and 1,
    /// which say nothing.
    pub const UNUSED: Key = Key(63 << 6);

    /// Most bits a key reads: its verdicts are a byte per value (4 KiB);
    /// a wider operand part is read further, by a bitmap.
    pub const MAX_BITS: u32 = 12;

    /// Most bytes of verdicts before a key's table: `at` has 20 bits.
    pub const MAX_AT: u32 = (1 << 20) - 1;

    /// The key over `width` bits from `lo` with verdicts at byte `at`, or
    /// `None` when they do not fit one (no bits or more than
    /// [`Key::MAX_BITS`], past the first 64, `at` past [`Key::MAX_AT`]).
    pub const fn new(lo: u32, width: u32, at: u32) -> Option<Key> {
        if width == 0 || width > Key::MAX_BITS || lo + width > 64 || at > Key::MAX_AT {
            return None;
        }
        Some(Key((64 - lo - width) | (64 - width) << 6 | at << 12))
    }

    /// The first bit of its run (0 for a key whose shifts do not fit
    /// together, which [`Key::new`] never makes).
    pub const fn lo(self) -> u32 {
        64u32.saturating_sub(self.0 & 63).saturating_sub(self.width())
    }

    /// The bits of its run: 1 to 64, as the key's shifts read it (at most
    /// [`Key::MAX_BITS`] in a key [`Key::new`] made).
    pub const fn width(self) -> u32 {
        64 - (self.0 >> 6 & 63)
    }

    /// The largest value of its run: its verdicts are `mask() + 1` bytes.
    pub const fn mask(self) -> u64 {
        u64::MAX >> (self.0 >> 6 & 63)
    }

    /// Whether its shifts read a run [`Key::new`] could have made (at
    /// most [`Key::MAX_BITS`] bits, within the first 64): it is the key
    /// `new` makes of its own run.
    pub fn fits(self) -> bool {
        Key::new(self.lo(), self.width(), self.at()) == Some(self)
    }

    /// Where its verdicts start.
    pub const fn at(self) -> u32 {
        self.0 >> 12
    }

    /// The same run with its verdicts at `at` (`None` past
    /// [`Key::MAX_AT`]).
    pub const fn with_at(self, at: u32) -> Option<Key> {
        Key::new(self.lo(), self.width(), at)
    }

    /// The verdicts of `word`'s value of the run (as [`Key::INVALID`] past
    /// the table's end, which the builder never leaves).
    #[cfg(test)]
    fn verdict(&self, verdicts: &[u8], word: u64) -> u8 {
        // SAFETY: not trusted, so checked.
        unsafe { self.verdict_in::<false>(verdicts, word) }
    }

    /// `Key::verdict`, unchecked when `TRUSTED`.
    ///
    /// # Safety
    /// When `TRUSTED`, `at + mask` must lie within `verdicts` (what
    /// [`DirectTables::valid`] checks of every probe's keys).
    #[inline(always)]
    unsafe fn verdict_in<const TRUSTED: bool>(&self, verdicts: &[u8], word: u64) -> u8 {
        let run = word.wrapping_shl(self.0).wrapping_shr(self.0 >> 6);
        // Wrapping: a key no builder makes may read a run of 64 bits, which
        // an unchecked table then finds past its end rather than panic.
        let i = ((self.0 >> 12) as usize).wrapping_add(run as usize);
        // SAFETY: the caller's.
        unsafe { load::<u8, TRUSTED>(verdicts, i) }.copied().unwrap_or(Key::INVALID)
    }
}

/// An operand check that reads more bits only for some values of its own:
/// an ir3 source whose form bits say "float table" reads an index, a GCN
/// source whose code says "literal" reads the literal's 32 bits, which may
/// not hold an inline constant's value. The further bits are a part of
/// their own (`sub`), or a wide value judged by the interval of `cuts` it
/// falls in (the spec compares it only with constants, so the answer is the
/// same throughout an interval).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Ask {
    /// The operand's own bits, looked up in a bitmap of all the values
    /// that read further, for this ask and the `skip - 1` after it (those
    /// of the same operand): when none does, they are all skipped.
    pub any: Part,
    pub skip: u8,
    /// The same bits, looked up in a bitmap of the values this ask judges
    /// (the operand's part in the probe lets them pass); one reading no
    /// bits ([`Part::ALWAYS`]) is not looked up: the ask judges every
    /// value `any` lets through (an operand with one ask, or asks folded
    /// into one).
    pub when: Part,
    /// The further bits when `cuts_len` is 0: a part of their own, or the
    /// operand's bits and the further ones together, where the values of
    /// one operand that read different further bits were folded into one
    /// ask (up to four runs).
    pub sub: MorePart,
    /// Otherwise the wide value: `width` bits (below 64) from `lo`.
    pub lo: u8,
    pub width: u8,
    /// Its cut points, at [`DirectTables::cuts`]`[cuts]`: the first of each
    /// interval, the first 0; its buckets follow them (see [`cut_buckets`]).
    pub cuts_len: u8,
    pub cuts: u32,
    /// Bit `k`: the value holds in interval `k`.
    pub answers: u64,
}

impl Ask {
    /// The words of [`DirectTables::cuts`] it reads from `cuts`: its cut
    /// points and their buckets, none when it reads no wide value.
    pub fn cuts_words(&self) -> usize {
        match self.cuts_len {
            0 => 0,
            n => n as usize + bucket_words(self.width as u32),
        }
    }

    /// Whether the ask holds for `word`: 1 or 0. Most words do not ask (a
    /// literal is the exception), so those return before the intervals.
    #[cfg(test)]
    fn holds(&self, bitmaps: &[u64], cuts: &[u64], word: u64) -> u64 {
        // SAFETY: not trusted, so checked.
        unsafe { self.holds_in::<false>(bitmaps, cuts, word) }
    }

    /// `Ask::holds`, unchecked when `TRUSTED`.
    ///
    /// # Safety
    /// When `TRUSTED`, its parts' bitmaps must lie within `bitmaps` and
    /// `cuts` be its cut points (what [`DirectTables::valid`] checks).
    #[inline(always)]
    unsafe fn holds_in<const TRUSTED: bool>(&self, bitmaps: &[u64], cuts: &[u64], word: u64) -> u64 {
        // SAFETY: the caller's.
        if self.when.reads_bits() && unsafe { self.when.holds_in::<TRUSTED>(bitmaps, word) } == 0 {
            return 1;
        }
        if self.cuts_len == 0 {
            // SAFETY: the caller's.
            return unsafe { self.sub.holds_in::<TRUSTED>(bitmaps, word) };
        }
        let width = (self.width & 63) as u32;
        let x = (word >> (self.lo & 63)) & ((1u64 << width) - 1);
        // The last cut point at or below `x` (the first is 0): within the
        // intervals its bucket meets (most buckets lie within one), by
        // halves without a branch on the comparisons (a literal's value is
        // any).
        let n = self.cuts_len as usize;
        let b = (x >> width.saturating_sub(BUCKET_BITS)) as usize;
        let e = cuts.get(n + b / 4).copied().unwrap_or(0) >> (16 * (b % 4));
        let (mut k, last) = ((e & 0xff) as usize, (e >> 8 & 0xff) as usize);
        let mut n = last.saturating_sub(k) + 1;
        while n > 1 {
            let half = n / 2;
            let c = cuts.get(k + half).copied().unwrap_or(u64::MAX);
            k = if c <= x { k + half } else { k };
            n -= half;
        }
        (self.answers >> (k & 63)) & 1
    }
}

/// Bits of an asked wide value that choose its bucket (see [`cut_buckets`]).
pub const BUCKET_BITS: u32 = 8;

/// Words of the buckets of a wide value of `width` bits: four a word.
pub const fn bucket_words(width: u32) -> usize {
    let bits = if width < BUCKET_BITS { width } else { BUCKET_BITS };
    (1usize << bits).div_ceil(4)
}

/// The buckets of the intervals `cuts` (increasing from 0) makes of the
/// values of `width` bits (below 64), laid after the cut points in
/// [`DirectTables::cuts`]: for each value of the top [`BUCKET_BITS`]
/// bits, the first and the last interval a value with those bits may lie
/// in (a byte each, sixteen bits a bucket, four buckets a word).
///
/// A GCN literal's 21 cut points (the inline constants among 2^32 values)
/// were five halvings a word, each a load waiting on the one before; a
/// literal's bucket lies within one interval unless it holds an inline
/// constant's neighbourhood (its top byte 0x00, 0x3e to 0x40, 0xbe to 0xc0
/// or 0xff), and the interval is then one load away.
pub fn cut_buckets(cuts: &[u64], width: u32) -> Vec<u64> {
    let bits = width.min(BUCKET_BITS);
    let shift = width - bits;
    let interval = |x: u64| cuts.iter().rposition(|&c| c <= x).unwrap_or(0) as u64;
    let mut words = vec![0u64; bucket_words(width)];
    for b in 0..1u64 << bits {
        let first = b << shift;
        let last = first | ((1u64 << shift) - 1);
        let bucket = interval(first) | interval(last) << 8;
        words[(b / 4) as usize] |= bucket << (16 * (b % 4));
    }
    words
}

/// A part of an [`Ask`]: up to two runs of bits of the word, at most
/// [`Part::MAX_BITS`] in all, looked up in a bitmap at word `bitmap` of
/// [`DirectTables::bitmaps`]. The index is the runs side by side, the first the
/// most significant.
///
/// Each run is stored as the rotation that brings it to its place in the
/// index and the index bits it fills, so that reading a part is two
/// rotations, two masks and an or: no shift amount is computed per word
/// (a rotation needs no guard against shifting by 64, and what it wraps
/// round lands outside the mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Part {
    /// Rotate the word right by `rot` and keep `mask`: the first run.
    pub rot: u8,
    /// Rotate it right by `rot2` and keep `mask2`: the second run (none
    /// when `mask2` is 0).
    pub rot2: u8,
    pub mask: u16,
    pub mask2: u16,
    pub bitmap: u16,
}

impl Part {
    /// Most bits a part reads: a 16-bit immediate whose cases read all of
    /// it is one part (its bitmap 8 KiB), so that its leaf needs no
    /// second table.
    pub const MAX_BITS: u32 = 16;

    /// The part that holds: word 0 of the bitmaps is all ones (an ask does
    /// not even look it up).
    pub const ALWAYS: Part = Part { rot: 0, rot2: 0, mask: 0, mask2: 0, bitmap: 0 };

    /// The part reading `runs` (`(lo, width)`, most significant first),
    /// or `None` when they do not fit one (more than two runs or
    /// [`Part::MAX_BITS`] bits, past the first 64 bits, a bitmap past word
    /// 65,535).
    pub fn new(runs: &[(u32, u32)], bitmap: u32) -> Option<Part> {
        let ([rot, rot2], [mask, mask2]) = placed(runs, Part::MAX_BITS)?;
        Some(Part { rot, rot2, mask, mask2, bitmap: u16::try_from(bitmap).ok()? })
    }

    /// Whether the part holds for `word`: 1 or 0, without a branch.
    #[cfg(test)]
    fn holds(&self, bitmaps: &[u64], word: u64) -> u64 {
        // SAFETY: not trusted, so checked.
        unsafe { self.holds_in::<false>(bitmaps, word) }
    }

    /// Whether it reads any bit of the word (its index is not always 0).
    #[inline(always)]
    pub fn reads_bits(&self) -> bool {
        self.mask | self.mask2 != 0
    }

    /// The bits of its index: its bitmap has `1 << index_bits()` bits.
    pub fn index_bits(&self) -> u32 {
        16 - (self.mask | self.mask2).leading_zeros()
    }

    /// `Part::holds`, unchecked when `TRUSTED`.
    ///
    /// # Safety
    /// When `TRUSTED`, its bitmap must lie within `bitmaps`.
    #[inline(always)]
    unsafe fn holds_in<const TRUSTED: bool>(&self, bitmaps: &[u64], word: u64) -> u64 {
        let i = (word.rotate_right(self.rot as u32) & self.mask as u64)
            | (word.rotate_right(self.rot2 as u32) & self.mask2 as u64);
        // SAFETY: the caller's: `i` is below `1 << index_bits()`.
        unsafe { bit::<TRUSTED>(bitmaps, self.bitmap as usize, i) }
    }
}

/// A probe's part that is not a key, reading more than one run of bits,
/// past the shorter of its lengths, or past its three keys: up to four
/// runs, at most [`MorePart::MAX_BITS`] in all, looked up in the bitmap at
/// word `bitmap` of [`DirectTables::bitmaps`].
///
/// The runs are gathered side by side with one multiplication: the word
/// rotated right by `rot` and kept by `mask` holds the runs where each
/// lands, by `mul`, in its place among the top bits of the product, which
/// `shift` brings down (the way chess engines index sliding attacks). A
/// GCN VOP3 source's check reads its code, its abs bit and its neg bit, far
/// apart: rotating, masking and or-ing each run cost three times what the
/// multiplication does. [`MorePart::gathering`] makes sure no other product of
/// runs and multiplier reaches the top bits, for every value of the runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct MorePart {
    pub mask: u64,
    pub mul: u64,
    pub bitmap: u32,
    pub rot: u8,
    pub shift: u8,
}

impl MorePart {
    /// Most bits a further part reads (its bitmap 8 KiB): a 16-bit
    /// immediate whose cases read all of it (GCN's packed hardware-register
    /// operand) is one part, so that its leaf needs no second table.
    pub const MAX_BITS: u32 = 16;

    /// The part that holds: it reads no bits, and word 0 of the bitmaps is
    /// all ones.
    pub const ALWAYS: MorePart = MorePart { mask: 0, mul: 0, bitmap: 0, rot: 0, shift: 63 };

    /// A part gathering `runs` (`(lo, width)`), its bitmap at word 0:
    /// `None` when they do not fit (more than four runs or
    /// [`MorePart::MAX_BITS`] bits, past the first 64 bits, overlapping) or
    /// no rotation lets one multiplication gather them. Its index holds the
    /// runs side by side, in the order given (the first most significant)
    /// when one multiplication can, else in the order they lie in the word,
    /// runs close together taken with the bits between them (which read
    /// as zeros) while the index stays within [`MorePart::MAX_BITS`]: its
    /// bitmap must be laid out by [`MorePart::index`], and has
    /// [`MorePart::index_bits`] bits.
    ///
    /// Each run is placed among the top bits of the product; the multiplier
    /// adds the rotated word shifted left by each run's distance to its
    /// place. What else those shifts add must stay below the top bits with
    /// no carry into them, or fall off the end: that is checked on every
    /// value of the runs (at most 65,536), for each layout and rotation
    /// tried.
    pub fn gathering(runs: &[(u32, u32)]) -> Option<MorePart> {
        let runs: Vec<(u32, u32)> = runs.iter().copied().filter(|r| r.1 > 0).collect();
        let total: u32 = runs.iter().map(|r| r.1).sum();
        if runs.len() > 4 || total > MorePart::MAX_BITS || runs.iter().any(|&(lo, w)| lo + w > 64) {
            return None;
        }
        let mut by_place = runs.clone();
        by_place.sort_by_key(|r| std::cmp::Reverse(r.0));
        if by_place.windows(2).any(|p| p[1].0 + p[1].1 > p[0].0) {
            return None;
        }
        if total == 0 {
            return Some(MorePart::ALWAYS);
        }
        // The layouts to try: the runs as given, by place, then with the
        // two closest runs taken as one, again and again.
        let mut layouts = vec![runs.clone(), by_place.clone()];
        let mut chunks = by_place;
        while chunks.len() > 1 {
            let gap = |k: usize| chunks[k].0 - (chunks[k + 1].0 + chunks[k + 1].1);
            let k = (0..chunks.len() - 1).min_by_key(|&k| gap(k))?;
            let (hi, lo) = (chunks[k], chunks[k + 1]);
            chunks[k] = (lo.0, hi.0 + hi.1 - lo.0);
            chunks.remove(k + 1);
            if chunks.iter().map(|c| c.1).sum::<u32>() > MorePart::MAX_BITS {
                break;
            }
            layouts.push(chunks.clone());
        }
        // Single bits first: a run landing on another's place shows there.
        let bits = runs.iter().flat_map(|&(lo, w)| (lo..lo + w).map(|b| 1u64 << b));
        let words: Vec<u64> = bits.chain((0..1u64 << total).map(|v| scatter(&runs, v))).collect();
        let mask = runs.iter().fold(0u64, |m, &(lo, w)| m | ((1u64 << w) - 1) << lo);
        layouts.iter().find_map(|layout| {
            let width: u32 = layout.iter().map(|c| c.1).sum();
            (0..64).find_map(|rot| {
                let (mut mul, mut below) = (0u64, width);
                for &(lo, w) in layout {
                    below -= w;
                    // Where the chunk lies once the word is rotated; it may
                    // not wrap round.
                    let at = (lo + 64 - rot) % 64;
                    let to = 64 - width + below;
                    if at + w > 64 || at > to {
                        return None;
                    }
                    mul |= 1u64 << (to - at);
                }
                let part = MorePart {
                    mask: mask.rotate_right(rot),
                    mul,
                    bitmap: 0,
                    rot: rot as u8,
                    shift: (64 - width) as u8,
                };
                words.iter().all(|&w| part.index(w) == gather(layout, w)).then_some(part)
            })
        })
    }

    /// The bits of its index, below [`MorePart::MAX_BITS`]: its bitmap has
    /// `1 << index_bits()` bits.
    pub fn index_bits(&self) -> u32 {
        (64 - (self.shift & 63) as u32).min(MorePart::MAX_BITS)
    }

    /// Where `word` looks in the bitmap: its runs side by side.
    #[inline(always)]
    pub fn index(&self, word: u64) -> u64 {
        (word.rotate_right(self.rot as u32) & self.mask).wrapping_mul(self.mul) >> (self.shift & 63)
    }

    /// Whether the part holds for `word`: 1 or 0.
    #[cfg(test)]
    fn holds(&self, bitmaps: &[u64], word: u64) -> u64 {
        // SAFETY: not trusted, so checked.
        unsafe { self.holds_in::<false>(bitmaps, word) }
    }

    /// `MorePart::holds`, unchecked when `TRUSTED`.
    ///
    /// # Safety
    /// When `TRUSTED`, its bitmap must lie within `bitmaps`, and its index
    /// read at most [`MorePart::MAX_BITS`] bits.
    #[inline(always)]
    unsafe fn holds_in<const TRUSTED: bool>(&self, bitmaps: &[u64], word: u64) -> u64 {
        // SAFETY: the caller's.
        unsafe { bit::<TRUSTED>(bitmaps, self.bitmap as usize, self.index(word)) }
    }
}

/// The value of `runs` (`(lo, width)`, most significant first) in `word`,
/// side by side.
pub fn gather(runs: &[(u32, u32)], word: u64) -> u64 {
    runs.iter().fold(0, |v, &(lo, w)| v << w | (word >> lo) & ((1u64 << w) - 1))
}

/// The word holding `value` in `runs` (`(lo, width)`, most significant
/// first, side by side as [`gather`] reads them) and zeros elsewhere.
pub fn scatter(runs: &[(u32, u32)], value: u64) -> u64 {
    let mut below: u32 = runs.iter().map(|r| r.1).sum();
    let mut word = 0;
    for &(lo, w) in runs {
        below -= w;
        word |= (value >> below & ((1u64 << w) - 1)) << lo;
    }
    word
}

/// Where each of `runs` (`(lo, width)`, most significant first) goes in a
/// part's index: the rotation that brings it there and the index bits it
/// fills (the runs after it fill the bits below); runs not given fill
/// nothing. `None` for more than `N` runs or `max` bits, or a run past the
/// first 64 bits.
fn placed<const N: usize>(runs: &[(u32, u32)], max: u32) -> Option<([u8; N], [u16; N])> {
    let mut below: u32 = runs.iter().map(|r| r.1).sum();
    if runs.len() > N || below > max || runs.iter().any(|&(lo, w)| w > 0 && lo + w > 64) {
        return None;
    }
    let (mut rot, mut mask) = ([0; N], [0; N]);
    for (k, &(lo, w)) in runs.iter().enumerate() {
        below -= w;
        // Bit `lo + t` goes to `below + t`: right by `lo - below`, mod 64.
        rot[k] = (lo.wrapping_sub(below) & 63) as u8;
        mask[k] = (((1u32 << w) - 1) << below) as u16;
    }
    Some((rot, mask))
}

/// Bit `i` of the bitmap starting at word `at` of `bitmaps`: 1 or 0 (0
/// past their end).
///
/// # Safety
/// When `TRUSTED`, word `at + i / 64` must exist.
#[inline(always)]
unsafe fn bit<const TRUSTED: bool>(bitmaps: &[u64], at: usize, i: u64) -> u64 {
    // SAFETY: the caller's.
    unsafe { load::<u64, TRUSTED>(bitmaps, at + (i / 64) as usize) }.map_or(0, |b| (b >> (i % 64)) & 1)
}

/// What checking a probe says of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// The word is this leaf, this many bytes long.
    Is(u16, u8),
    /// Its identifying bits or a condition fail: the next candidate may match.
    Not,
    /// The word is this leaf's, or the general tables must say.
    Unsure,
}

/// The probe that matches no word (its identifying bits can hold no value),
/// at [`NO_PROBE`] in every [`DirectTables::probes`].
pub const NOTHING: Probe = Probe { mask: 0, value: 1, keys: [Key::UNUSED; 3], leaf: 0, lens: 0, always: 0 };

/// Element `i` of `s`, not checked when `TRUSTED`.
///
/// # Safety
/// When `TRUSTED`, `i` must be below `s.len()`.
#[inline(always)]
unsafe fn load<T, const TRUSTED: bool>(s: &[T], i: usize) -> Option<&T> {
    match TRUSTED {
        // SAFETY: the caller's.
        true => Some(unsafe { s.get_unchecked(i) }),
        false => s.get(i),
    }
}

/// A [`Direct`] decoder whose tables were checked, with the tree of one
/// generation class: what a [`crate::Decoder`] walks without bounds checks.
/// Only [`Direct::trusted`] makes one.
#[derive(Debug, Clone, Copy)]
pub struct Trusted<'a> {
    /// The tables, copied here: a caller holding the decoder reads their
    /// root and where the probes and verdicts lie one load from it rather
    /// than two (the walk's first level waits for the root).
    tables: DirectTables,
    entries: &'a [u64],
}

impl Trusted<'_> {
    /// [`Direct::identify`], without bounds checks.
    #[inline(always)]
    pub fn identify(&self, word: u64) -> Option<(u16, u8)> {
        // SAFETY: `Direct::trusted` made this only for checked tables and
        // one whole class's tree.
        unsafe { self.tables.identify_in::<true>(self.entries, word) }
    }
}

impl DirectTables {
    /// Whether every index the walk and the probes' checks follow lies
    /// within its table: each class's tree is `entries_per_class` entries
    /// whose nodes' children lie within it, each end names probes that
    /// exist, each probe's keys read verdicts that exist, its further parts
    /// and asks exist, and their bitmaps and cut points do. What the generator builds
    /// always is; [`Direct::trusted`] refuses tables that are not.
    pub fn valid(&self) -> bool {
        let n = self.entries_per_class as usize;
        let probes = self.probes.len();
        let entry = |e: u64| match Direct::is_node(e) {
            true => (e as u32 as usize).checked_add((e >> 48) as usize).is_some_and(|last| last < n),
            false => (e as u16 as usize) < probes && ((e >> 16) as u16 as usize) < probes,
        };
        let keys = |p: &Probe| {
            p.keys.iter().all(|k| {
                k.fits() && (k.at() as usize).checked_add(k.mask() as usize).is_some_and(|i| i < self.verdicts.len())
            })
        };
        let within = |at: usize, len: usize, of: usize| at.checked_add(len).is_some_and(|end| end <= of);
        let bitmap = |at: u32, bits: u32| within(at as usize, (1usize << bits).div_ceil(64), self.bitmaps.len());
        // The index is the product shifted right by `shift & 63`: at most 16
        // bits unless no bit is kept.
        let shifted = |m: &MorePart| (64 - MorePart::MAX_BITS as u8..64).contains(&m.shift);
        let more = |m: &MorePart| (m.mask == 0 || shifted(m)) && bitmap(m.bitmap, m.index_bits());
        let part = |p: &Part| bitmap(p.bitmap as u32, p.index_bits());
        // Each bucket names intervals that exist, the first not past the
        // last (the search reads cut points by checked loads; a bucket
        // otherwise would only give a wrong answer).
        let buckets = |a: &Ask| {
            let n = a.cuts_len as usize;
            let words = self.cuts.get(a.cuts as usize + n..a.cuts as usize + a.cuts_words()).unwrap_or(&[]);
            words.iter().all(|w| (0..4).all(|i| (w >> (16 * i) & 0xff) <= (w >> (16 * i + 8) & 0xff)))
                && words.iter().all(|w| (0..4).all(|i| (w >> (16 * i + 8) & 0xff) < n as u64))
        };
        let ask = |a: &Ask| {
            part(&a.any)
                && part(&a.when)
                && more(&a.sub)
                && within(a.cuts as usize, a.cuts_words(), self.cuts.len())
                && buckets(a)
        };
        let further = |f: &Further| {
            within(f.more as usize, f.more_len as usize, self.more.len())
                && within(f.asks as usize, f.asks_len as usize, self.asks.len())
        };
        let whole = match n {
            0 => self.entries.is_empty(),
            _ => self.entries.len().is_multiple_of(n),
        };
        whole
            && entry(self.root)
            && self.entries.iter().all(|&e| entry(e))
            && self.probes.iter().all(keys)
            && self.further.len() == self.probes.len()
            && self.further.iter().all(further)
            && self.verdicts.get(..2) == Some(&[0, 0])
            && self.more.iter().all(more)
            && self.asks.iter().all(ask)
    }
}

impl Direct {
    /// The direct decoder over `tables`, to be checked when first trusted.
    pub const fn new(tables: DirectTables) -> Direct {
        Direct { tables, checked: OnceLock::new() }
    }

    /// Its tables.
    pub fn tables(&self) -> &DirectTables {
        &self.tables
    }

    /// The direct decoder that decodes nothing (every word goes to the
    /// general tables).
    pub const fn empty() -> Direct {
        Direct::new(DirectTables {
            root: 0,
            entries: &[],
            entries_per_class: 0,
            probes: &[NOTHING],
            further: &[Further::NONE],
            more: &[],
            verdicts: &[0, 0],
            bitmaps: &[!0],
            asks: &[],
            cuts: &[],
        })
    }

    /// The tree of generation class `class` to walk without bounds checks,
    /// or `None` when the tables are not valid ([`DirectTables::valid`],
    /// checked once) or have no such class.
    pub fn trusted(&self, class: usize) -> Option<Trusted<'_>> {
        let entries = self.entries_of(class);
        let whole = entries.len() == self.entries_per_class as usize;
        (whole && *self.checked.get_or_init(|| self.valid())).then_some(Trusted { tables: self.tables, entries })
    }

    /// The entry of [`DirectTables::entries`] that switches on `width` bits (1
    /// to 16) of the word from bit `lo`, its children from `first`: `first |
    /// lo << 32 | mask << 48`, a node because its mask is not 0.
    pub const fn node(lo: u32, width: u32, first: u32) -> u64 {
        first as u64 | ((lo & 63) as u64) << 32 | (((1u64 << width) - 1) & 0xffff) << 48
    }

    /// Whether entry `e` of [`DirectTables::entries`] is a node.
    pub const fn is_node(e: u64) -> bool {
        e >> 48 != 0
    }

    /// The tree of generation class `class`.
    pub fn entries_of(&self, class: usize) -> &'static [u64] {
        let n = self.entries_per_class as usize;
        self.entries.get(class * n..(class + 1) * n).unwrap_or(&[])
    }

    /// Decodes `word` (the first 64 bits of the instruction stream) with
    /// the tree of one class (see [`Direct::entries_of`]): `None` when the
    /// general tables must decide.
    #[inline]
    pub fn decode(&self, entries: &[u64], word: u64) -> Option<Inst> {
        let (leaf, len) = self.identify(entries, word)?;
        Some(inst_of(leaf, len, word))
    }

    /// The leaf and length in bytes of `word`, as [`Direct::decode`]
    /// decodes it: what a caller holding the instruction's bits needs.
    #[inline(always)]
    pub fn identify(&self, entries: &[u64], word: u64) -> Option<(u16, u8)> {
        // SAFETY: not trusted, so checked.
        unsafe { self.identify_in::<false>(entries, word) }
    }
}

impl DirectTables {
    /// [`Direct::identify`], without bounds checks when `TRUSTED` (a
    /// word's decoding is a few loads, and checking each cost a tenth of
    /// it).
    ///
    /// # Safety
    /// When `TRUSTED`, the tables must be valid ([`DirectTables::valid`])
    /// and `entries` one class's whole tree.
    #[inline(always)]
    unsafe fn identify_in<const TRUSTED: bool>(&self, entries: &[u64], word: u64) -> Option<(u16, u8)> {
        let mut e = self.root;
        while Direct::is_node(e) {
            let v = (word >> ((e >> 32) & 63)) & (e >> 48);
            // SAFETY: the caller's: a node's children lie within the tree.
            e = *unsafe { load::<u64, TRUSTED>(entries, e as u32 as usize + v as usize) }?;
        }
        // SAFETY: the caller's: an end names probes that exist.
        match unsafe { self.check::<TRUSTED>(e as u16, word) }? {
            Verdict::Is(leaf, len) => Some((leaf, len)),
            // SAFETY: as above.
            Verdict::Not => match unsafe { self.check::<TRUSTED>((e >> 16) as u16, word) }? {
                Verdict::Is(leaf, len) => Some((leaf, len)),
                _ => None,
            },
            Verdict::Unsure => None,
        }
    }

    /// Checks probe `at` against `word`.
    ///
    /// # Safety
    /// When `TRUSTED`, the tables must be valid and `at` a probe's index.
    #[inline(always)]
    unsafe fn check<const TRUSTED: bool>(&self, at: u16, word: u64) -> Option<Verdict> {
        // SAFETY: the caller's.
        let p = unsafe { load::<Probe, TRUSTED>(self.probes, at as usize) }?;
        let v = self.verdicts;
        // A probe with no key (most of RV32I's) skips their lookups; one
        // with any reads all three, unused ones reading byte 0, rather than
        // branch on each.
        // SAFETY: the caller's: valid tables' keys read verdicts that exist.
        let said = match p.keys[0] {
            Key::UNUSED => 0,
            _ => unsafe {
                p.keys[0].verdict_in::<TRUSTED>(v, word)
                    | p.keys[1].verdict_in::<TRUSTED>(v, word)
                    | p.keys[2].verdict_in::<TRUSTED>(v, word)
            },
        };
        if word & p.mask != p.value || said & Key::FAILS != 0 {
            return Some(Verdict::Not);
        }
        let len = p.len(said);
        // One test for the usual word: no key finds an operand invalid or
        // asks, and the probe has nothing further to check whatever they say.
        let asks = said | p.always;
        if asks & (Key::INVALID | Key::ASKS) == 0 {
            return Some(Verdict::Is(p.leaf, len));
        }
        let mut valid = said & Key::INVALID == 0;
        if asks & Key::ASKS != 0 {
            valid &= unsafe { self.further::<TRUSTED>(at, word & len_mask(len)) }?;
        }
        Some(if valid { Verdict::Is(p.leaf, len) } else { Verdict::Unsure })
    }

    /// Whether the further parts and asks of probe `at` hold for `own`
    /// (the word's bits within the chosen length).
    ///
    /// # Safety
    /// When `TRUSTED`, the tables must be valid and `at` a probe's index.
    #[inline(always)]
    unsafe fn further<const TRUSTED: bool>(&self, at: u16, own: u64) -> Option<bool> {
        let bm = self.bitmaps;
        // SAFETY: the caller's: valid tables have a `Further` per probe.
        let p = unsafe { load::<Further, TRUSTED>(self.further, at as usize) }?;
        // One ask and no further part (a literal's value): the loop below
        // without its bookkeeping.
        if p.more_len == 0 && p.asks_len == 1 {
            // SAFETY: the caller's: a valid table's probe names asks that
            // exist, whose bitmaps and cut points do too.
            let a = unsafe { load::<Ask, TRUSTED>(self.asks, p.asks as usize) }?;
            if unsafe { a.any.holds_in::<TRUSTED>(bm, own) } == 0 {
                return Some(true);
            }
            let cuts = unsafe { tail::<u64, TRUSTED>(self.cuts, a.cuts as usize) }?;
            return Some(unsafe { a.holds_in::<TRUSTED>(bm, cuts, own) } != 0);
        }
        unsafe { self.further_generally::<TRUSTED>(p, own) }
    }

    /// [`DirectTables::further`] for several asks or further parts.
    ///
    /// # Safety
    /// As [`DirectTables::further`], `p` a valid table's.
    #[inline(never)]
    unsafe fn further_generally<const TRUSTED: bool>(&self, p: &Further, own: u64) -> Option<bool> {
        let bm = self.bitmaps;
        let mut valid = true;
        // SAFETY (here and below): the caller's: valid tables' probes name
        // further parts and asks that exist, whose bitmaps and cut points
        // do too.
        let more = unsafe { slice::<MorePart, TRUSTED>(self.more, p.more as usize, p.more_len as usize) }?;
        for m in more {
            valid &= unsafe { m.holds_in::<TRUSTED>(bm, own) } != 0;
        }
        let asks = unsafe { slice::<Ask, TRUSTED>(self.asks, p.asks as usize, p.asks_len as usize) }?;
        let mut k = 0;
        while let Some(a) = asks.get(k) {
            if unsafe { a.any.holds_in::<TRUSTED>(bm, own) } == 0 {
                k += a.skip.max(1) as usize;
                continue;
            }
            // Its cut points and buckets and what follows them: the ask
            // reads only its own (their end is not computed per word).
            let cuts = unsafe { tail::<u64, TRUSTED>(self.cuts, a.cuts as usize) }?;
            valid &= unsafe { a.holds_in::<TRUSTED>(bm, cuts, own) } != 0;
            k += 1;
        }
        Some(valid)
    }
}

/// The elements of `s` from `at`, not checked when `TRUSTED`.
///
/// # Safety
/// When `TRUSTED`, `at` must be at most `s.len()`.
#[inline(always)]
unsafe fn tail<T, const TRUSTED: bool>(s: &[T], at: usize) -> Option<&[T]> {
    match TRUSTED {
        // SAFETY: the caller's.
        true => Some(unsafe { s.get_unchecked(at..) }),
        false => s.get(at..),
    }
}

/// The `len` elements of `s` from `at`, not checked when `TRUSTED`.
///
/// # Safety
/// When `TRUSTED`, `at + len` must be at most `s.len()`.
#[inline(always)]
unsafe fn slice<T, const TRUSTED: bool>(s: &[T], at: usize, len: usize) -> Option<&[T]> {
    match TRUSTED {
        // SAFETY: the caller's.
        true => Some(unsafe { s.get_unchecked(at..at + len) }),
        false => s.get(at..at + len),
    }
}

/// The instruction the direct decoder identified in `word` as `leaf`,
/// `len` bytes long: its own bits, those past its length cleared.
#[inline(always)]
pub(crate) fn inst_of(leaf: u16, len: u8, word: u64) -> Inst {
    Inst { leaf, len, bits: Bits::from(word & len_mask(len)) }
}

/// The bits of an instruction `len` bytes long, within the first 64.
#[inline(always)]
pub(crate) fn len_mask(len: u8) -> u64 {
    /// By length in bytes, 8 and over all ones: a load, not a branch and a
    /// shift, and one for every byte value, so that the index needs no
    /// bound (2 KiB, of which a word reads the first cache line).
    static MASKS: [u64; 256] = {
        let mut m = [!0u64; 256];
        let mut k = 0;
        while k < 8 {
            m[k] = (1 << (k * 8)) - 1;
            k += 1;
        }
        m
    };
    MASKS[len as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn part(lo: u8, width: u8, bitmap: u16) -> Part {
        Part { rot: lo, rot2: 0, mask: (1 << width) - 1, mask2: 0, bitmap }
    }

    const fn key(lo: u32, width: u32, at: u32) -> Key {
        Key::new(lo, width, at).expect("a key that fits")
    }

    const fn lens(then: u8, otherwise: u8) -> u8 {
        Probe::lens(then, otherwise).expect("lengths that fit")
    }

    /// A probe of leaf `leaf` with `keys`, 4 bytes long; `always` when it
    /// has further parts.
    const fn probe(leaf: u16, keys: [Key; 3], always: bool) -> Probe {
        Probe {
            mask: 0xf000_0000,
            value: 0x1000_0000,
            keys,
            leaf,
            lens: lens(4, 4),
            always: if always { Key::ASKS } else { 0 },
        }
    }

    /// Runs (lo 12, width 1), (14, 1), (16, 1), bitmap word 1: bit 12 to
    /// index bit 2, 14 to 1, 16 to 0.
    fn leaf7_more() -> MorePart {
        MorePart { bitmap: 1, ..MorePart::gathering(&[(12, 1), (14, 1), (16, 1)]).expect("three bits gather") }
    }

    const U: Key = Key::UNUSED;

    /// A two-leaf table by hand: the root switches on bits 28..32; value 1
    /// leads to two leaves told apart by a condition on bit 0.
    fn table() -> Direct {
        const F: u8 = Key::FAILS;
        const I: u8 = Key::INVALID;
        const O: u8 = Key::OTHERWISE;
        static PROBES: [Probe; 3] = [
            // NO_PROBE: matches nothing.
            Probe { mask: 0, value: 1, ..probe(0, [U; 3], false) },
            // Leaf 7: 4 bytes, requires bit 0 set (verdicts at 2); its
            // operand in bits 4..6 may not be 3 (at 4), nor bits 12, 14 and
            // 16 all be set (its further part).
            probe(7, [key(0, 1, 2), key(4, 2, 4), U], true),
            // Leaf 9: 8 bytes when bits 8..10 are 3 (at 8), else 4.
            Probe { lens: lens(8, 4), ..probe(9, [key(8, 2, 8), U, U], false) },
        ];
        static FURTHER: [Further; 3] = [Further::NONE, Further { more_len: 1, ..Further::NONE }, Further::NONE];
        static VERDICTS: [u8; 12] = [0, 0, F, 0, 0, 0, 0, I, O, O, O, 0];
        let more: &'static [MorePart] = Box::leak(Box::new([leaf7_more()]));
        static BITMAPS: [u64; 2] = [!0, !(1 << 0b111)];
        // Class 0 only: the root's 16 children, value 1 the two leaves.
        static ENTRIES: [u64; 16] = [0, 1 | 2 << 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        Direct::new(DirectTables {
            root: Direct::node(28, 4, 0),
            entries: &ENTRIES,
            entries_per_class: 16,
            probes: &PROBES,
            further: &FURTHER,
            more,
            verdicts: &VERDICTS,
            bitmaps: &BITMAPS,
            asks: &[],
            cuts: &[],
        })
    }

    #[test]
    fn gather_and_scatter_are_inverse_and_read_the_first_run_highest() {
        let runs = [(40, 3), (4, 2), (60, 4)];
        assert_eq!(gather(&runs, 0b101 << 40 | 0b11 << 4 | 0b1001 << 60), 0b1_0111_1001);
        for v in [0u64, 1, 0b1_0111_1001, (1 << 9) - 1] {
            assert_eq!(gather(&runs, scatter(&runs, v)), v);
        }
        assert_eq!(scatter(&runs, 1 << 8), 1 << 42);
    }

    #[test]
    fn keys_read_their_verdicts_and_refuse_what_does_not_fit() {
        let verdicts = [0, 0, 2, 3, 4, 5, 6, 7, 8];
        let k = Key::new(4, 3, 1).expect("3 bits fit a key");
        assert_eq!((k.lo(), k.width(), k.mask(), k.at()), (4, 3, 7, 1));
        assert_eq!(k.verdict(&verdicts, 0b101_0000), 6, "value 5, from byte 1");
        assert_eq!(k.verdict(&verdicts, !0b111_0000), 0, "bits outside the run read nothing");
        assert_eq!(Key::new(4, 3, 2).unwrap().verdict(&verdicts, 0b111_0000), Key::INVALID, "past the table");
        for word in [0, 1 << 63, !0] {
            assert_eq!(Key::UNUSED.verdict(&verdicts, word), 0, "byte 0 or 1 of {word:#x}");
        }
        assert_eq!(Key::new(63, 1, 0), Some(Key::UNUSED));
        assert!(Key::UNUSED.fits() && k.fits());
        assert_eq!((Key(0).width(), Key(0).mask(), Key(0).lo()), (64, u64::MAX, 0), "read without a panic");
        assert_eq!(Key(2 << 12).verdict(&verdicts, 1 << 40), Key::INVALID, "a 64-bit run past the table, no panic");
        let top = Key::new(52, 12, Key::MAX_AT).expect("the top twelve bits");
        assert_eq!((top.lo(), top.width(), top.at()), (52, 12, Key::MAX_AT));
        assert_eq!(Key::new(0, 1, 3).and_then(|k| k.with_at(9)), Key::new(0, 1, 9));
        assert_eq!(Key::new(62, 4, 0), None, "past the first 64 bits");
        assert_eq!(Key::new(0, 13, 0), None, "13 bits");
        assert_eq!(Key::new(0, 0, 0), None, "no bits");
        assert_eq!(Key::new(0, 4, Key::MAX_AT + 1), None, "verdicts past 20 bits of place");
        assert_eq!(std::mem::size_of::<Key>(), 4);
        assert_eq!(Probe::lens(8, 4).map(|l| Probe { lens: l, ..NOTHING }.len(Key::OTHERWISE)), Some(4));
        assert_eq!(Probe::lens(8, 4).map(|l| Probe { lens: l, ..NOTHING }.len(Key::FAILS | Key::ASKS)), Some(8));
        assert_eq!(Probe::lens(16, 4), None, "16 bytes");
    }

    #[test]
    fn parts_read_their_runs_and_refuse_what_does_not_fit() {
        assert_eq!(Part::new(&[(4, 3)], 2), Some(part(4, 3, 2)));
        assert_eq!(Part::new(&[(62, 4)], 0), None, "past the first 64 bits");
        assert_eq!(Part::new(&[(0, 8), (8, 9)], 0), None, "17 bits");
        assert_eq!(Part::new(&[(0, 1), (2, 1), (4, 1)], 0), None, "three runs");
        assert_eq!(Part::new(&[(0, 1)], 1 << 16), None, "a bitmap past word 65,535");
        // Two runs read most significant first: 0b10 then 0b1 = 0b101.
        let p = Part::new(&[(4, 2), (0, 1)], 0).unwrap();
        let bm = [1u64 << 5];
        assert_eq!(p.holds(&bm, 0b10_0001), 1);
        assert_eq!(p.holds(&bm, 0b10_0000), 0);
        let m = leaf7_more();
        assert_eq!((m.index(1 << 12), m.index(1 << 14), m.index(1 << 16), m.index(!0)), (0b100, 0b10, 0b1, 0b111));
        assert_eq!(MorePart::gathering(&[(0, 1); 5]), None, "five runs");
        assert_eq!(MorePart::gathering(&[(0, 8), (8, 9)]), None, "17 bits");
        assert_eq!(MorePart::gathering(&[(60, 8)]), None, "past the first 64 bits");
        assert_eq!(MorePart::gathering(&[(0, 8), (4, 2)]), None, "overlapping");
        // Four runs read most significant first: 0b1, 0b01, 0b110, 0b1 =
        // 0b1_01_110_1, where bits 40, 50..52, 3..6 and 63 hold them.
        let m = MorePart::gathering(&[(40, 1), (50, 2), (3, 3), (63, 1)]).unwrap();
        let word = 1u64 << 40 | 0b01 << 50 | 0b110 << 3 | 1 << 63;
        // No multiplication gathers them in that order: in the word's
        // order instead, 63, 50..52, 40, 3..6: 0b1_01_1_110.
        assert_eq!(m.index(word), 0b1011110);
        assert_eq!(m.index(!0), 0x7f);
        for (bit, i) in [(63, 6), (51, 5), (50, 4), (40, 3), (5, 2), (4, 1), (3, 0)] {
            assert_eq!(m.index(1 << bit), 1 << i, "bit {bit}");
        }
        assert_eq!(m.index(!(1 << 63 | 3 << 50 | 1 << 40 | 7 << 3)), 0, "bits of no run");
        let bm = [0, 1u64 << (0b1011110 - 64)];
        assert_eq!(m.holds(&[!0], word), 0, "index 94 is in the second word");
        assert_eq!(m.holds(&bm, word), 1);
        assert_eq!(m.holds(&bm, word ^ 1 << 4), 0);
        // A VOP3 source's runs, far apart, gather in their own order.
        let vop3 = MorePart::gathering(&[(61, 1), (32, 9), (8, 1)]).unwrap();
        assert_eq!(vop3.index(1 << 61 | 0x1ff << 32 | 1 << 8), 0x7ff);
        assert_eq!(vop3.index(0x0a5 << 32 | 1 << 8), 0x0a5 << 1 | 1);
        // A probe is half a cache line.
        assert_eq!(std::mem::size_of::<Probe>(), 32);
    }

    /// A 16-bit part (a packed immediate) reads every one of its bits, in
    /// one run or two: the index is the value itself.
    #[test]
    fn a_sixteen_bit_part_reads_all_its_bits() {
        let mut bm = vec![0u64; 1 << 10];
        bm[0xabcd / 64] |= 1 << (0xabcd % 64);
        for runs in [&[(8, 16)][..], &[(16, 8), (8, 8)]] {
            let p = Part::new(runs, 0).expect("16 bits fit a part");
            assert_eq!(p.holds(&bm, 0xab_cd00), 1, "{runs:?}");
            assert_eq!(p.holds(&bm, 0x2b_cd00), 0, "{runs:?}: the top bit counts");
            assert_eq!(p.holds(&bm, 0xab_cc00), 0, "{runs:?}: the low bit counts");
        }
    }

    /// A bucket names the intervals its values may lie in: the value's
    /// interval, found within them, is the one counted over every cut
    /// point, for values beside each cut point and across each bucket.
    #[test]
    fn a_wide_values_interval_is_found_within_its_bucket() {
        // A GCN literal's cut points: 0..=64 and -16..=-1, the float
        // constants and 1/(2*pi), each a one-value interval.
        let mut points = vec![0u64, 65];
        for f in [0x3e22_f983u64, 0x3f00_0000, 0x3f80_0000, 0x4000_0000, 0x4080_0000] {
            for v in [f, f | 0x8000_0000] {
                points.extend([v, v + 1]);
            }
        }
        points.push(0xffff_fff0);
        points.sort_unstable();
        let n = points.len();
        // The value holds in every other interval, and in the last.
        let answers = 0x5555_5555_5555_5555 & (!0u64 >> (64 - n)) | 1 << (n - 1);
        let ask = Ask {
            any: Part::ALWAYS,
            skip: 1,
            when: Part::ALWAYS,
            sub: MorePart::ALWAYS,
            lo: 32,
            width: 32,
            cuts_len: n as u8,
            cuts: 0,
            answers,
        };
        let buckets = cut_buckets(&points, 32);
        assert_eq!(buckets.len(), bucket_words(32));
        assert_eq!(bucket_words(32), 64);
        // (first interval, last interval)
        let bucket = |b: usize| (buckets[b / 4] >> (16 * (b % 4)) & 0xff, buckets[b / 4] >> (16 * (b % 4) + 8) & 0xff);
        assert_eq!(bucket(0x01), (1, 1), "0x01000000..: within [65, 0x3e22f983)");
        assert_eq!(bucket(0x00), (0, 1), "0..: the inline integers and past them");
        assert_eq!(bucket(0xff), (n as u64 - 2, n as u64 - 1), "0xff000000..: up to -16 and past it");
        let cuts: Vec<u64> = points.iter().copied().chain(buckets.iter().copied()).collect();
        let counted = |x: u64| answers >> (points.iter().filter(|&&c| c <= x).count() - 1) & 1;
        let mut values: Vec<u64> = points.iter().flat_map(|&c| [c.wrapping_sub(1), c, c + 1]).collect();
        values.extend((0..256u64).flat_map(|b| [b << 24, b << 24 | 0xff_ffff, b << 24 | 0x12_3456]));
        let mut x = 0x9e37_79b9u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(0x1405_7b7e_f767_814f);
            values.push(x >> 32);
        }
        for v in values.into_iter().map(|v| v & 0xffff_ffff) {
            assert_eq!(ask.holds(&[!0], &cuts, v << 32), counted(v), "value {v:#x}");
        }
        // Narrow values have fewer buckets, one a value.
        let narrow = cut_buckets(&[0, 3, 5], 3);
        let pack =
            |b: [(u64, u64); 4]| b.iter().enumerate().fold(0, |w, (i, &(lo, hi))| w | (lo | hi << 8) << (16 * i));
        assert_eq!(narrow, vec![pack([(0, 0), (0, 0), (0, 0), (1, 1)]), pack([(1, 1), (2, 2), (2, 2), (2, 2)])]);
    }

    #[test]
    fn an_asked_value_is_judged_by_its_interval_or_its_part() {
        // Bits 0..4 equal to 15 read the value in bits 32..64, which holds
        // only in [65, 0x1000).
        let when = part(0, 4, 1);
        let ask = Ask {
            any: when,
            skip: 1,
            when,
            sub: MorePart::ALWAYS,
            lo: 32,
            width: 32,
            cuts_len: 3,
            cuts: 0,
            answers: 0b010,
        };
        let bitmaps = [!0, 1 << 15];
        let cuts: Vec<u64> = [0, 65, 0x1000].into_iter().chain(cut_buckets(&[0, 65, 0x1000], 32)).collect();
        let word = |low: u64, value: u64| value << 32 | low;
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 1)), 0);
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 64)), 0);
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 65)), 1);
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 0xfff)), 1);
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 0x1000)), 0);
        assert_eq!(ask.holds(&bitmaps, &cuts, word(15, 0xffff_ffff)), 0);
        // Other values of bits 0..4 do not read it.
        assert_eq!(ask.holds(&bitmaps, &cuts, word(3, 1)), 1);
        // Read through a part instead: bits 8..10 may not be 2 (word 2).
        let ask = Ask { sub: MorePart { bitmap: 2, ..MorePart::gathering(&[(8, 2)]).unwrap() }, cuts_len: 0, ..ask };
        let bitmaps = [!0, 1 << 15, !0b100];
        assert_eq!(ask.holds(&bitmaps, &[], 0x20f), 0);
        assert_eq!(ask.holds(&bitmaps, &[], 0x10f), 1);
        assert_eq!(ask.holds(&bitmaps, &[], 0x203), 1, "not asked");
        // A `when` reading no bits is not looked up: with word 0 of the
        // bitmaps clear, a lookup would have let every value by unjudged.
        let ask = Ask { when: Part::ALWAYS, ..ask };
        let bitmaps = [0, 1 << 15, !0b100];
        assert_eq!(ask.holds(&bitmaps, &[], 0x20f), 0, "judged");
        assert_eq!(ask.holds(&bitmaps, &[], 0x10f), 1);
    }

    /// The check before the walk goes unchecked: the generator's tables
    /// pass it, and an index past any table fails it.
    #[test]
    fn tables_are_trusted_only_when_every_index_lies_within_them() {
        let d = table();
        assert!(d.valid());
        let t = d.trusted(0).expect("valid tables, class 0");
        assert_eq!(t.identify(0x1000_0001), Some((7, 4)));
        assert_eq!(t.identify(0x1000_0031), None);
        assert!(d.trusted(1).is_none(), "no class 1");
        let empty = Direct::empty();
        assert_eq!(empty.trusted(0).expect("the empty decoder is valid").identify(0x1000_0001), None);

        let with = |entries: &'static [u64], probes: &'static [Probe], root: u64| {
            Direct::new(DirectTables { entries, probes, root, ..*table().tables() })
        };
        let mut entries = table().entries.to_vec();
        // A node whose children run past the class's 16 entries.
        entries[3] = Direct::node(0, 4, 1);
        let bad = with(Box::leak(entries.into_boxed_slice()), table().probes, table().root);
        assert!(!bad.valid() && bad.trusted(0).is_none(), "a child past the tree");
        let mut entries = table().entries.to_vec();
        entries[1] = 1 | 3 << 16;
        let bad = with(Box::leak(entries.into_boxed_slice()), table().probes, table().root);
        assert!(!bad.valid(), "a probe past the probes");
        let mut probes = table().probes.to_vec();
        probes[2].keys[1] = key(0, 2, 9);
        let bad = with(table().entries, Box::leak(probes.into_boxed_slice()), table().root);
        assert!(!bad.valid(), "verdicts past their table");
        // Keys no builder makes: a run of 64 bits (its value any index at
        // all), of 13, and shifts that do not fit together (two bits, the
        // first shift dropping all but one; its verdicts within the table).
        for raw in [0, 51 << 6, 63 | 62 << 6] {
            let mut probes = table().probes.to_vec();
            probes[2].keys[1] = Key(raw);
            let bad = with(table().entries, Box::leak(probes.into_boxed_slice()), table().root);
            assert!(!bad.valid(), "key {raw:#x}");
        }
        let bad = with(table().entries, table().probes, Direct::node(28, 5, 0));
        assert!(!bad.valid(), "a root of 32 children in a tree of 16");
        let mut more = table().more.to_vec();
        more[0].bitmap = 2;
        let bad = Direct::new(DirectTables { more: Box::leak(more.into_boxed_slice()), ..*table().tables() });
        assert!(!bad.valid(), "a further part's bitmap past the bitmaps");
        for shift in [0, 40, 64, 112] {
            let mut more = table().more.to_vec();
            more[0].shift = shift;
            let bad = Direct::new(DirectTables { more: Box::leak(more.into_boxed_slice()), ..*table().tables() });
            assert!(!bad.valid(), "a further part's index of more than 16 bits (shift {shift})");
        }
        let mut further = table().further.to_vec();
        further[1].more_len = 2;
        let bad = Direct::new(DirectTables { further: Box::leak(further.into_boxed_slice()), ..*table().tables() });
        assert!(!bad.valid(), "further parts past theirs");
        let bad = Direct::new(DirectTables { further: &table().further[..2], ..*table().tables() });
        assert!(!bad.valid(), "a probe without its further checks' place");
        let bad = Direct::new(DirectTables { verdicts: &table().verdicts[1..], ..*table().tables() });
        assert!(!bad.valid(), "an unused key's verdicts that say something");
        // Checked again by the untrusted walk, none of these panics.
        let bad = with(&[], table().probes, table().root);
        assert_eq!(bad.decode(&[], 0x1000_0001), None);
    }

    #[test]
    fn a_walk_answers_its_first_leaf_then_its_second() {
        let d = table();
        let entries = d.entries_of(0);
        // Bit 0 set, operand 0: leaf 7, 4 bytes (bits above 32 dropped).
        let w = 0xdead_0000_1000_0001u64;
        assert_eq!(d.decode(entries, w), Some(Inst { leaf: 7, len: 4, bits: 0x1000_0001 }));
        // Bit 0 clear: leaf 7's condition fails, leaf 9 (4 bytes) matches.
        assert_eq!(d.decode(entries, 0x1000_0000), Some(Inst { leaf: 9, len: 4, bits: 0x1000_0000 }));
        // Leaf 9 with bits 8..10 = 3: 8 bytes.
        let w = 0x1234_5678_1000_0300u64;
        assert_eq!(d.decode(entries, w), Some(Inst { leaf: 9, len: 8, bits: w as Bits }));
        // Leaf 7 identified, but its operand holds 3: left to the general
        // tables (not leaf 9).
        assert_eq!(d.decode(entries, 0x1000_0031), None);
        // Leaf 7's further part: bits 12 and 16 set holds, 12, 14 and 16 do not.
        assert_eq!(d.decode(entries, 0x1001_1001).map(|i| i.leaf), Some(7));
        assert_eq!(d.decode(entries, 0x1001_5001), None);
        // Another root value: no probe.
        assert_eq!(d.decode(entries, 0x2000_0000), None);
        // A class past the table's: nothing.
        assert_eq!(d.decode(d.entries_of(5), 0x1000_0001), None);
    }
}
