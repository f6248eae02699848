//! Compiled expressions written back as the spec language's infix text:
//! what a manual shows of a case's condition, and what an assembler's
//! error names of a condition the operands break.

use crate::{BinOp, Case, Isa, Leaf, Op};

/// A compiled expression back as infix text, over `case`'s field names and
/// the parameters of `leaf`'s group.
pub fn expr_text(isa: &Isa, leaf: &Leaf, case: &Case, e: &[Op]) -> String {
    let params = isa.groups.get(leaf.group as usize).map_or(&[][..], |g| g.params);
    infix(e, &|i| case.fields.get(i as usize).map_or("?", |f| f.name), &|i| {
        params.get(i as usize).map_or("?", |p| p.name)
    })
}

/// `e` (postfix) as infix text, fields and parameters named by `field` and
/// `param`. An operand that is itself an operation is parenthesized, so the
/// text reads back as the same expression whatever the operators' order.
pub fn infix(e: &[Op], field: &dyn Fn(u16) -> &'static str, param: &dyn Fn(u16) -> &'static str) -> String {
    // Each entry: text and whether it needs parentheses as an operand.
    let mut st: Vec<(String, bool)> = Vec::new();
    let wrap = |(t, compound): (String, bool)| if compound { format!("({t})") } else { t };
    for op in e {
        match *op {
            Op::Lit(n) => st.push((n.to_string(), n < 0)),
            Op::Field(i) => st.push((field(i).to_string(), false)),
            Op::Param(i) => st.push((param(i).to_string(), false)),
            Op::Gen => st.push(("gen".into(), false)),
            Op::Not | Op::Neg | Op::BitNot => {
                let a = st.pop().unwrap_or_default();
                let sym = match op {
                    Op::Not => "!",
                    Op::Neg => "-",
                    _ => "~",
                };
                st.push((format!("{sym}{}", wrap(a)), false));
            }
            Op::Bin(b) => {
                let r = st.pop().unwrap_or_default();
                let l = st.pop().unwrap_or_default();
                st.push((format!("{} {} {}", wrap(l), binop_symbol(b), wrap(r)), true));
            }
            Op::Select => {
                let b = st.pop().unwrap_or_default();
                let a = st.pop().unwrap_or_default();
                let c = st.pop().unwrap_or_default();
                st.push((format!("{} ? {} : {}", wrap(c), wrap(a), wrap(b)), true));
            }
        }
    }
    st.pop().map(|(t, _)| t).unwrap_or_default()
}

/// How the spec language writes `b`.
pub fn binop_symbol(b: BinOp) -> &'static str {
    match b {
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::BitAnd => "&",
        BinOp::BitXor => "^",
        BinOp::BitOr => "|",
        BinOp::And => "&&",
        BinOp::Or => "||",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(e: &[Op]) -> String {
        infix(e, &|i| ["SRC1_R", "SRC2_R", "REPEAT"][i as usize], &|_| "FULL")
    }

    #[test]
    fn operations_inside_operations_are_parenthesized() {
        use BinOp::*;
        // (SRC1_R || SRC2_R) && REPEAT == 0, as the spec compiles it.
        let e = [Op::Field(0), Op::Field(1), Op::Bin(Or), Op::Field(2), Op::Lit(0), Op::Bin(Eq), Op::Bin(And)];
        assert_eq!(text(&e), "(SRC1_R || SRC2_R) && (REPEAT == 0)");
        assert_eq!(text(&[Op::Field(2), Op::Lit(-1), Op::Bin(Add)]), "REPEAT + (-1)");
        assert_eq!(text(&[Op::Param(0), Op::Not]), "!FULL");
        assert_eq!(text(&[Op::Field(0), Op::Lit(1), Op::Bin(Shl), Op::BitNot]), "~(SRC1_R << 1)");
        assert_eq!(text(&[Op::Gen, Op::Lit(3), Op::Lit(4), Op::Select]), "gen ? 3 : 4");
    }

    /// A malformed expression (none is compiled so) still gives text, not
    /// a panic.
    #[test]
    fn a_short_stack_gives_empty_operands() {
        assert_eq!(text(&[Op::Lit(1), Op::Bin(BinOp::Add)]), " + 1");
        assert_eq!(text(&[]), "");
    }
}
