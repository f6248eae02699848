//! AGX layouts against the statements of Mesa's src/asahi/compiler/README.md
//! (shared/research/agx.md §8). Expected values are computed here from the
//! README's formulas, never by the code under test.

use abi_specs::agx::{any, fragment, vertex};

#[test]
fn vertex_uniform_totals_are_6n_plus_5_and_6n_plus_12() {
    for n in 0..=32i64 {
        let v = vertex::hw_vertex::layout(vertex::hw_vertex::Params { n }).unwrap();
        let c = vertex::hw_compute::layout(vertex::hw_compute::Params { n }).unwrap();
        // Block 1 is the uniforms; its end in 16-bit slots is the total.
        assert_eq!(v.blocks[1], Some((0, (6 * n + 5) as u32)), "n = {n}");
        assert_eq!(c.blocks[1], Some((0, (6 * n + 12) as u32)), "n = {n}");
    }
}

#[test]
fn vertex_uniform_slots_follow_the_readme() {
    use vertex::hw_compute as c;
    use vertex::hw_vertex as v;
    for n in 0..=32i64 {
        let p = v::Params { n };
        for i in 0..n {
            let base = v::attrib_base(p, i).unwrap();
            assert_eq!((base.unit, base.units), ((4 * i) as u32, 4), "attrib_base {i} of {n}");
            let clamp = v::attrib_clamp(p, i).unwrap();
            assert_eq!((clamp.unit, clamp.units), ((4 * n + 2 * i) as u32, 2), "attrib_clamp {i} of {n}");
        }
        assert!(v::attrib_base(p, n).is_err(), "no attribute {n} of {n}");
        assert_eq!(v::base_vertex(p).unwrap().unit, (6 * n) as u32);
        assert_eq!(v::base_instance(p).unwrap().unit, (6 * n + 2) as u32);
        let draw = v::draw_id(p).unwrap();
        assert_eq!((draw.unit, draw.units), ((6 * n + 4) as u32, 1));
        let q = c::Params { n };
        let pad = c::padding(q).unwrap();
        assert_eq!((pad.unit, pad.units), ((6 * n + 5) as u32, 3));
        let ia = c::input_assembly_buffer(q).unwrap();
        assert_eq!((ia.unit, ia.units), ((6 * n + 8) as u32, 4));
        assert_eq!(c::base_vertex(q).unwrap().unit, (6 * n) as u32);
    }
}

#[test]
fn attribute_i_is_in_r_8_plus_4i_up_to_30_attributes() {
    use vertex::hw_vertex as v;
    for n in 0..=32i64 {
        for i in 0..n {
            let a = v::attribute(v::Params { n }, i);
            if n > 30 {
                assert!(a.is_err(), "more than 30 attributes have no register layout");
                continue;
            }
            let a = a.unwrap();
            assert_eq!((a.register(), a.last_register()), ((8 + 4 * i) as u32, (8 + 4 * i + 3) as u32));
            assert_eq!(a.name(), format!("r{}..r{}", 8 + 4 * i, 8 + 4 * i + 3));
        }
    }
}

#[test]
fn prolog_registers() {
    use vertex::{hw_compute as c, hw_vertex as v};
    // The register block exists only up to 30 attributes, so these are functions.
    for n in 0..=30 {
        assert_eq!(v::vertex_id(v::Params { n }).unwrap().name(), "r5");
        assert_eq!(v::instance_id(v::Params { n }).unwrap().name(), "r6");
        assert_eq!(c::vertex_id_zero_based(c::Params { n }).unwrap().name(), "r4");
        assert_eq!(c::instance_id(c::Params { n }).unwrap().name(), "r6");
    }
    assert!(v::vertex_id(v::Params { n: 31 }).is_err());
    let l = v::layout(v::Params { n: 1 }).unwrap();
    let mut entries = l.entries.clone();
    entries.sort_by_key(|e| e.place.unit);
    let undefined: Vec<String> = entries
        .iter()
        .filter(|e| e.block == 0 && l.kind(e) == abi_specs::runtime::ArgKind::Undefined)
        .map(|e| e.place.name())
        .collect();
    assert_eq!(undefined, ["r0..r3", "r4", "r7"]);
}

#[test]
fn special_registers() {
    let s = &any::special_registers::NESTING_COUNTER;
    assert_eq!((s.register(), s.part(), s.units, s.name()), (0, 0, 1, "r0l".to_string()));
    assert_eq!(any::special_registers::LINK_REGISTER.name(), "r1");
}

#[test]
fn colour_i_is_in_r_4_times_i_plus_1() {
    use fragment::epilog as e;
    for rts in 0..=31i64 {
        let p = e::Params { render_targets: rts, ..Default::default() };
        for i in 0..rts {
            let c = e::colour(p, i).unwrap();
            assert_eq!((c.register(), c.last_register()), ((4 * (i + 1)) as u32, (4 * (i + 1) + 3) as u32));
        }
        assert!(e::colour(p, rts).is_err());
    }
    let p = e::Params { writes_depth: 1, writes_stencil: 1, writes_sample_mask: 1, ..Default::default() };
    assert_eq!(e::depth(p).unwrap().name(), "r2");
    assert_eq!(e::stencil(p).unwrap().name(), "r3l");
    assert_eq!(e::sample_mask(p).unwrap().name(), "r3h");
    assert!(e::depth(e::Params::default()).is_err(), "depth is there only when written");
    let dual = e::Params { dual_source: 1, render_targets: 1, ..Default::default() };
    assert_eq!(e::dual_source_colour(dual).unwrap().name(), "r8..r11");
    let bad = e::Params { dual_source: 1, render_targets: 2, ..Default::default() };
    assert!(e::layout(bad).is_err(), "RT1's registers hold the second source");
}

#[test]
fn fragment_inputs_with_and_without_sample_shading() {
    use fragment::main as m;
    let on = m::Params { sample_shading: 1 };
    assert_eq!(m::r0l(on).unwrap().name(), "r0l");
    assert_eq!(m::sample_mask_in(on).unwrap().name(), "r1l");
    let off = m::layout(m::Params { sample_shading: 0 }).unwrap();
    assert!(off.entries.iter().all(|e| e.block != 0), "no register inputs without sample shading");
    assert_eq!(m::RENDER_TARGET_HEAP.name(), "u0..u1");
    assert_eq!(m::BLEND_CONSTANT.name(), "u2..u5");
    assert_eq!(m::ROOT_DESCRIPTOR.name(), "u6..u7");
}
