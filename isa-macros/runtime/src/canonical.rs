//! Reading a line exactly as the printer writes it.
//!
//! The general assembler reads what a person may write: any run of white
//! space, commas left out, octal and bracketed numbers, names of derived
//! values; it binds what the text says as constraints and solves for the
//! rest. Most lines an assembler sees, though, were printed by a
//! disassembler or a compiler in the one form the printer writes. This
//! module reads only that form: a template's literal text as written, each
//! field's value in the one way [`crate::print`] formats it, an operand in
//! one of its forms, and nothing else. What it binds besides the fields
//! the text holds is what follows at once: what a leaf's conditions say of
//! one value alone, a parameter passed down from a bit field, a derived
//! value's source through the inverse tables, and at the end of the line
//! the few bits a computed value still needs. Bits the text does not name
//! are left zero and nothing is checked here; what it finds is a guess that
//! [`crate::Assembler`] confirms by decoding and printing it back, and
//! hands the line to the general assembler when it does not.

use crate::bits::Bits;
use crate::decode::MAX_DEPTH;
use crate::eval::{Env, Given};
use crate::inverse::Source;
use crate::openings::Openings;
use crate::place::Step;
use crate::tables::{BinOp, Isa, Op, Range, Src, Tok, Ty};

/// Template steps one line may take before the reading gives up. Each
/// operand tries its forms in turn and each way a field can be read is an
/// alternative, so a template could in principle multiply them; a real
/// line takes a few dozen.
const BUDGET: u32 = 2048;

/// What reading a line found: the bits the text sets, and the mask of the
/// bits it named (the leaf's identifying bits included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Read {
    pub bits: Bits,
    pub bound: Bits,
}

/// Reads `text` as case `case` of instruction `leaf` in syntax `syntax`
/// prints it; `None` when the text is not in that form.
pub(crate) fn read(
    isa: &Isa,
    text: &str,
    (gen_, syntax): (u32, u16),
    (leaf, case): (u16, u16),
    memory: &mut Memory,
) -> Option<Read> {
    let top = Step::top(leaf, case);
    memory.later.clear();
    memory.spans.clear();
    memory.spans.resize(isa.leaves[leaf as usize].cases[case as usize].fields.len(), Span::NONE);
    let mut r = Reader::start(isa, text.as_bytes(), (gen_, syntax), top, memory)?;
    let display = isa.leaves[leaf as usize].cases[case as usize].display_in(syntax);
    r.seq(Rest { toks: display, at: top, depth: 0, up: None }, 0).then_some(Read { bits: r.bits, bound: r.bound })
}

/// The bits case `case` of instruction `leaf` has before any of its text
/// is read: its identifying bits, and what its conditions say of one
/// value alone (see [`Reader::implied`]); `None` when they conflict.
pub(crate) fn implied(
    isa: &Isa,
    (gen_, syntax): (u32, u16),
    (leaf, case): (u16, u16),
    memory: &mut Memory,
) -> Option<Read> {
    memory.later.clear();
    Reader::start(isa, &[], (gen_, syntax), Step::top(leaf, case), memory)
        .map(|r| Read { bits: r.bits, bound: r.bound })
}

/// Ends a line read a field at a time ([`read_field`]): the values left
/// for its end hold, settling the few bits they still need (see
/// [`Reader::settle`]).
pub(crate) fn settle(
    isa: &Isa,
    (gen_, syntax): (u32, u16),
    (leaf, case): (u16, u16),
    read: Read,
    memory: &mut Memory,
) -> Option<Read> {
    if memory.later.is_empty() {
        return Some(read);
    }
    let top = Step::top(leaf, case);
    let mut r = Reader::new(isa, &[], (gen_, syntax), top, read, memory);
    r.settle().then_some(Read { bits: r.bits, bound: r.bound })
}

/// Reads all of `text` as field `field` of case `case` of `leaf`, on the
/// bits `read` has bound: what [`crate::recall`] leaves to the templates
/// (an operand text not met before, a field computed from others). The
/// field's [`Span`], for an operand, starts at 0. Computed values it
/// cannot judge yet wait for the end of the line ([`settle`]), as they
/// would reading the line whole (ir3's `h` before a register; the
/// registers of GCN's image data, as many as the later `dmask` says).
pub(crate) fn read_field(
    isa: &Isa,
    text: &[u8],
    (gen_, syntax): (u32, u16),
    (leaf, case): (u16, u16),
    field: u16,
    read: Read,
    memory: &mut Memory,
) -> Option<Read> {
    let top = Step::top(leaf, case);
    memory.spans.clear();
    memory.spans.resize(field as usize + 1, Span::NONE);
    let mut r = Reader::new(isa, text, (gen_, syntax), top, read, memory);
    r.defer = true;
    let end = Rest { toks: &[], at: top, depth: 0, up: None };
    r.field(end, field, end, 0).then_some(Read { bits: r.bits, bound: r.bound })
}

/// Where an operand field of the instruction read last was found in the
/// line (`start..end`), and the bits reading it bound that were not bound
/// before: its own, and the instruction's bits it passes as parameters
/// (GCN's `-|v1|` binds the modifier bits). What [`crate::recall`] learns
/// an operand's text from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub end: u32,
    before: Bits,
    pub named: Bits,
}

impl Span {
    const NONE: Span = Span { start: u32::MAX, end: u32::MAX, before: 0, named: 0 };
}

/// What reading learns about templates once and keeps: which bytes each
/// operand form can start with, and what each leaf's conditions say of
/// one field alone.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    openings: Openings,
    /// The syntax's operand forms, once asked for.
    forms: Option<&'static crate::forms::Forms>,
    /// By group, the forms a text starting with each byte may be in (see
    /// [`Memory::opening_with`]).
    opening: Vec<ByOpening>,
    /// By leaf, by case.
    sayings: Vec<Option<Sayings>>,
    /// The computed values of the line being read left to check at its
    /// end (see [`Reader::may_be`]).
    later: Vec<Later>,
    /// By field of the instruction read last, where its operand was read.
    spans: Vec<Span>,
}

/// Most unbound bits a computed value may read and still be settled by
/// trying their values (see [`Reader::settle`]).
const MAX_SETTLED_BITS: u32 = 6;

/// Most bits of an operand's word its text may leave unnamed and still be
/// settled by trying their values (see [`Reader::settle_form`]): a GCN
/// scalar source's eight.
const MAX_FORM_BITS: u32 = 8;

/// A value a template prints that the text gave but its bits do not yet
/// decide: where it is computed, and what it must be.
#[derive(Clone, Copy, Debug)]
struct Later {
    path: [Step; MAX_DEPTH],
    depth: u8,
    what: Computed,
    v: i128,
}

/// Whether the word of the operand of `group` at `at` (its form and case
/// as read), at `depth` below `path`, decodes to that form and prints that
/// case in `syntax`. Deciding sets `path[depth]`.
fn decodes_to_form(
    env: &mut Env<'_>,
    (path, depth): (&mut [Step; MAX_DEPTH], usize),
    at: Step,
    (group, syntax): (u16, u16),
) -> bool {
    let isa = env.isa;
    isa.pick_leaf(env, path, depth, group, (at.base, at.map), at.via) == Some(at.leaf)
        && isa.select_case(env, path, depth, syntax) == at.case
}

/// How a [`Later`] value is computed: an expression, a parameter, or
/// whether the word of the operand at the end of the path decodes to the
/// form there and prints its case (1) or not (0): a form chosen by a
/// parameter computed from bits read later (see [`Reader::settle_form`]).
#[derive(Clone, Copy, Debug)]
enum Computed {
    Expr(crate::tables::Expr),
    Param(u16),
    Form { group: u16, syntax: u16, reads: Bits },
}

impl Later {
    fn value(&self, env: &mut Env<'_>) -> i64 {
        let path = &self.path[..=self.depth as usize];
        match self.what {
            Computed::Expr(e) => env.eval(path, e),
            Computed::Param(p) => env.param(path, p),
            Computed::Form { group, syntax, .. } => {
                let (mut path, depth) = (self.path, self.depth as usize);
                let at = path[depth];
                decodes_to_form(env, (&mut path, depth), at, (group, syntax)) as i64
            }
        }
    }
}

/// A group's forms by the byte their text may start with: for each byte,
/// a run of [`ByOpening::forms`], the indices (in spec order) of the forms
/// whose template starts with that byte or with a field that may.
#[derive(Debug, Default)]
struct ByOpening {
    runs: Box<[(u32, u32)]>,
    forms: Box<[u16]>,
}

impl Memory {
    /// How many values wait for the end of the line, and forgetting those
    /// past `n` (a field read on its own whose line then failed).
    pub(crate) fn waiting(&self) -> usize {
        self.later.len()
    }

    pub(crate) fn forget_after(&mut self, n: usize) {
        self.later.truncate(n);
    }

    /// Where each operand field of the instruction last read was found,
    /// by field index ([`Span`]; fields that are no operand, or were not
    /// read, start at `u32::MAX`).
    pub(crate) fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// The forms of `group` in syntax `syntax`, and the run of
    /// [`ByOpening::forms`] that may read a text starting with `b`: what
    /// trying every form with its first letter and openings would keep,
    /// found once per group and byte rather than for every operand read.
    fn opening_with(
        &mut self,
        isa: &Isa,
        syntax: u16,
        group: u16,
        b: u8,
    ) -> (&'static [crate::forms::Form], std::ops::Range<usize>) {
        let forms = self.forms.get_or_insert_with(|| crate::forms::index(isa, syntax)).of(group);
        if self.opening.len() <= group as usize {
            self.opening.resize_with(isa.groups.len().max(group as usize + 1), ByOpening::default);
        }
        if self.opening[group as usize].runs.is_empty() {
            self.openings.prepare(isa, syntax, group);
            let (mut runs, mut list) = (Vec::with_capacity(256), Vec::new());
            for b in 0..=255u8 {
                let start = list.len() as u32;
                list.extend(
                    (0..forms.len())
                        .filter(|&i| (forms[i].first == 0 || forms[i].first == b) && self.openings.opens(group, i, b))
                        .map(|i| i as u16),
                );
                runs.push((start, list.len() as u32));
            }
            self.opening[group as usize] = ByOpening { runs: runs.into(), forms: list.into() };
        }
        let (start, end) = self.opening[group as usize].runs[b as usize];
        (forms, start as usize..end as usize)
    }

    /// Saying `k` of case `case` of `leaf`, once [`Memory::sayings`] has
    /// worked them out.
    fn said(&self, leaf: u16, case: u16, k: usize) -> Option<Said> {
        self.sayings.get(leaf as usize)?.as_ref()?.get(case as usize)?.get(k).copied()
    }

    /// What case `case` of `leaf` says of one field alone (see
    /// [`Reader::implied`]).
    fn sayings(&mut self, isa: &Isa, (gen_, syntax): (u32, u16), leaf: u16, case: u16) -> &[Said] {
        if self.sayings.len() < isa.leaves.len() {
            self.sayings.resize(isa.leaves.len(), None);
        }
        let l = &isa.leaves[leaf as usize];
        let cases = self.sayings[leaf as usize]
            .get_or_insert_with(|| (0..l.cases.len()).map(|c| sayings(isa, (gen_, syntax), l, c)).collect());
        cases.get(case as usize).map_or(&[], |c| c)
    }
}

/// What each case of a leaf says of one value alone.
type Sayings = Box<[Box<[Said]>]>;

/// A condition of a leaf that names one value alone: that it is `v` (`is`)
/// or is not.
#[derive(Clone, Copy, Debug)]
struct Said {
    what: Named,
    v: i64,
    is: bool,
}

/// The value a [`Said`] names: a parameter, or a bit field of the leaf.
#[derive(Clone, Copy, Debug)]
enum Named {
    Param(u16),
    Bits(&'static [Range]),
}

/// What the leaf's `requires` and case `case`'s condition say of one value
/// alone (`GDS`, `!ABS`, `W == 2`), and, for a one-bit value, the
/// conditions of the cases before it, which fail. A condition that must
/// hold says what is left of it in generation `gen_` (GCN's MTBUF
/// `gen < 8 || OPLO == 1` is `OPLO == 1` from gfx8 on).
fn sayings(isa: &Isa, (gen_, syntax): (u32, u16), l: &crate::Leaf, case: usize) -> Box<[Said]> {
    let fields = l.default_case().fields;
    let mut out = Vec::new();
    let mut add = |c: crate::tables::Expr, holds: bool| {
        let c = if holds { in_gen(isa, gen_, c) } else { Some(c) };
        out.extend(c.and_then(|c| said(fields, c, holds)))
    };
    for &e in l.requires {
        crate::parse::push_conjuncts(e, &mut |c| add(c, true));
    }
    if let Some(e) = l.cases.get(case).and_then(|c| c.when) {
        crate::parse::push_conjuncts(e, &mut |c| add(c, true));
    }
    for c in &l.cases[..case] {
        if let Some(e) = c.when
            && !c.parse_only
            && c.applies_in(syntax)
            && !matches!(e, [.., Op::Bin(BinOp::And)])
        {
            add(e, false);
        }
    }
    out.into_boxed_slice()
}

/// What is left of condition `c` in generation `gen_` when it holds: of a
/// disjunction, the side that does not fail on the generation alone;
/// `None` when a side holds on the generation alone (the condition then
/// says nothing).
fn in_gen(isa: &Isa, gen_: u32, c: crate::tables::Expr) -> Option<crate::tables::Expr> {
    let [rest @ .., Op::Bin(BinOp::Or)] = c else { return Some(c) };
    let Some((a, b)) = crate::parse::binary_operands(rest) else { return Some(c) };
    // A side reading nothing but the generation and constants.
    let on_gen = |e: crate::tables::Expr| {
        e.iter().all(|op| !matches!(op, Op::Field(_) | Op::Param(_))).then(|| {
            let mut env = Env { isa, bits: 0, gen_, read: 0, given: Given::NONE };
            env.eval(&[], e) != 0
        })
    };
    match (on_gen(a), on_gen(b)) {
        (Some(true), _) | (_, Some(true)) => None,
        (Some(false), _) => in_gen(isa, gen_, b),
        (_, Some(false)) => in_gen(isa, gen_, a),
        _ => Some(c),
    }
}

/// What condition `c` says of one value when it holds (`holds`) or fails.
fn said(fields: &[crate::Field], c: crate::tables::Expr, holds: bool) -> Option<Said> {
    let (x, v, is) = match c {
        [x] => (x, 0, !holds),
        [x, Op::Not] => (x, 0, holds),
        [x, Op::Lit(v), Op::Bin(BinOp::Eq)] | [Op::Lit(v), x, Op::Bin(BinOp::Eq)] => (x, *v, holds),
        _ => return None,
    };
    let what = match *x {
        Op::Param(p) => Named::Param(p),
        Op::Field(j) => match fields.get(j as usize)?.src {
            Src::Param(p) => Named::Param(p),
            Src::Bits(ranges) => Named::Bits(ranges),
            Src::Expr(_) => return None,
        },
        _ => return None,
    };
    Some(Said { what, v, is })
}

struct Reader<'a> {
    isa: &'a Isa,
    memory: &'a mut Memory,
    text: &'a [u8],
    gen_: u32,
    syntax: u16,
    bits: Bits,
    bound: Bits,
    steps: u32,
    /// The scope of the field being read, for the expressions a field's
    /// format names (an operand's steps, outermost first).
    path: [Step; MAX_DEPTH],
    /// Whether the values left for the end of the line wait for its end
    /// (a field read on its own text: see [`read_field`]).
    defer: bool,
    /// The group of the operand read at each depth (below the top).
    groups: [u16; MAX_DEPTH],
}

/// What is left to read: the rest of a template, at its leaf's place, and
/// what follows once it is read (the rest of the enclosing template).
#[derive(Clone, Copy)]
struct Rest<'r> {
    toks: &'static [Tok],
    at: Step,
    depth: u8,
    up: Option<&'r Rest<'r>>,
}

impl<'a> Reader<'a> {
    /// A reader of `text` for the template of `top`, on the bits `read`
    /// has bound.
    fn new(
        isa: &'a Isa,
        text: &'a [u8],
        (gen_, syntax): (u32, u16),
        top: Step,
        read: Read,
        memory: &'a mut Memory,
    ) -> Reader<'a> {
        Reader {
            isa,
            memory,
            text,
            gen_,
            syntax,
            bits: read.bits,
            bound: read.bound,
            steps: 0,
            path: [top; MAX_DEPTH],
            defer: false,
            groups: [0; MAX_DEPTH],
        }
    }

    /// A reader of `text` at the start of the template of `top`, with the
    /// bits its leaf and conditions give; `None` when those conflict.
    fn start(
        isa: &'a Isa,
        text: &'a [u8],
        (gen_, syntax): (u32, u16),
        top: Step,
        memory: &'a mut Memory,
    ) -> Option<Reader<'a>> {
        let l = &isa.leaves[top.leaf as usize];
        let mut r = Reader::new(isa, text, (gen_, syntax), top, Read { bits: l.value & l.mask, bound: l.mask }, memory);
        r.implied(0, top).then_some(r)
    }

    fn seq(&mut self, r: Rest<'_>, pos: usize) -> bool {
        self.steps += 1;
        if self.steps > BUDGET {
            return false;
        }
        let Some((tok, toks)) = r.toks.split_first() else {
            return match r.up {
                None => pos == self.text.len() && (self.defer || self.settle()),
                Some(up) => {
                    if !self.settle_form(r) {
                        return false;
                    }
                    if r.depth == 1
                        && let Some(s) = self.memory.spans.get_mut(r.at.via as usize)
                    {
                        (s.end, s.named) = (pos as u32, self.bound & !s.before);
                    }
                    self.seq(*up, pos)
                }
            };
        };
        let next = Rest { toks, ..r };
        match *tok {
            Tok::Lit(s) | Tok::Opt(s) => self.lit(pos, s).is_some_and(|p| self.seq(next, p)),
            Tok::Name => {
                let name = self.isa.leaves[r.at.leaf as usize].name_in(self.syntax);
                self.lit(pos, name).is_some_and(|p| self.seq(next, p))
            }
            // One space, or spaces up to the syntax's column: the printer's
            // choice, which printing the guess back checks.
            Tok::Column => {
                let n = self.text.get(pos..).map_or(0, |t| t.iter().take_while(|&&b| b == b' ').count());
                n > 0 && self.seq(next, pos + n)
            }
            Tok::Field(i) => self.field(r, i, next, pos),
            Tok::OptField(s, i, _) => self.lit(pos, s).is_some_and(|p| self.field(r, i, next, p)),
        }
    }

    /// Where literal text `s` ends if the text holds it at `pos`.
    fn lit(&self, pos: usize, s: &str) -> Option<usize> {
        let end = pos + s.len();
        // Byte by byte: literals are a few bytes, shorter than a call to compare.
        let here = self.text.get(pos..end)?;
        here.iter().zip(s.as_bytes()).all(|(a, b)| a == b).then_some(end)
    }

    /// Reads field `i` of the leaf of `r` at `pos`, then `next`.
    fn field(&mut self, r: Rest<'_>, i: u16, next: Rest<'_>, pos: usize) -> bool {
        let case = &self.isa.leaves[r.at.leaf as usize].cases[r.at.case as usize];
        let field = &case.fields[i as usize];
        if let Ty::Group { group, .. } = field.ty {
            return match field.src {
                Src::Bits(ranges) => self.operand(r, i, (group, ranges), next, pos),
                _ => false,
            };
        }
        let width = match (field.ty, field.width()) {
            (Ty::Float { format: Some(e) }, _) => {
                self.path[r.depth as usize] = r.at;
                let mut env = Env { isa: self.isa, bits: self.bits, gen_: self.gen_, read: 0, given: Given::NONE };
                env.eval(&self.path[..=r.depth as usize], e) as u32
            }
            (_, Some(w)) => w,
            (_, None) => 64,
        };
        let mut ways = [(0i128, 0usize); 4];
        let n = values(self.isa, self.text, field.ty, width, pos, &mut ways);
        for &(v, end) in &ways[..n] {
            let saved = (self.bits, self.bound);
            let later = self.memory.later.len();
            // A derived value, or a parameter not passed as a plain field,
            // is printed from other bits; printing the guess back checks it.
            let bound = match field.src {
                Src::Bits(ranges) => self.bind(&r.at, ranges, v),
                Src::Param(p) => match self.param_place(r.depth as usize, r.at, p) {
                    Some((at, ranges)) => self.bind(&at, ranges, v),
                    None => self.may_be(r, Computed::Param(p), v),
                },
                Src::Expr(e) => self.bind_source(r, e, v),
            };
            if bound && self.seq(next, end) {
                return true;
            }
            (self.bits, self.bound) = saved;
            self.memory.later.truncate(later);
        }
        false
    }

    /// Reads an operand of `group` held in `ranges` of the leaf of `r` (its
    /// field `via`) at `pos` in each of the group's forms in turn, then `next`.
    fn operand(
        &mut self,
        r: Rest<'_>,
        via: u16,
        (group, ranges): (u16, &'static [Range]),
        next: Rest<'_>,
        pos: usize,
    ) -> bool {
        let depth = r.depth as usize + 1;
        if depth >= MAX_DEPTH {
            return false;
        }
        let Some((base, map)) = r.at.child(ranges) else { return false };
        self.path[r.depth as usize] = r.at;
        self.groups[depth] = group;
        if depth == 1
            && let Some(s) = self.memory.spans.get_mut(via as usize)
        {
            *s = Span { start: pos as u32, before: self.bound, ..Span::NONE };
        }
        let here = self.text.get(pos).copied().unwrap_or(0);
        let (forms, tries) = self.memory.opening_with(self.isa, self.syntax, group, here);
        for k in tries {
            // A form tried before may have read on to the end of the line
            // and back, over other operands' steps.
            self.scope(&r);
            let form = &forms[self.memory.opening[group as usize].forms[k] as usize];
            if !form.exists_in(self.gen_) {
                continue;
            }
            let leaf = &self.isa.leaves[form.leaf as usize];
            let case = &leaf.cases[form.case as usize];
            if case.parse_only {
                continue;
            }
            let at = Step { leaf: form.leaf, case: form.case, base, via, map };
            let saved = (self.bits, self.bound);
            if self.bind_word(at.in_word(leaf.mask), at.in_word(leaf.value & leaf.mask))
                && self.implied(depth, at)
                && self.seq(Rest { toks: case.display_in(self.syntax), at, depth: depth as u8, up: Some(&next) }, pos)
            {
                return true;
            }
            (self.bits, self.bound) = saved;
        }
        false
    }

    /// Whether the field holding the operand at `depth` of [`Reader::path`]
    /// passes it constants alone (most do: a register's width), which read
    /// no bits.
    fn params_constant(&self, depth: usize) -> bool {
        let (parent, child) = (self.path[depth - 1], self.path[depth]);
        let case = &self.isa.leaves[parent.leaf as usize].cases[parent.case as usize];
        match case.fields.get(child.via as usize).map(|f| f.ty) {
            Some(Ty::Group { params, .. }) => params.iter().all(|e| matches!(e, [Op::Lit(_)])),
            _ => true,
        }
    }

    /// Sets [`Reader::path`] to the steps down to `r`'s leaf, from the
    /// templates it is read within.
    fn scope(&mut self, r: &Rest<'_>) {
        let mut at = Some(r);
        while let Some(x) = at {
            self.path[x.depth as usize] = x.at;
            at = x.up;
        }
    }

    /// Settles the bits of the operand form just read (`r`, at its end)
    /// that its text did not name: to the first value, counting up, whose
    /// word decodes to this form and prints this case, as the general
    /// assembler's solver takes the smallest; false when none does. A form
    /// whose text names no field (GCN's `flat_scratch_hi`, which is one
    /// code of two that its `requires` lists, the odd one) leaves its word
    /// to its conditions alone. A word with more than [`MAX_FORM_BITS`]
    /// unnamed bits is left to the printing back. A form whose parameters
    /// read bits not bound yet (GCN's `exp` sources, `off` or a register by
    /// a bit of the enable mask that no text names) waits for the end of
    /// the line, settled with the other values left for it.
    fn settle_form(&mut self, r: Rest<'_>) -> bool {
        let (isa, depth, at) = (self.isa, r.depth as usize, r.at);
        let group = self.groups[depth];
        self.scope(&r);
        let mut env = Env { isa, bits: self.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        if !self.params_constant(depth) {
            for p in 0..isa.groups[group as usize].params.len() {
                env.param(&self.path[..=depth], p as u16);
            }
        }
        let reads = env.read & !self.bound;
        if reads != 0 {
            let what = Computed::Form { group, syntax: self.syntax, reads };
            self.memory.later.push(Later { path: self.path, depth: depth as u8, what, v: 1 });
            return true;
        }
        // A word named whole, or one whose unnamed bits (zero) already meet
        // the form's `requires` (a pair's low bit), is judged by printing
        // back.
        let word = at.in_word(crate::bits::mask_of(0, isa.groups[group as usize].bits));
        let free = word & !self.bound;
        if free == 0 || free.count_ones() > MAX_FORM_BITS {
            return true;
        }
        let requires = isa.leaves[at.leaf as usize].requires;
        if requires.iter().all(|&e| env.eval(&self.path[..=depth], e) != 0) {
            return true;
        }
        let mut path = self.path;
        for k in 0..1u64 << free.count_ones() {
            // Each value tried is a step of the line's budget, so that a
            // line of many such forms still ends soon.
            self.steps += 1;
            if self.steps > BUDGET {
                return false;
            }
            let assign = crate::parse::deposit(k, free);
            let mut env = Env { isa, bits: (self.bits & !free) | assign, gen_: self.gen_, read: 0, given: Given::NONE };
            let picked = decodes_to_form(&mut env, (&mut path, depth), at, (group, self.syntax));
            if env.read & !(self.bound | free) != 0 {
                return true;
            }
            if picked {
                return self.bind_word(free, assign);
            }
        }
        false
    }

    /// Where parameter `p` of the leaf at `at` (at `depth`) comes from when the fields
    /// above pass it down unchanged from a bit field: that field's leaf and
    /// ranges (GCN's `-|v1|`, whose modifier bits the instruction holds).
    fn param_place(&mut self, mut depth: usize, at: Step, mut p: u16) -> Option<(Step, &'static [Range])> {
        self.path[depth] = at;
        while depth > 0 {
            let (child, parent) = (self.path[depth], self.path[depth - 1]);
            let case = &self.isa.leaves[parent.leaf as usize].cases[parent.case as usize];
            let Ty::Group { params, .. } = case.fields.get(child.via as usize)?.ty else { return None };
            let field = match params.get(p as usize)? {
                [Op::Field(j)] => case.fields.get(*j as usize)?,
                [Op::Param(q)] => {
                    (p, depth) = (*q, depth - 1);
                    continue;
                }
                _ => return None,
            };
            return match field.src {
                Src::Bits(ranges) => Some((parent, ranges)),
                Src::Param(q) => {
                    (p, depth) = (q, depth - 1);
                    continue;
                }
                // Another name for a bit field, or its low bits (GCN's
                // `LIT16: LITERAL & 0xffff`): the whole field is bound, its
                // high bits zero as the general assembler would leave them.
                Src::Expr([Op::Field(k)] | [Op::Field(k), Op::Lit(_), Op::Bin(BinOp::BitAnd)]) => {
                    match case.fields.get(*k as usize)?.src {
                        Src::Bits(ranges) if low_mask(field.src) => Some((parent, ranges)),
                        _ => None,
                    }
                }
                Src::Expr(_) => None,
            };
        }
        None
    }

    /// Binds the bit field a derived value `e` of the leaf of `r` is
    /// computed from, when it is computed from one narrow field alone (see
    /// [`crate::inverse`]), to the value that gives `v`; false when no
    /// value does, the bits disagree with those bound, or the bound bits
    /// decide the value and it is not `v`. A value computed otherwise is
    /// checked at the end of the line ([`Reader::may_be`]).
    fn bind_source(&mut self, r: Rest<'_>, e: crate::tables::Expr, v: i128) -> bool {
        let Ok(n) = i64::try_from(v) else { return false };
        // Another name for a bit field (GCN's `K: LITERAL`).
        if let [Op::Field(j)] = e
            && let Some(Src::Bits(ranges)) =
                self.isa.leaves[r.at.leaf as usize].cases[r.at.case as usize].fields.get(*j as usize).map(|f| f.src)
        {
            return self.bind(&r.at, ranges, v);
        }
        self.path[r.depth as usize] = r.at;
        let path = &self.path[..=r.depth as usize];
        // A value the bits bound so far decide (a register range's last
        // register, once its first is read) is only compared.
        let mut env = Env { isa: self.isa, bits: self.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        let got = env.eval(path, e);
        if env.read & !self.bound == 0 {
            return got as i128 == v;
        }
        match crate::inverse::source_of(self.isa, path, (self.bits, self.bound), self.gen_, e, n) {
            Some(Source::Unique(field, value)) => match field.src {
                Src::Bits(ranges) => self.bind(&r.at, ranges, value as i128),
                _ => true,
            },
            Some(Source::Several { field, mask, value }) => match field.src {
                Src::Bits(ranges) => {
                    let m = r.at.insert(0, ranges, mask).0;
                    self.bind_word(m, r.at.insert(0, ranges, value & mask).0)
                }
                _ => true,
            },
            Some(Source::None { .. }) => false,
            None => self.may_be(r, Computed::Expr(e), v),
        }
    }

    /// Whether a value the leaf of `r` computes (`what`) may be `v`: when
    /// it reads nothing but bits bound so far, whether it is; else it is
    /// checked once the whole line is read ([`Reader::settle`]). GCN's
    /// 16-bit literal form, whose parameter the instruction passes as 0,
    /// cannot read a literal there; ir3's `h` before a register says that
    /// `FULL == DST_CONV`, which settles once the register is read.
    fn may_be(&mut self, r: Rest<'_>, what: Computed, v: i128) -> bool {
        self.path[r.depth as usize] = r.at;
        let later = Later { path: self.path, depth: r.depth, what, v };
        let mut env = Env { isa: self.isa, bits: self.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        let got = later.value(&mut env);
        if env.read & !self.bound == 0 {
            return got as i128 == v;
        }
        self.memory.later.push(later);
        true
    }

    /// Makes the values [`Reader::may_be`] left for later what the text
    /// read: together they read bound bits and a few more, which take the
    /// first values (counting up) that give every one (as the general
    /// assembler's solver gives the smallest); false when none do. Values
    /// reading many unbound bits are left to the printing back.
    fn settle(&mut self) -> bool {
        let later = std::mem::take(&mut self.memory.later);
        let ok = self.settle_all(&later);
        self.memory.later = later;
        ok
    }

    fn settle_all(&mut self, later: &[Later]) -> bool {
        let mut free = 0;
        for l in later {
            // A form whose parameters' bits the text went on to name is
            // judged by printing back.
            if let Computed::Form { reads, .. } = l.what
                && reads & !self.bound == 0
            {
                continue;
            }
            let mut env = Env { isa: self.isa, bits: self.bits, gen_: self.gen_, read: 0, given: Given::NONE };
            let got = l.value(&mut env);
            match env.read & !self.bound {
                0 if got as i128 != l.v => return false,
                unbound => free |= unbound,
            }
        }
        if free == 0 || free.count_ones() > MAX_SETTLED_BITS {
            return true;
        }
        let bits = self.bits & !free;
        let holds = |assign: Bits| {
            let mut env = Env { isa: self.isa, bits: bits | assign, gen_: self.gen_, read: 0, given: Given::NONE };
            later.iter().all(|l| l.value(&mut env) as i128 == l.v)
        };
        match (0..1u64 << free.count_ones()).map(|k| crate::parse::deposit(k, free)).find(|&a| holds(a)) {
            Some(assign) => self.bind_word(free, assign),
            None => false,
        }
    }

    /// Binds what the leaf at `at` (at `depth`) says of one bit field or
    /// parameter alone, in its `requires` (`GDS`, `!ABS`, `W == 2`: GCN's
    /// `-|v1|` is a form that requires both modifier bits), in the
    /// condition of its case (`P == 0` for `vcc_lo`), and, for a one-bit
    /// value, in the conditions of the cases before it, which fail (`vcc_hi`
    /// is the default case after `P == 0`); only what follows exactly (`X`
    /// failing makes `X` zero; holding, a one-bit `X` one), a parameter
    /// where it is passed down from a bit field. False on a conflict.
    fn implied(&mut self, depth: usize, at: Step) -> bool {
        let n = self.memory.sayings(self.isa, (self.gen_, self.syntax), at.leaf, at.case).len();
        for k in 0..n {
            let Some(s) = self.memory.said(at.leaf, at.case, k) else { break };
            let place = match s.what {
                Named::Bits(ranges) => Some((at, ranges)),
                Named::Param(p) => self.param_place(depth, at, p),
            };
            if let Some((step, ranges)) = place
                && !self.bind_said(step, ranges, s.v, s.is)
            {
                return false;
            }
        }
        true
    }

    /// Binds a field that is `v` (`is`) or is not: a one-bit field that is
    /// not 0 or 1 is the other; a wider one is left alone.
    fn bind_said(&mut self, at: Step, ranges: &[Range], v: i64, is: bool) -> bool {
        match (is, crate::bits::width_of(ranges), v) {
            (true, _, v) => self.bind(&at, ranges, v as i128),
            (false, 1, 0 | 1) => self.bind(&at, ranges, 1 - v as i128),
            _ => true,
        }
    }

    /// Binds a field made of `ranges` (of the leaf at `at`) to `v`; false
    /// when it does not fit or disagrees with bits already bound.
    fn bind(&mut self, at: &Step, ranges: &[Range], v: i128) -> bool {
        let width = crate::bits::width_of(ranges);
        let (lo, hi) = if width >= 127 { (i128::MIN, i128::MAX) } else { (-(1i128 << width), (1i128 << width) - 1) };
        if v < lo || v > hi {
            return false;
        }
        let value = (v as u128) & crate::bits::mask_of(0, width);
        let (nb, written) = at.insert(self.bits, ranges, value);
        self.bind_word(written, nb & written)
    }

    /// Binds the word bits `m` to those of `v`; false on a conflict.
    fn bind_word(&mut self, m: Bits, v: Bits) -> bool {
        crate::bits::bind(&mut self.bits, &mut self.bound, m, v)
    }
}

/// The ways a value of type `ty` (`width` bits) is printed at `pos` of `text`, as
/// (value, end) pairs in `out`, the most text first; how many.
pub(crate) fn values(isa: &Isa, text: &[u8], ty: Ty, width: u32, pos: usize, out: &mut [(i128, usize); 4]) -> usize {
    let rest = text.get(pos..).unwrap_or(&[]);
    let one = |out: &mut [(i128, usize); 4], r: Option<(i128, usize)>| match r {
        Some((v, n)) => {
            out[0] = (v, pos + n);
            1
        }
        None => 0,
    };
    match ty {
        Ty::Uint | Ty::UintSat => one(out, decimal(rest)),
        Ty::Int => one(out, signed(rest)),
        Ty::Hex => one(out, hex(rest)),
        Ty::HexLit { .. } => one(out, rest.strip_prefix(b"0x").and_then(hex).map(|(v, n)| (v, n + 2))),
        Ty::Bool { on, inverted } => {
            let (set, clear) = if inverted { (0, 1) } else { (1, 0) };
            let mut n = 0;
            if !on.is_empty() && crate::short_text::begins(rest, on.as_bytes()) {
                out[0] = (set, pos + on.len());
                n = 1;
            }
            out[n] = (clear, pos);
            n + 1
        }
        // Nothing when zero, else `+N` (or `-N`).
        Ty::Offset | Ty::UOffset => {
            let read = match rest.first() {
                Some(b'+') => decimal(&rest[1..]).map(|(v, n)| (v, n + 1)),
                Some(b'-') if matches!(ty, Ty::Offset) => signed(rest),
                _ => None,
            };
            let mut n = 0;
            if let Some((v, len)) = read.filter(|&(v, _)| v != 0) {
                out[0] = (v, pos + len);
                n = 1;
            }
            out[n] = (0, pos);
            n + 1
        }
        Ty::Float { .. } => one(out, float(rest, width)),
        Ty::Enum(e) => {
            // Longest name first: one may begin another (`BYTE_1`, `BYTE_10`).
            // Where more names begin the text than `out` holds, the longest
            // are kept, whatever their order in the enum: ir3's write mask
            // `xyzw` is begun by ``, `x`, `xy` and `xyz` listed before it,
            // and keeping the first four met read `(xyzw)` as `(xyz` and
            // left every texture line to the general assembler.
            let mut n = 0;
            for v in isa.enums[e as usize].values {
                let d = v.display.as_bytes();
                if !crate::short_text::begins(rest, d) {
                    continue;
                }
                let end = pos + d.len();
                let at = out[..n].iter().position(|&(_, kept)| kept < end).unwrap_or(n);
                if at == out.len() {
                    continue;
                }
                // The shortest way falls out when `out` is full.
                let last = n.min(out.len() - 1);
                out.copy_within(at..last, at + 1);
                out[at] = (v.value as i128, end);
                n = (n + 1).min(out.len());
            }
            n
        }
        Ty::Group { .. } => 0,
    }
}

/// Whether a derived field is a bit field or its low bits (`F & 0xffff`).
fn low_mask(src: Src) -> bool {
    match src {
        Src::Expr([Op::Field(_)]) => true,
        Src::Expr([Op::Field(_), Op::Lit(m), Op::Bin(BinOp::BitAnd)]) => {
            *m > 0 && (*m as u64).wrapping_add(1).is_power_of_two()
        }
        _ => false,
    }
}

/// A decimal number at the start of `s` and its length (no sign; at most
/// 20 digits, what a 64-bit value prints as).
fn decimal(s: &[u8]) -> Option<(i128, usize)> {
    let n = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 20 {
        return None;
    }
    let v = s[..n].iter().fold(0i128, |v, &b| v * 10 + (b - b'0') as i128);
    Some((v, n))
}

/// A decimal number with an optional `-`.
fn signed(s: &[u8]) -> Option<(i128, usize)> {
    match s.first() {
        Some(b'-') => decimal(&s[1..]).map(|(v, n)| (-v, n + 1)),
        _ => decimal(s),
    }
}

/// Hex digits at the start of `s` (at most 32) and their length.
fn hex(s: &[u8]) -> Option<(i128, usize)> {
    let n = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if n == 0 || n > 32 {
        return None;
    }
    // A digit's value is its low four bits, plus nine for a letter (bit 6
    // set, either case); 32 digits fill the 128 bits exactly. The digits
    // were checked already, so they need no second check as text and no
    // parse through the standard library.
    let v = s[..n].iter().fold(0u128, |v, &b| v << 4 | ((b & 15) + 9 * (b >> 6)) as u128);
    Some((v as i128, n))
}

/// A float as [`crate::print::format_float`] writes one of `width` bits:
/// C's `%f` (`-1.500000`), or `0x` and the raw bits.
fn float(s: &[u8], width: u32) -> Option<(i128, usize)> {
    if let Some(h) = s.strip_prefix(b"0x") {
        return hex(h).map(|(v, n)| (v, n + 2));
    }
    let sign = usize::from(s.first() == Some(&b'-'));
    let int = s[sign..].iter().take_while(|b| b.is_ascii_digit()).count();
    let frac = match s.get(sign + int) {
        Some(b'.') => 1 + s[sign + int + 1..].iter().take_while(|b| b.is_ascii_digit()).count(),
        _ => 0,
    };
    let n = sign + int + frac;
    if int == 0 {
        return None;
    }
    let text = std::str::from_utf8(&s[..n]).ok()?;
    let raw = match width {
        64 => text.parse::<f64>().ok()?.to_bits(),
        _ => crate::parse::float_bits(text, width)?,
    };
    Some((raw as i128, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No instructions: [`in_gen`] reads only the generation.
    static NO_LEAVES: Isa = Isa::for_tests("in-gen-test", &[], &[]);

    #[test]
    fn a_condition_says_what_is_left_of_it_in_a_generation() {
        use BinOp::{Eq, Lt, Or};
        const IS_ONE: &[Op] = &[Op::Field(3), Op::Lit(1), Op::Bin(Eq)];
        // `gen < 8 || F3 == 1`, and the same the other way round.
        const LEFT: &[Op] = &[Op::Gen, Op::Lit(8), Op::Bin(Lt), Op::Field(3), Op::Lit(1), Op::Bin(Eq), Op::Bin(Or)];
        const RIGHT: &[Op] = &[Op::Field(3), Op::Lit(1), Op::Bin(Eq), Op::Gen, Op::Lit(8), Op::Bin(Lt), Op::Bin(Or)];
        for c in [LEFT, RIGHT] {
            assert_eq!(in_gen(&NO_LEAVES, 8, c), Some(IS_ONE), "{c:?}");
            assert_eq!(in_gen(&NO_LEAVES, 7, c), None, "holds whatever the field: {c:?}");
        }
        // Sides that read fields are left alone, and so is what is no
        // disjunction.
        const BOTH: &[Op] = &[Op::Field(3), Op::Field(4), Op::Bin(Or)];
        assert_eq!(in_gen(&NO_LEAVES, 8, BOTH), Some(BOTH));
        assert_eq!(in_gen(&NO_LEAVES, 8, IS_ONE), Some(IS_ONE));
    }

    #[test]
    fn numbers_read_as_the_printer_writes_them() {
        assert_eq!(decimal(b"123, v1"), Some((123, 3)));
        assert_eq!(decimal(b"x"), None);
        assert_eq!(decimal(b"123456789012345678901"), None);
        assert_eq!(signed(b"-17]"), Some((-17, 3)));
        assert_eq!(hex(b"ff0 "), Some((0xff0, 3)));
        assert_eq!(float(b"-1.500000,", 32), Some((0xbfc0_0000, 9)));
        assert_eq!(float(b"0.500000", 16), Some((0x3800, 8)));
        assert_eq!(float(b"2.000000", 64), Some((0x4000_0000_0000_0000, 8)));
        assert_eq!(float(b"0x7fc00000", 32), Some((0x7fc0_0000, 10)));
        assert_eq!(float(b".5", 32), None);
    }

    /// The digits' own arithmetic reads what the standard library's parse
    /// does: both cases, leading zeros, up to 32 digits (the top bit set
    /// too), and stops at the first byte that is not a digit.
    #[test]
    fn hex_digits_read_as_the_standard_parse() {
        let mut rng = crate::TestRng::new(3);
        const DIGITS: &[u8] = b"0123456789abcdefABCDEF";
        for _ in 0..20_000 {
            let n = (rng.next_u64() % 34) as usize;
            let mut s: Vec<u8> = (0..n).map(|_| DIGITS[(rng.next_u64() % DIGITS.len() as u64) as usize]).collect();
            if rng.next_u64().is_multiple_of(2) {
                s.extend_from_slice(b", v1");
            }
            let digits = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            let want = match digits {
                1..=32 => {
                    let text = std::str::from_utf8(&s[..digits]).unwrap();
                    Some((u128::from_str_radix(text, 16).unwrap() as i128, digits))
                }
                _ => None,
            };
            assert_eq!(hex(&s), want, "{}", String::from_utf8_lossy(&s));
        }
        assert_eq!(hex(b"FfFfFfFfFfFfFfFfFfFfFfFfFfFfFfFf"), Some((-1, 32)));
        assert_eq!(hex(b"00000000000000000000000000000000a"), None);
        assert_eq!(hex(b"0x9"), Some((0, 1)));
    }
}
