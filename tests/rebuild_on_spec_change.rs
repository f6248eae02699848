//! Cargo must rebuild a target when any of its YAML files changes (the macro's
//! expansion names every file it read in an `include_bytes!`). This builds a
//! scratch crate over a copy of the ir3 spec, edits one YAML file, rebuilds, and
//! checks that Cargo recompiled the crate and that the edit is live.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> (bool, String, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn editing_a_spec_file_rebuilds_its_user() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let scratch = std::env::temp_dir().join(format!("isagen-rebuild-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("src")).unwrap();
    std::fs::create_dir_all(scratch.join("spec")).unwrap();
    for entry in std::fs::read_dir(root.join("isa-specs/ir3")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, scratch.join("spec").join(p.file_name().unwrap())).unwrap();
    }
    std::fs::copy(root.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();
    let manifest = format!(
        "[package]\nname = \"rebuild-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
         [dependencies]\nisa-macros = {{ path = {:?} }}\nisa-runtime = {{ path = {:?} }}\n",
        root.join("isa-macros"),
        root.join("isa-macros/runtime")
    );
    std::fs::write(scratch.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(
        scratch.join("src/main.rs"),
        "mod ir3 { isa_macros::isa!(\"../spec/isa.yaml\"); }\n\
         fn main() { println!(\"{}\", ir3::ISA.print(&ir3::ISA.decode(0x4010000000020001, 600).unwrap(), 600)); }\n",
    )
    .unwrap();
    // Kept under the workspace's target directory so later runs reuse the
    // dependencies built here.
    let target = root.join("target/rebuild-probe");

    let (ok, out, err) = cargo(&scratch, &target, &["run", "--offline", "-q"]);
    assert!(ok, "first build failed:\n{err}");
    assert_eq!(out.trim(), "add.f r0.x, r0.y, r0.z");

    let (ok, _, err) = cargo(&scratch, &target, &["build", "--offline"]);
    assert!(ok, "{err}");
    assert!(!err.contains("Compiling rebuild-probe"), "nothing changed, yet Cargo rebuilt:\n{err}");

    let cat2 = scratch.join("spec/cat2.yaml");
    let text = std::fs::read_to_string(&cat2).unwrap();
    assert!(text.contains("      add.f: 0\n"));
    std::fs::write(&cat2, text.replace("      add.f: 0\n", "      fadd: 0\n")).unwrap();

    let (ok, _, err) = cargo(&scratch, &target, &["build", "--offline"]);
    assert!(ok, "rebuild failed:\n{err}");
    assert!(err.contains("Compiling rebuild-probe"), "editing cat2.yaml did not rebuild:\n{err}");
    let (ok, out, err) = cargo(&scratch, &target, &["run", "--offline", "-q"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "fadd r0.x, r0.y, r0.z");
    let _ = std::fs::remove_dir_all(&scratch);
}
