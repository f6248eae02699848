//! `cargo xtask bench-peer` and `cargo xtask bench-build`: the numbers the
//! README keeps, each measured in one run.
//!
//! `bench-peer` runs the `peer` benchmark of the root package (benches/peer.rs)
//! in release mode: it needs the targets and llvm-mc, which `regen` does not,
//! so it lives there and this task only starts it. `bench-build` copies the
//! workspace's files (those git tracks, as they are on disk) to a scratch
//! folder, times a clean `cargo build --workspace` there with a target folder
//! of its own, then edits one spec file and times the rebuild. With
//! `--builders` it times instead what the typed builders add to a clean test
//! build: the same copy with and without the crate that enables them. Each
//! prints the machine it ran on and its load average before and after.

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
/// llvm-mc), which it reports itself. The machine and its load before and
/// after are printed with the figures, which the README keeps together.
pub fn peer(root: &Path, o: &PeerOptions) -> Result<bool, Error> {
    let before = load_now();
    let status = Command::new(cargo())
        .current_dir(root)
        .args(["bench", "-q", "-p", "isagen", "--bench", "peer", "--"])
        .args(["--require", "--count", &o.count.to_string(), "--rounds", &o.rounds.to_string()])
        .args(["--rss-lines", &o.rss_lines.to_string()])
        .status()
        .map_err(|e| Error::Io(format!("running cargo bench: {e}")))?;
    println!();
    println!("{}", machine(before, load_now()));
    Ok(status.success())
}

/// The cores the machine gives this process.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-minute load average now, where the system tells it (Linux).
fn load_now() -> Option<f64> {
    load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first figure of `/proc/loadavg`: the 1-minute load average.
fn load_average(loadavg: &str) -> Option<f64> {
    loadavg.split_whitespace().next()?.parse().ok()
}

/// The processor's name in `/proc/cpuinfo` (x86's `model name`; ARM's
/// kernels name a `Hardware` or a `Model` instead).
fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "Model"].iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    })
}

/// The line a bench run is kept with: the processor, its cores, and the
/// load average before and after the run. `isa` uses every core and
/// llvm-mc one, so a machine busy with something else takes more from
/// `isa`'s figure than from llvm-mc's.
fn machine(before: Option<f64>, after: Option<f64>) -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|t| cpu_model(&t));
    describe(model.as_deref(), cores(), (before, after))
}

fn describe(model: Option<&str>, cores: usize, (before, after): (Option<f64>, Option<f64>)) -> String {
    let load = |l: Option<f64>| l.map_or_else(|| "unknown".to_string(), |l| format!("{l:.2}"));
    format!(
        "Machine: {}, {cores} core{}; load average {} before the run, {} after it.",
        model.unwrap_or("processor unknown"),
        if cores == 1 { "" } else { "s" },
        load(before),
        load(after)
    )
}

/// The spec file `bench-build` edits: the largest of the GCN target, which
/// every crate downstream of `isa-specs` rebuilds after.
const EDITED: &str = "isa-specs/gcn/vop.yaml";

/// Times a clean build of a copy of the workspace, then a rebuild after
/// editing one spec file; prints both.
pub fn build(root: &Path) -> Result<bool, Error> {
    let scratch = root.join("target").join("bench-build");
    let (ws, target) = (scratch.join("workspace"), scratch.join("target"));
    let before = load_now();
    fresh_copy(root, &ws, &target, None)?;
    println!("bench-build: clean `cargo build --workspace` of a copy ...");
    let clean = timed_build(&ws, &target)?;
    let edited = ws.join(EDITED);
    let mut text = std::fs::read_to_string(&edited).map_err(|e| Error::Io(format!("{}: {e}", edited.display())))?;
    text.push_str("# edited by cargo xtask bench-build\n");
    std::fs::write(&edited, text).map_err(|e| Error::Io(format!("{}: {e}", edited.display())))?;
    println!("bench-build: rebuild after editing {EDITED} ...");
    let rebuild = timed_build(&ws, &target)?;
    let cores = cores();
    println!();
    println!("| build ({cores} cores) | time |");
    println!("|---|---|");
    println!("| clean `cargo build --workspace` | {:.0} s |", clean.as_secs_f64());
    println!("| rebuild after editing `{EDITED}` | {:.1} s |", rebuild.as_secs_f64());
    println!();
    println!("{}", machine(before, load_now()));
    Ok(true)
}

fn timed_build(ws: &Path, target: &Path) -> Result<Duration, Error> {
    timed_cargo(ws, target, &["build", "-q", "--workspace"])
}

fn timed_cargo(ws: &Path, target: &Path, args: &[&str]) -> Result<Duration, Error> {
    let start = Instant::now();
    // The output is shown only when the command fails: the test binaries
    // print their (filtered-out) summaries however quiet cargo is.
    let out = Command::new(cargo())
        .current_dir(ws)
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .map_err(|e| Error::Io(format!("running cargo {}: {e}", args.join(" "))))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        print!("{}", String::from_utf8_lossy(&out.stdout));
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        return Err(Error::Io(format!("`cargo {}` in {} failed ({})", args.join(" "), ws.display(), out.status)));
    }
    Ok(elapsed)
}

/// The workspace member that enables the `builders` feature of `isa-specs`
/// (and is the only one that does): without it the workspace builds no
/// builders, no example driver and no builder proofs.
const BUILDERS_MEMBER: &str = "examples/driver";

/// The UI tests (trybuild), each as its test target and test function, in
/// the order `cargo test --workspace` runs them. They are run one by one by
/// name after the `--no-run` build, so that they compile nothing more in the
/// workspace's target folder (naming test targets instead would select other
/// units and rebuild) and each is timed alone: `bad_abi` holds nothing of
/// the builders, and being first it builds the proc macros in trybuild's
/// target folder for both; `bad_specs` also holds the builder proofs.
const UI_TESTS: [(&str, &str); 2] =
    [("bad_abi", "bad_abi_specs_are_compile_errors"), ("bad_specs", "bad_specs_are_compile_errors")];

/// A clean test build, in steps: everything `cargo test` compiles, then each
/// UI test, which compiles its cases (and the crates they use) in a target
/// folder of its own while it runs.
#[derive(Debug)]
struct TestBuild {
    no_run: Duration,
    ui: Vec<Duration>,
}

/// Reads `[--rounds N]` of `bench-build --builders`: how many clean test
/// builds of each copy (default 1).
pub fn parse_builders_args(args: &[&str]) -> Result<u32, Error> {
    match args {
        [] => Ok(1),
        ["--rounds", n] => match n.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::Usage(format!("`--rounds {n}`: a number of at least 1"))),
        },
        other => Err(Error::Usage(format!("bench-build --builders: unknown arguments `{}`", other.join(" ")))),
    }
}

/// Times a clean test build of a copy of the workspace with the builders and
/// of a copy without them, `rounds` times each, alternating which goes first
/// so that a slow spell of the machine does not fall on one side only; prints
/// every round and the medians with their difference.
pub fn builders(root: &Path, rounds: u32) -> Result<bool, Error> {
    let scratch = root.join("target").join("bench-build");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))
        .map_err(|e| Error::Io(format!("{}: {e}", root.join("Cargo.toml").display())))?;
    let without = without_member(&manifest, BUILDERS_MEMBER)?;
    let before = load_now();
    let (mut with_times, mut without_times) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let order = if round % 2 == 0 { [true, false] } else { [false, true] };
        for with in order {
            let name = if with { "with" } else { "without" };
            let t = clean_test_build(root, &scratch, name, (!with).then_some(without.as_str()))?;
            println!(
                "bench-build: round {}, {name} the builders: {:.0} s + UI tests {:.0} s",
                round + 1,
                t.no_run.as_secs_f64(),
                t.ui.iter().sum::<Duration>().as_secs_f64()
            );
            if with { with_times.push(t) } else { without_times.push(t) }
        }
    }
    let cores = cores();
    println!();
    if rounds > 1 {
        println!("medians of {rounds} rounds:");
    }
    print!("{}", builders_table(cores, &median(&with_times), &median(&without_times)));
    println!();
    println!("{}", machine(before, load_now()));
    Ok(true)
}

/// One clean test build of a fresh copy of the workspace, with `manifest` as
/// its Cargo.toml when given.
fn clean_test_build(root: &Path, scratch: &Path, name: &str, manifest: Option<&str>) -> Result<TestBuild, Error> {
    let ws = scratch.join(format!("workspace-{name}"));
    let target = scratch.join(format!("target-{name}"));
    fresh_copy(root, &ws, &target, manifest)?;
    println!("bench-build: clean `cargo test --workspace --no-run`, {name} the builders ...");
    let no_run = timed_cargo(&ws, &target, &["test", "-q", "--workspace", "--no-run"])?;
    println!("bench-build: the UI tests, {name} the builders ...");
    let mut ui = Vec::new();
    for (_, test) in UI_TESTS {
        ui.push(timed_cargo(&ws, &target, &["test", "-q", "--workspace", "--", test, "--exact"])?);
    }
    Ok(TestBuild { no_run, ui })
}

/// The median of each step over the rounds (the lower middle of an even count).
fn median(rounds: &[TestBuild]) -> TestBuild {
    let mid = |mut v: Vec<Duration>| {
        v.sort();
        v[(v.len() - 1) / 2]
    };
    TestBuild {
        no_run: mid(rounds.iter().map(|r| r.no_run).collect()),
        ui: (0..UI_TESTS.len()).map(|i| mid(rounds.iter().map(|r| r.ui[i]).collect())).collect(),
    }
}

/// `manifest` with `member` taken out of the workspace's members.
fn without_member(manifest: &str, member: &str) -> Result<String, Error> {
    let line = format!("\"{member}\",");
    let mut found = 0;
    let kept: Vec<&str> = manifest
        .lines()
        .filter(|l| {
            let hit = l.trim() == line;
            found += usize::from(hit);
            !hit
        })
        .collect();
    if found != 1 {
        return Err(Error::Io(format!(
            "Cargo.toml: expected one line `{line}` in the workspace's members, found {found}"
        )));
    }
    Ok(kept.join("\n") + "\n")
}

fn builders_table(cores: usize, with: &TestBuild, without: &TestBuild) -> String {
    let row = |what: &str, w: Duration, wo: Duration| {
        let (w, wo) = (w.as_secs_f64(), wo.as_secs_f64());
        format!("| {what} | {w:.0} s | {wo:.0} s | {:+.0} s |\n", w - wo)
    };
    let mut t = format!("| clean test build ({cores} cores) | with builders | without | difference |\n");
    t += "|---|---|---|---|\n";
    t += &row("`cargo test --workspace --no-run`", with.no_run, without.no_run);
    for (i, (target, _)) in UI_TESTS.iter().enumerate() {
        t += &row(&format!("then the UI test `{target}`"), with.ui[i], without.ui[i]);
    }
    let total = |b: &TestBuild| b.no_run + b.ui.iter().sum::<Duration>();
    t += &row("total", total(with), total(without));
    t
}

/// Empties `ws` and `target` and copies the workspace into `ws`, with
/// `manifest` as its Cargo.toml when given.
fn fresh_copy(root: &Path, ws: &Path, target: &Path, manifest: Option<&str>) -> Result<(), Error> {
    for dir in [ws, target] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
        }
    }
    copy_tracked(root, ws)?;
    if let Some(m) = manifest {
        let path = ws.join("Cargo.toml");
        std::fs::write(&path, m).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    }
    Ok(())
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
    fn the_builders_member_is_taken_out() {
        let manifest = "[workspace]\nmembers = [\n    \"backend\",\n    \"examples/driver\",\n]\n";
        assert_eq!(
            without_member(manifest, "examples/driver").unwrap(),
            "[workspace]\nmembers = [\n    \"backend\",\n]\n"
        );
        assert!(without_member(manifest, "examples/other").is_err());
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let ours = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(without_member(&ours, BUILDERS_MEMBER).is_ok(), "the workspace lists {BUILDERS_MEMBER} once");
        let driver = std::fs::read_to_string(root.join(BUILDERS_MEMBER).join("Cargo.toml")).unwrap();
        for ((target, test), dir) in UI_TESTS.iter().zip(["abi-specs", "isa-specs"]) {
            let text = std::fs::read_to_string(root.join(dir).join("tests").join(format!("{target}.rs"))).unwrap();
            assert!(text.contains(&format!("fn {test}() {{")), "{dir}/tests/{target}.rs holds `{test}`");
        }
        assert!(driver.contains("features = [\"builders\"]"), "{BUILDERS_MEMBER} enables the builders");
    }

    #[test]
    fn rounds_are_read_and_their_median_taken() {
        assert_eq!(parse_builders_args(&[]).unwrap(), 1);
        assert_eq!(parse_builders_args(&["--rounds", "3"]).unwrap(), 3);
        for bad in [&["--rounds"][..], &["--rounds", "0"], &["--rounds", "x"], &["--fast"]] {
            assert!(matches!(parse_builders_args(bad), Err(Error::Usage(_))), "{bad:?}");
        }
        let s = Duration::from_secs;
        let rounds = [
            TestBuild { no_run: s(310), ui: vec![s(160), s(30)] },
            TestBuild { no_run: s(300), ui: vec![s(170), s(28)] },
            TestBuild { no_run: s(330), ui: vec![s(150), s(33)] },
        ];
        let m = median(&rounds);
        assert_eq!((m.no_run, m.ui.clone()), (s(310), vec![s(160), s(30)]));
        assert_eq!(median(&rounds[..2]).no_run, s(300));
    }

    #[test]
    fn the_builders_table_shows_the_difference() {
        let s = Duration::from_secs;
        let with = TestBuild { no_run: s(300), ui: vec![s(150), s(30)] };
        let without = TestBuild { no_run: s(290), ui: vec![s(151), s(20)] };
        let t = builders_table(2, &with, &without);
        assert!(t.contains("| `cargo test --workspace --no-run` | 300 s | 290 s | +10 s |"), "{t}");
        assert!(t.contains("| then the UI test `bad_abi` | 150 s | 151 s | -1 s |"), "{t}");
        assert!(t.contains("| then the UI test `bad_specs` | 30 s | 20 s | +10 s |"), "{t}");
        assert!(t.contains("| total | 480 s | 461 s | +19 s |"), "{t}");
    }

    #[test]
    fn the_machine_is_named_with_its_load() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.428\n\
                   processor\t: 1\nmodel name\t: AMD EPYC\n";
        assert_eq!(cpu_model(x86).as_deref(), Some("AMD EPYC"));
        let arm =
            "processor\t: 0\nBogoMIPS\t: 108.00\nCPU part\t: 0xd0c\n\nHardware\t: BCM2835\nModel\t: Raspberry Pi 4\n";
        assert_eq!(cpu_model(arm).as_deref(), Some("BCM2835"));
        assert_eq!(cpu_model("processor\t: 0\nmodel name\t:\n"), None);
        assert_eq!(cpu_model(""), None);
        assert_eq!(load_average("0.09 0.65 0.96 1/90 16980\n"), Some(0.09));
        assert_eq!(load_average(""), None);
        assert_eq!(load_average("busy"), None);
        assert_eq!(
            describe(Some("AMD EPYC"), 2, (Some(0.09), Some(1.434))),
            "Machine: AMD EPYC, 2 cores; load average 0.09 before the run, 1.43 after it."
        );
        assert_eq!(
            describe(None, 1, (None, Some(0.5))),
            "Machine: processor unknown, 1 core; load average unknown before the run, 0.50 after it."
        );
    }

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
