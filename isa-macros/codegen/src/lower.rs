//! Lowering: from the YAML model to the engine's tables, checking as it goes.
//!
//! Inheritance is resolved here, once: every leaf gets its full field list, its
//! identifying bits and its cases, so the engine never walks a hierarchy. Every
//! problem found becomes a [`Diagnostic`]; lowering goes on after an error so
//! that one build reports them all.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use isa_runtime::{
    Bits, Case, Enum, EnumValue, Expr, Field, Gen, GenValue, Group, Ignore, Intervals, Isa, Leaf, Op, Param, Range,
    RawSyntax, Rule, SchedClass, Src, Syntax, Tok, Ty, mask_of,
};

use crate::diag::{Diagnostic, Diags, Loc};
use crate::expr;
use crate::schema::{
    BitsetSpec, CaseSpec, DisplaySpec, EnumAccepts, EnumSpec, ExprText, FieldSpec, OpcodeTable, SetSpec, SpecFile,
};
use crate::yaml::{self, S, Spanned, loc};

/// A loaded, checked target.
#[derive(Debug)]
pub struct Spec {
    pub isa: &'static Isa,
    /// Every file read, root first (the build must depend on each).
    pub files: Vec<PathBuf>,
    /// Rust names of the instructions, by leaf index: `(variant, leaf)`.
    pub variants: Vec<(String, u16)>,
    /// For each leaf (by index), the bitsets it is made of: its own key, then
    /// what it extends, up to its root. Tools that describe a target (the
    /// reference manuals) group leaves by format with it; the engine never
    /// needs it.
    pub lineage: Vec<Vec<String>>,
    /// For each leaf, where it was written: its bitset's key, or its row of an
    /// instruction table (documentation follows the spec's order with it).
    pub defined_at: Vec<Loc>,
    /// For each leaf, the fields it writes as its bitsets or table say
    /// (`writes:`, nearest first); `None` when none says.
    pub writes: Vec<Option<Vec<String>>>,
    /// The root's `builder:` section, for the typed builders.
    pub builder: Option<(PathBuf, S<crate::builder::BuilderSpec>)>,
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

pub(crate) fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The `requires` conjuncts read by intervals of a value they compare with
/// constants (a literal against every inline constant's value).
fn intervals_of(requires: &[Expr]) -> &'static [Intervals] {
    let found = requires.iter().enumerate().filter_map(|(i, e)| Some((i, isa_runtime::intervals::find(e)?)));
    leak(
        found
            .map(|(i, f)| Intervals {
                conjunct: i as u16,
                of: f.of,
                starts: leak(f.starts),
                then: leak(f.then.into_iter().map(leak).collect()),
            })
            .collect(),
    )
}

/// The same tables with the precomputed decoder attached.
fn with_dispatch(isa: &'static Isa) -> &'static Isa {
    let dispatch = Some(&*Box::leak(Box::new(crate::dispatch::build(isa))));
    let raw = isa.raw.as_ref().map(|r| RawSyntax { prefix: r.prefix, uppercase: r.uppercase, bits: r.bits });
    Box::leak(Box::new(Isa { raw, dispatch, ..*isa }))
}

/// Loads the target whose root spec is `root`.
pub fn load(root: &Path) -> Result<Spec, Vec<Diagnostic>> {
    load_with(root, &mut yaml::read_file)
}

/// [`load`], reading the root spec and the files it lists through `read`
/// (the fuzzer serves the root from memory and nothing else).
pub fn load_with(root: &Path, read: &mut yaml::Reader) -> Result<Spec, Vec<Diagnostic>> {
    let mut d = Diags::default();
    let root_spec: SpecFile = yaml::load_with(root, read).map_err(|e| vec![e])?;
    let dir = root.parent().unwrap_or(Path::new("."));
    let mut files = vec![(root.to_path_buf(), root_spec)];
    let listed: Vec<_> = files[0].1.files.iter().flatten().map(|f| (dir.join(&f.value), loc(root, f))).collect();
    for (path, at) in listed {
        match yaml::load_with::<SpecFile>(&path, read) {
            Ok(f) => {
                check_not_root_keys(&path, &f, &mut d);
                files.push((path, f));
            }
            Err(mut e) => {
                if e.message.starts_with("cannot read") {
                    e = Diagnostic::new(at, format!("{}: {}", path.display(), e.message));
                }
                d.push(e);
            }
        }
    }
    if !d.is_empty() {
        // A file that did not load would only cause follow-on errors about the
        // names it defines.
        return Err(d.list);
    }
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let out = Lower::new(files, &mut d).run();
    if d.is_empty()
        && let Some((isa, variants, lineage, defined_at, writes, builder)) = out
    {
        let builder = builder.map(|b| (paths[0].clone(), b));
        return Ok(Spec { isa: with_dispatch(isa), files: paths, variants, lineage, defined_at, writes, builder });
    }
    Err(d.list)
}

/// The `any-order:` fields: each must be a field of some bitset, listed
/// once (a name that is no field would silently do nothing).
fn any_order(d: &mut Diags, root: &SpecFile, rp: &Path, leaves: &[Leaf]) -> &'static [&'static str] {
    let mut names: Vec<&'static str> = Vec::new();
    for n in root.any_order.iter().flatten() {
        let is_field = leaves.iter().flat_map(|l| l.cases).flat_map(|c| c.fields).any(|f| f.name == n.value);
        if !is_field {
            d.err(&loc(rp, n), format!("any-order: no bitset has a field `{}`", n.value));
        } else if names.contains(&n.value.as_str()) {
            d.err(&loc(rp, n), format!("any-order: `{}` is listed twice", n.value));
        } else {
            names.push(leak_str(&n.value));
        }
    }
    leak(names)
}

fn check_not_root_keys(path: &Path, f: &SpecFile, d: &mut Diags) {
    let root_only: [(&str, Option<Loc>); 16] = [
        ("optional-commas", f.optional_commas.as_ref().map(|s| loc(path, s))),
        ("octal-numbers", f.octal_numbers.as_ref().map(|s| loc(path, s))),
        ("binary-numbers", f.binary_numbers.as_ref().map(|s| loc(path, s))),
        ("bracketed-indices", f.bracketed_indices.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("any-order", f.any_order.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("builder", f.builder.as_ref().map(|s| loc(path, s))),
        ("syntaxes", f.syntaxes.as_ref().and_then(|m| m.keys().next()).map(|s| loc(path, s))),
        ("isa", f.isa.as_ref().map(|s| loc(path, s))),
        ("files", f.files.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("generations", f.generations.as_ref().and_then(|v| v.first()).map(|s| loc(path, s))),
        ("default-gen", f.default_gen.as_ref().map(|s| loc(path, s))),
        ("raw", f.raw.as_ref().map(|s| loc(path, s))),
        ("instruction", f.instruction.as_ref().map(|s| loc(path, s))),
        ("sched-classes", f.sched_classes.as_ref().and_then(|m| m.keys().next()).map(|s| loc(path, s))),
        ("flags", f.flags.as_ref().and_then(|m| m.keys().next()).map(|s| loc(path, s))),
        ("machine", f.machine.as_ref().map(|s| loc(path, s))),
    ];
    for (key, at) in root_only {
        if let Some(at) = at {
            d.push(Diagnostic::new(at, format!("`{key}` belongs in the root spec file only")));
        }
    }
}

/// A bitset definition with the file it came from.
struct BDef {
    key: String,
    file: PathBuf,
    at: Loc,
    spec: BitsetSpec,
}

/// A field definition before lowering.
#[derive(Clone)]
struct FDef<'a> {
    name: String,
    file: &'a Path,
    at: Loc,
    spec: Option<&'a FieldSpec>,
    /// For params: the param's declared type and display.
    param: Option<(usize, &'a crate::schema::ParamSpec)>,
    fixed: bool,
}

struct Lower<'d> {
    files: Vec<(PathBuf, SpecFile)>,
    d: &'d mut Diags,
}

impl<'d> Lower<'d> {
    fn new(files: Vec<(PathBuf, SpecFile)>, d: &'d mut Diags) -> Self {
        Lower { files, d }
    }

    #[allow(clippy::type_complexity)]
    #[allow(clippy::type_complexity)]
    fn run(
        mut self,
    ) -> Option<(
        &'static Isa,
        Vec<(String, u16)>,
        Vec<Vec<String>>,
        Vec<Loc>,
        Vec<Option<Vec<String>>>,
        Option<S<crate::builder::BuilderSpec>>,
    )> {
        let files = std::mem::take(&mut self.files);
        let root_file = files[0].0.clone();
        let mut root_specs = Vec::new();
        let mut enums_in: Vec<(PathBuf, S<String>, S<EnumSpec>)> = Vec::new();
        let mut accepts_in: Vec<(PathBuf, S<String>, S<EnumAccepts>)> = Vec::new();
        let mut sets_in: Vec<(PathBuf, S<String>, S<SetSpec>)> = Vec::new();
        let mut bdefs: IndexMap<String, BDef> = IndexMap::new();
        let mut tables: Vec<(PathBuf, S<OpcodeTable>)> = Vec::new();
        let mut builder = None;
        for (path, mut f) in files {
            for (k, v) in f.enums.take().into_iter().flatten() {
                enums_in.push((path.clone(), k, v));
            }
            for (k, v) in f.enum_accepts.take().into_iter().flatten() {
                accepts_in.push((path.clone(), k, v));
            }
            for (k, v) in f.sets.take().into_iter().flatten() {
                sets_in.push((path.clone(), k, v));
            }
            for (k, v) in f.bitsets.take().into_iter().flatten() {
                let at = loc(&path, &k);
                if let Some(prev) = bdefs.get(&k.value) {
                    self.d.push(
                        Diagnostic::new(at, format!("bitset `{}` is defined twice", k.value))
                            .note(format!("first defined at {}", prev.at)),
                    );
                    continue;
                }
                bdefs.insert(k.value.clone(), BDef { key: k.value, file: path.clone(), at, spec: v.value });
            }
            for t in f.instructions.take().into_iter().flatten() {
                tables.push((path.clone(), t));
            }
            if builder.is_none() {
                builder = f.builder.take();
            }
            root_specs.push((path, f));
        }
        let root = &root_specs[0].1;
        let rp = root_file.as_path();
        let at_root = Loc::new(rp, 1, 1);
        let Some(name) = root.isa.as_ref() else {
            self.d.err(&at_root, "the root spec needs `isa: <target name>`");
            return None;
        };
        let name = name.value.clone();
        let doc = root.doc.as_ref().map(|s| s.value.trim().to_string()).unwrap_or_default();

        // Generations.
        if let Some(g) = root.generations.as_ref().and_then(|g| g.get(MAX_GENERATIONS)) {
            let n = root.generations.as_ref().map_or(0, Vec::len);
            self.d.err(
                &loc(rp, &g.value.name),
                format!("the spec lists {n} generations; at most {MAX_GENERATIONS} are allowed"),
            );
            return None;
        }
        let mut gens = Vec::new();
        for g in root.generations.iter().flatten() {
            let aliases: Vec<&'static str> = g.value.aliases.iter().flatten().map(|a| leak_str(&a.value)).collect();
            if let Some(prev) = gens.last().map(|g: &Gen| g.value)
                && g.value.value.value <= prev
            {
                self.d.err(&loc(rp, &g.value.value), "generations must be listed oldest first, with increasing values");
            }
            gens.push(Gen { name: leak_str(&g.value.name.value), value: g.value.value.value, aliases: leak(aliases) });
        }
        let default_gen = match &root.default_gen {
            Some(s) => match gens.iter().find(|g| g.name == s.value || g.value.to_string() == s.value) {
                Some(g) => g.value,
                None => {
                    self.d.err(&loc(rp, s), format!("default-gen `{}` is not one of the listed generations", s.value));
                    0
                }
            },
            None => gens.last().map_or(0, |g| g.value),
        };

        let mut names = Vec::new();
        for n in root.bracketed_indices.iter().flatten() {
            let ok = n.value.starts_with(|c: char| c.is_ascii_alphabetic())
                && n.value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok {
                self.d.err(
                    &loc(rp, n),
                    format!(
                        "bracketed-indices: `{}` is not a register name (letters, digits and `_`, a letter first)",
                        n.value
                    ),
                );
            }
            names.push(leak_str(&n.value));
        }
        let bracketed_indices = leak(names);

        // Opcode tables become one bitset per mnemonic (per generation range
        // where the number changes between generations).
        for (path, t) in tables {
            let t = t.value;
            for (name, value) in &t.opcodes {
                let at = loc(&path, name);
                // The row itself, then each encoding derived from it.
                let mut forms = vec![(name.clone(), value.clone(), &t.extends, &t.field)];
                for d in t.derive.iter().flatten() {
                    let key = format!("{}@{}", name.value, d.value.tag.value);
                    let Some(v) = self.derived_opcode(value, &d.value.offset, &gens, &path, name, &key) else {
                        continue;
                    };
                    forms.push((
                        Spanned::new(key, name.referenced, name.defined),
                        Spanned::new(v, value.referenced, value.defined),
                        &d.value.extends,
                        d.value.field.as_ref().unwrap_or(&t.field),
                    ));
                }
                for (name, value, extends, field) in forms {
                    for (key, opc, range, base) in self.table_rows(extends, &name, &value, &gens, &path) {
                        if let Some(prev) = bdefs.get(&key) {
                            self.d.push(
                                Diagnostic::new(at.clone(), format!("`{key}` is defined twice"))
                                    .note(format!("first defined at {}", prev.at)),
                            );
                            continue;
                        }
                        let mut fixed = IndexMap::new();
                        let v = Spanned::new(opc, value.referenced, value.defined);
                        fixed.insert(Spanned::new(field.value.clone(), field.referenced, field.defined), v);
                        let r#gen = match (range, &t.r#gen) {
                            (Some(r), Some(tg)) => Some(Spanned::new(
                                crate::schema::GenRange {
                                    min: r.min.max(tg.value.min),
                                    max: match (r.max, tg.value.max) {
                                        (Some(a), Some(b)) => Some(a.min(b)),
                                        (a, b) => a.or(b),
                                    },
                                },
                                value.referenced,
                                value.defined,
                            )),
                            (Some(r), None) => Some(Spanned::new(r, value.referenced, value.defined)),
                            (None, g) => g.clone(),
                        };
                        // `mnemonic@tag` keys a row apart from a same-named one of
                        // another table (another format in other generations); it
                        // prints as the mnemonic.
                        let mnemonic = name.value.split('@').next().unwrap_or(&name.value);
                        let display_name = (key != mnemonic)
                            .then(|| Spanned::new(mnemonic.to_string(), name.referenced, name.defined));
                        let spec = BitsetSpec {
                            name: display_name,
                            extends: Some(Spanned::new(base, extends.referenced, extends.defined)),
                            r#gen,
                            sched: t.sched.clone(),
                            flags: t.flags.clone(),
                            doc: t.doc.clone(),
                            fields: t.fields.clone(),
                            fixed: Some(fixed),
                            writes: t.writes.clone(),
                            row: true,
                            ..Default::default()
                        };
                        bdefs.insert(key.clone(), BDef { key, file: path.clone(), at: at.clone(), spec });
                    }
                }
            }
        }

        // Enums.
        let mut enum_index = HashMap::new();
        let mut enums = Vec::new();
        for (path, k, v) in enums_in {
            if enum_index.contains_key(&k.value) {
                self.d.err(&loc(&path, &k), format!("enum `{}` is defined twice", k.value));
                continue;
            }
            let mut values = Vec::new();
            let mut seen: HashMap<String, u64> = HashMap::new();
            for (val, disp) in v.value {
                if let Some(prev) = seen.insert(disp.value.clone(), val.value) {
                    self.d.err(
                        &loc(&path, &disp),
                        format!(
                            "enum `{}`: values {prev} and {} both display as \"{}\"; the assembler could not tell them apart",
                            k.value, val.value, disp.value
                        ),
                    );
                }
                values.push(EnumValue { value: val.value, display: leak_str(&disp.value) });
            }
            enum_index.insert(k.value.clone(), enums.len() as u16);
            enums.push(Enum { name: leak_str(&k.value), values: leak(values), also: &[], set: None });
        }
        for (path, k, v) in sets_in {
            if enum_index.contains_key(&k.value) {
                self.d.err(&loc(&path, &k), format!("`{}` is defined twice (as an enum or a set)", k.value));
                continue;
            }
            // A set with errors still defines its name, so its uses are not
            // reported as unknown types too.
            let set = crate::sets::set_syntax(self.d, &path, &k.value, &v.value);
            let values = set.as_ref().map(crate::sets::set_values).unwrap_or_default();
            enum_index.insert(k.value.clone(), enums.len() as u16);
            enums.push(Enum { name: leak_str(&k.value), values: leak(values), also: &[], set });
        }
        crate::enum_accepts::apply(self.d, accepts_in, &enum_index, &mut enums);
        let enums: &'static [Enum] = leak(enums);

        // Scheduling classes and flags.
        let mut sched_index = HashMap::new();
        let mut sched = Vec::new();
        for (k, v) in root.sched_classes.iter().flatten() {
            let lat: Vec<GenValue> = v
                .value
                .latency
                .iter()
                .map(|(r, n)| GenValue {
                    min: r.value.min.unwrap_or(0),
                    max: r.value.max.unwrap_or(u32::MAX),
                    value: n.value,
                })
                .collect();
            sched_index.insert(k.value.clone(), sched.len() as u16);
            let doc = v.value.doc.as_ref().map_or("", |d| leak_str(d.value.trim()));
            let throughput: Vec<GenValue> = v
                .value
                .throughput
                .iter()
                .flatten()
                .map(|(r, n)| GenValue {
                    min: r.value.min.unwrap_or(0),
                    max: r.value.max.unwrap_or(u32::MAX),
                    value: n.value,
                })
                .collect();
            let unit = v.value.unit.as_ref().map_or("", |u| leak_str(&u.value));
            sched.push(SchedClass {
                name: leak_str(&k.value),
                doc,
                latency: leak(lat),
                throughput: leak(throughput),
                unit,
            });
        }
        let flag_names: Vec<String> = root.flags.iter().flatten().map(|(k, _)| k.value.clone()).collect();
        let raw = root.raw.as_ref().map(|r| RawSyntax {
            prefix: leak_str(&r.value.prefix.value),
            uppercase: r.value.uppercase.unwrap_or(false),
            bits: 0,
        });
        let Some(inst_root) = root.instruction.as_ref() else {
            self.d.err(
                &at_root,
                "the root spec needs `instruction: <bitset>` naming the bitset every instruction extends",
            );
            return None;
        };
        if !bdefs.contains_key(&inst_root.value) {
            self.d.err(&loc(rp, inst_root), format!("`instruction: {}` names no bitset", inst_root.value));
            return None;
        }
        // Encodings, groups and enums are numbered in 16 bits everywhere
        // after this: more would be cut short, not an error, so they are
        // refused here, before anything walks them.
        for (what, n, at) in [
            ("bitsets (table rows included)", bdefs.len(), bdefs.get_index(MAX_DEFS).map(|(_, b)| b.at.clone())),
            ("enums and sets", enums.len(), None),
        ] {
            if n > MAX_DEFS {
                let at = at.unwrap_or_else(|| at_root.clone());
                self.d.err(&at, format!("the spec defines {n} {what}; at most {MAX_DEFS} are allowed"));
                return None;
            }
        }

        // Syntaxes: each may rename mnemonics by encoding key.
        let mut syntaxes = Vec::new();
        let mut renames = Vec::new();
        for (k, v) in root.syntaxes.iter().flatten() {
            let v = &v.value;
            syntaxes.push(Syntax {
                name: leak_str(&k.value),
                doc: v.doc.as_ref().map_or("", |d| leak_str(d.value.trim())),
                column: v.column.as_ref().map_or(0, |c| c.value),
                pad: v.pad.as_ref().is_some_and(|p| p.value),
            });
            let mut names = HashMap::new();
            for (key, name) in v.names.iter().flatten() {
                names.insert(key.value.clone(), (name.value.clone(), loc(rp, key)));
            }
            renames.push(names);
        }
        if syntaxes.len() > 32 {
            self.d.err(&at_root, "a target may have at most 32 syntaxes");
        }

        let mut ctx = Ctx {
            d: self.d,
            syntax_names: syntaxes.iter().map(|s| s.name.to_string()).collect(),
            renames,
            cur_group: 0,
            bdefs: &bdefs,
            enum_index,
            sched_index,
            flag_names,
            children: HashMap::new(),
            group_of: IndexMap::new(),
            gens_known: !gens.is_empty(),
        };
        ctx.check_parents();
        for b in bdefs.values() {
            if let Some(p) = &b.spec.extends {
                ctx.children.entry(p.value.clone()).or_default().push(b.key.clone());
            }
        }
        // Group 0: instructions. Further groups come from field types, in order of use.
        ctx.group_of.insert(inst_root.value.clone(), 0);
        ctx.collect_groups();
        let mut groups = Vec::new();
        let mut leaves = Vec::new();
        let group_names: Vec<String> = ctx.group_of.keys().cloned().collect();
        let mut variants = Vec::new();
        for (gi, gname) in group_names.iter().enumerate() {
            let Some(size) = ctx.size_of(gname) else { continue };
            let params = ctx.params_of(gname);
            let params_rt: Vec<Param> = params
                .iter()
                .map(|(n, ps, file)| Param {
                    name: leak_str(n),
                    // A `float:` format is an expression of the encoding's
                    // fields, so it lives on each encoding's copy of the param.
                    ty: ctx.scalar_type(&ps.ty, ps.display.as_ref(), None, file),
                })
                .collect();
            let mut members = Vec::new();
            for key in ctx.leaves_under(gname) {
                if let Some(leaf) = ctx.build_leaf(&key, gi as u16, &params) {
                    let prio = ctx.priority_of(&key);
                    members.push((prio, leaves.len() as u16));
                    leaves.push((key, leaf));
                }
            }
            // Higher priority decodes first; equal priorities keep spec order.
            members.sort_by_key(|(p, _)| std::cmp::Reverse(*p));
            let ids: Vec<u16> = members.iter().map(|(_, i)| *i).collect();
            groups.push(Group { name: leak_str(gname), bits: size, leaves: leak(ids), params: leak(params_rt) });
        }
        // Only meaningful once every leaf's own bits are right.
        if ctx.d.is_empty() {
            ctx.check_ambiguity(&groups, &leaves);
        }
        if gens.is_empty() && default_gen != 0 {
            ctx.d.err(&at_root, "default-gen needs generations");
        }
        for (i, (key, leaf)) in leaves.iter().enumerate() {
            if leaf.group == 0 {
                variants.push((variant_name(key), i as u16));
            }
        }
        ctx.check_variant_names(&variants, &leaves);
        let machine = root.machine.as_ref().map(|m| {
            let sched_names: Vec<&'static str> = sched.iter().map(|s| s.name).collect();
            let names = crate::machine::Names { sched: &sched_names, flags: &ctx.flag_names, enums, leaves: &leaves };
            crate::machine::lower(rp, &m.value, &names, ctx.d)
        });
        for names in &ctx.renames {
            for (key, (_, at)) in names {
                if !leaves.iter().any(|(k, l)| k == key && l.group == 0) {
                    ctx.d.err(at, format!("`names:` renames `{key}`, which is no instruction"));
                }
            }
        }
        let lineage = leaves.iter().map(|(key, _)| ctx.chain(key).iter().map(|b| b.key.clone()).collect()).collect();
        let writes = leaves
            .iter()
            .map(|(key, _)| {
                ctx.chain(key)
                    .iter()
                    .find_map(|b| b.spec.writes.as_ref())
                    .map(|w| w.iter().map(|f| f.value.clone()).collect())
            })
            .collect();
        let defined_at =
            leaves.iter().map(|(key, _)| bdefs.get(key).map(|b| b.at.clone()).unwrap_or_default()).collect();
        let leaves_rt: Vec<Leaf> = leaves.into_iter().map(|(_, l)| l).collect();
        let any_order = any_order(ctx.d, root, rp, &leaves_rt);
        let word_bits = groups.first().map_or(0, |g| g.bits);
        let raw = raw.map(|r| RawSyntax { bits: word_bits, ..r });
        let isa = Isa {
            name: leak_str(&name),
            doc: leak_str(&doc),
            gens: leak(gens),
            default_gen,
            optional_commas: root.optional_commas.as_ref().is_some_and(|b| b.value),
            octal_numbers: root.octal_numbers.as_ref().is_some_and(|b| b.value),
            binary_numbers: root.binary_numbers.as_ref().is_some_and(|b| b.value),
            bracketed_indices,
            any_order,
            raw,
            enums,
            groups: leak(groups),
            leaves: leak(leaves_rt),
            sched_classes: leak(sched),
            flags: leak(ctx.flag_names.iter().map(|f| leak_str(f)).collect()),
            machine,
            syntaxes: leak(syntaxes),
            dispatch: None,
        };
        Some((Box::leak(Box::new(isa)), variants, lineage, defined_at, writes, builder))
    }
}

impl Lower<'_> {
    /// The leaves an opcode-table row stands for, with the format each extends:
    /// the row's generation segments, split further where the table's format
    /// changes between generations. A row that becomes several leaves keys each
    /// `mnemonic@generation` (the generation its range starts at).
    fn table_rows(
        &mut self,
        extends: &S<crate::schema::TableBase>,
        name: &S<String>,
        value: &S<crate::schema::OpcodeValue>,
        gens: &[Gen],
        file: &Path,
    ) -> Vec<(String, i64, Option<crate::schema::GenRange>, String)> {
        use crate::schema::{GenRange, TableBase};
        let segs = self.opcode_segments(name, value, gens, file);
        let cols = match &extends.value {
            TableBase::All(b) => return segs.into_iter().map(|(k, o, r)| (k, o, r, b.clone())).collect(),
            TableBase::PerGen(cols) => cols,
        };
        let mut bases: Vec<(usize, &String)> = Vec::new();
        for (g, b) in cols {
            match gen_index(gens, g) {
                Some(i) if bases.last().is_none_or(|(j, _)| *j < i) => bases.push((i, b)),
                Some(_) => {
                    self.d.err(&loc(file, extends), "list the generations of `extends` oldest first");
                    return Vec::new();
                }
                None => {
                    self.d.err(&loc(file, extends), format!("`extends`: `{g}` is not a generation of this target"));
                    return Vec::new();
                }
            }
        }
        let mut pieces = Vec::new();
        for (_, opc, range) in segs {
            let (lo, hi) = range.map_or((None, None), |r| (r.min, r.max));
            for (j, (i, b)) in bases.iter().enumerate() {
                let blo = if j == 0 { None } else { Some(gens[*i].value) };
                let bhi = bases.get(j + 1).map(|(n, _)| last_before(&gens[*n]));
                let min = lo.max(blo);
                let max = match (hi, bhi) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                if let (Some(a), Some(b)) = (min, max)
                    && a > b
                {
                    continue;
                }
                pieces.push((opc, GenRange { min, max }, (*b).clone()));
            }
        }
        let many = pieces.len() > 1;
        pieces
            .into_iter()
            .map(|(opc, r, b)| {
                let start = r.min.and_then(|m| gens.iter().find(|g| g.value >= m)).or(gens.first());
                let key = match start {
                    Some(g) if many => format!("{}@{}", name.value, g.name),
                    _ => name.value.clone(),
                };
                (key, opc, Some(r), b)
            })
            .collect()
    }

    /// A derived encoding's opcode: the row's opcode plus the offset, generation
    /// by generation (absent wherever either is). `None` after an error, or when
    /// the derived encoding exists in no generation. A sum past 64 bits is
    /// an error at the row (`key` names the derived encoding).
    #[allow(clippy::too_many_arguments)]
    fn derived_opcode(
        &mut self,
        row: &S<crate::schema::OpcodeValue>,
        offset: &S<crate::schema::OpcodeValue>,
        gens: &[Gen],
        file: &Path,
        name: &S<String>,
        key: &str,
    ) -> Option<crate::schema::OpcodeValue> {
        use crate::schema::OpcodeValue;
        let at = loc(file, row);
        if let (OpcodeValue::All(r), OpcodeValue::All(o)) = (&row.value, &offset.value) {
            return self.opcode_sum(&at, key, *r, *o, None).map(OpcodeValue::All);
        }
        if gens.is_empty() {
            self.d.err(&loc(file, offset), "a per-generation offset needs `generations` in the root spec");
            return None;
        }
        let rows = self.values_by_gen(name, row, gens, file)?;
        let offs = self.values_by_gen(name, offset, gens, file)?;
        let mut per_gen: Vec<Option<i64>> = Vec::new();
        for ((r, o), g) in rows.iter().zip(&offs).zip(gens) {
            per_gen.push(match (r, o) {
                (Some(r), Some(o)) => Some(self.opcode_sum(&at, key, *r, *o, Some(g.name))?),
                _ => None,
            });
        }
        if per_gen.iter().all(Option::is_none) {
            return None;
        }
        let mut cols = Vec::new();
        for (i, v) in per_gen.iter().enumerate() {
            if i == 0 || per_gen[i - 1] != *v {
                cols.push((gens[i].name.to_string(), *v));
            }
        }
        Some(OpcodeValue::PerGen(cols))
    }

    /// A row's opcode plus a derived form's offset; past 64 bits, an error at
    /// the row (in generation `g`, when per generation).
    fn opcode_sum(&mut self, at: &Loc, key: &str, r: i64, o: i64, g: Option<&str>) -> Option<i64> {
        let sum = r.checked_add(o);
        if sum.is_none() {
            let in_gen = g.map_or(String::new(), |g| format!(" in generation `{g}`"));
            self.d.err(at, format!("`{key}`: opcode {r} + offset {o}{in_gen} does not fit a 64-bit number"));
        }
        sum
    }

    /// A table value (an opcode or an offset) in each generation, oldest first.
    fn values_by_gen(
        &mut self,
        name: &S<String>,
        value: &S<crate::schema::OpcodeValue>,
        gens: &[Gen],
        file: &Path,
    ) -> Option<Vec<Option<i64>>> {
        let segs = self.opcode_segments(name, value, gens, file);
        if segs.is_empty() && matches!(value.value, crate::schema::OpcodeValue::PerGen(_)) {
            // Either an error was reported, or the value is absent everywhere.
            let all_absent =
                matches!(&value.value, crate::schema::OpcodeValue::PerGen(c) if c.iter().all(|(_, v)| v.is_none()));
            if !all_absent {
                return None;
            }
        }
        Some(
            gens.iter()
                .map(|g| {
                    segs.iter().find_map(|(_, v, r)| match r {
                        None => Some(*v),
                        Some(r) => {
                            (r.min.is_none_or(|m| g.value >= m) && r.max.is_none_or(|m| g.value <= m)).then_some(*v)
                        }
                    })
                })
                .collect(),
        )
    }

    /// The leaves an opcode-table row stands for: `(key, opcode, generations)`.
    /// A per-generation row holds each value from its generation up to the next
    /// listed one; `~` means absent from there on.
    fn opcode_segments(
        &mut self,
        name: &S<String>,
        value: &S<crate::schema::OpcodeValue>,
        gens: &[Gen],
        file: &Path,
    ) -> Vec<(String, i64, Option<crate::schema::GenRange>)> {
        use crate::schema::{GenRange, OpcodeValue};
        let cols = match &value.value {
            OpcodeValue::All(v) => return vec![(name.value.clone(), *v, None)],
            OpcodeValue::PerGen(cols) => cols,
        };
        let mut starts = Vec::new();
        for (g, v) in cols {
            match gen_index(gens, g) {
                Some(i) => starts.push((i, *v)),
                None => {
                    self.d
                        .err(&loc(file, value), format!("`{}`: `{g}` is not a generation of this target", name.value));
                    return Vec::new();
                }
            }
        }
        if starts.windows(2).any(|w| w[0].0 >= w[1].0) {
            self.d.err(&loc(file, value), format!("`{}`: list generations oldest first", name.value));
            return Vec::new();
        }
        let present: Vec<_> = starts.iter().filter(|(_, v)| v.is_some()).collect();
        let mut out = Vec::new();
        for (j, (i, v)) in starts.iter().enumerate() {
            let Some(v) = v else { continue };
            let min = if j == 0 && *i == 0 { None } else { Some(gens[*i].value) };
            let max = starts.get(j + 1).map(|(n, _)| last_before(&gens[*n]));
            let key = if present.len() > 1 { format!("{}@{}", name.value, gens[*i].name) } else { name.value.clone() };
            out.push((key, *v, Some(GenRange { min, max })));
        }
        out
    }
}

/// Most generations a spec lists: per-generation values are resolved
/// generation by generation for every table row, so the work is rows times
/// generations (a GPU family has a handful).
pub const MAX_GENERATIONS: usize = 1024;

/// Most bitsets (each table row and derived form is one) and most enums a
/// spec defines: the runtime numbers encodings, operand groups and enums
/// in 16 bits.
pub const MAX_DEFS: usize = 1 << 16;

/// Where the generation that `g` names (its name, an alias, or its value
/// in decimal) is in `gens`: the first that answers to it.
fn gen_index(gens: &[Gen], g: &str) -> Option<usize> {
    // The value read once, not each generation's value written out.
    let value = g.parse::<u32>().ok().filter(|v| v.to_string() == g);
    gens.iter().position(|x| x.name == g || x.aliases.contains(&g) || Some(x.value) == value)
}

/// The last generation value before generation `g`, where a column of a
/// per-generation value ends. Only the first generation may have value 0
/// when they are in order; out of order (reported where they are read) the
/// column ends at 0 rather than wrapping round to every generation.
fn last_before(g: &Gen) -> u32 {
    g.value.saturating_sub(1)
}

/// The Rust enum variant for an instruction key: `add.f` -> `AddF`.
pub fn variant_name(key: &str) -> String {
    use heck::ToUpperCamelCase;
    let spaced: String = key.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let v = spaced.to_upper_camel_case();
    if v.chars().next().is_some_and(|c| c.is_ascii_digit()) { format!("I{v}") } else { v }
}

struct Ctx<'d, 'b> {
    d: &'d mut Diags,
    bdefs: &'b IndexMap<String, BDef>,
    enum_index: HashMap<String, u16>,
    sched_index: HashMap<String, u16>,
    flag_names: Vec<String>,
    children: HashMap<String, Vec<String>>,
    /// Bitset name -> group index.
    group_of: IndexMap<String, u16>,
    gens_known: bool,
    /// Syntax names, the default first (empty: one unnamed syntax).
    syntax_names: Vec<String>,
    /// Per syntax: encoding key -> mnemonic, and where the rename is written.
    renames: Vec<HashMap<String, (String, Loc)>>,
    /// The group of the leaf being built (split operand fields only in group 0).
    cur_group: u16,
}

const BUILTIN_TYPES: [&str; 11] =
    ["uint", "uint-sat", "int", "hex", "hexlit", "uhexlit", "bool", "bool_inv", "offset", "uoffset", "float"];

impl<'b> Ctx<'_, 'b> {
    fn check_parents(&mut self) {
        for b in self.bdefs.values() {
            if let Some(p) = &b.spec.extends
                && !self.bdefs.contains_key(&p.value)
            {
                self.d.err(&loc(&b.file, p), format!("`{}` extends unknown bitset `{}`", b.key, p.value));
            }
            // Cycles.
            let mut seen = vec![b.key.as_str()];
            let mut cur = b;
            while let Some(p) = cur.spec.extends.as_ref().and_then(|p| self.bdefs.get(&p.value)) {
                if seen.contains(&p.key.as_str()) {
                    self.d.err(&b.at, format!("`{}` extends itself through {}", b.key, seen.join(" -> ")));
                    break;
                }
                seen.push(&p.key);
                cur = p;
            }
        }
    }

    /// A bitset's decoding priority: the nearest along its chain (its own first),
    /// so an instruction table's rows take their format's.
    fn priority_of(&self, key: &str) -> i64 {
        self.chain(key).iter().find_map(|b| b.spec.priority.as_ref().map(|p| p.value)).unwrap_or(0)
    }

    /// The chain from `key` up to its root (leaf first). Stops at unknown parents
    /// and cycles (reported elsewhere).
    fn chain(&self, key: &str) -> Vec<&'b BDef> {
        let mut out: Vec<&'b BDef> = Vec::new();
        let mut cur = self.bdefs.get(key);
        while let Some(b) = cur {
            if out.iter().any(|x| x.key == b.key) {
                break;
            }
            out.push(b);
            cur = b.spec.extends.as_ref().and_then(|p| self.bdefs.get(&p.value));
        }
        out
    }

    fn size_of(&mut self, key: &str) -> Option<u32> {
        let chain = self.chain(key);
        let root = chain.last()?;
        let Some(size) = &root.spec.size else {
            self.d.err(&root.at, format!("bitset `{}` extends nothing, so it needs `size: <bits>`", root.key));
            return None;
        };
        if size.value == 0 || size.value > 128 {
            self.d.err(
                &loc(&root.file, size),
                format!("size {} is out of range: encodings are 1 to 128 bits", size.value),
            );
            return None;
        }
        // A bitset may narrow the size it inherits (a 16-bit instruction of a
        // target whose longest is 96): the nearest `size` along the chain counts.
        Some(chain.iter().find_map(|b| b.spec.size.as_ref()).map_or(size.value, |s| s.value.min(size.value)))
    }

    fn leaves_under(&self, key: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![key.to_string()];
        let mut guard = 0;
        while let Some(k) = stack.pop() {
            guard += 1;
            if guard > 100_000 {
                break;
            }
            match self.children.get(&k) {
                Some(ch) if !ch.is_empty() => {
                    for c in ch.iter().rev() {
                        stack.push(c.clone());
                    }
                }
                _ => out.push(k),
            }
        }
        // Keep spec order.
        out.sort_by_key(|k| self.bdefs.get_index_of(k));
        out
    }

    /// Every bitset named as a field type becomes a decoding group.
    fn collect_groups(&mut self) {
        let mut uses = Vec::new();
        for b in self.bdefs.values() {
            let fields = b.spec.fields.iter().flatten();
            let case_fields = b.spec.cases.iter().flatten().flat_map(|c| c.value.fields.iter().flatten());
            let accept_fields = b.spec.accepts.iter().flatten().flat_map(|c| c.value.fields.iter().flatten());
            for (_, f) in fields.chain(case_fields).chain(accept_fields) {
                if self.bdefs.contains_key(&f.value.ty.value) {
                    uses.push(f.value.ty.value.clone());
                }
            }
        }
        for u in uses {
            let n = self.group_of.len() as u16;
            self.group_of.entry(u).or_insert(n);
        }
    }

    fn params_of(&self, key: &str) -> Vec<(String, &'b crate::schema::ParamSpec, &'b Path)> {
        let mut out = Vec::new();
        for b in self.chain(key).into_iter().rev() {
            for (k, v) in b.spec.params.iter().flatten() {
                out.push((k.value.clone(), &v.value, b.file.as_path()));
            }
        }
        out
    }

    /// The type a field or param names; `float` is its `float:` format
    /// expression and the fields that expression may read.
    fn scalar_type(
        &mut self,
        ty: &S<String>,
        display: Option<&S<String>>,
        float: Option<(&S<ExprText>, &[FDef])>,
        file: &Path,
    ) -> Ty {
        let on = display.map_or("", |d| leak_str(&d.value));
        let format = match float {
            Some((e, defs)) if matches!(ty.value.as_str(), "float" | "hexlit") => {
                Some(self.compile_expr(&e.value.0, &loc(file, e), defs))
            }
            Some((e, _)) => {
                self.d.err(
                    &loc(file, e),
                    format!("`float:` gives the format of a `float` or `hexlit` value, not of a `{}`", ty.value),
                );
                None
            }
            None => None,
        };
        match ty.value.as_str() {
            "uint" => Ty::Uint,
            "uint-sat" => Ty::UintSat,
            "int" => Ty::Int,
            "hex" => Ty::Hex,
            "hexlit" => Ty::HexLit { float: format, unsigned: false },
            "uhexlit" => Ty::HexLit { float: None, unsigned: true },
            "bool" => Ty::Bool { on, inverted: false },
            "bool_inv" => Ty::Bool { on, inverted: true },
            "offset" => Ty::Offset,
            "uoffset" => Ty::UOffset,
            "float" => Ty::Float { format },
            other => {
                match self.enum_index.get(other) {
                    Some(&e) => Ty::Enum(e),
                    None => {
                        self.d.push(Diagnostic::new(loc(file, ty), format!("unknown type `{other}`")).note(format!(
                            "a type is one of {}, an enum, a set, or a bitset",
                            BUILTIN_TYPES.join(", ")
                        )));
                        Ty::Uint
                    }
                }
            }
        }
    }

    fn gen_range(&self, chain: &[&BDef]) -> (u32, u32, Option<Loc>) {
        let (mut lo, mut hi) = (0u32, u32::MAX);
        let mut bad = None;
        for b in chain.iter().rev() {
            if let Some(g) = &b.spec.r#gen {
                let glo = g.value.min.unwrap_or(0);
                let ghi = g.value.max.unwrap_or(u32::MAX);
                if glo < lo || ghi > hi {
                    bad = Some(loc(&b.file, g));
                }
                lo = lo.max(glo);
                hi = hi.min(ghi);
            }
        }
        (lo, hi, bad)
    }

    fn build_leaf(
        &mut self,
        key: &str,
        group: u16,
        params: &[(String, &'b crate::schema::ParamSpec, &'b Path)],
    ) -> Option<Leaf> {
        let chain = self.chain(key);
        let leaf_def = *chain.first()?;
        let size = self.size_of(key)?;
        let mut outer = u32::MAX;
        for b in chain.iter().rev() {
            if let Some(s) = &b.spec.size {
                if s.value > outer || s.value == 0 {
                    self.d.err(
                        &loc(&b.file, s),
                        format!(
                            "`{}` has size {} but extends a {outer}-bit bitset; a size may only narrow",
                            b.key, s.value
                        ),
                    );
                }
                outer = outer.min(s.value);
            }
        }
        let (gen_min, gen_max, bad_gen) = self.gen_range(&chain);
        if let Some(at) = bad_gen {
            self.d.err(&at, format!("`{key}`: a generation range may only narrow the range of the bitset it extends"));
        }
        if !self.gens_known && (gen_min != 0 || gen_max != u32::MAX) {
            self.d.err(&leaf_def.at, format!("`{key}` has a generation range but the target lists no generations"));
        }
        let full = mask_of(0, size);

        // Default fields, root first.
        let mut defs: Vec<FDef<'b>> = Vec::new();
        for b in chain.iter().rev() {
            for (k, f) in b.spec.fields.iter().flatten() {
                let def = FDef {
                    name: k.value.clone(),
                    file: &b.file,
                    at: loc(&b.file, k),
                    spec: Some(&f.value),
                    param: None,
                    fixed: false,
                };
                match defs.iter_mut().find(|x| x.name == k.value) {
                    // A table row's fields give the row its own value of a
                    // field its format defaults (a 16-bit source's precision).
                    Some(prev) if b.spec.row => *prev = def,
                    Some(prev) => self.d.push(
                        Diagnostic::new(def.at, format!("field `{}` of `{}` is already defined", k.value, b.key))
                            .note(format!("first defined at {}", prev.at)),
                    ),
                    None => defs.push(def),
                }
            }
        }
        for (i, (n, ps, file)) in params.iter().enumerate() {
            if defs.iter().any(|x| &x.name == n) {
                self.d.err(&leaf_def.at, format!("param `{n}` has the name of a field of `{key}`"));
                continue;
            }
            defs.push(FDef {
                name: n.clone(),
                file,
                at: Loc::new(file, 1, 1),
                spec: None,
                param: Some((i, ps)),
                fixed: false,
            });
        }

        // Identifying bits: patterns, then fixed field values.
        let (mut mask, mut value, mut dontcare): (Bits, Bits, Bits) = (0, 0, 0);
        for b in chain.iter().rev() {
            for (k, pat) in b.spec.pattern.iter().flatten() {
                let at = loc(&b.file, pat);
                let (lo, hi) = (k.value.lo, k.value.hi);
                if hi >= size {
                    self.d
                        .err(&loc(&b.file, k), format!("pattern bits {lo}..{hi} lie outside the {size}-bit encoding"));
                    continue;
                }
                let width = hi - lo + 1;
                let text: String = pat.value.chars().filter(|c| *c != '_').collect();
                let text = if text == "x" { "x".repeat(width as usize) } else { text };
                if text.len() != width as usize {
                    self.d.err(
                        &at,
                        format!(
                            "pattern \"{}\" has {} bits but the range {lo}..{hi} has {width}",
                            pat.value,
                            text.len()
                        ),
                    );
                    continue;
                }
                for (j, c) in text.chars().enumerate() {
                    let bit = hi - j as u32;
                    let m: Bits = 1 << bit;
                    if (mask | dontcare) & m != 0 {
                        self.d.err(&at, format!("`{}`: bit {bit} is fixed twice", b.key));
                        break;
                    }
                    match c {
                        '0' => mask |= m,
                        '1' => {
                            mask |= m;
                            value |= m
                        }
                        'x' => dontcare |= m,
                        _ => {
                            self.d.err(&at, format!("pattern \"{}\" may hold only 0, 1 and x", pat.value));
                            // Count the rest as covered so one mistake gives one error.
                            dontcare |= mask_of(lo, hi - j as u32 - lo + 1) & !mask;
                            break;
                        }
                    }
                }
            }
        }
        for b in chain.iter().rev() {
            for (k, v) in b.spec.fixed.iter().flatten() {
                let at = loc(&b.file, v);
                let Some(def) = defs.iter_mut().find(|x| x.name == k.value) else {
                    self.d.err(
                        &loc(&b.file, k),
                        format!("`{}` fixes field `{}`, which `{key}` does not have", b.key, k.value),
                    );
                    continue;
                };
                let Some(bits) = def.spec.and_then(|s| s.bits.as_ref()) else {
                    self.d.err(&at, format!("field `{}` has no bits to fix", k.value));
                    continue;
                };
                def.fixed = true;
                let ranges = to_ranges(&bits.value.0);
                let width: u32 = ranges.iter().map(|r| r.width as u32).sum();
                if width > 64 {
                    // Reported with the field; its value is no number to place.
                    mask |= in_word(&ranges, size);
                    continue;
                }
                let signed = matches!(def.spec.map(|s| s.ty.value.as_str()), Some("int" | "offset" | "hexlit"));
                if !fits(v.value, width, signed) {
                    self.d.err(
                        &at,
                        format!(
                            "{} does not fit field `{}` ({width} bits{})",
                            v.value,
                            k.value,
                            if signed { ", signed" } else { "" }
                        ),
                    );
                    // Still count its bits as fixed, so one mistake gives one error.
                    mask |= in_word(&ranges, size);
                    continue;
                }
                if ranges.iter().any(|r| r.lo as u32 + r.width as u32 > size) {
                    continue; // reported with the field
                }
                let (vbits, m) = isa_runtime::insert(0, 0, &ranges, (v.value as u128) & mask_of(0, width));
                if (mask | dontcare) & m != 0 {
                    self.d.err(&at, format!("`{}`: field `{}` overlaps bits already fixed", b.key, k.value));
                    continue;
                }
                mask |= m;
                value |= vbits;
            }
        }

        // Variable length: the identifying bits must lie in the shortest form.
        let (min_bits, length) = match chain.iter().find_map(|b| b.spec.length.as_ref().map(|l| (b, l))) {
            None => (size, None),
            Some((b, l)) => {
                let min = l.value.min.value;
                if min == 0 || min > size || min % 8 != 0 {
                    self.d.err(
                        &loc(&b.file, &l.value.min),
                        format!(
                            "`{key}`: shortest length {min} must be a whole number of bytes, at most the size {size}"
                        ),
                    );
                }
                // Identifying bits past the shortest form are allowed: the
                // decoder reads them as the word's own length gives them (zero
                // in a form too short to hold them).
                let e = self.compile_expr(&l.value.expr.value.0, &loc(&b.file, &l.value.expr), &defs);
                (min.min(size), Some(e))
            }
        };

        // Cases: the leaf's first, then its ancestors'; the default last.
        let mut case_specs: Vec<(&'b Path, &'b S<CaseSpec>)> = Vec::new();
        for b in &chain {
            for c in b.spec.cases.iter().flatten() {
                case_specs.push((&b.file, c));
            }
        }
        let default_display = chain.iter().find_map(|b| b.spec.display.as_ref().map(|d| (b.file.as_path(), d)));
        let Some(default_display) = default_display else {
            self.d.err(&leaf_def.at, format!("`{key}` has no `display` template (nor does any bitset it extends)"));
            return None;
        };
        self.cur_group = group;
        let default_fields = self.lower_fields(key, size, &defs, mask, dontcare);
        let mut cases = Vec::new();
        let mut own_fields = Vec::new();
        // Assembler-only templates first: without a `when` they put no condition
        // on the cases after them, and the decoder skips them.
        for b in &chain {
            for a in b.spec.accepts.iter().flatten() {
                own_fields.push(a.value.fields.is_some());
                let adefs = with_view_fields(&defs, &b.file, a.value.fields.as_ref());
                let fields = self.lower_fields(key, size, &adefs, mask, dontcare);
                let (display, displays) = self.templates(&a.value.display, &b.file, &adefs);
                let syntaxes = self.syntax_mask(a.value.syntax.as_deref(), &b.file);
                cases.push(Case { when: None, display, fields, parse_only: true, displays, syntaxes });
            }
        }
        for (file, c) in &case_specs {
            own_fields.push(c.value.fields.is_some());
            let cdefs = with_view_fields(&defs, file, c.value.fields.as_ref());
            let fields = self.lower_fields(key, size, &cdefs, mask, dontcare);
            let when = self.compile_expr(&c.value.when.value.0, &loc(file, &c.value.when), &defs);
            let display = match &c.value.display {
                Some(d) => (*file, d),
                None => {
                    // Without a display of its own the case prints like the default.
                    default_display
                }
            };
            let (display, displays) = self.templates(display.1, display.0, &cdefs);
            let syntaxes = self.syntax_mask(c.value.syntax.as_deref(), file);
            cases.push(Case { when: Some(when), display, fields, parse_only: false, displays, syntaxes });
        }
        let (display, displays) = self.templates(default_display.1, default_display.0, &defs);
        cases.push(Case { when: None, display, fields: default_fields, parse_only: false, displays, syntaxes: 0 });
        let mut requires = Vec::new();
        for b in &chain {
            if let Some(r) = &b.spec.requires {
                // Each conjunct a condition of its own: checking stops at
                // the first that fails (`H && ...` for a 16-bit operand's
                // form need not read the rest for a 32-bit one).
                isa_runtime::conjuncts(self.compile_expr(&r.value.0, &loc(&b.file, r), &defs), &mut requires);
            }
        }
        let intervals = intervals_of(&requires);
        let mut ignore = Vec::new();
        for b in &chain {
            for ig in b.spec.ignore.iter().flatten() {
                let mask = self.ignore_mask(key, size, &b.file, &ig.value.bits);
                let when = ig.value.when.as_ref().map(|w| self.compile_expr(&w.value.0, &loc(&b.file, w), &defs));
                let syntaxes = self.syntax_mask(ig.value.syntax.as_deref(), &b.file);
                ignore.push(Ignore { when, mask, syntaxes });
            }
        }

        let mut rules = Vec::new();
        for b in &chain {
            for r in b.spec.rules.iter().flatten() {
                let check = self.compile_expr(&r.value.check.value.0, &loc(&b.file, &r.value.check), &defs);
                rules.push(Rule { check, message: leak_str(&r.value.message.value) });
            }
        }
        let sched = chain.iter().find_map(|b| b.spec.sched.as_ref().map(|s| (b, s))).and_then(|(b, s)| {
            let i = self.sched_index.get(&s.value).copied();
            if i.is_none() {
                self.d.err(&loc(&b.file, s), format!("unknown scheduling class `{}`", s.value));
            }
            i
        });
        let mut flags = Vec::new();
        for b in &chain {
            for f in b.spec.flags.iter().flatten() {
                match self.flag_names.iter().position(|n| n == &f.value) {
                    Some(i) => {
                        if !flags.contains(&(i as u16)) {
                            flags.push(i as u16)
                        }
                    }
                    None => self.d.err(
                        &loc(&b.file, f),
                        format!("unknown flag `{}` (declare it under `flags:` in the root spec)", f.value),
                    ),
                }
            }
        }
        // The mnemonic: the default syntax's `names:` entry, else `name:`, else
        // the key; another syntax without an entry of its own uses `name:` or
        // the key (the default syntax's rename is its own vocabulary).
        let base = leaf_def.spec.name.as_ref().map_or(key, |n| n.value.as_str());
        let renamed = |r: &HashMap<String, (String, Loc)>| r.get(key).map(|(n, _)| leak_str(n));
        let name = if group == 0 { self.renames.first().and_then(renamed).unwrap_or(base) } else { base };
        let mut names: Vec<&'static str> = Vec::new();
        if group == 0 {
            for r in self.renames.iter().skip(1) {
                names.push(renamed(r).unwrap_or_else(|| leak_str(base)));
            }
            if names.iter().all(|n| *n == name) {
                names.clear();
            }
        }
        let doc = chain.iter().find_map(|b| b.spec.doc.as_ref()).map_or("", |d| leak_str(d.value.trim()));
        let name_suffix = chain.iter().find_map(|b| b.spec.name_suffix.as_ref()).map_or("", |s| leak_str(&s.value));
        let cases = leak(cases);
        let fixed: Vec<&str> = defs.iter().filter(|d| d.fixed).map(|d| d.name.as_str()).collect();
        own_fields.push(true);
        self.check_coverage(key, &leaf_def.at, size, mask, dontcare, cases, full, &fixed, &own_fields);
        Some(Leaf {
            key: leak_str(key),
            name: leak_str(name),
            group,
            bits: size,
            min_bits,
            length,
            gen_min,
            gen_max,
            mask,
            value,
            dontcare,
            cases,
            requires: leak(requires),
            intervals,
            ignore: leak(ignore),
            rules: leak(rules),
            sched,
            flags: leak(flags),
            doc,
            names: leak(names),
            name_suffix,
        })
    }

    /// The syntaxes a case or `accepts:` entry applies in, as a bit mask (0: all).
    fn syntax_mask(&mut self, names: Option<&[S<String>]>, file: &Path) -> u32 {
        let mut m = 0;
        for n in names.into_iter().flatten() {
            match self.syntax_names.iter().position(|s| *s == n.value) {
                Some(i) => m |= 1u32 << i.min(31),
                None => self.unknown_syntax(&n.value, &loc(file, n)),
            }
        }
        m
    }

    fn unknown_syntax(&mut self, name: &str, at: &Loc) {
        let msg = if self.syntax_names.is_empty() {
            format!("unknown syntax `{name}`: the target declares no `syntaxes:` in its root spec")
        } else {
            format!("unknown syntax `{name}` (syntaxes: {})", self.syntax_names.join(", "))
        };
        self.d.err(at, msg);
    }

    /// A display template in each syntax: the default syntax's, and the others'
    /// (empty when one template serves all). A syntax a per-syntax map leaves
    /// out prints like the default syntax (or, when the map leaves that out
    /// too, like the map's first entry).
    fn templates(
        &mut self,
        t: &S<DisplaySpec>,
        file: &Path,
        defs: &[FDef],
    ) -> (&'static [Tok], &'static [&'static [Tok]]) {
        let at = loc(file, t);
        let map = match &t.value {
            DisplaySpec::One(text) => return (self.template(text, &at, defs), &[]),
            DisplaySpec::PerSyntax(m) => m,
        };
        for (k, _) in map {
            if !self.syntax_names.contains(k) {
                self.unknown_syntax(k, &at);
            }
        }
        let fallback = match self.syntax_names.first().and_then(|d| map.iter().find(|(k, _)| k == d)) {
            Some((_, text)) => text,
            None => &map[0].1,
        };
        let default = self.template(fallback, &at, defs);
        let mut others = Vec::new();
        for name in self.syntax_names.clone().iter().skip(1) {
            match map.iter().find(|(k, _)| k == name) {
                Some((_, text)) => others.push(self.template(text, &at, defs)),
                None => others.push(default),
            }
        }
        (default, leak(others))
    }

    fn ignore_mask(&mut self, key: &str, size: u32, file: &Path, spec: &S<crate::schema::BitsSpec>) -> Bits {
        let mut m = 0;
        for k in &spec.value.0 {
            if k.hi >= size {
                self.d.err(
                    &loc(file, spec),
                    format!("`{key}`: ignored bits {}..{} lie outside the {size}-bit encoding", k.lo, k.hi),
                );
                continue;
            }
            m |= mask_of(k.lo, k.hi - k.lo + 1);
        }
        m
    }

    fn compile_expr(&mut self, text: &str, at: &Loc, defs: &[FDef]) -> &'static [Op] {
        let ast = match expr::parse(text) {
            Ok(a) => a,
            Err(e) => {
                self.d.err(at, format!("in expression `{}`: {e}", expr::quoted(text)));
                return &[];
            }
        };
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        match ast.compile(&|n| names.iter().position(|x| *x == n).map(|i| Op::Field(i as u16))) {
            Ok(ops) => leak(ops),
            Err(e) => {
                self.d.push(
                    Diagnostic::new(at.clone(), format!("in expression `{}`: {e}", expr::quoted(text)))
                        .note(format!("fields here: {}", names.join(", "))),
                );
                &[]
            }
        }
    }

    fn lower_fields(&mut self, key: &str, size: u32, defs: &[FDef<'b>], _mask: Bits, _dc: Bits) -> &'static [Field] {
        let mut out = Vec::new();
        for d in defs {
            let (src, ty) = match (d.spec, d.param) {
                (_, Some((i, ps))) => (
                    Src::Param(i as u16),
                    self.scalar_type(&ps.ty, ps.display.as_ref(), ps.float.as_ref().map(|e| (e, defs)), d.file),
                ),
                (Some(spec), None) => self.lower_field(key, size, d, spec, defs),
                (None, None) => (Src::Expr(&[]), Ty::Uint),
            };
            out.push(Field { name: leak_str(&d.name), src, ty });
        }
        leak(out)
    }

    fn lower_field(&mut self, key: &str, size: u32, d: &FDef<'b>, spec: &'b FieldSpec, defs: &[FDef<'b>]) -> (Src, Ty) {
        let src = match (&spec.bits, &spec.expr) {
            (Some(bits), None) => {
                // Checked on the spec's numbers: the lowered ranges hold them clamped to u8.
                for k in &bits.value.0 {
                    if k.hi >= size {
                        self.d.err(
                            &loc(d.file, bits),
                            format!(
                                "field `{}` of `{key}` (bits {}..{}) lies outside the {size}-bit encoding",
                                d.name, k.lo, k.hi
                            ),
                        );
                    }
                }
                let width: u64 = bits.value.0.iter().map(|k| u64::from(k.hi - k.lo) + 1).sum();
                if width > 64 {
                    self.d.err(
                        &loc(d.file, bits),
                        format!("field `{}` is {width} bits wide, more than 64; split it into several fields", d.name),
                    );
                }
                Src::Bits(leak(to_ranges(&bits.value.0)))
            }
            (None, Some(e)) => Src::Expr(self.compile_expr(&e.value.0, &loc(d.file, e), defs)),
            (Some(_), Some(e)) => {
                self.d.err(
                    &loc(d.file, e),
                    format!(
                        "field `{}` has both `bits` and `expr`; a field is read from bits or derived, not both",
                        d.name
                    ),
                );
                Src::Expr(&[])
            }
            (None, None) => {
                self.d.err(&d.at, format!("field `{}` needs `bits` (or `expr` for a derived value)", d.name));
                Src::Expr(&[])
            }
        };
        let width = match src {
            Src::Bits(r) => Some(isa_runtime::width_of(r)),
            _ => None,
        };
        let tyname = spec.ty.value.as_str();
        let ty = if let Some(&group) = self.group_of.get(tyname) {
            let gsize = self.size_of(tyname);
            match src {
                Src::Bits(r) if r.len() == 1 || self.cur_group == 0 => {
                    if gsize.is_some() && gsize != width {
                        self.d.err(
                            &loc(d.file, &spec.ty),
                            format!(
                                "field `{}` is {} bits but `{tyname}` encodings are {} bits",
                                d.name,
                                width.unwrap_or(0),
                                gsize.unwrap_or(0)
                            ),
                        );
                    }
                }
                _ => self.d.err(
                    &loc(d.file, &spec.ty),
                    format!(
                        "field `{}` of type `{tyname}` must be one contiguous bit range \
                         (only an instruction's operand fields may be split)",
                        d.name
                    ),
                ),
            }
            let params = self.params_of(tyname);
            let mut exprs = Vec::new();
            let given = spec.params.as_ref();
            for (pname, _, _) in &params {
                match given.and_then(|g| g.iter().find(|(k, _)| &k.value == pname)) {
                    Some((_, e)) => exprs.push(self.compile_expr(&e.value.0, &loc(d.file, e), defs)),
                    None => {
                        self.d.err(&d.at, format!("field `{}` must pass param `{pname}` to `{tyname}`", d.name));
                        exprs.push(&[][..]);
                    }
                }
            }
            for (k, _) in given.into_iter().flatten() {
                if !params.iter().any(|(p, _, _)| p == &k.value) {
                    self.d.err(&loc(d.file, k), format!("`{tyname}` takes no param `{}`", k.value));
                }
            }
            Ty::Group { group, params: leak(exprs) }
        } else {
            if spec.params.is_some() {
                self.d.err(&d.at, format!("field `{}` passes params but its type `{tyname}` is not a bitset", d.name));
            }
            let ty = self.scalar_type(&spec.ty, spec.display.as_ref(), spec.float.as_ref().map(|e| (e, defs)), d.file);
            match (ty, width) {
                (Ty::Float { format: None }, Some(w)) if w != 16 && w != 32 => self
                    .d
                    .err(&loc(d.file, &spec.ty), format!("float field `{}` must be 16 or 32 bits, not {w}", d.name)),
                _ => {}
            }
            ty
        };
        (src, ty)
    }

    /// Parses a display template: literal text and `{FIELD}` references
    /// (`{NAME}` is the leaf's name; `{{` and `}}` are literal braces).
    /// Leading white space is kept: an operand may print ` offset:4` in one
    /// form and nothing in another.
    fn template(&mut self, text: &str, at: &Loc, defs: &[FDef]) -> &'static [Tok] {
        let at = at.clone();
        let text = text.trim_end();
        let mut toks = Vec::new();
        let mut lit = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' if chars.peek().map(|x| x.1) == Some('{') => {
                    chars.next();
                    lit.push('{');
                }
                '}' if chars.peek().map(|x| x.1) == Some('}') => {
                    chars.next();
                    lit.push('}');
                }
                '{' if text[i..].starts_with("{?")
                    && text[i + 2..].find('{').is_some_and(|o| text[i + 2..].find('}').is_some_and(|c| o < c)) =>
                {
                    // `{?text{FIELD}}`: optional text and one field.
                    let inner = &text[i + 2..];
                    let (Some(open), Some(close)) = (inner.find('{'), inner.find("}}")) else {
                        self.d.err(&at, format!("template \"{text}\" has an unclosed `{{?`"));
                        break;
                    };
                    let (lead, name) = (&inner[..open], &inner[open + 1..close]);
                    while chars.peek().is_some_and(|x| x.0 < i + 2 + close + 2) {
                        chars.next();
                    }
                    if !lit.is_empty() {
                        toks.push(Tok::Lit(leak_str(&std::mem::take(&mut lit))));
                    }
                    match defs.iter().position(|d| d.name == name) {
                        Some(idx) => match defs[idx].spec.and_then(|s| s.default.as_ref()) {
                            Some(dv) => toks.push(Tok::OptField(leak_str(lead), idx as u16, dv.value)),
                            None => self.d.err(
                                &at,
                                format!(
                                    "field `{name}` is optional in \"{text}\" and needs a `default:` (its value when the text leaves it out)"
                                ),
                            ),
                        },
                        None => {
                            let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
                            self.d.push(
                                Diagnostic::new(at.clone(), format!("template names unknown field `{name}`"))
                                    .note(format!("fields here: {}", names.join(", "))),
                            );
                        }
                    }
                }
                '{' => {
                    let Some(end) = text[i..].find('}') else {
                        self.d.err(&at, format!("template \"{text}\" has an unclosed `{{`"));
                        break;
                    };
                    let name = &text[i + 1..i + end];
                    while chars.peek().is_some_and(|x| x.0 <= i + end) {
                        chars.next();
                    }
                    if !lit.is_empty() {
                        toks.push(Tok::Lit(leak_str(&std::mem::take(&mut lit))));
                    }
                    if let Some(opt) = name.strip_prefix('?') {
                        toks.push(Tok::Opt(leak_str(opt)));
                    } else if name == "|" {
                        toks.push(Tok::Column);
                    } else if name == "NAME" {
                        toks.push(Tok::Name);
                    } else if let Some(idx) = defs.iter().position(|d| d.name == name) {
                        toks.push(Tok::Field(idx as u16));
                    } else {
                        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
                        self.d.push(
                            Diagnostic::new(at.clone(), format!("template names unknown field `{name}`"))
                                .note(format!("fields here: {}", names.join(", "))),
                        );
                    }
                }
                '}' => {
                    self.d.err(
                        &at,
                        format!("template \"{text}\" has a `}}` without `{{` (write `}}}}` for a literal brace)"),
                    );
                }
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            toks.push(Tok::Lit(leak_str(&lit)));
        }
        leak(toks)
    }

    #[allow(clippy::too_many_arguments)]
    fn check_coverage(
        &mut self,
        key: &str,
        at: &Loc,
        size: u32,
        mask: Bits,
        dontcare: Bits,
        cases: &[Case],
        full: Bits,
        fixed: &[&str],
        own_fields: &[bool],
    ) {
        for (ci, case) in cases.iter().enumerate() {
            if !own_fields.get(ci).copied().unwrap_or(true) {
                continue; // same fields as the default case, checked there
            }
            let what = if ci + 1 == cases.len() { String::new() } else { format!(" (case {})", ci + 1) };
            let mut covered = mask | dontcare;
            let mut owner: Vec<(&str, Bits)> = Vec::new();
            for f in case.fields {
                let Src::Bits(ranges) = f.src else { continue };
                let m = ranges.iter().fold(0, |m, r| {
                    if (r.lo as u32) + (r.width as u32) <= size { m | mask_of(r.lo as u32, r.width as u32) } else { m }
                });
                if fixed.contains(&f.name) {
                    continue; // its bits are identifying bits now
                }
                if m & (mask | dontcare) != 0 {
                    self.d.err(
                        at,
                        format!(
                            "`{key}`{what}: field `{}` overlaps fixed bits {}",
                            f.name,
                            bit_list(m & (mask | dontcare))
                        ),
                    );
                }
                for (other, om) in &owner {
                    if m & om != 0 {
                        self.d.err(
                            at,
                            format!(
                                "`{key}`{what}: fields `{other}` and `{}` overlap at bits {}",
                                f.name,
                                bit_list(m & om)
                            ),
                        );
                    }
                }
                owner.push((f.name, m));
                covered |= m;
            }
            if covered & full != full {
                self.d.push(
                    Diagnostic::new(
                        at.clone(),
                        format!("`{key}`{what}: bits {} are not covered", bit_list(full & !covered)),
                    )
                    .note("give every bit a field, a pattern, or mark it don't-care with `x`"),
                );
            }
        }
    }

    /// No two encodings of a group may match the same word in one generation,
    /// unless their priorities say which wins (see [`crate::overlap`]).
    fn check_ambiguity(&mut self, groups: &[Group], leaves: &[(String, Leaf)]) {
        for g in groups {
            let encs: Vec<crate::overlap::Enc> = g
                .leaves
                .iter()
                .map(|&l| {
                    let (key, leaf) = &leaves[l as usize];
                    crate::overlap::Enc {
                        mask: leaf.mask,
                        value: leaf.value,
                        gens: (leaf.gen_min, leaf.gen_max),
                        priority: self.priority_of(key),
                    }
                })
                .collect();
            let found = crate::overlap::overlaps(&encs);
            let key = |i: usize| &leaves[g.leaves[i] as usize].0;
            for &(i, j) in &found.pairs {
                let ((ka, la), (kb, lb)) = (&leaves[g.leaves[i] as usize], &leaves[g.leaves[j] as usize]);
                let common = la.value | lb.value;
                let (lo, hi) = (la.gen_min.max(lb.gen_min), la.gen_max.min(lb.gen_max));
                let gens = if lo == 0 && hi == u32::MAX {
                    "every generation".to_string()
                } else {
                    format!("generations {lo}..{hi}")
                };
                self.d.push(
                    Diagnostic::new(
                        self.bdefs[kb].at.clone(),
                        format!("encodings `{ka}` and `{kb}` can both match 0x{common:x} in {gens}"),
                    )
                    .note(format!("`{ka}` is defined at {}", self.bdefs[ka].at))
                    .note("make their fixed bits differ, narrow a generation range, or give one a higher `priority`"),
                );
            }
            if found.more
                && let Some(&(_, j)) = found.pairs.last()
            {
                let at = self.bdefs[key(j)].at.clone();
                self.d.push(Diagnostic::new(
                    at,
                    format!(
                        "more encodings of group `{}` overlap than the {} pairs reported",
                        g.name,
                        crate::overlap::MAX_PAIRS
                    ),
                ));
            }
            if let Some(i) = found.gave_up_at {
                let at = self.bdefs[key(i)].at.clone();
                self.d.push(
                    Diagnostic::new(
                        at,
                        format!(
                            "checking that no two of the {} encodings of group `{}` match the same word would take more than {} comparisons ({} masks of fixed bits and priorities)",
                            encs.len(),
                            g.name,
                            crate::overlap::MAX_WORK,
                            found.classes
                        ),
                    )
                    .note("encodings are compared pair by pair where each has a mask of its own, or where two masks' encodings agree on the bits both fix and differ only in generation; give the group fewer masks, or fixed bits that differ"),
                );
            }
        }
    }

    fn check_variant_names(&mut self, variants: &[(String, u16)], leaves: &[(String, Leaf)]) {
        let mut seen: HashMap<&str, &str> = HashMap::new();
        for (v, l) in variants {
            let key = leaves[*l as usize].0.as_str();
            if let Some(prev) = seen.insert(v.as_str(), key) {
                self.d.push(
                    Diagnostic::new(
                        self.bdefs[key].at.clone(),
                        format!("`{key}` and `{prev}` both become the Rust name `{v}`"),
                    )
                    .note("rename one key; the mnemonic can stay the same with `name:`"),
                );
            }
        }
    }
}

/// The default fields, with a case's (or an `accepts:` entry's) own fields
/// replacing those of the same name and adding new ones.
fn with_view_fields<'b>(
    defs: &[FDef<'b>],
    file: &'b Path,
    fields: Option<&'b IndexMap<S<String>, S<FieldSpec>>>,
) -> Vec<FDef<'b>> {
    let mut out = defs.to_vec();
    for (k, f) in fields.into_iter().flatten() {
        let nd =
            FDef { name: k.value.clone(), file, at: loc(file, k), spec: Some(&f.value), param: None, fixed: false };
        match out.iter_mut().find(|x| x.name == k.value) {
            Some(x) => *x = nd,
            None => out.push(nd),
        }
    }
    out
}

fn to_ranges(keys: &[crate::schema::BitKey]) -> Vec<Range> {
    // Clamped, not wrapped: a range past the encoding is reported by the caller,
    // and clamping keeps `0..4294967295` from overflowing on the way there.
    keys.iter()
        .map(|k| Range { lo: k.lo.min(255) as u8, width: (k.hi - k.lo).saturating_add(1).min(255) as u8 })
        .collect()
}

fn fits(v: i64, width: u32, signed: bool) -> bool {
    if width >= 64 {
        return true;
    }
    if signed {
        let lim = 1i64 << (width.max(1) - 1);
        (-lim..lim).contains(&v)
    } else {
        v >= 0 && (v as u64) >> width == 0
    }
}

/// The bits of `ranges` that lie in a `size`-bit word (those past it are
/// reported with their field).
fn in_word(ranges: &[Range], size: u32) -> Bits {
    let inside = ranges.iter().filter(|r| r.lo as u32 + r.width as u32 <= size);
    inside.fold(0, |m, r| m | mask_of(r.lo as u32, r.width as u32))
}

/// `3..5, 9` for a mask with bits 3, 4, 5 and 9.
fn bit_list(m: Bits) -> String {
    let mut parts = Vec::new();
    let mut i = 0u32;
    while i < 128 {
        if (m >> i) & 1 == 1 {
            let start = i;
            while i + 1 < 128 && (m >> (i + 1)) & 1 == 1 {
                i += 1;
            }
            parts.push(if start == i { format!("{i}") } else { format!("{start}..{i}") });
        }
        i += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_lists() {
        assert_eq!(bit_list(0b1110_0000_1000), "3, 9..11");
        assert_eq!(bit_list(1 << 127), "127");
    }

    #[test]
    fn variant_names() {
        assert_eq!(variant_name("add.f"), "AddF");
        assert_eq!(variant_name("mad.f32"), "MadF32");
        assert_eq!(variant_name("ldg.a-a7xx"), "LdgAA7xx");
        assert_eq!(variant_name("2d"), "I2d");
    }

    #[test]
    fn fits_checks_sign() {
        assert!(fits(-1, 4, true));
        assert!(!fits(-1, 4, false));
        assert!(fits(15, 4, false));
        assert!(!fits(16, 4, false));
        assert!(!fits(8, 4, true));
    }
}
