//! Short texts as keys held in a table's own slots, and a hasher for them.
//!
//! The assembler looks up each operand's text of a line among those it
//! learned (`v17`, `s[4:5]`, `-|v1|`, `offset:4095`). A text of its own
//! allocation as the key is a second place to read after the table's slot,
//! and its comparison a call into the C library; held in the slot, a lookup
//! reads one place and compares a few words. A text longer than the key
//! holds is left to the caller (its line is read the long way).
//!
//! Measured and left out: the line's first word held so among the
//! templates' (a key of 32 bytes, a second table for longer words) made
//! the bench-peer stream's assembly some 3% slower than its boxed text
//! with this hasher, timed alternately on one core.

use std::hash::{Hash, Hasher};

/// A text of at most [`ShortText::MAX`] bytes: its length, then its
/// bytes, then zeros (so a zero byte of the text is not taken for padding).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ShortText(pub(crate) [u8; 24]);

impl Hash for ShortText {
    /// Its three words, each multiplied by its own odd constant and the
    /// products combined: the multiplications run side by side, where
    /// hashing the bytes in turn chained one after another.
    fn hash<H: Hasher>(&self, h: &mut H) {
        const K: [u64; 3] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9];
        let mut mixed = 0;
        for (w, k) in self.0.as_chunks::<8>().0.iter().zip(K) {
            mixed ^= u64::from_le_bytes(*w).wrapping_mul(k);
        }
        h.write_u64(mixed);
    }
}

impl ShortText {
    /// The longest text a key holds.
    pub(crate) const MAX: usize = 23;

    /// The key of `text`, if it is short enough.
    #[inline]
    pub(crate) fn new(text: &[u8]) -> Option<Self> {
        let n = text.len();
        if n > Self::MAX {
            return None;
        }
        let mut k = [0; 24];
        k[0] = n as u8;
        // Copies of fixed size, overlapping where the text is not a
        // multiple of them: a copy of a length known only here was a call
        // into the C library for a few bytes.
        let mut copy = |at: usize, len: usize| k[1 + at..1 + at + len].copy_from_slice(&text[at..at + len]);
        match n {
            0 => {}
            1..=3 => {
                copy(0, 1);
                copy(n / 2, 1);
                copy(n - 1, 1);
            }
            4..=7 => {
                copy(0, 4);
                copy(n - 4, 4);
            }
            8..=16 => {
                copy(0, 8);
                copy(n - 8, 8);
            }
            _ => {
                copy(0, 16);
                copy(n - 16, 16);
            }
        }
        Some(ShortText(k))
    }
}

/// Whether `text` begins with `s`, as `starts_with` says, comparing a
/// short `s` (a separator, a mnemonic, an enum's name) by two loads of
/// fixed size, overlapping where its length is not theirs: a comparison of
/// a length known only here was a call into the C library, several times a
/// line.
#[inline]
pub(crate) fn begins(text: &[u8], s: &[u8]) -> bool {
    let n = s.len();
    let Some(t) = text.get(..n) else { return false };
    let word4 = |b: &[u8], at: usize| b[at..].first_chunk::<4>().map(|w| u32::from_le_bytes(*w));
    let word8 = |b: &[u8], at: usize| b[at..].first_chunk::<8>().map(|w| u64::from_le_bytes(*w));
    let word16 = |b: &[u8], at: usize| b[at..].first_chunk::<16>().map(|w| u128::from_le_bytes(*w));
    match n {
        0 => true,
        1..=3 => t[0] == s[0] && t[n / 2] == s[n / 2] && t[n - 1] == s[n - 1],
        4..=7 => word4(t, 0) == word4(s, 0) && word4(t, n - 4) == word4(s, n - 4),
        8..=16 => word8(t, 0) == word8(s, 0) && word8(t, n - 8) == word8(s, n - 8),
        17..=32 => word16(t, 0) == word16(s, 0) && word16(t, n - 16) == word16(s, n - 16),
        _ => t == s,
    }
}

/// A text as a table's key that is compared by [`begins`] rather than a
/// call into the C library: the assembler looks up every line's first
/// word among its templates' (`v_cvt_f16_f32_sdwa`). Looked up by
/// [`Word`], the text it borrows as.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct WordKey(Box<[u8]>);

impl WordKey {
    pub(crate) fn new(text: &str) -> WordKey {
        WordKey(text.as_bytes().into())
    }
}

/// A text as [`WordKey`] compares it.
#[repr(transparent)]
#[derive(Debug)]
pub(crate) struct Word([u8]);

impl Word {
    pub(crate) fn of(text: &[u8]) -> &Word {
        // SAFETY: `Word` is `[u8]` alone (`repr(transparent)`), so a
        // pointer to one is a pointer to the other, with the same length.
        unsafe { &*(text as *const [u8] as *const Word) }
    }
}

impl PartialEq for Word {
    fn eq(&self, other: &Word) -> bool {
        self.0.len() == other.0.len() && begins(&self.0, &other.0)
    }
}

impl Eq for Word {}

impl Hash for Word {
    /// As `[u8]` hashes, as [`WordKey`]'s derived hash does: a key and the
    /// word it borrows as hash alike.
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.hash(h);
    }
}

impl std::borrow::Borrow<Word> for WordKey {
    fn borrow(&self) -> &Word {
        Word::of(&self.0)
    }
}

/// A hasher for short byte strings (operand texts) and small keys from the
/// spec: eight bytes at a time, a multiply and a rotation each, where the
/// standard hasher's rounds cost more than the lookup they serve. Not
/// resistant to chosen collisions, which cost time, never a wrong answer:
/// a key is compared whole.
#[derive(Default)]
pub(crate) struct TextHasher(u64);

impl Hasher for TextHasher {
    /// One round, for a key that mixed itself into a word ([`ShortText`]).
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w) ^ (rest.len() as u64) << 59).wrapping_mul(K);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_begins_with_what_starts_with_says() {
        let mut rng = crate::TestRng::new(5);
        for _ in 0..50_000 {
            let len = (rng.next_u64() % 40) as usize;
            let text: Vec<u8> = (0..len).map(|_| b"ab"[(rng.next_u64() % 2) as usize]).collect();
            let n = (rng.next_u64() % 42) as usize;
            let s: Vec<u8> = (0..n).map(|_| b"ab"[(rng.next_u64() % 2) as usize]).collect();
            assert_eq!(begins(&text, &s), text.starts_with(&s), "{text:?} {s:?}");
            // Its own beginnings, every length.
            let own = &text[..n.min(len)];
            assert!(begins(&text, own), "{text:?} {own:?}");
        }
        // Every byte of every length is compared: one byte changed anywhere
        // is seen.
        let text: Vec<u8> = (b'a'..=b'z').chain(b'A'..=b'Z').collect();
        for n in 1..=40 {
            for i in 0..n {
                let mut s = text[..n].to_vec();
                s[i] ^= 0x20;
                assert!(!begins(&text, &s), "length {n}, byte {i}");
            }
        }
    }

    #[test]
    fn a_word_key_is_found_by_its_word_alone() {
        use std::collections::HashMap;
        use std::hash::BuildHasherDefault;
        let words = ["v_nop", "s_mov_b32", "v_cvt_f16_f32_sdwa", "buffer_atomic_fcmpswap_x2", "v_cvt_f16_f32_sdw"];
        let map: HashMap<WordKey, usize, BuildHasherDefault<TextHasher>> =
            words.iter().enumerate().map(|(i, w)| (WordKey::new(w), i)).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(map.get(Word::of(w.as_bytes())), Some(&i), "{w}");
        }
        for w in ["", "v_no", "v_nopp", "v_cvt_f16_f32_sdwb", "V_NOP"] {
            assert_eq!(map.get(Word::of(w.as_bytes())), None, "{w}");
        }
    }

    #[test]
    fn a_text_key_is_its_length_and_bytes() {
        assert_eq!(ShortText::new(b"v1").map(|t| t.0[..4].to_vec()), Some(vec![2, b'v', b'1', 0]));
        assert_ne!(ShortText::new(b"v1"), ShortText::new(b"v1\0"), "a zero byte is not padding");
        assert_eq!(ShortText::new(b""), Some(ShortText([0; 24])));
        assert_eq!(ShortText::new(&[b'a'; ShortText::MAX + 1]), None);
        // Every length, its copies overlapping or not.
        let bytes: Vec<u8> = (1..=ShortText::MAX as u8).collect();
        for n in 0..=ShortText::MAX {
            let key = ShortText::new(&bytes[..n]).expect("short enough").0;
            assert_eq!(key[0] as usize, n);
            assert_eq!(&key[1..=n], &bytes[..n], "length {n}");
            assert!(key[n + 1..].iter().all(|&b| b == 0), "length {n} padded with zeros");
        }
    }
}
