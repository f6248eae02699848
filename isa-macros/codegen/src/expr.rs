//! The expression language of specs: C-like integer expressions over field
//! names and `gen`, compiled to the postfix form the engine evaluates.
//!
//! Precedence, loosest first: `?:`, `||`, `&&`, `|`, `^`, `&`, `== !=`,
//! `< <= > >=`, `<< >>`, `+ -`, `* / %`, unary `! ~ -`.

use isa_runtime::{BinOp, Op};

#[derive(Debug, Clone, PartialEq)]
pub enum Ast {
    Num(i64),
    Name(String),
    Unary(Op, Box<Ast>),
    Bin(BinOp, Box<Ast>, Box<Ast>),
    Select(Box<Ast>, Box<Ast>, Box<Ast>),
}

#[derive(Debug, Clone, PartialEq)]
enum T {
    Num(i64),
    Id(String),
    Op(&'static str),
}

const OPS: [&str; 24] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "?", ":", "!", "~", "-", "+", "*", "/", "%", "<", ">",
    "&", "|", "^",
];

fn lex(s: &str) -> Result<Vec<T>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let t = s[start..i].replace('_', "");
            let v = if let Some(h) = t.strip_prefix("0x") {
                i64::from_str_radix(h, 16)
            } else if let Some(bin) = t.strip_prefix("0b") {
                i64::from_str_radix(bin, 2)
            } else {
                t.parse()
            };
            out.push(T::Num(v.map_err(|_| format!("`{}` is not a number that fits 64 bits", &s[start..i]))?));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(T::Id(s[start..i].to_string()));
        } else {
            let op =
                OPS.iter().find(|op| s[i..].starts_with(**op)).ok_or_else(|| format!("unexpected `{}`", c as char))?;
            out.push(T::Op(op));
            i += op.len();
        }
    }
    Ok(out)
}

struct P {
    toks: Vec<T>,
    i: usize,
    depth: usize,
}

const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("||", BinOp::Or)],
    &[("&&", BinOp::And)],
    &[("|", BinOp::BitOr)],
    &[("^", BinOp::BitXor)],
    &[("&", BinOp::BitAnd)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[("<", BinOp::Lt), ("<=", BinOp::Le), (">", BinOp::Gt), (">=", BinOp::Ge)],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
];

impl P {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.i) {
            Some(T::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn nest(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > 64 { Err("expression nests too deeply".into()) } else { Ok(()) }
    }

    fn select(&mut self) -> Result<Ast, String> {
        self.nest()?;
        let c = self.level(0)?;
        let r = if self.eat("?") {
            let a = self.select()?;
            if !self.eat(":") {
                return Err("expected `:` in `c ? a : b`".into());
            }
            let b = self.select()?;
            Ast::Select(Box::new(c), Box::new(a), Box::new(b))
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn level(&mut self, n: usize) -> Result<Ast, String> {
        if n == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.level(n + 1)?;
        'outer: loop {
            for (text, op) in LEVELS[n] {
                if self.eat(text) {
                    let rhs = self.level(n + 1)?;
                    lhs = Ast::Bin(*op, Box::new(lhs), Box::new(rhs));
                    continue 'outer;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<Ast, String> {
        self.nest()?;
        let r = if self.eat("!") {
            Ast::Unary(Op::Not, Box::new(self.unary()?))
        } else if self.eat("~") {
            Ast::Unary(Op::BitNot, Box::new(self.unary()?))
        } else if self.eat("-") {
            Ast::Unary(Op::Neg, Box::new(self.unary()?))
        } else if self.eat("(") {
            let e = self.select()?;
            if !self.eat(")") {
                return Err("expected `)`".into());
            }
            e
        } else {
            match self.toks.get(self.i).cloned() {
                Some(T::Num(v)) => {
                    self.i += 1;
                    Ast::Num(v)
                }
                Some(T::Id(name)) => {
                    self.i += 1;
                    Ast::Name(name)
                }
                Some(T::Op(o)) => return Err(format!("unexpected `{o}`")),
                None => return Err("expression ends too early".into()),
            }
        };
        self.depth -= 1;
        Ok(r)
    }
}

/// Most tokens in one expression. A chain of binary operators (`A == 0 ||
/// A == 1 || ...`) nests one level deeper per operator however flat its text,
/// and compiling and dropping the tree recurse that deep; the longest
/// condition of the bundled targets has a few hundred.
pub const MAX_TOKENS: usize = 2048;

/// Expression text as a diagnostic quotes it: whole when short, else its
/// first characters and `...` (a message stays one readable line however
/// long the expression it is about).
pub fn quoted(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        None => text.to_string(),
        Some((end, _)) => format!("{}...", &text[..end]),
    }
}

/// Parses expression text.
pub fn parse(s: &str) -> Result<Ast, String> {
    let toks = lex(s)?;
    if toks.is_empty() {
        return Err("empty expression".into());
    }
    if toks.len() > MAX_TOKENS {
        return Err(format!(
            "the expression has {} tokens; at most {MAX_TOKENS} are allowed (derive parts of it in fields of their own)",
            toks.len()
        ));
    }
    let mut p = P { toks, i: 0, depth: 0 };
    let e = p.select()?;
    if p.i != p.toks.len() {
        return Err(format!("unexpected text after the expression: {:?}", p.toks[p.i]));
    }
    Ok(e)
}

impl Ast {
    /// Every name the expression reads.
    pub fn names(&self, out: &mut Vec<String>) {
        match self {
            Ast::Num(_) => {}
            Ast::Name(n) => out.push(n.clone()),
            Ast::Unary(_, a) => a.names(out),
            Ast::Bin(_, a, b) => {
                a.names(out);
                b.names(out);
            }
            Ast::Select(c, a, b) => {
                c.names(out);
                a.names(out);
                b.names(out);
            }
        }
    }

    /// Compiles to postfix. `resolve` maps a name to the op that reads it.
    pub fn compile(&self, resolve: &dyn Fn(&str) -> Option<Op>) -> Result<Vec<Op>, String> {
        let mut out = Vec::new();
        self.emit(resolve, &mut out)?;
        if isa_runtime::stack_depth(&out) > isa_runtime::MAX_STACK {
            return Err("expression is too deep to evaluate".into());
        }
        Ok(out)
    }

    fn emit(&self, resolve: &dyn Fn(&str) -> Option<Op>, out: &mut Vec<Op>) -> Result<(), String> {
        match self {
            Ast::Num(v) => out.push(Op::Lit(*v)),
            Ast::Name(n) if n == "gen" => out.push(Op::Gen),
            Ast::Name(n) => out.push(resolve(n).ok_or_else(|| format!("unknown name `{n}` in expression"))?),
            Ast::Unary(op, a) => {
                a.emit(resolve, out)?;
                out.push(*op);
            }
            Ast::Bin(op, a, b) => {
                a.emit(resolve, out)?;
                b.emit(resolve, out)?;
                out.push(Op::Bin(*op));
            }
            Ast::Select(c, a, b) => {
                c.emit(resolve, out)?;
                a.emit(resolve, out)?;
                b.emit(resolve, out)?;
                out.push(Op::Select);
            }
        }
        Ok(())
    }

    /// The value if the expression reads no field.
    pub fn constant(&self) -> Option<i64> {
        let ops = self.compile(&|_| None).ok()?;
        isa_runtime::postfix_value(&ops, &mut |_| None)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_expressions_are_quoted_in_part() {
        assert_eq!(super::quoted("A == 1"), "A == 1");
        let long = "A == 1 || ".repeat(20);
        assert_eq!(super::quoted(&long), format!("{}...", &long[..80]));
        assert_eq!(super::quoted(&"\u{e9}".repeat(81)), format!("{}...", "\u{e9}".repeat(80)));
    }

    use super::*;

    fn k(s: &str) -> Option<i64> {
        parse(s).unwrap().constant()
    }

    #[test]
    fn precedence_follows_c() {
        assert_eq!(k("1 + 2 * 3"), Some(7));
        assert_eq!(k("(1 + 2) * 3"), Some(9));
        assert_eq!(k("1 | 2 == 2"), Some(1));
        assert_eq!(k("2 << 3"), Some(16));
        assert_eq!(k("!0 && 3 > 2"), Some(1));
        assert_eq!(k("0 ? 5 : 1 ? 6 : 7"), Some(6));
        assert_eq!(k("-1 & 0xff"), Some(255));
        assert_eq!(k("0b101"), Some(5));
    }

    #[test]
    fn names_resolve_or_fail() {
        let e = parse("(SRC1_R || SRC2_R) && REPEAT == 0").unwrap();
        let mut names = vec![];
        e.names(&mut names);
        assert_eq!(names, ["SRC1_R", "SRC2_R", "REPEAT"]);
        let ops = e.compile(&|n| Some(Op::Field(n.len() as u16))).unwrap();
        assert_eq!(ops.len(), 7);
        assert!(e.compile(&|_| None).unwrap_err().contains("unknown name `SRC1_R`"));
    }

    #[test]
    fn bad_expressions() {
        assert!(parse("1 +").is_err());
        assert!(parse("(1").is_err());
        assert!(parse("1 2").is_err());
        assert!(parse("a $ b").is_err());
        assert!(parse("99999999999999999999").is_err());
        assert!(parse(&"(".repeat(10_000)).is_err());
    }
}
