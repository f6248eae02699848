//! Printing: walk the chosen case's template, formatting each field by its type.

use crate::Inst;
use crate::bits::{Bits, mask_of};
use crate::decode::MAX_DEPTH;
use crate::digits::{push_dec, push_hex, push_hexlit, push_signed};
use crate::eval::{Env, Given, Step};
use crate::form_starts::Start;
use crate::memo::{Hole, Key, MAX_PARAMS, Memo};
use crate::padded::Text;
use crate::print_plan::{Arg, Operand, PrintPlans, Then, bits_value};
use crate::tables::{Isa, PrintOpts, Src, Tok, Ty};

impl Isa {
    /// Appends the assembly text of `inst` to `out`.
    pub fn print_to(&self, inst: &Inst, gen_: u32, out: &mut String) {
        self.print_with(inst, gen_, PrintOpts::default(), out);
    }

    /// Appends the assembly text of `inst` in the syntax `opts` names.
    pub fn print_with(&self, inst: &Inst, gen_: u32, opts: PrintOpts, out: &mut String) {
        self.print_line(inst, gen_, opts, None, &mut [Step::top(inst.leaf, 0); MAX_DEPTH], out);
    }

    /// The column `{|}` pads to when printing as `opts` says (0: one space).
    pub(crate) fn column(&self, opts: PrintOpts) -> usize {
        let syntax = self.syntaxes.get(opts.syntax as usize);
        let pad = opts.pad.unwrap_or(syntax.is_some_and(|s| s.pad));
        if pad { syntax.map_or(0, |s| s.column as usize) } else { 0 }
    }

    /// A printer for many instructions of generation `gen_` in the syntax
    /// `opts` names, which remembers the operands it has printed.
    pub fn printer(&self, gen_: u32, opts: PrintOpts) -> Printer<'_> {
        Printer {
            isa: self,
            gen_,
            opts,
            memo: Memo::new(self),
            plans: PrintPlans::new(self),
            path: [Step::top(0, 0); MAX_DEPTH],
        }
    }

    fn print_line(
        &self,
        inst: &Inst,
        gen_: u32,
        opts: PrintOpts,
        memo: Option<(&mut Memo, &mut PrintPlans)>,
        path: &mut [Step; MAX_DEPTH],
        out: &mut String,
    ) {
        let mut env = Env { isa: self, bits: inst.bits, gen_, read: 0, given: Given::NONE };
        // Each depth below the top is set as the printer descends to it.
        path[0] = Step::top(inst.leaf, 0);
        let column = self.column(opts);
        let (memo, plans) = memo.unzip();
        let mut line = Line { syntax: opts.syntax, column, start: out.len(), memo };
        match plans {
            Some(plans) => self.print_planned(&mut env, path, out, &mut line, plans),
            None => self.print_leaf(&mut env, path, 0, out, &mut line),
        }
    }

    /// Prints the instruction at `path[0]` from its case's pieces (see
    /// [`crate::print_plan`]): what [`Isa::print_leaf`] prints.
    fn print_planned(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        out: &mut String,
        line: &mut Line<'_>,
        plans: &mut PrintPlans,
    ) {
        let leaf = path[0].leaf;
        let case = match plans.case(self, leaf, env.gen_, line.syntax) {
            Some(c) => c,
            None => self.select_case(env, &mut path[..], 0, line.syntax),
        };
        path[0].case = case;
        let pieces = plans.get(self, leaf, case, line.syntax);
        let case = &self.leaves[leaf as usize].cases[case as usize];
        for piece in pieces {
            if !piece.text.is_empty() {
                out.push_str(piece.text);
            }
            match &piece.then {
                Then::Nothing => {}
                Then::Column => line.pad(out),
                &Then::Scalar { ranges, signed, ty, width } => {
                    format_value(self, ty, bits_value(env.bits, ranges, signed), width, out)
                }
                Then::Operand(op) => {
                    if let Some(memo) = line.memo.as_deref_mut()
                        && let Some(text) = self.kept_text(env, path, op, memo)
                    {
                        text.push_to(out);
                        continue;
                    }
                    let mut args = Args::NONE;
                    match line.memo.as_deref_mut().and_then(|m| self.operand_key(env, path, op, m, &mut args)) {
                        Some((key, at)) => self.print_operand(env, path, op, (key, at, args), out, line),
                        None => self.print_field(env, path, 0, case, op.field, out, line),
                    }
                }
                &Then::Field(i) => self.print_field(env, path, 0, case, i, out, line),
            }
        }
    }

    /// The text remembered for operand `op` of the instruction at
    /// `path[0]` when every parameter its word reads is a constant of the
    /// piece: the combination of its key less the word is then the same as
    /// the last time these were read, and so are its cells, which the
    /// piece keeps (what [`Memo::get`] finds for the whole key, without
    /// building the key).
    fn kept_text<'m>(
        &self,
        env: &Env<'_>,
        path: &[Step; MAX_DEPTH],
        op: &Operand,
        memo: &'m mut Memo,
    ) -> Option<Text<'m>> {
        let at = path[0].child(op.ranges)?;
        let word = place(at).word(env.bits, self.groups[op.group as usize].bits);
        let reads = memo.reads(self, op.group, word);
        if reads & !op.consts != 0 || !memo.remembers(op.group) {
            return None;
        }
        let kept = op.cells.get();
        let start = if kept != Operand::NO_CELLS && kept as u8 == reads {
            (kept >> 8) as u32
        } else {
            let mut args = Args::NONE;
            let combo = self.key_of(op.group, 1, 0, reads, &mut args, |i| match op.args.get(i) {
                Some(&Arg::Const(x)) => x,
                _ => 0,
            })?;
            let start = memo.cells_of(&combo)?;
            op.cells.set(reads as u64 | (start as u64) << 8);
            start
        };
        memo.cell_text(op.group, start, word)
    }

    /// The key operand `op` of the instruction at `path[0]` is remembered
    /// under, if it fits one, and where the operand sits; `None` when the
    /// operand is not remembered. The parameters evaluated for the key are
    /// kept in `args`.
    fn operand_key(
        &self,
        env: &mut Env<'_>,
        path: &[Step; MAX_DEPTH],
        op: &Operand,
        memo: &mut Memo,
        args: &mut Args,
    ) -> Option<(Option<Key>, At)> {
        if !memo.remembers(op.group) {
            return None;
        }
        let at = path[0].child(op.ranges)?;
        let g = &self.groups[op.group as usize];
        let word = place(at).word(env.bits, g.bits);
        let reads = memo.reads(self, op.group, word);
        let key = self.key_of(op.group, 1, word, reads, args, |i| match op.args.get(i) {
            Some(&Arg::Const(x)) => x,
            Some(&Arg::Bits { ranges, signed }) => bits_value(env.bits, ranges, signed),
            Some(&Arg::Expr(e)) => env.eval(&path[..1], e),
            None => 0,
        });
        Some((key, at))
    }

    /// Prints operand `op` of the instruction at `path[0]`, remembered
    /// under `key` (if it fits one) and sitting at `at`: from memory when
    /// its text is there, else from the tables (and remembered).
    fn print_operand(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        op: &Operand,
        (key, at, args): (Option<Key>, At, Args),
        out: &mut String,
        line: &mut Line<'_>,
    ) {
        if let Some(text) = key.as_ref().zip(line.memo.as_deref_mut()).and_then(|(k, m)| m.get(k)) {
            text.push_to(out);
            return;
        }
        self.print_nested(env, path, 0, (op.group, op.field, at), (key, args), out, line);
    }

    /// Prints the operand of `group` in field `via` of the case chosen at
    /// `depth`, sitting at `at`, and remembers its text under `key`; `args`
    /// holds the parameters already evaluated for the key.
    #[allow(clippy::too_many_arguments)]
    fn print_nested(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        (group, via, at): (u16, u16, At),
        (key, args): (Option<Key>, Args),
        out: &mut String,
        line: &mut Line<'_>,
    ) {
        let start = out.len();
        if self.print_simple(env, (group, at), out, line) {
            if let (Some(key), Some(memo)) = (key, &mut line.memo) {
                memo.put(key, &out[start..]);
            }
            return;
        }
        // Its parameters, for every read while it is printed. The reads
        // of those above go on to the depth above when it is done (what a
        // template of it depends on).
        let outer = env.given;
        let inner = self.given(env, &path[..=depth], via, args);
        let marked = env.given.read;
        env.given = inner;
        // Without a key, a parameter too wide for one may still leave it a
        // template's (see `crate::wide`); one not printed before is printed
        // from the tables, noting where its parameters' values went and
        // which of them it read.
        let template = match (&key, line.memo.as_deref_mut()) {
            (None, Some(memo)) if memo.recording.is_none() && memo.remembers(group) => {
                if inner.depth as usize == depth + 1 {
                    let word = place(at).word(env.bits, self.groups[group as usize].bits);
                    let reads = memo.reads(self, group, word);
                    Some((group, depth + 1, word, reads))
                } else {
                    None
                }
            }
            (_, Some(memo)) => {
                // Parameters read where a template cannot see them.
                if inner.depth == u8::MAX
                    && let Some(rec) = &mut memo.recording
                {
                    rec.spoiled = true;
                }
                None
            }
            _ => None,
        };
        if let (Some(t), Some(memo)) = (template, line.memo.as_deref_mut())
            && let Some((text, holes, read)) = memo.template(self, t, &inner.values)
        {
            let mut from = 0;
            for h in holes {
                out.push_str(text.get(from..h.at as usize).unwrap_or_default());
                format_value(self, h.ty, inner.values[h.param as usize], h.width, out);
                from = h.at as usize;
            }
            out.push_str(text.get(from..).unwrap_or_default());
            env.given.read = read;
        } else {
            // Noted only where a template can be kept (no parameter too
            // wide for a key but those its forms only compare and print),
            // as noting prints the nested operands without memory.
            if let (Some(t), Some(memo)) = (template, line.memo.as_deref_mut())
                && memo.templatable(self, t, &inner.values)
            {
                memo.recording = Some(Recording { depth: depth + 1, start, holes: Vec::new(), spoiled: false });
            }
            let picked = match line.memo.as_deref_mut() {
                Some(memo) => self.pick_form(env, path, depth + 1, (group, at, via), memo),
                None => self.pick_leaf(env, &mut path[..], depth + 1, group, at, via),
            };
            if picked.is_some() {
                self.print_leaf(env, path, depth + 1, out, line);
                if let (Some(key), Some(memo)) = (key, &mut line.memo) {
                    memo.put(key, &out[start..]);
                }
            } else {
                // Decode already rejected this; printing stays total anyway.
                out.push('?');
            }
            if let (Some(t), Some(memo)) = (template, line.memo.as_deref_mut())
                && let Some(rec) = memo.recording.take()
                && picked.is_some()
                && !rec.spoiled
            {
                rec.keep(self, t, &inner.values, env.given.read, &out[start..], memo);
            }
        }
        let read = env.given.passed_read();
        env.given = outer;
        env.given.read = marked | read;
    }

    /// [`Isa::pick_leaf`] for a printer that remembers: the search for the
    /// form of `group` sitting at `at` starts past the candidates it turned
    /// down before for the same word and parameters (see
    /// [`crate::form_starts`]). The parameters are those [`Isa::given`] set
    /// for `depth`; without them (more than a [`Given`] holds) the search
    /// starts at the first candidate, as [`Isa::pick_leaf`]'s does.
    fn pick_form(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        (group, at, via): (u16, At, u16),
        memo: &mut Memo,
    ) -> Option<u16> {
        let Some(d) = self.dispatch.filter(|_| env.given.depth as usize == depth) else {
            // Which parameters this search reads is not told.
            if let Some(rec) = &mut memo.recording {
                rec.spoiled = true;
            }
            return self.pick_leaf(env, &mut path[..], depth, group, at, via);
        };
        let place = Step { leaf: 0, case: 0, base: at.0, via, map: at.1 };
        let word = place.word(env.bits, self.groups[group as usize].bits);
        let leaves = d.candidates(group, word);
        let start = memo.starts.start(group, word, &env.given);
        let (taken, read) =
            self.first_form_from(env, &mut path[..], (depth, group, place), leaves, start.from as usize)?;
        if start.from > 0 {
            memo.starts.skipped += 1;
        }
        if taken > start.from as usize {
            memo.starts.learn(group, word, Start::new(start.read | read, &env.given, taken as u16));
        }
        // The taken candidate's reads are in `env.given.read`; the choice
        // also read what turned down those before it, this time or before.
        env.given.read |= start.read | read;
        leaves.get(taken).copied()
    }

    /// Prints the operand of `group` sitting at `at` from its form's pieces
    /// when they print it whole (see [`crate::print_plan::NestedPlans`]):
    /// the form is the first candidate for the word that matches it, and
    /// the group has no parameters, so the word alone chooses and prints
    /// it. False, having printed nothing, when the tables must (a candidate
    /// up to it with conditions or a length of its own, or a form of
    /// another kind).
    fn print_simple(&self, env: &Env<'_>, (group, at): (u16, At), out: &mut String, line: &mut Line<'_>) -> bool {
        let (Some(memo), Some(d)) = (line.memo.as_deref_mut(), self.dispatch) else { return false };
        let g = &self.groups[group as usize];
        if !g.params.is_empty() {
            return false;
        }
        let word = place(at).word(env.bits, g.bits);
        let mut form = None;
        for &l in d.candidates(group, word) {
            let leaf = &self.leaves[l as usize];
            if !leaf.exists_in(env.gen_) {
                continue;
            }
            // A form of its own length reads its identifying bits on its
            // own bits only (see `Isa::masked_to_length`): the tables judge.
            if leaf.length.is_some() {
                return false;
            }
            if word & leaf.mask != leaf.value {
                continue;
            }
            if !leaf.requires.is_empty() {
                return false;
            }
            form = Some(l);
            break;
        }
        let Some(pieces) = form.and_then(|l| memo.forms.get(self, l, env.gen_, line.syntax)) else { return false };
        for piece in pieces {
            out.push_str(piece.text);
            if let &Then::Scalar { ranges, signed, ty, width } = &piece.then {
                format_value(self, ty, bits_value(word, ranges, signed), width, out);
            }
        }
        memo.forms.printed += 1;
        true
    }

    /// The parameters field `via` of the leaf at the end of `parent` passes
    /// to its operand, as [`Env::param`] reads them (those in `args`
    /// already evaluated): all of them, or nothing when they are more than
    /// a [`Given`] holds.
    fn given(&self, env: &mut Env<'_>, parent: &[Step], via: u16, mut args: Args) -> Given {
        let Some(&step) = parent.last() else { return Given::NONE };
        let field = &self.leaves[step.leaf as usize].cases[step.case as usize].fields[via as usize];
        let Ty::Group { params, .. } = field.ty else { return Given::NONE };
        if params.len() > Given::MAX {
            return Given::NONE;
        }
        let case = &self.leaves[step.leaf as usize].cases[step.case as usize];
        let above = env.given.depth as usize + 1 == parent.len();
        let mut passed = [u8::MAX; Given::MAX];
        for (i, &e) in params.iter().enumerate() {
            // A parameter passed down unchanged is the value above, read
            // there only where the operand reads it (see `Given::passed`).
            if above
                && args.have >> i & 1 == 0
                && let Some(q) = crate::wide::passed(case, e).filter(|&q| (q as usize) < Given::MAX)
            {
                args.values[i] = env.given.values[q as usize];
                args.have |= 1 << i;
                passed[i] = q as u8;
                continue;
            }
            args.get(i, || env.eval(parent, e));
        }
        Given { depth: parent.len() as u8, values: args.values, read: 0, passed }
    }

    /// The assembly text of `inst`.
    pub fn print(&self, inst: &Inst, gen_: u32) -> String {
        let mut s = String::new();
        self.print_to(inst, gen_, &mut s);
        s
    }

    /// The assembly text of `inst` in the syntax `opts` names.
    pub fn print_in(&self, inst: &Inst, gen_: u32, opts: PrintOpts) -> String {
        let mut s = String::new();
        self.print_with(inst, gen_, opts, &mut s);
        s
    }

    /// Disassembles one word: its text, or the target's raw form when nothing
    /// matches (as Mesa's disassembler does), or the decode error.
    pub fn disassemble(&self, bits: Bits, gen_: u32) -> Result<String, crate::DecodeError> {
        match self.decode(bits, gen_) {
            Ok(inst) => Ok(self.print(&inst, gen_)),
            Err(e) => match &self.raw {
                Some(raw) => Ok(format_raw(raw, bits & mask_of(0, raw.bits))),
                None => Err(e),
            },
        }
    }

    fn print_leaf(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        out: &mut String,
        line: &mut Line<'_>,
    ) {
        let case = self.select_case(env, &mut path[..], depth, line.syntax);
        path[depth].case = case;
        let leaf = &self.leaves[path[depth].leaf as usize];
        let case = &leaf.cases[case as usize];
        for tok in case.display_in(line.syntax) {
            match *tok {
                Tok::Lit(s) | Tok::Opt(s) => out.push_str(s),
                Tok::Name => out.push_str(leaf.name_in(line.syntax)),
                Tok::Column => line.pad(out),
                Tok::Field(i) => self.print_field(env, path, depth, case, i, out, line),
                Tok::OptField(s, i, _) => {
                    out.push_str(s);
                    self.print_field(env, path, depth, case, i, out, line);
                }
            }
        }
    }

    /// Prints field `i` of the case chosen at `depth`.
    #[allow(clippy::too_many_arguments)]
    fn print_field(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        case: &crate::Case,
        i: u16,
        out: &mut String,
        line: &mut Line<'_>,
    ) {
        let field = &case.fields[i as usize];
        if let (Ty::Group { group, params }, Src::Bits(ranges)) = (field.ty, field.src) {
            let at = path[depth].child(ranges).filter(|_| depth + 1 < MAX_DEPTH);
            let mut args = Args::NONE;
            // While a template is being noted, a nested text is printed
            // whole, so that every value of a parameter it prints is seen.
            let key = match (&mut line.memo, at) {
                (Some(memo), Some(at)) if memo.remembers(group) && memo.recording.is_none() => {
                    let at = Step { via: i, ..place(at) };
                    let word = at.word(env.bits, self.groups[group as usize].bits);
                    let reads = memo.reads(self, group, word);
                    let key = self.memo_key(env, &path[..=depth], (group, params), word, reads, &mut args);
                    if let Some(text) = key.as_ref().and_then(|k| memo.get(k)) {
                        text.push_to(out);
                        return;
                    }
                    key
                }
                _ => None,
            };
            match at {
                Some(at) => self.print_nested(env, path, depth, (group, i, at), (key, args), out, line),
                None => out.push('?'),
            }
            return;
        }
        let v = env.field(&path[..=depth], i);
        let width = match field.ty {
            Ty::Float { format: Some(e) } => env.eval(&path[..=depth], e) as u32,
            _ => field.width().unwrap_or(64),
        };
        let before = out.len();
        format_value(self, field.ty, v, width, out);
        if let Some(memo) = line.memo.as_deref_mut()
            && let Some(rec) = &mut memo.recording
            && let Some(param) = self.passed_down(path, (rec.depth, depth), case, field)
        {
            rec.holes.push((before..out.len(), Hole { at: 0, param: param as u8, ty: field.ty, width }));
        }
    }

    /// The parameter of the operand at `top` of `path` that `field` (of
    /// `case`, chosen at `depth`) is, passed down unchanged through the
    /// fields between (GCN's `{LIT}` of a scalar source's literal form,
    /// the literal of the vector source holding it): its value is that
    /// parameter's, whatever the parameter's value.
    fn passed_down(
        &self,
        path: &[Step; MAX_DEPTH],
        (top, depth): (usize, usize),
        case: &crate::Case,
        field: &crate::Field,
    ) -> Option<u16> {
        let mut q = match field.src {
            Src::Param(q) => q,
            Src::Expr(e) => crate::wide::passed(case, e)?,
            Src::Bits(_) => return None,
        };
        let mut d = depth;
        while d > top {
            let (child, parent) = (path[d], path[d - 1]);
            let pcase = &self.leaves[parent.leaf as usize].cases[parent.case as usize];
            let Ty::Group { params, .. } = pcase.fields.get(child.via as usize)?.ty else { return None };
            q = crate::wide::passed(pcase, params.get(q as usize)?)?;
            d -= 1;
        }
        (d == top).then_some(q)
    }

    /// The text field `show` of encoding `leaf` prints when field `set` holds
    /// `value` and every other field is zero: how a builder writes an option
    /// (` clamp`, `(sy)`, ` offset:16`) without knowing its syntax.
    pub fn field_text(&self, leaf: u16, set: &str, value: i64, show: &str, gen_: u32) -> Result<String, String> {
        let bits = crate::Builder::for_leaf(self, leaf).set(set, value).map_err(|e| e.to_string())?.bits();
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(leaf, 0); MAX_DEPTH];
        let ci = self.select_case(&mut env, &mut path[..], 0, 0);
        path[0].case = ci;
        let case = &self.leaves[leaf as usize].cases[ci as usize];
        let i = case.fields.iter().position(|f| f.name == show).ok_or_else(|| format!("no field {show}"))?;
        let mut out = String::new();
        let mut line = Line { syntax: 0, column: 0, start: 0, memo: None };
        self.print_field(&mut env, &mut path, 0, case, i as u16, &mut out, &mut line);
        Ok(out)
    }

    /// What the text of an operand whose word is `word` depends on (see
    /// [`crate::memo`]), if it fits a key: the values of the parameters it
    /// `reads` (bit `i` for parameter `i`) that its field passes in,
    /// evaluated at `parent` (and kept in `args`); the others are left zero.
    fn memo_key(
        &self,
        env: &mut Env<'_>,
        parent: &[Step],
        (group, params): (u16, &[crate::Expr]),
        word: crate::Bits,
        reads: u8,
        args: &mut Args,
    ) -> Option<Key> {
        self.key_of(group, parent.len(), word, reads, args, |i| params.get(i).map_or(0, |&e| env.eval(parent, e)))
    }

    /// The key of an operand of `group` at `depth` whose word is `word`,
    /// if it fits one: the parameters it `reads` (bit `i` for parameter
    /// `i`) valued by `value` (0 for those the field does not pass, as
    /// `Env::param` reads them) and kept in `args`; the others zero. The
    /// first value too wide for a key ends the search.
    fn key_of(
        &self,
        group: u16,
        depth: usize,
        word: crate::Bits,
        reads: u8,
        args: &mut Args,
        mut value: impl FnMut(usize) -> i64,
    ) -> Option<Key> {
        let mut values = [0; MAX_PARAMS];
        let values = values.get_mut(..self.groups[group as usize].params.len())?;
        for (i, v) in values.iter_mut().enumerate() {
            if reads & 1 << i != 0 {
                *v = args.get(i, || value(i));
                if !Key::holds(*v) {
                    return None;
                }
            }
        }
        Key::new(group, depth, word, values)
    }
}

/// An operand's parameter values as far as they have been evaluated:
/// `values[i]` is parameter `i`'s when bit `i` of `have` is set. The key
/// under which a printer remembers an operand's text needs some of them,
/// and printing it, when the text is not there, needs them all.
#[derive(Clone, Copy)]
struct Args {
    values: [i64; Given::MAX],
    have: u8,
}

impl Args {
    const NONE: Args = Args { values: [0; Given::MAX], have: 0 };

    /// Parameter `i`'s value, from `value` the first time (`i` below
    /// [`Given::MAX`]; any other is not kept).
    fn get(&mut self, i: usize, value: impl FnOnce() -> i64) -> i64 {
        if i >= Given::MAX {
            return value();
        }
        if self.have & 1 << i == 0 {
            self.values[i] = value();
            self.have |= 1 << i;
        }
        self.values[i]
    }
}

/// Prints many instructions of one generation in one syntax, remembering the
/// text of each operand it prints (the runtime's `memo` module says how): a
/// disassembler over real code prints the same registers and constants again
/// and again. Each instruction case it prints is resolved once into the
/// pieces it prints from after (the `print_plan` module). The text is the
/// same as [`Isa::print_with`]'s.
pub struct Printer<'a> {
    isa: &'a Isa,
    gen_: u32,
    opts: PrintOpts,
    memo: Memo,
    plans: PrintPlans,
    /// The scope of the operand being printed, kept from line to line
    /// rather than set up whole for each.
    path: [Step; MAX_DEPTH],
}

impl Printer<'_> {
    /// Appends the assembly text of `inst` to `out`.
    pub fn print_to(&mut self, inst: &Inst, out: &mut String) {
        self.isa.print_line(inst, self.gen_, self.opts, Some((&mut self.memo, &mut self.plans)), &mut self.path, out);
    }

    /// The case `inst` prints by: the one its leaf always prints, or the
    /// one its bits choose.
    pub(crate) fn case_of(&mut self, inst: &Inst) -> u16 {
        let isa = self.isa;
        if let Some(c) = self.plans.case(isa, inst.leaf, self.gen_, self.opts.syntax) {
            return c;
        }
        let mut env = Env { isa, bits: inst.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        self.path[0] = Step::top(inst.leaf, 0);
        isa.select_case(&mut env, &mut self.path[..], 0, self.opts.syntax)
    }

    /// Appends to `out`, which holds the line `inst` prints up to piece `k`
    /// of case `case` (what [`Printer::case_of`] gives), what the printer
    /// prints there when that piece is an operand; false when it is not.
    /// The operand is printed as its field, through the printer's memory
    /// or the tables, which is the text its piece prints either way (see
    /// [`crate::print_plan`]).
    pub(crate) fn operand_piece(&mut self, inst: &Inst, case: u16, k: usize, out: &mut String) -> bool {
        let isa = self.isa;
        let pieces = self.plans.get(isa, inst.leaf, case, self.opts.syntax);
        let Some(&Then::Operand(Operand { field, .. })) = pieces.get(k).map(|p| &p.then) else { return false };
        let mut env = Env { isa, bits: inst.bits, gen_: self.gen_, read: 0, given: Given::NONE };
        self.path[0] = Step { case, ..Step::top(inst.leaf, 0) };
        let column = isa.column(self.opts);
        let mut line = Line { syntax: self.opts.syntax, column, start: 0, memo: Some(&mut self.memo) };
        let c = &isa.leaves[inst.leaf as usize].cases[case as usize];
        isa.print_field(&mut env, &mut self.path, 0, c, field, out, &mut line);
        true
    }

    /// The parameters the text of an operand of group `g` whose word is
    /// `word` may read (bit `i` for parameter `i`), when that text is a
    /// function of the word and those alone (what this printer remembers
    /// operand texts by); `None` for a group whose texts are not.
    pub(crate) fn operand_reads(&mut self, g: u16, word: Bits) -> Option<u8> {
        self.memo.remembers(g).then(|| self.memo.reads(self.isa, g, word))
    }

    /// How many operand texts came from memory rather than being printed.
    pub fn hits(&self) -> u64 {
        self.memo.hits
    }

    /// How many operands were printed from a template: a text remembered
    /// for every value of a parameter too wide to remember in one interval
    /// of it (see `crate::wide`).
    pub fn templated(&self) -> u64 {
        self.memo.templated
    }

    /// How many operands not in memory were printed from their form's
    /// resolved pieces rather than from the tables.
    pub fn forms_printed(&self) -> u64 {
        self.memo.forms.printed
    }

    /// How many operands printed from the tables had the search for their
    /// form start past candidates turned down before for the same word
    /// and parameters: those whose text reads a parameter too wide to
    /// remember (a literal dword).
    pub fn form_searches_resumed(&self) -> u64 {
        self.memo.starts.skipped
    }
}

/// Where an operand sits in the instruction word: its first bit, and the
/// bits its parent gathers (see [`Step::child`]).
type At = (u32, &'static [crate::Range]);

/// Where an operand of a field sits, as a step without its leaf chosen yet.
fn place(at: At) -> Step {
    Step { leaf: 0, case: 0, base: at.0, via: 0, map: at.1 }
}

/// Where a line is being printed: its syntax, the column `{|}` pads to (0:
/// no padding) counted from `start` in the output, and the operand texts
/// remembered, if any.
struct Line<'m> {
    syntax: u16,
    column: usize,
    start: usize,
    memo: Option<&'m mut Memo>,
}

/// What printing an operand from the tables showed of its template: the
/// depth of its form in the path, where its text starts in the output, and
/// where each value of a parameter passed down to it was printed.
pub(crate) struct Recording {
    depth: usize,
    start: usize,
    holes: Vec<(std::ops::Range<usize>, Hole)>,
    /// Whether a parameter was read where the template's reads are not
    /// told (a nested operand with more parameters than a [`Given`]
    /// holds): then it is not kept.
    spoiled: bool,
}

impl Recording {
    /// Keeps `text`, the operand's (from [`Recording::start`]), as the
    /// template of operand `t` (see [`Memo::template`]), whose parameters'
    /// values are `values` and which read those of them in `read`: the
    /// values printed left out, their places noted.
    fn keep(self, isa: &Isa, t: crate::memo::Operand, values: &[i64], read: u8, text: &str, memo: &mut Memo) {
        let mut kept = String::with_capacity(text.len());
        let mut holes = Vec::with_capacity(self.holes.len());
        let mut from = 0;
        for (range, mut hole) in self.holes {
            let (Some(start), Some(end)) = (range.start.checked_sub(self.start), range.end.checked_sub(self.start))
            else {
                return;
            };
            let Some(before) = text.get(from..start).filter(|_| end <= text.len()) else { return };
            kept.push_str(before);
            hole.at = kept.len().try_into().unwrap_or(u8::MAX);
            holes.push(hole);
            from = end;
        }
        kept.push_str(text.get(from..).unwrap_or_default());
        memo.put_template(isa, t, values, read, &kept, &holes);
    }
}

impl Line<'_> {
    /// Pads the line to its mnemonic column.
    fn pad(&self, out: &mut String) {
        let used = out[self.start..].chars().count();
        out.extend(std::iter::repeat_n(' ', self.column.saturating_sub(used) + 1));
    }
}

/// Formats a scalar field value by its type.
pub(crate) fn format_value(isa: &Isa, ty: Ty, v: i64, width: u32, out: &mut String) {
    match ty {
        Ty::Uint | Ty::UintSat | Ty::Group { .. } => push_dec(out, v as u64 & width_mask(width)),
        Ty::Int => push_signed(out, v),
        Ty::Hex => push_hex(out, v as u64 & width_mask(width), 1),
        Ty::HexLit { .. } => push_hexlit(out, v as u64 & width_mask(width)),
        Ty::Bool { on, inverted } => {
            if (v != 0) != inverted {
                out.push_str(on);
            }
        }
        Ty::Offset => {
            if v > 0 {
                out.push('+');
            }
            if v != 0 {
                push_signed(out, v);
            }
        }
        Ty::UOffset => {
            if v != 0 {
                out.push('+');
                push_dec(out, v as u64 & width_mask(width));
            }
        }
        Ty::Float { .. } => format_float(v as u64 & width_mask(width), width, out),
        Ty::Enum(e) => match isa.enums[e as usize].values.iter().find(|x| x.value as i64 == v) {
            Some(x) => out.push_str(x.display),
            None => push_signed(out, v),
        },
    }
}

fn width_mask(width: u32) -> u64 {
    if width >= 64 { !0 } else { (1u64 << width) - 1 }
}

/// C's `%f` when it reads back to the same bits, else `0x` and the raw bits, so
/// that printing never loses information.
pub(crate) fn format_float(raw: u64, width: u32, out: &mut String) {
    let value = match width {
        16 => f16_to_f32(raw as u16) as f64,
        32 => f32::from_bits(raw as u32) as f64,
        64 => f64::from_bits(raw),
        _ => {
            push_hexlit(out, raw);
            return;
        }
    };
    // A NaN or an infinity prints as its bits: the assembler reads numbers,
    // not `NaN` or `inf` (and a NaN's payload would not survive the name).
    if !value.is_finite() {
        push_hexlit(out, raw);
        return;
    }
    let text = format!("{value:.6}");
    let back =
        if width == 64 { text.parse::<f64>().ok().map(f64::to_bits) } else { crate::parse::float_bits(&text, width) };
    if back == Some(raw) {
        out.push_str(&text);
    } else {
        push_hexlit(out, raw);
    }
}

/// Formats the raw form of an undecodable word.
pub(crate) fn format_raw(raw: &crate::RawSyntax, bits: Bits) -> String {
    let digits = (raw.bits as usize).div_ceil(4);
    if raw.uppercase { format!("{}{bits:0digits$X}", raw.prefix) } else { format!("{}{bits:0digits$x}", raw.prefix) }
}

/// IEEE half to single, exactly.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = match (exp, frac) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = frac * 2^-24.
            let v = frac as f32 * f32::from_bits(0x3380_0000); // 2^-24
            return if sign != 0 { -v } else { v };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => sign | 0x7fc0_0000 | (frac << 13),
        _ => sign | ((exp + 112) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_convert_exactly() {
        assert_eq!(f16_to_f32(0x3900), 0.625);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xbc00), -1.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(crate::parse::f32_to_f16_rne(f), h, "{h:#x}");
        }
    }

    #[test]
    fn floats_print_like_c_or_as_bits() {
        let mut s = String::new();
        format_float(0x3f00_0000, 32, &mut s);
        assert_eq!(s, "0.500000");
        s.clear();
        format_float(0xbfba_7736, 32, &mut s);
        assert_eq!(s, "-1.456763");
        s.clear();
        // 2^-24 in half precision prints as 0.000000 in %f, which would not read back.
        format_float(0x0001, 16, &mut s);
        assert_eq!(s, "0x1");
        // NaN and infinity as bits, which the assembler reads.
        for (raw, width, text) in [(0x7e00, 16, "0x7e00"), (0xfc00, 16, "0xfc00"), (0x7f80_0000, 32, "0x7f800000")] {
            s.clear();
            format_float(raw, width, &mut s);
            assert_eq!(s, text);
        }
    }
}
