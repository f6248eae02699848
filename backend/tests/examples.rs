//! Every bundled example compiles for its target, passes the hazard checker
//! and the register validator, and its binary decodes back, with the target's
//! decoder, to exactly the listing.

mod common;

fn examples() -> Vec<(String, String)> {
    let dir = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for t in std::fs::read_dir(&dir).expect("examples/") {
        let t = t.expect("entry").path();
        if !t.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&t).expect("target dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|x| x == "ir") {
                let target = t.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
                out.push((target, f.display().to_string()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_example_compiles_and_decodes_back_to_its_listing() {
    let all = examples();
    for target in ["ir3", "gcn", "agx"] {
        for kind in ["compute.ir", "fragment.ir"] {
            assert!(
                all.iter().any(|(t, p)| t == target && p.ends_with(kind)),
                "{target}: expected an example `{kind}`"
            );
        }
    }
    for (target, path) in &all {
        let Some(isa) = isa_specs::target(target) else { continue };
        let gen_file = std::path::Path::new(path).with_file_name("GEN");
        let gen_ = std::fs::read_to_string(&gen_file).ok().and_then(|g| isa.gen_by_name(g.trim()));
        let t = common::target(target, gen_);
        let text = std::fs::read_to_string(path).expect("example");
        let c = common::compile_checked(&t, &text);
        let listed: Vec<String> = c.listing.iter().map(|l| l.text.clone()).collect();
        assert_eq!(common::decode_all(&t, &c.binary), listed, "{path}");
        let mut addr = 0;
        for l in &c.listing {
            assert_eq!(l.addr as usize, addr, "{path}: addresses follow the encodings");
            addr += l.bytes.len();
        }
        assert_eq!(addr, c.binary.len());
    }
}
