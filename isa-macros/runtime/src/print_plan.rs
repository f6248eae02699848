//! An instruction's printed form, resolved once per [`crate::Printer`].
//!
//! Printing from the tables looks each field up by index, matches on where
//! its value comes from, and evaluates every parameter an operand receives
//! as an expression. For an instruction (depth 0, whose bits are the word
//! itself) most of that is the same every time a leaf's case is printed:
//! which tokens are text, which fields are bit ranges, which parameters are
//! constants or plain bit fields. A printer resolves a case the first time
//! it prints it into a list of [`Piece`]s, and prints from that after;
//! whatever the list does not cover it leaves to the tables ([`Then::Field`]),
//! so the text is the same either way.

use crate::memo::MAX_PARAMS;
use crate::tables::{Case, Expr, Isa, Op, Range, Src, Tok, Ty};

/// One step of printing a case: a text, then what follows it (the text
/// before each field rides with the field, so a line takes half as many
/// steps, each choosing what to do next).
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub text: &'static str,
    pub then: Then,
}

/// What a [`Piece`] prints after its text.
#[derive(Clone, Debug)]
pub(crate) enum Then {
    Nothing,
    /// Pad to the mnemonic column.
    Column,
    /// A scalar field read from bits of the word.
    Scalar {
        ranges: &'static [Range],
        signed: bool,
        ty: Ty,
        width: u32,
    },
    /// An operand in bits of the word, with its parameters resolved.
    Operand(Operand),
    /// Anything else: field `i`, printed from the tables.
    Field(u16),
}

/// An operand field of an instruction: its group, which field it is, where
/// its word sits, and what each parameter the field passes in is (one
/// not passed is zero).
#[derive(Clone, Debug)]
pub(crate) struct Operand {
    pub group: u16,
    pub field: u16,
    pub ranges: &'static [Range],
    pub args: Box<[Arg]>,
    /// The parameters that are the same every time (bit `i` for parameter
    /// `i`): constants, and those the field does not pass. When every
    /// parameter an operand's word reads is one, its memory key less the
    /// word is the same for every word that reads those.
    pub consts: u8,
    /// For such words, where the printer's dense table keeps their texts:
    /// the parameters read and the start of the cells (see
    /// [`crate::memo::Memo::cells_of`]), `reads | start << 8`, or
    /// [`Operand::NO_CELLS`] while not known.
    pub cells: std::cell::Cell<u64>,
}

impl Operand {
    pub const NO_CELLS: u64 = u64::MAX;
}

/// A parameter value an operand receives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg {
    Const(i64),
    /// A field of the instruction read from its bits.
    Bits {
        ranges: &'static [Range],
        signed: bool,
    },
    /// Evaluated through the tables.
    Expr(Expr),
}

/// A field's value from the word, as [`crate::eval::Env::field`] reads it at
/// depth 0: the ranges gathered, sign-extended for a signed type.
#[inline(always)]
pub(crate) fn bits_value(bits: crate::Bits, ranges: &[Range], signed: bool) -> i64 {
    // One range within the first 64 bits (most fields): 64-bit arithmetic.
    if let [r] = ranges
        && r.width > 0
        && r.lo as u32 + r.width as u32 <= 64
    {
        let unused = 64 - r.width as u32;
        let v = (bits as u64) << (unused - r.lo as u32);
        return if signed { v as i64 >> unused } else { (v >> unused) as i64 };
    }
    crate::bits::field_value(crate::bits::extract(bits, 0, ranges), crate::bits::width_of(ranges), signed)
}

/// The pieces of every case printed so far, by leaf and case, and which case
/// each leaf prints when that does not depend on its bits.
pub(crate) struct PrintPlans {
    by_leaf: Vec<Vec<Option<Box<[Piece]>>>>,
    cases: Vec<u16>,
}

/// [`PrintPlans::cases`]: not yet looked at, and chosen by the bits.
const UNSEEN: u16 = u16::MAX;
const BY_BITS: u16 = u16::MAX - 1;

impl PrintPlans {
    pub fn new(isa: &Isa) -> PrintPlans {
        PrintPlans { by_leaf: vec![Vec::new(); isa.leaves.len()], cases: vec![UNSEEN; isa.leaves.len()] }
    }

    /// The case instruction `leaf` prints whatever its bits, if there is one
    /// (see [`fixed_case`]).
    pub fn case(&mut self, isa: &Isa, leaf: u16, gen_: u32, syntax: u16) -> Option<u16> {
        let c = &mut self.cases[leaf as usize];
        if *c == UNSEEN {
            *c = fixed_case(isa, leaf, gen_, syntax).unwrap_or(BY_BITS);
        }
        (*c != BY_BITS).then_some(*c)
    }

    /// The pieces of case `case` of instruction `leaf` in syntax `syntax`
    /// (one printer prints one syntax).
    pub fn get(&mut self, isa: &Isa, leaf: u16, case: u16, syntax: u16) -> &[Piece] {
        let l = &isa.leaves[leaf as usize];
        let cases = &mut self.by_leaf[leaf as usize];
        if cases.is_empty() {
            cases.resize(l.cases.len(), None);
        }
        cases[case as usize].get_or_insert_with(|| pieces(isa, l.name_in(syntax), &l.cases[case as usize], syntax))
    }
}

/// The printed forms of operand groups that need neither the tables nor
/// their parameters: by form (a leaf of a group), its pieces once resolved,
/// or `None` inside when it is not such a form.
///
/// An operand whose text the printer cannot remember (a DS instruction's
/// 16-bit offset, random on a stream, misses the slots) was printed from
/// the tables: the form chosen by evaluating the candidates' conditions,
/// its case selected, each field read through the scope chain, some 2,800
/// machine instructions. A form of a group without parameters whose
/// conditions are none, whose case does not depend on its bits and whose
/// display is text and bit fields (`{? }offset:{N}`) prints from its
/// pieces, reading the fields from the operand's own word.
#[derive(Default)]
pub(crate) struct NestedPlans {
    by_leaf: Vec<Option<Option<Box<[Piece]>>>>,
    /// Operands printed from the pieces.
    pub printed: u64,
}

impl NestedPlans {
    pub fn new(isa: &Isa) -> NestedPlans {
        NestedPlans { by_leaf: vec![None; isa.leaves.len()], printed: 0 }
    }

    /// The pieces form `leaf` prints in generation `gen_` and syntax
    /// `syntax`, if they print it whole (see [`NestedPlans`]); the caller
    /// has chosen the form, which has no conditions nor length of its own.
    pub fn get(&mut self, isa: &Isa, leaf: u16, gen_: u32, syntax: u16) -> Option<&[Piece]> {
        self.by_leaf.get_mut(leaf as usize)?.get_or_insert_with(|| simple_form(isa, leaf, gen_, syntax)).as_deref()
    }
}

/// The pieces of form `leaf` when they print it whole from its own word:
/// a case that does not depend on its bits, and only text and bit fields to
/// print (a field of a parameter, an operand, a computed value or a padded
/// column leave it to the tables).
fn simple_form(isa: &Isa, leaf: u16, gen_: u32, syntax: u16) -> Option<Box<[Piece]>> {
    let l = isa.leaves.get(leaf as usize)?;
    let case = fixed_case(isa, leaf, gen_, syntax)?;
    let pieces = pieces(isa, l.name_in(syntax), l.cases.get(case as usize)?, syntax);
    pieces.iter().all(|p| matches!(p.then, Then::Nothing | Then::Scalar { .. })).then_some(pieces)
}

/// The case [`Isa::select_case`] picks for instruction `leaf` in
/// generation `gen_` and syntax `syntax` whatever its bits: the first that
/// applies whose condition reads no field (nor parameter) and holds, if no
/// condition before it reads one.
fn fixed_case(isa: &Isa, leaf: u16, gen_: u32, syntax: u16) -> Option<u16> {
    let l = &isa.leaves[leaf as usize];
    let default = l.cases.len().checked_sub(1)? as u16;
    let mut env = crate::eval::Env { isa, bits: 0, gen_, read: 0, given: crate::eval::Given::NONE };
    let path = [crate::place::Step::top(leaf, default)];
    for (i, case) in l.cases.iter().enumerate() {
        if case.parse_only || !case.applies_in(syntax) {
            continue;
        }
        match case.when {
            None => return Some(i as u16),
            Some(e) if e.iter().any(|op| matches!(op, Op::Field(_) | Op::Param(_))) => return None,
            Some(e) if env.eval(&path, e) != 0 => return Some(i as u16),
            Some(_) => {}
        }
    }
    Some(default)
}

/// Resolves a case's tokens in syntax `syntax` into pieces.
fn pieces(isa: &Isa, name: &'static str, case: &Case, syntax: u16) -> Box<[Piece]> {
    let mut out = Vec::new();
    // The text before the next field, while it is one token's.
    let mut text: &'static str = "";
    let add = |out: &mut Vec<Piece>, text: &mut &'static str, s: &'static str| {
        if !text.is_empty() && !s.is_empty() {
            out.push(Piece { text: std::mem::take(text), then: Then::Nothing });
        }
        if !s.is_empty() {
            *text = s;
        }
    };
    for tok in case.display_in(syntax) {
        let then = match *tok {
            Tok::Lit(s) | Tok::Opt(s) => {
                add(&mut out, &mut text, s);
                continue;
            }
            Tok::Name => {
                add(&mut out, &mut text, name);
                continue;
            }
            Tok::Column => Then::Column,
            Tok::Field(i) => field(isa, case, i),
            Tok::OptField(s, i, _) => {
                add(&mut out, &mut text, s);
                field(isa, case, i)
            }
        };
        out.push(Piece { text: std::mem::take(&mut text), then });
    }
    if !text.is_empty() {
        out.push(Piece { text, then: Then::Nothing });
    }
    out.into_boxed_slice()
}

/// What prints field `i` of `case`.
fn field(isa: &Isa, case: &Case, i: u16) -> Then {
    let Some(f) = case.fields.get(i as usize) else { return Then::Field(i) };
    let Src::Bits(ranges) = f.src else { return Then::Field(i) };
    match f.ty {
        Ty::Group { group, params } => {
            let g = &isa.groups[group as usize];
            if g.params.len() > MAX_PARAMS || params.len() > MAX_PARAMS {
                return Then::Field(i);
            }
            let args: Box<[Arg]> = params.iter().map(|e| arg(case, e)).collect();
            let passed = args.iter().enumerate().fold(0u8, |m, (k, a)| match a {
                Arg::Const(_) => m,
                _ => m | 1 << k,
            });
            let consts = !passed;
            Then::Operand(Operand {
                group,
                field: i,
                ranges,
                args,
                consts,
                cells: std::cell::Cell::new(Operand::NO_CELLS),
            })
        }
        Ty::Float { format: Some(_) } => Then::Field(i),
        ty => Then::Scalar { ranges, signed: f.is_signed(), ty, width: crate::bits::width_of(ranges) },
    }
}

/// What parameter expression `e` of a field of `case` is.
fn arg(case: &Case, e: Expr) -> Arg {
    match *e {
        [Op::Lit(v)] => Arg::Const(v),
        [Op::Field(j)] => match case.fields.get(j as usize) {
            Some(f) => match f.src {
                Src::Bits(ranges) => Arg::Bits { ranges, signed: f.is_signed() },
                Src::Expr(&[Op::Lit(v)]) => Arg::Const(v),
                _ => Arg::Expr(e),
            },
            None => Arg::Expr(e),
        },
        _ => Arg::Expr(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_reads_as_the_tables_read_it() {
        static LOW: [Range; 1] = [Range { lo: 4, width: 4 }];
        static SPLIT: [Range; 2] = [Range { lo: 12, width: 2 }, Range { lo: 0, width: 2 }];
        let bits = 0xb0f3;
        assert_eq!(bits_value(bits, &LOW, false), 0xf);
        assert_eq!(bits_value(bits, &LOW, true), -1, "sign-extended from its width");
        // High range first: 0b11 (bits 12..13), then 0b11 (bits 0..1).
        assert_eq!(bits_value(bits, &SPLIT, false), 0b1111);
        assert_eq!(bits_value(bits, &SPLIT, true), -1);
        assert_eq!(bits_value(0x30, &LOW, true), 3, "a clear sign bit");
        // Every one-range field, either side of bit 64, reads as shifting,
        // masking and sign-extending by hand does.
        let bits: crate::Bits = 0x8edc_ba98_7654_3210_8f1e_2d3c_4b5a_6978;
        for lo in 0..128u8 {
            for width in 1..=(128 - lo).min(64) {
                let r = [Range { lo, width }];
                let raw = (bits >> lo) & ((1u128 << width) - 1);
                let negative = raw >> (width - 1) & 1 == 1;
                for signed in [false, true] {
                    let want = if signed && negative { (raw as i128 - (1i128 << width)) as i64 } else { raw as i64 };
                    assert_eq!(bits_value(bits, &r, signed), want, "lo {lo} width {width} signed {signed}");
                }
            }
        }
    }
}
