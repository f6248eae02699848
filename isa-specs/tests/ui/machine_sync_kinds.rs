isa_macros::isa!("machine_sync_kinds.yaml");

fn main() {}
