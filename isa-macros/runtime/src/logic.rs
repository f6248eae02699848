//! Conditions evaluated with short circuits.
//!
//! The engine's expressions are postfix without jumps, so `A || B` evaluates
//! both sides. A rule is often a long chain of them: GCN's constant-bus rule
//! for three sources asks whether at most one is a scalar value, *or* else
//! whether each two scalar sources are the same (some 300 operators in all),
//! and most instructions answer the first question. An assembler checks its
//! rules on every line it reads, so it keeps each as a [`Logic`]: the tree
//! of its top-level `||` and `&&` chains ([`crate::parse::disjuncts`],
//! [`crate::parse::conjuncts`]), whose operands are evaluated in order only
//! until the answer is known. Evaluating has no effect but its value, so the
//! answer is the whole expression's.

use crate::parse::{conjuncts, disjuncts};
use crate::tables::Expr;

/// An expression as `||` and `&&` chains over expressions evaluated whole.
#[derive(Debug)]
pub(crate) enum Logic {
    /// Holds when the expression is not zero.
    Leaf(Expr),
    /// Holds when one of them does.
    Any(Box<[Logic]>),
    /// Holds when all of them do.
    All(Box<[Logic]>),
}

impl Logic {
    /// The chains of `e` (a lone operand of either is a [`Logic::Leaf`]).
    pub(crate) fn of(e: Expr) -> Logic {
        let mut parts = Vec::new();
        disjuncts(e, &mut parts);
        if parts.len() > 1 {
            return Logic::Any(parts.into_iter().map(Logic::all_of).collect());
        }
        Logic::all_of(e)
    }

    /// The `&&` chain of `e`, whose operands may be `||` chains.
    fn all_of(e: Expr) -> Logic {
        let mut parts = Vec::new();
        conjuncts(e, &mut parts);
        if parts.len() > 1 {
            return Logic::All(parts.into_iter().map(Logic::of).collect());
        }
        Logic::Leaf(e)
    }

    /// Whether it holds, each leaf evaluated by `eval` as it is reached.
    pub(crate) fn holds(&self, eval: &mut impl FnMut(Expr) -> i64) -> bool {
        match self {
            Logic::Leaf(e) => eval(e) != 0,
            Logic::Any(v) => v.iter().any(|l| l.holds(eval)),
            Logic::All(v) => v.iter().all(|l| l.holds(eval)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::value;
    use crate::tables::{BinOp, Op};

    fn leak(ops: Vec<Op>) -> Expr {
        Box::leak(ops.into_boxed_slice())
    }

    /// `F0 < n` in postfix.
    fn below(f: u16, n: i64) -> Vec<Op> {
        vec![Op::Field(f), Op::Lit(n), Op::Bin(BinOp::Lt)]
    }

    fn bin(a: Vec<Op>, b: Vec<Op>, op: BinOp) -> Vec<Op> {
        let mut e = a;
        e.extend(b);
        e.push(Op::Bin(op));
        e
    }

    /// Expressions of nested chains, mixed with operators that are not
    /// chains (a `!` over a chain, a sum of comparisons).
    fn samples() -> Vec<Expr> {
        let (a, b, c) = (below(0, 2), below(1, 3), below(2, 1));
        let or = |x: Vec<Op>, y: Vec<Op>| bin(x, y, BinOp::Or);
        let and = |x: Vec<Op>, y: Vec<Op>| bin(x, y, BinOp::And);
        let not = |mut x: Vec<Op>| {
            x.push(Op::Not);
            x
        };
        let sum = bin(bin(a.clone(), b.clone(), BinOp::Add), vec![Op::Lit(1)], BinOp::Le);
        vec![
            leak(a.clone()),
            leak(or(a.clone(), b.clone())),
            leak(and(a.clone(), b.clone())),
            leak(or(or(a.clone(), b.clone()), c.clone())),
            leak(or(a.clone(), and(b.clone(), c.clone()))),
            leak(and(or(a.clone(), b.clone()), or(c.clone(), not(a.clone())))),
            leak(or(sum.clone(), and(and(a.clone(), not(b.clone())), or(c.clone(), b.clone())))),
            leak(not(or(a.clone(), b.clone()))),
            // Operands that are not 0 or 1: a chain tests them against 0.
            leak(or(vec![Op::Field(0), Op::Lit(1), Op::Bin(BinOp::Sub)], vec![Op::Field(1)])),
            leak(and(vec![Op::Field(2)], vec![Op::Field(0), Op::Lit(2), Op::Bin(BinOp::BitAnd)])),
        ]
    }

    #[test]
    fn a_logic_holds_where_its_expression_is_not_zero() {
        for e in samples() {
            let logic = Logic::of(e);
            for f in 0..64i64 {
                let fields = [f & 3, f >> 2 & 3, f >> 4 & 3];
                let mut operand = |op: Op| match op {
                    Op::Field(i) => Some(fields[i as usize]),
                    _ => None,
                };
                let whole = value(e, &mut operand).expect("a well-formed sample");
                let held = logic.holds(&mut |x| value(x, &mut operand).expect("a well-formed operand"));
                assert_eq!(held, whole != 0, "{e:?} at {fields:?}: {logic:?}");
            }
        }
    }

    #[test]
    fn chains_are_split_and_evaluated_only_until_known() {
        let a = below(0, 2);
        let b = below(1, 3);
        let e = leak(bin(a.clone(), bin(b.clone(), a.clone(), BinOp::And), BinOp::Or));
        let logic = Logic::of(e);
        let Logic::Any(parts) = &logic else { panic!("an || chain: {logic:?}") };
        assert!(matches!(&parts[..], [Logic::Leaf(_), Logic::All(all)] if all.len() == 2), "{logic:?}");
        // F0 = 0: the first operand holds, and nothing after it is evaluated.
        let mut evaluated = 0;
        let holds = logic.holds(&mut |x| {
            evaluated += 1;
            value(x, &mut |op| matches!(op, Op::Field(_)).then_some(0)).unwrap()
        });
        assert!(holds);
        assert_eq!(evaluated, 1);
        // A lone comparison is one leaf.
        assert!(matches!(Logic::of(leak(a)), Logic::Leaf(_)));
    }
}
