//! GCN against LLVM's MC test vectors (tests/conformance/gcn/mc.yaml, each
//! checked with llvm-mc 14; see the file's header).
//!
//! Both directions, per record: assembling `asm` for its `mcpu` gives `bytes`,
//! and decoding `bytes` prints `disasm`. The families the spec describes so far
//! must pass in full; the others are reported and listed below with the reason.

use std::collections::BTreeMap;

use isa_specs::gcn::ISA;

#[derive(serde::Deserialize)]
struct Record {
    mcpu: String,
    asm: String,
    canonical: String,
    bytes: String,
    family: String,
    disasm: Option<String>,
}

/// Encoding families the spec describes; every record of these must pass.
const DESCRIBED: &[&str] = &[
    "SOP2", "SOP1", "SOPK", "SOPC", "SOPP", "DS", "EXP", "VINTRP", "FLAT", "MUBUF", "MTBUF", "MIMG", "SMRD", "SMEM",
    "VOP1", "VOP2", "VOPC", "VOP3a", "VOP3b", "SDWA", "DPP",
];

/// Families not described yet, so expected to fail (none left: every family's
/// YAML is written). Kept so that a new family can be added before its spec.
const NOT_YET: &[&str] = &[];

// Why records of described families fail: text the bits cannot say.

/// gfx6-7 VOP3b has no clamp bit. LLVM's assembler reads `clamp` and drops it,
/// and its printed text (this record's expected disassembly) keeps it, but the
/// bits cannot say it.
const VOP3B_CLAMP: &str = "gfx6-7 VOP3b `clamp` is not encoded, so decoding cannot print it";

/// Individual records of described families that fail, with the reason. Each
/// key matches part of the failure message.
const KNOWN: &[(&str, &str)] = &[
    ("tahiti decode 0x18,0x0a,0xdc,0xd2,0x16,0x29,0x52,0x24:", VOP3B_CLAMP),
    ("tahiti decode 0x18,0x0a,0xdc,0xd2,0x16,0x29,0x52,0x4c:", VOP3B_CLAMP),
    ("tahiti decode 0x18,0x6a,0xda,0xd2,0x16,0x2d,0x52,0x44:", VOP3B_CLAMP),
];

/// Assembles `text` for gfx8, as bytes in memory order.
fn assembled(text: &str) -> Vec<u8> {
    let (bits, width) = ISA.assemble(text, 8).unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
    bits.to_le_bytes()[..(width / 8) as usize].to_vec()
}

fn bytes(s: &str) -> Vec<u8> {
    s.split(',').map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("byte")).collect()
}

#[test]
fn described_families_match_llvm_both_ways() {
    let recs: Vec<Record> =
        serde_saphyr::from_str(include_str!("conformance/gcn/mc.yaml")).expect("the vector file parses");
    assert_eq!(recs.len(), 2055);
    let mut per: BTreeMap<(String, String), [u32; 3]> = BTreeMap::new();
    let mut failures = Vec::new();
    for r in &recs {
        let g = ISA.gen_by_name(&r.mcpu).expect("known processor");
        let want = bytes(&r.bytes);
        let e = per.entry((r.family.clone(), r.mcpu.clone())).or_default();
        e[0] += 1;
        let mut ok = true;
        // Decode.
        match (&r.disasm, ISA.decode_bytes(&want, g)) {
            (Some(text), Ok((inst, len))) if len == want.len() && ISA.print(&inst, g) == *text => e[1] += 1,
            (None, _) => e[1] += 1, // tahiti MIMG: the encoding does not fix the text
            (Some(text), got) => {
                ok = false;
                let got = got.map(|(i, len)| format!("{} ({len} bytes)", ISA.print(&i, g)));
                failures.push((r.family.clone(), format!("{} decode {}: got {got:?}, want `{text}`", r.mcpu, r.bytes)));
            }
        }
        // Assemble.
        match ISA.assemble(&r.asm, g) {
            Ok((bits, width)) if bits.to_le_bytes()[..(width / 8) as usize] == want[..] => e[2] += 1,
            got => {
                ok = false;
                let got = got.map(|(b, w)| format!("{:02x?}", &b.to_le_bytes()[..(w / 8) as usize]));
                failures.push((
                    r.family.clone(),
                    format!("{} assemble `{}`: got {got:?}, want {}", r.mcpu, r.asm, r.bytes),
                ));
            }
        }
        let _ = ok;
    }
    println!("gcn conformance (records, decoded exactly, assembled exactly):");
    for ((fam, cpu), [n, d, a]) in &per {
        println!("  {fam:7} {cpu:7} {n:4} records, decode {d}/{n}, assemble {a}/{n}");
    }
    let unexpected: Vec<_> = failures
        .iter()
        .filter(|(fam, msg)| !NOT_YET.contains(&fam.as_str()) && !KNOWN.iter().any(|(k, _)| msg.contains(k)))
        .collect();
    for (_, f) in &unexpected {
        println!("FAIL {f}");
    }
    for fam in DESCRIBED {
        assert!(!NOT_YET.contains(fam));
    }
    assert!(unexpected.is_empty(), "{} unexpected failures in described families", unexpected.len());
    // An entry nothing fails any more is stale: the record passes, so the
    // list must say so.
    let stale: Vec<_> = KNOWN.iter().filter(|(k, _)| !failures.iter().any(|(_, m)| m.contains(k))).collect();
    assert!(stale.is_empty(), "KNOWN entries that no record fails any more: {stale:?}");
}

/// Bits a form ignores may hold anything, even a value no operand form has: a
/// FLAT atomic without glc writes no destination, so its VDST of 255 (which
/// as a register pair would run past v255) decodes as llvm-mc 14 decodes it
/// (its answer for these bytes, from the differential test's long mode).
#[test]
fn ignored_bits_may_hold_what_no_operand_form_has() {
    let word = [0x00, 0x00, 0x80, 0xdd, 0x1b, 0x9b, 0x00, 0xff];
    let (inst, n) = ISA.decode_bytes(&word, 8).expect("decodes");
    assert_eq!(n, 8);
    assert_eq!(ISA.print(&inst, 8), "flat_atomic_swap_x2 v[27:28], v[155:156]");
}

/// MUBUF bits that a form does not read: with `lds` a load's `tfe` has no
/// effect, and an atomic has no `tfe` at all. llvm-mc 14 decodes these words
/// without the bit (its answers, checked with `llvm-mc -disassemble
/// -mcpu=tonga`), and refuses the text that sets it.
#[test]
fn buffer_bits_a_form_does_not_read() {
    for (word, text) in [
        ([0x00, 0x00, 0x01, 0xe0, 0x02, 0x01, 0x81, 0x01], "buffer_load_format_x v1, off, s[4:7], s1 lds"),
        ([0x00, 0x00, 0x00, 0xe1, 0x02, 0x01, 0x81, 0x01], "buffer_atomic_swap v1, off, s[4:7], s1"),
    ] {
        let (inst, n) = ISA.decode_bytes(&word, 8).expect("decodes");
        assert_eq!((ISA.print(&inst, 8).as_str(), n), (text, 8));
    }
    let refused = |text: &str, gen_: u32| ISA.assemble(text, gen_).err().map(|e| e.message);
    let tfe_lds = refused("buffer_load_dword v1, off, s[4:7], s1 tfe lds", 8).expect("refused");
    assert!(tfe_lds.contains("`tfe` has no effect"), "{tfe_lds}");
    assert!(refused("buffer_atomic_add v1, off, s[4:7], s1 tfe", 8).is_some());
    assert!(refused("buffer_store_dword v1, off, s[4:7], s1 lds", 8).is_some());
    // dwordx2 reads into LDS from gfx8 on only.
    assert!(refused("buffer_load_dwordx2 v[1:2], off, s[4:7], s1 lds", 8).is_none());
    assert!(refused("buffer_load_dwordx2 v[1:2], off, s[4:7], s1 lds", 6).is_some());
    // A 64-bit address is the whole address.
    let addr64 = refused("buffer_load_dword v1, v[2:3], s[4:7], s1 offen addr64", 6).expect("refused");
    assert!(addr64.contains("addr64 cannot be used with offen"), "{addr64}");
    assert!(refused("tbuffer_load_format_x v1, v[2:3], s[4:7], s1 idxen addr64", 6).is_some());
    // nfmt 6 is reserved before gfx8.
    let nfmt = "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_RESERVED_6]";
    assert!(refused(nfmt, 6).is_some());
    assert!(refused(nfmt, 8).is_none());
}

/// The quad SAD instructions write their destination before reading all
/// their sources: llvm-mc 14 refuses a VGPR source that overlaps it, and
/// accepts the same overlap in v_mad_u64_u32 (its answers for these lines).
#[test]
fn early_clobber_destination() {
    let refused = |text: &str| ISA.assemble(text, 8).err().map(|e| e.message);
    for text in [
        "v_mqsad_pk_u16_u8 v[2:3], v[2:3], v4, v[6:7]",
        "v_mqsad_pk_u16_u8 v[2:3], v[4:5], v3, v[6:7]",
        "v_mqsad_pk_u16_u8 v[2:3], v[4:5], v6, v[1:2]",
        "v_mqsad_u32_u8 v[2:5], v[4:5], v6, v[8:11]",
        "v_qsad_pk_u16_u8 v[2:3], v[2:3], v6, v[8:9]",
    ] {
        let msg = refused(text).unwrap_or_else(|| panic!("`{text}` assembles"));
        assert!(msg.contains("destination must be different than all sources"), "{text}: {msg}");
    }
    assert_eq!(refused("v_mqsad_pk_u16_u8 v[2:3], v[4:5], v6, v[8:9]"), None);
    assert_eq!(refused("v_mad_u64_u32 v[2:3], s[4:5], v2, v3, v[8:9]"), None);
}

/// 16-bit sources (gfx8): the literal's low half is the value, so decoding
/// shows that half (the high one is ignored), inline constants and decimal
/// literals are half precision, and `0x3c00` is the inline 1.0. The expected
/// texts and bytes are llvm-mc 14's (`-disassemble`, `-show-encoding`).
#[test]
fn sixteen_bit_sources() {
    for (word, text) in [
        (&[0xff, 0x7a, 0x6a, 0x7e, 0xc2, 0xb9, 0xa1, 0x44][..], "v_rcp_f16_e32 v53, 0xb9c2"),
        (&[0xff, 0x20, 0xc2, 0x4a, 0x1a, 0x55, 0xdd, 0xef], "v_madak_f16 v97, 0x551a, v16, 0xefdd551a"),
        (&[0xff, 0xe2, 0xee, 0x49, 0xc2, 0x25, 0x64, 0x94], "v_madmk_f16 v247, 0x946425c2, 0x946425c2, v113"),
        // v_ldexp_f16's integer src1: its negate bit is sign extension, its
        // abs bit is not read.
        (
            &[0xfa, 0x7c, 0xd7, 0x67, 0xd4, 0x85, 0x88, 0x15],
            "v_ldexp_f16_dpp v235, v212, v190 quad_perm:[1,1,0,2] row_mask:0x1 bank_mask:0x5 bound_ctrl:1",
        ),
        (
            &[0xfa, 0x10, 0x72, 0x66, 0x81, 0xd3, 0xda, 0x7f],
            "v_ldexp_f16_dpp v57, -v129, sext(v8) quad_perm:[3,0,1,3] row_mask:0x7 bank_mask:0xf bound_ctrl:1",
        ),
    ] {
        let (inst, n) = ISA.decode_bytes(word, 8).expect("decodes");
        assert_eq!((ISA.print(&inst, 8).as_str(), n), (text, word.len()));
    }
    for (text, want) in [
        ("v_rcp_f16 v53, 0xb9c2", &[0xff, 0x7a, 0x6a, 0x7e, 0xc2, 0xb9, 0x00, 0x00][..]),
        ("v_add_f16 v1, 0x3c00, v2", &[0xf2, 0x04, 0x02, 0x3e]),
        ("v_add_f16 v1, 1.5, v2", &[0xff, 0x04, 0x02, 0x3e, 0x00, 0x3e, 0x00, 0x00]),
        ("v_add_f16 v1, 0x1234, v2", &[0xff, 0x04, 0x02, 0x3e, 0x34, 0x12, 0x00, 0x00]),
        ("v_add_u16 v1, 0xffff, v2", &[0xc1, 0x04, 0x02, 0x4c]),
        ("v_add_f16_e64 v1, 0.5, v2", &[0x01, 0x00, 0x1f, 0xd1, 0xf0, 0x04, 0x02, 0x00]),
    ] {
        let (bits, width) = ISA.assemble(text, 8).unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
        assert_eq!(&bits.to_le_bytes()[..(width / 8) as usize], want, "{text}");
    }
    // An inline float as an integer 16-bit source: llvm-mc prints its half's
    // bits, `0x4000`, which it reads back as a literal. We print the constant,
    // which reads back to the same four bytes.
    let word = [0xf4, 0x74, 0xd2, 0x7e];
    let (inst, _) = ISA.decode_bytes(&word, 8).expect("decodes");
    let text = ISA.print(&inst, 8);
    let (bits, width) = ISA.assemble(&text, 8).expect("reads back");
    assert_eq!(
        (&bits.to_le_bytes()[..(width / 8) as usize], text.as_str()),
        (&word[..], "v_cvt_f16_i16_e32 v105, 2.0")
    );
    // A 16-bit source holds no more than 16 bits.
    assert!(ISA.assemble("v_add_u16 v1, 0x12345, v2", 8).is_err());
}

/// LLVM reads an `_e32` encoding hint after any mnemonic whose encoding is
/// not VOP3, and refuses it on VOP3-only and `_e64` on the others (the bytes
/// and refusals are llvm-mc 14's for these lines).
#[test]
fn e32_hint_reads_on_every_encoding_but_vop3() {
    for (text, want) in [
        ("s_mov_b32_e32 s0, s1", &[0x01, 0x00, 0x80, 0xbe][..]),
        ("s_nop_e32 0", &[0x00, 0x00, 0x80, 0xbf]),
        ("s_load_dword_e32 s1, s[2:3], 0x4", &[0x41, 0x00, 0x02, 0xc0, 0x04, 0x00, 0x00, 0x00]),
        ("ds_add_u32_e32 v1, v2", &[0x00, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("buffer_load_dword_e32 v1, off, s[4:7], s1", &[0x00, 0x00, 0x50, 0xe0, 0x00, 0x01, 0x01, 0x01]),
        ("s_endpgm_e32", &[0x00, 0x00, 0x81, 0xbf]),
    ] {
        assert_eq!(assembled(text), want, "{text}");
    }
    assert!(ISA.assemble("v_mad_f32_e32 v1, v2, v3, v4", 8).is_err());
    assert!(ISA.assemble("s_mov_b64_e64 s[0:1], s[2:3]", 8).is_err());
}

/// Numbers as llvm-mc 14 (`-mcpu=tonga -show-encoding`) reads them: an
/// expression wherever a number stands alone (`1+2`, `offset:4+4`, inside a
/// register's brackets), but not glued to a register's name: `v18-1` is no
/// operand (llvm-mc: "invalid operand for instruction"), where reading the
/// expression would have given v17. A leading 0 makes a number that stands
/// alone octal (`041255` is 17069; `09397` is no number), not a register's
/// (`v012` is v12); `0b` and binary digits are binary (`0b2` is refused);
/// a register's number is never hex (`v0x1`: "invalid operand").
#[test]
fn numbers_read_as_llvm_mc_reads_them() {
    let mut asm = ISA.assembler(8, 0);
    for (text, want) in [
        ("v_mov_b32 v[18-1], v73", &[0x49, 0x03, 0x22, 0x7e][..]),
        ("s_nop 1+2", &[0x03, 0x00, 0x80, 0xbf]),
        ("ds_add_u32 v1, v2 offset:4+4", &[0x08, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("s_endpgm 041255", &[0xad, 0x42, 0x81, 0xbf]),
        ("s_nop 010", &[0x08, 0x00, 0x80, 0xbf]),
        ("s_nop 0x10", &[0x10, 0x00, 0x80, 0xbf]),
        ("v_mov_b32 v[010], v1", &[0x01, 0x03, 0x10, 0x7e]),
        ("v_cmp_gt_u32_e32 vcc, v012, v7", &[0x0c, 0x0f, 0x98, 0x7d]),
        ("s_mov_b32 s010, 0", &[0x80, 0x00, 0x8a, 0xbe]),
        ("v_mov_b32 v1, 010", &[0x88, 0x02, 0x02, 0x7e]),
        ("s_nop 0b11", &[0x03, 0x00, 0x80, 0xbf]),
        ("s_nop 0B11", &[0x03, 0x00, 0x80, 0xbf]),
        ("s_nop (0b1+0b10)", &[0x03, 0x00, 0x80, 0xbf]),
        ("s_nop -0b1", &[0xff, 0xff, 0x80, 0xbf]),
        ("s_mov_b32 s0, 0b101", &[0x85, 0x00, 0x80, 0xbe]),
        ("s_waitcnt 0b0", &[0x00, 0x00, 0x8c, 0xbf]),
        ("v_mov_b32 v1, 0b1000001", &[0xff, 0x02, 0x02, 0x7e, 0x41, 0x00, 0x00, 0x00]),
        ("ds_add_u32 v1, v2 offset:0b100", &[0x04, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("v_mov_b32 v[0b1], v2", &[0x02, 0x03, 0x02, 0x7e]),
    ] {
        assert_eq!(assembled(text), want, "{text}");
        let (bits, width) = asm.assemble(text).unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
        assert_eq!(&bits.to_le_bytes()[..(width / 8) as usize], want, "{text}, by an assembler");
    }
    for text in [
        "v_frexp_mant_f32_e32 v18-1, v73",
        "ds_xor_b32 v19-0, v64 offset:53697 gds",
        "v_ceil_f16_e32 v104, 09397",
        "s_nop 0b2",
        "s_nop 0b",
        "v_mov_b32 v0x1, v2",
        "s_mov_b32 s0x1, 0",
        "v_interp_p1_f32 v1, v0, attr0x10.x",
    ] {
        assert!(ISA.assemble(text, 8).is_err(), "`{text}` read");
        assert!(asm.assemble(text).is_err(), "`{text}` read by an assembler");
    }
}

/// Holds each text to its bytes (llvm-mc 14's), assembled by the engine
/// and by an `Assembler` (what `isa asm` keeps per worker).
fn each_assembles_to(lines: &[(&str, &[u8; 8])]) {
    let mut asm = ISA.assembler(8, 0);
    for &(text, want) in lines {
        assert_eq!(assembled(text), want, "{text}");
        let (bits, width) = asm.assemble(text).unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
        assert_eq!(&bits.to_le_bytes()[..(width / 8) as usize], want, "{text}, by an assembler");
    }
}

/// DPP's row and bank masks and MIMG's dmask, printed `0xf`, in every
/// spelling llvm-mc 14 (`-mcpu=tonga -show-encoding`) reads: decimal, upper
/// case hex, octal, negative (two's complement), and a dmask of 0, which
/// prints as nothing, written out. A value past the field is refused
/// (llvm-mc keeps its low bits: `row_mask:16` is 0x0) rather than cut.
#[test]
fn masks_read_in_every_spelling_llvm_mc_reads() {
    let lines = [
        ("v_mov_b32_dpp v1, v2 row_shl:1 row_mask:15 bank_mask:15", &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xff]),
        (
            "v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xF bank_mask:0XA",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xfa],
        ),
        ("v_mov_b32_dpp v1, v2 row_shl:1 row_mask:-1 bank_mask:-2", &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xfe]),
        ("v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0 bank_mask:10", &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0x0a]),
        (
            "v_mov_b32_dpp v1, v2 row_shl:1 row_mask:011 bank_mask:0x3",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0x93],
        ),
        (
            "v_add_f32_dpp v5, v6, v7 quad_perm:[0,1,2,3] row_mask:3 bank_mask:12 bound_ctrl:0",
            &[0xfa, 0x0e, 0x0a, 0x02, 0x06, 0xe4, 0x08, 0x3c],
        ),
        ("v_nop row_shl:1 row_mask:9 bank_mask:6", &[0xfa, 0x00, 0x00, 0x7e, 0x00, 0x01, 0x01, 0x96]),
        ("image_load v[1:4], v[1:4], s[4:11] dmask:15", &[0x00, 0x0f, 0x00, 0xf0, 0x01, 0x01, 0x01, 0x00]),
        ("image_load v[1:2], v[1:4], s[4:11] dmask:3 unorm", &[0x00, 0x13, 0x00, 0xf0, 0x01, 0x01, 0x01, 0x00]),
        ("image_load v1, v[1:4], s[4:11] dmask:0", &[0x00, 0x00, 0x00, 0xf0, 0x01, 0x01, 0x01, 0x00]),
        ("image_load v1, v[1:4], s[4:11] dmask:0x0 glc", &[0x00, 0x20, 0x00, 0xf0, 0x01, 0x01, 0x01, 0x00]),
        ("image_sample v[5:7], v[1:4], s[8:15], s[12:15] dmask:0XE", &[0x00, 0x0e, 0x80, 0xf0, 0x01, 0x05, 0x62, 0x00]),
    ];
    each_assembles_to(&lines);
    for (text, field) in [
        ("v_mov_b32_dpp v1, v2 row_shl:1 row_mask:16 bank_mask:0xf", "ROW_MASK"),
        ("v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xf bank_mask:0x10", "BANK_MASK"),
    ] {
        let refused = ISA.assemble(text, 8).expect_err(text);
        assert!(refused.message.contains(field), "`{text}`: {}", refused.message);
    }
    assert!(ISA.assemble("image_load v[1:4], v[1:4], s[4:11] dmask:16", 8).is_err());
}

/// No output modifier, printed as nothing, written `mul:1` or `div:1`, as
/// llvm-mc 14 (`-mcpu=tonga -show-encoding`) reads it; `mul:3` is refused
/// ("invalid mul value").
#[test]
fn no_output_modifier_written_out_reads_as_llvm_mc_reads_it() {
    let lines = [
        ("v_add_f32_e64 v1, v2, v3 mul:1", &[0x01, 0x00, 0x01, 0xd1, 0x02, 0x07, 0x02, 0x00]),
        ("v_add_f32_e64 v1, v2, v3 div:1", &[0x01, 0x00, 0x01, 0xd1, 0x02, 0x07, 0x02, 0x00]),
        ("v_add_f32_e64 v1, v2, v3 clamp mul:1", &[0x01, 0x80, 0x01, 0xd1, 0x02, 0x07, 0x02, 0x00]),
        ("v_add_f32_e64 v1, v2, v3 mul:2", &[0x01, 0x00, 0x01, 0xd1, 0x02, 0x07, 0x02, 0x08]),
        ("v_cvt_f32_i32_e64 v1, v2 div:1", &[0x01, 0x00, 0x45, 0xd1, 0x02, 0x01, 0x00, 0x00]),
        ("v_mad_f32 v1, v2, v3, v4 mul:1", &[0x01, 0x00, 0xc1, 0xd1, 0x02, 0x07, 0x12, 0x04]),
    ];
    each_assembles_to(&lines);
    assert!(ISA.assemble("v_add_f32_e64 v1, v2, v3 mul:3", 8).is_err());
}

/// DPP patterns with one valid count, printed `row_bcast:15` or
/// `wave_shl:1`, with the count in every spelling llvm-mc 14 (`-mcpu=tonga
/// -show-encoding`) reads: hex, octal, an expression. Another count is
/// refused, as llvm-mc refuses it ("invalid row_bcast value").
#[test]
fn dpp_counts_read_in_every_spelling_llvm_mc_reads() {
    let lines = [
        (
            "v_mov_b32_dpp v1, v2 row_bcast:0xf row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x42, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 row_bcast:0x1f row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x43, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 row_bcast:017 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x42, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 row_bcast:14+1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x42, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 wave_shl:0x1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x30, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 wave_rol:1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x34, 0x01, 0xff],
        ),
        (
            "v_mov_b32_dpp v1, v2 row_shl:0x1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xff],
        ),
    ];
    each_assembles_to(&lines);
    for text in [
        "v_mov_b32_dpp v1, v2 row_bcast:16 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_dpp v1, v2 wave_rol:2 row_mask:0xf bank_mask:0xf",
    ] {
        assert!(ISA.assemble(text, 8).is_err(), "`{text}` read");
    }
}

/// Offsets that print as nothing when zero (DS, MUBUF, MTBUF, and
/// ds_swizzle_b32's pattern), written out as zero, read as llvm-mc 14
/// (`-mcpu=tonga -show-encoding`) reads them, in decimal or hex; written
/// twice, refused as llvm-mc refuses it. FLAT has no offset before GFX9,
/// but llvm-mc reads `offset:0` after its operands (not after `glc`), and
/// refuses any other offset.
#[test]
fn zero_offsets_written_out_read_as_llvm_mc_reads_them() {
    let lines = [
        ("buffer_load_dword v1, off, s[4:7], s1 offset:0", &[0x00, 0x00, 0x50, 0xe0, 0x00, 0x01, 0x01, 0x01]),
        ("buffer_load_dword v1, off, s[4:7], s1 offset:0x0", &[0x00, 0x00, 0x50, 0xe0, 0x00, 0x01, 0x01, 0x01]),
        ("buffer_store_dword v1, v2, s[4:7], s1 offen offset:0", &[0x00, 0x10, 0x70, 0xe0, 0x02, 0x01, 0x01, 0x01]),
        (
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_USCALED] offset:0",
            &[0x00, 0x00, 0x08, 0xe9, 0x00, 0x01, 0x01, 0x01],
        ),
        ("ds_add_u32 v1, v2 offset:0", &[0x00, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("ds_add_u32 v1, v2 offset:0 gds", &[0x00, 0x00, 0x01, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("ds_write2_b32 v1, v2, v3 offset0:0 offset1:0", &[0x00, 0x00, 0x1c, 0xd8, 0x01, 0x02, 0x03, 0x00]),
        ("ds_write2_b32 v1, v2, v3 offset0:0 offset1:1", &[0x00, 0x01, 0x1c, 0xd8, 0x01, 0x02, 0x03, 0x00]),
        ("ds_swizzle_b32 v1, v2 offset:0x0 gds", &[0x00, 0x00, 0x7b, 0xd8, 0x02, 0x00, 0x00, 0x01]),
        ("flat_load_dword v1, v[2:3] offset:0", &[0x00, 0x00, 0x50, 0xdc, 0x02, 0x00, 0x00, 0x01]),
        ("flat_load_dword v1, v[2:3] offset:0 glc", &[0x00, 0x00, 0x51, 0xdc, 0x02, 0x00, 0x00, 0x01]),
        ("flat_load_dword v1, v[2:3] offset:0x0 slc", &[0x00, 0x00, 0x52, 0xdc, 0x02, 0x00, 0x00, 0x01]),
        ("flat_store_dword v[2:3], v1 offset:0", &[0x00, 0x00, 0x70, 0xdc, 0x02, 0x01, 0x00, 0x00]),
        ("flat_atomic_add v1, v[2:3], v4 offset:0 glc", &[0x00, 0x00, 0x09, 0xdd, 0x02, 0x04, 0x00, 0x01]),
        ("flat_atomic_add v[2:3], v4 offset:0", &[0x00, 0x00, 0x08, 0xdd, 0x02, 0x04, 0x00, 0x00]),
    ];
    each_assembles_to(&lines);
    for text in [
        "ds_add_u32 v1, v2 offset:0 offset:0",
        "flat_load_dword v1, v[2:3] glc offset:0",
        "flat_load_dword v1, v[2:3] offset:4",
        "flat_atomic_add v1, v[2:3], v4 offset:0",
        "flat_atomic_add v[2:3], v4 offset:0 glc",
    ] {
        assert!(ISA.assemble(text, 8).is_err(), "`{text}` read");
    }
}

/// An `Assembler` (what `isa asm` keeps per worker) answers every record's
/// texts as `Isa::assemble_in` does (which the test above holds to
/// llvm-mc): the test's input and llvm-mc's canonical text, most of the
/// latter the short way (it is the printer's form).
#[test]
fn an_assembler_answers_every_vector_as_the_engine_does() {
    let recs: Vec<Record> =
        serde_saphyr::from_str(include_str!("conformance/gcn/mc.yaml")).expect("the vector file parses");
    let mut assemblers = std::collections::HashMap::new();
    let (mut failures, mut short) = (Vec::new(), 0);
    for r in &recs {
        let g = ISA.gen_by_name(&r.mcpu).expect("known processor");
        let asm = assemblers.entry(g).or_insert_with(|| ISA.assembler(g, 0));
        for (i, text) in [&r.asm, &r.canonical].into_iter().enumerate() {
            let before = asm.canonical_lines();
            let (got, want) = (asm.assemble(text), ISA.assemble_in(text, g, 0));
            if got != want {
                failures.push(format!("{} `{text}`: {got:x?}, want {want:x?}", r.mcpu));
            }
            if i == 1 {
                short += asm.canonical_lines() - before;
            }
        }
    }
    println!("{short} of {} canonical texts read the short way", recs.len());
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(short * 10 >= recs.len() as u64 * 9, "only {short} of {} canonical texts read the short way", recs.len());
}
