//! See `isagen::fuzz::assemble`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| isagen::fuzz::assemble(data));
