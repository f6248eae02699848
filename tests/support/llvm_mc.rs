//! Running llvm-mc (LLVM 14), the live oracle of the differential tests.
//! Included with `#[path]` by each test that talks to it.

use std::process::Command;

#[path = "pipe.rs"]
mod pipe;

/// The llvm-mc on this machine, if any.
pub fn find() -> Option<&'static str> {
    ["llvm-mc-14", "llvm-mc"].into_iter().find(|c| Command::new(c).arg("--version").output().is_ok())
}

/// llvm-mc's standard output and error for `input`.
pub fn run(mc: &str, args: &[&str], input: &str) -> (String, String) {
    let out = pipe::run(mc, args, input.as_bytes().to_vec());
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}
