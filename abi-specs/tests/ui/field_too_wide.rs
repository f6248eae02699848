isa_macros::abi!("field_too_wide.yaml");

fn main() {}
