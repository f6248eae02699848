#!/usr/bin/env bash
# The main job on the bundled examples: for every target, assemble each
# examples/<target>/*.asm, disassemble the machine code back, and check that the
# text comes back unchanged; disassemble each examples/<target>/*.hex.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --bin isa
isa=target/debug/isa
status=0
for dir in examples/*/; do
    target=$(basename "$dir")
    gen_file="$dir/GEN"
    gen=$( [ -f "$gen_file" ] && cat "$gen_file" || echo "" )
    args=(--target "$target")
    [ -n "$gen" ] && args+=(--gen "$gen")
    for asm in "$dir"*.asm; do
        [ -e "$asm" ] || continue
        echo "== $asm"
        code=$("$isa" asm "${args[@]}" --output words64 < "$asm") || status=1
        text=$(printf '%s\n' "$code" | "$isa" disasm "${args[@]}" --input words64) || status=1
        paste -d '\t' <(printf '%s\n' "$code") <(printf '%s\n' "$text")
        if ! diff <(grep -v '^$' "$asm") <(printf '%s\n' "$text" | grep -v '^$') >/dev/null; then
            echo "   the disassembly differs from $asm"
            status=1
        fi
    done
    for hex in "$dir"*.hex; do
        [ -e "$hex" ] || continue
        echo "== $hex"
        "$isa" disasm "${args[@]}" --input words64 < "$hex" || status=1
    done
done
exit $status
