// ldg's component count is a small field.
use isa_specs::ir3::build::*;
use isa_specs::runtime::imm;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.ldg_to(full::<0>(), full::<4>(), imm!(1000));
}
