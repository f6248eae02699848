use backend::{Target, compile, emit};

#[test]
fn dp3() {
    let t = Target::new(&isa_specs::ir3::ISA, 600, None).unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/ir3/dp3.ir")).unwrap();
    let c = compile(&t, &text).unwrap_or_else(|e| panic!("{e}"));
    print!("{}", emit::listing_text(&c.listing));
}
