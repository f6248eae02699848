//! Where a printer's search for an operand's form starts.
//!
//! An operand the printer cannot remember (its text reads a parameter too
//! wide for a key: GCN's literal dword, passed from the instruction
//! through its source to the scalar form) is printed from the tables, and
//! choosing its form walks the group's candidates for its word in priority
//! order, evaluating each one's `requires` until one holds. For a GCN
//! literal that is the special registers, the inline integers and the
//! 16-bit literal, all turned down, before the 32-bit literal is taken.
//!
//! Whether a candidate holds is a function of the operand's word, the
//! generation and the parameters its conditions read: fields lie within
//! the form's own bits (the generator checks), and a parameter is what the
//! scope above passed in. So when the same group meets the same word with
//! the same values of the parameters that turned down the candidates
//! before, the same candidates are turned down again, and the search may
//! start past them. [`FormStarts`] remembers, per group and word, where it
//! started last and what that depended on: the parameters read while
//! turning candidates down (bit `i` for parameter `i`) and their values.
//! The candidate taken is judged as before (its conditions read the
//! literal, whose values are rarely met twice). A disassembled line with a
//! literal cost 6,220 machine instructions, 5,130 so (callgrind, GCN).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::bits::Bits;
use crate::eval::Given;
use crate::short_text::TextHasher;

/// A search's start, and what it holds for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    /// The parameters read while the candidates before it were turned
    /// down: bit `i` for parameter `i`.
    pub read: u8,
    /// Their values (the others 0).
    pub values: [i64; Given::MAX],
    /// The index, in the candidates for the word, to start from.
    pub from: u16,
}

impl Start {
    /// The start for parameters `given`, turning down the candidates before
    /// `from` having read `read` of them.
    pub fn new(read: u8, given: &Given, from: u16) -> Start {
        let mut values = [0; Given::MAX];
        for (i, v) in values.iter_mut().enumerate() {
            if read >> i & 1 == 1 {
                *v = given.values[i];
            }
        }
        Start { read, values, from }
    }

    /// Whether it holds for parameters `given`: each it read has the value
    /// it had.
    fn holds(&self, given: &Given) -> bool {
        (0..Given::MAX).all(|i| self.read >> i & 1 == 0 || self.values[i] == given.values[i])
    }
}

/// Starts remembered per group and word (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct FormStarts {
    by_word: HashMap<(u16, Bits), [Option<Start>; FormStarts::WAYS], BuildHasherDefault<TextHasher>>,
    /// Searches that started past the first candidate.
    pub skipped: u64,
}

impl FormStarts {
    /// Starts kept per group and word: one per combination of the
    /// parameters read (GCN's scalar source reads its width and whether it
    /// is 16-bit: three combinations in practice).
    const WAYS: usize = 4;

    /// Groups and words remembered at most, whatever the input (past it,
    /// searches start at the first candidate): seven eighths of 4,096, so
    /// that the table never grows past 4,096 slots of 288 bytes, 1.2 MiB.
    /// The words that come here are few (operands with a parameter too
    /// wide to remember: GCN's literal marker, one word per group).
    const CAPACITY: usize = 4096 / 8 * 7;

    /// Where the search for the form of `group` holding `word` starts, for
    /// parameters `given`, and what turning down the candidates before it
    /// read: the first candidate and nothing when nothing is known.
    pub fn start(&self, group: u16, word: Bits, given: &Given) -> Start {
        let found = self.by_word.get(&(group, word)).and_then(|ways| ways.iter().flatten().find(|s| s.holds(given)));
        found.copied().unwrap_or(Start { read: 0, values: [0; Given::MAX], from: 0 })
    }

    /// Remembers `start` for `group` and `word`, in place of one that
    /// holds for the same values, else of the oldest.
    pub fn learn(&mut self, group: u16, word: Bits, start: Start) {
        if self.by_word.len() >= FormStarts::CAPACITY && !self.by_word.contains_key(&(group, word)) {
            return;
        }
        let ways = self.by_word.entry((group, word)).or_default();
        let same = |s: &Option<Start>| s.is_some_and(|s| s.read == start.read && s.values == start.values);
        let at = ways.iter().position(same).unwrap_or_else(|| {
            ways.rotate_right(1);
            0
        });
        ways[at] = Some(start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(values: &[i64]) -> Given {
        let mut g = Given::NONE;
        g.depth = 1;
        g.values[..values.len()].copy_from_slice(values);
        g
    }

    #[test]
    fn a_start_holds_where_the_parameters_it_read_are_the_same() {
        let mut s = FormStarts::default();
        assert_eq!(s.start(3, 255, &given(&[1, 0, 77])).from, 0, "nothing known");
        // Turned down reading parameters 0 and 1; parameter 2 (the
        // literal) is not part of it.
        s.learn(3, 255, Start::new(0b011, &given(&[1, 0, 77]), 5));
        assert_eq!(s.start(3, 255, &given(&[1, 0, 12345])).from, 5);
        assert_eq!(s.start(3, 255, &given(&[2, 0, 77])).from, 0, "another width");
        assert_eq!(s.start(3, 255, &given(&[1, 1, 77])).from, 0, "16-bit");
        assert_eq!(s.start(3, 254, &given(&[1, 0, 77])).from, 0, "another word");
        assert_eq!(s.start(4, 255, &given(&[1, 0, 77])).from, 0, "another group");
    }

    #[test]
    fn each_combination_of_values_keeps_its_own_start_up_to_the_ways() {
        let mut s = FormStarts::default();
        for w in 1..=FormStarts::WAYS as i64 {
            s.learn(0, 9, Start::new(0b1, &given(&[w]), w as u16));
        }
        for w in 1..=FormStarts::WAYS as i64 {
            assert_eq!(s.start(0, 9, &given(&[w])).from, w as u16);
        }
        // Learning the same values again replaces, not adds.
        s.learn(0, 9, Start::new(0b1, &given(&[2]), 7));
        assert_eq!(s.start(0, 9, &given(&[2])).from, 7);
        assert_eq!(s.start(0, 9, &given(&[1])).from, 1, "still kept");
        // One more combination pushes out the oldest.
        s.learn(0, 9, Start::new(0b1, &given(&[9]), 9));
        assert_eq!(s.start(0, 9, &given(&[9])).from, 9);
        assert_eq!(s.start(0, 9, &given(&[1])).from, 0, "the oldest is gone");
    }

    #[test]
    fn memory_stays_bounded() {
        // The slot size the capacity's comment counts on, at most.
        assert!(std::mem::size_of::<((u16, Bits), [Option<Start>; FormStarts::WAYS])>() <= 288);
        let mut s = FormStarts::default();
        for w in 0..FormStarts::CAPACITY as Bits + 100 {
            s.learn(0, w, Start::new(0, &given(&[]), 1));
        }
        assert_eq!(s.by_word.len(), FormStarts::CAPACITY);
        assert!(s.by_word.capacity() <= 4096 / 8 * 7, "{} slots' worth", s.by_word.capacity());
        assert_eq!(s.start(0, FormStarts::CAPACITY as Bits + 50, &given(&[])).from, 0);
    }
}
