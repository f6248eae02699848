//! Lowering an ABI spec: from the YAML model to the runtime's `Abi` tables,
//! checking names, types and expressions as it goes. Layout checks that depend
//! on parameter values (overlap, alignment, limits, invariants) run afterwards,
//! over every value, in [`super::check`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use isa_runtime::abi::{
    Abi, Arg, ArgKind, Block, Invariant, Param, RegFile, SlotEntry, SlotTable, Stage, Start, UserData, Variant, Word,
    WordField,
};
use isa_runtime::{Expr, Gen, Op};

use super::schema::{AbiFile, ArgSpec, BlockSpec, VariantSpec};
use crate::diag::{Diagnostic, Diags, Loc};
use crate::expr;
use crate::schema::ExprText;
use crate::yaml::{self, S, loc};

/// A loaded ABI, with where each part was written (for later diagnostics).
#[derive(Debug)]
pub struct Lowered {
    pub abi: &'static Abi,
    /// Every file read, root first.
    pub files: Vec<PathBuf>,
    /// Per stage, per variant.
    pub sites: Vec<Vec<VariantSites>>,
}

/// Source locations of a variant's parts, by block and argument index.
#[derive(Debug, Default)]
pub struct VariantSites {
    pub at: Loc,
    pub args: Vec<Vec<Loc>>,
    pub invariants: Vec<Vec<Loc>>,
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn text(s: &Option<S<String>>) -> &'static str {
    Box::leak(s.as_ref().map_or(String::new(), |s| s.value.trim().to_string()).into_boxed_str())
}

fn name(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Names a generated item cannot take.
const RUST_KEYWORDS: [&str; 52] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
    "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "union",
];

/// Most slots one slot table holds, over all its entries' elements: each is
/// placed and checked against the others when the spec loads, and a
/// descriptor list is a few hundred slots at most (radeonsi's largest,
/// samplers and images, holds 48).
const MAX_TABLE_SLOTS: u64 = 1 << 16;

/// Most units a register file has in any generation: every argument is
/// placed within its file, and an array argument has at most as many
/// elements as its file has units, so this bounds the work of placing one
/// layout (the largest real file, ir3's const file, has 2,048).
pub const MAX_FILE_UNITS: u32 = 1 << 16;

/// Which names an expression may read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Only `gen` (register file sizes).
    Gen,
    /// Parameters and `gen`; `i` inside an array argument; `size` in an invariant.
    Layout { index: bool, size: bool },
    /// A slot number: only `i`.
    Slot,
}

/// Loads the ABI whose root spec is `root`.
pub fn load(root: &Path) -> Result<Lowered, Vec<Diagnostic>> {
    load_with(root, &mut yaml::read_file)
}

/// [`load`], reading every file through `read` (the fuzzer serves the root
/// from memory and no other file).
pub fn load_with(root: &Path, read: &mut yaml::Reader) -> Result<Lowered, Vec<Diagnostic>> {
    let mut d = Diags::default();
    let root_spec: AbiFile = yaml::load_with(root, read).map_err(|e| vec![e])?;
    let dir = root.parent().unwrap_or(Path::new("."));
    let listed: Vec<_> = root_spec.files.iter().flatten().map(|f| (dir.join(&f.value), loc(root, f))).collect();
    let mut files = vec![(root.to_path_buf(), root_spec)];
    for (path, at) in listed {
        match yaml::load_with::<AbiFile>(&path, read) {
            Ok(f) => {
                root_only_keys(&path, &f, &mut d);
                files.push((path, f));
            }
            Err(e) if e.message.starts_with("cannot read") => {
                d.push(Diagnostic::new(at, format!("{}: {}", path.display(), e.message)))
            }
            Err(e) => d.push(e),
        }
    }
    let paths = files.iter().map(|(p, _)| p.clone()).collect();
    let out = Lower { d: &mut d, params: IndexMap::new() }.run(files);
    match out {
        Some((abi, sites)) if d.is_empty() => Ok(Lowered { abi, files: paths, sites }),
        _ => Err(d.list),
    }
}

fn root_only_keys(path: &Path, f: &AbiFile, d: &mut Diags) {
    let keys: [(&str, Option<Loc>); 6] = [
        ("abi", f.abi.as_ref().map(|s| loc(path, s))),
        ("doc", f.doc.as_ref().map(|s| loc(path, s))),
        ("source", f.source.as_ref().map(|s| loc(path, s))),
        ("files", f.files.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("generations", f.generations.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("default-gen", f.default_gen.as_ref().map(|s| loc(path, s))),
    ];
    for (key, at) in keys {
        if let Some(at) = at {
            d.push(Diagnostic::new(at, format!("`{key}` belongs in the root ABI file only")));
        }
    }
}

/// Merges one keyed section of every file, reporting names defined twice.
fn merge<T>(
    d: &mut Diags,
    what: &str,
    files: &mut [(PathBuf, AbiFile)],
    take: impl Fn(&mut AbiFile) -> Option<IndexMap<S<String>, T>>,
) -> IndexMap<String, (PathBuf, Loc, T)> {
    let mut out: IndexMap<String, (PathBuf, Loc, T)> = IndexMap::new();
    for (path, f) in files.iter_mut() {
        for (k, v) in take(f).into_iter().flatten() {
            let at = loc(path, &k);
            if let Some((_, prev, _)) = out.get(&k.value) {
                d.push(
                    Diagnostic::new(at, format!("{what} `{}` is defined twice", k.value))
                        .note(format!("first defined at {prev}")),
                );
                continue;
            }
            out.insert(k.value, (path.clone(), at, v));
        }
    }
    out
}

struct Lower<'d> {
    d: &'d mut Diags,
    params: IndexMap<String, (i64, i64)>,
}

type Sites = Vec<Vec<VariantSites>>;

impl Lower<'_> {
    fn run(mut self, mut files: Vec<(PathBuf, AbiFile)>) -> Option<(&'static Abi, Sites)> {
        let root = files[0].0.clone();
        let d = &mut *self.d;
        let params_in = merge(d, "parameter", &mut files, |f| f.params.take());
        let files_in = merge(d, "register file", &mut files, |f| f.register_files.take());
        let groups = merge(d, "argument group", &mut files, |f| f.arg_groups.take());
        let stages_in = merge(d, "stage", &mut files, |f| f.stages.take());
        let words_in = merge(d, "word", &mut files, |f| f.words.take());
        let tables_in = merge(d, "slot table", &mut files, |f| f.slot_tables.take());
        let top = std::mem::take(&mut files[0].1);
        let Some(abi_name) = top.abi.as_ref() else {
            self.d.push(Diagnostic::new(Loc::new(&root, 1, 1), "the root ABI file needs `abi: NAME`"));
            return None;
        };

        let mut params = Vec::new();
        for (n, (path, at, p)) in &params_in {
            let p = &p.value;
            let (lo, hi) = (p.range.value.lo as i64, p.range.value.hi as i64);
            let default = p.default.as_ref().map_or(lo, |v| v.value);
            if !(lo..=hi).contains(&default) {
                let at = p.default.as_ref().map_or_else(|| loc(path, &p.range), |d| loc(path, d));
                self.d.err(&at, format!("default {default} of `{n}` is outside {lo}..={hi}"));
            }
            self.ident(at, n, "parameter");
            self.params.insert(n.clone(), (lo, hi));
            params.push(Param { name: name(n), doc: text(&p.doc), min: lo, max: hi, default });
        }

        let gens: Vec<Gen> = top
            .generations
            .iter()
            .flatten()
            .map(|g| Gen {
                name: name(&g.value.name.value),
                value: g.value.value.value,
                aliases: leak(g.value.aliases.iter().flatten().map(|a| name(&a.value)).collect()),
            })
            .collect();
        let default_gen = match &top.default_gen {
            None => gens.first().map_or(0, |g| g.value),
            Some(dg) => gens.iter().find(|g| g.name == dg.value).map(|g| g.value).unwrap_or_else(|| {
                self.d.err(&loc(&root, dg), format!("default-gen `{}` is not a listed generation", dg.value));
                0
            }),
        };

        let mut reg_files = Vec::new();
        for (n, (path, _, f)) in &files_in {
            let f = &f.value;
            let units = self.expr(path, &f.units, Scope::Gen).unwrap_or(&[]);
            if f.unit_bits.value == 0 {
                self.d.err(&loc(path, &f.unit_bits), "unit-bits must be at least 1");
            }
            let align = f.align.iter().flatten().map(|(b, a)| (b.value, a.value.max(1))).collect();
            let gen_values: Vec<u32> =
                if gens.is_empty() { vec![default_gen] } else { gens.iter().map(|g| g.value).collect() };
            if let Some((g, count)) = gen_values
                .iter()
                .map(|&g| (g, isa_runtime::abi::Env::new(g, &[]).eval(units)))
                .find(|&(_, count)| !(0..=MAX_FILE_UNITS as i64).contains(&count))
            {
                let in_gen = if gens.is_empty() { String::new() } else { format!(" in generation {g}") };
                self.d.err(
                    &loc(path, &f.units),
                    format!("register file `{n}` has {count} units{in_gen}; a file has 0 to {MAX_FILE_UNITS}"),
                );
            }
            reg_files.push(RegFile {
                name: name(n),
                doc: text(&f.doc),
                unit_bits: f.unit_bits.value.max(1),
                units,
                register_units: f.register_units.as_ref().map_or(1, |r| r.value.max(1)),
                prefix: name(&f.prefix.value),
                parts: leak(f.parts.iter().flatten().map(|p| name(&p.value)).collect()),
                part_sep: text(&f.part_separator),
                align: leak(align),
            });
        }

        let words = self.words(&words_in);
        let ctx =
            Ctx { files: &files_in.keys().cloned().collect(), groups: &groups, words: &words_in, word_bits: &words };
        let mut stages = Vec::new();
        let mut sites = Vec::new();
        for (sn, (path, at, s)) in stages_in {
            self.ident(&at, &sn, "stage");
            let mut variants = Vec::new();
            let mut vsites = Vec::new();
            for (vn, v) in &s.value.variants {
                let vat = loc(&path, vn);
                self.ident(&vat, &vn.value, "variant");
                let (var, site) = self.variant(&ctx, &path, vat, &vn.value, &v.value);
                variants.push(var);
                vsites.push(site);
            }
            stages.push(Stage { name: name(&sn), doc: text(&s.value.doc), variants: leak(variants) });
            sites.push(vsites);
        }

        let slot_tables = self.slot_tables(&tables_in);
        let abi = Abi {
            name: name(&abi_name.value),
            doc: text(&top.doc),
            source: text(&top.source),
            gens: leak(gens),
            default_gen,
            params: leak(params),
            files: leak(reg_files),
            stages: leak(stages),
            words: leak(words),
            slot_tables: leak(slot_tables),
        };
        Some((Box::leak(Box::new(abi)), sites))
    }

    /// Names become Rust identifiers: check they can.
    fn ident(&mut self, at: &Loc, n: &str, what: &str) {
        let ok = n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            self.d.err(
                at,
                format!("{what} name `{n}` must start with a letter and hold only letters, digits, `_` and `-`"),
            );
        }
        let rust = heck::ToSnakeCase::to_snake_case(n);
        let reserved: &[&str] = match what {
            "stage" => &["words", "slots"],
            "argument" => &["layout", "variant"],
            _ => &[],
        };
        if RUST_KEYWORDS.contains(&rust.as_str()) || reserved.contains(&rust.as_str()) {
            self.d.err(at, format!("{what} name `{n}` becomes `{rust}`, which the generated code cannot use"));
        }
    }

    fn expr(&mut self, path: &Path, e: &S<ExprText>, scope: Scope) -> Option<Expr> {
        let at = loc(path, e);
        let np = self.params.len() as u16;
        let params = &self.params;
        let resolve = |n: &str| -> Option<Op> {
            match (scope, n) {
                (Scope::Slot, "i") => Some(Op::Param(0)),
                (Scope::Layout { index: true, .. }, "i") => Some(Op::Param(np)),
                (Scope::Layout { size: true, .. }, "size") => Some(Op::Param(np + 1)),
                (Scope::Layout { .. }, n) => params.get_index_of(n).map(|k| Op::Param(k as u16)),
                _ => None,
            }
        };
        match expr::parse(&e.value.0).and_then(|ast| ast.compile(&resolve)) {
            Ok(ops) => Some(leak(ops)),
            Err(m) => {
                let hint = match scope {
                    Scope::Gen => "only `gen` may be read here",
                    Scope::Slot => "only `i` may be read here",
                    Scope::Layout { index: false, .. } if e.value.0.contains('i') => {
                        "names: parameters and `gen`; `i` only in an argument with `count`"
                    }
                    Scope::Layout { .. } => "names: parameters, `gen`, `i` (with `count`), `size` (in invariants)",
                };
                self.d.push(Diagnostic::new(at, format!("expression `{}`: {m}", expr::quoted(&e.value.0))).note(hint));
                None
            }
        }
    }

    fn opt_expr(&mut self, path: &Path, e: &Option<S<ExprText>>, scope: Scope) -> Option<Expr> {
        e.as_ref().and_then(|e| self.expr(path, e, scope))
    }

    fn words(&mut self, words_in: &IndexMap<String, (PathBuf, Loc, S<super::schema::WordSpec>)>) -> Vec<Word> {
        let mut out = Vec::new();
        for (wn, (path, at, w)) in words_in {
            self.ident(at, wn, "word");
            let bits = w.value.bits.value;
            if !(1..=64).contains(&bits) {
                self.d.err(&loc(path, &w.value.bits), format!("word `{wn}` has {bits} bits; 1 to 64 are allowed"));
            }
            let mut fields: Vec<(WordField, Loc)> = Vec::new();
            for (fname, f) in &w.value.fields {
                let fat = loc(path, fname);
                self.ident(&fat, &fname.value, "field");
                let (lo, hi) = (f.value.bits.value.lo, f.value.bits.value.hi);
                if hi >= bits {
                    self.d.push(
                        Diagnostic::new(
                            loc(path, &f.value.bits),
                            format!(
                                "field `{}` (bits {lo}..{hi}) does not fit the {bits}-bit word `{wn}`",
                                fname.value
                            ),
                        )
                        .note(format!("bits run from 0 to {}", bits.saturating_sub(1))),
                    );
                }
                if let Some((g, _)) = fields.iter().find(|(g, _)| lo < g.lo.saturating_add(g.width) && g.lo <= hi) {
                    self.d.err(&fat, format!("fields `{}` and `{}` of word `{wn}` overlap", g.name, fname.value));
                }
                // Saturating: `0..4294967295` was reported above and must not overflow here.
                let width = (hi - lo).saturating_add(1);
                let field = WordField { name: name(&fname.value), doc: text(&f.value.doc), lo, width };
                fields.push((field, fat));
            }
            out.push(Word {
                name: name(wn),
                doc: text(&w.value.doc),
                bits,
                registers: leak(w.value.registers.iter().flatten().map(|(r, a)| (name(&r.value), a.value)).collect()),
                fields: leak(fields.into_iter().map(|(f, _)| f).collect()),
            });
        }
        out
    }

    /// Whether every slot of `table` can be placed: the table holds at
    /// most [`MAX_TABLE_SLOTS`] in all (each is placed and compared with
    /// the others), and each element's slot is one a table's offsets
    /// reach. Reports the first entry that fails, at `locs`.
    fn slots_placeable(&mut self, table: &SlotTable, locs: &[Loc]) -> bool {
        let mut total = 0u64;
        for (e, at) in table.entries.iter().zip(locs) {
            let count = e.count.unwrap_or(1);
            total += count as u64;
            if total > MAX_TABLE_SLOTS {
                let what =
                    if e.count.is_some() { format!("has {count} elements") } else { "is one slot too many".into() };
                self.d.err(
                    at,
                    format!("slot `{}` {what}; a slot table holds at most {MAX_TABLE_SLOTS} slots in all", e.name),
                );
                return false;
            }
            if let Some(err) = (0..count as i64).find_map(|i| e.slot(i).err()) {
                self.d.err(at, err.to_string());
                return false;
            }
        }
        true
    }

    fn slot_tables(
        &mut self,
        tables_in: &IndexMap<String, (PathBuf, Loc, S<super::schema::SlotTableSpec>)>,
    ) -> Vec<SlotTable> {
        let mut out = Vec::new();
        for (tn, (path, at, t)) in tables_in {
            self.ident(at, tn, "slot table");
            let mut entries = Vec::new();
            let mut locs = Vec::new();
            for (en, e) in &t.value.entries {
                locs.push(loc(path, en));
                self.ident(&loc(path, en), &en.value, "slot");
                let slot = self.expr(path, &e.value.slot, Scope::Slot).unwrap_or(&[]);
                entries.push(SlotEntry {
                    name: name(&en.value),
                    doc: text(&e.value.doc),
                    slot,
                    dwords: e.value.dwords.value.max(1),
                    count: e.value.count.as_ref().map(|c| c.value),
                });
            }
            let table = SlotTable {
                name: name(tn),
                doc: text(&t.value.doc),
                dwords: t.value.dwords.as_ref().map(|d| d.value),
                entries: leak(entries),
            };
            if !self.slots_placeable(&table, &locs) {
                out.push(table);
                continue;
            }
            match table.conflict() {
                Some((k, Some(j))) => self.d.err(
                    &locs[k],
                    format!(
                        "slots of `{}` and `{}` overlap in table `{tn}`",
                        table.entries[j].name, table.entries[k].name
                    ),
                ),
                Some((k, None)) => self.d.err(
                    &locs[k],
                    format!(
                        "`{}` lies past the end of table `{tn}` ({} dwords)",
                        table.entries[k].name,
                        table.dwords.unwrap_or(0)
                    ),
                ),
                None => {}
            }
            out.push(table);
        }
        out
    }

    fn variant(&mut self, ctx: &Ctx, path: &Path, at: Loc, vname: &str, v: &VariantSpec) -> (Variant, VariantSites) {
        let layout = Scope::Layout { index: false, size: false };
        let mut used: Vec<Expr> = Vec::new();
        let when = self.opt_expr(path, &v.when, layout);
        used.extend(when);
        let mut set = Vec::new();
        for (p, val) in v.set.iter().flatten() {
            match self.params.get_full(&p.value) {
                Some((k, _, &(lo, hi))) => {
                    if !(lo..=hi).contains(&val.value) {
                        self.d.err(&loc(path, val), format!("{} = {} is outside {lo}..={hi}", p.value, val.value));
                    }
                    set.push((k as u16, val.value));
                }
                None => self.d.err(&loc(path, p), format!("no parameter `{}`", p.value)),
            }
        }
        let mut blocks = Vec::new();
        let mut sites = VariantSites { at, ..Default::default() };
        let mut arg_names: HashSet<String> = HashSet::new();
        let block_names: Vec<&str> = v.blocks.iter().flatten().map(|(k, _)| k.value.as_str()).collect();
        for (bi, (bn, b)) in v.blocks.iter().flatten().enumerate() {
            let (block, arg_locs, inv_locs) =
                self.block(ctx, path, &bn.value, &b.value, &block_names[..bi], &mut arg_names, &mut used);
            blocks.push(block);
            sites.args.push(arg_locs);
            sites.invariants.push(inv_locs);
        }
        let np = self.params.len();
        let mut free: Vec<u16> = used
            .iter()
            .flat_map(|e| e.iter())
            .filter_map(|op| match op {
                Op::Param(k) if (*k as usize) < np && !set.iter().any(|(s, _)| s == k) => Some(*k),
                _ => None,
            })
            .collect();
        free.sort_unstable();
        free.dedup();
        let doc = text(&v.doc);
        let var = Variant { name: name(vname), doc, when, set: leak(set), free: leak(free), blocks: leak(blocks) };
        (var, sites)
    }

    #[allow(clippy::too_many_arguments)]
    fn block(
        &mut self,
        ctx: &Ctx,
        path: &Path,
        bname: &str,
        b: &BlockSpec,
        earlier: &[&str],
        arg_names: &mut HashSet<String>,
        used: &mut Vec<Expr>,
    ) -> (Block, Vec<Loc>, Vec<Loc>) {
        let layout = Scope::Layout { index: false, size: false };
        let file = ctx.files.get_index_of(&b.file.value).unwrap_or_else(|| {
            self.d.err(
                &loc(path, &b.file),
                format!(
                    "no register file `{}` (files: {})",
                    b.file.value,
                    ctx.files.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
            0
        });
        let start = match (&b.start, &b.follows) {
            (Some(s), Some(_)) => {
                self.d.err(&loc(path, s), "a block has `start` or `follows`, not both");
                Start::Unit(s.value)
            }
            (Some(s), None) => Start::Unit(s.value),
            (None, Some(f)) => match earlier.iter().position(|e| *e == f.value) {
                Some(k) => Start::Follows(k as u16),
                None => {
                    self.d.err(
                        &loc(path, f),
                        format!("`follows: {}` must name an earlier block of this variant", f.value),
                    );
                    Start::Unit(0)
                }
            },
            (None, None) => Start::Unit(0),
        };
        let when = self.opt_expr(path, &b.when, layout);
        used.extend(when);
        let user_data = b.user_data.as_ref().map(|u| UserData {
            name: name(&u.value.name.value),
            base: u.value.register.value,
            stride: u.value.stride.as_ref().map_or(4, |s| s.value),
        });
        let mut args = Vec::new();
        let mut arg_locs = Vec::new();
        for a in self.expand_uses(ctx, path, &b.args) {
            let (arg_path, spec) = a;
            if let Some(arg) = self.arg(ctx, &arg_path, spec, arg_names, used) {
                args.push(arg);
                arg_locs.push(loc(&arg_path, spec.name.as_ref().expect("checked in arg")));
            }
        }
        let mut invariants = Vec::new();
        let mut inv_locs = Vec::new();
        for inv in b.invariants.iter().flatten() {
            let scope = Scope::Layout { index: false, size: true };
            let check = self.expr(path, &inv.value.check, scope);
            let iwhen = self.opt_expr(path, &inv.value.when, layout);
            used.extend(check);
            used.extend(iwhen);
            invariants.push(Invariant {
                check: check.unwrap_or(&[]),
                text: name(&inv.value.check.value.0),
                when: iwhen,
            });
            inv_locs.push(loc(path, &inv.value.check));
        }
        let block = Block {
            name: name(bname),
            doc: text(&b.doc),
            file: file as u16,
            start,
            limit: b.limit.as_ref().map(|l| l.value),
            when,
            user_data,
            args: leak(args),
            invariants: leak(invariants),
        };
        (block, arg_locs, inv_locs)
    }

    /// The block's arguments with every `use: GROUP` replaced by the group's
    /// (groups may use groups; a cycle is an error).
    fn expand_uses<'a>(&mut self, ctx: &'a Ctx, path: &Path, args: &'a [S<ArgSpec>]) -> Vec<(PathBuf, &'a ArgSpec)> {
        let mut out = Vec::new();
        self.expand_into(ctx, path, args, &mut Vec::new(), &mut out);
        out
    }

    fn expand_into<'a>(
        &mut self,
        ctx: &'a Ctx,
        path: &Path,
        args: &'a [S<ArgSpec>],
        stack: &mut Vec<String>,
        out: &mut Vec<(PathBuf, &'a ArgSpec)>,
    ) {
        for a in args {
            let Some(g) = &a.value.use_ else {
                out.push((path.to_path_buf(), &a.value));
                continue;
            };
            let v = &a.value;
            if v.name.is_some() || v.bits.is_some() || v.at.is_some() || v.count.is_some() || v.when.is_some() {
                self.d.err(&loc(path, g), "`use:` pulls in a group and takes no other keys");
            }
            if stack.contains(&g.value) {
                self.d.err(&loc(path, g), format!("argument group `{}` uses itself", g.value));
                continue;
            }
            match ctx.groups.get(&g.value) {
                Some((gpath, _, list)) => {
                    stack.push(g.value.clone());
                    self.expand_into(ctx, gpath, list, stack, out);
                    stack.pop();
                }
                None => self.d.err(&loc(path, g), format!("no argument group `{}`", g.value)),
            }
        }
    }

    fn arg(
        &mut self,
        ctx: &Ctx,
        path: &Path,
        a: &ArgSpec,
        names: &mut HashSet<String>,
        used: &mut Vec<Expr>,
    ) -> Option<Arg> {
        let Some(n) = &a.name else {
            let at = a.bits.as_ref().map(|b| loc(path, b)).unwrap_or_else(|| Loc::new(path, 1, 1));
            self.d.err(&at, "an argument needs `name:` (or is `use: GROUP`)");
            return None;
        };
        let at = loc(path, n);
        self.ident(&at, &n.value, "argument");
        if !names.insert(n.value.clone()) {
            self.d.err(&at, format!("argument `{}` is defined twice in this variant", n.value));
        }
        let Some(bits) = &a.bits else {
            self.d.err(&at, format!("argument `{}` needs `bits:`", n.value));
            return None;
        };
        if bits.value == 0 {
            self.d.err(&loc(path, bits), "an argument has at least 1 bit");
        }
        let kind = match a.kind.as_ref().map(|k| k.value.as_str()) {
            None | Some("value") => ArgKind::Value,
            Some("undefined") => ArgKind::Undefined,
            Some("reserved") => ArgKind::Reserved,
            Some(other) => {
                self.d.err(
                    &loc(path, a.kind.as_ref()?),
                    format!("unknown kind `{other}` (value, undefined or reserved)"),
                );
                ArgKind::Value
            }
        };
        let scope = Scope::Layout { index: a.count.is_some(), size: false };
        let at_e = self.opt_expr(path, &a.at, scope);
        let count = self.opt_expr(path, &a.count, Scope::Layout { index: false, size: false });
        let when = self.opt_expr(path, &a.when, scope);
        used.extend(at_e.into_iter().chain(count).chain(when));
        if let Some(al) = &a.align
            && al.value == 0
        {
            self.d.err(&loc(path, al), "alignment is at least 1 unit");
        }
        let word = a.word.as_ref().and_then(|w| match ctx.words.get_index_of(&w.value) {
            Some(k) => {
                let wb = ctx.word_bits[k].bits;
                if wb != bits.value {
                    self.d.err(
                        &loc(path, w),
                        format!("word `{}` has {wb} bits but argument `{}` has {}", w.value, n.value, bits.value),
                    );
                }
                Some(k as u16)
            }
            None => {
                self.d.err(&loc(path, w), format!("no word `{}`", w.value));
                None
            }
        });
        Some(Arg {
            name: name(&n.value),
            doc: text(&a.doc),
            kind,
            bits: bits.value,
            at: at_e,
            align: a.align.as_ref().map(|a| a.value.max(1)),
            count,
            when,
            word,
        })
    }
}

/// What blocks and arguments refer to by name.
struct Ctx<'a> {
    files: &'a indexmap::IndexSet<String>,
    groups: &'a IndexMap<String, (PathBuf, Loc, Vec<S<ArgSpec>>)>,
    words: &'a IndexMap<String, (PathBuf, Loc, S<super::schema::WordSpec>)>,
    word_bits: &'a [Word],
}
