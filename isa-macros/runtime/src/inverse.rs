//! Assembling a field computed from one narrow bit field.
//!
//! A template may print a value its encoding derives from a bit field
//! (`V: C <= 64 ? C : 64 - C`, GCN's inline integers). The text then gives
//! `V`, and the solver would enumerate `C` until the expression gives it, on
//! every line. When the expression reads nothing but that field, its values
//! are tabulated once per thread: a value exactly one `C` gives binds `C`
//! straight away, the same answer the solver finds (the only one). Values
//! several sources give, or none, stay constraints for the solver, which
//! picks among them or explains the failure.

use std::cell::RefCell;

use crate::bits::insert;
use crate::eval::{Env, Step};
use crate::tables::{Expr, Field, Isa, Op, Src};

/// Widest source field tabulated: at most 2^10 evaluations, once.
const MAX_SOURCE_BITS: u32 = 10;

/// Marks a value more than one source gives.
const SEVERAL: u32 = u32::MAX;

/// An expression's values over every source value, sorted by value: the
/// source that gives it, or [`SEVERAL`].
type Table = Vec<(i64, u32)>;

/// Tables built so far, by expression and source field (their addresses:
/// both are static). A target has a handful such expressions, so a list.
type Cache = Vec<((usize, usize, usize), Table)>;

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Vec::new()) };
}

/// The one bit field `e` reads, if it reads no other field, no parameter and
/// not the generation.
fn single_source(e: Expr) -> Option<u16> {
    let mut src = None;
    for op in e {
        match *op {
            Op::Field(f) if src.is_none_or(|s| s == f) => src = Some(f),
            Op::Field(_) | Op::Param(_) | Op::Gen => return None,
            _ => {}
        }
    }
    src
}

/// If `e`, evaluated for the leaf and case of `step`, reads only one bit
/// field of at most [`MAX_SOURCE_BITS`] bits and exactly one value of it
/// gives `n`: that field and the value.
pub(crate) fn unique_source(isa: &Isa, step: &Step, e: Expr, n: i64) -> Option<(&'static Field, u128)> {
    let f = single_source(e)?;
    let field: &'static Field = isa.leaves[step.leaf as usize].cases[step.case as usize].fields.get(f as usize)?;
    let Src::Bits(ranges) = field.src else { return None };
    let width = crate::width_of(ranges);
    if width > MAX_SOURCE_BITS {
        return None;
    }
    let key = (e.as_ptr() as usize, e.len(), field as *const Field as usize);
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let i = match cache.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                cache.push((key, tabulate(isa, step, e, ranges, width)));
                cache.len() - 1
            }
        };
        let table = &cache[i].1;
        let at = table.binary_search_by_key(&n, |&(v, _)| v).ok()?;
        let src = table[at].1;
        (src != SEVERAL).then_some((field, src as u128))
    })
}

/// Evaluates `e` for every value of its source field (`ranges`, `width`
/// bits, placed at bit 0 of a leaf alone).
fn tabulate(isa: &Isa, step: &Step, e: Expr, ranges: &[crate::tables::Range], width: u32) -> Table {
    let path = [Step { base: 0, map: &[], ..*step }];
    let mut table: Table = (0..1u32 << width)
        .map(|s| {
            let bits = insert(0, 0, ranges, s as u128).0;
            let mut env = Env { isa, bits, gen_: 0, read: 0 };
            (env.eval(&path, e), s)
        })
        .collect();
    table.sort_unstable();
    table.dedup_by(|later, first| {
        if later.0 == first.0 {
            first.1 = SEVERAL;
        }
        later.0 == first.0
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_expression_of_one_field_has_a_source() {
        use crate::tables::BinOp::{Add, Le, Sub};
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
        const PARAM: &[Op] = &[Op::Field(1), Op::Param(0), Op::Bin(Add)];
        const GEN: &[Op] = &[Op::Field(1), Op::Gen, Op::Bin(Add)];
        const CONSTANT: &[Op] = &[Op::Lit(3)];
        assert_eq!(single_source(INLINE), Some(2));
        assert_eq!(single_source(TWO_FIELDS), None);
        assert_eq!(single_source(PARAM), None);
        assert_eq!(single_source(GEN), None);
        assert_eq!(single_source(CONSTANT), None);
    }
}
