isa_macros::abi!("misaligned.yaml");

fn main() {}
