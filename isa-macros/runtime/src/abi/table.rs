//! Rendering a layout as a table, in the manner of radeonsi's documentation of
//! its user SGPRs: one row per argument, in register order, with the register,
//! the user-data register the driver writes, the size and the meaning.

use std::fmt::Write;

use super::{Abi, ArgKind, Layout, SlotTable, Word};

impl Layout {
    /// The layout as Markdown tables: one per block, then one per packed word
    /// the layout uses.
    pub fn table(&self, abi: &Abi, stage: &str) -> String {
        let v = self.variant;
        let mut s = format!("# {} {stage} / {}\n\n", abi.name, v.name);
        line(&mut s, &v.doc.replace('\n', " "));
        line(&mut s, &format!("Source: {}", abi.source));
        let params = v.describe(abi, self.gen_, &self.params);
        line(&mut s, &format!("Parameters: {params}"));
        let mut words: Vec<&Word> = Vec::new();
        for (bi, b) in v.blocks.iter().enumerate() {
            let file = &abi.files[b.file as usize];
            let _ = write!(s, "## {} (register file `{}`", b.name, file.name);
            if let Some(l) = b.limit {
                let _ = write!(s, ", at most {l} units");
            }
            if let Some(u) = &b.user_data {
                let _ = write!(s, ", user data {}_0 at {:#08x}", u.name, u.base);
            }
            s.push_str(")\n\n");
            if !b.doc.is_empty() {
                line(&mut s, &b.doc.replace('\n', " "));
            }
            let Some(Some(_)) = self.blocks.get(bi) else {
                line(&mut s, "Absent for these parameters.");
                continue;
            };
            let user = b.user_data.is_some();
            s.push_str(if user {
                "| register | offset | user data | bits | argument | meaning |\n|---|---|---|---|---|---|\n"
            } else {
                "| register | unit | bits | argument | meaning |\n|---|---|---|---|---|\n"
            });
            let mut rows: Vec<_> = self.entries.iter().filter(|e| e.block as usize == bi).collect();
            rows.sort_by_key(|e| e.place.unit);
            if rows.is_empty() {
                s.push_str(if user { "| | | | | (none) | |\n" } else { "| | | | (none) | |\n" });
            }
            for e in rows {
                let a = &b.args[e.arg as usize];
                let name = match e.index {
                    Some(i) => format!("{}[{i}]", a.name),
                    None => a.name.to_string(),
                };
                let mut meaning = match a.kind {
                    ArgKind::Value => String::new(),
                    ArgKind::Undefined => "(undefined) ".into(),
                    ArgKind::Reserved => "(reserved) ".into(),
                };
                meaning.push_str(&a.doc.replace('\n', " "));
                if let Some(w) = a.word {
                    let w = &abi.words[w as usize];
                    let _ = write!(meaning, " (packed: {})", w.name);
                    if !words.iter().any(|x| std::ptr::eq(*x, w)) {
                        words.push(w);
                    }
                }
                let reg = e.place.name();
                let _ = if user {
                    let ud = e.place.user_data_name().unwrap_or_default();
                    writeln!(s, "| {reg} | {} | {ud} | {} | {name} | {} |", e.place.offset, a.bits, meaning.trim())
                } else {
                    writeln!(s, "| {reg} | {} | {} | {name} | {} |", e.place.unit, a.bits, meaning.trim())
                };
            }
            s.push('\n');
        }
        for w in words {
            s.push_str(&w.table());
        }
        s
    }
}

impl Word {
    /// The word's fields as a Markdown table.
    pub fn table(&self) -> String {
        let mut s = format!("## {} ({} bits)\n\n", self.name, self.bits);
        if !self.doc.is_empty() {
            line(&mut s, &self.doc.replace('\n', " "));
        }
        for (r, a) in self.registers {
            line(&mut s, &format!("Register {r} at {a:#08x}."));
        }
        s.push_str("| bits | field | meaning |\n|---|---|---|\n");
        for f in self.fields {
            let hi = f.lo + f.width.max(1) - 1;
            let bits = if hi == f.lo { format!("{hi}") } else { format!("{hi}:{}", f.lo) };
            let _ = writeln!(s, "| {bits} | {} | {} |", f.name, f.doc.replace('\n', " "));
        }
        s.push('\n');
        s
    }
}

impl SlotTable {
    /// The table's slots as a Markdown table.
    pub fn table(&self) -> String {
        let mut s = format!("## {}\n\n", self.name);
        if !self.doc.is_empty() {
            line(&mut s, &self.doc.replace('\n', " "));
        }
        s.push_str("| slot | dwords | entry | meaning |\n|---|---|---|---|\n");
        for e in self.entries {
            for (i, slot) in e.slots().enumerate() {
                let name = if e.count.is_some() { format!("{}[{i}]", e.name) } else { e.name.to_string() };
                let _ = writeln!(s, "| {} | {} | {name} | {} |", slot.index, slot.dwords, e.doc.replace('\n', " "));
            }
        }
        s.push('\n');
        s
    }
}

fn line(s: &mut String, text: &str) {
    if !text.trim().is_empty() {
        s.push_str(text.trim());
        s.push_str("\n\n");
    }
}
