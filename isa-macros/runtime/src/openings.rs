//! The bytes an operand form's printed text can start with.
//!
//! Reading an operand in the printer's form tries the forms of its group in
//! turn. [`crate::forms`] knows the first byte of a form that opens with
//! literal text; a form that opens with a field (GCN's `{S}`, a scalar
//! source whose forms are registers, inline constants and the literal)
//! could start with anything as far as it knows, so every such form was
//! tried, each try binding its bits and conditions first. Here a form's
//! opening is worked out through its fields: digits for a number, the
//! first bytes of an enum's names, the openings of a nested group's forms;
//! a form whose text can be empty can start with anything.

use crate::tables::{Isa, Tok, Ty};

/// A set of bytes, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Opening([u64; 4]);

impl Opening {
    pub const NONE: Opening = Opening([0; 4]);
    pub const ANY: Opening = Opening([!0; 4]);

    pub fn has(&self, b: u8) -> bool {
        self.0[(b >> 6) as usize] >> (b & 63) & 1 != 0
    }

    fn add(&mut self, b: u8) {
        self.0[(b >> 6) as usize] |= 1 << (b & 63);
    }

    fn add_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(b);
        }
    }

    fn union(&mut self, o: Opening) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}

/// Deepest nesting of groups followed; past it a form may open with anything.
const MAX_NESTING: u32 = 8;

/// The openings of the forms of every group looked at so far, each in the
/// order [`crate::forms::Forms::of`] lists them.
#[derive(Debug, Default)]
pub(crate) struct Openings {
    by_group: Vec<Option<Box<[Opening]>>>,
}

impl Openings {
    /// Works out the openings of `group`'s forms in syntax `syntax`, once.
    pub fn prepare(&mut self, isa: &Isa, syntax: u16, group: u16) {
        if self.by_group.len() < isa.groups.len() {
            self.by_group.resize(isa.groups.len(), None);
        }
        if self.by_group[group as usize].is_none() {
            let (forms, _) = group_openings(isa, syntax, group, 0);
            self.by_group[group as usize] = Some(forms.into_boxed_slice());
        }
    }

    /// Whether form `i` of `group` (prepared by [`Openings::prepare`]) can
    /// start with `b`; true for what is not prepared.
    pub fn opens(&self, group: u16, i: usize, b: u8) -> bool {
        match self.by_group.get(group as usize) {
            Some(Some(forms)) => forms.get(i).is_none_or(|o| o.has(b)),
            _ => true,
        }
    }
}

/// Each form's opening, and the union of all (with whether some form's
/// text can be empty).
fn group_openings(isa: &Isa, syntax: u16, group: u16, nesting: u32) -> (Vec<Opening>, (Opening, bool)) {
    let forms = crate::forms::index(isa, syntax).of(group);
    if nesting > MAX_NESTING {
        return (vec![Opening::ANY; forms.len()], (Opening::ANY, true));
    }
    let mut all = (Opening::NONE, false);
    let each = forms
        .iter()
        .map(|f| {
            let leaf = &isa.leaves[f.leaf as usize];
            let (set, empty) = case_opening(isa, syntax, leaf, &leaf.cases[f.case as usize], nesting);
            all.0.union(set);
            all.1 |= empty;
            if empty { Opening::ANY } else { set }
        })
        .collect();
    (each, all)
}

/// The bytes text printed by `case` of `leaf` can start with, and whether
/// it can be empty.
fn case_opening(isa: &Isa, syntax: u16, leaf: &crate::Leaf, case: &crate::Case, nesting: u32) -> (Opening, bool) {
    let mut set = Opening::NONE;
    for tok in case.display_in(syntax) {
        let (s, empty) = match *tok {
            Tok::Lit(s) | Tok::Opt(s) | Tok::OptField(s, ..) if !s.is_empty() => (first(s), false),
            Tok::Lit(_) | Tok::Opt(_) => continue,
            Tok::Name => match leaf.name_in(syntax) {
                "" => continue,
                name => (first(name), false),
            },
            Tok::Column => (first(" "), false),
            Tok::Field(i) | Tok::OptField(_, i, _) => match case.fields.get(i as usize) {
                Some(f) => type_opening(isa, syntax, f.ty, nesting),
                None => (Opening::ANY, true),
            },
        };
        set.union(s);
        if !empty {
            return (set, false);
        }
    }
    (set, true)
}

/// The bytes a value of type `ty` is printed starting with, and whether it
/// can print nothing.
fn type_opening(isa: &Isa, syntax: u16, ty: Ty, nesting: u32) -> (Opening, bool) {
    let mut set = Opening::NONE;
    const DIGITS: &[u8] = b"0123456789";
    let empty = match ty {
        Ty::Uint | Ty::UintSat => {
            set.add_all(DIGITS);
            false
        }
        Ty::Int | Ty::Float { .. } => {
            set.add_all(DIGITS);
            set.add(b'-');
            false
        }
        Ty::Hex => {
            set.add_all(b"0123456789abcdefABCDEF");
            false
        }
        Ty::HexLit { .. } => {
            set.add(b'0');
            false
        }
        Ty::Bool { on, .. } => {
            set.add_all(&on.as_bytes()[..on.len().min(1)]);
            true
        }
        Ty::Offset => {
            set.add_all(b"+-");
            true
        }
        Ty::UOffset => {
            set.add(b'+');
            true
        }
        // An unnamed value prints as a number.
        Ty::Enum(e) => {
            let mut empty = false;
            for v in isa.enums[e as usize].values {
                match v.display.as_bytes().first() {
                    Some(&b) => set.add(b),
                    None => empty = true,
                }
            }
            set.add_all(DIGITS);
            set.add(b'-');
            empty
        }
        Ty::Group { group, .. } => {
            let (_, (all, empty)) = group_openings(isa, syntax, group, nesting + 1);
            set.union(all);
            empty
        }
    };
    (set, empty)
}

fn first(s: &str) -> Opening {
    let mut o = Opening::NONE;
    o.add_all(&s.as_bytes()[..1]);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_holds_what_was_added() {
        let mut o = Opening::NONE;
        o.add_all(b"az\x7f\xff");
        for b in 0..=255u8 {
            assert_eq!(o.has(b), b"az\x7f\xff".contains(&b), "{b}");
            assert!(Opening::ANY.has(b));
        }
        let mut u = first("q");
        u.union(o);
        assert!(u.has(b'q') && u.has(b'a') && !u.has(b'b'));
    }
}
