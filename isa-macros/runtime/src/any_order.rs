//! Fields the assembler reads in any order (`any-order:` in the spec): which
//! fields of each case the spec lists, found once per target, and the runs
//! of them a template writes side by side.
//!
//! The parser meets a template's fields one token at a time; comparing each
//! field's name with the listed names there cost ir3's general assembler
//! some 3% more machine instructions a line, so each case's listed fields
//! are kept as a mask of their indices.

use crate::kept::Kept;
use crate::tables::{Isa, Tok};

/// By leaf, by case, the fields `any-order:` lists (bit `i`: field `i`,
/// among the first 64).
pub(crate) struct Listed {
    cases: Vec<Box<[u64]>>,
}

impl Listed {
    fn build(isa: &Isa) -> Listed {
        let cases = isa
            .leaves
            .iter()
            .map(|l| {
                l.cases
                    .iter()
                    .map(|c| {
                        let listed =
                            c.fields.iter().enumerate().take(64).filter(|(_, f)| isa.any_order.contains(&f.name));
                        listed.fold(0u64, |m, (i, _)| m | 1 << i)
                    })
                    .collect()
            })
            .collect();
        Listed { cases }
    }

    /// The listed fields of case `case` of `leaf`, as a mask.
    pub(crate) fn of(&self, leaf: u16, case: u16) -> u64 {
        self.cases.get(leaf as usize).and_then(|c| c.get(case as usize)).copied().unwrap_or(0)
    }
}

static BUILT: Kept<Listed> = Kept::new();

/// The listed fields of `isa`, built on first use; `None` when it lists none.
pub(crate) fn listed(isa: &Isa) -> Option<&'static Listed> {
    (!isa.any_order.is_empty()).then(|| BUILT.get(isa, 0, || Listed::build(isa)))
}

/// Fields of a template side by side that the assembler reads in any order,
/// by index, those not read yet, and where each read so far was written (to
/// name one written twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub fields: [u16; Run::MAX],
    pub len: u8,
    /// Bit `j`: field `j` is not read yet.
    pub left: u8,
    pub spans: [(u32, u32); Run::MAX],
    /// The template after the run.
    pub rest: &'static [Tok],
}

impl Run {
    /// Most fields of a run read in any order: ir3 writes up to eight flags
    /// side by side before a mnemonic; a longer run reads its first eight so.
    pub const MAX: usize = 8;

    /// The run that field `first` starts where its template goes on with
    /// `rest`, of the fields in `listed` (bit `i`: field `i`): `None` unless
    /// the field after it is listed too.
    pub fn starting(listed: u64, first: u16, rest: &'static [Tok]) -> Option<Run> {
        let is_listed = |i: u16| i < 64 && listed >> i & 1 == 1;
        if !is_listed(first) {
            return None;
        }
        let mut run = Run { fields: [first; Run::MAX], len: 1, left: 0, spans: [(0, 0); Run::MAX], rest };
        for t in rest {
            match *t {
                Tok::Field(j) if is_listed(j) && (run.len as usize) < Run::MAX => {
                    run.fields[run.len as usize] = j;
                    run.len += 1;
                }
                _ => break,
            }
        }
        run.left = ((1u16 << run.len) - 1) as u8;
        run.rest = &rest[run.len as usize - 1..];
        (run.len > 1).then_some(run)
    }

    /// The run with its field `j` read, from `span`.
    pub fn read(mut self, j: usize, (from, to): (usize, usize)) -> Run {
        self.left &= !(1 << j);
        self.spans[j] = (from as u32, to as u32);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_listed_fields_side_by_side() {
        static TOKS: [Tok; 4] = [Tok::Field(1), Tok::Field(2), Tok::Name, Tok::Field(3)];
        let toks: &'static [Tok] = &TOKS;
        // Fields 0, 1 and 3 listed: 0 and 1 stand side by side, 2 ends the run.
        let run = Run::starting(0b1011, 0, toks).unwrap();
        assert_eq!(&run.fields[..run.len as usize], &[0, 1]);
        assert_eq!(run.rest, &toks[1..]);
        assert_eq!(run.left, 0b11);
        let read = run.read(1, (4, 8));
        assert_eq!((read.left, read.spans[1]), (0b01, (4, 8)));
        // One listed field alone is no run; an unlisted first field neither.
        assert_eq!(Run::starting(0b1001, 0, toks), None);
        assert_eq!(Run::starting(0b1011, 2, &toks[2..]), None);
        // At most eight fields.
        static LONG: [Tok; 12] = [Tok::Field(1); 12];
        let long = Run::starting(!0, 1, &LONG).unwrap();
        assert_eq!((long.len as usize, long.rest.len()), (Run::MAX, 5));
    }
}
