isa_macros::isa!("machine_unknown_names.yaml");

fn main() {}
