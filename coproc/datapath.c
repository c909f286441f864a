/* coproc/datapath.c — the datapath seam (coproc/datapath.h). It holds no values yet: dp_exec
 * accepts every instruction the timing model routes to it and changes nothing, so the model
 * stays the occupancy model it was. The next issue adds the register files, formats and units
 * behind this entry point. */
#include "coproc/datapath.h"

#include <stdlib.h>

#include "coproc/tt_fields.h"

struct dp {
    unsigned executed; /* instructions seen since reset (for the seam's tests) */
};

dp_t *dp_create(void) {
    dp_t *dp = calloc(1, sizeof *dp);
    if (dp) dp_reset(dp);
    return dp;
}

void dp_destroy(dp_t *dp) { free(dp); }

void dp_reset(dp_t *dp) { dp->executed = 0; }

bool dp_handles(const tt_op_t *op) {
    if (!op) return false;
    switch (op->unit) {
    case TT_UNIT_UNPACK:
    case TT_UNIT_MATH:
    case TT_UNIT_SFPU:
    case TT_UNIT_PACK: return true;
    case TT_UNIT_MISC:
        /* ADCs.md: the address counters' instructions; not NOP, not SETDVALID (a hand-over). */
        switch (op->opcode) {
        case TT_OPC_SETADC:
        case TT_OPC_SETADCXY:
        case TT_OPC_INCADCXY:
        case TT_OPC_ADDRCRXY:
        case TT_OPC_SETADCZW:
        case TT_OPC_INCADCZW:
        case TT_OPC_ADDRCRZW:
        case TT_OPC_SETADCXX: return true;
        default: return false;
        }
    default: return false;
    }
}

void dp_exec(dp_t *dp, const cp_insn_t *in) {
    (void)in;
    dp->executed++;
}

unsigned dp_executed(const dp_t *dp) { return dp->executed; }
