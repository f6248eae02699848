isa_macros::isa!("value_does_not_fit.yaml");

fn main() {}
