# The live panel (docs/ui.md): headless screenshots at chosen cycles of firmware samples, asserted
# from the snapshot the panel drew (FILE.json beside the image); held and released states give
# different images; a --ui run to its end gives the same report as a run without the panel.
. test/sh/lib.sh
P=$FW/progs B=$FW/broken D=$FW/demo

if ! "$TTEMU" --version | grep -qE '^features:.* ui'; then
    run_ttemu run --brisc $D/brisc.elf --ui
    expect_exit "UI=0 build: --ui is bad input (exit 4)" 4
    expect_out "UI=0 build: says so" "built without the panel \(UI=0\)"
    skip "panel screenshots and snapshots" "built with UI=0 (no SDL2 panel)"
    exit 0
fi

# A hang here must not block the suite: every panel run is bounded (not a timing assertion).
ui_run() { OUT=$(timeout 300 "$TTEMU" "$@" 2>&1); RC=$?; }
# img_check FILE: prints "WIDTHxHEIGHT COLOURS" of a 24/32-bit BMP (standard library only).
img_info() {
    python3 - "$1" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:2] == b"BM", "not a BMP"
off, = struct.unpack_from("<I", b, 10)
w, h = struct.unpack_from("<ii", b, 18)
bpp, = struct.unpack_from("<H", b, 28)
step = bpp // 8
row = (w * step + 3) & ~3
cols = set()
for y in range(abs(h)):
    r = b[off + y * row: off + y * row + w * step]
    cols.update(r[i:i + 3] for i in range(0, len(r), step * 7))  # every 7th pixel is plenty
print("%dx%d %d" % (w, abs(h), len(cols)))
EOF
}

MP="--trisc1 $P/stallwait_mathpack_trisc1.elf --trisc2 $P/stallwait_mathpack_trisc2.elf --trisc0 $P/stallwait_observer_trisc0.elf"

# Held: at cycle 100 the packer (T2) waits on MATH_PACK (semaphore 1) at Value 0, Max 2.
ui_run run $MP --quiet --ui-screenshot "$TMP/held.bmp" --ui-at 100 --report "$TMP/held-report.json"
expect_exit "--ui-at stops the run: exit 2" 2
S=$TMP/held.bmp.json
expect_json "held: stopped at cycle 100, reason stopped" "$S" '[r["cycle"], r["exit"]["reason"]]' '[100, "stopped"]'
expect_json "held: semaphore 1 MATH_PACK Value 0 Max 2, T2 waits on it" "$S" \
    '[r["semaphores"][1][k] for k in ("name", "value", "max", "waiters")]' '["MATH_PACK", 0, 2, [2]]'
expect_json "held: T2 held at its gate by the SEMWAIT, PACR held" "$S" \
    '[r["threads"][2][k] for k in ("state", "held", "cause", "held_mnemonic")] + [r["threads"][2]["latched_wait"]["mnemonic"]]' \
    '["held_sem", true, "semwait", "PACR", "SEMWAIT"]'
expect_json "held: the strip is exact for the cycles before --ui-at" "$S" \
    '[r["strip"]["exact"], r["strip"]["last_cycle"], r["strip"]["states"][2][-1]]' '[true, 100, "s"]'
expect_json "held: cores shown with their symbols" "$S" \
    '[(c["name"], c["state"], c["symbol"].startswith("main")) for c in r["cores"] if c["started"]]' \
    '[["TRISC0", "running", true], ["TRISC1", "running", true], ["TRISC2", "running", true]]'
expect_json "held: the report says stopped, with a stop diagnosis" "$TMP/held-report.json" \
    '[r["exit"]["code"], r["exit"]["reason"], r["cycles"], r["diagnosis"]["kind"]]' '[2, "stopped", 100, "stopped"]'

# Released: by cycle 200 math has posted; T2 got past its SEMWAIT.
ui_run run $MP --quiet --ui-screenshot "$TMP/rel.bmp" --ui-at 200
S=$TMP/rel.bmp.json
expect_json "released: semaphore 1 Value 1, nobody waits" "$S" \
    '[r["cycle"], r["semaphores"][1]["value"], r["semaphores"][1]["max"], r["semaphores"][1]["waiters"]]' '[200, 1, 2, []]'
expect_json "released: T2 no longer held, its strip shows the semaphore wait then issues" "$S" \
    '[r["threads"][2]["held"], "s" in r["strip"]["states"][2], "I" in r["strip"]["states"][2]]' '[false, true, true]'

# The images: real pictures, and the held and released states look different.
for f in held rel; do
    info=$(img_info "$TMP/$f.bmp" 2>&1)
    if [[ $info =~ ^([0-9]+)x([0-9]+)\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 640 ] && [ "${BASH_REMATCH[3]}" -gt 8 ]; then
        ok "$f.bmp is a non-trivial picture ($info)"
    else
        nok "$f.bmp is a non-trivial picture" "$info"
    fi
done
if [ -s "$TMP/held.bmp" ] && ! cmp -s "$TMP/held.bmp" "$TMP/rel.bmp"; then ok "held and released images differ"; else nok "held and released images differ"; fi

# Mutexes: mutex_leak: T0 takes mutex 2 and halts; T1 parks at ATGETM.
ui_run run --trisc0 $B/mutex_leak_trisc0.elf --trisc1 $B/mutex_leak_trisc1.elf --quiet --ui-screenshot "$TMP/m.png" --ui-at 500
S=$TMP/m.png.json
expect_json "mutex: mutex 2 owned by T0, T1 waiting" "$S" \
    '[(m["index"], m["holder"], m["waiters"]) for m in r["mutexes"]]' '[[0, null, []], [2, 0, [1]], [3, null, []], [4, null, []]]'
expect_json "mutex: T1 held at ATGETM by the mutex" "$S" \
    '[r["threads"][1][k] for k in ("state", "cause", "held_mnemonic")]' '["held_mutex", "mutex", "ATGETM"]'
expect_json "mutex: TRISC1 blocked in tensix_sync for T1" "$S" '[r["cores"][3]["blocked"]]' '["tensix_sync"]'
if head -c 8 "$TMP/m.png" | od -An -tx1 | grep -q "89 50 4e 47"; then ok "--ui-screenshot .png writes a PNG"; else nok "--ui-screenshot .png writes a PNG"; fi

# A screenshot without --ui-at shows the end of the run, with the stall diagnosis.
ui_run run --trisc1 $B/missing_sempost_trisc1.elf --trisc2 $B/missing_sempost_trisc2.elf --quiet \
    --ui-screenshot "$TMP/end.bmp" --ui-snapshot "$TMP/end.json"
expect_exit "screenshot of a deadlock: exit 1 as without the panel" 1
expect_json "end: the wait-for chain of the diagnosis is shown" "$TMP/end.json" \
    '[r["exit"]["reason"], "T2 waits on sem 1 == 0 -> nobody" in r["chains"], r["strip"]["exact"]]' '["deadlock", true, false]'

# --ui-at past the end: the final state, said so; the normal exit.
ui_run run $MP --quiet --ui-screenshot "$TMP/late.bmp" --ui-at 100000
expect_exit "--ui-at after the end: the run's own exit (0)" 0
expect_out "--ui-at after the end: said so" "ended at cycle [0-9]+, before --ui-at 100000"
expect_json "--ui-at after the end: snapshot of the end" "$TMP/late.bmp.json" 'r["exit"]["reason"]' halted

# A --ui run to its natural end (headless: the dummy video driver, nobody to close the window)
# writes the same report as a run without the panel.
DEMO="--brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf --trisc2 $D/trisc2.elf --quiet"
run_ttemu run $DEMO --report "$TMP/d0.json"
SDL_VIDEODRIVER=dummy ui_run run $DEMO --ui --report "$TMP/d1.json"
expect_exit "--ui demo (headless) ends by itself: exit 0" 0
check "--ui demo: report identical to the run without --ui" cmp "$TMP/d0.json" "$TMP/d1.json"
run_ttemu run --trisc0 $B/mutex_leak_trisc0.elf --trisc1 $B/mutex_leak_trisc1.elf --quiet --report "$TMP/l0.json"
SDL_VIDEODRIVER=offscreen ui_run run --trisc0 $B/mutex_leak_trisc0.elf --trisc1 $B/mutex_leak_trisc1.elf --quiet \
    --ui --ui-at 300 --report "$TMP/l1.json"
expect_exit "--ui deadlock (headless, --ui-at does not pause): exit 1" 1
check "--ui deadlock: report identical to the run without --ui" cmp "$TMP/l0.json" "$TMP/l1.json"

# Bad input.
run_ttemu run $MP --ui-screenshot "$TMP/x.gif"
expect_exit "--ui-screenshot needs .bmp or .png (exit 4)" 4
run_ttemu run $MP --ui-at 100
expect_exit "--ui-at alone (exit 4)" 4
run_ttemu run $MP --ui --ui-at ten
expect_exit "--ui-at needs a number (exit 4)" 4
run_ttemu run $MP --ui-screenshot "$TMP/nodir/x.bmp" --ui-at 10
expect_exit "unwritable screenshot (exit 4)" 4
expect_out "unwritable screenshot: named" "cannot write --ui-screenshot .*nodir/x.bmp"
