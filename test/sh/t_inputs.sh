# Inputs that must be refused cleanly (issue 20): no undefined behaviour on odd numbers, no
# unbounded reads, no ambiguous keys, no output over another file, valid UTF-8 out. Each case
# exits 4 naming the file and the key (or runs, where the input is fine). Under the sanitizer
# pass (make test-asan) the same checks also prove the paths free of undefined behaviour.
. test/sh/lib.sh
D=$FW/demo

# bad NAME REGEX JSON: the config is refused, exit 4, the message matches REGEX.
bad() {
    printf '%s\n' "$3" > "$TMP/bad.json"
    run_ttemu run --config "$TMP/bad.json"
    if [ "$RC" -eq 4 ] && grep -qE -- "$2" <<<"$OUT"; then ok "config: $1"; else nok "config: $1" "exit $RC" "$OUT"; fi
}

# ---- item 4: numbers out of every integer's range (float-cast-overflow) ---------------------
bad "version 1e60 (a double beyond uint64_t)" "key 'version': expected an integer from 0 to 4294967295, got 1e\+60" \
    '{"version": 1e60, "cores": {"brisc": "x.elf"}}'
bad "max_cycles -1e300" "key 'max_cycles': expected an integer" '{"version": 1, "cores": {"brisc": "x.elf"}, "max_cycles": -1e300}'
bad "stop.cycles 1.8446744073709552e19 (2^64)" "key 'stop.cycles': expected an integer" \
    '{"version": 1, "cores": {"brisc": "x.elf"}, "stop": {"at": "cycles", "cycles": 18446744073709551616}}'
bad "a fraction" "key 'max_cycles': expected an integer" '{"version": 1, "cores": {"brisc": "x.elf"}, "max_cycles": 2.5}'
# ---- item 4: an empty regress directory (qsort of no names) ---------------------------------
mkdir -p "$TMP/emptydir"
run_ttemu regress "$TMP/emptydir"
expect_exit "regress: an empty directory is bad input (exit 4)" 4
expect_out "regress: an empty directory is named" "emptydir: no run configs"

# ---- item 5: circular buffer sizes in 64 bits, against L1 and each other --------------------
L='"version": 1, "firmware": "/x", "launches": [{"kernels": {"brisc": "k.bin"}, "circular_buffers": '
bad "CB num_pages * page_size wrapping in 32 bits" "circular_buffers\[0\]': size must equal num_pages \* page_size" \
    "{$L[{\"id\": 0, \"addr\": \"0x20000\", \"size\": 16, \"num_pages\": 268435457, \"page_size\": 16}]}]}"
bad "CB past the end of L1" "circular_buffers\[0\]': the buffer must lie in L1" \
    "{$L[{\"id\": 0, \"addr\": \"0x170000\", \"size\": 131072, \"num_pages\": 8, \"page_size\": 16384}]}]}"
bad "two CBs over each other" "circular_buffers\[1\]': 0x00020800\.\.0x00021000 overlaps circular buffer 0" \
    "{$L[{\"id\": 0, \"addr\": \"0x20000\", \"size\": 4096, \"num_pages\": 2, \"page_size\": 2048}, {\"id\": 1, \"addr\": \"0x20800\", \"size\": 2048, \"num_pages\": 1, \"page_size\": 2048}]}]}"
printf '%s\n' "{$L[{\"id\": 0, \"addr\": \"0x20000\", \"size\": 2048, \"num_pages\": 1, \"page_size\": 2048}, {\"id\": 1, \"addr\": \"0x20800\", \"size\": 2048, \"num_pages\": 1, \"page_size\": 2048}]}]}" >"$TMP/cbok.json"
run_ttemu run --config "$TMP/cbok.json"
expect_out "two adjacent CBs are accepted (the run fails later, on the missing firmware)" "brisc.elf: cannot open"
if [ -d "$SHARED/firmware/blackhole-p100a" ]; then
    FWA=$(cd "$SHARED/firmware/blackhole-p100a" && pwd)
    bad "CB over the kernel config buffer" "circular_buffers\[0\]': 0x00008400\.\.0x00008800 overlaps the kernel config buffer" \
        "{\"version\": 1, \"firmware\": \"$FWA\", \"launches\": [{\"kernel_config_base\": \"0x8300\", \"kernels\": {\"brisc\": \"$FWA/../kernels-add1/writer_brisc.bin\"}, \"circular_buffers\": [{\"id\": 0, \"addr\": \"0x8400\", \"size\": 1024, \"num_pages\": 1, \"page_size\": 1024}]}]}"
else
    skip "config: CB over the kernel config buffer" "no $SHARED/firmware"
fi

# ---- item 6: duplicate keys and names are refused, naming them -------------------------------
bad "duplicate top-level key" "bad.json: key 'max_cycles': given twice" \
    '{"version": 1, "cores": {"brisc": "x.elf"}, "max_cycles": 1000, "max_cycles": 5}'
bad "duplicate nested key" "key 'host\[0\].write.value': given twice" \
    '{"version": 1, "cores": {"brisc": "x.elf"}, "host": [{"at": "before_boot", "write": {"addr": "0x8000", "value": 1, "value": 2}}]}'
bad "duplicate core" "key 'cores.brisc': given twice" '{"version": 1, "cores": {"brisc": "x.elf", "brisc": "y.elf"}}'
bad "two host reads with one name" "key 'host\[1\].read.name': host\[0\].read is already named 'x'" \
    '{"version": 1, "firmware": "/x", "host": [{"at": "after_boot", "read": {"addr": "0x8000", "name": "x"}}, {"at": "after_boot", "read": {"addr": "0x9000", "name": "x"}}]}'
bad "two unnamed host reads of one address at one point" "key 'host\[1\].read.name': host\[0\].read is already named 'after_boot@0x00008000'" \
    '{"version": 1, "firmware": "/x", "host": [{"at": "after_boot", "read": {"addr": "0x8000"}}, {"at": "after_boot", "read": {"addr": "0x8000", "words": 2}}]}'
run_ttemu run --brisc $D/brisc.elf --peek 0x8000 --peek 0x8000:2
expect_exit "two peeks at one address: exit 4" 4
expect_out "two peeks at one address: named" "--peek 0x00008000 given twice"

# ---- item 9: the 65th --peek is refused for what it is ----------------------------------------
args=()
for i in $(seq 0 64); do args+=(--peek $((0x8000 + 4 * i))); done
run_ttemu run --brisc $D/brisc.elf --quiet "${args[@]}"
expect_exit "65 peeks: exit 4" 4
expect_out "65 peeks: the limit is named, not the syntax" "--peek 33024: at most 64 peeks may be given"
run_ttemu run --brisc $D/brisc.elf --quiet "${args[@]:0:128}"
expect_exit "64 peeks are fine" 0
# ---- item 9: a loop that stores every 3 cycles is not said to spin "with no store" -----------
for w in 100000 0; do
    run_ttemu run --brisc $FW/progs/storeloop_brisc.elf --max-cycles 50000 --deadlock-window $w --quiet
    expect_exit "storing loop at --max-cycles (window $w): exit 2" 2
    if grep -q "no store" <<<"$OUT"; then nok "storing loop (window $w): no claim of 'no store'" "$OUT"
    else ok "storing loop (window $w): no claim of 'no store'"; fi
    # Where it was: running there, computing there (its registers change), or unsampled.
    expect_out "storing loop (window $w): where it was running" "BRISC (was running in|computes (at|in)|runs at) 0x[0-9a-f]+.* \(main\+"
done

# ---- item 2: every input is a regular file of bounded size -----------------------------------
# A guard for the old behaviour (reading /dev/zero until memory runs out): an address-space limit
# where the build allows one (ASan reserves terabytes of address space: none there).
limit() { if ldd "$TTEMU" 2>/dev/null | grep -q libasan; then "$@"; else (ulimit -v 1000000; "$@"); fi; }
run_limited() { OUT=$(limit timeout 60 "$TTEMU" "$@" 2>&1); RC=$?; }
run_limited run --brisc /dev/zero
expect_exit "--brisc /dev/zero: exit 4" 4
expect_out "--brisc /dev/zero: named, not a regular file" "/dev/zero: not a regular file"
run_limited run --config /dev/zero
expect_exit "--config /dev/zero: exit 4" 4
expect_out "--config /dev/zero: named" "/dev/zero: not a regular file \(a run config is read from a regular file\)"
mkfifo "$TMP/fifo"
run_limited run --config "$TMP/fifo"
expect_exit "--config FIFO: refused at once, not waited on (exit 4)" 4
run_limited run --brisc "$TMP"
expect_exit "--brisc DIRECTORY: exit 4" 4
truncate -s $((64 * 1024 * 1024 + 1)) "$TMP/huge.elf"
run_limited run --brisc "$TMP/huge.elf"
expect_exit "an ELF over 64 MiB: exit 4" 4
expect_out "an ELF over 64 MiB: the limit named" "huge.elf: 67108865 bytes, more than an ELF image may be \(67108864 bytes\)"
{ printf '{"version": 1, "cores": {"brisc": "x.elf"}}'; head -c $((1024 * 1024)) /dev/zero | tr '\0' ' '; } >"$TMP/big.json"
run_limited run --config "$TMP/big.json"
expect_exit "a run config over 1 MiB: exit 4" 4
expect_out "a run config over 1 MiB: the limit named" "big.json: [0-9]+ bytes, more than a run config may be \(1048576 bytes\)"
truncate -s $((1536 * 1024 + 4)) "$TMP/big.bin"
printf '{"version": 1, "cores": {"brisc": {"file": "big.bin", "addr": 0}}}\n' >"$TMP/flat.json"
run_limited run --config "$TMP/flat.json"
expect_exit "a flat binary larger than L1: exit 4" 4
expect_out "a flat binary larger than L1: named" "big.bin: 1572868 bytes, more than a flat binary"
OUT=$(limit timeout 60 "$TTEMU" regress /dev/zero 2>&1); RC=$?
expect_exit "regress list /dev/zero: exit 4" 4
expect_out "regress list /dev/zero: named" "/dev/zero: not a regular file"
OUT=$(limit timeout 60 "$TTEMU" regress "$TMP/fifo" 2>&1); RC=$?
expect_exit "regress list FIFO: exit 4" 4
# An image of 16 KiB or more is mapped, a smaller one read (loader/file.c ldr_map_file_max): the
# same program either way (the demo's, and again with a 20,000- or 70,000-byte section before its
# symbols and section headers, as a firmware's debug sections are); an empty image is refused.
cp "$D/brisc.elf" "$TMP/small.elf"
run_ttemu run --brisc "$TMP/small.elf" --peek 0x8000:4
SMALL=${OUT//small.elf/X.elf}
for pad in 20000 70000; do
    head -c $pad /dev/zero >"$TMP/pad.bin"
    ${RV_PREFIX:-riscv64-unknown-elf-}objcopy --add-section .pad="$TMP/pad.bin" "$D/brisc.elf" "$TMP/padded.elf"
    run_ttemu run --brisc "$TMP/padded.elf" --peek 0x8000:4
    expect_exit "an ELF with $pad bytes more (mapped) runs: exit 0" 0
    if [ "${OUT//padded.elf/X.elf}" = "$SMALL" ] && grep -q "peek 0x00008000" <<<"$OUT"; then
        ok "an ELF with $pad bytes more (mapped) runs as the same ELF read"
    else nok "an ELF with $pad bytes more (mapped) runs as the same ELF read" "$OUT"; fi
done
: >"$TMP/empty.elf"
run_limited run --brisc "$TMP/empty.elf"
expect_exit "an empty ELF: exit 4" 4
expect_out "an empty ELF: named" "empty.elf: empty file"
# Tensor files and host write files have their limits too (docs/run-config.md, "Limits").
cp "$D/brisc.elf" "$TMP/tp.elf"
ln -s /dev/zero "$TMP/zero.npy"
truncate -s $((16 * 1024 * 1024 + 1)) "$TMP/huge.npy"
tens() { printf '{"version": 1, "cores": {"brisc": "tp.elf"}, "tensors": {"t": {"addr": "0x9000", "format": "int32", "shape": [4], "layout": "rows"}}, "inputs": {"t": "%s"}}\n' "$1" >"$TMP/tens.json"; }
tens zero.npy
run_limited run --config "$TMP/tens.json" --quiet
expect_exit "a .npy input on /dev/zero: exit 4" 4
expect_out "a .npy input on /dev/zero: named" "zero.npy: not a regular file"
tens huge.npy
run_limited run --config "$TMP/tens.json" --quiet
expect_out "a .npy input over 16 MiB: the limit named" "huge.npy: 16777217 bytes, more than a .npy file may be \(16777216 bytes\)"
printf '{"version": 1, "cores": {"brisc": "tp.elf"}, "host": [{"at": "before_boot", "write": {"addr": "0x8000", "file": "zero.npy"}}]}\n' >"$TMP/hw.json"
run_limited run --config "$TMP/hw.json" --quiet
expect_exit "a host write file on /dev/zero: exit 4" 4
expect_out "a host write file on /dev/zero: named" "zero.npy: not a regular file"
