//! `cargo xtask fuzz-gcn --count N [--seed S]`: the long mode of the GCN
//! differential tests against llvm-mc.
//!
//! The four modes live once, in `tests/gcn_llvm_mc.rs`, whose ignored
//! `long_mode` test runs them with a count per encoding family. This task runs
//! that test in release mode with the count and seed, so that the quick mode of
//! `cargo test` and the long mode share every line of the comparison (and
//! `cargo xtask regen` does not have to build the targets).

use std::path::Path;
use std::process::Command;

use crate::Error;

/// What to run: samples per encoding family and mode, and the random seed.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    pub count: u64,
    pub seed: u64,
}

/// Reads `--count N [--seed S]` (in either order).
pub fn parse_args(args: &[&str]) -> Result<Options, Error> {
    let mut count = None;
    let mut seed = 1;
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let value = |v: Option<&&str>| -> Result<u64, Error> {
            let v = v.ok_or_else(|| Error::Usage(format!("`{a}` needs a number")))?;
            v.replace('_', "").parse().map_err(|_| Error::Usage(format!("`{a} {v}`: not a number")))
        };
        match a {
            "--count" => count = Some(value(it.next())?),
            "--seed" => seed = value(it.next())?,
            other => return Err(Error::Usage(format!("fuzz-gcn: unknown argument `{other}`"))),
        }
    }
    let count = count.ok_or_else(|| Error::Usage("fuzz-gcn needs `--count N`".into()))?;
    if count == 0 {
        return Err(Error::Usage("fuzz-gcn: `--count` must be at least 1".into()));
    }
    Ok(Options { count, seed })
}

/// Runs the long mode; `Ok(false)` when llvm-mc and we disagreed somewhere (the
/// test prints per-family counts and every disagreement).
pub fn run(root: &Path, opts: &Options) -> Result<bool, Error> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["test", "--release", "--quiet", "-p", "isagen", "--test", "gcn_llvm_mc", "--"])
        .args(["--ignored", "--exact", "long_mode", "--nocapture"])
        .env("ISAGEN_GCN_FUZZ_COUNT", opts.count.to_string())
        .env("ISAGEN_GCN_FUZZ_SEED", opts.seed.to_string())
        .status()
        .map_err(|e| Error::Io(format!("running cargo test: {e}")))?;
    Ok(status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        assert_eq!(parse_args(&["--count", "100_000"]).unwrap(), Options { count: 100_000, seed: 1 });
        assert_eq!(parse_args(&["--seed", "7", "--count", "5"]).unwrap(), Options { count: 5, seed: 7 });
        for bad in [&[][..], &["--count"], &["--count", "x"], &["--count", "0"], &["--count", "3", "--fast"]] {
            assert!(matches!(parse_args(bad), Err(Error::Usage(_))), "{bad:?}");
        }
    }
}
