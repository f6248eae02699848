isa_macros::isa!("ambiguous_encodings.yaml");

fn main() {}
