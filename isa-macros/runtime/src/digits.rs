//! Decimal and hexadecimal digits of integers, written straight into a
//! `String`.
//!
//! A disassembler prints a number or two on most lines (a literal, an
//! offset, a count); through `write!` each costs the formatting machinery's
//! argument handling and padding logic, several times the digits' own work.

/// Appends `v` in decimal.
pub fn push_dec(out: &mut String, mut v: u64) {
    // u64::MAX has 20 digits.
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    push_ascii(out, &buf[at..]);
}

/// Appends `v` in decimal, with a `-` when negative.
pub fn push_signed(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_dec(out, v.unsigned_abs());
}

/// Appends `v` in lowercase hexadecimal, without a prefix, in at least
/// `min` digits (zeros in front; a `u64` has 16 at most).
pub fn push_hex(out: &mut String, v: u64, min: usize) {
    // All sixteen digits at once, without a loop or a branch: an
    // assembler writes one or two 64-bit words a line.
    let mut buf = [0u8; 16];
    buf[..8].copy_from_slice(&hex_digits(v >> 32).to_be_bytes());
    buf[8..].copy_from_slice(&hex_digits(v & 0xffff_ffff).to_be_bytes());
    let used = (16 - v.leading_zeros() as usize / 4).max(min.clamp(1, buf.len()));
    push_ascii(out, &buf[buf.len() - used..]);
}

/// The eight hex digits of the 32-bit `x`, one a byte, the most
/// significant in the most significant byte.
fn hex_digits(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Each nibble to a byte of its own.
    let x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    let x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    let x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // A byte of 10 or more carries into its high nibble when 6 is added.
    let letters = ((x + 6 * ONES) >> 4) & ONES;
    x + b'0' as u64 * ONES + letters * (b'a' - b'0' - 10) as u64
}

/// Appends `v` in lowercase hexadecimal after `0x`.
pub fn push_hexlit(out: &mut String, v: u64) {
    out.push_str("0x");
    push_hex(out, v, 1);
}

/// Appends `bytes`, which callers build from ASCII digits and
/// punctuation. Checked as ASCII (a few words compared at once) rather
/// than as UTF-8: `str::from_utf8` took some 75 machine instructions on
/// eight digits, more than making them, and a disassembler prints a
/// literal on one line in twelve, an assembler's bytes on every line.
pub fn push_ascii(out: &mut String, bytes: &[u8]) {
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        out.push_str(unsafe { std::str::from_utf8_unchecked(bytes) });
    } else {
        out.push_str(&String::from_utf8_lossy(bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values at every power of ten and sixteen and beside them, and the
    /// extremes: each digit count and carry.
    fn samples() -> Vec<u64> {
        let mut v = vec![0, 1, 9, 10, 15, 16, u64::MAX, u64::MAX - 1, i64::MAX as u64, 1 << 63];
        // Every hex digit in every place.
        v.extend((0..16).map(|k| 0x0123_4567_89ab_cdef_u64.rotate_left(4 * k)));
        v.extend((0..16).map(|k| 0xfedc_ba98_7654_3210_u64.rotate_left(4 * k)));
        let (mut p10, mut p16) = (1u64, 1u64);
        for _ in 0..20 {
            v.extend([p10.wrapping_sub(1), p10, p10.wrapping_add(1)]);
            p10 = p10.wrapping_mul(10);
        }
        for _ in 0..16 {
            v.extend([p16.wrapping_sub(1), p16, p16.wrapping_add(1)]);
            p16 = p16.wrapping_mul(16);
        }
        v
    }

    #[test]
    fn decimal_agrees_with_std() {
        for v in samples() {
            let mut s = String::from("x");
            push_dec(&mut s, v);
            assert_eq!(s, format!("x{v}"));
            let mut s = String::new();
            push_signed(&mut s, v as i64);
            assert_eq!(s, format!("{}", v as i64));
        }
        let mut s = String::new();
        push_signed(&mut s, i64::MIN);
        assert_eq!(s, "-9223372036854775808");
    }

    #[test]
    fn ascii_is_pushed_as_it_is_and_anything_else_lossily() {
        let mut s = String::from("x");
        push_ascii(&mut s, b"0x1f,0x20");
        assert_eq!(s, "x0x1f,0x20");
        push_ascii(&mut s, &[b'a', 0xff, b'b']);
        assert_eq!(s, "x0x1f,0x20a\u{fffd}b");
    }

    #[test]
    fn hexadecimal_agrees_with_std() {
        for v in samples() {
            for min in 0..=17 {
                let mut s = String::new();
                push_hex(&mut s, v, min);
                let digits = min.clamp(1, 16);
                assert_eq!(s, format!("{v:0digits$x}"), "{v:#x} in at least {min} digits");
            }
        }
    }
}
