//! Texts appended a fixed number of bytes at a time.
//!
//! A printed line is a few short texts (a mnemonic, separators, operands),
//! each appended with a copy whose length varies from text to text; the
//! copy branches on that length, and varied texts mispredict it. A text
//! kept inside a longer string (an operand's text in the printer's memory)
//! is appended with the bytes after it, a fixed [`PAD`] of them, and the
//! line cut back to the text's end: a little more copying, and the copy's
//! branches always go the same way. (A case's own texts, the mnemonic and
//! separators, gained nothing measurable this way: each call site copies
//! the same few lengths.)

/// Bytes appended with a text of at most this many.
pub const PAD: usize = 31;

/// A text: the first `len` bytes of `padded`, which goes on past it to
/// [`PAD`] bytes when the string it is kept in does.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    padded: &'a str,
    len: usize,
}

impl<'a> Text<'a> {
    /// The text at `at..at + len` of `kept`, if that is a text of it.
    #[inline(always)]
    pub fn within(kept: &'a str, at: usize, len: usize) -> Option<Text<'a>> {
        // Past `kept`'s end, or cutting a character: the text alone.
        let padded = kept.get(at..at + len.max(PAD)).or_else(|| kept.get(at..at + len))?;
        padded.is_char_boundary(len).then_some(Text { padded, len })
    }

    #[cfg(test)]
    pub fn as_str(self) -> &'a str {
        &self.padded[..self.len]
    }

    /// Appends the text to `out`.
    #[inline(always)]
    pub fn push_to(self, out: &mut String) {
        let end = out.len() + self.len;
        // Of a known length, the copy is a few moves in line rather than a
        // call that branches on the length.
        match self.padded.len() {
            PAD => out.push_str(&self.padded[..PAD]),
            _ => out.push_str(self.padded),
        }
        out.truncate(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_appends_itself_alone() {
        let kept = "v1s[4:5]0x3f800000, é".to_string() + &"x".repeat(40);
        let cases = [(0, 2, "v1"), (2, 6, "s[4:5]"), (8, 10, "0x3f800000"), (18, 2, ", "), (20, 2, "é"), (0, 0, "")];
        for (at, len, want) in cases {
            let t = Text::within(&kept, at, len).unwrap();
            assert_eq!(t.as_str(), want);
            let mut out = String::from("> ");
            t.push_to(&mut out);
            assert_eq!(out, format!("> {want}"));
        }
        // At the string's end, and longer than the pad.
        let end = kept.len() - 3;
        let mut out = String::new();
        Text::within(&kept, end, 3).unwrap().push_to(&mut out);
        assert_eq!(out, "xxx");
        let long = "y".repeat(PAD + 9);
        let mut out = String::new();
        Text::within(&long, 0, long.len()).unwrap().push_to(&mut out);
        assert_eq!(out, long);
        // Not a text of the string: outside it, or cutting `é`.
        assert!(Text::within(&kept, kept.len() - 1, 2).is_none());
        assert!(Text::within(&kept, 21, 1).is_none());
    }
}
