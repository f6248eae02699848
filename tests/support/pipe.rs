//! Running a program on piped input, for tests that talk to a command line.
//! Included with `#[path]`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `program args` with `input` on standard input, its output captured. The
/// input is written from another thread, so a large batch cannot deadlock on a
/// full output pipe.
pub fn run(program: &str, args: &[&str], input: Vec<u8>) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{program} runs: {e}"));
    writer.join().expect("writer").unwrap_or_else(|e| panic!("{program} reads its input: {e}"));
    out
}
