//! Round trips over every target: what the decoder accepts, the printer writes
//! in a form the assembler reads back to the same bits (ignored bits aside), for
//! random instructions of every opcode and for random words. Nothing panics.

use isa_runtime::{Isa, PrintOpts, TestRng};

/// Prints, parses back and compares (the check the decode fuzzer runs too);
/// returns a description of any mismatch.
fn round_trip(isa: &Isa, bits: u128, gen_: u32) -> Result<(), String> {
    isagen::fuzz::round_trip(isa, bits, gen_, PrintOpts::default())
}

fn gens(isa: &Isa) -> Vec<u32> {
    if isa.gens.is_empty() { vec![isa.default_gen] } else { isa.gens.iter().map(|g| g.value).collect() }
}

fn every_opcode(isa: &Isa, samples: u32) {
    let mut rng = TestRng::new(0x1234_5678);
    let mut failures = Vec::new();
    let mut never_sampled = Vec::new();
    for &leaf in isa.groups[0].leaves {
        let l = &isa.leaves[leaf as usize];
        let mut hits = 0;
        for g in gens(isa).into_iter().filter(|&g| l.exists_in(g)) {
            // A draw may break a rule (sample refuses it): draw again, up to
            // a bound, so rarely valid field combinations are still reached.
            let mut got = 0;
            for _ in 0..samples * 20 {
                if got == samples {
                    break;
                }
                let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                got += 1;
                hits += 1;
                if let Err(e) = round_trip(isa, inst.bits, g) {
                    failures.push(format!("gen {g}: {e}"));
                }
            }
        }
        if hits == 0 && gens(isa).iter().any(|&g| l.exists_in(g)) {
            never_sampled.push(l.key);
        }
    }
    failures.sort();
    failures.dedup_by(|a, b| a.split('`').nth(1) == b.split('`').nth(1));
    for f in failures.iter().take(60) {
        println!("{f}");
    }
    assert!(never_sampled.is_empty(), "no valid random encoding found for {never_sampled:?}");
    assert!(failures.is_empty(), "{} round-trip failures", failures.len());
}

fn random_words(isa: &Isa, count: u32) {
    let mut rng = TestRng::new(42);
    let gens = gens(isa);
    let mut failures = Vec::new();
    let mut decoded = 0;
    for i in 0..count {
        let g = gens[i as usize % gens.len()];
        let word =
            ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & isa_runtime::mask_of(0, isa.groups[0].bits);
        if isa.decode(word, g).is_ok() {
            decoded += 1;
        }
        if let Err(e) = round_trip(isa, word, g) {
            failures.push(format!("gen {g}: {e}"));
        }
    }
    println!("{}: {decoded} of {count} random words decoded", isa.name);
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} round-trip failures", failures.len());
}

#[test]
fn ir3_every_opcode_round_trips_through_text() {
    every_opcode(&isa_specs::ir3::ISA, 400);
}

#[test]
fn ir3_random_words_decode_or_fail_cleanly() {
    random_words(&isa_specs::ir3::ISA, 200_000);
}

#[test]
fn gcn_every_opcode_round_trips_through_text() {
    every_opcode(&isa_specs::gcn::ISA, 200);
}

#[test]
fn gcn_random_words_decode_or_fail_cleanly() {
    random_words(&isa_specs::gcn::ISA, 100_000);
}

#[test]
fn rv32i_every_opcode_round_trips_through_text() {
    every_opcode(&isa_specs::rv32i::ISA, 400);
}

#[test]
fn rv32i_random_words_decode_or_fail_cleanly() {
    random_words(&isa_specs::rv32i::ISA, 100_000);
}

/// Text that glues two words is not the text with the space between them:
/// `v_add_f32v1, v2, v3` is not `v_add_f32 v1, v2, v3` (llvm-mc calls it
/// an invalid instruction). For sampled instructions of every opcode, each
/// space of the printed text between two word characters is taken out; the
/// line must then not assemble to the instruction it printed.
fn glued_words_are_other_text(isa: &Isa, samples: u32) {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut rng = TestRng::new(0x91ed);
    let (mut tried, mut same) = (0, Vec::new());
    for &leaf in isa.groups[0].leaves {
        for g in gens(isa).into_iter().filter(|&g| isa.leaves[leaf as usize].exists_in(g)) {
            for _ in 0..samples {
                let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                let text = isa.print(&inst, g);
                let Ok(want) = isa.assemble(&text, g) else { continue };
                let b = text.as_bytes();
                for i in (1..b.len().saturating_sub(1)).filter(|&i| b[i] == b' ' && word(b[i - 1]) && word(b[i + 1])) {
                    let glued = format!("{}{}", &text[..i], &text[i + 1..]);
                    tried += 1;
                    if isa.assemble(&glued, g) == Ok(want) {
                        same.push(format!("gen {g}: `{glued}` reads as `{text}`"));
                    }
                }
            }
        }
    }
    println!("{}: {tried} glued texts tried", isa.name);
    for s in same.iter().take(20) {
        println!("{s}");
    }
    assert!(tried > 0, "{}: no printed text has a space between words", isa.name);
    assert!(same.is_empty(), "{}: {} of {tried} glued texts read as the spaced one", isa.name, same.len());
}

#[test]
fn gcn_glued_words_are_other_text() {
    glued_words_are_other_text(&isa_specs::gcn::ISA, 2);
}

#[test]
fn ir3_glued_words_are_other_text() {
    glued_words_are_other_text(&isa_specs::ir3::ISA, 4);
}

#[test]
fn agx_glued_words_are_other_text() {
    glued_words_are_other_text(&isa_specs::agx::ISA, 4);
}

#[test]
fn rv32i_glued_words_are_other_text() {
    glued_words_are_other_text(&isa_specs::rv32i::ISA, 4);
}
