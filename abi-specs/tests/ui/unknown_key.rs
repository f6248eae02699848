isa_macros::abi!("unknown_key.yaml");

fn main() {}
