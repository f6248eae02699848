//! See `isa_codegen::fuzz::spec`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| isa_codegen::fuzz::spec(data));
