//! Every layout check of `abi!`, shown on a small bad ABI spec: each must fail
//! to compile with a message that names the YAML file, line and column.

#[test]
fn bad_abi_specs_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
