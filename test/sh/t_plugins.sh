# Optional parts are plugins next to the executable (app/plugin.h): `ttemu run` loads neither
# SDL nor libxml2, and a missing plugin is a clear error (exit 4), not a crash.
. test/sh/lib.sh
B=$FW/broken

if ldd "$TTEMU" | grep -qE "libSDL2|libxml2"; then
    nok "ttemu links neither SDL2 nor libxml2" "$(ldd "$TTEMU" | grep -E 'libSDL2|libxml2')"
else ok "ttemu links neither SDL2 nor libxml2"; fi
check "the JUnit plugin is built next to ttemu" test -f "$(dirname "$TTEMU")/ttemu-junit.so"

# A copy of ttemu alone in a directory: no plugins beside it.
mkdir -p "$TMP/bare" && cp "$TTEMU" "$TMP/bare/ttemu"
OUT=$("$TMP/bare/ttemu" regress firmware-samples/regress/broken_ring.json --junit "$TMP/j.xml" 2>&1); RC=$?
expect_exit "regress --junit without its plugin: exit 4" 4
expect_out "regress --junit without its plugin: names the file" "cannot load the plugin .*/bare/ttemu-junit.so"
OUT=$("$TMP/bare/ttemu" regress firmware-samples/regress/broken_ring.json 2>&1); RC=$?
expect_exit "regress without --junit needs no plugin" 0
# Merging shards and balancing them by a JUnit file's times read XML: the plugin's too.
"$TTEMU" regress firmware-samples/regress/boot.json --junit "$TMP/boot.xml" >/dev/null
OUT=$("$TMP/bare/ttemu" regress --merge-junit "$TMP/m.xml" "$TMP/boot.xml" 2>&1); RC=$?
expect_exit "regress --merge-junit without its plugin: exit 4" 4
expect_out "regress --merge-junit without its plugin: names the file" "cannot load the plugin .*/bare/ttemu-junit.so"
OUT=$("$TMP/bare/ttemu" regress firmware-samples/regress/boot.json --shard 1/1 --shard-timing "$TMP/boot.xml" 2>&1); RC=$?
expect_exit "regress --shard-timing without its plugin: exit 4" 4
OUT=$("$TMP/bare/ttemu" regress firmware-samples/regress/boot.json --shard 1/1 2>&1); RC=$?
expect_exit "regress --shard by name needs no plugin" 0
OUT=$("$TMP/bare/ttemu" run --trisc1 $B/ring_trisc1.elf --trisc2 $B/ring_trisc2.elf --quiet 2>&1); RC=$?
expect_exit "run needs no plugin (the ring still deadlocks: exit 1)" 1
if "$TTEMU" --version | grep -qx "features: ui"; then
    OUT=$("$TMP/bare/ttemu" run --trisc1 $B/ring_trisc1.elf --ui-screenshot "$TMP/s.png" 2>&1); RC=$?
    expect_exit "--ui without the panel plugin: exit 4" 4
    expect_out "--ui without the panel plugin: names the file" "--ui: cannot load the plugin .*/bare/ttemu-panel.so"
else
    skip "--ui without the panel plugin: exit 4" "built with UI=0"
    skip "--ui without the panel plugin: names the file" "built with UI=0"
fi
