//! `cargo xtask bench-peer` and `cargo xtask bench-build`: the numbers the
//! README keeps, each measured in one run.
//!
//! `bench-peer` runs the `peer` benchmark of the root package (benches/peer.rs)
//! in release mode: it needs the targets and llvm-mc, which `regen` does not,
//! so it lives there and this task only starts it. `bench-build` copies the
//! workspace's files (those git tracks, as they are on disk) to a scratch
//! folder, times a clean `cargo build --workspace` there with a target folder
//! of its own, then edits one spec file and times the rebuild.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::Error;

/// What `bench-peer` runs: instructions in the stream and rounds.
#[derive(Debug, PartialEq, Eq)]
pub struct PeerOptions {
    pub count: u64,
    pub rounds: u64,
    /// Lines streamed through `isa` for its peak memory (0: not measured).
    pub rss_lines: u64,
}

/// Reads `[--count N] [--rounds R] [--rss-lines N]`.
pub fn parse_peer_args(args: &[&str]) -> Result<PeerOptions, Error> {
    let mut o = PeerOptions { count: 1_000_000, rounds: 3, rss_lines: 10_000_000 };
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let v = it.next().ok_or_else(|| Error::Usage(format!("`{a}` needs a number")))?;
        let n: u64 = v.replace('_', "").parse().map_err(|_| Error::Usage(format!("`{a} {v}`: not a number")))?;
        if n == 0 && a != "--rss-lines" {
            return Err(Error::Usage(format!("`{a}` must be at least 1")));
        }
        match a {
            "--rss-lines" => o.rss_lines = n,
            "--count" => o.count = n,
            "--rounds" if n >= 3 => o.rounds = n,
            "--rounds" => return Err(Error::Usage("`--rounds` must be at least 3".into())),
            other => return Err(Error::Usage(format!("bench-peer: unknown argument `{other}`"))),
        }
    }
    Ok(o)
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Runs the peer benchmark; `Ok(false)` when it failed (outputs differ, or no
/// llvm-mc), which it reports itself.
pub fn peer(root: &Path, o: &PeerOptions) -> Result<bool, Error> {
    let status = Command::new(cargo())
        .current_dir(root)
        .args(["bench", "-q", "-p", "isagen", "--bench", "peer", "--"])
        .args(["--require", "--count", &o.count.to_string(), "--rounds", &o.rounds.to_string()])
        .args(["--rss-lines", &o.rss_lines.to_string()])
        .status()
        .map_err(|e| Error::Io(format!("running cargo bench: {e}")))?;
    Ok(status.success())
}

/// The spec file `bench-build` edits: the largest of the GCN target, which
/// every crate downstream of `isa-specs` rebuilds after.
const EDITED: &str = "isa-specs/gcn/vop.yaml";

/// Times a clean build of a copy of the workspace, then a rebuild after
/// editing one spec file; prints both.
pub fn build(root: &Path) -> Result<bool, Error> {
    let scratch = root.join("target").join("bench-build");
    let ws = scratch.join("workspace");
    if ws.exists() {
        std::fs::remove_dir_all(&ws).map_err(|e| Error::Io(format!("{}: {e}", ws.display())))?;
    }
    copy_tracked(root, &ws)?;
    let target = scratch.join("target");
    if target.exists() {
        std::fs::remove_dir_all(&target).map_err(|e| Error::Io(format!("{}: {e}", target.display())))?;
    }
    println!("bench-build: clean `cargo build --workspace` of a copy ...");
    let clean = timed_build(&ws, &target)?;
    let edited = ws.join(EDITED);
    let mut text = std::fs::read_to_string(&edited).map_err(|e| Error::Io(format!("{}: {e}", edited.display())))?;
    text.push_str("# edited by cargo xtask bench-build\n");
    std::fs::write(&edited, text).map_err(|e| Error::Io(format!("{}: {e}", edited.display())))?;
    println!("bench-build: rebuild after editing {EDITED} ...");
    let rebuild = timed_build(&ws, &target)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!();
    println!("| build ({cores} cores) | time |");
    println!("|---|---|");
    println!("| clean `cargo build --workspace` | {:.0} s |", clean.as_secs_f64());
    println!("| rebuild after editing `{EDITED}` | {:.1} s |", rebuild.as_secs_f64());
    Ok(true)
}

fn timed_build(ws: &Path, target: &Path) -> Result<Duration, Error> {
    let start = Instant::now();
    let status = Command::new(cargo())
        .current_dir(ws)
        .args(["build", "-q", "--workspace"])
        .env("CARGO_TARGET_DIR", target)
        .status()
        .map_err(|e| Error::Io(format!("running cargo build: {e}")))?;
    if !status.success() {
        return Err(Error::Io(format!("cargo build in {} failed ({status})", ws.display())));
    }
    Ok(start.elapsed())
}

/// Copies the files git tracks under `root`, as they are on disk, to `to`.
fn copy_tracked(root: &Path, to: &Path) -> Result<(), Error> {
    let out = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "-z"])
        .output()
        .map_err(|e| Error::Io(format!("running git ls-files: {e}")))?;
    if !out.status.success() {
        return Err(Error::Io("git ls-files failed: bench-build copies the files git tracks".into()));
    }
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let rel = PathBuf::from(String::from_utf8_lossy(name).into_owned());
        let (from, dest) = (root.join(&rel), to.join(&rel));
        if !from.is_file() {
            continue; // deleted on disk, not yet in git
        }
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
        }
        std::fs::copy(&from, &dest).map_err(|e| Error::Io(format!("{}: {e}", from.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_arguments() {
        let default = PeerOptions { count: 1_000_000, rounds: 3, rss_lines: 10_000_000 };
        assert_eq!(parse_peer_args(&[]).unwrap(), default);
        assert_eq!(
            parse_peer_args(&["--rounds", "5", "--count", "1_000", "--rss-lines", "0"]).unwrap(),
            PeerOptions { count: 1000, rounds: 5, rss_lines: 0 }
        );
        for bad in [&["--count"][..], &["--count", "x"], &["--count", "0"], &["--rounds", "2"], &["--fast", "1"]] {
            assert!(matches!(parse_peer_args(bad), Err(Error::Usage(_))), "{bad:?}");
        }
    }
}
