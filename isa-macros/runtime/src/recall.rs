//! Reading a line by what the lines read before it taught.
//!
//! [`crate::canonical`] reads a line by walking its templates as data: each
//! operand tries its group's forms, each form's template is walked in turn,
//! and what the conditions of each say is bound as it goes. Yet an
//! operand's text is a function of its group, its own bits and the
//! parameters its field passes in, and code names the same few hundred
//! registers and constants over and over. So an [`crate::Assembler`]
//! remembers, for each operand it read that way in a line it kept, the
//! text and what reading it bound: the operand's bits, and the bits of the
//! instruction it passes as parameters (GCN's `-|v1|` binds the negate and
//! absolute-value bits). A later line of an instruction is then read along
//! the printer's resolved pieces of its template ([`crate::print_plan`]):
//! text compared as it is, a scalar field read in the one way the printer
//! writes it, an operand looked up by its text. In a context too wide to
//! remember every text (a literal, a 16-bit offset), a text not met before
//! is read by its shape, when one was met: its number put where the
//! number of an earlier text of that shape went ([`crate::shape`]). Any
//! other operand text not met before, and a field the pieces leave to the
//! tables (one computed from others), is read the long way on its own
//! text, and a line kept teaches what its operands were read as, and the
//! shapes of their texts. Where a field's text could end in several places
//! (one followed by a field whose text may be empty or start with a space:
//! `ds_write_b32 v1, v2 offset:16`), each is tried, shortest first. The
//! bits are a guess like any other, kept only when the assembler confirms
//! it; a line this way does not read is walked whole as before.
//!
//! Confirming prints the guess back and compares it with the line, unless
//! the line is proven to print as it reads ([`Recall::proven`]). A reading
//! learned from a line printed back is proven when the printer printed
//! that very text for that field and the text is a function of what the
//! reading fixes: the operand's whole word, and every parameter the
//! printer's text for that word reads (its own memory's key) either a
//! constant of the context, bound by the text, or a value kept to check in
//! each later line (a register count computed from another field). A line
//! read by such readings alone, whose scalar fields and columns are
//! written as the printer writes them, prints as it reads whenever its
//! bits print by the case it was read as: the assembler then checks the
//! bits (they decode as read, break no rule, set no ignored bit) without
//! printing them, which is most of the cost of a line read this way.
//!
//! Why a remembered reading may be reused: it is what the long way bound
//! for that text in that group under the same constant parameters, and
//! whatever it binds is confirmed (decoded, checked, printed back to the
//! line), as every guess is. What a line read this way names is what the
//! remembered readings and the scalar fields bound, so a variable length
//! is still judged by bits the text named.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::bits::{Bits, bind, extract, insert, mask_of, width_of};
use crate::canonical::{Memory, Read, values};
use crate::eval::{Env, Given};
use crate::lessons::{Contexts, EVERY, Lessons, Log, Outbox};
use crate::memo::MAX_PARAMS;
use crate::print_plan::{Arg, PrintPlans, Then, bits_value};
use crate::shape::{Shape, Shaped, shape_of, shaped_from};
use crate::short_text::{ShortText, TextHasher, begins};
use crate::tables::{Expr, Isa, Range, Ty};

/// Most operand texts remembered in all (at some hundred bytes each, a few
/// MiB). What is remembered is kept; past this, texts are read the long
/// way, so memory stays bounded whatever the input (the GCN bench-peer
/// stream, 900,972 lines of every encoding, teaches some 20,000).
const CAPACITY: usize = 1 << 15;

/// Most bits of word and parameters an operand context may read for all
/// its texts to be remembered; a wider one (a DS offset, whose 65,536
/// texts a stream rarely repeats) keeps [`WIDE_CAPACITY`] of them, the
/// first met, so that it cannot crowd out the registers of the others.
const NARROW_BITS: u32 = 12;
const WIDE_CAPACITY: usize = 256;

/// What a parameter computed from several fields counts for in a
/// context's width: its values are none of the word's bits, yet each gives
/// the word's values texts of their own (GCN's image data, whose register
/// count follows the mask: `v5`, `v[5:6]`, ... `v[5:9]`), so a context of
/// an 8-bit register word and such a count has some 256 times five texts.
/// Counted as no bits, it kept room for 256 of them, and nine image lines
/// in ten read their data the long way, one text at a time.
const COMPUTED_PARAM_BITS: u32 = 3;

/// Widest parameter a remembered reading binds: a literal's 32 bits are
/// read the long way (a value rarely repeats, and remembering each would
/// fill the table with texts seen once).
const MAX_PARAM_BITS: u32 = 16;

/// What an [`crate::Assembler`] has learned (see the module documentation).
pub(crate) struct Recall<'a> {
    gen_: u32,
    syntax: u16,
    plans: PrintPlans,
    /// By case (see [`Recall::slot`]): the case's pieces as this module
    /// reads them, once resolved. One table, not one per leaf: a line's
    /// plan is then one load away from its leaf and case, not two.
    quick: Vec<Option<Plan>>,
    /// By leaf, the slot of its first case in `quick`.
    first_case: Box<[u32]>,
    /// The operand contexts met, each the index of its texts (keys from
    /// the spec, hashed the quick way); the pool's, when it shares.
    contexts: Contexts,
    /// The pool it shares what it learns with (see [`crate::lessons`]).
    shared: Option<&'a Lessons<'a>>,
    /// What it learned and has not given to the pool yet.
    outbox: Outbox,
    /// What it takes from the pool, while it takes it.
    news: Log,
    /// By context, the readings remembered, by text.
    texts: Vec<Texts>,
    /// By context, how many it may remember.
    capacity: Vec<usize>,
    /// By context, whether it may hold more texts than it remembers (a
    /// wide word or a wide parameter): those are read by their shapes too
    /// (see [`crate::shape`]).
    shaped: Vec<bool>,
    /// The shapes learned, by context and shape.
    shapes: Shapes,
    /// Readings remembered in all.
    entries: usize,
    /// What the line being read teaches once it is kept: operands read
    /// the long way (see [`Pending`]).
    pending: Vec<Pending>,
    /// The shapes it teaches, by context.
    shaping: Vec<(u32, Shape, Shaped)>,
    /// Operands read by their shapes in the line read last, and in the
    /// lines kept.
    by_shape: (u32, u64),
    /// The case [`Recall::read`] read last.
    last: (u16, u16),
    /// By context, its group and the parameters the same for every text
    /// of it (bit `k`: parameter `k` is a constant of the context).
    fixed: Vec<(u16, u8)>,
    /// The printer's mnemonic column (see [`Line::column`]).
    column: usize,
    /// Whether the line read last prints back as it reads, proven piece
    /// by piece (see [`Recall::proven`]).
    proven: bool,
    /// A scalar's text as the printer writes it (see [`Line::scalar`]).
    scratch: String,
    /// See [`Line::used`].
    used: Vec<(u16, Learned)>,
}

/// An operand the line being read read the long way: its context, where
/// its text starts and ends in the line, its reading, and the index of its
/// part in the case's.
type Pending = (u32, u32, u32, Learned, u16);

/// A line the printer printed back as it reads, to prove the readings it
/// teaches by (see [`Recall::commit`]): its bits, and the printer.
pub(crate) struct Proof<'a> {
    pub bits: Bits,
    pub printer: &'a mut dyn Prover,
}

/// What [`Recall::commit`] asks the printer of a line it printed back.
pub(crate) trait Prover {
    /// Appends to `out`, which holds the line up to the case's piece `k`,
    /// what the printer prints for that piece when it is an operand and
    /// the line prints by the case it was read as; false otherwise.
    fn operand_piece(&mut self, k: usize, out: &mut String) -> bool;

    /// The parameters the printer's text of an operand of group `g` whose
    /// word is `word` may read, when that text is a function of the word
    /// and those alone (see `crate::memo::Memo::reads`); else `None`.
    fn reads(&mut self, g: u16, word: Bits) -> Option<u8>;
}

/// The readings remembered in one operand context, by text.
type Texts = HashMap<Text, Learned, BuildHasherDefault<TextHasher>>;

/// The shapes learned, by context and shape.
type Shapes = HashMap<(u32, Shape), Shaped, BuildHasherDefault<TextHasher>>;

/// Most shapes remembered in all: a context has a few (`0x#`, `-0x#`,
/// ` offset:#`), a target a few hundred contexts.
const SHAPES: usize = 4096;

/// An operand text as a key of [`Texts`], held in the table's own slot
/// (see [`crate::short_text`]). Texts are a few bytes (`v17`, `s[4:5]`,
/// `-|v1|`, `offset:4095`); a longer one than [`Text::MAX`] is not
/// remembered (its line is read the long way).
pub(crate) type Text = ShortText;

/// A case as this module reads it: its parts, and the bits it has before
/// any text is read (its identifying bits and what its conditions say of
/// one value alone, the same for every line; `None` inside while not
/// worked out, `None` when they conflict).
struct Plan {
    parts: Box<[Part]>,
    start: Option<Option<Read>>,
    /// Lines read by it, and of those kept: a case this way rarely gives
    /// the answer for is left to the long way (see [`Recall::read`]).
    tried: u32,
    kept: u32,
}

/// Lines a case is read by before its share of lines kept is judged, and
/// the least share (in 1/8) for it to go on being read this way. Reading a
/// line along pieces that do not fit it costs tries at several places,
/// then the long way anyway: on ir3 and AGX, where a line's first word
/// fits several cases more often, trying every case this way first made
/// assembling slower.
const JUDGED_AFTER: u32 = 16;
const LEAST_KEPT_EIGHTHS: u32 = 6;

/// Text, then what follows it.
struct Part {
    text: Lit,
    then: Next,
}

/// A part's literal text, held in the part when short (most are: `, `, a
/// mnemonic): the first part of a line's plan is its instruction's name,
/// and reading it from the spec's strings was a second place to load for
/// every line, one the lines of other opcodes had pushed out of the cache.
enum Lit {
    Short { len: u8, bytes: [u8; Lit::SHORT] },
    Long(&'static [u8]),
}

impl Lit {
    const SHORT: usize = 22;

    fn new(text: &'static [u8]) -> Lit {
        let mut bytes = [0; Lit::SHORT];
        match bytes.get_mut(..text.len()) {
            Some(b) => {
                b.copy_from_slice(text);
                Lit::Short { len: text.len() as u8, bytes }
            }
            None => Lit::Long(text),
        }
    }

    #[inline]
    fn as_bytes(&self) -> &[u8] {
        match self {
            Lit::Short { len, bytes } => &bytes[..*len as usize],
            Lit::Long(text) => text,
        }
    }
}

enum Next {
    Nothing,
    /// One space or more (the printer's column).
    Column,
    /// A scalar field in bits of the word.
    Scalar {
        ranges: &'static [Range],
        signed: bool,
        ty: Ty,
        width: u32,
    },
    Operand(Operand),
    /// A field the same for every instruction of the case, and its text.
    Text(Box<[u8]>),
    /// A scalar field whose type is an enum: its names, longest first
    /// (those of one length in the enum's order), each with what reading
    /// it binds, worked out once. The reading takes the first that begins
    /// the text, as [`values`] reads the most text first, without walking
    /// the enum's names where the spec keeps them (a load for each) or
    /// formatting the value read to see that the printer writes that name.
    Enum {
        /// The field's bits in the instruction.
        mask: Bits,
        names: Box<[Name]>,
    },
    /// Any other field (computed from others, or a float the instruction
    /// formats by its own bits), read the long way.
    Field {
        field: u16,
        until: Until,
    },
}

/// An enum's name as [`Next::Enum`] reads it.
struct Name {
    text: Lit,
    /// The field's bits it places (`None`: the value does not fit the
    /// field, and a line naming it is left to the long way).
    placed: Option<Bits>,
    /// Whether the printer writes this name for the value read back from
    /// those bits (not an alias it reads but never writes).
    printed: bool,
}

/// An operand field of the instruction: where its word is, which texts
/// it looks up, where its text ends, and what it passes (out of line).
struct Operand {
    field: u16,
    ranges: &'static [Range],
    texts: u32,
    until: Until,
    /// Whether the printer's word for the operand is its field's bits
    /// (the group is as wide as the field, at most 64 bits).
    exact: bool,
    /// The parameters of `passed.params` read as signed fields (bit `k`:
    /// parameter `k`).
    signed: u8,
    /// Where its parameters come from: kept apart, as a line reads them
    /// only for a text that binds a parameter, and held here they made a
    /// [`Part`] 256 bytes, a plan some thousand, and the plans of a stream
    /// of every opcode several times the core's second-level cache.
    passed: Box<Passed>,
}

/// Where each parameter an operand passes comes from.
struct Passed {
    /// Where each parameter passed from a bit field of the instruction
    /// sits (`None`: a constant, computed, or not passed).
    params: [Option<&'static [Range]>; MAX_PARAMS],
    /// The parameters computed from the instruction's fields: what a
    /// proven reading's checks evaluate, with those of `params` read as
    /// signed (see [`param_value`]).
    exprs: [Option<Expr>; MAX_PARAMS],
}

/// How a field's text ends.
#[derive(Clone, Copy)]
enum Until {
    /// Where the text that follows it starts (at the first place the
    /// reading holds). Never empty.
    Text(&'static [u8]),
    /// At a space, a comma or the end of the line (a column, or a field
    /// whose text may be empty or start with a separator, follows).
    Word,
    /// At the end of the line.
    End,
}

impl Until {
    /// The lengths `rest` may give the field's text, shortest first.
    fn ends(self, rest: &[u8]) -> Ends<'_> {
        Ends { until: self, rest, n: 0 }
    }
}

/// The iterator of [`Until::ends`]: a scan for the following text's first
/// byte (or a separator), then a comparison, rather than a comparison at
/// every place.
struct Ends<'a> {
    until: Until,
    rest: &'a [u8],
    n: usize,
}

impl Iterator for Ends<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let rest = self.rest;
        while self.n <= rest.len() {
            let n = self.n;
            self.n += 1;
            let found = match self.until {
                Until::End => {
                    self.n = rest.len() + 1;
                    return Some(rest.len());
                }
                Until::Text(t) => match rest[n..].iter().position(|&b| b == t[0]) {
                    Some(k) => {
                        self.n = n + k + 1;
                        let at = &rest[n + k..];
                        // Its first byte matched; most such texts are a
                        // separator of two bytes (`, `), compared here
                        // rather than by a library call.
                        let whole = match t {
                            [_] => true,
                            [_, b] => at.get(1) == Some(b),
                            _ => begins(at, t),
                        };
                        whole.then_some(n + k)
                    }
                    None => {
                        self.n = rest.len() + 1;
                        None
                    }
                },
                Until::Word => match rest[n..].iter().position(|&b| b == b' ' || b == b',') {
                    Some(k) => {
                        self.n = n + k + 1;
                        Some(n + k)
                    }
                    None => {
                        self.n = rest.len() + 1;
                        Some(rest.len())
                    }
                },
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// What an operand's text depends on besides its own bits: its group, and
/// each parameter its field passes: a constant (`Some`), or (`None`) read
/// from a bit field of the instruction of the width given, or computed
/// from several (width 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Context {
    group: u16,
    params: [(Option<i64>, u8); MAX_PARAMS],
    /// The parameters read as signed fields (bit `k`: parameter `k`): a
    /// text bound a parameter's bits, and the printer reads its value.
    signed: u8,
}

/// What reading an operand's text bound: its word's bits (`bound` of
/// them, the rest zero), and the parameters bound through bit fields of the
/// instruction (bit `k` of `named`: parameter `k`, to `values[k]`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Learned {
    word: u64,
    bound: u64,
    named: u8,
    values: [u16; MAX_PARAMS],
    /// Whether the printer prints this text for every line this reading
    /// binds (see [`Recall::commit`]).
    proven: bool,
    /// Whether the reading binds every bit of the operand's word, which is
    /// its field's bits ([`Operand::exact`]). A proven reading that does
    /// not (a register pair's low bit, which its text does not name) is
    /// proven for a word whose other bits are zero, as where it was
    /// learned, and checks that in each line.
    whole: bool,
    /// For a proven reading, the parameters the printer's text reads that
    /// are neither constants of the context nor bound by the text (bit
    /// `k`: parameter `k`, whose value the printer read was `values[k]`):
    /// a line read by it is proven only when they have those values.
    checks: u8,
}

impl<'a> Recall<'a> {
    pub fn new(isa: &Isa, gen_: u32, syntax: u16) -> Recall<'a> {
        Recall {
            gen_,
            syntax,
            plans: PrintPlans::new(isa),
            quick: Vec::new(),
            first_case: isa
                .leaves
                .iter()
                .scan(0u32, |at, l| {
                    let first = *at;
                    *at += l.cases.len() as u32;
                    Some(first)
                })
                .collect(),
            contexts: Contexts::default(),
            shared: None,
            outbox: Outbox::default(),
            news: Log::default(),
            texts: Vec::new(),
            capacity: Vec::new(),
            shaped: Vec::new(),
            shapes: HashMap::default(),
            entries: 0,
            pending: Vec::new(),
            shaping: Vec::new(),
            by_shape: (0, 0),
            last: (0, 0),
            fixed: Vec::new(),
            // The assembler's printer pads as its syntax does by default.
            column: isa.column(crate::PrintOpts { syntax, pad: None }),
            proven: false,
            scratch: String::new(),
            used: Vec::new(),
        }
    }

    /// Reads `text` as case `case` of `leaf` along the case's printing
    /// pieces, each operand by its remembered text or, for one not met
    /// before, the long way on its text alone: `None` when the text does
    /// not follow the pieces.
    pub fn read(&mut self, isa: &Isa, (leaf, case): (u16, u16), text: &[u8], memory: &mut Memory) -> Option<Read> {
        self.proven = false;
        self.pending.clear();
        self.shaping.clear();
        memory.forget_after(0);
        // Resolved already, for all but a case's first line: one look, not
        // a call.
        let slot = self.slot(leaf, case);
        if !self.quick.get(slot).is_some_and(Option::is_some) {
            self.prepare(isa, leaf, case);
        }
        let how = (self.gen_, self.syntax);
        let Some(plan) = &mut self.quick[slot] else { return None };
        if plan.tried >= JUDGED_AFTER && plan.kept * 8 < plan.tried * LEAST_KEPT_EIGHTHS {
            return None;
        }
        plan.tried = plan.tried.saturating_add(1);
        self.last = (leaf, case);
        let read = (*plan.start.get_or_insert_with(|| crate::canonical::implied(isa, how, (leaf, case), memory)))?;
        let parts = &plan.parts;
        let mut line = Line {
            isa,
            how,
            leaf_case: (leaf, case),
            text,
            texts: &self.texts,
            shaped: &self.shaped,
            shapes: &self.shapes,
            memory,
            pending: &mut self.pending,
            shaping: &mut self.shaping,
            by_shape: 0,
            long: false,
            unproven: false,
            column: self.column,
            scratch: &mut self.scratch,
            used: &mut self.used,
            budget: BUDGET,
        };
        line.used.clear();
        let found = line.parts(parts, 0, 0, read);
        self.by_shape.0 = line.by_shape;
        self.proven = found.is_some_and(|r| {
            !line.long
                && !line.unproven
                && line.by_shape == 0
                && line.used.iter().all(|&(k, l)| match &parts[k as usize].then {
                    Next::Operand(op) => checked(isa, how.0, (leaf, case), op, &l, r.bits),
                    _ => false,
                })
        });
        // A line whose text left the pieces before any field was read the
        // long way cost little to try (a GCN atomic without `glc`, tried
        // first as the case with it): only lines that cost are judged.
        if found.is_none()
            && !line.long
            && line.budget > 0
            && let Some(plan) = &mut self.quick[slot]
        {
            plan.tried -= 1;
        }
        found
    }

    /// How many operands of the lines kept were read by their shapes.
    pub fn shaped(&self) -> u64 {
        self.by_shape.1
    }

    /// Whether the line [`Recall::read`] read last prints back as it was
    /// read when its bits print by the case it was read as: each of its
    /// operands was read by a proven text (see [`Recall::commit`]) whose
    /// checks hold, each scalar field's text is what the printer writes
    /// for the value read, each column what the printer pads, each
    /// constant field's text what the printer writes for it; none was read
    /// the long way or by its shape. The assembler need not print it back.
    pub fn proven(&self) -> bool {
        self.proven
    }

    /// Remembers what the line [`Recall::read`] read last taught, now that
    /// the assembler kept it; `proof` as [`Recall::commit`] takes it.
    pub fn keep(&mut self, isa: &Isa, text: &[u8], proof: Option<Proof<'_>>) {
        let (leaf, case) = self.last;
        let slot = self.slot(leaf, case);
        if let Some(Some(plan)) = self.quick.get_mut(slot) {
            plan.kept = plan.kept.saturating_add(1);
        }
        self.by_shape.1 += self.by_shape.0 as u64;
        self.commit(isa, (leaf, case), text, proof);
        self.kept(isa);
    }

    /// Shares what it learns with the assemblers of `pool` from now on: it
    /// numbers contexts as the pool does, so it must not have met any yet.
    pub fn share(&mut self, pool: &'a Lessons<'a>) {
        debug_assert!(self.texts.is_empty(), "a recall shares from its start");
        self.shared = Some(pool);
    }

    /// Counts a line kept, and looks at the pool every [`EVERY`] of them.
    fn kept(&mut self, isa: &Isa) {
        if self.shared.is_some() {
            self.outbox.since += 1;
            if self.outbox.since >= EVERY {
                self.exchange(isa);
            }
        }
    }

    /// Gives the pool what it learned and takes what the others gave (see
    /// [`crate::lessons`]), under the same bounds as what it learns itself.
    pub fn exchange(&mut self, isa: &Isa) {
        let Some(pool) = self.shared else { return };
        self.outbox.since = 0;
        if !pool.exchange(&mut self.outbox, &mut self.news) {
            return;
        }
        let texts = self.news.texts.iter().map(|l| l.0);
        let need = texts.chain(self.news.shapes.iter().map(|l| l.0)).max().map_or(0, |at| at as usize + 1);
        if need > self.texts.len() {
            let contexts = pool.contexts();
            let new = contexts.from(self.texts.len());
            cover(isa, new, (&mut self.texts, &mut self.capacity, &mut self.shaped, &mut self.fixed));
        }
        for (at, key, l) in self.news.texts.drain(..) {
            let Some(texts) = self.texts.get_mut(at as usize) else { continue };
            if room(texts, self.capacity[at as usize], self.entries, &key) {
                texts.insert(key, l);
                self.entries += 1;
            }
        }
        for (at, shape, s) in self.news.shapes.drain(..) {
            new_shape(&mut self.shapes, (at, shape), s);
        }
    }

    /// Remembers the pending readings of `text`. With `proof` (the line,
    /// printed back as it reads, and its printer), a reading is proven
    /// when the printer prints its very text for its piece, the reading
    /// binds the operand's whole word (or leaves bits that are zero, to be
    /// checked zero again), and every parameter the printer's text for
    /// that word may read is a constant of the context, bound by the text,
    /// or a field of the instruction (or a value computed from fields)
    /// whose value the reading keeps to check: the printer's text for the
    /// operand is a function of the word and those values alone (what its
    /// own memory stands on), so it prints this text wherever this reading
    /// is applied and the checks hold.
    fn commit(&mut self, isa: &Isa, (leaf, case): (u16, u16), text: &[u8], mut proof: Option<Proof<'_>>) {
        // Most lines kept were read by remembered texts alone.
        if self.pending.is_empty() && self.shaping.is_empty() {
            return;
        }
        let parts = self.quick.get(self.slot(leaf, case)).and_then(|p| Some(&p.as_ref()?.parts));
        for &(at, start, end, mut l, part) in &self.pending {
            let texts = &mut self.texts[at as usize];
            let Some(key) = text.get(start as usize..end as usize).and_then(Text::new) else { continue };
            // Only a reading remembered is worth proving.
            if !room(texts, self.capacity[at as usize], self.entries, &key) {
                continue;
            }
            if let Some(proof) = proof.as_mut()
                && let Some(Next::Operand(op)) = parts.and_then(|p| Some(&p.get(part as usize)?.then))
            {
                let (start, end) = (start as usize, end as usize);
                let (group, fixed) = self.fixed[at as usize];
                let scratch = &mut self.scratch;
                if op.exact
                    && (l.whole || extract(proof.bits, 0, op.ranges) as u64 == l.word)
                    && let Some(before) = text.get(..start).and_then(|t| std::str::from_utf8(t).ok())
                    && {
                        // The piece printed after the line before it (the
                        // same as printed): a column inside counts from
                        // the line's start.
                        scratch.clear();
                        scratch.push_str(before);
                        proof.printer.operand_piece(part as usize, scratch)
                    }
                    && scratch.as_bytes().get(start..) == text.get(start..end)
                    && let Some(reads) = proof.printer.reads(group, l.word as Bits)
                {
                    l.checks = reads & !(fixed | l.named);
                    l.proven = (0..MAX_PARAMS).filter(|&i| l.checks >> i & 1 == 1).all(|i| {
                        let v = param_value(isa, self.gen_, (leaf, case), op, i, proof.bits);
                        let kept = v.and_then(|v| u16::try_from(v).ok());
                        l.values[i] = kept.unwrap_or(0);
                        kept.is_some()
                    });
                }
            }
            texts.insert(key, l);
            self.entries += 1;
            if self.shared.is_some() {
                self.outbox.log.texts.push((at, key, l));
            }
        }
        self.pending.clear();
        for (at, shape, s) in self.shaping.drain(..) {
            if new_shape(&mut self.shapes, (at, shape), s) && self.shared.is_some() {
                self.outbox.log.shapes.push((at, shape, s));
            }
        }
    }

    /// Remembers the operand texts of `text`, which the long way read as
    /// case `case` of `leaf` (`read`, with the operands' places in
    /// `memory`) and the assembler kept.
    pub fn learn(
        &mut self,
        isa: &Isa,
        (leaf, case): (u16, u16),
        text: &[u8],
        (read, memory): (Read, &Memory),
        proof: Option<Proof<'_>>,
    ) {
        self.prepare(isa, leaf, case);
        let Some(plan) = &self.quick[self.slot(leaf, case)] else { return };
        let spans = memory.spans();
        self.pending.clear();
        self.shaping.clear();
        for (k, part) in plan.parts.iter().enumerate() {
            let Next::Operand(op) = &part.then else { continue };
            let Some(span) = spans.get(op.field as usize) else { continue };
            let Some(t) = text.get(span.start as usize..span.end as usize) else { continue };
            if let Some(l) = learned_from(op, read.bits, span.named) {
                self.pending.push((op.texts, span.start, span.end, l, k as u16));
            }
            if self.shaped[op.texts as usize]
                && let Some(s) = shaping(op, t, read.bits, span.named)
            {
                self.shaping.push(s);
            }
        }
        self.commit(isa, (leaf, case), text, proof);
        self.kept(isa);
    }

    /// Resolves case `case` of `leaf` into [`Part`]s, once.
    fn prepare(&mut self, isa: &Isa, leaf: u16, case: u16) {
        let slot = self.slot(leaf, case);
        if self.quick.len() <= slot {
            let cases = isa.leaves.iter().map(|l| l.cases.len()).sum::<usize>();
            self.quick.resize_with(cases, || None);
        }
        if self.quick[slot].is_some() {
            return;
        }
        let (shared, own) = (self.shared, &mut self.contexts);
        let local = (&mut self.texts, &mut self.capacity, &mut self.shaped, &mut self.fixed);
        let pieces = self.plans.get(isa, leaf, case, self.syntax);
        let parts = resolve(isa, self.gen_, (leaf, case), pieces, &mut |c| {
            let mut pooled;
            let contexts = match shared {
                Some(pool) => {
                    pooled = pool.contexts();
                    &mut *pooled
                }
                None => &mut *own,
            };
            let at = contexts.number(c);
            cover(isa, contexts.from(local.0.len()), (&mut *local.0, &mut *local.1, &mut *local.2, &mut *local.3));
            at
        });
        self.quick[slot] = Some(Plan { parts, start: None, tried: 0, kept: 0 });
    }

    /// Where case `case` of `leaf` is in [`Recall::quick`]; past its end
    /// for a leaf the target does not have.
    fn slot(&self, leaf: u16, case: u16) -> usize {
        self.first_case.get(leaf as usize).map_or(usize::MAX, |&f| f as usize + case as usize)
    }

    /// How many operand texts are remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.texts.iter().map(HashMap::len).sum()
    }
}

/// Whether a reading of `key` is to be remembered in a context holding
/// `texts` of at most `capacity`, `entries` remembered in all: it is new,
/// and both bounds leave room.
fn room(texts: &Texts, capacity: usize, entries: usize, key: &Text) -> bool {
    entries < CAPACITY && texts.len() < capacity && !texts.contains_key(key)
}

/// Remembers shape `key` as `s` when it is new and the bound leaves room:
/// whether it did.
fn new_shape(shapes: &mut Shapes, key: (u32, Shape), s: Shaped) -> bool {
    if shapes.len() >= SHAPES {
        return false;
    }
    match shapes.entry(key) {
        std::collections::hash_map::Entry::Vacant(v) => {
            v.insert(s);
            true
        }
        std::collections::hash_map::Entry::Occupied(_) => false,
    }
}

/// A recall's tables by context: its texts, capacities, whether shaped,
/// and group and constants.
type ByContext<'r> = (&'r mut Vec<Texts>, &'r mut Vec<usize>, &'r mut Vec<bool>, &'r mut Vec<(u16, u8)>);

/// Adds to a recall's tables by context the contexts `new`, numbered from
/// their length on.
fn cover(isa: &Isa, new: &[Context], (texts, capacity, shaped, fixed): ByContext<'_>) {
    for c in new {
        texts.push(HashMap::default());
        // Parameters too wide to remember take no part.
        let params = c.params.iter().map(|p| p.1 as u32).filter(|&w| w <= MAX_PARAM_BITS);
        let bits = isa.groups[c.group as usize].bits + params.sum::<u32>();
        // One computed from several fields gives each word some texts (see
        // `COMPUTED_PARAM_BITS`), within a narrow context's room.
        let computed = c.params.iter().filter(|p| matches!(p, (None, 0))).count() as u32;
        let room = (bits + computed * COMPUTED_PARAM_BITS).min(NARROW_BITS);
        capacity.push(if bits <= NARROW_BITS { 1 << room } else { WIDE_CAPACITY });
        shaped.push(bits > NARROW_BITS || c.params.iter().any(|p| p.1 as u32 > MAX_PARAM_BITS));
        let constants = c.params.iter().enumerate().filter(|(_, p)| p.0.is_some());
        fixed.push((c.group, constants.fold(0, |m, (k, _)| m | 1 << k)));
    }
}

/// A line being read by [`Recall::read`].
struct Line<'a> {
    isa: &'a Isa,
    how: (u32, u16),
    leaf_case: (u16, u16),
    text: &'a [u8],
    texts: &'a [Texts],
    shaped: &'a [bool],
    shapes: &'a Shapes,
    memory: &'a mut Memory,
    pending: &'a mut Vec<Pending>,
    shaping: &'a mut Vec<(u32, Shape, Shaped)>,
    /// Operands read by their shapes on the way that reads the line.
    by_shape: u32,
    /// Whether a field was read the long way.
    long: bool,
    /// Whether a piece was read in a way that does not prove the printer
    /// writes it as it reads (see [`Recall::proven`]); set on every way
    /// tried, so a line read on another way is only proven less often.
    unproven: bool,
    /// The column the printer pads the mnemonic to (0: one space).
    column: usize,
    /// Where a scalar's text is written as the printer writes it.
    scratch: &'a mut String,
    /// The readings with checks applied on the way being read (see
    /// [`checked`]), and the index of their parts.
    used: &'a mut Vec<(u16, Learned)>,
    /// Places left to try a field's text at (see [`BUDGET`]).
    budget: u32,
}

/// Places a line may try fields' texts at before this module gives it up
/// to the long way: each field that may end in several places multiplies
/// the tries of those after it, and a line of a few dozen tokens takes a
/// few dozen.
const BUDGET: u32 = 256;

impl Line<'_> {
    /// Takes one try from the budget; false when none is left.
    fn spend(&mut self) -> bool {
        self.budget = self.budget.saturating_sub(1);
        self.budget > 0
    }

    /// Reads `parts` from `pos` on `read`. Where a field's text could end
    /// in several places (a field whose text may be empty or start with a
    /// space: `ds_write_b32 v1, v2 offset:16`), each is tried, shortest
    /// first, until the rest of the line reads.
    fn parts(&mut self, parts: &[Part], first: usize, mut pos: usize, mut read: Read) -> Option<Read> {
        let text = self.text;
        for (k, part) in parts.iter().enumerate() {
            pos = after(text, pos, part.text.as_bytes())?;
            let rest = &text[pos..];
            match part.then {
                Next::Nothing => {}
                // What the printer prints for the field (see `resolve`).
                Next::Text(ref t) => pos = after(text, pos, t)?,
                Next::Column => {
                    let n = rest.iter().take_while(|&&b| b == b' ').count();
                    if n == 0 {
                        return None;
                    }
                    // The printer pads to the column (counted in
                    // characters), one space at least.
                    let want = match self.column {
                        0 => 1,
                        c => c.saturating_sub(text[..pos].iter().filter(|&&b| (b as i8) >= -0x40).count()) + 1,
                    };
                    self.unproven |= n != want;
                    pos += n;
                }
                Next::Scalar { ranges, signed, ty, width } => {
                    let mut ways = [(0i128, 0usize); 4];
                    // The most text first: a line the first way does not
                    // read is left to the long way.
                    if values(self.isa, text, ty, width, pos, &mut ways) == 0 || !fits(ways[0].0, width) {
                        return None;
                    }
                    let (v, end) = ways[0];
                    let (placed, m) = insert(0, 0, ranges, v as u128 & mask_of(0, width));
                    if !bind(&mut read.bits, &mut read.bound, m, placed) {
                        return None;
                    }
                    self.scalar(bits_value(placed, ranges, signed), ty, width, &text[pos..end]);
                    pos = end;
                }
                Next::Enum { mask, ref names } => {
                    let name = names.iter().find(|n| begins(rest, n.text.as_bytes()))?;
                    let placed = name.placed?;
                    if !bind(&mut read.bits, &mut read.bound, mask, placed) {
                        return None;
                    }
                    self.unproven |= !name.printed;
                    pos += name.text.as_bytes().len();
                }
                Next::Operand(ref op) => {
                    let texts = &self.texts[op.texts as usize];
                    let after_it = &parts[k + 1..];
                    // Ends at which a remembered reading applied: the long
                    // way would read the same there (bit `n`, for short ones).
                    let mut tried = 0u64;
                    for n in op.until.ends(rest) {
                        if !self.spend() {
                            return None;
                        }
                        if let Some(l) = Text::new(&rest[..n]).and_then(|t| texts.get(&t))
                            && let Some(r) = apply(op, l, read)
                        {
                            self.unproven |= !l.proven;
                            let used = self.used.len();
                            if l.checks != 0 || !l.whole {
                                self.used.push(((first + k) as u16, *l));
                            }
                            if let Some(done) = self.parts(after_it, first + k + 1, pos + n, r) {
                                return Some(done);
                            }
                            self.used.truncate(used);
                            tried |= 1u64.checked_shl(n as u32).unwrap_or(0);
                        } else if self.shaped[op.texts as usize]
                            && let Some((shape, number)) = shape_of(&rest[..n])
                            && let Some(s) = self.shapes.get(&(op.texts, shape))
                            && let Some(r) = crate::shape::apply((op.ranges, &op.passed.params), s, number, read)
                            && let Some(done) = self.parts(after_it, first + k + 1, pos + n, r)
                        {
                            // Not marked tried: the long way may read the
                            // text otherwise (a number its form refuses).
                            // (A line read so is not proven: `by_shape`.)
                            self.by_shape += 1;
                            return Some(done);
                        }
                    }
                    for n in op.until.ends(rest) {
                        if tried >> n.min(63) & 1 == 1 && n < 64 {
                            continue;
                        }
                        if !self.spend() {
                            return None;
                        }
                        let waiting = self.memory.waiting();
                        let Some(r) = self.long_way(op.field, &rest[..n], read) else { continue };
                        let named = self.memory.spans().get(op.field as usize).map_or(0, |s| s.named);
                        let (pending, shapes) = (self.pending.len(), self.shaping.len());
                        if let Some(l) = learned_from(op, r.bits, named) {
                            let part = (first + k) as u16;
                            self.pending.push((op.texts, pos as u32, (pos + n) as u32, l, part));
                        }
                        if self.shaped[op.texts as usize]
                            && let Some(s) = shaping(op, &rest[..n], r.bits, named)
                        {
                            self.shaping.push(s);
                        }
                        if let Some(done) = self.parts(after_it, first + k + 1, pos + n, r) {
                            return Some(done);
                        }
                        self.pending.truncate(pending);
                        self.shaping.truncate(shapes);
                        self.memory.forget_after(waiting);
                    }
                    return None;
                }
                Next::Field { field, until } => {
                    let after_it = &parts[k + 1..];
                    return until.ends(rest).find_map(|n| {
                        if !self.spend() {
                            return None;
                        }
                        let waiting = self.memory.waiting();
                        let r = self.long_way(field, &rest[..n], read)?;
                        let done = self.parts(after_it, first + k + 1, pos + n, r);
                        if done.is_none() {
                            self.memory.forget_after(waiting);
                        }
                        done
                    });
                }
            }
        }
        if pos != text.len() {
            return None;
        }
        crate::canonical::settle(self.isa, self.how, self.leaf_case, read, self.memory)
    }

    /// Notes whether a scalar field's text `text`, read to `value`, is what
    /// the printer writes for it.
    fn scalar(&mut self, value: i64, ty: Ty, width: u32, text: &[u8]) {
        // Formatting each scalar cost more than the rest of its reading
        // where the answer is known from the text: a flag's text is its
        // word or nothing, as the printer writes it for the value read
        // (GCN's ` glc`); an unsigned number's was read as its decimal
        // digits alone, to a value that fits the field, and the printer
        // writes the same digits but for leading zeros.
        match ty {
            Ty::Bool { .. } => return,
            Ty::Uint | Ty::UintSat => {
                self.unproven |= text.len() > 1 && text[0] == b'0';
                return;
            }
            _ => {}
        }
        self.scratch.clear();
        crate::print::format_value(self.isa, ty, value, width, self.scratch);
        self.unproven |= self.scratch.as_bytes() != text;
    }

    /// Reads all of `text` as field `field` the long way, on `read`.
    fn long_way(&mut self, field: u16, text: &[u8], read: Read) -> Option<Read> {
        self.long = true;
        crate::canonical::read_field(self.isa, text, self.how, self.leaf_case, field, read, self.memory)
    }
}

/// Binds what `l` remembers of operand `op` over `read`: `None` on a
/// conflict with bits bound before.
fn apply(op: &Operand, l: &Learned, read: Read) -> Option<Read> {
    bind_operand((op.ranges, &op.passed.params), (l.word, l.bound), l.named, |k| l.values[k] as u64, read)
}

/// Binds an operand's word at `ranges`, `word` on the bits `bound`, and
/// each parameter `k` at `params[k]` that `named` names to `value(k)`, over
/// `read`: `None` on a conflict with bits bound before.
pub(crate) fn bind_operand(
    (ranges, params): (&[Range], &[Option<&[Range]>; MAX_PARAMS]),
    (word, bound): (u64, u64),
    named: u8,
    value: impl Fn(usize) -> u64,
    mut read: Read,
) -> Option<Read> {
    let (w, _) = insert(0, 0, ranges, word as Bits);
    let (m, _) = insert(0, 0, ranges, bound as Bits);
    if !bind(&mut read.bits, &mut read.bound, m, w) {
        return None;
    }
    // Only the parameters named (most operands, registers, name none).
    let mut left = named;
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        if let Some(Some(r)) = params.get(k) {
            let (v, m) = insert(0, 0, r, value(k) as Bits);
            if !bind(&mut read.bits, &mut read.bound, m, v) {
                return None;
            }
        }
    }
    Some(read)
}

/// Where text `s` ends when `text` holds it at `pos`.
fn after(text: &[u8], pos: usize, s: &[u8]) -> Option<usize> {
    begins(text.get(pos..)?, s).then_some(pos + s.len())
}

/// Whether `v` fits a field `width` bits wide, read as signed or not.
fn fits(v: i128, width: u32) -> bool {
    width >= 127 || (-(1i128 << width)..1i128 << width).contains(&v)
}

/// Resolves the printing pieces of case `case` of `leaf` into [`Part`]s,
/// naming each operand's context through `context`.
fn resolve(
    isa: &Isa,
    gen_: u32,
    (leaf, case): (u16, u16),
    pieces: &[crate::print_plan::Piece],
    context: &mut dyn FnMut(Context) -> u32,
) -> Box<[Part]> {
    let top = [crate::place::Step::top(leaf, case)];
    let mut env = Env { isa, bits: 0, gen_, read: 0, given: Given::NONE };
    // A value computed from constants alone is a constant.
    let mut constant = |what: Result<crate::tables::Expr, u16>| {
        env.read = 0;
        let v = match what {
            Ok(e) => env.eval(&top, e),
            Err(field) => env.field(&top, field),
        };
        (env.read == 0).then_some(v)
    };
    let fields = isa.leaves[leaf as usize].cases[case as usize].fields;
    let mut parts = Vec::with_capacity(pieces.len());
    for (k, piece) in pieces.iter().enumerate() {
        let until = match pieces.get(k + 1) {
            None => Until::End,
            Some(next) if !next.text.is_empty() => Until::Text(next.text.as_bytes()),
            Some(_) => Until::Word,
        };
        let then = match &piece.then {
            Then::Nothing => Next::Nothing,
            Then::Column => Next::Column,
            &Then::Scalar { ranges, signed, ty: Ty::Enum(e), width } => {
                let values = isa.enums.get(e as usize).map_or(&[][..], |e| e.values);
                let mut names: Vec<Name> = values
                    .iter()
                    .map(|v| {
                        let value = v.value as i128;
                        let placed =
                            fits(value, width).then(|| insert(0, 0, ranges, value as u128 & mask_of(0, width)).0);
                        let mut printed = String::new();
                        if let Some(p) = placed {
                            crate::print::format_value(
                                isa,
                                Ty::Enum(e),
                                bits_value(p, ranges, signed),
                                width,
                                &mut printed,
                            );
                        }
                        Name { text: Lit::new(v.display.as_bytes()), placed, printed: printed == v.display }
                    })
                    .collect();
                // Longest first; of one length, in the enum's order.
                names.sort_by_key(|n| std::cmp::Reverse(n.text.as_bytes().len()));
                let mask = insert(0, 0, ranges, 0).1;
                Next::Enum { mask, names: names.into_boxed_slice() }
            }
            &Then::Scalar { ranges, signed, ty, width } => Next::Scalar { ranges, signed, ty, width },
            Then::Operand(op) => {
                let mut c = Context { group: op.group, params: [(Some(0), 0); MAX_PARAMS], signed: 0 };
                let mut params = [None; MAX_PARAMS];
                let mut exprs = [None; MAX_PARAMS];
                for (i, a) in op.args.iter().enumerate() {
                    c.params[i] = match *a {
                        Arg::Const(v) => (Some(v), 0),
                        Arg::Bits { ranges, signed } => {
                            params[i] = Some(ranges);
                            c.signed |= (signed as u8) << i;
                            (None, width_of(ranges) as u8)
                        }
                        Arg::Expr(e) => {
                            exprs[i] = Some(e);
                            (constant(Ok(e)), 0)
                        }
                    };
                }
                let width = width_of(op.ranges);
                let exact = width <= 64 && isa.groups[op.group as usize].bits == width;
                let signed = c.signed;
                let texts = context(c);
                Next::Operand(Operand {
                    field: op.field,
                    ranges: op.ranges,
                    texts,
                    until,
                    exact,
                    signed,
                    passed: Box::new(Passed { params, exprs }),
                })
            }
            // A field the same for every instruction of the case (`D16` on
            // a generation without it) prints the same text: the printer
            // formats the field's value (`Isa::print_field`), which reads
            // no bits, as it is formatted here.
            &Then::Field(field) => match fields.get(field as usize) {
                Some(f) if !matches!(f.ty, Ty::Group { .. } | Ty::Float { format: Some(_) }) => {
                    match constant(Err(field)) {
                        Some(v) => {
                            let mut out = String::new();
                            crate::print::format_value(isa, f.ty, v, f.width().unwrap_or(64), &mut out);
                            Next::Text(out.into_bytes().into_boxed_slice())
                        }
                        None => Next::Field { field, until },
                    }
                }
                _ => Next::Field { field, until },
            },
        };
        parts.push(Part { text: Lit::new(piece.text.as_bytes()), then });
    }
    parts.into_boxed_slice()
}

/// What an operand read the long way teaches: `named` are the bits its
/// reading bound, `bits` the instruction's. `None` when it bound bits
/// other than its word's and its parameters', part of a parameter, or a
/// parameter too wide to be worth remembering.
fn learned_from(op: &Operand, bits: Bits, named: Bits) -> Option<Learned> {
    let (word, bound, named, values) = bound_by((op.ranges, &op.passed.params), (bits, named), MAX_PARAM_BITS)?;
    let whole = op.exact && bound == mask_of(0, width_of(op.ranges)) as u64;
    Some(Learned { word, bound, named, values: values.map(|v| v as u16), proven: false, whole, checks: 0 })
}

/// The value the printer passes operand `op` of case `case` of `leaf` as
/// parameter `k` in an instruction of bits `bits`: a field's, or one
/// computed from fields; `None` for a parameter neither (a constant).
fn param_value(isa: &Isa, gen_: u32, (leaf, case): (u16, u16), op: &Operand, k: usize, bits: Bits) -> Option<i64> {
    if let Some(ranges) = op.passed.params[k] {
        return Some(bits_value(bits, ranges, op.signed >> k & 1 == 1));
    }
    let e = op.passed.exprs[k]?;
    let mut env = Env { isa, bits, gen_, read: 0, given: Given::NONE };
    Some(env.eval(&[crate::place::Step::top(leaf, case)], e))
}

/// Whether the parameters proven reading `l` of operand `op` keeps to
/// check have, in the line read to `bits`, the values the printer read
/// for them where it was learned, and the bits of the operand's word the
/// reading does not bind are zero, as they were there.
fn checked(isa: &Isa, gen_: u32, leaf_case: (u16, u16), op: &Operand, l: &Learned, bits: Bits) -> bool {
    (l.whole || extract(bits, 0, op.ranges) as u64 == l.word)
        && (0..MAX_PARAMS)
            .filter(|&i| l.checks >> i & 1 == 1)
            .all(|i| param_value(isa, gen_, leaf_case, op, i, bits) == Some(l.values[i] as i64))
}

/// What reading an operand whose word is at `ranges` and whose parameters
/// are at `params` bound, `named` of the instruction's bits `bits`: its
/// word's bits (`bound` of them, the rest zero), and the parameters bound
/// through bit fields of the instruction (bit `k` of the mask: parameter
/// `k`, to the `k`th value). `None` when it bound bits other than its
/// word's and its parameters', part of a parameter, or a parameter wider
/// than `widest` bits, or when its word is wider than 64 bits.
pub(crate) fn bound_by(
    (ranges, params): (&[Range], &[Option<&[Range]>; MAX_PARAMS]),
    (bits, named): (Bits, Bits),
    widest: u32,
) -> Option<(u64, u64, u8, [u64; MAX_PARAMS])> {
    if width_of(ranges) > 64 {
        return None;
    }
    let mut covered = insert(0, 0, ranges, !0).1;
    let bound = extract(named, 0, ranges) as u64;
    let word = extract(bits, 0, ranges) as u64 & bound;
    let (mut mask, mut values) = (0u8, [0; MAX_PARAMS]);
    for (k, r) in params.iter().enumerate() {
        let Some(r) = r else { continue };
        let m = insert(0, 0, r, !0).1;
        covered |= m;
        match named & m {
            0 => {}
            n if n == m && width_of(r) <= widest.min(64) => {
                mask |= 1 << k;
                values[k] = extract(bits, 0, r) as u64;
            }
            _ => return None,
        }
    }
    (named & !covered == 0).then_some((word, bound, mask, values))
}

/// The shape operand `op`'s text `text` teaches, read the long way to the
/// instruction's bits `bits`, `named` of them bound by it (see
/// [`crate::shape`]).
fn shaping(op: &Operand, text: &[u8], bits: Bits, named: Bits) -> Option<(u32, Shape, Shaped)> {
    let (shape, number) = shape_of(text)?;
    Some((op.texts, shape, shaped_from((op.ranges, &op.passed.params), (bits, named), number)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(until: Until, rest: &str) -> Vec<usize> {
        until.ends(rest.as_bytes()).collect()
    }

    #[test]
    fn a_literal_is_its_text_held_in_the_part_or_not() {
        for text in ["", ", ", "v_add_f32_e32", "v_cvt_f16_f32_sdwa_x2ab", "buffer_atomic_fcmpswap_x2"] {
            let lit = Lit::new(text.as_bytes());
            assert_eq!(lit.as_bytes(), text.as_bytes());
            assert_eq!(matches!(lit, Lit::Short { .. }), text.len() <= Lit::SHORT, "{text}");
        }
    }

    #[test]
    fn a_field_may_end_where_what_follows_it_starts() {
        let line = "v1, v2 offset:4";
        assert_eq!(ends(Until::Text(b", "), line), [2]);
        assert_eq!(ends(Until::Text(b" o"), line), [6]);
        assert_eq!(ends(Until::Text(b"x"), line), Vec::<usize>::new());
        // At each separator, then at the end.
        assert_eq!(ends(Until::Word, line), [2, 3, 6, 15]);
        assert_eq!(ends(Until::Word, ""), [0]);
        assert_eq!(ends(Until::End, line), [15]);
        // A following text that starts at once, and one the line ends with.
        assert_eq!(ends(Until::Text(b"v"), line), [0, 4]);
        assert_eq!(ends(Until::Text(b":4"), line), [13]);
    }

    static WORD: [Range; 1] = [Range { lo: 8, width: 8 }];
    static NEG: [Range; 1] = [Range { lo: 1, width: 1 }];
    static WIDE: [Range; 1] = [Range { lo: 32, width: 32 }];

    fn operand() -> Operand {
        let mut params = [None; MAX_PARAMS];
        params[1] = Some(&NEG[..]);
        params[2] = Some(&WIDE[..]);
        Operand {
            field: 0,
            ranges: &WORD,
            texts: 0,
            until: Until::End,
            exact: true,
            signed: 0,
            passed: Box::new(Passed { params, exprs: [None; MAX_PARAMS] }),
        }
    }

    #[test]
    fn an_operand_teaches_what_its_reading_bound() {
        let op = operand();
        let bits: Bits = 0x1234_5678_0000_ab02;
        // Its word's low nibble and its negate bit: both remembered, and
        // binding them again gives the same bits.
        let named = 0x0f00 | 0x2;
        let l = learned_from(&op, bits, named).expect("learned");
        assert_eq!((l.word, l.bound, l.named, l.values[1]), (0xb, 0xf, 0b10, 1));
        let start = Read { bits: 0, bound: 0 };
        assert_eq!(apply(&op, &l, start), Some(Read { bits: 0x0b02, bound: named }));
        // A conflict with a bit bound before.
        assert_eq!(apply(&op, &l, Read { bits: 0, bound: 0x2 }), None);
        // Bits it does not own, part of a parameter, a parameter too wide.
        assert!(learned_from(&op, bits, named | 1 << 20).is_none());
        assert!(learned_from(&op, bits, 0xff00 | 1 << 40).is_none());
        assert!(learned_from(&op, bits, 0xff00 | 0xffff_ffff << 32).is_none());
    }

    static NO_LEAVES: Isa = Isa::for_tests("recall-test", &[], &[]);

    /// A proven reading holds in a line only where its checks do: the bits
    /// of its word its text left unbound (a pair's low bit) are zero, as
    /// where it was learned, and each parameter the printer read that the
    /// text does not bind (here the negate bit) has the value it had.
    #[test]
    fn a_proven_reading_holds_only_where_its_checks_do() {
        let op = operand();
        // The word's high seven bits bound (0x5a >> 1 << 1), its low bit
        // not, and the negate parameter read by the printer as 0.
        let mut l = learned_from(&op, 0x5a00, 0xfe00).expect("learned");
        assert!(!l.whole);
        l.checks = 0b10;
        l.values[1] = 0;
        let leaf_case = (0, 0);
        assert!(checked(&NO_LEAVES, 0, leaf_case, &op, &l, 0x5a00));
        // The low bit set by something else, or the negate bit set.
        assert!(!checked(&NO_LEAVES, 0, leaf_case, &op, &l, 0x5b00));
        assert!(!checked(&NO_LEAVES, 0, leaf_case, &op, &l, 0x5a02));
        // A reading that binds the whole word checks only the parameter.
        let mut whole = learned_from(&op, 0x5b00, 0xff00).expect("learned");
        assert!(whole.whole);
        assert!(checked(&NO_LEAVES, 0, leaf_case, &op, &whole, 0x5b00));
        whole.checks = 0b10;
        assert!(!checked(&NO_LEAVES, 0, leaf_case, &op, &whole, 0x5b02));
    }

    /// Commits `text` as an operand read in context `at` to `l`.
    fn remember(recall: &mut Recall, at: u32, text: &[u8], l: Learned) {
        recall.pending.push((at, 0, text.len() as u32, l, 0));
        recall.commit(&NO_LEAVES, (0, 0), text, None);
    }

    #[test]
    fn what_is_remembered_is_bounded() {
        let mut recall = Recall::new(&NO_LEAVES, 0, 0);
        recall.texts.push(HashMap::default());
        recall.capacity.push(2);
        let l = Learned { word: 1, bound: 1, named: 0, values: [0; MAX_PARAMS], proven: false, whole: true, checks: 0 };
        for t in ["a", "b", "c", "a"] {
            remember(&mut recall, 0, t.as_bytes(), l);
        }
        assert_eq!(recall.len(), 2, "the context keeps its first two");
        let has = |t: &[u8]| Text::new(t).is_some_and(|t| recall.texts[0].contains_key(&t));
        assert!(has(b"a") && has(b"b"));
        recall.texts.push(HashMap::default());
        recall.capacity.push(usize::MAX);
        recall.entries = CAPACITY;
        remember(&mut recall, 1, b"d", l);
        assert_eq!(recall.len(), 2, "nothing past the whole capacity");
        recall.entries = 0;
        remember(&mut recall, 1, &[b'v'; Text::MAX + 1], l);
        assert_eq!(recall.len(), 2, "a text too long to be a key");
        remember(&mut recall, 1, &[b'v'; Text::MAX], l);
        assert_eq!(recall.len(), 3, "the longest that is");
    }

    static ONE_GROUP: [crate::tables::Group; 1] =
        [crate::tables::Group { name: "reg", bits: 8, leaves: &[], params: &[] }];
    static GROUPED: Isa = Isa::for_tests("recall-test", &ONE_GROUP, &[]);

    /// A context's room: a text for each value of its word and of the
    /// parameters read from bit fields, while those are narrow; some texts
    /// a word for each parameter computed from several fields (a register
    /// count that follows a mask), within a narrow context's room; a wide
    /// context's few, however it is passed parameters.
    #[test]
    fn a_context_has_room_for_what_its_texts_depend_on() {
        let context = |params: &[(Option<i64>, u8)]| {
            let mut c = Context { group: 0, params: [(Some(0), 0); MAX_PARAMS], signed: 0 };
            c.params[..params.len()].copy_from_slice(params);
            c
        };
        let contexts = [
            context(&[]),
            context(&[(Some(2), 0)]),
            context(&[(None, 1)]),
            context(&[(None, 0)]),
            context(&[(None, 0), (None, 0)]),
            context(&[(None, 3), (None, 0)]),
            context(&[(None, 4), (None, 0)]),
            context(&[(None, 5), (None, 0)]),
            context(&[(None, 32)]),
        ];
        let (mut texts, mut capacity, mut shaped, mut fixed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        cover(&GROUPED, &contexts, (&mut texts, &mut capacity, &mut shaped, &mut fixed));
        let computed = 1 << (8 + COMPUTED_PARAM_BITS);
        let want = [256, 256, 512, computed, 1 << NARROW_BITS, 1 << NARROW_BITS, 1 << NARROW_BITS];
        assert_eq!(capacity[..7], want);
        // Past a narrow context's bits, a few texts, read by their shapes;
        // a parameter too wide to remember takes no room, and its texts
        // are read by their shapes too.
        assert_eq!(capacity[7..], [WIDE_CAPACITY, 256]);
        assert_eq!(shaped, [false, false, false, false, false, false, false, true, true]);
        assert_eq!(texts.len(), contexts.len());
    }

    /// Two recalls of one pool: a reading one learns reaches the other
    /// when both have looked at the pool, under the context's number the
    /// pool gave, which the other had not met; each gives it once, and
    /// the other keeps within its own bounds.
    #[test]
    fn what_one_learns_another_sharing_its_pool_takes() {
        let pool = GROUPED.lessons(0, 0);
        let (mut a, mut b) = (Recall::new(&GROUPED, 0, 0), Recall::new(&GROUPED, 0, 0));
        a.share(&pool);
        b.share(&pool);
        // Two contexts met by `a` (numbered by the pool, as its cases'
        // resolution numbers them), of which it learns in the second.
        let context = |c: i64| Context { group: 0, params: [(Some(c), 0); MAX_PARAMS], signed: 0 };
        for c in [context(1), context(2)] {
            let at = pool.contexts().number(c);
            cover(&GROUPED, &[c], (&mut a.texts, &mut a.capacity, &mut a.shaped, &mut a.fixed));
            assert_eq!(at as usize + 1, a.texts.len());
        }
        let l =
            Learned { word: 7, bound: 0xff, named: 0, values: [0; MAX_PARAMS], proven: true, whole: true, checks: 0 };
        remember(&mut a, 1, b"v7", l);
        remember(&mut a, 1, b"v8", Learned { word: 8, ..l });
        assert_eq!(a.outbox.log.texts.len(), 2, "what it learned waits to be given");
        // `b` looks first: nothing was given yet.
        b.exchange(&GROUPED);
        assert_eq!(b.len(), 0);
        a.exchange(&GROUPED);
        assert!(a.outbox.log.texts.is_empty(), "given once");
        b.exchange(&GROUPED);
        assert_eq!(b.texts.len(), 2, "both contexts covered, numbered as the pool numbers them");
        let got = |r: &Recall, t: &[u8]| Text::new(t).and_then(|t| r.texts[1].get(&t).map(|l| (l.word, l.proven)));
        assert_eq!((got(&b, b"v7"), got(&b, b"v8")), (Some((7, true)), Some((8, true))));
        assert!(b.texts[0].is_empty() && b.outbox.log.texts.is_empty(), "taken, not given again");
        // Looking again takes nothing twice; `a` takes nothing back.
        a.exchange(&GROUPED);
        b.exchange(&GROUPED);
        assert_eq!((a.len(), b.len()), (2, 2));
        // What `b` takes stays within its bounds: past its whole capacity,
        // a reading given is not kept.
        b.entries = CAPACITY;
        remember(&mut a, 1, b"v9", Learned { word: 9, ..l });
        a.exchange(&GROUPED);
        b.exchange(&GROUPED);
        assert_eq!((a.len(), b.len()), (3, 2));
    }

    /// A recall that shares with no pool keeps nothing to give.
    #[test]
    fn a_recall_alone_gives_nothing() {
        let mut r = Recall::new(&GROUPED, 0, 0);
        let c = Context { group: 0, params: [(None, 0); MAX_PARAMS], signed: 0 };
        cover(&GROUPED, &[c], (&mut r.texts, &mut r.capacity, &mut r.shaped, &mut r.fixed));
        let l = Learned { word: 1, bound: 1, named: 0, values: [0; MAX_PARAMS], proven: false, whole: true, checks: 0 };
        remember(&mut r, 0, b"a", l);
        assert_eq!(r.len(), 1);
        assert!(r.outbox.log.texts.is_empty());
    }
}
