//! The checks the fuzzers run, as plain functions: `fuzz/` calls each on
//! libFuzzer's inputs and `tests/fuzz_smoke.rs` on a few hundred generated
//! ones, so a crash the fuzzer finds is a test input as it stands.
//!
//! Each check takes arbitrary bytes, returns nothing and panics when an
//! invariant breaks; an input the engine rejects is no failure. The spec
//! loader's check is `isa_codegen::fuzz::spec` (the loader is not part of
//! this library).
//!
//! The first [`SELECTOR`] bytes of a [`decode`] or [`assemble`] input pick
//! the target, generation and syntax (see [`pick`]), so one fuzzer covers
//! every target and the mutator moves between them.

use std::collections::HashMap;
use std::io::BufRead;

use isa_runtime::{Assembler, Isa, PrintOpts};

use crate::batch::{self, Streams};
use crate::hex::Format;

/// Bytes of a [`decode`] or [`assemble`] input that pick the target.
pub const SELECTOR: usize = 3;

/// Longest assembly text [`assemble`] tries. Real lines are under 200
/// bytes; past this the fuzzer would spend its time on text length alone.
pub const MAX_TEXT: usize = 1024;

/// Longest IR text [`ir`] compiles: the IR examples are under 4 KiB, and the
/// pipeline's cost grows with the program, not with what is odd about it.
pub const MAX_IR: usize = 16 * 1024;

/// What the selector bytes chose.
#[derive(Clone, Copy, Debug)]
pub struct Pick {
    pub isa: &'static Isa,
    pub gen_: u32,
    pub opts: PrintOpts,
}

/// Reads the selector: byte 0 picks the target in [`crate::TARGETS`], byte 1
/// its generation, byte 2 its syntax (low 7 bits) and whether to pad (top
/// bit); each modulo the choices there are. `None` when `data` is shorter.
pub fn pick(data: &[u8]) -> Option<(Pick, &[u8])> {
    let (sel, rest) = data.split_first_chunk::<SELECTOR>()?;
    let isa = crate::TARGETS[sel[0] as usize % crate::TARGETS.len()];
    let gen_ = match isa.gens.len() {
        0 => isa.default_gen,
        n => isa.gens[sel[1] as usize % n].value,
    };
    let syntax = ((sel[2] & 0x7f) as usize % isa.syntaxes.len().max(1)) as u16;
    let pad = (sel[2] & 0x80 != 0).then_some(true);
    Some((Pick { isa, gen_, opts: PrintOpts { syntax, pad } }, rest))
}

/// The selector bytes that [`pick`] reads as the target named `target`, its
/// generation `gen_` and syntax `syntax`, unpadded (for seed inputs).
pub fn selector(target: &str, gen_: u32, syntax: u16) -> Option<[u8; SELECTOR]> {
    let t = crate::TARGETS.iter().position(|t| t.name == target)?;
    let g = crate::TARGETS[t].gens.iter().position(|g| g.value == gen_).unwrap_or(0);
    Some([t as u8, g as u8, syntax as u8])
}

/// Decodes the bytes after the selector. What decodes must print in a form
/// that assembles back to the same bits ([`round_trip`]); the bytes as one
/// line of `isa disasm` get one answer; and walking them as a code buffer
/// ([`walk`]) ends.
pub fn decode(data: &[u8]) {
    let Some((p, bytes)) = pick(data) else { return };
    if let Ok((inst, len)) = p.isa.decode_bytes(bytes, p.gen_) {
        assert!(len == inst.len_bytes() && bytes[..len] == inst.bytes()[..], "decode_bytes: {inst:?}, {len} bytes");
        if let Err(e) = round_trip(p.isa, inst.bits, p.gen_, p.opts) {
            panic!("{}: {e}", p.isa.name);
        }
    }
    disasm_line(p, bytes);
    walk(p, bytes);
}

/// Runs `isa disasm --input bytes` on `bytes` written as one line: one line
/// of answer, whatever the bytes.
fn disasm_line(p: Pick, bytes: &[u8]) {
    let line: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let line = line.join(" ");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let io = Streams { input: &mut line.as_bytes(), out: &mut out, err: &mut err };
    let stats = batch::disasm_with(p.isa, p.gen_, Format::Bytes, p.opts, io).expect("writing to memory");
    let answers = out.lines().count();
    assert_eq!(answers as u64, stats.lines, "{line}: {answers} answers to {} lines", stats.lines);
}

/// Disassembles `bytes` front to back as a code buffer is read: the next
/// instruction where one decodes, else a step of the shortest instruction's
/// width. Every decoded instruction moves on by at least one byte, so the
/// walk ends; returns how many instructions decoded. One `Printer` prints
/// them all, as `isa disasm` does, and must print what `print_with` prints
/// (it remembers operand texts from one instruction to the next).
pub fn walk(p: Pick, bytes: &[u8]) -> usize {
    let step = (p.isa.min_bits() as usize / 8).max(1);
    let (mut at, mut decoded, mut text, mut remembered) = (0, 0, String::new(), String::new());
    let mut printer = p.isa.printer(p.gen_, p.opts);
    while at < bytes.len() {
        match p.isa.decode_bytes(&bytes[at..], p.gen_) {
            Ok((inst, len)) => {
                assert!(len > 0 && len == inst.len_bytes(), "at byte {at}: {inst:?} is {len} bytes");
                text.clear();
                p.isa.print_with(&inst, p.gen_, p.opts, &mut text);
                remembered.clear();
                printer.print_to(&inst, &mut remembered);
                assert_eq!(remembered, text, "at byte {at}: the printer's text for {inst:?}");
                decoded += 1;
                at += len;
            }
            Err(_) => at += step,
        }
    }
    decoded
}

/// Two assemblers of one pool, as two workers of a batch keep them: each
/// remembers what it read and printed, and takes what the other learned.
type Pair = [Assembler<'static>; 2];

/// The pairs by target, generation and syntax, and which assembler of a
/// pair answers next.
type Pairs = (HashMap<(&'static str, u32, u16), Pair>, usize);

thread_local! {
    /// A [`Pair`] per target, generation and syntax, and which of the two
    /// answers next (they take turns, so each reads texts the other
    /// learned). The pool is leaked: one per key, for the life of the
    /// fuzzer.
    static ASSEMBLERS: std::cell::RefCell<Pairs> =
        std::cell::RefCell::new((HashMap::new(), 0));
}

/// Assembles the text after the selector (lossy UTF-8, at most [`MAX_TEXT`]
/// bytes). What assembles must decode to the same instruction and survive a
/// [`round_trip`].
pub fn assemble(data: &[u8]) {
    let Some((p, rest)) = pick(data) else { return };
    if rest.len() > MAX_TEXT {
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let syntax = p.opts.syntax;
    // The assemblers for many lines answer as the engine does, whatever
    // the text, and whatever the other of their pool learned before.
    let (many, which) = ASSEMBLERS.with_borrow_mut(|(pairs, turn)| {
        let pair = pairs.entry((p.isa.name, p.gen_, syntax)).or_insert_with(|| {
            let pool: &'static isa_runtime::Lessons<'static> = Box::leak(Box::new(p.isa.lessons(p.gen_, syntax)));
            [pool.assembler(), pool.assembler()]
        });
        // Each takes what the other learned at once, not every few lines
        // kept as a batch's do: the most sharing the pool allows.
        *turn ^= 1;
        pair[*turn].exchange();
        (pair[*turn].assemble(&text), *turn)
    });
    let want = p.isa.assemble_in(&text, p.gen_, syntax);
    assert_eq!(many, want, "{}: `{text}`: the answer of assembler {which} of a pool", p.isa.name);
    let Ok(inst) = p.isa.parse_in(&text, p.gen_, syntax) else {
        // The raw form and a line the engine rejects: either way no panic.
        let _ = p.isa.assemble_in(&text, p.gen_, syntax);
        return;
    };
    match p.isa.decode(inst.bits, p.gen_) {
        Ok(d) if d == inst => {}
        other => panic!("{}: `{text}` assembles to {inst:?}, which decodes as {other:?}", p.isa.name),
    }
    if let Err(e) = round_trip(p.isa, inst.bits, p.gen_, p.opts) {
        panic!("{}: `{text}` assembles to {:x}; {e}", p.isa.name, inst.bits);
    }
}

/// The decoding policy as a check: if `bits` decode, their text in `opts`
/// assembles (in the same syntax) back to the same bits, except the bits the
/// text does not show ([`Isa::ignored_bits_in`]). An encoding that breaks one
/// of the target's rules decodes, but the assembler refuses its text naming
/// that rule. Where the text does not fix the length, the assembler may pick
/// a shorter encoding that prints the same. The error describes a mismatch.
pub fn round_trip(isa: &Isa, bits: u128, gen_: u32, opts: PrintOpts) -> Result<(), String> {
    let Ok(inst) = isa.decode(bits, gen_) else { return Ok(()) };
    let syntax = opts.syntax;
    // The assembler and validation skip working out the ignored bits of an
    // instruction that sets none of the bits its leaf may ignore.
    let ignored = isa.ignored_bits_in(&inst, gen_, syntax);
    if ignored & !isa.ignorable(inst.leaf) != 0 {
        return Err(format!(
            "{:x} `{}` ignores bits {:x} its leaf's bound leaves out",
            inst.bits,
            isa.leaves[inst.leaf as usize].key,
            ignored & !isa.ignorable(inst.leaf)
        ));
    }
    let text = isa.print_in(&inst, gen_, opts);
    let broken = isa.validate(&inst, gen_);
    if !broken.is_empty() {
        return match isa.parse_in(&text, gen_, syntax) {
            Err(e) if broken.contains(&e.message.as_str()) => Ok(()),
            Err(e) => Err(format!("{:x} breaks `{}` but its text `{text}` fails otherwise: {e}", inst.bits, broken[0])),
            Ok(_) => Err(format!("{:x} breaks `{}` but its text `{text}` assembles", inst.bits, broken[0])),
        };
    }
    let back = isa
        .parse_in(&text, gen_, syntax)
        .map_err(|e| format!("{:x} prints `{text}`, which does not assemble: {e}", inst.bits))?;
    if back.len < inst.len && isa.print_in(&back, gen_, opts) == text {
        return Ok(());
    }
    let care = !ignored;
    if back.bits & care != inst.bits & care || back.len != inst.len {
        return Err(format!(
            "{:x} `{}` prints `{text}`, which assembles to {:x} (differs in {:x})",
            inst.bits,
            isa.leaves[inst.leaf as usize].key,
            back.bits,
            (back.bits ^ inst.bits) & care
        ));
    }
    Ok(())
}

/// Parses `data` as backend IR (UTF-8, at most [`MAX_IR`] bytes). What
/// parses must print and parse back to a function that prints the same, and compiling it
/// for each target with a machine model (its default generation) ends in a
/// result or an error; a result's code decodes instruction by instruction.
pub fn ir(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.len() > MAX_IR {
        return;
    }
    let Ok(f) = backend::text::parse(text) else { return };
    // Positions differ (the printed text has no comments), so the two
    // functions compare by their text.
    let printed = backend::text::print(&f);
    match backend::text::parse(&printed).map(|g| backend::text::print(&g)) {
        Ok(again) if again == printed => {}
        other => panic!("IR prints as\n{printed}\nwhich parses and prints as {other:?}"),
    }
    for isa in crate::TARGETS.iter().filter(|t| t.machine.is_some()) {
        let Ok(t) = backend::Target::new(isa, isa.default_gen, abi_specs::target(isa.name)) else { continue };
        let Ok(c) = backend::compile(&t, text) else { continue };
        let mut at = 0;
        while at < c.binary.len() {
            match isa.decode_bytes(&c.binary[at..], isa.default_gen) {
                Ok((_, len)) => at += len,
                Err(e) => panic!("{}: the compiled code does not decode at byte {at}: {e}\n{text}", isa.name),
            }
        }
    }
}
