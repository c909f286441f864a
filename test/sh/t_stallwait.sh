# The eight STALLWAIT patterns of tt-llk as RV32 programs on the TRISCs (test/progs/stallwait_*.c),
# and FIFO back-pressure on a pushing TRISC (test/progs/backpressure_*.c). Each run must halt
# (exit 0) with the Tensix work all issued, and the report must show the gate holding the thread
# by the cause the pattern waits on (threads[].stalls): without the wait, that counter is 0.
# Where a RISC-V core can observe the guarded effect, the observer TRISC (stallwait_observer.h)
# or the program itself checks it in L1 too.
. test/sh/lib.sh
P=$FW/progs
OBS0=$P/stallwait_observer_trisc0.elf OBS2=$P/stallwait_observer_trisc2.elf

# sw_run NAME ARGS...: run a pattern; its report is $TMP/NAME.json, peeks at 0x9000 (results),
# 0x9F00 (observer: go, stop, addr, mask, busy, violations, window, max, samples), 0x9100.
sw_run() {
    local n=$1; shift
    run_ttemu run "$@" --max-cycles 200000 --quiet --report "$TMP/$n.json" \
        --peek 0x9000:4 --peek 0x9F00:9 --peek 0x9100:3
    expect_exit "$n: halts (exit 0)" 0
}
# sw_true NAME REPORT EXPR: a Python expression on the report r is true. R = results at 0x9000,
# O = observer words, T = threads.
sw_true() {
    local got
    got=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); p=r.get('peek', {}); R=p.get('0x00009000'); \
O=p.get('0x00009f00'); B=p.get('0x00009100'); T=r['threads']; S=r['semaphores']; print(bool($3))" "$2" 2>&1)
    if [ "$got" = True ]; then ok "$1"; else nok "$1" "$3 is $got"; fi
}
# all_issued NAME REPORT THREAD...: every word pushed into these threads was issued, nothing is
# held or latched at the end.
all_issued() {
    local n=$1 f=$2; shift 2
    for t in "$@"; do
        sw_true "$n: T$t issued all it pushed, nothing held" "$f" \
            "T[$t]['pushed'] > 0 and T[$t]['issued'] == T[$t]['pushed'] and T[$t]['held'] is None and T[$t]['latched_wait'] is None"
    done
}

# 1. Before WRCFG: LOADREG fills GPR 20; STALLWAIT(STALL_CFG, THCON) holds the WRCFG on C0.
f=$TMP/wrcfg.json
sw_run wrcfg --trisc2 $P/stallwait_wrcfg_trisc2.elf --trisc0 $OBS0
all_issued wrcfg "$f" 2
sw_true "wrcfg: WRCFG held by C0 (ThCon memory request)" "$f" "T[2]['stalls']['cond']['C0'] > 0"
sw_true "wrcfg: Config[60] = the loaded GPR (non-zero)" "$f" "R[0] == R[1] != 0"
sw_true "wrcfg: observer never saw the config word written while ThCon was busy" "$f" "O[8] > 0 and O[5] == 0 and O[6] > 0"

# 2. Before MOVD2A/MOVD2B: STALLWAIT(STALL_MATH, SRCA_VLD) / (.., SRCB_VLD) hold the moves until
# the unpack thread's UNPACR_NOP SET_DVALID; semaphore 3 is posted behind them.
f=$TMP/movd2a.json
sw_run movd2a --trisc0 $P/stallwait_movd2a_trisc0.elf --trisc1 $P/stallwait_movd2a_trisc1.elf
all_issued movd2a "$f" 0 1
sw_true "movd2a: MOVD2A held by C7 (SrcA not valid), MOVD2B by C8" "$f" \
    "T[1]['stalls']['cond']['C7'] >= 150 and T[1]['stalls']['cond']['C8'] >= 150"
sw_true "movd2a: semaphore 3 was 0 before SrcA valid, 0 before SrcB valid, 1 after" "$f" "R[:3] == [0, 0, 1]"
sw_true "movd2a: semaphore 3 ends at 1" "$f" "S[3]['value'] == 1"

# 3. UNPACK_TO_DEST: unpack waits on Max, posts after STALLWAIT(SYNC, UNPACK0); math waits on zero.
f=$TMP/unpackdest.json
sw_run unpackdest --trisc0 $P/stallwait_unpackdest_trisc0.elf --trisc1 $P/stallwait_unpackdest_trisc1.elf --trisc2 $OBS2
all_issued unpackdest "$f" 0 1
sw_true "unpackdest: SEMPOST held by C1 (unpacker 0 busy)" "$f" "T[0]['stalls']['cond']['C1'] > 0"
sw_true "unpackdest: next UNPACR held by SEMWAIT on semaphore 2 (Max)" "$f" "T[0]['stalls']['sem']['2'] > 0"
sw_true "unpackdest: math SEMGET held by SEMWAIT on semaphore 2 (zero)" "$f" "T[1]['stalls']['sem']['2'] > 0"
sw_true "unpackdest: semaphore 2 ends {0, max 1}; math took 3 tiles (semaphore 4)" "$f" \
    "S[2] == {'value': 0, 'max': 1} and S[4]['value'] == 3 and R[0] == 3"
sw_true "unpackdest: observer saw semaphore 2 reach 1, never above Max 1" "$f" "O[8] > 0 and O[7] == 1"

# 4. MATH_PACK handshake on semaphore 1 (Max 2) between TRISC1 (math) and TRISC2 (pack).
f=$TMP/mathpack.json
sw_run mathpack --trisc1 $P/stallwait_mathpack_trisc1.elf --trisc2 $P/stallwait_mathpack_trisc2.elf --trisc0 $OBS0
all_issued mathpack "$f" 1 2
sw_true "mathpack: pack held on semaphore 1 (zero) while math had not started" "$f" "T[2]['stalls']['sem']['1'] > 50"
sw_true "mathpack: math held on semaphore 1 (Max) when both Dst halves were full" "$f" "T[1]['stalls']['sem']['1'] > 0"
sw_true "mathpack: Dst clear (ZEROACC) held by C3 until the PACR finished" "$f" "T[2]['stalls']['cond']['C3'] > 0"
sw_true "mathpack: semaphore 1 ends {0, max 2}" "$f" "S[1] == {'value': 0, 'max': 2}"
sw_true "mathpack: observer saw semaphore 1 rise but never above Max" "$f" "O[8] > 0 and 1 <= O[7] <= 2"
sw_true "mathpack: the pack core stalled in tensix_sync while its thread waited" "$f" "r['cores'][4]['stall_cycles'] > 0"

# 5. Packer reconfiguration: STALLWAIT(STALL_CFG, PACK) before WRCFG to packer config.
f=$TMP/packcfg.json
sw_run packcfg --trisc2 $P/stallwait_packcfg_trisc2.elf --trisc0 $OBS0
all_issued packcfg "$f" 2
sw_true "packcfg: WRCFG held by C3 (packer busy)" "$f" "T[2]['stalls']['cond']['C3'] >= 8"
sw_true "packcfg: both config words = 0x12345678" "$f" "R[0] == R[1] == 0x12345678"
sw_true "packcfg: observer never saw the config written while the packer was busy" "$f" "O[8] > 0 and O[5] == 0 and O[6] > 0"

# Patterns 6 and 8 need an SFPU instruction longer than the SFPU's 2-cycle pipeline to be seen
# holding the gate (C11): SFPLOADMACRO, whose values are issue 15's. Until ttemu models it, the
# run stops there with exit 6 naming it, and these two patterns are skipped, saying so; once it is
# modelled they run again.
# sfpu_pending NAME ARGS...: true (and skips NAME) when the run stops on SFPLOADMACRO.
sfpu_pending() {
    local n=$1; shift
    run_ttemu run "$@" --max-cycles 200000 --quiet
    if [ "$RC" = 6 ] && grep -q "SFPLOADMACRO" <<<"$OUT"; then
        skip "$n" "SFPLOADMACRO is not modelled yet (issue 15); the run stops there with exit 6"
        return 0
    fi
    return 1
}

# 6. SFPU drain before a dest flip: STALLWAIT(STALL_CFG, MATH | SFPU1) before SETC16.
f=$TMP/destflip.json
if ! sfpu_pending destflip --trisc1 $P/stallwait_destflip_trisc1.elf --trisc0 $OBS0; then
    sw_run destflip --trisc1 $P/stallwait_destflip_trisc1.elf --trisc0 $OBS0
    all_issued destflip "$f" 1
    sw_true "destflip: SETC16 held by C4 (FPU) and C11 (SFPU)" "$f" \
        "T[1]['stalls']['cond']['C4'] > 0 and T[1]['stalls']['cond']['C11'] > 0"
    sw_true "destflip: ThreadConfig[1][12] = 0x200" "$f" "R[0] == 0x200"
    sw_true "destflip: observer never saw the flip while FPU/SFPU were busy" "$f" "O[8] > 0 and O[5] == 0"
fi

# 7. TRISC_CFG before unpack: STALLWAIT(STALL_UNPACK, TRISC_CFG) holds the UNPACR while this
# TRISC's config stores are in flight; UNPACK_SYNC (semaphore 5) posted by the window, got by SEMGET.
f=$TMP/trisccfg.json
sw_run trisccfg --trisc0 $P/stallwait_trisccfg_trisc0.elf
all_issued trisccfg "$f" 0
sw_true "trisccfg: UNPACR held by C10 (RISC-V config store in flight)" "$f" "T[0]['stalls']['cond']['C10'] > 0"
sw_true "trisccfg: four window posts, four SEMGETs: semaphore 5 ends at 0" "$f" \
    "T[0]['sem_writes'] == 4 and S[5]['value'] == 0"
sw_true "trisccfg: both contexts hold the last addresses written" "$f" "R[:2] == [0x21FF, 0x22FF]"

# 8. SFPU then SEMPOST: STALLWAIT(STALL_SYNC, MATH | WAIT_SFPU) before SEMPOST.
f=$TMP/sfpusem.json
if ! sfpu_pending sfpusem --trisc1 $P/stallwait_sfpusem_trisc1.elf --trisc0 $OBS0; then
    sw_run sfpusem --trisc1 $P/stallwait_sfpusem_trisc1.elf --trisc0 $OBS0
    all_issued sfpusem "$f" 1
    sw_true "sfpusem: SEMPOST held by C11 (SFPU busy)" "$f" "T[1]['stalls']['cond']['C11'] > 0"
    sw_true "sfpusem: semaphore 1 ends at 1" "$f" "S[1]['value'] == 1 and R[0] == 1"
    sw_true "sfpusem: observer never saw the post while the SFPU was busy" "$f" "O[8] > 0 and O[5] == 0"
fi

# FIFO back-pressure end to end: TRISC0 pushes 48 SFPNOPs behind a SEMWAIT that TRISC1 releases
# after 400 cycles through its semaphore window.
f=$TMP/backpressure.json
sw_run backpressure --trisc0 $P/backpressure_trisc0.elf --trisc1 $P/backpressure_trisc1.elf
sw_true "backpressure: TRISC0 stalled on its full FIFO" "$f" "r['cores'][2]['stall_cycles'] >= 300"
sw_true "backpressure: FIFO#1 filled to 32" "$f" "T[0]['fifo_high_water'] == 32"
sw_true "backpressure: all 49 words pushed and issued" "$f" "T[0]['pushed'] == T[0]['issued'] == 49 and T[0]['held'] is None"
sw_true "backpressure: SFPNOPs held on semaphore 0 meanwhile" "$f" "T[0]['stalls']['sem']['0'] >= 300"
sw_true "backpressure: TRISC0 finished pushing only after TRISC1's post" "$f" "B[0] == 1 and B[1] == 1 and B[2] >= 300"
sw_true "backpressure: one window write by TRISC1; semaphore 0 ends at 1" "$f" "T[1]['sem_writes'] == 1 and S[0]['value'] == 1"

# The report's coprocessor keys (docs/coprocessor.md) and the one-screen summary, on a run left
# with a mutex held, a wait latched, an instruction held behind it and another held on the mutex.
f=$TMP/keys.json
run_ttemu run --trisc1 $P/report_keys_trisc1.elf --trisc2 $P/report_keys_trisc2.elf --report "$f" --peek 0x9000
expect_exit "report keys: Tensix work that can never drain ends as deadlock (exit 1)" 1
sw_true "report keys: per thread pushed, issued, fifo_high_water, stalls by cause" "$f" \
    "all({'pushed', 'issued', 'fifo_high_water', 'stalls', 'latched_wait', 'held'} <= set(t) for t in T) and \
     all(list(t['stalls']['cond']) == ['C%d' % i for i in range(13)] and list(t['stalls']['sem']) == [str(i) for i in range(8)] \
         and list(t['stalls']['mutex']) == ['0', '2', '3', '4'] for t in T)"
sw_true "report keys: semaphores are eight {value, max}" "$f" "len(S) == 8 and all(set(s) == {'value', 'max'} for s in S)"
sw_true "report keys: mutexes map index to holder or null" "$f" "r['mutexes'] == {'0': None, '2': 1, '3': None, '4': None}"
sw_true "report keys: T1's latched SEMWAIT on semaphore 6, SFPNOP held behind it" "$f" \
    "T[1]['latched_wait']['opcode'] == 'SEMWAIT' and T[1]['latched_wait']['sem_mask'] == 64 and \
     T[1]['latched_wait']['block_mask'] == 256 and T[1]['held']['cause'] == 'semwait' and T[1]['held']['disasm'] == 'SFPNOP' \
     and T[1]['stalls']['sem']['6'] == T[1]['stalls']['total'] > 0"
sw_true "report keys: T2's ATGETM held on mutex 2, counted under stalls.mutex" "$f" \
    "T[2]['held']['cause'] == 'mutex' and T[2]['held']['detail'] == 2 and T[2]['stalls']['mutex']['2'] > 0 \
     and T[2]['latched_wait'] is None and T[0]['held'] is None"
expect_out "summary: T1 counts, stall causes and what holds it" \
    "tensix T1: pushed 3, issued 2, fifo high water 1, stalled [0-9]+ cycles \(sem6 [0-9]+\); held: SFPNOP — blocked by latched SEMWAIT: semaphore 6"
expect_out "summary: T2 held on mutex 2" "tensix T2: .*\(mutex2 [0-9]+\); held: ATGETM .*mutex 2 is held"
expect_out "summary: semaphores value/max and mutex holders" "mutexes: 0:free 2:T1 3:free 4:free"
