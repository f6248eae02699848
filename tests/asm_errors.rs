//! What the assembler says of a line it refuses: where, and what is missing
//! or wrong, in words a user can act on. Every GCN line here is refused by
//! llvm-mc 14 too (`-arch=amdgcn -mcpu=tonga -show-encoding`; its message
//! beside each); the messages are ours.

use isa_specs::agx::ISA as AGX;
use isa_specs::gcn::ISA as GCN;
use isa_specs::ir3::ISA as IR3;

/// The column (from 1) and message `isa` gives for `text`.
fn refusal(isa: &isa_runtime::Isa, text: &str, gen_: u32) -> (usize, String) {
    let e = isa.assemble(text, gen_).expect_err(text);
    (e.column + 1, e.message)
}

/// A line that stops before its operands are complete says so, and names
/// what could come next (every form the furthest readings tried there),
/// not only the first form tried.
#[test]
fn a_short_line_says_it_ends_early_and_what_could_follow() {
    // llvm-mc: "too few operands for instruction".
    let (col, msg) = refusal(&GCN, "v_add_f32 v1, v2", 8);
    assert_eq!(col, 17);
    assert!(msg.starts_with("the line ends early: expected "), "{msg}");
    assert!(msg.contains("`v`"), "a VGPR is one way the line goes on: {msg}");
    let (col, msg) = refusal(&IR3, "add.f r0.x", 600);
    assert_eq!((col, msg.as_str()), (11, "the line ends early: expected `,`"));
}

/// Several forms fail where the furthest reading stopped: all are named
/// (up to four, then "or another form"), in the order they were tried.
#[test]
fn every_form_missing_at_the_furthest_place_is_named() {
    // llvm-mc: "invalid operand for instruction" (a VOP2 src1 is a VGPR).
    let (col, msg) = refusal(&GCN, "v_add_f32_e32 v1, s1, s2", 8);
    assert_eq!((col, msg.as_str()), (23, "expected `[v`, `v` or `v[`"));
    // Five or more: the first four and the word that there are others.
    let (_, msg) = refusal(&GCN, "v_add_f32 v1, v2", 8);
    assert!(msg.ends_with(" or another form"), "{msg}");
    assert_eq!(msg.matches('`').count(), 8, "four forms named: {msg}");
}

/// An operand whose text reads as a form of its group, but whose value
/// the form's conditions refuse, is named by its text and its group (the
/// spec's name for it, which a spec author can look up).
#[test]
fn an_operand_its_forms_refuse_is_named() {
    // llvm-mc: "invalid row_shl value" (a shift of 1 to 15).
    let text = "v_mov_b32_dpp v1, v2 row_shl:0";
    assert_eq!(refusal(&GCN, text, 8), (31, "`row_shl:0` fits no form of operand `dpp-ctrl` here".into()));
}

/// Text a form accepts for a field it does not have, or a form whose text
/// names one value, takes that value: another is refused at the number,
/// saying which the forms tried there take.
#[test]
fn a_constant_field_refuses_another_value_at_the_number() {
    // llvm-mc: "invalid row_bcast value".
    let text = "v_mov_b32_dpp v1, v2 row_bcast:16";
    assert_eq!(refusal(&GCN, text, 8), (32, "16 is not accepted here (only 15 or 31)".into()));
    // GFX8 has no FLAT offset; llvm-mc reads `offset:0` and refuses the
    // rest: "flat offset modifier is not supported on this GPU".
    let text = "flat_load_dword v1, v[2:3] offset:4";
    assert_eq!(refusal(&GCN, text, 8), (35, "4 is not accepted here (only 0)".into()));
    assert!(GCN.assemble("flat_load_dword v1, v[2:3] offset:0", 8).is_ok());
}

/// A field with no value where an operand form wants one names the field
/// and quotes the form's template, which shows what goes there.
#[test]
fn a_missing_value_in_an_operand_quotes_its_form() {
    // llvm-mc: "invalid operand for instruction" (one SGPR, not a pair).
    let (col, msg) = refusal(&GCN, "v_add_f32 v1, v2, s[2:3]", 8);
    assert_eq!((col, msg.as_str()), (20, "expected a value for N in `s{N}`"));
    let (col, msg) = refusal(&IR3, "add.f r0.x, r0.q, r1.x", 600);
    assert_eq!((col, msg.as_str()), (16, "expected SWIZ (one of x, y, z, w) in `r{GPR}.{SWIZ}`"));
}

/// Where a name of a long list is wanted, the message names the first
/// few, in some 80 characters, and says how many more there are, rather
/// than let the list pass for all of them or run past a reported line's
/// 200 characters.
#[test]
fn a_long_list_of_names_says_how_many_more() {
    let (col, msg) = refusal(&AGX, "mov r0, 99999999999", AGX.default_gen);
    assert_eq!(col, 9);
    let (names, more) = msg
        .strip_prefix("expected SM (one of ")
        .and_then(|m| m.strip_suffix(" more)"))
        .and_then(|m| m.rsplit_once(" and "))
        .unwrap_or_else(|| panic!("a list and a count: {msg}"));
    let named = names.split(", ").count();
    assert!(names.starts_with("threadgroup_in_grid_x, "), "{msg}");
    assert!(names.len() <= 100 && named < 8, "{msg}");
    // Every special register the spec names, less those named here.
    let all = AGX.enums.iter().find(|e| e.values.iter().any(|v| v.display == "threadgroup_in_grid_x"));
    let all = all.expect("the special registers' names").values.iter().filter(|v| !v.display.is_empty()).count();
    assert_eq!(more.parse::<usize>().ok(), Some(all - named), "{msg}");
}

/// A value past its field's range names the field by the word of the
/// template it is written in, which shows where the value went wrong; a
/// field written alone in its template is named alone.
#[test]
fn a_field_is_named_by_the_word_it_is_written_in() {
    // llvm-mc: "image data size does not match dmask and tfe".
    let text = "image_load v[0:3], v[4:7], s[8:15] dmask:0x10";
    assert_eq!(refusal(&GCN, text, 8), (42, "16 does not fit M in `dmask:{M}` (range -8..=15)".into()));
    // llvm-mc: "too large value for vmcnt".
    let text = "s_waitcnt vmcnt(99)";
    assert_eq!(refusal(&GCN, text, 8), (17, "99 does not fit VMCNT in `vmcnt({VMCNT})` (range 0..=15)".into()));
    // An SMEM offset is the operand's only text: no word round it to quote.
    // It is unsigned (`uhexlit`), as llvm-mc's message says.
    // llvm-mc: "expected a 20-bit unsigned offset".
    let text = "s_load_dword s1, s[2:3], 0x100000";
    assert_eq!(refusal(&GCN, text, 8), (26, "1048576 does not fit field V (range 0..=1048575)".into()));
    let text = "mov.f32f32 r0.x, c9999.x";
    assert_eq!(refusal(&IR3, text, 600), (19, "9999 does not fit CONST in `c{CONST}.{SWIZ}` (range 0..=511)".into()));
    // Values computed from the encoded bits, past every value the bits
    // give: AGX's register (its bits over two, beside its half), and
    // ir3's nops after an instruction (two sources' repeat flags, one bit
    // each). The flags written before the word are not quoted.
    let (col, msg) = refusal(&AGX, "ldimm r200, 1", AGX.default_gen);
    assert_eq!((col, msg.as_str()), (8, "200 does not fit R in `r{R}{H}` (range 0..=127)"));
    let (col, msg) = refusal(&IR3, "(nop9) add.f r0.x, r0.y, r1.x", 600);
    assert_eq!((col, msg.as_str()), (5, "9 does not fit NOP in `(nop{NOP})` (range 0..=3)"));
    assert!(IR3.assemble("(nop3) add.f r0.x, r0.y, r1.x", 600).is_ok());
}

/// A value read from the line's first text and refused there is why the
/// line fails, not an unknown instruction, and at any place it says more
/// than the template texts missing there: ir3's cat2 repeat holds 0 to 3
/// (`(rpt5)` is a `nop`'s).
#[test]
fn a_prefix_value_refused_is_named_not_an_unknown_instruction() {
    let repeat = "5 does not fit REPEAT in `{REPEAT}{UL}add.f` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(rpt5)add.f r0.x, r0.y, r0.z", 600), (1, repeat.into()));
    assert_eq!(refusal(&IR3, "(ss)(rpt5)add.f r0.x, r0.y, r0.z", 600), (5, repeat.into()));
    assert!(IR3.assemble("(rpt5)nop", 600).is_ok());
    assert!(IR3.assemble("(ss)(rpt3)add.f r0.x, r0.y, r0.z", 600).is_ok());
    // Nothing read at the start is still an unknown instruction.
    assert_eq!(refusal(&IR3, "(rpt5)frob r0.x", 600), (1, "unknown instruction `(rpt5)frob`".into()));
    // A word no form begins with, before an instruction the line does
    // name, is named as such: cat1's `mov` has no nop count.
    let begins = "no form of the instruction this line names begins with";
    let (col, msg) = refusal(&IR3, "(nop3) mov.f32f32 r0.x, r0.y", 600);
    assert_eq!((col, msg), (1, format!("{begins} `(nop3)`")));
    // llvm-mc: "invalid instruction".
    let (col, msg) = refusal(&GCN, "glc v_add_f32 v0, v1, v2", 8);
    assert_eq!((col, msg), (1, format!("{begins} `glc`")));
    // A repeat with a number no name has is named with the names there
    // are, not read as no repeat and then missing `add.f`.
    let names = "expected REPEAT (one of (rpt1), (rpt2), (rpt3), (rpt4), (rpt5)) in `{REPEAT}{UL}add.f`";
    assert_eq!(refusal(&IR3, "(ss)(rpt9)add.f r0.x, r0.y, r0.z", 600), (5, names.into()));
}

/// A value refused by several cases of one instruction at the same place
/// is named in the template of the case the line is written in: `mova` is
/// the first case of ir3's `mov` leaf, yet `(rpt5)mov.f32f32` is no `mova`.
#[test]
fn a_value_refused_by_several_cases_quotes_the_one_written() {
    let mov = "5 does not fit REPEAT in `{REPEAT}{UL}mov.{SRC_TYPE}{DST_TYPE}` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(rpt5)mov.f32f32 r0.x, r0.y", 600), (1, mov.into()));
    assert_eq!(refusal(&IR3, "(sy)(rpt5)mov.f32f32 r0.x, r0.y", 600), (5, mov.into()));
    let mova = "5 does not fit REPEAT in `{REPEAT}{UL}mova{U}` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(rpt5)mova a0.x, r0.y", 600), (1, mova.into()));
    let cov = "5 does not fit REPEAT in `{REPEAT}{UL}cov.{SRC_TYPE}{DST_TYPE}` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(rpt5)cov.f32f16 hr0.x, r0.y", 600), (1, cov.into()));
}

/// ir3's flags are read in any order, as Mesa's parser reads them
/// (`any-order:`); one written twice is named where it is written again,
/// and a value refused out of the template's order is named as in it.
#[test]
fn a_flag_written_twice_is_named() {
    assert_eq!(refusal(&IR3, "(sy)(ss)(sy)add.f r0.x, r0.y, r0.z", 600), (9, "`(sy)` is written twice".into()));
    assert_eq!(refusal(&IR3, "(ss)(ss)add.f r0.x, r0.y, r0.z", 600), (5, "`(ss)` is written twice".into()));
    let repeat = "5 does not fit REPEAT in `{REPEAT}{UL}add.f` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(rpt5)(ss)add.f r0.x, r0.y, r0.z", 600), (1, repeat.into()));
    let names = "expected REPEAT (one of (rpt1), (rpt2), (rpt3), (rpt4), (rpt5)) in `{REPEAT}{UL}add.f`";
    assert_eq!(refusal(&IR3, "(ul)(rpt9)(ss)add.f r0.x, r0.y, r0.z", 600), (5, names.into()));
    assert_eq!(
        IR3.assemble("(ul)(rpt3)(ss)add.f r0.x, r0.y, r0.z", 600),
        IR3.assemble("(ss)(rpt3)(ul)add.f r0.x, r0.y, r0.z", 600)
    );
    // Named where it is written again, white space between them or not.
    assert_eq!(refusal(&IR3, "(sy) (ss) (sy) add.f r0.x, r0.y, r0.z", 600), (11, "`(sy)` is written twice".into()));
    // A nop count among the flags: written twice, or refused where it stands.
    assert_eq!(refusal(&IR3, "(nop2)(sy)(nop2) add.f r0.x, r0.y, r0.z", 600), (11, "`(nop2)` is written twice".into()));
    let nop = "9 does not fit NOP in `(nop{NOP})` (range 0..=3)";
    assert_eq!(refusal(&IR3, "(sy)(nop9)(ss) add.f r0.x, r0.y, r0.z", 600), (9, nop.into()));
    // GCN's cache flags, named where the flag's own text starts (llvm-mc:
    // "duplicate cache policy modifier" at the same column).
    let text = "buffer_load_dword v1, off, s[0:3], 0 glc glc";
    assert_eq!(refusal(&GCN, text, 8), (42, "`glc` is written twice".into()));
    let text = "buffer_load_dword v1, off, s[0:3], 0 slc glc slc";
    assert_eq!(refusal(&GCN, text, 8), (46, "`slc` is written twice".into()));
}

/// A value too wide for its field names the field and its range, also
/// where a form that takes one value (DS's `offset:0`, read as llvm-mc
/// reads it) was tried at the number first.
#[test]
fn a_value_past_its_field_names_the_range() {
    // llvm-mc: "invalid operand for instruction".
    let text = "ds_write_b32 v1, v2 offset:70000";
    assert_eq!(refusal(&GCN, text, 8), (28, "70000 does not fit N in `offset:{N}` (range 0..=65535)".into()));
    // llvm-mc: "register index is out of range".
    assert_eq!(refusal(&GCN, "v_mov_b32 v300, v1", 8), (12, "300 does not fit N in `v{N}` (range 0..=255)".into()));
    assert_eq!(
        refusal(&IR3, "ldg.u32 r1.z, g[r0.x+4096], 1", 600).1,
        "4096 does not fit OFF in `g[{SRC1}{OFF}]` (range -4096..=4095)"
    );
}

/// Text read to its end whose values break a condition of the form read
/// names the condition and the values the text gave the fields it reads,
/// when every reading that got there broke the same one; readings that
/// failed for different reasons leave the general answer, as naming the
/// first one's would point at a form the writer may not have meant.
#[test]
fn a_broken_condition_is_named_with_the_values_read() {
    const MISFIT: &str = "operands do not fit any form of this instruction";
    // Mesa's nop count lives in the sources' (r) bits, which a repeat
    // gives another meaning: the case that prints one needs no repeat.
    let (col, msg) = refusal(&IR3, "(nop1)(rpt1) add.f r0.x, (r)r0.y, r0.z", 600);
    assert_eq!(col, 39);
    assert_eq!(msg, format!("{MISFIT}: this reading needs `REPEAT == 0`, and REPEAT is 1"));
    let (_, msg) = refusal(&IR3, "(rpt2)(nop1) mad.f32 r0.x, r0.y, r0.z, r0.w", 600);
    assert_eq!(msg, format!("{MISFIT}: this reading needs `REPEAT == 0`, and REPEAT is 2"));
    // llvm-mc: "invalid operand for instruction" (src0 of v_readlane_b32
    // is a VGPR; 128 is how the inline constant 0 is encoded).
    let (col, msg) = refusal(&GCN, "v_readlane_b32 s1, 0, s3", 8);
    assert_eq!(col, 25);
    assert_eq!(msg, format!("{MISFIT}: this reading needs `SRC0 >= 256`, and SRC0 is 128"));
    // llvm-mc: "invalid operand for instruction" (the condition mask is
    // an SGPR pair or vcc; 196 is the inline constant -4).
    let (_, msg) = refusal(&GCN, "v_cndmask_b32 v1, v2, v3, -4", 8);
    assert_eq!(msg, format!("{MISFIT}: this reading needs `(SRC2 < 128) || (SRC2 >= 256)`, and SRC2 is 196"));
    // llvm-mc: "invalid operand for instruction". The forms with and
    // without `lds` both read the line and fail for different reasons.
    let (col, msg) = refusal(&GCN, "buffer_load_dword v1, v[2:3], s[4:7], s1 offen offset:4 glc", 8);
    assert_eq!((col, msg.as_str()), (60, MISFIT));
}
