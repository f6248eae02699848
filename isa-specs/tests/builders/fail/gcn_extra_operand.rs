// s_mov_b32 has two operands.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.s_mov_b32_to(sgpr::<0>(), sgpr::<1>(), sgpr::<2>());
}
