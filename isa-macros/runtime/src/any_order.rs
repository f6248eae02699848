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
///
/// A field may stand in the run wrapped in text of its own, the template's
/// text just before it (with no white space) and after it up to white space
/// or the next field: ir3's `(nop{NOP})` among its flags, which Mesa's parser
/// reads in any order with them (`(nop2)(sy)`). The wrapping is read with
/// the field wherever it stands. White space alone between two fields is a
/// gap in the run (the space of `(nop{NOP}) {UL}`); after its last field,
/// it is read before `rest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    /// The template from the run's start.
    toks: &'static [Tok],
    /// By field, the index of its token in `toks`, and for a wrapped one
    /// (bit `j` of `wrapped`) how many bytes of the text after it close
    /// the wrapping: indices rather than texts, as a run is copied at every
    /// field read and most are of flags alone.
    at: [u8; Run::MAX],
    cut: [u8; Run::MAX],
    wrapped: u8,
    /// Where the template goes on after the run, in `toks`.
    end: u8,
    pub len: u8,
    /// Bit `j`: field `j` is not read yet.
    pub left: u8,
    pub spans: [(u32, u32); Run::MAX],
}

impl Run {
    /// Most fields of a run read in any order: ir3 writes up to eight flags
    /// side by side before a mnemonic; a longer run reads its first eight so.
    pub const MAX: usize = 8;

    /// The run that starts at `toks` (a field, or text wrapping one), of the
    /// fields in `listed` (bit `i`: field `i`): `None` unless it holds two
    /// fields or more.
    pub fn starting(listed: u64, toks: &'static [Tok]) -> Option<Run> {
        let is_listed = |i: u16| i < 64 && listed >> i & 1 == 1;
        // Most fields a template writes are not listed: asked at each.
        let first = match *toks {
            [Tok::Field(j), ..] | [Tok::Lit(_), Tok::Field(j), ..] => j,
            _ => return None,
        };
        if !is_listed(first) {
            return None;
        }
        let mut run = Run {
            toks,
            at: [0; Run::MAX],
            cut: [0; Run::MAX],
            wrapped: 0,
            end: 0,
            len: 0,
            left: 0,
            spans: [(0, 0); Run::MAX],
        };
        let mut at = 0;
        while (run.len as usize) < Run::MAX && at + 3 < u8::MAX as usize {
            let Some((field_at, cut)) = element(&toks[at..], &is_listed) else { break };
            let n = run.len as usize;
            run.at[n] = (at + field_at) as u8;
            run.len += 1;
            at += field_at + 1;
            if let Some(cut) = cut {
                run.cut[n] = cut;
                run.wrapped |= 1 << n;
                at += 1;
            }
            // White space alone before another field of the run is a gap
            // in it (ir3's `(nop{NOP}) {UL}`); before anything else, it ends
            // the run.
            let more = (run.len as usize) < Run::MAX;
            let then = run.then();
            if !then.is_empty() {
                if !(more && then.trim().is_empty() && element(&toks[at..], &is_listed).is_some()) {
                    break;
                }
            } else if let [Tok::Lit(gap), ..] = toks[at..]
                && more
                && !gap.is_empty()
                && gap.trim().is_empty()
                && element(&toks[at + 1..], &is_listed).is_some()
            {
                at += 1;
            }
        }
        run.end = at as u8;
        run.left = ((1u16 << run.len) - 1) as u8;
        (run.len > 1).then_some(run)
    }

    /// Field `j`'s index in its case.
    pub fn field(&self, j: usize) -> u16 {
        match self.toks.get(self.at[j] as usize) {
            Some(&Tok::Field(i)) => i,
            _ => u16::MAX,
        }
    }

    /// The texts wrapping field `j`, before and after it, if it is wrapped.
    pub fn wrap(&self, j: usize) -> Option<(&'static str, &'static str)> {
        if self.wrapped >> j & 1 == 0 {
            return None;
        }
        let at = self.at[j] as usize;
        match self.toks.get(at.checked_sub(1)?..at + 2)? {
            [Tok::Lit(lead), _, Tok::Lit(after)] => Some((lead, after.get(..self.cut[j] as usize)?)),
            _ => None,
        }
    }

    /// The template's text after the run and before [`Run::rest`]: what
    /// follows the last wrapping's closing text in its token (the space of
    /// `(nop{NOP}) {UL}`).
    pub fn then(&self) -> &'static str {
        let Some(last) = (self.len as usize).checked_sub(1) else { return "" };
        if self.wrapped >> last & 1 == 0 {
            return "";
        }
        match self.toks.get(self.at[last] as usize + 1) {
            Some(Tok::Lit(after)) => after.get(self.cut[last] as usize..).unwrap_or(""),
            _ => "",
        }
    }

    /// The template after the run.
    pub fn rest(&self) -> &'static [Tok] {
        self.toks.get(self.end as usize..).unwrap_or(&[])
    }

    /// The run with its field `j` read, from `span`.
    pub fn read(mut self, j: usize, (from, to): (usize, usize)) -> Run {
        self.left &= !(1 << j);
        self.spans[j] = (from as u32, to as u32);
        self
    }
}

/// The field of a run that `toks` start with, if any: the index of its
/// token, and for one wrapped in text (see [`Run`]) how many bytes of the
/// text after it close the wrapping.
fn element(toks: &[Tok], is_listed: &impl Fn(u16) -> bool) -> Option<(usize, Option<u8>)> {
    match *toks {
        [Tok::Field(j), ..] if is_listed(j) => Some((0, None)),
        [Tok::Lit(lead), Tok::Field(j), Tok::Lit(after), ..]
            if is_listed(j) && wraps(lead) && after.starts_with(|c: char| !c.is_whitespace()) =>
        {
            let cut = after.find(char::is_whitespace).unwrap_or(after.len());
            Some((1, Some(u8::try_from(cut).ok()?)))
        }
        _ => None,
    }
}

/// Whether template text `lead` may open a field's wrapping in a run: not
/// empty, and no white space (which would let it start anywhere).
fn wraps(lead: &str) -> bool {
    !lead.is_empty() && !lead.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(run: &Run) -> Vec<u16> {
        (0..run.len as usize).map(|j| run.field(j)).collect()
    }

    #[test]
    fn a_run_is_listed_fields_side_by_side() {
        static TOKS: [Tok; 5] = [Tok::Field(0), Tok::Field(1), Tok::Field(2), Tok::Name, Tok::Field(3)];
        let toks: &'static [Tok] = &TOKS;
        // Fields 0, 1 and 3 listed: 0 and 1 stand side by side, 2 ends the run.
        let run = Run::starting(0b1011, toks).unwrap();
        assert_eq!(fields(&run), [0, 1]);
        assert_eq!((run.rest(), run.then()), (&toks[2..], ""));
        assert_eq!(run.left, 0b11);
        let read = run.read(1, (4, 8));
        assert_eq!((read.left, read.spans[1]), (0b01, (4, 8)));
        // One listed field alone is no run; an unlisted first field neither.
        assert_eq!(Run::starting(0b1001, toks), None);
        assert_eq!(Run::starting(0b1011, &toks[2..]), None);
        // At most eight fields.
        static LONG: [Tok; 12] = [Tok::Field(1); 12];
        let long = Run::starting(!0, &LONG).unwrap();
        assert_eq!((long.len as usize, long.rest().len()), (Run::MAX, 4));
    }

    #[test]
    fn a_field_in_a_run_may_be_wrapped_in_its_own_text() {
        // ir3's `{SY}{SS}(nop{NOP}) {UL}{NAME}`.
        static TOKS: [Tok; 7] =
            [Tok::Field(0), Tok::Field(1), Tok::Lit("(nop"), Tok::Field(2), Tok::Lit(") "), Tok::Field(3), Tok::Name];
        let toks: &'static [Tok] = &TOKS;
        let run = Run::starting(0b1111, toks).unwrap();
        assert_eq!(fields(&run), [0, 1, 2, 3]);
        assert_eq!((run.wrap(0), run.wrap(1), run.wrap(2), run.wrap(3)), (None, None, Some(("(nop", ")")), None));
        // The space after the wrapping is a gap in the run, `{UL}` after it
        // listed too.
        assert_eq!((run.then(), run.rest()), ("", &toks[6..]));
        // With `{UL}` not listed, the space ends the run; it is read before
        // the rest.
        let run = Run::starting(0b0111, toks).unwrap();
        assert_eq!((fields(&run), run.then(), run.rest()), (vec![0, 1, 2], " ", &toks[5..]));
        // A wrapped field may start a run, and a wrapping without white
        // space after it goes on to the next field.
        static GLUED: [Tok; 5] = [Tok::Lit("(nop"), Tok::Field(2), Tok::Lit(")"), Tok::Field(0), Tok::Name];
        let run = Run::starting(0b0101, &GLUED).unwrap();
        assert_eq!(fields(&run), [2, 0]);
        assert_eq!((run.wrap(0), run.wrap(1), run.then(), run.rest()), (Some(("(nop", ")")), None, "", &GLUED[4..]));
        // Text with white space does not wrap a field (it could start anywhere),
        // nor does a field that is not listed take part.
        static SPACED: [Tok; 4] = [Tok::Field(0), Tok::Lit(" (nop"), Tok::Field(2), Tok::Lit(")")];
        assert_eq!(Run::starting(0b0101, &SPACED), None);
        // White space alone between two fields of the run is a gap in it.
        static GAP: [Tok; 4] = [Tok::Field(0), Tok::Lit(" "), Tok::Field(1), Tok::Name];
        let run = Run::starting(0b11, &GAP).unwrap();
        assert_eq!((fields(&run), run.rest()), (vec![0, 1], &GAP[3..]));
        let unwrapped = Run::starting(0b1011, &TOKS).unwrap();
        assert_eq!((fields(&unwrapped), unwrapped.rest()), (vec![0, 1], &TOKS[2..]));
    }
}
