#!/usr/bin/env bash
# bench/run.sh — ttemu's speed figures (`make bench`): a table on stdout and $BUILD/bench.json.
#
# Workloads (each run RUNS times; the wall time is the median):
#   compute    bench/progs/compute.c on BRISC alone: compute-bound RV32IM (always runs)
#   boot_idle  the real p100a firmware booted the tt-metal way, then IDLE cycles of the five cores
#              spinning on L1 and MMIO (needs ../shared/firmware and `ttemu run --config`)
#   add1       the real add1 compute kernels (with the datapath computing) launched 4 times on 32
#              tiles each (same needs); tiles/s also as the marginal rate: the extra tiles of 16
#              launches over 4, per extra second (what a long suite pays per tile, start-up and
#              boot excluded)
#   add1_full  the whole add1 program on 1000 tiles: reader (NOC0 reads of DRAM), the compute
#              kernels, writer (NOC1 writes to DRAM), the input in DRAM (same needs)
#   add1_tensors  the same program as users run it: its input and the expected output as .npy
#              tensors in DRAM (--input, --expect; scripts/make_sample_data.py, Debian's NumPy)
#   idle_step  boot_idle with the idle fast-forward off (TTEMU_SPIN=0): the spinning cores stepped
#   ops_NAME   each sample kernel firmware-samples/ops/NAME.json (eltwise_add; matmul and the SFPU
#              samples as they land), its tensors from build/data (make data)
# The title and the JSON's "build" say what was measured: CFLAGS, the profile feedback (PGO,
# PGO_TT_METAL, PGO_TRAIN) and LTO, as $BUILD/config.stamp records them.
# Columns: guest instructions (the report's instret summed over the cores), Tensix instructions
# issued (summed over the threads), median wall seconds, M instr/s, M Tensix instr/s, M tile
# cycles/s, tiles/s (the workload's 32x32 tiles over the wall time; add1 also marginal, above),
# host instructions per guest instruction and per tile cycle (callgrind's total Ir / instret and
# / cycles, on a shorter run of the same workload; "-" without valgrind), peak RSS of the ttemu
# process alone (one more run under /usr/bin/time -f %M; see peak_rss).
#
#   BUILD=build RUNS=5 bench/run.sh [WORKLOAD...]
# Environment: TTEMU_REFERENCE=1 measures the reference path instead, TTEMU_SPIN=0 the fast path
# without the idle fast-forward (docs/cli.md); the table's title and the JSON's "path" say which.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build} RUNS=${RUNS:-5} SHARED=${SHARED:-../shared}
export BUILD RUNS SHARED
exec python3 - "$@" <<'PY'
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, "scripts")
import add1_config

BUILD, RUNS, SHARED = os.environ["BUILD"], int(os.environ["RUNS"]), os.environ["SHARED"]
TTEMU = os.path.join(BUILD, "ttemu")
tmp = tempfile.mkdtemp(prefix="ttemu-bench-")
fw_dir = os.path.abspath(os.path.join(SHARED, "firmware", "blackhole-p100a"))
k_dir = os.path.abspath(os.path.join(SHARED, "firmware", "kernels-add1"))

def has_config():
    try:
        out = subprocess.run([TTEMU, "--help"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "--config" in out

def firmware_missing():
    if not (os.path.isdir(fw_dir) and os.path.isdir(k_dir)):
        return "no %s/firmware (the real p100a firmware and add1 kernels)" % SHARED
    if not has_config():
        return "this ttemu has no `run --config` (tt-metal boot)"
    return None

def write_json(name, obj):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        json.dump(obj, f)
    return p

def boot_config(idle, max_cycles):
    return write_json("boot_%d.json" % idle, {"version": 1, "firmware": fw_dir,
                      "stop": {"at": "boot", "cycles": idle}, "max_cycles": max_cycles})

def add1(name, **options):  # the add1 program's config (scripts/add1_config.py), written to a file
    return write_json(name, add1_config.config(shared=SHARED, **options))

def add1_compute(n, launches):  # the compute kernels alone, N tiles a launch
    return add1("add1_%d_%d.json" % (n, launches), tiles=n, launches=launches, cb16=0x60000)

def add1_full(n):  # the whole program, its input a ramp in DRAM
    return add1("add1_full_%d.json" % n, tiles=n, whole=True, ramp=True)

def add1_tensors_args(n):
    """The whole add1 program as users run it: its input and the expected output as .npy tensors
    in DRAM (scripts/make_sample_data.py, with Debian's NumPy), compared at the end."""
    d = os.path.join(tmp, "tensors_%d" % n)
    if not os.path.exists(os.path.join(d, "add1_expected.npy")):
        subprocess.run(["/usr/bin/python3", "scripts/make_sample_data.py", d, "--tiles", str(n)],
                       check=True, stdout=subprocess.DEVNULL)
    return ["--config", add1("add1_tensors_%d.json" % n, tiles=n, whole=True, dram_tensors=True),
            "--input", "in=" + os.path.join(d, "add1_input.npy"), "--expect", "out=" + os.path.join(d, "add1_expected.npy")]

def tensors_missing():
    return firmware_missing() or (None if os.path.exists("/usr/lib/python3/dist-packages/numpy")
                                  else "no Debian python3-numpy (scripts/deps.sh)")

def compute_args(max_cycles=None):
    a = ["--brisc", os.path.join("build", "fw", "bench", "compute.elf")]
    return a + (["--max-cycles", str(max_cycles)] if max_cycles else [])

# name, what, prerequisite check, args of the timed run, args of the (shorter) callgrind run
WORKLOADS = [
    ("compute", "compute-bound RV32IM, BRISC alone", lambda: None if os.path.exists(compute_args()[1])
        else "no %s (make fw)" % compute_args()[1], lambda: compute_args(), lambda: compute_args(2000000)),
    ("boot_idle", "p100a firmware boot + 2M idle cycles", firmware_missing,
        lambda: ["--config", boot_config(2000000, 3000000)], lambda: ["--config", boot_config(100000, 1000000)]),
    ("add1", "add1 kernels, 32 tiles x 4 launches", firmware_missing,
        lambda: ["--config", add1_compute(32, 4)], lambda: ["--config", add1_compute(8, 1)],
        None, 4 * 32, lambda: (["--config", add1_compute(32, 16)], 16 * 32)),
    ("add1_full", "whole add1 program (DRAM, NoC), 1000 tiles", firmware_missing,
        lambda: ["--config", add1_full(1000)], lambda: ["--config", add1_full(64)], None, 1000),
    ("add1_tensors", "whole add1 program, 1000 tiles, .npy in and expected out", tensors_missing,
        lambda: add1_tensors_args(1000), lambda: add1_tensors_args(64), None, 1000),
    # The same boot + idle with the idle fast-forward off: what stepping the spinning cores costs.
    ("idle_step", "boot_idle with TTEMU_SPIN=0", firmware_missing,
        lambda: ["--config", boot_config(2000000, 3000000)], lambda: ["--config", boot_config(100000, 1000000)],
        {"TTEMU_SPIN": "0"}),
]

def ops_missing(cfg):
    def why():
        c = json.load(open(cfg))
        for p in list(c.get("cores", {}).values()) + list(c.get("inputs", {}).values()):
            p = p["file"] if isinstance(p, dict) else p
            if not os.path.exists(os.path.join(os.path.dirname(cfg), p)):
                return "no %s (make fw data)" % os.path.normpath(os.path.join(os.path.dirname(cfg), p))
        return None
    return why

def ops_tiles(cfg):
    t = json.load(open(cfg)).get("tensors", {}).get("out")
    n = 1
    for d in (t or {}).get("shape", []):
        n *= d
    return n // 1024 if t else None

ops_dir = os.path.join("firmware-samples", "ops")
for f in sorted(os.listdir(ops_dir)) if os.path.isdir(ops_dir) else []:
    if f.endswith(".json") and not f.endswith(".golden.json"):
        cfg = os.path.join(ops_dir, f)
        WORKLOADS.append(("ops_" + f[:-5], "sample kernel ops/" + f, ops_missing(cfg),
                          (lambda c: lambda: ["--config", c])(cfg), (lambda c: lambda: ["--config", c])(cfg),
                          None, ops_tiles(cfg)))

def run(args, prefix=(), env=None):
    """One ttemu run: (report, wall seconds). Its peak RSS is measured apart (peak_rss)."""
    rep = os.path.join(tmp, "report.json")
    cmd = list(prefix) + [TTEMU, "run", "--quiet", "--report", rep] + args
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=dict(os.environ, **env) if env else None)
    _, status, _ = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):  # 2: --max-cycles, the shortened callgrind runs
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), code, err.strip()[:300]))
    with open(rep) as f:
        return json.load(f), wall

def peak_rss(args, env=None):
    """Peak RSS in KiB of ttemu alone: one more run under /usr/bin/time (Debian's `time`), which
    forks it from a small process. A child's ru_maxrss read by this script's own wait4 starts from
    this Python's high water (inherited at fork and kept across exec: a 100 MiB Python reports
    100 MiB more), so it is not used for the figure."""
    rep = os.path.join(tmp, "report.json")
    cmd = ["/usr/bin/time", "-f", "%M", TTEMU, "run", "--quiet", "--report", rep] + args
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, **env) if env else None)
    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    if not last.isdigit():
        raise RuntimeError("%s: no peak RSS from /usr/bin/time: %s" % (" ".join(cmd), p.stderr.strip()[:300]))
    return int(last)

def instret(r): return sum(c["instret"] for c in r["cores"])
def tensix(r): return sum(t.get("issued", 0) for t in r.get("threads", []))

def callgrind_ratio(args, env=None):
    """(host instructions per guest instruction, per tile cycle, why not)"""
    if not shutil.which("valgrind"):
        return None, None, "valgrind not installed"
    out = os.path.join(tmp, "callgrind.out")
    r, _ = run(args, ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out], env)
    ir = None
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                ir = int(line.split()[1])
    return (ir / instret(r) if ir and instret(r) else None), (ir / r["cycles"] if ir and r["cycles"] else None), None

only = sys.argv[1:]
rows = []
for name, what, missing, timed, short, *extra in WORKLOADS:
    env = extra[0] if extra else None
    tiles = extra[1] if len(extra) > 1 else None
    longer = extra[2] if len(extra) > 2 else None
    if only and name not in only:
        continue
    row = {"workload": name, "what": what}
    why = missing()
    if why:
        row["skipped"] = why
        rows.append(row)
        continue
    args = timed()
    walls = []
    for _ in range(RUNS):
        r, wall = run(args, env=env)
        walls.append(wall)
    rss = peak_rss(args, env)
    wall = statistics.median(walls)
    n = instret(r)
    if tiles:
        row["tiles"] = tiles
        row["tiles_per_s"] = tiles / wall
    if longer:  # the marginal rate: the same workload with more tiles
        largs, ltiles = longer()
        lwalls = []
        for _ in range(RUNS):
            _, lwall = run(largs, env=env)
            lwalls.append(lwall)
        rss = max(rss, peak_rss(largs, env))
        lw = statistics.median(lwalls)
        row["marginal"] = {"command": " ".join([TTEMU, "run", "--quiet"] + largs), "tiles": ltiles,
                           "wall_s": lw, "wall_s_all": lwalls}
        row["marginal_tiles_per_s"] = (ltiles - tiles) / (lw - wall) if lw > wall else None
    row.update({"command": " ".join(["%s=%s" % kv for kv in (env or {}).items()] + [TTEMU, "run", "--quiet"] + args), "runs": RUNS, "cycles": r["cycles"],
                "instructions": n, "tensix_instructions": tensix(r), "wall_s": wall, "wall_s_all": walls,
                "minstr_per_s": n / wall / 1e6, "mtensix_per_s": tensix(r) / wall / 1e6,
                "mcycles_per_s": r["cycles"] / wall / 1e6, "peak_rss_mib": rss / 1024.0})
    ratio, per_cycle, why = callgrind_ratio(short(), env)
    row["host_instr_per_guest_instr"] = ratio
    row["host_instr_per_tile_cycle"] = per_cycle
    if why:
        row["callgrind"] = why
    rows.append(row)

ref = os.environ.get("TTEMU_REFERENCE", "")
path = "reference" if ref not in ("", "0") else "fast, no idle fast-forward" if os.environ.get("TTEMU_SPIN") == "0" else "fast"
# What was measured: the build's knobs as its config.stamp records them (Makefile), the profile
# feedback's among them (PGO, and whether its training saw the tt-metal programs).
stamp = {}
try:
    for line in open(os.path.join(BUILD, "config.stamp")):
        k, _, v = line.rstrip("\n").partition("=")
        stamp[k] = v
except OSError:
    pass
build = {"cflags": stamp.get("CFLAGS"), "pgo": stamp.get("PGO") == "1",
         "pgo_tt_metal": stamp.get("PGO_TT_METAL") == "1", "pgo_train": stamp.get("PGO_TRAIN", "").split(),
         "lto": stamp.get("LTO") == "1"}
pgo = ("PGO trained %s the tt-metal programs%s" % ("with" if build["pgo_tt_metal"] else "without",
       " and PGO_TRAIN" if build["pgo_train"] else "")) if build["pgo"] else "no PGO"
print("ttemu bench (%s path, median of %d runs; build %s, %s, %s)" % (path, RUNS, build["cflags"], pgo,
      "LTO" if build["lto"] else "no LTO"))
hdr = "%-16s %12s %9s %8s %8s %9s %8s %9s %9s %8s %8s %7s" % (
    "workload", "instructions", "tensix", "wall s", "Minstr/s", "Mtensix/s", "Mcyc/s", "tiles/s", "marginal",
    "host/ins", "host/cyc", "RSS MiB")
print(hdr)
print("-" * len(hdr))
for row in rows:
    if "skipped" in row:
        print("%-10s skipped: %s" % (row["workload"], row["skipped"]))
        continue
    ratio, per_cycle = row["host_instr_per_guest_instr"], row["host_instr_per_tile_cycle"]
    tps, mtps = row.get("tiles_per_s"), row.get("marginal_tiles_per_s")
    print("%-16s %12d %9d %8.3f %8.1f %9.2f %8.2f %9s %9s %8s %8s %7.1f" % (row["workload"], row["instructions"],
          row["tensix_instructions"], row["wall_s"], row["minstr_per_s"], row["mtensix_per_s"], row["mcycles_per_s"],
          "%.0f" % tps if tps else "-", "%.0f" % mtps if mtps else "-", "%.1f" % ratio if ratio else "-",
          "%.0f" % per_cycle if per_cycle else "-", row["peak_rss_mib"]))
out = {"version": 1, "path": path, "runs": RUNS, "build": build, "workloads": rows}
path = os.path.join(BUILD, "bench.json")
with open(path, "w") as f:
    json.dump(out, f, indent=2)
print("json: %s" % path)
print(json.dumps(out))
shutil.rmtree(tmp, ignore_errors=True)
PY
