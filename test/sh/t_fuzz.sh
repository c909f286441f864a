# The libFuzzer targets (fuzz/, docs/testing.md), each run for a few seconds on its seeds and
# dictionary: a regression that crashes one, trips a sanitizer or breaks a target's own check
# shows here. No new crash is allowed. Needs clang (scripts/deps.sh installs it); the targets are
# sanitized builds of their own, so the sanitizer pass (SAN=1) does not run them again.
. test/sh/lib.sh
SECONDS_EACH=${FUZZ_SMOKE_SECONDS:-4}

if [ "${SAN:-0}" = 1 ]; then
    skip "fuzz targets" "they are ASan/UBSan builds of their own and ran in the plain pass"
    exit 0
fi
if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
    skip "fuzz targets" "clang is missing (scripts/deps.sh installs it)"
    exit 0
fi
if ! make --no-print-directory -s fuzz >"$TMP/build.log" 2>&1; then
    nok "make fuzz builds every target" "$(tail -20 "$TMP/build.log")"
    exit 0
fi
ok "make fuzz builds every target"

for src in fuzz/fuzz_*.c; do
    name=$(basename "$src" .c); name=${name#fuzz_}
    bin=build/fuzz/fuzz_$name
    if [ ! -d "fuzz/corpus/$name" ] || [ -z "$(ls -A "fuzz/corpus/$name")" ]; then
        nok "fuzz $name: has seeds in fuzz/corpus/$name"
        continue
    fi
    dict=()
    [ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
    mkdir -p "$TMP/corpus_$name"
    # New inputs go to a scratch corpus; the committed seeds (and past crashers kept there) are
    # read only. -timeout: an input that takes 10 s is a hang, reported as a crash.
    if "$bin" "$TMP/corpus_$name" "fuzz/corpus/$name" "${dict[@]}" -max_total_time="$SECONDS_EACH" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$TMP/" -print_final_stats=1 >"$TMP/$name.log" 2>&1; then
        execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$TMP/$name.log" | grep -oE '[0-9]+$')
        ok "fuzz $name: ${SECONDS_EACH}s, ${execs:-?} inputs, no crash"
    else
        nok "fuzz $name: crashed (reproduce: $bin FILE)" "$(grep -E 'ERROR|SUMMARY|runtime error|refusal|Test unit written' "$TMP/$name.log" | head -8)"
    fi
done
