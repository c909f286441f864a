/* sfpu_exp, math (TRISC1): each tile copied into Dst, then e^x by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_EXP_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_EXP_INIT(), SFPU_EXP_ITER()); }
