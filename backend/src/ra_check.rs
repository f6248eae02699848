//! The register-allocation validator: replays the scheduled block over the
//! assigned registers and checks that every read finds the value it means.
//!
//! Each value is made of the results of the instructions (or inputs) that
//! wrote it — a `collect` of its sources' registers, a `split` result of a
//! slice of its source's. Writing a result records, per register unit, which
//! result (and which of its registers) is there; each read of a value then
//! checks every one of its units. Two values sharing a register while both are
//! live shows up as a read finding the other one. Registers must also exist,
//! fit the class and be aligned, and inputs and outputs be where they must.

use std::collections::HashMap;

use crate::group::Groups;
use crate::ir::{Function, Op, ValueId};
use crate::regalloc::Assignment;
use crate::resolve::{input_register, output_register};
use crate::target::Target;

/// Checks an assignment; returns every problem found.
pub fn validate(f: &Function, t: &Target, order: &[u32], ra: &Assignment, _groups: &Groups) -> Vec<String> {
    let insts = &f.blocks[0].insts;
    let mut errs = Vec::new();
    let vname = |v: ValueId| format!("%{}", f.values[v as usize].name);
    // What each register of each value must hold: (written value, its register).
    let mut content: Vec<Vec<(ValueId, u32)>> = vec![Vec::new(); f.values.len()];
    for &i in order {
        let inst = &insts[i as usize];
        match &inst.op {
            Op::Machine { .. } | Op::Input(_) => {
                for &d in &inst.defs {
                    content[d as usize] = (0..f.values[d as usize].regs).map(|r| (d, r)).collect();
                }
            }
            Op::Collect => {
                let c: Vec<_> = inst.uses.iter().flat_map(|&u| content[u as usize].clone()).collect();
                content[inst.defs[0] as usize] = c;
            }
            Op::Split => {
                let src = content[inst.uses[0] as usize].clone();
                let mut k = 0usize;
                for &d in &inst.defs {
                    let n = f.values[d as usize].regs as usize;
                    content[d as usize] = src.get(k..k + n).map(|s| s.to_vec()).unwrap_or_default();
                    k += n;
                }
            }
            _ => {}
        }
    }
    for (v, val) in f.values.iter().enumerate() {
        let Some(r) = ra.reg[v] else { continue };
        let c = val.cls.unwrap_or(0);
        if r + val.regs > t.class_regs(c) {
            errs.push(format!(
                "{} is in register {r} of {}, past the class's {} registers",
                vname(v as u32),
                val.class,
                t.class_regs(c)
            ));
        }
        let a = t.class(c).align_of(val.regs);
        if !r.is_multiple_of(a) {
            errs.push(format!("{} ({} registers) starts at {r}, not aligned to {a}", vname(v as u32), val.regs));
        }
    }
    let mut held: HashMap<(u16, u32), (ValueId, u32)> = HashMap::new();
    let units_of = |v: ValueId, k: u32| {
        let val = &f.values[v as usize];
        t.units_of(val.cls.unwrap_or(0), ra.reg[v as usize].unwrap_or(0) + k, 1)
    };
    for &i in order {
        let inst = &insts[i as usize];
        let reads = matches!(inst.op, Op::Machine { .. } | Op::Output(_));
        if reads {
            for &u in &inst.uses {
                if ra.reg[u as usize].is_none() {
                    errs.push(format!("line {}: {} has no register", inst.pos.line, vname(u)));
                    continue;
                }
                for (k, want) in content[u as usize].iter().enumerate() {
                    for unit in units_of(u, k as u32).iter() {
                        let got = held.get(&unit).copied();
                        if got != Some(*want) {
                            let what =
                                got.map_or("nothing".to_string(), |(w, r)| format!("{} (register {r})", vname(w)));
                            errs.push(format!(
                                "line {}: {} reads {} but it holds {what}",
                                inst.pos.line,
                                vname(u),
                                t.reg_name(
                                    f.values[u as usize].cls.unwrap_or(0),
                                    ra.reg[u as usize].unwrap_or(0) + k as u32,
                                    1
                                )
                            ));
                        }
                    }
                }
            }
        }
        match &inst.op {
            Op::Machine { .. } | Op::Input(_) => {
                for &d in &inst.defs {
                    for k in 0..f.values[d as usize].regs {
                        for unit in units_of(d, k).iter() {
                            held.insert(unit, (d, k));
                        }
                    }
                }
            }
            _ => {}
        }
        if let Op::Input(_) = inst.op
            && let Ok(r) = input_register(f, t, inst)
            && ra.reg[inst.defs[0] as usize] != Some(r)
        {
            errs.push(format!("line {}: input {} is not in its register", inst.pos.line, vname(inst.defs[0])));
        }
        if let Op::Output(Some(_)) = inst.op
            && let Ok(Some(r)) = output_register(f, t, inst)
            && ra.reg[inst.uses[0] as usize] != Some(r)
        {
            errs.push(format!("line {}: output {} is not in its register", inst.pos.line, vname(inst.uses[0])));
        }
    }
    errs
}
