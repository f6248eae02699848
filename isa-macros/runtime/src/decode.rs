//! Decoding: find the leaf whose identifying bits match, pick its case, and check
//! that every operand sub-encoding decodes too.

use crate::Inst;
use crate::bits::{Bits, mask_of};
use crate::direct::{Direct, Trusted, inst_of};
use crate::error::DecodeError;
use crate::eval::{Env, Given, Step};
use crate::logic::Logic;
use crate::tables::{Isa, Leaf, Range, Src, Ty};

impl Isa {
    /// Decodes one instruction from `bits` (bit 0 = least significant bit of the
    /// first byte in memory) for generation `gen_`. `bits` may run on into the
    /// next instruction: only the instruction's own length is kept.
    pub fn decode(&self, bits: Bits, gen_: u32) -> Result<Inst, DecodeError> {
        self.decoder(gen_).decode(bits)
    }

    /// The decoder of generation `gen_`, for decoding many words.
    pub fn decoder(&self, gen_: u32) -> Decoder<'_> {
        let plans = self.dispatch.map_or(&[][..], |d| d.plans_for(gen_));
        // Tables that fail their check (none the generator builds) decode
        // everything the general way.
        let direct = self.dispatch.and_then(|d| d.direct.trusted(d.class_of(gen_)));
        let direct = direct.or_else(|| EMPTY.trusted(0)).expect("the empty direct decoder's tables are valid");
        Decoder { isa: self, gen_, plans, direct, width: mask_of(0, self.groups[0].bits) }
    }

    /// Decodes through the precomputed tables, the reference code checking
    /// only what they leave to it (a check too wide to tabulate, such as a
    /// literal's value): `None` for a word they leave to the reference
    /// decoder whole (an invalid one, among others). Tests and benchmarks
    /// use it to see how much of an instruction set the tables cover.
    pub fn decode_by_tables(&self, bits: Bits, gen_: u32) -> Option<Inst> {
        let d = self.decoder(gen_);
        self.decode_fast(self.dispatch?, d.plans, bits & d.width, gen_)
    }

    /// Decodes through the direct decoder alone (see [`crate::Direct`]):
    /// `None` for a word it leaves to the general tables. Tests and
    /// benchmarks use it to see how much of an instruction set it covers.
    pub fn decode_direct(&self, bits: Bits, gen_: u32) -> Option<Inst> {
        let d = self.decoder(gen_);
        let word = (bits & d.width) as u64;
        d.direct.identify(word).map(|(leaf, len)| inst_of(leaf, len, word))
    }

    /// The reference decoder: scans the leaves in priority order and evaluates
    /// every condition, without the precomputed tables. [`Isa::decode`] gives
    /// the same results, faster; this is what the tables are checked against.
    pub fn decode_reference(&self, bits: Bits, gen_: u32) -> Result<Inst, DecodeError> {
        let width = self.groups[0].bits;
        let bits = bits & mask_of(0, width);
        let leaf = self.select_instruction(bits, gen_).ok_or(DecodeError::NoMatch { bits, width })?;
        let len_bits = self.length_of(leaf, bits, gen_)?;
        self.checked(leaf, len_bits, bits, gen_, false)
    }

    /// What [`Isa::decode_reference`] says of a word the tables leave to it
    /// (an invalid one, among others), the instruction picked among the
    /// decision tree's candidates and its operands' forms through the
    /// trees. The same answer: the candidates are every leaf whose
    /// identifying bits may match, in priority order. Scanning every leaf
    /// of GCN (each variable length evaluated) took some 30 microseconds a
    /// word, which a disassembler met on every invalid word of its input.
    fn decode_generally(&self, bits: Bits, gen_: u32) -> Result<Inst, DecodeError> {
        let width = self.groups[0].bits;
        let bits = bits & mask_of(0, width);
        let leaf = self.pick_instruction(bits, gen_).ok_or(DecodeError::NoMatch { bits, width })?;
        let len_bits = self.length_of(leaf, bits, gen_)?;
        self.checked(leaf, len_bits, bits, gen_, true)
    }

    /// [`Isa::select_instruction`] through the decision tree, when there is
    /// one.
    fn pick_instruction(&self, bits: Bits, gen_: u32) -> Option<u16> {
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(0, 0)];
        self.pick_leaf(&mut env, &mut path, 0, 0, (0, &[]), 0)
    }

    /// The instruction `leaf`, `len_bits` long, of the word `bits`, once its
    /// operands are checked (`fast`: their forms chosen through the trees).
    fn checked(&self, leaf: u16, len_bits: u32, bits: Bits, gen_: u32, fast: bool) -> Result<Inst, DecodeError> {
        let inst = Inst { leaf, len: (len_bits / 8) as u8, bits: bits & mask_of(0, len_bits) };
        let mut path = [Step::top(leaf, 0); MAX_DEPTH];
        self.check_leaf(&inst, gen_, &mut path, 0, fast)?;
        Ok(inst)
    }

    /// The length in bits of an encoding of `leaf` whose first bits are `bits`.
    pub fn length_of(&self, leaf: u16, bits: Bits, gen_: u32) -> Result<u32, DecodeError> {
        let l = &self.leaves[leaf as usize];
        let Some(e) = l.length else { return Ok(l.bits) };
        let mut env = Env { isa: self, bits: bits & mask_of(0, l.min_bits), gen_, read: 0, given: Given::NONE };
        let path = [Step::top(leaf, (l.cases.len() - 1) as u16)];
        let n = env.eval(&path, e);
        if n < l.min_bits as i64 || n > l.bits as i64 || n % 8 != 0 {
            return Err(DecodeError::BadLength { leaf: l.key, bits: n });
        }
        Ok(n as u32)
    }

    /// Decodes from bytes in memory order; returns the instruction and its length.
    pub fn decode_bytes(&self, bytes: &[u8], gen_: u32) -> Result<(Inst, usize), DecodeError> {
        self.decoder(gen_).decode_bytes(bytes)
    }

    /// Whether the `requires` conditions of `leaf` hold for an encoding whose
    /// first bits are `bits` (the reference semantics the tables tabulate).
    pub fn requires_hold(&self, leaf: u16, bits: Bits, gen_: u32) -> bool {
        let Some(l) = self.leaves.get(leaf as usize) else { return false };
        l.requires.iter().all(|r| self.condition_holds(leaf, r, bits, gen_))
    }

    /// Whether condition `cond` over the default case's fields of instruction
    /// `leaf` holds for the encoding `bits` (as `requires:` is evaluated).
    pub fn condition_holds(&self, leaf: u16, cond: crate::Expr, bits: Bits, gen_: u32) -> bool {
        let Some(l) = self.leaves.get(leaf as usize) else { return false };
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let path = [Step::top(leaf, (l.cases.len() - 1) as u16)];
        env.eval(&path, cond) != 0
    }

    /// The value of expression `e` at the end of the scope chain `path`
    /// (an instruction, then the operand sub-encodings down to the one `e`
    /// belongs to) for the encoding `bits`: what decoding computes there.
    pub fn eval_at(&self, path: &[Step], e: crate::Expr, bits: Bits, gen_: u32) -> i64 {
        Env { isa: self, bits, gen_, read: 0, given: Given::NONE }.eval(path, e)
    }

    /// Whether the enum fields and operand sub-encodings of `leaf`'s case in
    /// force hold values the spec describes, for the encoding `bits` (the
    /// reference semantics the tables tabulate).
    pub fn operands_hold(&self, leaf: u16, bits: Bits, gen_: u32) -> bool {
        let Some(l) = self.leaves.get(leaf as usize) else { return false };
        let inst = Inst { leaf, len: (l.bits / 8) as u8, bits };
        let mut path = [Step::top(leaf, 0); MAX_DEPTH];
        self.check_leaf(&inst, gen_, &mut path, 0, true).is_ok()
    }

    /// The case of instruction `leaf` in force for the encoding `bits` (the
    /// reference semantics the decoding tables tabulate).
    pub fn case_in_force(&self, leaf: u16, bits: Bits, gen_: u32) -> u16 {
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(leaf, 0)];
        self.select_case(&mut env, &mut path, 0, 0)
    }

    /// Whether field `field` of case `case` of instruction `leaf` holds a value
    /// the spec describes (a named enum value, a valid operand form), for the
    /// encoding `bits` (the reference semantics the decoding tables tabulate).
    pub fn operand_holds(&self, leaf: u16, case: u16, field: usize, bits: Bits, gen_: u32) -> bool {
        let Some(l) = self.leaves.get(leaf as usize) else { return false };
        if l.cases.get(case as usize).is_none_or(|c| field >= c.fields.len()) {
            return false;
        }
        let inst = Inst { leaf, len: (l.bits / 8) as u8, bits };
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(leaf, case); MAX_DEPTH];
        self.check_field(&mut env, &inst, &mut path, 0, field, true).is_ok()
    }

    /// Width of the shortest instruction, in bits.
    pub fn min_bits(&self) -> u32 {
        self.groups[0].leaves.iter().map(|&l| self.leaves[l as usize].min_bits).min().unwrap_or(self.groups[0].bits)
    }

    /// The form of `group` at `at` (a bit offset, and the ranges of a split
    /// field, see [`Step`]) that the word holds: the first, in priority order,
    /// whose identifying bits match and whose `requires` conditions hold (they
    /// may read the enclosing encoding's params through `path`, whose step
    /// `depth` this sets). Scans every form and records the bits it read in
    /// `env.read` (the assembler's solver needs them).
    pub(crate) fn select_leaf(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        depth: usize,
        group: u16,
        at: (u32, &'static [Range]),
        via: u16,
    ) -> Option<u16> {
        let place = Step { leaf: 0, case: 0, base: at.0, via, map: at.1 };
        self.first_form(env, path, (depth, group, place), self.groups[group as usize].leaves, true, None)
    }

    /// Whether [`Isa::select_leaf`] would pick `leaf`, given that its own
    /// `requires` conditions hold: no form before it holds, and its
    /// identifying bits match. The assembler checks those conditions apart,
    /// so this does not evaluate them twice.
    pub(crate) fn selects_before_requires(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        (depth, group, at, via): (usize, u16, (u32, &'static [Range]), u16),
        leaf: u16,
    ) -> bool {
        let place = Step { leaf: 0, case: 0, base: at.0, via, map: at.1 };
        let leaves = self.groups[group as usize].leaves;
        self.first_form(env, path, (depth, group, place), leaves, true, Some(leaf)) == Some(leaf)
    }

    /// [`Isa::select_leaf`] through the decision tree, when there is one,
    /// without recording the bits read.
    pub(crate) fn pick_leaf(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        depth: usize,
        group: u16,
        at: (u32, &'static [Range]),
        via: u16,
    ) -> Option<u16> {
        let Some(d) = self.dispatch else { return self.select_leaf(env, path, depth, group, at, via) };
        let place = Step { leaf: 0, case: 0, base: at.0, via, map: at.1 };
        let word = place.word(env.bits, self.groups[group as usize].bits);
        self.first_form(env, path, (depth, group, place), d.candidates(group, word), false, None)
    }

    /// The first of `leaves` (in priority order) that the word holds at
    /// `(depth, group, place)`; the search ends at `until`, whose `requires`
    /// are taken to hold.
    fn first_form(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        (depth, group, place): (usize, u16, Step),
        leaves: &[u16],
        track: bool,
        until: Option<u16>,
    ) -> Option<u16> {
        let word = place.word(env.bits, self.groups[group as usize].bits);
        for &l in leaves {
            match self.judge_form(env, path, (depth, group, place), word, l, track, until) {
                Judged::Takes => return Some(l),
                Judged::Ends => return None,
                Judged::Passes => {}
            }
        }
        None
    }

    /// [`Isa::first_form`] from `leaves[from]` on, not tracking the bits
    /// read, for a printer (see [`crate::form_starts`]): the index of the
    /// form taken, and the parameters of `env.given` read while turning
    /// down those before it.
    pub(crate) fn first_form_from(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        (depth, group, place): (usize, u16, Step),
        leaves: &[u16],
        from: usize,
    ) -> Option<(usize, u8)> {
        let word = place.word(env.bits, self.groups[group as usize].bits);
        let mut read = 0;
        for (i, &l) in leaves.iter().enumerate().skip(from) {
            env.given.read = 0;
            if let Judged::Takes = self.judge_form(env, path, (depth, group, place), word, l, false, None) {
                return Some((i, read));
            }
            read |= env.given.read;
        }
        None
    }

    /// Whether candidate `l` holds `word` at `(depth, group, place)` (see
    /// [`Isa::first_form`]), setting `path[depth]` to it when its bits
    /// match.
    #[allow(clippy::too_many_arguments)]
    fn judge_form(
        &self,
        env: &mut Env<'_>,
        path: &mut [Step],
        (depth, group, place): (usize, u16, Step),
        word: Bits,
        l: u16,
        track: bool,
        until: Option<u16>,
    ) -> Judged {
        let leaf = &self.leaves[l as usize];
        if !leaf.exists_in(env.gen_) {
            return Judged::Passes;
        }
        if track {
            env.read |= place.in_word(leaf.mask & mask_of(0, self.groups[group as usize].bits));
        }
        let own = self.masked_to_length(leaf, l, word, env.gen_);
        if Some(l) == until {
            return if own & leaf.mask == leaf.value { Judged::Takes } else { Judged::Ends };
        }
        if own & leaf.mask != leaf.value {
            return Judged::Passes;
        }
        path[depth] = Step { leaf: l, case: (leaf.cases.len() - 1) as u16, ..place };
        // An instruction's conditions read its own bits: past its length
        // they belong to the next instruction, and read as zero.
        let all = env.bits;
        if depth == 0 && own != word {
            env.bits = own;
        }
        let held = if track {
            leaf.requires.iter().all(|r| env.eval(&path[..=depth], r) != 0)
        } else {
            requires_hold(env, &path[..=depth], leaf)
        };
        env.bits = all;
        if held { Judged::Takes } else { Judged::Passes }
    }

    /// The instruction at the start of `bits`: the encoding the decoder picks,
    /// before checking its operands.
    pub fn select_instruction(&self, bits: Bits, gen_: u32) -> Option<u16> {
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(0, 0)];
        self.select_leaf(&mut env, &mut path, 0, 0, (0, &[]), 0)
    }

    /// `word` without the bits past the length a variable-length `leaf` gives
    /// it: its identifying bits and conditions past the shortest form read
    /// the form the word has (zero in a form too short to hold them).
    pub(crate) fn masked_to_length(&self, leaf: &crate::Leaf, l: u16, word: Bits, gen_: u32) -> Bits {
        if leaf.length.is_none() {
            return word;
        }
        match self.length_of(l, word, gen_) {
            Ok(n) => word & mask_of(0, n),
            Err(_) => word,
        }
    }

    /// Which case of the leaf at the end of `path` is in force, in syntax
    /// `syntax` (cases may be limited to some syntaxes).
    pub(crate) fn select_case(&self, env: &mut Env<'_>, path: &mut [Step], depth: usize, syntax: u16) -> u16 {
        let leaf = &self.leaves[path[depth].leaf as usize];
        let default = (leaf.cases.len() - 1) as u16;
        path[depth].case = default;
        for (i, case) in leaf.cases.iter().enumerate() {
            if case.parse_only || !case.applies_in(syntax) {
                continue;
            }
            match case.when {
                None => return i as u16,
                Some(e) => {
                    if env.eval(&path[..=depth], e) != 0 {
                        return i as u16;
                    }
                }
            }
        }
        default
    }

    fn check_leaf(
        &self,
        inst: &Inst,
        gen_: u32,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        fast: bool,
    ) -> Result<(), DecodeError> {
        let mut env = Env { isa: self, bits: inst.bits, gen_, read: 0, given: Given::NONE };
        let case = self.select_case(&mut env, &mut path[..], depth, 0);
        path[depth].case = case;
        let leaf = &self.leaves[path[depth].leaf as usize];
        for fi in 0..leaf.cases[case as usize].fields.len() {
            if let Err(e) = self.check_field(&mut env, inst, path, depth, fi, fast) {
                // A field whose bits the case ignores (a destination an
                // atomic without return does not write) says nothing: any
                // value is fine, even one no operand form has.
                let field = &leaf.cases[case as usize].fields[fi];
                let ignored = depth == 0
                    && matches!(field.src, Src::Bits(r) if {
                        let m = r.iter().fold(0, |m, x| m | mask_of(x.lo as u32, x.width as u32));
                        m & !self.ignored_bits(inst, gen_) == 0
                    });
                if !ignored {
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Checks field `fi` of the case in force at `path[depth]`: an enum value
    /// must have a name, an operand must be one of its forms (recursively).
    /// `fast` chooses forms through the decision trees.
    fn check_field(
        &self,
        env: &mut Env<'_>,
        inst: &Inst,
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        fi: usize,
        fast: bool,
    ) -> Result<(), DecodeError> {
        let leaf = &self.leaves[path[depth].leaf as usize];
        let field = &leaf.cases[path[depth].case as usize].fields[fi];
        if let (Ty::Enum(e), Src::Bits(ranges)) = (field.ty, field.src) {
            // A value the spec gives no name is not something we know how to
            // write: refuse it rather than print text that reads back wrong.
            let v = path[depth].extract(inst.bits, ranges) as u64;
            if !self.enums[e as usize].values.iter().any(|x| x.value == v) {
                return Err(DecodeError::BadEnum { leaf: leaf.key, field: field.name, value: v });
            }
            return Ok(());
        }
        let (Ty::Group { group, .. }, Src::Bits(ranges)) = (field.ty, field.src) else {
            return Ok(());
        };
        let bad = DecodeError::BadOperand { leaf: leaf.key, field: field.name };
        let Some(at) = path[depth].child(ranges) else { return Err(bad) };
        if depth + 1 >= MAX_DEPTH {
            return Err(bad);
        }
        let picked = if fast {
            self.pick_leaf(env, &mut path[..], depth + 1, group, at, fi as u16)
        } else {
            self.select_leaf(env, &mut path[..], depth + 1, group, at, fi as u16)
        };
        picked.ok_or(bad)?;
        self.check_leaf(inst, env.gen_, path, depth + 1, fast)
    }

    /// Reads a field of the instruction's chosen case by name (signed fields are
    /// sign-extended). Operand sub-encodings are returned as their raw bits.
    pub fn field(&self, inst: &Inst, gen_: u32, name: &str) -> Option<i64> {
        let mut env = Env { isa: self, bits: inst.bits, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(inst.leaf, 0)];
        let case = self.select_case(&mut env, &mut path, 0, 0);
        path[0].case = case;
        let idx = self.leaves[inst.leaf as usize].cases[case as usize].field_index(name)?;
        Some(env.field(&path, idx))
    }

    /// Bits of `inst` that its text does not represent in any syntax:
    /// don't-care bits of the encoding and of every operand, and the `ignore`
    /// bits of the cases chosen (those not limited to some syntaxes).
    pub fn ignored_bits(&self, inst: &Inst, gen_: u32) -> Bits {
        let mut path = [Step::top(inst.leaf, 0); MAX_DEPTH];
        self.ignored_in(inst.bits, gen_, (None, !0), &mut path, 0, &|_, _| None)
    }

    /// Bits of `inst` that its text in syntax `syntax` does not represent:
    /// [`Isa::ignored_bits`] and the `ignore` bits limited to that syntax.
    pub fn ignored_bits_in(&self, inst: &Inst, gen_: u32, syntax: u16) -> Bits {
        let mut path = [Step::top(inst.leaf, 0); MAX_DEPTH];
        self.ignored_in(inst.bits, gen_, (Some(syntax), !0), &mut path, 0, &|_, _| None)
    }

    /// The bits `inst` sets that [`Isa::ignored_bits`] holds, or with a
    /// syntax [`Isa::ignored_bits_in`] for it: operands whose forms could
    /// ignore none of the bits set are not walked. `known` names the forms
    /// of operands the caller knows (see [`KnownForm`]).
    pub(crate) fn ignored_and_set(&self, inst: &Inst, gen_: u32, syntax: Option<u16>, known: KnownForm<'_>) -> Bits {
        self.ignored_and_set_within(inst, gen_, syntax, known, !0)
    }

    /// [`Isa::ignored_and_set`], where the caller knows that no bit outside
    /// `within` is ignored in this generation (its bound, such as
    /// [`Isa::ignorable_in`]): the walk looks only for bits set there, so
    /// an operand that could ignore a bit only where the generation's
    /// constants rule it out (a scalar source passed one register, whose
    /// pair form would ignore the low bit) is not walked.
    pub(crate) fn ignored_and_set_within(
        &self,
        inst: &Inst,
        gen_: u32,
        syntax: Option<u16>,
        known: KnownForm<'_>,
        within: Bits,
    ) -> Bits {
        let wanted = inst.bits & within;
        if wanted & self.ignorable(inst.leaf) == 0 || wanted & self.ignorable_for(inst) == 0 {
            return 0;
        }
        let mut path = [Step::top(inst.leaf, 0); MAX_DEPTH];
        wanted & self.ignored_in(inst.bits, gen_, (syntax, wanted), &mut path, 0, known)
    }

    /// The ignored bits of the leaf at `path[depth]` and its operands, in
    /// syntax `syntax` (or in every syntax): all of them, or at least those
    /// among `wanted` (an operand none of whose forms may ignore one of
    /// those is not walked).
    fn ignored_in(
        &self,
        bits: Bits,
        gen_: u32,
        (syntax, wanted): (Option<u16>, Bits),
        path: &mut [Step; MAX_DEPTH],
        depth: usize,
        known: KnownForm<'_>,
    ) -> Bits {
        let mut env = Env { isa: self, bits, gen_, read: 0, given: Given::NONE };
        let case = self.select_case(&mut env, &mut path[..], depth, 0);
        path[depth].case = case;
        let leaf = &self.leaves[path[depth].leaf as usize];
        let c = &leaf.cases[case as usize];
        let mut local = leaf.dontcare;
        let default = (leaf.cases.len() - 1) as u16;
        for ig in leaf.ignore {
            let in_syntax = match syntax {
                _ if ig.syntaxes == 0 => true,
                Some(s) => ig.syntaxes & (1 << s) != 0,
                None => false,
            };
            // An entry none of whose bits is wanted adds none to the answer.
            if !in_syntax || path[depth].in_word(ig.mask) & wanted == 0 {
                continue;
            }
            let holds = match ig.when {
                None => true,
                Some(e) => {
                    let mut at_default = *path;
                    at_default[depth].case = default;
                    env.eval(&at_default[..=depth], e) != 0
                }
            };
            if holds {
                local |= ig.mask;
            }
        }
        let mut out = path[depth].in_word(local);
        for (fi, field) in c.fields.iter().enumerate() {
            let (Ty::Group { group, .. }, Src::Bits(ranges)) = (field.ty, field.src) else { continue };
            let Some(at) = path[depth].child(ranges) else { continue };
            if depth + 1 >= MAX_DEPTH {
                break;
            }
            let place = Step { leaf: 0, case: 0, base: at.0, via: 0, map: at.1 };
            let word = place.word(bits, self.groups[group as usize].bits);
            if place.in_word(self.ignorable_in_word(group, word)) & wanted == 0 {
                continue;
            }
            let picked = match known(&path[..=depth], &Step { via: fi as u16, ..place }) {
                Some(l) => {
                    let case = self.leaves.get(l as usize).map_or(0, |f| f.cases.len().saturating_sub(1));
                    path[depth + 1] = Step { leaf: l, case: case as u16, via: fi as u16, ..place };
                    true
                }
                None => self.pick_leaf(&mut env, &mut path[..], depth + 1, group, at, fi as u16).is_some(),
            };
            if picked {
                out |= self.ignored_in(bits, gen_, (syntax, wanted), path, depth + 1, known);
            }
        }
        out
    }

    /// The name of a field holding bits this instruction's hardware ignores
    /// ([`Isa::ignored_bits`]), if any does: the assembler leaves them zero,
    /// so text that sets one is refused rather than silently dropped.
    pub fn ignored_field_set(&self, inst: &Inst, gen_: u32) -> Option<String> {
        self.ignored_field_named(inst, self.ignored_and_set(inst, gen_, None, &|_, _| None))
    }

    /// The name [`Isa::ignored_field_set`] gives the ignored bits `set` of
    /// `inst` sets.
    pub(crate) fn ignored_field_named(&self, inst: &Inst, set: Bits) -> Option<String> {
        if set == 0 {
            return None;
        }
        let leaf = &self.leaves[inst.leaf as usize];
        let named = leaf.cases.iter().flat_map(|c| c.fields.iter()).find(
            |f| matches!(f.src, Src::Bits(r) if r.iter().any(|x| set & mask_of(x.lo as u32, x.width as u32) != 0)),
        );
        Some(match named {
            Some(f) => f.name.to_ascii_lowercase(),
            None => format!("bit {}", set.trailing_zeros()),
        })
    }

    /// The rule messages this instruction violates (empty when valid).
    ///
    /// Rules judge the instruction as the hardware reads it: the bits it
    /// ignores ([`Isa::ignored_bits`]) are cleared first, so encodings that
    /// differ only there, and print the same, are equally valid (a pair
    /// `s[0:1]` encoded as 0 and as 1 is one scalar value). Fields read as
    /// the case in force defines them.
    pub fn validate(&self, inst: &Inst, gen_: u32) -> Vec<&'static str> {
        if self.leaves[inst.leaf as usize].rules.is_empty() {
            return Vec::new();
        }
        self.validate_ignoring(inst, gen_, self.ignored_and_set(inst, gen_, None, &|_, _| None))
    }

    /// [`Isa::validate`] when the caller has found `ignored`, the bits
    /// `inst` sets that the hardware ignores in every syntax (what
    /// [`Isa::ignored_and_set`] gives with no syntax), so the operands are
    /// not walked for them again.
    pub(crate) fn validate_ignoring(&self, inst: &Inst, gen_: u32, ignored: Bits) -> Vec<&'static str> {
        let leaf = &self.leaves[inst.leaf as usize];
        if leaf.rules.is_empty() {
            return Vec::new();
        }
        let (mut env, path) = self.rule_scope(inst, gen_, ignored);
        leaf.rules.iter().filter(|r| env.eval(&path, r.check) == 0).map(|r| r.message).collect()
    }

    /// Whether `inst` keeps every rule of its leaf, `rules` being their
    /// checks as [`Logic`]s, in order: [`Isa::validate_ignoring`]'s answer
    /// with nothing ignored, without its messages, each check evaluated
    /// only until its answer is known.
    pub(crate) fn keeps_rules(&self, inst: &Inst, gen_: u32, rules: &[Logic]) -> bool {
        if rules.is_empty() {
            return true;
        }
        let (mut env, path) = self.rule_scope(inst, gen_, 0);
        rules.iter().all(|r| r.holds(&mut |e| env.eval(&path, e)))
    }

    /// Where `inst`'s rules are evaluated, its bits `ignored` cleared: its
    /// fields as the case in force defines them (a field that moves between
    /// generations is read where this generation keeps it).
    fn rule_scope(&self, inst: &Inst, gen_: u32, ignored: Bits) -> (Env<'_>, [Step; 1]) {
        let leaf = &self.leaves[inst.leaf as usize];
        let mut env = Env { isa: self, bits: inst.bits & !ignored, gen_, read: 0, given: Given::NONE };
        let mut path = [Step::top(inst.leaf, (leaf.cases.len() - 1) as u16)];
        path[0].case = self.select_case(&mut env, &mut path, 0, 0);
        (env, path)
    }
}

/// What [`Isa::judge_form`] says of a candidate form.
enum Judged {
    /// It holds the word: the search ends with it.
    Takes,
    /// It does not: the search goes on.
    Passes,
    /// The search ends with no form.
    Ends,
}

/// Whether `leaf`'s `requires` hold at the end of `path`, its conjuncts that
/// compare a value with constants read by that value's interval (the bits
/// read are not tracked: the conjunct left in an interval may not read
/// everything the whole one does).
fn requires_hold(env: &mut Env<'_>, path: &[Step], leaf: &Leaf) -> bool {
    let mut tables = leaf.intervals.iter().peekable();
    leaf.requires.iter().enumerate().all(|(i, &r)| {
        let e = match tables.next_if(|t| t.conjunct as usize == i) {
            Some(t) => t.within(env.operand(path, t.of)).unwrap_or(r),
            None => r,
        };
        env.eval(path, e) != 0
    })
}

/// Decoding for one generation, as a disassembler walking a code buffer
/// does: what stays the same from one word to the next (the generation's
/// class of tables, the width of a word) is looked up once.
#[derive(Clone, Copy, Debug)]
pub struct Decoder<'a> {
    isa: &'a Isa,
    gen_: u32,
    /// The plans of the generation's class (empty without tables).
    plans: &'static [crate::Plan],
    /// The direct decoder, with its tree for the generation's class.
    direct: Trusted<'a>,
    /// The bits of a word of the instruction group.
    width: Bits,
}

/// The direct decoder of a target without tables.
static EMPTY: Direct = Direct::empty();

impl Decoder<'_> {
    /// Decodes one instruction from `bits` (see [`Isa::decode`]).
    pub fn decode(&self, bits: Bits) -> Result<Inst, DecodeError> {
        let isa = self.isa;
        let bits = bits & self.width;
        if let Some((leaf, len)) = self.direct.identify(bits as u64) {
            return Ok(inst_of(leaf, len, bits as u64));
        }
        if let Some(d) = isa.dispatch
            && let Some(inst) = isa.decode_fast(d, self.plans, bits, self.gen_)
        {
            return Ok(inst);
        }
        isa.decode_generally(bits, self.gen_)
    }

    /// Decodes from bytes in memory order; returns the instruction and its
    /// length (see [`Isa::decode_bytes`]).
    #[inline(always)]
    pub fn decode_bytes(&self, bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
        // The usual case inside a code buffer: one 64-bit load, all the
        // direct decoder reads (decoding keeps only the group's width, and
        // the instruction's own length).
        if let Some(chunk) = bytes.first_chunk::<8>() {
            let word = u64::from_le_bytes(*chunk) & self.width as u64;
            if let Some((leaf, len)) = self.direct.identify(word)
                && len as usize <= bytes.len()
            {
                return Ok((inst_of(leaf, len, word), len as usize));
            }
        }
        self.decode_bytes_generally(bytes)
    }

    /// [`Decoder::decode_bytes`] by the general tables, for what the direct
    /// decoder leaves: out of line, so that the direct decoder's path stays
    /// short (no registers saved for this one, no stack frame to set up).
    #[cold]
    #[inline(never)]
    fn decode_bytes_generally(&self, bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
        let mut buf = [0u8; 16];
        let n = bytes.len().min(16);
        buf[..n].copy_from_slice(&bytes[..n]);
        let bits = Bits::from_le_bytes(buf) & self.width;
        if bytes.len() < 8
            && let Some((leaf, len)) = self.direct.identify(bits as u64)
            && len as usize <= bytes.len()
        {
            return Ok((inst_of(leaf, len, bits as u64), len as usize));
        }
        let (isa, gen_) = (self.isa, self.gen_);
        if let Some(d) = isa.dispatch
            && let Some(inst) = isa.decode_fast(d, self.plans, bits, gen_)
            && inst.len_bytes() <= bytes.len()
        {
            return Ok((inst, inst.len_bytes()));
        }
        isa.decode_bytes_slowly(bytes, bits, gen_)
    }
}

impl Isa {
    /// [`Decoder::decode_bytes`] for what the tables leave (see
    /// [`Isa::decode_generally`]): the errors, a truncated instruction
    /// among them.
    fn decode_bytes_slowly(&self, bytes: &[u8], bits: Bits, gen_: u32) -> Result<(Inst, usize), DecodeError> {
        let width = self.groups[0].bits;
        // Bytes for the widest word hold the shortest instruction, whose
        // length is then not looked for among every leaf.
        if bytes.len() < (width / 8) as usize {
            let need = (self.min_bits() / 8) as usize;
            if bytes.len() < need {
                return Err(DecodeError::Truncated { have: bytes.len(), need });
            }
        }
        let leaf = self.pick_instruction(bits, gen_).ok_or(DecodeError::NoMatch { bits, width })?;
        let len_bits = self.length_of(leaf, bits, gen_)?;
        let len = (len_bits / 8) as usize;
        if bytes.len() < len {
            return Err(DecodeError::Truncated { have: bytes.len(), need: len });
        }
        Ok((self.checked(leaf, len_bits, bits, gen_, true)?, len))
    }
}

/// The form an operand holds, when the caller knows it: given the scope
/// down to the operand's parent and the operand's place (its leaf unset),
/// the form's leaf; `None` to ask the decoder. An assembler knows the form
/// it read each operand in (the decoder picks the same, as the solver made
/// sure), and walking an instruction's operands for the bits they ignore
/// would otherwise decode each one again.
pub(crate) type KnownForm<'k> = &'k dyn Fn(&[Step], &Step) -> Option<u16>;

/// Deepest nesting of operand sub-encodings the engine follows.
pub(crate) const MAX_DEPTH: usize = 8;
