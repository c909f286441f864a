# The sample kernels of firmware-samples/ops/ (docs/ops.md) against their independent references
# (scripts/ops_ref.py, NumPy, written from the ISA's arithmetic). For every NAME.json there:
#   - the run on its default inputs passes its own expectation (exit 0);
#   - its output is within the sample's tolerance of the reference (ops_ref.py check);
#   - the same on random inputs from a fixed seed (ops_ref.py gen), given with --input / --output;
#   - each comparison can fail: the output moved by twice the tolerance in one element fails the
#     reference check, and an expectation moved so fails the run (exit 5).
# Needs Debian's python3-numpy (scripts/deps.sh); skips with the reason without it.
. test/sh/lib.sh
PY=/usr/bin/python3
DATA=build/data/ops
REF=scripts/ops_ref.py
SEED=${OPS_SEED:-1}

if ! "$PY" -c 'import numpy' 2>/dev/null; then
    skip "ops samples" "no NumPy for $PY (scripts/deps.sh installs python3-numpy)"
    echo "0 passed, 0 failed"
    exit 0
fi

# The input tensors a config declares (in0, in1).
inputs_of() { "$PY" -c 'import json,sys; print(" ".join(k for k in json.load(open(sys.argv[1]))["inputs"]))' "$1"; }

pass=0 fail=0
note() { if [ "$1" = ok ]; then ok "$2"; pass=$((pass + 1)); else nok "$2" "${@:3}"; fail=$((fail + 1)); fi; }

for cfg in firmware-samples/ops/*.json; do
    case $cfg in *.golden.json) continue ;; esac
    name=$(basename "$cfg" .json)
    ins=$(inputs_of "$cfg")
    if ! "$PY" "$REF" list | grep "^$name " >/dev/null; then
        note nok "ops $name: has a reference" "scripts/ops_ref.py has no sample named $name"
        continue
    fi
    for kind in default seed"$SEED"; do
        args=() refargs=()
        if [ "$kind" = default ]; then
            for i in $ins; do refargs+=(--"$i" "$DATA/$name.$i.npy"); done
        else
            "$PY" "$REF" gen "$name" "$TMP" --seed "$SEED" || { note nok "ops $name: random inputs" "ops_ref.py gen failed"; continue; }
            for i in $ins; do
                args+=(--input "$i=$TMP/$name.$kind.$i.npy")
                refargs+=(--"$i" "$TMP/$name.$kind.$i.npy")
            done
            # The run config's expectation is for its default inputs: this run's, with the
            # atol/rtol that covers the sample's tolerance for these inputs.
            args+=(--expect "out=$TMP/$name.$kind.out.npy$("$PY" "$REF" runtol "$name" "${refargs[@]}")")
        fi
        run_ttemu run --quiet --config "$cfg" "${args[@]}" --output "out=$TMP/$name.$kind.got.npy"
        if [ "$RC" -ne 0 ]; then
            note nok "ops $name ($kind inputs): runs" "exit $RC" "$OUT"
            continue
        fi
        note ok "ops $name ($kind inputs): runs and meets its run config"
        if msg=$("$PY" "$REF" check "$name" "${refargs[@]}" --out "$TMP/$name.$kind.got.npy" 2>&1); then
            note ok "ops $name ($kind inputs): $msg"
        else
            note nok "ops $name ($kind inputs): within tolerance of the reference" "$msg"
        fi
        if [ "$kind" = default ]; then
            # The comparisons can fail: the reference check on a perturbed output ...
            if "$PY" "$REF" check "$name" "${refargs[@]}" --out "$TMP/$name.$kind.got.npy" --perturb >"$TMP/p" 2>&1; then
                note nok "ops $name: the reference check fails on a perturbed output" "$(cat "$TMP/p")"
            else
                note ok "ops $name: the reference check fails on a perturbed output"
            fi
            # ... and the run config's own expectation on a perturbed one (exit 5).
            "$PY" - "$DATA/$name.out.npy" "$TMP/$name.bad.npy" <<'PY'
import sys, numpy as np
w = np.load(sys.argv[1])
f = w.reshape(-1)
i = int(np.argmax(np.isfinite(f) & (f != 0)))
f[i] = f[i] * 2 + 1  # in the array's own type (an integer tensor takes only integers)
np.save(sys.argv[2], w)
PY
            run_ttemu run --quiet --config "$cfg" --expect "out=$TMP/$name.bad.npy"
            if [ "$RC" -eq 5 ]; then note ok "ops $name: its run config's expectation can fail (exit 5)"; else
                note nok "ops $name: its run config's expectation can fail (exit 5)" "exit $RC" "$OUT"; fi
        fi
    done
done
echo "$pass passed, $fail failed"
