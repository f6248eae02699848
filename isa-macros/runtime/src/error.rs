//! Error values of the engine. None of them is a panic: bad bytes, bad text and
//! bad field values all come back as one of these.

use std::fmt;

/// Why a word did not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// No encoding of this generation matches the word.
    NoMatch { bits: crate::Bits, width: u32 },
    /// The instruction matched, but an operand field holds bits no operand form uses.
    BadOperand { leaf: &'static str, field: &'static str },
    /// The fixed bits match, but a `requires:` condition of the encoding fails.
    Unmet { leaf: &'static str },
    /// An enum field holds a value the spec gives no name.
    BadEnum { leaf: &'static str, field: &'static str, value: u64 },
    /// A variable-length encoding computed a length it cannot have.
    BadLength { leaf: &'static str, bits: i64 },
    /// Fewer bytes than the instruction needs.
    Truncated { have: usize, need: usize },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NoMatch { bits, width } => {
                let digits = (*width as usize).div_ceil(4);
                write!(f, "no instruction matches 0x{bits:0digits$x}")
            }
            DecodeError::BadOperand { leaf, field } => {
                write!(f, "`{leaf}`: field {field} holds an encoding no operand form uses")
            }
            DecodeError::Unmet { leaf } => {
                write!(f, "`{leaf}`: the word matches its fixed bits but not its `requires` condition")
            }
            DecodeError::BadEnum { leaf, field, value } => {
                write!(f, "`{leaf}`: field {field} holds {value}, which has no name in the spec")
            }
            DecodeError::BadLength { leaf, bits } => {
                write!(f, "`{leaf}`: the encoding gives an impossible length of {bits} bits")
            }
            DecodeError::Truncated { have, need } => {
                write!(f, "truncated instruction: {have} bytes, need {need}")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why a line of assembly did not assemble.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// Byte offset in the line where the longest attempt stopped.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column + 1, self.message)
    }
}

impl std::error::Error for AsmError {}

/// A value that does not fit the field it is meant for, or a field that does not
/// exist. Names the field and its range, so the message says what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldError {
    OutOfRange {
        leaf: &'static str,
        field: &'static str,
        value: i128,
        min: i128,
        max: i128,
    },
    NoSuchField {
        leaf: &'static str,
        field: String,
    },
    NoSuchLeaf {
        name: String,
    },
    NotSettable {
        leaf: &'static str,
        field: &'static str,
    },
    /// The fields set do not form a valid encoding (a case condition or operand form).
    Inconsistent {
        leaf: &'static str,
        reason: String,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::OutOfRange { leaf, field, value, min, max } => {
                write!(f, "`{leaf}`: {value} does not fit field {field} (range {min}..={max})")
            }
            FieldError::NoSuchField { leaf, field } => write!(f, "`{leaf}` has no field {field}"),
            FieldError::NoSuchLeaf { name } => write!(f, "no encoding named `{name}`"),
            FieldError::NotSettable { leaf, field } => {
                write!(f, "`{leaf}`: field {field} is computed from other fields and cannot be set")
            }
            FieldError::Inconsistent { leaf, reason } => write!(f, "`{leaf}`: {reason}"),
        }
    }
}

impl std::error::Error for FieldError {}

/// The signed or unsigned range of a `width`-bit field.
pub(crate) fn field_range(width: u32, signed: bool) -> (i128, i128) {
    let w = width.min(127);
    if signed {
        if w == 0 { (0, 0) } else { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) }
    } else {
        (0, (1i128 << w) - 1)
    }
}
