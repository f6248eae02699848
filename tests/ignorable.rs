//! `Isa::ignorable_in`, the bound on the bits an instruction's hardware may
//! ignore in one generation, holds every bit `Isa::ignored_bits` finds, in
//! every syntax, for random instructions of every opcode of every target
//! and generation; and it is narrower than the bound for every generation
//! where a condition reads only constants (the assembler skips the walk
//! for ignored bits on those). `Isa::ignorable_for`, the bound for one
//! instruction by its operands' values, holds them too.

use isa_runtime::TestRng;

#[path = "support/corpus.rs"]
mod corpus;

#[test]
fn the_bound_holds_every_ignored_bit() {
    let mut rng = TestRng::new(0x1970);
    let (mut checked, mut narrower) = (0u32, 0u32);
    for isa in isa_specs::TARGETS {
        for g in corpus::gens(isa) {
            let mut bounds = vec![None; isa.leaves.len()];
            // Random instructions of every opcode, and random words that
            // decode (other operand forms, other cases).
            for inst in corpus::instructions(isa, g, &mut rng, 6, 20_000) {
                let leaf = inst.leaf as usize;
                let bound = *bounds[leaf].get_or_insert_with(|| isa.ignorable_in(inst.leaf, g));
                assert_eq!(bound & !isa.ignorable(inst.leaf), 0, "{}: within the bound for every generation", isa.name);
                let mut ignored = isa.ignored_bits(&inst, g);
                for s in 0..isa.syntaxes.len() as u16 {
                    ignored |= isa.ignored_bits_in(&inst, g, s);
                }
                assert_eq!(
                    ignored & !bound,
                    0,
                    "{} gen {g} `{}` {:#x}: ignored bits outside the bound {bound:#x}",
                    isa.name,
                    isa.leaves[leaf].name,
                    inst.bits
                );
                let by_value = isa.ignorable_for(&inst);
                assert_eq!(
                    ignored & !by_value,
                    0,
                    "{} gen {g} `{}` {:#x}: ignored bits outside the bound by value {by_value:#x}",
                    isa.name,
                    isa.leaves[leaf].name,
                    inst.bits
                );
                assert_eq!(by_value & !isa.ignorable(inst.leaf), 0, "{}: by value within the bound", isa.name);
                narrower += u32::from(by_value & inst.bits != isa.ignorable(inst.leaf) & inst.bits);
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} instructions checked");
    assert!(narrower > 100, "{narrower} instructions whose operand values narrow the bound");
}

/// GCN's scalar register form ignores the low bits of a pair's code
/// (`when: W >= 2`); `s_mov_b32` passes `W: 1`, `s_mov_b64` `W: 2`.
#[test]
fn constant_parameters_narrow_the_bound() {
    let (isa, gfx8) = gcn_gfx8();
    let leaf = |name: &str| isa.instructions(gfx8).find(|&l| isa.leaves[l as usize].name == name).expect(name);
    let (b32, b64) = (leaf("s_mov_b32"), leaf("s_mov_b64"));
    // SOP1: SSRC0 in bits 0..8, SDST in bits 16..23.
    let low_bits = 0b11 | 0b11 << 16;
    assert_ne!(isa.ignorable(b32) & low_bits, 0, "for every generation and parameter");
    assert_eq!(isa.ignorable_in(b32, gfx8) & low_bits, 0, "one register");
    assert_eq!(isa.ignorable_in(b64, gfx8) & low_bits, 0b01 | 0b01 << 16, "a register pair");
}

/// A 64-bit VALU source names a VGPR pair from any register (`v[3:4]`), a
/// scalar pair from an even one: the low bit of an odd VGPR's code is not one
/// the source's forms for that value may ignore, the low bit of a scalar
/// pair's code is.
#[test]
fn operand_values_narrow_the_bound() {
    let (isa, gfx8) = gcn_gfx8();
    // llvm-mc 14, -mcpu=tonga: v_add_f64 v[0:1], v[3:4], v[6:7] and
    // v_add_f64 v[0:1], s[2:3], v[6:7].
    let vgpr = decoded(isa, gfx8, 0x0002_0d03_d280_0000, "v_add_f64");
    let sgpr = isa.decode(0x0002_0c02_d280_0000, gfx8).expect("decodes");
    let src0_low = 1u128 << 32;
    assert_ne!(isa.ignorable(vgpr.leaf) & src0_low, 0, "a source may be a scalar pair");
    assert_eq!(isa.ignorable_for(&vgpr) & src0_low, 0, "v[3:4]: a VGPR ignores no bit of its code");
    assert_ne!(isa.ignorable_for(&sgpr) & src0_low, 0, "s[2:3]: a scalar pair may ignore its low bit");
}

/// The bounds found with one `Walked` kept across every instruction (as an
/// `Assembler` keeps it), in either order, are those found afresh.
#[test]
fn bounds_found_with_the_operands_kept_are_those_found_afresh() {
    for isa in isa_specs::TARGETS {
        for g in corpus::gens(isa) {
            let fresh: Vec<_> = (0..isa.leaves.len() as u16).map(|l| isa.ignorable_in(l, g)).collect();
            let mut walked = isa_runtime::Walked::default();
            for l in 0..isa.leaves.len() as u16 {
                assert_eq!(isa.ignorable_in_with(l, g, &mut walked), fresh[l as usize], "{} gen {g}", isa.name);
            }
            let mut walked = isa_runtime::Walked::default();
            for l in (0..isa.leaves.len() as u16).rev() {
                assert_eq!(isa.ignorable_in_with(l, g, &mut walked), fresh[l as usize], "{} gen {g}", isa.name);
            }
        }
    }
}

/// An `ignore:` condition that is a chain of `&&` is left out of the bound
/// where one of its operands fails on constants alone: GCN's VOP1 ignores
/// the high half of the literal for a 16-bit source only (`SRC0 == 255 &&
/// H0`), and its tables of 32-bit operations set `H0` to 0, so an
/// instruction with a literal in those tables is not walked for it.
#[test]
fn a_conjunct_failing_on_constants_narrows_the_bound() {
    let (isa, gfx8) = gcn_gfx8();
    // llvm-mc 14, -mcpu=tonga: v_cvt_u32_f32_e32 v1, 0x12345678 and
    // v_rcp_f16_e32 v1, 0x1234.
    let b32 = decoded(isa, gfx8, 0x1234_5678_7e02_0eff, "v_cvt_u32_f32");
    let b16 = decoded(isa, gfx8, 0x0000_1234_7e02_7aff, "v_rcp_f16");
    let high_half = 0xffffu128 << 48;
    assert_eq!(isa.ignorable(b32.leaf) & high_half, high_half, "for every generation and parameter");
    assert_eq!(isa.ignorable_in(b32.leaf, gfx8) & high_half, 0, "a 32-bit source");
    assert_eq!(isa.ignorable_in(b16.leaf, gfx8) & high_half, high_half, "a 16-bit source");
    // The 16-bit source's literal with its high half set: ignored.
    let set = isa.decode(b16.bits | high_half, gfx8).expect("decodes");
    assert_eq!(set.leaf, b16.leaf);
    assert_eq!(isa.ignored_bits(&set, gfx8) & high_half, high_half, "ignored by a 16-bit source");
}

/// GCN and its generation GFX8, which the tests above take instructions of.
fn gcn_gfx8() -> (&'static isa_runtime::Isa, u32) {
    let isa = isa_specs::target("gcn").expect("gcn");
    (isa, isa.gen_by_name("gfx8").expect("gfx8"))
}

/// The instruction `word` decodes to in generation `g`, checked to be `name`.
fn decoded(isa: &isa_runtime::Isa, g: u32, word: u128, name: &str) -> isa_runtime::Inst {
    let inst = isa.decode(word, g).expect("decodes");
    assert_eq!(isa.leaves[inst.leaf as usize].name, name);
    inst
}
