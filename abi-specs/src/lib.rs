//! Shader ABIs, each written once in YAML and expanded by `abi!` into its
//! `ABI` static and typed accessors: where every shader input and output lives,
//! so that drivers and the backend agree bit for bit. The generic code
//! (placing, checking, packing, printing) is `isa_runtime::abi`.

pub use isa_runtime::abi as runtime;

/// Apple AGX (G13), as Mesa's asahi compiler uses it.
pub mod agx {
    isa_macros::abi!("../agx/abi.yaml");
}

/// AMD GCN GFX6-8, as radeonsi (Mesa 17.3.9) uses it.
pub mod gcn {
    isa_macros::abi!("../gcn/abi.yaml");
}

/// Qualcomm Adreno ir3: register files and registers with a fixed role.
pub mod ir3 {
    isa_macros::abi!("../ir3/abi.yaml");
}

/// Every target, for tools that take `--target NAME`.
pub static TARGETS: &[&isa_runtime::abi::Abi] = &[&agx::ABI, &gcn::ABI, &ir3::ABI];

/// The target with this name.
pub fn target(name: &str) -> Option<&'static isa_runtime::abi::Abi> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
