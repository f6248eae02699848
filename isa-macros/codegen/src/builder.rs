//! The typed builders: from a spec's `builder:` section and its instruction
//! templates, one method per instruction encoding whose parameter types carry
//! what the hardware requires (register file, width, alignment, immediate
//! range), available only in the generations that have the encoding.
//!
//! The plan ([`plan`]) is plain data and is tested here; [`emit`] only writes
//! it out as Rust. A method's signature is read off the encoding's template
//! (its default syntax): after `{NAME}`, the text between commas holds the
//! operands: a field whose type the `builder:` section maps is an operand, a
//! plain number field first in its place is an immediate, and every other
//! field the template shows (a flag such as ` clamp` or `(sy)`, a count) is
//! an option set by name after the call.

use std::collections::{BTreeMap, HashMap};

use heck::{ToSnakeCase, ToUpperCamelCase};
use indexmap::IndexMap;
use isa_runtime::machine::Machine;
use isa_runtime::{Bits, Case, Field, Isa, Op, Src, Tok, Ty, apply_binop, extract, mask_of, width_of};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde::Deserialize;

use crate::diag::Diagnostic;
use crate::emit::Emit;
use crate::lower::Spec;
use crate::yaml::{S, loc};

// ---------------------------------------------------------------- schema

/// `builder:` in a root spec.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BuilderSpec {
    pub doc: Option<S<String>>,
    /// Fields instructions write, each for the mnemonics matching one of its
    /// patterns (`*` matches any text: `VDATA: ["*load*"]`), unless their
    /// bitset or table says (`writes:`).
    pub writes: Option<IndexMap<S<String>, Vec<S<String>>>>,
    /// Field type (a bitset or enum used as a field's `type`) -> the operands
    /// a field of that type takes.
    pub operands: IndexMap<S<String>, S<OperandSpec>>,
    /// Enum field types that are operands (a wait slot): builders take one
    /// of their named values (`values::Slot::A`).
    pub values: Option<Vec<S<String>>>,
}

/// What one operand type accepts.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct OperandSpec {
    /// The Rust type's name; the field type's name in UpperCamelCase by default.
    pub name: Option<S<String>>,
    pub doc: Option<S<String>>,
    /// Register classes of `machine:` the operand may name.
    pub registers: Vec<S<String>>,
    /// The field type's parameter that gives the width in registers.
    pub width: Option<S<String>>,
    /// Registers of any width are accepted (the encoding does not fix it, as
    /// for an image address whose size the sampler decides).
    #[serde(rename = "any-width")]
    pub any_width: Option<S<bool>>,
    /// Integer constants are accepted, written through this template (`{}`).
    pub int: Option<S<String>>,
    /// Float constants are accepted, written through this template.
    pub float: Option<S<String>>,
    /// Assembly text is accepted as is (`From<&'static str>`): for symbolic
    /// operands (`hwreg(HW_REG_MODE)`, `off`) the types do not model.
    pub text: Option<S<bool>>,
    /// Source modifiers, each a method on the operand: name -> template
    /// around the operand's text (`neg: "-{}"`).
    pub modifiers: Option<IndexMap<S<String>, S<String>>>,
}

// ---------------------------------------------------------------- plan

/// An operand type of the target.
#[derive(Debug, Clone, PartialEq)]
pub struct Kind {
    /// The field type it stands for.
    pub key: String,
    pub rust: String,
    pub doc: String,
    /// Machine register classes accepted.
    pub classes: Vec<u16>,
    /// Generic over its width in registers.
    pub sized: bool,
    pub int: Option<String>,
    pub float: Option<String>,
    pub text: bool,
    pub any_width: bool,
    pub modifiers: Vec<(String, String)>,
}

/// What a method parameter is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamTy {
    /// An operand of kind `kind`, `width` registers (1 for unsized kinds; 0
    /// when other fields decide, and the method is generic over it).
    Operand { kind: usize, width: u32 },
    /// An immediate of the field marker `imm` (index into [`Plan::imms`]).
    Imm { imm: usize },
    /// One of the named values of enum `e` (`values::Slot::A`).
    Value { e: u16 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The field's name in snake case.
    pub name: String,
    pub field: String,
    pub ty: ParamTy,
    pub write: bool,
}

/// A piece of a method's assembly template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Operand { n: u8, write: bool },
    Option(u8),
}

/// An option: set `set` (to 1 for a flag, to a checked value otherwise);
/// field `show` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    pub set: String,
    pub show: String,
    /// `None` for a flag, else the immediate marker of its values.
    pub imm: Option<usize>,
    /// The enum of its values, when the field is one (`.type_(Type::U32)`).
    pub values: Option<u16>,
    /// Its value when not set: the field's `default:` where the template
    /// shows it optionally, else zero.
    pub default: i64,
}

/// One builder method.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// The encoding in each generation the method exists in: `(index into
    /// [`Plan::gens`], leaf)`. One method covers the encodings of one form
    /// whose layout differs by generation.
    pub leaves: Vec<(usize, u16)>,
    /// Emitted for each of its generations' concrete `Shader<G>`, because
    /// another generation has a different method of the same name.
    pub per_gen: bool,
    /// Snake-case name (`v_add_f32_e64`).
    pub name: String,
    pub params: Vec<Param>,
    pub template: Vec<Piece>,
    pub options: Vec<Opt>,
}

impl Method {
    pub fn gens(&self) -> Vec<usize> {
        self.leaves.iter().map(|(g, _)| *g).collect()
    }

    /// The encoding of the first generation (docs name it).
    pub fn leaf(&self) -> u16 {
        self.leaves[0].1
    }

    fn same_shape(&self, o: &Method) -> bool {
        self.name == o.name && self.params == o.params && self.template == o.template && self.options == o.options
    }
}

impl Method {
    /// The one written register operand, when the method can also allocate it
    /// (the `new value` shape).
    pub fn result(&self) -> Option<usize> {
        let mut w = self.params.iter().enumerate().filter(|(_, p)| p.write);
        let (i, p) = w.next()?;
        (w.next().is_none() && matches!(p.ty, ParamTy::Operand { .. })).then_some(i)
    }
}

/// An immediate field marker: name, range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImmMarker {
    pub rust: String,
    pub field: String,
    pub min: i64,
    pub max: i64,
}

/// Everything the builder module of a target holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub doc: String,
    pub kinds: Vec<Kind>,
    pub imms: Vec<ImmMarker>,
    /// `(Rust marker name, generation value)`.
    pub gens: Vec<(String, u32)>,
    pub methods: Vec<Method>,
    /// Encodings with no method, and why.
    pub skipped: Vec<(u16, String)>,
}

/// The plan for `spec`, or `None` when it has no `builder:` section.
pub fn plan(spec: &Spec) -> Result<Option<Plan>, Vec<Diagnostic>> {
    let Some((file, b)) = &spec.builder else { return Ok(None) };
    let isa = spec.isa;
    let mut errs = Vec::new();
    let Some(machine) = isa.machine else {
        return Err(vec![Diagnostic::new(loc(file, b), "`builder:` needs the `machine:` section's register classes")]);
    };
    let mut kinds = Vec::new();
    let mut kind_of_type: HashMap<String, usize> = HashMap::new();
    for (k, o) in &b.value.operands {
        let exists = isa.groups.iter().any(|g| g.name == k.value) || isa.enums.iter().any(|e| e.name == k.value);
        if !exists {
            errs.push(Diagnostic::new(
                loc(file, k),
                format!("`{}` is no bitset or enum used as a field type", k.value),
            ));
        }
        let mut classes = Vec::new();
        for r in &o.value.registers {
            match machine.classes.iter().position(|c| c.name == r.value) {
                Some(c) => classes.push(c as u16),
                None => errs.push(Diagnostic::new(
                    loc(file, r),
                    format!(
                        "no register class `{}` in `machine:` (classes: {})",
                        r.value,
                        machine.classes.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
        kind_of_type.insert(k.value.clone(), kinds.len());
        kinds.push(Kind {
            key: k.value.clone(),
            rust: o.value.name.as_ref().map_or_else(|| k.value.to_upper_camel_case(), |n| n.value.clone()),
            doc: o.value.doc.as_ref().map_or(String::new(), |d| d.value.trim().to_string()),
            classes,
            sized: o.value.width.is_some(),
            int: o.value.int.as_ref().map(|t| t.value.clone()),
            float: o.value.float.as_ref().map(|t| t.value.clone()),
            text: o.value.text.as_ref().is_some_and(|t| t.value),
            any_width: o.value.any_width.as_ref().is_some_and(|t| t.value),
            modifiers: o.value.modifiers.iter().flatten().map(|(k, v)| (k.value.clone(), v.value.clone())).collect(),
        });
    }
    for t in b.value.values.iter().flatten() {
        if !isa.enums.iter().any(|e| e.name == t.value) {
            errs.push(Diagnostic::new(loc(file, t), format!("`{}` is no enum", t.value)));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let widths: Vec<Option<String>> =
        b.value.operands.values().map(|o| o.value.width.as_ref().map(|w| w.value.clone())).collect();
    let immediates: Vec<String> = b.value.values.iter().flatten().map(|t| t.value.clone()).collect();
    let default_writes: Vec<(String, Vec<String>)> = b
        .value
        .writes
        .iter()
        .flatten()
        .map(|(f, pats)| (f.value.clone(), pats.iter().map(|p| p.value.clone()).collect()))
        .collect();
    let gens: Vec<(String, u32)> = if isa.gens.is_empty() {
        vec![("Base".to_string(), isa.default_gen)]
    } else {
        isa.gens.iter().map(|g| (g.name.to_upper_camel_case(), g.value)).collect()
    };
    let mut p =
        Planner { isa, immediates: &immediates, kind_of_type: &kind_of_type, widths: &widths, imms: Vec::new() };
    let mut methods = Vec::new();
    let mut skipped = Vec::new();
    for (variant, leaf) in &spec.variants {
        let name = isa.leaves[*leaf as usize].name;
        let writes: Vec<String> = match &spec.writes[*leaf as usize] {
            Some(w) => w.clone(),
            None => default_writes
                .iter()
                .filter(|(_, pats)| pats.iter().any(|p| glob(p, name)))
                .map(|(f, _)| f.clone())
                .collect(),
        };
        let writes = &writes;
        let in_gens: Vec<usize> = gens
            .iter()
            .enumerate()
            .filter(|(_, (_, g))| isa.instructions(*g).any(|l| l == *leaf))
            .map(|(i, _)| i)
            .collect();
        if in_gens.is_empty() {
            continue;
        }
        match p.method(*leaf, variant, writes) {
            Ok(mut m) => {
                m.leaves = in_gens.iter().map(|&g| (g, *leaf)).collect();
                methods.push(m);
            }
            Err(why) => skipped.push((*leaf, why)),
        }
    }
    let methods = merge_forms(methods, |l| method_name(isa.leaves[l as usize].key));
    let doc = b.value.doc.as_ref().map_or(String::new(), |d| d.value.trim().to_string());
    let imms = std::mem::take(&mut p.imms);
    Ok(Some(Plan { doc, kinds, imms, gens, methods, skipped }))
}

struct Planner<'a> {
    isa: &'static Isa,
    /// Field types written as numbers with names (`immediates:`).
    immediates: &'a [String],
    kind_of_type: &'a HashMap<String, usize>,
    widths: &'a [Option<String>],
    imms: Vec<ImmMarker>,
}

/// One method per form: encodings of the same form in different generations
/// (same name, operands, template and options) become one method; forms that
/// share a name but differ are per-generation methods when their generations
/// do not overlap, and are told apart by their spec key otherwise.
pub fn merge_forms(methods: Vec<Method>, key_name: impl Fn(u16) -> String) -> Vec<Method> {
    let mut out: Vec<Method> = Vec::new();
    for m in methods {
        let disjoint = |o: &Method| m.leaves.iter().all(|(g, _)| o.leaves.iter().all(|(h, _)| g != h));
        match out.iter_mut().find(|o| o.same_shape(&m) && disjoint(o)) {
            Some(o) => o.leaves.extend(m.leaves),
            None => out.push(m),
        }
    }
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, m) in out.iter().enumerate() {
        by_name.entry(m.name.clone()).or_default().push(i);
    }
    for idx in by_name.values().filter(|v| v.len() > 1) {
        let mut gens: Vec<usize> = idx.iter().flat_map(|&i| out[i].gens()).collect();
        let n = gens.len();
        gens.sort_unstable();
        gens.dedup();
        if gens.len() == n {
            for &i in idx {
                out[i].per_gen = true;
            }
        } else {
            for &i in idx {
                out[i].name = key_name(out[i].leaf());
            }
        }
    }
    // Keys are unique; their spellings as identifiers might not be.
    let mut seen: HashMap<String, u32> = HashMap::new();
    for m in &mut out {
        if m.per_gen {
            continue;
        }
        let n = seen.entry(m.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            m.name = format!("{}_{n}", m.name);
        }
    }
    out
}

/// Whether `text` matches `pattern`, where `*` stands for any text.
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The name a field type goes by: its bitset's or enum's.
fn type_name(isa: &Isa, ty: Ty) -> Option<&'static str> {
    match ty {
        Ty::Group { group, .. } => Some(isa.groups[group as usize].name),
        Ty::Enum(e) => Some(isa.enums[e as usize].name),
        _ => None,
    }
}

/// Rust keywords a mnemonic may spell.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true",
    "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
    "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A method name from an encoding's key: the mnemonic, and the form's tag
/// (`v_add_f32@e64` is `v_add_f32_e64`, `add.f` is `add_f`).
pub fn method_name(key: &str) -> String {
    let mut s = String::new();
    for c in key.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    ident_name(s.trim_end_matches('_'))
}

/// A method or parameter name that is a valid identifier.
pub fn ident_name(s: &str) -> String {
    let snake = s.to_snake_case();
    let snake = if snake.starts_with(|c: char| c.is_ascii_digit()) { format!("_{snake}") } else { snake };
    if KEYWORDS.contains(&snake.as_str()) || snake == "self" { format!("{snake}_") } else { snake }
}

impl Planner<'_> {
    fn method(&mut self, leaf: u16, variant: &str, writes: &[String]) -> Result<Method, String> {
        let l = &self.isa.leaves[leaf as usize];
        let case = l.default_case();
        let mut params: Vec<Param> = Vec::new();
        let mut template = Vec::new();
        let mut options: Vec<Opt> = Vec::new();
        let mut after_name = false;
        // A template that writes its mnemonic as text has no `{NAME}`.
        let mut seen_name = !case.display_in(0).contains(&Tok::Name);
        // Why the current operand would have no parameter, if none follows.
        let mut pending: Option<String> = None;
        // Whether the operand between the last comma and here is given.
        let mut chunk_has_operand = false;
        // An optional field (`{? dst_sel:{DST_SEL}}`) is its text and the field.
        // Such a field is never the operand a chunk lacks: it is an option
        // whatever its type.
        let toks: Vec<(Tok, Option<i64>)> = case
            .display_in(0)
            .iter()
            .flat_map(|t| match *t {
                Tok::OptField(s, i, default) => vec![(Tok::Lit(s), None), (Tok::Field(i), Some(default))],
                t => vec![(t, None)],
            })
            .collect();
        for &(ref tok, default) in &toks {
            let optional = default.is_some();
            match *tok {
                Tok::Name => {
                    seen_name = true;
                    template.push(Piece::Text(l.name.to_string()));
                }
                // Operands start at the first space after the name: what is
                // joined to the name (`.{TYPE}`) is part of the mnemonic.
                Tok::Lit(s) | Tok::Opt(s) => {
                    if s.contains(',') {
                        if let Some(why) = pending.take().filter(|_| !chunk_has_operand) {
                            return Err(why);
                        }
                        chunk_has_operand = false;
                    }
                    if seen_name && s.contains(char::is_whitespace) {
                        after_name = true;
                    }
                    template.push(Piece::Text(s.to_string()));
                }
                Tok::OptField(..) => {} // expanded above
                Tok::Column => {
                    after_name |= seen_name;
                    template.push(Piece::Text(" ".to_string()));
                }
                Tok::Field(i) => {
                    let f = &case.fields[i as usize];
                    let numbered = type_name(self.isa, f.ty).is_some_and(|n| self.immediates.iter().any(|t| t == n));
                    if let Src::Bits(_) = f.src
                        && !numbered
                        && let Some(k) = type_name(self.isa, f.ty).and_then(|n| self.kind_of_type.get(n))
                    {
                        // Several operands may share the text between two
                        // commas (`{IMM}({RS1})`); before the operands, an
                        // operand field has no place.
                        if !after_name {
                            return Err(format!("operand field {} comes before the operands", f.name));
                        }
                        let width = self.width(case, f, *k)?;
                        let write = writes.iter().any(|w| w == f.name);
                        let n = params.len() as u8;
                        params.push(Param {
                            name: ident_name(f.name),
                            field: f.name.to_string(),
                            ty: ParamTy::Operand { kind: *k, width },
                            write,
                        });
                        template.push(Piece::Operand { n, write });
                        chunk_has_operand = true;
                        pending = None;
                        continue;
                    }
                    match (f.src, f.ty) {
                        (Src::Bits(r), ty)
                            if after_name && !optional && !chunk_has_operand && (numbered || numeric(ty)) =>
                        {
                            let pty = match ty {
                                Ty::Enum(e) if numbered => ParamTy::Value { e },
                                _ => ParamTy::Imm { imm: self.imm(f, width_of(r)) },
                            };
                            let n = params.len() as u8;
                            params.push(Param {
                                name: ident_name(f.name),
                                field: f.name.to_string(),
                                ty: pty,
                                write: false,
                            });
                            template.push(Piece::Operand { n, write: false });
                            chunk_has_operand = true;
                            pending = None;
                        }
                        (Src::Bits(r), ty) => {
                            // In an operand's place, a field that is no operand
                            // (`({TYPE})` before a destination) is an option,
                            // as long as the operand follows.
                            if after_name
                                && !optional
                                && !chunk_has_operand
                                && !matches!(ty, Ty::Bool { .. })
                                && pending.is_none()
                            {
                                let t = type_name(self.isa, ty).unwrap_or("?");
                                pending =
                                    Some(format!("operand {} (type `{t}`) has no operand type in `builder:`", f.name));
                            }
                            let imm = (!matches!(ty, Ty::Bool { .. })).then(|| self.imm(f, width_of(r)));
                            template.push(Piece::Option(options.len() as u8));
                            let values = if let Ty::Enum(e) = ty { Some(e) } else { None };
                            options.push(Opt {
                                set: f.name.to_string(),
                                show: f.name.to_string(),
                                imm,
                                values,
                                default: default.unwrap_or(0),
                            });
                        }
                        // A number shown under another name (`K`, the literal
                        // dword of v_madmk): an immediate setting that field.
                        (Src::Expr([Op::Field(j)]), ty)
                            if after_name
                                && !optional
                                && !chunk_has_operand
                                && matches!(case.fields[*j as usize].src, Src::Bits(_))
                                && numeric(ty) =>
                        {
                            let base = &case.fields[*j as usize];
                            let Src::Bits(r) = base.src else { unreachable!("matched above") };
                            let n = params.len() as u8;
                            params.push(Param {
                                name: ident_name(f.name),
                                field: base.name.to_string(),
                                ty: ParamTy::Imm { imm: self.imm(base, width_of(r)) },
                                write: false,
                            });
                            template.push(Piece::Operand { n, write: false });
                            chunk_has_operand = true;
                            pending = None;
                        }
                        (Src::Expr([Op::Field(j)]), Ty::Bool { .. })
                            if matches!(case.fields[*j as usize].src, Src::Bits(_)) =>
                        {
                            let base = &case.fields[*j as usize];
                            let Src::Bits(r) = base.src else { unreachable!("matched above") };
                            let flag = width_of(r) == 1;
                            let known = options.iter().position(|o| o.set == base.name);
                            let imm = (!flag).then(|| self.imm(base, width_of(r)));
                            let idx = known.unwrap_or_else(|| {
                                options.push(Opt {
                                    set: base.name.to_string(),
                                    show: f.name.to_string(),
                                    imm,
                                    values: None,
                                    default: 0,
                                });
                                options.len() - 1
                            });
                            template.push(Piece::Option(idx as u8));
                        }
                        // Derived from fields the leaf fixes (an opcode):
                        // fixed text.
                        (Src::Expr(e), ty) if let Some(text) = self.fixed_text(l, case, e, ty) => {
                            template.push(Piece::Text(text));
                        }
                        // Derived, of a `values:` type (a condition shown by
                        // name, held in bits split across the word): a value
                        // operand; the assembler inverts the derivation.
                        (Src::Expr(_), Ty::Enum(e)) if numbered && after_name && !optional && !chunk_has_operand => {
                            let n = params.len() as u8;
                            params.push(Param {
                                name: ident_name(f.name),
                                field: f.name.to_string(),
                                ty: ParamTy::Value { e },
                                write: false,
                            });
                            template.push(Piece::Operand { n, write: false });
                            chunk_has_operand = true;
                            pending = None;
                        }
                        // Derived: what the operands' text implies (`h` of a
                        // half register) - as long as an operand follows.
                        (Src::Expr(_), _) => {
                            if after_name && !chunk_has_operand && pending.is_none() {
                                pending = Some(format!("shows {}, which no operand gives", f.name));
                            }
                        }
                        (Src::Param(_), _) => {}
                    }
                }
            }
        }
        if let Some(why) = pending.filter(|_| !chunk_has_operand) {
            return Err(why);
        }
        // An operand may be written more than once in a template (applegpu
        // syntax repeats some); a name must be unique.
        let mut seen = HashMap::new();
        for p in &mut params {
            let n = seen.entry(p.name.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                return Err(format!("field {} is shown twice", p.field));
            }
        }
        let _ = variant;
        // The form's name: the mnemonic and the suffixes its template writes
        // (`v_add_f32_e64`).
        let suffix: String =
            case.display_in(0).iter().filter_map(|t| if let Tok::Opt(s) = t { Some(*s) } else { None }).collect();
        let name = method_name(&format!("{}{suffix}", l.name));
        Ok(Method { leaves: Vec::new(), per_gen: false, name, params, template, options })
    }

    /// The text of a derived field whose value the leaf fixes, if it does.
    fn fixed_text(&self, l: &isa_runtime::Leaf, case: &Case, e: &[Op], ty: Ty) -> Option<String> {
        let v = const_eval_in(case, Some((l.mask, l.value)), e, 0)?;
        match ty {
            Ty::Enum(en) => {
                self.isa.enums[en as usize].values.iter().find(|x| x.value as i64 == v).map(|x| x.display.to_string())
            }
            Ty::Bool { on, inverted } => Some(if (v != 0) != inverted { on.to_string() } else { String::new() }),
            Ty::Uint | Ty::UintSat => Some(v.to_string()),
            _ => None,
        }
    }

    /// The width in registers of an operand field of kind `k`.
    fn width(&self, case: &Case, f: &Field, k: usize) -> Result<u32, String> {
        let Some(param) = &self.widths[k] else { return Ok(1) };
        let Ty::Group { group, params } = f.ty else { return Ok(1) };
        let g = &self.isa.groups[group as usize];
        let Some(pi) = g.params.iter().position(|p| p.name == param) else {
            return Err(format!("{} has no parameter {param}", g.name));
        };
        let e = params.get(pi).ok_or_else(|| format!("{} does not pass {param}", f.name))?;
        match const_eval(case, e, 0) {
            Some(v) if (1..=64).contains(&v) => Ok(v as u32),
            Some(v) => Err(format!("{} is {v} registers wide", f.name)),
            None => Ok(0),
        }
    }

    /// The marker of an immediate field named like `f`, `width` bits wide.
    fn imm(&mut self, f: &Field, width: u32) -> usize {
        let (min, max) = f.value_range(width);
        let (min, max) = (min.max(i64::MIN as i128) as i64, max.min(i64::MAX as i128) as i64);
        if let Some(i) = self.imms.iter().position(|m| m.field == f.name && m.min == min && m.max == max) {
            return i;
        }
        let base = f.name.to_upper_camel_case();
        let mut rust = base.clone();
        let mut n = 1;
        while self.imms.iter().any(|m| m.rust == rust) {
            n += 1;
            rust = format!("{base}{n}");
        }
        self.imms.push(ImmMarker { rust, field: f.name.to_string(), min, max });
        self.imms.len() - 1
    }
}

/// An expression's value when the encoding fixes it (literals, fields whose
/// bits the encoding's pattern fixes, derived fields of those).
fn const_eval(case: &Case, e: &[Op], depth: u32) -> Option<i64> {
    const_eval_in(case, None, e, depth)
}

/// As [`const_eval`], also reading the bit fields the leaf `fixed` fixes
/// (its identifying mask and value): an opcode field of an instruction table.
fn const_eval_in(case: &Case, fixed: Option<(Bits, Bits)>, e: &[Op], depth: u32) -> Option<i64> {
    if depth > 16 {
        return None;
    }
    let mut st: Vec<i64> = Vec::new();
    for op in e {
        match *op {
            Op::Lit(v) => st.push(v),
            Op::Field(j) => {
                let f = case.fields.get(j as usize)?;
                st.push(match (f.src, fixed) {
                    (Src::Expr(e2), _) => const_eval_in(case, fixed, e2, depth + 1)?,
                    (Src::Bits(r), Some((mask, value)))
                        if r.iter().all(|x| {
                            let m = mask_of(x.lo as u32, x.width as u32);
                            mask & m == m
                        }) =>
                    {
                        i64::try_from(extract(value, 0, r)).ok()?
                    }
                    _ => return None,
                });
            }
            Op::Param(_) | Op::Gen => return None,
            Op::Not => {
                let a = st.pop()?;
                st.push((a == 0) as i64);
            }
            Op::Neg => {
                let a = st.pop()?;
                st.push(a.wrapping_neg());
            }
            Op::BitNot => {
                let a = st.pop()?;
                st.push(!a);
            }
            Op::Select => {
                let (f, t, c) = (st.pop()?, st.pop()?, st.pop()?);
                st.push(if c != 0 { t } else { f });
            }
            Op::Bin(b) => {
                let (r, l) = (st.pop()?, st.pop()?);
                st.push(apply_binop(b, l, r));
            }
        }
    }
    st.pop()
}

// ---------------------------------------------------------------- emission

/// The `build` module of a target.
pub fn emit(spec: &Spec, plan: &Plan) -> TokenStream {
    let isa = spec.isa;
    let machine = isa.machine.expect("plan() checked the machine section");
    // Register class markers: every class some operand type names.
    let mut used: Vec<u16> = plan.kinds.iter().flat_map(|k| k.classes.iter().copied()).collect();
    used.sort_unstable();
    used.dedup();
    let class_ident = |c: u16| format_ident!("{}", machine.classes[c as usize].name.to_upper_camel_case());
    let classes = used.iter().map(|&c| {
        let cl = &machine.classes[c as usize];
        let id = class_ident(c);
        let file = &machine.files[cl.file as usize];
        let units = file.units.iter().map(|g| g.value).max().unwrap_or(0);
        let fit = units / cl.units.max(1);
        let count = Literal::u32_unsuffixed(cl.count.map_or(fit, |n| n.min(fit)));
        let alloc = !file.read_only;
        let value = cl.emit();
        let doc = format!(
            " Registers of class `{}` ({}-bit{}). {}",
            cl.name,
            cl.bits,
            if alloc { "" } else { ", read-only" },
            cl.doc
        );
        let one = format_ident!("{}", ident_name(cl.name));
        let many = format_ident!("{}s", cl.name.to_snake_case());
        let doc_one = format!(" Register `R` of class `{}`, checked at compile time.", cl.name);
        let doc_many =
            format!(" Registers `R..R+N` of class `{}`, checked (range, alignment) at compile time.", cl.name);
        quote! {
            #[doc = #doc_one]
            pub const fn #one<const R: u32>() -> Reg<#id, 1> { Reg::at::<R>() }
            #[doc = #doc_many]
            pub const fn #many<const R: u32, const N: usize>() -> Reg<#id, N> { Reg::at::<R>() }
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct #id;
            impl ::isa_runtime::build::Class for #id {
                const CLASS: &'static ::isa_runtime::machine::RegClass = &#value;
                const ALLOCATABLE: bool = #alloc;
                const COUNT: u32 = #count;
            }
        }
    });
    let kinds = plan.kinds.iter().map(|k| emit_kind(k, machine, &class_ident));
    let imms = plan.imms.iter().map(|m| {
        let id = format_ident!("{}", m.rust);
        let (f, min, max) = (&m.field, m.min, m.max);
        let doc = format!(" Immediates of field `{f}`: {min}..={max}.");
        quote! {
            #[doc = #doc]
            pub struct #id;
            impl ::isa_runtime::build::ImmField for #id {
                const FIELD: &'static str = #f;
                const MIN: i64 = #min;
                const MAX: i64 = #max;
            }
        }
    });
    let gen_markers = plan.gens.iter().map(|(n, v)| {
        let id = format_ident!("{}", n);
        let doc = format!(" Generation {n} (value {v}).");
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct #id;
            impl Generation for #id { const VALUE: u32 = #v; }
        }
    });
    // One trait per set of generations methods exist in.
    let mut sets: BTreeMap<Vec<usize>, Vec<&Method>> = BTreeMap::new();
    let mut per_gen: BTreeMap<usize, Vec<(&Method, u16)>> = BTreeMap::new();
    for m in &plan.methods {
        if m.per_gen {
            for &(g, leaf) in &m.leaves {
                per_gen.entry(g).or_default().push((m, leaf));
            }
        } else {
            sets.entry(m.gens()).or_default().push(m);
        }
    }
    let all: Vec<usize> = (0..plan.gens.len()).collect();
    let mut opt_sets: Vec<Vec<Opt>> = Vec::new();
    let mut forms = Forms::default();
    let mut impls = Vec::new();
    for (set, methods) in &sets {
        let bound = if *set == all {
            quote!(Generation)
        } else {
            let name = format_ident!("In{}", set.iter().map(|&g| plan.gens[g].0.as_str()).collect::<String>());
            let doc = format!(
                " Generations that have the instructions: {}.",
                set.iter().map(|&g| plan.gens[g].0.as_str()).collect::<Vec<_>>().join(", ")
            );
            let markers = set.iter().map(|&g| format_ident!("{}", plan.gens[g].0));
            impls.push(quote! {
                #[doc = #doc]
                pub trait #name: Generation {}
                #( impl #name for #markers {} )*
            });
            quote!(#name)
        };
        let bodies =
            methods.iter().map(|m| emit_method(spec, plan, m, &m.leaves, &class_ident, &mut opt_sets, &mut forms));
        let bodies: Vec<TokenStream> = bodies.collect();
        impls.push(quote! {
            impl<G: #bound> Shader<G> { #(#bodies)* }
        });
    }
    for (g, methods) in &per_gen {
        let marker = format_ident!("{}", plan.gens[*g].0);
        let bodies: Vec<TokenStream> = methods
            .iter()
            .map(|(m, leaf)| emit_method(spec, plan, m, &[(*g, *leaf)], &class_ident, &mut opt_sets, &mut forms))
            .collect();
        impls.push(quote! {
            impl Shader<#marker> { #(#bodies)* }
        });
    }
    let opt_impls = opt_sets.iter().enumerate().map(|(i, opts)| {
        let marker = opt_marker(opts, i);
        let setters = opts.iter().enumerate().map(|(oi, o)| {
            let name = format_ident!("{}", ident_name(&o.set));
            let oi = Literal::u8_unsuffixed(oi as u8);
            match o.imm {
                None => {
                    let doc = format!(" Sets {}.", o.set);
                    quote!(#[doc = #doc] pub fn #name(self) -> Self { self.p.set_option(self.line, #oi, 1); self })
                }
                Some(_) if o.values.is_some() => {
                    let e = &isa.enums[o.values.unwrap_or(0) as usize];
                    let t = format_ident!("{}", e.name.to_upper_camel_case());
                    let doc = format!(" Sets {} to one of [`values::{t}`].", o.set);
                    quote!(#[doc = #doc] pub fn #name(self, v: values::#t) -> Self {
                        self.p.set_option(self.line, #oi, v as i64); self
                    })
                }
                Some(m) => {
                    let t = format_ident!("{}", plan.imms[m].rust);
                    let doc = format!(" Sets {} (`imm!(N)` or `Imm::try_from(n)?`).", o.set);
                    quote!(#[doc = #doc] pub fn #name(self, v: ::isa_runtime::build::Imm<imm::#t>) -> Self {
                        self.p.set_option(self.line, #oi, v.value()); self
                    })
                }
            }
        });
        let doc = format!(" Options: {}.", opts.iter().map(|o| o.set.as_str()).collect::<Vec<_>>().join(", "));
        quote! {
            #[doc = #doc]
            pub struct #marker;
            impl<'a> With<'a, opts::#marker> { #(#setters)* }
        }
    });
    let opt_markers: Vec<TokenStream> = opt_impls.collect();
    let (form_count, form_list) = (forms.list.len(), &forms.list);
    // The enums options take.
    let mut used_enums: Vec<u16> = opt_sets.iter().flatten().filter_map(|o| o.values).collect();
    used_enums.extend(plan.methods.iter().flat_map(|m| &m.params).filter_map(|p| match p.ty {
        ParamTy::Value { e } => Some(e),
        _ => None,
    }));
    used_enums.sort_unstable();
    used_enums.dedup();
    let value_enums = used_enums.iter().map(|&e| emit_values(&isa.enums[e as usize]));
    let doc = format!(
        " Typed instruction builders of {}, generated from its spec's `builder:` section. {}",
        isa.name, plan.doc
    );
    let skipped = plan.skipped.len();
    let skipped_doc = format!(
        " Encodings without a builder method ({skipped}): {}",
        plan.skipped
            .iter()
            .map(|(l, why)| format!("`{}` ({why})", isa.leaves[*l as usize].key))
            .collect::<Vec<_>>()
            .join("; ")
    );
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #skipped_doc]
        #[allow(clippy::all, unused_mut, non_camel_case_types)]
        pub mod build {
            use super::ISA;
            pub use ::isa_runtime::build::{BuildError, Imm, Loc, Program, Reg};

            /// A generation of the target, as a type: a `Shader<G>` has the
            /// methods of the instructions generation `G` has.
            pub trait Generation: Copy + 'static { const VALUE: u32; }
            #(#gen_markers)*
            #(#classes)*

            /// Operand types: what each operand field accepts.
            pub mod operand {
                use super::*;
                #(#kinds)*
            }
            pub use operand::*;

            /// Immediate fields and their ranges.
            pub mod imm { #(#imms)* }

            /// The named values of options.
            pub mod values { #(#value_enums)* }

            /// Option sets of instructions (what [`With`] offers).
            pub mod opts {
                use super::*;
                #(#opt_markers)*
            }

            /// A program being built for generation `G`.
            pub struct Shader<G> { pub program: Program, _gen: ::core::marker::PhantomData<G> }

            /// The instruction just built, to set its options by name.
            pub struct With<'a, O> { p: &'a mut Program, line: usize, _o: ::core::marker::PhantomData<O> }

            impl<G: Generation> Default for Shader<G> {
                fn default() -> Self { Self::new() }
            }

            impl<G: Generation> Shader<G> {
                pub fn new() -> Self {
                    Shader { program: Program::new(&ISA, G::VALUE), _gen: ::core::marker::PhantomData }
                }
                /// A new virtual value (allocated by the backend).
                pub fn value<C: ::isa_runtime::build::Class, const N: usize>(&mut self) -> Reg<C, N> {
                    self.program.value::<C, N>()
                }
                /// A value the hardware provides (`r0.x`, or `abi NAME`).
                pub fn input<C: ::isa_runtime::build::Class, const N: usize>(&mut self, from: &str) -> Reg<C, N> {
                    self.program.input::<C, N>(from)
                }
                /// `r` is a result of the program, optionally in register `to`.
                pub fn output<C: ::isa_runtime::build::Class, const N: usize>(&mut self, r: Reg<C, N>, to: Option<&str>) {
                    self.program.output(r, to)
                }
                /// The registers of a group, one by one (IR `split`).
                pub fn split<C: ::isa_runtime::build::Class, const N: usize>(&mut self, r: Reg<C, N>) -> [Reg<C, 1>; N] {
                    self.program.split(r)
                }
                /// Registers as one group (IR `collect`).
                pub fn collect<C: ::isa_runtime::build::Class, const N: usize>(&mut self, parts: [Reg<C, 1>; N]) -> Reg<C, N> {
                    self.program.collect(parts)
                }
                /// The ABI stage and variant the backend reads inputs from.
                pub fn abi(&mut self, abi: &str) { self.program.set_abi(abi) }
                /// Machine code (every register physical).
                pub fn encode(&self) -> Result<Vec<::isa_runtime::Inst>, BuildError> { self.program.encode() }
                /// The backend's IR text.
                pub fn to_ir(&self) -> Result<String, BuildError> { self.program.to_ir() }
            }
            /// What each builder method writes ([`::isa_runtime::build::Form`]),
            /// in a module of its own so the template pieces read short.
            mod forms {
                use ::isa_runtime::build::{Form, Piece::*};
                pub(super) static FORMS: [Form; #form_count] = [#(#form_list),*];
            }
            #(#impls)*
        }
    }
}

/// The table of builder forms being emitted; equal forms share an entry.
#[derive(Default)]
struct Forms {
    list: Vec<TokenStream>,
    index: std::collections::HashMap<String, usize>,
}

impl Forms {
    /// The index of `form` in the table, adding it if new.
    fn add(&mut self, form: TokenStream) -> Literal {
        let n = self.list.len();
        let i = *self.index.entry(form.to_string()).or_insert(n);
        if i == n {
            self.list.push(form);
        }
        Literal::usize_unsuffixed(i)
    }
}

/// A Rust enum of a spec enum's values, named by their display text.
fn emit_values(e: &isa_runtime::Enum) -> TokenStream {
    let id = format_ident!("{}", e.name.to_upper_camel_case());
    let mut seen = std::collections::HashSet::new();
    let variants = e.values.iter().map(|v| {
        let clean: String = v.display.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let mut name = clean.to_upper_camel_case();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || !seen.insert(name.clone()) {
            name = format!("V{}", v.value);
            seen.insert(name.clone());
        }
        let n = format_ident!("{}", name);
        let val = v.value as i64;
        let doc = format!(" `{}`", v.display);
        (n.clone(), quote!(#[doc = #doc] #n = #val))
    });
    let variants: Vec<(proc_macro2::Ident, TokenStream)> = variants.collect();
    let decls = variants.iter().map(|(_, d)| d);
    let arms = variants.iter().zip(e.values).map(|((n, _), v)| {
        let d = v.display;
        quote!(#id::#n => #d)
    });
    let doc = format!(" The values of `{}`.", e.name);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(i64)]
        pub enum #id { #(#decls),* }
        impl #id {
            /// How the assembly writes it.
            pub fn text(self) -> &'static str { match self { #(#arms),* } }
        }
    }
}

fn opt_marker(opts: &[Opt], i: usize) -> proc_macro2::Ident {
    let _ = opts;
    format_ident!("Opts{}", i)
}

fn emit_kind(k: &Kind, machine: &Machine, class_ident: &dyn Fn(u16) -> proc_macro2::Ident) -> TokenStream {
    let id = format_ident!("{}", k.rust);
    // A sized operand counts registers of its first class; a class of wider
    // registers (a 64-bit `vcc` where 32-bit registers are counted) converts
    // at the matching widths.
    let base_bits = k.classes.first().map_or(32, |&c| machine.classes[c as usize].bits.max(1));
    let doc = format!(" Operand type of fields of type `{}`. {}", k.key, k.doc);
    let (generics, args, n) =
        if k.sized { (quote!(<const N: usize>), quote!(<N>), quote!(N)) } else { (quote!(), quote!(), quote!(1)) };
    let froms = k.classes.iter().map(|&c| {
        let cid = class_ident(c);
        let cl = &machine.classes[c as usize];
        if k.sized && cl.bits != base_bits {
            let ratio = cl.bits / base_bits;
            if ratio == 0 || !cl.bits.is_multiple_of(base_bits) {
                return quote!();
            }
            let impls = (1..=4u32).map(|m| {
                let (m_l, n_l) =
                    (Literal::usize_unsuffixed(m as usize), Literal::usize_unsuffixed((m * ratio) as usize));
                quote! {
                    impl From<Reg<#cid, #m_l>> for #id<#n_l> {
                        fn from(r: Reg<#cid, #m_l>) -> Self { #id(r.operand()) }
                    }
                }
            });
            return quote!(#(#impls)*);
        }
        if k.any_width && !k.sized {
            return quote! {
                impl<const M: usize> From<Reg<#cid, M>> for #id {
                    fn from(r: Reg<#cid, M>) -> Self { #id(r.operand()) }
                }
            };
        }
        quote! {
            impl #generics From<Reg<#cid, #n>> for #id #args {
                fn from(r: Reg<#cid, #n>) -> Self { #id(r.operand()) }
            }
        }
    });
    let ints = k.int.as_ref().map(|t| {
        let tys = [quote!(i32), quote!(i64), quote!(u32)];
        let impls = tys.iter().map(|ty| {
            quote! {
                impl #generics From<#ty> for #id #args {
                    fn from(v: #ty) -> Self { #id(::isa_runtime::build::Operand::int(v as i64, #t)) }
                }
            }
        });
        quote!(#(#impls)*)
    });
    let floats = k.float.as_ref().map(|t| {
        quote! {
            impl #generics From<f32> for #id #args {
                fn from(v: f32) -> Self { #id(::isa_runtime::build::Operand::float(v as f64, #t)) }
            }
            impl #generics From<f64> for #id #args {
                fn from(v: f64) -> Self { #id(::isa_runtime::build::Operand::float(v, #t)) }
            }
        }
    });
    let text = k.text.then(|| {
        quote! {
            impl #generics From<&'static str> for #id #args {
                fn from(t: &'static str) -> Self { #id(::isa_runtime::build::Operand::text(t)) }
            }
        }
    });
    // Modifiers apply in the order the spec lists them, whatever the order
    // of the calls: the first listed is written innermost.
    let mods = k.modifiers.iter().enumerate().map(|(rank, (name, t))| {
        let m = format_ident!("{}", ident_name(name));
        let d = format!(" The operand with `{name}` (written `{t}`).");
        let rank = Literal::u8_unsuffixed(rank as u8);
        quote!(#[doc = #d] pub fn #m(self) -> Self { #id(self.0.with(#rank, #t)) })
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug)]
        pub struct #id #generics(pub ::isa_runtime::build::Operand);
        #(#froms)*
        #ints
        #floats
        #text
        impl #generics #id #args { #(#mods)* }
    }
}

fn emit_method(
    spec: &Spec,
    plan: &Plan,
    m: &Method,
    leaves: &[(usize, u16)],
    class_ident: &dyn Fn(u16) -> proc_macro2::Ident,
    opt_sets: &mut Vec<Vec<Opt>>,
    forms: &mut Forms,
) -> TokenStream {
    let isa = spec.isa;
    let first = leaves[0].1;
    let leaf = &isa.leaves[first as usize];
    // The encoding for the builder's generation.
    let first_lit = Literal::u16_unsuffixed(first);
    let by_gen = if leaves.len() == 1 {
        quote!(&[])
    } else {
        let pairs = leaves.iter().map(|(g, l)| {
            let (v, l) = (plan.gens[*g].1, Literal::u16_unsuffixed(*l));
            quote!((#v, #l))
        });
        quote!(&[#(#pairs),*])
    };
    // Widths other fields decide are the method's const parameters.
    let width_param = |i: usize| format_ident!("N{}", i);
    let generic_widths: Vec<proc_macro2::Ident> = m
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.ty, ParamTy::Operand { kind, width: 0 } if plan.kinds[kind].sized))
        .map(|(i, _)| width_param(i))
        .collect();
    let param_ty = |(i, p): (usize, &Param)| -> TokenStream {
        match &p.ty {
            ParamTy::Operand { kind, width } => {
                let k = &plan.kinds[*kind];
                let id = format_ident!("{}", k.rust);
                if k.sized && *width == 0 {
                    let n = width_param(i);
                    quote!(impl Into<#id<#n>>)
                } else if k.sized {
                    let w = Literal::usize_unsuffixed(*width as usize);
                    quote!(impl Into<#id<#w>>)
                } else {
                    quote!(impl Into<#id>)
                }
            }
            ParamTy::Imm { imm } => {
                let t = format_ident!("{}", plan.imms[*imm].rust);
                quote!(::isa_runtime::build::Imm<imm::#t>)
            }
            ParamTy::Value { e } => {
                let t = format_ident!("{}", isa.enums[*e as usize].name.to_upper_camel_case());
                quote!(values::#t)
            }
        }
    };
    let operand_expr = |p: &Param, name: &proc_macro2::Ident| -> TokenStream {
        match &p.ty {
            ParamTy::Operand { .. } => quote!(#name.into().0),
            ParamTy::Imm { .. } => quote!(#name.operand()),
            ParamTy::Value { .. } => quote!(::isa_runtime::build::Operand::text(#name.text())),
        }
    };
    let pieces = m.template.iter().map(|p| match p {
        Piece::Text(s) => quote!(Text(#s)),
        Piece::Operand { n, write } => {
            let n = Literal::u8_unsuffixed(*n);
            quote!(Operand { n: #n, write: #write })
        }
        Piece::Option(o) => {
            let o = Literal::u8_unsuffixed(*o);
            quote!(Option(#o))
        }
    });
    let option_fields = m.options.iter().map(|o| {
        let (s, w, d) = (&o.set, &o.show, o.default);
        quote!((#s, #w, #d))
    });
    let form = forms.add(quote! {
        Form {
            leaf: #first_lit,
            by_gen: #by_gen,
            template: &[#(#pieces),*],
            options: &[#(#option_fields),*],
        }
    });
    // Docs: mnemonic, encoding, operands, latency class, generations.
    let sched = leaf.sched.map_or("none".to_string(), |s| isa.sched_classes[s as usize].name.to_string());
    let format = spec.lineage[first as usize].get(1).cloned().unwrap_or_else(|| leaf.key.to_string());
    let gens = leaves.iter().map(|&(g, _)| plan.gens[g].0.as_str()).collect::<Vec<_>>().join(", ");
    let operands = m
        .params
        .iter()
        .map(|p| {
            let what = match &p.ty {
                ParamTy::Operand { kind, width } => {
                    let k = &plan.kinds[*kind];
                    match (k.sized, width) {
                        (true, 0) => format!("{}<N> (N: as the other fields say)", k.rust),
                        (true, w) => format!("{}<{w}>", k.rust),
                        _ => k.rust.clone(),
                    }
                }
                ParamTy::Imm { imm } => format!("Imm<{}>", plan.imms[*imm].rust),
                ParamTy::Value { e } => format!("values::{}", isa.enums[*e as usize].name.to_upper_camel_case()),
            };
            format!("`{}`: {what}{}", p.name, if p.write { ", written" } else { "" })
        })
        .collect::<Vec<_>>()
        .join("; ");
    let opts_doc = if m.options.is_empty() {
        String::new()
    } else {
        format!(" Options: {}.", m.options.iter().map(|o| o.set.as_str()).collect::<Vec<_>>().join(", "))
    };
    let doc = format!(
        " `{}`: encoding `{}` (format `{format}`), scheduling class {sched}; generations {gens}. Operands: {}.{opts_doc}",
        leaf.name,
        leaf.key,
        if operands.is_empty() { "none".to_string() } else { operands }
    );
    let doc2 = if leaf.doc.is_empty() { String::new() } else { format!(" {}", leaf.doc) };
    // The `_to` shape: every operand given.
    let names: Vec<proc_macro2::Ident> = m.params.iter().map(|p| format_ident!("{}", p.name)).collect();
    let tys: Vec<TokenStream> = m.params.iter().enumerate().map(param_ty).collect();
    let generics = if generic_widths.is_empty() { quote!() } else { quote!(<#(const #generic_widths: usize),*>) };
    let exprs: Vec<TokenStream> = m.params.iter().zip(&names).map(|(p, n)| operand_expr(p, n)).collect();
    let push = quote! {
        let line = self.program.push_form(&forms::FORMS[#form], [#(#exprs),*]);
    };
    let (ret, ret_val) = if m.options.is_empty() {
        (quote!(), quote!(let _ = line;))
    } else {
        let i = opt_sets.iter().position(|s| *s == m.options).unwrap_or_else(|| {
            opt_sets.push(m.options.clone());
            opt_sets.len() - 1
        });
        let marker = opt_marker(&m.options, i);
        (
            quote!(-> With<'_, opts::#marker>),
            quote!(With { p: &mut self.program, line, _o: ::core::marker::PhantomData }),
        )
    };
    let to_name = if m.result().is_some() { format_ident!("{}_to", m.name) } else { format_ident!("{}", m.name) };
    let to_method = quote! {
        #[doc = #doc]
        #[doc = #doc2]
        pub fn #to_name #generics(&mut self #(, #names: #tys)*) #ret {
            #push
            #ret_val
        }
    };
    // The `new value` shape: the written operand allocated and returned.
    let new_method = m.result().map(|r| {
        let ParamTy::Operand { kind, width } = m.params[r].ty else { unreachable!("result() is an operand") };
        let k = &plan.kinds[kind];
        let Some(&c) = k.classes.first() else { return quote!() };
        let cid = class_ident(c);
        let w = if k.sized && width == 0 {
            let n = width_param(r);
            quote!(#n)
        } else {
            let w = Literal::usize_unsuffixed(if k.sized { width as usize } else { 1 });
            quote!(#w)
        };
        let name = format_ident!("{}", m.name);
        let rest: Vec<usize> = (0..m.params.len()).filter(|&i| i != r).collect();
        let names2: Vec<&proc_macro2::Ident> = rest.iter().map(|&i| &names[i]).collect();
        let tys2: Vec<&TokenStream> = rest.iter().map(|&i| &tys[i]).collect();
        let mut exprs2 = exprs.clone();
        exprs2[r] = quote!(::isa_runtime::build::Reg::<#cid, #w>::operand(dst));
        let doc3 = format!(
            " The result is a new value of class `{}`.",
            k.classes.first().map_or("", |&c| { spec.isa.machine.map_or("", |mc| mc.classes[c as usize].name) })
        );
        quote! {
            #[doc = #doc]
            #[doc = #doc3]
            pub fn #name #generics(&mut self #(, #names2: #tys2)*) -> Reg<#cid, #w> {
                let dst = self.program.value::<#cid, #w>();
                self.program.push_form(&forms::FORMS[#form], [#(#exprs2),*]);
                dst
            }
        }
    });
    quote!(#to_method #new_method)
}

/// Whether a field of this type is a number (a builder takes it as an
/// immediate).
fn numeric(ty: Ty) -> bool {
    matches!(ty, Ty::Uint | Ty::UintSat | Ty::Int | Ty::Hex | Ty::HexLit { .. } | Ty::Offset | Ty::UOffset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_identifiers() {
        assert_eq!(method_name("v_add_f32@e64"), "v_add_f32_e64");
        assert_eq!(method_name("add.f"), "add_f");
        assert_eq!(method_name("ldg.a-a7xx"), "ldg_a_a7xx");
        assert_eq!(method_name("if"), "if_");
        assert_eq!(ident_name("If"), "if_");
        assert_eq!(ident_name("SRC0"), "src0");
        assert_eq!(ident_name("3d"), "_3d");
    }

    fn m(name: &str, leaves: &[(usize, u16)], params: usize) -> Method {
        let params = (0..params)
            .map(|i| Param {
                name: format!("p{i}"),
                field: format!("P{i}"),
                ty: ParamTy::Operand { kind: 0, width: 1 },
                write: false,
            })
            .collect();
        Method {
            leaves: leaves.to_vec(),
            per_gen: false,
            name: name.to_string(),
            params,
            template: vec![],
            options: vec![],
        }
    }

    #[test]
    fn forms_merge_across_generations() {
        let key = |l: u16| format!("key{l}");
        // Same shape in two generations: one method over both.
        let out = merge_forms(vec![m("a", &[(0, 1)], 2), m("a", &[(1, 2)], 2)], key);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].leaves, [(0, 1), (1, 2)]);
        // Different shapes, generations apart: one method per generation.
        let out = merge_forms(vec![m("b", &[(0, 1)], 2), m("b", &[(1, 2)], 3)], key);
        assert!(out.iter().all(|m| m.per_gen && m.name == "b"));
        // Different shapes in the same generation: told apart by key.
        let out = merge_forms(vec![m("c", &[(0, 1)], 2), m("c", &[(0, 2)], 3)], key);
        let names: Vec<&str> = out.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["key1", "key2"]);
    }

    #[test]
    fn globs_match_mnemonics() {
        assert!(glob("*", "v_add_f32"));
        assert!(glob("*load*", "buffer_load_dword"));
        assert!(!glob("*load*", "buffer_store_dword"));
        assert!(glob("s_load*", "s_load_dwordx2"));
        assert!(!glob("s_load*", "s_buffer_load_dword"));
        assert!(glob("ds_read*", "ds_read_b32"));
        assert!(glob("a*b*c", "abc") && glob("a*b*c", "axxbyyc") && !glob("a*b*c", "acb"));
        assert!(glob("exact", "exact") && !glob("exact", "exactly"));
    }

    #[test]
    fn constant_expressions_fold() {
        let case = Case {
            when: None,
            display: &[],
            fields: &[
                Field { name: "W", src: Src::Expr(&[Op::Lit(2)]), ty: Ty::Uint },
                Field { name: "X", src: Src::Bits(&[]), ty: Ty::Uint },
            ],
            parse_only: false,
            displays: &[],
            syntaxes: 0,
        };
        assert_eq!(const_eval(&case, &[Op::Field(0), Op::Lit(2), Op::Bin(isa_runtime::BinOp::Mul)], 0), Some(4));
        assert_eq!(const_eval(&case, &[Op::Field(1)], 0), None);
        assert_eq!(const_eval(&case, &[Op::Gen], 0), None);
    }
}
