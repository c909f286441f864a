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

