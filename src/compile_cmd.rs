//! `isa compile`: compiles a file of backend IR for a target and prints the
//! listing, or writes the binary.

use std::path::PathBuf;

use backend::{CompileError, Target, compile, emit};

pub const USAGE: &str = "isa compile --target T [--gen G] [--emit listing|bin] [-o FILE] FILE.ir";

/// What `isa compile` produces.
pub enum Output {
    /// The listing, to print.
    Listing(String),
    /// The binary and where to write it (standard output when `None`).
    Binary(Vec<u8>, Option<PathBuf>),
}

/// Runs `isa compile` with the arguments after `compile`. `Err` carries the
/// message and the exit status (1: the program does not compile, 2: usage).
pub fn run(args: &[String]) -> Result<Output, (String, u8)> {
    let usage = |m: String| (format!("{m}\nusage: {USAGE}"), 2u8);
    let (mut target, mut gen_name, mut emit_kind, mut out, mut file) = (None, None, "listing".to_string(), None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| usage(format!("{flag} needs a value")));
        match a.as_str() {
            "--target" => target = Some(value(a)?),
            "--gen" => gen_name = Some(value(a)?),
            "--emit" => emit_kind = value(a)?,
            "-o" | "--output" => out = Some(PathBuf::from(value(a)?)),
            f if f.starts_with('-') => return Err(usage(format!("unknown option `{f}`"))),
            f => {
                if file.replace(PathBuf::from(f)).is_some() {
                    return Err(usage("give one IR file".into()));
                }
            }
        }
    }
    let name = target.ok_or_else(|| usage("--target is required".into()))?;
    let isa = crate::target(&name).ok_or_else(|| {
        let names: Vec<_> = crate::TARGETS.iter().map(|t| t.name).collect();
        usage(format!("unknown target `{name}` (targets: {})", names.join(", ")))
    })?;
    let gen_ = match gen_name {
        None => isa.default_gen,
        Some(g) => isa.gen_by_name(&g).ok_or_else(|| usage(format!("target {name} has no generation `{g}`")))?,
    };
    let file = file.ok_or_else(|| usage("no IR file given".into()))?;
    let text = std::fs::read_to_string(&file).map_err(|e| (format!("{}: {e}", file.display()), 1))?;
    let t = Target::new(isa, gen_, abi_specs::target(&name)).map_err(|e| (e.to_string(), 1))?;
    let c = compile(&t, &text).map_err(|e| {
        let msg = match &e {
            // Errors with a place in the file get the file's name in front.
            CompileError::Ir(_) | CompileError::OutOfRegisters { .. } | CompileError::Scarce { .. } => {
                format!("{}:{e}", file.display())
            }
            _ => format!("{}: {e}", file.display()),
        };
        (msg, 1)
    })?;
    match emit_kind.as_str() {
        "listing" => Ok(Output::Listing(emit::listing_text(&c.listing))),
        "bin" => Ok(Output::Binary(c.binary, out)),
        other => Err(usage(format!("unknown --emit `{other}` (listing or bin)"))),
    }
}
