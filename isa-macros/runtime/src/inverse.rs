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

/// What a table depends on: the expression and the source field (their
/// addresses: both are static), and the generation and the values of the
/// parameters it reads (zero when it reads none).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    expr: (usize, usize),
    field: usize,
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
    params: u32,
    gen_: bool,
}

/// What `e`, over `fields` (a case's), reads through the derived fields it
/// names; `None` when it reads two bit fields (or is too deep to follow).
fn reads(fields: &[Field], e: Expr, out: &mut Reads, depth: u32) -> Option<()> {
    if depth > 8 {
        return None;
    }
    for op in e {
        match *op {
            Op::Field(f) => match fields.get(f as usize)?.src {
                Src::Bits(_) if out.source.is_none_or(|s| s == f) => out.source = Some(f),
                Src::Bits(_) => return None,
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
    None,
}

/// If `e`, evaluated at the end of `path` (a leaf, its case and place),
/// reads only one bit field of at most [`MAX_SOURCE_BITS`] bits besides the
/// generation and parameters the bits `bound` so far decide (`bits` holding
/// them): which values of that field give `n`. `None` (the option) when `e`
/// is not such an expression.
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
    if width > MAX_SOURCE_BITS || r.params.count_ones() as usize > MAX_PARAMS {
        return None;
    }
    // The parameters' values, when the bits bound so far decide them (and
    // they do not read the source itself).
    let own = step.insert(0, ranges, crate::bits::mask_of(0, width)).1;
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
        gen_: if r.gen_ { gen_ } else { 0 },
        params,
    };
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= MAX_TABLES && !cache.contains_key(&key) {
            cache.clear();
        }
        // One lookup: this runs for every operand value read.
        let table = cache.entry(key).or_insert_with(|| tabulate(isa, path, bits, gen_, e, ranges, width));
        Some(match table.binary_search_by_key(&n, |e| e.value) {
            Err(_) => Source::None,
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

/// Evaluates `e` at the end of `path` for every value of its source field
/// (`ranges`, `width` bits, of the last step), the other bits as in `bits`.
fn tabulate(
    isa: &Isa,
    path: &[Step],
    bits: Bits,
    gen_: u32,
    e: Expr,
    ranges: &[crate::tables::Range],
    width: u32,
) -> Table {
    let Some(step) = path.last() else { return Vec::new() };
    let mut table: Table = (0..1u32 << width)
        .map(|s| {
            let bits = step.insert(bits, ranges, s as u128).0;
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
        assert_eq!(of(INLINE), Some(Reads { source: Some(2), params: 0, gen_: false }));
        assert_eq!(of(TWO_FIELDS), None);
        assert_eq!(of(PARAM), Some(Reads { source: Some(1), params: 1 << 3, gen_: false }));
        assert_eq!(of(GEN), Some(Reads { source: Some(1), params: 0, gen_: true }));
        assert_eq!(of(CONSTANT), Some(Reads { source: None, params: 0, gen_: false }));
        assert_eq!(of(DERIVED), Some(Reads { source: Some(2), params: 1 << 1, gen_: false }));
    }
}
