//! Shader ABIs, each written once in YAML and expanded by `abi!` into its
//! `ABI` static and typed accessors: where every shader input and output lives,
//! so that drivers and the backend agree bit for bit. The generic code
//! (placing, checking, packing, printing) is `isa_runtime::abi`.

pub use isa_runtime::abi as runtime;

/// Apple AGX (G13), as Mesa's asahi compiler uses it.
pub mod agx {
    isa_macros::abi!("../agx/abi.yaml");
}

/// Every target, for tools that take `--target NAME`.
pub static TARGETS: &[&isa_runtime::abi::Abi] = &[&agx::ABI];

/// The target with this name.
pub fn target(name: &str) -> Option<&'static isa_runtime::abi::Abi> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
