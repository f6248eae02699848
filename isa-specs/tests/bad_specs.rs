//! Every check of the generator, shown on a small bad spec: each must fail to
//! compile with a message that names the YAML file, line and column.
//!
//! With the `builders` feature, the same trybuild project also holds the
//! typed builders' proofs: what the hardware would reject does not compile,
//! each case in `tests/builders/fail` with the compiler's message (wrong
//! register file, wrong width, unaligned pair, out-of-range constant, missing
//! or extra operand, an instruction absent from the generation, a read-only
//! register written, for each target), and `tests/builders/pass` builds valid
//! programs with the same builders. With a pass case trybuild builds rather
//! than only checks, so range and alignment constants are evaluated as
//! `cargo build` evaluates them. One project for both keeps the cost of the
//! proofs to compiling the cases: the dependencies are built once.

#[test]
fn bad_specs_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    #[cfg(feature = "builders")]
    {
        t.pass("tests/builders/pass/*.rs");
        t.compile_fail("tests/builders/fail/*.rs");
    }
}
