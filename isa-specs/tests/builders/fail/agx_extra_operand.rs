// fadd has three operands.
use isa_specs::agx::build::*;

fn main() {
    let mut b = Shader::<Base>::new();
    b.fadd_to(full::<0>(), full::<1>(), full::<2>(), full::<3>());
}
