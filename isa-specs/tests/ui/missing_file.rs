isa_macros::isa!("missing_file.yaml");

fn main() {}
