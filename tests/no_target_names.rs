//! Architecture invariant: the generator, the engine and the backend know no
//! target by name. A target's quirk is a feature of the spec language instead.
//! Comments may use a target as an example; code may not.

use std::path::Path;

const NAMES: [&str; 8] = ["ir3", "adreno", "gcn", "radeon", "amdgpu", "agx", "apple", "asahi"];

fn scan(dir: &Path, hits: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                scan(&p, hits);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("").to_ascii_lowercase();
                for n in NAMES {
                    if code.contains(n) {
                        hits.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
}

#[test]
fn generator_engine_and_backend_name_no_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut hits = Vec::new();
    for dir in ["isa-macros/src", "isa-macros/codegen/src", "isa-macros/runtime/src", "backend/src"] {
        scan(&root.join(dir), &mut hits);
    }
    assert!(hits.is_empty(), "target names in target-independent code:\n{}", hits.join("\n"));
}
