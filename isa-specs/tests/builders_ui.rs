//! The typed builders reject at compile time what the hardware would: each
//! case in `tests/builders/fail` with the compiler's message (wrong register
//! file, wrong width, unaligned pair, out-of-range constant, missing or extra
//! operand, an instruction absent from the generation, a read-only register
//! written, for each target). `tests/builders/pass` builds valid programs
//! with the same builders; with a pass case trybuild builds rather than only
//! checks, so range and alignment constants are evaluated as `cargo build`
//! evaluates them.

#![cfg(feature = "builders")]

#[test]
fn builders_reject_invalid_programs() {
    let t = trybuild::TestCases::new();
    t.pass("tests/builders/pass/*.rs");
    t.compile_fail("tests/builders/fail/*.rs");
}
