//! Conditions that compare one value with constants, and do nothing else
//! with it, read as a table of intervals.
//!
//! A condition such as "a literal may not hold an inline constant's value"
//! compares the literal with dozens of constants; interpreted, each
//! comparison costs a few operator dispatches, for every literal printed.
//! Between two neighbouring constants every one of those comparisons has the
//! same answer, so within each interval the condition reduces to what is
//! left once the answers are put in (most often a constant, or a short test
//! of something else such as the generation). Which interval a value is in
//! is a binary search.
//!
//! The generator finds such conditions ([`find`]); the engine uses the table
//! where it evaluates a form's conditions only for their answer (the
//! assembler, which also tracks which bits a condition reads, evaluates the
//! condition as written).

use crate::eval::{binop, stack_depth};
use crate::tables::{BinOp, Expr, Op};

/// Comparisons of one value that make a table worth its search: fewer are
/// as cheap interpreted.
pub const MIN_COMPARISONS: usize = 4;

/// A leaf's `requires` conjunct read by intervals of one value.
#[derive(Debug)]
pub struct Intervals {
    /// Which of the leaf's `requires` conjuncts this reads.
    pub conjunct: u16,
    /// The value compared: a field or a parameter.
    pub of: Op,
    /// Where each interval after the first starts, ascending (the first
    /// starts at `i64::MIN`).
    pub starts: &'static [i64],
    /// The conjunct within each interval, its comparisons of `of` answered:
    /// one more than `starts`.
    pub then: &'static [Expr],
}

impl Intervals {
    /// The conjunct for a value `v` of [`Intervals::of`]; `None` only for a
    /// malformed table (then the conjunct as written is evaluated).
    pub fn within(&self, v: i64) -> Option<Expr> {
        self.then.get(self.starts.partition_point(|&s| s <= v)).copied()
    }
}

/// What [`find`] found: [`Intervals`] before it is made static.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub of: Op,
    pub starts: Vec<i64>,
    pub then: Vec<Vec<Op>>,
}

/// The value of postfix `e` compares with constants most often, if it does
/// nothing else with that value and compares it at least
/// [`MIN_COMPARISONS`] times, with the condition left in each interval of
/// it. `None` otherwise, or for a malformed expression.
pub fn find(e: &[Op]) -> Option<Found> {
    let mut best: Option<(Op, usize)> = None;
    for (p, &op) in e.iter().enumerate() {
        if !matches!(op, Op::Field(_) | Op::Param(_)) || e[..p].contains(&op) {
            continue;
        }
        let uses: Vec<usize> = (p..e.len()).filter(|&i| e[i] == op).collect();
        if uses.iter().all(|&i| comparison_at(e, i).is_some()) && best.is_none_or(|(_, n)| uses.len() > n) {
            best = Some((op, uses.len()));
        }
    }
    let (of, n) = best?;
    if n < MIN_COMPARISONS {
        return None;
    }
    let starts = cut_points(e, |op| op == of)?;
    let then = std::iter::once(i64::MIN)
        .chain(starts.iter().copied())
        .map(|v| fold(&answered(e, of, v)?).filter(|r| stack_depth(r) <= crate::eval::MAX_STACK))
        .collect::<Option<Vec<_>>>()?;
    Some(Found { of, starts, then })
}

/// Where the intervals of a value start within which every comparison
/// `e` makes of it has the same answer (ascending, the first interval's
/// start `i64::MIN` left out): the value is each op `is_of` holds for (a
/// parameter, and the fields that are another name for it). `None` when
/// `e` reads it any other way than comparing it with a constant.
pub(crate) fn cut_points(e: &[Op], is_of: impl Fn(Op) -> bool) -> Option<Vec<i64>> {
    let mut starts: Vec<i64> = Vec::new();
    for i in (0..e.len()).filter(|&i| is_of(e[i])) {
        let (op, c) = comparison_at(e, i)?;
        let c = c as i128;
        let at: &[i128] = match op {
            BinOp::Eq | BinOp::Ne => &[c, c + 1],
            BinOp::Lt | BinOp::Ge => &[c],
            _ => &[c + 1], // Le, Gt
        };
        // A start at i64::MIN is the first interval's own; one past
        // i64::MAX is no value.
        starts.extend(at.iter().filter(|&&s| s > i64::MIN as i128 && s <= i64::MAX as i128).map(|&s| s as i64));
    }
    starts.sort_unstable();
    starts.dedup();
    Some(starts)
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
}

/// The comparison the value at `e[p]` is an operand of, as `value op c`,
/// when its other operand is a constant.
fn comparison_at(e: &[Op], p: usize) -> Option<(BinOp, i64)> {
    match (p.checked_sub(1).map(|q| e[q]), e.get(p + 1), e.get(p + 2)) {
        (_, Some(&Op::Lit(c)), Some(&Op::Bin(op))) if is_comparison(op) => Some((op, c)),
        (Some(Op::Lit(c)), Some(&Op::Bin(op)), _) if is_comparison(op) => Some((
            match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Le => BinOp::Ge,
                BinOp::Gt => BinOp::Lt,
                BinOp::Ge => BinOp::Le,
                same => same,
            },
            c,
        )),
        _ => None,
    }
}

/// `e` with each comparison of `of` replaced by its answer for `v`.
fn answered(e: &[Op], of: Op, v: i64) -> Option<Vec<Op>> {
    let mut out = Vec::with_capacity(e.len());
    let mut i = 0;
    while i < e.len() {
        match (e[i], e.get(i + 1), e.get(i + 2)) {
            (Op::Lit(c), Some(&x), Some(&Op::Bin(op))) if x == of && is_comparison(op) => {
                out.push(Op::Lit(binop(op, c, v)));
                i += 3;
            }
            (x, Some(&Op::Lit(c)), Some(&Op::Bin(op))) if x == of && is_comparison(op) => {
                out.push(Op::Lit(binop(op, v, c)));
                i += 3;
            }
            (x, _, _) if x == of => return None,
            (op, _, _) => {
                out.push(op);
                i += 1;
            }
        }
    }
    Some(out)
}

/// A part of a postfix expression being folded: its ops, its value when
/// it is a constant, and whether it is 0 or 1 whatever it reads.
struct Part {
    ops: Vec<Op>,
    value: Option<i64>,
    truth: bool,
}

impl Part {
    fn constant(v: i64) -> Part {
        Part { ops: vec![Op::Lit(v)], value: Some(v), truth: v == 0 || v == 1 }
    }

    /// This part as 0 or 1 (`x != 0`), as `&&` and `||` read their operands.
    fn truth(mut self) -> Part {
        if !self.truth {
            self.ops.extend([Op::Lit(0), Op::Bin(BinOp::Ne)]);
            self.truth = true;
        }
        self
    }
}

/// Postfix `e` with its constant parts computed: `0 && x` is 0 and
/// `1 && x` is `x != 0` (reading a field or a parameter has no effect but
/// its value), `c ? a : b` with `c` known is `a` or `b`. `None` for a
/// malformed expression.
fn fold(e: &[Op]) -> Option<Vec<Op>> {
    let mut stack: Vec<Part> = Vec::new();
    for &op in e {
        let part = match op {
            Op::Lit(v) => Part::constant(v),
            Op::Field(_) | Op::Param(_) | Op::Gen => Part { ops: vec![op], value: None, truth: false },
            Op::Not | Op::Neg | Op::BitNot => {
                let mut a = stack.pop()?;
                match a.value {
                    Some(v) => Part::constant(match op {
                        Op::Not => (v == 0) as i64,
                        Op::Neg => v.wrapping_neg(),
                        _ => !v,
                    }),
                    None => {
                        a.ops.push(op);
                        Part { ops: a.ops, value: None, truth: op == Op::Not }
                    }
                }
            }
            Op::Bin(op) => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                match (op, a.value, b.value) {
                    (_, Some(x), Some(y)) => Part::constant(binop(op, x, y)),
                    (BinOp::And, Some(0), _) | (BinOp::And, _, Some(0)) => Part::constant(0),
                    (BinOp::Or, Some(x), _) | (BinOp::Or, _, Some(x)) if x != 0 => Part::constant(1),
                    (BinOp::And, Some(_), None) | (BinOp::Or, Some(_), None) => b.truth(),
                    (BinOp::And, None, Some(_)) | (BinOp::Or, None, Some(_)) => a.truth(),
                    _ => {
                        let mut ops = a.ops;
                        ops.extend(b.ops);
                        ops.push(Op::Bin(op));
                        let truth = is_comparison(op) || matches!(op, BinOp::And | BinOp::Or);
                        Part { ops, value: None, truth }
                    }
                }
            }
            Op::Select => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                let c = stack.pop()?;
                match c.value {
                    Some(v) => {
                        if v != 0 {
                            a
                        } else {
                            b
                        }
                    }
                    None => {
                        let truth = a.truth && b.truth;
                        let mut ops = c.ops;
                        ops.extend(a.ops);
                        ops.extend(b.ops);
                        ops.push(Op::Select);
                        Part { ops, value: None, truth }
                    }
                }
            }
        };
        stack.push(part);
    }
    match stack.pop() {
        Some(p) if stack.is_empty() => Some(p.ops),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::BinOp::*;

    const X: Op = Op::Param(0);
    const W: Op = Op::Param(1);

    /// Postfix `e` with the parameters' values from `params` and the
    /// generation `gen_`.
    fn value(e: &[Op], params: [i64; 2], gen_: i64) -> i64 {
        let mut operand = |op| match op {
            Op::Param(i) => params.get(i as usize).copied(),
            Op::Gen => Some(gen_),
            _ => None,
        };
        crate::eval::value(e, &mut operand).expect("one value")
    }

    /// `!(X <= 64 || (W == 1 && (X >= 0xfff0 || X == 0x3800 || 0xb800 == X
    /// || (gen >= 8 && X == 0x3118))))`, the shape of a literal's rule.
    fn literal_rule() -> Vec<Op> {
        vec![
            X,
            Op::Lit(64),
            Op::Bin(Le),
            W,
            Op::Lit(1),
            Op::Bin(Eq),
            X,
            Op::Lit(0xfff0),
            Op::Bin(Ge),
            X,
            Op::Lit(0x3800),
            Op::Bin(Eq),
            Op::Bin(Or),
            Op::Lit(0xb800),
            X,
            Op::Bin(Eq),
            Op::Bin(Or),
            Op::Gen,
            Op::Lit(8),
            Op::Bin(Ge),
            X,
            Op::Lit(0x3118),
            Op::Bin(Eq),
            Op::Bin(And),
            Op::Bin(Or),
            Op::Bin(And),
            Op::Bin(Or),
            Op::Not,
        ]
    }

    #[test]
    fn a_literal_rule_is_cut_at_its_constants() {
        let f = find(&literal_rule()).expect("five comparisons of X");
        assert_eq!(f.of, X);
        assert_eq!(f.starts, [65, 0x3118, 0x3119, 0x3800, 0x3801, 0xb800, 0xb801, 0xfff0]);
        // Above 64 and away from the constants the rule holds whatever W
        // and gen are; at 0x3118 it depends on both; at most 64 it fails.
        assert_eq!(f.then[0], [Op::Lit(0)]);
        assert_eq!(f.then[1], [Op::Lit(1)]);
        assert_eq!(f.then[3], [Op::Lit(1)]);
        assert_eq!(f.then[2], [W, Op::Lit(1), Op::Bin(Eq), Op::Gen, Op::Lit(8), Op::Bin(Ge), Op::Bin(And), Op::Not]);
        assert_eq!(f.then[8], [W, Op::Lit(1), Op::Bin(Eq), Op::Not]);
    }

    /// Each interval's condition is the whole condition's value at every
    /// start, beside it, and at the extremes, for every value of the rest.
    fn check_everywhere(e: &[Op]) {
        let f = find(e).expect("a table");
        let mut probes = vec![i64::MIN, i64::MIN + 1, i64::MAX, -1, 0, 1];
        for &s in &f.starts {
            probes.extend([s.wrapping_sub(1), s, s.saturating_add(1)]);
        }
        for x in probes {
            let within = &f.then[f.starts.partition_point(|&s| s <= x)];
            for w in [-1, 0, 1, 2, 64] {
                for g in [0, 7, 8, 9] {
                    assert_eq!(value(within, [x, w], g), value(e, [x, w], g), "X = {x:#x}, W = {w}, gen = {g}");
                }
            }
        }
    }

    #[test]
    fn every_interval_answers_as_the_whole_condition() {
        check_everywhere(&literal_rule());
        // Comparisons on both sides, at the extremes, under a select.
        let e = [
            X,
            Op::Lit(i64::MAX),
            Op::Bin(Le),
            Op::Lit(i64::MIN),
            X,
            Op::Bin(Lt),
            Op::Bin(And),
            W,
            X,
            Op::Lit(-5),
            Op::Bin(Gt),
            Op::Lit(7),
            X,
            Op::Bin(Ne),
            Op::Select,
            Op::Bin(BitXor),
            X,
            Op::Lit(i64::MAX),
            Op::Bin(Eq),
            Op::Bin(Or),
        ];
        check_everywhere(&e);
    }

    #[test]
    fn a_value_used_otherwise_is_not_cut() {
        // X + 1 reads X other than in a comparison.
        let mut e = literal_rule();
        e.extend([X, Op::Lit(1), Op::Bin(Add), Op::Bin(And)]);
        assert_eq!(find(&e), None);
        // Three comparisons are not worth a table.
        let e = [
            X,
            Op::Lit(1),
            Op::Bin(Eq),
            X,
            Op::Lit(2),
            Op::Bin(Eq),
            Op::Bin(Or),
            X,
            Op::Lit(3),
            Op::Bin(Eq),
            Op::Bin(Or),
        ];
        assert_eq!(find(&e), None);
        // Malformed: an operator short of operands.
        let mut e = literal_rule();
        e.insert(0, Op::Bin(And));
        assert_eq!(find(&e), None);
    }
}
