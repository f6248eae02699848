//! `isa` against llvm-mc, the tool our users would otherwise run, on the same
//! input in one run: `cargo xtask bench-peer` (or `cargo bench --bench peer`).
//!
//! It draws a stream of GCN GFX8 instructions from the spec (every opcode the
//! differential tests hold to llvm-mc, in turn, with random operands; fixed
//! seed), writes it as bytes (`0x..,0x..` per line, which both tools read) and
//! as our text, then times, alternating in each round, `isa disasm` against
//! `llvm-mc -disassemble` and `isa asm` against `llvm-mc -show-encoding`, each
//! as one process over the whole stream. Every run's output is checked against
//! the other tool's, line by line: a speed is only reported for identical
//! answers. Times are wall-clock, best of the rounds (the least disturbed by
//! whatever else the machine does), with the median beside it.
//!
//! Options: `--count N` instructions (default 1,000,000), `--rounds R`
//! (default 3), `--require` (fail, rather than skip, without llvm-mc),
//! `--rss-lines N`: also stream N lines (the stream over and over) through
//! `isa disasm` and `isa asm` and report their peak resident memory, sampled
//! from `/proc` every 10 ms (Linux).

// Shared with the differential tests, which use all of it.
#[allow(dead_code)]
#[path = "../tests/support/llvm_mc.rs"]
mod llvm_mc;

#[path = "../tests/support/gcn_pending.rs"]
mod gcn_pending;

use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use isa_runtime::{Isa, TestRng};
use isa_specs::gcn::ISA;

const GFX8: u32 = 8;

struct Options {
    count: usize,
    rounds: usize,
    require: bool,
    /// Lines to stream through each direction while sampling peak memory.
    rss_lines: usize,
}

fn options() -> Result<Options, String> {
    let mut o = Options { count: 1_000_000, rounds: 3, require: false, rss_lines: 0 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> Result<usize, String> {
            let v = it.next().ok_or_else(|| format!("`{what}` needs a number"))?;
            v.replace('_', "").parse().map_err(|_| format!("`{what} {v}`: not a number"))
        };
        match a.as_str() {
            "--count" => o.count = number("--count")?,
            "--rounds" => o.rounds = number("--rounds")?,
            "--rss-lines" => o.rss_lines = number("--rss-lines")?,
            "--require" => o.require = true,
            // What `cargo bench` passes to every bench binary.
            "--bench" => {}
            other if !other.starts_with('-') => {} // a criterion-style filter
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if o.count == 0 || o.rounds == 0 {
        return Err("`--count` and `--rounds` must be at least 1".into());
    }
    Ok(o)
}

/// The stream: instruction bytes and our text, `count` of them, drawn from
/// every held opcode in turn.
fn stream(isa: &Isa, count: usize) -> (String, String) {
    let leaves: Vec<u16> =
        isa.instructions(GFX8).filter(|&l| !gcn_pending::pending(isa.leaves[l as usize].name)).collect();
    let mut rng = TestRng::new(0x9eef_0001);
    let (mut bytes, mut text) = (String::new(), String::new());
    let mut n = 0;
    let mut misses = 0;
    'fill: loop {
        for &leaf in &leaves {
            if n == count {
                break 'fill;
            }
            let Some(inst) = isa.sample(leaf, GFX8, &mut || rng.next_u64()) else {
                misses += 1;
                assert!(misses < 10 * count + 1000, "the sampler gives no instruction");
                continue;
            };
            // Canonical: bits the hardware ignores are zero, as we assemble them.
            let Ok(inst) = isa.decode(inst.bits & !isa.ignored_bits(&inst, GFX8), GFX8) else { continue };
            let t = isa.print(&inst, GFX8);
            if gcn_pending::pending(&t) {
                continue;
            }
            for (i, b) in inst.bits.to_le_bytes()[..inst.len_bytes()].iter().enumerate() {
                let _ = write!(bytes, "{}0x{b:02x}", if i > 0 { "," } else { "" });
            }
            bytes.push('\n');
            text.push_str(&t);
            text.push('\n');
            n += 1;
        }
    }
    (bytes, text)
}

/// Runs `program args < input > output`, returning the wall time.
fn timed(program: &str, args: &[&str], input: &Path, output: &Path) -> Result<Duration, String> {
    let stdin = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let stdout = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    let t = start.elapsed();
    if !status.success() {
        return Err(format!("{program} {} exited with {status}", args.join(" ")));
    }
    Ok(t)
}

/// llvm-mc's disassembly: one instruction per line, without the section
/// directive and indentation.
fn mc_disasm_lines(out: &str) -> Vec<&str> {
    out.lines().map(str::trim).filter(|l| !l.is_empty() && *l != ".text").collect()
}

/// llvm-mc's encodings: the bytes between the brackets of each `; encoding:`.
fn mc_asm_lines(out: &str) -> Vec<&str> {
    out.lines().filter_map(|l| l.split_once("; encoding: [")?.1.strip_suffix(']')).collect()
}

/// The first line where two answers differ, for the report.
fn compare(what: &str, ours: &[&str], theirs: &[&str], input: &[&str]) -> Result<(), String> {
    if let Some(i) = (0..ours.len().min(theirs.len())).find(|&i| ours[i] != theirs[i]) {
        return Err(format!(
            "{what}: line {} differs: input `{}`, isa `{}`, llvm-mc `{}`",
            i + 1,
            input.get(i).unwrap_or(&""),
            ours[i],
            theirs[i]
        ));
    }
    if ours.len() != theirs.len() {
        return Err(format!("{what}: isa answered {} lines, llvm-mc {}", ours.len(), theirs.len()));
    }
    Ok(())
}

struct Times(Vec<Duration>);

impl Times {
    fn best(&self) -> Duration {
        self.0.iter().copied().min().unwrap_or_default()
    }
    fn median(&self) -> Duration {
        let mut v = self.0.clone();
        v.sort();
        v.get(v.len() / 2).copied().unwrap_or_default()
    }
}

fn rate(n: usize, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64().max(1e-9)
}

fn run(o: &Options, mc: &str) -> Result<(), String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-peer");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let isa_bin = env!("CARGO_BIN_EXE_isa");
    eprintln!("building a stream of {} GCN GFX8 instructions ...", o.count);
    let (bytes, text) = stream(&ISA, o.count);
    let (bytes_in, text_in) = (dir.join("stream.bytes"), dir.join("stream.s"));
    std::fs::write(&bytes_in, &bytes).map_err(|e| e.to_string())?;
    let bytes_lines: Vec<&str> = bytes.lines().collect();
    // The assembly stream is the texts llvm-mc reads back to the bytes it
    // printed them from, found by one untimed run: llvm-mc 14 prints some gfx8
    // registers by names of later generations (`null`, `xnack_mask`) that its
    // own gfx8 assembler refuses, and reads a few texts it prints as other
    // bytes (compressed exports).
    let (encoded, refused) = llvm_mc::run(mc, &["-arch=amdgcn", "-mcpu=tonga", "-show-encoding"], &text);
    let refused: std::collections::HashSet<usize> = refused
        .lines()
        .filter(|l| l.contains(": error: "))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse().ok())
        .collect();
    let mut encodings = mc_asm_lines(&encoded).into_iter();
    let (mut asm_text, mut asm_bytes, mut other_bytes) = (Vec::new(), Vec::new(), 0);
    for (i, (t, b)) in text.lines().zip(&bytes_lines).enumerate() {
        if refused.contains(&(i + 1)) {
            continue;
        }
        if encodings.next() == Some(*b) {
            asm_text.push(t);
            asm_bytes.push(*b);
        } else {
            other_bytes += 1;
        }
    }
    let asm_input: String = asm_text.iter().flat_map(|l| [*l, "\n"]).collect();
    std::fs::write(&text_in, &asm_input).map_err(|e| e.to_string())?;
    let text_lines: Vec<&str> = text.lines().collect();

    let out = |name: &str| dir.join(name);
    let isa_disasm = ["disasm", "--target", "gcn", "--gen", "gfx8", "--input", "bytes"];
    let isa_asm = ["asm", "--target", "gcn", "--gen", "gfx8", "--output", "bytes"];
    let mc_disasm = ["-arch=amdgcn", "-mcpu=tonga", "-disassemble"];
    let mc_asm = ["-arch=amdgcn", "-mcpu=tonga", "-show-encoding"];
    let (mut t_isa_d, mut t_mc_d, mut t_isa_a, mut t_mc_a) = (vec![], vec![], vec![], vec![]);
    for round in 1..=o.rounds {
        eprintln!("round {round} of {}", o.rounds);
        t_isa_d.push(timed(isa_bin, &isa_disasm, &bytes_in, &out("isa.disasm"))?);
        t_mc_d.push(timed(mc, &mc_disasm, &bytes_in, &out("mc.disasm"))?);
        t_isa_a.push(timed(isa_bin, &isa_asm, &text_in, &out("isa.asm"))?);
        t_mc_a.push(timed(mc, &mc_asm, &text_in, &out("mc.asm"))?);
        let read = |name: &str| std::fs::read_to_string(out(name)).map_err(|e| format!("{name}: {e}"));
        let (ours, theirs) = (read("isa.disasm")?, read("mc.disasm")?);
        let ours: Vec<&str> = ours.lines().collect();
        compare("disassembly", &ours, &mc_disasm_lines(&theirs), &bytes_lines)?;
        compare("disassembly", &ours, &text_lines, &bytes_lines)?;
        let (ours, theirs) = (read("isa.asm")?, read("mc.asm")?);
        let ours: Vec<&str> = ours.lines().collect();
        compare("assembly", &ours, &mc_asm_lines(&theirs), &asm_text)?;
        compare("assembly", &ours, &asm_bytes, &asm_text)?;
    }
    let (n, m) = (o.count, asm_text.len());
    let (d_isa, d_mc, a_isa, a_mc) = (Times(t_isa_d), Times(t_mc_d), Times(t_isa_a), Times(t_mc_a));
    println!();
    println!(
        "GCN GFX8, {} rounds, outputs identical; wall time of one process over the stream. \
         Left out of the assembly stream: {} texts llvm-mc 14 refuses for gfx8, {other_bytes} it reads \
         as other bytes than it printed them from.",
        o.rounds,
        refused.len(),
    );
    println!("| direction | instructions | isa | llvm-mc 14 | isa / llvm-mc |");
    println!("|---|---|---|---|---|");
    for (what, k, ours, theirs) in [("disassemble", n, &d_isa, &d_mc), ("assemble", m, &a_isa, &a_mc)] {
        println!(
            "| {what} | {k} | {:.0} inst/s ({:.2} s; median {:.2} s) | {:.0} inst/s ({:.2} s; median {:.2} s) | {:.1}x |",
            rate(k, ours.best()),
            ours.best().as_secs_f64(),
            ours.median().as_secs_f64(),
            rate(k, theirs.best()),
            theirs.best().as_secs_f64(),
            theirs.median().as_secs_f64(),
            theirs.best().as_secs_f64() / ours.best().as_secs_f64().max(1e-9),
        );
    }
    if o.rss_lines > 0 {
        println!();
        println!("| `isa` streaming {} lines | peak resident memory | time |", o.rss_lines);
        println!("|---|---|---|");
        for (what, args, input) in [("disasm", &isa_disasm[..], &bytes), ("asm", &isa_asm[..], &asm_input)] {
            let (kib, t) = peak_rss(isa_bin, args, input, o.rss_lines)?;
            println!("| {what} | {:.1} MiB | {:.1} s |", kib as f64 / 1024.0, t.as_secs_f64());
        }
    }
    Ok(())
}

/// Streams `lines` lines of `input` (over and over) into `isa args`, output
/// discarded; returns the peak resident memory seen, in KiB, and the time.
fn peak_rss(isa: &str, args: &[&str], input: &str, lines: usize) -> Result<(u64, Duration), String> {
    use std::io::Write;
    let mut child = Command::new(isa)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{isa}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let block: Vec<&str> = input.lines().collect();
    let start = Instant::now();
    let feed = std::thread::scope(|s| {
        let writer = s.spawn(move || -> std::io::Result<()> {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut stdin);
            for line in block.iter().cycle().take(lines) {
                w.write_all(line.as_bytes())?;
                w.write_all(b"\n")?;
            }
            w.flush()
        });
        let status_path = format!("/proc/{}/status", child.id());
        let mut peak = 0u64;
        while !writer.is_finished() {
            peak = peak.max(vm_hwm(&status_path).unwrap_or(0));
            std::thread::sleep(Duration::from_millis(10));
        }
        (writer.join(), peak)
    });
    let (written, mut peak) = feed;
    written.map_err(|_| "the writer panicked".to_string())?.map_err(|e| format!("writing to isa: {e}"))?;
    // The input is closed once the writer is done; isa finishes the last lines.
    let status_path = format!("/proc/{}/status", child.id());
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if !status.success() {
                return Err(format!("isa {} exited with {status}", args.join(" ")));
            }
            break;
        }
        peak = peak.max(vm_hwm(&status_path).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok((peak, start.elapsed()))
}

/// The peak resident set (`VmHWM`, KiB) in a `/proc/PID/status` file.
fn vm_hwm(path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench-peer: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(mc) = llvm_mc::find() else {
        eprintln!("bench-peer: SKIPPED: llvm-mc (LLVM 14) not found; install llvm-14 (`.ci/run` does)");
        return if o.require { ExitCode::FAILURE } else { ExitCode::SUCCESS };
    };
    match run(&o, mc) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench-peer: {e}");
            ExitCode::FAILURE
        }
    }
}
