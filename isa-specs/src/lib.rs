//! The instruction sets, each written once in YAML and expanded by `isa!` into
//! its tables and `Opcode` enum. The engine (decode, print, assemble, pack,
//! validate) is `isa_runtime`, shared by every target.

pub use isa_runtime as runtime;

/// Qualcomm Adreno ir3 (a3xx to a8xx).
pub mod ir3 {
    isa_macros::isa!("../ir3/isa.yaml");
}

/// AMD GCN GFX6-8 (radeonsi-era Radeon).
pub mod gcn {
    isa_macros::isa!("../gcn/isa.yaml");
}

/// Apple G13 (AGX), in Mesa's AGX2 syntax and applegpu's.
pub mod agx {
    isa_macros::isa!("../agx/isa.yaml");
}

/// Every target, for tools that take `--target NAME`.
pub static TARGETS: &[&isa_runtime::Isa] = &[&ir3::ISA, &gcn::ISA, &agx::ISA];

/// The target with this name.
pub fn target(name: &str) -> Option<&'static isa_runtime::Isa> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
