//! Where an encoding's bits sit in the instruction word.
//!
//! An instruction's own bits are the word itself. An operand sub-encoding is
//! usually a contiguous run of it (a `base` offset), but an operand field may
//! also be split over several ranges (`bits: [44..45, 9..14]`: AGX keeps the
//! high bits of every register number in an extension word at the end of the
//! instruction). The operand then sees the concatenation of those ranges as its
//! own word, most significant range first, and everything it reads or writes
//! goes through that map.

use crate::bits::{Bits, extract, insert};
use crate::tables::Range;

/// One level of the scope chain: a leaf, the case in force, and where its bits
/// sit. Public for the generator, which walks the same chains when it
/// tabulates (see [`crate::Isa::eval_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub leaf: u16,
    pub case: u16,
    /// Bit offset of this leaf inside the word (the instruction word, or the
    /// word `map` gathers).
    pub base: u32,
    /// Index, in the parent's case, of the field this leaf fills (unused at top).
    pub via: u16,
    /// For an operand reached through a split field: the field's ranges in the
    /// instruction word, most significant first. Empty: the word itself.
    pub map: &'static [Range],
}

impl Step {
    /// The top of a scope chain: an instruction at bit 0.
    pub fn top(leaf: u16, case: u16) -> Step {
        Step { leaf, case, base: 0, via: 0, map: &[] }
    }

    /// Reads a field made of `ranges` (relative to this leaf) from the instruction word.
    pub(crate) fn extract(&self, bits: Bits, ranges: &[Range]) -> u128 {
        if self.map.is_empty() {
            extract(bits, self.base, ranges)
        } else {
            extract(self.gather(bits), self.base, ranges)
        }
    }

    /// This leaf's view of the instruction word: `width` bits from its start.
    #[inline(always)]
    pub(crate) fn word(&self, bits: Bits, width: u32) -> Bits {
        if self.map.is_empty() && width > 0 && self.base + width <= 64 {
            // Most operands lie in the first 64 bits: 64-bit shifts.
            return ((bits as u64 >> self.base) & (u64::MAX >> (64 - width))) as Bits;
        }
        let w =
            if self.map.is_empty() { bits.checked_shr(self.base).unwrap_or(0) } else { self.gather(bits) >> self.base };
        w & crate::bits::mask_of(0, width)
    }

    /// Moves a mask of this leaf's bits to the instruction word.
    pub(crate) fn in_word(&self, local: Bits) -> Bits {
        let shifted = local.checked_shl(self.base).unwrap_or(0);
        if self.map.is_empty() { shifted } else { insert(0, 0, self.map, shifted).0 }
    }

    /// Writes a field made of `ranges` (relative to this leaf): the new word and
    /// the mask of word bits written.
    pub(crate) fn insert(&self, bits: Bits, ranges: &[Range], value: u128) -> (Bits, Bits) {
        if self.map.is_empty() {
            return insert(bits, self.base, ranges, value);
        }
        let (g, written) = insert(self.gather(bits), self.base, ranges, value);
        (insert(bits, 0, self.map, g).0, self.in_word(written >> self.base))
    }

    /// Where the operand in a field made of `ranges` sits: `(base, map)`. A split
    /// field inside an operand reached through another split field has no place
    /// (the generator rejects it).
    pub(crate) fn child(&self, ranges: &'static [Range]) -> Option<(u32, &'static [Range])> {
        match ranges {
            [r] => Some((self.base + r.lo as u32, self.map)),
            _ if self.map.is_empty() && self.base == 0 => Some((0, ranges)),
            _ => None,
        }
    }

    fn gather(&self, bits: Bits) -> Bits {
        extract(bits, 0, self.map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operand's word, within the first 64 bits or past them, is its
    /// bits shifted down and masked.
    #[test]
    fn a_word_is_its_bits_from_its_base() {
        let bits: Bits = 0x8edc_ba98_7654_3210_8f1e_2d3c_4b5a_6978;
        for base in 0..128u32 {
            for width in 0..=128 - base {
                let step = Step { leaf: 0, case: 0, base, via: 0, map: &[] };
                let want = if width == 128 { bits } else { (bits >> base) & ((1u128 << width) - 1) };
                assert_eq!(step.word(bits, width), want, "base {base} width {width}");
            }
        }
    }

    #[test]
    fn split_operands_see_their_ranges_concatenated() {
        // An operand of 8 bits: 2 high bits at 44..45, 6 low bits at 9..14.
        static MAP: [Range; 2] = [Range { lo: 44, width: 2 }, Range { lo: 9, width: 6 }];
        let top = Step::top(0, 0);
        let (base, map) = top.child(&MAP).unwrap();
        let s = Step { leaf: 0, case: 0, base, via: 0, map };
        let bits: Bits = (0b10 << 44) | (0b000101 << 9);
        assert_eq!(s.word(bits, 8), 0b1000_0101);
        // A 3-bit field at operand bits 5..7 straddles both ranges.
        let f = [Range { lo: 5, width: 3 }];
        assert_eq!(s.extract(bits, &f), 0b100);
        let (nb, written) = s.insert(0, &f, 0b111);
        assert_eq!(written, (0b11 << 44) | (1 << 14));
        assert_eq!(nb, written);
        assert_eq!(s.in_word(0b1), 1 << 9);
        // A contiguous field inside the operand keeps the map.
        let (b2, m2) = s.child(Box::leak(Box::new([Range { lo: 6, width: 2 }]))).unwrap();
        assert_eq!((b2, m2.len()), (6, 2));
        assert!(s.child(&MAP).is_none());
    }
}
