//! The builders accept valid programs, and what they build encodes to the
//! bits of the conformance vectors (tests/conformance at the workspace root:
//! LLVM's for GCN, Mesa's for ir3 and AGX). The expected bytes are read from
//! those files by the instruction's text; nothing here computes them. The
//! example shaders, built with the builders, go through the whole backend
//! (scheduling, allocation, hazards, encoding, the independent checkers).

use std::path::PathBuf;

use isa_specs::runtime::Inst;

fn vectors(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The value of `key: "..."` in a one-line YAML record.
fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("{key}: "))? + key.len() + 2;
    let rest = &line[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.find('"').map(|end| &quoted[..end]),
        None => Some(&rest[..rest.find([',', '}']).unwrap_or(rest.len())]),
    }
}

/// The bytes LLVM gives `canonical` text on `mcpu` (tests/conformance/gcn/mc.yaml).
fn gcn_bytes(mcpu: &str, canonical: &str) -> Vec<u8> {
    let text = vectors("gcn/mc.yaml");
    let line = text
        .lines()
        .find(|l| attr(l, "mcpu") == Some(mcpu) && attr(l, "canonical") == Some(canonical))
        .unwrap_or_else(|| panic!("no {mcpu} vector `{canonical}`"));
    let at = line.find("bytes: \"").expect("bytes") + 8;
    let s = &line[at..at + line[at..].find('"').expect("closing quote")];
    s.split(',').map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("a byte")).collect()
}

/// The hex (memory order) of a record of `file` whose `asm` is `asm`.
fn hex_of(file: &str, asm: &str, extra: Option<(&str, &str)>) -> String {
    let text = vectors(file);
    let line = text
        .lines()
        .find(|l| attr(l, "asm") == Some(asm) && extra.is_none_or(|(k, v)| attr(l, k) == Some(v)))
        .unwrap_or_else(|| panic!("no vector `{asm}` in {file}"));
    attr(line, "hex").expect("hex").to_string()
}

fn bytes(insts: &[Inst]) -> Vec<u8> {
    insts.iter().flat_map(|i| i.bytes()).collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

mod gcn {
    use super::*;
    use isa_specs::gcn::build::*;

    fn one(build: impl FnOnce(&mut Shader<Gfx8>)) -> Vec<u8> {
        let mut b = Shader::<Gfx8>::new();
        build(&mut b);
        bytes(&b.encode().expect("encodes"))
    }

    #[test]
    fn vop2_vop3_and_literals_match_llvm() {
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("v_add_f32_e32 v1, v2, v3", one(|b| b.v_add_f32_e32_to(vgpr::<1>(), vgpr::<2>(), vgpr::<3>()))),
            ("v_add_f32_e32 v1, -1.0, v3", one(|b| b.v_add_f32_e32_to(vgpr::<1>(), -1.0, vgpr::<3>()))),
            ("v_add_f32_e32 v1, 0x42c80000, v3", one(|b| b.v_add_f32_e32_to(vgpr::<1>(), 0x42c8_0000u32, vgpr::<3>()))),
            ("v_add_u32_e32 v1, vcc, v2, v3", one(|b| b.v_add_u32_e32_to(vgpr::<1>(), vgpr::<2>(), vgpr::<3>()))),
            (
                "v_add_u16_e64 v1, v2, v3 clamp",
                one(|b| {
                    b.v_add_u16_e64_to(vgpr::<1>(), vgpr::<2>(), vgpr::<3>()).clamp();
                }),
            ),
            (
                "v_cmp_lt_f32_e64 s[2:3], -|v4|, v6",
                one(|b| {
                    b.v_cmp_lt_f32_e64_to(sgprs::<2, 2>(), VSrc::from(vgpr::<4>()).abs().neg(), vgpr::<6>());
                }),
            ),
            ("s_mov_b32 s1, 0x64", one(|b| b.s_mov_b32_to(sgpr::<1>(), 100))),
            (
                "s_load_dwordx2 s[2:3], s[2:3], 0x1",
                one(|b| {
                    b.s_load_dwordx2_to(sgprs::<2, 2>(), sgprs::<2, 2>(), 1);
                }),
            ),
        ];
        for (text, got) in cases {
            assert_eq!(hex(&got), hex(&gcn_bytes("tonga", text)), "{text}");
        }
    }

    #[test]
    fn sdwa_and_dpp_match_llvm() {
        let sdwa = "v_add_f32_sdwa v0, -|v0|, -v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_2";
        let got = one(|b| {
            b.v_add_f32_sdwa_to(vgpr::<0>(), SdwaSrc::from(vgpr::<0>()).neg().abs(), SdwaSrc::from(vgpr::<0>()).neg())
                .dst_unused(values::SdwaUnused::UnusedPad)
                .src0_sel(values::SdwaSel::Word1)
                .src1_sel(values::SdwaSel::Byte2);
        });
        assert_eq!(hex(&got), hex(&gcn_bytes("tonga", sdwa)), "{sdwa}");
        let dpp = "v_mov_b32_dpp v0, v0 row_shl:1 row_mask:0xf bank_mask:0xf";
        let got = one(|b| {
            b.v_mov_b32_dpp_to(vgpr::<0>(), vgpr::<0>(), "row_shl:1");
        });
        assert_eq!(hex(&got), hex(&gcn_bytes("tonga", dpp)), "{dpp}");
    }

    #[test]
    fn gfx6_has_its_own_scalar_loads() {
        let mut b = Shader::<Gfx6>::new();
        b.s_load_dword_to(sgpr::<1>(), sgprs::<2, 2>(), 0xfc);
        b.s_mov_b32_to(sgpr::<1>(), sgpr::<2>());
        let got = bytes(&b.encode().expect("encodes"));
        let mut want = gcn_bytes("tahiti", "s_load_dword s1, s[2:3], 0xfc");
        want.extend(gcn_bytes("tahiti", "s_mov_b32 s1, s2"));
        assert_eq!(hex(&got), hex(&want));
    }

    #[test]
    fn rules_the_types_cannot_see_are_reported_by_the_assembler() {
        // Two different SGPRs in one VOP3: the constant bus takes one.
        let mut b = Shader::<Gfx8>::new();
        b.v_add_f32_e64_to(vgpr::<0>(), sgpr::<1>(), sgpr::<2>());
        let err = b.encode().unwrap_err();
        assert!(matches!(err, BuildError::Assemble { .. }), "{err}");
        assert!(err.to_string().contains("v_add_f32_e64 v0, s1, s2"), "{err}");
    }

    #[test]
    fn runtime_values_are_checked_and_named() {
        let err = Imm::<imm::Simm16>::try_from(70000).unwrap_err();
        assert_eq!(err.to_string(), "70000 does not fit field SIMM16 (range -32768..=65535)");
        let err = Reg::<Sgpr, 2>::new(3).unwrap_err();
        assert!(err.to_string().contains("alignment"), "{err}");
        assert!(Reg::<Vgpr, 4>::new(253).is_err());
        assert!(Reg::<Vgpr, 4>::new(252).is_ok());
    }

    #[test]
    fn virtual_values_need_the_backend() {
        let mut b = Shader::<Gfx8>::new();
        let x = b.value::<Vgpr, 1>();
        let y = b.v_mul_f32_e32(2.0, x);
        let err = b.encode().unwrap_err();
        assert!(matches!(err, BuildError::Virtual { .. }), "{err}");
        assert!(err.to_string().contains("has no register"), "{err}");
        let ir = b.to_ir().expect("IR");
        assert!(
            ir.contains(&format!(
                "v_mul_f32_e32 %v{}:vgpr, 2.0, %v0",
                match y.loc() {
                    Loc::Value(v) => v,
                    Loc::Phys(_) => unreachable!("a new value"),
                }
            )),
            "{ir}"
        );
    }
}

mod ir3 {
    use isa_specs::ir3::build::*;

    use super::*;

    #[test]
    fn alu_and_constants_match_mesa() {
        let mut b = Shader::<A6xx>::new();
        // idx 70: mad.f32 r1.y, (neg)c12.x, r1.x, c12.y
        b.mad_f32_to(full::<5>(), Src3::from(const_::<48>()).neg(), full::<4>(), const_::<49>());
        // idx 209: add.f r1.w, r2.x, (neg)(0.0)
        b.add_f_to(full::<7>(), full::<8>(), Src::from(0.0).neg());
        let got = b.encode().expect("encodes");
        assert_eq!(got.len(), 2);
        let words: Vec<String> = got.iter().map(|i| format!("{:016x}", i.bits)).collect();
        assert_eq!(words[0], hex_of("ir3/disasm.yaml", "mad.f32 r1.y, (neg)c12.x, r1.x, c12.y", None));
        assert_eq!(words[1], hex_of("ir3/disasm.yaml", "add.f r1.w, r2.x, (neg)(0.0)", Some(("gen", "600"))));
    }

    #[test]
    fn sync_flags_are_named_options() {
        let mut b = Shader::<A6xx>::new();
        b.add_f_to(full::<7>(), full::<8>(), Src::from(0.0).neg()).sy().ss();
        let text = isa_specs::ir3::ISA.print(&b.encode().expect("encodes")[0], 600);
        assert_eq!(text, "(sy)(ss)add.f r1.w, r2.x, (neg)(0.0)");
    }
}

mod agx {
    use isa_specs::agx::build::*;
    use isa_specs::runtime::imm;

    use super::*;

    #[test]
    fn float_alu_matches_mesa() {
        let cases: Vec<(&str, Shader<Base>)> = vec![
            ("fmul r4, r11, r9", {
                let mut b = Shader::new();
                b.fmul_to(full::<4>(), full::<11>(), full::<9>());
                b
            }),
            ("fadd r0, r10.neg, r11", {
                let mut b = Shader::new();
                b.fadd_to(full::<0>(), FSrc::from(full::<10>()).neg(), full::<11>());
                b
            }),
            ("ffma r4, r3, u8, u6", {
                let mut b = Shader::new();
                b.ffma_to(full::<4>(), full::<3>(), uniform::<8>(), uniform::<6>());
                b
            }),
        ];
        for (text, b) in cases {
            let got = bytes(&b.encode().expect("encodes"));
            assert_eq!(hex(&got), hex_of("agx/mesa-cases.yaml", text, None), "{text}");
        }
    }

    /// A 32-bit device load with the bits Mesa's short form implies (the
    /// full form spells them: 1, 0, 1, 0, 0).
    fn load<const N: usize>(
        d: Reg<Full, N>,
        base: impl Into<MemBase>,
        index: impl Into<MemIdx>,
        mask: values::MaskMesa,
    ) -> Shader<Base> {
        let mut b = Shader::new();
        let (i32_, a) = (values::FormatMesa::I32, values::Slot::A);
        b.load_to(d, base, index, i32_, mask, a, imm!(1), imm!(0), imm!(1), imm!(0), imm!(0));
        b
    }

    /// Memory and varyings: register groups written `r0_r1_r2`, 64-bit bases,
    /// varyings from a register or an immediate.
    #[test]
    fn memory_and_varyings_match_mesa() {
        let cases: Vec<(&str, Shader<Base>)> = vec![
            ("load r0_r1_r2, du52, 4, i32, xyz, a", load(fulls::<0, 3>(), uniform64::<26>(), 4, values::MaskMesa::Xyz)),
            ("load r2_r3, dr2, 4, i32, xy, a", load(fulls::<2, 2>(), double::<1>(), 4, values::MaskMesa::Xy)),
            (
                "load r6_r7, du54, r6, i32, xy, a",
                load(fulls::<6, 2>(), uniform64::<27>(), full::<6>(), values::MaskMesa::Xy),
            ),
            ("st_var r1, r3l", {
                let mut b = Shader::new();
                b.st_var(full::<1>(), half::<6>(), imm!(1));
                b
            }),
            ("st_var r9, 1", {
                let mut b = Shader::new();
                b.st_var(full::<9>(), 1, imm!(1));
                b
            }),
            // Tile memory and stack mapping: the bits only Mesa's longer
            // text shows take their usual values.
            ("st_tile r0_r1_r2_r3, 0, 255, 0, u8norm, xyzw", {
                let mut b = Shader::new();
                let (f, m) = (values::FormatMesa::U8norm, values::MaskMesa::Xyzw);
                b.st_tile(fulls::<0, 4>(), 0, 255, imm!(0), f, m);
                b
            }),
            ("map r10, 0, 2", {
                let mut b = Shader::new();
                b.map(imm!(10), imm!(0), 2);
                b
            }),
            ("unmap r8, 0, 3", {
                let mut b = Shader::new();
                b.unmap(imm!(8), imm!(0), 3);
                b
            }),
        ];
        for (text, b) in cases {
            let got = bytes(&b.encode().expect("encodes"));
            assert_eq!(hex(&got), hex_of("agx/mesa-cases.yaml", text, None), "{text}");
        }
    }
}

mod shaders {
    fn listing(target: &str) -> Vec<String> {
        let shaders = driver_example::shaders().expect("the shaders build");
        let (t, g, ir) = shaders.into_iter().find(|(t, _, _)| *t == target).expect("a shader for the target");
        let out = driver_example::compile(t, g, &ir).unwrap_or_else(|e| panic!("{t}: {e}\n{ir}"));
        out.listing.iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn ir3_dp3_schedules_as_the_notes_say() {
        // Mesa's ir3 notes: mul.f, then two mad.f32 filling each other's delay
        // slots, (nop1), (nop1), (nop3) on a6xx.
        let l = listing("ir3");
        assert!(l[0].starts_with("(nop1) mul.f "), "{l:?}");
        assert!(l[1].starts_with("(nop1) mad.f32 "), "{l:?}");
        assert!(l[2].starts_with("(nop3) mad.f32 "), "{l:?}");
        assert_eq!(l.last().map(String::as_str), Some("end"));
    }

    #[test]
    fn gcn_compute_waits_for_its_loads() {
        let l = listing("gcn");
        let load = l.iter().position(|t| t.starts_with("buffer_load_dword")).expect("the load");
        let mul = l.iter().position(|t| t.starts_with("v_mul_f32")).expect("the multiply");
        assert!(l[load + 1..mul].iter().any(|t| t == "s_waitcnt vmcnt(0)"), "{l:?}");
        assert_eq!(l.last().map(String::as_str), Some("s_endpgm"));
    }

    #[test]
    fn agx_vertex_uses_a_uniform_and_ends() {
        let l = listing("agx");
        assert!(l.iter().any(|t| t.starts_with("ffma ") && t.ends_with(", u6")), "{l:?}");
        assert_eq!(l.last().map(String::as_str), Some("stop"));
    }
}
