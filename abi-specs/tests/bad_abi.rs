//! Every layout check of `abi!`, shown on a small bad ABI spec: each must fail
//! to compile with a message that names the YAML file, line and column.

#[test]
fn bad_abi_specs_are_compile_errors() {
    one_set_of_rustflags();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// trybuild compiles the project's dependencies with its rustflags, then each
/// case with one flag more (`--diagnostic-width=140`). Rustflags are part of
/// what Cargo fingerprints, so every dependency, the ABI tables among them,
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
