//! Batch mode: one instruction per line in, one answer per line out.
//!
//! Output line i always answers input line i: the result, or `error: <reason>`
//! for a line that failed, and the run goes on. Blank input lines give blank
//! output lines. Input is streamed, so memory stays flat however long it is.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError, mpsc};

use isa_runtime::{Assembler, Decoder, Isa, PrintOpts, Printer};

use crate::hex::{self, Format};

/// What a run saw.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub lines: u64,
    pub failed: u64,
}

/// Longest line read; a longer one is reported as an error, not buffered.
pub const MAX_LINE: usize = 64 * 1024;

/// Longest answer for a line that failed, in bytes.
pub const MAX_ERROR: usize = 200;

/// A batch's input: buffered, and able to tell whether more can be read
/// without waiting, so that a program feeding `isa` a line at a time gets each
/// answer before it writes the next line, while a file is read in chunks.
pub trait Input: BufRead {
    /// Bytes that can be read now without waiting for more input.
    fn ready(&self) -> usize;
}

impl<R: io::Read> Input for io::BufReader<R> {
    fn ready(&self) -> usize {
        self.buffer().len()
    }
}

impl Input for &[u8] {
    fn ready(&self) -> usize {
        self.len()
    }
}

/// Where a batch reads and writes.
pub struct Streams<'a> {
    /// One instruction per line.
    pub input: &'a mut dyn Input,
    /// One answer per input line.
    pub out: &'a mut dyn Write,
    /// One report per failed line, with its number.
    pub err: &'a mut dyn Write,
}

/// Lines handed to a worker at once, unless the answer asks for another
/// size (see [`Answer::chunk_lines`]), and the bytes a chunk may hold per
/// line (one line may go past that, up to [`MAX_LINE`]): small enough that
/// the workers end a stretch of input together and a chunk's answers are
/// written soon, large enough that handing it over costs little next to
/// answering it.
const CHUNK_LINES: usize = 1024;
const BYTES_PER_LINE: usize = 64;

/// Chunks read but not yet written, per worker: enough to keep every
/// worker busy while the others' answers are written, few enough that
/// memory stays flat.
const AHEAD: usize = 4;

/// How many workers answer lines: one per core.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Lines read together, and their answers: their bytes, each line's span
/// in them with its length in the input (longer than the span for a line
/// cut at `MAX_LINE + 1`), and the answers one after another, each line's
/// end in them and whether it is not an error.
#[derive(Default)]
struct Chunk {
    data: Vec<u8>,
    spans: Vec<(usize, usize, usize)>,
    text: String,
    answers: Vec<(usize, bool)>,
}

impl Chunk {
    /// Reads the next chunk, of at most `lines` lines (and
    /// [`BYTES_PER_LINE`] bytes for each): with `wait`, its first line may
    /// wait for input; every other line is one already there (so a program
    /// feeding `isa` a line at a time gets each answer before it writes the
    /// next).
    /// The lines whole in the input's buffer are taken in one pass over it.
    fn read(&mut self, input: &mut dyn Input, line: &mut Vec<u8>, wait: bool, lines: usize) -> io::Result<()> {
        self.data.clear();
        self.spans.clear();
        while !self.full(lines) {
            if !(wait && self.spans.is_empty()) && input.ready() == 0 {
                break;
            }
            // The lines that end in what is buffered, without a call per line.
            let avail = input.fill_buf()?;
            let mut used = 0;
            while !self.full(lines) {
                let rest = &avail[used..];
                let Some(end) = find_newline(rest) else { break };
                if end > MAX_LINE {
                    break; // kept in part, below
                }
                let at = self.data.len();
                self.data.extend_from_slice(&rest[..=end]);
                self.spans.push((at, self.data.len(), end + 1));
                used += end + 1;
            }
            input.consume(used);
            if used > 0 {
                continue;
            }
            // A line that goes past the buffer (or past MAX_LINE), or the end.
            line.clear();
            let n = read_bounded_line(input, line)?;
            if n == 0 {
                break;
            }
            self.spans.push((self.data.len(), self.data.len() + line.len(), n));
            self.data.extend_from_slice(line);
        }
        Ok(())
    }

    /// Whether the chunk holds all a chunk of `lines` lines may.
    fn full(&self, lines: usize) -> bool {
        self.spans.len() >= lines || self.data.len() >= lines * BYTES_PER_LINE
    }

    /// Answers every line of the chunk with `f`.
    fn answer<S>(&mut self, f: &impl Answer<S>, state: &mut S) {
        let Chunk { data, spans, text, answers } = self;
        text.clear();
        answers.clear();
        let mut utf8 = Utf8 { data, whole: None };
        for &(a, b, n) in spans.iter() {
            let ok = answer_line(&mut utf8, (a, b), n, f, state, text);
            answers.push((text.len(), ok));
            text.push('\n');
        }
    }

    /// Writes the answers to `out` and each failed line's report to `err`,
    /// numbering lines from `stats`, which it counts them in.
    fn write(&self, stats: &mut Stats, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
        let mut start = 0;
        for &(end, ok) in &self.answers {
            stats.lines += 1;
            if !ok {
                stats.failed += 1;
                // Where the answer names the line's own text, it is already
                // escaped and shortened; nothing raw reaches the terminal.
                let text = &self.text[start..end];
                writeln!(err, "isa: line {}: {}", stats.lines, text.strip_prefix("error: ").unwrap_or(text))?;
            }
            start = end + 1;
        }
        out.write_all(self.text.as_bytes())
    }
}

/// Runs `f` on each line of `input`, writing its answer to `out`; each line
/// that fails is also reported on `err` as `isa: line N: <reason>`. Lines are
/// read a chunk at a time and answered by one worker per state in `states`
/// (each keeps its own: a printer that remembers operands), and answers are
/// written in order. The first worker answers on this thread until a chunk
/// comes full; from then on, with several workers, this thread only reads
/// and writes: the workers stay for the rest of the run and take chunks as
/// they come, so none waits for a slower one's share, and reading and
/// writing overlap the answering. Before it waits for input, everything
/// read so far is answered, written and flushed.
fn each_line<S: Send>(io: Streams, mut states: Vec<S>, f: impl Answer<S>) -> io::Result<Stats> {
    let Streams { input, out, err } = io;
    let mut stats = Stats::default();
    let mut line = Vec::new();
    let workers = states.len();
    let lines = f.chunk_lines();
    let first = states.first_mut().expect("a batch has a worker");
    // Answered on this thread until a chunk comes full: a short input (a
    // line from a program, a fuzzer's case) starts no thread.
    let mut chunk = Chunk::default();
    loop {
        chunk.read(input, &mut line, true, lines)?;
        if chunk.spans.is_empty() {
            out.flush()?;
            err.flush()?;
            return Ok(stats);
        }
        chunk.answer(&f, first);
        chunk.write(&mut stats, out, err)?;
        if input.ready() == 0 {
            out.flush()?;
            err.flush()?;
        }
        if workers > 1 && chunk.full(lines) {
            break;
        }
    }
    let ahead = AHEAD * workers;
    let (to_workers, work) = mpsc::channel::<(u64, Chunk)>();
    let work = Mutex::new(work);
    let (to_main, answered) = mpsc::channel::<std::thread::Result<(u64, Chunk)>>();
    std::thread::scope(|s| {
        for mut state in states {
            let (work, to_main, f) = (&work, to_main.clone(), &f);
            s.spawn(move || {
                loop {
                    // One worker at a time waits on the queue; when this
                    // thread ends the run the queue closes and each leaves.
                    let job = work.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok((seq, mut chunk)) = job else { break };
                    // A panic goes to this thread, which raises it as its own.
                    let done = panic::catch_unwind(AssertUnwindSafe(|| chunk.answer(f, &mut state)));
                    let stop = done.is_err();
                    if to_main.send(done.map(|()| (seq, chunk))).is_err() || stop {
                        break;
                    }
                }
            });
        }
        drop(to_main);
        // Chunks by number: `written` is the next to write, `sent` the next
        // to read; those between are with the workers or wait in `ready`.
        let (mut sent, mut written) = (0u64, 0u64);
        let mut ready: VecDeque<Option<Chunk>> = VecDeque::new();
        let mut spare: Vec<Chunk> = Vec::new();
        let mut end = false;
        loop {
            if sent == written {
                out.flush()?;
                err.flush()?;
                if end {
                    break;
                }
            }
            // Read what is there, waiting only when nothing is answered.
            while !end && sent - written < ahead as u64 {
                let idle = sent == written;
                if !idle && input.ready() == 0 {
                    break;
                }
                let mut chunk = spare.pop().unwrap_or_default();
                chunk.read(input, &mut line, idle, lines)?;
                if chunk.spans.is_empty() {
                    spare.push(chunk);
                    end = idle;
                    break;
                }
                to_workers.send((sent, chunk)).map_err(|_| io::Error::other("the workers stopped"))?;
                ready.push_back(None);
                sent += 1;
            }
            if sent == written {
                continue;
            }
            let (seq, chunk) = match answered.recv() {
                Ok(Ok(done)) => done,
                Ok(Err(p)) => panic::resume_unwind(p),
                Err(_) => return Err(io::Error::other("the workers stopped")),
            };
            if let Some(slot) = ready.get_mut((seq - written) as usize) {
                *slot = Some(chunk);
            }
            while let Some(Some(_)) = ready.front() {
                let chunk = ready.pop_front().flatten().expect("the front chunk is answered");
                chunk.write(&mut stats, out, err)?;
                spare.push(chunk);
                written += 1;
            }
        }
        drop(to_workers);
        Ok(stats)
    })
}

/// What a batch does with a line: appends its answer to `text` and says
/// whether it is not an error.
trait Answer<S>: Sync {
    /// The answer to a line of text.
    fn text(&self, state: &mut S, line: &str, text: &mut String) -> bool;

    /// The answer to a line whose bytes (its line end removed) were not
    /// checked to be text, when it can be given without that check (the
    /// line is read whole as ASCII of a known shape); `None`, having
    /// written nothing, to check the line and call [`Answer::text`].
    fn unchecked(&self, _state: &mut S, _line: &[u8], _text: &mut String) -> Option<bool> {
        None
    }

    /// Lines a chunk holds for this answer (see [`CHUNK_LINES`]): about a
    /// millisecond of answering, so that handing chunks over stays cheap
    /// whatever a line costs.
    fn chunk_lines(&self) -> usize {
        CHUNK_LINES
    }
}

impl<S, F: Fn(&mut S, &str, &mut String) -> bool + Sync> Answer<S> for F {
    fn text(&self, state: &mut S, line: &str, text: &mut String) -> bool {
        self(state, line, text)
    }
}

/// A chunk's lines as text: the chunk is checked as UTF-8 once, when a
/// line first needs its text (a check per line costs several times the
/// check of the whole chunk; a disassembler's lines never need one).
struct Utf8<'a> {
    data: &'a [u8],
    /// The chunk as text, once checked: `None` inside when it is not
    /// UTF-8 (each line is then checked on its own).
    whole: Option<Option<&'a str>>,
}

impl<'a> Utf8<'a> {
    /// The text of the line at `a..b`, if the chunk is UTF-8 and the line
    /// starts and ends on characters (a line kept in part may not).
    fn line(&mut self, (a, b): (usize, usize)) -> Option<&'a str> {
        let data = self.data;
        self.whole.get_or_insert_with(|| std::str::from_utf8(data).ok()).and_then(|w| w.get(a..b))
    }
}

/// Appends the answer to the line of `n` bytes whose first bytes are
/// `span` of the chunk to `text`; returns whether it is not an error.
fn answer_line<S>(
    utf8: &mut Utf8<'_>,
    span: (usize, usize),
    n: usize,
    f: &impl Answer<S>,
    state: &mut S,
    text: &mut String,
) -> bool {
    let buf = &utf8.data[span.0..span.1];
    let start = text.len();
    let mut bytes = buf;
    while let [rest @ .., b'\n' | b'\r'] = bytes {
        bytes = rest;
    }
    let quick = if buf.len() <= MAX_LINE { f.unchecked(state, bytes, text) } else { None };
    let ok = match quick {
        Some(ok) => ok,
        None => match checked_text(buf, n, || utf8.line(span)) {
            Err(reason) => {
                text.push_str("error: ");
                text.push_str(&reason);
                false
            }
            // A line starting with a printable character is not blank,
            // without the Unicode walk of `trim`.
            Ok(line) if !line.as_bytes().first().is_some_and(u8::is_ascii_graphic) && line.trim().is_empty() => true,
            Ok(line) => f.text(state, line, text),
        },
    };
    if !ok {
        shorten(text, start);
    }
    ok
}

/// Cuts a failed line's answer (what `text` holds past `start`) to
/// [`MAX_ERROR`] bytes: a message may quote the line (an unknown mnemonic
/// 60 KiB long), and one answer is one line.
fn shorten(text: &mut String, start: usize) {
    if text.len() - start > MAX_ERROR {
        let mut end = start + MAX_ERROR;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("...");
    }
}

/// The text of a line of `len` bytes whose first bytes are `buf`, without its
/// line end; or why it cannot be an instruction. `utf8` gives `buf` as text
/// when it is known to be UTF-8 already.
fn checked_text<'a>(buf: &'a [u8], len: usize, utf8: impl FnOnce() -> Option<&'a str>) -> Result<&'a str, String> {
    if buf.len() > MAX_LINE {
        return Err(format!("the line is {len} bytes long; the limit is {MAX_LINE}"));
    }
    let mut bytes = buf;
    while let [rest @ .., b'\n' | b'\r'] = bytes {
        bytes = rest;
    }
    // Printable ASCII, the common case, needs no closer look: one pass
    // without an early exit (so it runs on whole vectors), then the text
    // the chunk's one UTF-8 check gave, or this line's own check.
    let printable = bytes.iter().fold(true, |all, &b| all & ((b.wrapping_sub(0x20) < 0x5f) | (b == b'\t')));
    if printable
        && let Some(line) = utf8().and_then(|l| l.get(..bytes.len())).or_else(|| std::str::from_utf8(bytes).ok())
    {
        return Ok(line);
    }
    let line = std::str::from_utf8(buf).map_err(|e| format!("byte {}: not valid UTF-8", e.valid_up_to() + 1))?;
    let line = line.trim_end_matches(['\n', '\r']);
    // A NUL or another control character is never part of an instruction, and
    // echoing it in a message would garble the terminal.
    if let Some((i, c)) = line.char_indices().find(|&(_, c)| c.is_control() && c != '\t') {
        let col = line[..i].chars().count() + 1;
        return Err(format!("column {col}: control character U+{:04X}", c as u32));
    }
    Ok(line)
}

/// Where the first line end (`\n`) in `b` is, looking at eight bytes at a
/// time: a disassembler's input is millions of lines some forty bytes long.
fn find_newline(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = 0;
    while let Some(chunk) = b.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        // A byte of `x` is zero where the chunk holds `\n`; the lowest byte
        // flagged is the first such (a borrow only flags bytes above one).
        let x = u64::from_le_bytes(*chunk) ^ (ONES * b'\n' as u64);
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    b.get(at..)?.iter().position(|&c| c == b'\n').map(|i| at + i)
}

/// Reads one line, keeping at most `MAX_LINE + 1` bytes of it (the rest is
/// consumed and dropped, so an endless line cannot exhaust memory).
fn read_bounded_line(input: &mut dyn Input, buf: &mut Vec<u8>) -> io::Result<usize> {
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
pub fn disasm(isa: &Isa, gen_: u32, format: Format, io: Streams) -> io::Result<Stats> {
    disasm_with(isa, gen_, format, PrintOpts::default(), io)
}

/// Disassembles machine code in the syntax (and padding) `opts` names.
pub fn disasm_with(isa: &Isa, gen_: u32, format: Format, opts: PrintOpts, io: Streams) -> io::Result<Stats> {
    let states = (0..workers()).map(|_| (isa.printer(gen_, opts), Vec::new())).collect();
    each_line(io, states, Disasm { isa, decoder: isa.decoder(gen_), format })
}

/// A disassembler's answer to a line of bytes.
struct Disasm<'a> {
    isa: &'a Isa,
    decoder: Decoder<'a>,
    format: Format,
}

/// What a disassembling worker keeps: its printer, and the bytes of the
/// line it reads.
type DisasmState<'a> = (Printer<'a>, Vec<u8>);

impl<'a> Answer<DisasmState<'a>> for Disasm<'a> {
    fn text(&self, (printer, bytes): &mut DisasmState<'a>, line: &str, text: &mut String) -> bool {
        if let Err(e) = hex::read_line_into(line, self.format, bytes) {
            text.push_str("error: ");
            text.push_str(&e);
            return false;
        }
        self.instruction(printer, bytes, text)
    }

    /// A disassembler answers a line in a fraction of a microsecond, an
    /// assembler in one or two: each chunk wakes a worker and then the
    /// thread that writes, and with the assembler's 1,024 lines a chunk
    /// those wake-ups cost `isa disasm` some 5% of its time on two cores
    /// (a million lines: 1,500 context switches, 550 with 4,096). Chunks of
    /// 16,384 lines were slower again (the last ones leave a worker idle
    /// longer, and a chunk no longer stays in the cache between the thread
    /// that reads it and the one that answers it), and `isa asm` was some
    /// 5% slower with 4,096 than with 1,024.
    fn chunk_lines(&self) -> usize {
        4 * CHUNK_LINES
    }

    /// A line of plain hex, as disassemblers write them, is read without
    /// first checking it is text: it is ASCII by its reading.
    fn unchecked(&self, (printer, bytes): &mut DisasmState<'a>, line: &[u8], text: &mut String) -> Option<bool> {
        hex::read_plain_bytes(line, self.format, bytes).then(|| self.instruction(printer, bytes, text))
    }
}

impl Disasm<'_> {
    /// Prints the instruction `bytes` hold.
    fn instruction(&self, printer: &mut Printer<'_>, bytes: &[u8], text: &mut String) -> bool {
        match self.decoder.decode_bytes(bytes) {
            Ok((inst, len)) if len == bytes.len() => {
                printer.print_to(&inst, text);
                true
            }
            Ok((_, len)) => {
                let _ = write!(text, "error: the instruction is {len} bytes but the line holds {}", bytes.len());
                false
            }
            Err(e) => {
                // Where the target has a raw form, an unknown word prints in it.
                let width = (self.isa.min_bits() / 8) as usize;
                if bytes.len() == width {
                    let mut bits = 0u128;
                    for (i, b) in bytes.iter().enumerate() {
                        bits |= (*b as u128) << (8 * i);
                    }
                    if let Some(raw) = self.isa.format_raw(bits) {
                        text.push_str(&raw);
                        return true;
                    }
                }
                let _ = write!(text, "error: {e}");
                false
            }
        }
    }
}

/// Assembles text, one instruction per line.
pub fn asm(isa: &Isa, gen_: u32, format: Format, io: Streams) -> io::Result<Stats> {
    asm_in(isa, gen_, 0, format, io)
}

/// Assembles text written in syntax `syntax` (an index into `isa.syntaxes`).
pub fn asm_in(isa: &Isa, gen_: u32, syntax: u16, format: Format, io: Streams) -> io::Result<Stats> {
    // The workers share what they learn: each text is read the long way
    // by one of them, not by each (see `isa_runtime::Lessons`).
    let lessons = isa.lessons(gen_, syntax);
    let states = (0..workers()).map(|_| lessons.assembler()).collect();
    each_line(io, states, |asm: &mut Assembler<'_>, line: &str, text: &mut String| match asm.assemble(line) {
        Ok((bits, width)) => {
            hex::write(bits, (width / 8) as usize, format, text);
            true
        }
        Err(e) => {
            let _ = write!(text, "error: {e}");
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_specs::ir3::ISA;

    /// Runs `batch` on `input`: its answers, its reports and what it saw.
    fn run(input: &str, batch: impl FnOnce(Streams) -> io::Result<Stats>) -> (String, String, Stats) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let stats = batch(Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err }).unwrap();
        (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap(), stats)
    }

    #[test]
    fn a_line_end_is_found_where_it_is() {
        let mut rng = isa_runtime::TestRng::new(11);
        for _ in 0..20_000 {
            let len = (rng.next_u64() % 40) as usize;
            // Few line ends, and bytes one off from one (0x0b, 0x09, 0x8a).
            let b: Vec<u8> = (0..len)
                .map(|_| match rng.next_u64() % 16 {
                    0 => b'\n',
                    1 => 0x0b,
                    2 => 0x09,
                    3 => 0x8a,
                    r => b'0' + r as u8,
                })
                .collect();
            assert_eq!(find_newline(&b), b.iter().position(|&c| c == b'\n'), "{b:?}");
        }
        assert_eq!(find_newline(b"0123456701234567\n"), Some(16));
        assert_eq!(find_newline(b"\n\n"), Some(0));
        assert_eq!(find_newline(b""), None);
    }

    #[test]
    fn every_line_gets_an_answer() {
        let input = "2024400000000020\n\nnot hex\n0x0000000000000000\nffffffffffffffff\n";
        let (out, err, stats) = run(input, |io| disasm(&ISA, 600, Format::Words64, io));
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(err, "isa: line 3: column 1: `not` is not hexadecimal\n");
        assert_eq!(lines[1], "");
        assert!(lines[2].starts_with("error: "), "{}", lines[2]);
        assert_eq!(lines[4], "raw 0xFFFFFFFFFFFFFFFF");
        assert_eq!(stats, Stats { lines: 5, failed: 1 });
    }

    /// A chunk is read as text once for all its lines; one line that is
    /// not UTF-8 fails alone, the lines around it read as before.
    #[test]
    fn a_line_not_utf8_fails_alone_in_its_chunk() {
        let good = "add.f r0.x, r0.y, r0.z\n";
        let input = [
            good.as_bytes(),
            b"add.f r0.x, r\xc0.y, r0.z\n",
            "add.f r0.x, r0.y, r0.\u{e9}\n".as_bytes(),
            good.as_bytes(),
        ]
        .concat();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let io = Streams { input: &mut &input[..], out: &mut out, err: &mut err };
        let stats = asm(&ISA, 600, Format::Words64, io).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "4010000000020001");
        assert_eq!(lines[1], "error: byte 14: not valid UTF-8");
        assert!(lines[2].starts_with("error: ") && !lines[2].contains("UTF-8"), "{}", lines[2]);
        assert_eq!(lines[3], "4010000000020001");
        assert_eq!(stats, Stats { lines: 4, failed: 2 });
        // The same lines without the bad one: the chunk is text as a whole.
        let input = [good, "add.f r0.x, r0.y, r0.\u{e9}\n", good].concat();
        let (out, _, stats) = run(&input, |io| asm(&ISA, 600, Format::Words64, io));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!((lines[0], lines[2]), ("4010000000020001", "4010000000020001"));
        assert!(lines[1].starts_with("error: ") && !lines[1].contains("UTF-8"), "{}", lines[1]);
        assert_eq!(stats, Stats { lines: 3, failed: 1 });
    }

    /// Input of many chunks, answered by several workers, comes back in
    /// order, each failed line reported with its own number.
    #[test]
    fn shared_chunks_answer_in_order() {
        let n = 5 * AHEAD * CHUNK_LINES + 7;
        let line = |i: usize| if i % 97 == 5 { "zz".to_string() } else { "2024400000000020".to_string() };
        let input: String = (0..n).map(|i| line(i) + "\n").collect();
        let (one, _, _) = run("2024400000000020\n", |io| disasm(&ISA, 600, Format::Words64, io));
        let (out, err, stats) = run(&input, |io| disasm(&ISA, 600, Format::Words64, io));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), n);
        let bad: Vec<usize> = (0..n).filter(|i| i % 97 == 5).collect();
        for (i, l) in lines.iter().enumerate() {
            if bad.contains(&i) {
                assert_eq!(*l, "error: column 1: `zz` is not hexadecimal", "line {}", i + 1);
            } else {
                assert_eq!(*l, one.trim_end(), "line {}", i + 1);
            }
        }
        let reported: Vec<String> = err.lines().map(str::to_string).collect();
        let want: Vec<String> =
            bad.iter().map(|i| format!("isa: line {}: column 1: `zz` is not hexadecimal", i + 1)).collect();
        assert_eq!(reported, want);
        assert_eq!(stats, Stats { lines: n as u64, failed: bad.len() as u64 });
    }

    /// Three workers, whatever the machine's cores, over many chunks: the
    /// answers come back in input order and every line is answered once.
    #[test]
    fn workers_answer_chunks_in_input_order() {
        let n = 7 * AHEAD * CHUNK_LINES + 11;
        let input: String = (0..n).map(|i| format!("line {i}\n")).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
        // Each worker counts what it answers; odd lines take longer, so
        // chunks finish out of order.
        let answer = |seen: &mut usize, line: &str, text: &mut String| {
            *seen += 1;
            let i: usize = line[5..].parse().unwrap();
            if i % 2 == 1 {
                std::hint::black_box((0..200).sum::<u64>());
            }
            text.push_str(&line.to_uppercase());
            i % 1000 != 999
        };
        let stats = each_line(io, vec![0usize; 3], answer).unwrap();
        let want: String = (0..n).map(|i| format!("LINE {i}\n")).collect();
        assert!(String::from_utf8(out).unwrap() == want, "answers in input order");
        let reports = String::from_utf8(err).unwrap();
        assert_eq!(reports.lines().next(), Some("isa: line 1000: LINE 999"));
        assert_eq!(stats, Stats { lines: n as u64, failed: (n / 1000) as u64 });
    }

    /// Until a chunk comes full, lines are answered on the caller's thread:
    /// a fuzzer's case or a line from a program starts no thread. After a
    /// full chunk, the workers answer.
    #[test]
    fn short_input_is_answered_on_the_callers_thread() {
        let caller = std::thread::current().id();
        let answer = |_: &mut (), _: &str, text: &mut String| {
            text.push_str(if std::thread::current().id() == caller { "here" } else { "there" });
            true
        };
        let input = "a\nb\nc\n";
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
        each_line(io, vec![(); 2], answer).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "here\nhere\nhere\n");
        let input = "a\n".repeat(2 * CHUNK_LINES + 1);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
        each_line(io, vec![(); 2], answer).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[..CHUNK_LINES].iter().all(|l| *l == "here"), "the first chunk");
        assert!(lines[CHUNK_LINES..].iter().all(|l| *l == "there"), "the rest");
    }

    /// An answer that asks for chunks of its own size gets them: the first
    /// chunk, answered on the caller's thread, holds that many lines, and
    /// every later chunk is read to that size.
    #[test]
    fn an_answer_sets_its_chunks_size() {
        struct OwnSize(usize, std::thread::ThreadId);
        impl Answer<()> for OwnSize {
            fn text(&self, _: &mut (), _: &str, text: &mut String) -> bool {
                text.push_str(if std::thread::current().id() == self.1 { "here" } else { "there" });
                true
            }
            fn chunk_lines(&self) -> usize {
                self.0
            }
        }
        for size in [7, 3 * CHUNK_LINES] {
            let n = 5 * AHEAD * size + 2;
            let input: String = (0..n).map(|i| format!("{i}\n")).collect();
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
            each_line(io, vec![(); 2], OwnSize(size, std::thread::current().id())).unwrap();
            let out = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), n);
            assert!(lines[..size].iter().all(|l| *l == "here"), "{size}: the first chunk");
            assert!(lines[size..].iter().all(|l| *l == "there"), "{size}: the rest");
        }
        // Every later chunk is read to that size too.
        let input: String = (0..100).map(|i| format!("{i}\n")).collect();
        let mut reader = input.as_bytes();
        let (mut chunk, mut line, mut sizes) = (Chunk::default(), Vec::new(), Vec::new());
        loop {
            chunk.read(&mut reader, &mut line, true, 7).unwrap();
            if chunk.spans.is_empty() {
                break;
            }
            sizes.push(chunk.spans.len());
        }
        assert_eq!(sizes, [[7; 14].as_slice(), &[2]].concat());
    }

    /// Output that fails part way (a closed pipe) ends the run with the
    /// error, workers and all, rather than leaving it waiting.
    #[test]
    fn a_failed_write_ends_the_run() {
        struct Closed(usize);
        impl Write for Closed {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.0 < buf.len() {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                }
                self.0 -= buf.len();
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let input = "a\n".repeat(20 * CHUNK_LINES);
        let (mut out, mut err) = (Closed(5 * CHUNK_LINES), Vec::new());
        let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
        let answer = |_: &mut (), line: &str, text: &mut String| {
            text.push_str(line);
            true
        };
        let e = each_line(io, vec![(); 3], answer).expect_err("the write fails");
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }

    /// A panic while answering a line is the caller's, as if the line were
    /// answered on its thread (a fuzzer must see it).
    #[test]
    fn a_workers_panic_reaches_the_caller() {
        let input: String = (0..3 * CHUNK_LINES).map(|i| format!("{i}\n")).collect();
        let run = std::panic::catch_unwind(|| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let io = Streams { input: &mut input.as_bytes(), out: &mut out, err: &mut err };
            let answer = |_: &mut (), line: &str, _: &mut String| {
                assert_ne!(line, "1500", "a bug");
                true
            };
            each_line(io, vec![(); 2], answer)
        });
        let payload = run.expect_err("the panic reaches the caller");
        let message = payload.downcast_ref::<String>().map(String::as_str).unwrap_or_default();
        assert!(message.contains("a bug"), "{message}");
    }

    #[test]
    fn assembler_reports_bad_lines_and_goes_on() {
        let input = "frobnicate r0.x\nadd.f r0.x, r0.y, r0.z\n";
        let (out, _, stats) = run(input, |io| asm(&ISA, 600, Format::Words64, io));
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
        let (out, _, _) = run("2a05c2f2\n", |io| disasm_with(&AGX, 0, Format::Bytes, apple, io));
        assert_eq!(out, "fadd32           r1, r1.discard, 0.234375\n");
        let mesa = PrintOpts { syntax: 0, pad: Some(true) };
        let (out, _, _) = run("2a05c2f2\n", |io| disasm_with(&AGX, 0, Format::Bytes, mesa, io));
        assert_eq!(out, "fadd     r1, ^r1, 0.234375\n");
        let (out, _, _) =
            run("fadd32 r1, r1.discard, 0.234375\n", |io| asm_in(&AGX, 0, apple.syntax, Format::Bytes, io));
        assert_eq!(out, "0x2a,0x05,0xc2,0xf2\n");
    }

    /// Chunks hold the lines, and each line's length, that reading a line at
    /// a time gives: lines straddling the input's buffer, past MAX_LINE, at
    /// it, blank, with CR LF, and a last line without its line end.
    #[test]
    fn chunks_read_what_lines_read_one_at_a_time() {
        let mut rng = isa_runtime::TestRng::new(7);
        for round in 0..40 {
            let mut input = Vec::new();
            for _ in 0..(rng.next_u64() % 300) {
                let len = match rng.next_u64() % 8 {
                    0 => MAX_LINE - 1 + (rng.next_u64() % 3) as usize,
                    1 => MAX_LINE * 2,
                    2 => 0,
                    _ => (rng.next_u64() % 60) as usize,
                };
                input.extend((0..len).map(|k| b'a' + (k % 26) as u8));
                input.extend_from_slice(if rng.next_u64().is_multiple_of(5) { b"\r\n" } else { b"\n" });
            }
            if round % 2 == 1 {
                input.extend_from_slice(b"last");
            }
            // A buffer smaller than a long line, and one that holds several.
            let capacity = if round % 4 < 2 { 1000 } else { 3 * MAX_LINE };
            let mut want = Vec::new();
            let mut one = io::BufReader::with_capacity(capacity, &input[..]);
            let mut line = Vec::new();
            loop {
                line.clear();
                let n = read_bounded_line(&mut one, &mut line).unwrap();
                if n == 0 {
                    break;
                }
                want.push((line.clone(), n));
            }
            let mut got = Vec::new();
            let mut blocks = io::BufReader::with_capacity(capacity, &input[..]);
            let mut chunk = Chunk::default();
            loop {
                chunk.read(&mut blocks, &mut line, true, CHUNK_LINES).unwrap();
                if chunk.spans.is_empty() {
                    break;
                }
                assert!(chunk.spans.len() <= CHUNK_LINES);
                got.extend(chunk.spans.iter().map(|&(a, b, n)| (chunk.data[a..b].to_vec(), n)));
            }
            assert_eq!(got.len(), want.len(), "round {round}: lines");
            assert!(got == want, "round {round}: the same lines");
        }
    }

    #[test]
    fn overlong_lines_are_errors_not_memory() {
        let mut input = "0".repeat(MAX_LINE * 3);
        input.push_str("\n2024400000000020\n");
        let (out, _, stats) = run(&input, |io| disasm(&ISA, 600, Format::Words64, io));
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines[0], format!("error: the line is {} bytes long; the limit is {MAX_LINE}", MAX_LINE * 3 + 1));
        assert_eq!(lines.len(), 2);
        assert_eq!(stats.failed, 1);
    }
}
