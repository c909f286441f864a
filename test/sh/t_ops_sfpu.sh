# The SFPU samples (firmware-samples/ops/sfpu_*, docs/ops-sfpu.md) beyond what
# test/sh/t_ops.sh checks for every sample (default inputs, one seed, a perturbed output):
#   - more seeded random tiles over each function's useful range (scripts/ops_ref_sfpu.py), each
#     output within the sample's tolerance of the exact function;
#   - the special values (±0, ±Inf, ±NaN, denormals, the largest finite, tiny ones) at the front of
#     the default inputs: their outputs are what the algorithm gives, bit for bit;
#   - the comparisons can fail: a special value's output moved (an infinity to the largest finite,
#     a zero to the smallest normal) fails the check, and so does each sample's output checked as
#     another function's (tanh's as sigmoid's, ...), which the tolerances must tell apart.
# Needs Debian's python3-numpy (scripts/deps.sh); skips with the reason without it.
. test/sh/lib.sh
PY=/usr/bin/python3
DATA=build/data/ops
REF=scripts/ops_ref.py
SEEDS=${OPS_SFPU_SEEDS:-2 3}
OPS="sfpu_relu sfpu_recip sfpu_sqrt sfpu_exp sfpu_tanh sfpu_sigmoid sfpu_gelu"

if ! "$PY" -c 'import numpy' 2>/dev/null; then
    skip "sfpu samples" "no NumPy for $PY (scripts/deps.sh installs python3-numpy)"
    echo "0 passed, 0 failed"
    exit 0
fi

# The outputs for the first 14 default inputs, worked from the pages (docs/ops-sfpu.md "Special values"):
#   in:     +0   -0   +Inf -Inf +NaN -NaN 1    -1   1e-39 -1e-39 2^-126 -2^-126 max  -max
# The path first: MOVA2D makes -0 and denormals +0; the packer writes NaN as Inf of its sign and
# -0 and magnitudes below 2^-126 as +0.
declare -A SPECIAL=(
    # v_if (x < 0) x = 0 tests the sign bit: -NaN becomes 0.
    [sfpu_relu]="0000 0000 7f80 0000 7f80 0000 3f80 0000 0000 0000 0080 0000 7f7f 0000"
    # SFPARECIP: +Inf below 2^-126, 0 from 2^126 (Inf, NaN included); the Newton step keeps both.
    [sfpu_recip]="7f80 7f80 0000 0000 0000 0000 3f80 bf80 7f80 7f80 7e80 fe80 0000 0000"
    # x < 0 (sign bit) gives NaN, which the rounding to bf16 (SFPSTOCHRND) makes Inf; NaN too.
    # max: 2^64 sqrt(1 - 2^-8) lies below the midpoint of 0x5f7f and 0x5f80.
    [sfpu_sqrt]="0000 0000 7f80 7f80 7f80 7f80 3f80 7f80 0000 0000 2000 7f80 5f7f 7f80"
    # Inf, NaN and max: exponent >= 7, eight squarings of >= 1.639: Inf; negative: 1 / that, which
    # SFPARECIP makes 0 (its Newton steps skipped: t is NaN, not < 0). 1: 0.5 (0.8373 0.5 +
    # 0.859375) + 1 squared once, 2.68636 truncated: 0x402b; -1: its reciprocal, 0.37225: 0x3ebe.
    # 2^-126: 1 (the quadratic's value 1 + 2^-126 v); -2^-126: the reciprocal of 1.0, exact.
    [sfpu_exp]="3f80 3f80 7f80 0000 7f80 0000 402b 3ebe 3f80 3f80 3f80 3f80 7f80 0000"
    # SFPLUT: 0.90625 |x| below 1 (1 -> 0.90625), 1 from 2 up: 0 Inf is NaN; NaN's bits read as >= 2;
    # the sign kept. 0.90625 2^-126 is a denormal result: 0.
    [sfpu_tanh]="0000 0000 7f80 ff80 7f80 ff80 3f68 bf68 0000 0000 0000 0000 3f80 bf80"
    # SFPLUTFP32 TABLE2: below 0.5 c = FP16 0x9018 = -4.997e-4 with x's sign, + 0.5 truncated: 0x3f00,
    # or 0.4995: 0x3eff for -2^-126; 1: 0.17310 + 0.05988 = 0.23297; from 4: 0 |x| + 0.49976 (0 Inf
    # is NaN: +0.5 makes it the positive canonical NaN).
    [sfpu_sigmoid]="3f00 3f00 7f80 7f80 7f80 7f80 3f3b 3e88 3f00 3f00 3f00 3eff 3f7f 3980"
    # x / 2 + TABLE1(|x|): below 0.5, c = FP16 0x86d8 = -1.7109375 2^-14 (0xb8db); 1: 0.5 + 0.61865
    # - 0.27954; from 3: 0.5 |x| + 0: max exactly, -max 0; -Inf: -Inf + Inf is NaN.
    [sfpu_gelu]="b8db b8db 7f80 7f80 7f80 7f80 3f56 be24 b8db b8db b8db b8db 7f7f 0000"
)

pass=0 fail=0
note() { if [ "$1" = ok ]; then ok "$2"; pass=$((pass + 1)); else nok "$2" "${@:3}"; fail=$((fail + 1)); fi; }

# The run config's tolerances as an --expect suffix (":atol=A:rtol=R"), as test/sh/t_ops.sh.
tol_of() {
    "$PY" -c 'import json,sys; e=json.load(open(sys.argv[1]))["expect"]["out"]
print("".join(":%s=%r" % (k, e[k]) for k in ("atol", "rtol") if isinstance(e, dict) and k in e))' "$1"
}
# run NAME IN OUT [WANT]: the sample on input IN, its output saved to OUT, compared by the run with
# WANT within the run config's tolerances when given; else with the config's expectation for the
# default inputs (a mismatch, exit 5, is then expected).
run() {
    local e=()
    [ -n "${4:-}" ] && e=(--expect "out=$4$(tol_of "firmware-samples/ops/$1.json")")
    run_ttemu run --quiet --config "firmware-samples/ops/$1.json" --input "in0=$2" --output "out=$3" "${e[@]}"
}

for name in $OPS; do
    for seed in $SEEDS; do
        "$PY" "$REF" gen "$name" "$TMP" --seed "$seed" || { note nok "$name seed $seed: inputs" "gen failed"; continue; }
        in=$TMP/$name.seed$seed.in0.npy got=$TMP/$name.seed$seed.got.npy
        run "$name" "$in" "$got" "$TMP/$name.seed$seed.out.npy"
        if [ "$RC" -ne 0 ]; then note nok "$name (seed $seed): runs and meets the reference" "exit $RC" "$OUT"; continue; fi
        if msg=$("$PY" "$REF" check "$name" --in0 "$in" --out "$got" 2>&1); then
            note ok "$name (seed $seed): $msg"
        else
            note nok "$name (seed $seed): within tolerance of the exact function" "$msg"
        fi
    done

    # The default inputs: the special values first (ops_ref_sfpu.py SPECIALS); their outputs bit for bit.
    in=$DATA/$name.in0.npy got=$TMP/$name.got.npy
    run_ttemu run --quiet --config "firmware-samples/ops/$name.json" --output "out=$got"
    if [ "$RC" -ne 0 ]; then note nok "$name: runs on the default inputs" "exit $RC" "$OUT"; continue; fi
    bits=$("$PY" -c 'import sys, numpy as np; g = np.load(sys.argv[1]).astype(np.float32).reshape(-1)[:14]
print(" ".join("%04x" % (v >> 16) for v in g.view(np.uint32)))' "$got")
    if [ "$bits" = "${SPECIAL[$name]}" ]; then note ok "$name: special values ($bits)"; else
        note nok "$name: special values" "got  $bits" "want ${SPECIAL[$name]}"; fi

    # A special value's output moved fails the reference check.
    "$PY" - "$got" "$TMP/$name.moved.npy" <<'PY'
import sys
import numpy as np
g = np.load(sys.argv[1]).astype(np.float32)
f = g.reshape(-1)[:26]
i = int(np.argmax(np.isinf(f))) if np.isinf(f).any() else int(np.argmax(f == 0))
f[i] = np.float32(3.3895314e38) if np.isinf(f[i]) else np.float32(2.0 ** -126)
np.save(sys.argv[2], g)
PY
    if "$PY" "$REF" check "$name" --in0 "$in" --out "$TMP/$name.moved.npy" >"$TMP/p" 2>&1; then
        note nok "$name: a moved special value fails the check" "$(cat "$TMP/p")"
    else
        note ok "$name: a moved special value fails the check"
    fi
done

# Each output checked as another function's fails (the tolerances tell the functions apart).
set -- $OPS
prev=$7
for name in $OPS; do
    "$PY" "$REF" gen "$name" "$TMP" --seed 9 >/dev/null
    in=$TMP/$name.seed9.in0.npy
    run "$prev" "$in" "$TMP/other.npy"
    if "$PY" "$REF" check "$name" --in0 "$in" --out "$TMP/other.npy" >"$TMP/p" 2>&1; then
        note nok "$prev's output fails $name's check" "$(cat "$TMP/p")"
    else
        note ok "$prev's output fails $name's check"
    fi
    prev=$name
done
echo "$pass passed, $fail failed"
