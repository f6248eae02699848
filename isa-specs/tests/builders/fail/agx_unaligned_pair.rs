// A 64-bit value is an aligned pair of 32-bit registers.
use isa_specs::agx::build::*;

fn main() {
    let _pair = fulls::<3, 2>();
}
