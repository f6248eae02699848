//! Which bits of an instruction its hardware may ignore, whatever the rest.
//!
//! [`Isa::ignored_bits`] evaluates the `ignore:` conditions of the cases in
//! force and walks every operand; the assembler asks it of every line it
//! reads, and validation of every instruction with rules. Most lines set no
//! bit that any case or operand form of their instruction could ignore, and
//! for those the answer is known without the walk. This module keeps, per
//! instruction, that upper bound: its don't-care and `ignore:` bits, and the
//! bits of every operand field one of whose forms has some (recursively);
//! and finds, for one generation, a narrower one that leaves out the
//! `ignore:` entries whose conditions fail on constants alone. For an
//! operand whose word is narrow it also keeps the bound by the word's value
//! (the forms whose identifying bits a value holds are the only ones the
//! decoder may pick for it), so that an instruction's own operand values
//! narrow its bound further ([`Isa::ignorable_for`]).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::bits::{Bits, mask_of};
use crate::decode::MAX_DEPTH;
use crate::eval::{Env, Given};
use crate::kept::Kept;
use crate::parse::push_conjuncts;
use crate::place::Step;
use crate::tables::{Isa, Src, Ty};

/// The bits of each leaf (in its own word) that some case or operand form
/// may ignore, by leaf index, and their union over each group's forms.
struct Bounds {
    leaves: Vec<Bits>,
    groups: Vec<Bits>,
    /// By group, the forms whose bound is not empty.
    ignoring: Vec<Box<[u16]>>,
    /// By group whose word is at most [`BY_VALUE_BITS`] wide, for each
    /// value of its word, the bits (of that word) the forms it may pick may
    /// ignore (see [`ByValue`]).
    by_value: Vec<ByValue>,
    /// By leaf, its own don't-care and `ignore:` bits, and its operand
    /// fields (in any case, each once) whose forms may ignore a bit.
    own: Vec<Bits>,
    operands: Vec<Box<[Operand]>>,
}

/// An operand field of an instruction: its group and its ranges.
type Operand = (u16, &'static [crate::tables::Range]);

/// A group's bound by value (see [`Bounds::by_value`]): `None` for a wider
/// group, empty while being found or when a form's bound falls past the
/// word.
type ByValue = Option<Box<[u16]>>;

/// The bound of an operand of `group` whose word is `word`: by value where
/// `by_value` has it, else the forms' bounds together (`groups`).
fn in_word((groups, by_value): (&[Bits], &[ByValue]), group: u16, word: Bits) -> Bits {
    match by_value.get(group as usize) {
        Some(Some(t)) if !t.is_empty() => t.get(word as usize).map_or(!0, |&m| m as Bits),
        _ => groups.get(group as usize).copied().unwrap_or(!0),
    }
}

/// A leaf's own don't-care and `ignore:` bits, in its word.
fn own_bits(l: &crate::tables::Leaf) -> Bits {
    l.ignore.iter().fold(l.dontcare, |m, ig| m | ig.mask)
}

/// Widest operand word whose bound is kept per value (a table of 4,096
/// entries).
const BY_VALUE_BITS: u32 = 12;

/// Built bounds, by target.
static BUILT: Kept<Bounds> = Kept::new();

impl Isa {
    /// Bits of an encoding of `leaf` (in its own word) that
    /// [`Isa::ignored_bits`] may include, for any encoding and generation:
    /// where an instruction sets none of them, it ignores nothing it sets.
    pub fn ignorable(&self, leaf: u16) -> Bits {
        bounds(self).leaves.get(leaf as usize).copied().unwrap_or(!0)
    }

    /// The bits an operand of `group` whose word is `word` may ignore (in
    /// that word): [`Isa::ignorable`] of the forms that value may pick, where
    /// the group is narrow enough to keep its bound by value, else of every
    /// form of the group.
    pub(crate) fn ignorable_in_word(&self, group: u16, word: Bits) -> Bits {
        let b = bounds(self);
        in_word((&b.groups, &b.by_value), group, word)
    }

    /// [`Isa::ignorable`] for the instruction `inst`: an operand field
    /// of a narrow group adds only what the forms its value may pick may
    /// ignore (GCN's 64-bit `v_add_f64 v[0:1], v[3:4], v[6:7]` sets the low
    /// bit of a source's code, which a pair of SGPRs ignores but a VGPR
    /// does not; its source's forms for that value are the VGPR's alone).
    /// Where an instruction sets none of these bits, it ignores nothing it
    /// sets.
    pub fn ignorable_for(&self, inst: &crate::Inst) -> Bits {
        let b = bounds(self);
        let (Some(&own), Some(operands)) = (b.own.get(inst.leaf as usize), b.operands.get(inst.leaf as usize)) else {
            return !0;
        };
        operands.iter().fold(own, |out, &(group, ranges)| {
            out | placed(self.ignorable_in_word(group, crate::bits::extract(inst.bits, 0, ranges)), ranges)
        })
    }

    /// [`Isa::ignorable`] for `leaf` in generation `gen_`, narrower where
    /// an `ignore:` condition is false whatever the bits: it reads only the
    /// generation and parameters the instruction passes as constants. A
    /// scalar register form ignores the low bits of a register pair's code
    /// (`when: W >= 2`), and most instructions pass `W: 1`; their scalar
    /// operands then have no bit to walk for. The assembler keeps these
    /// per instruction, since finding one walks every form of every
    /// operand once.
    pub fn ignorable_in(&self, leaf: u16, gen_: u32) -> Bits {
        self.ignorable_in_with(leaf, gen_, &mut Walked::default())
    }

    /// [`Isa::ignorable_in`], with the operands' bounds found for other
    /// instructions in `walked` (the same forms at the same places, passed
    /// the same parameters, recur across an instruction set's encodings).
    pub fn ignorable_in_with(&self, leaf: u16, gen_: u32, walked: &mut Walked) -> Bits {
        let every = self.ignorable(leaf);
        if every == 0 {
            return 0;
        }
        let mut path = [Step::top(leaf, 0); MAX_DEPTH];
        let mut budget = WALK_BUDGET;
        let bound = ignorable_at((self, bounds(self)), gen_, &mut path, 0, (&mut budget, walked));
        // An instruction whose operands nest too many forms keeps the
        // bound that holds for every generation and parameter.
        if budget == 0 { every } else { bound & every }
    }
}

/// Forms [`Isa::ignorable_in`] visits for one instruction at most: a
/// bound on the walk whatever a spec nests, not a limit the bundled
/// targets come near (only forms that may ignore a bit are visited).
const WALK_BUDGET: u32 = 4096;

/// The bounds `ignorable_at` found for operand forms, by all they depend
/// on: the form, where it sits in the instruction word, the generation, and
/// the parameters its field passes (each evaluated on no bits, and whether
/// that read any). A form's conditions see nothing else of the
/// instruction: its own fields, and its group's parameters.
#[derive(Default)]
pub struct Walked(HashMap<WalkKey, Bits, BuildHasherDefault<crate::short_text::TextHasher>>);

/// See [`Walked`]: the form, its place (`base` and the map's address and
/// length), the generation, and the parameters passed.
type WalkKey = (u16, u32, usize, usize, u32, Box<[(i64, bool)]>);

/// The bound of [`Isa::ignorable_in`] for the leaf at `path[depth]`, in
/// the instruction word, over every case of it and every form of its
/// operands.
fn ignorable_at(
    (isa, static_bounds): (&Isa, &Bounds),
    gen_: u32,
    path: &mut [Step; MAX_DEPTH],
    depth: usize,
    (budget, walked): (&mut u32, &mut Walked),
) -> Bits {
    if *budget == 0 {
        return !0;
    }
    *budget -= 1;
    let leaf = &isa.leaves[path[depth].leaf as usize];
    let default = (leaf.cases.len() - 1) as u16;
    let mut local = leaf.dontcare;
    path[depth].case = default;
    for ig in leaf.ignore {
        // As `ignored_in` judges it (at the default case), on no bits: a
        // condition that read none holds or fails for every encoding, and
        // so does a chain of `&&` one of whose operands fails reading none
        // (GCN's `SRC0 == 255 && H0`, where a table of 32-bit operations
        // sets `H0` to 0: the literal's high half is never ignored there).
        let never = ig.when.is_some_and(|e| {
            let mut fails = false;
            push_conjuncts(e, &mut |c| {
                if !fails {
                    let mut env = Env { isa, bits: 0, gen_, read: 0, given: Given::NONE };
                    fails = env.eval(&path[..=depth], c) == 0 && env.read == 0;
                }
            });
            fails
        });
        if !never {
            local |= ig.mask;
        }
    }
    let mut out = path[depth].in_word(local);
    for (ci, case) in leaf.cases.iter().enumerate() {
        path[depth].case = ci as u16;
        for (fi, f) in case.fields.iter().enumerate() {
            let (Ty::Group { group, params }, Src::Bits(ranges)) = (f.ty, f.src) else { continue };
            let Some((base, map)) = path[depth].child(ranges).filter(|_| depth + 1 < MAX_DEPTH) else {
                out |= path[depth].in_word(all_of(ranges));
                continue;
            };
            // Most forms (constants, named registers) ignore nothing.
            let forms = static_bounds.ignoring.get(group as usize).map_or(&[][..], |g| g);
            if forms.is_empty() {
                continue;
            }
            // What the forms' conditions may read of the instruction: the
            // parameters, as the form would evaluate them.
            let passed: Box<[(i64, bool)]> = params
                .iter()
                .map(|&e| {
                    let mut env = Env { isa, bits: 0, gen_, read: 0, given: Given::NONE };
                    let v = env.eval(&path[..=depth], e);
                    (v, env.read != 0)
                })
                .collect();
            for &form in forms {
                let key = (form, base, map.as_ptr() as usize, map.len(), gen_, passed.clone());
                if let Some(&b) = walked.0.get(&key) {
                    out |= b;
                    continue;
                }
                path[depth + 1] = Step { leaf: form, case: 0, base, via: fi as u16, map };
                let b = ignorable_at((isa, static_bounds), gen_, path, depth + 1, (budget, walked));
                // A bound cut short by the budget is not the form's.
                if *budget > 0 {
                    walked.0.insert(key, b);
                }
                out |= b;
            }
        }
    }
    out
}

fn bounds(isa: &Isa) -> &'static Bounds {
    BUILT.get(isa, 0, || build(isa))
}

/// Computes every leaf's bound: an operand field contributes its forms'
/// bounds where it places them (all its bits when it is split over several
/// ranges); a form met again while its own bound is being found (a
/// recursive operand) counts as wholly ignorable.
fn build(isa: &Isa) -> Bounds {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Todo,
        Busy,
        Done(Bits),
    }
    fn leaf_bound(isa: &Isa, l: usize, states: &mut [State]) -> Bits {
        match states[l] {
            State::Done(b) => return b,
            State::Busy => return !0,
            State::Todo => {}
        }
        states[l] = State::Busy;
        let leaf = &isa.leaves[l];
        let mut b = own_bits(leaf);
        for case in leaf.cases {
            for f in case.fields {
                let (Ty::Group { group, .. }, Src::Bits(ranges)) = (f.ty, f.src) else { continue };
                let forms = isa.groups.get(group as usize).map_or(&[][..], |g| g.leaves);
                let inner = forms.iter().fold(0, |m, &s| m | leaf_bound(isa, s as usize, states));
                b |= placed(inner, ranges);
            }
        }
        states[l] = State::Done(b);
        b
    }
    let mut states = vec![State::Todo; isa.leaves.len()];
    let leaves: Vec<Bits> = (0..isa.leaves.len()).map(|l| leaf_bound(isa, l, &mut states)).collect();
    let groups: Vec<Bits> =
        isa.groups.iter().map(|g| g.leaves.iter().fold(0, |m, &l| m | leaves[l as usize])).collect();
    let ignoring =
        isa.groups.iter().map(|g| g.leaves.iter().copied().filter(|&l| leaves[l as usize] != 0).collect()).collect();
    let mut by_value = vec![None; isa.groups.len()];
    for g in 0..isa.groups.len() {
        by_value_of(isa, (&groups, &mut by_value), g);
    }
    let own = isa.leaves.iter().map(own_bits).collect();
    let operands = isa
        .leaves
        .iter()
        .map(|l| {
            let mut ops: Vec<Operand> = Vec::new();
            for f in l.cases.iter().flat_map(|c| c.fields) {
                if let (Ty::Group { group, .. }, Src::Bits(ranges)) = (f.ty, f.src)
                    && groups.get(group as usize).is_none_or(|&b| b != 0)
                    && !ops.contains(&(group, ranges))
                {
                    ops.push((group, ranges));
                }
            }
            ops.into_boxed_slice()
        })
        .collect();
    Bounds { leaves, groups, ignoring, by_value, own, operands }
}

/// The bound by value of group `g` (see [`Bounds::by_value`]), found with
/// those of the groups its forms nest (`None` while not found; a group met
/// again while its own is being found, or a wider one, bounded by `groups`,
/// its forms' bounds together).
fn by_value_of(isa: &Isa, (groups, tables): (&[Bits], &mut [ByValue]), g: usize) {
    let group = &isa.groups[g];
    if tables[g].is_some() || group.bits > BY_VALUE_BITS {
        return;
    }
    // Met again while being found: empty, so bounded by `groups`.
    tables[g] = Some(Box::default());
    let forms: Vec<&crate::tables::Leaf> = group.leaves.iter().map(|&l| &isa.leaves[l as usize]).collect();
    for f in forms.iter().flat_map(|l| l.cases.iter()).flat_map(|c| c.fields) {
        if let Ty::Group { group: n, .. } = f.ty {
            by_value_of(isa, (groups, tables), n as usize);
        }
    }
    let word = mask_of(0, group.bits);
    let table: Vec<Bits> = (0..1u64 << group.bits)
        .map(|v| {
            let v = v as Bits;
            let may = forms.iter().filter(|l| l.length.is_some() || v & l.mask == l.value);
            may.fold(0, |m: Bits, l| {
                let mut b = m | own_bits(l);
                for f in l.cases.iter().flat_map(|c| c.fields) {
                    let (Ty::Group { group: n, .. }, Src::Bits(ranges)) = (f.ty, f.src) else { continue };
                    b |= placed(in_word((groups, tables), n, crate::bits::extract(v, 0, ranges)), ranges);
                }
                b
            })
        })
        .collect();
    // A bound past the group's word (which no form should have) leaves the
    // group to `groups`.
    if table.iter().all(|&b| b & !word == 0) {
        tables[g] = Some(table.into_iter().map(|b| b as u16).collect());
    }
}

/// The bits an operand field of `ranges` whose forms' bound is `inner` (in
/// the operand's word) holds in its leaf's word: at a run of the word, the
/// forms' bits where they sit; split over several ranges, all of them.
fn placed(inner: Bits, ranges: &[crate::tables::Range]) -> Bits {
    match ranges {
        _ if inner == 0 => 0,
        [r] => inner.checked_shl(r.lo as u32).unwrap_or(!0),
        _ => all_of(ranges),
    }
}

/// Every bit of a field made of `ranges`, in its leaf's word.
fn all_of(ranges: &[crate::tables::Range]) -> Bits {
    ranges.iter().fold(0, |m, r| m | mask_of(r.lo as u32, r.width as u32))
}
