//! The builder plans of the bundled targets: the methods of well-known
//! instructions, read off their templates and the `builder:` sections.

use std::path::Path;

use isa_codegen::builder::{Method, ParamTy, Plan, plan};
use isa_codegen::lower::{Spec, load};

fn target(name: &str) -> (Spec, Plan) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../isa-specs").join(name).join("isa.yaml");
    let spec = load(&root).unwrap_or_else(|e| panic!("{e:?}"));
    let plan = plan(&spec).unwrap_or_else(|e| panic!("{e:?}")).expect("a builder section");
    (spec, plan)
}

fn method<'a>(p: &'a Plan, name: &str) -> Vec<&'a Method> {
    p.methods.iter().filter(|m| m.name == name).collect()
}

/// `name: Kind<width>` (written) for each parameter.
fn signature(p: &Plan, m: &Method) -> Vec<String> {
    m.params
        .iter()
        .map(|q| {
            let t = match &q.ty {
                ParamTy::Operand { kind, width } => format!("{}<{width}>", p.kinds[*kind].rust),
                ParamTy::Imm { imm } => format!("Imm<{}>", p.imms[*imm].rust),
                ParamTy::Value { e } => format!("Value({e})"),
            };
            format!("{}: {t}{}", q.name, if q.write { " (written)" } else { "" })
        })
        .collect()
}

#[test]
fn gcn_forms_span_the_generations_that_share_them() {
    let (_, p) = target("gcn");
    let m = method(&p, "v_add_f32_e32");
    assert_eq!(m.len(), 1);
    assert_eq!(signature(&p, m[0]), ["vdst: VReg<1> (written)", "src0: Src<1>", "vsrc1: VReg<1>"]);
    // gfx6/7 and gfx8 lay VOP2 out alike but number it differently: one method.
    assert_eq!(m[0].gens(), [0, 1, 2]);
    let m = method(&p, "v_add_f64");
    assert_eq!(signature(&p, m[0]), ["vdst: VReg<2> (written)", "src0: VSrc<2>", "src1: VSrc<2>"]);
    let opts: Vec<&str> = m[0].options.iter().map(|o| o.set.as_str()).collect();
    assert_eq!(opts, ["CLAMP", "OMOD"]);
}

#[test]
fn gcn_scalar_loads_differ_by_generation() {
    let (_, p) = target("gcn");
    let m = method(&p, "s_load_dword");
    assert_eq!(m.len(), 2, "SMRD (gfx6-7) and SMEM (gfx8)");
    assert!(m.iter().all(|m| m.per_gen));
    assert_eq!(m[0].gens(), [0, 1]);
    assert_eq!(m[1].gens(), [2]);
    assert!(method(&p, "s_store_dword").iter().all(|m| m.gens() == [2]));
    // Loads write their data; stores read it.
    assert!(signature(&p, method(&p, "buffer_load_dword")[0])[0].ends_with("(written)"));
    assert!(!signature(&p, method(&p, "buffer_store_dword")[0])[0].ends_with("(written)"));
}

#[test]
fn ir3_sources_addresses_and_flags() {
    let (_, p) = target("ir3");
    let m = method(&p, "ldg")[0];
    assert_eq!(signature(&p, m), ["dst: Gpr<1> (written)", "src1: Addr<1>", "size: Imm<Size>"]);
    let m = method(&p, "add_f")[0];
    assert_eq!(signature(&p, m), ["dst: Dst<1> (written)", "src1: Src<1>", "src2: Src<1>"]);
    let opts: Vec<&str> = m.options.iter().map(|o| o.set.as_str()).collect();
    assert!(opts.contains(&"SY") && opts.contains(&"SS") && opts.contains(&"SAT"), "{opts:?}");
    // a7xx on.
    assert_eq!(method(&p, "add_f_mul2")[0].gens(), [4, 5]);
}

#[test]
fn agx_float_alu() {
    let (_, p) = target("agx");
    assert_eq!(signature(&p, method(&p, "fadd")[0]), ["d: Dst<1> (written)", "a: FSrc<1>", "b: FSrc<1>"]);
    assert_eq!(signature(&p, method(&p, "hadd")[0]), ["d: HDst<1> (written)", "a: HSrc<1>", "b: HSrc<1>"]);
}

/// Text a derived field shows is fixed where the leaf fixes what it reads
/// (the operation of a reduction); enum fields listed in `values:` are
/// parameters.
#[test]
fn agx_integer_and_group_ops() {
    let (_, p) = target("agx");
    let m = method(&p, "simd_prefix_iadd")[0];
    assert_eq!(signature(&p, m), ["d: Dst<1> (written)", "a: ISrc64<1>"]);
    let text: String = m
        .template
        .iter()
        .filter_map(|t| if let isa_codegen::builder::Piece::Text(s) = t { Some(s.as_str()) } else { None })
        .collect();
    assert!(text.starts_with("simd ") && text.ends_with(", prefix, iadd"), "{text}");
    let csel = method(&p, "icmpsel")[0];
    assert!(signature(&p, csel)[5].starts_with("cm: Value("), "{:?}", signature(&p, csel));
}

/// Encodings without a method are listed in the generated docs; this keeps
/// the list from growing unnoticed.
#[test]
fn nearly_every_encoding_has_a_method() {
    // agx: catch-alls for sub-opcodes nobody names (funop, iunop, simd_op),
    // whose text shows raw bits; register pairs, which no register class
    // writes (the matrix multiply-adds); `ldimm16`; and the texture/sampler
    // state loads, whose uniform Mesa shows doubled (`du{U2}`, a derived
    // number no operand gives).
    for (t, most) in [("gcn", 2), ("ir3", 10), ("agx", 8)] {
        let (spec, p) = target(t);
        let skipped: Vec<String> =
            p.skipped.iter().map(|(l, why)| format!("{}: {why}", spec.isa.leaves[*l as usize].key)).collect();
        assert!(skipped.len() <= most, "{t}: {} without a method:\n{}", skipped.len(), skipped.join("\n"));
        assert!(p.methods.len() > 20, "{t}");
    }
}

/// Bits only Mesa's fallback text shows, written optionally with their
/// usual values as defaults, are options; a load writes its registers, an
/// asynchronous copy none.
#[test]
fn agx_tile_map_and_async_copy() {
    let (_, p) = target("agx");
    let m = method(&p, "ld_tile")[0];
    let sig = signature(&p, m);
    assert_eq!(sig[..4], ["r: MemRegs<0> (written)", "c: TileCoord<1>", "s: RegImm<1>", "o: Imm<O>"]);
    assert!(sig.len() == 6 && sig[4].starts_with("fm: Value(") && sig[5].starts_with("mm: Value("), "{sig:?}");
    let opts: Vec<&str> = m.options.iter().map(|o| o.set.as_str()).collect();
    assert_eq!(opts, ["B35", "U7", "U48", "U62"]);
    assert!(!signature(&p, method(&p, "st_tile")[0])[0].ends_with("(written)"));
    let sig = signature(&p, method(&p, "map")[0]);
    assert!(
        sig.len() == 3 && sig[0] == "r: Imm<R>" && sig[1].starts_with("t: Imm<T") && sig[2] == "v: StackImm<1>",
        "{sig:?}"
    );
    assert!(signature(&p, method(&p, "async_load")[0]).iter().all(|s| !s.ends_with("(written)")));
}

/// A number shown under another name (v_madmk's `K`, the literal dword) is an
/// immediate operand of the method.
#[test]
fn gcn_madmk_takes_its_constant() {
    let (_, p) = target("gcn");
    let methods = method(&p, "v_madmk_f32");
    assert!(!methods.is_empty());
    for m in methods {
        let sig = signature(&p, m);
        assert!(sig.len() == 4 && sig[2].starts_with("k: Imm<"), "{sig:?}");
    }
}
