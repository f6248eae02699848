//! The GCN examples' binaries, disassembled by LLVM 14's `llvm-mc -mcpu=tonga
//! -disassemble`, give exactly the instructions of our listing.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn llvm_mc() -> Option<&'static str> {
    ["llvm-mc-14", "llvm-mc"].into_iter().find(|c| Command::new(c).arg("--version").output().is_ok())
}

fn disassemble(mc: &str, bytes: &[u8]) -> (Vec<String>, String) {
    let input: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    let mut child = Command::new(mc)
        .args(["-arch=amdgcn", "-mcpu=tonga", "-disassemble"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let text = input.join(" ") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc runs");
    writer.join().expect("writer").expect("llvm-mc reads its input");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != ".text")
        .map(str::to_string)
        .collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn gcn_examples_disassemble_with_llvm_mc_to_our_listing() {
    let Some(mc) = llvm_mc() else {
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
