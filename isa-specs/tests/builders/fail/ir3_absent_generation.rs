// add.f.mul2 exists from a7xx on.
use isa_specs::ir3::build::*;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.add_f_mul2_to(full::<0>(), full::<1>(), full::<2>());
}
