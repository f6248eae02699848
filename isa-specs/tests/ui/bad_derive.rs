isa_macros::isa!("bad_derive.yaml");

fn main() {}
