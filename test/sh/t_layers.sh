# The rooms' dependency direction (docs/architecture.md): scripts/check_layers.py passes on the
# tree, and fails on copies with a backwards include and with a header cycle (so it can fail).
. test/sh/lib.sh

OUT=$(python3 scripts/check_layers.py 2>&1); RC=$?
expect_exit "the tree has no backwards include and no header cycle" 0

copy() { rm -rf "$TMP/t" && mkdir -p "$TMP/t" && cp -r core coproc mmio tile run loader debug app ui "$TMP/t/"; }

copy
sed -i '0,/#include "coproc\/cp.h"/s//#include "coproc\/cp.h"\n#include "run\/run.h"/' "$TMP/t/tile/tile.h"
OUT=$(python3 scripts/check_layers.py "$TMP/t" 2>&1); RC=$?
expect_exit "a backwards include (tile/ -> run/) fails" 1
expect_out "a backwards include is named" "tile/tile.h: includes run/run.h: tile/ may not depend on run/"

copy
printf '#include "coproc/tt_ops.h"\n' >> "$TMP/t/coproc/cp.h"
printf '#include "coproc/cp.h"\n' >> "$TMP/t/coproc/tt_ops.h"
OUT=$(python3 scripts/check_layers.py "$TMP/t" 2>&1); RC=$?
expect_exit "a header cycle fails" 1
expect_out "a header cycle is named" "header cycle: coproc/.*\.h -> coproc/.*\.h"

copy
printf '#include "core/hart.h"\n' >> "$TMP/t/coproc/gate.c"
OUT=$(python3 scripts/check_layers.py "$TMP/t" 2>&1); RC=$?
expect_exit "the coprocessor may not know RISC-V (coproc/ -> core/ fails)" 1
