//! A target as the backend sees it: the generated tables of one instruction set
//! (`isa_runtime::Isa` and its machine model) at one generation, plus the shader
//! ABI when there is one. Every target-specific answer the passes need comes
//! from here, read from spec data.

use isa_runtime::abi::Abi;
use isa_runtime::machine::{RegClass, gen_value};
use isa_runtime::{Isa, Machine};

use crate::error::CompileError;

/// One target at one generation.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub isa: &'static Isa,
    pub machine: &'static Machine,
    pub gen_: u32,
    pub abi: Option<&'static Abi>,
    nop_leaf: Option<u16>,
    wait_leaf: Option<u16>,
}

/// A range of units of one register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Units {
    pub file: u16,
    pub lo: u32,
    pub n: u32,
}

impl Units {
    pub fn iter(self) -> impl Iterator<Item = (u16, u32)> {
        (self.lo..self.lo + self.n).map(move |u| (self.file, u))
    }
}

impl Target {
    pub fn new(isa: &'static Isa, gen_: u32, abi: Option<&'static Abi>) -> Result<Self, CompileError> {
        let machine = isa.machine.ok_or(CompileError::NoMachineModel { target: isa.name })?;
        let nop_leaf = machine.nop.as_ref().and_then(|n| isa.leaf_by_key(n.instruction));
        let wait_leaf = machine.wait.as_ref().and_then(|w| isa.leaf_by_key(w.instruction));
        Ok(Target { isa, machine, gen_, abi, nop_leaf, wait_leaf })
    }

    pub fn class_by_name(&self, name: &str) -> Option<u16> {
        self.machine.classes.iter().position(|c| c.name == name).map(|i| i as u16)
    }

    pub fn class(&self, c: u16) -> &'static RegClass {
        &self.machine.classes[c as usize]
    }

    pub fn class_names(&self) -> String {
        self.machine.classes.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
    }

    /// Units in a register file in this generation.
    pub fn file_units(&self, file: u16) -> u32 {
        gen_value(self.machine.files[file as usize].units, self.gen_).unwrap_or(0)
    }

    /// Registers of a class in this generation.
    pub fn class_regs(&self, c: u16) -> u32 {
        let cl = self.class(c);
        let fit = self.file_units(cl.file) / cl.units.max(1);
        cl.count.map_or(fit, |n| n.min(fit))
    }

    /// The units `regs` registers of class `c` from register `first` occupy.
    pub fn units_of(&self, c: u16, first: u32, regs: u32) -> Units {
        let cl = self.class(c);
        Units { file: cl.file, lo: first * cl.units, n: regs * cl.units }
    }

    /// The text of `regs` registers of class `c` from register `first`.
    pub fn reg_name(&self, c: u16, first: u32, regs: u32) -> String {
        self.class(c).name(self.isa.enums, first, regs, self.gen_)
    }

    /// The register of class `c` written `text` as a group of `regs`, if any.
    pub fn reg_by_name(&self, c: u16, text: &str, regs: u32) -> Option<u32> {
        let text = text.trim();
        (0..self.class_regs(c)).find(|&r| self.reg_name(c, r, regs) == text)
    }

    pub fn sched_of(&self, leaf: u16) -> Option<u16> {
        self.isa.leaves[leaf as usize].sched
    }

    pub fn flags_of(&self, leaf: u16) -> &'static [u16] {
        self.isa.leaves[leaf as usize].flags
    }

    /// Delay slots an instruction fills by issuing (without nop fields).
    pub fn issue(&self, leaf: u16) -> u32 {
        self.sched_of(leaf).and_then(|s| self.machine.timing.get(s as usize)).map_or(1, |t| t.issue)
    }

    /// The sync readers of this instruction's results wait with.
    pub fn sync_of(&self, leaf: u16) -> Option<u16> {
        self.sched_of(leaf).and_then(|s| self.machine.timing.get(s as usize)).and_then(|t| t.sync)
    }

    /// The sync that covers this instruction's late reads of its sources.
    pub fn war_of(&self, leaf: u16) -> Option<u16> {
        self.sched_of(leaf).and_then(|s| self.machine.timing.get(s as usize)).and_then(|t| t.war)
    }

    pub fn unordered(&self, leaf: u16) -> bool {
        self.sched_of(leaf).and_then(|s| self.machine.timing.get(s as usize)).is_some_and(|t| t.unordered)
    }

    /// Scheduler estimate of cycles until a result is ready (the class latency).
    pub fn latency(&self, leaf: u16) -> u32 {
        self.sched_of(leaf).and_then(|s| self.isa.latency(s, self.gen_)).unwrap_or(0)
    }

    /// Delay slots needed between `producer` writing a register of `file` and
    /// `consumer` reading it as source `operand`: the largest matching delay
    /// rule, less the consumer's late read of that source.
    pub fn delay(&self, producer: u16, consumer: u16, file: u16, operand: u32) -> u32 {
        let (ps, pf) = (self.sched_of(producer), self.flags_of(producer));
        let (cs, cf) = (self.sched_of(consumer), self.flags_of(consumer));
        let mut d = 0;
        for r in self.machine.delays {
            if r.from.matches(ps, pf)
                && r.to.matches(cs, cf)
                && r.file.is_none_or(|f| f == file)
                && r.operand.is_none_or(|o| o as u32 == operand)
            {
                d = d.max(gen_value(r.cycles, self.gen_).unwrap_or(0));
            }
        }
        for l in self.machine.late_reads {
            if l.to.matches(cs, cf) && l.operand as u32 == operand && l.file.is_none_or(|f| f == file) {
                d = d.saturating_sub(gen_value(l.cycles, self.gen_).unwrap_or(0));
            }
        }
        d
    }

    /// The largest delay any rule asks for in this generation.
    pub fn max_delay(&self) -> u32 {
        self.machine.delays.iter().filter_map(|r| gen_value(r.cycles, self.gen_)).max().unwrap_or(0)
    }

    /// Bit set of the order chains an instruction belongs to.
    pub fn chains_of(&self, leaf: u16) -> u64 {
        let (s, f) = (self.sched_of(leaf), self.flags_of(leaf));
        let mut m = 0;
        for (i, c) in self.machine.order.iter().enumerate().take(64) {
            if c.members.matches(s, f) {
                m |= 1 << i;
            }
        }
        m
    }

    pub fn nop_leaf(&self) -> Option<u16> {
        self.nop_leaf
    }

    pub fn wait_leaf(&self) -> Option<u16> {
        self.wait_leaf
    }

    /// The nop-fold field, when this generation has one.
    pub fn nop_fold(&self) -> Option<(&'static str, u32)> {
        let f = self.machine.nop_fold.as_ref()?;
        (f.gen_min <= self.gen_ && self.gen_ <= f.gen_max).then_some((f.field, f.max))
    }

    /// Whether a leaf has a field of this name (in any case).
    pub fn has_field(&self, leaf: u16, name: &str) -> bool {
        self.isa.leaves[leaf as usize].cases.iter().any(|c| !c.parse_only && c.fields.iter().any(|f| f.name == name))
    }

    /// Whether a file is scarce (few values live at once, never spilled).
    pub fn scarce(&self, file: u16) -> bool {
        self.machine.files[file as usize].scarce
    }

    pub fn file_name(&self, file: u16) -> &'static str {
        self.machine.files[file as usize].name
    }
}
