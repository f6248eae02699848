isa_macros::abi!("overlap.yaml");

fn main() {}
