//! See `isagen::fuzz::ir`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| isagen::fuzz::ir(data));
