//! Loading, checking and lowering of ISA specs, and the code `isa!` emits.
//!
//! All of the generator's logic lives here as plain Rust so it can be unit
//! tested and shared by the proc macro and `cargo xtask`. See
//! docs/spec-language.md for the language itself.

pub mod abi;
pub mod builder;
pub mod diag;
pub mod direct;
pub mod dispatch;
pub mod emit;
pub mod enum_accepts;
pub mod expr;
pub mod fuzz;
pub mod json_schema;
pub mod lower;
pub mod machine;
pub mod overlap;
pub mod schema;
pub mod sets;
pub mod yaml;

pub use diag::{Diagnostic, Loc};
pub use lower::{Spec, load, load_with};

/// Loads `root` and returns the generated code, or every diagnostic.
pub fn expand(root: &std::path::Path) -> Result<(Spec, proc_macro2::TokenStream), Vec<Diagnostic>> {
    let spec = load(root)?;
    let code = generate(&spec)?;
    Ok((spec, code))
}

/// The code `isa!` emits for a loaded spec, or the builder's diagnostics.
pub fn generate(spec: &Spec) -> Result<proc_macro2::TokenStream, Vec<Diagnostic>> {
    let plan = builder::plan(spec)?;
    let mut code = emit::module(spec);
    if let Some(plan) = plan {
        // Behind a feature of the crate the macro expands in: the builders
        // are many methods, and only drivers need them.
        let b = builder::emit(spec, &plan);
        code.extend(quote::quote!(#[cfg(feature = "builders")] #b));
    }
    Ok(code)
}
