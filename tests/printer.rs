//! A [`isa_runtime::Printer`], which remembers operand texts from one
//! instruction to the next, prints exactly what `Isa::print_with` prints: for
//! random instructions of every opcode and random words that decode, in every
//! generation and syntax, padded or not, one printer over the whole run (so
//! operands are remembered under one instruction and reused under another).

use isa_runtime::{PrintOpts, TestRng};

#[path = "support/corpus.rs"]
mod corpus;

#[test]
fn a_printer_prints_what_the_engine_prints() {
    let mut rng = TestRng::new(11);
    let mut bad = Vec::new();
    let mut remembered = 0;
    for isa in isa_specs::TARGETS {
        for g in corpus::gens(isa) {
            let insts = corpus::instructions(isa, g, &mut rng, 6, 3_000);
            for syntax in 0..isa.syntaxes.len().max(1) as u16 {
                for pad in [None, Some(true)] {
                    let opts = PrintOpts { syntax, pad };
                    let mut printer = isa.printer(g, opts);
                    let (mut want, mut got) = (String::new(), String::new());
                    // Twice over: the second pass prints from what the first remembered.
                    for inst in insts.iter().chain(&insts) {
                        want.clear();
                        got.clear();
                        isa.print_with(inst, g, opts, &mut want);
                        printer.print_to(inst, &mut got);
                        if want != got {
                            bad.push(format!("{} gen {g} syntax {syntax} {inst:x?}: `{got}`, want `{want}`", isa.name));
                        }
                    }
                    remembered += printer.hits();
                }
            }
        }
    }
    for b in bad.iter().take(30) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} texts differ", bad.len());
    assert!(remembered > 1000, "the printers found only {remembered} operand texts in memory");
}

/// An operand is remembered under the parameters its text reads for its
/// word: a scalar register beside a literal is one key whatever the literal
/// (GCN passes the literal to every scalar source, and only the literal's
/// form prints it), so the second line finds both registers.
#[test]
fn a_register_beside_a_literal_is_remembered_whatever_the_literal() {
    let isa = isa_specs::target("gcn").expect("the GCN target");
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut printer = isa.printer(g, PrintOpts::default());
    let mut out = String::new();
    let first = isa.parse("s_add_u32 s0, s1, 0x12345", g).expect("assembles");
    let second = isa.parse("s_add_u32 s0, s1, 0x54321", g).expect("assembles");
    printer.print_to(&first, &mut out);
    let before = printer.hits();
    out.clear();
    printer.print_to(&second, &mut out);
    assert_eq!(out, "s_add_u32 s0, s1, 0x54321");
    assert_eq!(printer.hits() - before, 2, "s0 and s1 found; the new literal printed");
}

/// An operand whose text reads a parameter too wide to remember (a literal
/// dword) is printed from the template of the value's interval among the
/// constants its forms compare it with, or from the tables (its form
/// searched for from where the search for the same word and parameters
/// ended before) when that is not noted yet; it prints what the tables
/// print, whichever operand widths and precisions come in turn, for the
/// inline constants' values, their neighbours and random values.
#[test]
fn a_literal_prints_the_same_when_its_form_search_resumes() {
    let isa = isa_specs::target("gcn").expect("the GCN target");
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut printer = isa.printer(g, PrintOpts::default());
    // A 32-bit, a 16-bit and a 64-bit operand's literal, a scalar
    // instruction's, and one in the second source.
    let bases: Vec<_> = [
        "v_add_f32_e32 v1, 0x12345678, v2",
        "v_add_f16_e32 v1, 0x6eb7, v2",
        "v_cvt_f32_f64_e32 v2, 0x4a7b25ed",
        "s_mov_b64 flat_scratch, 0x3d4cdc64",
        "s_add_u32 s1, 4.0, 0x7441c854",
    ]
    .iter()
    .map(|text| (text, isa.parse(text, g).expect("assembles")))
    .collect();
    // The inline constants' values and their neighbours (whose literals do
    // not decode, or print as something else), then random ones.
    let mut values: Vec<u128> = (0..80).chain(0xffff_ffe0..=0xffff_ffff).chain(0xffe0..0x10000).collect();
    for v in [0x3f00_0000u128, 0xbf00_0000, 0x3f80_0000, 0xbf80_0000, 0x4000_0000, 0xc000_0000, 0x4080_0000] {
        values.extend([v - 1, v, v + 1]);
    }
    values.extend([0x3e22_f983, 0x3800, 0xb800, 0x3c00, 0x3118, 0x4400, 0xc400]);
    let mut rng = TestRng::new(9);
    values.extend((0..20_000).map(|_| rng.next_u64() as u128 & 0xffff_ffff));
    let (mut want, mut got, mut decoded) = (String::new(), String::new(), 0);
    for &v in &values {
        for (text, base) in &bases {
            let Ok(inst) = isa.decode(base.bits & !(0xffff_ffff << 32) | v << 32, g) else { continue };
            decoded += 1;
            want.clear();
            got.clear();
            isa.print_with(&inst, g, PrintOpts::default(), &mut want);
            printer.print_to(&inst, &mut got);
            assert_eq!(got, want, "{text} with literal {v:#x}");
        }
    }
    assert!(decoded > 90_000, "{decoded} decoded");
    // A literal operand is printed from the template of its value's
    // interval, once that is noted (an interval of the inline constants'
    // neighbourhoods holds a value or two); noting one resumes the search
    // for its form where an earlier one ended.
    let (templated, resumed) = (printer.templated(), printer.form_searches_resumed());
    assert!(templated > 85_000, "{templated} printed from templates");
    assert!(resumed > 0 && templated + resumed > 90_000, "{resumed} form searches resumed");
}

/// An operand the printer cannot remember but whose form is text and bit
/// fields of its own word (a DS offset: `offset:N`, or nothing for 0) is
/// printed from the form's pieces, and prints what the tables print for
/// every value of the word.
#[test]
fn an_operand_form_of_text_and_bit_fields_prints_from_its_pieces() {
    let isa = isa_specs::target("gcn").expect("the GCN target");
    let g = isa.gen_by_name("gfx8").expect("gfx8");
    let mut printer = isa.printer(g, PrintOpts::default());
    let (mut want, mut got) = (String::new(), String::new());
    for text in ["ds_write_b32 v1, v2 offset:4", "ds_read2_b32 v[2:3], v1 offset0:1 offset1:2"] {
        let base = isa.parse(text, g).expect("assembles");
        // The offsets are the word's low 16 bits in both encodings.
        for offset in 0..1u128 << 16 {
            let inst = isa.decode(base.bits & !0xffff | offset, g).expect("every offset decodes");
            want.clear();
            got.clear();
            isa.print_with(&inst, g, PrintOpts::default(), &mut want);
            printer.print_to(&inst, &mut got);
            assert_eq!(got, want, "{text} with offset bits {offset:#x}");
        }
    }
    // The 16-bit offset's 65,535 non-zero texts do not fit the printer's
    // memory; the two 8-bit ones do, once each.
    assert!(printer.forms_printed() > 60_000, "{} printed from pieces", printer.forms_printed());
}
