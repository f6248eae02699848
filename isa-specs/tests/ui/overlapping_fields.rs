isa_macros::isa!("overlapping_fields.yaml");

fn main() {}
