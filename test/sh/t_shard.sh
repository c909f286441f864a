# `ttemu regress --shard K/N` and `--merge-junit` (docs/regression.md, "Sharding"; docs/ci.md):
# for N = 1..5 the shards of the samples are disjoint and together the whole suite, by name and
# balanced by a timing file alike; merging the shards' JUnit gives the unsharded run's cases and
# verdicts; bad input exits 4.
. test/sh/lib.sh
S=firmware-samples

# cases FILE: "name verdict" per testcase of a JUnit file, sorted (verdict: pass, failure, skipped).
cases() {
    python3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
rows = []
for tc in root.iter("testcase"):
    v = "failure" if tc.find("failure") is not None else "skipped" if tc.find("skipped") is not None else "pass"
    rows.append("%s %s" % (tc.get("name"), v))
print("\n".join(sorted(rows)))
EOF
}

# The whole suite, unsharded: the reference.
run_ttemu regress $S --jobs 2 --junit "$TMP/all.xml"
expect_exit "unsharded regression passes" 0
cases "$TMP/all.xml" >"$TMP/all.txt"
total=$(wc -l <"$TMP/all.txt")
if [ "$total" -ge 19 ]; then ok "the suite has its $total cases"; else nok "the suite has at least 19 cases" "$total"; fi

# shards N TAG [--shard-timing FILE]: run every shard K/N, check each's JUnit, the partition and the merge.
shards() {
    local n=$1 tag=$2; shift 2
    local k files=()
    : >"$TMP/union.txt"
    for k in $(seq 1 "$n"); do
        run_ttemu regress $S --jobs 2 --shard "$k/$n" --junit "$TMP/$tag-$k.xml" "$@"
        if [ "$RC" -ne 0 ]; then nok "$tag: shard $k/$n passes" "exit $RC" "$OUT"; return; fi
        local m
        m=$(grep -cE '^[^ ]+/[^ ]+ +(pass|FAIL|skip|updated|TIMEOUT|STOPPED|NOT RUN) ' <<<"$OUT") # a row per case
        if ! grep -qE "^shard $k/$n: $m of $total cases " <<<"$OUT"; then
            nok "$tag: shard $k/$n says how many of the cases it runs" "$(head -1 <<<"$OUT")"; return
        fi
        cases "$TMP/$tag-$k.xml" >>"$TMP/union.txt"
        files+=("$TMP/$tag-$k.xml")
    done
    local dup
    dup=$(awk '{print $1}' "$TMP/union.txt" | sort | uniq -d)
    if [ -z "$dup" ]; then ok "$tag, N=$n: the shards are disjoint"; else nok "$tag, N=$n: disjoint" "in two shards: $dup"; fi
    if [ "$(sort "$TMP/union.txt")" = "$(cat "$TMP/all.txt")" ]; then ok "$tag, N=$n: the union is the suite, same verdicts"
    else nok "$tag, N=$n: the union is the suite" "$(diff <(sort "$TMP/union.txt") "$TMP/all.txt")"; fi
    run_ttemu regress --merge-junit "$TMP/$tag-merged.xml" "${files[@]}"
    expect_exit "$tag, N=$n: merge passes (exit 0)" 0
    expect_out "$tag, N=$n: merge closes with the totals" "^$(grep -c ' pass$' "$TMP/all.txt") passed, 0 failed"
    if [ "$(cases "$TMP/$tag-merged.xml")" = "$(cat "$TMP/all.txt")" ]; then ok "$tag, N=$n: merged JUnit = the unsharded run's"
    else nok "$tag, N=$n: merged JUnit = the unsharded run's" "$(diff <(cases "$TMP/$tag-merged.xml") "$TMP/all.txt")"; fi
}
for n in 1 2 3 4 5; do shards $n hash; done
for n in 2 5; do shards $n timed --shard-timing "$TMP/all.xml"; done

# The hash partition, recomputed here from docs/regression.md's definition (FNV-1a 32 of the case
# name, mod N, + 1), is the one ttemu used for N = 3.
python3 - "$TMP" <<'EOF' >"$TMP/py3.txt"
import sys, xml.etree.ElementTree as ET
def fnv1a(s):
    h = 2166136261
    for b in s.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h
for tc in ET.parse(sys.argv[1] + "/all.xml").getroot().iter("testcase"):
    print(tc.get("name"), fnv1a(tc.get("name")) % 3 + 1)
EOF
mism=""
for n3 in 1 2 3; do run_ttemu regress $S --jobs 2 --shard $n3/3 --junit "$TMP/h3-$n3.xml"; done
while read -r name k; do
    python3 -c "import sys,xml.etree.ElementTree as ET; sys.exit(0 if any(t.get('name')==sys.argv[2] for t in ET.parse(sys.argv[1]).getroot().iter('testcase')) else 1)" \
        "$TMP/h3-$k.xml" "$name" || mism="$mism $name->$k"
done <"$TMP/py3.txt"
if [ -z "$mism" ]; then ok "N=3: each case is in shard FNV-1a(name) mod 3 + 1"; else nok "N=3: shards by FNV-1a" "$mism"; fi

# The shard's JUnit names the shard; the merged one names the regression.
check "a shard's JUnit suite says which shard" python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("name") == "ttemu regress (shard 2/3)", s.get("name")' "$TMP/h3-2.xml"
check "the merged JUnit's totals" python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot(); s = r.find("testsuite")
n = len(list(s.iter("testcase")))
assert r.get("tests") == s.get("tests") == str(n) == sys.argv[2], (r.attrib, n)
assert s.get("name") == "ttemu regress" and s.get("failures") == "0"
assert abs(float(s.get("time")) - sum(float(ET.parse(f).getroot().find("testsuite").get("time")) for f in sys.argv[3:])) < 0.002
' "$TMP/hash-merged.xml" "$total" "$TMP"/hash-1.xml "$TMP"/hash-2.xml "$TMP"/hash-3.xml "$TMP"/hash-4.xml "$TMP"/hash-5.xml

# A failing case in a shard fails the merge (exit 1), its failure kept whole.
cat >"$TMP/fail.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="ttemu regress" tests="2" failures="1" errors="0" time="1.5">
 <testsuite name="ttemu regress (shard 9/9)" tests="2" failures="1" errors="0" skipped="0" time="1.5">
  <testcase name="zz/broken" classname="ttemu.regress" file="x.json" time="1.0">
   <failure message="1 key differs" type="golden_mismatch">exit.code: golden 0, got 1
</failure>
   <system-err>ttemu: deadlock &amp; more</system-err>
  </testcase>
  <testcase name="zz/skipped" classname="ttemu.regress" file="y.json" time="0.5"><skipped message="no firmware"/></testcase>
 </testsuite>
</testsuites>
EOF
run_ttemu regress --merge-junit "$TMP/mf.xml" "$TMP/hash-1.xml" "$TMP/fail.xml"
expect_exit "merge with a failed case: exit 1" 1
expect_out "merge with a failed case: the closing line counts it" "^[0-9]+ passed, 1 failed, 1 skipped$"
check "merge keeps the failure, its text and output" python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "1" and s.get("skipped") == "1", s.attrib
tc = [t for t in s.iter("testcase") if t.get("name") == "zz/broken"][0]
f = tc.find("failure")
assert f.get("type") == "golden_mismatch" and f.text == "exit.code: golden 0, got 1\n", f.text
assert tc.find("system-err").text == "ttemu: deadlock & more"
names = [t.get("name") for t in s.iter("testcase")]
assert names == sorted(names), names' "$TMP/mf.xml"

# Bad input: exit 4, naming the problem.
run_ttemu regress --merge-junit "$TMP/m.xml" "$TMP/hash-1.xml" "$TMP/hash-1.xml"
expect_exit "the same shard merged twice: exit 4" 4
expect_out "the same shard merged twice: says which case" "is in both .*hash-1.xml and .*hash-1.xml"
echo '<report/>' >"$TMP/notjunit.xml"
run_ttemu regress --merge-junit "$TMP/m.xml" "$TMP/notjunit.xml"
expect_exit "not JUnit: exit 4" 4
expect_out "not JUnit: says so" "notjunit.xml: not JUnit XML"
printf '<testsuite><testcase name="a">' >"$TMP/cut.xml"
run_ttemu regress --merge-junit "$TMP/m.xml" "$TMP/cut.xml"
expect_exit "truncated XML: exit 4" 4
expect_out "truncated XML: names the file and line" "cut.xml: line [0-9]+: not well-formed XML"
run_ttemu regress --merge-junit "$TMP/m.xml"
expect_exit "--merge-junit without inputs: exit 4" 4
run_ttemu regress --merge-junit "$TMP/m.xml" "$TMP/missing.xml"
expect_exit "--merge-junit of a missing file: exit 4" 4
run_ttemu regress --merge-junit "$TMP/m.xml" "$TMP/hash-1.xml" --jobs 2
expect_exit "--merge-junit with a run option: exit 4" 4
run_ttemu regress --merge-junit "$TMP/nodir/m.xml" "$TMP/hash-1.xml"
expect_exit "--merge-junit to an unwritable path: exit 4" 4
for bad in 0/3 4/3 3 /3 3/ a/b 1/4097 -1/2; do
    run_ttemu regress $S --shard "$bad"
    expect_exit "--shard $bad: exit 4" 4
done
run_ttemu regress $S --shard-timing "$TMP/all.xml"
expect_exit "--shard-timing without --shard: exit 4" 4
run_ttemu regress $S --shard 1/2 --shard-timing "$TMP/notjunit.xml"
expect_exit "--shard-timing of a file that is not JUnit: exit 4" 4
# An empty shard (more shards than cases) is no error: nothing to run, nothing failed, an empty JUnit.
seen=""
for k in 1 2; do
    run_ttemu regress $S/regress/boot.json --shard $k/2 --junit "$TMP/one-$k.xml"
    if [ "$RC" -ne 0 ]; then nok "a one-case suite in two shards: shard $k/2 exits 0" "exit $RC" "$OUT"; fi
    seen="$seen$(grep -oE '^shard [0-9]/2: [01] of 1 ' <<<"$OUT" | awk '{print $3}')"
done
if [ "$seen" = "01" ] || [ "$seen" = "10" ]; then ok "a one-case suite in two shards: one runs it, the other is empty"
else nok "a one-case suite in two shards: one runs it, the other is empty" "cases per shard: $seen"; fi
check "the empty shard's JUnit has no testcase" python3 -c '
import sys, xml.etree.ElementTree as ET
counts = sorted(ET.parse(f).getroot().get("tests") for f in sys.argv[1:])
assert counts == ["0", "1"], counts' "$TMP/one-1.xml" "$TMP/one-2.xml"
