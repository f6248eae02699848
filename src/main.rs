//! The `isa` command line. See `isa help`.

use std::io::{self, BufReader, BufWriter};
use std::process::ExitCode;

use isagen::batch;
use isagen::hex::Format;
use isagen::runtime::{Isa, PrintOpts};

const HELP: &str = "\
isa: assemble and disassemble GPU instructions described in YAML

USAGE:
    isa targets
    isa disasm --target T [--gen G] [--syntax S] [--pad] [--input words64|bytes]  < code > text
    isa asm    --target T [--gen G] [--syntax S] [--output words64|bytes] < text > code
    isa abi    --target T [--stage S [--variant V] [--param NAME=N]... [--gen G]]
    isa compile --target T [--gen G] [--emit listing|bin] [-o FILE] FILE.ir

Batch mode: one instruction per line; output line i answers input line i. A bad
line prints `error: <reason>`, is reported on standard error as `isa: line N:
<reason>`, and the run goes on; the exit status is 1 when any line failed, 2 for
a usage error. Lines are at most 64 KiB of UTF-8 without control characters.
Lines are answered in chunks on every core; what has been read is answered
before isa waits for more, so a program may feed it one line at a time.

    --target T   a target from `isa targets`
    --gen G      a generation: name, alias or number (ir3: 400..800 as chip*100);
                 the target's default when omitted
    --input F    words64: 64-bit words as 16 hex digits, most significant first,
                 several per line for longer instructions, the last one
                 shorter when the instruction is (8 digits: 4 bytes) (default);
                 bytes: bytes in memory order (`0x02,0x07`, `02 07`, `0207`)
    --output F   the same formats, for `asm`
    --syntax S   an assembly syntax of the target (agx: mesa, the default, or
                 applegpu); `isa targets` lists them
    --pad        pad mnemonics to the syntax's column (applegpu always does)

compile: schedules, allocates registers and resolves hazards for a file of
backend IR (see examples/*/*.ir); prints a listing (address, encoding, text),
or with `--emit bin` writes the machine code to `-o FILE` (standard output
without -o).
";

struct Opts {
    target: &'static Isa,
    gen_: u32,
    format: Format,
    print: PrintOpts,
}

fn parse_opts(args: &[String], format_flag: &str) -> Result<Opts, String> {
    let mut target = None;
    let mut gen_name = None;
    let mut format = Format::Words64;
    let mut syntax_name = None;
    let mut pad = None;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--pad" && format_flag == "--input" {
            pad = Some(true);
            i += 1;
            continue;
        }
        let value = args.get(i + 1).ok_or_else(|| format!("{flag} needs a value"))?;
        match flag {
            "--target" => {
                target = Some(isagen::target(value).ok_or_else(|| {
                    let names: Vec<_> = isagen::TARGETS.iter().map(|t| t.name).collect();
                    format!("unknown target `{value}` (targets: {})", names.join(", "))
                })?)
            }
            "--gen" => gen_name = Some(value.clone()),
            "--syntax" => syntax_name = Some(value.clone()),
            f if f == format_flag => {
                format = Format::parse(value).ok_or_else(|| format!("unknown format `{value}` (words64 or bytes)"))?
            }
            _ => return Err(format!("unknown option `{flag}`")),
        }
        i += 2;
    }
    let target = target.ok_or("--target is required")?;
    let gen_ = match gen_name {
        None => target.default_gen,
        Some(g) => target.gen_by_name(&g).ok_or_else(|| {
            let gens: Vec<_> = target.gens.iter().map(|g| format!("{} ({})", g.name, g.value)).collect();
            format!("target {} has no generation `{g}` (generations: {})", target.name, gens.join(", "))
        })?,
    };
    let syntax = match syntax_name {
        None => 0,
        Some(s) => target.syntax_by_name(&s).ok_or_else(|| {
            let names: Vec<_> = target.syntaxes.iter().map(|s| s.name).collect();
            if names.is_empty() {
                format!("target {} has one syntax; `--syntax {s}` names none", target.name)
            } else {
                format!("target {} has no syntax `{s}` (syntaxes: {})", target.name, names.join(", "))
            }
        })?,
    };
    Ok(Opts { target, gen_, format, print: PrintOpts { syntax, pad } })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{HELP}");
        return ExitCode::from(2);
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut input = BufReader::with_capacity(1 << 20, stdin.lock());
    // Batch answers come a chunk (tens of KiB) at a time: a buffer smaller
    // than that hands each straight to the output rather than copying it
    // (1.7% of a disassembly's machine instructions), and still gathers the
    // small writes of the other commands.
    let mut output = BufWriter::with_capacity(1 << 12, stdout.lock());
    // Bad lines' reports; flushed by the batch before the summary below.
    let mut errors = BufWriter::new(io::stderr());
    let streams = batch::Streams { input: &mut input, out: &mut output, err: &mut errors };
    let result = match cmd.as_str() {
        "targets" => {
            for t in isagen::TARGETS {
                let gens: Vec<_> = t.gens.iter().map(|g| format!("{} ({})", g.name, g.value)).collect();
                let syntaxes: Vec<_> = t.syntaxes.iter().map(|s| s.name).collect();
                println!(
                    "{}\t{}\tgenerations: {}{}",
                    t.name,
                    t.doc,
                    if gens.is_empty() { "-".into() } else { gens.join(", ") },
                    if syntaxes.is_empty() { String::new() } else { format!("\tsyntaxes: {}", syntaxes.join(", ")) }
                );
            }
            return ExitCode::SUCCESS;
        }
        "help" | "--help" | "-h" => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        "abi" => {
            return match isagen::abi_cmd::run(&args[1..]) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("isa: {msg}");
                    ExitCode::from(2)
                }
            };
        }
        "compile" => {
            return match isagen::compile_cmd::run(&args[1..]) {
                Ok(isagen::compile_cmd::Output::Listing(text)) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Ok(isagen::compile_cmd::Output::Binary(bytes, path)) => {
                    let written = match path {
                        Some(p) => std::fs::write(&p, &bytes).map_err(|e| format!("{}: {e}", p.display())),
                        None => io::Write::write_all(&mut io::stdout().lock(), &bytes).map_err(|e| e.to_string()),
                    };
                    match written {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(msg) => {
                            eprintln!("isa: {msg}");
                            ExitCode::from(1)
                        }
                    }
                }
                Err((msg, code)) => {
                    eprintln!("isa: {msg}");
                    ExitCode::from(code)
                }
            };
        }
        "disasm" => {
            parse_opts(&args[1..], "--input").map(|o| batch::disasm_with(o.target, o.gen_, o.format, o.print, streams))
        }
        "asm" => parse_opts(&args[1..], "--output")
            .map(|o| batch::asm_in(o.target, o.gen_, o.print.syntax, o.format, streams)),
        other => Err(format!("unknown command `{other}`; see `isa help`")),
    };
    match result {
        Err(msg) => {
            eprintln!("isa: {msg}");
            ExitCode::from(2)
        }
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("isa: {e}");
            ExitCode::from(1)
        }
        Ok(Ok(stats)) if stats.failed > 0 => {
            eprintln!("isa: {} of {} lines failed", stats.failed, stats.lines);
            ExitCode::from(1)
        }
        Ok(Ok(_)) => ExitCode::SUCCESS,
    }
}
