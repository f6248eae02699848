//! Where things are in the workspace: the target folders of `isa-specs/` and
//! `abi-specs/`, found by looking, so that a new folder is a new target.

use std::path::{Path, PathBuf};

use crate::Error;

/// Instruction sets or ABIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Isa,
    Abi,
}

impl Kind {
    /// The crate folder holding this kind's targets.
    pub fn specs_dir(self) -> &'static str {
        match self {
            Kind::Isa => "isa-specs",
            Kind::Abi => "abi-specs",
        }
    }

    /// The root spec file of a target folder.
    pub fn root_file(self) -> &'static str {
        match self {
            Kind::Isa => "isa.yaml",
            Kind::Abi => "abi.yaml",
        }
    }

    /// The folder of the generated reference manuals.
    pub fn docs_dir(self) -> &'static str {
        match self {
            Kind::Isa => "docs/isa",
            Kind::Abi => "docs/abi",
        }
    }

    /// The JSON Schema of this kind's spec files.
    pub fn schema_file(self) -> &'static str {
        match self {
            Kind::Isa => "schemas/isa.schema.json",
            Kind::Abi => "schemas/abi.schema.json",
        }
    }
}

/// One target folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The folder's name: the Rust module and the `--target` name.
    pub name: String,
    /// The root spec, relative to the workspace root (`isa-specs/ir3/isa.yaml`).
    pub root: PathBuf,
}

/// The targets of `kind`: every folder of its crate holding a root spec,
/// sorted by name. Other folders (`src`, `tests`) are not targets.
pub fn targets(root: &Path, kind: Kind) -> Result<Vec<Target>, Error> {
    let dir = root.join(kind.specs_dir());
    let entries = std::fs::read_dir(&dir).map_err(|e| Error::Io(format!("cannot list {}: {e}", dir.display())))?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::Io(format!("cannot list {}: {e}", dir.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().join(kind.root_file()).is_file() {
            continue;
        }
        check_name(&name)
            .map_err(|why| Error::Io(format!("{}/{name}: a target folder's name {why}", kind.specs_dir())))?;
        out.push(Target { root: Path::new(kind.specs_dir()).join(&name).join(kind.root_file()), name });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// A target's name becomes a Rust module and a command-line word: a lower-case
/// letter, then lower-case letters, digits and `_`, and not a Rust keyword.
pub fn check_name(name: &str) -> Result<(), String> {
    const KEYWORDS: [&str; 40] = [
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl",
        "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct",
        "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "gen", "try",
        "src",
    ];
    let mut chars = name.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_lowercase()) {
        return Err("must start with a lower-case letter".into());
    }
    if !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
        return Err("may hold only lower-case letters, digits and `_`".into());
    }
    if KEYWORDS.contains(&name) {
        return Err(format!("`{name}` is reserved"));
    }
    Ok(())
}

/// `path` relative to `root`, when it lies inside it.
pub fn relative(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).map(Path::to_path_buf).unwrap_or_else(|_| path.to_path_buf())
}

/// A path written with `/` whatever the platform, for generated text.
pub fn slash(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_names() {
        assert!(check_name("rv32i").is_ok());
        assert!(check_name("gcn_gfx9").is_ok());
        assert!(check_name("RV32").unwrap_err().contains("lower-case letter"));
        assert!(check_name("rv-32").unwrap_err().contains("only"));
        assert!(check_name("fn").unwrap_err().contains("reserved"));
        assert!(check_name("").is_err());
    }

    #[test]
    fn finds_folders_with_a_root_spec() {
        let dir = std::env::temp_dir().join(format!("xtask-ws-{}", std::process::id()));
        let specs = dir.join("isa-specs");
        for d in ["zeta", "alpha", "src", "tests"] {
            std::fs::create_dir_all(specs.join(d)).unwrap();
        }
        std::fs::write(specs.join("zeta/isa.yaml"), "").unwrap();
        std::fs::write(specs.join("alpha/isa.yaml"), "").unwrap();
        let t = targets(&dir, Kind::Isa).unwrap();
        let names: Vec<_> = t.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["alpha", "zeta"]);
        assert_eq!(slash(&t[0].root), "isa-specs/alpha/isa.yaml");
        std::fs::create_dir_all(specs.join("Bad")).unwrap();
        std::fs::write(specs.join("Bad/isa.yaml"), "").unwrap();
        let e = targets(&dir, Kind::Isa).unwrap_err().render();
        assert!(e.contains("isa-specs/Bad") && e.contains("lower-case"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
