isa_macros::isa!("field_outside_format.yaml");

fn main() {}
