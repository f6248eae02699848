//! Small Markdown helpers shared by the reference manuals.

use std::collections::HashMap;

use isa_runtime::Gen;

/// Text safe inside a table cell: `|` escaped, line breaks joined.
pub fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Text as inline code inside a table cell (empty stays empty).
pub fn code(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let fence = if s.contains('`') { "``" } else { "`" };
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", cell(s))
}

/// Heading anchors as GitHub makes them, unique within one document.
#[derive(Default)]
pub struct Anchors {
    seen: HashMap<String, usize>,
}

impl Anchors {
    /// The anchor of the next heading with text `title`.
    pub fn next(&mut self, title: &str) -> String {
        let base: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let n = self.seen.entry(base.clone()).or_insert(0);
        let out = if *n == 0 { base.clone() } else { format!("{base}-{n}") };
        *n += 1;
        out
    }
}

/// The generations `min..=max` in the target's names: `all`, `a6xx`,
/// `a5xx–a6xx`, `gfx8+` (from then on).
pub fn gen_range(gens: &[Gen], min: u32, max: u32) -> String {
    let inside: Vec<&Gen> = gens.iter().filter(|g| min <= g.value && g.value <= max).collect();
    let (Some(first), Some(last)) = (inside.first(), inside.last()) else {
        return if gens.is_empty() { "all".into() } else { "none".into() };
    };
    let from_start = first.value == gens[0].value;
    let to_end = last.value == gens[gens.len() - 1].value;
    match (from_start, to_end) {
        (true, true) => "all".into(),
        (false, true) if inside.len() > 1 => format!("{}+", first.name),
        _ if inside.len() == 1 => first.name.to_string(),
        _ => format!("{}–{}", first.name, last.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENS: &[Gen] = &[
        Gen { name: "a", value: 1, aliases: &[] },
        Gen { name: "b", value: 2, aliases: &[] },
        Gen { name: "c", value: 3, aliases: &[] },
    ];

    #[test]
    fn generation_ranges_read_well() {
        assert_eq!(gen_range(GENS, 0, u32::MAX), "all");
        assert_eq!(gen_range(GENS, 2, u32::MAX), "b+");
        assert_eq!(gen_range(GENS, 3, u32::MAX), "c");
        assert_eq!(gen_range(GENS, 0, 2), "a–b");
        assert_eq!(gen_range(GENS, 2, 2), "b");
        assert_eq!(gen_range(&[], 0, u32::MAX), "all");
    }

    #[test]
    fn anchors_follow_github() {
        let mut a = Anchors::default();
        assert_eq!(a.next("cat2-2src (64 bits)"), "cat2-2src-64-bits");
        assert_eq!(a.next("ds_add_u32@gfx8"), "ds_add_u32gfx8");
        assert_eq!(a.next("cat2-2src (64 bits)"), "cat2-2src-64-bits-1");
    }

    #[test]
    fn cells_escape_pipes() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(code("v[0:1]"), "`v[0:1]`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code(""), "");
    }
}
