// ffma has four operands.
use isa_specs::agx::build::*;

fn main() {
    let mut b = Shader::<Base>::new();
    b.ffma_to(full::<0>(), full::<1>(), full::<2>());
}
