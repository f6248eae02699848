//! Evaluating ABI expressions: postfix [`Op`]s over parameter values.
//!
//! `Op::Param(k)` reads `vals[k]`: the ABI's parameters first, then the element
//! index `i`, then a block's `size` (see [`Env::index_slot`]). Missing values
//! read as 0 and the arithmetic wraps, as in the instruction engine: nothing
//! here panics.

use crate::eval::binop;
use crate::{Expr, Op};

/// What an expression may read.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    pub gen_: u32,
    pub vals: &'a [i64],
}

impl<'a> Env<'a> {
    pub fn new(gen_: u32, vals: &'a [i64]) -> Self {
        Env { gen_, vals }
    }

    /// Where the element index `i` lives for an ABI with `params` parameters;
    /// a block's `size` is the slot after it.
    pub const fn index_slot(params: usize) -> usize {
        params
    }

    pub fn eval(&self, e: Expr) -> i64 {
        let mut stack: Vec<i64> = Vec::with_capacity(8);
        let pop = |s: &mut Vec<i64>| s.pop().unwrap_or(0);
        for op in e {
            let v = match *op {
                Op::Lit(v) => v,
                Op::Param(k) | Op::Field(k) => self.vals.get(k as usize).copied().unwrap_or(0),
                Op::Gen => self.gen_ as i64,
                Op::Not => (pop(&mut stack) == 0) as i64,
                Op::Neg => pop(&mut stack).wrapping_neg(),
                Op::BitNot => !pop(&mut stack),
                Op::Bin(b) => {
                    let y = pop(&mut stack);
                    let x = pop(&mut stack);
                    binop(b, x, y)
                }
                Op::Select => {
                    let b = pop(&mut stack);
                    let a = pop(&mut stack);
                    if pop(&mut stack) != 0 { a } else { b }
                }
            };
            stack.push(v);
        }
        stack.pop().unwrap_or(0)
    }

    /// A condition: absent means true.
    pub fn holds(&self, e: Option<Expr>) -> bool {
        e.is_none_or(|e| self.eval(e) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BinOp;

    #[test]
    fn reads_params_and_gen() {
        // 6 * n + 5 with n = 3
        let e: Expr = &[Op::Lit(6), Op::Param(0), Op::Bin(BinOp::Mul), Op::Lit(5), Op::Bin(BinOp::Add)];
        assert_eq!(Env::new(0, &[3]).eval(e), 23);
        let g: Expr = &[Op::Gen, Op::Lit(8), Op::Bin(BinOp::Ge), Op::Lit(102), Op::Lit(104), Op::Select];
        assert_eq!(Env::new(8, &[]).eval(g), 102);
        assert_eq!(Env::new(7, &[]).eval(g), 104);
        assert!(Env::new(0, &[]).holds(None));
    }

    #[test]
    fn malformed_input_does_not_panic() {
        assert_eq!(Env::new(0, &[]).eval(&[Op::Bin(BinOp::Div), Op::Param(9)]), 0);
        assert_eq!(Env::new(0, &[]).eval(&[]), 0);
    }
}
