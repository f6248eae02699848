//! An [`isa_runtime::Assembler`] gives exactly what `Isa::assemble_in`
//! gives, bits, width or error, for every target, generation and syntax: on
//! the printed text of random instructions of every opcode and of random
//! words that decode (padded and not), and on that text changed a little
//! (a character dropped, doubled or replaced, spaces added, a number
//! changed), which is mostly not in the printer's form or not an
//! instruction at all. And it reads most printed lines the short way, or it
//! would not be worth having.

use isa_runtime::{PrintOpts, TestRng};

#[path = "support/corpus.rs"]
mod corpus;

/// `text` changed in one random way.
fn mutate(text: &str, rng: &mut TestRng) -> String {
    let mut b: Vec<char> = text.chars().collect();
    if b.is_empty() {
        return " ".into();
    }
    let at = (rng.next_u64() as usize) % b.len();
    const SOME: &[char] = &['0', '1', '9', 'x', 'v', 's', ' ', ',', '-', '|', '[', ']', ':', '.', 'f', 'A'];
    match rng.next_u64() % 6 {
        0 => {
            b.remove(at);
        }
        1 => b.insert(at, b[at]),
        2 => b[at] = SOME[(rng.next_u64() as usize) % SOME.len()],
        3 => b.insert(at, ' '),
        // A digit stepped, which keeps most lines instructions.
        4 => match b.iter().rposition(|c| c.is_ascii_digit()) {
            Some(i) => b[i] = if b[i] == '9' { '0' } else { (b[i] as u8 + 1) as char },
            None => b.push('1'),
        },
        _ => b.insert(0, ' '),
    }
    b.into_iter().collect()
}

/// The least share of printed lines each target's assembler must read
/// the short way (what it does now, a little under).
const FLOORS: &[(&str, f64)] = &[("gcn", 0.95), ("agx", 0.75), ("ir3", 0.8), ("rv32i", 0.7)];

/// One assembler per target, generation and syntax, given that
/// generation's corpus (`per_leaf` instructions of each opcode, `words`
/// random words): `check` pushes each answer that differs from
/// `Isa::assemble_in` to `bad` and returns the share it measures, which
/// must reach the target's floor in `floors` (`what` names it).
fn each_assembler(
    seed: u64,
    (per_leaf, words): (usize, usize),
    (floors, what): (&[(&str, f64)], &str),
    mut check: impl FnMut(&isa_runtime::Isa, u32, u16, &[isa_runtime::Inst], &mut TestRng, &mut Vec<String>) -> f64,
) {
    let mut rng = TestRng::new(seed);
    let mut bad = Vec::new();
    let mut shares = Vec::new();
    for isa in isa_specs::TARGETS {
        for g in corpus::gens(isa) {
            let insts = corpus::instructions(isa, g, &mut rng, per_leaf, words);
            for syntax in 0..isa.syntaxes.len().max(1) as u16 {
                let share = check(isa, g, syntax, &insts, &mut rng, &mut bad);
                println!("{} gen {g} syntax {syntax}: {share:.3} {what}", isa.name);
                shares.push((isa.name, g, syntax, share));
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} answers differ", bad.len());
    for (target, g, syntax, share) in shares {
        let floor = floors.iter().find(|f| f.0 == target).map_or(0.0, |f| f.1);
        assert!(share >= floor, "{target} gen {g} syntax {syntax}: {share:.3} {what}");
    }
}

#[test]
fn an_assembler_answers_as_the_engine_does() {
    let what = "of printed lines read the short way";
    each_assembler(5, (3, 2_000), (FLOORS, what), |isa, g, syntax, insts, rng, bad| {
        let mut asm = isa.assembler(g, syntax);
        let (mut printed, mut short) = (0u64, 0u64);
        for inst in insts {
            for pad in [None, Some(true)] {
                let text = isa.print_in(inst, g, PrintOpts { syntax, pad });
                let changed = mutate(&text, rng);
                for (i, line) in [text, changed].iter().enumerate() {
                    let before = asm.canonical_lines();
                    let want = isa.assemble_in(line, g, syntax);
                    let got = asm.assemble(line);
                    if got != want {
                        bad.push(format!("{} gen {g} syntax {syntax} `{line}`: {got:x?}, want {want:x?}", isa.name));
                    }
                    if i == 0 && pad.is_none() {
                        printed += 1;
                        short += asm.canonical_lines() - before;
                    }
                }
            }
        }
        short as f64 / printed as f64
    });
}

/// The least share of printed lines each target's assembler must read by
/// remembered operand texts the second time it meets them. ir3's fewer
/// than half, and an assembler stops trying where that is so: its lines
/// are held to the same answers, not to a share.
const RECALL_FLOORS: &[(&str, f64)] = &[("gcn", 0.95), ("agx", 0.7), ("ir3", 0.0), ("rv32i", 0.95)];

/// The printed corpus twice through one assembler, each instruction's
/// line in each of `pads` in turn, every answer held to `Isa::assemble_in`
/// (a difference goes to `bad`): the share of the second pass's plain
/// lines by which `counted` grew, among those by which `among` grew (all
/// of them when `None`).
#[allow(clippy::too_many_arguments)]
fn read_twice(
    (isa, g, syntax): (&isa_runtime::Isa, u32, u16),
    insts: &[isa_runtime::Inst],
    pads: &[Option<bool>],
    bad: &mut Vec<String>,
    counted: fn(&isa_runtime::Assembler<'_>) -> u64,
    among: Option<fn(&isa_runtime::Assembler<'_>) -> u64>,
) -> f64 {
    let mut asm = isa.assembler(g, syntax);
    let texts: Vec<Vec<String>> = insts
        .iter()
        .map(|inst| pads.iter().map(|&pad| isa.print_in(inst, g, PrintOpts { syntax, pad })).collect())
        .collect();
    let mut second = (0u64, 0u64);
    for pass in 0..2 {
        for lines in &texts {
            for (i, line) in lines.iter().enumerate() {
                let (before, of) = (counted(&asm), among.map_or(0, |f| f(&asm)));
                let want = isa.assemble_in(line, g, syntax);
                let got = asm.assemble(line);
                if got != want {
                    bad.push(format!(
                        "{} gen {g} syntax {syntax} pass {pass} `{line}`: {got:x?}, want {want:x?}",
                        isa.name
                    ));
                }
                if pass == 1 && pads[i].is_none() && among.is_none_or(|f| f(&asm) > of) {
                    second.0 += 1;
                    second.1 += counted(&asm) - before;
                }
            }
        }
    }
    second.1 as f64 / second.0.max(1) as f64
}

/// Lines whose operand texts an assembler met before are read by those
/// ([`isa_runtime::Assembler::recalled_lines`]), with the same answers.
#[test]
fn an_assembler_reads_again_by_what_it_learned() {
    let what = "of short-way lines recalled the second time";
    each_assembler(6, (2, 1_000), (RECALL_FLOORS, what), |isa, g, syntax, insts, _, bad| {
        let read: fn(&isa_runtime::Assembler<'_>) -> u64 = |a| a.canonical_lines();
        read_twice((isa, g, syntax), insts, &[None], bad, |a| a.recalled_lines(), Some(read))
    });
}

/// The least share of printed lines each target's assembler keeps without
/// printing them back the second time it meets them (see
/// [`isa_runtime::Assembler::unprinted_lines`]): what it does now, a little
/// under. ir3's assembler stops reading by remembered texts (see
/// [`RECALL_FLOORS`]).
const UNPRINTED_FLOORS: &[(&str, f64)] = &[("gcn", 0.7), ("agx", 0.25), ("ir3", 0.0), ("rv32i", 0.7)];

/// Lines read by operand texts proven to print as they read are kept
/// without being printed back, with the same answers; each instruction's
/// padded line follows its plain one (a column the printer pads is proven
/// too).
#[test]
fn an_assembler_keeps_lines_proven_to_print_as_they_read_unprinted() {
    let what = "of printed lines kept unprinted the second time";
    each_assembler(8, (2, 1_000), (UNPRINTED_FLOORS, what), |isa, g, syntax, insts, _, bad| {
        read_twice((isa, g, syntax), insts, &[None, Some(true)], bad, |a| a.unprinted_lines(), None)
    });
}

/// Assemblers made from one pool ([`isa_runtime::Lessons`]) give the
/// engine's answers, whichever of them learned a text, and one reads by
/// what another learned: the corpus assembled by a first assembler, the
/// two then looking at the pool, the second keeps unprinted, reading the
/// corpus the first time itself, at least the share one assembler keeps
/// the second time, and more lines than an assembler of its own does the
/// first time (to which the texts are new).
#[test]
fn assemblers_of_one_pool_read_by_what_each_learned() {
    let what = "of printed lines the second assembler of a pool kept unprinted";
    each_assembler(9, (2, 1_000), (UNPRINTED_FLOORS, what), |isa, g, syntax, insts, _, bad| {
        let lessons = isa.lessons(g, syntax);
        let (mut first, mut second) = (lessons.assembler(), lessons.assembler());
        let mut alone = isa.assembler(g, syntax);
        let texts: Vec<String> = insts.iter().map(|i| isa.print_in(i, g, PrintOpts { syntax, pad: None })).collect();
        let mut check = |asm: &mut isa_runtime::Assembler<'_>, line: &str, who: &str| {
            let (want, got) = (isa.assemble_in(line, g, syntax), asm.assemble(line));
            if got != want {
                bad.push(format!("{} gen {g} syntax {syntax} {who} `{line}`: {got:x?}, want {want:x?}", isa.name));
            }
        };
        for line in &texts {
            check(&mut first, line, "first");
        }
        first.exchange();
        second.exchange();
        for line in &texts {
            check(&mut second, line, "second");
            check(&mut alone, line, "alone");
        }
        // Where lines are read by remembered texts at all (see
        // `RECALL_FLOORS`), the pool's made the difference.
        if RECALL_FLOORS.iter().any(|&(t, floor)| t == isa.name && floor > 0.0) {
            let (shared, own) = (second.unprinted_lines(), alone.unprinted_lines());
            assert!(shared > own, "{} gen {g}: {shared} lines unprinted with the pool's texts, {own} alone", isa.name);
        }
        second.unprinted_lines() as f64 / texts.len().max(1) as f64
    });
}

/// Assemblers of one pool on threads of their own, as `isa asm`'s workers
/// run, each over the corpus in an order of its own (printed lines and
/// lines changed a little), exchanging as they go: every answer is the
/// engine's.
#[test]
fn assemblers_of_one_pool_on_several_threads_answer_as_the_engine_does() {
    let isa = &isa_specs::gcn::ISA;
    let g = corpus::gens(isa).into_iter().max().expect("a generation");
    let mut rng = TestRng::new(10);
    let insts = corpus::instructions(isa, g, &mut rng, 1, 500);
    let mut lines: Vec<String> = Vec::new();
    for inst in &insts {
        let text = isa.print_in(inst, g, PrintOpts::default());
        lines.push(mutate(&text, &mut rng));
        lines.push(text);
    }
    let want: Vec<_> = lines.iter().map(|l| isa.assemble_in(l, g, 0)).collect();
    let lessons = isa.lessons(g, 0);
    let bad: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..3usize)
            .map(|k| {
                let (lessons, lines, want) = (&lessons, &lines, &want);
                s.spawn(move || {
                    let mut asm = lessons.assembler();
                    let mut bad = Vec::new();
                    // Each from its own place, so that each meets texts
                    // the others learned, and learns some they meet.
                    let n = lines.len();
                    for i in (0..n).map(|i| (i + k * n / 3) % n) {
                        let got = asm.assemble(&lines[i]);
                        if got != want[i] {
                            bad.push(format!("worker {k} `{}`: {got:x?}, want {:x?}", lines[i], want[i]));
                        }
                    }
                    bad
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker")).collect()
    });
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} answers differ", bad.len());
}

/// GCN GFX8 lines kept unprinted, and lines that differ from the printer's
/// form only where the proof looks (two spaces after the mnemonic, a mask
/// written `0x0f`, a number written with a leading zero), which are
/// printed back, found to differ and read the long way: each to llvm-mc
/// 14's encoding (`llvm-mc -arch=amdgcn -mcpu=tonga -show-encoding`). A
/// register pair where the instruction takes one register, after pairs
/// were remembered, is refused as llvm-mc and `Isa::assemble_in` refuse it.
#[test]
fn an_assembler_keeps_unprinted_only_what_prints_as_it_reads() {
    const LINES: &[(&str, &[u8], bool)] = &[
        ("v_mov_b32_e32 v1, v2", &[0x02, 0x03, 0x02, 0x7e], false),
        ("v_mov_b32_e32 v3, v4", &[0x04, 0x03, 0x06, 0x7e], false),
        ("v_mov_b32_e32 v1, v4", &[0x04, 0x03, 0x02, 0x7e], true),
        ("v_mov_b32_e32  v1, v4", &[0x04, 0x03, 0x02, 0x7e], false),
        (
            "v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xff],
            false,
        ),
        (
            "v_mov_b32_dpp v3, v4 row_shl:1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x06, 0x7e, 0x04, 0x01, 0x01, 0xff],
            false,
        ),
        (
            "v_mov_b32_dpp v1, v4 row_shl:1 row_mask:0xf bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x04, 0x01, 0x01, 0xff],
            true,
        ),
        (
            "v_mov_b32_dpp v1, v4 row_shl:1 row_mask:0x0f bank_mask:0xf",
            &[0xfa, 0x02, 0x02, 0x7e, 0x04, 0x01, 0x01, 0xff],
            false,
        ),
        ("buffer_load_dwordx2 v[1:2], v5, s[4:7], s1 offen", &[0x00, 0x10, 0x54, 0xe0, 0x05, 0x01, 0x01, 0x01], false),
        ("buffer_load_dwordx2 v[3:4], v6, s[8:11], s2 offen", &[0x00, 0x10, 0x54, 0xe0, 0x06, 0x03, 0x02, 0x02], false),
        ("buffer_load_dwordx2 v[1:2], v6, s[8:11], s2 offen", &[0x00, 0x10, 0x54, 0xe0, 0x06, 0x01, 0x02, 0x02], true),
        (
            "buffer_load_dwordx2 v[1:2], v6, s[8:11], s2 offen glc",
            &[0x00, 0x50, 0x54, 0xe0, 0x06, 0x01, 0x02, 0x02],
            true,
        ),
        (
            "buffer_load_dwordx2 v[3:4], v6, s[8:11], s2 offen glc",
            &[0x00, 0x50, 0x54, 0xe0, 0x06, 0x03, 0x02, 0x02],
            true,
        ),
        // A number with a leading zero is octal (LLVM's reading): the
        // printer would not write it so, and it is read the long way.
        ("s_nop 5", &[0x05, 0x00, 0x80, 0xbf], true),
        ("s_nop 3", &[0x03, 0x00, 0x80, 0xbf], true),
        ("s_nop 010", &[0x08, 0x00, 0x80, 0xbf], false),
        ("s_nop 07", &[0x07, 0x00, 0x80, 0xbf], false),
        ("s_nop 0", &[0x00, 0x00, 0x80, 0xbf], true),
    ];
    let isa = &isa_specs::gcn::ISA;
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut asm = isa.assembler(g, 0);
    for &(line, bytes, unprinted) in LINES {
        let want = bytes.iter().rev().fold(0u128, |v, &b| v << 8 | b as u128);
        let before = asm.unprinted_lines();
        assert_eq!(asm.assemble(line), Ok((want, bytes.len() as u32 * 8)), "`{line}`");
        assert_eq!(asm.unprinted_lines() - before, unprinted as u64, "`{line}` kept unprinted");
    }
    let wrong = "buffer_load_dword v[1:2], v6, s[8:11], s2 offen";
    let refused = asm.assemble(wrong);
    assert!(refused.is_err(), "`{wrong}` gave {refused:?}");
    assert_eq!(refused, isa.assemble_in(wrong, g, 0));
}

/// GCN GFX8 lines in the printer's form whose reading once needed more than
/// the templates' text gave, each read the short way to llvm-mc 14's
/// encoding (`llvm-mc -arch=amdgcn -mcpu=tonga -show-encoding`): an operand
/// form whose text names none of its bits (`flat_scratch_hi` is one code
/// of the two its conditions allow), a pair's unnamed low bit beside a
/// length that asks whether a source is the literal's code, `exp` sources
/// chosen by enable bits no text names, a shorter template that is fixed
/// text alone (`v_nop`), and buffer operands read again after a later
/// field failed (the reading goes back over nested operands).
#[test]
fn an_assembler_reads_lines_whose_bits_the_text_leaves_to_conditions() {
    const LINES: &[(&str, &[u8])] = &[
        ("s_mov_b32 flat_scratch_hi, 0x6f6ee1e6", &[0xff, 0x00, 0xe7, 0xbe, 0xe6, 0xe1, 0x6e, 0x6f]),
        ("s_mov_b32 flat_scratch_lo, s5", &[0x05, 0x00, 0xe6, 0xbe]),
        ("v_cmp_gt_i32_e64 flat_scratch, v185, v49", &[0x66, 0x00, 0xc4, 0xd0, 0xb9, 0x63, 0x02, 0x00]),
        ("s_bitset0_b64 flat_scratch, 0x786a66c9", &[0xff, 0x19, 0xe6, 0xbe, 0xc9, 0x66, 0x6a, 0x78]),
        ("s_and_b64 s[26:27], ttmp[4:5], 0xf7f85aea", &[0x74, 0xff, 0x9a, 0x86, 0xea, 0x5a, 0xf8, 0xf7]),
        ("exp mrt1 v245, off, off, v127 done", &[0x19, 0x08, 0x00, 0xc4, 0xf5, 0x00, 0x00, 0x7f]),
        ("exp param9 off, v88, v44, off vm", &[0x96, 0x12, 0x00, 0xc4, 0x00, 0x58, 0x2c, 0x00]),
        ("exp mrtz v99, v99, v86, v86 compr", &[0x8f, 0x04, 0x00, 0xc4, 0x63, 0x56, 0x00, 0x00]),
        ("v_nop row_shr:2 row_mask:0xb bank_mask:0xa bound_ctrl:1", &[0xfa, 0x00, 0x00, 0x7e, 0x00, 0x12, 0x09, 0xba]),
        (
            "buffer_load_dword v213, v182, ttmp[8:11], exec_hi idxen tfe",
            &[0x00, 0x20, 0x50, 0xe0, 0xb6, 0xd5, 0x9e, 0x7f],
        ),
        ("buffer_load_ushort v149, v124, ttmp[8:11], vcc_lo offen", &[0x00, 0x10, 0x48, 0xe0, 0x7c, 0x95, 0x1e, 0x6a]),
    ];
    let isa = &isa_specs::gcn::ISA;
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    // Each line twice: read the long way first, then by the operand texts
    // the first taught.
    let mut asm = isa.assembler(g, 0);
    for pass in 0..2 {
        for &(line, bytes) in LINES {
            let want = bytes.iter().rev().fold(0u128, |v, &b| v << 8 | b as u128);
            let read = asm.canonical_lines();
            assert_eq!(asm.assemble(line), Ok((want, bytes.len() as u32 * 8)), "pass {pass}: `{line}`");
            assert_eq!(asm.canonical_lines(), read + 1, "pass {pass}: `{line}` is read the short way");
        }
    }
}

/// A line that would set a bit the hardware ignores (an address without
/// `offen` or `idxen`, `tfe` beside `lds`) is refused, as `Isa::assemble_in`
/// refuses it, also when every text in it is one an earlier line taught
/// the assembler. Each accepted line is held to llvm-mc 14's encoding and
/// each refused one is refused by llvm-mc too (`llvm-mc -arch=amdgcn
/// -mcpu=tonga -show-encoding`). (Lines whose bits the short way would
/// keep but for that check are AGX's, among the random corpus above.)
#[test]
fn an_assembler_refuses_text_that_sets_a_bit_the_hardware_ignores() {
    const LINES: &[(&str, Option<&[u8]>)] = &[
        ("buffer_load_dword v1, v2, s[4:7], s1 offen", Some(&[0x00, 0x10, 0x50, 0xe0, 0x02, 0x01, 0x01, 0x01])),
        ("buffer_load_dword v1, off, s[4:7], s1", Some(&[0x00, 0x00, 0x50, 0xe0, 0x00, 0x01, 0x01, 0x01])),
        ("buffer_load_dword v1, v2, s[4:7], s1", None),
        ("buffer_load_dword v1, v2, s[4:7], s1 offen lds", Some(&[0x00, 0x10, 0x51, 0xe0, 0x02, 0x01, 0x01, 0x01])),
        ("buffer_load_dword v1, v2, s[4:7], s1 offen tfe lds", None),
        ("buffer_store_dword v1, v2, s[4:7], s1 offen tfe", Some(&[0x00, 0x10, 0x70, 0xe0, 0x02, 0x01, 0x81, 0x01])),
        ("buffer_store_dword v1, off, s[4:7], s1", Some(&[0x00, 0x00, 0x70, 0xe0, 0x00, 0x01, 0x01, 0x01])),
        ("buffer_store_dword v1, v2, s[4:7], s1", None),
    ];
    let isa = &isa_specs::gcn::ISA;
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut asm = isa.assembler(g, 0);
    // Twice: the second time every text is one the first taught.
    for pass in 0..2 {
        for &(line, bytes) in LINES {
            let got = asm.assemble(line);
            assert_eq!(got, isa.assemble_in(line, g, 0), "pass {pass}: `{line}`");
            match bytes {
                Some(bytes) => {
                    let want = bytes.iter().rev().fold(0u128, |v, &b| v << 8 | b as u128);
                    assert_eq!(got, Ok((want, bytes.len() as u32 * 8)), "pass {pass}: `{line}`");
                }
                None => {
                    let e = got.expect_err(line).to_string();
                    assert!(e.contains("has no effect"), "pass {pass}: `{line}`: {e}");
                }
            }
        }
    }
    assert!(asm.recalled_lines() >= 5, "the accepted lines are read by their texts the second time");
}

/// Numbers in texts of a shape met before (a literal dword, `0x#`; a DS
/// offset, ` offset:#`) are read by putting each line's own number where
/// the first line's went, and held to llvm-mc 14's encodings
/// (`llvm-mc -arch=amdgcn -mcpu=tonga -show-encoding`). A number its form
/// refuses is no guess kept: `0x40` is the inline constant 64, as llvm-mc
/// reads it, and an offset past 16 bits is the error `Isa::assemble_in`
/// gives (llvm-mc too refuses it).
#[test]
fn an_assembler_reads_numbers_by_the_shape_of_their_text() {
    const LINES: &[(&str, &[u8])] = &[
        ("v_trunc_f32_e32 v1, 0x3f30a863", &[0xff, 0x38, 0x02, 0x7e, 0x63, 0xa8, 0x30, 0x3f]),
        ("v_trunc_f32_e32 v2, 0x12345678", &[0xff, 0x38, 0x04, 0x7e, 0x78, 0x56, 0x34, 0x12]),
        ("v_trunc_f32_e32 v3, 0xd047bcbc", &[0xff, 0x38, 0x06, 0x7e, 0xbc, 0xbc, 0x47, 0xd0]),
        ("v_trunc_f32_e32 v4, 0x40", &[0xc0, 0x38, 0x08, 0x7e]),
        ("ds_write_b32 v1, v2 offset:19052", &[0x6c, 0x4a, 0x1a, 0xd8, 0x01, 0x02, 0x00, 0x00]),
        ("ds_write_b32 v3, v4 offset:26", &[0x1a, 0x00, 0x1a, 0xd8, 0x03, 0x04, 0x00, 0x00]),
        ("s_add_u32 s1, s2, 0x9abcdef0", &[0x02, 0xff, 0x01, 0x80, 0xf0, 0xde, 0xbc, 0x9a]),
        ("s_add_u32 s3, s4, 0x1234", &[0x04, 0xff, 0x03, 0x80, 0x34, 0x12, 0x00, 0x00]),
    ];
    let isa = &isa_specs::gcn::ISA;
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut asm = isa.assembler(g, 0);
    for &(line, bytes) in LINES {
        let want = bytes.iter().rev().fold(0u128, |v, &b| v << 8 | b as u128);
        assert_eq!(asm.assemble(line), Ok((want, bytes.len() as u32 * 8)), "`{line}`");
    }
    // The second and third literal, the second offset and the second
    // scalar literal: their shapes were met, their texts were not.
    assert_eq!(asm.shaped_operands(), 4);
    let wide = "ds_write_b32 v3, v4 offset:70000";
    let refused = asm.assemble(wide);
    assert!(refused.is_err(), "`{wide}` gave {refused:?}");
    assert_eq!(refused, isa.assemble_in(wide, g, 0));
}
