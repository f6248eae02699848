//! Sets of named bits (`sets:` in a spec): enums whose values are any subset
//! of a few named bits, written as a list of the names (`gpr_idx(SRC0,DST)`).
//!
//! A set lowers to an ordinary [`Enum`](isa_runtime::Enum) holding every
//! subset with the text the printer writes (names lowest bit first), so the
//! printer, the decoder's validity check, the sampler and the builders need
//! nothing new; the [`SetSyntax`] it carries lets the assembler read the names
//! in any order, as LLVM's AMDGPU parser does.

use std::collections::HashSet;
use std::path::Path;

use isa_runtime::{EnumValue, SetSyntax};

use crate::diag::Diags;
use crate::lower::leak_str;
use crate::schema::SetSpec;
use crate::yaml::loc;

/// More names than this would list too many subsets for a table: 2^8 = 256.
pub const MAX_NAMES: usize = 8;

/// The checked syntax of set `name`, or `None` after reporting what is wrong.
pub fn set_syntax(d: &mut Diags, path: &Path, name: &str, spec: &SetSpec) -> Option<SetSyntax> {
    let errors = d.list.len();
    if spec.bits.is_empty() {
        d.err(&loc(path, &spec.open), format!("set `{name}`: `bits:` names no bit"));
    }
    if spec.bits.len() > MAX_NAMES {
        d.err(
            &loc(path, &spec.open),
            format!(
                "set `{name}`: {} names would make {} values; a set has at most {MAX_NAMES} names",
                spec.bits.len(),
                1u64 << spec.bits.len().min(63)
            ),
        );
    }
    if spec.separator.value.is_empty() || spec.close.value.is_empty() {
        let at = if spec.separator.value.is_empty() { &spec.separator } else { &spec.close };
        d.err(
            &loc(path, at),
            format!("set `{name}`: `separator:` and `close:` must not be empty, or the names would run together"),
        );
    }
    let mut names: Vec<(u32, &'static str)> = Vec::new();
    let mut seen_bits = HashSet::new();
    let mut seen_names = HashSet::new();
    for (bit, n) in &spec.bits {
        if bit.value >= 64 {
            d.err(&loc(path, bit), format!("set `{name}`: bit {} is past bit 63", bit.value));
        }
        if !seen_bits.insert(bit.value) {
            d.err(&loc(path, bit), format!("set `{name}`: bit {} is named twice", bit.value));
        }
        let text = n.value.as_str();
        let bad_char = text.chars().any(|c| c.is_whitespace());
        let clash =
            [&spec.separator.value, &spec.close.value].into_iter().find(|t| !t.is_empty() && text.contains(t.as_str()));
        if text.is_empty() || bad_char {
            d.err(&loc(path, n), format!("set `{name}`: the name of bit {} is empty or holds white space", bit.value));
        } else if let Some(t) = clash {
            d.err(&loc(path, n), format!("set `{name}`: the name `{text}` holds `{t}`, which ends a name"));
        }
        if !seen_names.insert(text) {
            d.err(&loc(path, n), format!("set `{name}`: two bits are named `{text}`"));
        }
        names.push((bit.value, leak_str(text)));
    }
    if d.list.len() > errors {
        return None;
    }
    names.sort_by_key(|&(b, _)| b);
    Some(SetSyntax {
        open: leak_str(&spec.open.value),
        separator: leak_str(&spec.separator.value),
        close: leak_str(&spec.close.value),
        names: Box::leak(names.into_boxed_slice()),
    })
}

/// Every subset of the set's bits, in order of the subsets' index (bit `i`
/// of the index picks the `i`-th name), each with its printed text.
pub fn set_values(set: &SetSyntax) -> Vec<EnumValue> {
    (0u32..1 << set.names.len())
        .map(|pick| {
            let chosen: Vec<&(u32, &str)> =
                set.names.iter().enumerate().filter(|(i, _)| pick >> i & 1 == 1).map(|(_, n)| n).collect();
            let value = chosen.iter().fold(0u64, |v, &&(b, _)| v | 1 << b);
            let text: Vec<&str> = chosen.iter().map(|&&(_, n)| n).collect();
            let display = format!("{}{}{}", set.open, text.join(set.separator), set.close);
            EnumValue { value, display: leak_str(&display) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax() -> SetSyntax {
        SetSyntax { open: "m(", separator: ",", close: ")", names: &[(0, "A"), (1, "B"), (3, "D")] }
    }

    #[test]
    fn every_subset_prints_lowest_bit_first() {
        let got: Vec<(u64, &str)> = set_values(&syntax()).iter().map(|v| (v.value, v.display)).collect();
        assert_eq!(
            got,
            [
                (0, "m()"),
                (1, "m(A)"),
                (2, "m(B)"),
                (3, "m(A,B)"),
                (8, "m(D)"),
                (9, "m(A,D)"),
                (10, "m(B,D)"),
                (11, "m(A,B,D)")
            ]
        );
    }
}
