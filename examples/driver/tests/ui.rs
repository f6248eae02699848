//! What the hardware would reject does not compile: each case in `tests/ui`
//! with the compiler's message. A valid program is built alongside (trybuild
//! then builds rather than only checks, so range and alignment constants are
//! evaluated, as `cargo build` does).

#[test]
fn builders_reject_invalid_programs() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui-pass/*.rs");
    t.compile_fail("tests/ui/*.rs");
}
