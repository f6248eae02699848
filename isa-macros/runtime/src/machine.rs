//! The machine model a compiler backend reads: register files and classes, how
//! instructions issue, which results need a wait and how to wait, the delay
//! rules between a producer and a consumer, and the instructions the backend
//! writes itself (nops, waits, copies, selects). Generated from the `machine:`
//! section of a spec (docs/spec-language.md, "Machine model").
//!
//! Everything names things of the spec (scheduling classes and flags by index,
//! instructions by leaf key, fields by name), so the backend stays generic.

use crate::eval::binop;
use crate::tables::{Enum, Expr, GenValue, Op};

/// The machine model of one target.
#[derive(Debug)]
pub struct Machine {
    pub files: &'static [RegFile],
    pub classes: &'static [RegClass],
    /// Issue behaviour per scheduling class, indexed like [`crate::Isa::sched_classes`].
    pub timing: &'static [Timing],
    pub syncs: &'static [SyncClass],
    /// The instruction that waits on counters, if the target has counters.
    pub wait: Option<WaitInst>,
    pub delays: &'static [Delay],
    pub late_reads: &'static [LateRead],
    /// The instruction that fills delay slots.
    pub nop: Option<Nop>,
    /// A field of ordinary instructions that adds delay slots after them.
    pub nop_fold: Option<NopFold>,
    /// Groups of instructions that keep their program order among themselves.
    pub order: &'static [OrderChain],
    /// How to copy one register of a class (IR text with `{dst}` and `{src}`).
    pub copies: &'static [CopyRule],
    /// The instruction that picks one of two values (for flattening if/else).
    pub select: Option<SelectRule>,
    /// Instructions ending every program (IR text, no operands).
    pub end: &'static [&'static str],
}

/// A register file: `units` allocation units (per generation).
#[derive(Debug)]
pub struct RegFile {
    pub name: &'static str,
    pub doc: &'static str,
    pub units: &'static [GenValue],
    /// The scheduler keeps no more values of this file live than it has units,
    /// and they are never spilled (an address register, a predicate).
    pub scarce: bool,
    /// Registers instructions read but never write (constants, uniforms): the
    /// builders name them, the allocator never hands them out.
    pub read_only: bool,
}

/// A register class: registers of `units` units of one file.
#[derive(Debug)]
pub struct RegClass {
    pub name: &'static str,
    pub doc: &'static str,
    pub file: u16,
    /// Units per register.
    pub units: u32,
    /// Width of one register in bits.
    pub bits: u32,
    /// The ABI register file (docs/abi-language.md) whose places map onto this
    /// class, if any; places convert by bit offset.
    pub abi_file: &'static str,
    /// How many registers of the class exist (from unit 0), if fewer than fit.
    pub count: Option<u32>,
    /// Alignment, in registers, of a group of consecutive registers: the entry
    /// with the largest `min_regs` not above the group's size applies.
    pub align: &'static [Align],
    /// How one register is written (`r{N >> 2}.{N & 3:swiz}`).
    pub syntax: &'static [SynTok],
    /// How a group of several registers is written; `syntax` when empty.
    pub range_syntax: &'static [SynTok],
    /// Without `range_syntax`: what separates the names of a group's
    /// registers, each written with `syntax` (`r0_r1_r2`); when empty, a group
    /// is written as its first register.
    pub join: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Align {
    pub min_regs: u32,
    pub align: u32,
}

/// A piece of a register name. Expressions read `N` (first register, as
/// `Op::Field(0)`), `END` (last register, `Field(1)`), `COUNT` (`Field(2)`) and `gen`.
#[derive(Debug, Clone, Copy)]
pub enum SynTok {
    Lit(&'static str),
    /// A decimal number.
    Num(Expr),
    /// An enum value's display string (`{N & 3:swiz}`), by index into the enums.
    Enum(Expr, u16),
}

/// How instructions of a scheduling class issue.
#[derive(Debug)]
pub struct Timing {
    /// Delay slots an instruction of this class fills (0: it does not advance
    /// the count other instructions wait on).
    pub issue: u32,
    /// The sync a reader of this class's results must wait with.
    pub sync: Option<u16>,
    /// The sync that covers this class's late reads of its sources: overwriting
    /// a source of a pending instruction needs it.
    pub war: Option<u16>,
    /// Results of this class may complete out of issue order (waiting on its
    /// counter then means waiting for zero outstanding).
    pub unordered: bool,
}

/// A way to wait for results.
#[derive(Debug)]
pub struct SyncClass {
    pub name: &'static str,
    pub doc: &'static str,
    pub kind: SyncKind,
}

#[derive(Debug, Clone, Copy)]
pub enum SyncKind {
    /// Set this bool field on the first instruction that needs the results;
    /// waits for every outstanding result of this sync.
    Flag(&'static str),
    /// A counter of outstanding results: a field of the wait instruction
    /// (`width` bits; all ones means "do not wait on this counter"). Waiting
    /// for `n` lets the `n` newest results stay outstanding.
    Counter { field: &'static str, width: u8 },
    /// Scoreboard slots: an asynchronous instruction names one of `slots`
    /// slots in its field `field` (the backend chooses it); the wait
    /// instruction's field `wait_field` names the slot it waits for, which
    /// completes everything outstanding in that slot. At most `depth` results
    /// may be outstanding in one slot.
    Slot { field: &'static str, wait_field: &'static str, slots: u32, depth: u32 },
}

/// The counter-wait instruction: counters not waited on are set to their maximum.
#[derive(Debug)]
pub struct WaitInst {
    pub instruction: &'static str,
}

/// Which instructions a rule applies to: those of the listed scheduling classes
/// or carrying any of the listed flags; every instruction when both are empty.
#[derive(Debug)]
pub struct Selector {
    pub classes: &'static [u16],
    pub flags: &'static [u16],
}

/// Delay slots needed between a producer and a consumer of its result.
#[derive(Debug)]
pub struct Delay {
    pub from: Selector,
    pub to: Selector,
    /// Only for results in this register file.
    pub file: Option<u16>,
    /// Only for this source operand of the consumer (0 = first).
    pub operand: Option<u8>,
    pub cycles: &'static [GenValue],
}

/// A source operand read some cycles after issue: it needs that many fewer slots.
#[derive(Debug)]
pub struct LateRead {
    pub to: Selector,
    pub operand: u8,
    /// Only for sources in this register file.
    pub file: Option<u16>,
    pub cycles: &'static [GenValue],
}

/// The nop instruction: `count` in `field` fills `count + 1` delay slots.
#[derive(Debug)]
pub struct Nop {
    pub instruction: &'static str,
    pub field: &'static str,
    pub max: u32,
}

/// A field of ordinary instructions counting delay slots after them.
#[derive(Debug)]
pub struct NopFold {
    pub field: &'static str,
    pub max: u32,
    pub gen_min: u32,
    pub gen_max: u32,
}

#[derive(Debug)]
pub struct OrderChain {
    pub name: &'static str,
    pub members: Selector,
}

#[derive(Debug)]
pub struct CopyRule {
    pub class: u16,
    pub text: &'static str,
}

/// `text` with `{dst}`, `{then}`, `{else}` and `{cond}`; `cond_class` is the
/// class the condition must have.
#[derive(Debug)]
pub struct SelectRule {
    pub class: u16,
    pub cond_class: u16,
    pub text: &'static str,
}

/// The value that holds in `gen_`, if any.
pub fn gen_value(values: &[GenValue], gen_: u32) -> Option<u32> {
    values.iter().find(|v| v.min <= gen_ && gen_ <= v.max).map(|v| v.value)
}

impl Selector {
    /// Whether an instruction of scheduling class `sched` with `flags` matches.
    pub fn matches(&self, sched: Option<u16>, flags: &[u16]) -> bool {
        if self.classes.is_empty() && self.flags.is_empty() {
            return true;
        }
        sched.is_some_and(|s| self.classes.contains(&s)) || flags.iter().any(|f| self.flags.contains(f))
    }
}

impl RegClass {
    /// Alignment in registers of a group of `regs` registers.
    pub fn align_of(&self, regs: u32) -> u32 {
        self.align.iter().filter(|a| a.min_regs <= regs).max_by_key(|a| a.min_regs).map_or(1, |a| a.align.max(1))
    }

    /// The text of `count` registers starting at register `first`.
    pub fn name(&self, enums: &[Enum], first: u32, count: u32, gen_: u32) -> String {
        if count > 1 && self.range_syntax.is_empty() && !self.join.is_empty() {
            let names: Vec<String> = (first..first + count).map(|r| self.name(enums, r, 1, gen_)).collect();
            return names.join(self.join);
        }
        let toks = if count > 1 && !self.range_syntax.is_empty() { self.range_syntax } else { self.syntax };
        let vars = [first as i64, (first + count.max(1) - 1) as i64, count as i64];
        let mut s = String::new();
        for t in toks {
            match *t {
                SynTok::Lit(l) => s.push_str(l),
                SynTok::Num(e) => s.push_str(&eval_vars(e, &vars, gen_).to_string()),
                SynTok::Enum(e, en) => {
                    let v = eval_vars(e, &vars, gen_);
                    match enums.get(en as usize).and_then(|en| en.values.iter().find(|x| x.value as i64 == v)) {
                        Some(x) => s.push_str(x.display),
                        None => s.push_str(&v.to_string()),
                    }
                }
            }
        }
        s
    }
}

/// Evaluates an expression whose fields are plain variables.
pub fn eval_vars(e: Expr, vars: &[i64], gen_: u32) -> i64 {
    let mut stack: Vec<i64> = Vec::with_capacity(8);
    for op in e {
        match *op {
            Op::Lit(v) => stack.push(v),
            Op::Field(i) | Op::Param(i) => stack.push(vars.get(i as usize).copied().unwrap_or(0)),
            Op::Gen => stack.push(gen_ as i64),
            Op::Not | Op::Neg | Op::BitNot => {
                if let Some(a) = stack.pop() {
                    stack.push(match op {
                        Op::Not => (a == 0) as i64,
                        Op::Neg => a.wrapping_neg(),
                        _ => !a,
                    });
                }
            }
            Op::Bin(b) => {
                if stack.len() >= 2 {
                    let y = stack.pop().unwrap_or(0);
                    let x = stack.pop().unwrap_or(0);
                    stack.push(binop(b, x, y));
                }
            }
            Op::Select => {
                if stack.len() >= 3 {
                    let b = stack.pop().unwrap_or(0);
                    let a = stack.pop().unwrap_or(0);
                    let c = stack.pop().unwrap_or(0);
                    stack.push(if c != 0 { a } else { b });
                }
            }
        }
    }
    stack.pop().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{BinOp, EnumValue};

    static SWIZ: [EnumValue; 4] = [
        EnumValue { value: 0, display: "x" },
        EnumValue { value: 1, display: "y" },
        EnumValue { value: 2, display: "z" },
        EnumValue { value: 3, display: "w" },
    ];
    static ENUMS: [Enum; 1] = [Enum { name: "swiz", values: &SWIZ, also: &[], set: None }];

    #[test]
    fn register_names_from_syntax() {
        let class = RegClass {
            name: "full",
            doc: "",
            file: 0,
            units: 2,
            bits: 32,
            abi_file: "",
            count: None,
            align: &[Align { min_regs: 2, align: 2 }, Align { min_regs: 4, align: 4 }],
            syntax: &[
                SynTok::Lit("r"),
                SynTok::Num(&[Op::Field(0), Op::Lit(2), Op::Bin(BinOp::Shr)]),
                SynTok::Lit("."),
                SynTok::Enum(&[Op::Field(0), Op::Lit(3), Op::Bin(BinOp::BitAnd)], 0),
            ],
            range_syntax: &[
                SynTok::Lit("v["),
                SynTok::Num(&[Op::Field(0)]),
                SynTok::Lit(":"),
                SynTok::Num(&[Op::Field(1)]),
                SynTok::Lit("]"),
            ],
            join: "",
        };
        assert_eq!(class.name(&ENUMS, 6, 1, 0), "r1.z");
        assert_eq!(class.name(&ENUMS, 4, 4, 0), "v[4:7]");
        assert_eq!(class.align_of(1), 1);
        assert_eq!(class.align_of(3), 2);
        assert_eq!(class.align_of(8), 4);
        let joined = RegClass { range_syntax: &[], join: "_", ..class };
        assert_eq!(joined.name(&ENUMS, 4, 3, 0), "r1.x_r1.y_r1.z");
        assert_eq!(joined.name(&ENUMS, 4, 1, 0), "r1.x");
    }

    #[test]
    fn selectors() {
        let any = Selector { classes: &[], flags: &[] };
        assert!(any.matches(None, &[]));
        let s = Selector { classes: &[1], flags: &[2] };
        assert!(s.matches(Some(1), &[]));
        assert!(s.matches(Some(0), &[2]));
        assert!(!s.matches(Some(0), &[1]));
        assert!(!s.matches(None, &[]));
    }
}
