//! The one place that knows the YAML library. Everything else sees [`S<T>`]
//! (a value with its location) and [`Diagnostic`]s.

use std::path::Path;

use crate::diag::{Diagnostic, Loc};

pub use serde_saphyr::Spanned;

/// Largest spec file accepted; a bigger one is almost certainly a mistake and
/// would only slow every build down.
pub const MAX_FILE_BYTES: usize = 8 << 20;

/// A value and where it was written.
pub type S<T> = Spanned<T>;

/// Location of a spanned value in `file`.
pub fn loc<T>(file: &Path, s: &S<T>) -> Loc {
    Loc::new(file, s.referenced.line(), s.referenced.column())
}

/// Reads and deserializes one spec file.
pub fn load<T: serde::de::DeserializeOwned>(file: &Path) -> Result<T, Diagnostic> {
    let at_start = Loc::new(file, 1, 1);
    let bytes =
        std::fs::read(file).map_err(|e| Diagnostic::new(at_start.clone(), format!("cannot read spec file: {e}")))?;
    parse(file, &bytes)
}

/// Deserializes spec text (already read from `file`).
pub fn parse<T: serde::de::DeserializeOwned>(file: &Path, bytes: &[u8]) -> Result<T, Diagnostic> {
    let at_start = Loc::new(file, 1, 1);
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::new(
            at_start,
            format!("spec file is {} bytes; the limit is {MAX_FILE_BYTES}", bytes.len()),
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
    serde_saphyr::from_str::<T>(text).map_err(|e| {
        let (line, col) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let msg = e.without_snippet().to_string();
        // The library appends "at line L, column C"; the location is ours to print.
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Diagnostic::new(Loc::new(file, line.max(1), col.max(1)), msg)
    })
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

    #[test]
    fn alias_bomb_is_refused() {
        let mut s = String::from("a0: &a0 [1,1,1,1,1,1,1,1,1,1]\n");
        for i in 1..8 {
            let p = i - 1;
            s.push_str(&format!("a{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"));
        }
        s.push_str("name: x\n");
        assert!(parse::<T>(Path::new("x.yaml"), s.as_bytes()).is_err());
    }
}
