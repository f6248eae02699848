//! Running llvm-mc (LLVM 14), the live oracle of the differential tests.
//! Included with `#[path]` by each test that talks to it.

use std::io::Write;
use std::process::{Command, Stdio};

/// The llvm-mc on this machine, if any.
pub fn find() -> Option<&'static str> {
    ["llvm-mc-14", "llvm-mc"].into_iter().find(|c| Command::new(c).arg("--version").output().is_ok())
}

/// llvm-mc's standard output and error for `input`. The input is written from
/// another thread, so a large batch cannot deadlock on a full output pipe.
pub fn run(mc: &str, args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new(mc)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc runs");
    writer.join().expect("writer").expect("llvm-mc reads its input");
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}
