//! radeonsi (Mesa 17.3.9) layouts against shared/research/gcn.md §10. Every
//! index, register address and bit position below is copied from the notes,
//! not computed by the code under test.

use abi_specs::gcn::{cs, gs, ps, slots, tcs, tes, vs, words};
use abi_specs::runtime::{AbiError, Place};

fn idx(p: &Place) -> (u32, u32) {
    (p.offset, p.units)
}

/// §10.1: the four resource pointers every stage starts with.
fn check_resources(rw: &Place, bindless: &Place, cb: &Place, si: &Place) {
    assert_eq!(idx(rw), (0, 2));
    assert_eq!(idx(bindless), (2, 2));
    assert_eq!(idx(cb), (4, 2));
    assert_eq!(idx(si), (6, 2));
}

#[test]
fn vs_user_sgprs_and_user_data_registers() {
    use vs::{as_es, as_ls, as_vs};
    check_resources(
        &as_vs::RW_BUFFERS,
        &as_vs::BINDLESS_SAMPLERS_AND_IMAGES,
        &as_vs::CONST_AND_SHADER_BUFFERS,
        &as_vs::SAMPLERS_AND_IMAGES,
    );
    assert_eq!(idx(&as_vs::VERTEX_BUFFERS), (8, 2));
    assert_eq!(idx(&as_vs::BASE_VERTEX), (10, 1));
    assert_eq!(idx(&as_vs::START_INSTANCE), (11, 1));
    assert_eq!(idx(&as_vs::DRAW_ID), (12, 1));
    assert_eq!(idx(&as_vs::VS_STATE_BITS), (13, 1));
    // §10.7: SPI_SHADER_USER_DATA_<stage>_0 and 4 bytes per register.
    assert_eq!(as_vs::BASE_VERTEX.user_data_register(), Some(0x00B130 + 10 * 4));
    assert_eq!(as_vs::BASE_VERTEX.user_data_name().unwrap(), "SPI_SHADER_USER_DATA_VS_10");
    assert_eq!(as_ls::BASE_VERTEX.user_data_register(), Some(0x00B530 + 10 * 4));
    assert_eq!(as_es::BASE_VERTEX.user_data_register(), Some(0x00B330 + 10 * 4));
    assert_eq!(as_ls::VS_STATE_BITS.offset, 13);
    assert_eq!(as_es::DRAW_ID.offset, 12);
}

#[test]
fn vs_system_sgprs_and_vgprs() {
    use vs::{as_es, as_ls, as_vs};
    // Streamout SGPRs follow the 14 user SGPRs; offsets only for non-zero strides.
    let p = as_vs::Params { streamout: 1, streamout_buffers: 0b1010, ..Default::default() };
    assert_eq!(as_vs::streamout_config(p).unwrap().unit, 14);
    assert_eq!(as_vs::streamout_write_index(p).unwrap().unit, 15);
    assert_eq!(as_vs::streamout_offset(p, 1).unwrap().unit, 16);
    assert_eq!(as_vs::streamout_offset(p, 3).unwrap().unit, 17);
    assert!(matches!(as_vs::streamout_offset(p, 0), Err(AbiError::Absent { .. })));
    assert!(as_vs::streamout_config(as_vs::Params::default()).is_err(), "no streamout SGPRs when off");
    assert_eq!(as_es::ES2GS_OFFSET.unit, 14);
    assert_eq!(as_vs::VERTEX_ID.unit, 0);
    assert_eq!(as_vs::INSTANCE_ID.unit, 1);
    assert_eq!(as_vs::VS_PRIM_ID.unit, 2);
    assert_eq!(as_ls::VERTEX_ID.unit, 0);
    assert_eq!(as_ls::REL_AUTO_ID.unit, 1);
    assert_eq!(as_ls::INSTANCE_ID.unit, 2);
}

#[test]
fn blit_vs_data_at_sgpr_4() {
    use vs::blit;
    let p = |n| blit::Params { blit_sgprs: n, ..Default::default() };
    assert_eq!(idx(&blit::blit_position(p(3)).unwrap()), (4, 3));
    assert!(blit::blit_color(p(3)).is_err());
    assert_eq!(idx(&blit::blit_color(p(7)).unwrap()), (7, 4));
    assert_eq!(idx(&blit::blit_texcoord(p(9)).unwrap()), (11, 2));
    assert!(matches!(blit::layout(p(5)), Err(AbiError::VariantNotApplicable { .. })));
}

#[test]
fn tcs_sgprs_and_vgprs() {
    use tcs::main as t;
    check_resources(
        &t::RW_BUFFERS,
        &t::BINDLESS_SAMPLERS_AND_IMAGES,
        &t::CONST_AND_SHADER_BUFFERS,
        &t::SAMPLERS_AND_IMAGES,
    );
    assert_eq!(t::TCS_OFFCHIP_LAYOUT.offset, 8);
    assert_eq!(t::TCS_OUT_LDS_OFFSETS.offset, 9);
    assert_eq!(t::TCS_OUT_LDS_LAYOUT.offset, 10);
    assert_eq!(t::TCS_IN_LAYOUT.offset, 11);
    assert_eq!(t::TCS_OFFCHIP_ADDR_BASE64K.offset, 12);
    assert_eq!(t::TCS_FACTOR_ADDR_BASE64K.offset, 13);
    // §10.7: TCS parameters start at HS_0 + GFX6_SGPR_TCS_OFFCHIP_LAYOUT * 4.
    assert_eq!(t::TCS_OFFCHIP_LAYOUT.user_data_register(), Some(0x00B430 + 8 * 4));
    assert_eq!(t::TCS_OFFCHIP_OFFSET.unit, 14);
    assert_eq!(t::TCS_FACTOR_OFFSET.unit, 15);
    assert_eq!(t::PATCH_ID.unit, 0);
    assert_eq!(t::REL_IDS.unit, 1);
}

#[test]
fn tes_sgprs_and_vgprs() {
    use tes::{as_es, as_vs};
    assert_eq!(as_vs::TES_OFFCHIP_LAYOUT.offset, 8);
    assert_eq!(as_vs::TES_OFFCHIP_ADDR_BASE64K.offset, 9);
    assert_eq!(as_vs::TES_OFFCHIP_LAYOUT.user_data_register(), Some(0x00B130 + 8 * 4));
    assert_eq!(as_es::TES_OFFCHIP_LAYOUT.user_data_register(), Some(0x00B330 + 8 * 4));
    // As ES: tcs_offchip_offset, one unused SGPR, es2gs_offset.
    assert_eq!(as_es::TCS_OFFCHIP_OFFSET.unit, 10);
    assert_eq!(as_es::ES2GS_OFFSET.unit, 12);
    // As VS: one unused SGPR, streamout SGPRs, tcs_offchip_offset.
    assert_eq!(as_vs::UNUSED.unit, 10);
    assert_eq!(as_vs::tcs_offchip_offset(as_vs::Params::default()).unwrap().unit, 11);
    let so = as_vs::Params { streamout: 1, streamout_buffers: 1, ..Default::default() };
    assert_eq!(as_vs::tcs_offchip_offset(so).unwrap().unit, 14);
    for (p, v) in [(as_vs::TES_U, 0), (as_vs::TES_V, 1), (as_vs::TES_REL_PATCH_ID, 2), (as_vs::TES_PATCH_ID, 3)] {
        assert_eq!(p.unit, v);
    }
}

#[test]
fn gs_and_copy_shader() {
    use gs::{copy, main as g};
    assert_eq!(g::GS2VS_OFFSET.unit, 8);
    assert_eq!(g::GS_WAVE_ID.unit, 9);
    assert_eq!(g::GS2VS_OFFSET.user_data, None, "system SGPRs are not user data");
    assert_eq!(g::SAMPLERS_AND_IMAGES.user_data_register(), Some(0x00B230 + 6 * 4));
    let vgprs = [
        (g::VTX0_OFFSET, 0),
        (g::VTX1_OFFSET, 1),
        (g::PRIM_ID, 2),
        (g::VTX2_OFFSET, 3),
        (g::VTX3_OFFSET, 4),
        (g::VTX4_OFFSET, 5),
        (g::VTX5_OFFSET, 6),
        (g::GS_INSTANCE_ID, 7),
    ];
    for (p, v) in vgprs {
        assert_eq!(p.unit, v);
    }
    assert_eq!(idx(&copy::RW_BUFFERS), (0, 2));
    assert_eq!(copy::RW_BUFFERS.user_data_register(), Some(0x00B130));
}

#[test]
fn ps_sgprs_and_vgprs() {
    use ps::{main as m, main_after_prolog as a};
    assert_eq!(m::ALPHA_REF.offset, 8);
    assert_eq!(m::ALPHA_REF.user_data_register(), Some(0x00B030 + 8 * 4));
    assert_eq!(m::PRIM_MASK.unit, 9);
    // §10.3: VGPR index of each input when all are enabled.
    let all = m::Params { input_addr: 0xFFFF, ..Default::default() };
    type Accessor = fn(m::Params) -> Result<Place, AbiError>;
    let expect: [(Accessor, u32, u32); 16] = [
        (m::persp_sample, 0, 2),
        (m::persp_center, 2, 2),
        (m::persp_centroid, 4, 2),
        (m::persp_pull_model, 6, 3),
        (m::linear_sample, 9, 2),
        (m::linear_center, 11, 2),
        (m::linear_centroid, 13, 2),
        (m::line_stipple_tex, 15, 1),
        (m::pos_x_float, 16, 1),
        (m::pos_y_float, 17, 1),
        (m::pos_z_float, 18, 1),
        (m::pos_w_float, 19, 1),
        (m::front_face, 20, 1),
        (m::ancillary, 21, 1),
        (m::sample_coverage, 22, 1),
        (m::pos_fixed_pt, 23, 1),
    ];
    for (f, unit, units) in expect {
        let p = f(all).unwrap();
        assert_eq!((p.unit, p.units), (unit, units));
    }
    // Only the inputs set in ADDR take VGPRs, in bit order.
    let some = m::Params { input_addr: 0x2 | 0x1000, ..Default::default() };
    assert_eq!(m::front_face(some).unwrap().unit, 2);
    assert!(m::persp_sample(some).is_err());
    // ADDR without a PERSP or LINEAR input, or POS_W_FLOAT without PERSP, is not a layout.
    assert!(m::layout(m::Params { input_addr: 0x100, ..Default::default() }).is_err());
    assert!(m::layout(m::Params { input_addr: 0x10 | 0x800, ..Default::default() }).is_err());
    // After a prolog: ADDR = PERSP_SAMPLE|CENTER|CENTROID|LINEAR_SAMPLE|CENTER|CENTROID|FRONT_FACE|ANCILLARY|POS_FIXED_PT.
    assert_eq!(a::LINEAR_SAMPLE.unit, 6);
    assert_eq!(a::FRONT_FACE.unit, 12);
    assert_eq!(a::ANCILLARY.unit, 13);
    assert_eq!(a::POS_FIXED_PT.unit, 14);
}

#[test]
fn cs_sgprs_and_vgprs() {
    use cs::main as c;
    let p = c::Params { cs_grid_size: 1, cs_block_size: 1, cs_block_id: 0b101, ..Default::default() };
    assert_eq!(idx(&c::grid_size(p).unwrap()), (8, 3));
    assert_eq!(idx(&c::block_size(p).unwrap()), (11, 3));
    assert_eq!(c::grid_size(p).unwrap().user_data_register(), Some(0x00B900 + 8 * 4));
    assert_eq!(c::block_id(p, 0).unwrap().unit, 14);
    assert_eq!(c::block_id(p, 2).unwrap().unit, 15);
    let q = c::Params::default();
    assert_eq!(c::block_id(c::Params { cs_block_id: 1, ..q }, 0).unwrap().unit, 8);
    for i in 0..3 {
        assert_eq!(c::thread_id(q, i).unwrap().unit, i as u32);
    }
}

/// `(field, lo, width)` from the notes.
fn check_fields(word: &abi_specs::runtime::Word, fields: &[(&str, u32, u32)]) {
    assert_eq!(word.fields.len(), fields.len(), "{}", word.name);
    for &(name, lo, width) in fields {
        let f = word.field(name).unwrap_or_else(|| panic!("{} has no field {name}", word.name));
        assert_eq!((f.lo, f.width), (lo, width), "{}.{name}", word.name);
    }
}

#[test]
fn packed_field_positions() {
    check_fields(
        words::VsStateBits::word(),
        &[
            ("clamp_vertex_color", 0, 1),
            ("indexed", 1, 1),
            ("ls_out_patch_stride", 8, 13),
            ("ls_out_vertex_stride", 24, 8),
        ],
    );
    check_fields(
        words::TcsOffchipLayout::word(),
        &[("patches_per_threadgroup", 0, 6), ("output_vertices_per_patch", 6, 6), ("per_patch_data_offset", 12, 20)],
    );
    check_fields(
        words::TcsOutLdsOffsets::word(),
        &[("output_patch0_offset", 0, 16), ("per_patch_output_offset", 16, 16)],
    );
    check_fields(words::TcsOutLdsLayout::word(), &[("output_patch_stride", 0, 13), ("input_control_points", 26, 6)]);
    check_fields(words::TcsRelIds::word(), &[("rel_patch_id", 0, 8), ("invocation_id", 8, 5)]);
    check_fields(
        words::PrimMask::word(),
        &[("lds_param_offset", 0, 16), ("prim_mask", 16, 15), ("bc_optimize", 31, 1)],
    );
    check_fields(words::Ancillary::word(), &[("sample_id", 8, 4)]);
    check_fields(words::PosFixedPt::word(), &[("x", 0, 16), ("y", 16, 16)]);
    check_fields(
        words::VgtLsHsConfig::word(),
        &[("num_patches", 0, 8), ("hs_num_input_cp", 8, 6), ("hs_num_output_cp", 14, 6)],
    );
    check_fields(words::SpiShaderPgmRsrc1::word(), &[("vgprs", 0, 6), ("sgprs", 6, 4)]);
    check_fields(words::SpiShaderPgmRsrc2::word(), &[("user_sgpr", 1, 5)]);
    let spi = words::SpiPsInput::word();
    assert_eq!(spi.registers, &[("SPI_PS_INPUT_ENA", 0x0286CC), ("SPI_PS_INPUT_ADDR", 0x0286D0)]);
    let names = [
        "persp_sample",
        "persp_center",
        "persp_centroid",
        "persp_pull_model",
        "linear_sample",
        "linear_center",
        "linear_centroid",
        "line_stipple_tex",
        "pos_x_float",
        "pos_y_float",
        "pos_z_float",
        "pos_w_float",
        "front_face",
        "ancillary",
        "sample_coverage",
        "pos_fixed_pt",
    ];
    for (bit, n) in names.iter().enumerate() {
        let f = spi.field(&format!("{n}_ena")).unwrap();
        assert_eq!((f.lo, f.width), (bit as u32, 1));
    }
    assert_eq!(words::VgtLsHsConfig::word().registers, &[("VGT_LS_HS_CONFIG", 0x028B58)]);
}

#[test]
fn pack_round_trips_at_field_limits() {
    // The driver's formula (§10.4): num_patches | (output_cp << 6) | (perpatch_offset << 12).
    let l = words::TcsOffchipLayout {
        patches_per_threadgroup: 63,
        output_vertices_per_patch: 63,
        per_patch_data_offset: 0xFFFFF,
    };
    assert_eq!(l.pack().unwrap(), 63 | (63 << 6) | (0xFFFFF << 12));
    assert_eq!(words::TcsOffchipLayout::unpack(l.pack().unwrap()).unwrap(), l);
    let e = words::TcsOffchipLayout { patches_per_threadgroup: 64, ..l }.pack().unwrap_err();
    assert!(e.to_string().contains("patches_per_threadgroup"), "{e}");
    let e = words::TcsOffchipLayout { per_patch_data_offset: 0x100000, ..l }.pack().unwrap_err();
    assert!(matches!(e, AbiError::FieldOutOfRange { field: "per_patch_data_offset", .. }), "{e}");

    let v = words::VsStateBits {
        clamp_vertex_color: 1,
        indexed: 1,
        ls_out_patch_stride: 0x1FFF,
        ls_out_vertex_stride: 0xFF,
    };
    assert_eq!(v.pack().unwrap(), 1 | 2 | (0x1FFF << 8) | (0xFF << 24));
    assert_eq!(words::VsStateBits::unpack(v.pack().unwrap()).unwrap(), v);
    assert!(
        words::VsStateBits { ls_out_patch_stride: 0x2000, ..v }
            .pack()
            .unwrap_err()
            .to_string()
            .contains("ls_out_patch_stride")
    );
    assert!(words::VsStateBits { indexed: 2, ..v }.pack().unwrap_err().to_string().contains("indexed"));

    let o = words::TcsOutLdsOffsets { output_patch0_offset: 0xFFFF, per_patch_output_offset: 0xFFFF };
    assert_eq!(words::TcsOutLdsOffsets::unpack(o.pack().unwrap()).unwrap(), o);
    assert!(
        words::TcsOutLdsOffsets { output_patch0_offset: 0x10000, ..o }
            .pack()
            .unwrap_err()
            .to_string()
            .contains("output_patch0_offset")
    );

    let t = words::TcsOutLdsLayout { output_patch_stride: 0x1FFF, input_control_points: 63 };
    assert_eq!(t.pack().unwrap(), 0x1FFF | (63 << 26));
    assert!(
        words::TcsOutLdsLayout { input_control_points: 64, ..t }
            .pack()
            .unwrap_err()
            .to_string()
            .contains("input_control_points")
    );

    let m = words::PrimMask { lds_param_offset: 0xFFFF, prim_mask: 0x7FFF, bc_optimize: 1 };
    assert_eq!(m.pack().unwrap(), 0xFFFF_FFFF);
    assert_eq!(words::PrimMask::unpack(0xFFFF_FFFF).unwrap(), m);
    assert!(words::PrimMask { prim_mask: 0x8000, ..m }.pack().unwrap_err().to_string().contains("prim_mask"));

    let a = words::Ancillary { sample_id: 15 };
    assert_eq!(a.pack().unwrap(), 15 << 8);
    assert!(words::Ancillary { sample_id: 16 }.pack().unwrap_err().to_string().contains("sample_id"));

    let p = words::PosFixedPt { x: 0xFFFF, y: 0xFFFF };
    assert_eq!(words::PosFixedPt::unpack(p.pack().unwrap()).unwrap(), p);
    assert!(words::PosFixedPt { y: 0x10000, ..p }.pack().unwrap_err().to_string().contains("field y"));

    let r = words::TcsRelIds { rel_patch_id: 255, invocation_id: 31 };
    assert_eq!(words::TcsRelIds::unpack(r.pack().unwrap()).unwrap(), r);
    assert!(words::TcsRelIds { invocation_id: 32, ..r }.pack().unwrap_err().to_string().contains("invocation_id"));

    assert!(words::Ancillary::unpack(1 << 32).is_err(), "bits above the word are rejected");
}

#[test]
fn descriptor_slots() {
    use slots::{const_and_shader_buffers as cb, rw_buffers as rw, samplers_and_images as si};
    // §10.5
    assert_eq!(rw::ES_RING_ESGS.index, 0);
    assert_eq!(rw::GS_RING_ESGS.index, 1);
    assert_eq!(rw::RING_GSVS.index, 2);
    for i in 0..4 {
        assert_eq!(rw::vs_streamout_buf(i).unwrap().index, 3 + i as u32);
    }
    assert!(rw::vs_streamout_buf(4).is_err());
    assert_eq!(rw::HS_CONST_DEFAULT_TESS_LEVELS.index, 7);
    assert_eq!(rw::VS_CONST_INSTANCE_DIVISORS.index, 8);
    assert_eq!(rw::VS_CONST_CLIP_PLANES.index, 9);
    assert_eq!(rw::PS_CONST_POLY_STIPPLE.index, 10);
    assert_eq!(rw::PS_CONST_SAMPLE_POSITIONS.index, 11);
    assert_eq!(rw::PS_CONST_SAMPLE_POSITIONS.dword_offset, 44);
    // §10.6
    assert_eq!(cb::shader_buffer(0).unwrap().index, 15);
    assert_eq!(cb::shader_buffer(15).unwrap().index, 0);
    assert_eq!(cb::const_buffer(0).unwrap().index, 16);
    assert_eq!(cb::const_buffer(15).unwrap().index, 31);
    assert_eq!(si::image(0).unwrap().dword_offset, 15 * 8);
    assert_eq!(si::sampler(0).unwrap().dword_offset, 8 * 16);
    assert_eq!(si::sampler(31).unwrap().index, 39);
}

#[test]
fn user_sgpr_limit_and_printer() {
    let abi = &abi_specs::gcn::ABI;
    let v = abi.stage("vs").unwrap().variant(Some("as-vs")).unwrap();
    let l = v.layout(abi, 8, &v.bind(abi, &[]).unwrap()).unwrap();
    let t = l.table(abi, "vs");
    assert!(t.contains("| s10 | 10 | SPI_SHADER_USER_DATA_VS_10 | 32 | base_vertex |"), "{t}");
    assert!(t.contains("at most 16 units"));
    assert_eq!(v.blocks[0].limit, Some(16));
    // GFX8 has s0-s101, GFX6/7 s0-s103.
    assert_eq!(abi.files[0].units_in(8), 102);
    assert_eq!(abi.files[0].units_in(7), 104);
}
