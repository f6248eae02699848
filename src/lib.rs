//! isagen: GPU instruction sets and shader ABIs written once in YAML.
//!
//! This crate is the `isa` command line and re-exports the targets. The
//! batch-mode tools live in [`batch`], so that they are tested as plain functions;
//! the fuzzers' checks live in [`fuzz`], shared with `tests/fuzz_smoke.rs`.

pub mod abi_cmd;
pub mod batch;
pub mod compile_cmd;
pub mod fuzz;
pub mod hex;

pub use isa_runtime as runtime;
pub use isa_specs::{TARGETS, target};
