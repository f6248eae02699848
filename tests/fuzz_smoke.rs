//! A bounded run of each fuzz check (`isagen::fuzz`, `isa_codegen::fuzz`)
//! inside `cargo test`: a fixed number of inputs, each a seed mutated by a few
//! byte edits, so that the checks reach real encodings, real assembly, a spec
//! that loads and IR that compiles rather than only rejecting garbage. The
//! long runs are `cargo xtask fuzz`, which writes these same seeds as the
//! fuzzers' starting corpus through the ignored `write_corpus` test.

use std::path::{Path, PathBuf};

use isagen::fuzz::{self, selector};
use isagen::hex::{self, Format};
use isagen::runtime::{PrintOpts, TestRng};
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// Fields of the conformance vector files the seeds use (each file has
/// some of them).
#[derive(serde::Deserialize)]
struct Vector {
    hex: Option<String>,
    bytes: Option<String>,
    asm: String,
    #[serde(rename = "gen")]
    gen_: Option<u32>,
    mcpu: Option<String>,
}

/// A conformance vector file: its target, syntax and byte format.
struct VectorFile {
    path: &'static str,
    target: &'static str,
    syntax: &'static str,
    format: Format,
}

const VECTOR_FILES: &[VectorFile] = &[
    VectorFile { path: "ir3/disasm.yaml", target: "ir3", syntax: "", format: Format::Words64 },
    VectorFile { path: "gcn/mc.yaml", target: "gcn", syntax: "", format: Format::Bytes },
    VectorFile { path: "agx/mesa-cases.yaml", target: "agx", syntax: "mesa", format: Format::Bytes },
    VectorFile { path: "agx/applegpu.yaml", target: "agx", syntax: "applegpu", format: Format::Bytes },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Starting inputs for each check.
#[derive(Default)]
struct Seeds {
    decode: Vec<Vec<u8>>,
    assemble: Vec<Vec<u8>>,
    spec: Vec<Vec<u8>>,
    abi: Vec<Vec<u8>>,
    ir: Vec<Vec<u8>>,
}

fn with_selector(sel: [u8; fuzz::SELECTOR], rest: &[u8]) -> Vec<u8> {
    let mut v = sel.to_vec();
    v.extend_from_slice(rest);
    v
}

/// The seeds, made once per test binary.
fn seeds() -> &'static Seeds {
    static SEEDS: std::sync::OnceLock<Seeds> = std::sync::OnceLock::new();
    SEEDS.get_or_init(make_seeds)
}

/// Every conformance vector (bytes for `decode`, text for `assemble`), an
/// instruction of every opcode of every target printed in each syntax, the
/// spec files of every target (those of a one-file target load by
/// themselves), every ABI spec as one file (see [`abi_seeds`]), and the IR
/// examples.
fn make_seeds() -> Seeds {
    let mut s = Seeds::default();
    let conformance = root().join("tests/conformance");
    for f in VECTOR_FILES {
        let text = std::fs::read_to_string(conformance.join(f.path)).expect("the vector file reads");
        let vectors: Vec<Vector> = serde_saphyr::from_str(&text).expect("the vector file parses");
        let isa = isagen::target(f.target).expect("a target");
        let syntax = isa.syntax_by_name(f.syntax).unwrap_or(0);
        for v in vectors {
            let gen_ = v.gen_.or_else(|| isa.gen_by_name(v.mcpu.as_deref()?)).unwrap_or(isa.default_gen);
            let sel = selector(f.target, gen_, syntax).expect("a target");
            let hex = v.hex.or(v.bytes).expect("each vector has bytes");
            s.decode.push(with_selector(sel, &hex::read_line(&hex, f.format).expect("vector bytes")));
            s.assemble.push(with_selector(sel, v.asm.as_bytes()));
        }
    }
    let mut rng = TestRng::new(7);
    for isa in isagen::TARGETS {
        let syntaxes = isa.syntaxes.len().max(1) as u16;
        for &leaf in isa.groups[0].leaves {
            let Some(inst) = isa.sample(leaf, isa.default_gen, &mut || rng.next_u64()) else { continue };
            let sel = selector(isa.name, isa.default_gen, 0).expect("a target");
            s.decode.push(with_selector(sel, &inst.bytes()));
            for syntax in 0..syntaxes {
                let text = isa.print_in(&inst, isa.default_gen, PrintOpts { syntax, pad: None });
                let sel = selector(isa.name, isa.default_gen, syntax).expect("a target");
                s.assemble.push(with_selector(sel, text.as_bytes()));
            }
        }
    }
    s.spec.extend(files_under(&root().join("isa-specs"), "yaml").iter().map(|p| std::fs::read(p).unwrap()));
    s.abi = abi_seeds();
    s.ir.extend(files_under(&root().join("examples"), "ir").iter().map(|p| std::fs::read(p).unwrap()));
    s
}

/// Every ABI spec file, and each target's ABI of several files as one: its root, less
/// the `files:` line, with the other files of its folder appended (the
/// sections of the ABI language are keyed maps, so the parts merge as one
/// document), which the fuzzer, reading no other file, loads whole.
fn abi_seeds() -> Vec<Vec<u8>> {
    let files = files_under(&root().join("abi-specs"), "yaml");
    let mut seeds: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    for root_file in files.iter().filter(|p| p.file_name().is_some_and(|n| n == "abi.yaml")) {
        let parts: Vec<&PathBuf> =
            files.iter().filter(|p| p.parent() == root_file.parent() && *p != root_file).collect();
        if parts.is_empty() {
            continue; // a one-file ABI is a seed as it stands
        }
        let text = std::fs::read_to_string(root_file).unwrap();
        let mut whole: String = text.lines().filter(|l| !l.starts_with("files:")).map(|l| format!("{l}\n")).collect();
        for part in parts {
            whole.push_str(&std::fs::read_to_string(part).unwrap());
        }
        seeds.push(whole.into_bytes());
    }
    seeds
}

/// Files under `dir` (one level of folders deep) whose name ends in `.ext`.
fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let inner: Vec<PathBuf> =
            if p.is_dir() { std::fs::read_dir(&p).unwrap().flatten().map(|e| e.path()).collect() } else { vec![p] };
        out.extend(inner.into_iter().filter(|p| p.extension().is_some_and(|x| x == ext)));
    }
    out.sort();
    out
}

/// A seed with up to four edits: a byte overwritten, inserted or removed,
/// or the input cut short. Inserted bytes lean to what assembly and YAML
/// are made of, so text stays text.
fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![any::<u8>(), select(b" ,.:-_0123456789abcdefrvsx[]{}()#%\n".to_vec())];
    let edit = (0u8..4, any::<Index>(), byte);
    (select(seeds), prop::collection::vec(edit, 0..4)).prop_map(|(mut s, edits)| {
        for (kind, at, b) in edits {
            let i = at.index(s.len() + 1);
            match kind {
                0 if i < s.len() => s[i] = b,
                1 => s.insert(i, b),
                2 if i < s.len() => {
                    s.remove(i);
                }
                3 => s.truncate(i),
                _ => {}
            }
        }
        s
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(1000))]
    #[test]
    fn decode(data in mutated(seeds().decode.clone())) {
        fuzz::decode(&data);
    }

    #[test]
    fn decode_random_bytes(data in prop::collection::vec(any::<u8>(), 0..40)) {
        fuzz::decode(&data);
    }
}

proptest! {
    #![proptest_config(config(1000))]
    #[test]
    fn assemble(data in mutated(seeds().assemble.clone())) {
        fuzz::assemble(&data);
    }
}

proptest! {
    #![proptest_config(config(300))]
    #[test]
    fn spec(data in mutated(seeds().spec.clone())) {
        isa_codegen::fuzz::spec(&data);
    }

    #[test]
    fn ir(data in mutated(seeds().ir.clone())) {
        fuzz::ir(&data);
    }

    #[test]
    fn abi(data in mutated(seeds().abi.clone())) {
        isa_codegen::fuzz::abi(&data);
    }
}

/// Inputs the fuzzers failed on, kept as found.
#[test]
fn regressions() {
    // decode: a GCN VOP3 compare reading `s[0:1]` twice, encoded once as
    // register 0 and once as 1 (the hardware ignores the low bit of a pair),
    // broke the one-scalar-value rule on the raw numbers while its text
    // assembled. Rules now see the ignored bits cleared.
    let mut data = selector("gcn", 8, 0).unwrap().to_vec();
    data.extend([0x45, 0x00, 0xe1, 0xd0, 0x01, 0, 0, 0]);
    let (p, bytes) = fuzz::pick(&data).unwrap();
    let (inst, _) = p.isa.decode_bytes(bytes, p.gen_).unwrap();
    assert_eq!(p.isa.print(&inst, p.gen_), "v_cmp_lt_i64_e64 s[68:69], s[0:1], s[0:1]");
    assert!(p.isa.validate(&inst, p.gen_).is_empty());
    fuzz::decode(&data);
    // decode: `s_cmov_b32 s1, 0x48` (a literal) printed, then assembled as
    // the inline constant -8 (code 0xc8): the float spelling of an inline
    // integer took the code, not the value, as its bits.
    let mut data = selector("gcn", 8, 0).unwrap().to_vec();
    data.extend([0xff, 0x02, 0x81, 0xbe, 0x48, 0, 0, 0]);
    fuzz::decode(&data);
    let (p, _) = fuzz::pick(&data).unwrap();
    for (text, bytes) in [
        ("s_mov_b32 s1, 0x48", &[0xff, 0, 0x81, 0xbe, 0x48, 0, 0, 0][..]),
        ("s_mov_b32 s1, 0xfffffff8", &[0xc8, 0, 0x81, 0xbe]),
    ] {
        assert_eq!(p.isa.parse(text, p.gen_).unwrap().bytes(), bytes, "{text}");
    }
    // decode: `s_absdiff_i32 s18, 0x1, 0x1`, two literals holding 1,
    // printed as text that assembles to the inline constant twice. A literal
    // holding an inline value no longer decodes.
    let mut data = selector("gcn", 8, 0).unwrap().to_vec();
    data.extend([0xff, 0xff, 0x12, 0x95, 0x01, 0, 0, 0]);
    fuzz::decode(&data);
    let (p, bytes) = fuzz::pick(&data).unwrap();
    assert!(p.isa.decode_bytes(bytes, p.gen_).is_err());
    // decode: `v_div_fixup_f32 v138, neg(0.15915494), -exec_lo, -exec_hi
    // clamp` breaks the one-scalar-value rule, yet its text assembled: the
    // lenient pass let `exec_hi`, a case with no field of its own, take the
    // earlier case's bits (exec_lo), which kept the rule. An earlier case
    // may now hold leniently only where the text's own bits decide it.
    let mut data = selector("gcn", 8, 0).unwrap().to_vec();
    data.extend([0x8a, 0x80, 0xde, 0xd1, 0xf8, 0xfc, 0xfc, 0xe1]);
    fuzz::decode(&data);
    let (p, _) = fuzz::pick(&data).unwrap();
    for text in ["v_div_fixup_f32 v1, v2, exec_lo, exec_hi", "v_div_fixup_f32 v1, v2, vcc_lo, vcc_hi"] {
        let e = p.isa.parse(text, p.gen_).expect_err(text);
        assert!(e.message.contains("one scalar value per instruction"), "{text}: {}", e.message);
    }
    // decode: an ir3 half immediate holding a NaN printed as `h(NaN)`,
    // which the assembler does not read; NaN and infinity print as bits.
    let mut data = selector("ir3", 600, 0).unwrap().to_vec();
    data.extend([0x00, 0x7e, 0xff, 0xf8, 0x00, 0x14, 0xc0, 0x31]);
    fuzz::decode(&data);
    let (p, bytes) = fuzz::pick(&data).unwrap();
    let (inst, _) = p.isa.decode_bytes(bytes, p.gen_).unwrap();
    assert!(p.isa.print(&inst, p.gen_).ends_with("h(0x7e00)"), "{}", p.isa.print(&inst, p.gen_));
    // decode: an AGX `imadd` whose addend is the immediate 0 with its
    // ignored sign-extend bit set printed as `imadd ..., 0`, which only the
    // `imul` case can assemble. It prints as `imul` now, as Mesa writes it.
    let mut data = selector("agx", 0, 0).unwrap().to_vec();
    data.extend([0x5e, 0x78, 0xa7, 0x04, 0x00, 0x00, 0x04, 0x01]);
    fuzz::decode(&data);
    let (p, bytes) = fuzz::pick(&data).unwrap();
    let (inst, _) = p.isa.decode_bytes(bytes, p.gen_).unwrap();
    assert_eq!(p.isa.print(&inst, p.gen_), "imul r30l, $r19h.sx, 64, sat");
    // ir: text with no instruction has no block, and the one-block passes
    // indexed the first (`backend/tests/errors.rs` has the test per target).
    fuzz::ir(b"");
    // ir: a branch in the only block; reporting it indexed a second block.
    fuzz::ir(b"entry:\n    %a:full = input r0.x\n    goto entry\n");
    // ir: `abi` then a tab read as an instruction that printed as an ABI line.
    fuzz::ir(b"abi\tvs as-vs\n");
    // ir: a class starting with `-` defined a value before `=` but not in
    // operand text, so the printed instruction read back as a use.
    fuzz::ir(b"; Compute d\n    %i:-fll = imu]<ompute d\n b");
    // ir: `%v = abi x` was an instruction named `abi`, printed as a line that
    // reads as the ABI line.
    fuzz::ir(b"abi cs main\nentry:\n    %bufs:sgpr[2] = abi const_an\nen 0x10\n");
    // ir: `%b = if` likewise printed as `if %b`, a branch.
    fuzz::ir(b";r0  blue\n    %b:vull = if\n:\n  ; %q:full =\x1aiy:\n  prA");
    // ir: `%v:full[1][` printed without its count, so the bracket after it
    // read as the count.
    fuzz::ir(b";\n    load %v:full[1][ u43 a\n");
    // ir: likewise `%v:full[1]-` printed as the class `full-`.
    fuzz::ir(b"oad %v:full[1]-[1]-4a\n");
}

/// The seeds reach deep: every decode seed decodes, and every vector's
/// text or printed sample assembles (a check that only sees errors checks
/// nothing).
#[test]
fn seeds_reach_real_encodings() {
    let s = seeds();
    let decoded = s.decode.iter().filter(|d| {
        let (p, bytes) = fuzz::pick(d).unwrap();
        p.isa.decode_bytes(bytes, p.gen_).is_ok()
    });
    assert!(decoded.count() * 10 >= s.decode.len() * 9, "most decode seeds decode");
    let assembled = s.assemble.iter().filter(|d| {
        let (p, text) = fuzz::pick(d).unwrap();
        p.isa.parse_in(std::str::from_utf8(text).unwrap(), p.gen_, p.opts.syntax).is_ok()
    });
    assert!(assembled.count() * 10 >= s.assemble.len() * 9, "most assemble seeds assemble");
    let loads = s.spec.iter().filter(|d| {
        let mut read = |_: &Path| Ok(d.to_vec());
        isa_codegen::load_with(Path::new("isa.yaml"), &mut read).is_ok()
    });
    assert!(loads.count() >= 1, "a spec seed loads by itself");
    let abis = s.abi.iter().filter(|d| {
        let mut read = |_: &Path| Ok(d.to_vec());
        isa_codegen::abi::load_checked_with(Path::new("abi.yaml"), &mut read).is_ok()
    });
    assert_eq!(abis.count(), 3, "each target's ABI, as one file, loads and passes its checks");
    assert!(s.ir.len() >= 9);
}

/// Writes the seeds as the fuzzers' starting corpus, one file per input,
/// under `$ISAGEN_FUZZ_CORPUS/<check>/` (`cargo xtask fuzz` runs this).
#[test]
#[ignore]
fn write_corpus() {
    let dir = PathBuf::from(std::env::var_os("ISAGEN_FUZZ_CORPUS").expect("ISAGEN_FUZZ_CORPUS names a folder"));
    let s = seeds();
    for (name, inputs) in
        [("decode", &s.decode), ("assemble", &s.assemble), ("spec", &s.spec), ("abi", &s.abi), ("ir", &s.ir)]
    {
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub).unwrap();
        for (i, input) in inputs.iter().enumerate() {
            std::fs::write(sub.join(format!("seed-{i:05}")), input).unwrap();
        }
        println!("{name}: {} seeds", inputs.len());
    }
}
