//! The GCN examples' binaries, disassembled by LLVM 14's `llvm-mc -mcpu=tonga
//! -disassemble`, give exactly the instructions of our listing.

mod common;

#[path = "../../tests/support/llvm_mc.rs"]
mod llvm_mc;

fn disassemble(mc: &str, bytes: &[u8]) -> (Vec<String>, String) {
    let input: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    let (out, err) = llvm_mc::run(mc, &["-arch=amdgcn", "-mcpu=tonga", "-disassemble"], &(input.join(" ") + "\n"));
    let lines = out.lines().map(str::trim).filter(|l| !l.is_empty() && *l != ".text").map(str::to_string).collect();
    (lines, err)
}

#[test]
fn gcn_examples_disassemble_with_llvm_mc_to_our_listing() {
    let Some(mc) = llvm_mc::find() else {
        eprintln!("SKIPPED: llvm-mc (LLVM 14) not found; install llvm-14 to check the GCN examples against it");
        return;
    };
    let t = common::target("gcn", Some(8));
    let mut checked = 0;
    for name in ["compute.ir", "fragment.ir"] {
        let c = common::compile_checked(&t, &common::example(&format!("gcn/{name}")));
        let (theirs, err) = disassemble(mc, &c.binary);
        assert!(!err.contains("invalid"), "{name}: llvm-mc rejected part of the binary:\n{err}");
        let ours: Vec<String> = c.listing.iter().map(|l| l.text.clone()).collect();
        assert_eq!(theirs, ours, "{name}");
        checked += ours.len();
    }
    assert!(checked > 10);
}
