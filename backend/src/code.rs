//! The final instruction list: each instruction encoded by the generated
//! assembler from its text with registers filled in, together with the
//! register units it reads and writes (what the legalizer and the hazard
//! checker reason about).

use isa_runtime::Inst;

use crate::error::{CompileError, Pos};
use crate::ir::{Function, Op};
use crate::regalloc::Assignment;
use crate::resolve::asm_text;
use crate::target::{Target, Units};

/// Why an instruction is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// From the IR, at this place.
    Source(Pos),
    /// Delay slots filled by the legalizer.
    Nop,
    /// A wait on counters, or a carrier for a sync flag, from the legalizer.
    Wait,
    /// The end of the program (`machine: end:`).
    End,
}

/// One instruction of the final list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MInst {
    pub inst: Inst,
    /// Registers written.
    pub defs: Vec<Units>,
    /// Registers read, with the source operand index.
    pub uses: Vec<(u32, Units)>,
    pub origin: Origin,
}

/// Encodes the scheduled, allocated block (no hazards resolved yet).
pub fn lower(f: &Function, t: &Target, order: &[u32], ra: &Assignment) -> Result<Vec<MInst>, CompileError> {
    let insts = &f.blocks[0].insts;
    let mut out = Vec::with_capacity(order.len() + 1);
    let units = |v: u32| -> Units {
        let val = &f.values[v as usize];
        t.units_of(val.cls.unwrap_or(0), ra.reg[v as usize].unwrap_or(0), val.regs)
    };
    for &i in order {
        let inst = &insts[i as usize];
        if !matches!(inst.op, Op::Machine { .. }) {
            continue;
        }
        let text = asm_text(f, inst, &|v| {
            let val = &f.values[v as usize];
            t.reg_name(val.cls.unwrap_or(0), ra.reg[v as usize].unwrap_or(0), val.regs)
        });
        let enc = t.isa.parse(&text, t.gen_).map_err(|e| CompileError::Encode {
            what: format!("`{text}` (line {})", inst.pos.line),
            reason: e.message,
        })?;
        out.push(MInst {
            inst: enc,
            defs: inst.defs.iter().map(|&d| units(d)).collect(),
            uses: inst.uses.iter().enumerate().map(|(k, &u)| (k as u32, units(u))).collect(),
            origin: Origin::Source(inst.pos),
        });
    }
    for text in t.machine.end {
        let enc = t
            .isa
            .parse(text, t.gen_)
            .map_err(|e| CompileError::Encode { what: format!("the end instruction `{text}`"), reason: e.message })?;
        out.push(MInst { inst: enc, defs: vec![], uses: vec![], origin: Origin::End });
    }
    Ok(out)
}
