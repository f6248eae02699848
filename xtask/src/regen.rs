//! `cargo xtask regen [--check]`: every checked-in file derived from the specs,
//! computed in memory, then written (or compared, for `--check`).
//!
//! The specs are loaded and checked by `isa-codegen` exactly as `isa!` and
//! `abi!` load them, so a spec that would not compile stops regen with the
//! same diagnostics, and the docs describe what the tables hold.

use std::path::{Path, PathBuf};

use isa_codegen::json_schema::{self, Json};

use crate::workspace::{self, Kind, Target, slash};
use crate::{Error, abi_doc, banner, isa_doc, wiring, yaml_header};

/// One generated file: its path relative to the workspace root, and its text.
#[derive(Debug)]
pub struct Artifact {
    pub path: PathBuf,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Write what changed; remove generated docs whose target is gone.
    Write,
    /// Write nothing; report what `Write` would change.
    Check,
}

/// What a run changed (or, for `Check`, would change).
#[derive(Debug, Default)]
pub struct Report {
    pub changed: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
}

impl Report {
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty()
    }
}

/// Regenerates (or checks) everything under the workspace at `root`.
pub fn run(root: &Path, mode: Mode) -> Result<Report, Error> {
    let arts = artifacts(root)?;
    let mut report = Report::default();
    for a in &arts {
        let path = root.join(&a.path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(a.text.as_str()) {
            continue;
        }
        report.changed.push(a.path.clone());
        if mode == Mode::Write {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))?;
            }
            std::fs::write(&path, &a.text).map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    for stale in stale_docs(root, &arts)? {
        if mode == Mode::Write {
            let path = root.join(&stale);
            std::fs::remove_file(&path).map_err(|e| Error::Io(format!("cannot remove {}: {e}", path.display())))?;
        }
        report.removed.push(stale);
    }
    Ok(report)
}

/// Every generated file's expected text.
pub fn artifacts(root: &Path) -> Result<Vec<Artifact>, Error> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for kind in [Kind::Isa, Kind::Abi] {
        let mut wired: Vec<(String, String)> = Vec::new();
        for t in workspace::targets(root, kind)? {
            match target(root, kind, &t, &mut out) {
                Ok(doc) => wired.push((t.name.clone(), doc)),
                Err(d) => diags.extend(d),
            }
        }
        let w: Vec<wiring::Wired> = wired.iter().map(|(n, d)| wiring::Wired { name: n, doc: d }).collect();
        out.push(Artifact { path: wiring::path(kind).into(), text: wiring::render(kind, &w) });
        let schema = match kind {
            Kind::Isa => json_schema::isa(),
            Kind::Abi => json_schema::abi(),
        }
        .map_err(|e| Error::Io(format!("cannot derive {}: {e}", kind.schema_file())))?;
        out.push(Artifact { path: kind.schema_file().into(), text: with_comment(schema, kind).pretty() });
    }
    if !diags.is_empty() {
        return Err(Error::specs(root, diags));
    }
    Ok(out)
}

/// The schema with the generated-file line as its first key (JSON has no
/// comments; `$comment` is JSON Schema's own).
fn with_comment(schema: Json, kind: Kind) -> Json {
    let from = match kind {
        Kind::Isa => "the serde types of isa-macros/codegen/src/schema.rs",
        Kind::Abi => "the serde types of isa-macros/codegen/src/abi/schema.rs",
    };
    match schema {
        Json::Object(mut pairs) => {
            pairs.insert(0, ("$comment".into(), Json::Str(banner(from))));
            Json::Object(pairs)
        }
        other => other,
    }
}

/// Loads one target and adds its manual and its spec files (with the schema
/// line) to `out`; returns the spec's `doc:` for the wiring.
fn target(
    root: &Path,
    kind: Kind,
    t: &Target,
    out: &mut Vec<Artifact>,
) -> Result<String, Vec<isa_codegen::Diagnostic>> {
    let root_file = root.join(&t.root);
    let inputs = format!("{}/{}/*.yaml", kind.specs_dir(), t.name);
    let (name, doc, files, manual) = match kind {
        Kind::Isa => {
            let spec = isa_codegen::load(&root_file)?;
            let root_spec: isa_codegen::schema::SpecFile = isa_codegen::yaml::load(&root_file).map_err(|d| vec![d])?;
            let flag_docs: Vec<(String, String)> =
                root_spec.flags.iter().flatten().map(|(k, v)| (k.value.clone(), v.value.clone())).collect();
            let cx = isa_doc::Context { inputs: &inputs, flag_docs: &flag_docs };
            let manual = isa_doc::render(&spec, &cx);
            (spec.isa.name, spec.isa.doc, spec.files, manual)
        }
        Kind::Abi => {
            let (l, _) = isa_codegen::abi::load_checked(&root_file)?;
            (l.abi.name, l.abi.doc, l.files, abi_doc::render(l.abi, &inputs))
        }
    };
    if name != t.name {
        let text = std::fs::read_to_string(&root_file).unwrap_or_default();
        let key = match kind {
            Kind::Isa => "isa:",
            Kind::Abi => "abi:",
        };
        let line = text.lines().position(|l| l.starts_with(key)).map_or(1, |i| i as u64 + 1);
        return Err(vec![
            isa_codegen::Diagnostic::new(
                isa_codegen::Loc::new(&root_file, line, 1),
                format!("the target in folder `{}` is named `{name}`", t.name),
            )
            .note(format!("the folder name is the target's name: write `{key} {}`", t.name)),
        ]);
    }
    out.push(Artifact { path: Path::new(kind.docs_dir()).join(format!("{}.md", t.name)), text: manual });
    for f in files {
        let rel = workspace::relative(root, &f);
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let header = yaml_header::line(kind, &rel);
        out.push(Artifact { path: rel, text: yaml_header::with_header(&text, &header) });
    }
    Ok(doc.to_string())
}

/// Generated manuals whose target is gone.
fn stale_docs(root: &Path, arts: &[Artifact]) -> Result<Vec<PathBuf>, Error> {
    let marker = format!("<!-- {}", banner("")).replace(" from ; do not edit", "");
    let mut out = Vec::new();
    for kind in [Kind::Isa, Kind::Abi] {
        let dir = root.join(kind.docs_dir());
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut found: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        found.sort();
        for p in found {
            let rel = workspace::relative(root, &p);
            let generated = std::fs::read_to_string(&p).is_ok_and(|t| t.starts_with(&marker));
            if generated && p.extension().is_some_and(|e| e == "md") && !arts.iter().any(|a| a.path == rel) {
                out.push(rel);
            }
        }
    }
    Ok(out)
}

/// The paths of all artifacts, for messages.
pub fn describe(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| slash(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A throwaway workspace with one scaffolded target and no ABI.
    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-regen-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("abi-specs")).unwrap();
        crate::new_target::run(&dir, "toy").unwrap();
        dir
    }

    fn names(paths: &[PathBuf]) -> Vec<String> {
        describe(paths)
    }

    #[test]
    fn check_finds_a_changed_opcode_and_regen_fixes_it() {
        let dir = scratch("opcode");
        let first = run(&dir, Mode::Write).unwrap();
        let written = names(&first.changed);
        for p in ["docs/isa/toy.md", "isa-specs/src/targets.rs", "schemas/isa.schema.json", "abi-specs/src/targets.rs"]
        {
            assert!(written.contains(&p.to_string()), "{p} not in {written:?}");
        }
        assert!(run(&dir, Mode::Check).unwrap().is_fresh());
        let doc = std::fs::read_to_string(dir.join("docs/isa/toy.md")).unwrap();
        assert!(doc.starts_with("<!-- generated by cargo xtask regen from isa-specs/toy/*.yaml; do not edit -->\n"));
        assert!(doc.contains("| add | 1 |"), "{doc}");

        // Change an opcode: --check names the manual and writes nothing.
        let spec = dir.join("isa-specs/toy/isa.yaml");
        let text = std::fs::read_to_string(&spec).unwrap();
        std::fs::write(&spec, text.replace("add: 1", "add: 2")).unwrap();
        let stale = run(&dir, Mode::Check).unwrap();
        assert_eq!(names(&stale.changed), ["docs/isa/toy.md"]);
        assert_eq!(std::fs::read_to_string(dir.join("docs/isa/toy.md")).unwrap(), doc);
        // regen brings it up to date.
        assert_eq!(names(&run(&dir, Mode::Write).unwrap().changed), ["docs/isa/toy.md"]);
        assert!(run(&dir, Mode::Check).unwrap().is_fresh());
        assert!(std::fs::read_to_string(dir.join("docs/isa/toy.md")).unwrap().contains("| add | 2 |"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_removed_target_leaves_a_stale_manual_that_regen_removes() {
        let dir = scratch("removed");
        run(&dir, Mode::Write).unwrap();
        std::fs::remove_dir_all(dir.join("isa-specs/toy")).unwrap();
        let r = run(&dir, Mode::Check).unwrap();
        assert_eq!(names(&r.removed), ["docs/isa/toy.md"]);
        assert_eq!(names(&r.changed), ["isa-specs/src/targets.rs"]);
        run(&dir, Mode::Write).unwrap();
        assert!(!dir.join("docs/isa/toy.md").exists());
        assert!(run(&dir, Mode::Check).unwrap().is_fresh());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_schema_line_is_stale_and_restored() {
        let dir = scratch("header");
        run(&dir, Mode::Write).unwrap();
        let spec = dir.join("isa-specs/toy/isa.yaml");
        let text = std::fs::read_to_string(&spec).unwrap();
        let body = text.split_once('\n').unwrap().1.to_string();
        std::fs::write(&spec, &body).unwrap();
        assert_eq!(names(&run(&dir, Mode::Check).unwrap().changed), ["isa-specs/toy/isa.yaml"]);
        run(&dir, Mode::Write).unwrap();
        assert_eq!(std::fs::read_to_string(&spec).unwrap(), text);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn spec_errors_show_the_line_and_a_caret() {
        let dir = scratch("error");
        let spec = dir.join("isa-specs/toy/isa.yaml");
        let text = std::fs::read_to_string(&spec).unwrap();
        std::fs::write(&spec, text.replace("    display: \"r{N}\"", "    dispaly: \"r{N}\"")).unwrap();
        let line = text.lines().position(|l| l.contains("display: \"r{N}\"")).unwrap() + 1;
        let e = run(&dir, Mode::Check).unwrap_err().render();
        let want = format!("error: isa-specs/toy/isa.yaml:{line}:5: unknown field `dispaly`");
        assert!(e.starts_with(&want), "{e}");
        assert!(e.contains(&format!("{line} |     dispaly: \"r{{N}}\"\n")), "{e}");
        assert!(e.contains("|     ^"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_must_match_its_target_name() {
        let dir = scratch("name");
        let spec = dir.join("isa-specs/toy/isa.yaml");
        let text = std::fs::read_to_string(&spec).unwrap();
        std::fs::write(&spec, text.replace("isa: toy", "isa: other")).unwrap();
        let e = run(&dir, Mode::Check).unwrap_err().render();
        assert!(e.contains("the target in folder `toy` is named `other`") && e.contains("^"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The acceptance check on the real workspace: what is checked in is what
    /// regen writes.
    #[test]
    fn the_workspace_is_fresh() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let r = run(root, Mode::Check).unwrap_or_else(|e| panic!("{}", e.render()));
        assert!(r.is_fresh(), "stale: {:?} {:?}; run `cargo xtask regen`", r.changed, r.removed);
    }
}
