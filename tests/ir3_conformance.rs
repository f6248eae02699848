//! ir3 against Mesa's disassembler test vectors (tests/conformance/ir3, copied
//! from Mesa's src/freedreno/ir3/tests/disasm.c; see the file's header).
//!
//! Every record is checked both ways, as Mesa's own test does: decoding `hex`
//! for `gen` prints exactly `asm`, and assembling `asm` gives exactly `hex`.

use std::collections::BTreeMap;

use isa_specs::ir3::ISA;

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Record {
    idx: u32,
    gpu: serde_saphyr::Spanned<String>,
    gpu_field: String,
    #[serde(rename = "gen")]
    generation: u32,
    #[serde(rename = "macro")]
    mac: String,
    hex: String,
    asm: String,
    generated: Option<bool>,
}

fn records() -> Vec<Record> {
    let text = include_str!("conformance/ir3/disasm.yaml");
    serde_saphyr::from_str(text).expect("the vector file parses")
}

#[test]
fn every_vector_decodes_and_assembles_exactly() {
    let recs = records();
    assert_eq!(recs.len(), 276, "the vector file holds 276 records");
    let mut per_cat: BTreeMap<u64, (u32, u32, u32)> = BTreeMap::new();
    let mut failures = Vec::new();
    for r in &recs {
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word");
        let cat = word >> 61;
        let e = per_cat.entry(cat).or_default();
        e.0 += 1;
        let text = ISA.disassemble(word as u128, r.generation);
        match &text {
            Ok(t) if *t == r.asm => e.1 += 1,
            Ok(t) => failures
                .push(format!("idx {} gen {} decode {}: got `{t}`, want `{}`", r.idx, r.generation, r.hex, r.asm)),
            Err(err) => {
                failures.push(format!("idx {} gen {} decode {}: {err}, want `{}`", r.idx, r.generation, r.hex, r.asm))
            }
        }
        match ISA.assemble(&r.asm, r.generation) {
            Ok((bits, _)) if bits == word as u128 => e.2 += 1,
            Ok((bits, _)) => failures.push(format!(
                "idx {} gen {} assemble `{}`: got {:016x}, want {} (diff {:016x})",
                r.idx,
                r.generation,
                r.asm,
                bits,
                r.hex,
                bits ^ word as u128
            )),
            Err(err) => failures.push(format!("idx {} gen {} assemble `{}`: {err}", r.idx, r.generation, r.asm)),
        }
    }
    println!("ir3 conformance (records, decoded exactly, assembled exactly):");
    for (cat, (n, d, a)) in &per_cat {
        println!("  cat{cat}: {n} records, decode {d}/{n}, assemble {a}/{n}");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} of {} checks failed", failures.len(), 2 * recs.len());
}

/// An `Assembler` (what `isa asm` keeps per worker) gives every record's word
/// too, most of Mesa's texts read the short way (they are in the printer's
/// form).
#[test]
fn an_assembler_assembles_every_vector_exactly() {
    let recs = records();
    let mut assemblers = std::collections::HashMap::new();
    let (mut failures, mut short) = (Vec::new(), 0);
    for r in &recs {
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word") as u128;
        let asm = assemblers.entry(r.generation).or_insert_with(|| ISA.assembler(r.generation, 0));
        let before = asm.canonical_lines();
        match asm.assemble(&r.asm) {
            Ok((bits, 64)) if bits == word => {}
            got => failures.push(format!("idx {} `{}`: {got:x?}, want {}", r.idx, r.asm, r.hex)),
        }
        short += asm.canonical_lines() - before;
    }
    println!("{short} of {} records read the short way", recs.len());
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(short * 10 >= recs.len() as u64 * 8, "only {short} of {} records read the short way", recs.len());
}

/// A write mask of all four components (`(xyzw)`) is begun by four
/// shorter masks listed before it (``, `x`, `xy`, `xyz`): Mesa's texture
/// records written with it are read the short way, their texture and
/// sampler given as immediates (those taken from a register, `.s2en` or
/// `a1.x`, are still left to the general assembler).
#[test]
fn a_full_write_mask_is_read_the_short_way() {
    let mut checked = 0;
    for r in records() {
        if !r.asm.contains("(xyzw)") || r.asm.contains(".s2en") || r.asm.contains("a1.x") {
            continue;
        }
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word") as u128;
        let mut asm = ISA.assembler(r.generation, 0);
        assert_eq!(asm.assemble(&r.asm), Ok((word, 64)), "idx {} `{}`", r.idx, r.asm);
        assert_eq!(asm.canonical_lines(), 1, "idx {} `{}` is read the short way", r.idx, r.asm);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} records with a full write mask");
}

/// Mesa's assembler reads the flags before a mnemonic in any order (its
/// grammar's `iflags` is any sequence of `iflag`, its lexer's tokens, white
/// space between them or not): every record written with two flags or more
/// assembles to its word with them in every order, spaced or not, by the
/// general assembler and by an `Assembler`.
#[test]
fn flags_in_any_order_assemble_to_the_same_word() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for r in records() {
        let flags: Vec<&str> = r.asm.split_inclusive(')').take_while(|f| f.starts_with('(')).collect();
        if flags.len() < 2 {
            continue;
        }
        let rest = &r.asm[flags.iter().map(|f| f.len()).sum::<usize>()..];
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word") as u128;
        let mut asm = ISA.assembler(r.generation, 0);
        for order in permutations(flags.len()) {
            // As the disassembler writes them, and with white space between
            // them and before the rest, which Mesa's lexer skips.
            let written: Vec<&str> = order.iter().map(|&i| flags[i]).collect();
            for text in [written.concat() + rest, written.join(" ") + " " + rest] {
                checked += 1;
                for (how, got) in [("general", ISA.assemble(&text, r.generation)), ("assembler", asm.assemble(&text))] {
                    if !matches!(got, Ok((bits, 64)) if bits == word) {
                        failures.push(format!("idx {} `{text}` ({how}): {got:x?}, want {}", r.idx, r.hex));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // (sy)(ss)(jp) six ways, (eolm)(eogm) and (ss)(eostsc) two each; with
    // and without spaces.
    assert_eq!(checked, 10 * 2);
}

/// Mesa's parser reads a cat2/cat3 instruction's `(nopN)` among its other
/// flags too (`iflag` includes it), though the disassembler writes it after
/// them and before a space, and reads flags as tokens, white space between
/// them or not. Every record written with `(nopN)`, given `(sy)`, `(ss)` and
/// `(ul)` as well, assembles to its word with the bits of those set (bits 60,
/// 44 and 45 of every cat2/cat3 word in Mesa's ir3 isaspec, as the research
/// notes give them) whatever the order of the four and with or without
/// spaces between them, and prints with them in the disassembler's order.
#[test]
fn nop_counts_are_read_among_the_flags_in_any_order() {
    const SY: u128 = 1 << 60;
    const SS: u128 = 1 << 44;
    const UL: u128 = 1 << 45;
    let mut checked = 0;
    let mut failures = Vec::new();
    for r in records() {
        let Some((nop, rest)) = r.asm.split_once(") ").filter(|(nop, _)| nop.starts_with("(nop")) else { continue };
        let nop = format!("{nop})");
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word") as u128;
        assert!(matches!(word >> 61, 2 | 3) && word & (SY | SS | UL) == 0, "idx {}: cat2/cat3, no (sy)(ss)(ul)", r.idx);
        let want = word | SY | SS | UL;
        let mut asm = ISA.assembler(r.generation, 0);
        let flags = ["(sy)", "(ss)", nop.as_str(), "(ul)"];
        for order in permutations(flags.len()) {
            for between in ["", " "] {
                let written: Vec<&str> = order.iter().map(|&i| flags[i]).collect();
                let text = format!("{} {rest}", written.join(between));
                checked += 1;
                for (how, got) in [("general", ISA.assemble(&text, r.generation)), ("assembler", asm.assemble(&text))] {
                    if !matches!(got, Ok((bits, 64)) if bits == want) {
                        failures.push(format!("idx {} `{text}` ({how}): {got:x?}, want {want:016x}", r.idx));
                    }
                }
            }
        }
        let printed =
            ISA.decode_bytes(&(want as u64).to_le_bytes(), r.generation).map(|(i, _)| ISA.print(&i, r.generation));
        if printed.as_deref() != Ok(format!("(sy)(ss){nop} (ul){rest}").as_str()) {
            failures.push(format!("idx {} {want:016x} prints {printed:?}", r.idx));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // 18 records with `(nopN)`, 24 orders each, with and without spaces.
    assert_eq!(checked, 18 * 24 * 2);
}

/// Mesa's lexer reads `(rptN)` and `(nopN)` for any digit N up to 7, 0
/// among them, and its encoder writes a repeat or a nop count of 0 as no
/// flag at all: every cat0, cat2 and cat3 record written without a repeat
/// assembles to its word with `(rpt0)` written first, and every cat2 and
/// cat3 record written without a nop count to its word with `(nop0)`
/// written first (with a repeat too, whose sources' `(r)` flags then keep
/// the bits a nop count would take), by the general assembler and by an
/// `Assembler`.
#[test]
fn a_count_of_none_written_out_assembles_as_none() {
    let mut checked = [0; 2];
    let mut failures = Vec::new();
    for r in records() {
        let word = u64::from_str_radix(&r.hex, 16).expect("hex word") as u128;
        let category = word >> 61;
        let mut texts = Vec::new();
        if matches!(category, 0 | 2 | 3) && !r.asm.contains("(rpt") {
            texts.push(format!("(rpt0){}", r.asm));
            checked[0] += 1;
        }
        if matches!(category, 2 | 3) && !r.asm.contains("(nop") {
            texts.push(format!("(nop0) {}", r.asm));
            checked[1] += 1;
        }
        let mut asm = ISA.assembler(r.generation, 0);
        for text in texts {
            for (how, got) in [("general", ISA.assemble(&text, r.generation)), ("assembler", asm.assemble(&text))] {
                if !matches!(got, Ok((bits, 64)) if bits == word) {
                    failures.push(format!("idx {} `{text}` ({how}): {got:x?}, want {}", r.idx, r.hex));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // 66 records without a repeat, 36 cat2/cat3 records without a nop count.
    assert_eq!(checked, [66, 36]);
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}
