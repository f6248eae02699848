//! Error values of the backend. Bad input is one of these, never a panic; each
//! says where (line and column of the IR text, when there is one) and what to do.

use std::fmt;

/// A place in the IR text (1-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An error in the IR text, or in what it asks of the target: where, what, and
/// what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrError {
    pub pos: Pos,
    pub message: String,
    pub help: Option<String>,
}

impl IrError {
    pub fn new(pos: Pos, message: impl Into<String>) -> Self {
        IrError { pos, message: message.into(), help: None }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for IrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)?;
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for IrError {}

/// Why a program did not compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The target's spec has no `machine:` section.
    NoMachineModel { target: &'static str },
    /// The IR text, or what it asks of the target.
    Ir(IrError),
    /// More values of a register class are live at once than it has registers.
    OutOfRegisters { pos: Pos, class: &'static str, needed: u32, available: u32 },
    /// The scheduler could not order values of a scarce register file (an address
    /// register) so that few enough are live at once.
    Scarce { pos: Pos, file: &'static str },
    /// An instruction the backend wrote (a nop, a wait, a flag) did not encode.
    Encode { what: String, reason: String },
    /// The independent checks found a problem in the result (a bug in a pass).
    Check(Vec<String>),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::NoMachineModel { target } => {
                write!(f, "target {target} has no machine model (`machine:` in its spec), so it cannot be compiled for")
            }
            CompileError::Ir(e) => e.fmt(f),
            CompileError::OutOfRegisters { pos, class, needed, available } => write!(
                f,
                "{pos}: out of `{class}` registers: {needed} needed at once, {available} available (spilling is not \
                 implemented)\n  help: shorten live ranges, or split the work into several shaders"
            ),
            CompileError::Scarce { pos, file } => write!(
                f,
                "{pos}: cannot schedule so that few enough values of register file `{file}` are live at once\n  help: \
                 an instruction reads two such values, or one is needed while another is still in use; recompute \
                 the value instead of keeping it live"
            ),
            CompileError::Encode { what, reason } => write!(f, "cannot encode {what}: {reason}"),
            CompileError::Check(v) => write!(f, "internal check failed:\n  {}", v.join("\n  ")),
        }
    }
}

impl std::error::Error for CompileError {}

impl From<IrError> for CompileError {
    fn from(e: IrError) -> Self {
        CompileError::Ir(e)
    }
}
