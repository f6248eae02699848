// There are 128 32-bit registers.
use isa_specs::agx::build::*;

fn main() {
    let _r = full::<200>();
}
