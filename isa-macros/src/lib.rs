//! `isa!("path/to/target.yaml")` expands a target's YAML spec into its tables
//! (`ISA`) and its `Opcode` enum. This crate only translates: loading, checking
//! and generation live in `isa-codegen`, where they are plain, tested Rust.
//!
//! The path is relative to the file that invokes the macro. Every spec file read
//! is named in an `include_bytes!` in the expansion, so Cargo rebuilds the user
//! when any of them changes. A bad spec becomes one compile error per problem,
//! each starting with `file.yaml:LINE:COL:`.

use std::path::{Component, Path, PathBuf};

use proc_macro::TokenStream;
use quote::quote;
use syn::{LitStr, parse_macro_input};

#[proc_macro]
pub fn isa(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    let path = resolve(&lit);
    finish(&lit, isa_codegen::expand(&path).map(|(spec, code)| (spec.files, code)))
}

/// `abi!("path/to/abi.yaml")` expands a target's ABI spec into its `ABI` static
/// and typed accessors (docs/abi-language.md); errors as for `isa!`.
#[proc_macro]
pub fn abi(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    let path = resolve(&lit);
    finish(&lit, isa_codegen::abi::expand(&path))
}

/// The generated code plus an `include_bytes!` of every file read, or one
/// compile error per diagnostic.
fn finish(
    lit: &LitStr,
    out: Result<(Vec<PathBuf>, proc_macro2::TokenStream), Vec<isa_codegen::Diagnostic>>,
) -> TokenStream {
    match out {
        Ok((files, code)) => {
            let tracked = files.iter().map(|f| {
                let abs = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
                let s = abs.to_string_lossy().into_owned();
                quote!(
                    const _: &[u8] = include_bytes!(#s);
                )
            });
            quote!(#code #(#tracked)*).into()
        }
        Err(diags) => diags
            .iter()
            .map(|d| syn::Error::new(lit.span(), d.to_string()).to_compile_error())
            .collect::<proc_macro2::TokenStream>()
            .into(),
    }
}

/// The spec path, relative to the invoking source file (which works under
/// trybuild too, where `CARGO_MANIFEST_DIR` points elsewhere).
fn resolve(lit: &LitStr) -> PathBuf {
    let rel = PathBuf::from(lit.value());
    let base = lit
        .span()
        .unwrap()
        .local_file()
        .and_then(|f| f.parent().map(Path::to_path_buf))
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from))
        .unwrap_or_default();
    normalize(&base.join(rel))
}

/// Removes `.` and `..` components without touching the file system, so that
/// messages name `isa-specs/ir3/cat2.yaml`, not `isa-specs/src/../ir3/cat2.yaml`.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}
