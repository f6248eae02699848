//! The packer: instructions built field by field, every value checked against its
//! field. Expected words are Mesa's vectors (tests/conformance/ir3/disasm.yaml).

use isa_runtime::{Builder, FieldError};
use isa_specs::ir3::{ISA, Opcode};

fn reg(key: &str, gpr: i64, swiz: i64) -> Builder<'static> {
    Builder::new(&ISA, key).unwrap().set("GPR", gpr).unwrap().set("SWIZ", swiz).unwrap()
}

#[test]
fn builds_a_vector_bit_for_bit() {
    // idx 209: "add.f r1.w, r2.x, (neg)(0.0)" = 4010000768000008 on a6xx.
    let src1 = Builder::new(&ISA, "multisrc-gpr").unwrap().set_operand("SRC", reg("reg-gpr", 2, 0)).unwrap();
    let src2 =
        Builder::new(&ISA, "multisrc-immed-flut-full").unwrap().set("IMMED", 0).unwrap().set("ABSNEG", 1).unwrap();
    let inst = Opcode::AddF
        .builder()
        .set_operand("DST", reg("dst-gpr-cat2", 1, 3))
        .unwrap()
        .set("FULL", 1)
        .unwrap()
        .set_operand("SRC1", src1)
        .unwrap()
        .set_operand("SRC2", src2)
        .unwrap()
        .finish(600)
        .unwrap();
    assert_eq!(inst.bits, 0x4010000768000008);
    assert_eq!(ISA.print(&inst, 600), "add.f r1.w, r2.x, (neg)(0.0)");
    assert_eq!(Opcode::from_leaf(inst.leaf), Some(Opcode::AddF));
}

#[test]
fn values_that_do_not_fit_name_the_field() {
    let err = Builder::new(&ISA, "reg-gpr").unwrap().set("GPR", 64).unwrap_err();
    assert_eq!(err, FieldError::OutOfRange { leaf: "reg-gpr", field: "GPR", value: 64, min: 0, max: 63 });
    assert_eq!(err.to_string(), "`reg-gpr`: 64 does not fit field GPR (range 0..=63)");
    let err = Builder::new(&ISA, "reg-relative-gpr").unwrap().set("OFFSET", -513).unwrap_err();
    assert!(matches!(err, FieldError::OutOfRange { min: -512, max: 511, .. }), "{err:?}");
    assert!(matches!(Opcode::AddF.builder().set("NOPE", 1), Err(FieldError::NoSuchField { .. })));
    assert!(matches!(Opcode::AddF.builder().set("DST_HALF", 1), Err(FieldError::NotSettable { .. })));
    // An operand form of another field type is refused.
    let err = Opcode::AddF.builder().set_operand("SRC1", reg("reg-gpr", 0, 0)).unwrap_err();
    assert!(matches!(err, FieldError::Inconsistent { .. }), "{err:?}");
}

#[test]
fn generation_limits_hold_when_building() {
    // mul.f.mul2 exists from a7xx on: on a6xx the same bits are no instruction.
    let b = Opcode::MulFMul2.builder().set_operand("DST", reg("dst-gpr-cat2", 0, 0)).unwrap();
    assert!(b.clone().finish(700).is_ok());
    assert!(b.finish(600).is_err());
}

#[test]
fn every_opcode_has_metadata() {
    for op in Opcode::ALL {
        let leaf = op.info();
        assert!(!op.mnemonic().is_empty());
        let class = leaf.sched.map(|s| ISA.sched_classes[s as usize].name);
        assert!(class.is_some(), "{} has no scheduling class", leaf.key);
        assert!(ISA.latency(leaf.sched.unwrap(), 600).is_some());
    }
    // ir3 notes: an ALU result needs 3 cycles before use up to a6xx, 2 on a7xx.
    let alu = Opcode::AddF.info().sched.unwrap();
    assert_eq!(ISA.latency(alu, 600), Some(3));
    assert_eq!(ISA.latency(alu, 700), Some(2));
}
