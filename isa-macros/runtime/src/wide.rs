//! Parameters too wide for a remembered operand's key that its text reads
//! only by comparing them with constants and by printing them as they are.
//!
//! A printer remembers an operand's text under its group, depth, word and
//! the values of the parameters it reads ([`crate::memo`]). A parameter too
//! wide for a key (GCN's literal dword, which an instruction passes to a
//! source and the source to its scalar form) made every such operand
//! printed from the tables, form search and all. Yet such a value is most
//! often read in two ways only: compared with constants in the forms'
//! conditions (a literal may not hold an inline constant's value) and
//! printed as it is (`{LIT}`). Between two neighbouring constants every one
//! of those comparisons has the same answer, so the form chosen, its case,
//! and every text but the value's own are the same: the operand's text is
//! a template, text with the value formatted into it. [`Wide`] finds, for
//! each parameter of a group, whether it is read so by every form of the
//! group and of the groups it passes the value on to unchanged, and the
//! constants that cut its values into those intervals; a value is then
//! keyed by the index of its interval.

use crate::intervals::cut_points;
use crate::tables::{Case, Expr, Group, Isa, Op, Src, Ty};

/// Most cut points a parameter may have: the index of its interval stands
/// for its value in a key, which holds a parameter in 12 bits, signed.
const MAX_CUTS: usize = 2000;

/// Nesting of computed fields followed when asking whether an expression
/// reads a parameter; deeper is taken as reading it.
const MAX_FIELD_DEPTH: u32 = 16;

/// By group, by parameter: where its intervals start, when the group's
/// operand texts read it only as the module documentation says.
#[derive(Default)]
pub(crate) struct Wide {
    groups: Vec<State>,
    /// By group: the parameters (bit `i` for parameter `i`, the first
    /// seven) that have cut points; `u8::MAX` while not looked at.
    with_cuts: Vec<u8>,
}

#[derive(Clone)]
enum State {
    Unseen,
    /// Being looked at: a group nested in itself takes its parameters as
    /// read any way.
    Building,
    Done(Box<[Option<Box<[i64]>>]>),
}

impl Wide {
    pub fn new(isa: &Isa) -> Wide {
        Wide { groups: vec![State::Unseen; isa.groups.len()], with_cuts: vec![u8::MAX; isa.groups.len()] }
    }

    /// The parameters of group `g` that [`Wide::cuts`] has cut points for
    /// (bit `i` for parameter `i`, the first seven).
    pub fn params(&mut self, isa: &Isa, g: u16) -> u8 {
        match self.with_cuts.get(g as usize) {
            Some(&m) if m != u8::MAX => m,
            Some(_) => {
                let n = isa.groups[g as usize].params.len().min(7) as u16;
                let m = (0..n).filter(|&p| self.cuts(isa, g, p).is_some()).fold(0, |m, p| m | 1 << p);
                self.with_cuts[g as usize] = m;
                m
            }
            None => 0,
        }
    }

    /// The cut points of parameter `p` of group `g` (ascending), when its
    /// operands' texts read it only by comparing it with constants and by
    /// printing it as it is; `None` otherwise.
    pub fn cuts(&mut self, isa: &Isa, g: u16, p: u16) -> Option<&[i64]> {
        analyse(isa, g as usize, &mut self.groups);
        match self.groups.get(g as usize)? {
            State::Done(by_param) => by_param.get(p as usize)?.as_deref(),
            _ => None,
        }
    }
}

/// The index of the interval `cuts` puts `v` in.
pub(crate) fn interval(cuts: &[i64], v: i64) -> i64 {
    cuts.partition_point(|&s| s <= v) as i64
}

fn analyse(isa: &Isa, g: usize, states: &mut [State]) {
    if !matches!(states.get(g), Some(State::Unseen)) {
        return;
    }
    states[g] = State::Building;
    let group = &isa.groups[g];
    let by_param = (0..group.params.len() as u16).map(|p| param_cuts(isa, group, p, states)).collect();
    states[g] = State::Done(by_param);
}

/// The cut points of parameter `p` of `group` (see [`Wide::cuts`]): the
/// comparisons of every leaf's conditions (its `requires`, its cases'
/// `when`) and of the groups it is passed on to unchanged.
fn param_cuts(isa: &Isa, group: &Group, p: u16, states: &mut [State]) -> Option<Box<[i64]>> {
    let mut cuts = Vec::new();
    for &l in group.leaves {
        let leaf = isa.leaves.get(l as usize)?;
        let default = leaf.cases.last()?;
        if leaf.length.is_some_and(|e| reads(default, e, p, 0)) {
            return None;
        }
        for &e in leaf.requires.iter().chain(leaf.cases.iter().filter_map(|c| c.when.as_ref())) {
            cuts.extend(compared(default, e, p)?);
        }
        for case in leaf.cases {
            for f in case.fields {
                let alias = match f.src {
                    Src::Param(q) => q == p,
                    Src::Expr(e) if reads(case, e, p, 0) => {
                        if passed(case, e) != Some(p) {
                            return None;
                        }
                        true
                    }
                    _ => false,
                };
                match f.ty {
                    Ty::Group { .. } if alias => return None,
                    Ty::Group { group: h, params } => {
                        for (k, &e) in params.iter().enumerate() {
                            if !reads(case, e, p, 0) {
                                continue;
                            }
                            if passed(case, e) != Some(p) {
                                return None;
                            }
                            analyse(isa, h as usize, states);
                            let State::Done(nested) = states.get(h as usize)? else { return None };
                            cuts.extend_from_slice(nested.get(k)?.as_deref()?);
                        }
                    }
                    Ty::Float { format: Some(e) } | Ty::HexLit { float: Some(e), .. } if reads(case, e, p, 0) => {
                        return None;
                    }
                    _ => {}
                }
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    (cuts.len() <= MAX_CUTS).then(|| cuts.into_boxed_slice())
}

/// Whether `op` is parameter `p`, or a field of `case` that is it.
fn is_param(case: &Case, op: Op, p: u16) -> bool {
    match op {
        Op::Param(q) => q == p,
        Op::Field(j) => matches!(case.fields.get(j as usize).map(|f| f.src), Some(Src::Param(q)) if q == p),
        _ => false,
    }
}

/// Whether `e`, in `case`, reads parameter `p`, directly or through the
/// fields it names.
fn reads(case: &Case, e: Expr, p: u16, depth: u32) -> bool {
    e.iter().any(|&op| {
        is_param(case, op, p)
            || match op {
                Op::Field(j) => match case.fields.get(j as usize).map(|f| f.src) {
                    Some(Src::Expr(inner)) => depth >= MAX_FIELD_DEPTH || reads(case, inner, p, depth + 1),
                    _ => false,
                },
                _ => false,
            }
    })
}

/// The parameter `e` is, when it is one parameter passed on unchanged
/// (`LIT`, or a field of `case` that is it).
pub(crate) fn passed(case: &Case, e: Expr) -> Option<u16> {
    match *e {
        [Op::Param(q)] => Some(q),
        [Op::Field(j)] => match case.fields.get(j as usize)?.src {
            Src::Param(q) => Some(q),
            _ => None,
        },
        _ => None,
    }
}

/// The cut points of `e`'s comparisons of parameter `p` (none when it does
/// not read it); `None` when it reads it otherwise, or through a computed
/// field.
fn compared(case: &Case, e: Expr, p: u16) -> Option<Vec<i64>> {
    if !reads(case, e, p, 0) {
        return Some(Vec::new());
    }
    let indirect = |&op: &Op| {
        matches!(op, Op::Field(j) if matches!(case.fields.get(j as usize).map(|f| f.src),
            Some(Src::Expr(inner)) if reads(case, inner, p, 0)))
    };
    if e.iter().any(indirect) {
        return None;
    }
    cut_points(e, |op| is_param(case, op, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{BinOp, Field};

    const P: Op = Op::Param(0);
    const W: Op = Op::Param(1);

    fn case(fields: &'static [Field]) -> Case {
        Case { when: None, display: &[], displays: &[], fields, parse_only: false, syntaxes: 0 }
    }

    #[test]
    fn a_value_compared_with_constants_is_cut_where_answers_change() {
        let c = case(&[]);
        // !(P <= 64 || (W == 1 && 0x3800 == P)) || P < 0
        let e: Expr = &[
            P,
            Op::Lit(64),
            Op::Bin(BinOp::Le),
            W,
            Op::Lit(1),
            Op::Bin(BinOp::Eq),
            Op::Lit(0x3800),
            P,
            Op::Bin(BinOp::Eq),
            Op::Bin(BinOp::And),
            Op::Bin(BinOp::Or),
            Op::Not,
            P,
            Op::Lit(0),
            Op::Bin(BinOp::Lt),
            Op::Bin(BinOp::Or),
        ];
        assert_eq!(compared(&c, e, 0), Some(vec![0, 65, 0x3800, 0x3801]));
        // W is compared too, but it is not the parameter asked about.
        assert_eq!(compared(&c, e, 1), Some(vec![1, 2]));
        let cuts = [0, 65, 0x3800, 0x3801];
        assert_eq!(
            [-5, 0, 64, 65, 0x37ff, 0x3800, 0x3801, 1 << 40].map(|v| interval(&cuts, v)),
            [0, 1, 1, 2, 2, 3, 4, 4]
        );
    }

    #[test]
    fn a_value_read_any_other_way_has_no_intervals() {
        static FIELDS: [Field; 2] = [
            Field { name: "LIT", src: Src::Param(0), ty: Ty::HexLit { float: None, unsigned: false } },
            Field { name: "LOW", src: Src::Expr(&[P, Op::Lit(0xffff), Op::Bin(BinOp::BitAnd)]), ty: Ty::Uint },
        ];
        let c = case(&FIELDS);
        // Masked, added, or compared with another value.
        for e in [
            &[P, Op::Lit(0xffff), Op::Bin(BinOp::BitAnd)][..],
            &[P, Op::Lit(1), Op::Bin(BinOp::Add)],
            &[P, W, Op::Bin(BinOp::Lt)],
        ] {
            assert_eq!(compared(&c, e, 0), None, "{e:?}");
        }
        // Through a field computed from it; but a field that is the parameter
        // is compared like it.
        assert_eq!(compared(&c, &[Op::Field(1), Op::Lit(3), Op::Bin(BinOp::Eq)], 0), None);
        assert_eq!(compared(&c, &[Op::Field(0), Op::Lit(3), Op::Bin(BinOp::Eq)], 0), Some(vec![3, 4]));
        assert_eq!(compared(&c, &[W, Op::Lit(3), Op::Bin(BinOp::Eq)], 0), Some(vec![]));
        assert_eq!(passed(&c, &[Op::Field(0)]), Some(0));
        assert_eq!(passed(&c, &[Op::Field(1)]), None);
        assert_eq!(passed(&c, &[W]), Some(1));
    }
}
