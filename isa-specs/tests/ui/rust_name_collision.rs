isa_macros::isa!("rust_name_collision.yaml");

fn main() {}
