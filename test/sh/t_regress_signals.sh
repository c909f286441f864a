# `ttemu regress` interrupted or slow (issue 20, item 3): SIGINT/SIGTERM are forwarded to the
# running cases, every child is reaped, the temporary directory removed, the unfinished cases
# reported (STOPPED, NOT RUN), and the command ends by that signal (exit 130/143); --timeout
# kills a case that runs too long and reports it as TIMEOUT (table and JUnit).
. test/sh/lib.sh
P=$FW/progs
mkdir -p "$TMP/cases" "$TMP/gold" "$TMP/rtmp"
ELF=$(cd "$P" && pwd)/storeloop_brisc.elf
# A case that takes minutes: a loop that stores every cycle (no idle fast-forward), 4e9 cycles.
slow() { printf '{"version": 1, "cores": {"brisc": "%s"}, "max_cycles": 4000000000}\n' "$ELF" >"$TMP/cases/$1.json"; }
cp firmware-samples/regress/boot.json "$TMP/boot.json"
sed "s|\.\./\.\./build/fw|$(cd "$FW" && pwd)|" "$TMP/boot.json" >"$TMP/cases/aboot.json"
TTEMU_ABS=$(cd "$(dirname "$TTEMU")" && pwd)/$(basename "$TTEMU")
"$TTEMU" regress "$TMP/cases" --golden "$TMP/gold" --update >/dev/null 2>&1
slow slow1

# ---- --timeout -----------------------------------------------------------------------------
start=$(date +%s)
run_ttemu regress "$TMP/cases" --golden "$TMP/gold" --timeout 1 --junit "$TMP/t.xml"
took=$(($(date +%s) - start))
expect_exit "--timeout: a case past it fails the run (exit 1)" 1
expect_out "--timeout: TIMEOUT in the table" "slow1 +TIMEOUT"
expect_out "--timeout: why" "ran longer than --timeout 1 s: killed"
expect_out "--timeout: the other case passes" "aboot +pass"
[ "$took" -lt 20 ] && ok "--timeout: the slow case was killed ($took s)" || nok "--timeout: the slow case was killed" "took $took s"
check "--timeout: JUnit failure of type timeout" python3 -c "
import sys, xml.etree.ElementTree as ET
cs = {c.get('name'): c for c in ET.parse(sys.argv[1]).getroot().iter('testcase')}
f = cs['slow1'].find('failure')
assert f is not None and f.get('type') == 'timeout', f
assert cs['aboot'].find('failure') is None
" "$TMP/t.xml"
run_ttemu regress "$TMP/cases" --golden "$TMP/gold" --timeout 0
expect_exit "--timeout 0 is bad input (exit 4)" 4

# ---- SIGTERM and SIGINT ----------------------------------------------------------------------
slow slow2; slow slow3; slow slow4
# interrupt SIGNAL: runs regress with --jobs 2 (two slow cases running, two waiting), sends
# SIGNAL after a moment, and leaves its exit status, output and leftovers in $TMP/sig.*.
interrupt() {
    rm -rf "$TMP/rtmp"; mkdir -p "$TMP/rtmp"
    python3 - "$1" "$TTEMU_ABS" "$TMP" <<'PY' >"$TMP/sig.out" 2>&1
import os, signal, subprocess, sys, time
sig, ttemu, tmp = getattr(signal, sys.argv[1]), sys.argv[2], sys.argv[3]
env = dict(os.environ, TMPDIR=tmp + "/rtmp")
p = subprocess.Popen([ttemu, "regress", tmp + "/cases", "--golden", tmp + "/gold", "--jobs", "2", "--junit", tmp + "/sig.xml"],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(1.5)
p.send_signal(sig)
out, _ = p.communicate(timeout=60)
sys.stdout.write(out.decode("utf-8", "replace"))
print("STATUS", p.returncode)
PY
}
for s in SIGTERM SIGINT; do
    interrupt $s
    OUT=$(cat "$TMP/sig.out")
    n=$([ $s = SIGTERM ] && echo 15 || echo 2)
    expect_out "$s: regress ends by the signal (status -$n: exit $((128 + n)) in a shell)" "^STATUS -$n$"
    expect_out "$s: the unfinished cases are named" "interrupted by $s: 4 cases did not finish"
    expect_out "$s: running cases STOPPED" "slow1 +STOPPED"
    expect_out "$s: waiting cases NOT RUN" "slow4 +NOT RUN"
    expect_out "$s: the finished case still judged" "aboot +pass"
    left=$(pgrep -f "$TMP/cases/slow" | wc -l)
    [ "$left" -eq 0 ] && ok "$s: no child left running" || nok "$s: no child left running" "$left left"
    [ -z "$(ls -A "$TMP/rtmp")" ] && ok "$s: temporary directory removed" || nok "$s: temporary directory removed" "$(ls -R "$TMP/rtmp")"
    check "$s: JUnit written, unfinished cases failed as interrupted/not_run" python3 -c "
import sys, xml.etree.ElementTree as ET
cs = {c.get('name'): c for c in ET.parse(sys.argv[1]).getroot().iter('testcase')}
types = sorted(cs[n].find('failure').get('type') for n in ('slow1', 'slow2', 'slow3', 'slow4'))
assert types == ['interrupted', 'interrupted', 'not_run', 'not_run'], types
" "$TMP/sig.xml"
done
# Should a check above have failed, leave no slow case behind (they run from this test's own
# temporary directory, so the pattern matches nothing else).
for p in $(pgrep -f "$TMP/cases/slow"); do kill -KILL "$p" 2>/dev/null; done
exit 0
