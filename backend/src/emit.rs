//! Emission: the final instructions' bytes, and a listing with each
//! instruction's address, encoding and assembly text (printed by the target's
//! own printer from the bits, so the listing says what the binary holds).

use std::fmt::Write;

use crate::code::MInst;
use crate::target::Target;

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Byte offset from the start of the program.
    pub addr: u32,
    pub bytes: Vec<u8>,
    pub text: String,
}

/// The program's bytes and its listing.
pub fn emit(t: &Target, code: &[MInst]) -> (Vec<u8>, Vec<Line>) {
    let mut bin = Vec::new();
    let mut lines = Vec::with_capacity(code.len());
    for m in code {
        let bytes = m.inst.bytes();
        lines.push(Line { addr: bin.len() as u32, bytes: bytes.clone(), text: t.isa.print(&m.inst, t.gen_) });
        bin.extend_from_slice(&bytes);
    }
    (bin, lines)
}

/// The encoding as it is usually written: 32-bit words in memory order (most
/// significant digit first within each), or bytes when the length is odd.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::new();
    if bytes.len().is_multiple_of(4) {
        for (k, w) in bytes.chunks(4).enumerate() {
            if k > 0 {
                s.push(' ');
            }
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let _ = write!(s, "{v:08x}");
        }
    } else {
        for (k, b) in bytes.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{b:02x}");
        }
    }
    s
}

/// The listing as text: `ADDR: ENCODING  TEXT`, one instruction per line.
pub fn listing_text(lines: &[Line]) -> String {
    let width = lines.iter().map(|l| hex(&l.bytes).len()).max().unwrap_or(0);
    let mut s = String::new();
    for l in lines {
        let _ = writeln!(s, "{:04x}:  {:width$}  {}", l.addr, hex(&l.bytes), l.text);
    }
    s
}
