//! Building the direct decoder (see `isa_runtime::Direct`) from the general
//! decoding tables: the tree flattened into one array, and each leaf whose
//! plan fits a probe's fixed shape copied into one.
//!
//! Nothing here reads the spec: a probe is a plan re-packed, so it accepts
//! what the plan accepts. The parts reading one run of bits, or runs that
//! lie within one of at most 12 bits (see `keys_over`), become one key,
//! their verdicts tabulated together (one lookup instead of several); a
//! condition or a length's part that is not one run of at most 12 bits
//! within the shorter length or past the third key, an operand's part over
//! four runs, 16 bits or past the first 64 bits, a value a part leaves to
//! another table without an ask, a length evaluated: such a leaf gets no
//! probe, and the general tables decode it.

use std::collections::HashMap;

use crate::dispatch::intern;
use isa_runtime::{
    Ask, Direct, DirectTables, Dispatch, Further, Key, MorePart, NO_ASK, NO_PROBE, NODE, NOTHING, Part, Plan, Probe,
    Tree, Unit, gather, scatter,
};

/// The direct decoder for the first group's `tree` and the plans of every
/// generation class (`plans`, class-major, `leaves` per class).
pub fn build(tree: &Tree, d: &Dispatch, leaves: usize) -> Direct {
    let mut b = Builder::new(d);
    // The tree's shape, the same in every class; its ends are candidate
    // lists (offsets in `tree.lists`; `u32::MAX` for none) until a class
    // puts its probes there. The root is always a node (of one bit whose
    // values lead to the same list when the tree is one list), so that it
    // is the same in every class.
    let mut shape = Vec::new();
    let root = match tree.root & NODE {
        0 => {
            shape.extend([tree.root as u64; 2]);
            Direct::node(0, 1, 0)
        }
        _ => flatten(tree, tree.root, &mut shape, &mut HashMap::new()),
    };
    let classes = d.plans.len().checked_div(leaves).unwrap_or(0);
    let mut entries = Vec::with_capacity(classes * shape.len());
    for class in 0..classes {
        let plans = &d.plans[class * leaves..(class + 1) * leaves];
        for &e in &shape {
            entries.push(match Direct::is_node(e) {
                false => {
                    let [first, second] = b.row(tree, plans, e as u32);
                    first as u64 | (second as u64) << 16
                }
                true => e,
            });
        }
    }
    Direct::new(DirectTables {
        root,
        entries: leak(entries),
        entries_per_class: shape.len() as u32,
        probes: leak(b.probes),
        further: leak(b.further),
        more: leak(b.more),
        verdicts: leak(b.verdicts),
        bitmaps: leak(b.bitmaps),
        asks: leak(b.asks),
        cuts: leak(b.cuts),
    })
}

/// Most verdicts the keys' tables evaluate for one spec (each table made
/// once; GCN's take 38,866): a key of 12 bits is 4,096 of them, and a spec of
/// thousands of encodings with conditions of their own would otherwise cost
/// that many each. A probe past the budget is not made, and the general
/// tables decode its leaf: the same answers.
const MAX_VERDICTS: u64 = 1 << 24;

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// The entry for tree slot `slot`, its subtree appended to `entries` (see
/// [`build`]) unless `done` (by slot) has it: the tree shares subtrees, and
/// so does its copy. A node past the first 64 bits ends the walk with no
/// probe.
fn flatten(tree: &Tree, slot: u32, entries: &mut Vec<u64>, done: &mut HashMap<u32, u64>) -> u64 {
    if slot & NODE == 0 {
        return slot as u64;
    }
    if let Some(&e) = done.get(&slot) {
        return e;
    }
    let Some(n) = tree.nodes.get((slot & !NODE) as usize) else { return u32::MAX as u64 };
    let (lo, w) = (n.lo as u32, n.width as u32);
    let first = entries.len();
    if lo + w > 64 || w > 16 || first + (1 << w) > u32::MAX as usize {
        return u32::MAX as u64;
    }
    // A node of no bits is one of one bit whose values lead to the same
    // child: a node's entry holds a mask, and no bits would be none.
    let switched = w.max(1);
    entries.resize(first + (1 << switched), 0);
    for v in 0..1usize << switched {
        let child = tree.slots.get(n.first as usize + (v >> (switched - w))).copied().unwrap_or(u32::MAX);
        entries[first + v] = flatten(tree, child, entries, done);
    }
    let e = Direct::node(if w == 0 { 0 } else { lo }, switched, first as u32);
    done.insert(slot, e);
    e
}

/// What a part does with the values its unit leaves to a second table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// There may be none (a condition's part, a length's).
    Refused,
    /// They fail: the general tables decide them.
    Fail,
    /// They pass: the probe's [`Ask`] judges them.
    Pass,
}

/// Runs of bits, each `(lo, width)`, most significant first.
type Runs = Vec<(u32, u32)>;

/// A part before it is packed: the runs of bits it reads and its bitmap's
/// offset.
type Unpacked = (Runs, u32);

/// What a key's use gives: the bitmap of its run's values, the verdict, the
/// bit that gives it, and where its run lies in the key's (its first bit
/// above the key's, its width).
type Verdict = (u32, u8, bool, (u32, u32));

/// A check a probe makes of one run of bits, before it is a key: the run
/// (`(lo, width)`), the bitmap of its values, and the verdict `flag` its
/// values give where the bitmap's bit is `when`.
struct Use {
    run: (u32, u32),
    bitmap: u32,
    flag: u8,
    when: bool,
}

struct Builder<'a> {
    d: &'a Dispatch,
    bitmaps: Vec<u64>,
    bitmap_at: HashMap<Vec<u64>, u32>,
    probes: Vec<Probe>,
    further: Vec<Further>,
    probe_at: HashMap<(Probe, Further), u16>,
    verdicts: Vec<u8>,
    verdicts_at: HashMap<Vec<u8>, u32>,
    more: Vec<MorePart>,
    more_at: HashMap<Vec<MorePart>, u32>,
    asks: Vec<Ask>,
    asks_at: HashMap<Vec<Ask>, u32>,
    cuts: Vec<u64>,
    cuts_at: HashMap<Vec<u64>, u32>,
    /// Each key's table by its width and its uses: where it starts in
    /// `verdicts`.
    table_at: HashMap<(u32, Vec<Verdict>), u32>,
    /// Verdicts the keys' tables have evaluated, against [`MAX_VERDICTS`].
    verdicts_spent: u64,
    /// Each layout of runs' further part (see [`Builder::gathering`]).
    gathering_of: HashMap<Vec<(u32, u32)>, Option<MorePart>>,
}

impl<'a> Builder<'a> {
    /// A builder over `d` with only the probe that matches nothing and the
    /// bitmap of all ones (word 0).
    fn new(d: &'a Dispatch) -> Builder<'a> {
        let mut b = Builder {
            d,
            bitmaps: vec![!0],
            bitmap_at: HashMap::new(),
            probes: vec![NOTHING],
            further: vec![Further::NONE],
            probe_at: HashMap::new(),
            // What an unused key reads (see `Key::UNUSED`).
            verdicts: vec![0, 0],
            verdicts_at: HashMap::new(),
            more: Vec::new(),
            more_at: HashMap::new(),
            asks: Vec::new(),
            asks_at: HashMap::new(),
            cuts: Vec::new(),
            cuts_at: HashMap::new(),
            table_at: HashMap::new(),
            verdicts_spent: 0,
            gathering_of: HashMap::new(),
        };
        b.probe_at.insert((NOTHING, Further::NONE), NO_PROBE);
        b.bitmap_at.insert(vec![!0], 0);
        b
    }

    /// The probes for the candidate list at `at` (in `tree.lists`;
    /// `u32::MAX` for none): the first two leaves present in the class,
    /// while each has a probe, the likelier first where that changes no
    /// answer (see [`Builder::swapped`]).
    fn row(&mut self, tree: &Tree, plans: &[Plan], at: u32) -> [u16; 2] {
        let row = self.row_in_order(tree, plans, at);
        self.swapped(row).unwrap_or(row)
    }

    /// `row`'s probes the other way round, the second (perhaps with some
    /// verdicts made failures) tried first, when a word of random bits is
    /// likelier to pass it and the order changes no answer; `None` to keep
    /// the list's order.
    ///
    /// A list's order is priority: a more specific leaf (GCN's SDWA and DPP
    /// forms, the first source's code fixed to name them) comes before the
    /// general one it overlaps, whose probe then fails most words first,
    /// and most words are the general one's. Trying `b` before `a` is sound
    /// when `b` never says "is" of a word `a` would not turn down (the
    /// direct decoder answers only "is"; anything else goes on to the next
    /// probe or to the general tables, which are always right): where both
    /// identify a word, a key of `a` fails on every value its run may hold,
    /// or a key of `b` fails or finds an operand invalid on every one. Those
    /// verdicts of `b`'s key that found an operand invalid are made
    /// failures, so that such words go on to `a` as before rather than to
    /// the general tables: a failure only ever hands a word on, which is
    /// always sound.
    fn swapped(&mut self, row: [u16; 2]) -> Option<[u16; 2]> {
        if row.contains(&NO_PROBE) {
            return None;
        }
        let [a, mut b] = row.map(|i| self.probes.get(i as usize).copied());
        let (a, b) = (a?, b.as_mut()?);
        if self.odds(b) <= self.odds(&a) {
            return None;
        }
        if a.mask & b.mask & (a.value ^ b.value) != 0 {
            return Some([row[1], row[0]]);
        }
        let both = (a.mask | b.mask, a.value | b.value);
        if a.keys.iter().any(|k| self.always(k, both, Key::FAILS)) {
            return Some([row[1], row[0]]);
        }
        let k = b.keys.iter().position(|k| self.always(k, both, Key::FAILS | Key::INVALID))?;
        let key = b.keys[k];
        let mut table = self.verdicts_of(&key)?.to_vec();
        for i in Builder::indices(&key, both) {
            table[i] |= Key::FAILS;
        }
        b.keys[k] = key.with_at(intern(&mut self.verdicts, &mut self.verdicts_at, table))?;
        let further = *self.further.get(row[1] as usize)?;
        Some([self.intern_probe(*b, further)?, row[0]])
    }

    /// The index of `probe` with its further checks `further` in
    /// [`Builder::probes`] (and [`Builder::further`]), added if new; `None`
    /// past 2^15 probes (two fit an entry without its node bit).
    fn intern_probe(&mut self, probe: Probe, further: Further) -> Option<u16> {
        if let Some(&i) = self.probe_at.get(&(probe, further)) {
            return Some(i);
        }
        let i = u16::try_from(self.probes.len()).ok().filter(|&i| i < 1 << 15)?;
        self.probes.push(probe);
        self.further.push(further);
        self.probe_at.insert((probe, further), i);
        Some(i)
    }

    /// Key `k`'s verdicts, one per value of its run.
    fn verdicts_of(&self, k: &Key) -> Option<&[u8]> {
        self.verdicts.get(k.at() as usize..=k.at() as usize + k.mask() as usize)
    }

    /// The base-2 logarithm of the share of random words that pass `p`'s
    /// identifying bits and whose keys' verdicts do not fail (the keys
    /// taken as independent).
    fn odds(&self, p: &Probe) -> f64 {
        let mut log = -(p.mask.count_ones() as f64);
        for k in p.keys.iter().filter(|&&k| k != Key::UNUSED) {
            let table = self.verdicts_of(k).unwrap_or(&[]);
            let pass = table.iter().filter(|&&v| v & Key::FAILS == 0).count();
            log += (pass.max(1) as f64 / (k.mask() as f64 + 1.0)).log2();
        }
        log
    }

    /// Whether key `k`'s verdict holds one of `flags` for every value its
    /// run may hold in a word whose bits `fixed` are `value` (`both`).
    fn always(&self, k: &Key, both: (u64, u64), flags: u8) -> bool {
        let Some(table) = self.verdicts_of(k).filter(|_| *k != Key::UNUSED) else { return false };
        Builder::indices(k, both).all(|i| table.get(i).is_some_and(|v| v & flags != 0))
    }

    /// The values of key `k`'s run in the words whose bits `fixed` are
    /// `value` (`both`): the run's free bits' subsets, at most
    /// 2^[`Key::MAX_BITS`].
    fn indices(k: &Key, (fixed, value): (u64, u64)) -> impl Iterator<Item = usize> {
        let (lo, mask) = (k.lo(), k.mask());
        let free = mask & !(fixed >> lo);
        let base = (value >> lo) & mask & !free;
        let mut next = Some(0u64);
        std::iter::from_fn(move || {
            let sub = next?;
            // The next subset of `free`, by the usual trick; 0 again ends.
            next = Some(sub.wrapping_sub(free) & free).filter(|&n| n != 0);
            Some((base | sub) as usize)
        })
    }

    /// [`Builder::row`] in the list's order.
    fn row_in_order(&mut self, tree: &Tree, plans: &[Plan], at: u32) -> [u16; 2] {
        let mut row = [NO_PROBE; 2];
        let Some(&len) = tree.lists.get(at as usize) else { return row };
        let cands = tree.lists.get(at as usize + 1..at as usize + 1 + len as usize).unwrap_or(&[]);
        let present = cands.iter().filter(|&&l| plans.get(l as usize).is_some_and(|p| p.flags & Plan::ABSENT == 0));
        for (slot, &leaf) in row.iter_mut().zip(present) {
            match plans.get(leaf as usize).and_then(|p| self.probe(leaf, p)) {
                Some(p) => *slot = p,
                None => break,
            }
        }
        row
    }

    /// The probe of `leaf` checked by plan `p`, if the plan fits one.
    fn probe(&mut self, leaf: u16, p: &Plan) -> Option<u16> {
        if p.flags & (Plan::PAST_64 | Plan::REQUIRES_SLOW | Plan::OPERANDS_SLOW | Plan::LENGTH_SLOW) != 0 {
            return None;
        }
        let bytes = |bits: u16| (bits.is_multiple_of(8) && bits <= 64).then_some((bits / 8) as u8);
        let (then, otherwise) = match p.length() {
            isa_runtime::Length::Fixed(n) => (bytes(n)?, bytes(n)?),
            isa_runtime::Length::Choice { then, otherwise, .. } => (bytes(then)?, bytes(otherwise)?),
            isa_runtime::Length::Slow => return None,
        };
        let at = p.units as usize;
        let (nr, no, nc) = (p.requires as usize, p.operands as usize, p.choice as usize);
        let units = self.d.units.get(at..at + nr + no + nc)?;
        if (p.flags & Plan::CHOICE != 0) != (nc > 0) {
            return None;
        }
        // Parts that hold for every value (a register field any value of
        // which is valid) are left out.
        // A condition's or a length's part must answer every value: one
        // left to a second table would send the word to the next candidate.
        // An operand's values so left are judged by the probe's asks.
        let mut asks = Vec::new();
        let mut quiet = Vec::new();
        let mut kept = |units: &[Unit], refused: bool| -> Option<Vec<Unpacked>> {
            let mut v = Vec::new();
            for u in units {
                let asked = match refused {
                    true => Asked::Refused,
                    false => match self.asks(u) {
                        Some(a) => {
                            if !a.is_empty() {
                                quiet.push(self.quiet(u)?);
                            }
                            asks.extend(a);
                            Asked::Pass
                        }
                        None => Asked::Fail,
                    },
                };
                v.extend(self.part(u, asked)?);
            }
            Some(v)
        };
        let choice = kept(&units[nr + no..], true)?;
        let conditions = kept(&units[..nr], true)?;
        let operands = kept(&units[nr..nr + no], false)?;
        // The probe reads its keys, and its mask, before the length is
        // known: they must lie within the shorter length (a part of the
        // longer form reads zeros in the shorter). Operands' parts that do
        // not fit go further, where they are read on the instruction's own
        // bits.
        let within = 8 * then.min(otherwise) as u32;
        let past = if within < 64 { p.mask >> within << within } else { 0 };
        // A key reads at least one bit: the decoder skips a probe's keys
        // when the first reads none.
        let run = |(runs, _): &Unpacked| match runs[..] {
            [(lo, width)] if lo + width <= within && (1..=Key::MAX_BITS).contains(&width) => Some((lo, width)),
            _ => None,
        };
        // Each verdict composes by or: the length is the longer one unless
        // some part of its choice fails, a condition holds unless some
        // part fails, and so on. So every part is a use of its run, and
        // the uses of one run are one key.
        let mut uses: Vec<Use> = Vec::new();
        for c in &choice {
            uses.push(Use { run: run(c)?, bitmap: c.1, flag: Key::OTHERWISE, when: false });
        }
        // A condition reading past the shorter length (or more than one
        // run) is a further part, read on the instruction's own bits: a
        // word failing it is left to the general tables, which try the
        // next candidate.
        let mut more = Vec::new();
        for c in &conditions {
            match run(c) {
                Some(r) => uses.push(Use { run: r, bitmap: c.1, flag: Key::FAILS, when: false }),
                None => more.push(self.more_part(&c.0, c.1)?),
            }
        }
        // Most words ask nothing (a literal is the exception): the asking
        // operands' values are a key's verdict where they fit one run, and
        // the asks are made for every word otherwise.
        let mut always = false;
        for q in &quiet {
            match run(q) {
                Some(r) => uses.push(Use { run: r, bitmap: self.complement(q), flag: Key::ASKS, when: true }),
                None => always = true,
            }
        }
        // Identifying bits past the shorter length are a further part
        // holding for their value alone, read on the instruction's own bits
        // (zeros past a short one's end, as the engine compares them): a
        // word it refuses is left to the general tables, which try the
        // next candidate.
        if past != 0 {
            let runs: Runs = crate::dispatch::runs(past as isa_runtime::Bits)
                .iter()
                .map(|r| (r.lo as u32, r.width as u32))
                .collect();
            let width: u32 = runs.iter().map(|r| r.1).sum();
            if width > MorePart::MAX_BITS {
                return None;
            }
            let mut bitmap = vec![0u64; (1usize << width).div_ceil(64)];
            let v = gather(&runs, p.value);
            bitmap[(v / 64) as usize] |= 1 << (v % 64);
            let at = self.masked(bitmap, width);
            more.push(self.more_part(&runs, at)?);
        }
        for o in &operands {
            match run(o) {
                Some(r) => uses.push(Use { run: r, bitmap: o.1, flag: Key::INVALID, when: false }),
                None => more.push(self.more_part(&o.0, o.1)?),
            }
        }
        // The length's and the conditions' runs must be keys; asking
        // values past the third key make the asks always, operands' parts
        // are read further.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for u in uses.iter().filter(|u| u.flag & (Key::OTHERWISE | Key::FAILS) != 0) {
            if !runs.contains(&u.run) {
                runs.push(u.run);
            }
        }
        let required = runs.len();
        for u in &uses {
            if !runs.contains(&u.run) {
                runs.push(u.run);
            }
        }
        let runs = keys_over(runs, required, within);
        let key_of = |run: (u32, u32)| runs.iter().copied().find(|&k| contains(k, run));
        if runs.len() > 3 {
            return None;
        }
        for u in uses.iter().filter(|u| key_of(u.run).is_none()) {
            match u.flag {
                Key::ASKS => always = true,
                _ => more.push(self.more_part(&[u.run], u.bitmap)?),
            }
        }
        // A key's table depends only on its width and its uses' bitmaps and
        // verdicts: the same operand kinds recur in many probes and every
        // class, so each table is made once.
        let mut keys = [Key::UNUSED; 3];
        for (key, &(lo, width)) in keys.iter_mut().zip(&runs) {
            let mine: Vec<Verdict> = uses
                .iter()
                .filter(|u| key_of(u.run) == Some((lo, width)))
                .map(|u| (u.bitmap, u.flag, u.when, (u.run.0 - lo, u.run.1)))
                .collect();
            let at = match self.table_at.get(&(width, mine.clone())) {
                Some(&at) => at,
                None => {
                    if self.verdicts_spent + (1 << width) > MAX_VERDICTS {
                        return None;
                    }
                    self.verdicts_spent += 1 << width;
                    let table = (0..1usize << width)
                        .map(|v| {
                            mine.iter()
                                .filter(|&&(bitmap, _, when, (shift, w))| {
                                    let v = v >> shift & ((1 << w) - 1);
                                    self.bitmaps[bitmap as usize + v / 64] >> (v % 64) & 1 == when as u64
                                })
                                .fold(0, |f, &(_, flag, _, _)| f | flag)
                        })
                        .collect::<Vec<u8>>();
                    let at = intern(&mut self.verdicts, &mut self.verdicts_at, table);
                    self.table_at.insert((width, mine), at);
                    at
                }
            };
            *key = Key::new(lo, width, at)?;
        }
        always |= !more.is_empty();
        let probe = Probe {
            mask: p.mask & !past,
            value: p.value & !past,
            keys,
            leaf,
            lens: Probe::lens(then, otherwise)?,
            always: if always { Key::ASKS } else { 0 },
        };
        let further = Further {
            more_len: u8::try_from(more.len()).ok()?,
            more: intern(&mut self.more, &mut self.more_at, more),
            asks_len: u8::try_from(asks.len()).ok()?,
            asks: u16::try_from(intern(&mut self.asks, &mut self.asks_at, asks)).ok()?,
        };
        self.intern_probe(probe, further)
    }

    /// The [`Ask`]s judging the values unit `u` leaves to a second table,
    /// one per unit that answers some of them: each a unit of up to 12 bits
    /// (an ir3 float-table index) or one read by intervals (a GCN literal).
    /// `None` when a value has no such unit.
    fn asks(&mut self, u: &Unit) -> Option<Vec<Ask>> {
        if u.ask == NO_ASK || u.sub == NO_ASK {
            return None;
        }
        let (runs, width, words) = self.runs(u)?;
        let asked = self.d.bitmaps.get(u.ask as usize..u.ask as usize + words)?;
        let any = Part::new(&runs, intern(&mut self.bitmaps, &mut self.bitmap_at, asked.to_vec()))?;
        // The asked values, by the unit answering them, in order of first use.
        let mut by_sub: Vec<(u32, Vec<u64>)> = Vec::new();
        for i in (0..1usize << width).filter(|i| asked[i / 64] >> (i % 64) & 1 == 1) {
            let s = *self.d.subs.get(u.sub as usize + i)?;
            let at = match by_sub.iter().position(|(t, _)| *t == s) {
                Some(at) => at,
                None => {
                    by_sub.push((s, vec![0; words]));
                    by_sub.len() - 1
                }
            };
            by_sub[at].1[i / 64] |= 1 << (i % 64);
        }
        if let Some(one) = self.folded(&runs, &by_sub, any)? {
            return Some(one);
        }
        let mut asks = Vec::new();
        // The asked values within the operand's (bitmap bits past its
        // values say nothing).
        let first = first_word(width);
        for (s, values) in by_sub {
            let s = *self.d.units.get(s as usize)?;
            // One unit answering every asked value: what `any` lets
            // through, this ask judges, with no second lookup.
            let all =
                values.iter().zip(asked).enumerate().all(|(k, (&v, &a))| v == a & if k == 0 { first } else { !0 });
            let when = match all {
                true => Part::ALWAYS,
                false => Part::new(&runs, intern(&mut self.bitmaps, &mut self.bitmap_at, values))?,
            };
            let ask = match s.range_len {
                Unit::CUTS => {
                    let (lo, w) = (s.lo as u32, s.width as u32);
                    let at = s.range_start as usize;
                    let n = *self.d.cuts.get(at)? as usize;
                    let starts = self.d.cuts.get(at + 1..at + 1 + n)?.to_vec();
                    if w == 0 || w >= 64 || lo + w > 64 || n == 0 || n > 64 || starts[0] != 0 {
                        return None;
                    }
                    let answers = *self.d.bitmaps.get(s.bitmap as usize)? & (!0u64 >> (64 - n));
                    let buckets = isa_runtime::cut_buckets(&starts, w);
                    let cuts = intern(&mut self.cuts, &mut self.cuts_at, [starts, buckets].concat());
                    Ask {
                        any,
                        skip: 0,
                        when,
                        sub: MorePart::ALWAYS,
                        lo: lo as u8,
                        width: w as u8,
                        cuts_len: n as u8,
                        cuts,
                        answers,
                    }
                }
                // A second unit answers every value (it has no ask of its own).
                _ if s.ask == NO_ASK => match self.part(&s, Asked::Refused)? {
                    Some((sub_runs, bitmap)) => {
                        let sub = self.more_part(&sub_runs, bitmap)?;
                        Ask { any, skip: 0, when, sub, lo: 0, width: 0, cuts_len: 0, cuts: 0, answers: 0 }
                    }
                    // Every value holds: nothing to judge.
                    None => continue,
                },
                _ => return None,
            };
            asks.push(ask);
        }
        // Each skips the rest of the operand's when its values read nothing.
        let n = asks.len();
        for (k, a) in asks.iter_mut().enumerate() {
            a.skip = u8::try_from(n - k).ok()?;
        }
        Some(asks)
    }

    /// The asks of one operand as one (see [`Builder::asks`]), when every
    /// asked value is judged by a second unit's part and the operand's runs
    /// with those parts' fit one [`MorePart`]: its bitmap says, for each value
    /// of the operand's bits and the further bits together, whether the
    /// part answering that value holds. An ir3 source whose float-table
    /// index is judged by a part of its own for each of eight kinds of
    /// source (one bit of the instruction telling which table) was eight
    /// asks, each looked up on every word that asked; now it is one lookup.
    ///
    /// `Some(None)` when they do not fold (a value read by intervals, parts
    /// of more runs or bits than a part reads, runs that overlap): the asks
    /// are made one per unit. `None` when a unit cannot be read at all.
    fn folded(&mut self, runs: &Runs, by_sub: &[(u32, Vec<u64>)], any: Part) -> Option<Option<Vec<Ask>>> {
        let mut subs: Vec<(Vec<u64>, Option<Unpacked>)> = Vec::new();
        for (s, values) in by_sub {
            let s = *self.d.units.get(*s as usize)?;
            if s.range_len == Unit::CUTS || s.ask != NO_ASK {
                return Some(None);
            }
            subs.push((values.clone(), self.part(&s, Asked::Refused)?));
        }
        if subs.iter().all(|(_, part)| part.is_none()) {
            // Every asked value holds: nothing to judge.
            return Some(Some(Vec::new()));
        }
        let mut all = runs.clone();
        for (sub_runs, _) in subs.iter().filter_map(|(_, part)| part.as_ref()) {
            for r in sub_runs {
                if !all.contains(r) {
                    all.push(*r);
                }
            }
        }
        let width: u32 = all.iter().map(|r| r.1).sum();
        // Overlapping runs, or more than a part gathers: one ask per unit.
        let Some(gathering) = self.gathering(&all) else { return Some(None) };
        let mut bitmap = vec![0u64; (1usize << gathering.index_bits()).div_ceil(64)];
        for i in 0..1u64 << width {
            let word = scatter(&all, i);
            let v = gather(runs, word) as usize;
            let holds = match subs.iter().find(|(values, _)| values[v / 64] >> (v % 64) & 1 == 1) {
                // Not asked (the ask's `any` passes it by): holds.
                None => true,
                Some((_, None)) => true,
                Some((_, Some((sub_runs, at)))) => {
                    let j = gather(sub_runs, word) as usize;
                    self.bitmaps[*at as usize + j / 64] >> (j % 64) & 1 == 1
                }
            };
            let at = gathering.index(word);
            bitmap[(at / 64) as usize] |= (holds as u64) << (at % 64);
        }
        let sub = MorePart { bitmap: self.masked(bitmap, gathering.index_bits()), ..gathering };
        let when = Part::ALWAYS;
        Some(Some(vec![Ask { any, skip: 1, when, sub, lo: 0, width: 0, cuts_len: 0, cuts: 0, answers: 0 }]))
    }

    /// The further part reading `runs` (most significant first) whose
    /// bitmap is at `at`, laid out again when the part gathers them in
    /// another order or with bits between them (see
    /// [`MorePart::gathering`]); `None` when no part gathers them.
    fn more_part(&mut self, runs: &[(u32, u32)], at: u32) -> Option<MorePart> {
        let part = self.gathering(runs)?;
        let width: u32 = runs.iter().map(|r| r.1).sum();
        let moved = |v: u64| part.index(scatter(runs, v));
        if part.index_bits() == width && (0..1u64 << width).all(|v| moved(v) == v) {
            return Some(MorePart { bitmap: at, ..part });
        }
        let mut bitmap = vec![0u64; (1usize << part.index_bits()).div_ceil(64)];
        for v in 0..1u64 << width {
            let holds = self.bitmaps[at as usize + (v / 64) as usize] >> (v % 64) & 1;
            bitmap[(moved(v) / 64) as usize] |= holds << (moved(v) % 64);
        }
        Some(MorePart { bitmap: self.masked(bitmap, part.index_bits()), ..part })
    }

    /// [`MorePart::gathering`], found once per layout of runs (it tries
    /// up to 64 rotations of several layouts, each on every value).
    fn gathering(&mut self, runs: &[(u32, u32)]) -> Option<MorePart> {
        *self.gathering_of.entry(runs.to_vec()).or_insert_with(|| MorePart::gathering(runs))
    }

    /// The runs of bits unit `u` reads (most significant first), their
    /// width and the words of a bitmap over them; `None` for a unit read by
    /// intervals or over more than [`Part::MAX_BITS`].
    fn runs(&self, u: &Unit) -> Option<(Runs, u32, usize)> {
        let runs: Runs = match u.range_len {
            1 => vec![(u.lo as u32, u.width as u32)],
            Unit::CUTS => return None,
            n => {
                let at = u.range_start as usize;
                self.d.ranges.get(at..at + n as usize)?.iter().map(|r| (r.lo as u32, r.width as u32)).collect()
            }
        };
        let width: u32 = runs.iter().map(|r| r.1).sum();
        (width <= Part::MAX_BITS).then(|| (runs, width, (1usize << width).div_ceil(64)))
    }

    /// Unit `u`'s values that read nothing further, as a part.
    fn quiet(&mut self, u: &Unit) -> Option<Unpacked> {
        let (runs, width, words) = self.runs(u)?;
        let asked = self.d.bitmaps.get(u.ask as usize..u.ask as usize + words)?;
        let bitmap = asked.iter().map(|w| !w).collect();
        Some((runs, self.masked(bitmap, width)))
    }

    /// The bitmap at `at` over `runs`, complemented: interned, its offset.
    fn complement(&mut self, (runs, at): &Unpacked) -> u32 {
        let width: u32 = runs.iter().map(|r| r.1).sum();
        let words = (1usize << width).div_ceil(64);
        let bitmap = self.bitmaps[*at as usize..*at as usize + words].iter().map(|w| !w).collect();
        self.masked(bitmap, width)
    }

    /// `bitmap` over `width` bits, bits past its values clear: interned,
    /// its offset.
    fn masked(&mut self, mut bitmap: Vec<u64>, width: u32) -> u32 {
        bitmap[0] &= first_word(width);
        intern(&mut self.bitmaps, &mut self.bitmap_at, bitmap)
    }

    /// Unit `u` as a probe's part: the runs of bits it reads and its
    /// bitmap's offset, or `Some(None)` when it holds for every value. What
    /// becomes of the values it leaves to a second table is `asked`.
    fn part(&mut self, u: &Unit, asked: Asked) -> Option<Option<Unpacked>> {
        if u.ask != NO_ASK && asked == Asked::Refused {
            return None;
        }
        let (runs, width, words) = self.runs(u)?;
        let read = |at: u32| self.d.bitmaps.get(at as usize..at as usize + words);
        let mut bitmap = read(u.bitmap)?.to_vec();
        if u.ask != NO_ASK {
            for (w, a) in bitmap.iter_mut().zip(read(u.ask)?) {
                *w = if asked == Asked::Pass { *w | a } else { *w & !a };
            }
        }
        let domain = first_word(width);
        bitmap[0] &= domain;
        if bitmap.iter().all(|&w| w == domain) {
            return Some(None);
        }
        Some(Some((runs, intern(&mut self.bitmaps, &mut self.bitmap_at, bitmap))))
    }
}

/// The runs a probe's keys read, for the distinct `runs` its checks read
/// (the first `required` those of the length and the conditions, which
/// must be keys; the rest the operands'): each run is read by a key whose
/// run contains it. A run within another is read by the other's key; while
/// more than three are left, the two whose joined run (the bits from the
/// lower's first to the higher's last) is narrowest, within
/// [`Key::MAX_BITS`] and the shorter length (`within` bits), become one.
/// Then the first three are kept, the required ones first; the checks of
/// the runs no key contains are read further.
///
/// A GCN GFX6 scalar load checks bits 0..8, 0..9 and bit 8 (the offset,
/// whether it is a register, and which): one key over bits 0..9 leaves
/// two for the base and destination registers, which were read further.
/// A VOP3 instruction checking its carry-in's bits 57..59 and its third
/// source's 50..59 reads one key for both.
fn keys_over(runs: Vec<(u32, u32)>, required: usize, within: u32) -> Vec<(u32, u32)> {
    let mut keys: Vec<((u32, u32), bool)> = runs.iter().enumerate().map(|(i, &r)| (r, i < required)).collect();
    absorb(&mut keys);
    let joined = |a: (u32, u32), b: (u32, u32)| {
        let lo = a.0.min(b.0);
        (lo, (a.0 + a.1).max(b.0 + b.1) - lo)
    };
    while keys.len() > 3 {
        let pairs = (0..keys.len()).flat_map(|i| (i + 1..keys.len()).map(move |j| (i, j)));
        let best = pairs
            .map(|(i, j)| (joined(keys[i].0, keys[j].0), i, j))
            .filter(|&((lo, w), _, _)| w <= Key::MAX_BITS && lo + w <= within)
            .min_by_key(|&((_, w), i, j)| (w, i, j));
        let Some((run, i, j)) = best else { break };
        keys[i] = (run, keys[i].1 | keys[j].1);
        keys.remove(j);
        absorb(&mut keys);
    }
    let needed = keys.iter().filter(|k| k.1).count();
    let mut out: Vec<(u32, u32)> = keys.iter().filter(|k| k.1).map(|k| k.0).collect();
    out.extend(keys.iter().filter(|k| !k.1).map(|k| k.0));
    out.truncate(needed.max(3));
    out
}

/// Drops from `keys` each run another holds, the other required if it
/// was.
fn absorb(keys: &mut Vec<((u32, u32), bool)>) {
    let mut k = 0;
    while k < keys.len() {
        let r = keys[k].0;
        match (0..keys.len()).find(|&o| o != k && contains(keys[o].0, r)) {
            Some(o) => {
                keys[o].1 |= keys[k].1;
                keys.remove(k);
            }
            None => k += 1,
        }
    }
}

/// Whether run `outer` holds every bit of run `inner`.
fn contains(outer: (u32, u32), inner: (u32, u32)) -> bool {
    outer.0 <= inner.0 && inner.0 + inner.1 <= outer.0 + outer.1
}

/// The bits of a bitmap's first word that stand for values of `width` bits
/// (all of them from six bits up).
fn first_word(width: u32) -> u64 {
    if width < 6 { (1u64 << (1 << width)) - 1 } else { !0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_runtime::{Inst, NO_FIELD, Node};

    const F: u8 = Key::FAILS;
    const I: u8 = Key::INVALID;
    const O: u8 = Key::OTHERWISE;
    const A: u8 = Key::ASKS;

    /// Key `k` of probe `p`: its run (`(lo, width)`) and verdicts.
    fn key(direct: &Direct, p: &Probe, k: usize) -> ((u32, u32), Vec<u8>) {
        let key = p.keys[k];
        let n = key.mask() as usize + 1;
        ((key.lo(), key.width()), direct.verdicts[key.at() as usize..][..n].to_vec())
    }

    /// Probe `i` of `direct` and where its further checks lie.
    fn probe_at(direct: &Direct, i: usize) -> (Probe, Further) {
        (direct.probes[i], direct.further[i])
    }

    fn unit(lo: u8, width: u8, bitmap: u32, ask: u32) -> Unit {
        Unit { lo, width, range_start: 0, range_len: 1, bitmap, ask, sub: NO_ASK, case: 0, field: NO_FIELD }
    }

    /// A tree whose root switches on bits 28..32: value 1 leads to the
    /// candidate list at 0 in `lists`, every other value to the one at 3.
    fn root_tree(lists: Vec<u16>) -> Tree {
        let mut slots = vec![3; 16];
        slots[1] = 0;
        Tree {
            root: NODE,
            nodes: leak(vec![Node { lo: 28, width: 4, first: 0 }]),
            slots: leak(slots),
            lists: leak(lists),
        }
    }

    /// One class, three leaves under root value 1 (bits 28..32): leaf 0
    /// absent from the class, leaf 1 with a condition (bit 0 set), an
    /// operand any value of which is valid (bits 4..6) and one whose value
    /// 5 a second table decides (bits 8..10), leaf 2 too wide for a probe.
    fn dispatch() -> Dispatch {
        let tree = root_tree(vec![3, 0, 1, 2, 0]);
        let plan = |flags, requires, operands| Plan {
            mask: 0xf000_0000,
            value: 0x1000_0000,
            units: 0,
            requires,
            operands,
            choice: 0,
            flags,
            then: 32,
            otherwise: 32,
        };
        Dispatch {
            gen_bounds: &[],
            trees: leak(vec![tree]),
            plans: leak(vec![plan(Plan::ABSENT, 0, 0), plan(Plan::ASKS, 1, 2), plan(Plan::WIDE | Plan::PAST_64, 0, 0)]),
            units: leak(vec![unit(0, 1, 0, NO_ASK), unit(4, 2, 1, NO_ASK), unit(8, 3, 2, 3)]),
            ranges: &[],
            bitmaps: leak(vec![0b10, 0b1111, 0xff, 1 << 5]),
            subs: &[],
            cuts: &[],
            direct: Direct::empty(),
        }
    }

    #[test]
    fn a_plan_becomes_a_probe_without_the_parts_that_always_hold() {
        let d = dispatch();
        let direct = build(&d.trees[0], &d, 3);
        let entries = direct.entries_of(0);
        assert_eq!(entries.len(), 16);
        // Root value 1: leaf 1's probe, then none (leaf 2 has no probe).
        let first = (entries[1] & 0xffff) as usize;
        assert_eq!(entries[1] >> 16, NO_PROBE as u64);
        let (p, f) = probe_at(&direct, first);
        assert_eq!((p.leaf, p.then(), p.otherwise()), (1, 4, 4));
        assert_eq!((f.more_len, p.always), (0, 0), "a fixed length, one condition");
        // The condition: bit 0 must be set.
        assert_eq!(key(&direct, &p, 0), ((0, 1), vec![F, 0]));
        // One operand check: bits 4..6 are left out. Value 5 of bits 8..10
        // is the second table's: it fails in the probe.
        assert_eq!(key(&direct, &p, 1), ((8, 3), vec![0, 0, 0, 0, 0, I, 0, 0]));
        assert_eq!(p.keys[2], Key::UNUSED);
        // Other root values: no probe.
        assert!(entries.iter().enumerate().all(|(v, &e)| v == 1 || e == 0));

        let decode = |w: u64| direct.decode(entries, w);
        assert_eq!(decode(0x1000_0301), Some(Inst { leaf: 1, len: 4, bits: 0x1000_0301 }));
        assert_eq!(decode(0x1000_0501), None, "asked value: the general tables decide");
        assert_eq!(decode(0x1000_0300), None, "condition fails, and leaf 2 has no probe");
    }

    /// One class, two leaves under root value 1 (bits 28..32): leaf 0 with
    /// bits 0..4 fixed to 9 and nothing else to check, leaf 1 with an
    /// operand in bits 0..4 whose valid values are `valid`'s bits.
    fn specific_then_general(valid: u64) -> Dispatch {
        let tree = root_tree(vec![2, 0, 1, 0]);
        let plan = |mask, value, operands| Plan {
            mask,
            value,
            units: 0,
            requires: 0,
            operands,
            choice: 0,
            flags: 0,
            then: 32,
            otherwise: 32,
        };
        Dispatch {
            gen_bounds: &[],
            trees: leak(vec![tree]),
            plans: leak(vec![plan(0xf000_000f, 0x1000_0009, 0), plan(0xf000_0000, 0x1000_0000, 1)]),
            units: leak(vec![unit(0, 4, 0, NO_ASK)]),
            ranges: &[],
            bitmaps: leak(vec![valid]),
            subs: &[],
            cuts: &[],
            direct: Direct::empty(),
        }
    }

    #[test]
    fn the_general_leaf_is_tried_first_where_the_order_changes_no_answer() {
        // Value 9 is not a valid operand of leaf 1: a word leaf 0 takes is
        // never leaf 1's, so leaf 1, which most words are, goes first, its
        // verdict on 9 a failure that hands the word on to leaf 0.
        let d = specific_then_general(0xffff & !(1 << 9));
        let direct = build(&d.trees[0], &d, 2);
        let entries = direct.entries_of(0);
        let (first, second) =
            (direct.probes[(entries[1] & 0xffff) as usize], direct.probes[(entries[1] >> 16) as usize]);
        assert_eq!((first.leaf, second.leaf), (1, 0));
        let mut verdicts = vec![0; 16];
        verdicts[9] = F | I;
        assert_eq!(key(&direct, &first, 0), ((0, 4), verdicts));
        let decode = |w: u64| direct.decode(entries, w);
        assert_eq!(decode(0x1000_0009), Some(Inst { leaf: 0, len: 4, bits: 0x1000_0009 }));
        assert_eq!(decode(0x1000_0003), Some(Inst { leaf: 1, len: 4, bits: 0x1000_0003 }));
        assert_eq!(decode(0x2000_0003), None);

        // Where 9 is valid for leaf 1 too, only the list's order is right.
        let d = specific_then_general(0xffff);
        let direct = build(&d.trees[0], &d, 2);
        let entries = direct.entries_of(0);
        let (first, second) =
            (direct.probes[(entries[1] & 0xffff) as usize], direct.probes[(entries[1] >> 16) as usize]);
        assert_eq!((first.leaf, second.leaf), (0, 1));
        assert_eq!(direct.decode(entries, 0x1000_0009), Some(Inst { leaf: 0, len: 4, bits: 0x1000_0009 }));
        assert_eq!(direct.decode(entries, 0x1000_0003), Some(Inst { leaf: 1, len: 4, bits: 0x1000_0003 }));
    }

    #[test]
    fn the_free_values_of_a_run_are_every_one_the_fixed_bits_allow() {
        let k = Key::new(4, 4, 0).unwrap();
        let mut got: Vec<usize> = Builder::indices(&k, (0b1010_0000, 0b1000_0000)).collect();
        got.sort();
        assert_eq!(got, vec![0b1000, 0b1001, 0b1100, 0b1101]);
        assert_eq!(Builder::indices(&k, (0xf0, 0x50)).collect::<Vec<_>>(), vec![5], "all fixed: one value");
        assert_eq!(Builder::indices(&k, (0, 0)).count(), 16, "none fixed: every value");
    }

    #[test]
    fn values_read_through_intervals_become_the_probes_ask() {
        let mut d = dispatch();
        // Leaf 1 is 8 bytes; value 5 of bits 8..10 reads bits 32..64 (unit
        // 3, by intervals), which must lie in [65, 0x1000).
        let mut plans = d.plans.to_vec();
        (plans[1].then, plans[1].otherwise) = (64, 64);
        let mut units = d.units.to_vec();
        units[2].sub = 0;
        units.push(Unit { lo: 32, width: 32, range_start: 0, range_len: Unit::CUTS, bitmap: 4, ..units[0] });
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.push(0b010);
        let mut subs = vec![NO_ASK; 8];
        subs[5] = 3;
        (d.plans, d.units, d.bitmaps) = (leak(plans), leak(units), leak(bitmaps));
        (d.subs, d.cuts) = (leak(subs), leak(vec![3, 0, 65, 0x1000]));
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!(f.asks_len, 1);
        let a = direct.asks[f.asks as usize];
        assert_eq!((a.lo, a.width, a.answers), (32, 32, 0b010));
        assert_eq!(a.when, Part::ALWAYS, "the one ask judges every asked value");
        assert_eq!(&direct.cuts[a.cuts as usize..][..a.cuts_len as usize], &[0, 65, 0x1000]);
        // The operand's part lets value 5 pass; the ask judges it, asked
        // only for that value.
        assert_eq!(key(&direct, &p, 1), ((8, 3), vec![0, 0, 0, 0, 0, A, 0, 0]));
        assert_eq!(p.always, 0);
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(100 << 32 | 0x1000_0501), Some(1));
        assert_eq!(decode(64 << 32 | 0x1000_0501), None, "below the interval");
        assert_eq!(decode(0x1000 << 32 | 0x1000_0501), None, "past it");
        assert_eq!(decode(64 << 32 | 0x1000_0301), Some(1), "value 3 reads no literal");
    }

    /// [`dispatch`] with values 5 and 6 of leaf 1's operand in bits 8..10
    /// asking: 5 judged by unit 3 (bits 12..14 may not be 3, bitmap word
    /// 4), 6 by `six`; `more` bitmap words from word 6.
    fn asked_by_five_and_six(d: &mut Dispatch, six: Unit, more: &[u64]) {
        let mut units = d.units.to_vec();
        units[2] = Unit { ask: 5, sub: 0, ..units[2] };
        units.extend([Unit { lo: 12, width: 2, bitmap: 4, ..units[0] }, six]);
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.extend([0b0111, 0b110_0000]);
        bitmaps.extend(more);
        let mut subs = vec![NO_ASK; 8];
        (subs[5], subs[6]) = (3, 4);
        (d.units, d.bitmaps, d.subs) = (leak(units), leak(bitmaps), leak(subs));
    }

    #[test]
    fn values_read_through_second_units_fold_into_one_ask() {
        // Values 5 and 6 of bits 8..10 read bits 12..14: for 5 they may not
        // be 3, for 6 any value holds.
        let mut d = dispatch();
        let six = Unit { lo: 12, width: 2, bitmap: 1, ..d.units[0] };
        asked_by_five_and_six(&mut d, six, &[]);
        let direct = build(&d.trees[0], &d, 3);
        let f = direct.further[(direct.entries_of(0)[1] & 0xffff) as usize];
        assert_eq!(f.asks_len, 1);
        let a = direct.asks[f.asks as usize];
        assert_eq!(direct.bitmaps[a.any.bitmap as usize] & 0xff, 0b110_0000, "asked by 5 and 6");
        assert_eq!(a.when, Part::ALWAYS);
        // One part over the operand's bits and the further ones: index
        // `v << 2 | x`, clear only for 5 with 3.
        assert_eq!(
            (Some(a.sub), a.cuts_len),
            (MorePart::gathering(&[(8, 3), (12, 2)]).map(|m| MorePart { bitmap: a.sub.bitmap, ..m }), 0)
        );
        assert_eq!(direct.bitmaps[a.sub.bitmap as usize], 0xffff_ffff & !(1 << (5 << 2 | 3)), "32 values");
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_1501), Some(1));
        assert_eq!(decode(0x1000_3501), None);
        assert_eq!(decode(0x1000_3601), Some(1));

        // For 6, bits 12..14 may not be 2 (bitmap word 6): still one ask.
        let mut units = d.units.to_vec();
        units[4].bitmap = 6;
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.push(0b1011);
        (d.units, d.bitmaps) = (leak(units), leak(bitmaps));
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!(f.asks_len, 1);
        assert_eq!(key(&direct, &p, 1), ((8, 3), vec![0, 0, 0, 0, 0, A, A, 0]), "5 and 6 ask");
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_2601), None);
        assert_eq!(decode(0x1000_3601), Some(1));
        assert_eq!(decode(0x1000_3501), None);
        assert_eq!(decode(0x1000_2501), Some(1));
        assert_eq!(decode(0x1000_2301), Some(1), "value 3 reads nothing further");
    }

    #[test]
    fn values_read_through_second_units_of_many_runs_become_asks_one_per_unit() {
        // Value 5 of bits 8..10 reads bits 12..14, which may not be 3; value
        // 6 reads bits 16..28, which may not be 2 (bitmap word 6): 17 bits in
        // all, more than a part reads.
        let mut d = dispatch();
        let six = Unit { lo: 16, width: 12, bitmap: 6, ..d.units[0] };
        let mut wide = [!0u64; 64];
        wide[0] = !0b100;
        asked_by_five_and_six(&mut d, six, &wide);
        let direct = build(&d.trees[0], &d, 3);
        let f = direct.further[(direct.entries_of(0)[1] & 0xffff) as usize];
        let asks = &direct.asks[f.asks as usize..][..f.asks_len as usize];
        // Two asks, the first able to skip both when neither value is read.
        assert_eq!(asks.iter().map(|a| a.skip).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(direct.bitmaps[asks[0].any.bitmap as usize] & 0xff, 0b110_0000);
        assert_eq!(direct.bitmaps[asks[0].when.bitmap as usize] & 0xff, 1 << 5);
        assert_eq!(
            (Some(asks[0].sub), asks[0].cuts_len),
            (MorePart::gathering(&[(12, 2)]).map(|m| MorePart { bitmap: asks[0].sub.bitmap, ..m }), 0)
        );
        assert_eq!(
            (Some(asks[1].sub), asks[1].cuts_len),
            (MorePart::gathering(&[(16, 12)]).map(|m| MorePart { bitmap: asks[1].sub.bitmap, ..m }), 0)
        );
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_3501), None);
        assert_eq!(decode(0x1000_2501), Some(1));
        assert_eq!(decode(0x1002_0601), None, "6 with bits 16..28 at 2");
        assert_eq!(decode(0x1003_3601), Some(1));
        assert_eq!(decode(0x1012_3601), Some(1), "6 with bits 16..28 at 0x12");
        assert_eq!(decode(0x1002_0301), Some(1), "value 3 reads nothing further");
    }

    /// Leaf 1 of [`dispatch`] with the length chosen by two units on
    /// neighbouring bits (both must hold for 4 bytes, else 8) and an
    /// operand read past 4 bytes.
    fn chosen_by_two() -> Dispatch {
        let mut d = dispatch();
        let mut plans = d.plans.to_vec();
        plans[1] = Plan {
            flags: Plan::CHOICE,
            requires: 0,
            operands: 1,
            choice: 2,
            then: 32,
            otherwise: 64,
            units: 3,
            ..plans[1]
        };
        let mut units = d.units.to_vec();
        // Operand bits 40..42 may not be 3; bits 12..14 may not be 1, nor
        // bits 14..16 be 2.
        units.extend([unit(40, 2, 5, NO_ASK), unit(12, 2, 6, NO_ASK), unit(14, 2, 7, NO_ASK)]);
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.extend([0, 0b0111, 0b1101, 0b1011]);
        (d.plans, d.units, d.bitmaps) = (leak(plans), leak(units), leak(bitmaps));
        d
    }

    /// The length's two parts are keys of their own: the length is the
    /// longer when either fails.
    #[test]
    fn each_run_is_a_key_and_the_verdicts_compose() {
        let d = chosen_by_two();
        let direct = build(&d.trees[0], &d, 3);
        let p = direct.probes[(direct.entries_of(0)[1] & 0xffff) as usize];
        assert_eq!(key(&direct, &p, 0), ((12, 2), vec![0, O, 0, 0]));
        assert_eq!(key(&direct, &p, 1), ((14, 2), vec![0, 0, O, 0]));
        let decode = |w: u64| direct.decode(direct.entries_of(0), w);
        assert_eq!(decode(0x1000_0000).map(|i| i.len), Some(4));
        assert_eq!(decode(0x1000_1000).map(|i| i.len), Some(8), "bits 12..14 are 1");
        assert_eq!(decode(0x1000_8000).map(|i| i.len), Some(8), "bits 14..16 are 2");
        assert_eq!(decode(0x1000_9000).map(|i| i.len), Some(8), "both");
    }

    /// Identifying bits past the shorter length (an AGX long form's bits
    /// that must be clear) are compared on the instruction's own bits,
    /// after its length: the next instruction's bits past a short one do
    /// not matter, and a long one that does not hold them is left to the
    /// general tables.
    #[test]
    fn identifying_bits_past_the_short_form_are_read_within_the_length() {
        let mut d = chosen_by_two();
        let mut plans = d.plans.to_vec();
        plans[1] = Plan { flags: Plan::CHOICE | Plan::WIDE, mask: 0xf000_0000 | 1 << 50, ..plans[1] };
        d.plans = leak(plans);
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!((p.mask, p.value), (0xf000_0000, 0x1000_0000), "the keys' bits alone");
        assert_eq!((f.more_len, p.always), (2, Key::ASKS), "bit 50, and the operand past 4 bytes");
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.len);
        assert_eq!(decode(0x1000_0000), Some(4));
        assert_eq!(decode(0x1000_0000 | 1 << 50), Some(4), "bit 50 is the next instruction's");
        assert_eq!(decode(0x1000_1000), Some(8));
        assert_eq!(decode(0x1000_1000 | 1 << 50), None, "a long form with bit 50 set");
        // Past the first 64 bits the plan's mask cannot say: no probe.
        let mut plans = d.plans.to_vec();
        plans[1].flags |= Plan::PAST_64;
        d.plans = leak(plans);
        assert_eq!(Builder::new(&d).probe(1, &d.plans[1]), None);
    }

    /// The checks of one run are one key, its verdicts or-ed: a GCN
    /// source's code says whether it is valid and whether it makes the
    /// instruction longer.
    #[test]
    fn checks_of_one_run_share_a_key() {
        let mut d = chosen_by_two();
        // The operand is bits 12..14 too, and may not be 2.
        let mut units = d.units.to_vec();
        units[3] = unit(12, 2, 8, NO_ASK);
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.push(0b1011);
        (d.units, d.bitmaps) = (leak(units), leak(bitmaps));
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!(key(&direct, &p, 0), ((12, 2), vec![0, O, I, 0]));
        assert_eq!(key(&direct, &p, 1), ((14, 2), vec![0, 0, O, 0]));
        assert_eq!((p.keys[2], f.more_len, p.always), (Key::UNUSED, 0, 0));
        let decode = |w: u64| direct.decode(direct.entries_of(0), w);
        assert_eq!(decode(0x1000_2000), None, "bits 12..14 are 2: invalid");
        assert_eq!(decode(0x1000_3000).map(|i| i.len), Some(4));
    }

    /// The keys' tables stop at their budget: a probe past it is not made.
    /// A table is made once, however many probes share it.
    #[test]
    fn keys_are_tabulated_within_the_budget() {
        let d = dispatch();
        // Leaf 1's keys: 2 values of bit 0, 8 of bits 8..10.
        let mut b = Builder::new(&d);
        b.verdicts_spent = MAX_VERDICTS - 9;
        assert_eq!(b.probe(1, &d.plans[1]), None, "10 verdicts, 9 left");
        let mut b = Builder::new(&d);
        b.verdicts_spent = MAX_VERDICTS - 10;
        let p = b.probe(1, &d.plans[1]);
        assert!(p.is_some(), "10 verdicts, 10 left");
        assert_eq!(b.verdicts_spent, MAX_VERDICTS);
        assert_eq!(b.probe(1, &d.plans[1]), p, "its tables made before");
    }

    /// A key's table stops at 12 bits: a wider operand part is read
    /// further, by its bitmap; a wider condition leaves the leaf to the
    /// general tables.
    #[test]
    fn parts_wider_than_a_key_are_read_further_or_not_by_a_probe() {
        let mut d = dispatch();
        // The operand in bits 4..18 may not be 5.
        let mut units = d.units.to_vec();
        units[1] = unit(4, 14, 4, NO_ASK);
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.extend(std::iter::repeat_n(!0u64, 256));
        bitmaps[4] &= !(1 << 5);
        (d.units, d.bitmaps) = (leak(units.clone()), leak(bitmaps.clone()));
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!((f.more_len, p.always), (1, Key::ASKS));
        assert_eq!(key(&direct, &p, 0).0, (0, 1), "the condition");
        assert_eq!(key(&direct, &p, 1).0, (8, 3), "the narrow operand");
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_0301), Some(1));
        assert_eq!(decode(0x1000_0051), None, "bits 4..18 hold 5");

        // The condition reads bits 0..13, and 5 fails: read further too,
        // a word failing it left to the general tables (which try the
        // next candidate).
        units[0] = unit(0, 13, 4, NO_ASK);
        (d.units, d.bitmaps) = (leak(units), leak(bitmaps));
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!((f.more_len, p.always), (2, Key::ASKS));
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_0301), Some(1));
        assert_eq!(decode(0x1000_0005), None, "bits 0..13 hold 5: the condition fails");
    }

    #[test]
    fn a_part_past_the_shorter_length_is_read_on_the_instructions_own_bits() {
        let d = chosen_by_two();
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!((f.more_len, p.always), (1, Key::ASKS), "bits 40..42 lie past 4 bytes");
        assert_eq!(p.keys.map(|k| (k != Key::UNUSED).then_some(k.lo())), [Some(12), Some(14), None]);
        let decode = |w: u64| direct.decode(direct.entries_of(0), w);
        // 8 bytes: bits 40..42 hold 3, which fails.
        assert_eq!(decode(3 << 40 | 0x1000_1000), None);
        assert_eq!(decode(2 << 40 | 0x1000_1000).map(|i| i.len), Some(8));
        // 4 bytes: the bits past them are not the instruction's, and read 0.
        assert_eq!(decode(3 << 40 | 0x1000_0000), Some(Inst { leaf: 1, len: 4, bits: 0x1000_0000 }));
    }

    /// A run within another is read by the other's key; past three, the
    /// two whose joined run is narrowest (within 12 bits and the shorter
    /// length) become one; the required runs are kept first.
    #[test]
    fn runs_share_keys_that_contain_them() {
        // A GFX6 scalar load: the offset's eight bits, the nine with the
        // register bit, and that bit.
        assert_eq!(keys_over(vec![(0, 8), (0, 9), (8, 1)], 0, 32), vec![(0, 9)]);
        // A run a later required one contains makes that one required.
        let runs = vec![(9, 2), (20, 2), (30, 1), (40, 2), (8, 4)];
        assert_eq!(keys_over(runs, 1, 64), vec![(8, 4), (20, 11), (40, 2)]);
        // VOP3: the carry-in's bits within the third source's; no two of
        // the four sources left join within 12 bits, so the last is read
        // further.
        let vop3 = vec![(8, 7), (32, 9), (41, 9), (50, 9), (57, 2)];
        assert_eq!(keys_over(vop3, 0, 64), vec![(8, 7), (32, 9), (41, 9)]);
        // An image's two neighbouring 5-bit fields join.
        assert_eq!(keys_over(vec![(40, 8), (32, 8), (48, 5), (53, 5)], 0, 64), vec![(40, 8), (32, 8), (48, 10)]);
        // Narrowest joins first, the required run first in the result.
        let runs = vec![(0, 1), (4, 4), (8, 4), (12, 4), (20, 2)];
        assert_eq!(keys_over(runs.clone(), 1, 32), vec![(0, 8), (8, 8), (20, 2)]);
        // Not past the shorter length: 12..16 and 20..22 may not join.
        assert_eq!(keys_over(runs, 1, 16), vec![(0, 8), (8, 8), (20, 2)]);
        assert_eq!(keys_over(vec![(0, 4), (8, 4), (16, 4), (24, 4)], 0, 16), vec![(0, 12), (16, 4), (24, 4)]);
        // Four required runs that do not join: more than a probe holds.
        assert_eq!(keys_over(vec![(0, 12), (12, 12), (24, 12), (36, 12)], 4, 64).len(), 4);
    }

    /// A probe checking four runs, two of them near each other, reads them
    /// by three keys and nothing further; each check keeps its verdicts.
    #[test]
    fn checks_of_neighbouring_runs_share_a_key() {
        let mut d = dispatch();
        let mut plans = d.plans.to_vec();
        plans[1].operands = 3;
        plans[1].flags = 0;
        d.plans = leak(plans);
        // The condition (bit 0), and operands on bits 4..6 (3 invalid),
        // 8..11 (5 invalid) and 11..14 (2 invalid).
        d.units =
            leak(vec![unit(0, 1, 0, NO_ASK), unit(4, 2, 4, NO_ASK), unit(8, 3, 5, NO_ASK), unit(11, 3, 6, NO_ASK)]);
        let mut bitmaps = d.bitmaps.to_vec();
        bitmaps.extend([0b0111, 0xff & !(1 << 5), 0xff & !(1 << 2)]);
        d.bitmaps = leak(bitmaps);
        let direct = build(&d.trees[0], &d, 3);
        let (p, f) = probe_at(&direct, (direct.entries_of(0)[1] & 0xffff) as usize);
        assert_eq!((f.more_len, p.always), (0, 0), "no further part");
        // Bits 0..6 hold the condition and the first operand.
        let (run, verdicts) = key(&direct, &p, 0);
        assert_eq!(run, (0, 6));
        assert_eq!(verdicts.len(), 64);
        for (v, &got) in verdicts.iter().enumerate() {
            let want = if v & 1 == 0 { F } else { 0 } | if v >> 4 == 3 { I } else { 0 };
            assert_eq!(got, want, "bits 0..6 = {v:#b}");
        }
        assert_eq!(key(&direct, &p, 1).0, (8, 3));
        assert_eq!(key(&direct, &p, 2).0, (11, 3));
        let decode = |w: u64| direct.decode(direct.entries_of(0), w).map(|i| i.leaf);
        assert_eq!(decode(0x1000_0001), Some(1));
        assert_eq!(decode(0x1000_0031), None, "bits 4..6 hold 3");
        assert_eq!(decode(0x1000_0501), None, "bits 8..11 hold 5");
        assert_eq!(decode(0x1000_1001), None, "bits 11..14 hold 2");
        assert_eq!(decode(0x1000_0000), None, "the condition fails");
    }

    #[test]
    fn a_tree_of_one_list_starts_at_a_node_of_one_bit() {
        let mut d = dispatch();
        let t = &d.trees[0];
        d.trees = leak(vec![Tree { root: 0, nodes: t.nodes, slots: t.slots, lists: t.lists }]);
        let direct = build(&d.trees[0], &d, 3);
        assert_eq!(direct.root, Direct::node(0, 1, 0));
        assert_eq!(direct.decode(direct.entries_of(0), 0x1000_0001).map(|i| i.leaf), Some(1));
    }
}
