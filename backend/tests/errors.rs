//! Bad programs get errors that say where and what to change, never a panic.

mod common;

use backend::{CompileError, compile};

fn ir_error(target: &str, text: &str) -> backend::IrError {
    let t = common::target(target, None);
    match compile(&t, text) {
        Err(CompileError::Ir(e)) => e,
        other => panic!("expected an IR error, got {other:?}"),
    }
}

#[test]
fn unknown_register_class_names_the_classes() {
    let e = ir_error("ir3", "%a:vgpr = input r0.x\n");
    assert_eq!((e.pos.line, e.pos.col), (1, 1));
    assert!(e.message.contains("no register class `vgpr`"), "{e}");
    assert!(e.help.as_deref().is_some_and(|h| h.contains("full, half")), "{e}");
}

#[test]
fn an_instruction_that_does_not_assemble_is_shown_with_registers() {
    let e = ir_error("ir3", "%a:full = input r0.x\n\n    frob.f %b:full, %a\n");
    assert_eq!((e.pos.line, e.pos.col), (3, 5));
    assert!(e.message.contains("`frob.f r0.x, r0.x` is not a ir3 instruction in a6xx"), "{e}");
}

#[test]
fn inputs_name_registers_of_their_class() {
    let e = ir_error("ir3", "%a:full = input v0\n");
    assert!(e.message.contains("`v0` is not a `full` register"), "{e}");
    assert!(e.help.as_deref().is_some_and(|h| h.contains("r0.x")), "{e}");
    let e = ir_error("gcn", "%a:vgpr = input abi thread_id[0]\n");
    assert!(e.message.contains("needs an `abi STAGE VARIANT` line"), "{e}");
    let e = ir_error("gcn", "abi cs main\n%a:vgpr = input abi vertex_id\n");
    assert!(e.message.contains("has no argument `vertex_id`"), "{e}");
    let e = ir_error("gcn", "abi cs main\n%a:sgpr = input abi thread_id[0]\n");
    assert!(e.message.contains("ABI file `v`"), "{e}");
}

#[test]
fn too_many_live_values_is_a_clear_error() {
    // A chain of 300 values exported newest first (exports keep their order):
    // all 300 are live at the first export, more than the 256 VGPRs.
    let mut text = String::from("entry:\n    v_mov_b32 %v0:vgpr, 1.0\n");
    for i in 1..300 {
        text.push_str(&format!("    v_add_f32 %v{i}:vgpr, 1.0, %v{}\n", i - 1));
    }
    for i in (0..300).rev() {
        text.push_str(&format!("    exp mrt0 %v{i}, %v{i}, %v{i}, %v{i}\n"));
    }
    let t = common::target("gcn", None);
    match compile(&t, &text) {
        Err(e @ CompileError::OutOfRegisters { class: "vgpr", available: 256, .. }) => {
            assert!(e.to_string().contains("spilling is not implemented"), "{e}");
        }
        Err(e) => panic!("expected OutOfRegisters, got {e}"),
        Ok(_) => panic!("expected OutOfRegisters, but it compiled"),
    }
}

#[test]
fn two_address_values_read_together_cannot_be_scheduled() {
    // One instruction reading two values of the one-register address file.
    let text = "\
%h:half = input hr0.x
mova %a:addr, %h
mova %b:addr, %h
mad.f32 %d:full, c<%a + 1>, c<%b + 2>, c0.x
";
    let t = common::target("ir3", None);
    let r = compile(&t, text);
    assert!(matches!(r, Err(CompileError::Scarce { file: "a", .. }) | Err(CompileError::Ir(_))), "{r:?}");
}

#[test]
fn control_flow_other_than_if_else_is_reported() {
    let e = ir_error(
        "ir3",
        "%a:full = input r0.x\ntop:\n    add.f %b:full, %a, %a\n    if %b then top else out\nout:\n    output %b\n",
    );
    assert!(e.message.contains("only simple if/else"), "{e}");
}

#[test]
fn a_branch_in_the_only_block_is_reported_at_the_branch() {
    // Found by the `ir` fuzzer: with one block left, finding where to report
    // the branch looked at a second block first.
    let e = ir_error("ir3", "entry:\n    %a:full = input r0.x\n    goto entry\n");
    assert!(e.message.contains("only simple if/else"), "{e}");
    assert_eq!((e.pos.line, e.pos.col), (3, 5));
}

#[test]
fn if_else_with_memory_access_is_not_flattened() {
    let text = "\
entry:
    %a:full[2] = input r0.x
    %x, %y = split %a
    if %x then t else e
t:
    stg.u32 g[%a], %y, 1
    goto e
e:
    output %y
";
    let e = ir_error("ir3", text);
    assert!(e.help.as_deref().is_some_and(|h| h.contains("no memory access")), "{e}");
}

#[test]
fn a_program_with_no_instruction_compiles_to_nothing() {
    // Found by the `ir` fuzzer: text without a block reached the one-block
    // passes and indexed a block that was not there.
    for name in isa_specs::TARGETS.iter().filter(|t| t.machine.is_some()).map(|t| t.name) {
        let t = common::target(name, None);
        // What the target ends a program with, if anything, and no more.
        let end = compile(&t, "entry:\n").unwrap_or_else(|e| panic!("{name}: {e}")).binary;
        for text in ["", "; only a comment\n"] {
            let c = compile(&t, text).unwrap_or_else(|e| panic!("{name}: {text:?}: {e}"));
            assert_eq!(c.binary, end, "{name}: {text:?}");
        }
        // An ABI line alone: a result or an error, no panic.
        let _ = compile(&t, "abi vs as-vs\n");
    }
}
