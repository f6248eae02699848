#!/usr/bin/env bash
# The main job on the bundled examples: for every target, assemble each
# examples/<target>/*.asm, disassemble the machine code back, and check that the
# text comes back unchanged; disassemble each examples/<target>/*.hex; compile
# each examples/<target>/*.ir with the backend, print its listing and write its
# binary (whose size must match the listing).
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
    for ir in "$dir"*.ir; do
        [ -e "$ir" ] || continue
        echo "== $ir"
        listing=$("$isa" compile "${args[@]}" "$ir") || { status=1; continue; }
        printf '%s\n' "$listing"
        bin=$(mktemp)
        "$isa" compile "${args[@]}" --emit bin -o "$bin" "$ir" || status=1
        # Each listing line is ADDR:  ENCODING  TEXT, the encoding in hex digits.
        digits=$(printf '%s\n' "$listing" | awk -F'  ' '{e = $2; gsub(/ /, "", e); n += length(e)} END {print n}')
        if [ "$(wc -c < "$bin")" -ne $((digits / 2)) ]; then
            echo "   the binary's size does not match the listing"
            status=1
        fi
        rm -f "$bin"
    done
done
exit $status
