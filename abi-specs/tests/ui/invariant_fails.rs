isa_macros::abi!("invariant_fails.yaml");

fn main() {}
