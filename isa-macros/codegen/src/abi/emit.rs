//! Code generation for `abi!`: the ABI as `static` data, plus thin typed
//! accessors (one module per stage and variant, one struct per packed word, one
//! module per slot table) that call the generic runtime. Only data and one-line
//! forwarding functions are generated.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use isa_runtime::abi::*;

use super::check::ConstPlaces;
use crate::emit::Emit;

impl<A: Emit, B: Emit> Emit for (A, B) {
    fn emit(&self) -> TokenStream {
        let (a, b) = (self.0.emit(), self.1.emit());
        quote!((#a, #b))
    }
}

macro_rules! emit_struct {
    ($($ty:ident { $($f:ident),* })*) => {$(
        impl Emit for $ty {
            fn emit(&self) -> TokenStream {
                $(let $f = self.$f.emit();)*
                quote!(::isa_runtime::abi::$ty { $($f: #$f),* })
            }
        }
    )*};
}

emit_struct! {
    Param { name, doc, min, max, default }
    RegFile { name, doc, unit_bits, units, register_units, prefix, parts, part_sep, align }
    Stage { name, doc, variants }
    Variant { name, doc, when, set, free, blocks }
    Block { name, doc, file, start, limit, when, user_data, args, invariants }
    UserData { name, base, stride }
    Arg { name, doc, kind, bits, at, align, count, when, word }
    Invariant { check, text, when }
    Word { name, doc, bits, registers, fields }
    WordField { name, doc, lo, width }
    SlotTable { name, doc, dwords, entries }
    SlotEntry { name, doc, slot, dwords, count }
}

impl Emit for Start {
    fn emit(&self) -> TokenStream {
        match self {
            Start::Unit(u) => {
                let u = u.emit();
                quote!(::isa_runtime::abi::Start::Unit(#u))
            }
            Start::Follows(b) => {
                let b = b.emit();
                quote!(::isa_runtime::abi::Start::Follows(#b))
            }
        }
    }
}

impl Emit for ArgKind {
    fn emit(&self) -> TokenStream {
        let id = format_ident!("{}", format!("{self:?}"));
        quote!(::isa_runtime::abi::ArgKind::#id)
    }
}

/// Everything `abi!` expands to, minus file tracking (the macro adds that).
pub fn module(abi: &Abi, consts: &ConstPlaces) -> TokenStream {
    let files = abi.files.emit();
    let (name, doc, source) = (abi.name.emit(), abi.doc.emit(), abi.source.emit());
    let (gens, dg, params) = (abi.gens.emit(), abi.default_gen.emit(), abi.params.emit());
    let (stages, words, tables) = (abi.stages.emit(), abi.words.emit(), abi.slot_tables.emit());
    let stage_mods = abi.stages.iter().enumerate().map(|(si, s)| stage_module(abi, si, s, &consts[si]));
    let word_structs = abi.words.iter().enumerate().map(|(k, w)| word_struct(k, w));
    let table_mods = abi.slot_tables.iter().enumerate().map(|(k, t)| slot_module(k, t));
    quote! {
        /// The register files (a `const`, so that `const` places can point into it).
        pub const FILES: &[::isa_runtime::abi::RegFile] = #files;

        /// This target's ABI, generated from its YAML.
        pub static ABI: ::isa_runtime::abi::Abi = ::isa_runtime::abi::Abi {
            name: #name, doc: #doc, source: #source, gens: #gens, default_gen: #dg, params: #params,
            files: FILES, stages: #stages, words: #words, slot_tables: #tables,
        };

        #(#stage_mods)*

        /// Packed words: one struct per word, with `pack` and `unpack`.
        pub mod words {
            #(#word_structs)*
        }

        /// Descriptor slot tables.
        pub mod slots {
            #(#table_mods)*
        }
    }
}

fn doc_lines(doc: &str) -> TokenStream {
    let lines = doc.lines().map(|l| format!(" {l}"));
    quote!(#(#[doc = #lines])*)
}

fn stage_module(abi: &Abi, si: usize, s: &Stage, consts: &[Vec<Vec<Option<Place>>>]) -> TokenStream {
    let id = format_ident!("{}", s.name.to_snake_case());
    let doc = doc_lines(s.doc);
    let variants = s.variants.iter().enumerate().map(|(vi, v)| variant_module(abi, si, vi, v, &consts[vi]));
    quote! {
        #doc
        pub mod #id { #(#variants)* }
    }
}

fn variant_module(abi: &Abi, si: usize, vi: usize, v: &Variant, consts: &[Vec<Option<Place>>]) -> TokenStream {
    let id = format_ident!("{}", v.name.to_snake_case());
    let doc = doc_lines(v.doc);
    let (si, vi) = (Literal::usize_unsuffixed(si), Literal::usize_unsuffixed(vi));
    let has_gen = !abi.gens.is_empty();
    let pnames: Vec<_> =
        v.free.iter().map(|&k| format_ident!("{}", abi.params[k as usize].name.to_snake_case())).collect();
    let pdocs: Vec<_> = v
        .free
        .iter()
        .map(|&k| {
            let p = &abi.params[k as usize];
            format!(" {} ({}..={})", p.doc, p.min, p.max)
        })
        .collect();
    let pdefaults: Vec<_> = v.free.iter().map(|&k| abi.params[k as usize].default).collect();
    let n = v.free.len();
    let (gen_field, gen_default, gen_value) = if has_gen {
        let dg = abi.default_gen;
        (
            quote!(/// The generation. 
            pub gen_: u32,),
            quote!(gen_: #dg,),
            quote!(self.gen_),
        )
    } else {
        (quote!(), quote!(), quote!(0))
    };
    let mut accessors = Vec::new();
    for (bi, b) in v.blocks.iter().enumerate() {
        for (ai, a) in b.args.iter().enumerate() {
            let f = format_ident!("{}", a.name.to_snake_case());
            let (bl, al) = (Literal::u16_unsuffixed(bi as u16), Literal::u16_unsuffixed(ai as u16));
            let d = doc_lines(&format!("`{}` ({} bits, block `{}`): {}", a.name, a.bits, b.name, a.doc));
            if a.count.is_some() {
                accessors.push(quote! {
                    #d
                    pub fn #f(p: Params, i: i64) -> Result<::isa_runtime::abi::Place, ::isa_runtime::abi::AbiError> {
                        variant().place(&super::super::ABI, p.gen_value(), &p.free(), #bl, #al, Some(i))
                    }
                });
            } else {
                accessors.push(quote! {
                    #d
                    pub fn #f(p: Params) -> Result<::isa_runtime::abi::Place, ::isa_runtime::abi::AbiError> {
                        variant().place(&super::super::ABI, p.gen_value(), &p.free(), #bl, #al, None)
                    }
                });
            }
            if let Some(place) = consts[bi][ai] {
                let c = format_ident!("{}", a.name.to_shouty_snake_case());
                let file =
                    Literal::usize_unsuffixed(abi.files.iter().position(|f| f.name == place.file.name).unwrap_or(0));
                let (unit, units, offset) = (place.unit, place.units, place.offset);
                let ud = place.user_data.emit();
                let d = doc_lines(&format!("`{}` is always at {}.", a.name, place.name()));
                accessors.push(quote! {
                    #d
                    pub const #c: ::isa_runtime::abi::Place = ::isa_runtime::abi::Place {
                        file: &super::super::FILES[#file], unit: #unit, units: #units, offset: #offset, user_data: #ud,
                    };
                });
            }
        }
    }
    quote! {
        #doc
        pub mod #id {
            /// This variant's tables.
            pub fn variant() -> &'static ::isa_runtime::abi::Variant {
                &super::super::ABI.stages[#si].variants[#vi]
            }

            /// The parameters this variant's layout depends on.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Params { #(#[doc = #pdocs] pub #pnames: i64,)* #gen_field }

            impl Default for Params {
                fn default() -> Self { Params { #(#pnames: #pdefaults,)* #gen_default } }
            }

            impl Params {
                fn free(&self) -> [i64; #n] { [#(self.#pnames),*] }
                fn gen_value(&self) -> u32 { #gen_value }
            }

            /// Every argument placed for `p`, checked.
            pub fn layout(p: Params) -> Result<::isa_runtime::abi::Layout, ::isa_runtime::abi::AbiError> {
                let v = variant();
                v.layout(&super::super::ABI, p.gen_value(), &v.bind_free(&super::super::ABI, &p.free())?)
            }

            #(#accessors)*
        }
    }
}

fn word_struct(k: usize, w: &Word) -> TokenStream {
    let id = format_ident!("{}", w.name.to_upper_camel_case());
    let doc = doc_lines(&format!("`{}` ({} bits): {}", w.name, w.bits, w.doc));
    let k = Literal::usize_unsuffixed(k);
    let fields: Vec<_> = w.fields.iter().map(|f| format_ident!("{}", f.name.to_snake_case())).collect();
    let fdocs: Vec<_> =
        w.fields.iter().map(|f| format!(" Bits {}..={}: {}", f.lo, f.lo + f.width - 1, f.doc)).collect();
    let idx = (0..fields.len()).map(Literal::usize_unsuffixed);
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct #id { #(#[doc = #fdocs] pub #fields: u64,)* }

        impl #id {
            /// The word's tables.
            pub fn word() -> &'static ::isa_runtime::abi::Word { &super::ABI.words[#k] }

            /// The packed word; a value too wide for its field is an error naming it.
            pub fn pack(&self) -> Result<u64, ::isa_runtime::abi::AbiError> {
                Self::word().pack(&[#(self.#fields),*])
            }

            /// The fields of `word`.
            pub fn unpack(word: u64) -> Result<Self, ::isa_runtime::abi::AbiError> {
                let v = Self::word().unpack(word)?;
                Ok(Self { #(#fields: v[#idx],)* })
            }
        }
    }
}

fn slot_module(k: usize, t: &SlotTable) -> TokenStream {
    let id = format_ident!("{}", t.name.to_snake_case());
    let doc = doc_lines(t.doc);
    let k = Literal::usize_unsuffixed(k);
    let items = t.entries.iter().enumerate().map(|(ei, e)| {
        let d = doc_lines(e.doc);
        let ei = Literal::usize_unsuffixed(ei);
        match e.count {
            Some(_) => {
                let f = format_ident!("{}", e.name.to_snake_case());
                quote! {
                    #d
                    pub fn #f(i: i64) -> Result<::isa_runtime::abi::Slot, ::isa_runtime::abi::AbiError> {
                        table().entries[#ei].slot(i)
                    }
                }
            }
            None => {
                let c = format_ident!("{}", e.name.to_shouty_snake_case());
                let s = e.slot(0).expect("a single slot has element 0");
                let (index, dwords, off) = (s.index, s.dwords, s.dword_offset);
                quote! {
                    #d
                    pub const #c: ::isa_runtime::abi::Slot =
                        ::isa_runtime::abi::Slot { index: #index, dwords: #dwords, dword_offset: #off };
                }
            }
        }
    });
    quote! {
        #doc
        pub mod #id {
            /// The table's data.
            pub fn table() -> &'static ::isa_runtime::abi::SlotTable { &super::super::ABI.slot_tables[#k] }
            #(#items)*
        }
    }
}
