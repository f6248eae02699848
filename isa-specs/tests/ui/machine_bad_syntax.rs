isa_macros::isa!("machine_bad_syntax.yaml");

fn main() {}
