// Scalar stores (SMEM) exist from GFX8 on: a GFX6 builder has none.
use isa_specs::gcn::build::*;

fn main() {
    let mut b = Shader::<Gfx6>::new();
    b.s_store_dword(sgpr::<0>(), sgprs::<2, 2>(), 0);
}
