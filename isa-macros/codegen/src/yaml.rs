//! The one place that knows the YAML library. Everything else sees [`S<T>`]
//! (a value with its location) and [`Diagnostic`]s.
//!
//! Spec files are trusted more than network input but less than code: a
//! hand-edited file with a runaway alias, a generator gone wrong or a binary
//! file named by mistake must end in a located error, not a proc macro that
//! hangs the build or eats the machine's memory. The limits below are set for
//! that. Each is about a hundred times what the largest spec in `isa-specs/`
//! and `abi-specs/` uses (measured 2026-11-24 with serde-saphyr's budget
//! report: `gcn/vop3.yaml`, 32 KB, 6,432 parser events, 5,319 nodes, 60
//! aliases, 27 anchors, 1,441 events recorded for anchors, 71 merge keys,
//! nesting depth 9), so a real spec never meets them.

use std::io::Read;
use std::path::Path;

use serde_saphyr::options::AliasLimits;
use serde_saphyr::{Budget, Options};

use crate::diag::{Diagnostic, Loc};

pub use serde_saphyr::Spanned;

/// Largest spec file accepted; a bigger one is almost certainly a mistake and
/// would only slow every build down. Reading stops one byte past it, so a huge
/// file costs no more memory than this.
pub const MAX_FILE_BYTES: usize = 8 << 20;

/// Deepest nesting of mappings and sequences. Specs nest 9 deep; the parser and
/// the deserializer recurse once per level, so 10,000 levels could overflow the
/// proc macro's stack.
pub const MAX_DEPTH: usize = 64;

/// Most parser events (every scalar, start and end) in one file, aliases'
/// replays included: bounds the time spent on one file.
pub const MAX_EVENTS: usize = 1_000_000;

/// Most nodes (scalars, mappings, sequences) in one file.
pub const MAX_NODES: usize = 500_000;

/// Most alias uses (`*name`), and most anchors (`&name`), in one file. Specs
/// use anchors and merge keys (`<<: *name`) to share operand lists.
pub const MAX_ALIASES: usize = 10_000;

/// Most events replayed from aliases in one file. This is the alias-bomb
/// ("billion laughs") limit: nine levels of ten aliases each are a billion
/// scalars written in a few hundred bytes, and replaying stops here instead.
pub const MAX_REPLAYED_EVENTS: usize = 500_000;

/// The options every spec file is read with.
fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_reader_input_bytes = Some(MAX_FILE_BYTES);
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_events = MAX_EVENTS;
    budget.max_nodes = MAX_NODES;
    budget.max_aliases = MAX_ALIASES;
    budget.max_anchors = MAX_ALIASES;
    budget.max_recorded_anchor_events = MAX_REPLAYED_EVENTS;
    budget.max_recorded_anchor_bytes = MAX_FILE_BYTES;
    // Text can only grow past the file's size through aliases.
    budget.max_total_scalar_bytes = 4 * MAX_FILE_BYTES;
    budget.max_merge_keys = MAX_ALIASES;
    // The replay limit bounds an alias bomb's work; the library's extra
    // heuristic (at most ten aliases per anchor) would refuse a spec that uses
    // one shared operand list a hundred times.
    budget.enforce_alias_anchor_ratio = false;
    let mut alias_limits = AliasLimits::default();
    alias_limits.max_total_replayed_events = MAX_REPLAYED_EVENTS;
    alias_limits.max_replay_stack_depth = MAX_DEPTH;
    let mut options = Options::default();
    options.budget = Some(budget);
    options.alias_limits = alias_limits;
    options
}

/// A value and where it was written.
pub type S<T> = Spanned<T>;

/// Location of a spanned value in `file`.
pub fn loc<T>(file: &Path, s: &S<T>) -> Loc {
    Loc::new(file, s.referenced.line(), s.referenced.column())
}

/// How spec files are read: the file system for the macros and `cargo xtask`;
/// a fuzzer or a test passes a closure that serves bytes from memory.
pub type Reader<'a> = dyn FnMut(&Path) -> std::io::Result<Vec<u8>> + 'a;

/// Reads `file` from the file system, stopping one byte past
/// [`MAX_FILE_BYTES`] (so [`parse`] reports a huge file without holding it).
pub fn read_file(file: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(file).and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))?;
    Ok(bytes)
}

/// Reads and deserializes one spec file.
pub fn load<T: serde::de::DeserializeOwned>(file: &Path) -> Result<T, Diagnostic> {
    load_with(file, &mut read_file)
}

/// [`load`], reading through `read`.
pub fn load_with<T: serde::de::DeserializeOwned>(file: &Path, read: &mut Reader) -> Result<T, Diagnostic> {
    let bytes = read(file).map_err(|e| Diagnostic::new(Loc::new(file, 1, 1), format!("cannot read spec file: {e}")))?;
    parse(file, &bytes)
}

/// Deserializes spec text (already read from `file`).
pub fn parse<T: serde::de::DeserializeOwned>(file: &Path, bytes: &[u8]) -> Result<T, Diagnostic> {
    let at_start = Loc::new(file, 1, 1);
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            at_start,
            format!("spec file is larger than {MAX_FILE_BYTES} bytes, the limit for one file"),
        )
        .note("split the spec into several files listed under `files:`"));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(bytes, e.valid_up_to());
        Diagnostic::new(Loc::new(file, line, col), "spec file is not valid UTF-8")
    })?;
    if let Some(i) = text.find('\0') {
        let (line, col) = line_col(bytes, i);
        return Err(Diagnostic::new(Loc::new(file, line, col), "spec file contains a NUL byte"));
    }
    serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| {
        let (line, col) = e.location().map_or((1, 1), |l| (l.line().max(1), l.column().max(1)));
        let msg = over_limit(&e).unwrap_or_else(|| {
            let msg = e.without_snippet().to_string();
            // The library appends "at line L, column C"; the location is ours to print.
            let msg = match msg.find(" at line ") {
                Some(i) => msg[..i].to_string(),
                None => msg,
            };
            explain_integer(&msg, scalar_at(text, line, col)).unwrap_or(msg)
        });
        Diagnostic::new(Loc::new(file, line, col), msg)
    })
}

/// Our words for a limit of [`options`] that the file ran into; the library's
/// own are `Debug` output ("budget breached: Depth { depth: 65 }").
fn over_limit(e: &serde_saphyr::Error) -> Option<String> {
    use serde_saphyr::Error as E;
    use serde_saphyr::budget::BudgetBreach as B;
    let mut e = e;
    while let E::AliasError { error, .. } | E::WithSnippet { error, .. } = e {
        e = error;
    }
    let bomb = || format!("aliases expand to more than {MAX_REPLAYED_EVENTS} events (an alias bomb?)");
    Some(match e {
        E::Budget { breach, .. } => match breach {
            B::Depth { .. } => format!("nested deeper than {MAX_DEPTH} levels"),
            B::Events { .. } => format!("more than {MAX_EVENTS} YAML events in one file"),
            B::Nodes { .. } => format!("more than {MAX_NODES} YAML nodes in one file"),
            B::Aliases { .. } => format!("more than {MAX_ALIASES} aliases in one file"),
            B::Anchors { .. } => format!("more than {MAX_ALIASES} anchors in one file"),
            B::MergeKeys { .. } => format!("more than {MAX_ALIASES} merge keys in one file"),
            B::RecordedAnchorEvents { .. } | B::RecordedAnchorBytes { .. } | B::ScalarBytes { .. } => bomb(),
            other => format!("YAML limit reached: {other:?}"),
        },
        E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayCounterOverflow { .. } => bomb(),
        E::AliasReplayStackDepthExceeded { .. } => format!("aliases nested deeper than {MAX_DEPTH} levels"),
        _ if e.to_string().starts_with("recursion limit exceeded") => {
            format!("nested deeper than {MAX_DEPTH} levels")
        }
        _ => return None,
    })
}

/// The library says only "invalid u32" for a number that does not fit; say
/// which text and which range.
fn explain_integer(msg: &str, scalar: &str) -> Option<String> {
    let ty = msg.strip_prefix("invalid ")?.split_whitespace().next()?;
    let range = match ty {
        "u8" => format!("0 to {}", u8::MAX),
        "u16" => format!("0 to {}", u16::MAX),
        "u32" => format!("0 to {}", u32::MAX),
        "u64" => format!("0 to {}", u64::MAX),
        "i8" => format!("{} to {}", i8::MIN, i8::MAX),
        "i16" => format!("{} to {}", i16::MIN, i16::MAX),
        "i32" => format!("{} to {}", i32::MIN, i32::MAX),
        "i64" => format!("{} to {}", i64::MIN, i64::MAX),
        _ => return None,
    };
    Some(format!("`{scalar}` is not a whole number from {range} ({msg})"))
}

/// The plain scalar that starts at `line`:`col` (1-based, in characters), cut
/// short when long.
fn scalar_at(text: &str, line: u64, col: u64) -> &str {
    let Some(l) = text.lines().nth(line as usize - 1) else { return "" };
    let start = l.char_indices().nth(col as usize - 1).map_or(l.len(), |(i, _)| i);
    let rest = &l[start..];
    let end = rest.find([',', ']', '}', '#']).unwrap_or(rest.len());
    let s = rest[..end].trim_end();
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn line_col(bytes: &[u8], offset: usize) -> (u64, u64) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct T {
        name: String,
    }

    #[test]
    fn unknown_key_has_location() {
        let e = parse::<T>(Path::new("x.yaml"), b"name: a\nnmae: b\n").unwrap_err();
        assert_eq!((e.loc.line, e.loc.col), (2, 1));
        assert!(e.message.contains("unknown field `nmae`"), "{}", e.message);
    }

    #[test]
    fn invalid_utf8_and_nul() {
        let e = parse::<T>(Path::new("x.yaml"), b"name: a\n\xff\n").unwrap_err();
        assert_eq!(e.loc.line, 2);
        assert!(e.message.contains("UTF-8"));
        let e = parse::<T>(Path::new("x.yaml"), b"name: a\0").unwrap_err();
        assert!(e.message.contains("NUL"));
    }

    /// Reads everything, as the most permissive spec type would: the worst
    /// case for the limits, since nothing stops early on an unknown key.
    fn parse_any(text: &str) -> Result<serde::de::IgnoredAny, Diagnostic> {
        parse(Path::new("x.yaml"), text.as_bytes())
    }

    #[test]
    fn alias_bomb_is_refused() {
        // Billion laughs: nine levels of nine aliases, 387,420,489 scalars.
        let mut s = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..10 {
            let p = i - 1;
            s.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        let e = parse_any(&s).unwrap_err();
        assert!(e.message.contains("aliases expand to more than 500000 events"), "{e}");
        assert!(e.loc.line > 1, "{e}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let flow = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
        let e = parse_any(&flow).unwrap_err();
        assert_eq!(e.message, "nested deeper than 64 levels");
        assert_eq!(e.loc.line, 1, "{e}");
        let block = format!("a:\n  {}x\n", "- ".repeat(10_000));
        let e = parse_any(&block).unwrap_err();
        assert_eq!(e.message, "nested deeper than 64 levels");
        assert_eq!(e.loc.line, 2, "{e}");
    }

    #[test]
    fn oversized_text_is_refused_before_parsing() {
        let mut s = "name: a\n#".to_string();
        s.push_str(&"x".repeat(MAX_FILE_BYTES));
        let e = parse::<T>(Path::new("x.yaml"), s.as_bytes()).unwrap_err();
        assert!(e.message.contains("larger than"), "{e}");
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct N {
        a: u32,
        b: i64,
    }

    #[test]
    fn integers_past_their_type_name_the_text_and_range() {
        let e = parse::<N>(Path::new("x.yaml"), b"a: 1\nb: 99999999999999999999999\n").unwrap_err();
        assert_eq!((e.loc.line, e.loc.col), (2, 4));
        assert!(e.message.contains("`99999999999999999999999`"), "{e}");
        assert!(e.message.contains("-9223372036854775808 to 9223372036854775807"), "{e}");
        let e = parse::<N>(Path::new("x.yaml"), b"a: [1, 2]\n").unwrap_err();
        assert!(!e.message.contains("whole number"), "{e}");
        let e = parse::<N>(Path::new("x.yaml"), b"a: 4294967296 # one past\nb: 0\n").unwrap_err();
        assert!(e.message.starts_with("`4294967296` is not a whole number from 0 to 4294967295"), "{e}");
    }

    #[test]
    fn real_sharing_still_loads() {
        // What the AGX and GCN specs do: anchors and merge keys.
        let v = parse_any("a: &x {p: 1, q: [2, 3]}\nb: {<<: *x, r: 4}\nc: *x\n");
        assert!(v.is_ok());
    }
}
