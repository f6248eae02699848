//! The instruction sets, each written once in YAML and expanded by `isa!` into
//! its tables and `Opcode` enum. The engine (decode, print, assemble, pack,
//! validate) is `isa_runtime`, shared by every target.

pub use isa_runtime as runtime;

// One module per folder `isa-specs/<target>/` (with its doc comment from the
// spec's `doc:`) and the `TARGETS` list, written by `cargo xtask regen`.
mod targets;
pub use targets::*;

/// The target with this name.
pub fn target(name: &str) -> Option<&'static isa_runtime::Isa> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
