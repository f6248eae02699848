//! The engine behind the generated typed builders (`isa!` emits a `build`
//! module per target when its spec has a `builder:` section).
//!
//! A builder method checks what the Rust type system can check (register file,
//! width, alignment, constant ranges, operand count, generation) and records
//! the instruction as its assembly template with typed operands in place. From
//! that record a [`Program`] gives either machine code ([`Program::encode`],
//! every register physical; each instruction assembled by the target's own
//! assembler, so the builders and the assembler cannot disagree about bits) or
//! the backend's IR text ([`Program::to_ir`], values virtual), which the backend
//! schedules, allocates and legalizes.

use std::fmt;
use std::marker::PhantomData;

use crate::machine::RegClass;
use crate::{Inst, Isa};

/// A register class a builder operand can name: a class of the spec's
/// `machine:` section, or a read-only file only the builder knows (constants,
/// uniforms). Generated unit structs implement it.
pub trait Class: Copy + 'static {
    /// The class as the machine model describes it (name, units, syntax,
    /// alignment).
    const CLASS: &'static RegClass;
    /// Whether the backend can allocate it (`false` for read-only files:
    /// such registers are always named physically).
    const ALLOCATABLE: bool;
    /// Registers in the class.
    const COUNT: u32;
}

/// A register or a virtual value the backend will allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// Register number `first` of the class.
    Phys(u32),
    /// Value number `n` of its program.
    Value(u32),
}

/// `N` consecutive registers of class `C` (`N = 2` for a 64-bit pair of
/// 32-bit registers), physical or virtual.
pub struct Reg<C, const N: usize = 1> {
    loc: Loc,
    _class: PhantomData<C>,
}

impl<C, const N: usize> Clone for Reg<C, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C, const N: usize> Copy for Reg<C, N> {}
impl<C, const N: usize> PartialEq for Reg<C, N> {
    fn eq(&self, o: &Self) -> bool {
        self.loc == o.loc
    }
}
impl<C, const N: usize> Eq for Reg<C, N> {}

impl<C: Class, const N: usize> fmt::Debug for Reg<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reg<{}, {N}>({:?})", C::CLASS.name, self.loc)
    }
}

/// Why `N` registers from `first` are not a register group of class `C`:
/// `None` when they are. A `const fn` so that [`Reg::at`] checks at compile time.
const fn group_problem<C: Class, const N: usize>(first: u32) -> Option<&'static str> {
    let n = N as u32;
    if n == 0 {
        return Some("a register group holds at least one register");
    }
    if first as u64 + n as u64 > C::COUNT as u64 {
        return Some("the registers run past the end of the class");
    }
    // The alignment entry with the largest `min_regs` not above N applies.
    let mut align = 1;
    let mut best = 0;
    let mut i = 0;
    while i < C::CLASS.align.len() {
        let a = C::CLASS.align[i];
        if a.min_regs <= n && a.min_regs >= best {
            best = a.min_regs;
            align = if a.align == 0 { 1 } else { a.align };
        }
        i += 1;
    }
    if !first.is_multiple_of(align) {
        return Some("a group of this many registers must start at a multiple of its alignment");
    }
    None
}

impl<C: Class, const N: usize> Reg<C, N> {
    /// Registers `R..R+N`, checked when the program is built: out of range or
    /// unaligned is a compile error (`cargo build`; `cargo check` does not
    /// evaluate constants).
    pub const fn at<const R: u32>() -> Self {
        const {
            if let Some(why) = group_problem::<C, N>(R) {
                panic!("{}", why);
            }
        }
        Reg { loc: Loc::Phys(R), _class: PhantomData }
    }

    /// Registers `first..first+N`, checked at run time.
    pub fn new(first: u32) -> Result<Self, BuildError> {
        match group_problem::<C, N>(first) {
            None => Ok(Reg { loc: Loc::Phys(first), _class: PhantomData }),
            Some(why) => Err(BuildError::Register { class: C::CLASS.name, first, count: N as u32, why }),
        }
    }

    /// Where the registers are.
    pub fn loc(self) -> Loc {
        self.loc
    }

    /// The operand this register is, for generated operand types.
    pub fn operand(self) -> Operand {
        Operand::reg(C::CLASS, N as u32, self.loc)
    }
}

/// The range of an immediate field, for [`Imm`]: generated marker types, one
/// per field, implement it.
pub trait ImmField: 'static {
    /// The field's name in the spec.
    const FIELD: &'static str;
    const MIN: i64;
    const MAX: i64;
}

/// An immediate for the field `F`, whose range is checked: at compile time with
/// [`imm!`](crate::imm) (or `const { Imm::new(v) }`), at run time through
/// `TryFrom<i64>`, whose error names the field.
pub struct Imm<F> {
    value: i64,
    _field: PhantomData<F>,
}

impl<F> Clone for Imm<F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Imm<F> {}

impl<F: ImmField> fmt::Debug for Imm<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Imm<{}>({})", F::FIELD, self.value)
    }
}

impl<F: ImmField> Imm<F> {
    /// The immediate `value`; panics when it does not fit, which inside
    /// `const { }` (as [`imm!`](crate::imm) writes it) is a compile error.
    pub const fn new(value: i64) -> Self {
        assert!(value >= F::MIN && value <= F::MAX, "the immediate does not fit its field");
        Imm { value, _field: PhantomData }
    }

    pub const fn value(self) -> i64 {
        self.value
    }

    pub fn operand(self) -> Operand {
        Operand { kind: OpKind::Int(self.value), int: "{}", float: "{}", mods: Vec::new() }
    }
}

impl<F: ImmField> TryFrom<i64> for Imm<F> {
    type Error = BuildError;
    fn try_from(value: i64) -> Result<Self, BuildError> {
        if value < F::MIN || value > F::MAX {
            return Err(BuildError::Immediate { field: F::FIELD, value, min: F::MIN, max: F::MAX });
        }
        Ok(Imm { value, _field: PhantomData })
    }
}

/// A range-checked immediate: a compile error when the constant does not fit
/// the field the argument goes to.
#[macro_export]
macro_rules! imm {
    ($v:expr) => {
        const { $crate::build::Imm::new($v) }
    };
}

/// One operand as written into an instruction.
#[derive(Clone, Debug)]
pub struct Operand {
    kind: OpKind,
    /// How integer and float constants are written for this operand kind
    /// (`{}` stands for the number).
    int: &'static str,
    float: &'static str,
    /// Modifier templates applied in order (`-{}`, `|{}|`).
    /// Modifiers by rank (their order in the spec) and template.
    mods: Vec<(u8, &'static str)>,
}

#[derive(Clone, Debug)]
enum OpKind {
    Reg { class: &'static RegClass, regs: u32, loc: Loc },
    Int(i64),
    Float(f64),
    Text(&'static str),
}

impl Operand {
    pub fn reg(class: &'static RegClass, regs: u32, loc: Loc) -> Self {
        Operand { kind: OpKind::Reg { class, regs, loc }, int: "{}", float: "{}", mods: Vec::new() }
    }

    /// An integer constant, written through `template`.
    pub fn int(value: i64, template: &'static str) -> Self {
        Operand { kind: OpKind::Int(value), int: template, float: "{}", mods: Vec::new() }
    }

    /// A float constant, written through `template`.
    pub fn float(value: f64, template: &'static str) -> Self {
        Operand { kind: OpKind::Float(value), int: "{}", float: template, mods: Vec::new() }
    }

    /// An operand written as given (a symbolic operand such as
    /// `hwreg(HW_REG_MODE)`, which the target's assembler checks).
    pub fn text(t: &'static str) -> Self {
        Operand { kind: OpKind::Text(t), int: "{}", float: "{}", mods: Vec::new() }
    }

    /// The operand with a source modifier (`-{}`) applied around it. Modifiers
    /// are written in rank order (the lowest innermost) whatever the order
    /// they are given in; one given twice counts once.
    pub fn with(mut self, rank: u8, template: &'static str) -> Self {
        if let Err(at) = self.mods.binary_search_by_key(&rank, |m| m.0) {
            self.mods.insert(at, (rank, template));
        }
        self
    }

    fn render(&self, p: &Program, ir: bool, write: bool, out: &mut String) -> Result<(), BuildError> {
        let core = match &self.kind {
            OpKind::Reg { class, regs, loc: Loc::Phys(r) } => class.name(p.isa.enums, *r, *regs, p.gen_),
            OpKind::Reg { class, regs, loc: Loc::Value(v) } => {
                if !ir {
                    return Err(BuildError::Virtual { value: *v });
                }
                let mut s = format!("%v{v}");
                if write {
                    s.push(':');
                    s.push_str(class.name);
                    if *regs > 1 {
                        s.push_str(&format!("[{regs}]"));
                    }
                }
                s
            }
            OpKind::Int(v) => self.int.replacen("{}", &v.to_string(), 1),
            OpKind::Float(v) => self.float.replacen("{}", &float_text(*v), 1),
            OpKind::Text(t) => t.to_string(),
        };
        let mut s = core;
        for (_, m) in &self.mods {
            s = m.replacen("{}", &s, 1);
        }
        out.push_str(&s);
        Ok(())
    }
}

/// A float the way assemblers read it: always with a point or exponent.
fn float_text(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E', 'n', 'i']) { s } else { format!("{s}.0") }
}

/// A piece of an instruction's assembly template, as the generator lays it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(&'static str),
    /// Operand number `n` of the method (written when `write`).
    Operand {
        n: u8,
        write: bool,
    },
    /// The option (a field of the encoding) of this index in the template's
    /// options; nothing when not set.
    Option(u8),
}

/// What a builder method writes, as data: the generator puts every method's
/// form in one table, so that a method's body is one call and its two shapes
/// (`x_to` and `x`) share it.
#[derive(Debug)]
pub struct Form {
    /// The encoding, unless `by_gen` names another for the program's generation.
    pub leaf: u16,
    /// `(generation value, encoding)` where the encoding differs by generation.
    pub by_gen: &'static [(u32, u16)],
    pub template: &'static [Piece],
    /// `(option field, text shown, default)` of each option, by index.
    pub options: &'static [(&'static str, &'static str, i64)],
}

/// One line of a program.
#[derive(Clone, Debug)]
enum Line {
    Inst {
        leaf: u16,
        template: &'static [Piece],
        /// The option fields of the template, by index: the field set, and the
        /// field that shows it.
        option_fields: &'static [(&'static str, &'static str, i64)],
        operands: Vec<Operand>,
        options: Vec<(u8, i64)>,
    },
    Input {
        value: u32,
        class: &'static RegClass,
        regs: u32,
        from: String,
    },
    Output {
        operand: Operand,
        to: Option<String>,
    },
    /// `%a, %b = split %v` (IR only).
    Split {
        from: u32,
        to: Vec<u32>,
    },
    /// `%v = collect %a, %b` (IR only).
    Collect {
        to: u32,
        from: Vec<Operand>,
    },
}

/// Instructions built for one target and generation, in order.
#[derive(Clone, Debug)]
pub struct Program {
    isa: &'static Isa,
    gen_: u32,
    header: Option<String>,
    lines: Vec<Line>,
    values: u32,
}

impl Program {
    pub fn new(isa: &'static Isa, gen_: u32) -> Self {
        Program { isa, gen_, header: None, lines: Vec::new(), values: 0 }
    }

    /// The IR's `abi STAGE VARIANT [PARAM=VALUE]...` line (what the backend
    /// reads inputs and outputs from).
    pub fn set_abi(&mut self, abi: &str) {
        self.header = Some(abi.to_string());
    }

    pub fn generation(&self) -> u32 {
        self.gen_
    }

    /// A new virtual value.
    pub fn value<C: Class, const N: usize>(&mut self) -> Reg<C, N> {
        self.values += 1;
        Reg { loc: Loc::Value(self.values - 1), _class: PhantomData }
    }

    /// A value the hardware provides: `from` is a register (`r0.x`) or
    /// `abi NAME` (docs of the backend's IR).
    pub fn input<C: Class, const N: usize>(&mut self, from: &str) -> Reg<C, N> {
        let r = self.value::<C, N>();
        let Loc::Value(value) = r.loc else { unreachable!("value() makes values") };
        self.lines.push(Line::Input { value, class: C::CLASS, regs: N as u32, from: from.to_string() });
        r
    }

    /// `r` is live at the end, optionally in a given register.
    pub fn output<C: Class, const N: usize>(&mut self, r: Reg<C, N>, to: Option<&str>) {
        self.lines.push(Line::Output { operand: r.operand(), to: to.map(str::to_string) });
    }

    /// The registers of a group, one by one: for values, new values the
    /// backend splits off; for registers, the registers.
    pub fn split<C: Class, const N: usize>(&mut self, r: Reg<C, N>) -> [Reg<C, 1>; N] {
        match r.loc {
            Loc::Phys(first) => std::array::from_fn(|i| Reg { loc: Loc::Phys(first + i as u32), _class: PhantomData }),
            Loc::Value(from) => {
                let parts: [Reg<C, 1>; N] = std::array::from_fn(|_| self.value::<C, 1>());
                let to = parts.iter().map(|p| if let Loc::Value(v) = p.loc { v } else { 0 }).collect();
                self.lines.push(Line::Split { from, to });
                parts
            }
        }
    }

    /// Registers as one group: consecutive registers are that group; values
    /// become a new value the backend places in consecutive registers.
    pub fn collect<C: Class, const N: usize>(&mut self, parts: [Reg<C, 1>; N]) -> Reg<C, N> {
        if let Some(Loc::Phys(first)) = parts.first().map(|p| p.loc)
            && parts.iter().enumerate().all(|(i, p)| p.loc == Loc::Phys(first + i as u32))
        {
            return Reg { loc: Loc::Phys(first), _class: PhantomData };
        }
        let r = self.value::<C, N>();
        let Loc::Value(to) = r.loc else { unreachable!("value() makes values") };
        self.lines.push(Line::Collect { to, from: parts.iter().map(|p| p.operand()).collect() });
        r
    }

    /// Records an instruction; returns its index for options.
    pub fn push(
        &mut self,
        leaf: u16,
        template: &'static [Piece],
        option_fields: &'static [(&'static str, &'static str, i64)],
        operands: Vec<Operand>,
    ) -> usize {
        self.lines.push(Line::Inst { leaf, template, option_fields, operands, options: Vec::new() });
        self.lines.len() - 1
    }

    /// [`push`](Self::push)es what a builder method writes: `form`'s encoding
    /// for the program's generation, its template and its options.
    pub fn push_form<const N: usize>(&mut self, form: &'static Form, operands: [Operand; N]) -> usize {
        let leaf = form.by_gen.iter().find(|(g, _)| *g == self.gen_).map_or(form.leaf, |&(_, l)| l);
        self.push(leaf, form.template, form.options, operands.into())
    }

    /// Sets option `index` (of the instruction's template) of line `line`.
    pub fn set_option(&mut self, line: usize, index: u8, value: i64) {
        if let Some(Line::Inst { options, .. }) = self.lines.get_mut(line) {
            options.retain(|(i, _)| *i != index);
            options.push((index, value));
        }
    }

    /// The assembly text of instruction line `i` (registers physical, or
    /// values in IR form when `ir`).
    fn text(&self, i: usize, ir: bool) -> Result<String, BuildError> {
        let Line::Inst { leaf, template, option_fields, operands, options } = &self.lines[i] else {
            return Err(BuildError::NotAnInstruction { line: i });
        };
        let mut s = String::new();
        for piece in template.iter() {
            match *piece {
                Piece::Text(t) => s.push_str(t),
                Piece::Operand { n, write } => operands[n as usize].render(self, ir, write, &mut s)?,
                // An option not set is the field at its default (zero unless
                // the template shows it optionally with a `default:`), written
                // as the printer writes it (nothing for a flag, `.lt` for a
                // condition).
                Piece::Option(o) => {
                    let (field, show, default) = option_fields[o as usize];
                    let v = options.iter().find(|(i, _)| *i == o).map_or(default, |&(_, v)| v);
                    let t = self.isa.field_text(*leaf, field, v, show, self.gen_).map_err(|reason| {
                        BuildError::Option { mnemonic: self.isa.leaves[*leaf as usize].name, field, value: v, reason }
                    })?;
                    s.push_str(&t);
                }
            }
        }
        Ok(s)
    }

    /// Assembles every instruction; all registers must be physical.
    pub fn encode(&self) -> Result<Vec<Inst>, BuildError> {
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            let Line::Inst { leaf, .. } = line else { continue };
            let text = self.text(i, false)?;
            let inst = self
                .isa
                .parse(&text, self.gen_)
                .map_err(|e| BuildError::Assemble { text: text.clone(), reason: e.message })?;
            let want = self.isa.leaves[*leaf as usize].name;
            let got = self.isa.leaves[inst.leaf as usize].name;
            if want != got {
                return Err(BuildError::Assemble { text, reason: format!("assembles as `{got}`, not `{want}`") });
            }
            out.push(inst);
        }
        Ok(out)
    }

    /// The program as the backend's IR text.
    pub fn to_ir(&self) -> Result<String, BuildError> {
        let mut s = String::new();
        if let Some(h) = &self.header {
            s.push_str(&format!("abi {h}\n"));
        }
        s.push_str("entry:\n");
        for (i, line) in self.lines.iter().enumerate() {
            s.push_str("    ");
            match line {
                Line::Inst { .. } => s.push_str(&self.text(i, true)?),
                Line::Input { value, class, regs, from } => {
                    let r = if *regs > 1 { format!("[{regs}]") } else { String::new() };
                    s.push_str(&format!("%v{value}:{}{r} = input {from}", class.name));
                }
                Line::Split { from, to } => {
                    let names: Vec<String> = to.iter().map(|v| format!("%v{v}")).collect();
                    s.push_str(&format!("{} = split %v{from}", names.join(", ")));
                }
                Line::Collect { to, from } => {
                    s.push_str(&format!("%v{to} = collect "));
                    for (i, o) in from.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        o.render(self, true, false, &mut s)?;
                    }
                }
                Line::Output { operand, to } => {
                    s.push_str("output ");
                    operand.render(self, true, false, &mut s)?;
                    if let Some(t) = to {
                        s.push(' ');
                        s.push_str(t);
                    }
                }
            }
            s.push('\n');
        }
        Ok(s)
    }
}

/// What a builder refused, named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A register group that the class does not have.
    Register {
        class: &'static str,
        first: u32,
        count: u32,
        why: &'static str,
    },
    /// An immediate outside its field.
    Immediate {
        field: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    /// A virtual value where machine code needs a register.
    Virtual {
        value: u32,
    },
    /// An option value the field cannot hold.
    Option {
        mnemonic: &'static str,
        field: &'static str,
        value: i64,
        reason: String,
    },
    /// The target's assembler refused the instruction (a rule the types cannot
    /// express, such as one scalar value per vector instruction).
    Assemble {
        text: String,
        reason: String,
    },
    NotAnInstruction {
        line: usize,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Register { class, first, count, why } => {
                write!(f, "{count} `{class}` register(s) from {first}: {why}")
            }
            BuildError::Immediate { field, value, min, max } => {
                write!(f, "{value} does not fit field {field} (range {min}..={max})")
            }
            BuildError::Virtual { value } => {
                write!(f, "value %v{value} has no register: encode needs physical registers (or compile the IR)")
            }
            BuildError::Option { mnemonic, field, value, reason } => {
                write!(f, "`{mnemonic}`: {field} = {value}: {reason}")
            }
            BuildError::Assemble { text, reason } => write!(f, "`{text}`: {reason}"),
            BuildError::NotAnInstruction { line } => write!(f, "line {line} is not an instruction"),
        }
    }
}

impl std::error::Error for BuildError {}
