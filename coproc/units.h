/* coproc/units.h — the semantics of the Scalar Unit (ThCon, coproc/thcon.c) and of the
 * Configuration Unit (coproc/cfgunit.c): what their instructions do to the architectural state,
 * nothing of when. The timing model calls each at the instruction's dispatch, once.
 */
#ifndef TTEMU_COPROC_UNITS_H
#define TTEMU_COPROC_UNITS_H

#include <stdbool.h>

#include "coproc/insn.h"

/* The operands of ADDDMAREG, SUBDMAREG, MULDMAREG, BITWOPDMAREG, SHIFTDMAREG, CMPDMAREG
 * (*DMAREG.md): one layout for the six; mode is OpSel (0 for the three without one). The timing
 * model reads them too: a pair of GPRs from different groups of four costs a cycle more. */
typedef struct {
    unsigned a, b, r, mode;
    bool b_const; /* OpBRegIndex is a 6-bit immediate, not a GPR */
} thcon_dmareg_t;
/* The operands of word, or all zero when it is not one of the six. */
thcon_dmareg_t thcon_dmareg(uint32_t word);

/* SETDMAREG, ADD/SUB/MUL/BITWOP/SHIFT/CMPDMAREG, STOREREG, LOADREG, DMANOP, RSTDMA, FLUSHDMA
 * (ScalarUnit.md and the pages of each); REG2FLOP, LOADIND, STOREIND and the AT* atomics are
 * reported as ttemu's gap (CP_ERR_UNIMPLEMENTED). */
void thcon_exec(const cp_insn_t *in);

/* WRCFG, RDCFG, SETC16, RMWCIB0..3, CFGSHIFTMASK, STREAMWRCFG (ConfigurationUnit.md and the pages
 * of each). */
void cfgu_exec(const cp_insn_t *in);

#endif
