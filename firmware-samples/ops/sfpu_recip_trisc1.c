/* sfpu_recip, math (TRISC1): each tile copied into Dst, then 1 / x by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_RECIP_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_RECIP_INIT(), SFPU_RECIP_ITER()); }
