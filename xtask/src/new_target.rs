//! `cargo xtask new-target NAME`: a target folder with a small, commented
//! spec that compiles, to be grown into the real thing.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::workspace::{Kind, check_name};

/// Creates `isa-specs/NAME/isa.yaml`; returns the folder, relative to `root`.
pub fn run(root: &Path, name: &str) -> Result<PathBuf, Error> {
    check_name(name).map_err(|why| Error::Usage(format!("`{name}`: a target name {why}")))?;
    let rel = Path::new(Kind::Isa.specs_dir()).join(name);
    let dir = root.join(&rel);
    if dir.exists() {
        return Err(Error::Usage(format!("{} already exists", rel.display())));
    }
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))?;
    let file = dir.join(Kind::Isa.root_file());
    std::fs::write(&file, starting_spec(name))
        .map_err(|e| Error::Io(format!("cannot write {}: {e}", file.display())))?;
    Ok(rel)
}

/// The starting spec: one 32-bit format with one instruction, every part
/// commented with what to change.
pub fn starting_spec(name: &str) -> String {
    let header = crate::yaml_header::line(Kind::Isa, &Path::new(Kind::Isa.specs_dir()).join(name).join("isa.yaml"));
    format!(
        r#"{header}
# The {name} instruction set. The language: docs/spec-language.md.
# After editing, run `cargo xtask regen`: it wires this folder in as the
# module `isa_specs::{name}` and the target `--target {name}`, and writes
# docs/isa/{name}.md.
isa: {name}
doc: The {name} instruction set (one line; it becomes the module's doc).
# The bitset every instruction extends.
instruction: instruction
# Other files of this target, relative to this one (listed, never globbed).
files: []
# Generations, oldest first, if encodings differ between them:
# generations:
#   - {{name: v1, value: 100}}
#   - {{name: v2, value: 200}}
# default-gen: v2

bitsets:
  # The root of all instructions: the word size.
  instruction:
    size: 32

  # A format: fields at bit ranges (low..high, inclusive) and the text form.
  # `{{NAME}}` is the mnemonic; `{{FIELD}}` a field's value.
  rrr:
    extends: instruction
    fields:
      OPC: {{bits: 0..7, type: uint}}
      DST: {{bits: 8..15, type: reg}}
      SRC1: {{bits: 16..23, type: reg}}
      SRC2: {{bits: 24..31, type: reg}}
    display: "{{NAME}} {{DST}}, {{SRC1}}, {{SRC2}}"

  # An operand encoding: a register, printed `r0`..`r255`.
  reg:
    size: 8
  reg-gpr:
    extends: reg
    fields:
      N: {{bits: 0..7, type: uint}}
    display: "r{{N}}"

# Instructions of a format that differ in one field: mnemonic -> value.
instructions:
  - extends: rrr
    field: OPC
    opcodes:
      add: 1
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_spec_loads_and_assembles() {
        let dir = std::env::temp_dir().join(format!("xtask-new-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rel = run(&dir, "toy").unwrap();
        assert_eq!(rel, Path::new("isa-specs/toy"));
        let spec = isa_codegen::load(&dir.join("isa-specs/toy/isa.yaml"))
            .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
        assert_eq!(spec.isa.name, "toy");
        let (bits, _) = spec.isa.assemble("add r1, r2, r3", spec.isa.default_gen).unwrap();
        assert_eq!(bits, 0x0302_0101);
        let inst = spec.isa.decode(bits, spec.isa.default_gen).unwrap();
        assert_eq!(spec.isa.print(&inst, spec.isa.default_gen), "add r1, r2, r3");
        // Once only.
        assert!(run(&dir, "toy").unwrap_err().render().contains("already exists"));
        assert!(run(&dir, "Toy").unwrap_err().render().contains("lower-case"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
