//! Every check of the generator, shown on a small bad spec: each must fail to
//! compile with a message that names the YAML file, line and column.

#[test]
fn bad_specs_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
