//! The precomputed decoding tables agree with the reference decoder: the same
//! instruction or the same error, for random instructions of every opcode and
//! for random words, in every generation (and between the named ones).

use isa_runtime::{DecodeError, Isa, TestRng, mask_of};

fn gens(isa: &Isa) -> Vec<u32> {
    let mut g: Vec<u32> = isa.gens.iter().flat_map(|g| [g.value, g.value + 30]).collect();
    g.push(isa.default_gen);
    g.sort_unstable();
    g.dedup();
    g
}

fn agree(isa: &Isa, bits: u128, gen_: u32) -> Result<(), String> {
    let fast = isa.decode(bits, gen_);
    let slow = isa.decode_reference(bits, gen_);
    if fast != slow {
        return Err(format!("gen {gen_} word {bits:#x}: tables {fast:?}, reference {slow:?}"));
    }
    // The direct decoder accepts only what the reference decodes the same.
    if let Some(direct) = isa.decode_direct(bits, gen_)
        && Ok(direct) != slow
    {
        return Err(format!("gen {gen_} word {bits:#x}: direct {direct:?}, reference {slow:?}"));
    }
    let mut bytes = bits.to_le_bytes().to_vec();
    bytes.truncate((isa.groups[0].bits / 8) as usize);
    let want = slow.map(|i| (i, i.len_bytes()));
    let got = isa.decode_bytes(&bytes, gen_);
    if got != want {
        return Err(format!("gen {gen_} bytes {bytes:02x?}: {got:?}, reference {want:?}"));
    }
    Ok(())
}

fn check(isa: &Isa, per_opcode: u32, words: u32) {
    assert!(isa.dispatch.is_some(), "{} has decoding tables", isa.name);
    let mut rng = TestRng::new(99);
    let mut bad = Vec::new();
    for g in gens(isa) {
        for &leaf in isa.groups[0].leaves {
            let l = &isa.leaves[leaf as usize];
            for _ in 0..per_opcode {
                let noise = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & mask_of(0, l.bits);
                // Around the identifying bits (mostly invalid operands) and valid samples.
                let near = (noise & !l.mask) | l.value;
                let sample = isa.sample(leaf, g, &mut || rng.next_u64()).map(|i| i.bits);
                for w in [Some(near), sample].into_iter().flatten() {
                    if let Err(e) = agree(isa, w, g) {
                        bad.push(e);
                    }
                }
            }
        }
        for _ in 0..words {
            let w = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & mask_of(0, isa.groups[0].bits);
            if let Err(e) = agree(isa, w, g) {
                bad.push(e);
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} disagreements", bad.len());
}

#[test]
fn every_target_decodes_as_the_reference_does() {
    for isa in isa_specs::TARGETS {
        check(isa, 8, 5_000);
    }
}

/// An instruction decodes the same whatever follows it in memory: bits past
/// its length are the next instruction's, and neither its identifying bits nor
/// its conditions read them (a short AGX `iter` followed by bytes whose bits
/// 32..39 were set once failed its sample condition and did not decode).
#[test]
fn what_follows_an_instruction_does_not_change_it() {
    let mut rng = TestRng::new(7);
    let mut bad = Vec::new();
    for isa in isa_specs::TARGETS {
        for g in gens(isa) {
            for &leaf in isa.groups[0].leaves {
                for _ in 0..4 {
                    let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                    let alone = inst.bytes();
                    let mut code = alone.clone();
                    code.extend((0..16).map(|_| rng.next_u64() as u8));
                    let want = isa.decode_bytes(&alone, g);
                    let got = isa.decode_bytes(&code, g);
                    let reference = isa.decode_reference(u128::from_le_bytes(code[..16].try_into().unwrap()), g);
                    if got != want || reference != want.clone().map(|(i, _)| i) {
                        bad.push(format!(
                            "{} gen {g} {code:02x?}: alone {want:?}, followed {got:?}, reference {reference:?}",
                            isa.name
                        ));
                    }
                }
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} instructions decode differently when followed by other bytes", bad.len());
}

/// A buffer shorter than eight bytes (a disassembler's line of one 4-byte
/// instruction, the end of the code) is read without the bytes past its end:
/// every prefix of an instruction's bytes decodes as the reference decodes
/// it followed by zeros, when what that finds fits the prefix, and fails
/// otherwise; the whole instruction decodes to itself.
#[test]
fn a_short_buffer_decodes_as_its_bytes_followed_by_zeros() {
    let mut rng = TestRng::new(11);
    let mut bad = Vec::new();
    for isa in isa_specs::TARGETS {
        for g in gens(isa) {
            let decoder = isa.decoder(g);
            for &leaf in isa.groups[0].leaves {
                let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                let bytes = inst.bytes();
                for n in 0..=bytes.len() {
                    let got = decoder.decode_bytes(&bytes[..n]);
                    let mut padded = [0u8; 16];
                    padded[..n].copy_from_slice(&bytes[..n]);
                    let want = isa.decode_reference(u128::from_le_bytes(padded), g).ok().filter(|i| i.len_bytes() <= n);
                    let fine = match want {
                        Some(want) => got == Ok((want, want.len_bytes())),
                        None => got.is_err(),
                    } && (n < bytes.len() || got == Ok((inst, n)));
                    if !fine {
                        bad.push(format!("{} gen {g} {:02x?}: {got:?}, whole {inst:?}", isa.name, &bytes[..n]));
                    }
                }
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} prefixes decode wrongly", bad.len());
}

/// The tables carry what makes decoding evaluate no expression in the common
/// case: tabulated lengths (`L ? 64 : 48`, `SRC0 == 255 ? 64 : 32`) and
/// operand checks that leave only a literal's value to the engine.
#[test]
fn lengths_and_literal_operands_are_tabulated() {
    use isa_runtime::{Length, NO_ASK};
    for name in ["agx", "gcn"] {
        let isa = isa_specs::TARGETS.iter().find(|t| t.name == name).expect("target");
        let d = isa.dispatch.expect("tables");
        let chosen = d.plans.iter().filter(|p| matches!(p.length(), Length::Choice { .. })).count();
        assert!(chosen > 0, "{name}: no length is tabulated as a choice");
    }
    let gcn = isa_specs::TARGETS.iter().find(|t| t.name == "gcn").expect("gcn");
    assert!(gcn.dispatch.expect("tables").units.iter().any(|u| u.ask != NO_ASK), "gcn: literal operands are tabulated");
}

/// How much the tables decode by themselves, on random instructions of every
/// opcode and generation: an operand form's own bits (an ir3 source's float
/// table index, a DS offset, an image's registers) are tabulated, so few
/// plans leave a whole check to the engine (what is left to it inside a
/// tabulated check is mostly one GCN literal's value).
#[test]
fn the_tables_decode_most_instructions_alone() {
    use isa_runtime::{Check, Length};
    for (name, least) in [("ir3", 0.99), ("gcn", 0.999), ("agx", 0.99), ("rv32i", 1.0)] {
        let isa = isa_specs::TARGETS.iter().find(|t| t.name == name).expect("target");
        let d = isa.dispatch.expect("tables");
        let mut rng = TestRng::new(5);
        let (mut alone, mut all) = (0, 0);
        for g in gens(isa) {
            let plans = d.plans_for(g);
            for leaf in isa.instructions(g) {
                for _ in 0..4 {
                    let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                    all += 1;
                    assert_eq!(isa.decode_by_tables(inst.bits, g), Some(inst), "{name}: the tables decode a sample");
                    let p = plans[inst.leaf as usize];
                    let fixed = isa.leaves[inst.leaf as usize].length.is_none();
                    if p.requires() != Check::Slow
                        && p.operands() != Check::Slow
                        && (fixed || p.length() != Length::Slow)
                    {
                        alone += 1;
                    }
                }
            }
        }
        let share = alone as f64 / all as f64;
        assert!(share >= least, "{name}: the tables check {alone} of {all} samples alone, under {least}");
    }
}

/// Decoders walk the direct tables without bounds checks once they pass
/// their check; tables that failed it would silently decode everything the
/// general way.
#[test]
fn every_targets_direct_tables_pass_their_check() {
    for isa in isa_specs::TARGETS {
        let d = isa.dispatch.expect("decoding tables");
        assert!(d.direct.valid(), "{}: the direct decoder's tables", isa.name);
        for g in gens(isa) {
            assert!(d.direct.trusted(d.class_of(g)).is_some(), "{} gen {g}: trusted", isa.name);
        }
    }
}

/// How much the direct decoder (one probe per leaf, four loads a word) takes
/// by itself, on random instructions of every opcode and generation: what it
/// leaves to the general tables is an instruction whose checks the tables
/// leave to the reference code whole, one longer than 64 bits, or one whose
/// length is evaluated (most of AGX's). A floor, so
/// that a change of the generator that quietly sends most words the slow
/// way fails here rather than only in a benchmark.
#[test]
fn the_direct_decoder_takes_most_instructions() {
    for (name, least) in [("ir3", 1.0), ("gcn", 0.999), ("agx", 0.94), ("rv32i", 1.0)] {
        let isa = isa_specs::TARGETS.iter().find(|t| t.name == name).expect("target");
        let mut rng = TestRng::new(5);
        let (mut taken, mut all) = (0, 0);
        for g in gens(isa) {
            for leaf in isa.instructions(g) {
                for _ in 0..4 {
                    let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
                    all += 1;
                    if let Some(direct) = isa.decode_direct(inst.bits, g) {
                        assert_eq!(direct, inst, "{name}: the direct decoder decodes a sample as the reference does");
                        taken += 1;
                    }
                }
            }
        }
        let share = taken as f64 / all as f64;
        assert!(share >= least, "{name}: the direct decoder takes {taken} of {all} samples, under {least}");
    }
}

/// A GCN VOP3 source's validity reads its code, not its `abs` and `neg`
/// bits (one form of the source for each of their values, all with the same
/// condition): the builder drops bits no answer depends on, so the check is
/// a key over the code's nine bits and a VOP3 word needs no side list.
#[test]
fn a_vop3_sources_check_is_a_key_of_its_code_alone() {
    let isa = isa_specs::TARGETS.iter().find(|t| t.name == "gcn").expect("gcn");
    let direct = &isa.dispatch.expect("tables").direct;
    let leaf = isa.leaves.iter().position(|l| l.name == "v_mad_f32").expect("v_mad_f32") as u16;
    let probes: Vec<_> = direct.probes.iter().zip(direct.further).filter(|(p, _)| p.leaf == leaf).collect();
    assert!(!probes.is_empty(), "v_mad_f32 has a probe");
    for (p, f) in probes {
        // The three sources' codes: bits 32..40, 41..49, 50..58.
        let runs: Vec<(u32, u64)> = p.keys.iter().map(|k| (k.lo(), k.mask())).collect();
        assert_eq!(runs, [(32, 0x1ff), (41, 0x1ff), (50, 0x1ff)], "{p:?}");
        assert_eq!((f.more_len, p.always), (0, 0), "no side list: {p:?}");
    }
}

/// A value too wide for a bitmap that the spec only compares with constants
/// (a GCN literal, which may not hold an inline constant's value) is
/// tabulated by intervals: at every cut point, and the value before it,
/// each such unit decodes as the reference decoder does. Random words almost
/// never land on a cut point, so they are tried here one by one.
#[test]
fn values_tabulated_by_intervals_decode_as_the_reference_does_at_every_cut() {
    use isa_runtime::{NO_ASK, Unit, insert};
    let mut tried = 0;
    let mut bad = Vec::new();
    for isa in isa_specs::TARGETS {
        let d = isa.dispatch.expect("tables");
        for g in gens(isa) {
            for (leaf, p) in d.plans_for(g).iter().enumerate() {
                let l = &isa.leaves[leaf];
                let parts = p.requires as u32 + p.operands as u32 + p.choice as u32;
                for u in &d.units[p.units as usize..(p.units + parts) as usize] {
                    if u.sub == NO_ASK {
                        continue;
                    }
                    let ranges = &d.ranges[u.range_start as usize..][..u.range_len as usize];
                    let n: u32 = ranges.iter().map(|r| r.width as u32).sum();
                    for i in 0..1u128 << n {
                        let Some(s) = d.units.get(d.subs[u.sub as usize + i as usize] as usize) else { continue };
                        if s.range_len != Unit::CUTS {
                            continue;
                        }
                        let word = insert(l.value & l.mask, 0, ranges, i).0;
                        let count = d.cuts[s.range_start as usize] as usize;
                        let starts = &d.cuts[s.range_start as usize + 1..][..count];
                        for &c in starts {
                            for x in [c, c.wrapping_sub(1), c + 1] {
                                if x >> s.width != 0 {
                                    continue;
                                }
                                tried += 1;
                                let w = word | (x as u128) << s.lo;
                                if let Err(e) = agree(isa, w, g) {
                                    bad.push(format!("{}: {e}", isa.name));
                                }
                                // The interval's answer is the reference's, both ways.
                                let k = starts.partition_point(|&c| c <= x) - 1;
                                let says = d.bitmaps[s.bitmap as usize + k / 64] >> (k % 64) & 1 == 1;
                                let holds = isa.operand_holds(leaf as u16, u.case, u.field as usize, w, g);
                                if u.field != isa_runtime::NO_FIELD && says != holds {
                                    bad.push(format!("{} gen {g} word {w:#x}: interval says {says}", isa.name));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} of {tried} words at cut points disagree", bad.len());
    let gcn = isa_specs::TARGETS.iter().find(|t| t.name == "gcn").expect("gcn");
    let d = gcn.dispatch.expect("tables");
    assert!(d.units.iter().any(|u| u.range_len == Unit::CUTS), "gcn: literals are tabulated by intervals");
    assert!(tried > 1000, "only {tried} words at cut points");
}

/// An operand check that reads a whole 16-bit immediate (GCN's packed
/// hardware-register operand, whose cases compare its offset and size;
/// ds_swizzle's lane pattern) is too wide for a narrow part and cannot be
/// split, so the tables hold it as one wide part rather than leaving it to
/// the reference code on every word: the direct decoder takes such a leaf,
/// and agrees with the reference on every value of the immediate.
#[test]
fn a_whole_sixteen_bit_immediate_is_tabulated_and_exact() {
    use isa_runtime::Plan;
    let isa = isa_specs::TARGETS.iter().find(|t| t.name == "gcn").expect("target");
    let d = isa.dispatch.expect("tables");
    let mut bad = Vec::new();
    for key in ["s_getreg_b32@gfx8", "s_setreg_b32@gfx6", "ds_swizzle_b32@gfx8"] {
        let leaf = isa.leaves.iter().position(|l| l.key == key).expect("leaf") as u16;
        let l = &isa.leaves[leaf as usize];
        let g = isa.gens.iter().map(|g| g.value).find(|&g| l.exists_in(g)).expect("a generation");
        let plan = d.plans_for(g)[leaf as usize];
        assert_eq!(plan.flags & (Plan::REQUIRES_SLOW | Plan::OPERANDS_SLOW), 0, "{key}: every check tabulated");
        let mut rng = TestRng::new(16);
        let mut taken = 0;
        for imm in 0..1u128 << 16 {
            let noise = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & mask_of(16, l.bits - 16);
            let w = (noise & !l.mask) | l.value | imm;
            taken += isa.decode_direct(w, g).is_some() as u32;
            if let Err(e) = agree(isa, w, g) {
                bad.push(format!("{key}: {e}"));
            }
        }
        assert!(taken > 0, "{key}: the direct decoder takes some words");
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} disagreements", bad.len());
}

/// A word the tables leave whole to the reference semantics decodes as the
/// reference decodes it, its instruction picked among the decision tree's
/// candidates rather than by scanning every leaf: a GFX7 FLAT atomic without
/// `glc` ignores its destination, whose bits here name `v[255:256]`, no
/// register pair (the tables check the field; the reference, seeing it
/// ignored, does not); and two invalid words, one no instruction's, one with
/// a literal holding an inline constant's value.
#[test]
fn words_the_tables_leave_decode_as_the_reference_does() {
    let isa = &isa_specs::gcn::ISA;
    let gfx7 = isa.gen_by_name("gfx7").expect("gfx7");
    let atomic = u64::from_le_bytes([0x00, 0x00, 0x68, 0xdd, 0x94, 0x31, 0x00, 0xff]);
    assert_eq!(isa.decode_by_tables(atomic as u128, gfx7), None, "the tables leave it");
    let inst = isa.decode(atomic as u128, gfx7).expect("it decodes");
    assert_eq!(isa.leaves[inst.leaf as usize].name, "flat_atomic_or_x2");
    // llvm-mc 14 (`-mcpu=bonaire -show-encoding`) assembles this text to
    // the same bytes with the ignored destination zero; it does not
    // disassemble GFX7.
    assert_eq!(isa.print(&inst, gfx7), "flat_atomic_or_x2 v[148:149], v[49:50]");
    // No instruction; a literal holding an inline constant's value.
    let words: [&[u8]; 3] = [
        &atomic.to_le_bytes(),
        &[0x82, 0xb7, 0x0e, 0xee, 0x7f, 0x1a, 0x50, 0x39],
        &[0xff, 0x02, 0x02, 0x7e, 0, 0, 0, 0],
    ];
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("eight bytes")) as u128;
    assert!(matches!(isa.decode(word(words[1]), gfx7), Err(DecodeError::NoMatch { .. })));
    assert!(matches!(isa.decode(word(words[2]), gfx7), Err(DecodeError::BadOperand { .. })));
    for bytes in words {
        let word = word(bytes);
        let reference = isa.decode_reference(word, gfx7);
        assert_eq!(isa.decode(word, gfx7), reference, "{bytes:02x?}");
        assert_eq!(isa.decode_bytes(bytes, gfx7), reference.map(|i| (i, i.len_bytes())), "{bytes:02x?}");
    }
}
