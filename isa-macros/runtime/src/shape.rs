//! An operand text's shape: the text with its number left out.
//!
//! [`crate::recall`] remembers operand texts whole, which serves registers
//! and constants, the few hundred texts code repeats. A literal dword
//! (`0x3f30a863`) or a 16-bit offset (` offset:19052`) rarely repeats, and
//! reading each the long way walks every form of its operand group (some
//! 5,000 machine instructions on GCN, where such operands are a fifth of the
//! lines of varied code). Yet their texts come in a few shapes, `0x#` and
//! ` offset:#`, and in each the number lands in one place: the word, or a
//! parameter the operand passes up to the instruction. So a text read the
//! long way whose number is found, whole, in exactly such places teaches
//! its shape; a later text of that shape in the same context is read by
//! putting its own number there. That reading is a guess like any other,
//! kept only when the assembler confirms it (a number the operand's form
//! does not take, such as an inline constant written in hex, fails to
//! decode or to print back, and the line is read the long way).

use crate::bits::{Bits, width_of};
use crate::canonical::Read;
use crate::memo::MAX_PARAMS;
use crate::recall::{bind_operand, bound_by};
use crate::tables::Range;

/// Longest shape remembered, in bytes (as the whole texts
/// [`crate::recall`] remembers).
pub(crate) const MAX: usize = 23;

/// A shape as a key: its length, then its bytes, the number's place
/// marked by a byte UTF-8 text never holds (one for hex, one for decimal),
/// then zeros.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Shape([u8; MAX + 1]);

/// The marks of a number's place in a [`Shape`].
const HEX: u8 = 0xff;
const DEC: u8 = 0xfe;

/// The shape of `text` and the number in it: its last number, written in
/// hex after `0x` or in decimal, standing apart from letters, digits and
/// `_` (`v17` has none: its `17` is part of a name). `None` for a text
/// with no such number, a number past 64 bits, or a shape too long to be
/// a key.
pub(crate) fn shape_of(text: &[u8]) -> Option<(Shape, u64)> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    // The last number standing apart: (start, end, mark).
    let mut last = None;
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_digit() || i > 0 && word(&text[i - 1]) {
            i += 1;
            continue;
        }
        let hex = text[i..].starts_with(b"0x") && text.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        let (from, mark) = if hex { (i + 2, HEX) } else { (i, DEC) };
        let digit = |b: &u8| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() };
        let end = from + text[from..].iter().take_while(|b| digit(b)).count();
        if !text.get(end).is_some_and(word) {
            last = Some((i, end, mark));
        }
        i = end.max(i + 1);
    }
    let (start, end, mark) = last?;
    let value = match mark {
        HEX => u64::from_str_radix(std::str::from_utf8(&text[start + 2..end]).ok()?, 16).ok()?,
        _ => std::str::from_utf8(&text[start..end]).ok()?.parse().ok()?,
    };
    let len = start + 1 + (text.len() - end);
    let mut key = [0; MAX + 1];
    key.get_mut(1..=len)?;
    key[0] = len as u8;
    key[1..=start].copy_from_slice(&text[..start]);
    key[start + 1] = mark;
    key[start + 2..=len].copy_from_slice(&text[end..]);
    Some((Shape(key), value))
}

/// What reading a text of one shape binds: as [`crate::recall`]'s
/// remembered readings (the operand's word, `bound` of its bits, and the
/// parameters passed up in `named`), with the places that took the number
/// (the word, and bit `k` of `takes` for parameter `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shaped {
    word: u64,
    bound: u64,
    named: u8,
    values: [u64; MAX_PARAMS],
    word_takes: bool,
    takes: u8,
}

/// Least number a text's shape is learned from: a 0 or a 1 is found in
/// too many places by chance (a cleared flag, an unset bit).
const LEAST_NUMBER: u64 = 2;

/// What the long way's reading of an operand whose text's number is
/// `number` teaches of its shape: the operand's word at `ranges`, its
/// parameters at `params`, `bits` the instruction's and `named` the bits
/// the reading bound. `None` when [`bound_by`] refuses the reading, or
/// when the number is in none of its places, whole.
pub(crate) fn shaped_from(
    places: (&[Range], &[Option<&[Range]>; MAX_PARAMS]),
    (bits, named): (Bits, Bits),
    number: u64,
) -> Option<Shaped> {
    if number < LEAST_NUMBER {
        return None;
    }
    let (word, bound, named, values) = bound_by(places, (bits, named), 64)?;
    let takes = (0..MAX_PARAMS).fold(0u8, |t, k| t | u8::from(named >> k & 1 == 1 && values[k] == number) << k);
    let s = Shaped { word, bound, named, values, word_takes: word == number, takes };
    (s.word_takes || s.takes != 0).then_some(s)
}

/// Binds what `s` says of an operand with its word at `ranges` and its
/// parameters at `params`, whose text's number is `number`, over `read`:
/// `None` when the number does not fit a place that takes it, or on a
/// conflict with bits bound before.
pub(crate) fn apply(
    (ranges, params): (&[Range], &[Option<&[Range]>; MAX_PARAMS]),
    s: &Shaped,
    number: u64,
    read: Read,
) -> Option<Read> {
    if s.word_takes && number & !s.bound != 0 {
        return None;
    }
    let fits = |k: usize| params[k].is_some_and(|r| number.checked_shr(width_of(r)).unwrap_or(0) == 0);
    if (0..MAX_PARAMS).any(|k| s.takes >> k & 1 == 1 && !fits(k)) {
        return None;
    }
    let word = if s.word_takes { number } else { s.word };
    let value = |k: usize| if s.takes >> k & 1 == 1 { number } else { s.values[k] };
    bind_operand((ranges, params), (word, s.bound), s.named, value, read)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Option<(Vec<u8>, u64)> {
        shape_of(text.as_bytes()).map(|(Shape(k), v)| (k[1..=k[0] as usize].to_vec(), v))
    }

    #[test]
    fn a_shape_is_the_text_with_its_last_number_marked() {
        assert_eq!(shape("0x3f30a863"), Some((vec![HEX], 0x3f30a863)));
        assert_eq!(shape(" offset:19052"), Some((b" offset:\xfe".to_vec(), 19052)));
        assert_eq!(shape("offset1:26"), Some((b"offset1:\xfe".to_vec(), 26)));
        assert_eq!(shape("-0x40"), Some((b"-\xff".to_vec(), 0x40)));
        assert_eq!(shape("s[4:5]"), Some((b"s[4:\xfe]".to_vec(), 5)));
        assert_eq!(shape("0xd047bcbc"), Some((vec![HEX], 0xd047bcbc)));
        assert_eq!(shape("dmask:0xf glc"), Some((b"dmask:\xff glc".to_vec(), 0xf)));
        assert_eq!(shape("v[1:2] glc"), Some((b"v[1:\xfe] glc".to_vec(), 2)));
        // A number that is part of a name, none at all, one too wide.
        assert_eq!(shape("v17"), None);
        assert_eq!(shape("vcc"), None);
        assert_eq!(shape("0x1ffffffffffffffff"), None);
        assert_eq!(shape("99999999999999999999"), None);
        // Hex digits without `0x` are a decimal number's neighbours.
        assert_eq!(shape("ab12"), None);
        // A shape too long to be a key.
        assert_eq!(shape(&format!("{} 1", "x".repeat(MAX - 1))), None);
        assert!(shape(&format!("{} 1", "x".repeat(MAX - 2))).is_some());
    }

    static WORD: [Range; 1] = [Range { lo: 0, width: 16 }];
    static FLAG: [Range; 1] = [Range { lo: 16, width: 1 }];
    static LIT: [Range; 1] = [Range { lo: 32, width: 32 }];

    fn params() -> [Option<&'static [Range]>; MAX_PARAMS] {
        let mut p = [None; MAX_PARAMS];
        p[0] = Some(&FLAG[..]);
        p[1] = Some(&LIT[..]);
        p
    }

    #[test]
    fn a_shape_puts_a_later_number_where_the_first_was() {
        let p = params();
        // A literal: the word is the marker 255, the flag set, the
        // parameter the number.
        let bits: Bits = 0x1234_5678 << 32 | 1 << 16 | 0xff;
        let named: Bits = 0xffff_ffff << 32 | 1 << 16 | 0xffff;
        let s = shaped_from((&WORD, &p), (bits, named), 0x1234_5678).expect("learned");
        let start = Read { bits: 0, bound: 0 };
        let read = apply((&WORD, &p), &s, 0x3f30_a863, start).expect("applied");
        assert_eq!(read, Read { bits: 0x3f30_a863 << 32 | 1 << 16 | 0xff, bound: named });
        // A number wider than its place.
        assert_eq!(apply((&WORD, &p), &s, 1 << 32, start), None);
        // A conflict with a bit bound before.
        assert_eq!(apply((&WORD, &p), &s, 7, Read { bits: 0, bound: 1 << 16 }), None);
        // An offset: the number is the word.
        let s = shaped_from((&WORD, &p), (19052, 0xffff), 19052).expect("learned");
        assert_eq!(apply((&WORD, &p), &s, 26, start), Some(Read { bits: 26, bound: 0xffff }));
        assert_eq!(apply((&WORD, &p), &s, 1 << 16, start), None);
    }

    #[test]
    fn a_shape_is_learned_only_where_the_number_is() {
        let p = params();
        // The number in no place, one too small to tell, bits the
        // operand does not own, part of a parameter.
        assert_eq!(shaped_from((&WORD, &p), (0xff, 0xffff), 0x40), None);
        assert_eq!(shaped_from((&WORD, &p), (1, 0xffff), 1), None);
        assert_eq!(shaped_from((&WORD, &p), (40, 0xffff | 1 << 20), 40), None);
        assert_eq!(shaped_from((&WORD, &p), (40, 0xffff | 1 << 40), 40), None);
    }
}
