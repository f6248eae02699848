//! Precomputing the decoder (see `isa_runtime::Dispatch`): decision trees over
//! identifying bits, and each instruction's conditions and operand checks
//! tabulated as bitmaps.
//!
//! Tabulating is exact by construction. A check is a conjunction (of
//! `requires:` terms; of a case's enum and operand fields), and each part of it
//! is filled in by running the engine's reference code for that part alone on
//! every value of the bits it may read (found by walking its expressions and
//! operand encodings, a superset of what it reads). A part wider than
//! [`MAX_UNIT_BITS`] is read in narrower pieces where it can be, else
//! tabulated whole up to [`MAX_WIDE_UNIT_BITS`]; anything wider is left to
//! the reference code at run time.

use std::cell::RefCell;
use std::collections::HashMap;

use isa_runtime::{
    BinOp, Bits, Direct, Dispatch, Expr, Field, Isa, Length, NO_ASK, NO_FIELD, NODE, Node, Op, Plan, Range, Src, Step,
    Tree, Ty, Unit, mask_of,
};

/// Widest tabulated part: a bitmap of 2^12 bits (512 bytes), so that tabulating stays quick at build time.
pub const MAX_UNIT_BITS: u32 = 12;
/// Widest part tabulated whole when it cannot be read in narrower pieces
/// (a 16-bit immediate whose cases read all of it, such as a packed
/// hardware-register operand): a bitmap of 2^16 bits (8 KiB). A last
/// resort, because each such part costs 65,536 evaluations at build time;
/// the alternative is evaluating the part on every word decoded.
pub const MAX_WIDE_UNIT_BITS: u32 = 16;
/// Most evaluations the tables of one spec may spend, over every part
/// tabulated: GCN's take some 2.1 million, ir3's half a million. Each part
/// costs up to 65,536 (a wide one) and distinct conditions are not shared,
/// so a spec of thousands of encodings whose conditions each read a 16-bit
/// field would otherwise take minutes to build; past the budget a part is
/// left to the engine, which evaluates it as written on each word (the
/// same answers, decoded more slowly).
pub const MAX_EVALUATIONS: u64 = 1 << 24;

/// How wide a part [`Plans::tabulate`] may tabulate whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Width {
    /// Up to [`MAX_UNIT_BITS`].
    Narrow,
    /// Up to [`MAX_WIDE_UNIT_BITS`], when nothing narrower does.
    Wide,
}

impl Width {
    /// The order they are tried in: narrow parts where they do, a wide
    /// one as the last resort.
    const IN_ORDER: [Width; 2] = [Width::Narrow, Width::Wide];
}

/// Widest run of bits one tree node switches on.
const MAX_NODE_BITS: u32 = 8;
/// Widest run of bits the root switches on: one lookup of up to 4096 slots
/// finds most instructions' leaf (an ir3 category and opcode, a GCN encoding
/// and opcode), where narrower nodes would take two or three.
const MAX_ROOT_BITS: u32 = 12;
/// Deepest tree.
const MAX_TREE_DEPTH: u32 = 8;
/// Same as the engine's limit on nested operand encodings.
const MAX_DEPTH: usize = 8;

/// The precomputed decoder of `isa` (whose own `dispatch` is ignored).
pub fn build(isa: &Isa) -> Dispatch {
    let trees = (0..isa.groups.len()).map(|g| build_tree(isa, g as u16)).collect();
    let mut p = Plans::default();
    let bounds = gen_bounds(isa);
    let classes = bounds.as_ref().map_or(1, |b| b.len() + 1);
    let mut plans = Vec::with_capacity(isa.leaves.len() * classes);
    for class in 0..classes {
        for leaf in 0..isa.leaves.len() as u16 {
            let plan = match &bounds {
                Some(b) if isa.leaves[leaf as usize].group == 0 => p.plan(isa, leaf, class_rep(b, class)),
                _ => SLOW,
            };
            plans.push(plan);
        }
    }
    let mut d = Dispatch {
        gen_bounds: leak(bounds.unwrap_or_default()),
        trees: leak(trees),
        plans: leak(plans),
        units: leak(p.units),
        ranges: leak(p.ranges),
        bitmaps: leak(p.bitmaps),
        subs: leak(p.subs),
        cuts: leak(p.cuts),
        direct: Direct::empty(),
    };
    if let Some(tree) = d.trees.first() {
        d.direct = crate::direct::build(tree, &d, isa.leaves.len());
    }
    d
}

/// The plan that leaves everything to the reference code.
const SLOW: Plan = Plan {
    mask: 0,
    value: 0,
    units: 0,
    requires: 0,
    operands: 0,
    choice: 0,
    flags: Plan::WIDE | Plan::REQUIRES_SLOW | Plan::OPERANDS_SLOW | Plan::LENGTH_SLOW,
    then: 0,
    otherwise: 0,
};

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

// ---------------------------------------------------------------------------
// Generation classes

/// Most generation classes tabulated. Each class tabulates every leaf again,
/// and a spec may compare `gen` with any number of constants (targets have a
/// handful of classes); past this, nothing is tabulated, as when `gen` is used
/// other than in comparisons, and decoding takes the reference code.
pub const MAX_GEN_CLASSES: usize = 64;

/// The generations at which some condition of the spec may change value: the
/// leaves' generation ranges and the constants `gen` is compared with. `None`
/// when an expression uses `gen` other than in a comparison with a constant,
/// or when they make more than [`MAX_GEN_CLASSES`] classes (then nothing is
/// tabulated).
pub fn gen_bounds(isa: &Isa) -> Option<Vec<u32>> {
    let mut b = Vec::new();
    for l in isa.leaves {
        if l.gen_min > 0 {
            b.push(l.gen_min);
        }
        if l.gen_max < u32::MAX {
            b.push(l.gen_max + 1);
        }
        let mut exprs: Vec<Expr> = l.requires.to_vec();
        exprs.extend(l.length);
        for c in l.cases {
            exprs.extend(c.when);
            for f in c.fields {
                if let Src::Expr(e) = f.src {
                    exprs.push(e);
                }
                if let Ty::Group { params, .. } = f.ty {
                    exprs.extend(params.iter().copied());
                }
            }
        }
        for e in exprs {
            gen_constants(e, &mut b)?;
        }
    }
    b.sort_unstable();
    b.dedup();
    (b.len() < MAX_GEN_CLASSES).then_some(b)
}

/// Adds the constants `gen` is compared with in `e` (and the next value, so
/// both sides of `==` and `<=` are separate classes).
fn gen_constants(e: Expr, out: &mut Vec<u32>) -> Option<()> {
    use isa_runtime::BinOp::*;
    for (i, op) in e.iter().enumerate() {
        if *op != Op::Gen {
            continue;
        }
        let k = match (i.checked_sub(1).map(|j| e[j]), e.get(i + 1), e.get(i + 2)) {
            (_, Some(Op::Lit(k)), Some(Op::Bin(Lt | Le | Gt | Ge | Eq | Ne))) => *k,
            (Some(Op::Lit(k)), Some(Op::Bin(Lt | Le | Gt | Ge | Eq | Ne)), _) => k,
            _ => return None,
        };
        for v in [k, k.saturating_add(1)] {
            if let Ok(v) = u32::try_from(v.max(0)) {
                out.push(v);
            }
        }
    }
    Some(())
}

/// The first generation of class `class` (its representative).
fn class_rep(bounds: &[u32], class: usize) -> u32 {
    if class == 0 { 0 } else { bounds[class - 1] }
}

// ---------------------------------------------------------------------------
// Decision trees

struct TreeBuilder<'a> {
    isa: &'a Isa,
    width: u32,
    nodes: Vec<Node>,
    slots: Vec<u32>,
    lists: Vec<u16>,
    list_at: HashMap<Vec<u16>, u32>,
    built: HashMap<(Vec<u16>, Bits), u32>,
}

/// The decision tree of `group`: every leaf (of every generation) is reachable
/// from each word its identifying bits match, in priority order.
pub fn build_tree(isa: &Isa, group: u16) -> Tree {
    let g = &isa.groups[group as usize];
    let mut b = TreeBuilder {
        isa,
        width: g.bits.min(128),
        nodes: Vec::new(),
        slots: Vec::new(),
        lists: Vec::new(),
        list_at: HashMap::new(),
        built: HashMap::new(),
    };
    let root = b.build(g.leaves.to_vec(), 0, 0);
    Tree { root, nodes: leak(b.nodes), slots: leak(b.slots), lists: leak(b.lists) }
}

impl TreeBuilder<'_> {
    fn mask_value(&self, leaf: u16) -> (Bits, Bits) {
        let l = &self.isa.leaves[leaf as usize];
        // Bits past the shortest form identify only within the length: the
        // tree does not switch on them (the engine compares them).
        let m = l.mask & mask_of(0, self.width.min(l.min_bits));
        (m, l.value & m)
    }

    fn list(&mut self, cands: &[u16]) -> u32 {
        if let Some(&at) = self.list_at.get(cands) {
            return at;
        }
        let at = self.lists.len() as u32;
        self.lists.push(cands.len() as u16);
        self.lists.extend_from_slice(cands);
        self.list_at.insert(cands.to_vec(), at);
        at
    }

    fn build(&mut self, cands: Vec<u16>, fixed: Bits, depth: u32) -> u32 {
        let key = (cands, fixed);
        if let Some(&slot) = self.built.get(&key) {
            return slot;
        }
        let (cands, fixed) = key;
        let split =
            if cands.len() > 1 && depth < MAX_TREE_DEPTH { self.best_window(&cands, fixed, depth) } else { None };
        let slot = match split {
            None => self.list(&cands),
            Some((lo, w)) => {
                let index = self.nodes.len();
                let first = self.slots.len() as u32;
                self.nodes.push(Node { lo: lo as u8, width: w as u8, first });
                self.slots.extend(std::iter::repeat_n(0, 1 << w));
                let window = mask_of(lo, w);
                for v in 0..1u32 << w {
                    let want = (v as Bits) << lo;
                    let child: Vec<u16> = cands
                        .iter()
                        .copied()
                        .filter(|&c| {
                            let (m, val) = self.mask_value(c);
                            (want ^ val) & m & window == 0
                        })
                        .collect();
                    let s = self.build(child, fixed | window, depth + 1);
                    self.slots[(first + v) as usize] = s;
                }
                NODE | index as u32
            }
        };
        self.built.insert((cands, fixed), slot);
        slot
    }

    /// The run of bits that best splits `cands`: the smallest largest child,
    /// then the fewest candidates over all children. `None` if no run makes
    /// progress.
    fn best_window(&self, cands: &[u16], fixed: Bits, depth: u32) -> Option<(u32, u32)> {
        let widest = if depth == 0 { MAX_ROOT_BITS } else { MAX_NODE_BITS };
        let mut best: Option<((usize, usize), (u32, u32))> = None;
        for lo in 0..self.width {
            if fixed >> lo & 1 == 1 {
                continue;
            }
            for w in 1..=widest.min(self.width - lo) {
                if (fixed >> lo) & ((1 << w) - 1) != 0 {
                    break;
                }
                let Some(mut score) = self.score(cands, lo, w) else { continue };
                if depth == 0 {
                    // At the root, the fewest candidates per slot on average
                    // (scaled to the widest node): what is left below it.
                    score.1 <<= MAX_ROOT_BITS - w;
                }
                if score.0 < cands.len() && best.is_none_or(|(s, _)| score < s) {
                    best = Some((score, (lo, w)));
                }
            }
        }
        best.map(|(_, win)| win)
    }

    /// (largest child, total over children) for a node on `w` bits at `lo`.
    /// Candidates are counted per distinct mask in the window, so this costs
    /// masks × 2^w rather than candidates × 2^w.
    fn score(&self, cands: &[u16], lo: u32, w: u32) -> Option<(usize, usize)> {
        let wm: u32 = (1 << w) - 1;
        let mut by_mask: Vec<(u32, Vec<usize>)> = Vec::new();
        let mut useful = false;
        for &c in cands {
            let (m, v) = self.mask_value(c);
            let (m, v) = (((m >> lo) as u32) & wm, ((v >> lo) as u32) & wm);
            useful |= m != 0;
            let i = match by_mask.iter().position(|(bm, _)| *bm == m) {
                Some(i) => i,
                None => {
                    by_mask.push((m, vec![0; 1 << w]));
                    by_mask.len() - 1
                }
            };
            by_mask[i].1[v as usize] += 1;
        }
        if !useful {
            return None;
        }
        let (mut max, mut total) = (0, 0);
        for v in 0..=wm {
            let n: usize = by_mask.iter().map(|(m, counts)| counts[(v & m) as usize]).sum();
            max = max.max(n);
            total += n;
        }
        Some((max, total))
    }
}

// ---------------------------------------------------------------------------
// Which bits a check may read

/// A step of the scope chain, as the engine's: the leaf, its case, and where
/// its bits sit (`base` in the word that `map` gathers, or in the instruction
/// word when `map` is empty).
#[derive(Clone, Copy)]
struct St {
    leaf: u16,
    case: u16,
    base: u32,
    via: u16,
    map: &'static [Range],
}

impl St {
    fn top(leaf: u16, case: u16) -> St {
        St { leaf, case, base: 0, via: 0, map: &[] }
    }

    /// The engine's step of a scope chain.
    fn step(&self) -> Step {
        Step { leaf: self.leaf, case: self.case, base: self.base, via: self.via, map: self.map }
    }

    /// The instruction-word bits of a mask of this leaf's bits.
    fn in_word(&self, local: Bits) -> Option<Bits> {
        let shifted = local.checked_shl(self.base)?;
        Some(if self.map.is_empty() { shifted } else { isa_runtime::insert(0, 0, self.map, shifted).0 })
    }

    /// The place of the operand in field `fi`, made of `ranges` (its form
    /// not yet known).
    fn operand(&self, ranges: &'static [Range], fi: usize) -> Option<St> {
        let (base, map) = self.child(ranges)?;
        Some(St { leaf: 0, case: 0, base, via: fi as u16, map })
    }

    /// Where the operand in a field made of `ranges` sits (as the engine places it).
    fn child(&self, ranges: &'static [Range]) -> Option<(u32, &'static [Range])> {
        match ranges {
            [r] => Some((self.base + r.lo as u32, self.map)),
            _ if self.map.is_empty() && self.base == 0 => Some((0, ranges)),
            _ => None,
        }
    }
}

/// The bits expressions and operand checks may read, for one generation.
struct Deps<'a> {
    isa: &'a Isa,
    gen_: u32,
    /// Instruction-word bits known to hold `value`: operand forms whose
    /// identifying bits disagree are never chosen, so what they read is not
    /// read.
    known: Bits,
    value: Bits,
    /// Whether what an operand's parameters read counts.
    params: bool,
    /// Bits (one run) that may be read only as one unsigned number compared
    /// with constants, which are gathered in `cuts`; any other read of them
    /// fails the walk. 0 when any read is allowed.
    wide: Bits,
    cuts: RefCell<Vec<i64>>,
}

impl<'a> Deps<'a> {
    fn field(&self, path: &[St], idx: u16) -> Option<Bits> {
        let s = path.last()?;
        let f = self.isa.leaves[s.leaf as usize].cases.get(s.case as usize)?.fields.get(idx as usize)?;
        match f.src {
            // The wide bits read other than whole, or not compared.
            Src::Bits(r) => s.in_word(ranges_mask(r, 0)).filter(|m| m & self.wide == 0),
            Src::Expr(e) => self.expr(path, e),
            Src::Param(p) => self.param(path, p),
        }
    }

    /// The run of instruction-word bits whose number `op` (a field or
    /// parameter read at the end of `path`) is, unsigned and unchanged: a
    /// bit field, a field or parameter that is just one, or the low bits of
    /// one (`LITERAL & 0xffff`). `Some(None)` for any other value.
    fn plain(&self, path: &[St], op: Op) -> Option<Option<Bits>> {
        match op {
            Op::Field(i) => {
                let s = path.last()?;
                let f = self.isa.leaves[s.leaf as usize].cases.get(s.case as usize)?.fields.get(i as usize)?;
                match f.src {
                    Src::Bits([r]) if s.map.is_empty() && !f.is_signed() => Some(s.in_word(ranges_mask(&[*r], 0))),
                    Src::Bits(_) => Some(None),
                    Src::Expr(e) => self.plain_expr(path, e),
                    Src::Param(p) => self.plain(path, Op::Param(p)),
                }
            }
            Op::Param(p) => match self.binding(path, p)? {
                Some((parent, e)) => self.plain_expr(parent, e),
                None => Some(None),
            },
            _ => Some(None),
        }
    }

    /// [`Deps::plain`] of a whole expression.
    fn plain_expr(&self, path: &[St], e: Expr) -> Option<Option<Bits>> {
        match *e {
            [one] => self.plain(path, one),
            [a, Op::Lit(m), Op::Bin(BinOp::BitAnd)] if low_ones(m) => {
                Some(self.plain(path, a)?.map(|r| lowest(r, m.count_ones())))
            }
            _ => Some(None),
        }
    }

    /// Whether the leaf at the end of `path` is never chosen: one of its
    /// `requires` conditions reads only known bits and fails on them (a
    /// literal form for 32-bit values, when the operand is a 16-bit one).
    fn ruled_out(&self, path: &[St]) -> bool {
        let Some(s) = path.last() else { return false };
        let mut terms = Vec::new();
        for r in self.isa.leaves[s.leaf as usize].requires {
            isa_runtime::conjuncts(r, &mut terms);
        }
        let reads = Deps { known: self.known, value: self.value, ..Deps::new(self.isa, self.gen_) };
        let steps: Vec<Step> = path.iter().map(|s| s.step()).collect();
        terms.iter().any(|&t| {
            reads.expr(path, t).is_some_and(|r| r & !self.known == 0)
                && self.isa.eval_at(&steps, t, self.value & self.known, self.gen_) == 0
        })
    }

    fn new(isa: &'a Isa, gen_: u32) -> Deps<'a> {
        Deps { isa, gen_, known: 0, value: 0, params: true, wide: 0, cuts: RefCell::new(Vec::new()) }
    }

    /// Whether the identifying bits of `leaf`, placed at `place`, may match
    /// the known bits.
    fn may_match(&self, leaf: &isa_runtime::Leaf, width: u32, place: St) -> Option<bool> {
        let m = place.in_word(leaf.mask & mask_of(0, width))?;
        let v = place.in_word(leaf.value & leaf.mask & mask_of(0, width))?;
        Some((v ^ self.value) & m & self.known == 0)
    }

    fn param(&self, path: &[St], p: u16) -> Option<Bits> {
        match self.binding(path, p)? {
            Some((parent, e)) => self.expr(parent, e),
            None => Some(0),
        }
    }

    /// The expression the enclosing field passes for parameter `p` of the
    /// leaf at the end of `path`, with the scope it is read in: `Some(None)`
    /// when there is none, or parameters do not count here.
    fn binding<'p>(&self, path: &'p [St], p: u16) -> Option<Option<(&'p [St], Expr)>> {
        let n = path.len();
        if n < 2 || !self.params {
            return Some(None);
        }
        let (step, parent) = (path[n - 1], &path[..n - 1]);
        let ps = parent[n - 2];
        let pf = self.isa.leaves[ps.leaf as usize].cases.get(ps.case as usize)?.fields.get(step.via as usize)?;
        Some(match pf.ty {
            Ty::Group { params, .. } => params.get(p as usize).map(|&e| (parent, e)),
            _ => None,
        })
    }

    fn expr(&self, path: &[St], e: Expr) -> Option<Bits> {
        let mut d = 0;
        let mut k = 0;
        while k < e.len() {
            let op = e[k];
            if let Op::Field(_) | Op::Param(_) = op
                && let Some(run) = self.plain(path, op)?
            {
                // `F & 0xffff` reads the low bits of F only.
                let (run, last) = match e.get(k + 1..k + 3) {
                    Some(&[Op::Lit(m), Op::Bin(BinOp::BitAnd)]) if low_ones(m) => (lowest(run, m.count_ones()), k + 2),
                    _ => (run, k),
                };
                if self.wide != 0 && run == self.wide {
                    self.cuts.borrow_mut().push(compared_with(e, k, last)?);
                    d |= run;
                    k = last + 1;
                    continue;
                }
                if last > k {
                    d |= Some(run).filter(|r| r & self.wide == 0)?;
                    k = last + 1;
                    continue;
                }
            }
            d |= match op {
                Op::Field(i) => self.field(path, i)?,
                Op::Param(i) => self.param(path, i)?,
                _ => 0,
            };
            k += 1;
        }
        Some(d)
    }

    /// What choosing a form of `group` at `place` reads.
    fn select(&self, path: &mut Vec<St>, group: u16, place: St) -> Option<Bits> {
        let g = &self.isa.groups[group as usize];
        let mut d = 0;
        for &l in g.leaves {
            let leaf = &self.isa.leaves[l as usize];
            if !leaf.exists_in(self.gen_) || !self.may_match(leaf, g.bits, place)? {
                continue;
            }
            if leaf.mask.checked_shr(leaf.min_bits).unwrap_or(0) != 0 {
                // Identifying bits past the short form depend on the length.
                return None;
            }
            let mask = place.in_word(leaf.mask & mask_of(0, g.bits))?;
            if mask & self.wide != 0 {
                let value = place.in_word(leaf.value & leaf.mask & mask_of(0, g.bits))?;
                self.cuts.borrow_mut().extend(top_cuts(self.wide, mask, value)?);
            }
            d |= mask & !self.wide;
            path.push(St { leaf: l, case: (leaf.cases.len() - 1) as u16, ..place });
            let r = match self.ruled_out(path) {
                true => Some(0),
                false => leaf.requires.iter().try_fold(0, |acc, r| Some(acc | self.expr(path, r)?)),
            };
            path.pop();
            d |= r?;
        }
        Some(d)
    }

    /// What checking the operand field `fi` of the leaf at the end of `path`
    /// (in its current case) reads: `Some(0)` for a field that is not checked.
    fn site(&self, path: &mut Vec<St>, fi: usize) -> Option<Bits> {
        let s = *path.last()?;
        let f = &self.isa.leaves[s.leaf as usize].cases[s.case as usize].fields[fi];
        match (f.ty, f.src) {
            // An enum that names every value its bits can hold never fails.
            (Ty::Enum(e), Src::Bits(r)) if enum_is_total(self.isa, e, r) => Some(0),
            (Ty::Enum(_), Src::Bits(r)) => s.in_word(ranges_mask(r, 0)).filter(|m| m & self.wide == 0),
            (Ty::Group { group, .. }, Src::Bits(r)) => {
                if path.len() >= MAX_DEPTH {
                    return None;
                }
                let place = s.operand(r, fi)?;
                let select = self.select(path, group, place)?;
                let width = self.isa.groups[group as usize].bits;
                let (mut checks, mut catch_all) = (0, false);
                for &l in self.isa.groups[group as usize].leaves {
                    let leaf = &self.isa.leaves[l as usize];
                    if !leaf.exists_in(self.gen_) || !self.may_match(leaf, width, place)? {
                        continue;
                    }
                    catch_all |= leaf.mask & mask_of(0, width) == 0 && leaf.requires.is_empty();
                    path.push(St { leaf: l, case: (leaf.cases.len() - 1) as u16, ..place });
                    let r = if self.ruled_out(path) { Some(0) } else { self.check(path) };
                    path.pop();
                    checks |= r?;
                }
                // Which form is chosen matters only to its own checks: when
                // no form has any and one matches every word (`offset:N`
                // beside the form for 0), the operand always decodes.
                Some(if checks == 0 && catch_all { 0 } else { select | checks })
            }
            _ => Some(0),
        }
    }

    /// The identifying bits of the forms operand field `fi` of the leaf at
    /// the end of `path` may take (what chooses the form, conditions aside).
    fn forms(&self, path: &[St], fi: usize) -> Option<Bits> {
        let s = *path.last()?;
        let f = &self.isa.leaves[s.leaf as usize].cases[s.case as usize].fields[fi];
        let (Ty::Group { group, .. }, Src::Bits(r)) = (f.ty, f.src) else { return Some(0) };
        let place = s.operand(r, fi)?;
        let g = &self.isa.groups[group as usize];
        let mut d = 0;
        for &l in g.leaves {
            let leaf = &self.isa.leaves[l as usize];
            if leaf.exists_in(self.gen_) {
                d |= place.in_word(leaf.mask & mask_of(0, g.bits))?;
            }
        }
        Some(d)
    }

    /// What checking the leaf at the end of `path` reads, in every case.
    fn check(&self, path: &mut Vec<St>) -> Option<Bits> {
        let s = *path.last()?;
        let leaf = &self.isa.leaves[s.leaf as usize];
        let default = (leaf.cases.len() - 1) as u16;
        let mut d = 0;
        for (ci, case) in leaf.cases.iter().enumerate() {
            if case.parse_only {
                continue;
            }
            path.last_mut()?.case = ci as u16;
            for fi in 0..case.fields.len() {
                let r = self.site(path, fi);
                d |= r?;
            }
        }
        path.last_mut()?.case = default;
        // Which case is chosen matters only when some check reads anything:
        // with no field to check (a literal operand, whose cases read the
        // literal, which a check need not tabulate), or none that can fail
        // (a register's cases name its special registers, whose fields are
        // as total as the others'), checking reads nothing.
        if d == 0 {
            return Some(0);
        }
        Some(d | self.when_deps(path)?)
    }

    /// What choosing the case of the leaf at the end of `path` reads.
    fn when_deps(&self, path: &mut [St]) -> Option<Bits> {
        let s = *path.last()?;
        let leaf = &self.isa.leaves[s.leaf as usize];
        path.last_mut()?.case = (leaf.cases.len() - 1) as u16;
        let mut d = 0;
        for c in leaf.cases.iter().filter(|c| !c.parse_only) {
            if let Some(e) = c.when {
                d |= self.expr(path, e)?;
            }
        }
        Some(d)
    }
}

/// The constants a form's identifying bits compare the number in the run
/// `wide` with, when those inside it are its top bits (a source whose
/// unused high bits must be clear): the form matches a number in
/// `[h << k, (h + 1) << k)`, `h` the value of its top bits and `k` the bits
/// below them, so its answer changes at `h << k` and after the cut
/// `((h + 1) << k) - 1` only (each cut starts an interval at it and after
/// it). `None` when the identifying bits inside the run are not its top
/// bits, or the run is too wide for the engine's numbers.
fn top_cuts(wide: Bits, mask: Bits, value: Bits) -> Option<[i64; 2]> {
    let (lo, width) = (wide.trailing_zeros(), wide.count_ones());
    let inside = mask & wide;
    if width > 62 || inside == 0 {
        return None;
    }
    // The bits inside, from the lowest of them to the run's top.
    let k = inside.trailing_zeros() - lo;
    if inside != mask_of(lo + k, width - k) {
        return None;
    }
    let h = ((value & inside) >> (lo + k)) as i64;
    Some([h << k, ((h + 1) << k) - 1])
}

/// The bits of `ranges` (most significant first, as [`scatter`] lays a
/// table's index out) on which the table `bitmap` over them depends: those
/// where flipping the bit changes some answer.
fn needed_bits(bitmap: &[u64], ranges: &[Range]) -> Bits {
    let n: u32 = ranges.iter().map(|r| r.width as u32).sum();
    let answer = |i: u64| bitmap[(i / 64) as usize] >> (i % 64) & 1;
    (0..n)
        .filter(|&k| (0..1u64 << n).any(|i| answer(i) != answer(i ^ 1 << k)))
        .fold(0, |m, k| m | scatter(1 << k, ranges))
}

/// Whether enum `e` names every value of the bits `r`.
fn enum_is_total(isa: &Isa, e: u16, r: &[Range]) -> bool {
    let width: u32 = r.iter().map(|x| x.width as u32).sum();
    let values = isa.enums[e as usize].values;
    width < 16 && {
        let mut seen = vec![false; 1 << width];
        for v in values {
            if let Some(s) = seen.get_mut(v.value as usize) {
                *s = true;
            }
        }
        seen.iter().all(|&s| s)
    }
}

fn ranges_mask(r: &[Range], base: u32) -> Bits {
    r.iter().fold(0, |m, r| m | mask_of(base + r.lo as u32, r.width as u32))
}

// ---------------------------------------------------------------------------
// Tabulated checks

/// A part of a check: what identifies it (equal keys are the same function of
/// the same bits), the bits it may read, and the reference code that decides it.
struct Part<'f> {
    key: String,
    deps: Bits,
    /// For an operand: the bits that choose its form.
    forms: Bits,
    /// For an operand every case has: the case and field the engine checks.
    site: Option<(u16, u16)>,
    holds: Box<dyn Fn(Bits) -> bool + 'f>,
    /// For an operand: what it reads given some known bits (see [`Deps`]).
    reads: Option<Reads<'f>>,
    /// For an operand: the constants the bits `wide` are compared with when
    /// the bits `known` hold `value`, if that is all that is done with them.
    cuts: Option<Cuts<'f>>,
}

/// What a part reads when the bits `known` hold `value`, counting what
/// operand parameters read or not.
type Reads<'f> = Box<dyn Fn(Bits, Bits, bool) -> Option<Bits> + 'f>;

/// The constants a part compares the bits `wide` with, given `known` bits
/// holding `value` (`Fn(known, value, wide)`): `None` when it reads them
/// otherwise.
type Cuts<'f> = Box<dyn Fn(Bits, Bits, Bits) -> Option<Vec<i64>> + 'f>;

/// Whether `m` is a run of low ones (`0xffff`).
fn low_ones(m: i64) -> bool {
    m > 0 && m & m.wrapping_add(1) == 0
}

/// The lowest `n` bits of the run of bits `run`.
fn lowest(run: Bits, n: u32) -> Bits {
    mask_of(run.trailing_zeros(), n.min(run.count_ones()))
}

/// Most intervals a unit read by intervals may have.
const MAX_INTERVALS: usize = 256;

/// The constant that the value `e[first..=last]` pushes is compared with,
/// when the comparison's other operand is a literal.
fn compared_with(e: Expr, first: usize, last: usize) -> Option<i64> {
    let compares = |op: Option<&Op>| {
        matches!(op, Some(Op::Bin(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)))
    };
    // Postfix: `x c <` or `c x <`.
    match (first.checked_sub(1).and_then(|i| e.get(i)), e.get(last + 1), e.get(last + 2)) {
        (_, Some(Op::Lit(c)), next) if compares(next) => Some(*c),
        (Some(Op::Lit(c)), next, _) if compares(next) => Some(*c),
        _ => None,
    }
}

#[derive(Default)]
struct Plans {
    units: Vec<Unit>,
    ranges: Vec<Range>,
    bitmaps: Vec<u64>,
    bitmap_at: HashMap<Vec<u64>, u32>,
    subs: Vec<u32>,
    subs_at: HashMap<Vec<u32>, u32>,
    cuts: Vec<u64>,
    cuts_at: HashMap<Vec<u64>, u32>,
    ranges_at: HashMap<Vec<Range>, u32>,
    /// Tabulated parts by (key, bits tabulated, identifying bits read, generation).
    memo: HashMap<(String, Bits, Bits, u32), Unit>,
    /// Evaluations spent so far, against [`MAX_EVALUATIONS`].
    spent: u64,
}

impl Plans {
    fn plan(&mut self, isa: &Isa, leaf: u16, gen_: u32) -> Plan {
        let l = &isa.leaves[leaf as usize];
        if !l.exists_in(gen_) {
            return Plan { flags: Plan::ABSENT, ..SLOW };
        }
        // Identifying bits past the short form are compared only within the
        // length (a short word reads zeros there), so the engine compares
        // the leaf's own mask on the instruction's own bits. On every word
        // of the leaf they still hold its value (a bit it sets past the
        // short form rules the short form out), so the parts may take them
        // as constant.
        let past_short = l.mask.checked_shr(l.min_bits).unwrap_or(0) != 0;
        let deps = Deps::new(isa, gen_);
        let mut flags = match (l.mask >> 64 != 0, past_short) {
            (true, _) => Plan::WIDE | Plan::PAST_64,
            (false, true) => Plan::WIDE,
            (false, false) => 0,
        };
        let requires = Width::IN_ORDER
            .into_iter()
            .find_map(|w| requires_parts(&deps, leaf).and_then(|parts| self.tabulate(isa, leaf, gen_, parts, w)));
        let operands = Width::IN_ORDER
            .into_iter()
            .find_map(|w| operand_parts(&deps, leaf).and_then(|parts| self.tabulate(isa, leaf, gen_, parts, w)));
        let (length, choice) = self.length(isa, leaf, gen_);
        let (then, otherwise) = match length {
            Length::Fixed(n) => (n, n),
            Length::Choice { then, otherwise, .. } => {
                flags |= Plan::CHOICE;
                (then, otherwise)
            }
            Length::Slow => {
                flags |= Plan::LENGTH_SLOW;
                (0, 0)
            }
        };
        flags |= if requires.is_none() { Plan::REQUIRES_SLOW } else { 0 };
        flags |= if operands.is_none() { Plan::OPERANDS_SLOW } else { 0 };
        let (requires, operands) = (requires.unwrap_or_default(), operands.unwrap_or_default());
        let count = |v: &Vec<Unit>| u8::try_from(v.len()).ok();
        let (Some(nr), Some(no), Some(nc)) = (count(&requires), count(&operands), count(&choice)) else {
            return SLOW;
        };
        if requires.iter().chain(&operands).chain(&choice).any(|u| u.ask != NO_ASK) {
            flags |= Plan::ASKS;
        }
        let units = self.units.len() as u32;
        self.units.extend(requires.into_iter().chain(operands).chain(choice));
        Plan {
            mask: l.mask as u64,
            value: (l.value & l.mask) as u64,
            units,
            requires: nr,
            operands: no,
            choice: nc,
            flags,
            then,
            otherwise,
        }
    }

    /// The leaf's length: a constant when the identifying bits fix it, else
    /// `c ? a : b` with constant `a` and `b` as a check of `c`, or of `!c` when
    /// `c` is a disjunction (`SSRC0 == 255 || SSRC1 == 255` is two parts
    /// as `SSRC0 != 255 && SSRC1 != 255`, not one too wide to tabulate).
    /// Its parts are returned beside it (the `start` of a choice means
    /// nothing: the plan places them).
    fn length(&mut self, isa: &Isa, leaf: u16, gen_: u32) -> (Length, Vec<Unit>) {
        let l = &isa.leaves[leaf as usize];
        let Some(e) = l.length else { return (fixed_length(l.bits), Vec::new()) };
        let base = l.value & l.mask;
        let deps = Deps::new(isa, gen_);
        let path = [St::top(leaf, (l.cases.len() - 1) as u16)];
        // The engine reads the length from the short form's bits only.
        let short = mask_of(0, l.min_bits);
        let slow = (Length::Slow, Vec::new());
        let Some(read) = deps.expr(&path, e) else { return slow };
        if read & short & !l.mask == 0 {
            return (isa.length_of(leaf, base, gen_).map_or(Length::Slow, fixed_length), Vec::new());
        }
        let Some((c, a, b)) = isa_runtime::select_operands(e) else { return slow };
        let (Some(a), Some(b)) = (valid_length(l, a), valid_length(l, b)) else { return slow };
        let part = |key: String, t: Expr, negate: bool| -> Option<Part<'_>> {
            Some(Part {
                key,
                deps: deps.expr(&path, t)? & short,
                holds: Box::new(move |w| isa.condition_holds(leaf, t, w & short, gen_) != negate),
                forms: 0,
                site: None,
                reads: None,
                cuts: None,
            })
        };
        // `c` as all of its conjuncts (then `a`), or as none of its disjuncts
        // (then `b`).
        let splits: [(Split, bool, u16, u16); 2] =
            [(isa_runtime::conjuncts, false, a, b), (isa_runtime::disjuncts, true, b, a)];
        let tries = Width::IN_ORDER.into_iter().flat_map(|w| splits.map(|s| (s, w)));
        for ((split, negate, then, otherwise), width) in tries {
            let mut terms = Vec::new();
            split(c, &mut terms);
            let parts: Option<Vec<Part<'_>>> = terms
                .iter()
                .enumerate()
                .map(|(i, &t)| part(format!("leaf {leaf} length {negate} {i}"), t, negate))
                .collect();
            if let Some(parts) = parts
                && let Some(units) = self.tabulate(isa, leaf, gen_, parts, width)
            {
                return (Length::Choice { start: 0, len: units.len() as u16, then, otherwise }, units);
            }
        }
        slow
    }

    /// Tabulates each part over the bits it reads besides the leaf's
    /// identifying bits (which are constant for every word of the leaf):
    /// `None` when one is left to the reference code.
    fn tabulate(&mut self, isa: &Isa, leaf: u16, gen_: u32, parts: Vec<Part<'_>>, width: Width) -> Option<Vec<Unit>> {
        let l = &isa.leaves[leaf as usize];
        let (fixed, base) = (l.mask, l.value & l.mask);
        // A part too wide to tabulate whole is tabulated over fewer bits:
        // those it reads without its parameters, or else those that choose
        // its form. For each of their values: the answer, or a unit over
        // what that value reads besides (an ir3 source's float-table index
        // when the form bits say it is one), or "ask the engine" where even
        // that is too wide (a GCN literal's value decides whether it
        // decodes: one holding an inline constant does not).
        let mut narrow = Vec::with_capacity(parts.len());
        for p in &parts {
            let deps = p.deps & !fixed;
            if deps.count_ones() <= MAX_UNIT_BITS {
                narrow.push(None);
                continue;
            }
            let bare = p.reads.as_ref().and_then(|r| r(fixed, base, false)).map(|d| d & !fixed);
            let forms = Some(p.forms & !fixed).filter(|&f| f != 0 && p.reads.is_some());
            match [bare, forms].into_iter().flatten().find(|d| d.count_ones() <= MAX_UNIT_BITS) {
                Some(d) => narrow.push(Some(d)),
                None if width == Width::Wide && deps.count_ones() <= MAX_WIDE_UNIT_BITS => narrow.push(None),
                None => return None,
            }
        }
        let mut units = Vec::new();
        for (p, narrow) in parts.into_iter().zip(narrow) {
            let deps = p.deps & !fixed;
            if deps == 0 && (p.holds)(base) {
                continue;
            }
            let memo_key = (p.key, deps, base & p.deps, gen_);
            let mut unit = match self.memo.get(&memo_key) {
                Some(u) => *u,
                None => {
                    let u = match (narrow, &p.reads) {
                        (Some(n), Some(reads)) => {
                            let known = fixed | n;
                            let more = |w: Bits| reads(known, w, true).map(|d| d & !known);
                            let cuts = p.cuts.as_ref().map(|c| move |w: Bits, wide: Bits| c(known, w, wide));
                            let cuts = cuts.as_ref().map(|c| c as &dyn Fn(Bits, Bits) -> Option<Vec<i64>>);
                            self.unit(base, n, &*p.holds, Some(&more), cuts, true)?
                        }
                        _ => self.unit(base, deps, &*p.holds, None, None, true)?,
                    };
                    self.memo.insert(memo_key, u);
                    u
                }
            };
            // What the engine checks for the values left to it: this field
            // alone, not every operand again.
            (unit.case, unit.field) = p.site.unwrap_or((NO_FIELD, NO_FIELD));
            if !units.contains(&unit) {
                units.push(unit);
            }
        }
        Some(units)
    }

    /// Whether `n` more evaluations fit [`MAX_EVALUATIONS`]; if so they
    /// are spent.
    fn spend(&mut self, n: u64) -> bool {
        let fits = self.spent.saturating_add(n) <= MAX_EVALUATIONS;
        if fits {
            self.spent += n;
        }
        fits
    }

    /// Tabulates `holds` over the bits `deps` (with `narrow`, those of
    /// them it depends on), the others as in `base`. With
    /// `more`, only the values for which it says the answer reads no other
    /// bit are answered; for the others, a unit over the other bits it
    /// names; when they are too many, a unit over their intervals if `cuts`
    /// finds the constants they are compared with, else "ask the engine".
    /// `None` when the values are more than the budget has left.
    fn unit(
        &mut self,
        base: Bits,
        deps: Bits,
        holds: &dyn Fn(Bits) -> bool,
        more: Option<&dyn Fn(Bits) -> Option<Bits>>,
        cuts: Option<&dyn Fn(Bits, Bits) -> Option<Vec<i64>>>,
        narrow: bool,
    ) -> Option<Unit> {
        let n = deps.count_ones();
        if !self.spend(1 << n) {
            return None;
        }
        let mut bitmap = vec![0u64; (1usize << n).div_ceil(64)];
        let mut ask = vec![0u64; bitmap.len()];
        let mut subs = vec![NO_ASK; 1 << n];
        let ranges = runs(deps);
        for i in 0..1u64 << n {
            let w = base | scatter(i, &ranges);
            match more.map(|m| m(w)) {
                Some(Some(0)) | None => {
                    if holds(w) {
                        bitmap[(i / 64) as usize] |= 1 << (i % 64);
                    }
                }
                Some(other) => {
                    ask[(i / 64) as usize] |= 1 << (i % 64);
                    let u = match other {
                        Some(d) if d.count_ones() <= MAX_UNIT_BITS => self.unit(w, d, holds, None, None, false),
                        Some(d) => cuts.and_then(|c| self.intervals(w, d, holds, c(w, d)?)),
                        None => None,
                    };
                    if let Some(u) = u {
                        subs[i as usize] = self.unit_index(u);
                    }
                }
            }
        }
        // With `narrow`, bits whose value never changes the answer are not
        // read: a GCN VOP3 source's validity does not depend on its `abs`
        // and `neg` bits (one form for each), so it is a table of its code
        // alone. (A second unit keeps its bits: an operand's second units
        // over the same bits fold into one ask.)
        if narrow && ask.iter().all(|&w| w == 0) {
            let needed = needed_bits(&bitmap, &ranges);
            // Not when that splits a run: one run is a probe's key.
            if needed != 0 && needed != deps && runs(needed).len() <= ranges.len() {
                return self.unit(base, needed, holds, None, None, false);
            }
        }
        let bitmap = intern(&mut self.bitmaps, &mut self.bitmap_at, bitmap);
        let ask =
            if ask.iter().any(|&w| w != 0) { intern(&mut self.bitmaps, &mut self.bitmap_at, ask) } else { NO_ASK };
        let sub =
            if subs.iter().any(|&s| s != NO_ASK) { intern(&mut self.subs, &mut self.subs_at, subs) } else { NO_ASK };
        let range_start = intern(&mut self.ranges, &mut self.ranges_at, ranges.clone());
        let (lo, width) = match ranges[..] {
            [one] => (one.lo, one.width),
            _ => (0, 0),
        };
        Some(Unit {
            lo,
            width,
            range_start,
            range_len: ranges.len() as u8,
            bitmap,
            ask,
            sub,
            case: NO_FIELD,
            field: NO_FIELD,
        })
    }

    /// Tabulates `holds` over the intervals of the bits `wide` (one run, read
    /// as a number) that the constants `cut` (those it is compared with)
    /// delimit, the other bits as in `base`: a comparison with `c` changes
    /// value only at `c` or `c + 1`, so the answer is the same throughout
    /// each interval and its first value stands for it. `None` when `wide`
    /// is not one run a 64-bit number holds, the intervals are too many, or
    /// the budget has not that many evaluations left.
    fn intervals(&mut self, base: Bits, wide: Bits, holds: &dyn Fn(Bits) -> bool, cut: Vec<i64>) -> Option<Unit> {
        let [run] = runs(wide)[..] else { return None };
        // Past 62 bits the engine's signed comparisons would not follow the
        // number's order.
        if run.width > 62 {
            return None;
        }
        let top = 1i64 << run.width;
        let mut starts: Vec<u64> = cut
            .iter()
            .flat_map(|&c| [c, c.saturating_add(1)])
            .filter(|&s| s > 0 && s < top)
            .map(|s| s as u64)
            .collect();
        starts.push(0);
        starts.sort_unstable();
        starts.dedup();
        if !self.spend(starts.len() as u64) {
            return None;
        }
        // Neighbouring intervals with the same answer are one.
        let (mut kept, mut answers) = (Vec::new(), Vec::new());
        for s in starts {
            let a = holds(base | scatter(s, &[run]));
            if answers.last() != Some(&a) {
                kept.push(s);
                answers.push(a);
            }
        }
        if kept.len() > MAX_INTERVALS {
            return None;
        }
        let mut bitmap = vec![0u64; kept.len().div_ceil(64)];
        for (k, _) in answers.iter().enumerate().filter(|(_, a)| **a) {
            bitmap[k / 64] |= 1 << (k % 64);
        }
        let mut table = vec![kept.len() as u64];
        table.extend(kept);
        Some(Unit {
            lo: run.lo,
            width: run.width,
            range_start: intern(&mut self.cuts, &mut self.cuts_at, table),
            range_len: Unit::CUTS,
            bitmap: intern(&mut self.bitmaps, &mut self.bitmap_at, bitmap),
            ask: NO_ASK,
            sub: NO_ASK,
            case: NO_FIELD,
            field: NO_FIELD,
        })
    }

    /// The index of a unit that answers by itself, added to the units.
    fn unit_index(&mut self, u: Unit) -> u32 {
        self.units.push(u);
        (self.units.len() - 1) as u32
    }
}

/// Where `v` is in the shared `table` (appended when new; `at` remembers).
pub(crate) fn intern<T: Clone + Eq + std::hash::Hash>(
    table: &mut Vec<T>,
    at: &mut HashMap<Vec<T>, u32>,
    v: Vec<T>,
) -> u32 {
    let next = table.len() as u32;
    *at.entry(v).or_insert_with_key(|v| {
        table.extend_from_slice(v);
        next
    })
}

/// Splits an expression into operands (`conjuncts`, `disjuncts`).
type Split = fn(Expr, &mut Vec<Expr>);

/// A length the engine accepts for any encoding of `l` (`None` for one it
/// would reject, which is left to the reference code and its error).
fn valid_length(l: &isa_runtime::Leaf, e: Expr) -> Option<u16> {
    let [Op::Lit(n)] = e else { return None };
    (l.min_bits as i64..=l.bits as i64).contains(n).then_some(()).filter(|_| n % 8 == 0).map(|_| *n as u16)
}

fn fixed_length(bits: u32) -> Length {
    u16::try_from(bits).map_or(Length::Slow, Length::Fixed)
}

/// The runs of set bits of `m`, highest first (the order `extract` reads).
pub(crate) fn runs(m: Bits) -> Vec<Range> {
    let mut out = Vec::new();
    let mut lo = 0;
    while lo < 128 {
        if m >> lo & 1 == 0 {
            lo += 1;
            continue;
        }
        let mut w = 0;
        while lo + w < 128 && m >> (lo + w) & 1 == 1 {
            w += 1;
        }
        out.push(Range { lo: lo as u8, width: w as u8 });
        lo += w;
    }
    out.reverse();
    out
}

/// The word whose `ranges` hold the value `v` (the inverse of `extract`).
fn scatter(v: u64, ranges: &[Range]) -> Bits {
    isa_runtime::insert(0, 0, ranges, v as u128).0
}

/// The `requires` conditions, one part per operand of a top-level `&&`.
fn requires_parts<'a>(deps: &Deps<'a>, leaf: u16) -> Option<Vec<Part<'a>>> {
    let (isa, gen_) = (deps.isa, deps.gen_);
    let l = &isa.leaves[leaf as usize];
    let path = [St::top(leaf, (l.cases.len() - 1) as u16)];
    let mut parts = Vec::new();
    let mut terms = Vec::new();
    for r in l.requires {
        isa_runtime::conjuncts(r, &mut terms);
    }
    // Past the shortest form, a variable-length instruction's conditions
    // read bits that its length keeps or clears: the engine reads every
    // part on the instruction's own bits, zeros past a short one's end, as
    // the reference decoder evaluates the condition.
    for (i, t) in terms.into_iter().enumerate() {
        parts.push(Part {
            key: format!("leaf {leaf} requires {i}"),
            deps: deps.expr(&path, t)?,
            holds: Box::new(move |b| isa.condition_holds(leaf, t, b, gen_)),
            forms: 0,
            site: None,
            reads: None,
            cuts: None,
        });
    }
    Some(parts)
}

/// The operand checks: one part per checked field. A field every case has
/// (or of the one case the generation fixes) is its own part; one only some
/// cases have is a part with the bits that choose the case.
fn operand_parts<'a>(deps: &Deps<'a>, leaf: u16) -> Option<Vec<Part<'a>>> {
    let (isa, gen_) = (deps.isa, deps.gen_);
    let l = &isa.leaves[leaf as usize];
    let mut path = vec![St::top(leaf, (l.cases.len() - 1) as u16)];
    let when = deps.when_deps(&mut path)? & !l.mask;
    let cases: Vec<u16> = if when == 0 {
        // The case does not depend on the operands: the one in force for any word.
        vec![isa.case_in_force(leaf, l.value & l.mask, gen_)]
    } else {
        (0..l.cases.len() as u16).filter(|&c| !l.cases[c as usize].parse_only).collect()
    };
    // Checked fields per case: (key, field index, bits read).
    let mut sites: Vec<Vec<(String, usize, Bits)>> = Vec::new();
    for &c in &cases {
        path[0].case = c;
        let fields = l.cases[c as usize].fields;
        let mut here = Vec::new();
        for (fi, f) in fields.iter().enumerate() {
            if is_checked(f) {
                here.push((site_key(isa, fields, f, leaf, c as usize), fi, deps.site(&mut path, fi)?));
            }
        }
        sites.push(here);
    }
    let mut parts = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (ci, here) in sites.iter().enumerate() {
        for (key, fi, d) in here {
            if !seen.insert(key.clone()) {
                continue;
            }
            let having: Vec<(u16, usize)> = sites
                .iter()
                .zip(&cases)
                .filter_map(|(s, &c)| s.iter().find(|(k, _, _)| k == key).map(|(_, f, _)| (c, *f)))
                .collect();
            let all = sites.iter().flatten().filter(|(k, _, _)| k == key).fold(*d, |m, (_, _, d)| m | d);
            if having.len() == cases.len() {
                let (c, fi) = (cases[ci], *fi);
                parts.push(Part {
                    key: key.clone(),
                    deps: all,
                    forms: deps.forms(&[St::top(leaf, c)], fi)?,
                    site: Some((c, fi as u16)),
                    holds: Box::new(move |b| isa.operand_holds(leaf, c, fi, b, gen_)),
                    reads: Some(Box::new(move |known, value, params| {
                        let d = Deps { known, value, params, ..Deps::new(isa, gen_) };
                        d.site(&mut vec![St::top(leaf, c)], fi)
                    })),
                    cuts: Some(Box::new(move |known, value, wide| {
                        let d = Deps { known, value, wide, ..Deps::new(isa, gen_) };
                        d.site(&mut vec![St::top(leaf, c)], fi)?;
                        Some(d.cuts.into_inner())
                    })),
                });
            } else {
                // Once the bits that choose the case are known, the field
                // of that case (if it has one) reads what it reads there:
                // an ir3 alias's source is a register, a const or an
                // immediate by the case, its unused high bits clear.
                let site = std::rc::Rc::new(move |value: Bits| {
                    let c = isa.case_in_force(leaf, value, gen_);
                    having.iter().find(|(hc, _)| *hc == c).map(|&(c, fi)| (c, fi))
                });
                let (for_reads, for_cuts) = (site.clone(), site.clone());
                parts.push(Part {
                    key: format!("leaf {leaf} cases {key}"),
                    deps: all | when,
                    forms: when,
                    site: None,
                    holds: Box::new(move |b| site(b).is_none_or(|(c, fi)| isa.operand_holds(leaf, c, fi, b, gen_))),
                    reads: Some(Box::new(move |known, value, params| {
                        if when & !known != 0 {
                            return Some(all | when);
                        }
                        let Some((c, fi)) = for_reads(value) else { return Some(0) };
                        Deps { known, value, params, ..Deps::new(isa, gen_) }.site(&mut vec![St::top(leaf, c)], fi)
                    })),
                    cuts: Some(Box::new(move |known, value, wide| {
                        if when & !known != 0 {
                            return None;
                        }
                        let Some((c, fi)) = for_cuts(value) else { return Some(Vec::new()) };
                        let d = Deps { known, value, wide, ..Deps::new(isa, gen_) };
                        d.site(&mut vec![St::top(leaf, c)], fi)?;
                        Some(d.cuts.into_inner())
                    })),
                });
            }
        }
    }
    Some(parts)
}

/// The parameters of `group` (a bit each) that checking one of its forms may
/// read: those its conditions, case choices, computed fields or nested
/// operands' parameters name (a superset; past 64, all are counted).
fn checked_params(isa: &Isa, group: u16) -> u64 {
    let g = &isa.groups[group as usize];
    if g.params.len() > 64 {
        return !0;
    }
    let mut used = 0u64;
    for &l in g.leaves {
        let leaf = &isa.leaves[l as usize];
        let cases = || leaf.cases.iter().filter(|c| !c.parse_only);
        let mut exprs: Vec<Expr> = leaf.requires.to_vec();
        for c in cases() {
            exprs.extend(c.when);
            for f in c.fields {
                match (f.src, f.ty) {
                    (Src::Expr(e), _) => exprs.push(e),
                    (_, Ty::Group { params, .. }) => exprs.extend(params.iter().copied()),
                    _ => {}
                }
            }
        }
        for op in exprs.iter().flat_map(|e| e.iter()) {
            match *op {
                Op::Param(p) => used |= 1 << p.min(63),
                // Field `i` may be a parameter in one case and not another.
                Op::Field(i) => {
                    for c in cases() {
                        if let Some(Field { src: Src::Param(p), .. }) = c.fields.get(i as usize) {
                            used |= 1 << (*p).min(63);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    used
}

fn is_checked(f: &Field) -> bool {
    matches!((f.ty, f.src), (Ty::Enum(_) | Ty::Group { .. }, Src::Bits(_)))
}

/// What a checked field is, independent of its name and index: its bits, its
/// type and the parameters its check reads, with the fields they read
/// spelled out (a computed field is only known to mean the same within its
/// leaf and case). A parameter only shown (ir3's `(r)`) is left out, so a
/// source that cases pass different ones to is one part, not one per case.
fn site_key(isa: &Isa, fields: &[Field], f: &Field, leaf: u16, case: usize) -> String {
    let params = match f.ty {
        Ty::Group { group, params } => {
            let used = checked_params(isa, group);
            let ps: Vec<String> = params
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    // Past 64 parameters, all are counted as read.
                    if i < 64 && used & (1 << i) == 0 {
                        return "_".to_string();
                    }
                    spell(fields, e, leaf, case, 0)
                })
                .collect();
            format!("group {group} ({})", ps.join(", "))
        }
        Ty::Enum(e) => format!("enum {e}"),
        _ => String::new(),
    };
    format!("{:?} {params}", f.src)
}

/// Expression `e` over `fields` with the fields it reads spelled out (bit
/// fields as their bits and signedness, computed ones as their expressions),
/// so that equal texts compute the same value from the same bits.
fn spell(fields: &[Field], e: Expr, leaf: u16, case: usize, depth: u32) -> String {
    e.iter()
        .map(|op| match op {
            Op::Field(i) => match fields.get(*i as usize) {
                Some(f @ Field { src: src @ Src::Bits(_), .. }) => format!("{src:?} {}", f.is_signed()),
                Some(Field { src: Src::Expr(inner), .. }) if depth < 8 => {
                    format!("({})", spell(fields, inner, leaf, case, depth + 1))
                }
                _ => format!("leaf {leaf} case {case} field {i}"),
            },
            other => format!("{other:?}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_scatter_invert_extract() {
        let m: Bits = 0b1110_0110 | (1 << 100);
        let r = runs(m);
        assert_eq!(r, [Range { lo: 100, width: 1 }, Range { lo: 5, width: 3 }, Range { lo: 1, width: 2 }]);
        for v in 0..64u64 {
            let bits = scatter(v, &r);
            assert_eq!(bits & !m, 0);
            assert_eq!(isa_runtime::extract(bits, 0, &r), v as u128);
        }
    }

    #[test]
    fn a_value_compared_with_a_literal_gives_its_cut() {
        use isa_runtime::BinOp::{Add, BitAnd, Le, Lt};
        // `x < 5`, `5 < x` and `(x & 0xff) <= 7`.
        assert_eq!(compared_with(&[Op::Field(0), Op::Lit(5), Op::Bin(Lt)], 0, 0), Some(5));
        assert_eq!(compared_with(&[Op::Lit(5), Op::Field(0), Op::Bin(Lt)], 1, 1), Some(5));
        let masked: Expr = &[Op::Field(0), Op::Lit(0xff), Op::Bin(BitAnd), Op::Lit(7), Op::Bin(Le)];
        assert_eq!(compared_with(masked, 0, 2), Some(7));
        // Arithmetic, or a comparison with another value, is not a cut.
        assert_eq!(compared_with(&[Op::Field(0), Op::Lit(1), Op::Bin(Add)], 0, 0), None);
        assert_eq!(compared_with(&[Op::Field(0), Op::Field(1), Op::Bin(Lt)], 0, 0), None);
        assert_eq!(compared_with(&[Op::Field(0)], 0, 0), None);
        // The literal under `x` belongs to another operation: `1 + (x < 2)`.
        let e: Expr = &[Op::Lit(1), Op::Field(0), Op::Lit(2), Op::Bin(Lt), Op::Bin(Add)];
        assert_eq!(compared_with(e, 1, 1), Some(2));
    }

    #[test]
    fn top_bits_of_a_run_cut_it_where_they_change() {
        let run = mask_of(8, 24);
        // Bits 16..31 clear: the number (from bit 8) below 1 << 8.
        assert_eq!(top_cuts(run, mask_of(16, 16), 0), Some([0, 255]));
        // The whole run, set to 5: exactly 5.
        assert_eq!(top_cuts(run, run, 5 << 8), Some([5, 5]));
        // Bits past the run count for nothing; the top two bits `10`.
        assert_eq!(top_cuts(run, mask_of(30, 4), 0b10 << 30), Some([0b10 << 22, (0b11 << 22) - 1]));
        // Not the run's top bits, or none of its bits: no cuts.
        assert_eq!(top_cuts(run, mask_of(8, 4), 0), None);
        assert_eq!(top_cuts(run, mask_of(16, 8), 0), None);
        assert_eq!(top_cuts(run, mask_of(0, 8), 0), None);
        assert_eq!(top_cuts(mask_of(0, 63), mask_of(62, 1), 0), None, "past 62 bits");
    }

    #[test]
    fn bits_that_change_no_answer_are_not_needed() {
        // A table over bits 4..5 and 8 (index: bit 5, bit 4, bit 8) whose
        // answer is bit 4 alone.
        let ranges = runs(1 << 8 | 0b11 << 4);
        let mut bitmap = [0u64];
        for i in 0..8u64 {
            bitmap[0] |= ((scatter(i, &ranges) >> 4 & 1) as u64) << i;
        }
        assert_eq!(needed_bits(&bitmap, &ranges), 1 << 4);
        // Bit 8 or bit 5: both.
        let mut bitmap = [0u64];
        for i in 0..8u64 {
            let w = scatter(i, &ranges);
            bitmap[0] |= (((w >> 8 | w >> 5) & 1) as u64) << i;
        }
        assert_eq!(needed_bits(&bitmap, &ranges), 1 << 8 | 1 << 5);
        // A constant answer needs none.
        assert_eq!(needed_bits(&[0xff], &ranges), 0);
    }

    #[test]
    fn low_masks_narrow_a_run() {
        assert!(low_ones(0xffff) && low_ones(1) && !low_ones(0) && !low_ones(0xff00) && !low_ones(-1));
        assert_eq!(lowest(mask_of(32, 32), 16), mask_of(32, 16));
        assert_eq!(lowest(mask_of(4, 3), 16), mask_of(4, 3));
    }

    #[test]
    fn gen_comparisons_make_classes() {
        let mut out = Vec::new();
        let e: Expr = &[Op::Gen, Op::Lit(8), Op::Bin(isa_runtime::BinOp::Ge)];
        gen_constants(e, &mut out).unwrap();
        assert_eq!(out, [8, 9]);
        let e: Expr = &[Op::Lit(500), Op::Gen, Op::Bin(isa_runtime::BinOp::Le)];
        gen_constants(e, &mut out).unwrap();
        assert_eq!(out, [8, 9, 500, 501]);
        // Arithmetic on the generation cannot be split into classes.
        let e: Expr = &[Op::Gen, Op::Lit(2), Op::Bin(isa_runtime::BinOp::Mul)];
        assert!(gen_constants(e, &mut out).is_none());
        assert_eq!(class_rep(&[8, 9], 0), 0);
        assert_eq!(class_rep(&[8, 9], 2), 9);
    }
}
