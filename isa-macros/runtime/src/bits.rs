//! Bit-level helpers over the instruction word.

use crate::tables::Range;

/// Instruction words up to 128 bits wide (ir3 is 64, AGX up to 96, GCN 64 + literal).
pub type Bits = u128;

/// A mask of `width` ones starting at bit `lo`.
pub const fn mask_of(lo: u32, width: u32) -> Bits {
    if width == 0 {
        0
    } else if lo.saturating_add(width) <= 64 {
        // Most fields lie in the first 64 bits: two 64-bit shifts where
        // 128-bit ones take several instructions each.
        ((u64::MAX >> (64 - width)) << lo) as Bits
    } else if width >= 128 {
        !0
    } else {
        ((1u128 << width) - 1) << lo
    }
}

/// Sets the bits `m` of `bits` to those of `v` and marks them in `bound`,
/// as assembling binds what the text says; false, changing nothing, when
/// that would change a bit already bound.
pub(crate) fn bind(bits: &mut Bits, bound: &mut Bits, m: Bits, v: Bits) -> bool {
    if (*bits ^ v) & m & *bound != 0 {
        return false;
    }
    *bits = (*bits & !m) | v;
    *bound |= m;
    true
}

/// Total width of a field made of `ranges`.
pub fn width_of(ranges: &[Range]) -> u32 {
    ranges.iter().map(|r| r.width as u32).sum()
}

/// Reads a field made of `ranges` (most significant part first), at `base`.
pub fn extract(bits: Bits, base: u32, ranges: &[Range]) -> u128 {
    // One range (most fields) within the first 64 bits: 64-bit arithmetic.
    if let [r] = ranges {
        let (lo, w) = (base + r.lo as u32, r.width as u32);
        if w > 0 && lo + w <= 64 {
            return ((bits as u64 >> lo) & (u64::MAX >> (64 - w))) as u128;
        }
    }
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
///
/// Always inlined: an assembler reading a line by remembered operand
/// texts writes each operand's bits, their mask and every parameter it
/// binds, a dozen calls a line, and the one-range case is a few
/// instructions beside the call's own (2.2% of a GCN line's machine
/// instructions).
#[inline(always)]
pub fn insert(bits: Bits, base: u32, ranges: &[Range], value: u128) -> (Bits, Bits) {
    // One range (most fields) within the first 64 bits: 64-bit arithmetic,
    // as in `extract`.
    if let [r] = ranges {
        let (lo, w) = (base + r.lo as u32, r.width as u32);
        if w > 0 && lo + w <= 64 {
            let m = (u64::MAX >> (64 - w)) << lo;
            let part = ((value as u64) << lo) & m;
            return ((bits & !(m as Bits)) | part as Bits, m as Bits);
        }
    }
    insert_parts(bits, base, ranges, value)
}

/// [`insert`] of a field of several ranges, or one past the first 64 bits.
fn insert_parts(bits: Bits, base: u32, ranges: &[Range], value: u128) -> (Bits, Bits) {
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
        assert_eq!(mask_of(0, 64), u64::MAX as u128);
        assert_eq!(mask_of(63, 1), 1 << 63);
        assert_eq!(mask_of(60, 8), 0xff << 60, "across bit 64");
        assert_eq!(mask_of(64, 64), (u64::MAX as u128) << 64);
        assert_eq!(mask_of(1, 127), !1);
    }

    /// Every one-range field of a 128-bit word reads what shifting and
    /// masking by hand gives, within the first 64 bits and past them.
    #[test]
    fn one_range_reads_as_by_hand() {
        let bits: Bits = 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978;
        for lo in 0..128u32 {
            for width in 0..=(128 - lo).min(127) {
                let want = (bits >> lo) & ((1u128 << width) - 1);
                let r = [Range { lo: lo as u8, width: width as u8 }];
                assert_eq!(extract(bits, 0, &r), want, "lo {lo} width {width}");
                if lo >= 4 {
                    let r = [Range { lo: (lo - 4) as u8, width: width as u8 }];
                    assert_eq!(extract(bits, 4, &r), want, "base 4, lo {lo} width {width}");
                }
                assert_eq!(mask_of(lo, width), ((1u128 << width) - 1) << lo, "lo {lo} width {width}");
            }
        }
    }

    /// Every one-range field of a 128-bit word is written as shifting and
    /// masking by hand gives: the value's bits past the width dropped, the
    /// word's other bits kept, within the first 64 bits and past them.
    #[test]
    fn one_range_writes_as_by_hand() {
        let bits: Bits = 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978;
        let value: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        for lo in 0..128u32 {
            for width in 0..=(128 - lo).min(127) {
                let m = ((1u128 << width) - 1) << lo;
                let want = (bits & !m) | ((value << lo) & m);
                let r = [Range { lo: lo as u8, width: width as u8 }];
                assert_eq!(insert(bits, 0, &r, value), (want, m), "lo {lo} width {width}");
                if lo >= 4 {
                    let r = [Range { lo: (lo - 4) as u8, width: width as u8 }];
                    assert_eq!(insert(bits, 4, &r, value), (want, m), "base 4, lo {lo} width {width}");
                }
            }
        }
    }
}
