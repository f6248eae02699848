// Uniforms are read-only: no destination takes one.
use isa_specs::agx::build::*;

fn main() {
    let mut b = Shader::<Base>::new();
    b.fadd_to(uniform::<2>(), full::<1>(), full::<2>());
}
