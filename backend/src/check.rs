//! The hazard checker: proves on a final instruction list that every delay and
//! sync rule of the machine model holds. It shares nothing with the legalizer
//! but the spec data: it reads nop counts, flags and wait counts back out of
//! the encoded bits, computes every instruction's issue slot as a prefix sum,
//! works out when each asynchronous result is waited for, and then checks each
//! read and write against the last writer and the pending late readers.

use std::collections::HashMap;

use isa_runtime::machine::SyncKind;

use crate::code::MInst;
use crate::target::Target;

/// One broken rule, at an index of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub index: usize,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "instruction {}: {}", self.index, self.message)
    }
}

/// Checks `code`; an empty list means every rule holds.
pub fn check(t: &Target, code: &[MInst]) -> Vec<Violation> {
    let isa = t.isa;
    let g = t.gen_;
    let n = code.len();
    let nop_field = t.machine.nop.as_ref().map(|x| x.field);
    let fold = t.nop_fold();
    // Issue slot of each instruction: a prefix sum of what each fills.
    let mut start = vec![0u64; n + 1];
    for (i, m) in code.iter().enumerate() {
        let l = m.inst.leaf;
        let fill = if Some(l) == t.nop_leaf() {
            isa.field(&m.inst, g, nop_field.unwrap_or("")).unwrap_or(0) as u64 + 1
        } else {
            let folded =
                fold.filter(|(f, _)| t.has_field(l, f)).map_or(0, |(f, _)| isa.field(&m.inst, g, f).unwrap_or(0));
            t.issue(l) as u64 + folded as u64
        };
        start[i + 1] = start[i] + fill;
    }
    // For each asynchronous instruction and sync, the index from which its
    // work is known complete (n + 1: never).
    let nsync = t.machine.syncs.len();
    let mut complete: HashMap<(usize, u16), usize> = HashMap::new();
    let mut open: Vec<Vec<(usize, bool)>> = vec![Vec::new(); nsync];
    let mut out = Vec::new();
    for (i, m) in code.iter().enumerate() {
        let l = m.inst.leaf;
        // What this instruction waits for, read from its bits.
        for (s, sc) in t.machine.syncs.iter().enumerate() {
            match sc.kind {
                SyncKind::Flag(field) => {
                    if isa.field(&m.inst, g, field).unwrap_or(0) != 0 {
                        for (p, _) in open[s].drain(..) {
                            complete.insert((p, s as u16), i);
                        }
                    }
                }
                SyncKind::Counter { field, width } => {
                    if Some(l) != t.wait_leaf() {
                        continue;
                    }
                    let v = isa.field(&m.inst, g, field).unwrap_or(0);
                    let allowed = (v & ((1 << width) - 1)) as usize;
                    let any_unordered = open[s].iter().any(|&(_, u)| u);
                    let finished = if any_unordered {
                        if allowed == 0 { open[s].len() } else { 0 }
                    } else {
                        open[s].len().saturating_sub(allowed)
                    };
                    for (p, _) in open[s].drain(..finished) {
                        complete.insert((p, s as u16), i);
                    }
                }
                SyncKind::Slot { field, wait_field, .. } => {
                    if Some(l) != t.wait_leaf() {
                        continue;
                    }
                    let slot = isa.field(&m.inst, g, wait_field).unwrap_or(-1);
                    open[s].retain(|&(p, _)| {
                        let waited = isa.field(&code[p].inst, g, field).unwrap_or(-2) == slot;
                        if waited {
                            complete.insert((p, s as u16), i);
                        }
                        !waited
                    });
                }
            }
        }
        // What it leaves outstanding.
        let sync = t.sync_of(l);
        let war = t.war_of(l);
        if let Some(s) = sync {
            if let SyncKind::Slot { field, depth, .. } = t.machine.syncs[s as usize].kind {
                let slot = isa.field(&m.inst, g, field).unwrap_or(0);
                let busy =
                    open[s as usize].iter().filter(|&&(p, _)| isa.field(&code[p].inst, g, field) == Some(slot)).count();
                if busy >= depth as usize {
                    out.push(Violation {
                        index: i,
                        message: format!(
                            "`{}` issues into slot {slot} of {}, which already holds {busy} results (at most {depth})",
                            isa.print(&m.inst, g),
                            t.machine.syncs[s as usize].name
                        ),
                    });
                }
            }
            open[s as usize].push((i, t.unordered(l)));
        }
        if let Some(w) = war
            && Some(w) != sync
        {
            open[w as usize].push((i, t.unordered(l)));
        }
    }
    let done_before = |p: usize, s: u16, i: usize| complete.get(&(p, s)).is_some_and(|&c| c <= i);
    // Per unit: last writer, and readers with late reads since then.
    let mut writer: HashMap<(u16, u32), usize> = HashMap::new();
    let mut late: HashMap<(u16, u32), Vec<usize>> = HashMap::new();
    let name = |m: &MInst| isa.print(&m.inst, g);
    for (i, m) in code.iter().enumerate() {
        let l = m.inst.leaf;
        for &(op, u) in &m.uses {
            for k in u.iter() {
                let Some(&p) = writer.get(&k) else { continue };
                let pl = code[p].inst.leaf;
                if let Some(s) = t.sync_of(pl)
                    && !done_before(p, s, i)
                {
                    out.push(Violation {
                        index: i,
                        message: format!(
                            "`{}` reads unit {} of file {} before `{}` (instruction {p}) is waited for with {}",
                            name(m),
                            k.1,
                            t.file_name(k.0),
                            name(&code[p]),
                            t.machine.syncs[s as usize].name
                        ),
                    });
                }
                let d = t.delay(pl, l, k.0, op) as u64;
                let gap = start[i].saturating_sub(start[p] + t.issue(pl) as u64);
                if gap < d {
                    out.push(Violation {
                        index: i,
                        message: format!(
                            "`{}` reads source {op} {gap} slots after `{}` (instruction {p}); {d} needed",
                            name(m),
                            name(&code[p])
                        ),
                    });
                }
            }
        }
        for u in &m.defs {
            for k in u.iter() {
                if let Some(&p) = writer.get(&k)
                    && let Some(s) = t.sync_of(code[p].inst.leaf)
                    && !done_before(p, s, i)
                {
                    out.push(Violation {
                        index: i,
                        message: format!(
                            "`{}` overwrites a result of `{}` (instruction {p}) still outstanding",
                            name(m),
                            name(&code[p])
                        ),
                    });
                }
                for &r in late.get(&k).into_iter().flatten() {
                    let w = t.war_of(code[r].inst.leaf).unwrap_or(0);
                    if !done_before(r, w, i) {
                        out.push(Violation {
                            index: i,
                            message: format!(
                                "`{}` overwrites a source `{}` (instruction {r}) may still read; wait with {}",
                                name(m),
                                name(&code[r]),
                                t.machine.syncs[w as usize].name
                            ),
                        });
                    }
                }
            }
        }
        for u in &m.defs {
            for k in u.iter() {
                writer.insert(k, i);
                late.remove(&k);
            }
        }
        if t.war_of(l).is_some() {
            for &(_, u) in &m.uses {
                for k in u.iter() {
                    late.entry(k).or_default().push(i);
                }
            }
        }
    }
    out
}
