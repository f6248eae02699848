//! Random instructions drawn from the spec, for round-trip and differential
//! tests: every field gets random bits, and every operand field gets one of its
//! forms (chosen at random), so each opcode is reached without guessing
//! identifying bits.

use crate::Inst;
use crate::bits::{Bits, mask_of};
use crate::place::Step;
use crate::tables::{Isa, Src, Ty};

impl Isa {
    /// A random encoding of `leaf` valid in `gen_`, or `None` when the drawn bits
    /// select a form that does not decode (callers draw again). `rng` returns
    /// uniformly random 64-bit values.
    pub fn sample(&self, leaf: u16, gen_: u32, rng: &mut dyn FnMut() -> u64) -> Option<Inst> {
        let l = self.leaves.get(leaf as usize)?;
        let noise = ((rng() as Bits) << 64) | rng() as Bits;
        let mut bits = noise & mask_of(0, l.bits);
        bits = self.fill(leaf, Step::top(leaf, 0), bits, gen_, rng, 0);
        let inst = self.decode(bits, gen_).ok()?;
        // A sample is a valid instruction: it keeps the target's rules too.
        (inst.leaf == leaf && self.validate(&inst, gen_).is_empty()).then_some(inst)
    }

    fn fill(&self, leaf: u16, at: Step, mut bits: Bits, gen_: u32, rng: &mut dyn FnMut() -> u64, depth: u32) -> Bits {
        let l = &self.leaves[leaf as usize];
        let m = at.in_word(l.mask);
        let v = at.in_word(l.value & l.mask);
        bits = (bits & !m) | v;
        bits &= !at.in_word(l.dontcare);
        if depth > 6 {
            return bits;
        }
        // Operand fields of any case: give each a random form of its group,
        // and each enum field one of its named values (a few names in a wide
        // field are rarely hit by noise).
        for case in l.cases.iter().filter(|c| !c.parse_only) {
            for f in case.fields {
                if let (Ty::Enum(e), Src::Bits(r)) = (f.ty, f.src) {
                    let values = self.enums[e as usize].values;
                    if !values.is_empty() && rng().is_multiple_of(2) {
                        let pick = values[(rng() % values.len() as u64) as usize].value;
                        bits = at.insert(bits, r, pick as u128).0;
                        bits = (bits & !m) | v;
                    }
                    continue;
                }
                let (Ty::Group { group, .. }, Src::Bits(r)) = (f.ty, f.src) else { continue };
                let Some((base, map)) = at.child(r) else { continue };
                let forms: Vec<u16> = self.groups[group as usize]
                    .leaves
                    .iter()
                    .copied()
                    .filter(|&s| self.leaves[s as usize].exists_in(gen_))
                    .collect();
                if forms.is_empty() {
                    continue;
                }
                let pick = forms[(rng() % forms.len() as u64) as usize];
                bits = self.fill(pick, Step { leaf: pick, case: 0, base, via: 0, map }, bits, gen_, rng, depth + 1);
                // The enclosing encoding's identifying bits win over the operand's.
                bits = (bits & !m) | v;
            }
        }
        bits
    }
}

/// A small, seedable generator for tests (xorshift64*).
#[derive(Clone, Debug)]
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> Self {
        TestRng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
