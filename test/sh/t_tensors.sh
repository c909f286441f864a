# Tensors in and out (docs/tensors.md): --input/--output/--expect and the config keys, every
# format in both layouts (the tile layout checked against tt-metal's, computed here with NumPy),
# the comparison and exit 5, bad input (exit 4 naming the problem), host write files and saved
# reads, and the add1 kernels' data. NumPy comes from Debian's python3-numpy: /usr/bin/python3.
. test/sh/lib.sh
PY=/usr/bin/python3
PROG=$FW/tensors/tensors_brisc.elf
DATA=build/data

if ! $PY -c 'import numpy' 2>/dev/null; then
    skip "tensors in and out" "NumPy is missing (Debian's python3-numpy: scripts/deps.sh installs it)"
    exit 0
fi
if [ ! -f "$PROG" ] || [ ! -f "$DATA/tensors_a.npy" ]; then
    nok "tensors: $PROG and $DATA/*.npy are built (make fw data)"
    exit 0
fi
PROGA=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")

# ---- every format, both layouts: round trips, the tile order, .bin ---------------------------
# For each case: in.npy (values, or raw bits for the *-raw cases), want.npy (what the output must
# hold: the value in the tensor's format, as float32 for float formats), want.bin (the L1 bytes:
# NumPy's own conversion and tilize, independent of ttemu) and a config declaring tensor t.
$PY - "$TMP" "$PROGA" <<'EOF'
import json, os, sys
import numpy as np
tmp, prog = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(1)
R, C = 64, 96

def bf16_bits(f32):  # float32 -> bfloat16 bits, round to nearest even; NaN quietened
    b = f32.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f32)
    return np.where(nan, ((b >> 16) | 0x40).astype(np.uint16), r)

def tilize(a):  # tt-metal: 32x32 tiles row-major, 16x16 faces 0 1 / 2 3, each row-major
    r, c = a.shape
    return a.reshape(r // 32, 2, 16, c // 32, 2, 16).transpose(0, 3, 1, 4, 2, 5).ravel()

def floats():
    x = rng.normal(0, 1000, size=(R, C)).astype(np.float32)
    bits = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 1, 0x80000001,
                     0x7F7FFFFF, 0xFF7FFFFF, 0x3F808000, 0x3F818000, 0x3F808001, 0x477FF000, 0x33000000,
                     0x387FC000, 0x3F801000, 0x3F803000, 0x00800000], dtype=np.uint32)
    x.flat[:len(bits)] = bits.view(np.float32)
    x.flat[-len(bits):] = bits.view(np.float32)
    return x

cases = {}
f = floats()
cases["bfloat16"] = (f, (bf16_bits(f).astype(np.uint32) << 16).view(np.float32), bf16_bits(f))
with np.errstate(all="ignore"):
    h = f.astype(np.float16)
cases["float16"] = (f, h.astype(np.float32), h.view(np.uint16))
cases["float32"] = (f, f, f.view(np.uint32))
raw16 = rng.integers(0, 1 << 16, size=(R, C), dtype=np.uint32).astype(np.uint16)
raw16.flat[:4] = [0x7F81, 0xFF81, 0x0001, 0x7C01]  # signalling NaNs, a subnormal: as they are
cases["bfloat16-raw"] = (raw16, (raw16.astype(np.uint32) << 16).view(np.float32), raw16)
with np.errstate(all="ignore"):
    cases["float16-raw"] = (raw16, raw16.view(np.float16).astype(np.float32), raw16)
raw32 = rng.integers(0, 1 << 32, size=(R, C), dtype=np.uint64).astype(np.uint32)
cases["float32-raw"] = (raw32, raw32.view(np.float32), raw32)
for name, dt in (("int32", np.int32), ("uint32", np.uint32), ("int16", np.int16), ("uint16", np.uint16),
                 ("int8", np.int8), ("uint8", np.uint8)):
    info = np.iinfo(dt)
    a = rng.integers(info.min, int(info.max) + 1, size=(R, C), dtype=np.int64).astype(dt)
    a.flat[:3] = [info.min, info.max, 0]
    cases[name] = (a, a, a)
for name, (inp, want, stored) in cases.items():
    fmt = name.split("-")[0]
    for layout in ("tiles", "rows"):
        d = os.path.join(tmp, "rt", "%s-%s" % (name, layout))
        os.makedirs(d)
        np.save(os.path.join(d, "in.npy"), inp)
        np.save(os.path.join(d, "want.npy"), want)
        (tilize(stored) if layout == "tiles" else stored.ravel()).tofile(os.path.join(d, "want.bin"))
        json.dump({"version": 1, "cores": {"brisc": prog},
                   "tensors": {"t": {"addr": "0x20000", "format": fmt, "shape": [R, C], "layout": layout}}},
                  open(os.path.join(d, "cfg.json"), "w"))
EOF
for d in "$TMP"/rt/*; do
    c=$(basename "$d")
    "$TTEMU" run --config "$d/cfg.json" --quiet --input t="$d/in.npy" --output t="$d/out.npy" >"$d/log1" 2>&1
    echo $? >"$d/rc1"
    "$TTEMU" run --config "$d/cfg.json" --quiet --input t="$d/in.npy" --output t="$d/out.bin" >"$d/log2" 2>&1
    echo $? >"$d/rc2"
    "$TTEMU" run --config "$d/cfg.json" --quiet --input t="$d/out.bin" --output t="$d/out2.bin" \
        --expect t="$d/in.npy" --report "$d/r.json" >"$d/log3" 2>&1
    echo $? >"$d/rc3"
    "$TTEMU" run --config "$d/cfg.json" --quiet --input t="$d/in.npy" --expect t="$d/out.npy" >"$d/log4" 2>&1
    echo $? >"$d/rc4"
done
$PY - "$TMP/rt" <<'EOF'
import io, os, sys
import numpy as np
root = sys.argv[1]
for c in sorted(os.listdir(root)):
    d = os.path.join(root, c)
    rc = [open(os.path.join(d, "rc%d" % i)).read().strip() for i in (1, 2, 3, 4)]
    fails = []
    if rc != ["0", "0", "0", "0"]:
        fails.append("exit codes %s: %s" % (rc, " | ".join(open(os.path.join(d, "log%d" % i)).read().strip()
                                                           for i in (1, 2, 3, 4))))
    else:
        out, want = np.load(os.path.join(d, "out.npy")), np.load(os.path.join(d, "want.npy"))
        if out.dtype != want.dtype or out.shape != want.shape:
            fails.append("out.npy is %s %s, expected %s %s" % (out.dtype, out.shape, want.dtype, want.shape))
        elif want.dtype.kind == "f":
            on, wn = np.isnan(out), np.isnan(want)
            ob, wb = out.view(np.uint32), want.view(np.uint32)
            bad = (on != wn) | (~wn & (ob != wb))
            if bad.any():
                i = np.argwhere(bad)[0]
                fails.append("value at %s: 0x%08x, expected 0x%08x" % (list(i), ob[tuple(i)], wb[tuple(i)]))
        elif not (out == want).all():
            fails.append("integer values differ")
        # ttemu writes exactly the bytes numpy.save writes for the same array
        buf = io.BytesIO()
        np.save(buf, out)
        if buf.getvalue() != open(os.path.join(d, "out.npy"), "rb").read():
            fails.append("out.npy differs from numpy.save's bytes")
        b = open(os.path.join(d, "out.bin"), "rb").read()
        if b != open(os.path.join(d, "want.bin"), "rb").read():
            fails.append(".bin output is not NumPy's conversion in tt-metal's layout")
        if open(os.path.join(d, "out2.bin"), "rb").read() != b:
            fails.append(".bin in, .bin out is not the identity")
    name = "round trip %s: .npy in/out exact, .bin in tt-metal's layout, .bin identity, --expect passes" % c
    print(("ok - " if not fails else "not ok - ") + name)
    for f in fails:
        print("#   " + f)
EOF
expect_json "report: a tensor's shape, format, layout, addr, files" "$TMP/rt/bfloat16-tiles/r.json" \
    '[r["tensors"]["t"][k] for k in ("shape", "format", "layout", "addr")]' '[[64, 96], "bfloat16", "tiles", 131072]'
expect_json "report: a passing comparison" "$TMP/rt/bfloat16-tiles/r.json" \
    '[r["tensors"]["t"]["compare"][k] for k in ("elements", "mismatches", "max_ulp", "first_mismatch")]' '[6144, 0, 0, null]'

# ---- an input's tensor file of 64 KiB or more is mapped, not read (loader/file.c ldr_map_file_max) --
# 160 x 128 float32 elements (80 KiB): as float32 the file's data is used in place (an input's
# mapped, an expectation's read), as bfloat16 converted; each must round-trip.
$PY - "$TMP" "$PROGA" <<'EOF'
import json, os, sys
import numpy as np
tmp, prog = sys.argv[1], sys.argv[2]
d = os.path.join(tmp, "big")
os.makedirs(d)
np.save(os.path.join(d, "in.npy"), np.random.default_rng(2).normal(0, 1000, size=(160, 128)).astype(np.float32))
for fmt in ("float32", "bfloat16"):
    json.dump({"version": 1, "cores": {"brisc": prog},
               "tensors": {"t": {"addr": "0x20000", "format": fmt, "shape": [160, 128], "layout": "tiles"}}},
              open(os.path.join(d, fmt + ".json"), "w"))
EOF
B=$TMP/big
run_ttemu run --config "$B/float32.json" --quiet --input t="$B/in.npy" --output t="$B/out.npy" --expect t="$B/in.npy"
expect_exit "a mapped .npy (80 KiB) in place, as input and expectation: exit 0" 0
check "a mapped .npy in place: the output is the input" cmp "$B/in.npy" "$B/out.npy"
# An expectation is kept for the whole run, so it is read, not mapped (loader/hostio.c load_tensor):
# its file cut short by another program during the run changes nothing. The run waits for a gdb
# client (--gdb-wait: after the tensors are loaded) while the file is cut, then is let go (detach).
cp "$B/in.npy" "$B/exp.npy"
timeout 60 "$TTEMU" run --config "$B/float32.json" --input t="$B/in.npy" --expect t="$B/exp.npy" \
    --gdb 0 --gdb-wait >"$B/cut.out" 2>&1 &
cut_pid=$!
port=$(gdb_port "$B/cut.out")
truncate -s 9 "$B/exp.npy"
$PY -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"$D#44")
s.recv(64)' "${port:-1}"
wait $cut_pid
RC=$?
OUT=$(cat "$B/cut.out")
expect_exit "an expectation's file cut short during the run: exit 0" 0
expect_out "... compared with the file as it was when loaded" "tensor t: 20480 elements match"
run_ttemu run --config "$B/bfloat16.json" --quiet --input t="$B/in.npy" --output t="$B/bf.npy"
run_ttemu run --config "$B/bfloat16.json" --input t="$B/bf.npy" --expect t="$B/bf.npy"
expect_out "a mapped .npy converted (into bfloat16), as input and expectation: it matches" \
    "tensor t: 20480 elements match"

# ---- the tensors sample: a program's results against NumPy's; the comparison can fail --------
S=firmware-samples/regress/tensors.json
run_ttemu run --config $S --report "$TMP/s.json" --output a_plus_1="$TMP/a1.npy" --output minus_b="$TMP/mb.bin"
expect_exit "sample: the program's results equal NumPy's (exit 0)" 0
expect_out "sample: the summary says so" "tensor a_plus_1: 2048 elements match .*tensors_a_plus_1.npy"
expect_json "sample: compare block" "$TMP/s.json" \
    '[r["tensors"]["minus_b"]["compare"][k] for k in ("elements", "mismatches", "atol", "rtol")]' '[768, 0, 0, 0]'
check "sample: outputs written where the flags say (.npy and .bin)" test -s "$TMP/a1.npy" -a -s "$TMP/mb.bin"
$PY - "$DATA" "$TMP" <<'EOF'
import sys
import numpy as np
data, tmp = sys.argv[1], sys.argv[2]
a = np.load(data + "/tensors_a_plus_1.npy")
a[5, 33] += 1                               # one element off by one
np.save(tmp + "/a1_off.npy", a)
b = np.load(data + "/tensors_minus_b.npy")
bits = b.view(np.uint32)
bits[2, 7] += 1 << 16                       # one bfloat16 step (b holds bfloat16 values)
np.save(tmp + "/mb_off.npy", b)
out = (np.fromfile(tmp + "/mb.bin", dtype="<u2").astype(np.uint32) << 16).view(np.float32).reshape(16, 48)
with np.errstate(all="ignore"):
    np.save(tmp + "/mb_f16.npy", out.astype(np.float16))  # bfloat16 values below 65504 are exact in float16
EOF
run_ttemu run --config $S --report "$TMP/s5.json" --expect a_plus_1="$TMP/a1_off.npy"
expect_exit "an altered expectation fails: exit 5" 5
expect_out "exit 5 names the tensor, the count and the first mismatch" \
    "tensor 'a_plus_1': 1 of 2048 elements differ from .*a1_off.npy; first at \[5, 33\]: got -?[0-9]+, want -?[0-9]+"
expect_json "exit 5: reason mismatch in the report" "$TMP/s5.json" '[r["exit"]["code"], r["exit"]["reason"]]' '[5, "mismatch"]'
expect_json "exit 5: the report's first mismatch (index, got, want)" "$TMP/s5.json" \
    '(lambda c: [c["mismatches"], c["first_mismatch"]["index"], c["first_mismatch"]["want"] - c["first_mismatch"]["got"], c["max_ulp"], c["max_abs_err"]])(r["tensors"]["a_plus_1"]["compare"])' \
    '[1, [5, 33], 1, 1, 1]'
run_ttemu run --config $S --quiet --expect a_plus_1="$TMP/a1_off.npy:atol=1"
expect_exit "within atol=1 the same expectation passes" 0
run_ttemu run --config $S --quiet --report "$TMP/s6.json" --expect minus_b="$TMP/mb_off.npy"
expect_exit "bfloat16 one step off: exit 5" 5
expect_json "bfloat16 one step off: max_ulp 1, bits in the report" "$TMP/s6.json" \
    '(lambda c: [c["max_ulp"], c["first_mismatch"]["index"], c["first_mismatch"]["want_bits"] - c["first_mismatch"]["got_bits"]])(r["tensors"]["minus_b"]["compare"])' \
    '[1, [2, 7], 1]'
run_ttemu run --config $S --quiet --expect "minus_b=$TMP/mb_off.npy:rtol=0.01:atol=0"
expect_exit "bfloat16 one step off, within rtol=0.01: exit 0" 0
run_ttemu run --config $S --quiet --expect minus_b="$TMP/mb.bin"
expect_exit "a .bin expectation (the raw output) passes" 0
run_ttemu run --config $S --quiet --expect minus_b="$TMP/mb_f16.npy"
expect_exit "a float16 expectation goes into the tensor's format like an input (the output's values, exact in float16: exit 0)" 0
run_ttemu run --config $S --quiet --expect a_plus_1="$TMP/a1_off.npy" --max-cycles 100 --report "$TMP/s7.json"
expect_exit "a mismatch does not hide a failed run: max_cycles stays exit 2" 2
expect_json "... and the comparison is still reported" "$TMP/s7.json" 'r["tensors"]["a_plus_1"]["compare"]["mismatches"] > 0' True
# A new --expect of a tensor the config outputs is taken at that output's point (regress relies
# on it): here before the program runs, when a_plus_1 still holds zeros.
$PY - "$S" "$TMP" <<'EOF'
import json, os, sys
import numpy as np
cfg, tmp = json.load(open(sys.argv[1])), sys.argv[2]
here = os.path.dirname(os.path.abspath(sys.argv[1]))
for key in ("inputs", "outputs", "expect"):
    cfg[key] = {k: os.path.normpath(os.path.join(here, v)) for k, v in cfg[key].items()}
cfg["cores"]["brisc"] = os.path.normpath(os.path.join(here, cfg["cores"]["brisc"]))
cfg["outputs"]["a_plus_1"] = {"file": tmp + "/early.npy", "at": "before_boot"}
del cfg["expect"]["a_plus_1"]
json.dump(cfg, open(tmp + "/early.json", "w"))
np.save(tmp + "/zeros.npy", np.zeros((32, 64), dtype=np.int32))
EOF
run_ttemu run --config "$TMP/early.json" --quiet --expect a_plus_1="$TMP/zeros.npy"
expect_exit "a new --expect is taken at the point of the tensor's output (before_boot: zeros)" 0
run_ttemu run --config "$TMP/early.json" --quiet --expect a_plus_1=$DATA/tensors_a_plus_1.npy
expect_exit "... so the program's result is not there yet (exit 5)" 5
for v in "TTEMU_REFERENCE=1" "TTEMU_SPIN=0"; do
    env $v "$TTEMU" run --config $S --quiet --report "$TMP/s_$v.json" --expect a_plus_1="$TMP/a1_off.npy" 2>/dev/null
    check "sample: $v gives a byte-identical report" cmp "$TMP/s5.json" "$TMP/s_$v.json"
done

# ---- bad input: exit 4, naming the file, the key or flag, and the problem ----------------------
$PY - "$TMP" <<'EOF'
import sys
import numpy as np
t = sys.argv[1]
np.save(t + "/be.npy", np.zeros((32, 64), dtype=">i4"))
np.save(t + "/shape.npy", np.zeros((64, 32), dtype="<i4"))
np.save(t + "/f64.npy", np.zeros((16, 48)))
np.save(t + "/f32.npy", np.zeros((32, 64), dtype=np.float32))
np.save(t + "/big.npy", np.full((32, 64), 1 << 40))
open(t + "/garbage.npy", "wb").write(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<i4'")
open(t + "/trunc.npy", "wb").write(open(t + "/shape.npy", "rb").read()[:-5])
open(t + "/short.bin", "wb").write(b"\0" * 100)
open(t + "/x.txt", "w").write("1 2 3")
EOF
bad_run() { # NAME REGEX ARGS...
    local n=$1 re=$2; shift 2
    run_ttemu run "$@"
    if [ "$RC" -eq 4 ] && grep -qE -- "$re" <<<"$OUT"; then ok "bad input: $n"; else nok "bad input: $n" "exit $RC" "$OUT"; fi
}
bad_run "unknown tensor on the command line" "--input nope=x.npy: unknown tensor 'nope' \(declared: a, a_plus_1, b, minus_b\)" \
    --config $S --input nope=x.npy
bad_run "a tensor flag without a config" "unknown tensor 'a' \(declared: none" --brisc "$PROG" --input a=x.npy
bad_run "--input without NAME=FILE" "--input needs NAME=FILE, got 'a.npy'" --config $S --input a.npy
bad_run "a negative tolerance" "'atol=-1' needs a finite number >= 0" --config $S --expect "a=$TMP/f32.npy:atol=-1"
bad_run "a tolerance that is not a number" "'rtol=x' needs a finite number" --config $S --expect "a=$TMP/f32.npy:rtol=x"
bad_run "shape mismatch" "shape.npy: array shape \(64, 32\) does not match the tensor's shape \[32, 64\] \(--input a, tensor 'a' \(int32 \[32, 64\], tiles\)\)" \
    --config $S --input a="$TMP/shape.npy"
bad_run "big-endian .npy" "be.npy: dtype '>i4' is big-endian" --config $S --input a="$TMP/be.npy"
bad_run "malformed .npy" "garbage.npy: truncated .npy header" --config $S --input a="$TMP/garbage.npy"
bad_run "truncated .npy data" "trunc.npy: truncated data" --config $S --input a="$TMP/trunc.npy"
bad_run "not a .npy at all" "short.bin.npy: not a .npy file" --config $S --input a="$(cp "$TMP/short.bin" "$TMP/short.bin.npy"; echo "$TMP/short.bin.npy")"
bad_run "float64 .npy" "f64.npy: a float64 array is not accepted: save it as float32" --config $S --input b="$TMP/f64.npy"
bad_run "floats into an integer tensor" "the tensor's format int32 needs integer values; the array holds float32" \
    --config $S --input a="$TMP/f32.npy"
bad_run "a value that does not fit" "element \[0, 0\] = 1099511627776 does not fit int32" --config $S --input a="$TMP/big.npy"
bad_run ".bin of the wrong size" "short.bin: 100 bytes, but the tensor 'a' \(int32 \[32, 64\], tiles\) holds 8192" \
    --config $S --input a="$TMP/short.bin"
bad_run "an expectation of the wrong shape" "shape.npy: array shape .* \(--expect a_plus_1," --config $S --expect a_plus_1="$TMP/shape.npy"
bad_run "neither .npy nor .bin" "x.txt: expected a .npy or .bin file" --config $S --input a="$TMP/x.txt"
bad_run "an input file that is missing" "nothere.npy: cannot open" --config $S --input a="$TMP/nothere.npy"
bad_run "an output in a missing directory" "$TMP/no/dir/o.npy: cannot write it: no directory $TMP/no/dir \(--output a_plus_1\)" \
    --config $S --output a_plus_1="$TMP/no/dir/o.npy"
mkdir -p "$TMP/adir.npy"
bad_run "an output path that is a directory" "adir.npy: cannot write it: a directory" --config $S --output a_plus_1="$TMP/adir.npy"
bad_run "an output that is neither .npy nor .bin" "o.csv: expected a .npy or .bin file" --config $S --output a_plus_1="$TMP/o.csv"

cfg_bad() { # NAME REGEX TENSORS-JSON [EXTRA-KEYS-JSON]
    printf '{"version": 1, "cores": {"brisc": "%s"}, "tensors": %s%s}\n' "$PROGA" "$3" "${4:+, $4}" > "$TMP/bad.json"
    run_ttemu run --config "$TMP/bad.json" --quiet
    if [ "$RC" -eq 4 ] && grep -qE -- "$2" <<<"$OUT"; then ok "config error: $1"; else nok "config error: $1" "exit $RC" "$OUT"; fi
}
cfg_bad "tiles shape not a multiple of 32" "bad.json: key 'tensors.t.shape': shape \[30, 64\]: the tiles layout needs the last two dimensions to be multiples of 32" \
    '{"t": {"addr": "0x20000", "format": "bfloat16", "shape": [30, 64], "layout": "tiles"}}'
cfg_bad "unknown format" "key 'tensors.t.format': expected one of: bfloat16, float16, float32" \
    '{"t": {"addr": "0x20000", "format": "half", "shape": [32, 32], "layout": "rows"}}'
cfg_bad "block-float format" "key 'tensors.t.format': block-float format .bfloat4_b. is not supported \(bfloat8_b is\)" \
    '{"t": {"addr": "0x20000", "format": "bfloat4_b", "shape": [32, 32], "layout": "tiles"}}'
cfg_bad "bfloat8_b in rows" "key 'tensors.t.shape': bfloat8_b needs .layout.: .tiles." \
    '{"t": {"addr": "0x20000", "format": "bfloat8_b", "shape": [32, 32], "layout": "rows"}}'
cfg_bad "layout missing" "key 'tensors.t.layout': expected .tiles." \
    '{"t": {"addr": "0x20000", "format": "int32", "shape": [32, 32]}}'
cfg_bad "a zero dimension" "key 'tensors.t.shape': dimension 0 is 0" \
    '{"t": {"addr": "0x20000", "format": "int32", "shape": [0, 32], "layout": "rows"}}'
cfg_bad "a tensor past the end of L1" "key 'tensors.t': 4096 bytes from 0x0017f800 do not fit in L1" \
    '{"t": {"addr": "0x17F800", "format": "int32", "shape": [32, 32], "layout": "rows"}}'
cfg_bad "a bad tensor name" "key 'tensors.a b': a tensor name is 1 to 47 letters, digits" \
    '{"a b": {"addr": "0x20000", "format": "int32", "shape": [32, 32], "layout": "rows"}}'
cfg_bad "an unknown key in a tensor" "key 'tensors.t.dtype': unknown key \(expected one of: addr, dram, format, shape, layout\)" \
    '{"t": {"addr": "0x20000", "dtype": "int32", "shape": [32, 32], "layout": "rows"}}'
# Tensors in DRAM (docs/tensors.md): exactly one of addr and dram, a bank only when not interleaved.
D='"format": "bfloat16", "shape": [32, 32], "layout": "tiles"'
cfg_bad "a tensor both in L1 and in DRAM" "key 'tensors.t': expected exactly one of .addr. \(in L1\) or .dram." \
    "{\"t\": {\"addr\": \"0x20000\", \"dram\": {\"base\": 0, \"page_size\": 2048}, $D}}"
cfg_bad "an interleaved DRAM tensor with a bank" "key 'tensors.t.dram': an interleaved buffer spans every bank" \
    "{\"t\": {\"dram\": {\"base\": 0, \"page_size\": 2048, \"interleaved\": true, \"bank\": 2}, $D}}"
cfg_bad "a DRAM tensor neither interleaved nor in a bank" "key 'tensors.t.dram': a buffer that is not interleaved names its .bank." \
    "{\"t\": {\"dram\": {\"base\": 0, \"page_size\": 2048, \"interleaved\": false}, $D}}"
cfg_bad "a DRAM tensor in bank 7" "key 'tensors.t.dram.bank': expected an integer from 0 to 6, got 7" \
    "{\"t\": {\"dram\": {\"base\": 0, \"page_size\": 2048, \"interleaved\": false, \"bank\": 7}, $D}}"
cfg_bad "a DRAM tensor without a page size" "key 'tensors.t.dram': missing key 'page_size'" \
    "{\"t\": {\"dram\": {\"base\": 0}, $D}}"
cfg_bad "a DRAM tensor past the end of its bank" "key 'tensors.t.dram': 2048 bytes from 0xffffff00 do not fit in the bank" \
    "{\"t\": {\"dram\": {\"base\": \"0xFFFFFF00\", \"page_size\": 2048, \"bank\": 1}, $D}}"
T1='{"t": {"addr": "0x20000", "format": "int32", "shape": [32, 32], "layout": "rows"}}'
cfg_bad "inputs naming an unknown tensor" "key 'inputs.u': unknown tensor \(declared: t\)" "$T1" '"inputs": {"u": "x.npy"}'
cfg_bad "a bare-mode output after boot" "key 'outputs.t.at': a bare-mode run \(.cores.\) has only .before_boot. and .end." \
    "$T1" '"outputs": {"t": {"file": "o.npy", "at": "after_boot"}}'
cfg_bad "an input at the end" "key 'inputs.t.at': expected .before_boot., .after_boot., .kernels_done., .after_launch.$" \
    "$T1" '"inputs": {"t": {"file": "i.npy", "at": "end"}}'
cfg_bad "a tolerance on an output" "key 'outputs.t.atol': unknown key" "$T1" '"outputs": {"t": {"file": "o.npy", "atol": 1}}'
cfg_bad "a negative tolerance in the config" "key 'expect.t.rtol': expected a finite number >= 0" \
    "$T1" '"expect": {"t": {"file": "o.npy", "rtol": -0.5}}'
cfg_bad "a launch in bare mode" "key 'expect.t.launch': only .kernels_done. and .after_launch. take a launch" \
    "$T1" '"expect": {"t": {"file": "o.npy", "launch": 0}}'

# ---- host writes of files, host reads saved to files, many host operations -------------------
printf 'ABCDEFG' > "$TMP/seven.bin"
printf 'xyz' > "$TMP/three.bin"
$PY - "$TMP" "$PROGA" <<'EOF'
import json, sys
t, prog = sys.argv[1], sys.argv[2]
host = [{"at": "before_boot", "write": {"addr": "0x20001", "file": "seven.bin"}},
        {"at": "before_boot", "write": {"addr": "0xFFB14001", "file": "three.bin"}}]
host += [{"at": "before_boot", "write": {"addr": hex(0x21000 + 4 * i), "value": 1000 + i}} for i in range(100)]
host += [{"at": "before_boot", "read": {"addr": "0x20000", "bytes": 9, "file": "nine.bin", "name": "nine"}}]
host += [{"at": "before_boot", "read": {"addr": hex(0x21000 + 4 * i), "name": "r%d" % i}} for i in range(70)]
json.dump({"version": 1, "cores": {"brisc": prog}, "host": host, "peek": ["0xFFB14000", "0x21000:100"]},
          open(t + "/files.json", "w"))
EOF
run_ttemu run --config "$TMP/files.json" --quiet --report "$TMP/files_r.json"
expect_exit "host file writes and saved reads: exit 0" 0
check "a 7-byte file written at an odd L1 address, 9 bytes read back into a file" \
    bash -c "printf '\\0ABCDEFG\\0' | cmp - '$TMP/nine.bin'"
expect_json "a file written into BRISC's local RAM through its alias" "$TMP/files_r.json" \
    'hex(r["peek"]["0xffb14000"][0])' "$(printf '0x%x' $(( (0x7a << 24) | (0x79 << 16) | (0x78 << 8) )))"
expect_json "a saved read is reported as its file and size" "$TMP/files_r.json" \
    'r["host_reads"]["nine"] == {"file": "'"$TMP"'/nine.bin", "bytes": 9}' True
expect_json "more than 64 host writes all happen" "$TMP/files_r.json" 'r["peek"]["0x00021000"] == list(range(1000, 1100))' True
expect_json "more than 64 host reads are all taken" "$TMP/files_r.json" \
    '[r["host_reads"]["r%d" % i][0] for i in (0, 63, 64, 69)]' '[1000, 1063, 1064, 1069]'
hbad() { # NAME REGEX HOST-OP-JSON
    printf '{"version": 1, "cores": {"brisc": "%s"}, "host": [%s]}\n' "$PROGA" "$3" > "$TMP/hbad.json"
    run_ttemu run --config "$TMP/hbad.json" --quiet
    if [ "$RC" -eq 4 ] && grep -qE -- "$2" <<<"$OUT"; then ok "config error: $1"; else nok "config error: $1" "exit $RC" "$OUT"; fi
}
hbad "a file write into a device" "key 'host\[0\].write.file': .*seven.bin: 7 bytes from 0xffb12000 do not fit \(a file goes into L1" \
    '{"at": "before_boot", "write": {"addr": "0xFFB12000", "file": "seven.bin"}}'
hbad "a file write past the end of L1" "7 bytes from 0x0017fffc do not fit" \
    '{"at": "before_boot", "write": {"addr": "0x17FFFC", "file": "seven.bin"}}'
hbad "a file write past the end of the local-RAM aliases" "3 bytes from 0xffb1dfff do not fit" \
    '{"at": "before_boot", "write": {"addr": "0xFFB1DFFF", "file": "three.bin"}}'
hbad "a file write with a value" "key 'host\[0\].write': give either .value. \(and .size.\) or .file." \
    '{"at": "before_boot", "write": {"addr": "0x20000", "value": 1, "file": "seven.bin"}}'
hbad "a file to write that is missing" "key 'host\[0\].write.file': .*missing.bin: cannot open" \
    '{"at": "before_boot", "write": {"addr": "0x20000", "file": "missing.bin"}}'
hbad "bytes without a file" "key 'host\[0\].read': .bytes. goes with .file." \
    '{"at": "before_boot", "read": {"addr": "0x20000", "bytes": 9}}'
hbad "both words and bytes" "give either .words. or .bytes." \
    '{"at": "before_boot", "read": {"addr": "0x20000", "bytes": 9, "words": 3, "file": "x.bin"}}'
hbad "a saved read into a missing directory" "no/x.bin: cannot write it: no directory" \
    '{"at": "before_boot", "read": {"addr": "0x20000", "bytes": 9, "file": "no/x.bin"}}'

# ---- the add1 kernels (tt-metal firmware): their input tensor and the expectation -------------
# The expectation is the ISA's arithmetic computed by scripts/make_sample_data.py (never ttemu's
# own output); the altered expectation below proves the comparison can fail.
FWD=$SHARED/firmware/blackhole-p100a K=$SHARED/firmware/kernels-add1
check "add1 reference: hand-worked values (1 -> 2, -1 -> +0, 255 and 256 -> 256, NaN -> +Inf, -0 and subnormals -> 1, 2^24 -> 2^24)" \
    $PY -c "
import sys; sys.path.insert(0, 'scripts')
import numpy as np
from make_sample_data import add1_reference
t = {0x3F80: 0x4000, 0xBF80: 0, 0x437F: 0x4380, 0x4380: 0x4380, 0x7FC0: 0x7F80, 0xFFC1: 0x7F80, 0x7F81: 0x7F80,
     0x8000: 0x3F80, 0x0001: 0x3F80, 0x807F: 0x3F80, 0x4B80: 0x4B80, 0xBF7F: 0x3B80, 0x7F80: 0x7F80,
     0xFF80: 0xFF80, 0x7F7F: 0x7F7F, 0xFF7F: 0xFF7F, 0xBF00: 0x3F00, 0x3000: 0x3F80}
got = add1_reference(np.array(list(t), dtype=np.uint16))
assert list(got) == list(t.values()), [hex(v) for v in got]"
if [ ! -d "$FWD" ] || [ ! -d "$K" ]; then
    skip "add1 tensors" "../shared/firmware is absent (the real firmware corpus)"
else
    C=firmware-samples/configs/add1-compute.json
    run_ttemu run --config $C --quiet --output in="$TMP/add1_in.bin" --report "$TMP/add1.json"
    expect_exit "add1: the input tensor goes in (exit 0)" 0
    check "add1: CB0 holds the input tiles exactly (read back at the end)" $PY -c "
import numpy as np
x = np.load('$DATA/add1_input.npy')
tiled = x.reshape(8, 2, 16, 1, 2, 16).transpose(0, 3, 1, 4, 2, 5).ravel()
assert open('$TMP/add1_in.bin', 'rb').read() == tiled.astype('<u2').tobytes()"
    expect_json "add1: both tensors in the report" "$TMP/add1.json" \
        '[r["tensors"][t]["shape"] + [r["tensors"][t]["format"]] for t in ("in", "out")]' '[[256, 32, "bfloat16"], [256, 32, "bfloat16"]]'
    # A config's expectation is for the config's inputs: with an input replaced by --input it is not
    # checked (said on stderr), and an --expect given with it is.
    $PY -c "
import numpy as np
x = np.load('$DATA/add1_input.npy'); np.save('$TMP/add1_other.npy', x[::-1].copy())"
    run_ttemu run --config $C --quiet --input in="$TMP/add1_other.npy" --report "$TMP/add1_other.json"
    expect_exit "add1 with another input: the config's expectation is not checked (exit 0)" 0
    expect_out "... and the run says so" "note: .*add1-compute.json: the config's expectation of out is for its own inputs; not checked"
    expect_json "... and the report has no comparison" "$TMP/add1_other.json" '"compare" in r["tensors"]["out"]' False
    run_ttemu run --config $C --quiet --input in="$TMP/add1_other.npy" --expect out=$DATA/add1_expected.npy
    expect_exit "add1 with another input and the old expectation given as --expect: compared, differs (exit 5)" 5
    # An altered expectation must fail: one bit of one element.
    $PY -c "
import numpy as np
e = np.load('$DATA/add1_expected.npy'); e[100, 7] ^= 1; np.save('$TMP/add1_off.npy', e)"
    run_ttemu run --config $C --quiet --expect out="$TMP/add1_off.npy"
    expect_exit "add1: an altered expectation fails (exit 5)" 5
    run_ttemu run --config $C --quiet --expect out=$DATA/add1_expected.npy --report "$TMP/add1_e.json"
    expect_exit "add1 N=8: CB16 = bf16(in + 1.0), every element bit for bit (exit 0)" 0
    # N = 1, 3 and 4 launches of N = 32, each with its own data from the same script.
    for spec in 1:1 3:1 32:4; do
        n=${spec%:*} l=${spec#*:}
        $PY scripts/make_sample_data.py "$TMP/add1_$n" --tiles $((n * l))
        $PY - "$n" "$l" "$TMP/add1_$n" <<'EOF'
import sys
import numpy as np
n, launches, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
x, e = np.load(d + "/add1_input.npy"), np.load(d + "/add1_expected.npy")
for i in range(launches):  # launch i's input and expected CB16 (scripts/add1_config.py --l1-tensors)
    np.save("%s/in%d.npy" % (d, i), x[32 * n * i:32 * n * (i + 1)])
    np.save("%s/want%d.npy" % (d, i), e[32 * n * i:32 * n * (i + 1)])
EOF
        python3 scripts/add1_config.py --shared "$SHARED" -n $n --launches $l --cb16 0x40000 --l1-tensors "$TMP/add1_$n" \
            --max-cycles 50000000 > "$TMP/add1_$n.json"
        run_ttemu run --config "$TMP/add1_$n.json" --quiet
        expect_exit "add1 N=$n x $l launch(es): CB16 = bf16(in + 1.0) bit for bit (exit 0)" 0
    done
    # An output at a point the run never reaches is bad input, not a silent nothing.
    FWA=$(cd "$FWD" && pwd)
    printf '{"version": 1, "firmware": "%s", "launches": [{"kernels": {"brisc": "%s"}}], "stop": {"at": "boot"}, "tensors": {"t": {"addr": "0x20000", "format": "uint8", "shape": [16], "layout": "rows"}}, "outputs": {"t": {"file": "%s", "at": "kernels_done"}}}\n' \
        "$FWA" "$(cd "$K" && pwd)/writer_brisc.bin" "$TMP/never.npy" > "$TMP/never.json"
    run_ttemu run --config "$TMP/never.json" --quiet
    expect_exit "an output whose point is never reached: exit 4" 4
    expect_out "... named" "outputs.t: tensor 't' was never read: the run did not reach kernels_done"
fi
