/* coproc/insn.h — one instruction as the value side receives it: the architectural state it works
 * on, the tile, who issued it, and where its errors go. The timing model (coproc/timing.c) builds
 * one at the event where the instruction takes effect and hands it to the unit's semantics: the
 * Scalar Unit (coproc/thcon.c), the Configuration Unit (coproc/cfgunit.c), the datapath
 * (coproc/datapath.c). Those have no clock: they compute, write state, and report errors.
 */
#ifndef TTEMU_COPROC_INSN_H
#define TTEMU_COPROC_INSN_H

#include <stdint.h>

#include "coproc/cp.h"
#include "coproc/state.h"
#include "coproc/tt_ops.h"

typedef struct {
    cp_state_t *st;      /* GPRs, Config, ThreadConfig, Src ownership */
    const cp_env_t *env; /* the tile: MMIO, L1 */
    const tt_op_t *op;   /* the opcode's table entry (unit, mnemonic) */
    uint32_t word;
    unsigned thread;    /* the Tensix thread that issued it (0..2) */
    cp_origin_t origin; /* the core and pc that pushed it, for error messages */
    cp_error_t *err;    /* the coprocessor's error record: the first error since reset wins */
    uint64_t cycle;     /* the timing model's cycle at this event (SFPLOADMACRO's delays count them) */
    uint64_t *failed;   /* bumped when err takes its error (cp_count_errors; NULL: none) */
} cp_insn_t;

/* Stop the coprocessor on this instruction: record category, what (printf-style, one line, e.g.
 * "STOREREG to unmapped 0xffb90b88"), the thread, unit, word and origin — unless an earlier
 * error is already recorded (the first one is what the run reports). */
void cp_fail(const cp_insn_t *in, cp_err_cat_t cat, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
