// v_add_f64 takes 64-bit operands: a single VGPR is the wrong width.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.v_add_f64_to(vgprs::<0, 2>(), vgpr::<2>(), vgprs::<4, 2>());
}
