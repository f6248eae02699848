//! The spec loader's fuzz check, shared by `fuzz/fuzz_targets/spec.rs` and
//! the bounded run in `tests/fuzz_smoke.rs` at the workspace root.

use std::path::Path;

/// Loads `data` as a root ISA spec with no other file to read, and where it
/// loads, checks its direct decoder's tables, generates the macro's code and
/// decodes and prints the first bytes
/// of `data` as an instruction of each generation. A spec that does not
/// load is fine; a panic or a hang is what this looks for (the limits of
/// `yaml.rs` bound the parse).
pub fn spec(data: &[u8]) {
    let root = Path::new("isa.yaml");
    let mut read = |p: &Path| match p == root {
        true => Ok(data.to_vec()),
        false => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "the fuzzer reads no other file")),
    };
    let Ok(spec) = crate::load_with(root, &mut read) else { return };
    let _ = crate::generate(&spec);
    let isa = spec.isa;
    // Decoders read the direct tables unchecked once they pass their
    // check; tables the generator made that failed it would decode the
    // general way, silently.
    if let Some(d) = isa.dispatch {
        assert!(d.direct.valid(), "the generator's direct decoder tables fail their check");
    }
    let mut word = [0u8; 16];
    let n = data.len().min(16);
    word[..n].copy_from_slice(&data[..n]);
    let gens: Vec<u32> = match isa.gens {
        [] => vec![isa.default_gen],
        gens => gens.iter().map(|g| g.value).collect(),
    };
    for g in gens {
        if let Ok(inst) = isa.decode(u128::from_le_bytes(word), g) {
            let _ = isa.print(&inst, g);
        }
    }
}

/// Loads `data` as a root ABI spec with no other file to read, and where it
/// loads and its checks pass, generates the macro's code and uses what a
/// driver would: every variant placed with its parameters' defaults in each
/// generation and rendered as a table, every slot table, and every packed
/// word unpacked from the first bytes of `data` and packed back. A spec
/// that does not load is fine; a panic, a hang, or a word that does not
/// pack back to the bits its fields cover is what this looks for.
pub fn abi(data: &[u8]) {
    let root = Path::new("abi.yaml");
    let mut read = |p: &Path| match p == root {
        true => Ok(data.to_vec()),
        false => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "the fuzzer reads no other file")),
    };
    let Ok((l, consts)) = crate::abi::load_checked_with(root, &mut read) else { return };
    let _ = crate::abi::emit::module(l.abi, &consts);
    let abi = l.abi;
    let gens: Vec<u32> = match abi.gens {
        [] => vec![abi.default_gen],
        gens => gens.iter().map(|g| g.value).collect(),
    };
    for stage in abi.stages {
        for v in stage.variants {
            let Ok(params) = v.bind(abi, &[]) else { continue };
            for &g in &gens {
                if let Ok(layout) = v.layout(abi, g, &params) {
                    let _ = layout.table(abi, stage.name);
                }
            }
        }
    }
    for t in abi.slot_tables {
        assert_eq!(t.conflict(), None, "slot table `{}` loaded with overlapping slots", t.name);
        let _ = t.table();
    }
    let mut first = [0u8; 8];
    let n = data.len().min(8);
    first[..n].copy_from_slice(&data[..n]);
    for w in abi.words {
        let bits = u64::from_le_bytes(first) & if w.bits >= 64 { u64::MAX } else { (1u64 << w.bits) - 1 };
        let values = w.unpack(bits).expect("bits within the word's width unpack");
        let covered = w.fields.iter().fold(0, |m, f| m | f.mask());
        assert_eq!(w.pack(&values), Ok(bits & covered), "word `{}` packs back what it unpacked", w.name);
        let _ = w.table();
    }
}
