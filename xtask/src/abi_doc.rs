//! `docs/abi/<target>.md`: a target's shader ABI, one table per stage variant
//! in the manner of radeonsi's documentation of its user SGPRs, laid out for
//! the default parameter values (`isa abi` prints other values).

use std::fmt::Write;

use isa_runtime::abi::Abi;

use crate::markdown::cell;

/// The manual of `abi`; `inputs` names the spec files for the banner.
pub fn render(abi: &'static Abi, inputs: &str) -> String {
    let mut s = format!("<!-- {} -->\n\n# {} shader ABI reference\n\n", crate::banner(inputs), abi.name);
    if !abi.doc.is_empty() {
        let _ = writeln!(s, "{}\n", abi.doc);
    }
    if !abi.source.is_empty() {
        let _ = writeln!(s, "Source: {}\n", abi.source);
    }
    let _ = writeln!(
        s,
        "Generated from `{inputs}` (the language: [abi-language.md](../abi-language.md)). Each stage's \
         layout is shown for the default parameter values; \
         `isa abi --target {} --stage STAGE --param NAME=VALUE` prints it for others.\n",
        abi.name
    );
    if !abi.gens.is_empty() {
        let names: Vec<&str> = abi.gens.iter().map(|g| g.name).collect();
        let default = abi.gens.iter().find(|g| g.value == abi.default_gen).map_or("", |g| g.name);
        let _ = writeln!(s, "Generations: {} (tables for {default}).\n", names.join(", "));
    }
    if !abi.params.is_empty() {
        s.push_str("## Parameters\n\n| parameter | values | default | meaning |\n|---|---|---|---|\n");
        for p in abi.params {
            let _ = writeln!(s, "| {} | {}..={} | {} | {} |", p.name, p.min, p.max, p.default, cell(p.doc));
        }
        s.push('\n');
    }
    if !abi.files.is_empty() {
        s.push_str("## Register files\n\n| file | unit | units | meaning |\n|---|---|---|---|\n");
        for f in abi.files {
            let _ = writeln!(
                s,
                "| {} (`{}N`) | {} bits | {} | {} |",
                f.name,
                f.prefix,
                f.unit_bits,
                f.units_in(abi.default_gen),
                cell(f.doc)
            );
        }
        s.push('\n');
    }
    if !abi.stages.is_empty() {
        s.push_str("## Stages\n\n");
    }
    for st in abi.stages {
        let _ = writeln!(s, "### {}\n", st.name);
        if !st.doc.is_empty() {
            let _ = writeln!(s, "{}\n", st.doc.replace('\n', " "));
        }
        for v in st.variants {
            let table = match v.bind(abi, &[]).and_then(|vals| v.layout(abi, abi.default_gen, &vals)) {
                Ok(layout) => without_words(abi, &layout.table(abi, st.name)),
                Err(e) => {
                    format!("# {} {} / {}\n\nNo layout for the default parameters: {e}\n", abi.name, st.name, v.name)
                }
            };
            // The source is stated once, at the top.
            let table: String =
                table.lines().filter(|l| !l.starts_with("Source: ")).map(|l| format!("{l}\n")).collect();
            s.push_str(&demote(&table, 3));
        }
    }
    if !abi.words.is_empty() {
        s.push_str("## Packed words\n\n");
        for w in abi.words {
            s.push_str(&demote(&w.table(), 1));
        }
    }
    if !abi.slot_tables.is_empty() {
        s.push_str("## Descriptor slot tables\n\n");
        for t in abi.slot_tables {
            s.push_str(&demote(&t.table(), 1));
        }
    }
    while s.contains("\n\n\n") {
        s = s.replace("\n\n\n", "\n\n");
    }
    while s.ends_with("\n\n") {
        s.pop();
    }
    s
}

/// A layout table without the packed-word tables it appends (they are
/// written once, in their own section).
fn without_words(abi: &Abi, table: &str) -> String {
    let cut =
        abi.words.iter().filter_map(|w| table.find(&format!("\n## {} (", w.name))).min().map_or(table.len(), |i| i + 1);
    table[..cut].to_string()
}

/// Markdown headings pushed `by` levels down.
fn demote(text: &str, by: usize) -> String {
    let extra = "#".repeat(by);
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('#') {
            out.push_str(&extra);
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_move_down() {
        assert_eq!(demote("# a\ntext\n## b\n", 2), "### a\ntext\n#### b\n");
    }
}
