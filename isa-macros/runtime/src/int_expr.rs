//! Integer expressions where the assembler reads a number.
//!
//! LLVM's assemblers evaluate an expression wherever a number goes
//! (`ttmp[(3+2)*2+1]`, `format:(2 + 3 * 16)`), and test suites and hand-written
//! shaders use that. The parser offers the expression's value as a second
//! reading after the plain number, so a template that continues with `+` or
//! `-` after a field still reads the number alone first.
//!
//! The operators are C's, with C's precedence: unary `-` `~` `+`, then
//! `*` `/` `%`, `+` `-`, `<<` `>>`, `&`, `^`, `|`. Operands are decimal or
//! `0x` numbers and parenthesised expressions. White space is read only inside
//! parentheses, where it cannot be the space between two operands.

/// Which prefixes give a number another radix than ten when the assembler
/// reads it: `0x` on every target, and the spec's `octal-numbers:` and
/// `binary-numbers:`, as LLVM's assemblers read numbers. None for a number
/// glued to a word, whose digits are that word's: a register's `v012` is
/// v12, and `v0x1` no register (llvm-mc refuses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Radixes {
    /// `0x` or `0X` and a hex digit start a hexadecimal number.
    pub hex: bool,
    /// A `0` and another digit start an octal number (`010` is 8).
    pub octal: bool,
    /// `0b` or `0B` and a binary digit start a binary number (`0b11` is 3).
    pub binary: bool,
}

impl Radixes {
    /// Decimal and `0x` hexadecimal.
    pub const PLAIN: Radixes = Radixes { hex: true, octal: false, binary: false };
    /// Decimal digits alone (a number glued to a word).
    pub const DECIMAL: Radixes = Radixes { hex: false, octal: false, binary: false };
}

impl crate::tables::Isa {
    /// The radixes this target's assembler reads (see [`Radixes`]).
    pub(crate) fn radixes(&self) -> Radixes {
        Radixes { hex: true, octal: self.octal_numbers, binary: self.binary_numbers }
    }
}

/// The radix of the number whose digits start `b`, and where its digits
/// start: with `r.hex`, `0x` and a hex digit is hexadecimal; with
/// `r.binary`, `0b` and a binary digit is binary; with `r.octal`, a `0` and
/// another digit is octal, as LLVM's assemblers read it (`010` is 8, and
/// `09` no number); anything else is decimal (`0b2` is the number 0, then
/// text).
pub(crate) fn radix(b: &[u8], r: Radixes) -> (u32, usize) {
    match b {
        [b'0', b'x' | b'X', c, ..] if r.hex && c.is_ascii_hexdigit() => (16, 2),
        [b'0', b'b' | b'B', b'0' | b'1', ..] if r.binary => (2, 2),
        [b'0', c, ..] if r.octal && c.is_ascii_digit() => (8, 1),
        _ => (10, 0),
    }
}

/// An expression with at least one operator or parenthesis at the start of
/// `s`, its value and the length of its text (numbers in the radixes `r`
/// reads; see [`radix`]). Overflow past 64 bits and division by zero give
/// `None`.
pub(crate) fn scan_int_expr(s: &str, r: Radixes) -> Option<(i64, usize)> {
    // Most numbers the assembler reads are plain: an expression starts with
    // a parenthesis or a unary operator, or has an operator straight after
    // its first number (outside parentheses no space may come between).
    let b = s.as_bytes();
    match b.first() {
        Some(b'0'..=b'9') => {
            let n = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
            if !b.get(n).is_some_and(|c| b"|^&<>+-*/%".contains(c)) {
                return None;
            }
        }
        Some(b'(' | b'-' | b'~' | b'+') => {}
        _ => return None,
    }
    let mut p = P { b, i: 0, depth: 0, ops: 0, radixes: r };
    let v = p.binary(0)?;
    // A plain number is not an expression: the caller reads those itself.
    (p.ops > 0).then_some(())?;
    let v = i64::try_from(v).ok().or_else(|| u64::try_from(v).ok().map(|u| u as i64))?;
    Some((v, p.i))
}

struct P<'a> {
    b: &'a [u8],
    i: usize,
    /// Open parentheses: white space is skipped only inside them.
    depth: u32,
    /// Operators and parentheses read.
    ops: u32,
    /// The radixes numbers are read in.
    radixes: Radixes,
}

/// Binary operators by precedence, loosest first.
const LEVELS: [&[&str]; 6] = [&["|"], &["^"], &["&"], &["<<", ">>"], &["+", "-"], &["*", "/", "%"]];

/// Nesting beyond this is refused rather than recursed into.
const MAX_DEPTH: u32 = 64;

impl P<'_> {
    fn skip_space(&mut self) {
        if self.depth > 0 {
            while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
                self.i += 1;
            }
        }
    }

    fn binary(&mut self, level: usize) -> Option<i128> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut v = self.binary(level + 1)?;
        loop {
            let save = self.i;
            self.skip_space();
            let Some(op) = LEVELS[level].iter().find(|op| self.b[self.i..].starts_with(op.as_bytes())) else {
                self.i = save;
                return Some(v);
            };
            // `&&`, `||` and `<=`-like text are not these operators.
            let after = self.b.get(self.i + op.len()).copied();
            if matches!((*op, after), ("&", Some(b'&')) | ("|", Some(b'|')) | ("<<" | ">>", Some(b'='))) {
                self.i = save;
                return Some(v);
            }
            self.i += op.len();
            self.skip_space();
            let Some(r) = self.binary(level + 1) else {
                // `v1+` followed by something else: the expression ends before the operator.
                self.i = save;
                return Some(v);
            };
            self.ops += 1;
            v = match *op {
                "|" => v | r,
                "^" => v ^ r,
                "&" => v & r,
                "<<" => v.checked_shl(u32::try_from(r).ok().filter(|&k| k < 64)?)?,
                ">>" => v >> u32::try_from(r).ok().filter(|&k| k < 64)?,
                "+" => v.checked_add(r)?,
                "-" => v.checked_sub(r)?,
                "*" => v.checked_mul(r)?,
                "/" => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
            if v.unsigned_abs() > u64::MAX as u128 {
                return None;
            }
        }
    }

    fn unary(&mut self) -> Option<i128> {
        match self.b.get(self.i)? {
            b'-' | b'~' | b'+' => {
                let c = self.b[self.i];
                self.i += 1;
                self.skip_space();
                let v = self.unary()?;
                self.ops += 1;
                Some(match c {
                    b'-' => -v,
                    b'~' => !v,
                    _ => v,
                })
            }
            b'(' => {
                if self.depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                self.depth += 1;
                self.ops += 1;
                self.skip_space();
                let v = self.binary(0)?;
                self.skip_space();
                if self.b.get(self.i) != Some(&b')') {
                    return None;
                }
                self.i += 1;
                self.depth -= 1;
                Some(v)
            }
            c if c.is_ascii_digit() => {
                let (radix, skip) = radix(&self.b[self.i..], self.radixes);
                let start = self.i + skip;
                let mut j = start;
                while self.b.get(j).is_some_and(|c| (*c as char).is_digit(radix)) {
                    j += 1;
                }
                if j == start {
                    return None;
                }
                let text = std::str::from_utf8(&self.b[start..j]).ok()?;
                let v = u64::from_str_radix(text, radix).ok()?;
                self.i = j;
                Some(v as i128)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decimal and hex, as most targets read numbers.
    fn expr(s: &str) -> Option<(i64, usize)> {
        scan_int_expr(s, Radixes::PLAIN)
    }

    const OCTAL: Radixes = Radixes { hex: true, octal: true, binary: false };
    const BINARY: Radixes = Radixes { hex: true, octal: false, binary: true };
    const LLVM: Radixes = Radixes { hex: true, octal: true, binary: true };

    #[test]
    fn llvm_test_expressions() {
        assert_eq!(expr("(3+2)*2+1]"), Some((11, 9)));
        assert_eq!(expr("45/11:(33+45)/11]"), Some((4, 5)));
        assert_eq!(expr("(33+45)/11]"), Some((7, 10)));
        assert_eq!(expr("(2 + 3 * 16)"), Some((50, 12)));
        assert_eq!(expr("63/8+1:"), Some((8, 6)));
        assert_eq!(expr("2*2-2:"), Some((2, 5)));
        assert_eq!(expr("1<<4|0x3"), Some((19, 8)));
        assert_eq!(expr("-(4)"), Some((-4, 4)));
    }

    #[test]
    fn plain_numbers_and_non_expressions_are_not_read() {
        assert_eq!(expr("42, v1"), None);
        assert_eq!(expr("0x10"), None);
        assert_eq!(expr("v1"), None);
        assert_eq!(expr("(1"), None);
        assert_eq!(expr("1/0"), None);
        // Outside parentheses a space ends the expression.
        assert_eq!(expr("1 + 2"), None);
        // An operator with nothing after it is not part of the expression.
        assert_eq!(expr("4+, x"), None);
        assert_eq!(expr("2+3+"), Some((5, 3)));
        // A hex number followed by an operator is an expression; a word
        // that only starts with digits is not.
        assert_eq!(expr("0x1f+1, v1"), Some((32, 6)));
        assert_eq!(expr("12abc+1"), None);
        assert_eq!(expr("~0"), Some((-1, 2)));
    }

    #[test]
    fn a_leading_zero_is_octal_where_the_target_says_so() {
        assert_eq!(radix(b"0x1f", OCTAL), (16, 2));
        assert_eq!(radix(b"0x", OCTAL), (10, 0), "no hex digit: the number 0");
        assert_eq!(radix(b"017", OCTAL), (8, 1));
        assert_eq!(radix(b"017", Radixes::PLAIN), (10, 0));
        assert_eq!(radix(b"0", OCTAL), (10, 0));
        assert_eq!(radix(b"0.5", OCTAL), (10, 0));
        assert_eq!(scan_int_expr("010+1", OCTAL), Some((9, 5)));
        assert_eq!(scan_int_expr("010+1", Radixes::PLAIN), Some((11, 5)));
        assert_eq!(scan_int_expr("(07<<1)", OCTAL), Some((14, 7)));
        assert_eq!(scan_int_expr("09+1", OCTAL), None, "9 is no octal digit");
        assert_eq!(radix(b"0x1f", Radixes::DECIMAL), (10, 0), "glued to a word: the number 0");
    }

    /// As llvm-mc 14 reads them (`s_nop 0B11` is s_nop 3, `s_nop
    /// (0b1+0b10)` too; `0b` alone and `0b2` are refused).
    #[test]
    fn a_0b_prefix_is_binary_where_the_target_says_so() {
        assert_eq!(radix(b"0b101", BINARY), (2, 2));
        assert_eq!(radix(b"0B1", LLVM), (2, 2));
        assert_eq!(radix(b"0b101", OCTAL), (10, 0), "without the option, the number 0 then text");
        assert_eq!(radix(b"0b", LLVM), (10, 0), "no binary digit: the number 0");
        assert_eq!(radix(b"0b2", LLVM), (10, 0));
        assert_eq!(radix(b"01", LLVM), (8, 1), "octal and binary together");
        assert_eq!(scan_int_expr("(0b1+0b10)", LLVM), Some((3, 10)));
        assert_eq!(scan_int_expr("0b11<<2", BINARY), Some((12, 7)));
        assert_eq!(scan_int_expr("0b11<<2", Radixes::PLAIN), None, "0 then a word: no expression");
        assert_eq!(scan_int_expr("0b1111111111111111111111111111111111111111111111111111111111111111+1", BINARY), None);
    }

    #[test]
    fn overflow_and_deep_nesting_are_refused() {
        assert_eq!(expr("0xffffffffffffffff*2"), None);
        assert_eq!(expr("1<<64"), None);
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(expr(&deep), None);
        let ok = format!("{}1{}", "(".repeat(10), ")".repeat(10));
        assert_eq!(expr(&ok), Some((1, 21)));
    }
}
