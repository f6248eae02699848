// add.f has three operands.
use isa_specs::ir3::build::*;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.add_f_to(full::<0>(), full::<1>(), full::<2>(), full::<3>());
}
