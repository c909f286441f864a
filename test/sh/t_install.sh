# `make install` / `make uninstall` (Makefile, "installing"): the build under test installed into
# a scratch DESTDIR under a PREFIX runs from there: its plugins are found in ../lib/ttemu/
# relative to the executable's real path (--ui-screenshot, regress --junit), the man page renders
# and names every flag and exit code of docs/cli.md, and uninstall leaves no file behind.
. test/sh/lib.sh

# make install builds `all` first: it must find the build under test already built with the same
# knobs, or it would rebuild it with others (make check passes its knobs on through MAKEFLAGS; a
# hand-run test/run.sh on a build with other knobs skips).
mk() { make --no-print-directory -s BUILD="$BUILD" "$@"; }
want=$(mk config 2>/dev/null) # (stderr: make may warn about the jobserver)
if [ "$want" != "$(cat "$BUILD/config.stamp" 2>/dev/null)" ]; then
    skip "make install" "$BUILD was built with other knobs than \`make BUILD=$BUILD\` would use (run it through make check)"
    exit 0
fi

D=$TMP/dest P=/opt/ttemu
t0=$(stat -c %Y.%N "$BUILD/ttemu")
if mk install DESTDIR="$D" PREFIX="$P" >"$TMP/install.log" 2>&1; then ok "make install DESTDIR PREFIX"; else
    nok "make install DESTDIR PREFIX" "$(tail -20 "$TMP/install.log")"; fi
if [ "$t0" = "$(stat -c %Y.%N "$BUILD/ttemu")" ]; then ok "make install installs the build as it is (no relink)"; else
    nok "make install installs the build as it is (no relink)" "$(cat "$TMP/install.log")"; fi
I=$D$P
for f in bin/ttemu lib/ttemu/ttemu-junit.so share/man/man1/ttemu.1 share/doc/ttemu/README.md \
    share/doc/ttemu/docs/cli.md share/doc/ttemu/docs/regression.md share/doc/ttemu/docs/img/panel-missing-sempost.png; do
    check "installed: $f" test -f "$I/$f"
done
check "installed: bin/ttemu is executable" test -x "$I/bin/ttemu"
if [ -z "$(ls "$I/bin")" ] || [ "$(ls "$I/bin")" != ttemu ]; then nok "bin/ holds ttemu alone (no plugin beside it)" "$(ls "$I/bin")"; else
    ok "bin/ holds ttemu alone (no plugin beside it)"; fi

# The installed binary, run from the checkout: its JUnit plugin comes from ../lib/ttemu/.
N=$(ls firmware-samples/regress/*.json | grep -vc '\.golden\.json$')
OUT=$("$I/bin/ttemu" regress firmware-samples/regress --jobs 2 --junit "$TMP/j.xml" 2>&1); RC=$?
expect_exit "installed ttemu regress --junit: exit 0" 0
check "installed ttemu regress --junit: the XML has a testcase per sample" python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert int(s.get("tests")) == int(sys.argv[2]) == len(s.findall("testcase")), s.attrib
' "$TMP/j.xml" "$N"
# Through a symbolic link elsewhere (as on PATH): the real path finds lib/ttemu.
mkdir -p "$TMP/links" && ln -s "$I/bin/ttemu" "$TMP/links/ttemu"
OUT=$("$TMP/links/ttemu" regress firmware-samples/regress/boot.json --junit "$TMP/l.xml" 2>&1); RC=$?
expect_exit "a symbolic link to the installed ttemu finds its plugins" 0
if "$I/bin/ttemu" --version | grep -qx "features: ui"; then
    check "installed: lib/ttemu/ttemu-panel.so" test -f "$I/lib/ttemu/ttemu-panel.so"
    OUT=$(timeout 120 "$I/bin/ttemu" run --trisc1 "$FW/broken/missing_sempost_trisc1.elf" \
        --trisc2 "$FW/broken/missing_sempost_trisc2.elf" --quiet --ui-screenshot "$TMP/stall.png" 2>&1); RC=$?
    expect_exit "installed ttemu --ui-screenshot: the run's own exit (1, deadlock)" 1
    if head -c 8 "$TMP/stall.png" 2>/dev/null | od -An -tx1 | grep -q "89 50 4e 47"; then ok "installed ttemu --ui-screenshot writes a PNG"; else
        nok "installed ttemu --ui-screenshot writes a PNG" "$OUT"; fi
else
    skip "installed ttemu --ui-screenshot" "built with UI=0 (no SDL2 panel)"
fi

# The man page: renders without warnings, and names every flag and exit code of docs/cli.md.
MAN=$I/share/man/man1/ttemu.1
if ! command -v man >/dev/null; then
    nok "man -l renders the page" "no man command: scripts/deps.sh installs man-db"
else
    MANWIDTH=100 man --warnings -l "$MAN" >"$TMP/man.txt" 2>"$TMP/man.err"
    if [ $? -eq 0 ] && [ ! -s "$TMP/man.err" ] && grep -q "^SYNOPSIS" "$TMP/man.txt"; then ok "man -l renders the page, no warnings"; else
        nok "man -l renders the page, no warnings" "$(head -20 "$TMP/man.err")"; fi
    missing=""
    for f in $(grep -oE -- '--[a-z][a-z0-9-]*' docs/cli.md | sort -u); do
        grep -qE -- "(^|[^a-z-])$f([^a-z-]|$)" "$TMP/man.txt" || missing="$missing $f"
    done
    if [ -z "$missing" ]; then ok "the man page names every flag of docs/cli.md"; else nok "the man page names every flag of docs/cli.md" "missing:$missing"; fi
    missing=""
    for r in $(sed -n 's/^| \([0-9]\) | `\([a-z_]*\)` .*/\1:\2/p' docs/cli.md); do
        sed -n '/^EXIT STATUS/,/^ENVIRONMENT/p' "$TMP/man.txt" | tr -s ' \n' ' ' | grep -qE " ${r%%:*} .*${r#*:}" || missing="$missing $r"
    done
    if [ -z "$missing" ]; then ok "the man page's EXIT STATUS has every exit code of docs/cli.md"; else
        nok "the man page's EXIT STATUS has every exit code of docs/cli.md" "missing:$missing"; fi
fi

# The default PREFIX is /usr/local.
mk install DESTDIR="$TMP/d2" >"$TMP/install2.log" 2>&1
check "default PREFIX: /usr/local/bin/ttemu" test -x "$TMP/d2/usr/local/bin/ttemu"

# make uninstall with the same DESTDIR and PREFIX removes every file install put there.
mk uninstall DESTDIR="$D" PREFIX="$P" >"$TMP/uninstall.log" 2>&1
left=$(find "$D" -type f)
if [ -z "$left" ] && [ ! -e "$I/lib/ttemu" ] && [ ! -e "$I/share/doc/ttemu" ]; then ok "make uninstall leaves no file"; else
    nok "make uninstall leaves no file" "$left"; fi
