//! Differential tests of the RV32I target against llvm-mc (LLVM 14), with
//! `-M no-aliases` so that it prints the canonical instructions (`addi zero,
//! zero, 0`, not `nop`) in the text form the spec uses: ABI register names,
//! decimal immediates, pc-relative offsets in bytes.
//!
//! (a) Random encodings of every opcode, made by us, are disassembled by
//!     `llvm-mc -triple=riscv32 -disassemble` in one process: same text.
//! (b) Our printed text of the same samples is assembled by
//!     `llvm-mc -triple=riscv32 -show-encoding`: same bytes, same text.
//! (c) Random words with an RV32I major opcode are decoded by both: both
//!     reject, or both accept with the same text; the words llvm-mc accepts
//!     and we do not are listed in `OUTSIDE_RV32I` with the reason.
//!
//! `ISAGEN_RV_FUZZ=N` sets the samples per opcode (default 24). Without
//! llvm-mc the tests say so loudly and pass; `.ci/run` installs it.

use std::collections::HashMap;
#[path = "support/llvm_mc.rs"]
mod llvm_mc;

use isa_runtime::{Isa, TestRng};
use isa_specs::rv32i::ISA;

const TRIPLE: &str = "-triple=riscv32";

fn skip() {
    eprintln!("SKIPPED: llvm-mc (LLVM 14) not found; install llvm-14 to run the RV32I differential tests");
}

fn samples_per_opcode() -> u32 {
    std::env::var("ISAGEN_RV_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(24)
}

/// The input lines (1-based) llvm-mc reported an error or warning for.
fn rejected_lines(stderr: &str) -> std::collections::HashSet<usize> {
    stderr
        .lines()
        .filter(|l| l.contains(": error:") || l.contains(": warning:"))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse().ok())
        .collect()
}

/// `beq\ta0, a1, -8` -> `beq a0, a1, -8`.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The output lines that answer instructions: `.text` and blank lines dropped.
fn answer_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().map(str::trim).filter(|l| !l.is_empty() && *l != ".text").collect()
}

/// llvm-mc's disassembly of each word, `None` where it rejected it.
fn llvm_disassemble(mc: &str, words: &[u32]) -> Vec<Option<String>> {
    let input: String = words.iter().map(|w| w.to_le_bytes().map(|b| format!("0x{b:02x}")).join(" ") + "\n").collect();
    let (out, err) = llvm_mc::run(mc, &[TRIPLE, "-disassemble", "-M", "no-aliases"], &input);
    let rejected = rejected_lines(&err);
    let mut answers = answer_lines(&out).into_iter();
    (1..=words.len()).map(|line| if rejected.contains(&line) { None } else { answers.next().map(normalize) }).collect()
}

/// llvm-mc's text and encoding of each line, `None` where it rejected it.
fn llvm_assemble(mc: &str, lines: &[String]) -> Vec<Option<(String, u32)>> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (out, err) = llvm_mc::run(mc, &[TRIPLE, "-show-encoding", "-M", "no-aliases"], &input);
    let rejected = rejected_lines(&err);
    let mut answers = answer_lines(&out).into_iter();
    (1..=lines.len())
        .map(|line| {
            if rejected.contains(&line) {
                return None;
            }
            let a = answers.next()?;
            let (text, enc) = a.split_once("# encoding:")?;
            let bytes: Vec<u8> = enc
                .trim()
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
                .collect();
            let word = u32::from_le_bytes(bytes.try_into().ok()?);
            Some((normalize(text), word))
        })
        .collect()
}

/// Random encodings of every opcode with our text: `(key, word, text)`.
fn samples(isa: &Isa, per_opcode: u32) -> Vec<(&'static str, u32, String)> {
    let g = isa.default_gen;
    let mut rng = TestRng::new(0x5eed_0032);
    let mut out = Vec::new();
    for &leaf in isa.groups[0].leaves {
        let mut got = 0;
        for _ in 0..per_opcode * 4 {
            if got == per_opcode {
                break;
            }
            let Some(inst) = isa.sample(leaf, g, &mut || rng.next_u64()) else { continue };
            out.push((isa.leaves[leaf as usize].key, inst.bits as u32, isa.print(&inst, g)));
            got += 1;
        }
        assert!(got > 0, "no random encoding of {}", isa.leaves[leaf as usize].key);
    }
    out
}

#[test]
fn our_encodings_disassemble_to_our_text() {
    let Some(mc) = llvm_mc::find() else { return skip() };
    let s = samples(&ISA, samples_per_opcode());
    let words: Vec<u32> = s.iter().map(|x| x.1).collect();
    let theirs = llvm_disassemble(mc, &words);
    let mut bad = Vec::new();
    let mut opcodes = std::collections::HashSet::new();
    for ((key, word, ours), theirs) in s.iter().zip(&theirs) {
        opcodes.insert(*key);
        if theirs.as_deref() != Some(ours.as_str()) {
            bad.push(format!("{key} {word:#010x}: ours `{ours}`, llvm-mc {theirs:?}"));
        }
    }
    println!("{} encodings of {} opcodes disassembled by llvm-mc", s.len(), opcodes.len());
    assert_eq!(opcodes.len(), ISA.groups[0].leaves.len());
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn our_text_assembles_to_our_bytes() {
    let Some(mc) = llvm_mc::find() else { return skip() };
    let s = samples(&ISA, samples_per_opcode());
    let lines: Vec<String> = s.iter().map(|x| x.2.clone()).collect();
    let theirs = llvm_assemble(mc, &lines);
    let mut bad = Vec::new();
    for ((key, word, ours), theirs) in s.iter().zip(&theirs) {
        match theirs {
            Some((text, w)) if w == word && text == ours => {}
            other => bad.push(format!("{key}: `{ours}` is {word:#010x} for us, llvm-mc: {other:x?}")),
        }
    }
    println!("{} lines of our text assembled by llvm-mc", s.len());
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}

/// Words llvm-mc 14 decodes that RV32I (as this spec describes it) does not,
/// by reason. Anything else it accepts and we reject is a failure.
/// A reason, and the test for words it covers.
type Outside = (&'static str, fn(u32) -> bool);

const OUTSIDE_RV32I: [Outside; 3] = [
    // The spec reserves shamt[5] = 1 on RV32 (section 2.4); LLVM 14 decodes
    // such a shift anyway, as `slli a0, a0, 32`.
    ("shift by 32 or more (reserved on RV32)", |w| {
        w & 0x7f == 0x13 && matches!((w >> 12) & 7, 1 | 5) && (w >> 25) & 1 == 1
    }),
    // A fence with an empty predecessor or successor set: llvm-mc prints the
    // set as `unknown`, which it cannot read back.
    ("fence with an empty set", |w| w & 0x707f == 0x000f && ((w >> 20) & 0xf == 0 || (w >> 24) & 0xf == 0)),
    // SYSTEM opcodes other than ecall/ebreak: Zicsr (csrr*) and the
    // privileged instructions (mret, wfi, sfence.vma, ...), not RV32I.
    ("Zicsr or privileged instruction", |w| w & 0x7f == 0x73 && !matches!(w, 0x0000_0073 | 0x0010_0073)),
];

#[test]
fn random_words_agree_on_acceptance_and_text() {
    let Some(mc) = llvm_mc::find() else { return skip() };
    const MAJOR: [u32; 11] = [0x37, 0x17, 0x6f, 0x67, 0x63, 0x03, 0x23, 0x13, 0x33, 0x0f, 0x73];
    let mut rng = TestRng::new(0xdec0de);
    let count = 4000 * samples_per_opcode().max(1) as usize / 24;
    let words: Vec<u32> = (0..count)
        .map(|_| {
            let r = rng.next_u64();
            ((r >> 7) as u32 & !0x7f) | MAJOR[(r % MAJOR.len() as u64) as usize]
        })
        .collect();
    let theirs = llvm_disassemble(mc, &words);
    let g = ISA.default_gen;
    let mut bad = Vec::new();
    let mut outside: HashMap<&str, usize> = HashMap::new();
    let mut agreed = (0, 0);
    for (w, theirs) in words.iter().zip(&theirs) {
        let ours = ISA.decode(*w as u128, g).ok().map(|i| ISA.print(&i, g));
        match (&ours, theirs) {
            (Some(a), Some(b)) if a == b => agreed.0 += 1,
            (None, None) => agreed.1 += 1,
            (None, Some(_)) if let Some((why, _)) = OUTSIDE_RV32I.iter().find(|(_, f)| f(*w)) => {
                *outside.entry(why).or_default() += 1
            }
            _ => bad.push(format!("{w:#010x}: ours {ours:?}, llvm-mc {theirs:?}")),
        }
    }
    println!(
        "{} words: {} decoded alike, {} rejected by both, outside RV32I: {outside:?}",
        words.len(),
        agreed.0,
        agreed.1
    );
    assert!(agreed.0 > words.len() / 4, "too few decodable samples to mean anything");
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// A leading 0 makes a number octal, as llvm-mc reads it (recorded with
/// `llvm-mc -triple=riscv32 -show-encoding`: `addi a0, a0, 8`), and `09` is
/// no number ("unknown operand"). Needs no llvm-mc.
#[test]
fn octal_numbers_read_as_llvm_mc_reads_them() {
    let (bits, width) = ISA.assemble("addi a0, a0, 010", ISA.default_gen).expect("assembles");
    assert_eq!(&bits.to_le_bytes()[..(width / 8) as usize], [0x13, 0x05, 0x85, 0x00]);
    assert!(ISA.assemble("addi a0, a0, 09", ISA.default_gen).is_err());
}

/// `0b` and binary digits make a binary number, as llvm-mc reads it
/// (recorded with `llvm-mc -triple=riscv32 -show-encoding`: `addi a0, a0,
/// 3`). Needs no llvm-mc.
#[test]
fn binary_numbers_read_as_llvm_mc_reads_them() {
    for text in ["addi a0, a0, 0b11", "addi a0, a0, 0B11"] {
        let (bits, width) = ISA.assemble(text, ISA.default_gen).expect("assembles");
        assert_eq!(&bits.to_le_bytes()[..(width / 8) as usize], [0x13, 0x05, 0x35, 0x00], "{text}");
    }
    assert!(ISA.assemble("addi a0, a0, 0b12", ISA.default_gen).is_err());
}
