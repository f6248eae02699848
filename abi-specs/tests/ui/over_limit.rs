isa_macros::abi!("over_limit.yaml");

fn main() {}
