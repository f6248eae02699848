isa_macros::isa!("bad_pattern.yaml");

fn main() {}
