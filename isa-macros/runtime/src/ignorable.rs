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
//! `ignore:` entries whose conditions fail on constants alone.

use crate::bits::{Bits, mask_of};
use crate::decode::MAX_DEPTH;
use crate::eval::{Env, Given};
use crate::kept::Kept;
use crate::place::Step;
use crate::tables::{Isa, Src, Ty};

/// The bits of each leaf (in its own word) that some case or operand form
/// may ignore, by leaf index, and their union over each group's forms.
struct Bounds {
    leaves: Vec<Bits>,
    groups: Vec<Bits>,
    /// By group, the forms whose bound is not empty.
    ignoring: Vec<Box<[u16]>>,
}

/// Built bounds, by target.
static BUILT: Kept<Bounds> = Kept::new();

impl Isa {
    /// Bits of an encoding of `leaf` (in its own word) that
    /// [`Isa::ignored_bits`] may include, for any encoding and generation:
    /// where an instruction sets none of them, it ignores nothing it sets.
    pub fn ignorable(&self, leaf: u16) -> Bits {
        bounds(self).leaves.get(leaf as usize).copied().unwrap_or(!0)
    }

    /// [`Isa::ignorable`] of every form of `group`, together (in the
    /// group's own word).
    pub(crate) fn ignorable_in_group(&self, group: u16) -> Bits {
        bounds(self).groups.get(group as usize).copied().unwrap_or(!0)
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
        let every = self.ignorable(leaf);
        if every == 0 {
            return 0;
        }
        let mut path = [Step::top(leaf, 0); MAX_DEPTH];
        let mut budget = WALK_BUDGET;
        let bound = ignorable_at((self, bounds(self)), gen_, &mut path, 0, &mut budget);
        // An instruction whose operands nest too many forms keeps the
        // bound that holds for every generation and parameter.
        if budget == 0 { every } else { bound & every }
    }
}

/// Forms [`Isa::ignorable_in`] visits for one instruction at most: a
/// bound on the walk whatever a spec nests, not a limit the bundled
/// targets come near (only forms that may ignore a bit are visited).
const WALK_BUDGET: u32 = 4096;

/// The bound of [`Isa::ignorable_in`] for the leaf at `path[depth]`, in
/// the instruction word, over every case of it and every form of its
/// operands.
fn ignorable_at(
    (isa, static_bounds): (&Isa, &Bounds),
    gen_: u32,
    path: &mut [Step; MAX_DEPTH],
    depth: usize,
    budget: &mut u32,
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
        // condition that read none holds or fails for every encoding.
        let never = ig.when.is_some_and(|e| {
            let mut env = Env { isa, bits: 0, gen_, read: 0, given: Given::NONE };
            env.eval(&path[..=depth], e) == 0 && env.read == 0
        });
        if !never {
            local |= ig.mask;
        }
    }
    let mut out = path[depth].in_word(local);
    for (ci, case) in leaf.cases.iter().enumerate() {
        path[depth].case = ci as u16;
        for (fi, f) in case.fields.iter().enumerate() {
            let (Ty::Group { group, .. }, Src::Bits(ranges)) = (f.ty, f.src) else { continue };
            let Some((base, map)) = path[depth].child(ranges).filter(|_| depth + 1 < MAX_DEPTH) else {
                out |= path[depth].in_word(all_of(ranges));
                continue;
            };
            // Most forms (constants, named registers) ignore nothing.
            for &form in static_bounds.ignoring.get(group as usize).map_or(&[][..], |g| g) {
                path[depth + 1] = Step { leaf: form, case: 0, base, via: fi as u16, map };
                out |= ignorable_at((isa, static_bounds), gen_, path, depth + 1, budget);
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
        let mut b = leaf.dontcare;
        for ig in leaf.ignore {
            b |= ig.mask;
        }
        for case in leaf.cases {
            for f in case.fields {
                let (Ty::Group { group, .. }, Src::Bits(ranges)) = (f.ty, f.src) else { continue };
                let forms = isa.groups.get(group as usize).map_or(&[][..], |g| g.leaves);
                let inner = forms.iter().fold(0, |m, &s| m | leaf_bound(isa, s as usize, states));
                b |= match ranges {
                    _ if inner == 0 => 0,
                    // A run of the word: the forms' bits, where they sit.
                    [r] => inner.checked_shl(r.lo as u32).unwrap_or(!0),
                    // Split over several ranges: all of them.
                    _ => all_of(ranges),
                };
            }
        }
        states[l] = State::Done(b);
        b
    }
    let mut states = vec![State::Todo; isa.leaves.len()];
    let leaves: Vec<Bits> = (0..isa.leaves.len()).map(|l| leaf_bound(isa, l, &mut states)).collect();
    let groups = isa.groups.iter().map(|g| g.leaves.iter().fold(0, |m, &l| m | leaves[l as usize])).collect();
    let ignoring =
        isa.groups.iter().map(|g| g.leaves.iter().copied().filter(|&l| leaves[l as usize] != 0).collect()).collect();
    Bounds { leaves, groups, ignoring }
}

/// Every bit of a field made of `ranges`, in its leaf's word.
fn all_of(ranges: &[crate::tables::Range]) -> Bits {
    ranges.iter().fold(0, |m, r| m | mask_of(r.lo as u32, r.width as u32))
}
