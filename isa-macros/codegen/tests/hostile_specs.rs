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
    assert_eq!(d[0].loc.file, path);
    format!("{}:{}: {}", d[0].loc.line, d[0].loc.col, d[0].message)
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
