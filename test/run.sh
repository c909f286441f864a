#!/usr/bin/env bash
# Runs every test against one build and prints a closing "N passed, N failed, N skipped" line.
#   BUILD=build test/run.sh [FILTER]
# Unit tests: $BUILD/test/test_* (cmocka, TAP output). Shell tests: test/sh/*.sh, which print
# TAP-style lines through test/sh/lib.sh ("ok - name", "not ok - name", "ok - name # SKIP why").
# A test binary or script that exits non-zero without reporting a failure counts as one failure.
set -u
BUILD=${BUILD:-build}
FILTER=${1:-}
export BUILD TTEMU="$BUILD/ttemu" FW=build/fw CMOCKA_MESSAGE_OUTPUT=TAP
export SHARED=${SHARED:-../shared}
# A sanitized build (SAN=1 in its config.stamp, `make test-asan`): a sanitizer's report ends the
# process with 99, never a ttemu exit code, so it fails a test even where exit 1 (deadlock) is
# expected. LeakSanitizer gets the suppressions of other libraries' own leaks (test/lsan.supp).
if grep -qx 'SAN=1' "$BUILD/config.stamp" 2>/dev/null; then
    export ASAN_OPTIONS="exitcode=99${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export UBSAN_OPTIONS="exitcode=99:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
    export LSAN_OPTIONS="suppressions=$PWD/test/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
pass=0 fail=0 skip=0
failed_names=()

run_one() { # name, command...
    local name=$1; shift
    local out rc
    out=$("$@" 2>&1); rc=$?
    local p f s
    s=$(grep -cE '^ok .*# ?SKIP' <<<"$out")
    p=$(( $(grep -cE '^ok ' <<<"$out") - s ))
    f=$(grep -cE '^not ok ' <<<"$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    if [ "$f" -gt 0 ]; then
        failed_names+=("$name")
        echo "--- $name: $f failed (exit $rc)"
        grep -vE '^ok ' <<<"$out" | sed 's/^/    /' | head -60
    else
        echo "--- $name: $p passed${s:+, $s skipped}"
        grep -E '^ok .*# ?SKIP' <<<"$out" | sed 's/^/    /'
    fi
}

for t in "$BUILD"/test/test_*; do
    [ -x "$t" ] || continue
    [ -n "$FILTER" ] && [[ $t != *$FILTER* ]] && continue
    run_one "$(basename "$t")" "$t"
done
for t in test/sh/t_*.sh; do
    [ -f "$t" ] || continue
    [ -n "$FILTER" ] && [[ $t != *$FILTER* ]] && continue
    run_one "$(basename "$t")" bash "$t"
done

if [ ${#failed_names[@]} -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
