//! The IR: SSA values in basic blocks. Machine instructions are the target's own
//! assembly text with values in place of registers; meta instructions (as in
//! Mesa's ir3 notes) connect values without emitting code: `input` (a value the
//! hardware provides), `output` (a value that must survive to the end), `phi`,
//! `collect` (values in consecutive registers) and `split` (the registers of a
//! multi-register value, one by one). `br` and `jump` end blocks.
//!
//! The textual form is in [`crate::text`].

use crate::error::Pos;

/// Index into [`Function::values`].
pub type ValueId = u32;

/// A program: one shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Function {
    /// `abi STAGE VARIANT [PARAM=VALUE]...`: where `input abi NAME` looks.
    pub abi: Option<AbiRef>,
    pub blocks: Vec<Block>,
    pub values: Vec<Value>,
}

/// The shader ABI stage and variant inputs are taken from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbiRef {
    pub stage: String,
    pub variant: String,
    pub params: Vec<(String, i64)>,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub name: String,
    /// Register class name, as written (resolved against the target later).
    pub class: String,
    /// Number of consecutive registers.
    pub regs: u32,
    /// The class's index in the target, once resolved.
    pub cls: Option<u16>,
    /// Where it is defined.
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub name: String,
    pub insts: Vec<Inst>,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: Op,
    /// Values defined, in order.
    pub defs: Vec<ValueId>,
    /// Values read, in order: for a machine instruction, operand `n` is `uses[n]`.
    pub uses: Vec<ValueId>,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A target instruction: its mnemonic and operand text.
    /// `leaf` is the encoding, once resolved against the target.
    Machine {
        mnemonic: String,
        operands: Vec<Piece>,
        leaf: Option<u16>,
    },
    /// A value the hardware provides (one def).
    Input(Place),
    /// A value live at the end of the program (one use), optionally in a given register.
    Output(Option<String>),
    /// One def from the predecessor blocks named, one use per block.
    Phi(Vec<String>),
    /// One def: the uses in consecutive registers.
    Collect,
    /// One use: its registers as the defs, in order.
    Split,
    /// Goes to `then` when the use is not zero, else to `else_`.
    Branch {
        then: String,
        else_: String,
    },
    Jump(String),
}

/// Where an input lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A register in the target's syntax (`r0.x`, `v[4:5]`).
    Reg(String),
    /// An argument of the ABI stage, with an element index for arrays.
    Abi(String, Option<u32>),
}

/// A piece of a machine instruction's operand text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// The n-th def of the instruction.
    Def(u32),
    /// The n-th use of the instruction.
    Use(u32),
}

impl Inst {
    pub fn is_machine(&self) -> bool {
        matches!(self.op, Op::Machine { .. })
    }

    pub fn is_terminator(&self) -> bool {
        matches!(self.op, Op::Branch { .. } | Op::Jump(_))
    }
}

impl Function {
    /// Adds a value and returns its id.
    pub fn add_value(&mut self, name: String, class: String, regs: u32, pos: Pos) -> ValueId {
        self.values.push(Value { name, class, regs, cls: None, pos });
        (self.values.len() - 1) as ValueId
    }

    /// A value name not used yet, made from `stem`.
    pub fn fresh_name(&self, stem: &str) -> String {
        let mut i = self.values.len();
        loop {
            let n = format!("{stem}_{i}");
            if !self.values.iter().any(|v| v.name == n) {
                return n;
            }
            i += 1;
        }
    }
}
