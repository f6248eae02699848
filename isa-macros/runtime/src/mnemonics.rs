//! Which instructions a line of assembly can be: an index from the names the
//! templates print to the leaves that print them.
//!
//! The assembler tries leaves in spec order and backtracks through their
//! templates, so trying every leaf of a large target (GCN has thousands) for
//! every line costs far more than matching the few that could fit. A leaf
//! whose every template writes its name cannot match a line that does not
//! contain the name, so the candidates are the leaves whose name occurs in
//! the line, found with one walk of a trie per position of the line. A
//! template that does not write the name (ir3's `mov.{SRC_TYPE}{DST_TYPE}`,
//! AGX's `imul` case of `imadd`) is keyed by the longest run of its literal
//! text with no space or comma in it, which the line must hold as written;
//! only a leaf with a template that writes neither is a candidate for every
//! line. Where no template writes a letter, digit or `_` straight before the
//! name, a name can only start a word of the line, so only those positions
//! are walked for names (a literal run is looked for everywhere). The index
//! is built once per target and syntax, on first use.

use crate::kept::Kept;
use crate::tables::{Case, Enum, Isa, Tok, Ty};

/// The candidates index of one syntax of one target.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// Trie nodes; node 0 is the root.
    nodes: Vec<Node>,
    /// Leaves with a template of this syntax that does not write the name:
    /// candidates for every line.
    always: Vec<u16>,
    /// Whether a name may follow a word character in the text (a template
    /// writes a field or a word character before it, or a name starts with
    /// another character): then every position of a line is walked.
    anywhere: bool,
    /// Whether some template is keyed by a literal run: then every position
    /// is walked for those.
    runs: bool,
}

#[derive(Debug, Default)]
struct Node {
    /// Edges sorted by byte.
    edges: Vec<(u8, u32)>,
    /// Leaves whose name ends here, in spec order.
    leaves: Vec<u16>,
    /// Leaves with a template keyed by the literal run that ends here: found
    /// at any position of a line.
    inner: Vec<u16>,
}

impl Index {
    pub(crate) fn build(isa: &Isa, syntax: u16) -> Index {
        let mut ix = Index { nodes: vec![Node::default()], always: Vec::new(), anywhere: false, runs: false };
        for leaf in isa.groups[0].leaves.iter().copied() {
            let l = &isa.leaves[leaf as usize];
            let applying = || l.cases.iter().filter(|c| c.applies_in(syntax));
            if applying().next().is_none() {
                continue;
            }
            let name = l.name_in(syntax);
            let named = |c: &&Case| !name.is_empty() && c.display_in(syntax).contains(&Tok::Name);
            // Every template must be found by some key, or the leaf is
            // tried on every line.
            if applying().any(|c| !named(&c) && keys(isa.enums, c, c.display_in(syntax)).is_none()) {
                ix.always.push(leaf);
                continue;
            }
            if applying().any(|c| named(&c)) {
                ix.anywhere |= !name.starts_with(is_word)
                    || applying().any(|c| named(&c) && glued_before_name(c.display_in(syntax)));
                let at = ix.insert(name.as_bytes());
                ix.nodes[at].leaves.push(leaf);
            }
            for c in applying().filter(|c| !named(c)) {
                for run in keys(isa.enums, c, c.display_in(syntax)).unwrap_or_default() {
                    ix.runs = true;
                    let at = ix.insert(run.as_bytes());
                    if ix.nodes[at].inner.last() != Some(&leaf) {
                        ix.nodes[at].inner.push(leaf);
                    }
                }
            }
        }
        ix.always.sort_unstable();
        ix
    }

    /// The node at the end of `name`'s path, made as needed.
    fn insert(&mut self, name: &[u8]) -> usize {
        let mut at = 0usize;
        for &b in name {
            let edges = &self.nodes[at].edges;
            at = match edges.binary_search_by_key(&b, |e| e.0) {
                Ok(i) => edges[i].1 as usize,
                Err(i) => {
                    let next = self.nodes.len();
                    self.nodes[at].edges.insert(i, (b, next as u32));
                    self.nodes.push(Node::default());
                    next
                }
            };
        }
        at
    }

    /// The leaves that may read `text`, in spec order, without repeats.
    pub(crate) fn candidates(&self, text: &str, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&self.always);
        let bytes = text.as_bytes();
        for start in 0..bytes.len() {
            let names = self.anywhere || start == 0 || !is_word(bytes[start - 1] as char);
            if !names && !self.runs {
                continue;
            }
            let mut at = 0usize;
            for &b in &bytes[start..] {
                let edges = &self.nodes[at].edges;
                match edges.binary_search_by_key(&b, |e| e.0) {
                    Ok(i) => at = edges[i].1 as usize,
                    Err(_) => break,
                }
                let node = &self.nodes[at];
                if names {
                    out.extend_from_slice(&node.leaves);
                }
                out.extend_from_slice(&node.inner);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Texts one of which every line `display` (a template of `case`) reads
/// holds as written: the longest run of its literal text, or of each
/// display of an enum field it always writes (Mesa's AGX `{GM}`, `simd` or
/// `quad`), whichever has the longer shortest key. `None` when it has
/// neither.
fn keys(enums: &[Enum], case: &Case, display: &[Tok]) -> Option<Vec<&'static str>> {
    let shortest = |k: &[&str]| k.iter().map(|s| s.len()).min().unwrap_or(0);
    let lits = display.iter().filter_map(|t| match t {
        Tok::Lit(s) => Some(*s),
        _ => None,
    });
    let mut best = first_longest(lits.filter_map(longest_run)).map(|r| vec![r]);
    for t in display {
        let Tok::Field(i) = *t else { continue };
        let Some(Ty::Enum(e)) = case.fields.get(i as usize).map(|f| f.ty) else { continue };
        let Some(en) = enums.get(e as usize).filter(|en| en.set.is_none() && !en.values.is_empty()) else {
            continue;
        };
        let Some(runs) = en.values.iter().map(|v| longest_run(v.display)).collect::<Option<Vec<_>>>() else {
            continue;
        };
        if shortest(&runs) > best.as_deref().map_or(0, shortest) {
            best = Some(runs);
        }
    }
    best
}

/// The longest run of `text` with no space or comma in it: text the
/// assembler reads as written (spaces may stretch and, with optional
/// commas, commas come and go).
fn longest_run(text: &'static str) -> Option<&'static str> {
    first_longest(text.split([' ', ',']).filter(|r| !r.is_empty()))
}

/// The first of the longest of `runs`: of runs as long, the one nearer the
/// template's start, where its name-like text is (ir3's `mova` rather than
/// the `a0.x` after it, which every relative operand prints, and which made
/// each line with one a candidate for every `mov`).
fn first_longest(runs: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    runs.fold(None, |best, r| match best {
        Some(b) if b.len() >= r.len() => Some(b),
        _ => Some(r),
    })
}

/// A letter, digit or `_`: what a name or a number is made of.
pub(crate) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `display` may write a word character straight before the name:
/// a field does, and so does literal text ending in one. Spaces (which the
/// assembler may read as none), the mnemonic column and text the assembler
/// may omit do not separate, so what comes before them counts as well.
fn glued_before_name(display: &[Tok]) -> bool {
    let Some(at) = display.iter().position(|t| *t == Tok::Name) else { return false };
    for t in display[..at].iter().rev() {
        match t {
            Tok::Column => {}
            Tok::Lit(s) => {
                if let Some(c) = s.trim_end().chars().last() {
                    return is_word(c);
                }
            }
            Tok::Opt(s) => {
                if s.trim_end().chars().last().is_some_and(is_word) {
                    return true;
                }
            }
            Tok::Field(_) | Tok::OptField(..) | Tok::Name => return true,
        }
    }
    false
}

/// Built indexes, by target and syntax.
static BUILT: Kept<Index> = Kept::new();

/// The index of `isa`'s syntax `syntax`, built on first use.
pub(crate) fn index(isa: &Isa, syntax: u16) -> &'static Index {
    BUILT.get(isa, syntax, || Index::build(isa, syntax))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tables::{EnumValue, Field, Src};

    fn case(display: &'static [Tok], fields: &'static [Field]) -> Case {
        Case { when: None, display, fields, parse_only: false, displays: &[], syntaxes: 0 }
    }

    #[test]
    fn a_template_without_the_name_is_keyed_by_text_it_always_writes() {
        static GROUP: [EnumValue; 2] =
            [EnumValue { value: 0, display: "simd" }, EnumValue { value: 1, display: "quad" }];
        static SHORT: [EnumValue; 2] = [EnumValue { value: 0, display: "" }, EnumValue { value: 1, display: "x" }];
        let enums = [
            Enum { name: "group", values: &GROUP, also: &[], set: None },
            Enum { name: "short", values: &SHORT, also: &[], set: None },
        ];
        static FIELDS: [Field; 3] = [
            Field { name: "G", src: Src::Expr(&[]), ty: Ty::Enum(0) },
            Field { name: "S", src: Src::Expr(&[]), ty: Ty::Enum(1) },
            Field { name: "N", src: Src::Expr(&[]), ty: Ty::Uint },
        ];
        // The longest run between spaces and commas of the literal text.
        let mov: &'static [Tok] = &[Tok::Field(2), Tok::Lit("mov.u32 r"), Tok::Field(2), Tok::Lit(", a0.x")];
        assert_eq!(keys(&enums, &case(mov, &FIELDS), mov), Some(vec!["mov.u32"]));
        // Of runs as long, the first: the name-like text, not an operand's
        // text that other instructions' lines hold as well (ir3's `mova`
        // and `a0.x`, the latter in every relative operand), in one
        // literal or across several.
        let mova: &'static [Tok] = &[Tok::Field(2), Tok::Lit("mova"), Tok::Field(2), Tok::Lit(" a0.x, ")];
        assert_eq!(keys(&enums, &case(mova, &FIELDS), mova), Some(vec!["mova"]));
        assert_eq!(longest_run("mova a0.x, "), Some("mova"));
        assert_eq!(longest_run("mov a0.x, "), Some("a0.x"), "a longer run still wins");
        // An enum field written every time: any of its displays, when they
        // are longer than the literal runs.
        let reduce: &'static [Tok] = &[Tok::Field(0), Tok::Column, Tok::Lit("r"), Tok::Field(2)];
        assert_eq!(keys(&enums, &case(reduce, &FIELDS), reduce), Some(vec!["simd", "quad"]));
        // A value written as nothing gives no key; an optional text none.
        let bare: &'static [Tok] = &[Tok::Field(1), Tok::Opt("_e32"), Tok::Field(2)];
        assert_eq!(keys(&enums, &case(bare, &FIELDS), bare), None);
        assert_eq!(longest_run(" , "), None);
    }

    #[test]
    fn a_name_is_glued_only_to_a_word_before_it() {
        assert!(!glued_before_name(&[Tok::Name, Tok::Lit(" "), Tok::Field(0)]));
        assert!(!glued_before_name(&[Tok::Lit("(sy)"), Tok::Name]));
        assert!(!glued_before_name(&[Tok::Lit("(rpt) "), Tok::Column, Tok::Name]));
        assert!(glued_before_name(&[Tok::Field(0), Tok::Name]), "a field's text may end in a letter");
        assert!(glued_before_name(&[Tok::Field(0), Tok::Lit(" "), Tok::Name]), "the space may be read as none");
        assert!(glued_before_name(&[Tok::Lit("h"), Tok::Name]));
        assert!(glued_before_name(&[Tok::Lit("("), Tok::Opt("x"), Tok::Name]), "the omittable text may be there");
        assert!(!glued_before_name(&[Tok::Lit("("), Tok::Opt(")"), Tok::Name]));
        assert!(!glued_before_name(&[Tok::Lit("x"), Tok::Field(0)]), "no name: nothing glued");
    }
}
