//! Code generation: the tables as Rust `static` data, plus the typed `Opcode`
//! enum. Only data is generated; the engine in `isa-runtime` does the work.
//!
//! Leaves of one format repeat the same field lists, templates and
//! expressions thousands of times. Written out inline, GCN's tables were 19 MB
//! of Rust that took rustc most of a minute to type-check; so every slice of
//! a type that names itself (`Emit::ty`) is written once, as a `static` of
//! its own, and referred to wherever it recurs (see `Interner`).

use std::cell::RefCell;
use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use isa_runtime::*;

use crate::lower::Spec;

pub(crate) trait Emit {
    fn emit(&self) -> TokenStream;

    /// The Rust type of an emitted value, for types whose slices are worth
    /// sharing; `None` keeps slices of this type inline.
    fn ty() -> Option<TokenStream>
    where
        Self: Sized,
    {
        None
    }
}

/// Shared slices: the text of each distinct slice, and the `static` that
/// holds it. Active while [`module`] emits a target's tables.
#[derive(Default)]
struct Interner {
    names: HashMap<String, proc_macro2::Ident>,
    statics: Vec<TokenStream>,
}

thread_local! {
    static INTERNER: RefCell<Option<Interner>> = const { RefCell::new(None) };
}

/// Emits `f`'s tokens with slice sharing on, followed by the shared statics.
fn interned(f: impl FnOnce() -> TokenStream) -> TokenStream {
    INTERNER.with(|i| *i.borrow_mut() = Some(Interner::default()));
    let code = f();
    let statics = INTERNER.with(|i| i.borrow_mut().take()).map(|i| i.statics).unwrap_or_default();
    quote!(#code #(#statics)*)
}

/// `&NAME` for a `static NAME: [ty; n]` holding `items`, shared with every
/// equal slice, or `None` when no interner is active.
fn intern(ty: &TokenStream, items: &[TokenStream]) -> Option<TokenStream> {
    INTERNER.with(|i| {
        let mut guard = i.borrow_mut();
        let interner = guard.as_mut()?;
        let body = quote!(#(#items),*);
        let key = format!("{ty}:{body}");
        if let Some(name) = interner.names.get(&key) {
            return Some(quote!(&#name));
        }
        let name = format_ident!("SHARED_{}", interner.statics.len());
        let n = items.len();
        interner.statics.push(quote!(static #name: [#ty; #n] = [#body];));
        interner.names.insert(key, name.clone());
        Some(quote!(&#name))
    })
}

impl<T: Emit> Emit for &[T] {
    fn emit(&self) -> TokenStream {
        let items: Vec<TokenStream> = self.iter().map(|x| x.emit()).collect();
        if !items.is_empty()
            && let Some(ty) = T::ty()
            && let Some(shared) = intern(&ty, &items)
        {
            return shared;
        }
        quote!(&[#(#items),*])
    }

    fn ty() -> Option<TokenStream> {
        T::ty().map(|t| quote!(&'static [#t]))
    }
}

impl<T: Emit> Emit for Option<T> {
    fn emit(&self) -> TokenStream {
        match self {
            Some(x) => {
                let x = x.emit();
                quote!(Some(#x))
            }
            None => quote!(None),
        }
    }
}

impl Emit for &str {
    fn emit(&self) -> TokenStream {
        let l = Literal::string(self);
        quote!(#l)
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(&'static str))
    }
}

macro_rules! emit_int {
    ($($t:ty => $f:ident),*) => {$(
        impl Emit for $t {
            fn emit(&self) -> TokenStream {
                let l = Literal::$f(*self);
                quote!(#l)
            }
        }
    )*};
}
emit_int!(u8 => u8_suffixed, u16 => u16_suffixed, u32 => u32_suffixed, u64 => u64_suffixed, i64 => i64_suffixed, u128 => u128_suffixed);

impl Emit for Gen {
    fn emit(&self) -> TokenStream {
        let (n, v, a) = (self.name.emit(), self.value.emit(), self.aliases.emit());
        quote!(::isa_runtime::Gen { name: #n, value: #v, aliases: #a })
    }
}

impl Emit for RawSyntax {
    fn emit(&self) -> TokenStream {
        let (p, u, b) = (self.prefix.emit(), self.uppercase, self.bits.emit());
        quote!(::isa_runtime::RawSyntax { prefix: #p, uppercase: #u, bits: #b })
    }
}

impl Emit for &RawSyntax {
    fn emit(&self) -> TokenStream {
        (*self).emit()
    }
}

impl Emit for EnumValue {
    fn emit(&self) -> TokenStream {
        let (v, d) = (self.value.emit(), self.display.emit());
        quote!(::isa_runtime::EnumValue { value: #v, display: #d })
    }
}

impl Emit for Enum {
    fn emit(&self) -> TokenStream {
        let (n, v, a, s) = (self.name.emit(), self.values.emit(), self.also.emit(), self.set.as_ref().emit());
        quote!(::isa_runtime::Enum { name: #n, values: #v, also: #a, set: #s })
    }
}

impl Emit for &SetSyntax {
    fn emit(&self) -> TokenStream {
        let (o, s, c) = (self.open.emit(), self.separator.emit(), self.close.emit());
        let names = self.names.iter().map(|&(b, n)| {
            let n = n.emit();
            quote!((#b, #n))
        });
        quote!(::isa_runtime::SetSyntax { open: #o, separator: #s, close: #c, names: &[#(#names),*] })
    }
}

impl Emit for Param {
    fn emit(&self) -> TokenStream {
        let (n, t) = (self.name.emit(), self.ty.emit());
        quote!(::isa_runtime::Param { name: #n, ty: #t })
    }
}

impl Emit for Group {
    fn emit(&self) -> TokenStream {
        let (n, b, l, p) = (self.name.emit(), self.bits.emit(), self.leaves.emit(), self.params.emit());
        quote!(::isa_runtime::Group { name: #n, bits: #b, leaves: #l, params: #p })
    }
}

impl Emit for Range {
    fn emit(&self) -> TokenStream {
        let (l, w) = (self.lo.emit(), self.width.emit());
        quote!(::isa_runtime::Range { lo: #l, width: #w })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Range))
    }
}

impl Emit for BinOp {
    fn emit(&self) -> TokenStream {
        let id = format_ident!("{}", format!("{self:?}"));
        quote!(::isa_runtime::BinOp::#id)
    }
}

impl Emit for Op {
    fn emit(&self) -> TokenStream {
        match self {
            Op::Lit(v) => {
                let v = v.emit();
                quote!(::isa_runtime::Op::Lit(#v))
            }
            Op::Field(i) => {
                let i = i.emit();
                quote!(::isa_runtime::Op::Field(#i))
            }
            Op::Param(i) => {
                let i = i.emit();
                quote!(::isa_runtime::Op::Param(#i))
            }
            Op::Gen => quote!(::isa_runtime::Op::Gen),
            Op::Not => quote!(::isa_runtime::Op::Not),
            Op::Neg => quote!(::isa_runtime::Op::Neg),
            Op::BitNot => quote!(::isa_runtime::Op::BitNot),
            Op::Select => quote!(::isa_runtime::Op::Select),
            Op::Bin(b) => {
                let b = b.emit();
                quote!(::isa_runtime::Op::Bin(#b))
            }
        }
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Op))
    }
}

impl Emit for Ty {
    fn emit(&self) -> TokenStream {
        match self {
            Ty::Uint => quote!(::isa_runtime::Ty::Uint),
            Ty::UintSat => quote!(::isa_runtime::Ty::UintSat),
            Ty::Int => quote!(::isa_runtime::Ty::Int),
            Ty::Hex => quote!(::isa_runtime::Ty::Hex),
            Ty::HexLit { float, unsigned } => {
                let f = float.emit();
                quote!(::isa_runtime::Ty::HexLit { float: #f, unsigned: #unsigned })
            }
            Ty::Offset => quote!(::isa_runtime::Ty::Offset),
            Ty::UOffset => quote!(::isa_runtime::Ty::UOffset),
            Ty::Float { format } => {
                let f = format.emit();
                quote!(::isa_runtime::Ty::Float { format: #f })
            }
            Ty::Bool { on, inverted } => {
                let on = on.emit();
                quote!(::isa_runtime::Ty::Bool { on: #on, inverted: #inverted })
            }
            Ty::Enum(e) => {
                let e = e.emit();
                quote!(::isa_runtime::Ty::Enum(#e))
            }
            Ty::Group { group, params } => {
                let g = group.emit();
                let p = params.emit();
                quote!(::isa_runtime::Ty::Group { group: #g, params: #p })
            }
        }
    }
}

impl Emit for Src {
    fn emit(&self) -> TokenStream {
        match self {
            Src::Bits(r) => {
                let r = r.emit();
                quote!(::isa_runtime::Src::Bits(#r))
            }
            Src::Expr(e) => {
                let e = e.emit();
                quote!(::isa_runtime::Src::Expr(#e))
            }
            Src::Param(p) => {
                let p = p.emit();
                quote!(::isa_runtime::Src::Param(#p))
            }
        }
    }
}

impl Emit for Field {
    fn emit(&self) -> TokenStream {
        let (n, s, t) = (self.name.emit(), self.src.emit(), self.ty.emit());
        quote!(::isa_runtime::Field { name: #n, src: #s, ty: #t })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Field))
    }
}

impl Emit for Tok {
    fn emit(&self) -> TokenStream {
        match self {
            Tok::Lit(s) => {
                let s = s.emit();
                quote!(::isa_runtime::Tok::Lit(#s))
            }
            Tok::Field(i) => {
                let i = i.emit();
                quote!(::isa_runtime::Tok::Field(#i))
            }
            Tok::Name => quote!(::isa_runtime::Tok::Name),
            Tok::Column => quote!(::isa_runtime::Tok::Column),
            Tok::Opt(s) => {
                let s = s.emit();
                quote!(::isa_runtime::Tok::Opt(#s))
            }
            Tok::OptField(s, i, d) => {
                let (s, i, d) = (s.emit(), i.emit(), d.emit());
                quote!(::isa_runtime::Tok::OptField(#s, #i, #d))
            }
        }
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Tok))
    }
}

impl Emit for Case {
    fn emit(&self) -> TokenStream {
        let w = match self.when {
            Some(e) => {
                let e = e.emit();
                quote!(Some(#e))
            }
            None => quote!(None),
        };
        let (d, f, p) = (self.display.emit(), self.fields.emit(), self.parse_only);
        let (ds, sy) = (self.displays.emit(), self.syntaxes.emit());
        quote!(::isa_runtime::Case { when: #w, display: #d, fields: #f, parse_only: #p, displays: #ds, syntaxes: #sy })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Case))
    }
}

impl Emit for Syntax {
    fn emit(&self) -> TokenStream {
        let (n, d, c, p) = (self.name.emit(), self.doc.emit(), self.column.emit(), self.pad);
        quote!(::isa_runtime::Syntax { name: #n, doc: #d, column: #c, pad: #p })
    }
}

impl Emit for Ignore {
    fn emit(&self) -> TokenStream {
        let w = self.when.emit();
        let m = self.mask.emit();
        let s = self.syntaxes.emit();
        quote!(::isa_runtime::Ignore { when: #w, mask: #m, syntaxes: #s })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Ignore))
    }
}

impl Emit for Intervals {
    fn emit(&self) -> TokenStream {
        let (c, o, s, t) = (self.conjunct.emit(), self.of.emit(), self.starts.emit(), self.then.emit());
        quote!(::isa_runtime::Intervals { conjunct: #c, of: #o, starts: #s, then: #t })
    }
}

impl Emit for Rule {
    fn emit(&self) -> TokenStream {
        let (c, m) = (self.check.emit(), self.message.emit());
        quote!(::isa_runtime::Rule { check: #c, message: #m })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::Rule))
    }
}

impl Emit for GenValue {
    fn emit(&self) -> TokenStream {
        let (a, b, v) = (self.min.emit(), self.max.emit(), self.value.emit());
        quote!(::isa_runtime::GenValue { min: #a, max: #b, value: #v })
    }

    fn ty() -> Option<TokenStream> {
        Some(quote!(::isa_runtime::GenValue))
    }
}

impl Emit for SchedClass {
    fn emit(&self) -> TokenStream {
        let (n, d, l) = (self.name.emit(), self.doc.emit(), self.latency.emit());
        let (t, u) = (self.throughput.emit(), self.unit.emit());
        quote!(::isa_runtime::SchedClass { name: #n, doc: #d, latency: #l, throughput: #t, unit: #u })
    }
}

impl Emit for Leaf {
    fn emit(&self) -> TokenStream {
        let key = self.key.emit();
        let name = self.name.emit();
        let group = self.group.emit();
        let bits = self.bits.emit();
        let min_bits = self.min_bits.emit();
        let length = self.length.emit();
        let (gmin, gmax) = (self.gen_min.emit(), self.gen_max.emit());
        let (mask, value, dc) = (self.mask.emit(), self.value.emit(), self.dontcare.emit());
        let cases = self.cases.emit();
        let rules = self.rules.emit();
        let ignore = self.ignore.emit();
        let requires = self.requires.emit();
        let intervals = self.intervals.emit();
        let sched = self.sched.emit();
        let flags = self.flags.emit();
        let doc = self.doc.emit();
        let names = self.names.emit();
        let name_suffix = self.name_suffix.emit();
        quote!(::isa_runtime::Leaf {
            key: #key, name: #name, group: #group, bits: #bits, min_bits: #min_bits, length: #length, gen_min: #gmin, gen_max: #gmax,
            mask: #mask, value: #value, dontcare: #dc, cases: #cases, requires: #requires, intervals: #intervals,
            ignore: #ignore, rules: #rules,
            sched: #sched, flags: #flags, doc: #doc, names: #names, name_suffix: #name_suffix,
        })
    }
}

impl Emit for Node {
    fn emit(&self) -> TokenStream {
        let (l, w, f) = (self.lo.emit(), self.width.emit(), self.first.emit());
        quote!(::isa_runtime::Node { lo: #l, width: #w, first: #f })
    }
}

impl Emit for Tree {
    fn emit(&self) -> TokenStream {
        let (r, n, s, l) = (self.root.emit(), self.nodes.emit(), self.slots.emit(), self.lists.emit());
        quote!(::isa_runtime::Tree { root: #r, nodes: #n, slots: #s, lists: #l })
    }
}

impl Emit for Plan {
    fn emit(&self) -> TokenStream {
        let (m, v, u) = (self.mask.emit(), self.value.emit(), self.units.emit());
        let (r, o, c, f) = (self.requires.emit(), self.operands.emit(), self.choice.emit(), self.flags.emit());
        let (t, e) = (self.then.emit(), self.otherwise.emit());
        quote!(::isa_runtime::Plan {
            mask: #m, value: #v, units: #u, requires: #r, operands: #o, choice: #c, flags: #f, then: #t, otherwise: #e
        })
    }
}

impl Emit for Unit {
    fn emit(&self) -> TokenStream {
        let (s, l, b, a) = (self.range_start.emit(), self.range_len.emit(), self.bitmap.emit(), self.ask.emit());
        let (sub, lo, w) = (self.sub.emit(), self.lo.emit(), self.width.emit());
        let (c, f) = (self.case.emit(), self.field.emit());
        quote!(::isa_runtime::Unit {
            lo: #lo, width: #w, range_start: #s, range_len: #l, bitmap: #b, ask: #a, sub: #sub, case: #c, field: #f
        })
    }
}

impl Emit for Probe {
    fn emit(&self) -> TokenStream {
        let (m, v, k) = (self.mask.emit(), self.value.emit(), self.keys.emit());
        let (l, n, al) = (self.leaf.emit(), self.lens.emit(), self.always.emit());
        quote!(::isa_runtime::Probe { mask: #m, value: #v, keys: #k, leaf: #l, lens: #n, always: #al })
    }
}

impl Emit for Further {
    fn emit(&self) -> TokenStream {
        let (m, a, ml, al) = (self.more.emit(), self.asks.emit(), self.more_len.emit(), self.asks_len.emit());
        quote!(::isa_runtime::Further { more: #m, asks: #a, more_len: #ml, asks_len: #al })
    }
}

impl Emit for Key {
    fn emit(&self) -> TokenStream {
        let k = self.0.emit();
        quote!(::isa_runtime::Key(#k))
    }
}

impl Emit for Part {
    fn emit(&self) -> TokenStream {
        let (r, r2, m, m2, b) =
            (self.rot.emit(), self.rot2.emit(), self.mask.emit(), self.mask2.emit(), self.bitmap.emit());
        quote!(::isa_runtime::Part { rot: #r, rot2: #r2, mask: #m, mask2: #m2, bitmap: #b })
    }
}

impl Emit for MorePart {
    fn emit(&self) -> TokenStream {
        let (m, x, b) = (self.mask.emit(), self.mul.emit(), self.bitmap.emit());
        let (r, s) = (self.rot.emit(), self.shift.emit());
        quote!(::isa_runtime::MorePart { mask: #m, mul: #x, bitmap: #b, rot: #r, shift: #s })
    }
}

impl Emit for Ask {
    fn emit(&self) -> TokenStream {
        let (any, k, w, s) = (self.any.emit(), self.skip.emit(), self.when.emit(), self.sub.emit());
        let (l, wd, n, c, a) =
            (self.lo.emit(), self.width.emit(), self.cuts_len.emit(), self.cuts.emit(), self.answers.emit());
        quote!(::isa_runtime::Ask {
            any: #any, skip: #k, when: #w, sub: #s, lo: #l, width: #wd, cuts_len: #n, cuts: #c, answers: #a
        })
    }
}

impl Emit for Direct {
    fn emit(&self) -> TokenStream {
        let (r, e, n) = (self.root.emit(), self.entries.emit(), self.entries_per_class.emit());
        let (p, f) = (self.probes.emit(), self.further.emit());
        let (m, b) = (self.more.emit(), self.bitmaps.emit());
        let (a, c) = (self.asks.emit(), self.cuts.emit());
        // A byte string: one token however long (GCN's run to some
        // hundreds of kilobytes).
        let v = Literal::byte_string(self.verdicts);
        quote!(::isa_runtime::Direct::new(::isa_runtime::DirectTables {
            root: #r, entries: #e, entries_per_class: #n, probes: #p, further: #f, more: #m, verdicts: #v, bitmaps: #b,
            asks: #a, cuts: #c
        }))
    }
}

impl<T: Emit, const N: usize> Emit for [T; N] {
    fn emit(&self) -> TokenStream {
        let items = self.iter().map(|x| x.emit());
        quote!([#(#items),*])
    }
}

impl Emit for &Dispatch {
    fn emit(&self) -> TokenStream {
        let (g, t, p) = (self.gen_bounds.emit(), self.trees.emit(), self.plans.emit());
        let (u, r, b, s) = (self.units.emit(), self.ranges.emit(), self.bitmaps.emit(), self.subs.emit());
        let (cuts, direct) = (self.cuts.emit(), self.direct.emit());
        // A static of its own: the direct decoder remembers whether its
        // tables passed their check, which a promoted constant may not.
        quote!({
            static DISPATCH: ::isa_runtime::Dispatch = ::isa_runtime::Dispatch {
                gen_bounds: #g, trees: #t, plans: #p, units: #u, ranges: #r, bitmaps: #b, subs: #s, cuts: #cuts,
                direct: #direct
            };
            &DISPATCH
        })
    }
}

/// The `ISA` static for a loaded target.
pub fn isa_static(spec: &Spec) -> TokenStream {
    let isa = spec.isa;
    let name = isa.name.emit();
    let doc = isa.doc.emit();
    let gens = isa.gens.emit();
    let dg = isa.default_gen.emit();
    let commas = isa.optional_commas;
    let octal = isa.octal_numbers;
    let binary = isa.binary_numbers;
    let bracketed = isa.bracketed_indices.emit();
    let any_order = isa.any_order.emit();
    let raw = isa.raw.as_ref().emit();
    let enums = isa.enums.emit();
    let groups = isa.groups.emit();
    let leaves = isa.leaves.emit();
    let sched = isa.sched_classes.emit();
    let flags = isa.flags.emit();
    let dispatch = isa.dispatch.emit();
    let machine = isa.machine.emit();
    let syntaxes = isa.syntaxes.emit();
    quote! {
        /// The tables of this target, generated from its YAML spec.
        pub static ISA: ::isa_runtime::Isa = ::isa_runtime::Isa {
            name: #name, doc: #doc, gens: #gens, default_gen: #dg, optional_commas: #commas, octal_numbers: #octal,
            binary_numbers: #binary,
            bracketed_indices: #bracketed, any_order: #any_order, raw: #raw, enums: #enums,
            groups: #groups, leaves: #leaves, sched_classes: #sched, flags: #flags, syntaxes: #syntaxes,
            dispatch: #dispatch,
            machine: #machine,
        };
    }
}

/// The `Opcode` enum: one variant per instruction encoding, its discriminant the
/// leaf index, so converting either way is free.
pub fn opcode_enum(spec: &Spec) -> TokenStream {
    let isa = spec.isa;
    let mut variants = Vec::new();
    let mut all = Vec::new();
    for (v, leaf) in &spec.variants {
        let l = &isa.leaves[*leaf as usize];
        let id = format_ident!("{}", v);
        let idx = Literal::u16_unsuffixed(*leaf);
        let gens = if l.gen_min == 0 && l.gen_max == u32::MAX {
            "all generations".to_string()
        } else if l.gen_max == u32::MAX {
            format!("generation {} onward", l.gen_min)
        } else {
            format!("generations {}..={}", l.gen_min, l.gen_max)
        };
        let sched = l.sched.map_or("none".to_string(), |s| isa.sched_classes[s as usize].name.to_string());
        let doc1 = format!(" `{}` ({gens}; scheduling class: {sched}).", l.name);
        let doc2 = format!(" Fixed bits: mask `{:#x}`, value `{:#x}`.", l.mask, l.value);
        let extra = if l.doc.is_empty() {
            quote!()
        } else {
            let d = format!(" {}", l.doc);
            quote!(#[doc = ""] #[doc = #d])
        };
        variants.push(quote!(#[doc = #doc1] #[doc = #doc2] #extra #id = #idx));
        all.push(quote!(Opcode::#id));
    }
    let n = spec.variants.len();
    let max_leaf = isa.leaves.len();
    let mut by_leaf = vec![quote!(None); max_leaf];
    for (v, leaf) in &spec.variants {
        let id = format_ident!("{}", v);
        by_leaf[*leaf as usize] = quote!(Some(Opcode::#id));
    }
    quote! {
        /// Every instruction encoding of this target.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode { #(#variants),* }

        static BY_LEAF: [Option<Opcode>; #max_leaf] = [#(#by_leaf),*];

        impl Opcode {
            /// All opcodes, in spec order.
            pub const ALL: [Opcode; #n] = [#(#all),*];

            /// The encoding's index in [`ISA`]`.leaves`.
            pub const fn leaf(self) -> u16 { self as u16 }

            /// The opcode of a leaf index, if it is an instruction.
            pub fn from_leaf(leaf: u16) -> Option<Opcode> {
                BY_LEAF.get(leaf as usize).copied().flatten()
            }

            /// The leaf's tables.
            pub fn info(self) -> &'static ::isa_runtime::Leaf { &ISA.leaves[self as usize] }

            /// The mnemonic.
            pub fn mnemonic(self) -> &'static str { self.info().name }

            /// A builder for this instruction, fields zero.
            pub fn builder(self) -> ::isa_runtime::Builder<'static> {
                ::isa_runtime::Builder::for_leaf(&ISA, self as u16)
            }
        }
    }
}

/// Everything `isa!` expands to, minus file tracking (the macro adds that).
pub fn module(spec: &Spec) -> TokenStream {
    let s = interned(|| isa_static(spec));
    let o = opcode_enum(spec);
    quote!(#s #o)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &[Op] = &[Op::Field(1), Op::Lit(2), Op::Bin(BinOp::Add)];
    const B: &[Op] = &[Op::Field(2)];

    #[test]
    fn equal_slices_share_one_static() {
        let code = interned(|| {
            let (a1, a2, b) = (A.emit(), A.emit(), B.emit());
            assert_eq!(a1.to_string(), a2.to_string());
            assert_ne!(a1.to_string(), b.to_string());
            assert_eq!(a1.to_string(), "& SHARED_0");
            quote!(#a1 #a2 #b)
        })
        .to_string();
        assert_eq!(code.matches("static SHARED_").count(), 2, "{code}");
        assert!(code.contains("static SHARED_0 : [:: isa_runtime :: Op ; 3usize]"), "{code}");
    }

    #[test]
    fn nested_slices_share_their_inner_statics() {
        let params: &[Expr] = &[A, B];
        let code = interned(|| {
            let p = params.emit();
            let again = params.emit();
            quote!(#p #again)
        })
        .to_string();
        // A, B and the list of both: three statics, the list naming the others.
        assert_eq!(code.matches("static SHARED_").count(), 3, "{code}");
        assert!(code.contains("[& 'static [:: isa_runtime :: Op] ; 2usize] = [& SHARED_0 , & SHARED_1]"), "{code}");
    }

    #[test]
    fn without_an_interner_slices_stay_inline_and_empty_ones_always_do() {
        assert!(A.emit().to_string().starts_with("& [:: isa_runtime :: Op :: Field"));
        let code = interned(|| {
            let empty: &[Op] = &[];
            empty.emit()
        })
        .to_string();
        assert_eq!(code, "& []");
    }
}
