//! Expansion-time layout checks: every variant is placed for every value of the
//! parameters it reads (and every generation), with the runtime's own
//! [`Variant::layout`], so overlap, alignment, limits and the spec's invariants
//! are proven for all inputs before any code is generated. The same run finds
//! the arguments whose place never changes, which become `const`s.

use isa_runtime::abi::{Abi, AbiError, Env, Place, Variant};

use super::lower::{Lowered, VariantSites};
use crate::diag::{Diagnostic, Diags};

/// Most parameter combinations checked per variant; a wider range is a mistake
/// in the spec, not something to wait for.
pub const MAX_COMBINATIONS: u64 = 1 << 20;

/// Most arguments and array elements the checks of one variant look at,
/// over all its parameter combinations (a second or so of the macro's time).
pub const MAX_STEPS: u64 = 1 << 26;

/// Per stage, per variant, per block, per argument: its place when it is the
/// same for every parameter value.
pub type ConstPlaces = Vec<Vec<Vec<Vec<Option<Place>>>>>;

pub fn check(l: &Lowered, d: &mut Diags) -> ConstPlaces {
    let abi = l.abi;
    let mut out = Vec::new();
    for (si, s) in abi.stages.iter().enumerate() {
        let mut per_stage = Vec::new();
        for (vi, v) in s.variants.iter().enumerate() {
            per_stage.push(check_variant(abi, v, &l.sites[si][vi], d));
        }
        out.push(per_stage);
    }
    out
}

/// What is known so far about an argument's place.
#[derive(Clone, Copy, PartialEq)]
enum Seen {
    Nothing,
    Always(Place),
    Varies,
}

fn check_variant(
    abi: &'static Abi,
    v: &'static Variant,
    sites: &VariantSites,
    d: &mut Diags,
) -> Vec<Vec<Option<Place>>> {
    let ranges: Vec<(i64, i64)> =
        v.free.iter().map(|&k| (abi.params[k as usize].min, abi.params[k as usize].max)).collect();
    let gens: Vec<u32> =
        if abi.gens.is_empty() { vec![abi.default_gen] } else { abi.gens.iter().map(|g| g.value).collect() };
    let total = ranges.iter().fold(gens.len() as u64, |t, (lo, hi)| t.saturating_mul((hi - lo + 1) as u64));
    let mut seen: Vec<Vec<Seen>> = v.blocks.iter().map(|b| vec![Seen::Nothing; b.args.len()]).collect();
    let none = || v.blocks.iter().map(|b| vec![None; b.args.len()]).collect();
    // Each layout looks at every element of every argument, at most as
    // many as its file has units (see `Variant::layout`).
    let per_layout: u64 = v
        .blocks
        .iter()
        .flat_map(|b| b.args.iter().map(move |a| (b.file, a.count.is_some())))
        .map(|(f, array)| match array {
            true => gens.iter().map(|&g| abi.files[f as usize].units_in(g) as u64).max().unwrap_or(0).max(1),
            false => 1,
        })
        .sum();
    let steps = total.saturating_mul(per_layout.max(1));
    let too_wide = if total > MAX_COMBINATIONS {
        Some(format!("has {total} parameter combinations to check; the limit is {MAX_COMBINATIONS}"))
    } else if steps > MAX_STEPS {
        Some(format!(
            "may look at {steps} arguments and elements over its {total} parameter combinations; the limit is {MAX_STEPS}"
        ))
    } else {
        None
    };
    if let Some(what) = too_wide {
        let note = "narrow the `range` of its parameters, or the register files its arrays lie in";
        d.push(Diagnostic::new(sites.at.clone(), format!("variant `{}` {what}", v.name)).note(note));
        return none();
    }
    let mut applicable = false;
    for &gen_ in &gens {
        let mut combo: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        loop {
            let mut vals: Vec<i64> = abi.params.iter().map(|p| p.default).collect();
            for &(k, x) in v.set {
                vals[k as usize] = x;
            }
            for (&k, &x) in v.free.iter().zip(&combo) {
                vals[k as usize] = x;
            }
            if Env::new(gen_, &vals).holds(v.when) {
                applicable = true;
                match v.layout(abi, gen_, &vals) {
                    Ok(layout) => {
                        for (bi, b) in v.blocks.iter().enumerate() {
                            for (ai, a) in b.args.iter().enumerate() {
                                let here =
                                    layout.entries.iter().find(|e| e.block as usize == bi && e.arg as usize == ai);
                                let s = &mut seen[bi][ai];
                                *s = match (*s, here) {
                                    _ if a.count.is_some() => Seen::Varies,
                                    (Seen::Nothing, Some(e)) => Seen::Always(e.place),
                                    (Seen::Always(p), Some(e)) if p == e.place => Seen::Always(p),
                                    _ => Seen::Varies,
                                };
                            }
                        }
                    }
                    Err(e) => {
                        d.push(diagnostic(abi, v, sites, gen_, &vals, e));
                        return none();
                    }
                }
            }
            if !next(&mut combo, &ranges) {
                break;
            }
        }
    }
    if !applicable {
        d.push(Diagnostic::new(
            sites.at.clone(),
            format!("variant `{}` applies to no parameter values (see its `when`)", v.name),
        ));
    }
    seen.into_iter()
        .map(|b| b.into_iter().map(|s| if let Seen::Always(p) = s { Some(p) } else { None }).collect())
        .collect()
}

/// Steps `combo` to the next value (an odometer); false after the last.
fn next(combo: &mut [i64], ranges: &[(i64, i64)]) -> bool {
    for (c, (lo, hi)) in combo.iter_mut().zip(ranges) {
        if *c < *hi {
            *c += 1;
            return true;
        }
        *c = *lo;
    }
    false
}

/// A layout error as a diagnostic at the argument or invariant it concerns.
fn diagnostic(abi: &Abi, v: &Variant, sites: &VariantSites, gen_: u32, vals: &[i64], e: AbiError) -> Diagnostic {
    let arg = |b: u16, a: u16| sites.args.get(b as usize).and_then(|x| x.get(a as usize)).cloned();
    let at = match &e {
        AbiError::Overlap { block, arg: a, .. } => arg(*block, *a),
        AbiError::Misaligned { block, arg_index, .. }
        | AbiError::OverLimit { block, arg_index, .. }
        | AbiError::TooManyElements { block, arg_index, .. }
        | AbiError::UserDataTooFar { block, arg_index, .. } => arg(*block, *arg_index),
        AbiError::InvariantFailed { block_index, invariant, .. } => {
            sites.invariants.get(*block_index as usize).and_then(|x| x.get(*invariant as usize)).cloned()
        }
        _ => None,
    };
    let mut msg = format!("variant `{}`: {e}", v.name);
    let only_layout = v.free.is_empty() && abi.gens.is_empty();
    if !(matches!(e, AbiError::InvariantFailed { .. }) || only_layout) {
        msg.push_str(&format!(" (for {})", v.describe(abi, gen_, vals)));
    }
    Diagnostic::new(at.unwrap_or_else(|| sites.at.clone()), msg)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// Expands ABI text written to a temporary file; the diagnostics' messages.
    fn errors(name: &str, text: &str) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("isagen-abi-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path: PathBuf = dir.join(name);
        std::fs::write(&path, text).unwrap();
        match super::super::expand(&path) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(|d| format!("{}:{}: {}", d.loc.line, d.loc.col, d.message)).collect(),
        }
    }

    const HEAD: &str = "abi: t\nparams:\n  n: {range: 0..8}\nregister-files:\n  r: {unit-bits: 16, units: 32, register-units: 2, prefix: r, parts: [l, h], align: {32: 2}}\n";

    #[test]
    fn every_parameter_value_is_checked() {
        // Fits for n <= 7 only: the last element of n = 8 ends at unit 34.
        let e = errors(
            "range.yaml",
            &format!(
                "{HEAD}stages:\n  s:\n    variants:\n      v:\n        blocks:\n          b:\n            file: r\n            args:\n              - {{name: a, bits: 64, count: \"n\", at: \"4*i + 2\"}}\n"
            ),
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("14:24:") && e[0].contains("(for n = 8)"), "{e:?}");
    }

    #[test]
    fn auto_placement_aligns_and_invariants_read_size() {
        let ok = errors(
            "auto.yaml",
            &format!(
                "{HEAD}stages:\n  s:\n    variants:\n      v:\n        blocks:\n          b:\n            file: r\n            args:\n              - {{name: h, bits: 16}}\n              - {{name: w, bits: 32}}\n            invariants: [{{check: \"size == 4\"}}]\n"
            ),
        );
        assert!(ok.is_empty(), "{ok:?}");
    }

    #[test]
    fn variant_that_never_applies_and_bad_names() {
        let e = errors(
            "never.yaml",
            &format!(
                "{HEAD}stages:\n  s:\n    variants:\n      type:\n        blocks:\n          b: {{file: q, args: [{{name: x, bits: 8, at: i}}]}}\n"
            ),
        );
        let all = e.join("\n");
        assert!(all.contains("becomes `type`"), "{all}");
        assert!(all.contains("no register file `q`"), "{all}");
        assert!(all.contains("unknown name `i`"), "{all}");
        let e =
            errors("never.yaml", &format!("{HEAD}stages:\n  s:\n    variants:\n      v:\n        when: \"n > 8\"\n"));
        assert!(e.join("").contains("applies to no parameter values"), "{e:?}");
    }

    #[test]
    fn groups_words_and_slot_tables() {
        let e = errors(
            "misc.yaml",
            "abi: t\nregister-files:\n  r: {unit-bits: 32, units: 8, prefix: r}\narg-groups:\n  g: [{use: g}]\nwords:\n  w: {bits: 8, fields: {a: {bits: 0..3}, b: {bits: 3..4}}}\nslot-tables:\n  t: {dwords: 8, entries: {x: {slot: 0, dwords: 4}, y: {slot: \"i\", count: 2, dwords: 4}}}\nstages:\n  s:\n    variants:\n      v:\n        blocks:\n          b: {file: r, args: [{use: g}, {name: p, bits: 16, word: w}]}\n",
        );
        let all = e.join("\n");
        assert!(all.contains("uses itself"), "{all}");
        assert!(all.contains("fields `a` and `b` of word `w` overlap"), "{all}");
        assert!(all.contains("slots of `x` and `y` overlap"), "{all}");
        assert!(all.contains("word `w` has 8 bits but argument `p` has 16"), "{all}");
    }
}
