// Constants are read-only: no destination takes one.
use isa_specs::ir3::build::*;

fn main() {
    let mut b = Shader::<A6xx>::new();
    b.add_f_to(const_::<4>(), full::<1>(), full::<2>());
}
