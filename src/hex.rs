//! Reading and writing instruction bytes as text.

use isa_specs::runtime::digits::{push_ascii, push_hex};

/// How machine code is written on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 64-bit words as 16 hex digits, most significant first (`0x` optional);
    /// several words on a line follow each other in memory.
    Words64,
    /// Bytes in memory order: `0x02,0x07`, `02 07` or `0207`.
    Bytes,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "words64" => Some(Format::Words64),
            "bytes" => Some(Format::Bytes),
            _ => None,
        }
    }
}

/// The bytes a line holds, in memory order. An error names the column (in
/// characters, from 1) of the token it is about.
pub fn read_line(line: &str, format: Format) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    read_line_into(line, format, &mut out)?;
    Ok(out)
}

/// [`read_line`] into `out`, which it clears first: a batch reads every line
/// into one buffer.
pub fn read_line_into(line: &str, format: Format, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    if read_plain(line.as_bytes(), format, out, false) {
        return Ok(());
    }
    out.clear();
    read_general(line, format, out)
}

/// The bytes of a line not yet checked to be text (its line end removed),
/// into `out`, when it is spelled the usual way (see `read_plain`) and
/// holds no control character but the tab; else false, and the line is to
/// be checked and read by [`read_line_into`], which words any error. Such a
/// line is printable ASCII, so a batch need not check it first.
pub fn read_plain_bytes(line: &[u8], format: Format, out: &mut Vec<u8>) -> bool {
    out.clear();
    read_plain(line, format, out, true)
}

/// What an ASCII byte is to the reader: a hex digit's value, [`SEP`] for a
/// byte that parts tokens (white space, commas, brackets), [`OTHER`] for any
/// other byte. One load per byte where comparisons would branch.
static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b',' | b'[' | b']' => SEP,
            _ => OTHER,
        };
        c += 1;
    }
    t
};
const SEP: u8 = 16;
const OTHER: u8 = 32;

/// `0x??,0x?` in the first eight bytes of two tokens (little-endian): the
/// bytes [`TWO_TOKENS_MASK`] keeps, with the `x` of either case (`X` once
/// bit 5 is cleared).
const TWO_TOKENS: u64 = u64::from_le_bytes([b'0', b'X', 0, 0, b',', b'0', b'X', 0]);
const TWO_TOKENS_MASK: u64 = u64::from_le_bytes([0xff, 0xdf, 0, 0, 0xff, 0xff, 0xdf, 0]);

/// Whether `c` parts tokens, in ASCII.
fn separator(c: u8) -> bool {
    CLASS[c as usize] == SEP
}

/// Reads a line in one pass when it is spelled the usual way (ASCII tokens
/// of at most 16 hex digits, each as [`token`] accepts it) and holds bytes;
/// else returns false, having written anything to `out`, and the general
/// reader reads it (and words any error). A disassembler's input is
/// millions of such lines, most of them bytes spelled `0xf9,0x00`: such a
/// token is read in one step. With `text_only`, a separator that is a
/// control character other than the tab fails too.
fn read_plain(b: &[u8], format: Format, out: &mut Vec<u8>, text_only: bool) -> bool {
    let class = |i: usize| b.get(i).map_or(SEP, |&c| CLASS[c as usize]);
    let mut i = 0;
    if format == Format::Bytes {
        // The usual spelling first, two tokens and their commas at a time
        // (`0xf9,0x00,`), the last two without the comma after them: the
        // bytes that must be `0`, `x` or `X` and `,` are checked with one
        // mask over the first eight, the four digits looked up (what the
        // loops below read the same, in more steps).
        let pair = |ten: &[u8]| -> Option<[u8; 2]> {
            let w = u64::from_le_bytes(*ten.first_chunk::<8>()?);
            let digits = [ten[2], ten[3], ten[7], *ten.get(8)?].map(|d| CLASS[d as usize]);
            (w & TWO_TOKENS_MASK == TWO_TOKENS && digits.iter().fold(0, |a, d| a | d) < 16)
                .then_some([digits[0] << 4 | digits[1], digits[2] << 4 | digits[3]])
        };
        while let Some(ten) = b.get(i..i + 10)
            && ten[9] == b','
            && let Some(two) = pair(ten)
        {
            out.extend_from_slice(&two);
            i += 10;
        }
        if b.len() == i + 9
            && let Some(two) = pair(&b[i..])
        {
            out.extend_from_slice(&two);
            return true;
        }
        // Then a token and the separator after it at a time, the most
        // common separator, the comma, tested first.
        while let Some(&[z, x, h, l, s]) = b.get(i..).and_then(<[u8]>::first_chunk::<5>) {
            let (hi, lo) = (CLASS[h as usize], CLASS[l as usize]);
            let sep = s == b',' || (CLASS[s as usize] == SEP && !(text_only && s < b' ' && s != b'\t'));
            if z != b'0' || x | 0x20 != b'x' || (hi | lo) >= 16 || !sep {
                break;
            }
            out.push(hi << 4 | lo);
            i += 5;
        }
        // And the line's last byte, with nothing after it.
        if let &[b'0', x, h, l] = &b[i..]
            && x | 0x20 == b'x'
            && (CLASS[h as usize] | CLASS[l as usize]) < 16
        {
            out.push(CLASS[h as usize] << 4 | CLASS[l as usize]);
            return true;
        }
    }
    while i < b.len() {
        let c = class(i);
        if c == SEP {
            // Every separator passes here, those after a token included.
            if text_only && b[i] < b' ' && b[i] != b'\t' {
                return false;
            }
            i += 1;
            continue;
        }
        let prefixed = b[i] == b'0' && b.get(i + 1).is_some_and(|&x| x | 0x20 == b'x');
        if prefixed && format == Format::Bytes {
            let (hi, lo) = (class(i + 2), class(i + 3));
            if hi < 16 && lo < 16 && class(i + 4) == SEP {
                out.push(hi << 4 | lo);
                i += 4;
                continue;
            }
        }
        let start = if prefixed { i + 2 } else { i };
        let (mut j, mut v) = (start, 0u64);
        while j < b.len() && j - start < 16 {
            let d = CLASS[b[j] as usize];
            if d >= 16 {
                break;
            }
            v = v << 4 | d as u64;
            j += 1;
        }
        if class(j) != SEP {
            return false;
        }
        let n = j - start;
        match format {
            Format::Bytes if prefixed && (1..=2).contains(&n) => out.push(v as u8),
            Format::Bytes if !prefixed && n.is_multiple_of(2) => {
                out.extend((0..n / 2).rev().map(|k| (v >> (8 * k)) as u8))
            }
            Format::Words64 if n > 0 && n.is_multiple_of(2) => out.extend_from_slice(&v.to_le_bytes()[..n / 2]),
            _ => return false,
        }
        i = j;
    }
    !out.is_empty()
}

/// [`read_line_into`] for any line: Unicode white space, any token length,
/// and the errors.
fn read_general(line: &str, format: Format, out: &mut Vec<u8>) -> Result<(), String> {
    // Tokens lie between white space, commas and brackets. ASCII, the
    // common case, is split byte by byte.
    if line.is_ascii() {
        let b = line.as_bytes();
        let mut i = 0;
        loop {
            while i < b.len() && separator(b[i]) {
                i += 1;
            }
            if i == b.len() {
                break;
            }
            let start = i;
            while i < b.len() && !separator(b[i]) {
                i += 1;
            }
            token(line, &line[start..i], format, out)?;
        }
    } else {
        for tok in line.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']').filter(|t| !t.is_empty())
        {
            token(line, tok, format, out)?;
        }
    }
    if out.is_empty() {
        return Err("no bytes on the line".into());
    }
    Ok(())
}

/// Reads token `tok` of `line` into `out`.
fn token(line: &str, tok: &str, format: Format, out: &mut Vec<u8>) -> Result<(), String> {
    let err = |what: &str| {
        // `tok` is a slice of `line`: its offset is the pointers' distance.
        let at = tok.as_ptr() as usize - line.as_ptr() as usize;
        format!("column {}: `{}` {what}", line[..at].chars().count() + 1, shown(tok))
    };
    let digits = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")).unwrap_or(tok).as_bytes();
    if digits.is_empty() || !digits.iter().all(|&d| nibble(d) < 16) {
        return Err(err("is not hexadecimal"));
    }
    let prefixed = digits.len() != tok.len();
    match format {
        Format::Words64 => {
            if digits.len() > 16 {
                return Err(err("has more than 16 hex digits for a 64-bit word"));
            }
            // A shorter word is the last part of an instruction, as `write`
            // puts a 32-bit one: its digits say how many bytes it holds.
            if !digits.len().is_multiple_of(2) {
                return Err(err("has an odd number of hex digits"));
            }
            let w = digits.iter().fold(0u64, |w, &d| w << 4 | nibble(d) as u64);
            out.extend_from_slice(&w.to_le_bytes()[..digits.len() / 2]);
        }
        Format::Bytes if prefixed => {
            if digits.len() > 2 {
                return Err(err("is more than one byte"));
            }
            out.push(digits.iter().fold(0, |b, &d| b << 4 | nibble(d)));
        }
        Format::Bytes => {
            if !digits.len().is_multiple_of(2) {
                return Err(err("has an odd number of hex digits"));
            }
            out.extend(digits.chunks_exact(2).map(|p| nibble(p[0]) << 4 | nibble(p[1])));
        }
    }
    Ok(())
}

/// The value of a hex digit; 16 or more for any other byte.
fn nibble(d: u8) -> u8 {
    match CLASS[d as usize] {
        v @ 0..16 => v,
        _ => 0xff,
    }
}

/// `tok` as a message may quote it: escaped, and cut short when long (a line
/// can be 64 KiB of one token).
fn shown(tok: &str) -> String {
    const MAX: usize = 24;
    let mut s: String = tok.chars().take(MAX).flat_map(char::escape_debug).collect();
    if tok.chars().nth(MAX).is_some() {
        s.push_str("...");
    }
    s
}

/// Writes `len` bytes of `bits` (little-endian) in `format`.
pub fn write(bits: u128, len: usize, format: Format, out: &mut String) {
    let bytes = bits.to_le_bytes();
    let bytes = &bytes[..len.min(16)];
    match format {
        Format::Words64 => {
            for (i, chunk) in bytes.chunks(8).enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let mut w = 0u64;
                for (j, b) in chunk.iter().enumerate() {
                    w |= (*b as u64) << (8 * j);
                }
                push_hex(out, w, chunk.len() * 2);
            }
        }
        Format::Bytes => {
            // By hand rather than through `write!`, and into one buffer
            // appended at once: an assembler writes millions of these.
            const DIGITS: &[u8; 16] = b"0123456789abcdef";
            let mut buf = [b','; 16 * 5];
            for (k, &b) in bytes.iter().enumerate() {
                buf[5 * k..5 * k + 4].copy_from_slice(&[
                    b'0',
                    b'x',
                    DIGITS[(b >> 4) as usize],
                    DIGITS[(b & 15) as usize],
                ]);
            }
            let n = (5 * bytes.len()).saturating_sub(1);
            push_ascii(out, &buf[..n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_bytes_read() {
        assert_eq!(read_line("0x0000020000000000", Format::Words64).unwrap(), [0, 0, 0, 0, 0, 2, 0, 0]);
        assert_eq!(read_line("2024400000000020", Format::Words64).unwrap()[0], 0x20);
        assert_eq!(read_line("0x02,0x07", Format::Bytes).unwrap(), [2, 7]);
        assert_eq!(read_line("02 07", Format::Bytes).unwrap(), [2, 7]);
        assert_eq!(read_line("0207", Format::Bytes).unwrap(), [2, 7]);
        assert!(read_line("027", Format::Bytes).unwrap_err().contains("odd"));
        assert!(read_line("zz", Format::Bytes).is_err());
        assert!(read_line("", Format::Bytes).is_err());
        assert!(read_line("0x12345678123456789", Format::Words64).is_err());
        // A shorter word holds as many bytes as its digits say.
        assert_eq!(read_line("be800001", Format::Words64).unwrap(), [1, 0, 0x80, 0xbe]);
        assert_eq!(read_line("0x1122334455667788 99aabbcc", Format::Words64).unwrap().len(), 12);
        assert_eq!(read_line("0 027", Format::Words64).unwrap_err(), "column 1: `0` has an odd number of hex digits");
        assert_eq!(read_line("0xAbCdEf0123456789", Format::Words64).unwrap(), 0xabcdef0123456789u64.to_le_bytes());
        assert_eq!(read_line("0xF 0Xa9 fF", Format::Bytes).unwrap(), [0xf, 0xa9, 0xff]);
        // Any white space parts tokens, Unicode's too.
        assert_eq!(read_line(" [0x01,\t0x02]\u{a0}03\u{2003}04\r", Format::Bytes).unwrap(), [1, 2, 3, 4]);
        assert_eq!(read_line("\u{a0}é1", Format::Bytes).unwrap_err(), "column 2: `é1` is not hexadecimal");
    }

    /// The one-pass reader reads what the general one reads, whenever it
    /// takes a line: random lines over the characters that matter.
    /// The class table says what the standard library says of each byte.
    #[test]
    fn bytes_are_classed_as_ascii_says() {
        for c in 0..=255u8 {
            let sep = c.is_ascii_whitespace() || c == 0x0b || matches!(c, b',' | b'[' | b']');
            assert_eq!(separator(c), sep, "byte {c:#04x}");
            let digit = (c as char).to_digit(16).filter(|_| c.is_ascii());
            assert_eq!(nibble(c) < 16, digit.is_some(), "byte {c:#04x}");
            if let Some(d) = digit {
                assert_eq!(nibble(c) as u32, d, "byte {c:#04x}");
            }
        }
    }

    #[test]
    fn the_plain_reader_agrees_with_the_general_one() {
        const CHARS: &[u8] = b"0123456789abcdefABCDEFxX ,[]\t\r\x0bgz-\x00";
        let mut rng = isa_runtime::TestRng::new(7);
        let mut taken = 0;
        for _ in 0..200_000 {
            let len = (rng.next_u64() % 40) as usize;
            let line: String = (0..len)
                .map(|_| {
                    // Mostly digits and separators, as real lines are.
                    let pick = rng.next_u64() as usize;
                    let c = if pick.is_multiple_of(4) { CHARS[pick / 4 % CHARS.len()] } else { CHARS[pick / 4 % 16] };
                    c as char
                })
                .collect();
            for format in [Format::Bytes, Format::Words64] {
                let mut fast = Vec::new();
                let control = line.bytes().any(|c| c < b' ' && c != b'\t');
                let mut raw = Vec::new();
                // Read unchecked, a line with another control character
                // is left to the checks; any other is read the same.
                let raw_taken = read_plain_bytes(line.as_bytes(), format, &mut raw);
                if read_plain(line.as_bytes(), format, &mut fast, false) {
                    taken += 1;
                    let mut general = Vec::new();
                    assert_eq!(read_general(&line, format, &mut general), Ok(()), "{line:?} {format:?}");
                    assert_eq!(fast, general, "{line:?} {format:?}");
                    assert_eq!(raw_taken, !control, "{line:?} {format:?}");
                }
                if raw_taken {
                    assert_eq!(raw, fast, "{line:?} {format:?}");
                }
            }
        }
        assert!(taken > 10_000, "the plain reader took only {taken} lines");
        // Lines of tokens as disassemblers write them (`0xf9,0x00`), with
        // the near misses a one-step reading of `0x` and two digits must
        // not take: one digit or three, a digit that is not one, no
        // separator after, a line ending inside the token.
        const TOKENS: &[&str] = &["0xf9", "0x0A", "0X7e", "0x3", "0xabc", "0xg1", "0x1g", "0x", "f9", "0xff0x", "0x00"];
        const SEPS: &[&str] = &[",", ", ", " ", "\t", "[", "]", "", ",,"];
        let mut two_digit = 0;
        for _ in 0..100_000 {
            let n = 1 + (rng.next_u64() % 8) as usize;
            let mut line = String::new();
            for _ in 0..n {
                line.push_str(SEPS[rng.next_u64() as usize % SEPS.len()]);
                line.push_str(TOKENS[rng.next_u64() as usize % TOKENS.len()]);
            }
            for format in [Format::Bytes, Format::Words64] {
                let mut fast = Vec::new();
                let mut general = Vec::new();
                let ok = read_general(&line, format, &mut general).is_ok();
                if read_plain(line.as_bytes(), format, &mut fast, false) {
                    two_digit += (format == Format::Bytes && line.contains("0xf9")) as usize;
                    assert!(ok, "{line:?} {format:?}");
                    assert_eq!(fast, general, "{line:?} {format:?}");
                }
            }
        }
        assert!(two_digit > 2_000, "lines of bytes with `0xf9` the plain reader took: {two_digit}");
        for (line, format) in [
            ("0xf9,0x00,0x00,0x7e,0x00,0x00,0x00,0x00", Format::Bytes),
            ("02 07 0X1 [0xaB]", Format::Bytes),
            ("0x0000020000000000 be800001", Format::Words64),
        ] {
            assert!(read_plain(line.as_bytes(), format, &mut Vec::new(), false), "{line}");
            assert!(read_plain_bytes(line.as_bytes(), format, &mut Vec::new()), "{line}");
        }
    }

    #[test]
    fn errors_name_the_column_and_quote_safely() {
        assert_eq!(read_line("02 07 zz", Format::Bytes).unwrap_err(), "column 7: `zz` is not hexadecimal");
        assert_eq!(read_line("é x", Format::Bytes).unwrap_err(), "column 1: `é` is not hexadecimal");
        assert_eq!(read_line("00 é", Format::Bytes).unwrap_err(), "column 4: `é` is not hexadecimal");
        let long = "g".repeat(100_000);
        assert_eq!(
            read_line(&long, Format::Bytes).unwrap_err(),
            format!("column 1: `{}...` is not hexadecimal", &long[..24])
        );
        assert_eq!(read_line("a\u{7}b", Format::Bytes).unwrap_err(), "column 1: `a\\u{7}b` is not hexadecimal");
    }

    #[test]
    fn writes_round_trip() {
        let mut s = String::new();
        write(0x2024400000000020, 8, Format::Words64, &mut s);
        assert_eq!(s, "2024400000000020");
        s.clear();
        write(0x0702, 2, Format::Bytes, &mut s);
        assert_eq!(s, "0x02,0x07");
        assert_eq!(read_line(&s, Format::Bytes).unwrap(), [2, 7]);
        s.clear();
        write(0xf0_a9_00_ff, 4, Format::Bytes, &mut s);
        assert_eq!(s, "0xff,0x00,0xa9,0xf0");
    }
}
