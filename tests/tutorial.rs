//! Follows docs/adding-a-target.md mechanically, in a copy of the workspace:
//! the rv32i target is removed (and regen run, giving the workspace as it was
//! before the target existed), then every block of the page is played in
//! order — each ```console command is run and its output compared with the
//! page, each ```yaml file=PATH block is written to PATH. At the end the copy
//! must hold exactly the shipped spec and manual: the target comes from the
//! YAML of the page and `cargo xtask regen` alone, with no hand-written Rust.
//!
//! The copy builds into its own target folder under Cargo's scratch folder for
//! tests (a nested cargo cannot share the outer one, which is locked while the
//! tests run), kept between runs. Measured on the two-core project machine: the
//! first run builds the workspace once more (about 4.5 minutes, sharing the
//! cores with other builds); later runs take about 15 s.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const PAGE: &str = "docs/adding-a-target.md";
const TARGET: &str = "isa-specs/rv32i";
/// Files the page writes besides the spec: an example program, in IR and
/// built with the typed builders.
const EXAMPLES: [&str; 2] = ["examples/rv32i", "examples/driver/examples/rv32i_sum.rs"];

/// One step of the page.
#[derive(Debug, PartialEq)]
enum Step {
    /// A shell command and the standard output the page shows for it.
    Run { command: String, output: String },
    /// A piece of a file; the pieces of one file are joined by a blank line.
    Write { path: String, text: String },
}

/// The steps of the page, in order.
fn steps(page: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        if info == "console" {
            let mut cmd: Option<(String, Vec<&str>)> = None;
            for l in body {
                if let Some(c) = l.strip_prefix("$ ") {
                    if let Some((command, output)) = cmd.take() {
                        out.push(Step::Run { command, output: output.join("\n") });
                    }
                    cmd = Some((c.to_string(), Vec::new()));
                } else if let Some((_, output)) = cmd.as_mut() {
                    output.push(l);
                }
            }
            if let Some((command, output)) = cmd {
                out.push(Step::Run { command, output: output.join("\n") });
            }
        } else if let Some((_, path)) = info.split_once(" file=") {
            out.push(Step::Write { path: path.to_string(), text: body.join("\n") });
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Runs `command` with bash in the copy; its standard output, and whether
/// it succeeded.
fn shell(ws: &Path, target_dir: &Path, command: &str) -> (String, bool) {
    let mut c = Command::new("bash");
    c.arg("-c").arg(command).current_dir(ws);
    // The outer cargo's variables describe the outer build; the copy is a
    // workspace of its own.
    for (k, _) in std::env::vars() {
        if k.starts_with("CARGO_") && k != "CARGO_HOME" {
            c.env_remove(&k);
        }
    }
    c.env("CARGO_TARGET_DIR", target_dir).env("CARGO_NET_OFFLINE", "true");
    let out = c.output().expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error[") && !stderr.contains("error: could not compile"), "`{command}`:\n{stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.success())
}

#[test]
fn the_page_is_parsed_into_steps() {
    let page = "text\n```console\n$ a\none\ntwo\n$ b\n```\n```yaml file=x.yaml\nk: 1\n```\n```text\n$ not run\n```\n```rust file=m.rs\nfn main() {}\n```\n";
    assert_eq!(
        steps(page),
        [
            Step::Run { command: "a".into(), output: "one\ntwo".into() },
            Step::Run { command: "b".into(), output: String::new() },
            Step::Write { path: "x.yaml".into(), text: "k: 1".into() },
            Step::Write { path: "m.rs".into(), text: "fn main() {}".into() },
        ]
    );
}

#[test]
fn the_tutorial_adds_the_target_with_yaml_and_regen_alone() {
    let start = Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let ws = scratch.join("tutorial-workspace");
    let target_dir = scratch.join("tutorial-target");
    let _ = std::fs::remove_dir_all(&ws);
    copy_tree(root, &ws);

    // The workspace as it was before the target: no folder, regenerated.
    std::fs::remove_dir_all(ws.join(TARGET)).unwrap();
    for e in EXAMPLES {
        let p = ws.join(e);
        if p.is_dir() { std::fs::remove_dir_all(p).unwrap() } else { std::fs::remove_file(p).unwrap() }
    }
    assert!(shell(&ws, &target_dir, "cargo xtask regen").1);
    assert!(!ws.join("docs/isa/rv32i.md").exists());
    assert!(!std::fs::read_to_string(ws.join("isa-specs/src/targets.rs")).unwrap().contains("rv32i"));

    let page = std::fs::read_to_string(root.join(PAGE)).unwrap();
    let steps = steps(&page);
    assert!(steps.iter().filter(|s| matches!(s, Step::Run { .. })).count() >= 6, "{steps:?}");
    let mut pieces: std::collections::HashMap<String, Vec<String>> = Default::default();
    for step in &steps {
        match step {
            Step::Run { command, output } => {
                let (got, _) = shell(&ws, &target_dir, command);
                assert_eq!(got.trim_end(), output.trim_end(), "output of `{command}` differs from {PAGE}");
            }
            Step::Write { path, text } => {
                let file = pieces.entry(path.clone()).or_default();
                file.push(text.clone());
                let dest = ws.join(path);
                std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                std::fs::write(dest, file.join("\n\n") + "\n").unwrap();
            }
        }
    }

    // The page's YAML is the shipped spec, and regen made the shipped manual
    // and wiring from it: the copy is now the workspace itself.
    for f in [
        "isa-specs/rv32i/isa.yaml",
        "docs/isa/rv32i.md",
        "isa-specs/src/targets.rs",
        "examples/rv32i/sum.ir",
        "examples/driver/examples/rv32i_sum.rs",
    ] {
        let shipped = std::fs::read_to_string(root.join(f)).unwrap();
        assert!(std::fs::read_to_string(ws.join(f)).unwrap() == shipped, "{f} differs from the workspace's");
    }
    let (out, fresh) = shell(&ws, &target_dir, "cargo xtask regen --check");
    assert!(fresh, "regen --check fails in the copy: {out}");
    println!("tutorial followed in {:.0?}", start.elapsed());
    std::fs::remove_dir_all(&ws).unwrap();
}
