# test/sh/lib.sh — helpers for shell tests. Each check prints one TAP-style line that
# test/run.sh counts: "ok - NAME", "not ok - NAME" (with the reason on following lines),
# "ok - NAME # SKIP why".
# Environment from test/run.sh: TTEMU (the binary), FW (built RV32 programs), SHARED (../shared).
TTEMU=${TTEMU:-build/ttemu}
FW=${FW:-build/fw}
SHARED=${SHARED:-../shared}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok()   { echo "ok - $1"; }
nok()  { echo "not ok - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { echo "ok - $1 # SKIP $2"; }

# check NAME COMMAND...: passes when COMMAND exits 0.
check() { local n=$1; shift; if "$@" >"$TMP/out" 2>&1; then ok "$n"; else nok "$n" "$(head -c 2000 "$TMP/out")"; fi; }

# run_ttemu ARGS...: runs ttemu, leaves stdout+stderr in $OUT and the exit code in $RC.
run_ttemu() { OUT=$("$TTEMU" "$@" 2>&1); RC=$?; }

# expect_exit NAME CODE: the last run_ttemu exited with CODE.
expect_exit() { if [ "$RC" -eq "$2" ]; then ok "$1"; else nok "$1" "exit $RC, expected $2" "$OUT"; fi; }
# expect_out NAME REGEX: the last run_ttemu's output matches the extended REGEX.
expect_out() { if grep -qE -- "$2" <<<"$OUT"; then ok "$1"; else nok "$1" "output lacks /$2/" "$OUT"; fi; }
# json_get FILE EXPR: prints python's repr-free value of EXPR on the parsed report `r`.
json_get() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); v=$2; print(json.dumps(v) if isinstance(v,(dict,list)) else v)" "$1"; }
# gdb_port FILE: the port a `ttemu run --gdb 0` whose output goes to FILE says it listens on,
# waited for up to 10 s (empty if it never says).
gdb_port() {
    local p=""
    for _ in $(seq 200); do
        p=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$1" 2>/dev/null | cut -d: -f2)
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "$p"
}
# expect_json NAME FILE EXPR VALUE: EXPR evaluated on report r prints VALUE.
expect_json() {
    local got; got=$(json_get "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1"; else nok "$1" "$3 = $got, expected $4"; fi
}
