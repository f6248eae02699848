// A destination is a register: a constant cannot be written.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.v_mov_b32_e32_to(1.0, vgpr::<1>());
}
