//! Why an ABI question has no answer. Every error names what it is about, so a
//! message says what to change.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AbiError {
    /// No stage, variant, argument, parameter, ... of that name.
    NoSuch { what: &'static str, name: String, known: Vec<&'static str> },
    /// A parameter value outside its declared range.
    ParamOutOfRange { param: &'static str, value: i64, min: i64, max: i64 },
    /// A parameter this variant fixes was given another value.
    ParamFixed { param: &'static str, value: i64, fixed: i64 },
    /// The variant does not exist for these parameter values.
    VariantNotApplicable { variant: &'static str },
    /// The argument or its block is absent for these parameter values.
    Absent { arg: &'static str },
    /// Element `index` of an array argument of `count` elements.
    IndexOutOfRange { arg: &'static str, index: i64, count: i64 },
    /// An array argument with more elements than its register file has
    /// units (each element takes at least one).
    TooManyElements { arg: &'static str, count: i64, file: &'static str, units: u32, block: u16, arg_index: u16 },
    /// An argument whose user-data register address, `base + offset *
    /// stride`, does not fit 32 bits.
    UserDataTooFar { arg: &'static str, base: u32, offset: u32, stride: u32, block: u16, arg_index: u16 },
    /// Two arguments share a unit.
    Overlap { file: &'static str, unit: u32, first: &'static str, second: &'static str, block: u16, arg: u16 },
    /// An argument placed off its alignment.
    Misaligned { arg: &'static str, unit: u32, align: u32, block: u16, arg_index: u16 },
    /// An argument past its block's limit or its file's end.
    OverLimit { arg: &'static str, end: i64, limit: u32, what: &'static str, block: u16, arg_index: u16 },
    /// A stated invariant does not hold.
    InvariantFailed { block: &'static str, check: &'static str, params: String, block_index: u16, invariant: u16 },
    /// Element `index` of a slot entry falls on slot `slot`, below 0 or
    /// ending past the 2^32 dwords a table's offsets count.
    SlotOutOfRange { entry: &'static str, index: i64, slot: i64, dwords: u32 },
    /// A value too wide for its field of a packed word.
    FieldOutOfRange { word: &'static str, field: &'static str, value: u64, max: u64 },
    /// A word with bits above its width.
    WordTooWide { word: &'static str, value: u64, bits: u32 },
}

impl fmt::Display for AbiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbiError::NoSuch { what, name, known } => {
                if name.is_empty() {
                    write!(f, "choose a {what}: one of {}", known.join(", "))
                } else {
                    write!(f, "no {what} `{name}` (known: {})", known.join(", "))
                }
            }
            AbiError::ParamOutOfRange { param, value, min, max } => {
                write!(f, "parameter {param} = {value} is outside {min}..={max}")
            }
            AbiError::ParamFixed { param, value, fixed } => {
                write!(f, "parameter {param} is fixed to {fixed} in this variant, not {value}")
            }
            AbiError::VariantNotApplicable { variant } => {
                write!(f, "variant `{variant}` does not exist for these parameters (see its `when`)")
            }
            AbiError::Absent { arg } => write!(f, "`{arg}` is absent for these parameters (see its `when`)"),
            AbiError::IndexOutOfRange { arg, index, count } => {
                write!(f, "`{arg}` has {count} elements; there is no element {index}")
            }
            AbiError::TooManyElements { arg, count, file, units, .. } => {
                write!(f, "`{arg}` has {count} elements, more than the {units} units of register file `{file}`")
            }
            AbiError::UserDataTooFar { arg, base, offset, stride, .. } => {
                write!(f, "`{arg}`'s user data register {base:#x} + {offset} * {stride} does not fit 32 bits")
            }
            AbiError::Overlap { file, unit, first, second, .. } => {
                write!(f, "`{first}` and `{second}` overlap at unit {unit} of register file {file}")
            }
            AbiError::Misaligned { arg, unit, align, .. } => {
                write!(f, "`{arg}` starts at unit {unit}, which is not a multiple of its alignment {align}")
            }
            AbiError::OverLimit { arg, end, limit, what, .. } => {
                write!(f, "`{arg}` ends at unit {end}, past the {what} of {limit} units")
            }
            AbiError::InvariantFailed { block, check, params, .. } => {
                write!(f, "invariant `{check}` of block `{block}` does not hold for {params}")
            }
            AbiError::SlotOutOfRange { entry, index, slot, dwords } => {
                if *slot < 0 {
                    write!(f, "element {index} of `{entry}` is slot {slot}, below 0")
                } else {
                    write!(
                        f,
                        "element {index} of `{entry}` is slot {slot}, whose {dwords} dwords end past dword {}",
                        u32::MAX
                    )
                }
            }
            AbiError::FieldOutOfRange { word, field, value, max } => {
                write!(f, "{word}: {value} does not fit field {field} (range 0..={max})")
            }
            AbiError::WordTooWide { word, value, bits } => {
                write!(f, "{word}: {value:#x} has bits set above its {bits} bits")
            }
        }
    }
}

impl std::error::Error for AbiError {}
