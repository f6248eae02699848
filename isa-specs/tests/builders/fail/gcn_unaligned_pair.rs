// SGPR pairs start on an even register.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.s_mov_b64_to(sgprs::<3, 2>(), sgprs::<4, 2>());
}
