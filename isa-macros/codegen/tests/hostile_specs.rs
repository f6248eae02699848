//! Hostile spec files: each must end, in bounded time and memory, in
//! diagnostics that name the file, line and column and say what is wrong —
//! never a panic or a hang in the proc macro. The limits are set and explained
//! in `src/yaml.rs`.

use std::path::{Path, PathBuf};

use isa_codegen::Diagnostic;

/// A fresh directory for one test's spec file.
fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("isagen-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `bytes` as a root ISA spec and loads it; the load must fail.
fn isa_errors(name: &str, bytes: &[u8]) -> (PathBuf, Vec<Diagnostic>) {
    let path = dir(name).join("isa.yaml");
    std::fs::write(&path, bytes).unwrap();
    match isa_codegen::load(&path) {
        Ok(_) => panic!("{name}: the spec loaded"),
        Err(d) => (path, d),
    }
}

/// The one diagnostic of `d`, at `path`, as `line:col: message`.
fn only(path: &Path, d: &[Diagnostic]) -> String {
    assert_eq!(d.len(), 1, "{d:#?}");
    located(path, d).remove(0)
}

/// `line:col: message` for each diagnostic of `d`, all at `path`.
fn located(path: &Path, d: &[Diagnostic]) -> Vec<String> {
    assert!(d.iter().all(|d| d.loc.file == path), "{d:#?}");
    d.iter().map(|d| format!("{}:{}: {}", d.loc.line, d.loc.col, d.message)).collect()
}

/// A spec of one opcode table: `OPC` in the low `opc_bits` bits, an 8-bit
/// field `B` above it, and `rows` (`      name: opcode` lines) from line 17.
fn table_spec(opc_bits: u32, rows: &str) -> String {
    let (size, last) = (opc_bits + 8, opc_bits - 1);
    format!(
        "isa: demo\ninstruction: inst\nbitsets:\n  inst:\n    size: {size}\n    fields:\n      B: {{bits: {opc_bits}..{}, type: uint}}\n    display: \"{{NAME}} {{B}}\"\n  op:\n    extends: inst\n    fields:\n      OPC: {{bits: 0..{last}, type: uint}}\ninstructions:\n  - extends: op\n    field: OPC\n    opcodes:\n{rows}",
        size - 1
    )
}

/// A valid spec: one 8-bit encoding with two fields.
const GOOD: &str = r#"isa: demo
instruction: inst
bitsets:
  inst:
    size: 8
    fields:
      A: {bits: 0..3, type: uint}
      B: {bits: 4..7, type: uint}
    display: "{NAME} {A}, {B}"
"#;

#[test]
fn the_base_spec_loads() {
    let path = dir("good").join("isa.yaml");
    std::fs::write(&path, GOOD).unwrap();
    assert!(isa_codegen::load(&path).is_ok());
}

#[test]
fn alias_bomb() {
    // Billion laughs in a shape the schema accepts: each bitset's fields merge
    // the previous one's nine times, so full expansion would replay 9^9 maps.
    let mut s = String::from(GOOD);
    s.push_str("  b0:\n    fields: &f0 {A: {bits: 0..3, type: uint}}\n");
    for i in 1..10 {
        let p = i - 1;
        let merges = vec![format!("*f{p}"); 9].join(", ");
        s.push_str(&format!("  b{i}:\n    fields: &f{i} {{<<: [{merges}]}}\n"));
    }
    let (path, d) = isa_errors("bomb", s.as_bytes());
    let msg = only(&path, &d);
    assert!(msg.contains("aliases expand to more than 500000 events"), "{msg}");
}

#[test]
fn ten_thousand_levels_of_nesting() {
    // The schema has no recursive type, so the spec loader meets a type
    // error within its first ten levels, before anything recurses deeply;
    // `src/yaml.rs` tests the depth limit itself on a type that reads anything.
    let flow = format!("{GOOD}doc: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let (path, d) = isa_errors("deep-flow", flow.as_bytes());
    assert_eq!(only(&path, &d), "10:6: expected string scalar");
    let block = format!("{GOOD}  deep:\n    fields: {}x\n", "{A: ".repeat(10_000));
    let (path, d) = isa_errors("deep-block", block.as_bytes());
    assert_eq!(
        only(&path, &d),
        "11:18: unknown field `A`, expected one of bits, expr, type, display, params, float, default, doc"
    );
    let seq = format!("{GOOD}files:\n  {}x\n", "- ".repeat(10_000));
    let (path, d) = isa_errors("deep-seq", seq.as_bytes());
    assert_eq!(only(&path, &d), "11:5: expected string scalar");
}

#[test]
fn a_hundred_megabyte_file() {
    // Generated, never committed: a valid spec followed by 100 MB of comment.
    let path = dir("huge").join("isa.yaml");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(GOOD.as_bytes()).unwrap();
        let line = format!("# {}\n", "x".repeat(1022));
        for _ in 0..100 * 1024 {
            f.write_all(line.as_bytes()).unwrap();
        }
    }
    assert!(std::fs::metadata(&path).unwrap().len() > 100 << 20);
    let d = isa_codegen::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(only(&path, &d), "1:1: spec file is larger than 8388608 bytes, the limit for one file");
    assert!(d[0].notes[0].contains("split the spec"), "{:?}", d[0].notes);
}

#[cfg(unix)]
#[test]
fn an_endless_file() {
    // Reading stops one byte past the limit, so even a file without end
    // gives the size error instead of filling memory.
    let (_, d) = isa_errors("endless", format!("{GOOD}files: [/dev/zero]\n").as_bytes());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].loc.file, Path::new("/dev/zero"));
    assert!(d[0].message.starts_with("spec file is larger than 8388608 bytes"), "{d:#?}");
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let (path, d) = isa_errors("nul", GOOD.replace("demo", "de\0mo").as_bytes());
    assert_eq!(only(&path, &d), "1:8: spec file contains a NUL byte");
    let mut bytes = GOOD.as_bytes().to_vec();
    bytes[GOOD.find("inst").unwrap()] = 0xff;
    let (path, d) = isa_errors("utf8", &bytes);
    assert_eq!(only(&path, &d), "2:1: spec file is not valid UTF-8");
}

#[test]
fn integers_past_64_bits() {
    let (path, d) = isa_errors("bigint", GOOD.replace("size: 8", "size: 99999999999999999999999").as_bytes());
    assert_eq!(
        only(&path, &d),
        "5:11: `99999999999999999999999` is not a whole number from 0 to 4294967295 (invalid u32)"
    );
    let (path, d) = isa_errors("bigbit", GOOD.replace("0..3", "0..18446744073709551616").as_bytes());
    let msg = only(&path, &d);
    assert!(msg.starts_with("7:17: ") && msg.contains("`0..18446744073709551616` is not a bit or bit range"), "{msg}");
}

#[test]
fn a_field_a_thousand_bits_wide() {
    let (path, d) = isa_errors("wide", GOOD.replace("0..3", "0..999").as_bytes());
    let msgs: Vec<_> = d.iter().map(|d| format!("{}:{}: {}", d.loc.line, d.loc.col, d.message)).collect();
    assert!(d.iter().all(|d| d.loc.file == path));
    assert_eq!(msgs[0], "7:17: field `A` of `inst` (bits 0..999) lies outside the 8-bit encoding");
    assert_eq!(msgs[1], "7:17: field `A` is 1000 bits wide, more than 64; split it into several fields");
    // The widest range a u32 can write must not overflow on the way.
    let wide = GOOD.replace("0..3", "0..4294967295").replace("4..7", "4294967295");
    let (_, d) = isa_errors("widest", wide.as_bytes());
    assert!(d[0].message.contains("(bits 0..4294967295) lies outside"), "{d:#?}");
    assert!(d[1].message.contains("is 4294967296 bits wide"), "{d:#?}");
    // A 1,000-bit encoding is refused where its size is written.
    let (path, d) = isa_errors("size", GOOD.replace("size: 8", "size: 1000").as_bytes());
    assert_eq!(d[0].loc.file, path);
    assert!(d[0].message.contains("size 1000 is out of range: encodings are 1 to 128 bits"), "{d:#?}");
    // A pattern as wide.
    let pattern = GOOD.replace("    display", "    pattern: {0..4294967295: \"0\"}\n    display");
    let (_, d) = isa_errors("pattern", pattern.as_bytes());
    assert!(d.iter().any(|d| d.message.contains("pattern bits 0..4294967295 lie outside")), "{d:#?}");
}

#[test]
fn an_abi_word_field_a_thousand_bits_wide() {
    for (name, bits) in [("abi-wide", "0..999"), ("abi-widest", "0..4294967295")] {
        let path = dir(name).join("abi.yaml");
        let yaml = format!(
            "abi: demo\nwords:\n  state:\n    bits: 32\n    fields:\n      a: {{bits: {bits}}}\n      b: {{bits: 8..9}}\n"
        );
        std::fs::write(&path, yaml).unwrap();
        let d = isa_codegen::abi::load(&path).expect_err("the ABI loaded");
        assert_eq!((d[0].loc.line, d[0].loc.col), (6, 17), "{d:#?}");
        assert!(
            d[0].message.contains(&format!("field `a` (bits {bits}) does not fit the 32-bit word `state`")),
            "{d:#?}"
        );
    }
}

/// Writes `yaml` as a root ABI spec and loads and checks it as `abi!`
/// does; that must fail.
fn abi_errors(name: &str, yaml: &str) -> (PathBuf, Vec<Diagnostic>) {
    let path = dir(name).join("abi.yaml");
    std::fs::write(&path, yaml).unwrap();
    match isa_codegen::abi::load_checked(&path) {
        Ok(_) => panic!("{name}: the ABI loaded"),
        Err(d) => (path, d),
    }
}

#[test]
fn an_abi_slot_array_of_four_billion_elements() {
    // Each element is a slot to place and check against the others: the
    // count is bounded before any is placed.
    let (path, d) = abi_errors(
        "abi-slot-count",
        "abi: demo\nslot-tables:\n  t:\n    entries:\n      a: {slot: i, count: 4000000000, dwords: 4}\n",
    );
    assert_eq!(only(&path, &d), "5:7: slot `a` has 4000000000 elements; a slot table holds at most 65536 slots in all");
}

#[test]
fn an_abi_slot_past_four_billion_dwords_or_below_zero() {
    // Slot 4,294,967,295 of 4 dwords ends past what 32-bit offsets count,
    // and `1 - i` gives slot -1 for element 2: neither may be clamped or
    // wrapped round onto the table's first slots.
    let (path, d) = abi_errors(
        "abi-slot-far",
        "abi: demo\nslot-tables:\n  t:\n    dwords: 8\n    entries:\n      a: {slot: 0, dwords: 4}\n      b: {slot: 4294967295, dwords: 4}\n",
    );
    assert_eq!(only(&path, &d), "7:7: element 0 of `b` is slot 4294967295, whose 4 dwords end past dword 4294967295");
    let (path, d) = abi_errors(
        "abi-slot-negative",
        "abi: demo\nslot-tables:\n  t:\n    entries:\n      a: {slot: 1 - i, count: 3, dwords: 4}\n",
    );
    assert_eq!(only(&path, &d), "5:7: element 2 of `a` is slot -1, below 0");
}

#[test]
fn an_abi_argument_of_four_billion_elements() {
    // No element is placed (each is absent), so no limit of the register
    // file stops the walk: the count itself must be bounded by the file.
    let (path, d) = abi_errors(
        "abi-arg-count",
        "abi: demo\nregister-files:\n  r: {unit-bits: 32, units: 16, prefix: r}\nstages:\n  vs:\n    variants:\n      main:\n        blocks:\n          regs:\n            file: r\n            args:\n              - {name: a, bits: 32, count: 4000000000, when: i < 0}\n",
    );
    let msg = only(&path, &d);
    assert!(msg.contains("`a` has 4000000000 elements, more than the 16 units of register file `r`"), "{msg}");
}

#[test]
fn an_abi_register_file_of_four_billion_units() {
    let (path, d) = abi_errors(
        "abi-file-units",
        "abi: demo\nregister-files:\n  r: {unit-bits: 32, units: 4294967295, prefix: r}\n",
    );
    assert_eq!(only(&path, &d), "3:29: register file `r` has 4294967295 units; a file has 0 to 65536");
}

#[test]
fn an_abi_variant_too_long_to_check() {
    // A million parameter values (within the combinations allowed) times
    // an array that may take a whole 65,536-unit file: bounded up front,
    // not placed 2^36 times.
    let (path, d) = abi_errors(
        "abi-steps",
        "abi: demo\nparams:\n  n: {range: 0..1048575}\nregister-files:\n  r: {unit-bits: 32, units: 65536, prefix: r}\nstages:\n  vs:\n    variants:\n      main:\n        blocks:\n          regs:\n            file: r\n            args:\n              - {name: a, bits: 32, count: n % 16}\n",
    );
    assert_eq!(
        only(&path, &d),
        "9:7: variant `main` may look at 68719476736 arguments and elements over its 1048576 parameter combinations; the limit is 67108864"
    );
}

#[test]
fn an_abi_argument_at_the_end_of_64_bits() {
    // `at` near i64::MAX, and a user-data stride whose register addresses
    // pass 32 bits: each is an error at the argument, not a wrapped number.
    let head = "abi: demo\nregister-files:\n  r: {unit-bits: 32, units: 16, prefix: r}\nstages:\n  vs:\n    variants:\n      main:\n        blocks:\n          regs:\n            file: r\n";
    let (path, d) = abi_errors(
        "abi-at-max",
        &format!("{head}            args:\n              - {{name: a, bits: 64, at: 9223372036854775807}}\n"),
    );
    assert_eq!(
        only(&path, &d),
        "12:24: variant `main`: `a` ends at unit 9223372036854775807, past the end of register file of 16 units"
    );
    let (path, d) = abi_errors(
        "abi-stride",
        &format!(
            "{head}            user-data: {{name: USER, register: 0xfffffff0, stride: 4294967295}}\n            args:\n              - {{name: a, bits: 32, at: 0}}\n              - {{name: b, bits: 32, at: 1}}\n"
        ),
    );
    assert_eq!(
        only(&path, &d),
        "14:24: variant `main`: `b`'s user data register 0xfffffff0 + 1 * 4294967295 does not fit 32 bits"
    );
}

/// A table row's opcode plus its derived form's offset is added in
/// 64 bits: near i64::MAX the sum must be an error at the row, not a
/// wrapped (or, in a debug build, panicking) addition.
#[test]
fn a_derived_opcode_past_64_bits() {
    let table = "instructions:\n  - extends: op\n    field: OPC\n    derive:\n      - {extends: op, offset: 1, tag: e64}\n    opcodes:\n      big: 9223372036854775807\n";
    let spec = format!(
        "isa: demo\ninstruction: inst\nbitsets:\n  inst:\n    size: 72\n    fields:\n      B: {{bits: 64..71, type: uint}}\n    display: \"{{NAME}} {{B}}\"\n  op:\n    extends: inst\n    fields:\n      OPC: {{bits: 0..63, type: int}}\n{table}"
    );
    let (path, d) = isa_errors("derived-opcode", spec.as_bytes());
    assert_eq!(only(&path, &d), "19:12: `big@e64`: opcode 9223372036854775807 + offset 1 does not fit a 64-bit number");
    // The same per generation.
    let spec = spec
        .replace("isa: demo\n", "isa: demo\ngenerations: [{name: g1, value: 1}, {name: g2, value: 2}]\n")
        .replace("offset: 1,", "offset: {g1: 0, g2: -9223372036854775808},")
        .replace("big: 9223372036854775807", "big: {g1: 1, g2: -1}");
    let (path, d) = isa_errors("derived-opcode-gen", spec.as_bytes());
    assert_eq!(
        only(&path, &d),
        "20:12: `big@e64`: opcode -1 + offset -9223372036854775808 in generation `g2` does not fit a 64-bit number"
    );
}

/// A per-generation value holds until the generation before the next
/// column's. Generations out of order are reported, and must not then
/// make that generation's value 0 - 1 on the way.
#[test]
fn generations_out_of_order_with_a_per_generation_opcode() {
    let spec = "isa: demo\ngenerations: [{name: a, value: 5}, {name: b, value: 0}]\ninstruction: inst\nbitsets:\n  inst:\n    size: 8\n    fields:\n      B: {bits: 4..7, type: uint}\n    display: \"{NAME} {B}\"\n  op:\n    extends: inst\n    fields:\n      OPC: {bits: 0..3, type: uint}\ninstructions:\n  - extends: op\n    field: OPC\n    opcodes:\n      x: {a: 1, b: 2}\n";
    let (path, d) = isa_errors("gens-order", spec.as_bytes());
    assert_eq!(only(&path, &d), "2:53: generations must be listed oldest first, with increasing values");
    // The same through a per-generation format.
    let spec = spec.replace("extends: op\n", "extends: {a: op, b: op}\n").replace("{a: 1, b: 2}", "1");
    let (path, d) = isa_errors("gens-order-extends", spec.as_bytes());
    assert_eq!(
        located(&path, &d),
        [
            "2:53: generations must be listed oldest first, with increasing values",
            // Both pieces start at the first generation, so both take its name.
            "18:7: `x@a` is defined twice"
        ]
    );
}

/// `fixed:` marks the field's bits as identifying bits before the field
/// itself is checked: a field starting past bit 127, or made of ranges
/// wider together than a 128-bit word, must be reported, not shifted by
/// 128 bits or more.
#[test]
fn a_fixed_value_on_a_field_past_bit_127_or_wider_than_128_bits() {
    let far = GOOD.replace("    display", "    fixed: {A: 100}\n    display").replace("0..3", "200..203");
    let (path, d) = isa_errors("fixed-far", far.as_bytes());
    assert_eq!(
        located(&path, &d),
        [
            "9:16: 100 does not fit field `A` (4 bits)",
            "7:17: field `A` of `inst` (bits 200..203) lies outside the 8-bit encoding",
            "4:3: `inst`: bits 0..3 are not covered"
        ]
    );
    let wide = GOOD
        .replace("size: 8", "size: 128")
        .replace("0..3", "[0, 1..127, 0]")
        .replace("B: {bits: 4..7, type: uint}", "B: {expr: A, type: uint}")
        .replace("    display", "    fixed: {A: 0}\n    display");
    let (path, d) = isa_errors("fixed-wide", wide.as_bytes());
    assert_eq!(located(&path, &d), ["7:17: field `A` is 129 bits wide, more than 64; split it into several fields"]);
}

/// An operand type counting 1-bit registers converts a class of wider
/// registers at multiples of the ratio of their widths: for 4294967295-bit
/// registers, past what 32 bits count. The width is bounded where it is
/// written (and a register has at least one bit).
#[test]
fn a_register_class_four_billion_bits_wide() {
    let spec = "isa: demo\ninstruction: inst\nmachine:\n  register-files:\n    r: {units: 16}\n  register-classes:\n    a: {file: r, bits: 1, syntax: \"a{N}\"}\n    b: {file: r, bits: 4294967295, syntax: \"b{N}\"}\nbuilder:\n  operands:\n    reg: {registers: [a, b], width: W}\nbitsets:\n  reg:\n    size: 4\n    params:\n      W: {type: uint}\n    fields:\n      N: {bits: 0..3, type: uint}\n    display: \"r{N}\"\n  inst:\n    size: 8\n    fields:\n      A: {bits: 0..3, type: reg, params: {W: 1}}\n      B: {bits: 4..7, type: uint}\n    display: \"{NAME} {A}, {B}\"\n";
    let path = dir("class-bits").join("isa.yaml");
    std::fs::write(&path, spec).unwrap();
    let Err(d) = isa_codegen::expand(&path) else { panic!("the spec expanded") };
    assert_eq!(only(&path, &d), "8:24: register class `b` has 4294967295-bit registers; 1 to 65536 bits are allowed");
    let zero = spec.replace("bits: 4294967295", "bits: 0");
    std::fs::write(&path, zero).unwrap();
    let Err(d) = isa_codegen::expand(&path) else { panic!("the spec expanded") };
    assert_eq!(only(&path, &d), "8:24: register class `b` has 0-bit registers; 1 to 65536 bits are allowed");
}

/// Flat text, but each `||` nests the tree one level deeper: compiling
/// (and dropping) it recursed 20,000 levels and overflowed the stack.
#[test]
fn a_condition_of_ten_thousand_comparisons() {
    let cond: Vec<String> = (0..10_000).map(|i| format!("A == {i}")).collect();
    let spec = GOOD.replace("    display", &format!("    requires: \"{}\"\n    display", cond.join(" || ")));
    let (path, d) = isa_errors("long-expr", spec.as_bytes());
    let msg = only(&path, &d);
    assert!(msg.starts_with("9:15: in expression `A == 0 || A == 1 || "), "{}", &msg[..100]);
    assert!(
        msg.ends_with(
            ": the expression has 39999 tokens; at most 2048 are allowed (derive parts of it in fields of their own)"
        ),
        "{}",
        &msg[msg.len() - 200..]
    );
}

/// Each constant `gen` is compared with starts a class of generations,
/// and each class tabulated every leaf's decoding again: 4,000 constants
/// and 256 leaves made millions of tabulations. Past a few dozen classes
/// nothing is tabulated (the decoder evaluates the conditions as written).
#[test]
fn gen_compared_with_thousands_of_constants() {
    let mut cases = String::from("    cases:\n");
    for c in 0..8 {
        let cond: Vec<String> = (0..500).map(|i| format!("gen == {}", 2 * (c * 500 + i) + 1)).collect();
        cases.push_str(&format!("      - {{when: \"{}\", display: \"{{NAME}} {{B}}\"}}\n", cond.join(" || ")));
    }
    let rows: String = (0..256).map(|i| format!("      i{i}: {i}\n")).collect();
    let spec = format!(
        "isa: demo\ngenerations: [{{name: g0, value: 0}}, {{name: g1, value: 100000}}]\ninstruction: inst\nbitsets:\n  inst:\n    size: 16\n    fields:\n      B: {{bits: 8..15, type: uint}}\n    display: \"{{NAME}} {{B}}\"\n{cases}  op:\n    extends: inst\n    fields:\n      OPC: {{bits: 0..7, type: uint}}\ninstructions:\n  - extends: op\n    field: OPC\n    opcodes:\n{rows}"
    );
    let path = dir("gen-classes").join("isa.yaml");
    std::fs::write(&path, spec).unwrap();
    let spec = isa_codegen::load(&path).unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(spec.isa.leaves.len(), 256);
    assert!(spec.isa.dispatch.unwrap().gen_bounds.is_empty());
}

/// Encodings are numbered in 16 bits: a table of 65,535 rows beside two
/// bitsets is one too many, refused at the first one past the limit rather
/// than numbered modulo 65,536.
#[test]
fn sixty_five_thousand_table_rows() {
    let rows: String = (0..65_535).map(|i| format!("      i{i}: {i}\n")).collect();
    let (path, d) = isa_errors("many-rows", table_spec(16, &rows).as_bytes());
    assert_eq!(
        only(&path, &d),
        "65551:7: the spec defines 65537 bitsets (table rows included); at most 65536 are allowed"
    );
}

/// Each encoding's condition reads a 16-bit field its own way, so no two
/// tabulations are shared: 65,536 evaluations each, and these 2,000 took
/// 11 s to load in a debug build, more with every row. The tables stop at
/// their budget and leave the rest to the engine, which answers the same.
#[test]
fn thousands_of_conditions_on_a_sixteen_bit_field() {
    let rows: String = (0..2_000)
        .map(|i| format!("  i{i}:\n    extends: op\n    fixed: {{OPC: {i}}}\n    requires: \"W / {} != 7\"\n", i + 2))
        .collect();
    let spec = format!(
        "isa: demo\ninstruction: inst\nbitsets:\n  inst:\n    size: 27\n    fields:\n      W: {{bits: 11..26, type: uint}}\n    display: \"{{NAME}} {{W}}\"\n  op:\n    extends: inst\n    fields:\n      OPC: {{bits: 0..10, type: uint}}\n{rows}"
    );
    let path = dir("conditions").join("isa.yaml");
    std::fs::write(&path, spec).unwrap();
    let isa = isa_codegen::load(&path).unwrap_or_else(|d| panic!("{d:#?}")).isa;
    let plans = isa.dispatch.expect("tables").plans;
    let slow = |leaf: usize| plans[leaf].flags & isa_runtime::Plan::REQUIRES_SLOW != 0;
    let leaf = |name: &str| isa.leaves.iter().position(|l| l.name == name).expect("a leaf");
    let (first, last) = (leaf("i0"), leaf("i1999"));
    assert!(!slow(first), "the first conditions are tabulated");
    assert!(slow(last), "the last are left to the engine");
    // Both decode as the conditions say: `W / (i + 2) != 7`.
    for (i, at) in [(0u32, first), (1999, last)] {
        let word = |w: u32| isa_runtime::Bits::from(i | w << 11);
        let w_fails = 7 * (i + 2);
        assert_eq!(isa.decode(word(w_fails - 1), isa.default_gen).map(|d| d.leaf as usize), Ok(at));
        assert!(isa.decode(word(w_fails), isa.default_gen).is_err(), "i{i}: W = {w_fails} fails its condition");
        assert!(isa.decode(word(w_fails + i + 1), isa.default_gen).is_err());
        assert_eq!(isa.decode(word(w_fails + i + 2), isa.default_gen).map(|d| d.leaf as usize), Ok(at));
    }
}

/// Twenty thousand encodings with the same opcode: every pair overlaps,
/// and the check reported each pair (3,000 such encodings made 4.5 million
/// diagnostics in 3.3 GB; these would make 200 million). Now the first 64
/// pairs, and one diagnostic saying there are more.
#[test]
fn twenty_thousand_encodings_that_all_overlap() {
    let rows: String = (0..20_000).map(|i| format!("      i{i}: 0\n")).collect();
    let (path, d) = isa_errors("all-overlap", table_spec(8, &rows).as_bytes());
    let d = located(&path, &d);
    assert_eq!(d.len(), 65, "{:#?}", &d[..3.min(d.len())]);
    assert_eq!(d[0], "18:7: encodings `i0` and `i1` can both match 0x0 in every generation");
    assert!(d[63].ends_with("can both match 0x0 in every generation"), "{}", d[63]);
    assert!(d[64].ends_with("more encodings of group `inst` overlap than the 64 pairs reported"), "{}", d[64]);
}

/// Per-generation values are resolved generation by generation for every
/// row: more than 1,024 generations is an error at the first one past.
#[test]
fn a_thousand_and_twenty_five_generations() {
    let gens: Vec<String> = (0..1_025).map(|g| format!("{{name: g{g}, value: {g}}}")).collect();
    let spec = GOOD.replacen("instruction:", &format!("generations: [{}]\ninstruction:", gens.join(", ")), 1);
    let (path, d) = isa_errors("generations", spec.as_bytes());
    // At the 1,025th generation's name, on line 2.
    let col = spec.find("g1024,").expect("the last generation") - spec.find("generations:").unwrap() + 1;
    assert_eq!(only(&path, &d), format!("2:{col}: the spec lists 1025 generations; at most 1024 are allowed"));
}

/// Twelve thousand encodings, each with fixed bits of its own: no two
/// overlap (bits 0..14 tell them apart), but with as many masks as
/// encodings the check compares every pair, 72 million: it gives up at its
/// budget and says so.
#[test]
fn twelve_thousand_encodings_each_with_a_mask_of_its_own() {
    let bits =
        |v: usize, one: char| -> String { (0..14).rev().map(|b| if v >> b & 1 == 1 { one } else { '0' }).collect() };
    let leaves: String = (0..12_000)
        .map(|k| {
            format!(
                "  e{k}:\n    extends: inst\n    pattern: {{0..13: \"{}\", 14..27: \"{}\"}}\n",
                bits(k, '1'),
                bits(k, 'x')
            )
        })
        .collect();
    let spec =
        format!("isa: demo\ninstruction: inst\nbitsets:\n  inst:\n    size: 28\n    display: \"{{NAME}}\"\n{leaves}");
    let (path, d) = isa_errors("masks", spec.as_bytes());
    let d = located(&path, &d);
    assert_eq!(d.len(), 1, "{:#?}", &d[..3.min(d.len())]);
    assert!(
        d[0].ends_with(
            "checking that no two of the 12000 encodings of group `inst` match the same word would take more than 67108864 comparisons (12000 masks of fixed bits and priorities)"
        ),
        "{}",
        d[0]
    );
}
