//! An assembler for many lines: text the printer wrote is read the short
//! way, the rest by [`Isa::assemble_in`].
//!
//! The general assembler matches a line against every template that could
//! read it, solves for the bits the text leaves open and checks the result;
//! on GCN that is some 50,000 machine instructions a line. Most lines fed
//! to an assembler in bulk, though, are in the printer's own form. For
//! those, [`crate::canonical`] reads the bits the text names as the printer
//! writes them, and the guess is kept only when it *is* the answer:
//!
//! - it decodes, to the same instruction and bits;
//! - it sets no bit the hardware ignores and breaks none of the target's
//!   rules (the general assembler refuses those, naming why);
//! - it prints back to the line exactly, or (a line read by remembered
//!   texts alone) it was proven to, piece by piece, and its bits print by
//!   the case it was read as ([`crate::recall::Recall::proven`]);
//! - no shorter encoding could print the same text: no instruction the
//!   general assembler would try first (one with the same first word, or
//!   one whose first word is not fixed text, when the line is one of its
//!   candidates and one of its templates opens the line) may be shorter,
//!   and an instruction whose length varies has its length fixed by bits
//!   the text named.
//!
//! The templates tried are those whose first word is the line's; for a
//! line whose first word no template fixes (ir3's `(sy)add.f`), the leaves
//! the general assembler itself tries, in its order. Each is first read by
//! the operand texts earlier lines taught ([`crate::recall`]), then, when
//! that does not give the answer, walked as [`crate::canonical`] reads it;
//! the first the walk reads decides. The cases of the first instruction
//! are all read by remembered texts before any is walked: a GCN atomic
//! without `glc` is the second case of its instruction, and walking the
//! first (the one returning a value) to its failure cost more than reading
//! the line by its own case's remembered texts (4.5% of the machine
//! instructions of assembling the bench-peer stream went to such walks).
//! Only that instruction's: reading every candidate so first left AGX,
//! whose lines miss their own case's remembered texts more often, trying
//! them on every later case, and fewer of its lines recalled.
//! Whichever reads it, a guess is kept only as above, and which template
//! gives it does not matter: two encodings that both decode and print the
//! line would, by the policy below, both be what the line assembles to.
//!
//! The decoding policy (README, "Decoding policy"; checked by the `decode`
//! fuzzer's round trip) is that a decoded instruction's text assembles back
//! to the same bits, or to a shorter encoding that prints the same. So a
//! guess that passes all four is what [`Isa::assemble_in`] returns for the
//! line; any other line goes to it, and errors are its errors. Tests hold
//! the two to the same answers on every target.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::Inst;
use crate::bits::Bits;
use crate::canonical::Read;
use crate::decode::Decoder;
use crate::error::AsmError;
use crate::eval::{Env, Given};
use crate::logic::Logic;
use crate::place::Step;
use crate::print::Printer;
use crate::recall::{Proof, Prover};
use crate::short_text::{TextHasher, Word, WordKey};
use crate::tables::{Isa, Leaf, PrintOpts, Tok};

/// Assembles lines of one generation and syntax: keeps a printer, which
/// remembers operand texts, to print its guesses back, and what reading
/// has worked out about the templates (see the module documentation).
pub struct Assembler<'a> {
    isa: &'a Isa,
    gen_: u32,
    syntax: u16,
    decoder: Decoder<'a>,
    printer: Printer<'a>,
    /// The templates of the generation's instructions by the first word
    /// they print, in spec order (looked up once a line, by a hasher for
    /// short texts).
    heads: HashMap<WordKey, Box<[Head]>, BuildHasherDefault<TextHasher>>,
    /// The text a guess prints back.
    text: String,
    /// What reading learned about the templates.
    memory: crate::canonical::Memory,
    /// The operand texts of lines kept, to read later lines by.
    recall: crate::recall::Recall<'a>,
    /// The general assembler's candidates for a line.
    order: Vec<u16>,
    /// The cases to try for a line (see [`Assembler::read_canonical`]).
    tries: Vec<(u16, u16, u32)>,
    /// By leaf, [`Isa::ignorable_in`] once found.
    ignorable: Vec<Option<Bits>>,
    /// By leaf, its rules' checks as [`Logic`]s once built.
    rules: Vec<Option<Box<[Logic]>>>,
    /// The operands' bounds found on the way (see [`crate::ignorable::Walked`]).
    walked: crate::ignorable::Walked,
    canonical: u64,
    recalled: u64,
    /// The instruction printed back last, as a line it printed.
    printed: Inst,
    /// Lines kept without printing them back, proven to print as they read.
    unprinted: u64,
}

impl Isa {
    /// An assembler for many lines of generation `gen_` in syntax `syntax`
    /// (an index into [`Isa::syntaxes`]): the same answers as
    /// [`Isa::assemble_in`], faster for text in the printer's form.
    pub fn assembler(&self, gen_: u32, syntax: u16) -> Assembler<'_> {
        let mut heads: HashMap<String, Vec<Head>> = HashMap::new();
        let mut open: Vec<Open> = Vec::new();
        // Spec order, in which the general assembler tries them (a group
        // lists its leaves in decoding order).
        let mut leaves: Vec<u16> = self.instructions(gen_).collect();
        leaves.sort_unstable();
        let widest = leaves.iter().map(|&l| self.leaves[l as usize].bits).max().unwrap_or(0);
        for leaf in leaves {
            let l = &self.leaves[leaf as usize];
            for (ci, case) in l.cases.iter().enumerate().filter(|(_, c)| c.applies_in(syntax)) {
                let (word, whole) = head(l, case.display_in(syntax), syntax);
                // A template whose first word goes on with a field is
                // tried for lines whose first word is its fixed part (the
                // field printed nothing there: `ds_gws_sema_v gds`).
                let fixed = fixed_text(l, case.display_in(syntax), syntax);
                let tried = !case.parse_only;
                let h = Head { leaf, case: ci as u16, tried, whole: fixed, before: u32::MAX, whole_before: false };
                heads.entry(word.clone()).or_default().push(h);
                // Only a template of an encoding shorter than some other
                // could be the shorter one that prints the same.
                if !whole && l.min_bits < widest {
                    open.push(Open { leaf, prefix: word.into_boxed_str(), min_bits: l.min_bits });
                }
            }
        }
        // What a line's first word alone says of the encodings tried
        // before each template (see `Head::before`), worked out once here
        // rather than for every line.
        for (word, candidates) in heads.iter_mut() {
            for k in 0..candidates.len() {
                let leaf = candidates[k].leaf;
                let earlier = candidates[..k].iter().filter(|c| c.leaf != leaf);
                let named =
                    earlier.clone().filter(|c| c.whole.is_none()).map(|c| self.leaves[c.leaf as usize].min_bits);
                let open = open.iter().take_while(|o| o.leaf < leaf);
                let open = open.filter(|o| word.starts_with(&*o.prefix)).map(|o| o.min_bits);
                let before = named.chain(open).min().unwrap_or(u32::MAX);
                let whole_before = earlier.clone().any(|c| c.whole.is_some());
                (candidates[k].before, candidates[k].whole_before) = (before, whole_before);
            }
        }
        Assembler {
            isa: self,
            gen_,
            syntax,
            decoder: self.decoder(gen_),
            printer: self.printer(gen_, PrintOpts { syntax, pad: None }),
            heads: heads.into_iter().map(|(h, l)| (WordKey::new(&h), l.into_boxed_slice())).collect(),
            text: String::new(),
            memory: Default::default(),
            recall: crate::recall::Recall::new(self, gen_, syntax),
            order: Vec::new(),
            tries: Vec::new(),
            ignorable: Vec::new(),
            rules: Vec::new(),
            walked: Default::default(),
            canonical: 0,
            recalled: 0,
            printed: Inst { leaf: 0, len: 0, bits: 0 },
            unprinted: 0,
        }
    }
}

impl<'a> crate::Lessons<'a> {
    /// An assembler as [`Isa::assembler`] makes, that shares what it
    /// learns with the others this pool made (see `crate::lessons`): the
    /// same answers, fewer texts read the long way when several assemble
    /// one stream between them.
    pub fn assembler(&'a self) -> Assembler<'a> {
        let mut asm = self.isa.assembler(self.gen_, self.syntax);
        asm.recall.share(self);
        asm
    }
}

/// Lines an [`Assembler`] reads the short way before it judges whether
/// reading by remembered operand texts pays (see [`Assembler::recalling`]).
const RECALL_JUDGED_AFTER: u64 = 512;

/// A template, as (leaf, case), by the first word it prints.
struct Head {
    leaf: u16,
    case: u16,
    /// Whether lines are read by it: not a template the general assembler
    /// reads and the printer never writes (yet one it tries before those
    /// listed after it, which `before` counts).
    tried: bool,
    /// The whole text, for a template that is fixed text alone (GCN's
    /// `v_nop`): the only line it prints.
    whole: Option<Box<str>>,
    /// The least width of an encoding the general assembler tries before
    /// this one that could print a line with this first word: a template
    /// of another instruction listed before it under the same word (but
    /// one of fixed text alone), or one whose first word is a fixed start
    /// this word starts with, and a field.
    before: u32,
    /// Whether a template of fixed text alone of another instruction is
    /// listed before it: it could print the line only when the line is
    /// its text.
    whole_before: bool,
}

/// A template whose first word starts with fixed text and goes on with a
/// field: its instruction could print any first word that starts so.
struct Open {
    leaf: u16,
    prefix: Box<str>,
    min_bits: u32,
}

/// The first word a template prints (up to its first space or column), or
/// its fixed start up to a field; whether that is the whole word.
fn head(l: &Leaf, display: &[Tok], syntax: u16) -> (String, bool) {
    let mut h = String::new();
    for tok in display {
        let s = match *tok {
            Tok::Lit(s) | Tok::Opt(s) => s,
            Tok::Name => l.name_in(syntax),
            Tok::Column => return (h, true),
            Tok::Field(_) | Tok::OptField(..) => return (h, false),
        };
        if let Some(i) = s.find(' ') {
            h.push_str(&s[..i]);
            return (h, true);
        }
        h.push_str(s);
    }
    (h, true)
}

/// The text a template prints when it is fixed text alone.
fn fixed_text(l: &Leaf, display: &[Tok], syntax: u16) -> Option<Box<str>> {
    let mut text = String::new();
    for tok in display {
        match *tok {
            Tok::Lit(s) => text.push_str(s),
            Tok::Name => text.push_str(l.name_in(syntax)),
            _ => return None,
        }
    }
    Some(text.into_boxed_str())
}

impl Assembler<'_> {
    /// Assembles one line to its bits and width, as [`Isa::assemble_in`].
    pub fn assemble(&mut self, line: &str) -> Result<(Bits, u32), AsmError> {
        if let Some(found) = self.read_canonical(trimmed(line)) {
            self.canonical += 1;
            return Ok(found);
        }
        self.isa.assemble_in(line, self.gen_, self.syntax)
    }

    /// Gives its pool what it learned and takes what the others gave, now
    /// rather than at its next look (every 16 lines it keeps); nothing for
    /// an assembler made without a pool ([`crate::Lessons::assembler`]).
    pub fn exchange(&mut self) {
        self.recall.exchange(self.isa);
    }

    /// How many lines were read in the printer's form.
    pub fn canonical_lines(&self) -> u64 {
        self.canonical
    }

    /// How many of those were read by operand texts remembered from lines
    /// before (see `crate::recall`).
    pub fn recalled_lines(&self) -> u64 {
        self.recalled
    }

    /// How many operands of those lines were read by the shape of their
    /// text, a number in a text of a shape met before (see `crate::shape`).
    pub fn shaped_operands(&self) -> u64 {
        self.recall.shaped()
    }

    /// How many of the lines read by remembered texts were kept without
    /// being printed back: every piece was proven to print as it reads
    /// (see `crate::recall`), so only their bits were checked.
    pub fn unprinted_lines(&self) -> u64 {
        self.unprinted
    }

    /// The bits and width of `t` when it is an instruction as the printer
    /// writes it (see the module documentation).
    fn read_canonical(&mut self, t: &str) -> Option<(Bits, u32)> {
        let isa = self.isa;
        if t.is_empty() || isa.raw.as_ref().is_some_and(|r| t.starts_with(r.prefix)) {
            return None;
        }
        // The cases to try, each with the shortest width of an encoding the
        // general assembler would try before it that could print the same.
        let mut tries = std::mem::take(&mut self.tries);
        tries.clear();
        // A plain scan: the first word is a dozen bytes, shorter than the
        // library search's setup.
        let first = &t[..t.bytes().position(|b| b == b' ').unwrap_or(t.len())];
        if let Some(candidates) = self.heads.get(Word::of(first.as_bytes())) {
            // Those whose first word is this one or starts with a field;
            // a template of fixed text alone prints only that text (`v_nop`
            // is not the shorter encoding of `v_nop row_shr:2 ...`).
            for (k, &Head { leaf, case: ci, tried, before, whole_before, .. }) in candidates.iter().enumerate() {
                if !tried {
                    continue;
                }
                let mut shortest = before;
                if whole_before {
                    let could = |c: &&Head| c.leaf != leaf && c.whole.as_deref() == Some(t);
                    let named = candidates[..k].iter().filter(could).map(|c| isa.leaves[c.leaf as usize].min_bits);
                    shortest = named.fold(shortest, u32::min);
                }
                tries.push((leaf, ci, shortest));
            }
        } else {
            // Templates whose first word is not fixed text (ir3's
            // `(sy)add.f`): the leaves the general assembler itself tries.
            crate::mnemonics::index(isa, self.syntax).candidates(t, &mut self.order);
            let mut shortest = u32::MAX;
            for &leaf in &self.order {
                let l = &isa.leaves[leaf as usize];
                if l.exists_in(self.gen_) {
                    let cases = (0..l.cases.len() as u16).filter(|&ci| self.applies(leaf, ci));
                    tries.extend(cases.map(|ci| (leaf, ci, shortest)));
                    shortest = shortest.min(l.min_bits);
                }
            }
        }
        // By remembered operand texts first: a line whose operands were all
        // met before is read without walking templates. The cases of one
        // instruction are all read so before any is walked. (Only cases
        // that print in the syntax were listed.)
        let first = tries.first().map(|t| t.0);
        if self.recalling() {
            for &(leaf, ci, shortest) in &tries {
                if Some(leaf) == first
                    && let Some(f) = self.recall_case(t, (leaf, ci), shortest)
                {
                    self.tries = tries;
                    return Some(f);
                }
            }
        }
        let mut found = None;
        for &(leaf, ci, shortest) in &tries {
            if self.recalling()
                && Some(leaf) != first
                && let Some(f) = self.recall_case(t, (leaf, ci), shortest)
            {
                found = Some(f);
                break;
            }
            if let Some(f) = self.try_case(t, (leaf, ci), shortest) {
                found = f;
                break;
            }
        }
        self.tries = tries;
        found
    }

    /// Reads `t` as case `ci` of `leaf` by remembered operand texts and
    /// confirms it: the answer when both hold (the line is then kept, so
    /// that its texts stay remembered), else `None`.
    fn recall_case(&mut self, t: &str, (leaf, ci): (u16, u16), shortest: u32) -> Option<(Bits, u32)> {
        let read = self.recall.read(self.isa, (leaf, ci), t.as_bytes(), &mut self.memory)?;
        let proven = self.recall.proven().then_some(ci);
        let found = self.confirm(t, leaf, read, shortest, proven)??;
        if proven.is_some() {
            // Nothing was read the long way: there is nothing to prove.
            self.recall.keep(self.isa, t.as_bytes(), None);
            self.unprinted += 1;
        } else {
            let printer = &mut Printed::new(&mut self.printer, self.printed, ci);
            self.recall.keep(self.isa, t.as_bytes(), Some(Proof { bits: found.0, printer }));
        }
        self.recalled += 1;
        Some(found)
    }

    /// Reads `t` as case `ci` of `leaf` and confirms it: `None` when the
    /// case does not read, else what [`Assembler::confirm`] says. A line
    /// kept teaches its operand texts.
    fn try_case(&mut self, t: &str, (leaf, ci): (u16, u16), shortest: u32) -> Option<Option<(Bits, u32)>> {
        let Assembler { isa, gen_, syntax, .. } = *self;
        let read = crate::canonical::read(isa, t, (gen_, syntax), (leaf, ci), &mut self.memory)?;
        let found = self.confirm(t, leaf, read, shortest, None)?;
        if found.is_some() && self.recalling() {
            let printer = &mut Printed::new(&mut self.printer, self.printed, ci);
            let proof = Proof { bits: read.bits, printer };
            self.recall.learn(isa, (leaf, ci), t.as_bytes(), (read, &self.memory), Some(proof));
        }
        Some(found)
    }

    /// Whether lines are read by remembered operand texts: after
    /// [`RECALL_JUDGED_AFTER`] lines read the short way, only while at
    /// least half of them were (ir3's lines, fewer than half of which are,
    /// assembled a sixth slower for trying).
    fn recalling(&self) -> bool {
        self.canonical < RECALL_JUDGED_AFTER || self.recalled * 2 >= self.canonical
    }

    /// Whether case `ci` of `leaf` prints in this syntax.
    fn applies(&self, leaf: u16, ci: u16) -> bool {
        let case = &self.isa.leaves[leaf as usize].cases[ci as usize];
        !case.parse_only && case.applies_in(self.syntax)
    }

    /// Confirms `read`, a reading of `t` as `leaf`: `None` when it does not
    /// decode as read or print back the line, `Some(None)` when it does
    /// but the answer could be another (an encoding tried before it that
    /// may print the same is shorter: `shortest` is the least width of
    /// those; a bit the text sets that the hardware ignores; a broken
    /// rule), `Some(Some(_))` for the answer. A line `proven` to print as
    /// it reads as a case (see [`crate::recall::Recall::proven`]) is not
    /// printed back when its bits print by that case.
    fn confirm(
        &mut self,
        t: &str,
        leaf: u16,
        read: Read,
        shortest: u32,
        proven: Option<u16>,
    ) -> Option<Option<(Bits, u32)>> {
        let Assembler { isa, gen_, syntax, .. } = *self;
        let l = &isa.leaves[leaf as usize];
        let inst = self.decoder.decode(read.bits).ok().filter(|i| i.leaf == leaf && i.bits == read.bits)?;
        let width = inst.len as u32 * 8;
        // The general assembler finds a shorter encoding that prints the
        // same: one it tries before this, or this one with other bits where
        // the text does not fix the length.
        // No bit the line sets is ignored in its syntax, so none is in
        // every syntax either (what the rules are judged without).
        let ignorable = self.ignorable(leaf);
        if (shortest < width && self.tried_before(t, leaf) < width)
            || (width > l.min_bits && !length_named(isa, gen_, l, leaf, read, width))
            || (inst.bits & ignorable != 0
                && isa.ignored_and_set_within(&inst, gen_, Some(syntax), &|_, _| None, ignorable) != 0)
            || !isa.keeps_rules(&inst, gen_, self.rules(leaf))
        {
            return Some(None);
        }
        if let Some(case) = proven
            && self.printer.case_of(&inst) == case
        {
            return Some(Some((inst.bits, width)));
        }
        self.text.clear();
        self.printer.print_to(&inst, &mut self.text);
        self.printed = inst;
        (self.text == t).then_some(Some((inst.bits, width)))
    }

    /// The least width of an encoding of another instruction that the
    /// general assembler tries on `t` before `leaf`: the instructions it
    /// tries are the line's candidates ([`crate::mnemonics`]), in spec
    /// order, and of each only the templates that open the line ([`opens`]).
    /// What the templates' first words alone say (`Head::before`) is worked
    /// out once, for every line of that word; this asks of the line itself,
    /// when that bound refuses a reading. AGX's `simd` and `quad`
    /// reductions write their group first (`{GM}`), so their first word is
    /// no fixed text, and their 48 bits bounded every longer instruction
    /// listed after them (`ld_tile`, `imadd`): a third of AGX's lines went
    /// to the general assembler, though no line without `simd` or `quad` is
    /// one of theirs.
    fn tried_before(&mut self, t: &str, leaf: u16) -> u32 {
        let Assembler { isa, gen_, syntax, .. } = *self;
        crate::mnemonics::index(isa, syntax).candidates(t, &mut self.order);
        let earlier = self.order.iter().take_while(|&&c| c < leaf).map(|&c| &isa.leaves[c as usize]);
        let opening =
            |l: &Leaf| l.cases.iter().any(|c| c.applies_in(syntax) && opens(l, c.display_in(syntax), syntax, t));
        earlier.filter(|l| l.exists_in(gen_) && opening(l)).map(|l| l.min_bits).min().unwrap_or(u32::MAX)
    }

    /// The bits of an encoding of `leaf` its hardware may ignore in this
    /// generation (see [`Isa::ignorable_in`]).
    fn ignorable(&mut self, leaf: u16) -> Bits {
        if self.ignorable.len() < self.isa.leaves.len() {
            self.ignorable.resize(self.isa.leaves.len(), None);
        }
        let (isa, gen_, walked) = (self.isa, self.gen_, &mut self.walked);
        *self.ignorable[leaf as usize].get_or_insert_with(|| isa.ignorable_in_with(leaf, gen_, walked))
    }

    /// The checks of `leaf`'s rules as [`Logic`]s, built once.
    fn rules(&mut self, leaf: u16) -> &[Logic] {
        if self.rules.len() < self.isa.leaves.len() {
            self.rules.resize_with(self.isa.leaves.len(), || None);
        }
        let rules = self.isa.leaves[leaf as usize].rules;
        self.rules[leaf as usize].get_or_insert_with(|| rules.iter().map(|r| Logic::of(r.check)).collect())
    }
}

/// An instruction printed back as the line it was read from, as case `ci`,
/// and its printer: what proves the operand texts it teaches (see
/// [`crate::recall::Recall::commit`]).
struct Printed<'p, 'a> {
    printer: &'p mut Printer<'a>,
    inst: Inst,
    ci: u16,
    /// Whether it prints by case `ci`, once asked.
    by_case: Option<bool>,
}

impl<'p, 'a> Printed<'p, 'a> {
    fn new(printer: &'p mut Printer<'a>, inst: Inst, ci: u16) -> Self {
        Printed { printer, inst, ci, by_case: None }
    }
}

impl Prover for Printed<'_, '_> {
    fn operand_piece(&mut self, k: usize, out: &mut String) -> bool {
        let Printed { printer, inst, ci, by_case } = self;
        *by_case.get_or_insert_with(|| printer.case_of(inst) == *ci) && printer.operand_piece(inst, *ci, k, out)
    }

    fn reads(&mut self, g: u16, word: Bits) -> Option<u8> {
        self.printer.operand_reads(g, word)
    }
}

/// Whether the general assembler may read line `t` (trimmed) by template
/// `display` of `l`: it tries a template only when its first token, if
/// text or the name, is where the line starts (`Parser::opens`). Text
/// starting with a space or a comma may be read otherwise (white space
/// stretches, and a comma may be left out); any other first byte must be
/// the line's.
fn opens(l: &Leaf, display: &[Tok], syntax: u16, t: &str) -> bool {
    let Some(want) = crate::parse::opening(l, display, syntax) else { return true };
    match want.as_bytes().first() {
        Some(&c) if c != b' ' && c != b',' => t.as_bytes().first() == Some(&c),
        _ => true,
    }
}

/// `line` without the white space around it, as [`str::trim`] takes it
/// off; a line that starts and ends with a printable ASCII character (most
/// of them) is returned as it is, without the Unicode walk of both ends.
fn trimmed(line: &str) -> &str {
    let graphic = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    if graphic(line.as_bytes().first()) && graphic(line.as_bytes().last()) { line } else { line.trim() }
}

/// Most bits the length of an instruction may read that its text did not
/// name for [`length_named`] to try each of their values.
const MAX_UNNAMED_LENGTH_BITS: u32 = 8;

/// Whether no other encoding of `l` that prints the same is shorter: every
/// bit its length is computed from was named by the text, or the few that
/// were not give no shorter length whatever their values. (GCN's
/// `s_and_b64 s[26:27], ttmp[4:5], 0xf7f85aea`: the length asks whether a
/// source is the literal's code, and a pair's code has a low bit the text
/// does not name; neither value of it makes that source the literal.)
fn length_named(isa: &Isa, gen_: u32, l: &Leaf, leaf: u16, read: Read, width: u32) -> bool {
    let Some(length) = l.length else { return true };
    let path = [Step::top(leaf, (l.cases.len() - 1) as u16)];
    let mut env = Env { isa, bits: read.bits, gen_, read: 0, given: Given::NONE };
    env.eval(&path, length);
    let free = env.read & !read.bound;
    if free == 0 {
        return true;
    }
    if free.count_ones() > MAX_UNNAMED_LENGTH_BITS {
        return false;
    }
    (0..1u64 << free.count_ones()).all(|k| {
        let bits = (read.bits & !free) | crate::parse::deposit(k, free);
        let mut env = Env { isa, bits, gen_, read: 0, given: Given::NONE };
        env.eval(&path, length) >= width as i64
    })
}

#[cfg(test)]
mod tests {
    use super::trimmed;

    #[test]
    fn a_line_is_trimmed_as_str_trim_takes_it() {
        let lines = [
            "",
            " ",
            "v_nop",
            " v_nop",
            "v_nop\t",
            "s_mov_b32 s0, s1",
            "\u{a0}s_nop 0\u{2003}",
            "s_nop 0\u{3000}",
            "\u{85}",
            "é",
            "~ ~",
            "\x7f",
        ];
        for line in lines {
            assert_eq!(trimmed(line), line.trim(), "{line:?}");
        }
    }
}
