isa_macros::isa!("all_errors_reported.yaml");

fn main() {}
