isa_macros::isa!("uncovered_bits.yaml");

fn main() {}
