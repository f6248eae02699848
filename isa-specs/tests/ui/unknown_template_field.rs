isa_macros::isa!("unknown_template_field.yaml");

fn main() {}
