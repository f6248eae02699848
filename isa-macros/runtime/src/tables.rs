//! The tables `isa!` generates for a target. Everything is `'static` data so that
//! a target is a handful of statics and no code; the engine reads them.
//!
//! Vocabulary follows the spec language (docs/spec-language.md): a *leaf* is a
//! concrete encoding (an instruction, or one form of an operand sub-encoding), a
//! *group* is the set of leaves a decoder chooses among (group 0: instructions;
//! the others: operand kinds such as ir3's `multisrc`), a *case* is one of a
//! leaf's conditional views (its own display template and field set).

/// A whole instruction set, as generated from its YAML.
#[derive(Debug)]
pub struct Isa {
    /// Target name as used on the command line (`ir3`, `gcn`, ...).
    pub name: &'static str,
    /// One-line description from the spec.
    pub doc: &'static str,
    /// Generations, oldest first. Empty for a target without generations.
    pub gens: &'static [Gen],
    /// Generation used when the caller names none.
    pub default_gen: u32,
    /// The assembler reads commas as LLVM's AMDGPU parser does: one between
    /// operands may be left out, one may stand where a template has a space,
    /// and a trailing one is ignored (`optional-commas:` in the spec).
    pub optional_commas: bool,
    /// The assembler reads a number with a leading `0` (`010`) as octal,
    /// as LLVM's assemblers do (`octal-numbers:` in the spec).
    pub octal_numbers: bool,
    /// The assembler reads `0b` and binary digits (`0b101`) as a binary
    /// number, as LLVM's assemblers do (`binary-numbers:` in the spec).
    pub binary_numbers: bool,
    /// Register names after which the assembler also reads a number as
    /// `[expression]`: `v[8/2+4]` for `v8` where a template has `v{N}`, as
    /// LLVM's AMDGPU parser reads it (`bracketed-indices:` in the spec).
    pub bracketed_indices: &'static [&'static str],
    /// Fields the assembler reads in any order where a template writes two
    /// or more of them side by side, as Mesa's ir3 parser reads its flags
    /// (`any-order:` in the spec): `(ss)(sy)add.f` for the printer's
    /// `(sy)(ss)add.f`.
    pub any_order: &'static [&'static str],
    /// How an undecodable word is written (`raw 0x...`), if the target has a form.
    pub raw: Option<RawSyntax>,
    /// Value tables for enum-typed fields.
    pub enums: &'static [Enum],
    /// Decoding groups; group 0 holds the instructions.
    pub groups: &'static [Group],
    /// Every leaf of every group.
    pub leaves: &'static [Leaf],
    /// Scheduling classes named by leaves.
    pub sched_classes: &'static [SchedClass],
    /// Flags a leaf may carry (branch, barrier, ...), by index.
    pub flags: &'static [&'static str],
    /// What a compiler backend needs beyond encodings (`machine:` in the spec).
    pub machine: Option<&'static crate::Machine>,
    /// The assembly syntaxes (`syntaxes:` in the spec), the default first.
    /// Empty for a target with one unnamed syntax.
    pub syntaxes: &'static [Syntax],
    /// Decoding tables the generator precomputed from the above (decision
    /// trees, tabulated checks); without them the engine scans the leaves.
    pub dispatch: Option<&'static crate::Dispatch>,
}

/// One assembly syntax of a target: its own templates and mnemonics where the
/// spec gives them, the default syntax's elsewhere.
#[derive(Debug)]
pub struct Syntax {
    pub name: &'static str,
    pub doc: &'static str,
    /// The column `{|}` pads the text before it to, when padding.
    pub column: u32,
    /// Whether this syntax pads by default (it can be asked for either way).
    pub pad: bool,
}

/// How to print: which syntax, and whether `{|}` pads to the syntax's column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PrintOpts {
    /// Index into [`Isa::syntaxes`] (0: the default syntax).
    pub syntax: u16,
    /// `None`: the syntax's own choice.
    pub pad: Option<bool>,
}

/// A hardware generation: `--gen` accepts the name, the number or an alias.
#[derive(Debug)]
pub struct Gen {
    pub name: &'static str,
    pub value: u32,
    pub aliases: &'static [&'static str],
}

/// How an undecodable word prints and assembles: `prefix` then the word in hex,
/// zero-padded to the instruction width.
#[derive(Debug)]
pub struct RawSyntax {
    pub prefix: &'static str,
    pub uppercase: bool,
    /// Width in bits of a raw word.
    pub bits: u32,
}

/// Display strings of an enum-typed field, by value.
#[derive(Debug)]
pub struct Enum {
    pub name: &'static str,
    pub values: &'static [EnumValue],
    /// Other texts the assembler reads for some values, which the printer
    /// never writes (GCN's ` mul:1` for no output modifier, as llvm-mc
    /// reads it); spec order.
    pub also: &'static [EnumValue],
    /// For a set of named bits (`sets:` in the spec), how its text is built,
    /// so the assembler reads the names in any order. `values` holds every
    /// subset in the order the printer writes it.
    pub set: Option<SetSyntax>,
}

/// The text of a set of named bits: `open`, names joined by `separator`,
/// `close` (`gpr_idx(SRC0,DST)`).
#[derive(Debug)]
pub struct SetSyntax {
    pub open: &'static str,
    pub separator: &'static str,
    pub close: &'static str,
    /// (bit number, name), lowest bit first.
    pub names: &'static [(u32, &'static str)],
}

#[derive(Debug)]
pub struct EnumValue {
    pub value: u64,
    pub display: &'static str,
}

/// The leaves a decoder chooses among for one field type (or for instructions).
#[derive(Debug)]
pub struct Group {
    pub name: &'static str,
    /// Width of the encodings in bits (the longest, for variable-length groups).
    pub bits: u32,
    /// Indices into [`Isa::leaves`], in decoding order: higher priority
    /// first, spec order among equals. A group's leaves are contiguous in
    /// [`Isa::leaves`], in spec order.
    pub leaves: &'static [u16],
    /// Values the enclosing field passes in (`params:` in the spec).
    pub params: &'static [Param],
}

/// A value a sub-encoding receives from the field that contains it.
#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
}

/// One concrete encoding.
#[derive(Debug)]
pub struct Leaf {
    /// Unique key in the spec (`ldg.a-a7xx`).
    pub key: &'static str,
    /// What `{NAME}` prints: the mnemonic for instructions.
    pub name: &'static str,
    /// Group this leaf belongs to.
    pub group: u16,
    /// Width in bits (the longest form, for a variable-length encoding).
    pub bits: u32,
    /// Width of the shortest form; equal to `bits` unless `length` is set.
    pub min_bits: u32,
    /// For a variable-length encoding: its length in bits, computed from the
    /// default case's fields (which must lie in the first `min_bits`).
    pub length: Option<Expr>,
    /// Generations this leaf exists in, inclusive.
    pub gen_min: u32,
    pub gen_max: u32,
    /// Bits that identify the leaf: `word & mask == value`.
    pub mask: crate::Bits,
    pub value: crate::Bits,
    /// Bits the hardware ignores; never compared, encoded as zero.
    pub dontcare: crate::Bits,
    /// Conditional views, tried in order; the last has no condition.
    pub cases: &'static [Case],
    /// Conditions (over the default case's fields) an encoding must meet to be
    /// this leaf; a word that fails them does not decode (`requires:`).
    pub requires: &'static [Expr],
    /// The `requires` conjuncts that compare one value with constants, as
    /// tables of that value's intervals (see [`crate::Intervals`]), in
    /// conjunct order.
    pub intervals: &'static [crate::Intervals],
    /// Bits ignored by the hardware under a condition (`ignore:`).
    pub ignore: &'static [Ignore],
    /// Checks that a well-formed encoding must also pass (`rules:`).
    pub rules: &'static [Rule],
    /// Index into [`Isa::sched_classes`], if any.
    pub sched: Option<u16>,
    /// Indices into [`Isa::flags`].
    pub flags: &'static [u16],
    /// Documentation from the spec.
    pub doc: &'static str,
    /// What `{NAME}` prints in each syntax after the default (index 1 first);
    /// empty when it is `name` in every syntax.
    pub names: &'static [&'static str],
    /// Text the assembler also reads right after the name and the printer
    /// never writes (`name-suffix:`); empty for none.
    pub name_suffix: &'static str,
}

/// A view of a leaf: how it prints, and which fields are visible.
#[derive(Debug)]
pub struct Case {
    /// Chosen when this holds (evaluated with the last case's fields); `None` for
    /// the default case.
    pub when: Option<Expr>,
    /// The display/assembly template.
    pub display: &'static [Tok],
    /// Fields visible in this case.
    pub fields: &'static [Field],
    /// Assembler-only text (`accepts:`): the decoder and printer skip it. These
    /// come first and have no `when`, so they add no condition to later cases.
    pub parse_only: bool,
    /// The template in each syntax after the default (index 1 first); empty
    /// when `display` serves every syntax.
    pub displays: &'static [&'static [Tok]],
    /// The syntaxes this case applies in, one bit per syntax index; 0 for all.
    pub syntaxes: u32,
}

/// Bits the hardware ignores (when `when` holds, or always): the text does not
/// show them, they are encoded as zero, and round trips do not compare them.
#[derive(Debug)]
pub struct Ignore {
    pub when: Option<Expr>,
    pub mask: crate::Bits,
    /// The syntaxes whose text leaves these bits out, one bit per syntax
    /// index; 0 for all.
    pub syntaxes: u32,
}

/// A piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// Literal text. In parsing, spaces match any run of white space (or
    /// none, where that does not join two words).
    Lit(&'static str),
    /// The field with this index in the case's field list.
    Field(u16),
    /// The leaf's name.
    Name,
    /// Literal text the printer writes and the assembler may omit (`{?_e32}`).
    Opt(&'static str),
    /// Literal text and the field with this index, which the printer writes
    /// and the assembler may omit together (`{? dst_sel:{DST_SEL}}`); left
    /// out, the field takes the value given last (its `default:`).
    OptField(&'static str, u16, i64),
    /// The mnemonic column (`{|}`): one space, or, when padding, spaces up to
    /// the syntax's column and one more. The assembler reads any white space
    /// (none only where that does not join two words).
    Column,
}

/// A named value of a leaf.
#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub src: Src,
    pub ty: Ty,
}

/// Where a field's value comes from.
#[derive(Debug, Clone, Copy)]
pub enum Src {
    /// Bits of the encoding, most significant part first.
    Bits(&'static [Range]),
    /// Computed from other fields.
    Expr(Expr),
    /// Passed in by the enclosing field (index into the group's params).
    Param(u16),
}

/// `width` bits starting at bit `lo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Range {
    pub lo: u8,
    pub width: u8,
}

/// How a field's value is written in assembly.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// Unsigned decimal.
    Uint,
    /// Unsigned decimal; the assembler reads a number past the field's
    /// maximum as the maximum (LLVM's saturating `vmcnt_sat(N)`).
    UintSat,
    /// Signed decimal (sign-extended from the field width).
    Int,
    /// Lower-case hexadecimal digits, no prefix.
    Hex,
    /// `0x` and lower-case hex when printed; any integer when assembled
    /// (decimal, `0x` hex, or negative, taken as two's complement).
    /// With `float`, the assembler also reads a decimal number (`-3.1415`)
    /// as an IEEE value of the format the expression gives (16, 32 or 64
    /// bits); a format wider than the field keeps its high bits.
    /// `unsigned`: a number the text gives must not be negative (an
    /// offset printed in hex, where `-4` would wrap to a large one).
    HexLit { float: Option<Expr>, unsigned: bool },
    /// `on` when set (when clear, if `inverted`), nothing otherwise.
    Bool { on: &'static str, inverted: bool },
    /// Signed, written `+N` / `-N`, nothing when zero.
    Offset,
    /// Unsigned, written `+N`, nothing when zero.
    UOffset,
    /// IEEE half or single (by field width, or the format in bits that
    /// `format` gives: 16, 32 or 64), written like C's `%f` when that reads
    /// back exactly, else as `0x` and the raw bits.
    Float { format: Option<Expr> },
    /// Display strings from [`Isa::enums`].
    Enum(u16),
    /// A sub-encoding: one leaf of the group, with these parameter expressions
    /// (evaluated in the enclosing leaf).
    Group { group: u16, params: &'static [Expr] },
}

/// A compiled expression, in postfix order.
pub type Expr = &'static [Op];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lit(i64),
    /// Field of the current case, by index.
    Field(u16),
    /// Parameter of the current group, by index.
    Param(u16),
    /// The generation being decoded or encoded for.
    Gen,
    Not,
    Neg,
    BitNot,
    Bin(BinOp),
    /// `c ? a : b` with c, a, b on the stack.
    Select,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

/// A condition an encoding must satisfy to be valid, with the message to show.
#[derive(Debug)]
pub struct Rule {
    pub check: Expr,
    pub message: &'static str,
}

/// A scheduling class: what the backend needs to know about a result's timing.
#[derive(Debug)]
pub struct SchedClass {
    pub name: &'static str,
    pub doc: &'static str,
    /// Cycles until the result may be read, per generation range.
    pub latency: &'static [GenValue],
    /// Cycles before the unit accepts the next instruction of this class, per
    /// generation range; empty when the spec gives none.
    pub throughput: &'static [GenValue],
    /// The execution unit the class issues to (`unit:` in the spec), or "".
    pub unit: &'static str,
}

/// A value that holds for generations `min..=max`.
#[derive(Debug)]
pub struct GenValue {
    pub min: u32,
    pub max: u32,
    pub value: u32,
}

impl Isa {
    /// A target of only `groups` and `leaves`, for unit tests of the engine.
    #[cfg(test)]
    pub(crate) const fn for_tests(name: &'static str, groups: &'static [Group], leaves: &'static [Leaf]) -> Isa {
        Isa {
            name,
            doc: "",
            gens: &[],
            default_gen: 0,
            optional_commas: false,
            octal_numbers: false,
            binary_numbers: false,
            bracketed_indices: &[],
            any_order: &[],
            raw: None,
            enums: &[],
            groups,
            leaves,
            sched_classes: &[],
            flags: &[],
            machine: None,
            syntaxes: &[],
            dispatch: None,
        }
    }

    /// Looks up a generation by name, alias or number.
    pub fn gen_by_name(&self, s: &str) -> Option<u32> {
        let s = s.trim();
        for g in self.gens {
            if g.name.eq_ignore_ascii_case(s) || g.aliases.iter().any(|a| a.eq_ignore_ascii_case(s)) {
                return Some(g.value);
            }
        }
        let n: u32 = s.parse().ok()?;
        if self.gens.is_empty() {
            return Some(n);
        }
        let lo = self.gens.first()?.value;
        let hi = self.gens.last()?.value;
        // Numbers between the listed generations are accepted (ir3's a630 is `630`).
        (lo..=hi + 99).contains(&n).then_some(n)
    }

    /// The leaf with this key.
    pub fn leaf_by_key(&self, key: &str) -> Option<u16> {
        self.leaves.iter().position(|l| l.key == key).map(|i| i as u16)
    }

    /// Looks up a syntax by name; `None` names no syntax of this target.
    pub fn syntax_by_name(&self, s: &str) -> Option<u16> {
        self.syntaxes.iter().position(|x| x.name.eq_ignore_ascii_case(s.trim())).map(|i| i as u16)
    }

    /// The instructions (leaves of group 0) that exist in `gen`.
    pub fn instructions(&self, gen_: u32) -> impl Iterator<Item = u16> + '_ {
        self.groups[0].leaves.iter().copied().filter(move |&l| self.leaves[l as usize].exists_in(gen_))
    }

    /// Throughput (cycles between issues) of a scheduling class in a generation.
    pub fn throughput(&self, class: u16, gen_: u32) -> Option<u32> {
        self.sched_classes
            .get(class as usize)?
            .throughput
            .iter()
            .find(|v| v.min <= gen_ && gen_ <= v.max)
            .map(|v| v.value)
    }

    /// Latency of a scheduling class in a generation.
    pub fn latency(&self, class: u16, gen_: u32) -> Option<u32> {
        self.sched_classes.get(class as usize)?.latency.iter().find(|v| v.min <= gen_ && gen_ <= v.max).map(|v| v.value)
    }
}

impl Leaf {
    pub fn exists_in(&self, gen_: u32) -> bool {
        self.gen_min <= gen_ && gen_ <= self.gen_max
    }

    /// The default case (always the last).
    pub fn default_case(&self) -> &Case {
        self.cases.last().expect("the generator gives every leaf a default case")
    }

    /// What `{NAME}` prints in syntax `syntax`.
    pub fn name_in(&self, syntax: u16) -> &'static str {
        match syntax.checked_sub(1).and_then(|i| self.names.get(i as usize)) {
            Some(n) => n,
            None => self.name,
        }
    }
}

impl Case {
    /// The template this case prints and parses with in syntax `syntax`.
    pub fn display_in(&self, syntax: u16) -> &'static [Tok] {
        match syntax.checked_sub(1).and_then(|i| self.displays.get(i as usize)) {
            Some(d) => d,
            None => self.display,
        }
    }

    /// Whether this case is one of syntax `syntax`'s views.
    pub fn applies_in(&self, syntax: u16) -> bool {
        self.syntaxes == 0 || (syntax < 32 && self.syntaxes & (1 << syntax) != 0)
    }

    pub fn field_index(&self, name: &str) -> Option<u16> {
        self.fields.iter().position(|f| f.name == name).map(|i| i as u16)
    }
}

impl Field {
    /// Width in bits for a bit-backed field; derived values and params have none.
    pub fn width(&self) -> Option<u32> {
        match self.src {
            Src::Bits(r) => Some(crate::width_of(r)),
            _ => None,
        }
    }

    pub fn is_signed(&self) -> bool {
        matches!(self.ty, Ty::Int | Ty::Offset)
    }

    /// The values the assembler accepts for a `width`-bit field of this type.
    pub fn value_range(&self, width: u32) -> (i128, i128) {
        let w = width.min(127);
        let unsigned_max = (1i128 << w) - 1;
        let signed_min = if w == 0 { 0 } else { -(1i128 << (w - 1)) };
        match self.ty {
            Ty::Int | Ty::Offset => (signed_min, (1i128 << w.saturating_sub(1)) - 1),
            Ty::HexLit { unsigned: false, .. } => (signed_min, unsigned_max),
            _ => (0, unsigned_max),
        }
    }
}
