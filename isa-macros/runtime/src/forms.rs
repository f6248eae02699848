//! The operand forms the assembler tries for a group, per syntax: each
//! form's leaf and case in the order the spec gives them, the generations
//! it exists in, and the byte its text must start with.
//!
//! Reading an operand tries the forms of its group in order, and most fail
//! on their first letter: a GCN source has dozens of forms (`v`, `s`,
//! `ttmp`, `vcc`, each inline constant...), a line reads a few operands, and
//! three form tries in four end there. Those tries cost the bookkeeping of
//! a try (saving the solver's state, binding the form's bits, restoring)
//! before the letter is compared; with the letter known beforehand, they
//! cost one comparison. The list is built once per target and syntax, on
//! first use.

use crate::kept::Kept;
use crate::tables::{Isa, Tok};

/// One form of a group in one syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub leaf: u16,
    pub case: u16,
    /// The generations the leaf exists in.
    pub gen_min: u32,
    pub gen_max: u32,
    /// The byte the case's template starts with, when it starts with
    /// literal text (or the name) whose first byte is neither a space nor a
    /// comma, which a reading matches as written; else 0: any text may
    /// open it.
    pub first: u8,
    /// That literal text (or name), trimmed: what a line that does not
    /// open the form was expected to have (see `Parser::opens`).
    pub opening: &'static str,
}

impl Form {
    /// Whether the form exists in generation `gen_` (as
    /// [`crate::Leaf::exists_in`]).
    pub fn exists_in(&self, gen_: u32) -> bool {
        self.gen_min <= gen_ && gen_ <= self.gen_max
    }
}

/// The forms of every group of one syntax of a target.
#[derive(Debug, Default)]
pub(crate) struct Forms {
    /// By group: where its forms start in `forms`, and end (the next start).
    starts: Vec<u32>,
    forms: Vec<Form>,
}

impl Forms {
    fn build(isa: &Isa, syntax: u16) -> Forms {
        let mut f = Forms { starts: Vec::with_capacity(isa.groups.len() + 1), forms: Vec::new() };
        for group in isa.groups {
            f.starts.push(f.forms.len() as u32);
            for &l in group.leaves {
                let leaf = &isa.leaves[l as usize];
                for (ci, case) in leaf.cases.iter().enumerate().filter(|(_, c)| c.applies_in(syntax)) {
                    let opening = match case.display_in(syntax).first() {
                        Some(Tok::Lit(s)) => s,
                        Some(Tok::Name) => leaf.name_in(syntax),
                        _ => "",
                    };
                    let first = match opening.as_bytes().first() {
                        Some(&b) if b != b' ' && b != b',' => b,
                        _ => 0,
                    };
                    f.forms.push(Form {
                        leaf: l,
                        case: ci as u16,
                        gen_min: leaf.gen_min,
                        gen_max: leaf.gen_max,
                        first,
                        opening: opening.trim(),
                    });
                }
            }
        }
        f.starts.push(f.forms.len() as u32);
        f
    }

    /// The forms of group `g`, in order.
    pub fn of(&self, g: u16) -> &[Form] {
        let (Some(&a), Some(&b)) = (self.starts.get(g as usize), self.starts.get(g as usize + 1)) else {
            return &[];
        };
        self.forms.get(a as usize..b as usize).unwrap_or(&[])
    }
}

static BUILT: Kept<Forms> = Kept::new();

/// The forms of `isa`'s syntax `syntax`, built on first use.
pub(crate) fn index(isa: &Isa, syntax: u16) -> &'static Forms {
    BUILT.get(isa, syntax, || Forms::build(isa, syntax))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{Case, Group, Leaf};

    const fn case(display: &'static [Tok], syntaxes: u32) -> Case {
        Case { when: None, display, fields: &[], parse_only: false, displays: &[], syntaxes }
    }

    const fn leaf(name: &'static str, cases: &'static [Case], gens: (u32, u32)) -> Leaf {
        Leaf {
            key: name,
            name,
            group: 1,
            bits: 8,
            min_bits: 8,
            length: None,
            gen_min: gens.0,
            gen_max: gens.1,
            mask: 0,
            value: 0,
            dontcare: 0,
            cases,
            requires: &[],
            intervals: &[],
            ignore: &[],
            rules: &[],
            sched: None,
            flags: &[],
            doc: "",
            names: &[],
            name_suffix: "",
        }
    }

    /// Group 1's forms: `v{0}`; `{0}`; `{NAME}` (`vcc`, generations 2 to
    /// 3); ` off`, `,x` and an empty literal; a leaf with one case of
    /// syntax 0 only and one of every syntax.
    static LEAVES: [Leaf; 6] = [
        leaf("top", &[case(&[Tok::Name], 0)], (0, 9)),
        leaf("v", &[case(&[Tok::Lit("v"), Tok::Field(0)], 0), case(&[Tok::Field(0)], 0)], (0, 9)),
        leaf("vcc", &[case(&[Tok::Name], 0)], (2, 3)),
        leaf("off", &[case(&[Tok::Lit(" off")], 0), case(&[Tok::Lit(",x")], 0)], (0, 9)),
        leaf("none", &[case(&[Tok::Lit("")], 0)], (0, 9)),
        leaf("syn", &[case(&[Tok::Lit("a")], 1 << 0), case(&[Tok::Lit("b")], 0)], (0, 9)),
    ];
    static GROUPS: [Group; 2] = [
        Group { name: "top", bits: 8, leaves: &[0], params: &[] },
        Group { name: "src", bits: 8, leaves: &[1, 2, 3, 4, 5], params: &[] },
    ];
    static ISA: Isa = Isa::for_tests("forms-test", &GROUPS, &LEAVES);

    fn form(leaf: u16, case: u16, gens: (u32, u32), (first, opening): (u8, &'static str)) -> Form {
        Form { leaf, case, gen_min: gens.0, gen_max: gens.1, first, opening }
    }

    #[test]
    fn forms_keep_spec_order_and_know_their_first_letter() {
        let all = (0, 9);
        let f = Forms::build(&ISA, 0);
        assert_eq!(f.of(0), &[form(0, 0, all, (b't', "top"))]);
        assert_eq!(
            f.of(1),
            &[
                form(1, 0, all, (b'v', "v")),
                // A field first: any text may open it.
                form(1, 1, all, (0, "")),
                // The name first: its letter.
                form(2, 0, (2, 3), (b'v', "vcc")),
                // A space or a comma first reads white space or nothing (its
                // opening text, trimmed, is what was expected).
                form(3, 0, all, (0, "off")),
                form(3, 1, all, (0, ",x")),
                form(4, 0, all, (0, "")),
                form(5, 0, all, (b'a', "a")),
                form(5, 1, all, (b'b', "b")),
            ]
        );
        assert!(f.of(1)[2].exists_in(3) && !f.of(1)[2].exists_in(4) && !f.of(1)[2].exists_in(1));
        // Syntax 1: the case of syntax 0 alone is not a form.
        let f = Forms::build(&ISA, 1);
        assert_eq!(f.of(1).iter().filter(|x| x.leaf == 5).map(|x| x.first).collect::<Vec<_>>(), [b'b']);
        assert_eq!(f.of(2), &[], "no such group");
    }
}
