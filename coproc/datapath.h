/* coproc/datapath.h — the seam where the Tensix datapath's values go: register files, formats,
 * unpackers, Matrix Unit, SFPU, packers, the ADCs (docs/coprocessor-backend.md, "The datapath
 * seam"). Today dp_exec does nothing; the next issue fills it.
 *
 * The contract:
 *  - The timing model (coproc/timing.c) calls dp_exec exactly once per datapath instruction, at
 *    the event where it takes effect: UNPACR and UNPACR_NOP when they retire from their
 *    unpacker's queue; Matrix Unit, SFPU and Packer instructions and the Miscellaneous Unit's ADC
 *    family (SETADC*, INCADC*, ADDRCR*) when they leave the Wait Gate (dispatch). It calls it
 *    before the instruction's own SrcA/SrcB hand-over, so the datapath sees the banks the
 *    instruction uses.
 *  - The datapath has no clock and never stalls: it computes and writes state at once. Whether an
 *    instruction may start, and how long it occupies its unit, is the timing model's alone.
 *  - It may read and write the architectural state in in->st (GPRs, Config, ThreadConfig, the
 *    Src bank pointers: read only — hand-overs are the timing model's) and its own state in dp_t
 *    (register files, counters); L1 directly through in->env->l1 / l1_size, reporting every
 *    write with in->env->l1_written(ctx, addr, len); the tile's MMIO through in->env->mmio_*.
 *  - It reports errors with cp_fail (coproc/insn.h), which names the thread, the pushing core and
 *    pc, and the word; the run then stops (a guest fault, exit 3, or ttemu's gap, exit 6).
 */
#ifndef TTEMU_COPROC_DATAPATH_H
#define TTEMU_COPROC_DATAPATH_H

#include <stdbool.h>

#include "coproc/insn.h"

typedef struct dp dp_t;

dp_t *dp_create(void);
void dp_destroy(dp_t *dp);
/* Power-on state of the datapath's own state (the coprocessor's reset). */
void dp_reset(dp_t *dp);

/* Does the timing model hand instructions of this opcode to dp_exec? (Unpacker, Matrix Unit,
 * SFPU, Packer, and the Miscellaneous Unit's ADC family.) */
bool dp_handles(const tt_op_t *op);

/* Execute one datapath instruction (see the contract above). */
void dp_exec(dp_t *dp, const cp_insn_t *in);
/* How many instructions dp_exec has seen since reset (the seam's tests count the events). */
unsigned dp_executed(const dp_t *dp);

#endif
