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
    one_set_of_rustflags();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    #[cfg(feature = "builders")]
    {
        t.pass("tests/builders/pass/*.rs");
        t.compile_fail("tests/builders/fail/*.rs");
    }
}

/// trybuild compiles the project's dependencies with its rustflags, then each
/// case with one flag more (`--diagnostic-width=140`). Rustflags are part of
/// what Cargo fingerprints, so every dependency, every target's tables among them,
/// would be built twice. `CARGO_ENCODED_RUSTFLAGS` outranks the `--config`
/// rustflags trybuild passes; set to the second set, it makes the two builds
/// one. Left alone when the caller sets rustflags of their own.
fn one_set_of_rustflags() {
    if std::env::var_os("CARGO_ENCODED_RUSTFLAGS").is_some() || std::env::var_os("RUSTFLAGS").is_some() {
        return;
    }
    let flags = ["--cfg", "trybuild", "--verbose", "-A", "dead_code", "--diagnostic-width=140"];
    // SAFETY: called first in this binary's only test, before trybuild starts
    // any thread or process; nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f")) };
}
