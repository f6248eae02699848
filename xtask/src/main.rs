//! `cargo xtask`: see the crate documentation of `xtask` and `cargo xtask help`.

use std::path::PathBuf;
use std::process::ExitCode;

use xtask::{Error, bench, fuzz, fuzz_gcn, new_target, regen};

const HELP: &str = "\
cargo xtask: developer tasks

USAGE:
    cargo xtask regen            regenerate the wiring, docs/isa, docs/abi, schemas/
                                 and the schema line of each spec from the YAML specs
    cargo xtask regen --check    write nothing; fail listing the files that are stale
    cargo xtask new-target NAME  scaffold isa-specs/NAME/ with a starting spec
    cargo xtask fuzz-gcn --count N [--seed S]
                                 the long GCN differential test against llvm-mc:
                                 N samples per encoding family in each mode
    cargo xtask bench-peer [--count N] [--rounds R] [--rss-lines L]
                                 time isa against llvm-mc on the same N GCN GFX8
                                 instructions (default 1,000,000, 3 rounds),
                                 checking that the outputs agree; then isa's
                                 peak memory over L lines (default 10,000,000)
    cargo xtask bench-build      time a clean build of a copy of the workspace
                                 and a rebuild after editing one spec file
    cargo xtask bench-build --builders [--rounds N]
                                 time a clean test build (and the UI tests) of a
                                 copy with the typed builders and of one without
                                 them, N times each, alternating; the medians
                                 (about 17 minutes a round on 2 cores)
    cargo xtask fuzz --minutes N [--target NAME]
                                 the cargo-fuzz targets (decode, assemble, spec, ir),
                                 one after another, N minutes each; needs nightly
                                 and cargo-fuzz
";

/// The workspace root: the parent of this crate's folder.
fn root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = root();
    let result = match args.as_slice() {
        ["regen"] => regen::run(&root, regen::Mode::Write).map(|r| {
            for p in &r.changed {
                println!("wrote {}", p.display());
            }
            for p in &r.removed {
                println!("removed {}", p.display());
            }
            if r.changed.is_empty() && r.removed.is_empty() {
                println!("regen: everything is up to date");
            }
            true
        }),
        ["regen", "--check"] => regen::run(&root, regen::Mode::Check).map(|r| {
            if r.is_fresh() {
                return true;
            }
            eprintln!("error: generated files are out of date:");
            for p in r.changed.iter().chain(&r.removed) {
                eprintln!("    {}", p.display());
            }
            eprintln!("run `cargo xtask regen` and commit the result");
            false
        }),
        ["new-target", name] => new_target::run(&root, name).map(|dir| {
            println!("created {}/isa.yaml", dir.display());
            println!("next: edit it, then run `cargo xtask regen` to wire it in");
            true
        }),
        ["fuzz", rest @ ..] => fuzz::parse_args(rest).and_then(|o| fuzz::run(&root, &o)),
        ["fuzz-gcn", rest @ ..] => fuzz_gcn::parse_args(rest).and_then(|o| fuzz_gcn::run(&root, &o)),
        ["bench-peer", rest @ ..] => bench::parse_peer_args(rest).and_then(|o| bench::peer(&root, &o)),
        ["bench-build"] => bench::build(&root),
        ["bench-build", "--builders", rest @ ..] => {
            bench::parse_builders_args(rest).and_then(|rounds| bench::builders(&root, rounds))
        }
        ["help"] | ["--help"] | ["-h"] => {
            print!("{HELP}");
            Ok(true)
        }
        _ => Err(Error::Usage(format!("unknown command `{}`\n\n{HELP}", args.join(" ")))),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("{}", e.render());
            ExitCode::from(if matches!(e, Error::Usage(_)) { 2 } else { 1 })
        }
    }
}
