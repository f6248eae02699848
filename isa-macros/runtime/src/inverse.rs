//! Assembling a field computed from one narrow bit field.
//!
//! A template may print a value its encoding derives from a bit field
//! (`V: C <= 64 ? C : 64 - C`, GCN's inline integers), perhaps through other
//! derived fields and the enclosing encoding's parameters (`Z: W == 2 || V >=
//! 0 ? V : V & 0xffffffff`, the same integer read as a float's bits). The text
//! then gives the value, and the solver would enumerate `C` until the
//! expression gives it, on every line, and only after reading the rest of the
//! line in every way. When the expression reads nothing but that field, the
//! parameters and the generation, and the parameters are decided by the bits
//! bound so far, its values are tabulated once per thread for those parameter
//! values: a value exactly one `C` gives binds `C` straight away, the same
//! answer the solver finds (the only one); a value no `C` gives fails the
//! reading at once, as the solver would fail it. A value several sources
//! give binds the bits they all share and stays a constraint for the solver,
//! which picks among them (`s[62:63]`: code 62 or 63).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::bits::Bits;
use crate::eval::{Env, Given, Step};
use crate::tables::{Expr, Field, Isa, Op, Src};

/// Widest source field tabulated: at most 2^10 evaluations, once per key.
const MAX_SOURCE_BITS: u32 = 10;

/// Most parameters an expression may read and still be tabulated.
const MAX_PARAMS: usize = 4;

/// Most tables kept per thread: the cache starts again past this (a target
/// has a handful of such expressions, times their parameters' values).
const MAX_TABLES: usize = 4096;

/// An expression's values over every source value, sorted by value, each
/// with the bits all the sources that give it have set (`and`) and have
/// set in any (`or`): one source when the two are equal.
type Table = Vec<Entry>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    value: i64,
    and: u32,
    or: u32,
}

/// What a table depends on: the expression and the source fields (their
/// addresses: all are static), and the generation and the values of the
/// parameters it reads (zero when it reads none).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    expr: (usize, usize),
    field: usize,
    also: [usize; MAX_SOURCES - 1],
    gen_: u32,
    params: [i64; MAX_PARAMS],
}

/// A multiply-rotate hash of a [`Key`]'s few words: the cache is asked on
/// every such operand read, and SipHash's resistance to chosen keys buys
/// nothing for keys the specs make.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Cache = HashMap<Key, Table, BuildHasherDefault<WordHasher>>;

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// What an expression reads: one bit field (by index, in the leaf's case),
/// and the parameters (a bit per index) and whether the generation.
#[derive(Debug, Default, PartialEq, Eq)]
struct Reads {
    source: Option<u16>,
    /// The other bit fields it reads (`also_len` of them), when it reads
    /// several: their values are only checked, never bound (see
    /// [`source_of`]).
    also: [u16; MAX_SOURCES - 1],
    also_len: u8,
    params: u32,
    gen_: bool,
}

impl Reads {
    /// Notes that it reads bit field `f`; `None` past [`MAX_SOURCES`].
    fn source(&mut self, f: u16) -> Option<()> {
        let also = &self.also[..self.also_len as usize];
        match self.source {
            None => self.source = Some(f),
            Some(s) if s == f || also.contains(&f) => {}
            Some(_) => {
                *self.also.get_mut(self.also_len as usize)? = f;
                self.also_len += 1;
            }
        }
        Some(())
    }
}

/// Most bit fields an expression may read and still have its values
/// tabulated (ir3's `(nop{NOP})`, two bits of two sources' flags).
const MAX_SOURCES: usize = 4;

/// What `e`, over `fields` (a case's), reads through the derived fields it
/// names; `None` when it reads more than [`MAX_SOURCES`] bit fields (or is
/// too deep to follow).
fn reads(fields: &[Field], e: Expr, out: &mut Reads, depth: u32) -> Option<()> {
    if depth > 8 {
        return None;
    }
    for op in e {
        match *op {
            Op::Field(f) => match fields.get(f as usize)?.src {
                Src::Bits(_) => out.source(f)?,
                Src::Expr(x) => reads(fields, x, out, depth + 1)?,
                Src::Param(p) if p < 32 => out.params |= 1 << p,
                Src::Param(_) => return None,
            },
            Op::Param(p) if p < 32 => out.params |= 1 << p,
            Op::Param(_) => return None,
            Op::Gen => out.gen_ = true,
            _ => {}
        }
    }
    Some(())
}

/// What the values of a narrow source field say of a value an expression of
/// it must give.
#[derive(Clone, Copy)]
pub(crate) enum Source {
    /// Exactly this value of the field gives it.
    Unique(&'static Field, u128),
    /// Several values give it, which agree on the bits of the field set in
    /// `mask` (in the field's own value): those bits are `value`'s; the
    /// solver picks the others.
    Several { field: &'static Field, mask: u128, value: u128 },
    /// No value gives it: the reading fails, whatever the other bits are.
    /// `range` holds the values that are given, when they are every
    /// value from the least to the greatest (what a message says).
    None { range: Option<(i64, i64)> },
}

/// [`Source::None`] for a value not in `table`.
fn refused(table: &Table) -> Source {
    let range = match (table.first(), table.last()) {
        (Some(a), Some(b)) if b.value as i128 - a.value as i128 + 1 == table.len() as i128 => Some((a.value, b.value)),
        _ => None,
    };
    Source::None { range }
}

/// If `e`, evaluated at the end of `path` (a leaf, its case and place),
/// reads only one bit field of at most [`MAX_SOURCE_BITS`] bits besides the
/// generation and parameters the bits `bound` so far decide (`bits` holding
/// them): which values of that field give `n`. `None` (the option) when `e`
/// is not such an expression.
///
/// An expression of several bit fields, [`MAX_SOURCE_BITS`] in all, is
/// tabulated over all of them only to say [`Source::None`] at once (ir3's
/// `(nop9)`: two bits give 0 to 3); a value they give is left to the solver
/// (`None`), which chooses among the fields' values together.
pub(crate) fn source_of(
    isa: &Isa,
    path: &[Step],
    (bits, bound): (Bits, Bits),
    gen_: u32,
    e: Expr,
    n: i64,
) -> Option<Source> {
    let step = *path.last()?;
    let fields = isa.leaves[step.leaf as usize].cases[step.case as usize].fields;
    let mut r = Reads::default();
    reads(fields, e, &mut r, 0)?;
    let f = r.source?;
    let field: &'static Field = fields.get(f as usize)?;
    let Src::Bits(ranges) = field.src else { return None };
    let width = crate::width_of(ranges);
    // The other sources, by the ranges of each.
    let mut also: [&'static [crate::tables::Range]; MAX_SOURCES - 1] = [&[]; MAX_SOURCES - 1];
    let mut ptrs = [0usize; MAX_SOURCES - 1];
    let mut total = width;
    for (k, &g) in r.also[..r.also_len as usize].iter().enumerate() {
        let other: &'static Field = fields.get(g as usize)?;
        let Src::Bits(rs) = other.src else { return None };
        (also[k], ptrs[k]) = (rs, other as *const Field as usize);
        total += crate::width_of(rs);
    }
    let also = &also[..r.also_len as usize];
    if total > MAX_SOURCE_BITS || r.params.count_ones() as usize > MAX_PARAMS {
        return None;
    }
    // The parameters' values, when the bits bound so far decide them (and
    // they do not read the sources themselves).
    let own = std::iter::once(ranges)
        .chain(also.iter().copied())
        .fold(0, |m, rs| m | step.insert(0, rs, crate::bits::mask_of(0, crate::width_of(rs))).1);
    let mut params = [0i64; MAX_PARAMS];
    let mut env = Env { isa, bits, gen_, read: 0, given: Given::NONE };
    for (slot, p) in (0..32u16).filter(|p| r.params >> p & 1 == 1).enumerate() {
        params[slot] = env.param(path, p);
    }
    if env.read & !bound != 0 || env.read & own != 0 {
        return None;
    }
    let key = Key {
        expr: (e.as_ptr() as usize, e.len()),
        field: field as *const Field as usize,
        also: ptrs,
        gen_: if r.gen_ { gen_ } else { 0 },
        params,
    };
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= MAX_TABLES && !cache.contains_key(&key) {
            cache.clear();
        }
        // One lookup: this runs for every operand value read.
        let sources = || std::iter::once(ranges).chain(also.iter().copied());
        let table = cache.entry(key).or_insert_with(|| tabulate(isa, path, bits, gen_, e, sources()));
        Some(match table.binary_search_by_key(&n, |e| e.value) {
            Err(_) => refused(table),
            Ok(_) if !also.is_empty() => return None,
            Ok(at) => match table[at] {
                Entry { and, or, .. } if and == or => Source::Unique(field, and as u128),
                Entry { and, or, .. } => {
                    let mask = !(and ^ or) & crate::bits::mask_of(0, width) as u32;
                    Source::Several { field, mask: mask as u128, value: (and & mask) as u128 }
                }
            },
        })
    })
}

/// Evaluates `e` at the end of `path` for every value of its source fields
/// (each its ranges of the last step; the first field's value in the low
/// bits of an entry's `and` and `or`), the other bits as in `bits`.
fn tabulate<'r>(
    isa: &Isa,
    path: &[Step],
    bits: Bits,
    gen_: u32,
    e: Expr,
    sources: impl Iterator<Item = &'r [crate::tables::Range]> + Clone,
) -> Table {
    let Some(step) = path.last() else { return Vec::new() };
    let total: u32 = sources.clone().map(crate::width_of).sum();
    let mut table: Table = (0..1u32 << total)
        .map(|s| {
            let (mut bits, mut rest) = (bits, s as u128);
            for rs in sources.clone() {
                let width = crate::width_of(rs);
                bits = step.insert(bits, rs, rest & crate::bits::mask_of(0, width)).0;
                rest >>= width;
            }
            let mut env = Env { isa, bits, gen_, read: 0, given: Given::NONE };
            Entry { value: env.eval(path, e), and: s, or: s }
        })
        .collect();
    table.sort_unstable();
    table.dedup_by(|later, first| {
        let same = later.value == first.value;
        if same {
            first.and &= later.and;
            first.or |= later.or;
        }
        same
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::BinOp::{Add, Le, Sub};
    use crate::tables::{Range, Ty};

    fn field(name: &'static str, src: Src) -> Field {
        Field { name, src, ty: Ty::Int }
    }

    /// A value no source gives names the range of those given when they
    /// leave no gap, which is what a message can say.
    #[test]
    fn a_refused_value_names_the_range_only_without_gaps() {
        let table = |vs: &[i64]| -> Table { vs.iter().map(|&value| Entry { value, and: 0, or: 0 }).collect() };
        assert!(matches!(refused(&table(&[0, 1, 2, 3])), Source::None { range: Some((0, 3)) }));
        assert!(matches!(refused(&table(&[-2, -1, 0])), Source::None { range: Some((-2, 0)) }));
        assert!(matches!(refused(&table(&[0, 2, 3])), Source::None { range: None }));
        assert!(matches!(refused(&table(&[i64::MIN, i64::MAX])), Source::None { range: None }));
        assert!(matches!(refused(&table(&[])), Source::None { range: None }));
    }

    #[test]
    fn an_expression_of_one_bit_field_and_parameters_has_a_source() {
        // C <= 64 ? C : 64 - C
        const INLINE: &[Op] = &[
            Op::Field(2),
            Op::Lit(64),
            Op::Bin(Le),
            Op::Field(2),
            Op::Lit(64),
            Op::Field(2),
            Op::Bin(Sub),
            Op::Select,
        ];
        const TWO_FIELDS: &[Op] = &[Op::Field(1), Op::Field(2), Op::Bin(Add)];
        const PARAM: &[Op] = &[Op::Field(1), Op::Param(3), Op::Bin(Add)];
        const GEN: &[Op] = &[Op::Field(1), Op::Gen, Op::Bin(Add)];
        const CONSTANT: &[Op] = &[Op::Lit(3)];
        // Through a derived field (3, which reads 2) and a field that is a
        // parameter (4).
        const DERIVED: &[Op] = &[Op::Field(3), Op::Field(4), Op::Bin(Add)];
        const R1: &[Range] = &[Range { lo: 0, width: 3 }];
        const R2: &[Range] = &[Range { lo: 3, width: 7 }];
        let fields = [
            field("A", Src::Expr(CONSTANT)),
            field("B", Src::Bits(R1)),
            field("C", Src::Bits(R2)),
            field("V", Src::Expr(INLINE)),
            field("W", Src::Param(1)),
        ];
        let of = |e: Expr| {
            let mut r = Reads::default();
            reads(&fields, e, &mut r, 0).map(|()| r)
        };
        assert_eq!(of(INLINE), Some(Reads { source: Some(2), ..Reads::default() }));
        // Two bit fields: the first, and the other beside it.
        let two = Reads { source: Some(1), also: [2, 0, 0], also_len: 1, ..Reads::default() };
        assert_eq!(of(TWO_FIELDS), Some(two));
        assert_eq!(of(PARAM), Some(Reads { source: Some(1), params: 1 << 3, ..Reads::default() }));
        assert_eq!(of(GEN), Some(Reads { source: Some(1), gen_: true, ..Reads::default() }));
        assert_eq!(of(CONSTANT), Some(Reads::default()));
        assert_eq!(of(DERIVED), Some(Reads { source: Some(2), params: 1 << 1, ..Reads::default() }));
    }
}
