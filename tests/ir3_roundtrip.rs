//! Round trips over ir3: what the decoder accepts, the printer writes in a form
//! the assembler reads back to the same bits (don't-care bits aside), for random
//! instructions of every opcode and for random words. Nothing panics.

use isa_runtime::{Isa, TestRng};
use isa_specs::ir3::{ISA, Opcode};

const GENS: [u32; 5] = [400, 500, 600, 700, 800];

/// Prints, parses back and compares; returns a description of any mismatch.
fn round_trip(isa: &Isa, bits: u128, gen_: u32) -> Result<(), String> {
    let Ok(inst) = isa.decode(bits, gen_) else { return Ok(()) };
    let leaf = &isa.leaves[inst.leaf as usize];
    let care = !isa.ignored_bits(&inst, gen_);
    let text = isa.print(&inst, gen_);
    let back =
        isa.parse(&text, gen_).map_err(|e| format!("{:016x} prints `{text}`, which does not assemble: {e}", bits))?;
    if back.bits & care != bits & care {
        return Err(format!(
            "{:016x} `{}` prints `{text}`, which assembles to {:016x} (differs in {:016x})",
            bits,
            leaf.key,
            back.bits,
            (back.bits ^ bits) & care
        ));
    }
    Ok(())
}

#[test]
fn every_opcode_round_trips_through_text() {
    let mut rng = TestRng::new(0x1234_5678);
    let mut failures = Vec::new();
    let mut never_sampled = Vec::new();
    for op in Opcode::ALL {
        let leaf = op.info();
        let mut hits = 0;
        for &g in GENS.iter().filter(|&&g| leaf.exists_in(g)) {
            for _ in 0..400 {
                let Some(inst) = ISA.sample(op.leaf(), g, &mut || rng.next_u64()) else { continue };
                hits += 1;
                if let Err(e) = round_trip(&ISA, inst.bits, g) {
                    failures.push(format!("gen {g}: {e}"));
                }
            }
        }
        if hits == 0 {
            never_sampled.push(leaf.key);
        }
    }
    failures.sort();
    failures.dedup_by(|a, b| a.split(':').next() == b.split(':').next() && a.split('`').nth(1) == b.split('`').nth(1));
    for f in failures.iter().take(60) {
        println!("{f}");
    }
    assert!(never_sampled.is_empty(), "no valid random encoding found for {never_sampled:?}");
    assert!(failures.is_empty(), "{} round-trip failures", failures.len());
}

#[test]
fn random_words_decode_or_fail_cleanly() {
    let mut rng = TestRng::new(42);
    let mut failures = Vec::new();
    let mut decoded = 0;
    for i in 0..200_000u32 {
        let g = GENS[(i % 5) as usize];
        let word = rng.next_u64() as u128;
        if ISA.decode(word, g).is_ok() {
            decoded += 1;
        }
        if let Err(e) = round_trip(&ISA, word, g) {
            failures.push(format!("gen {g}: {e}"));
        }
    }
    println!("{decoded} of 200000 random words decoded");
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} round-trip failures", failures.len());
}
