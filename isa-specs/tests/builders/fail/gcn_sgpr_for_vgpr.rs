// A VOP2 second source is a VGPR: an SGPR there does not compile.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.v_add_f32_e32_to(vgpr::<1>(), vgpr::<2>(), sgpr::<3>());
}
