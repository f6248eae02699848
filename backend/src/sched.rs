//! Depth and list scheduling of one block.
//!
//! *Depth* (Mesa's ir3 notes): an instruction's depth is its required cycles
//! (the delay slots it needs after its deepest source, plus one) plus that
//! source's depth; meta instructions are free. The scheduler orders by the
//! mirror image, the *height* (the longest delay-weighted path to the end of the
//! block), with depth breaking ties: the instructions that start the longest
//! chains go first. It is a cycle-driven list scheduler: at each step it issues
//! the highest instruction whose sources are ready without waiting, which fills
//! delay slots with independent work; only when none is ready does it issue the
//! one ready soonest (the legalizer then pads with nops or waits).
//!
//! Constraints, all from spec data: instructions in one `order:` chain (memory,
//! barriers) keep their program order; a value of a scarce register file (an
//! address register) is only defined when the file has room, and only once
//! everything else its readers need is done, so its readers follow quickly.
//!
//! Two binary heaps keep each step at O(log n): a 100,000-instruction block
//! schedules in tens of milliseconds (see the benchmark).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::{CompileError, Pos};
use crate::ir::{Function, Inst, Op, ValueId};
use crate::target::Target;

/// The dependence graph of a block, with what scheduling needs to know.
pub struct Graph {
    /// For each instruction, the instructions it waits for, with the delay
    /// (issue slots after the producer) and whether it is a soft (sync) wait.
    pub preds: Vec<Vec<(u32, u32)>>,
    pub succs: Vec<Vec<(u32, u32)>>,
    pub height: Vec<u32>,
    pub depth: Vec<u32>,
    /// Per value, the instruction results (atoms) it is made of.
    pub atoms: Vec<Vec<ValueId>>,
}

/// The machine instructions (atoms) whose results a value is made of.
fn producers(f: &Function, def: &[u32], insts: &[Inst]) -> Vec<Vec<(u32, ValueId)>> {
    let mut out: Vec<Vec<(u32, ValueId)>> = vec![Vec::new(); f.values.len()];
    for (i, inst) in insts.iter().enumerate() {
        match inst.op {
            Op::Machine { .. } | Op::Input(_) => {
                for &d in &inst.defs {
                    out[d as usize] = vec![(i as u32, d)];
                }
            }
            Op::Collect | Op::Split => {
                let mut v: Vec<(u32, ValueId)> = Vec::new();
                for &u in &inst.uses {
                    for &p in &out[u as usize] {
                        if !v.contains(&p) {
                            v.push(p);
                        }
                    }
                }
                for &d in &inst.defs {
                    out[d as usize] = v.clone();
                }
            }
            _ => {}
        }
    }
    let _ = def;
    out
}

fn leaf(i: &Inst) -> Option<u16> {
    match i.op {
        Op::Machine { leaf, .. } => leaf,
        _ => None,
    }
}

/// Builds the dependence graph of block 0.
pub fn graph(f: &Function, t: &Target) -> Graph {
    let insts = &f.blocks[0].insts;
    let n = insts.len();
    let mut def = vec![u32::MAX; f.values.len()];
    for (i, inst) in insts.iter().enumerate() {
        for &d in &inst.defs {
            def[d as usize] = i as u32;
        }
    }
    let prod = producers(f, &def, insts);
    let mut preds: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for (i, inst) in insts.iter().enumerate() {
        let cl = leaf(inst);
        for (k, &u) in inst.uses.iter().enumerate() {
            let p = def[u as usize];
            if p == u32::MAX {
                continue;
            }
            // The delay comes from the machine instructions that wrote the
            // registers; the edge goes to the direct definer (perhaps a meta).
            let mut d = 0;
            if let Some(cl) = cl {
                for &(pi, atom) in &prod[u as usize] {
                    let Some(pl) = leaf(&insts[pi as usize]) else { continue };
                    let file = t.class(f.values[atom as usize].cls.unwrap_or(0)).file;
                    let hard = t.issue(pl) + t.delay(pl, cl, file, k as u32);
                    let soft = if t.sync_of(pl).is_some() { t.latency(pl) } else { 0 };
                    d = d.max(hard.max(soft));
                }
            }
            preds[i].push((p, d));
        }
    }
    // Order chains: each member waits for the previous member of its chains.
    let mut last: Vec<u32> = vec![u32::MAX; t.machine.order.len().min(64)];
    for (i, inst) in insts.iter().enumerate() {
        let Some(l) = leaf(inst) else { continue };
        let m = t.chains_of(l);
        for (c, lc) in last.iter_mut().enumerate() {
            if m >> c & 1 == 1 {
                if *lc != u32::MAX {
                    preds[i].push((*lc, 0));
                }
                *lc = i as u32;
            }
        }
    }
    // A scarce value is defined only after everything else its readers need.
    for inst in insts.iter() {
        if !inst.is_machine() {
            continue;
        }
        for &u in &inst.uses {
            let v = &f.values[u as usize];
            let file = t.class(v.cls.unwrap_or(0)).file;
            if !t.scarce(file) || def[u as usize] == u32::MAX {
                continue;
            }
            let d = def[u as usize];
            for &o in &inst.uses {
                let p = def[o as usize];
                if o != u && p != u32::MAX && p != d && !insts[p as usize].uses.contains(&u) {
                    preds[d as usize].push((p, 0));
                }
            }
        }
    }
    let mut succs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &(p, d) in ps {
            succs[p as usize].push((i as u32, d));
        }
    }
    // Depth, in program order (sources come first in a well-formed block).
    let cost = |i: usize| u32::from(insts[i].is_machine());
    let mut depth = vec![0u32; n];
    for i in 0..n {
        let m = preds[i]
            .iter()
            .filter(|&&(p, _)| (p as usize) < i)
            .map(|&(p, d)| depth[p as usize] + d.saturating_sub(1))
            .max()
            .unwrap_or(0);
        depth[i] = m + cost(i);
    }
    let mut height = vec![0u32; n];
    for i in (0..n).rev() {
        let m = succs[i]
            .iter()
            .filter(|&&(s, _)| (s as usize) > i)
            .map(|&(s, d)| height[s as usize] + d.max(cost(i)))
            .max()
            .unwrap_or(cost(i));
        height[i] = m;
    }
    let atoms = prod.into_iter().map(|v| v.into_iter().map(|(_, a)| a).collect()).collect();
    Graph { preds, succs, height, depth, atoms }
}

/// The order to issue block 0's instructions in (indices into the block).
pub fn schedule(f: &Function, t: &Target) -> Result<Vec<u32>, CompileError> {
    let insts = &f.blocks[0].insts;
    let n = insts.len();
    let g = graph(f, t);
    let mut npred: Vec<u32> = g.preds.iter().map(|p| p.len() as u32).collect();
    let mut ready_at = vec![0u32; n];
    let mut issued = vec![u32::MAX; n];
    let mut order = Vec::with_capacity(n);
    let mut outputs = Vec::new();
    // Scarce files: live units, and each value's remaining readers.
    let nfiles = t.machine.files.len();
    let mut live = vec![0u32; nfiles];
    let mut readers = vec![0u32; f.values.len()];
    for inst in insts {
        for &u in &inst.uses {
            readers[u as usize] += 1;
        }
    }
    let scarce_units = |inst: &Inst| -> Option<(usize, u32)> {
        let d = *inst.defs.first()?;
        let v = &f.values[d as usize];
        let c = t.class(v.cls?);
        t.scarce(c.file).then_some((c.file as usize, v.regs * c.units))
    };
    let mut parked: Vec<u32> = Vec::new();
    // Register pressure per file, counted over instruction results (atoms)
    // still to be read. Above half a file, the scheduler issues in program
    // order, which keeps the live ranges the program was written with.
    let mut remaining = vec![0u32; f.values.len()];
    for inst in insts {
        if !matches!(inst.op, Op::Collect | Op::Split) {
            for &u in &inst.uses {
                for &a in &g.atoms[u as usize] {
                    remaining[a as usize] += 1;
                }
            }
        }
    }
    let atom_units = |a: ValueId| -> (usize, u32) {
        let v = &f.values[a as usize];
        let c = t.class(v.cls.unwrap_or(0));
        (c.file as usize, v.regs * c.units)
    };
    let mut pressure = vec![0u32; nfiles];
    // Half of what the most restricted class of the file can reach (ir3's
    // half registers reach only the low half of the file).
    let mut reach: Vec<u32> = (0..nfiles as u16).map(|fl| t.file_units(fl)).collect();
    for (c, cl) in t.machine.classes.iter().enumerate() {
        let r = &mut reach[cl.file as usize];
        *r = (*r).min(t.class_regs(c as u16) * cl.units);
    }
    let high = |pressure: &Vec<u32>| (0..nfiles).any(|fl| !t.scarce(fl as u16) && pressure[fl] * 2 > reach[fl]);
    let mut by_index: BinaryHeap<Reverse<u32>> = BinaryHeap::new();

    let mut time = 0u32;
    // (height, depth, earliest in program order)
    let mut avail: BinaryHeap<(u32, u32, Reverse<u32>)> = BinaryHeap::new();
    let mut waiting: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    let mut meta: Vec<u32> = Vec::new();

    let release = |i: u32,
                   ready_at: &mut Vec<u32>,
                   issued: &Vec<u32>,
                   meta: &mut Vec<u32>,
                   waiting: &mut BinaryHeap<Reverse<(u32, u32)>>,
                   by_index: &mut BinaryHeap<Reverse<u32>>,
                   outputs: &mut Vec<u32>| {
        let inst = &insts[i as usize];
        match inst.op {
            Op::Machine { .. } => {
                let r = g.preds[i as usize].iter().map(|&(p, d)| issued[p as usize] + d).max().unwrap_or(0);
                ready_at[i as usize] = r;
                waiting.push(Reverse((r, i)));
                by_index.push(Reverse(i));
            }
            Op::Output(_) => outputs.push(i),
            _ => meta.push(i),
        }
    };
    for i in 0..n as u32 {
        if npred[i as usize] == 0 {
            release(i, &mut ready_at, &issued, &mut meta, &mut waiting, &mut by_index, &mut outputs);
        }
    }
    let mut done = 0usize;
    loop {
        // Meta instructions take no time: issue them as soon as they can go.
        if let Some(i) = meta.pop() {
            issued[i as usize] = time;
            order.push(i);
            done += 1;
            if let Op::Input(_) = insts[i as usize].op {
                for &d in &insts[i as usize].defs {
                    if remaining[d as usize] > 0 {
                        let (fl, u) = atom_units(d);
                        pressure[fl] += u;
                    }
                }
            }
            for &(s, _) in &g.succs[i as usize] {
                npred[s as usize] -= 1;
                if npred[s as usize] == 0 {
                    release(s, &mut ready_at, &issued, &mut meta, &mut waiting, &mut by_index, &mut outputs);
                }
            }
            for &u in &insts[i as usize].uses {
                readers[u as usize] -= 1;
            }
            continue;
        }
        while let Some(&Reverse((r, i))) = waiting.peek() {
            if r > time {
                break;
            }
            waiting.pop();
            if issued[i as usize] == u32::MAX {
                avail.push((g.height[i as usize], g.depth[i as usize], Reverse(i)));
            }
        }
        let mut pick = None;
        if high(&pressure) {
            // Program order: the earliest released instruction, ready or not.
            while let Some(Reverse(i)) = by_index.pop() {
                if issued[i as usize] == u32::MAX {
                    time = time.max(ready_at[i as usize]);
                    pick = Some(i);
                    break;
                }
            }
        }
        while pick.is_none() {
            if let Some((_, _, Reverse(i))) = avail.pop() {
                if issued[i as usize] == u32::MAX {
                    pick = Some(i);
                }
            } else if let Some(Reverse((r, i))) = waiting.pop() {
                if issued[i as usize] == u32::MAX {
                    time = time.max(r);
                    pick = Some(i);
                }
            } else {
                break;
            }
        }
        let Some(i) = pick else { break };
        let inst = &insts[i as usize];
        if let Some((file, units)) = scarce_units(inst)
            && live[file] + units > t.file_units(file as u16)
        {
            if !parked.contains(&i) {
                parked.push(i);
            }
            continue;
        }
        if let Some((file, units)) = scarce_units(inst) {
            live[file] += units;
            if readers[inst.defs[0] as usize] == 0 {
                live[file] -= units;
            }
        }
        issued[i as usize] = time;
        let l = leaf(inst).unwrap_or(0);
        time += t.issue(l);
        order.push(i);
        done += 1;
        for &d in &inst.defs {
            if remaining[d as usize] > 0 {
                let (fl, u) = atom_units(d);
                pressure[fl] += u;
            }
        }
        for &u in &inst.uses {
            for &a in &g.atoms[u as usize] {
                remaining[a as usize] -= 1;
                if remaining[a as usize] == 0 {
                    let (fl, n) = atom_units(a);
                    pressure[fl] = pressure[fl].saturating_sub(n);
                }
            }
        }
        for &u in &inst.uses {
            readers[u as usize] -= 1;
            if readers[u as usize] == 0 {
                let v = &f.values[u as usize];
                let c = t.class(v.cls.unwrap_or(0));
                if t.scarce(c.file) {
                    live[c.file as usize] -= (v.regs * c.units).min(live[c.file as usize]);
                    // Room again: the parked definitions may go.
                    for p in parked.drain(..) {
                        avail.push((g.height[p as usize], g.depth[p as usize], Reverse(p)));
                        by_index.push(Reverse(p));
                    }
                }
            }
        }
        for &(s, _) in &g.succs[i as usize] {
            npred[s as usize] -= 1;
            if npred[s as usize] == 0 {
                release(s, &mut ready_at, &issued, &mut meta, &mut waiting, &mut by_index, &mut outputs);
            }
        }
    }
    if done + outputs.len() != n {
        let stuck = parked
            .first()
            .copied()
            .or_else(|| (0..n as u32).find(|&i| issued[i as usize] == u32::MAX && !outputs.contains(&i)));
        let (pos, file) = stuck.map_or((Pos::default(), ""), |i| {
            let inst = &insts[i as usize];
            let file =
                inst.defs.first().and_then(|&d| f.values[d as usize].cls).map_or("", |c| t.file_name(t.class(c).file));
            (inst.pos, file)
        });
        return Err(CompileError::Scarce { pos, file });
    }
    order.extend(outputs);
    Ok(order)
}
