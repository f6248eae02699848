// The same builders accept valid programs for each target.
use isa_specs::runtime::imm;

fn main() {
    let mut g = isa_specs::gcn::build::Shader::<isa_specs::gcn::build::Gfx8>::new();
    {
        use isa_specs::gcn::build::*;
        g.v_add_f32_e32_to(vgpr::<1>(), sgpr::<2>(), vgpr::<3>());
        g.s_movk_i32_to(sgpr::<0>(), imm!(-5));
        g.v_add_f64_to(vgprs::<0, 2>(), vgprs::<2, 2>(), vgprs::<4, 2>()).clamp();
    }
    assert_eq!(g.encode().expect("encodes").len(), 3);
    let mut i = isa_specs::ir3::build::Shader::<isa_specs::ir3::build::A7xx>::new();
    {
        use isa_specs::ir3::build::*;
        i.add_f_mul2_to(full::<0>(), full::<1>(), full::<2>());
        i.ldg_to(full::<0>(), full::<4>(), imm!(1)).type_(values::Type::U32);
    }
    assert_eq!(i.encode().expect("encodes").len(), 2);
    let mut a = isa_specs::agx::build::Shader::<isa_specs::agx::build::Base>::new();
    {
        use isa_specs::agx::build::*;
        a.fadd_to(full::<0>(), uniform::<2>(), full::<2>());
        a.wait(values::Slot::B);
        let _pair = fulls::<4, 2>();
    }
    assert_eq!(a.encode().expect("encodes").len(), 2);
}
