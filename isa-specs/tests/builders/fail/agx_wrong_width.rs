// A 16-bit ALU source is a 16-bit register: a 32-bit one does not compile.
use isa_specs::agx::build::*;

fn main() {
    let mut b = Shader::<Base>::new();
    b.hadd_to(half::<0>(), full::<1>(), half::<4>());
}
