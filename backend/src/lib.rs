//! The generic backend: from SSA IR to machine code for any target with a
//! machine model in its spec. Nothing here knows a target; every answer comes
//! from the generated tables through [`Target`].
//!
//! The pipeline ([`compile`]):
//!
//! 1. [`text::parse`] the IR, [`resolve::resolve`] it against the target;
//! 2. [`flatten::flatten`] simple if/else into selects;
//! 3. [`group::group`] values that need consecutive registers (copies where they conflict);
//! 4. [`sched::schedule`] the block (depth, list scheduling, delay-slot filling);
//! 5. [`regalloc::allocate`] registers, checked by [`ra_check::validate`];
//! 6. [`code::lower`] to encoded instructions, [`legalize::legalize`] hazards,
//!    checked by [`check::check`];
//! 7. [`emit::emit`] the binary and the listing.

pub mod check;
pub mod code;
pub mod emit;
pub mod error;
pub mod fields;
pub mod flatten;
pub mod group;
pub mod ir;
pub mod legalize;
pub mod ra_check;
pub mod regalloc;
pub mod resolve;
pub mod sched;
pub mod target;
pub mod template;
pub mod text;

pub use error::{CompileError, IrError, Pos};
pub use target::Target;

/// What compiling produced, with the intermediate results tests look at.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The function after flattening and grouping (the block that was scheduled).
    pub function: ir::Function,
    /// Issue order (indices into the block).
    pub order: Vec<u32>,
    pub assignment: regalloc::Assignment,
    /// The final instructions.
    pub code: Vec<code::MInst>,
    pub binary: Vec<u8>,
    pub listing: Vec<emit::Line>,
}

/// Compiles IR text for a target. The hazard checker and the register
/// validator run on every result; a problem they find is a `Check` error.
pub fn compile(t: &Target, text: &str) -> Result<Compiled, CompileError> {
    let mut f = text::parse(text)?;
    resolve::resolve(&mut f, t)?;
    flatten::flatten(&mut f, t)?;
    let groups = group::group(&mut f, t)?;
    let order = sched::schedule(&f, t)?;
    let assignment = regalloc::allocate(&f, t, &order, &groups)?;
    let ra_errors = ra_check::validate(&f, t, &order, &assignment, &groups);
    if !ra_errors.is_empty() {
        return Err(CompileError::Check(ra_errors));
    }
    let code = code::lower(&f, t, &order, &assignment)?;
    let code = legalize::legalize(t, code)?;
    let hazards = check::check(t, &code);
    if !hazards.is_empty() {
        return Err(CompileError::Check(hazards.iter().map(|v| v.to_string()).collect()));
    }
    let (binary, listing) = emit::emit(t, &code);
    Ok(Compiled { function: f, order, assignment, code, binary, listing })
}
