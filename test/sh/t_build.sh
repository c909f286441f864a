# The build configuration is part of the dependency graph (Makefile, "the build configuration"):
# a scratch BUILD built with UI=0 and then, as on a fresh machine, by `make demo` whose deps
# install SDL2 only after make has started, ends up with the panel; the same knobs rebuild
# nothing; UI=0 again drops the panel and its plugin.
. test/sh/lib.sh

# Once is enough: the sanitizer pass checks the same Makefile.
if grep -qx 'SAN=1' "$BUILD/config.stamp" 2>/dev/null; then
    skip "build configurations" "checked by the plain pass"
    exit 0
fi
REAL_PKG_CONFIG=$(command -v pkg-config)
if [ -z "$REAL_PKG_CONFIG" ] || ! pkg-config --exists sdl2 SDL2_ttf SDL2_image; then
    skip "build configurations" "pkg-config finds no SDL2 (sdl2 SDL2_ttf SDL2_image): scripts/deps.sh installs it"
    exit 0
fi
B=$TMP/b
# A make of its own: not the -j, BUILD, SAN or DEPS=0 of a make that runs this test (its command
# line reaches us in MAKEFLAGS and in the environment).
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DEPS -u BUILD -u SAN -u UI -u CC -u CFLAGS -u LDFLAGS -u V \
        make --no-print-directory -j2 BUILD="$B" "$@"
}
features() { "$B/ttemu" --version 2>&1 | grep '^features:'; }

# 1. UI=0.
if mk UI=0 all >"$TMP/1.log" 2>&1; then ok "UI=0: builds"; else nok "UI=0: builds" "$(tail -20 "$TMP/1.log")"; fi
f=$(features)
if [ "$f" = "features: -ui (built with UI=0)" ]; then ok "UI=0: --version says -ui"; else nok "UI=0: --version says -ui" "$f"; fi
check "UI=0: the stamp records UI=0" grep -qx 'UI=0' "$B/config.stamp"

# 2. A fresh machine: SDL2 is missing until scripts/deps.sh installs it. Fakes first on PATH:
# dpkg-query says libsdl2-dev is not installed and apt-get "installs" it (a marker file);
# pkg-config finds no SDL2 before that. The real deps.sh and Makefile run.
F=$TMP/fake MARK=$TMP/sdl2-installed
mkdir -p "$F"
cat >"$F/dpkg-query" <<EOF
#!/bin/sh
for p; do :; done
if [ "\$p" = libsdl2-dev ] && [ ! -e "$MARK" ]; then exit 1; fi
printf 'install ok installed'
EOF
cat >"$F/apt-get" <<EOF
#!/bin/sh
case " \$* " in *" install "*) touch "$MARK";; esac
EOF
cat >"$F/pkg-config" <<EOF
#!/bin/sh
if [ ! -e "$MARK" ]; then case " \$* " in *" sdl2 "*) exit 1;; esac; fi
exec "$REAL_PKG_CONFIG" "\$@"
EOF
printf '#!/bin/sh\necho 0\n' >"$F/id"
chmod +x "$F"/*
ui_before=$(PATH="$F:$PATH" mk config | grep '^UI=')
if [ "$ui_before" = "UI=0" ]; then ok "fake machine: before deps, UI=auto finds no SDL2"; else nok "fake machine: before deps, UI=auto finds no SDL2" "$ui_before"; fi
if PATH="$F:$PATH" mk demo >"$TMP/2.log" 2>&1; then ok "make demo (deps install SDL2 meanwhile): builds and runs"; else nok "make demo: builds and runs" "$(tail -20 "$TMP/2.log")"; fi
check "make demo: deps.sh installed libsdl2-dev" test -e "$MARK"
f=$(features)
if [ "$f" = "features: ui" ]; then ok "make demo after a UI=0 build: --version says features: ui"; else nok "make demo after a UI=0 build: --version says features: ui" "$f" "$(grep -E 'CONFIG|deps' "$TMP/2.log")"; fi
check "make demo: the panel plugin is built" test -f "$B/ttemu-panel.so"
OUT=$(timeout 120 "$B/ttemu" run --brisc "$FW/demo/brisc.elf" --quiet --ui-screenshot "$TMP/demo.bmp" 2>&1); RC=$?
expect_exit "the rebuilt ttemu draws the panel (exit 0)" 0

# 3. The same knobs again: nothing is rebuilt.
t0=$(stat -c %Y.%N "$B/ttemu" "$B/obj/app/main.o")
mk all >"$TMP/3.log" 2>&1
t1=$(stat -c %Y.%N "$B/ttemu" "$B/obj/app/main.o")
if [ "$t0" = "$t1" ] && [ ! -s "$TMP/3.log" ]; then ok "same knobs: nothing rebuilt"; else nok "same knobs: nothing rebuilt" "$(cat "$TMP/3.log")"; fi

# 4. UI=0 again: rebuilt without the panel, and no stale plugin left for `make install`.
mk UI=0 all >"$TMP/4.log" 2>&1
f=$(features)
if [ "$f" = "features: -ui (built with UI=0)" ]; then ok "UI=0 after UI=1: --version says -ui"; else nok "UI=0 after UI=1: --version says -ui" "$f"; fi
if [ ! -e "$B/ttemu-panel.so" ]; then ok "UI=0 after UI=1: no stale panel plugin"; else nok "UI=0 after UI=1: no stale panel plugin"; fi

# Every knob is in the stamp (what make compares), CFLAGS included.
c=$(mk config CFLAGS="-O1 -DPROBE" SAN=1)
if grep -qx 'CFLAGS=-O1 -DPROBE' <<<"$c" && grep -qx 'SAN=1' <<<"$c" && grep -q '^TTEMU_CFLAGS=.*-fsanitize=address' <<<"$c"; then
    ok "make config: CFLAGS and SAN are part of the configuration"
else nok "make config: CFLAGS and SAN are part of the configuration" "$c"; fi

# Profile feedback (Makefile PGO, README "Profile feedback"): the default gcc build trained and
# left each object's profile beside it; gcc refuses (-Wmissing-profile, an error here) to build an
# optimised object without its profile, so a build that passed used them all.
c=$(mk config)
if grep -qx 'PGO=1' <<<"$c" && grep -qx "PGO_TT_METAL=$([ -d ../shared/firmware/blackhole-p100a ] && [ -d ../shared/firmware/kernels-add1 ] && echo 1 || echo 0)" <<<"$c"; then
    ok "make config: PGO=1 by default, and whether the training saw the tt-metal programs"
else nok "make config: PGO=1 by default, and whether the training saw the tt-metal programs" "$c"; fi
check "PGO: the profiles lie beside the objects they optimised" test -s "$B/obj/core/exec.gcda" -a -s "$B/obj/coproc/cp.gcda"
c=$(mk config SAN=1; mk config CC=clang)
if [ "$(grep -c '^PGO=0$' <<<"$c")" = 2 ] && ! grep -q '^PGO_TT_METAL' <<<"$c"; then
    ok "make config: the sanitizer pass and clang build without profile feedback"
else nok "make config: the sanitizer pass and clang build without profile feedback" "$c"; fi
# (UI=0: the knobs of the last build above, so nothing else is rebuilt)
rm -f "$B/obj/app/runcfg.gcda" "$B/obj/app/runcfg.o"
if mk UI=0 "$B/obj/app/runcfg.o" >"$TMP/5.log" 2>&1; then nok "PGO: an object whose profile is missing is refused" "$(cat "$TMP/5.log")"
elif grep -q 'runcfg.gcda.*not found' "$TMP/5.log"; then ok "PGO: an object whose profile is missing is refused"
else nok "PGO: an object whose profile is missing is refused" "$(tail -5 "$TMP/5.log")"; fi

# The training's own checks: a run killed by a signal fails it, naming the signal; a training that
# wrote no profile fails it.
printf '#!/bin/sh\nkill -SEGV $$\n' >"$TMP/crash" && printf '#!/bin/sh\nexit 3\n' >"$TMP/noprof" && chmod +x "$TMP/crash" "$TMP/noprof"
mkdir -p "$TMP/objs"
OUT=$(scripts/pgo_train.sh "$TMP/crash" "$TMP/objs" 2>&1); RC=$?
if [ $RC -ne 0 ] && grep -q 'killed by signal 11' <<<"$OUT"; then ok "pgo_train.sh: a crashed run fails the training"
else nok "pgo_train.sh: a crashed run fails the training" "exit $RC" "$OUT"; fi
OUT=$(scripts/pgo_train.sh "$TMP/noprof" "$TMP/objs" 2>&1); RC=$?
if [ $RC -ne 0 ] && grep -q 'wrote no profile' <<<"$OUT"; then ok "pgo_train.sh: a training that counted nothing fails"
else nok "pgo_train.sh: a training that counted nothing fails" "exit $RC" "$OUT"; fi
# PGO_TRAIN's configs are run after the set (and a name that is no file stops the training first).
# The object directory does not exist yet, as in a fresh clone's first build.
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$TMP/runs.log" >"$TMP/logger" && chmod +x "$TMP/logger" && echo '{}' >"$TMP/mine.json"
scripts/pgo_train.sh "$TMP/logger" "$TMP/fresh/obj" "$TMP/mine.json" >/dev/null 2>&1
if [ "$(tail -1 "$TMP/runs.log")" = "run --config $TMP/mine.json --quiet" ] && grep -q 'firmware-samples/ops/matmul.json' "$TMP/runs.log"; then
    ok "pgo_train.sh: the samples, then PGO_TRAIN's configs"
else nok "pgo_train.sh: the samples, then PGO_TRAIN's configs" "$(cat "$TMP/runs.log")"; fi
rm -f "$TMP/runs.log"
OUT=$(scripts/pgo_train.sh "$TMP/logger" "$TMP/objs" "$TMP/none.json" 2>&1); RC=$?
if [ $RC -ne 0 ] && grep -q "PGO_TRAIN names $TMP/none.json: no such file" <<<"$OUT" && [ ! -e "$TMP/runs.log" ]; then
    ok "pgo_train.sh: a PGO_TRAIN config that is no file stops it before any run"
else nok "pgo_train.sh: a PGO_TRAIN config that is no file stops it before any run" "exit $RC" "$OUT"; fi
# The caller's TTEMU_REFERENCE never reaches the training's runs (the set would train the reference
# path instead).
printf '#!/bin/sh\necho "${TTEMU_REFERENCE-unset}" >>"%s"\n' "$TMP/env.log" >"$TMP/envlog" && chmod +x "$TMP/envlog"
TTEMU_REFERENCE=1 scripts/pgo_train.sh "$TMP/envlog" "$TMP/objs" >/dev/null 2>&1
if [ -s "$TMP/env.log" ] && [ "$(sort -u "$TMP/env.log")" = unset ]; then ok "pgo_train.sh: the caller's TTEMU_REFERENCE is not passed on"
else nok "pgo_train.sh: the caller's TTEMU_REFERENCE is not passed on" "$(sort | uniq -c <"$TMP/env.log")"; fi
# A build goal without the training's cross gcc says why make builds firmware; one with it does not.
w=$(mk -n RV_PREFIX=nonexist- all 2>&1 >/dev/null)
if grep -q 'PGO=1 trains the build on the firmware samples: it needs nonexist-gcc' <<<"$w" && [ -z "$(mk -n all 2>&1 >/dev/null)" ]; then
    ok "make without the cross gcc: PGO=1 says what it needs"
else nok "make without the cross gcc: PGO=1 says what it needs" "$w"; fi
# Link-time optimisation: on by default, off in the sanitizer pass and with clang.
c=$(mk config; mk config SAN=1; mk config CC=clang)
if [ "$(grep -c '^LTO=1$' <<<"$c")" = 1 ] && [ "$(grep -c '^LTO=0$' <<<"$c")" = 2 ]; then ok "make config: LTO=1 by default, 0 under SAN=1 and with clang"
else nok "make config: LTO=1 by default, 0 under SAN=1 and with clang" "$(grep '^LTO' <<<"$c")"; fi
