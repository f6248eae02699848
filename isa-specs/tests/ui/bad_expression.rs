isa_macros::isa!("bad_expression.yaml");

fn main() {}
