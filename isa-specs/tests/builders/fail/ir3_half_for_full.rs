// A memory address is a full register (or a constant): a half register does not compile.
use isa_specs::ir3::build::*;
use isa_specs::runtime::imm;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.ldg_to(full::<0>(), half::<4>(), imm!(1));
}
