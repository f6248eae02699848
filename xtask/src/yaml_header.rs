//! The first line of every spec file: `# yaml-language-server: $schema=...`,
//! which points editors at the JSON Schema so that they complete and check
//! keys. It is a YAML comment, so the loader never sees it.

use std::path::Path;

use crate::workspace::{Kind, slash};

const PREFIX: &str = "# yaml-language-server:";

/// The header line for the spec file at `file` (relative to the workspace root).
pub fn line(kind: Kind, file: &Path) -> String {
    let depth = file.parent().map_or(0, |p| p.components().count());
    format!("{PREFIX} $schema={}{}", "../".repeat(depth), slash(Path::new(kind.schema_file())))
}

/// `text` with `header` as its first line: an existing `yaml-language-server`
/// line is replaced, otherwise the header is added above everything else.
pub fn with_header(text: &str, header: &str) -> String {
    let rest = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with(PREFIX) => rest,
        None if text.starts_with(PREFIX) => "",
        _ => text,
    };
    format!("{header}\n{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_points_up_to_the_schema() {
        assert_eq!(
            line(Kind::Isa, Path::new("isa-specs/ir3/cat2.yaml")),
            "# yaml-language-server: $schema=../../schemas/isa.schema.json"
        );
        assert_eq!(
            line(Kind::Abi, Path::new("abi-specs/gcn/abi.yaml")),
            "# yaml-language-server: $schema=../../schemas/abi.schema.json"
        );
    }

    #[test]
    fn header_is_added_once_and_replaced_in_place() {
        let h = "# yaml-language-server: $schema=../../schemas/isa.schema.json";
        let added = with_header("# a comment\nisa: x\n", h);
        assert_eq!(added, format!("{h}\n# a comment\nisa: x\n"));
        assert_eq!(with_header(&added, h), added);
        let old = "# yaml-language-server: $schema=elsewhere.json\nisa: x\n";
        assert_eq!(with_header(old, h), format!("{h}\nisa: x\n"));
    }

    #[test]
    fn the_loader_ignores_the_header() {
        let h = line(Kind::Isa, Path::new("isa-specs/t/isa.yaml"));
        let text = with_header("isa: t\ndoc: a test\n", &h);
        let f: isa_codegen::schema::SpecFile =
            isa_codegen::yaml::parse(Path::new("isa.yaml"), text.as_bytes()).expect("the header is a comment");
        assert_eq!(f.isa.unwrap().value, "t");
    }
}
