//! `docs/isa/<target>.md`: a target's reference manual, from its loaded spec.
//!
//! Instructions are grouped by encoding: leaves with the same format (the
//! bitset they extend) and the same bit layout share a section with one bit
//! diagram, a field table and one row per mnemonic. A mnemonic whose opcode
//! number changes between generations keeps one row, with a number per
//! generation range. Operand encodings and enums follow.

use std::collections::HashMap;
use std::fmt::Write;

use indexmap::IndexMap;
use isa_codegen::Spec;
use isa_runtime::{Case, Field, Isa, Leaf, Src, Tok, Ty, expr_text, extract};

use crate::diagram::{self, Segment};
use crate::markdown::{Anchors, cell, code, gen_range};

/// What the manual needs besides the tables.
pub struct Context<'a> {
    /// The spec files, relative to the workspace root, for the banner.
    pub inputs: &'a str,
    /// Flag name -> meaning, from the root spec.
    pub flag_docs: &'a [(String, String)],
}

/// Encodings of one group with one layout, from one format.
struct Section {
    title: String,
    /// The leaf's default-case layout, shared by every leaf here.
    layout: Vec<Segment>,
    leaves: Vec<u16>,
}

/// Leaves of `group`, in spec order, grouped by format and layout.
fn sections(spec: &Spec, group: u16) -> Vec<Section> {
    let isa = spec.isa;
    let mut by_key: IndexMap<(String, Vec<Segment>), Vec<u16>> = IndexMap::new();
    for (i, leaf) in isa.leaves.iter().enumerate() {
        if leaf.group != group {
            continue;
        }
        let lineage = &spec.lineage[i];
        let format = lineage.get(1).unwrap_or(&lineage[0]).clone();
        by_key.entry((format, diagram::layout(leaf))).or_default().push(i as u16);
    }
    let mut count: HashMap<String, usize> = HashMap::new();
    for (format, _) in by_key.keys() {
        *count.entry(format.clone()).or_default() += 1;
    }
    let mut out: Vec<Section> = by_key
        .into_iter()
        .map(|((format, layout), leaves)| {
            // A format whose leaves lay out their bits differently gets one
            // section per layout, each named after its first leaf as well.
            let title = if count[&format] > 1 || leaves.len() == 1 {
                let first = spec.lineage[leaves[0] as usize][0].clone();
                if first == format { format } else { format!("{format} / {first}") }
            } else {
                format
            };
            Section { title, layout, leaves }
        })
        .collect();
    // In the order the spec was written (table rows are lowered after the
    // bitsets written out, so leaf order alone would not do).
    let site = |l: u16| {
        let at = &spec.defined_at[l as usize];
        (spec.files.iter().position(|f| *f == at.file).unwrap_or(usize::MAX), at.line, at.col)
    };
    out.sort_by_key(|sec| site(sec.leaves[0]));
    out
}

/// The manual.
pub fn render(spec: &Spec, cx: &Context) -> String {
    let isa = spec.isa;
    let mut anchors = Anchors::default();
    let mut s = format!("<!-- {} -->\n\n", crate::banner(cx.inputs));
    let _ = writeln!(s, "# {} instruction set reference\n", isa.name);
    anchors.next(&format!("{} instruction set reference", isa.name));
    if !isa.doc.is_empty() {
        let _ = writeln!(s, "{}\n", isa.doc);
    }
    let inst_sections = sections(spec, 0);
    let mnemonics: std::collections::HashSet<&str> =
        isa.leaves.iter().filter(|l| l.group == 0).map(|l| l.name).collect();
    let _ = writeln!(
        s,
        "Generated from `{}` (the language: [spec-language.md](../spec-language.md)). \
         {} mnemonics in {} encodings; {}-bit instruction words.\n",
        cx.inputs,
        mnemonics.len(),
        inst_sections.len(),
        isa.groups.first().map_or(0, |g| g.bits)
    );
    s.push_str(
        "Syntax templates show each field as `{FIELD}`; `{?text}` is text the \
         disassembler prints and the assembler may leave out.\n\n",
    );

    // Anchors are fixed before the contents list is written.
    let enum_anchor: Vec<String> = isa.enums.iter().map(|e| slug(&format!("Enum {}", e.name))).collect();
    let group_anchor: Vec<String> = isa.groups.iter().map(|g| slug(&format!("Operand {}", g.name))).collect();
    let links = Links { enum_anchor: &enum_anchor, group_anchor: &group_anchor };

    let mut body = String::new();
    let mut contents = String::from("## Contents\n\n");
    for h in ["Generations", "Scheduling classes", "Flags"] {
        let _ = writeln!(contents, "- [{h}](#{})", anchors.next(h));
    }
    generations(&mut body, isa);
    sched_classes(&mut body, isa);
    flags(&mut body, isa, cx.flag_docs);

    let _ = writeln!(contents, "- [Instructions](#{})", anchors.next("Instructions"));
    body.push_str("## Instructions\n\n");
    for sec in &inst_sections {
        let anchor = anchors.next(&sec.title);
        let names: Vec<&str> = unique(sec.leaves.iter().map(|&l| isa.leaves[l as usize].name));
        let _ = writeln!(contents, "  - [{}](#{anchor}) ({})", sec.title, names.len());
        instruction_section(&mut body, isa, sec, &links);
    }
    if isa.groups.len() > 1 {
        let _ = writeln!(contents, "- [Operands](#{})", anchors.next("Operands"));
        body.push_str(
            "## Operands\n\nOperand fields are encodings of their own: the decoder picks the form whose \
                       fixed bits match.\n\n",
        );
        for (gi, g) in isa.groups.iter().enumerate().skip(1) {
            anchors.next(&format!("Operand {}", g.name));
            let _ = writeln!(contents, "  - [{}](#{})", g.name, group_anchor[gi]);
            operand_group(&mut body, spec, gi as u16, &links, &mut anchors);
        }
    }
    if !isa.enums.is_empty() {
        let _ = writeln!(contents, "- [Enums](#{})", anchors.next("Enums"));
        body.push_str("## Enums\n\n");
        for (ei, e) in isa.enums.iter().enumerate() {
            anchors.next(&format!("Enum {}", e.name));
            let _ = writeln!(contents, "  - [{}](#{})", e.name, enum_anchor[ei]);
            let _ = writeln!(body, "### Enum `{}`\n\n| value | text |\n|---|---|", e.name);
            for v in e.values {
                let text = if v.display.is_empty() { "(nothing)".to_string() } else { code(v.display) };
                // Texts the assembler also reads for the value.
                let also: Vec<String> = e.also.iter().filter(|a| a.value == v.value).map(|a| code(a.display)).collect();
                let also = if also.is_empty() { String::new() } else { format!(" (also read: {})", also.join(", ")) };
                let _ = writeln!(body, "| {} | {text}{also} |", v.value);
            }
            body.push('\n');
        }
    }
    s.push_str(&contents);
    s.push('\n');
    s.push_str(&body);
    while s.ends_with("\n\n") {
        s.pop();
    }
    s
}

fn slug(title: &str) -> String {
    Anchors::default().next(title)
}

/// The items in first-seen order, each once.
fn unique<T: PartialEq>(it: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for x in it {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

fn generations(s: &mut String, isa: &Isa) {
    s.push_str("## Generations\n\n");
    if isa.gens.is_empty() {
        s.push_str("This target has no generations.\n\n");
        return;
    }
    s.push_str("| generation | number | aliases |\n|---|---|---|\n");
    for g in isa.gens {
        let default = if g.value == isa.default_gen { " (default)" } else { "" };
        let _ = writeln!(s, "| {}{default} | {} | {} |", g.name, g.value, g.aliases.join(", "));
    }
    s.push('\n');
}

fn sched_classes(s: &mut String, isa: &Isa) {
    s.push_str("## Scheduling classes\n\n");
    if isa.sched_classes.is_empty() {
        s.push_str("None.\n\n");
        return;
    }
    s.push_str("Latency: cycles until a result may be read.\n\n| class | latency | meaning |\n|---|---|---|\n");
    for c in isa.sched_classes {
        let lat: Vec<String> = c
            .latency
            .iter()
            .map(|v| {
                let gens = gen_range(isa.gens, v.min, v.max);
                if gens == "all" { v.value.to_string() } else { format!("{}: {}", gens, v.value) }
            })
            .collect();
        let _ = writeln!(s, "| {} | {} | {} |", c.name, lat.join("; "), cell(c.doc));
    }
    s.push('\n');
}

fn flags(s: &mut String, isa: &Isa, docs: &[(String, String)]) {
    s.push_str("## Flags\n\n");
    if isa.flags.is_empty() {
        s.push_str("None.\n\n");
        return;
    }
    s.push_str("| flag | meaning |\n|---|---|\n");
    for f in isa.flags {
        let doc = docs.iter().find(|(n, _)| n == f).map_or("", |(_, d)| d.as_str());
        let _ = writeln!(s, "| {f} | {} |", cell(doc));
    }
    s.push('\n');
}

struct Links<'a> {
    enum_anchor: &'a [String],
    group_anchor: &'a [String],
}

impl Links<'_> {
    fn ty(&self, isa: &Isa, ty: &Ty) -> String {
        match ty {
            Ty::Uint => "uint".into(),
            Ty::UintSat => "uint-sat".into(),
            Ty::Int => "int".into(),
            Ty::Hex => "hex".into(),
            Ty::HexLit { unsigned: false, .. } => "hexlit".into(),
            Ty::HexLit { unsigned: true, .. } => "uhexlit".into(),
            Ty::Bool { on, inverted } => {
                let ty = if *inverted { "bool_inv" } else { "bool" };
                if on.is_empty() { ty.to_string() } else { format!("{ty} {}", code(on)) }
            }
            Ty::Offset => "offset".into(),
            Ty::UOffset => "uoffset".into(),
            Ty::Float { .. } => "float".into(),
            Ty::Enum(e) => format!("[{}](#{})", isa.enums[*e as usize].name, self.enum_anchor[*e as usize]),
            Ty::Group { group, .. } => {
                format!("[{}](#{})", isa.groups[*group as usize].name, self.group_anchor[*group as usize])
            }
        }
    }
}

/// `31:25, 11:8` for a field's pieces, most significant first.
fn bits_text(f: &Field) -> String {
    match f.src {
        Src::Bits(ranges) => ranges
            .iter()
            .map(|r| {
                let (lo, hi) = (r.lo as u32, r.lo as u32 + r.width as u32 - 1);
                if lo == hi { lo.to_string() } else { format!("{hi}:{lo}") }
            })
            .collect::<Vec<_>>()
            .join(", "),
        Src::Expr(_) => "derived".into(),
        Src::Param(_) => "param".into(),
    }
}

/// The diagram, the field table and the other forms of `leaf`'s encoding.
fn encoding(s: &mut String, isa: &Isa, leaf: &Leaf, layout: &[Segment], links: &Links, fixed: &[u16]) {
    let size = if leaf.min_bits != leaf.bits {
        format!("{} to {} bits", leaf.min_bits, leaf.bits)
    } else {
        format!("{} bits", leaf.bits)
    };
    let _ = writeln!(s, "{size}.\n\n```text\n{}```\n", diagram::render(layout, leaf.bits));
    if let Some(len) = leaf.length {
        let _ = writeln!(s, "Length in bits: `{}`.\n", expr_text(isa, leaf, leaf.default_case(), len));
    }
    let case = leaf.default_case();
    if !case.fields.is_empty() {
        s.push_str("| field | bits | type |\n|---|---|---|\n");
        for (i, f) in case.fields.iter().enumerate() {
            let mut ty = links.ty(isa, &f.ty);
            if let Src::Expr(e) = f.src {
                ty = format!("{ty} = {}", code(&expr_text(isa, leaf, case, e)));
            }
            if fixed.contains(&(i as u16)) {
                ty.push_str(" (opcode)");
            }
            let _ = writeln!(s, "| {} | {} | {ty} |", f.name, bits_text(f));
        }
        s.push('\n');
    }
    let mut forms = String::new();
    for c in leaf.cases.iter().take(leaf.cases.len().saturating_sub(1)) {
        let t = template(leaf, c);
        match c.when {
            Some(w) => {
                let _ = writeln!(forms, "- when {}: {}", code(&expr_text(isa, leaf, case, w)), code(&t));
            }
            None if c.parse_only => {
                let _ = writeln!(forms, "- also accepted{}: {}", pinned(isa, leaf, c), code(&t));
            }
            None => {}
        }
    }
    for r in leaf.requires {
        let _ = writeln!(forms, "- decodes only when {}", code(&expr_text(isa, leaf, case, r)));
    }
    for r in leaf.rules {
        let _ = writeln!(forms, "- rule: {} ({})", code(&expr_text(isa, leaf, case, r.check)), cell(r.message));
    }
    if !forms.is_empty() {
        let _ = writeln!(s, "{forms}");
    }
}

/// Fields of the default case that the leaves of a section fix (opcodes).
fn fixed_fields(isa: &Isa, leaves: &[u16]) -> Vec<u16> {
    let first = &isa.leaves[leaves[0] as usize];
    first
        .default_case()
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            let Src::Bits(ranges) = f.src else { return false };
            let m = ranges.iter().fold(0u128, |m, r| m | isa_runtime::mask_of(r.lo as u32, r.width as u32));
            leaves.iter().all(|&l| isa.leaves[l as usize].mask & m == m)
        })
        .map(|(i, _)| i as u16)
        .collect()
}

fn instruction_section(s: &mut String, isa: &Isa, sec: &Section, links: &Links) {
    let first = &isa.leaves[sec.leaves[0] as usize];
    let fixed = fixed_fields(isa, &sec.leaves);
    let _ = writeln!(s, "### {}\n", sec.title);
    if !first.doc.is_empty() && sec.leaves.len() == 1 {
        let _ = writeln!(s, "{}\n", first.doc.trim());
    }
    let syntax = unique(sec.leaves.iter().map(|&l| {
        let leaf = &isa.leaves[l as usize];
        template_with(leaf.default_case(), "{NAME}")
    }));
    if let [one] = syntax.as_slice() {
        let _ = writeln!(s, "Syntax: {}\n", code(one));
    }
    encoding(s, isa, first, &sec.layout, links, &fixed);
    let case = first.default_case();
    let mut head = String::from("| mnemonic |");
    for &f in &fixed {
        let _ = write!(head, " {} |", case.fields[f as usize].name);
    }
    head.push_str(" operands | generations | sched | flags |\n|---|");
    head.push_str(&"---|".repeat(fixed.len() + 4));
    s.push_str(&head);
    s.push('\n');
    // One row per mnemonic; its leaves differ by generation.
    let mut rows: IndexMap<&str, Vec<&Leaf>> = IndexMap::new();
    for &l in &sec.leaves {
        let leaf = &isa.leaves[l as usize];
        rows.entry(leaf.name).or_default().push(leaf);
    }
    for (name, leaves) in rows {
        let _ = write!(s, "| {} |", cell(name));
        for &f in &fixed {
            let field = &leaves[0].default_case().fields[f as usize];
            let Src::Bits(ranges) = field.src else { continue };
            let values: Vec<(u128, &Leaf)> = leaves.iter().map(|l| (extract(l.value, 0, ranges), *l)).collect();
            let text = if values.iter().all(|(v, _)| *v == values[0].0) {
                values[0].0.to_string()
            } else {
                values
                    .iter()
                    .map(|(v, l)| format!("{}: {v}", gen_range(isa.gens, l.gen_min, l.gen_max)))
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            let _ = write!(s, " {text} |");
        }
        let operands: Vec<String> = unique(leaves.iter().map(|l| operands(l)));
        let operands: Vec<String> = operands.iter().map(|t| code(t)).collect();
        let gmin = leaves.iter().map(|l| l.gen_min).min().unwrap_or(0);
        let gmax = leaves.iter().map(|l| l.gen_max).max().unwrap_or(u32::MAX);
        let sched: Vec<String> =
            unique(leaves.iter().filter_map(|l| l.sched).map(|c| isa.sched_classes[c as usize].name.to_string()));
        let flags: Vec<String> =
            unique(leaves.iter().flat_map(|l| l.flags.iter()).map(|&f| isa.flags[f as usize].to_string()));
        let _ = writeln!(
            s,
            " {} | {} | {} | {} |",
            operands.join("<br>"),
            gen_range(isa.gens, gmin, gmax),
            sched.join(", "),
            flags.join(", ")
        );
    }
    s.push('\n');
}

fn operand_group(s: &mut String, spec: &Spec, gi: u16, links: &Links, anchors: &mut Anchors) {
    let isa = spec.isa;
    let g = &isa.groups[gi as usize];
    let _ = writeln!(s, "### Operand `{}`\n\n{} bits.", g.name, g.bits);
    if !g.params.is_empty() {
        let ps: Vec<String> = g.params.iter().map(|p| format!("`{}` ({})", p.name, links.ty(isa, &p.ty))).collect();
        let _ = write!(s, " Takes from the enclosing instruction: {}.", ps.join(", "));
    }
    s.push_str("\n\n");
    for sec in sections(spec, gi) {
        let leaf = &isa.leaves[sec.leaves[0] as usize];
        let title = spec.lineage[sec.leaves[0] as usize][0].clone();
        anchors.next(&title);
        let gens = gen_range(isa.gens, leaf.gen_min, leaf.gen_max);
        let _ = writeln!(s, "#### {title}\n");
        let mut line = format!("Syntax: {}", code(&template(leaf, leaf.default_case())));
        if gens != "all" {
            let _ = write!(line, "; generations: {gens}");
        }
        if sec.leaves.len() > 1 {
            let others: Vec<String> =
                sec.leaves[1..].iter().map(|&l| code(spec.lineage[l as usize][0].as_str())).collect();
            let _ = write!(line, "; same layout: {}", others.join(", "));
        }
        let _ = writeln!(s, "{line}.\n");
        encoding(s, isa, leaf, &sec.layout, links, &[]);
    }
}

/// A case's template as text: fields as `{FIELD}`, the name as the mnemonic.
fn template(leaf: &Leaf, case: &Case) -> String {
    template_with(case, leaf.name)
}

/// What follows the mnemonic in the default template (the whole template
/// when it does not print the mnemonic).
fn operands(leaf: &Leaf) -> String {
    let t = template_with(leaf.default_case(), "\0");
    match t.split_once('\0') {
        Some((_, rest)) => rest.trim().to_string(),
        None => t,
    }
}

/// ", with `N = e`, ..." for the fields an `accepts:` entry's template
/// shows that the entry defines as expressions of its own (a constant its
/// text must spell, `(nop0)`), which the template alone does not tell; empty
/// when there are none.
fn pinned(isa: &Isa, leaf: &Leaf, entry: &Case) -> String {
    let default = leaf.default_case();
    let mut shown = Vec::new();
    for tok in entry.display {
        let (Tok::Field(i) | Tok::OptField(_, i, _)) = tok else { continue };
        let Some(f) = entry.fields.get(*i as usize) else { continue };
        let Src::Expr(e) = f.src else { continue };
        if default.fields.iter().any(|d| d.name == f.name && matches!(d.src, Src::Expr(de) if de == e)) {
            continue;
        }
        let text = format!("`{} = {}`", f.name, expr_text(isa, leaf, entry, e));
        if !shown.contains(&text) {
            shown.push(text);
        }
    }
    match shown.is_empty() {
        true => String::new(),
        false => format!(", with {}", shown.join(", ")),
    }
}

fn template_with(case: &Case, name: &str) -> String {
    let mut t = String::new();
    for tok in case.display {
        match tok {
            Tok::Lit(l) => t.push_str(l),
            Tok::Field(i) => {
                let _ = write!(t, "{{{}}}", case.fields.get(*i as usize).map_or("?", |f| f.name));
            }
            Tok::Name => t.push_str(name),
            Tok::Opt(o) => {
                let _ = write!(t, "{{?{o}}}");
            }
            Tok::OptField(o, i, _) => {
                let _ = write!(t, "{{?{o}{{{}}}}}", case.fields.get(*i as usize).map_or("?", |f| f.name));
            }
            // The mnemonic column prints as one space unless padding.
            Tok::Column => t.push(' '),
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(tag: &str, yaml: &str) -> Spec {
        let dir = std::env::temp_dir().join(format!("xtask-isa-doc-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("isa.yaml");
        std::fs::write(&path, yaml).unwrap();
        isa_codegen::load(&path).unwrap_or_else(|d| panic!("{d:?}"))
    }

    const SPLIT: &str = r#"
isa: split
instruction: inst
generations: [{name: v1, value: 1}, {name: v2, value: 2}]
bitsets:
  inst: {size: 16}
  br:
    extends: inst
    pattern: {0..1: "11"}
    fields:
      OPC: {bits: 2..4, type: uint}
      IMM: {bits: [15, 5..7, 8..14], type: int}
      OFF: {expr: IMM << 1, type: int}
    display: "{NAME} {OFF}"
instructions:
  - extends: br
    field: OPC
    opcodes: {jmp: {v1: 1, v2: 2}, call: 3}
"#;

    #[test]
    fn split_fields_per_generation_opcodes_and_derived_values() {
        let spec = load("split", SPLIT);
        let doc = render(&spec, &Context { inputs: "x/*.yaml", flag_docs: &[] });
        // The diagram names each piece of the split immediate by its value bits.
        assert!(doc.contains("| IMM[10] | IMM[6:0] | IMM[9:7] | OPC | 11  |"), "{doc}");
        assert!(doc.contains("| IMM | 15, 7:5, 14:8 | int |"), "{doc}");
        assert!(doc.contains("| OFF | derived | int = `IMM << 1` |"), "{doc}");
        // One row per mnemonic; a number per generation where it changes.
        assert!(doc.contains("| jmp | v1: 1<br>v2: 2 | `{OFF}` | all |  |  |"), "{doc}");
        assert!(doc.contains("| call | 3 | `{OFF}` | all |  |  |"), "{doc}");
        assert!(doc.contains("Syntax: `{NAME} {OFF}`"));
    }

    const PINNED: &str = r#"
isa: pinned
instruction: inst
bitsets:
  inst: {size: 16}
  alu:
    extends: inst
    pattern: {10..15: "xxxxxx"}
    fields:
      OPC: {bits: 0..3, type: uint}
      A: {bits: 4..5, type: uint}
      DST: {bits: 6..9, type: uint}
      NOP: {expr: A, type: uint}
    display: "(nop{NOP}) {NAME} {DST}, {A}"
    accepts:
      - display: "{NAME} {DST}, {A}"
        fields: {NOP: {expr: "0", type: uint}}
      - display: "(nop{NOP}) {NAME}.x {DST}, {A}"
      - display: "(nop{NOP}) {NAME}.z {DST}, {A}"
        fields: {NOP: {expr: "0", type: uint}}
instructions:
  - extends: alu
    field: OPC
    opcodes: {add: 1}
"#;

    /// An accepted spelling that fixes a field it shows says which value it
    /// fixes; one that only rewords the template says nothing more.
    #[test]
    fn accepted_spellings_name_the_values_they_fix() {
        let spec = load("pinned", PINNED);
        let doc = render(&spec, &Context { inputs: "x/*.yaml", flag_docs: &[] });
        assert!(doc.contains("- also accepted: `(nop{NOP}) add.x {DST}, {A}`"), "{doc}");
        // The entry without `(nop..)` does not show NOP, so nothing is said of it.
        assert!(doc.contains("- also accepted: `add {DST}, {A}`"), "{doc}");
        assert!(!doc.contains("with `NOP = 0`: `add {DST}, {A}`"), "{doc}");
        // The one that shows NOP and fixes it says to what.
        assert!(doc.contains("- also accepted, with `NOP = 0`: `(nop{NOP}) add.z {DST}, {A}`"), "{doc}");
    }

    /// Every opcode of every target appears as a row of its manual.
    #[test]
    fn every_opcode_is_in_its_manual() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let targets = crate::workspace::targets(root, crate::workspace::Kind::Isa).unwrap();
        assert!(targets.len() >= 2, "{targets:?}");
        for t in targets {
            let spec = isa_codegen::load(&root.join(&t.root)).unwrap_or_else(|d| panic!("{d:?}"));
            let doc = std::fs::read_to_string(root.join(format!("docs/isa/{}.md", t.name))).unwrap();
            let rows: std::collections::HashSet<&str> =
                doc.lines().filter_map(|l| l.strip_prefix("| ")?.split(" |").next()).collect();
            let mut missing: Vec<&str> = spec
                .isa
                .leaves
                .iter()
                .filter(|l| l.group == 0)
                .map(|l| l.name)
                .filter(|n| !rows.contains(*n))
                .collect();
            missing.dedup();
            assert!(missing.is_empty(), "{}: not in docs/isa/{}.md: {missing:?}", t.name, t.name);
        }
    }
}
