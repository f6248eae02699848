//! Which encodings of a group can match the same word: the spec's
//! ambiguity check.
//!
//! Two encodings overlap when their fixed bits agree wherever both fix a
//! bit, their generation ranges meet, and neither has the higher priority.
//! Comparing every pair costs the square of the group's size (two billion
//! pairs at the 65,536 encodings a spec may define), and where encodings
//! overlapped there was a diagnostic per pair: 3,000 encodings of one
//! opcode made 4.5 million (3.3 GB). Encodings are compared by
//! *class* instead (the same fixed bits and priority: the 2,602 encodings
//! of GCN's instruction group have 99 masks of fixed bits, ir3's 255 have
//! 54): two classes' encodings can overlap only where
//! their values agree on the bits both fix, so one class is bucketed by
//! those bits and the other looked up in it; within a class, a bucket's
//! encodings (the same fixed bits) are swept by generation. The work is
//! then about the number of classes times the group's size, plus the pairs
//! found; the pairs are capped, and the work has a budget past which the
//! check gives up and says so.

use std::collections::HashMap;

use indexmap::IndexMap;
use isa_runtime::Bits;

/// One encoding as the check sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enc {
    pub mask: Bits,
    pub value: Bits,
    /// The generations it exists in, both ends included.
    pub gens: (u32, u32),
    pub priority: i64,
}

/// Most overlapping pairs reported: past a few dozen, more say nothing new
/// (the user fixes the first and loads again).
pub const MAX_PAIRS: usize = 64;

/// Most lookups and comparisons the check makes: 2^26, a second or so.
/// Real specs take far fewer (about a hundred classes times a few thousand
/// encodings); only a group of thousands of masks reaches it, or two
/// classes of many encodings that agree on the bits both fix but not on
/// their generations.
pub const MAX_WORK: u64 = 1 << 26;

/// Most pairs two classes may have for them to be compared pair by pair
/// rather than through buckets.
const SMALL: usize = 16;

/// What [`overlaps`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Overlaps {
    /// The overlapping pairs, `(i, j)` with `i < j` (indices into the
    /// encodings given), sorted; at most [`MAX_PAIRS`].
    pub pairs: Vec<(usize, usize)>,
    /// Whether there were more than [`MAX_PAIRS`] (the search stopped).
    pub more: bool,
    /// When the work ran past [`MAX_WORK`], the encoding being checked:
    /// the pairs found so far are not all there are.
    pub gave_up_at: Option<usize>,
    /// The classes (masks of fixed bits and priorities) compared.
    pub classes: usize,
}

/// The pairs of `encs` that can match the same word (see the module
/// documentation).
pub fn overlaps(encs: &[Enc]) -> Overlaps {
    let mut classes: IndexMap<(Bits, i64), Vec<usize>> = IndexMap::new();
    for (i, e) in encs.iter().enumerate() {
        classes.entry((e.mask, e.priority)).or_default().push(i);
    }
    // Only classes of one priority are compared: side by side once sorted.
    let mut classes: Vec<((Bits, i64), Vec<usize>)> = classes.into_iter().collect();
    classes.sort_by_key(|((_, prio), _)| *prio);
    let mut out = Overlaps { classes: classes.len(), ..Overlaps::default() };
    let mut work: u64 = 0;
    let meet = |a: &Enc, b: &Enc| a.gens.0 <= b.gens.1 && b.gens.0 <= a.gens.1;
    'all: for (ci, ((mask_i, prio_i), members_i)) in classes.iter().enumerate() {
        let peers = classes[ci..].iter().take_while(|((_, prio_j), _)| prio_j == prio_i);
        for ((mask_j, _), members_j) in peers {
            if over(&mut work) {
                out.gave_up_at = members_j.first().copied();
                break 'all;
            }
            let common = mask_i & mask_j;
            let same = std::ptr::eq(members_i, members_j);
            // Small classes (a spec of many masks) are compared pair by
            // pair: no buckets to build.
            if !same && members_i.len() * members_j.len() <= SMALL {
                for &i in members_i {
                    for &j in members_j {
                        if over(&mut work) {
                            out.gave_up_at = Some(i.max(j));
                            break 'all;
                        }
                        let (a, b) = (&encs[i], &encs[j]);
                        if (a.value ^ b.value) & common == 0 && meet(a, b) && !found(&mut out, i.min(j), i.max(j)) {
                            break 'all;
                        }
                    }
                }
                continue;
            }
            let mut buckets: HashMap<Bits, Vec<usize>> = HashMap::new();
            for &j in members_j {
                if over(&mut work) {
                    out.gave_up_at = Some(j);
                    break 'all;
                }
                buckets.entry(encs[j].value & common).or_default().push(j);
            }
            if same {
                // Within a class a bucket's encodings have the same fixed
                // bits: those whose generations meet overlap. By first
                // generation, each meets those after it that start before
                // it ends, and no other: the work is the pairs found.
                let mut buckets: Vec<Vec<usize>> = buckets.into_values().collect();
                buckets.sort_unstable();
                for mut bucket in buckets {
                    bucket.sort_unstable_by_key(|&i| (encs[i].gens.0, i));
                    for (k, &i) in bucket.iter().enumerate() {
                        for &j in bucket[k + 1..].iter().take_while(|&&j| encs[j].gens.0 <= encs[i].gens.1) {
                            if over(&mut work) {
                                out.gave_up_at = Some(j);
                                break 'all;
                            }
                            if !found(&mut out, i.min(j), i.max(j)) {
                                break 'all;
                            }
                        }
                    }
                }
                continue;
            }
            for &i in members_i {
                if over(&mut work) {
                    out.gave_up_at = Some(i);
                    break 'all;
                }
                for &j in buckets.get(&(encs[i].value & common)).into_iter().flatten() {
                    if over(&mut work) {
                        out.gave_up_at = Some(i);
                        break 'all;
                    }
                    if meet(&encs[i], &encs[j]) && !found(&mut out, i.min(j), i.max(j)) {
                        break 'all;
                    }
                }
            }
        }
    }
    out.pairs.sort_unstable();
    out
}

/// Counts one more step of work: `true` when it is past [`MAX_WORK`].
fn over(work: &mut u64) -> bool {
    *work += 1;
    *work > MAX_WORK
}

/// Records the pair `(i, j)`; `false` when it is one past [`MAX_PAIRS`]
/// (then `more` is set and the search stops).
fn found(out: &mut Overlaps, i: usize, j: usize) -> bool {
    if out.pairs.len() == MAX_PAIRS {
        out.more = true;
        return false;
    }
    out.pairs.push((i, j));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(mask: Bits, value: Bits) -> Enc {
        Enc { mask, value, gens: (0, u32::MAX), priority: 0 }
    }

    /// The pairs by comparing every two, as the check did before classes.
    fn every_pair(encs: &[Enc]) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (i, a) in encs.iter().enumerate() {
            for (j, b) in encs.iter().enumerate().skip(i + 1) {
                let gens = a.gens.0 <= b.gens.1 && b.gens.0 <= a.gens.1;
                if gens && a.priority == b.priority && (a.value ^ b.value) & a.mask & b.mask == 0 {
                    pairs.push((i, j));
                }
            }
        }
        pairs
    }

    #[test]
    fn fixed_bits_generations_and_priority_each_keep_encodings_apart() {
        let encs = [
            enc(0xf0, 0x10),                           // 0
            enc(0xf0, 0x20),                           // 1: differs from 0 in bits 4..8
            enc(0x0f, 0x01),                           // 2: overlaps 0 and 1 (0x11, 0x21)
            Enc { gens: (5, 9), ..enc(0xff, 0x11) },   // 3: overlaps 0 and 2
            Enc { gens: (10, 20), ..enc(0xff, 0x11) }, // 4: overlaps 0 and 2, not 3
            Enc { priority: 1, ..enc(0xff, 0x11) },    // 5: wins over all
            enc(0xff, 0x31),                           // 6: overlaps 2 only
        ];
        let o = overlaps(&encs);
        assert_eq!(o.pairs, vec![(0, 2), (0, 3), (0, 4), (1, 2), (2, 3), (2, 4), (2, 6)]);
        assert_eq!((o.more, o.gave_up_at), (false, None));
    }

    #[test]
    fn the_same_pairs_as_comparing_every_two() {
        // Random masks from a few shapes, values in few bits so that many
        // overlap; generations and priorities from small ranges.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..200 {
            let n = (next() % 40) as usize;
            let encs: Vec<Enc> = (0..n)
                .map(|_| {
                    let mask = [0xff, 0xf0, 0x0f, 0x3c, 0][(next() % 5) as usize];
                    let lo = (next() % 4) as u32;
                    Enc {
                        mask,
                        value: (next() as Bits) & mask & 0x33,
                        gens: (lo, lo + (next() % 3) as u32),
                        priority: (next() % 2) as i64,
                    }
                })
                .collect();
            let mut want = every_pair(&encs);
            let o = overlaps(&encs);
            let more = want.len() > MAX_PAIRS;
            want.truncate(MAX_PAIRS);
            if !more {
                assert_eq!(o.pairs, want, "{encs:?}");
            }
            assert_eq!(o.more, more, "{encs:?}");
        }
    }

    #[test]
    fn a_group_that_overlaps_everywhere_stops_at_the_cap() {
        let encs = vec![enc(0xff, 7); 100_000];
        let o = overlaps(&encs);
        assert_eq!(o.pairs.len(), MAX_PAIRS);
        assert!(o.more);
        assert_eq!(o.gave_up_at, None);
    }

    #[test]
    fn encodings_apart_only_by_generation_take_little_work() {
        // 20,000 encodings with the same bits, each in its own generation:
        // no pair overlaps, which comparing every pair would take 200
        // million comparisons to tell. Then two that meet, past the rest.
        let mut encs: Vec<Enc> = (0..20_000).map(|g| Enc { gens: (g, g), ..enc(0xff, 7) }).collect();
        assert_eq!(overlaps(&encs), Overlaps { classes: 1, ..Overlaps::default() });
        encs.push(Enc { gens: (19_999, 20_005), ..enc(0xff, 7) });
        encs.push(Enc { gens: (30_000, 30_000), ..enc(0xff, 7) });
        assert_eq!(overlaps(&encs).pairs, vec![(19_999, 20_000)]);
    }

    #[test]
    fn many_distinct_encodings_take_little_work() {
        // 65,536 encodings in two classes told apart by bit 16, each
        // encoding apart from the others of its class by its low 16 bits:
        // some 131,072 lookups, where every pair would be two billion.
        let encs: Vec<Enc> = (0..65_536u32)
            .map(|i| match i % 2 {
                0 => enc(0x1_ffff, (i / 2) as Bits),
                _ => enc(0x3_ffff, 0x1_0000 | (i / 2) as Bits),
            })
            .collect();
        assert_eq!(overlaps(&encs), Overlaps { classes: 2, ..Overlaps::default() });
    }
}
