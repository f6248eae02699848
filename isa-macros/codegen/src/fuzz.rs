//! The spec loader's fuzz check, shared by `fuzz/fuzz_targets/spec.rs` and
//! the bounded run in `tests/fuzz_smoke.rs` at the workspace root.

use std::path::Path;

/// Loads `data` as a root ISA spec with no other file to read, and where it
/// loads, generates the macro's code and decodes and prints the first bytes
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
