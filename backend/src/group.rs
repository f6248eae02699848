//! Grouping (Mesa's ir3 "grouping" pass): values that must sit in consecutive
//! registers — the sources of a `collect`, the results of a `split`, inputs and
//! outputs in given registers — are tied into groups with fixed offsets, so that
//! register allocation places each group as one block. Where a value cannot take
//! the place a group needs (it is already in another group at another offset,
//! in the same collect twice, or in a fixed register elsewhere), a copy is
//! inserted and the copy joins the group instead. After this pass no
//! instruction is added or removed.

use std::collections::HashMap;

use crate::error::IrError;
use crate::ir::{Function, Inst, Op, ValueId};
use crate::resolve::{input_register, output_register};
use crate::target::Target;
use crate::template;

/// Which group each value is in, and where.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    /// Per value: (group, offset in registers).
    pub of: Vec<(u32, u32)>,
    pub groups: Vec<Group>,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub class: u16,
    /// Registers from offset 0.
    pub size: u32,
    /// The register offset 0 must be in, if fixed.
    pub fixed: Option<u32>,
    /// Every value in the group (atoms and the views of them).
    pub members: Vec<ValueId>,
    /// Values that are written by an instruction or input (not views), by offset.
    pub atoms: Vec<(u32, ValueId)>,
}

impl Groups {
    pub fn group_of(&self, v: ValueId) -> &Group {
        &self.groups[self.of[v as usize].0 as usize]
    }
}

struct Builder<'a> {
    f: &'a mut Function,
    g: Groups,
}

impl Builder<'_> {
    /// A new value like `v` (same class and size), for a copy of it.
    fn copy_value(&mut self, v: ValueId, pos: crate::error::Pos) -> ValueId {
        let name = self.f.fresh_name(&self.f.values[v as usize].name);
        let val = &self.f.values[v as usize];
        let (class, regs, cls) = (val.class.clone(), val.regs, val.cls);
        let nv = self.f.add_value(name, class, regs, pos);
        self.f.values[nv as usize].cls = cls;
        self.g.of.push((u32::MAX, 0));
        nv
    }

    fn regs(&self, v: ValueId) -> u32 {
        self.f.values[v as usize].regs
    }

    fn singleton(&mut self, v: ValueId, atom: bool, fixed: Option<u32>) {
        let id = self.g.groups.len() as u32;
        let regs = self.regs(v);
        self.g.groups.push(Group {
            class: self.f.values[v as usize].cls.unwrap_or(0),
            size: regs,
            fixed,
            members: vec![v],
            atoms: if atom { vec![(0, v)] } else { vec![] },
        });
        self.g.of[v as usize] = (id, 0);
    }

    /// A group holding only its own single atom, unfixed: it can go anywhere.
    fn is_free(&self, v: ValueId) -> bool {
        let (gi, _) = self.g.of[v as usize];
        let g = &self.g.groups[gi as usize];
        g.members.len() == 1 && g.atoms.len() == 1 && g.fixed.is_none()
    }

    /// Places the groups of `srcs` (at register offsets `offs` of the collect
    /// result `c`) into one group, if they fit without two atoms sharing a
    /// register and with consistent fixed registers. Returns false (changing
    /// nothing) otherwise.
    fn try_collect(&mut self, c: ValueId, srcs: &[ValueId], offs: &[u32]) -> bool {
        let class = self.f.values[c as usize].cls;
        let mut shift: HashMap<u32, i64> = HashMap::new();
        let mut occ: HashMap<i64, ValueId> = HashMap::new();
        let mut origin: Option<i64> = None;
        for (&s, &o) in srcs.iter().zip(offs) {
            let (gi, so) = self.g.of[s as usize];
            let want = o as i64 - so as i64;
            if let Some(&have) = shift.get(&gi) {
                if have != want {
                    return false;
                }
                continue;
            }
            let g = &self.g.groups[gi as usize];
            if Some(g.class) != class {
                return false;
            }
            for &(ao, a) in &g.atoms {
                for r in 0..self.regs(a) {
                    if occ.insert(ao as i64 + want + r as i64, a).is_some() {
                        return false;
                    }
                }
            }
            if let Some(fx) = g.fixed {
                let o = fx as i64 - want;
                if origin.is_some_and(|x| x != o) {
                    return false;
                }
                origin = Some(o);
            }
            shift.insert(gi, want);
        }
        // Commit: a new group with the collect result at offset 0, then shift
        // so that no offset is negative.
        let mut members = vec![(0i64, c)];
        let mut atoms = Vec::new();
        let mut lo = 0i64;
        let mut hi = self.regs(c) as i64;
        for (&gi, &d) in &shift {
            let g = &self.g.groups[gi as usize];
            for &m in &g.members {
                let off = self.g.of[m as usize].1 as i64 + d;
                members.push((off, m));
                lo = lo.min(off);
                hi = hi.max(off + self.regs(m) as i64);
            }
            for &(ao, a) in &g.atoms {
                atoms.push((ao as i64 + d, a));
            }
        }
        if let Some(o) = origin
            && o + lo < 0
        {
            return false;
        }
        let id = self.g.groups.len() as u32;
        for &(off, m) in &members {
            self.g.of[m as usize] = (id, (off - lo) as u32);
        }
        for gi in shift.keys() {
            let g = &mut self.g.groups[*gi as usize];
            g.members.clear();
            g.atoms.clear();
        }
        self.g.groups.push(Group {
            class: class.unwrap_or(0),
            size: (hi - lo) as u32,
            fixed: origin.map(|o| (o + lo) as u32),
            members: members.into_iter().map(|(_, m)| m).collect(),
            atoms: atoms.into_iter().map(|(o, a)| ((o - lo) as u32, a)).collect(),
        });
        true
    }
}

/// Ties values into groups, inserting copies into the (single) block of `f`.
pub fn group(f: &mut Function, t: &Target) -> Result<Groups, IrError> {
    let insts = std::mem::take(&mut f.blocks[0].insts);
    let mut out: Vec<Inst> = Vec::with_capacity(insts.len());
    let n = f.values.len();
    let mut b = Builder { f, g: Groups { of: vec![(u32::MAX, 0); n], groups: Vec::new() } };
    for mut inst in insts {
        match &inst.op {
            Op::Input(_) => {
                let r = input_register(b.f, t, &inst)?;
                b.singleton(inst.defs[0], true, Some(r));
            }
            Op::Machine { .. } => {
                for &d in &inst.defs {
                    b.singleton(d, true, None);
                }
            }
            Op::Split => {
                let (gi, so) = b.g.of[inst.uses[0] as usize];
                let mut off = so;
                for &d in &inst.defs {
                    b.g.of[d as usize] = (gi, off);
                    b.g.groups[gi as usize].members.push(d);
                    off += b.regs(d);
                }
            }
            Op::Collect => {
                let c = inst.defs[0];
                let mut offs = Vec::new();
                let mut o = 0;
                for &s in &inst.uses {
                    offs.push(o);
                    o += b.regs(s);
                }
                let srcs = inst.uses.clone();
                if !b.try_collect(c, &srcs, &offs) {
                    // Copy every source that is not free to go anywhere (and
                    // every repeat of a source): then the copies always fit.
                    let mut seen = Vec::new();
                    for k in 0..inst.uses.len() {
                        let s = inst.uses[k];
                        if b.is_free(s) && !seen.contains(&s) {
                            seen.push(s);
                            continue;
                        }
                        let nv = b.copy_value(s, inst.pos);
                        let copy = template::copy(b.f, t, nv, s, inst.pos)?;
                        b.singleton(nv, true, None);
                        out.push(copy);
                        inst.uses[k] = nv;
                        seen.push(nv);
                    }
                    let srcs = inst.uses.clone();
                    if !b.try_collect(c, &srcs, &offs) {
                        return Err(IrError::new(
                            inst.pos,
                            "cannot place the collect's sources in consecutive registers",
                        ));
                    }
                }
            }
            Op::Output(Some(_)) => {
                let r = output_register(b.f, t, &inst)?.unwrap_or(0);
                let v = inst.uses[0];
                let (gi, off) = b.g.of[v as usize];
                let want = r as i64 - off as i64;
                let g = &mut b.g.groups[gi as usize];
                match g.fixed {
                    None if want >= 0 => g.fixed = Some(want as u32),
                    Some(x) if x as i64 == want => {}
                    _ => {
                        let nv = b.copy_value(v, inst.pos);
                        let copy = template::copy(b.f, t, nv, v, inst.pos)?;
                        b.singleton(nv, true, Some(r));
                        out.push(copy);
                        inst.uses[0] = nv;
                    }
                }
            }
            _ => {}
        }
        out.push(inst);
    }
    let g = b.g;
    f.blocks[0].insts = out;
    Ok(g)
}
