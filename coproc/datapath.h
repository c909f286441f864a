/* coproc/datapath.h — the seam where the Tensix datapath's values go: register files, formats,
 * unpackers, Matrix Unit, SFPU, packers, the ADCs (docs/coprocessor-backend.md, "The datapath
 * seam"). What is modelled, and how exactly: docs/datapath.md.
 *
 * The contract:
 *  - The timing model (coproc/timing.c) calls dp_exec (or dp_exec_in) exactly once per datapath instruction, when
 *    it leaves the Wait Gate (dispatch): there Matrix Unit, SFPU and Packer instructions and the
 *    Miscellaneous Unit's ADC family (SETADC*, INCADC*, ADDRCR*) take effect.
 *  - Unpacker instructions (UNPACR, UNPACR_NOP) take effect in two events, as on silicon
 *    (UNPACR_Regular.md "Performance": the address is computed when the unpacker takes the
 *    instruction; the data waits for the bank). dp_exec, at dispatch, reads every configuration
 *    and counter it depends on and advances the counters; dp_unpack_data, called once per
 *    unpacker instruction when it retires from its unpacker's queue, in the same order, moves the
 *    data into the bank the unpacker owns then. Both come before the instruction's own SrcA/SrcB
 *    hand-over, so the datapath sees the banks the instruction uses.
 *  - The datapath has no clock and never stalls: it computes and writes state at once. Whether an
 *    instruction may start, and how long it occupies its unit, is the timing model's alone. The one
 *    reader of time: SFPLOADMACRO's scheduled instructions execute cycles later, so the Vector Unit
 *    steps its schedule to in->cycle (the dispatch cycle) before each datapath instruction
 *    (coproc/sfpu_macro.c).
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

#include "coproc/dp_regs.h"
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
/* dp_exec, told whether the instruction's opcode is the Vector Unit's (TT_UNIT_SFPU) and its
 * thread below DP_THREADS (sfpu): then without looking its opcode's kind up (the timing model's
 * issue, which knows both: coproc/timing.c tm_unit_issue). */
void dp_exec_in(dp_t *dp, const cp_insn_t *in, bool sfpu);
/* The data side of an unpacker instruction dp_exec took at dispatch (see the contract above). */
void dp_unpack_data(dp_t *dp, const cp_insn_t *in);
/* on: every instruction through its general, datum-by-datum path, with none of the shortcuts
 * that compute whole rows or lanes at once (the same values; the unit tests compare the two). */
void dp_set_reference(dp_t *dp, bool on);
/* Which byte-order form coproc/pack.c (PACR's rows out to L1, its FP32 L1 accumulation),
 * coproc/sfpu.c (SFPLOAD's and SFPSTORE's pairs of Dst cells) and coproc/unpack.c (UNPACR's 32-bit
 * datums read from L1 one by one) were built with: "le" (the host's words in place) or "portable"
 * (byte by byte; -DTTEMU_NO_SIMD or a big-endian host): formats.h FMT_HOST_LE. */
const char *dp_pack_byte_order_form(void);
const char *dp_sfpu_byte_order_form(void);
const char *dp_unpack_byte_order_form(void);
/* How many instructions dp_exec, and how many unpacker instructions dp_unpack_data, has seen
 * since reset (the seam's tests count the events). */
unsigned dp_executed(const dp_t *dp);
unsigned dp_unpacks_retired(const dp_t *dp);

/* Read-only views of the register files and counters (tests, debugging). */
const src_regs_t *dp_srca(const dp_t *dp);
const src_regs_t *dp_srcb(const dp_t *dp);
const dst_regs_t *dp_dst(const dp_t *dp);
const lregs_t *dp_lregs(const dp_t *dp);
const rwc_t *dp_rwc(const dp_t *dp, unsigned t);
const adc_t *dp_adc(const dp_t *dp, unsigned t, unsigned unit);
/* Write access for the unit tests, which build their inputs in the register files directly. A
 * pointer from dp_lregs_mut is for writes before the next instruction: the call shuts the Vector
 * Unit's light way until a word goes the general way (dp_t.sfp_gate); a write through a pointer
 * kept past later instructions would not. */
src_regs_t *dp_srca_mut(dp_t *dp);
src_regs_t *dp_srcb_mut(dp_t *dp);
dst_regs_t *dp_dst_mut(dp_t *dp);
lregs_t *dp_lregs_mut(dp_t *dp);

#endif
