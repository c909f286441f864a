# The GDB remote stub (docs/gdb.md): Debian's gdb-multiarch in batch mode against
# `ttemu run --gdb 0 --gdb-wait` (each ttemu takes a free port and says which, so tests running in
# parallel never collide): attach, threads, breakpoints on a firmware function of TRISC1, registers
# and memory, a single step, a watchpoint on an L1 word another core writes, `monitor sem` after a
# SEMINIT, Ctrl-C, faults and deadlocks reported as stops, detach, and the run ending with the very
# report it gives without gdb. Then test/tools/gdb_rsp_check.py speaks the protocol on a raw socket
# (damaged, malformed and unknown packets, the hardware step, a client that goes away).
. test/sh/lib.sh
D=$FW/demo B=$FW/broken P=$FW/progs
FWD=$SHARED/firmware/blackhole-p100a

# Command-line checks (no debugger needed).
run_ttemu run --brisc $D/brisc.elf --gdb-wait
expect_exit "--gdb-wait without --gdb: bad input" 4
run_ttemu run --brisc $D/brisc.elf --gdb 10.0.0.1:1234
expect_exit "--gdb on a non-loopback address: refused (exit 4)" 4
expect_out "--gdb on a non-loopback address: says loopback only" "loopback interface only"
run_ttemu run --brisc $D/brisc.elf --gdb 0.0.0.0:1234
expect_exit "--gdb 0.0.0.0: refused" 4
run_ttemu run --brisc $D/brisc.elf --gdb 70000
expect_exit "--gdb 70000: not a port" 4
# A port somebody else listens on (another stub, waiting): a clear error before the run.
rm -f "$TMP/busy.err"
timeout 60 "$TTEMU" run --brisc $D/brisc.elf --gdb 0 --gdb-wait >/dev/null 2>"$TMP/busy.err" &
busy_pid=$!
bport=$(gdb_port "$TMP/busy.err")
run_ttemu run --brisc $D/brisc.elf --gdb "127.0.0.1:${bport:-1}"
expect_exit "--gdb on a port in use: exit 4" 4
expect_out "--gdb on a port in use: names the address" "cannot listen on 127.0.0.1:${bport:-1}"
kill $busy_pid 2>/dev/null
wait $busy_pid 2>/dev/null

# The raw protocol needs only python3.
python3 test/tools/gdb_rsp_check.py "$TTEMU" "$FW" "$TMP"

if ! command -v gdb-multiarch >/dev/null; then
    skip "gdb-multiarch sessions" "gdb-multiarch is not installed (scripts/deps.sh installs it)"
    exit 0
fi

# session TTEMU-ARGS -- GDB-ARGS...: ttemu with --gdb 0 --gdb-wait and a report in $TMP/gdb.json,
# gdb-multiarch -batch attached to it. Leaves gdb's output in $GOUT, ttemu's stderr in $TERR and its
# exit code in $TRC. Both are bounded in time (a hang fails, it does not block the suite).
session() {
    local targs=()
    while [ "$1" != "--" ]; do targs+=("$1"); shift; done
    shift
    rm -f "$TMP/gdb.json" "$TMP/t.err"
    timeout 120 "$TTEMU" run --quiet --report "$TMP/gdb.json" "${targs[@]}" --gdb 0 --gdb-wait 2>"$TMP/t.err" &
    local pid=$! port
    port=$(gdb_port "$TMP/t.err")
    GOUT=$(timeout 120 gdb-multiarch -nx -batch -ex "set pagination off" -ex "target remote 127.0.0.1:$port" "$@" 2>&1)
    wait $pid
    TRC=$?
    TERR=$(cat "$TMP/t.err")
}
# gexpect NAME REGEX: gdb's output matches.
gexpect() { if grep -qE -- "$2" <<<"$GOUT"; then ok "$1"; else nok "$1" "gdb output lacks /$2/" "$GOUT"; fi; }
# same_report NAME ARGS...: the report of the last session equals a run of ARGS without gdb.
same_report() {
    local name=$1; shift
    "$TTEMU" run --quiet --report "$TMP/plain.json" "$@" >/dev/null 2>&1
    if cmp -s "$TMP/gdb.json" "$TMP/plain.json"; then ok "$name"
    else nok "$name" "$(diff "$TMP/plain.json" "$TMP/gdb.json" 2>&1 | head -20)" "$TERR"; fi
}
# cycle_of: the tile cycle printed by the Nth `monitor cycles` in $GOUT.
cycle_of() { grep -E '^cycle [0-9]+$' <<<"$GOUT" | sed -n "${1}p" | cut -d' ' -f2; }

DEMO="--brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf --trisc2 $D/trisc2.elf --peek 0x8000:8"
T1MAIN=$(riscv64-unknown-elf-nm $D/trisc1.elf 2>/dev/null | awk '$3 == "main" {print $1}')

# The five-core demo: break at TRISC1's main, registers, memory, a step, a watchpoint on BRISC's
# store, `monitor sem` after TRISC2's SEMINIT and posts, detach.
session $DEMO -- -ex "file $D/trisc1.elf" -ex "info threads" -ex "break main" -ex continue \
    -ex "info registers pc" -ex 'p/x $sp' -ex "x/2wx 0x8000" -ex "monitor cycles" -ex stepi -ex "monitor cycles" \
    -ex 'p/x $pc' -ex "delete" -ex "watch *(int*)0x8000" -ex continue -ex "p \$cfg0" -ex detach
gexpect "attach: info threads names the five cores" 'Thread 1 "BRISC" \(running\).*'
gexpect "break main (TRISC1's image): TRISC1 hits it" 'Thread 4 "TRISC1" hit Breakpoint 1, main \(\)'
T1HEX=$(printf '%x' $((16#$T1MAIN)))
gexpect "registers: pc is main" "^pc +0x$T1HEX[[:space:]]+0x$T1HEX <main>"
gexpect "registers: sp in TRISC1's local RAM" '^\$1 = 0xffb0[0-9a-f]{4}$'
gexpect "memory: x/2wx 0x8000 reads L1" '^0x8000:[[:space:]]+0x[0-9a-f]{8}[[:space:]]+0x[0-9a-f]{8}$'
c0=$(cycle_of 1) c1=$(cycle_of 2)
if [ -n "$c0" ] && [ "$c1" = $((c0 + 1)) ]; then ok "stepi: the tile ran one cycle"
else nok "stepi: the tile ran one cycle" "cycles $c0 -> $c1" "$GOUT"; fi
gexpect "stepi: TRISC1's pc advanced one instruction" "^\\\$2 = 0x$(printf '%x' $((16#$T1MAIN + 4)))$"
gexpect "stepi: the other cores ran that cycle too (BRISC retired one more)" \
    "^BRISC +pc 0x[0-9a-f]+ instret $(($(grep -E '^BRISC ' <<<"$GOUT" | head -1 | awk '{print $5}') + 1)) "
gexpect "watchpoint on an L1 word BRISC writes, set from TRISC1: BRISC stops there" \
    'Thread 1 "BRISC" hit Hardware watchpoint 2: \*\(int\*\)0x8000'
gexpect "watchpoint: the new value (sum 1..100)" '^New value = 5050$'
gexpect "a CSR by name (cfg0, reset 0x20000)" '^\$3 = 131072$'
gexpect "detach" 'Inferior 1 \(Remote target\) detached'
if [ "$TRC" -eq 0 ]; then ok "after detach the run ends halted (exit 0)"; else nok "after detach the run ends halted" "exit $TRC" "$TERR"; fi
same_report "detached session: the report equals a run without gdb" $DEMO

# Three cores reach their main breakpoints in the same cycle: gdb hears of one; stepping it over its
# breakpoint runs a cycle of every core (lock-step), so the others are told as plain SIGTRAPs with
# a console line (docs/gdb.md), and gdb stays consistent (no internal error).
session $DEMO -- -ex "file $D/brisc.elf" -ex "add-symbol-file $D/ncrisc.elf" -ex "add-symbol-file $D/trisc1.elf" \
    -ex "break main" -ex continue -ex continue -ex continue -ex "monitor cycles" -ex continue -ex "info threads"
gexpect "same-cycle breakpoints: the first core's hit" 'Thread 1 "BRISC" hit Breakpoint 1.1, main'
gexpect "same-cycle breakpoints: the next core's, told when resumed" \
    'ttemu: NCRISC reached the breakpoint at 0x[0-9a-f]{8} at cycle [0-9]+, while gdb held it as stopped'
gexpect "same-cycle breakpoints: the third core's" 'Thread 4 "TRISC1" received signal SIGTRAP'
if grep -q "internal-error" <<<"$GOUT"; then nok "same-cycle breakpoints: gdb stays consistent" "$GOUT"
else ok "same-cycle breakpoints: gdb stays consistent"; fi
same_report "same-cycle breakpoints: the report equals a run without gdb" $DEMO

# TRISC2 SEMINITs semaphore 3 (Max 4), posts it three times, waits in tensix_sync and stores the
# value it reads back: stopped by a watchpoint on that store, `monitor sem` shows the semaphore.
session --trisc2 $D/trisc2.elf -- -ex "file $D/trisc2.elf" -ex "monitor sem" -ex "break main" -ex continue \
    -ex "monitor step-cycles 3" -ex "delete" -ex "watch *(int*)0x8010" -ex continue \
    -ex "monitor sem" -ex "info threads" -ex continue -ex continue
gexpect "monitor step-cycles 3 from a breakpoint: three cycles (the core at its breakpoint moves on)" \
    '^ran 3 cycles, now at cycle [0-9]+$'
gexpect "monitor sem before the SEMINIT: Max 0" '^sem 3: Value 0, Max 0'
gexpect "watchpoint on TRISC2's own store: it stops there" 'Thread 5 "TRISC2" hit Hardware watchpoint 2: \*\(int\*\)0x8010'
gexpect "monitor sem after TRISC2's SEMINIT (Max 4) and three posts" '^sem 3: Value 3, Max 4'
gexpect "the last ebreak: SIGTRAP, then the run exits" 'exited normally'
same_report "watchpoint session: the report equals a run without gdb" --trisc2 $D/trisc2.elf

# Continued to the end with breakpoints kept (every cycle looked at), on the reference path too.
for ref in 0 1; do
    export TTEMU_REFERENCE=$ref
    session $DEMO -- -ex "file $D/brisc.elf" -ex "break main" -ex "watch *(int*)0x8004" -ex continue -ex continue \
        -ex continue -ex continue -ex continue -ex continue -ex continue -ex continue -ex continue
    gexpect "continued to the end (TTEMU_REFERENCE=$ref): exits normally" 'exited normally'
    same_report "continued to the end (TTEMU_REFERENCE=$ref): the report equals a run without gdb" $DEMO
done
unset TTEMU_REFERENCE

# gdb writes an ebreak over loop code BRISC has already run (decoded): BRISC runs the new word and
# halts there (the write dropped the decoded record), on the fast path and the reference path.
for ref in 0 1; do
    export TTEMU_REFERENCE=$ref
    session --brisc $P/spin_brisc.elf --max-cycles 100000 -- -ex "file $P/spin_brisc.elf" \
        -ex "break *((char*)main + 8)" -ex continue -ex continue -ex delete -ex 'p/x $pc' \
        -ex 'set {int}$pc = 0x00100073' -ex continue -ex 'p/x $pc' -ex continue
    at=$(grep -oE '^\$1 = 0x[0-9a-f]+' <<<"$GOUT" | cut -d' ' -f3)
    gexpect "code written from gdb runs (TTEMU_REFERENCE=$ref): BRISC halts on the ebreak written there" \
        'Thread 1 "BRISC" received signal SIGTRAP'
    gexpect "code written from gdb runs (TTEMU_REFERENCE=$ref): at that pc" "^\\\$2 = ${at:-none}$"
    [ "$TRC" -eq 0 ] && ok "code written from gdb (TTEMU_REFERENCE=$ref): the run ends halted" ||
        nok "code written from gdb (TTEMU_REFERENCE=$ref): the run ends halted" "exit $TRC" "$GOUT"
done
unset TTEMU_REFERENCE

# gdb moves the pc of a hart blocked on a full FIFO (BRISC stalled pushing into thread 1's FIFO#2)
# to code it has already run (decoded): BRISC runs there at once, on the fast path as on the
# reference path (debug/gdb_target.c gt_reg_write drops the blocked mark; kept, the fast path
# counted 2,947 stall cycles at the new pc against the reference path's 40). Reports compared.
for ref in 1 0; do
    export TTEMU_REFERENCE=$ref
    session --brisc $P/blocked_warm_brisc.elf --trisc1 $P/blocked_trisc1.elf --peek 0x9300:2 -- \
        -ex "file $P/blocked_warm_brisc.elf" -ex "break site" -ex continue -ex delete \
        -ex "monitor step-cycles 40" -ex 'p/x $pc == site' -ex 'set $pc = after' -ex continue -ex continue
    gexpect "pc moved off a blocked push (TTEMU_REFERENCE=$ref): BRISC is still at the push" '^\$1 = 0x1$'
    gexpect "pc moved off a blocked push (TTEMU_REFERENCE=$ref): BRISC halts at its ebreak" \
        'Thread 1 "BRISC" received signal SIGTRAP'
    [ "$ref" = 1 ] && cp "$TMP/gdb.json" "$TMP/blocked_ref.json"
done
unset TTEMU_REFERENCE
if cmp -s "$TMP/gdb.json" "$TMP/blocked_ref.json"; then
    ok "pc moved off a blocked push: the fast path's report equals the reference path's"
else
    nok "pc moved off a blocked push: the fast path's report equals the reference path's" \
        "$(diff "$TMP/blocked_ref.json" "$TMP/gdb.json" 2>&1 | head -20)" "$TERR"
fi

# A guest fault is a stop at the faulting pc with the message on the console, then exit 3.
session --brisc $FW/isa-faults/load_unmapped.elf -- -ex continue -ex 'p/x $pc' -ex continue
gexpect "guest fault: SIGSEGV" 'received signal SIGSEGV'
gexpect "guest fault: the message on gdb's console" 'ttemu: guest fault on BRISC at pc 0x[0-9a-f]{8}.*load from unmapped address'
gexpect "guest fault: continuing ends the run with exit code 3" 'exited with code 03'
[ "$TRC" -eq 3 ] && ok "guest fault under gdb: exit 3" || nok "guest fault under gdb: exit 3" "exit $TRC" "$TERR"
session --brisc $FW/isa-faults/ecall.elf -- -ex continue
gexpect "ecall: SIGILL" 'received signal SIGILL'

# A deadlock is a stop with the diagnosis on gdb's console. On the way, a breakpoint on the load
# that blocks TRISC2 in tensix_sync, kept in the target while stopped (always-inserted): hit once
# when TRISC2 gets there, not again while it stalls there.
MS="--trisc1 $B/missing_sempost_trisc1.elf --trisc2 $B/missing_sempost_trisc2.elf"
SPC=$("$TTEMU" run $MS 2>&1 | grep -oE 'tensix_sync \(load of 0x[0-9a-f]+\) at pc 0x[0-9a-f]+' | head -1 | grep -oE '0x[0-9a-f]+$')
session $MS -- -ex "set breakpoint always-inserted on" -ex "break *${SPC:-0}" -ex continue -ex "monitor step-cycles 100" -ex "monitor step-cycles 100" \
    -ex delete -ex continue -ex "info threads" -ex "monitor tensix" -ex continue
gexpect "breakpoint on the blocking load: TRISC2 hits it" 'Thread 5 "TRISC2" hit Breakpoint 1, 0x0*'"${SPC#0x}"
gexpect "step-cycles stops early at TRISC1's ebreak" 'stopped early: TRISC1 halted \(ebreak\)'
gexpect "step-cycles 100 while TRISC2 stalls on its breakpoint: no new hit" '^ran 100 cycles, now at cycle'

gexpect "deadlock: stops with SIGABRT" 'received signal SIGABRT'
gexpect "deadlock: the diagnosis on gdb's console" 'wait-for: T2 waits on sem 1 == 0'
gexpect "deadlock: info threads shows TRISC2 blocked in tensix_sync" 'TRISC2" \(blocked in tensix_sync'
gexpect "monitor tensix: T2's latched SEMWAIT" 'latched wait: SEMWAIT'
gexpect "deadlock: continuing ends the run (exit code 1)" 'exited with code 01'
same_report "deadlock under gdb: the report equals a run without gdb" $MS

# Ctrl-C: gdb forwards SIGINT to the stub while the run spins; then kill ends the run (exit 2).
rm -f "$TMP/t.err"
timeout 120 "$TTEMU" run --quiet --report "$TMP/gdb.json" --brisc $P/spin_brisc.elf --max-cycles 100000000000 \
    --gdb 0 --gdb-wait 2>"$TMP/t.err" &
tpid=$!
for _ in $(seq 200); do port=$(grep -oE '127\.0\.0\.1:[0-9]+' "$TMP/t.err" 2>/dev/null | cut -d: -f2); [ -n "$port" ] && break; sleep 0.05; done
timeout 120 gdb-multiarch -nx -batch -ex "file $P/spin_brisc.elf" -ex "target remote 127.0.0.1:$port" -ex continue \
    -ex "monitor cycles" -ex kill >"$TMP/g.out" 2>&1 &
gpid=$!
for _ in $(seq 100); do grep -q "a debugger attached" "$TMP/t.err" && break; sleep 0.05; done
sleep 0.5
kill -INT "$(pgrep -P $gpid gdb-multiarch)" # gdb itself, not the timeout around it
wait $gpid
wait $tpid
TRC=$?
GOUT=$(cat "$TMP/g.out")
gexpect "Ctrl-C stops a spinning run: SIGINT" 'Thread 1 "BRISC" received signal SIGINT'
gexpect "Ctrl-C: stopped inside the loop" 'main \(\) at test/progs/spin_brisc.c'
c=$(cycle_of 1)
[ -n "$c" ] && [ "$c" -gt 0 ] && ok "Ctrl-C: the run had gone on (cycle $c)" || nok "Ctrl-C: the run had gone on" "$GOUT"
[ "$TRC" -eq 2 ] && ok "kill: exit 2" || nok "kill: exit 2" "exit $TRC" "$(cat "$TMP/t.err")"
expect_json "kill: report exit.reason stopped" "$TMP/gdb.json" 'r["exit"]["reason"]' stopped

# tt-metal firmware: TRISC1's firmware main, a stream register read as the host reads it.
if [ ! -d "$FWD" ]; then
    skip "gdb on the tt-metal firmware" "../shared/firmware is absent"
    exit 0
fi
FWA=$(cd "$FWD" && pwd)
cat >"$TMP/boot.json" <<EOF
{"version": 1, "firmware": "$FWA", "stop": {"at": "boot", "cycles": 20000}, "max_cycles": 1000000, "peek": ["0x0:64"]}
EOF
session --config "$TMP/boot.json" -- -ex "file $FWA/trisc1.elf" -ex "break main" -ex continue -ex bt \
    -ex "info threads" -ex "x/4x 0xFFB48020" -ex "delete" -ex continue
gexpect "tt-metal: break at TRISC1's firmware main" 'Thread 4 "TRISC1" hit Breakpoint 1, main \(argc=1'
gexpect "tt-metal: backtrace" '^#0  main \(argc=1'
gexpect "tt-metal: x/4x 0xFFB48020 reads stream registers" '^0xffb48020:[[:space:]]+0x[0-9a-f]{8}'
gexpect "tt-metal: the run completes" 'exited normally'
same_report "tt-metal boot under gdb: the report equals a run without gdb" --config "$TMP/boot.json"

# A kernel at its runtime address (../shared/firmware/README.md: kernel_config_base[0] +
# kernel_text_offset[core] of launch[0] at L1 0x70): stopped when the host writes the go signal (a
# write watchpoint that no core triggers), then a breakpoint there hit by TRISC1.
# Then stepi over the kernel's first `.ttinsn` word (gdb takes it for a 2-byte instruction and puts its
# step breakpoint at pc + 2: docs/gdb.md): the pc advances by 4.
MATH=$SHARED/firmware/kernels-add1/compute_trisc1_math.bin
TT=$(python3 -c 'import sys; b = open(sys.argv[1], "rb").read()
print(hex(next(i for i in range(0, len(b), 4) if b[i] & 3 != 3)))' "$MATH")
python3 scripts/add1_config.py --shared "$SHARED" -n 8 --peek 0x30000:64 --max-cycles 5000000 >"$TMP/add1.json"
session --config "$TMP/add1.json" -- -ex "file $FWA/trisc1.elf" -ex "watch *(unsigned char*)0x373" -ex continue \
    -ex continue -ex 'set $k = *(unsigned*)0x70 + *(unsigned*)(0x70 + 44 + 4*3)' -ex 'p/x $k' -ex delete \
    -ex 'break *$k' -ex continue -ex 'p/x $pc' -ex 'x/1wx $pc' -ex "break *(\$k + $TT)" -ex continue -ex stepi \
    -ex 'p/d $pc - $k' -ex delete -ex continue
gexpect "add1: the host's go signal, written by no core, stops the watchpoint" \
    '0x00000373 was written by none of the cores'
k=$(grep -oE '^\$1 = 0x[0-9a-f]+' <<<"$GOUT" | cut -d' ' -f3)
gexpect "add1: TRISC1 reaches its kernel at kernel_config_base + kernel_text_offset" \
    "Thread 4 \"TRISC1\" hit Breakpoint 2, 0x0*${k#0x} in"
gexpect "add1: TRISC1's pc is the kernel's entry" "^\\\$2 = ${k:-none}$"
w=$(python3 -c 'import sys; print("0x%08x" % int.from_bytes(open(sys.argv[1], "rb").read(4), "little"))' "$MATH")
gexpect "add1: the word there is compute_trisc1_math.bin's first" "^${k:-none}:[[:space:]]+$w$"
gexpect "add1: stepi over a .ttinsn word: the pc advances one word" "^\\\$3 = $(($TT + 4))$"
gexpect "add1: the run completes" 'exited normally'
same_report "add1 under gdb: the report equals a run without gdb" --config "$TMP/add1.json"
