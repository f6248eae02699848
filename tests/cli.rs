//! The `isa` command on hostile input: every bad line is answered on standard
//! output (`error: ...`, line for line) and reported on standard error with
//! its line number, the run goes on, and the exit status is 1. Each run must
//! simply finish; nothing here measures time.

#[path = "support/pipe.rs"]
mod pipe;

/// Runs `isa args` with `input` on standard input: (stdout, stderr, status).
fn isa(args: &[&str], input: Vec<u8>) -> (String, String, i32) {
    let out = pipe::run(env!("CARGO_BIN_EXE_isa"), args, input);
    let text = |b: Vec<u8>| String::from_utf8(b).expect("isa writes UTF-8 only");
    (text(out.stdout), text(out.stderr), out.status.code().expect("isa exits, not killed by a signal"))
}

/// `mov.f32f32 r0.x, c8.x` on a6xx, from Mesa's vectors.
const GOOD_WORD: &str = "2024400000000020";

#[test]
fn disasm_reports_each_bad_line_and_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(format!("{GOOD_WORD}\n").as_bytes());
    input.extend(std::iter::repeat_n(b'0', 10 << 20)); // a 10 MB line
    input.extend_from_slice(b"\n02 4\n");
    input.extend_from_slice(b"zz 20\n");
    input.extend_from_slice(b"20244000\x0000000020\n");
    input.extend_from_slice(b"2024\xff\xfe\n");
    input.extend_from_slice(b"\n");
    input.extend_from_slice(format!("0x{GOOD_WORD}").as_bytes()); // no final newline
    let (out, err, status) = isa(&["disasm", "--target", "ir3", "--gen", "a6xx"], input);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "mov.f32f32 r0.x, c8.x",
            "error: the line is 10485761 bytes long; the limit is 65536",
            "error: column 4: `4` has an odd number of hex digits",
            "error: column 1: `zz` is not hexadecimal",
            "error: column 9: control character U+0000",
            "error: byte 5: not valid UTF-8",
            "",
            "mov.f32f32 r0.x, c8.x",
        ]
    );
    assert_eq!(
        err,
        "isa: line 2: the line is 10485761 bytes long; the limit is 65536\n\
         isa: line 3: column 4: `4` has an odd number of hex digits\n\
         isa: line 4: column 1: `zz` is not hexadecimal\n\
         isa: line 5: column 9: control character U+0000\n\
         isa: line 6: byte 5: not valid UTF-8\n\
         isa: 5 of 8 lines failed\n"
    );
    assert_eq!(status, 1);
}

#[test]
fn disasm_bytes_input_refuses_odd_and_foreign_digits() {
    let (out, err, status) = isa(&["disasm", "--target", "agx", "--input", "bytes"], b"2a05c2f\n0x2a,0xg5\n".to_vec());
    assert_eq!(
        out,
        "error: column 1: `2a05c2f` has an odd number of hex digits\nerror: column 6: `0xg5` is not hexadecimal\n"
    );
    assert!(err.starts_with("isa: line 1: column 1: ") && err.contains("\nisa: line 2: column 6: "), "{err}");
    assert_eq!(status, 1);
}

#[test]
fn asm_reports_each_bad_line_and_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"frobnicate r0.x\n");
    input.extend_from_slice(format!("{} r0.x\n", "x".repeat(60_000)).as_bytes());
    input.extend_from_slice(b"add.f r0.x,\0 r0.y, r0.z\n");
    input.extend_from_slice(b"add.f r0.x, r\xc0.y, r0.z\n");
    input.extend(std::iter::repeat_n(b' ', 10 << 20));
    input.extend_from_slice(b"\nadd.f r0.x, r0.y, r0.z\n");
    let (out, err, status) = isa(&["asm", "--target", "ir3", "--gen", "a6xx"], input);
    let lines: Vec<_> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert_eq!(lines[0], "error: column 1: unknown instruction `frobnicate`");
    // An unknown mnemonic 60,000 characters long is quoted, but not whole.
    assert!(lines[1].starts_with("error: column 1: unknown instruction `xxx") && lines[1].ends_with("..."));
    assert!(lines[1].len() < 300, "{}", lines[1].len());
    assert_eq!(lines[2], "error: column 12: control character U+0000");
    assert_eq!(lines[3], "error: byte 14: not valid UTF-8");
    assert_eq!(lines[4], "error: the line is 10485761 bytes long; the limit is 65536");
    assert_eq!(lines[5], "4010000000020001");
    let reports: Vec<_> = err.lines().collect();
    assert_eq!(reports.len(), 6, "{err}");
    for (i, n) in [1, 2, 3, 4, 5].iter().enumerate() {
        assert!(reports[i].starts_with(&format!("isa: line {n}: ")), "{}", reports[i]);
        assert!(reports[i].ends_with(lines[i].strip_prefix("error: ").unwrap()), "{}", reports[i]);
    }
    assert_eq!(reports[5], "isa: 5 of 6 lines failed");
    assert_eq!(status, 1);
}

#[test]
fn a_clean_run_exits_zero_and_says_nothing_on_stderr() {
    let (out, err, status) = isa(&["disasm", "--target", "ir3"], format!("{GOOD_WORD}\n\n{GOOD_WORD}\n").into_bytes());
    assert_eq!(out, "mov.f32f32 r0.x, c8.x\n\nmov.f32f32 r0.x, c8.x\n");
    assert_eq!((err.as_str(), status), ("", 0));
}

#[test]
fn words_asm_writes_read_back() {
    // A 32-bit instruction is written as one 8-digit word; it must read back
    // as 4 bytes, not as a 64-bit word with 4 zero bytes after it.
    let (code, err, status) =
        isa(&["asm", "--target", "gcn"], b"s_mov_b32 s0, s1\ns_mov_b32 s0, 0x12345678\n".to_vec());
    assert_eq!((code.as_str(), err.as_str(), status), ("be800001\n12345678be8000ff\n", "", 0));
    let (text, err, status) = isa(&["disasm", "--target", "gcn"], code.into_bytes());
    assert_eq!((text.as_str(), err.as_str(), status), ("s_mov_b32 s0, s1\ns_mov_b32 s0, 0x12345678\n", "", 0));
}

#[test]
fn usage_errors_exit_two() {
    let (out, err, status) = isa(&["disasm", "--target", "nope"], Vec::new());
    assert_eq!((out.as_str(), status), ("", 2));
    assert!(err.starts_with("isa: unknown target `nope`"), "{err}");
}

/// Lines are answered in chunks on every core; the answers still come out
/// in input order, with the right line numbers in the reports.
#[test]
fn long_runs_answer_in_order() {
    let input: String =
        (0..5000).map(|i| if i % 7 == 3 { format!("zz{i}\n") } else { format!("{GOOD_WORD}\n") }).collect();
    let (out, err, status) = isa(&["disasm", "--target", "ir3", "--gen", "a6xx"], input.into_bytes());
    assert_eq!(status, 1);
    let out: Vec<&str> = out.lines().collect();
    assert_eq!(out.len(), 5000);
    let reports: Vec<&str> = err.lines().filter(|l| l.starts_with("isa: line ")).collect();
    let bad: Vec<usize> = (0..5000).filter(|i| i % 7 == 3).collect();
    assert_eq!(reports.len(), bad.len());
    for (i, line) in out.iter().enumerate() {
        if i % 7 == 3 {
            assert_eq!(*line, format!("error: column 1: `zz{i}` is not hexadecimal"));
        } else {
            assert_eq!(*line, "mov.f32f32 r0.x, c8.x", "line {}", i + 1);
        }
    }
    for (r, i) in reports.iter().zip(bad) {
        assert_eq!(*r, format!("isa: line {}: column 1: `zz{i}` is not hexadecimal", i + 1));
    }
}

/// A program that writes one line and waits for its answer gets it: `isa`
/// answers what it has read before it waits for more input.
#[test]
fn a_line_at_a_time_is_answered_at_once() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_isa"))
        .args(["asm", "--target", "ir3", "--gen", "a6xx"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("isa starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for _ in 0..2 {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("isa answers");
            tx.send(line).expect("the test listens");
        }
    });
    for _ in 0..2 {
        stdin.write_all(b"mov.f32f32 r0.x, c8.x\n").expect("isa reads");
        stdin.flush().expect("isa reads");
        // The input stays open: the answer must come without it ending.
        let answer = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("an answer while the input is open");
        assert_eq!(answer, format!("{GOOD_WORD}\n"));
    }
    drop(stdin);
    reader.join().expect("reader");
    assert!(child.wait().expect("isa exits").success());
}
