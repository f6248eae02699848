//! Instructions to test against: random instructions of every opcode and
//! random words that decode, mixed. Included with `#[path]`.

use isa_runtime::{Inst, Isa, TestRng, mask_of};

/// The generations of `isa`, or its default one when it has none.
pub fn gens(isa: &Isa) -> Vec<u32> {
    if isa.gens.is_empty() { vec![isa.default_gen] } else { isa.gens.iter().map(|g| g.value).collect() }
}

/// `per_leaf` random instructions of every opcode of generation `gen_` and
/// what `words` random words decode to, interleaved, so that operands of
/// one encoding meet another's.
pub fn instructions(isa: &Isa, gen_: u32, rng: &mut TestRng, per_leaf: usize, words: usize) -> Vec<Inst> {
    let mut out = Vec::new();
    for &leaf in isa.groups[0].leaves {
        for _ in 0..per_leaf {
            out.extend(isa.sample(leaf, gen_, &mut || rng.next_u64()));
        }
    }
    for _ in 0..words {
        let w = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & mask_of(0, isa.groups[0].bits);
        out.extend(isa.decode(w, gen_).ok());
    }
    let n = out.len();
    for i in 0..n {
        out.swap(i, i + (rng.next_u64() as usize) % (n - i));
    }
    out
}
