//! `cargo xtask fuzz --minutes N [--target NAME]`: runs the cargo-fuzz
//! targets of `fuzz/` one after another, each for N minutes, and reports per
//! target how many inputs it ran and whether it crashed.
//!
//! The checks themselves are library code (`isagen::fuzz`,
//! `isa_codegen::fuzz`) that `tests/fuzz_smoke.rs` also runs a few hundred
//! times; that test's ignored `write_corpus` writes the same seeds (the
//! conformance vectors, printed samples, the specs, the IR examples) as each
//! target's starting corpus under `fuzz/corpus/<target>/`, which is not
//! committed. The fuzzers build without a sanitizer: the code is safe Rust
//! but for the direct decoder's unchecked reads, which follow only tables
//! that passed their check (`DirectTables::valid`, which the `spec` target
//! asserts of every spec's tables), and the checks assert what a sanitizer
//! would not see. `cargo +nightly fuzz run --sanitizer address decode` runs
//! the decoder under AddressSanitizer.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Error;

/// The fuzz targets, in the order they run.
pub const TARGETS: &[&str] = &["decode", "assemble", "spec", "abi", "ir"];

/// Seconds one input may take before libFuzzer calls it a hang.
const TIMEOUT_SECS: u32 = 10;

/// What to run: minutes per target, and one target or all.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    pub minutes: u64,
    pub target: Option<String>,
}

/// Reads `--minutes N [--target NAME]` (in either order).
pub fn parse_args(args: &[&str]) -> Result<Options, Error> {
    let (mut minutes, mut target) = (None, None);
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let v = it.next().ok_or_else(|| Error::Usage(format!("fuzz: `{a}` needs a value")));
        match a {
            "--minutes" => {
                let v = v?;
                let n = v.parse().map_err(|_| Error::Usage(format!("fuzz: `--minutes {v}`: not a number")))?;
                minutes = Some(n);
            }
            "--target" => {
                let v = v?;
                if !TARGETS.contains(v) {
                    return Err(Error::Usage(format!("fuzz: no target `{v}` (targets: {})", TARGETS.join(", "))));
                }
                target = Some(v.to_string());
            }
            other => return Err(Error::Usage(format!("fuzz: unknown argument `{other}`"))),
        }
    }
    let minutes = minutes.ok_or_else(|| Error::Usage("fuzz needs `--minutes N`".into()))?;
    if minutes == 0 {
        return Err(Error::Usage("fuzz: `--minutes` must be at least 1".into()));
    }
    Ok(Options { minutes, target })
}

/// How one target's run ended.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Inputs run, from libFuzzer's last report.
    pub runs: Option<u64>,
    /// The input that crashed (or hung, or ran out of memory), if one did.
    pub artifact: Option<String>,
}

/// Reads a libFuzzer log: the last `#N` status line or `Done N runs`, and a
/// `Test unit written to PATH` line.
pub fn outcome(log: &str) -> Outcome {
    let mut o = Outcome::default();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix('#')
            && let Some(n) = rest.split_whitespace().next().and_then(|n| n.parse().ok())
        {
            o.runs = Some(n);
        }
        if let Some(rest) = line.strip_prefix("Done ")
            && let Some(n) = rest.split_whitespace().next().and_then(|n| n.parse().ok())
        {
            o.runs = Some(n);
        }
        if let Some((_, path)) = line.split_once("Test unit written to ") {
            o.artifact = Some(path.trim().to_string());
        }
    }
    o
}

/// Runs the targets; `Ok(false)` when one crashed.
pub fn run(root: &Path, opts: &Options) -> Result<bool, Error> {
    let fuzz_ok = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !fuzz_ok {
        return Err(Error::Io(
            "`cargo +nightly fuzz` is not available; install a nightly toolchain and cargo-fuzz: \
             `rustup toolchain install nightly && cargo install cargo-fuzz`"
                .into(),
        ));
    }
    let corpus = root.join("fuzz").join("corpus");
    seed(root, &corpus)?;
    let targets: Vec<&str> = match &opts.target {
        Some(t) => vec![t.as_str()],
        None => TARGETS.to_vec(),
    };
    let mut results = Vec::new();
    for t in targets {
        println!("fuzz: running `{t}` for {} min", opts.minutes);
        results.push((t, run_one(root, t, opts.minutes)?));
    }
    println!("\nfuzz: {} min per target", opts.minutes);
    let mut ok = true;
    for (t, o) in &results {
        let runs = o.runs.map_or("?".to_string(), |n| n.to_string());
        match &o.artifact {
            None => println!("    {t:<10} {runs:>12} runs, no crash"),
            Some(a) => {
                ok = false;
                println!("    {t:<10} {runs:>12} runs, CRASHED: {a}");
            }
        }
    }
    Ok(ok)
}

/// Writes the seeds of `tests/fuzz_smoke.rs` under `corpus/<target>/`.
fn seed(root: &Path, corpus: &Path) -> Result<(), Error> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["test", "--quiet", "-p", "isagen", "--test", "fuzz_smoke", "--"])
        .args(["--ignored", "--exact", "write_corpus", "--nocapture"])
        .env("ISAGEN_FUZZ_CORPUS", corpus)
        .status()
        .map_err(|e| Error::Io(format!("running cargo test: {e}")))?;
    if !status.success() {
        return Err(Error::Io("writing the seed corpus failed".into()));
    }
    Ok(())
}

/// Runs one target for `minutes`, passing its output through, and reads
/// how it ended.
fn run_one(root: &Path, target: &str, minutes: u64) -> Result<Outcome, Error> {
    let mut child = Command::new("cargo")
        .current_dir(root)
        .args(["+nightly", "fuzz", "run", "--sanitizer", "none", target, "--"])
        .arg(format!("-max_total_time={}", minutes * 60))
        .arg(format!("-timeout={TIMEOUT_SECS}"))
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Io(format!("running cargo fuzz: {e}")))?;
    let mut log = String::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            eprintln!("{line}");
            log.push_str(&line);
            log.push('\n');
        }
    }
    let status = child.wait().map_err(|e| Error::Io(format!("waiting for cargo fuzz: {e}")))?;
    let mut o = outcome(&log);
    if !status.success() && o.artifact.is_none() {
        // A failed build, or a crash libFuzzer wrote no input for.
        o.artifact = Some(format!("none written; cargo fuzz exited with {status}"));
    }
    o.artifact = o.artifact.map(|a| relative_to(root, &a));
    Ok(o)
}

/// `path` (as libFuzzer printed it, relative to `fuzz/`) from the root.
fn relative_to(root: &Path, path: &str) -> String {
    let p = PathBuf::from(path);
    if p.is_absolute() {
        return crate::workspace::relative(root, &p).display().to_string();
    }
    match p.strip_prefix("./") {
        Ok(rest) => Path::new("fuzz").join(rest).display().to_string(),
        Err(_) => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        assert_eq!(parse_args(&["--minutes", "10"]).unwrap(), Options { minutes: 10, target: None });
        assert_eq!(
            parse_args(&["--target", "spec", "--minutes", "1"]).unwrap(),
            Options { minutes: 1, target: Some("spec".into()) }
        );
        let bad: [&[&str]; 6] = [
            &[],
            &["--minutes"],
            &["--minutes", "x"],
            &["--minutes", "0"],
            &["--minutes", "1", "--target", "gcn"],
            &["--minutes", "1", "--fast"],
        ];
        for bad in bad {
            assert!(matches!(parse_args(bad), Err(Error::Usage(_))), "{bad:?}");
        }
    }

    #[test]
    fn reads_libfuzzer_logs() {
        let clean = "INFO: Seed: 1\n#2\tINITED cov: 10 ft: 10 corp: 5/100b exec/s: 0 rss: 40Mb\n\
                     #524288\tpulse  cov: 99 ft: 200 corp: 60/2Kb exec/s: 4000 rss: 80Mb\n\
                     #600123\tDONE   cov: 99 ft: 200 corp: 60/2Kb exec/s: 1000 rss: 80Mb\n\
                     Done 600123 runs in 600 second(s)\n";
        assert_eq!(outcome(clean), Outcome { runs: Some(600_123), artifact: None });
        let crash = "#1000\tNEW    cov: 99\nthread '<unnamed>' panicked at src/fuzz.rs:1:1:\n\
                     ==7== ERROR: libFuzzer: deadly signal\n\
                     artifact_prefix='/r/fuzz/artifacts/decode/'; Test unit written to /r/fuzz/artifacts/decode/crash-ab\n";
        assert_eq!(
            outcome(crash),
            Outcome { runs: Some(1000), artifact: Some("/r/fuzz/artifacts/decode/crash-ab".into()) }
        );
        assert_eq!(relative_to(Path::new("/r"), "/r/fuzz/artifacts/decode/crash-ab"), "fuzz/artifacts/decode/crash-ab");
    }
}
