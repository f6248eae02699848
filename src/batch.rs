//! Batch mode: one instruction per line in, one answer per line out.
//!
//! Output line i always answers input line i: the result, or `error: <reason>`
//! for a line that failed, and the run goes on. Blank input lines give blank
//! output lines. Input is streamed, so memory stays flat however long it is.

use std::io::{self, BufRead, Write};

use isa_runtime::{Isa, PrintOpts};

use crate::hex::{self, Format};

/// What a run saw.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub lines: u64,
    pub failed: u64,
}

/// Longest line read; a longer one is reported as an error, not buffered.
pub const MAX_LINE: usize = 64 * 1024;

fn each_line(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    mut f: impl FnMut(&str, &mut String) -> bool,
) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let mut buf = Vec::new();
    let mut text = String::new();
    loop {
        buf.clear();
        let n = read_bounded_line(input, &mut buf)?;
        if n == 0 {
            break;
        }
        stats.lines += 1;
        text.clear();
        let ok = if buf.len() > MAX_LINE {
            text.push_str(&format!("error: line is longer than {MAX_LINE} bytes"));
            false
        } else {
            match std::str::from_utf8(&buf) {
                Ok(line) => {
                    let line = line.trim_end_matches(['\n', '\r']);
                    if line.trim().is_empty() { true } else { f(line, &mut text) }
                }
                Err(_) => {
                    text.push_str("error: line is not valid UTF-8");
                    false
                }
            }
        };
        if !ok {
            stats.failed += 1;
        }
        text.push('\n');
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(stats)
}

/// Reads one line, keeping at most `MAX_LINE + 1` bytes of it (the rest is
/// consumed and dropped, so an endless line cannot exhaust memory).
fn read_bounded_line(input: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let avail = input.fill_buf()?;
        if avail.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..=i], true),
            None => (avail, false),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        total += n;
        input.consume(n);
        if done {
            return Ok(total);
        }
    }
}

/// Disassembles machine code, one instruction per line.
pub fn disasm(isa: &Isa, gen_: u32, format: Format, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<Stats> {
    disasm_with(isa, gen_, format, PrintOpts::default(), input, out)
}

/// Disassembles machine code in the syntax (and padding) `opts` names.
pub fn disasm_with(
    isa: &Isa,
    gen_: u32,
    format: Format,
    opts: PrintOpts,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Stats> {
    each_line(input, out, |line, text| {
        let bytes = match hex::read_line(line, format) {
            Ok(b) => b,
            Err(e) => {
                text.push_str("error: ");
                text.push_str(&e);
                return false;
            }
        };
        match isa.decode_bytes(&bytes, gen_) {
            Ok((inst, len)) if len == bytes.len() => {
                isa.print_with(&inst, gen_, opts, text);
                true
            }
            Ok((_, len)) => {
                text.push_str(&format!("error: the instruction is {len} bytes but the line holds {}", bytes.len()));
                false
            }
            Err(e) => {
                // Where the target has a raw form, an unknown word prints in it.
                let width = (isa.min_bits() / 8) as usize;
                if bytes.len() == width {
                    let mut bits = 0u128;
                    for (i, b) in bytes.iter().enumerate() {
                        bits |= (*b as u128) << (8 * i);
                    }
                    if let Some(raw) = isa.format_raw(bits) {
                        text.push_str(&raw);
                        return true;
                    }
                }
                text.push_str(&format!("error: {e}"));
                false
            }
        }
    })
}

/// Assembles text, one instruction per line.
pub fn asm(isa: &Isa, gen_: u32, format: Format, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<Stats> {
    asm_in(isa, gen_, 0, format, input, out)
}

/// Assembles text written in syntax `syntax` (an index into `isa.syntaxes`).
pub fn asm_in(
    isa: &Isa,
    gen_: u32,
    syntax: u16,
    format: Format,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Stats> {
    each_line(input, out, |line, text| match isa.assemble_in(line, gen_, syntax) {
        Ok((bits, width)) => {
            hex::write(bits, (width / 8) as usize, format, text);
            true
        }
        Err(e) => {
            text.push_str(&format!("error: {e}"));
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_specs::ir3::ISA;

    #[test]
    fn every_line_gets_an_answer() {
        let input = "2024400000000020\n\nnot hex\n0x0000000000000000\nffffffffffffffff\n";
        let mut out = Vec::new();
        let stats = disasm(&ISA, 600, Format::Words64, &mut input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[1], "");
        assert!(lines[2].starts_with("error: "), "{}", lines[2]);
        assert_eq!(lines[4], "raw 0xFFFFFFFFFFFFFFFF");
        assert_eq!(stats, Stats { lines: 5, failed: 1 });
    }

    #[test]
    fn assembler_reports_bad_lines_and_goes_on() {
        let input = "frobnicate r0.x\nadd.f r0.x, r0.y, r0.z\n";
        let mut out = Vec::new();
        let stats = asm(&ISA, 600, Format::Words64, &mut input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<_> = out.lines().collect();
        assert!(lines[0].contains("unknown instruction `frobnicate`"), "{}", lines[0]);
        // Bit layout from the ir3 notes: cat2 (010) at 61..63, FULL at 52, r0.y = 1, r0.z = 2.
        assert_eq!(lines[1], "4010000000020001");
        assert_eq!(stats.failed, 1);
    }

    #[test]
    fn syntaxes_print_and_read_their_own_text() {
        use isa_specs::agx::ISA as AGX;
        let apple = PrintOpts { syntax: AGX.syntax_by_name("applegpu").unwrap(), pad: None };
        let mut out = Vec::new();
        disasm_with(&AGX, 0, Format::Bytes, apple, &mut "2a05c2f2\n".as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "fadd32           r1, r1.discard, 0.234375\n");
        let mut out = Vec::new();
        let mesa = PrintOpts { syntax: 0, pad: Some(true) };
        disasm_with(&AGX, 0, Format::Bytes, mesa, &mut "2a05c2f2\n".as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "fadd     r1, ^r1, 0.234375\n");
        let mut out = Vec::new();
        asm_in(&AGX, 0, apple.syntax, Format::Bytes, &mut "fadd32 r1, r1.discard, 0.234375\n".as_bytes(), &mut out)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0x2a,0x05,0xc2,0xf2\n");
    }

    #[test]
    fn overlong_lines_are_errors_not_memory() {
        let mut input = "0".repeat(MAX_LINE * 3);
        input.push_str("\n2024400000000020\n");
        let mut out = Vec::new();
        let stats = disasm(&ISA, 600, Format::Words64, &mut input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<_> = out.lines().collect();
        assert!(lines[0].contains("longer than"));
        assert_eq!(lines.len(), 2);
        assert_eq!(stats.failed, 1);
    }
}
