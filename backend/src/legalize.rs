//! The hazard legalizer: walks the final instruction list keeping, per register
//! unit, who wrote it last and when, and what asynchronous work is outstanding,
//! and makes every rule of the machine model hold:
//!
//! - a sync (`machine: syncs:`): a reader (or overwriter) of a result that is
//!   still outstanding waits for it — a flag sync sets its field on the
//!   instruction (or on a nop in front of one that has no such field); a
//!   counter sync emits the wait instruction with the counter at the number of
//!   newer results that may stay outstanding (0 when results of that counter
//!   can complete out of order); a slot sync gives each asynchronous
//!   instruction a scoreboard slot (the first with nothing outstanding, else
//!   the least busy; waiting first when it is full) and emits the wait
//!   instruction naming the slot of each result a reader needs;
//! - a source read late (`war:`) is not overwritten before its reader's sync;
//! - a delay (`delays:`, `late-reads:`): enough slots lie between producer and
//!   consumer, as a nop count folded into the previous instruction
//!   (`nop-fold:`) where it can carry it, else as nop instructions.
//!
//! [`crate::check`] verifies the result independently.

use std::collections::HashMap;

use isa_runtime::Builder;
use isa_runtime::machine::SyncKind;

use crate::code::{MInst, Origin};
use crate::error::CompileError;
use crate::fields;
use crate::target::Target;

/// One outstanding result: its sequence number, whether it may complete out
/// of order, and its scoreboard slot (slot syncs).
#[derive(Clone, Copy)]
struct Issued {
    seq: u64,
    unordered: bool,
    slot: u32,
}

/// Outstanding work of one sync.
#[derive(Default, Clone)]
struct SyncState {
    /// Results not known complete, oldest first.
    issued: Vec<Issued>,
    next: u64,
}

impl SyncState {
    fn issue(&mut self, unordered: bool, slot: u32) -> u64 {
        self.next += 1;
        self.issued.push(Issued { seq: self.next, unordered, slot });
        self.next
    }
    fn pending(&self, q: u64) -> bool {
        self.issued.iter().any(|i| i.seq == q)
    }
    /// How many results newer than `q` may stay outstanding when waiting for it.
    fn allowed_after(&self, q: u64) -> u32 {
        if self.issued.iter().any(|i| i.unordered) {
            return 0;
        }
        self.issued.iter().filter(|i| i.seq > q).count() as u32
    }
    /// Waiting with `n` outstanding allowed.
    fn wait(&mut self, n: u32) {
        let drop = self.issued.len().saturating_sub(n as usize);
        self.issued.drain(..drop);
    }
    fn wait_all(&mut self) {
        self.issued.clear();
    }
    fn slot_of(&self, q: u64) -> Option<u32> {
        self.issued.iter().find(|i| i.seq == q).map(|i| i.slot)
    }
    fn in_slot(&self, slot: u32) -> usize {
        self.issued.iter().filter(|i| i.slot == slot).count()
    }
    fn wait_slot(&mut self, slot: u32) {
        self.issued.retain(|i| i.slot != slot);
    }
    /// The slot a new result takes: the first with nothing outstanding, else
    /// the least busy.
    fn choose_slot(&self, slots: u32) -> u32 {
        (0..slots).min_by_key(|&s| self.in_slot(s)).unwrap_or(0)
    }
}

/// Per register unit: the last writer and what is outstanding on the unit.
#[derive(Default, Clone)]
struct UnitState {
    /// Leaf and the slot count right after it issued.
    writer: Option<(u16, u64)>,
    /// An outstanding result being written here: (sync, sequence).
    raw: Option<(u16, u64)>,
    /// Outstanding late reads of this unit: (sync, sequence).
    war: Vec<(u16, u64)>,
}

struct L<'t> {
    t: &'t Target,
    out: Vec<MInst>,
    /// Slots issued so far.
    time: u64,
    units: HashMap<(u16, u32), UnitState>,
    syncs: Vec<SyncState>,
}

fn enc_err(what: &str, reason: impl Into<String>) -> CompileError {
    CompileError::Encode { what: what.to_string(), reason: reason.into() }
}

impl L<'_> {
    /// Slots an instruction fills once emitted (nop counts included).
    fn slots(&self, m: &MInst) -> u64 {
        let isa = self.t.isa;
        if Some(m.inst.leaf) == self.t.nop_leaf() {
            let f = self.t.machine.nop.as_ref().map_or("", |n| n.field);
            return fields::get(isa, &m.inst, self.t.gen_, f) as u64 + 1;
        }
        let mut s = self.t.issue(m.inst.leaf) as u64;
        if let Some((f, _)) = self.t.nop_fold()
            && self.t.has_field(m.inst.leaf, f)
        {
            s += fields::get(isa, &m.inst, self.t.gen_, f) as u64;
        }
        s
    }

    fn nop(&self, count: u32) -> Result<MInst, CompileError> {
        let (Some(leaf), Some(n)) = (self.t.nop_leaf(), self.t.machine.nop.as_ref()) else {
            return Err(enc_err("a nop", "the target names no nop instruction (`machine: nop:`)"));
        };
        let b = Builder::for_leaf(self.t.isa, leaf);
        let b = if count > 0 { b.set(n.field, count as i64).map_err(|e| enc_err("a nop", e.to_string()))? } else { b };
        let inst = b.finish(self.t.gen_).map_err(|e| enc_err("a nop", e.to_string()))?;
        Ok(MInst { inst, defs: vec![], uses: vec![], origin: Origin::Nop })
    }

    fn push(&mut self, m: MInst) {
        self.time += self.slots(&m);
        self.out.push(m);
    }

    /// Pads `need` slots before the next instruction.
    fn pad(&mut self, mut need: u64) -> Result<(), CompileError> {
        if need == 0 {
            return Ok(());
        }
        // Fold into the previous instruction's nop field where it has one.
        if let Some((field, max)) = self.t.nop_fold()
            && let Some(prev) = self.out.last()
            && Some(prev.inst.leaf) != self.t.nop_leaf()
            && self.t.has_field(prev.inst.leaf, field)
        {
            let have = fields::get(self.t.isa, &prev.inst, self.t.gen_, field) as u64;
            let add = need.min((max as u64).saturating_sub(have));
            if add > 0
                && let Ok(i) = fields::set(self.t.isa, prev.inst, self.t.gen_, field, (have + add) as i64)
            {
                self.out.last_mut().expect("checked").inst = i;
                self.time += add;
                need -= add;
            }
        }
        let max = self.t.machine.nop.as_ref().map_or(0, |n| n.max) as u64;
        while need > 0 {
            let n = need.min(max + 1);
            let nop = self.nop((n - 1) as u32)?;
            self.push(nop);
            need -= n;
        }
        Ok(())
    }

    /// Emits the wait instruction for scoreboard slot `slot` of sync `s`.
    fn wait_slot(&mut self, s: u16, slot: u32) -> Result<(), CompileError> {
        let t = self.t;
        let SyncKind::Slot { wait_field, .. } = t.machine.syncs[s as usize].kind else { return Ok(()) };
        let Some(wl) = t.wait_leaf() else {
            return Err(enc_err("a wait", "the target names no wait instruction (`machine: wait:`)"));
        };
        let inst = Builder::for_leaf(t.isa, wl)
            .set(wait_field, slot as i64)
            .and_then(|b| b.finish(t.gen_))
            .map_err(|e| enc_err(&format!("a wait for slot {slot}"), e.to_string()))?;
        self.syncs[s as usize].wait_slot(slot);
        self.push(MInst { inst, defs: vec![], uses: vec![], origin: Origin::Wait });
        Ok(())
    }

    fn unit(&mut self, k: (u16, u32)) -> &mut UnitState {
        self.units.entry(k).or_default()
    }

    fn add(&mut self, mut m: MInst) -> Result<(), CompileError> {
        let t = self.t;
        let leaf = m.inst.leaf;
        // 1. Syncs: what this instruction must wait for.
        let mut need: HashMap<u16, Vec<u64>> = HashMap::new();
        let want = |s: u16, q: u64, need: &mut HashMap<u16, Vec<u64>>| need.entry(s).or_default().push(q);
        for &(_, u) in &m.uses {
            for k in u.iter() {
                if let Some((s, q)) = self.units.get(&k).and_then(|x| x.raw)
                    && self.syncs[s as usize].pending(q)
                {
                    want(s, q, &mut need);
                }
            }
        }
        for u in &m.defs {
            for k in u.iter() {
                let Some(st) = self.units.get(&k) else { continue };
                if let Some((s, q)) = st.raw
                    && self.syncs[s as usize].pending(q)
                {
                    want(s, q, &mut need);
                }
                for &(s, q) in &st.war {
                    if self.syncs[s as usize].pending(q) {
                        want(s, q, &mut need);
                    }
                }
            }
        }
        let mut counters: Vec<(u16, u32)> = Vec::new();
        let mut flags: Vec<u16> = Vec::new();
        let mut slots: Vec<(u16, u32)> = Vec::new();
        let mut keys: Vec<u16> = need.keys().copied().collect();
        keys.sort();
        for s in keys {
            let st = &self.syncs[s as usize];
            let qs = &need[&s];
            match t.machine.syncs[s as usize].kind {
                SyncKind::Flag(_) => flags.push(s),
                SyncKind::Counter { .. } => {
                    let newest = qs.iter().copied().max().unwrap_or(0);
                    counters.push((s, st.allowed_after(newest)));
                }
                SyncKind::Slot { .. } => slots.extend(qs.iter().filter_map(|&q| st.slot_of(q)).map(|slot| (s, slot))),
            }
        }
        slots.sort_unstable();
        slots.dedup();
        for (s, slot) in slots {
            self.wait_slot(s, slot)?;
        }
        if !counters.is_empty() {
            let Some(wl) = t.wait_leaf() else {
                return Err(enc_err("a wait", "the target names no wait instruction (`machine: wait:`)"));
            };
            // Every counter at its maximum (no wait), then the ones needed.
            let mut b = Builder::for_leaf(t.isa, wl);
            for (s, sc) in t.machine.syncs.iter().enumerate() {
                if let SyncKind::Counter { field, width } = sc.kind {
                    let full = (1i64 << width) - 1;
                    let n = counters.iter().find(|c| c.0 as usize == s).map_or(full, |c| (c.1 as i64).min(full));
                    b = b.set(field, n).map_err(|e| enc_err("a wait", e.to_string()))?;
                }
            }
            let inst = b.finish(t.gen_).map_err(|e| enc_err("a wait", e.to_string()))?;
            for &(s, n) in &counters {
                self.syncs[s as usize].wait(n);
            }
            self.push(MInst { inst, defs: vec![], uses: vec![], origin: Origin::Wait });
        }
        for &s in &flags {
            let SyncKind::Flag(field) = t.machine.syncs[s as usize].kind else { continue };
            if t.has_field(leaf, field)
                && let Ok(i) = fields::set(t.isa, m.inst, t.gen_, field, 1)
            {
                m.inst = i;
            } else {
                // This instruction cannot carry the flag: a nop in front carries it.
                let mut nop = self.nop(0)?;
                nop.inst = fields::set(t.isa, nop.inst, t.gen_, field, 1).map_err(|e| enc_err("a sync nop", e))?;
                nop.origin = Origin::Wait;
                self.push(nop);
            }
            self.syncs[s as usize].wait_all();
        }
        // 2. Delays: slots since each source's producer.
        let mut short = 0u64;
        for &(op, u) in &m.uses {
            for k in u.iter() {
                if let Some((pl, after)) = self.units.get(&k).and_then(|x| x.writer) {
                    let d = t.delay(pl, leaf, u.file, op) as u64;
                    short = short.max((after + d).saturating_sub(self.time));
                }
            }
        }
        self.pad(short)?;
        // 3. Issue it and record what it leaves outstanding; a scoreboard
        // slot is chosen here, after waiting for it if it is full.
        let mut slot = 0;
        if let Some(s) = t.sync_of(leaf)
            && let SyncKind::Slot { field, slots, depth, .. } = t.machine.syncs[s as usize].kind
        {
            slot = self.syncs[s as usize].choose_slot(slots);
            if self.syncs[s as usize].in_slot(slot) >= depth as usize {
                self.wait_slot(s, slot)?;
            }
            m.inst = fields::set(t.isa, m.inst, t.gen_, field, slot as i64)
                .map_err(|e| enc_err(&format!("scoreboard slot {slot}"), e))?;
        }
        let uses: Vec<_> = m.uses.iter().map(|x| x.1).collect();
        let defs = m.defs.clone();
        let issue_after = self.time + t.issue(leaf) as u64;
        self.push(m);
        let raw = t.sync_of(leaf).map(|s| (s, self.syncs[s as usize].issue(t.unordered(leaf), slot)));
        let war = t.war_of(leaf).map(|w| match raw {
            Some((s, q)) if s == w => (w, q),
            _ => (w, self.syncs[w as usize].issue(t.unordered(leaf), slot)),
        });
        for u in &defs {
            for k in u.iter() {
                let st = self.unit(k);
                st.writer = Some((leaf, issue_after));
                st.raw = raw;
                st.war.clear();
            }
        }
        if let Some(w) = war {
            for u in &uses {
                for k in u.iter() {
                    self.unit(k).war.push(w);
                }
            }
        }
        Ok(())
    }
}

/// Makes `code` obey the target's delay and sync rules.
pub fn legalize(t: &Target, code: Vec<MInst>) -> Result<Vec<MInst>, CompileError> {
    let mut l = L {
        t,
        out: Vec::with_capacity(code.len() * 2),
        time: 0,
        units: HashMap::new(),
        syncs: vec![SyncState::default(); t.machine.syncs.len()],
    };
    for m in code {
        l.add(m)?;
    }
    Ok(l.out)
}
