//! The operand texts a [`crate::Printer`] remembers.
//!
//! Printing an operand (a sub-encoding) is most of the cost of printing an
//! instruction: picking its form evaluates `requires`, its case `when`, its
//! fields' expressions and the parameters passed down. Yet nothing reaches an
//! operand's text but its group, its depth (which bounds nesting), the bits of
//! its own word and the values of the parameters its field passes in (for one
//! generation and one syntax): its fields are bits of that word or
//! expressions over them and the parameters. Code repeats operands (the same
//! registers, the same constants), so a printer keeps the text last printed
//! for each such key in a small direct-mapped table, and checks the whole key
//! on a hit: a collision costs a print, never a wrong text.

use crate::Isa;
use crate::bits::Bits;
use crate::tables::{Tok, Ty};

/// Parameters a remembered operand's group may have.
pub(crate) const MAX_PARAMS: usize = 6;

/// Longest text remembered, in bytes: a slot is one cache line.
const MAX_TEXT: usize = 23;

/// Slots in the table; a power of two. 4096 slots of 64 bytes stay in a
/// core's second-level cache.
const SLOTS: usize = 4096;

/// A slot's length when it holds nothing.
const EMPTY: u8 = u8::MAX;

/// Everything an operand's text depends on, besides the printer's
/// generation and syntax, in the width a slot keeps: an operand whose word
/// is wider than 64 bits, or a parameter value wider than 32, is printed
/// each time (a literal's value, which rarely repeats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// The operand's own word.
    pub word: u64,
    /// The parameter values its field passes in; zero past the group's.
    pub params: [i32; MAX_PARAMS],
    pub group: u16,
    pub depth: u8,
}

impl Key {
    /// The key of an operand of `group` at `depth` whose word is `word` and
    /// whose parameters are `params`, if it fits a slot.
    pub fn new(group: u16, depth: usize, word: Bits, params: &[i64]) -> Option<Key> {
        let mut key = Key { word: u64::try_from(word).ok()?, params: [0; MAX_PARAMS], group, depth: depth as u8 };
        if params.len() > MAX_PARAMS {
            return None;
        }
        for (k, &v) in key.params.iter_mut().zip(params) {
            *k = i32::try_from(v).ok()?;
        }
        Some(key)
    }

    fn slot(&self) -> usize {
        // Multiply-xorshift over the key's words: cheap, and it spreads the
        // low bits (a register number) over the index.
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = (self.group as u64) << 8 | self.depth as u64;
        let p = |i: usize| (self.params[i] as u32 as u64) << 32 | self.params[i + 1] as u32 as u64;
        for v in [self.word, p(0), p(2), p(4)] {
            h = (h ^ v).wrapping_mul(K);
            h ^= h >> 29;
        }
        (h >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    key: Key,
    len: u8,
    text: [u8; MAX_TEXT],
}

/// Operand texts by [`Key`], and which groups' texts may be remembered.
pub(crate) struct Memo {
    slots: Box<[Slot]>,
    /// By group index: whether its text is a function of the key alone.
    fixed: Box<[bool]>,
    /// Texts found.
    pub hits: u64,
}

impl Memo {
    pub fn new(isa: &Isa) -> Memo {
        Memo::with_fixed(fixed_texts(isa))
    }

    fn with_fixed(fixed: Box<[bool]>) -> Memo {
        let empty =
            Slot { key: Key { word: 0, params: [0; MAX_PARAMS], group: 0, depth: 0 }, len: EMPTY, text: [0; MAX_TEXT] };
        Memo { slots: vec![empty; SLOTS].into_boxed_slice(), fixed, hits: 0 }
    }

    /// Whether group `g`'s operands may be remembered.
    pub fn remembers(&self, g: u16) -> bool {
        self.fixed.get(g as usize).copied().unwrap_or(false)
    }

    pub fn get(&mut self, key: &Key) -> Option<&str> {
        let s = &self.slots[key.slot()];
        if s.len == EMPTY || s.key != *key {
            return None;
        }
        self.hits += 1;
        std::str::from_utf8(&s.text[..s.len as usize]).ok()
    }

    /// Remembers `text` for `key`, in place of what shared its slot; a text
    /// too long to keep is not remembered.
    pub fn put(&mut self, key: Key, text: &str) {
        if text.len() > MAX_TEXT {
            return;
        }
        let s = &mut self.slots[key.slot()];
        s.key = key;
        s.len = text.len() as u8;
        s.text[..text.len()].copy_from_slice(text.as_bytes());
    }
}

/// By group: whether an operand's text is a function of its [`Key`]. It is
/// not when the group has more parameters than a key holds, or when one of
/// its leaves, or of the groups nested in them, pads to the mnemonic column
/// (`{|}`), whose width depends on what the line already holds.
fn fixed_texts(isa: &Isa) -> Box<[bool]> {
    // 0: not seen, 1: being looked at, 2: fixed, 3: not.
    let mut state = vec![0u8; isa.groups.len()];
    (0..isa.groups.len()).map(|g| fixed(isa, g, &mut state)).collect()
}

fn fixed(isa: &Isa, g: usize, state: &mut [u8]) -> bool {
    match state[g] {
        2 => return true,
        // A group reached again inside itself is taken as not fixed: no
        // sound answer is cheaper, and nesting is bounded anyway.
        1 | 3 => return false,
        _ => {}
    }
    state[g] = 1;
    let group = &isa.groups[g];
    let ok = group.params.len() <= MAX_PARAMS
        && group.leaves.iter().all(|&l| {
            isa.leaves[l as usize].cases.iter().all(|case| {
                std::iter::once(case.display).chain(case.displays.iter().copied()).flatten().all(|tok| match *tok {
                    Tok::Column => false,
                    Tok::Field(i) | Tok::OptField(_, i, _) => match case.fields.get(i as usize).map(|f| f.ty) {
                        Some(Ty::Group { group, .. }) => fixed(isa, group as usize, state),
                        _ => true,
                    },
                    _ => true,
                })
            })
        });
    state[g] = if ok { 2 } else { 3 };
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(word: u64, p0: i32) -> Key {
        let mut params = [0; MAX_PARAMS];
        params[0] = p0;
        Key { word, params, group: 3, depth: 1 }
    }

    #[test]
    fn a_slot_is_a_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 64);
    }

    #[test]
    fn what_does_not_fit_a_slot_has_no_key() {
        assert!(Key::new(1, 1, 5, &[1, -2]).is_some());
        assert_eq!(Key::new(1, 1, 1 << 64, &[]), None, "a word past 64 bits");
        assert_eq!(Key::new(1, 1, 5, &[1 << 40]), None, "a parameter past 32 bits");
        assert_eq!(Key::new(1, 1, 5, &[0; MAX_PARAMS + 1]), None, "too many parameters");
    }

    #[test]
    fn a_text_is_found_only_under_its_whole_key() {
        let mut m = Memo::with_fixed(Box::new([]));
        assert_eq!(m.get(&key(5, 1)), None);
        m.put(key(5, 1), "s[4:5]");
        assert_eq!(m.get(&key(5, 1)), Some("s[4:5]"));
        assert_eq!(m.hits, 1);
        assert_eq!(m.get(&key(5, 2)), None, "another parameter value");
        assert_eq!(m.get(&Key { depth: 2, ..key(5, 1) }), None, "another depth");
        assert_eq!(m.get(&Key { group: 4, ..key(5, 1) }), None, "another group");
        // An empty text is a text (an option that is off).
        m.put(key(6, 0), "");
        assert_eq!(m.get(&key(6, 0)), Some(""));
        // A long text is printed each time rather than cut.
        m.put(key(7, 0), &"x".repeat(MAX_TEXT + 1));
        assert_eq!(m.get(&key(7, 0)), None);
    }

    #[test]
    fn a_slot_shared_by_two_keys_holds_the_last() {
        let mut m = Memo::with_fixed(Box::new([]));
        let a = key(1, 0);
        let b = (2..).map(|w| key(w, 0)).find(|k| k.slot() == a.slot()).expect("keys outnumber slots");
        m.put(a, "v1");
        m.put(b, "v2");
        assert_eq!(m.get(&a), None);
        assert_eq!(m.get(&b), Some("v2"));
    }
}
