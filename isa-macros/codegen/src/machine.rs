//! The `machine:` section of a root spec: what a compiler backend needs beyond
//! encodings (register files and classes, issue and delay rules, syncs, and the
//! instructions the backend writes itself). Schema, checks and code generation
//! live together here; the tables are `isa_runtime::machine`.

use std::collections::HashMap;
use std::path::Path;

use indexmap::IndexMap;
use isa_runtime::machine::{
    Align, CopyRule, Delay, LateRead, Machine, Nop, NopFold, OrderChain, RegClass, RegFile, SelectRule, Selector,
    SynTok, SyncClass, SyncKind, Timing, WaitInst,
};
use isa_runtime::{Enum, GenValue, Leaf, Op};
use proc_macro2::TokenStream;
use quote::quote;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::diag::{Diags, Loc};
use crate::emit::Emit;
use crate::expr;
use crate::lower::leak_str;
use crate::schema::GenRange;
use crate::yaml::{S, loc};

// ---------------------------------------------------------------- schema

/// `machine:` in the root spec.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MachineSpec {
    pub register_files: Option<IndexMap<S<String>, S<RegFileSpec>>>,
    pub register_classes: Option<IndexMap<S<String>, S<RegClassSpec>>>,
    /// Per scheduling class: how its instructions issue and how readers wait.
    pub timing: Option<IndexMap<S<String>, S<TimingSpec>>>,
    pub syncs: Option<IndexMap<S<String>, S<SyncSpec>>>,
    pub wait: Option<S<WaitSpec>>,
    pub delays: Option<Vec<S<DelaySpec>>>,
    pub late_reads: Option<Vec<S<LateReadSpec>>>,
    pub nop: Option<S<NopSpec>>,
    pub nop_fold: Option<S<NopFoldSpec>>,
    /// Named groups of scheduling classes or flags whose instructions keep their order.
    pub order: Option<IndexMap<S<String>, Vec<S<String>>>>,
    /// Register class -> IR text copying one register (`{dst}`, `{src}`).
    pub copy: Option<IndexMap<S<String>, S<String>>>,
    pub select: Option<S<SelectSpec>>,
    /// IR text of the instructions that end every program.
    pub end: Option<Vec<S<String>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RegFileSpec {
    pub doc: Option<S<String>>,
    pub units: S<GenValues>,
    pub scarce: Option<S<bool>>,
    /// Read, never written (constants, uniforms): for the builders' types.
    #[serde(rename = "read-only")]
    pub read_only: Option<S<bool>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RegClassSpec {
    pub doc: Option<S<String>>,
    pub file: S<String>,
    pub units: Option<S<u32>>,
    pub bits: Option<S<u32>>,
    pub abi_file: Option<S<String>>,
    pub count: Option<S<u32>>,
    /// Group size in registers -> alignment in registers.
    pub align: Option<IndexMap<S<u32>, S<u32>>>,
    pub syntax: S<String>,
    pub range_syntax: Option<S<String>>,
    pub join: Option<S<String>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TimingSpec {
    pub issue: Option<S<u32>>,
    pub sync: Option<S<String>>,
    /// The sync that covers late reads of this class's sources.
    pub war: Option<S<String>>,
    pub unordered: Option<S<bool>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SyncSpec {
    pub doc: Option<S<String>>,
    /// A bool field the waiting instruction sets.
    pub flag: Option<S<String>>,
    /// The wait instruction's field holding this counter.
    pub counter: Option<S<String>>,
    /// Scoreboard slots: the asynchronous instruction's field naming its slot.
    pub slot_field: Option<S<String>>,
    /// The wait instruction's field naming the slot it waits for.
    pub wait_field: Option<S<String>>,
    /// How many slots there are.
    pub slots: Option<S<u32>>,
    /// How many results may be outstanding in one slot.
    pub depth: Option<S<u32>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WaitSpec {
    pub instruction: S<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DelaySpec {
    pub from: Option<Vec<S<String>>>,
    pub to: Option<Vec<S<String>>>,
    pub file: Option<S<String>>,
    pub operand: Option<S<u8>>,
    pub cycles: S<GenValues>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct LateReadSpec {
    pub to: Vec<S<String>>,
    pub operand: S<u8>,
    pub file: Option<S<String>>,
    pub cycles: S<GenValues>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NopSpec {
    pub instruction: S<String>,
    pub field: S<String>,
    pub max: S<u32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NopFoldSpec {
    pub field: S<String>,
    pub max: S<u32>,
    pub r#gen: Option<S<GenRange>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SelectSpec {
    pub class: S<String>,
    pub cond_class: S<String>,
    pub text: S<String>,
}

/// A number for every generation, or a map from generation range to number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenValues(pub Vec<(GenRange, u32)>);

impl<'de> Deserialize<'de> for GenValues {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GenValues;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, or a map from generation range to number (`{..699: 3, 700..: 2}`)")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<GenValues, E> {
                let v = u32::try_from(v).map_err(|_| E::custom("number too large"))?;
                Ok(GenValues(vec![(GenRange { min: None, max: None }, v)]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<GenValues, E> {
                let v = u32::try_from(v).map_err(|_| E::custom("expected a number from 0 up"))?;
                self.visit_u64(v as u64)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<GenValues, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<GenRange>()? {
                    out.push((k, map.next_value::<u32>()?));
                }
                Ok(GenValues(out))
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------- lowering

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn gen_values(g: &GenValues) -> &'static [GenValue] {
    leak(
        g.0.iter()
            .map(|(r, v)| GenValue { min: r.min.unwrap_or(0), max: r.max.unwrap_or(u32::MAX), value: *v })
            .collect(),
    )
}

/// The widest register a class may have, in bits. Widths are compared
/// and divided into each other (a class of 64-bit registers counted in
/// 32-bit ones), and multiples of their ratios must stay countable.
pub const MAX_REG_BITS: u32 = 65536;

/// What lowering the machine section needs from the rest of the spec.
pub struct Names<'a> {
    pub sched: &'a [&'static str],
    pub flags: &'a [String],
    pub enums: &'static [Enum],
    pub leaves: &'a [(String, Leaf)],
}

struct Ctx<'a, 'd> {
    file: &'a Path,
    names: &'a Names<'a>,
    d: &'d mut Diags,
    files: HashMap<String, u16>,
    classes: HashMap<String, u16>,
    syncs: HashMap<String, u16>,
}

/// Checks and lowers `machine:`; errors go to `d`.
pub fn lower(file: &Path, spec: &MachineSpec, names: &Names, d: &mut Diags) -> &'static Machine {
    let mut c = Ctx { file, names, d, files: HashMap::new(), classes: HashMap::new(), syncs: HashMap::new() };
    let files = c.reg_files(spec);
    let classes = c.reg_classes(spec);
    let (syncs, wait) = c.syncs(spec);
    let timing = c.timing(spec);
    let delays = c.delays(spec);
    let late_reads = spec
        .late_reads
        .iter()
        .flatten()
        .map(|l| LateRead {
            to: c.selector(&l.value.to),
            operand: l.value.operand.value,
            file: l.value.file.as_ref().map(|f| c.file(f)),
            cycles: gen_values(&l.value.cycles.value),
        })
        .collect();
    let nop = spec.nop.as_ref().map(|n| {
        c.instruction_field(&n.value.instruction, &n.value.field);
        Nop {
            instruction: leak_str(&n.value.instruction.value),
            field: leak_str(&n.value.field.value),
            max: n.value.max.value,
        }
    });
    let nop_fold = spec.nop_fold.as_ref().map(|n| {
        c.some_instruction_has(&n.value.field);
        let r = n.value.r#gen.as_ref().map(|g| g.value);
        NopFold {
            field: leak_str(&n.value.field.value),
            max: n.value.max.value,
            gen_min: r.and_then(|r| r.min).unwrap_or(0),
            gen_max: r.and_then(|r| r.max).unwrap_or(u32::MAX),
        }
    });
    let order = spec
        .order
        .iter()
        .flatten()
        .map(|(k, v)| OrderChain { name: leak_str(&k.value), members: c.selector(v) })
        .collect();
    let mut copies = Vec::new();
    for (k, v) in spec.copy.iter().flatten() {
        let class = c.class(k);
        c.placeholders(v, &["dst", "src"]);
        copies.push(CopyRule { class, text: leak_str(&v.value) });
    }
    let select = spec.select.as_ref().map(|s| {
        let class = c.class(&s.value.class);
        let cond_class = c.class(&s.value.cond_class);
        c.placeholders(&s.value.text, &["dst", "then", "else", "cond"]);
        SelectRule { class, cond_class, text: leak_str(&s.value.text.value) }
    });
    let end = spec.end.iter().flatten().map(|s| leak_str(&s.value)).collect();
    Box::leak(Box::new(Machine {
        files,
        classes,
        timing,
        syncs,
        wait,
        delays,
        late_reads: leak(late_reads),
        nop,
        nop_fold,
        order: leak(order),
        copies: leak(copies),
        select,
        end: leak(end),
    }))
}

impl Ctx<'_, '_> {
    fn at<T>(&self, s: &S<T>) -> Loc {
        loc(self.file, s)
    }

    fn reg_files(&mut self, spec: &MachineSpec) -> &'static [RegFile] {
        let mut out = Vec::new();
        for (k, v) in spec.register_files.iter().flatten() {
            self.files.insert(k.value.clone(), out.len() as u16);
            out.push(RegFile {
                name: leak_str(&k.value),
                doc: v.value.doc.as_ref().map_or("", |d| leak_str(d.value.trim())),
                units: gen_values(&v.value.units.value),
                scarce: v.value.scarce.as_ref().is_some_and(|s| s.value),
                read_only: v.value.read_only.as_ref().is_some_and(|s| s.value),
            });
        }
        leak(out)
    }

    fn file(&mut self, name: &S<String>) -> u16 {
        match self.files.get(&name.value) {
            Some(&i) => i,
            None => {
                let known: Vec<_> = self.files.keys().cloned().collect();
                let at = self.at(name);
                self.d.push(
                    crate::diag::Diagnostic::new(at, format!("unknown register file `{}`", name.value))
                        .note(format!("declare it under `machine: register-files:` (known: {})", known.join(", "))),
                );
                0
            }
        }
    }

    fn class(&mut self, name: &S<String>) -> u16 {
        match self.classes.get(&name.value) {
            Some(&i) => i,
            None => {
                let at = self.at(name);
                self.d.err(
                    &at,
                    format!("unknown register class `{}` (declare it under `machine: register-classes:`)", name.value),
                );
                0
            }
        }
    }

    fn reg_classes(&mut self, spec: &MachineSpec) -> &'static [RegClass] {
        let mut out = Vec::new();
        for (k, v) in spec.register_classes.iter().flatten() {
            let s = &v.value;
            let file = self.file(&s.file);
            let units = s.units.as_ref().map_or(1, |u| u.value);
            if units == 0 {
                let at = self.at(s.units.as_ref().expect("units was given"));
                self.d.err(&at, "a register takes at least one unit");
            }
            let bits = s.bits.as_ref().map_or(32, |b| b.value);
            if !(1..=MAX_REG_BITS).contains(&bits) {
                let at = self.at(s.bits.as_ref().expect("the default is in range"));
                self.d.err(
                    &at,
                    format!(
                        "register class `{}` has {bits}-bit registers; 1 to {MAX_REG_BITS} bits are allowed",
                        k.value
                    ),
                );
            }
            let mut align = Vec::new();
            for (n, a) in s.align.iter().flatten() {
                if a.value == 0 || !a.value.is_power_of_two() {
                    let at = self.at(a);
                    self.d.err(&at, format!("alignment {} is not a power of two", a.value));
                }
                align.push(Align { min_regs: n.value, align: a.value });
            }
            let syntax = self.syntax(&s.syntax);
            let range_syntax = s.range_syntax.as_ref().map_or(&[][..], |r| self.syntax(r));
            self.classes.insert(k.value.clone(), out.len() as u16);
            out.push(RegClass {
                name: leak_str(&k.value),
                doc: s.doc.as_ref().map_or("", |d| leak_str(d.value.trim())),
                file,
                units,
                bits,
                abi_file: s.abi_file.as_ref().map_or("", |f| leak_str(&f.value)),
                count: s.count.as_ref().map(|c| c.value),
                align: leak(align),
                syntax,
                range_syntax,
                join: s.join.as_ref().map_or("", |j| leak_str(&j.value)),
            });
        }
        leak(out)
    }

    /// `r{N >> 2}.{N & 3:swiz}`: literal text and `{expression[:enum]}`.
    fn syntax(&mut self, t: &S<String>) -> &'static [SynTok] {
        let at = self.at(t);
        let mut out = Vec::new();
        let mut rest = t.value.as_str();
        while !rest.is_empty() {
            let Some(open) = rest.find('{') else {
                if rest.contains('}') {
                    self.d.err(&at, format!("register syntax `{}`: `}}` without `{{`", t.value));
                }
                out.push(SynTok::Lit(leak_str(rest)));
                break;
            };
            if open > 0 {
                out.push(SynTok::Lit(leak_str(&rest[..open])));
            }
            let Some(close) = rest[open..].find('}') else {
                self.d.err(&at, format!("register syntax `{}`: `{{` without `}}`", t.value));
                break;
            };
            let inner = &rest[open + 1..open + close];
            let (e, en) = match inner.rsplit_once(':') {
                Some((e, en)) => (e, Some(en.trim())),
                None => (inner, None),
            };
            let ops = self.reg_expr(e, &at);
            match en {
                None => out.push(SynTok::Num(ops)),
                Some(en) => match self.names.enums.iter().position(|x| x.name == en) {
                    Some(i) => out.push(SynTok::Enum(ops, i as u16)),
                    None => self.d.err(&at, format!("register syntax `{}`: unknown enum `{en}`", t.value)),
                },
            }
            rest = &rest[open + close + 1..];
        }
        leak(out)
    }

    fn reg_expr(&mut self, text: &str, at: &Loc) -> &'static [Op] {
        let resolve = |n: &str| match n {
            "N" => Some(Op::Field(0)),
            "END" => Some(Op::Field(1)),
            "COUNT" => Some(Op::Field(2)),
            _ => None,
        };
        match expr::parse(text).and_then(|a| a.compile(&resolve)) {
            Ok(ops) => leak(ops),
            Err(e) => {
                self.d.push(
                    crate::diag::Diagnostic::new(at.clone(), format!("in register syntax expression `{text}`: {e}"))
                        .note("names here: N (first register), END (last register), COUNT, gen"),
                );
                &[]
            }
        }
    }

    fn syncs(&mut self, spec: &MachineSpec) -> (&'static [SyncClass], Option<WaitInst>) {
        let wait = spec.wait.as_ref().map(|w| {
            if self.leaf(&w.value.instruction.value).is_none() {
                let at = self.at(&w.value.instruction);
                self.d.err(&at, format!("no instruction `{}`", w.value.instruction.value));
            }
            WaitInst { instruction: leak_str(&w.value.instruction.value) }
        });
        let mut out = Vec::new();
        for (k, v) in spec.syncs.iter().flatten() {
            let s = &v.value;
            let at = self.at(k);
            let kind = match (&s.flag, &s.counter, &s.slot_field) {
                (Some(f), None, None) => {
                    self.some_instruction_has(f);
                    SyncKind::Flag(leak_str(&f.value))
                }
                (None, None, Some(f)) => {
                    self.some_instruction_has(f);
                    let wait_field = match (&spec.wait, &s.wait_field) {
                        (Some(w), Some(wf)) => {
                            self.instruction_field(&w.value.instruction, wf);
                            leak_str(&wf.value)
                        }
                        _ => {
                            self.d.err(&at, "a slot sync needs `wait:` naming the wait instruction and `wait-field:`, its field naming the slot");
                            ""
                        }
                    };
                    let (slots, depth) =
                        (s.slots.as_ref().map_or(1, |x| x.value), s.depth.as_ref().map_or(u32::MAX, |x| x.value));
                    if slots == 0 || depth == 0 {
                        self.d.err(
                            &at,
                            "a slot sync needs at least one slot (`slots:`) holding at least one result (`depth:`)",
                        );
                    }
                    SyncKind::Slot { field: leak_str(&f.value), wait_field, slots: slots.max(1), depth: depth.max(1) }
                }
                (None, Some(c), None) => match &spec.wait {
                    None => {
                        self.d.err(&at, "a counter sync needs `wait:` naming the instruction that waits on counters");
                        SyncKind::Counter { field: "", width: 0 }
                    }
                    Some(w) => {
                        self.instruction_field(&w.value.instruction, c);
                        let width = self.field_width(&w.value.instruction.value, &c.value).unwrap_or(0);
                        SyncKind::Counter { field: leak_str(&c.value), width: width.min(32) as u8 }
                    }
                },
                _ => {
                    self.d.err(&at, format!("sync `{}` needs exactly one of `flag:` (a field to set), `counter:` (a field of the wait instruction) or `slot-field:` (scoreboard slots)", k.value));
                    SyncKind::Flag("")
                }
            };
            self.syncs.insert(k.value.clone(), out.len() as u16);
            out.push(SyncClass {
                name: leak_str(&k.value),
                doc: s.doc.as_ref().map_or("", |d| leak_str(d.value.trim())),
                kind,
            });
        }
        (leak(out), wait)
    }

    fn timing(&mut self, spec: &MachineSpec) -> &'static [Timing] {
        let mut out: Vec<Timing> =
            self.names.sched.iter().map(|_| Timing { issue: 1, sync: None, war: None, unordered: false }).collect();
        for (k, v) in spec.timing.iter().flatten() {
            let Some(i) = self.names.sched.iter().position(|s| *s == k.value) else {
                let at = self.at(k);
                self.d.err(&at, format!("unknown scheduling class `{}` (declare it under `sched-classes:`)", k.value));
                continue;
            };
            let s = &v.value;
            let sync = s.sync.as_ref().map(|n| self.sync(n));
            let war = s.war.as_ref().map(|n| self.sync(n));
            out[i] = Timing {
                issue: s.issue.as_ref().map_or(1, |x| x.value),
                sync,
                war,
                unordered: s.unordered.as_ref().is_some_and(|x| x.value),
            };
        }
        leak(out)
    }

    fn sync(&mut self, n: &S<String>) -> u16 {
        match self.syncs.get(&n.value) {
            Some(&x) => x,
            None => {
                let at = self.at(n);
                self.d.err(&at, format!("unknown sync `{}` (declare it under `machine: syncs:`)", n.value));
                0
            }
        }
    }

    fn delays(&mut self, spec: &MachineSpec) -> &'static [Delay] {
        let mut out = Vec::new();
        for r in spec.delays.iter().flatten() {
            let r = &r.value;
            let from = r.from.as_ref().map_or(Selector { classes: &[], flags: &[] }, |v| self.selector(v));
            let to = r.to.as_ref().map_or(Selector { classes: &[], flags: &[] }, |v| self.selector(v));
            let file = r.file.as_ref().map(|f| self.file(f));
            out.push(Delay {
                from,
                to,
                file,
                operand: r.operand.as_ref().map(|o| o.value),
                cycles: gen_values(&r.cycles.value),
            });
        }
        leak(out)
    }

    /// A list of scheduling-class or flag names (a class wins over a flag of the same name).
    fn selector(&mut self, names: &[S<String>]) -> Selector {
        let mut classes = Vec::new();
        let mut flags = Vec::new();
        for n in names {
            let c = self.names.sched.iter().position(|s| *s == n.value);
            let f = self.names.flags.iter().position(|s| *s == n.value);
            // A scheduling class of that name wins over a flag of that name.
            match (c, f) {
                (Some(c), _) => classes.push(c as u16),
                (None, Some(f)) => flags.push(f as u16),
                (None, None) => {
                    let at = self.at(n);
                    self.d.err(&at, format!("`{}` is neither a scheduling class nor a flag", n.value));
                }
            }
        }
        Selector { classes: leak(classes), flags: leak(flags) }
    }

    fn leaf(&self, key: &str) -> Option<&Leaf> {
        self.names.leaves.iter().find(|(k, l)| k == key && l.group == 0).map(|(_, l)| l)
    }

    fn field_width(&self, key: &str, field: &str) -> Option<u32> {
        let l = self.leaf(key)?;
        l.default_case().fields.iter().find(|f| f.name == field)?.width()
    }

    /// The instruction exists and has a settable field of that name.
    fn instruction_field(&mut self, key: &S<String>, field: &S<String>) {
        match self.leaf(&key.value) {
            None => {
                let at = self.at(key);
                self.d.err(&at, format!("no instruction `{}`", key.value));
            }
            Some(_) if self.field_width(&key.value, &field.value).is_none() => {
                let at = self.at(field);
                self.d.err(&at, format!("instruction `{}` has no field `{}` read from bits", key.value, field.value));
            }
            Some(_) => {}
        }
    }

    fn some_instruction_has(&mut self, field: &S<String>) {
        let found = self
            .names
            .leaves
            .iter()
            .any(|(_, l)| l.group == 0 && l.cases.iter().any(|c| c.fields.iter().any(|f| f.name == field.value)));
        if !found {
            let at = self.at(field);
            self.d.err(&at, format!("no instruction has a field `{}`", field.value));
        }
    }

    fn placeholders(&mut self, text: &S<String>, needed: &[&str]) {
        for p in needed {
            if !text.value.contains(&format!("{{{p}}}")) {
                let at = self.at(text);
                self.d
                    .err(&at, format!("`{}` must contain `{{{p}}}` (placeholders: {})", text.value, needed.join(", ")));
            }
        }
    }
}

// ---------------------------------------------------------------- code generation

impl Emit for RegFile {
    fn emit(&self) -> TokenStream {
        let (n, d, u, s, r) = (self.name.emit(), self.doc.emit(), self.units.emit(), self.scarce, self.read_only);
        quote!(::isa_runtime::machine::RegFile { name: #n, doc: #d, units: #u, scarce: #s, read_only: #r })
    }
}

impl Emit for Align {
    fn emit(&self) -> TokenStream {
        let (m, a) = (self.min_regs.emit(), self.align.emit());
        quote!(::isa_runtime::machine::Align { min_regs: #m, align: #a })
    }
}

impl Emit for SynTok {
    fn emit(&self) -> TokenStream {
        match self {
            SynTok::Lit(s) => {
                let s = s.emit();
                quote!(::isa_runtime::machine::SynTok::Lit(#s))
            }
            SynTok::Num(e) => {
                let e = e.emit();
                quote!(::isa_runtime::machine::SynTok::Num(#e))
            }
            SynTok::Enum(e, i) => {
                let (e, i) = (e.emit(), i.emit());
                quote!(::isa_runtime::machine::SynTok::Enum(#e, #i))
            }
        }
    }
}

impl Emit for RegClass {
    fn emit(&self) -> TokenStream {
        let (n, d, f, u, c) =
            (self.name.emit(), self.doc.emit(), self.file.emit(), self.units.emit(), self.count.emit());
        let (a, s, r) = (self.align.emit(), self.syntax.emit(), self.range_syntax.emit());
        let (b, af, j) = (self.bits.emit(), self.abi_file.emit(), self.join.emit());
        quote!(::isa_runtime::machine::RegClass {
            name: #n, doc: #d, file: #f, units: #u, bits: #b, abi_file: #af, count: #c, align: #a, syntax: #s,
            range_syntax: #r, join: #j
        })
    }
}

impl Emit for Timing {
    fn emit(&self) -> TokenStream {
        let (i, s, w, u) = (self.issue.emit(), self.sync.emit(), self.war.emit(), self.unordered);
        quote!(::isa_runtime::machine::Timing { issue: #i, sync: #s, war: #w, unordered: #u })
    }
}

impl Emit for SyncClass {
    fn emit(&self) -> TokenStream {
        let (n, d) = (self.name.emit(), self.doc.emit());
        let k = match self.kind {
            SyncKind::Flag(f) => {
                let f = f.emit();
                quote!(::isa_runtime::machine::SyncKind::Flag(#f))
            }
            SyncKind::Counter { field, width } => {
                let (field, width) = (field.emit(), width.emit());
                quote!(::isa_runtime::machine::SyncKind::Counter { field: #field, width: #width })
            }
            SyncKind::Slot { field, wait_field, slots, depth } => {
                let (field, wait_field, slots, depth) = (field.emit(), wait_field.emit(), slots.emit(), depth.emit());
                quote!(::isa_runtime::machine::SyncKind::Slot {
                    field: #field, wait_field: #wait_field, slots: #slots, depth: #depth
                })
            }
        };
        quote!(::isa_runtime::machine::SyncClass { name: #n, doc: #d, kind: #k })
    }
}

impl Emit for WaitInst {
    fn emit(&self) -> TokenStream {
        let i = self.instruction.emit();
        quote!(::isa_runtime::machine::WaitInst { instruction: #i })
    }
}

impl Emit for Selector {
    fn emit(&self) -> TokenStream {
        let (c, f) = (self.classes.emit(), self.flags.emit());
        quote!(::isa_runtime::machine::Selector { classes: #c, flags: #f })
    }
}

impl Emit for Delay {
    fn emit(&self) -> TokenStream {
        let (a, b, f, o, c) =
            (self.from.emit(), self.to.emit(), self.file.emit(), self.operand.emit(), self.cycles.emit());
        quote!(::isa_runtime::machine::Delay { from: #a, to: #b, file: #f, operand: #o, cycles: #c })
    }
}

impl Emit for LateRead {
    fn emit(&self) -> TokenStream {
        let (t, o, f, c) = (self.to.emit(), self.operand.emit(), self.file.emit(), self.cycles.emit());
        quote!(::isa_runtime::machine::LateRead { to: #t, operand: #o, file: #f, cycles: #c })
    }
}

impl Emit for Nop {
    fn emit(&self) -> TokenStream {
        let (i, f, m) = (self.instruction.emit(), self.field.emit(), self.max.emit());
        quote!(::isa_runtime::machine::Nop { instruction: #i, field: #f, max: #m })
    }
}

impl Emit for NopFold {
    fn emit(&self) -> TokenStream {
        let (f, m, a, b) = (self.field.emit(), self.max.emit(), self.gen_min.emit(), self.gen_max.emit());
        quote!(::isa_runtime::machine::NopFold { field: #f, max: #m, gen_min: #a, gen_max: #b })
    }
}

impl Emit for OrderChain {
    fn emit(&self) -> TokenStream {
        let (n, m) = (self.name.emit(), self.members.emit());
        quote!(::isa_runtime::machine::OrderChain { name: #n, members: #m })
    }
}

impl Emit for CopyRule {
    fn emit(&self) -> TokenStream {
        let (c, t) = (self.class.emit(), self.text.emit());
        quote!(::isa_runtime::machine::CopyRule { class: #c, text: #t })
    }
}

impl Emit for SelectRule {
    fn emit(&self) -> TokenStream {
        let (c, k, t) = (self.class.emit(), self.cond_class.emit(), self.text.emit());
        quote!(::isa_runtime::machine::SelectRule { class: #c, cond_class: #k, text: #t })
    }
}

impl Emit for &Machine {
    fn emit(&self) -> TokenStream {
        let m = *self;
        let (files, classes, timing, syncs) = (m.files.emit(), m.classes.emit(), m.timing.emit(), m.syncs.emit());
        let (wait, delays, late, nop) = (m.wait.emit(), m.delays.emit(), m.late_reads.emit(), m.nop.emit());
        let (fold, order, copies, select, end) =
            (m.nop_fold.emit(), m.order.emit(), m.copies.emit(), m.select.emit(), m.end.emit());
        quote!(&::isa_runtime::Machine {
            files: #files, classes: #classes, timing: #timing, syncs: #syncs, wait: #wait, delays: #delays,
            late_reads: #late, nop: #nop, nop_fold: #fold, order: #order, copies: #copies, select: #select, end: #end,
        })
    }
}
