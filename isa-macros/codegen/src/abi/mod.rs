//! ABI specs: shader register, user-data and uniform layouts written in YAML
//! (docs/abi-language.md), loaded, checked for every parameter value, and
//! turned into the code `abi!` emits.

pub mod check;
pub mod emit;
pub mod lower;
pub mod schema;

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diags};

pub use lower::{Lowered, load, load_with};

/// Loads and checks the ABI whose root spec is `root`; returns the files read
/// and the generated code, or every diagnostic.
pub fn expand(root: &Path) -> Result<(Vec<PathBuf>, proc_macro2::TokenStream), Vec<Diagnostic>> {
    let (l, consts) = load_checked(root)?;
    Ok((l.files.clone(), emit::module(l.abi, &consts)))
}

/// Loads the ABI and runs every check `abi!` runs; the lowered ABI with the
/// checks' constants, or every diagnostic. Tools that read an ABI without
/// compiling it (`cargo xtask regen`) go through here too.
pub fn load_checked(root: &Path) -> Result<(Lowered, check::ConstPlaces), Vec<Diagnostic>> {
    load_checked_with(root, &mut crate::yaml::read_file)
}

/// [`load_checked`], reading every file through `read`.
pub fn load_checked_with(
    root: &Path,
    read: &mut crate::yaml::Reader,
) -> Result<(Lowered, check::ConstPlaces), Vec<Diagnostic>> {
    let l = lower::load_with(root, read)?;
    let mut d = Diags::default();
    let consts = check::check(&l, &mut d);
    if !d.is_empty() {
        return Err(d.list);
    }
    Ok((l, consts))
}
