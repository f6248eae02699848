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
    /// terminals (the xtask and CLI path; compile errors use `Display`).
    pub fn render_with_source(&self, source: &str) -> String {
        let mut s = self.to_string();
        if let Some(line) = source.lines().nth(self.loc.line.saturating_sub(1) as usize) {
            let n = self.loc.line.to_string();
            let pad = " ".repeat(n.len());
            let caret = " ".repeat(self.loc.col.saturating_sub(1) as usize);
            s.push_str(&format!("\n{pad} |\n{n} | {line}\n{pad} | {caret}^"));
        }
        s
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
