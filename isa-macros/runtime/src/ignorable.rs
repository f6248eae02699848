//! Which bits of an instruction its hardware may ignore, whatever the rest.
//!
//! [`Isa::ignored_bits`] evaluates the `ignore:` conditions of the cases in
//! force and walks every operand; the assembler asks it of every line it
//! reads, and validation of every instruction with rules. Most lines set no
//! bit that any case or operand form of their instruction could ignore, and
//! for those the answer is known without the walk. This module keeps, per
//! instruction, that upper bound: its don't-care and `ignore:` bits, and the
//! bits of every operand field one of whose forms has some (recursively).

use crate::bits::{Bits, mask_of};
use crate::kept::Kept;
use crate::tables::{Isa, Src, Ty};

/// The bits of each leaf (in its own word) that some case or operand form
/// may ignore, by leaf index, and their union over each group's forms.
struct Bounds {
    leaves: Vec<Bits>,
    groups: Vec<Bits>,
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
                    _ => ranges.iter().fold(0, |m, r| m | mask_of(r.lo as u32, r.width as u32)),
                };
            }
        }
        states[l] = State::Done(b);
        b
    }
    let mut states = vec![State::Todo; isa.leaves.len()];
    let leaves: Vec<Bits> = (0..isa.leaves.len()).map(|l| leaf_bound(isa, l, &mut states)).collect();
    let groups = isa.groups.iter().map(|g| g.leaves.iter().fold(0, |m, &l| m | leaves[l as usize])).collect();
    Bounds { leaves, groups }
}
