//! Shader ABIs, each written once in YAML and expanded by `abi!` into its
//! `ABI` static and typed accessors: where every shader input and output lives,
//! so that drivers and the backend agree bit for bit. The generic code
//! (placing, checking, packing, printing) is `isa_runtime::abi`.

pub use isa_runtime::abi as runtime;

// One module per folder `abi-specs/<target>/` (with its doc comment from the
// spec's `doc:`) and the `TARGETS` list, written by `cargo xtask regen`.
mod targets;
pub use targets::*;

/// The target with this name.
pub fn target(name: &str) -> Option<&'static isa_runtime::abi::Abi> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
