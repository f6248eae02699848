//! Decimal and hexadecimal digits of integers, written straight into a
//! `String`.
//!
//! A disassembler prints a number or two on most lines (a literal, an
//! offset, a count); through `write!` each costs the formatting machinery's
//! argument handling and padding logic, several times the digits' own work.

const HEX: &[u8; 16] = b"0123456789abcdef";

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
    let mut buf = [b'0'; 16];
    let mut at = buf.len();
    let mut rest = v;
    while rest != 0 {
        at -= 1;
        buf[at] = HEX[(rest & 15) as usize];
        rest >>= 4;
    }
    let start = at.min(buf.len() - min.clamp(1, buf.len()));
    push_ascii(out, &buf[start..]);
}

/// Appends `v` in lowercase hexadecimal after `0x`.
pub fn push_hexlit(out: &mut String, v: u64) {
    out.push_str("0x");
    push_hex(out, v, 1);
}

fn push_ascii(out: &mut String, digits: &[u8]) {
    // Only ASCII digits are ever written to the buffers above.
    out.push_str(std::str::from_utf8(digits).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values at every power of ten and sixteen and beside them, and the
    /// extremes: each digit count and carry.
    fn samples() -> Vec<u64> {
        let mut v = vec![0, 1, 9, 10, 15, 16, u64::MAX, u64::MAX - 1, i64::MAX as u64, 1 << 63];
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
