//! GCN text with one edit against llvm-mc 14's answers
//! (tests/conformance/gcn/broken-text.yaml; see its header): lines of valid
//! assembly with a character deleted, inserted, repeated, swapped or
//! replaced. Where llvm-mc encodes a line, the assembler must give the same
//! bytes; where it refuses one, the assembler must refuse it too. The lists
//! below hold the records where we knowingly differ, each with the reason; a
//! listed record that comes to agree must leave its list.

use isa_specs::gcn::ISA;

#[derive(serde::Deserialize)]
struct Record {
    asm: String,
    bytes: Option<String>,
    #[serde(default)]
    refused: bool,
}

/// llvm-mc reads white space around punctuation (` ,`, `[ `, `( `, `- `,
/// `| `) as its lexer skips it between any two tokens; the templates read
/// white space where they have a space, and none elsewhere.
const SPACED: &[&str] = &[
    "v_cmpx_lt_u32_e64 tba ,v89, v245",
    "v_sub_f32_e32 v147, 16 ,v43",
    "buffer_store_format_x v85, v[237:238],s [96:99], src_execz idxen offen offset:1124 slc",
    "v_cmpx_class_f64_e64 tma, -|0.15915494309189532| ,0.5",
    "v_cmpx_nge_f32 vcc, -v128,| v55| src0_sel:WORD_0 src1_sel:WORD_1",
    "v_rcp_iflag_f32_e64 v8,- v49 mul:2",
    "v_cmp_lt_f64_e64 exec ,|v[36:37]|, -|v[158:159]|",
    "v_max_i32_e64 v6 , v70, src_scc",
    "v_cmpx_ne_i64_e64 s[64:65],1 , v[243:244]",
    "v_cmpx_nle_f16_e64 flat_scratch, |v126| ,5 clamp",
    "v_log_f32_e64 v139 ,|src_lds_direct|",
    "v_cmpx_gt_i32_e64 exec ,src_scc, -0.5",
    "s_bfm_b64 tma ,0.15915494, src_scc",
    "v_cmpx_u_f16 vcc ,-v179, -|v45| clamp src0_sel:WORD_0 src1_sel:BYTE_1",
    "v_cvt_f32_f16_e64 v248, neg(-4.0 )clamp mul:4",
    "buffer_atomic_smin v191 ,off, s[68:71], src_scc",
    "v_xor_b32_e64 v41 , v133, tma_hi",
    "ds_inc_u64 v205,v [50:51]",
    "v_rndne_f32_e32 v241 ,v1",
    "v_cmpx_gt_u64_e32 vcc, 0xb98fb59d ,v[168:169]",
    "v_cmp_le_i32_e32 vcc, v193 ,v28",
    "s_add_u32 vcc_hi, 0.15915494,- 0.15915494",
    "v_mad_f16 v172, -|v145| ,-|v245|, -|v123| clamp mul:2",
    "v_mac_f16_dpp v47, -v76, v227 quad_perm:[1,2,3,1 ]row_mask:0x4 bank_mask:0x0",
    "image_sample v7, v173, s[ 84:91], s[24:27] unorm glc slc r128",
    "v_trunc_f32_sdwa v212 ,|v124| dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2",
    "v_cmp_ngt_f16_e32 vcc , v210, v3",
    "v_cmp_lg_f16 vcc, v173 ,v157 src0_sel:WORD_1 src1_sel:BYTE_0",
    "v_cmpx_nlt_f32_e32 vcc ,v149, v209",
    "v_cmp_t_u32 vcc ,sext(v224), v2 src0_sel:BYTE_0 src1_sel:BYTE_1",
    "v_cmp_ge_i32_e32 vcc ,vcc_hi, v215",
    "v_cmp_t_i64_e32 vcc ,v[105:106], v[89:90]",
    "flat_store_short v[194:195] ,v126 slc",
    "v_max_f64 v[185:186] ,v[18:19], v[235:236]",
];

/// A value wider than its field: llvm-mc keeps its low bits (`s_setkill
/// 0xf8ee2` sets 0x8ee2); the assembler refuses it rather than drop bits.
const TOO_WIDE: &[&str] = &[
    "s_setkill 0xf8ee2",
    "s_setprio 0x130d0",
    "s_trap 0x533ee",
    "v_ffbh_u32_dpp v154, v224 wave_shr:1 row_mask:0xe5 bank_mask:0x5 bound_ctrl:1",
    "s_incperflevel 0x68daa",
    "s_incperflevel 0x62fa2",
];

/// A float that is no inline constant, for a 64-bit integer operand:
/// llvm-mc refuses it; the assembler encodes the double's high half as the
/// literal, as for a 64-bit float operand.
const INT64_FLOAT: &[&str] = &[
    "s_cmp_eq_u64 src_scc, 0.15914594309189532",
    "v_cmpx_lt_i64_e32 vcc, 0.1591549430918953, v[121:122]",
    "s_brev_b64 ttmp[8:9], 0.159115494309189532",
    "v_cmp_eq_i64_e32 vcc, 0.1591594309189532, v[105:106]",
    "v_cmpx_t_i64_e32 vcc, 0.1591549430989532, v[88:89]",
];

/// One of a kind, each with its reason.
const OTHER: &[(&str, &str)] = &[
    ("s_bfe_u64 exec, --1.0, 0x5ec994bd", "llvm-mc reads a sign twice over; we read one"),
    (
        "ds_sub_u32 v35, v69 offset:45744gds",
        "llvm-mc ends a number where letters start; we read `45744gds` as one word",
    ),
    (
        "ds_or_rtn_b64 v[178:179],, v78, v[29:30] offset:52179",
        "the result register's comma is optional (`{?,}`) and is followed by the template's own",
    ),
    (
        "s_cmp_ge_i32 0x8f50c8f5 -0.5",
        "llvm-mc reads `0x8f50c8f5 -0.5` as one expression; optional commas make it two operands",
    ),
    ("v_cmp_ne_u64_e64 s[0.:1], v[120:121], 0.15915494309189532", "llvm-mc reads `0.` as a register number"),
];

fn known(text: &str) -> Option<&'static str> {
    let listed = |list: &[&str]| list.contains(&text);
    if listed(SPACED) {
        Some("white space around punctuation")
    } else if listed(TOO_WIDE) {
        Some("a value wider than its field")
    } else if listed(INT64_FLOAT) {
        Some("a float literal for a 64-bit integer operand")
    } else {
        OTHER.iter().find(|(t, _)| *t == text).map(|(_, why)| *why)
    }
}

#[test]
fn broken_text_reads_as_llvm_mc_reads_it() {
    let records: Vec<Record> =
        serde_saphyr::from_str(include_str!("conformance/gcn/broken-text.yaml")).expect("the vectors parse");
    assert!(records.len() > 2_900, "{} records", records.len());
    let (mut agree, mut differ, mut listed_agree) = (0, Vec::new(), Vec::new());
    for r in &records {
        assert!(r.refused != r.bytes.is_some(), "`{}`: bytes or refused", r.asm);
        let ours = ISA.assemble(&r.asm, 8).ok().map(|(bits, width)| {
            let bytes = bits.to_le_bytes();
            bytes[..(width / 8) as usize].iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(",")
        });
        let same = ours.as_deref() == r.bytes.as_deref();
        match (same, known(&r.asm)) {
            (true, None) => agree += 1,
            (true, Some(_)) => listed_agree.push(r.asm.as_str()),
            (false, Some(_)) => {}
            (false, None) => differ.push(format!("`{}`: llvm-mc {:?}, ours {:?}", r.asm, r.bytes, ours)),
        }
    }
    println!("{agree} of {} records agree with llvm-mc 14", records.len());
    for d in differ.iter().take(40) {
        println!("{d}");
    }
    assert!(differ.is_empty(), "{} records differ from llvm-mc and are not listed", differ.len());
    assert!(listed_agree.is_empty(), "listed, but now agree: {listed_agree:?}");
}
