//! See `isagen::fuzz::decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| isagen::fuzz::decode(data));
