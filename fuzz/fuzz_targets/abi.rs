//! See `isa_codegen::fuzz::abi`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| isa_codegen::fuzz::abi(data));
