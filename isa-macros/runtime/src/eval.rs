//! Expression evaluation in a scope chain.
//!
//! A *scope* is the path from the instruction down to the sub-encoding being
//! looked at: each step names a leaf, the case in force and where the leaf's bits
//! sit in the instruction word. Parameters are resolved by evaluating the
//! enclosing field's parameter expression one step up.

use crate::bits::{Bits, mask_of};
use crate::tables::{BinOp, Expr, Isa, Op, Src, Ty};

pub(crate) use crate::place::Step;

/// The longest expression stack the generator allows.
pub const MAX_STACK: usize = 32;

pub(crate) struct Env<'a> {
    pub isa: &'a Isa,
    pub bits: Bits,
    pub gen_: u32,
    /// Bits of the word that evaluation looked at (the assembler's solver uses it).
    pub read: Bits,
    /// Parameter values known without evaluation (see [`Given`]).
    pub given: Given,
}

/// The parameter values of the leaf at one depth of the scope, evaluated
/// once by whoever set them. A printer descending into an operand knows
/// them for as long as it prints the operand (the scope above does not
/// change meanwhile), and a value passed down through nested operands
/// (GCN's literal, from the instruction through a source to its scalar
/// form) would otherwise be evaluated again, level by level, at each read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Given {
    /// The depth whose leaf's parameters these are; [`Given::NONE`]'s is
    /// no depth.
    pub depth: u8,
    /// Parameter `i`'s value, for `i` below [`Given::MAX`].
    pub values: [i64; Given::MAX],
    /// The parameters read from `values` (bit `i` for parameter `i`) since
    /// whoever set them last cleared this: what a printer's choice of form
    /// depended on (see [`crate::form_starts`]).
    pub read: u8,
    /// For each parameter passed down unchanged from one of the depth
    /// above's (`LIT: LIT`), that parameter's index, else `u8::MAX`: a
    /// read of it is a read of that one (see [`Given::passed_read`]).
    pub passed: [u8; Given::MAX],
}

impl Given {
    /// Parameters held (as many as a remembered operand's group may
    /// have); a leaf's further ones are evaluated.
    pub const MAX: usize = crate::memo::MAX_PARAMS;

    /// Nothing known.
    pub const NONE: Given = Given { depth: u8::MAX, values: [0; Given::MAX], read: 0, passed: [u8::MAX; Given::MAX] };

    /// The parameters of the depth above these were passed down from, of
    /// those [`Given::read`] holds.
    pub fn passed_read(&self) -> u8 {
        let mut m = 0;
        for (i, &q) in self.passed.iter().enumerate() {
            if self.read >> i & 1 == 1 && (q as usize) < Given::MAX {
                m |= 1 << q;
            }
        }
        m
    }
}

/// Whether `m` is a run of low ones (`0xffff`): `F & m` is F's low bits.
fn low_ones(m: i64) -> bool {
    m > 0 && (m + 1) & m == 0
}

impl Env<'_> {
    pub fn field(&mut self, path: &[Step], idx: u16) -> i64 {
        let Some(step) = path.last() else { return 0 };
        let leaf = &self.isa.leaves[step.leaf as usize];
        let field = &leaf.cases[step.case as usize].fields[idx as usize];
        match field.src {
            Src::Bits(ranges) => {
                let mut width = 0;
                for r in ranges {
                    self.read |= step.in_word(mask_of(r.lo as u32, r.width as u32));
                    width += r.width as u32;
                }
                crate::bits::field_value(step.extract(self.bits, ranges), width, field.is_signed())
            }
            Src::Expr(e) => self.eval(path, e),
            Src::Param(p) => self.param(path, p),
        }
    }

    /// The low `k` bits of bit field `idx`, marking only those as read; `None`
    /// for a field not read from bits, or a signed one narrower than `k`
    /// (whose sign extends into them).
    fn field_low(&mut self, path: &[Step], idx: u16, k: u32) -> Option<i64> {
        let step = path.last()?;
        let field = &self.isa.leaves[step.leaf as usize].cases[step.case as usize].fields[idx as usize];
        let Src::Bits(ranges) = field.src else { return None };
        if field.is_signed() && crate::bits::width_of(ranges) < k {
            return None;
        }
        let mut left = k;
        for r in ranges.iter().rev() {
            if left == 0 {
                break;
            }
            let w = (r.width as u32).min(left);
            self.read |= step.in_word(mask_of(r.lo as u32, w));
            left -= w;
        }
        Some((step.extract(self.bits, ranges) & mask_of(0, k)) as i64)
    }

    pub fn param(&mut self, path: &[Step], p: u16) -> i64 {
        let n = path.len();
        if n < 2 {
            return 0;
        }
        if n - 1 == self.given.depth as usize
            && let Some(&v) = self.given.values.get(p as usize)
        {
            self.given.read |= 1 << p;
            return v;
        }
        let step = path[n - 1];
        let parent = &path[..n - 1];
        let pstep = parent[n - 2];
        let pleaf = &self.isa.leaves[pstep.leaf as usize];
        let pfield = &pleaf.cases[pstep.case as usize].fields[step.via as usize];
        match pfield.ty {
            Ty::Group { params, .. } => match params.get(p as usize) {
                Some(e) => self.eval(parent, e),
                None => 0,
            },
            _ => 0,
        }
    }

    pub fn eval(&mut self, path: &[Step], e: Expr) -> i64 {
        // Most expressions are one value (a parameter passed on) or one
        // comparison of two (`W == 2`): no stack for those. Operands are read
        // in the same order as below, so the bits read are the same.
        match *e {
            [a] if a.is_operand() => return self.operand(path, a),
            // A bit field's low bits (`LIT & 0xffff`) read only those bits, so
            // the solver need not decide the others.
            [Op::Field(i), Op::Lit(m), Op::Bin(BinOp::BitAnd)] if low_ones(m) => {
                if let Some(v) = self.field_low(path, i, m.count_ones()) {
                    return v;
                }
                return self.field(path, i) & m;
            }
            [a, b, Op::Bin(op)] if a.is_operand() && b.is_operand() => {
                let x = self.operand(path, a);
                let y = self.operand(path, b);
                return binop(op, x, y);
            }
            _ => {}
        }
        let mut stack = [0i64; MAX_STACK];
        let mut sp = 0usize;
        // Fields read so far, by index: a field named many times (GCN's
        // literal against each inline constant) is read once, its value
        // the same throughout (nothing here changes the bits or the path,
        // and its bits are marked read the first time).
        let mut seen = [(u16::MAX, 0i64); 4];
        let mut k = 0;
        while k < e.len() {
            let op = &e[k];
            k += 1;
            // The generator bounds the stack depth, so these pushes stay in range;
            // the checks keep a corrupted table from panicking all the same.
            match *op {
                // A constant's operator at once (`LIT 64 <=`, `W 1 ==`): no
                // push and pop between them.
                Op::Lit(v)
                    if let Some(&Op::Bin(op)) = e.get(k)
                        && sp >= 1 =>
                {
                    k += 1;
                    stack[sp - 1] = binop(op, stack[sp - 1], v);
                }
                Op::Lit(v) => push(&mut stack, &mut sp, v),
                // A bit field's low bits inside a larger expression
                // (`(C & 0x3ff) == 0`): only those are read, as above.
                Op::Field(i)
                    if let Some(&[Op::Lit(m), Op::Bin(BinOp::BitAnd)]) = e.get(k..k + 2)
                        && low_ones(m)
                        && let Some(v) = self.field_low(path, i, m.count_ones()) =>
                {
                    k += 2;
                    push(&mut stack, &mut sp, v)
                }
                Op::Field(i) => {
                    let v = match seen.iter().find(|(f, _)| *f == i) {
                        Some(&(_, v)) => v,
                        None => {
                            let v = self.field(path, i);
                            if let Some(free) = seen.iter_mut().find(|(f, _)| *f == u16::MAX) {
                                *free = (i, v);
                            }
                            v
                        }
                    };
                    push(&mut stack, &mut sp, v)
                }
                Op::Param(i) => {
                    let v = self.param(path, i);
                    push(&mut stack, &mut sp, v)
                }
                Op::Gen => push(&mut stack, &mut sp, self.gen_ as i64),
                Op::Not => unary(&mut stack, sp, |a| (a == 0) as i64),
                Op::Neg => unary(&mut stack, sp, |a| a.wrapping_neg()),
                Op::BitNot => unary(&mut stack, sp, |a| !a),
                Op::Bin(op) => {
                    if sp >= 2 {
                        let b = stack[sp - 1];
                        let a = stack[sp - 2];
                        sp -= 1;
                        stack[sp - 1] = binop(op, a, b);
                    }
                }
                Op::Select => {
                    if sp >= 3 {
                        let b = stack[sp - 1];
                        let a = stack[sp - 2];
                        let c = stack[sp - 3];
                        sp -= 2;
                        stack[sp - 1] = if c != 0 { a } else { b };
                    }
                }
            }
        }
        if sp == 0 { 0 } else { stack[sp - 1] }
    }
}

impl Op {
    /// Whether this op pushes a value without popping any.
    fn is_operand(self) -> bool {
        matches!(self, Op::Lit(_) | Op::Field(_) | Op::Param(_) | Op::Gen)
    }
}

impl Env<'_> {
    /// The value an operand op pushes.
    pub(crate) fn operand(&mut self, path: &[Step], op: Op) -> i64 {
        match op {
            Op::Lit(v) => v,
            Op::Field(i) => self.field(path, i),
            Op::Param(i) => self.param(path, i),
            Op::Gen => self.gen_ as i64,
            _ => 0,
        }
    }
}

/// Postfix `e` evaluated on a plain stack, each field, parameter and the
/// generation read by `operand` (`None` for one it cannot give): the
/// engine's operators without a scope, for the generator (a constant's
/// value) and for tests. `None` too for a malformed expression.
pub fn value(e: &[Op], operand: &mut dyn FnMut(Op) -> Option<i64>) -> Option<i64> {
    let mut s: Vec<i64> = Vec::new();
    for &op in e {
        let v = match op {
            Op::Lit(v) => v,
            Op::Field(_) | Op::Param(_) | Op::Gen => operand(op)?,
            Op::Not | Op::Neg | Op::BitNot => {
                let a = s.pop()?;
                match op {
                    Op::Not => (a == 0) as i64,
                    Op::Neg => a.wrapping_neg(),
                    _ => !a,
                }
            }
            Op::Bin(b) => {
                let y = s.pop()?;
                let x = s.pop()?;
                binop(b, x, y)
            }
            Op::Select => {
                let b = s.pop()?;
                let a = s.pop()?;
                let c = s.pop()?;
                if c != 0 { a } else { b }
            }
        };
        s.push(v);
    }
    if s.len() == 1 { s.pop() } else { None }
}

/// The deepest the evaluation stack goes for postfix `e`.
pub fn stack_depth(e: &[Op]) -> usize {
    let (mut d, mut max) = (0usize, 0usize);
    for op in e {
        match op {
            Op::Lit(_) | Op::Field(_) | Op::Param(_) | Op::Gen => d += 1,
            Op::Not | Op::Neg | Op::BitNot => {}
            Op::Bin(_) => d = d.saturating_sub(1),
            Op::Select => d = d.saturating_sub(2),
        }
        max = max.max(d);
    }
    max
}

fn push(stack: &mut [i64; MAX_STACK], sp: &mut usize, v: i64) {
    if *sp < MAX_STACK {
        stack[*sp] = v;
        *sp += 1;
    }
}

fn unary(stack: &mut [i64; MAX_STACK], sp: usize, f: impl Fn(i64) -> i64) {
    if sp >= 1 {
        stack[sp - 1] = f(stack[sp - 1]);
    }
}

/// Applies a binary operator as the engine does (wrapping, no panics).
pub fn binop(op: BinOp, a: i64, b: i64) -> i64 {
    match op {
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => a.checked_div(b).unwrap_or(0),
        BinOp::Rem => a.checked_rem(b).unwrap_or(0),
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Shl => {
            if (0..64).contains(&b) {
                a.wrapping_shl(b as u32)
            } else {
                0
            }
        }
        BinOp::Shr => {
            if (0..64).contains(&b) {
                a.wrapping_shr(b as u32)
            } else if a < 0 {
                -1
            } else {
                0
            }
        }
        BinOp::Lt => (a < b) as i64,
        BinOp::Le => (a <= b) as i64,
        BinOp::Gt => (a > b) as i64,
        BinOp::Ge => (a >= b) as i64,
        BinOp::Eq => (a == b) as i64,
        BinOp::Ne => (a != b) as i64,
        BinOp::BitAnd => a & b,
        BinOp::BitXor => a ^ b,
        BinOp::BitOr => a | b,
        BinOp::And => (a != 0 && b != 0) as i64,
        BinOp::Or => (a != 0 || b != 0) as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TestRng;

    /// A random well-formed postfix expression of constants, `gen` and
    /// every operator, at most `depth` deep.
    fn expr(rng: &mut TestRng, depth: u32, out: &mut Vec<Op>) {
        const BINS: [BinOp; 18] = [
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::Add,
            BinOp::Sub,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::BitAnd,
            BinOp::BitXor,
            BinOp::BitOr,
            BinOp::And,
            BinOp::Or,
        ];
        let pick = if depth == 0 { rng.next_u64() % 2 } else { rng.next_u64() % 5 };
        match pick {
            0 => out.push(Op::Lit([0, 1, 2, 7, 64, -1, 0x3f80_0000][(rng.next_u64() % 7) as usize])),
            1 => out.push(Op::Gen),
            2 => {
                expr(rng, depth - 1, out);
                out.push([Op::Not, Op::Neg, Op::BitNot][(rng.next_u64() % 3) as usize]);
            }
            3 => {
                expr(rng, depth - 1, out);
                expr(rng, depth - 1, out);
                out.push(Op::Bin(BINS[(rng.next_u64() % BINS.len() as u64) as usize]));
            }
            _ => {
                expr(rng, depth - 1, out);
                expr(rng, depth - 1, out);
                expr(rng, depth - 1, out);
                out.push(Op::Select);
            }
        }
    }

    /// The engine's evaluator (its shortcuts for one operand, one
    /// comparison and a constant's operator included) answers as the plain
    /// stack evaluator does.
    #[test]
    fn eval_answers_as_the_plain_evaluator() {
        static ISA: Isa = Isa::for_tests("t", &[], &[]);
        let mut rng = TestRng::new(7);
        for _ in 0..20_000 {
            let mut e = Vec::new();
            expr(&mut rng, 4, &mut e);
            let gen_ = (rng.next_u64() % 10) as u32;
            let want = value(&e, &mut |op| (op == Op::Gen).then_some(gen_ as i64));
            let mut env = Env { isa: &ISA, bits: 0, gen_, read: 0, given: Given::NONE };
            // Expressions are static tables; a test's are leaked.
            let e: Expr = Box::leak(e.into_boxed_slice());
            assert_eq!(Some(env.eval(&[], e)), want, "{e:?} in generation {gen_}");
        }
    }
}
