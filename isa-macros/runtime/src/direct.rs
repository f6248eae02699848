//! The decoder's first try: per generation class, a flat copy of the
//! decision tree whose ends name the first two leaves of their candidate
//! list as *probes*, each a leaf's identifying bits, the parts of its checks
//! and its length in one cache line.
//!
//! The general tables ([`crate::Dispatch`]) describe every leaf, whatever its
//! shape: a plan says which of several kinds of check to run, and decoding
//! branches on it per candidate, then reads the parts it refers to. Most
//! leaves need none of that generality: identifying bits and a few bitmap
//! lookups over the first 64 bits, perhaps a length chosen by one of them.
//! A probe holds exactly that, so decoding a word is a chain of four loads
//! (two tree levels, the probe, a bitmap) and a little arithmetic: a part
//! is one run of bits (a shift, a mask and a bit test), the probe's parts
//! are read in order until the first unused one, and its rarer checks
//! (parts of several runs, values read through a second table) sit behind
//! one test.
//!
//! A word the probes do not accept (a leaf of another shape, a value a part
//! leaves to a second table, an invalid word) is decoded by the general
//! tables, so results are the same by construction: a probe accepts a word
//! only where the general tables would answer the same leaf and length
//! (`tests/decode_tables.rs` checks both on every opcode and random words).

use crate::Inst;
use crate::bits::Bits;

/// The direct decoder of a target's first instruction group (see the module
/// documentation). Built by the generator from the [`crate::Dispatch`]
/// tables it sits beside.
#[derive(Debug)]
pub struct Direct {
    /// Where the walk starts: an entry (see [`Direct::entries`]).
    pub root: u32,
    /// The tree per generation class, `entries_per_class` entries each:
    /// [`DIRECT_NODE`] `| lo << 25 | width << 21 | first` switches on
    /// `width` bits of the word from bit `lo`, the child for value `v` at
    /// `first + v` in the class's block; any other entry ends the walk
    /// with the probes to try, `first | second << 16` (indices into
    /// `probes`, [`NO_PROBE`] where a leaf has no probe, and after it).
    pub entries: &'static [u32],
    pub entries_per_class: u32,
    pub probes: &'static [Probe],
    /// The probes' parts past their first three, reading more than one run
    /// of bits, or past the shorter of their lengths.
    pub more: &'static [MorePart],
    /// The probes' bitmaps; word 0 is all ones (what an unused part reads).
    pub bitmaps: &'static [u64],
    /// The probes' checks of values read through a second table (see
    /// [`Ask`]).
    pub asks: &'static [Ask],
    /// The cut points of the asks' values, each ask's increasing from 0.
    pub cuts: &'static [u64],
}

/// Marks an entry of [`Direct::entries`] that is a node.
pub const DIRECT_NODE: u32 = 1 << 31;

/// The probe that matches no word: what an end of the walk holds after its
/// last leaf with a probe.
pub const NO_PROBE: u16 = 0;

/// One leaf as the direct decoder checks it, in one generation class: its
/// identifying bits, the parts of its checks, and its length, all within the
/// word's first 64 bits.
///
/// Checking one reads the length's run, then its three other runs in order
/// until the first unused one (most probes use fewer than two), and only
/// then, behind one test, the rarer further parts and asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct Probe {
    pub mask: u64,
    pub value: u64,
    /// The part choosing the length: `then` bytes when it holds, else
    /// `otherwise` (the same for a fixed length, the part
    /// [`Run::ALWAYS`]).
    pub choice: Run,
    /// The parts of its checks: `requires` conditions (bit `k` set: part
    /// `k` is one; when one fails the next candidate may match), the others
    /// operand checks (when one fails the word is the leaf's, but invalid).
    /// Parts that hold for every value are left out, and the unused come
    /// last ([`Run::ALWAYS`], whose bitmap is word 0: reading stops there).
    ///
    /// These parts and `mask` read only bits within the shorter length, so
    /// that they are read on the word as it comes, as the choice is, not
    /// after the length is known (which would put the choice's lookup in
    /// front of every other); parts reading further go to `more`.
    pub runs: [Run; 3],
    pub requires: u8,
    /// Further operand checks, from [`Direct::more`]`[more]`.
    pub more_len: u8,
    pub then: u8,
    pub otherwise: u8,
    pub more: u32,
    pub leaf: u16,
    /// Its checks of values read through a second table: `asks_len` from
    /// [`Direct::asks`]`[asks]`, made only when `asked` holds (it reads the
    /// asking operands' bits, and holds where one of them asks).
    pub asked: Run,
    pub asks: u16,
    pub asks_len: u8,
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
    /// (the operand's part in the probe lets them pass).
    pub when: Part,
    /// The further bits when `cuts_len` is 0.
    pub sub: Part,
    /// Otherwise the wide value: `width` bits (below 64) from `lo`.
    pub lo: u8,
    pub width: u8,
    /// Its cut points, at [`Direct::cuts`]`[cuts]`: the first of each
    /// interval, the first 0.
    pub cuts_len: u8,
    pub cuts: u32,
    /// Bit `k`: the value holds in interval `k`.
    pub answers: u64,
}

impl Ask {
    /// Whether the ask holds for `word`: 1 or 0. Most words do not ask (a
    /// literal is the exception), so those return before the intervals.
    #[inline(always)]
    fn holds(&self, bitmaps: &[u64], cuts: &[u64], word: u64) -> u64 {
        if self.when.holds(bitmaps, word) == 0 {
            return 1;
        }
        if self.cuts_len == 0 {
            return self.sub.holds(bitmaps, word);
        }
        let x = (word >> (self.lo & 63)) & ((1u64 << (self.width & 63)) - 1);
        let k = cuts.iter().skip(1).fold(0u64, |k, &c| k + (c <= x) as u64);
        (self.answers >> (k & 63)) & 1
    }
}

/// A part of an [`Ask`]: up to two runs of bits of the word, at most
/// [`Part::MAX_BITS`] in all, looked up in a bitmap at word `bitmap` of
/// [`Direct::bitmaps`]. The index is the runs side by side, the first the
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

    /// The part that holds: word 0 of the bitmaps is all ones.
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
    #[inline(always)]
    fn holds(&self, bitmaps: &[u64], word: u64) -> u64 {
        let i = (word.rotate_right(self.rot as u32) & self.mask as u64)
            | (word.rotate_right(self.rot2 as u32) & self.mask2 as u64);
        bit(bitmaps, self.bitmap as usize, i)
    }
}

/// A part of a probe that reads one run of bits, the usual case: the
/// word's bits from `lo` kept by `mask` (at most [`Part::MAX_BITS`] of
/// them) are the index in the bitmap at word `bitmap` of
/// [`Direct::bitmaps`]. Reading one is a shift, a mask and a bit test,
/// against twice that for a [`Part`]'s two runs, and a probe reads up to
/// four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Run {
    pub lo: u8,
    pub mask: u16,
    pub bitmap: u16,
}

impl Run {
    /// The run that holds: word 0 of the bitmaps is all ones.
    pub const ALWAYS: Run = Run { lo: 0, mask: 0, bitmap: 0 };

    /// The run of `width` bits from `lo`, or `None` when they do
    /// not fit one (more than [`Part::MAX_BITS`] bits, past the first 64,
    /// a bitmap past word 65,535).
    pub fn new(lo: u32, width: u32, bitmap: u32) -> Option<Run> {
        if width > Part::MAX_BITS || lo + width > 64 {
            return None;
        }
        Some(Run { lo: lo as u8, mask: ((1u32 << width) - 1) as u16, bitmap: u16::try_from(bitmap).ok()? })
    }

    /// Whether the run holds for `word`: 1 or 0, without a branch.
    #[inline(always)]
    fn holds(&self, bitmaps: &[u64], word: u64) -> u64 {
        bit(bitmaps, self.bitmap as usize, (word >> (self.lo & 63)) & self.mask as u64)
    }
}

/// A probe's part past its first three, reading more than one run of bits,
/// or past the shorter of its lengths: up to four runs, at most
/// [`MorePart::MAX_BITS`] in all, each stored as [`Part`] stores its runs (a
/// rotation and the index bits it fills), looked up in the bitmap at word
/// `bitmap` of [`Direct::bitmaps`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct MorePart {
    pub rot: [u8; 4],
    pub mask: [u16; 4],
    pub bitmap: u32,
}

impl MorePart {
    /// Most bits a further part reads (its bitmap 512 bytes).
    pub const MAX_BITS: u32 = 12;

    /// The part reading `runs` (`(lo, width)`, most significant first) in
    /// the bitmap at word `bitmap`: `None` when they do not fit (more than
    /// four runs or [`MorePart::MAX_BITS`] bits, past the first 64 bits).
    pub fn new(runs: &[(u32, u32)], bitmap: u32) -> Option<MorePart> {
        let (rot, mask) = placed(runs, MorePart::MAX_BITS)?;
        Some(MorePart { rot, mask, bitmap })
    }

    /// Whether the part holds for `word`: 1 or 0.
    #[inline(always)]
    fn holds(&self, bitmaps: &[u64], word: u64) -> u64 {
        let mut i = 0;
        for k in 0..4 {
            i |= word.rotate_right(self.rot[k] as u32) & self.mask[k] as u64;
        }
        bit(bitmaps, self.bitmap as usize, i)
    }
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
#[inline(always)]
fn bit(bitmaps: &[u64], at: usize, i: u64) -> u64 {
    bitmaps.get(at + (i / 64) as usize).map_or(0, |b| (b >> (i % 64)) & 1)
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

impl Direct {
    /// The direct decoder that decodes nothing (every word goes to the
    /// general tables).
    pub const EMPTY: Direct = Direct {
        root: 0,
        entries: &[],
        entries_per_class: 0,
        probes: &[],
        more: &[],
        bitmaps: &[],
        asks: &[],
        cuts: &[],
    };

    /// The tree of generation class `class`.
    pub fn entries_of(&self, class: usize) -> &'static [u32] {
        let n = self.entries_per_class as usize;
        self.entries.get(class * n..(class + 1) * n).unwrap_or(&[])
    }

    /// Decodes `word` (the first 64 bits of the instruction stream) with
    /// the tree of one class (see [`Direct::entries_of`]): `None` when the
    /// general tables must decide.
    #[inline]
    pub fn decode(&self, entries: &[u32], word: u64) -> Option<Inst> {
        let (leaf, len) = self.identify(entries, word)?;
        Some(Inst { leaf, len, bits: Bits::from(word & len_mask(len)) })
    }

    /// The leaf and length in bytes of `word`, as [`Direct::decode`]
    /// decodes it: what a caller holding the instruction's bits needs.
    #[inline(always)]
    pub fn identify(&self, entries: &[u32], word: u64) -> Option<(u16, u8)> {
        let mut e = self.root;
        while e & DIRECT_NODE != 0 {
            let (lo, w) = ((e >> 25) & 63, (e >> 21) & 15);
            let v = (word >> lo) & ((1u64 << w) - 1);
            e = *entries.get((e & 0x1f_ffff) as usize + v as usize)?;
        }
        match self.check(e as u16, word)? {
            Verdict::Is(leaf, len) => Some((leaf, len)),
            Verdict::Not => match self.check((e >> 16) as u16, word)? {
                Verdict::Is(leaf, len) => Some((leaf, len)),
                _ => None,
            },
            Verdict::Unsure => None,
        }
    }

    /// Checks probe `at` against `word`.
    #[inline(always)]
    fn check(&self, at: u16, word: u64) -> Option<Verdict> {
        let p = self.probes.get(at as usize)?;
        let bm = self.bitmaps;
        let len = if p.choice.bitmap == 0 || p.choice.holds(bm, word) != 0 { p.then } else { p.otherwise };
        let mut held = 0b111;
        for (k, r) in p.runs.iter().enumerate() {
            if r.bitmap == 0 {
                break;
            }
            held &= !((1 - r.holds(bm, word)) << k);
        }
        let requires = p.requires as u64;
        let met = word & p.mask == p.value && held & requires == requires;
        let mut valid = held | requires == 0b111;
        if p.more_len != 0 || (p.asks_len != 0 && p.asked.holds(bm, word) != 0) {
            valid &= self.further(p, word & len_mask(len))?;
        }
        Some(match (met, valid) {
            (true, true) => Verdict::Is(p.leaf, len),
            (true, false) => Verdict::Unsure,
            (false, _) => Verdict::Not,
        })
    }

    /// Whether probe `p`'s further parts and asks hold for `own` (the
    /// word's bits within the chosen length).
    #[inline(always)]
    fn further(&self, p: &Probe, own: u64) -> Option<bool> {
        let bm = self.bitmaps;
        let mut valid = true;
        for &m in self.more.get(p.more as usize..p.more as usize + p.more_len as usize)? {
            valid &= m.holds(bm, own) != 0;
        }
        let asks = self.asks.get(p.asks as usize..p.asks as usize + p.asks_len as usize)?;
        let mut k = 0;
        while let Some(a) = asks.get(k) {
            if a.any.holds(bm, own) == 0 {
                k += a.skip.max(1) as usize;
                continue;
            }
            valid &= a.holds(bm, self.cuts.get(a.cuts as usize..a.cuts as usize + a.cuts_len as usize)?, own) != 0;
            k += 1;
        }
        Some(valid)
    }
}

/// The bits of an instruction `len` bytes long, within the first 64.
#[inline(always)]
pub(crate) fn len_mask(len: u8) -> u64 {
    /// By length in bytes, 8 and over all ones: a load, not a branch and a
    /// shift.
    const MASKS: [u64; 9] = {
        let mut m = [!0u64; 9];
        let mut k = 0;
        while k < 8 {
            m[k] = (1 << (k * 8)) - 1;
            k += 1;
        }
        m
    };
    MASKS[(len as usize).min(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn part(lo: u8, width: u8, bitmap: u16) -> Part {
        Part { rot: lo, rot2: 0, mask: (1 << width) - 1, mask2: 0, bitmap }
    }

    const fn run(lo: u8, width: u8, bitmap: u16) -> Run {
        Run { lo, mask: (1 << width) - 1, bitmap }
    }

    /// A probe of leaf `leaf` with `runs` (the first `requires` of them
    /// conditions) and `more_len` further parts, 4 bytes long.
    const fn probe(leaf: u16, runs: [Run; 3], requires: u8, more_len: u8) -> Probe {
        Probe {
            mask: 0xf000_0000,
            value: 0x1000_0000,
            choice: Run::ALWAYS,
            runs,
            requires: (1 << requires) - 1,
            more_len,
            more: 0,
            then: 4,
            otherwise: 4,
            leaf,
            asked: Run::ALWAYS,
            asks: 0,
            asks_len: 0,
        }
    }

    /// Runs (lo 12, width 1), (14, 1), (16, 1) by hand, bitmap word 4: bit
    /// 12 to index bit 2, 14 to 1, 16 to 0.
    const LEAF7_MORE: MorePart = MorePart { rot: [10, 13, 16, 0], mask: [0b100, 0b10, 0b1, 0], bitmap: 4 };

    const NONE: Part = Part::ALWAYS;

    /// A two-leaf table by hand: the root switches on bits 28..32; value 1
    /// leads to two leaves told apart by a condition on bit 0.
    fn table() -> Direct {
        static PROBES: [Probe; 3] = [
            // NO_PROBE: matches nothing.
            Probe { mask: 0, value: 1, ..probe(0, [Run::ALWAYS; 3], 0, 0) },
            // Leaf 7: 4 bytes, requires bit 0 set (part 0); its operand in
            // bits 4..6 may not be 3 (part 1), nor bits 12, 14 and 16 all
            // be set (its further part).
            probe(7, [run(0, 1, 1), run(4, 2, 2), Run::ALWAYS], 1, 1),
            // Leaf 9: 8 bytes when bits 8..10 are 3 (part 0), else 4.
            Probe { choice: run(8, 2, 3), then: 8, ..probe(9, [Run::ALWAYS; 3], 0, 0) },
        ];
        static MORE: [MorePart; 1] = [LEAF7_MORE];
        static BITMAPS: [u64; 5] = [!0, 0b10, !0b1000, 0b1000, !(1 << 0b111)];
        // Class 0 only: the root's 16 children, value 1 the two leaves.
        static ENTRIES: [u32; 16] = [0, 1 | 2 << 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        Direct {
            root: DIRECT_NODE | 28 << 25 | 4 << 21,
            entries: &ENTRIES,
            entries_per_class: 16,
            probes: &PROBES,
            more: &MORE,
            bitmaps: &BITMAPS,
            asks: &[],
            cuts: &[],
        }
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
        assert_eq!(MorePart::new(&[(12, 1), (14, 1), (16, 1)], 4), Some(LEAF7_MORE));
        assert_eq!(MorePart::new(&[(0, 1); 5], 0), None, "five runs");
        assert_eq!(MorePart::new(&[(0, 8), (8, 8)], 0), None, "16 bits");
        assert_eq!(MorePart::new(&[(60, 8)], 0), None, "past the first 64 bits");
        // Four runs read most significant first: 0b1, 0b01, 0b110, 0b1 =
        // 0b1_01_110_1, where bits 40, 50..52, 3..6 and 63 hold them.
        let m = MorePart::new(&[(40, 1), (50, 2), (3, 3), (63, 1)], 0).unwrap();
        let word = 1u64 << 40 | 0b01 << 50 | 0b110 << 3 | 1 << 63;
        assert_eq!(m.holds(&[!0], word), 0, "index 93 is in the second word");
        let bm = [0, 1u64 << (0b1011101 - 64)];
        assert_eq!(m.holds(&bm, word), 1);
        assert_eq!(m.holds(&bm, word ^ 1 << 4), 0);
        // A probe is one cache line.
        assert_eq!(std::mem::size_of::<Probe>(), 64);
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

    #[test]
    fn an_asked_value_is_judged_by_its_interval_or_its_part() {
        // Bits 0..4 equal to 15 read the value in bits 32..64, which holds
        // only in [65, 0x1000).
        let when = part(0, 4, 1);
        let ask = Ask { any: when, skip: 1, when, sub: NONE, lo: 32, width: 32, cuts_len: 3, cuts: 0, answers: 0b010 };
        let (bitmaps, cuts) = ([!0, 1 << 15], [0, 65, 0x1000]);
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
        let ask = Ask { sub: part(8, 2, 2), cuts_len: 0, ..ask };
        let bitmaps = [!0, 1 << 15, !0b100];
        assert_eq!(ask.holds(&bitmaps, &[], 0x20f), 0);
        assert_eq!(ask.holds(&bitmaps, &[], 0x10f), 1);
        assert_eq!(ask.holds(&bitmaps, &[], 0x203), 1, "not asked");
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
