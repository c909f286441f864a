# tt-metal mode: the real p100a firmware booted the tt-metal way, the real add1 compute kernels
# launched through its mailboxes (../shared/firmware), and run-config errors.
. test/sh/lib.sh
FWD=$SHARED/firmware/blackhole-p100a K=$SHARED/firmware/kernels-add1
CFG=firmware-samples/configs

if [ ! -d "$FWD" ] || [ ! -d "$K" ]; then
    skip "tt-metal boot and add1 launches" "../shared/firmware is absent (the real firmware corpus)"
else
    FWA=$(cd "$FWD" && pwd) KA=$(cd "$K" && pwd)

    # ---- boot to idle ----------------------------------------------------------------------
    run_ttemu run --config $CFG/tt-metal-boot.json --report "$TMP/boot.json" --peek 0x68 --peek 0x370
    expect_exit "boot: run ends at the stop condition (exit 0)" 0
    R=$TMP/boot.json
    expect_json "boot: go signal DONE" $R 'r["peek"]["0x00000370"][0] >> 24' 0
    expect_json "boot: subordinate_sync all zero" $R 'r["peek"]["0x00000068"][0]' 0
    expect_json "boot: completes near 4,300 cycles" $R '4000 < r["boot_cycles"] < 5000' True
    expect_json "boot: semaphores 1, 2, 7 Max 1 Value 0; others Max 0" $R \
        '[(s["value"], s["max"]) for s in r["semaphores"]]' '[[0, 0], [0, 1], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 1]]'
    expect_json "boot: no mutex held" $R 'list(r["mutexes"].values())' '[null, null, null, null]'
    expect_json "boot: T0 received exactly 8 words, T1/T2 none" $R '[t["pushed"] for t in r["threads"]]' '[8, 0, 0]'
    expect_json "boot: T0's 8 words all issued" $R 'r["threads"][0]["issued"]' 8
    expect_json "boot: T0 received exactly ZEROACC, SFPENCC, NOP, SFPLOADI, SFPCONFIG, SEMINIT 1, 2, 7" $R \
        '[hex(w) for w in r["threads"][0]["first_pushed"]]' \
        '["0x10180000", "0x8a00300a", "0x2000000", "0x7100bf80", "0x910000b0", "0xa3100008", "0xa3100010", "0xa3100200"]'
    expect_json "boot: every core running in main" $R '[(c["state"], c["symbol"].split("+")[0]) for c in r["cores"]]' \
        '[["running", "main"], ["running", "main"], ["running", "main"], ["running", "main"], ["running", "main"]]'
    # Idle: each core spins in a poll loop: sampled at many later cycles, each core is found at only
    # a few distinct pcs (a loop), all in main.
    for k in 1 2 3 5 7 11 13 17 19 23 101 997; do
        sed "s/\"cycles\": 20000/\"cycles\": $((20000 + k))/" $CFG/tt-metal-boot.json > "$TMP/boot$k.json"
        sed -i "s|\"../../../shared/firmware/blackhole-p100a\"|\"$FWA\"|" "$TMP/boot$k.json"
        "$TTEMU" run --config "$TMP/boot$k.json" --quiet --report "$TMP/b$k.json"
    done
    # (12 samples: a count of distinct pcs could not fail; the span and the function can)
    expect_json "boot: idle cores spin in poll loops in main (sampled pcs within 1 KiB, all in main)" $R \
        "[max(p) - min(p) < 1024 and all(s.startswith('main') for s in y) for p, y in ((list(zip(*c))[0], list(zip(*c))[1]) for c in zip(*[[(c['pc'], c['symbol']) for c in __import__('json').load(open('$TMP/b%d.json' % k))['cores']] for k in (1,2,3,5,7,11,13,17,19,23,101,997)]))]" \
        '[true, true, true, true, true]'
    check "boot: a second identical run gives a byte-identical report" \
        bash -c "'$TTEMU' run --config $CFG/tt-metal-boot.json --peek 0x68 --peek 0x370 --quiet --report '$TMP/boot2.json' && cmp '$R' '$TMP/boot2.json'"

    # ---- add1 compute launches -------------------------------------------------------------
    add1_config() { # N [L]: writes $TMP/add1_N_L.json, CB0/CB16 of N pages launched L times (default 1)
        # (scripts/add1_config.py), each launch's CB0 tiles_acked and CB16 tiles_received read when it is done
        python3 scripts/add1_config.py --shared "$SHARED" -n "$1" --launches "${2:-1}" --cb16 0x40000 \
            --launch-read 0xFFB48020:acked --launch-read 0xFFB58028:received --peek 0x370 --max-cycles 10000000 \
            > "$TMP/add1_$1_${2:-1}.json"
    }
    for n in 1 3 8; do
        add1_config $n
        run_ttemu run --config "$TMP/add1_${n}_1.json" --report "$TMP/a$n.json" --quiet
        R=$TMP/a$n.json
        expect_exit "add1 N=$n: launch completes (exit 0)" 0
        expect_json "add1 N=$n: go signal DONE" $R 'r["peek"]["0x00000370"][0] >> 24' 0
        expect_json "add1 N=$n: CB0 tiles_acked = N before TRISC0 clears the streams" $R 'r["host_reads"]["acked0"]' "[$n]"
        expect_json "add1 N=$n: CB16 tiles_received = N before TRISC0 clears the streams" $R 'r["host_reads"]["received0"]' "[$n]"
        expect_json "add1 N=$n: every semaphore at Value 0" $R '[s["value"] for s in r["semaphores"]]' '[0, 0, 0, 0, 0, 0, 0, 0]'
        expect_json "add1 N=$n: all three threads pushed and issued Tensix instructions" $R \
            'all(t["pushed"] > 0 and t["issued"] >= t["pushed"] - t["consumed"] for t in r["threads"])' True
        expect_json "add1 N=$n: launch_cycles reported" $R 'r["launch_cycles"][0] > 0' True
        eval "push$n=\$(json_get $R '[t[\"pushed\"] for t in r[\"threads\"]]')"
    done
    check "add1: more tiles push more Tensix instructions" python3 -c \
        "a,b,c=$push1,$push3,$push8; assert all(x<y<z for x,y,z in zip(a,b,c)), (a,b,c)"

    add1_config 3 2
    run_ttemu run --config "$TMP/add1_3_2.json" --report "$TMP/twice.json" --quiet
    R=$TMP/twice.json
    expect_exit "add1 launched twice in one run (exit 0)" 0
    expect_json "second launch: acked and received again" $R \
        '[r["host_reads"][k] for k in ("acked0", "received0", "acked1", "received1")]' '[[3], [3], [3], [3]]'
    expect_json "both launches timed" $R 'len(r["launch_cycles"]) == 2 and all(c > 0 for c in r["launch_cycles"])' True
    check "add1: two runs of one config give byte-identical reports" \
        bash -c "'$TTEMU' run --config '$TMP/add1_3_2.json' --quiet --report '$TMP/twice2.json' && cmp '$R' '$TMP/twice2.json'"
fi

# ---- run-config errors: exit 4 with file, key and expectation ------------------------------
bad() { # NAME REGEX JSON
    printf '%s\n' "$3" > "$TMP/bad.json"
    run_ttemu run --config "$TMP/bad.json"
    if [ "$RC" -eq 4 ] && grep -qE -- "$2" <<<"$OUT"; then ok "config error: $1"; else nok "config error: $1" "exit $RC" "$OUT"; fi
}
run_ttemu run --config "$TMP/nope.json"
expect_exit "config error: missing config file (exit 4)" 4
expect_out "config error: missing config file named" "nope.json: cannot open"
bad "not JSON" "bad.json: line 2: not valid JSON" '{
  "version": 1,,
}'
bad "wrong version" "key 'version': expected 1, got 7" '{"version": 7, "cores": {"brisc": "x.elf"}}'
bad "unknown key" "key 'frimware': unknown key \(expected one of: version, firmware" '{"version": 1, "frimware": "x"}'
bad "wrong type" "key 'max_cycles': expected an integer" '{"version": 1, "cores": {"brisc": "x.elf"}, "max_cycles": "lots"}'
bad "unknown core" "key 'cores.brisk': unknown key" '{"version": 1, "cores": {"brisk": "x.elf"}}'
bad "firmware and cores both" "give exactly one of" '{"version": 1, "cores": {"brisc": "x"}, "firmware": "y"}'
bad "missing firmware file" "brisc.elf: cannot open" '{"version": 1, "firmware": "/nonexistent"}'
bad "unaligned circular buffer" "launches\[0\].circular_buffers\[0\]': addr, size and page_size must be multiples of 16" \
    '{"version": 1, "firmware": "/x", "launches": [{"kernels": {"brisc": "k.bin"}, "circular_buffers": [{"id": 0, "addr": "0x20004", "size": 2048, "num_pages": 1, "page_size": 2048}]}]}'
bad "unaligned host write" "host\[0\].write': addr must be aligned" \
    '{"version": 1, "cores": {"brisc": "x"}, "host": [{"at": "before_boot", "write": {"addr": "0x8002", "value": 1}}]}'
bad "sub-word host write to a device register" "host\[0\].write': size must be 4 for a device register" \
    '{"version": 1, "cores": {"brisc": "x"}, "host": [{"at": "before_boot", "write": {"addr": "0xFFB48028", "value": 1, "size": 1}}]}'
bad "half a compute kernel set" "give all three" \
    '{"version": 1, "firmware": "/x", "launches": [{"kernels": {"trisc0": "k.bin"}}]}'
bad "a bare-mode host op after boot would never run" "host\[0\].at': a bare-mode run \\(.cores.\\) has only .before_boot." \
    '{"version": 1, "cores": {"brisc": "x"}, "host": [{"at": "after_boot", "write": {"addr": "0x8000", "value": 1}}]}'
bad "a launch number at a point without launches" "host\[0\].launch': only \"kernels_done\" and \"after_launch\" ops take a launch" \
    '{"version": 1, "firmware": "/x", "launches": [{"kernels": {"brisc": "k.bin"}}], "host": [{"at": "after_boot", "launch": 0, "read": {"addr": "0x8000"}}]}'
bad "a launch that does not exist" "host\[0\].launch': launch 1 does not exist \(1 configured\)" \
    '{"version": 1, "firmware": "/x", "launches": [{"kernels": {"brisc": "k.bin"}}], "host": [{"at": "kernels_done", "launch": 1, "read": {"addr": "0x8000"}}]}'
# A key's path is made only for its message (loader/config.c get_u32, index_of, join4): each
# part of it named, a two-digit index, the two kinds of a bad integer, and a path cut at 159.
L10=$(printf '{"kernels": {"brisc": "k.bin"}}, %.0s' $(seq 10))
bad "a bad launch named by a two-digit index" "key 'launches\[10\]\.kernel_config_base': expected a 16-byte aligned L1 address" \
    "{\"version\": 1, \"firmware\": \"/x\", \"launches\": [$L10{\"kernel_config_base\": \"0x82b4\", \"kernels\": {\"brisc\": \"k.bin\"}}]}"
CB0='{"id": 0, "addr": "0x20000", "size": 2048, "num_pages": 1, "page_size": 2048}'
bad "a fractional circular buffer size named" "key 'launches\[0\]\.circular_buffers\[1\]\.size': expected an integer from 0 to 4294967295, got 1\.5$" \
    "{\"version\": 1, \"firmware\": \"/x\", \"launches\": [{\"kernels\": {\"brisc\": \"k.bin\"}, \"circular_buffers\": [$CB0, {\"id\": 1, \"addr\": \"0x30000\", \"size\": 1.5, \"num_pages\": 1, \"page_size\": 2048}]}]}"
bad "a circular buffer's page count in words named" "key 'launches\[0\]\.circular_buffers\[1\]\.num_pages': expected an integer from 0 to 4294967295 \(a number or a \"0x\.\.\.\" string\)" \
    "{\"version\": 1, \"firmware\": \"/x\", \"launches\": [{\"kernels\": {\"brisc\": \"k.bin\"}, \"circular_buffers\": [$CB0, {\"id\": 1, \"addr\": \"0x30000\", \"size\": 2048, \"num_pages\": \"many\", \"page_size\": 2048}]}]}"
LONG=$(printf 'k%.0s' $(seq 200))
bad "a long key's path cut at 159 characters" "key 'cores\.k{153}': unknown key" \
    "{\"version\": 1, \"cores\": {\"$LONG\": \"x.elf\"}}"
bad "bad stop point" "key 'stop.at': expected" '{"version": 1, "cores": {"brisc": "x"}, "stop": {"at": "never"}}'
if [ -d "$SHARED/firmware/blackhole-p100a" ]; then
    FWA=$(cd "$SHARED/firmware/blackhole-p100a" && pwd)
    bad "kernel overlapping a circular buffer" "circular_buffers': buffer 0 overlaps kernel" \
        "{\"version\": 1, \"firmware\": \"$FWA\", \"launches\": [{\"kernels\": {\"brisc\": \"$FWA/../kernels-add1/writer_brisc.bin\"}, \"circular_buffers\": [{\"id\": 0, \"addr\": \"0x8ab0\", \"size\": 2048, \"num_pages\": 1, \"page_size\": 2048}]}]}"
    bad "kernel config buffer over the firmware" "launches\[0\].kernel_config_base': 0x00003000\.\..* overlaps the firmware" \
        "{\"version\": 1, \"firmware\": \"$FWA\", \"launches\": [{\"kernel_config_base\": \"0x3000\", \"kernels\": {\"brisc\": \"$FWA/../kernels-add1/writer_brisc.bin\"}}]}"
    bad "unaligned kernel config buffer" "launches\[0\].kernel_config_base': expected a 16-byte aligned" \
        "{\"version\": 1, \"firmware\": \"$FWA\", \"launches\": [{\"kernel_config_base\": \"0x82b4\", \"kernels\": {\"brisc\": \"$FWA/../kernels-add1/writer_brisc.bin\"}}]}"
    bad "circular buffer over the firmware" "circular_buffers\[0\]': overlaps the firmware" \
        "{\"version\": 1, \"firmware\": \"$FWA\", \"launches\": [{\"kernels\": {\"brisc\": \"$FWA/../kernels-add1/writer_brisc.bin\"}, \"circular_buffers\": [{\"id\": 0, \"addr\": \"0x3800\", \"size\": 2048, \"num_pages\": 1, \"page_size\": 2048}]}]}"
else
    skip "config errors against the firmware" "../shared/firmware is absent"
fi

# ---- kernels as execute-in-place ELF, bare-mode flat binaries -------------------------------
if [ -d "$K" ]; then
    KA=$(cd "$K" && pwd)
    for k in trisc0_unpack trisc1_math trisc2_pack; do
        riscv64-unknown-elf-ld -N -m elf32lriscv -b binary --section-start=.data=0x9000 -e 0x9000 \
            "$KA/compute_$k.bin" -o "$TMP/$k.elf"
    done
    add1_config 3
    sed -e "s|$KA/compute_\([a-z0-9_]*\)\.bin|$TMP/\1.elf|g" "$TMP/add1_3_1.json" > "$TMP/add1_elf.json"
    run_ttemu run --config "$TMP/add1_elf.json" --report "$TMP/aelf.json" --quiet
    expect_exit "add1 from ELF kernels (exit 0)" 0
    check "ELF kernels behave exactly like the flat images" python3 -c "
import json; a = json.load(open('$TMP/aelf.json')); b = json.load(open('$TMP/a3.json'))
assert a['host_reads'] == b['host_reads'] and a['threads'] == b['threads'] and a['cycles'] == b['cycles']"
    # A kernel ELF whose segment has more file data than memory (p_filesz > p_memsz) is refused,
    # not copied past the image it sizes from p_memsz.
    python3 - "$TMP/trisc0_unpack.elf" "$TMP/short_memsz.elf" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<I", b, 0x1C)
for i in range(struct.unpack_from("<H", b, 0x2C)[0]):
    o = phoff + i * struct.unpack_from("<H", b, 0x2A)[0]
    if struct.unpack_from("<I", b, o)[0] == 1:  # PT_LOAD
        filesz, = struct.unpack_from("<I", b, o + 16)
        struct.pack_into("<I", b, o + 20, filesz - 16)  # p_memsz 16 bytes short of p_filesz
        break
open(sys.argv[2], "wb").write(b)
PY
    sed -e "s|$TMP/trisc0_unpack.elf|$TMP/short_memsz.elf|" "$TMP/add1_elf.json" > "$TMP/short.json"
    run_ttemu run --config "$TMP/short.json" --quiet
    expect_exit "kernel ELF with p_filesz > p_memsz: bad input (exit 4)" 4
    expect_out "kernel ELF with p_filesz > p_memsz: named" "short_memsz.elf: segment 0 has file data past the end of the file or of the segment"
fi
riscv64-unknown-elf-objcopy -O binary "$FW/demo/brisc.elf" "$TMP/brisc.bin"
printf '{"version": 1, "cores": {"brisc": {"file": "brisc.bin", "addr": "0x10000"}}, "peek": ["0x8000"]}\n' > "$TMP/flat.json"
run_ttemu run --config "$TMP/flat.json" --report "$TMP/flat_r.json" --quiet
expect_exit "bare mode: a flat binary at its load address runs (exit 0)" 0
expect_json "bare mode: the flat binary's result" "$TMP/flat_r.json" 'r["peek"]["0x00008000"][0]' 5050
printf '{"version": 1, "cores": {"brisc": {"file": "brisc.bin", "addr": "0x10002"}}}\n' > "$TMP/bad.json"
run_ttemu run --config "$TMP/bad.json"
expect_exit "config error: unaligned load address (exit 4)" 4
expect_out "config error: unaligned load address named" "key 'cores.brisc.addr': expected a 4-byte aligned L1 address"
