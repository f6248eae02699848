//! Other texts the assembler reads for enum values (`enum-accepts:` in a
//! spec), which the printer never writes.
//!
//! LLVM's AMDGPU parser reads `mul:1` and `div:1` for GCN's output modifier
//! 0, which it prints as nothing. An enum's `display` is what the printer
//! writes and the canonical reading expects; these texts sit beside it in
//! [`Enum::also`], read only by the assembler's general reading. They are
//! checked as displays are: each names a value the enum has, and no two
//! texts of the enum are the same, so a text still reads as one value.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use isa_runtime::{Enum, EnumValue};

use crate::diag::Diags;
use crate::lower::leak_str;
use crate::schema::EnumAccepts;
use crate::yaml::{S, loc};

/// Sets the other texts of the enums `accepts` names (by `index`, from the
/// enum's name to its place in `enums`), reporting what is wrong with each
/// to `d`.
pub fn apply(
    d: &mut Diags,
    accepts: Vec<(PathBuf, S<String>, S<EnumAccepts>)>,
    index: &HashMap<String, u16>,
    enums: &mut [Enum],
) {
    let mut given = HashSet::new();
    for (path, name, values) in accepts {
        let at = loc(&path, &name);
        let Some(en) = index.get(&name.value).and_then(|&e| enums.get_mut(e as usize)) else {
            d.err(&at, format!("enum-accepts: there is no enum `{}`", name.value));
            continue;
        };
        if en.set.is_some() {
            d.err(&at, format!("enum-accepts: `{}` is a set, whose names are read in any order already", name.value));
            continue;
        }
        if !given.insert(name.value.clone()) {
            d.err(&at, format!("enum-accepts: `{}` is given twice", name.value));
            continue;
        }
        let mut also = Vec::new();
        for (value, texts) in values.value {
            for text in texts {
                match refusal(en, &also, value.value, &text.value) {
                    Some(why) => d.err(&loc(&path, &text), format!("enum-accepts: {why}")),
                    None => also.push(EnumValue { value: value.value, display: leak_str(&text.value) }),
                }
            }
        }
        en.also = Box::leak(also.into_boxed_slice());
    }
}

/// Why `text` may not also be read as `value` of `en`, whose other texts
/// are `also` so far; `None` when it may.
fn refusal(en: &Enum, also: &[EnumValue], value: u64, text: &str) -> Option<String> {
    let name = en.name;
    if !en.values.iter().any(|v| v.value == value) {
        return Some(format!("enum `{name}` has no value {value}"));
    }
    let same = en.values.iter().chain(also).find(|v| v.display == text)?;
    Some(match same.value == value {
        true => format!("enum `{name}`: value {value} reads \"{text}\" already"),
        false => format!(
            "enum `{name}`: \"{text}\" is a text of value {} already; the assembler could not tell {} and {value} apart",
            same.value, same.value
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OMOD: Enum = Enum {
        name: "omod",
        values: &[
            EnumValue { value: 0, display: "" },
            EnumValue { value: 1, display: " mul:2" },
            EnumValue { value: 3, display: " div:2" },
        ],
        also: &[],
        set: None,
    };

    #[test]
    fn a_new_text_of_a_value_the_enum_has_is_read() {
        assert_eq!(refusal(&OMOD, &[], 0, " mul:1"), None);
        let also = [EnumValue { value: 0, display: " mul:1" }];
        assert_eq!(refusal(&OMOD, &also, 0, " div:1"), None);
    }

    #[test]
    fn a_value_it_lacks_or_a_text_it_has_is_refused() {
        assert_eq!(refusal(&OMOD, &[], 2, " mul:4").as_deref(), Some("enum `omod` has no value 2"));
        let clash = refusal(&OMOD, &[], 0, " mul:2").expect("value 1's display");
        assert!(clash.contains("text of value 1") && clash.contains("tell 1 and 0 apart"), "{clash}");
        let also = [EnumValue { value: 0, display: " mul:1" }];
        assert!(refusal(&OMOD, &also, 3, " mul:1").is_some_and(|w| w.contains("tell 0 and 3 apart")));
        assert!(refusal(&OMOD, &also, 0, " mul:1").is_some_and(|w| w.contains("reads \" mul:1\" already")));
        assert!(refusal(&OMOD, &[], 0, "").is_some_and(|w| w.contains("already")));
    }
}
