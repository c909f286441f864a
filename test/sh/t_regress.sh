# `ttemu regress` (docs/regression.md) over the firmware samples: this is how `make test` runs
# the regression. Every sample matches its golden (NAME.golden.json beside its config); a
# directory is searched recursively, and `ttemu regress firmware-samples` runs the samples and
# the tt-metal configs (skipped, saying why, without ../shared); --jobs does not change the
# outcome; --update round-trips; a copy of a sample with one semaphore count changed fails,
# naming the key; the JUnit XML is well-formed and carries the diff; bad input exits 4.
. test/sh/lib.sh
SAMPLES=firmware-samples/regress
configs() { ls "$1"/*.json | grep -v '\.golden\.json$'; } # the run configs of a directory

# The regression itself.
run_ttemu regress "$SAMPLES" --jobs 2 --junit "$TMP/all.xml"
n=$(configs "$SAMPLES" | wc -l)
expect_exit "regress: every sample matches its golden (exit 0)" 0
expect_out "regress: closing line counts every sample" "^$n passed, 0 failed$"
expect_out "regress: table has a row per sample" "^pipeline +pass +0 halted"

# Each sample has a golden beside it and each golden a sample.
missing=""
for c in $(configs "$SAMPLES"); do [ -f "${c%.json}.golden.json" ] || missing="$missing $(basename "$c")"; done
for g in "$SAMPLES"/*.golden.json; do [ -f "${g%.golden.json}.json" ] || missing="$missing golden:$(basename "$g")"; done
if [ -z "$missing" ]; then ok "every sample has a golden, every golden a sample"; else nok "samples without golden" "$missing"; fi

# A new user's first guess: the whole samples directory, searched recursively. Cases are named by
# their path below it, in sorted order; the tt-metal configs (configs/) are cases when the
# firmware corpus is there, and skipped with the reason when it is not.
ttm=$(configs firmware-samples/configs | wc -l)
# Every other config below firmware-samples (regress/, ops/, ...) runs without the corpus.
nbare=$(( $(find firmware-samples -name '*.json' ! -name '*.golden.json' | wc -l) - ttm ))
run_ttemu regress firmware-samples --jobs 2 --junit "$TMP/fs.xml"
expect_exit "regress firmware-samples: passes (exit 0)" 0
expect_out "regress firmware-samples: cases named by their path" "^regress/pipeline +pass +0 halted"
rows=$(sed -n '2,$p' <<<"$OUT" | grep -E '^[a-z]' | awk '{print $1}')
want=$(cd firmware-samples && find . -name '*.json' ! -name '*.golden.json' | sed 's|^\./||; s|\.json$||' | LC_ALL=C sort)
if [ "$rows" = "$want" ]; then ok "regress firmware-samples: every config below it, in sorted order"; else
    nok "regress firmware-samples: every config below it, in sorted order" "got: $(echo $rows)" "want: $(echo $want)"; fi
# (The configs name ../../../shared: the ../shared beside the checkout, whatever $SHARED says.)
if [ -d ../shared/firmware/blackhole-p100a ]; then
    expect_out "regress firmware-samples: samples and tt-metal configs pass" "^$((nbare + ttm)) passed, 0 failed$"
    expect_out "regress firmware-samples: add1 completes" "^configs/add1-compute +pass +0 completed"
else
    expect_out "regress firmware-samples: the tt-metal configs are skipped" "^$nbare passed, 0 failed, $ttm skipped$"
    expect_out "regress firmware-samples: the skip says why" "^    needs the tt-metal firmware .* \(not found\)$"
fi
# Without the corpus (copies of the configs where their ../../../shared is not): skipped, saying why.
mkdir -p "$TMP/w/x/configs"
cp firmware-samples/configs/*.json "$TMP/w/x/configs/"
run_ttemu regress "$TMP/w" --junit "$TMP/skip.xml"
expect_exit "tt-metal configs without their firmware: skipped, not failed (exit 0)" 0
expect_out "without their firmware: the closing line counts them" "^0 passed, 0 failed, $ttm skipped$"
expect_out "without their firmware: a skip row per config" "^x/configs/add1-compute +skip +- "
expect_out "without their firmware: the reason names it" \
    "^    needs the tt-metal firmware $TMP/w/x/configs/../../../shared/firmware/blackhole-p100a \(not found\)$"
check "without their firmware: JUnit marks them skipped" python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("skipped") == sys.argv[2] and s.get("failures") == "0", s.attrib
sk = [c.find("skipped") for c in s.findall("testcase")]
assert all(x is not None and "needs the tt-metal firmware" in x.get("message") for x in sk), sk
' "$TMP/skip.xml" "$ttm"
# --golden DIR with a recursive search: DIR/PATH.json, subdirectories created by --update.
run_ttemu regress firmware-samples --golden "$TMP/gr" --update
expect_exit "--golden DIR --update over firmware-samples (exit 0)" 0
check "--golden DIR: goldens named by the case's path" cmp "$TMP/gr/regress/boot.json" "$SAMPLES/boot.golden.json"
mkdir -p "$TMP/empty/sub"
run_ttemu regress "$TMP/empty"
expect_exit "a directory without configs: exit 4" 4
expect_out "a directory without configs: says so" "no run configs \(\*\.json\) in this directory or below"

# --reports keeps each case's full report, the same as a plain run's.
run_ttemu regress "$SAMPLES/pipeline.json" --reports "$TMP/reports"
"$TTEMU" run --config "$SAMPLES/pipeline.json" --quiet --report "$TMP/pipeline-run.json"
check "--reports keeps the run's report" cmp "$TMP/reports/pipeline.json" "$TMP/pipeline-run.json"

# --jobs 1 and --jobs 2 give the same table (wall times aside).
strip_wall() { sed -E 's/ +[0-9]+$//' <<<"$1"; }
run_ttemu regress "$SAMPLES" --jobs 1
j1=$(strip_wall "$OUT")
run_ttemu regress "$SAMPLES" --jobs 2
j2=$(strip_wall "$OUT")
if [ "$j1" = "$j2" ] && [ -n "$j1" ]; then ok "--jobs 1 and --jobs 2 agree"; else nok "--jobs 1 and --jobs 2 agree" "$(diff <(echo "$j1") <(echo "$j2"))"; fi

# --update into an empty directory writes the same goldens, which then pass.
run_ttemu regress "$SAMPLES" --golden "$TMP/golden" --update
expect_exit "--update: exit 0" 0
expect_out "--update: writes every golden" "^$n passed, 0 failed \($n goldens written to $TMP/golden\)$"
differ=""
for c in $(configs "$SAMPLES"); do
    b=$(basename "$c" .json)
    cmp -s "$TMP/golden/$b.json" "$SAMPLES/$b.golden.json" || differ="$differ $b"
done
for g in "$SAMPLES"/*.npy; do # tensor goldens: GOLDEN/NAME.TENSOR.npy
    cmp -s "$TMP/golden/$(basename "$g")" "$g" || differ="$differ $(basename "$g")"
done
if [ -z "$differ" ] && [ "$(ls "$TMP/golden"/*.json | wc -l)" -eq "$n" ]; then ok "--update: goldens equal the committed ones"; else
    nok "--update: goldens equal the committed ones" "differ:$differ" "$(ls "$TMP/golden")"; fi
run_ttemu regress "$SAMPLES" --golden "$TMP/golden"
expect_exit "--update round-trips (exit 0)" 0
run_ttemu regress "$SAMPLES" --golden "$TMP/golden" --update
expect_out "--update again: nothing to write" "\(0 goldens written"

# A deliberately altered copy: copy the sample's group to $TMP/NAME, change one semaphore count
# in one file, build every program of the group from the copy (make fw-one: the samples' flags),
# and run the sample's config, repointed at the copies, against the committed golden (copied
# beside it).
# altered NAME GROUP FILE SED KEY_REGEX
altered() {
    local name=$1 group=$2 file=$3 expr=$4 key=$5 d="$TMP/alt-$1"
    mkdir -p "$d/src" "$d/plain" "$d/cfg-plain" "$d/cfg-alt"
    cp firmware-samples/"$group"/* "$d/src/"
    cp -r "$d/src" "$d/alt"
    sed -i -E "$expr" "$d/alt/$file"
    if cmp -s "$d/src/$file" "$d/alt/$file"; then nok "altered $name: the edit '$expr' changed nothing in $file"; return; fi
    local ok_build=1
    for v in src alt; do
        for s in "$d/$v"/*.c; do
            make --no-print-directory -s fw-one SRC="$s" OUT="${s%.c}.elf" >"$d/build.log" 2>&1 || ok_build=0
        done
    done
    if [ $ok_build = 0 ]; then nok "altered $name: copies build" "$(cat "$d/build.log")"; return; fi
    # The config, with each ELF path pointing at the copy (same name: same golden).
    for v in src alt; do
        local out="$d/cfg-plain"; [ $v = alt ] && out="$d/cfg-alt"
        python3 - "$SAMPLES/$name.json" "$d/$v" "$out/$name.json" <<'EOF'
import json, os, sys
cfg = json.load(open(sys.argv[1]))
for core, path in cfg["cores"].items():
    cfg["cores"][core] = os.path.join(sys.argv[2], os.path.basename(path))
# Tensor files: inputs and expectations stay where the sample has them, outputs go to the copy.
here = os.path.dirname(os.path.abspath(sys.argv[1]))
for key in ("inputs", "expect", "outputs"):
    for name, path in cfg.get(key, {}).items():
        cfg[key][name] = (os.path.join(sys.argv[2], os.path.basename(path)) if key == "outputs"
                          else os.path.normpath(os.path.join(here, path)))
json.dump(cfg, open(sys.argv[3], "w"), indent=2)
EOF
        cp "$SAMPLES/$name.golden.json" "$out/"
        for g in "$SAMPLES/$name".*.npy; do [ -e "$g" ] && cp "$g" "$out/"; done # tensor goldens
    done
    run_ttemu regress "$d/cfg-plain/$name.json"
    expect_exit "altered $name: the unaltered copy passes (exit 0)" 0
    run_ttemu regress "$d/cfg-alt/$name.json" --junit "$d/alt.xml"
    expect_exit "altered $name ($file: $expr): regression fails (exit 1)" 1
    expect_out "altered $name: the diff names $key" "^    $key"
    expect_out "altered $name: closing line" "^0 passed, 1 failed$"
}
altered boot boot boot_brisc.c 's/^#define PACK_DONE_START +2$/#define PACK_DONE_START 3/' \
    'semaphores\[4\]\.value: golden 2, got 3'
altered pipeline pipeline pipeline.h 's/^#define MATH_PACK_MAX 2$/#define MATH_PACK_MAX 1/' \
    'semaphores\[1\]\.max: golden 2, got 1'
altered mutex_rmw mutex mutex_trisc2.c 's/TT_OP_SEMINIT\(2, 0, T6_SEM\(SEM_RMW_DONE\)\)/TT_OP_SEMINIT(3, 0, T6_SEM(SEM_RMW_DONE))/' \
    'semaphores\[7\]\.max: golden 2, got 3'
altered pcbuf_handshake pcbuf pcbuf_trisc0.c 's/^#define UNPACK_CONTEXTS +2 /#define UNPACK_CONTEXTS 3 /' \
    'semaphores\[5\]\.max: golden 2, got 3'
altered softsem softsem softsem.h 's/^#define SLOTS 4 /#define SLOTS 3 /' \
    'peek\.0x00009000\[3\]: golden 4, got 3'
altered tensors tensors tensors_brisc.c 's/\) \+ 1;$/) + 2;/' \
    'tensors\.a_plus_1: 2048 of 2048 elements differ from the golden'
altered mop_replay mopreplay mopreplay_trisc2.c 's/^#define REPLAYS +9$/#define REPLAYS 8/' \
    'semaphores\[3\]\.value: golden 10, got 9'
altered demo demo trisc2.c 's/i < 3; i\+\+\)$/i < 2; i++)/' \
    'semaphores\[3\]\.value: golden 3, got 2'
altered broken_missing_sempost broken missing_sempost_trisc1.c 's/TT_OP_SEMINIT\(1, 0,/TT_OP_SEMINIT(2, 0,/' \
    'semaphores\[1\]\.max: golden 1, got 2'
altered broken_wrong_instrn_buf broken wrong_instrn_buf_trisc1.c 's/TT_OP_SEMINIT\(1, 0,/TT_OP_SEMINIT(3, 0,/' \
    'semaphores\[1\]\.max: golden 1, got 3'
altered broken_ring broken ring_trisc2.c 's/TT_OP_SEMINIT\(1, 0,/TT_OP_SEMINIT(2, 0,/' \
    'semaphores\[1\]\.max: golden 1, got 2'
# The gate-policy samples (docs/gate-policies.md): one tile fewer is one SEMPOST of each semaphore
# fewer — the consumer counts 7, and under whole-thread the deadlocked consumer has pushed 35
# words (5 a tile), not 40; the overlap sample's last SETDMAREG value shows in its peek.
altered policy_request policy request.h 's/^#define NUM_TILES 8$/#define NUM_TILES 7/' \
    'peek\.0x00009000\[0\]: golden 8, got 7'
altered policy_request_whole_thread policy request.h 's/^#define NUM_TILES 8$/#define NUM_TILES 7/' \
    'threads\[1\]\.pushed: golden 40, got 35'
altered policy_overlap policy overlap_trisc0.c 's/0x8888\);$/0x8889);/' \
    'peek\.0x00009000\[3\]: golden 2290644855, got 2290710391'
# Not semaphore counts, but the same gate: the mutex index, the software semaphore's flag.
altered broken_bad_atgetm broken bad_atgetm_trisc0.c 's/TT_OP_ATGETM\(1\)/TT_OP_ATGETM(0)/' \
    'mutexes\.0: golden null, got 0'
altered broken_soft_sem_spin broken soft_sem_spin_brisc.c 's/^#define FLAG 0x9000u$/#define FLAG 0x9004u/' \
    'exit\.code: golden 1, got 0'
# Not a semaphore count, but the same gate: the leaked mutex's index.
altered broken_mutex_leak broken mutex_leak_trisc0.c 's/TT_OP_ATGETM\(2\)/TT_OP_ATGETM(3)/' \
    'mutexes\.3: golden null, got 0'

# JUnit: every sample once, the altered pipeline among them failing with its diff.
{ for c in $(configs "$SAMPLES"); do [ "$(basename "$c")" = pipeline.json ] || echo "$PWD/$c"; done
  echo "# the altered copy"; echo "$TMP/alt-pipeline/cfg-alt/pipeline.json"; } >"$TMP/list"
run_ttemu regress "$TMP/list" --junit "$TMP/mixed.xml" --jobs 2
expect_exit "list with one altered sample: exit 1" 1
expect_out "list: closing line" "^$((n - 1)) passed, 1 failed$"
junit_check() { # FILE TESTS FAILURES [FAILED_NAME DIFF_TEXT]
    python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
path, tests, failures = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
root = ET.parse(path).getroot()          # raises on XML that is not well-formed
assert root.tag == "testsuites", root.tag
assert int(root.get("tests")) == tests and int(root.get("failures")) == failures, root.attrib
suites = root.findall("testsuite")
assert len(suites) == 1, len(suites)
s = suites[0]
assert int(s.get("tests")) == tests and int(s.get("failures")) == failures, s.attrib
cases = s.findall("testcase")
names = [c.get("name") for c in cases]
assert len(cases) == tests and len(set(names)) == tests, names
for c in cases:
    assert c.get("classname") and float(c.get("time")) >= 0, c.attrib
failed = [c for c in cases if c.find("failure") is not None]
assert len(failed) == failures, [c.get("name") for c in failed]
if len(sys.argv) > 4:
    f = failed[0]
    assert f.get("name") == sys.argv[4], f.get("name")
    fail = f.find("failure")
    assert sys.argv[5] in fail.text and sys.argv[5] in fail.get("message"), (fail.text, fail.get("message"))
EOF
}
check "JUnit of the full run: well-formed, one testcase per sample, no failure" junit_check "$TMP/all.xml" "$n" 0
check "JUnit with the altered sample: its failure carries the diff" \
    junit_check "$TMP/mixed.xml" "$n" 1 pipeline "semaphores[1].max: golden 2, got 1"

# Failures that are not differences, and bad input.
mkdir -p "$TMP/nogold"
run_ttemu regress "$SAMPLES/demo.json" --golden "$TMP/nogold" --junit "$TMP/nogold.xml"
expect_exit "missing golden: a failure (exit 1)" 1
expect_out "missing golden: says so" "no golden $TMP/nogold/demo.json \(run .ttemu regress --update. to create it\)"
check "missing golden: JUnit failure says so" junit_check "$TMP/nogold.xml" 1 1 demo "no golden"
printf '{"version": 1, "cores": {"brisc": "no-such.elf"}}\n' >"$TMP/noelf.json"
run_ttemu regress "$TMP/noelf.json"
expect_exit "a config that cannot run: a failure (exit 1)" 1
expect_out "a config that cannot run: the run's error is shown" "noelf.*left no report \(exit 4\): ttemu: .*no-such.elf"
run_ttemu regress "$TMP/does-not-exist"
expect_exit "missing directory: exit 4" 4
expect_out "missing directory: named" "does-not-exist"
run_ttemu regress "$SAMPLES" --golden "$TMP/no-golden-dir"
expect_exit "missing golden directory: exit 4" 4
run_ttemu regress "$SAMPLES" --jobs 0
expect_exit "--jobs 0: exit 4" 4
run_ttemu regress "$SAMPLES" "$SAMPLES/demo.json"
expect_exit "two cases of one name: exit 4" 4
expect_out "two cases of one name: named" "two cases are named 'demo'"
printf '# nothing\n\n' >"$TMP/empty.list"
run_ttemu regress "$TMP/empty.list"
expect_exit "empty list: exit 4" 4
printf 'demo.json\nnot-there.json\n' >"$TMP/bad.list"
cp "$SAMPLES/demo.json" "$TMP/demo.json"
run_ttemu regress "$TMP/bad.list"
expect_exit "list naming a missing config: exit 4" 4
expect_out "list naming a missing config: file and line" "bad.list:2: no such run config"
run_ttemu regress
expect_exit "no arguments: exit 4" 4
run_ttemu regress "$SAMPLES" --bogus
expect_exit "unknown option: exit 4" 4

# tt-metal run configs go through regress too (not in the default sample set: they need ../shared).
if [ -d "$SHARED/firmware/blackhole-p100a" ]; then
    run_ttemu regress firmware-samples/configs --golden "$TMP/ttm" --update
    expect_exit "tt-metal configs: --update" 0
    run_ttemu regress firmware-samples/configs --golden "$TMP/ttm" --jobs 2
    expect_exit "tt-metal configs: match their fresh goldens" 0
    expect_out "tt-metal configs: add1 completes" "^add1-compute +pass +0 completed"
else
    skip "tt-metal configs through regress" "no $SHARED/firmware"
fi
