//! The textual IR: parsing (with located errors) and printing. `print(parse(t))`
//! is `t` in canonical spacing, and `parse(print(f)) == f`.
//!
//! ```text
//! ; comment
//! abi vs as-vs                          ; optional: the ABI stage and variant (params: NAME=VALUE)
//! entry:                                ; a block label
//!     %in:full[4] = input r0.x          ; a value the hardware provides, in a register
//!     %tid:vgpr = input abi thread_id[0] ; or an ABI argument
//!     %x, %y, %z, %w = split %in        ; registers of a multi-register value
//!     %t:full = mul.f %x, %y            ; alternative spelling: results before `=`
//!     mad.f32 %u:full, %z, %w, %t       ; a target instruction: its assembly, with
//!                                       ; `%name:class[regs]` where it defines a value
//!     %v = collect %t, %u               ; values in consecutive registers
//!     if %c then a else b               ; ends a block
//!     goto c                            ; ends a block
//!     %p = phi %x from a, %y from b     ; at the top of a block
//!     output %v                         ; live at the end (optionally `output %v r2.x`)
//! ```
//!
//! A machine instruction written `%d:class = op rest` means `op %d:class, rest`
//! (the results come first), which is how most targets write them.

use std::collections::HashMap;
use std::fmt::Write;

use crate::error::{IrError, Pos};
use crate::ir::{AbiRef, Block, Function, Inst, Op, Piece, Place, ValueId};

/// Parses IR text.
pub fn parse(text: &str) -> Result<Function, IrError> {
    let mut p = Parser { f: Function::default(), names: HashMap::new(), forwards: Vec::new() };
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let code = raw.split(';').next().unwrap_or("");
        let indent = code.len() - code.trim_start().len();
        let code = code.trim();
        if code.is_empty() {
            continue;
        }
        let col = indent as u32 + 1;
        p.line(code, Pos { line, col })?;
    }
    // A phi source named before its definition must be defined somewhere.
    if let Some(&(v, pos)) = p.forwards.first() {
        return Err(IrError::new(pos, format!("`%{}` is used but never defined", p.f.values[v as usize].name))
            .help("define it with `%name:class = ...` or as a result of an instruction"));
    }
    Ok(p.f)
}

struct Parser {
    f: Function,
    names: HashMap<String, ValueId>,
    /// Values named (by a phi) before their definition, with where.
    forwards: Vec<(ValueId, Pos)>,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The IR word a line starting with `mnemonic` reads as, if any: the ABI
/// line (`abi` then white space) or a plain line's keyword (its first word,
/// as [`Parser::plain_line`] reads it).
fn keyword_of(mnemonic: &str) -> Option<&'static str> {
    if mnemonic == "abi" {
        return Some("abi");
    }
    let head = mnemonic.split(|c: char| !is_name_char(c)).next().unwrap_or("");
    ["output", "if", "goto"].into_iter().find(|k| *k == head)
}

/// A register class name's characters: a value's name's, and `-`. The same
/// test says where a class follows a value in operand text, so a definition
/// prints and reads back as one.
fn is_class_char(c: char) -> bool {
    is_name_char(c) || c == '-'
}

fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
}

/// A cursor over one line, keeping columns.
struct Cur<'a> {
    s: &'a str,
    i: usize,
    line: u32,
    col0: u32,
}

impl<'a> Cur<'a> {
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col0 + self.s[..self.i].chars().count() as u32 }
    }
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }
    fn ws(&mut self) {
        let r = self.rest();
        self.i += r.len() - r.trim_start().len();
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.rest().starts_with(t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }
    fn word(&mut self, ok: fn(char) -> bool) -> &'a str {
        self.ws();
        let r = self.rest();
        let n = r.find(|c: char| !ok(c)).unwrap_or(r.len());
        self.i += n;
        &r[..n]
    }
    fn at_end(&mut self) -> bool {
        self.ws();
        self.i >= self.s.len()
    }
    fn err(&self, msg: impl Into<String>) -> IrError {
        IrError::new(self.pos(), msg)
    }
    fn expect(&mut self, t: &str, what: &str) -> Result<(), IrError> {
        if self.eat(t) { Ok(()) } else { Err(self.err(format!("expected `{t}` {what}"))) }
    }
    fn number(&mut self) -> Result<i64, IrError> {
        self.ws();
        let at = self.pos();
        let w = self.word(|c| c.is_ascii_alphanumeric() || c == '-');
        parse_int(w).ok_or_else(|| IrError::new(at, format!("expected a number, found `{w}`")))
    }
}

fn parse_int(w: &str) -> Option<i64> {
    let (neg, w) = w.strip_prefix('-').map_or((false, w), |r| (true, r));
    let v = match w.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => w.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// A value written where it is defined: `%name[:class[[regs]]]`.
struct DefText {
    name: String,
    class: Option<(String, u32)>,
    pos: Pos,
}

impl Parser {
    fn line(&mut self, code: &str, pos: Pos) -> Result<(), IrError> {
        let mut c = Cur { s: code, i: 0, line: pos.line, col0: pos.col };
        // `abi` as a word: followed by any white space, as a mnemonic ends.
        if code.strip_prefix("abi").is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace)) {
            return self.abi(&mut c);
        }
        if let Some(label) = code.strip_suffix(':')
            && !label.is_empty()
            && label.chars().all(is_label_char)
        {
            if self.f.blocks.iter().any(|b| b.name == label) {
                return Err(c.err(format!("block `{label}` is defined twice")));
            }
            self.f.blocks.push(Block { name: label.to_string(), insts: Vec::new(), pos });
            return Ok(());
        }
        if self.f.blocks.is_empty() {
            self.f.blocks.push(Block { name: "entry".to_string(), insts: Vec::new(), pos });
        }
        if let Some(b) = self.f.blocks.last()
            && b.insts.last().is_some_and(|i| i.is_terminator())
        {
            return Err(c.err("an instruction after the end of a block").help("start a new block with `name:`"));
        }
        let inst = if code.starts_with('%') && code.contains('=') && self.looks_like_defs(code) {
            self.defs_line(&mut c, pos)?
        } else {
            self.plain_line(&mut c, pos)?
        };
        self.f.blocks.last_mut().expect("a block exists").insts.push(inst);
        Ok(())
    }

    /// `%a, %b:full =` at the start (and not `%a` inside operand text).
    fn looks_like_defs(&self, code: &str) -> bool {
        let lhs = code.split('=').next().unwrap_or("");
        lhs.split(',').all(|d| {
            let d = d.trim();
            d.starts_with('%')
                && d[1..].chars().all(|c| is_name_char(c) || c == ':' || c == '[' || c == ']' || c == '-')
        })
    }

    fn abi(&mut self, c: &mut Cur) -> Result<(), IrError> {
        let pos = c.pos();
        c.eat("abi");
        if self.f.abi.is_some() {
            return Err(c.err("`abi` is given twice"));
        }
        if !self.f.blocks.is_empty() {
            return Err(c.err("`abi` must come before the first block"));
        }
        let stage = c.word(is_label_char).to_string();
        let variant = c.word(is_label_char).to_string();
        if stage.is_empty() || variant.is_empty() {
            return Err(c.err("expected `abi STAGE VARIANT [PARAM=VALUE]...`"));
        }
        let mut params = Vec::new();
        while !c.at_end() {
            let name = c.word(is_name_char).to_string();
            if name.is_empty() {
                return Err(c.err("expected a parameter name"));
            }
            c.expect("=", "after the parameter name")?;
            params.push((name, c.number()?));
        }
        self.f.abi = Some(AbiRef { stage, variant, params, pos });
        Ok(())
    }

    fn def_text(&mut self, c: &mut Cur, need_class: bool) -> Result<DefText, IrError> {
        c.ws();
        let pos = c.pos();
        c.expect("%", "before a value name")?;
        let name = c.word(is_name_char).to_string();
        if name.is_empty() {
            return Err(c.err("expected a value name after `%`"));
        }
        let class = if c.rest().starts_with(':') {
            c.i += 1;
            let cls = c.word(is_class_char).to_string();
            if cls.is_empty() {
                return Err(c.err("expected a register class after `:`"));
            }
            let regs = if c.rest().starts_with('[') {
                c.i += 1;
                let at = c.pos();
                let n = c.number()?;
                c.expect("]", "after the register count")?;
                u32::try_from(n)
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| IrError::new(at, "a value takes at least one register"))?
            } else {
                1
            };
            Some((cls, regs))
        } else {
            None
        };
        if need_class && class.is_none() {
            return Err(IrError::new(pos, format!("`%{name}` needs a register class"))
                .help(format!("write `%{name}:CLASS` (or `%{name}:CLASS[N]` for N registers)")));
        }
        Ok(DefText { name, class, pos })
    }

    fn define(&mut self, d: DefText) -> Result<ValueId, IrError> {
        if let Some(&id) = self.names.get(&d.name)
            && let Some(k) = self.forwards.iter().position(|&(v, _)| v == id)
        {
            // A phi named it first; this is its definition.
            self.forwards.remove(k);
            let (class, regs) = d.class.unwrap_or_default();
            let v = &mut self.f.values[id as usize];
            (v.class, v.regs, v.pos) = (class, regs, d.pos);
            return Ok(id);
        }
        if self.names.contains_key(&d.name) {
            return Err(IrError::new(d.pos, format!("`%{}` is defined twice", d.name))
                .help("every value is defined once (SSA); give the new one another name"));
        }
        let (class, regs) = d.class.unwrap_or_default();
        let id = self.f.add_value(d.name.clone(), class, regs, d.pos);
        self.names.insert(d.name, id);
        Ok(id)
    }

    fn use_of(&mut self, c: &mut Cur) -> Result<ValueId, IrError> {
        c.ws();
        let pos = c.pos();
        c.expect("%", "before a value name")?;
        let name = c.word(is_name_char);
        if name.is_empty() {
            return Err(c.err("expected a value name after `%`"));
        }
        self.lookup(name, pos)
    }

    fn lookup(&mut self, name: &str, pos: Pos) -> Result<ValueId, IrError> {
        match self.names.get(name) {
            Some(&v) => Ok(v),
            None => Err(IrError::new(pos, format!("`%{name}` is used before it is defined"))
                .help("define values before their uses (phi sources may come from any block)")),
        }
    }

    fn defs_line(&mut self, c: &mut Cur, pos: Pos) -> Result<Inst, IrError> {
        let mut defs = Vec::new();
        loop {
            defs.push(self.def_text(c, false)?);
            if !c.eat(",") {
                break;
            }
        }
        c.expect("=", "after the results")?;
        c.ws();
        let kw_pos = c.pos();
        let save = c.i;
        let kw = c.word(is_name_char);
        match kw {
            "input" | "collect" | "split" | "phi" => {}
            _ => {
                // `%d:class = op operands` is `op %d:class, operands`.
                c.i = save;
                return self.machine(c, pos, defs);
            }
        }
        let one = |defs: &Vec<DefText>| -> Result<(), IrError> {
            if defs.len() != 1 {
                return Err(IrError::new(defs[1].pos, format!("`{kw}` defines one value")));
            }
            Ok(())
        };
        match kw {
            "input" => {
                one(&defs)?;
                let place = if c.eat("abi ") || c.rest().trim() == "abi" {
                    let name = c.word(is_name_char).to_string();
                    if name.is_empty() {
                        return Err(c.err("expected an ABI argument name after `abi`"));
                    }
                    let index = if c.eat("[") {
                        let at = c.pos();
                        let n = c.number()?;
                        c.expect("]", "after the element index")?;
                        Some(u32::try_from(n).map_err(|_| IrError::new(at, "an element index is 0 or more"))?)
                    } else {
                        None
                    };
                    Place::Abi(name, index)
                } else {
                    let r = c.rest().trim().to_string();
                    if r.is_empty() {
                        return Err(c
                            .err("expected the input's register or `abi NAME`")
                            .help("write `input r0.x` (a register in the target's syntax) or `input abi NAME`"));
                    }
                    c.i = c.s.len();
                    Place::Reg(r)
                };
                let d = defs.pop_one();
                if d.class.is_none() {
                    return Err(IrError::new(d.pos, format!("`%{}` needs a register class", d.name)));
                }
                let v = self.define(d)?;
                self.end(c)?;
                Ok(Inst { op: Op::Input(place), defs: vec![v], uses: vec![], pos })
            }
            "collect" => {
                one(&defs)?;
                let mut uses = vec![self.use_of(c)?];
                while c.eat(",") {
                    uses.push(self.use_of(c)?);
                }
                self.end(c)?;
                let d = defs.pop_one();
                let v = self.define_derived(d, &uses, kw_pos)?;
                Ok(Inst { op: Op::Collect, defs: vec![v], uses, pos })
            }
            "split" => {
                let src = self.use_of(c)?;
                self.end(c)?;
                let n = defs.len() as u32;
                let total = self.f.values[src as usize].regs;
                let explicit: u32 = defs.iter().map(|d| d.class.as_ref().map_or(0, |c| c.1)).sum();
                let implicit = defs.iter().filter(|d| d.class.is_none()).count() as u32;
                let each = total.saturating_sub(explicit).checked_div(implicit).unwrap_or(0);
                if explicit + each * implicit != total || (implicit > 0 && each == 0) {
                    return Err(IrError::new(
                        kw_pos,
                        format!(
                            "`%{}` has {total} registers; {n} results cannot share them",
                            self.f.values[src as usize].name
                        ),
                    )
                    .help("give each result's size (`%a:CLASS[2]`) so that they add up"));
                }
                let class = self.f.values[src as usize].class.clone();
                let mut ids = Vec::new();
                for d in defs {
                    let regs = d.class.as_ref().map_or(each, |c| c.1);
                    let cls = d.class.as_ref().map_or(class.clone(), |c| c.0.clone());
                    let id = self.define(DefText { class: Some((cls, regs)), ..d })?;
                    ids.push(id);
                }
                Ok(Inst { op: Op::Split, defs: ids, uses: vec![src], pos })
            }
            _ => {
                one(&defs)?;
                let mut uses = Vec::new();
                let mut blocks = Vec::new();
                loop {
                    c.ws();
                    let at = c.pos();
                    c.expect("%", "before a value name")?;
                    let name = c.word(is_name_char).to_string();
                    if !c.eat("from ") {
                        return Err(c.err("expected `from BLOCK` after a phi source"));
                    }
                    let b = c.word(is_label_char).to_string();
                    if b.is_empty() {
                        return Err(c.err("expected a block name"));
                    }
                    // Phi sources may be defined later in the text.
                    let id = match self.names.get(&name) {
                        Some(&v) => v,
                        None => self.forward(&name, at),
                    };
                    uses.push(id);
                    blocks.push(b);
                    if !c.eat(",") {
                        break;
                    }
                }
                self.end(c)?;
                let d = defs.pop_one();
                if d.class.is_none() {
                    return Err(IrError::new(d.pos, format!("`%{}` needs a register class", d.name))
                        .help("a phi's class is written on its result"));
                }
                let v = self.define(d)?;
                Ok(Inst { op: Op::Phi(blocks), defs: vec![v], uses, pos })
            }
        }
    }

    /// A value named before its definition (a phi source): defined here with an
    /// empty class; its definition fills it in.
    fn forward(&mut self, name: &str, at: Pos) -> ValueId {
        let id = self.f.add_value(name.to_string(), String::new(), 0, at);
        self.names.insert(name.to_string(), id);
        self.forwards.push((id, at));
        id
    }

    fn define_derived(&mut self, d: DefText, uses: &[ValueId], at: Pos) -> Result<ValueId, IrError> {
        let first = &self.f.values[uses[0] as usize];
        let class = first.class.clone();
        let regs: u32 = uses.iter().map(|&u| self.f.values[u as usize].regs).sum();
        if let Some((c, r)) = &d.class
            && (*c != class || *r != regs)
        {
            return Err(IrError::new(d.pos, format!("the collect makes `{class}[{regs}]`, not `{c}[{r}]`")));
        }
        for &u in uses {
            let v = &self.f.values[u as usize];
            if v.class != class {
                return Err(IrError::new(
                    at,
                    format!(
                        "`%{}` is `{}` but `%{}` is `{class}`: a collect joins values of one class",
                        v.name, v.class, self.f.values[uses[0] as usize].name
                    ),
                ));
            }
        }
        self.define(DefText { class: Some((class, regs)), ..d })
    }

    fn end(&self, c: &mut Cur) -> Result<(), IrError> {
        if c.at_end() { Ok(()) } else { Err(c.err(format!("unexpected `{}`", c.rest()))) }
    }

    fn plain_line(&mut self, c: &mut Cur, pos: Pos) -> Result<Inst, IrError> {
        let save = c.i;
        let kw = c.word(is_name_char);
        match kw {
            "output" => {
                let v = self.use_of(c)?;
                let reg = c.rest().trim();
                let reg = (!reg.is_empty()).then(|| reg.to_string());
                c.i = c.s.len();
                Ok(Inst { op: Op::Output(reg), defs: vec![], uses: vec![v], pos })
            }
            "if" => {
                let v = self.use_of(c)?;
                if !c.eat("then ") {
                    return Err(c.err("expected `then BLOCK`").help("write `if %cond then BLOCK else BLOCK`"));
                }
                let then = c.word(is_label_char).to_string();
                if !c.eat("else ") {
                    return Err(c.err("expected `else BLOCK`").help("write `if %cond then BLOCK else BLOCK`"));
                }
                let else_ = c.word(is_label_char).to_string();
                if then.is_empty() || else_.is_empty() {
                    return Err(c.err("expected a block name"));
                }
                self.end(c)?;
                Ok(Inst { op: Op::Branch { then, else_ }, defs: vec![], uses: vec![v], pos })
            }
            "goto" => {
                let b = c.word(is_label_char).to_string();
                if b.is_empty() {
                    return Err(c.err("expected a block name after `goto`"));
                }
                self.end(c)?;
                Ok(Inst { op: Op::Jump(b), defs: vec![], uses: vec![], pos })
            }
            _ => {
                c.i = save;
                self.machine(c, pos, Vec::new())
            }
        }
    }

    /// A target instruction: the mnemonic, then operand text in which
    /// `%name:class[n]` defines a value and `%name` reads one. `lead` are results
    /// written before `=`; they go first.
    fn machine(&mut self, c: &mut Cur, pos: Pos, lead: Vec<DefText>) -> Result<Inst, IrError> {
        c.ws();
        let mnemonic = c.word(|ch| !ch.is_whitespace()).to_string();
        if mnemonic.is_empty() || mnemonic.contains('%') {
            return Err(c.err("expected an instruction mnemonic"));
        }
        // Printed, the instruction starts its line with its mnemonic, so one
        // that reads as a word of the IR itself would not read back.
        if let Some(word) = keyword_of(&mnemonic) {
            return Err(c
                .err(format!("`{mnemonic}` reads as the IR's own `{word}`, not an instruction"))
                .help("`abi`, `output`, `if` and `goto` start lines of the IR itself"));
        }
        let mut operands = Vec::new();
        let mut defs = Vec::new();
        let mut uses = Vec::new();
        for d in lead {
            if d.class.is_none() {
                return Err(IrError::new(d.pos, format!("`%{}` needs a register class", d.name)));
            }
            if !defs.is_empty() {
                operands.push(Piece::Text(", ".into()));
            }
            operands.push(Piece::Def(defs.len() as u32));
            defs.push(self.define(d)?);
        }
        c.ws();
        if !defs.is_empty() && !c.at_end() {
            operands.push(Piece::Text(", ".into()));
        }
        let mut text = String::new();
        while c.i < c.s.len() {
            let r = c.rest();
            if r.starts_with('%') && r[1..].starts_with(is_name_char) {
                if !text.is_empty() {
                    operands.push(Piece::Text(std::mem::take(&mut text)));
                }
                let save = c.i;
                c.i += 1;
                let name = c.word(is_name_char);
                if c.rest().starts_with(':') && c.rest()[1..].starts_with(is_class_char) {
                    c.i = save;
                    let d = self.def_text(c, true)?;
                    operands.push(Piece::Def(defs.len() as u32));
                    defs.push(self.define(d)?);
                } else {
                    let at = Cur { s: c.s, i: save, line: c.line, col0: c.col0 }.pos();
                    let v = self.lookup(name, at)?;
                    operands.push(Piece::Use(uses.len() as u32));
                    uses.push(v);
                }
            } else {
                let ch = r.chars().next().unwrap_or(' ');
                text.push(ch);
                c.i += ch.len_utf8();
            }
        }
        let t = text.trim_end();
        if !t.is_empty() {
            operands.push(Piece::Text(t.to_string()));
        }
        Ok(Inst { op: Op::Machine { mnemonic, operands, leaf: None }, defs, uses, pos })
    }
}

trait PopOne {
    fn pop_one(self) -> DefText;
}

impl PopOne for Vec<DefText> {
    fn pop_one(mut self) -> DefText {
        self.pop().expect("checked to hold one")
    }
}

/// Prints a function in the canonical textual form.
pub fn print(f: &Function) -> String {
    let mut s = String::new();
    if let Some(a) = &f.abi {
        let _ = write!(s, "abi {} {}", a.stage, a.variant);
        for (k, v) in &a.params {
            let _ = write!(s, " {k}={v}");
        }
        s.push('\n');
    }
    for b in &f.blocks {
        let _ = writeln!(s, "{}:", b.name);
        for i in &b.insts {
            s.push_str("    ");
            print_inst(f, i, &mut s);
            s.push('\n');
        }
    }
    s
}

fn def(f: &Function, v: ValueId, s: &mut String) {
    def_with(f, v, false, s);
}

/// A definition; the register count is written when it is not 1, or when
/// `count` asks (the operand text after it starts with `[`, which would read
/// as the count, or with a class name's character, which would read as more
/// of the class).
fn def_with(f: &Function, v: ValueId, count: bool, s: &mut String) {
    let v = &f.values[v as usize];
    let _ = write!(s, "%{}:{}", v.name, v.class);
    if v.regs != 1 || count {
        let _ = write!(s, "[{}]", v.regs);
    }
}

fn name(f: &Function, v: ValueId) -> &str {
    &f.values[v as usize].name
}

/// Prints one instruction (no indentation, no newline).
pub fn print_inst(f: &Function, i: &Inst, s: &mut String) {
    let uses = |s: &mut String| {
        let list: Vec<String> = i.uses.iter().map(|&u| format!("%{}", name(f, u))).collect();
        s.push_str(&list.join(", "));
    };
    match &i.op {
        Op::Machine { mnemonic, operands, .. } => {
            s.push_str(mnemonic);
            if !operands.is_empty() {
                s.push(' ');
            }
            for (k, p) in operands.iter().enumerate() {
                match p {
                    Piece::Text(t) => s.push_str(t),
                    Piece::Def(d) => {
                        let bracket = matches!(operands.get(k + 1),
                            Some(Piece::Text(t)) if t.starts_with('[') || t.starts_with(is_class_char));
                        def_with(f, i.defs[*d as usize], bracket, s)
                    }
                    Piece::Use(u) => {
                        let _ = write!(s, "%{}", name(f, i.uses[*u as usize]));
                    }
                }
            }
        }
        Op::Input(p) => {
            def(f, i.defs[0], s);
            match p {
                Place::Reg(r) => {
                    let _ = write!(s, " = input {r}");
                }
                Place::Abi(n, None) => {
                    let _ = write!(s, " = input abi {n}");
                }
                Place::Abi(n, Some(k)) => {
                    let _ = write!(s, " = input abi {n}[{k}]");
                }
            }
        }
        Op::Output(r) => {
            s.push_str("output ");
            uses(s);
            if let Some(r) = r {
                let _ = write!(s, " {r}");
            }
        }
        Op::Phi(blocks) => {
            def(f, i.defs[0], s);
            s.push_str(" = phi ");
            let list: Vec<String> =
                i.uses.iter().zip(blocks).map(|(&u, b)| format!("%{} from {b}", name(f, u))).collect();
            s.push_str(&list.join(", "));
        }
        Op::Collect => {
            let _ = write!(s, "%{} = collect ", name(f, i.defs[0]));
            uses(s);
        }
        Op::Split => {
            // Results print bare when they share the source's registers equally.
            let src = &f.values[i.uses[0] as usize];
            let equal = i.defs.iter().all(|&d| {
                let v = &f.values[d as usize];
                v.class == src.class && v.regs * i.defs.len() as u32 == src.regs
            });
            for (k, &d) in i.defs.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                if equal {
                    let _ = write!(s, "%{}", name(f, d));
                } else {
                    def(f, d, s);
                }
            }
            s.push_str(" = split ");
            uses(s);
        }
        Op::Branch { then, else_ } => {
            let _ = write!(s, "if %{} then {then} else {else_}", name(f, i.uses[0]));
        }
        Op::Jump(b) => {
            let _ = write!(s, "goto {b}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
abi ps main input_addr=770
entry:
    %in:full[4] = input r0.x
    %p:vgpr = input abi pos_x_float
    %q:vgpr = input abi thread_id[2]
    %a, %b, %c, %d = split %in
    %e:full[2], %f, %g = split %in
    mul.f %t:full, %a, %b
    %u:full = add.f %t, c0.x
    sam (f32)(xyzw)%s:full[4], %t, s#0, t#0
    %v = collect %t, %u
    stg.u32 g[%v+4], %a, 1
    end
    if %t then x else y
x:
    goto y
y:
    %w:full = phi %a from entry, %z from x
    add.f %z:full, %w, %w
    output %v
    output %u r2.x
";

    #[test]
    fn prints_what_it_parsed() {
        let f = parse(SAMPLE).unwrap();
        let text = print(&f);
        let g = parse(&text).unwrap();
        assert_eq!(print(&g), text);
        // Positions differ (the `=` form prints inline); the rest is equal.
        assert_eq!(f.blocks.len(), g.blocks.len());
        let strip = |f: &Function| -> Vec<(String, String, u32)> {
            f.values.iter().map(|v| (v.name.clone(), v.class.clone(), v.regs)).collect()
        };
        assert_eq!(strip(&f), strip(&g));
        assert!(text.contains("add.f %u:full, %t, c0.x"), "{text}");
        assert!(text.contains("%e:full[2], %f:full, %g:full = split %in"), "{text}");
        assert!(text.contains("%a, %b, %c, %d = split %in"), "{text}");
        assert!(text.contains("%q:vgpr = input abi thread_id[2]"), "{text}");
        assert!(text.starts_with("abi ps main input_addr=770\n"), "{text}");
    }

    #[test]
    fn canonical_text_round_trips_exactly() {
        let canonical = print(&parse(SAMPLE).unwrap());
        assert_eq!(parse(&canonical).unwrap(), parse(&print(&parse(&canonical).unwrap())).unwrap());
    }

    #[test]
    fn abi_is_a_word_before_any_white_space() {
        // Found by the `ir` fuzzer: `abi` then a tab was read as an instruction
        // `abi`, which printed as `abi vs as-vs`, an ABI line.
        let f = parse("abi\tvs as-vs\n").unwrap();
        assert_eq!(print(&f), "abi vs as-vs\n");
        assert!(parse("abi:\n").unwrap().abi.is_none());
    }

    #[test]
    fn abi_is_not_an_instruction() {
        // Found by the `ir` fuzzer: `%v = abi x` parsed as an instruction
        // named `abi`, which printed as a line that reads as the ABI line.
        let e = err("entry:\n    %b:sgpr[2] = abi const_bufs\n");
        assert!(e.message.contains("reads as the IR's own `abi`"), "{e}");
        // Likewise `%b = if` printed as `if %b`, a branch.
        for text in ["%b:full = if\n", "%b:full = goto.x\n", "%b:full = output\n"] {
            assert!(err(text).message.contains("reads as the IR's own"), "{text}");
        }
        assert!(parse("%b:full = iffy r0\n").is_ok());
    }

    #[test]
    fn a_definition_before_a_bracket_keeps_its_count() {
        // Found by the `ir` fuzzer: `%v:full[1][ u43` printed as
        // `%v:full[ u43`, whose bracket then read as the register count.
        let f = parse("load %v:full[1][ u43 a\n").unwrap();
        let text = print(&f);
        assert!(text.contains("%v:full[1][ u43"), "{text}");
        assert_eq!(print(&parse(&text).unwrap()), text);
        // And `%v:full[1]-` printed as `%v:full-`, a class `full-`.
        let text = print(&parse("oad %v:full[1]-[1]-4a\n").unwrap());
        assert!(text.contains("%v:full[1]-[1]-4a"), "{text}");
        assert_eq!(print(&parse(&text).unwrap()), text);
    }

    #[test]
    fn a_definition_reads_back_whatever_its_class() {
        // Found by the `ir` fuzzer: a class starting with `-` was read where
        // `%v:CLASS =` defines, but not as a definition in operand text, so
        // the printed instruction read back as a use before its definition.
        let f = parse("entry:\n    %i:-fll = imu]<ompute d\n").unwrap();
        let text = print(&f);
        assert_eq!(print(&parse(&text).unwrap()), text);
    }

    #[test]
    fn machine_operands_keep_their_text() {
        let f = parse("mad.f32 %d:full, (neg)%a, c<%x + 2>, %b\n").err().unwrap();
        assert_eq!(f.pos, Pos { line: 1, col: 23 });
        let f = parse("%a:full = input r0.x\n%b:full = input r0.y\n%x:addr = input a0.x\nmad.f32 %d:full, (neg)%a, c<%x + 2>, %b\n").unwrap();
        let i = &f.blocks[0].insts[3];
        let Op::Machine { operands, .. } = &i.op else { panic!() };
        assert_eq!(operands[0], Piece::Def(0));
        assert_eq!(operands[1], Piece::Text(", (neg)".into()));
        assert_eq!(operands[3], Piece::Text(", c<".into()));
        assert_eq!(i.uses.len(), 3);
    }

    fn err(text: &str) -> IrError {
        parse(text).expect_err("should not parse")
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = err("entry:\n    add.f %d:full, %a, %b\n");
        assert_eq!((e.pos.line, e.pos.col), (2, 20));
        assert!(e.message.contains("`%a` is used before it is defined"), "{e}");

        let e = err("%a:full = input r0.x\n%a:full = input r0.y\n");
        assert_eq!((e.pos.line, e.pos.col), (2, 1));
        assert!(e.message.contains("defined twice") && e.help.is_some(), "{e}");

        let e = err("%a = input r0.x\n");
        assert!(e.message.contains("needs a register class"), "{e}");

        let e = err("%a:full[0] = input r0.x\n");
        assert!(e.message.contains("at least one register"), "{e}");
        assert_eq!(e.pos, Pos { line: 1, col: 9 });

        let e = err("%a:full[4] = input r0.x\n%b, %c, %d = split %a\n");
        assert!(e.message.contains("4 registers; 3 results"), "{e}");

        let e = err("%a:full = input r0.x\ngoto x\nend\n");
        assert!(e.message.contains("after the end of a block"), "{e}");

        let e = err("%a:full = input r0.x\nif %a then x\n");
        assert!(e.message.contains("expected `else BLOCK`"), "{e}");

        let e = err("%w:full = phi %zz from a\n");
        assert!(e.message.contains("`%zz` is used but never defined"), "{e}");
        assert_eq!(e.pos, Pos { line: 1, col: 15 });

        let e = err("abi cs\n");
        assert!(e.message.contains("abi STAGE VARIANT"), "{e}");

        let e = err("x:\nx:\n");
        assert!(e.message.contains("block `x` is defined twice"), "{e}");

        let e = err("%a:full = input r0.x\n%b:half = input hr0.x\n%c = collect %a, %b\n");
        assert!(e.message.contains("a collect joins values of one class"), "{e}");
        assert!(e.to_string().starts_with("3:6: "), "{e}");
    }
}
