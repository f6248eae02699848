isa_macros::isa!("unknown_key.yaml");

fn main() {}
