//! Spec-language features on small fixture specs: each spec is loaded through
//! the generator and its tables exercised with the engine, as `isa!` would.

use std::path::PathBuf;

use isa_runtime::Isa;

/// Writes `yaml` to a fresh file and loads it as a target.
fn load(name: &str, yaml: &str) -> &'static Isa {
    load_spec(name, yaml).isa
}

/// Writes `yaml` as `isa.yaml` in a fresh folder named for `name`.
fn write_spec(name: &str, yaml: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("isagen-features-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("isa.yaml");
    std::fs::write(&path, yaml).unwrap();
    path
}

fn load_spec(name: &str, yaml: &str) -> isa_codegen::Spec {
    match isa_codegen::load(&write_spec(name, yaml)) {
        Ok(spec) => spec,
        Err(d) => panic!("{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

/// Writes `yaml` to a fresh file and returns the loader's diagnostics as text.
fn load_err(name: &str, yaml: &str) -> Vec<String> {
    match isa_codegen::load(&write_spec(name, yaml)) {
        Ok(_) => panic!("{name} loads"),
        Err(d) => d.iter().map(|d| d.to_string()).collect(),
    }
}

/// A 32-bit encoding that grows a 32-bit literal when its source says 255, the
/// shape of GCN's scalar ALU.
const LITERAL: &str = r#"
isa: lit
instruction: op
bitsets:
  src:
    size: 8
    params:
      LIT: {type: hex}
  src-reg:
    extends: src
    fields: {N: {bits: 0..6, type: uint}}
    pattern: {7: "0"}
    display: "s{N}"
  src-int:
    extends: src
    fields: {V: {bits: 0..6, type: uint}}
    pattern: {7: "1"}
    display: "{V}"
  src-lit:
    extends: src
    pattern: {0..7: "11111111"}
    priority: 1
    display: "0x{LIT}"
  op:
    size: 64
    length: {expr: "SRC == 255 ? 64 : 32", min: 32}
    fields:
      SRC: {bits: 0..7, type: src, params: {LIT: LITERAL}}
      DST: {bits: 8..15, type: uint}
      OPC: {bits: 16..31, type: uint}
      LITERAL: {bits: 32..63, type: hex}
    display: "{NAME}{?_e32} s{DST}, {SRC}"
instructions:
  - {extends: op, field: OPC, opcodes: {mov: 1}}
"#;

#[test]
fn trailing_literal_is_chosen_by_the_operand() {
    let isa = load("literal", LITERAL);
    // Register source: 4 bytes; the next instruction's bits are not part of it.
    let inst = isa.decode(0xdead_beef_0001_0203, 0).unwrap();
    assert_eq!(inst.len, 4);
    assert_eq!(inst.bits, 0x0001_0203);
    assert_eq!(isa.print(&inst, 0), "mov_e32 s2, s3");
    // Literal source: 8 bytes, the literal printed by the operand.
    let inst = isa.decode(0x1234_5678_0001_02ff, 0).unwrap();
    assert_eq!(inst.len, 8);
    assert_eq!(isa.print(&inst, 0), "mov_e32 s2, 0x12345678");
    // Assembling picks the length from the operand; the suffix is optional.
    assert_eq!(isa.assemble("mov s2, 0x12345678", 0).unwrap(), (0x1234_5678_0001_02ff, 64));
    assert_eq!(isa.assemble("mov_e32 s2, 5", 0).unwrap(), (0x0001_0285, 32));
    assert_eq!(isa.assemble("mov s2, s3", 0).unwrap(), (0x0001_0203, 32));
    // Too few bytes for the literal form.
    let err = isa.decode_bytes(&[0xff, 0x02, 0x01, 0x00, 0x78], 0).unwrap_err();
    assert_eq!(err, isa_runtime::DecodeError::Truncated { have: 5, need: 8 });
    let (inst, len) = isa.decode_bytes(&[0x03, 0x02, 0x01, 0x00, 0xaa], 0).unwrap();
    assert_eq!((inst.bits, len), (0x0001_0203, 4));
}

/// Float formats chosen by an expression: a literal source of single or double
/// precision (the double keeps its high half), and an inline constant that any
/// spelling of its value selects.
const FLOAT_FORMATS: &str = r#"
isa: flt
instruction: op
enums:
  half-one: {0: "0.5", 1: "1.0"}
bitsets:
  src:
    size: 8
    params:
      W: {type: uint}
      LIT: {type: hexlit, float: "W == 2 ? 64 : 32"}
  src-inline:
    extends: src
    pattern: {1..7: "1111000"}
    fields: {F: {bits: 0, type: half-one}}
    display: "{F}"
    accepts:
      - {display: "{B}", fields: {B: {expr: "W == 2 ? (1022 + F) << 52 : (126 + F) << 23", type: float, float: "W == 2 ? 64 : 32"}}}
  src-lit:
    extends: src
    pattern: {0..7: "11111111"}
    priority: -1
    display: "{LIT}"
  op:
    size: 64
    length: {expr: "SRC == 255 ? 64 : 32", min: 32}
    pattern: {8..15: "00000000"}
    fields:
      SRC: {bits: 0..7, type: src, params: {W: W, LIT: LITERAL}}
      OPC: {bits: 16..31, type: uint}
      LITERAL: {bits: 32..63, type: hexlit}
    display: "{NAME} {SRC}"
instructions:
  - {extends: op, field: OPC, fields: {W: {expr: 1, type: uint}}, opcodes: {mov32: 1}}
  - {extends: op, field: OPC, fields: {W: {expr: 2, type: uint}}, opcodes: {mov64: 2}}
"#;

#[test]
fn float_formats_follow_the_operand() {
    let isa = load("float-formats", FLOAT_FORMATS);
    // Single precision: -3.1415 rounds to 0xc0490e56.
    assert_eq!(isa.assemble("mov32 -3.1415", 0).unwrap(), (0xc049_0e56_0001_00ff, 64));
    // Double precision: the literal is the high half of 0xc00921cac083126f.
    assert_eq!(isa.assemble("mov64 -3.1415", 0).unwrap(), (0xc009_21ca_0002_00ff, 64));
    // Printed back as the raw literal.
    assert_eq!(isa.print(&isa.decode(0xc009_21ca_0002_00ff, 0).unwrap(), 0), "mov64 0xc00921ca");
    // An integer stays an integer.
    assert_eq!(isa.assemble("mov64 100", 0).unwrap(), (0x0000_0064_0002_00ff, 64));
    // Any spelling of an inline value is the inline code, at the operand's precision.
    for text in ["mov32 1.0", "mov32 1.00", "mov32 0x3f800000"] {
        assert_eq!(isa.assemble(text, 0).unwrap(), (0x0001_00f1, 32), "{text}");
    }
    assert_eq!(isa.assemble("mov64 0x3ff0000000000000", 0).unwrap(), (0x0002_00f1, 32));
    assert_eq!(isa.assemble("mov64 0.50", 0).unwrap(), (0x0002_00f0, 32));
    // 0x3f800000 is no inline double: a literal.
    assert_eq!(isa.assemble("mov64 0x3f800000", 0).unwrap(), (0x3f80_0000_0002_00ff, 64));
    // Past single precision's range: refused, not turned into infinity.
    assert!(isa.assemble("mov32 1e39", 0).is_err());
    assert_eq!(isa.assemble("mov64 1e39", 0).unwrap().0 >> 32, u128::from(1e39f64.to_bits() >> 32));
}

#[test]
fn a_float_format_belongs_to_a_float_or_literal() {
    let dir = std::env::temp_dir().join(format!("isagen-features-{}-floatfmt", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("isa.yaml");
    std::fs::write(
        &path,
        FLOAT_FORMATS.replace("OPC: {bits: 16..31, type: uint}", "OPC: {bits: 16..31, type: uint, float: 32}"),
    )
    .unwrap();
    let Err(d) = isa_codegen::load(&path) else { panic!("loads a float format on a uint") };
    let text: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("isa.yaml:") && t.contains("`float:` gives the format of a `float` or `hexlit`")),
        "{text:?}"
    );
}

/// LLVM's comma rules, as an option: a comma may be left out between
/// operands, written for a space, or trail the line.
#[test]
fn optional_commas() {
    let strict = load("literal-strict", LITERAL);
    let loose =
        load("literal-loose", &LITERAL.replace("instruction: op\n", "instruction: op\noptional-commas: true\n"));
    assert!(loose.optional_commas && !strict.optional_commas);
    let want = (0x0001_0203, 32);
    for text in ["mov s2, s3", "mov s2,s3", "mov s2 s3", "mov s2  s3", "mov s2, s3,", "mov s2 s3 ,"] {
        assert_eq!(loose.assemble(text, 0).unwrap(), want, "{text}");
    }
    // Not for the space after the mnemonic (llvm-mc refuses `s_mov_b32, s0, s1`).
    for text in ["mov s2s3", "mov s2,, s3", "mov s2, s3,,", "mov, s2, s3", "mov ,s2, s3"] {
        assert!(loose.assemble(text, 0).is_err(), "{text}");
    }
    for text in ["mov s2 s3", "mov s2, s3,"] {
        assert!(strict.assemble(text, 0).is_err(), "{text}");
    }
    // Printing keeps the template's text.
    assert_eq!(loose.print(&loose.decode(0x0001_0203, 0).unwrap(), 0), "mov_e32 s2, s3");
}

/// LLVM's octal numbers, as an option: a leading 0 makes a number that
/// stands alone octal, in values and expressions alike; `0x` stays
/// hexadecimal, and a register's number (glued to its name) stays decimal.
#[test]
fn octal_numbers() {
    let decimal = load("literal-decimal", LITERAL);
    let octal = load("literal-octal", &LITERAL.replace("instruction: op\n", "instruction: op\noctal-numbers: true\n"));
    assert!(octal.octal_numbers && !decimal.octal_numbers);
    // The inline 017 is 15 (code 0x80 | 15), or 17; s010 is s10 either way.
    assert_eq!(octal.assemble("mov s010, 017", 0).unwrap(), (0x0001_0a8f, 32));
    assert_eq!(decimal.assemble("mov s010, 017", 0).unwrap(), (0x0001_0a91, 32));
    assert_eq!(octal.assemble("mov s16, 010+1", 0).unwrap(), (0x0001_1089, 32));
    assert!(octal.assemble("mov s1, 09", 0).is_err(), "9 is no octal digit");
    assert_eq!(decimal.assemble("mov s1, 09", 0).unwrap(), (0x0001_0189, 32));
}

/// LLVM's binary numbers, as an option: `0b` (or `0B`) and binary digits
/// make a number that stands alone binary, in values and expressions alike;
/// without the option `0b1111` is the number 0 and then text, and a
/// register's number (glued to its name) stays decimal.
#[test]
fn binary_numbers() {
    let plain = load("literal-plain-binary", LITERAL);
    let binary =
        load("literal-binary", &LITERAL.replace("instruction: op\n", "instruction: op\nbinary-numbers: true\n"));
    assert!(binary.binary_numbers && !plain.binary_numbers);
    // The inline 0b1111 is 15 (code 0x80 | 15).
    assert_eq!(binary.assemble("mov s10, 0b1111", 0).unwrap(), (0x0001_0a8f, 32));
    assert_eq!(binary.assemble("mov s10, 0B1111", 0).unwrap(), (0x0001_0a8f, 32));
    assert_eq!(binary.assemble("mov s16, 0b1000+1", 0).unwrap(), (0x0001_1089, 32));
    assert!(plain.assemble("mov s10, 0b1111", 0).is_err(), "0, then text");
    assert!(binary.assemble("mov s10, 0b2", 0).is_err(), "2 is no binary digit");
    assert!(binary.assemble("mov s0b1, 0", 0).is_err(), "a register's number is decimal");
}

/// LLVM's register indices in brackets, as an option: `s[2]` and
/// `s[(1+3)/2]` read as `s2` after a listed name, and only there.
#[test]
fn bracketed_indices() {
    let plain = load("literal-plain", LITERAL);
    let spec = LITERAL.replace("instruction: op\n", "instruction: op\nbracketed-indices: [s]\n");
    let isa = load("literal-brackets", &spec);
    assert_eq!(isa.bracketed_indices, ["s"]);
    let want = (0x0001_0203, 32);
    for text in ["mov s2, s3", "mov s[2], s3", "mov s2, s[3]", "mov s[(1+3)/2], s[1+2]", "mov s[0x2], s[3]"] {
        assert_eq!(isa.assemble(text, 0).unwrap(), want, "{text}");
    }
    // A number alone, in brackets, is not a register; an unclosed or empty
    // bracket is refused; without the option, brackets are not read.
    for text in ["mov s2, [3]", "mov s[2, s3", "mov s[], s3", "mov s[2:3], s3", "mov s [2], s3"] {
        assert!(isa.assemble(text, 0).is_err(), "{text}");
    }
    assert!(plain.assemble("mov s[2], s3", 0).is_err());
    assert_eq!(plain.assemble("mov s2, s3", 0).unwrap(), want);
    // Printing keeps the template's text.
    assert_eq!(isa.print(&isa.decode(0x0001_0203, 0).unwrap(), 0), "mov_e32 s2, s3");
    // A name that is not a register name is refused where it is given.
    let d = load_err(
        "bad-brackets",
        &LITERAL.replace("instruction: op\n", "instruction: op\nbracketed-indices: [\"v[\"]\n"),
    );
    assert!(d.iter().any(|t| t.contains("bracketed-indices: `v[` is not a register name")), "{d:?}");
}

/// Flags before a mnemonic, as Mesa's ir3 writes them: `(x)`, `(y)` and a
/// repeat count listed in `any-order:`, `(z)` not.
const FLAGS: &str = r#"
isa: flags
instruction: op
any-order: [X, Y, R]
bitsets:
  op:
    size: 16
    fields:
      X: {bits: 0, type: bool, display: "(x)"}
      Y: {bits: 1, type: bool, display: "(y)"}
      R: {bits: 2..3, type: rpt}
      Z: {bits: 4, type: bool, display: "(z)"}
      OPC: {bits: 5..15, type: uint}
    display: "{X}{Y}{R}{Z}{NAME}"
enums:
  rpt: {0: "", 1: "(r1)", 2: "(r2)", 3: "(r3)"}
instructions:
  - {extends: op, field: OPC, opcodes: {nop: 1}}
"#;

/// Fields listed in `any-order:` standing side by side in a template are
/// read in any order, each once; the printer keeps the template's order.
#[test]
fn fields_side_by_side_read_in_any_order() {
    let isa = load("any-order", FLAGS);
    assert_eq!(isa.any_order, ["X", "Y", "R"]);
    let printed = [(0x20, "nop"), (0x21, "(x)nop"), (0x2b, "(x)(y)(r2)nop"), (0x3e, "(y)(r3)(z)nop")];
    for (bits, text) in printed {
        assert_eq!(isa.print(&isa.decode(bits, 0).unwrap(), 0), text);
        assert_eq!(isa.assemble(text, 0).unwrap(), (bits, 16), "{text}");
    }
    let reordered = [
        ("(y)(x)nop", 0x23),
        ("(r2)(x)(y)nop", 0x2b),
        ("(y)(r2)(x)nop", 0x2b),
        ("(r1)(y)nop", 0x26),
        ("(r3)(y)(z)nop", 0x3e),
    ];
    for (text, bits) in reordered {
        assert_eq!(isa.assemble(text, 0).unwrap(), (bits, 16), "{text}");
    }
    // `(z)` is not listed: it stays after the run. A flag written twice is
    // named; two repeat counts are refused.
    for text in ["(z)(x)nop", "(x)(z)(y)nop", "(r1)(r2)nop"] {
        assert!(isa.assemble(text, 0).is_err(), "{text}");
    }
    let twice = isa.assemble("(x)(y)(x)nop", 0).unwrap_err().to_string();
    assert!(twice.contains("column 7: `(x)` is written twice"), "{twice}");
    // Without the option, the template's order only.
    let plain = load("any-order-plain", &FLAGS.replace("any-order: [X, Y, R]\n", ""));
    assert!(plain.assemble("(y)(x)nop", 0).is_err());
    assert_eq!(plain.assemble("(x)(y)nop", 0).unwrap(), (0x23, 16));
}

#[test]
fn any_order_names_fields_that_exist_once() {
    let d = load_err("any-order-unknown", &FLAGS.replace("[X, Y, R]", "[X, W, Y, X]"));
    assert!(d.iter().any(|t| t.contains("any-order: no bitset has a field `W`")), "{d:?}");
    assert!(d.iter().any(|t| t.contains("any-order: `X` is listed twice")), "{d:?}");
}

/// A set of named bits: printed lowest bit first, read in any order.
const SETS: &str = r#"
isa: sets
instruction: op
bitsets:
  op:
    size: 16
    fields:
      M: {bits: 0..3, type: mode}
      OPC: {bits: 4..15, type: uint}
    display: "{NAME} {M}"
sets:
  mode: {open: "m(", separator: ",", close: ")", bits: {3: D, 0: A, 1: B}}
instructions:
  - {extends: op, field: OPC, opcodes: {setm: 1}}
"#;

#[test]
fn sets_of_named_bits() {
    let isa = load("sets", SETS);
    for (bits, text) in [(0x10, "setm m()"), (0x13, "setm m(A,B)"), (0x19, "setm m(A,D)"), (0x1b, "setm m(A,B,D)")] {
        assert_eq!(isa.print(&isa.decode(bits, 0).unwrap(), 0), text);
        assert_eq!(isa.assemble(text, 0).unwrap(), (bits, 16), "{text}");
    }
    for text in ["setm m(D,A)", "setm m( D , A )", "setm m(A,D)"] {
        assert_eq!(isa.assemble(text, 0).unwrap(), (0x19, 16), "{text}");
    }
    assert_eq!(isa.assemble("setm m(D,B,A)", 0).unwrap(), (0x1b, 16));
    // A name twice, a name the set lacks, a stray separator.
    for text in ["setm m(A,A)", "setm m(C)", "setm m(A,)", "setm m(A B)", "setm m(A"] {
        assert!(isa.assemble(text, 0).is_err(), "{text}");
    }
    // Bit 2 has no name: a word setting it is not an instruction.
    assert!(isa.decode(0x14, 0).is_err());
}

#[test]
fn a_bad_set_is_reported_where_it_is() {
    // (text to replace, its replacement, the message, where it is reported)
    let bad = [
        ("bits: {3: D, 0: A, 1: B}", "bits: {3: D, 0: A, 1: D}", "set `mode`: two bits are named `D`", 12),
        (
            "bits: {3: D, 0: A, 1: B}",
            "bits: {3: D, 0: A, 1: \"B,C\"}",
            "the name `B,C` holds `,`, which ends a name",
            12,
        ),
        ("bits: {3: D, 0: A, 1: B}", "bits: {3: D, 0: A, 64: B}", "set `mode`: bit 64 is past bit 63", 12),
        (
            "bits: {3: D, 0: A, 1: B}",
            "bits: {0: A, 1: B, 2: C, 3: D, 4: E, 5: F, 6: G, 7: H, 8: I}",
            "9 names would make 512 values; a set has at most 8 names",
            12,
        ),
        ("separator: \",\"", "separator: \"\"", "`separator:` and `close:` must not be empty", 12),
        ("\nsets:\n", "\nenums:\n  mode: {0: x}\nsets:\n", "`mode` is defined twice (as an enum or a set)", 14),
    ];
    for (i, (from, to, want, line)) in bad.into_iter().enumerate() {
        assert!(SETS.contains(from), "{from}");
        let d = load_err(&format!("bad-set-{i}"), &SETS.replace(from, to));
        let at = format!("isa.yaml:{line}:");
        assert!(d.iter().any(|t| t.contains(&at) && t.contains(want)), "{want}: {d:?}");
        // The set's name stays known: no second error where it is used.
        assert!(!d.iter().any(|t| t.contains("unknown type")), "{d:?}");
    }
}

/// An enum value read by other texts too (`enum-accepts:`), which the
/// printer never writes: GCN's output modifier, as llvm-mc reads it.
const ENUM_ACCEPTS: &str = r#"
isa: omods
instruction: op
bitsets:
  op:
    size: 16
    fields:
      M: {bits: 0..1, type: omod}
      OPC: {bits: 2..15, type: uint}
    display: "{NAME} x{M}"
enums:
  omod: {0: "", 1: " mul:2", 3: " div:2"}
enum-accepts:
  omod: {0: [" mul:1", " div:1"]}
instructions:
  - {extends: op, field: OPC, opcodes: {scale: 1}}
"#;

#[test]
fn enum_values_read_by_other_texts() {
    let isa = load("enum-accepts", ENUM_ACCEPTS);
    for (text, bits) in [("scale x", 0x4), ("scale x mul:1", 0x4), ("scale x div:1", 0x4), ("scale x div:2", 0x7)] {
        assert_eq!(isa.assemble(text, 0).unwrap(), (bits, 16), "{text}");
        let mut asm = isa.assembler(0, 0);
        assert_eq!(asm.assemble(text).unwrap(), (bits, 16), "{text}, by an assembler");
    }
    // The printer writes the display alone.
    assert_eq!(isa.print(&isa.decode(0x4, 0).unwrap(), 0), "scale x");
    assert!(isa.assemble("scale x mul:3", 0).is_err());
}

#[test]
fn a_bad_enum_accepts_is_reported_where_it_is() {
    // (text to replace, its replacement, the message, where it is reported)
    let bad = [
        ("omod: {0: [\" mul:1\"", "omdo: {0: [\" mul:1\"", "enum-accepts: there is no enum `omdo`", 14),
        ("{0: [\" mul:1\", \" div:1\"]}", "{2: [\" mul:4\"]}", "enum `omod` has no value 2", 14),
        ("{0: [\" mul:1\", \" div:1\"]}", "{0: [\" div:2\"]}", "could not tell 3 and 0 apart", 14),
        ("{0: [\" mul:1\", \" div:1\"]}", "{0: [\" mul:1\", \" mul:1\"]}", "value 0 reads \" mul:1\" already", 14),
    ];
    for (i, (from, to, want, line)) in bad.into_iter().enumerate() {
        assert!(ENUM_ACCEPTS.contains(from), "{from}");
        let d = load_err(&format!("bad-enum-accepts-{i}"), &ENUM_ACCEPTS.replace(from, to));
        let at = format!("isa.yaml:{line}:");
        assert!(d.iter().any(|t| t.contains(&at) && t.contains(want)), "{want}: {d:?}");
    }
}

/// A length bit: the short form unless an operand needs the long one (AGX-like).
const LENGTH_BIT: &str = r#"
isa: lbit
instruction: op
bitsets:
  op:
    size: 32
    length: {expr: "L ? 32 : 16", min: 16}
    fields:
      OPC: {bits: 0..6, type: uint}
      L: {bits: 7, type: bool}
      A: {bits: [24..27, 8..11], type: uint}
      B: {bits: [28..31, 12..15], type: uint}
      X: {bits: 16..23, type: uint}
    ignore: [{bits: 16..23}]
    display: "{NAME} r{A}, r{B}"
instructions:
  - {extends: op, field: OPC, opcodes: {add: 3}}
"#;

#[test]
fn the_shortest_form_that_holds_the_operands_is_chosen() {
    let isa = load("lbit", LENGTH_BIT);
    assert_eq!(isa.assemble("add r1, r2", 0).unwrap(), (0x2103, 16));
    // r17 needs the high bits in the second half word, so the long form.
    assert_eq!(isa.assemble("add r17, r2", 0).unwrap(), (0x0100_2183, 32));
    let inst = isa.decode(0x0100_2183, 0).unwrap();
    assert_eq!((inst.len, isa.print(&inst, 0).as_str()), (4, "add r17, r2"));
}

const PER_GEN: &str = r#"
isa: pergen
instruction: op
generations:
  - {name: gfx6, value: 6, aliases: [tahiti]}
  - {name: gfx7, value: 7}
  - {name: gfx8, value: 8, aliases: [tonga]}
bitsets:
  op:
    size: 8
    fields:
      OPC: {bits: 0..7, type: uint}
    display: "{NAME}"
instructions:
  - extends: op
    field: OPC
    opcodes:
      s_mov: {gfx6: 3, gfx8: 0}
      s_old: {gfx6: 9, gfx8: ~}
      s_new: {gfx8: 5}
      s_same: 7
"#;

#[test]
fn opcode_numbers_per_generation() {
    let isa = load("pergen", PER_GEN);
    let text = |w: u128, g: u32| isa.decode(w, g).map(|i| isa.print(&i, g)).ok();
    assert_eq!(text(3, 6).as_deref(), Some("s_mov"));
    assert_eq!(text(3, 7).as_deref(), Some("s_mov"));
    assert_eq!(text(3, 8), None);
    assert_eq!(text(0, 8).as_deref(), Some("s_mov"));
    assert_eq!(text(9, 7).as_deref(), Some("s_old"));
    assert_eq!(text(9, 8), None);
    assert_eq!(text(5, 7), None);
    assert_eq!(text(5, 8).as_deref(), Some("s_new"));
    assert_eq!(text(7, 6).as_deref(), Some("s_same"));
    assert_eq!(isa.gen_by_name("tonga"), Some(8));
    assert_eq!(isa.assemble("s_mov", 8).unwrap(), (0, 8));
    assert_eq!(isa.assemble("s_mov", 6).unwrap(), (3, 8));
    assert!(isa.assemble("s_new", 6).is_err());
    // One leaf per generation range, each keyed by where it starts.
    assert!(isa.leaf_by_key("s_mov@gfx6").is_some() && isa.leaf_by_key("s_mov@gfx8").is_some());
    assert!(isa.leaf_by_key("s_old").is_some());
}

/// A format whose layout moves between generations (GCN DS: gds and the opcode
/// shift by one bit on gfx6/7): the table picks the format per generation.
const PER_GEN_FORMAT: &str = r#"
isa: pergenfmt
instruction: op
generations:
  - {name: gfx6, value: 6}
  - {name: gfx7, value: 7}
  - {name: gfx8, value: 8}
bitsets:
  op:
    size: 8
    display: "{NAME}{G}"
  op-old:
    extends: op
    gen: ..7
    pattern: {0: "0"}
    fields: {G: {bits: 1, type: bool, display: " g"}, OPC: {bits: 2..7, type: uint}}
  op-new:
    extends: op
    gen: 8..
    pattern: {7: "0"}
    fields: {G: {bits: 0, type: bool, display: " g"}, OPC: {bits: 1..6, type: uint}}
instructions:
  - extends: {gfx6: op-old, gfx8: op-new}
    field: OPC
    opcodes:
      same: 3
      moved: {gfx6: 4, gfx8: 5}
      added: {gfx7: 6}
      late: {gfx8: 7}
"#;

#[test]
fn a_table_can_pick_its_format_per_generation() {
    let isa = load("pergenfmt", PER_GEN_FORMAT);
    let asm = |t: &str, g: u32| isa.assemble(t, g).ok().map(|(b, _)| b);
    assert_eq!(asm("same g", 6), Some(3 << 2 | 2));
    assert_eq!(asm("same g", 8), Some(3 << 1 | 1));
    assert_eq!(asm("moved", 7), Some(4 << 2));
    assert_eq!(asm("moved", 8), Some(5 << 1));
    assert_eq!(asm("added", 6), None);
    assert_eq!(asm("added", 7), Some(6 << 2));
    assert_eq!(asm("added", 8), Some(6 << 1));
    assert_eq!(asm("late", 7), None);
    assert_eq!(asm("late", 8), Some(7 << 1));
    // A row that becomes several leaves keys each by the generation it starts at.
    for k in ["same@gfx6", "same@gfx8", "moved@gfx6", "moved@gfx8", "added@gfx7", "added@gfx8", "late"] {
        assert!(isa.leaf_by_key(k).is_some(), "{k}");
    }
    let text = |w: u128, g: u32| isa.decode(w, g).map(|i| isa.print(&i, g)).ok();
    assert_eq!(text(3 << 1 | 1, 8).as_deref(), Some("same g"));
}

#[test]
fn text_cannot_pick_a_form_the_decoder_would_not() {
    let isa = load("literal-form", LITERAL);
    // 127 as an inline integer would be the bits of the literal marker.
    let err = isa.assemble("mov s2, 127", 0).unwrap_err();
    assert!(err.message.contains("do not fit") || err.message.contains("not"), "{err}");
    assert_eq!(isa.assemble("mov s2, 126", 0).unwrap(), (0x0001_02fe, 32));
}

/// Assembler-only text (`accepts:`), an operand that prints nothing or text with
/// a leading space, and a format's priority passed to its table rows.
const ACCEPTS: &str = r#"
isa: acc
instruction: op
bitsets:
  off:
    size: 4
  off-zero:
    extends: off
    pattern: {0..3: "0000"}
    priority: 1
    display: ""
  off-imm:
    extends: off
    fields: {N: {bits: 0..3, type: uint}}
    display: " offset:{N}"
  reg:
    size: 4
  reg-first:
    extends: reg
    fields: {N: {bits: 0..3, type: uint}}
    display: "r{N}"
    accepts:
      - {display: "r[{N}:{HI}]", fields: {HI: {expr: N + 1, type: uint}}}
  op:
    size: 16
    fields:
      R: {bits: 0..3, type: reg}
      OFF: {bits: 4..7, type: off}
      OPC: {bits: 8..14, type: uint}
      LOW: {bits: 15, type: uint}
    display: "{NAME} {R}{OFF}"
  # Rows of `op-odd` share OPC with rows of `op`; the priority comes from here.
  op-odd:
    extends: op
    priority: 1
    requires: LOW == 1
instructions:
  - {extends: op, field: OPC, opcodes: {ld: 1}}
  - {extends: op-odd, field: OPC, opcodes: {ld2: 1}}
"#;

#[test]
fn accepted_text_assembles_but_never_prints() {
    let isa = load("accepts", ACCEPTS);
    let ld = isa.decode(0x0125, 0).unwrap();
    assert_eq!(isa.print(&ld, 0), "ld r5 offset:2");
    assert_eq!(isa.print(&isa.decode(0x0105, 0).unwrap(), 0), "ld r5");
    assert_eq!(isa.assemble("ld r5 offset:2", 0).unwrap(), (0x0125, 16));
    // The range reads back as its first register.
    assert_eq!(isa.assemble("ld r[5:6] offset:2", 0).unwrap(), (0x0125, 16));
    assert!(isa.assemble("ld r[5:7]", 0).is_err());
    // The inherited priority lets `ld2` overlap `ld` and decode first when it can.
    assert_eq!(isa.print(&isa.decode(0x8105, 0).unwrap(), 0), "ld2 r5");
    assert_eq!(isa.assemble("ld2 r5", 0).unwrap(), (0x8105, 16));
}

/// Optional controls with defaults (GCN's SDWA), in a form that outranks the
/// plain one for decoding but is listed after it.
const OPTIONAL: &str = r#"
isa: optional
instruction: op
bitsets:
  op:
    size: 16
  plain:
    extends: op
    fields: {OPC: {bits: 12..15, type: uint}, A: {bits: 0..7, type: uint}, B: {bits: 8..11, type: uint}}
    display: "{NAME} r{A}, {B}"
  wide:
    extends: op
    priority: 1
    pattern: {0..7: "11111001"}
    fields:
      OPC: {bits: 12..15, type: uint}
      SEL: {bits: 8..9, type: sel, default: 2}
      MASK: {bits: 10..11, type: hex, default: 3}
    display: "{NAME}{?_w}{? sel:{SEL}}{? mask:0x{MASK}}"
instructions:
  - {extends: plain, field: OPC, derive: [{extends: wide, offset: 0, tag: w}], opcodes: {mov: 1}}
enums:
  sel: {0: LO, 1: HI, 2: ALL}
"#;

#[test]
fn optional_fields_take_their_default() {
    let isa = load("optional", OPTIONAL);
    assert_eq!(isa.print(&isa.decode(0x1af9, 0).unwrap(), 0), "mov_w sel:ALL mask:0x2");
    assert_eq!(isa.assemble("mov_w sel:ALL mask:0x2", 0).unwrap(), (0x1af9, 16));
    // Left out: the defaults, ALL (2) and 3.
    assert_eq!(isa.assemble("mov_w", 0).unwrap(), (0x1ef9, 16));
    assert_eq!(isa.assemble("mov sel:LO", 0).unwrap(), (0x1cf9, 16));
    assert_eq!(isa.assemble("mov_w mask:0x0", 0).unwrap(), (0x12f9, 16));
    // Out of order is not read.
    assert!(isa.assemble("mov mask:0x0 sel:LO", 0).is_err());
    // The plain form is listed first, so its text picks it although the
    // wide form decodes first.
    assert_eq!(isa.assemble("mov r5, 2", 0).unwrap(), (0x1205, 16));
}

#[test]
fn an_optional_field_needs_a_default() {
    let dir = std::env::temp_dir().join(format!("isagen-features-{}-nodefault", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("isa.yaml");
    std::fs::write(&path, OPTIONAL.replace(", default: 2}", "}")).unwrap();
    let Err(d) = isa_codegen::load(&path) else { panic!("loads without a default") };
    let text: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert!(text.iter().any(|t| t.contains("field `SEL` is optional") && t.contains("needs a `default:`")), "{text:?}");
}

/// One mnemonic in two formats of disjoint generations (GCN's SMRD and SMEM):
/// `@tag` keys the rows apart and is not printed.
const TAGGED: &str = r#"
isa: tagged
instruction: op
generations:
  - {name: old, value: 1}
  - {name: new, value: 2}
bitsets:
  op:
    size: 8
  short:
    extends: op
    gen: ..1
    pattern: {7: "0"}
    fields: {OPC: {bits: 0..6, type: uint}}
    display: "{NAME}"
  long:
    extends: op
    gen: 2..
    pattern: {0: "1"}
    fields: {OPC: {bits: 1..7, type: uint}}
    display: "{NAME}"
instructions:
  - {extends: short, field: OPC, opcodes: {load@short: 3}}
  - {extends: long, field: OPC, opcodes: {load: 5}}
"#;

#[test]
fn a_tag_keys_a_row_apart_and_is_not_printed() {
    let isa = load("tagged", TAGGED);
    assert!(isa.leaf_by_key("load@short").is_some() && isa.leaf_by_key("load").is_some());
    let text = |w: u128, g: u32| isa.decode(w, g).map(|i| isa.print(&i, g)).ok();
    assert_eq!(text(3, 1).as_deref(), Some("load"));
    assert_eq!(text(0b1011, 2).as_deref(), Some("load"));
    assert_eq!(isa.assemble("load", 1).unwrap(), (3, 8));
    assert_eq!(isa.assemble("load", 2).unwrap(), (0b1011, 8));
}

/// A machine model: register files and classes, timing, a flag sync, a
/// counter sync, delays, nops, order chains and the backend's own instructions.
const MACHINE: &str = r#"
isa: mach
instruction: inst
flags: {mad: third source read late}
sched-classes:
  alu: {latency: {..: 1}}
  mem: {latency: {..: 20}}
bitsets:
  inst:
    size: 16
    sched: alu
    fields:
      OP: {bits: 12..15, type: uint}
      SS: {bits: 11, type: bool, display: "(ss)"}
  nop:
    extends: inst
    fixed: {OP: 0}
    pattern: {3..10: "x"}
    fields: {N: {bits: 0..2, type: uint}}
    display: "{SS}nop {N}"
  wait:
    extends: inst
    fixed: {OP: 1}
    pattern: {8..10: "x"}
    fields: {VM: {bits: 0..3, type: uint}, LG: {bits: 4..7, type: uint}}
    display: "wait {VM} {LG}"
  mad:
    extends: inst
    fixed: {OP: 2}
    flags: [mad]
    pattern: {8..10: "x"}
    fields: {D: {bits: 0..3, type: uint}, A: {bits: 4..7, type: uint}}
    display: "{SS}mad r{D}, r{A}"
  load:
    extends: inst
    sched: mem
    fixed: {OP: 3}
    pattern: {4..10: "x"}
    fields: {D: {bits: 0..3, type: uint}}
    display: "load r{D}"
enums:
  swiz: {0: x, 1: y, 2: z, 3: w}
machine:
  register-files:
    r: {units: {..1: 8, 2..: 16}}
    a: {units: 1, scarce: true}
  register-classes:
    gpr: {file: r, units: 2, bits: 32, align: {2: 2}, syntax: "r{N >> 2}.{N & 3:swiz}", range-syntax: "r[{N}:{END}]"}
    addr: {file: a, syntax: a0}
  timing:
    mem: {issue: 0, sync: vm, war: ss}
  syncs:
    ss: {flag: SS}
    vm: {counter: VM}
    lg: {counter: LG}
  wait: {instruction: wait}
  delays:
    - {from: [alu], to: [alu], cycles: {..1: 3, 2..: 2}}
    - {from: [alu], file: a, cycles: 6}
  late-reads:
    - {to: [mad], operand: 1, file: r, cycles: 2}
  nop: {instruction: nop, field: N, max: 7}
  nop-fold: {field: N, max: 3, gen: 2..}
  order:
    memory: [mem]
  copy: {gpr: "mad {dst}, {src}"}
  select: {class: gpr, cond-class: gpr, text: "sel {dst}, {then}, {cond}, {else}"}
  end: [nop 0]
"#;

#[test]
fn machine_model_lowers_to_tables() {
    use isa_runtime::machine::{SyncKind, gen_value};
    let isa = load("machine", MACHINE);
    let m = isa.machine.expect("a machine model");
    assert_eq!(m.files.len(), 2);
    assert_eq!((gen_value(m.files[0].units, 1), gen_value(m.files[0].units, 5)), (Some(8), Some(16)));
    assert!(m.files[1].scarce && !m.files[0].scarce);
    let gpr = &m.classes[0];
    assert_eq!((gpr.file, gpr.units, gpr.bits), (0, 2, 32));
    assert_eq!(gpr.name(isa.enums, 6, 1, 0), "r1.z");
    assert_eq!(gpr.name(isa.enums, 4, 2, 0), "r[4:5]");
    assert_eq!(gpr.align_of(2), 2);
    assert_eq!(m.classes[1].name(isa.enums, 0, 1, 0), "a0");
    // Timing is indexed like the scheduling classes; unlisted classes issue 1.
    let mem = isa.sched_classes.iter().position(|c| c.name == "mem").unwrap();
    assert_eq!((m.timing[mem].issue, m.timing[mem].sync, m.timing[mem].war), (0, Some(1), Some(0)));
    assert_eq!((m.timing[0].issue, m.timing[0].sync), (1, None));
    assert!(matches!(m.syncs[0].kind, SyncKind::Flag("SS")));
    assert!(matches!(m.syncs[1].kind, SyncKind::Counter { field: "VM", width: 4 }));
    assert_eq!(m.wait.as_ref().map(|w| w.instruction), Some("wait"));
    assert_eq!(m.delays.len(), 2);
    assert_eq!(m.delays[1].file, Some(1));
    assert_eq!(m.delays[0].from.classes, &[0]);
    assert_eq!(m.late_reads[0].to.flags, &[0]);
    assert_eq!(m.nop.as_ref().map(|n| (n.instruction, n.field, n.max)), Some(("nop", "N", 7)));
    assert_eq!(m.nop_fold.as_ref().map(|n| (n.field, n.gen_min)), Some(("N", 2)));
    assert_eq!(m.order[0].members.classes, &[mem as u16]);
    assert_eq!((m.copies[0].class, m.copies[0].text), (0, "mad {dst}, {src}"));
    assert_eq!(m.select.as_ref().map(|s| s.cond_class), Some(0));
    assert_eq!(m.end, &["nop 0"]);
}

/// Scoreboard slots (AGX's wait groups): the asynchronous instruction names
/// its slot in a field, the wait instruction the slot it waits for.
const SLOTS: &str = r#"
isa: slots
instruction: inst
sched-classes: {alu: {latency: {..: 1}}, async: {latency: {..: 8}}}
bitsets:
  inst: {size: 16, sched: alu, fields: {OP: {bits: 12..15, type: uint}}}
  ld:
    extends: inst
    sched: async
    fixed: {OP: 1}
    pattern: {5..11: "x"}
    fields: {D: {bits: 0..3, type: uint}, SLOT: {bits: 4, type: uint}}
    display: "ld r{D}, {SLOT}"
  wait:
    extends: inst
    fixed: {OP: 2}
    pattern: {1..11: "x"}
    fields: {S: {bits: 0, type: uint}}
    display: "wait {S}"
machine:
  register-files:
    r: {units: 16}
  register-classes:
    gpr: {file: r, syntax: "r{N}"}
  timing:
    async: {sync: sb}
  wait: {instruction: wait}
  syncs:
    sb: {slot-field: SLOT, wait-field: S, slots: 2, depth: 4}
"#;

#[test]
fn slot_syncs_lower_and_need_their_fields() {
    use isa_runtime::machine::SyncKind;
    let m = load("slots", SLOTS).machine.expect("a machine model");
    assert!(matches!(m.syncs[0].kind, SyncKind::Slot { field: "SLOT", wait_field: "S", slots: 2, depth: 4 }));
    for (broken, says) in [
        (SLOTS.replace(", wait-field: S", ""), "needs `wait:` naming the wait instruction and `wait-field:`"),
        (SLOTS.replace("wait-field: S", "wait-field: T"), "instruction `wait` has no field `T`"),
        (SLOTS.replace("slot-field: SLOT", "slot-field: SLOTX"), "no instruction has a field `SLOTX`"),
        (SLOTS.replace("slots: 2", "slots: 0"), "at least one slot"),
    ] {
        let dir = std::env::temp_dir().join(format!("isagen-features-{}-slots-broken", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("isa.yaml");
        std::fs::write(&path, &broken).unwrap();
        let Err(d) = isa_codegen::load(&path) else { panic!("loads: {broken}") };
        let text: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert!(text.iter().any(|t| t.contains(says)), "{says}: {text:?}");
    }
}

/// Tools that describe a target (the reference manuals) learn, for each leaf,
/// the bitsets it is made of and where it was written.
#[test]
fn leaves_know_their_lineage_and_place() {
    let spec = load_spec(
        "lineage",
        r#"isa: lin
instruction: inst
bitsets:
  inst: {size: 8}
  fmt:
    extends: inst
    fields: {OPC: {bits: 0..7, type: uint}}
    display: "{NAME}"
  own:
    extends: inst
    pattern: {0..7: "11111111"}
    display: "own"
instructions:
  - {extends: fmt, field: OPC, opcodes: {a: 1, b: 2}}
"#,
    );
    let b = spec.isa.leaf_by_key("b").unwrap() as usize;
    assert_eq!(spec.lineage[b], ["b", "fmt", "inst"]);
    assert_eq!(spec.defined_at[b].line, 14, "the row of the table");
    let own = spec.isa.leaf_by_key("own").unwrap() as usize;
    assert_eq!(spec.lineage[own], ["own", "inst"]);
    assert_eq!((spec.defined_at[own].line, spec.defined_at[own].col), (9, 3));
}

/// A branch offset stored in units of 2 bytes and split over the word, the
/// shape of RISC-V's B and J immediates: the text shows the byte offset
/// (`OFF = IMM << 1`), and the assembler binds IMM directly, however wide.
const SCALED: &str = r#"
isa: scaled
instruction: inst
bitsets:
  inst: {size: 32}
  br:
    extends: inst
    pattern: {0..6: "1100011"}
    fields:
      IMM: {bits: [31, 7, 25..30, 8..11], type: int}
      OFF: {expr: IMM << 1, type: int}
      R: {bits: 12..24, type: uint}
    display: "{NAME} {R}, {OFF}"
  jmp:
    extends: inst
    pattern: {0..6: "1101111", 7..11: "x"}
    fields:
      IMM: {bits: [31, 12..19, 20, 21..30], type: int}
      OFF: {expr: IMM << 1, type: int}
    display: "jal {OFF}"
instructions:
  - {extends: br, field: R, opcodes: {beq: 0}}
"#;

#[test]
fn shifted_fields_assemble_directly() {
    let isa = load("scaled", SCALED);
    let g = isa.default_gen;
    // llvm-mc encodes `beq a0, a1, -8` as 0xfeb50ce3; without the registers
    // (bits 15..24) that is 0xfe000ce3.
    let (bits, _) = isa.assemble("beq 0, -8", g).unwrap();
    assert_eq!(bits, 0xfe00_0ce3);
    let inst = isa.decode(bits, g).unwrap();
    assert_eq!(isa.print(&inst, g), "beq 0, -8");
    // A 20-bit immediate, far beyond what the solver would enumerate.
    let (bits, _) = isa.assemble("jal 2048", g).unwrap();
    assert_eq!(bits, 0x0010_006f);
    assert_eq!(isa.print(&isa.decode(bits, g).unwrap(), g), "jal 2048");
    let (bits, _) = isa.assemble("jal -1048576", g).unwrap();
    assert_eq!(isa.print(&isa.decode(bits, g).unwrap(), g), "jal -1048576");
    // An odd offset cannot be written; nor one out of range.
    let e = isa.assemble("beq 0, 7", g).unwrap_err().to_string();
    assert!(e.contains("7 is not a multiple of 2"), "{e}");
    let e = isa.assemble("beq 0, 4096", g).unwrap_err().to_string();
    assert!(e.contains("4096 does not fit field OFF (range -4096..=4094"), "{e}");
}

/// A 32-bit field shown another way (`PC: {expr: OFFSET, type: offset}`, a
/// branch target written `pc+N`): the assembler binds OFFSET directly rather
/// than search 32 bits.
const RESHOWN: &str = r#"
isa: reshown
instruction: inst
bitsets:
  inst: {size: 48}
  br:
    extends: inst
    pattern: {0..15: "1100000000000000"}
    fields:
      OFFSET: {bits: 16..47, type: int}
      PC: {expr: OFFSET, type: offset}
    cases:
      - {when: OFFSET == 0, display: "jmp pc+0"}
    display: "jmp pc{PC}"
"#;

#[test]
fn reshown_fields_assemble_directly() {
    let isa = load("reshown", RESHOWN);
    let g = isa.default_gen;
    let (bits, _) = isa.assemble("jmp pc-1655356834", g).unwrap();
    assert_eq!(bits, 0x9d55_425e_c000);
    assert_eq!(isa.print(&isa.decode(bits, g).unwrap(), g), "jmp pc-1655356834");
    let (bits, _) = isa.assemble("jmp pc+0", g).unwrap();
    assert_eq!(bits, 0xc000);
    let e = isa.assemble("jmp pc+4294967296", g).unwrap_err().to_string();
    assert!(e.contains("does not fit PC in `pc{PC}` (range"), "{e}");
}

/// A short format whose rows also exist in a long format at the row's opcode
/// plus a per-generation offset (GCN's `_e64` forms), with operand widths given
/// per table and a rule the assembler enforces.
const DERIVED: &str = r#"
isa: derived
instruction: op
generations:
  - {name: g1, value: 1}
  - {name: g2, value: 2}
bitsets:
  op:
    size: 32
  short:
    extends: op
    length: {expr: 16, min: 16}
    pattern: {15: "0", 16..31: "x"}
    fields:
      OPC: {bits: 8..14, type: uint}
      A: {bits: 0..7, type: uint}
    display: "{NAME}{?_s} r{A}:{W}"
  long:
    extends: op
    pattern: {15: "1"}
    fields:
      OPC: {bits: 8..14, type: uint}
      A: {bits: 0..7, type: uint}
      B: {bits: 16..31, type: uint}
    display: "{NAME}{?_l} r{A}:{W}, {B}"
    rules:
      - {check: "B != A", message: "the two operands must differ"}
instructions:
  - extends: short
    field: OPC
    fields: {W: {expr: 2, type: uint}}
    derive:
      - {extends: long, offset: {g1: 0x40, g2: 0x20}, tag: l}
    opcodes:
      add: 1
      sub: {g1: 2, g2: ~}
"#;

#[test]
fn a_table_derives_long_forms_with_an_offset() {
    let isa = load("derived", DERIVED);
    let text = |w: u128, g: u32| isa.decode(w, g).map(|i| isa.print(&i, g)).ok();
    // The derived form's opcode is the row's plus the generation's offset.
    assert_eq!(text(0x8000 | (0x41 << 8) | 3 | (7 << 16), 1).as_deref(), Some("add_l r3:2, 7"));
    assert_eq!(text(0x8000 | (0x21 << 8) | 3 | (7 << 16), 2).as_deref(), Some("add_l r3:2, 7"));
    assert_eq!(text(0x8000 | (0x42 << 8), 1).as_deref(), Some("sub_l r0:2, 0"));
    assert_eq!(text(0x8000 | (0x22 << 8), 2), None, "absent where the row is");
    // The table's fields reach the derived leaves too, and keys are tagged.
    assert!(isa.leaf_by_key("add@l@g1").is_some() && isa.leaf_by_key("sub@l").is_some());
    // A bare mnemonic takes the short form when it fits, the derived one otherwise.
    assert_eq!(isa.assemble("add r3:2", 1).unwrap(), ((1 << 8) | 3, 16));
    assert_eq!(isa.assemble("add r3:2, 7", 2).unwrap(), (0x8000 | (0x21 << 8) | 3 | (7 << 16), 32));
    // A rule: the decoder reads the word, validate names it, the assembler refuses it.
    let broken = isa.decode(0x8000 | (0x41 << 8) | 3 | (3 << 16), 1).unwrap();
    assert_eq!(isa.validate(&broken, 1), vec!["the two operands must differ"]);
    let err = isa.assemble("add r3:2, 3", 1).unwrap_err();
    assert_eq!(err.message, "the two operands must differ");
}

/// Two syntaxes, a length bit, split operand fields and an opcode bit past the
/// short form: the shape of AGX's ALU encodings.
const SYNTAXES: &str = r#"
isa: two
instruction: inst
syntaxes:
  plain: {column: 6, names: {wide: mov}}
  other: {column: 10, pad: true, names: {neg: negate}}
enums:
  half: {0: l, 1: h}
bitsets:
  inst:
    size: 48
  src:                            # gathered: 2 high bits, then 6 low bits
    size: 8
    fields:
      R: {bits: [6..7, 1..5], type: uint}
      H: {bits: 0, type: half}
    display: {plain: "r{R}{H}", other: "R{R}.{H}"}
  halt:
    extends: inst
    size: 16
    pattern: {0..15: "0000000000000001"}
    display: {plain: "halt", other: "halt{|}"}
  alu:
    extends: inst
    length: {expr: "L ? 48 : 32", min: 32}
    pattern: {0..3: "0010", 36..39: "0000"}
    fields:
      L: {bits: 15, type: uint}
      OP: {bits: [32..35, 4..7], type: uint}
      D: {bits: [44..45, 8..13], type: src}
      S: {bits: [42..43, 16..21], type: src}
      X: {bits: [46..47, 14, 22..31], type: uint}
      SAT: {bits: 40..41, type: uint}
    cases:
      - when: SAT == 1
        syntax: [other]
        display: "{NAME}.sat{|}{D}, {S}, {X}"
    display:
      plain: "{NAME}{|}{D}, {S}, {X}, {SAT}"
      other: "{NAME}{|}{D}, {S}, {X}, {SAT}"
instructions:
  - {extends: alu, field: OP, opcodes: {mov: 1, neg: 2, wide: 0x10}}
"#;

#[test]
fn syntaxes_split_operands_and_length_bits() {
    use isa_runtime::PrintOpts;
    let isa = load("syntaxes", SYNTAXES);
    let other = isa.syntax_by_name("other").unwrap();
    let plain = PrintOpts::default();
    let padded = PrintOpts { syntax: 0, pad: Some(true) };
    let oth = PrintOpts { syntax: other, pad: None };
    // Short form: r5h is half 11 (low 6 bits 0b001011, high bits 0).
    let inst = isa.parse("neg r5h, r1l, 0, 0", 0).unwrap();
    assert_eq!(inst.bytes(), vec![0x22, 0x0b, 0x02, 0x00]);
    assert_eq!(isa.print_in(&inst, 0, plain), "neg r5h, r1l, 0, 0");
    assert_eq!(isa.print_in(&inst, 0, padded), "neg    r5h, r1l, 0, 0");
    assert_eq!(isa.print_in(&inst, 0, oth), "negate     R5.h, R1.l, 0, 0");
    // The same instruction read in the other syntax.
    assert_eq!(isa.parse_in("negate R5.h, R1.l, 0, 0", 0, other).unwrap(), inst);
    // r40l needs the high bits (half 80 = 0b01_010000): the long form, bit 15 set.
    let long = isa.parse("mov r40l, r1l, 0, 0", 0).unwrap();
    assert_eq!(long.len, 6);
    assert_eq!(long.bits >> 15 & 1, 1);
    assert_eq!((long.bits >> 44) & 3, 1);
    assert_eq!(isa.print_in(&isa.decode(long.bits, 0).unwrap(), 0, plain), "mov r40l, r1l, 0, 0");
    // An opcode bit past the short form: `wide` exists only long. The default
    // syntax calls it `mov` too; the other keeps its key.
    let wide = isa.parse_in("wide R1.l, R1.l, 0, 0", 0, other).unwrap();
    assert_eq!(wide.len, 6);
    assert_eq!(isa.print_in(&wide, 0, plain), "mov r1l, r1l, 0, 0");
    assert_eq!(isa.parse("mov r1l, r1l, 0, 0", 0).unwrap().len, 4, "the short `mov` first");
    // A short word with the next instruction's bytes after it still decodes short.
    let mut bytes = inst.bytes();
    bytes.extend([0x01, 0x00]);
    let (d, n) = isa.decode_bytes(&bytes, 0).unwrap();
    assert_eq!((d, n), (inst, 4));
    // A case limited to one syntax: the other prints the default template.
    let sat = isa.parse("mov r1l, r1l, 0, 1", 0).unwrap();
    assert_eq!(isa.print_in(&sat, 0, oth), "mov.sat    R1.l, R1.l, 0");
    assert_eq!(isa.parse_in("mov.sat R1.l, R1.l, 0", 0, other).unwrap(), sat);
    // A narrower encoding; `{|}` pads even with nothing after it.
    let halt = isa.parse("halt", 0).unwrap();
    assert_eq!(halt.len, 2);
    assert_eq!(isa.print_in(&halt, 0, oth), "halt       ");
}

/// Bits one syntax leaves out of its text: `ignore:` with `syntax:`. The
/// other syntax shows them, so round trips there compare them.
const SYNTAX_IGNORE: &str = r#"
isa: sig
instruction: inst
syntaxes:
  full: {column: 4}
  short: {column: 4}
bitsets:
  inst:
    size: 16
  ld:
    extends: inst
    pattern: {0..3: "0001"}
    ignore: [{bits: 11, syntax: [short]}]
    fields:
      U: {bits: [11, 4..10], type: uint}
      UA: {expr: U & 0x7f, type: uint}
      X: {bits: 12..15, type: uint}
    display: {full: "ld{|}u{U}, {X}", short: "ld{|}u{UA}, {X}"}
"#;

#[test]
fn ignore_can_name_the_syntaxes_that_leave_bits_out() {
    use isa_runtime::PrintOpts;
    let isa = load("syntax-ignore", SYNTAX_IGNORE);
    let short = isa.syntax_by_name("short").unwrap();
    let inst = isa.decode(0x1 | (0x85 << 4) | (3 << 12), 0).unwrap();
    assert_eq!(isa.print(&inst, 0), "ld u133, 3");
    assert_eq!(isa.print_in(&inst, 0, PrintOpts { syntax: short, pad: None }), "ld u5, 3");
    // The bit counts in the full syntax, not in the short one.
    assert_eq!(isa.ignored_bits(&inst, 0), 0);
    assert_eq!(isa.ignored_bits_in(&inst, 0, 0), 0);
    assert_eq!(isa.ignored_bits_in(&inst, 0, short), 1 << 11);
    // Each syntax's text assembles to what it shows; the short one leaves the bit clear.
    assert_eq!(isa.parse("ld u133, 3", 0).unwrap(), inst);
    let back = isa.parse_in("ld u5, 3", 0, short).unwrap();
    assert_eq!(back.bits, inst.bits & !(1 << 11));
}

/// Every construct the precomputed decoder (decision trees and tabulated
/// checks) deals with: generations, priorities between overlapping patterns,
/// `requires:` on instructions and operand forms (reading parameters and the
/// generation), cases that change which fields are checked, enums with holes.
/// The tables must decode every word exactly as the reference decoder does.
const DISPATCH_MIX: &str = r#"
isa: mix
instruction: op
generations:
  - {name: g1, value: 1}
  - {name: g2, value: 2}
  - {name: g3, value: 3}
enums:
  cond: {0: lt, 1: le, 3: eq, 5: ne}
bitsets:
  reg:
    size: 5
    params:
      W: {type: uint}
  reg-low:
    extends: reg
    priority: -1
    fields: {N: {bits: 0..4, type: uint}}
    requires: "N + W <= (gen >= 2 ? 20 : 24)"
    cases:
      - {when: W == 1, display: "r{N}"}
    display: "r{N}x{W}"
  reg-special:
    extends: reg
    pattern: {3..4: "11"}
    fields: {S: {bits: 0..2, type: uint}}
    requires: "S != 7 && W == 1"
    display: "sp{S}"
  reg-zero:
    extends: reg
    gen: 2..
    pattern: {0..4: "11111"}
    priority: 1
    display: "zero"
  op:
    size: 16
    fields:
      OPC: {bits: 11..15, type: uint}
    display: "{NAME}"
  op-two:
    extends: op
    fields:
      D: {bits: 0..4, type: reg, params: {W: "WIDE ? 2 : 1"}}
      S: {bits: 5..9, type: reg, params: {W: 1}}
      WIDE: {bits: 10, type: bool, display: ".w"}
    requires: "D != S && (gen >= 2 || !WIDE)"
    display: "{NAME}{WIDE} {D}, {S}"
  op-cmp:
    extends: op
    fields:
      C: {bits: 0..2, type: uint}
      M: {bits: 3, type: bool}
      A: {bits: 4..8, type: reg, params: {W: 1}}
      X: {bits: 9..10, type: uint}
    cases:
      - {when: M, display: "{NAME}.{C} {A}, {X}", fields: {C: {bits: 0..2, type: cond}}}
    display: "{NAME} {A}, {C}, {X}"
  op-any:
    extends: op
    fields:
      V: {bits: 0..10, type: uint}
    display: "{NAME} {V}"
instructions:
  - extends: op-two
    field: OPC
    opcodes: {add: 1, sub: {g2: 2}, mul: {g1: 3, g3: ~}}
  - extends: op-cmp
    field: OPC
    opcodes: {cmp: 4}
  - extends: op-any
    field: OPC
    opcodes: {raw: 5}
"#;

#[test]
fn tables_decode_every_word_as_the_reference_does() {
    let isa = load("mix", DISPATCH_MIX);
    assert!(isa.dispatch.is_some());
    let mut decoded = 0;
    for gen_ in 0..=4 {
        for w in 0..1u128 << 16 {
            let fast = isa.decode(w, gen_);
            assert_eq!(fast, isa.decode_reference(w, gen_), "gen {gen_} word {w:#06x}");
            if let Ok(inst) = fast {
                decoded += 1;
                let mut path_fast = String::new();
                isa.print_to(&inst, gen_, &mut path_fast);
                assert!(!path_fast.contains('?'), "{path_fast}");
            }
        }
    }
    // Enough of the space decodes for the comparison to mean something.
    assert!(decoded > 20_000, "{decoded}");
}

#[test]
fn the_tree_lists_every_matching_leaf_in_priority_order() {
    let isa = load("mix", DISPATCH_MIX);
    let d = isa.dispatch.unwrap();
    for (gi, g) in isa.groups.iter().enumerate() {
        for w in 0..1u128 << g.bits.min(16) {
            let matching: Vec<u16> = g
                .leaves
                .iter()
                .copied()
                .filter(|&l| w & isa.leaves[l as usize].mask == isa.leaves[l as usize].value)
                .collect();
            let listed: Vec<u16> =
                d.candidates(gi as u16, w).iter().copied().filter(|l| matching.contains(l)).collect();
            assert_eq!(listed, matching, "group {} word {w:#x}", g.name);
        }
    }
}

/// A table row's field replaces the format's default of the same name: the
/// 16-bit row's source reads the literal's low half (`LITERAL & 0xffff`,
/// bound alone when assembling) and the hardware ignores the high half.
const ROW_FIELDS: &str = r#"
isa: half
instruction: op
bitsets:
  src:
    size: 8
    params:
      H: {type: bool}
      LIT: {type: hexlit}
      LO: {type: hexlit, float: "16"}
  src-reg:
    extends: src
    pattern: {7: "0"}
    fields: {N: {bits: 0..6, type: uint}}
    display: "s{N}"
  src-lit16:
    extends: src
    pattern: {0..7: "11111111"}
    priority: 1
    requires: H
    display: "{LO}"
  src-lit:
    extends: src
    pattern: {0..7: "11111111"}
    requires: "!H"
    display: "{LIT}"
  op:
    size: 64
    length: {expr: "SRC == 255 ? 64 : 32", min: 32}
    pattern: {8..15: "00000000"}
    fields:
      SRC: {bits: 0..7, type: src, params: {H: H, LIT: LITERAL, LO: LO}}
      OPC: {bits: 16..31, type: uint}
      LITERAL: {bits: 32..63, type: hexlit}
      LO: {expr: LITERAL & 0xffff, type: hexlit}
      H: {expr: 0, type: bool}
    ignore: [{bits: 48..63, when: SRC == 255 && H}]
    display: "{NAME} {SRC}"
instructions:
  - {extends: op, field: OPC, opcodes: {mov: 1}}
  - {extends: op, field: OPC, fields: {H: {expr: 1, type: bool}}, opcodes: {mov16: 2}}
"#;

#[test]
fn a_row_field_replaces_the_format_default() {
    let isa = load("row-fields", ROW_FIELDS);
    let inst = isa.decode(0x1234_5678_0001_00ff, 0).unwrap();
    assert_eq!(isa.print(&inst, 0), "mov 0x12345678");
    let inst = isa.decode(0x1234_5678_0002_00ff, 0).unwrap();
    assert_eq!(isa.print(&inst, 0), "mov16 0x5678");
    assert_eq!(isa.ignored_bits(&inst, 0), 0xffff_0000_0000_0000);
    assert_eq!(isa.assemble("mov16 0x5678", 0).unwrap(), (0x0000_5678_0002_00ff, 64));
    assert_eq!(isa.assemble("mov16 1.5", 0).unwrap(), (0x0000_3e00_0002_00ff, 64));
    assert_eq!(isa.assemble("mov 0x12345678", 0).unwrap(), (0x1234_5678_0001_00ff, 64));
    assert!(isa.assemble("mov16 0x12345", 0).is_err());
}

/// `uint-sat` reads a number past the field's maximum as the maximum, and
/// `name-suffix:` is text read after the name that the printer never writes.
const SATURATE: &str = r#"
isa: sat
instruction: op
bitsets:
  op:
    size: 16
    name-suffix: _e32
    fields:
      N: {bits: 0..2, type: uint}
      OPC: {bits: 3..15, type: uint}
    display: "{NAME} {N}"
    accepts:
      - {display: "{NAME} sat({N})", fields: {N: {bits: 0..2, type: uint-sat}}}
instructions:
  - {extends: op, field: OPC, opcodes: {wait: 1}}
"#;

#[test]
fn saturating_counts_and_name_suffixes() {
    let isa = load("saturate", SATURATE);
    assert_eq!(isa.assemble("wait sat(5)", 0).unwrap(), (0x000d, 16));
    assert_eq!(isa.assemble("wait sat(9)", 0).unwrap(), (0x000f, 16));
    assert_eq!(isa.assemble("wait sat(0xffff0000)", 0).unwrap(), (0x000f, 16));
    assert!(isa.assemble("wait 9", 0).is_err(), "only the saturating spelling saturates");
    assert_eq!(isa.assemble("wait_e32 3", 0).unwrap(), (0x000b, 16));
    let inst = isa.decode(0x000b, 0).unwrap();
    assert_eq!(isa.print(&inst, 0), "wait 3");
}

/// A 16-bit source whose forms are told apart by its top bits, one of which
/// is an index into a table of 12 constants (ir3's float table): too wide to
/// tabulate whole, so the decoding tables switch on the form bits and check
/// the index in a second table; its swizzle names every value and is not
/// checked at all; and `R`, a parameter only shown, does not make the two
/// cases' sources two checks.
const FORMS: &str = r#"
isa: forms
instruction: op
enums:
  swz: {0: x, 1: y, 2: z, 3: w}
  konst: {0: "(0.0)", 1: "(0.5)", 2: "(1.0)", 3: "(2.0)", 4: "(e)", 5: "(pi)", 6: "(1/pi)", 7: "(3.0)", 8: "(5.0)", 9: "(6.0)", 10: "(7.0)", 11: "(4.0)"}
bitsets:
  src:
    size: 16
    params:
      R: {type: bool, display: "(r)"}
      FULL: {type: bool}
  src-reg:
    extends: src
    pattern: {13..15: "000", 10..12: "000"}
    fields:
      N: {bits: 0..7, type: uint}
      SW: {bits: 8..9, type: swz}
    display: "{R}r{N}.{SW}"
  src-table:
    extends: src
    pattern: {13..15: "101", 10..12: "000"}
    requires: FULL
    fields:
      K: {bits: 0..9, type: konst}
    display: "{R}{K}"
  src-imm:
    extends: src
    pattern: {13..15: "100"}
    fields:
      V: {bits: 0..12, type: int}
    display: "{R}#{V}"
  op:
    size: 32
    fields:
      SRC: {bits: 0..15, type: src, params: {R: RB, FULL: F}}
      RB: {bits: 16, type: bool}
      REP: {bits: 17..18, type: uint}
      F: {bits: 19, type: bool}
      OPC: {bits: 20..31, type: uint}
    cases:
      - when: RB && REP == 0
        display: "{NAME} (nop) {SRC}"
        fields:
          SRC: {bits: 0..15, type: src, params: {R: 0, FULL: F}}
    display: "{NAME}{REP} {SRC}"
instructions:
  - {extends: op, field: OPC, opcodes: {mov: 1}}
"#;

#[test]
fn an_operand_too_wide_to_tabulate_is_tabulated_by_its_form() {
    use isa_runtime::{Check, NO_ASK};
    let isa = load("forms", FORMS);
    let d = isa.dispatch.expect("tables");
    let mov = isa.leaf_by_key("mov").expect("mov");
    let plan = d.plans_for(0)[mov as usize];
    let Check::Table { start, len } = plan.operands() else { panic!("the source is tabulated: {plan:?}") };
    let units = &d.units[start as usize..(start + len as u32) as usize];
    // One part, the source: both cases' sources are one check.
    assert_eq!(units.len(), 1, "{units:?}");
    let u = units[0];
    let read: u32 = d.ranges[u.range_start as usize..][..u.range_len as usize].iter().map(|r| r.width as u32).sum();
    assert!(read <= 8, "the part switches on the form bits only: {u:?}");
    assert!(u.sub != NO_ASK, "the table form's index has a second table: {u:?}");
    // A register answers from the first table: its swizzle is not checked.
    let ranges = &d.ranges[u.range_start as usize..][..u.range_len as usize];
    let reg = isa_runtime::extract(0x0012 | 1 << 20, 0, ranges) as usize;
    let bit = |at: u32| d.bitmaps[at as usize + reg / 64] >> (reg % 64) & 1 == 1;
    assert!(bit(u.bitmap) && (u.ask == NO_ASK || !bit(u.ask)), "a register holds without asking: {u:?}");
    // Every value of the source, with the other bits varied, decodes as the
    // reference decoder decodes it, through the tables alone where it decodes.
    let mut decoded = 0;
    for v in 0..1u128 << 16 {
        let word = v | ((v * 0x9e37) & 0xf) << 16 | 1 << 20;
        let want = isa.decode_reference(word, 0);
        assert_eq!(isa.decode(word, 0), want, "word {word:#x}");
        if let Ok(inst) = want {
            decoded += 1;
            assert_eq!(isa.decode_by_tables(word, 0), Some(inst), "word {word:#x}");
        }
    }
    // Registers (1024 values), immediates (8192), and the table's 12
    // entries when FULL is set.
    assert!(decoded > 9_000, "{decoded}");
}

/// A literal that may not hold what the text would read as an inline value
/// (GCN's rule), for a 32-bit source and for a 16-bit one that reads its low
/// half; and a literal whose condition does arithmetic on it.
const LITERAL_VALUES: &str = r#"
isa: litv
instruction: op
bitsets:
  src:
    size: 8
    params:
      H: {type: bool}
      LIT: {type: hex}
      LIT16: {type: hex}
  src-reg:
    extends: src
    fields: {N: {bits: 0..6, type: uint}}
    pattern: {7: "0"}
    display: "s{N}"
  src-lit16:
    extends: src
    pattern: {0..7: "11111111"}
    priority: 2
    requires: "H && !(LIT16 <= 64 || LIT16 == 0x3c00 || LIT16 >= 0xfff0)"
    display: "0x{LIT16}"
  src-lit:
    extends: src
    pattern: {0..7: "11111111"}
    priority: 1
    requires: "!H && !(LIT <= 64 || LIT == 0x3f800000 || 0xfffffff0 <= LIT)"
    display: "0x{LIT}"
  src-odd:
    extends: src
    pattern: {0..7: "11111110"}
    requires: "LIT + 1 > 100"
    display: "odd 0x{LIT}"
  op:
    size: 64
    length: {expr: "SRC >= 254 ? 64 : 32", min: 32}
    fields:
      SRC: {bits: 0..7, type: src, params: {H: H, LIT: LITERAL, LIT16: LIT16}}
      DST: {bits: 8..15, type: uint}
      OPC: {bits: 16..31, type: uint}
      LITERAL: {bits: 32..63, type: hex}
      LIT16: {expr: LITERAL & 0xffff, type: hex}
    display: "{NAME} s{DST}, {SRC}"
instructions:
  - {extends: op, field: OPC, fields: {H: {expr: 0, type: bool}}, opcodes: {mov32: 1}}
  - {extends: op, field: OPC, fields: {H: {expr: 1, type: bool}}, opcodes: {mov16: 2}}
"#;

#[test]
fn a_literal_compared_with_constants_is_tabulated_by_intervals() {
    use isa_runtime::{NO_ASK, Unit};
    let isa = load("literal-values", LITERAL_VALUES);
    let d = isa.dispatch.expect("tables");
    // The units answering for a literal, by the leaf they belong to.
    let answering = |key: &str| -> Vec<Unit> {
        let leaf = isa.leaf_by_key(key).expect("leaf");
        let p = d.plans_for(0)[leaf as usize];
        let n = p.requires as u32 + p.operands as u32 + p.choice as u32;
        let units = &d.units[p.units as usize..(p.units + n) as usize];
        let subs = units.iter().filter(|u| u.sub != NO_ASK).flat_map(|u| &d.subs[u.sub as usize..][..256]);
        subs.filter_map(|&s| d.units.get(s as usize).copied()).collect()
    };
    for key in ["mov32", "mov16"] {
        let subs = answering(key);
        // Only the compared literal: `LIT + 1` is left to the engine.
        assert_eq!(subs.len(), 1, "{key}: {subs:?}");
        assert_eq!(subs[0].range_len, Unit::CUTS, "{key}: {subs:?}");
        // The 16-bit source reads the literal's low half only.
        let width = if key == "mov16" { 16 } else { 32 };
        assert_eq!((subs[0].lo, subs[0].width), (32, width), "{key}");
    }
    // Both sides of every constant, and the literal's high half varied,
    // decode as the reference decoder decodes them.
    let values = [0u64, 1, 63, 64, 65, 66, 99, 100, 0x3bff, 0x3c00, 0x3c01, 0xffef, 0xfff0, 0xffff, 0x1_0000];
    let values = values.iter().chain(&[0x3f7f_ffff, 0x3f80_0000, 0x3f80_0001, 0xffff_ffef, 0xffff_fff0, 0xffff_ffff]);
    let mut decoded = [0; 2];
    for &v in values {
        for high in [0u64, 0x1234_0000] {
            for (i, opc) in [1u128, 2].into_iter().enumerate() {
                for src in [0xfe, 0xff] {
                    let word = ((v | high) as u128 & 0xffff_ffff) << 32 | opc << 16 | 0x0500 | src;
                    let want = isa.decode_reference(word, 0);
                    assert_eq!(isa.decode(word, 0), want, "word {word:#x}");
                    decoded[i] += want.is_ok() as u32;
                }
            }
        }
    }
    assert!(decoded.iter().all(|&n| n > 4), "both widths decode some literals: {decoded:?}");
    // What the rule keeps out, through the tables.
    let mov32 = isa.decode(0x3f80_0000_0001_05ff, 0);
    assert!(mov32.is_err(), "1.0's bits are not a literal: {mov32:?}");
    let mov16 = isa.decode(0x1234_3c00_0002_05ff, 0);
    assert!(mov16.is_err(), "the low half 0x3c00 is not a 16-bit literal: {mov16:?}");
    assert_eq!(isa.print(&isa.decode(0x1234_3c01_0002_05ff, 0).unwrap(), 0), "mov16 s5, 0x3c01");
}

/// A source whose kind a field of the instruction chooses (ir3's alias: a
/// register, a 16-bit or a 32-bit immediate), each kind a group whose unused
/// high bits must be clear, the register's cases naming a special register
/// (its component an enum that names every value, so nothing it reads is
/// checked, whatever the case).
const CASE_SOURCES: &str = r#"
isa: kinds
instruction: op
enums:
  swiz: {0: x, 1: y, 2: z, 3: w}
bitsets:
  reg:
    size: 8
    fields:
      SW: {bits: 0..1, type: swiz}
      N: {bits: 2..7, type: uint}
    cases:
      - {when: N == 61, display: "a0.{SW}"}
    display: "r{N}.{SW}"
  src-reg:
    size: 32
    pattern: {8..31: "000000000000000000000000"}
    fields:
      R: {bits: 0..7, type: reg}
    display: "{R}"
  src-imm16:
    size: 32
    pattern: {16..31: "0000000000000000"}
    fields:
      I: {bits: 0..15, type: hex}
    display: "h(0x{I})"
  src-imm32:
    size: 32
    fields:
      I: {bits: 0..31, type: hex}
    display: "(0x{I})"
  op:
    size: 64
    pattern: {34..47: "00000000000000"}
    fields:
      SRC: {bits: 0..31, type: src-imm32}
      KIND: {bits: 32..33, type: uint}
      OPC: {bits: 48..63, type: uint}
    cases:
      - when: KIND == 0
        fields:
          SRC: {bits: 0..31, type: src-reg}
      - when: KIND == 1
        fields:
          SRC: {bits: 0..31, type: src-imm16}
    display: "{NAME}.{KIND} {SRC}"
instructions:
  - {extends: op, field: OPC, opcodes: {alias: 1}}
"#;

#[test]
fn a_source_whose_kind_the_case_chooses_is_tabulated_by_intervals() {
    use isa_runtime::{Check, NO_ASK, Unit};
    let isa = load("case-sources", CASE_SOURCES);
    let d = isa.dispatch.expect("tables");
    let alias = isa.leaf_by_key("alias").expect("alias");
    let plan = d.plans_for(0)[alias as usize];
    let Check::Table { start, len } = plan.operands() else { panic!("the sources are tabulated: {plan:?}") };
    let units = &d.units[start as usize..(start + len as u32) as usize];
    // Each kind switches on the bits that choose the case; one with a check
    // (the register, the 16-bit immediate) then judges its high bits by one
    // interval: below 1 << 8, or below 1 << 16. The 32-bit immediate holds
    // whatever its bits.
    let mut widths = Vec::new();
    for u in units {
        let ranges = &d.ranges[u.range_start as usize..][..u.range_len as usize];
        assert_eq!(ranges, [isa_runtime::Range { lo: 32, width: 2 }], "the case's bits: {u:?}");
        if u.sub == NO_ASK {
            assert_eq!(d.bitmaps[u.bitmap as usize] & 0xf, 0xf, "a kind without a check holds: {u:?}");
            continue;
        }
        for &s in &d.subs[u.sub as usize..][..4] {
            if let Some(sub) = d.units.get(s as usize) {
                assert_eq!(sub.range_len, Unit::CUTS, "by intervals: {sub:?}");
                widths.push((sub.lo, sub.width));
            }
        }
    }
    widths.sort_unstable();
    assert_eq!(widths, [(8, 24), (16, 16)], "{units:?}");
    // Around every bound, for each kind (and the fourth, which has no
    // source of its own), the tables and the direct decoder decode as the
    // reference decoder does, and the direct decoder takes what decodes.
    let mut decoded = 0;
    for kind in 0..4u128 {
        for src in [0u128, 0x41, 0xf5, 0xff, 0x100, 0x7fff, 0xffff, 0x1_0000, 0x8000_0000, 0xffff_ffff] {
            let word = 1 << 48 | kind << 32 | src;
            let want = isa.decode_reference(word, 0);
            assert_eq!(isa.decode(word, 0), want, "word {word:#x}");
            let Ok(inst) = want else { continue };
            decoded += 1;
            assert_eq!(isa.decode_by_tables(word, 0), Some(inst), "word {word:#x}");
            assert_eq!(isa.decode_direct(word, 0), Some(inst), "word {word:#x}");
        }
    }
    // Registers: 4 values; 16-bit immediates: 7; 32-bit ones: all 10, twice.
    assert_eq!(decoded, 4 + 7 + 20);
    assert!(isa.decode(1 << 48 | 0x100, 0).is_err(), "a register's high bits are clear");
    assert!(isa.decode(1 << 48 | 1 << 32 | 0x1_0000, 0).is_err(), "a 16-bit immediate's are too");
    assert_eq!(isa.print(&isa.decode(1 << 48 | 0xf5, 0).unwrap(), 0), "alias.0 a0.y");
}

/// An operand that pads to the mnemonic column: its text depends on what the
/// line holds before it, so a printer that remembers operand texts must not
/// remember it.
const PADDED_OPERAND: &str = r#"
isa: pad
instruction: inst
syntaxes:
  plain: {column: 8, pad: true}
bitsets:
  inst:
    size: 16
  src:
    size: 8
    fields: {N: {bits: 0..7, type: uint}}
    display: "{|}r{N}"
  op:
    extends: inst
    fields:
      OP: {bits: 8..15, type: uint}
      S: {bits: 0..7, type: src}
    display: "{NAME}{S}"
instructions:
  - {extends: op, field: OP, opcodes: {a: 1, abcd: 2}}
"#;

#[test]
fn an_operand_padded_to_the_column_is_printed_each_time() {
    use isa_runtime::PrintOpts;
    let isa = load("padded-operand", PADDED_OPERAND);
    let opts = PrintOpts { syntax: 0, pad: Some(true) };
    let mut printer = isa.printer(0, opts);
    let mut columns = Vec::new();
    for word in [0x0105, 0x0205, 0x0105] {
        let inst = isa.decode(word, 0).unwrap();
        let (mut want, mut got) = (String::new(), String::new());
        isa.print_with(&inst, 0, opts, &mut want);
        printer.print_to(&inst, &mut got);
        assert_eq!(got, want);
        columns.push(got.find('r').unwrap());
    }
    // Each operand starts at the column after the padding, whatever the mnemonic.
    assert_eq!(columns, [9, 9, 9]);
    assert_eq!(printer.hits(), 0);
}

/// Templates that do not write the instruction's name: a reduction named by
/// an enum field (Mesa's AGX `simd`/`quad`), and moves named by literal text
/// glued after a flag (ir3's `(ul)mov.u32`), with a case of their own.
const UNNAMED: &str = r#"
isa: unnamed
instruction: op
bitsets:
  op:
    size: 16
    fields: {OPC: {bits: 12..15, type: uint}, A: {bits: 0..7, type: uint}}
  named:
    extends: op
    pattern: {8..11: "0000"}
    display: "{NAME} r{A}"
  reduce:
    extends: op
    fields:
      G: {bits: 8, type: group}
      B: {bits: 9..11, type: uint}
    display: "{G} r{A}, {B}"
  moves:
    extends: op
    pattern: {9..11: "000"}
    fields:
      H: {bits: 8, type: bool, display: "h"}
    cases:
      - {when: "A == 0", display: "{H}mova a0.x"}
    display: "{H}mov.u r{A}"
instructions:
  - {extends: named, field: OPC, opcodes: {add: 1}}
  - {extends: reduce, field: OPC, opcodes: {red: 2}}
  - {extends: moves, field: OPC, opcodes: {mv: 3}}
enums:
  group: {0: simd, 1: quad}
"#;

#[test]
fn templates_without_the_name_are_found_by_the_text_they_write() {
    let isa = load("unnamed", UNNAMED);
    // OPC at 12..15, G or H at 8, B at 9..11, A at 0..7.
    let cases = [
        ("add r5", 0x1005),
        ("quad r5, 3", 0x2705),
        ("simd r7, 0", 0x2007),
        ("hmov.u r5", 0x3105),
        ("mov.u r9", 0x3009),
        ("hmova a0.x", 0x3100),
        ("mova a0.x", 0x3000),
    ];
    for (text, bits) in cases {
        assert_eq!(isa.assemble(text, 0), Ok((bits, 16)), "{text}");
        assert_eq!(isa.print(&isa.decode(bits, 0).unwrap(), 0), text);
    }
    let err = isa.assemble("mul r5", 0).unwrap_err();
    assert!(err.message.contains("unknown instruction `mul`"), "{}", err.message);
}

/// A register pair printed from a code whose low bit the text does not say
/// (GCN's `s[62:63]` for codes 62 and 63), and a condition that needs it set.
const SHARED_BITS: &str = r#"
isa: shared
instruction: op
bitsets:
  op:
    size: 16
    fields:
      OPC: {bits: 12..15, type: uint}
      X: {bits: 7..11, type: uint}
      N: {bits: 0..6, type: uint}
      LO: {expr: "N & 0x7e", type: uint}
      HI: {expr: "LO + 1", type: uint}
    requires: "X != 5 || (N & 1) == 1"
    display: "{NAME} s[{LO}:{HI}], {X}"
instructions:
  - {extends: op, field: OPC, opcodes: {pair: 1}}
"#;

#[test]
fn the_bits_every_reading_of_a_value_shares_are_bound_and_the_rest_solved() {
    let isa = load("shared", SHARED_BITS);
    // OPC 1 at 12..15, X at 7..11, N at 0..6: N is 62 or 63; the smallest
    // unless the condition needs the low bit.
    assert_eq!(isa.assemble("pair s[62:63], 3", 0), Ok((0x1000 | 3 << 7 | 62, 16)));
    assert_eq!(isa.assemble("pair s[62:63], 5", 0), Ok((0x1000 | 5 << 7 | 63, 16)));
    // No code gives an odd first register.
    assert!(isa.assemble("pair s[61:62], 3", 0).is_err());
}

/// A `uhexlit` field prints as `hexlit` does and reads any number that is
/// not negative; `-4` is refused at the number, where a `hexlit` field
/// takes its two's complement. A 16-bit field whose value is the low half
/// of a 32-bit `hexlit` takes a negative value as the 16-bit two's
/// complement (GCN's 16-bit literal), and refuses one past 16 bits.
#[test]
fn unsigned_hex_offsets_and_negative_low_halves() {
    let isa = load(
        "uhexlit",
        r#"
isa: uhexlit
instruction: op
bitsets:
  op:
    size: 32
    fields:
      OPC: {bits: 28..31, type: uint}
  lo:
    size: 4
    params: {L: {type: hexlit}}
    pattern: {0..3: "xxxx"}
    display: "{L}"
  ld-form:
    extends: op
    fields:
      OFF: {bits: 0..11, type: uhexlit}
      ADD: {bits: 12..27, type: hexlit}
    display: "{NAME} {OFF}, {ADD}"
  lit-form:
    extends: op
    fields:
      WORD: {bits: 0..23, type: hexlit}
      HALF: {expr: WORD & 0xffff, type: hexlit}
      SRC: {bits: 24..27, type: lo, params: {L: HALF}}
    display: "{NAME} {SRC}"
instructions:
  - {extends: ld-form, field: OPC, opcodes: {ld: 1}}
  - {extends: lit-form, field: OPC, opcodes: {lit: 2}}
"#,
    );
    assert_eq!(isa.assemble("ld 16, -4", 0), Ok((0x1fffc010, 32)));
    assert_eq!(isa.print(&isa.decode(0x1fffc010, 0).unwrap(), 0), "ld 0x10, 0xfffc");
    let err = isa.assemble("ld -4, 0", 0).unwrap_err();
    assert_eq!((err.column, err.message.as_str()), (3, "-4 does not fit field OFF (range 0..=4095)"));
    assert!(isa.assemble("ld 0x1000, 0", 0).is_err());
    assert_eq!(isa.assemble("lit -17", 0), Ok((0x2000ffef, 32)));
    assert_eq!(isa.assemble("lit 0xffef", 0), Ok((0x2000ffef, 32)));
    assert_eq!(isa.assemble("lit -32768", 0), Ok((0x20008000, 32)));
    assert!(isa.assemble("lit -32769", 0).is_err());
}
