// s_movk_i32 holds a 16-bit immediate.
use isa_specs::gcn::build::*;
use isa_specs::runtime::imm;

fn main() {
    let mut b = Shader::<Gfx8>::new();
    b.s_movk_i32_to(sgpr::<0>(), imm!(70000));
}
