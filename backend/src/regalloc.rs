//! Register allocation of one scheduled block over the target's register files.
//!
//! Each group (see [`crate::group`]) is one allocation: a block of consecutive
//! registers of its class, aligned as the class asks for the sizes of its
//! values, held from the first definition of any of its values to the last read
//! of any. Groups are placed in order of their first definition, first fit,
//! around the registers that fixed groups (inputs and outputs in given
//! registers) hold: a linear scan, O(groups x registers) at worst. When no
//! block is free the result is [`CompileError::OutOfRegisters`]; values are not
//! spilled.

use crate::error::{CompileError, Pos};
use crate::group::Groups;
use crate::ir::{Function, Op};
use crate::target::Target;

/// Where each value lives: its first register (of its class), by value id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub reg: Vec<Option<u32>>,
}

/// A fixed group's registers over its interval: (lo unit, units, start, end, group).
type Reservation = (u32, u32, u32, u32, usize);

/// Live interval of every group, in positions of `order` (1-based), half open.
fn intervals(f: &Function, order: &[u32], groups: &Groups) -> Vec<(u32, u32)> {
    let insts = &f.blocks[0].insts;
    let mut iv = vec![(u32::MAX, 0u32); groups.groups.len()];
    for (p, &i) in order.iter().enumerate() {
        let p = p as u32 + 1;
        let inst = &insts[i as usize];
        let atoms_defined = matches!(inst.op, Op::Machine { .. } | Op::Input(_));
        if atoms_defined {
            for &d in &inst.defs {
                let g = groups.of[d as usize].0 as usize;
                iv[g].0 = iv[g].0.min(p);
                iv[g].1 = iv[g].1.max(p + 1);
            }
        }
        if !matches!(inst.op, Op::Collect | Op::Split) {
            for &u in &inst.uses {
                let g = groups.of[u as usize].0 as usize;
                iv[g].1 = iv[g].1.max(p);
            }
        }
    }
    iv
}

/// Allocates registers for the scheduled block.
pub fn allocate(f: &Function, t: &Target, order: &[u32], groups: &Groups) -> Result<Assignment, CompileError> {
    let insts = &f.blocks[0].insts;
    let iv = intervals(f, order, groups);
    let nfiles = t.machine.files.len();
    let mut busy: Vec<Vec<u32>> = (0..nfiles as u16).map(|fl| vec![0u32; t.file_units(fl) as usize]).collect();
    // Fixed reservations per file: (lo unit, units, start, end, group).
    let mut fixed: Vec<Vec<Reservation>> = vec![Vec::new(); nfiles];
    let mut ids: Vec<usize> = Vec::new();
    for (gi, g) in groups.groups.iter().enumerate() {
        if g.members.is_empty() || iv[gi].0 == u32::MAX {
            continue;
        }
        if let Some(r) = g.fixed {
            let u = t.units_of(g.class, r, g.size);
            fixed[u.file as usize].push((u.lo, u.n, iv[gi].0, iv[gi].1, gi));
        }
        ids.push(gi);
    }
    ids.sort_by_key(|&g| (iv[g].0, groups.groups[g].fixed.is_none()));
    let mut base = vec![u32::MAX; groups.groups.len()];
    let pos_of = |g: usize| -> Pos {
        let p = iv[g].0 as usize;
        order.get(p.saturating_sub(1)).map_or(Pos::default(), |&i| insts[i as usize].pos)
    };
    for &gi in &ids {
        let g = &groups.groups[gi];
        let (start, end) = iv[gi];
        let cl = t.class(g.class);
        let nregs = t.class_regs(g.class);
        // (alignment, offset) pairs every member imposes on the base.
        let mut aligns: Vec<(u32, u32)> = Vec::new();
        for &m in &g.members {
            let a = cl.align_of(f.values[m as usize].regs);
            let off = groups.of[m as usize].1;
            if a > 1 && !aligns.contains(&(a, off % a)) {
                aligns.push((a, off % a));
            }
        }
        let ok_align = |b: u32| aligns.iter().all(|&(a, o)| (b + o).is_multiple_of(a));
        let free = |b: u32, busy: &Vec<Vec<u32>>| -> bool {
            let u = t.units_of(g.class, b, g.size);
            let fb = &busy[u.file as usize];
            if (u.lo + u.n) as usize > fb.len() || (u.lo..u.lo + u.n).any(|x| fb[x as usize] > start) {
                return false;
            }
            fixed[u.file as usize]
                .iter()
                .all(|&(lo, n, s, e, og)| og == gi || e <= start || s >= end || lo + n <= u.lo || u.lo + u.n <= lo)
        };
        let chosen = match g.fixed {
            Some(r) => {
                if r + g.size > nregs || !ok_align(r) {
                    return Err(CompileError::Ir(crate::error::IrError::new(
                        pos_of(gi),
                        format!(
                            "a value is fixed to `{}`, which the class cannot hold there",
                            t.reg_name(g.class, r, g.size)
                        ),
                    )));
                }
                let u = t.units_of(g.class, r, g.size);
                if (u.lo..u.lo + u.n).any(|x| busy[u.file as usize][x as usize] > start) {
                    return Err(CompileError::Ir(
                        crate::error::IrError::new(
                            pos_of(gi),
                            format!("two values need `{}` at the same time", t.reg_name(g.class, r, g.size)),
                        )
                        .help("inputs and outputs in given registers must not overlap while both are live"),
                    ));
                }
                Some(r)
            }
            None => (0..=nregs.saturating_sub(g.size)).find(|&b| ok_align(b) && free(b, &busy)),
        };
        let Some(b) = chosen else {
            let u = t.units_of(g.class, 0, g.size);
            let in_use = busy[u.file as usize].iter().filter(|&&e| e > start).count() as u32 / cl.units.max(1);
            return Err(CompileError::OutOfRegisters {
                pos: pos_of(gi),
                class: cl.name,
                needed: in_use + g.size,
                available: nregs,
            });
        };
        let u = t.units_of(g.class, b, g.size);
        for x in u.lo..u.lo + u.n {
            busy[u.file as usize][x as usize] = end;
        }
        base[gi] = b;
    }
    let reg = (0..f.values.len())
        .map(|v| {
            let (g, off) = groups.of.get(v).copied().unwrap_or((u32::MAX, 0));
            base.get(g as usize).filter(|&&b| b != u32::MAX).map(|&b| b + off)
        })
        .collect();
    Ok(Assignment { reg })
}
