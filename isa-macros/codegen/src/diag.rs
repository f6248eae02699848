//! Diagnostics: every problem in a spec, with the YAML file, line and column.

use std::fmt;
use std::path::{Path, PathBuf};

/// A place in a spec file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Loc {
    pub file: PathBuf,
    pub line: u64,
    pub col: u64,
}

impl Loc {
    pub fn new(file: &Path, line: u64, col: u64) -> Self {
        Loc { file: file.to_path_buf(), line, col }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// One problem: where, what, and notes on how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub loc: Loc,
    pub message: String,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic { loc, message: message.into(), notes: Vec::new() }
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Renders with the offending source line and a caret under the column, for
    /// terminals (the xtask and CLI path; compile errors use `Display`). Notes
    /// follow the snippet. Tabs before the column are kept in the caret line so
    /// that the caret lines up.
    pub fn render_with_source(&self, source: &str) -> String {
        let mut s = format!("{}: {}", self.loc, self.message);
        if self.loc.line > 0
            && let Some(line) = source.lines().nth(self.loc.line as usize - 1)
        {
            let n = self.loc.line.to_string();
            let pad = " ".repeat(n.len());
            let caret: String = line
                .chars()
                .take(self.loc.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            s.push_str(&format!("\n{pad} |\n{n} | {line}\n{pad} | {caret}^"));
        }
        for n in &self.notes {
            s.push_str(&format!("\n  note: {n}"));
        }
        s
    }

    /// [`render_with_source`](Self::render_with_source) with the source read
    /// from the diagnostic's file; just the message when it cannot be read.
    pub fn render(&self) -> String {
        match std::fs::read_to_string(&self.loc.file) {
            Ok(src) => self.render_with_source(&src),
            Err(_) => self.to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)?;
        for n in &self.notes {
            write!(f, "\n  note: {n}")?;
        }
        Ok(())
    }
}

/// Collects diagnostics so that a run reports every error, not just the first.
#[derive(Default, Debug)]
pub struct Diags {
    pub list: Vec<Diagnostic>,
}

impl Diags {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    pub fn err(&mut self, loc: &Loc, message: impl Into<String>) {
        self.list.push(Diagnostic::new(loc.clone(), message));
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_column() {
        let d =
            Diagnostic::new(Loc::new(Path::new("t/isa.yaml"), 2, 7), "unknown field `nmae`").note("expected `name`");
        let src = "isa: t\nfoo:  nmae: 1\n";
        assert_eq!(
            d.render_with_source(src),
            "t/isa.yaml:2:7: unknown field `nmae`\n  |\n2 | foo:  nmae: 1\n  |       ^\n  note: expected `name`"
        );
    }

    #[test]
    fn tabs_keep_the_caret_aligned_and_missing_lines_give_the_message() {
        let d = Diagnostic::new(Loc::new(Path::new("x.yaml"), 1, 3), "bad");
        assert!(d.render_with_source("\tab\n").ends_with("1 | \tab\n  | \t ^"), "{}", d.render_with_source("\tab"));
        let far = Diagnostic::new(Loc::new(Path::new("x.yaml"), 9, 1), "bad");
        assert_eq!(far.render_with_source("one line\n"), "x.yaml:9:1: bad");
        // An unreadable file still gives the located message.
        let gone = Diagnostic::new(Loc::new(Path::new("/nonexistent/x.yaml"), 1, 1), "bad");
        assert_eq!(gone.render(), "/nonexistent/x.yaml:1:1: bad");
    }
}
