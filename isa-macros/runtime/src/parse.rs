//! Assembling: match text against the same templates the printer uses.
//!
//! Matching binds field values straight into the instruction bits (with a mask
//! of the bits bound so far, so two places that set the same bits must agree).
//! What the text says only indirectly — a derived value (`h` means "not FULL"),
//! a parameter, or the condition that selects a case — becomes a constraint.
//! When the whole line has matched, a small solver gives the bits those
//! constraints read but the text did not bind the smallest values that satisfy
//! every constraint. Because case conditions are constraints too, the bits
//! produced always decode back to the same leaf and case.

use crate::Inst;
use crate::any_order::{Listed, Run};
use crate::bits::{Bits, mask_of};
use crate::error::{AsmError, field_range};
use crate::eval::{Env, Given, Step};
use crate::int_expr::Radixes;
use crate::inverse::Source;
use crate::mnemonics::is_word;
use crate::print::{f16_to_f32, format_raw};
use crate::tables::{BinOp, Expr, Field, Isa, Leaf, Op, Src, Tok, Ty};

/// The IEEE formats a `float:` expression may give, in bits.
const FLOAT_FORMATS: [u32; 3] = [16, 32, 64];

/// Most bits the solver will enumerate: 2^12 assignments at worst.
const MAX_FREE_BITS: u32 = 12;

#[derive(Clone, Copy)]
enum Want {
    Truthy(bool),
    Eq(i64),
    /// An earlier case's condition, assembling leniently: it may hold only
    /// where the text's own bits, and what the text's own case pins, decide
    /// it (a fuller template spelling what the shorter case prints); where
    /// it reads bits left open, it must fail, or text with no field of its
    /// own (`exec_hi`, the case after `P == 0`) would be read as the earlier
    /// case. [`Parser::solve`] settles which before solving; until then it
    /// counts as failing.
    FalseUnlessSpelled,
}

#[derive(Clone, Copy)]
enum What {
    Expr(Expr),
    Field(u16),
    /// The decoder must pick the form the text chose: this leaf of its group,
    /// at the step's base (a higher-priority form must not match instead).
    Form {
        group: u16,
        leaf: u16,
    },
}

struct Con {
    /// The scope the constraint is evaluated in: a span of [`St::steps`].
    path: (u32, u32),
    what: What,
    want: Want,
    /// When an operand's early check ([`Parser::held_now`]) saw the
    /// constraint hold reading only bound bits: the bits it read and their
    /// values. While they are still bound to those values it still holds
    /// (evaluating it reads nothing else), so the solver need not evaluate
    /// it again; backtracking that unbinds one of them voids this by itself.
    held: Option<(Bits, Bits)>,
}

impl Con {
    fn new(path: (u32, u32), what: What, want: Want) -> Con {
        Con { path, what, want, held: None }
    }

    /// Whether the constraint is known to hold on `st`'s bits without
    /// evaluating it (see [`Con::held`]): it then reads only bound bits.
    fn known(&self, st: &St) -> bool {
        self.held.is_some_and(|(read, bits)| read & !st.bound == 0 && (st.bits ^ bits) & read == 0)
    }
}

/// What a partial match has bound. Constraint scopes live in one arena
/// (`steps`) that backtracking truncates with the constraints, so trying a
/// form allocates nothing once the buffers have grown.
#[derive(Default)]
struct St {
    bits: Bits,
    bound: Bits,
    cons: Vec<Con>,
    steps: Vec<Step>,
    /// How many of `cons` a form's early check has looked at: a form nested
    /// in another checks its own, the outer one only those after them.
    checked: usize,
}

impl St {
    fn save(&self) -> (Bits, Bits, usize, usize) {
        (self.bits, self.bound, self.cons.len(), self.steps.len())
    }

    fn restore(&mut self, s: (Bits, Bits, usize, usize)) {
        self.bits = s.0;
        self.bound = s.1;
        self.cons.truncate(s.2);
        self.checked = self.checked.min(s.2);
        self.steps.truncate(s.3);
    }

    /// Back to nothing bound, keeping the buffers.
    fn clear(&mut self) {
        self.restore((0, 0, 0, 0));
    }

    /// Copies `path` into the arena: the span a constraint names it by.
    fn scope(&mut self, path: &[Step]) -> (u32, u32) {
        let start = self.steps.len() as u32;
        self.steps.extend_from_slice(path);
        (start, path.len() as u32)
    }

    fn push(&mut self, path: &[Step], what: What, want: Want) {
        let path = self.scope(path);
        self.cons.push(Con::new(path, what, want));
    }

    /// The scope of constraint `c`.
    fn path(&self, c: &Con) -> &[Step] {
        path_in(&self.steps, c)
    }

    /// Binds the `mask` bits of the leaf placed at `at` to `value`; false on a
    /// conflict.
    fn bind_pattern(&mut self, at: &Step, mask: Bits, value: Bits) -> bool {
        self.bind_word(at.in_word(mask), at.in_word(value & mask))
    }

    /// Binds the word bits `m` to those of `v`; false on a conflict.
    fn bind_word(&mut self, m: Bits, v: Bits) -> bool {
        crate::bits::bind(&mut self.bits, &mut self.bound, m, v)
    }

    /// Binds the bits of a field made of `ranges` (at `at`) that are set in
    /// `mask` (in the field's own value) to those of `value`; false on a
    /// conflict.
    fn bind_bits(&mut self, at: &Step, ranges: &[crate::Range], mask: u128, value: u128) -> bool {
        self.bind_word(at.insert(0, ranges, mask).0, at.insert(0, ranges, value & mask).0)
    }

    fn bind_field(&mut self, at: &Step, ranges: &[crate::Range], value: u128) -> bool {
        let (nb, written) = at.insert(self.bits, ranges, value);
        if (nb ^ self.bits) & written & self.bound != 0 {
            return false;
        }
        self.bits = nb;
        self.bound |= written;
        true
    }
}

type Cont<'k, 'a> = &'k mut dyn FnMut(&mut Parser<'a>, &mut Vec<Step>, usize, &mut St) -> bool;

/// How [`Parser::field`] reads a field's text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    /// As its template writes it.
    Plainly,
    /// A number written as `[expression]`.
    Bracketed,
    /// Not empty: a field of an any-order run read where it stands.
    Somewhere,
    /// Empty: a field of an any-order run the text leaves out.
    Nowhere,
}

struct Parser<'a> {
    isa: &'a Isa,
    text: &'a str,
    gen_: u32,
    /// Index of the syntax being read.
    syntax: u16,
    /// Whether a template may describe bits an earlier case of its leaf
    /// matches (see [`add_case_constraints`]).
    lenient: bool,
    best_pos: usize,
    best_msg: Msg,
    /// Whether `best_msg` is a rule the text breaks (a reading that fit,
    /// refused for a stated reason).
    best_rule: bool,
    /// Whether `best_msg` refuses a value of a field quoted in a word of
    /// its template the line does not go on with: ir3's `mova` case,
    /// tried before `mov`, refuses the repeat of `(rpt5)mov.f32f32` in
    /// `{REPEAT}{UL}mova{U}`. A case refusing at the same place in a word
    /// the line does have says it better.
    best_elsewhere: bool,
    /// Buffers for the readings of a field, reused by every field read.
    pool: Vec<Vec<Reading>>,
    /// The operand forms of the syntax's groups.
    forms: &'static crate::forms::Forms,
    /// The fields read in any order, if the target lists any.
    listed: Option<&'static Listed>,
    /// Where the line's first word (its mnemonic) ends: with optional
    /// commas, a space may be written as a comma, but not the one after it
    /// (llvm-mc refuses `s_mov_b32, s0, s1`).
    head: usize,
}

/// The buffers an assembly takes from the previous one on the same thread:
/// the line's candidates, its constraints and their scopes, the path and
/// the readings' pool. Assembling a stream line by line then allocates
/// nothing once they have grown; what a huge line grew them to past
/// [`Scratch::KEEP`] entries is let go rather than kept.
#[derive(Default)]
struct Scratch {
    order: Vec<u16>,
    st: St,
    path: Vec<Step>,
    pool: Vec<Vec<Reading>>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

impl Scratch {
    /// Most entries a buffer keeps between assemblies.
    const KEEP: usize = 1 << 12;

    /// The thread's buffers, or new ones (while one assembly holds them,
    /// another on the thread would start afresh).
    fn take() -> Box<Scratch> {
        SCRATCH.with(|s| s.take()).unwrap_or_default()
    }

    /// Hands the buffers back to the thread, unless one has grown too large.
    fn give(self: Box<Scratch>) {
        let big = |n: usize| n > Scratch::KEEP;
        if big(self.order.capacity())
            || big(self.st.cons.capacity())
            || big(self.st.steps.capacity())
            || big(self.path.capacity())
            || big(self.pool.len())
            || self.pool.iter().any(|v| big(v.capacity()))
        {
            return;
        }
        // Not kept once the thread is being torn down.
        let _ = SCRATCH.try_with(|s| s.set(Some(self)));
    }
}

/// The message of the furthest failure so far.
#[derive(Default)]
enum Msg {
    #[default]
    None,
    /// "expected `a`, `b` or `c`": the template texts that failed at the
    /// furthest place, in the order tried. Every one of them is a way the
    /// line could go on, and naming only the first tried (often a rarer
    /// form's, `[v` where `,` was missing) misled.
    Expected(Alternatives<&'static str>),
    /// "`n` is not accepted here (only `a` or `b`)": a number read for
    /// fields that are constants, in forms tried at the same place
    /// (DPP's `row_bcast:15` and `row_bcast:31`).
    Only(i64, Alternatives<i64>),
    Text(String),
    /// Text read to its end that no encoding holds, and why (see
    /// [`Parser::fail_misfit`]).
    Misfit(String, MisfitKey),
}

/// What the readings stopped at one place would have taken: the first
/// [`Alternatives::MAX`], and how many were met in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Alternatives<T> {
    items: [T; Alternatives::<()>::MAX],
    len: u8,
}

impl<T: Copy + PartialEq> Alternatives<T> {
    fn new(first: T) -> Self {
        Alternatives { items: [first; Alternatives::<()>::MAX], len: 1 }
    }

    fn shown(&self) -> &[T] {
        &self.items[..(self.len as usize).min(Alternatives::<()>::MAX)]
    }

    /// Whether another may still be named.
    fn open(&self) -> bool {
        self.len as usize <= Alternatives::<()>::MAX
    }

    /// Adds `item` unless it is there; past the most named, only counts
    /// it (the message then says there are others).
    fn add(&mut self, item: T) {
        if self.shown().contains(&item) {
            return;
        }
        if let Some(slot) = self.items.get_mut(self.len as usize) {
            *slot = item;
        }
        self.len = self.len.saturating_add(1);
    }

    /// "a, b or c"; past the most named, "a, b, c, d" then `others`.
    fn spoken(&self, name: impl Fn(&T) -> String, others: &str) -> String {
        let shown = self.shown();
        let mut s = String::new();
        for (k, item) in shown.iter().enumerate() {
            if k > 0 {
                s.push_str(if k + 1 == shown.len() && self.open() { " or " } else { ", " });
            }
            s.push_str(&name(item));
        }
        if !self.open() {
            s.push_str(others);
        }
        s
    }
}

impl Alternatives<()> {
    const MAX: usize = 4;
}

impl Msg {
    fn is_empty(&self) -> bool {
        match self {
            Msg::None => true,
            Msg::Expected(_) | Msg::Only(..) | Msg::Misfit(..) => false,
            Msg::Text(s) => s.is_empty(),
        }
    }

    fn into_string(self) -> String {
        match self {
            Msg::None => String::new(),
            // Template text of white space alone fails only where it would
            // join two words.
            Msg::Expected(e) => {
                let name = |t: &&str| if t.is_empty() { "white space".to_string() } else { format!("`{t}`") };
                format!("expected {}", e.spoken(name, " or another form"))
            }
            Msg::Only(n, o) => format!("{n} is not accepted here (only {})", o.spoken(i64::to_string, ", or others")),
            Msg::Text(s) | Msg::Misfit(s, _) => s,
        }
    }
}

impl<'a> Parser<'a> {
    /// Whether a failure at `pos` would be reported: the furthest yet, or
    /// the first, or template text missing where other template text was
    /// (named with it, while the list has room).
    fn reports(&self, pos: usize) -> bool {
        self.replaces(pos)
            || (pos == self.best_pos
                && !self.best_rule
                && match &self.best_msg {
                    Msg::Expected(e) => e.open(),
                    Msg::Only(_, o) => o.open(),
                    _ => false,
                })
    }

    /// Whether a failure at `pos` replaces the one to report: the furthest
    /// yet, or the first.
    fn replaces(&self, pos: usize) -> bool {
        pos > self.best_pos || self.best_msg.is_empty()
    }

    fn fail(&mut self, pos: usize, msg: impl FnOnce() -> String) {
        // A constant's "only 0" says less than what another form read there
        // says (`offset:70000`: the 16-bit offset's range).
        if pos == self.best_pos && !self.best_rule && matches!(self.best_msg, Msg::Only(..)) {
            self.best_msg = Msg::None;
        }
        self.fail_with(pos, || Msg::Text(msg()));
    }

    /// [`Parser::fail`] for text read to its end at `pos` that the solver
    /// found no encoding for. Its reason is named only when every reading
    /// that failed there failed for it: the first reading tried is not
    /// always the one its writer meant (a buffer load with a flag another
    /// form lacks fails in the `lds` form too), and naming one reading's
    /// condition for another's mistake would mislead.
    fn fail_misfit(&mut self, pos: usize, st: &St, m: Misfit) {
        if pos == self.best_pos && !self.best_rule {
            match &self.best_msg {
                Msg::Misfit(_, k) => {
                    if *k != MisfitKey::MIXED && *k != misfit_key(self.isa, st, m) {
                        self.best_msg = Msg::Misfit(MISFIT.into(), MisfitKey::MIXED);
                    }
                    return;
                }
                // What another form read there says more (see `fail`).
                Msg::Only(..) => self.best_msg = Msg::None,
                _ => {}
            }
        }
        if self.replaces(pos) {
            let key = misfit_key(self.isa, st, m);
            let text = misfit_text(self.isa, self.gen_, st, m);
            self.fail_with(pos, || Msg::Misfit(text, key));
        }
    }

    /// [`Parser::fail`] for a value read at `pos` that its field cannot
    /// hold, or a name with a number no name of the field has: template
    /// text missing at the same place says less than why the value was
    /// refused (ir3's `(rpt5)add.f`, whose repeat holds at most 3, is no
    /// `(nop` missing; nor is `(rpt9)add.f`). Other failures to read
    /// there do not overtake the texts missing (`expected a number` where
    /// the line ends, which says less than the operands a line may go on
    /// with).
    fn fail_refused(&mut self, pos: usize, msg: impl FnOnce() -> String) {
        if pos == self.best_pos && !self.best_rule && matches!(self.best_msg, Msg::Expected(_)) {
            self.best_msg = Msg::None;
        }
        self.fail(pos, msg);
    }

    /// [`Parser::fail`] with "expected `text`", which is written out only
    /// if it is reported: most template text that is not there is
    /// overtaken by a failure further on.
    ///
    /// Several template texts missing at the same furthest place are all
    /// named.
    fn fail_expected(&mut self, pos: usize, text: &'static str) {
        if let Some(Msg::Expected(e)) = self.joining(pos) {
            e.add(text);
            return;
        }
        self.fail_with(pos, || Msg::Expected(Alternatives::new(text)));
    }

    /// A number `n` read at `pos` for a field that is the constant `c`:
    /// the values of other such fields refusing the same number there are
    /// named with it.
    fn fail_only(&mut self, pos: usize, n: i64, c: i64) {
        if let Some(Msg::Only(m, o)) = self.joining(pos)
            && *m == n
        {
            o.add(c);
            return;
        }
        self.fail_with(pos, || Msg::Only(n, Alternatives::new(c)));
    }

    /// The message a failure at `pos` may join (naming one more text or
    /// value) rather than replace: one at the same place, not a rule's.
    fn joining(&mut self, pos: usize) -> Option<&mut Msg> {
        (pos == self.best_pos && !self.best_rule).then_some(&mut self.best_msg)
    }

    fn fail_with(&mut self, pos: usize, msg: impl FnOnce() -> Msg) {
        if self.replaces(pos) {
            self.best_pos = pos;
            self.best_msg = msg();
            self.best_rule = false;
            self.best_elsewhere = false;
        }
    }

    /// [`Parser::fail_refused`] for a value of field `field` of the case
    /// at `path`'s end, `msg` naming it: at the place of such a message
    /// quoting a word the line does not have, it replaces that message
    /// when its own word is in the line (see `best_elsewhere`).
    fn fail_refused_in(&mut self, pos: usize, (path, field): (&[Step], u16), msg: impl FnOnce(&Named) -> String) {
        let (isa, syntax) = (self.isa, self.syntax);
        let named = || Named::new(isa, path, syntax, field);
        let rest = self.rest(pos);
        if self.quoted_elsewhere(pos) {
            let named = named();
            if named.read_on(rest) {
                self.best_msg = Msg::Text(msg(&named));
                self.best_elsewhere = false;
            }
            return;
        }
        let mut elsewhere = None;
        self.fail_refused(pos, || {
            let named = named();
            elsewhere = Some(!named.read_on(rest));
            msg(&named)
        });
        if let Some(e) = elsewhere {
            self.best_elsewhere = e;
        }
    }

    /// Whether the message at `pos` quotes a word the line does not have
    /// (see `best_elsewhere`): one that names a field in the word the line
    /// has may still replace it ([`Parser::fail_refused_in`]).
    fn quoted_elsewhere(&self, pos: usize) -> bool {
        pos == self.best_pos && self.best_elsewhere && !self.best_rule
    }

    /// A rule the text breaks: at the same place, a better explanation than
    /// an alternative reading that did not fit.
    fn fail_rule(&mut self, pos: usize, msg: String) {
        if pos >= self.best_pos || self.best_msg.is_empty() {
            self.best_pos = pos;
            self.best_msg = Msg::Text(msg);
            self.best_rule = true;
            self.best_elsewhere = false;
        }
    }

    fn rest(&self, pos: usize) -> &'a str {
        self.text.get(pos..).unwrap_or("")
    }

    /// Matches literal template text; a space matches any run of white space.
    /// With optional commas, a template's comma may be missing from the text
    /// (white space must then separate what it would), and a space may be
    /// written as a comma.
    fn lit(&self, pos: usize, lit: &str) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let loose = self.isa.optional_commas;
        let space = |p: &mut usize| {
            while *p < bytes.len() && bytes[*p].is_ascii_whitespace() {
                *p += 1;
            }
        };
        let mut p = pos;
        let lb = lit.as_bytes();
        for (k, &c) in lb.iter().enumerate() {
            if c == b' ' {
                let from = p;
                space(&mut p);
                // A comma for this space, unless the template has one next to it.
                let beside = (k > 0 && lb[k - 1] == b',') || lb.get(k + 1) == Some(&b',');
                if loose && !beside && bytes.get(p) == Some(&b',') && self.text[..p].trim_end().len() != self.head {
                    p += 1;
                    space(&mut p);
                }
                if p == from && self.joins_words(p) {
                    return None;
                }
            } else if bytes.get(p) == Some(&c) {
                p += 1;
            } else if loose && c == b',' && (p == bytes.len() || bytes[p].is_ascii_whitespace()) {
                // Left out: the white space the template's next space reads stands for it.
            } else {
                return None;
            }
        }
        Some(p)
    }

    /// Whether the text's character before `pos` belongs to a word.
    fn after_word(&self, pos: usize) -> bool {
        pos > 0 && self.text.as_bytes().get(pos - 1).is_some_and(|&b| is_word(b as char))
    }

    /// Whether `pos` is inside a word of the text: template white space
    /// read as nothing there would join two words (`v_add_f32v1` is not
    /// `v_add_f32 v1`).
    fn joins_words(&self, pos: usize) -> bool {
        self.after_word(pos) && self.text.as_bytes().get(pos).is_some_and(|&b| is_word(b as char))
    }

    /// The length of `display` (a flag's or an enum value's text) at `pos`.
    /// Its leading space reads as a template's does (see [`Parser::lit`]):
    /// any run of white space (`v1  clamp`), none where that joins no words
    /// (`v[2:3]gds`), and with optional commas a comma (`, clamp`).
    fn lead(&self, pos: usize, display: &str) -> Option<usize> {
        let s = self.rest(pos);
        // Most names differ in their first letter: no comparison then.
        if let Some(&d) = display.as_bytes().first()
            && d != b' '
            && s.as_bytes().first() != Some(&d)
        {
            return None;
        }
        if s.starts_with(display) {
            return Some(display.len());
        }
        let rest = display.strip_prefix(' ')?;
        let p = self.lit(pos, " ")?;
        self.rest(p).starts_with(rest).then(|| p - pos + rest.len())
    }

    /// Where the instruction's text ends: `pos`, after white space (and with
    /// optional commas, one trailing comma).
    fn end_of(&self, pos: usize) -> usize {
        let rest = self.rest(pos);
        let mut end = pos + rest.len() - rest.trim_start().len();
        if self.isa.optional_commas && self.rest(end).trim_end() == "," {
            end = self.text.len();
        }
        end
    }

    /// Whether template `toks` of `leaf` can start at `pos`: its first token,
    /// when it is literal text or the name, is there. A cheap test before the
    /// bookkeeping of trying a template (most operand forms of a group fail on
    /// their first letter); a template that fails it is reported as
    /// [`Parser::seq`] would report it.
    fn opens(&mut self, leaf: &Leaf, toks: &'static [Tok], pos: usize) -> bool {
        let Some(want) = opening(leaf, toks, self.syntax) else { return true };
        if self.lit(pos, want).is_some() {
            return true;
        }
        self.fail_expected(pos, want.trim());
        false
    }

    fn seq(&mut self, path: &mut Vec<Step>, toks: &'static [Tok], pos: usize, st: &mut St, k: Cont<'_, 'a>) -> bool {
        let Some((first, rest)) = toks.split_first() else {
            return k(self, path, pos, st);
        };
        let Some(&step) = path.last() else { return false };
        let leaf = &self.isa.leaves[step.leaf as usize];
        match *first {
            // Text wrapping a field that starts a run (`(nop{NOP})(ss)`).
            // (`Run::starting` asks whether the field is listed.)
            Tok::Lit(_)
                if let Some(Tok::Field(_)) = rest.first()
                    && let Some(run) = self.listed.and_then(|l| Run::starting(l.of(step.leaf, step.case), toks)) =>
            {
                self.run(path, run, pos, st, k)
            }
            Tok::Lit(s) => match self.lit(pos, s) {
                Some(p) => {
                    // `v[8]` for `v8`, after a name the spec lists.
                    if let Some(&Tok::Field(i)) = rest.first()
                        && self.rest(p).starts_with('[')
                        && self.isa.bracketed_indices.iter().any(|n| ends_with_name(s, n))
                    {
                        let snap = st.save();
                        if self.field(path, i, &rest[1..], p, st, &mut *k, Written::Bracketed) {
                            return true;
                        }
                        st.restore(snap);
                    }
                    self.seq(path, rest, p, st, k)
                }
                None => {
                    self.fail_expected(pos, s.trim());
                    false
                }
            },
            Tok::Opt(s) => {
                if let Some(p) = self.lit(pos, s)
                    && self.seq(path, rest, p, st, k)
                {
                    return true;
                }
                // Optional white space (`{? }`) left out is white space read
                // as nothing: it may not join two words either.
                if s.trim().is_empty() && self.joins_words(pos) {
                    self.fail_expected(pos, "");
                    return false;
                }
                self.seq(path, rest, pos, st, k)
            }
            Tok::Name => {
                let name = leaf.name_in(self.syntax);
                match self.lit(pos, name) {
                    // The name with the suffix the assembler also reads, then
                    // the name alone.
                    Some(p) if !leaf.name_suffix.is_empty() && self.rest(p).starts_with(leaf.name_suffix) => {
                        let q = p + leaf.name_suffix.len();
                        let snap = st.save();
                        if self.seq(path, rest, q, st, k) {
                            return true;
                        }
                        st.restore(snap);
                        self.seq(path, rest, p, st, k)
                    }
                    Some(p) => self.seq(path, rest, p, st, k),
                    None => {
                        self.fail_expected(pos, name);
                        false
                    }
                }
            }
            Tok::Column => match self.lit(pos, " ") {
                Some(p) => self.seq(path, rest, p, st, k),
                None => {
                    self.fail_expected(pos, "");
                    false
                }
            },
            Tok::Field(i) => match self.listed.and_then(|l| Run::starting(l.of(step.leaf, step.case), toks)) {
                Some(run) => self.run(path, run, pos, st, k),
                None => self.field(path, i, rest, pos, st, k, Written::Plainly),
            },
            Tok::OptField(s, i, default) => {
                // Written out: the text, then the field as usual.
                if let Some(p) = self.lit(pos, s) {
                    let snap = st.save();
                    if self.field(path, i, rest, p, st, &mut *k, Written::Plainly) {
                        return true;
                    }
                    st.restore(snap);
                }
                // Left out: the field takes its default.
                let field = &leaf.cases[step.case as usize].fields[i as usize];
                let snap = st.save();
                if self.bind(path, i, field, Val::Num(default), st, pos) && self.seq(path, rest, pos, st, k) {
                    return true;
                }
                st.restore(snap);
                false
            }
        }
    }

    /// Reads the fields of `run` from `pos`, then the rest of its template: in the template's
    /// order, as without `any-order:`; then, if that does not read the line
    /// and some field of the run is written where that order stopped
    /// reading them (`(ss)(sy)`: `(sy)` after `(ss)`), in any order. Most
    /// lines a template fails to read fail it elsewhere (the assembler tries
    /// every template whose name the line holds), and for those the search
    /// of every order cost a quarter more time.
    fn run(&mut self, path: &mut Vec<Step>, run: Run, pos: usize, st: &mut St, k: Cont<'_, 'a>) -> bool {
        let mut stopped = None;
        let snap = st.save();
        if self.in_order(path, run, 0, pos, st, &mut *k, &mut stopped) {
            return true;
        }
        st.restore(snap);
        match stopped {
            Some(at) if !(0..run.len as usize).any(|j| self.element_at(path, run, j, at, st).is_some()) => false,
            _ => self.any_order(path, run, pos, st, k),
        }
    }

    /// Where field `j` of `run` is written, at `pos` or after white space
    /// there (Mesa's parser reads flags as tokens, white space between them
    /// or not: `(sy) (ss)add.f`): its wrapping's opening text is there, or,
    /// for a field alone, [`Parser::written_at`] says so.
    fn element_at(&mut self, path: &mut Vec<Step>, run: Run, j: usize, pos: usize, st: &mut St) -> Option<usize> {
        let mut at = |p: &mut Parser<'a>, q: usize| match run.wrap(j) {
            None => p.written_at(path, run.field(j), q, st),
            Some((lead, _)) => p.lit(q, lead).is_some(),
        };
        if at(self, pos) {
            return Some(pos);
        }
        let q = self.gap(pos);
        (q > pos && at(self, q)).then_some(q)
    }

    /// Where white space at `pos` ends.
    fn gap(&self, pos: usize) -> usize {
        pos + self.rest(pos).len() - self.rest(pos).trim_start().len()
    }

    /// Whether field `i` of the leaf at the end of `path` reads some text
    /// (not none) at `pos`: for a flag or a named value, whether one of its
    /// texts is there, as [`Parser::scan`] reads them; else by reading it.
    fn written_at(&mut self, path: &mut Vec<Step>, i: u16, pos: usize, st: &mut St) -> bool {
        let Some(&step) = path.last() else { return false };
        let field = &self.isa.leaves[step.leaf as usize].cases[step.case as usize].fields[i as usize];
        let there = |text: &str| !text.is_empty() && self.lead(pos, text).is_some_and(|n| n > 0);
        match field.ty {
            Ty::Bool { on, .. } => there(on),
            Ty::Enum(e) if self.isa.enums[e as usize].set.is_none() => {
                let en = &self.isa.enums[e as usize];
                let written = en.values.iter().chain(en.also).any(|v| there(v.display));
                // One of its names with another number (`(rpt9)`): read, so
                // that it is named as reading it names it.
                if !written
                    && (self.reports(pos) || self.quoted_elsewhere(pos))
                    && en.values.iter().any(|v| numbered_like(self.rest(pos), v.display))
                {
                    self.read_somewhere(path, i, pos, st);
                }
                written
            }
            _ => self.read_somewhere(path, i, pos, st),
        }
    }

    /// Whether field `i` of the leaf at the end of `path` reads some text at
    /// `pos`, read and then unbound.
    fn read_somewhere(&mut self, path: &mut Vec<Step>, i: u16, pos: usize, st: &mut St) -> bool {
        let snap = st.save();
        let mut found = |_: &mut Parser<'a>, _: &mut Vec<Step>, _: usize, _: &mut St| true;
        let read = self.field(path, i, &[], pos, st, &mut found, Written::Somewhere);
        st.restore(snap);
        read
    }

    /// Reads the fields of `run` from its `j`th on in the template's order,
    /// then the rest of its template, noting in `stopped` the furthest place the run's fields
    /// were all read to, or a wrapped one was not written at.
    #[allow(clippy::too_many_arguments)]
    fn in_order(
        &mut self,
        path: &mut Vec<Step>,
        run: Run,
        j: usize,
        pos: usize,
        st: &mut St,
        k: Cont<'_, 'a>,
        stopped: &mut Option<usize>,
    ) -> bool {
        if j == run.len as usize {
            *stopped = (*stopped).max(Some(pos));
            return self.after_run(path, run, pos, st, k);
        }
        // A field written after white space is read there; a wrapped field
        // not written stops the order here (most lines, read by a template
        // that writes `(nop{NOP})`, have none).
        let mut pos = pos;
        if run.wrap(j).is_some() || self.rest(pos).starts_with(char::is_whitespace) {
            match self.element_at(path, run, j, pos, st) {
                Some(q) => pos = q,
                None => {
                    if let Some((lead, _)) = run.wrap(j) {
                        *stopped = (*stopped).max(Some(pos));
                        self.fail_expected(pos, lead);
                        return false;
                    }
                }
            }
        }
        let mut then = |p: &mut Parser<'a>, path: &mut Vec<Step>, q: usize, st: &mut St| -> bool {
            p.in_order(path, run, j + 1, q, st, &mut *k, &mut *stopped)
        };
        self.element(path, run, j, pos, st, &mut then, Written::Plainly)
    }

    /// Reads field `j` of `run` at `pos` as `written` says, with the text
    /// wrapping it (`(nop` and `)` of `(nop{NOP})`), then `k`.
    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        path: &mut Vec<Step>,
        run: Run,
        j: usize,
        pos: usize,
        st: &mut St,
        k: Cont<'_, 'a>,
        written: Written,
    ) -> bool {
        let Some((lead, trail)) = run.wrap(j) else {
            return self.field(path, run.field(j), &[], pos, st, k, written);
        };
        // Its text is written with it, or not at all: a field wrapped so
        // has no empty reading (its value is the wrapping's point).
        if written == Written::Nowhere {
            return false;
        }
        let Some(p) = self.lit(pos, lead) else {
            self.fail_expected(pos, lead);
            return false;
        };
        let mut then = |p: &mut Parser<'a>, path: &mut Vec<Step>, q: usize, st: &mut St| -> bool {
            match p.lit(q, trail) {
                Some(r) => k(p, path, r, st),
                None => {
                    p.fail_expected(q, trail);
                    false
                }
            }
        };
        self.field(path, run.field(j), &[], p, st, &mut then, written)
    }

    /// Reads the text the template writes after `run` (see [`Run::then`]),
    /// then the rest of its template.
    fn after_run(&mut self, path: &mut Vec<Step>, run: Run, pos: usize, st: &mut St, k: Cont<'_, 'a>) -> bool {
        let then = run.then();
        if then.is_empty() {
            // White space after the run, before the mnemonic (`(sy) add.f`).
            let pos = match run.rest().first() {
                Some(Tok::Name) => self.gap(pos),
                _ => pos,
            };
            return self.seq(path, run.rest(), pos, st, k);
        }
        match self.lit(pos, then) {
            Some(p) => self.seq(path, run.rest(), p, st, k),
            None => {
                self.fail_expected(pos, then.trim());
                false
            }
        }
    }

    /// Reads the fields of `run` not read yet in any order from `pos`, then
    /// the rest of its template: at each place, any of them whose text is there (not empty),
    /// the template's order tried first, so that text in the printer's order
    /// reads as it did; then those not written, as empty text.
    fn any_order(&mut self, path: &mut Vec<Step>, run: Run, pos: usize, st: &mut St, k: Cont<'_, 'a>) -> bool {
        let left = run.left;
        for j in 0..run.len {
            if left & 1 << j == 0 {
                continue;
            }
            let Some(at) = self.element_at(path, run, j as usize, pos, st) else { continue };
            let snap = st.save();
            let mut then = |p: &mut Parser<'a>, path: &mut Vec<Step>, q: usize, st: &mut St| -> bool {
                q > at && p.any_order(path, run.read(j as usize, (at, q)), q, st, &mut *k)
            };
            if self.element(path, run, j as usize, at, st, &mut then, Written::Somewhere) {
                return true;
            }
            st.restore(snap);
        }
        // A flag written again (`(sy)(sy)`): named, rather than the template
        // text the fields not written go on to miss.
        let again = (0..run.len as usize).filter(|&j| left & 1 << j == 0).find_map(|j| {
            let (a, b) = run.spans[j];
            let written = self.text.get(a as usize..b as usize)?;
            let word = written.trim_start();
            (!word.is_empty() && self.rest(pos).trim_start().starts_with(word)).then_some(word)
        });
        if let Some(word) = again {
            // Where its own text starts (GCN's ` glc` after its space), and
            // over what reading on from there says (`unexpected glc`), as
            // a rule broken says why a reading that fit was refused.
            self.fail_rule(self.gap(pos), format!("`{word}` is written twice"));
        }
        self.unwritten(path, run, pos, st, k)
    }

    /// Reads the fields of `run` not read yet as written nowhere (empty text
    /// at `pos`), then the rest of its template.
    fn unwritten(&mut self, path: &mut Vec<Step>, run: Run, pos: usize, st: &mut St, k: Cont<'_, 'a>) -> bool {
        if run.left == 0 {
            return self.after_run(path, run, pos, st, k);
        }
        let j = run.left.trailing_zeros();
        let mut then = |p: &mut Parser<'a>, path: &mut Vec<Step>, q: usize, st: &mut St| -> bool {
            q == pos && p.unwritten(path, run.read(j as usize, (pos, q)), q, st, &mut *k)
        };
        self.element(path, run, j as usize, pos, st, &mut then, Written::Nowhere)
    }

    /// Reads field `i` of the leaf at the end of `path` at `pos`, then `rest`.
    /// `written` says how (see [`Written`]): a number in brackets, or only
    /// readings of some length.
    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        path: &mut Vec<Step>,
        i: u16,
        rest: &'static [Tok],
        pos: usize,
        st: &mut St,
        k: Cont<'_, 'a>,
        written: Written,
    ) -> bool {
        let Some(&step) = path.last() else { return false };
        let field = &self.isa.leaves[step.leaf as usize].cases[step.case as usize].fields[i as usize];
        let bracketed = written == Written::Bracketed;
        if let (Ty::Group { group, .. }, false) = (field.ty, bracketed) {
            return self.group(path, i, field, group, rest, pos, st, k);
        }
        // The readings go in a buffer of the pool (fields nest, each
        // holding its own while the rest of the line is read).
        let mut alts = self.pool.pop().unwrap_or_default();
        alts.clear();
        if bracketed {
            if !matches!(field.ty, Ty::Uint | Ty::UintSat | Ty::Int) {
                self.pool.push(alts);
                return false;
            }
            self.scan(path, i, field, pos + 1, &mut alts);
            alts.retain_mut(|(p, _, _)| {
                *p += 1;
                self.text.as_bytes().get(*p - 1) == Some(&b']')
            });
        } else {
            self.scan(path, i, field, pos, &mut alts);
            if alts.is_empty() {
                // The word of the template the field is written in says
                // where (`s[2:3]` where one register goes: `N` in `s{N}`).
                let syntax = self.syntax;
                self.fail(pos, || expected_value(self.isa, field, &Named::new(self.isa, path, syntax, i)));
            } else if let Ty::Enum(e) = field.ty
                && alts.iter().all(|a| a.0 == pos)
                && (self.reports(pos) || self.quoted_elsewhere(pos))
                && self.isa.enums[e as usize].values.iter().any(|v| numbered_like(self.rest(pos), v.display))
            {
                // Read as its empty name only, where the text is one of its
                // names with another number (ir3's `(rpt9)`): that is what
                // to change, more than the template text the empty reading
                // goes on to miss (`add.f`, the next field's names).
                let isa = self.isa;
                self.fail_refused_in(pos, (path, i), |named| expected_value(isa, field, named));
            }
        }
        let mut found = false;
        for &(p, v, format) in &alts {
            // Readings of the length asked for only, before binding them.
            let skip = match written {
                Written::Somewhere => p == pos,
                Written::Nowhere => p != pos,
                _ => false,
            };
            if skip {
                continue;
            }
            let snap = st.save();
            // A number read in one float format holds only where the spec's
            // format expression gives that format.
            if let Some((e, bits)) = format {
                st.push(path, What::Expr(e), Want::Eq(bits as i64));
            }
            if self.bind(path, i, field, v, st, pos) && self.seq(path, rest, p, st, k) {
                found = true;
                break;
            }
            st.restore(snap);
        }
        self.pool.push(alts);
        found
    }

    #[allow(clippy::too_many_arguments)]
    fn group(
        &mut self,
        path: &mut Vec<Step>,
        via: u16,
        field: &Field,
        group: u16,
        rest: &'static [Tok],
        pos: usize,
        st: &mut St,
        k: Cont<'_, 'a>,
    ) -> bool {
        let Src::Bits(ranges) = field.src else { return false };
        let Some(&step) = path.last() else { return false };
        let Some((base, map)) = step.child(ranges) else { return false };
        // Whether a failure here would be reported: unchanged by the forms
        // skipped, so asked again only after a try.
        let mut reporting = self.reports(pos);
        let here = self.text.as_bytes().get(pos).copied();
        for form in self.forms.of(group) {
            if !form.exists_in(self.gen_) {
                continue;
            }
            // A form whose first letter is not there fails to open, which
            // is all a try would find: its opening text is what was
            // expected, when that failure is reported.
            if form.first != 0 && here != Some(form.first) {
                if reporting {
                    self.fail_expected(pos, form.opening);
                    reporting = self.reports(pos);
                }
                continue;
            }
            if self.try_form(path, (via, group, base, map), form, rest, pos, st, &mut *k) {
                return true;
            }
            reporting = self.reports(pos);
        }
        false
    }

    /// Reads the operand at `pos` in `form` of `group` (the operand field
    /// `via` of the leaf at the end of `path`, its bits at `base` through
    /// `map`), then `rest`.
    #[allow(clippy::too_many_arguments)]
    fn try_form(
        &mut self,
        path: &mut Vec<Step>,
        (via, group, base, map): (u16, u16, u32, &'static [crate::Range]),
        form: &crate::forms::Form,
        rest: &'static [Tok],
        pos: usize,
        st: &mut St,
        k: Cont<'_, 'a>,
    ) -> bool {
        let (sub, ci) = (form.leaf, form.case);
        let leaf = &self.isa.leaves[sub as usize];
        let case = &leaf.cases[ci as usize];
        let snap = st.save();
        let at = Step { leaf: sub, case: ci, base, via, map };
        if !st.bind_pattern(&at, leaf.mask, leaf.value) {
            st.restore(snap);
            return false;
        }
        if !self.opens(leaf, case.display_in(self.syntax), pos) {
            st.restore(snap);
            return false;
        }
        path.push(at);
        st.push(path, What::Form { group, leaf: sub }, Want::Truthy(true));
        add_case_constraints(self.isa, path, st, self.syntax, self.lenient);
        let ok = self.seq(path, case.display_in(self.syntax), pos, st, &mut |p, path, pos2, st| {
            // A constraint of this form that fails on bits the text
            // has bound rules the reading out now, not once per way
            // of reading the operands after it. (Enumerating unbound
            // bits here, or asking whether the decoder picks the form,
            // which reads every form of the group, costs more than it
            // saves: that is left to the solver.)
            let from = snap.2.max(st.checked);
            st.checked = st.cons.len();
            for i in from..st.cons.len() {
                if !p.held_now(st, i) {
                    // Named by its text and group: `row_bcast:16` reads
                    // as a form of `dpp-ctrl` whose conditions refuse 16.
                    p.fail(pos2, || {
                        let (text, group) =
                            (p.text.get(pos..pos2).unwrap_or("").trim(), p.isa.groups[group as usize].name);
                        format!("`{text}` fits no form of operand `{group}` here")
                    });
                    return false;
                }
            }
            let inner = path.pop();
            let r = p.seq(path, rest, pos2, st, &mut *k);
            if let Some(s) = inner {
                path.push(s);
            }
            r
        });
        path.pop();
        if !ok {
            st.restore(snap);
        }
        ok
    }

    /// The ways field `idx` (of the leaf at the end of `path`) can be read at
    /// `pos`, most specific first.
    fn scan(&self, path: &[Step], idx: u16, field: &Field, pos: usize, out: &mut Vec<Reading>) {
        let s = self.rest(pos);
        // Where a leading 0 makes a number octal, `01.5` is no decimal
        // (llvm-mc refuses it): floats are read only without one.
        let decimals =
            !(self.isa.octal_numbers && matches!(s.trim_start_matches('-').as_bytes(), [b'0', b'0'..=b'9', ..]));
        match field.ty {
            Ty::Uint | Ty::UintSat | Ty::Hex | Ty::Int | Ty::HexLit { .. } | Ty::Group { .. } => {
                let signed = matches!(field.ty, Ty::Int | Ty::HexLit { unsigned: false, .. });
                let hex = matches!(field.ty, Ty::Hex);
                // A number glued to a word (a register's `v18`) is that
                // word's decimal digits: not octal (`v012` is v12, as
                // llvm-mc reads it) or hex (`v0x1` is no register), not the
                // start of an expression (`v18-1` is no register; `v[18-1]`
                // is v17).
                let glued = self.after_word(pos);
                let radixes = if glued { Radixes::DECIMAL } else { self.isa.radixes() };
                let plain = scan_int(s, signed, hex, radixes);
                if let Some((v, n)) = plain {
                    out.push((pos + n, Val::Num(v), None));
                }
                // An expression (`(3+2)*2+1`), after the plain number it
                // starts with.
                if !hex
                    && !glued
                    && let Some((v, n)) = crate::int_expr::scan_int_expr(s, radixes)
                    && n > plain.map_or(0, |(_, m)| m)
                {
                    out.push((pos + n, Val::Num(v), None));
                }
                if let Ty::HexLit { float: Some(e), .. } = field.ty
                    && decimals
                    && let Some((d, n)) = crate::float::scan_decimal(s)
                {
                    // A format wider than the field leaves its high bits there.
                    let width = field
                        .width()
                        .or_else(|| self.alias(path, idx).map(|(_, _, keep)| keep))
                        .or_else(|| match field.src {
                            Src::Expr(x) => self.shifted(path, field, x).and_then(|(f, _)| f.width()),
                            _ => None,
                        })
                        .unwrap_or(64);
                    for bits in FLOAT_FORMATS {
                        if let Some(v) = crate::float::narrow(d, bits) {
                            let v = if bits > width { v >> (bits - width) } else { v };
                            out.push((pos + n, Val::Num(v as i64), Some((e, bits))));
                        }
                    }
                }
            }
            Ty::Offset | Ty::UOffset => {
                if (s.starts_with('+') || (s.starts_with('-') && matches!(field.ty, Ty::Offset)))
                    && let Some((v, n)) = scan_int(&s[1..], false, false, self.isa.radixes())
                {
                    let v = if s.starts_with('-') { -v } else { v };
                    out.push((pos + 1 + n, Val::Num(v), None));
                }
                out.push((pos, Val::Num(0), None));
            }
            Ty::Bool { on, inverted } => {
                if on.is_empty() {
                    out.push((pos, Val::Unknown, None));
                } else {
                    if let Some(n) = self.lead(pos, on) {
                        out.push((pos + n, Val::Truth(!inverted), None));
                    }
                    out.push((pos, Val::Truth(inverted), None));
                }
            }
            Ty::Float { format: None } => {
                let width = field.width().unwrap_or(32);
                if decimals && let Some((bits, n)) = scan_float(s, width) {
                    out.push((pos + n, Val::Num(bits as i64), None));
                }
            }
            Ty::Float { format: Some(e) } => {
                for bits in FLOAT_FORMATS {
                    let read = if s.starts_with("0x") {
                        scan_float(s, bits)
                    } else {
                        crate::float::scan_decimal(s)
                            .filter(|_| decimals)
                            .and_then(|(d, n)| crate::float::narrow(d, bits).map(|v| (v, n)))
                    };
                    if let Some((v, n)) = read {
                        out.push((pos + n, Val::Num(v as i64), Some((e, bits))));
                    }
                }
            }
            Ty::Enum(e) => {
                let en = &self.isa.enums[e as usize];
                // A set's names in any order (its printed text among them).
                if let Some(set) = &en.set {
                    if let Some((v, n)) = read_set(set, s) {
                        out.push((pos + n, Val::Num(v as i64), None));
                    }
                    return;
                }
                // The longest names first (`lt` before `l`), in spec order
                // among equals.
                let start = out.len();
                // Other texts the value is read by (never printed) too.
                out.extend(
                    en.values
                        .iter()
                        .chain(en.also)
                        .filter_map(|v| Some((pos + self.lead(pos, v.display)?, Val::Num(v.value as i64), None))),
                );
                out[start..].sort_by_key(|&(n, _, _)| std::cmp::Reverse(n));
            }
        }
    }

    fn bind(&mut self, path: &[Step], idx: u16, field: &Field, v: Val, st: &mut St, pos: usize) -> bool {
        let Some(&step) = path.last() else { return false };
        match field.src {
            Src::Bits(ranges) => {
                let width = crate::width_of(ranges);
                let n: i128 = match v {
                    Val::Num(n) => n as i128,
                    Val::Truth(b) => b as i128,
                    Val::Unknown => return true,
                };
                let (min, max) = field.value_range(width);
                // A saturating count past the maximum is the maximum.
                let n = if matches!(field.ty, Ty::UintSat) && n > max { max } else { n };
                if n < min || n > max {
                    self.fail_refused_in(pos, (path, idx), |f| {
                        format!("{n} does not fit {} (range {min}..={max})", f.field())
                    });
                    return false;
                }
                let raw = (n as u128) & mask_of(0, width);
                st.bind_field(&step, ranges, raw)
            }
            Src::Param(_) if let Some((at, target, keep)) = self.alias(path, idx) => {
                // A param that is just a field of an enclosing encoding: bind that
                // field directly (a 32-bit literal must not go to the solver).
                let n: i128 = match v {
                    Val::Num(n) => n as i128,
                    Val::Truth(b) => b as i128,
                    Val::Unknown => return true,
                };
                let Src::Bits(ranges) = target.src else { return false };
                let width = crate::width_of(ranges);
                if keep < width {
                    // The value is the field's low bits only: a negative
                    // one, for a type that reads one, as the two's
                    // complement those bits hold (GCN's 16-bit literal,
                    // the low half of the literal dword: `-17` is 0xffef,
                    // as llvm-mc encodes it).
                    let (min, max) = (field.value_range(keep).0, (1i128 << keep) - 1);
                    if n < min || n > max {
                        self.fail_refused_in(pos, (path, idx), |f| {
                            format!("{n} does not fit {} ({keep} bits)", f.field())
                        });
                        return false;
                    }
                    return st.bind_field(&at, &low_ranges(ranges, keep), (n as u128) & mask_of(0, keep));
                }
                let (min, max) = target.value_range(width);
                if n < min || n > max {
                    self.fail_refused_in(pos, (path, idx), |f| {
                        format!("{n} does not fit {} ({width} bits)", f.field())
                    });
                    return false;
                }
                st.bind_field(&at, ranges, (n as u128) & mask_of(0, width))
            }
            Src::Expr(e) if let Some((target, k)) = self.shifted(path, field, e) => {
                // `F << k`: the text's value, shifted back, is F's bits (an
                // offset counted in bytes stored in units of 2^k bytes).
                let n: i128 = match v {
                    Val::Num(n) => n as i128,
                    Val::Truth(b) => b as i128,
                    Val::Unknown => return true,
                };
                let Src::Bits(ranges) = target.src else { return false };
                if n & ((1i128 << k) - 1) != 0 {
                    self.fail_refused(pos, || {
                        format!("{n} is not a multiple of {} ({} = {} << {k})", 1u64 << k, field.name, target.name)
                    });
                    return false;
                }
                let width = crate::width_of(ranges);
                let (min, max) = target.value_range(width);
                if n >> k < min || n >> k > max {
                    self.fail_refused_in(pos, (path, idx), |f| {
                        format!(
                            "{n} does not fit {} (range {}..={}, multiples of {})",
                            f.field(),
                            min << k,
                            max << k,
                            1u64 << k
                        )
                    });
                    return false;
                }
                st.bind_field(&step, ranges, ((n >> k) as u128) & mask_of(0, width))
            }
            // A value computed from one narrow field (see `inverse`): the
            // one value of it that gives the text's value is bound; when
            // none does, this reading fails, whatever the other bits are
            // (rather than the solver trying every value to find that out);
            // when several do, the bits they share are bound and the solver
            // picks among them (`s[62:63]` is code 62 or 63).
            Src::Expr(e)
                if let Val::Num(n) = v
                    && let Some(source) =
                        crate::inverse::source_of(self.isa, path, (st.bits, st.bound), self.gen_, e, n) =>
            {
                match source {
                    Source::Unique(f, raw) => {
                        let Src::Bits(ranges) = f.src else { return false };
                        st.bind_field(&step, ranges, raw)
                    }
                    Source::Several { field: f, mask, value } => {
                        let Src::Bits(ranges) = f.src else { return false };
                        if !st.bind_bits(&step, ranges, mask, value) {
                            return false;
                        }
                        st.push(path, What::Field(idx), Want::Eq(n));
                        true
                    }
                    Source::None { range } => {
                        self.fail_refused_in(pos, (path, idx), |f| match range {
                            Some((min, max)) => format!("{n} does not fit {} (range {min}..={max})", f.field()),
                            None => format!("{} cannot be {n} in this form", f.field()),
                        });
                        false
                    }
                }
            }
            // A constant (text an instruction accepts for a field it does
            // not have, `offset:0` where there is no offset): any other value
            // is refused here, named, rather than by the solver.
            Src::Expr(&[Op::Lit(c)]) if let Val::Num(n) = v => {
                if n != c {
                    self.fail_only(pos, n, c);
                    return false;
                }
                true
            }
            Src::Expr(_) | Src::Param(_) => {
                let want = match v {
                    Val::Num(n) => Want::Eq(n),
                    Val::Truth(b) => Want::Truthy(b),
                    Val::Unknown => return true,
                };
                st.push(path, What::Field(idx), want);
                true
            }
        }
    }

    /// If `e` is `F << k` for a bit field `F` of the leaf at the end of `path`
    /// (a constant `k` from 1 to 63), or `F` itself (`k` = 0: the same bits
    /// shown with another type): `F` and `k`. Such a derived field is
    /// assembled by binding `F` directly, however wide it is.
    fn shifted(&self, path: &[Step], field: &Field, e: Expr) -> Option<(&'static Field, u32)> {
        let (f, k) = match *e {
            [Op::Field(f), Op::Lit(k), Op::Bin(BinOp::Shl)] if (1..64).contains(&k) => (f, k),
            // Only a number shown another way (`offset` for an `int`): a flag
            // or a name over a wider field stays a constraint.
            [Op::Field(f)]
                if matches!(
                    field.ty,
                    Ty::Int | Ty::Uint | Ty::UintSat | Ty::Offset | Ty::UOffset | Ty::Hex | Ty::HexLit { .. }
                ) =>
            {
                (f, 0)
            }
            _ => return None,
        };
        let step = path.last()?;
        let target = self.isa.leaves[step.leaf as usize].cases[step.case as usize].fields.get(f as usize)?;
        matches!(target.src, Src::Bits(_)).then_some((target, k as u32))
    }

    /// If field `idx` of the leaf at the end of `path` is a param whose value is
    /// plainly a bit field of an enclosing encoding (through any number of
    /// params), the step that holds it, the field, and how many of its low bits
    /// the value gives: all of them, or fewer through a low mask (`LIT & 0xffff`,
    /// a 16-bit operand's half of a literal), whose other bits it leaves alone.
    fn alias(&self, path: &[Step], idx: u16) -> Option<(Step, &'static Field, u32)> {
        let mut depth = path.len().checked_sub(1)?;
        let mut idx = idx;
        let mut keep = u32::MAX;
        loop {
            let step = path[depth];
            let field = &self.isa.leaves[step.leaf as usize].cases[step.case as usize].fields[idx as usize];
            match field.src {
                Src::Bits(r) => return Some((step, field, keep.min(crate::width_of(r)))),
                Src::Param(p) => {
                    let parent = path[depth.checked_sub(1)?];
                    let pfield =
                        &self.isa.leaves[parent.leaf as usize].cases[parent.case as usize].fields[step.via as usize];
                    let Ty::Group { params, .. } = pfield.ty else { return None };
                    let e = params.get(p as usize)?;
                    match **e {
                        [Op::Field(f)] => idx = f,
                        _ => {
                            let (f, k) = low_mask(e)?;
                            keep = keep.min(k);
                            idx = f;
                        }
                    }
                    depth -= 1;
                }
                Src::Expr(e) => {
                    let (f, k) = low_mask(e)?;
                    keep = keep.min(k);
                    idx = f;
                }
            }
        }
    }

    /// [`Parser::alias`] for parameter `p` of the leaf at the end of `path`:
    /// the enclosing field whose value the parameter is.
    fn param_alias(&self, path: &[Step], p: u16) -> Option<(Step, &'static Field, u32)> {
        let (&step, outer) = path.split_last()?;
        let parent = outer.last()?;
        let pfield = self.isa.leaves[parent.leaf as usize].cases[parent.case as usize].fields.get(step.via as usize)?;
        let Ty::Group { params, .. } = pfield.ty else { return None };
        let e = params.get(p as usize)?;
        let (f, keep) = match **e {
            [Op::Field(f)] => (f, u32::MAX),
            _ => low_mask(e)?,
        };
        let (at, field, k) = self.alias(outer, f)?;
        Some((at, field, k.min(keep)))
    }

    /// Gives the bits the constraints read but the text left unbound the
    /// smallest values that satisfy every constraint.
    ///
    /// Constraints are solved one at a time where that works (two operands'
    /// inline constants cost 2^a + 2^b tries, not 2^(a+b)); otherwise all the
    /// unset bits they read are enumerated together.
    fn solve(&self, st: &mut St, leaf: u16) -> Result<(), Misfit> {
        self.bind_equalities(st);
        // A lenient earlier-case condition decided by the text's bits and
        // what the text's own case pins holds as it is; one that reads other
        // bits must fail. Settled for this solve only: backtracking may bind
        // other bits.
        let mut settled = Vec::new();
        for (i, c) in st.cons.iter_mut().enumerate() {
            if matches!(c.want, Want::FalseUnlessSpelled) {
                let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
                let v = check(&mut env, &st.steps, &Con { want: Want::Truthy(true), ..*c });
                c.want = Want::Truthy(v && env.read & !st.bound == 0);
                settled.push(i);
            }
        }
        let result = self.solve_settled(st, leaf);
        for i in settled {
            st.cons[i].want = Want::FalseUnlessSpelled;
        }
        result
    }

    /// [`Parser::solve`], once the lenient conditions are settled.
    fn solve_settled(&self, st: &mut St, leaf: u16) -> Result<(), Misfit> {
        // Most lines bind every bit a constraint reads: one pass decides them.
        if let Some(decided) = self.decided(st, leaf) {
            return if decided { Ok(()) } else { Err(self.misfit(st)) };
        }
        // Most of the rest leave one bit to choose (`vcc_hi`, `s[62:63]`).
        if let Some(result) = self.solve_one_bit(st, leaf) {
            return result;
        }
        // A constraint no value of its own unbound bits satisfies fails the
        // whole: found cheaply, before enumerating every constraint together
        // (most tried forms fail that way, on one operand's value).
        if let Some(i) = st.cons.iter().position(|c| self.unsatisfiable(st, c)) {
            return Err(Misfit::Breaks(i));
        }
        let saved = (st.bits, st.bound);
        if let Some(result) = self.solve_groups(st) {
            result?;
            if self.decided(st, leaf) == Some(true) || self.solve_joint(st, leaf).is_ok() {
                return Ok(());
            }
        }
        // The greedy order did not work out: start again from the text alone.
        (st.bits, st.bound) = saved;
        self.solve_joint(st, leaf)
    }

    /// Why operands whose every bit is bound do not fit: the first
    /// constraint they break.
    fn misfit(&self, st: &St) -> Misfit {
        let failing = st.cons.iter().position(|c| {
            let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
            !c.known(st) && !check(&mut env, &st.steps, c) && env.read & !st.bound == 0
        });
        failing.map_or(Misfit::Any, Misfit::Breaks)
    }

    /// Whether every constraint holds (and the length fits), when that is
    /// decided by the bits bound so far; `None` when a constraint reads an
    /// unbound bit.
    fn decided(&self, st: &St, leaf: u16) -> Option<bool> {
        let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        // A constraint that fails reading only bound bits fails whatever the
        // other bits are, so stopping at the first failure decides too.
        let holds =
            st.cons.iter().all(|c| c.known(st) || check(&mut env, &st.steps, c)) && self.fits_length(&mut env, leaf);
        (env.read & !st.bound == 0).then_some(holds)
    }

    /// [`Parser::solve_settled`] when the constraints (and the length) read
    /// one bit the text left unbound: the first of its two values that
    /// satisfies them all, which is what the greedy and the joint search
    /// both come to. `None` when they read more, or when trying a value
    /// makes them read another.
    fn solve_one_bit(&self, st: &mut St, leaf: u16) -> Option<Result<(), Misfit>> {
        let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        for c in st.cons.iter().filter(|c| !c.known(st)) {
            check(&mut env, &st.steps, c);
        }
        self.fits_length(&mut env, leaf);
        let free = env.read & !st.bound;
        if free.count_ones() != 1 {
            return None;
        }
        for v in [0, free] {
            let bits = (st.bits & !free) | v;
            let mut env = Env { isa: self.isa, bits, gen_: self.gen_, read: 0, given: Given::NONE };
            // A constraint that fails reading only bound bits and this one
            // rules the value out, whatever the others say.
            // A known constraint reads only bound bits, not this one.
            let ok = st.cons.iter().all(|c| c.known(st) || check(&mut env, &st.steps, c))
                && self.fits_length(&mut env, leaf);
            if env.read & !st.bound & !free != 0 {
                return None;
            }
            if ok {
                st.bits = bits;
                st.bound |= free;
                return Some(Ok(()));
            }
        }
        Some(Err(Misfit::Any))
    }

    /// An operand's early check of constraint `i`: false when it fails
    /// reading only bits bound so far (whatever the others become, it
    /// fails). When it holds reading only those, that is kept (see
    /// [`Con::held`]). A form's own constraint is left to the solver (it
    /// asks the decoder, which reads every form of the group), and so is a
    /// lenient earlier-case condition (settled once the whole text is
    /// bound).
    fn held_now(&self, st: &mut St, i: usize) -> bool {
        let Some(c) = st.cons.get(i) else { return true };
        if matches!(c.what, What::Form { .. }) || matches!(c.want, Want::FalseUnlessSpelled) {
            return true;
        }
        let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        let holds = check(&mut env, &st.steps, c);
        if env.read & !st.bound != 0 {
            return true;
        }
        if holds && let Some(c) = st.cons.get_mut(i) {
            c.held = Some((env.read, st.bits & env.read));
        }
        holds
    }

    /// Whether no value of the unbound bits `c` reads makes it hold (false
    /// when that takes more than [`MAX_FREE_BITS`] bits to tell).
    fn unsatisfiable(&self, st: &St, c: &Con) -> bool {
        let mut free: Bits = 0;
        'grow: loop {
            let n = free.count_ones();
            if n > MAX_FREE_BITS {
                return false;
            }
            for a in 0..(1u64 << n) {
                let mut env = Env {
                    isa: self.isa,
                    bits: st.bits | deposit(a, free),
                    gen_: self.gen_,
                    read: 0,
                    given: Given::NONE,
                };
                let ok = check(&mut env, &st.steps, c);
                let newly = env.read & !st.bound & !free;
                if newly != 0 {
                    free |= newly;
                    continue 'grow;
                }
                if ok {
                    return false;
                }
            }
            return true;
        }
    }

    /// Solves constraints one at a time, the one reading the fewest unset bits
    /// first, binding its smallest solution. `None` when that greedy order does
    /// not satisfy everything (the caller then solves jointly, which finds any
    /// solution this misses).
    fn solve_groups(&self, st: &mut St) -> Option<Result<(), Misfit>> {
        let mut guessed = false;
        loop {
            // Constraints that pin a value go first, then the one with the
            // fewest unset bits.
            let mut best: Option<(usize, Bits, (bool, u32))> = None;
            let mut frees = Vec::with_capacity(st.cons.len());
            for (i, c) in st.cons.iter().enumerate() {
                let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
                let holds = check(&mut env, &st.steps, c);
                let free = env.read & !st.bound;
                frees.push(free);
                if free == 0 {
                    if !holds {
                        // Decided by the text alone, or by an earlier guess.
                        return if guessed { None } else { Some(Err(Misfit::Any)) };
                    }
                    continue;
                }
                let rank = (!matches!(c.want, Want::Eq(_)), free.count_ones());
                if best.is_none_or(|(_, _, r)| rank < r) {
                    best = Some((i, free, rank));
                }
            }
            let Some((i, mut free, _)) = best else { break };
            guessed = true;
            // Every constraint that reads only these unset bits is decided by
            // the same choice, so it must hold too.
            let together: Vec<usize> = (0..st.cons.len()).filter(|&j| frees[j] != 0 && frees[j] & !free == 0).collect();
            let found = 'search: loop {
                let n = free.count_ones();
                if n > MAX_FREE_BITS {
                    return None;
                }
                for a in 0..(1u64 << n) {
                    let bits = st.bits | deposit(a, free);
                    let mut env = Env { isa: self.isa, bits, gen_: self.gen_, read: 0, given: Given::NONE };
                    let ok = check(&mut env, &st.steps, &st.cons[i])
                        && together.iter().all(|&j| check(&mut env, &st.steps, &st.cons[j]));
                    let newly = env.read & !st.bound & !free;
                    if newly != 0 {
                        free |= newly;
                        continue 'search;
                    }
                    if ok {
                        break 'search Some(bits);
                    }
                }
                break None;
            };
            match found {
                Some(bits) => {
                    st.bits = bits;
                    st.bound |= free;
                }
                None => return None,
            }
        }
        let mut env = Env { isa: self.isa, bits: st.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        if st.cons.iter().all(|c| check(&mut env, &st.steps, c)) { Some(Ok(())) } else { None }
    }

    /// Enumerates every unset bit any constraint reads, together.
    fn solve_joint(&self, st: &mut St, leaf: u16) -> Result<(), Misfit> {
        let mut free: Bits = 0;
        'grow: loop {
            let n = free.count_ones();
            if n > MAX_FREE_BITS {
                return Err(Misfit::Undetermined);
            }
            for a in 0..(1u64 << n) {
                let bits = st.bits | deposit(a, free);
                let mut env = Env { isa: self.isa, bits, gen_: self.gen_, read: 0, given: Given::NONE };
                let ok = st.cons.iter().all(|c| check(&mut env, &st.steps, c)) && self.fits_length(&mut env, leaf);
                let newly = env.read & !st.bound & !free;
                if newly != 0 {
                    free |= newly;
                    continue 'grow;
                }
                if ok {
                    st.bits = bits;
                    st.bound |= free;
                    return Ok(());
                }
            }
            return Err(Misfit::Any);
        }
    }
}

impl Parser<'_> {
    /// Binds fields that a constraint pins to a constant (`OFFSET == 0` choosing
    /// a case, `SEXT && !NEG` choosing a source modifier's form: a one-bit
    /// flag is one, a negated field zero), alone or as one operand of a chain
    /// of `&&`, so the solver need not enumerate them; and fields an earlier
    /// case's condition, which must fail, pins the other way (`P == 0` for
    /// GCN's `vcc_lo`, so `vcc_hi` has P one). A parameter pins the
    /// enclosing field it is (see [`Parser::alias`]).
    fn bind_equalities(&self, st: &mut St) {
        let mut terms = Vec::new();
        for i in 0..st.cons.len() {
            let c = &st.cons[i];
            let (What::Expr(e), Want::Truthy(want)) = (c.what, c.want) else { continue };
            terms.clear();
            // A condition that must hold pins each of its conjuncts; one that
            // must fail pins only when it is a single term.
            match want {
                true => conjuncts(e, &mut terms),
                false => terms.push(e),
            }
            for &t in &terms {
                // What the term pins, and to what, when it must hold: `F ==
                // k`; `!F`, zero; `F` alone, one (for a one-bit field only,
                // below); `F != k`, the other value of a one-bit field. When
                // it must fail: the other way round.
                let (op, k, one_bit) = match (t, want) {
                    (&[a @ (Op::Field(_) | Op::Param(_)), Op::Lit(k), Op::Bin(BinOp::Eq)], true)
                    | (&[Op::Lit(k), a @ (Op::Field(_) | Op::Param(_)), Op::Bin(BinOp::Eq)], true)
                    | (&[a @ (Op::Field(_) | Op::Param(_)), Op::Lit(k), Op::Bin(BinOp::Ne)], false)
                    | (&[Op::Lit(k), a @ (Op::Field(_) | Op::Param(_)), Op::Bin(BinOp::Ne)], false) => (a, k, false),
                    (&[a @ (Op::Field(_) | Op::Param(_)), Op::Lit(k @ (0 | 1)), Op::Bin(BinOp::Ne)], true)
                    | (&[Op::Lit(k @ (0 | 1)), a @ (Op::Field(_) | Op::Param(_)), Op::Bin(BinOp::Ne)], true)
                    | (&[a @ (Op::Field(_) | Op::Param(_)), Op::Lit(k @ (0 | 1)), Op::Bin(BinOp::Eq)], false)
                    | (&[Op::Lit(k @ (0 | 1)), a @ (Op::Field(_) | Op::Param(_)), Op::Bin(BinOp::Eq)], false) => {
                        (a, 1 - k, true)
                    }
                    (&[a @ (Op::Field(_) | Op::Param(_)), Op::Not], true)
                    | (&[a @ (Op::Field(_) | Op::Param(_))], false) => (a, 0, false),
                    (&[a @ (Op::Field(_) | Op::Param(_))], true)
                    | (&[a @ (Op::Field(_) | Op::Param(_)), Op::Not], false) => (a, 1, true),
                    _ => continue,
                };
                let path = st.path(&st.cons[i]);
                let target = match op {
                    Op::Field(f) => self.alias(path, f),
                    Op::Param(p) => self.param_alias(path, p),
                    _ => None,
                };
                let Some((at, field, keep)) = target else { continue };
                let Src::Bits(ranges) = field.src else { continue };
                let width = crate::width_of(ranges);
                if one_bit && (keep != 1 || field.is_signed()) {
                    continue;
                }
                if keep < width {
                    // The value is the field's low bits (`LIT & 0xffff`).
                    if k < 0 || k >> keep != 0 {
                        continue;
                    }
                    let low = low_ranges(ranges, keep);
                    if st.bound & word_mask(&at, &low) == 0 {
                        st.bind_field(&at, &low, k as u128);
                    }
                    continue;
                }
                if st.bound & word_mask(&at, ranges) != 0 {
                    continue;
                }
                let (min, max) = field_range(width, field.is_signed());
                if (k as i128) < min || (k as i128) > max {
                    continue;
                }
                st.bind_field(&at, ranges, (k as u128) & mask_of(0, width));
            }
        }
    }
}

/// The instruction-word bits of a field made of `ranges` at `at`.
fn word_mask(at: &Step, ranges: &[crate::Range]) -> Bits {
    ranges.iter().fold(0, |m, r| m | at.in_word(mask_of(r.lo as u32, r.width as u32)))
}

/// `F & (2^k - 1)`: F and k.
fn low_mask(e: &[Op]) -> Option<(u16, u32)> {
    match *e {
        [Op::Field(f), Op::Lit(m), Op::Bin(BinOp::BitAnd)] if m > 0 && (m + 1) & m == 0 => Some((f, m.count_ones())),
        _ => None,
    }
}

/// A set of named bits at the start of `s`: its value and the length of its
/// text. White space may surround the names; a name given twice, or one the
/// set does not have, is refused.
fn read_set(set: &crate::SetSyntax, s: &str) -> Option<(u64, usize)> {
    let mut rest = s.strip_prefix(set.open)?.trim_start();
    if let Some(r) = rest.strip_prefix(set.close) {
        return Some((0, s.len() - r.len()));
    }
    let mut value = 0u64;
    loop {
        // The longest name that is there, so `SRC10` is not read as `SRC1`.
        let &(bit, name) = set.names.iter().filter(|(_, n)| rest.starts_with(n)).max_by_key(|(_, n)| n.len())?;
        if value >> bit & 1 == 1 {
            return None;
        }
        value |= 1 << bit;
        rest = rest[name.len()..].trim_start();
        if let Some(r) = rest.strip_prefix(set.close) {
            return Some((value, s.len() - r.len()));
        }
        rest = rest.strip_prefix(set.separator)?.trim_start();
    }
}

/// Whether template text `lit` ends with the register name `name`, as a whole
/// word (`[ttmp` and `, v` do for `ttmp` and `v`; `sv` does not for `v`).
fn ends_with_name(lit: &str, name: &str) -> bool {
    lit.strip_suffix(name).is_some_and(|before| !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// The pieces of a field (`ranges`, most significant first) that hold its low
/// `keep` bits, most significant first.
fn low_ranges(ranges: &[crate::Range], keep: u32) -> Vec<crate::Range> {
    let mut out = Vec::new();
    let mut left = keep;
    for r in ranges.iter().rev() {
        if left == 0 {
            break;
        }
        let w = (r.width as u32).min(left);
        out.push(crate::Range { lo: r.lo, width: w as u8 });
        left -= w;
    }
    out.reverse();
    out
}

/// Splits a postfix expression at its top-level `&&` operators into the
/// operands, which must all hold; anything else is one operand.
pub fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    split_at_top(e, BinOp::And, out);
}

/// Splits a postfix expression at its top-level `||` operators into the
/// operands, one of which must hold; anything else is one operand.
pub fn disjuncts(e: Expr, out: &mut Vec<Expr>) {
    split_at_top(e, BinOp::Or, out);
}

/// The operands of a postfix expression's top-level chain of `op`.
fn split_at_top(e: Expr, op: BinOp, out: &mut Vec<Expr>) {
    if let [rest @ .., Op::Bin(last)] = e
        && *last == op
        && let Some((left, right)) = binary_operands(rest)
    {
        split_at_top(left, op, out);
        split_at_top(right, op, out);
        return;
    }
    out.push(e);
}

/// [`conjuncts`] without collecting them: `push` gets each in turn.
pub(crate) fn push_conjuncts(e: Expr, push: &mut impl FnMut(Expr)) {
    if let [rest @ .., Op::Bin(BinOp::And)] = e
        && let Some((left, right)) = binary_operands(rest)
    {
        push_conjuncts(left, push);
        push_conjuncts(right, push);
        return;
    }
    push(e);
}

/// The two operands of a binary operator whose postfix operands are `e` (the
/// expression without the operator).
pub(crate) fn binary_operands(e: Expr) -> Option<(Expr, Expr)> {
    // The right operand starts after the last point where exactly one value
    // (the left operand) is on the stack.
    let mut depth = 0i32;
    let mut split = None;
    for (i, op) in e.iter().enumerate() {
        if depth == 1 {
            split = Some(i);
        }
        depth += stack_effect(op);
    }
    match (split, depth) {
        (Some(i), 2) => Some((&e[..i], &e[i..])),
        _ => None,
    }
}

/// How many values an operator leaves on the stack, less what it takes.
fn stack_effect(op: &Op) -> i32 {
    match op {
        Op::Lit(_) | Op::Field(_) | Op::Param(_) | Op::Gen => 1,
        Op::Not | Op::Neg | Op::BitNot => 0,
        Op::Bin(_) => -1,
        Op::Select => -2,
    }
}

/// A postfix `c ? a : b` split into `c`, `a` and `b`; `None` for anything else.
pub fn select_operands(e: Expr) -> Option<(Expr, Expr, Expr)> {
    let [rest @ .., Op::Select] = e else { return None };
    // The operands are the last three complete expressions before `?:`.
    let mut ends = Vec::new();
    let mut depth = 0i32;
    for (i, op) in rest.iter().enumerate() {
        depth += stack_effect(op);
        ends.push((i + 1, depth));
    }
    if depth != 3 {
        return None;
    }
    // `b` starts after the last point with two values on the stack, `a` after
    // the last point (before that) with one.
    let b_start = ends.iter().rev().find(|&&(i, d)| d == 2 && i < rest.len()).map(|&(i, _)| i)?;
    let a_start = ends.iter().rev().find(|&&(i, d)| d == 1 && i < b_start).map(|&(i, _)| i)?;
    Some((&rest[..a_start], &rest[a_start..b_start], &rest[b_start..]))
}

impl Parser<'_> {
    /// For a variable-length encoding: no bit is set past the length the bits
    /// select (so the shortest form that holds every operand is chosen).
    fn fits_length(&self, env: &mut Env<'_>, leaf: u16) -> bool {
        let l = &self.isa.leaves[leaf as usize];
        let Some(e) = l.length else { return true };
        let all = env.bits;
        env.bits = all & mask_of(0, l.min_bits);
        let path = [Step::top(leaf, (l.cases.len() - 1) as u16)];
        let n = env.eval(&path, e);
        env.bits = all;
        (l.min_bits as i64..=l.bits as i64).contains(&n) && n % 8 == 0 && all & !mask_of(0, n as u32) == 0
    }
}

/// The span of `steps` that constraint `c` names.
/// The form the text was read in for the operand at `at` below the scope
/// `above`, as its form constraint records it (see [`crate::decode::KnownForm`]).
/// Scopes are compared by place, not by case: the parent's case is the one
/// the text chose, which the solver made the case in force.
fn form_read(st: &St, above: &[Step], at: &Step) -> Option<u16> {
    let same = |a: &Step, b: &Step| a.base == b.base && a.via == b.via && a.map == b.map;
    st.cons.iter().find_map(|c| {
        let What::Form { leaf, .. } = c.what else { return None };
        let (last, up) = path_in(&st.steps, c).split_last()?;
        let here = up.len() == above.len()
            && same(last, at)
            && up.iter().zip(above).all(|(a, b)| a.leaf == b.leaf && same(a, b));
        here.then_some(leaf)
    })
}

/// The assembler's answer for text read to its end whose values no
/// encoding of the instruction holds.
const MISFIT: &str = "operands do not fit any form of this instruction";

/// Why the solver found no encoding for text read to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Misfit {
    /// No assignment of the bits the text left open keeps every constraint.
    Any,
    /// The text leaves more bits open than the solver enumerates.
    Undetermined,
    /// Constraint `i` of [`St::cons`] fails whatever the open bits are.
    Breaks(usize),
}

/// What a reported misfit is about, to tell whether another reading that
/// failed at the same place failed for the same reason: the condition and
/// the case it belongs to, or `Misfit::Any`'s and `Misfit::Undetermined`'s
/// own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MisfitKey(usize, u32, u8);

impl MisfitKey {
    /// Readings that failed at the same place for different reasons: named
    /// together as the general answer.
    const MIXED: MisfitKey = MisfitKey(usize::MAX, 0, 0);
}

/// The condition `m` names, when it is one of the spec's: the constraint,
/// its scope and its case.
fn broken<'s>(isa: &Isa, st: &'s St, m: Misfit) -> Option<(&'s Con, &'s [Step], Expr, &'static Leaf, u16)> {
    let Misfit::Breaks(i) = m else { return None };
    let c = st.cons.get(i)?;
    let path = path_in(&st.steps, c);
    let (What::Expr(e), Some(step)) = (c.what, path.last()) else { return None };
    let leaf = isa.leaves.get(step.leaf as usize)?;
    leaf.cases.get(step.case as usize)?;
    Some((c, path, e, leaf, step.case))
}

/// What `m` is about (see [`MisfitKey`]).
fn misfit_key(isa: &Isa, st: &St, m: Misfit) -> MisfitKey {
    match broken(isa, st, m) {
        Some((c, path, e, _, case)) => {
            let want = match c.want {
                Want::Truthy(true) => 2,
                Want::Truthy(false) | Want::FalseUnlessSpelled => 3,
                Want::Eq(_) => 4,
            };
            let step = path.last().map_or(0, |s| u32::from(s.leaf) << 16 | u32::from(case));
            MisfitKey(e.as_ptr() as usize, step, want)
        }
        None => MisfitKey(0, 0, u8::from(m == Misfit::Undetermined)),
    }
}

/// The answer for `m`, met with `st`'s bindings: for a broken condition of
/// the spec's (a case's `when`, a `requires`), what the reading needs, and
/// the values of the fields it reads that the text bound. `(nop1)(rpt1)
/// add.f` reads as the case with a nop count, which needs `REPEAT == 0`:
/// what the text bound is all its writer can change, so it is named rather
/// than left to be found in the template.
fn misfit_text(isa: &Isa, gen_: u32, st: &St, m: Misfit) -> String {
    if m == Misfit::Undetermined {
        return "the text leaves too many fields undetermined".into();
    }
    let Some((c, path, e, leaf, case)) = broken(isa, st, m) else { return MISFIT.into() };
    let case = &leaf.cases[case as usize];
    let cond = crate::expr_text(isa, leaf, case, e);
    let needs = match c.want {
        Want::Truthy(true) => format!("`{cond}`"),
        Want::Truthy(false) | Want::FalseUnlessSpelled => format!("`{cond}` not to hold"),
        Want::Eq(v) => format!("`{cond}` to be {v}"),
    };
    let mut values = Vec::new();
    for op in e {
        let Op::Field(i) = *op else { continue };
        let Some(f) = case.fields.get(i as usize) else { continue };
        let mut env = Env { isa, bits: st.bits, gen_, read: 0, given: Given::NONE };
        let said = format!("{} is {}", f.name, env.field(path, i));
        if env.read & !st.bound == 0 && !values.contains(&said) {
            values.push(said);
        }
    }
    match values.is_empty() {
        true => format!("{MISFIT}: this reading needs {needs}"),
        false => format!("{MISFIT}: this reading needs {needs}, and {}", values.join(", ")),
    }
}

fn path_in<'s>(steps: &'s [Step], c: &Con) -> &'s [Step] {
    let (start, len) = (c.path.0 as usize, c.path.1 as usize);
    steps.get(start..start + len).unwrap_or(&[])
}

fn check(env: &mut Env<'_>, steps: &[Step], c: &Con) -> bool {
    let c_path = path_in(steps, c);
    let v = match c.what {
        What::Expr(e) => env.eval(c_path, e),
        What::Field(i) => env.field(c_path, i),
        What::Form { group, leaf } => {
            let at = c_path.last().map_or((0, &[][..]), |s| (s.base, s.map));
            let isa = env.isa;
            // A copy the decoder may write its pick into, without allocating.
            let mut buf = [Step::top(0, 0); crate::decode::MAX_DEPTH];
            let Some(path) = buf.get_mut(..c_path.len()).filter(|p| !p.is_empty()) else { return false };
            path.copy_from_slice(c_path);
            let depth = path.len() - 1;
            let via = path[depth].via;
            // The form's own `requires` are constraints of their own.
            isa.selects_before_requires(env, path, (depth, group, at, via), leaf) as i64
        }
    };
    match c.want {
        Want::Truthy(b) => (v != 0) == b,
        Want::Eq(x) => v == x,
        Want::FalseUnlessSpelled => v == 0,
    }
}

/// One way to read a field: where the text ends, the value, and for a number
/// read in one of several float formats, the spec's format expression and
/// the format (in bits) it must give.
type Reading = (usize, Val, Option<(Expr, u32)>);

#[derive(Clone, Copy, Debug)]
enum Val {
    Num(i64),
    Truth(bool),
    /// A bool with no display text: the text says nothing about it.
    Unknown,
}

/// Records that the leaf at the end of `path` is in the case `path` names: that
/// case's condition holds and, unless `lenient`, every earlier one fails (the
/// text is the printer's). Leniently, a fuller template may spell bits an
/// earlier, shorter case prints (`load ..., 1, 0, 1, 0, 0` for what prints as
/// `load ...`), as assemblers accept spellings their printers do not write:
/// an earlier condition may then hold where the text's bits decide it.
fn add_case_constraints(isa: &Isa, path: &[Step], st: &mut St, syntax: u16, lenient: bool) {
    let Some(&step) = path.last() else { return };
    let leaf = &isa.leaves[step.leaf as usize];
    let default = (leaf.cases.len() - 1) as u16;
    // One copy of the scope, at the default case, for every constraint here.
    let at_default = st.scope(path);
    if let Some(last) = st.steps.last_mut() {
        last.case = default;
    }
    for (j, case) in leaf.cases.iter().enumerate().take(step.case as usize + 1) {
        if !case.applies_in(syntax) {
            continue; // not a view of this syntax: the printer never picks it
        }
        if let Some(e) = case.when {
            let want = match j == step.case as usize {
                // Each conjunct its own constraint: the solver decides one
                // over the few bits it reads (`(C & 0x3ff) == 0`) before one
                // that reads more (`C < 0x800`), rather than all at once.
                true => {
                    push_conjuncts(e, &mut |t| st.cons.push(Con::new(at_default, What::Expr(t), Want::Truthy(true))));
                    continue;
                }
                false if lenient => Want::FalseUnlessSpelled,
                false => Want::Truthy(false),
            };
            st.cons.push(Con::new(at_default, What::Expr(e), want));
        }
    }
    for &e in leaf.requires {
        st.cons.push(Con::new(at_default, What::Expr(e), Want::Truthy(true)));
    }
}

/// Scatters the low bits of `a` into the set bits of `mask`, lowest first.
pub(crate) fn deposit(a: u64, mask: Bits) -> Bits {
    let mut out = 0;
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if (a >> i) & 1 == 1 {
            out |= low;
        }
        m &= m - 1;
        i += 1;
    }
    out
}

/// The template of the case at `step` as the spec writes it (`s{N}`,
/// `v_add_f32{?_e32} {VDST}, ...`), and where field `field` lies in it
/// (its name in braces): written, if optional, as when present (` dmask:{M}`,
/// not `{? dmask:{M}}`).
fn rendered(isa: &Isa, step: Step, syntax: u16, field: u16) -> (String, Option<std::ops::Range<usize>>) {
    let leaf = &isa.leaves[step.leaf as usize];
    let case = &leaf.cases[step.case as usize];
    let name = |i: u16| case.fields.get(i as usize).map_or("?", |f| f.name);
    let (mut s, mut at) = (String::new(), None);
    for tok in case.display_in(syntax) {
        match *tok {
            Tok::Lit(t) => s.push_str(t),
            Tok::Field(i) => {
                let start = s.len();
                s.push_str(&format!("{{{}}}", name(i)));
                at = at.or((i == field).then_some(start..s.len()));
            }
            Tok::Name => s.push_str(leaf.name_in(syntax)),
            // An optional space reads as a space (where a word ends).
            Tok::Opt(t) if t.trim().is_empty() => s.push(' '),
            Tok::Opt(t) => s.push_str(&format!("{{?{t}}}")),
            Tok::OptField(t, i, _) if i == field => {
                s.push_str(t);
                let start = s.len();
                s.push_str(&format!("{{{}}}", name(i)));
                at = Some(start..s.len());
            }
            Tok::OptField(t, i, _) => s.push_str(&format!("{{?{t}{{{}}}}}", name(i))),
            Tok::Column => s.push(' '),
        }
    }
    (s, at)
}

/// How a message names field `i` of the case at a path's end: with the
/// word of the template it is written in, up to a space or comma and
/// from its first text (`N in \`v{N}\``, `M in \`dmask:{M}\``, `SWIZ in
/// \`r{GPR}.{SWIZ}\``, `NOP in \`(nop{NOP})\``), since a spec's field names
/// (`N`, `M`) say little on their own. A field written alone, or not
/// written at all, is named alone.
struct Named {
    name: &'static str,
    quoted: Option<String>,
}

impl Named {
    fn new(isa: &Isa, path: &[Step], syntax: u16, i: u16) -> Named {
        let Some(&step) = path.last() else { return Named { name: "?", quoted: None } };
        let case = &isa.leaves[step.leaf as usize].cases[step.case as usize];
        let name = case.fields.get(i as usize).map_or("?", |f| f.name);
        let (s, at) = rendered(isa, step, syntax, i);
        let quoted = at.and_then(|at| {
            let apart = |c: char| c == ' ' || c == ',';
            let mut start = s[..at.start].rfind(apart).map_or(0, |k| k + 1);
            // Fields written first in the word are flags before it (ir3's
            // `{SY}{SS}(nop{NOP})`, AGX's `{CM}r{R}`): not quoted.
            while s[start..at.start].starts_with('{') && !s[start..].starts_with("{?") {
                let Some(close) = s[start..at.start].find('}') else { break };
                start += close + 1;
            }
            let end = s[at.end..].find(apart).map_or(s.len(), |k| at.end + k);
            let q = &s[start..end];
            (q.len() != at.len()).then(|| q.to_string())
        });
        Named { name, quoted }
    }

    /// Whether the line from the field's text on, `rest`, has the text of
    /// the word quoted, piece by piece in order (`mov.` of
    /// `{REPEAT}{UL}mov.{SRC_TYPE}{DST_TYPE}`); true when none is quoted.
    fn read_on(&self, rest: &str) -> bool {
        let Some(q) = &self.quoted else { return true };
        // The text outside braces (a field, an optional piece), run by run.
        let (mut depth, mut piece, mut at) = (0u32, String::new(), 0);
        let mut found = |piece: &mut String| {
            let hit = piece.is_empty() || rest[at..].find(piece.as_str()).map(|i| at += i + piece.len()).is_some();
            piece.clear();
            hit
        };
        for c in q.chars() {
            match c {
                '{' => {
                    if depth == 0 && !found(&mut piece) {
                        return false;
                    }
                    depth += 1;
                }
                '}' => depth = depth.saturating_sub(1),
                c if depth == 0 => piece.push(c),
                _ => {}
            }
        }
        found(&mut piece)
    }

    /// `N in \`v{N}\``, or `field N` when it has no text round it.
    fn field(&self) -> String {
        match &self.quoted {
            Some(q) => format!("{} in `{q}`", self.name),
            None => format!("field {}", self.name),
        }
    }

    /// ` in \`v{N}\``, or nothing, to follow a phrase naming the field.
    fn within(&self) -> String {
        self.quoted.as_ref().map_or(String::new(), |q| format!(" in `{q}`"))
    }
}

fn expected_value(isa: &Isa, field: &Field, named: &Named) -> String {
    let within = named.within();
    match field.ty {
        // The first names, up to eight and some 80 characters (a reported
        // line is cut at 200), and how many more there are (AGX's special
        // registers number in the hundreds).
        Ty::Enum(e) => {
            let all = || isa.enums[e as usize].values.iter().map(|v| v.display).filter(|d| !d.is_empty());
            let mut room = 80usize;
            let vals: Vec<_> = all()
                .take(8)
                .enumerate()
                .take_while(|&(k, d)| {
                    let fits = k == 0 || d.len() + 2 <= room;
                    room = room.saturating_sub(d.len() + 2);
                    fits
                })
                .map(|(_, d)| d)
                .collect();
            let more = match all().count().saturating_sub(vals.len()) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!("expected {} (one of {}{more}){within}", field.name, vals.join(", "))
        }
        Ty::Float { .. } => format!("expected a number for {}{within}", field.name),
        _ => format!("expected a value for {}{within}", field.name),
    }
}

/// Whether `text` starts with `name` but for the numbers in it (`(rpt9)`
/// as `(rpt1)` is), and `name` holds a number: text written as the name
/// of a value, with a number no name has.
fn numbered_like(text: &str, name: &str) -> bool {
    let (t, n) = (text.as_bytes(), name.as_bytes());
    let (mut i, mut j, mut numbered) = (0, 0, false);
    while j < n.len() {
        let (Some(&a), b) = (t.get(i), n[j]) else { return false };
        if a.is_ascii_digit() && b.is_ascii_digit() {
            i += t[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            j += n[j..].iter().take_while(|c| c.is_ascii_digit()).count();
            numbered = true;
        } else if a == b {
            (i, j) = (i + 1, j + 1);
        } else {
            return false;
        }
    }
    numbered
}

/// Reads a decimal (or `0x` hexadecimal, or in another of `radixes`)
/// integer; `hex` reads bare hex digits.
fn scan_int(s: &str, signed: bool, hex: bool, radixes: Radixes) -> Option<(i64, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = signed && b.first() == Some(&b'-');
    if neg {
        i += 1;
    }
    let (radix, start) = if hex {
        (16, i)
    } else {
        let (radix, skip) = crate::int_expr::radix(&b[i..], radixes);
        (radix, i + skip)
    };
    let mut j = start;
    while j < b.len() && (b[j] as char).is_digit(radix) {
        j += 1;
    }
    if j == start {
        return None;
    }
    let v = i128::from_str_radix(&s[start..j], radix).ok()?;
    let v = if neg { -v } else { v };
    let v = i64::try_from(v).ok().or_else(|| (!neg).then(|| u64::try_from(v).ok().map(|u| u as i64)).flatten())?;
    Some((v, j))
}

/// Reads a float (`-1.5`, `2e3`, `inf`) or raw bits (`0x3c00`); returns the bits.
fn scan_float(s: &str, width: u32) -> Option<(u64, usize)> {
    let b = s.as_bytes();
    if s.starts_with("0x") {
        let (v, n) = scan_int(s, false, false, Radixes::PLAIN)?;
        return (width >= 64 || (v as u64) >> width == 0).then_some((v as u64, n));
    }
    let mut j = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        j += 1;
    }
    for word in ["inf", "nan"] {
        if s[j..].starts_with(word) {
            return float_bits(&s[..j + 3], width).map(|v| (v, j + 3));
        }
    }
    let digits_start = j;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j == digits_start {
        return None;
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'-' | b'+')) {
            k += 1;
        }
        let e0 = k;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if k > e0 {
            j = k;
        }
    }
    float_bits(&s[..j], width).map(|v| (v, j))
}

/// The IEEE bits of a decimal number at `width` 16 or 32 (round to nearest even).
pub(crate) fn float_bits(text: &str, width: u32) -> Option<u64> {
    let f: f32 = text.parse().ok()?;
    if width == 16 {
        let h = f32_to_f16_rne(f);
        // A finite number that rounds to infinity does not fit.
        if f.is_finite() && f16_to_f32(h).is_infinite() {
            return None;
        }
        Some(h as u64)
    } else if width == 32 {
        Some(f.to_bits() as u64)
    } else {
        None
    }
}

pub(crate) fn f32_to_f16_rne(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let (m, shift) = if e <= 0 {
        if exp == 0 || 14 - e > 31 {
            return sign;
        }
        (man | 0x80_0000, (14 - e) as u32)
    } else {
        (man, 13)
    };
    let mut half = m >> shift;
    let rem = m & ((1 << shift) - 1);
    let mid = 1 << (shift - 1);
    if rem > mid || (rem == mid && half & 1 == 1) {
        half += 1;
    }
    if e > 0 { sign | (((e as u32) << 10) + half) as u16 } else { sign | half as u16 }
}

/// The text template `toks` of `leaf` starts with, when its first token is
/// literal text or the name: what [`Parser::opens`] looks for before trying
/// the template.
pub(crate) fn opening(leaf: &Leaf, toks: &[Tok], syntax: u16) -> Option<&'static str> {
    match toks.first() {
        Some(Tok::Lit(s)) => Some(s),
        Some(Tok::Name) => Some(leaf.name_in(syntax)),
        _ => None,
    }
}

impl Isa {
    /// Assembles one instruction from text for generation `gen_`.
    pub fn parse(&self, text: &str, gen_: u32) -> Result<Inst, AsmError> {
        self.parse_in(text, gen_, 0)
    }

    /// Assembles one instruction written in syntax `syntax` (an index into
    /// [`Isa::syntaxes`]).
    pub fn parse_in(&self, text: &str, gen_: u32, syntax: u16) -> Result<Inst, AsmError> {
        let mut scratch = Scratch::take();
        let result = self.parse_with(text, gen_, syntax, &mut scratch);
        scratch.give();
        result
    }

    /// [`Isa::parse_in`] with the buffers of `s`.
    fn parse_with(&self, text: &str, gen_: u32, syntax: u16, s: &mut Scratch) -> Result<Inst, AsmError> {
        let text = text.trim();
        let mut p = Parser {
            isa: self,
            text,
            gen_,
            syntax,
            lenient: false,
            best_pos: 0,
            best_msg: Msg::None,
            best_rule: false,
            best_elsewhere: false,
            pool: std::mem::take(&mut s.pool),
            forms: crate::forms::index(self, syntax),
            listed: crate::any_order::listed(self),
            head: text.find(|c: char| c.is_whitespace() || c == ',').unwrap_or(text.len()),
        };
        if let Some(inst) = self.parse_pass(&mut p, s) {
            s.pool = p.pool;
            return Ok(inst);
        }
        // Text no case reads as the printer would write it may still spell
        // valid bits in a fuller form; the strict pass's error stands if not,
        // unless the fuller reading fit and broke a rule (that says why).
        let mut again =
            Parser { lenient: true, best_pos: 0, best_msg: Msg::None, best_rule: false, best_elsewhere: false, ..p };
        let found = self.parse_pass(&mut again, s);
        s.pool = std::mem::take(&mut again.pool);
        if let Some(inst) = found {
            return Ok(inst);
        }
        if again.best_rule && again.best_pos >= p.best_pos {
            p = again;
        }
        // Nothing read at the line's start is an unknown instruction, but
        // a value read there and refused (ir3's `(rpt5)add.f`, whose
        // repeat field holds at most 3) says what to change.
        let message = if p.best_msg.is_empty() || p.best_pos == 0 && !matches!(p.best_msg, Msg::Text(_)) {
            let word = text.split(|c: char| c.is_whitespace() || c == ',').next().unwrap_or("");
            // A word before an instruction the line does name (ir3's
            // `(nop3) mov.f32f32`, whose cat1 encoding has no nop count;
            // GCN's `glc v_add_f32`) is no unknown instruction.
            let named = s.order.iter().any(|&l| self.leaves[l as usize].exists_in(gen_));
            match named {
                true => format!("no form of the instruction this line names begins with `{word}`"),
                false => format!("unknown instruction `{word}`"),
            }
        } else if p.best_pos >= text.len() && matches!(p.best_msg, Msg::Expected(_)) {
            // Said as llvm-mc says it ("too few operands"): what is wrong is
            // what is missing, not the place.
            format!("the line ends early: {}", p.best_msg.into_string())
        } else {
            p.best_msg.into_string()
        };
        Err(AsmError { column: p.best_pos, message })
    }

    /// One pass over the instructions of `p.gen_` in spec order: the first
    /// that reads the whole text.
    fn parse_pass(&self, p: &mut Parser<'_>, s: &mut Scratch) -> Option<Inst> {
        let (text, gen_, syntax) = (p.text, p.gen_, p.syntax);
        let mut found: Option<Inst> = None;
        // Spec order, not the decoder's priority order: a form listed first
        // (the shorter one) wins when the text fits several.
        let Scratch { order, st, path, .. } = s;
        crate::mnemonics::index(self, syntax).candidates(text, order);
        for &leaf in order.iter() {
            if !self.leaves[leaf as usize].exists_in(gen_) {
                continue;
            }
            for (ci, case) in self.leaves[leaf as usize].cases.iter().enumerate() {
                if !case.applies_in(syntax) {
                    continue;
                }
                let l = &self.leaves[leaf as usize];
                if !p.opens(l, case.display_in(syntax), 0) {
                    continue;
                }
                st.clear();
                let top = Step::top(leaf, ci as u16);
                st.bind_pattern(&top, l.mask, l.value);
                path.clear();
                path.push(top);
                add_case_constraints(self, path, st, syntax, p.lenient);
                let ok = p.seq(path, case.display_in(syntax), 0, st, &mut |p, _path, pos, st| {
                    let end = p.end_of(pos);
                    if end != p.text.len() {
                        let extra = p.rest(end);
                        p.fail(end, || format!("unexpected `{extra}`"));
                        return false;
                    }
                    if let Err(m) = p.solve(st, leaf) {
                        p.fail_misfit(end, st, m);
                        return false;
                    }
                    // The solver made the case conditions hold; the decoder must agree.
                    match p.isa.decode(st.bits, p.gen_) {
                        // The encoding must also keep the target's rules (the
                        // decoder reads what the hardware would refuse to run).
                        Ok(inst) if inst.leaf == leaf && inst.bits == st.bits => {
                            // Bits the hardware ignores stay zero: text that
                            // sets one (`tfe` where `lds` makes it moot) says
                            // something the encoding cannot keep.
                            let known = |above: &[Step], at: &Step| form_read(st, above, at);
                            let set = p.isa.ignored_and_set(&inst, p.gen_, None, &known);
                            if let Some(name) = p.isa.ignored_field_named(&inst, set) {
                                p.fail_rule(end, format!("`{name}` has no effect in this form of `{}`", l.name));
                                return false;
                            }
                            match p.isa.validate_ignoring(&inst, p.gen_, set).first() {
                                Some(rule) => {
                                    p.fail_rule(end, rule.to_string());
                                    false
                                }
                                None => {
                                    found = Some(inst);
                                    true
                                }
                            }
                        }
                        _ => {
                            p.fail(end, || format!("operands do not form a valid `{}`", l.name));
                            false
                        }
                    }
                });
                if ok && let Some(inst) = found {
                    return Some(inst);
                }
            }
        }
        None
    }

    /// Assembles one line to its bits and width: an instruction, or the target's
    /// raw form (`raw 0x...`).
    pub fn assemble(&self, text: &str, gen_: u32) -> Result<(Bits, u32), AsmError> {
        self.assemble_in(text, gen_, 0)
    }

    /// [`Isa::assemble`] for text in syntax `syntax`.
    pub fn assemble_in(&self, text: &str, gen_: u32, syntax: u16) -> Result<(Bits, u32), AsmError> {
        let t = text.trim();
        if let Some(raw) = &self.raw
            && let Some(hex) = t.strip_prefix(raw.prefix)
        {
            let digits = (raw.bits as usize).div_ceil(4);
            if hex.is_empty() || hex.len() > digits || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(AsmError {
                    column: raw.prefix.len(),
                    message: format!("expected up to {digits} hex digits after `{}`", raw.prefix),
                });
            }
            let v = u128::from_str_radix(hex, 16)
                .map_err(|e| AsmError { column: raw.prefix.len(), message: e.to_string() })?;
            return Ok((v, raw.bits));
        }
        let inst = self.parse_in(t, gen_, syntax)?;
        Ok((inst.bits, inst.len as u32 * 8))
    }

    /// Formats an undecodable word in the target's raw form, if it has one.
    pub fn format_raw(&self, bits: Bits) -> Option<String> {
        self.raw.as_ref().map(|r| format_raw(r, bits & mask_of(0, r.bits)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name with another number is "numbered like" it; a name without
    /// a number, other text, or text that stops short of it is not.
    #[test]
    fn text_is_numbered_like_a_name_but_for_its_numbers() {
        assert!(numbered_like("(rpt9)add.f", "(rpt1)"));
        assert!(numbered_like("(rpt12)", "(rpt1)"));
        assert!(numbered_like("r7.x", "r0.x"));
        assert!(!numbered_like("(rpt)", "(rpt1)"));
        assert!(!numbered_like("(rp", "(rpt1)"));
        assert!(!numbered_like("(sy)", "(ss)"));
        assert!(!numbered_like("(ss)", "(ss)"), "no number: the name itself, read as it is");
        assert!(!numbered_like("x(rpt1)", "(rpt1)"));
    }

    /// A quoted word is in the line when its text between fields is, in
    /// order; what an optional piece or a field writes does not count.
    #[test]
    fn a_quoted_word_is_read_on_by_its_text_between_fields() {
        let named = |q: &str| Named { name: "R", quoted: Some(q.into()) };
        let rest = "(rpt5)mov.f32f32 r0.x, r0.y";
        assert!(named("{REPEAT}{UL}mov.{SRC_TYPE}{DST_TYPE}").read_on(rest));
        assert!(!named("{REPEAT}{UL}mova{U}").read_on(rest));
        assert!(named("{REPEAT}{?(x){N}}mov.").read_on(rest), "an optional piece is not required");
        assert!(!named("{R}.f32f32mov.").read_on(rest), "pieces are found in order");
        assert!(Named { name: "R", quoted: None }.read_on(rest));
    }

    /// A constraint seen to hold on bits 0..4 (value 0b0101) is known to
    /// hold while those bits stay bound to that value, and only then.
    #[test]
    fn a_held_constraint_is_known_while_its_bits_stand() {
        let mut c = Con::new((0, 0), What::Field(0), Want::Truthy(true));
        let mut st = St { bits: 0b0101, bound: 0b1111, ..St::default() };
        assert!(!c.known(&st), "not seen to hold");
        c.held = Some((0b1111, 0b0101));
        assert!(c.known(&st));
        st.bits |= 1 << 8;
        assert!(c.known(&st), "a bit it does not read");
        st.bits ^= 0b0010;
        assert!(!c.known(&st), "a bit it read changed");
        st.bits ^= 0b0010;
        st.bound = 0b0111;
        assert!(!c.known(&st), "a bit it read is unbound (backtracking)");
    }

    #[test]
    fn an_operand_form_is_found_by_its_place_below_the_same_scope() {
        let top = Step::top(7, 1);
        let src0 = Step { leaf: 20, case: 0, base: 0, via: 2, map: &[] };
        let src1 = Step { leaf: 21, case: 0, base: 9, via: 3, map: &[] };
        let inner = Step { leaf: 30, case: 0, base: 9, via: 0, map: &[] };
        let mut st = St::default();
        st.push(&[top, src0], What::Form { group: 1, leaf: 20 }, Want::Truthy(true));
        st.push(&[top, src1], What::Field(0), Want::Eq(3));
        st.push(&[top, src1], What::Form { group: 1, leaf: 21 }, Want::Truthy(true));
        st.push(&[top, src1, inner], What::Form { group: 2, leaf: 30 }, Want::Truthy(true));
        let place = |s: Step| Step { leaf: 0, case: 0, ..s };
        // The parent's case may differ (the case in force is found again).
        let above = [Step::top(7, 0)];
        assert_eq!(form_read(&st, &above, &place(src0)), Some(20));
        assert_eq!(form_read(&st, &above, &place(src1)), Some(21));
        assert_eq!(form_read(&st, &[top, src1], &place(inner)), Some(30));
        // Another instruction, another field, another depth: not known.
        assert_eq!(form_read(&st, &[Step::top(8, 1)], &place(src0)), None);
        assert_eq!(form_read(&st, &above, &Step { via: 4, ..place(src0) }), None);
        assert_eq!(form_read(&st, &[top, src0], &place(inner)), None);
    }

    #[test]
    fn a_deferred_message_reads_as_the_formatted_one() {
        assert!(Msg::None.is_empty() && Msg::Text(String::new()).is_empty());
        assert!(!Msg::Expected(Alternatives::new("v")).is_empty());
        assert_eq!(Msg::Expected(Alternatives::new("vcc,")).into_string(), "expected `vcc,`");
        assert_eq!(Msg::Expected(Alternatives::new("")).into_string(), "expected white space");
        assert_eq!(Msg::Text("x".into()).into_string(), "x");
        let mut e = Alternatives::new(",");
        for t in ["[v", ",", ""] {
            e.add(t);
        }
        assert_eq!(Msg::Expected(e).into_string(), "expected `,`, `[v` or white space");
        for t in ["a", "b"] {
            e.add(t);
        }
        assert_eq!(Msg::Expected(e).into_string(), "expected `,`, `[v`, white space, `a` or another form");
        let mut o = Alternatives::new(15);
        assert_eq!(Msg::Only(16, o).into_string(), "16 is not accepted here (only 15)");
        o.add(31);
        o.add(15);
        assert_eq!(Msg::Only(16, o).into_string(), "16 is not accepted here (only 15 or 31)");
        for v in [1, 2, 3] {
            o.add(v);
        }
        assert_eq!(Msg::Only(0, o).into_string(), "0 is not accepted here (only 15, 31, 1, 2, or others)");
        assert_eq!(Msg::None.into_string(), "");
    }

    /// Buffers come back to the thread unless a huge line grew one past
    /// what is kept.
    #[test]
    fn scratch_buffers_are_kept_unless_grown_huge() {
        let mut s = Scratch::take();
        s.order.reserve(100);
        let kept = s.order.capacity();
        s.give();
        assert_eq!(Scratch::take().order.capacity(), kept, "the same buffer");
        let mut s = Scratch::take();
        s.st.cons.reserve(Scratch::KEEP + 1);
        s.give();
        assert_eq!(Scratch::take().st.cons.capacity(), 0, "let go");
    }

    #[test]
    fn conjunctions_split_into_operands() {
        use Op::*;
        // a == 1 && (b == 2 || c) && !d, parsed as (a == 1 && (b == 2 || c)) && !d
        let (eq, or, and) = (Bin(BinOp::Eq), Bin(BinOp::Or), Bin(BinOp::And));
        let e: Vec<Op> = vec![Field(0), Lit(1), eq, Field(1), Lit(2), eq, Field(2), or, and, Field(3), Not, and];
        let e: Expr = Box::leak(e.into_boxed_slice());
        let mut out = Vec::new();
        conjuncts(e, &mut out);
        assert_eq!(out, vec![&e[0..3], &e[3..8], &e[9..11]]);
        out.clear();
        conjuncts(&e[3..8], &mut out);
        assert_eq!(out, vec![&e[3..8]]);
    }

    #[test]
    fn disjunctions_split_into_operands() {
        use Op::*;
        // a == 255 || b == 255 || (c && d)
        let (eq, or, and) = (Bin(BinOp::Eq), Bin(BinOp::Or), Bin(BinOp::And));
        let e: Vec<Op> = vec![Field(0), Lit(255), eq, Field(1), Lit(255), eq, or, Field(2), Field(3), and, or];
        let e: Expr = Box::leak(e.into_boxed_slice());
        let mut out = Vec::new();
        disjuncts(e, &mut out);
        assert_eq!(out, vec![&e[0..3], &e[3..6], &e[7..10]]);
        out.clear();
        disjuncts(&e[7..10], &mut out);
        assert_eq!(out, vec![&e[7..10]], "an `&&` is one operand");
    }

    #[test]
    fn selects_split_into_condition_and_values() {
        use Op::*;
        // (a == 255 || b) ? 64 : 32
        let e: Vec<Op> = vec![Field(0), Lit(255), Bin(BinOp::Eq), Field(1), Bin(BinOp::Or), Lit(64), Lit(32), Select];
        let e: Expr = Box::leak(e.into_boxed_slice());
        assert_eq!(select_operands(e), Some((&e[0..5], &e[5..6], &e[6..7])));
        // c ? (x + 1) : (y ? 2 : 3)
        let e: Vec<Op> = vec![Field(0), Field(1), Lit(1), Bin(BinOp::Add), Field(2), Lit(2), Lit(3), Select, Select];
        let e: Expr = Box::leak(e.into_boxed_slice());
        assert_eq!(select_operands(e), Some((&e[0..1], &e[1..4], &e[4..8])));
        assert_eq!(select_operands(&e[1..4]), None, "not a select");
        assert_eq!(select_operands(&[Lit(1), Select]), None, "too few operands");
    }

    #[test]
    fn sets_read_names_in_any_order_once_each() {
        let set =
            crate::SetSyntax { open: "m(", separator: ",", close: ")", names: &[(0, "S1"), (1, "S10"), (3, "D")] };
        for (text, want) in [
            ("m()", Some((0, 3))),
            ("m( )", Some((0, 4))),
            ("m(S1)", Some((1, 5))),
            ("m(S10,S1)", Some((3, 9))),
            ("m(D, S1) x", Some((9, 8))),
            ("m(S1,S1)", None),
            ("m(S1,)", None),
            ("m(,S1)", None),
            ("m(S1 D)", None),
            ("m(S2)", None),
            ("m(S1", None),
            ("n(S1)", None),
        ] {
            assert_eq!(super::read_set(&set, text), want, "{text}");
        }
    }

    #[test]
    fn a_name_ends_template_text_as_a_whole_word() {
        for (lit, name) in [("v", "v"), ("[ttmp", "ttmp"), (", v", "v"), ("[v_", "v_")] {
            assert!(super::ends_with_name(lit, name), "{lit} {name}");
        }
        for (lit, name) in [("sv", "v"), ("v1", "v"), ("v_", "v"), ("ttmp[", "ttmp"), ("", "v")] {
            assert!(!super::ends_with_name(lit, name), "{lit} {name}");
        }
    }

    #[test]
    fn low_ranges_take_the_least_significant_pieces() {
        let r = |lo, width| crate::Range { lo, width };
        // One piece: its low half.
        assert_eq!(low_ranges(&[r(32, 32)], 16), vec![r(32, 16)]);
        // Two pieces, most significant first: all of the low one, part of the high.
        assert_eq!(low_ranges(&[r(20, 8), r(0, 4)], 6), vec![r(20, 2), r(0, 4)]);
        assert_eq!(low_ranges(&[r(20, 8), r(0, 4)], 4), vec![r(0, 4)]);
    }

    #[test]
    fn deposit_scatters() {
        assert_eq!(deposit(0b11, 0b1010), 0b1010);
        assert_eq!(deposit(0b01, 0b1010), 0b0010);
        assert_eq!(deposit(0b10, (1 << 100) | 1), 1 << 100);
    }

    #[test]
    fn integers() {
        const OCTAL: Radixes = Radixes { hex: true, octal: true, binary: false };
        assert_eq!(scan_int("48.x", false, false, Radixes::PLAIN), Some((48, 2)));
        assert_eq!(scan_int("-4)", true, false, Radixes::PLAIN), Some((-4, 2)));
        assert_eq!(scan_int("-4", false, false, Radixes::PLAIN), None);
        assert_eq!(scan_int("0x1f,", false, false, Radixes::PLAIN), Some((31, 4)));
        assert_eq!(scan_int("ff", false, true, Radixes::PLAIN), Some((255, 2)));
        assert_eq!(scan_int("0xg", false, false, Radixes::PLAIN), Some((0, 1)));
        // Octal where the target reads it so.
        assert_eq!(scan_int("010,", false, false, OCTAL), Some((8, 3)));
        assert_eq!(scan_int("010,", false, false, Radixes::PLAIN), Some((10, 3)));
        assert_eq!(scan_int("-017", true, false, OCTAL), Some((-15, 4)));
        assert_eq!(scan_int("0,", false, false, OCTAL), Some((0, 1)));
        assert_eq!(scan_int("09", false, false, OCTAL), None, "9 is no octal digit");
        assert_eq!(scan_int("0x1f", false, false, OCTAL), Some((31, 4)));
        // Binary where the target reads it so; a glued number reads neither.
        let llvm = Radixes { hex: true, octal: true, binary: true };
        assert_eq!(scan_int("0b101,", false, false, llvm), Some((5, 5)));
        assert_eq!(scan_int("-0B1", true, false, llvm), Some((-1, 4)));
        assert_eq!(scan_int("0b101", false, false, OCTAL), Some((0, 1)));
        assert_eq!(scan_int("0b2", false, false, llvm), Some((0, 1)));
        assert_eq!(scan_int("0b11", false, true, llvm), Some((0xb11, 4)), "bare hex digits");
        assert_eq!(scan_int("0x1f", false, false, Radixes::DECIMAL), Some((0, 1)), "glued: decimal digits alone");
    }

    #[test]
    fn floats() {
        assert_eq!(scan_float("0.625000)", 16), Some((0x3900, 8)));
        assert_eq!(scan_float("-1.456763)", 32), Some((0xbfba7736, 9)));
        assert_eq!(scan_float("0x3c00", 16), Some((0x3c00, 6)));
        assert_eq!(scan_float("1e10", 16), None);
        assert_eq!(scan_float("x", 32), None);
    }
}
