//! Which instructions a line of assembly can be: an index from the names the
//! templates print to the leaves that print them.
//!
//! The assembler tries leaves in spec order and backtracks through their
//! templates, so trying every leaf of a large target (GCN has thousands) for
//! every line costs far more than matching the few that could fit. A leaf
//! whose every template writes its name cannot match a line that does not
//! contain the name, so the candidates are the leaves whose name occurs in
//! the line, found with one walk of a trie per position of the line, plus the
//! few leaves with a template that does not write the name. Where no
//! template writes a letter, digit or `_` straight before the name, a name
//! can only start a word of the line, so only those positions are walked.
//! The index is built once per target and syntax, on first use.

use std::sync::{OnceLock, RwLock};

use crate::tables::{Isa, Tok};

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
}

#[derive(Debug, Default)]
struct Node {
    /// Edges sorted by byte.
    edges: Vec<(u8, u32)>,
    /// Leaves whose name ends here, in spec order.
    leaves: Vec<u16>,
}

impl Index {
    pub(crate) fn build(isa: &Isa, syntax: u16) -> Index {
        let mut ix = Index { nodes: vec![Node::default()], always: Vec::new(), anywhere: false };
        for leaf in isa.groups[0].leaves.iter().copied() {
            let l = &isa.leaves[leaf as usize];
            let applying = || l.cases.iter().filter(|c| c.applies_in(syntax));
            if applying().next().is_none() {
                continue;
            }
            let name = l.name_in(syntax);
            if name.is_empty() || applying().any(|c| !c.display_in(syntax).contains(&Tok::Name)) {
                ix.always.push(leaf);
            } else {
                ix.anywhere |=
                    !name.starts_with(is_word) || applying().any(|c| glued_before_name(c.display_in(syntax)));
                ix.insert(name.as_bytes(), leaf);
            }
        }
        ix.always.sort_unstable();
        ix
    }

    fn insert(&mut self, name: &[u8], leaf: u16) {
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
        self.nodes[at].leaves.push(leaf);
    }

    /// The leaves that may read `text`, in spec order, without repeats.
    pub(crate) fn candidates(&self, text: &str, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&self.always);
        let bytes = text.as_bytes();
        for start in 0..bytes.len() {
            if !self.anywhere && start > 0 && is_word(bytes[start - 1] as char) {
                continue;
            }
            let mut at = 0usize;
            for &b in &bytes[start..] {
                let edges = &self.nodes[at].edges;
                match edges.binary_search_by_key(&b, |e| e.0) {
                    Ok(i) => at = edges[i].1 as usize,
                    Err(_) => break,
                }
                out.extend_from_slice(&self.nodes[at].leaves);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

fn is_word(c: char) -> bool {
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

/// Built indexes, by target and syntax. Targets are few and live for the
/// whole program, so an index, once built, is kept (leaked) for good.
/// The key is the target's address and its leaves' (a target is static, or
/// leaked by the generator's tests), and the syntax.
type Cache = RwLock<Vec<((usize, usize, u16), &'static Index)>>;

static CACHE: OnceLock<Cache> = OnceLock::new();

/// The index of `isa`'s syntax `syntax`, built on first use.
pub(crate) fn index(isa: &Isa, syntax: u16) -> &'static Index {
    let key = (isa as *const Isa as usize, isa.leaves.as_ptr() as usize, syntax);
    let cache = CACHE.get_or_init(Cache::default);
    let found = |v: &[((usize, usize, u16), &'static Index)]| v.iter().find(|e| e.0 == key).map(|e| e.1);
    if let Some(ix) = found(&cache.read().unwrap_or_else(|e| e.into_inner())) {
        return ix;
    }
    let mut w = cache.write().unwrap_or_else(|e| e.into_inner());
    if let Some(ix) = found(&w) {
        return ix;
    }
    let ix: &'static Index = Box::leak(Box::new(Index::build(isa, syntax)));
    w.push((key, ix));
    ix
}

#[cfg(test)]
mod tests {
    use super::*;

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
