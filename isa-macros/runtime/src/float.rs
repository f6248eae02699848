//! Decimal numbers read as IEEE values of a format chosen by the spec.
//!
//! An assembler that reads `-3.1415` for a 32-bit literal must produce the
//! bits the reference assembler does. LLVM's reads the text as a double
//! (correctly rounded), then converts it to the operand's format rounding to
//! nearest, ties to even; a value that overflows the format, or that
//! underflows and is inexact, is refused rather than turned into infinity or
//! zero. [`narrow`] is that conversion for any binary format up to 64 bits.

/// A decimal number at the start of `s` (`1.5`, `-2.`, `2.3509886e-38`) and
/// the length of its text. It must have a point or an exponent, so that an
/// integer stays an integer.
pub(crate) fn scan_decimal(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut j = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |j: &mut usize| {
        let start = *j;
        while *j < b.len() && b[*j].is_ascii_digit() {
            *j += 1;
        }
        *j > start
    };
    let mut any = digits(&mut j);
    let mut point_or_exp = false;
    if b.get(j) == Some(&b'.') {
        j += 1;
        point_or_exp = true;
        any |= digits(&mut j);
    }
    if !any {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'-' | b'+')) {
            k += 1;
        }
        if digits(&mut k) {
            j = k;
            point_or_exp = true;
        }
    }
    if !point_or_exp {
        return None;
    }
    s[..j].parse::<f64>().ok().map(|d| (d, j))
}

/// The bits of `d` in the IEEE binary format of `bits` bits (16, 32 or 64),
/// rounded to nearest, ties to even. `None` when the format cannot hold it:
/// a finite value past its largest, or a nonzero value that rounds to a
/// subnormal or zero with a loss.
pub(crate) fn narrow(d: f64, bits: u32) -> Option<u64> {
    let (exp_bits, man_bits) = match bits {
        16 => (5u32, 10u32),
        32 => (8, 23),
        64 => return Some(d.to_bits()),
        _ => return None,
    };
    let sign = (d.is_sign_negative() as u64) << (bits - 1);
    let exp_all = (1u64 << exp_bits) - 1;
    if d.is_nan() {
        return Some(sign | exp_all << man_bits | 1 << (man_bits - 1));
    }
    if d.is_infinite() {
        return Some(sign | exp_all << man_bits);
    }
    if d == 0.0 {
        return Some(sign);
    }
    // d = m * 2^e exactly.
    let raw = d.to_bits();
    let (m, e) = match (raw >> 52) & 0x7ff {
        0 => (raw & ((1 << 52) - 1), -1074i32),
        x => ((raw & ((1 << 52) - 1)) | 1 << 52, x as i32 - 1075),
    };
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let top = 63 - m.leading_zeros() as i32 + e;
    // The weight of the format's last mantissa bit at this magnitude.
    let quantum = top.max(1 - bias) - man_bits as i32;
    let shift = quantum - e;
    let (r, inexact) = if shift <= 0 {
        (m << -shift, false)
    } else if shift > 63 {
        (0, true)
    } else {
        let kept = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let up = rest > half || (rest == half && kept & 1 == 1);
        (kept + up as u64, rest != 0)
    };
    // Below the smallest normal the exponent field is 0 and `r` the whole
    // mantissa; a carry into bit `man_bits` lands in the exponent as it should.
    let biased = if top < 1 - bias { 0 } else { (quantum + man_bits as i32 + bias) as u64 - 1 };
    let out = (biased << man_bits) + r;
    if out >> man_bits >= exp_all {
        return None;
    }
    if inexact && out >> man_bits == 0 {
        return None;
    }
    Some(sign | out)
}

// -3.1415 is a value from LLVM's tests, not an approximation of pi.
#[cfg(test)]
#[allow(clippy::approx_constant)]
mod tests {
    use super::*;

    #[test]
    fn decimals_need_a_point_or_an_exponent() {
        assert_eq!(scan_decimal("1.5, v3"), Some((1.5, 3)));
        assert_eq!(scan_decimal("-3.1415"), Some((-3.1415, 7)));
        assert_eq!(scan_decimal("2.3509886e-38"), Some((2.3509886e-38, 13)));
        assert_eq!(scan_decimal("2."), Some((2.0, 2)));
        assert_eq!(scan_decimal("1e3"), Some((1000.0, 3)));
        assert_eq!(scan_decimal("100"), None);
        assert_eq!(scan_decimal("0x10"), None);
        assert_eq!(scan_decimal("."), None);
        assert_eq!(scan_decimal("-"), None);
        assert_eq!(scan_decimal("v1"), None);
    }

    /// Single precision agrees with Rust's own conversion (round to nearest
    /// even) wherever that neither overflows nor underflows.
    #[test]
    fn single_matches_the_hardware_conversion() {
        for d in [1.5, -3.1415, 1e23, 3.402823e38, 2.3509886e-38, 0.1, -100.0, 16777217.0, 1.17549435e-38] {
            assert_eq!(narrow(d, 32), Some((d as f32).to_bits() as u64), "{d}");
        }
        // Ties go to even: 2^24 + 1 is halfway between 2^24 and 2^24 + 2.
        assert_eq!(narrow(16777217.0, 32), Some(0x4b80_0000));
        assert_eq!(narrow(-0.0, 32), Some(0x8000_0000));
    }

    /// Values LLVM refuses for a 32-bit operand: too large, or too small to
    /// keep (an exact subnormal is kept).
    #[test]
    fn overflow_and_inexact_underflow_do_not_fit() {
        assert_eq!(narrow(1e39, 32), None);
        assert_eq!(narrow(2.3509886e-70, 32), None);
        assert_eq!(narrow(f32::from_bits(1) as f64, 32), Some(1));
        assert_eq!(narrow(f32::from_bits(1) as f64 * 1.5, 32), None);
        assert_eq!(narrow(f64::INFINITY, 32), Some(0x7f80_0000));
        assert_eq!(narrow(65504.0, 16), Some(0x7bff));
        assert_eq!(narrow(65520.0, 16), None);
    }

    /// Half precision: published bit patterns.
    #[test]
    fn half_precision() {
        assert_eq!(narrow(64.0, 16), Some(0x5400));
        assert_eq!(narrow(0.5, 16), Some(0x3800));
        assert_eq!(narrow(-2.0, 16), Some(0xc000));
        assert_eq!(narrow(0.1, 16), Some(0x2e66));
        assert_eq!(narrow(5.960464477539063e-8, 16), Some(0x0001));
        assert_eq!(narrow(6.103515625e-5, 16), Some(0x0400));
    }

    #[test]
    fn double_is_the_bits() {
        assert_eq!(narrow(-3.1415, 64), Some(0xc009_21ca_c083_126f));
        assert_eq!(narrow(2.3509886e-70, 64), Some(2.3509886e-70f64.to_bits()));
    }
}
