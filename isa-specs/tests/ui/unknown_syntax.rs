isa_macros::isa!("unknown_syntax.yaml");

fn main() {}
