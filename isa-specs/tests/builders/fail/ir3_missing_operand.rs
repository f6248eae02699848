// mad.f32 has four operands.
use isa_specs::ir3::build::*;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.mad_f32_to(full::<0>(), full::<1>(), full::<2>());
}
