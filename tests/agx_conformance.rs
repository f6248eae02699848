//! AGX (Apple G13) against its two ground truths (tests/conformance/agx; see
//! each file's header):
//!
//! - `mesa-cases.yaml`: encodings from Apple's compiler with the text of Mesa's
//!   AGX2 disassembler. Decoding `hex` prints `asm` (and, padded, `asm_raw`);
//!   assembling `asm` gives `hex`, or a shorter legal form that decodes to the
//!   same text (counted and listed apart).
//! - `applegpu.yaml`: encodings with the text of applegpu's disassembler.
//!   Decoding `hex` in the `applegpu` syntax prints exactly `asm`; records marked
//!   `roundtrip: true` assemble back to `hex`.
//!
//! Families the spec describes must pass in full. The rest are listed below
//! (PENDING_*), each with its reason; the test fails if a pending family starts
//! passing, so the list only shrinks.

use std::collections::BTreeMap;

use isa_specs::agx::ISA;
use isa_specs::runtime::{Inst, PrintOpts};

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct MesaRecord {
    idx: u32,
    hex: String,
    length: usize,
    asm: String,
    asm_raw: String,
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct AppleRecord {
    hex: String,
    length: usize,
    asm: String,
    mnemonic: String,
    descriptor: String,
    roundtrip: bool,
}

/// Mesa mnemonics (the first word of `asm`) not described yet. None are left;
/// the list stays so that a family can be added to the vectors before its spec.
const PENDING_MESA: &[&str] = &[];

/// applegpu descriptors described by the spec; every record of these must pass.
const DESCRIBED_APPLEGPU: &[&str] = &[
    "FAdd32InstructionDesc",
    "FMul32InstructionDesc",
    "FAdd16InstructionDesc",
    "FMul16InstructionDesc",
    "FMAdd32InstructionDesc",
    "FMAdd16InstructionDesc",
    "FloorInstructionDesc",
    "CeilInstructionDesc",
    "TruncInstructionDesc",
    "RintInstructionDesc",
    "ReciprocalInstructionDesc",
    "RsqrtInstructionDesc",
    "RsqrtSpecialInstructionDesc",
    "SinPt1InstructionDesc",
    "SinPt2InstructionDesc",
    "Log2InstructionDesc",
    "Exp2InstructionDesc",
    "MovImm16InstructionDesc",
    "MovImm32InstructionDesc",
    "StopInstructionDesc",
    "TrapInstructionDesc",
    "WaitInstructionDesc",
    "ThreadgroupBarriernstructionDesc",
    "DeviceLoadInstructionDesc",
    "DeviceLoadTodoInstructionDesc",
    "DeviceStoreInstructionDesc",
    "DeviceStoreTodoInstructionDesc",
    "SampleMaskInstructionDesc",
    "ZSEmitInstructionDesc",
    "st_var",
    "st_var_final",
    "no_var",
    "Atomic",
    "ThreadgroupAtomic",
    "ThreadgroupLoadInstructionDesc",
    "ThreadgroupStoreInstructionDesc",
    "StoreToTextureStateInstructionDesc",
    "StoreToSamplerStateInstructionDesc",
    "StackLoadInstructionDesc",
    "StackStoreInstructionDesc",
    "PopExecInstructionDesc",
    "IfICmpInstructionDesc",
    "ElseICmpInstructionDesc",
    "WhileICmpInstructionDesc",
    "IfFCmpInstructionDesc",
    "ElseFCmpInstructionDesc",
    "WhileFCmpInstructionDesc",
    "IAddInstructionDesc",
    "IMAddInstructionDesc",
    "BitopInstructionDesc",
    "BitReverseInstructionDesc",
    "PopCountInstructionDesc",
    "FindFirstSetInstructionDesc",
    "InterleaveInstructionDesc",
    "UnknownIUnaryInstructionDesc",
    "ConvertInstructionDesc",
    "BitfieldInsertInstructionDesc",
    "BitfieldExtractInstructionDesc",
    "ExtractInstructionDesc",
    "ShlhiInstructionDesc",
    "ShrhiInstructionDesc",
    "ArithmeticShiftRightInstructionDesc",
    "ArithmeticShiftRightHighInstructionDesc",
    "ICmpselInstructionDesc",
    "FCmpselInstructionDesc",
    "MovFromSrInstructionDesc",
    "TodoSrThingInstructionDesc",
    "ICmpBallotInstructionDesc",
    "ICmpQuadBallotInstructionDesc",
    "FCmpBallotInstructionDesc",
    "FCmpQuadBallotInstructionDesc",
    "SimdShuffleInstructionDesc",
    "SimdShuffleXorInstructionDesc",
    "SimdShuffleUpInstructionDesc",
    "SimdShuffleDownInstructionDesc",
    "SimdShuffleRotateUpInstructionDesc",
    "quad_shuffle",
    "quad_shuffle_xor",
    "quad_shuffle_up",
    "quad_shuffle_down",
    "quad_shuffle_rotate_up",
    "simd_shuf_op",
    "quad_and",
    "quad_fadd",
    "quad_fmul",
    "quad_iadd",
    "quad_max.f",
    "quad_max.s",
    "quad_max.u",
    "quad_min.f",
    "quad_min.s",
    "quad_min.u",
    "quad_or",
    "quad_prefix_fadd",
    "quad_prefix_fmul",
    "quad_prefix_iadd",
    "quad_xor",
    "simd_and",
    "simd_fadd",
    "simd_fmul",
    "simd_iadd",
    "simd_max.f",
    "simd_max.s",
    "simd_max.u",
    "simd_min.f",
    "simd_min.s",
    "simd_min.u",
    "simd_op",
    "simd_or",
    "simd_prefix_and",
    "simd_prefix_fadd",
    "simd_prefix_fmul",
    "simd_prefix_iadd",
    "simd_prefix_max.s",
    "simd_prefix_max.u",
    "simd_prefix_min.s",
    "simd_prefix_min.u",
    "simd_prefix_or",
    "simd_prefix_xor",
    "simd_xor",
    "DfdxInstructionDesc",
    "DfdyInstructionDesc",
    "UnknownFUnaryInstructionDesc",
    "SimdMatrixFMadd32InstructionDesc",
    "SimdMatrixFMadd16InstructionDesc",
    "MemoryBarrierInstructionDesc",
    "JmpAnyInstructionDesc",
    "JmpNoneInstructionDesc",
    "CallInstructionDesc",
    "CallRegInstructionDesc",
    "RetInstructionDesc",
    "JumpIncompleteInstructionDesc",
    "JumpNoDoorbellInstructionDesc",
    "DoorbellInstructionDesc",
    "wait_pix",
    "signal_pix",
    "IterDesc",
    "IterProjDesc",
    "LoadCFDesc",
    "ImageWrite",
    "ImageWriteBlockInstructionDesc",
    "TextureSampleInstructionDesc",
    "TextureLoadInstructionDesc",
    "LdstTileDesc",
    "MapInstructionDesc",
    "Unk75AltInstructionDesc",
    "StoreToUniformInstructionDesc",
    "AsyncLoadInstructionDesc",
    "AsyncStoreInstructionDesc",
    "TodoPopExecInstructionDesc",
    "Unk30C0InstructionDesc",
    "Unk40C0InstructionDesc",
    "UnkC0000000InstructionDesc",
    "UnkE8InstructionDesc",
    "Unk0CInstructionDesc",
    "UnknownAfterSampling1InstructionDesc",
    "UnknownAfterSampling2InstructionDesc",
];

/// Mesa records whose text does not fix every bit, with the reason: assembling
/// the text gives another encoding, which must print the same text (and must
/// not be the record's own, or the entry is stale).
const AMBIGUOUS_MESA: &[(&str, &str)] = &[(
    "0541f00f0fc8f20f",
    "an immediate index below 0x8000 prints alike sign- or zero-extended; this one is zero-extended (bit 25)",
)];

/// Records of described families that still fail, with the reason.
const KNOWN_APPLEGPU: &[(&str, &str)] = &[];

fn bytes_of(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex byte")).collect()
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn decode(hex: &str) -> Result<Inst, String> {
    let bytes = bytes_of(hex);
    let (inst, n) = ISA.decode_bytes(&bytes, 0).map_err(|e| e.to_string())?;
    if n != bytes.len() {
        return Err(format!("decodes as {n} bytes, not {}", bytes.len()));
    }
    Ok(inst)
}

fn syntax(name: &str) -> u16 {
    ISA.syntax_by_name(name).expect("the syntax exists")
}

/// How assembling a record's text came out.
enum Asm {
    Exact,
    /// A shorter form than the record's that prints the same text.
    Shorter(String),
    Wrong(String),
}

fn assemble(text: &str, hex: &str, syn: u16) -> Asm {
    let inst = match ISA.parse_in(text, 0, syn) {
        Ok(i) => i,
        Err(e) => return Asm::Wrong(format!("assemble `{text}`: {e}")),
    };
    let got = hex_of(&inst.bytes());
    if got == hex {
        return Asm::Exact;
    }
    let again = ISA.print_in(&inst, 0, PrintOpts { syntax: syn, pad: None });
    if got.len() < hex.len() && again == text {
        Asm::Shorter(format!("`{text}`: {hex} assembles to the shorter {got}"))
    } else {
        Asm::Wrong(format!("assemble `{text}`: got {got}, want {hex}"))
    }
}

#[test]
fn mesa_cases_decode_and_assemble() {
    let recs: Vec<MesaRecord> =
        serde_saphyr::from_str(include_str!("conformance/agx/mesa-cases.yaml")).expect("the vector file parses");
    assert_eq!(recs.len(), 417);
    let mesa = syntax("mesa");
    let mut per: BTreeMap<&str, [u32; 4]> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut shorter = Vec::new();
    let mut pending_passing = Vec::new();
    for r in &recs {
        let mnemonic = r.asm.split(' ').next().unwrap_or("");
        let pending = PENDING_MESA.contains(&mnemonic);
        let e = per.entry(mnemonic).or_default();
        e[0] += 1;
        let mut errs = Vec::new();
        match decode(&r.hex) {
            Ok(inst) => {
                let t = ISA.print_in(&inst, 0, PrintOpts { syntax: mesa, pad: Some(false) });
                let raw = ISA.print_in(&inst, 0, PrintOpts { syntax: mesa, pad: Some(true) });
                if t == r.asm && raw.trim_end() == r.asm_raw {
                    e[1] += 1;
                } else {
                    errs.push(format!("idx {} decode {}: got `{t}` / `{raw}`, want `{}`", r.idx, r.hex, r.asm));
                }
            }
            Err(err) => errs.push(format!("idx {} decode {}: {err}", r.idx, r.hex)),
        }
        if AMBIGUOUS_MESA.iter().any(|(h, _)| *h == r.hex) {
            match ISA.parse_in(&r.asm, 0, mesa) {
                Ok(inst) if hex_of(&inst.bytes()) == r.hex => {
                    errs.push(format!("idx {} assembles exactly now; drop it from AMBIGUOUS_MESA", r.idx))
                }
                // The bits that differ are ones the Mesa text leaves out.
                Ok(inst)
                    if ISA.print_in(&inst, 0, PrintOpts { syntax: mesa, pad: None }) == r.asm
                        && decode(&r.hex)
                            .is_ok_and(|d| (d.bits ^ inst.bits) & !ISA.ignored_bits_in(&d, 0, mesa) == 0) => {}
                Ok(inst) => errs.push(format!("idx {} assembles to {}", r.idx, hex_of(&inst.bytes()))),
                Err(err) => errs.push(format!("idx {} assemble `{}`: {err}", r.idx, r.asm)),
            }
        } else {
            match assemble(&r.asm, &r.hex, mesa) {
                Asm::Exact => e[2] += 1,
                Asm::Shorter(m) => {
                    e[3] += 1;
                    shorter.push(format!("idx {} {m}", r.idx));
                }
                Asm::Wrong(m) => errs.push(format!("idx {} {m}", r.idx)),
            }
        }
        if pending {
            if errs.is_empty() {
                pending_passing.push(mnemonic);
            }
        } else {
            failures.extend(errs);
        }
    }
    println!("AGX mesa-cases (records: decoded+padded exactly, assembled exactly, assembled shorter):");
    for (h, why) in AMBIGUOUS_MESA {
        println!("  AMBIGUOUS {h}: {why}");
    }
    for (m, [n, d, a, s]) in &per {
        let tag = if PENDING_MESA.contains(m) { "  (pending)" } else { "" };
        println!("  {m:<24} {n:>3}: decode {d}/{n}, assemble {a}/{n}, shorter {s}{tag}");
    }
    for s in &shorter {
        println!("SHORTER {s}");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} checks of described instructions failed", failures.len());
    pending_passing.sort();
    pending_passing.dedup();
    let fully: Vec<_> = pending_passing
        .iter()
        .filter(|m| recs.iter().all(|r| r.asm.split(' ').next() != Some(m) || pending_ok(r, mesa)))
        .collect();
    assert!(fully.is_empty(), "pending mnemonics now pass in full; move them out of PENDING_MESA: {fully:?}");
}

fn pending_ok(r: &MesaRecord, mesa: u16) -> bool {
    let Ok(inst) = decode(&r.hex) else { return false };
    ISA.print_in(&inst, 0, PrintOpts { syntax: mesa, pad: Some(false) }) == r.asm
        && !matches!(assemble(&r.asm, &r.hex, mesa), Asm::Wrong(_))
}

fn apple_records() -> Vec<AppleRecord> {
    serde_saphyr::from_str(include_str!("conformance/agx/applegpu.yaml")).expect("the vector file parses")
}

#[test]
fn applegpu_records_decode_and_round_trip() {
    let recs = apple_records();
    assert_eq!(recs.len(), 5925);
    let apple = syntax("applegpu");
    let mut per: BTreeMap<&str, [u32; 4]> = BTreeMap::new();
    let mut failures = Vec::new();
    for r in &recs {
        if !DESCRIBED_APPLEGPU.contains(&r.descriptor.as_str()) {
            per.entry("(not yet described)").or_default()[0] += 1;
            continue;
        }
        let e = per.entry(r.descriptor.as_str()).or_default();
        e[0] += 1;
        let known = KNOWN_APPLEGPU.iter().any(|(h, _)| *h == r.hex);
        let mut errs = Vec::new();
        match decode(&r.hex) {
            Ok(inst) => {
                let t = ISA.print_in(&inst, 0, PrintOpts { syntax: apple, pad: None });
                if t == r.asm {
                    e[1] += 1;
                } else {
                    errs.push(format!("decode {}: got `{t}`, want `{}`", r.hex, r.asm));
                }
            }
            Err(err) => errs.push(format!("decode {} (`{}`): {err}", r.hex, r.asm)),
        }
        if r.roundtrip {
            e[2] += 1;
            match assemble(&r.asm, &r.hex, apple) {
                Asm::Exact => e[3] += 1,
                Asm::Shorter(m) | Asm::Wrong(m) => errs.push(m),
            }
        }
        if !known {
            failures.extend(errs);
        }
    }
    println!("AGX applegpu corpus (records: decoded exactly, round-trip records, assembled exactly):");
    for (d, [n, dec, rt, a]) in &per {
        println!("  {d:<40} {n:>4}: decode {dec}/{n}, assemble {a}/{rt}");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} checks of described descriptors failed", failures.len());
}

/// A long form whose extension bits are all zero (and whose fields fit the short
/// form) re-encodes short: the assembler picks the shortest legal form. The
/// corpus's long records all carry a non-zero extension, so each is also
/// checked with its extension cleared (still a valid long encoding).
#[test]
fn long_forms_without_extension_bits_encode_short() {
    let apple = syntax("applegpu");
    let (mut checked, mut failures) = (0, Vec::new());
    for r in apple_records() {
        if !DESCRIBED_APPLEGPU.contains(&r.descriptor.as_str()) {
            continue;
        }
        let Ok(inst) = decode(&r.hex) else { continue };
        let leaf = &ISA.leaves[inst.leaf as usize];
        if leaf.length.is_none() || inst.len as u32 * 8 == leaf.min_bits {
            continue;
        }
        let cleared = inst.bits & ((1u128 << leaf.min_bits) - 1);
        let mut bytes = cleared.to_le_bytes()[..inst.len as usize].to_vec();
        bytes.resize(inst.len as usize, 0);
        let Ok((long, _)) = ISA.decode_bytes(&bytes, 0) else { continue };
        if long.len != inst.len || long.leaf != inst.leaf {
            continue;
        }
        checked += 1;
        let text = ISA.print_in(&long, 0, PrintOpts { syntax: apple, pad: None });
        match ISA.parse_in(&text, 0, apple) {
            Ok(short) if short.len as u32 * 8 == leaf.min_bits => {}
            Ok(other) => failures.push(format!("{}: `{text}` assembles to {}", hex_of(&bytes), hex_of(&other.bytes()))),
            Err(e) => failures.push(format!("{}: `{text}`: {e}", hex_of(&bytes))),
        }
    }
    println!("{checked} long-form encodings with a zero extension re-encoded short");
    assert!(checked > 0, "the corpus has such records");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Mesa prints a device load whose unknown bits have their usual values in a
/// short form; the full form spelling those bits assembles to the same
/// encoding (as the typed builders write it), and spelling other values gives
/// the full form back.
#[test]
fn a_fuller_spelling_assembles_to_the_short_forms_bits() {
    let mesa = syntax("mesa");
    let short = ("load r0_r1_r2, du52, 4, i32, xyz, a", "0501480d60c07200");
    assert!(matches!(assemble(short.0, short.1, mesa), Asm::Exact), "{}", short.0);
    let long =
        ISA.parse_in("load r0_r1_r2, du52, 4, i32, xyz, a, 1, 0, 1, 0, 0", 0, mesa).expect("the full form reads");
    assert_eq!(hex_of(&long.bytes()), short.1);
    let other = ISA.parse_in("load r0_r1_r2, du52, 4, i32, xyz, a, 1, 1, 1, 0, 0", 0, mesa).expect("other values read");
    assert_ne!(hex_of(&other.bytes()), short.1);
    let text = ISA.print_in(&other, 0, PrintOpts { syntax: mesa, pad: None });
    assert_eq!(text, "load r0_r1_r2, du52, 4, i32, xyz, a, 1, 1, 1, 0, 0");
}

/// Random byte strings of 2 to 12 bytes decode or fail cleanly; what decodes
/// keeps its bytes, and its text (in either syntax) assembles back to them, or
/// to a shorter form printing the same text.
#[test]
fn random_bytes_decode_or_fail_cleanly() {
    let mut rng = isa_specs::runtime::TestRng::new(0xa6c5);
    let (mut decoded, mut failures) = (0, Vec::new());
    for i in 0..200_000u32 {
        let n = 2 + (rng.next_u64() % 11) as usize;
        let mut bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        if i % 2 == 0 {
            // Steer half the draws to known opcodes, so decoding gets exercised.
            let leaf = &ISA.leaves
                [ISA.groups[0].leaves[(rng.next_u64() % ISA.groups[0].leaves.len() as u64) as usize] as usize];
            let v = leaf.value.to_le_bytes();
            let m = leaf.mask.to_le_bytes();
            for (j, b) in bytes.iter_mut().enumerate() {
                *b = (*b & !m[j]) | (v[j] & m[j]);
            }
        }
        let Ok((inst, len)) = ISA.decode_bytes(&bytes, 0) else { continue };
        decoded += 1;
        if inst.bytes() != bytes[..len] {
            failures.push(format!("{}: decodes to different bytes {}", hex_of(&bytes), hex_of(&inst.bytes())));
            continue;
        }
        for syn in 0..ISA.syntaxes.len() as u16 {
            // Bits the text does not show (`ignore:` in the spec) assemble as zero.
            let shown = !ISA.ignored_bits_in(&inst, 0, syn);
            let text = ISA.print_in(&inst, 0, PrintOpts { syntax: syn, pad: None });
            match ISA.parse_in(&text, 0, syn) {
                Ok(back) if back.len == inst.len && (back.bits ^ inst.bits) & shown == 0 => {}
                Ok(back)
                    if back.len < inst.len && ISA.print_in(&back, 0, PrintOpts { syntax: syn, pad: None }) == text => {}
                Ok(back) => failures.push(format!(
                    "syntax {syn}: `{text}` ({}) assembles to {}",
                    hex_of(&inst.bytes()),
                    hex_of(&back.bytes())
                )),
                Err(e) => failures.push(format!("syntax {syn}: `{text}` ({}): {e}", hex_of(&inst.bytes()))),
            }
        }
    }
    println!("{decoded} of 200000 random byte strings decoded");
    assert!(decoded > 1000);
    assert!(failures.is_empty(), "{} failures, first: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}

/// Mesa's records of instructions listed after the `simd` and `quad`
/// reductions, longer than them, are read the short way by an
/// `Assembler` to Mesa's encodings, the first time and by remembered texts
/// the second. The reductions' Mesa templates start with their group
/// (`{GM}`, `simd` or `quad`), so their first word is no fixed text, and
/// the bound on shorter encodings tried first once sent every such line
/// to the general assembler; a reduction is tried only on a line that
/// holds `simd` or `quad`.
#[test]
fn an_assembler_reads_mesa_lines_after_the_reductions_the_short_way() {
    const RECORDS: &[(&str, &str)] = &[
        ("09010004f0fc0003", "st_tile r0_r1_r2_r3, 0, 255, 0, u8norm, xyzw"),
        ("0e0100c065002000", "iadd r0, 0, r14.sx, lsl 4"),
        ("1e0188a558000000", "imul r0, u4.sx, u5.sx"),
        ("1e0542a658440602", "imadd r1, r1.sx, u69.sx, r2.sx"),
        ("2e01001000400200", "shl r0, 1, r0"),
        ("3219010000800100", "ballot r6"),
        ("49000004f8fc0003", "ld_tile r0l_r0h_r1l_r1h, 0, 255, 0, u8norm, xyzw"),
        ("7540010500c01000", "map r8, 0, 0"),
    ];
    let mesa = syntax("mesa");
    let mut asm = ISA.assembler(0, mesa);
    for pass in 0..2 {
        for &(hex, line) in RECORDS {
            let bytes = bytes_of(hex);
            let want = bytes.iter().rev().fold(0u128, |v, &b| v << 8 | b as u128);
            let read = asm.canonical_lines();
            assert_eq!(asm.assemble(line), Ok((want, bytes.len() as u32 * 8)), "pass {pass}: `{line}`");
            assert_eq!(asm.canonical_lines(), read + 1, "pass {pass}: `{line}` is read the short way");
        }
    }
    assert!(asm.recalled_lines() >= RECORDS.len() as u64, "the second pass reads by remembered texts");
}
