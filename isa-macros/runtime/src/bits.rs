//! Bit-level helpers over the instruction word.

use crate::tables::Range;

/// Instruction words up to 128 bits wide (ir3 is 64, AGX up to 96, GCN 64 + literal).
pub type Bits = u128;

/// A mask of `width` ones starting at bit `lo`.
pub const fn mask_of(lo: u32, width: u32) -> Bits {
    if width == 0 {
        0
    } else if width >= 128 {
        !0
    } else {
        ((1u128 << width) - 1) << lo
    }
}

/// Total width of a field made of `ranges`.
pub fn width_of(ranges: &[Range]) -> u32 {
    ranges.iter().map(|r| r.width as u32).sum()
}

/// Reads a field made of `ranges` (most significant part first), at `base`.
pub fn extract(bits: Bits, base: u32, ranges: &[Range]) -> u128 {
    let mut v: u128 = 0;
    for r in ranges {
        let w = r.width as u32;
        let part = (bits >> (base + r.lo as u32)) & mask_of(0, w);
        v = if w >= 128 { part } else { (v << w) | part };
    }
    v
}

/// A field's raw value `v`, `width` bits wide, as an integer: sign-extended
/// when the field is `signed`.
pub(crate) fn field_value(v: u128, width: u32, signed: bool) -> i64 {
    if signed && width > 0 && width < 128 && (v >> (width - 1)) & 1 == 1 {
        (v | !((1u128 << width) - 1)) as i64
    } else {
        v as i64
    }
}

/// Writes `value` into a field made of `ranges` (most significant part first), at
/// `base`. Returns the new bits and the mask of bits written. The caller checks
/// that `value` fits; excess high bits are not written.
pub fn insert(bits: Bits, base: u32, ranges: &[Range], value: u128) -> (Bits, Bits) {
    let mut shift: u32 = ranges.iter().map(|r| r.width as u32).sum();
    let mut out = bits;
    let mut written = 0;
    for r in ranges {
        let w = r.width as u32;
        shift -= w;
        let part = (value >> shift) & mask_of(0, w);
        let m = mask_of(base + r.lo as u32, w);
        out = (out & !m) | (part << (base + r.lo as u32));
        written |= m;
    }
    (out, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_field_round_trips() {
        // A 13-bit offset split as 5 high bits at 9..13 and 8 low bits at 32..39.
        let ranges = [Range { lo: 9, width: 5 }, Range { lo: 32, width: 8 }];
        let (bits, written) = insert(0, 0, &ranges, 0x1abc);
        assert_eq!(written, mask_of(9, 5) | mask_of(32, 8));
        assert_eq!((bits >> 9) & 0x1f, 0x1abc >> 8);
        assert_eq!((bits >> 32) & 0xff, 0xbc);
        assert_eq!(extract(bits, 0, &ranges), 0x1abc);
    }

    #[test]
    fn base_offsets_nested_fields() {
        let ranges = [Range { lo: 2, width: 6 }];
        let (bits, _) = insert(0, 16, &ranges, 0x3f);
        assert_eq!(bits, 0x3f << 18);
        assert_eq!(extract(bits, 16, &ranges), 0x3f);
    }

    #[test]
    fn masks() {
        assert_eq!(mask_of(4, 4), 0xf0);
        assert_eq!(mask_of(0, 128), !0);
        assert_eq!(mask_of(3, 0), 0);
    }
}
