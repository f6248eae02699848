//! Helpers shared by the backend's integration tests.
#![allow(dead_code)]

use backend::{Compiled, Target, check, compile, ra_check, regalloc};

/// The target with this name at generation `gen_` (its default when `None`).
pub fn target(name: &str, gen_: Option<u32>) -> Target {
    let isa = isa_specs::target(name).expect("target exists");
    Target::new(isa, gen_.unwrap_or(isa.default_gen), abi_specs::target(name)).expect("target has a machine model")
}

/// The path of a bundled example.
pub fn example(path: &str) -> String {
    let p = format!("{}/../examples/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Compiles and runs both independent checks explicitly (compile runs them
/// too; here their answers are asserted on).
pub fn compile_checked(t: &Target, text: &str) -> Compiled {
    let c = compile(t, text).unwrap_or_else(|e| panic!("{e}"));
    let hazards = check::check(t, &c.code);
    assert!(hazards.is_empty(), "hazard checker: {hazards:?}");
    let groups = backend::group::Groups::default();
    let ra = ra_check::validate(&c.function, t, &c.order, &c.assignment, &groups);
    assert!(ra.is_empty(), "register validator: {ra:?}");
    let _: &regalloc::Assignment = &c.assignment;
    c
}

/// Decodes a binary back into instruction texts with the target's decoder.
pub fn decode_all(t: &Target, mut bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (inst, n) = t.isa.decode_bytes(bytes, t.gen_).unwrap_or_else(|e| panic!("decoding: {e}"));
        out.push(t.isa.print(&inst, t.gen_));
        bytes = &bytes[n..];
    }
    out
}
